"""``torch.optim.Optimizer``: parameter groups, ``zero_grad`` and the state of an optimizer."""

import copy
import warnings
from collections import defaultdict

from ..core import grad_mode
from ..core.tensor import Tensor
from ..nn.module import typename

__all__ = ["Optimizer", "required"]


class _Required:
    def __repr__(self):
        return "<required parameter>"


required = _Required()


class Optimizer:
    """Base class of the optimizers. Mirrors ``torch.optim.Optimizer``.

    ``params`` is an iterable of tensors (e.g. ``model.parameters()``) or of
    dicts (parameter groups, each with its own options).  ``param_groups``
    holds the groups, each a dict with ``'params'`` and the options;
    ``state[p]`` holds what the optimizer keeps per parameter (the momentum
    buffer of SGD).

    Raises:
        TypeError: a single tensor instead of an iterable, or a non-tensor
            among the parameters (PyTorch's messages).
        ValueError: an empty parameter list; a non-leaf tensor; a parameter in
            two groups.
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {typename(params)}")
        self.state = defaultdict(dict)
        self.param_groups = []
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Add a group of parameters with its own options (missing options take the defaults)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {typename(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering of "
                            "tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)
        for p in param_group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {typename(p)}")
            if not self.defaults.get("differentiable", None) and not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will cause "
                          "an error; see github.com/pytorch/pytorch/issues/40967 for more information", stacklevel=3)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if seen & set(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Reset the gradients of all parameters: to None (default) or, with ``set_to_none=False``, to zeros."""
        for group in self.param_groups:
            for p in group["params"]:
                g = p._grad
                if g is None:
                    continue
                if set_to_none:
                    p._grad = None
                else:
                    if g.grad_fn is not None:
                        g.detach_()
                    else:
                        g.requires_grad_(False)
                    g.zero_()

    def step(self, closure=None):
        """Update the parameters from their ``.grad`` (subclasses define it)."""
        raise NotImplementedError

    @staticmethod
    def _loss_of(closure):
        """What ``step(closure)`` returns: ``closure()`` run with grad mode on (it recomputes the loss and
        calls backward), or None without a closure."""
        if closure is None:
            return None
        with grad_mode.enable_grad():
            return closure()

    def state_dict(self):
        """``{'state': {index: {...}}, 'param_groups': [{options..., 'params': [indices]}]}``: the
        optimizer's state with the parameters replaced by their position (0, 1, ... over all groups), as in
        PyTorch.  The state tensors are the optimizer's own (not copies)."""
        mapping, groups, start = {}, [], 0
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                mapping.setdefault(id(p), i)
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {(mapping[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Restore what ``state_dict()`` returned (options of each group and the per-parameter state, copied).

        Raises:
            ValueError: another number of groups or of parameters in a group (PyTorch's messages).
        """
        state_dict = copy.deepcopy(state_dict)
        groups, saved_groups = self.param_groups, state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        by_index = {i: p for g, s in zip(groups, saved_groups) for i, p in zip(s["params"], g["params"])}
        self.state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in by_index:
                p = by_index[k]
                self.state[p] = {name: (value.to(device=p.device, dtype=p.dtype if name != "step" else None)
                                        if isinstance(value, Tensor) else value) for name, value in v.items()}
            else:
                self.state[k] = v
        self.param_groups = [{**s, "params": g["params"]} for g, s in zip(groups, saved_groups)]

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"
