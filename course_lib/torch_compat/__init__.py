"""PyTorch-exact behaviour, around the core: what makes course_lib print, raise and round as PyTorch does.

The core (``course_lib/core``) holds the engine's ideas.  This layer holds PyTorch's particulars, and
attaches them to the core through its hooks (``core/hooks.py``) when it is imported:

===================  ===========================================================================
``arguments.py``     signatures as data, one argument parser, PyTorch's TypeErrors
``names.py``         how PyTorch's messages name types (``torch.Size``, ``numpy.ndarray``)
``dtypes.py``        dtypes as PyTorch shows them; its other dtypes; ``checked_value``, iinfo, finfo
``device.py``        ``torch.device`` and its parser
``size.py``          ``torch.Size``
``printing.py``      how tensors print
``random.py``        PyTorch's CPU random generator and its draws (``manual_seed`` gives its numbers)
``sum_order.py``     float sums added in PyTorch's order (hook ``total``)
``fma.py``           fused multiply-add as PyTorch's compiled kernels compute it
``layouts.py``       the memory layouts PyTorch gives new results (hook ``result_layout``)
``saved.py``         ``grad_fn._saved_self`` and the other saved values by name
``inference.py``     ``inference_mode`` and inference tensors (hooks ``new``, ``check_saved``)
``anomaly.py``       anomaly detection (hooks ``node_created``, ``run_node``, ``modified_hint``)
===================  ===========================================================================

It imports the core and nothing above it.
"""

import warnings

import numpy as np

from ..core import hooks
from ..core.backend import backend_of
from . import anomaly, dtypes, inference, saved  # noqa: F401 - each attaches what it changes on import
from .layouts import elementwise_result
from .sum_order import total

__all__ = ["install"]

# PyTorch gives inf and nan silently (1 / 0, log(0), float16 overflow); NumPy warns.  Its floating-point
# warnings are silenced for course_lib's own computations only (warnings raised from course_lib's modules),
# so a learner's NumPy code still warns as usual.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"course_lib(\.|$)")


def _broadcast_to(array, shape):
    """``hooks.broadcast_to``: the gradient of ``sum()``/``mean()`` (a 0-d array) is stretched by making its
    view directly, a fifth of what NumPy's ``broadcast_to`` costs; other arrays as NumPy does."""
    if array.ndim == 0 and array.__class__ is np.ndarray:
        view = np.ndarray(shape, array.dtype, array, 0, (0,) * len(shape))
        view.flags.writeable = False
        return view
    return backend_of(array).broadcast_to(array, shape)


def _result_layout(op, out, arrays, params):
    """``hooks.result_layout``: PyTorch's TensorIterator layout (an op that wraps a Python number into a
    0-d operand lists it among the operands that decide, in ``iterator_operands``)."""
    operands = getattr(op, "iterator_operands", None)
    return elementwise_result(out, arrays if operands is None else operands(arrays, params))


_UNPACK_ORDER = {}       # (op, number of saved values) -> their indices in PyTorch's unpack order


def _unpack_order(op, count):
    """``hooks.unpack_order``: PyTorch's nodes unpack (and check) their saved values in the alphabetical
    order of their names (``mat2`` before ``self``), unnamed ones first.  Computed once per op and count."""
    order = _UNPACK_ORDER.get((op, count))
    if order is None:
        names = op.saved_names
        order = _UNPACK_ORDER[op, count] = tuple(sorted(range(count), key=lambda i: names[i] if i < len(names) else ""))
    return order


def install():
    """Attach PyTorch's numerics and layouts to the core (done once, on import)."""
    hooks.total = total
    hooks.broadcast_to = _broadcast_to
    hooks.result_layout = _result_layout
    hooks.unpack_order = _unpack_order


install()
