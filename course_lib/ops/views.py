"""Shape operations: views that share memory, and the copies that do not.

A *view* is a new tensor over the same memory with its own shape, strides
and offset: ``view``, ``transpose``/``t``/``permute``, ``squeeze``,
``unsqueeze``, ``expand``, slicing, ``detach``.  Writing through a view
changes the original.  ``reshape`` is a view when the strides allow it and a
copy otherwise; ``clone`` and ``contiguous`` (of a non-contiguous tensor)
always copy.

The view operations the chapters use most (``View``, ``Transpose``, ``Unsqueeze``, ``Expand``,
``Select``, ``Slice``) and the view rule itself are the core's (``course_lib/core/ops.py`` and
``core/layout.py``); this module holds the public functions (PyTorch's arguments and messages)
and the other shape operations.
"""

import math
from collections.abc import Sequence

import numpy as np

from ..core.backend import backend_of
from ..core.graph import NO_CONTEXT, AsStrided, Op, short_name
from ..core.layout import broadcast_shape, element_strides, strided, view_strides
from ..core.ops import Expand, Transpose, Unsqueeze, View, view_shape
from ..core.tensor import Tensor, wrap_dim
from ..torch_compat import dtypes as _dtype
from ..torch_compat.arguments import (
    Signature,
    _check,
    _is_index,
    int_list,
    invalid_arguments,
    parse,
    tensor_expected,
    wrong_arguments,
)
from ..torch_compat.layouts import empty_preserving
from ..torch_compat.names import type_name
from ..torch_compat.size import Size
from . import _dispatch as D

__all__ = ["view", "view_as", "reshape", "reshape_as", "transpose", "swapaxes", "swapdims", "t", "permute",
           "movedim", "moveaxis", "squeeze", "unsqueeze", "flatten", "unflatten", "expand", "expand_as", "broadcast_to",
           "broadcast_tensors", "broadcast_shapes", "contiguous", "clone", "narrow", "select", "unbind",
           "cat", "concat", "concatenate", "stack", "hstack", "vstack", "split", "chunk", "flip", "as_strided",
           "repeat", "tile", "t_", "transpose_", "squeeze_", "unsqueeze_", "tensor_split",
           "fliplr", "flipud", "roll", "diagonal", "diag"]


# ---------------------------------------------------------------------------
# Strides
# ---------------------------------------------------------------------------

def infer_size(shape, numel):
    """``shape`` with its one ``-1`` filled in so that it holds ``numel`` elements.

    Raises:
        RuntimeError: two ``-1``, a negative size, or a shape that cannot hold ``numel`` elements.
    """
    infer = None
    for i, s in enumerate(shape):
        if s == -1 and infer is not None:
            raise RuntimeError("only one dimension can be inferred")
        if s == -1:
            infer = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape [{', '.join(map(str, shape))}]")
    known = math.prod(s for s in shape if s != -1)
    if infer is None and known == numel:
        return tuple(shape)
    if infer is not None and known == 0 and numel == 0:
        raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                           "unspecified dimension size -1 can be any value and is ambiguous")
    if infer is not None and known and numel % known == 0:
        return tuple(numel // known if s == -1 else s for s in shape)
    raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")



def _int_list(args, name, pname, signatures, kwargs=None):
    """Sizes or dims given as ``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` or ``f(pname=(2, 3))``, with PyTorch's
    argument errors."""
    if kwargs:
        error = invalid_arguments(name, signatures, args, kwargs)
        if error is not None:
            raise error
        if pname in kwargs:
            args = (kwargs[pname],)
    if not args or len(args) > 1 and not _is_index(args[0]) or \
            len(args) == 1 and not isinstance(args[0], (tuple, list)) and not _is_index(args[0]):
        raise invalid_arguments(name, signatures, args)
    return int_list(name, pname, args)


def _function_form(method, text):
    """The ``torch.name(input, sizes)`` form of a method that also takes its sizes one by one.

    The function takes them as one tuple, positionally or by keyword, as in
    PyTorch: ``torch.reshape(x, (2, 3))`` works, ``torch.reshape(x, 2, 3)``
    is a TypeError.  ``text`` is its PyTorch signature.
    """
    signatures = (Signature(text),)
    names = [p[1] for p in signatures[0].params]

    def function(*args, **kwargs):
        error = invalid_arguments(method.__name__, signatures, args, kwargs)
        if error is not None:
            raise error
        given = dict(zip(names, args), **kwargs)
        return method(given[names[0]], given[names[1]])
    function.__name__ = function.__qualname__ = method.__name__
    function.__doc__ = method.__doc__
    return function


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _int_arg(value, name, signatures, args):
    """An ``int`` argument (a dim), or PyTorch's TypeError naming the call's signatures."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    converted = parse(name, signatures, args)[0]          # dim=torch.tensor(1) is read as 1
    return next(c for a, c in zip(args, converted) if a is value)


_NOT_GIVEN = object()          # axis= (NumPy's name for dim=), or an argument, not given

_VIEW = (Signature("(torch.dtype dtype)"), Signature("(tuple of ints size)"))
_RESHAPE = (Signature("(tuple of ints shape)"),)
_PERMUTE = (Signature("(tuple of ints dims)"),)
_EXPAND = (Signature("(tuple of ints size, *, bool implicit = False)"),)
_BROADCAST_TO = (Signature("(tuple of ints size)"),)
_SELECT = (Signature("(int dim, int index)"),)
_CHUNK = (Signature("(int chunks, int dim = 0)"),)
_NARROW = (Signature("(int dim, Tensor start, int length)"), Signature("(int dim, int start, int length)"))
_TRANSPOSE = (Signature("(int dim0, int dim1)"),)
_UNSQUEEZE = (Signature("(int dim)"),)
_SQUEEZE = (Signature("()"), Signature("(int dim)"), Signature("(tuple of ints dim)"))
_FLATTEN = (Signature("(int start_dim = 0, int end_dim = -1)"),)
_UNBIND = (Signature("(int dim = 0)"),)
_SPLIT = (Signature("(Tensor input, int split_size, int dim = 0)"),
          Signature("(Tensor input, tuple of ints split_size, int dim = 0)"))
_FLIP = (Signature("(tuple of ints dims)"),)
_SQUEEZE_FUNCTION = (Signature("(Tensor input)"), Signature("(Tensor input, int dim)"),
                     Signature("(Tensor input, tuple of ints dim)"))
_FLIP_FUNCTION = (Signature("(Tensor input, tuple of ints dims)"),)
_SWAPAXES = (Signature("(int axis0, int axis1)"),)
_MOVEDIM = (Signature("(int source, int destination)"), Signature("(tuple of ints source, tuple of ints destination)"))


# ---------------------------------------------------------------------------
# View operations (forward makes the view array, backward maps the gradient back)
# ---------------------------------------------------------------------------

class Select(Op):
    node_name = "SelectBackward0"

    def forward(ctx, a, axis, index):
        ctx.shape, ctx.axis, ctx.index = a.shape, axis, index
        return a[(slice(None),) * axis + (index, Ellipsis)]       # "..." keeps a 0-d result an array

    def backward(ctx, grad):
        out = backend_of(grad).zeros(ctx.shape, dtype=grad.dtype)
        out[(slice(None),) * ctx.axis + (ctx.index,)] = grad
        return (out,)


class Slice(Op):
    node_name = "SliceBackward0"

    def forward(ctx, a, axis, start, stop, step):
        key = (slice(None),) * axis + (slice(start, stop, step),)
        ctx.shape, ctx.key = a.shape, key
        if stop > start:
            return a[key]
        strides = list(element_strides(a))       # empty: NumPy would start it at 0, PyTorch at `start`
        offset, strides[axis] = start * strides[axis], strides[axis] * step
        return strided(a, a.shape[:axis] + (0,) + a.shape[axis + 1:], strides, offset)

    def backward(ctx, grad):
        out = backend_of(grad).zeros(ctx.shape, dtype=grad.dtype)
        out[ctx.key] = grad
        return (out,)


class UnsafeView(View):
    """The reshape of a fresh copy (``reshape`` of a non-viewable tensor, batched ``matmul``)."""

    node_name = "UnsafeViewBackward0"

    def forward(ctx, a, shape):
        ctx.shape = a.shape
        if a.size == 0:                  # a new empty tensor: PyTorch's contiguous strides, not a view's zeros
            return backend_of(a).empty(shape, a.dtype)
        return a.reshape(shape)


class Alias(Op):
    node_name = "AliasBackward0"

    def forward(ctx, a):
        return a.view()

    def backward(ctx, grad):
        return (grad,)


class ScalarTranspose(Transpose):
    """``transpose`` of a 0-d tensor (its dims 0 and -1 both name the one position there is): the tensor itself,
    recorded as ``TransposeBackward0``, as in PyTorch."""

    def forward(ctx, a, d0=0, d1=0):
        return a.view()

    def backward(ctx, grad):
        return (grad,)


def _swapped_back(ctx, grad):
    """The gradient of a transpose that may be of a 0-d tensor (then the gradient itself)."""
    return (grad.swapaxes(*ctx.dims) if grad.ndim else grad,)


class T(Transpose):
    node_name = "TBackward0"

    def forward(ctx, a):
        ctx.dims = (0, 1) if a.ndim == 2 else (0, 0)
        return a.T if a.ndim == 2 else a.view()

    backward = _swapped_back


class Permute(Op):
    node_name = "PermuteBackward0"

    def forward(ctx, a, dims):
        ctx.inverse = tuple(np.argsort(dims))
        return a.transpose(dims)

    def backward(ctx, grad):
        return (grad.transpose(ctx.inverse),)


class Squeeze(Op):
    node_name = "SqueezeBackward0"

    def forward(ctx, a, axes=None):
        ctx.shape = a.shape
        if axes is None:
            axes = tuple(i for i, s in enumerate(a.shape) if s == 1)
        return a.squeeze(axis=axes) if axes else a.view()

    def backward(ctx, grad):
        return (grad.reshape(ctx.shape),)


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    node_name = "SqueezeBackward2"


class SqueezeMatmul(Squeeze):
    """The squeeze ``matmul`` does after a 1-D operand was unsqueezed to a matrix."""

    node_name = "SqueezeBackward4"


class ReshapeAlias(View):
    """``reshape`` of a non-contiguous tensor whose strides allow a view (PyTorch's ``_reshape_alias``)."""

    node_name = "ReshapeAliasBackward0"


view_op = D.view                  # a view op on a tensor (core/dispatch.py)
_viewable, _unrecorded_view = D.viewable, D.unrecorded_view


# ---------------------------------------------------------------------------
# Public view functions
# ---------------------------------------------------------------------------

def view(input, *shape, **kwargs):
    """The same memory seen with a new ``shape`` (one size may be -1). Mirrors ``Tensor.view``.

    Works whenever PyTorch's stride rule allows, which includes some
    non-contiguous tensors; ``view(dtype)`` reinterprets the bytes.

    Raises:
        RuntimeError: an impossible size, two -1s, or strides that do not
            allow a view (PyTorch's message says to use ``reshape``).
    """
    if len(shape) == 1 and not kwargs and isinstance(shape[0], _dtype.dtype):
        return _view_dtype(input, shape[0])
    if not shape and list(kwargs) == ["dtype"] and isinstance(kwargs["dtype"], _dtype.dtype):
        return _view_dtype(input, kwargs["dtype"])
    x = input._data
    return view_shape(input, infer_size(_int_list(shape, "view", "size", _VIEW, kwargs), x.size))


def _view_dtype(input, dt):
    """The same bytes read as dtype ``dt``: with another element size the last dimension shrinks or grows."""
    x = input._data
    old, new = x.itemsize, dt.itemsize
    if old == new:
        return _dtype_alias(input, x.view(dt.numpy_dtype))
    what = f"to view {input.dtype._short_name} as {dt._short_name} (different element sizes)"
    if x.ndim == 0:
        raise RuntimeError(f"self.dim() cannot be 0 {what}")
    strides = element_strides(x)
    if strides[-1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {strides[-1]}")
    if new > old:
        ratio = new // old
        if x.shape[-1] % ratio:
            raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got {x.shape[-1]}")
        if input.storage_offset() % ratio:
            raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {what}, but got "
                               f"{input.storage_offset()}")
        for i, s in enumerate(strides[:-1]):
            if s % ratio:
                raise RuntimeError(f"self.stride({i}) must be divisible by {ratio} {what}, but got {s}")
        shape = x.shape[:-1] + (x.shape[-1] // ratio,)
        new_strides = tuple(s // ratio for s in strides[:-1]) + (1,)
    else:
        ratio = old // new
        shape = x.shape[:-1] + (x.shape[-1] * ratio,)
        new_strides = tuple(s * ratio for s in strides[:-1]) + (1,)
    flat = strided(x, x.shape[:-1] + (x.shape[-1],), strides).view(dt.numpy_dtype) if x.size else x
    return _dtype_alias(input, strided(flat, shape, new_strides) if x.size else
                        backend_of(x).empty(shape, dtype=dt.numpy_dtype))


def _dtype_alias(input, array):
    """``view(dtype)``'s result: the same memory and version counter, but, as in PyTorch, outside autograd
    (no grad_fn, ``requires_grad`` False, not a view for autograd), like ``detach()``."""
    t = input.detach()
    t._data = array
    return t


def view_as(input, other):
    """``input.view(other.shape)``. Mirrors ``Tensor.view_as``."""
    if not isinstance(other, Tensor):
        raise tensor_expected("view_as", other, "other")
    return view(input, other._data.shape)


def reshape(input, *shape, **kwargs):
    """A tensor with the same elements in a new shape: a view when possible, else a copy. Mirrors ``Tensor.reshape``
    (``torch.reshape`` is its function form: ``torch.reshape(x, (2, 3))``).

    Raises:
        RuntimeError: a shape that does not hold the same number of elements.
    """
    x = input._data
    shape = infer_size(_int_list(shape, "reshape", "shape", _RESHAPE, kwargs), x.size)
    strides = view_strides(x.shape, element_strides(x), shape)
    if strides is not None:
        op = View if x.flags.c_contiguous else ReshapeAlias
        return view_op(op, input, {"shape": shape, "strides": strides})
    # Not viewable: copy into fresh contiguous memory, then view that (what PyTorch records too:
    # UnsafeViewBackward0 after CloneBackward0).  The result is not a view of the input.
    copy = clone(input, memory_format=contiguous_format)
    return D.record(UnsafeView, (copy,), (copy._data,), {"shape": shape})


def reshape_as(input, other):
    """``input.reshape(other.shape)``."""
    if not isinstance(other, Tensor):
        raise tensor_expected("reshape_as", other, "other")
    return reshape(input, other._data.shape)


def flatten(input, start_dim=0, end_dim=-1):
    """Merge dimensions ``start_dim..end_dim`` into one (a view when possible). Mirrors ``torch.flatten``.

    Raises:
        IndexError: a dim out of range. RuntimeError: ``start_dim`` after ``end_dim``.
        TypeError: dims that are not ints.
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("flatten", input)
    x = input._data
    start_dim = _int_arg(start_dim, "flatten", _FLATTEN, (start_dim, end_dim))
    end_dim = _int_arg(end_dim, "flatten", _FLATTEN, (start_dim, end_dim))
    s = wrap_dim(start_dim, x.ndim)
    e = wrap_dim(end_dim, x.ndim)
    if x.ndim == 0:
        return reshape(input, 1)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shape = x.shape[:s] + (math.prod(x.shape[s:e + 1]),) + x.shape[e + 1:]
    return reshape(input, shape)


def unflatten(input, dim, sizes):
    """Split dimension ``dim`` into ``sizes``. Mirrors ``torch.unflatten``.

    Raises:
        RuntimeError: sizes that do not multiply up to the dim's size; a 0-d tensor (PyTorch's messages).
    """
    x = input._data
    if x.ndim == 0:
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but tensor has no dimensions")
    d = wrap_dim(dim, x.ndim)
    sizes = tuple(sizes)
    known = math.prod(n for n in sizes if n != -1)
    if sum(n == -1 for n in sizes) > 1 or (known * (x.shape[d] // known if known else 0) != x.shape[d]
                                            if -1 in sizes else known != x.shape[d]):
        raise RuntimeError(f"unflatten: Provided sizes [{', '.join(map(str, sizes))}] don't multiply up to the size "
                           f"of dim {dim} ({x.shape[d]}) in the input tensor")
    return view(input, x.shape[:d] + infer_size(sizes, x.shape[d]) + x.shape[d + 1:])


def transpose(input, dim0, dim1):
    """Swap two dimensions; a view (so usually non-contiguous). Mirrors ``torch.transpose``.

    Raises:
        IndexError: a dim out of range.
    """
    return _transpose(input, dim0, dim1, "transpose", view_op)


def _transpose(input, dim0, dim1, name, apply):
    if not isinstance(input, Tensor):
        raise tensor_expected(name, input)
    n = input._data.ndim
    args = (dim0, dim1)
    d0 = wrap_dim(_int_arg(dim0, name, _TRANSPOSE, args), n)
    d1 = wrap_dim(_int_arg(dim1, name, _TRANSPOSE, args), n)
    if n == 0:
        return apply(ScalarTranspose, input, {"d0": d0, "d1": d1})
    return apply(Transpose, input, {"d0": d0, "d1": d1})


swapdims = transpose


def swapaxes(input, axis0=_NOT_GIVEN, axis1=_NOT_GIVEN, **kwargs):
    """``transpose`` under NumPy's name, with NumPy's argument names. Mirrors ``torch.swapaxes``."""
    if not isinstance(input, Tensor):
        raise tensor_expected("swapaxes", input)
    if kwargs or axis1 is _NOT_GIVEN:
        raise invalid_arguments("swapaxes", _SWAPAXES, _given(axis0, axis1), kwargs)
    return transpose(input, axis0, axis1)


def t(input):
    """Transpose a matrix (a 0-d or 1-d tensor is returned as a view unchanged). Mirrors ``torch.t``.

    Raises:
        RuntimeError: for tensors with more than 2 dimensions.
    """
    return _t(input, "t", view_op)


def _t(input, name, apply):
    if not isinstance(input, Tensor):
        raise tensor_expected(name, input)
    n = input._data.ndim
    if n > 2:
        raise RuntimeError(f"{name}() expects a tensor with <= 2 dimensions, but self is {n}D")
    return apply(T, input)


def permute(input, *dims, **kwargs):
    """Reorder the dimensions: ``x.permute(2, 0, 1)`` turns HWC into CHW. A view. Mirrors ``Tensor.permute``
    (``torch.permute`` is its function form: ``torch.permute(x, (2, 0, 1))``).

    Raises:
        RuntimeError: wrong number of dims, or a dim given twice.
    """
    dims = _int_list(dims, "permute", "dims", _PERMUTE, kwargs)
    n = input._data.ndim
    if len(dims) != n:
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the "
                           f"length of the desired ordering of dimensions i.e. input.dim() = {n} is not equal "
                           f"to len(dims) = {len(dims)}")
    axes = tuple(wrap_dim(d, n) for d in dims)
    if len(set(axes)) != len(axes):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return view_op(Permute, input, {"dims": axes})


def movedim(input, source, destination):
    """Move dimension(s) ``source`` to position(s) ``destination``. Mirrors ``torch.movedim``."""
    if not isinstance(input, Tensor):
        raise wrong_arguments("movedim", input, source, destination)
    if not (_is_int(source) and _is_int(destination)):
        source, destination = parse("movedim", _MOVEDIM, (source, destination))[0]
    n = input._data.ndim
    given_src = [source] if isinstance(source, int) else list(source)
    given_dst = [destination] if isinstance(destination, int) else list(destination)
    if len(given_src) != len(given_dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({_dims_text(given_src)} dims) should "
                           f"contain the same number of dims as destination ({_dims_text(given_dst)} dims)")
    src = [wrap_dim(s, n) for s in given_src]
    dst = [wrap_dim(d, n) for d in given_dst]
    for name, given, wrapped in (("source", given_src, src), ("destination", given_dst, dst)):
        if len(set(wrapped)) != len(wrapped):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({_dims_text(given)})")
    if n == 0:                               # PyTorch: a 0-d tensor's alias
        return view_op(Alias, input)
    order = [i for i in range(n) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return view_op(Permute, input, {"dims": tuple(order)})




moveaxis = movedim


def _dims_text(values):
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def _axis_for_dim(name, dim, dim_default, axis):
    """``axis=`` for ``dim=`` (PyTorch accepts NumPy's name); given both, the alias is unexpected."""
    if dim is not dim_default:
        raise TypeError(f"{name}() got an unexpected keyword argument 'axis'")
    return axis


def squeeze(input, *dim, **kwargs):
    """``torch.squeeze(input, dim=None)``: as ``Tensor.squeeze`` (``squeeze_method``), but the dims are one
    argument (an int or a tuple), as in PyTorch: ``torch.squeeze(x, 0, 1)`` is a TypeError."""
    if len(dim) > 1 or dim == (None,) or kwargs.get("dim", 0) is None:     # None is not "all dims" in PyTorch
        raise invalid_arguments("squeeze", _SQUEEZE_FUNCTION, (input, *dim), kwargs)
    return squeeze_method(input, *dim, **kwargs)


def squeeze_method(input, *dim, **kwargs):
    """Remove dimensions of size 1: all of them, or only those in ``dim`` (an int, a tuple, or several ints).
    A view. Mirrors ``torch.squeeze``.

    A dimension named in ``dim`` whose size is not 1 is left alone.

    Raises:
        IndexError: a dim out of range. RuntimeError: a dim given twice.
        TypeError: dims that are not ints.
    """
    return _squeeze(input, dim, kwargs, "squeeze", view_op)


def _squeeze(input, dim, kwargs, name, apply):
    if not isinstance(input, Tensor):
        raise tensor_expected(name, input)
    x = input._data
    if "axis" in kwargs and "dim" not in kwargs and not dim:     # NumPy's name, as PyTorch accepts it
        if kwargs["axis"] is None:
            raise invalid_arguments(name, _SQUEEZE, (), kwargs)
        kwargs["dim"] = kwargs.pop("axis")
    if "dim" in kwargs:
        if kwargs["dim"] is None and not dim:              # x.squeeze(dim=None): PyTorch's TypeError
            raise invalid_arguments(name, _SQUEEZE, (), kwargs)
        dim = (kwargs.pop("dim"),)
    if kwargs:
        raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if not dim:
        return apply(Squeeze, input)
    if dim == (None,):                                     # x.squeeze(None): not "all dims" in PyTorch
        raise invalid_arguments(name, _SQUEEZE, dim, {})
    if len(dim) > 1 or isinstance(dim[0], (tuple, list)):
        axes = []
        for d in _int_list(dim, name, "dim", _SQUEEZE):
            a = wrap_dim(d, x.ndim)
            if a in axes:
                raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
            axes.append(a)
        axes = tuple(a for a in axes if x.ndim and x.shape[a] == 1)
        return apply(SqueezeDims, input, {"axes": axes})
    dim = _int_arg(dim[0], name, _SQUEEZE, dim)
    a = wrap_dim(dim, x.ndim)
    axes = (a,) if x.ndim and x.shape[a] == 1 else ()
    return apply(SqueezeDim, input, {"axes": axes})


def unsqueeze(input, dim=_NOT_GIVEN, *, axis=_NOT_GIVEN):
    """Insert a dimension of size 1 at ``dim`` (or ``axis=``): ``(3,)`` -> ``(1, 3)`` or ``(3, 1)``. A view.

    Mirrors ``torch.unsqueeze``.

    Raises:
        IndexError: ``dim`` outside ``[-ndim-1, ndim]``.
    """
    if axis is not _NOT_GIVEN:
        dim = _axis_for_dim("unsqueeze", dim, _NOT_GIVEN, axis)
    return _unsqueeze(input, dim, "unsqueeze", view_op)


def _unsqueeze(input, dim, name, apply):
    if dim is _NOT_GIVEN:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if not isinstance(input, Tensor):
        raise tensor_expected(name, input)
    n = input._data.ndim + 1
    axis = wrap_dim(_int_arg(dim, name, _UNSQUEEZE, (dim,)), n)
    return apply(Unsqueeze, input, {"axis": axis})


class Repeat(Op):
    """``x.repeat(*repeats)``: tiled copies (not a view). Backward sums the copies' gradients."""

    node_name = "RepeatBackward0"

    def forward(ctx, a, repeats):
        lead = len(repeats) - a.ndim
        shape = (1,) * lead + a.shape
        ctx.shape, ctx.repeats, ctx.lead = a.shape, repeats, lead
        return backend_of(a).tile(a.reshape(shape), repeats)

    def backward(ctx, grad):
        full = (1,) * ctx.lead + ctx.shape
        # split each dimension into (copy number, size): (r0, s0, r1, s1, ...), then sum the copies
        g = grad.reshape([n for r, s in zip(ctx.repeats, full) for n in (r, s)])
        g = g.sum(axis=tuple(range(0, 2 * len(full), 2)))
        return (g.reshape(ctx.shape),)


_REPEAT = (Signature("(tuple of ints repeats)"),)


def repeat(input, *repeats, **kwargs):
    """Copies of ``input`` tiled ``repeats[i]`` times along dimension ``i`` (a new tensor, not a view).

    ``x.repeat(2, 3)`` on a ``(2, 2)`` tensor is ``(4, 6)``; more repeats than
    dims add leading dimensions.  Mirrors ``Tensor.repeat`` (records
    ``RepeatBackward0``); NumPy's ``np.tile`` is the same idea.

    Raises:
        RuntimeError: fewer repeats than dims, a negative repeat (PyTorch's messages).
        TypeError: no repeats, or ones that are not ints.
    """
    if not repeats and not kwargs:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
    if kwargs and set(kwargs) != {"repeats"}:
        raise TypeError(f"repeat() got an unexpected keyword argument '{next(k for k in kwargs if k != 'repeats')}'")
    reps = tuple(_int_list(repeats, "repeat", "repeats", _REPEAT, kwargs))
    x = input._data
    if len(reps) < x.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    shape = [r * s for r, s in zip(reps, (1,) * (len(reps) - x.ndim) + x.shape)]
    if any(r < 0 for r in reps):
        raise RuntimeError(f"Trying to create tensor with negative dimension {next(n for n in shape if n < 0)}: "
                           f"[{', '.join(map(str, shape))}]")
    return D.record(Repeat, (input,), (x,), {"repeats": reps})


def tile(input, *dims, **kwargs):
    """``input`` repeated ``dims[i]`` times along dimension ``i``, like ``np.tile``: fewer ``dims`` than
    dimensions repeat the last ones (``repeat`` needs one per dimension). Mirrors ``Tensor.tile`` /
    ``torch.tile`` (records ``RepeatBackward0``, as PyTorch's tile is ``repeat``).

    Raises:
        RuntimeError: a negative repeat. TypeError: no dims, or ones that are not ints.
    """
    if not dims and not kwargs:
        raise TypeError('tile() missing 1 required positional arguments: "dims"')
    if kwargs and set(kwargs) != {"dims"}:
        raise TypeError(f"tile() got an unexpected keyword argument '{next(k for k in kwargs if k != 'dims')}'")
    reps = tuple(_int_list(dims, "tile", "dims", _TILE, kwargs))
    n = input._data.ndim
    return repeat(input, (1,) * (n - len(reps)) + reps)


_TILE = (Signature("(tuple of ints dims)"),)


def expand(input, *sizes, **kwargs):
    """Broadcast to a larger shape without copying (stride 0 in the new dims). Mirrors ``Tensor.expand``.

    -1 keeps a size.  The result shares memory; write to a ``clone()``.

    Raises:
        RuntimeError: a size that cannot broadcast, fewer sizes than dims.
    """
    return _expand(input, _int_list(sizes, "expand", "size", _EXPAND, kwargs))


def _expand(input, sizes):
    x = input._data
    if len(sizes) < x.ndim:
        have = ", ".join(map(str, x.shape))
        # PyTorch's C++ type names, which have no legacy name for bool
        kind = input.type() if x.dtype != np.bool_ else f"{input.device.type.upper()}BoolType"
        raise RuntimeError(f"expand({kind}{{[{have}]}}, size=[{', '.join(map(str, sizes))}]): "
                           f"the number of sizes provided ({len(sizes)}) must be greater or equal to the number "
                           f"of dimensions in the tensor ({x.ndim})")
    lead = len(sizes) - x.ndim
    shape = list(sizes)
    for i in range(len(sizes) - 1, -1, -1):         # right to left, as PyTorch checks
        s = sizes[i]
        if i < lead:
            if s < 0:
                raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a leading, "
                                   f"non-existing dimension {i}")
            continue
        have = x.shape[i - lead]
        if s == -1:
            shape[i] = have
        elif have != s and have != 1:
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size ({have}) at "
                               f"non-singleton dimension {i}.  Target sizes: [{', '.join(map(str, sizes))}].  "
                               f"Tensor sizes: [{', '.join(map(str, x.shape))}]")
    return view_op(Expand, input, {"shape": tuple(shape)})


def expand_as(input, other):
    """``input.expand(other.shape)``."""
    if not isinstance(other, Tensor):
        raise tensor_expected("expand_as", other, "other")
    return expand(input, other._data.shape)


def broadcast_to(input, *size, **kwargs):
    """``input.expand(size)``. Mirrors ``Tensor.broadcast_to`` (``torch.broadcast_to`` is its function form)."""
    return _expand(input, _int_list(size, "broadcast_to", "size", _BROADCAST_TO, kwargs))


torch_reshape = _function_form(reshape, "(Tensor input, tuple of ints shape)")
torch_permute = _function_form(permute, "(Tensor input, tuple of ints dims)")
torch_broadcast_to = _function_form(broadcast_to, "(Tensor input, tuple of ints size)")
torch_tile = _function_form(tile, "(Tensor input, tuple of ints dims)")


def broadcast_shapes_of(shapes):
    """The broadcast shape (a list) of any number of shapes, as ``torch.broadcast_shapes`` computes it.

    An int stands for a 1-d shape and None is skipped.

    Raises:
        RuntimeError: PyTorch's "Attempting to broadcast a dimension of
            length ... Mismatching argument at index ..." message, or a shape
            that is not a sequence of ints.
        ValueError: a negative size.
    """
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for shape in shapes:
        if not isinstance(shape, Sequence):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {shape}")
    result = [1] * max((len(s) for s in shapes), default=0)
    for index, shape in enumerate(shapes):
        for i in range(-1, -len(shape) - 1, -1):
            size = shape[i]
            if size == result[i]:
                continue
            if result[i] == 1:
                if size < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                result[i] = size
            if size != 1 and size != result[i]:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {size} at {i}! Mismatching argument at "
                    f"index {index} had {shape}; but expected shape should be broadcastable to {result}")
    return result


def broadcast_shapes(*shapes):
    """The shape that all ``shapes`` broadcast to. Mirrors ``torch.broadcast_shapes``.

    Raises:
        RuntimeError: shapes that cannot broadcast (PyTorch's message).
    """
    return Size(broadcast_shapes_of(shapes))


def broadcast_tensors(*tensors):
    """Expand all tensors to their common broadcast shape (views). Mirrors ``torch.broadcast_tensors``.

    A tensor that already has that shape comes back as it is (no ``ExpandBackward0``), as in PyTorch.

    Raises:
        RuntimeError: shapes that cannot broadcast.
    """
    for i, t_ in enumerate(tensors):
        if not isinstance(t_, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t_).__name__}")
    shape = ()
    for t_ in tensors:
        shape = broadcast_shape(shape, t_._data.shape)
    return tuple(t_ if t_._data.shape == shape else expand(t_, shape) for t_ in tensors)


class _MemoryFormat:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


contiguous_format = _MemoryFormat("contiguous_format")
preserve_format = _MemoryFormat("preserve_format")


class Clone(Op):
    node_name = "CloneBackward0"

    def forward(ctx, a, contiguous=False):
        if contiguous:
            return a.copy()
        out = empty_preserving(a, a.dtype)     # keeps the input's layout, as torch.preserve_format does
        out[...] = a
        return out

    def backward(ctx, grad):
        return (grad,)


def clone(input, *, memory_format=None):
    """A copy with its own memory that stays in the autograd graph (``CloneBackward0``). Mirrors ``torch.clone``.

    The copy keeps the input's memory layout (a transposed matrix clones to
    a transposed matrix) unless ``memory_format=torch.contiguous_format``.
    """
    if not isinstance(input, Tensor):
        raise tensor_expected("clone", input)
    return D.record(Clone, (input,), (input._data,), {"contiguous": memory_format is contiguous_format})


def contiguous(input, memory_format=None):
    """``self`` if already contiguous, else a contiguous copy (``CloneBackward0``). Mirrors ``Tensor.contiguous``."""
    if input._data.flags.c_contiguous:
        return input
    return clone(input, memory_format=contiguous_format)


def _given(*values):
    """The arguments given, up to the first one left out."""
    return values[:values.index(_NOT_GIVEN)] if _NOT_GIVEN in values else values


def narrow(input, dim=_NOT_GIVEN, start=_NOT_GIVEN, length=_NOT_GIVEN, *, axis=_NOT_GIVEN):
    """The slice ``start:start+length`` of dimension ``dim`` (or ``axis=``), as a view. Mirrors ``torch.narrow``."""
    if axis is not _NOT_GIVEN:
        dim = _axis_for_dim("narrow", dim, _NOT_GIVEN, axis)
    if not isinstance(input, Tensor):
        raise wrong_arguments("narrow", input, *_given(dim, start, length))
    if not (_is_int(dim) and _is_int(start) and _is_int(length)):
        dim, start, length = parse("narrow", _NARROW, _given(dim, start, length))[0]
        start = int(start)                   # narrow(dim, Tensor start, length)
    x = input._data
    if x.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    d = wrap_dim(dim, x.ndim)
    size = x.shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return view_op(Slice, input, {"axis": d, "start": start, "stop": start + length, "step": 1})


def select(input, dim=_NOT_GIVEN, index=_NOT_GIVEN, *, axis=_NOT_GIVEN):
    """The sub-tensor at ``index`` of dimension ``dim`` (or ``axis=``; one dimension fewer), a view. Mirrors
    ``torch.select``.

    Raises:
        IndexError: index out of range (PyTorch's message).
    """
    if axis is not _NOT_GIVEN:
        dim = _axis_for_dim("select", dim, _NOT_GIVEN, axis)
    if not isinstance(input, Tensor):
        raise tensor_expected("select", input)
    if not (_is_int(dim) and _is_int(index)):
        dim, index = parse("select", _SELECT, _given(dim, index))[0]
    x = input._data
    if x.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, x.ndim)
    size = x.shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size [{', '.join(map(str, x.shape))}] "
                         f"at dimension {d}")
    return view_op(Select, input, {"axis": d, "index": index + size if index < 0 else index})


class Unbind(Op):
    node_name = "UnbindBackward0"

    def forward(ctx, a, axis):
        ctx.axis = axis
        return tuple(a[(slice(None),) * axis + (i, Ellipsis)] for i in range(a.shape[axis]))

    def backward(ctx, *grads):
        return (backend_of(grads[0]).stack(grads, axis=ctx.axis),)


def unbind(input, dim=0, *, axis=_NOT_GIVEN):
    """All slices along ``dim`` (or ``axis=``) as a tuple of views. Mirrors ``torch.unbind``."""
    if axis is not _NOT_GIVEN:
        dim = _axis_for_dim("unbind", dim, 0, axis)
    if not isinstance(input, Tensor):
        raise tensor_expected("unbind", input)
    if not _is_int(dim):
        dim = parse("unbind", _UNBIND, (dim,))[0][0]
    x = input._data
    d = wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return _multi_view(Unbind, input, {"axis": d})


def _multi_view(op, input, params):
    """A multi-output view op (split, chunk, unbind): every output shares the input's memory.

    PyTorch forbids recorded in-place changes of these outputs (their
    creation is noted on the views, see ``make_view``).
    """
    x = _viewable(input._data)
    if not D.recording(input):
        return tuple(_unrecorded_view(input, a) for a in op.forward(NO_CONTEXT, x, **params))
    ctx = op.Node()
    arrays = op.forward(ctx, x, **params)
    ctx.needs_input_grad = (True,)
    ctx.next_functions = (D.edge_of(input),)
    ctx._input_meta = (D.input_meta(input),)
    ctx._n_outputs = len(arrays)
    ctx._output_meta = tuple((a.shape, a.dtype) for a in arrays)
    outs = []
    for i, a in enumerate(arrays):
        t_ = D.make_view(input, a, short_name(op.node_name))
        D.mark_output(t_, ctx, i)
        outs.append(t_)
    return tuple(outs)


class Split(Op):
    node_name = "SplitBackward0"

    def forward(ctx, a, axis, sizes):
        ctx.axis = axis
        out, start = [], 0
        for s in sizes:
            out.append(a[(slice(None),) * axis + (slice(start, start + s),)])
            start += s
        return tuple(out)

    def backward(ctx, *grads):
        return (backend_of(grads[0]).concatenate(grads, axis=ctx.axis),)


class SplitWithSizes(Split):
    node_name = "SplitWithSizesBackward0"


def split(tensor, split_size_or_sections, dim=0):
    """Cut into pieces of ``split_size`` (the last may be smaller) or of the listed sizes; views.

    Mirrors ``torch.split``.

    Raises:
        RuntimeError: listed sizes that do not add up to the dimension's size.
    """
    x = tensor._data
    if not _is_int(dim):
        dim = parse("split", _SPLIT, (tensor, split_size_or_sections, dim))[0][2]
    if x.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = wrap_dim(dim, x.ndim)
    size = x.shape[d]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = list(split_size_or_sections)
        if sum(sizes) != size:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's "
                               f"size at dimension {d}), but got split_sizes={sizes}")
        return _multi_view(SplitWithSizes, tensor, {"axis": d, "sizes": sizes})
    step = int(split_size_or_sections)
    if step <= 0 and size:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
    sizes = [min(step, size - i) for i in range(0, size, step)] if size else [0]
    return _multi_view(Split, tensor, {"axis": d, "sizes": sizes})


def chunk(input, chunks, dim=0, *, axis=_NOT_GIVEN):
    """Split into ``chunks`` pieces of equal size ``ceil(n / chunks)`` (the last may be smaller, and
    there may be fewer pieces) along ``dim`` (or ``axis=``). Mirrors ``torch.chunk``.

    Raises:
        RuntimeError: ``chunks`` not positive.
    """
    if axis is not _NOT_GIVEN:
        dim = _axis_for_dim("chunk", dim, 0, axis)
    if not isinstance(input, Tensor):
        raise tensor_expected("chunk", input)
    if not (_is_int(chunks) and _is_int(dim)):
        chunks, dim = parse("chunk", _CHUNK, (chunks, dim))[0]
    x = input._data
    if x.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    d = wrap_dim(dim, x.ndim)
    size = x.shape[d]
    if not size:                 # as many empty pieces as asked for (split would give one)
        return _multi_view(SplitWithSizes, input, {"axis": d, "sizes": [0] * chunks})
    return split(input, -(-size // chunks), d)


class Cat(Op):
    node_name = "CatBackward0"

    def forward(ctx, *arrays, axis):
        ctx.axis = axis
        ctx.sizes = [a.shape[axis] if a.ndim else 0 for a in arrays]
        return backend_of(arrays[0]).concatenate(arrays, axis=axis)

    def backward(ctx, grad):
        out, start = [], 0
        for s in ctx.sizes:
            out.append(grad[(slice(None),) * ctx.axis + (slice(start, start + s),)])
            start += s
        return tuple(out)


def _common(tensors, name):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{type(tensors).__name__}")
    if not tensors:
        if name == "stack":
            raise RuntimeError("stack expects a non-empty TensorList")
        raise ValueError(f"torch.{name}(): expected a non-empty list of Tensors")
    for i, x in enumerate(tensors):
        if not isinstance(x, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(x).__name__}")
    dt = tensors[0].dtype
    for x in tensors[1:]:
        dt = _dtype.promote_types(dt, x.dtype)
    first = tensors[0]._data.__class__
    for x in tensors[1:]:
        if x._data.__class__ is not first:
            raise D._device_error(tensors[0], x)
    return [x._data.astype(dt.numpy_dtype, copy=False) for x in tensors]


def _join_dim(name, args, dim, axis, tensors):
    """The ``dim`` of cat / stack, given by position (``args``), as ``dim=`` or as ``axis=``; an int (a 0-d
    integer tensor is read as one), or PyTorch's TypeError (about ``tensors`` first, as PyTorch checks it
    first: ``torch.cat(a, b)``)."""
    if len(args) > 1:
        raise TypeError(f"{name}() takes from 1 to 2 positional arguments but {len(args) + 1} were given")
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        _common(tensors, name)
    if args:
        if dim is not _NOT_GIVEN:
            raise TypeError(f"{name}() got multiple values for argument 'dim'")
        dim = args[0]
    if axis is not _NOT_GIVEN:
        if dim is not _NOT_GIVEN:
            raise TypeError(f"{name}() got an unexpected keyword argument 'axis'")
        dim = axis
    if dim is _NOT_GIVEN:
        return 0
    if _is_int(dim):
        return dim
    if _check("int", dim):
        return int(dim)
    where = " (position 2)" if args else ""
    raise TypeError(f"{name}(): argument 'dim'{where} must be int, not {type_name(dim)}")


def cat(tensors, *args, dim=_NOT_GIVEN, axis=_NOT_GIVEN):
    """Join tensors along an existing dimension (all other sizes must match). Mirrors ``torch.cat``.

    ``axis=`` is accepted for ``dim=``, as in PyTorch.

    Raises:
        RuntimeError: a 0-d tensor, different numbers of dims or mismatched sizes (PyTorch's messages).
        ValueError: an empty list. TypeError: a ``dim`` that is not an int.
    """
    if args or axis is not _NOT_GIVEN or dim.__class__ is not int:
        dim = _join_dim("cat", args, dim, axis, tensors)
    arrays = _common(tensors, "cat")
    tensors = list(tensors)
    for i, a in enumerate(arrays):
        if a.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    ref = next((a for a in arrays if not (a.ndim == 1 and a.shape[0] == 0)), None)
    if ref is None:               # only legacy empty 1-d tensors: an empty result, whatever the dim (PyTorch)
        ref, dim = arrays[0], 0
    d = wrap_dim(dim, ref.ndim)
    keep_t, keep_a = [], []
    for i, (x, a) in enumerate(zip(tensors, arrays)):
        if a.ndim == 1 and a.shape[0] == 0 and ref.ndim != 1:
            continue        # legacy: empty 1-d tensors are skipped
        if a.ndim != ref.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} and {a.ndim}")
        for k in range(ref.ndim):
            if k != d and a.shape[k] != ref.shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                   f"{ref.shape[k]} but got size {a.shape[k]} for tensor number {i} in the list.")
        keep_t.append(x)
        keep_a.append(a)
    return D.record(Cat, tuple(keep_t), tuple(keep_a), {"axis": d})


concat = concatenate = cat


def stack(tensors, *args, dim=_NOT_GIVEN, axis=_NOT_GIVEN):
    """Join same-shaped tensors along a new dimension ``dim`` (or ``axis=``). Mirrors ``torch.stack``.

    Raises:
        RuntimeError: tensors of different shapes (PyTorch's message). TypeError: a ``dim`` that is not an int.
    """
    if args or axis is not _NOT_GIVEN or dim.__class__ is not int:
        dim = _join_dim("stack", args, dim, axis, tensors)
    arrays = _common(tensors, "stack")
    tensors = list(tensors)
    for i, a in enumerate(arrays[1:], 1):
        if a.shape != arrays[0].shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"[{', '.join(map(str, arrays[0].shape))}] at entry 0 and "
                               f"[{', '.join(map(str, a.shape))}] at entry {i}")
    d = wrap_dim(dim, arrays[0].ndim + 1)
    return D.record(Stack, tuple(tensors), tuple(arrays), {"axis": d})



def _stack_inputs(tensors, name):
    if isinstance(tensors, (list, tuple)) and not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    _common(tensors, name)                  # PyTorch's TypeErrors for a non-list or a non-tensor element
    return list(tensors)


def hstack(tensors):
    """Join tensors column-wise: along dim 0 for 1-d tensors, else along dim 1 (0-d tensors count as 1-d).
    Mirrors ``torch.hstack``.

    Raises:
        RuntimeError: an empty list, mismatched sizes (``cat``'s messages). TypeError: non-tensors.
    """
    tensors = [t.reshape(1) if t.ndim == 0 else t for t in _stack_inputs(tensors, "hstack")]
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1)


def vstack(tensors):
    """Join tensors row-wise, along dim 0, after making 0-d and 1-d tensors rows (``(n,)`` -> ``(1, n)``).
    Mirrors ``torch.vstack``.

    Raises:
        RuntimeError: an empty list, mismatched sizes (``cat``'s messages). TypeError: non-tensors.
    """
    tensors = [t.reshape(1, -1) if t.ndim < 2 else t for t in _stack_inputs(tensors, "vstack")]
    return cat(tensors, 0)


class Stack(Op):
    node_name = "StackBackward0"

    def forward(ctx, *arrays, axis):
        ctx.axis = axis
        return backend_of(arrays[0]).stack(arrays, axis=axis)

    def backward(ctx, grad):
        n = grad.shape[ctx.axis]
        return tuple(grad[(slice(None),) * ctx.axis + (i,)] for i in range(n))


class Flip(Op):
    node_name = "FlipBackward0"

    def forward(ctx, a, axes):
        ctx.axes = axes
        return backend_of(a).flip(a, axis=axes).copy()

    def backward(ctx, grad):
        return (backend_of(grad).flip(grad, axis=ctx.axes),)


def flip(input, *args, **kwargs):
    """``torch.flip(input, dims)``: reverse the order of elements along ``dims``, a tuple or list of ints (see
    ``flip_method``; PyTorch's TypeError for anything else, ``torch.flip(x, 1)`` included)."""
    if not isinstance(input, Tensor):
        raise tensor_expected("flip", input)
    if len(args) == 1 and not kwargs and isinstance(args[0], (tuple, list)):
        return flip_method(input, args[0])
    args, kwargs = parse("flip", _FLIP_FUNCTION, (input,) + args, kwargs)
    return flip_method(input, *args[1:], **kwargs)


def flip_method(input, *dims, **kwargs):
    """Reverse the order of elements along ``dims`` (``x.flip(0, 1)``, ``x.flip((0, 1))``, ``x.flip(dims=(0,))``);
    a copy (PyTorch has no negative strides). Mirrors ``Tensor.flip`` (``torch.flip(x, dims)`` takes one tuple).

    Raises:
        TypeError: a single non-sequence ``dims`` by keyword, a bool or float (PyTorch's messages).
        IndexError: a dim out of range. RuntimeError: a dim given twice.
    """
    if kwargs and list(kwargs) == ["dims"] and not dims and not isinstance(kwargs["dims"], (tuple, list)):
        raise TypeError(f"flip(): argument 'dims' must be tuple of ints, not {type_name(kwargs['dims'])}")
    dims = _int_list(dims, "flip", "dims", _FLIP, kwargs)
    x = input._data
    axes = []
    for d in dims:
        a = wrap_dim(d, x.ndim)
        if a in axes:
            raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
        axes.append(a)
    if x.ndim == 0:
        return D.record(Flip, (input,), (x,), {"axes": ()})
    return D.record(Flip, (input,), (x,), {"axes": tuple(axes)})


def as_strided(input, size, stride, storage_offset=None):
    """A view with explicit sizes, strides and offset into the storage (expert use). Mirrors ``torch.as_strided``."""
    x = input._data
    base = input._storage if input._storage is not None else x
    offset = input.storage_offset() if storage_offset is None else storage_offset
    if offset and base.__class__ is not np.ndarray:     # CuPy: start the view at the offset first
        base, offset = base.reshape(-1)[offset:], 0
    array = strided(base, tuple(size), tuple(stride), offset)
    if not D.recording(input):
        return _unrecorded_view(input, array)
    geometry = D.view_positions(input._data, array)
    return view_op(AsStrided, input, {"geometry": geometry, "array": array})



# ---------------------------------------------------------------------------
# In-place shape changes: t_, transpose_, squeeze_, unsqueeze_
# ---------------------------------------------------------------------------
# The tensor keeps its memory and gets new sizes and strides.  PyTorch counts this as an in-place
# operation: the version counter is bumped (a saved copy of the tensor is then stale), a leaf that
# requires grad refuses it, and the new history is the *Backward1 (or 3, 4, 5) node of the view.

class TInplace(T):
    node_name = "TBackward1"


class TransposeInplace(Transpose):
    node_name = "TransposeBackward1"

    def forward(ctx, a, d0=0, d1=0):
        ctx.dims = (d0, d1)
        return a.swapaxes(d0, d1) if a.ndim else a.view()

    backward = _swapped_back


class SqueezeInplace(Squeeze):
    node_name = "SqueezeBackward3"


class SqueezeDimInplace(Squeeze):
    node_name = "SqueezeBackward4"


class SqueezeDimsInplace(Squeeze):
    node_name = "SqueezeBackward5"


class UnsqueezeInplace(Unsqueeze):
    node_name = "UnsqueezeBackward1"


_INPLACE_OF = {T: TInplace, Transpose: TransposeInplace, Alias: TransposeInplace, ScalarTranspose: TransposeInplace,
               Squeeze: SqueezeInplace,
               SqueezeDim: SqueezeDimInplace, SqueezeDims: SqueezeDimsInplace, Unsqueeze: UnsqueezeInplace}


def _inplace_view(op, t, params=None):
    """Give ``t`` the sizes and strides of ``op``'s view of it, in place, as PyTorch's metadata ops do.

    Raises:
        RuntimeError: ``t`` is a leaf that requires grad (or a view of one) and grad mode is on.
    """
    op = _INPLACE_OF[op]
    rec = D.recording(t)
    D.check_inplace(t, rec, overlap=False)
    if rec:
        new = view_op(op, t, params)
        array, node = new._data, new._grad_fn
    else:
        x = _viewable(t._data)
        array = op.forward(NO_CONTEXT, x, **params) if params else op.forward(NO_CONTEXT, x)
    fresh_view = t._base is not None and t._view_version == t._version_ref[0]
    if t._storage is None:
        t._storage = t._data
    t._data = array
    t._bump()
    if rec:
        D.mark_output(t, node)
    if fresh_view:
        t._view_version = t._version_ref[0]
    return t


def t_(self):
    """``x.t_()``: transpose a matrix in place (new strides, same memory). Mirrors ``Tensor.t_``.

    Raises:
        RuntimeError: more than 2 dims; a leaf that requires grad (PyTorch's messages).
    """
    return _t(self, "t_", _inplace_view)


def transpose_(self, dim0, dim1):
    """``x.transpose_(dim0, dim1)``: swap two dims in place. Mirrors ``Tensor.transpose_``.

    Raises:
        IndexError: a dim out of range. RuntimeError: a leaf that requires grad.
    """
    return _transpose(self, dim0, dim1, "transpose_", _inplace_view)


def squeeze_(self, *dim, **kwargs):
    """``x.squeeze_()``, ``x.squeeze_(dim)``, ``x.squeeze_((d0, d1))``: drop size-1 dims in place.
    Mirrors ``Tensor.squeeze_``.

    Raises:
        IndexError: a dim out of range. RuntimeError: a leaf that requires grad.
    """
    return _squeeze(self, dim, kwargs, "squeeze_", _inplace_view)


def unsqueeze_(self, dim=_NOT_GIVEN):
    """``x.unsqueeze_(dim)``: insert a size-1 dim in place. Mirrors ``Tensor.unsqueeze_``.

    Raises:
        IndexError: ``dim`` outside ``[-ndim-1, ndim]``. RuntimeError: a leaf that requires grad.
    """
    return _unsqueeze(self, dim, "unsqueeze_", _inplace_view)


# ---------------------------------------------------------------------------
# tensor_split, fliplr/flipud, roll, diagonal/diag
# ---------------------------------------------------------------------------

def tensor_split(input, indices_or_sections, dim=0):
    """Split into views along ``dim``: into ``n`` nearly equal parts (the first ones one longer), or at
    the given indices (a list or an int64 tensor). Mirrors ``torch.tensor_split`` (unlike ``split``,
    ``n`` counts parts, not their size).

    Raises:
        RuntimeError: a 0-d input, ``n`` < 1, a non-int64 or 2-d tensor of indices (PyTorch's messages).
        IndexError: ``dim`` out of range.
    """
    x = input._data
    if x.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    d = wrap_dim(dim, x.ndim)
    size = x.shape[d]
    if isinstance(indices_or_sections, Tensor):
        t = indices_or_sections._data
        if t.dtype != np.int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                               f"{_dtype._BY_NUMPY[t.dtype]._short_name}")
        if t.ndim > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                               f"one-dimensional tensor, but got a tensor with {t.ndim} dims")
        indices_or_sections = int(t) if t.ndim == 0 else [int(i) for i in t.tolist()]
    if _is_int(indices_or_sections):
        n = int(indices_or_sections)
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        q, extra = divmod(size, n)
        bounds = [k * q + min(k, extra) for k in range(n + 1)]
    else:
        bounds = [0] + [min(max(i + size if i < 0 else i, 0), size) for i in indices_or_sections] + [size]
    return tuple(view_op(Slice, input, {"axis": d, "start": a, "stop": max(a, b), "step": 1})
                 for a, b in zip(bounds, bounds[1:]))


def fliplr(input):
    """Reverse the columns (dim 1); a copy. Mirrors ``torch.fliplr``.

    Raises:
        RuntimeError: fewer than 2 dims.
    """
    if input._data.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return D.record(Flip, (input,), (input._data,), {"axes": (1,)})


def flipud(input):
    """Reverse the rows (dim 0); a copy. Mirrors ``torch.flipud``.

    Raises:
        RuntimeError: a 0-d input.
    """
    if input._data.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return D.record(Flip, (input,), (input._data,), {"axes": (0,)})


class Roll(Op):
    node_name = "RollBackward0"

    def forward(ctx, a, shifts, axes):
        ctx.shifts, ctx.axes = shifts, axes
        xp = backend_of(a)
        if axes is None:
            return xp.roll(a.reshape(-1), shifts[0]).reshape(a.shape)
        return xp.roll(a, shifts, axis=axes)

    def backward(ctx, grad):
        return (Roll.forward(NO_CONTEXT, grad, tuple(-s for s in ctx.shifts), ctx.axes),)


def roll(input, shifts, dims=None):
    """Shift the elements along ``dims`` by ``shifts`` (ints or tuples), wrapping around; without
    ``dims`` the flattened tensor is rolled. A copy. Mirrors ``torch.roll``.

    Raises:
        RuntimeError: shifts and dims of different lengths, or no shifts. IndexError: a dim out of range.
    """
    shifts = (shifts,) if _is_int(shifts) else tuple(shifts)
    if not shifts:
        raise RuntimeError("`shifts` required")
    x = input._data
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        return D.record(Roll, (input,), (x,), {"shifts": shifts, "axes": None})
    dims = (dims,) if _is_int(dims) else tuple(dims)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    if x.ndim == 0:                          # (PyTorch's message for a 0-d tensor, whatever the dim)
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    axes = tuple(wrap_dim(d, x.ndim) for d in dims)
    return D.record(Roll, (input,), (x,), {"shifts": shifts, "axes": axes})


def _diagonal_geometry(x, offset, d1, d2):
    """The array whose first element is the diagonal's first, and the diagonal's shape and strides."""
    n1, n2 = x.shape[d1], x.shape[d2]
    length = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    if length:
        key = [slice(None)] * x.ndim
        key[d2 if offset >= 0 else d1] = slice(abs(offset), None)
        x = x[tuple(key)]
    strides = element_strides(x)
    keep = [k for k in range(x.ndim) if k not in (d1, d2)]
    return (x, tuple(x.shape[k] for k in keep) + (length,),
            tuple(strides[k] for k in keep) + (strides[d1] + strides[d2],))


def _embed_diagonal(grad, shape, offset, d1, d2):
    """Zeros of ``shape`` with ``grad`` written on the diagonal (the backward of ``diagonal``)."""
    out = backend_of(grad).zeros(shape, dtype=grad.dtype)
    base, dshape, dstrides = _diagonal_geometry(out, offset, d1, d2)
    strided(base, dshape, dstrides)[...] = grad
    return out


class Diagonal(Op):
    node_name = "DiagonalBackward0"

    def forward(ctx, a, offset, d1, d2):
        ctx.shape, ctx.params = a.shape, (offset, d1, d2)
        return strided(*_diagonal_geometry(a, offset, d1, d2))

    def backward(ctx, grad):
        return (_embed_diagonal(grad, ctx.shape, *ctx.params),)


class DiagonalCopy(Diagonal):
    """``torch.diag`` of a matrix: the diagonal as a new tensor."""

    node_name = "DiagonalBackward0_copy"

    def forward(ctx, a, offset, d1, d2):
        return Diagonal.forward(ctx, a, offset, d1, d2).copy()


class DiagEmbed(Op):
    """``torch.diag`` of a vector: a matrix with the vector on its ``offset``-th diagonal."""

    node_name = "DiagEmbedBackward0"

    def forward(ctx, a, offset):
        ctx.offset = offset
        n = a.shape[0] + abs(offset)
        return _embed_diagonal(a, (n, n), offset, 0, 1)

    def backward(ctx, grad):
        return (strided(*_diagonal_geometry(grad, ctx.offset, 0, 1)).copy(),)


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The ``offset``-th diagonal of the matrices spanned by ``dim1`` and ``dim2``, as a view (that
    dimension goes last). Mirrors ``torch.diagonal``.

    Raises:
        RuntimeError: ``dim1`` and ``dim2`` name the same dimension. IndexError: a dim out of range.
    """
    x = input._data
    d1, d2 = wrap_dim(dim1, x.ndim), wrap_dim(dim2, x.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return view_op(Diagonal, input, {"offset": offset, "d1": d1, "d2": d2})


def diag(input, diagonal=0):
    """A vector's diagonal matrix, or a matrix's ``diagonal``-th diagonal (a copy). Mirrors ``torch.diag``.

    Raises:
        RuntimeError: an input that is not 1-D or 2-D.
    """
    x = input._data
    if x.ndim == 1:
        return D.record(DiagEmbed, (input,), (x,), {"offset": diagonal})
    if x.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {x.ndim}D")
    return D.record(DiagonalCopy, (input,), (x,), {"offset": diagonal, "d1": 0, "d2": 1})
