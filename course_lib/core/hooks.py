"""The named places where the layers around the core attach (README.md, 10).

Each default below is the plain behaviour, so the core runs, and reads, on its own;
``course_lib/torch_compat`` replaces them with PyTorch's (summing order, result layouts, the order
saved values are checked, inference tensors, anomaly mode, ``grad_fn._saved_*``) when it is imported.
"""

from .backend import backend_of

__all__ = ["total", "broadcast_to", "result_layout", "unpack_order", "new", "node_created", "op_defined", "check_saved",
           "run_node", "modified_hint"]


def total(array, axes=None, keepdims=False):
    """The sum of ``array`` over ``axes`` (None: all) in its dtype.  torch_compat: in PyTorch's order."""
    return array.sum(axis=axes, keepdims=keepdims)


def broadcast_to(array, shape):
    """``array`` stretched to ``shape``: a read-only view.  torch_compat: faster for a 0-d array."""
    return backend_of(array).broadcast_to(array, shape)


def result_layout(op, out, arrays, params):
    """``out``, the element-wise ``op``'s result, laid out in memory.  torch_compat: as TensorIterator does."""
    return out


def unpack_order(op, count):
    """The order in which ``op``'s node checks its saved values.  torch_compat: by name, as PyTorch's."""
    return range(count)


new = object.__new__   # makes every tensor (torch_compat.inference: inference tensors inside inference_mode())
node_created = None    # called with each new node (torch_compat.anomaly keeps its forward stack)
op_defined = None      # called with each new Op that has a node (torch_compat.saved: its grad_fn._saved_* names)
run_node = None        # if set, the engine runs each node as run_node(apply, node, grads, shared) (anomaly mode)
check_saved = None     # called with each saved tensor's counter that is not a plain list (inference tensors)
modified_hint = ("enable anomaly detection to find the operation that failed to compute its gradient, with "
                 "torch.autograd.set_detect_anomaly(True, check_nan=False).")    # the in-place error's last words
