"""``torch.accelerator``: the one accelerator a build has (for course_lib: CUDA, when available).

Mirrors the device-generic API of PyTorch: ``is_available()``, ``current_accelerator()`` (a
``torch.device`` such as ``device(type='cuda')``, or None) and ``device_count()``.
"""

from . import cuda as _cuda
from .torch_compat.device import device as _device_cls

__all__ = ["is_available", "current_accelerator", "device_count"]


def is_available():
    """True if an accelerator (a CUDA GPU, real or simulated) can be used.

    Mirrors ``torch.accelerator.is_available``."""
    return _cuda.is_available()


def current_accelerator(check_available=False):
    """``device(type='cuda')`` when a GPU is there, else None. Mirrors ``torch.accelerator.current_accelerator``."""
    return _device_cls("cuda") if _cuda.is_available() else None


def device_count():
    """How many accelerator devices can be used (0 or 1). Mirrors ``torch.accelerator.device_count``."""
    return _cuda.device_count()
