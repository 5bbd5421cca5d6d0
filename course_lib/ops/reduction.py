"""Reductions: sum, mean, prod, max/min (with indices), argmax/argmin, std, var, all, any, norm.

``dim`` may be an int or a tuple of ints; ``keepdim=True`` keeps reduced
dimensions as size 1 (handy for broadcasting the result back).  Integer
and bool sums are int64, as in PyTorch.
"""

import builtins
import math
import types
import warnings

import numpy as np

from ..core.backend import backend_of
from ..core.graph import Op
from ..core.ops import Sum
from ..core.tensor import Tensor, wrap, wrap_dim
from ..torch_compat import dtypes as _dtype
from ..torch_compat.arguments import (
    FUNCTION_SIGNATURES,
    Signature,
    int_list,
    invalid_arguments,
    parse,
    parsed_like_pytorch,
    tensor_expected,
    wrong_arguments,
)
from ..torch_compat.names import public_module
from ..torch_compat.sum_order import total
from . import _dispatch as D
from .arithmetic import maximum, minimum

__all__ = ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "std", "var",
           "all", "any", "norm", "cumsum", "cumprod", "trace", "logsumexp", "count_nonzero", "return_types",
           "prod_method", "max_method", "min_method", "argmax_method", "argmin_method", "cumsum_method",
           "cumprod_method", "count_nonzero_method", "median", "median_method"]

_builtin_sum, _builtin_max, _builtin_all, _builtin_any = sum, max, all, any


def _xp(a):
    return backend_of(a)


# ---------------------------------------------------------------------------
# torch.return_types: the named tuples max(dim=...) and friends return
# ---------------------------------------------------------------------------

class _ReturnType(tuple):
    """A ``(values, indices)`` pair with names, printed as PyTorch prints its ``torch.return_types``."""

    n_fields = n_sequence_fields = 2
    n_unnamed_fields = 0
    _name = ""

    def __new__(cls, values, indices):
        return tuple.__new__(cls, (values, indices))

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]

    def __repr__(self):
        return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"

    def __getattr__(self, name):          # only for attributes it lacks: PyTorch's message names the full type
        raise AttributeError(f"'torch.return_types.{self._name}' object has no attribute '{name}'")


def _return_type(name):
    return type(name, (_ReturnType,), {"_name": name, "__slots__": (), "__module__": "course_lib.return_types"})


class return_types:
    """Named-tuple result types, as ``torch.return_types``."""

    max, min, sort, topk = _return_type("max"), _return_type("min"), _return_type("sort"), _return_type("topk")
    mode, median, kthvalue = _return_type("mode"), _return_type("median"), _return_type("kthvalue")


# type() of one prints <class 'course_lib.return_types.max'> (README.md, "Class names"); its repr stays PyTorch's text
public_module("course_lib.return_types", return_types.max, return_types.min, return_types.sort, return_types.topk,
              return_types.mode, return_types.median, return_types.kthvalue)


# ---------------------------------------------------------------------------
# dim handling
# ---------------------------------------------------------------------------

def normalize_dims(dim, ndim):
    """``dim`` (int, tuple, list or None) as a sorted tuple of non-negative axes.

    Raises:
        IndexError: a dim out of range; RuntimeError: a dim given twice.
    """
    if dim is None or isinstance(dim, (list, tuple)) and not dim:      # no dims: all of them, as in PyTorch
        return tuple(range(ndim))
    if isinstance(dim, (list, tuple)):
        axes = []
        for d in dim:
            a = wrap_dim(d, ndim)
            if a in axes:
                raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
            axes.append(a)
        return tuple(sorted(axes)) if ndim else ()
    a = wrap_dim(dim, ndim)
    return (a,) if ndim else ()


def _signatures(*texts):
    return tuple(Signature(t) for t in texts)


_SUM = ("(*, torch.dtype dtype = None)", "(tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)")
_PROD = ("(*, torch.dtype dtype = None)", "(int dim, bool keepdim = False, *, torch.dtype dtype = None)")
_MAX = ("()", "(Tensor other)", "(int dim, bool keepdim = False)")
_ARG = ("(int dim = None, bool keepdim = False)",)
_AMAX = ("(tuple of ints dim = [], bool keepdim = False)",)
_VAR = ("(tuple of ints dim, bool unbiased = True, bool keepdim = False)",
        "(tuple of ints dim = None, *, Number correction = None, bool keepdim = False)", "(bool unbiased = True)")
_ALL = ("()", "(tuple of ints dim = None, bool keepdim = False)", "(int dim, bool keepdim = False)")


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _check_args(name, texts, dim, keepdim, ints_only=False, none_ok=True):
    """``dim`` (None, an int or, unless ``ints_only``, a tuple of ints; a one-element integer tensor is read as
    an int) after checking it and ``keepdim`` (a bool), or the TypeError PyTorch raises, as if they were given
    by position."""
    ok_dim = (dim is None and none_ok) or _is_int(dim) or (
        not ints_only and isinstance(dim, (tuple, list)) and builtins.all(_is_int(d) for d in dim))
    if ok_dim and isinstance(keepdim, (bool, np.bool_)):
        return dim
    args = (dim,) if keepdim is False else (dim, keepdim)
    dim = parse(name, _signatures(*texts), args)[0][0]        # dim=torch.tensor(1) is read as 1
    if isinstance(dim, (tuple, list)):                        # a later element that is not an int
        int_list(name, "dim", (dim,))
    return dim


def _wrong_arguments(name, input, dim, keepdim, unset=None):
    """PyTorch's TypeError for ``torch.name(input, ...)`` with a non-tensor input (``dim`` and ``keepdim`` as
    if given by position, unless left at their defaults)."""
    args = (input,) if dim is unset else (input, dim)
    return wrong_arguments(name, *args, *((keepdim,) if keepdim not in (False, None) else ()))


def _expand_back(grad, shape, axes, keepdim):
    """Broadcast a reduced gradient back over the reduced axes."""
    if not keepdim:
        for a in axes:
            grad = _xp(grad).expand_dims(grad, a)
    return _expand(grad, shape)


def _expand(grad, shape):
    """``grad`` broadcast to ``shape`` without a copy (PyTorch's ``expand``): a read-only view.

    The usual case, the 0-d gradient of ``loss.sum()`` or ``loss.mean()``, is made directly as a
    view whose strides are all 0: ``np.broadcast_to`` spends about 2 µs of Python on it, this 0.3 µs.
    """
    if grad.ndim == 0 and grad.__class__ is not np.ndarray and isinstance(grad, np.generic):
        grad = np.asarray(grad)                 # a NumPy scalar (0-d arithmetic gives those)
    if grad.ndim == 0 and grad.__class__ is np.ndarray:
        view = np.ndarray(shape, grad.dtype, grad, 0, (0,) * len(shape))
        view.flags.writeable = False
        return view
    return _xp(grad).broadcast_to(grad, shape)


# ---------------------------------------------------------------------------
# Operations
# ---------------------------------------------------------------------------

def _reduced(out):
    """A reduction's result as PyTorch allocates it: a contiguous array (NumPy keeps the input's order)."""
    out = D.as_array(out)
    return out if out.flags.c_contiguous else _xp(out).ascontiguousarray(out)


_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)


_total = total      # ``a.sum`` in ``a``'s dtype, added in PyTorch's order (``_sum_order``)


def _average(a, axes, keepdims):
    """``sum / count`` (nan for no elements), PyTorch's mean; float16 is summed and divided in float32 (PyTorch
    converts it first), then rounded."""
    count = math.prod([a.shape[i] for i in axes]) if axes is not None else a.size
    half = a.dtype is _F16
    acc = _F32 if half else a.dtype
    total = _total(a.astype(_F32) if half else a, axes, keepdims)
    if count:
        mean = total / acc.type(count)
    else:
        with np.errstate(invalid="ignore", divide="ignore"):      # 0 / 0: nan, silently (only here)
            mean = total / acc.type(count)
    return _reduced(mean.astype(a.dtype, copy=False))


class SumDim(Op):
    node_name = "SumBackward1"

    def forward(ctx, a, axes, keepdim, dtype=None):
        ctx.shape, ctx.axes, ctx.keepdim = a.shape, axes, keepdim
        return _reduced(_total(a, axes, keepdim))

    def backward(ctx, grad):
        return (_expand_back(grad, ctx.shape, ctx.axes, ctx.keepdim),)


class Mean(Op):
    node_name = "MeanBackward0"

    def forward(ctx, a):
        ctx.shape = a.shape
        return _average(a, None, False)

    def backward(ctx, grad):
        return (_expand(grad / math.prod(ctx.shape), ctx.shape),)


class MeanDim(Op):
    node_name = "MeanBackward1"

    def forward(ctx, a, axes, keepdim):
        ctx.shape, ctx.axes, ctx.keepdim = a.shape, axes, keepdim
        ctx.count = int(np.prod([a.shape[i] for i in axes]))
        return _average(a, axes, keepdim)

    def backward(ctx, grad):
        return (_expand_back(grad / ctx.count, ctx.shape, ctx.axes, ctx.keepdim),)


def _others_product(a, axis):
    """Product of all other elements along ``axis`` (or all, axis=None), exact even with zeros."""
    xp = _xp(a)
    if axis is None:
        flat = a.reshape(-1)
        ones = xp.ones(1, dtype=a.dtype)
        left = xp.concatenate([ones, xp.cumprod(flat)[:-1]])
        right = xp.concatenate([xp.cumprod(flat[::-1])[:-1][::-1], ones])
        return (left * right).reshape(a.shape)
    moved = xp.moveaxis(a, axis, -1)
    ones = xp.ones(moved.shape[:-1] + (1,), dtype=a.dtype)
    left = xp.concatenate([ones, xp.cumprod(moved, axis=-1)[..., :-1]], axis=-1)
    right = xp.concatenate([xp.cumprod(moved[..., ::-1], axis=-1)[..., :-1][..., ::-1], ones], axis=-1)
    return xp.moveaxis(left * right, -1, axis)


def _product(a, axis, keepdims):
    """``a.prod(axis)`` in ``a``'s dtype; float16 multiplied one element after the other, each product rounded to
    float16, as PyTorch's kernel does (NumPy keeps a float32 product)."""
    if a.dtype != _F16 or a.size == 0:
        return a.prod(axis=axis, keepdims=keepdims, dtype=a.dtype)
    rows = _xp(a).moveaxis(a, axis, 0) if axis is not None else a.reshape(-1)
    out = rows[0].copy()
    for row in rows[1:]:
        out = out * row
    return _xp(a).expand_dims(out, axis) if keepdims and axis is not None else \
        out.reshape((1,) * a.ndim) if keepdims else out


class Prod(Op):
    node_name = "ProdBackward0"
    saved_names = ("self", "result")

    def forward(ctx, a, dtype=None):
        with np.errstate(over="ignore", invalid="ignore"):     # inf, silently, as in PyTorch
            result = D.as_array(_product(a, None, False))
        ctx.save_for_backward(a, result)
        return result

    def backward(ctx, grad):                 # PyTorch's prod_backward
        a, result = ctx.saved_tensors
        if a.ndim == 0:
            return (grad,)
        zeros = int((a == 0).sum())
        if zeros == 0:
            with np.errstate(divide="ignore", invalid="ignore"):
                return (grad * (result / a),)
        if zeros > 1:                        # every product of the others holds a zero
            return (_xp(a).zeros_like(a),)
        return (grad * _others_product(a, None),)


class ProdDim(Op):
    node_name = "ProdBackward1"
    saved_names = ("self", "result")

    def forward(ctx, a, axis, keepdim, dtype=None):
        with np.errstate(over="ignore", invalid="ignore"):
            result = _reduced(_product(a, axis, keepdim))
        ctx.save_for_backward(a, result)
        ctx.axis, ctx.keepdim = axis, keepdim
        return result

    def backward(ctx, grad):                 # PyTorch's prod_backward (with a dim)
        a, result = ctx.saved_tensors
        if a.ndim == 0:
            return (grad,)
        xp = _xp(grad)
        if not ctx.keepdim:
            grad, result = xp.expand_dims(grad, ctx.axis), xp.expand_dims(result, ctx.axis)
        if not (a == 0).any():
            with np.errstate(divide="ignore", invalid="ignore"):
                return (grad * (result / a),)
        return (grad * _others_product(a, ctx.axis),)


class MaxAll(Op):
    """``max()`` / ``min()`` of all elements: the gradient is shared evenly by the tied extremes."""

    node_name = "MaxBackward1"
    saved_names = ("self", "result")

    def forward(ctx, a, largest=True):
        result = D.as_array(a.max() if largest else a.min())
        ctx.save_for_backward(a, result)
        return result

    def backward(ctx, grad):
        a, result = ctx.saved_tensors
        mask = (a == result)
        if result != result:   # NaN: the NaNs take the gradient
            mask = a != a
        return (grad * mask / mask.sum(),)


class MinAll(MaxAll):
    node_name = "MinBackward1"


class MaxDim(Op):
    """``max(dim)`` / ``min(dim)``: values and indices; the gradient goes to the selected index."""

    node_name = "MaxBackward0"
    saved_names = ("indices",)

    def forward(ctx, a, axis, keepdim, largest=True):
        xp = _xp(a)
        ctx.shape = a.shape
        if a.ndim == 0:                      # a 0-d tensor: itself, at index 0
            idx = xp.zeros((), dtype=np.int64)
            ctx.save_for_backward(idx)
            return a.copy(), idx
        idx = xp.argmax(a, axis=axis) if largest else xp.argmin(a, axis=axis)
        idx = xp.expand_dims(idx, axis)
        values = xp.take_along_axis(a, idx, axis=axis)
        if not keepdim:
            values, idx = values.squeeze(axis), idx.squeeze(axis)
        ctx.shape, ctx.axis, ctx.keepdim = a.shape, axis, keepdim
        ctx.save_for_backward(idx)
        return _reduced(values), _reduced(idx.astype(np.int64))

    def backward(ctx, grad, grad_indices=None):
        (idx,) = ctx.saved_tensors
        xp = _xp(grad)
        if not ctx.shape:
            return (grad,)
        if not ctx.keepdim:
            grad, idx = xp.expand_dims(grad, ctx.axis), xp.expand_dims(idx, ctx.axis)
        n = ctx.shape[ctx.axis]
        positions = xp.arange(n).reshape((n,) + (1,) * (len(ctx.shape) - ctx.axis - 1))
        return (xp.where(positions == idx, grad, 0),)     # the gradient goes to the selected element


class MinDim(MaxDim):
    node_name = "MinBackward0"


class Median(Op):
    """``median()`` of all elements: the lower median (element ``(n - 1) // 2`` of the sorted values), NaN if there
    is a NaN (and for no elements); the gradient is shared evenly by the elements equal to it."""

    node_name = "MedianBackward0"
    saved_names = ("self", "result")

    def forward(ctx, a):
        xp = _xp(a)
        flat = a.reshape(-1)
        with np.errstate(invalid="ignore"):
            if flat.size == 0 or flat.dtype.kind == "f" and xp.isnan(flat).any():
                result = xp.asarray(np.nan).astype(a.dtype)      # (an integer tensor's NaN: its smallest value)
            else:
                k = (flat.size - 1) // 2
                result = xp.asarray(xp.partition(flat, k)[k])
        ctx.save_for_backward(a, result)
        return result

    def backward(ctx, grad):                 # PyTorch's evenly_distribute_backward
        a, result = ctx.saved_tensors
        xp = _xp(a)
        mask = xp.isnan(a) if result.dtype.kind == "f" and xp.isnan(result) else a == result
        return (xp.where(mask, grad / grad.dtype.type(mask.sum()), grad.dtype.type(0)),)


class MedianDim(Op):
    """``median(dim)``: values and indices of the lower median of each slice (ties: the element that comes first in
    the input; a slice with NaN: its first NaN); the gradient goes to the selected index, as for ``max(dim)``."""

    node_name = "MedianBackward1"
    saved_names = ("indices",)

    def forward(ctx, a, axis, keepdim):
        xp = _xp(a)
        ctx.shape, ctx.axis, ctx.keepdim = a.shape, axis, keepdim
        if a.ndim == 0:
            idx = xp.zeros((), dtype=np.int64)
            ctx.save_for_backward(idx)
            return a.copy(), idx
        moved = xp.moveaxis(a, axis, -1)
        idx = xp.argsort(moved, axis=-1, kind="stable")[..., (a.shape[axis] - 1) // 2]
        if a.dtype.kind == "f":
            nan = xp.isnan(moved)
            idx = xp.where(nan.any(axis=-1), xp.argmax(nan, axis=-1), idx)
        idx = xp.expand_dims(idx.astype(np.int64), axis)
        values = xp.take_along_axis(a, idx, axis=axis)
        if not keepdim:
            values, idx = values.squeeze(axis), idx.squeeze(axis)
        ctx.save_for_backward(idx)
        return _reduced(values), _reduced(idx)

    backward = MaxDim.backward


class Amax(Op):
    """``amax(dim)``: the gradient is shared evenly by the tied extremes of each reduced slice."""

    node_name = "AmaxBackward0"
    saved_names = ("self", "result")

    def forward(ctx, a, axes, keepdim):
        result = _reduced(a.max(axis=axes, keepdims=keepdim) if a.ndim else a.copy())
        ctx.save_for_backward(a, result)
        ctx.axes, ctx.keepdim = axes, keepdim
        return result

    def backward(ctx, grad):
        a, result = ctx.saved_tensors
        if not ctx.keepdim:
            grad, result = _expand_dims_all(grad, ctx.axes), _expand_dims_all(result, ctx.axes)
        mask = a == result
        return (grad * mask / mask.sum(axis=ctx.axes, keepdims=True),)


class Amin(Amax):
    node_name = "AminBackward0"

    def forward(ctx, a, axes, keepdim):
        result = _reduced(a.min(axis=axes, keepdims=keepdim) if a.ndim else a.copy())
        ctx.save_for_backward(a, result)
        ctx.axes, ctx.keepdim = axes, keepdim
        return result


class Var(Op):
    node_name = "VarBackward0"
    saved_names = ("self",)

    def forward(ctx, a, axes, correction, keepdim):
        n = int(np.prod([a.shape[i] for i in axes])) if axes else 1
        if axes == ():
            axes = None
            n = a.size
        ctx.save_for_backward(a)
        ctx.axes, ctx.keepdim, ctx.dof = axes, keepdim, n - correction
        return _variance(a, axes, n - correction, keepdim)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        axes = ctx.axes if ctx.axes is not None else tuple(range(a.ndim))
        centered = a - a.mean(axis=axes, keepdims=True)
        g = grad if ctx.keepdim or ctx.axes is None else _expand_dims_all(grad, axes)
        return (g * (2.0 / ctx.dof) * centered,)


class Std(Op):
    node_name = "StdBackward0"
    saved_names = ("self", "result")

    def forward(ctx, a, axes, correction, keepdim):
        n = int(np.prod([a.shape[i] for i in axes])) if axes else a.size
        if axes == ():
            axes = None
        result = _variance(a, axes, n - correction, keepdim, root=True)
        ctx.save_for_backward(a, result)
        ctx.axes, ctx.keepdim, ctx.dof = axes, keepdim, n - correction
        return result

    def backward(ctx, grad):
        a, result = ctx.saved_tensors
        axes = ctx.axes if ctx.axes is not None else tuple(range(a.ndim))
        centered = a - a.mean(axis=axes, keepdims=True)
        if not ctx.keepdim and ctx.axes is not None:
            grad, result = _expand_dims_all(grad, axes), _expand_dims_all(result, axes)
        # PyTorch: 0 where the std is 0
        return (_xp(a).where(result == 0, 0, grad * centered / (ctx.dof * result)),)


def _variance(a, axes, dof, keepdim, root=False):
    """The sum of squared deviations over ``max(dof, 0)`` (its square root if ``root``), computed in double
    precision and rounded once to ``a``'s dtype (PyTorch accumulates float16/float32 variances in double);
    no elements or ``dof <= 0`` give nan or inf."""
    wide = a.astype(np.float64)
    centered = wide - wide.mean(axis=axes, keepdims=True) if a.size else wide
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (centered * centered).sum(axis=axes, keepdims=keepdim) / builtins.max(dof, 0)
    return _reduced((_xp(a).sqrt(out) if root else out).astype(a.dtype))


def _expand_dims_all(x, axes):
    for a in sorted(axes):
        x = _xp(x).expand_dims(x, a)
    return x


class LogSumExp(Op):
    node_name = "LogsumexpBackward0"
    saved_names = ("self", "result")

    def forward(ctx, a, axes, keepdim):
        xp = _xp(a)
        ctx.axes, ctx.keepdim = axes, keepdim
        if a.size == 0:                  # the log of an empty sum
            shape = tuple(1 if i in axes else n for i, n in enumerate(a.shape) if keepdim or i not in axes)
            result = xp.full(shape, -np.inf, dtype=a.dtype)
            ctx.save_for_backward(a, result)
            return result
        m = a.max(axis=axes, keepdims=True)
        m = xp.where(xp.isfinite(m), m, 0)
        with np.errstate(divide="ignore"):
            out = xp.log(xp.exp(a - m).sum(axis=axes, keepdims=True)) + m
        result = D.as_array(out if keepdim else out.squeeze(axis=axes))
        ctx.save_for_backward(a, result)
        return result

    def backward(ctx, grad):
        a, result = ctx.saved_tensors
        if not ctx.keepdim:
            grad, result = _expand_dims_all(grad, ctx.axes), _expand_dims_all(result, ctx.axes)
        return (grad * _xp(a).exp(a - result),)


class VectorNorm(Op):
    """``norm(p, dim)``, PyTorch's ``linalg.vector_norm``: ``sum(|x|**p) ** (1/p)`` over ``dim``."""

    node_name = "LinalgVectorNormBackward0"
    saved_names = ("self", "result")

    def forward(ctx, a, ord, axes, keepdim):
        xp = _xp(a)
        m = xp.abs(a)
        if ord == 2:
            result = xp.sqrt((m * m).sum(axis=axes, keepdims=keepdim))
        elif ord == 1:
            result = m.sum(axis=axes, keepdims=keepdim)
        elif ord == float("inf"):
            result = m.max(axis=axes, keepdims=keepdim)
        elif ord == -float("inf"):
            result = m.min(axis=axes, keepdims=keepdim)
        elif ord == 0:
            result = (m != 0).sum(axis=axes, keepdims=keepdim).astype(a.dtype)
        else:
            with np.errstate(divide="ignore", over="ignore"):
                result = (m ** ord).sum(axis=axes, keepdims=keepdim) ** (1.0 / ord)
        result = D.as_array(result.astype(a.dtype, copy=False))
        ctx.save_for_backward(a, result)
        ctx.ord, ctx.axes, ctx.keepdim = ord, axes, keepdim
        return result

    def backward(ctx, grad):
        a, result = ctx.saved_tensors
        xp = _xp(a)
        if not ctx.keepdim:
            grad, result = _expand_dims_all(grad, ctx.axes), _expand_dims_all(result, ctx.axes)
        p = ctx.ord
        if p == 0:
            return (xp.zeros_like(a),)
        if p == 1:
            return (grad * xp.sign(a),)
        if p in (float("inf"), -float("inf")):       # shared evenly by the tied extremes
            mask = xp.abs(a) == result
            return (grad * xp.sign(a) * mask / mask.sum(axis=ctx.axes, keepdims=True),)
        if p == 2:
            scaled = a / result
        else:
            scaled = a * xp.abs(a) ** (p - 2) / result ** (p - 1)
        return (grad * xp.where(result == 0, 0, scaled),)    # PyTorch: 0 where the norm is 0


_WIDE = {np.dtype(np.float16): np.dtype(np.float32), np.dtype(np.float32): np.dtype(np.float64)}


def _running(fn, a, axis, start):
    """``fn`` (``cumsum`` or ``cumprod``) of ``a`` along ``axis`` as PyTorch's CPU kernel runs it: from ``start``
    (0 or 1), accumulated in a wider type (float32 in float64, float16 in float32) and rounded once per element.
    Starting from +0. means a running sum is never -0. (NumPy's ``cumsum([-0.])`` is ``[-0.]``)."""
    wide = _WIDE.get(a.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        out = fn(a if wide is None else a.astype(wide), axis=axis)
        if start == 0 and a.dtype.kind == "f":
            out += out.dtype.type(0)
        return out if wide is None else out.astype(a.dtype)


class CumSum(Op):
    node_name = "CumsumBackward0"

    def forward(ctx, a, axis, dtype=None):
        ctx.axis = axis
        if a.ndim == 0:
            return a.copy()                 # the running sum of one number
        return _running(_xp(a).cumsum, a, axis, 0)

    def backward(ctx, grad):
        if grad.size <= 1 or grad.shape[ctx.axis] == 1:      # PyTorch: the gradient itself
            return (grad,)
        xp = _xp(grad)
        return (xp.flip(_running(xp.cumsum, xp.flip(grad, axis=ctx.axis), ctx.axis, 0), axis=ctx.axis),)


# ---------------------------------------------------------------------------
# Public functions
# ---------------------------------------------------------------------------

_ALL_ELEMENTS = object()      # prod() / max() / min() without a dim: all elements (None would be an error)
_NOT_GIVEN = object()         # axis= / keepdims= not given


def _numpy_call(name, axis, keepdims):
    """The TypeError PyTorch raises when NumPy calls the method: ``np.sum(t)`` is ``t.sum(axis=None, dtype=None,
    out=None)``, ``np.max(t)`` is ``t.max(axis=None, out=None)`` (no ``out=`` in PyTorch's methods)."""
    if axis is _NOT_GIVEN:
        return TypeError(f"{name}() got an unexpected keyword argument 'out'")
    if name in ("max", "min", "prod") and axis is None:
        return TypeError(f"{name}(): argument 'dim' must be int, not NoneType")
    return TypeError(f"{name}() got an unexpected keyword argument 'axis'")


def _numpy_names(name, dim, keepdim, axis, keepdims, dim_default=None, keepdim_default=False):
    """PyTorch also accepts NumPy's keyword names: ``axis=`` for ``dim=`` and ``keepdims=`` for ``keepdim=``.

    Given both names for one argument, PyTorch reports the alias as unexpected.
    """
    if axis is not _NOT_GIVEN:
        if dim is not dim_default:
            raise TypeError(f"{name}() got an unexpected keyword argument 'axis'")
        dim = axis
    if keepdims is not _NOT_GIVEN:
        if keepdim is not keepdim_default:
            raise TypeError(f"{name}() got an unexpected keyword argument 'keepdims'")
        keepdim = keepdims
    return dim, keepdim


def _missing_dim(name):
    return TypeError(f'{name}() missing 1 required positional arguments: "dim"')


def _autograd_dtype(input, rdt):
    """PyTorch's refusal to record a sum/prod/cumsum/cumprod with an integer or bool ``dtype`` (raised once the
    dims were checked and the kernel ran, only when the graph is recorded)."""
    if rdt.kind != "f" and D.recording(input):
        raise RuntimeError(f"Autograd not support dtype: {_dtype.from_numpy_dtype(rdt)._short_name}")


def _sum_dtype(x, dtype, name):
    dtype = _dtype.as_dtype(dtype, name)
    if dtype is not None:
        return dtype.numpy_dtype
    return np.dtype(np.int64) if x.dtype.kind in "biu" else x.dtype


class _NoDim:
    """The default of ``sum``'s and ``mean``'s ``dim``: none given (``dim=None`` is all dims, but ``keepdim``
    without a dim is an error in PyTorch). ``method``: the default of the Tensor method, whose message differs."""

    def __init__(self, method):
        self.method = method

    def __repr__(self):
        return "None"


_NO_DIM = _NoDim(False)


def _method_of(function):
    """``function`` (``sum`` or ``mean``) as a Tensor method: the same code, with a ``dim`` default that tells
    the method's error message from the function's (no cost on the calls that fit)."""
    method = types.FunctionType(function.__code__, function.__globals__, function.__name__,
                                (_NoDim(True),) + function.__defaults__[1:], function.__closure__)
    method.__kwdefaults__, method.__doc__ = function.__kwdefaults__, function.__doc__
    return method


def _no_dim(name, input, dim, keepdim, keepdims, dtype):
    """The TypeError PyTorch raises for ``keepdim=`` / ``keepdims=`` without a dim."""
    if dtype is not None:
        return _missing_dim(name)
    kwargs = {"keepdim": keepdim} if keepdim is not _NOT_GIVEN else {"keepdims": keepdims}
    if dim.method:
        return invalid_arguments(name, _signatures(*_SUM), (), kwargs)
    return invalid_arguments(name, _signatures(*FUNCTION_SIGNATURES[name]), (input,), kwargs)


def _sum_mean_args(name, input, dim, keepdim, dtype, axis, keepdims, out):
    """The checked ``(dim, keepdim)`` of ``sum``/``mean`` (``name``): NumPy's ``axis=``/``keepdims=`` spellings
    read, and PyTorch's errors for a NumPy call (np.sum(t)), ``keepdim`` without a dim, a non-tensor input
    and bad dims."""
    if out is not _NOT_GIVEN:                  # NumPy calling the method: np.sum(t)
        raise _numpy_call(name, axis, keepdims)
    if dim.__class__ is _NoDim:
        if axis is _NOT_GIVEN and (keepdim is not _NOT_GIVEN or keepdims is not _NOT_GIVEN):
            raise _no_dim(name, input, dim, keepdim, keepdims, dtype)
        dim = None
    if keepdim is _NOT_GIVEN:
        keepdim = False
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names(name, dim, keepdim, axis, keepdims)
    if not isinstance(input, Tensor):
        raise _wrong_arguments(name, input, dim, keepdim, None)
    return _check_args(name, _SUM, dim, keepdim), keepdim


def sum(input, dim=_NO_DIM, keepdim=_NOT_GIVEN, *, dtype=None, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN,
        out=_NOT_GIVEN):
    """Sum of all elements, or along ``dim`` (an int or a tuple; ``()`` means all). Mirrors ``torch.sum``.

    Integer and bool tensors sum to int64 unless ``dtype`` is given (the
    input is converted to it first).  ``keepdim=True`` keeps the reduced
    dimensions with size 1.  float16 is accumulated in float32.

    Raises:
        IndexError: ``dim`` out of range. RuntimeError: a dim listed twice.
        TypeError: arguments of other types (PyTorch's message).
    """
    dim, keepdim = _sum_mean_args("sum", input, dim, keepdim, dtype, axis, keepdims, out)
    x = input._data
    rdt = _sum_dtype(x, dtype, "sum")
    if x.dtype != rdt:
        x = x.astype(rdt)
    if dim is None and not keepdim:
        _autograd_dtype(input, rdt)
        return D.record(Sum, (input,), (x,))
    axes = normalize_dims(dim, x.ndim)
    _autograd_dtype(input, rdt)
    return D.record(SumDim, (input,), (x,), {"axes": axes, "keepdim": keepdim})


def mean(input, dim=_NO_DIM, keepdim=_NOT_GIVEN, *, dtype=None, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN,
         out=_NOT_GIVEN):
    """Average of all elements, or along ``dim`` (an int or a tuple; ``()`` means all). Mirrors ``torch.mean``.

    Raises:
        RuntimeError: on integer tensors or an integer ``dtype`` (PyTorch's messages; convert with ``.float()``).
        IndexError: ``dim`` out of range. TypeError: arguments of other types.
    """
    dim, keepdim = _sum_mean_args("mean", input, dim, keepdim, dtype, axis, keepdims, out)
    x = input._data
    dt = _dtype.as_dtype(dtype, "mean")
    if dt is not None and dt._kind != "f":
        raise RuntimeError("mean(): could not infer output dtype. Optional dtype must be either a floating point or "
                           f"complex dtype. Got: {dt._short_name}")
    if dt is None and x.dtype.kind != "f":
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating "
                           f"point or complex dtype. Got: {_dtype._BY_NUMPY[x.dtype]._short_name}")
    if dt is not None:
        x = x.astype(dt.numpy_dtype)
    if dim is None and not keepdim:
        return D.record(Mean, (input,), (x,))
    return D.record(MeanDim, (input,), (x,), {"axes": normalize_dims(dim, x.ndim), "keepdim": keepdim})


sum_method, mean_method = _method_of(sum), _method_of(mean)      # Tensor.sum, Tensor.mean


def prod(input, dim=_ALL_ELEMENTS, keepdim=False, *, dtype=None, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN,
         out=_NOT_GIVEN):
    """Product of all elements, or along one ``dim``. Mirrors ``torch.prod``.

    Integer and bool tensors multiply in int64 unless ``dtype`` is given.

    Raises:
        IndexError: ``dim`` out of range. TypeError: a tuple of dims, or other types.
    """
    if out is not _NOT_GIVEN:                  # NumPy calling the method: np.prod(t)
        raise _numpy_call("prod", axis, keepdims)
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("prod", dim, keepdim, axis, keepdims, _ALL_ELEMENTS, False)
    if not isinstance(input, Tensor):
        raise _wrong_arguments("prod", input, dim, keepdim, _ALL_ELEMENTS)
    if dim is None:
        raise invalid_arguments("prod", _signatures(*_PROD), (), {"dim": None})
    if dim is _ALL_ELEMENTS:
        dim = None
    dim = _check_args("prod", _PROD, dim, keepdim, ints_only=True)
    x = input._data
    rdt = _sum_dtype(x, dtype, "prod")
    if x.dtype != rdt:
        x = x.astype(rdt)
    if dim is None:
        _autograd_dtype(input, rdt)
        return D.record(Prod, (input,), (x,))
    axis = wrap_dim(dim, x.ndim)
    _autograd_dtype(input, rdt)
    if x.ndim == 0:
        return D.record(Prod, (input,), (x,))
    return D.record(ProdDim, (input,), (x,), {"axis": axis, "keepdim": keepdim})


def _extreme(input, dim, keepdim, largest, name):
    if isinstance(dim, Tensor):
        return maximum(input, dim) if largest else minimum(input, dim)
    dim = _check_args(name, _MAX, dim, keepdim, ints_only=True)
    x = input._data
    if dim is None:
        if x.size == 0:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        return D.record(MaxAll if largest else MinAll, (input,), (x,), {"largest": largest})
    axis = wrap_dim(dim, x.ndim)
    if x.ndim and x.shape[axis] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
    values, indices = D.record(MaxDim if largest else MinDim, (input,), (x,),
                               {"axis": axis, "keepdim": keepdim, "largest": largest})
    return getattr(return_types, name)(values, indices)


def _extreme_of(input, dim, keepdim, largest, name):
    if dim is _ALL_ELEMENTS:
        if keepdim is not None:
            raise invalid_arguments(name, _signatures(*_MAX), (), {"keepdim": keepdim})
        dim = None
    elif dim is None:
        raise invalid_arguments(name, _signatures(*_MAX), (), {"dim": None})
    elif isinstance(dim, Tensor) and keepdim is not None:     # max(a, b, keepdim): no such overload
        raise wrong_arguments(name, input, dim, keepdim)
    return _extreme(input, dim, False if keepdim is None else keepdim, largest, name)


def max(input, dim=_ALL_ELEMENTS, keepdim=None, *, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN,
        out=_NOT_GIVEN):
    """The largest element; with ``dim``, a named tuple ``(values, indices)`` along it. Mirrors ``torch.max``.

    ``max(a, b)`` with a tensor second argument is ``maximum(a, b)``.

    Raises:
        RuntimeError: ``max()`` of an empty tensor. IndexError: ``dim`` out of range.
        TypeError: ``keepdim`` without ``dim``, a tuple of dims, other types (PyTorch's messages).
    """
    if out is not _NOT_GIVEN:                  # NumPy calling the method: np.max(t)
        raise _numpy_call("max", axis, keepdims)
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("max", dim, keepdim, axis, keepdims, _ALL_ELEMENTS, None)
    if not isinstance(input, Tensor):
        raise _wrong_arguments("max", input, dim, keepdim, _ALL_ELEMENTS)
    return _extreme_of(input, dim, keepdim, True, "max")


def min(input, dim=_ALL_ELEMENTS, keepdim=None, *, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN,
        out=_NOT_GIVEN):
    """The smallest element; with ``dim``, ``(values, indices)``. Mirrors ``torch.min``.

    Raises:
        RuntimeError: ``min()`` of an empty tensor. IndexError: ``dim`` out of range.
        TypeError: ``keepdim`` without ``dim``, a tuple of dims, other types (PyTorch's messages).
    """
    if out is not _NOT_GIVEN:                  # NumPy calling the method: np.min(t)
        raise _numpy_call("min", axis, keepdims)
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("min", dim, keepdim, axis, keepdims, _ALL_ELEMENTS, None)
    if not isinstance(input, Tensor):
        raise _wrong_arguments("min", input, dim, keepdim, _ALL_ELEMENTS)
    return _extreme_of(input, dim, keepdim, False, "min")


def _amax_amin(op, name, input, dim, keepdim):
    dim = _check_args(name, _AMAX, dim, keepdim)
    x = input._data
    if x.size == 0:                          # (PyTorch checks the sizes before the repeated dims)
        if dim == () or dim is None:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        for d in dim if isinstance(dim, (tuple, list)) else (dim,):     # named as given
            if x.shape[wrap_dim(d, x.ndim)] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    axes = normalize_dims(dim if dim != () else None, x.ndim)
    return D.record(op, (input,), (x,), {"axes": axes, "keepdim": keepdim})


def amax(input, dim=(), keepdim=False, *, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN):
    """Largest elements over ``dim`` (all dims by default). Mirrors ``torch.amax``.

    Unlike ``max(dim)``, ties share the gradient evenly.

    Raises:
        IndexError: a reduced dimension of size 0, or ``dim`` out of range.
        RuntimeError: no ``dim`` for an empty tensor.
    """
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("amax", dim, keepdim, axis, keepdims, (), False)
    if not isinstance(input, Tensor):
        raise tensor_expected("amax", input)
    return _amax_amin(Amax, "amax", input, dim, keepdim)


def amin(input, dim=(), keepdim=False, *, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN):
    """Smallest elements over ``dim`` (all dims by default). Mirrors ``torch.amin``."""
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("amin", dim, keepdim, axis, keepdims, (), False)
    if not isinstance(input, Tensor):
        raise tensor_expected("amin", input)
    return _amax_amin(Amin, "amin", input, dim, keepdim)


def _arg(input, dim, keepdim, largest):
    name = "argmax" if largest else "argmin"
    dim = _check_args(name, _ARG, dim, keepdim, ints_only=True)
    x = input._data
    xp = _xp(x)
    if x.dtype.kind == "b":
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        if x.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        r = (xp.argmax if largest else xp.argmin)(x.reshape(-1))
        return wrap(D.as_array(xp.asarray(r, dtype=np.int64).reshape((1,) * x.ndim if keepdim else ())))
    axis = wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        return wrap(xp.zeros((), dtype=np.int64))
    if x.shape[axis] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
    r = (xp.argmax if largest else xp.argmin)(x, axis=axis, keepdims=keepdim)
    return wrap(_reduced(r.astype(np.int64)))


def argmax(input, dim=None, keepdim=False, *, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN):
    """Index of the largest element (in the flattened tensor, or along ``dim``); int64; the first one of
    ties. Mirrors ``torch.argmax``.

    Raises:
        RuntimeError: a bool tensor. IndexError: no elements to choose from, ``dim`` out of range.
    """
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("argmax", dim, keepdim, axis, keepdims)
    if not isinstance(input, Tensor):
        raise tensor_expected("argmax", input)
    return _arg(input, dim, keepdim, True)


def argmin(input, dim=None, keepdim=False, *, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN):
    """Index of the smallest element; int64. Mirrors ``torch.argmin``.

    Raises:
        RuntimeError: a bool tensor. IndexError: no elements to choose from, ``dim`` out of range.
    """
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("argmin", dim, keepdim, axis, keepdims)
    if not isinstance(input, Tensor):
        raise tensor_expected("argmin", input)
    return _arg(input, dim, keepdim, False)


def median(input, dim=_ALL_ELEMENTS, keepdim=False):
    """The lower median (of the sorted values, the one at ``(n - 1) // 2``): of all elements, or along ``dim`` as a
    named tuple ``(values, indices)``. A NaN makes the median NaN (with ``dim``: the first NaN of the slice); of
    equal values, ``indices`` names the first. Mirrors ``torch.median``.

    Raises:
        NotImplementedError: a bool tensor. IndexError: ``dim`` out of range, or a dim of size 0.
        TypeError: a ``dim`` that is not an int (PyTorch's messages).
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("median", input)
    x = input._data
    if x.dtype.kind == "b":
        raise NotImplementedError(f'"{"median_cpu" if dim is _ALL_ELEMENTS else "median_out"}" not implemented for '
                                  "'Bool'")
    if dim is _ALL_ELEMENTS:
        return D.record(Median, (input,), (x,))
    axis = wrap_dim(int(dim), x.ndim)
    if x.ndim and x.shape[axis] == 0:
        raise IndexError(f"median(): Expected reduction dim {axis} to have non-zero size.")
    values, indices = D.record(MedianDim, (input,), (x,), {"axis": axis, "keepdim": keepdim})
    return return_types.median(values, indices)


def _correction(unbiased, correction):
    if correction is not None:
        return correction
    if unbiased is None:
        return 1
    return 1 if unbiased else 0


def _var_std(op, input, dim, unbiased, keepdim, correction, name):
    if not isinstance(input, Tensor):
        raise _wrong_arguments(name, input, dim, keepdim)
    if isinstance(dim, bool):             # std(unbiased) positional form
        unbiased, dim = dim, None
    if unbiased is not None and not (isinstance(unbiased, (bool, np.bool_)) and isinstance(keepdim, (bool, np.bool_))):
        raise invalid_arguments(name, _signatures(*_VAR), (dim, unbiased) + ((keepdim,) if keepdim else ()))
    if unbiased is not None and correction is not None:
        raise invalid_arguments(name, _signatures(*_VAR), (), {"correction": correction, "unbiased": unbiased})
    dim = _check_args(name, _VAR, dim, keepdim)
    x = input._data
    if x.dtype.kind != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    corr = _correction(unbiased, correction)
    axes = normalize_dims(dim, x.ndim) if dim is not None else ()
    kept = int(np.prod([n for i, n in enumerate(x.shape) if i not in axes])) if dim is not None else 1
    n = x.size // kept if kept else 0          # PyTorch's "reduction factor": input numel / output numel
    if dim is None and keepdim:
        axes = tuple(range(x.ndim))
    if n - corr <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
                      "reduction factor (input numel divided by output numel). (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)", UserWarning, stacklevel=3)
    return D.record(op, (input,), (x,), {"axes": axes, "correction": corr, "keepdim": keepdim})


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN):
    """Variance (with Bessel's correction, dividing by N-1, unless ``correction=0``). Mirrors ``torch.var``.

    Raises:
        RuntimeError: on integer tensors.
    """
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("var", dim, keepdim, axis, keepdims)
    return _var_std(Var, input, dim, unbiased, keepdim, correction, "var")


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN):
    """Standard deviation (N-1 in the denominator by default). Mirrors ``torch.std``.

    Raises:
        RuntimeError: on integer tensors.
    """
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("std", dim, keepdim, axis, keepdims)
    return _var_std(Std, input, dim, unbiased, keepdim, correction, "std")


def _truth(name, reduce, input, dim, keepdim):
    if not isinstance(input, Tensor):
        raise _wrong_arguments(name, input, dim, keepdim)
    dim = _check_args(name, _ALL, dim, keepdim)
    x = input._data
    # dim=() reduces nothing here (unlike sum's dim=(), which is all dims)
    axis = None if dim is None else () if dim == () or dim == [] else normalize_dims(dim, x.ndim)
    out = reduce(x != 0 if x.dtype.kind != "b" else x, axis=axis, keepdims=keepdim)
    return wrap(_reduced(out.astype(np.uint8) if x.dtype == np.uint8 else out))   # uint8 stays uint8


def all(input, dim=None, keepdim=False, *, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN):
    """True if every element is non-zero (along ``dim``); a bool tensor (uint8 for uint8). Mirrors ``torch.all``."""
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("all", dim, keepdim, axis, keepdims)
    return _truth("all", lambda a, **kw: a.all(**kw), input, dim, keepdim)


def any(input, dim=None, keepdim=False, *, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN):
    """True if some element is non-zero (along ``dim``); a bool tensor (uint8 for uint8). Mirrors ``torch.any``."""
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("any", dim, keepdim, axis, keepdims)
    return _truth("any", lambda a, **kw: a.any(**kw), input, dim, keepdim)


def count_nonzero(input, dim=None, *, axis=_NOT_GIVEN):
    """Number of non-zero elements (along ``dim``); int64. Mirrors ``torch.count_nonzero``."""
    if axis is not _NOT_GIVEN:
        dim = _numpy_names("count_nonzero", dim, False, axis, _NOT_GIVEN)[0]
    if not isinstance(input, Tensor):
        raise tensor_expected("count_nonzero", input)
    x = input._data
    r = (x != 0).sum(axis=None if dim is None else normalize_dims(dim, x.ndim))
    return wrap(D.as_array(_xp(x).asarray(r, dtype=np.int64)))


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """Vector p-norm (2 by default; ``'fro'`` is 2) of all elements or along ``dim``. Mirrors ``torch.norm``.

    ``p`` may be any number, ``inf`` or ``-inf``; records
    ``LinalgVectorNormBackward0``, as PyTorch does.

    Raises:
        RuntimeError: on an integer tensor (PyTorch's message).
    """
    x = input._data
    if isinstance(p, str) and p != "fro":
        if p != "nuc":
            raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
        if x.ndim < 2:
            raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
        raise NotImplementedError("norm(p='nuc') (the nuclear norm, a sum of singular values) is not implemented "
                                  "here; PyTorch computes it")
    if x.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{input.dtype._short_name}")
    if dtype is not None:
        if dtype._kind != "f":
            raise RuntimeError(f"linalg.vector_norm: dtype should be floating point or complex, but got "
                               f"{dtype._short_name}")
        x = x.astype(dtype.numpy_dtype)
    ord = 2 if p == "fro" else float(p)
    axes = normalize_dims(dim, x.ndim)
    if (ord < 0 or ord == math.inf) and builtins.any(x.shape[a] == 0 for a in axes):
        shown = "inf" if ord == math.inf else "-inf" if ord == -math.inf else f"{ord:g}"
        if dim is None:
            where = "an empty tensor because"
        else:                          # the first empty dim, as given (PyTorch's message lacks a space after it)
            dims = dim if isinstance(dim, (tuple, list)) else (dim,)
            empty = next(d for d in dims if x.shape[wrap_dim(d, x.ndim)] == 0)
            where = f"the dimension {empty}because this dimension is empty and"
        raise RuntimeError(f"linalg.vector_norm cannot compute the {shown} norm on {where} the operation does not "
                           "have an identity")
    return D.record(VectorNorm, (input,), (x,), {"ord": ord, "axes": axes, "keepdim": keepdim})


def cumsum(input, dim=_NOT_GIVEN, *, dtype=None, axis=_NOT_GIVEN):
    """Running sums along ``dim``. Mirrors ``torch.cumsum``."""
    if axis is not _NOT_GIVEN:
        dim = _numpy_names("cumsum", dim, False, axis, _NOT_GIVEN, _NOT_GIVEN)[0]
    if dim is _NOT_GIVEN:
        raise _missing_dim("cumsum")
    if not isinstance(input, Tensor):
        raise wrong_arguments("cumsum", input, dim)
    if not _is_int(dim):
        dim = parse("cumsum", _signatures(*FUNCTION_SIGNATURES["cumsum"]), (input, dim))[0][1]
    x = input._data
    rdt = _sum_dtype(x, dtype, "cumsum")
    if x.dtype != rdt:
        x = x.astype(rdt)
    axis = wrap_dim(dim, x.ndim)
    if rdt.kind == "b" and x.size:
        raise NotImplementedError('"cumsum_out_cpu" not implemented for \'Bool\'')
    _autograd_dtype(input, rdt)
    return D.record(CumSum, (input,), (x,), {"axis": axis})


def logsumexp(input, dim=_NOT_GIVEN, keepdim=False, *, axis=_NOT_GIVEN, keepdims=_NOT_GIVEN):
    """``log(sum(exp(input)))`` along ``dim``, computed without overflow. Mirrors ``torch.logsumexp``."""
    if axis is not _NOT_GIVEN or keepdims is not _NOT_GIVEN:
        dim, keepdim = _numpy_names("logsumexp", dim, keepdim, axis, keepdims, _NOT_GIVEN, False)
    if dim is _NOT_GIVEN:
        raise _missing_dim("logsumexp")
    if not isinstance(input, Tensor):
        raise tensor_expected("logsumexp", input)
    x = input._data
    if x.dtype.kind != "f":
        x = x.astype(_dtype.get_default_dtype().numpy_dtype)
    return D.record(LogSumExp, (input,), (x,), {"axes": normalize_dims(dim, x.ndim), "keepdim": keepdim})


class CumProd(Op):
    node_name = "CumprodBackward0"
    saved_names = ("self", "result")

    def forward(ctx, a, axis):
        out = a.copy() if a.ndim == 0 else _running(_xp(a).cumprod, a, axis, 1)
        ctx.save_for_backward(a, out)
        ctx.axis = axis
        return out

    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        if grad.ndim == 0:
            return (grad,)
        xp = _xp(grad)
        axis = ctx.axis
        if not (a == 0).any():        # d out_j / d a_k = out_j / a_k for j >= k: a reversed running sum
            g = xp.flip(xp.cumsum(xp.flip(grad * out, axis=axis), axis=axis), axis=axis)
            return (g / a,)
        # with zeros: for each k, the running product with a_k replaced by 1
        a_, g_ = xp.moveaxis(a, axis, -1), xp.moveaxis(grad, axis, -1)
        result = xp.zeros_like(a_)
        for k in range(a_.shape[-1]):
            b = a_.copy()
            b[..., k] = 1
            result[..., k] = (g_[..., k:] * xp.cumprod(b, axis=-1)[..., k:]).sum(-1)
        return (xp.moveaxis(result, -1, axis),)


def cumprod(input, dim=_NOT_GIVEN, *, dtype=None):
    """Running products along ``dim``. Integer and bool tensors give int64 (unless ``dtype`` is given).
    Mirrors ``torch.cumprod``.

    Raises:
        TypeError: no ``dim``. IndexError: ``dim`` out of range.
    """
    if dim is _NOT_GIVEN:
        raise _missing_dim("cumprod")
    x = input._data
    rdt = _sum_dtype(x, dtype, "cumprod")
    if x.dtype != rdt:
        x = x.astype(rdt)
    axis = wrap_dim(dim, x.ndim)
    if rdt.kind == "b" and x.size:
        raise NotImplementedError('"cumprod_out_cpu" not implemented for \'Bool\'')
    _autograd_dtype(input, rdt)
    return D.record(CumProd, (input,), (x,), {"axis": axis})


class Trace(Op):
    node_name = "TraceBackward0"

    def forward(ctx, a):
        ctx.shape = a.shape
        n = builtins.min(a.shape)
        return _xp(a).asarray(a[_xp(a).arange(n), _xp(a).arange(n)].sum(dtype=a.dtype))

    def backward(ctx, grad):
        xp = _xp(grad)
        return (xp.eye(*ctx.shape, dtype=grad.dtype) * grad,)


def trace(input):
    """The sum of a matrix's main diagonal; integer inputs give int64. Mirrors ``torch.trace``.

    Raises:
        RuntimeError: an input that is not a matrix. NotImplementedError: a bool matrix.
    """
    x = input._data
    if x.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {x.ndim}")
    if x.dtype.kind == "b":
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    if x.dtype.kind in "iu":
        x = x.astype(np.int64)
    return D.record(Trace, (input,), (x,))


# ---------------------------------------------------------------------------
# PyTorch's argument errors for the reductions whose dim is one int (argmax, max, prod, cumsum, ...): the
# function form and the Tensor method, each raising the message of its own overloads (see
# torch_compat.arguments.parsed_like_pytorch); the usual calls pass one cheap check.
# ---------------------------------------------------------------------------

def _int_dim(value):
    return value is None or _is_int(value) or isinstance(value, Tensor)


def _fits(max_args, keywords, dim_ok=_int_dim, dim_position=0):
    def fits(args, kwargs):
        if len(args) > max_args or not kwargs.keys() <= keywords:
            return False
        dim = args[dim_position] if len(args) > dim_position else kwargs.get("dim")
        keep = args[1] if len(args) > 1 and "keepdim" in keywords else kwargs.get("keepdim", False)
        return dim_ok(dim) and isinstance(keep, (bool, np.bool_))
    return fits


def _counted_dims(value):
    return _int_dim(value) or isinstance(value, (tuple, list))


_FN = "(Tensor input, "
_KEEP = {"dim", "keepdim", "axis", "keepdims"}
argmax, argmax_method = parsed_like_pytorch("argmax", _ARG, tuple(_FN + t[1:] for t in _ARG), _fits(2, _KEEP))(argmax)
argmin, argmin_method = parsed_like_pytorch("argmin", _ARG, tuple(_FN + t[1:] for t in _ARG), _fits(2, _KEEP))(argmin)
max, max_method = parsed_like_pytorch("max", _MAX, FUNCTION_SIGNATURES["max"], _fits(2, _KEEP | {"out"}))(max)
min, min_method = parsed_like_pytorch("min", _MAX, FUNCTION_SIGNATURES["min"], _fits(2, _KEEP | {"out"}))(min)
prod, prod_method = parsed_like_pytorch("prod", _PROD, FUNCTION_SIGNATURES["prod"],
                                        _fits(2, _KEEP | {"dtype", "out"}))(prod)
cumsum, cumsum_method = parsed_like_pytorch("cumsum", ("(int dim, *, torch.dtype dtype = None)",),
                                            FUNCTION_SIGNATURES["cumsum"], _fits(1, {"dim", "dtype", "axis"}))(cumsum)
cumprod, cumprod_method = parsed_like_pytorch(
    "cumprod", ("(int dim, *, torch.dtype dtype = None)",),
    ("(Tensor input, int dim, *, torch.dtype dtype = None, Tensor out = None)",), _fits(1, {"dim", "dtype"}))(cumprod)
count_nonzero, count_nonzero_method = parsed_like_pytorch(
    "count_nonzero", ("(int dim = None)", "(tuple of ints dim)"),
    ("(Tensor input, int dim = None)", "(Tensor input, tuple of ints dim)"),
    _fits(1, {"dim", "axis"}, _counted_dims))(count_nonzero)
median, median_method = parsed_like_pytorch(
    "median", ("()", "(int dim, bool keepdim = False)"),
    ("(Tensor input)", "(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)"),
    _fits(2, {"dim", "keepdim"}, lambda d: d is not None and _int_dim(d)))(median)
