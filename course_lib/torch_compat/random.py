"""PyTorch's CPU random number generator, and how its kernels turn its draws into numbers.

The public random functions (``rand``, ``randn``, ``randint``, ``randperm``, ``normal``, ``bernoulli``,
``multinomial``) are ``course_lib/ops/random.py``; they draw with the generator here.

PyTorch's CPU generator is a Mersenne Twister (mt19937) seeded with the
low 32 bits of the seed.  As in PyTorch, the default generator starts from a
random seed in each process (``initial_seed()`` differs from run to run until
``manual_seed``), so a program that wants repeatable numbers must call
``torch.manual_seed`` first; a new ``torch.Generator()`` starts from
67280421310721.  NumPy ships the same engine (``MT19937``), and each
distribution below turns its 32-bit draws into numbers exactly as
PyTorch's CPU kernels do, so ``torch.manual_seed(0); torch.rand(3)`` prints
the same values as PyTorch:

* uniform: the low 24 bits of one draw times 2**-24 (float32, and float16
  rounds that), the low 53 bits of two draws times 2**-53 (float64);
* ``randint``: ``low + draw % (high - low)``;
* normal: Box-Muller.  Fewer than 16 numbers (or another layout) are drawn
  one by one in double precision (each pair of uniforms gives two normals,
  the second kept for the next call); 16 or more are drawn as uniforms
  first and transformed in blocks of 16 (``box_muller.py``: float32 with the
  polynomials of PyTorch's AVX2 kernel, bit for bit on x86-64);
* ``randperm``: Fisher-Yates swaps with ``draw % (n - i)``.
CUDA tensors are drawn on the CPU and moved: PyTorch's CUDA generator is
another algorithm, so their values differ from PyTorch's.
"""


import math
import warnings

import numpy as np

from ..core.tensor import Tensor, wrap
from . import dtypes as _dtype
from .box_muller import transform_blocks
from .fma import fma
from .names import public_module, type_name

__all__ = ["Generator", "default_generator", "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state",
           "uniform_values", "normal_values", "bernoulli_mask"]

DEFAULT_SEED = 67280421310721
_STATE_BYTES = 5056                 # the size of PyTorch's CPU generator state


class Generator:
    """A source of random numbers: PyTorch's CPU generator (mt19937). Mirrors ``torch.Generator``.

    ``manual_seed`` returns the default one.
    """

    def __init__(self, device="cpu"):
        self.device = device
        self.manual_seed(DEFAULT_SEED)

    def manual_seed(self, seed):
        """Reset the generator to a fixed state; returns ``self``.

        Raises:
            RuntimeError: a seed outside [-2**63, 2**64).
            TypeError: a non-integer seed.
        """
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"manual_seed expected a long, but got {type_name(seed)}")
        seed = int(seed)
        if not -2 ** 63 <= seed < 2 ** 64:
            raise RuntimeError(f"Overflow when unpacking long long: {seed}")
        self._seed = seed % 2 ** 64           # PyTorch reinterprets negative seeds as unsigned
        self._engine = np.random.MT19937()
        self._engine._legacy_seeding(self._seed & 0xFFFFFFFF)
        self._next_normal = None               # the second normal of the last Box-Muller pair
        return self

    def initial_seed(self):
        """The seed the generator was last reset with."""
        return self._seed

    def seed(self):
        """Reseed from the operating system's entropy; returns the new seed."""
        new = int(np.random.SeedSequence().entropy % 2 ** 64)
        self.manual_seed(new)
        return new

    def get_state(self):
        """The generator's state as a uint8 tensor (restore it with ``set_state``)."""
        state = self._engine.state["state"]
        words = np.concatenate([state["key"].astype(np.uint32), np.array([state["pos"]], dtype=np.uint32)])
        normal = np.array([np.nan if self._next_normal is None else self._next_normal], dtype=np.float64)
        seed = np.array([self._seed], dtype=np.uint64)
        raw = np.concatenate([words.view(np.uint8), normal.view(np.uint8), seed.view(np.uint8)])
        return wrap(np.concatenate([raw, np.zeros(_STATE_BYTES - raw.size, dtype=np.uint8)]))

    def set_state(self, new_state):
        """Restore a state from ``get_state``; returns ``self``.

        Raises:
            RuntimeError: a tensor that is not such a state.
        """
        raw = new_state._data if isinstance(new_state, Tensor) else None
        if raw is None or raw.dtype != np.uint8 or raw.shape != (_STATE_BYTES,):
            raise RuntimeError(f"Expected a torch.ByteTensor, but got {type_name(new_state)}")
        raw = np.ascontiguousarray(raw)
        words = raw[:625 * 4].view(np.uint32)
        normal = raw[625 * 4:625 * 4 + 8].view(np.float64)[0]
        self._seed = int(raw[625 * 4 + 8:625 * 4 + 16].view(np.uint64)[0])
        self._engine.state = {"bit_generator": "MT19937", "state": {"key": words[:624].copy(), "pos": int(words[624])}}
        self._next_normal = None if np.isnan(normal) else float(normal)
        return self

    def __repr__(self):
        return f"<torch._C.Generator object at {id(self):#x}>"

    # -- the draws --------------------------------------------------------
    def random(self, n):
        """``n`` raw 32-bit draws (as uint64, so that products and shifts cannot overflow)."""
        return self._engine.random_raw(n).astype(np.uint64)

    def random64(self, n):
        """``n`` 64-bit draws, each from two 32-bit ones (the first gives the high bits)."""
        r = self.random(2 * n)
        return (r[0::2] << np.uint64(32)) | r[1::2]

    def uniform(self, n, dt, low=0.0, high=1.0, reverse_bound=True):
        """``n`` uniform numbers in ``[low, high)`` of dtype ``dt``, as PyTorch's ``uniform_real_distribution``.

        A float16 number that rounds up to ``high`` becomes ``low``, as PyTorch's ``uniform_`` kernel makes it
        (``reverse_bound``; its normal sampler keeps it)."""
        if dt is _dtype.float64:     # x * (to - from) + from as one fused multiply-add, as PyTorch's kernel
            x = (self.random64(n) & np.uint64(2 ** 53 - 1)).astype(np.float64) * 2.0 ** -53
            return fma(x, high - low, low)
        x = (self.random(n) & np.uint64(2 ** 24 - 1)).astype(np.float64) * 2.0 ** -24
        if dt is _dtype.float32:     # the same in float: bounds and their difference rounded to float first
            low32, high32 = np.float32(low), np.float32(high)
            return (x * float(high32 - low32) + float(low32)).astype(np.float32)    # exact product, one rounding
        # float16: x * (high - low) + low in float32 (one rounding), then rounded to float16
        out = (x * float(np.float32(high - low)) + float(np.float32(low))).astype(np.float32).astype(dt.numpy_dtype)
        if reverse_bound:
            out[out == dt.numpy_dtype.type(high)] = dt.numpy_dtype.type(low)
        return out

    def _normal_double(self):
        """One standard normal in double precision (Box-Muller; the pair's second value is kept)."""
        if self._next_normal is not None:
            value, self._next_normal = self._next_normal, None
            return value
        u1, u2 = self.uniform(2, _dtype.float64)       # C's log1p, sin and cos (glibc's; NumPy's differ at times)
        r = math.sqrt(-2.0 * math.log1p(-float(u2)))
        theta = 2.0 * math.pi * float(u1)
        self._next_normal = r * math.sin(theta)
        return r * math.cos(theta)

    def normal(self, n, dt, mean=0.0, std=1.0):
        """``n`` normal numbers of dtype ``dt``, as PyTorch's CPU ``normal_`` kernel draws them."""
        if n < 16:
            with np.errstate(over="ignore"):          # value * std + mean, fused as in PyTorch's kernel
                values = np.array([self._normal_double() for _ in range(n)])
                return fma(values, std, mean).astype(dt.numpy_dtype)
        if dt is _dtype.float16:                     # PyTorch: float32 blocks, each drawn when it is computed
            blocks = transform_blocks(self.uniform(-(-n // 16) * 16, _dtype.float32).reshape(-1, 16), mean, std)
            data = np.empty(n, np.float16)
            data[:n // 16 * 16] = blocks[:n // 16].reshape(-1)
            data[n - 16:] = blocks[-1]                   # (the last, overlapping block when n % 16)
            return data
        data = self.uniform(n, dt)
        whole = n // 16 * 16
        transform_blocks(data[:whole].reshape(-1, 16), mean, std)
        if n % 16:                                   # PyTorch draws the last 16 again: an overlapping block
            data[n - 16:] = self.uniform(16, dt)
            transform_blocks(data[n - 16:].reshape(1, 16), mean, std)
        return data

    def randint(self, n, low, high):
        """``n`` integers in ``[low, high)``: ``low + draw % (high - low)``."""
        span = high - low
        draws = self.random64(n) if span >= 2 ** 32 else self.random(n)
        return ((draws % np.uint64(span)).astype(np.int64) + low)

    def randperm(self, n):
        """A random permutation of ``0 .. n-1`` by PyTorch's Fisher-Yates swaps."""
        r = np.arange(n, dtype=np.int64)
        if n > 1:
            draws = self.random(n - 1)
            for i in range(n - 1):
                z = i + int(draws[i] % np.uint64(n - i))
                r[i], r[z] = r[z], r[i]
        return r


public_module("course_lib._C", Generator)       # type(torch.Generator()) is torch._C.Generator in PyTorch

default_generator = Generator()
default_generator.seed()            # PyTorch seeds its default generator non-deterministically at start-up


def manual_seed(seed):
    """Seed the default generator so that the random functions repeat their results. Mirrors ``torch.manual_seed``.

    Returns the generator.  ``seed`` is read with ``int()`` first (2.5 is 2), as in PyTorch.

    Raises:
        ValueError: a seed ``int()`` cannot read, or one outside [-2**63, 2**64).
    """
    seed = int(seed)
    if not -2 ** 63 <= seed < 2 ** 64:
        raise ValueError("Overflow when unpacking long long")
    return default_generator.manual_seed(seed)


def seed():
    """Seed the default generator from the OS; returns the seed. Mirrors ``torch.seed``."""
    return default_generator.seed()


def initial_seed():
    """The seed of the default generator. Mirrors ``torch.initial_seed``."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state as a uint8 tensor. Mirrors ``torch.get_rng_state``."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restore the default generator's state from ``get_rng_state()``. Mirrors ``torch.set_rng_state``."""
    default_generator.set_state(new_state)


def _rng(generator):
    return generator or default_generator


# the C type PyTorch names in its bounds errors (uniform_, random_, randint), and the digits of a floating dtype's
# mantissa (random_ and randint draw exact integers only within it)
_C_TYPE = {"Float": "float", "Double": "double", "Half": "c10::Half", "Long": "int64_t", "Int": "int",
           "Short": "short", "Char": "signed char", "Byte": "unsigned char", "Bool": "bool"}
MANTISSA = {"Float": 24, "Double": 53, "Half": 11}


def random_range(dt):
    """The lowest and highest integer ``random_``/``randint`` may draw for ``dt`` (for a floating dtype, the
    range its mantissa holds exactly), and the digits of that mantissa (None for an integer dtype)."""
    name = dt._short_name
    digits = MANTISSA.get(name)
    if digits is not None:
        return -(2 ** digits), 2 ** digits, digits
    if name == "Bool":
        return 0, 1, None
    info = np.iinfo(dt.numpy_dtype)
    return int(info.min), int(info.max), None


def check_random_bounds(dt, low, high, stacklevel=3):
    """PyTorch's check of ``[low, high)`` against ``dt`` (``check_from_to_in_range``): an integer dtype's range
    (RuntimeError "from is out of bounds for bool", "to - 1 is out of bounds for ..."), a floating one's largest
    number, then a warning where its mantissa cannot hold the bound."""
    lowest, highest, digits = random_range(dt)
    name = dt._short_name
    if digits is not None:
        biggest = float(np.finfo(dt.numpy_dtype).max)
        for label, value in (("from", low), ("to - 1", high - 1)):
            if not -biggest <= value <= biggest:
                raise RuntimeError(f"{label} is out of bounds for {_C_TYPE[name]}")
    for label, value in (("from", low), ("to - 1", high - 1)):
        if not lowest <= value <= highest:
            if digits is None:
                raise RuntimeError(f"{label} is out of bounds for {_C_TYPE[name]}")
            warnings.warn(f"{label} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                          f"{_C_TYPE[name]} can support discrete uniform distribution only within this "
                          "range. This warning will become an error in version 1.7 release, please fix the code "
                          "in advance (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                          "DistributionTemplates.h:111.)", UserWarning, stacklevel=stacklevel)


def uniform_values(shape, dt, low=0.0, high=1.0, generator=None):
    """A NumPy array of ``shape`` filled as ``torch.empty(shape, dtype=dt).uniform_(low, high)`` fills it.

    Raises:
        NotImplementedError: a dtype that is not floating. RuntimeError: bounds out of the dtype's range,
            ``low > high`` or a range wider than the dtype's largest number (PyTorch's messages).
    """
    if dt._kind != "f":
        raise NotImplementedError(f'"check_uniform_bounds" not implemented for \'{dt._short_name}\'')
    low, high = float(low), float(high)                 # numbers or 0-d tensors, as PyTorch's Scalar
    biggest = float(np.finfo(dt.numpy_dtype).max)
    for name, value in (("from", low), ("to", high)):
        if not -biggest <= value <= biggest:
            raise RuntimeError(f"{name} is out of bounds for {_C_TYPE[dt._short_name]}")
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={low:g} > to={high:g}")
    if high - low > biggest:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{dt._short_name}>::max(), but found "
                           f"to={high:g} and from={low:g} which result in to-from to exceed the limit")
    return _rng(generator).uniform(int(np.prod(shape)), dt, low, high).reshape(shape)


def _check_std(std):
    if not std >= 0:                          # nan too
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def normal_values(shape, dt, mean=0.0, std=1.0, generator=None):
    """A NumPy array of ``shape`` filled as ``torch.empty(shape, dtype=dt).normal_(mean, std)`` fills it.

    Raises:
        RuntimeError: a negative or nan ``std``. NotImplementedError: a dtype that is not floating.
    """
    mean, std = float(mean), float(std)
    _check_std(std)
    if dt._kind != "f" and int(np.prod(shape)):      # (no elements: PyTorch's kernel never runs)
        raise NotImplementedError(f'"normal_kernel_cpu" not implemented for \'{dt._short_name}\'')
    if dt._kind != "f":
        return np.empty(shape, dt.numpy_dtype)
    return _rng(generator).normal(int(np.prod(shape)), dt, mean, std).reshape(shape)


def bernoulli_mask(shape, p, generator=None):
    """A bool array of ``shape``, True with probability ``p``: PyTorch's CPU ``bernoulli_(p)`` for a number ``p``
    (a double-precision uniform per element, True when below ``p``), which ``dropout`` draws its mask with."""
    return _rng(generator).uniform(int(np.prod(shape)), _dtype.float64).reshape(shape) < p
