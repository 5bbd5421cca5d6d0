"""PyTorch's memory layouts for new results, where NumPy would choose differently.

The core reads a tensor's strides off its array (``course_lib/core/layout.py``).  When PyTorch
allocates a result, it picks strides by rules of its own, and these are they:

* ``dense_strides``: the layout a copy keeps (``clone``, ``*_like``, ``to``): the same strides when
  the tensor has no gaps and no overlaps, otherwise the same *order* of dimensions without the gaps;
* ``iterator_strides`` / ``elementwise_result``: the layout of an element-wise result, which follows
  its operands' memory order as PyTorch's TensorIterator does (``x.t() + 1`` is transposed too);
* ``empty_strided`` allocates an array with given strides;
* ``partial_overlap``: when writing one array into another would read elements already overwritten.
"""

import functools

import numpy as np

from ..core.backend import address, backend_of
from ..core.layout import contiguous_strides, element_strides, strided

__all__ = ["is_non_overlapping_and_dense", "dense_strides", "iterator_strides", "broadcast_strides",
           "elementwise_result", "empty_strided", "empty_preserving", "partial_overlap", "check_no_partial_overlap"]


def is_non_overlapping_and_dense(shape, strides):
    """True if the elements fill a block of memory exactly once, in some order of the dimensions.

    Mirrors ``Tensor.is_non_overlapping_and_dense`` (a C++ method in PyTorch), which holds for every
    contiguous tensor, so for every tensor without elements.
    """
    if 0 in shape:
        return True
    if len(shape) == 1:
        return shape[0] < 2 or strides[0] == 1
    expected = 1
    for d in sorted((d for d in range(len(shape)) if shape[d] > 1), key=lambda d: strides[d]):
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


def _memory_order(shape, operand_strides):
    """The dimensions ordered from fastest- to slowest-moving in memory, as PyTorch's TensorIterator orders them.

    Each operand (a tuple of strides, 0 where it is broadcast) may decide
    the order of two dimensions; the first one with an opinion wins, and
    where none has one (strides of 0) the order of a contiguous tensor stays.
    Equal strides put the smaller dimension first.
    """
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))        # contiguous: the last dimension moves fastest

    def should_swap(d0, d1):
        for strides in operand_strides:
            s0, s1 = strides[d0], strides[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    for i in range(1, ndim):                    # insertion sort that tolerates ambiguous pairs
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm


def _strides_in_order(shape, perm):
    out, acc = [0] * len(shape), 1
    for d in perm:
        out[d] = acc
        acc *= max(shape[d], 1)
    return tuple(out)


def dense_strides(shape, strides):
    """The strides of a copy that "preserves the memory format" of a tensor with ``strides``.

    A tensor without gaps or overlaps keeps its strides (so the copy of a
    transposed matrix is transposed too).  Otherwise the dimensions keep
    their order in memory and the gaps close; dimensions of stride 0
    (expanded) stay where a contiguous tensor has them.  This is PyTorch's
    ``infer_dense_strides``.
    """
    if is_non_overlapping_and_dense(shape, strides):
        return tuple(strides)
    return _strides_in_order(shape, _memory_order(shape, (strides,)))


def iterator_strides(shape, operand_strides):
    """The strides of the result PyTorch's TensorIterator allocates for operands with these strides.

    ``operand_strides`` holds one tuple per input, broadcast to ``shape``
    (stride 0 in broadcast dimensions).  The result follows the memory order
    of the inputs (``x.t() + 1`` is transposed too); the first input decides
    where they disagree.
    """
    return _strides_in_order(shape, _memory_order(shape, operand_strides))


def broadcast_strides(array, shape):
    """The element strides of ``array`` as an operand broadcast to ``shape``: 0 where it is stretched or added."""
    lead = len(shape) - array.ndim
    return (0,) * lead + tuple(0 if n == 1 and m != 1 else s
                               for n, s, m in zip(array.shape, element_strides(array), shape[lead:]))


@functools.lru_cache(maxsize=512)
def _row_major_bytes(shape, itemsize):
    """The byte strides of a new row-major array."""
    return np.empty(shape, dtype=f"V{itemsize}").strides


def elementwise_result(out, operands):
    """``out``, the result of an elementwise operation on arrays ``operands``, laid out as PyTorch's TensorIterator
    lays out its result (copied if NumPy laid it out otherwise).

    Row-major operands give a row-major result.  Otherwise operands of the
    result's shape that are all contiguous give a contiguous result, all
    with the same dense strides give those strides, and any other mix gives
    the memory order of ``iterator_strides`` (``x.t() + y`` is transposed
    like ``x.t()``; NumPy would keep the row-major order there).
    """
    for a in operands:                          # fast path: row-major operands (size-1 dimensions included)
        if a.ndim and not (a.flags.c_contiguous and (1 not in a.shape or
                                                     a.strides == _row_major_bytes(a.shape, a.itemsize))):
            break
    else:
        return out                              # NumPy's result is row-major too
    shape = out.shape
    same = all(a.shape == shape for a in operands)
    if same and all(a.flags.c_contiguous for a in operands):
        strides = contiguous_strides(shape)
    else:
        first = element_strides(operands[0])
        if same and is_non_overlapping_and_dense(shape, first) and all(element_strides(a) == first
                                                                        for a in operands[1:]):
            strides = first
        else:
            strides = iterator_strides(shape, [broadcast_strides(a, shape) for a in operands])
    if element_strides(out) == strides:
        return out
    result = empty_strided(backend_of(out), shape, strides, out.dtype)
    result[...] = out
    return result


def empty_strided(xp, shape, strides, dtype):
    """An uninitialised array of ``xp`` (NumPy or CuPy) with exactly these ``strides``.

    Mirrors ``torch.empty_strided``.
    """
    shape = tuple(shape)
    if tuple(strides) == contiguous_strides(shape):
        return xp.empty(shape, dtype=dtype)
    size = 1 + sum((n - 1) * s for n, s in zip(shape, strides)) if all(shape) else 0
    return strided(xp.empty(size, dtype=dtype), shape, strides)


def empty_preserving(x, dtype, xp=None):
    """An uninitialised array shaped like array ``x``, laid out as PyTorch's copies of ``x`` are (``dense_strides``).

    This is the memory layout of ``clone()``, ``to(dtype)`` and the
    ``*_like`` functions (``memory_format=torch.preserve_format``).
    """
    return empty_strided(xp or backend_of(x), x.shape, dense_strides(x.shape, element_strides(x)), dtype)


def partial_overlap(a, b):
    """True when arrays ``a`` and ``b`` share some memory without being the same elements in the same layout.

    Writing ``b`` into ``a`` element by element would then read elements
    already overwritten, so PyTorch refuses it ("some elements of the input
    tensor and the written-to tensor refer to a single memory location").
    Like PyTorch, only tensors without gaps or overlaps are checked.
    """
    if a is b or a.size == 0 or b.size == 0:
        return False
    if a.__class__ is np.ndarray and b.__class__ is np.ndarray and not np.may_share_memory(a, b):
        return False              # disjoint memory (NumPy compares the bounds: 0.2 us, the test below ~3 us)
    sa, sb = element_strides(a), element_strides(b)
    if not (is_non_overlapping_and_dense(a.shape, sa) and is_non_overlapping_and_dense(b.shape, sb)):
        return False
    a0, b0 = address(a), address(b)
    a1, b1 = a0 + a.nbytes, b0 + b.nbytes
    if a0 == b0 and a1 == b1:
        return sa != sb
    return a0 < b1 and b0 < a1


def check_no_partial_overlap(out, source):
    """Refuse to write ``source`` into ``out`` when they partly share memory (see ``partial_overlap``).

    Raises:
        RuntimeError: PyTorch's "unsupported operation: some elements of the input tensor and the
            written-to tensor refer to a single memory location" error.
    """
    if partial_overlap(out, source):
        raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to tensor "
                           "refer to a single memory location. Please clone() the tensor before performing the "
                           "operation.")
