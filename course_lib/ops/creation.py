"""Creating tensors: ``tensor``, ``as_tensor``, ``from_numpy`` and the factory functions (the legacy
constructors ``torch.Tensor(...)``, ``torch.FloatTensor(...)`` are ``course_lib/legacy.py``).

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
import operator
import warnings

import numpy as np

from ..core.backend import backend_of, to_numpy
from ..core.grad_mode import state
from ..core.layout import contiguous_strides, strided
from ..core.tensor import Tensor, wrap
from ..devices import module_for, resolve
from ..torch_compat import dtypes as _dtype
from ..torch_compat.arguments import Signature, int_list, invalid_arguments, unknown_keywords
from ..torch_compat.device import device as _device
from ..torch_compat.fma import fma
from ..torch_compat.layouts import empty_preserving
from ..torch_compat.names import type_name

__all__ = ["tensor", "as_tensor", "asarray", "from_numpy", "zeros", "ones", "empty", "full", "zeros_like",
           "ones_like", "empty_like", "full_like", "eye", "arange", "linspace", "logspace", "scalar_tensor",
           "check_out", "into_out"]


# ---------------------------------------------------------------------------
# Python data -> array (PyTorch's internal_new_from_data: sizes, then dtype, then the elements)
# ---------------------------------------------------------------------------

_MAX_DIMS = 64


def _is_number(value):
    return isinstance(value, (int, float, np.number, np.bool_))


def _is_sequence(obj):
    """Python's sequence check, as PyTorch uses it: lists, tuples, ranges, strings, NumPy arrays (not tensors)."""
    return isinstance(obj, (list, tuple, range, str, bytes, np.ndarray))


def _compute_sizes(data):
    """The shape of nested data, read along the first element of each level.

    Raises:
        ValueError: more than 64 levels ("too many dimensions 'str'", what a string inside a list gives).
        TypeError: a 0-d NumPy array inside a list (its ``len()`` fails).
    """
    sizes = []
    while _is_sequence(data):
        n = len(data)
        sizes.append(n)
        if len(sizes) > _MAX_DIMS:
            raise ValueError(f"too many dimensions '{type_name(data)}'")
        if n == 0:
            break
        data = data[0]
    return tuple(sizes)


def _infer_dtype(obj):
    """PyTorch's dtype for Python data: the promotion of all its elements' dtypes.

    Python ints are int64, floats the default dtype, bools bool; tensors,
    NumPy arrays and NumPy scalars bring their own dtype; an empty list is
    the default dtype.

    Raises:
        TypeError: strings ("new(): invalid data type 'str'").
        RuntimeError: anything else ("Could not infer dtype of NoneType").
    """
    if isinstance(obj, Tensor):
        return obj.dtype
    if isinstance(obj, (np.ndarray, np.generic)):
        return _dtype.from_numpy_dtype(obj.dtype)
    if isinstance(obj, bool):
        return _dtype.bool
    if isinstance(obj, int):
        return _dtype.int64
    if isinstance(obj, float):
        return _dtype.get_default_dtype()
    if isinstance(obj, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type_name(obj)}'")
    if isinstance(obj, (list, tuple, range)):
        result = None
        for item in obj:
            d = _infer_dtype(item)
            result = d if result is None else _dtype.promote_types(result, d)
        return result or _dtype.get_default_dtype()
    raise RuntimeError(f"Could not infer dtype of {type_name(obj)}")


def _to_double(value, dt):
    if value.__class__ is float:
        return value
    if isinstance(value, (str, bytes, list, tuple, range, np.ndarray)) or value is None:
        raise TypeError(f"must be real number, not {type_name(value)}")
    return float(value)


def _to_integral(value, dt):
    if isinstance(value, np.bool_):
        value = bool(value)
    if isinstance(value, float):
        return _dtype.checked_value(value, dt, dt.name)
    value = operator.index(value)        # TypeError: "'list' object cannot be interpreted as an integer"
    if not -2 ** 63 <= value < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    return _dtype.checked_value(value, dt, dt.name)


def _to_bool(value, dt):
    return bool(value) if isinstance(value, (float, np.generic, Tensor)) else bool(operator.index(value))


_ELEMENT = {"f": _to_double, "i": _to_integral, "b": _to_bool}


def _store(data, sizes, dim, out):
    """Append the elements of nested ``data`` to ``out``, checking every length like PyTorch."""
    if dim == len(sizes):
        out.append(data)
        return
    if not _is_sequence(data):
        raise TypeError("not a sequence")
    if len(data) != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(data)})")
    if isinstance(data, np.ndarray) and data.shape == sizes[dim:]:
        out.extend(data.reshape(-1).tolist())
        return
    for item in data:
        _store(item, sizes, dim + 1, out)


def _data_to_array(data, dtype):
    """A NumPy array (a copy) from Python data, an ndarray or a tensor; returns ``(array, dtype)``.

    Raises:
        ValueError: ragged nested lists ("expected sequence of length 3 at dim 1 (got 2)").
        TypeError: strings, elements that are not numbers.
        RuntimeError: elements that do not fit ``dtype``, data of unknown type.
    """
    if isinstance(data, Tensor):
        a = to_numpy(data._data)
        dt = dtype or data.dtype
        return a.astype(dt.numpy_dtype, copy=True), dt
    if isinstance(data, np.ndarray):
        if any(s < 0 for s in data.strides):
            raise ValueError(_NEGATIVE_STRIDES)
        dt = dtype or _dtype.from_numpy_dtype(data.dtype)
        return np.array(data, dtype=dt.numpy_dtype, copy=True), dt
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type_name(data)}'")
    sizes = _compute_sizes(data)
    if isinstance(data, list) and data and isinstance(data[0], np.ndarray):
        warnings.warn("Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting "
                      "the list to a single numpy.ndarray with numpy.array() before converting to a tensor. "
                      "(Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:252.)",
                      UserWarning, stacklevel=3)
    dt = dtype or _infer_dtype(data)
    values = []
    if math.prod(sizes):
        _store(data, sizes, 0, values)
    convert = _ELEMENT[dt._kind]
    with np.errstate(over="ignore"):
        array = np.array([convert(v, dt) for v in values], dtype=dt.numpy_dtype)
    if not values:                     # a new empty tensor, not a view (stride() of tensor([]) is (1,))
        return np.empty(sizes, dtype=dt.numpy_dtype), dt
    return array.reshape(sizes), dt


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


_NO_DATA = object()        # tensor() without data: PyTorch's own message


def tensor(data=_NO_DATA, *args, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a **copy** of ``data`` (a number, nested lists/tuples, a NumPy array or a tensor).

    The dtype is inferred as PyTorch does (ints -> int64, floats -> float32,
    bools -> bool; a NumPy array keeps its dtype) unless ``dtype`` is given.
    A Python number gives a 0-d tensor.  Mirrors ``torch.tensor``.

    Raises:
        ValueError: ragged nested lists ("expected sequence of length 3 at dim 1 (got 2)").
        TypeError: strings ("new(): invalid data type 'str'"), unknown keywords.
        RuntimeError: ``requires_grad=True`` with a non-floating dtype; data of unknown type.
    """
    if data is _NO_DATA:
        raise TypeError('tensor() missing 1 required positional arguments: "data"')
    if args:                                 # torch.tensor([1, 2], torch.float32): dtype= was forgotten
        raise TypeError(f"tensor() takes 1 positional argument but {len(args) + 1} were given")
    dtype = _keywords("tensor", dtype, requires_grad)
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
    dtype = _dtype.as_dtype(dtype, "as_tensor")
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


def number_tensor(value, like=None):
    """A Python number as a 0-d tensor of its own dtype (int64, the default float, bool), on ``like``'s device.

    This is how PyTorch "wraps" a number that is the first operand (``2 - t``).
    """
    a = np.array(value, dtype=_infer_dtype(value).numpy_dtype)
    if like is not None and like._data.__class__ is not np.ndarray:
        a = module_for(like.device).asarray(a)
    return wrap(a)


def scalar_tensor(s, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """A 0-d tensor holding the number ``s``, of the default float dtype unless ``dtype`` is given.

    Mirrors ``torch.scalar_tensor``.
    """
    dt = _keywords("scalar_tensor", dtype, requires_grad) or _dtype.get_default_dtype()
    return _finish(np.array(_fill_value(s, dt, 1)), device, requires_grad)



# ---------------------------------------------------------------------------
# Factories
# ---------------------------------------------------------------------------

# out=: ``torch.zeros(2, 3, out=t)`` writes into ``t`` and returns ``t`` itself.  PyTorch first checks ``out``
# against the dtype and device asked for (``check_out_type_matches`` in torch/csrc/utils/python_arg_parser),
# then its autograd layer refuses an ``out`` that requires grad, then the kernel resizes ``out`` to the
# result's shape (``resize_``: same memory when it fits) and writes; last, the binding sets ``out``'s
# ``requires_grad`` to the ``requires_grad=`` given (False by default).

def check_out(name, out, args=(), signatures=None):
    """``out`` must be a tensor: PyTorch's TypeError, in the one-signature form (``zeros(): argument 'out'
    must be Tensor, not list``) or, with ``signatures``, the "invalid combination" form."""
    if not isinstance(out, Tensor):
        if signatures is None:
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type_name(out)}")
        raise invalid_arguments(name, signatures, args, {"out": out})


def _resize(out, shape):
    """``out.resize_(shape)`` as PyTorch does it: the same memory, from the same offset, when it holds enough
    elements; new memory otherwise.  (Where PyTorch grows the storage that other views share, course_lib gives
    ``out`` new memory of its own: those views keep seeing the old values.)"""
    storage = out._data if out._storage is None else out._storage
    offset = out.storage_offset()
    if storage.__class__ is np.ndarray and storage.flags.c_contiguous and offset + math.prod(shape) <= storage.size:
        out._data = strided(storage, shape, contiguous_strides(shape), offset)
        out._storage = storage
    else:
        out._data = backend_of(out._data).empty(shape, dtype=out._data.dtype)
        out._storage = None


def into_out(name, out, make, dtype, device, requires_grad, *, resize="shape", fill=True, shape=()):
    """Run a factory into ``out`` as PyTorch's ``out=`` overloads do, and return ``out``.

    ``make(dtype, device)`` computes the values, as the factory does when given ``dtype=`` (so
    ``arange(0, 5, 1.5, out=int64_tensor)`` truncates like ``dtype=torch.int64``).  ``resize``: "shape"
    gives ``out`` the result's shape; "numel" only when the element count differs (``arange``, ``linspace``:
    ``out`` of shape (5, 1) stays so); "warn" does that with ``arange``'s warning.  ``fill=False``
    (``empty``) resizes and writes nothing.  ``requires_grad`` becomes ``out``'s flag.

    Raises:
        RuntimeError: ``dtype`` or ``device`` other than ``out``'s ("dtype Long does not match dtype of out
            parameter (Float)"); ``out`` requiring grad while grad mode is on (``empty``, ``randn``: "cannot
            resize variables that require grad", in any mode); a negative size in ``shape`` (the size asked
            for, which ``out`` is resized to: "numel: integer multiplication overflow"); an integer ``out``
            with ``requires_grad=True``.
    """
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"dtype {dtype._short_name} does not match dtype of out parameter "
                           f"({out.dtype._short_name})")
    if device is not None:
        wanted = device if device.__class__ is _device else _device(device)
        if wanted.type != out.device.type:
            raise RuntimeError(f"device type {wanted.type} does not match device type of out parameter "
                               f"({out.device.type})")
    if out.requires_grad:
        if name in ("empty", "randn"):
            raise RuntimeError("cannot resize variables that require grad")
        if state.enabled:
            raise RuntimeError(f"aten::{name}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
    if any(size < 0 for size in shape):
        raise RuntimeError("numel: integer multiplication overflow")
    result = make(out.dtype, out.device)._data
    n = result.size
    if resize == "shape" and out._data.shape != result.shape:
        _resize(out, result.shape)
        if not fill:
            out._bump()
    elif resize != "shape" and out._data.size != n:
        if resize == "warn" and out._data.size:
            warnings.warn(f"The number of elements in the out tensor of shape [{', '.join(map(str, out.shape))}] "
                          f"is {out._data.size} which does not match the computed number of elements {n}. Note "
                          "that this may occur as a result of rounding error. The out tensor will be resized to a "
                          f"tensor of shape ({n},). (Triggered internally at "
                          "/__w/pytorch/pytorch/aten/src/ATen/native/RangeFactories.cpp:199.)", UserWarning,
                          stacklevel=3)
        _resize(out, (n,))
    if fill:
        out._data[...] = result.reshape(out._data.shape)
        out._bump()
    if requires_grad and out._data.dtype.kind != "f":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    out._requires_grad = requires_grad
    return out


_OPTIONS = ("torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False")
_SIZE_SIGNATURES = (Signature(f"(tuple of ints size, *, Tensor out = None, {_OPTIONS})"),)


def _keywords(name, dtype, requires_grad):
    """The dtype (Python's float/int/bool name float64/int64/bool) after PyTorch's keyword checks."""
    if requires_grad is not True and requires_grad is not False:
        raise TypeError(f"{name}(): argument 'requires_grad' must be bool, not {type_name(requires_grad)}")
    return _dtype.as_dtype(dtype, name)


def parse_size(size, name, signatures=_SIZE_SIGNATURES, position=1, negative=True):
    """Sizes given as ``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` or ``f(torch.Size(...))``, checked like PyTorch.

    ``negative=False`` leaves negative sizes to the caller (``out=``: ``into_out`` refuses them later).

    Raises:
        TypeError: no size, or sizes that are not ints (PyTorch's messages).
        RuntimeError: a negative size.
    """
    if not size or len(size) > 1 and isinstance(size[0], (tuple, list)):
        raise invalid_arguments(name, signatures, size)
    shape = int_list(name, "size", size, position)
    for s in shape if negative else ():
        if s < 0:
            if name == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: [{', '.join(map(str, shape))}]")
    return shape


_MISSING = object()        # an argument not given (None is a value some of PyTorch's errors name)


def size_keyword(name, sizes, size, signatures=None):
    """The size given as ``size=`` (``zeros(size=(2, 3))``), which PyTorch accepts: as the one positional form.

    Raises:
        TypeError: sizes given both ways, or a ``size=`` that is not a tuple or list (PyTorch's messages).
    """
    if sizes:
        if signatures is not None:
            raise invalid_arguments(name, signatures, sizes, {"size": size})
        raise TypeError(f"{name}() got multiple values for argument 'size'")
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"{name}(): argument 'size' must be tuple of ints, not {type_name(size)}")
    return (size,)


def _factory(fill, size, name, dtype, device, requires_grad):
    dt = _keywords(name, dtype, requires_grad) or _dtype.get_default_dtype()
    shape = parse_size(size, name)
    xp = module_for(resolve(device))
    try:
        if fill is None:
            array = xp.empty(shape, dtype=dt.numpy_dtype)
        elif fill == 0:
            array = xp.zeros(shape, dtype=dt.numpy_dtype)
        else:
            array = xp.ones(shape, dtype=dt.numpy_dtype)
    except (MemoryError, ValueError):
        raise allocation_error(shape, dt.itemsize) from None
    return _finish(array, None if xp is np else device, requires_grad)


def zeros(*sizes, size=_MISSING, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """A tensor of zeros of the given shape (float32 unless ``dtype``). Mirrors ``torch.zeros``.

    Raises:
        RuntimeError: a negative size. TypeError: a size that is not a tuple of ints.
    """
    if size is not _MISSING:
        sizes = size_keyword("zeros", sizes, size)
    if out is not None:
        check_out("zeros", out)
        _keywords("zeros", dtype, requires_grad)
        shape = parse_size(sizes, "zeros", negative=False)
        return into_out("zeros", out, lambda dt, dev: _factory(0, shape, "zeros", dt, dev, False), dtype, device,
                        requires_grad, shape=shape)
    return _factory(0, sizes, "zeros", dtype, device, requires_grad)


def ones(*sizes, size=_MISSING, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """A tensor of ones of the given shape (float32 unless ``dtype``). Mirrors ``torch.ones``.

    Raises:
        RuntimeError: a negative size. TypeError: a size that is not a tuple of ints.
    """
    if size is not _MISSING:
        sizes = size_keyword("ones", sizes, size)
    if out is not None:
        check_out("ones", out)
        _keywords("ones", dtype, requires_grad)
        shape = parse_size(sizes, "ones", negative=False)
        return into_out("ones", out, lambda dt, dev: _factory(1, shape, "ones", dt, dev, False), dtype, device,
                        requires_grad, shape=shape)
    return _factory(1, sizes, "ones", dtype, device, requires_grad)


def empty(*sizes, size=_MISSING, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          memory_format=None):
    """An *uninitialised* tensor: its values are whatever was in memory. Mirrors ``torch.empty``.

    Raises:
        RuntimeError: a negative size. TypeError: a size that is not a tuple of ints.
    """
    if size is not _MISSING:
        sizes = size_keyword("empty", sizes, size)
    if out is not None:
        check_out("empty", out)
        _keywords("empty", dtype, requires_grad)
        return into_out("empty", out, lambda dt, dev: _factory(None, sizes, "empty", dt, dev, False), dtype, device,
                        requires_grad, fill=False)
    return _factory(None, sizes, "empty", dtype, device, requires_grad)


_FULL = (Signature(f"(tuple of ints size, Number fill_value, *, Tensor out = None, {_OPTIONS})"),)


def _fill_value(value, dt, numel=2):
    """A number (or one-element tensor) as an element of ``dt``, checked like PyTorch's ``fill_`` of a tensor
    with ``numel`` elements (filling one float16 element, PyTorch does not check the range)."""
    if isinstance(value, Tensor):
        value = value.item()
    with np.errstate(over="ignore"):
        return dt.numpy_dtype.type(_dtype.checked_value(value, dt, scalar=numel != 1))


def full(size=_MISSING, fill_value=_MISSING, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """A tensor of ``size`` filled with ``fill_value``; the dtype follows the value (5 -> int64,
    0.5 -> float32, True -> bool) unless ``dtype`` is given. Mirrors ``torch.full``.

    Raises:
        TypeError: ``size`` not a tuple of ints, ``fill_value`` not a number.
        RuntimeError: a value that does not fit ``dtype`` ("value cannot be converted to type uint8_t
            without overflow"), a negative size.
    """
    dt = _keywords("full", dtype, requires_grad)
    if not isinstance(size, (tuple, list)) or not (isinstance(fill_value, Tensor) or _is_number(fill_value)):
        args = tuple(a for a in (size, fill_value) if a is not _MISSING)
        kwargs = {} if size is not _MISSING or fill_value is _MISSING else {"fill_value": fill_value}
        raise invalid_arguments("full", _FULL, args[:len(args) - len(kwargs)], kwargs)
    if fill_value.__class__ is int and not -2 ** 63 <= fill_value < 2 ** 64:     # PyTorch's Scalar refuses it
        raise OverflowError("int too big to convert" if fill_value > 0 else "can't convert negative int to unsigned")
    shape = parse_size((size,), "full", _FULL, negative=out is None)
    if out is not None:
        check_out("full", out)
        return into_out("full", out, lambda d, dev: full(shape, fill_value, dtype=d, device=dev), dt, device,
                        requires_grad, shape=shape)
    dt = dt or _infer_dtype(fill_value.item() if isinstance(fill_value, Tensor) else fill_value)
    xp = module_for(resolve(device))
    value = _fill_value(fill_value, dt, math.prod(shape))
    try:
        array = xp.full(shape, value, dtype=dt.numpy_dtype)
    except (MemoryError, ValueError):
        raise allocation_error(shape, dt.itemsize) from None
    return _finish(array, None if xp is np else device, requires_grad)


def _like(name, input, dtype, device, requires_grad):
    """An uninitialised array like ``input``'s (its layout kept, as ``torch.preserve_format`` does)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type_name(input)}")
    dt = _keywords(name, dtype, requires_grad) or input.dtype
    xp = module_for(resolve(device)) if device is not None else backend_of(input._data)
    return empty_preserving(input._data, dt.numpy_dtype, xp), dt


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Zeros with ``input``'s shape, dtype, device and memory layout (each overridable). Mirrors ``torch.zeros_like``.

    Raises:
        TypeError: ``input`` is not a tensor.
    """
    array, _ = _like("zeros_like", input, dtype, device, requires_grad)
    array[...] = 0
    return _finish(array, None, requires_grad)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Ones with ``input``'s shape, dtype, device and memory layout. Mirrors ``torch.ones_like``.

    Raises:
        TypeError: ``input`` is not a tensor.
    """
    array, _ = _like("ones_like", input, dtype, device, requires_grad)
    array[...] = 1
    return _finish(array, None, requires_grad)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Uninitialised, with ``input``'s shape, dtype, device and memory layout. Mirrors ``torch.empty_like``.

    Raises:
        TypeError: ``input`` is not a tensor.
    """
    array, _ = _like("empty_like", input, dtype, device, requires_grad)
    return _finish(array, None, requires_grad)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """``fill_value`` everywhere, with ``input``'s shape, dtype (the value is converted, 2.75 -> 2 for
    integers), device and memory layout. Mirrors ``torch.full_like``.

    Raises:
        TypeError: ``input`` is not a tensor.
        RuntimeError: a value that does not fit the dtype.
    """
    array, dt = _like("full_like", input, dtype, device, requires_grad)
    array[...] = _fill_value(fill_value, dt, array.size)
    return _finish(array, None, requires_grad)


_EYE = (Signature(f"(int n, *, Tensor out = None, {_OPTIONS})"),
        Signature(f"(int n, int m, *, Tensor out = None, {_OPTIONS})"))


def eye(n, m=_MISSING, *extra, out=None, dtype=None, layout=None, device=None, requires_grad=False, **kwargs):
    """The ``n x m`` identity matrix (``m = n`` by default). Mirrors ``torch.eye``.

    Raises:
        RuntimeError: a negative size. TypeError: sizes that are not ints, other arguments (PyTorch's messages).
    """
    args = (n,) if m is _MISSING else (n, m) + extra
    if extra or kwargs:
        raise unknown_keywords("eye", _EYE, args, kwargs, out=out, dtype=dtype, layout=layout, device=device,
                               requires_grad=requires_grad)
    given = _keywords("eye", dtype, requires_grad)
    dt = given or _dtype.get_default_dtype()
    if not all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        raise invalid_arguments("eye", _EYE, args)
    if out is not None:
        check_out("eye", out, args, _EYE)
        return into_out("eye", out, lambda d, dev: eye(*args, dtype=d, device=dev), given, device, requires_grad)
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is _MISSING:
        m = n
    if m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    xp = module_for(resolve(device))
    return _finish(xp.eye(int(n), int(m), dtype=dt.numpy_dtype), None if xp is np else device, requires_grad)


_ARANGE = (Signature(f"(Number end, *, Tensor out = None, {_OPTIONS})"),
           Signature(f"(Number start, Number end, *, {_OPTIONS})"),
           Signature(f"(Number start, Number end, Number step = 1, *, Tensor out = None, {_OPTIONS})"))


def _scalar(x):
    """A Number argument as a Python number (0-d tensors too)."""
    return x.item() if isinstance(x, Tensor) else x


def _range_keywords(args, start, end, step):
    """``arange(start=..., end=..., step=...)`` as positional arguments (PyTorch takes the keywords too)."""
    # (PyTorch lists keyword arguments in its error last first)
    kwargs = {k: v for k, v in (("step", step), ("end", end), ("start", start)) if v is not _MISSING}
    if not args and start is _MISSING and step is _MISSING:
        return (end,)                                   # arange(end=5)
    slots = dict(zip(("start", "end", "step"), args))
    if end is _MISSING and "end" not in slots and start is not _MISSING and not args:
        raise TypeError('arange() missing 1 required positional arguments: "end"')
    if len(args) > 3 or any(k in slots for k in kwargs) or (end is _MISSING and "end" not in slots) or \
            (start is _MISSING and "start" not in slots):
        raise invalid_arguments("arange", _ARANGE, args, kwargs)
    slots.update(kwargs)
    return tuple(slots[k] for k in ("start", "end", "step") if k in slots)


def arange(*args, start=_MISSING, end=_MISSING, step=_MISSING, out=None, dtype=None, layout=None, device=None,
           requires_grad=False, **kwargs):
    """Evenly spaced values in ``[start, end)`` with ``step``: ``arange(end)``, ``arange(start, end)``,
    ``arange(start, end, step)``.  int64 when all of them are ints, else the default float dtype.
    Mirrors ``torch.arange``.

    ``arange(n)`` is ``0, 1, ..., n-1``.  The number of values is
    ``ceil((end - start) / step)``; use ``linspace`` to fix the count instead.
    With an integer ``dtype`` the bounds and the step are truncated first.

    Raises:
        RuntimeError: a zero step, a step whose sign points away from
            ``end``, or a non-finite bound (PyTorch's messages).
        TypeError: arguments that are not numbers.
    """
    if kwargs:
        given = {k: v for k, v in (("start", start), ("end", end), ("step", step)) if v is not _MISSING}
        raise unknown_keywords("arange", _ARANGE, args, {**given, **kwargs}, out=out, dtype=dtype, layout=layout,
                               device=device, requires_grad=requires_grad)
    if start is not _MISSING or end is not _MISSING or step is not _MISSING:
        args = _range_keywords(args, start, end, step)
    dt = _keywords("arange", dtype, requires_grad)
    if not 1 <= len(args) <= 3 or not all(_is_number(a) or isinstance(a, Tensor) and a._data.ndim == 0
                                          for a in args):
        raise invalid_arguments("arange", _ARANGE, args)
    if out is not None:
        check_out("arange", out, args, _ARANGE)
        return into_out("arange", out, lambda d, dev: arange(*args, dtype=d, device=dev), dt, device, requires_grad,
                        resize="warn")
    start, end, step = (0, _scalar(args[0]), 1) if len(args) == 1 else (
        tuple(_scalar(a) for a in args) + (1,))[:3]
    if dt is None:
        dt = _dtype.int64 if all(isinstance(v, (int, np.integer)) for v in (start, end, step)) \
            else _dtype.get_default_dtype()
    if dt is _dtype.bool:
        raise NotImplementedError('"arange_cpu" not implemented for \'Bool\'')
    fstart, fend, fstep = float(start), float(end), float(step)
    if not (fstep > 0 or fstep < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(fstart) and math.isfinite(fend)):
        raise RuntimeError(f"unsupported range: {fstart:g} -> {fend:g}")
    if not ((fstep > 0 and fend >= fstart) or (fstep < 0 and fend <= fstart)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dt._kind == "f":
        # values in double precision, rounded once to the dtype, as PyTorch computes them
        n = _checked_count(math.ceil((fend - fstart) / fstep))
        try:
            with np.errstate(over="ignore"):
                if dt.itemsize >= 4 and not (fstart.is_integer() and fstep.is_integer()
                                             and abs(fstart) + abs(fstep) * n < 2 ** 53):
                    values = _arange_float(fstart, fstep, n, dt.numpy_dtype)     # a fraction in the step
                else:                                                             # exact in double precision
                    values = (fstart + fstep * np.arange(n, dtype=np.float64)).astype(dt.numpy_dtype)
        except (MemoryError, ValueError):
            raise allocation_error((n,), dt.itemsize) from None
    else:
        istart, iend, istep = int(fstart), int(fend), int(fstep)    # truncated toward zero
        if dt is _dtype.int64:
            if not (-2**63 <= istart < 2**63 and -2**63 <= iend < 2**63 and -2**63 <= istep < 2**63):
                raise RuntimeError("value cannot be converted to type int64_t without overflow")
            if istep == 0:
                raise ValueError("step must be nonzero")
            sign = 1 if istep > 0 else -1
            n = _checked_count(_c_div(iend - istart + istep - sign, istep))
        else:
            n = _checked_count(math.ceil((fend - fstart) / fstep))
        try:
            values = (istart + istep * np.arange(n, dtype=np.int64)).astype(dt.numpy_dtype)
        except (MemoryError, ValueError):
            raise allocation_error((n,), dt.itemsize) from None
    xp = module_for(resolve(device))
    return _finish(values, device if xp is not np else None, requires_grad)


def _arange_float(start, step, n, np_dtype):
    """PyTorch's CPU ``arange`` values for float32 / float64: ``start + step * i`` as one fused multiply-add in
    double precision, except that blocks of 32 bytes (8 floats, 4 doubles) come from the block's first value
    rounded to the dtype plus ``k * step`` (its vectorised loop, which runs over pairs of blocks; the rest is
    element by element).  So ``arange(-8., 8., 0.1)[80]`` is 4.4409e-16, not 0, as in PyTorch."""
    i = np.arange(n, dtype=np.float64)
    values = fma(step, i, start).astype(np_dtype)
    width = 32 // np.dtype(np_dtype).itemsize
    full = n - n % (2 * width)
    if full:
        base = fma(step, i[:full:width], start).astype(np_dtype).astype(np.float64)
        k = np.arange(width, dtype=np.float64)
        values[:full] = fma(k[None, :], step, base[:, None]).reshape(-1).astype(np_dtype)
    return values


def _checked_count(n):
    """The number of values of a range, checked as PyTorch checks it (at most the largest int64)."""
    if n > 2**63 - 1:
        raise RuntimeError("invalid size, possible overflow?")
    return n


def allocation_error(shape, itemsize):
    """PyTorch's error for a tensor too large to allocate (where NumPy raises MemoryError or ValueError)."""
    nbytes = math.prod(shape) * itemsize
    if nbytes > 2**63 - 1:
        return RuntimeError(f"Storage size calculation overflowed with sizes=[{', '.join(map(str, shape))}]")
    return RuntimeError("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
                        f"you tried to allocate {nbytes} bytes. Error code 12 (Cannot allocate memory)")


def _c_div(a, b):
    """Integer division rounding toward zero, as in C."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


_LINSPACE = tuple(Signature(f"({a} start, {b} end, int steps, *, Tensor out = None, {_OPTIONS})")
                  for a, b in (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"), ("Number", "Number")))


def linspace(*args, out=None, dtype=None, layout=None, device=None, requires_grad=False, **kwargs):
    """``steps`` evenly spaced values from ``start`` to ``end``, both included: ``linspace(start, end, steps)``.
    Mirrors ``torch.linspace``.

    ``linspace(0, 10, 5)`` is ``[0, 2.5, 5, 7.5, 10]``.  The first half is
    computed from ``start`` and the second half from ``end``, as in
    PyTorch, so the end points are exact.

    Raises:
        RuntimeError: a negative ``steps``.
        TypeError: missing or non-number arguments.
    """
    given = _keywords("linspace", dtype, requires_grad)
    dt = given or _dtype.get_default_dtype()
    names = ("start", "end", "steps")
    args = args + tuple(kwargs.pop(k) for k in names[len(args):] if k in kwargs)
    if kwargs or len(args) != 3 or not all(_is_number(a) or isinstance(a, Tensor) for a in args[:2]) \
            or not (isinstance(args[2], (int, np.integer)) and not isinstance(args[2], bool)):
        raise invalid_arguments("linspace", _LINSPACE, args, kwargs)
    if out is not None:
        check_out("linspace", out, args, _LINSPACE)
        return into_out("linspace", out, lambda d, dev: linspace(*args, dtype=d, device=dev), given, device,
                        requires_grad, resize="numel")
    start, end, steps = _scalar(args[0]), _scalar(args[1]), int(args[2])
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dt is _dtype.bool and steps > 1:           # (0 or 1 values: PyTorch's kernel does not run)
        raise NotImplementedError('"linspace_cpu" not implemented for \'Bool\'')
    values = _linspace_values(start, end, steps, dt)
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
        if dt.itemsize == 8:                # float64: each value one fused multiply-add in double precision
            step = (e - s) / (steps - 1)
            return np.where(i < halfway, fma(step, i, s), fma(-step, steps - i - 1, e))
        step = float(cast((cast(e) - cast(s)) / cast(steps - 1)))
        if dt.itemsize == 2:                # float16: PyTorch's Half arithmetic rounds after each operation
            h = np.float16
            first = h(s) + (h(step) * i.astype(h)).astype(h)
            last = h(e) - (h(step) * (steps - i - 1).astype(h)).astype(h)
            return np.where(i < halfway, first, last).astype(h)
        values = np.where(i < halfway, s + step * i, e - step * (steps - i - 1))
        return values.astype(dt.numpy_dtype)
    if dt._kind == "b":
        raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
    # integers: the ends become numbers of the dtype first (2.5 is 2 in int8, -1 is 255 in uint8), the step and
    # each value are computed in double (one fused multiply-add) and truncated, as PyTorch's kernel does
    s, e = (float(np.array(int(_dtype.checked_value(v, dt, scalar=True))).astype(dt.numpy_dtype)) for v in (start, end))
    step = (e - s) / (steps - 1)
    values = np.where(i < halfway, fma(step, i, s), fma(-step, steps - i - 1, e))
    return np.trunc(values).astype(np.int64).astype(dt.numpy_dtype)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False):
    """``base ** linspace(start, end, steps)``. Mirrors ``torch.logspace``."""
    dt = dtype or _dtype.get_default_dtype()
    if dt is _dtype.bool and int(steps) > 1:
        raise NotImplementedError('"logspace_cpu" not implemented for \'Bool\'')
    exps = _linspace_values(start, end, int(steps), _dtype.float64)
    values = (float(base) ** exps).astype(dt.numpy_dtype)
    xp = module_for(resolve(device))
    return _finish(values, device if xp is not np else None, requires_grad)
