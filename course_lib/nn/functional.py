"""``torch.nn.functional``: the layers' computations as functions (``linear``, ``relu``, ``mse_loss``).

``linear`` and ``mse_loss`` are operations of their own, as in PyTorch, so
their ``grad_fn`` are PyTorch's ``AddmmBackward0`` and ``MseLossBackward0``:

* ``linear(x, W, b)`` on a 2-D ``x`` is ``addmm(b, x, W.t())``: one matrix
  product plus the bias; other shapes are flattened to 2-D and back
  (``ViewBackward0``); without a bias it is ``x @ W.t()``.
* ``mse_loss(x, y)`` broadcasts ``x`` and ``y`` (with PyTorch's warning when
  their sizes differ), then averages ``(x - y) ** 2``.
"""

import numbers
import warnings

import numpy as np

from ..core import grad_mode as _grad_mode
from ..core.graph import Elementwise, Op
from ..core.tensor import Tensor
from ..core.tensor import wrap as _wrap
from ..ops import _dispatch as D
from ..ops import linalg as L
from ..ops import loss as _loss
from ..ops import softmax as _softmax
from ..ops import views as V
from ..ops.math import relu as _relu
from ..ops.reduction import _average, _total
from ..torch_compat import dtypes as _dtype
from ..torch_compat.arguments import missing_attribute as _missing_attribute
from ..torch_compat.arguments import tensor_expected
from ..torch_compat.names import type_name
from ..torch_compat.opmath import precise as _precise
from ..torch_compat.random import bernoulli_mask as _bernoulli_mask

__all__ = ["linear", "relu", "sigmoid", "tanh", "softmax", "log_softmax", "dropout", "mse_loss", "l1_loss",
           "nll_loss", "cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits", "one_hot",
           "normalize", "softplus"]


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
        TypeError: an argument that is not a tensor (a NumPy array, a list): "linear(): argument 'input'
            (position 1) must be Tensor, not numpy.ndarray".
    """
    for position, (arg, value) in enumerate((("input", input), ("weight", weight), ("bias", bias)), 1):
        if not isinstance(value, Tensor) and (value is not None or arg != "bias"):
            raise tensor_expected("linear", value, arg, position)
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


def sigmoid(input):
    """``1 / (1 + exp(-x))`` element-wise (``input.sigmoid()``). Mirrors ``torch.nn.functional.sigmoid``.

    ``grad_fn`` is ``SigmoidBackward0``; a non-tensor fails as in PyTorch ("'list' object has no attribute
    'sigmoid'").
    """
    return input.sigmoid()


def tanh(input):
    """``tanh(x)`` element-wise (``input.tanh()``). Mirrors ``torch.nn.functional.tanh``."""
    return input.tanh()


# ---------------------------------------------------------------------------
# softplus
# ---------------------------------------------------------------------------

class Softplus(Elementwise):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` itself where ``beta * x > threshold`` (as PyTorch)."""

    node_name = "SoftplusBackward0"
    saved_names = ("self",)

    def forward(ctx, a, beta=1, threshold=20):
        if a.dtype.kind != "f":
            name = _dtype.from_numpy_dtype(a.dtype)._short_name
            raise NotImplementedError(f'"softplus_cpu" not implemented for \'{name}\'')
        ctx.save_for_backward(a)
        ctx.beta, ctx.threshold = beta, threshold
        xp = D.backend_of(a)
        b = a.dtype.type(beta)
        ab = a * b
        with np.errstate(over="ignore"):
            soft = _precise(xp.log1p, _precise(xp.exp, ab)) / b     # exp rounded first, as PyTorch's kernel
        return xp.where(ab > threshold, a, soft)

    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        xp = D.backend_of(a)
        ab = a * a.dtype.type(ctx.beta)
        with np.errstate(over="ignore", invalid="ignore"):
            z = xp.exp(ab)
            return (xp.where(ab > ctx.threshold, grad, grad * z / (z + 1)),)


def softplus(input, beta=1, threshold=20):
    """``log(1 + exp(beta * x)) / beta`` element-wise, a smooth ReLU; linear (``x``) where ``beta * x > threshold``.
    Mirrors ``torch.nn.functional.softplus``.

    Floating dtypes; the result has ``input``'s shape and dtype, ``grad_fn`` ``SoftplusBackward0`` (its
    ``_saved_beta`` and ``_saved_threshold`` are the numbers given).

    Raises:
        TypeError: a non-tensor input. NotImplementedError: an integer tensor (PyTorch's messages).
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("softplus", input)
    return D.record(Softplus, (input,), (input._data,), {"beta": beta, "threshold": threshold})


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
        return _average(sq, None, False) if reduction == "mean" else D.as_array(_total(sq))   # PyTorch's order

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
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """``torch.log_softmax(input, dim)``, with ``softmax``'s rule for a missing ``dim``. Mirrors
    ``torch.nn.functional.log_softmax``."""
    if dim is None:
        dim = _softmax.implicit_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype=dtype)


# ---------------------------------------------------------------------------
# normalize
# ---------------------------------------------------------------------------

def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``), so that each slice has norm 1.
    Mirrors ``torch.nn.functional.normalize`` (``DivBackward0``).

    Raises:
        TypeError: a non-tensor. IndexError: ``dim`` out of range.
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("norm", input)
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is not None:
        return out.copy_(input / denom)
    return input / denom


# ---------------------------------------------------------------------------
# one_hot
# ---------------------------------------------------------------------------

def one_hot(tensor, num_classes=-1):
    """Class indices (an int64 tensor of any shape) as one-hot rows: shape ``(*tensor.shape, num_classes)``,
    int64, 1 at each index.  ``num_classes=-1`` means ``tensor.max() + 1``.  Mirrors
    ``torch.nn.functional.one_hot``.

    Raises:
        RuntimeError: a tensor that is not int64, negative values, values not below ``num_classes``, an
            empty tensor without ``num_classes`` (PyTorch's messages).
        TypeError: a non-tensor or a ``num_classes`` that is not an int.
    """
    if not isinstance(tensor, Tensor):
        raise tensor_expected("one_hot", tensor)
    if not isinstance(num_classes, numbers.Integral) or isinstance(num_classes, bool):
        raise TypeError(f"one_hot(): argument 'num_classes' (position 2) must be int, not {type_name(num_classes)}")
    num_classes = int(num_classes)
    if tensor.dtype is not _dtype.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    x = tensor.detach().cpu()._data
    if x.size == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        out = np.zeros(x.shape + (num_classes,), dtype=np.int64)
    else:
        if x.min() < 0:
            raise RuntimeError("Class values must be non-negative.")
        if num_classes == -1:
            num_classes = int(x.max()) + 1
        elif x.max() >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
        out = (x[..., None] == np.arange(num_classes)).astype(np.int64)
    return _wrap(out).to(tensor.device)


# ---------------------------------------------------------------------------
# dropout
# ---------------------------------------------------------------------------

def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p`` and scale the others by ``1 / (1 - p)`` (training only).
    Mirrors ``torch.nn.functional.dropout``.

    With ``training=False`` or ``p=0`` the input itself is returned.  The
    result is ``input * mask`` (``grad_fn`` ``MulBackward0``, as in PyTorch);
    the mask is drawn as PyTorch's CPU kernel draws it (``bernoulli_(1 - p)``,
    one double-precision uniform per element), so after the same
    ``manual_seed`` the same elements are dropped.

    Raises:
        ValueError: ``p`` outside [0, 1] ("dropout probability has to be between 0 and 1, but got 1.5").
        TypeError: a non-tensor input ("dropout(): argument 'input' (position 1) must be Tensor, not list").
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not isinstance(input, Tensor):
        raise tensor_expected("dropout_" if inplace else "dropout", input)
    if not training or p == 0:
        return input
    with _grad_mode.no_grad():
        keep = _wrap(_bernoulli_mask(input._data.shape, 1 - p)).to(input.device)
        mask = keep.to(input.dtype) / (1 - p) if p < 1 else keep.to(input.dtype)
    return input.mul_(mask) if inplace else input * mask


# ---------------------------------------------------------------------------
# l1_loss, nll_loss, cross_entropy, binary_cross_entropy(_with_logits)
# ---------------------------------------------------------------------------

def _get_enum(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _size_warning(input, target, stacklevel=3):
    if target.size() != input.size():      # (a non-tensor fails here, as in PyTorch: no attribute 'size')
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", UserWarning, stacklevel=stacklevel)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean absolute error ``mean(|input - target|)``. Mirrors ``torch.nn.functional.l1_loss``.

    Composed as in PyTorch: ``(a - b).abs()`` then ``.mean()`` / ``.sum()``, so
    ``grad_fn`` is ``MeanBackward0`` (``SumBackward0``, ``AbsBackward0`` for ``'none'``).

    Raises:
        ValueError: an unknown ``reduction``.
        AttributeError: a non-tensor operand ("'list' object has no attribute 'size'").
        RuntimeError: integer operands with ``'mean'`` (``mean()``'s message).
    """
    _size_warning(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _get_enum(reduction)
    a, b = V.broadcast_tensors(input, target)
    d = (a - b).abs()
    return d if reduction == "none" else (d.mean() if reduction == "mean" else d.sum())


def _check_target_dtype(target):
    if target.dtype not in (_dtype.int64, _dtype.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype._short_name}")


def _nll_loss_nd(name, input, target, weight, reduction, ignore_index):
    for position, (arg, value) in enumerate((("input", input), ("target", target)), 1):
        if not isinstance(value, Tensor):
            raise tensor_expected(name, value, arg, position)
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() != 1 and input.shape[0] != (target.shape[0] if target.dim() else 0):
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0] if target.dim() else 0}).")
    if input.dim() <= 2 and target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input.dim() > 2 and tuple(target.shape) != (input.shape[0],) + tuple(input.shape[2:]):
        raise RuntimeError(f"Expected target size {[input.shape[0]] + list(input.shape[2:])}, got "
                           f"{list(target.shape)}")
    _check_target_dtype(target)
    t = target._data
    classes = input.shape[0 if input.dim() == 1 else 1]
    bad = (t != ignore_index) & ((t < 0) | (t >= classes))
    if bad.any():
        raise IndexError(f"Target {int(t[bad].flat[0])} is out of bounds.")
    w = None if weight is None else weight._data.astype(input._data.dtype)
    params = {"reduction": reduction, "ignore_index": ignore_index, "weight": w}
    if input.dim() <= 2:
        return D.record(_loss.NllLoss, (input, target), (input._data, t), params)
    if input.dim() == 4:
        return D.record(_loss.NllLoss2d, (input, target), (input._data, t), params)
    # 3-D and 5-D+: PyTorch views the input as (N, C, 1, rest) and the target as (N, 1, rest)
    n, c = input.shape[0], input.shape[1]
    x = V.view(input.contiguous(), n, c, 1, input.numel() // (n * c))
    t = t.reshape(n, 1, t.size // n)
    out = D.record(_loss.NllLoss2d, (x, target), (x._data, t), params)
    return V.view(out, n, *input.shape[2:]) if reduction == "none" else out


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """Negative log likelihood ``-input[i, target[i]]`` averaged over the batch. Mirrors
    ``torch.nn.functional.nll_loss``.

    Args:
        input: log-probabilities ``(N, C)`` (or ``(C,)``, or ``(N, C, d1, ...)``), floating.
        target: class indices ``(N,)`` (``()``, ``(N, d1, ...)``), int64 or uint8, in ``[0, C)``.
        weight: optional ``(C,)`` weight of each class; ``ignore_index``: a target value that is skipped.
        reduction: ``'mean'`` (divided by the summed weights of the counted targets), ``'sum'``, ``'none'``.

    Returns:
        ``grad_fn`` ``NllLossBackward0``.

    Raises:
        TypeError: a non-tensor ("nll_loss_nd(): argument 'target' (position 2) must be Tensor, not list").
        ValueError: batch sizes that differ ("Expected input batch_size (3) to match target batch_size (2).").
        RuntimeError: a floating target ("expected target dtype to be Long or Byte, but got Float").
        IndexError: a class index out of range ("Target 4 is out of bounds.").
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return _nll_loss_nd("nll_loss_nd", input, target, weight, _get_enum(reduction), ignore_index)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """Cross entropy between logits and class indices or class probabilities. Mirrors
    ``torch.nn.functional.cross_entropy``.

    * class indices: ``target`` int64 ``(N,)``: ``nll_loss(log_softmax(input, 1), target)``
      (``grad_fn`` ``NllLossBackward0``);
    * probabilities: ``target`` floating, same shape as ``input``:
      ``-(log_softmax(input, 1) * target).sum() / N`` (``DivBackward1``; ``'sum'``: ``NegBackward0``).

    Args:
        input: logits ``(N, C)``, ``(C,)`` or ``(N, C, d1, ...)``, floating (not probabilities!).
        target, weight, ignore_index, reduction: see ``nll_loss``.
        label_smoothing: in [0, 1]: mixes the target with the uniform distribution.

    Raises:
        TypeError: a non-tensor ("cross_entropy_loss(): argument 'target' (position 2) must be Tensor, not list").
        RuntimeError: a float target of another shape ("expected target dtype to be Long or Byte, but got
            Float"); an integer target of the input's shape ("Expected floating point type for target with
            class probabilities, got Long").
        ValueError / IndexError: as ``nll_loss``.
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    reduction = _get_enum(reduction)
    for position, (arg, value) in enumerate((("input", input), ("target", target)), 1):
        if not isinstance(value, Tensor):
            raise tensor_expected("cross_entropy_loss", value, arg, position)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    if input.shape == target.shape:
        if not target.is_floating_point():
            raise RuntimeError("Expected floating point type for target with class probabilities, got "
                               f"{target.dtype._short_name}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        n_classes = input.shape[class_dim]
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / n_classes
        logp = input.log_softmax(class_dim)
        if weight is not None:
            logp = logp * weight.view([-1] + [1] * (input.dim() - class_dim - 1))
        if reduction == "none":
            return -(logp * target).sum(class_dim)
        if reduction == "sum":
            return -(logp * target).sum()
        return _loss.div_scalar(-(logp * target).sum(), input.numel() // n_classes)
    logp = input.log_softmax(class_dim)
    nll = _nll_loss_nd("nll_loss_nd", logp, target, weight, reduction, ignore_index)
    if label_smoothing <= 0:
        return nll
    n_classes = input.shape[class_dim]
    ignore = target == ignore_index
    smooth = -logp.sum(class_dim) if weight is None else \
        -(logp * weight.view([-1] + [1] * (input.dim() - class_dim - 1))).sum(class_dim)
    smooth = smooth.masked_fill(ignore, 0.0)
    if reduction == "mean":
        if weight is None:
            smooth = smooth.sum() / (~ignore).sum()
        else:
            smooth = smooth.sum() / weight.gather(0, target.masked_fill(ignore, 0).flatten()).masked_fill(
                ignore.flatten(), 0).sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return _loss.mul_scalar(nll, 1 - label_smoothing) + _loss.mul_scalar(smooth, label_smoothing / n_classes)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """``-(y log p + (1 - y) log(1 - p))`` for probabilities ``p`` (after a sigmoid). Mirrors
    ``torch.nn.functional.binary_cross_entropy``.

    Each log is clamped at -100 (so ``p = 0`` with ``y = 1`` gives 100, not inf), as in PyTorch.
    ``grad_fn`` is ``BinaryCrossEntropyBackward0``.

    Raises:
        ValueError: shapes that differ ("Using a target size (torch.Size([3])) that is different to the input
            size (torch.Size([2])) is deprecated. Please ensure they have the same size.").
        RuntimeError: dtypes that differ ("Found dtype Long but expected Float"); values outside [0, 1]
            ("all elements of input should be between 0 and 1").
        AttributeError: a non-tensor ("'list' object has no attribute 'size'").
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    reduction = _get_enum(reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size "
                         f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if target.dtype != input.dtype:
        raise RuntimeError(f"Found dtype {target.dtype._short_name} but expected {input.dtype._short_name}")
    x = input._data
    if ((x < 0) | (x > 1)).any():
        raise RuntimeError("all elements of input should be between 0 and 1")
    w = None if weight is None else V.broadcast_to(weight, input.shape)._data.astype(x.dtype)
    return D.record(_loss.BinaryCrossEntropy, (input, target), (x, target._data), {"reduction": reduction, "weight": w})


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    """``binary_cross_entropy(sigmoid(input), target)`` computed stably from the logits. Mirrors
    ``torch.nn.functional.binary_cross_entropy_with_logits``.

    ``pos_weight`` (``(C,)`` or broadcastable) weighs the positive targets.
    ``grad_fn`` is ``BinaryCrossEntropyWithLogitsBackward0``.

    Raises:
        ValueError: shapes that differ ("Target size (torch.Size([3])) must be the same as input size
            (torch.Size([2]))").
        RuntimeError: an integer target ("result type Float can't be cast to the desired output type Long").
        AttributeError: a non-tensor ("'list' object has no attribute 'size'").
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    reduction = _get_enum(reduction)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    result = _dtype.promote_types(input.dtype, target.dtype)
    if not target.is_floating_point():
        raise RuntimeError(f"result type {result._short_name} can't be cast to the desired output type "
                           f"{target.dtype._short_name}")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"log_sigmoid_cpu\" not implemented for '{input.dtype._short_name}'")
    np_dt = target.dtype.numpy_dtype        # PyTorch computes in the target's dtype (into ``1 - target``)
    x, y = input._data.astype(np_dt, copy=False), target._data.astype(np_dt, copy=False)
    w = None if weight is None else V.broadcast_to(weight, input.shape)._data.astype(np_dt)
    pw = None if pos_weight is None else pos_weight._data.astype(np_dt)
    return D.record(_loss.BinaryCrossEntropyWithLogits, (input, target), (x, y),
                    {"reduction": reduction, "weight": w, "pos_weight": pw})


def __getattr__(name):                   # only for names the module does not have
    raise _missing_attribute("course_lib.nn.functional", name)

