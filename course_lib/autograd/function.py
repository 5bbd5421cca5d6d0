"""The backward graph: nodes, saved tensors, and ``autograd.Function``.

Every operation that is recorded leaves a :class:`Node` behind (PyTorch
calls it the ``grad_fn``).  A node knows

* ``next_functions``: one ``(node, input_nr)`` edge per input of the
  operation, pointing at the node that produced that input (or at the
  input's :class:`AccumulateGrad` when it is a leaf, or ``(None, 0)`` when it
  needs no gradient);
* what the forward pass saved for the backward pass (``ctx.saved_tensors``);
* how to turn the gradient of its output into gradients of its inputs
  (``apply``).

The node *is* the ``ctx`` its operation's ``forward`` and ``backward`` see,
as in PyTorch's own ``autograd.Function``.

Two kinds of operations create nodes:

* course_lib's built-in ops (:class:`Op` subclasses in ``course_lib/ops``)
  work on raw backend arrays (NumPy or CuPy) in both directions: this is the
  engine's inner layer, like the formulas in PyTorch's ``derivatives.yaml``;
* learners' own :class:`Function` subclasses work on Tensors, exactly as
  ``torch.autograd.Function`` does.
"""

import itertools
import weakref

from . import grad_mode

__all__ = ["Node", "Function", "FunctionCtx", "AccumulateGrad", "Op"]

_sequence = itertools.count()

ERR_FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward.")

_FREED = object()   # marks a node whose saved tensors were released by backward()


def _short_name(node_name):
    """'ExpBackward0' -> 'Exp', as PyTorch names a node in the in-place error."""
    head, sep, _ = node_name.rpartition("Backward")
    return head if sep else node_name


class Node:
    """A node of the backward graph (``torch.autograd.graph.Node``).

    ``name()`` is the class name (``'MulBackward0'``), ``next_functions``
    the edges to the nodes of the inputs.  Calling a node, as in
    ``y.grad_fn(grad)``, runs its backward formula on Tensors.
    """

    next_functions = ()
    _saved = ()          # values saved by forward; _FREED after backward released them
    _checks = ()         # (index in _saved, version counter, version at save, tensor, output info)
    _retained = None     # {output_nr: tensor} for tensors that called retain_grad()
    _input_meta = ()     # (shape, numpy dtype) of each input that needs a gradient, else None
    _hooks = None
    needs_input_grad = ()

    def __init__(self):
        self._sequence_nr = next(_sequence)

    # -- introspection, as in PyTorch --------------------------------------
    def name(self):
        """The node's name, e.g. ``'AddBackward0'``."""
        return type(self).__name__

    @property
    def metadata(self):
        d = self.__dict__.get("_metadata")
        if d is None:
            d = self._metadata = {}
        return d

    def register_hook(self, fn):
        """Call ``fn(grad_inputs, grad_outputs)`` after this node ran; it may return new grad_inputs."""
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(fn)
        return _RemovableHandle(self._hooks, fn)

    def __call__(self, *grads):
        """Run the backward formula on Tensors, without recording a graph."""
        from .._tensor import Tensor, wrap
        arrays = [g._data if isinstance(g, Tensor) else g for g in grads]
        with grad_mode.no_grad():
            out = self.apply(*arrays)
        out = [None if g is None else wrap(g) for g in out]
        return out[0] if len(out) == 1 else tuple(out)

    # -- saving for backward -----------------------------------------------
    def save_for_backward(self, *values):
        """Keep ``values`` for the backward pass (arrays in built-in ops, Tensors in Functions).

        course_lib records the version counter of each tensor behind a saved
        value, and ``saved_tensors`` raises PyTorch's error if the tensor
        was modified in place in between.
        """
        self._saved = values

    @property
    def saved_tensors(self):
        """What ``save_for_backward`` kept, after checking nothing was freed or changed in place.

        Raises:
            RuntimeError: when backward already freed them (second backward
                without ``retain_graph=True``), or when a saved tensor was
                modified by an in-place operation, with PyTorch's messages.
        """
        saved = self._saved
        if saved is _FREED:
            raise RuntimeError(ERR_FREED)
        for check in self._checks:
            if check[1][0] != check[2]:
                raise RuntimeError(_modified_message(check))
        return saved

    def _release(self):
        """Free what forward saved (backward without retain_graph)."""
        if self._saved != ():
            self._saved = _FREED
        self._checks = ()

    def apply(self, *grads):
        """Return one gradient (array or None) per input edge, given one per output."""
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"


def _modified_message(check):
    _, counter, version, tensor, out_info = check
    if tensor is not None:
        descr, shape = tensor.type(), list(tensor.shape)
        fn = tensor._grad_fn
        where = f", which is output {tensor._output_nr} of {_short_name(fn.name())}," if fn is not None else ""
    else:
        descr, shape, fn_name, nr = out_info
        where = f", which is output {nr} of {_short_name(fn_name)},"
    return ("one of the variables needed for gradient computation has been modified by an inplace "
            f"operation: [{descr} [{', '.join(map(str, shape))}]]{where} is at version {counter[0]}; "
            f"expected version {version} instead. Hint: enable anomaly detection to find the "
            "operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False).")


class _RemovableHandle:
    def __init__(self, container, item):
        self._container, self._item = container, item

    def remove(self):
        if self._item in self._container:
            self._container.remove(self._item)


class AccumulateGrad(Node):
    """The node behind a leaf tensor that requires grad: adds incoming gradients into ``.grad``.

    ``variable`` is the leaf tensor.  Mirrors PyTorch's ``AccumulateGrad``.
    """

    def __init__(self, variable):
        self._sequence_nr = -1   # runs last among ready nodes, as in PyTorch
        self.variable = variable

    def apply(self, grad):
        self.variable._accumulate_grad(grad)
        return ()


def accumulator_of(tensor):
    """The tensor's AccumulateGrad node; one node per leaf while a graph uses it."""
    ref = tensor._accumulator_ref
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(tensor)
        tensor._accumulator_ref = weakref.ref(node)
    return node


# ---------------------------------------------------------------------------
# Built-in operations: forward and backward on backend arrays
# ---------------------------------------------------------------------------

class Op:
    """Base of course_lib's built-in differentiable operations.

    A subclass defines, side by side::

        class Mul(Op):
            node_name = "MulBackward0"          # what grad_fn.name() shows

            def forward(ctx, a, b):             # backend arrays in, array out
                ctx.save_for_backward(...)
                return a * b

            def backward(ctx, grad):            # gradient of the output in,
                a, b = ctx.saved_tensors        # one gradient per input out
                return grad * b, grad * a

    Both are plain functions of arrays; ``ops/_dispatch.py`` turns tensors
    into arrays, decides the result dtype and device, calls ``forward`` and,
    when a graph is being recorded, makes the node.  ``backward`` may return
    gradients in the broadcast shape: the engine sums them back to each
    input's shape (as PyTorch's engine does), and None for an input that
    needs no gradient.  Every subclass is listed in ``Op.registry``, which
    the gradient-check tests walk.
    """

    node_name = None        # grad_fn name; None for ops that are never differentiated
    int_to_float = False    # integer inputs are computed as the default float dtype (exp, /, ...)
    result_dtype = None     # fixed result dtype (comparisons give bool)
    inplace_ufunc = None    # backend function that can write into its first input (np.add, ...)
    registry = []

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in ("forward", "backward"):
            fn = cls.__dict__.get(name)
            if fn is not None and not isinstance(fn, staticmethod):
                setattr(cls, name, staticmethod(fn))
        if cls.node_name:
            backward = cls.backward

            def apply(self, *grads, _backward=backward):
                return _backward(self, *grads)
            cls.Node = type(cls.node_name, (Node,), {"apply": apply, "__module__": "torch.autograd", "op": cls})
            Op.registry.append(cls)

    @staticmethod
    def forward(ctx, *arrays):
        raise NotImplementedError

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError


class _NoContext:
    """The ``ctx`` forward gets when nothing is recorded: saving is a no-op."""

    __slots__ = ()
    needs_input_grad = ()

    def save_for_backward(self, *values):
        pass

    def __setattr__(self, name, value):
        pass


NO_CONTEXT = _NoContext()


# ---------------------------------------------------------------------------
# autograd.Function: learners' own differentiable functions, on Tensors
# ---------------------------------------------------------------------------

class FunctionCtx:
    """Methods the ``ctx`` of a custom :class:`Function` offers (mirrors ``torch.autograd.function.FunctionCtx``)."""

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = {id(t) for t in tensors}

    def set_materialize_grads(self, value):
        self._materialize = bool(value)

    def mark_dirty(self, *tensors):
        self._dirty = tensors


class BackwardCFunction(Node, FunctionCtx):
    """Node class of a custom Function: calls the user's ``backward`` on Tensors."""

    _materialize = True
    _non_differentiable = ()

    def apply(self, *grads):
        from .._creation import zeros_from_meta
        from .._tensor import Tensor, wrap
        tensors = []
        for g, meta in zip(grads, self._output_meta):
            if g is None and self._materialize:
                tensors.append(zeros_from_meta(meta))
            else:
                tensors.append(None if g is None else wrap(g))
        with grad_mode.no_grad():
            result = self._forward_cls.backward(self, *tensors)
        if not isinstance(result, tuple):
            result = (result,)
        n_inputs = len(self.next_functions)
        if len(result) < n_inputs:
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients (expected "
                f"{n_inputs}, got {len(result)})")
        out = []
        for g, (fn, _) in zip(result, self.next_functions):
            if g is None:
                out.append(None)
            elif not isinstance(g, Tensor):
                raise TypeError(f"function {self.name()} returned a gradient that is not a Tensor or None "
                                f"(got {type(g).__name__})")
            else:
                out.append(g._data if fn is not None else None)
        return tuple(out)

    @property
    def saved_tensors(self):
        saved = Node.saved_tensors.fget(self)
        return tuple(saved)


class Function:
    """Base class for differentiable operations written by the user.

    Subclass it with two static methods, then call ``MyFn.apply(...)``::

        class Square(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 2 * x * grad

    ``forward`` runs without recording (its result gets a ``SquareBackward``
    node instead) and ``backward`` gets and returns Tensors, one gradient per
    input of ``forward`` (None for a non-tensor input).  Mirrors
    ``torch.autograd.Function``.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._backward_cls = type(cls.__name__ + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": "torch.autograd.function"})

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        from .._tensor import Tensor
        from ..ops._dispatch import edge_of, mark_output
        tensor_args = [a for a in args if isinstance(a, Tensor)]
        record = grad_mode.enabled and any(t._requires_grad for t in tensor_args)
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        with grad_mode.no_grad():
            result = cls.forward(ctx, *args, **kwargs)
        if not record:
            ctx._saved = ()
            return result
        single = not isinstance(result, tuple)
        outputs = (result,) if single else result
        ctx.next_functions = tuple(edge_of(a) if isinstance(a, Tensor) else (None, 0) for a in args)
        ctx._input_meta = tuple((a._data.shape, a._data.dtype) if isinstance(a, Tensor) and a._requires_grad
                                else None for a in args)
        ctx._output_meta = tuple((o._data.shape, o.dtype, o.device) if isinstance(o, Tensor) else None
                                 for o in outputs)
        new_outputs = []
        for i, o in enumerate(outputs):
            if not isinstance(o, Tensor) or id(o) in ctx._non_differentiable or not o.is_floating_point():
                new_outputs.append(o)
                continue
            if any(o is a for a in args) or o._base is not None:
                o = o.view_as(o)   # an input returned as is gets a fresh identity, as in PyTorch
            mark_output(o, ctx, i)
            new_outputs.append(o)
        _bind_tensor_checks(ctx)
        return new_outputs[0] if single else tuple(new_outputs)


def _bind_tensor_checks(ctx):
    """Record version counters of the Tensors a custom Function saved."""
    from .._tensor import Tensor
    checks = []
    for i, t in enumerate(ctx._saved):
        if isinstance(t, Tensor):
            counter = t._version_counter()
            checks.append((i, counter, counter[0], t, None))
    ctx._checks = tuple(checks)


def once_differentiable(fn):
    """Decorator accepted for compatibility with ``torch.autograd.function.once_differentiable``."""
    return fn
