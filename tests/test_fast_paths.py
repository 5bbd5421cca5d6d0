"""The shortcuts that make course_lib fast give exactly what the general paths give.

* ``+ - * /`` with nothing to record skip the graph machinery (``ops._dispatch.binary``);
* ``p -= lr * p.grad`` under no_grad is one ufunc into ``p`` (``ops._dispatch.inplace``), and still
  refuses what PyTorch refuses (overlapping memory, stride 0, a dtype it cannot cast to);
* a large temporary lends its memory to the result (NumPy's temporary elision,
  ``_methods.py`` and ``ops._dispatch.into_temporary``): never a tensor that a name, a view, a NumPy
  array or an explicit ``x.__add__(y)`` call can still see, and the peak memory of
  ``(a * b + a).sum()`` is that of one array.
"""

import operator
import tracemalloc

import numpy as np
import pytest

import course_lib as torch
from course_lib import _methods

N = 200_000          # 800 KB of float32: above the elision threshold (256 KB)


def _big(seed):
    torch.manual_seed(seed)
    return torch.randn(N)


def test_a_temporary_is_measured_at_import():
    assert _methods._TEMPORARY_REFS is not None


@pytest.mark.parametrize("grad", [False, True])
def test_named_operands_are_never_written(grad):
    a, b = _big(0), _big(1)
    with torch.set_grad_enabled(grad):
        t = a * b
        before = t.numpy().copy()
        for y in (t + a, t - a, t * a, t / a, t + 1.0, 2.0 * t, t * 2):
            assert not np.shares_memory(y.numpy(), t.numpy())
        np.testing.assert_array_equal(t.numpy(), before)


def test_a_temporary_gives_the_same_values_and_dtype():
    a, b = _big(0), _big(1)
    x, y = a.numpy(), b.numpy()
    with torch.no_grad():
        cases = [((a * b) + a, x * y + x), ((a * b) - a, x * y - x), ((a + b) * a, (x + y) * x),
                 ((a + b) / b, (x + y) / y), ((a * b) + 2.5, x * y + np.float32(2.5)),
                 (3 * (a + b), np.float32(3) * (x + y)), ((a * b) * torch.tensor(2.0), x * y * np.float32(2))]
        for result, expected in cases:
            assert result.dtype == torch.float32 and result.shape == (N,)
            np.testing.assert_array_equal(result.numpy(), expected)


def test_a_float16_temporary_keeps_pytorchs_float32_arithmetic_with_numbers():
    h = (_big(0) * 3).half()
    with torch.no_grad():
        named = h * h
        for temporary, general in (((h * h) * 0.1, named * 0.1), ((h * h) / 3.3, named / 3.3),
                                   (0.1 * (h * h), 0.1 * named), ((h * h) + 0.1, named + 0.1)):
            assert temporary.dtype == torch.float16
            np.testing.assert_array_equal(temporary.numpy(), general.numpy())


def test_what_others_can_see_is_not_reused():
    a = _big(0)
    with torch.no_grad():
        arr = np.ones(N, dtype=np.float32)
        torch.from_numpy(arr) + 1.0                # the array is the learner's
        np.testing.assert_array_equal(arr, 1.0)
        base = a * 1.0
        base.view(2, -1) + 1.0                    # a view: its memory is base's
        np.testing.assert_array_equal(base.numpy(), a.numpy())
        kept = a * 2.0
        kept.detach() + 1.0                       # detach() shares the array
        np.testing.assert_array_equal(kept.numpy(), a.numpy() * 2)
        t = a * 2.0
        t.__add__(1.0)                            # an explicit call: its caller may hold t
        operator.add(t, 1.0)
        np.testing.assert_array_equal(t.numpy(), a.numpy() * 2)


def test_no_elision_when_a_graph_is_recorded():
    a = _big(0).requires_grad_()
    b = _big(1)
    y = a * b + a
    assert y.grad_fn.name() == "AddBackward0"
    y.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), b.numpy() + 1, rtol=1e-6)


def test_the_peak_memory_of_a_chain_is_one_array():
    a, b = _big(0), _big(1)
    with torch.no_grad():
        tracemalloc.start()
        start = tracemalloc.get_traced_memory()[0]
        (a * b + a).sum()
        peak = tracemalloc.get_traced_memory()[1] - start
        tracemalloc.stop()
    assert peak < 1.2 * N * 4


def test_no_grad_in_place_update_matches_the_general_path():
    torch.manual_seed(0)
    p = torch.randn(5, 4, requires_grad=True)
    p.grad = torch.randn(5, 4)
    expected = p.detach().numpy() - np.float32(0.1) * p.grad.numpy()
    version = p._version
    with torch.no_grad():
        q = p
        p -= 0.1 * p.grad
    assert p is q and p._version == version + 1 and p.is_leaf and p.requires_grad
    np.testing.assert_array_equal(p.detach().numpy(), expected)


def test_in_place_errors_are_kept():
    x = torch.arange(6.0)
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor"):
        x[1:].sub_(x[:-1])
    e = torch.zeros(1).expand(3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        e.add_(torch.ones(3))
    i = torch.arange(3)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        i.div_(torch.ones(3, dtype=torch.int64))
    w = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        w.sub_(torch.ones(3))
