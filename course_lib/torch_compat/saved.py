"""``grad_fn._saved_self``, ``grad_fn._saved_result``, ...: what a node saved, shown as PyTorch shows it.

PyTorch's generated nodes expose each saved value under its argument's name.  course_lib's Ops
list those names in ``saved_names``; this module gives each Op's node class a property per name
(and per attribute its forward sets on ``ctx``, such as ``ctx.alpha``): an input comes
back as the very tensor that was saved, an output as a new tensor whose grad_fn is the node, a Python
number as PyTorch's node shows it (``_saved_exponent``, or a "wrapped number" tensor for
``_saved_other`` of ``x * 2``).

Properties, not a ``__getattr__`` on Node: with ``__getattr__`` CPython 3.11 does not specialize any
attribute read on any node, and the backward engine reads many (measured: 8% more instructions for
backward of a 10-op chain).
"""

import dis
import functools

import numpy as np

from ..core import hooks
from ..core.graph import ERR_FREED, FREED, Op
from ..core.tensor import wrap

__all__ = ["saved_value", "wrapped_number", "add_saved_names"]

_STORE_ATTR = dis.opmap["STORE_ATTR"]


def wrapped_number(number):
    """A Python number as PyTorch's node saved it: a 0-d tensor, int64, float64 or bool by its type."""
    kind = np.bool_ if isinstance(number, bool) else np.int64 if isinstance(number, int) else np.float64
    return wrap(np.asarray(number, dtype=kind))


def _as_python(value):
    """A saved value as a learner sees it: arrays as Tensors, NumPy scalars as Python numbers."""
    if isinstance(value, np.generic):
        return value.item()
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return wrap(value)
    return value


def _saved_by_name(node, index):
    """What ``node`` saved at ``index`` of its op's ``saved_names``: the input tensor itself, an output
    as a tensor with ``node`` as its grad_fn, or another value as it is."""
    saved = node.__dict__.get("_saved", ())
    if saved is FREED:
        raise RuntimeError(ERR_FREED)
    for check in node.__dict__.get("_checks", ()):
        if check[0] == index and check[3] is not None:
            return check[3]
        if check[0] == index:
            out = _as_python(saved[index])
            if out._data.dtype.kind == "f":
                out._grad_fn, out._requires_grad, out._output_nr = node, True, check[4]
            return out
    return _as_python(saved[index] if index < len(saved) else None)


def saved_value(node, name):
    """``node._saved_<key>`` (``name``), as PyTorch's node shows it: the getter of the properties
    ``add_saved_names`` makes.

    Raises:
        RuntimeError: after backward freed it (PyTorch's message).
        AttributeError: the node has no such value.
    """
    key, d = name.removeprefix("_saved_"), node.__dict__
    names = getattr(getattr(node, "op", None), "saved_names", ())
    if "_shown_" + key in d:                 # a Python number PyTorch's node shows as it was given
        return d["_shown_" + key]
    if key == "other" and "_wrapped_other" in d and key in names:
        return wrapped_number(d["_wrapped_other"])
    if key in names:
        return _saved_by_name(node, names.index(key))
    if key in d:
        return _as_python(d[key])
    raise AttributeError(f"'{type(node).__name__}' object has no attribute '{name}'")


def add_saved_names(op):
    """Give ``op``'s node class ``_saved_<key>`` for each key of ``op.saved_names`` and each attribute its
    forward sets (``ctx.alpha = alpha``; ``ctx._shown_self = given`` gives ``_saved_self``), so that
    ``dir(grad_fn)`` lists only those.  Reading one that the node does not have raises AttributeError."""
    code = getattr(getattr(op, "forward", None), "__code__", None)
    ops = code.co_code if code is not None else b""     # (opcode, argument) pairs; a forward has < 256 names
    stored = {code.co_names[ops[i + 1]] for i in range(0, len(ops), 2) if ops[i] == _STORE_ATTR}
    keys = set(op.saved_names) | {name.removeprefix("_shown_") for name in stored}
    for key in keys:
        name = "_saved_" + key
        if not hasattr(op.Node, name):
            setattr(op.Node, name, property(functools.partial(saved_value, name=name)))


for _op in Op.registry:            # the core's own ops; the layers' ops as they are defined
    add_saved_names(_op)
hooks.op_defined = add_saved_names
