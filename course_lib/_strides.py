"""Strides: how PyTorch lays a tensor's elements out in memory.

A tensor is a block of memory (its *storage*) read through a shape, a
*stride* per dimension (how many elements to skip to move one step along
it) and a *storage offset* (where the first element is).  A new
``(2, 3)`` tensor has strides ``(3, 1)``; its transpose ``(1, 3)``.

course_lib keeps one backend array per tensor, and the array's own byte
strides are the tensor's strides.  The rules here are PyTorch's, for the
places where NumPy would choose differently:

* ``contiguous_strides``: the strides of a new tensor (sizes of 0 count as 1);
* ``element_strides``: an array's strides in elements (NumPy gives every
  empty array strides of 0; PyTorch keeps real ones);
* ``dense_strides``: the layout a copy keeps (``clone``, ``*_like``, ``to``):
  the same strides when the tensor has no gaps and no overlaps, otherwise
  the same *order* of dimensions without the gaps; ``iterator_strides``:
  the layout of a result computed from several inputs;
* ``strided``: a view of an array with given sizes, strides and offset;
  ``empty_strided`` allocates one.
"""

import functools

import numpy as np

from ._device import backend_of

__all__ = ["contiguous_strides", "element_strides", "is_non_overlapping_and_dense", "dense_strides",
           "iterator_strides", "strided", "empty_strided", "empty_preserving", "address", "partial_overlap",
           "check_no_partial_overlap"]


def contiguous_strides(shape):
    """Row-major strides (in elements) PyTorch gives a new tensor of ``shape``: ``(2, 3, 4)`` -> ``(12, 4, 1)``."""
    strides, acc = [], 1
    for size in reversed(shape):
        strides.append(acc)
        acc *= max(size, 1)
    return tuple(reversed(strides))


def element_strides(array):
    """The strides of a backend array in elements, as PyTorch reports them.

    NumPy sets every stride of a new empty array to 0; such an array is a
    new (contiguous) tensor for PyTorch.  Views of empty tensors are built
    with explicit strides (see ``strided``), which NumPy keeps, zeros
    included (``torch.tensor(1.).expand(0)`` has stride 0).
    """
    strides = array.strides
    if array.size == 0 and not any(strides) and array.base is None:
        return contiguous_strides(array.shape)
    item = array.itemsize
    return tuple(s // item for s in strides)


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


class _ArrayInterface:
    """Something NumPy can view: a data pointer plus geometry, keeping the array it points into alive."""

    __slots__ = ("__array_interface__", "base")

    def __init__(self, interface, base):
        self.__array_interface__ = interface
        self.base = base


def strided(x, shape, strides, offset=0):
    """A view of backend array ``x``'s memory with ``shape``, ``strides`` (in elements) and its first element
    ``offset`` elements after ``x``'s.

    This is ``torch.as_strided`` on arrays.  The caller guarantees that the
    view stays inside the memory ``x`` belongs to; ``offset`` is only used
    for views with no elements (NumPy and CuPy slice those at the start).
    """
    shape, item = tuple(shape), x.itemsize
    byte_strides = tuple(s * item for s in strides)
    if not offset and x.shape == shape and x.strides == byte_strides:
        return x
    if x.__class__ is not np.ndarray:
        # CuPy; only an empty view has an offset here, and there it is not worth a raw pointer
        return backend_of(x).lib.stride_tricks.as_strided(x, shape, byte_strides)
    interface = x.__array_interface__
    return np.asarray(_ArrayInterface({
        "version": 3, "typestr": interface["typestr"], "shape": shape, "strides": byte_strides,
        "data": (interface["data"][0] + offset * item, not x.flags.writeable)}, x))


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


def address(array):
    """The address of an array's first element (NumPy or CuPy)."""
    if array.__class__ is np.ndarray:
        return array.__array_interface__["data"][0]
    return backend_of(array).asarray(array).data.ptr


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
