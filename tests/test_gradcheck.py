"""Every differentiable operation passes a float64 gradient check, and agrees with PyTorch.

``CASES`` has one entry per ``Op`` subclass in ``Op.registry``: a function
of the library (``torch`` or ``course_lib``) and its float64 inputs whose
graph contains that op's node.  ``test_every_op_has_a_case`` fails as soon
as an op is added without an entry here.  Each case is checked three ways:
its graph really holds the op's node, ``autograd.gradcheck`` (finite
differences) passes, and the gradients equal PyTorch's for the same
upstream gradient.

Also here: ``gradcheck`` itself (its messages and options).
"""

import importlib
import pkgutil
import warnings

import numpy as np
import pytest

import course_lib
from course_lib.autograd.gradcheck import GradcheckError
from course_lib.core.graph import Op

# Op.registry lists the ops of the modules imported so far: import every module that can define one.
for _package in ("course_lib.core", "course_lib.ops", "course_lib.nn"):
    for _module in pkgutil.iter_modules(importlib.import_module(_package).__path__, _package + "."):
        importlib.import_module(_module.name)

_rng = np.random.default_rng(1234)


def _randn(*shape):
    return _rng.standard_normal(shape)


def _away(*shape, lo=0.3, hi=1.7):
    """Values away from 0 and from integers' neighbourhood issues: random sign times uniform(lo, hi)."""
    return _rng.choice([-1.0, 1.0], size=shape) * _rng.uniform(lo, hi, size=shape)


def _positive(*shape):
    return _rng.uniform(0.5, 2.0, size=shape)


def _distinct(*shape):
    """Values with no ties (max/min/sort-like ops are not differentiable at ties)."""
    n = int(np.prod(shape))
    return (_rng.permutation(n) + _rng.uniform(0.1, 0.9, n)).reshape(shape) / n * 4 - 2


def _fractional(*shape):
    """Values whose fractional part stays away from 0 and 0.5 (rounding ops are constant around them)."""
    return _rng.integers(-3, 3, size=shape) + _rng.uniform(0.1, 0.4, size=shape)


# name -> (function(torch, *inputs) -> tensor, inputs).  Inputs are float64 arrays (they require grad),
# or ("const", value) for values passed as they are.
CASES = {
    "Add": (lambda t, a, b: a + b, [_randn(2, 3), _randn(3)]),
    "Sub": (lambda t, a, b: a - b, [_randn(2, 3), _randn(2, 1)]),
    "AddAlpha": (lambda t, a, b: t.add(a, b, alpha=2.5), [_randn(2, 3), _randn(3)]),
    "SubAlpha": (lambda t, a, b: t.sub(a, b, alpha=0.5), [_randn(2, 3), _randn(2, 1)]),
    "Rsub": (lambda t, a: 2.0 - a, [_randn(3)]),
    "RsubTensor": (lambda t, a, b: t.rsub(a, b, alpha=1.5), [_randn(2, 3), _randn(3)]),
    "Mul": (lambda t, a, b: a * b, [_randn(2, 3), _randn(3)]),
    "Div": (lambda t, a, b: a / b, [_randn(2, 3), _away(2, 1)]),
    "DivRounded": (lambda t, a, b: t.div(a, b, rounding_mode="floor") + a, [_fractional(3), np.ones(3)]),
    "FloorDivide": None,       # PyTorch has no derivative: see test_floor_divide_has_no_derivative
    "FloorDivideScalar": None,
    "RemainderNumberFirst": None,   # number % tensor: no derivative in PyTorch, see test_habits' remainder cases
    "RemainderScalar": (lambda t, a: a % 1.5, [_fractional(4)]),
    "Remainder": (lambda t, a, b: a % b, [_fractional(4) + 5, np.array([1.3, 1.7, 2.2, 2.9])]),
    "FmodScalar": (lambda t, a: t.fmod(a, 1.5), [_fractional(4)]),
    "Fmod": (lambda t, a, b: t.fmod(a, b), [_fractional(4) + 5, np.array([1.3, 1.7, 2.2, 2.9])]),
    "Pow": (lambda t, a: a ** 3 + a.abs() ** 2.5, [_away(2, 3)]),
    "PowTensor": (lambda t, a, b: a ** b, [_positive(2, 3), _randn(3)]),
    "RPow": (lambda t, a: 2.5 ** a, [_randn(2, 3)]),
    "Neg": (lambda t, a: -a, [_randn(3)]),
    "Reciprocal": (lambda t, a: a.reciprocal(), [_away(3)]),
    "Maximum": (lambda t, a, b: t.maximum(a, b), [_distinct(2, 3), _distinct(3)]),
    "Minimum": (lambda t, a, b: t.minimum(a, b), [_distinct(2, 3), _distinct(2, 1)]),
    "View": (lambda t, a: a.view(3, 2) * 2, [_randn(2, 3)]),
    "UnsafeView": (lambda t, a: a.t().reshape(6), [_randn(2, 3)]),
    "Alias": (lambda t, a: a[...] * 2, [_randn(2, 3)]),
    "Transpose": (lambda t, a: a.transpose(0, 2), [_randn(2, 3, 4)]),
    "T": (lambda t, a: a.t(), [_randn(2, 3)]),
    "ScalarTranspose": (lambda t, a: a.transpose(0, -1) * 2, [np.array(1.5)]),
    "Permute": (lambda t, a: a.permute(2, 0, 1), [_randn(2, 3, 4)]),
    "Squeeze": (lambda t, a: a.squeeze(), [_randn(2, 1, 3)]),
    "SqueezeDim": (lambda t, a: a.squeeze(1), [_randn(2, 1, 3)]),
    "SqueezeDims": (lambda t, a: a.squeeze((0, 2)), [_randn(1, 3, 1)]),
    "SqueezeMatmul": (lambda t, v, m: v @ m, [_randn(3), _randn(3, 2)]),
    "Unsqueeze": (lambda t, a: a.unsqueeze(1), [_randn(2, 3)]),
    "TInplace": (lambda t, a: (a * 1).t_(), [_randn(2, 3)]),
    "TransposeInplace": (lambda t, a: (a * 1).transpose_(0, 2), [_randn(2, 3, 4)]),
    "SqueezeInplace": (lambda t, a: (a * 1).squeeze_(), [_randn(2, 1, 3)]),
    "SqueezeDimInplace": (lambda t, a: (a * 1).squeeze_(1), [_randn(2, 1, 3)]),
    "SqueezeDimsInplace": (lambda t, a: (a * 1).squeeze_((0, 2)), [_randn(1, 3, 1)]),
    "UnsqueezeInplace": (lambda t, a: (a * 1).unsqueeze_(1), [_randn(2, 3)]),
    "Expand": (lambda t, a: a.expand(4, 2, 3) * t.arange(24.0, dtype=t.float64).view(4, 2, 3), [_randn(2, 1)]),
    "Select": (lambda t, a: a[1], [_randn(2, 3)]),
    "Slice": (lambda t, a: a[:, 1:3], [_randn(2, 4)]),
    "AsStrided": (lambda t, a: a.as_strided((2, 2), (1, 2), 1), [_randn(6)]),
    "ReshapeAlias": (lambda t, a: a.t().reshape(3, 1, 2), [_randn(2, 3)]),
    "Clone": (lambda t, a: a.clone(), [_randn(2, 3)]),
    "Unbind": (lambda t, a: a.unbind(1)[0] * a.unbind(1)[2], [_randn(2, 3)]),
    "Split": (lambda t, a: a.split(2)[1] * 3, [_randn(5, 2)]),
    "SplitWithSizes": (lambda t, a: a.split([1, 3], dim=1)[1], [_randn(2, 4)]),
    "Cat": (lambda t, a, b: t.cat([a, b, a], dim=1), [_randn(2, 3), _randn(2, 1)]),
    "Stack": (lambda t, a, b: t.stack([a, b], dim=1), [_randn(2, 3), _randn(2, 3)]),
    "Flip": (lambda t, a: a.flip((0, 1)), [_randn(2, 3)]),
    "Roll": (lambda t, a: a.roll((1, -2), (0, 1)) + a.roll(4), [_randn(2, 3)]),
    "Diagonal": (lambda t, a: a.diagonal(1, 0, 2), [_randn(3, 2, 4)]),
    "DiagonalCopy": (lambda t, a: t.diag(a, -1), [_randn(3, 4)]),
    "DiagEmbed": (lambda t, a: t.diag(a, 1), [_randn(3)]),
    "Trace": (lambda t, a: a.trace(), [_randn(3, 4)]),
    "CumProd": (lambda t, a: a.cumprod(1) + t.cumprod(a * t.tensor([[1.0, 0.0, 1.0]]), 1), [_away(2, 3)]),
    "Scatter": (lambda t, a, s: a.scatter(0, t.tensor([[1, 0, 1], [0, 1, 0]]), s), [_randn(2, 3), _randn(2, 3)]),
    "ScatterValue": (lambda t, a: (a * 1).scatter_(1, t.tensor([[2], [0]]), 1.5), [_randn(2, 3)]),
    "ScatterAdd": (lambda t, a, s: t.scatter_add(a, 1, t.tensor([[2, 2], [0, 1]]), s), [_randn(2, 3), _randn(2, 2)]),
    "IndexAdd": (lambda t, a, s: a.index_add(0, t.tensor([1, 1, 0]), s, alpha=2.5), [_randn(2, 3), _randn(3, 3)]),
    "IndexFill": (lambda t, a: a.index_fill(1, t.tensor([0, 2, 0]), -1.0), [_randn(2, 3)]),
    "IndexFillTensor": (lambda t, a, v: (a * 1).index_fill_(1, t.tensor([2, 0]), v), [_randn(2, 3), _randn()]),
    "Take": (lambda t, a: a.take(t.tensor([[0, 5], [5, -1]])), [_randn(2, 3)]),
    "Index": (lambda t, a: a[[0, 2, 0], 1:], [_randn(3, 3)]),
    "Copy": (lambda t, a, b: _inplace(t, a, lambda y: y.copy_(b)), [_randn(2, 3), _randn(3)]),
    "Fill": (lambda t, a: _inplace(t, a, lambda y: y.fill_(2.5)) * a, [_randn(2, 3)]),
    "Zero": (lambda t, a: _inplace(t, a, lambda y: y.zero_()) + a * a, [_randn(2, 3)]),
    "Uniform": (lambda t, a: _inplace(t, a, lambda y: y.uniform_()) * 0 + a, [_randn(3)]),
    "Normal": (lambda t, a: _inplace(t, a, lambda y: y.normal_()) * 0 + a, [_randn(3)]),
    "FillTensor": (lambda t, a, v: _inplace(t, a, lambda y: y.fill_(v)) * a, [_randn(2, 3), _randn()]),
    "IndexPut": (lambda t, a, v: _setitem(a, ([0, 2],), v), [_randn(3, 2), _randn(2)]),
    "IndexSelect": (lambda t, a: a.index_select(1, t.tensor([2, 0, 2])), [_randn(2, 3)]),
    "MaskedFill": (lambda t, a: a.masked_fill(a > 0, 1.5), [_away(2, 3)]),
    "MaskedFillTensor": (lambda t, a, v: a.masked_fill(a > 0, v), [_away(2, 3), _randn()]),
    "MaskedSelect": (lambda t, a: a.masked_select(t.tensor([[True], [False]])), [_randn(2, 3)]),
    "Gather": (lambda t, a: a.gather(1, t.tensor([[0, 0], [2, 1]])), [_randn(2, 3)]),
    "Dot": (lambda t, a, b: a.dot(b), [_randn(3), _randn(3)]),
    "Mv": (lambda t, m, v: m.mv(v), [_randn(2, 3), _randn(3)]),
    "Mm": (lambda t, a, b: a.mm(b), [_randn(2, 3), _randn(3, 4)]),
    "Bmm": (lambda t, a, b: a.bmm(b), [_randn(2, 2, 3), _randn(2, 3, 2)]),
    "Abs": (lambda t, a: a.abs(), [_away(2, 3)]),
    "Exp": (lambda t, a: a.exp(), [_randn(2, 3)]),
    "Log": (lambda t, a: a.log(), [_positive(3)]),
    "Log2": (lambda t, a: a.log2(), [_positive(3)]),
    "Log10": (lambda t, a: a.log10(), [_positive(3)]),
    "Log1p": (lambda t, a: a.log1p(), [_positive(3)]),
    "Expm1": (lambda t, a: a.expm1(), [_randn(3)]),
    "Sqrt": (lambda t, a: a.sqrt(), [_positive(3)]),
    "Rsqrt": (lambda t, a: a.rsqrt(), [_positive(3)]),
    "Sin": (lambda t, a: a.sin(), [_randn(3)]),
    "Cos": (lambda t, a: a.cos(), [_randn(3)]),
    "Tan": (lambda t, a: a.tan(), [_randn(3) * 0.5]),
    "Tanh": (lambda t, a: a.tanh(), [_randn(3)]),
    "Acos": (lambda t, a: a.acos(), [_away(3, hi=0.9)]),
    "Asin": (lambda t, a: t.asin(a), [_away(3, hi=0.9)]),
    "Atan": (lambda t, a: t.atan(a), [_randn(3)]),
    "Softplus": (lambda t, a: t.nn.functional.softplus(a, beta=2, threshold=3), [_away(4, lo=0.2, hi=3)]),
    "Random": (lambda t, a: _inplace(t, a, lambda y: y.random_()) * 0 + a, [_randn(3)]),
    "RandomTo": (lambda t, a: _inplace(t, a, lambda y: y.random_(5)) * 0 + a, [_randn(3)]),
    "RandomFromTo": (lambda t, a: _inplace(t, a, lambda y: y.random_(2, 5)) * 0 + a, [_randn(3)]),
    "Sigmoid": (lambda t, a: a.sigmoid(), [_randn(3)]),
    "Relu": (lambda t, a: a.relu(), [_away(2, 3)]),
    "Clamp": (lambda t, a: a.clamp(-0.5, 0.8), [_away(2, 3) * 0.9 + 0.05]),
    "ClampTensor": (lambda t, a, lo, hi: a.clamp(lo, hi), [_distinct(2, 3), _distinct(3) - 1, _distinct(2, 1) + 1]),
    "ClampMin": (lambda t, a: a.clamp_min(0.1), [_away(2, 3)]),
    "ClampMax": (lambda t, a: a.clamp_max(-0.1), [_away(2, 3)]),
    "ClampMinTensor": (lambda t, a, b: a.clamp_min(b), [_distinct(2, 3), _distinct(3) + 0.05]),
    "ClampMaxTensor": (lambda t, a, b: a.clamp_max(b), [_distinct(2, 3), _distinct(3) + 0.05]),
    "Where": (lambda t, a, b: t.where(a > 0, a, b), [_away(2, 3), _randn(3)]),
    "Lerp": (lambda t, a, b: t.lerp(a, b, 0.3) + a.lerp(b, 1.75), [_randn(2, 3), _randn(3)]),
    "LerpTensor": (lambda t, a, b, w: t.lerp(a, b, w), [_randn(2, 3), _randn(3), _rng.uniform(-0.5, 1.5, (2, 1))]),
    "Floor": (lambda t, a: a.floor() + a, [_fractional(3)]),
    "Ceil": (lambda t, a: a.ceil() * a, [_fractional(3)]),
    "Round": (lambda t, a: a.round() * a, [_fractional(3)]),
    "Trunc": (lambda t, a: a.trunc() * a, [_fractional(3)]),
    "Sign": (lambda t, a: a.sign() * a, [_away(3)]),
    "RoundDecimals": (lambda t, a: a.round(decimals=1) * a, [_fractional(3) * 0.1]),
    "Erf": (lambda t, a: t.erf(a), [_randn(3)]),
    "Sum": (lambda t, a: a.sum(), [_randn(2, 3)]),
    "SumDim": (lambda t, a: a.sum((0, 2), keepdim=True), [_randn(2, 3, 2)]),
    "Mean": (lambda t, a: a.mean(), [_randn(2, 3)]),
    "MeanDim": (lambda t, a: a.mean(1), [_randn(2, 3)]),
    "Prod": (lambda t, a: a.prod(), [_away(2, 3)]),
    "Median": (lambda t, a: a.median(), [_distinct(2, 3)]),
    "MedianDim": (lambda t, a: a.median(1).values, [_distinct(2, 3)]),
    "ProdDim": (lambda t, a: a.prod(0), [np.array([[0.0, 2.0, 1.5], [3.0, 0.0, -1.0], [2.0, 0.0, 0.5]])]),
    "MaxAll": (lambda t, a: a.max(), [_distinct(2, 3)]),
    "MinAll": (lambda t, a: a.min(), [_distinct(2, 3)]),
    "MaxDim": (lambda t, a: a.max(1).values, [_distinct(2, 3)]),
    "MinDim": (lambda t, a: a.min(0, keepdim=True)[0], [_distinct(2, 3)]),
    "Amax": (lambda t, a: a.amax((0, 2)), [_distinct(2, 3, 2)]),
    "Amin": (lambda t, a: a.amin(1, keepdim=True), [_distinct(2, 3)]),
    "Var": (lambda t, a: a.var(1), [_randn(2, 3)]),
    "Std": (lambda t, a: a.std(0, correction=0), [_randn(2, 3)]),
    "LogSumExp": (lambda t, a: a.logsumexp(1), [_randn(2, 3)]),
    "Sort": (lambda t, a: t.sort(a, dim=1, descending=True).values * t.arange(3.0, dtype=t.float64),
             [_distinct(2, 3)]),
    "SortStable": (lambda t, a: a.sort(dim=0, stable=True).values * t.tensor([[1.0], [4.0]], dtype=t.float64),
                   [_distinct(2, 3)]),
    "Topk": (lambda t, a: a.topk(2, dim=1).values * t.tensor([1.0, 3.0], dtype=t.float64), [_distinct(2, 4)]),
    "Tril": (lambda t, a: a.tril(-1) * t.arange(12.0, dtype=t.float64).view(3, 4), [_randn(3, 4)]),
    "Triu": (lambda t, a: t.triu(a, 1) * t.arange(24.0, dtype=t.float64).view(2, 3, 4), [_randn(2, 3, 4)]),
    "Repeat": (lambda t, a: a.repeat(2, 1, 3) * t.arange(18.0, dtype=t.float64).view(2, 1, 9), [_randn(1, 3)]),
    "Softmax": (lambda t, a: t.softmax(a, 1) * t.tensor([1.0, 2.0, 3.0], dtype=t.float64), [_randn(2, 3)]),
    "LogSoftmax": (lambda t, a: a.log_softmax(0) * t.tensor([[1.0], [3.0]], dtype=t.float64), [_randn(2, 3)]),
    "VectorNorm": (lambda t, a: a.norm(dim=1) + a.norm(p=1) + a.norm(p=3) + a.norm(p=float("inf")),
                   [_distinct(2, 3)]),
    "CumSum": (lambda t, a: a.cumsum(1), [_randn(2, 3)]),
    "ToCopy": (lambda t, a: a.to(t.float64, copy=True) * 2, [_randn(2, 3)]),
    "Addmm": (lambda t, x, w, b: t.nn.functional.linear(x, w, b), [_randn(2, 3), _randn(4, 3), _randn(4)]),
    "MseLoss": (lambda t, a, b: t.nn.functional.mse_loss(a, b), [_randn(2, 3), _randn(2, 3)]),
    "NllLoss": (lambda t, a: t.nn.functional.nll_loss(a, t.tensor([2, 0, 1]), weight=t.tensor(
        [1.0, 2.0, 0.5], dtype=t.float64)) + t.nn.functional.nll_loss(a, t.tensor([1, -100, 0]), reduction="none")
        .sum() * 3, [_randn(3, 3)]),
    "NllLoss2d": (lambda t, a: t.nn.functional.nll_loss(a, t.tensor([[2, 0], [1, 1]])) + t.nn.functional.nll_loss(
        a.view(2, 3, 2, 1), t.tensor([[[0], [2]], [[1], [-100]]]), reduction="none").sum(), [_randn(2, 3, 2)]),
    "BinaryCrossEntropy": (lambda t, p, y: t.nn.functional.binary_cross_entropy(p, y),
                           [_rng.uniform(0.1, 0.9, (2, 3)), _rng.uniform(0.0, 1.0, (2, 3))]),
    "BinaryCrossEntropyWithLogits": (lambda t, x, y: t.nn.functional.binary_cross_entropy_with_logits(
        x, y, reduction="sum") + t.nn.functional.binary_cross_entropy_with_logits(
        x, y, pos_weight=t.tensor([2.0, 0.5, 1.0], dtype=t.float64)), [_randn(2, 3), _rng.uniform(0.0, 1.0, (2, 3))]),
    "DivScalar": (lambda t, a, b: t.nn.functional.cross_entropy(a, b.softmax(1)), [_randn(2, 3), _randn(2, 3)]),
    "MulScalar": (lambda t, a: t.nn.functional.cross_entropy(a, t.tensor([2, 0]), label_smoothing=0.2),
                  [_randn(2, 3)]),
}


def _inplace(t, a, write):
    """``write`` applied in place to a copy of ``a`` (so that ``a``, a leaf, may require grad)."""
    y = a.clone()
    write(y)
    return y


def _setitem(a, index, value):
    y = a.clone()
    y[index] = value
    return y


def _inputs(lib, arrays):
    return [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in arrays]


def _node_names(t):
    names, stack, seen = set(), [t.grad_fn], set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        names.add(type(fn).__name__)
        inner = getattr(fn, "fn", None)          # the in-place op's node inside CopySlices
        if inner is not None:
            names.add(type(inner).__name__)
        stack.extend(f for f, _ in fn.next_functions)
    return names


def test_every_op_has_a_case():
    names = [op.__name__ for op in Op.registry]
    assert len(names) == len(set(names)), "two Op classes share a name: make CASES keys unambiguous"
    missing = sorted(set(names) - set(CASES))
    assert not missing, f"ops without a gradient-check case in tests/test_gradcheck.py: {missing}"


def _registered(name):
    return next((op for op in Op.registry if op.__name__ == name), None)


CHECKED = sorted(name for name, case in CASES.items() if case is not None)


@pytest.mark.parametrize("name", CHECKED)
def test_op_passes_gradcheck(name):
    op = _registered(name)
    if op is None:
        pytest.skip(f"{name} is not in this build's Op.registry")
    fn, arrays = CASES[name]
    inputs = _inputs(course_lib, arrays)
    out = fn(course_lib, *inputs)
    assert op.node_name in _node_names(out), f"the case for {name} does not record {op.node_name}"
    assert course_lib.autograd.gradcheck(lambda *xs: fn(course_lib, *xs), inputs, eps=1e-6, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("name", CHECKED)
def test_op_gradients_equal_pytorchs(name):
    torch = pytest.importorskip("torch")
    if _registered(name) is None:
        pytest.skip(f"{name} is not in this build's Op.registry")
    fn, arrays = CASES[name]
    ours, theirs = _inputs(course_lib, arrays), _inputs(torch, arrays)
    out, ref = fn(course_lib, *ours), fn(torch, *theirs)
    assert tuple(out.shape) == tuple(ref.shape)
    assert type(out.grad_fn).__name__ == type(ref.grad_fn).__name__
    seed = _rng.standard_normal(tuple(ref.shape))
    out.backward(course_lib.tensor(seed, dtype=course_lib.float64))
    ref.backward(torch.tensor(seed, dtype=torch.float64))
    for x, y in zip(ours, theirs):
        assert (x.grad is None) == (y.grad is None)
        if y.grad is not None:
            np.testing.assert_allclose(x.grad.numpy(), y.grad.numpy(), rtol=1e-6, atol=1e-12)


@pytest.mark.parametrize("make", [lambda t, a: a // 2, lambda t, a: a // t.ones(3, dtype=t.float64)])
def test_floor_divide_has_no_derivative(make):
    torch = pytest.importorskip("torch")
    for lib in (course_lib, torch):
        a = lib.tensor([1.5, -2.5, 3.0], dtype=lib.float64, requires_grad=True)
        y = make(lib, a)
        assert y.requires_grad and type(y.grad_fn).__name__ == "NotImplemented"
        with pytest.raises(RuntimeError, match="^derivative for aten::floor_divide is not implemented$"):
            y.sum().backward()


# ---------------------------------------------------------------------------
# gradcheck itself
# ---------------------------------------------------------------------------

class _HalfSquareGrad(course_lib.autograd.Function):
    """A deliberately wrong backward: d(x*x)/dx is 2x, this returns x."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x


def test_gradcheck_accepts_a_tensor_or_a_tuple_and_extra_arguments():
    x = course_lib.tensor([1.0, 2.0], dtype=course_lib.float64, requires_grad=True)
    assert course_lib.autograd.gradcheck(lambda a: a * a, x) is True
    assert course_lib.autograd.gradcheck(lambda a, k: (a * k, a.sum()), (x, 3.0)) is True


def test_gradcheck_reports_a_wrong_backward_with_pytorchs_message():
    x = course_lib.tensor([1.0, 2.0], dtype=course_lib.float64, requires_grad=True)
    with pytest.raises(GradcheckError) as info:
        course_lib.autograd.gradcheck(_HalfSquareGrad.apply, (x,))
    assert str(info.value) == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[2.0000, 0.0000],\n        [0.0000, 4.0000]], dtype=torch.float64)\n"
        "analytical:tensor([[1., 0.],\n        [0., 2.]], dtype=torch.float64)\n")
    assert isinstance(info.value, RuntimeError)
    assert course_lib.autograd.gradcheck(_HalfSquareGrad.apply, (x,), raise_exception=False) is False


def test_gradcheck_errors_and_warnings_as_pytorch():
    with pytest.raises(ValueError, match="none of them have requires_grad=True"):
        course_lib.autograd.gradcheck(lambda a: a * a, (course_lib.tensor([1.0], dtype=course_lib.float64),))
    x32 = course_lib.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        course_lib.autograd.gradcheck(lambda a: a * 2, (x32,), eps=1e-2, atol=1e-2)
    assert [str(w.message) for w in caught] == [
        "Input #0 requires gradient and is not a double precision floating point or complex. This check will likely "
        "fail if all the inputs are not of double precision floating point or complex. "]
    x = course_lib.tensor([1.0, 2.0], dtype=course_lib.float64, requires_grad=True)
    with pytest.raises(GradcheckError, match="^Numerical gradient for function expected to be zero$"):
        course_lib.autograd.gradcheck(lambda a: a.detach() * 2, (x,))


def test_jacobians_have_pytorchs_layout():
    from course_lib.autograd.gradcheck import analytical_jacobian, numerical_jacobian
    x = course_lib.tensor([[1.0, 2.0, 3.0]], dtype=course_lib.float64, requires_grad=True)
    f = lambda a: (a * course_lib.tensor([1.0, 10.0, 100.0], dtype=course_lib.float64)).sum(1)   # noqa: E731
    (num,), (ana,) = numerical_jacobian(f, (x,))[0], analytical_jacobian(f, (x,))[0]
    np.testing.assert_allclose(num, [[1.0], [10.0], [100.0]], rtol=1e-6)     # (input.numel(), output.numel())
    np.testing.assert_array_equal(ana, [[1.0], [10.0], [100.0]])


@pytest.mark.parametrize("name", CHECKED)
def test_second_backward_raises_exactly_when_pytorchs_does(name):
    """A graph whose nodes saved nothing can be walked twice; one that saved tensors cannot (PyTorch's rule)."""
    torch = pytest.importorskip("torch")
    if _registered(name) is None:
        pytest.skip(f"{name} is not in this build's Op.registry")
    fn, arrays = CASES[name]
    outcomes = []
    for lib in (course_lib, torch):
        loss = fn(lib, *_inputs(lib, arrays)).sum()
        loss.backward()
        try:
            loss.backward()
            outcomes.append("ran twice")
        except RuntimeError as e:
            outcomes.append(str(e))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("where", ["inputs", "output"])
@pytest.mark.parametrize("name", CHECKED)
def test_in_place_change_after_forward_raises_exactly_when_pytorchs_does(name, where):
    """Changing a saved tensor in place makes backward raise PyTorch's error (same tensor, node and versions)."""
    torch = pytest.importorskip("torch")
    if _registered(name) is None:
        pytest.skip(f"{name} is not in this build's Op.registry")
    fn, arrays = CASES[name]
    outcomes = []
    for lib in (course_lib, torch):
        leaves = _inputs(lib, arrays)
        copies = [x * 1 for x in leaves]          # non-leaves, so that they may be changed in place
        try:
            out = fn(lib, *copies)
            for t in (copies if where == "inputs" else [out]):
                t.add_(0)
            out.sum().backward()
            outcomes.append([np.round(x.grad.numpy(), 8).tolist() for x in leaves])
        except RuntimeError as e:
            outcomes.append(str(e))
    assert outcomes[0] == outcomes[1]
