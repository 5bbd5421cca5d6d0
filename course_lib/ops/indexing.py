"""Indexing: ``x[...]`` and ``x[...] = value``.

*Basic* indexing (integers, slices with positive steps, ``...``, ``None``)
returns a **view**: the result shares memory with ``x``.  It is applied
left to right, one view operation per index, exactly like PyTorch
(``x[1, 2:]`` is ``select`` then ``slice``).  *Advanced* indexing (a list,
an integer tensor or a boolean mask) gathers elements into a **copy**
(``IndexBackward0``).  Assignment writes into ``x``'s memory in place.
"""

import operator
import warnings

import numpy as np

from ..core.backend import backend_of, to_numpy
from ..core.graph import NO_CONTEXT, Op
from ..core.layout import broadcast_shape, element_strides
from ..core.tensor import Tensor, wrap, wrap_dim
from ..torch_compat import dtypes as _dtype
from ..torch_compat.arguments import Signature, invalid_arguments, parse, tensor_expected, wrong_arguments
from ..torch_compat.dtypes import int64
from ..torch_compat.layouts import broadcast_strides, check_no_partial_overlap, empty_strided, iterator_strides
from ..torch_compat.names import type_name
from . import _dispatch as D
from . import views as V
from .creation import _data_to_array, _infer_dtype

__all__ = ["getitem", "setitem", "index_select", "masked_fill", "masked_select", "gather", "nonzero", "take",
           "scatter", "scatter_", "scatter_add", "scatter_add_", "index_add", "index_add_", "index_fill", "index_fill_",
           "repeat_interleave"]

def _c_name(a):
    return _dtype.DEMANGLED_NAMES[_dtype.from_numpy_dtype(a.dtype)]


NON_TUPLE_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in pytorch 2.9; "
    "use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as tensor index, "
    "x[torch.tensor(seq)], which will result either in an error or a different result (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/python_variable_indexing.cpp:{line}.)")
UINT8_WARNING = ("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead. "
                 "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/IndexingUtils.h:37.)")
_MASK_DTYPES = (np.dtype(np.bool_), np.dtype(np.uint8))


# ---------------------------------------------------------------------------
# Reading the index (PyTorch's python_variable_indexing.cpp and TensorIndexing.h)
# ---------------------------------------------------------------------------

def _is_long(item):
    """A Python or NumPy integer (not a bool): indexes one position."""
    return isinstance(item, (int, np.integer)) and not isinstance(item, bool)


def _as_tuple(index):
    """The index as a tuple of items.  A short list holding a list, tensor, slice, ``...`` or None is read as
    a tuple (NumPy's old rule; PyTorch warns); any other list is one index."""
    if isinstance(index, tuple):
        return index
    if isinstance(index, (list, str, bytes, range)) and len(index) < 32:
        for item in index:
            if isinstance(item, (Tensor, list, tuple, range, np.ndarray, str, bytes, slice)):
                warnings.warn(NON_TUPLE_WARNING.format(line=349), UserWarning, stacklevel=3)
                return tuple(index)
            if item is None or item is Ellipsis:
                warnings.warn(NON_TUPLE_WARNING.format(line=359), UserWarning, stacklevel=3)
                return tuple(index)
    return (index,)


def _count_specified(items):
    """How many dimensions of the tensor the items use (``...`` and None use none, a mask as many as it has)."""
    count = 0
    for item in items:
        if isinstance(item, Tensor):
            count += item._data.ndim if item._data.dtype in _MASK_DTYPES else 1
        elif not (item is None or item is Ellipsis or item is True or item is False):
            count += 1
    return count


def _select(t, dim, index, real_dim):
    """``t.select(dim, index)`` for an integer index at position ``real_dim`` of the index tuple."""
    shape = t._data.shape
    if index == 0 and dim == 0 and not shape:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
                         "C++ to convert a 0-dim tensor to a number")
    size = shape[dim] if dim < len(shape) else 0
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {real_dim} with size {size}")
    return V.view_op(V.Select, t, {"axis": dim, "index": index + size if index < 0 else index})


def _slice(t, dim, item, skip_full=True):
    """``t`` sliced along ``dim`` (a view); a full slice inside a tuple is skipped, as PyTorch does."""
    step = 1 if item.step is None else _slice_index(item.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step < 0:
        raise ValueError("step must be greater than zero")
    shape = t._data.shape
    if not shape:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    size = shape[wrap_dim(dim, len(shape))]
    start = 0 if item.start is None else _slice_index(item.start)
    stop = None if item.stop is None else _slice_index(item.stop)
    if skip_full and start == 0 and (stop is None or stop >= size) and step == 1:
        return t
    start, stop, _ = slice(start, stop).indices(size)
    return V.view_op(V.Slice, t, {"axis": dim, "start": start, "stop": max(stop, start), "step": step})


def _slice_index(value):
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("slice indices must be integers or None or have an __index__ method") from None


def _index_tensor(item):
    """A list (or array) used as an index, converted as PyTorch does: bool or uint8 data stays, the rest is int64."""
    dt = _infer_dtype(item)
    array, _ = _data_to_array(item, dt if dt.numpy_dtype in _MASK_DTYPES else int64)
    return D.wrap(array)


def _bool_index(value):
    """The index of ``x[True]`` / ``x[False]`` (on a new dimension of size 1): position 0, or no position."""
    return D.wrap(np.zeros(1 if value else 0, dtype=np.int64))


def _apply_slicing(self, items):
    """Apply the basic items as views, left to right, and collect the advanced ones.

    Returns ``(view, indices)``: ``indices[d]`` is the index tensor for
    dimension ``d`` of the view, or None.  An integer or slice applies at
    the current dimension; ``...`` skips the dimensions no other item uses.
    """
    ndim = self._data.ndim
    specified = _count_specified(items)
    if specified > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    result, dim, indices = self, 0, []

    def width(tensor):                   # a mask uses as many dimensions as it has
        return 1 if tensor is None or tensor._data.dtype not in _MASK_DTYPES else tensor._data.ndim

    def record(tensor):                  # the index tensor for the dimensions from ``dim`` on
        nonlocal dim
        covered = 0
        for i, t in enumerate(indices):
            if covered + width(t) > dim:
                del indices[i:]
                break
            covered += width(t)
        indices.extend([None] * (dim - covered))
        indices.append(tensor)
        dim += width(tensor)

    for real_dim, item in enumerate(items):
        if _is_long(item):
            result = _select(result, dim, int(item), real_dim)
        elif isinstance(item, slice):
            result = _slice(result, dim, item)
            dim += 1
        elif item is Ellipsis:
            dim += ndim - specified
        elif item is None:
            result = V.unsqueeze(result, dim)
            dim += 1
        elif item is True or item is False:
            result = V.unsqueeze(result, dim)
            record(_bool_index(item))
        elif isinstance(item, Tensor):
            a = item._data
            if a.ndim == 0 and a.dtype in _MASK_DTYPES:
                result = V.unsqueeze(result, dim)
                record(_bool_index(bool(a)))
            elif a.ndim == 0 and a.dtype.kind in "iu":
                result = _select(result, dim, int(a), real_dim)
            else:
                record(item)
        elif isinstance(item, (list, tuple, range, str, bytes, np.ndarray)):
            record(_index_tensor(item))
        else:
            try:
                i = operator.index(item)
            except TypeError:
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                                 f"are valid indices (got {type_name(item)})") from None
            result = _select(result, dim, i, real_dim)
    return result, indices


def _index_key(x, indices, check_value=None):
    """The NumPy key for PyTorch's ``index(x, indices)``, checked in PyTorch's order.

    Masks become the positions of their True elements (uint8 masks warn);
    the index tensors broadcast together; ``index_put_`` checks its value
    (``check_value(shape of the indexing result)``); every position must lie
    inside its dimension (the error names the index tensor's number, as
    PyTorch does).  Positions are not checked when the result is empty.

    Raises:
        IndexError: index tensors of other dtypes, a mask of the wrong shape,
            index tensors that do not broadcast, a position out of range.
        RuntimeError: index tensors on another device.
    """
    xp = backend_of(x)
    for t in indices:
        if t is not None and t._data.dtype not in _INDEX_DTYPES:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    arrays = []                          # per dimension of x: an integer array, or None for all of it
    for t in indices:
        if t is None:
            arrays.append(None)
            continue
        a = t._data
        if a.__class__ is not x.__class__:
            if x.__class__ is np.ndarray:          # CUDA indices for a CPU tensor; CPU ones may index anything
                raise RuntimeError("indices should be either on cpu or on the same device as the indexed tensor "
                                   "(cpu)")
            a = xp.asarray(to_numpy(a))
        if a.dtype in _MASK_DTYPES:
            if a.dtype == np.uint8:
                warnings.warn(UINT8_WARNING, UserWarning, stacklevel=4)
            for j in range(a.ndim):
                d = len(arrays) + j
                if a.shape[j] != x.shape[wrap_dim(d, x.ndim)]:
                    raise IndexError(f"The shape of the mask [{', '.join(map(str, a.shape))}] at index {j} does not "
                                     f"match the shape of the indexed tensor [{', '.join(map(str, x.shape))}] at "
                                     f"index {d}")
            arrays.extend(xp.nonzero(a))
        else:
            arrays.append(a)
    if len(arrays) > x.ndim:
        raise IndexError(f"too many indices for tensor of dimension {x.ndim} (got {len(arrays)})")
    given = [a for a in arrays if a is not None]
    shape = ()
    try:
        for a in given:
            shape = broadcast_shape(shape, a.shape)
    except RuntimeError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(f"[{', '.join(map(str, a.shape))}]" for a in given)) from None
    sizes = [x.shape[d] for d, a in enumerate(arrays) if a is not None]
    if 0 in sizes and 0 not in shape:
        raise IndexError("index is out of bounds for dimension with size 0")
    if check_value is not None:
        check_value(_indexing_result_shape(x.shape, arrays, shape))
    outside = [(a < -n) | (a >= n) for a, n in zip(given, sizes)]
    if 0 not in shape and any(o.any() for o in outside):
        # the first position (in the result's order) with a bad index, and the first index tensor bad there
        flat = [xp.broadcast_to(o, shape).reshape(-1) for o in outside]
        first = min(int(f.argmax()) for f in flat if f.any())
        i = next(i for i, f in enumerate(flat) if f[first])
        value = int(xp.broadcast_to(given[i], shape).reshape(-1)[first])
        raise IndexError(f"index {value} is out of bounds for dimension {i} with size {sizes[i]}")
    return tuple(slice(None) if a is None else a for a in arrays)


_INDEX_DTYPES = (np.dtype(np.int64), np.dtype(np.int32), np.dtype(np.uint8), np.dtype(np.bool_))


def _indexing_result_shape(shape, arrays, index_shape):
    """The shape of ``x[key]`` for ``x`` of ``shape``: the index tensors' broadcast ``index_shape`` where
    they stand if they are next to each other, else first (NumPy's and PyTorch's rule)."""
    positions = [d for d, a in enumerate(arrays) if a is not None]
    first, last = positions[0], positions[-1]
    if positions == list(range(first, last + 1)):
        return tuple(shape[:first]) + tuple(index_shape) + tuple(shape[last + 1:])
    return tuple(index_shape) + tuple(n for d, n in enumerate(shape) if d not in positions)




def _gather_strides(a, key, shape):
    """The strides PyTorch gives the result of advanced indexing: its TensorIterator's choice for the input
    (with the indexed dimensions replaced by the index tensors') and the index tensors."""
    positions = [d for d, k in enumerate(key) if not isinstance(k, slice)]
    arrays = [key[d] for d in positions]
    nb = len(shape) - (a.ndim - len(positions))           # dimensions the index tensors make
    strides = element_strides(a)

    def spread(arr):                                      # an index tensor's strides, broadcast to nb dims
        return broadcast_strides(arr, shape[:nb])

    if positions == list(range(positions[0], positions[-1] + 1)):     # one block: it stays in place
        before, after = positions[0], a.ndim - positions[-1] - 1
        src = strides[:before] + (0,) * nb + strides[positions[-1] + 1:]
        ops = [(0,) * before + spread(arr) + (0,) * after for arr in arrays]
    else:                                                 # scattered: the index dimensions come first
        rest = tuple(strides[d] for d in range(a.ndim) if d not in positions)
        src = (0,) * nb + rest
        ops = [spread(arr) + (0,) * len(rest) for arr in arrays]
    return iterator_strides(shape, [src] + ops)


class Index(Op):
    """Advanced indexing (a gather: the result is a copy)."""

    node_name = "IndexBackward0"
    saved_names = ("indices",)

    def forward(ctx, a, key):
        ctx.save_for_backward(key)       # PyTorch saves the indices (a second backward raises)
        ctx.shape = a.shape
        out = a[key]
        if out.ndim > 1:                 # NumPy puts the index dimensions first in memory; PyTorch does not
            strides = _gather_strides(a, key, out.shape)
            if strides != element_strides(out):
                laid_out = empty_strided(backend_of(a), out.shape, strides, out.dtype)
                laid_out[...] = out
                return laid_out
        return out

    def backward(ctx, grad):
        (key,) = ctx.saved_tensors
        xp = backend_of(grad)
        out = xp.zeros(ctx.shape, dtype=grad.dtype)
        xp.add.at(out, key, grad)    # repeated indices add up
        return (out,)



def _gather(t, indices):
    """``index(t, indices)``: the advanced-indexing copy (``IndexBackward0``)."""
    x = t._data
    return D.record(Index, (t,), (x,), {"key": _index_key(x, indices)})


def getitem(self, index):
    """``self[index]``: a view for basic indices, a copy for advanced ones (see the module docstring).

    Mirrors ``Tensor.__getitem__``.

    Raises:
        IndexError: out-of-range indices, too many indices, wrong index
            types, mask shape mismatch (PyTorch's messages).
        ValueError: a zero or negative slice step.
        TypeError: a list index holding something that is not a number.
    """
    if index is None:
        return V.unsqueeze(self, 0)
    if index is Ellipsis:
        return V.view_op(V.Alias, self)
    if _is_long(index):
        return _select(self, 0, int(index), 0)
    if isinstance(index, slice):
        return _slice(self, 0, index, skip_full=False)     # a lone slice is always a SliceBackward0 view
    if index is True or index is False:
        return _gather(V.unsqueeze(self, 0), [_bool_index(index)])
    result, indices = _apply_slicing(self, _as_tuple(index))
    if indices:
        return _gather(result, indices)
    return V.view_op(V.Alias, self) if result is self else result


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


class RandomFromTo(Fill):
    """``random_(from, to)``: ``value`` holds the random integers."""

    node_name = "RandomBackward0"


class RandomTo(Fill):
    """``random_(to)``."""

    node_name = "RandomBackward1"


class Random(Fill):
    """``random_()``."""

    node_name = "RandomBackward2"


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


def _value_tensor(self, value):
    """The value of ``self[index] = value`` as a tensor: a number becomes a 0-d tensor of ``self``'s dtype.

    Raises:
        TypeError: a value that is neither a tensor nor a Python number ("can't assign a list to a
            torch.FloatTensor").
        RuntimeError: a number that does not fit the dtype ("value cannot be converted to type uint8_t
            without overflow").
        ValueError: an int beyond int64 ("Overflow when unpacking long long").
    """
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (int, np.integer)):
        if not -2 ** 63 <= value < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")
        value = int(value)
    elif isinstance(value, float):
        value = float(value)
    elif isinstance(value, complex):
        if value.imag:
            raise RuntimeError(f"value cannot be converted to type {self.dtype._cpp_name} without overflow")
        value = value.real
    else:
        raise TypeError(f"can't assign a {type_name(value)} to a {self.type()}")
    with np.errstate(over="ignore"):
        return D.wrap(np.array(_dtype.checked_value(value, self.dtype), dtype=self._data.dtype))


def copy_shape_check(dst_shape, src_shape):
    """``dst.copy_(src)`` needs ``src`` to broadcast to ``dst``'s shape exactly, with PyTorch's errors.

    Raises:
        RuntimeError: "The size of tensor a (2) must match the size of tensor b (3) at non-singleton
            dimension 0", or "output with shape [3] doesn't match the broadcast shape [2, 3]".
    """
    if src_shape != dst_shape:
        shape = broadcast_shape(dst_shape, src_shape)
        if shape != dst_shape:
            raise RuntimeError(f"output with shape [{', '.join(map(str, dst_shape))}] doesn't match the broadcast "
                               f"shape [{', '.join(map(str, shape))}]")


EXPANDED_INDEX_PUT_WARNING = (
    "Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before performing this "
    "operation. This also applies to advanced indexing e.g. tensor[indices] = tensor (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:976.)")


def setitem(self, index, value):
    """``self[index] = value``: writes into ``self``'s memory. Mirrors ``Tensor.__setitem__``.

    As in PyTorch, basic indices select a view that is then written with
    ``copy_`` (``fill_`` for a single value; the value broadcasts and is
    converted to ``self``'s dtype; on a view of a tensor with a history the
    base gets ``CopySlices``), and advanced indices write with ``index_put_``
    (the value's dtype must match, unless it is one value for a mask).

    Raises:
        RuntimeError: the in-place-on-leaf errors; a value that does not
            broadcast to the indexed shape (``expand``'s or ``index_put_``'s
            message); a dtype mismatch for ``index_put_``; overlapping memory.
        IndexError: bad indices (as for reading).
        TypeError: a value that is not a number or tensor.
    """
    v = _value_tensor(self, value)
    if index is False:
        return                                   # PyTorch writes nothing
    if index is Ellipsis:
        _copy_to(self, v)
    elif index is None or index is True:
        _copy_to(V.unsqueeze(self, 0), v)
    elif _is_long(index):
        _copy_to(_select(self, 0, int(index), 0), v)
    elif isinstance(index, slice):
        _copy_to(_slice(self, 0, index), v)
    else:
        sliced, indices = _apply_slicing(self, _as_tuple(index))
        if indices:
            _index_put(sliced, indices, V.view(v, _without_leading_ones(v._data.shape)), same=v is sliced)
        else:
            _copy_to(sliced, v)


def _without_leading_ones(shape):
    i = 0
    while i < len(shape) and shape[i] == 1:
        i += 1
    return shape[i:]


def _copy_to(dst, src):
    """PyTorch's ``copy_to(dst, src)`` for ``dst[...] = src``: ``copy_`` when the shapes match, ``fill_``
    for a 0-d CPU value, else ``src`` without its leading 1s, expanded to ``dst``'s shape, then ``copy_``."""
    x = dst._data
    if src._data.shape == x.shape:
        op = Copy
    elif src._data.ndim == 0 and src._data.__class__ is np.ndarray:
        op = FillTensor
    else:
        src = V.view(src, _without_leading_ones(src._data.shape))
        if src._data.shape != x.shape:        # PyTorch's expand_inplace records no expand when the sizes match
            src = V.expand(src, x.shape)
        op = Copy
    rec = D.recording(dst, src)
    D.check_inplace(dst, rec)
    if op is Copy:
        check_no_partial_overlap(x, src._data)
    v = src._data
    if v.__class__ is not x.__class__:
        v = backend_of(x).asarray(to_numpy(v))
    if rec:
        D.inplace_record(op, dst, (dst, src), (x, v))
        return
    with np.errstate(invalid="ignore", over="ignore"):
        x[...] = v
    dst._bump()


def _overlapping(x, v):
    """Whether arrays ``x`` and ``v`` overlap as PyTorch's ``assert_no_overlap`` sees it: both dense in memory and
    their memory ranges intersecting (other layouts it cannot tell, and lets pass)."""
    if x.__class__ is not np.ndarray or v.__class__ is not np.ndarray or not v.size or not x.size:
        return False
    dense = all(a.flags.c_contiguous or a.flags.f_contiguous for a in (x, v))
    return dense and np.may_share_memory(x, v)


def _index_put(dst, indices, src, same=False):
    """PyTorch's ``dst.index_put_(indices, src)`` for ``dst[advanced index] = src`` (``same``: ``src`` stands for
    ``dst`` itself): the in-place checks of autograd (a leaf that requires grad) first, then the kernel's (overlapping
    memory, the indices, the value's shape and dtype)."""
    x = dst._data
    v = src._data
    rec = D.recording(dst, src)
    D.check_inplace(dst, rec, overlap=False)
    one_mask = v.size == 1 and sum(t is not None for t in indices) == 1 and \
        next(t for t in indices if t is not None)._data.dtype in _MASK_DTYPES
    if not one_mask and (same or _overlapping(x, v)):      # (the tensor itself: even empty, as in PyTorch)
        raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to tensor refer "
                           "to a single memory location. Please clone() the tensor before performing the operation.")

    def check_value(target):
        if len(v.shape) > len(target) or any(a != 1 and a != b for a, b in zip(v.shape[::-1], target[::-1])):
            raise RuntimeError(f"shape mismatch: value tensor of shape [{', '.join(map(str, v.shape))}] cannot be "
                               f"broadcast to indexing result of shape [{', '.join(map(str, target))}]")
        if v.dtype != x.dtype:
            raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                               f"{dst.dtype._short_name} for the destination and {src.dtype._short_name} for the "
                               "source.")

    # (one value for one mask is a masked_fill_: any dtype will do)
    key = _index_key(x, indices, None if one_mask else check_value)
    if v.__class__ is not x.__class__:
        v = backend_of(x).asarray(to_numpy(v))
    if x.size > 1 and any(st == 0 and n > 1 for n, st in zip(x.shape, x.strides)):
        warnings.warn(EXPANDED_INDEX_PUT_WARNING, UserWarning, stacklevel=4)
    if rec:
        D.inplace_record(IndexPut, dst, (dst, src), (x, v.astype(x.dtype, copy=False)), {"key": key})
        return
    with np.errstate(invalid="ignore", over="ignore"):
        x[key] = v
    dst._bump()


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


_NOT_GIVEN = object()


def _given(*values):
    """The arguments given, up to the first one left out."""
    return values[:values.index(_NOT_GIVEN)] if _NOT_GIVEN in values else values


def _axis_for_dim(name, dim, axis):
    """``axis=`` for ``dim=`` (PyTorch accepts NumPy's name); given both, the alias is unexpected."""
    if dim is not _NOT_GIVEN:
        raise TypeError(f"{name}() got an unexpected keyword argument 'axis'")
    return axis


_INDEX_SELECT = (Signature("(int dim, Tensor index)"),)
_GATHER = (Signature("(int dim, Tensor index, *, bool sparse_grad = False)"),)
_MASKED_FILL = (Signature("(Tensor mask, Tensor value)"), Signature("(Tensor mask, Number value)"))


def index_select(input, dim=_NOT_GIVEN, index=_NOT_GIVEN, *, axis=_NOT_GIVEN):
    """Slices along ``dim`` (or ``axis=``) picked by a 1-D integer tensor ``index``; a copy. Mirrors
    ``torch.index_select``.

    Raises:
        RuntimeError: an index that is not int32/int64.
        IndexError: an index with more than one dimension, or out of range (PyTorch's messages).
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("index_select", input)
    if axis is not _NOT_GIVEN:
        dim = _axis_for_dim("index_select", dim, axis)
    if not (isinstance(index, Tensor) and isinstance(dim, int)):
        dim, index = parse("index_select", _INDEX_SELECT, _given(dim, index))[0]
    D.check_devices("_index_select", (("self", input), ("index", index)))
    x = input._data
    d = wrap_dim(dim, x.ndim)
    idx = index._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    size = x.shape[d] if x.ndim else 1
    bad = idx[(idx >= size) | (idx < 0)]
    if bad.size:
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={int(bad[0])} axis_dim={size}")
    return D.record(IndexSelect, (input,), (x,), {"index": idx.reshape(-1), "axis": d})


def _filled(a, mask, value):
    """A contiguous copy of ``a`` broadcast with ``mask`` (as PyTorch's ``masked_fill`` makes it), holding
    ``value`` where ``mask`` is True."""
    xp = backend_of(a)
    out = xp.empty(broadcast_shape(a.shape, mask.shape), dtype=a.dtype)
    out[...] = a
    xp.copyto(out, value, casting="unsafe", where=mask)
    return out


class MaskedFill(Op):
    """``masked_fill(mask, number)`` (MaskedFillBackward0: one edge; the filled places get no gradient)."""

    node_name = "MaskedFillBackward0"
    saved_names = ("mask",)

    def forward(ctx, a, mask, other):
        ctx.save_for_backward(mask)
        return _filled(a, mask, other)

    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return (backend_of(grad).where(mask, 0, grad),)


class MaskedFillTensor(Op):
    """``masked_fill(mask, 0-d tensor)`` (MaskedFillBackward1): the value gets the gradient of the filled places."""

    node_name = "MaskedFillBackward1"
    saved_names = ("mask",)

    def forward(ctx, a, value, mask):
        ctx.save_for_backward(mask)
        return _filled(a, mask, value)

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
    if not isinstance(input, Tensor):
        raise wrong_arguments("masked_fill", input, mask, value)
    return D.record(*masked_fill_call(input, mask, value))


def masked_fill_call(input, mask, value, inplace=False):
    """``(op, inputs, arrays, params)`` of ``masked_fill`` (also what ``masked_fill_`` records, ``inplace``),
    after PyTorch's argument checks."""
    if not isinstance(mask, Tensor) or not (isinstance(value, Tensor) or D.is_number(value)):
        raise invalid_arguments("masked_fill", _MASKED_FILL, (mask, value))
    x, m = input._data, mask._data
    if m.__class__ is not x.__class__:
        raise RuntimeError(f"expected self and mask to be on the same device, but got mask on {mask.device} and "
                           f"self on {input.device}")
    if m.dtype.kind != "b":
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {_c_name(m)}")
    if x.shape != m.shape:            # PyTorch names the mask tensor a, except in place (a is self)
        broadcast_shape(x.shape, m.shape) if inplace else broadcast_shape(m.shape, x.shape)
    if not isinstance(value, Tensor):
        value = _dtype.checked_value(value, input.dtype, scalar=True)
        return MaskedFill, (input,), (x,), {"mask": m, "other": D.make_scalar(value, x.dtype)}
    v = value._data
    if v.ndim:
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {v.ndim} "
                           "dimension(s).")
    if v.__class__ is not x.__class__:
        v = backend_of(x).asarray(to_numpy(v))
    return MaskedFillTensor, (input, value), (x, v), {"mask": m}


class MaskedSelect(Op):
    """``masked_select(mask)``: the elements where the (broadcast) mask is True, as a 1-D copy."""

    node_name = "MaskedSelectBackward0"
    saved_names = ("mask", "self")

    def forward(ctx, a, mask):
        xp = backend_of(a)
        shape = broadcast_shape(a.shape, mask.shape)
        m = xp.broadcast_to(mask, shape)
        ctx.save_for_backward(m, a)
        return xp.broadcast_to(a, shape)[m]

    def backward(ctx, grad):
        m, _ = ctx.saved_tensors
        out = backend_of(grad).zeros(m.shape, dtype=grad.dtype)
        out[m] = grad
        return (out,)           # the engine sums it back to the input's shape


def masked_select(input, mask):
    """The elements where ``mask`` (broadcast) is True, as a 1-D copy. Mirrors ``torch.masked_select``.

    Raises:
        RuntimeError: a mask that is not bool; shapes that do not broadcast.
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("masked_select", input)
    if not isinstance(mask, Tensor):
        raise tensor_expected("masked_select", mask, "mask")
    D.check_devices("masked_select", (("self", input), ("mask", mask)))
    if mask._data.dtype.kind != "b":
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    if input._data.shape != mask._data.shape:
        broadcast_shape(mask._data.shape, input._data.shape)     # PyTorch names the mask tensor a
    return D.record(MaskedSelect, (input,), (input._data,), {"mask": mask._data})


class Gather(Op):
    node_name = "GatherBackward0"
    saved_names = ("index", "self")

    def forward(ctx, a, index, axis):
        ctx.save_for_backward(index, a)
        ctx.shape, ctx.axis = a.shape, axis
        if index.shape != a.shape:      # an index smaller than a in the other dims reads only its corner
            a = a[tuple(slice(None) if k == axis else slice(0, n) for k, n in enumerate(index.shape))]
        return backend_of(a).take_along_axis(a, index, axis=axis)

    def backward(ctx, grad):
        index, _ = ctx.saved_tensors
        xp = backend_of(grad)
        out = xp.zeros(ctx.shape, dtype=grad.dtype)
        idx = [xp.arange(n).reshape([-1 if k == i else 1 for k in range(grad.ndim)])
               for i, n in enumerate(index.shape)]
        idx[ctx.axis] = index
        xp.add.at(out, tuple(idx), grad)     # repeated indices add up
        return (out,)


def gather(input, dim=_NOT_GIVEN, index=_NOT_GIVEN, *, axis=_NOT_GIVEN):
    """``out[i][j] = input[index[i][j]][j]`` for dim 0 (and likewise for other dims; ``axis=`` is ``dim=``).
    Mirrors ``torch.gather``."""
    if not isinstance(input, Tensor):
        raise tensor_expected("gather", input)
    if axis is not _NOT_GIVEN:
        dim = _axis_for_dim("gather", dim, axis)
    if not (isinstance(index, Tensor) and isinstance(dim, int)):
        dim, index = parse("gather", _GATHER, _given(dim, index))[0]
    D.check_devices("gather", (("self", input), ("index", index)))
    x, ix = input._data, index._data
    d = wrap_dim(dim, x.ndim)
    _check_gather_index(x, ix, d)
    if x.ndim == 0 or ix.ndim == 0:             # 0-d tensors count as 1-d, as in PyTorch
        out = gather(input.reshape(-1), 0, index.reshape(-1))
        return out.reshape(index.shape)
    return D.record(Gather, (input,), (x,), {"index": ix, "axis": d})


def _check_gather_index(x, ix, d):
    """PyTorch's checks of a gather index: dtype, number of dims, sizes, bounds (its messages)."""
    if ix.dtype not in (np.int64, np.int32):
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    if max(ix.ndim, 1) != max(x.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for k in range(ix.ndim):
        if k != d and ix.shape[k] > x.shape[k]:
            raise RuntimeError(f"Size does not match at dimension {k} expected index [{', '.join(map(str, ix.shape))}]"
                               f" to be no larger than self [{', '.join(map(str, x.shape))}] apart from dimension {d}")
    if ix.size:
        n = x.shape[d] if x.ndim else 1
        bad = (ix < 0) | (ix >= n)
        if bad.any():
            value = int(ix.reshape(-1)[int(bad.reshape(-1).argmax())])
            raise RuntimeError(f"index {value} is out of bounds for dimension {d} with size {n}")


def nonzero(input, *, as_tuple=False):
    """Indices of the non-zero elements: an ``(n, ndim)`` int64 tensor. Mirrors ``torch.nonzero``."""
    if not isinstance(input, Tensor):
        raise tensor_expected("nonzero", input)
    x = input._data
    xp = backend_of(x)
    if x.ndim == 0:                      # as_tuple: one index per element as if 1-d; else an (n, 0) tensor
        n = int(bool(x))
        if as_tuple:
            return (D.wrap(xp.zeros(n, dtype=np.int64)),)
        return D.wrap(xp.zeros((n, 0), dtype=np.int64))
    idx = xp.nonzero(x)
    if as_tuple:
        return tuple(D.wrap(i.astype(np.int64)) for i in idx)
    return D.wrap(xp.stack(idx, axis=1).astype(np.int64))



class Take(Op):
    node_name = "TakeBackward0"
    saved_names = ("index", "self")

    def forward(ctx, a, index):
        ctx.save_for_backward(index, a)
        ctx.shape = a.shape
        return a.reshape(-1)[index]

    def backward(ctx, grad):
        index, _ = ctx.saved_tensors
        xp = backend_of(grad)
        out = xp.zeros(max(1, int(np.prod(ctx.shape))), dtype=grad.dtype)
        xp.add.at(out, index, grad)          # repeated indices add up
        return (out.reshape(ctx.shape),)


def take(input, index):
    """The elements of the flattened ``input`` at ``index`` (an int64 tensor of any shape, negative
    indices count from the end); the result has ``index``'s shape. Mirrors ``torch.take``.

    Raises:
        RuntimeError: a non-int64 index. IndexError: an index out of range (PyTorch's messages).
    """
    idx = index._data
    if idx.dtype != np.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{_dtype._BY_NUMPY[idx.dtype]._short_name}")
    n = input._data.size
    bad = idx[(idx >= n) | (idx < -n)]
    if bad.size:
        raise IndexError(f"out of range: tried to access index {int(bad.reshape(-1)[0])} on a tensor of {n} "
                         "elements.")
    return D.record(Take, (input,), (input._data,), {"index": idx % max(n, 1)})


# ---------------------------------------------------------------------------
# scatter, scatter_add, index_add, index_fill (and their in-place forms)
# ---------------------------------------------------------------------------

def _scatter_key(index, axis):
    """The fancy index that sends element ``[i][j][k]`` of ``index`` to ``[i][index[i][j][k]][k]`` (dim 1)."""
    xp = backend_of(index)
    key = [xp.arange(n).reshape([-1 if k == i else 1 for k in range(index.ndim)]) for i, n in enumerate(index.shape)]
    key[axis] = index
    return tuple(key)


def _corner(src, shape):
    """The part of ``src`` that an index of ``shape`` reads (index may be smaller than src)."""
    return src[tuple(slice(0, n) for n in shape)] if src.shape != shape else src


class Scatter(Op):
    node_name = "ScatterBackward0"
    saved_names = ("index",)

    def forward(ctx, a, src, index, axis):
        ctx.save_for_backward(index)
        ctx.axis, ctx.src_shape = axis, src.shape
        out = a.copy()
        if index.ndim:
            out[_scatter_key(index, axis)] = _corner(src, index.shape)
        else:
            out[...] = src
        return out

    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        key = _scatter_key(index, ctx.axis)
        g_self = grad.copy()
        g_self[key] = 0
        return g_self, _zero_pad(grad[key], ctx.src_shape) if ctx.needs_input_grad[1] else None


def _zero_pad(g, shape):
    """``g`` (of the index's shape) inside zeros of ``shape`` (src may be larger than the index)."""
    if g.shape == tuple(shape):
        return g
    out = backend_of(g).zeros(shape, dtype=g.dtype)
    out[tuple(slice(0, n) for n in g.shape)] = g
    return out


class ScatterValue(Op):
    node_name = "ScatterBackward1"
    saved_names = ("index",)

    def forward(ctx, a, index, axis, value):
        ctx.save_for_backward(index)
        ctx.axis = axis
        out = a.copy()
        out[_scatter_key(index, axis) if index.ndim else ...] = value
        return out

    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        g = grad.copy()
        g[_scatter_key(index, ctx.axis) if index.ndim else ...] = 0
        return (g,)


class ScatterAdd(Op):
    node_name = "ScatterAddBackward0"
    saved_names = ("index",)

    def forward(ctx, a, src, index, axis):
        ctx.save_for_backward(index)
        ctx.axis, ctx.src_shape = axis, src.shape
        out = a.copy()
        if index.ndim:
            backend_of(a).add.at(out, _scatter_key(index, axis), _corner(src, index.shape))
        else:
            out += src
        return out

    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        g_src = _zero_pad(grad[_scatter_key(index, ctx.axis)], ctx.src_shape) if ctx.needs_input_grad[1] else None
        return grad, g_src


def _scatter_checks(name, x, axis, index, src):
    """PyTorch's checks of scatter's index (and src) against self."""
    idx = index._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if src is not None and src._data.dtype != x.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if idx.ndim != x.ndim and idx.size:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if src is not None and idx.ndim != src._data.ndim and idx.size:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if idx.ndim and any(n > x.shape[k] for k, n in enumerate(idx.shape) if k != axis) or \
            src is not None and idx.ndim and any(n > m for n, m in zip(idx.shape, src._data.shape)):
        shown = ", ".join(map(str, idx.shape))
        text = (f"Expected index [{shown}] to be no larger than self [{', '.join(map(str, x.shape))}] apart from "
                f"dimension {axis}")
        if src is not None:
            text += f" and to be no larger size than src [{', '.join(map(str, src._data.shape))}]"
        raise RuntimeError(text)
    size = x.shape[axis] if x.ndim else 1
    bad = idx[(idx >= size) | (idx < 0)]
    if bad.size:
        raise RuntimeError(f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension {axis} with size {size}")
    return idx.astype(np.int64, copy=False)


_SCATTER = (Signature("(int dim, Tensor index, Tensor src)"),
            Signature("(int dim, Tensor index, Tensor src, *, str reduce)"),
            Signature("(int dim, Tensor index, Number value)"),
            Signature("(int dim, Tensor index, Number value, *, str reduce)"))


def _scatter(name, input, dim, index, src, value, reduce, in_place):
    if src is None and value is None or not isinstance(index, Tensor):
        raise invalid_arguments(name, _SCATTER, _given(dim, index), {})
    if isinstance(src, Tensor):
        value = None
    elif src is not None:
        src, value = None, src
    x = input._data
    axis = wrap_dim(dim, x.ndim)
    idx = _scatter_checks(name, x, axis, index, src)
    if reduce is not None:
        return _scatter_reduce(name, input, axis, idx, src, value, reduce, in_place)
    if src is not None:
        y = src._data
        return _apply(Scatter, in_place, input, (input, src), (x, y), {"index": idx, "axis": axis})
    value = D.make_scalar(value, x.dtype)
    return _apply(ScatterValue, in_place, input, (input,), (x,), {"index": idx, "axis": axis, "value": value})


_REDUCE_WARNED = []


def _scatter_reduce(name, input, axis, idx, src, value, reduce, in_place):
    """``reduce='add'`` or ``'multiply'``: values only (PyTorch's node for it is NotImplemented).

    With a tensor ``src``, PyTorch's deprecation warning, once per process (its TORCH_WARN_ONCE).
    """
    if src is not None and not _REDUCE_WARNED:
        _REDUCE_WARNED.append(True)
        warnings.warn("The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a "
                      "future PyTorch release. Use torch.scatter_reduce instead for more reduction options. "
                      "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing"
                      ".cpp:225.)", UserWarning, stacklevel=4)
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    x = input._data
    out = x.copy()
    vals = _corner(src._data, idx.shape) if src is not None else D.make_scalar(value, x.dtype)
    ufunc = backend_of(x).add if reduce == "add" else backend_of(x).multiply
    ufunc.at(out, _scatter_key(idx, axis), vals)
    if in_place:
        x[...] = out
        input._bump()
        return input
    return D.wrap(out)


def _apply(op, in_place, t, sources, xs, params):
    """Run ``op`` out of place (a new tensor) or in place (written into ``t``, which it returns)."""
    rec = D.recording(*sources)
    if not in_place:
        return D.record(op, sources, xs, params)
    D.check_inplace(t, rec, overlap=False)
    if rec:
        return D.inplace_record(op, t, sources, xs, params)
    t._data[...] = op.forward(NO_CONTEXT, *xs, **params)
    t._bump()
    return t


def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    """A copy of ``input`` with ``src[i][j]`` (or the number ``value``) written at ``[index[i][j]][j]``
    (dim 0; likewise for other dims). The inverse of ``gather``. Mirrors ``torch.scatter``.

    ``index`` (int64 or int32) has ``input``'s number of dims and may be smaller than it (and ``src``)
    outside ``dim``.  ``reduce='add'``/``'multiply'`` combine instead of writing (values only: no grad).

    Raises:
        RuntimeError: a float index, ``src`` of another dtype, an index too large or out of bounds
            (PyTorch's messages). IndexError: ``dim`` out of range.
    """
    return _scatter("scatter", input, dim, index, src, value, reduce, False)


def scatter_(input, dim, index, src=None, value=None, *, reduce=None):
    """In-place ``scatter``: writes into ``input``, bumps its version. Mirrors ``Tensor.scatter_``."""
    return _scatter("scatter_", input, dim, index, src, value, reduce, True)


def _scatter_add(name, input, dim, index, src, in_place):
    if not isinstance(src, Tensor):
        raise TypeError(f"{name}(): argument 'src' (position 3) must be Tensor, not {type_name(src)}")
    x = input._data
    axis = wrap_dim(dim, x.ndim)
    idx = _scatter_checks(name, x, axis, index, src)
    return _apply(ScatterAdd, in_place, input, (input, src), (x, src._data), {"index": idx, "axis": axis})


def scatter_add(input, dim, index, src):
    """``scatter`` that adds: repeated indices sum up (a histogram: ``zeros(n).scatter_add(0, labels,
    ones)``). Mirrors ``torch.scatter_add``.

    Raises:
        as ``scatter``; TypeError: ``src`` not a tensor.
    """
    return _scatter_add("scatter_add", input, dim, index, src, False)


def scatter_add_(input, dim, index, src):
    """In-place ``scatter_add``. Mirrors ``Tensor.scatter_add_``."""
    return _scatter_add("scatter_add_", input, dim, index, src, True)


class IndexAdd(Op):
    node_name = "IndexAddBackward0"
    saved_names = ("index", "source")

    def forward(ctx, a, source, index, axis, alpha):
        ctx.save_for_backward(index, source)
        ctx.axis, ctx.alpha = axis, alpha
        out = a.copy()
        src = source * alpha if alpha != 1 else source
        backend_of(a).add.at(out, (slice(None),) * axis + (index,), src)
        return out

    def backward(ctx, grad):
        index, _ = ctx.saved_tensors
        g = backend_of(grad).take(grad, index, axis=ctx.axis)
        return grad, g * ctx.alpha if ctx.alpha != 1 else g


def _index_add(name, input, dim, index, source, alpha, in_place):
    if not isinstance(source, Tensor):
        raise TypeError(f"{name.rstrip('_')}(): argument 'source' (position 3) must be Tensor, not "
                        f"{type_name(source)}")
    x, y, idx = input._data, source._data, index._data
    axis = wrap_dim(dim, x.ndim)
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: "
                           f"{_dtype._BY_NUMPY[idx.dtype]._short_name}")
    if idx.ndim > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {idx.ndim} with type: "
                         f"{_dtype._BY_NUMPY[idx.dtype]._short_name} and size: [{', '.join(map(str, idx.shape))}]")
    idx = idx.reshape(-1)
    n_src = y.shape[axis] if y.ndim else 1
    if idx.shape[0] != n_src:
        raise RuntimeError(f"index_add_(): Number of indices ({idx.shape[0]}) should be equal to source.size(dim): "
                           f"({n_src}), for dim: {axis}")
    if y.dtype != x.dtype:
        raise RuntimeError(f"index_add_(): self ({_dtype._BY_NUMPY[x.dtype]._short_name}) and source "
                           f"({_dtype._BY_NUMPY[y.dtype]._short_name}) must have the same scalar type")
    if x.shape[:axis] + x.shape[axis + 1:] != y.shape[:axis] + y.shape[axis + 1:]:
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = [{', '.join(map(str, x.shape))}] source.shape = "
                           f"[{', '.join(map(str, y.shape))}]")
    size = x.shape[axis]
    bad = idx[(idx >= size) | (idx < 0)]
    if bad.size:
        raise RuntimeError(f"index {int(bad[0])} is out of bounds for dimension {axis} with size {size}")
    return _apply(IndexAdd, in_place, input, (input, source), (x, y),
                  {"index": idx.astype(np.int64, copy=False), "axis": axis, "alpha": D.make_scalar(alpha, x.dtype)})


def index_add(input, dim, index, source, *, alpha=1):
    """A copy of ``input`` with ``alpha * source`` added to the slices ``index`` along ``dim``
    (``out[index[i]] += alpha * source[i]`` for dim 0; repeated indices add up). Mirrors ``torch.index_add``.

    Raises:
        RuntimeError: a float index, a wrong number of indices, source of another dtype or shape, an
            index out of bounds. IndexError: a 2-d index, ``dim`` out of range (PyTorch's messages).
    """
    return _index_add("index_add", input, dim, index, source, alpha, False)


def index_add_(input, dim, index, source, *, alpha=1):
    """In-place ``index_add``. Mirrors ``Tensor.index_add_``."""
    return _index_add("index_add_", input, dim, index, source, alpha, True)


class IndexFill(Op):
    node_name = "IndexFillBackward0"
    saved_names = ("index",)

    def forward(ctx, a, index, axis, value):
        ctx.save_for_backward(index)
        ctx.axis = axis
        out = a.copy()
        out[(slice(None),) * axis + (index,)] = value
        return out

    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        g = grad.copy()
        g[(slice(None),) * ctx.axis + (index,)] = 0
        return (g,)


class IndexFillTensor(IndexFill):
    """``index_fill`` with a 0-d tensor value: the value gets the sum of the filled places' gradients."""

    node_name = "IndexFillBackward1"

    def forward(ctx, a, value, index, axis):
        return IndexFill.forward(ctx, a, index, axis, value.astype(a.dtype))

    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        g = grad.copy()
        key = (slice(None),) * ctx.axis + (index,)
        g[key] = 0
        return g, backend_of(grad).asarray(grad[key].sum()) if ctx.needs_input_grad[1] else None


def _index_fill(name, input, dim, index, value, in_place):
    x, idx = input._data, index._data
    axis = wrap_dim(dim, x.ndim)
    if idx.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if idx.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    idx = idx.reshape(-1)
    size = x.shape[axis] if x.ndim else 1
    bad = idx[(idx >= size) | (idx < -size)]
    if bad.size:
        raise IndexError(f"index {int(bad[0])} is out of bounds for dimension {axis} with size {size}")
    idx = idx % max(size, 1)
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._data.ndim} dimension(s).")
        return _apply(IndexFillTensor, in_place, input, (input, value), (x, value._data), {"index": idx, "axis": axis})
    return _apply(IndexFill, in_place, input, (input,), (x,),
                  {"index": idx, "axis": axis, "value": D.make_scalar(value, x.dtype)})


def index_fill(input, dim, index, value):
    """A copy of ``input`` with the slices ``index`` along ``dim`` set to ``value`` (a number or a 0-d
    tensor). Mirrors ``torch.index_fill``.

    Raises:
        IndexError: a non-int64 index, an index out of bounds. RuntimeError: a 2-d index, a value tensor
            with dims (PyTorch's messages).
    """
    return _index_fill("index_fill", input, dim, index, value, False)


def index_fill_(input, dim, index, value):
    """In-place ``index_fill``. Mirrors ``Tensor.index_fill_``."""
    return _index_fill("index_fill_", input, dim, index, value, True)


# ---------------------------------------------------------------------------
# repeat_interleave (an index_select when the repeats are a tensor)
# ---------------------------------------------------------------------------

def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Repeat each element (or each slice along ``dim``) ``repeats`` times, next to each other:
    ``[1, 2]`` with 2 gives ``[1, 1, 2, 2]`` (``repeat`` would give ``[1, 2, 1, 2]``). Mirrors
    ``torch.repeat_interleave``.

    ``repeats`` is an int (the graph is PyTorch's: unsqueeze, expand, clone, view) or an integer tensor
    of one count per slice (an ``index_select``).  Without ``dim`` the input is flattened first.
    ``torch.repeat_interleave(counts)`` alone gives ``arange(len(counts))`` repeated by ``counts``.
    ``output_size`` is accepted and not needed.

    Raises:
        RuntimeError: negative repeats, a repeats tensor of more than 1 dim or of the wrong length,
            a float repeats tensor (PyTorch's messages). IndexError: ``dim`` out of range.
    """
    if repeats is None:                                     # torch.repeat_interleave(counts)
        counts = input._data
        if counts.ndim != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        return _repeats_index(input, counts.shape[0])
    if dim is None:
        input, dim = V.flatten(input), 0
    x = input._data
    d = wrap_dim(dim, x.ndim)
    if not isinstance(repeats, Tensor):
        if repeats < 0:
            raise RuntimeError("Repeats must be non-negative")
        if x.ndim == 0:
            input, x = V.unsqueeze(input, 0), x.reshape(1)
        big = list(x.shape)
        big.insert(d + 1, repeats)
        out_shape = list(x.shape)
        out_shape[d] *= repeats
        copy = V.clone(V._expand(V.unsqueeze(input, d + 1), tuple(big)), memory_format=V.contiguous_format)
        return V.view(copy, out_shape)
    r = repeats._data
    if r.ndim > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    size = x.shape[d] if x.ndim else 1
    if r.ndim == 0 or r.shape[0] == 1:
        repeats = repeats.reshape(1).expand(size)
    elif r.shape[0] != size:
        raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                           f"{r.shape[0]} and input.size(0) = {size}")
    return index_select(input, d, _repeats_index(repeats, size))


def _repeats_index(counts, n):
    """``arange(n)`` with element i repeated ``counts[i]`` times, as an int64 tensor."""
    c = counts._data
    if c.dtype.kind not in "iu":
        name = _dtype._BY_NUMPY[c.dtype]._short_name
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{name}'")
    if (c < 0).any():
        raise RuntimeError("repeats can not be negative")
    xp = backend_of(c)
    return wrap(xp.repeat(xp.arange(n, dtype=np.int64), c))
