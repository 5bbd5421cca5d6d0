"""Devices and the array library ("backend") behind each one.

A course_lib tensor wraps one array of a backend library: a NumPy
``ndarray`` on the CPU, a CuPy ``ndarray`` on a CUDA GPU.  The device of a
tensor is read off the type of its array, so there is a single source of
truth.  CuPy is optional: without it (or without a GPU)
``torch.cuda.is_available()`` is False and asking for ``'cuda'`` raises the
same error as a CPU-only build of PyTorch.

In PyTorch this is the "dispatch key" of a tensor: CPU and CUDA kernels are
chosen by the device, just as here the backend module is.
"""

import numpy as np

__all__ = ["device", "AcceleratorError"]

_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                 "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                 "privateuseone")


class device:
    """Where a tensor's memory lives: ``device('cpu')`` or ``device('cuda', 0)``.

    Mirrors ``torch.device``: accepts ``'cpu'``, ``'cuda'``, ``'cuda:1'``,
    ``('cuda', 1)`` or another device.  ``type`` is the kind of device and
    ``index`` its number (None when not given).

    Raises:
        RuntimeError: for an unknown device string, with PyTorch's message.
    """

    __slots__ = ("type", "index")
    __module__ = "torch"                     # type(t.device) prints <class 'torch.device'>, like dtype and Size

    def __init__(self, type, index=None):  # noqa: A002 - PyTorch's parameter name
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int) and not isinstance(type, bool):
            type, index = "cuda", type
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got ({type.__class__.__name__})")
        text = type
        name, _, idx = text.partition(":")
        if name not in _DEVICE_TYPES:
            raise RuntimeError(
                "Expected one of " + ", ".join(_DEVICE_TYPES) +
                f" device type at start of device string: {text}")
        if idx:
            if index is not None:
                raise RuntimeError("type (string) must not include an index because index was passed "
                                   f"explicitly: {text}")
            if not idx.isdigit():
                raise RuntimeError(f"Invalid device string: '{text}'")
            index = int(idx)
        if index is not None and index < 0:
            raise RuntimeError(f"Device index must not be negative, got {index}")
        self.type = name
        self.index = index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        if not isinstance(other, device):
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):                    # pickle cannot find a class it knows as torch.device
        return (_unpickle_device, (self.type, self.index))

    def __enter__(self):  # torch.device works as a context manager; course_lib ignores it
        return self

    def __exit__(self, *exc):
        return False


def _unpickle_device(type, index):  # noqa: A002 - the attribute's name
    return device(type, index)


class AcceleratorError(RuntimeError):
    """An error reported by the GPU runtime, e.g. a device index that does not exist. Mirrors
    ``torch.AcceleratorError`` (a ``RuntimeError``)."""


CPU = device("cpu")
CUDA0 = device("cuda", 0)

# ---------------------------------------------------------------------------
# Backends: array type -> (array module, device)
# ---------------------------------------------------------------------------

# Filled lazily with CuPy (or, in tests, a CUDA stand-in) by cuda_backend().
_ARRAY_TYPES = {np.ndarray: (np, CPU)}
_cuda = {"module": None, "error": None, "checked": False}


def register_cuda_backend(module, array_type):
    """Make ``module`` (an array library with CuPy's API) the CUDA backend.

    Tensors whose array is of ``array_type`` then report ``device(type='cuda', index=0)``
    and compute with ``module``.  Used for CuPy, and for the simulated device of
    ``course_lib.cuda.simulate()``.  ``register_cuda_backend(None, None)`` switches
    CUDA off (``is_available()`` becomes False).
    """
    for t in [t for t, (_, d) in _ARRAY_TYPES.items() if d.type == "cuda"]:
        del _ARRAY_TYPES[t]
    _cuda.update(module=module, error=None, checked=True)
    if module is not None:
        _ARRAY_TYPES[array_type] = (module, CUDA0)


def cuda_backend_state():
    """The current CUDA backend, as a value that :func:`restore_cuda_backend` puts back."""
    types = {t: v for t, v in _ARRAY_TYPES.items() if v[1].type == "cuda"}
    return dict(_cuda), types


def restore_cuda_backend(state):
    """Put back a CUDA backend saved by :func:`cuda_backend_state` (undoes ``register_cuda_backend``)."""
    cuda, types = state
    for t in [t for t, (_, d) in _ARRAY_TYPES.items() if d.type == "cuda"]:
        del _ARRAY_TYPES[t]
    _ARRAY_TYPES.update(types)
    _cuda.clear()
    _cuda.update(cuda)


def cuda_backend():
    """Return the CUDA array module (CuPy), importing it once; None if unavailable."""
    if not _cuda["checked"]:
        _cuda["checked"] = True
        try:
            import cupy
            if cupy.cuda.runtime.getDeviceCount() < 1:
                raise RuntimeError("no CUDA device")
        except Exception as e:  # ImportError, CUDA driver errors, ...
            _cuda["error"] = e
        else:
            register_cuda_backend(cupy, cupy.ndarray)
    return _cuda["module"]


def require_cuda():
    """Return the CUDA module or raise the error a CPU-only PyTorch raises."""
    xp = cuda_backend()
    if xp is None:
        err = _cuda["error"]
        if isinstance(err, ImportError) or err is None:
            raise AssertionError("Torch not compiled with CUDA enabled")
        raise RuntimeError(
            "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU "
            "and installed a driver from http://www.nvidia.com/Download/index.aspx")
    return xp


def resolve(dev):
    """Turn ``None``, a string, an int or a :class:`device` into a concrete device.

    ``'cuda'`` becomes ``cuda:0`` (course_lib uses one GPU).

    Raises:
        AssertionError: ``'cuda'`` without CuPy, as a CPU-only PyTorch does.
        AcceleratorError: ``'cuda:1'`` and up ("invalid device ordinal"), as PyTorch on one GPU.
        RuntimeError: an unknown device, or a device type course_lib lacks.
    """
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
    raise RuntimeError(f"Could not run the operation on device '{dev}': course_lib supports 'cpu' and 'cuda' only")


def backend_of(array):
    """The array module (numpy or cupy) that owns ``array``."""
    return _ARRAY_TYPES[array.__class__][0]


def device_of(array):
    """The :class:`device` an array lives on."""
    return _ARRAY_TYPES[array.__class__][1]


def module_for(dev):
    """The array module for a resolved device."""
    return np if dev.type == "cpu" else require_cuda()


def writeable(array):
    """False for a read-only NumPy array (a broadcast view); CuPy arrays are always writeable and have no such flag."""
    return array.__class__ is not np.ndarray or array.flags.writeable


def to_numpy(array):
    """Copy a backend array to a NumPy array (no copy for NumPy arrays)."""
    if array.__class__ is np.ndarray:
        return array
    return array.get()
