"""Random numbers: after ``manual_seed``, course_lib's CPU generator gives PyTorch's values (mt19937 and
PyTorch's uniform, normal, randint and randperm kernels), plus the shapes, dtypes and errors of the random
functions."""

import pytest
from torch_compare import assert_same, cases

import course_lib as torch

CASES = r"""
torch.manual_seed(0); print(torch.rand(3))
torch.manual_seed(0); print(torch.rand(2, 3))
torch.manual_seed(0); print(torch.rand((2, 2)), torch.rand([3]))
torch.manual_seed(0); print(torch.rand(3, dtype=torch.float64))
torch.manual_seed(0); print(torch.rand(3, dtype=torch.float16))
torch.manual_seed(0); print(torch.rand(2), torch.rand(2))
torch.manual_seed(0); print(torch.randn(3))
torch.manual_seed(0); print(torch.randn(5, 4))
torch.manual_seed(0); print(torch.randn(17))
torch.manual_seed(0); print(torch.randn(100)[-5:])
torch.manual_seed(0); print(torch.randn(3, dtype=torch.float64))
torch.manual_seed(0); print(torch.randn(20, dtype=torch.float64)[:3])
torch.manual_seed(0); print(torch.randn(3), torch.randn(3))
torch.manual_seed(0); print(torch.randn(1), torch.rand(1), torch.randn(1))
torch.manual_seed(0); print(torch.randn(16), torch.randn(32)[-3:])
torch.manual_seed(3); print(torch.randn(4, 4))
torch.manual_seed(0); print(torch.randn(2, 3).t())
torch.manual_seed(0); print(torch.randint(0, 10, (2, 5)))
torch.manual_seed(0); print(torch.randint(10, (6,)))
torch.manual_seed(0); print(torch.randint(3, 10, size=(4,)))
torch.manual_seed(0); print(torch.randint(-5, 5, (3,), dtype=torch.int8))
torch.manual_seed(0); print(torch.randint(0, 2**40, (3,)))
torch.manual_seed(0); print(torch.randint(0, 2, (2, 2), dtype=torch.float32))
torch.manual_seed(0); print(torch.randperm(6))
torch.manual_seed(0); print(torch.randperm(30))
torch.manual_seed(0); print(torch.randperm(1), torch.randperm(0))
torch.manual_seed(0); print(torch.normal(2., 3., size=(5,)))
torch.manual_seed(0); print(torch.normal(2., 3., size=(4, 5)))
torch.manual_seed(0); print(torch.normal(torch.tensor([0., 10.]), torch.tensor([1., 2.])))
torch.manual_seed(0); print(torch.normal(torch.tensor([0., 10., 100.]), torch.tensor([.1, .1, .1])))
torch.manual_seed(0); print(torch.normal(torch.tensor([0., 10.]), 2.0))
torch.manual_seed(0); print(torch.normal(3.0, torch.tensor([1., 2.])))
torch.manual_seed(0); print(torch.empty(3).uniform_(-2, 5))
torch.manual_seed(0); print(torch.empty(20).normal_(1, 2))
torch.manual_seed(0); print(torch.empty(3, dtype=torch.float64).normal_())
torch.manual_seed(0); print(torch.bernoulli(torch.tensor([0.5, 0.5, 0.9])))
torch.manual_seed(42); print(torch.rand(2, 2))
torch.manual_seed(2**40 + 5); print(torch.rand(2))
torch.manual_seed(-1); print(torch.rand(2), torch.initial_seed())
print(torch.initial_seed())
torch.manual_seed(0); s = torch.get_rng_state(); a = torch.rand(2); torch.set_rng_state(s); print(a, torch.rand(2))
torch.manual_seed(0); s = torch.get_rng_state(); print(s.shape, s.dtype)
torch.manual_seed(0); print(torch.rand_like(torch.zeros(2, 2)))
torch.manual_seed(0); print(torch.randn_like(torch.zeros(2, 2, dtype=torch.float64)))
torch.manual_seed(0); print(torch.randint_like(torch.zeros(3), 5))
g = torch.Generator(); g.manual_seed(0); print(torch.rand(3, generator=g))
torch.manual_seed(0); torch.rand(5); torch.manual_seed(0); print(torch.rand(2))
print(type(torch.manual_seed(1)).__name__, torch.manual_seed(1).initial_seed())
torch.rand(2, 3, dtype=torch.int64)
torch.randn(2, dtype=torch.int32)
torch.rand(-1)
torch.rand(2.5)
torch.rand(2, "a")
torch.rand()
torch.randn(2, -1)
torch.rand(2, requires_grad=True)
torch.randint(5, 2, (3,))
torch.randint(0, 5)
torch.randint(5, (2.5,))
torch.randint(2.5, (3,))
torch.randperm(-1)
torch.normal(2, -1, size=(3,))
torch.normal(torch.tensor([0.0]), torch.tensor([-1.0]))
torch.normal(2., 3.)
torch.manual_seed(2.5).initial_seed()
torch.manual_seed("a")
torch.manual_seed(2**64)
torch.rand(2, 3).shape, torch.rand(2, 3).dtype, torch.randn(4).shape
torch.randint(0, 10, (3,)).dtype, torch.randint(0, 10, (3,), dtype=torch.int32).dtype
torch.rand(0).shape, torch.randn(2, 0).shape
"""


@pytest.mark.parametrize("code", cases(CASES))
def test_same_as_pytorch(code):
    assert_same(code)


def test_ranges_and_moments():
    torch.manual_seed(7)
    u = torch.rand(20000)
    assert 0.0 <= u.min().item() and u.max().item() < 1.0
    assert abs(u.mean().item() - 0.5) < 0.01
    n = torch.normal(2.0, 3.0, size=(20000,))
    assert abs(n.mean().item() - 2.0) < 0.1 and abs(n.var().item() - 9.0) < 0.5     # variance std**2
    r = torch.randint(3, 7, (1000,))
    assert set(r.tolist()) == {3, 4, 5, 6}
    assert sorted(torch.randperm(50).tolist()) == list(range(50))


def test_seed_repeats_and_state_restores():
    torch.manual_seed(123)
    first = torch.randn(5).tolist()
    torch.manual_seed(123)
    assert torch.randn(5).tolist() == first
    state = torch.get_rng_state()
    after = torch.rand(3).tolist()
    torch.set_rng_state(state)
    assert torch.rand(3).tolist() == after
    with pytest.raises(RuntimeError):
        torch.set_rng_state(torch.zeros(3))
