"""``torch.linalg``: the vector and matrix norms a beginner meets (``torch.linalg.norm(x)``).

``norm`` and ``vector_norm`` are ``Tensor.norm`` under PyTorch's names (the same ``LinalgVectorNormBackward0``
node); ``matrix_norm`` knows ``'fro'``, ``1``, ``-1``, ``inf`` and ``-inf``.
"""

import math

from .core.tensor import Tensor
from .ops import reduction as _R
from .torch_compat.arguments import missing_attribute, tensor_expected

__all__ = ["norm", "vector_norm", "matrix_norm"]


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """The ``ord``-norm of ``x``'s elements (all of them, or along ``dim``). Mirrors ``torch.linalg.vector_norm``.

    Raises:
        TypeError: a non-tensor. RuntimeError: an integer tensor (PyTorch's message).
    """
    if not isinstance(x, Tensor):
        raise tensor_expected("linalg_vector_norm", x)
    if x.dtype._kind != "f":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. "
                           f"Got {x.dtype._short_name}")
    return _R.norm(x, ord, dim, keepdim, dtype)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """The matrix norm of ``A`` (over the two dims ``dim``): ``'fro'`` (the default), ``1`` / ``-1`` (largest /
    smallest column sum of absolute values), ``inf`` / ``-inf`` (rows). Mirrors ``torch.linalg.matrix_norm``.

    Raises:
        NotImplementedError: the spectral and nuclear norms (``2``, ``-2``, ``'nuc'``), which need an SVD.
    """
    if not isinstance(A, Tensor):
        raise tensor_expected("linalg_matrix_norm", A)
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if ord == "fro":
        return _R.norm(A, 2, tuple(dim), keepdim, dtype)
    if ord in (1, -1, math.inf, -math.inf):
        d0, d1 = (dim[0], dim[1]) if ord in (1, -1) else (dim[1], dim[0])
        sums = A.abs().sum(d0, keepdim=True)
        out = sums.amax(d1, keepdim=True) if ord > 0 else sums.amin(d1, keepdim=True)
        return out if keepdim else out.squeeze(tuple(sorted(d % A.dim() for d in dim)))
    raise NotImplementedError(f"course_lib's linalg.matrix_norm has no ord={ord!r} (it needs an SVD); "
                              "PyTorch computes it")


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """``torch.linalg.norm``: without ``ord``, the 2-norm of all elements (the Frobenius norm of a matrix) or
    along ``dim``; a number ``ord`` on a vector (or one ``dim``) is the vector ``ord``-norm, on a matrix a
    matrix norm (see ``matrix_norm``).

    Raises:
        TypeError: a non-tensor. RuntimeError: an integer tensor.
    """
    if not isinstance(A, Tensor):
        raise tensor_expected("linalg_norm", A)
    if ord is None or (isinstance(dim, int) or A.dim() == 1 and dim is None) and not isinstance(ord, str):
        return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)
    return matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype)


def __getattr__(name):                   # only for names the module does not have
    raise missing_attribute("course_lib.linalg", name)
