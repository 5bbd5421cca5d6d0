"""``autograd.backward`` and ``autograd.grad``: the two entry points to the backward pass."""

from .engine import run_backward

__all__ = ["backward", "grad"]


def _as_tuple(x):
    if x is None:
        return None
    return tuple(x) if isinstance(x, (list, tuple)) else (x,)


def _initial_grads(outputs, grad_outputs):
    """One gradient array per output: ones for scalars, the given tensors otherwise."""
    from .._device import backend_of
    from .._tensor import Tensor
    grads = []
    for i, out in enumerate(outputs):
        g = grad_outputs[i] if grad_outputs is not None and i < len(grad_outputs) else None
        if g is None:
            if out._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if out._data.dtype.kind != "f":
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got "
                                   f"{out.dtype}")
            grads.append(backend_of(out._data).ones(out._data.shape, dtype=out._data.dtype))
            continue
        if not isinstance(g, Tensor):
            from .._creation import tensor
            g = tensor(g, dtype=out.dtype)
        if g._data.shape != out._data.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                               f"has a shape of {out.shape}.")
        if g._data.__class__ is not out._data.__class__:
            raise RuntimeError(f"invalid gradient at index {i} - expected device {out.device} but got {g.device}")
        a = g._data
        if a.dtype != out._data.dtype:
            a = a.astype(out._data.dtype)
        grads.append(a)
    return grads


def _check_create_graph(create_graph):
    if create_graph:
        raise NotImplementedError(
            "course_lib does not record a graph of the backward pass, so create_graph=True (higher-order "
            "gradients) is not supported; PyTorch supports it.")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    """Accumulate into ``.grad`` of the leaves the gradient of ``tensors``. Mirrors ``torch.autograd.backward``.

    Args:
        tensors: a tensor or a sequence of tensors to differentiate.
        grad_tensors: the vector(s) of the vector-Jacobian product; may be
            omitted for one-element outputs.
        retain_graph: keep the graph's saved tensors (default: False).
        inputs: if given, only these leaves get ``.grad``.

    Raises:
        RuntimeError: see ``Tensor.backward``.
        NotImplementedError: ``create_graph=True``.
    """
    _check_create_graph(create_graph)
    from .._tensor import Tensor
    outputs = _as_tuple(tensors)
    grad_outputs = _as_tuple(grad_tensors if grad_tensors is not None else grad_variables)
    if isinstance(grad_tensors, Tensor):
        grad_outputs = (grad_tensors,)
    grads = _initial_grads(outputs, grad_outputs)
    wanted = _as_tuple(inputs)
    if wanted is not None:
        if len(wanted) == 0:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        found = run_backward(outputs, grads, retain_graph=bool(retain_graph), inputs=wanted, accumulate=False,
                             allow_unused=True)
        for t, g in zip(wanted, found):
            if g is not None:
                t._accumulate_grad(g, shared=True)
        return
    run_backward(outputs, grads, retain_graph=bool(retain_graph))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of ``outputs`` with respect to ``inputs``, returned (not added to ``.grad``).

    Mirrors ``torch.autograd.grad``: returns a tuple with one tensor (or
    None, with ``allow_unused=True``) per input.

    Raises:
        RuntimeError: an input the outputs do not depend on (unless
            ``allow_unused``), outputs that do not require grad.
        NotImplementedError: ``create_graph=True``.
    """
    _check_create_graph(create_graph)
    from .._tensor import wrap
    outs = _as_tuple(outputs)
    ins = _as_tuple(inputs)
    grads = _initial_grads(outs, _as_tuple(grad_outputs))
    found = run_backward(outs, grads, retain_graph=bool(retain_graph), inputs=ins, accumulate=False,
                         allow_unused=bool(allow_unused) or materialize_grads)
    result = []
    for t, g in zip(ins, found):
        if g is None and materialize_grads:
            from .._creation import zeros_like
            result.append(zeros_like(t))
        else:
            result.append(None if g is None else wrap(g.copy() if g.base is not None else g))
    return tuple(result)
