"""Indexing: ``x[...]`` and ``x[...] = value``.

*Basic* indexing (integers, slices with positive steps, ``...``, ``None``)
returns a **view**: the result shares memory with ``x``.  It is applied
left to right, one view operation per index, exactly like PyTorch
(``x[1, 2:]`` is ``select`` then ``slice``).  *Advanced* indexing (a list,
an integer tensor or a boolean mask) gathers elements into a **copy**
(``IndexBackward0``).  Assignment writes into ``x``'s memory in place.
"""

import numpy as np

from .._device import backend_of
from .._tensor import Tensor, wrap_dim
from ..autograd import grad_mode
from ..autograd.function import Op
from . import _dispatch as D
from . import views as V

__all__ = ["getitem", "setitem", "index_select", "masked_fill", "masked_select", "gather", "nonzero"]

_INDEX_KINDS = "iub"


def _is_advanced(item):
    return isinstance(item, (list, np.ndarray)) or (isinstance(item, Tensor) and not _is_int_scalar(item)) \
        or isinstance(item, bool)


def _is_int_scalar(item):
    return isinstance(item, Tensor) and item._data.ndim == 0 and item._data.dtype.kind in "iu"


def _normalize(index, ndim):
    """The index as a tuple with ``...`` expanded to full slices.

    Raises:
        IndexError: too many indices, two ellipses, or an unsupported index type.
    """
    if not isinstance(index, tuple):
        index = (index,)
    consumed = 0
    for item in index:
        if item is None or item is Ellipsis or isinstance(item, bool):
            continue
        if isinstance(item, Tensor) and item._data.dtype.kind == "b":
            consumed += max(item._data.ndim, 1)
        elif isinstance(item, (int, np.integer, slice, list, np.ndarray, Tensor)):
            consumed += 1
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                             f"are valid indices (got {type(item).__name__})")
    if sum(1 for item in index if item is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if consumed > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    out = []
    for item in index:
        if item is Ellipsis:
            out.extend([slice(None)] * (ndim - consumed))
        else:
            out.append(item)
    return out


def _index_array(item, xp):
    """A list or tensor index as a backend integer/bool array, checked as PyTorch does."""
    if isinstance(item, Tensor):
        a = item._data
    else:
        try:
            a = np.asarray(item)
        except ValueError:
            raise IndexError("too many indices") from None
        if a.dtype.kind == "f":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if a.size == 0:
            a = a.astype(np.int64)
    if a.dtype.kind not in _INDEX_KINDS:
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    if a.dtype.kind == "u" and a.dtype.itemsize == 1:
        a = a.astype(bool)
    return xp.asarray(a)


def _check_bounds(index, size, dim):
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")


class Index(Op):
    """Advanced indexing (a gather: the result is a copy)."""

    node_name = "IndexBackward0"

    def forward(ctx, a, key):
        ctx.shape, ctx.key = a.shape, key
        return a[key]

    def backward(ctx, grad):
        xp = backend_of(grad)
        out = xp.zeros(ctx.shape, dtype=grad.dtype)
        xp.add.at(out, ctx.key, grad)    # repeated indices add up
        return (out,)


def _advanced_key(x, items):
    """Turn the remaining index items into a NumPy key, checking masks and bounds like PyTorch."""
    xp = backend_of(x)
    key, dim = [], 0
    for item in items:
        if isinstance(item, slice):
            key.append(item)
            dim += 1
        elif item is None:
            key.append(None)
        elif isinstance(item, bool):
            key.append(item)
        else:
            a = _index_array(item, xp)
            if a.dtype.kind == "b":
                shape = x.shape[dim:dim + a.ndim]
                if a.shape != shape:
                    bad = next(i for i in range(a.ndim) if i >= len(shape) or a.shape[i] != shape[i])
                    raise IndexError(f"The shape of the mask [{', '.join(map(str, a.shape))}] at index {bad} does "
                                     f"not match the shape of the indexed tensor [{', '.join(map(str, x.shape))}] "
                                     f"at index {dim + bad}")
                dim += a.ndim
            else:
                size = x.shape[dim]
                if a.size:
                    hi, lo = int(a.max()), int(a.min())
                    for v in (hi, lo):
                        _check_bounds(v, size, dim)
                dim += 1
            key.append(a)
    return tuple(key)


def getitem(self, index):
    """``self[index]``: a view for basic indices, a copy for advanced ones (see the module docstring).

    Raises:
        IndexError: out-of-range indices, too many indices, wrong index
            types, mask shape mismatch (PyTorch's messages).
        ValueError: a negative slice step ("step must be greater than zero").
    """
    x = self._data
    items = _normalize(index, x.ndim)
    result = self
    dim = 0               # the dimension of `result` the next index applies to
    rest = []             # items left for advanced indexing (after all basic ones)
    advanced = any(_is_advanced(i) for i in items)
    for item in items:
        if advanced:
            rest.append(item)
            continue
        if item is None:
            result = V.unsqueeze(result, dim)
            dim += 1
        elif isinstance(item, slice):
            result = _slice(result, dim, item)
            dim += 1
        else:
            i = int(item)
            size = result._data.shape[dim]
            _check_bounds(i, size, dim)
            result = V.view_op(V.Select, result, {"axis": dim, "index": i + size if i < 0 else i})
    if advanced:
        return _advanced(self, rest)
    if result is self:
        return V.view_op(V.Alias, self)
    return result


def _slice(t, dim, item):
    step = 1 if item.step is None else int(item.step)
    if step <= 0:
        raise ValueError("step must be greater than zero")
    size = t._data.shape[dim]
    start, stop, _ = item.indices(size)
    stop = max(stop, start)
    if start == 0 and stop == size and step == 1:
        return t              # a full slice is no operation, as in PyTorch
    return V.view_op(V.Slice, t, {"axis": dim, "start": start, "stop": stop, "step": step})


def _advanced(self, items):
    """Basic items are applied first as views (like PyTorch), then one gather with the rest."""
    basic_applied = self
    key_items = []
    dim = 0
    for item in items:
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            size = basic_applied._data.shape[dim]
            _check_bounds(int(item), size, dim)
            basic_applied = V.select(basic_applied, dim, int(item))
        elif _is_int_scalar(item):
            size = basic_applied._data.shape[dim]
            _check_bounds(int(item.item()), size, dim)
            basic_applied = V.select(basic_applied, dim, int(item.item()))
        elif isinstance(item, slice):
            basic_applied = _slice(basic_applied, dim, item)
            key_items.append(slice(None))
            dim += 1
        elif item is None:
            basic_applied = V.unsqueeze(basic_applied, dim)
            key_items.append(slice(None))
            dim += 1
        else:
            key_items.append(item)
            if isinstance(item, Tensor) and item._data.dtype.kind == "b":
                dim += item._data.ndim
            elif not isinstance(item, bool):
                dim += 1
    x = basic_applied._data
    key = _advanced_key(x, key_items)
    if isinstance(self, Tensor) and any(isinstance(i, Tensor) and i._data.__class__ is not x.__class__
                                        and i._data.ndim for i in key_items):
        raise RuntimeError("indices should be either on cpu or on the same device as the indexed tensor (cpu)")
    return D.record(Index, (basic_applied,), (x,), {"key": key})


# ---------------------------------------------------------------------------
# Assignment
# ---------------------------------------------------------------------------

class Copy(Op):
    """``dst.copy_(src)``: dst's old values get no gradient, src gets the gradient."""

    node_name = "CopyBackwards"

    def forward(ctx, dst, src):
        ctx.src_meta = src.shape
        xp = backend_of(dst)
        return xp.broadcast_to(src, dst.shape).astype(dst.dtype, copy=True)

    def backward(ctx, grad):
        return grad * 0, grad


class IndexPut(Op):
    node_name = "IndexPutBackward0"

    def forward(ctx, dst, values, key):
        ctx.key = key
        out = dst.copy()
        out[key] = values
        return out

    def backward(ctx, grad):
        g_self = grad.copy()
        g_self[ctx.key] = 0
        return g_self, grad[ctx.key]


def _value_array(self, value):
    x = self._data
    if isinstance(value, Tensor):
        v = value._data
        if v.__class__ is not x.__class__:
            if v.ndim == 0:
                v = backend_of(x).asarray(v)
            else:
                raise D._device_error(self, value)
        return v
    if isinstance(value, (bool, int, float, np.generic)):
        return D.make_scalar(value, x.dtype)
    if isinstance(value, (list, tuple)):
        from .._creation import tensor
        return tensor(value, dtype=self.dtype)._data
    raise TypeError(f"can't assign a {type(value).__name__} to a {self.type()}")


def _check_expand(target_shape, value_shape):
    """``value`` must broadcast to the indexed shape, with ``expand``'s error otherwise."""
    vs = tuple(value_shape)
    while len(vs) > len(target_shape) and vs[0] == 1:
        vs = vs[1:]
    if len(vs) > len(target_shape):
        raise RuntimeError(f"expand(torch.FloatTensor{{[{', '.join(map(str, value_shape))}]}}, "
                           f"size=[{', '.join(map(str, target_shape))}]): the number of sizes provided "
                           f"({len(target_shape)}) must be greater or equal to the number of dimensions in the "
                           f"tensor ({len(value_shape)})")
    lead = len(target_shape) - len(vs)
    for i, s in enumerate(vs):
        t = target_shape[lead + i]
        if s != t and s != 1:
            raise RuntimeError(f"The expanded size of the tensor ({t}) must match the existing size ({s}) at "
                               f"non-singleton dimension {lead + i}.  Target sizes: "
                               f"[{', '.join(map(str, target_shape))}].  Tensor sizes: "
                               f"[{', '.join(map(str, value_shape))}]")


def setitem(self, index, value):
    """``self[index] = value``: writes into ``self``'s memory (``value`` broadcasts; dtype is converted).

    Raises:
        RuntimeError: the in-place-on-leaf error; a value that does not
            broadcast to the indexed shape.
        TypeError: a value that is not a number or tensor.
    """
    D.check_inplace(self)
    items = _normalize(index, self._data.ndim)
    advanced = any(_is_advanced(i) for i in items)
    v = _value_array(self, value)
    recording = grad_mode.enabled and (self._requires_grad or (isinstance(value, Tensor) and value._requires_grad))
    if not advanced:
        target = getitem(self.detach(), tuple(items)) if not recording else getitem(self, tuple(items))
        _check_expand(target._data.shape, getattr(v, "shape", ()))
        if not recording:
            target._data[...] = v
            self._bump()
            return
        src = value if isinstance(value, Tensor) else None
        node = Copy.Node()
        node.needs_input_grad = (target._requires_grad, src is not None and src._requires_grad)
        out = Copy.forward(node, target._data, v)
        node.next_functions = (D.edge_of(target), (None, 0) if src is None else D.edge_of(src))
        node._input_meta = ((target._data.shape, target._data.dtype),
                            (v.shape, v.dtype) if src is not None and src._requires_grad else None)
        target._data[...] = out
        target._bump()
        D.rebase_history(target, node)
        return
    base_view = self
    key_items = items
    x = base_view._data
    key = _advanced_key(x, key_items)
    try:
        target_shape = x[key].shape
    except IndexError as e:
        raise IndexError(str(e).replace("axis", "dimension")) from None
    _check_expand(target_shape, getattr(v, "shape", ()))
    if not recording:
        x[key] = v
        self._bump()
        return
    src = value if isinstance(value, Tensor) else None
    vv = v.astype(x.dtype) if getattr(v, "dtype", x.dtype) != x.dtype else v
    D.inplace_record(IndexPut, self, (self, src), (x, vv), {"key": key})


def index_select(input, dim, index):
    """Rows (or slices along ``dim``) picked by an integer tensor ``index``; a copy. Mirrors ``torch.index_select``."""
    d = wrap_dim(dim, input._data.ndim)
    return getitem(input, (slice(None),) * d + (index,))


def masked_fill(input, mask, value):
    """A copy of ``input`` with ``value`` where ``mask`` is True. Mirrors ``torch.masked_fill``."""
    from .._creation import scalar_tensor
    from .math import where
    v = value if isinstance(value, Tensor) else scalar_tensor(value, input).to(input.dtype)
    return where(mask, v.to(input.dtype), input)


def masked_select(input, mask):
    """The elements where ``mask`` (broadcast) is True, as a 1-D copy. Mirrors ``torch.masked_select``."""
    a, m = V.broadcast_tensors(input, mask)
    return getitem(a, m)


class Gather(Op):
    node_name = "GatherBackward0"

    def forward(ctx, a, index, axis):
        ctx.shape, ctx.index, ctx.axis = a.shape, index, axis
        return backend_of(a).take_along_axis(a, index, axis=axis)

    def backward(ctx, grad):
        xp = backend_of(grad)
        out = xp.zeros(ctx.shape, dtype=grad.dtype)
        idx = [xp.arange(n).reshape([-1 if k == i else 1 for k in range(grad.ndim)])
               for i, n in enumerate(ctx.index.shape)]
        idx[ctx.axis] = ctx.index
        xp.add.at(out, tuple(idx), grad)
        return (out,)


def gather(input, dim, index):
    """``out[i][j] = input[index[i][j]][j]`` for dim 0 (and likewise for other dims). Mirrors ``torch.gather``."""
    d = wrap_dim(dim, input._data.ndim)
    return D.record(Gather, (input,), (input._data,), {"index": index._data, "axis": d})


def nonzero(input, *, as_tuple=False):
    """Indices of the non-zero elements: an ``(n, ndim)`` int64 tensor. Mirrors ``torch.nonzero``."""
    x = input._data
    xp = backend_of(x)
    idx = xp.nonzero(x) if x.ndim else xp.nonzero(x.reshape(1))
    if as_tuple:
        return tuple(D.wrap(i.astype(np.int64)) for i in idx)
    return D.wrap(xp.stack(idx, axis=1).astype(np.int64) if idx else xp.zeros((0, 0), dtype=np.int64))

