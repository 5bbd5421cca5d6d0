"""Element-wise math functions: abs, exp, log, sqrt, sin, cos, tanh, sigmoid, relu, clamp, where, ...

Integer inputs of the floating functions (``exp``, ``sqrt``, ...) are
computed in the default float dtype, as in PyTorch.
"""

import math

import numpy as np

from ..core.backend import backend_of
from ..core.graph import Elementwise
from ..core.layout import broadcast_shape
from ..core.ops import Relu
from ..core.tensor import Tensor
from ..torch_compat import dtypes as _dtype
from ..torch_compat.arguments import Signature, invalid_arguments, parse, tensor_expected, wrong_arguments
from ..torch_compat.fma import fma, fma_float32, fused
from ..torch_compat.layouts import check_no_partial_overlap, elementwise_result
from ..torch_compat.opmath import precise
from . import _dispatch as D
from .indexing import nonzero

__all__ = ["abs", "absolute", "exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt",
           "sin", "cos", "tan", "tanh", "acos", "asin", "atan", "arccos", "arcsin", "arctan", "sigmoid", "relu",
           "floor", "ceil", "round", "trunc", "sign",
           "clamp", "clip", "clamp_min", "clamp_max", "where", "lerp", "isnan", "isinf", "isfinite", "erf"]


def _xp(a):
    return backend_of(a) if not isinstance(a, np.generic) else np


def _quiet():
    """NumPy warns on log(0), sqrt(-1), ...; PyTorch silently gives inf/nan, and so do we."""
    return np.errstate(divide="ignore", invalid="ignore", over="ignore")


def _in_float32(formula, grad, result):
    """``(formula(grad, result),)``: for float16 computed in float32 and rounded once, as PyTorch's backward kernels
    for reduced floating types do."""
    if result.dtype != np.float16:
        return (formula(grad, result),)
    return (formula(grad.astype(np.float32), result.astype(np.float32)).astype(np.float16),)


class Abs(Elementwise):
    node_name = "AbsBackward0"
    saved_names = ("self",)

    def forward(ctx, a):
        if a.dtype.kind == "b":
            raise NotImplementedError('"abs_cpu" not implemented for \'Bool\'')
        ctx.save_for_backward(a)
        return _xp(a).abs(a)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return (grad * _xp(a).sign(a),)


class Exp(Elementwise):
    node_name = "ExpBackward0"
    saved_names = ("result",)
    int_to_float = True

    def forward(ctx, a):
        with _quiet():
            result = precise(_xp(a).exp, a)
        ctx.save_for_backward(result)
        return result

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return (grad * result,)


class Log(Elementwise):
    node_name = "LogBackward0"
    saved_names = ("self",)
    int_to_float = True

    def forward(ctx, a):
        ctx.save_for_backward(a)
        with _quiet():
            return precise(_xp(a).log, a)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return (grad / a,)


class Log2(Elementwise):
    node_name = "Log2Backward0"
    saved_names = ("self",)
    int_to_float = True

    def forward(ctx, a):
        ctx.save_for_backward(a)
        with _quiet():
            return precise(_xp(a).log2, a)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return (grad / (a * np.log(2.0)).astype(a.dtype),)


class Log10(Elementwise):
    node_name = "Log10Backward0"
    saved_names = ("self",)
    int_to_float = True

    def forward(ctx, a):
        ctx.save_for_backward(a)
        with _quiet():
            return precise(_xp(a).log10, a)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return (grad / (a * np.log(10.0)).astype(a.dtype),)


class Log1p(Elementwise):
    node_name = "Log1PBackward0"
    saved_names = ("self",)
    int_to_float = True

    def forward(ctx, a):
        ctx.save_for_backward(a)
        with _quiet():
            return precise(_xp(a).log1p, a)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return (grad / (a + 1),)


class Expm1(Elementwise):
    node_name = "Expm1Backward0"
    saved_names = ("result",)
    int_to_float = True

    def forward(ctx, a):
        with _quiet():
            result = precise(_xp(a).expm1, a)
        ctx.save_for_backward(result)
        return result

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return (grad * (result + 1),)


class Sqrt(Elementwise):
    node_name = "SqrtBackward0"
    saved_names = ("result",)
    int_to_float = True

    def forward(ctx, a):
        with _quiet():
            result = _xp(a).sqrt(a)
        ctx.save_for_backward(result)
        return result

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return (grad / (2 * result),)


class Rsqrt(Elementwise):
    node_name = "RsqrtBackward0"
    saved_names = ("result",)
    int_to_float = True

    def forward(ctx, a):
        work = a.astype(np.float32) if a.dtype == np.float16 else a     # PyTorch: float16 in float32
        with _quiet():
            result = (1 / _xp(a).sqrt(work)).astype(a.dtype, copy=False)
        ctx.save_for_backward(result)
        return result

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return (grad * (-0.5 * result ** 3).astype(result.dtype),)


class Sin(Elementwise):
    node_name = "SinBackward0"
    saved_names = ("self",)
    int_to_float = True

    def forward(ctx, a):
        ctx.save_for_backward(a)
        return precise(_xp(a).sin, a)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return (grad * _xp(a).cos(a),)


class Cos(Elementwise):
    node_name = "CosBackward0"
    saved_names = ("self",)
    int_to_float = True

    def forward(ctx, a):
        ctx.save_for_backward(a)
        return precise(_xp(a).cos, a)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return (grad * -_xp(a).sin(a),)


class Tan(Elementwise):
    node_name = "TanBackward0"
    saved_names = ("result",)
    int_to_float = True

    def forward(ctx, a):
        result = precise(_xp(a).tan, a)
        ctx.save_for_backward(result)
        return result

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return (grad * (1 + result * result),)


class Acos(Elementwise):
    node_name = "AcosBackward0"
    saved_names = ("self",)
    int_to_float = True

    def forward(ctx, a):
        ctx.save_for_backward(a)
        with _quiet():
            return precise(_xp(a).arccos, a)

    def backward(ctx, grad):                 # PyTorch: grad * -((-self * self + 1).rsqrt())
        (a,) = ctx.saved_tensors
        with _quiet():
            return (grad * -(1 / _xp(a).sqrt(-a * a + 1)),)


class Asin(Elementwise):
    node_name = "AsinBackward0"
    saved_names = ("self",)
    int_to_float = True

    def forward(ctx, a):
        ctx.save_for_backward(a)
        with _quiet():
            return precise(_xp(a).arcsin, a)

    def backward(ctx, grad):                 # PyTorch: grad * (-self * self + 1).rsqrt()
        (a,) = ctx.saved_tensors
        with _quiet():
            return (grad * (1 / _xp(a).sqrt(-a * a + 1)),)


class Atan(Elementwise):
    node_name = "AtanBackward0"
    saved_names = ("self",)
    int_to_float = True

    def forward(ctx, a):
        ctx.save_for_backward(a)
        return precise(_xp(a).arctan, a)

    def backward(ctx, grad):                 # PyTorch: grad / (self * self + 1)
        (a,) = ctx.saved_tensors
        return (grad / (a * a + 1),)


class Tanh(Elementwise):
    node_name = "TanhBackward0"
    saved_names = ("result",)
    int_to_float = True

    def forward(ctx, a):
        result = precise(_xp(a).tanh, a)
        ctx.save_for_backward(result)
        return result

    def backward(ctx, grad):                 # PyTorch's tanh_backward: grad * (1 - y * y), the bracket one fused
        (result,) = ctx.saved_tensors      # multiply-add (float16 in float32)
        if result.dtype == np.float16:
            return _in_float32(lambda g, y: g * (1 - y * y), grad, result)
        return (grad * fused(-result, result, 1, result.dtype).astype(result.dtype, copy=False),)


class Sigmoid(Elementwise):
    node_name = "SigmoidBackward0"
    saved_names = ("result",)
    int_to_float = True

    def forward(ctx, a):
        # PyTorch's kernel: 1 / (1 + exp(-x)) in float32 for float16 and float32 (rounded after each step, exp
        # within an ulp: here correctly rounded), then rounded to float16 once.
        work = a.astype(np.float32) if a.dtype == np.float16 else a
        with _quiet():
            e = precise(_xp(a).exp, -work)
            one = work.dtype.type(1)
            result = (one / (one + e)).astype(a.dtype, copy=False)
        ctx.save_for_backward(result)
        return result

    def backward(ctx, grad):                 # PyTorch's sigmoid_backward: grad * (1 - y) * y, in that order
        (result,) = ctx.saved_tensors      # (float16 too: rounded after each step)
        return (grad * (1 - result) * result,)


def _clamped(xp, a, lo, hi):
    """``a`` limited to ``[lo, hi]`` as PyTorch's CPU kernel limits it: ``x`` stays unless ``x < lo`` (then ``lo``),
    then unless ``hi < x`` (then ``hi``), so a ``-0.`` at a bound of ``0.`` keeps its sign; NaN in ``a`` stays, a NaN
    bound gives NaN.  NumPy's ``maximum(lo, x)`` is exactly that (on a tie it returns its second operand), but for
    float16, which it compares otherwise: float16 goes through float32 (exactly)."""
    if a.dtype == np.float16:
        wide = [None if b is None else b.astype(np.float32) for b in (lo, hi)]
        return _clamped(xp, a.astype(np.float32), *wide).astype(np.float16)
    out = a if lo is None else xp.maximum(lo, a)
    if hi is not None:
        out = xp.minimum(hi, out)
    return out.astype(a.dtype, copy=False)


class Clamp(Elementwise):
    """``clamp(min=number, max=number)``: gradient passes where the input was inside the bounds."""

    node_name = "ClampBackward1"
    saved_names = ("self",)

    def forward(ctx, a, lo=None, hi=None):
        ctx.save_for_backward(a)
        ctx.lo, ctx.hi = lo, hi
        return _clamped(_xp(a), a, lo, hi)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        mask = True
        if ctx.lo is not None:
            mask = a >= ctx.lo
        if ctx.hi is not None:
            mask = mask & (a <= ctx.hi)
        return (grad * mask,)


class ClampMin(Clamp):
    """``clamp_min(number)``: its own node, as in PyTorch."""

    node_name = "ClampMinBackward0"


class ClampMax(Clamp):
    """``clamp_max(number)``: its own node, as in PyTorch."""

    node_name = "ClampMaxBackward0"


class ClampMinTensor(Elementwise):
    """``clamp_min(tensor)`` (ClampMinBackward1): two edges; the bound gets the gradient where it won."""

    node_name = "ClampMinBackward1"
    saved_names = ("self", "min")

    def forward(ctx, a, lo):
        ctx.save_for_backward(a, lo)
        return _clamped(_xp(a), a, lo, None)

    def backward(ctx, grad):
        a, lo = ctx.saved_tensors
        xp = _xp(grad)
        return xp.where(a >= lo, grad, 0), xp.where(a < lo, grad, 0)


class ClampMaxTensor(Elementwise):
    """``clamp_max(tensor)`` (ClampMaxBackward1)."""

    node_name = "ClampMaxBackward1"
    saved_names = ("self", "max")

    def forward(ctx, a, hi):
        ctx.save_for_backward(a, hi)
        return _clamped(_xp(a), a, None, hi)

    def backward(ctx, grad):
        a, hi = ctx.saved_tensors
        xp = _xp(grad)
        return xp.where(a <= hi, grad, 0), xp.where(a > hi, grad, 0)


def clamp_ops(min, max, one_sided):
    """The ops of ``clamp`` (``Clamp``, ``ClampTensor``) or, ``one_sided``, of ``clamp_min``/``clamp_max``."""
    if not one_sided:
        return Clamp, ClampTensor
    return (ClampMin, ClampMinTensor) if min is not None else (ClampMax, ClampMaxTensor)


class ClampTensor(Elementwise):
    """``clamp(min=tensor, max=tensor)`` (ClampBackward0): three edges, ``(None, 0)`` for a missing bound."""

    node_name = "ClampBackward0"
    saved_names = ("self", "min", "max")

    @staticmethod
    def iterator_operands(arrays, params):
        return tuple(a for a in arrays if a is not None)

    def forward(ctx, a, lo, hi):
        ctx.save_for_backward(a, lo, hi)
        return _clamped(_xp(a), a, lo, hi)

    def backward(ctx, grad):
        a, lo, hi = ctx.saved_tensors
        xp = _xp(grad)
        inside = True
        if lo is not None:
            inside = a >= lo
        if hi is not None:
            inside = inside & (a <= hi)
        g_lo = g_hi = None
        if lo is not None:    # PyTorch: where min > max, the result is max and min gets nothing
            g_lo = xp.where((a < lo) & (lo < hi) if hi is not None else a < lo, grad, 0)
        if hi is not None:
            g_hi = xp.where((a > hi) | (hi < lo) if lo is not None else a > hi, grad, 0)
        return xp.where(inside, grad, 0), g_lo, g_hi


class Where(Elementwise):
    """``where(condition, a, b)``: two edges (a and b); the condition is a keyword argument."""

    node_name = "WhereBackward0"
    saved_names = ("condition",)

    @staticmethod
    def iterator_operands(arrays, params):
        return (params["condition"], *arrays)

    def forward(ctx, a, b, condition):
        ctx.save_for_backward(condition)
        return _xp(a).where(condition, a, b)

    def backward(ctx, grad):
        (cond,) = ctx.saved_tensors
        xp = _xp(grad)
        return xp.where(cond, grad, 0), xp.where(cond, 0, grad)


def _rounding(name, fn):
    def forward(ctx, a):
        if a.dtype.kind == "f":
            return fn(_xp(a), a)
        if a.dtype.kind == "b":
            raise NotImplementedError(f'"{name.lower()}_vml_cpu" not implemented for \'Bool\'')
        return a.copy()                  # integers are already whole

    def backward(ctx, grad):
        return (_xp(grad).zeros_like(grad),)     # zero almost everywhere (PyTorch's formula)
    return type(name, (Elementwise,), {"node_name": name + "Backward0", "forward": forward, "backward": backward,
                                       "__doc__": f"``{name.lower()}``: piecewise constant, so its gradient is zero."})


Floor = _rounding("Floor", lambda xp, a: xp.floor(a))
Ceil = _rounding("Ceil", lambda xp, a: xp.ceil(a))
Round = _rounding("Round", lambda xp, a: xp.round(a))
Trunc = _rounding("Trunc", lambda xp, a: xp.trunc(a))
class Sign(Elementwise):
    node_name = "SignBackward0"

    def forward(ctx, a):
        if a.dtype.kind == "b":
            return a.copy()
        if a.dtype.kind != "f":
            return _xp(a).sign(a)
        # PyTorch's kernel: (0 < x) - (x < 0), so NaN gives 0 (NumPy's sign: NaN) and -0. gives 0.
        return (a > 0).astype(a.dtype) - (a < 0).astype(a.dtype)

    def backward(ctx, grad):
        return (_xp(grad).zeros_like(grad),)     # zero almost everywhere (PyTorch's formula)


class RoundDecimals(Elementwise):
    """``round(x, decimals=d)`` (RoundBackward1)."""

    node_name = "RoundBackward1"

    def forward(ctx, a, decimals):
        return _xp(a).round(a, decimals)

    backward = Round.backward


class Erf(Elementwise):
    node_name = "ErfBackward0"
    saved_names = ("self",)
    int_to_float = True

    def forward(ctx, a):
        ctx.save_for_backward(a)
        xp = _xp(a)
        if xp is np:
            return np.vectorize(math.erf, otypes=[a.dtype])(a)
        import cupyx.scipy.special
        return cupyx.scipy.special.erf(a)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return (grad * (2 / np.sqrt(np.pi)) * _xp(a).exp(-a * a),)


# ---------------------------------------------------------------------------
# Public functions
# ---------------------------------------------------------------------------

_MISSING = object()


def _unary_function(op, name, doc):
    def function(input=_MISSING, *extra, out=None):
        if input is _MISSING or extra:
            if input is _MISSING:
                raise TypeError(f'{name}() missing 1 required positional arguments: "input"')
            raise TypeError(f"{name}() takes 1 positional argument but {1 + len(extra)} were given")
        if not isinstance(input, Tensor):
            raise tensor_expected(name, input)
        result = D.unary(op, input)
        if out is not None:
            return D.write_out(out, result)
        return result
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc + f" Mirrors ``torch.{name}``."
    return function


abs = _unary_function(Abs, "abs", "Absolute value, element-wise (keeps the dtype).")
absolute = abs
exp = _unary_function(Exp, "exp", "e to the power of each element (floating result).")
log = _unary_function(Log, "log", "Natural logarithm, element-wise; log(0) = -inf, log(-1) = nan.")
log2 = _unary_function(Log2, "log2", "Base-2 logarithm, element-wise.")
log10 = _unary_function(Log10, "log10", "Base-10 logarithm, element-wise.")
log1p = _unary_function(Log1p, "log1p", "log(1 + x), accurate for small x.")
expm1 = _unary_function(Expm1, "expm1", "exp(x) - 1, accurate for small x.")
sqrt = _unary_function(Sqrt, "sqrt", "Square root, element-wise; sqrt(-1) = nan.")
rsqrt = _unary_function(Rsqrt, "rsqrt", "1 / sqrt(x), element-wise.")
sin = _unary_function(Sin, "sin", "Sine (radians), element-wise.")
cos = _unary_function(Cos, "cos", "Cosine (radians), element-wise.")
tan = _unary_function(Tan, "tan", "Tangent (radians), element-wise.")
tanh = _unary_function(Tanh, "tanh", "Hyperbolic tangent, element-wise, in (-1, 1).")
acos = _unary_function(Acos, "acos", "Inverse cosine, element-wise, in [0, pi]; nan outside [-1, 1].")
asin = _unary_function(Asin, "asin", "Inverse sine, element-wise, in [-pi/2, pi/2]; nan outside [-1, 1].")
atan = _unary_function(Atan, "atan", "Inverse tangent, element-wise, in (-pi/2, pi/2).")
arccos, arcsin, arctan = acos, asin, atan
sigmoid = _unary_function(Sigmoid, "sigmoid", "The logistic function 1 / (1 + exp(-x)), in (0, 1).")
relu = _unary_function(Relu, "relu", "max(x, 0), element-wise (keeps the dtype).")
D.refuse(Relu, "b", RuntimeError, "Boolean inputs not supported for relu")
floor = _unary_function(Floor, "floor", "Round down, element-wise.")
ceil = _unary_function(Ceil, "ceil", "Round up, element-wise.")
trunc = _unary_function(Trunc, "trunc", "Round toward zero, element-wise.")
sign = _unary_function(Sign, "sign", "-1, 0 or 1 by the sign of each element.")
erf = _unary_function(Erf, "erf", "The error function, element-wise.")


def round(input, *, decimals=0):
    """Round to the nearest integer (halves to even), or to ``decimals`` places. Mirrors ``torch.round``."""
    if not isinstance(input, Tensor):
        raise tensor_expected("round", input)
    if decimals:
        return D.unary(RoundDecimals, input, {"decimals": decimals})
    return D.unary(Round, input)


def clamp(input, min=None, max=None, *, out=None):
    """Limit every element to ``[min, max]`` (either bound may be omitted). Mirrors ``torch.clamp``.

    ``clamp(min=0)`` is ReLU.  Bounds may be numbers or tensors (broadcast).
    An integer tensor clamped by a float bound becomes float, as in PyTorch.

    Raises:
        RuntimeError: when both bounds are None.
    """
    return _clamp(input, min, max, out)


def _clamp(input, min, max, out, one_sided=False):
    scalar_op, tensor_op = clamp_ops(min, max, one_sided)
    if not isinstance(input, Tensor):
        given = (min, max) if max is not None else (min,) if min is not None else ()
        raise wrong_arguments("clamp", input, *given)
    if not (_is_bound(min) and _is_bound(max)):
        kwargs = {k: v for k, v in (("min", min), ("max", max)) if v is not None}
        raise invalid_arguments("clamp", (Signature("(Tensor min = None, Tensor max = None)"),
                                          Signature("(Number min = None, Number max = None)")), (), kwargs)
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        bounds = [b for b in (min, max) if b is not None]
        shape = input._data.shape
        for b in bounds:
            if isinstance(b, Tensor):
                shape = broadcast_shape(shape, b._data.shape)
        dt = _dtype.result_type(input, *bounds)
        xs = [input._data.astype(dt.numpy_dtype, copy=False)]
        for b in (min, max):
            xs.append(None if b is None else
                      (b._data if isinstance(b, Tensor) else np.asarray(b)).astype(dt.numpy_dtype, copy=False))
        if tensor_op is ClampTensor:
            result = D.record(ClampTensor, (input, min if isinstance(min, Tensor) else D.NUMBER,
                                            max if isinstance(max, Tensor) else D.NUMBER), tuple(xs))
        else:
            bound = min if min is not None else max
            result = D.record(tensor_op, (input, bound), (xs[0], xs[1] if min is not None else xs[2]))
    else:
        x = input._data
        if x.dtype.kind != "f":            # (a float tensor keeps its dtype whatever the number bounds)
            for b in (min, max):
                if b is not None:
                    dt = D.scalar_dtype(x.dtype, b)
                    if dt != x.dtype:
                        x = x.astype(dt)
        dt = _dtype._BY_NUMPY[x.dtype]
        if dt is _dtype.bool:
            which = "" if min is not None and max is not None else "_min" if min is not None else "_max"
            raise NotImplementedError(f'"clamp{which}_scalar_cpu" not implemented for \'Bool\'')
        lo = None if min is None else x.dtype.type(_dtype.checked_value(min, dt, scalar=True))
        hi = None if max is None else x.dtype.type(_dtype.checked_value(max, dt, scalar=True))
        result = D.record(scalar_op, (input,), (x,), {"lo": lo, "hi": hi})
    if out is not None:
        return D.write_out(out, result)
    return result


clip = clamp


def _is_bound(b):
    return b is None or isinstance(b, Tensor) or D.is_number(b)


def clamp_min(input, min):
    """``clamp(input, min=min)``, recorded as ``ClampMinBackward0`` (a tensor ``min``: ``ClampMinBackward1``).
    Mirrors ``torch.clamp_min``."""
    return _clamp(input, min, None, None, one_sided=True)


def clamp_max(input, max):
    """``clamp(input, max=max)``, recorded as ``ClampMaxBackward0`` (``ClampMaxBackward1``). Mirrors
    ``torch.clamp_max``."""
    return _clamp(input, None, max, None, one_sided=True)


def _where_signatures():
    return tuple(Signature(t) for t in (
        "(Tensor condition)", "(Tensor condition, Tensor input, Tensor other, *, Tensor out = None)",
        "(Tensor condition, Number self, Tensor other)", "(Tensor condition, Tensor input, Number other)",
        "(Tensor condition, Number self, Number other)"))


def where(condition, input=None, other=None):
    """Pick ``input`` where ``condition`` is True, else ``other`` (all three broadcast). Mirrors ``torch.where``.

    ``where(condition)`` alone gives the indices of the True elements, one
    tensor per dimension.

    Raises:
        RuntimeError: a condition that is not a bool tensor (PyTorch's message).
    """
    args = (condition, input, other)
    if input is None and other is None and isinstance(condition, Tensor):
        return nonzero(condition, as_tuple=True)
    if not isinstance(condition, Tensor) or input is None or other is None or not all(
            isinstance(v, Tensor) or D.is_number(v) and not isinstance(v, np.ndarray) for v in args[1:]):
        raise invalid_arguments("where", _where_signatures(), tuple(a for a in args if a is not None))
    shape = ()
    for v in args:                       # broadcast in PyTorch's order: condition, input, other
        if isinstance(v, Tensor):
            shape = broadcast_shape(shape, v._data.shape)
    if condition._data.dtype.kind != "b":
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{condition.dtype._short_name}")
    operands = [v for v in (input, other) if isinstance(v, Tensor)]
    if operands:
        dt = _dtype.result_type(*[input, other])
    else:
        dt = _dtype.result_type(input, other)
        if dt is _dtype.float32 and all(isinstance(v, float) for v in (input, other)):
            dt = _dtype.float32
    xp = _xp(condition._data)
    arrays = []
    for v in (input, other):
        if isinstance(v, Tensor):
            a = v._data.astype(dt.numpy_dtype, copy=False)
            if a.__class__ is not condition._data.__class__:
                if a.ndim == 0:
                    a = xp.asarray(a)
                else:
                    raise D._device_error(condition, v)
            arrays.append(a)
        else:
            arrays.append(dt.numpy_dtype.type(_dtype.checked_value(v, dt)))
    return D.record(Where, (input if isinstance(input, Tensor) else D.NUMBER,
                            other if isinstance(other, Tensor) else D.NUMBER),
                    (arrays[0], arrays[1]), {"condition": condition._data})


# ---------------------------------------------------------------------------
# lerp: linear interpolation between two tensors, by a number or a tensor of weights
# ---------------------------------------------------------------------------

def _lerp_values(a, b, w):
    """PyTorch's lerp kernel (``aten/src/ATen/native/cpu/LerpKernel.cpp``, ``Lerp.h``): ``a + w * (b - a)``
    where ``|w| < 0.5``, else ``b - (1 - w) * (b - a)`` (exact at both ends), each as one fused multiply-add
    in the op's precision (float16 computed in float32).  ``a``, ``b`` arrays, ``w`` an array or a scalar,
    all of one floating dtype."""
    xp, dtype = _xp(a), a.dtype
    if dtype == np.float64:
        fused = fma
    else:
        fused, f32 = fma_float32, np.dtype(np.float32)
        a, b, w = a.astype(f32, copy=False), b.astype(f32, copy=False), w.astype(f32, copy=False)
    small = xp.abs(w) < 0.5
    out = fused(xp.where(small, w, w - 1), b - a, xp.where(small, a, b))
    return D.as_array(out.astype(dtype, copy=False))


def _scaled(grad, number):
    """``grad * number`` as PyTorch multiplies a tensor by a Scalar: in the tensor's dtype, float16 in float32."""
    if grad.dtype == np.float16:
        return (grad.astype(np.float32) * np.float32(number)).astype(np.float16)
    return grad * grad.dtype.type(number)


class Lerp(Elementwise):
    """``lerp(input, end, weight)`` with a number ``weight`` (LerpBackward0): two edges, the weight a Scalar."""

    node_name = "LerpBackward0"

    def forward(ctx, a, b, weight, given):
        ctx.weight = given                 # grad_fn._saved_weight: the number as it was given
        return _lerp_values(a, b, weight)

    def backward(ctx, grad):               # PyTorch: grad * (1 - weight.toDouble()), grad * weight
        w = complex(ctx.weight).real
        need = ctx.needs_input_grad
        return (_scaled(grad, 1.0 - w) if need[0] else None, _scaled(grad, w) if need[1] else None)


class LerpTensor(Elementwise):
    """``lerp(input, end, weight)`` with a tensor ``weight`` (LerpBackward1): three edges.  ``dtype`` is the
    result's; a 0-d ``weight`` may have another (it is cast, as its input arrays are, inside forward, so that
    ``grad_fn._saved_weight`` is the weight itself)."""

    node_name = "LerpBackward1"
    saved_names = ("self", "end", "weight")

    def forward(ctx, a, b, w, dtype):
        need_weight = bool(ctx.needs_input_grad) and ctx.needs_input_grad[2]
        ctx.save_for_backward(a if need_weight else None, b if need_weight else None, w)   # as PyTorch saves
        return _lerp_values(a.astype(dtype, copy=False), b.astype(dtype, copy=False), w.astype(dtype, copy=False))

    def backward(ctx, grad):               # PyTorch: grad * (1 - weight), grad * weight, grad * (end - self)
        a, b, w = ctx.saved_tensors
        need, dtype = ctx.needs_input_grad, grad.dtype
        if need[0] and w.dtype.kind == "b":
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
                               "or `logical_xor()` operator instead.")
        return (grad * (1 - w).astype(dtype, copy=False) if need[0] else None,
                grad * w.astype(dtype, copy=False) if need[1] else None,
                grad * (b - a).astype(dtype, copy=False) if need[2] else None)


_LERP = tuple(Signature(t) for t in ("(Tensor input, Tensor end, Tensor weight, *, Tensor out = None)",
                                     "(Tensor input, Tensor end, Number weight, *, Tensor out = None)"))
_LERP_METHOD = tuple(Signature(t) for t in ("(Tensor end, Tensor weight)", "(Tensor end, Number weight)"))


def _lerp_arguments(name, signatures, args, kwargs, names):
    """The values of ``names`` (the operands) in a call with ``args`` and ``kwargs``, once it fits ``signatures``.

    Raises:
        TypeError: PyTorch's message when no signature fits ("lerp() received an invalid combination of
            arguments - got (Tensor, Tensor), but expected one of: ...").
    """
    if (len(args) == len(names) and not kwargs and all(isinstance(a, Tensor) for a in args[:-1])
            and (isinstance(args[-1], Tensor) or D.is_number(args[-1]))):
        return args
    args, kwargs = parse(name, signatures, args, kwargs)
    return tuple(args) + tuple(kwargs[n] for n in names[len(args):])


def _lerp_weight(weight, dt):
    """A number ``weight`` as PyTorch's kernel reads it: in the op's precision (float32 for float16).

    Raises:
        RuntimeError: a complex number with an imaginary part, or a finite float beyond float32's range for a
            float32 or float16 op ("value cannot be converted to type float without overflow").
    """
    opmath = _dtype.float64 if dt is _dtype.float64 else _dtype.float32
    if isinstance(weight, (complex, np.complexfloating)):
        if weight.imag:
            raise RuntimeError(f"value cannot be converted to type {opmath._cpp_name} without overflow")
        weight = weight.real
    return opmath.numpy_dtype.type(_dtype.checked_value(weight, opmath, scalar=True))


def _lerp_operation(input, end, weight, out=None):
    """``(op, inputs, arrays, params)`` of ``lerp(input, end, weight)``, after PyTorch's checks in its order;
    ``out`` is the tensor ``lerp_`` writes into (its overlap, shape and dtype are checked too).

    Raises:
        OverflowError: a Python int weight outside [-2**63, 2**64).
        RuntimeError: ``end`` (or a weight with dimensions) of another dtype than ``input``; shapes that do
            not broadcast; tensors on two devices; for ``lerp_``: memory shared with an operand, a broadcast
            shape or a result dtype ``out`` cannot hold; a weight that does not fit the op's precision.
        NotImplementedError: integer or bool operands.
    """
    number = not isinstance(weight, Tensor)
    if number and weight.__class__ is int:
        D.make_scalar(weight, np.dtype(np.int64))          # PyTorch's argument parser: "int too big to convert"
    operands = (input, end) if number else (input, end, weight)
    for t, what in zip(operands[1:], ("end", "weight")):
        if t.dtype is not input.dtype and (what == "end" or t._data.ndim):
            raise RuntimeError(f"expected dtype {_dtype.DEMANGLED_NAMES[input.dtype]} for `{what}` but got dtype "
                               f"{_dtype.DEMANGLED_NAMES[t.dtype]}")
    if out is not None:
        D.check_inplace(out, False)                        # an expanded tensor cannot be written into
        for t in operands[1:]:
            check_no_partial_overlap(out._data, t._data)
    shape = ()
    for t in operands:
        shape = broadcast_shape(shape, t._data.shape)
    arrays = D.same_device(*operands)
    dt = input.dtype if number else _dtype.result_type(*operands)
    if out is not None:
        if shape != out._data.shape:
            raise RuntimeError(f"output with shape [{', '.join(map(str, out.shape))}] doesn't match the broadcast "
                               f"shape [{', '.join(map(str, shape))}]")
        if not _dtype.can_cast(dt, out.dtype):
            raise D.cast_error(dt.numpy_dtype, out._data.dtype)
    if not dt.is_floating_point:
        raise NotImplementedError(f'"lerp_kernel_{"scalar" if number else "tensor"}" not implemented for '
                                  f"'{dt._short_name}'")
    if number:
        return Lerp, (input, end), tuple(arrays), {"weight": _lerp_weight(weight, dt), "given": weight}
    return LerpTensor, operands, tuple(arrays), {"dtype": dt.numpy_dtype}


def lerp(*args, out=None, **kwargs):
    """Linear interpolation ``input + weight * (end - input)``, element-wise. Mirrors ``torch.lerp``.

    ``lerp(input, end, weight)``: ``weight`` is a number or a tensor; ``input``, ``end`` and a tensor weight
    broadcast together.  ``input`` and ``end`` share one floating dtype, the result's; a tensor weight has it
    too, unless it is 0-d (then the dtypes promote as for ``+``).  Computed as PyTorch's kernel computes it,
    to the bit: ``input + weight * (end - input)`` for ``|weight| < 0.5``, ``end - (1 - weight) * (end - input)``
    otherwise, one fused multiply-add.  Records ``LerpBackward0`` (a number weight, ``grad_fn._saved_weight``)
    or ``LerpBackward1`` (a tensor weight: ``_saved_self``, ``_saved_end``, ``_saved_weight``).

    Raises:
        TypeError: arguments that fit neither ``(Tensor input, Tensor end, Tensor weight)`` nor
            ``(Tensor input, Tensor end, Number weight)`` (PyTorch's message).
        RuntimeError: ``end`` or a weight with dimensions of another dtype ("expected dtype float for `end`
            but got dtype double"), shapes that do not broadcast, ``out=`` with an operand that requires
            grad or of a dtype the result cannot be cast to.
        NotImplementedError: integer or bool operands ('"lerp_kernel_scalar" not implemented for 'Long'').
    """
    if out is not None and not isinstance(out, Tensor):
        kwargs = {**kwargs, "out": out}                    # parse() names the wrong argument
    input, end, weight = _lerp_arguments("lerp", _LERP, args, kwargs, ("input", "end", "weight"))
    if out is not None:
        D.check_out_grad("lerp", out, (input, end, weight))
        return D.write_out(out, lerp(input, end, weight))
    op, inputs, arrays, params = _lerp_operation(input, end, weight)
    return D.record(op, inputs, arrays, params)


def lerp_method(self, *args, **kwargs):
    """``torch.lerp(self, end, weight)`` as ``Tensor.lerp`` (whose messages list the method's signatures)."""
    end, weight = _lerp_arguments("lerp", _LERP_METHOD, args, kwargs, ("end", "weight"))
    return lerp(self, end, weight)


def lerp_(self, *args, **kwargs):
    """``Tensor.lerp_(end, weight)``: writes ``lerp(self, end, weight)`` into ``self`` and returns ``self``.

    Raises:
        RuntimeError: a leaf that requires grad (checked first, as in PyTorch); the errors of ``lerp``; a
            broadcast shape other than ``self``'s, a result dtype ``self`` cannot hold, an expanded ``self`` or
            one that partly shares memory with an operand.
    """
    end, weight = _lerp_arguments("lerp_", _LERP_METHOD, args, kwargs, ("end", "weight"))
    recorded = D.recording(self, end, weight if isinstance(weight, Tensor) else None)
    D.check_inplace(self, recorded, overlap=False)
    op, inputs, arrays, params = _lerp_operation(self, end, weight, out=self)
    if recorded:
        return D.inplace_record(op, self, inputs, arrays, params)
    self._data[...] = op.forward(D.NO_CONTEXT, *arrays, **params)
    self._bump()
    return self


def isnan(input):
    """True where an element is NaN. Mirrors ``torch.isnan``."""
    return D.wrap(elementwise_result(D.as_array(_xp(input._data).isnan(input._data)), (input._data,)))


def isinf(input):
    """True where an element is +inf or -inf. Mirrors ``torch.isinf``."""
    return D.wrap(elementwise_result(D.as_array(_xp(input._data).isinf(input._data)), (input._data,)))


def isfinite(input):
    """True where an element is neither inf nor NaN. Mirrors ``torch.isfinite``."""
    return D.wrap(elementwise_result(D.as_array(_xp(input._data).isfinite(input._data)), (input._data,)))
