"""The backward pass: walk the graph from the outputs to the leaves.

``run_backward`` is what ``Tensor.backward()``, ``autograd.backward`` and
``autograd.grad`` call.  It works like PyTorch's engine:

1. Count, for every node reachable from the outputs, how many edges point
   at it (its *dependencies*).  An explicit stack, not recursion, so a
   chain of 100,000 operations is fine.
2. Start from a root node that hands out the output gradients.  A node runs
   once all gradients for it have arrived (dependencies reach 0); among the
   ready nodes the most recently created runs first, and AccumulateGrad
   nodes before all others, as in PyTorch.
3. Before a node runs, the hooks of the tensors it produced see (and may
   replace) their gradients, and tensors that called ``retain_grad()`` keep
   a copy in ``.grad``.
4. Each node's ``apply`` turns the gradients of its outputs into gradients
   of its inputs.  A gradient whose shape differs from the input's (because
   the input was broadcast) is summed back to the input's shape here, in one
   place for every operation.  Gradients arriving at the same input are
   added up.
5. Leaves are reached through their ``AccumulateGrad`` node, which adds the
   gradient into ``.grad``.  Without ``retain_graph`` each node frees what
   its forward saved once it has run.

``autograd.grad`` (and ``backward(inputs=...)``) run only the nodes that
lead to the requested inputs and capture the gradients arriving there.
"""

from heapq import heappop, heappush

import numpy as np

from .._broadcast import sum_to
from .._device import writeable
from . import anomaly_mode, grad_mode
from .function import AccumulateGrad, BackwardCFunction, Node

__all__ = ["run_backward", "validate"]

_ndarray, _generic = np.ndarray, np.generic


class GraphRoot(Node):
    """The synthetic first node: hands the initial gradients to the outputs' nodes."""

    _sequence_nr = float("inf")

    def __init__(self, edges, grads):
        self.next_functions = tuple(edges)
        self._grads = tuple(grads)
        self._input_meta = (None,) * len(self.next_functions)

    def apply(self):
        return self._grads


def _count_dependencies(root):
    """``{node: number of edges pointing at it}`` over the graph reachable from ``root``."""
    deps = {}
    stack = [root]
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is not None:
                n = deps.get(nxt)
                if n is None:
                    deps[nxt] = 1
                    stack.append(nxt)
                else:
                    deps[nxt] = n + 1
    return deps


def _nodes_leading_to(root, targets):
    """The nodes from which a path leads to one of ``targets`` (excluding a target reached by no other)."""
    leads = set()
    visited = {root}
    stack = [(root, iter(root.next_functions))]
    while stack:
        node, edges = stack[-1]
        for nxt, _ in edges:
            if nxt is not None and nxt not in visited:
                visited.add(nxt)
                stack.append((nxt, iter(nxt.next_functions)))
                break
        else:
            stack.pop()
            for nxt, _ in node.next_functions:
                if nxt is not None and (nxt in targets or nxt in leads):
                    leads.add(node)
                    break
    return leads


def _add_gradients(old, grad, shared):
    """The sum of two gradients arriving at the same input of a node.

    ``shared`` holds the ids of arrays that something besides the engine may
    hold (the caller's gradients, hook arguments, arrays sent along two
    edges, gradients from learners' Functions): those are never modified in
    place nor handed to ``.grad`` without a copy.  Any other array is the
    engine's own, so the sum is written into it: no new allocation.
    """
    if _owned(old, grad, shared):
        old += grad
        return old
    if _owned(grad, old, shared):
        grad += old
        return grad
    total = old + grad
    return np.asarray(total) if isinstance(total, _generic) else total    # 0-d + 0-d is a NumPy scalar


def _owned(a, other, shared):
    return (id(a) not in shared and a.base is None and writeable(a)
            and a.shape == other.shape and a.dtype == other.dtype)


def run_backward(tensors, grad_tensors, retain_graph=False, inputs=None, accumulate=True,
                 allow_unused=False, trace=None):
    """Backpropagate from ``tensors`` (outputs) with gradients ``grad_tensors`` (arrays).

    Args:
        tensors: output Tensors to differentiate.
        grad_tensors: one backend array per output: d(something)/d(output).
        retain_graph: keep saved tensors so the graph can be walked again.
        inputs: if given, the Tensors whose gradients are wanted: only the
            nodes leading to them run, and the gradients arriving at them are
            returned (not added to ``.grad``).
        accumulate: ignored when ``inputs`` is given; else True to add into
            ``.grad`` of every leaf.
        allow_unused: with ``inputs``: an input the outputs do not depend on
            gets None instead of an error.
        trace: optional callback ``trace(node, grads_in, grads_out)`` called
            after each node runs (the computation-graph widget uses it).

    Returns:
        With ``inputs``, the list of gradients (arrays or None) of
        ``inputs``; otherwise None.

    Raises:
        RuntimeError: an output that does not require grad, an unused input,
            a second backward through freed buffers, a tensor modified in
            place after it was saved, with PyTorch's messages.
    """
    edges, shared = [], set()
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        # the edge to t's history: usually its grad_fn; else (a view, a leaf) ops._dispatch.edge_of decides
        # (imported here because ops/ imports autograd/; an import costs ~1 us, so not on the usual path)
        if t._grad_fn is not None and t._base is None:
            edge = (t._grad_fn, t._output_nr)
        else:
            from ..ops._dispatch import edge_of
            edge = edge_of(t)
        if edge[0] is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        edges.append(edge)
        shared.add(id(g))            # the caller's array: never modify or keep it
    root = GraphRoot(edges, grad_tensors)

    captures, leads = {}, None
    if inputs is not None:
        from ..ops._dispatch import edge_of
        for k, t in enumerate(inputs):
            e = edge_of(t)
            if e[0] is None:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            captures.setdefault(e[0], []).append((e[1], k))
        leads = _nodes_leading_to(root, captures)
    captured = [None] * (len(inputs) if inputs is not None else 0)

    deps = _count_dependencies(root)
    slots = {}           # node -> its input buffer: one gradient (or None) per output of the node
    ready = []           # heap of (-sequence number, tie, node): the newest ready node runs first
    tie = 0
    anomaly = anomaly_mode.enabled
    node, out = root, root.apply()
    prev_mode = grad_mode.enabled
    grad_mode._set(False)            # backward formulas record nothing
    quiet = np.errstate(all="ignore")     # and, as in PyTorch, warn of no inf or nan
    quiet.__enter__()
    try:
        while True:
            # 1. send each gradient in `out` along its edge; a node that got all of its gradients is ready
            if len(out) == 2:        # one array sent along two edges (add, sub): not to be added into
                if out[0] is out[1] and out[0] is not None:
                    shared.add(id(out[0]))
            elif len(out) > 2:
                _mark_repeated(out, shared)
            for (nxt, nr), g, meta in zip(node.next_functions, out, node._input_meta):
                if nxt is None or leads is not None and nxt not in leads and nxt not in captures:
                    continue
                if g is not None:
                    if g.__class__ is not _ndarray and isinstance(g, _generic):
                        g = np.asarray(g)      # NumPy gives scalars for 0-d results; keep arrays
                    # (`dtype is not`: a cheap test that is almost always enough; validate compares exactly)
                    if meta is not None and (g.shape != meta[0] or g.dtype is not meta[1]
                                             or g.__class__ is not meta[2]):
                        g = validate(node, g, meta, nr)
                    buf = slots.get(nxt)
                    if buf is None:
                        if nxt._n_outputs == 1:
                            slots[nxt] = [g]
                        else:
                            buf = slots[nxt] = [None] * nxt._n_outputs
                            buf[nr] = g
                    else:
                        buf[nr] = g if buf[nr] is None else _add_gradients(buf[nr], g, shared)
                left = deps[nxt] - 1
                deps[nxt] = left
                if left == 0:
                    heappush(ready, (-nxt._sequence_nr, tie, nxt))
                    tie += 1
            # 2. run the next ready node
            if not ready:
                break
            node = heappop(ready)[2]
            grads = slots.pop(node, None) or [None] * node._n_outputs
            if node.__class__ is AccumulateGrad:
                if node.variable._hooks:
                    _run_pre_hooks(node, grads, shared)
            elif node._tensor_hooks or node._retained:
                _run_pre_hooks(node, grads, shared)
            if leads is not None:
                for nr, k in captures.get(node, ()):
                    captured[k] = grads[nr]
                    shared.add(id(grads[nr]))
                if node not in leads:
                    out = ()
                    continue
            if node.__class__ is AccumulateGrad:
                g = grads[0]
                if g is not None:
                    node.variable._accumulate_grad(g, shared=id(g) in shared)
                out = ()
            elif anomaly:
                out = _run_node_with_anomaly_checks(node, grads, shared)
            elif len(grads) == 1 and grads[0] is not None and node._plain:
                out = node.apply(grads[0])        # the usual node: no hooks, an Op's (see _run_node)
            else:
                out = _run_node(node, grads, shared)
            if trace is not None:
                trace(node, grads, out)
            if not retain_graph:
                node._release()
    finally:
        grad_mode._set(prev_mode)
        quiet.__exit__(None, None, None)

    if inputs is None:
        return None
    if not allow_unused:
        for k, g in enumerate(captured):
            if g is None:
                raise RuntimeError(f"The differentiated Tensor at index {k} appears to not have been used in the "
                                   "graph. Set allow_unused=True if this is the desired behavior.")
    return captured


def _mark_repeated(out, shared):
    """An array a node sends along two edges must not be added into in place (the other edge sees it too)."""
    seen = set()
    for g in out:
        if g is not None:
            if id(g) in seen:
                shared.add(id(g))
            seen.add(id(g))


def _run_node(node, grads, shared):
    """Run one node (with its pre- and post-hooks); return one gradient per input edge."""
    if node._pre_hooks:
        grads = _call_pre_hooks(node, grads, shared)
    if len(grads) == 1:
        if grads[0] is None:
            return (None,) * len(node.next_functions)
        out = node.apply(grads[0])
    else:
        if any(g is None for g in grads):
            if all(g is None for g in grads):
                return (None,) * len(node.next_functions)
            if not isinstance(node, BackwardCFunction):
                grads = _materialize(node, grads)
        out = node.apply(*grads)
    if node._user_function:
        shared.update(id(g) for g in out if g is not None)     # arrays of the learner's tensors
    if node._hooks:
        out = _call_post_hooks(node, out, grads, shared)
    return out


def _run_node_with_anomaly_checks(node, grads, shared):
    """``_run_node`` in anomaly mode: NaN results raise, and any error first names the node (see anomaly_mode)."""
    try:
        out = _run_node(node, grads, shared)
        if anomaly_mode.check_nan:
            from .._device import backend_of
            for i, g in enumerate(out):
                if g is not None and backend_of(np.asarray(g) if isinstance(g, _generic) else g).isnan(g).any():
                    raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
    except Exception:
        anomaly_mode.warn_error_in(node)
        raise
    return out


def validate(node, grad, meta, index):
    """Fit a gradient to its input: sum a broadcast gradient back to the input's shape, cast dtype and device.

    Raises:
        RuntimeError: a gradient whose shape cannot be summed to the input's
            (PyTorch's "returned an invalid gradient" message).
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
        from .._device import module_for, resolve, to_numpy
        grad = to_numpy(grad) if array_type is _ndarray else module_for(resolve("cuda")).asarray(grad)
    return grad


def _materialize(node, grads):
    """Zeros for the outputs of a multi-output node that received no gradient."""
    from .._device import backend_of
    ref = next(g for g in grads if g is not None)
    xp = backend_of(ref)
    return [xp.zeros(shape, dtype) if g is None else g
            for g, (shape, dtype) in zip(grads, node._output_meta)]


def _run_pre_hooks(node, grads, shared):
    """Hooks of the tensors this node produced (or of the leaf), then retain_grad(), as in PyTorch."""
    from .._tensor import wrap
    if node.__class__ is AccumulateGrad:
        hooks = node.variable._hooks
        table = {0: hooks} if hooks else None
    else:
        table = node._tensor_hooks
    if table:
        for nr, fns in table.items():
            for fn in tuple(fns):
                g = grads[nr]
                if g is None:
                    continue
                shared.add(id(g))
                r = fn(wrap(g))
                if r is not None:
                    grads[nr] = _checked_hook_result(fn, g, r)
                    shared.add(id(grads[nr]))
    retained = node._retained
    if retained:
        for nr, ref in retained.items():
            t = ref()
            if t is not None and grads[nr] is not None:
                t._accumulate_grad(grads[nr], shared=True, in_place=False)


def _checked_hook_result(hook, grad, result):
    """The array of a tensor hook's result, checked as PyTorch does (same type, size, dtype)."""
    from .._tensor import Tensor, wrap
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    name = getattr(hook, "__name__", type(hook).__name__)
    r = result._data
    if r.dtype != grad.dtype:
        raise RuntimeError(f"hook '{name}' has changed the type of value (was {wrap(grad).type()} got "
                           f"{result.type()})")
    if r.shape != grad.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    return r


def _call_pre_hooks(node, grads, shared):
    from .._tensor import Tensor, wrap
    for fn in tuple(node._pre_hooks):
        for g in grads:
            shared.add(id(g))
        r = fn(tuple(None if g is None else wrap(g) for g in grads))
        if r is not None:
            grads = [g._data if isinstance(g, Tensor) else None for g in r]
    return grads


def _call_post_hooks(node, out, grads, shared):
    from .._tensor import Tensor, wrap
    for fn in tuple(node._hooks):
        for g in out:
            shared.add(id(g))
        r = fn(tuple(None if g is None else wrap(g) for g in out), tuple(None if g is None else wrap(g) for g in grads))
        if r is not None:
            out = tuple(g._data if isinstance(g, Tensor) else None for g in r)
            shared.update(id(g) for g in out)
    return out
