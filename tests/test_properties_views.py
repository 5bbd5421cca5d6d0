"""Property-based tests against PyTorch: random shapes, chains of views and reshapes, basic-indexing
keys and broadcastable (or not) pairs give the same values, shapes, dtypes, strides, storage offsets,
contiguity and memory sharing -- writing through the result changes the base exactly when it does
in PyTorch -- and the same exceptions.  Elementwise results of operands in any memory layout are
laid out as PyTorch's TensorIterator lays them out."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import course_lib

torch = pytest.importorskip("torch")

ENGINES = (torch, course_lib)
SETTINGS = settings(max_examples=60, deadline=None)
DTYPES = ["float32", "int64", "float16", "uint8", "bool"]


def _layout(t):
    return tuple(t.shape), t.stride(), t.storage_offset(), t.is_contiguous(), str(t.dtype)


def _run(fn, arg):
    """``(fn(arg), None)``, or ``(None, (exception type, message))``."""
    try:
        return fn(arg), None
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return None, (type(e).__name__, str(e).replace("sparse_coo", ""))


def _base(engine, shape, dtype):
    n = math.prod(shape)
    return engine.arange(n).reshape(shape).to(getattr(engine, dtype))


def _shapes(max_dims=4, min_size=0, max_size=4):
    return st.lists(st.integers(min_size, max_size), max_size=max_dims).map(tuple)


# ---------------------------------------------------------------------------
# Chains of view operations
# ---------------------------------------------------------------------------

def _factorization(data, n):
    """A random shape with ``n`` elements (maybe with one -1)."""
    if n == 0:
        sizes = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
        return tuple(sizes) if 0 in sizes else tuple(sizes) + (0,)
    sizes, rest = [], n
    while rest > 1 and len(sizes) < 4:
        d = data.draw(st.sampled_from([k for k in range(1, rest + 1) if rest % k == 0]))
        sizes.append(d)
        rest //= d
    sizes.append(rest)
    sizes = data.draw(st.permutations(sizes))
    if data.draw(st.booleans()):
        sizes[data.draw(st.integers(0, len(sizes) - 1))] = -1
    return tuple(sizes)


def _step(data, shape):
    """A random view operation valid (or deliberately not) for a tensor of ``shape``: (name, function of t)."""
    ndim = len(shape)
    names = ["view", "reshape", "unsqueeze", "flatten", "contiguous", "clone"]
    if ndim:
        names += ["transpose", "permute", "slice", "select", "squeeze", "expand", "narrow", "movedim"]
    if ndim <= 2:
        names.append("t")
    name = data.draw(st.sampled_from(names))
    dim = data.draw(st.integers(-ndim, ndim - 1)) if ndim else 0
    if name in ("view", "reshape"):
        size = _factorization(data, math.prod(shape))
        return f"{name}{size}", lambda t: getattr(t, name)(size)
    if name == "unsqueeze":
        d = data.draw(st.integers(-ndim - 1, ndim))
        return f"unsqueeze({d})", lambda t: t.unsqueeze(d)
    if name == "flatten":
        start, end = sorted(data.draw(st.lists(st.integers(0, max(ndim - 1, 0)), min_size=2, max_size=2)))
        return f"flatten({start}, {end})", lambda t: t.flatten(start, end)
    if name in ("contiguous", "clone", "t"):
        return f"{name}()", lambda t: getattr(t, name)()
    if name == "transpose":
        d2 = data.draw(st.integers(-ndim, ndim - 1))
        return f"transpose({dim}, {d2})", lambda t: t.transpose(dim, d2)
    if name == "permute":
        perm = tuple(data.draw(st.permutations(range(ndim))))
        return f"permute{perm}", lambda t: t.permute(perm)
    if name == "movedim":
        d2 = data.draw(st.integers(-ndim, ndim - 1))
        return f"movedim({dim}, {d2})", lambda t: t.movedim(dim, d2)
    if name == "slice":
        size = shape[dim]
        start = data.draw(st.none() | st.integers(-size - 1, size + 1))
        stop = data.draw(st.none() | st.integers(-size - 1, size + 1))
        step = data.draw(st.sampled_from([None, 1, 2, 3]))
        key = (slice(None),) * (dim % ndim) + (slice(start, stop, step),)
        return f"[{key}]", lambda t: t[key]
    if name == "select":
        i = data.draw(st.integers(-shape[dim] - 1, shape[dim]))
        return f"select({dim}, {i})", lambda t: t.select(dim, i)
    if name == "narrow":
        start = data.draw(st.integers(-shape[dim], shape[dim]))
        length = data.draw(st.integers(0, shape[dim]))
        return f"narrow({dim}, {start}, {length})", lambda t: t.narrow(dim, start, length)
    if name == "squeeze":
        how = data.draw(st.sampled_from(["all", "dim", "dims"]))
        if how == "all":
            return "squeeze()", lambda t: t.squeeze()
        if how == "dim":
            return f"squeeze({dim})", lambda t: t.squeeze(dim)
        dims = tuple(data.draw(st.lists(st.integers(0, ndim - 1), max_size=ndim, unique=True)))
        return f"squeeze({dims})", lambda t: t.squeeze(dims)
    # expand: stretch size-1 dims, maybe add leading ones, sometimes ask for an impossible size
    sizes = tuple(data.draw(st.sampled_from([1, 3])) if s == 1 else data.draw(st.sampled_from([s, -1, s + 1]))
                  for s in shape)
    lead = tuple(data.draw(st.lists(st.integers(0, 2), max_size=2)))
    return f"expand{lead + sizes}", lambda t: t.expand(lead + sizes)


@SETTINGS
@given(st.data(), _shapes(min_size=1), st.sampled_from(DTYPES))
def test_view_chains_match_pytorch(data, shape, dtype):
    """Every step gives the same layout (or error); writing through the result reaches the base as in PyTorch."""
    bases = [_base(e, shape, dtype) for e in ENGINES]
    current = bases
    steps = []
    for _ in range(data.draw(st.integers(1, 4))):
        label, fn = _step(data, tuple(current[0].shape))
        steps.append(label)
        results = [_run(fn, t) for t in current]
        (expected, error), (actual, actual_error) = results
        assert actual_error == error, steps
        if error:
            return
        assert _layout(actual) == _layout(expected), steps
        assert actual.tolist() == expected.tolist(), steps
        assert (actual.data_ptr() == current[1].data_ptr()) == (expected.data_ptr() == current[0].data_ptr()) \
            or expected.numel() == 0, steps
        current = [expected, actual]
    expected, actual = current
    if expected.numel() and 0 not in [s for s, n in zip(expected.stride(), expected.shape) if n > 1]:
        for t in current:
            t.fill_(0)                                   # the base shows where the writes landed
        assert bases[1].tolist() == bases[0].tolist(), steps


# ---------------------------------------------------------------------------
# Basic indexing keys
# ---------------------------------------------------------------------------

def _key(data, shape):
    """A random basic-indexing key: ints (some out of range), slices, None, one Ellipsis."""
    parts, ellipsis = [], False
    dims = iter(shape)
    for _ in range(data.draw(st.integers(0, len(shape) + 1))):
        kind = data.draw(st.sampled_from(["int", "slice", "slice", "None", "..."]))
        size = next(dims, 2)
        if kind == "int":
            parts.append(data.draw(st.integers(-size - 1, size)))
        elif kind == "slice":
            parts.append(slice(data.draw(st.none() | st.integers(-size - 2, size + 2)),
                               data.draw(st.none() | st.integers(-size - 2, size + 2)),
                               data.draw(st.sampled_from([None, 1, 2, 5]))))
        elif kind == "None":
            parts.append(None)
        elif not ellipsis:
            parts.append(Ellipsis)
            ellipsis = True
    return parts[0] if len(parts) == 1 and data.draw(st.booleans()) else tuple(parts)


@SETTINGS
@given(st.data(), _shapes(min_size=0), st.sampled_from(DTYPES))
def test_basic_indexing_matches_pytorch(data, shape, dtype):
    """``t[key]`` is a view with PyTorch's layout; ``t[key] = v`` writes the same elements."""
    key = _key(data, shape)
    bases = [_base(e, shape, dtype) for e in ENGINES]
    (expected, error), (actual, actual_error) = [_run(lambda b: b[key], b) for b in bases]
    assert actual_error == error, key
    if error:
        return
    assert _layout(actual) == _layout(expected), key
    assert actual.tolist() == expected.tolist(), key
    for b in bases:
        b[key] = 0
    assert bases[1].tolist() == bases[0].tolist(), key


# ---------------------------------------------------------------------------
# Broadcasting
# ---------------------------------------------------------------------------

@st.composite
def _broadcastable_pair(draw):
    """Two shapes that broadcast: a suffix of one with some sizes set to 1, maybe with extra leading dims."""
    a = draw(_shapes())
    b = list(a[draw(st.integers(0, len(a))):])
    b = [1 if draw(st.booleans()) else s for s in b]
    b = draw(st.lists(st.integers(1, 3), max_size=2)) + b
    return (a, tuple(b)) if draw(st.booleans()) else (tuple(b), a)


_OPERATIONS = {
    "add": lambda e, x, y: x + y,
    "mul": lambda e, x, y: x * y,
    "lt": lambda e, x, y: x < y,
    "maximum": lambda e, x, y: e.maximum(x, y),
    "where": lambda e, x, y: e.where(x > 2, x, y),
}


def _pair(engine, shapes, dtypes):
    (sa, sb), (da, db) = shapes, dtypes
    a = _base(engine, sa, da)
    b = (_base(engine, sb, db) * 2 + 1).to(getattr(engine, db))
    return a, b


@SETTINGS
@given(_broadcastable_pair() | st.tuples(_shapes(), _shapes()), st.sampled_from(sorted(_OPERATIONS)),
       st.tuples(st.sampled_from(DTYPES), st.sampled_from(DTYPES)))
def test_binary_operations_broadcast_as_pytorch(shapes, op, dtypes):
    """Same shape, dtype and values, or the same error (the first mismatch from the right)."""
    results = [_run(lambda e: _OPERATIONS[op](e, *_pair(e, shapes, dtypes)), e) for e in ENGINES]
    (expected, error), (actual, actual_error) = results
    assert actual_error == error
    if error is None:
        assert (tuple(actual.shape), str(actual.dtype)) == (tuple(expected.shape), str(expected.dtype))
        np.testing.assert_array_equal(actual.numpy(), expected.numpy())


@SETTINGS
@given(st.lists(_shapes(max_dims=3), min_size=0, max_size=3) | _broadcastable_pair().map(list))
def test_broadcast_shapes_and_tensors_match_pytorch(shapes):
    """``broadcast_shapes`` gives PyTorch's size or error; ``broadcast_tensors`` the same strided views."""
    (expected, error), (actual, actual_error) = [_run(lambda e: e.broadcast_shapes(*shapes), e) for e in ENGINES]
    assert actual_error == error
    assert actual == expected
    (expected, error), (actual, actual_error) = [
        _run(lambda e: e.broadcast_tensors(*[_base(e, s, "float32") for s in shapes]), e) for e in ENGINES]
    assert actual_error == error
    if error is None:
        assert [_layout(t) for t in actual] == [_layout(t) for t in expected]
        assert [t.tolist() for t in actual] == [t.tolist() for t in expected]


@SETTINGS
@given(_broadcastable_pair() | st.tuples(_shapes(), _shapes()), st.sampled_from(DTYPES), st.sampled_from(DTYPES))
def test_in_place_broadcasts_only_the_value(shapes, out_dtype, value_dtype):
    """``x.add_(y)`` works when ``y`` broadcasts to ``x``'s shape and the result casts to ``x``'s dtype, and
    fails with PyTorch's message otherwise; ``x[...] = y`` likewise."""
    def add_(e):
        x, y = _pair(e, shapes, (out_dtype, value_dtype))
        x.add_(y)
        return x

    def assign(e):
        x, y = _pair(e, shapes, (out_dtype, value_dtype))
        x[...] = y
        return x

    for fn in (add_, assign):
        (expected, error), (actual, actual_error) = [_run(fn, e) for e in ENGINES]
        assert actual_error == error
        if error is None:
            assert _layout(actual) == _layout(expected)
            np.testing.assert_array_equal(actual.numpy(), expected.numpy())


# ---------------------------------------------------------------------------
# Layout of elementwise results
# ---------------------------------------------------------------------------

@st.composite
def _laid_out_operand(draw, shape):
    """``(sizes, memory order, step)``: an operand broadcastable to ``shape``, stored in a random dimension
    order, maybe with every other element of its first dimension."""
    sizes = tuple(1 if draw(st.integers(0, 4)) == 0 else s for s in shape)
    order = tuple(draw(st.permutations(range(len(shape)))))
    return sizes, order, draw(st.sampled_from([1, 1, 2]))


def _operand(engine, sizes, order, step):
    stored = [sizes[0] * step, *sizes[1:]]
    t = engine.arange(float(math.prod(stored))).reshape([stored[d] for d in order])
    t = t.permute([order.index(d) for d in range(len(order))])
    return t[::step]


_ELEMENTWISE = {
    "x + y": lambda e, x, y: x + y,
    "y * x": lambda e, x, y: y * x,
    "x * 2": lambda e, x, y: x * 2,
    "2 - x": lambda e, x, y: 2 - x,
    "x ** 2": lambda e, x, y: x ** 2,
    "x.exp()": lambda e, x, y: x.exp(),
    "x > y": lambda e, x, y: x > y,
    "where": lambda e, x, y: e.where(y > 3, x, y),
    "maximum": lambda e, x, y: e.maximum(x, y),
    "clamp": lambda e, x, y: x.clamp(min=y),
    "logical_and": lambda e, x, y: e.logical_and(x, y),
    "isnan": lambda e, x, y: e.isnan(x),
    "masked_fill": lambda e, x, y: x.masked_fill(y > 3, 0.0),
    "x.long() // 2": lambda e, x, y: x.long() // 2,
}


@SETTINGS
@given(st.lists(st.integers(1, 3), min_size=2, max_size=3).flatmap(
    lambda shape: st.tuples(_laid_out_operand(shape), _laid_out_operand(shape))), st.sampled_from(sorted(_ELEMENTWISE)))
def test_elementwise_results_are_laid_out_as_pytorch(operands, op):
    """``x.t() + y`` is transposed like ``x.t()`` (the first operand decides), size-1 dimensions included."""
    results = [_ELEMENTWISE[op](e, *[_operand(e, *o) for o in operands]) for e in ENGINES]
    expected, actual = results
    assert _layout(actual) == _layout(expected)
    assert actual.tolist() == expected.tolist()
