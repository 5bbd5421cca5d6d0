# ruff: noqa: E501 - one PyTorch snippet per line
"""torch.utils.data (TensorDataset, DataLoader, random_split, default_collate) against real PyTorch.

The shuffled orders must be PyTorch's exactly: course_lib's CPU generator
reproduces PyTorch's mt19937 stream and the DataLoader draws from it as
PyTorch's does.
"""

import pytest
from torch_compare import assert_same, cases

import course_lib

pytest.importorskip("torch")

SNIPPETS = cases("""
torch.manual_seed(0); print(list(torch.utils.data.DataLoader(range(10), batch_size=4, shuffle=True)))
torch.manual_seed(0); dl = torch.utils.data.DataLoader(range(10), batch_size=3, shuffle=True, drop_last=True); print(list(dl), list(dl), len(dl))
print(list(torch.utils.data.DataLoader(range(10), batch_size=4)), len(torch.utils.data.DataLoader(range(10), batch_size=4)))
torch.manual_seed(1); print(list(torch.utils.data.DataLoader(list(range(7)), shuffle=True)))
torch.manual_seed(0); g = torch.Generator().manual_seed(3); print(list(torch.utils.data.DataLoader(range(8), batch_size=5, shuffle=True, generator=g)), torch.rand(1))
torch.manual_seed(0); dl = torch.utils.data.DataLoader(range(6), batch_size=2, shuffle=True); it = iter(dl); print(torch.rand(1)); print(list(it))
torch.manual_seed(0); X = torch.randn(5, 2); y = torch.arange(5); ds = torch.utils.data.TensorDataset(X, y); print(len(ds), ds[1]); print(list(torch.utils.data.DataLoader(ds, batch_size=2, shuffle=True)))
torch.manual_seed(0); ds = torch.utils.data.TensorDataset(torch.randn(6, 2), torch.arange(6)); print([(xb.shape, yb) for xb, yb in torch.utils.data.DataLoader(ds, batch_size=4)])
torch.utils.data.TensorDataset(torch.ones(3), torch.ones(4))
print(list(torch.utils.data.DataLoader([0.5, 1.5, 2.5], batch_size=2)))
print(list(torch.utils.data.DataLoader([(1, 2.0), (3, 4.0)], batch_size=2)))
print(list(torch.utils.data.DataLoader([{'a': 1, 'b': torch.ones(2)}, {'a': 2, 'b': torch.zeros(2)}], batch_size=2)))
print(list(torch.utils.data.DataLoader([np.ones(2), np.zeros(2)], batch_size=2)))
print(list(torch.utils.data.DataLoader(['x', 'y', 'z'], batch_size=2)))
print(list(torch.utils.data.DataLoader([[1, 2], [3]], batch_size=2)))
print(list(torch.utils.data.DataLoader([torch.ones(2), torch.ones(3)], batch_size=2)))
print(list(torch.utils.data.DataLoader(range(3), batch_size=None)))
torch.utils.data.DataLoader(range(3), batch_size=0)
torch.utils.data.DataLoader(range(3), shuffle=True, sampler=torch.utils.data.SequentialSampler(range(3)))
torch.manual_seed(0); a, b = torch.utils.data.random_split(range(10), [7, 3]); print(list(a), list(b), len(a))
torch.manual_seed(0); parts = torch.utils.data.random_split(range(10), [0.5, 0.3, 0.2]); print([list(p) for p in parts])
torch.manual_seed(0); parts = torch.utils.data.random_split(range(10), [0.25, 0.75]); print([list(p) for p in parts])
torch.utils.data.random_split(range(10), [3, 3])
print(torch.pi, torch.e, torch.inf, torch.nan, torch.tensor([torch.pi, -torch.inf]))
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_data_as_pytorch(code):
    assert_same(code)


def test_training_loop_with_a_dataloader_matches_pytorch():
    import torch
    losses = {}
    for lib in (course_lib, torch):
        lib.manual_seed(0)
        X, y = lib.randn(20, 3), lib.randint(0, 3, (20,))
        model = lib.nn.Sequential(lib.nn.Linear(3, 8), lib.nn.ReLU(), lib.nn.Linear(8, 3))
        opt = lib.optim.Adam(model.parameters(), lr=0.05)
        loader = lib.utils.data.DataLoader(lib.utils.data.TensorDataset(X, y), batch_size=6, shuffle=True)
        seen = []
        for _ in range(3):
            for xb, yb in loader:
                opt.zero_grad()
                loss = lib.nn.CrossEntropyLoss()(model(xb), yb)
                loss.backward()
                opt.step()
                seen.append(round(loss.item(), 5))
        losses[lib.__name__] = seen
    assert losses["course_lib"] == pytest.approx(losses["torch"], rel=1e-5)
