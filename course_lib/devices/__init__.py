"""The devices course_lib can put tensors on: the CPU (NumPy), and CUDA (CuPy, or the simulated device).

The core keeps a registry of array libraries (``course_lib/core/backend.py``); this module fills it:
NumPy arrays live on ``device('cpu')``; CuPy is imported the first time someone asks for CUDA, and
registered when it finds a GPU.  Without one, ``torch.cuda.is_available()`` is False and asking for
``'cuda'`` raises the error a CPU-only build of PyTorch raises.  ``course_lib.cuda.simulate()``
registers the simulated device (``devices/simulated.py``) instead.
"""

import numpy as np

from ..core import backend
from ..torch_compat.device import CPU, CUDA0, AcceleratorError, device, unsupported

__all__ = ["register_cuda_backend", "cuda_backend", "cuda_backend_state", "restore_cuda_backend", "forget_cuda",
           "require_cuda",
           "resolve", "module_for", "set_default_device", "get_default_device"]

backend.register(np.ndarray, np, CPU, "cpu")
_cuda = {"checked": False, "error": None}   # CuPy looked for yet? why it could not be used (no CuPy, no GPU)


def _load_cupy(device_type):
    """core.backend's probe: the first time CUDA is asked for, import CuPy and register it if it finds a GPU."""
    if device_type != "cuda" or _cuda["checked"]:
        return
    _cuda["checked"] = True
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no CUDA device")
    except Exception as e:  # ImportError, CUDA driver errors, ...
        _cuda["error"] = e
    else:
        register_cuda_backend(cupy, cupy.ndarray)


backend.probe = _load_cupy


def register_cuda_backend(module, array_type):
    """Make ``module`` (an array library with CuPy's API) the CUDA backend: new CUDA tensors are its arrays,
    and tensors on arrays of ``array_type`` report ``device(type='cuda', index=0)``.

    ``register_cuda_backend(None, None)`` switches CUDA off (``is_available()`` becomes False).
    """
    _cuda["checked"] = True
    if module is None:
        backend.libraries.pop("cuda", None)
        return
    backend.register(array_type, module, CUDA0, "cuda")


def cuda_backend():
    """The CUDA array library (CuPy, or the simulated device), importing CuPy once; None if there is none."""
    return backend.module_for("cuda")


def cuda_backend_state():
    """The backends now registered, as a value :func:`restore_cuda_backend` puts back."""
    return dict(backend.libraries), dict(_cuda)


def restore_cuda_backend(state):
    """Put back the backends saved by :func:`cuda_backend_state` (undoes ``register_cuda_backend``)."""
    libraries, cuda = state
    backend.libraries.clear()
    backend.libraries.update(libraries)          # (arrays registered meanwhile keep working)
    _cuda.update(cuda)


def forget_cuda():
    """As if CUDA had never been asked for: the next question imports CuPy again (for tests)."""
    backend.libraries.pop("cuda", None)
    _cuda.update(checked=False, error=None)


def require_cuda():
    """The CUDA array library, or the error a CPU-only PyTorch raises.

    Raises:
        AssertionError: "Torch not compiled with CUDA enabled" (no CuPy).
        RuntimeError: CuPy is there but no GPU or driver is.
    """
    xp = cuda_backend()
    if xp is None:
        err = _cuda["error"]
        if isinstance(err, ImportError) or err is None:
            raise AssertionError("Torch not compiled with CUDA enabled")
        raise RuntimeError(
            "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU "
            "and installed a driver from http://www.nvidia.com/Download/index.aspx")
    return xp


_DEFAULT_DEVICE = [None]     # the device set by torch.set_default_device (None: the CPU)


def set_default_device(dev):
    """Make ``dev`` the device of new tensors made without ``device=`` (``None``: the CPU again). Mirrors
    ``torch.set_default_device``: ``'cuda'`` is accepted here, and the next factory call fails without CUDA.

    Raises:
        RuntimeError: a bad device string (PyTorch's message), or an index without any accelerator.
    """
    if dev is None:
        _DEFAULT_DEVICE[0] = None
        return
    if isinstance(dev, int) and not isinstance(dev, bool) and cuda_backend() is None:
        raise RuntimeError("Cannot access accelerator device when none is available.")
    _DEFAULT_DEVICE[0] = device(dev)


def get_default_device():
    """The device new tensors go to (``device(type='cpu')`` unless ``set_default_device`` changed it). Mirrors
    ``torch.get_default_device``."""
    dev = _DEFAULT_DEVICE[0]
    return CPU if dev is None else resolve(dev)


def resolve(dev):
    """Turn ``None``, a string, an int or a :class:`device` into a concrete device.

    ``'cuda'`` becomes ``cuda:0`` (course_lib uses one GPU).

    Raises:
        AssertionError: ``'cuda'`` without CuPy, as a CPU-only PyTorch does.
        AcceleratorError: ``'cuda:1'`` and up ("invalid device ordinal"), as PyTorch on one GPU.
        RuntimeError: an unknown device, or a device type course_lib lacks (PyTorch's CPU build's message).
    """
    if dev is None:
        dev = _DEFAULT_DEVICE[0]             # torch.set_default_device
        if dev is None:
            return CPU
    if dev.__class__ is not device:
        dev = device(dev)
    if dev.type == "cpu":
        return CPU
    if dev.type == "cuda":
        require_cuda()
        if dev.index not in (None, 0):
            raise AcceleratorError(
                "CUDA error: invalid device ordinal\nGPU device may be out of range, do you have enough GPUs?\n"
                "CUDA kernel errors might be asynchronously reported at some other API call, so the "
                "stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
                "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n")
        return CUDA0
    raise unsupported(dev.type)


def module_for(dev):
    """The array module for a resolved device."""
    return np if dev.type == "cpu" else require_cuda()
