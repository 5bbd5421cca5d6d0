"""``torch.cuda``: is a GPU there, and how many.

course_lib runs tensors on an NVIDIA GPU through CuPy.  Without CuPy or
without a GPU, ``is_available()`` is False and the functions that need a
GPU raise the error a CPU-only PyTorch raises
(``AssertionError: Torch not compiled with CUDA enabled``).

``simulate()`` is course_lib's own addition (PyTorch has no such thing): a
simulated CUDA device backed by NumPy, so that code written for a GPU runs,
prints and fails exactly as on a GPU on a machine that has none.
"""

from . import devices as _device
from .devices import simulated as _cuda_sim
from .legacy import _LegacyTensorType, legacy_new, legacy_types
from .torch_compat.device import device as _device_cls
from .torch_compat.random import manual_seed as _seed_all_devices

__all__ = ["is_available", "device_count", "current_device", "synchronize", "get_device_name",
           "get_device_properties", "device", "init", "is_initialized", "set_device",
           "manual_seed", "manual_seed_all", "memory_allocated", "empty_cache", "simulate", "is_simulated",
           "FloatTensor", "DoubleTensor", "HalfTensor", "IntTensor", "LongTensor", "ShortTensor", "CharTensor",
           "ByteTensor", "BoolTensor"]


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


def _device_index(device):
    """The GPU index that ``device`` (None, an int, ``'cuda:0'``, a device) names; AssertionError
    ("Invalid device id") when there is no such GPU, as PyTorch."""
    if device is None:
        return 0
    index = device if isinstance(device, int) else _device_cls(device).index or 0
    if not 0 <= index < device_count():
        raise AssertionError("Invalid device id")
    return index


class device:
    """``with torch.cuda.device(0):`` selects GPU 0 for the block (course_lib has that one only). Mirrors
    ``torch.cuda.device``.

    Raises:
        RuntimeError: on entering the block without CUDA ("PyTorch was compiled without CUDA support", as PyTorch's
            CPU build).
        AssertionError: an index with no GPU ("Invalid device id").
    """

    def __init__(self, device):
        self.idx = device if isinstance(device, int) or device is None else _device_cls(device).index
        self.prev_idx = -1

    def __enter__(self):
        if _device.cuda_backend() is None:
            raise RuntimeError("PyTorch was compiled without CUDA support")
        if self.idx is not None and self.idx >= 0:
            _device_index(self.idx)
            self.prev_idx = 0

    def __exit__(self, *exc):
        return False


class _CudaDeviceProperties:
    """What ``get_device_properties`` returns: ``name``, ``major``/``minor`` (compute capability),
    ``total_memory`` (bytes) and ``multi_processor_count``."""

    def __init__(self, props):
        name = props["name"]
        self.name = name.decode() if isinstance(name, bytes) else name
        self.major = int(props.get("major", 0))
        self.minor = int(props.get("minor", 0))
        self.total_memory = int(props.get("totalGlobalMem", 0))
        self.multi_processor_count = int(props.get("multiProcessorCount", 0))

    def __repr__(self):
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // 2**20}MB, multi_processor_count={self.multi_processor_count})")


def get_device_properties(device=None):
    """The GPU's name, compute capability, memory and multiprocessor count. Mirrors
    ``torch.cuda.get_device_properties``.

    Raises:
        AssertionError: without CUDA ("Torch not compiled with CUDA enabled"), or an index with no GPU.
    """
    xp = _device.require_cuda()
    return _CudaDeviceProperties(xp.cuda.runtime.getDeviceProperties(_device_index(device)))


def init():
    """Initialise CUDA (nothing to do in course_lib). Mirrors ``torch.cuda.init``.

    Raises:
        AssertionError: without CUDA.
    """
    _device.require_cuda()


def is_initialized():
    """True once CUDA is usable in this process (course_lib: once it has been found). Mirrors
    ``torch.cuda.is_initialized``."""
    return _device.cuda_backend() is not None


def set_device(device):
    """Select the current GPU; course_lib uses GPU 0 only. Mirrors ``torch.cuda.set_device``.

    Raises:
        AttributeError: without CUDA (what PyTorch's CPU build raises).
        AssertionError: an index with no GPU ("Invalid device id").
    """
    if _device.cuda_backend() is None:
        raise AttributeError("module 'torch._C' has no attribute '_cuda_setDevice'")
    if not (isinstance(device, int) and device < 0):       # PyTorch ignores a negative index
        _device_index(device)


def memory_allocated(device=None):
    """Bytes of GPU memory held by arrays (CuPy's memory pool); 0 without CUDA, as in PyTorch.

    Mirrors ``torch.cuda.memory_allocated``.
    """
    xp = _device.cuda_backend()
    return 0 if xp is None else int(xp.get_default_memory_pool().used_bytes())


def empty_cache():
    """Return cached, unused GPU memory to the driver."""
    xp = _device.cuda_backend()
    if xp is not None:
        xp.get_default_memory_pool().free_all_blocks()


def manual_seed(seed):
    """Seeding is shared with the CPU generator in course_lib (CUDA random tensors are drawn on the CPU)."""
    _seed_all_devices(seed)


manual_seed_all = manual_seed


class simulate:
    """Use a simulated CUDA device, backed by NumPy, as ``'cuda'`` (course_lib only; not in PyTorch).

    On a machine without a GPU, ``torch.cuda.simulate()`` makes
    ``is_available()`` True and ``device='cuda'`` work: tensors report
    ``device(type='cuda', index=0)``, print ``device='cuda:0'``, refuse
    ``numpy()`` and refuse to mix with CPU tensors, with PyTorch's messages.
    Nothing is faster: NumPy does the work (see ``course_lib/devices/simulated.py``).
    ``stats`` counts the copies between host and simulated device.

    Call it to switch the simulation on for the rest of the session, or use
    it as a context manager to switch it on inside a ``with`` block only
    (the previous CUDA backend, real or none, comes back at the end).
    It replaces a real GPU too while it is on.
    """

    def __init__(self):
        self._saved = _device.cuda_backend_state()     # tensors already on a real GPU keep working
        self.stats = _cuda_sim.stats
        _device.register_cuda_backend(_cuda_sim.module, _cuda_sim.ndarray)

    def stop(self):
        """Switch the simulation off: the CUDA backend that was there before comes back.

        Tensors made while simulating keep working (and keep saying ``cuda:0``);
        new ones cannot be put on the simulated device any more.
        """
        _device.restore_cuda_backend(self._saved)       # tensors made while simulating keep working

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def __repr__(self):
        return "<course_lib simulated CUDA device>"


def is_simulated():
    """True while ``simulate()`` provides the CUDA device (course_lib only)."""
    return _device.cuda_backend() is _cuda_sim.module


class _CudaTensorType(_LegacyTensorType):
    """Metaclass of ``torch.cuda.FloatTensor`` and friends: calling one builds a CUDA tensor of its dtype
    (TypeError without CUDA, as PyTorch's CPU build), ``isinstance`` checks dtype and device."""

    def __call__(cls, *args, **kwargs):
        if _device.cuda_backend() is None:
            raise TypeError(f"type torch.cuda.{cls.__name__} not available. Torch not compiled with CUDA enabled.")
        return legacy_new(cls._dtype_of_type, args, kwargs, device_type="cuda").to("cuda")


_CudaTensorType.__module__, _CudaTensorType.__qualname__ = "course_lib", "tensortype"     # as torch.cuda's types
_TYPES = legacy_types(_CudaTensorType, "course_lib.cuda", "cuda")
FloatTensor, DoubleTensor, HalfTensor = _TYPES["FloatTensor"], _TYPES["DoubleTensor"], _TYPES["HalfTensor"]
IntTensor, LongTensor, ShortTensor = _TYPES["IntTensor"], _TYPES["LongTensor"], _TYPES["ShortTensor"]
CharTensor, ByteTensor, BoolTensor = _TYPES["CharTensor"], _TYPES["ByteTensor"], _TYPES["BoolTensor"]
