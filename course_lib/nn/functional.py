"""``torch.nn.functional``: the layers' computations as functions (``linear``, ``relu``, ``mse_loss``).

``linear`` and ``mse_loss`` are operations of their own, as in PyTorch, so
their ``grad_fn`` are PyTorch's ``AddmmBackward0`` and ``MseLossBackward0``:

* ``linear(x, W, b)`` on a 2-D ``x`` is ``addmm(b, x, W.t())``: one matrix
  product plus the bias; other shapes are flattened to 2-D and back
  (``ViewBackward0``); without a bias it is ``x @ W.t()``.
* ``mse_loss(x, y)`` broadcasts ``x`` and ``y`` (with PyTorch's warning when
  their sizes differ), then averages ``(x - y) ** 2``.
"""

import warnings

from .. import _dtype
from ..autograd.function import Op
from ..ops import _dispatch as D
from ..ops import linalg as L
from ..ops import softmax as _softmax
from ..ops import views as V
from ..ops.math import relu as _relu

__all__ = ["linear", "relu", "mse_loss", "softmax", "log_softmax"]


# ---------------------------------------------------------------------------
# linear
# ---------------------------------------------------------------------------

class Addmm(Op):
    """``bias + m1 @ m2`` (the bias broadcast over the rows). Mirrors PyTorch's ``addmm`` node."""

    node_name = "AddmmBackward0"

    def forward(ctx, bias, m1, m2):
        need = ctx.needs_input_grad or (False, False, False)
        ctx.save_for_backward(m1 if need[2] else None, m2 if need[1] else None)
        out = m1 @ m2
        out += bias            # in place on the fresh product: no second output array
        return out

    def backward(ctx, grad):
        m1, m2 = ctx.saved_tensors
        # the bias gradient comes back in the output's shape; the engine sums it over the rows
        return (grad, grad @ m2.T if m2 is not None else None, m1.T @ grad if m1 is not None else None)


def _device_error_structured(common, arg, tensor, method):
    """PyTorch's device error of operations with a generated device check (mm, addmm)."""
    return RuntimeError(f"Expected all tensors to be on the same device, but got {arg} is on {tensor.device}, "
                        f"different from other tensors on {common.device} (when checking argument in method "
                        f"wrapper_CUDA_{method})")


def _check_devices(method, named):
    """The first tensor's device is the common one; the first tensor elsewhere is named in the error."""
    first = named[0][1]
    for arg, t in named[1:]:
        if t._data.__class__ is not first._data.__class__:
            raise _device_error_structured(first, arg, t, method)


def _check_mm(m1_shape, m2_shape, m1_dtype, m2_dtype):
    if m1_dtype != m2_dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_dtype._BY_NUMPY[m1_dtype]._short_name} "
                           f"and {_dtype._BY_NUMPY[m2_dtype]._short_name}")
    if m1_shape[1] != m2_shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({m1_shape[0]}x{m1_shape[1]} and "
                           f"{m2_shape[0]}x{m2_shape[1]})")


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``: the affine map of ``nn.Linear``. Mirrors ``torch.nn.functional.linear``.

    Args:
        input: ``(*, in_features)``, at least 1-D.
        weight: ``(out_features, in_features)``.
        bias: ``(out_features,)`` or None.

    Returns:
        ``(*, out_features)``, the dtype and device of the operands
        (which must agree).  ``grad_fn`` is ``AddmmBackward0`` for a 2-D
        input with a bias, as in PyTorch.

    Raises:
        RuntimeError: a 0-d operand ("both arguments to linear need to be at
            least 1D ..."); operands on different devices (PyTorch's
            ``wrapper_CUDA_addmm``/``mm`` message); different dtypes ("mat1
            and mat2 must have the same dtype, but got Long and Float");
            ``in_features`` that do not fit ("mat1 and mat2 shapes cannot be
            multiplied (4x5 and 3x2)").
    """
    xi, xw = input._data, weight._data
    if xi.ndim == 0 or xw.ndim == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {xi.ndim}D and "
                           f"{xw.ndim}D")
    wt = V.t(weight)
    if bias is None:
        _check_devices("mm", (("self", input), ("mat2", weight)))
        rows = xi.size // xi.shape[-1] if xi.shape[-1] else 0
        _check_mm((rows if xi.ndim > 1 else 1, xi.shape[-1]), wt._data.shape, xi.dtype, xw.dtype)
        return L.matmul(input, wt)
    _check_devices("addmm", (("self", bias), ("mat1", input), ("mat2", weight)))
    if xi.ndim == 2:
        _check_mm(xi.shape, wt._data.shape, xi.dtype, xw.dtype)
        return D.record(Addmm, (bias, input, wt), (bias._data, xi, wt._data))
    if not xi.flags.c_contiguous:
        return L.matmul(input, wt) + bias
    rows = 1
    for s in xi.shape[:-1]:
        rows *= s
    flat = V.reshape(input, rows, xi.shape[-1])
    _check_mm(flat._data.shape, wt._data.shape, xi.dtype, xw.dtype)
    out = D.record(Addmm, (bias, flat, wt), (bias._data, flat._data, wt._data))
    return V.view(out, *xi.shape[:-1], out._data.shape[1])


# ---------------------------------------------------------------------------
# relu
# ---------------------------------------------------------------------------

def relu(input, inplace=False):
    """``max(x, 0)`` element-wise; ``inplace=True`` overwrites ``input``. Mirrors ``torch.nn.functional.relu``.

    Any shape and dtype; the result has ``input``'s.  ``grad_fn`` is ``ReluBackward0``.
    """
    return input.relu_() if inplace else _relu(input)


# ---------------------------------------------------------------------------
# mse_loss
# ---------------------------------------------------------------------------

class MseLoss(Op):
    """Mean (or sum, or each) of ``(a - b) ** 2``; the gradient is ``2 (a - b)`` (divided by N for the mean)."""

    node_name = "MseLossBackward0"
    saved_names = ("self", "target")

    def forward(ctx, a, b, reduction="mean"):
        d = a - b
        ctx.save_for_backward(a, b)          # what PyTorch saves (checked for in-place changes)
        ctx.reduction, ctx.n = reduction, d.size
        sq = d * d
        if reduction == "none":
            return sq
        return D.as_array(sq.mean() if reduction == "mean" else sq.sum())

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        d = a - b
        scale = 2.0 / ctx.n if ctx.reduction == "mean" else 2.0
        g = d * scale
        g *= grad
        return (g, -g if ctx.needs_input_grad[1] else None)


_REDUCTIONS = ("none", "mean", "sum")


def _legacy_reduction(size_average, reduce):
    """``size_average``/``reduce`` (deprecated) -> ``reduction``, with PyTorch's warning."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "none" if not reduce else ("mean" if size_average else "sum")
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.",
                  UserWarning, stacklevel=3)
    return ret


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean squared error ``mean((input - target) ** 2)``. Mirrors ``torch.nn.functional.mse_loss``.

    Args:
        input, target: tensors whose shapes broadcast (the same shape is
            intended; a different one warns, as in PyTorch).
        reduction: ``'mean'`` (a 0-d tensor), ``'sum'`` or ``'none'`` (the
            broadcast shape).

    Returns:
        A tensor of the promoted floating dtype; ``grad_fn`` is ``MseLossBackward0``.

    Warns:
        UserWarning: "Using a target size (...) that is different to the input size (...)".

    Raises:
        ValueError: an unknown ``reduction`` ("x is not a valid value for reduction").
        RuntimeError: shapes that do not broadcast; tensors on different devices.
        AttributeError: an operand that is not a tensor ("'float' object has no attribute 'size'").
        NotImplementedError: integer operands ('"mse_cpu" not implemented for 'Long'').
    """
    if target.size() != input.size():      # (a non-tensor fails here, as in PyTorch: no attribute 'size')
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", UserWarning, stacklevel=2)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    a, b = V.broadcast_tensors(input, target)
    if a._data.__class__ is not b._data.__class__:
        raise D._device_error(a, b)
    x, y = D.align(a, b)
    if x.dtype.kind != "f":
        where = "cpu" if a.device.type == "cpu" else "cuda"
        raise NotImplementedError(f"\"mse_{where}\" not implemented for '{_dtype._BY_NUMPY[x.dtype]._short_name}'")
    return D.record(MseLoss, (a, b), (x, y), {"reduction": reduction})


# ---------------------------------------------------------------------------
# softmax, log_softmax
# ---------------------------------------------------------------------------

def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """``torch.softmax(input, dim)``; without ``dim``, PyTorch's deprecation warning and its legacy choice
    (dim 0 for 0-, 1- and 3-d input, else 1). Mirrors ``torch.nn.functional.softmax``."""
    if dim is None:
        dim = _softmax.implicit_dim("softmax", input.dim(), _stacklevel)
    return _softmax.softmax(input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """``torch.log_softmax(input, dim)``, with ``softmax``'s rule for a missing ``dim``. Mirrors
    ``torch.nn.functional.log_softmax``."""
    if dim is None:
        dim = _softmax.implicit_dim("log_softmax", input.dim(), _stacklevel)
    return _softmax.log_softmax(input, dim, dtype)


def __getattr__(name):                   # only for names the module does not have
    from .._arguments import missing_attribute
    raise missing_attribute("course_lib.nn.functional", name)

