"""PyTorch's dtypes as PyTorch shows them: names, messages, ranges, and the dtypes course_lib lacks.

The nine dtypes and their promotion are the core's (``course_lib/core/dtypes.py``).  This module gives
them PyTorch's face: ``type(torch.float32)`` prints ``<class 'torch.dtype'>``; the names PyTorch's
messages use (``Float``, ``c10::Half``); PyTorch's other dtypes (``bfloat16``, complex, more unsigned
types), which can be named although course_lib has no tensors of them; the checks of ``dtype=``
arguments; ``checked_value`` (a number that must fit a dtype); ``iinfo`` and ``finfo``.
"""

import builtins

import numpy as np

from ..core import dtypes as _core
from ..core.dtypes import (
    ALL_DTYPES,
    bool,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    result_type,
    scalar_dtype,
    uint8,
)
from .names import CTypeName, set_c_name, type_name

__all__ = [
    "dtype", "bool", "uint8", "int8", "int16", "int32", "int64",
    "float16", "float32", "float64", "half", "float", "double", "short", "int", "long",
    "get_default_dtype", "set_default_dtype", "promote_types", "result_type", "can_cast", "iinfo", "finfo",
    "bfloat16", "complex32", "chalf", "complex64", "cfloat", "complex128", "cdouble", "uint16", "uint32", "uint64",
    "scalar_dtype",
]

_builtin_bool, _builtin_int, _builtin_float = builtins.bool, builtins.int, builtins.float
_FLOAT32_MAX = _builtin_float(np.finfo(np.float32).max)
_FLOAT16_MAX = _builtin_float(np.finfo(np.float16).max)
_INF = _builtin_float("inf")
_C_NAMES = {"bool": "bool", "uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int",
            "int64": "int64_t", "float16": "c10::Half", "float32": "float", "float64": "double"}


class dtype(_core.dtype, metaclass=CTypeName):
    """A tensor element type, printed as PyTorch prints it (``torch.float32``). Mirrors ``torch.dtype``.

    The core's nine dtypes are instances of this class (given it when this module is imported), so
    that ``type(torch.float32)`` is ``torch.dtype`` and a missing attribute raises PyTorch's message.
    """

    __slots__ = ()
    __module__ = "course_lib"                # type(torch.float32) prints <class 'course_lib.dtype'> (README)

    @property
    def _kind(self):                         # 'b' bool, 'i' integer, 'f' floating
        return "b" if self is bool else "f" if self.is_floating_point else "i"

    @property
    def _short_name(self):                   # 'Float', as in PyTorch's messages
        return self.legacy_name[:-len("Tensor")]

    @property
    def _legacy_name(self):                  # 'FloatTensor'
        return self.legacy_name

    @property
    def _tensor_type(self):                  # 'torch.FloatTensor'
        return "torch." + self.legacy_name

    @property
    def _cpp_name(self):                     # the C++ element type, as in PyTorch's overflow messages
        return _C_NAMES[self.name]

    def __getattr__(self, name):             # only for attributes it does not have: PyTorch's message
        raise AttributeError(f"'torch.dtype' object has no attribute '{name}'")

    def __reduce__(self):                    # pickling keeps the singletons
        return (_from_name, (self.name,))


for _d in ALL_DTYPES:
    _d.__class__ = dtype

# PyTorch's aliases.
half = float16
float = float32  # noqa: A001
double = float64
short = int16
int = int32  # noqa: A001
long = int64


class _NamedDtype(dtype):
    """One of PyTorch's other dtypes: course_lib can name it, but has no tensors of it."""

    __slots__ = ("is_complex",)

    def __init__(self, name, itemsize, kind):
        self.name, self.itemsize, self.legacy_name = name, itemsize, None
        self.is_floating_point = kind == "f"
        self.is_complex = kind == "c"
        self.is_signed = kind != "u"

    @property
    def _kind(self):
        return "f" if self.is_floating_point else "c" if self.is_complex else "u"

    @property
    def numpy_dtype(self):
        raise TypeError(f"course_lib has no tensors of dtype {self!r}: it implements the nine dtypes a beginner "
                        "meets (bool, uint8, int8, int16, int32, int64, float16, float32, float64)")


set_c_name(dtype, "torch.dtype")          # 'torch.dtype' object is not callable (x.dtype())
set_c_name(_NamedDtype, "torch.dtype")

bfloat16 = _NamedDtype("bfloat16", 2, "f")
complex32 = chalf = _NamedDtype("complex32", 4, "c")
complex64 = cfloat = _NamedDtype("complex64", 8, "c")
complex128 = cdouble = _NamedDtype("complex128", 16, "c")
uint16 = _NamedDtype("uint16", 2, "u")
uint32 = _NamedDtype("uint32", 4, "u")
uint64 = _NamedDtype("uint64", 8, "u")
NAMED_DTYPES = (bfloat16, complex32, complex64, complex128, uint16, uint32, uint64)
_BY_NAME = {d.name: d for d in ALL_DTYPES + NAMED_DTYPES}
_BY_NUMPY = {d.numpy_dtype: d for d in ALL_DTYPES}
_BY_LEGACY = {d._tensor_type: d for d in ALL_DTYPES}
_default = _core._default


def _from_name(name):
    return _BY_NAME[name]


_TORCH_ONLY = ("uint16", "uint32", "uint64", "complex64", "complex128")     # PyTorch has them, course_lib not


def from_numpy_dtype(np_dtype):
    """Return the course_lib dtype stored as ``np_dtype``.

    Raises:
        ValueError: a non-native byte order (PyTorch's message).
        TypeError: for NumPy dtypes PyTorch has no counterpart for, with
            the message ``torch.from_numpy`` gives; for those PyTorch has and
            course_lib has not (uint16/32/64, complex), course_lib's own message.
    """
    try:
        return _BY_NUMPY[np_dtype]
    except (KeyError, TypeError):
        pass
    dt = np.dtype(np_dtype)
    if dt in _BY_NUMPY:
        return _BY_NUMPY[dt]
    native = dt.newbyteorder("=")
    if not dt.isnative and (native in _BY_NUMPY or native.name in _TORCH_ONLY):
        raise ValueError("given numpy array has byte order different from the native byte order. Conversion "
                         "between byte orders is currently not supported.")
    if dt.name in _TORCH_ONLY:
        raise TypeError(
            f"course_lib does not support NumPy arrays of type numpy.{dt.name} (PyTorch gives torch.{dt.name}). "
            "course_lib's dtypes are float64, float32, float16, int64, int32, int16, int8, uint8 and bool: "
            "convert the array first, e.g. a.astype(np.int64) or a.astype(np.float64) (a.real for complex values).")
    raise TypeError(
        f"can't convert np.ndarray of type numpy.{dt.type.__name__}. The only "
        "supported types are: float64, float32, float16, complex64, complex128, int64, "
        "int32, int16, int8, uint64, uint32, uint16, uint8, and bool.") from None


def from_legacy_name(name):
    """Map ``'torch.FloatTensor'`` to ``float32``; None if unknown."""
    return _BY_LEGACY.get(name)


_PYTHON_TYPES = {_builtin_float: float64, _builtin_int: int64, _builtin_bool: bool}


def as_dtype(d, function):
    """A ``dtype=`` argument: None, a dtype, or one of Python's ``float``/``int``/``bool`` (which PyTorch
    reads as float64/int64/bool).

    Raises:
        TypeError: "zeros(): argument 'dtype' must be torch.dtype, not str".
    """
    if d is None or d.__class__ is dtype:
        return d
    if isinstance(d, _NamedDtype):
        return d.numpy_dtype        # raises: no tensors of this dtype
    try:
        return _PYTHON_TYPES[d]
    except (KeyError, TypeError):
        raise TypeError(f"{function}(): argument 'dtype' must be torch.dtype, not {type(d).__name__}") from None


def set_default_dtype(d):
    """Set the default floating dtype (``float32`` or ``float64`` or ``float16``).

    Mirrors ``torch.set_default_dtype``.

    Raises:
        TypeError: if ``d`` is not a floating dtype, with PyTorch's message.
    """
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _core.set_default_dtype(d)


def can_cast(from_, to):
    """Whether an op's result of dtype ``from_`` may be written into a ``to`` tensor.

    PyTorch refuses to write a higher category into a lower one (float into
    int, int into bool).  Mirrors ``torch.can_cast`` (Python's ``float``/``int``/``bool`` count as
    float64/int64/bool).

    Raises:
        TypeError: an argument that is not a dtype (PyTorch's message).
    """
    if from_.__class__ is not dtype or to.__class__ is not dtype:
        for position, (name, value) in enumerate((("from_", from_), ("to", to)), 1):
            if value.__class__ is not dtype and not (isinstance(value, type) and value in _PYTHON_TYPES):
                raise TypeError(f"can_cast(): argument '{name}' (position {position}) must be torch.dtype, not "
                                f"{type_name(value)}")
        from_, to = _PYTHON_TYPES.get(from_, from_), _PYTHON_TYPES.get(to, to)
    return _core.can_cast(from_, to)


def checked_value(value, dt, type_name=None, scalar=False):
    """The Python number ``value`` as an element of dtype ``dt``, refusing values that do not fit.

    This is PyTorch's ``checked_convert``, used when one number becomes an
    element (``x[i] = v``, the elements of ``torch.tensor([...], dtype=...)``)
    or, with ``scalar=True``, when an argument becomes a number of the
    tensor's type (``torch.full``, ``fill_``, ``masked_fill``, clamp bounds,
    ``alpha``): integers must fit the integer type (unsigned types also take
    negative numbers down to ``-max``, which wrap around: -1 is 255 in
    uint8), floats are truncated toward zero and must fit before truncation,
    float32 (and float16 with ``scalar=True``) refuse finite values beyond
    their range (inf and nan are fine), bool takes anything.  Arithmetic
    with a number (``x + 300``) does not check: it wraps.

    Raises:
        RuntimeError: "value cannot be converted to type uint8_t without
            overflow"; ``type_name`` defaults to the C++ name PyTorch uses.
    """
    kind = dt._kind
    if kind == "b" or dt is float64 or dt is float16 and not scalar:
        return value
    if kind == "f":                          # float32, float16
        if (_FLOAT32_MAX if dt is float32 else _FLOAT16_MAX) < abs(value) < _INF:
            raise RuntimeError(f"value cannot be converted to type {type_name or dt._cpp_name} without overflow")
        return value
    info = np.iinfo(dt.numpy_dtype)
    if isinstance(value, _builtin_float):
        fits = info.min <= value <= info.max          # False for nan
    elif dt is uint8:
        fits = -info.max <= value <= info.max
    else:
        fits = info.min <= value <= info.max
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {type_name or dt._cpp_name} without overflow")
    return _builtin_int(value) % (info.max + 1) if dt is uint8 else _builtin_int(value)


# The element types as C++'s typeid names them, which some of PyTorch's messages show ("result type Float
# can't be cast to the desired output type long int" from clamp_ with number bounds).
DEMANGLED_NAMES = {float16: "c10::Half", float32: "float", float64: "double", int8: "signed char",
                   uint8: "unsigned char", int16: "short int", int32: "int", int64: "long int", bool: "bool"}


# ---------------------------------------------------------------------------
# Ranges of the dtypes
# ---------------------------------------------------------------------------

class iinfo:
    """The range of an integer dtype: ``bits``, ``min``, ``max``, ``dtype`` (its name). Mirrors ``torch.iinfo``.

    Raises:
        TypeError: for bool and floating dtypes (PyTorch's messages).
    """

    __module__ = "course_lib"

    def __init__(self, type):  # noqa: A002 - PyTorch's parameter name
        if type is bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type._kind != "i":
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        info = np.iinfo(type.numpy_dtype)
        self.bits, self.min, self.max, self.dtype = info.bits, _builtin_int(info.min), _builtin_int(info.max), type.name

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


class finfo:
    """The range and precision of a floating dtype (the default one without argument). Mirrors ``torch.finfo``.

    ``eps`` is the gap between 1 and the next number, ``tiny`` (=
    ``smallest_normal``) the smallest positive normal number, ``resolution``
    the decimal precision ``10**-digits``.

    Raises:
        TypeError: for integer and bool dtypes (PyTorch's message).
    """

    __module__ = "course_lib"

    def __init__(self, type=None):  # noqa: A002 - PyTorch's parameter name
        type = type or get_default_dtype()
        if type._kind != "f":
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = np.finfo(type.numpy_dtype)
        self.bits, self.dtype = info.bits, type.name
        self.eps, self.max, self.min = _builtin_float(info.eps), _builtin_float(info.max), _builtin_float(info.min)
        self.tiny = self.smallest_normal = _builtin_float(info.smallest_normal)
        self.resolution = 10.0 ** -_builtin_int(info.precision)

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")
