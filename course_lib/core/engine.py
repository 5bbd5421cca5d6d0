"""The backward pass: from the outputs' gradients to every leaf's ``.grad`` (README.md, 6).

Count each node's dependencies (the edges pointing at it); send each gradient along its edge into
the next node's input buffer (summed back to the input's shape, added to what is there); run a node
once all its dependencies delivered, the newest first (AccumulateGrad before all others).  Formulas
record nothing and warn of no inf or nan.  ``Tensor.backward`` (``course_lib/autograd/api.py``)
checks its arguments as PyTorch does, then calls ``run_backward``.

In PyTorch: ``torch/csrc/autograd/engine.cpp`` and ``input_buffer.cpp``.
"""

import itertools
from heapq import heappop, heappush

import numpy as np

from . import hooks
from .backend import backend_of, module_for, to_numpy, writeable
from .grad_mode import state
from .graph import AccumulateGrad, edge_of
from .layout import sum_to
from .tensor import Tensor, wrap

__all__ = ["run_backward", "validate"]

_ndarray, _generic = np.ndarray, np.generic


def run_backward(tensors, grad_tensors, retain_graph=False, inputs=None, allow_unused=False, trace=None):
    """Backpropagate from ``tensors`` with ``grad_tensors`` (one backend array each) into the leaves'
    ``.grad``; with ``inputs``, run only the nodes leading to them and return their gradients instead
    (None for an unused one when ``allow_unused``).  ``trace(node, grads_in, grads_out)`` sees each node.

    Raises:
        RuntimeError: an output with no history, an unused input, a second backward through freed
            buffers, a saved tensor modified in place (PyTorch's messages).
    """
    shared = {id(g) for g in grad_tensors}          # arrays someone else holds: never added into
    backward_pass = _Pass(_Root(_root_edges(tensors), tuple(grad_tensors)), shared, retain_graph, trace)
    if inputs is not None:
        backward_pass.capture(inputs)
    previous, state.enabled = state.enabled, False
    try:
        with np.errstate(all="ignore"):
            backward_pass.run()
    finally:
        state.enabled = previous
    return None if inputs is None else backward_pass.captured_gradients(allow_unused)


class _Root:
    """Where backward starts: it hands the outputs' gradients to the outputs' nodes."""

    def __init__(self, edges, grads):
        self.next_functions, self._input_meta, self.grads = edges, (None,) * len(edges), grads


def _root_edges(tensors):
    edges = tuple(map(edge_of, tensors))
    for i, (node, _) in enumerate(edges):
        if node is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    return edges


def _count_dependencies(root, keep=None):
    """``{node: how many edges point at it}`` over the graph ``root`` leads to (a stack, not recursion);
    with ``keep``, only over those nodes (the rest get no gradient)."""
    deps, stack = {}, [root]
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None and (keep is None or nxt in keep):
                if nxt not in deps:
                    stack.append(nxt)
                deps[nxt] = deps.get(nxt, 0) + 1
    return deps


def _nodes_leading_to(root, targets):
    """The nodes from which a path leads to one of ``targets`` (depth first, so each node is seen once)."""
    leads, visited, stack = set(), {root}, [(root, iter(root.next_functions))]
    while stack:
        node, edges = stack[-1]
        nxt = next((n for n, _ in edges if n is not None and n not in visited), None)
        if nxt is not None:
            visited.add(nxt)
            stack.append((nxt, iter(nxt.next_functions)))
            continue
        stack.pop()
        if any(n is not None and (n in targets or n in leads) for n, _ in node.next_functions):
            leads.add(node)
    return leads


class _Pass:
    """One backward pass: the dependency counts, the input buffers, the ready nodes."""

    def __init__(self, root, shared, retain_graph, trace):
        self.root, self.shared, self.retain_graph, self.trace = root, shared, retain_graph, trace
        self.deps = _count_dependencies(root)
        self.buffers = {}            # node -> one gradient (or None) per output of the node
        self.ready, self.tie = [], itertools.count()     # heap of (-sequence number, tie, node): newest first
        self.captures, self.leads, self.captured = {}, None, []

    def capture(self, inputs):
        """Run only the nodes that lead to ``inputs``, and keep the gradients that reach them."""
        for k, t in enumerate(inputs):
            node, nr = edge_of(t)
            if node is None:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            self.captures.setdefault(node, []).append((nr, k))
        self.leads = _nodes_leading_to(self.root, self.captures)
        self.captured = [None] * len(inputs)
        self.deps = _count_dependencies(self.root, self.leads | set(self.captures))

    def run(self):
        node, out = self.root, self.root.grads
        while True:
            self.send(node, out)
            if not self.ready:
                return
            node = heappop(self.ready)[2]
            grads = self.buffers.pop(node, None) or [None] * node._n_outputs
            if node._tensor_hooks or node._retained:
                _run_tensor_hooks(node, grads, self.shared)
            if self.leads is not None and not self.capture_at(node, grads):
                out = ()                         # it leads to none of the wanted inputs
                continue
            out = self.run_node(node, grads)
            if self.trace is not None:
                self.trace(node, grads, out)
            if not self.retain_graph:
                node._release()

    def send(self, node, out):
        """Add each gradient of ``out`` into the buffer of the node its edge leads to, fitted to the input
        first (``validate``); a node whose dependencies have all delivered becomes ready."""
        if len(out) > 1:
            _mark_repeated(out, self.shared)
        for (nxt, nr), g, meta in zip(node.next_functions, out, node._input_meta):
            left = self.deps.get(nxt)
            if left is None:                     # no node, or one that leads to none of the wanted inputs
                continue
            if g is not None:
                if meta is not None and (g.shape, g.dtype, g.__class__) != meta:
                    g = validate(node, g, meta, nr)
                buf = self.buffers.get(nxt)
                if buf is None:
                    buf = self.buffers[nxt] = [None] * nxt._n_outputs
                buf[nr] = g if buf[nr] is None else _add(buf[nr], g, self.shared)
            self.deps[nxt] = left - 1
            if left == 1:
                heappush(self.ready, (-nxt._sequence_nr, next(self.tie), nxt))

    def run_node(self, node, grads):
        """Run one ready node on the gradients of its outputs; return one gradient per edge."""
        if node.__class__ is AccumulateGrad:     # (a leaf whose requires_grad was turned off since gets nothing)
            if node._pre_hooks:                  # a node's own hooks run around the accumulation too
                grads = _call_node_hooks(node._pre_hooks, self.shared, grads)
            if grads[0] is not None and node.variable._requires_grad:
                node.variable._accumulate_grad(grads[0], shared=id(grads[0]) in self.shared)
            if node._hooks:
                _call_node_hooks(node._hooks, self.shared, (), grads)
            return ()
        if hooks.run_node is not None:
            return hooks.run_node(_apply, node, grads, self.shared)
        if node._plain and len(grads) == 1 and grads[0] is not None:
            return node.apply(grads[0])          # the usual node: one gradient, no hooks
        return _apply(node, grads, self.shared)

    def capture_at(self, node, grads):
        """Keep the gradients of the wanted inputs that ``node`` receives; True if ``node`` must run."""
        for nr, k in self.captures.get(node, ()):
            self.captured[k] = grads[nr]
            self.shared.add(id(grads[nr]))
        return node in self.leads

    def captured_gradients(self, allow_unused):
        for k, g in enumerate(self.captured):
            if g is None and not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {k} appears to not have been used in the "
                                   "graph. Set allow_unused=True if this is the desired behavior.")
        return self.captured


def _mark_repeated(out, shared):
    """An array a node sends along two of its edges (``add`` sends one gradient to both inputs) is not the
    engine's alone: it must not be added into in place."""
    if len(out) == 2 and out[0] is not out[1]:
        return                                   # the usual case: one comparison
    seen = set()
    for i in map(id, out):                       # (None repeated is marked too: harmless)
        if i in seen:
            shared.add(i)
        seen.add(i)


def _add(old, grad, shared):
    """The sum of two gradients meeting at one input.  An array only the engine holds (not shared, not a
    view, writeable, of the sum's shape and dtype) takes the sum in place: no new memory."""
    for a, b in ((old, grad), (grad, old)):
        if id(a) not in shared and a.base is None and writeable(a) and a.shape == b.shape and a.dtype == b.dtype:
            a += b
            return a
    total = old + grad
    return np.asarray(total) if isinstance(total, _generic) else total


def validate(node, grad, meta, index):
    """Fit a gradient to its input (``meta``): an array, summed back from a broadcast shape, cast, on its device.

    Raises:
        RuntimeError: a gradient that cannot be summed to the input's shape (PyTorch's message).
    """
    grad = np.asarray(grad) if isinstance(grad, _generic) else grad     # NumPy gives scalars for 0-d results
    shape, dtype, array_type = meta
    if grad.shape != shape:
        try:
            grad = sum_to(grad, shape)
        except ValueError:
            got, want = (", ".join(map(str, s)) for s in (grad.shape, shape))
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {index} - got [{got}] "
                               f"but expected shape compatible with [{want}]") from None
    grad = grad.astype(dtype, copy=False)
    if grad.__class__ is not array_type:      # a 0-d CPU tensor took part in a CUDA operation
        grad = to_numpy(grad) if array_type is _ndarray else module_for("cuda").asarray(grad)
    return grad


def _apply(node, grads, shared):
    """Run ``node``'s formula with its pre- and post-hooks; return one gradient per edge."""
    if node._pre_hooks:
        grads = _call_node_hooks(node._pre_hooks, shared, grads)
    if all(g is None for g in grads):
        return (None,) * len(node.next_functions)
    if node._fill_missing:
        grads = _zeros_for_missing(node, grads)
    out = node.apply(*grads)
    if node._shares_grads:                       # a learner's Function: its arrays are the learner's tensors'
        shared.update(map(id, out))
    if node._hooks:
        out = tuple(_call_node_hooks(node._hooks, shared, out, grads))
    return out


def _zeros_for_missing(node, grads):
    """Zeros for the outputs of a multi-output node that received no gradient."""
    if len(grads) == 1 or all(g is not None for g in grads):
        return grads
    xp = backend_of(next(g for g in grads if g is not None))
    return [xp.zeros(*meta) if g is None else g for g, meta in zip(grads, node._output_meta)]


def _call_node_hooks(fns, shared, grads, *more):
    """Call node hooks ``fn(grads, *more)`` on tensors; a hook may return replacements."""
    for fn in tuple(fns):
        shared.update(id(g) for g in grads)
        result = fn(*(tuple(None if g is None else wrap(g) for g in gs) for gs in (grads,) + more))
        if result is not None:
            grads = [g._data if isinstance(g, Tensor) else None for g in result]
            shared.update(id(g) for g in grads)
    return grads


def _run_tensor_hooks(node, grads, shared):
    """Hooks of the tensors ``node`` made (or of its leaf), then ``retain_grad()``, as in PyTorch."""
    for nr, fns in (node._tensor_hooks or {}).items():
        for fn in tuple(fns):
            if grads[nr] is not None:
                shared.add(id(grads[nr]))
                result = fn(wrap(grads[nr]))
                if result is not None:           # a hook may replace the gradient
                    grads[nr] = result._data
                    shared.add(id(grads[nr]))
    for nr, ref in (node._retained or {}).items():
        t = ref()
        if t is not None and grads[nr] is not None:
            t._accumulate_grad(grads[nr], shared=True, in_place=False)
