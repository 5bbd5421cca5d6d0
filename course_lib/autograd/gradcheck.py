"""``gradcheck``: compare autograd's gradients with finite differences.

For each input element x_i, the numerical derivative of every output is
``(f(x + eps e_i) - f(x - eps e_i)) / (2 eps)`` (central differences);
autograd gives the analytical one, one backward pass per output element.
Both are laid out as Jacobians of shape ``(input.numel(), output.numel())``
and must agree within ``atol + rtol * |numerical|``.  This is how every op
of course_lib is tested, and learners can check their own
``autograd.Function`` with it.  Use float64 inputs: float32 is too
imprecise for finite differences.
"""

import warnings

import numpy as np

from ..core import grad_mode
from ..core.backend import backend_of, to_numpy
from ..core.tensor import Tensor, wrap
from ..ops.creation import tensor
from .api import grad as autograd_grad

__all__ = ["gradcheck", "GradcheckError", "numerical_jacobian", "analytical_jacobian"]


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when the gradients disagree (PyTorch's ``GradcheckError``)."""


def _as_tuple(x):
    return tuple(x) if isinstance(x, (list, tuple)) else (x,)


def _output_tensors(func, inputs):
    return tuple(o for o in _as_tuple(func(*inputs)) if isinstance(o, Tensor))


def _needs_grad(x):
    return isinstance(x, Tensor) and x.requires_grad


def numerical_jacobian(func, inputs, eps=1e-6):
    """Jacobians d(output)/d(input) by central differences.

    Returns a list with, per input, None (an input that does not require
    grad) or a list with, per output, a float64 array of shape
    ``(input.numel(), output.numel())``.
    """
    inputs = _as_tuple(inputs)

    def evaluate():
        with grad_mode.no_grad():
            return [to_numpy(o._data).astype(np.float64).reshape(-1) for o in _output_tensors(func, inputs)]

    sizes = [o.size for o in evaluate()]
    jacobians = []
    for x in inputs:
        if not _needs_grad(x):
            jacobians.append(None)
            continue
        a = x._data
        per_output = [np.zeros((a.size, n)) for n in sizes]
        for i in range(a.size):
            index = np.unravel_index(i, a.shape)
            original = a[index].item()
            a[index] = original + eps
            plus = evaluate()
            a[index] = original - eps
            minus = evaluate()
            a[index] = original
            for k, (p, m) in enumerate(zip(plus, minus)):
                per_output[k][i] = (p - m) / (2 * eps)
        jacobians.append(per_output)
    return jacobians


def analytical_jacobian(func, inputs):
    """Jacobians from autograd (one backward pass per output element); same layout as ``numerical_jacobian``.

    An output that does not require grad has an all-zero Jacobian.
    """
    inputs = _as_tuple(inputs)
    wanted = [x for x in inputs if _needs_grad(x)]
    outputs = _output_tensors(func, inputs)
    columns = {id(x): [np.zeros((x.numel(), o.numel())) for o in outputs] for x in wanted}
    for k, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        xp = backend_of(out._data)
        for j in range(out.numel()):
            seed = xp.zeros(out.numel(), dtype=out._data.dtype)
            seed[j] = 1
            grads = autograd_grad(out, wanted, wrap(seed.reshape(out._data.shape)), retain_graph=True,
                                  allow_unused=True)
            for x, g in zip(wanted, grads):
                if g is not None:
                    columns[id(x)][k][:, j] = to_numpy(g._data).astype(np.float64).reshape(-1)
    return [columns[id(x)] if _needs_grad(x) else None for x in inputs]


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, **kwargs):
    """Check the gradients of ``func`` at ``inputs`` against finite differences. Mirrors
    ``torch.autograd.gradcheck``.

    Args:
        func: a function of ``inputs`` returning a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of arguments; the Tensors that require
            grad are checked (they should be float64).
        eps: the finite-difference step.
        atol, rtol: the tolerance, ``|analytical - numerical| <= atol + rtol * |numerical|``.
        raise_exception: raise on a mismatch (else return False).
        **kwargs: PyTorch's other options (``fast_mode``, ``check_undefined_grad``,
            ...) are accepted and ignored.

    Returns:
        True when every Jacobian entry agrees.

    Raises:
        ValueError: no input requires grad (PyTorch's message).
        GradcheckError: with ``raise_exception``, the first mismatch, with
            both Jacobians (PyTorch's message).
    """
    inputs = _as_tuple(inputs)
    checked = [i for i, x in enumerate(inputs) if _needs_grad(x)]
    if not checked:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")
    for i in checked:
        if inputs[i]._data.dtype != np.float64:
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating point "
                          "or complex. ", UserWarning, stacklevel=2)
    outputs = _output_tensors(func, inputs)
    numerical = numerical_jacobian(func, inputs, eps)
    analytical = analytical_jacobian(func, inputs)
    for k, out in enumerate(outputs):
        for i in checked:
            n, a = numerical[i][k], analytical[i][k]
            if not out.requires_grad:
                if not np.allclose(n, 0, rtol=rtol, atol=atol):
                    return _fail(raise_exception, "Numerical gradient for function expected to be zero")
            elif not np.allclose(a, n, rtol=rtol, atol=atol):
                dt = inputs[i].dtype
                numerical_t, analytical_t = tensor(n, dtype=dt), tensor(a, dtype=dt)
                return _fail(raise_exception, f"Jacobian mismatch for output {k} with respect to input {i},\n"
                                              f"numerical:{numerical_t!r}\nanalytical:{analytical_t!r}\n")
    return True


def _fail(raise_exception, message):
    if raise_exception:
        raise GradcheckError(message)
    return False
