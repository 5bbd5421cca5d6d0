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

import numpy as np

from . import anomaly_mode, grad_mode

__all__ = ["Node", "Function", "FunctionCtx", "AccumulateGrad", "Op", "once_differentiable"]

_sequence = itertools.count()

ERR_FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward.")

_FREED = object()   # marks a node whose saved tensors were released by backward()


def short_name(node_name):
    """'ExpBackward0' -> 'Exp', 'PowBackward1' -> 'Pow1', as PyTorch names a node in its in-place errors;
    other nodes keep their full name ('torch::autograd::CopySlices')."""
    head, sep, tail = node_name.rpartition("Backward")
    if not sep:
        return node_name
    return head if tail == "0" else head + tail


class Node:
    """A node of the backward graph (``torch.autograd.graph.Node``).

    ``name()`` is the node's name (``'MulBackward0'``), ``next_functions``
    the edges to the nodes of the inputs.  Calling a node, as in
    ``y.grad_fn(grad)``, runs its backward formula on Tensors.
    """

    next_functions = ()
    needs_input_grad = ()
    _saved = ()          # values saved by forward; _FREED after backward released them
    _checks = ()         # (index in _saved, version counter, version at save, tensor, output info)
    _input_meta = ()     # (shape, numpy dtype, array type) of each input that needs a gradient, else None
    _n_outputs = 1
    _tensor_hooks = None  # {output_nr: [hook]}: hooks of the non-leaf tensors this node produced
    _retained = None     # {output_nr: weakref to tensor} for tensors that called retain_grad()
    _pre_hooks = None
    _hooks = None
    _user_function = False  # True for the nodes of learners' Functions (their gradients are the learner's arrays)
    _plain = True        # no hooks, not a learner's Function: the engine may just call apply (see register_*hook)

    def __init__(self):
        self._sequence_nr = next(_sequence)
        if anomaly_mode.enabled:
            self._forward_stack = anomaly_mode.forward_stack()

    # -- introspection, as in PyTorch --------------------------------------
    def name(self):
        """The node's name, e.g. ``'AddBackward0'``."""
        return type(self).__name__

    @property
    def metadata(self):
        """A dict where you may keep your own notes about this node (as in PyTorch)."""
        d = self.__dict__.get("_metadata")
        if d is None:
            d = self._metadata = {}
        return d

    def register_hook(self, fn):
        """Call ``fn(grad_inputs, grad_outputs)`` after this node ran (tuples of Tensors or None).

        ``fn`` may return a tuple of new ``grad_inputs``.  Returns a handle
        whose ``remove()`` unregisters it.  Mirrors ``Node.register_hook``.
        """
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(fn)
        self._plain = False
        return RemovableHandle(self._hooks, fn)

    def register_prehook(self, fn):
        """Call ``fn(grad_outputs)`` before this node runs; it may return new ``grad_outputs``.

        Mirrors ``Node.register_prehook``.
        """
        if self._pre_hooks is None:
            self._pre_hooks = []
        self._pre_hooks.append(fn)
        self._plain = False
        return RemovableHandle(self._pre_hooks, fn)

    def __call__(self, *grads):
        """Run the backward formula on Tensors (one per output), without recording a graph."""
        from .._tensor import Tensor, wrap
        from .engine import validate
        arrays = [g._data if isinstance(g, Tensor) else g for g in grads]
        with grad_mode.no_grad(), np.errstate(all="ignore"):
            out = self.apply(*arrays)
        meta = self._input_meta
        result = []
        for i, g in enumerate(out):
            if g is not None and i < len(meta) and meta[i] is not None:
                g = validate(self, g, meta[i], i)
            result.append(None if g is None else wrap(g))
        return result[0] if len(result) == 1 else tuple(result)

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
        self._check_saved()
        return self._saved

    def _check_saved(self):
        if self._saved is _FREED:
            raise RuntimeError(ERR_FREED)
        for check in self._checks:
            if check[1][0] != check[2]:
                raise RuntimeError(_modified_message(self, check))

    def __getattr__(self, name):
        """``node._saved_self``, ``node._saved_result``, ...: what the forward saved, as in PyTorch.

        An input comes back as the very tensor that was saved, an output as
        a new tensor; Python numbers (``_saved_exponent``) as numbers.  The
        names are the op's ``saved_names`` (PyTorch's argument names), then
        the node's own attributes.

        Raises:
            RuntimeError: after backward freed them (PyTorch's message).
            AttributeError: no such saved value.
        """
        if not name.startswith("_saved_"):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        key = name[len("_saved_"):]
        d = self.__dict__
        if "_shown_" + key in d:                 # a Python number PyTorch's node shows as it was given
            return d["_shown_" + key]
        names = getattr(getattr(self, "op", None), "saved_names", ())
        if key == "other" and "_wrapped_other" in d and key in names:
            return _wrapped_number(d["_wrapped_other"])
        if key in names:
            saved = self.__dict__.get("_saved", ())
            if saved is _FREED:
                raise RuntimeError(ERR_FREED)
            i = names.index(key)
            for check in self.__dict__.get("_checks", ()):
                if check[0] == i:
                    if check[3] is not None:
                        return check[3]      # the input tensor itself
                    out = _as_python(saved[i])
                    if out._data.dtype.kind == "f":      # an output: unpacked with this node as its grad_fn
                        out._grad_fn, out._requires_grad, out._output_nr = self, True, check[4]
                    return out
            return _as_python(saved[i] if i < len(saved) else None)
        if key in self.__dict__:
            return _as_python(self.__dict__[key])
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

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


# An Op node's ``saved_tensors``: ``apply`` has checked them just before calling ``backward``.
_checked_saved = property(lambda self: self._saved, doc="What forward saved (checked by ``apply``).")


def _wrapped_number(number):
    """A Python number as PyTorch's node saved it: a 0-d tensor, int64, float64 or bool by its type."""
    from .._tensor import wrap
    kind = np.bool_ if isinstance(number, bool) else np.int64 if isinstance(number, int) else np.float64
    return wrap(np.asarray(number, dtype=kind))


def _as_python(value):
    """A saved value as a learner sees it: arrays as Tensors, NumPy scalars as Python numbers."""
    if isinstance(value, np.generic):
        return value.item()
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        from .._tensor import wrap
        return wrap(value)
    return value


def _modified_message(node, check):
    """PyTorch's text for a saved tensor that was modified in place after it was saved.

    ``check`` names the input tensor, or else the number of the node's output that was saved.
    """
    index, counter, version, tensor, nr = check
    if tensor is not None:
        from ..ops._dispatch import current_grad_fn
        descr, shape = tensor.type(), list(tensor.shape)
        fn = current_grad_fn(tensor)
        where = f", which is output {tensor._output_nr} of {short_name(fn.name())}," if fn is not None else ""
    else:
        from .._tensor import Tensor, wrap
        value = node._saved[index]          # an output: an array (built-in ops) or a Tensor (Functions)
        value = value if isinstance(value, Tensor) else wrap(value)
        descr, shape = value.type(), list(value.shape)
        where = f", which is output {nr} of {short_name(node.name())},"
    return ("one of the variables needed for gradient computation has been modified by an inplace "
            f"operation: [{descr} [{', '.join(map(str, shape))}]]{where} is at version {counter[0]}; "
            f"expected version {version} instead. Hint: " + (
                "the backtrace further above shows the operation that failed to compute its gradient. The variable "
                "in question was changed in there or anywhere later. Good luck!" if anomaly_mode.enabled else
                "enable anomaly detection to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False)."))


class RemovableHandle:
    """What ``register_hook`` returns: ``handle.remove()`` unregisters the hook."""

    def __init__(self, container, item):
        self._container, self._item = container, item

    def remove(self):
        if self._item in self._container:
            self._container.remove(self._item)


class AccumulateGrad(Node):
    """The node behind a leaf tensor that requires grad: adds incoming gradients into ``.grad``.

    ``variable`` is the leaf tensor.  Among the nodes that are ready, these
    run first (as in PyTorch, where their sequence number is the largest).
    Mirrors PyTorch's ``AccumulateGrad``.
    """

    __module__ = "builtins"           # type() shows <class 'AccumulateGrad'>, as for PyTorch's C++ nodes
    _sequence_nr = float("inf")

    def __init__(self, variable):
        self.variable = variable

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def apply(self, grad):
        self.variable._accumulate_grad(grad)
        return ()


def accumulator_of(tensor):
    """The tensor's AccumulateGrad node: one node per leaf while a graph uses it (held weakly)."""
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
    when a graph is being recorded, makes the node (an instance of
    ``Op.Node``, a class named ``node_name``).  Only the arrays of tensor
    operands are positional arguments, one graph edge each; Python numbers
    and options come as keyword arguments.  ``backward`` may return
    gradients in the broadcast shape: the engine sums them back to each
    input's shape (as PyTorch's engine does), and None for an input that
    needs no gradient.  It runs with NumPy's floating-point warnings off:
    like PyTorch, backward gives inf or nan silently.  Before it runs, the
    node checks what forward saved (freed by an earlier backward? modified
    in place since?), so an op must save exactly what PyTorch's saves:
    that decides when a second backward raises.  Every subclass with a ``node_name`` is listed in
    ``Op.registry``, which the gradient-check tests walk.
    """

    node_name = None        # grad_fn name; None for ops that are never differentiated
    int_to_float = False    # integer inputs are computed as the default float dtype (exp, /, ...)
    result_dtype = None     # fixed result dtype (comparisons give bool)
    inplace_ufunc = None    # the NumPy ufunc that is forward without options (np.add, ...): dispatch calls it
                            # directly when nothing is recorded, and with out= for in-place forms
    scalar_op = None        # the Op used when the second operand is a Python number (one edge), if different
    node_full_name = None   # what name() gives, when PyTorch's differs from the class name
    saved_names = ()        # PyTorch's names of the values forward saves (node._saved_self, ...), in order
    elementwise = False     # see Elementwise
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
                if self._checks or self._saved is _FREED:   # as PyTorch's nodes do: unpack (and check) what
                    self._check_saved()                      # was saved first
                return _backward(self, *grads)
            # type() shows <class 'MulBackward0'>; backward reads ctx.saved_tensors, which apply just checked
            attrs = {"apply": apply, "__module__": "builtins", "op": cls, "saved_tensors": _checked_saved}
            if cls.node_full_name:
                attrs["name"] = lambda self, _name=cls.node_full_name: _name
            cls.Node = type(cls.node_name, (Node,), attrs)
            Op.registry.append(cls)

    @staticmethod
    def forward(ctx, *arrays):
        raise NotImplementedError

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError


class Elementwise(Op):
    """An Op computed element by element (with broadcasting).

    Its result is laid out in memory like its operands, as PyTorch's
    TensorIterator lays it out: ``x.t() + 1`` is transposed too
    (``ops/_dispatch.record`` calls ``_strides.elementwise_result``).
    """

    elementwise = True
    # iterator_operands(arrays, params): the operands, in PyTorch's order, whose layout decides the
    # result's, where they are not just the arrays (a static method); None: the arrays
    iterator_operands = None


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

    _materialize = True
    _non_differentiable = ()
    _dirty = ()

    def save_for_backward(self, *tensors):
        """Keep Tensors (or None) for ``backward``, where ``ctx.saved_tensors`` gives them back.

        Raises:
            TypeError: a value that is neither a Tensor nor None.
        """
        from .._tensor import Tensor
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                                f"{type(t).__name__}")
        self._saved = tensors

    def mark_non_differentiable(self, *tensors):
        """Outputs that get no gradient (they will not require grad)."""
        self._non_differentiable = tuple(tensors)

    def set_materialize_grads(self, value):
        """With False, ``backward`` gets None (not zeros) for outputs that received no gradient."""
        self._materialize = bool(value)

    def mark_dirty(self, *tensors):
        """Inputs that ``forward`` modified in place (and returns): their history moves to this node."""
        self._dirty = tuple(tensors)


class BackwardCFunction(FunctionCtx, Node):
    """Node class of a custom Function (``MyFnBackward``): calls the user's ``backward`` on Tensors."""

    _user_function = True
    _plain = False

    def apply(self, *grads):
        from .._creation import zeros_from_meta
        from .._tensor import Tensor, wrap
        tensors = []
        for g, meta in zip(grads, self._output_meta):
            if g is None and self._materialize and meta is not None:
                tensors.append(zeros_from_meta(meta))
            else:
                tensors.append(None if g is None else wrap(g))
        with grad_mode.no_grad():
            result = self._forward_cls.backward(self, *tensors)
        if not isinstance(result, tuple):
            result = (result,)
        n_inputs = len(self._tensor_inputs)
        if len(result) < n_inputs or any(g is not None for g in result[n_inputs:]):
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients (expected "
                               f"{n_inputs}, got {len(result)})")
        out = []            # one per Tensor input: the node's edges skip the other arguments
        for i, (g, is_tensor) in enumerate(zip(result, self._tensor_inputs)):
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            if not is_tensor:
                if g is not None:
                    raise RuntimeError(f"function {self.name()} returned a gradient different than None at "
                                       f"position {i + 1}, but the corresponding forward input was not a Variable")
            else:
                out.append(g._data if g is not None and self.needs_input_grad[i] else None)
        return tuple(out)


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

    ``forward`` runs without recording (its outputs get one
    ``SquareBackward`` node instead).  ``backward`` gets one gradient per
    output of ``forward`` and returns one per input (None for an input that
    is not a Tensor or needs no gradient); it runs with grad mode off.
    ``ctx.needs_input_grad`` says which inputs need one.  Mirrors
    ``torch.autograd.Function``.

    Raises (at ``backward`` time, with PyTorch's messages):
        RuntimeError: a wrong number of gradients, a gradient for a
            non-Tensor input, a gradient of the wrong shape, a value that is
            neither a Tensor nor None, saved tensors modified in place.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._backward_cls = type(cls.__name__ + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": "torch.autograd.function"})

    def __init__(self, *args, **kwargs):
        import warnings
        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd functions are all static, "
                      "so you should invoke them on the class itself. Instantiating an autograd function will raise "
                      "an error in a future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use "
                           "new-style autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` on ``args`` and record one node for its outputs (when an input requires grad)."""
        from .._tensor import Tensor
        if cls is Function:
            raise NotImplementedError("You must implement the forward function for custom autograd.Function.")
        ctx = cls._backward_cls()
        ctx._tensor_inputs = tuple(isinstance(a, Tensor) for a in args)
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        with grad_mode.no_grad():
            result = cls.forward(ctx, *args, **kwargs)
        if not (grad_mode.enabled and any(ctx.needs_input_grad)):
            ctx._saved = ()
            return result
        return _connect(ctx, args, result)


def _connect(ctx, args, result):
    """Make ``ctx`` the grad_fn of the differentiable outputs of a custom Function."""
    from .._tensor import Tensor
    from ..ops._dispatch import check_inplace, edge_of, input_meta, make_view, mark_output, rebase_history
    single = not isinstance(result, tuple)
    outputs = (result,) if single else result
    ctx.next_functions = tuple(edge_of(a) for a in args if isinstance(a, Tensor))
    ctx._input_meta = tuple(input_meta(a) if n else None
                            for a, n in zip(args, ctx.needs_input_grad) if isinstance(a, Tensor))
    ctx._output_meta = tuple((o._data.shape, o.dtype, o.device) if isinstance(o, Tensor) else None
                             for o in outputs)
    ctx._n_outputs = len(outputs)
    new_outputs = []
    for i, o in enumerate(outputs):
        if (not isinstance(o, Tensor) or not o.is_floating_point()
                or any(o is t for t in ctx._non_differentiable)):
            new_outputs.append(o)
            continue
        if any(o is d for d in ctx._dirty):
            if o._requires_grad and o._grad_fn is None and o._base is None:
                raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
            check_inplace(o, True)
            o._bump()
            rebase_history(o, ctx, i)
        else:
            if any(o is a for a in args):
                o = make_view(o, o._data)     # an input returned as is gets a fresh identity, as in PyTorch
            mark_output(o, ctx, i)
            o._view_version = o._version_counter()[0]
        new_outputs.append(o)
    checks = []
    for i, t in enumerate(ctx._saved):
        if isinstance(t, Tensor):
            counter = t._version_counter()
            nr = next((k for k, o in enumerate(outputs) if o is t), None)
            if nr is None:
                checks.append((i, counter, counter[0], t, None))
            else:          # an output: the error names this node, whatever happens to the tensor later
                checks.append((i, counter, counter[0], None, nr))
    ctx._checks = tuple(checks)
    return new_outputs[0] if single else tuple(new_outputs)


def once_differentiable(fn):
    """Decorator accepted for compatibility with ``torch.autograd.function.once_differentiable``."""
    return fn
