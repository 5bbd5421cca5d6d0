"""Tensor methods and Python operators, attached in one table.

``x.add(y)``, ``x + y`` and ``torch.add(x, y)`` are the same function
(``ops.arithmetic.add``); this module is the one place that says which
method is which function.  In-place forms (``add_``, ``+=``) go through
``ops._dispatch.inplace``, which writes into the tensor's memory and bumps
its version counter.
"""

import dis
import sys
import warnings

import numpy as np

from . import _tensor  # noqa: F401 - the rest of the Tensor API, which some methods below replace
from .core.backend import to_numpy
from .core.tensor import Tensor
from .ops import _dispatch as D
from .ops import arithmetic as A
from .ops import conversion
from .ops import creation as _creation
from .ops import indexing as I
from .ops import linalg as L
from .ops import math as M
from .ops import reduction as R
from .ops import softmax as S
from .ops import sorting as O
from .ops import triangular as TR
from .ops import views as V
from .ops.creation import as_tensor
from .ops.random import multinomial as _multinomial
from .torch_compat import dtypes as _dtype
from .torch_compat.arguments import (
    FUNCTION_SIGNATURES,
    Signature,
    int_list,
    invalid_arguments,
    listing_order,
    parse,
    public_names,
)
from .torch_compat.layouts import check_no_partial_overlap
from .torch_compat.random import _rng, check_random_bounds, normal_values, random_range, uniform_values

# ---------------------------------------------------------------------------
# Out-of-place methods: Tensor.name(self, ...) is torch.name(self, ...)
# ---------------------------------------------------------------------------

_SAME_AS_FUNCTION = {
    A: ["add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide", "remainder",
        "fmod", "pow", "neg", "negative", "reciprocal", "eq", "ne", "lt", "le", "gt", "ge", "equal", "allclose",
        "isclose", "logical_not", "logical_and", "logical_or", "logical_xor", "bitwise_not", "bitwise_and",
        "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "maximum", "minimum", "square",
        "positive"],
    M: ["abs", "absolute", "exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos",
        "tan", "tanh", "acos", "asin", "atan", "arccos", "arcsin", "arctan", "sigmoid", "relu", "floor", "ceil",
        "round", "trunc", "sign", "clamp", "clip", "clamp_min",
        "clamp_max", "isnan", "isinf", "isfinite", "erf"],
    R: ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "std", "var", "all", "any",
        "norm", "cumsum", "cumprod", "trace", "logsumexp", "count_nonzero"],
    V: ["view", "view_as", "reshape", "reshape_as", "transpose", "swapaxes", "swapdims", "t", "permute", "movedim",
        "moveaxis", "unsqueeze", "flatten", "unflatten", "expand", "expand_as", "broadcast_to", "contiguous",
        "clone", "narrow", "select", "unbind", "split", "chunk", "as_strided", "repeat", "tile",
        "tensor_split", "fliplr", "flipud", "roll", "diagonal", "diag"],
    L: ["matmul", "mm", "bmm", "mv", "dot", "outer", "inner"],
    I: ["index_select", "masked_fill", "masked_select", "gather", "nonzero", "take", "scatter", "scatter_",
        "scatter_add", "scatter_add_", "index_add", "index_add_", "index_fill", "index_fill_",
        "repeat_interleave"],
    S: ["softmax", "log_softmax"],
    O: ["sort", "argsort", "topk", "unique"],
    TR: ["tril", "triu"],
}

for _module, _names in _SAME_AS_FUNCTION.items():
    for _name in _names:
        setattr(Tensor, _name, getattr(_module, _name))

Tensor.ge = A.ge
Tensor.sum, Tensor.mean = R.sum_method, R.mean_method     # their messages differ from torch.sum's
for _name in ("prod", "max", "min", "argmax", "argmin", "cumsum", "cumprod", "count_nonzero", "median"):
    setattr(Tensor, _name, getattr(R, _name + "_method"))           # likewise (keyword- and position-aware)
Tensor.softmax, Tensor.log_softmax = S.softmax_method, S.log_softmax_method


def _method_text(text):
    """A torch.* overload as the Tensor method shows it: without ``Tensor input`` and ``out=`` (None for one that
    takes a number first: no method has it)."""
    if not text.startswith("(Tensor input"):
        return None
    return text.replace("Tensor input, ", "").replace("Tensor input", "").replace(", *, Tensor out = None", "") \
        .replace("*, Tensor out = None", "").replace(", )", ")")


def _as_method(function):
    """``function(input, ...)`` as a Tensor method whose argument errors are the method's, as PyTorch's parser words
    them: positions counted without ``self`` (``argument 'other' (position 1)``), the method's overloads listed."""
    name = function.__name__
    texts = [t for t in map(_method_text, FUNCTION_SIGNATURES.get(name, ())) if t]
    signatures = tuple(Signature(t) for t in texts)

    def method(self, *args, **kwargs):
        try:
            return function(self, *args, **kwargs)
        except TypeError as error:
            text, better = str(error), None
            if text.startswith(f"{name}(): argument '") and " (position " in text:
                head, _, rest = text.partition(" (position ")
                number, _, tail = rest.partition(")")
                better = TypeError(f"{head} (position {int(number) - 1}){tail}")
            elif text.startswith(f"{name}() received an invalid combination") and signatures:
                better = invalid_arguments(name, signatures, args, listing_order(kwargs))
            if better is None:
                raise
            raise better from None
    method.__name__ = method.__qualname__ = name
    method.__doc__, method.__wrapped__ = function.__doc__, function
    return method


for _name in ("add", "sub", "mul", "div", "maximum", "minimum", "logical_and", "logical_or", "logical_xor", "isclose",
              "allclose", "equal", "eq", "ne", "lt", "le", "gt", "ge", "fmod", "remainder", "floor_divide", "dot", "mm",
              "mv", "matmul", "outer", "inner", "bmm"):
    setattr(Tensor, _name, _as_method(getattr(A if hasattr(A, _name) else L, _name)))
Tensor.pow = A.pow_method


def _type_as(self, *args, **kwargs):
    """``self`` converted to ``other``'s dtype. Mirrors ``Tensor.type_as`` (and its argument errors)."""
    if len(args) == 1 and not kwargs and isinstance(args[0], Tensor):
        return self.to(args[0].dtype)
    args, kwargs = parse("type_as", (Signature("(Tensor other)"),), args, kwargs)
    return self.to((args or (kwargs["other"],))[0].dtype)


Tensor.type_as = _type_as

Tensor.multinomial = _multinomial
Tensor.squeeze = V.squeeze_method     # x.squeeze(0, 2) as well as x.squeeze((0, 2)); torch.squeeze takes one
Tensor.flip = V.flip_method           # x.flip(0, 1) as well as x.flip((0, 1)); torch.flip takes one tuple
for _name in ("t_", "transpose_", "squeeze_", "unsqueeze_"):      # in-place shape changes (no torch.t_)
    setattr(Tensor, _name, getattr(V, _name))
Tensor.greater = A.gt
Tensor.less = A.lt
Tensor.lerp, Tensor.lerp_ = M.lerp_method, M.lerp_      # their messages list the method's signatures
Tensor.where = lambda self, condition, other: M.where(condition, self, other)
Tensor.where.__doc__ = "``torch.where(condition, self, other)``."


# ---------------------------------------------------------------------------
# Python operators
# ---------------------------------------------------------------------------

def _binary_operator(function, comparison=False, op=None):
    """``a <op> b``: like the function, but returns NotImplemented for operands it cannot take,
    so Python raises its own TypeError ("unsupported operand type(s) for +: 'Tensor' and 'str'").

    With a NumPy array, as in PyTorch, a comparison turns it into a tensor; arithmetic leaves the work
    to NumPy, whose result ``Tensor.__array_wrap__`` turns into a tensor.  For + - * /, ``op`` is the
    operation, and a large temporary left operand lends its memory to the result (see below)."""
    def operator(self, other):
        if (op is not None and self._data.nbytes >= D.ELISION_BYTES and sys.getrefcount(self) == _TEMPORARY_REFS
                and _written_as_operator()):
            result = D.into_temporary(op, self, other)
            if result is not None:
                return result
        if comparison and other.__class__ is np.ndarray:
            other = as_tensor(other, device=self.device)
        elif not isinstance(other, (Tensor, int, float)) and not D.is_number(other):
            return NotImplemented
        return function(self, other)
    operator.__name__ = function.__name__
    operator.__doc__ = function.__doc__
    return operator


def _reflected(function, op=None):
    def operator(self, other):
        if (op is not None and self._data.nbytes >= D.ELISION_BYTES and sys.getrefcount(self) == _TEMPORARY_REFS
                and _written_as_operator()):
            result = D.into_temporary(op, self, other)     # number + temporary: + and * commute
            if result is not None:
                return result
        if not isinstance(other, (int, float)) and not D.is_number(other):
            return NotImplemented
        return function(self, other)
    return operator


# Temporary elision, as NumPy does it.  In `(a * b + a).sum()` the product `a * b` is a temporary:
# no name refers to it, and it is thrown away as soon as `+ a` is computed.  So `+ a` may write its
# result into the product's memory (``ops._dispatch.into_temporary``) instead of a new array.  The
# left operand of `x + y` is a temporary when
#   * the code that runs is Python's own `x + y` (its instruction is BINARY_OP), not a call such as
#     `x.__add__(y)` or `operator.add(x, y)`, whose callers may still hold x without a name, and
#   * the only references to it are the ones that every `x + y` makes: the interpreter's stack, the
#     operator's `self` and the argument of sys.getrefcount.  A named tensor has one more, its name.
#     How many that is depends on the Python version, so it is measured here, once: if this Python
#     shows no difference between a temporary and a named operand, there is no elision.
_BINARY_OP = dis.opmap["BINARY_OP"]


def _written_as_operator():
    caller = sys._getframe(2)             # 0: this function, 1: the operator, 2: the code with `x + y`
    return caller.f_code.co_code[caller.f_lasti] == _BINARY_OP


def _references_of_a_temporary():
    class Probe:
        def __add__(self, other):
            return sys.getrefcount(self)
    named = Probe()
    temporary, with_a_name = Probe() + 0, named + 0
    return temporary if temporary < with_a_name else None


_TEMPORARY_REFS = _references_of_a_temporary()


def _number_first(function):
    """``number <op> tensor`` for non-commutative ops: the number becomes a 0-d tensor first."""
    def operator(self, other):
        if not isinstance(other, (int, float)) and not D.is_number(other):
            return NotImplemented
        return function(A._number_tensor(other, self), self)
    return operator


Tensor.__add__ = _binary_operator(A.add, op=A.Add)
Tensor.__radd__ = _reflected(A.add, op=A.Add)
Tensor.__sub__ = _binary_operator(A.sub, op=A.Sub)
Tensor.__rsub__ = _reflected(A.rsub)
Tensor.__mul__ = _binary_operator(A.mul, op=A.Mul)
Tensor.__rmul__ = _reflected(A.mul, op=A.Mul)
Tensor.__truediv__ = _binary_operator(A.div, op=A.Div)
Tensor.__rtruediv__ = _reflected(lambda self, other: A.mul(A.reciprocal(self), other))   # as PyTorch does
Tensor.__floordiv__ = _binary_operator(A.floor_divide)
Tensor.__rfloordiv__ = _number_first(A.floor_divide)
Tensor.__mod__ = _binary_operator(A.remainder)
Tensor.__rmod__ = lambda self, other: (A.remainder(other, self) if isinstance(other, (int, float)) or D.is_number(other)
                                       else NotImplemented)     # remainder(Scalar, Tensor): no derivative
Tensor.__pow__ = _binary_operator(A.pow)
Tensor.__rpow__ = _reflected(lambda self, other: A._rpow(self, other))
Tensor.__matmul__ = lambda self, other: L.matmul(self, other) if isinstance(other, Tensor) else NotImplemented
Tensor.__rmatmul__ = lambda self, other: NotImplemented
Tensor.__neg__ = A.neg
Tensor.__pos__ = A.positive
Tensor.__abs__ = M.abs
Tensor.__invert__ = A.invert
Tensor.__and__ = _binary_operator(A.bitwise_and)
Tensor.__rand__ = _reflected(A.bitwise_and)
Tensor.__or__ = _binary_operator(A.bitwise_or)
Tensor.__ror__ = _reflected(A.bitwise_or)
Tensor.__xor__ = _binary_operator(A.bitwise_xor)
Tensor.__rxor__ = _reflected(A.bitwise_xor)
Tensor.__lshift__ = _binary_operator(A.bitwise_left_shift)
Tensor.__rshift__ = _binary_operator(A.bitwise_right_shift)
Tensor.__rlshift__ = _number_first(A.bitwise_left_shift)
Tensor.__rrshift__ = _number_first(A.bitwise_right_shift)
Tensor.__eq__ = _binary_operator(A.eq, comparison=True)
Tensor.__ne__ = _binary_operator(A.ne, comparison=True)
Tensor.__lt__ = _binary_operator(A.lt, comparison=True)
Tensor.__le__ = _binary_operator(A.le, comparison=True)
Tensor.__gt__ = _binary_operator(A.gt, comparison=True)
Tensor.__ge__ = _binary_operator(A.ge, comparison=True)
Tensor.__hash__ = object.__hash__
Tensor.__getitem__ = I.getitem
Tensor.__setitem__ = I.setitem


_WARNED = set()      # the messages PyTorch gives with TORCH_WARN_ONCE that this process has shown


def _warn_once(message):
    """Warn ``message`` (a UserWarning) the first time only, as PyTorch's TORCH_WARN_ONCE does (per process)."""
    if message not in _WARNED:
        _WARNED.add(message)
        warnings.warn(message, UserWarning, stacklevel=3)


def _deprecated_on_0d(name, line, advice="This function is the identity in these cases."):
    _warn_once(f"Tensor.{name} is deprecated on 0-D tensors. {advice} (Triggered internally at "
               f"/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:{line}.)")


@property
def _T(self):
    """Reverse the dimensions (the transpose of a matrix). Mirrors ``Tensor.T``.

    Warns (once per process, as PyTorch): a tensor that is not 2-D (0-D: itself)."""
    n = self._data.ndim
    if n == 0:
        _deprecated_on_0d("T", 4321)
    elif n != 2:
        _warn_once(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it "
            "will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
            "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. (Triggered "
            "internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)")
    return V.permute(self, tuple(range(n - 1, -1, -1)))


@property
def _mT(self):
    """Transpose the last two dimensions (batches of matrices). Mirrors ``Tensor.mT``.

    Raises:
        RuntimeError: a 1-D tensor (a 0-D one is itself, with PyTorch's deprecation warning).
    """
    n = self._data.ndim
    if n == 0:
        _deprecated_on_0d("mT", 4373)
        return self
    if n < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got {n}-D tensor.")
    return V.transpose(self, -2, -1)


@property
def _mH(self):
    """The conjugate transpose of the last two dimensions (for real tensors, ``mT``). Mirrors ``Tensor.mH``.

    Raises:
        RuntimeError: a 1-D tensor (a 0-D one is itself, with PyTorch's deprecation warning).
    """
    n = self._data.ndim
    if n == 0:
        _deprecated_on_0d("mH", 4382, "Consider using x.conj().")
        return self
    if n < 2:
        raise RuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. Got {n}-D tensor.")
    return V.transpose(self, -2, -1)


@property
def _H(self):
    """The conjugate transpose of a matrix (for real tensors, the transpose). Mirrors ``Tensor.H``.

    Raises:
        RuntimeError: a tensor that is not 2-D (0-D gives itself, with PyTorch's deprecation warning).
    """
    n = self._data.ndim
    if n == 0:
        _deprecated_on_0d("H", 4335, "Consider using x.conj().")
        return self
    if n != 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {n}-D tensor."
                           + (" For batches of matrices, consider using tensor.mH" if n > 2 else ""))
    return V.transpose(self, 0, 1)


Tensor.T = _T
Tensor.mT = _mT
Tensor.mH = _mH
Tensor.H = _H


# ---------------------------------------------------------------------------
# In-place methods: Tensor.name_(self, ...) writes into self
# ---------------------------------------------------------------------------

_MISSING = object()
_INPLACE_SIGNATURES = {
    "add": ("(Tensor other, *, Number alpha = 1)", "(Number alpha, Tensor other)"),
    "sub": ("(Tensor other, *, Number alpha = 1)", "(Number alpha, Tensor other)"),
    "mul": ("(Tensor other)",),
}


def _inplace_arguments(name, args):
    """PyTorch's TypeError for ``x.name_(*args)`` with a missing or extra argument."""
    texts = _INPLACE_SIGNATURES.get(name, ("(Tensor other)", "(Number other)"))
    signatures = tuple(Signature(t, hidden=i > 0 and name in ("add", "sub")) for i, t in enumerate(texts))
    return invalid_arguments(name + "_", signatures, args) or TypeError(
        f"{name}_() takes 1 positional argument but {len(args)} were given")


def _inplace_binary(op, name):
    def method(self, other=_MISSING, *extra, alpha=1):
        if other is _MISSING or extra:
            raise _inplace_arguments(name, () if other is _MISSING else (other, *extra))
        if self._requires_grad and D.recording(self, other if isinstance(other, Tensor) else None):
            D.check_inplace(self, True, overlap=False)   # autograd first, then the kernel (bools, alpha)
        A.check_operands(name, self, other, alpha)
        if alpha != 1:
            return D.inplace(A.WITH_ALPHA[op], name, self, other, {"alpha": alpha})
        return D.inplace(op, name, self, other)
    method.__name__ = name + "_"
    method.__doc__ = f"In-place ``{name}``: writes the result into ``self`` and returns ``self``."
    return method


def _inplace_unary(op, name):
    def method(self, *extra):
        if extra:
            raise TypeError(f"TensorBase.{name}_() takes no arguments ({len(extra)} given)")
        return D.inplace(op, name, self, unary_op=True)
    method.__name__ = name + "_"
    method.__doc__ = f"In-place ``{name}``: writes the result into ``self`` and returns ``self``."
    return method


Tensor.add_ = _inplace_binary(A.Add, "add")
Tensor.sub_ = _inplace_binary(A.Sub, "sub")
Tensor.subtract_ = Tensor.sub_
Tensor.mul_ = _inplace_binary(A.Mul, "mul")
Tensor.multiply_ = Tensor.mul_


def _div_(self, other, *, rounding_mode=None):
    """In-place ``div``: writes into ``self`` (an integer tensor needs a ``rounding_mode``)."""
    if rounding_mode is None:
        return D.inplace(A.Div, "div", self, other)
    if rounding_mode not in ("floor", "trunc"):
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                           f"'{rounding_mode}'")
    return D.inplace(A.DivRounded, "div", self, other, {"rounding_mode": rounding_mode})


Tensor.div_ = _div_
Tensor.divide_ = _div_
Tensor.true_divide_ = lambda self, other: D.inplace(A.Div, "div", self, other)
Tensor.floor_divide_ = _inplace_binary(A.FloorDivide, "floor_divide")
Tensor.remainder_ = _inplace_binary(A.Remainder, "remainder")


def _pow_(self, exponent):
    """In-place ``pow``: writes ``self ** exponent`` into ``self``."""
    if isinstance(exponent, Tensor):
        return D.inplace(A.PowTensor, "pow", self, exponent)
    rec = D.recording(self)
    D.check_inplace(self, rec)
    result = A.pow(self.detach(), exponent)
    if not _dtype.can_cast(result.dtype, self.dtype):
        raise D.cast_error(result._data.dtype, self._data.dtype)
    if not rec:
        self._data[...] = result._data
        self._bump()
        return self
    x = self._data
    e = D.make_scalar(exponent, x.dtype) if x.dtype.kind == "f" else int(exponent)
    return D.inplace_record(A.Pow, self, (self,), (x,), {"exponent": e})


Tensor.pow_ = _pow_
Tensor.neg_ = _inplace_unary(A.Neg, "neg")
Tensor.negative_ = Tensor.neg_
Tensor.abs_ = _inplace_unary(M.Abs, "abs")
Tensor.exp_ = _inplace_unary(M.Exp, "exp")
Tensor.log_ = _inplace_unary(M.Log, "log")
Tensor.sqrt_ = _inplace_unary(M.Sqrt, "sqrt")
Tensor.sin_ = _inplace_unary(M.Sin, "sin")
Tensor.cos_ = _inplace_unary(M.Cos, "cos")
Tensor.tanh_ = _inplace_unary(M.Tanh, "tanh")
Tensor.acos_ = Tensor.arccos_ = _inplace_unary(M.Acos, "acos")
Tensor.asin_ = Tensor.arcsin_ = _inplace_unary(M.Asin, "asin")
Tensor.atan_ = Tensor.arctan_ = _inplace_unary(M.Atan, "atan")
Tensor.sigmoid_ = _inplace_unary(M.Sigmoid, "sigmoid")
Tensor.relu_ = _inplace_unary(M.Relu, "relu")
Tensor.floor_ = _inplace_unary(M.Floor, "floor")
Tensor.ceil_ = _inplace_unary(M.Ceil, "ceil")
Tensor.round_ = _inplace_unary(M.Round, "round")
Tensor.trunc_ = _inplace_unary(M.Trunc, "trunc")
Tensor.reciprocal_ = _inplace_unary(A.Reciprocal, "reciprocal")
Tensor.sign_ = _inplace_unary(M.Sign, "sign")
Tensor.tan_ = _inplace_unary(M.Tan, "tan")
Tensor.erf_ = _inplace_unary(M.Erf, "erf")
Tensor.log1p_ = _inplace_unary(M.Log1p, "log1p")
Tensor.log2_ = _inplace_unary(M.Log2, "log2")
Tensor.log10_ = _inplace_unary(M.Log10, "log10")
Tensor.expm1_ = _inplace_unary(M.Expm1, "expm1")
Tensor.rsqrt_ = _inplace_unary(M.Rsqrt, "rsqrt")
Tensor.square_ = lambda self: _pow_(self, 2)
Tensor.square_.__doc__ = "In-place ``square``: writes ``self ** 2`` into ``self``."
Tensor.fmod_ = _inplace_binary(A.Fmod, "fmod")


def _masked_fill_(self, mask, value):
    """In-place ``masked_fill``: ``value`` (a number or a 0-d tensor) where the bool ``mask`` (broadcast to
    ``self``'s shape) is True.

    Raises:
        RuntimeError: the errors of ``masked_fill``; a mask that does not broadcast to ``self``'s shape.
    """
    op, sources, arrays, params = I.masked_fill_call(self, mask, value, inplace=True)
    x = self._data
    shape = D.broadcast_shape(x.shape, params["mask"].shape)
    if shape != x.shape:
        raise RuntimeError(f"output with shape [{', '.join(map(str, x.shape))}] doesn't match the broadcast shape "
                           f"[{', '.join(map(str, shape))}]")
    rec = D.recording(*sources)
    D.check_inplace(self, rec)
    if rec:
        return D.inplace_record(op, self, sources, arrays, params)
    x[...] = op.forward(D.NO_CONTEXT, *arrays, **params)
    self._bump()
    return self


Tensor.masked_fill_ = _masked_fill_


def _clamp_(self, min=None, max=None):
    """In-place ``clamp``: limits every element of ``self`` to ``[min, max]`` (numbers or tensors)."""
    return _clamped_in_place(self, min, max, False)


def _clamped_in_place(self, min, max, one_sided):
    """``_clamp_``; ``one_sided``: ``clamp_min_``/``clamp_max_`` (their own nodes)."""
    bounds = [b for b in (min, max) if isinstance(b, Tensor)]
    rec = D.recording(self, *bounds)
    D.check_inplace(self, rec)
    result = M.clamp(self.detach(), min, max)      # checks the arguments, computes the values
    if not _dtype.can_cast(result.dtype, self.dtype):
        if bounds:
            raise D.cast_error(result._data.dtype, self._data.dtype)
        # with number bounds PyTorch names the output type as C++ does
        raise RuntimeError(f"result type {result.dtype._short_name} can't be cast to the desired output type "
                           f"{_dtype.DEMANGLED_NAMES[self.dtype]}")
    if result._data.shape != self._data.shape:
        raise RuntimeError(f"output with shape [{', '.join(map(str, self.shape))}] doesn't match the broadcast "
                           f"shape [{', '.join(map(str, result.shape))}]")
    if not rec:
        self._data[...] = result._data
        self._bump()
        return self
    x = self._data
    scalar_op, tensor_op = M.clamp_ops(min, max, one_sided)
    if bounds and one_sided:
        return D.inplace_record(tensor_op, self, (self, bounds[0]), (x, bounds[0]._data.astype(x.dtype, copy=False)))
    if bounds:
        sources = (self,) + tuple(b if isinstance(b, Tensor) else D.NUMBER for b in (min, max))
        arrays = (x,) + tuple(None if b is None else b._data.astype(x.dtype, copy=False) for b in (min, max))
        return D.inplace_record(M.ClampTensor, self, sources, arrays)
    lo = None if min is None else D.make_scalar(min, x.dtype)
    hi = None if max is None else D.make_scalar(max, x.dtype)
    return D.inplace_record(scalar_op, self, (self,), (x,), {"lo": lo, "hi": hi})


Tensor.clamp_ = _clamp_
Tensor.clip_ = _clamp_
Tensor.clamp_min_ = lambda self, min: _clamped_in_place(self, min, None, True)
Tensor.clamp_max_ = lambda self, max: _clamped_in_place(self, None, max, True)

Tensor.__iadd__ = lambda self, other: Tensor.add_(self, other) if _operand(other) else NotImplemented
Tensor.__isub__ = lambda self, other: Tensor.sub_(self, other) if _operand(other) else NotImplemented
Tensor.__imul__ = lambda self, other: Tensor.mul_(self, other) if _operand(other) else NotImplemented
Tensor.__itruediv__ = lambda self, other: _div_(self, other) if _operand(other) else NotImplemented
Tensor.__ifloordiv__ = lambda self, other: Tensor.floor_divide_(self, other) if _operand(other) else NotImplemented
Tensor.__imod__ = lambda self, other: Tensor.remainder_(self, other) if _operand(other) else NotImplemented
Tensor.__ipow__ = lambda self, other: _pow_(self, other) if _operand(other) else NotImplemented
for _op, _name in ((A.LeftShift, "bitwise_left_shift"), (A.RightShift, "bitwise_right_shift"),
                   (A.BitwiseAnd, "bitwise_and"), (A.BitwiseOr, "bitwise_or"), (A.BitwiseXor, "bitwise_xor")):
    setattr(Tensor, _name + "_", _inplace_binary(_op, _name))
Tensor.__ilshift__ = lambda self, other: Tensor.bitwise_left_shift_(self, other) if _operand(other) else NotImplemented
Tensor.__irshift__ = lambda self, other: Tensor.bitwise_right_shift_(self, other) if _operand(other) else NotImplemented
Tensor.__iand__ = lambda self, other: Tensor.bitwise_and_(self, other) if _operand(other) else NotImplemented
Tensor.__ior__ = lambda self, other: Tensor.bitwise_or_(self, other) if _operand(other) else NotImplemented
Tensor.__ixor__ = lambda self, other: Tensor.bitwise_xor_(self, other) if _operand(other) else NotImplemented


def _operand(other):
    return isinstance(other, (Tensor, int, float)) or D.is_number(other)


def _overwrite(self, op, value, source=None):
    """Write ``value`` (a scalar or an array of ``self``'s shape) into ``self``; recorded as ``op`` when needed.

    Filling with a number is allowed on an expanded tensor (as in PyTorch); copying is not.
    """
    rec = D.recording(self, source)
    D.check_inplace(self, rec, overlap=source is not None)
    if rec:
        if source is None:
            return D.inplace_record(op, self, (self,), (self._data,), {"value": value})
        return D.inplace_record(op, self, (self, source), (self._data, value))
    self._data[...] = value
    self._bump()
    return self


def _zero_(self):
    """Fill with zeros in place and return ``self`` (``x.grad.zero_()`` resets a gradient)."""
    return _overwrite(self, I.Zero, 0)


def _fill_(self, value):
    """Fill with ``value`` (a number or a 0-d tensor) in place and return ``self``.

    Raises:
        RuntimeError: a value tensor with dimensions (PyTorch's message).
    """
    if not isinstance(value, Tensor) and not D.is_number(value):
        raise invalid_arguments("fill_", (Signature("(Tensor value)"), Signature("(Number value)")), (value,))
    if isinstance(value, Tensor):
        v = value._data
        if v.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {v.ndim} "
                               "dimensions.")
        if v.__class__ is not self._data.__class__:
            v = D.backend_of(self._data).asarray(v)
        return _overwrite(self, I.FillTensor, v, value)
    x = self._data          # (one float16 element is filled without a range check, as in PyTorch)
    return _overwrite(self, I.Fill, D.make_scalar(_dtype.checked_value(value, self.dtype, scalar=x.size != 1),
                                                  x.dtype))


def _copy_(self, src, non_blocking=False):
    """Copy ``src``'s values (broadcast, converted to ``self``'s dtype and device) into ``self``.

    Raises:
        RuntimeError: a ``src`` that does not broadcast to ``self``'s shape.
    """
    if not isinstance(src, Tensor):
        if not isinstance(src, (int, float, np.number, np.bool_)):     # a number is copied as a 0-d tensor
            raise TypeError(f"copy_(): argument 'other' (position 1) must be Tensor, not {type(src).__name__}")
        src = as_tensor(src)
    D.check_inplace(self, D.recording(self, src), overlap=False)       # autograd's check first, as in PyTorch
    I.copy_shape_check(self._data.shape, src._data.shape)
    check_no_partial_overlap(self._data, src._data)
    value = src._data
    if value.__class__ is not self._data.__class__:       # copy_ moves data between devices
        value = D.backend_of(self._data).asarray(to_numpy(value))
    return _overwrite(self, I.Copy, value, src)


Tensor.zero_ = _zero_
Tensor.fill_ = _fill_
Tensor.copy_ = _copy_


def _uniform_(self, a=0.0, b=1.0, *, generator=None):
    """Fill with uniform random numbers in ``[a, b)`` in place."""
    values = D.backend_of(self._data).asarray(uniform_values(self._data.shape, self.dtype, a, b, generator))
    return _overwrite(self, I.Uniform, values)


def _normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Fill with normal random numbers in place."""
    values = D.backend_of(self._data).asarray(normal_values(self._data.shape, self.dtype, mean, std, generator))
    return _overwrite(self, I.Normal, values)


Tensor.uniform_ = _uniform_
Tensor.normal_ = _normal_

_RANDOM_SIGNATURES = ("(*, torch.Generator generator = None)",
                      "(int from, int to, *, torch.Generator generator = None)",
                      "(int to, *, torch.Generator generator = None)")


def _random_(self, *args, generator=None, **kwargs):
    """Fill with random integers in place: ``random_()`` over the dtype's range (0 .. 2**24 for float32, as
    PyTorch), ``random_(to)`` in ``[0, to)``, ``random_(from, to)`` in ``[from, to)`` (``to=None``: up to the
    dtype's largest). The same draws as PyTorch's CPU generator after the same ``manual_seed``.

    Raises:
        RuntimeError: ``from >= to`` or bounds outside the dtype (PyTorch's messages).
        TypeError: other arguments (PyTorch's "invalid combination of arguments").
    """
    if kwargs or len(args) > 2 or not all(isinstance(a, (int, np.integer)) and not isinstance(a, bool)
                                          or a is None and i == 1 for i, a in enumerate(args)):
        args, kwargs = parse("random_", tuple(Signature(t) for t in _RANDOM_SIGNATURES), args, kwargs)
        args = args + tuple(kwargs[k] for k in ("from", "to") if k in kwargs)
    dt = self.dtype
    name = dt._short_name
    n = self._data.size
    lowest, highest, digits = random_range(dt)
    rng = _rng(generator)
    if not args:
        op = I.Random
        if name == "Bool":
            values = rng.random(n) & np.uint64(1)
        else:
            span = highest + 1
            wide = name in ("Double", "Long")
            values = (rng.random64(n) if wide else rng.random(n)) % np.uint64(span)
    else:
        op = I.RandomFromTo if len(args) == 2 else I.RandomTo
        low, high = (0, args[0]) if len(args) == 1 else args
        if high is None:
            high = highest + 1
        elif low >= high:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        check_random_bounds(dt, low, high)
        values = rng.randint(n, low, high)
    values = D.backend_of(self._data).asarray(np.asarray(values).astype(self._data.dtype).reshape(self._data.shape))
    return _overwrite(self, op, values)


def _resize_(self, *sizes, memory_format=None):
    """Give ``self`` the shape ``sizes`` in place, keeping its first elements (in memory order); new elements are
    left uninitialised in PyTorch (zeros here). Mirrors ``Tensor.resize_`` (not recorded by autograd).

    Raises:
        RuntimeError: on a tensor that requires grad ("cannot resize variables that require grad").
    """
    shape = int_list("resize_", "size", sizes)
    if self._requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if any(s < 0 for s in shape):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: {list(shape)}")
    xp = D.backend_of(self._data)
    if tuple(shape) == self._data.shape:
        return self
    new = xp.zeros(int(np.prod(shape, dtype=np.int64)), dtype=self._data.dtype)
    old = self._data.reshape(-1)
    keep = min(new.size, old.size)
    new[:keep] = old[:keep]
    self._data = new.reshape(shape)
    self._storage = None
    return self


Tensor.random_ = _random_
Tensor.resize_ = _resize_


def _new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    """A new tensor from ``data`` with ``self``'s dtype and device by default."""
    return _creation.tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _new_factory(name):
    def method(self, *size, dtype=None, device=None, requires_grad=False):
        return getattr(_creation, name)(*size, dtype=dtype or self.dtype, device=device or self.device,
                                        requires_grad=requires_grad)
    method.__name__ = "new_" + name
    method.__doc__ = f"``torch.{name}`` with ``self``'s dtype and device by default."
    return method


Tensor.new_tensor = _new_tensor
Tensor.new_zeros = _new_factory("zeros")
Tensor.new_ones = _new_factory("ones")
Tensor.new_empty = _new_factory("empty")


def _new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
    """``torch.full`` with ``self``'s dtype and device by default."""
    return _creation.full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                          requires_grad=requires_grad)


Tensor.new_full = _new_full


# ---------------------------------------------------------------------------
# Public names: Python's own argument errors (a missing or extra argument) name a method or function as
# PyTorch does, never an internal helper (``_inplace_binary.<locals>.method()``).
# ---------------------------------------------------------------------------

def _public_names():
    public_names({k: v for k, v in vars(Tensor).items() if not k.startswith("__")})
    for module in (A, I, L, M, R, S, O, TR, V, conversion):
        public_names({k: getattr(module, k) for k in getattr(module, "__all__", ())})


_public_names()
