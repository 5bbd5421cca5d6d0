"""Memory layout: strides, the view rule, broadcasting, and summing a gradient back to a shape.

A tensor reads a block of memory (its *storage*) through a shape, one *stride* per dimension (how
many elements to skip to move one step along it) and a *storage offset* (where its first element
is).  A new ``(2, 3)`` tensor has strides ``(3, 1)``; its transpose has ``(1, 3)``, on the same
memory.  NumPy describes an array the same way (in bytes), so course_lib keeps each tensor as one
NumPy array over the storage and reads the tensor's strides off it (``element_strides``);
``strided`` makes the array for given sizes, strides and offset.

In PyTorch: ``c10/core/TensorImpl.h`` (sizes, strides, storage_offset), ``aten/src/ATen/TensorUtils.cpp``
(``computeStride``: the view rule), ``aten/src/ATen/ExpandUtils.h`` (broadcasting, ``inferExpandGeometry``)
and ``torch/csrc/autograd/input_metadata.cpp`` (a gradient summed back to its input's shape).
"""

import math

import numpy as np

from . import hooks
from .backend import address, backend_of

__all__ = ["contiguous_strides", "element_strides", "strided", "view_strides", "infer_size", "expand_strides",
           "broadcast_shape", "sum_to", "view_positions"]


def contiguous_strides(shape):
    """Row-major strides (in elements) of a new tensor: ``(2, 3, 4)`` -> ``(12, 4, 1)``; sizes 0 count as 1."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def element_strides(array):
    """The strides of a backend array in elements, as PyTorch reports them.

    NumPy gives a new empty array strides of 0; for PyTorch it is a new, contiguous tensor.
    """
    if array.size == 0 and array.base is None and not any(array.strides):
        return contiguous_strides(array.shape)
    return tuple(s // array.itemsize for s in array.strides)


class _Memory:
    """What NumPy needs to make an array over existing memory (and a reference that keeps it alive)."""

    __slots__ = ("__array_interface__", "base")

    def __init__(self, interface, base):
        self.__array_interface__ = interface
        self.base = base


def strided(x, shape, strides, offset=0):
    """An array over ``x``'s memory with ``shape``, ``strides`` (in elements) and its first element
    ``offset`` elements after ``x``'s: ``torch.as_strided`` on arrays.  The caller keeps it inside the
    memory ``x`` belongs to."""
    shape, item = tuple(shape), x.itemsize
    byte_strides = tuple(s * item for s in strides)
    if not offset and x.shape == shape and x.strides == byte_strides:
        return x
    if x.__class__ is not np.ndarray:           # CuPy: only an empty view has an offset, and it is unused
        return backend_of(x).lib.stride_tricks.as_strided(x, shape, byte_strides)
    interface = x.__array_interface__
    return np.asarray(_Memory({"version": 3, "typestr": interface["typestr"], "shape": shape,
                               "strides": byte_strides,
                               "data": (interface["data"][0] + offset * item, not x.flags.writeable)}, x))


def view_strides(old_shape, old_strides, new_shape):
    """Strides that show a tensor of ``old_shape``/``old_strides`` as ``new_shape``, or None if none exist.

    The new shape may only split or merge dimensions that lie one after another in memory: walking
    from the last dimension, each "chunk" of memory-adjacent dimensions must be rebuilt exactly by
    new dimensions.  So a transposed tensor can still be viewed when the dimensions merged happen to
    be adjacent to each other.
    """
    if not old_shape:
        return (1,) * len(new_shape)
    if math.prod(old_shape) == 0:
        return tuple(old_strides) if tuple(old_shape) == tuple(new_shape) else contiguous_strides(new_shape)
    new_strides, d = [0] * len(new_shape), len(new_shape) - 1
    for start, stop in _chunks(old_shape, old_strides):
        chunk_size, base_stride, got = math.prod(old_shape[start:stop]), old_strides[stop - 1], 1
        while d >= 0 and (got < chunk_size or new_shape[d] == 1):
            new_strides[d] = got * base_stride
            got *= new_shape[d]
            d -= 1
        if got != chunk_size:
            return None
    return tuple(new_strides) if d == -1 else None


def _chunks(shape, strides):
    """The runs ``(start, stop)`` of dimensions whose elements are laid out one after another, last run first."""
    stop, size = len(shape), 1
    for d in range(len(shape) - 1, -1, -1):
        size *= shape[d]
        if d == 0 or shape[d - 1] != 1 and strides[d - 1] != size * strides[stop - 1]:
            yield d, stop
            stop, size = d, 1


def infer_size(shape, numel):
    """``shape`` with its one ``-1`` filled in so that it holds ``numel`` elements.

    Raises:
        RuntimeError: two ``-1``, a negative size, or a shape that cannot hold ``numel`` elements.
    """
    infer = None
    for i, s in enumerate(shape):
        if s == -1 and infer is not None:
            raise RuntimeError("only one dimension can be inferred")
        if s == -1:
            infer = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape [{', '.join(map(str, shape))}]")
    known = math.prod(s for s in shape if s != -1)
    if infer is None and known == numel:
        return tuple(shape)
    if infer is not None and known == 0 and numel == 0:
        raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                           "unspecified dimension size -1 can be any value and is ambiguous")
    if infer is not None and known and numel % known == 0:
        return tuple(numel // known if s == -1 else s for s in shape)
    raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")


def expand_strides(shape, strides, sizes):
    """Strides for expanding a tensor of ``shape``/``strides`` to ``sizes`` (checked, no -1).

    A stretched dimension (size 1 to n) gets stride 0, and so does a new leading one, unless its size
    is 1: then it gets the stride a contiguous tensor would have there.
    """
    if not shape:                            # a 0-d tensor expands with strides 0 everywhere
        return (0,) * len(sizes)
    out, lead = [0] * len(sizes), len(sizes) - len(shape)
    for i in range(len(sizes) - 1, -1, -1):
        if i >= lead:
            size, stride = shape[i - lead], strides[i - lead]
        else:
            size, stride = 1, sizes[i + 1] * out[i + 1]
        out[i] = stride if size == sizes[i] else 0
    return tuple(out)


def broadcast_shape(a, b):
    """The shape of an element-wise result of operands shaped ``a`` and ``b``.

    Shapes are compared from the right; in each position the sizes must be equal or one of them 1
    (or missing: the shorter shape is padded with 1s on the left).  ``(3, 1)`` and ``(4,)`` give
    ``(3, 4)``.

    Raises:
        RuntimeError: PyTorch's "The size of tensor a (3) must match the size of tensor b (4) at
            non-singleton dimension 0".
    """
    if a == b:
        return a
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    for i in range(n - 1, -1, -1):
        if a[i] != b[i] and a[i] != 1 and b[i] != 1:
            raise RuntimeError(f"The size of tensor a ({a[i]}) must match the size of tensor b ({b[i]}) "
                               f"at non-singleton dimension {i}")
    return tuple(y if x == 1 else x for x, y in zip(a, b))


def sum_to(array, shape):
    """``array`` summed over the positions where ``shape`` was broadcast to ``array.shape``.

    This is broadcasting run backwards: the gradient of a stretched input is the sum of the
    gradients of all the positions it was stretched to.

    Raises:
        ValueError: ``shape`` does not broadcast to ``array.shape``.
    """
    lead = array.ndim - len(shape)
    if lead < 0 or any(s != 1 and s != n for s, n in zip(shape, array.shape[lead:])):
        raise ValueError(f"shape {shape} does not broadcast to {array.shape}")
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and array.shape[lead + i] != 1)
    if axes:
        array = hooks.total(array, axes)
    return array.reshape(shape)


def view_positions(base, view):
    """For each element of array ``view``, the index of the same memory in array ``base`` read in
    row-major order; -1 where ``view`` reaches memory ``base`` does not show."""
    xp, origin, item = backend_of(base), address(base), base.itemsize
    base_pos = _positions(base, origin, item).reshape(-1)
    view_pos = _positions(view, origin, item)
    size = int(max(base_pos.max() if base_pos.size else 0, view_pos.max() if view_pos.size else 0)) + 1
    inverse = xp.full(size, -1, dtype=np.int64)
    inverse[base_pos] = xp.arange(base_pos.size)
    return inverse[view_pos]


def _positions(array, origin, itemsize):
    """Element offsets of ``array``'s elements from the address ``origin``."""
    xp = backend_of(array)
    pos = xp.asarray((address(array) - origin) // itemsize)
    for n, s in zip(array.shape, array.strides):
        pos = pos[..., None] + xp.arange(n) * (s // itemsize)
    return pos
