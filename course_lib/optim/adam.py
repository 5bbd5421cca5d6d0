"""``torch.optim.Adam`` and ``torch.optim.AdamW``: adaptive moment estimation."""

import numpy as np

from ..core import grad_mode
from ..core.tensor import wrap
from ..ops._dispatch import as_array
from ..ops.creation import tensor, zeros_like
from ..torch_compat.dtypes import float32
from .optimizer import Optimizer

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """Adam. Mirrors ``torch.optim.Adam`` (its single-tensor CPU algorithm, in the parameter's dtype).

    ``step()`` does, for every parameter ``p`` with a gradient ``g`` (step ``t`` counted from 1)::

        p *= 1 - lr * weight_decay                  # decoupled_weight_decay=True (AdamW)
        g = g + weight_decay * p                    # otherwise, if weight_decay
        m = m + (1 - beta1) * (g - m)               # exp_avg
        v = beta2 * v + (1 - beta2) * g * g         # exp_avg_sq (amsgrad: its running maximum is used)
        p -= lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)

    ``state[p]`` holds ``'step'`` (a float32 0-d tensor), ``'exp_avg'`` and
    ``'exp_avg_sq'``, as in PyTorch, so ``state_dict()`` prints the same.

    Args:
        params: ``model.parameters()`` or parameter groups (dicts).
        lr (default 1e-3), betas (default (0.9, 0.999)), eps (default 1e-8), weight_decay (default 0),
        amsgrad, maximize, decoupled_weight_decay: as in PyTorch; foreach, capturable,
        differentiable, fused: accepted and stored (one implementation here).

    Raises:
        ValueError: a negative ``lr``, ``eps`` or ``weight_decay``, a beta outside [0, 1) (PyTorch's messages).
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def step(self, closure=None):
        """Apply one Adam update to every parameter that has a gradient; return ``closure()``'s loss if given."""
        loss = self._loss_of(closure)
        with grad_mode.no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p._grad is not None:
                        self._update(p, group)
        return loss

    def _update(self, p, group):
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        weight_decay = group["weight_decay"]
        state = self.state[p]
        if not state:
            state["step"] = tensor(0.0, dtype=float32)
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = zeros_like(p)
        x = p._data
        s = x.dtype.type                                   # Python numbers act in the parameter's dtype
        g = p._grad._data
        if group["maximize"]:
            g = -g
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * weight_decay)
                x = p._data
            else:
                g = g + s(weight_decay) * x
        state["step"].add_(1)
        t = float(state["step"].item())
        m, v = state["exp_avg"], state["exp_avg_sq"]
        m.copy_(_wrap(m._data + s(1 - beta1) * (g - m._data)))          # exp_avg.lerp_(g, 1 - beta1)
        v.copy_(_wrap(v._data * s(beta2) + s(1 - beta2) * g * g))       # mul_(beta2).addcmul_(g, g, 1 - beta2)
        if group["amsgrad"]:
            vmax = state["max_exp_avg_sq"]
            vmax.copy_(_wrap(np.maximum(vmax._data, v._data)))
            v = vmax
        step_size = lr / (1 - beta1 ** t)
        denom = np.sqrt(v._data) / s((1 - beta2 ** t) ** 0.5) + s(eps)
        p.copy_(_wrap(x + s(-step_size) * (m._data / denom)))            # p.addcdiv_(m, denom, -step_size)


class AdamW(Adam):
    """Adam with decoupled weight decay (``p *= 1 - lr * weight_decay`` before the update; default
    ``weight_decay=1e-2``). Mirrors ``torch.optim.AdamW``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)


def _wrap(array):
    return wrap(as_array(array))
