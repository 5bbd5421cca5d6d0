"""The Tensor: memory seen through a shape, strides and an offset, plus what autograd knows about it.

``_data`` is the NumPy array that shows the tensor: its shape is the tensor's shape, its byte strides
divided by the element size are the tensor's strides, its first element's address minus the
storage's is the offset.  ``_storage`` is the array that owns the memory (None: ``_data`` owns it)::

    storage   [ 0  1  2  3  4  5 ]          x = torch.arange(6.).view(2, 3)
    x         shape (2, 3)  strides (3, 1)  offset 0
    x.t()     shape (3, 2)  strides (1, 3)  offset 0   same memory
    x[1]      shape (3,)    strides (1,)    offset 3   same memory

Every tensor on the same memory shares one *version counter*, bumped by each in-place write.  The
operations, ``backward()`` and the rest of PyTorch's Tensor API are attached by the package around
the core (README.md, 3).

In PyTorch: ``c10/core/TensorImpl.h``, ``torch/csrc/autograd/variable.h``, ``torch/_tensor.py``.
"""

import warnings
import weakref

import numpy as np

from . import dtypes, hooks
from .backend import address, device_of, writeable
from .graph import RemovableHandle, current_grad_fn
from .layout import element_strides

__all__ = ["Tensor", "wrap", "wrap_dim", "NON_LEAF_GRAD_WARNING"]

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information. "
    "(Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)")
NON_LEAF_FLAG_ERROR = "you can only change requires_grad flags of leaf variables."
DETACH_HINT = (" If you want to use a computed variable in a subgraph that doesn't require differentiation use "
               "var_no_grad = var.detach().")


def wrap(array):
    """A new tensor (a leaf with no history) on a backend array; no copy."""
    t = hooks.new(Tensor)
    t._data = array
    return t


def wrap_dim(dim, ndim):
    """A dimension index counted from the end when negative (a 0-d tensor accepts -1 and 0).

    Raises:
        IndexError: out of range, with PyTorch's message.
    """
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


class Tensor:
    """A multi-dimensional array of one dtype on one device, with autograd. Mirrors ``torch.Tensor``."""

    # Defaults shared by all tensors: an operation sets only ``_data`` on its result (and ``_grad_fn``,
    # ``_requires_grad`` when it records), so making a tensor costs one attribute write.
    _storage = None          # the array that owns the memory, when it is not _data
    _requires_grad = False
    _grad = None
    _grad_fn = None          # the Node that made this tensor (None for a leaf)
    _output_nr = 0           # which output of _grad_fn this tensor is
    _retains_grad = False
    _hooks = None            # hooks of a leaf (a non-leaf's live on its grad_fn)
    _accumulator_ref = None  # weak reference to this leaf's AccumulateGrad node
    _version_ref = None      # [version], shared by all tensors on the same memory; made on first need
    _base = None             # for a view: the tensor whose memory it shows
    _view_version = None     # for a view: the version its grad_fn was made at
    _creation = None         # for a view: "no_grad", or the name of the multi-output function that made it

    # -- storage, shape, strides, offset ----------------------------------------------------------
    @property
    def shape(self):
        """The sizes of the dimensions."""
        return self._data.shape

    @property
    def dtype(self):
        """The element type, e.g. ``torch.float32``."""
        return dtypes.of(self._data)

    @property
    def device(self):
        """Where the memory is: the CPU, or a GPU."""
        return device_of(self._data)

    @property
    def ndim(self):
        return self._data.ndim

    def dim(self):
        """The number of dimensions: 0 for a scalar, 1 for a vector, 2 for a matrix, ..."""
        return self._data.ndim

    def numel(self):
        """The number of elements: the product of the sizes."""
        return self._data.size

    def stride(self, dim=None):
        """How many elements to skip in memory to move one step along each dimension (or along ``dim``)."""
        strides = element_strides(self._data)
        return strides if dim is None else strides[wrap_dim(dim, self._data.ndim)]

    def storage_offset(self):
        """How many elements the first element lies after the start of the storage."""
        storage = self._data if self._storage is None else self._storage
        return (address(self._data) - address(storage)) // self._data.itemsize

    def data_ptr(self):
        """The address of the first element (0 for a tensor without elements)."""
        return address(self._data) if self._data.size else 0

    def is_contiguous(self, memory_format=None):
        """True when the elements lie in memory in row-major order without gaps (sizes of 1 do not matter)."""
        return bool(self._data.flags.c_contiguous)

    # -- autograd ------------------------------------------------------------------------------------
    @property
    def requires_grad(self):
        """Whether operations on this tensor are recorded (and so whether it gets a gradient)."""
        return self._requires_grad or self._base is not None and current_grad_fn(self) is not None

    @requires_grad.setter
    def requires_grad(self, flag):
        if flag is not True and flag is not False:
            raise RuntimeError("requires_grad must be a bool")
        if not self.is_leaf:
            raise RuntimeError(NON_LEAF_FLAG_ERROR + ("" if flag else DETACH_HINT))
        if flag and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        self._requires_grad = flag

    def requires_grad_(self, requires_grad=True):
        """Set ``requires_grad`` on a leaf (asking a non-leaf for True is a no-op); return ``self``.

        Raises:
            RuntimeError: a non-floating tensor, or switching off a non-leaf (PyTorch's messages).
        """
        if not self.is_leaf:
            if requires_grad:
                return self
            raise RuntimeError(NON_LEAF_FLAG_ERROR + DETACH_HINT)
        if requires_grad and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def grad_fn(self):
        """The node of the backward graph that made this tensor; None for a leaf."""
        return self._grad_fn if self._base is None else current_grad_fn(self)

    @property
    def is_leaf(self):
        """True for tensors no recorded operation made (user-created, or not requiring grad)."""
        return self.grad_fn is None

    @property
    def grad(self):
        """The gradient ``backward()`` accumulated into this leaf; None before (and, with a warning, for a
        non-leaf that did not call ``retain_grad()``)."""
        if self._grad is None and not self._retains_grad and not self.is_leaf:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    def retain_grad(self):
        """Keep the gradient of this non-leaf in ``.grad`` during ``backward()`` (a no-op on leaves).

        Raises:
            RuntimeError: on a tensor that does not require grad.
        """
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        node = self.grad_fn
        if node is None or self._retains_grad:
            return
        node.__dict__.setdefault("_retained", {})[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed (it may return a new one).

        Raises:
            RuntimeError: on a tensor that does not require grad.
        """
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        node = self.grad_fn
        if node is None:                         # a leaf keeps its hooks itself, a non-leaf's live on its node
            hooks_list = self.__dict__.setdefault("_hooks", [])
        else:
            hooks_list = node.__dict__.setdefault("_tensor_hooks", {}).setdefault(self._output_nr, [])
        hooks_list.append(hook)
        return RemovableHandle(hooks_list, hook)

    def _accumulate_grad(self, grad, shared=False, in_place=True):
        """Add a gradient array into ``.grad``: the first one becomes ``.grad`` (copied if someone else may
        hold it: ``shared``), later ones are added in place for leaves (``.grad`` keeps its identity) and
        out of place for the gradients a non-leaf retains (``in_place=False``)."""
        current = self._grad
        if current is None:
            if shared or grad.base is not None or not grad.flags.c_contiguous or not writeable(grad):
                grad = grad.copy()
            self._grad = wrap(grad)
        elif in_place and current._grad_fn is None and writeable(current._data):
            current._data += grad
            current._bump()
        else:
            total = current._data + grad
            self._grad = wrap(np.asarray(total) if isinstance(total, np.generic) else total)

    def detach(self):
        """A tensor on the same memory and version counter, cut off from the graph."""
        t = wrap(self._data)
        t._storage, t._version_ref = self._storage, self._version_counter()
        return t

    @property
    def data(self):
        """A tensor on the same memory with no history and its own version counter: changes made through
        it are invisible to autograd (prefer ``detach()`` or ``no_grad()``)."""
        t = wrap(self._data)
        t._storage = self._storage
        return t

    # -- the version counter ---------------------------------------------------------------------------
    def _version_counter(self):
        if self._version_ref is None:
            self._version_ref = [0]
        return self._version_ref

    @property
    def _version(self):
        """How many in-place writes this tensor's memory has seen."""
        return self._version_counter()[0]

    def _bump(self):
        """Count one more in-place write."""
        if self._version_ref is None:
            self._version_ref = [0]
        self._version_ref[0] += 1
