"""``torch.optim``: optimizers that update parameters from their gradients (``SGD``, ``Adam``, ``AdamW``)."""

from ..torch_compat.names import public_module
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW"]

public_module("course_lib.optim.adamw", AdamW)      # PyTorch keeps it in torch.optim.adamw (README.md, "Class names")
