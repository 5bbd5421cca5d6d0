"""The one place where every operation is dispatched.

For each call of an operation this module

1. turns its operands into backend arrays: Python numbers become scalars of
   the right dtype, and tensors of different dtypes are cast to the dtype
   PyTorch's promotion rules give (``course_lib/_dtype.py``);
2. checks that tensors live on the same device;
3. calls the operation's ``forward`` on the arrays;
4. when grad mode is on and an input requires grad, makes the graph node
   (the ``grad_fn`` of the result) with one edge per input;
5. for in-place forms (``add_``, ``+=``, ``x[...] = v``), writes the result
   into the tensor's own memory, bumps its version counter and, if a graph
   is recorded, moves the tensor's history to the new node.

Ops themselves (``arithmetic.py``, ``math.py``, ``reduction.py``, ...) only
describe forward and backward on arrays.
"""

import sys
import weakref

import numpy as np

from .. import _dtype
from .._broadcast import broadcast_shape
from .._device import backend_of
from .._strides import check_no_partial_overlap, elementwise_result
from .._tensor import Tensor, wrap
from ..autograd import grad_mode
from ..autograd.function import ERR_FREED, NO_CONTEXT, Node, accumulator_of

__all__ = ["binary", "binary_scalar", "unary", "record", "edge_of", "mark_output", "inplace", "inplace_record",
           "make_view", "current_grad_fn", "rebase_history", "check_inplace", "recording"]

_ndarray = np.ndarray
_generic = np.generic
_new = object.__new__
_INT64 = np.dtype(np.int64)
_BOOL = np.dtype(np.bool_)
_F16 = np.dtype(np.float16)


def as_array(value):
    """Make sure a backend result is an array, not a NumPy scalar (NumPy returns those for 0-d results)."""
    if value.__class__ is _ndarray:
        return value
    if isinstance(value, _generic):
        return np.asarray(value)
    return value


def _default_float():
    return _dtype._default[0].numpy_dtype


# ---------------------------------------------------------------------------
# Operands
# ---------------------------------------------------------------------------

def is_number(x):
    return isinstance(x, (int, float)) or isinstance(x, _generic) and x.ndim == 0


def scalar_dtype(x_dtype, value):
    """NumPy dtype of ``tensor <op> value`` for a Python number ``value`` (PyTorch's rules)."""
    kind = x_dtype.kind
    if isinstance(value, bool) or isinstance(value, np.bool_):
        return x_dtype
    if isinstance(value, (int, np.integer)):
        return _INT64 if kind == "b" else x_dtype
    return x_dtype if kind == "f" else _default_float()


def make_scalar(value, np_dtype):
    """A NumPy scalar of ``np_dtype`` holding a Python number; integers wrap around like C casts.

    Raises:
        OverflowError: a Python int outside [-2**63, 2**64), as PyTorch's Scalar conversion.
    """
    if value.__class__ is int and not -2 ** 63 <= value < 2 ** 64:
        raise OverflowError("int too big to convert" if value > 0 else "can't convert negative int to unsigned")
    try:
        return np_dtype.type(value)
    except (OverflowError, ValueError):
        return np.array(value).astype(np_dtype)[()]


def _type_error(name, value, position=2, arg="other"):
    from .._arguments import type_name
    return TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {type_name(value)}")


def device_mismatch(a, b):
    """PyTorch's error for mixing devices, unless one side is a 0-d CPU tensor (which may mix)."""
    ka, kb = a._data, b._data
    if ka.ndim == 0 and ka.__class__ is _ndarray:
        return False
    if kb.ndim == 0 and kb.__class__ is _ndarray:
        return False
    return True


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


def align(a, b, np_dtype=None):
    """The arrays of tensors ``a`` and ``b`` in their common dtype (``np_dtype`` if given) and device."""
    x, y = a._data, b._data
    if x.__class__ is not y.__class__:
        if device_mismatch(a, b):
            raise _device_error(a, b)
        # a 0-d CPU tensor joins the other tensor's device
        if x.ndim == 0 and x.__class__ is _ndarray:
            x = backend_of(y).asarray(x)
        else:
            y = backend_of(x).asarray(y)
    if np_dtype is None:
        np_dtype = _dtype.result_type(a, b).numpy_dtype
    if x.dtype != np_dtype:
        x = x.astype(np_dtype)
    if y.dtype != np_dtype:
        y = y.astype(np_dtype)
    return x, y


def operands(name, a, b):
    """``(x, y, result numpy dtype)`` for a binary operation on tensor ``a`` and tensor-or-number ``b``.

    Raises:
        TypeError: ``b`` is neither a tensor nor a number (PyTorch's message).
    """
    x = a._data
    if isinstance(b, Tensor):
        y = b._data
        if x.shape != y.shape:
            broadcast_shape(x.shape, y.shape)    # raises PyTorch's error when they do not broadcast
        if x.dtype is y.dtype and x.__class__ is y.__class__:
            return x, y, x.dtype
        x, y = align(a, b)
        return x, y, x.dtype
    if isinstance(b, (int, float)) or isinstance(b, _generic):
        dt = scalar_dtype(x.dtype, b)
        if x.dtype != dt:
            x = x.astype(dt)
        return x, make_scalar(b, dt), dt
    raise _type_error(name, b)


# ---------------------------------------------------------------------------
# Graph recording
# ---------------------------------------------------------------------------

def current_grad_fn(t):
    """``t.grad_fn``: for a view whose memory was modified in place since, a regenerated AsStridedBackward0.

    PyTorch does the same: a view's history must go through the base's new
    history (CopySlices, or the in-place op on the base).

    Raises:
        RuntimeError: for views made in no_grad mode or by a multi-output
            function, whose base was modified in place (PyTorch's messages).
    """
    fn = t._grad_fn
    base = t._base
    if base is None or fn is None and not base._requires_grad:
        return fn
    version = t._version_ref[0]
    if t._view_version == version:
        return fn
    creation = t._creation
    if creation is not None:
        raise RuntimeError(_creation_message(t, creation, indirect=True))
    from .views import AsStrided
    node = AsStrided.Node()
    node.needs_input_grad = (True,)
    node.geometry = view_positions(base, t)
    node.base_meta = (base._data.shape, base._data.dtype)
    node.next_functions = (edge_of(base),)
    node._input_meta = (input_meta(base),)
    t._grad_fn = node
    t._output_nr = 0
    t._requires_grad = True
    t._view_version = version
    return node


def edge_of(t):
    """The ``(node, input_nr)`` edge pointing at tensor ``t``'s history; ``(None, 0)`` if none."""
    fn = t._grad_fn if t._base is None else current_grad_fn(t)
    if fn is not None:
        return (fn, t._output_nr)
    if t._requires_grad and t._creation != "no_grad":    # a view made in no_grad mode has no history
        return (accumulator_of(t), 0)
    return (None, 0)


def input_meta(t):
    """What the engine needs to fit a gradient to input ``t``: (shape, numpy dtype, array type)."""
    a = t._data
    return (a.shape, a.dtype, a.__class__)


def mark_output(t, node, nr=0):
    t._grad_fn = node
    t._output_nr = nr
    t._requires_grad = True


def _view_requires_grad(t):
    """A view of a tensor that gained a history after the view was made requires grad (as in PyTorch)."""
    return t._base._requires_grad and current_grad_fn(t) is not None


def record(op, inputs, arrays, params=None):
    """Run ``op.forward`` on ``arrays`` and, if needed, record a node; return the result tensor(s).

    ``inputs`` holds, per array, the Tensor it came from.  A node is
    recorded when grad mode is on and an input requires grad.  Outputs of
    integer or bool dtype never require grad.
    """
    if grad_mode.enabled and op.node_name is not None:
        for t in inputs:
            if t._requires_grad or t._base is not None and _view_requires_grad(t):
                return _record_node(op, inputs, arrays, params)
    out = op.forward(NO_CONTEXT, *arrays, **params) if params else op.forward(NO_CONTEXT, *arrays)
    if out.__class__ is tuple:
        return tuple(wrap(as_array(o)) for o in out)
    if op.elementwise and out.ndim > 1:
        out = elementwise_result(out, arrays if op.iterator_operands is None else op.iterator_operands(arrays, params))
    t = _new(Tensor)
    t._data = out if out.__class__ is _ndarray else as_array(out)
    return t


def _record_node(op, inputs, arrays, params):
    node = op.Node()
    # Per input: does it need a gradient, the edge to its history, its metadata (shape, dtype, array
    # type) for the engine.  Most ops have one or two inputs: their tuples are built directly, which
    # costs a third of growing three lists and converting them.
    if len(inputs) == 1:
        t = inputs[0]
        if t._requires_grad:
            a = t._data
            node.needs_input_grad = (True,)
            node.next_functions = (edge_of(t),)
            node._input_meta = ((a.shape, a.dtype, a.__class__),)
        else:
            node.needs_input_grad, node.next_functions, node._input_meta = (False,), (_NO_EDGE,), (None,)
    elif len(inputs) == 2:
        t, u = inputs
        nt, nu = t._requires_grad, u._requires_grad
        a, b = t._data, u._data if nu else None
        node.needs_input_grad = (nt, nu)
        node.next_functions = (edge_of(t) if nt else _NO_EDGE, edge_of(u) if nu else _NO_EDGE)
        node._input_meta = ((a.shape, a.dtype, a.__class__) if nt else None,
                            (b.shape, b.dtype, b.__class__) if nu else None)
    else:
        needs, edges, metas = [], [], []
        for t in inputs:
            if t._requires_grad:
                needs.append(True)
                edges.append(edge_of(t))
                a = t._data
                metas.append((a.shape, a.dtype, a.__class__))
            else:
                needs.append(False)
                edges.append(_NO_EDGE)
                metas.append(None)
        node.needs_input_grad = tuple(needs)
        node.next_functions = tuple(edges)
        node._input_meta = tuple(metas)
    out = op.forward(node, *arrays, **params) if params else op.forward(node, *arrays)
    if op.elementwise and out.ndim > 1:
        out = _laid_out(node, out, arrays if op.iterator_operands is None else op.iterator_operands(arrays, params))
    if out.__class__ is not tuple:
        r = _new(Tensor)
        r._data = out if out.__class__ is _ndarray else _array_output(node, out)
        if r._data.dtype.kind == "f":
            r._grad_fn = node
            r._requires_grad = True
        if node._saved:
            _bind_saved(node, inputs, arrays, (r,))
        return r
    results = []
    for i, o in enumerate(out):
        r = _new(Tensor)
        r._data = o if o.__class__ is _ndarray else _array_output(node, o)
        if r._data.dtype.kind == "f":
            r._grad_fn = node
            r._output_nr = i
            r._requires_grad = True
        results.append(r)
    node._n_outputs = len(results)
    node._output_meta = tuple((r._data.shape, r._data.dtype) for r in results)
    if node._saved:
        _bind_saved(node, inputs, arrays, results)
    return tuple(results)


_NO_EDGE = (None, 0)


def _array_output(node, out):
    """A NumPy scalar result as a 0-d array; if forward saved the scalar, it saves the array instead."""
    a = as_array(out)
    if a is not out and node._saved:
        node._saved = tuple(a if s is out else s for s in node._saved)
    return a


def _laid_out(node, out, arrays):
    """An elementwise result laid out as PyTorch's (``elementwise_result``); if forward saved it, the copy is saved."""
    a = elementwise_result(out, arrays)
    if a is not out and node._saved:
        node._saved = tuple(a if s is out else s for s in node._saved)
    return a


def _bind_saved(node, inputs, arrays, outputs):
    """Note the version counter of every tensor whose array the forward saved.

    One check per saved array: ``(index in _saved, version counter, version now, the input tensor, None)``
    or, for an output, ``(..., None, output number)``.  They are made in the order in which PyTorch's
    node unpacks (and checks) its saved values, so that the error names the same tensor.
    """
    saved = node._saved
    checks = []
    for i in _UNPACK_ORDER.get((node.op, len(saved))) or _unpack_order(node.op, len(saved)):
        s = saved[i]
        if s is None or s.__class__ is not _ndarray and isinstance(s, _generic):
            continue
        for t, a in zip(inputs, arrays):
            if a is s and t is not NUMBER:
                counter = t._version_ref or t._version_counter()
                if counter is grad_mode.INFERENCE_VERSION:
                    raise RuntimeError(grad_mode.INFERENCE_SAVED_ERROR)
                checks.append((i, counter, counter[0], t, None))
                break
        else:
            for nr, o in enumerate(outputs):
                if o._data is s:
                    counter = o._version_counter()
                    checks.append((i, counter, counter[0], None, nr))
                    break
    if checks:
        node._checks = tuple(checks)


_UNPACK_ORDER = {}       # (op, number of saved values) -> their indices in PyTorch's unpack order


def _unpack_order(op, n):
    """PyTorch's nodes unpack their saved values in the alphabetical order of their names (``mat2`` before
    ``self``); unnamed ones first.  Computed once per op (and number of saved values)."""
    names = op.saved_names
    order = _UNPACK_ORDER[op, n] = tuple(sorted(range(n), key=lambda i: names[i] if i < len(names) else ""))
    return order


def _in_unpack_order(node, checks):
    """PyTorch's nodes unpack (and check) their saved values in the alphabetical order of their names
    (``mat2`` before ``self``): so the error names the same tensor when several were changed."""
    names = getattr(node.op, "saved_names", ())
    if len(checks) > 1 and names:
        checks = sorted(checks, key=lambda c: names[c[0]] if c[0] < len(names) else "")
    return tuple(checks)


# ---------------------------------------------------------------------------
# Out-of-place entry points
# ---------------------------------------------------------------------------

def binary(op, name, a, b, params=None):
    """``op`` applied to tensor ``a`` and tensor ``b`` with broadcasting and promotion.

    A Python number ``b`` becomes a 0-d array operand whose graph edge is
    ``(None, 0)`` (PyTorch's "wrapped number"), as for ``w + 1``.
    """
    x = a._data
    if isinstance(b, Tensor):                 # (operands(), inlined for the usual case)
        y = b._data
        if x.shape != y.shape:
            broadcast_shape(x.shape, y.shape)    # raises PyTorch's error when they do not broadcast
        if x.dtype is not y.dtype or x.__class__ is not y.__class__:
            x, y = align(a, b)
        other = b
    elif op.scalar_op is not None:
        return binary_scalar(op.scalar_op, name, a, b, params)
    elif b.__class__ is float and x.dtype.kind == "f":     # float tensor <op> Python float (operands(), inlined)
        y = x.dtype.type(b)
        other = NUMBER
    else:
        x, y, _ = operands(name, a, b)
        other = NUMBER
    if op.int_to_float and x.dtype.kind != "f":
        f = _default_float()
        x = x.astype(f)
        # a Python number becomes a float as it is (uint8 / -1 divides by -1.0, not by 255), as in PyTorch
        y = y.astype(f) if other is not NUMBER else f.type(b)
    # Fast path for the most common call, + - * / with nothing to record: the op's NumPy ufunc and
    # one new Tensor (the general path below costs three more Python calls).
    ufunc = op.inplace_ufunc
    if (ufunc is not None and not params and x.__class__ is _ndarray
            and not (grad_mode.enabled and (a._requires_grad or other._requires_grad
                                            or a._base is not None or other._base is not None))):
        out = ufunc(x, y)
        if op.elementwise and out.ndim > 1:
            out = elementwise_result(out, (x, y))
        t = _new(Tensor)
        t._data = out if out.__class__ is _ndarray else as_array(out)
        return t
    if (grad_mode.enabled and op.node_name is not None and (a._requires_grad or other._requires_grad)
            and a._base is None and other._base is None):
        r = _record_node(op, (a, other), (x, y), params)          # (what record() would decide)
        if other is NUMBER and r._grad_fn is not None:
            r._grad_fn._wrapped_other = b                          # node._saved_other shows it as PyTorch does
        return r
    return record(op, (a, other), (x, y), params)


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
            and x.base is None and x.flags.writeable and x.flags.c_contiguous) or op.inplace_ufunc is None:
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
    if grad_mode.enabled and (a._requires_grad or other._requires_grad or other._base is not None):
        return None
    op.inplace_ufunc(x, y, out=x)
    t = _new(Tensor)
    t._data = x if x.ndim < 2 else elementwise_result(x, (x, y))
    return t


ELISION_BYTES = 256 * 1024     # as NumPy: below this, allocating a new array costs less than checking


def binary_scalar(op, name, a, number, params=None):
    """``op`` applied to tensor ``a`` and a Python ``number`` given to forward as ``other=``: one graph edge.

    For the operations whose PyTorch node has a Scalar overload
    (``RemainderBackward0``, ``MaskedFillBackward0``, ...).
    """
    x, y, _ = operands(name, a, number)
    if op.int_to_float and x.dtype.kind != "f":
        f = _default_float()
        x, y = x.astype(f), f.type(number)           # the number as it is, not wrapped to x's dtype
    return record(op, (a,), (x,), dict(params or (), other=y))


def unary(op, a, params=None):
    """``op`` applied to tensor ``a`` (integer inputs become floats for ops like ``exp``)."""
    x = a._data
    if op.int_to_float and x.dtype.kind != "f":
        x = x.astype(_default_float())
    return record(op, (a,), (x,), params)


class _Number:
    """The stand-in input for a Python number operand: never requires grad, has no history."""

    _requires_grad = False
    _base = None
    _grad_fn = None


NUMBER = _Number()


# ---------------------------------------------------------------------------
# In place
# ---------------------------------------------------------------------------

LEAF_ERROR = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_ERROR = "a view of a leaf Variable that requires grad is being used in an in-place operation."


def recording(*tensors):
    """True when an operation on ``tensors`` records a node (grad mode on, some tensor requires grad)."""
    if not grad_mode.enabled:
        return False
    for t in tensors:
        if t is not None and (t._requires_grad or t._base is not None and _view_requires_grad(t)):
            return True
    return False


def _creation_message(t, creation, indirect=False):
    what = ("its base or another view of its base has been modified inplace" if indirect
            else "is being modified inplace")
    if creation == "no_grad":
        what = ("its base or another view of its base has been modified inplace with grad mode enabled"
                if indirect else "is being modified inplace with grad mode enabled")
        return (f"A view was created in no_grad mode and {what}. Given that this use case is ambiguous and "
                "error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace "
                "either both inside the no_grad block (if you don't want the inplace to be tracked) or both "
                "outside (if you want the inplace to be tracked).")
    return (f"Output {t._output_nr} of {creation} is a view and {what}. This view is the output of a function "
            "that returns multiple views. Such functions do not allow the output views to be modified inplace. "
            "You should replace the inplace operation by an out-of-place one.")


def check_inplace(t, requires_grad, overlap=True):
    """Raise PyTorch's error when an in-place write to ``t`` would break autograd or alias itself.

    ``requires_grad``: whether the in-place operation will be recorded (some
    operand requires grad and grad mode is on).  ``overlap=False`` for the
    writes PyTorch allows on an expanded tensor (``fill_``, ``zero_``,
    ``index_put_``).

    Raises:
        RuntimeError: in-place on a leaf that requires grad or on a view of
            one, on a view made in no_grad mode or by a multi-output
            function, or on an expanded tensor (PyTorch's messages).
    """
    if requires_grad:
        base = t._base
        if base is not None:
            if t._creation is not None:
                raise RuntimeError(_creation_message(t, t._creation))
            if t._requires_grad and base._grad_fn is None:
                raise RuntimeError(VIEW_OF_LEAF_ERROR)
        elif t._requires_grad and t._grad_fn is None:
            raise RuntimeError(LEAF_ERROR)
    x = t._data
    if overlap and x.size > 1 and 0 in x.strides:
        for n, s in zip(x.shape, x.strides):
            if s == 0 and n > 1:
                raise RuntimeError(
                    "unsupported operation: more than one element of the written-to tensor refers to a single "
                    "memory location. Please clone() the tensor before performing the operation.")


def cast_error(result_dtype, out_dtype):
    return RuntimeError(f"result type {_dtype._BY_NUMPY[np.dtype(result_dtype)]._short_name} can't be cast "
                        f"to the desired output type {_dtype._BY_NUMPY[np.dtype(out_dtype)]._short_name}")


def inplace(op, name, t, other=None, params=None, unary_op=False):
    """``t.<op>_(other)``: compute the result and write it into ``t``'s memory; return ``t``.

    ``other`` may be a tensor, a Python number (a wrapped-number edge, as
    for ``binary``) or, with ``unary_op=True``, absent.

    Raises:
        RuntimeError: an in-place op on a leaf that requires grad (or a view
            of one); a result dtype that cannot be cast into ``t``'s dtype; a
            result shape that ``t`` cannot hold — all with PyTorch's messages.
    """
    x = t._data
    if not unary_op and isinstance(other, Tensor):
        y = other._data
        # Fast path, the SGD update `p -= lr * p.grad` under no_grad: one ufunc writing into p's memory.
        # It applies when none of the checks below could fail or change anything: nothing to record,
        # one CPU dtype (not an integer tensor for / ), one shape, no stride 0, disjoint memory.
        if (x.dtype is y.dtype and x.__class__ is _ndarray and y.__class__ is _ndarray and x.shape == y.shape
                and op.inplace_ufunc is not None and not params and op.result_dtype is None
                and (not op.int_to_float or x.dtype.kind == "f") and 0 not in x.strides
                and not (grad_mode.enabled and (t._requires_grad or other._requires_grad
                                                or t._base is not None or other._base is not None))
                and not np.may_share_memory(x, y)):
            op.inplace_ufunc(x, y, out=x)
            t._bump()
            return t
    if unary_op:
        sources = (t,)
    elif isinstance(other, Tensor):
        sources = (t, other)
    elif is_number(other):
        if op.scalar_op is not None:
            op, sources = op.scalar_op, (t,)
        else:
            sources = (t, NUMBER)
    else:
        raise _type_error(name, other)
    rec = op.node_name is not None and recording(*sources)
    check_inplace(t, rec)
    if isinstance(other, Tensor):
        check_no_partial_overlap(x, other._data)
    if unary_op:
        xs = (x.astype(_default_float()) if op.int_to_float and x.dtype.kind != "f" else x,)
        result_dt = xs[0].dtype
    else:
        xa, ya, result_dt = operands(name, t, other)
        if op.int_to_float and result_dt.kind != "f":
            result_dt = _default_float()
            xa = xa.astype(result_dt)
            ya = ya.astype(result_dt)
        xs = (xa, ya)
        if len(sources) == 1:
            xs, params = (xa,), dict(params or (), other=ya)
        if ya.__class__ is not result_dt.type and ya.shape != x.shape:
            shape = broadcast_shape(x.shape, ya.shape)
            if shape != x.shape:
                raise RuntimeError(f"output with shape [{', '.join(map(str, x.shape))}] doesn't match the "
                                   f"broadcast shape [{', '.join(map(str, shape))}]")
    if op.result_dtype is not None:
        result_dt = op.result_dtype
    if not _dtype.can_cast(_dtype._BY_NUMPY[np.dtype(result_dt)], _dtype._BY_NUMPY[x.dtype]):
        raise cast_error(result_dt, x.dtype)
    if rec:
        return inplace_record(op, t, sources, xs, params)
    ufunc = op.inplace_ufunc
    if ufunc is not None and not params and xs[0] is x and (len(xs) == 1 or xs[1].dtype == x.dtype):
        ufunc(*xs, out=x)          # no temporary: e.g. p -= lr * grad under no_grad (not with alpha=...)
    else:
        x[...] = op.forward(NO_CONTEXT, *xs, **params) if params else op.forward(NO_CONTEXT, *xs)
    t._bump()
    return t


def inplace_record(op, t, sources, xs, params=None):
    """The recorded in-place op: run forward, write into ``t``, make ``op``'s node ``t``'s history.

    ``sources[0]`` is ``t`` itself and ``xs`` the arrays of ``sources``.
    What forward saved from ``t``'s memory is copied first (the write would
    change it; PyTorch saves ``self.clone()`` too); a saved *result* is
    ``t`` after the write, checked against later in-place changes.  Call
    ``check_inplace`` first.
    """
    x = t._data
    node = op.Node()
    node.needs_input_grad = needs = tuple(s._requires_grad for s in sources)
    out = op.forward(node, *xs, **params) if params else op.forward(node, *xs)
    node.next_functions = tuple(edge_of(s) for s in sources)
    node._input_meta = tuple(input_meta(s) if n else None for s, n in zip(sources, needs))
    saved = node._saved
    if saved:
        node._saved = tuple(s.copy() if s is x else x if s is out else s for s in saved)
        _bind_saved(node, sources[1:], xs[1:], ())
        if any(a is x for a in xs[1:]):
            _bind_self_operand(node, saved, x, sources, xs)
    x[...] = out
    t._bump()
    rebase_history(t, node)
    if saved and any(s is out for s in saved):
        counter = t._version_ref
        checks = node._checks + tuple((i, counter, counter[0], None, 0) for i, s in enumerate(saved) if s is out)
        node._checks = _in_unpack_order(node, checks)
    return t


def _bind_self_operand(node, saved, x, sources, xs):
    """``y.mul_(y)`` (or ``y.mul_(y.detach())``): the operand is ``y``'s own memory, which the write changes.

    PyTorch saves that operand as the tensor itself, so the backward finds it
    one version newer and raises the in-place error, naming the operand.
    """
    checks = list(node._checks)
    for k in range(1, len(xs)):
        if xs[k] is x:
            other = sources[k]
            counter = other._version_ref or other._version_counter()
            checks.extend((i, counter, counter[0], other, None) for i, s in enumerate(saved) if s is x)
    node._checks = _in_unpack_order(node, tuple(checks))


# ---------------------------------------------------------------------------
# out= arguments
# ---------------------------------------------------------------------------

def check_out_grad(name, out, inputs):
    """PyTorch records nothing through ``out=``: an error when grad mode is on and something requires grad."""
    if grad_mode.enabled and (out._requires_grad or any(isinstance(t, Tensor) and t._requires_grad
                                                        for t in inputs)):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")


def resize_out(out, shape, stacklevel=3):
    """Give ``out`` the result's shape (new memory), warning as PyTorch does when it had elements."""
    if out._data.size:
        import warnings
        warnings.warn(f"An output with one or more elements was resized since it had shape "
                      f"[{', '.join(map(str, out._data.shape))}], which does not match the required output shape "
                      f"[{', '.join(map(str, shape))}]. This behavior is deprecated, and in a future PyTorch release "
                      "outputs will not be resized unless they have zero elements. You can explicitly reuse an out "
                      "tensor t by resizing it, inplace, to zero elements with t.resize_(0). (Triggered internally "
                      "at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)", UserWarning,
                      stacklevel=stacklevel)
    out._data = backend_of(out._data).empty(shape, dtype=out._data.dtype)
    out._storage = None


# ---------------------------------------------------------------------------
# Views and their history
# ---------------------------------------------------------------------------

def make_view(base, array, creation=None):
    """A tensor wrapping ``array``, a view of ``base``'s memory: same storage, same version counter.

    ``creation`` is None, ``"no_grad"`` (made in no_grad mode from a tensor
    that requires grad) or the short name of a multi-output view function
    (``"Unbind"``): PyTorch forbids in-place changes of such views when they
    would be recorded.  A view of such a view inherits it.
    """
    t = _new(Tensor)
    t._data = array
    t._storage = base._storage if base._storage is not None else base._data
    t._version_ref = counter = base._version_counter()
    t._view_version = counter[0]
    if base._base is not None:
        t._base = base._base
        if creation is None:
            creation = base._creation
    else:
        t._base = base
    if creation is not None:
        t._creation = creation
    return t


def _positions(array, origin, itemsize):
    """Element positions of ``array`` counted from the address ``origin``."""
    from .._tensor import _address
    xp = backend_of(array)
    pos = xp.asarray((_address(array) - origin) // itemsize)
    for n, s in zip(array.shape, array.strides):
        pos = pos[..., None] + xp.arange(n) * (s // itemsize)
    return pos


def view_positions(base, view):
    """For each element of ``view``, its index in ``base`` flattened in row-major order.

    Elements of ``view`` outside ``base`` (possible with ``as_strided``) get
    -1: no gradient reaches them.
    """
    from .._tensor import _address
    xb = base._data
    origin = _address(xb)
    item = xb.itemsize
    base_pos = _positions(xb, origin, item).reshape(-1)
    view_pos = _positions(view._data, origin, item)
    xp = backend_of(xb)
    size = int(max(base_pos.max() if base_pos.size else 0, view_pos.max() if view_pos.size else 0)) + 1
    inverse = xp.full(size, -1, dtype=np.int64)
    inverse[base_pos] = xp.arange(base_pos.size)
    return inverse[view_pos]


class CopySlices(Node):
    """History of a base tensor after an in-place op on one of its views.

    Backward: the base's gradient passes unchanged except on the view's
    elements, where the in-place op's backward (``fn``) decides it.  Like
    PyTorch's ``CopySlices``, it can be run once unless the graph is
    retained.
    """

    __module__ = "builtins"           # type() shows <class 'CopySlices'>, as in PyTorch

    def __init__(self, base_edge, base_meta, geometry, fn):
        super().__init__()
        self.geometry = geometry          # flat index in base of each element of the view
        self.fn = fn
        self.next_functions = (base_edge,) + fn.next_functions[1:]
        self._input_meta = (base_meta,) + fn._input_meta[1:]

    def name(self):
        return "torch::autograd::CopySlices"

    def apply(self, grad):
        if self._saved is _FREED_SLICES:
            raise RuntimeError(ERR_FREED)
        result = grad.copy()
        flat = result.reshape(-1)
        res = self.fn.apply(as_array(flat[self.geometry]))
        flat[self.geometry] = 0 if res[0] is None else res[0]
        return (result,) + tuple(res[1:])

    def _release(self):
        self.fn._release()
        self._saved = _FREED_SLICES


_FREED_SLICES = object()


def rebase_history(t, node, nr=0):
    """Make ``node`` the history of ``t`` after an in-place op (CopySlices on the base for a view).

    ``node``'s first input edge must be ``t``'s old history.
    """
    if t._retains_grad:          # retain_grad() follows the tensor to its new history, as in PyTorch
        old = t.grad_fn
        if old is not None and old._retained:
            old._retained.pop(t._output_nr, None)
        node._retained = {nr: weakref.ref(t)}
    base = t._base
    if base is None:
        mark_output(t, node, nr)
        return
    copy = CopySlices(edge_of(base), input_meta(base), view_positions(base, t), node)
    mark_output(base, copy)
    from .views import AsStrided
    v = AsStrided.Node()
    v.needs_input_grad = (True,)
    v.geometry = copy.geometry
    v.base_meta = (base._data.shape, base._data.dtype)
    v.next_functions = ((copy, 0),)
    v._input_meta = (input_meta(base),)
    mark_output(t, v)
    t._view_version = t._version_ref[0]
    if t._retains_grad:
        v._retained, node._retained = node._retained, None
