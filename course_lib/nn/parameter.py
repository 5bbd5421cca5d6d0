"""``nn.Parameter``: a tensor that a Module registers as one of its learnable weights."""

from ..core.backend import to_numpy
from ..core.tensor import Tensor, wrap
from ..ops.creation import empty

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A tensor that is a learnable weight of a Module. Mirrors ``torch.nn.Parameter``.

    ``Parameter(data, requires_grad=True)`` shares memory (and version
    counter) with ``data`` and requires grad by default.  Assigning a
    Parameter as an attribute of a ``Module`` registers it, so that
    ``module.parameters()`` finds it.  Results of operations on a Parameter
    are ordinary tensors.  It prints as ``Parameter containing:`` followed by
    the tensor.

    Args:
        data: a tensor (any shape); ``None`` gives an empty float32 tensor.
        requires_grad: whether the parameter is trained (default True).

    Raises:
        RuntimeError: ``requires_grad=True`` on a non-floating tensor ("Only
            Tensors of floating point and complex dtype can require gradients").
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter.__new__() expected a Tensor as data, got {type(data).__name__}")
        alias = data.detach()
        p = object.__new__(cls)
        p._data = alias._data
        p._storage = alias._storage
        p._version_ref = alias._version_counter()
        if requires_grad:
            if p._data.dtype.kind != "f":
                raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
            p._requires_grad = True
        return p

    _is_param = True

    def __repr__(self, *, tensor_contents=None):
        return "Parameter containing:\n" + super().__repr__()

    def __copy__(self):                       # PyTorch: a Parameter on the same memory
        return Parameter(Tensor.__copy__(self), self.requires_grad)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = Parameter(self.data.clone(), self.requires_grad)
        if self._grad is not None:
            result._grad = self._grad.detach().clone()
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (to_numpy(self._data).copy(), self._requires_grad))


def _rebuild_parameter(array, requires_grad):
    return Parameter(wrap(array), requires_grad)
