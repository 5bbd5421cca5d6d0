"""Running an operation: tensors in, tensors out, and the graph node recorded on the way (README.md, 5).

``record`` runs an Op on its operands' arrays and, when grad mode is on and an input requires grad,
makes its node; ``view`` does the same for results that share their input's memory; ``inplace``
writes into a tensor's own memory, bumps its version and moves its history to the new node (for a
view, the base's history becomes ``CopySlices``).

In PyTorch: ``torch/csrc/autograd/generated/VariableType_*.cpp``, ``VariableTypeUtils.h``
(``rebase_history``) and ``functions/tensor.h`` (``CopySlices``).
"""

import weakref
from types import SimpleNamespace

import numpy as np

from . import dtypes, hooks
from .backend import backend_of
from .grad_mode import state
from .graph import ERR_FREED, NO_CONTEXT, AsStrided, Node, creation_message, current_grad_fn, edge_of, input_meta
from .layout import broadcast_shape, element_strides, strided, view_positions
from .tensor import Tensor

__all__ = ["NUMBER", "number_dtype", "scalar", "operands", "as_array", "recording", "record",
           "record_node", "unary", "make_view", "viewable", "unrecorded_view", "view", "check_inplace", "inplace",
           "inplace_record", "rebase_history", "CopySlices", "LEAF_ERROR", "VIEW_OF_LEAF_ERROR"]

_ndarray, _generic = np.ndarray, np.generic
_NO_EDGE = (None, 0)
_NO_OPERAND = object()


NUMBER = SimpleNamespace(_requires_grad=False, _base=None, _grad_fn=None)   # the input a Python number stands for


def number_dtype(x_dtype, value):
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


def _same_device(a, b):
    """The arrays of tensors ``a`` and ``b`` on one device: a 0-d CPU tensor joins the other's device.

    Raises:
        RuntimeError: tensors on two devices (PyTorch's message).
    """
    x, y = a._data, b._data
    if x.__class__ is y.__class__:
        return x, y
    if x.ndim == 0 and x.__class__ is _ndarray:
        return backend_of(y).asarray(x), y
    if y.ndim == 0 and y.__class__ is _ndarray:
        return x, backend_of(x).asarray(y)
    first, second = (a.device, b.device) if x.__class__ is not _ndarray else (b.device, a.device)
    raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                       f"{first} and {second}!")


def operands(a, b):
    """The arrays of tensor ``a`` and tensor-or-number ``b`` in their common dtype, on one device.

    Raises:
        RuntimeError: shapes that do not broadcast, or tensors on two devices (PyTorch's messages).
    """
    if isinstance(b, Tensor):
        if a._data.shape != b._data.shape:
            broadcast_shape(a._data.shape, b._data.shape)
        x, y = _same_device(a, b)
        if x.dtype is not y.dtype:
            dt = dtypes.result_type(a, b).numpy_dtype
            x, y = x.astype(dt, copy=False), y.astype(dt, copy=False)
        return x, y
    dt = number_dtype(a._data.dtype, b)
    return a._data.astype(dt, copy=False), scalar(b, dt)


def as_array(value):
    """A NumPy scalar (NumPy's 0-d results) as a 0-d array: a tensor always holds an array."""
    return np.asarray(value) if isinstance(value, _generic) else value


def recording(*tensors):
    """True when an operation on ``tensors`` (None for an operand left out) is recorded: grad mode is on and
    one of them requires grad (a view, also when its base gained a history since it was made)."""
    if not state.enabled:
        return False
    for t in tensors:
        if t is not None and (t._requires_grad or t._base is not None and t._base._requires_grad
                              and current_grad_fn(t) is not None):
            return True
    return False


def record(op, inputs, arrays, params=None):
    """Run ``op.forward`` on ``arrays`` (one per tensor in ``inputs``) and return the result tensor(s),
    with ``op``'s node as their ``grad_fn`` when the call is recorded."""
    if op.node_name is not None and recording(*inputs):
        return record_node(op, inputs, arrays, params)
    out = op.forward(NO_CONTEXT, *arrays, **params) if params else op.forward(NO_CONTEXT, *arrays)
    if out.__class__ is tuple:
        return tuple(_new_tensor(as_array(o)) for o in out)
    if op.elementwise and out.ndim > 1:
        out = hooks.result_layout(op, out, arrays, params)
    return _new_tensor(out if out.__class__ is _ndarray else as_array(out))


def _new_tensor(array):
    t = hooks.new(Tensor)
    t._data = array
    return t


def record_node(op, inputs, arrays, params=None):
    """The recorded half of ``record`` (for callers that know the call is recorded): make ``op``'s node
    with one edge per input and what the engine needs to fit each input's gradient (shape, dtype, array
    type), run forward with the node as ``ctx``, and make the node the floating results' ``grad_fn``."""
    node, needs, edges, metas = op.Node(), (), (), ()
    for t in inputs:
        if t._requires_grad:
            a = t._data
            needs, edges, metas = needs + (True,), edges + (edge_of(t),), metas + ((a.shape, a.dtype, a.__class__),)
        else:
            needs, edges, metas = needs + (False,), edges + (_NO_EDGE,), metas + (None,)
    node.needs_input_grad, node.next_functions, node._input_meta = needs, edges, metas
    out = op.forward(node, *arrays, **params) if params else op.forward(node, *arrays)
    if out.__class__ is tuple:
        results = _results(node, out)
    else:
        if op.elementwise and out.ndim > 1:
            out = _replace_saved(node, out, hooks.result_layout(op, out, arrays, params))
        results = (_result(node, out, 0),)
    if node._saved:
        _bind_saved(node, inputs, arrays, results)
    return results if out.__class__ is tuple else results[0]


def _results(node, out):
    """The tensors of the outputs of a node that has several."""
    results = tuple(_result(node, o, i) for i, o in enumerate(out))
    node._n_outputs, node._output_meta = len(results), tuple((r._data.shape, r._data.dtype) for r in results)
    return results


def _replace_saved(node, old, new):
    """``new`` stands for the array ``old`` from now on, also in what forward saved."""
    if new is not old and node._saved:
        node._saved = tuple(new if s is old else s for s in node._saved)
    return new


def _result(node, out, nr):
    """The tensor of output ``nr``; a floating one gets the node as ``grad_fn`` (integers have no gradient)."""
    t = hooks.new(Tensor)
    t._data = out if out.__class__ is _ndarray else _replace_saved(node, out, as_array(out))
    if t._data.dtype.kind == "f":
        t._grad_fn, t._output_nr, t._requires_grad = node, nr, True
    return t


def _bind_saved(node, inputs, arrays, outputs):
    """Note the version counter (and the version now) of every tensor whose array forward saved, so that
    backward can tell whether it was modified in place since, in the order PyTorch's node unpacks its
    saved values (so that the error names the same tensor)."""
    checks, saved = [], node._saved
    for i in hooks.unpack_order(node.op, len(saved)):
        if saved[i] is not None and not isinstance(saved[i], _generic):
            check = _saved_check(i, saved[i], inputs, arrays, outputs)
            if check is not None:
                checks.append(check)
    if checks:
        node._checks = tuple(checks)


def _saved_check(i, value, inputs, arrays, outputs):
    """``(i, counter, version, input tensor, None)`` for an input's array, ``(..., None, output number)``
    for a result's, None for an array of neither."""
    for t, a in zip(inputs, arrays):
        if a is value and t is not NUMBER:
            counter = t._version_ref or t._version_counter()
            if counter.__class__ is not list:        # a layer's own kind of counter (inference tensors')
                hooks.check_saved(counter)
            return (i, counter, counter[0], t, None)
    for nr, o in enumerate(outputs):
        if o._data is value:
            counter = o._version_counter()
            return (i, counter, counter[0], None, nr)
    return None


def unary(op, a, params=None):
    """``op`` on tensor ``a`` (integer inputs become floats for operations like ``exp``)."""
    x = a._data
    if op.int_to_float and x.dtype.kind != "f":
        x = x.astype(dtypes.get_default_dtype().numpy_dtype)
    return record(op, (a,), (x,), params)


# -- views ------------------------------------------------------------------------------------------

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


def viewable(x):
    """Array ``x`` ready for NumPy's view operations (an empty one first gets PyTorch's strides)."""
    return strided(x, x.shape, element_strides(x)) if x.size == 0 else x


def unrecorded_view(base, array):
    """The view of ``base`` on ``array`` when nothing is recorded.  Made in no_grad mode from a tensor that
    requires grad, it requires grad without a history, as in PyTorch."""
    t = make_view(base, array, "no_grad" if base._requires_grad else None)
    t._requires_grad = base._requires_grad
    return t


def view(op, base, params=None):
    """Apply the view operation ``op`` to ``base``: the result shares ``base``'s memory, and gets ``op``'s
    node when the call is recorded."""
    x = viewable(base._data)
    if not recording(base):
        return unrecorded_view(base, op.forward(NO_CONTEXT, x, **params) if params else op.forward(NO_CONTEXT, x))
    node = op.Node()
    t = make_view(base, op.forward(node, x, **params) if params else op.forward(node, x))
    node.needs_input_grad, node.next_functions, node._input_meta = (True,), (edge_of(base),), (input_meta(base),)
    t._grad_fn, t._requires_grad = node, True
    return t


# -- in place ---------------------------------------------------------------------------------------

LEAF_ERROR = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_ERROR = "a view of a leaf Variable that requires grad is being used in an in-place operation."


def check_inplace(t, recorded, overlap=True):
    """Refuse an in-place write into ``t`` that breaks autograd (``recorded``: the write is recorded) or
    writes one element twice (``overlap=False`` where PyTorch allows it: ``fill_``, ``x[i] = v``).

    Raises:
        RuntimeError: a leaf that requires grad or a view of one, a view made in no_grad mode or by a
            multi-output function, an expanded tensor (PyTorch's messages).
    """
    if recorded:
        _check_history(t)
    x = t._data
    if overlap and x.size > 1 and 0 in x.strides and any(s == 0 and n > 1 for n, s in zip(x.shape, x.strides)):
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                           "single memory location. Please clone() the tensor before performing the operation.")


def _check_history(t):
    """A recorded in-place write must leave a history autograd can follow."""
    base = t._base
    if base is not None and t._creation is not None:
        raise RuntimeError(creation_message(t))
    if t._requires_grad and (base if base is not None else t)._grad_fn is None:
        raise RuntimeError(VIEW_OF_LEAF_ERROR if base is not None else LEAF_ERROR)


def inplace(op, t, other=_NO_OPERAND, params=None):
    """``t.<op>_(other)``: compute the result, write it into ``t``'s memory, bump the version; return ``t``.

    Raises:
        RuntimeError: the errors of ``check_inplace``; a result ``t`` cannot hold (its dtype or its
            broadcast shape), with PyTorch's messages.
    """
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
    xs, params = _inplace_arrays(op, t, other), dict(params or ())
    if len(xs) > len(sources):
        xs, params["other"] = xs[:1], xs[1]
    _check_fits(op, t, xs)
    if recorded:
        return inplace_record(op, t, sources, xs, params)
    t._data[...] = op.forward(NO_CONTEXT, *xs, **params)
    t._bump()
    return t


def _inplace_arrays(op, t, other):
    """The arrays ``t.op_(other)`` computes with: ``t``'s (and ``other``'s), in the dtype of the result."""
    xs = (t._data,) if other is _NO_OPERAND else operands(t, other)
    if op.int_to_float and xs[0].dtype.kind != "f":
        xs = tuple(a.astype(dtypes.get_default_dtype().numpy_dtype) for a in xs)
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


def inplace_record(op, t, sources, xs, params=None):
    """The recorded in-place op on ``sources`` (``t`` first; their arrays ``xs``): forward, write into ``t``,
    and ``op``'s node becomes ``t``'s history.  ``check_inplace`` comes first."""
    x, node = t._data, op.Node()
    node.needs_input_grad = tuple(s._requires_grad for s in sources)
    out = op.forward(node, *xs, **params) if params else op.forward(node, *xs)
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
    _add_checks(node, [(i, s._version_counter(), s._version_counter()[0], s, None)
                       for s, a in zip(sources[1:], xs[1:]) if a is x for i, v in enumerate(saved) if v is x])


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
        grads = self.fn.apply(as_array(flat[self.geometry]))
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
    view_node.needs_input_grad, view_node.next_functions = (True,), ((copy, 0),)
    view_node._input_meta, view_node.geometry = (input_meta(base),), copy.geometry
    view_node.base_meta = (base._data.shape, base._data.dtype)
    t._grad_fn, t._output_nr, t._requires_grad, t._view_version = view_node, 0, True, t._version_ref[0]
    if t._retains_grad:
        view_node._retained, node._retained = node._retained, None
