"""softmax and log_softmax along one dimension (``torch.softmax``, ``Tensor.softmax``, ``F.softmax``).

``softmax(x, dim)`` is ``exp(x) / exp(x).sum(dim, keepdim=True)``, computed
after subtracting the maximum along ``dim`` so that large values do not
overflow.  ``log_softmax`` is ``x - logsumexp(x, dim)``.  Both save their
*result* for backward, as PyTorch's ``SoftmaxBackward0`` and
``LogSoftmaxBackward0`` do (``_saved_result``):

* softmax: ``grad_x = y * (grad - (grad * y).sum(dim))``
* log_softmax: ``grad_x = grad - exp(y) * grad.sum(dim)``

float16 is computed in float32 and rounded once, as PyTorch's CPU kernels do.
"""

import warnings

import numpy as np

from ..core.backend import backend_of
from ..core.graph import Op
from ..core.tensor import Tensor, wrap_dim
from ..torch_compat.arguments import _check, parsed_like_pytorch, tensor_expected
from ..torch_compat.names import type_name
from . import _dispatch as D

__all__ = ["softmax", "log_softmax", "softmax_method", "log_softmax_method"]


def _shifted(a, axis):
    """``a`` minus its maximum along ``axis`` (float16 in float32), and the dtype to round the result to.  A 0-d
    ``a`` (``axis`` None) is computed as one element of a 1-d array (NumPy gives scalars for 0-d results)."""
    work = a.astype(np.float32) if a.dtype == np.float16 else a
    if work.ndim == 0:
        work = work.reshape(1)
    return work - work.max(axis=axis, keepdims=True), a.dtype


def _exp(a):
    """``exp(a)`` correctly rounded (through float64), as PyTorch's kernels give it: NumPy's float32 exp and
    log can be one unit in the last place off, which shows in printed results and gradients."""
    if a.dtype == np.float64:
        return backend_of(a).exp(a)
    return backend_of(a).exp(a.astype(np.float64)).astype(a.dtype)


def _log(a):
    """``log(a)`` correctly rounded (through float64); see ``_exp``."""
    if a.dtype == np.float64:
        return backend_of(a).log(a)
    return backend_of(a).log(a.astype(np.float64)).astype(a.dtype)


class Softmax(Op):
    node_name = "SoftmaxBackward0"
    saved_names = ("result",)

    def forward(ctx, a, axis):
        if a.size == 0:
            result = a.copy()
        else:
            with np.errstate(over="ignore", invalid="ignore"):
                shifted, dt = _shifted(a, axis)
                e = _exp(shifted)
                # PyTorch multiplies by the sum's reciprocal (_vec_softmax_lastdim: tmp_sum = 1 / tmp_sum)
                result = (e * (1 / e.sum(axis=axis, keepdims=True))).astype(dt, copy=False).reshape(a.shape)
        ctx.save_for_backward(result)
        ctx.axis = axis
        return result

    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return (D.as_array(y * (grad - (grad * y).sum(axis=ctx.axis, keepdims=True))),)


class LogSoftmax(Op):
    node_name = "LogSoftmaxBackward0"
    saved_names = ("result",)

    def forward(ctx, a, axis):
        if a.size == 0:
            result = a.copy()
        else:
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                shifted, dt = _shifted(a, axis)
                result = (shifted - _log(_exp(shifted).sum(axis=axis, keepdims=True))).astype(dt, copy=False)
                result = result.reshape(a.shape)
        ctx.save_for_backward(result)
        ctx.axis = axis
        return result

    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return (D.as_array(grad - _exp(y) * grad.sum(axis=ctx.axis, keepdims=True)),)


_NOT_GIVEN = object()


def _apply(op, name, input, dim, dtype, axis):
    if axis is not _NOT_GIVEN:                 # NumPy's name, which PyTorch accepts
        if dim is not _NOT_GIVEN:
            raise TypeError(f"{name}() got an unexpected keyword argument 'axis'")
        dim = axis
    if not isinstance(input, Tensor):
        raise tensor_expected(name, input)
    if dim is _NOT_GIVEN:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        if not _check("int", dim):
            where = "" if dim is None else " (position 2)"
            raise TypeError(f"{name}(): argument 'dim'{where} must be int, not {type_name(dim)}")
        dim = int(dim)                   # a 0-d integer tensor, read as an int as in PyTorch
    if dtype is not None:
        input = input.to(dtype)
    x = input._data
    axis = wrap_dim(dim, x.ndim)
    if x.dtype.kind != "f" and x.size == 0:            # (no elements: PyTorch's kernel never runs)
        return D.wrap(x.copy())
    if x.dtype.kind != "f":
        last = x.ndim == 0 or axis == x.ndim - 1
        kernel = f"{name}_lastdim_kernel_impl" if last else f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{input.dtype._short_name}\'')
    return D.record(op, (input,), (x,), {"axis": axis if x.ndim else None})     # (0-d: over its one element)


def softmax(input, dim=_NOT_GIVEN, dtype=None, *, axis=_NOT_GIVEN):
    """``exp(input)`` normalised to sum to 1 along ``dim``. Mirrors ``torch.softmax`` / ``Tensor.softmax``.

    ``dtype`` converts the input first.  Records ``SoftmaxBackward0``.

    Raises:
        NotImplementedError: integer or bool input (PyTorch's message; use ``.float()``).
        IndexError: ``dim`` out of range. TypeError: no ``dim``, or one that is not an int.
    """
    return _apply(Softmax, "softmax", input, dim, dtype, axis)


def log_softmax(input, dim=_NOT_GIVEN, dtype=None, *, axis=_NOT_GIVEN):
    """``log(softmax(input, dim))``, computed stably. Mirrors ``torch.log_softmax`` / ``Tensor.log_softmax``.

    Records ``LogSoftmaxBackward0``.

    Raises:
        NotImplementedError: integer or bool input. IndexError: ``dim`` out of range.
    """
    return _apply(LogSoftmax, "log_softmax", input, dim, dtype, axis)


def implicit_dim(name, ndim, stacklevel):
    """``F.softmax(x)`` without ``dim``: PyTorch's deprecation warning and its legacy choice of dimension."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
                  "as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def _fits(args, kwargs):
    """The usual calls: ``dim`` an int (or a tensor, read later), ``dtype`` by position or keyword."""
    if len(args) > 2 or not kwargs.keys() <= {"dim", "dtype", "axis"}:
        return False
    dim = args[0] if args else kwargs.get("dim", 0)
    return isinstance(dim, (int, np.integer, Tensor)) and not isinstance(dim, bool)


softmax, softmax_method = parsed_like_pytorch(
    "softmax", ("(int dim, torch.dtype dtype = None)",),
    ("(Tensor input, int dim, torch.dtype dtype = None, *, Tensor out = None)",), _fits)(softmax)
log_softmax, log_softmax_method = parsed_like_pytorch(
    "log_softmax", ("(int dim, torch.dtype dtype = None)",),
    ("(Tensor input, int dim, torch.dtype dtype = None, *, Tensor out = None)",), _fits)(log_softmax)
