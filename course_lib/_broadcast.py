"""Broadcasting: the shape rule shared by every element-wise operation.

Two shapes are compared from the right.  In each position the sizes must be
equal, or one of them must be 1 (it is stretched), or missing (the shorter
shape is padded with 1s on the left).  The result takes the larger size in
each position.  ``(3, 1)`` and ``(4,)`` give ``(3, 4)``; ``(3,)`` and
``(4,)`` cannot broadcast.

``sum_to`` is the same rule run backwards: the gradient of a broadcast
input is the output gradient summed over the positions that were
stretched, added in PyTorch's order (``_sum_order``) so that gradients match
PyTorch's bits.
"""

from collections.abc import Sequence

import numpy as np

from ._sum_order import total

__all__ = ["broadcast_shape", "broadcast_shapes_of", "sum_to"]


def broadcast_shape(a, b):
    """The broadcast shape of two shapes (tuples) of a binary operation.

    Raises:
        RuntimeError: "The size of tensor a (3) must match the size of tensor
            b (4) at non-singleton dimension 0", as PyTorch says.
    """
    if a == b:
        return a
    na, nb = len(a), len(b)
    n = na if na > nb else nb
    out = [0] * n
    for i in range(n - 1, -1, -1):          # right to left: the rightmost mismatch is the one reported
        da = a[i - n + na] if i - n + na >= 0 else 1
        db = b[i - n + nb] if i - n + nb >= 0 else 1
        if da == db or db == 1:
            out[i] = da
        elif da == 1:
            out[i] = db
        else:
            raise RuntimeError(f"The size of tensor a ({da}) must match the size of tensor b ({db}) "
                               f"at non-singleton dimension {i}")
    return tuple(out)


def broadcast_shapes_of(shapes):
    """The broadcast shape (a list) of any number of shapes, as ``torch.broadcast_shapes`` computes it.

    An int stands for a 1-d shape and None is skipped.

    Raises:
        RuntimeError: PyTorch's "Attempting to broadcast a dimension of
            length ... Mismatching argument at index ..." message, or a shape
            that is not a sequence of ints.
        ValueError: a negative size.
    """
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for shape in shapes:
        if not isinstance(shape, Sequence):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {shape}")
    result = [1] * max((len(s) for s in shapes), default=0)
    for index, shape in enumerate(shapes):
        for i in range(-1, -len(shape) - 1, -1):
            size = shape[i]
            if size == result[i]:
                continue
            if result[i] == 1:
                if size < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                result[i] = size
            if size != 1 and size != result[i]:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {size} at {i}! Mismatching argument at "
                    f"index {index} had {shape}; but expected shape should be broadcastable to {result}")
    return result


def sum_to(array, shape):
    """Sum ``array`` over broadcast positions so that it has ``shape``.

    ``shape`` must be one that broadcasts to ``array.shape``.

    Raises:
        ValueError: when it does not.
    """
    if array.shape == shape:
        return array
    lead = array.ndim - len(shape)
    if lead < 0:
        raise ValueError("cannot sum to a shape with more dimensions")
    axes = list(range(lead))
    for i, size in enumerate(shape):
        have = array.shape[lead + i]
        if size == 1 and have != 1:
            axes.append(lead + i)
        elif size != have:
            raise ValueError("shape is not broadcastable to the array's shape")
    if axes:
        axes = tuple(axes)
        array = total(array, axes, True) if array.__class__ is np.ndarray else array.sum(axis=axes, keepdims=True)
    return array.reshape(shape)
