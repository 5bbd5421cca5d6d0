"""``torch.device``: PyTorch's device objects, their parser and their messages.

A tensor's device is read off the type of its array (``course_lib/core/backend.py``); the objects
that name devices, ``device('cpu')`` and ``device('cuda', 0)``, are these.  Which devices exist is
``course_lib/devices``'s business.
"""

import re

import numpy as np

from ..core import backend
from .names import CTypeName, set_c_name

__all__ = ["device", "AcceleratorError", "CPU", "CUDA0", "unsupported"]

_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                 "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                 "privateuseone")


_TYPE_CODES = {"cpu": 0, "cuda": 1, "mkldnn": 2, "opengl": 3, "opencl": 4, "ideep": 5, "hip": 6, "fpga": 7,
               "maia": 8, "xla": 9, "vulkan": 10, "xpu": 12, "mps": 13, "meta": 14, "hpu": 15, "ve": 16,
               "lazy": 17, "ipu": 18, "mtia": 19, "privateuseone": 20}      # c10::DeviceType, used by hash()
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::([1-9][0-9]*|0))?\Z")         # c10::Device's parser
_NO_INDEX = object()


class device(metaclass=CTypeName):
    """Where a tensor's memory lives: ``device('cpu')`` or ``device('cuda', 0)``.

    Mirrors ``torch.device``: accepts ``'cpu'``, ``'cuda'``, ``'cuda:1'``,
    ``('cuda', 1)``, another device, or a bare index (``device(0)``, the
    accelerator, i.e. CUDA).  ``type`` is the kind of device and ``index`` its
    number (None when not given).  Like PyTorch, a device equals only another
    device (``x.device == 'cpu'`` is False: compare ``x.device.type``), and
    ``device('cpu') != device('cpu', 0)``.

    Raises:
        RuntimeError: an invalid or unknown device string, a negative index, or
            a bare index with no GPU, with PyTorch's messages.
        TypeError: arguments of the wrong type, with PyTorch's messages.
    """

    __slots__ = ("type", "index")
    __module__ = "course_lib"                # type(t.device) prints <class 'course_lib.device'>, like dtype and Size

    def __init__(self, *args, **kwargs):
        if kwargs or len(args) != 1 or args[0].__class__ is not str:
            args = _device_arguments(args, kwargs)
            if args[0].__class__ is device:
                self.type, self.index = args[0].type, args[0].index
                return
        text = args[0]
        index = args[1] if len(args) > 1 else None
        match = _DEVICE_STRING.match(text)
        if match is None:
            raise RuntimeError("Device string must not be empty" if not text else
                               f"Invalid device string: '{text}'")
        name, idx = match.groups()
        if name not in _TYPE_CODES:
            raise RuntimeError(
                "Expected one of " + ", ".join(_DEVICE_TYPES) +
                f" device type at start of device string: {text}")
        if idx is not None:
            if len(args) > 1:
                raise RuntimeError("type (string) must not include an index because index was passed "
                                   f"explicitly: {text}")
            index = int(idx)
            if index > 2**31 - 1:
                raise RuntimeError(f"Could not parse device index '{idx}' in device string '{text}'")
        self.type = name
        self.index = index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if other.__class__ is not device:    # never equal to a str: x.device == 'cpu' is False, as in PyTorch
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __ne__(self, other):
        if other.__class__ is not device:
            return NotImplemented
        return self.type != other.type or self.index != other.index

    def __hash__(self):                      # PyTorch's value: type code and the index as one byte
        return _TYPE_CODES[self.type] << 16 | (-1 if self.index is None else self.index) & 0xFF

    def _order(self, other):
        if other.__class__ is not device:
            return NotImplemented
        raise TypeError("comparison not implemented")

    __lt__ = __le__ = __gt__ = __ge__ = _order

    def __reduce__(self):                    # pickle cannot find a class it knows as torch.device
        return (_unpickle_device, (self.type, self.index))

    def __enter__(self):  # torch.device works as a context manager; course_lib ignores it
        return self

    def __exit__(self, *exc):
        return False


set_c_name(device, "torch.device")         # errors name it 'torch.device', as PyTorch's do


def _type_name(value):
    return "torch.device" if value.__class__ is device else type(value).__name__


def _invalid_device_arguments(args, kwargs, note=""):
    got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
    got = ", ".join(got) + (", " if kwargs else "")
    return TypeError(f"device() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     f" * (torch.device device)\n{note} * (str type, int index = -1)\n")


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _device_arguments(args, kwargs):
    """``device(...)``'s arguments other than one string, checked as PyTorch's parser does:
    ``(device,)``, ``(type,)`` or ``(type, index)``."""
    for key in kwargs:
        if key not in ("type", "index", "device"):
            raise TypeError(f"device() got an unexpected keyword argument '{key}'")
    if "device" in kwargs:
        if args or len(kwargs) > 1:
            raise _invalid_device_arguments(args, kwargs)
        args = (kwargs.pop("device"),)
    if len(args) == 1 and not kwargs:
        value = args[0]
        if value.__class__ is device or value.__class__ is str:
            return args
        if _is_int(value):                   # device(0): the accelerator's device 0
            if value < 0:
                raise RuntimeError("Device index must not be negative")
            if backend.module_for("cuda") is None:
                raise RuntimeError("Cannot access accelerator device when none is available.")
            return ("cuda", int(value))
        raise _invalid_device_arguments(args, kwargs, "      didn't match because some of the arguments have "
                                                      f"invalid types: (!{_type_name(value)}!)\n")
    if not 1 <= len(args) + len(kwargs) <= 2 or len(args) == 2 and kwargs or "index" in kwargs and \
            len(args) + ("type" in kwargs) != 1 or "type" in kwargs and args:
        note = ("      didn't match because some of the keywords were incorrect: " + ", ".join(kwargs) + "\n"
                if kwargs else "")
        raise _invalid_device_arguments(args, kwargs, note)
    kind = args[0] if args else kwargs["type"]
    if kind.__class__ is not str:
        if "type" in kwargs:
            raise _invalid_device_arguments(args, kwargs, "      didn't match because some of the keywords were "
                                                          "incorrect: type\n")
        raise TypeError(f"device(): argument 'type' (position 1) must be str, not {_type_name(kind)}")
    if len(args) + len(kwargs) == 1:
        return (kind,)
    index = args[1] if len(args) == 2 else kwargs["index"]
    if index is None:
        return (kind, None)
    if not _is_int(index):
        where = "" if "index" in kwargs else " (position 2)"
        raise TypeError(f"device(): argument 'index'{where} must be int, not {_type_name(index)}")
    if index < 0:
        raise RuntimeError("Device index must not be negative")
    return (kind, int(index))


def _unpickle_device(type, index):  # noqa: A002 - the attribute's name
    return device(type, index)


class AcceleratorError(RuntimeError):
    """An error reported by the GPU runtime, e.g. a device index that does not exist. Mirrors
    ``torch.AcceleratorError`` (a ``RuntimeError``)."""

    __module__ = "course_lib"


def unsupported(kind):
    """The error a CPU-only PyTorch raises for a device type it was not built with."""
    if kind == "xpu":
        return AssertionError("Torch not compiled with XPU enabled")
    if kind == "mtia":
        return AssertionError("Torch not compiled with MTIA enabled. Ensure you have `import "
                              "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and include "
                              "`//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!")
    if kind in ("hpu", "privateuseone"):
        return ModuleNotFoundError(f"No module named 'torch.{kind}'")
    if kind in ("meta", "lazy"):           # PyTorch has these; course_lib does not
        return RuntimeError(f"Could not run the operation on device '{kind}': course_lib supports 'cpu' and "
                            "'cuda' only")
    return RuntimeError(f"PyTorch is not linked with support for {kind} devices")


CPU = device("cpu")
CUDA0 = device("cuda", 0)
