# ruff: noqa: E501 - one PyTorch snippet per line
"""optim.Adam / AdamW / SGD and Optimizer.state_dict against real PyTorch.

The same seeded model is trained for a few steps by each engine; the
parameters must agree to float32 precision (course_lib follows PyTorch's
single-tensor algorithm in the parameter's dtype), and the printed optimizer,
state_dict and error messages must be identical.
"""

import numpy as np
import pytest
from torch_compare import assert_same, cases

import course_lib

torch = pytest.importorskip("torch")


def _train(lib, make_opt, steps=5):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 2))
    x, y = lib.randn(8, 3), lib.randint(0, 2, (8,))
    opt = make_opt(lib, model.parameters())
    for _ in range(steps):
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    return [p.detach().numpy().copy() for p in model.parameters()], opt


@pytest.mark.parametrize("make_opt", [
    lambda t, ps: t.optim.Adam(ps, lr=0.1),
    lambda t, ps: t.optim.Adam(ps, lr=0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1),
    lambda t, ps: t.optim.Adam(ps, lr=0.05, amsgrad=True),
    lambda t, ps: t.optim.Adam(ps, lr=0.05, maximize=True),
    lambda t, ps: t.optim.Adam(ps, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
    lambda t, ps: t.optim.AdamW(ps, lr=0.05),
    lambda t, ps: t.optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=0.01),
    lambda t, ps: t.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True),
    lambda t, ps: t.optim.SGD(ps, lr=0.1, momentum=0.5, dampening=0.1),
])
def test_parameters_after_steps_equal_pytorchs(make_opt):
    ours, opt = _train(course_lib, make_opt)
    theirs, ref = _train(torch, make_opt)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=2e-6, atol=2e-7)
    ours_state, theirs_state = opt.state_dict(), ref.state_dict()
    assert ours_state["param_groups"] == theirs_state["param_groups"]
    assert list(ours_state["state"]) == list(theirs_state["state"])
    for i, entry in theirs_state["state"].items():
        assert list(opt.state_dict()["state"][i]) == list(entry)
        for key, value in entry.items():
            np.testing.assert_allclose(ours_state["state"][i][key].numpy(), value.numpy(), rtol=2e-6, atol=1e-7)


SNIPPETS = cases("""
torch.manual_seed(0); m = torch.nn.Linear(2, 1); o = torch.optim.Adam(m.parameters(), lr=0.1); print(o); print(o.defaults)
torch.manual_seed(0); m = torch.nn.Linear(2, 1); o = torch.optim.AdamW(m.parameters()); print(o)
torch.manual_seed(0); m = torch.nn.Linear(2, 1); o = torch.optim.Adam(m.parameters(), lr=0.1); m(torch.ones(3, 2)).sum().backward(); o.step(); print(o.state_dict()); print(m.weight)
torch.manual_seed(0); m = torch.nn.Linear(2, 1); o = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9); print(o.state_dict()); m(torch.ones(3, 2)).sum().backward(); o.step(); print(o.state_dict())
torch.manual_seed(0); m = torch.nn.Linear(2, 1); o = torch.optim.Adam([{'params': [m.weight]}, {'params': [m.bias], 'lr': 0.5}], lr=0.1); print(o.param_groups[1]['lr'], len(o.param_groups), o.state_dict()['param_groups'])
torch.manual_seed(0); m = torch.nn.Linear(2, 1); o = torch.optim.Adam(m.parameters(), lr=0.1); m(torch.ones(3, 2)).sum().backward(); o.step(); o2 = torch.optim.Adam(m.parameters()); o2.load_state_dict(o.state_dict()); print(o2.state_dict()); print(o2.param_groups[0]['lr'])
torch.manual_seed(0); m = torch.nn.Linear(2, 1); o = torch.optim.Adam(m.parameters(), lr=0.1); o.param_groups[0]['lr'] = 0.01; m(torch.ones(3, 2)).sum().backward(); o.step(); print(m.weight, m.bias)
torch.manual_seed(0); m = torch.nn.Linear(2, 1); o = torch.optim.Adam(m.parameters(), lr=0.1); m(torch.ones(3, 2)).sum().backward(); o.step(); o.zero_grad(); print(m.weight.grad, o.state[m.weight]['step'])
torch.optim.Adam(torch.nn.Linear(2, 1).parameters(), lr=-1)
torch.optim.Adam(torch.nn.Linear(2, 1).parameters(), betas=(1.0, 0.9))
torch.optim.Adam(torch.nn.Linear(2, 1).parameters(), betas=(0.9, 1.5))
torch.optim.Adam(torch.nn.Linear(2, 1).parameters(), eps=-1)
torch.optim.Adam(torch.nn.Linear(2, 1).parameters(), weight_decay=-1)
torch.optim.Adam([], lr=0.1)
torch.optim.Adam(torch.ones(2, requires_grad=True))
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_optimizers_as_pytorch(code):
    assert_same(code)
