"""sort, argsort and topk along one dimension.

``sort`` returns ``torch.return_types.sort(values, indices)`` and ``topk``
``torch.return_types.topk(values, indices)``: named tuples, printed as
PyTorch prints them.  Both are differentiable in ``values``: backward puts
each gradient back at the position its value came from (``indices``), as
PyTorch's ``SortBackward0`` and ``TopkBackward0`` do.

Equal values keep their order (a stable sort, ascending or descending); NaN
counts as larger than every number, as in PyTorch.  Which of several equal
values ``topk`` picks may differ from PyTorch, whose choice among ties is not
specified.
"""

import numpy as np

from ..core.backend import backend_of
from ..core.graph import Op
from ..core.tensor import Tensor, wrap, wrap_dim
from ..torch_compat.arguments import Signature, _check, parse, tensor_expected
from ..torch_compat.names import type_name
from . import _dispatch as D
from .reduction import return_types

__all__ = ["sort", "argsort", "topk", "unique"]

_NOT_GIVEN = object()


def _axis(name, dim, axis):
    """``axis=`` for ``dim=`` (NumPy's name, which PyTorch accepts); given both, the alias is unexpected."""
    if dim != -1:
        raise TypeError(f"{name}() got an unexpected keyword argument 'axis'")
    return axis


def _order(a, axis, descending):
    """Indices that sort ``a`` along ``axis`` stably (ties in their original order, NaN last, or first when
    descending)."""
    xp = backend_of(a)
    if not descending:
        return xp.argsort(a, axis=axis, kind="stable")
    n = a.shape[axis]
    flipped = xp.flip(a, axis=axis)
    return (n - 1) - xp.flip(xp.argsort(flipped, axis=axis, kind="stable"), axis=axis)


class _Select(Op):
    """Values picked along ``axis`` by sorting, and their int64 indices; the gradient goes back to them."""

    saved_names = ("indices",)

    def forward(ctx, a, axis, descending, k=None):
        xp = backend_of(a)
        shape = a.shape
        if a.ndim == 0:
            a = a.reshape(1)
        idx = _order(a, axis, descending)
        if k is not None:
            idx = xp.take(idx, xp.arange(k), axis=axis)
        values = xp.take_along_axis(a, idx, axis=axis)
        if len(shape) == 0:
            values, idx = values.reshape(()), idx.reshape(())
        ctx.shape, ctx.axis = shape, axis
        ctx.save_for_backward(idx)
        return values, idx.astype(np.int64)

    def backward(ctx, grad, grad_indices=None):
        (idx,) = ctx.saved_tensors
        xp = backend_of(grad)
        if len(ctx.shape) == 0:
            return (grad.copy(),)
        out = xp.zeros(ctx.shape, dtype=grad.dtype)
        where = [xp.arange(n).reshape([-1 if k == i else 1 for k in range(idx.ndim)]) for i, n in enumerate(idx.shape)]
        where[ctx.axis] = idx
        out[tuple(where)] = grad              # each position once: plain assignment (NumPy and CuPy)
        return (out,)


class Sort(_Select):
    node_name = "SortBackward0"


class SortStable(_Select):
    node_name = "SortBackward1"     # torch.sort(..., stable=...) is another overload


class Topk(_Select):
    node_name = "TopkBackward0"


def _check_input(name, input, dim):
    if not isinstance(input, Tensor):
        raise tensor_expected(name, input)
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        if not _check("int", dim):
            raise TypeError(f"{name}(): argument 'dim' must be int, not {type_name(dim)}")
        dim = int(dim)                   # a 0-d integer tensor, read as an int as in PyTorch
    return wrap_dim(dim, input._data.ndim)


_SORT = (Signature("(*, bool stable, int dim = -1, bool descending = False)"),
         Signature("(int dim = -1, bool descending = False)"))


def sort(input, dim=-1, descending=False, stable=None, *, axis=_NOT_GIVEN):
    """Values sorted along ``dim`` (the last by default) and where they came from.

    Returns ``torch.return_types.sort(values=..., indices=...)``, a named
    tuple: ``values, indices = torch.sort(x)`` works.  Ties keep their order.
    Mirrors ``torch.sort`` / ``Tensor.sort`` (``SortBackward0``;
    ``SortBackward1`` when ``stable=`` is given, PyTorch's other overload).

    Raises:
        IndexError: ``dim`` out of range.
    """
    if axis is not _NOT_GIVEN:
        dim = _axis("sort", dim, axis)
    if isinstance(input, Tensor) and (not isinstance(dim, (int, np.integer)) or isinstance(dim, bool)):
        dim = parse("sort", _SORT, (dim,) if descending is False else (dim, descending))[0][0]
    axis = _check_input("sort", input, dim)
    op = Sort if stable is None else SortStable
    values, indices = D.record(op, (input,), (input._data,), {"axis": axis, "descending": bool(descending)})
    return return_types.sort(values, indices)


def argsort(input, dim=-1, descending=False, stable=False, *, axis=_NOT_GIVEN):
    """The indices that sort ``input`` along ``dim`` (int64). Mirrors ``torch.argsort``."""
    if axis is not _NOT_GIVEN:
        dim = _axis("argsort", dim, axis)
    axis = _check_input("argsort", input, dim)
    x = input._data
    idx = _order(x.reshape(1) if x.ndim == 0 else x, axis, bool(descending))
    return wrap(D.as_array(idx.reshape(x.shape).astype(np.int64)))


def topk(input, k, dim=-1, largest=True, sorted=True, *, axis=_NOT_GIVEN):   # noqa: A002 - PyTorch's name
    """The ``k`` largest values along ``dim`` (the smallest with ``largest=False``) and their indices.

    Returns ``torch.return_types.topk(values=..., indices=...)``, largest
    first.  Mirrors ``torch.topk`` / ``Tensor.topk`` (``TopkBackward0``).

    Raises:
        RuntimeError: ``k`` negative or larger than the size of ``dim`` ("selected index k out of range").
        TypeError: ``k`` not an int.
    """
    if axis is not _NOT_GIVEN:
        dim = _axis("topk", dim, axis)
    axis = _check_input("topk", input, dim)
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
        raise TypeError(f"topk(): argument 'k' must be int, not {type_name(k)}")
    x = input._data
    size = x.shape[axis] if x.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    values, indices = D.record(Topk, (input,), (x,), {"axis": axis, "descending": bool(largest), "k": int(k)})
    return return_types.topk(values, indices)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements of ``input`` in increasing order (flattened, or whole slices along ``dim``),
    optionally with, for each element, the index of its value (``return_inverse``) and how often each value
    occurs (``return_counts``): a tensor, or a tuple of 2 or 3 tensors.  Mirrors ``torch.unique`` (CPU: the
    values come sorted even with ``sorted=False``).  The result is not differentiable.

    Raises:
        TypeError: a non-tensor (PyTorch's message names ``_unique2``).
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("_unique2" if dim is None else "unique_dim", input)
    x = input.detach().cpu()._data
    if dim is None:
        values, inverse, counts = np.unique(x.reshape(-1), return_inverse=True, return_counts=True,
                                            equal_nan=False)         # each nan is its own value, as in PyTorch
        inverse = inverse.reshape(x.shape)
    else:
        axis = wrap_dim(dim, x.ndim)
        values, inverse, counts = np.unique(x, return_inverse=True, return_counts=True, axis=axis)
        inverse = inverse.reshape(-1)
    device = input.device
    out = wrap(values.astype(x.dtype, copy=False)).to(device)
    extra = []
    if return_inverse:
        extra.append(wrap(inverse.astype(np.int64)).to(device))
    if return_counts:
        extra.append(wrap(counts.astype(np.int64)).to(device))
    return (out, *extra) if extra else out
