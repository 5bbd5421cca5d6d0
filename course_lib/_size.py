"""``torch.Size``: the shape of a tensor, a tuple that prints as PyTorch prints it."""

import math

__all__ = ["Size"]


class Size(tuple):
    """A tensor's shape: a tuple of ints printed as ``torch.Size([2, 3])``.

    Behaves like a tuple (indexing, ``==`` with tuples, unpacking).
    ``numel()`` is the product of the sizes.  Mirrors ``torch.Size``.
    """

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size([{', '.join(map(str, self))}])"

    __str__ = __repr__

    def numel(self):
        """Number of elements of a tensor of this shape."""
        return math.prod(self)

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))

    def __reduce__(self):
        return (Size, (tuple(self),))
