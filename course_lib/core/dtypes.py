"""The nine dtypes a beginner meets, and PyTorch's type promotion (README.md, 2).

Operands fall into three groups by priority: tensors with dimensions, 0-d tensors, Python numbers.
A lower group only counts when it is of a higher category (bool < integer < floating):
``int32_tensor + 0-d int64`` stays int32, ``int64_tensor + 0.5`` is float32.

In PyTorch: ``c10/core/ScalarType.h`` (``promoteTypes``) and ``at::native::result_type``.
"""

import numpy as np

__all__ = ["dtype", "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
           "ALL_DTYPES", "of", "from_numpy", "get_default_dtype", "set_default_dtype", "promote_types", "result_type",
           "scalar_dtype", "can_cast"]

_builtin_bool, _builtin_int = bool, int


class dtype:
    """An element type, printed as PyTorch prints it (``torch.float32``). Mirrors ``torch.dtype``.

    ``numpy_dtype`` stores the elements; ``legacy_name`` is the name of PyTorch's old tensor type
    (``'FloatTensor'``), which some of its messages still show.
    """

    __slots__ = ("name", "numpy_dtype", "itemsize", "is_floating_point", "is_signed", "legacy_name")
    is_complex = False

    def __init__(self, name, np_dtype, legacy_name):
        self.name = name
        self.numpy_dtype = np.dtype(np_dtype)
        self.itemsize = self.numpy_dtype.itemsize
        self.is_floating_point = self.numpy_dtype.kind == "f"
        self.is_signed = self.numpy_dtype.kind in "if"
        self.legacy_name = legacy_name

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):               # pickled by name, so that each dtype stays one object
        return (_by_name, (self.name,))


bool = dtype("bool", np.bool_, "BoolTensor")  # noqa: A001 - PyTorch's name
uint8 = dtype("uint8", np.uint8, "ByteTensor")
int8 = dtype("int8", np.int8, "CharTensor")
int16 = dtype("int16", np.int16, "ShortTensor")
int32 = dtype("int32", np.int32, "IntTensor")
int64 = dtype("int64", np.int64, "LongTensor")
float16 = dtype("float16", np.float16, "HalfTensor")
float32 = dtype("float32", np.float32, "FloatTensor")
float64 = dtype("float64", np.float64, "DoubleTensor")

ALL_DTYPES = (bool, uint8, int8, int16, int32, int64, float16, float32, float64)
_BY_NUMPY = {d.numpy_dtype: d for d in ALL_DTYPES}


def _by_name(name):
    return next(d for d in ALL_DTYPES if d.name == name)


def of(array):
    """The dtype of a backend array's elements."""
    return _BY_NUMPY[array.dtype]


def from_numpy(np_dtype):
    """The dtype stored as the NumPy dtype ``np_dtype``."""
    return _BY_NUMPY[np.dtype(np_dtype)]


_default = [float32]


def get_default_dtype():
    """The dtype of new floating tensors: float32 unless changed. Mirrors ``torch.get_default_dtype``."""
    return _default[0]


def set_default_dtype(d):
    """Make ``d`` (a floating dtype) the default. Mirrors ``torch.set_default_dtype``."""
    _default[0] = d


_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2}


def _category(d):
    """0 for bool, 1 for the integers, 2 for the floating types."""
    return _CATEGORY[d.numpy_dtype.kind]


def _promote(a, b):
    """The smaller dtype that holds both: the higher category wins, then the wider type."""
    if _category(a) != _category(b):
        return a if _category(a) > _category(b) else b
    if {a, b} == {uint8, int8}:          # no 8-bit type holds both ranges
        return int16
    return a if a.itemsize >= b.itemsize else b


_PROMOTE = {(a, b): _promote(a, b) for a in ALL_DTYPES for b in ALL_DTYPES}


def promote_types(type1, type2):
    """The smallest dtype both convert to. Mirrors ``torch.promote_types``."""
    return _PROMOTE[type1, type2]


def scalar_dtype(value):
    """The dtype of a Python number in an expression: bool, int64, or the default float dtype."""
    if isinstance(value, (_builtin_bool, np.bool_)):
        return bool
    if isinstance(value, (_builtin_int, np.integer)):
        return int64
    return _default[0]


def _join(higher, lower):
    """A higher-priority group's dtype, unless the lower group is of a higher category."""
    if higher is None or lower is None:
        return higher or lower
    return _PROMOTE[higher, lower] if _category(lower) > _category(higher) else higher


def result_type(*operands):
    """The dtype of an element-wise operation on tensors and Python numbers. Mirrors ``torch.result_type``."""
    groups = [None, None, None]          # tensors with dimensions, 0-d tensors, Python numbers
    for x in operands:
        array = getattr(x, "_data", None)
        if array is None:
            g, d = 2, scalar_dtype(x)
        else:
            g, d = (0 if array.ndim else 1), _BY_NUMPY[array.dtype]
        groups[g] = d if groups[g] is None else _PROMOTE[groups[g], d]
    return _join(groups[0], _join(groups[1], groups[2]))


def can_cast(from_, to):
    """Whether a result of dtype ``from_`` may be written into a ``to`` tensor: not into a lower category
    (no float into int, no int into bool). Mirrors ``torch.can_cast``."""
    return _category(from_) <= _category(to)
