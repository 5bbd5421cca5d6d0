"""``torch.optim.SGD``: stochastic gradient descent, optionally with momentum."""

from ..core import grad_mode
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent. Mirrors ``torch.optim.SGD``.

    ``step()`` does, for every parameter ``p`` with a gradient ``g = p.grad``
    (in place, under no_grad, on ``p``'s device)::

        g = g + weight_decay * p                      # if weight_decay
        buf = g  (first step)  or  momentum * buf + (1 - dampening) * g
        g = g + momentum * buf  (nesterov)  or  buf   # if momentum
        p -= lr * g                                   # (+= with maximize=True)

    Args:
        params: ``model.parameters()`` or a list of parameter groups (dicts).
        lr: learning rate (default 1e-3).
        momentum, dampening, weight_decay, nesterov, maximize: as in PyTorch.
        foreach, differentiable, fused: accepted for compatibility (one
            implementation here).

    Raises:
        ValueError: a negative ``lr``, ``momentum`` or ``weight_decay``;
            nesterov without momentum or with dampening (PyTorch's messages).
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach, "differentiable": differentiable,
                    "fused": fused}
        super().__init__(params, defaults)

    def step(self, closure=None):
        """Apply one update to every parameter that has a gradient; return ``closure()``'s loss if given."""
        loss = self._loss_of(closure)
        with grad_mode.no_grad():
            for group in self.param_groups:
                lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
                weight_decay, nesterov, maximize = group["weight_decay"], group["nesterov"], group["maximize"]
                for p in group["params"]:
                    g = p._grad
                    if g is None:
                        continue
                    if maximize:
                        g = -g
                    if weight_decay != 0:
                        g = g.add(p, alpha=weight_decay)
                    if momentum != 0:
                        state = self.state[p]
                        buf = state.get("momentum_buffer")
                        if buf is None:
                            buf = state["momentum_buffer"] = g.clone().detach()
                        else:
                            buf.mul_(momentum).add_(g, alpha=1 - dampening)
                        g = g.add(buf, alpha=momentum) if nesterov else buf
                    p.add_(g, alpha=-lr)
        return loss
