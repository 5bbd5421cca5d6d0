"""tril and triu: keep the lower or upper triangle of the last two dimensions, zero the rest.

``tril(x, diagonal=0)`` keeps the elements on and below the main diagonal
(``diagonal=1`` includes the one above it, ``-1`` drops the main one);
``triu`` keeps those on and above it.  A batch of matrices is handled matrix
by matrix.  The gradient is masked the same way (``TrilBackward0`` /
``TriuBackward0``, which save only ``diagonal``).
"""

import numpy as np

from ..core.backend import backend_of
from ..core.graph import Op
from ..core.tensor import Tensor
from ..torch_compat.arguments import _check, tensor_expected
from ..torch_compat.names import type_name
from . import _dispatch as D

__all__ = ["tril", "triu"]


class Tril(Op):
    node_name = "TrilBackward0"

    def forward(ctx, a, diagonal):
        ctx.diagonal = diagonal
        return backend_of(a).tril(a, diagonal)

    def backward(ctx, grad):
        return (backend_of(grad).tril(grad, ctx.diagonal),)


class Triu(Op):
    node_name = "TriuBackward0"

    def forward(ctx, a, diagonal):
        ctx.diagonal = diagonal
        return backend_of(a).triu(a, diagonal)

    def backward(ctx, grad):
        return (backend_of(grad).triu(grad, ctx.diagonal),)


def _triangle(op, name, input, diagonal):
    if not isinstance(input, Tensor):
        raise tensor_expected(name, input)
    if (not isinstance(diagonal, (int, np.integer)) or isinstance(diagonal, bool)) and not _check("int", diagonal):
        raise TypeError(f"{name}(): argument 'diagonal' (position 2) must be int, not {type_name(diagonal)}")
    if input._data.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return D.record(op, (input,), (input._data,), {"diagonal": int(diagonal)})


def tril(input, diagonal=0):
    """The lower triangle (on and below ``diagonal``) of the last two dims; zeros elsewhere. Mirrors
    ``torch.tril``.

    Raises:
        RuntimeError: fewer than 2 dimensions. TypeError: ``diagonal`` not an int.
    """
    return _triangle(Tril, "tril", input, diagonal)


def triu(input, diagonal=0):
    """The upper triangle (on and above ``diagonal``) of the last two dims; zeros elsewhere. Mirrors
    ``torch.triu``.

    Raises:
        RuntimeError: fewer than 2 dimensions. TypeError: ``diagonal`` not an int.
    """
    return _triangle(Triu, "triu", input, diagonal)
