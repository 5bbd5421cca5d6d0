"""The backward pass: from the outputs' gradients to every leaf's ``.grad``.

``run_backward`` works as PyTorch's engine does:

1. count, for every node the outputs lead to, how many edges point at it (its *dependencies*);
2. start from a root node that hands out the outputs' gradients, and send each gradient a node
   returns along its edge into the next node's *input buffer*: a gradient of the wrong shape (its
   input was broadcast) is summed back to the input's shape, gradients meeting at one input add up;
3. a node whose dependencies all delivered is *ready*; of the ready nodes, the one created last runs
   first (AccumulateGrad nodes before all others);
4. before a node runs, the hooks of the tensors it made see their gradients, and tensors that called
   ``retain_grad()`` keep one; a leaf's AccumulateGrad adds its gradient into ``.grad``;
5. without ``retain_graph`` each node frees what its forward saved once it has run.

The formulas record nothing (grad mode is off in this thread while backward runs) and, as in
PyTorch, warn of no inf or nan.  With ``inputs``, only the nodes that lead to them run, and the
gradients arriving there are returned instead of accumulated (``autograd.grad``).

In PyTorch: ``torch/csrc/autograd/engine.cpp`` (``compute_dependencies``, the ready queue ordered by
sequence number, ``evaluate_function``) and ``input_buffer.cpp`` (``InputBuffer::accumulate``).
"""

from heapq import heappop, heappush

import numpy as np

from . import hooks
from .backend import backend_of, module_for, to_numpy, writeable
from .grad_mode import state
from .graph import AccumulateGrad, Node, _type_name, edge_of
from .layout import sum_to
from .tensor import Tensor, wrap

__all__ = ["run_backward", "validate"]

_ndarray, _generic = np.ndarray, np.generic


class GraphRoot(Node):
    """The first node: hands the initial gradients to the outputs' nodes."""

    _sequence_nr = float("inf")

    def __init__(self, edges, grads):
        self.next_functions, self._grads = tuple(edges), tuple(grads)
        self._input_meta = (None,) * len(self.next_functions)

    def apply(self):
        return self._grads


def run_backward(tensors, grad_tensors, retain_graph=False, inputs=None, allow_unused=False, trace=None):
    """Backpropagate from ``tensors`` with ``grad_tensors`` (one backend array each).

    Without ``inputs`` the leaves' ``.grad`` grow and None is returned.  With ``inputs`` (tensors),
    only the nodes leading to them run and their gradients are returned (None for an unused input
    when ``allow_unused``).  ``trace(node, grads_in, grads_out)``, if given, is called after each node.

    Raises:
        RuntimeError: an output with no history, an unused input, a second backward through freed
            buffers, a saved tensor modified in place (PyTorch's messages).
    """
    shared = {id(g) for g in grad_tensors}          # arrays someone else holds: never added into
    root = GraphRoot(_root_edges(tensors), grad_tensors)
    backward_pass = _Pass(root, shared, retain_graph, trace)
    if inputs is not None:
        backward_pass.capture(inputs)
    previous, state.enabled = state.enabled, False
    try:
        with np.errstate(all="ignore"):
            backward_pass.run()
    finally:
        state.enabled = previous
    return None if inputs is None else backward_pass.captured_gradients(allow_unused)


def _root_edges(tensors):
    edges = []
    for i, t in enumerate(tensors):
        edge = edge_of(t)
        if edge[0] is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        edges.append(edge)
    return edges


def _count_dependencies(root):
    """``{node: how many edges point at it}`` over the graph ``root`` leads to (a stack, not recursion)."""
    deps, stack = {}, [root]
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None:
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
        self.ready = []              # heap of (-sequence number, tie, node): the newest runs first
        self.tie = 0
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

    def run(self):
        node, out = self.root, self.root.apply()
        while True:
            self.send(node, out)
            if not self.ready:
                return
            node = heappop(self.ready)[2]
            out = self.run_node(node, self.buffers.pop(node, None) or [None] * node._n_outputs)

    def send(self, node, out):
        """Put each gradient of ``out`` into the buffer of the node its edge leads to."""
        _mark_repeated(out, self.shared)
        for (nxt, nr), g, meta in zip(node.next_functions, out, node._input_meta):
            if nxt is None or self.leads is not None and nxt not in self.leads and nxt not in self.captures:
                continue
            if g is not None:
                self.deliver(node, nxt, nr, _as_array(g), meta)
            self.deps[nxt] -= 1
            if self.deps[nxt] == 0:
                heappush(self.ready, (-nxt._sequence_nr, self.tie, nxt))
                self.tie += 1

    def deliver(self, node, nxt, nr, g, meta):
        """Fit gradient ``g`` to its input (``meta``), then add it into input ``nr`` of ``nxt``'s buffer."""
        if meta is not None and (g.shape != meta[0] or g.dtype is not meta[1] or g.__class__ is not meta[2]):
            g = validate(node, g, meta, nr)
        buf = self.buffers.get(nxt)
        if buf is None:
            buf = self.buffers[nxt] = [None] * nxt._n_outputs
        buf[nr] = g if buf[nr] is None else _add(buf[nr], g, self.shared)

    def run_node(self, node, grads):
        """Run one ready node; return one gradient per edge."""
        if node.__class__ is AccumulateGrad and node.variable._hooks or node._tensor_hooks or node._retained:
            _run_tensor_hooks(node, grads, self.shared)
        if self.leads is not None and not self.capture_at(node, grads):
            return ()
        if node.__class__ is AccumulateGrad:
            if grads[0] is not None:
                node.variable._accumulate_grad(grads[0], shared=id(grads[0]) in self.shared)
            out = ()
        elif hooks.run_node is not None:
            out = hooks.run_node(_apply, node, grads, self.shared)
        elif node._plain and len(grads) == 1 and grads[0] is not None:
            out = node.apply(grads[0])               # the usual node: one gradient, no hooks
        else:
            out = _apply(node, grads, self.shared)
        if self.trace is not None:
            self.trace(node, grads, out)
        if not self.retain_graph:
            node._release()
        return out

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


def _as_array(g):
    return np.asarray(g) if g.__class__ is not _ndarray and isinstance(g, _generic) else g


def _mark_repeated(out, shared):
    """An array a node sends along two edges (``add`` sends one gradient to both inputs) is not the
    engine's alone: it must not be added into in place."""
    if len(out) == 2:
        if out[0] is out[1] and out[0] is not None:
            shared.add(id(out[0]))
        return
    seen = set()
    for g in out:
        if g is not None and id(g) in seen:
            shared.add(id(g))
        seen.add(id(g))


def _add(old, grad, shared):
    """The sum of two gradients meeting at one input.  An array only the engine holds (not shared, not a
    view, writeable, of the sum's shape and dtype) takes the sum in place: no new memory."""
    for a, b in ((old, grad), (grad, old)):
        if id(a) not in shared and a.base is None and writeable(a) and a.shape == b.shape and a.dtype == b.dtype:
            a += b
            return a
    return _as_array(old + grad)


def validate(node, grad, meta, index):
    """Fit a gradient to its input: sum a broadcast gradient back to the input's shape, cast its dtype,
    move it to the input's device.

    Raises:
        RuntimeError: a gradient that cannot be summed to the input's shape (PyTorch's message).
    """
    shape, dtype, array_type = meta
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
    if grad.__class__ is not array_type:      # a 0-d CPU tensor took part in a CUDA operation
        grad = to_numpy(grad) if array_type is _ndarray else module_for("cuda").asarray(grad)
    return grad


def _apply(node, grads, shared):
    """Run ``node``'s formula with its pre- and post-hooks; return one gradient per edge."""
    if node._pre_hooks:
        grads = _call_node_hooks(node._pre_hooks, shared, grads)
    if all(g is None for g in grads):
        return (None,) * len(node.next_functions)
    if node._materialize and any(g is None for g in grads):
        grads = [backend_of(grads[0] if grads[0] is not None else next(g for g in grads if g is not None))
                 .zeros(shape, dtype) if g is None else g for g, (shape, dtype) in zip(grads, node._output_meta)]
    out = node.apply(*grads)
    if node._shares_grads:                       # a learner's Function: its arrays are the learner's tensors'
        shared.update(id(g) for g in out if g is not None)
    if node._hooks:
        out = tuple(_call_node_hooks(node._hooks, shared, out, grads))
    return out


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
    table = {0: node.variable._hooks} if node.__class__ is AccumulateGrad else node._tensor_hooks
    for nr, fns in (table or {}).items():
        for fn in tuple(fns):
            if grads[nr] is not None:
                shared.add(id(grads[nr]))
                result = fn(wrap(grads[nr]))
                if result is not None:
                    grads[nr] = _hook_result(fn, grads[nr], result)
                    shared.add(id(grads[nr]))
    for nr, ref in (node._retained or {}).items():
        t = ref()
        if t is not None and grads[nr] is not None:
            t._accumulate_grad(grads[nr], shared=True, in_place=False)


def _hook_result(hook, grad, result):
    """The array of a tensor hook's result, checked as PyTorch checks it."""
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    name = getattr(hook, "__name__", type(hook).__name__)
    if result._data.dtype != grad.dtype:
        raise RuntimeError(f"hook '{name}' has changed the type of value (was {_type_name(grad)} got "
                           f"{_type_name(result._data)})")
    if result._data.shape != grad.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    return result._data


def backward(self, gradient=None, retain_graph=None):
    """Add the gradient of this tensor with respect to each leaf of its graph into the leaf's ``.grad``.

    A one-element tensor needs no ``gradient``; any other needs one of its shape, which weights the
    outputs (the vector-Jacobian product).  The PyTorch-exact form (``create_graph``, ``inputs``, the
    checks of ``gradient``) is ``course_lib/autograd/api.py``'s.

    Raises:
        RuntimeError: "grad can be implicitly created only for scalar outputs", and run_backward's errors.
    """
    if gradient is None and self._data.size != 1:
        raise RuntimeError("grad can be implicitly created only for scalar outputs")
    grad = backend_of(self._data).ones_like(self._data) if gradient is None else gradient._data
    run_backward((self,), (grad,), retain_graph=bool(retain_graph))


Tensor.backward = backward
