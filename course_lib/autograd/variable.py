"""``Variable``: the wrapper PyTorch had before version 0.4, kept for old code and old tutorials.

Since 0.4 every Tensor can require grad, and ``Variable(t, requires_grad=True)``
just gives a new leaf tensor that shares ``t``'s memory.  New code writes
``t.requires_grad_()`` or ``torch.tensor(..., requires_grad=True)``.
"""

from ..core.tensor import Tensor

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False)``: a leaf tensor sharing ``data``'s memory. Mirrors
    ``torch.autograd.Variable`` (every Tensor is an instance of it).

    Raises:
        TypeError: ``data`` is not a Tensor.
        RuntimeError: ``requires_grad=True`` for a non-floating tensor (PyTorch's message).
    """

    def __new__(cls, data, requires_grad=False, volatile=False):
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad and not data.is_floating_point():
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t = data.detach()
        t._requires_grad = bool(requires_grad)
        return t
