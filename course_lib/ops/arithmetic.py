"""Element-wise arithmetic: + - * / ** % //, comparisons, bitwise/logical operators.

Each differentiable operation is an :class:`Op` with its forward and
backward side by side.  Backward formulas may return gradients in the
broadcast shape; the engine sums them back to each input's shape.
"""

import numbers
import warnings

import numpy as np

from ..core import grad_mode
from ..core.backend import backend_of
from ..core.graph import Elementwise, Op
from ..core.layout import broadcast_shape
from ..core.ops import Add, Div, Mul, Sub
from ..core.tensor import Tensor
from ..torch_compat import dtypes as _dtype
from ..torch_compat.arguments import Signature, invalid_arguments, parse, tensor_expected, wrong_arguments
from ..torch_compat.fma import fused
from ..torch_compat.layouts import elementwise_result
from ..torch_compat.names import type_name
from ..torch_compat.opmath import precise
from . import _dispatch as D
from .creation import number_tensor

__all__ = ["add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide",
           "remainder", "fmod", "pow", "neg", "negative", "rsub", "reciprocal",
           "eq", "ne", "lt", "le", "gt", "ge", "equal", "allclose", "isclose",
           "logical_not", "logical_and", "logical_or", "logical_xor",
           "bitwise_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
           "positive",
           "maximum", "minimum", "square"]


# ---------------------------------------------------------------------------
# The operations
# ---------------------------------------------------------------------------

def _wrapped_number(name):
    """``iterator_operands`` of an op whose Python number (keyword argument ``name``) PyTorch wraps into a
    0-d tensor operand: the result's layout then follows the general rule, not the one-operand one."""
    return staticmethod(lambda arrays, params: (*arrays, params[name]))


def _rounded_quotient(a, b, rounding_mode):
    """``a / b`` of floats rounded down (Python's floor division: ``1.0 // 0.1`` is 9.0) or toward zero, as
    PyTorch computes it."""
    xp = _xp(a)
    if rounding_mode == "trunc":
        return xp.trunc(a / b)
    if a.dtype != np.float16:
        return xp.floor_divide(a, b)           # NumPy's algorithm is PyTorch's (and CPython's)
    # PyTorch's div_floor_floating, each step rounded to float16 (NumPy's float16 floor_divide differs)
    with np.errstate(divide="ignore", invalid="ignore"):
        mod = xp.fmod(a, b)
        div = (a - mod) / b
        div = xp.where((mod != 0) & ((b < 0) != (mod < 0)), div - a.dtype.type(1), div)
        floordiv = xp.floor(div)
        floordiv = xp.where(div - floordiv > 0.5, floordiv + a.dtype.type(1), floordiv)
        quotient = a / b
        floordiv = xp.where(div == 0, xp.copysign(a.dtype.type(0), quotient), floordiv)
        return xp.where(b == 0, quotient, floordiv).astype(a.dtype)


def _check_integer_division(a, b, kernel):
    """PyTorch's errors for an integer or bool division (``//``, ``%``, ``fmod``, rounded ``div``) by ``b``.

    Raises:
        NotImplementedError: bool operands ('"div_floor_cpu" not implemented for 'Bool'').
        RuntimeError: a zero divisor, unless the result has no elements ("ZeroDivisionError").
    """
    if a.dtype.kind == "b":
        raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'Bool\'')
    if a.size and np.size(b) and np.any(b == 0):
        raise RuntimeError("ZeroDivisionError")


def _alpha_of(a, alpha):
    """``alpha`` as the kernel holds it: a number of ``a``'s dtype (float16 too: ``alpha.to<scalar_t>()``)."""
    return a.dtype.type(alpha) if a.dtype == np.float16 else alpha


class AddAlpha(Add):
    """``add(a, b, alpha=...)`` with ``alpha != 1``: for floats ``a + alpha * b`` rounded once, as PyTorch's kernel
    computes it (``vec::fmadd(b, alpha, a)``); the node is ``Add``'s."""

    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        if a.dtype.kind != "f":
            return (a + b * alpha).astype(a.dtype, copy=False)
        return fused(b, _alpha_of(a, alpha), a, a.dtype)


class SubAlpha(Sub):
    """``sub(a, b, alpha=...)`` with ``alpha != 1``: PyTorch's ``add(a, b, alpha=-alpha)``, one rounding for floats."""

    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        if a.dtype.kind != "f":
            return a - b * alpha
        return fused(b, -_alpha_of(a, alpha), a, a.dtype)


WITH_ALPHA = {Add: AddAlpha, Sub: SubAlpha}     # the op that computes ``add``/``sub`` with an ``alpha``
D.opmath_scalar(Mul, Div)        # (add and sub round the number to float16 first, as PyTorch's add kernel does)


class RsubTensor(Elementwise):
    """``rsub(input, other)`` of two tensors: ``other - alpha * input`` (one rounding for floats, as PyTorch's
    ``sub(other, input, alpha)``), recorded as ``RsubBackward0`` with ``input``'s edge first."""

    node_name = "RsubBackward0"

    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        if alpha == 1:
            return b - a
        if a.dtype.kind != "f":
            return b - a * alpha
        return fused(a, -_alpha_of(a, alpha), b, a.dtype)

    def backward(ctx, grad):
        return (-grad if ctx.alpha == 1 else grad * -ctx.alpha), grad


class Rsub(Elementwise):
    """``number - tensor``: PyTorch's ``rsub(tensor, number)``, one input edge."""

    node_name = "RsubBackward1"

    iterator_operands = _wrapped_number("other")

    def forward(ctx, a, other):
        return other - a

    def backward(ctx, grad):
        return (-grad,)


class DivRounded(Elementwise):
    """``div(a, b, rounding_mode='floor' | 'trunc')``: the gradient is zero almost everywhere."""

    node_name = "DivBackward2"
    saved_names = ("other",)

    def forward(ctx, a, b, rounding_mode):
        ctx.save_for_backward(b)         # what PyTorch saves (so a second backward raises)
        if a.dtype.kind in "iub":
            _check_integer_division(a, b, "div_" + rounding_mode)
            q = a // b
            if rounding_mode == "trunc":
                q = q + ((q < 0) & (q * b != a))
            return q
        return _rounded_quotient(a, b, rounding_mode)

    def backward(ctx, grad):
        zeros = _xp(grad).zeros_like(grad)
        return zeros, zeros


class FloorDivide(Elementwise):
    """``a // b``.  PyTorch has no derivative for it: its node is named ``NotImplemented`` and raises."""

    node_name = "NotImplemented"
    node_full_name = "torch::autograd::NotImplemented"

    def forward(ctx, a, b):
        if a.dtype.kind in "iub":
            _check_integer_division(a, b, "div_floor")
            return a // b
        return _rounded_quotient(a, b, "floor")

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


class FloorDivideScalar(FloorDivide):
    """``tensor // number``: one input edge."""

    iterator_operands = _wrapped_number("other")

    def forward(ctx, a, other):
        return FloorDivide.forward(ctx, a, other)


FloorDivide.scalar_op = FloorDivideScalar


def _remainder(a, b):
    """``a % b`` with the sign of ``b`` (Python's rule), for floats as PyTorch computes it: ``fmod``, plus ``b``
    where the signs differ, so an exact multiple gives 0.0 (NumPy's ``%`` gives -0.0 for a negative ``b``)."""
    if a.dtype.kind != "f":
        return a % b
    xp = _xp(a)
    mod = xp.fmod(a, b)
    return xp.where((mod != 0) & ((mod < 0) != (b < 0)), mod + b, mod)


class RemainderScalar(Elementwise):
    """``tensor % number`` (RemainderBackward0: one input edge)."""

    node_name = "RemainderBackward0"

    iterator_operands = _wrapped_number("other")

    def forward(ctx, a, other):
        if a.dtype.kind in "iub":
            _check_integer_division(a, other, "remainder")
        return _remainder(a, other)

    def backward(ctx, grad):
        return (grad,)


class Remainder(Elementwise):
    """``tensor % tensor`` (RemainderBackward1)."""

    node_name = "RemainderBackward1"
    saved_names = ("self", "other")
    scalar_op = RemainderScalar

    def forward(ctx, a, b):
        if a.dtype.kind in "iub":
            _check_integer_division(a, b, "remainder")
        ctx.save_for_backward(a, b)
        return _remainder(a, b)

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad, -grad * _xp(grad).floor(a / b) if ctx.needs_input_grad[1] else None


class RemainderNumberFirst(Op):
    """``number % tensor`` (``remainder(Scalar, Tensor)``): PyTorch has no derivative for it, so its node is
    ``NotImplemented`` and raises in backward.  ``value`` is the result, computed as for two tensors."""

    node_name = "NotImplemented"
    node_full_name = "torch::autograd::NotImplemented"

    def forward(ctx, b, value):
        return value

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::remainder is not implemented")


class FmodScalar(Elementwise):
    """``fmod(tensor, number)`` (FmodBackward0: one input edge)."""

    node_name = "FmodBackward0"

    iterator_operands = _wrapped_number("other")

    def forward(ctx, a, other):
        if a.dtype.kind in "iub":
            _check_integer_division(a, other, "fmod")
        return _xp(a).fmod(a, other)

    def backward(ctx, grad):
        return (grad,)


class Fmod(Elementwise):
    """``fmod(tensor, tensor)`` (FmodBackward1)."""

    node_name = "FmodBackward1"
    saved_names = ("self", "other")
    scalar_op = FmodScalar

    def forward(ctx, a, b):
        if a.dtype.kind in "iub":
            _check_integer_division(a, b, "fmod")
        ctx.save_for_backward(a, b)
        return _xp(a).fmod(a, b)

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad, -grad * _xp(grad).trunc(a / b) if ctx.needs_input_grad[1] else None


class Pow(Elementwise):
    """``tensor ** number`` (PowBackward0: one input edge, the exponent is a Scalar)."""

    node_name = "PowBackward0"
    saved_names = ("self",)

    def forward(ctx, a, exponent, given=None):
        """``exponent`` is a Python number (keyword argument): the node has one input edge; ``given`` is
        the number as the caller wrote it (``node._saved_exponent``)."""
        if a.dtype.kind in "iu" and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        ctx.save_for_backward(a)
        ctx.exponent = exponent
        if given is not None:
            ctx._shown_exponent = given
        if exponent == 2:
            return a * a
        if a.dtype.kind != "f":
            return a ** exponent
        if a.dtype != np.float16:             # PyTorch's shortcuts for float32 and float64
            if exponent == 3:
                return a * a * a
            if exponent == -1:
                return 1 / a
            if exponent == -2:
                return 1 / (a * a)
            if exponent == 0.5:
                return _xp(a).sqrt(a)
            if exponent == -0.5:
                return 1 / _xp(a).sqrt(a)
        return precise(lambda wide: wide ** wide.dtype.type(exponent), a)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        e = ctx.exponent
        if e == 0:
            return (grad * 0,)
        if e == 2:
            return (grad * (2 * a),)
        return (grad * (e * a ** (e - 1)),)


class PowTensor(Elementwise):
    """``tensor ** tensor`` (PowBackward1)."""

    node_name = "PowBackward1"
    saved_names = ("self", "exponent", "result")

    def forward(ctx, a, b):
        if a.dtype.kind == "b":
            raise NotImplementedError('"pow" not implemented for \'Bool\'')
        result = _int_power(a, b) if a.dtype.kind in "iu" else precise(lambda wide: wide ** b.astype(wide.dtype), a)
        ctx.save_for_backward(a, b, result)
        return result

    def backward(ctx, grad):
        a, b, result = ctx.saved_tensors
        xp = _xp(grad)
        ga = gb = None
        if ctx.needs_input_grad[0]:      # PyTorch: 0 where the exponent is 0 (even at a == 0)
            ga = xp.where(b == 0, 0, grad * b * a ** (b - 1))
        if ctx.needs_input_grad[1]:
            gb = _exponent_grad(xp, grad, a, b, result)
        return ga, gb


def _int_power(base, exponent):
    """Integer ``base ** exponent`` as C computes it: a negative exponent gives 0 (or 1, -1 for bases 1, -1)
    instead of NumPy's error."""
    xp = _xp(base)
    if not (exponent < 0).any():
        return base ** exponent
    positive = base ** xp.where(exponent < 0, 0, exponent)
    flips = xp.where(exponent % 2 == 0, 1, -1).astype(base.dtype)
    return xp.where(exponent >= 0, positive, xp.where(base == 1, 1, xp.where(base == -1, flips, 0))).astype(
        positive.dtype)


def _exponent_grad(xp, grad, base, exponent, result):
    """d(base ** exponent)/d(exponent) = result * log(base); PyTorch takes 0 where base == 0 and exponent >= 0."""
    return xp.where((base == 0) & (exponent >= 0), 0, grad * result * xp.log(base))


class RPow(Elementwise):
    """``number ** tensor`` (PowBackward2: one input edge, the base is a Scalar)."""

    node_name = "PowBackward2"
    saved_names = ("exponent", "result")

    def forward(ctx, exponent, base, given=None):
        """``base`` is a Python number (keyword argument): the node has one input edge; ``given`` is the
        number as the caller wrote it (``node._saved_self``)."""
        if given is not None:
            ctx._shown_self = given
        if exponent.dtype.kind in "iu":
            result = _int_power(_xp(exponent).asarray(base, dtype=exponent.dtype), exponent)
        else:
            result = precise(lambda wide: wide.dtype.type(base) ** wide, exponent)
        ctx.save_for_backward(exponent, result)
        ctx.base = base
        return result

    def backward(ctx, grad):
        exponent, result = ctx.saved_tensors
        return (_exponent_grad(_xp(grad), grad, ctx.base, exponent, result),)


class Neg(Elementwise):
    node_name = "NegBackward0"
    ufunc = np.negative

    def forward(ctx, a):
        return -a

    def backward(ctx, grad):
        return (-grad,)


class Reciprocal(Elementwise):
    node_name = "ReciprocalBackward0"
    saved_names = ("result",)
    int_to_float = True

    def forward(ctx, a):
        with np.errstate(divide="ignore"):
            result = 1 / a
        ctx.save_for_backward(result)
        return result

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return (-grad * result * result,)


class Maximum(Elementwise):
    node_name = "MaximumBackward0"
    saved_names = ("self", "other")

    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return _xp(a).maximum(a, b)

    def backward(ctx, grad):
        return _select_grads(ctx, grad, _xp(grad).less)


def _select_grads(ctx, grad, loses):
    """maximum/minimum: the gradient goes to the selected operand; ties share it equally (PyTorch's rule)."""
    a, b = ctx.saved_tensors
    xp = _xp(grad)
    half = xp.where(a == b, grad / 2, grad)
    ga = xp.where(loses(a, b), 0, half) if ctx.needs_input_grad[0] else None
    gb = xp.where(loses(b, a), 0, half) if ctx.needs_input_grad[1] else None
    return ga, gb


class Minimum(Elementwise):
    node_name = "MinimumBackward0"
    saved_names = ("self", "other")

    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return _xp(a).minimum(a, b)

    def backward(ctx, grad):
        return _select_grads(ctx, grad, _xp(grad).greater)


def _comparison(name, fn):
    cls = type(name, (Elementwise,), {"forward": staticmethod(lambda ctx, a, b: fn(a, b)),
                                      "result_dtype": np.dtype(np.bool_)})
    return cls


Eq = _comparison("Eq", lambda a, b: a == b)
Ne = _comparison("Ne", lambda a, b: a != b)
Lt = _comparison("Lt", lambda a, b: a < b)
Le = _comparison("Le", lambda a, b: a <= b)
Gt = _comparison("Gt", lambda a, b: a > b)
Ge = _comparison("Ge", lambda a, b: a >= b)


def _bitwise(name, fn, torch_name):
    def forward(ctx, a, b):
        if a.dtype.kind == "f":
            short = _dtype._BY_NUMPY[a.dtype]._short_name
            raise NotImplementedError(f'"{torch_name}_cpu" not implemented for \'{short}\'')
        return fn(a, b)
    return type(name, (Elementwise,), {"forward": staticmethod(forward)})


def _shift(name, kernel, left):
    """``a << b`` / ``a >> b`` for integer tensors as PyTorch's kernels compute them: a shift by a negative
    amount or by the width of the type or more gives 0 (``<<``) or the sign (``>>``), where C (and NumPy) leave
    it undefined."""
    def forward(ctx, a, b):
        if a.dtype.kind not in "iu":
            short = _dtype._BY_NUMPY[a.dtype]._short_name
            raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'{short}\'')
        xp = _xp(a)
        amount = b.astype(a.dtype.str.replace("u", "i"), copy=False)       # the amount read as signed
        limit = a.dtype.itemsize * 8 - (not left and a.dtype.kind == "i")
        outside = (amount < 0) | (amount >= limit)
        unsigned = np.dtype(a.dtype.str.replace("i", "u"))
        if left:
            out = xp.left_shift(a.view(unsigned), xp.where(outside, 0, b).astype(unsigned)).view(a.dtype)
            return xp.where(outside, a.dtype.type(0), out)
        return xp.right_shift(a, xp.where(outside, limit, b).astype(a.dtype))
    return type(name, (Elementwise,), {"forward": staticmethod(forward)})


LeftShift = _shift("LeftShift", "lshift", True)
RightShift = _shift("RightShift", "rshift", False)
BitwiseAnd = _bitwise("BitwiseAnd", lambda a, b: a & b, "bitwise_and")
BitwiseOr = _bitwise("BitwiseOr", lambda a, b: a | b, "bitwise_or")
BitwiseXor = _bitwise("BitwiseXor", lambda a, b: a ^ b, "bitwise_xor")


def _xp(array):
    return backend_of(array) if not isinstance(array, np.generic) else np


# ---------------------------------------------------------------------------
# Public functions (torch.add, ...) and the Tensor operators built on them
# ---------------------------------------------------------------------------

def check_operands(name, a, b, alpha=1):
    """PyTorch's checks of ``add``/``sub`` (and their in-place forms) on tensor ``a`` and ``b`` (a tensor or number).

    Raises:
        RuntimeError: a bool operand in a subtraction; a bool ``alpha`` for a non-bool result; a float
            ``alpha`` for an integer result (PyTorch's messages).
    """
    if name == "sub":
        a_bool = a._data.dtype.kind == "b"
        b_bool = b._data.dtype.kind == "b" if isinstance(b, Tensor) else isinstance(b, (bool, np.bool_))
        if a_bool and b_bool:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                               "Use the `^` or `logical_xor()` operator instead.")
        if a_bool or b_bool:
            raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                               "trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    if alpha.__class__ is int and alpha == 1:
        return
    if not D.is_number(alpha):
        raise TypeError(f"{name}(): argument 'alpha' must be Number, not {type_name(alpha)}")
    D.make_scalar(alpha, np.dtype(np.float64))        # a Python int too big for PyTorch's Scalar raises
    result = _dtype.result_type(a, b) if isinstance(b, (Tensor, int, float, bool, np.number)) else a.dtype
    if isinstance(alpha, (bool, np.bool_)) and result is not _dtype.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, (float, np.floating)) and result._kind != "f":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    _dtype.checked_value(alpha, result, scalar=True)      # alpha becomes a number of the result's type


_DEPRECATED_WARNED = []


def _deprecated_alpha(name, other, extra, alpha):
    """``x.add(alpha, other)``, PyTorch's deprecated overload (``add(Number alpha, Tensor other)``): its warning,
    then ``(other, alpha)``; Python's TypeError for other extra arguments (as before)."""
    if len(extra) != 1 or alpha != 1 or isinstance(other, (Tensor, bool)) or not isinstance(other, numbers.Number):
        raise TypeError(f"{name}() takes 2 positional arguments but {2 + len(extra)} were given")
    if _DEPRECATED_WARNED:                   # PyTorch warns about a deprecated overload once per process
        return extra[0], other
    _DEPRECATED_WARNED.append(True)
    warnings.warn(f"This overload of {name} is deprecated:\n\t{name}(Number alpha, Tensor other)\nConsider using one "
                  f"of the following signatures instead:\n\t{name}(Tensor other, *, Number alpha = 1) (Triggered "
                  "internally at /__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1841.)", UserWarning,
                  stacklevel=3)
    return extra[0], other


def add(input, other, *extra, alpha=1, out=None):
    """``input + alpha * other``, element-wise with broadcasting. Mirrors ``torch.add``.

    Shapes broadcast; the dtype follows PyTorch's promotion (an int tensor
    plus a Python float is float32).  Records ``AddBackward0``.

    Raises:
        RuntimeError: shapes that do not broadcast; a float ``alpha`` with
            integer tensors.
        TypeError: ``other`` neither a tensor nor a number.
    """
    if extra:                                # x.add(alpha, other): deprecated
        other, alpha = _deprecated_alpha("add", other, extra, alpha)
    if out is not None:
        return D.write_out(out, add(input, other, alpha=alpha), "add", (input, other))
    if not isinstance(input, Tensor):
        input, other = _swap_number(input, other, "add")
    if alpha.__class__ is not int or alpha != 1:       # (add has nothing to check without alpha)
        check_operands("add", input, other, alpha)
    if alpha != 1:
        return D.binary(AddAlpha, "add", input, other, {"alpha": alpha})
    return D.binary(Add, "add", input, other)


def sub(input, other, *extra, alpha=1, out=None):
    """``input - alpha * other``, element-wise with broadcasting. Mirrors ``torch.sub``.

    Raises:
        RuntimeError: bool minus bool (PyTorch's message); shapes that do not broadcast.
    """
    if extra:                                # x.sub(alpha, other): deprecated
        other, alpha = _deprecated_alpha("sub", other, extra, alpha)
    if out is not None:
        return D.write_out(out, sub(input, other, alpha=alpha), "sub", (input, other))
    if not isinstance(input, Tensor):
        if not isinstance(other, Tensor):
            return sub(_both_numbers(input, other, "sub"), other, alpha=alpha)
        return rsub(other, input, alpha=alpha)
    check_operands("sub", input, other, alpha)
    if alpha != 1:
        return D.binary(SubAlpha, "sub", input, other, {"alpha": alpha})
    return D.binary(Sub, "sub", input, other)


subtract = sub


def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` (PyTorch's reversed subtraction)."""
    if not isinstance(input, Tensor):
        raise wrong_arguments("rsub", input, other)
    if isinstance(other, Tensor):
        check_operands("sub", other, input, alpha)
        return D.binary(RsubTensor, "rsub", input, other, {"alpha": alpha} if alpha != 1 else None)
    check_operands("sub", input, other)
    x = input._data
    dt = D.scalar_dtype(x.dtype, other)
    if x.dtype != dt:
        x = x.astype(dt)
    if alpha != 1:
        return sub(mul(input, alpha), other).neg()
    return D.record(Rsub, (input,), (x,), {"other": D.make_scalar(other, dt)})


def mul(input, other, *, out=None):
    """Element-wise (Hadamard) product ``input * other`` with broadcasting. Mirrors ``torch.mul``.

    Not the matrix product: that is ``matmul`` / ``@``.
    """
    if out is not None:
        return D.write_out(out, mul(input, other), "mul", (input, other))
    if not isinstance(input, Tensor):
        input, other = _swap_number(input, other, "mul")
    return D.binary(Mul, "mul", input, other)


multiply = mul


def div(input, other, *, rounding_mode=None, out=None):
    """``input / other`` element-wise. Mirrors ``torch.div``.

    True division always gives a floating result (int / int is float32).
    ``rounding_mode='floor'`` or ``'trunc'`` rounds the quotient and keeps
    integer dtypes.

    Raises:
        RuntimeError: an unknown ``rounding_mode``; integer division by zero
            with rounding ("ZeroDivisionError").
    """
    if out is not None:
        return D.write_out(out, div(input, other, rounding_mode=rounding_mode), "div", (input, other))
    if not isinstance(input, Tensor):
        input = _number_tensor(input, other, "div")
    if rounding_mode is None:
        return D.binary(Div, "div", input, other)
    if other.__class__ in _PYTHON_NUMBERS and _in_float32(input):
        return div(input.float(), other, rounding_mode=rounding_mode).half()
    if rounding_mode not in ("floor", "trunc"):
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                           f"'{rounding_mode}'")
    return D.binary(DivRounded, "div", input, other, {"rounding_mode": rounding_mode})


divide = div


def true_divide(input, other):
    """``input / other`` (always floating). Mirrors ``torch.true_divide``."""
    return div(input, other)


def floor_divide(input, other):
    """``input // other``: the quotient rounded down. Mirrors ``torch.floor_divide``.

    Raises:
        RuntimeError: integer division by zero ("ZeroDivisionError").
    """
    if not isinstance(input, Tensor):
        input = _number_tensor(input, other, "floor_divide")
    elif not (isinstance(other, Tensor) or D.is_number(other)):
        raise wrong_arguments("floor_divide", input, other)
    if other.__class__ in _PYTHON_NUMBERS and _in_float32(input):
        return floor_divide(input.float(), other).half()
    return D.binary(FloorDivide, "floor_divide", input, other)


def remainder(input, other):
    """``input % other`` with the sign of the divisor (Python's rule). Mirrors ``torch.remainder``."""
    if not isinstance(input, Tensor):
        if not isinstance(other, Tensor):
            raise wrong_arguments("remainder", input, other)
        number = _number_tensor(input, other)
        if not D.recording(other):
            return D.binary(Remainder, "remainder", number, other)
        with grad_mode.no_grad():
            value = D.binary(Remainder, "remainder", number, other)._data
        return D.record(RemainderNumberFirst, (other,), (other._data,), {"value": value})
    elif not (isinstance(other, Tensor) or D.is_number(other)):
        raise wrong_arguments("remainder", input, other)
    return D.binary(Remainder, "remainder", input, other)


def fmod(input, other):
    """Remainder with the sign of the dividend (C's rule). Mirrors ``torch.fmod``."""
    if not isinstance(input, Tensor) or not (isinstance(other, Tensor) or D.is_number(other)):
        raise wrong_arguments("fmod", input, other)
    return D.binary(Fmod, "fmod", input, other)


def pow(input, exponent, *extra, out=None):
    """``input ** exponent`` element-wise. Mirrors ``torch.pow``.

    A number exponent records ``PowBackward0``, a tensor exponent
    ``PowBackward1``, a number base ``PowBackward2``, as in PyTorch.

    Raises:
        RuntimeError: integers to negative integer powers.
        TypeError: arguments that fit none of PyTorch's overloads (``pow(t, 2, 3)``), with its message.
    """
    if extra:
        raise wrong_arguments("pow", input, exponent, *extra)
    if out is not None:
        return D.write_out(out, pow(input, exponent), "pow", (input, exponent))
    if not isinstance(input, Tensor):
        if not isinstance(exponent, Tensor):
            raise wrong_arguments("pow", input, exponent)
        return _rpow(exponent, input)
    if isinstance(exponent, Tensor):
        return D.binary(PowTensor, "pow", input, exponent)
    if not D.is_number(exponent):
        raise wrong_arguments("pow", input, exponent)
    D.make_scalar(exponent, np.dtype(np.float64))     # a Python int too big for PyTorch's Scalar raises
    x = input._data
    dt = D.scalar_dtype(x.dtype, exponent)
    if dt.kind in "iu" or dt == np.float16:             # the exponent becomes a number of that type
        _dtype.checked_value(exponent, _dtype._BY_NUMPY[dt], scalar=True)
    if x.dtype != dt:
        x = x.astype(dt)
    if dt.kind == "b":                                  # bool ** bool: x ** True is x, x ** False is all True
        return D.wrap(x | (not exponent))
    return D.record(Pow, (input,), (x,), {"exponent": D.make_scalar(exponent, dt) if dt.kind == "f" else int(exponent),
                                         "given": exponent})


def pow_method(self, *args, **kwargs):
    """``Tensor.pow(exponent)``: ``pow(self, exponent)``, with the method's own message for other arguments."""
    if len(args) == 1 and not kwargs:
        return pow(self, args[0])
    if not args and kwargs.keys() == {"exponent"}:
        return pow(self, kwargs["exponent"])
    raise invalid_arguments("pow", (Signature("(Tensor exponent)"), Signature("(Number exponent)")), args, kwargs)


pow_method.__name__ = pow_method.__qualname__ = "pow"


def _rpow(exponent, base):
    x = exponent._data
    dt = D.scalar_dtype(x.dtype, base)
    if dt.kind == "b":
        raise NotImplementedError('"pow" not implemented for \'Bool\'')
    if x.dtype != dt:
        x = x.astype(dt)
    return D.record(RPow, (exponent,), (x,), {"base": D.make_scalar(base, dt), "given": base})


def neg(input, *, out=None):
    """``-input``. Mirrors ``torch.neg``.

    Raises:
        RuntimeError: on a bool tensor (PyTorch's message).
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("neg", input)
    return D.unary(Neg, input)


negative = neg
D.refuse(Neg, "b", RuntimeError, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                                 "to invert a mask, use the `~` or `logical_not()` operator instead.")


def positive(input):
    """``+input``: the tensor itself. Mirrors ``torch.positive``.

    Raises:
        RuntimeError: a bool tensor (PyTorch's message). TypeError: not a tensor.
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("positive", input)
    if input._data.dtype.kind == "b":
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def reciprocal(input):
    """``1 / input`` element-wise (floating result). Mirrors ``torch.reciprocal``."""
    if not isinstance(input, Tensor):
        raise tensor_expected("reciprocal", input)
    return D.unary(Reciprocal, input)


def maximum(input, other):
    """Element-wise maximum of two tensors (broadcasting, promotion). Mirrors ``torch.maximum``.

    Raises:
        TypeError: ``other`` is not a tensor.
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("maximum", input)
    if not isinstance(other, Tensor):
        raise D._type_error("maximum", other)
    return D.binary(Maximum, "maximum", input, other)


def minimum(input, other):
    """Element-wise minimum of two tensors. Mirrors ``torch.minimum``."""
    if not isinstance(input, Tensor):
        raise tensor_expected("minimum", input)
    if not isinstance(other, Tensor):
        raise D._type_error("minimum", other)
    return D.binary(Minimum, "minimum", input, other)


def _compare(op, name):
    def compare(input, other, *, out=None):
        if not isinstance(input, Tensor):
            raise wrong_arguments(name, input, other)
        try:
            return D.binary(op, name, input, other)
        except TypeError:
            if not (isinstance(other, Tensor) or D.is_number(other)):
                raise wrong_arguments(name, input, other) from None
            raise
    compare.__name__ = name
    compare.__doc__ = (f"Element-wise ``{name}`` comparison with broadcasting; a bool tensor. "
                       f"Mirrors ``torch.{name}``.")
    return compare


eq = _compare(Eq, "eq")
ne = _compare(Ne, "ne")
lt = _compare(Lt, "lt")
le = _compare(Le, "le")
gt = _compare(Gt, "gt")
ge = _compare(Ge, "ge")


def equal(input, other):
    """True if both tensors have the same shape and elements. Mirrors ``torch.equal``."""
    if not isinstance(input, Tensor):
        raise tensor_expected("equal", input)
    if not isinstance(other, Tensor):
        raise tensor_expected("equal", other, "other", 2)
    if input.shape != other.shape:
        return False
    x, y = D.align(input, other)
    return bool((x == y).all())


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise ``|input - other| <= atol + rtol * |other|``. Mirrors ``torch.isclose``.

    Raises:
        RuntimeError: tensors of different dtypes ("Float did not match Double"), shapes that do not broadcast.
    """
    _check_close("isclose", input, other, rtol, atol, equal_nan)
    if input._data.dtype != other._data.dtype:
        raise RuntimeError(f"{input.dtype._short_name} did not match {other.dtype._short_name}")
    x, y = D.align(input, other)
    if x.shape != y.shape:
        broadcast_shape(x.shape, y.shape)          # PyTorch's RuntimeError for shapes that do not broadcast
    return D.wrap(elementwise_result(D.as_array(_xp(x).isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)),
                                     (x, y)))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True if all elements are close (see ``isclose``). Mirrors ``torch.allclose``.

    Raises:
        RuntimeError: tensors of different dtypes, shapes that do not broadcast.
    """
    _check_close("allclose", input, other, rtol, atol, equal_nan)
    return bool(isclose(input, other, rtol, atol, equal_nan)._data.all())


def _check_close(name, input, other, rtol, atol, equal_nan):
    """PyTorch's TypeErrors for the arguments of isclose / allclose."""
    if not (isinstance(input, Tensor) and isinstance(other, Tensor) and isinstance(rtol, (int, float))
            and isinstance(atol, (int, float)) and isinstance(equal_nan, bool)):
        parse(name, (Signature("(Tensor input, Tensor other, float rtol = 1e-05, float atol = 1e-08, "
                               "bool equal_nan = False)"),), (input, other, rtol, atol, equal_nan))


def _bool_view(x):
    return x if x.dtype.kind == "b" else x != 0


def logical_not(input):
    """Element-wise NOT (non-zero is True); a bool tensor. Mirrors ``torch.logical_not``."""
    if not isinstance(input, Tensor):
        raise tensor_expected("logical_not", input)
    return D.wrap(elementwise_result(D.as_array(~_bool_view(input._data)), (input._data,)))


def _logical(fn, name):
    def logical(input, other):
        if not isinstance(input, Tensor):
            raise tensor_expected(name, input)
        if not isinstance(other, Tensor):
            raise tensor_expected(name, other, "other", 2)
        x, y = D.align(input, other)
        if x.shape != y.shape:
            broadcast_shape(x.shape, y.shape)      # PyTorch's RuntimeError for shapes that do not broadcast
        out = fn(_bool_view(x), _bool_view(y))
        return D.wrap(elementwise_result(D.as_array(out), (x, y)))
    logical.__name__ = logical.__qualname__ = name
    return logical


logical_and = _logical(lambda a, b: a & b, "logical_and")
logical_or = _logical(lambda a, b: a | b, "logical_or")
logical_xor = _logical(lambda a, b: a ^ b, "logical_xor")
logical_and.__doc__ = "Element-wise AND of truth values; a bool tensor. Mirrors ``torch.logical_and``."
logical_or.__doc__ = "Element-wise OR of truth values; a bool tensor. Mirrors ``torch.logical_or``."
logical_xor.__doc__ = "Element-wise XOR of truth values; a bool tensor. Mirrors ``torch.logical_xor``."


def bitwise_not(input):
    """``~input``: logical NOT for bool, bitwise NOT for integers. Mirrors ``torch.bitwise_not``.

    Raises:
        NotImplementedError: on floating tensors (PyTorch's message; ``~x`` raises a TypeError instead).
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("bitwise_not", input)
    x = input._data
    if x.dtype.kind == "f":
        raise NotImplementedError(f'"bitwise_not_{input.device.type}" not implemented for '
                                  f"'{input.dtype._short_name}'")
    return D.wrap(elementwise_result(D.as_array(~x), (x,)))


def invert(input):
    """``~input`` (``Tensor.__invert__``): ``bitwise_not``, but a TypeError on floating tensors, as in PyTorch."""
    if input._data.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return bitwise_not(input)


def bitwise_left_shift(input, other):
    """``input << other`` for integer tensors (0 for a negative shift or one past the type's width).
    Mirrors ``torch.bitwise_left_shift``.

    Raises:
        NotImplementedError: a bool or floating result dtype (PyTorch's ``"lshift_cpu" not implemented``).
    """
    if not isinstance(input, Tensor):
        input = _number_tensor(input, other)
    return D.binary(LeftShift, "bitwise_left_shift", input, other)


def bitwise_right_shift(input, other):
    """``input >> other`` for integer tensors (arithmetic for signed types; a negative shift or one past the
    type's width gives the sign). Mirrors ``torch.bitwise_right_shift``.

    Raises:
        NotImplementedError: a bool or floating result dtype (``"rshift_cpu" not implemented``).
    """
    if not isinstance(input, Tensor):
        input = _number_tensor(input, other)
    return D.binary(RightShift, "bitwise_right_shift", input, other)


def bitwise_and(input, other):
    """``input & other`` for bool and integer tensors. Mirrors ``torch.bitwise_and``."""
    return D.binary(BitwiseAnd, "bitwise_and", input, other)


def bitwise_or(input, other):
    """``input | other`` for bool and integer tensors. Mirrors ``torch.bitwise_or``."""
    return D.binary(BitwiseOr, "bitwise_or", input, other)


def bitwise_xor(input, other):
    """``input ^ other`` for bool and integer tensors. Mirrors ``torch.bitwise_xor``."""
    return D.binary(BitwiseXor, "bitwise_xor", input, other)


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

_PYTHON_NUMBERS = (int, float)


def _in_float32(t):
    """True when PyTorch computes ``t * number``, ``t / number``, ``t // number`` in float32: for a float16 tensor
    it takes the number as float32 (its "opmath" type), not rounded to float16, and rounds the result once.
    (When a graph is recorded, course_lib keeps the plain operation, whose node PyTorch shows.)"""
    return t._data.dtype == np.float16 and not D.recording(t)


def _number_tensor(number, like, name=None):
    """A Python number as a 0-d tensor on ``like``'s device (for ``torch.div(2, t)`` and friends).

    With ``name`` (PyTorch's add, sub, mul, div and their aliases), ``like`` may be a number too:
    ``torch.div(2, 3)`` is ``tensor(0.6667)``, as in PyTorch.
    """
    if not isinstance(like, Tensor):
        if name is not None:
            return _both_numbers(number, like, name)
        raise TypeError(f"expected Tensor as element 0 in argument 0, but got {type(number).__name__}")
    if not D.is_number(number) or isinstance(number, np.ndarray):
        return number_tensor(number, like)
    # PyTorch's "wrapped number": it takes the tensor's dtype where it may (-1 % int32 tensor is int32, also 0-d)
    t = number_tensor(number, like)
    dt = D.scalar_dtype(like._data.dtype, number)
    if t._data.dtype != dt:
        t._data = t._data.astype(dt)
    return t


def _both_numbers(a, b, name):
    """``torch.name(a, b)`` with a non-tensor ``a``: PyTorch's add, sub, mul and div (and aliases) take a Python
    number there and wrap it into a 0-d tensor; anything else is PyTorch's TypeError."""
    if not D.is_number(a) or isinstance(a, np.ndarray):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type_name(a)}")
    if not D.is_number(b) or isinstance(b, np.ndarray):
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not {type_name(b)}")
    return number_tensor(a)


def _swap_number(a, b, name):
    if isinstance(b, Tensor):
        return b, a        # commutative: number op tensor == tensor op number
    return _both_numbers(a, b, name), b


def square(input):
    """``input ** 2``. Mirrors ``torch.square``."""
    if not isinstance(input, Tensor):
        raise tensor_expected("square", input)
    return pow(input, 2)
