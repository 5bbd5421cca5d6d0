"""The catalogue's way to run an operation: the core's dispatch, plus PyTorch's checks and the fast paths.

Every operation goes through ``course_lib/core/dispatch.py`` (operands, forward, the recorded node,
views, in-place writes).  What this module adds, for the public functions of ``course_lib/ops``:

* PyTorch's messages for operands of the wrong kind (``add(): argument 'other' (position 2) must be
  Tensor, not str``), for Python ints too large for a Scalar, for tensors on two devices;
* ``out=`` arguments;
* fast paths, each measured by ``make bench``: ``+ - * /`` with nothing to record call the op's NumPy
  ufunc directly (``binary``), the SGD update ``p -= lr * p.grad`` writes with one ufunc (``inplace``),
  and a large temporary left operand of ``+ - * /`` lends its memory to the result (``into_temporary``).
"""

import sys
import warnings

import numpy as np

from ..core import dtypes, hooks
from ..core.backend import backend_of
from ..core.dispatch import (
    NUMBER,
    as_array,
    check_inplace,
    inplace_record,
    make_view,
    number_dtype,
    rebase_history,
    record,
    record_node,
    recording,
    scalar,
    unrecorded_view,
    view,
    viewable,
)
from ..core.dispatch import inplace as _core_inplace
from ..core.dispatch import unary as _core_unary
from ..core.grad_mode import state
from ..core.graph import NO_CONTEXT, current_grad_fn, edge_of, input_meta
from ..core.layout import broadcast_shape, view_positions
from ..core.tensor import Tensor, wrap
from ..torch_compat.layouts import check_no_partial_overlap, elementwise_result
from ..torch_compat.names import type_name

__all__ = ["binary", "binary_scalar", "unary", "record", "edge_of", "input_meta", "mark_output", "inplace",
           "inplace_record", "make_view", "current_grad_fn", "rebase_history", "check_inplace", "recording",
           "as_array", "is_number", "scalar_dtype", "make_scalar", "align", "same_device", "check_devices",
           "cast_error", "check_out_grad", "resize_out", "into_temporary", "ELISION_BYTES", "NUMBER", "NO_CONTEXT",
           "wrap", "backend_of", "broadcast_shape", "view_positions", "view", "viewable", "unrecorded_view", "refuse",
           "write_out"]

_ndarray, _generic = np.ndarray, np.generic
_F16 = np.dtype(np.float16)
scalar_dtype = number_dtype         # the NumPy dtype of ``tensor <op> number``


def is_number(x):
    """True for Python numbers and NumPy scalars."""
    return isinstance(x, (int, float)) or isinstance(x, _generic) and x.ndim == 0


def _default_float():
    return dtypes.get_default_dtype().numpy_dtype


def make_scalar(value, np_dtype):
    """A NumPy scalar of ``np_dtype`` holding a Python number; integers wrap around like C casts.

    Raises:
        OverflowError: a Python int outside [-2**63, 2**64), as PyTorch's Scalar conversion.
    """
    if value.__class__ is int and not -2 ** 63 <= value < 2 ** 64:
        raise OverflowError("int too big to convert" if value > 0 else "can't convert negative int to unsigned")
    return scalar(value, np_dtype)


def _type_error(name, value, position=2, arg="other"):
    return TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {type_name(value)}")


def _device_error(a, b):
    da, db = a.device, b.device
    first, second = (da, db) if da.type == "cuda" else (db, da)
    return RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                        f"{first} and {second}!")


def check_devices(method, named):
    """The device check PyTorch generates for ops like mm, bmm, gather: the first tensor's device is the
    common one, the first later tensor elsewhere is named.

    ``named`` holds ``(argument name, tensor)`` pairs.

    Raises:
        RuntimeError: "Expected all tensors to be on the same device, but got mat2 is on cpu, different
            from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)".
    """
    first = named[0][1]
    for arg, t in named[1:]:
        if t._data.__class__ is not first._data.__class__:
            raise RuntimeError(f"Expected all tensors to be on the same device, but got {arg} is on {t.device}, "
                               f"different from other tensors on {first.device} (when checking argument in method "
                               f"wrapper_CUDA_{method})")


def same_device(*tensors):
    """The arrays of ``tensors`` on one device, as PyTorch's TensorIterator takes them: a 0-d CPU tensor joins the
    device of the others (a "CPU scalar"); the device is that of the first tensor that is not one.

    Raises:
        RuntimeError: tensors on two devices, with PyTorch's message.
    """
    arrays = [t._data for t in tensors]
    main = next((t for t, x in zip(tensors, arrays) if x.ndim or x.__class__ is not _ndarray), tensors[0])
    kind = main._data.__class__
    for i, (t, x) in enumerate(zip(tensors, arrays)):
        if x.__class__ is not kind:
            if x.ndim or x.__class__ is not _ndarray:
                raise _device_error(main, t)
            arrays[i] = backend_of(main._data).asarray(x)
    return arrays


def align(a, b, np_dtype=None):
    """The arrays of tensors ``a`` and ``b`` in their common dtype (``np_dtype`` if given) and device.

    Raises:
        RuntimeError: tensors on two devices (a 0-d CPU tensor may join the other's), PyTorch's message.
    """
    x, y = a._data, b._data
    if x.__class__ is not y.__class__:
        if x.ndim == 0 and x.__class__ is _ndarray:
            x = backend_of(y).asarray(x)
        elif y.ndim == 0 and y.__class__ is _ndarray:
            y = backend_of(x).asarray(y)
        else:
            raise _device_error(a, b)
    if np_dtype is None:
        np_dtype = dtypes.result_type(a, b).numpy_dtype
    return x.astype(np_dtype, copy=False), y.astype(np_dtype, copy=False)


def _operands(name, a, b):
    """``(x, y, other)`` for ``a <op> b``: the arrays in their common dtype and device, and ``b`` or NUMBER.

    Raises:
        TypeError: ``b`` is neither a tensor nor a number (PyTorch's message).
    """
    x = a._data
    if isinstance(b, Tensor):
        y = b._data
        if x.shape != y.shape:
            broadcast_shape(x.shape, y.shape)    # raises PyTorch's error when they do not broadcast
        if x.dtype is not y.dtype or x.__class__ is not y.__class__:
            x, y = align(a, b)
        return x, y, b
    if b.__class__ is float and x.dtype.kind == "f":        # the usual case: float tensor <op> Python float
        return x, x.dtype.type(b), NUMBER
    if not is_number(b):
        raise _type_error(name, b)
    dt = number_dtype(x.dtype, b)
    return x.astype(dt, copy=False), make_scalar(b, dt), NUMBER


def binary(op, name, a, b, params=None):
    """``op`` applied to tensor ``a`` and tensor-or-number ``b`` with broadcasting and promotion.

    A Python number ``b`` becomes a 0-d array operand whose graph edge is ``(None, 0)`` (PyTorch's
    "wrapped number"), as for ``w + 1``; for an op with a ``scalar_op`` it is that op's option instead.
    """
    x = a._data
    if b.__class__ is Tensor or isinstance(b, Tensor):     # (_operands for the usual case, inlined: speed)
        y, other = b._data, b
        if x.shape != y.shape:
            broadcast_shape(x.shape, y.shape)
        if x.dtype is not y.dtype or x.__class__ is not y.__class__:
            if x.dtype is _F16 and y.ndim == 0 and op in _OPMATH and x.ndim and y.__class__ is x.__class__ is _ndarray:
                return _half_with_scalar(op, a, b, params)
            x, y = align(a, b)
    elif op.scalar_op is not None:
        return binary_scalar(op.scalar_op, name, a, b, params)
    elif b.__class__ is float and x.dtype.kind == "f":          # the usual float tensor <op> Python float
        if x.dtype is _F16 and op in _OPMATH and x.__class__ is _ndarray:
            return _half_with_scalar(op, a, b, params)
        y, other = x.dtype.type(b), NUMBER
    elif x.dtype is _F16 and op in _OPMATH and is_number(b) and b.__class__ is not bool and x.__class__ is _ndarray:
        if b.__class__ is int:
            make_scalar(b, x.dtype)              # a Python int too big for PyTorch's Scalar raises its error
        return _half_with_scalar(op, a, b, params)
    else:
        x, y, other = _operands(name, a, b)
    if op.int_to_float and x.dtype.kind != "f":
        # each operand goes to the default float from its own dtype (PyTorch's promote_integer_inputs_to_float):
        # int8 / a 0-d int64 300 divides by 300., not by 300 wrapped to int8; uint8 / -1 divides by -1.0
        f = _default_float()
        x = a._data.astype(f) if a._data.__class__ is x.__class__ else x.astype(f)
        y = f.type(b) if other is NUMBER else b._data.astype(f) if b._data.__class__ is y.__class__ else y.astype(f)
    ufunc = op.ufunc
    maybe_recorded = state.enabled and (a._requires_grad or other._requires_grad or a._base is not None
                                        or other._base is not None)
    if ufunc is not None and not params and x.__class__ is _ndarray and not maybe_recorded:
        out = ufunc(x, y)                    # the fast path: nothing to record, one NumPy call
        if out.ndim > 1:
            out = elementwise_result(out, (x, y))
        t = hooks.new(Tensor)
        t._data = out if out.__class__ is _ndarray else as_array(out)
        return t
    if maybe_recorded and a._base is None and other._base is None and op.node_name is not None:
        r = record_node(op, (a, other), (x, y), params)          # (what record() would decide)
    else:
        r = record(op, (a, other), (x, y), params)
    if other is NUMBER and r._grad_fn is not None:
        r._grad_fn._wrapped_other = b        # grad_fn._saved_other shows it as PyTorch does
    return r


_OPMATH = set()     # the ops whose PyTorch kernel has the "reduced float with a scalar" path (* and /)


def opmath_scalar(*ops):
    """Mark ``ops`` as computing ``float16 tensor <op> 0-d operand`` as PyTorch's CPU kernels do (``mul_kernel``,
    ``div_true_kernel``: ``iter.is_scalar(2)`` and a reduced floating dtype): the 0-d operand, a Python number or a
    0-d tensor of another dtype, is read as a float32 number (not rounded to float16 first), the operation runs in
    float32 and its result is rounded to float16 once."""
    _OPMATH.update(ops)


def _half_with_scalar(op, a, b, params):
    """``a <op> b`` for a float16 tensor ``a`` and a 0-d operand ``b`` of another type (see ``opmath_scalar``).  The
    node is the op's own; its saved operand is the float32 number, so backward multiplies in float32 too."""
    if isinstance(b, Tensor):
        y, other = b._data.astype(np.float32), b
    else:
        y, other = np.asarray(b, np.float32), NUMBER
    r = record(op, (a, other), (a._data.astype(np.float32), y), params)
    r._data = r._data.astype(_F16)
    if other is NUMBER and r._grad_fn is not None:
        r._grad_fn._wrapped_other = b
    return r


def binary_scalar(op, name, a, number, params=None):
    """``op`` applied to tensor ``a`` and a Python ``number`` given to forward as ``other=``: one graph edge.

    For the operations whose PyTorch node has a Scalar overload (``RemainderBackward0``, ...).
    """
    x, y, _ = _operands(name, a, number)
    if op.int_to_float and x.dtype.kind != "f":
        f = _default_float()
        x, y = x.astype(f), f.type(number)           # the number as it is, not wrapped to x's dtype
    return record(op, (a,), (x,), dict(params or (), other=y))


ELISION_BYTES = 256 * 1024     # as NumPy: below this, allocating a new array costs less than checking


def into_temporary(op, a, b):
    """``a <op> b`` written into ``a``'s own memory, for a temporary ``a`` (see ``_methods.py``); None if unsafe.

    NumPy's *temporary elision*: in ``(a * b + a).sum()`` the product is needed only to compute the
    sum, so the sum can be written over it instead of into a third array of the same size.  That
    halves the peak memory of the expression, and saves allocating (and first touching) the new
    memory.  The caller has checked that no name refers to the tensor ``a``; here its array must
    belong to it alone (one reference, not a view of other memory), be large enough for the saving
    to matter, and the result must be exactly what ``binary`` would give: same dtype, shape and
    layout, nothing to record.
    """
    if sys.getrefcount(a._data) != 2 or a._base is not None:    # 2: a's own reference and getrefcount's
        return None
    x = a._data
    # (float16 is left out: its arithmetic with numbers runs in float32, see arithmetic.mul)
    if not (x.__class__ is _ndarray and x.nbytes >= ELISION_BYTES and x.dtype.kind == "f" and x.dtype != _F16
            and x.base is None and x.flags.writeable and x.flags.c_contiguous) or op.ufunc is None:
        return None
    if isinstance(b, Tensor):
        y = b._data
        if not (y.dtype is x.dtype and y.__class__ is _ndarray and (y.shape == x.shape or y.ndim == 0)
                and y.flags.c_contiguous):
            return None
        other = b
    elif b.__class__ is float or b.__class__ is int:
        y = make_scalar(b, x.dtype)
        other = NUMBER
    else:
        return None
    if state.enabled and (a._requires_grad or other._requires_grad or other._base is not None):
        return None
    op.ufunc(x, y, out=x)
    return wrap(x if x.ndim < 2 else elementwise_result(x, (x, y)))


_REFUSED = {}      # op -> {dtype kind: (exception class, message)}: what PyTorch's kernel refuses


def refuse(op, kind, error, message):
    """Make ``op`` (and its in-place form) raise ``error(message)`` for tensors of the NumPy dtype ``kind``
    (``"b"``: bool), as PyTorch's kernel does (``-bool_tensor``, ``relu`` of bools)."""
    _REFUSED.setdefault(op, {})[kind] = (error, message)


def _check_refused(op, t):
    refused = _REFUSED.get(op)
    if refused is not None and t._data.dtype.kind in refused:
        error, message = refused[t._data.dtype.kind]
        raise error(message)


def unary(op, a, params=None):
    """``op`` applied to tensor ``a`` (see ``core.dispatch.unary``), after the dtype checks of ``refuse``."""
    _check_refused(op, a)
    return _core_unary(op, a, params)


def mark_output(t, node, nr=0):
    """Make ``node`` (output ``nr``) the history of ``t``."""
    t._grad_fn, t._output_nr, t._requires_grad = node, nr, True


def cast_error(result_dtype, out_dtype):
    return RuntimeError(f"result type {dtypes.from_numpy(result_dtype).legacy_name[:-6]} can't be cast to the "
                        f"desired output type {dtypes.from_numpy(out_dtype).legacy_name[:-6]}")


def inplace(op, name, t, other=None, params=None, unary_op=False):
    """``t.<op>_(other)``: compute the result and write it into ``t``'s memory; return ``t``.

    ``other`` may be a tensor, a Python number or, with ``unary_op=True``, absent.  See
    ``core.dispatch.inplace``; here: the fast path of ``p -= lr * p.grad`` under no_grad, PyTorch's
    message for an operand of the wrong type, and the partial-overlap check.

    Raises:
        RuntimeError: an in-place op on a leaf that requires grad (or a view of one); a result dtype that
            cannot be cast into ``t``'s dtype; a result shape that ``t`` cannot hold; operands that
            partly share memory — all with PyTorch's messages.
        TypeError: ``other`` neither a tensor nor a number.
    """
    if unary_op:
        _check_refused(op, t)
        return _core_inplace(op, t, params=params)
    x = t._data
    if isinstance(other, Tensor):
        y = other._data
        # The SGD update `p -= lr * p.grad` under no_grad: one ufunc writing into p's memory, where none
        # of the checks could fail or change anything (nothing to record, one CPU dtype, one shape, no
        # stride 0, disjoint memory).
        if (x.dtype is y.dtype and x.__class__ is _ndarray and y.__class__ is _ndarray and x.shape == y.shape
                and op.ufunc is not None and not params and op.result_dtype is None
                and (not op.int_to_float or x.dtype.kind == "f") and 0 not in x.strides
                and not (state.enabled and (t._requires_grad or other._requires_grad
                                            or t._base is not None or other._base is not None))
                and not np.may_share_memory(x, y)):
            op.ufunc(x, y, out=x)
            t._bump()
            return t
        if t._requires_grad:                 # autograd's in-place check before the kernel's overlap check
            check_inplace(t, recording(t, other), overlap=False)
        check_no_partial_overlap(x, y)
    elif not is_number(other):
        raise _type_error(name, other)
    elif other.__class__ is int:
        make_scalar(other, x.dtype)          # a Python int too big for PyTorch's Scalar raises its error
    return _core_inplace(op, t, other, params)


def check_out_grad(name, out, inputs):
    """PyTorch records nothing through ``out=``: an error when grad mode is on and something requires grad."""
    if state.enabled and (out._requires_grad or any(isinstance(t, Tensor) and t._requires_grad
                                                    for t in inputs)):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")


def resize_out(out, shape, stacklevel=3):
    """Give ``out`` the result's shape (new memory), warning as PyTorch does when it had elements."""
    if out._data.size:
        warnings.warn(f"An output with one or more elements was resized since it had shape "
                      f"[{', '.join(map(str, out._data.shape))}], which does not match the required output shape "
                      f"[{', '.join(map(str, shape))}]. This behavior is deprecated, and in a future PyTorch release "
                      "outputs will not be resized unless they have zero elements. You can explicitly reuse an out "
                      "tensor t by resizing it, inplace, to zero elements with t.resize_(0). (Triggered internally "
                      "at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)", UserWarning,
                      stacklevel=stacklevel)
    out._data = backend_of(out._data).empty(shape, dtype=out._data.dtype)
    out._storage = None


def write_out(out, result, name=None, inputs=()):
    """Write a result into a user-given ``out=`` tensor, as ``torch.add(a, b, out=c)`` does.

    ``out`` is resized to fit (with PyTorch's deprecation warning unless it
    was empty).  With ``name``: PyTorch's error when autograd would have to
    record through ``out=`` (an input or ``out`` requires grad).
    """
    if name is not None:
        check_out_grad(name, out, inputs)
    if not dtypes.can_cast(result.dtype, out.dtype):
        raise cast_error(result._data.dtype, out._data.dtype)
    if out._data.shape != result._data.shape:
        resize_out(out, result._data.shape, stacklevel=4)
    out._data[...] = result._data
    out._bump()
    return out
