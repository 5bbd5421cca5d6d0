"""PyTorch's legacy constructors: ``torch.Tensor(...)``, ``torch.FloatTensor(...)`` and friends.

``torch.Tensor(2, 3)`` is an uninitialised float32 tensor of that shape, ``torch.Tensor([1, 2])`` a
float32 copy of the data, ``torch.Tensor(float_tensor)`` the same memory (and ``torch.Tensor(int_tensor)``
stays int64, as in PyTorch).  ``torch.FloatTensor`` and the other typed constructors build tensors of
their dtype, and ``isinstance(t, torch.FloatTensor)`` checks dtype and device.
"""

import importlib
import sys
import warnings

import numpy as np

from .core.backend import device_of
from .core.tensor import Tensor, wrap
from .devices import resolve
from .ops.creation import _data_to_array, _finish, _is_sequence, as_tensor
from .torch_compat import dtypes as _dtype
from .torch_compat.arguments import Signature, int_list, invalid_arguments
from .torch_compat.device import device as _device
from .torch_compat.names import type_name
from .torch_compat.size import Size

__all__ = ["legacy_new", "legacy_types", "FloatTensor", "DoubleTensor", "HalfTensor", "IntTensor", "LongTensor",
           "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor", "set_default_tensor_type"]

_LEGACY = (Signature("(*, torch.device device = None)"), Signature("(torch.Storage storage)"),
           Signature("(Tensor other)"), Signature("(tuple of ints size, *, torch.device device = None)"),
           Signature("(object data, *, torch.device device = None)"))


def _options_name(dt):
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int", "int16": "short int",
            "int8": "signed char", "uint8": "unsigned char", "bool": "bool", "float16": "c10::Half"}[dt.name]


def legacy_new(dt, args, kwargs, cls=Tensor, device_type="cpu"):
    """PyTorch's legacy constructor ``torch.Tensor(*args)`` (and the typed ``torch.FloatTensor`` ...).

    * ``Tensor()``: an empty tensor; ``Tensor(2, 3)`` or ``Tensor(torch.Size([2, 3]))``:
      uninitialised, of that shape;
    * ``Tensor([1, 2])``, ``Tensor((1, 2))``: a copy of the data, of dtype ``dt``; ``Tensor(ndarray)``
      shares the array's memory when its dtype is ``dt``;
    * ``Tensor(t)``: ``t`` itself viewed anew (shares memory), if its dtype is ``dt``... or any dtype
      for ``torch.Tensor`` (it keeps int64 tensors int64, as PyTorch does).

    ``device=`` is accepted, but only a device of the constructor's own type (``device_type``: "cpu" for
    ``torch.Tensor`` and ``torch.FloatTensor``, "cuda" for ``torch.cuda.FloatTensor``).

    Raises:
        TypeError: other arguments (PyTorch's messages), a typed constructor given a tensor of another dtype.
        RuntimeError: ``Tensor(t, device=...)``, a negative size, a device of another type ("legacy
            constructor expects device type: cpu but device type: cuda was passed").
    """
    device = kwargs.get("device")
    if set(kwargs) - {"device"}:
        raise invalid_arguments("new", _LEGACY, args, kwargs)
    if not args:
        _check_device(device, device_type)
        return _finish(np.zeros(0, dtype=dt.numpy_dtype), device, False)
    a = args[0]
    if len(args) == 1 and isinstance(a, Tensor):
        if kwargs:
            raise RuntimeError("Legacy tensor constructor of the form torch.Tensor(tensor, device=device) is not "
                               "supported.  Use torch.tensor(...) or torch.as_tensor(...) instead.")
        if cls is not Tensor and a.dtype is not dt:
            raise TypeError(f"expected TensorOptions(dtype={_options_name(dt)}, device=cpu, layout=Strided, "
                            "requires_grad=false (default), pinned_memory=false (default), "
                            "memory_format=(nullopt)) (got TensorOptions(dtype="
                            f"{_options_name(a.dtype)}, device=cpu, layout=Strided, requires_grad=false "
                            "(default), pinned_memory=false (default), memory_format=(nullopt)))")
        t = wrap(a._data)
        t._storage, t._version_ref = a._storage, a._version_counter()
        return t
    _check_device(device, device_type)
    if len(args) > 1 and not isinstance(a, (int, np.integer, Tensor)):     # Tensor([1, 2], [3]): no overload
        raise invalid_arguments("new", _LEGACY, args, kwargs)
    if isinstance(a, Size) or len(args) > 1 or isinstance(a, (int, np.integer)) and not isinstance(a, bool):
        shape = int_list("new", "size", args)
        for n in shape:
            if n < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                                   f"[{', '.join(map(str, shape))}]")
        return _finish(np.empty(shape, dtype=dt.numpy_dtype), device, False)
    if not _is_sequence(a):
        raise TypeError(f"new(): data must be a sequence (got {type_name(a)})")
    if isinstance(a, np.ndarray):
        if a.dtype == dt.numpy_dtype and resolve(device).type == "cpu":
            return as_tensor(a)
        if a.dtype.name not in _dtype._TORCH_ONLY:      # uint16 ... PyTorch converts: so does course_lib
            _dtype.from_numpy_dtype(a.dtype)            # PyTorch's errors: byte order, strings, objects
        elif a.dtype.kind == "c":
            warnings.warn("Casting complex values to real discards the imaginary part (Triggered internally at "
                          "/__w/pytorch/pytorch/aten/src/ATen/native/Copy.cpp:307.)", UserWarning, stacklevel=3)
            a = a.real
    array, _ = _data_to_array(a, dt)
    return _finish(array, device, False)


def _check_device(device, device_type):
    """A legacy constructor makes tensors of one device type only; ``device=`` may name that type alone."""
    if device is not None:
        wanted = device if device.__class__ is _device else _device(device)
        if wanted.type != device_type:
            raise RuntimeError(f"legacy constructor expects device type: {device_type} but device type: "
                               f"{wanted.type} was passed")


class _LegacyTensorType(type):
    """Metaclass of ``torch.FloatTensor`` and friends: calling one builds a tensor of its dtype, and
    ``isinstance(t, torch.FloatTensor)`` checks the dtype and the device type (``_device_type``: "cpu" here,
    "cuda" for ``torch.cuda.FloatTensor``, see ``cuda.py``)."""

    def __call__(cls, *args, **kwargs):
        return legacy_new(cls._dtype_of_type, args, kwargs, cls)

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj._data.dtype == cls._dtype_of_type.numpy_dtype \
            and device_of(obj._data).type == cls._device_type

    def __repr__(cls):
        return f"<class '{cls.__module__}.{cls.__name__}'>"

    @property
    def dtype(cls):
        return cls._dtype_of_type


_LegacyTensorType.__module__, _LegacyTensorType.__qualname__ = "course_lib", "tensortype"   # PyTorch's torch.tensortype

LEGACY_DTYPES = {"FloatTensor": _dtype.float32, "DoubleTensor": _dtype.float64, "HalfTensor": _dtype.float16,
                 "IntTensor": _dtype.int32, "LongTensor": _dtype.int64, "ShortTensor": _dtype.int16,
                 "CharTensor": _dtype.int8, "ByteTensor": _dtype.uint8, "BoolTensor": _dtype.bool}


def legacy_types(metaclass=_LegacyTensorType, module="course_lib", device_type="cpu"):
    """The nine legacy tensor types (``FloatTensor`` ... ``BoolTensor``) of ``module``, by name."""
    return {name: metaclass(name, (), {"_dtype_of_type": dt, "_device_type": device_type, "__module__": module,
                                       "__doc__": f"Legacy constructor for {dt!r} {device_type.upper()} "
                                                  f"tensors (``{_torch_path(module)}.{name}``)."})
            for name, dt in LEGACY_DTYPES.items()}


def _torch_path(module):
    """PyTorch's name of a course_lib module (``course_lib.cuda`` is ``torch.cuda``), for messages."""
    return "torch" + module[len("course_lib"):]


_TYPES = legacy_types()
FloatTensor, DoubleTensor, HalfTensor = _TYPES["FloatTensor"], _TYPES["DoubleTensor"], _TYPES["HalfTensor"]
IntTensor, LongTensor, ShortTensor = _TYPES["IntTensor"], _TYPES["LongTensor"], _TYPES["ShortTensor"]
CharTensor, ByteTensor, BoolTensor = _TYPES["CharTensor"], _TYPES["ByteTensor"], _TYPES["BoolTensor"]


def _new(cls, *args, **kwargs):
    """``torch.Tensor(...)``: PyTorch's legacy constructor, in the default dtype."""
    return legacy_new(_dtype.get_default_dtype(), args, kwargs, cls)


Tensor.__new__ = _new


_DEPRECATION_SHOWN = []


def set_default_tensor_type(t, /):
    """Make the floating legacy type ``t`` (``torch.DoubleTensor``, or its name ``'torch.DoubleTensor'``) the
    default: its dtype becomes the default dtype. Deprecated in PyTorch (use ``set_default_dtype``), with its
    warning, once per process. Mirrors ``torch.set_default_tensor_type``.

    Raises:
        TypeError: not a legacy type, or not a floating one; a CUDA type without CUDA (PyTorch's messages).
        ModuleNotFoundError, AttributeError: a name that names nothing.
    """
    if isinstance(t, str):
        t = _dotted_name(t)
    if not _DEPRECATION_SHOWN:
        _DEPRECATION_SHOWN.append(True)
        warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                      "torch.set_default_dtype() and torch.set_default_device() as alternatives. (Triggered internally "
                      "at /__w/pytorch/pytorch/torch/csrc/tensor/python_tensor.cpp:434.)", UserWarning, stacklevel=2)
    if not isinstance(t, _LegacyTensorType):
        raise TypeError("invalid type object: only floating-point types are supported as the default type")
    if t._device_type != "cpu" and not sys.modules[__package__].cuda.is_available():
        raise TypeError(f"type {_torch_path(t.__module__)}.{t.__name__} not available. Torch not compiled with CUDA "
                        "enabled.")
    _dtype.set_default_dtype(t._dtype_of_type)


def _dotted_name(name):
    """The object ``'torch.cuda.FloatTensor'`` names (``torch`` is course_lib), as PyTorch's _import_dotted_name."""
    first, *rest = name.split(".")
    obj = sys.modules[__package__] if first == "torch" else importlib.import_module(first)
    for part in rest:
        obj = getattr(obj, part)
    return obj
