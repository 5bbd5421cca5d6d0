"""``gradcheck``: compare autograd's gradients with finite differences.

For each input element x_i, the numerical derivative is
``(f(x + eps e_i) - f(x - eps e_i)) / (2 eps)`` (central differences, in
float64); autograd gives the analytical one via backward.  They must agree
within ``atol + rtol * |numerical|``.  This is how every op of course_lib is
tested, and learners can use it on their own ``autograd.Function``.
"""

import numpy as np

from . import grad_mode
from .api import grad as autograd_grad

__all__ = ["gradcheck", "GradcheckError", "numerical_jacobian", "analytical_jacobian"]


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when the gradients disagree (PyTorch's ``GradcheckError``)."""


def _inputs_tuple(inputs):
    return tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)


def _outputs_tuple(out):
    return tuple(out) if isinstance(out, (list, tuple)) else (out,)


def numerical_jacobian(func, inputs, eps=1e-6):
    """Jacobians d(output)/d(input) by central differences: a list (per input) of lists (per output) of
    arrays of shape ``(input.numel(), output.numel())``."""
    from .._device import to_numpy
    from .._tensor import Tensor
    inputs = _inputs_tuple(inputs)
    with grad_mode.no_grad():
        outs = [to_numpy(o._data) for o in _outputs_tuple(func(*inputs))]
    jac = []
    for x in inputs:
        if not (isinstance(x, Tensor) and x._requires_grad):
            jac.append(None)
            continue
        per_output = [np.zeros((x._data.size, o.size)) for o in outs]
        flat = x._data.reshape(-1) if x._data.flags.c_contiguous else None
        for i in range(x._data.size):
            index = np.unravel_index(i, x._data.shape)
            orig = x._data[index].item()
            results = []
            for delta in (eps, -eps):
                x._data[index] = orig + delta
                with grad_mode.no_grad():
                    results.append([to_numpy(o._data).astype(np.float64) for o in _outputs_tuple(func(*inputs))])
            x._data[index] = orig
            for k in range(len(outs)):
                per_output[k][i] = ((results[0][k] - results[1][k]) / (2 * eps)).reshape(-1)
        del flat
        jac.append(per_output)
    return jac


def analytical_jacobian(func, inputs):
    """Jacobians from autograd, one backward per output element; same layout as ``numerical_jacobian``."""
    from .._creation import zeros_like
    from .._device import to_numpy
    from .._tensor import Tensor
    inputs = _inputs_tuple(inputs)
    diff_inputs = [x for x in inputs if isinstance(x, Tensor) and x._requires_grad]
    outs = _outputs_tuple(func(*inputs))
    jac = {id(x): [np.zeros((x._data.size, o._data.size)) for o in outs] for x in diff_inputs}
    for k, out in enumerate(outs):
        if not out.requires_grad:
            continue
        for j in range(out._data.size):
            seed = zeros_like(out)
            seed._data.reshape(-1)[j] = 1
            grads = autograd_grad(out, diff_inputs, seed, retain_graph=True, allow_unused=True)
            for x, g in zip(diff_inputs, grads):
                if g is not None:
                    jac[id(x)][k][:, j] = to_numpy(g._data).reshape(-1)
    return [jac.get(id(x)) if isinstance(x, Tensor) and x._requires_grad else None for x in inputs]


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, **kwargs):
    """Check the gradients of ``func`` at ``inputs`` against finite differences. Mirrors
    ``torch.autograd.gradcheck``.

    Inputs that require grad should be float64 (float32 is too imprecise for
    finite differences; a warning is given).

    Returns:
        True when all Jacobian entries agree.

    Raises:
        GradcheckError: (when ``raise_exception``) with the first mismatch:
            which output and input, and both Jacobians.
    """
    import warnings

    from .._tensor import Tensor
    inputs = _inputs_tuple(inputs)
    for x in inputs:
        if isinstance(x, Tensor) and x._requires_grad and x._data.dtype != np.float64:
            warnings.warn("Input #0 requires gradient and is not a double precision floating point. This check "
                          "will likely fail if all the inputs are not of double precision floating point. ",
                          UserWarning, stacklevel=2)
    numerical = numerical_jacobian(func, inputs, eps)
    analytical = analytical_jacobian(func, inputs)
    for i, (num, ana) in enumerate(zip(numerical, analytical)):
        if num is None:
            continue
        for k, (n, a) in enumerate(zip(num, ana)):
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(f"Jacobian mismatch for output {k} with respect to input {i},\n"
                                     f"numerical:{n}\nanalytical:{a}\n")
    return True
