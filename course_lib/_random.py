"""Random numbers: ``manual_seed``, ``rand``, ``randn``, ``randint``, ``randperm``, ``normal``, ...

One global generator (a NumPy ``PCG64``), seeded like PyTorch's default
CPU generator (``initial_seed()`` is 67280421310721 until ``manual_seed``),
so a notebook that never seeds is still reproducible.  The *values* differ
from PyTorch's (another algorithm); shapes, dtypes, ranges and
distributions match.  CUDA tensors are drawn on the CPU and moved.
"""

import numpy as np

from . import _dtype
from ._creation import _finish, parse_size
from ._device import resolve
from ._tensor import Tensor

__all__ = ["Generator", "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state", "rand", "randn",
           "randint", "randperm", "normal", "rand_like", "randn_like", "randint_like", "bernoulli"]

DEFAULT_SEED = 67280421310721


class Generator:
    """A source of random numbers (``torch.Generator``); ``manual_seed`` returns the default one."""

    def __init__(self, device="cpu"):
        self.device = resolve(device) if device != "cpu" else resolve("cpu")
        self.manual_seed(DEFAULT_SEED)

    def manual_seed(self, seed):
        """Reset the generator to a fixed state; returns ``self``.

        Raises:
            RuntimeError: a seed outside [-2**63, 2**64).
            TypeError: a non-integer seed.
        """
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        if not -2 ** 63 <= seed < 2 ** 64:
            raise RuntimeError(f"Overflow when unpacking long long: {seed}")
        if seed < 0:
            seed += 2 ** 64       # PyTorch reinterprets negative seeds as unsigned
        self._seed = seed
        self._rng = np.random.Generator(np.random.PCG64(seed))
        return self

    def initial_seed(self):
        """The seed the generator was last reset with."""
        return self._seed

    def seed(self):
        """Reseed from the operating system's entropy; returns the new seed."""
        new = int(np.random.SeedSequence().entropy % 2 ** 63)
        self.manual_seed(new)
        return new

    def get_state(self):
        from ._creation import tensor
        state = self._rng.bit_generator.state
        return tensor([state["state"]["state"] % 2 ** 63, state["state"]["inc"] % 2 ** 63,
                       state["has_uint32"], state["uinteger"]], dtype=_dtype.int64)

    def set_state(self, state):
        raise NotImplementedError("course_lib cannot restore a generator from a state tensor; use manual_seed")

    def __repr__(self):
        return f"<torch._C.Generator object at {id(self):#x}>"


default_generator = Generator()


def manual_seed(seed):
    """Seed the default generator so that the random functions repeat their results. Mirrors ``torch.manual_seed``.

    Returns the generator.
    """
    return default_generator.manual_seed(seed)


def seed():
    """Seed the default generator from the OS; returns the seed. Mirrors ``torch.seed``."""
    return default_generator.seed()


def initial_seed():
    """The seed of the default generator. Mirrors ``torch.initial_seed``."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state as a tensor (course_lib cannot restore it; use ``manual_seed``)."""
    return default_generator.get_state()


def set_rng_state(state):
    default_generator.set_state(state)


def _rng(generator):
    return (generator or default_generator)._rng


def _float_dtype(dtype, kernel):
    dt = dtype or _dtype.get_default_dtype()
    if dt._kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{dt._short_name}\'')
    return dt


def _draw(values, dt, device, requires_grad):
    return _finish(values.astype(dt.numpy_dtype, copy=False), device, requires_grad)


def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """Uniform random numbers in ``[0, 1)`` of the given shape (float32 by default). Mirrors ``torch.rand``.

    Raises:
        NotImplementedError: an integer ``dtype`` (PyTorch's message).
    """
    dt = _float_dtype(dtype, "check_uniform_bounds")
    shape = parse_size(size, "rand")
    values = _rng(generator).random(shape, dtype=np.float64 if dt is _dtype.float64 else np.float32)
    return _draw(values, dt, device, requires_grad)


def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """Standard normal random numbers (mean 0, variance 1). Mirrors ``torch.randn``.

    Raises:
        NotImplementedError: an integer ``dtype``.
    """
    dt = _float_dtype(dtype, "normal_kernel_cpu")
    shape = parse_size(size, "randn")
    values = _rng(generator).standard_normal(shape, dtype=np.float64 if dt is _dtype.float64 else np.float32)
    return _draw(values, dt, device, requires_grad)


def randint(*args, size=None, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """Random integers in ``[low, high)``: ``randint(high, size)`` or ``randint(low, high, size)``;
    int64 by default. Mirrors ``torch.randint``.

    Raises:
        RuntimeError: ``low >= high`` (PyTorch's message).
        TypeError: a missing or malformed size.
    """
    if size is not None:
        args = args + (size,)
    if len(args) == 2:
        low, high, size = 0, args[0], args[1]
    elif len(args) == 3:
        low, high, size = args
    else:
        raise TypeError("randint() received an invalid combination of arguments")
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"randint() received an invalid combination of arguments - got "
                        f"({', '.join(type(a).__name__ for a in args)}), but expected one of:\n"
                        " * (int high, tuple of ints size, *, torch.Generator generator, Tensor out = None, "
                        "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
                        "bool pin_memory = False, bool requires_grad = False)\n"
                        " * (int high, tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, "
                        "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
                        "bool requires_grad = False)\n"
                        " * (int low, int high, tuple of ints size, *, torch.Generator generator, Tensor out = "
                        "None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
                        "bool pin_memory = False, bool requires_grad = False)\n"
                        " * (int low, int high, tuple of ints size, *, Tensor out = None, torch.dtype dtype = "
                        "None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
                        "bool requires_grad = False)\n")
    low, high = int(low), int(high)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    shape = parse_size((tuple(size),), "randint")
    values = _rng(generator).integers(low, high, shape, dtype=np.int64)
    return _draw(values, dtype or _dtype.int64, device, requires_grad)


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """A random permutation of ``0 .. n-1`` (int64). Mirrors ``torch.randperm``.

    Raises:
        RuntimeError: a negative ``n``.
    """
    if n < 0:
        raise RuntimeError(f"n must be non-negative, got{n}")
    values = _rng(generator).permutation(int(n)).astype(np.int64)
    return _draw(values, dtype or _dtype.int64, device, requires_grad)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           requires_grad=False):
    """Normal random numbers with the given ``mean`` and standard deviation ``std`` (variance
    ``std**2``). Mirrors ``torch.normal``.

    Forms: ``normal(mean_tensor, std_tensor)``, ``normal(mean_tensor, std=1.0)``,
    ``normal(mean, std_tensor)``, ``normal(mean, std, size)``.

    Raises:
        RuntimeError: a negative ``std``.
        TypeError: two numbers without a ``size``.
    """
    rng = _rng(generator)
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        ref = mean if isinstance(mean, Tensor) else std
        m = mean._data if isinstance(mean, Tensor) else mean
        s = std._data if isinstance(std, Tensor) else std
        if np.any(np.asarray(s) < 0):
            raise RuntimeError("normal expects all elements of std >= 0.0")
        shape = np.broadcast_shapes(np.shape(m), np.shape(s))
        values = np.asarray(m) + np.asarray(s) * rng.standard_normal(shape)
        return _draw(values, ref.dtype if ref.dtype._kind == "f" else _dtype.get_default_dtype(), ref.device, False)
    if size is None:
        raise TypeError(
            f"normal() received an invalid combination of arguments - got ({type(mean).__name__}, "
            f"{type(std).__name__}), but expected one of:\n"
            " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
            " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
            " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
            " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor out = "
            "None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool "
            "pin_memory = False, bool requires_grad = False)\n")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    dt = _float_dtype(dtype, "normal_kernel_cpu")
    shape = parse_size((tuple(size),) if not isinstance(size, int) else (size,), "normal")
    values = mean + std * rng.standard_normal(shape)
    return _draw(values, dt, device, requires_grad)


def rand_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    """``rand`` with ``input``'s shape, dtype and device. Mirrors ``torch.rand_like``."""
    return rand(input._data.shape, dtype=dtype or input.dtype, device=device or input.device,
                requires_grad=requires_grad)


def randn_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    """``randn`` with ``input``'s shape, dtype and device. Mirrors ``torch.randn_like``.

    Raises:
        NotImplementedError: for an integer tensor (PyTorch's behaviour).
    """
    return randn(input._data.shape, dtype=dtype or input.dtype, device=device or input.device,
                 requires_grad=requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False):
    """``randint`` with ``input``'s shape, dtype and device. Mirrors ``torch.randint_like``."""
    if high is None:
        low, high = 0, low
    return randint(low, high, input._data.shape, dtype=dtype or input.dtype, device=device or input.device)


def bernoulli(input, p=None, *, generator=None):
    """1 with probability ``input`` (or ``p``), else 0, element-wise. Mirrors ``torch.bernoulli``."""
    probs = np.asarray(input.detach().cpu()._data if p is None else p)
    values = (_rng(generator).random(input._data.shape) < probs)
    return _draw(values, input.dtype, input.device, False)
