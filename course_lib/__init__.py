"""course_lib: a small, readable tensor + autograd engine with PyTorch's names and behaviour.

``import course_lib as torch`` runs the basic PyTorch code of the course
with the same printed output and the same error messages.  Where to read:

==================  ==========================================================
``_dtype.py``       the nine dtypes and PyTorch's type promotion
``_device.py``      devices, and the array library behind each (NumPy / CuPy)
``_tensor.py``      the Tensor: one array plus autograd attributes
``_printing.py``    how tensors print (PyTorch's rules)
``_creation.py``    ``tensor``, ``zeros``, ``arange``, ``linspace``, ...
``_random.py``      ``manual_seed``, ``rand``, ``randn``, ...
``ops/``            every operation, forward and backward side by side
``autograd/``       the graph, ``backward()``, grad modes, ``gradcheck``
``nn/``, ``optim/`` layers, losses and SGD for the last chapters
==================  ==========================================================

This module only re-exports names.
"""

from . import _dtype
from ._dtype import (dtype, bool, uint8, int8, int16, int32, int64, float16, float32, float64,  # noqa: A004
                     half, float, double, short, int, long, get_default_dtype, set_default_dtype,
                     promote_types, can_cast)
from ._device import device
from ._size import Size
from ._tensor import Tensor
from . import _methods  # noqa: F401 - attaches the operations to Tensor
from ._printing import set_printoptions, get_printoptions
from ._creation import (tensor, as_tensor, asarray, from_numpy, zeros, ones, empty, full, zeros_like, ones_like,
                        empty_like, full_like, eye, arange, linspace, logspace, scalar_tensor,
                        FloatTensor, DoubleTensor, HalfTensor, IntTensor, LongTensor, ShortTensor, CharTensor,
                        ByteTensor, BoolTensor)
from ._random import (Generator, manual_seed, seed, initial_seed, get_rng_state, set_rng_state, rand, randn,
                      randint, randperm, normal, rand_like, randn_like, randint_like, bernoulli, default_generator)
from .ops.arithmetic import (add, sub, subtract, mul, multiply, div, divide, true_divide, floor_divide, remainder,
                             fmod, pow, neg, negative, rsub, reciprocal, eq, ne, lt, le, gt, ge, equal, allclose,
                             isclose, logical_not, logical_and, logical_or, logical_xor, bitwise_not, bitwise_and,
                             bitwise_or, bitwise_xor, maximum, minimum)
from .ops.math import (abs, absolute, exp, log, log2, log10, log1p, expm1, sqrt, rsqrt, square, sin, cos, tan,
                       tanh, sigmoid, relu, floor, ceil, round, trunc, sign, clamp, clip, clamp_min, clamp_max,
                       where, isnan, isinf, isfinite, erf)
from .ops.reduction import (sum, mean, prod, max, min, amax, amin, argmax, argmin, std, var, all, any, norm,
                            cumsum, logsumexp, count_nonzero, return_types)
from .ops.views import (view_as, reshape, transpose, swapaxes, swapdims, t, permute, movedim, squeeze, unsqueeze,
                        flatten, unflatten, broadcast_to, broadcast_tensors, broadcast_shapes, clone, narrow, select,
                        unbind, cat, concat, concatenate, stack, split, chunk, flip, as_strided, contiguous_format,
                        preserve_format)
from .ops.linalg import matmul, mm, bmm, mv, dot, outer, inner
from .ops.indexing import index_select, masked_fill, masked_select, gather, nonzero
from . import autograd
from .autograd import no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode
from . import cuda

__version__ = "0.1.0"

strided = type("layout", (), {"__repr__": lambda self: "torch.strided"})()


def is_tensor(obj):
    """True if ``obj`` is a Tensor. Mirrors ``torch.is_tensor``."""
    return isinstance(obj, Tensor)


def is_floating_point(input):
    """True if ``input`` has a floating dtype. Mirrors ``torch.is_floating_point``."""
    return input.is_floating_point()


def numel(input):
    """Number of elements of ``input``. Mirrors ``torch.numel``."""
    return input.numel()


def result_type(tensor1, tensor2):
    """The dtype of an arithmetic op on the two operands (tensors or numbers). Mirrors ``torch.result_type``."""
    return _dtype.result_type(tensor1, tensor2)


def get_num_threads():
    """Threads NumPy's BLAS may use (reported as 1 when unknown)."""
    return 1


def set_num_threads(n):
    """Accepted for compatibility; course_lib leaves BLAS threading to NumPy."""
    return None

