"""course_lib.nn and course_lib.optim against real PyTorch: same weights -> same outputs, losses, gradients.

course_lib draws its initial weights from its own generator, so each test
copies the weights of one model into the other (``load_state_dict``) and
then compares everything that follows.  Texts (reprs, error messages,
warnings) are compared with PyTorch's exactly.
"""

import copy
import importlib.util
import math
import warnings

import numpy as np
import pytest

import course_lib as ct
from course_lib import nn, optim
from course_lib.nn import functional as F

HAVE_TORCH = importlib.util.find_spec("torch") is not None
requires_torch = pytest.mark.skipif(not HAVE_TORCH, reason="PyTorch is not installed (pip install torch==2.13.0)")


@pytest.fixture
def torch():
    real = pytest.importorskip("torch")
    return real


def outcome(fn):
    """(printed value or None, (exception type name, message) or None, warning texts)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            value = fn()
        except Exception as e:  # noqa: BLE001 - compared
            return None, (type(e).__name__, str(e)), [str(x.message) for x in w]
    return value, None, [str(x.message) for x in w]


def mlp(T, sizes=(3, 5, 2), bias=True):
    layers = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        if i:
            layers.append(T.nn.ReLU())
        layers.append(T.nn.Linear(a, b, bias=bias))
    return T.nn.Sequential(*layers)


def copy_weights(src, dst, T):
    """Load course_lib module ``src``'s weights into a PyTorch module ``dst``."""
    dst.load_state_dict({k: T.from_numpy(v.numpy().copy()) for k, v in src.state_dict().items()})


def np_of(t):
    return t.detach().numpy()


# ---------------------------------------------------------------------------
# Parameter
# ---------------------------------------------------------------------------

@requires_torch
@pytest.mark.parametrize("code", [
    "repr(nn.Parameter(T.ones(2)))", "repr(nn.Parameter(T.ones(2, 2), requires_grad=False))",
    "repr(nn.Parameter())", "repr(nn.Parameter(T.tensor([1.5, -2.0], dtype=T.float64)))",
    "nn.Parameter(T.ones(2, dtype=T.int64))", "repr(nn.Parameter(T.ones(2, dtype=T.int64), requires_grad=False))",
    "type(nn.Parameter(T.ones(2)) * 2).__name__", "type(nn.Parameter(T.ones(2)).detach()).__name__",
    "type(nn.Parameter(T.ones(2)).clone()).__name__", "isinstance(nn.Parameter(T.ones(1)), T.Tensor)",
    "nn.Parameter(T.ones(2)).is_leaf", "repr((nn.Parameter(T.ones(2)) * 2))",
])
def test_parameter_like_pytorch(torch, code):
    ours = outcome(lambda: eval(code, {"T": ct, "nn": nn}))
    theirs = outcome(lambda: eval(code, {"T": torch, "nn": torch.nn}))
    assert ours == theirs


def test_parameter_shares_memory_and_version_counter():
    data = ct.zeros(3)
    p = nn.Parameter(data)
    assert p.data_ptr() == data.data_ptr() and p.requires_grad and not data.requires_grad
    data.add_(1)
    assert p.tolist() == [1.0, 1.0, 1.0] and p._version == data._version == 1
    q = copy.deepcopy(p)
    assert isinstance(q, nn.Parameter) and q.data_ptr() != p.data_ptr() and q.tolist() == p.tolist()


# ---------------------------------------------------------------------------
# Module: registration, walking, printing
# ---------------------------------------------------------------------------

class _Net:
    """The same small module class for both engines."""

    @staticmethod
    def build(T):
        class Net(T.nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = T.nn.Parameter(T.ones(1))
                self.body = T.nn.Sequential(T.nn.Linear(2, 3), T.nn.ReLU(), T.nn.Linear(3, 1, bias=False))
                self.register_buffer("offset", T.zeros(1))
                self.register_buffer("scratch", T.zeros(1), persistent=False)
                self.note = "not a parameter"

            def forward(self, x):
                return self.body(x) * self.scale + self.offset
        return Net()


@requires_torch
def test_module_walk_and_repr_like_pytorch(torch):
    ours, theirs = _Net.build(ct), _Net.build(torch)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert [n for n, _ in ours.named_children()] == [n for n, _ in theirs.named_children()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)
    assert [p.shape for p in ours.parameters()] == [tuple(p.shape) for p in theirs.parameters()]
    assert len(list(ours.parameters(recurse=False))) == len(list(theirs.parameters(recurse=False))) == 1
    assert ours.note == theirs.note and ours.training and not ours.eval().training and ours.train().body[0].training


@requires_torch
@pytest.mark.parametrize("code", [
    "T.nn.Module()(1)", "T.nn.Linear(2, 1).nonexistent", "T.nn.Sequential(T.nn.ReLU())[3]",
    "setattr(T.nn.Linear(2, 1), 'weight', T.ones(1, 2))", "T.nn.Module().add_module('a.b', T.nn.ReLU())",
    "T.nn.Module().add_module('x', 3)", "T.nn.Linear(2, 1).train('yes')", "T.nn.Linear(2, 1).to(T.int64)",
    "repr(T.nn.Sequential(T.nn.Linear(2, 3), T.nn.ReLU(), T.nn.Sequential(T.nn.Linear(3, 1))))",
    "repr(T.nn.Sequential(T.nn.Linear(2, 3), T.nn.ReLU())[1:])", "len(T.nn.Sequential(T.nn.ReLU(), T.nn.ReLU()))",
    "repr(T.nn.MSELoss(reduction='sum'))", "repr(T.nn.ReLU(inplace=True))", "repr(T.nn.Linear(4, 2, bias=False))",
    "T.nn.Linear(2, 1).load_state_dict({'weight': T.ones(1, 2)})",
    "T.nn.Linear(2, 1).load_state_dict({'weight': T.ones(1, 3), 'bias': T.ones(1), 'extra': T.ones(1)})",
    "repr(T.nn.Linear(2, 1).load_state_dict({'weight': T.ones(1, 2)}, strict=False))",
    "repr(T.nn.Linear(2, 1).load_state_dict({'weight': T.ones(1, 2), 'bias': T.ones(1)}))",
])
def test_module_texts_like_pytorch(torch, code):
    assert outcome(lambda: eval(code, {"T": ct})) == outcome(lambda: eval(code, {"T": torch}))


def test_module_to_keeps_the_parameter_objects_and_casts_floats_only():
    net = _Net.build(ct)
    before = list(net.parameters())
    net.double()
    assert list(net.parameters()) == before and all(p.dtype == ct.float64 for p in net.parameters())
    assert net.offset.dtype == ct.float64
    net.to(ct.float32)
    assert all(p.dtype == ct.float32 for p in before)


def test_zero_grad_both_ways():
    layer = nn.Linear(2, 1)
    layer(ct.ones(3, 2)).sum().backward()
    g = layer.weight.grad
    layer.zero_grad(set_to_none=False)
    assert layer.weight.grad is g and g.tolist() == [[0.0, 0.0]]
    layer.zero_grad()
    assert layer.weight.grad is None and layer.bias.grad is None


def test_linear_init_distribution():
    ct.manual_seed(0)
    layer = nn.Linear(16, 400)
    bound = 1 / math.sqrt(16)
    w, b = np_of(layer.weight), np_of(layer.bias)
    assert w.shape == (400, 16) and b.shape == (400,)
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    # U(-bound, bound): mean 0 and variance bound**2 / 3, within sampling error of 6400 draws
    assert abs(w.mean()) < 0.01 and abs(w.var() - bound ** 2 / 3) < 0.003


# ---------------------------------------------------------------------------
# Same weights -> same numbers
# ---------------------------------------------------------------------------

@requires_torch
@pytest.mark.parametrize("shape", [(4, 3), (3,), (2, 2, 3), (0, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_forward_backward_like_pytorch(torch, shape, bias):
    ours = nn.Linear(3, 2, bias=bias)
    theirs = torch.nn.Linear(3, 2, bias=bias)
    copy_weights(ours, theirs, torch)
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    xo = ct.tensor(x, requires_grad=True)
    xt = torch.tensor(x, requires_grad=True)
    yo, yt = ours(xo), theirs(xt)
    assert yo.grad_fn.name() == yt.grad_fn.name()
    np.testing.assert_allclose(np_of(yo), yt.detach().numpy(), rtol=1e-6, atol=1e-6)
    g = np.random.default_rng(2).standard_normal(tuple(yt.shape)).astype(np.float32)
    yo.backward(ct.tensor(g))
    yt.backward(torch.tensor(g))
    np.testing.assert_allclose(np_of(xo.grad), xt.grad.numpy(), rtol=1e-5, atol=1e-6)
    for (name, p), q in zip(ours.named_parameters(), theirs.parameters()):
        np.testing.assert_allclose(np_of(p.grad), q.grad.numpy(), rtol=1e-5, atol=1e-6, err_msg=name)


@requires_torch
@pytest.mark.parametrize("code", [
    "T.nn.Linear(3, 2)(T.ones(4, 5))", "T.nn.Linear(3, 2)(T.ones(4, 3, dtype=T.int64))",
    "T.nn.Linear(3, 2)(T.ones(5))", "T.nn.Linear(3, 2, bias=False)(T.ones(2, 2, 5))",
    "T.nn.Linear(3, 2)(T.tensor(1.0))",
    "T.nn.Linear(3, 2).double()(T.ones(1, 3))",
])
def test_linear_errors_like_pytorch(torch, code):
    ours = outcome(lambda: eval(code, {"T": ct}))
    theirs = outcome(lambda: eval(code, {"T": torch}))
    assert ours[1:] == theirs[1:] and ours[1] is not None


@requires_torch
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shapes", [((4, 1), (4, 1)), ((4, 1), (4,)), ((3,), (3,)), ((2, 3), (3,))])
def test_mse_loss_like_pytorch(torch, reduction, shapes):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shapes[0]).astype(np.float32)
    b = rng.standard_normal(shapes[1]).astype(np.float32)
    res = {}
    for T, loss_fn in ((ct, nn.MSELoss(reduction=reduction)), (torch, torch.nn.MSELoss(reduction=reduction))):
        x, y = T.tensor(a, requires_grad=True), T.tensor(b, requires_grad=True)
        value, error, warns = outcome(lambda: loss_fn(x, y))  # noqa: B023 - called at once
        value.backward(T.ones_like(value))
        res[T] = (value.detach().numpy(), value.grad_fn.name(), x.grad.numpy(), y.grad.numpy(), warns)
    (v1, n1, gx1, gy1, w1), (v2, n2, gx2, gy2, w2) = res[ct], res[torch]
    assert (n1, w1) == (n2, w2)
    for mine, ref in ((v1, v2), (gx1, gx2), (gy1, gy2)):
        np.testing.assert_allclose(mine, ref, rtol=1e-6, atol=1e-6)


@requires_torch
@pytest.mark.parametrize("code", [
    "F.mse_loss(T.ones(3), T.zeros(3), reduction='x')", "F.mse_loss(T.ones(3), T.zeros(4))",
    "F.mse_loss(T.ones(3, dtype=T.int64), T.zeros(3, dtype=T.int64))",
    "F.mse_loss(T.ones(3), T.zeros(3, dtype=T.float64)).dtype", "F.mse_loss(T.ones(2), T.zeros(2), reduce=False)",
    "F.mse_loss(T.ones(2), 1.0)", "F.mse_loss(2.0, T.ones(2))", "repr(F.relu(T.tensor([-1.0, 2.0])))",
    "repr(F.relu(T.tensor([-1, 2]), inplace=True))",
    "repr(F.linear(T.ones(2, 3), T.ones(4, 3), T.zeros(4)))",
])
def test_functional_texts_like_pytorch(torch, code):
    ours = outcome(lambda: eval(code, {"T": ct, "F": F}))
    theirs = outcome(lambda: eval(code, {"T": torch, "F": torch.nn.functional}))
    assert (repr(ours[0]), ours[1], ours[2]) == (repr(theirs[0]), theirs[1], theirs[2])


def test_addmm_and_mse_gradients_pass_gradcheck():
    from course_lib.autograd import gradcheck
    rng = np.random.default_rng(4)
    x = ct.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    w = ct.tensor(rng.standard_normal((2, 3)), requires_grad=True)
    b = ct.tensor(rng.standard_normal(2), requires_grad=True)
    y = ct.tensor(rng.standard_normal((4, 2)), requires_grad=True)
    assert gradcheck(lambda x, w, b: F.linear(x, w, b), (x, w, b))
    assert gradcheck(lambda x, w, b: F.linear(x[0], w, b), (x, w, b))
    for reduction in ("mean", "sum", "none"):
        assert gradcheck(lambda p, t, r=reduction: F.mse_loss(p, t, reduction=r), (F.linear(x, w, b).detach()
                                                                                  .requires_grad_(), y))


# ---------------------------------------------------------------------------
# SGD
# ---------------------------------------------------------------------------

@requires_torch
@pytest.mark.parametrize("options", [
    {"lr": 0.1}, {"lr": 0.05, "momentum": 0.9}, {"lr": 0.05, "momentum": 0.9, "nesterov": True},
    {"lr": 0.05, "momentum": 0.5, "dampening": 0.3, "weight_decay": 0.01}, {"lr": 0.1, "maximize": True},
])
def test_training_matches_pytorch_step_by_step(torch, options):
    ct.manual_seed(0)
    ours = mlp(ct)
    theirs = mlp(torch)
    copy_weights(ours, theirs, torch)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((16, 3)).astype(np.float32)
    y = np.sin(x.sum(1, keepdims=True)).repeat(2, 1).astype(np.float32)
    runs = {}
    for T, model in ((ct, ours), (torch, theirs)):
        opt = T.optim.SGD(model.parameters(), **options)
        xs, ys = T.tensor(x), T.tensor(y)
        losses = []
        for _ in range(6):
            opt.zero_grad()
            loss = T.nn.MSELoss()(model(xs), ys)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        runs[T] = (losses, [p.detach().numpy().copy() for p in model.parameters()], repr(opt))
    np.testing.assert_allclose(runs[ct][0], runs[torch][0], rtol=2e-5)
    for a, b in zip(runs[ct][1], runs[torch][1]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)
    assert runs[ct][2] == runs[torch][2]
    if not options.get("maximize"):
        assert runs[ct][0][-1] < runs[ct][0][0]


@requires_torch
@pytest.mark.parametrize("code", [
    "T.optim.SGD(M.parameters(), lr=-1)", "T.optim.SGD(M.parameters(), lr=0.1, momentum=-1)",
    "T.optim.SGD(M.parameters(), lr=0.1, weight_decay=-1)", "T.optim.SGD(M.parameters(), lr=0.1, nesterov=True)",
    "T.optim.SGD([], lr=0.1)", "T.optim.SGD(T.ones(2), lr=0.1)", "T.optim.SGD([1, 2], lr=0.1)",
    "T.optim.SGD([T.ones(2, requires_grad=True) * 2], lr=0.1)", "T.optim.SGD(set(M.parameters()), lr=0.1)",
    "repr(T.optim.SGD(M.parameters()))", "T.optim.SGD(M.parameters()).defaults['lr']",
    "sorted(T.optim.SGD(M.parameters(), lr=0.1).param_groups[0])",
    "repr(T.optim.SGD([{'params': M.weight}, {'params': M.bias, 'lr': 0.5}], lr=0.1))",
    "T.optim.SGD([{'params': M.weight}, {'params': M.weight}], lr=0.1)",
])
def test_optimizer_texts_like_pytorch(torch, code):
    ours = outcome(lambda: eval(code, {"T": ct, "M": nn.Linear(2, 1)}))
    theirs = outcome(lambda: eval(code, {"T": torch, "M": torch.nn.Linear(2, 1)}))
    assert (repr(ours[0]), ours[1]) == (repr(theirs[0]), theirs[1])


def test_sgd_step_by_hand():
    p = nn.Parameter(ct.tensor([1.0, -2.0]))
    opt = optim.SGD([p], lr=0.5, momentum=0.9)
    assert opt.step() is None                  # no gradient yet: nothing changes
    assert p.tolist() == [1.0, -2.0]
    p.grad = ct.tensor([0.2, 0.4])
    opt.step()                                 # buf = g
    assert np.allclose(p.tolist(), [0.9, -2.2])
    opt.step()                                 # buf = 0.9 g + g
    assert np.allclose(p.tolist(), [0.9 - 0.5 * 0.38, -2.2 - 0.5 * 0.76])
    assert opt.state[p]["momentum_buffer"].tolist() == pytest.approx([0.38, 0.76])
    opt.zero_grad()
    assert p.grad is None
    assert opt.step(closure=lambda: 7) == 7
