"""``torch.Size``: the shape of a tensor, a tuple that prints as PyTorch prints it."""

import math
import operator

from .names import CTypeName, set_c_name

__all__ = ["Size"]


class Size(tuple, metaclass=CTypeName):
    """A tensor's shape: a tuple of ints printed as ``torch.Size([2, 3])``.

    Behaves like a tuple (indexing, ``==`` with tuples, unpacking); slicing,
    ``+`` and ``*`` give a ``Size`` again.  ``numel()`` is the product of
    the sizes.  Mirrors ``torch.Size``.

    Raises:
        TypeError: an item that is not an integer ("torch.Size() takes an
            iterable of 'int' (item 0 is 'float')").
    """

    __slots__ = ()
    __module__ = "course_lib"                # type(x.shape) prints <class 'course_lib.Size'> (README: class names)

    def __new__(cls, sizes=()):
        items = tuple(sizes)
        for i, s in enumerate(items):
            if s.__class__ is not int:
                try:
                    items = items[:i] + (operator.index(s),) + items[i + 1:]
                except TypeError:
                    raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is "
                                    f"'{type(s).__name__}')") from None
        return tuple.__new__(cls, items)

    def __repr__(self):
        return f"torch.Size([{', '.join(map(str, self))}])"

    def __getattr__(self, name):             # only for attributes it does not have: PyTorch's message
        raise AttributeError(f"'torch.Size' object has no attribute '{name}'")

    def __reduce__(self):                    # pickle cannot find a class it knows as torch.Size
        return (_unpickle, (tuple(self),))

    __str__ = __repr__

    def numel(self):
        """Number of elements of a tensor of this shape."""
        return math.prod(self)

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to torch.Size")
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(other + tuple(self))

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__


set_c_name(Size, "torch.Size")       # 'torch.Size' object does not support item assignment


def _unpickle(items):
    return Size(items)
