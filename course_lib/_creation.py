"""Creating tensors: ``tensor``, ``as_tensor``, ``from_numpy``, the factory functions, and the legacy
constructors (``torch.Tensor(...)``, ``torch.FloatTensor(...)``, ...).

Which functions copy and which share memory, as in PyTorch:

* ``torch.tensor(data)`` always copies (for a tensor argument it also warns
  that ``x.detach().clone()`` is the clearer spelling);
* ``torch.from_numpy(array)`` and ``torch.as_tensor(array)`` (same dtype,
  CPU) share the array's memory;
* ``torch.Tensor(float32_tensor)`` returns a tensor sharing memory with it.

Data from Python lists gets PyTorch's inferred dtype: all ints -> int64,
any float -> the default dtype (float32), all bools -> bool.
"""

import math
import numbers
import warnings

import numpy as np

from . import _dtype
from ._device import device_of, module_for, resolve, to_numpy
from ._size import Size
from ._tensor import Tensor, wrap

__all__ = ["tensor", "as_tensor", "asarray", "from_numpy", "zeros", "ones", "empty", "full", "zeros_like",
           "ones_like", "empty_like", "full_like", "eye", "arange", "linspace", "logspace", "scalar_tensor",
           "FloatTensor", "DoubleTensor", "HalfTensor", "IntTensor", "LongTensor", "ShortTensor", "CharTensor",
           "ByteTensor", "BoolTensor"]


# ---------------------------------------------------------------------------
# Python data -> array
# ---------------------------------------------------------------------------

def _infer_dtype(obj):
    """PyTorch's dtype for Python data: the promotion of all its elements' dtypes."""
    if isinstance(obj, Tensor):
        return obj.dtype
    if isinstance(obj, np.ndarray):
        return _dtype.from_numpy_dtype(obj.dtype)
    if isinstance(obj, np.generic):
        return _dtype.from_numpy_dtype(obj.dtype)
    if isinstance(obj, bool):
        return _dtype.bool
    if isinstance(obj, numbers.Integral):
        return _dtype.int64
    if isinstance(obj, numbers.Real):
        return _dtype.get_default_dtype()
    if isinstance(obj, str):
        raise TypeError(f"new(): invalid data type '{type(obj).__name__}'")
    if isinstance(obj, (list, tuple, range)):
        if len(obj) == 0:
            return _dtype.get_default_dtype()
        result = None
        for item in obj:
            d = _infer_dtype(item)
            result = d if result is None else _dtype.promote_types(result, d)
        return result
    raise RuntimeError(f"Could not infer dtype of {type(obj).__name__}")


def _is_sequence(obj):
    return isinstance(obj, (list, tuple, range)) or (isinstance(obj, (np.ndarray, Tensor)) and obj.ndim > 0)


def _infer_shape(obj):
    shape = []
    while _is_sequence(obj):
        shape.append(len(obj))
        if len(obj) == 0:
            break
        obj = obj[0]
    return tuple(shape)


def _flatten(obj, shape, dim, out):
    """Append the scalars of nested data to ``out``, checking every length like PyTorch."""
    if dim == len(shape):
        if _is_sequence(obj):
            raise TypeError(f"'{type(obj).__name__}' object cannot be interpreted as an integer")
        if isinstance(obj, Tensor):
            if obj._data.size != 1:
                raise ValueError("only one element tensors can be converted to Python scalars")
            obj = obj.item()
        elif isinstance(obj, np.ndarray):
            obj = obj.item()
        out.append(obj)
        return
    if not _is_sequence(obj):
        raise TypeError("not a sequence")
    if len(obj) != shape[dim]:
        raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got {len(obj)})")
    if isinstance(obj, np.ndarray) and obj.shape == shape[dim:]:
        out.extend(obj.reshape(-1).tolist())
        return
    for item in obj:
        _flatten(item, shape, dim + 1, out)


def _check_range(values, dt):
    """PyTorch refuses Python ints that do not fit the target integer dtype."""
    if dt._kind != "i":
        return
    info = np.iinfo(dt.numpy_dtype)
    for v in values:
        if isinstance(v, int) and not isinstance(v, bool) and (v > info.max or v < -2 ** 63):
            if v > 2 ** 63 - 1 or v < -2 ** 63:
                raise ValueError("Overflow when unpacking long long")
            if v > info.max:
                raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow")


def _data_to_array(data, dtype):
    """A NumPy array (a copy) from Python data, ndarray or tensor; returns ``(array, dtype)``."""
    if isinstance(data, Tensor):
        a = to_numpy(data._data)
        dt = dtype or data.dtype
        return a.astype(dt.numpy_dtype, copy=True), dt
    if isinstance(data, np.ndarray):
        if any(s < 0 for s in data.strides):
            raise ValueError(_NEGATIVE_STRIDES)
        src = _dtype.from_numpy_dtype(data.dtype)
        dt = dtype or src
        return np.array(data, dtype=dt.numpy_dtype, copy=True), dt
    if isinstance(data, str):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    inferred = _infer_dtype(data)
    dt = dtype or inferred
    shape = _infer_shape(data)
    values = []
    _flatten(data, shape, 0, values)
    if any(isinstance(v, str) for v in values):
        raise TypeError("new(): invalid data type 'str'")
    _check_range(values, dt)
    with np.errstate(over="ignore", invalid="ignore"):
        if dt._kind == "f" and inferred._kind != "f":
            arr = np.array(values, dtype=np.float64).astype(dt.numpy_dtype)
        elif dt._kind != "f" and any(isinstance(v, float) for v in values):
            arr = np.array(values, dtype=np.float64).astype(dt.numpy_dtype)
        elif dt._kind == "i" and any(isinstance(v, int) and v < 0 for v in values) and dt.name == "uint8":
            arr = np.array(values, dtype=np.int64).astype(np.uint8)
        else:
            arr = np.array(values, dtype=dt.numpy_dtype)
    return arr.reshape(shape), dt


_NEGATIVE_STRIDES = ("At least one stride in the given numpy array is negative, and tensors with negative strides "
                     "are not currently supported. (You can probably work around this by making a copy of your "
                     "array  with array.copy().) ")


def _finish(array, device, requires_grad, name="tensor"):
    """Move to the device and set requires_grad (floating dtypes only)."""
    dev = resolve(device)
    if dev.type != "cpu":
        array = module_for(dev).asarray(array)
    t = wrap(array)
    if requires_grad:
        if array.dtype.kind != "f":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
    return t


def _check_dtype(dtype):
    if dtype is not None and not isinstance(dtype, _dtype.dtype):
        raise TypeError(f"tensor(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a **copy** of ``data`` (a number, nested lists/tuples, a NumPy array or a tensor).

    The dtype is inferred as PyTorch does (ints -> int64, floats -> float32,
    bools -> bool; a NumPy array keeps its dtype) unless ``dtype`` is given.
    A Python number gives a 0-d tensor.  Mirrors ``torch.tensor``.

    Raises:
        ValueError: ragged nested lists ("expected sequence of length 3 at dim 1 (got 2)").
        TypeError: strings ("new(): invalid data type 'str'"), unknown keywords.
        RuntimeError: ``requires_grad=True`` with a non-floating dtype; data of unknown type.
    """
    _check_dtype(dtype)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
                      "or sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
        if device is None:
            device = data.device
    # Fast path for a Python number (e.g. torch.tensor(0.0, requires_grad=True) in a training loop)
    if data.__class__ is float and dtype is None:
        array = np.array(data, dtype=_dtype._default[0].numpy_dtype)
    elif data.__class__ is int and dtype is None and -2 ** 63 <= data < 2 ** 63:
        array = np.array(data, dtype=np.int64)
    else:
        array, _ = _data_to_array(data, dtype)
    return _finish(array, device, requires_grad)


def as_tensor(data, dtype=None, device=None):
    """Like ``tensor`` but **shares memory** when it can: a tensor or CPU NumPy array of the requested
    dtype is used as it is. Mirrors ``torch.as_tensor``."""
    _check_dtype(dtype)
    if isinstance(data, Tensor):
        return data.to(device=device if device is not None else data.device, dtype=dtype or data.dtype)
    if isinstance(data, np.ndarray) and (dtype is None or dtype.numpy_dtype == data.dtype) \
            and resolve(device).type == "cpu" and data.dtype in _dtype._BY_NUMPY and all(s >= 0 for s in data.strides):
        return wrap(data)
    array, _ = _data_to_array(data, dtype)
    return _finish(array, device, False)


asarray = as_tensor


def from_numpy(ndarray):
    """A CPU tensor that **shares memory** with a NumPy array (same dtype, same strides). Mirrors ``torch.from_numpy``.

    Changing one changes the other.

    Raises:
        TypeError: not an ndarray, or an unsupported dtype (PyTorch's messages).
        ValueError: negative strides (e.g. ``a[::-1]``).
    """
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    _dtype.from_numpy_dtype(ndarray.dtype)
    if any(s < 0 for s in ndarray.strides):
        raise ValueError(_NEGATIVE_STRIDES)
    if ndarray.dtype.byteorder == ">":
        raise ValueError("given numpy array has byte order different from the native byte order. Conversion "
                         "between byte orders is currently not supported.")
    return wrap(ndarray)


def scalar_tensor(value, like=None, dtype=None):
    """A 0-d tensor holding a Python number, on ``like``'s device (used when a number is the first operand)."""
    if dtype is None:
        dtype = _infer_dtype(value)
    a = np.array(value, dtype=dtype.numpy_dtype)
    if like is not None and like._data.__class__ is not np.ndarray:
        a = module_for(like.device).asarray(a)
    return wrap(a)


def zeros_from_meta(meta):
    """Zeros for a (shape, dtype, device) triple (custom Functions' unused outputs)."""
    shape, dtype, dev = meta
    return wrap(module_for(dev).zeros(shape, dtype=dtype.numpy_dtype))


# ---------------------------------------------------------------------------
# Factories
# ---------------------------------------------------------------------------

def parse_size(size, name):
    """Accept ``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])``, ``f(torch.Size(...))``; check PyTorch's errors."""
    if len(size) == 1 and isinstance(size[0], (tuple, list, Size)):
        size = tuple(size[0])
    out = []
    for s in size:
        if isinstance(s, Tensor) and s._data.ndim == 0 and s._data.dtype.kind in "iu":
            s = int(s.item())
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not "
                            f"{type(s).__name__}")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: [{', '.join(map(str, size))}]")
        out.append(int(s))
    return tuple(out)


def _factory(fill, size, name, dtype, device, requires_grad):
    _check_dtype(dtype)
    shape = parse_size(size, name)
    dt = dtype or _dtype.get_default_dtype()
    xp = module_for(resolve(device))
    if fill is None:
        array = xp.empty(shape, dtype=dt.numpy_dtype)
    elif fill == 0:
        array = xp.zeros(shape, dtype=dt.numpy_dtype)
    else:
        array = xp.full(shape, fill, dtype=dt.numpy_dtype)
    return _finish(array, None if xp is np else device, requires_grad)


def zeros(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """A tensor of zeros of the given shape (float32 unless ``dtype``). Mirrors ``torch.zeros``.

    Raises:
        RuntimeError: a negative size. TypeError: a non-integer size.
    """
    return _factory(0, size, "zeros", dtype, device, requires_grad)


def ones(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """A tensor of ones of the given shape. Mirrors ``torch.ones``."""
    return _factory(1, size, "ones", dtype, device, requires_grad)


def empty(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """An *uninitialised* tensor: its values are whatever was in memory. Mirrors ``torch.empty``."""
    return _factory(None, size, "empty", dtype, device, requires_grad)


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """A tensor of ``size`` filled with ``fill_value``; the dtype follows the value (5 -> int64,
    0.5 -> float32, True -> bool). Mirrors ``torch.full``.

    Raises:
        TypeError: ``size`` not a tuple/list of ints.
    """
    if not isinstance(size, (tuple, list, Size)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}")
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    dt = dtype or _infer_dtype(fill_value)
    return _factory(fill_value, (tuple(size),), "full", dt, device, requires_grad)


def _like(input, dtype, device):
    return (dtype or input.dtype), (device if device is not None else input.device)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Zeros with ``input``'s shape, dtype and device (each overridable). Mirrors ``torch.zeros_like``."""
    dt, dev = _like(input, dtype, device)
    return zeros(input._data.shape, dtype=dt, device=dev, requires_grad=requires_grad)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Ones with ``input``'s shape, dtype and device. Mirrors ``torch.ones_like``."""
    dt, dev = _like(input, dtype, device)
    return ones(input._data.shape, dtype=dt, device=dev, requires_grad=requires_grad)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Uninitialised, with ``input``'s shape, dtype and device. Mirrors ``torch.empty_like``."""
    dt, dev = _like(input, dtype, device)
    return empty(input._data.shape, dtype=dt, device=dev, requires_grad=requires_grad)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """``fill_value`` everywhere, with ``input``'s shape, dtype (the value is converted) and device.
    Mirrors ``torch.full_like``."""
    dt, dev = _like(input, dtype, device)
    value = fill_value
    if dt._kind == "i" and isinstance(value, float):
        value = int(value)      # converted like a C cast: 2.75 -> 2
    return full(input._data.shape, value, dtype=dt, device=dev, requires_grad=requires_grad)


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The ``n x m`` identity matrix (``m = n`` by default). Mirrors ``torch.eye``.

    Raises:
        RuntimeError: a negative size.
    """
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is None:
        m = n
    if m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    dt = dtype or _dtype.get_default_dtype()
    xp = module_for(resolve(device))
    return _finish(xp.eye(n, m, dtype=dt.numpy_dtype), None if xp is np else device, requires_grad)


def _number(x, name):
    if isinstance(x, Tensor):
        return x.item()
    if not isinstance(x, (int, float, np.number)):
        raise TypeError(f"{name}(): argument must be a number, not {type(x).__name__}")
    return x


def arange(start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """Evenly spaced values in ``[start, end)`` with ``step``; int64 when all of them are ints, else
    the default float dtype. Mirrors ``torch.arange``.

    ``arange(n)`` is ``0, 1, ..., n-1``.  The number of values is
    ``ceil((end - start) / step)``; use ``linspace`` to fix the count instead.

    Raises:
        RuntimeError: a zero step, a step whose sign points away from
            ``end``, or a non-finite bound (PyTorch's messages).
    """
    if end is None:
        start, end = 0, start
    start, end, step = (_number(v, "arange") for v in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    for v in (start, end):
        if isinstance(v, float) and not math.isfinite(v):
            raise RuntimeError(f"unsupported range: {start} -> {end}")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = _dtype.int64 if is_int else _dtype.get_default_dtype()
    n = int(math.ceil((end - start) / step))
    if dtype._kind == "f":
        # values are computed in double precision, then rounded once, as PyTorch does
        values = (start + step * np.arange(n, dtype=np.float64)).astype(dtype.numpy_dtype)
    else:
        values = (int(start) + int(step) * np.arange(n, dtype=np.int64)).astype(dtype.numpy_dtype)
    xp = module_for(resolve(device))
    return _finish(values, device if xp is not np else None, requires_grad)


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """``steps`` evenly spaced values from ``start`` to ``end``, both included. Mirrors ``torch.linspace``.

    ``linspace(0, 10, 5)`` is ``[0, 2.5, 5, 7.5, 10]``.  The first half is
    computed from ``start`` and the second half from ``end``, as in
    PyTorch, so the end points are exact.

    Raises:
        RuntimeError: a negative ``steps``.
    """
    start, end = _number(start, "linspace"), _number(end, "linspace")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dt = dtype or _dtype.get_default_dtype()
    values = _linspace_values(start, end, int(steps), dt)
    xp = module_for(resolve(device))
    return _finish(values, device if xp is not np else None, requires_grad)


def _linspace_values(start, end, steps, dt):
    if steps == 0:
        return np.zeros(0, dtype=dt.numpy_dtype)
    if steps == 1:
        return np.array([start], dtype=np.float64).astype(dt.numpy_dtype)
    i = np.arange(steps, dtype=np.float64)
    halfway = steps // 2
    if dt._kind == "f":
        # PyTorch computes in the tensor's own precision: step and bounds rounded to dt first;
        # each value is one fused multiply-add, emulated exactly in float64 (for float32/16).
        cast = dt.numpy_dtype.type
        s, e = float(cast(start)), float(cast(end))
        step = float(cast((cast(e) - cast(s)) / cast(steps - 1))) if dt.itemsize < 8 else (e - s) / (steps - 1)
        values = np.where(i < halfway, s + step * i, e - step * (steps - i - 1))
        return values.astype(dt.numpy_dtype)
    step = (float(end) - float(start)) / (steps - 1)
    values = np.where(i < halfway, start + step * i, end - step * (steps - i - 1))
    return values.astype(np.int64).astype(dt.numpy_dtype)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False):
    """``base ** linspace(start, end, steps)``. Mirrors ``torch.logspace``."""
    dt = dtype or _dtype.get_default_dtype()
    exps = _linspace_values(start, end, int(steps), _dtype.float64)
    values = (float(base) ** exps).astype(dt.numpy_dtype)
    xp = module_for(resolve(device))
    return _finish(values, device if xp is not np else None, requires_grad)


# ---------------------------------------------------------------------------
# Legacy constructors: torch.Tensor(...), torch.FloatTensor(...), ...
# ---------------------------------------------------------------------------

_LEGACY_SIGNATURES = (" * (*, torch.device device = None)\n"
                      "      didn't match because some of the keywords were incorrect: {kw}\n"
                      " * (torch.Storage storage)\n"
                      " * (Tensor other)\n"
                      " * (tuple of ints size, *, torch.device device = None)\n"
                      " * (object data, *, torch.device device = None)\n")


def _options_name(dt):
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int", "int16": "short int",
            "int8": "signed char", "uint8": "unsigned char", "bool": "bool", "float16": "c10::Half"}[dt.name]


def legacy_new(dt, args, kwargs, cls=Tensor):
    """PyTorch's legacy constructor ``torch.Tensor(*args)`` (and the typed ``torch.FloatTensor`` ...).

    * ``Tensor(2, 3)`` or ``Tensor(torch.Size([2, 3]))``: uninitialised, of that shape;
    * ``Tensor([1, 2])``, ``Tensor((1, 2))``, ``Tensor(ndarray)``: a copy of the data, of dtype ``dt``;
    * ``Tensor(t)``: ``t`` itself viewed anew (shares memory), if its dtype is ``dt``... or any dtype
      for ``torch.Tensor`` (it keeps int64 tensors int64, as PyTorch does).
    """
    device = kwargs.pop("device", None)
    if kwargs:
        got = ", ".join([type(a).__name__ for a in args] + [f"{k}={_kw_type(v)}" for k, v in kwargs.items()])
        raise TypeError(f"new() received an invalid combination of arguments - got ({got}), but expected one "
                        "of:\n" + _LEGACY_SIGNATURES.format(kw=", ".join(kwargs)))
    if not args:
        return _finish(np.zeros(0, dtype=dt.numpy_dtype), device, False)
    if len(args) == 1:
        a = args[0]
        if isinstance(a, Tensor):
            if cls is Tensor or a.dtype is dt:
                t = wrap(a._data)
                t._storage, t._version_ref = a._storage, a._version_counter()
                return t
            raise TypeError(f"expected TensorOptions(dtype={_options_name(dt)}, device=cpu, layout=Strided, "
                            "requires_grad=false (default), pinned_memory=false (default), "
                            "memory_format=(nullopt)) (got TensorOptions(dtype="
                            f"{_options_name(a.dtype)}, device=cpu, layout=Strided, requires_grad=false "
                            "(default), pinned_memory=false (default), memory_format=(nullopt)))")
        if isinstance(a, Size):
            return _finish(np.empty(tuple(a), dtype=dt.numpy_dtype), device, False)
        if isinstance(a, (list, tuple, np.ndarray, range)):
            array, _ = _data_to_array(a, dt)
            return _finish(array, device, False)
        if isinstance(a, float) or isinstance(a, str) or isinstance(a, bool):
            raise TypeError(f"new(): data must be a sequence (got {type(a).__name__})")
    if all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in args):
        shape = parse_size(args, "new")
        return _finish(np.empty(shape, dtype=dt.numpy_dtype), device, False)
    got = ", ".join(type(a).__name__ for a in args)
    raise TypeError(f"new() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                    + _LEGACY_SIGNATURES.format(kw=""))


def _kw_type(v):
    return "torch.dtype" if isinstance(v, _dtype.dtype) else type(v).__name__


class _LegacyTensorType(type):
    """Metaclass of ``torch.FloatTensor`` and friends: calling one builds a tensor of its dtype, and
    ``isinstance(t, torch.FloatTensor)`` checks the dtype (and that ``t`` is on the CPU)."""

    def __call__(cls, *args, **kwargs):
        return legacy_new(cls._dtype_of_type, args, kwargs, cls)

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj._data.dtype == cls._dtype_of_type.numpy_dtype \
            and device_of(obj._data).type == "cpu"

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"

    @property
    def dtype(cls):
        return cls._dtype_of_type


def _legacy_type(name, dt):
    return _LegacyTensorType(name, (), {"_dtype_of_type": dt, "__module__": "torch",
                                        "__doc__": f"Legacy constructor for {dt!r} CPU tensors "
                                                   f"(``torch.{name}``)."})


FloatTensor = _legacy_type("FloatTensor", _dtype.float32)
DoubleTensor = _legacy_type("DoubleTensor", _dtype.float64)
HalfTensor = _legacy_type("HalfTensor", _dtype.float16)
IntTensor = _legacy_type("IntTensor", _dtype.int32)
LongTensor = _legacy_type("LongTensor", _dtype.int64)
ShortTensor = _legacy_type("ShortTensor", _dtype.int16)
CharTensor = _legacy_type("CharTensor", _dtype.int8)
ByteTensor = _legacy_type("ByteTensor", _dtype.uint8)
BoolTensor = _legacy_type("BoolTensor", _dtype.bool)
