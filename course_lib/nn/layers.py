"""The layers the course uses: ``Linear``, ``ReLU``, ``Sequential``, ``Flatten``, ``Dropout``, ``MSELoss``."""

import math
from collections import OrderedDict

from ..ops.creation import empty
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["Linear", "ReLU", "Sequential", "MSELoss", "Identity", "Flatten", "Dropout"]


class Linear(Module):
    """``y = x @ W.T + b``: a fully connected layer. Mirrors ``torch.nn.Linear``.

    Args:
        in_features: size of each input sample (the last dimension of ``x``).
        out_features: size of each output sample.
        bias: learn an additive bias (default True).
        device, dtype: where and of which floating dtype the parameters are created.

    Attributes:
        weight: Parameter ``(out_features, in_features)``, drawn from
            ``U(-1/sqrt(in_features), 1/sqrt(in_features))`` as in PyTorch
            (course_lib's generator, so other numbers than PyTorch's).
        bias: Parameter ``(out_features,)`` from the same distribution, or None.

    Shapes: input ``(*, in_features)`` -> output ``(*, out_features)``.
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """Draw new weights and bias (what ``__init__`` does)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class ReLU(Module):
    """``max(x, 0)`` element-wise, any shape. Mirrors ``torch.nn.ReLU``.

    ``inplace=True`` overwrites the input instead of allocating the output.
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Identity(Module):
    """Returns its input unchanged (a placeholder layer). Mirrors ``torch.nn.Identity``."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Flatten(Module):
    """Merge dimensions ``start_dim .. end_dim`` into one: ``(N, 1, 28, 28) -> (N, 784)`` by default
    (``input.flatten(start_dim, end_dim)``, a view when possible). Mirrors ``torch.nn.Flatten``.

    Raises:
        IndexError: an input with fewer dimensions than ``start_dim`` needs ("Dimension out of range ...").
    """

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Dropout(Module):
    """In training mode, zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``;
    in evaluation mode (``model.eval()``) return the input unchanged. Mirrors ``torch.nn.Dropout``.

    The dropped elements come from course_lib's generator (not PyTorch's stream).

    Raises:
        ValueError: ``p`` outside [0, 1] ("dropout probability has to be between 0 and 1, but got 1.5").
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Sequential(Module):
    """Sub-modules applied one after the other: ``Sequential(a, b, c)(x) == c(b(a(x)))``.
    Mirrors ``torch.nn.Sequential``.

    The sub-modules are named ``'0'``, ``'1'``, ... (or by the keys of an
    ``OrderedDict``); ``seq[i]`` is one of them, ``seq[1:]`` a new Sequential.

    Raises:
        IndexError: ``seq[i]`` out of range ("index 5 is out of range").
        TypeError: an argument that is not a Module.
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def _index(self, idx):
        n = len(self)
        if not -n <= idx < n:
            raise IndexError(f"index {idx} is out of range")
        return idx % n

    def __getitem__(self, idx):
        items = list(self._modules.items())
        if isinstance(idx, slice):
            return Sequential(OrderedDict(items[idx]))
        return items[self._index(idx)][1]

    def __setitem__(self, idx, module):
        key = list(self._modules)[self._index(idx)]
        self.add_module(key, module)

    def __delitem__(self, idx):
        keys = list(self._modules)
        for k in (keys[idx] if isinstance(idx, slice) else [keys[self._index(idx)]]):
            del self._modules[k]
        # keep the names 0, 1, 2, ... as PyTorch does
        modules = list(self._modules.values())
        self._modules.clear()
        for i, m in enumerate(modules):
            self._modules[str(i)] = m

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        """Add ``module`` at the end; return ``self``."""
        self.add_module(str(len(self)), module)
        return self

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


class MSELoss(Module):
    """Mean squared error between the prediction and the target. Mirrors ``torch.nn.MSELoss``.

    ``MSELoss()(input, target)`` is ``F.mse_loss(input, target)``: a 0-d
    tensor for ``reduction='mean'`` (default) or ``'sum'``, the element-wise
    squares for ``'none'``.
    """

    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = F._legacy_reduction(size_average, reduce)
        self.reduction = reduction

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)
