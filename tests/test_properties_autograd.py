"""Random expression graphs give PyTorch's gradients and PyTorch's grad_fn names (property-based).

Hypothesis draws a small program: a few float64 leaves whose shapes all
broadcast to (2, 3), then steps that apply unary, binary (broadcasting),
view, indexing, reduction and in-place operations to earlier values (so
nodes are reused).  The program runs once with course_lib and once with
PyTorch; the leaves' gradients must agree (rtol 1e-6) and every value must
have the same ``grad_fn`` name.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import course_lib

torch = pytest.importorskip("torch")

SHAPES = [(2, 3), (3,), (1, 3), (2, 1), (), (1,)]      # all broadcast to (2, 3)

UNARY = {
    "sin": lambda t, x: x.sin(),
    "tanh": lambda t, x: x.tanh(),
    "sigmoid": lambda t, x: x.sigmoid(),
    "exp_small": lambda t, x: (x * 0.1).exp(),
    "square": lambda t, x: x ** 2,
    "cube": lambda t, x: x.pow(3),
    "neg": lambda t, x: -x,
    "abs": lambda t, x: x.abs(),
    "relu": lambda t, x: x.relu(),
    "scale": lambda t, x: 2.5 * x - 1,
    "rdiv": lambda t, x: 1 / (x * x + 1),
    "log_pos": lambda t, x: (x * x + 1).log(),
    "sqrt_pos": lambda t, x: (x * x + 1).sqrt(),
    "clamp": lambda t, x: x.clamp(-0.5, 0.5),
    "clone": lambda t, x: x.clone(),
}
BINARY = {
    "add": lambda t, x, y: x + y,
    "sub": lambda t, x, y: x - y,
    "mul": lambda t, x, y: x * y,
    "div": lambda t, x, y: x / (y * y + 1),
    "maximum": lambda t, x, y: t.maximum(x, y),
    "where": lambda t, x, y: t.where(x > y, x, y),
    "add_alpha": lambda t, x, y: t.add(x, y, alpha=0.5),
}
# shape-preserving within SHAPES: each maps (shape) -> a function, or None if it does not apply
VIEWS = {
    "row": lambda s: (lambda t, x: x[0]) if s == (2, 3) else None,
    "col": lambda s: (lambda t, x: x[:, 1:2]) if s == (2, 3) else None,
    "expand": lambda s: lambda t, x: x.expand(2, 3),
    "unsqueeze": lambda s: (lambda t, x: x.unsqueeze(0)) if s == (3,) else None,
    "squeeze": lambda s: (lambda t, x: x.squeeze(0)) if s == (1, 3) else None,
    "transpose_back": lambda s: (lambda t, x: x.t().contiguous().t()) if s == (2, 3) else None,
    "reshape": lambda s: (lambda t, x: x.reshape(6).view(2, 3)) if s == (2, 3) else None,
    "repeat_rows": lambda s: (lambda t, x: x[[0, 0, 1]][1:]) if s == (2, 3) else None,
    "flip": lambda s: (lambda t, x: x.flip(-1)) if s in ((2, 3), (3,)) else None,
    "sum0": lambda s: (lambda t, x: x.sum(0, keepdim=True)) if s == (2, 3) else None,
    "mean1": lambda s: (lambda t, x: x.mean(1, keepdim=True)) if s == (2, 3) else None,
    "sum_all": lambda s: lambda t, x: x.sum(),
    "max_all": lambda s: (lambda t, x: x.amax()) if s != () else None,
    "cat": lambda s: (lambda t, x: t.cat([x, x * 2])[1:]) if s == (1, 3) else None,
}
IN_PLACE = {
    "mul_": lambda t, x, y: x.clone().mul_(y),
    "add_": lambda t, x, y: x.clone().add_(y, alpha=2),
    "setitem": lambda t, x, y: _setitem(x, y),
}


def _setitem(x, y):
    z = x.clone()
    z[..., :1] = y[..., :1] if y.dim() else y
    return z


def _step_kinds():
    return st.one_of(
        st.tuples(st.just("unary"), st.sampled_from(sorted(UNARY)), st.integers(0, 99)),
        st.tuples(st.just("binary"), st.sampled_from(sorted(BINARY)), st.integers(0, 99), st.integers(0, 99)),
        st.tuples(st.just("view"), st.sampled_from(sorted(VIEWS)), st.integers(0, 99)),
        st.tuples(st.just("inplace"), st.sampled_from(sorted(IN_PLACE)), st.integers(0, 99), st.integers(0, 99)),
    )


programs = st.tuples(
    st.lists(st.sampled_from(SHAPES), min_size=1, max_size=3),
    st.lists(_step_kinds(), min_size=1, max_size=8),
    st.integers(0, 2 ** 16),
)


def _run(lib, shapes, steps, seed):
    rng = np.random.default_rng(seed)
    leaves = [lib.tensor(rng.standard_normal(s), dtype=lib.float64, requires_grad=True) for s in shapes]
    values = list(leaves)
    for kind, name, *picks in steps:
        args = [values[p % len(values)] for p in picks]
        if kind == "unary":
            values.append(UNARY[name](lib, args[0]))
        elif kind == "binary":
            values.append(BINARY[name](lib, *args))
        elif kind == "view":
            fn = VIEWS[name](tuple(args[0].shape))
            if fn is not None:
                values.append(fn(lib, args[0]))
        else:
            x, y = args
            fits = np.broadcast_shapes(tuple(x.shape), tuple(y.shape)) == tuple(x.shape)
            if fits and (name != "setitem" or x.dim() > 0):
                values.append(IN_PLACE[name](lib, x, y))
    loss = sum((v * (k + 1)).sum() for k, v in enumerate(values[len(leaves):])) + sum(x.sum() for x in leaves)
    loss.backward()
    names = [None if v.grad_fn is None else type(v.grad_fn).__name__ for v in values]
    return [x.grad.numpy() for x in leaves], names


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_random_graphs_match_pytorch(program):
    shapes, steps, seed = program
    ours, our_names = _run(course_lib, shapes, steps, seed)
    theirs, their_names = _run(torch, shapes, steps, seed)
    assert our_names == their_names
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SHAPES), st.sampled_from(SHAPES), st.integers(0, 2 ** 16))
def test_broadcast_gradients_are_summed_back_to_each_shape(shape_a, shape_b, seed):
    rng = np.random.default_rng(seed)
    a0, b0 = rng.standard_normal(shape_a), rng.standard_normal(shape_b)
    a = course_lib.tensor(a0, dtype=course_lib.float64, requires_grad=True)
    b = course_lib.tensor(b0, dtype=course_lib.float64, requires_grad=True)
    (a * b).sum().backward()
    full = np.broadcast_shapes(shape_a, shape_b)
    expected_a = np.broadcast_to(b0, full).copy()
    expected_b = np.broadcast_to(a0, full).copy()
    for grad, expected, shape in ((a.grad, expected_a, shape_a), (b.grad, expected_b, shape_b)):
        lead = len(full) - len(shape)
        summed = expected.sum(axis=tuple(range(lead))) if lead else expected
        summed = summed.sum(axis=tuple(i for i, n in enumerate(shape) if n == 1), keepdims=True) if shape else summed
        assert tuple(grad.shape) == shape
        np.testing.assert_allclose(grad.numpy(), np.reshape(summed, shape), rtol=1e-12)
