"""Names of types as PyTorch's messages show them.

PyTorch's C types name themselves ``torch.Size``, ``torch.dtype``, ``torch.device`` in Python's own
messages (``'torch.Size' object does not support item assignment``, ``'torch.dtype' object is not
callable``), while their ``__name__`` is the short one.  A Python class has one name for both, so
:class:`CTypeName` keeps the short ``__name__`` and :func:`set_c_name` gives the interpreter (its
``tp_name``) the long one.  :func:`type_name` names an argument's type as PyTorch's argument errors do.
"""

from ..core.tensor import Tensor

__all__ = ["CTypeName", "set_c_name", "type_name"]

_TYPE_NAME = type.__dict__["__name__"]


class CTypeName(type):
    """Metaclass: ``cls.__name__`` is the short name (``'Size'``) whatever name the interpreter's messages use."""

    @property
    def __name__(cls):
        return cls.__qualname__


def set_c_name(cls, name):
    """Make the interpreter's messages call instances of ``cls`` ``name`` (e.g. ``'torch.Size'``)."""
    _TYPE_NAME.__set__(cls, name)
    return cls


def type_name(obj):
    """The name of ``obj``'s type as Python's C API prints it (``float``, ``numpy.ndarray``, ``Tensor``)."""
    t = type(obj)
    if t.__module__ == "builtins" or isinstance(obj, Tensor):
        return t.__name__
    return f"{t.__module__}.{t.__qualname__}"
