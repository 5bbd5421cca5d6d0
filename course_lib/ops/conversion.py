"""``Tensor.to``: changing dtype and/or device.

A conversion that changes nothing returns the tensor itself; otherwise the
result is a copy that stays in the autograd graph (``ToCopyBackward0``),
whose backward converts the gradient back.
"""

import numpy as np

from .. import _dtype
from .._device import device as Device
from .._device import device_of, module_for, resolve
from .._tensor import Tensor
from ..autograd.function import Op
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
    with np.errstate(invalid="ignore", over="ignore"):
        return a.astype(np_dtype)      # always a new array (also for to(..., copy=True))


def _parse(args, kwargs):
    dtype = kwargs.pop("dtype", None)
    dev = kwargs.pop("device", None)
    copy = kwargs.pop("copy", False)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments - got unexpected keyword "
                        f"'{next(iter(kwargs))}'")
    for a in args:
        if isinstance(a, _dtype.dtype):
            dtype = a
        elif isinstance(a, (str, Device, int)) and not isinstance(a, bool):
            dev = a
        elif isinstance(a, Tensor):
            dtype, dev = a.dtype, a.device
        elif isinstance(a, bool):
            pass        # non_blocking / copy given positionally
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got ({type(a).__name__})")
    return dtype, dev, copy


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
