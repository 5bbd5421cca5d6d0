"""The named places where the layers around the core attach.

The core computes with plain NumPy and knows PyTorch's rules, not PyTorch's arithmetic: summing in
PyTorch's order, laying results out in memory as PyTorch's TensorIterator does, or checking saved
values in the order PyTorch's nodes unpack them are what ``course_lib/torch_compat`` adds, by
replacing the defaults below when it is imported.  Each default is the plain behaviour, so the core
runs, and reads, on its own.
"""

from .backend import backend_of

__all__ = ["total", "broadcast_to", "result_layout", "unpack_order", "new", "node_created", "check_saved",
           "run_node", "modified_hint"]


def total(array, axes=None, keepdims=False):
    """The sum of ``array`` over ``axes`` (all of them: None), in its dtype (``sum``, ``mean``, ``sum_to``).

    torch_compat: float sums added in PyTorch's order, so that they round to PyTorch's bits.
    """
    return array.sum(axis=axes, keepdims=keepdims)


def broadcast_to(array, shape):
    """``array`` stretched to ``shape`` without a copy: a read-only view, stride 0 where it is stretched
    (the backward of ``sum`` and ``mean``).

    torch_compat: a 0-d array's view made directly (NumPy's ``broadcast_to`` costs 2-3 µs of Python).
    """
    return backend_of(array).broadcast_to(array, shape)


def result_layout(op, out, arrays, params):
    """The result ``out`` of the element-wise ``op`` on ``arrays``, in the memory layout PyTorch gives it.

    torch_compat: the layout of PyTorch's TensorIterator (``x.t() + 1`` is transposed too).
    """
    return out


def unpack_order(op, count):
    """The order in which a node of ``op`` checks its ``count`` saved values (which error is raised first).

    torch_compat: PyTorch's nodes unpack their saved values in the alphabetical order of their names.
    """
    return range(count)


new = object.__new__   # makes every tensor: torch_compat.inference makes inference tensors inside inference_mode()

node_created = None    # called with each new node (torch_compat.anomaly keeps the forward stack trace)

run_node = None        # if set, the engine runs each node through run_node(apply, node, grads, shared) (torch_compat.anomaly
                       # names the node in any error and checks for nan)

check_saved = None     # called with the version counter of each saved tensor (torch_compat.inference refuses
                       # inference tensors)

modified_hint = ("enable anomaly detection to find the operation that failed to compute its gradient, with "
                 "torch.autograd.set_detect_anomaly(True, check_nan=False).")
"""The last words of the error for a saved tensor modified in place (torch_compat.anomaly changes them)."""
