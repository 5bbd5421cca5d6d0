"""Indexing: ``x[...]`` and ``x[...] = value``.

*Basic* indexing (integers, slices with positive steps, ``...``, ``None``)
returns a **view**: the result shares memory with ``x``.  It is applied
left to right, one view operation per index, exactly like PyTorch
(``x[1, 2:]`` is ``select`` then ``slice``).  *Advanced* indexing (a list,
an integer tensor or a boolean mask) gathers elements into a **copy**
(``IndexBackward0``).  Assignment writes into ``x``'s memory in place.
"""

import numpy as np

from .._device import backend_of, to_numpy
from .._tensor import Tensor, wrap_dim
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
    saved_names = ("indices",)

    def forward(ctx, a, key):
        ctx.save_for_backward(key)       # PyTorch saves the indices (a second backward raises)
        ctx.shape = a.shape
        return a[key]

    def backward(ctx, grad):
        (key,) = ctx.saved_tensors
        xp = backend_of(grad)
        out = xp.zeros(ctx.shape, dtype=grad.dtype)
        xp.add.at(out, key, grad)    # repeated indices add up
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
    items = _normalize(index, self._data.ndim)
    if any(_is_advanced(i) for i in items):
        base, key_items = _split_advanced(self, items)
        x = base._data
        key = _advanced_key(x, key_items)
        if any(isinstance(i, Tensor) and i._data.__class__ is not x.__class__ and i._data.ndim for i in key_items):
            raise RuntimeError("indices should be either on cpu or on the same device as the indexed tensor (cpu)")
        return D.record(Index, (base,), (x,), {"key": key})
    # PyTorch keeps a lone full slice (x[:] is a SliceBackward0 view) but skips full slices in a tuple.
    result = _apply_basic(self, items, keep_full_slice=isinstance(index, slice))
    return V.view_op(V.Alias, self) if result is self else result


def _apply_basic(t, items, keep_full_slice=False):
    """Integers, slices and None applied left to right, one view each (``t`` itself if none applies)."""
    dim = 0               # the dimension of the result the next index applies to
    for item in items:
        if item is None:
            t = V.unsqueeze(t, dim)
            dim += 1
        elif isinstance(item, slice):
            t = _slice(t, dim, item, keep_full_slice)
            dim += 1
        else:
            i = int(item)
            size = t._data.shape[dim]
            _check_bounds(i, size, dim)
            t = V.view_op(V.Select, t, {"axis": dim, "index": i + size if i < 0 else i})
    return t


def _slice(t, dim, item, keep_full=False):
    step = 1 if item.step is None else int(item.step)
    if step <= 0:
        raise ValueError("step must be greater than zero")
    size = t._data.shape[dim]
    start, stop, _ = item.indices(size)
    stop = max(stop, start)
    if start == 0 and stop == size and step == 1 and not keep_full:
        return t              # a full slice is no operation, as in PyTorch
    return V.view_op(V.Slice, t, {"axis": dim, "start": start, "stop": stop, "step": step})


def _split_advanced(self, items):
    """Basic items are applied first as views (like PyTorch); return that view and the items left for the gather."""
    basic_applied = self
    key_items = []
    dim = 0
    for item in items:
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool) or _is_int_scalar(item):
            i = int(item)
            _check_bounds(i, basic_applied._data.shape[dim], dim)
            basic_applied = V.select(basic_applied, dim, i)
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
    return basic_applied, key_items


# ---------------------------------------------------------------------------
# Assignment
# ---------------------------------------------------------------------------

class Copy(Op):
    """``dst.copy_(src)``: dst's old values get no gradient, src gets the gradient (converted back to its
    shape, dtype and device by the engine)."""

    node_name = "CopyBackwards"
    node_full_name = "torch::autograd::CopyBackwards"

    def forward(ctx, dst, src):
        xp = backend_of(dst)
        if src.__class__ is not dst.__class__:
            src = xp.asarray(to_numpy(src))
        return xp.broadcast_to(src, dst.shape).astype(dst.dtype, copy=True)

    def backward(ctx, grad):
        return backend_of(grad).zeros_like(grad), grad


class Fill(Op):
    """``fill_(number)``: every element overwritten by ``value``; no gradient reaches the old values."""

    node_name = "FillBackward2"

    def forward(ctx, a, value):
        out = backend_of(a).empty_like(a)
        out[...] = value
        return out

    def backward(ctx, grad):
        return (backend_of(grad).zeros_like(grad),)


class Zero(Fill):
    """``zero_()``."""

    node_name = "ZeroBackward0"


class Uniform(Fill):
    """``uniform_()``: ``value`` holds the random numbers."""

    node_name = "UniformBackward0"


class Normal(Fill):
    """``normal_()``: ``value`` holds the random numbers."""

    node_name = "NormalBackward0"


class FillTensor(Op):
    """``fill_(0-d tensor)`` (also ``x[...] = number``): the value gets the sum of the gradient."""

    node_name = "FillBackward3"

    def forward(ctx, a, value):
        out = backend_of(a).empty_like(a)
        out[...] = value
        return out

    def backward(ctx, grad):
        return backend_of(grad).zeros_like(grad), grad.sum()


class IndexPut(Op):
    """``x[indices] = values`` with advanced indices (``index_put_``)."""

    node_name = "IndexPutBackward0"
    saved_names = ("indices",)

    def forward(ctx, dst, values, key):
        ctx.save_for_backward(key)       # PyTorch saves the indices (a second backward raises)
        out = dst.copy()
        out[key] = values
        return out

    def backward(ctx, grad):
        (key,) = ctx.saved_tensors
        g_self = grad.copy()
        g_self[key] = 0
        return g_self, grad[key]


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

    As in PyTorch, basic indices select a view that is then written
    (``copy_`` or ``fill_``; on a view of a tensor with a history the base
    gets ``CopySlices``) and advanced indices write with ``index_put_``.

    Raises:
        RuntimeError: the in-place-on-leaf errors; a value that does not
            broadcast to the indexed shape (``expand``'s message).
        IndexError: bad indices (as for reading).
        TypeError: a value that is not a number or tensor.
    """
    items = _normalize(index, self._data.ndim)
    v = _value_array(self, value)
    src = value if isinstance(value, Tensor) else None
    rec = D.recording(self, src)
    if not any(_is_advanced(i) for i in items):
        target = _apply_basic(self, items)
        D.check_inplace(target, rec)
        _check_expand(target._data.shape, v.shape)
        if rec:
            _copy_to(target, src, v)
        else:
            target._data[...] = v
            self._bump()
        return
    target, key_items = _split_advanced(self, items)
    D.check_inplace(target, rec)
    x = target._data
    key = _advanced_key(x, key_items)
    try:
        target_shape = x[key].shape
    except IndexError as e:
        raise IndexError(str(e).replace("axis", "dimension")) from None
    _check_expand(target_shape, v.shape)
    if not rec:
        x[key] = v
        self._bump()
        return
    if src is not None:
        src = V.view(src, _without_leading_ones(src._data.shape))
        v = src._data
    v = v.astype(x.dtype) if v.dtype != x.dtype else v
    D.inplace_record(IndexPut, target, (target, D.NUMBER if src is None else src), (x, v), {"key": key})


def _without_leading_ones(shape):
    i = 0
    while i < len(shape) and shape[i] == 1:
        i += 1
    return shape[i:]


def _copy_to(dst, src, v):
    """PyTorch's ``copy_to`` for a recorded ``dst[...] = value``: copy_, fill_ for a 0-d value, or a view
    and expand of the value first."""
    x = dst._data
    if src is None:                              # a Python number, as a 0-d CPU tensor
        op, sources, v = (Copy if x.ndim == 0 else FillTensor), (dst, D.NUMBER), np.asarray(v)
    elif src._data.shape == x.shape:
        op, sources = Copy, (dst, src)
    elif src._data.ndim == 0 and src._data.__class__ is np.ndarray:
        op, sources = FillTensor, (dst, src)
    else:
        src = V.view(src, _without_leading_ones(src._data.shape))
        if src._data.shape != x.shape:
            src = V.expand(src, x.shape)
        op, sources, v = Copy, (dst, src), src._data
    D.inplace_record(op, dst, sources, (x, v))


class IndexSelect(Op):
    """``index_select(dim, index)``: slices along ``axis`` picked by a 1-D integer array."""

    node_name = "IndexSelectBackward0"
    saved_names = ("index",)

    def forward(ctx, a, index, axis):
        ctx.save_for_backward(index)
        ctx.shape, ctx.axis = a.shape, axis
        return backend_of(a).take(a.reshape(1) if a.ndim == 0 else a, index, axis=axis)

    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        xp = backend_of(grad)
        out = xp.zeros(ctx.shape or (1,), dtype=grad.dtype)
        xp.add.at(out, (slice(None),) * ctx.axis + (index,), grad)     # repeated indices add up
        return (out.reshape(ctx.shape),)


def index_select(input, dim, index):
    """Slices along ``dim`` picked by a 1-D integer tensor ``index``; a copy. Mirrors ``torch.index_select``.

    Raises:
        RuntimeError: an index that is not int32/int64.
        IndexError: an index with more than one dimension, or out of range (PyTorch's messages).
    """
    x = input._data
    d = wrap_dim(dim, x.ndim)
    idx = index._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    size = x.shape[d] if x.ndim else 1
    if idx.size and (int(idx.max()) >= size or int(idx.min()) < -size):
        raise IndexError("index out of range in self")
    return D.record(IndexSelect, (input,), (x,), {"index": idx.reshape(-1), "axis": d})


class MaskedFill(Op):
    """``masked_fill(mask, number)`` (MaskedFillBackward0: one edge; the filled places get no gradient)."""

    node_name = "MaskedFillBackward0"
    saved_names = ("mask",)

    def forward(ctx, a, mask, other):
        ctx.save_for_backward(mask)
        return backend_of(a).where(mask, other, a).astype(a.dtype, copy=False)

    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return (backend_of(grad).where(mask, 0, grad),)


class MaskedFillTensor(Op):
    """``masked_fill(mask, 0-d tensor)`` (MaskedFillBackward1): the value gets the gradient of the filled places."""

    node_name = "MaskedFillBackward1"
    saved_names = ("mask",)

    def forward(ctx, a, value, mask):
        ctx.save_for_backward(mask)
        return backend_of(a).where(mask, value.astype(a.dtype), a)

    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        xp = backend_of(grad)
        return xp.where(mask, 0, grad), xp.where(mask, grad, 0).sum()


def masked_fill(input, mask, value):
    """A copy of ``input`` with ``value`` (a number or a 0-d tensor) where the bool ``mask`` is True.

    ``mask`` broadcasts with ``input``; the result keeps ``input``'s dtype.
    Mirrors ``torch.masked_fill``.

    Raises:
        RuntimeError: a mask that is not bool, a value tensor that is not 0-d (PyTorch's messages).
    """
    from .linalg import _c_name
    x, m = input._data, mask._data
    if m.dtype.kind != "b":
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {_c_name(m)}")
    if x.shape != m.shape:
        from .._broadcast import broadcast_shape
        broadcast_shape(x.shape, m.shape)
    if not isinstance(value, Tensor):
        return D.record(MaskedFill, (input,), (x,), {"mask": m, "other": D.make_scalar(value, x.dtype)})
    v = value._data
    if v.ndim:
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {v.ndim} "
                           "dimension(s).")
    if v.__class__ is not x.__class__:
        v = backend_of(x).asarray(to_numpy(v))
    return D.record(MaskedFillTensor, (input, value), (x, v), {"mask": m})


class MaskedSelect(Op):
    """``masked_select(mask)``: the elements where the (broadcast) mask is True, as a 1-D copy."""

    node_name = "MaskedSelectBackward0"
    saved_names = ("mask",)

    def forward(ctx, a, mask):
        from .._broadcast import broadcast_shape
        xp = backend_of(a)
        shape = broadcast_shape(a.shape, mask.shape)
        m = xp.broadcast_to(mask, shape)
        ctx.save_for_backward(m)
        return xp.broadcast_to(a, shape)[m]

    def backward(ctx, grad):
        (m,) = ctx.saved_tensors
        out = backend_of(grad).zeros(m.shape, dtype=grad.dtype)
        out[m] = grad
        return (out,)           # the engine sums it back to the input's shape


def masked_select(input, mask):
    """The elements where ``mask`` (broadcast) is True, as a 1-D copy. Mirrors ``torch.masked_select``.

    Raises:
        RuntimeError: a mask that is not bool; shapes that do not broadcast.
    """
    if mask._data.dtype.kind != "b":
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    return D.record(MaskedSelect, (input,), (input._data,), {"mask": mask._data})


class Gather(Op):
    node_name = "GatherBackward0"
    saved_names = ("index",)

    def forward(ctx, a, index, axis):
        ctx.save_for_backward(index)
        ctx.shape, ctx.axis = a.shape, axis
        return backend_of(a).take_along_axis(a, index, axis=axis)

    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        xp = backend_of(grad)
        out = xp.zeros(ctx.shape, dtype=grad.dtype)
        idx = [xp.arange(n).reshape([-1 if k == i else 1 for k in range(grad.ndim)])
               for i, n in enumerate(index.shape)]
        idx[ctx.axis] = index
        xp.add.at(out, tuple(idx), grad)     # repeated indices add up
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

