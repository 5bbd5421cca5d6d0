"""Broadcasting: the shape rule shared by every element-wise operation.

Two shapes are compared from the right.  In each position the sizes must be
equal, or one of them must be 1 (it is stretched), or missing (the shorter
shape is padded with 1s on the left).  The result takes the larger size in
each position.  ``(3, 1)`` and ``(4,)`` give ``(3, 4)``; ``(3,)`` and
``(4,)`` cannot broadcast.

``sum_to`` is the same rule run backwards: the gradient of a broadcast
input is the output gradient summed over the positions that were
stretched.
"""

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
    out = []
    for i in range(n):
        da = a[i - n + na] if i - n + na >= 0 else 1
        db = b[i - n + nb] if i - n + nb >= 0 else 1
        if da == db or db == 1:
            out.append(da)
        elif da == 1:
            out.append(db)
        else:
            raise RuntimeError(f"The size of tensor a ({da}) must match the size of tensor b ({db}) "
                               f"at non-singleton dimension {i}")
    return tuple(out)


def broadcast_shapes_of(shapes):
    """The broadcast shape of any number of shapes, with ``torch.broadcast_shapes``' error.

    Raises:
        RuntimeError: PyTorch's "Attempting to broadcast a dimension of
            length ... Mismatching argument at index ..." message.
    """
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for index, shape in enumerate(shapes):
        for i in range(-1, -len(shape) - 1, -1):
            size = shape[i]
            if size < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {size}: {list(shape)}")
            if result[i] == 1 or result[i] == size:
                result[i] = size if size != 1 else result[i]
            elif size != 1:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {size} at {i}! Mismatching argument at "
                    f"index {index} had {tuple(shape)}; but expected shape should be broadcastable to "
                    f"{result}")
    return tuple(result)


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
        array = array.sum(axis=tuple(axes), keepdims=True)
    return array.reshape(shape)
