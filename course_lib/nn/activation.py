"""Activation layers: ``Sigmoid``, ``Tanh``, ``Softmax``, ``LogSoftmax``, ``Softplus`` (``ReLU`` is in ``layers.py``).

Each is a Module without parameters whose ``forward`` calls the function of
the same name; the shape and dtype of the input are kept.
"""

from ..ops.math import sigmoid, tanh
from . import functional as F
from .module import Module

__all__ = ["Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Softplus"]


class Sigmoid(Module):
    """``1 / (1 + exp(-x))`` element-wise, any shape. Mirrors ``torch.nn.Sigmoid``.

    Raises:
        TypeError: a non-tensor ("sigmoid(): argument 'input' (position 1) must be Tensor, not list").
    """

    def forward(self, input):
        return sigmoid(input)


class Tanh(Module):
    """``tanh(x)`` element-wise, any shape. Mirrors ``torch.nn.Tanh``."""

    def forward(self, input):
        return tanh(input)


class Softmax(Module):
    """``softmax`` along ``dim``: the values along it become positive and sum to 1. Mirrors ``torch.nn.Softmax``.

    ``Softmax()`` without ``dim`` warns at each call and picks PyTorch's legacy
    dimension (1 for 2-D input), as PyTorch does.
    """

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """``log(softmax(x))`` along ``dim``, computed stably. Mirrors ``torch.nn.LogSoftmax``."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softplus(Module):
    """``F.softplus`` as a layer: ``log(1 + exp(beta * x)) / beta``. Mirrors ``torch.nn.Softplus``."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"
