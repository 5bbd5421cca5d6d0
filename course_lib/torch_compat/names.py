"""Names of types as PyTorch's messages show them.

PyTorch's C types name themselves ``torch.Size``, ``torch.dtype``, ``torch.device`` in Python's own
messages (``'torch.Size' object does not support item assignment``, ``'torch.dtype' object is not
callable``), while their ``__name__`` is the short one.  A Python class has one name for both, so
:class:`CTypeName` keeps the short ``__name__`` and :func:`set_c_name` gives the interpreter (its
``tp_name``) the long one.  :func:`type_name` names an argument's type as PyTorch's argument errors do.
"""

import sys
import types

from ..core.tensor import Tensor

__all__ = ["CTypeName", "set_c_name", "type_name", "public_module"]

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
    module = t.__module__
    if module == "course_lib" or module.startswith("course_lib."):      # PyTorch's messages name its own types
        module = "torch" + module[len("course_lib"):]
    return f"{module}.{t.__qualname__}"


def public_module(name, *classes):
    """Make ``classes`` print under module ``name`` (``course_lib.nn.modules.linear``): the module course_lib's rule
    for class paths gives them (``course_lib.`` and the rest of PyTorch's path), where course_lib keeps them in
    another file.  ``name`` becomes an importable module holding them (so that pickle finds them); the modules
    above it are made too where they do not exist.  Returns the module."""
    module = sys.modules.get(name)
    if module is None:
        module = sys.modules[name] = types.ModuleType(name, f"PyTorch's module {'torch' + name[10:]}: course_lib's "
                                                             "classes that PyTorch keeps there.")
        parent, _, child = name.rpartition(".")
        setattr(sys.modules.get(parent) or public_module(parent), child, module)
    for cls in classes:
        cls.__module__ = name
        setattr(module, cls.__qualname__, cls)
    return module
