"""Loss modules: ``L1Loss``, ``NLLLoss``, ``CrossEntropyLoss``, ``BCELoss``, ``BCEWithLogitsLoss``
(``MSELoss`` is in ``layers.py``).

``Loss()(input, target)`` calls the function of ``nn.functional`` with the
options given to the constructor; a class ``weight`` (and ``pos_weight``) is
registered as a buffer, so it appears in ``state_dict()`` as in PyTorch.
"""

from . import functional as F
from .module import Module

__all__ = ["L1Loss", "NLLLoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss"]


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = F._legacy_reduction(size_average, reduce)
        self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    """Mean absolute error ``mean(|input - target|)``; ``reduction`` ``'mean'``, ``'sum'`` or ``'none'``.
    Mirrors ``torch.nn.L1Loss``."""

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log likelihood of class indices, for log-probabilities ``(N, C)``. Mirrors ``torch.nn.NLLLoss``."""

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Cross entropy of logits ``(N, C)`` against class indices ``(N,)`` (int64) or class probabilities
    ``(N, C)`` (floating). Mirrors ``torch.nn.CrossEntropyLoss``; see ``F.cross_entropy``.

    The input are raw scores (logits): the softmax is inside the loss.
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCELoss(_WeightedLoss):
    """Binary cross entropy of probabilities (after ``Sigmoid``) against targets in [0, 1] of the same shape.
    Mirrors ``torch.nn.BCELoss``; see ``F.binary_cross_entropy``."""

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """``Sigmoid`` followed by ``BCELoss``, in one stable computation on the logits. Mirrors
    ``torch.nn.BCEWithLogitsLoss``; see ``F.binary_cross_entropy_with_logits``."""

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                  reduction=self.reduction)
