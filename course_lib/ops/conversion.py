"""``Tensor.to``: changing dtype and/or device.

A conversion that changes nothing returns the tensor itself; otherwise the
result is a copy that stays in the autograd graph (``ToCopyBackward0``),
whose backward converts the gradient back.
"""

import numpy as np

from ..core.backend import device_of
from ..core.graph import Op
from ..core.tensor import Tensor
from ..devices import module_for, resolve
from ..torch_compat import dtypes as _dtype
from ..torch_compat.arguments import Signature, invalid_arguments
from ..torch_compat.device import device as Device
from ..torch_compat.layouts import empty_preserving
from . import _dispatch as D

__all__ = ["to"]


class ToCopy(Op):
    node_name = "ToCopyBackward0"

    def forward(ctx, a, np_dtype, dev):
        ctx.src = (a.dtype, device_of(a))
        return _convert(a, np_dtype, dev)

    def backward(ctx, grad):
        dtype, dev = ctx.src
        return (_convert(grad, dtype, dev),)


def _convert(a, np_dtype, dev):
    if device_of(a) != dev:
        if dev.type == "cpu":
            a = a.get()
        else:
            a = module_for(dev).asarray(a)
        if a.dtype == np_dtype:
            return a
    out = empty_preserving(a, np_dtype)      # always a new array (also for to(..., copy=True)), laid out like a
    with np.errstate(invalid="ignore", over="ignore"):
        out[...] = a
    return out


_TO = None


def _signatures():
    global _TO
    if _TO is None:
        rest = "bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None"
        _TO = (Signature(f"(torch.device device = None, torch.dtype dtype = None, {rest})"),
               Signature(f"(torch.dtype dtype, {rest})"), Signature(f"(Tensor tensor, {rest})"))
    return _TO


def _is_dtype(a):
    return isinstance(a, _dtype.dtype) or a in (float, int, bool)


def _is_device(a):
    return isinstance(a, (str, Device)) or isinstance(a, int) and not isinstance(a, bool)


def _parse(args, kwargs):
    """``(dtype, device, copy)`` from ``to``'s arguments, matched against PyTorch's three signatures.

    Raises:
        TypeError: arguments that fit none of them (PyTorch's message).
    """
    names = ("non_blocking", "copy")
    first = args[:1]
    if first and _is_dtype(first[0]) and "dtype" not in kwargs and "device" not in kwargs:
        dtype, dev, flags = first[0], None, args[1:]
    elif first and isinstance(first[0], Tensor) and "dtype" not in kwargs and "device" not in kwargs:
        dtype, dev, flags = first[0].dtype, first[0].device, args[1:]
    else:
        positional = args[:2]
        dev = positional[0] if positional else kwargs.get("device")
        dtype = positional[1] if len(positional) > 1 else kwargs.get("dtype")
        flags = args[2:]
        if not (dev is None or _is_device(dev)) or not (dtype is None or _is_dtype(dtype)):
            dtype = _BAD
    extra = set(kwargs) - {"dtype", "device", "memory_format", *names}
    if dtype is _BAD or len(flags) > 2 or extra or not all(isinstance(f, bool) for f in flags):
        raise invalid_arguments("to", _signatures(), args, kwargs)
    copy = kwargs.get("copy", flags[1] if len(flags) > 1 else False)
    return _dtype.as_dtype(dtype, "to"), dev, copy


_BAD = object()


def to(self, *args, **kwargs):
    """Convert ``self`` to another dtype and/or device (see ``Tensor.to``).

    Raises:
        AssertionError: a CUDA device without CUDA, as a CPU-only PyTorch does.
        TypeError: arguments that are neither a dtype, a device nor a tensor.
    """
    dtype, dev, copy = _parse(args, dict(kwargs))
    x = self._data
    target_dtype = x.dtype if dtype is None else dtype.numpy_dtype
    target_dev = device_of(x) if dev is None else resolve(dev)
    if target_dtype == x.dtype and target_dev == device_of(x) and not copy:
        return self
    return D.record(ToCopy, (self,), (x,), {"np_dtype": target_dtype, "dev": target_dev})
