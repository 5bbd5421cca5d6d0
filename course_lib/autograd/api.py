"""``autograd.backward`` and ``autograd.grad``: the two entry points to the backward pass.

Both check their arguments as PyTorch does, turn the output gradients into
arrays (ones for a one-element output when none is given) and call the
engine (``engine.run_backward``).

Higher-order gradients (``create_graph=True``) need a backward pass that is
itself recorded; course_lib's backward formulas work on raw arrays, so it
raises ``NotImplementedError`` for them.
"""

import numpy as np

from ..core.backend import backend_of
from ..core.engine import run_backward
from ..core.tensor import Tensor, wrap
from ..ops.creation import zeros_like

__all__ = ["backward", "grad"]


def _as_tuple(x):
    """PyTorch's ``_tensor_or_tensors_to_tuple``: a tensor becomes a 1-tuple, anything else goes through tuple()."""
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _initial_grads(outputs, grad_outputs):
    """One gradient array (or None, for an output that does not require grad) per output.

    Raises:
        RuntimeError: no gradient for a non-scalar output, a gradient of
            the wrong shape, or fewer gradients than outputs (PyTorch's messages).
        TypeError: a gradient that is neither a Tensor nor None.
    """
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    if len(grad_outputs) < len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grad_outputs)} gradients")
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if g is None:
            if not out.requires_grad:
                grads.append(None)
                continue
            if out._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if out._data.dtype.kind != "f":
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {out.dtype}")
            a = out._data
            if a.ndim == 0 and a.__class__ is np.ndarray:      # loss.backward(): np.array(1) is 5x cheaper
                grads.append(np.array(1, dtype=a.dtype))       # than np.ones(())
            else:
                grads.append(backend_of(a).ones(a.shape, dtype=a.dtype))
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
        if g._data.shape != out._data.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                               f"has a shape of {out.shape}.")
        a = g._data
        if a.__class__ is not out._data.__class__:
            raise RuntimeError(f"invalid gradient at index {i} - expected device {out.device} but got {g.device}")
        if a.dtype != out._data.dtype:
            a = a.astype(out._data.dtype)
        grads.append(a)
    return grads


def _check_create_graph(create_graph):
    if create_graph:
        raise NotImplementedError(
            "course_lib does not record a graph of the backward pass, so create_graph=True (higher-order "
            "gradients) is not supported; PyTorch supports it.")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate into ``.grad`` of the leaves the gradient of ``tensors``. Mirrors ``torch.autograd.backward``.

    Args:
        tensors: a tensor or a sequence of tensors to differentiate.
        grad_tensors: the vector(s) of the vector-Jacobian product, one per
            tensor (same shape); may be omitted (None) for one-element outputs.
        retain_graph: keep the graph's saved tensors (default: False), so
            that it can be walked again.
        inputs: if given, only these tensors get ``.grad`` (non-leaves too:
            they then retain their gradient, as after ``retain_grad()``).

    Raises:
        RuntimeError: "grad can be implicitly created only for scalar
            outputs"; "element 0 of tensors does not require grad and does
            not have a grad_fn"; a second backward through a freed graph;
            a saved tensor modified in place — all PyTorch's messages.
        NotImplementedError: ``create_graph=True``.
    """
    _check_create_graph(create_graph)
    outputs = _as_tuple(tensors)
    grads = _initial_grads(outputs, None if grad_tensors is None else _as_tuple(grad_tensors))
    if inputs is None:
        run_backward(outputs, grads, retain_graph=bool(retain_graph))
        return
    wanted = _as_tuple(inputs)
    if not wanted:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    for t in wanted:
        t.retain_grad()
    found = run_backward(outputs, grads, retain_graph=bool(retain_graph), inputs=wanted, allow_unused=True)
    for t, g in zip(wanted, found):
        if g is not None and t.is_leaf:    # non-leaves got theirs through retain_grad
            t._accumulate_grad(g, shared=True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of ``outputs`` with respect to ``inputs``, returned (``.grad`` is left alone).

    Mirrors ``torch.autograd.grad``: returns a tuple with one tensor per
    input: None (``allow_unused=True``) or zeros (``materialize_grads=True``)
    for an input the outputs do not depend on.  Only the part of the graph
    that leads to ``inputs`` runs.

    Raises:
        RuntimeError: an input the outputs do not depend on (unless
            ``allow_unused``), outputs or inputs that do not require grad,
            empty ``inputs``, and the errors of ``backward``.
        NotImplementedError: ``create_graph=True``.
    """
    _check_create_graph(create_graph)
    outs = _as_tuple(outputs)
    ins = _as_tuple(inputs)
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = _initial_grads(outs, None if grad_outputs is None else _as_tuple(grad_outputs))
    found = run_backward(outs, grads, retain_graph=bool(retain_graph), inputs=ins,
                         allow_unused=bool(allow_unused) or materialize_grads)
    result = []
    for t, g in zip(ins, found):
        if g is None:
            result.append(zeros_like(t) if materialize_grads else None)
        else:
            result.append(wrap(g.copy()))
    return tuple(result)


def _backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Compute the gradient of this tensor with respect to the leaves of its graph.

    The gradients are *added* into the leaves' ``.grad``.  A one-element
    tensor needs no ``gradient``; for any other shape, ``gradient`` (same
    shape) weights the outputs: the vector-Jacobian product.  Without
    ``retain_graph=True`` the graph's saved tensors are freed, so a
    second ``backward`` through them raises.  Mirrors ``Tensor.backward``.

    Raises:
        RuntimeError: "grad can be implicitly created only for scalar
            outputs"; "element 0 of tensors does not require grad and
            does not have a grad_fn"; a second backward; shape mismatch
            of ``gradient``; a saved tensor modified in place — all with
            PyTorch's messages.
        NotImplementedError: ``create_graph=True`` (see the module's docstring).
    """
    backward(self, gradient, retain_graph, create_graph, inputs=inputs)


_backward.__name__, _backward.__qualname__ = "backward", "Tensor.backward"
Tensor.backward = _backward
