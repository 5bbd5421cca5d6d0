"""``torch.optim``: optimizers that update parameters from their gradients (``SGD``)."""

from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD"]
