"""The loss operations PyTorch implements as nodes of their own (used by ``nn.functional``).

==========================  ===============================================================
``NllLoss``                 ``-input[i, target[i]]`` summed/averaged (``NllLossBackward0``)
``BinaryCrossEntropy``      ``-(y log p + (1 - y) log(1 - p))`` (``BinaryCrossEntropyBackward0``)
``BinaryCrossEntropyWith-   the same on logits ``x`` with ``p = sigmoid(x)``, computed stably
Logits``                    (``BinaryCrossEntropyWithLogitsBackward0``)
==========================  ===============================================================

They work on backend arrays; the argument checks and PyTorch's error messages
are in ``course_lib/nn/functional.py``.  ``reduction`` is ``'none'``,
``'mean'`` or ``'sum'``; optional ``weight`` arrays are keyword options (they
get no gradient, as in PyTorch).
"""

import numpy as np

from ..core.backend import backend_of
from ..core.graph import Op
from . import _dispatch as D

__all__ = ["NllLoss", "NllLoss2d", "BinaryCrossEntropy", "BinaryCrossEntropyWithLogits"]


def _reduce(losses, reduction, total=None):
    if reduction == "none":
        return losses
    s = losses.sum()
    return D.as_array(s if reduction == "sum" else s / (losses.size if total is None else total))


def _upstream(grad, reduction, n):
    """The gradient each element of the unreduced loss receives."""
    if reduction == "none":
        return grad
    return grad / n if reduction == "mean" else grad


class NllLoss(Op):
    """Negative log likelihood of class indices: ``-w[t] * x[..., t, ...]`` along dim 1 (dim 0 for 1-D ``x``).

    ``x``: ``(C,)`` with a 0-d target, or ``(N, C, *d)`` with target ``(N, *d)``.
    Targets equal to ``ignore_index`` contribute 0 and do not count in the mean.
    """

    node_name = "NllLossBackward0"
    saved_names = ("self", "target")

    def forward(ctx, x, target, reduction="mean", ignore_index=-100, weight=None):
        xp = backend_of(x)
        x2 = x[None] if x.ndim == 1 else x
        t2 = target.reshape(1) if x.ndim == 1 else target
        valid = t2 != ignore_index
        idx = xp.where(valid, t2, 0).astype(np.int64)
        picked = xp.take_along_axis(x2, idx[:, None], axis=1)[:, 0]
        w = (weight[idx] if weight is not None else xp.ones(idx.shape, x.dtype)) * valid
        w = w.astype(x.dtype)
        losses = -picked * w
        total = w.sum()
        ctx.save_for_backward(x, target)
        ctx.params = (reduction, idx, w, total, valid)
        if reduction == "none":
            return losses.reshape(target.shape) if x.ndim == 1 else losses
        return _reduce(losses, reduction, total)

    def backward(ctx, grad):
        x, _ = ctx.saved_tensors
        reduction, idx, w, total, valid = ctx.params
        xp = backend_of(x)
        g = _upstream(grad, reduction, total)
        g = xp.broadcast_to(g.reshape(idx.shape) if reduction == "none" else g, idx.shape)
        shape = (1,) + x.shape if x.ndim == 1 else x.shape
        values = xp.where(valid, -w * g, 0).astype(x.dtype)     # ignored targets get +0, as PyTorch leaves them
        out = xp.zeros(idx.shape + (shape[1],), x.dtype)           # the class axis last, rows flattened
        flat = out.reshape(-1, shape[1])
        flat[xp.arange(flat.shape[0]), idx.reshape(-1)] = values.reshape(-1)
        return (xp.moveaxis(out, -1, 1).reshape(x.shape), None)


class NllLoss2d(NllLoss):
    """``NllLoss`` of ``(N, C, H, W)`` input (PyTorch's ``nll_loss2d``, also used for 3-D and 5-D+ input)."""

    node_name = "NllLoss2DBackward0"


class BinaryCrossEntropy(Op):
    """``-w (y log p + (1 - y) log(1 - p))``, each log clamped at -100 as in PyTorch (so ``p = 0`` gives 100)."""

    node_name = "BinaryCrossEntropyBackward0"
    saved_names = ("self", "target")

    def forward(ctx, p, y, reduction="mean", weight=None):
        xp = backend_of(p)
        with np.errstate(divide="ignore"):
            log_p = xp.maximum(xp.log(p), -100)
            log_q = xp.maximum(xp.log1p(-p), -100)
        losses = -(y * log_p + (1 - y) * log_q)
        if weight is not None:
            losses = losses * weight
        ctx.save_for_backward(p, y)
        ctx.params = (reduction, weight)
        return _reduce(losses.astype(p.dtype, copy=False), reduction)

    def backward(ctx, grad):
        p, y = ctx.saved_tensors
        reduction, weight = ctx.params
        xp = backend_of(p)
        g = _upstream(grad, reduction, p.size)
        if weight is not None:
            g = g * weight
        gp = g * (p - y) / xp.maximum((1 - p) * p, 1e-12)
        gy = None
        if ctx.needs_input_grad[1]:
            with np.errstate(divide="ignore"):
                gy = g * (xp.maximum(xp.log1p(-p), -100) - xp.maximum(xp.log(p), -100))
        return (gp, gy)


class BinaryCrossEntropyWithLogits(Op):
    """``w ((1 - y) x + lw * softplus(-x))`` with ``lw = 1 + (pos_weight - 1) y``: binary cross entropy of
    ``sigmoid(x)``, without computing ``log(sigmoid(x))`` (stable for large ``|x|``)."""

    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    saved_names = ("self", "target")

    def forward(ctx, x, y, reduction="mean", weight=None, pos_weight=None):
        xp = backend_of(x)
        softplus = xp.maximum(-x, 0) + xp.log1p(xp.exp(-xp.abs(x)))       # log(1 + exp(-x))
        lw = 1 if pos_weight is None else 1 + (pos_weight - 1) * y
        losses = (1 - y) * x + lw * softplus
        if weight is not None:
            losses = losses * weight
        ctx.save_for_backward(x, y)
        ctx.params = (reduction, weight, pos_weight)
        return _reduce(losses.astype(x.dtype, copy=False), reduction)

    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        reduction, weight, pos_weight = ctx.params
        xp = backend_of(x)
        g = _upstream(grad, reduction, x.size)
        if weight is not None:
            g = g * weight
        sig = 1 / (1 + xp.exp(-x))
        if pos_weight is None:
            gx = g * (sig - y)
            gy = -g * x if ctx.needs_input_grad[1] else None
        else:
            lw = 1 + (pos_weight - 1) * y
            gx = g * ((1 - y) - lw * (1 - sig))
            gy = None
            if ctx.needs_input_grad[1]:
                softplus = xp.maximum(-x, 0) + xp.log1p(xp.exp(-xp.abs(x)))
                gy = g * ((pos_weight - 1) * softplus - x)
        return (gx, gy)


class DivScalar(Op):
    """``x / number`` as PyTorch's C++ losses write it (``DivBackward1``: the number is not wrapped in a tensor)."""

    node_name = "DivBackward1"

    def forward(ctx, x, other=1):
        ctx.other = other
        return D.as_array(x / x.dtype.type(other))

    def backward(ctx, grad):
        return (grad / grad.dtype.type(ctx.other),)


class MulScalar(Op):
    """``x * number`` as PyTorch's C++ losses write it (``MulBackward1``)."""

    node_name = "MulBackward1"

    def forward(ctx, x, other=1):
        ctx.other = other
        return D.as_array(x * x.dtype.type(other))

    def backward(ctx, grad):
        return (grad * grad.dtype.type(ctx.other),)


def div_scalar(t, number):
    """``t / number`` recorded as ``DivBackward1``."""
    return D.record(DivScalar, (t,), (t._data,), {"other": number})


def mul_scalar(t, number):
    """``t * number`` recorded as ``MulBackward1``."""
    return D.record(MulScalar, (t,), (t._data,), {"other": number})
