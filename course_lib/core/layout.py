"""Memory layout: strides, the view rule, expand, broadcasting, and summing a gradient back to a shape.

A tensor reads a block of memory through a shape, one stride per dimension (elements to skip to move
one step along it) and an offset.  Each tensor keeps one NumPy array over its memory, which describes
it the same way in bytes (``element_strides``, ``strided``).  See README.md (1).

In PyTorch: ``c10/core/TensorImpl.h``, ``aten/src/ATen/TensorUtils.cpp`` (``computeStride``) and
``aten/src/ATen/ExpandUtils.h``.
"""

import math
from types import SimpleNamespace

import numpy as np

from . import hooks
from .backend import address, backend_of

__all__ = ["contiguous_strides", "element_strides", "strided", "view_strides", "expand_strides",
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
    interface = x.__array_interface__        # NumPy's description of memory; ``base`` keeps x's memory alive
    return np.asarray(SimpleNamespace(base=x, __array_interface__={
        "version": 3, "typestr": interface["typestr"], "shape": shape, "strides": byte_strides,
        "data": (interface["data"][0] + offset * item, not x.flags.writeable)}))


def view_strides(old_shape, old_strides, new_shape):
    """Strides that show a tensor of ``old_shape``/``old_strides`` as ``new_shape``, or None if none exist.

    The new shape may only split or merge dimensions that lie one after another in memory: each
    "chunk" of memory-adjacent dimensions must be rebuilt exactly by new dimensions.  So a transposed
    tensor can still be viewed when the dimensions merged happen to be adjacent to each other.
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

    Shapes are compared from the right; in each position the sizes must be equal or one of them 1 (or
    missing: the shorter shape is padded with 1s on the left).  ``(3, 1)`` and ``(4,)`` give ``(3, 4)``.

    Raises:
        RuntimeError: PyTorch's "The size of tensor a (3) must match the size of tensor b (4) at
            non-singleton dimension 0".
    """
    if a == b:
        return a
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    out = [0] * n
    for i in range(n - 1, -1, -1):           # right to left: the rightmost mismatch is the one reported
        if a[i] != b[i] and a[i] != 1 and b[i] != 1:
            raise RuntimeError(f"The size of tensor a ({a[i]}) must match the size of tensor b ({b[i]}) "
                               f"at non-singleton dimension {i}")
        out[i] = b[i] if a[i] == 1 else a[i]
    return tuple(out)


def sum_to(array, shape):
    """``array`` summed over the positions where ``shape`` was broadcast to ``array.shape``: broadcasting run
    backwards (a stretched input's gradient is the sum over the positions it reached).

    Raises:
        ValueError: ``shape`` does not broadcast to ``array.shape``.
    """
    lead = array.ndim - len(shape)
    if lead < 0 or any(size not in (1, n) for size, n in zip(shape, array.shape[lead:])):
        raise ValueError(f"shape {shape} does not broadcast to {array.shape}")
    axes = [*range(lead)] + [lead + i for i, size in enumerate(shape) if size == 1 and array.shape[lead + i] != 1]
    if axes:
        array = hooks.total(array, tuple(axes), True)
    return array.reshape(shape)


def view_positions(base, view):
    """For each element of array ``view``, the index of the same memory in array ``base`` read in
    row-major order (-1 where ``base`` does not show it): how CopySlices and AsStrided find a view's
    elements in its base."""
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
