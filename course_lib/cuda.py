"""``torch.cuda``: is a GPU there, and how many.

course_lib runs tensors on an NVIDIA GPU through CuPy.  Without CuPy or
without a GPU, ``is_available()`` is False and every other function raises
the error a CPU-only PyTorch raises.
"""

from . import _device

__all__ = ["is_available", "device_count", "current_device", "synchronize", "get_device_name",
           "manual_seed", "manual_seed_all", "memory_allocated", "empty_cache"]


def is_available():
    """True if a CUDA GPU can be used (CuPy is installed and sees a device). Mirrors ``torch.cuda.is_available``."""
    return _device.cuda_backend() is not None


def device_count():
    """Number of usable GPUs (course_lib uses one; 0 without CUDA). Mirrors ``torch.cuda.device_count``."""
    return 1 if is_available() else 0


def current_device():
    """Index of the current GPU (always 0).

    Raises:
        AssertionError: without CUDA.
    """
    _device.require_cuda()
    return 0


def synchronize(device=None):
    """Wait until all queued GPU work has finished (needed before timing GPU code). Mirrors
    ``torch.cuda.synchronize``.

    Raises:
        AssertionError: without CUDA.
    """
    xp = _device.require_cuda()
    xp.cuda.Device().synchronize()


def get_device_name(device=None):
    """The GPU's name, e.g. ``'NVIDIA H200'``. Mirrors ``torch.cuda.get_device_name``.

    Raises:
        AssertionError: without CUDA.
    """
    xp = _device.require_cuda()
    props = xp.cuda.runtime.getDeviceProperties(0)
    name = props["name"]
    return name.decode() if isinstance(name, bytes) else name


def memory_allocated(device=None):
    """Bytes of GPU memory held by tensors (CuPy's memory pool)."""
    xp = _device.require_cuda()
    return xp.get_default_memory_pool().used_bytes()


def empty_cache():
    """Return cached, unused GPU memory to the driver."""
    xp = _device.cuda_backend()
    if xp is not None:
        xp.get_default_memory_pool().free_all_blocks()


def manual_seed(seed):
    """Seeding is shared with the CPU generator in course_lib (CUDA random tensors are drawn on the CPU)."""
    from ._random import manual_seed as seed_all
    seed_all(seed)


manual_seed_all = manual_seed
