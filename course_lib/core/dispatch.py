"""Running an operation: tensors in, tensors out, and the graph node recorded on the way.

For every call of an :class:`~course_lib.core.graph.Op`:

1. the operands become backend arrays of one dtype (``dtypes.result_type``); a Python number becomes a
   NumPy scalar, an operand without a graph edge (PyTorch's "wrapped number");
2. the tensors must live on one device (a 0-d CPU tensor may join another device);
3. ``forward`` runs on the arrays;
4. when grad mode is on and an input requires grad, the node is made: one edge per input, the
   version counters of what forward saved noted, the results given ``grad_fn``.

A *view* (``view``) shares its input's memory and version counter.  An *in-place* operation
(``inplace``) writes its result into the tensor's own memory, bumps the version counter, and moves
the tensor's history to the new node; for a view, the base's history becomes a ``CopySlices`` node.

In PyTorch: the generated autograd kernels (``torch/csrc/autograd/generated/VariableType_*.cpp``),
``torch/csrc/autograd/VariableTypeUtils.h`` (``rebase_history``) and ``functions/tensor.h`` (CopySlices).
"""

import weakref

import numpy as np

from . import dtypes, hooks
from .backend import backend_of
from .grad_mode import state
from .graph import (ERR_FREED, NO_CONTEXT, AsStrided, Node, creation_message, current_grad_fn, edge_of,
                    input_meta)
from .layout import broadcast_shape, element_strides, strided, view_positions
from .tensor import Tensor

__all__ = ["NUMBER", "is_number", "scalar", "operands", "record", "binary", "unary", "view", "make_view",
           "recording", "check_inplace", "inplace", "rebase_history", "CopySlices"]

_ndarray, _generic = np.ndarray, np.generic
_NO_EDGE = (None, 0)


class _Number:
    """The input a Python number stands for: it never requires grad and has no history."""

    _requires_grad = False
    _base = None
    _grad_fn = None


NUMBER = _Number()
_NO_OPERAND = object()


def is_number(x):
    """True for Python numbers and NumPy scalars."""
    return isinstance(x, (int, float)) or isinstance(x, _generic) and x.ndim == 0


def _number_dtype(x_dtype, value):
    """The NumPy dtype of ``tensor <op> number``: the tensor's, except an int with a bool tensor (int64) and
    a float with an integer tensor (the default float dtype)."""
    if isinstance(value, (bool, np.bool_)):
        return x_dtype
    if isinstance(value, (int, np.integer)):
        return np.dtype(np.int64) if x_dtype.kind == "b" else x_dtype
    return x_dtype if x_dtype.kind == "f" else dtypes.get_default_dtype().numpy_dtype


def scalar(value, np_dtype):
    """A Python number as a NumPy scalar of ``np_dtype``; integers wrap around as C casts do (uint8: 300 -> 44)."""
    try:
        return np_dtype.type(value)
    except (OverflowError, ValueError):
        return np.array(value).astype(np_dtype)[()]


def _device_error(a, b):
    first, second = (a.device, b.device) if a._data.__class__ is not _ndarray else (b.device, a.device)
    return RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                        f"{first} and {second}!")


def _same_device(a, b):
    """The arrays of tensors ``a`` and ``b`` on one device: a 0-d CPU tensor joins the other's device."""
    x, y = a._data, b._data
    if x.__class__ is y.__class__:
        return x, y
    if x.ndim == 0 and x.__class__ is _ndarray:
        return backend_of(y).asarray(x), y
    if y.ndim == 0 and y.__class__ is _ndarray:
        return x, backend_of(x).asarray(y)
    raise _device_error(a, b)


def operands(a, b):
    """The arrays of tensor ``a`` and tensor-or-number ``b`` in their common dtype, on one device.

    Raises:
        RuntimeError: shapes that do not broadcast, or tensors on two devices (PyTorch's messages).
        TypeError: ``b`` is neither a tensor nor a number.
    """
    x = a._data
    if isinstance(b, Tensor):
        if x.shape != b._data.shape:
            broadcast_shape(x.shape, b._data.shape)
        x, y = _same_device(a, b)
        if x.dtype is not y.dtype:
            dt = dtypes.result_type(a, b).numpy_dtype
            x, y = x.astype(dt, copy=False), y.astype(dt, copy=False)
        return x, y
    if not is_number(b):
        raise TypeError(f"expected a Tensor or a number, got {type(b).__name__}")
    dt = _number_dtype(x.dtype, b)
    return x.astype(dt, copy=False), scalar(b, dt)


def _as_array(value):
    """NumPy gives scalars for 0-d results; a tensor always holds an array."""
    return np.asarray(value) if isinstance(value, _generic) else value


def recording(*tensors):
    """True when an operation on ``tensors`` is recorded: grad mode is on and one of them requires grad."""
    if not state.enabled:
        return False
    for t in tensors:
        if t._requires_grad or t._base is not None and t._base._requires_grad and current_grad_fn(t) is not None:
            return True
    return False


def record(op, inputs, arrays, params=None):
    """Run ``op.forward`` on ``arrays`` (one per tensor in ``inputs``) and return the result tensor(s),
    with ``op``'s node as their ``grad_fn`` when the call is recorded.  Integer and bool results never
    require grad."""
    if op.node_name is not None and recording(*inputs):
        return _record_node(op, inputs, arrays, params or {})
    out = op.forward(NO_CONTEXT, *arrays, **params) if params else op.forward(NO_CONTEXT, *arrays)
    if out.__class__ is tuple:
        return tuple(_new_tensor(_as_array(o)) for o in out)
    if op.elementwise and out.ndim > 1:
        out = hooks.result_layout(op, out, arrays, params)
    return _new_tensor(out if out.__class__ is _ndarray else _as_array(out))


def _new_tensor(array):
    t = hooks.new(Tensor)
    t._data = array
    return t


def _record_node(op, inputs, arrays, params):
    node = op.Node()
    node.needs_input_grad = tuple(t._requires_grad for t in inputs)
    node.next_functions = tuple(edge_of(t) if n else _NO_EDGE for t, n in zip(inputs, node.needs_input_grad))
    node._input_meta = tuple(input_meta(t) if n else None for t, n in zip(inputs, node.needs_input_grad))
    out = op.forward(node, *arrays, **params)
    if out.__class__ is tuple:
        results = tuple(_result(node, o, i) for i, o in enumerate(out))
        node._n_outputs = len(results)
        node._output_meta = tuple((r._data.shape, r._data.dtype) for r in results)
    else:
        if op.elementwise and out.ndim > 1:
            out = _replace_saved(node, out, hooks.result_layout(op, out, arrays, params))
        results = (_result(node, out, 0),)
    if node._saved:
        _bind_saved(node, inputs, arrays, results)
    return results if out.__class__ is tuple else results[0]


def _replace_saved(node, old, new):
    """``new`` stands for the array ``old`` from now on, also in what forward saved."""
    if new is not old and node._saved:
        node._saved = tuple(new if s is old else s for s in node._saved)
    return new


def _result(node, out, nr):
    """The tensor of output ``nr``: node's output when it is floating (only those get gradients)."""
    t = _new_tensor(out if out.__class__ is _ndarray else _replace_saved(node, out, _as_array(out)))
    if t._data.dtype.kind == "f":
        t._grad_fn, t._output_nr, t._requires_grad = node, nr, True
    return t


def _bind_saved(node, inputs, arrays, outputs):
    """Note the version counter (and the version now) of every tensor whose array forward saved, so that
    backward can tell it was modified in place since.  The checks follow the order in which PyTorch's
    nodes unpack their saved values, so that the error names the same tensor."""
    checks = []
    for i in hooks.unpack_order(node.op, len(node._saved)):
        saved = node._saved[i]
        if saved is None or isinstance(saved, _generic):
            continue
        source = next((t for t, a in zip(inputs, arrays) if a is saved and t is not NUMBER), None)
        if source is not None:
            counter = source._version_counter()
            if hooks.check_saved is not None:
                hooks.check_saved(counter)
            checks.append((i, counter, counter[0], source, None))
            continue
        nr = next((k for k, o in enumerate(outputs) if o._data is saved), None)
        if nr is not None:
            counter = outputs[nr]._version_counter()
            checks.append((i, counter, counter[0], None, nr))
    if checks:
        node._checks = tuple(checks)


def binary(op, a, b, params=None):
    """``op`` on tensor ``a`` and tensor-or-number ``b``, with broadcasting and promotion."""
    x, y = operands(a, b)
    number = not isinstance(b, Tensor)
    scalar_form = number and op.scalar_op is not None
    if scalar_form:
        op = op.scalar_op                    # the number becomes the option ``other``, not an operand
    if op.int_to_float and x.dtype.kind != "f":
        f = dtypes.get_default_dtype().numpy_dtype
        x, y = x.astype(f), (f.type(b) if number else y.astype(f))     # uint8 / -1 divides by -1.0
    if scalar_form:
        return record(op, (a,), (x,), dict(params or (), other=y))
    return record(op, (a, NUMBER if number else b), (x, y), params)


def unary(op, a, params=None):
    """``op`` on tensor ``a`` (integer inputs become floats for operations like ``exp``)."""
    x = a._data
    if op.int_to_float and x.dtype.kind != "f":
        x = x.astype(dtypes.get_default_dtype().numpy_dtype)
    return record(op, (a,), (x,), params)


# ---------------------------------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------------------------------

def make_view(base, array, creation=None):
    """A tensor on ``array``, which shows ``base``'s memory: the same storage and version counter.

    ``creation`` is None, ``"no_grad"`` (made in no_grad mode from a tensor that requires grad) or the
    name of a function with several view outputs (``"Unbind"``): in-place changes of such views are
    refused where they would be recorded.  A view of a view has the same base and inherits it.
    """
    t = _new_tensor(array)
    t._storage = base._data if base._storage is None else base._storage
    t._version_ref = counter = base._version_counter()
    t._view_version = counter[0]
    t._base = base if base._base is None else base._base
    t._creation = creation if creation is not None or base._base is None else base._creation
    return t


def view(op, base, params=None):
    """Apply the view operation ``op`` to ``base``: the result shares ``base``'s memory.

    Made in no_grad mode from a tensor that requires grad, the view requires grad without a history,
    as in PyTorch.
    """
    x = base._data
    if x.size == 0:                          # NumPy's views keep strides of 0; PyTorch's are contiguous
        x = strided(x, x.shape, element_strides(x))
    if not recording(base):
        array = op.forward(NO_CONTEXT, x, **params) if params else op.forward(NO_CONTEXT, x)
        t = make_view(base, array, "no_grad" if base._requires_grad else None)
        t._requires_grad = base._requires_grad
        return t
    node = op.Node()
    t = make_view(base, op.forward(node, x, **params) if params else op.forward(node, x))
    node.needs_input_grad, node.next_functions, node._input_meta = (True,), (edge_of(base),), (input_meta(base),)
    t._grad_fn, t._requires_grad = node, True
    return t


# ---------------------------------------------------------------------------------------------------
# In place
# ---------------------------------------------------------------------------------------------------

LEAF_ERROR = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_ERROR = "a view of a leaf Variable that requires grad is being used in an in-place operation."


def check_inplace(t, recorded, overlap=True):
    """Refuse an in-place write into ``t`` that would break autograd or write one element twice.

    ``recorded``: the write will be recorded.  ``overlap=False`` for the writes PyTorch allows into an
    expanded tensor (``fill_``, ``zero_``, ``x[i] = v``).

    Raises:
        RuntimeError: a leaf that requires grad or a view of one, a view made in no_grad mode or by a
            multi-output function, an expanded tensor (PyTorch's messages).
    """
    if recorded and t._base is not None and t._creation is not None:
        raise RuntimeError(creation_message(t))
    if recorded and t._requires_grad and (t._base._grad_fn if t._base is not None else t._grad_fn) is None:
        raise RuntimeError(VIEW_OF_LEAF_ERROR if t._base is not None else LEAF_ERROR)
    x = t._data
    if overlap and x.size > 1 and any(s == 0 and n > 1 for n, s in zip(x.shape, x.strides)):
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                           "single memory location. Please clone() the tensor before performing the operation.")


def inplace(op, t, other=_NO_OPERAND, params=None):
    """``t.<op>_(other)``: compute the result, write it into ``t``'s memory, bump the version; return ``t``.

    Raises:
        RuntimeError: the errors of ``check_inplace``; a result ``t`` cannot hold (its dtype or its
            broadcast shape), with PyTorch's messages.
    """
    params = dict(params or ())
    if other is _NO_OPERAND:
        sources = (t,)
    elif isinstance(other, Tensor):
        sources = (t, other)
    elif op.scalar_op is not None:               # the number becomes the option ``other`` of another op
        op, sources = op.scalar_op, (t,)
    else:
        sources = (t, NUMBER)
    recorded = op.node_name is not None and recording(*sources)
    check_inplace(t, recorded)
    xs = _inplace_arrays(op, t, other)
    if len(xs) > len(sources):
        xs, params["other"] = xs[:1], xs[1]
    _check_fits(op, t, xs)
    if recorded:
        return _inplace_recorded(op, t, sources, xs, params)
    t._data[...] = op.forward(NO_CONTEXT, *xs, **params)
    t._bump()
    return t


def _inplace_arrays(op, t, other):
    """The arrays ``t.op_(other)`` computes with: ``t``'s (and ``other``'s), in the dtype of the result."""
    xs = (t._data,) if other is _NO_OPERAND else operands(t, other)
    if op.int_to_float and xs[0].dtype.kind != "f":
        f = dtypes.get_default_dtype().numpy_dtype
        xs = tuple(a.astype(f) for a in xs)
    return xs


def _check_fits(op, t, xs):
    """The result of ``t.op_(...)`` must fit ``t``: its broadcast shape, and a dtype ``t`` can hold."""
    x = t._data
    for y in xs[1:]:
        shape = broadcast_shape(x.shape, np.shape(y))
        if shape != x.shape:
            raise RuntimeError(f"output with shape [{', '.join(map(str, x.shape))}] doesn't match the broadcast "
                               f"shape [{', '.join(map(str, shape))}]")
    result, target = dtypes.from_numpy(op.result_dtype or xs[0].dtype), dtypes.of(x)
    if not dtypes.can_cast(result, target):
        raise RuntimeError(f"result type {result.legacy_name[:-6]} can't be cast to the desired output type "
                           f"{target.legacy_name[:-6]}")


def _inplace_recorded(op, t, sources, xs, params):
    """The recorded in-place op: forward, write into ``t``, and ``op``'s node becomes ``t``'s history."""
    x, node = t._data, op.Node()
    node.needs_input_grad = tuple(s._requires_grad for s in sources)
    out = op.forward(node, *xs, **params)
    node.next_functions = tuple(edge_of(s) for s in sources)
    node._input_meta = tuple(input_meta(s) if n else None for s, n in zip(sources, node.needs_input_grad))
    saved = node._saved
    if saved:
        _save_before_write(node, x, out, sources, xs)
    x[...] = out
    t._bump()
    rebase_history(t, node)
    counter = t._version_ref                     # a saved result is t itself, at its new version
    _add_checks(node, [(i, counter, counter[0], None, 0) for i, s in enumerate(saved) if s is out])
    return t


def _save_before_write(node, x, out, sources, xs):
    """What forward saved of ``x``'s memory is copied, since the write changes it (PyTorch saves
    ``self.clone()`` too); a saved result is ``x`` itself after the write."""
    saved = node._saved
    node._saved = tuple(s.copy() if s is x else x if s is out else s for s in saved)
    _bind_saved(node, sources[1:], xs[1:], ())
    # y.mul_(y): the operand is y's own memory.  PyTorch saved that operand as the tensor itself, so
    # backward finds it one version newer (after the write) and raises the in-place error.
    checks = [(i, s._version_counter(), s._version_counter()[0], s, None)
              for s, a in zip(sources[1:], xs[1:]) if a is x for i, v in enumerate(saved) if v is x]
    _add_checks(node, checks)


def _add_checks(node, checks):
    """Add version checks to ``node``, all of them kept in the order PyTorch's node unpacks its values."""
    if checks:
        rank = {i: r for r, i in enumerate(hooks.unpack_order(node.op, len(node._saved)))}
        node._checks = tuple(sorted(node._checks + tuple(checks), key=lambda c: rank[c[0]]))


class CopySlices(Node):
    """The history of a base after an in-place op on one of its views: the base's gradient passes
    unchanged except on the view's elements, where the in-place op's node (``fn``) decides it."""

    __module__ = "builtins"          # type() shows <class 'CopySlices'>, as in PyTorch

    def __init__(self, base_edge, base_meta, geometry, fn):
        super().__init__()
        self.geometry, self.fn = geometry, fn          # geometry: the view's elements' indices in the base
        self.next_functions = (base_edge,) + fn.next_functions[1:]
        self._input_meta = (base_meta,) + fn._input_meta[1:]

    def name(self):
        return "torch::autograd::CopySlices"

    def apply(self, grad):
        if self._saved is _FREED_SLICES:
            raise RuntimeError(ERR_FREED)
        result = grad.copy()
        flat = result.reshape(-1)
        grads = self.fn.apply(_as_array(flat[self.geometry]))
        flat[self.geometry] = 0 if grads[0] is None else grads[0]
        return (result,) + tuple(grads[1:])

    def _release(self):
        self.fn._release()
        self._saved = _FREED_SLICES


_FREED_SLICES = object()


def rebase_history(t, node, nr=0):
    """After an in-place op, ``node`` (whose first edge is ``t``'s old history) becomes ``t``'s history;
    for a view, the base's history becomes CopySlices around ``node``, and the view's an AsStrided."""
    if t._retains_grad:                  # retain_grad() follows the tensor to its new history
        old = t.grad_fn
        if old is not None and old._retained:
            old._retained.pop(t._output_nr, None)
        node._retained = {nr: weakref.ref(t)}
    base = t._base
    if base is None:
        t._grad_fn, t._output_nr, t._requires_grad = node, nr, True
        return
    copy = CopySlices(edge_of(base), input_meta(base), view_positions(base._data, t._data), node)
    base._grad_fn, base._output_nr, base._requires_grad = copy, 0, True
    view_node = AsStrided.Node()
    view_node.needs_input_grad, view_node.next_functions, view_node._input_meta = (True,), ((copy, 0),), (
        input_meta(base),)
    view_node.geometry, view_node.base_meta = copy.geometry, (base._data.shape, base._data.dtype)
    t._grad_fn, t._output_nr, t._requires_grad, t._view_version = view_node, 0, True, t._version_ref[0]
    if t._retains_grad:
        view_node._retained, node._retained = node._retained, None
