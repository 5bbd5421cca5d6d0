"""``torch.autograd.Function``: learners' own differentiable functions, written on Tensors; and what the
backward graph's nodes offer on Tensors (``grad_fn(grad)``, ``metadata``).

The graph itself, its nodes and the built-in operations are the core's (``course_lib/core/graph.py``);
a learner's :class:`Function` becomes one node of it, ``MyFnBackward``, whose ``apply`` calls the
learner's ``backward`` on Tensors.
"""

import warnings

import numpy as np

from ..core import grad_mode
from ..core.dispatch import check_inplace, make_view, rebase_history
from ..core.engine import validate
from ..core.graph import AccumulateGrad, Node, RemovableHandle, edge_of, input_meta
from ..core.tensor import Tensor, wrap
from ..devices import module_for

__all__ = ["Node", "Function", "FunctionCtx", "AccumulateGrad", "once_differentiable", "RemovableHandle"]


def _call(self, *grads):
    """``grad_fn(grad)``: run the node's backward formula on Tensors (one per output), recording nothing.

    As in PyTorch, an element-wise operation's formula gives its gradients in the broadcast shape and
    dtype of the result: summing one back to its input's shape (and casting it) is the engine's work,
    which this call leaves out.  Other nodes give them in their inputs' shapes.
    """
    arrays = [g._data if isinstance(g, Tensor) else g for g in grads]
    with grad_mode.no_grad(), np.errstate(all="ignore"):
        out = self.apply(*arrays)
    raw = getattr(getattr(self, "op", None), "elementwise", False)
    result = []
    for i, g in enumerate(out):
        if isinstance(g, np.generic):
            g = np.asarray(g)
        if g is not None and not raw and i < len(self._input_meta) and self._input_meta[i] is not None:
            g = validate(self, g, self._input_meta[i], i)
        result.append(None if g is None else wrap(g))
    return result[0] if len(result) == 1 else tuple(result)


def _metadata(self):
    """A dict where you may keep your own notes about this node (as in PyTorch)."""
    d = self.__dict__.get("_metadata")
    if d is None:
        d = self._metadata = {}
    return d


Node.__call__ = _call
Node.metadata = property(_metadata)
Node.__repr__ = lambda self: f"<{type(self).__name__} object at {id(self):#x}>"


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

    _shares_grads = True        # its gradients are the learner's tensors' arrays
    _fill_missing = False       # it gives zeros itself, unless ctx.set_materialize_grads(False)
    _plain = False

    def apply(self, *grads):
        tensors = []
        for g, meta in zip(grads, self._output_meta):
            if g is None and self._materialize and meta is not None:
                shape, dtype, device = meta
                tensors.append(wrap(module_for(device).zeros(shape, dtype=dtype.numpy_dtype)))
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
        if cls is Function:
            raise NotImplementedError("You must implement the forward function for custom autograd.Function.")
        ctx = cls._backward_cls()
        ctx._tensor_inputs = tuple(isinstance(a, Tensor) for a in args)
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        with grad_mode.no_grad():
            result = cls.forward(ctx, *args, **kwargs)
        if not (grad_mode.state.enabled and any(ctx.needs_input_grad)):
            ctx._saved = ()
            return result
        return _connect(ctx, args, result)


def _connect(ctx, args, result):
    """Make ``ctx`` the grad_fn of the differentiable outputs of a custom Function."""
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
            o._grad_fn, o._output_nr, o._requires_grad = ctx, i, True
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
