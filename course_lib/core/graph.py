"""The backward graph: nodes, their edges, what forward saved, and the Op base class (README.md, 4).

Every recorded operation leaves a :class:`Node`, its result's ``grad_fn``, with one edge
``(node, input_nr)`` per input: to the node that made the input, to a leaf's :class:`AccumulateGrad`,
or ``(None, 0)`` where no gradient is needed.  An :class:`Op` writes forward and backward side by
side; its node *is* the ``ctx`` both see, and checks what forward saved before backward runs.

In PyTorch: ``torch/csrc/autograd/function.h``, ``saved_variable.cpp``, ``functions/accumulate_grad.h``
and ``tools/autograd/derivatives.yaml``.
"""

import itertools
import weakref

import numpy as np

from . import hooks
from .backend import backend_of
from .dtypes import of as dtype_of
from .layout import view_positions

__all__ = ["Node", "AccumulateGrad", "Op", "Elementwise", "NO_CONTEXT", "RemovableHandle", "accumulator_of",
           "edge_of", "current_grad_fn", "input_meta", "creation_message", "short_name", "FREED", "ERR_FREED"]

_sequence = itertools.count()
FREED = object()                     # what a node saved, once backward() has freed it

ERR_FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward.")


class Node:
    """A node of the backward graph: ``name()``, ``next_functions``, and ``apply`` (the formula)."""

    next_functions = ()
    needs_input_grad = ()
    _saved = ()              # what forward saved; FREED after backward released it
    _checks = ()             # (index in _saved, version counter, version when saved, input tensor, output nr)
    _input_meta = ()         # (shape, dtype, array type) of each input that needs a gradient, else None
    _n_outputs = 1
    _tensor_hooks = None     # {output_nr: [hook]}: hooks of the tensors this node produced
    _retained = None         # {output_nr: weak reference}: tensors that called retain_grad()
    _pre_hooks = None
    _hooks = None
    _plain = True            # no hooks: the engine may call apply directly
    _fill_missing = True     # a multi-output node gets zeros for outputs that received no gradient
    _shares_grads = False    # its gradients are someone else's arrays (a learner's Function): never added into

    def __init__(self):
        self._sequence_nr = next(_sequence)        # later nodes run first among the ready ones
        if hooks.node_created is not None:
            hooks.node_created(self)

    def name(self):
        """The node's name, e.g. ``'MulBackward0'``."""
        return type(self).__name__

    def register_hook(self, fn):
        """Call ``fn(grad_inputs, grad_outputs)`` after the node ran; it may return new grad_inputs."""
        return self._add_hook("_hooks", fn)

    def register_prehook(self, fn):
        """Call ``fn(grad_outputs)`` before the node runs; it may return new grad_outputs."""
        return self._add_hook("_pre_hooks", fn)

    def _add_hook(self, kind, fn):
        hooks_list = self.__dict__.setdefault(kind, [])
        hooks_list.append(fn)
        self._plain = False
        return RemovableHandle(hooks_list, fn)

    def save_for_backward(self, *values):
        """Keep ``values`` for the backward formula (``ctx.saved_tensors`` gives them back)."""
        self._saved = values

    @property
    def saved_tensors(self):
        """What forward saved, after checking that it was neither freed nor modified in place."""
        self._check_saved()
        return self._saved

    def _check_saved(self):
        if self._saved is FREED:
            raise RuntimeError(ERR_FREED)
        for check in self._checks:
            if check[1][0] != check[2]:
                raise RuntimeError(_modified_message(self, check))

    def _release(self):
        """Free what forward saved (``backward()`` without ``retain_graph``)."""
        if self._saved != ():
            self._saved = FREED
        self._checks = ()



def short_name(node_name):
    """'MulBackward0' -> 'Mul', 'PowBackward1' -> 'Pow1': how PyTorch's in-place errors name a node."""
    head, sep, tail = node_name.rpartition("Backward")
    return node_name if not sep else head if tail == "0" else head + tail


def _type_name(array):
    """PyTorch's old type name of a tensor on ``array``: 'torch.FloatTensor', 'torch.cuda.LongTensor'."""
    return f"torch.{'' if array.__class__ is np.ndarray else 'cuda.'}{dtype_of(array).legacy_name}"


def _modified_message(node, check):
    """PyTorch's error for a saved tensor that was modified in place after it was saved."""
    index, counter, version, tensor, nr = check
    if tensor is not None:
        array, fn = tensor._data, current_grad_fn(tensor)
        where = f", which is output {tensor._output_nr} of {short_name(fn.name())}," if fn is not None else ""
    else:
        saved = node._saved[index]
        array, where = getattr(saved, "_data", saved), f", which is output {nr} of {short_name(node.name())},"
    return ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[{_type_name(array)} [{', '.join(map(str, array.shape))}]]{where} is at version {counter[0]}; "
            f"expected version {version} instead. Hint: {hooks.modified_hint}")


class RemovableHandle:
    """What ``register_hook`` returns: ``handle.remove()`` unregisters the hook."""

    def __init__(self, container, item):
        self._container, self._item = container, item

    def remove(self):
        if self._item in self._container:
            self._container.remove(self._item)


class AccumulateGrad(Node):
    """The node behind a leaf that requires grad: adds the gradient that reaches it into ``.grad``.

    Ready AccumulateGrad nodes run before all others, as in PyTorch.
    """

    __module__ = "builtins"          # type() shows <class 'AccumulateGrad'>, as for PyTorch's C++ nodes
    _sequence_nr = float("inf")

    def __init__(self, variable):
        self.variable = variable

    @property
    def _tensor_hooks(self):                 # the leaf's own hooks
        return {0: self.variable._hooks} if self.variable._hooks else None

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def apply(self, grad):
        if self.variable._requires_grad:
            self.variable._accumulate_grad(grad)
        return ()


def accumulator_of(tensor):
    """The leaf's AccumulateGrad node: one per leaf while a graph holds it (the leaf holds it weakly)."""
    ref = tensor._accumulator_ref
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(tensor)
        tensor._accumulator_ref = weakref.ref(node)
    return node


def edge_of(t):
    """The edge ``(node, input_nr)`` into tensor ``t``'s history; ``(None, 0)`` when it needs no gradient."""
    fn = t._grad_fn if t._base is None else current_grad_fn(t)
    if fn is not None:
        return (fn, t._output_nr)
    if t._requires_grad and t._creation != "no_grad":      # a view made in no_grad mode has no history
        return (accumulator_of(t), 0)
    return (None, 0)


def input_meta(t):
    """What the engine needs to fit a gradient to input ``t``: (shape, numpy dtype, array type)."""
    a = t._data
    return (a.shape, a.dtype, a.__class__)


def current_grad_fn(t):
    """``t.grad_fn`` for a view ``t``: after an in-place change of its memory, a new AsStridedBackward0
    whose edge leads to the base's new history (as PyTorch regenerates it)."""
    base = t._base
    if base is None or t._grad_fn is None and not base._requires_grad or t._view_version == t._version_ref[0]:
        return t._grad_fn
    if t._creation is not None:
        raise RuntimeError(creation_message(t, indirect=True))
    node = AsStrided.Node()
    node.needs_input_grad, node.next_functions, node._input_meta = (True,), (edge_of(base),), (input_meta(base),)
    node.geometry = view_positions(base._data, t._data)
    node.base_meta = (base._data.shape, base._data.dtype)
    t._grad_fn, t._output_nr, t._requires_grad, t._view_version = node, 0, True, t._version_ref[0]
    return node


def creation_message(t, indirect=False):
    """PyTorch's error for an in-place change of a view made in no_grad mode (``t._creation == "no_grad"``)
    or by a function with several view outputs (``t._creation`` is its name, e.g. ``"Unbind"``)."""
    what = "its base or another view of its base has been modified inplace" if indirect else "is being modified inplace"
    if t._creation != "no_grad":
        return (f"Output {t._output_nr} of {t._creation} is a view and {what}. This view is the output of a function "
                "that returns multiple views. Such functions do not allow the output views to be modified inplace. "
                "You should replace the inplace operation by an out-of-place one.")
    return (f"A view was created in no_grad mode and {what} with grad mode enabled. Given that this use case is "
            "ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the "
            "inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both "
            "outside (if you want the inplace to be tracked).")


class _NoContext:
    """The ``ctx`` forward gets when nothing is recorded: saving is a no-op."""

    __slots__ = ()
    needs_input_grad = ()

    def save_for_backward(self, *values):
        pass

    def __setattr__(self, name, value):
        pass


NO_CONTEXT = _NoContext()


class Op:
    """An operation, forward and backward side by side, on backend arrays::

        class Mul(Op):
            node_name = "MulBackward0"          # what grad_fn.name() shows

            def forward(ctx, a, b):             # arrays in, array out
                ctx.save_for_backward(a, b)
                return a * b

            def backward(ctx, grad):            # the output's gradient in,
                a, b = ctx.saved_tensors        # one gradient per input out
                return grad * b, grad * a

    Tensor operands are the positional arguments (one graph edge each); numbers and options come as
    keywords.  ``backward`` may return a gradient in the broadcast shape (the engine sums it back to
    the input's shape) or None for an input that needs none.  ``core/dispatch.py`` turns tensors into
    arrays, calls ``forward`` and, when recording, makes the node, an instance of ``Op.Node`` (a class
    named ``node_name``).  Every Op with a ``node_name`` is listed in ``Op.registry``.
    """

    node_name = None        # grad_fn name; None for an operation that is never differentiated
    node_full_name = None   # what name() says, where PyTorch's differs from the class name
    saved_names = ()        # PyTorch's names of what forward saves, in order (grad_fn._saved_self, ...)
    int_to_float = False    # integer inputs are computed in the default float dtype (exp, / ...)
    result_dtype = None     # a fixed result dtype (comparisons give bool)
    scalar_op = None        # the Op to use when the second operand is a Python number, if another
    ufunc = None            # the NumPy ufunc that is forward without options (np.add for Add)
    elementwise = False
    registry = []

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in ("forward", "backward"):
            if name in cls.__dict__ and not isinstance(cls.__dict__[name], staticmethod):
                setattr(cls, name, staticmethod(cls.__dict__[name]))
        if cls.node_name:
            # the node's apply checks what forward saved, so backward reads ctx.saved_tensors unchecked
            attrs = {"apply": _checked_apply(cls.backward), "saved_tensors": property(lambda self: self._saved),
                     "__module__": "builtins", "op": cls}
            if cls.node_full_name:
                attrs["name"] = lambda self, _name=cls.node_full_name: _name
            cls.Node = type(cls.node_name, (Node,), attrs)
            Op.registry.append(cls)
            if hooks.op_defined is not None:
                hooks.op_defined(cls)


def _checked_apply(backward):
    """A node's ``apply``: check what forward saved (as PyTorch's nodes unpack it first), then the formula."""
    def apply(self, *grads):
        if self._checks or self._saved is FREED:
            self._check_saved()
        return backward(self, *grads)
    return apply


class Elementwise(Op):
    """An Op computed element by element, with broadcasting (``+``, ``exp``, comparisons ...)."""

    elementwise = True


class AsStrided(Op):
    """A view described by where its elements sit in its base: ``as_strided``, and the history of a view
    whose memory was modified in place.  ``ctx.geometry`` holds, per element of the view, its index in
    the base read in row-major order (-1 outside the base)."""

    node_name = "AsStridedBackward0"

    def forward(ctx, a, geometry, array):
        ctx.geometry, ctx.base_meta = geometry, (a.shape, a.dtype)
        return array

    def backward(ctx, grad):
        xp, (shape, dtype) = backend_of(grad), ctx.base_meta
        out = xp.zeros(int(np.prod(shape)), dtype=dtype)
        where, g = ctx.geometry.reshape(-1), grad.reshape(-1)
        inside = where >= 0
        xp.add.at(out, where[inside], g[inside])     # an element seen twice gets both gradients
        return (out.reshape(shape),)
