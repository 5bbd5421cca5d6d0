"""Sums added in PyTorch's order (``course_lib/torch_compat/sum_order.py``): ``.item()`` / ``.tolist()`` bit for bit.

PyTorch's CPU sum does not add pairwise as NumPy does, so a loss or the gradient of a broadcast parameter
would otherwise differ in the last bit, and a diverging gradient descent shows it in the printed losses.
Each comparison runs the same float32/float64/float16 data through both engines; the PyTorch ones skip
when it is not installed.
"""

import numpy as np
import pytest

import course_lib
from course_lib.torch_compat.sum_order import _threads

try:
    import torch
except ImportError:          # the comparisons skip; the checks with known values still run
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
DTYPES = ("float32", "float64", "float16")


@pytest.fixture(autouse=True)
def _same_threads():
    """A full sum of 32768 elements or more is split per thread: give PyTorch the count course_lib assumes."""
    if torch is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(_threads())
    yield
    torch.set_num_threads(before)


def _data(rng, shape, dtype):
    """Values of many magnitudes, so that the order of the additions shows in the last bit."""
    scale = 10.0 ** rng.integers(-3, 4, shape)
    if dtype == "float16":
        scale = np.minimum(scale, 10.0)         # no overflow to inf
    return (rng.standard_normal(shape) * scale).astype(dtype)


def _bits(t):
    """A tensor's bytes (course_lib or PyTorch), dtype and shape."""
    a = np.ascontiguousarray(t.detach().numpy())
    return a.dtype.str, a.shape, a.tobytes()


def _both(array):
    return course_lib.tensor(array), torch.tensor(array)


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
def test_full_sums_and_means_of_every_size_up_to_300(dtype):
    rng = np.random.default_rng(0)
    for n in range(1, 301):
        for _ in range(3):
            c, t = _both(_data(rng, n, dtype))
            assert _bits(c.sum()) == _bits(t.sum()), n
            assert _bits(c.mean()) == _bits(t.mean()), n
            assert c.sum().item() == t.sum().item()


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
def test_large_full_sums(dtype):
    """Cascade levels (blocks of 16, 256, 4096 rows) and the split per thread past 32768 elements."""
    rng = np.random.default_rng(1)
    sizes = [4096, 32767, 32768, 32769, 65537, 123457] + [int(n) for n in rng.integers(300, 400_000, 6)]
    for n in sizes:
        c, t = _both(_data(rng, n, dtype))
        assert _bits(c.sum()) == _bits(t.sum()), n
        assert _bits(c.mean()) == _bits(t.mean()), n


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
def test_sums_over_dims(dtype):
    """Trailing dims (each row summed on its own), leading dims (each column), middle dims, and the
    leading-and-trailing case; with keepdim, and tensors with dims of size 1."""
    rng = np.random.default_rng(2)
    shapes = [(3, 5), (5, 3), (7, 8), (8, 7), (2, 33), (33, 2), (50, 37), (37, 50), (129, 70), (4, 300),
              (300, 4), (1, 9), (9, 1), (2, 3, 4), (6, 1, 40), (17, 9, 35), (3, 40, 2), (40, 3, 17),
              (2, 1000, 3), (5, 2, 3, 70)]
    for shape in shapes:
        c, t = _both(_data(rng, shape, dtype))
        nd = len(shape)
        dims = [(d,) for d in range(nd)] + [(0, nd - 1), tuple(range(1, nd)), tuple(range(nd - 1))]
        for dim in dims:
            for keepdim in (False, True):
                assert _bits(c.sum(dim, keepdim)) == _bits(t.sum(dim, keepdim)), (shape, dim, keepdim)
                assert _bits(c.mean(dim, keepdim)) == _bits(t.mean(dim, keepdim)), (shape, dim, keepdim)
        assert c.sum(-1).tolist() == t.sum(-1).tolist()


@needs_torch
@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_random_shapes_and_dims(dtype):
    rng = np.random.default_rng(3)
    for _ in range(150):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 40, nd))
        if rng.random() < 0.3:
            shape = shape[:-1] + (int(rng.integers(40, 600)),)
        c, t = _both(_data(rng, shape, dtype))
        dim = tuple(sorted(rng.choice(nd, int(rng.integers(1, nd + 1)), replace=False).tolist()))
        assert _bits(c.sum(dim)) == _bits(t.sum(dim)), (shape, dim)


@needs_torch
@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_transposed_and_sliced_views(dtype):
    """A transposed tensor is summed in memory order, as PyTorch does; a sliced one is still summed right
    for the usual cases (a full sum of a non-contiguous view is NumPy's where not modelled: values only)."""
    rng = np.random.default_rng(4)
    for shape in [(5, 3), (9, 40), (40, 9), (33, 17), (100, 12)]:
        c, t = _both(_data(rng, shape, dtype))
        for dim in (None, 0, 1):
            args = () if dim is None else (dim,)
            assert _bits(c.t().sum(*args)) == _bits(t.t().sum(*args)), (shape, dim)
            assert _bits(c.t().mean(*args)) == _bits(t.t().mean(*args)), (shape, dim)
        assert _bits(c[:, 1:].sum(1)) == _bits(t[:, 1:].sum(1))
        np.testing.assert_allclose(c[::2].sum().item(), t[::2].sum().item(), rtol=1e-5)


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
def test_broadcast_gradients_are_summed_in_pytorchs_order(dtype):
    """The gradient of a broadcast input is summed back to its shape (``sum_to``) as PyTorch sums it."""
    rng = np.random.default_rng(5)
    for shape, bshape in [((5,), (1,)), ((37,), (1,)), ((300,), ()), ((20, 30), (30,)), ((20, 30), (20, 1)),
                          ((7, 9, 11), (9, 1)), ((64, 40), (1, 40)), ((3, 50, 8), (1, 1, 8))]:
        x = _data(rng, shape, dtype)
        b = _data(rng, bshape, dtype)
        grads = []
        for engine in (course_lib, torch):
            tb = engine.tensor(b, requires_grad=True)
            (engine.tensor(x) * tb * engine.tensor(x)).sum().backward()
            grads.append(_bits(tb.grad))
        assert grads[0] == grads[1], (shape, bshape)


@needs_torch
@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_mse_loss_mean_and_sum(dtype):
    rng = np.random.default_rng(6)
    for shape in [(5,), (16, 1), (37, 5), (1000,), (64, 33)]:
        a, b = _data(rng, shape, dtype), _data(rng, shape, dtype)
        for reduction in ("mean", "sum"):
            c = course_lib.nn.functional.mse_loss(course_lib.tensor(a), course_lib.tensor(b), reduction=reduction)
            t = torch.nn.functional.mse_loss(torch.tensor(a), torch.tensor(b), reduction=reduction)
            assert _bits(c) == _bits(t), (shape, reduction)


def test_sums_of_more_than_2_20_elements_keep_numpys_pairwise_sum():
    """PyTorch's order costs about 4 times NumPy's sum, so large tensors keep NumPy's (documented)."""
    rng = np.random.default_rng(7)
    x = _data(rng, (1 << 20) + 1, "float32")
    assert course_lib.tensor(x).sum().item() == np.add.reduce(x)
    assert course_lib.tensor(x[:1 << 20]).sum().item() == course_lib.tensor(x[:1 << 20]).view(1024, 1024).sum(
        (0, 1)).item()


def _descent(engine, epochs=100):
    """The tutorial's gradient descent on y = 2x + 1 with lr=0.1, which diverges: its losses and b.grad."""
    x = engine.tensor([1, 2, 3, 4, 5.])
    y = engine.tensor([3, 5, 7, 9, 11.])
    a = engine.tensor([1.], requires_grad=True)
    b = engine.tensor([1.], requires_grad=True)
    losses, b_grads = [], []
    for _ in range(epochs):
        loss = ((a * x + b - y) ** 2).mean()
        loss.backward()
        losses.append(loss.item())
        b_grads.append(b.grad.item())
        with engine.no_grad():
            a -= 0.1 * a.grad
            b -= 0.1 * b.grad
        a.grad.zero_()
        b.grad.zero_()
    return losses, b_grads


def test_diverging_descent_known_values():
    """At step 1 b.grad is a sum of 5 float32 values: PyTorch's 8.400001525878906, not NumPy's
    8.40000057220459."""
    losses, b_grads = _descent(course_lib, 3)
    assert b_grads[:2] == [-6.0, 8.400001525878906]
    assert losses[:2] == [11.0, 20.520004272460938]


@needs_torch
def test_diverging_descent_prints_pytorchs_losses():
    assert _descent(course_lib) == _descent(torch)


def test_known_sums_without_pytorch():
    """Values PyTorch 2.13 gives: a float32 sum of 5 values (4 accumulators) and of 8 (one whole vector, its
    lanes added in turn)."""
    values = [0.1, 0.7, -0.3, 1e-3, 2.5, 1e4, -7.25, 3.3]
    assert course_lib.tensor(values[:5]).sum().item() == 3.000999927520752
    assert course_lib.tensor(values).sum().item() == 9999.05078125


def test_small_sums_and_odd_dtypes_unchanged():
    """Integers and bools sum exactly as before; empty sums are 0; fewer than 4 values add in turn."""
    assert course_lib.tensor([1, 2, 3]).sum().item() == 6
    assert course_lib.tensor([True, False, True]).sum(0).item() == 2
    assert course_lib.zeros(0, 3).sum(0).tolist() == [0.0, 0.0, 0.0]
    assert course_lib.zeros(0).mean().isnan().item()
    x = np.float32([0.1, 0.2, 0.3])
    assert course_lib.tensor(x).sum().item() == np.float32(np.float32(x[0] + x[1]) + x[2])


@pytest.mark.parametrize("call, message", [
    (lambda t, x: x.sum(keepdim=True), "sum() received an invalid combination of arguments - got (keepdim=bool, ), "
     "but expected one of:\n * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool keepdim = False, *, "
     "torch.dtype dtype = None)\n"),
    (lambda t, x: x.sum(keepdims=False), "sum() received an invalid combination of arguments - got "
     "(keepdims=bool, ), but expected one of:\n * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool "
     "keepdim = False, *, torch.dtype dtype = None)\n"),
    (lambda t, x: x.mean(keepdim=True), "mean() received an invalid combination of arguments - got "
     "(keepdim=bool, ), but expected one of:\n * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool "
     "keepdim = False, *, torch.dtype dtype = None)\n"),
    (lambda t, x: t.sum(x, keepdim=True), "sum() received an invalid combination of arguments - got (Tensor, "
     "keepdim=bool), but expected one of:\n * (Tensor input, *, torch.dtype dtype = None)\n * (Tensor input, tuple "
     "of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)\n"),
    (lambda t, x: t.mean(x, keepdims=True), "mean() received an invalid combination of arguments - got (Tensor, "
     "keepdims=bool), but expected one of:\n * (Tensor input, *, torch.dtype dtype = None, Tensor out = None)\n * "
     "(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)\n"),
    (lambda t, x: x.sum(keepdim=True, dtype=t.float64), 'sum() missing 1 required positional arguments: "dim"'),
])
def test_keepdim_without_dim_is_pytorchs_type_error(call, message):
    engines = (course_lib,) if torch is None else (course_lib, torch)
    for engine in engines:
        with pytest.raises(TypeError) as info:
            call(engine, engine.tensor([1., 2.]))
        assert str(info.value) == message, engine.__name__


def test_sums_of_negative_zeros_are_positive_zero():
    """PyTorch adds to 0, so a sum is never -0.0 (NumPy's would be, printed ``-0.``)."""
    for shape, dim in [((3,), None), ((10,), None), ((3, 10), 0), ((10, 3), 1), ((2, 3, 40), (0, 2))]:
        for dtype in (course_lib.float16, course_lib.float32, course_lib.float64):
            x = course_lib.full(shape, -0.0, dtype=dtype)
            out = x.sum() if dim is None else x.sum(dim)
            assert not np.signbit(out.numpy()).any(), (shape, dim, dtype)
            assert not np.signbit((x.mean() if dim is None else x.mean(dim)).numpy()).any()


def test_keepdim_with_dim_none_or_axis_still_works():
    x = course_lib.tensor([1., 2.])
    assert x.sum(None, True).tolist() == [3.0]
    assert x.sum(dim=None, keepdim=True).tolist() == [3.0]
    assert x.mean(None, True).tolist() == [1.5]
    assert course_lib.sum(x, None, True).tolist() == [3.0]
    assert x.sum(axis=None, keepdims=True).tolist() == [3.0]
    assert x.sum((), keepdim=True).tolist() == [3.0]
    assert x.sum(0, keepdim=True).tolist() == [3.0]
