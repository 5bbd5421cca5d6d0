"""Tensor methods and Python operators, attached in one table.

``x.add(y)``, ``x + y`` and ``torch.add(x, y)`` are the same function
(``ops.arithmetic.add``); this module is the one place that says which
method is which function.  In-place forms (``add_``, ``+=``) go through
``ops._dispatch.inplace``, which writes into the tensor's memory and bumps
its version counter.
"""

from . import _dtype
from ._tensor import Tensor
from .ops import _dispatch as D
from .ops import arithmetic as A
from .ops import indexing as I
from .ops import linalg as L
from .ops import math as M
from .ops import reduction as R
from .ops import views as V

# ---------------------------------------------------------------------------
# Out-of-place methods: Tensor.name(self, ...) is torch.name(self, ...)
# ---------------------------------------------------------------------------

_SAME_AS_FUNCTION = {
    A: ["add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide", "remainder",
        "fmod", "pow", "neg", "negative", "reciprocal", "eq", "ne", "lt", "le", "gt", "ge", "equal", "allclose",
        "isclose", "logical_not", "logical_and", "logical_or", "logical_xor", "bitwise_not", "bitwise_and",
        "bitwise_or", "bitwise_xor", "maximum", "minimum"],
    M: ["abs", "absolute", "exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "square", "sin", "cos",
        "tan", "tanh", "sigmoid", "relu", "floor", "ceil", "round", "trunc", "sign", "clamp", "clip", "clamp_min",
        "clamp_max", "isnan", "isinf", "isfinite", "erf"],
    R: ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "std", "var", "all", "any",
        "norm", "cumsum", "logsumexp", "count_nonzero"],
    V: ["view", "view_as", "reshape", "reshape_as", "transpose", "swapaxes", "swapdims", "t", "permute", "movedim",
        "squeeze", "unsqueeze", "flatten", "unflatten", "expand", "expand_as", "broadcast_to", "contiguous",
        "clone", "narrow", "select", "unbind", "split", "chunk", "flip", "as_strided"],
    L: ["matmul", "mm", "bmm", "mv", "dot", "outer", "inner"],
    I: ["index_select", "masked_fill", "masked_select", "gather", "nonzero"],
}

for _module, _names in _SAME_AS_FUNCTION.items():
    for _name in _names:
        setattr(Tensor, _name, getattr(_module, _name))

Tensor.ge = A.ge
Tensor.greater = A.gt
Tensor.less = A.lt
Tensor.where = lambda self, condition, other: M.where(condition, self, other)
Tensor.where.__doc__ = "``torch.where(condition, self, other)``."


# ---------------------------------------------------------------------------
# Python operators
# ---------------------------------------------------------------------------

def _binary_operator(function):
    """``a <op> b``: like the function, but returns NotImplemented for operands it cannot take,
    so Python raises its own TypeError ("unsupported operand type(s) for +: 'Tensor' and 'str'")."""
    def operator(self, other):
        if not isinstance(other, (Tensor, int, float)) and not D.is_number(other):
            return NotImplemented
        return function(self, other)
    operator.__name__ = function.__name__
    operator.__doc__ = function.__doc__
    return operator


def _reflected(function):
    def operator(self, other):
        if not isinstance(other, (int, float)) and not D.is_number(other):
            return NotImplemented
        return function(self, other)
    return operator


def _number_first(function):
    """``number <op> tensor`` for non-commutative ops: the number becomes a 0-d tensor first."""
    def operator(self, other):
        if not isinstance(other, (int, float)) and not D.is_number(other):
            return NotImplemented
        return function(A._number_tensor(other, self), self)
    return operator


Tensor.__add__ = _binary_operator(A.add)
Tensor.__radd__ = _reflected(A.add)
Tensor.__sub__ = _binary_operator(A.sub)
Tensor.__rsub__ = _reflected(A.rsub)
Tensor.__mul__ = _binary_operator(A.mul)
Tensor.__rmul__ = _reflected(A.mul)
Tensor.__truediv__ = _binary_operator(A.div)
Tensor.__rtruediv__ = _reflected(lambda self, other: A.mul(A.reciprocal(self), other))   # as PyTorch does
Tensor.__floordiv__ = _binary_operator(A.floor_divide)
Tensor.__rfloordiv__ = _number_first(A.floor_divide)
Tensor.__mod__ = _binary_operator(A.remainder)
Tensor.__rmod__ = _number_first(A.remainder)
Tensor.__pow__ = _binary_operator(A.pow)
Tensor.__rpow__ = _reflected(lambda self, other: A._rpow(self, other))
Tensor.__matmul__ = lambda self, other: L.matmul(self, other) if isinstance(other, Tensor) else NotImplemented
Tensor.__rmatmul__ = lambda self, other: NotImplemented
Tensor.__neg__ = A.neg
Tensor.__pos__ = lambda self: self
Tensor.__abs__ = M.abs
Tensor.__invert__ = A.bitwise_not
Tensor.__and__ = _binary_operator(A.bitwise_and)
Tensor.__rand__ = _reflected(A.bitwise_and)
Tensor.__or__ = _binary_operator(A.bitwise_or)
Tensor.__ror__ = _reflected(A.bitwise_or)
Tensor.__xor__ = _binary_operator(A.bitwise_xor)
Tensor.__rxor__ = _reflected(A.bitwise_xor)
Tensor.__eq__ = _binary_operator(A.eq)
Tensor.__ne__ = _binary_operator(A.ne)
Tensor.__lt__ = _binary_operator(A.lt)
Tensor.__le__ = _binary_operator(A.le)
Tensor.__gt__ = _binary_operator(A.gt)
Tensor.__ge__ = _binary_operator(A.ge)
Tensor.__hash__ = object.__hash__
Tensor.__getitem__ = I.getitem
Tensor.__setitem__ = I.setitem


@property
def _T(self):
    """Reverse the dimensions (the transpose of a matrix). Mirrors ``Tensor.T``."""
    import warnings
    n = self._data.ndim
    if n == 2:
        return V.t(self)
    if n != 0:
        warnings.warn(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it "
            "will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
            "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. (Triggered "
            "internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)",
            UserWarning, stacklevel=2)
    return V.permute(self, tuple(range(n - 1, -1, -1)))


@property
def _mT(self):
    """Transpose the last two dimensions (batches of matrices). Mirrors ``Tensor.mT``."""
    n = self._data.ndim
    if n < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got {n}-D tensor.")
    return V.transpose(self, -2, -1)


Tensor.T = _T
Tensor.mT = _mT
Tensor.H = _T


# ---------------------------------------------------------------------------
# In-place methods: Tensor.name_(self, ...) writes into self
# ---------------------------------------------------------------------------

def _inplace_binary(op, name):
    def method(self, other, *, alpha=1):
        if alpha != 1:
            A._check_alpha(self._data, alpha)
            return D.inplace(op, name, self, other, {"alpha": alpha})
        return D.inplace(op, name, self, other)
    method.__name__ = name + "_"
    method.__doc__ = f"In-place ``{name}``: writes the result into ``self`` and returns ``self``."
    return method


def _inplace_unary(op, name):
    def method(self):
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
    D.check_inplace(self)
    result = A.pow(self.detach() if not (self._requires_grad and D.grad_mode.enabled) else self, exponent)
    return _assign_result(self, result)


def _assign_result(self, result):
    """Write an out-of-place result into ``self`` (for in-place ops defined through their functions)."""
    if not _dtype.can_cast(result.dtype, self.dtype):
        raise D.cast_error(result._data.dtype, self._data.dtype)
    if result._data.shape != self._data.shape:
        raise RuntimeError(f"output with shape [{', '.join(map(str, self.shape))}] doesn't match the broadcast "
                           f"shape [{', '.join(map(str, result.shape))}]")
    node = result._grad_fn
    self._data[...] = result._data
    self._bump()
    if node is not None:
        D.rebase_history(self, node)
    return self


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
Tensor.sigmoid_ = _inplace_unary(M.Sigmoid, "sigmoid")
Tensor.relu_ = _inplace_unary(M.Relu, "relu")
Tensor.floor_ = _inplace_unary(M.Floor, "floor")
Tensor.ceil_ = _inplace_unary(M.Ceil, "ceil")
Tensor.round_ = _inplace_unary(M.Round, "round")
Tensor.trunc_ = _inplace_unary(M.Trunc, "trunc")
Tensor.reciprocal_ = _inplace_unary(A.Reciprocal, "reciprocal")


def _clamp_(self, min=None, max=None):
    """In-place ``clamp``."""
    D.check_inplace(self)
    return _assign_result(self, M.clamp(self if self._requires_grad and D.grad_mode.enabled else self.detach(),
                                         min, max))


Tensor.clamp_ = _clamp_
Tensor.clip_ = _clamp_
Tensor.clamp_min_ = lambda self, min: _clamp_(self, min=min)
Tensor.clamp_max_ = lambda self, max: _clamp_(self, max=max)

Tensor.__iadd__ = lambda self, other: Tensor.add_(self, other) if _operand(other) else NotImplemented
Tensor.__isub__ = lambda self, other: Tensor.sub_(self, other) if _operand(other) else NotImplemented
Tensor.__imul__ = lambda self, other: Tensor.mul_(self, other) if _operand(other) else NotImplemented
Tensor.__itruediv__ = lambda self, other: _div_(self, other) if _operand(other) else NotImplemented
Tensor.__ifloordiv__ = lambda self, other: Tensor.floor_divide_(self, other) if _operand(other) else NotImplemented
Tensor.__imod__ = lambda self, other: Tensor.remainder_(self, other) if _operand(other) else NotImplemented
Tensor.__ipow__ = lambda self, other: _pow_(self, other) if _operand(other) else NotImplemented


def _operand(other):
    return isinstance(other, (Tensor, int, float)) or D.is_number(other)


def _zero_(self):
    """Fill with zeros in place and return ``self`` (``x.grad.zero_()`` resets a gradient)."""
    D.check_inplace(self)
    self._data[...] = 0
    self._bump()
    return self


def _fill_(self, value):
    """Fill with ``value`` in place and return ``self``."""
    D.check_inplace(self)
    if isinstance(value, Tensor):
        value = value.item()
    self._data[...] = D.make_scalar(value, self._data.dtype)
    self._bump()
    return self


def _copy_(self, src, non_blocking=False):
    """Copy ``src``'s values (broadcast, converted to ``self``'s dtype and device) into ``self``."""
    I.setitem(self, Ellipsis, src)
    return self


Tensor.zero_ = _zero_
Tensor.fill_ = _fill_
Tensor.copy_ = _copy_


def _uniform_(self, a=0.0, b=1.0, *, generator=None):
    """Fill with uniform random numbers in ``[a, b)`` in place."""
    from ._random import _rng
    D.check_inplace(self)
    self._data[...] = D.backend_of(self._data).asarray(_rng(generator).uniform(a, b, self._data.shape))
    self._bump()
    return self


def _normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Fill with normal random numbers in place."""
    from ._random import _rng
    D.check_inplace(self)
    self._data[...] = D.backend_of(self._data).asarray(mean + std * _rng(generator).standard_normal(self._data.shape))
    self._bump()
    return self


Tensor.uniform_ = _uniform_
Tensor.normal_ = _normal_


def _new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    """A new tensor from ``data`` with ``self``'s dtype and device by default."""
    from ._creation import tensor
    return tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _new_factory(name):
    def method(self, *size, dtype=None, device=None, requires_grad=False):
        from . import _creation
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
    from ._creation import full
    return full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                requires_grad=requires_grad)


Tensor.new_full = _new_full
