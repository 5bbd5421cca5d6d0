"""The backward pass: walk the graph from the outputs to the leaves.

``run_backward`` is what ``Tensor.backward()``, ``autograd.backward`` and
``autograd.grad`` call.  It works like PyTorch's engine:

1. Count, for every node reachable from the outputs, how many edges point
   at it (its *dependencies*).  An explicit stack, not recursion, so a
   chain of 100,000 operations is fine.
2. Start from a root node that hands out the output gradients.  A node runs
   once all gradients for it have arrived (dependencies reach 0); among the
   ready nodes the most recently created runs first, as in PyTorch.
3. Each node's ``apply`` turns the gradient of its output into gradients of
   its inputs.  A gradient whose shape differs from the input's (because the
   input was broadcast) is summed back to the input's shape here, in one
   place for every operation.  Gradients arriving at the same input are
   added up.
4. Leaves are reached through their ``AccumulateGrad`` node, which adds the
   gradient into ``.grad``.  Without ``retain_graph`` each node frees what
   its forward saved once it has run.
"""

import heapq

import numpy as np

from .._broadcast import sum_to
from . import grad_mode
from .function import Node, accumulator_of

__all__ = ["run_backward"]

_ndarray, _generic = np.ndarray, np.generic


class GraphRoot(Node):
    """The synthetic first node: hands the initial gradients to the outputs' nodes."""

    def __init__(self, edges, grads):
        self._sequence_nr = float("inf")
        self.next_functions = tuple(edges)
        self._grads = tuple(grads)
        self._input_meta = tuple(None for _ in edges)

    def apply(self):
        return self._grads


def _edge(tensor):
    if tensor._grad_fn is not None:
        return (tensor._grad_fn, tensor._output_nr)
    if tensor._requires_grad:
        return (accumulator_of(tensor), 0)
    return None


def _count_dependencies(root):
    deps = {}
    stack = [root]
    seen = {root}
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return deps


class _Buffers:
    """Per-node lists of incoming gradients, adding up gradients that arrive at the same slot.

    ``shared`` holds the ids of arrays that more than one slot (or the user)
    refers to: those are never modified in place nor handed to ``.grad``
    without a copy.
    """

    def __init__(self, shared_ids):
        self.slots = {}
        self.shared = shared_ids

    def add(self, node, nr, grad):
        buf = self.slots.get(node)
        if buf is None:
            buf = self.slots[node] = [None] * getattr(node, "_n_outputs", 1)
        old = buf[nr]
        if old is None:
            buf[nr] = grad
        elif self.owned(old, grad):
            old += grad            # add into a buffer nobody else sees: no new allocation
        elif self.owned(grad, old):
            grad += old
            buf[nr] = grad
        else:
            buf[nr] = old + grad

    def owned(self, a, other):
        return (id(a) not in self.shared and a.base is None and (a.__class__ is not _ndarray or a.flags.writeable)
                and a.shape == other.shape and a.dtype == other.dtype)

    def pop(self, node):
        return self.slots.pop(node, None)


def run_backward(tensors, grad_tensors, retain_graph=False, inputs=None, accumulate=True,
                 allow_unused=False, trace=None):
    """Backpropagate from ``tensors`` (outputs) with gradients ``grad_tensors`` (arrays).

    Args:
        tensors: output Tensors to differentiate.
        grad_tensors: one backend array per output: d(something)/d(output).
        retain_graph: keep saved tensors so the graph can be walked again.
        inputs: if given, the Tensors whose gradients are wanted.
        accumulate: True for ``backward`` (add into ``.grad`` of leaves);
            False for ``autograd.grad`` (return the gradients of ``inputs``
            and leave every ``.grad`` untouched).
        allow_unused: for ``autograd.grad``: an input the outputs do not
            depend on gets None instead of an error.
        trace: optional callback ``trace(node, grads_in, grads_out)`` called
            after each node runs (the computation-graph widget uses it).

    Returns:
        For ``accumulate=False``, the list of gradients (arrays or None) of
        ``inputs``; otherwise None.

    Raises:
        RuntimeError: an output that does not require grad, a second
            backward through freed buffers, a tensor modified in place after
            it was saved, with PyTorch's messages.
    """
    edges, shared = [], set()
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        edge = _edge(t)
        if edge is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        edges.append(edge)
        shared.add(id(g))            # the caller's array: never modify or keep it
    root = GraphRoot(edges, grad_tensors)

    # What autograd.grad wants: the gradient flowing into each input's slot.
    captures = {}
    if inputs is not None:
        for k, t in enumerate(inputs):
            e = _edge(t)
            if e is None:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            captures.setdefault((e[0], e[1]), []).append(k)
    captured = [None] * (len(inputs) if inputs is not None else 0)

    deps = _count_dependencies(root)
    buffers = _Buffers(shared)
    ready = [(-root._sequence_nr, 0, root)]
    tie = 1
    prev_mode = grad_mode.enabled
    grad_mode._set(False)            # backward formulas record nothing
    try:
        while ready:
            node = heapq.heappop(ready)[2]
            grads = buffers.pop(node) if node is not root else ()
            if node is not root:
                if grads is None:
                    grads = [None] * getattr(node, "_n_outputs", 1)
                _run_pre_hooks(node, grads, buffers.shared)
                if captures:
                    for nr, g in enumerate(grads):
                        for k in captures.get((node, nr), ()):
                            captured[k] = g
                            buffers.shared.add(id(g))
                if not accumulate and node.__class__.__name__ == "AccumulateGrad":
                    out = ()
                elif all(g is None for g in grads):
                    out = (None,) * len(node.next_functions)
                else:
                    if len(grads) > 1 and any(g is None for g in grads):
                        grads = _materialize(node, grads)
                    out = node.apply(*grads)
                    if node._hooks:
                        for hook in node._hooks:
                            r = hook(out, grads)
                            if r is not None:
                                out = r
                    if trace is not None:
                        trace(node, grads, out)
                    if not retain_graph:
                        node._release()
            else:
                out = node.apply()
            seen_ids = set()
            for (nxt, nr), g, meta in zip(node.next_functions, out, node._input_meta):
                if nxt is None:
                    continue
                if g is not None:
                    if g.__class__ is not _ndarray and isinstance(g, _generic):
                        g = np.asarray(g)      # NumPy gives scalars for 0-d results; keep arrays
                    if meta is not None:
                        g = _validate(node, g, meta, nr)
                    if id(g) in seen_ids:
                        buffers.shared.add(id(g))
                    seen_ids.add(id(g))
                    buffers.add(nxt, nr, g)
                left = deps[nxt] - 1
                deps[nxt] = left
                if left == 0:
                    heapq.heappush(ready, (-nxt._sequence_nr, tie, nxt))
                    tie += 1
    finally:
        grad_mode._set(prev_mode)

    if inputs is not None and not accumulate:
        if not allow_unused and any(g is None for g in captured):
            raise RuntimeError("One of the differentiated Tensors appears to not have been used in the "
                               "graph. Set allow_unused=True if this is the desired behavior.")
        return captured
    return None


def _validate(node, grad, meta, index):
    """Sum a broadcast gradient back to the input's shape; cast it to the input's dtype."""
    shape, dtype = meta
    if grad.shape != shape:
        try:
            grad = sum_to(grad, shape)
        except ValueError:
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {index} - got "
                f"[{', '.join(map(str, grad.shape))}] but expected shape compatible with "
                f"[{', '.join(map(str, shape))}]") from None
    if grad.dtype != dtype:
        grad = grad.astype(dtype)
    return grad


def _materialize(node, grads):
    """Zeros for the outputs of a multi-output node that received no gradient."""
    from .._device import backend_of
    ref = next(g for g in grads if g is not None)
    xp = backend_of(ref)
    return [xp.zeros(shape, dtype) if g is None else g
            for g, (shape, dtype) in zip(grads, node._output_meta)]


def _run_pre_hooks(node, grads, shared):
    """Tensor hooks and retain_grad() of the tensors this node produced."""
    hooks = getattr(node, "_tensor_hooks", None)
    if hooks:
        from .._tensor import wrap
        for nr, fns in hooks.items():
            for fn in fns:
                if grads[nr] is None:
                    continue
                r = fn(wrap(grads[nr]))
                if r is not None:
                    grads[nr] = r._data
                    shared.add(id(r._data))
    retained = node._retained
    if retained:
        for nr, ref in retained.items():
            t = ref()
            if t is not None and grads[nr] is not None:
                t._accumulate_grad(grads[nr], shared=True)
