"""The operations the chapters use most, each an Op with forward and backward side by side (README.md, 8).

``+ - * /``, ``relu``, ``sum``, the matrix product, and the views ``view``, ``transpose``, ``unsqueeze``
and ``expand``.  A backward formula may return a gradient in the
broadcast shape: the engine sums it back.  The public functions (``course_lib/ops``) check their
arguments as PyTorch does, then run these Ops through ``dispatch``.

In PyTorch: ``tools/autograd/derivatives.yaml`` and ``aten/src/ATen/native``.
"""

import numpy as np

from . import hooks
from .backend import backend_of
from .dispatch import view
from .graph import Elementwise, Op
from .layout import element_strides, expand_strides, strided, view_strides

__all__ = ["Add", "Sub", "Mul", "Div", "Relu", "Sum", "Mm", "View", "Transpose", "Unsqueeze",
           "Expand", "VIEW_ERROR", "view_shape"]


class Add(Elementwise):
    node_name = "AddBackward0"
    ufunc = np.add

    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        return a + b if alpha == 1 else (a + b * alpha).astype(a.dtype, copy=False)

    def backward(ctx, grad):
        return grad, (grad if ctx.alpha == 1 else grad * ctx.alpha)


class Sub(Elementwise):
    node_name = "SubBackward0"
    ufunc = np.subtract

    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        return a - b if alpha == 1 else a - b * alpha

    def backward(ctx, grad):
        if not ctx.needs_input_grad[1]:          # `pred - target`: nobody wants the target's gradient
            return grad, None
        return grad, (-grad if ctx.alpha == 1 else grad * -ctx.alpha)


class Mul(Elementwise):
    node_name = "MulBackward0"
    saved_names = ("self", "other")
    ufunc = np.multiply

    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad or (False, False)
        ctx.save_for_backward(a if need_b else None, b if need_a else None)   # what each gradient needs
        return a * b

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if b is not None else None, grad * a if a is not None else None)


class Div(Elementwise):
    node_name = "DivBackward0"
    saved_names = ("self", "other")
    int_to_float = True
    ufunc = np.true_divide

    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad or (False, False)
        ctx.save_for_backward(a if need_b else None, b if need_a or need_b else None)
        return a / b

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        ga = grad / b if ctx.needs_input_grad[0] else None
        gb = -grad * (a / b / b) if a is not None else None            # d(a/b)/db = -a/b**2
        return ga, gb


class Relu(Elementwise):
    node_name = "ReluBackward0"
    saved_names = ("result",)

    def forward(ctx, a):
        result = backend_of(a).where(a < 0, 0, a).astype(a.dtype, copy=False)    # keeps -0.0 and nan
        ctx.save_for_backward(result)
        return result

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return (backend_of(grad).where(result <= 0, 0, grad).astype(grad.dtype, copy=False),)


def _expand(grad, shape):
    """``grad`` broadcast back to ``shape`` as a read-only view, without copying."""
    return hooks.broadcast_to(np.asarray(grad) if isinstance(grad, np.generic) else grad, shape)


def _contiguous(out):
    """A reduction's result as PyTorch allocates it: an array, contiguous."""
    out = np.asarray(out) if isinstance(out, np.generic) else out
    return out if out.flags.c_contiguous else backend_of(out).ascontiguousarray(out)


class Sum(Op):
    node_name = "SumBackward0"

    def forward(ctx, a, dtype=None):
        ctx.shape = a.shape
        return _contiguous(hooks.total(a))

    def backward(ctx, grad):
        return (_expand(grad, ctx.shape),)


class Mm(Op):
    """The matrix product of two matrices, ``(n, k) @ (k, m) -> (n, m)``."""

    node_name = "MmBackward0"
    saved_names = ("self", "mat2")

    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad or (False, False)
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return a @ b

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad @ b.T if b is not None else None, a.T @ grad if a is not None else None)


# -- views: forward makes an array over the same memory, backward maps the gradient back -------------

class View(Op):
    node_name = "ViewBackward0"

    def forward(ctx, a, shape, strides):
        ctx.shape = a.shape
        return strided(a.reshape(shape) if a.flags.c_contiguous else a, shape, strides)

    def backward(ctx, grad):
        return (grad.reshape(ctx.shape),)


class Transpose(Op):
    node_name = "TransposeBackward0"

    def forward(ctx, a, d0, d1):
        ctx.dims = (d0, d1)
        return a.swapaxes(d0, d1)

    def backward(ctx, grad):
        return (grad.swapaxes(*ctx.dims),)


class Unsqueeze(Op):
    node_name = "UnsqueezeBackward0"

    def forward(ctx, a, axis):
        ctx.axis = axis
        shape, strides = list(a.shape), list(element_strides(a))
        strides.insert(axis, 1 if axis >= a.ndim else shape[axis] * strides[axis])   # PyTorch's new stride
        shape.insert(axis, 1)
        return strided(backend_of(a).expand_dims(a, axis), shape, strides)

    def backward(ctx, grad):
        return (grad.squeeze(axis=ctx.axis),)


class Expand(Op):
    node_name = "ExpandBackward0"

    def forward(ctx, a, shape):
        return strided(a, shape, expand_strides(a.shape, element_strides(a), shape))

    def backward(ctx, grad):
        return (grad,)        # the engine sums it back to the input's shape


# -- the rules of the views (the package's view functions parse their arguments, then call these) --------

VIEW_ERROR = ("view size is not compatible with input tensor's size and stride (at least one dimension spans "
              "across two contiguous subspaces). Use .reshape(...) instead.")


def view_shape(a, shape):
    """``a.view(shape)``: the same memory seen in ``shape`` (of as many elements), if the strides allow.

    Raises:
        RuntimeError: strides that allow no view (PyTorch's message).
    """
    x = a._data
    strides = view_strides(x.shape, element_strides(x), shape)
    if strides is None:
        raise RuntimeError(VIEW_ERROR)
    return view(View, a, {"shape": shape, "strides": strides})

