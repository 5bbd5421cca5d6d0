"""The Tensor: one backend array plus what autograd needs to know about it.

A course_lib ``Tensor`` wraps exactly one array (``_data``): a NumPy
``ndarray`` on the CPU, a CuPy array on a GPU.  Everything PyTorch shows
about memory is read off that array:

* ``shape``, ``dtype`` and ``device`` come from the array itself, so they
  can never disagree with it;
* a *view* (slicing, ``view``, ``transpose``, ``detach``, ...) wraps an
  array that shares memory with the original.  ``stride()``,
  ``storage_offset()`` and ``data_ptr()`` are computed from the array's
  byte strides and address, in elements as PyTorch counts them;
* every tensor that shares memory also shares one *version counter*; each
  in-place write bumps it, which is how autograd notices that a tensor it
  saved was changed.

The autograd attributes are ``requires_grad``, ``grad``, ``grad_fn`` and
``is_leaf``.  Operations themselves live in ``course_lib/ops`` and are
attached as methods in ``course_lib/_methods.py``.
"""

import warnings

import numpy as np

from . import _dtype
from ._device import cuda_backend, device_of, to_numpy, writeable
from ._device import device as _device_cls
from ._size import Size
from ._strides import address as _address
from ._strides import element_strides
from .autograd import api as _autograd_api
from .autograd import grad_mode

__all__ = ["Tensor", "wrap"]

# PyTorch gives inf and nan silently (1 / 0, log(0), float16 overflow); NumPy warns.  Its floating-point
# warnings are silenced for course_lib's own computations only (warnings raised from course_lib's
# modules), so a learner's NumPy code still warns as usual.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"course_lib(\.|$)")

_new = object.__new__
_new_size = tuple.__new__      # a Size from an array's shape, which holds ints already

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
    "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
    "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor "
    "by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
    "for more information. (Triggered internally at "
    "/__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)")


_NO_ATEN_CUDA = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared libraries: a "
    "CPU library and a CUDA library; this error has occurred because you are trying to use some CUDA "
    "functionality, but the CUDA library has not been loaded by the dynamic linker for some reason.  The CUDA "
    "library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA library! One common culprit "
    "is a lack of -Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library "
    "dependencies if you don't depend on any of their symbols.  You can check if this has occurred by using ldd "
    "on your binary to see if there is a dependency on *_cuda.so library.")

_INFERENCE_FLAG_ERROR = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
_NON_LEAF_FLAG_ERROR = "you can only change requires_grad flags of leaf variables."
_DETACH_HINT = (" If you want to use a computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")


def _current_grad_fn(t):
    from .ops._dispatch import current_grad_fn
    return current_grad_fn(t)


def wrap(array):
    """A new Tensor around a backend array (no copy, no graph). Used by every operation."""
    t = _new(Tensor)
    t._data = array
    return t


class Tensor:
    """A multi-dimensional array of one dtype on one device, with autograd.

    Create tensors with ``torch.tensor(data)`` or the factory functions
    (``zeros``, ``arange``, ...).  Calling ``torch.Tensor(...)`` directly is
    PyTorch's legacy constructor: ``Tensor(2, 3)`` gives an uninitialised
    2x3 float32 tensor and ``Tensor([1, 2])`` a float32 copy of the data.
    Mirrors ``torch.Tensor``.
    """

    __module__ = "course_lib"   # type(t) prints <class 'course_lib.Tensor'> (PyTorch: <class 'torch.Tensor'>)

    # Defaults shared by all tensors.  Operations set only ``_data`` on their
    # results (and ``_grad_fn``/``_requires_grad`` when recording a graph),
    # so creating a tensor costs one attribute write.
    _grad_fn = None          # the Node that produced this tensor (None for leaves)
    _output_nr = 0           # which output of _grad_fn this tensor is
    _requires_grad = False
    _grad = None
    _retains_grad = False
    _base = None             # the tensor this one is a view of (autograd's notion)
    _storage = None          # the array that owns this tensor's memory, when it is not _data
    _version_ref = None      # shared [version] list, created on first need
    _accumulator_ref = None  # weak reference to this leaf's AccumulateGrad node
    _hooks = None            # hooks of a leaf (a non-leaf's hooks live on its grad_fn)
    _view_version = None     # for a view: the version its grad_fn was made at (see ops/_dispatch.py)
    _creation = None         # for a view: None, "no_grad" or a multi-output function's name
    _is_param = False
    _pinned = False          # made by pin_memory()

    __array_priority__ = 1000    # numpy_array + tensor calls Tensor.__radd__

    def __new__(cls, *args, **kwargs):
        from ._creation import legacy_new
        return legacy_new(_dtype.get_default_dtype(), args, kwargs, cls)

    # ------------------------------------------------------------------
    # What the array says
    # ------------------------------------------------------------------
    @property
    def shape(self):
        """The sizes of the dimensions, a ``torch.Size``."""
        return _new_size(Size, self._data.shape)

    def size(self, dim=None):
        """``size()`` is ``shape``; ``size(d)`` is the size of dimension ``d`` (negative counts from the end).

        Raises:
            IndexError: ``d`` out of range, with PyTorch's message.
        """
        if dim is None:
            return _new_size(Size, self._data.shape)
        return self._data.shape[self._dim_of("size", dim)]

    def _dim_of(self, name, dim):
        """``dim`` of ``size(dim)`` / ``stride(dim)`` as an index, with PyTorch's errors."""
        if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
            raise TypeError(f"{name}(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
        if self._data.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return wrap_dim(dim, self._data.ndim)

    @property
    def dtype(self):
        """The element type, e.g. ``torch.float32``."""
        return _dtype._BY_NUMPY[self._data.dtype]

    @property
    def device(self):
        """Where the tensor's memory is: ``device(type='cpu')`` or ``device(type='cuda', index=0)``."""
        return device_of(self._data)

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    @property
    def is_cpu(self):
        return self.device.type == "cpu"

    @property
    def ndim(self):
        """Number of dimensions (same as ``dim()``)."""
        return self._data.ndim

    def dim(self):
        """Number of dimensions: 0 for a scalar, 1 for a vector, 2 for a matrix, ..."""
        return self._data.ndim

    ndimension = dim

    def numel(self):
        """Number of elements (product of the sizes)."""
        return self._data.size

    nelement = numel

    def element_size(self):
        """Bytes per element: 4 for float32, 8 for int64, 1 for bool, ..."""
        return self._data.itemsize

    @property
    def itemsize(self):
        return self._data.itemsize

    @property
    def nbytes(self):
        return self._data.nbytes

    def stride(self, dim=None):
        """Elements to skip in memory to move one step along each dimension.

        ``stride()`` gives all of them as a tuple, ``stride(d)`` one.
        A contiguous ``(2, 3)`` tensor has strides ``(3, 1)``; its transpose
        ``(1, 3)``.  Mirrors ``Tensor.stride``.

        Raises:
            IndexError: ``d`` out of range, with PyTorch's message.
        """
        strides = element_strides(self._data)
        return strides if dim is None else strides[self._dim_of("stride", dim)]

    def data_ptr(self):
        """Address of the first element in memory (an int); 0 for a tensor without elements.

        Views of one tensor differ only by their offset times the element
        size.  Mirrors ``Tensor.data_ptr``.
        """
        if self._data.size == 0:
            return 0
        return _address(self._data)

    def storage_offset(self):
        """How many elements this tensor's first element lies after the start of its storage.

        Mirrors ``Tensor.storage_offset``.
        """
        storage = self._storage if self._storage is not None else self._data
        return (_address(self._data) - _address(storage)) // self._data.itemsize

    def untyped_storage(self):
        """The memory a tensor and its views share (an object with ``data_ptr()`` and ``nbytes()``), bytes when
        printed or indexed. Mirrors ``Tensor.untyped_storage``."""
        return _Storage(self._storage if self._storage is not None else self._data)

    def storage(self):
        """The shared memory as elements of ``self``'s dtype (PyTorch's deprecated ``TypedStorage``; its
        UserWarning comes once). Mirrors ``Tensor.storage``."""
        if not _TYPED_STORAGE_WARNED:
            _TYPED_STORAGE_WARNED.append(True)
            warnings.warn("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
                          "only storage class. This should only matter to you if you are using storages directly.  "
                          "To access UntypedStorage directly, use tensor.untyped_storage() instead of "
                          "tensor.storage()", UserWarning, stacklevel=2)
        return TypedStorage(self._storage if self._storage is not None else self._data, self.dtype)

    def is_contiguous(self, memory_format=None):
        """True if the elements lie in memory in row-major order without gaps.

        Dimensions of size 1 do not matter, as in PyTorch.
        """
        return bool(self._data.flags.c_contiguous)

    def is_floating_point(self):
        """True for float16, float32 and float64 tensors."""
        return self._data.dtype.kind == "f"

    def is_complex(self):
        return False

    def is_signed(self):
        return self.dtype.is_signed

    @property
    def layout(self):
        from . import strided
        return strided

    @property
    def is_sparse(self):
        return False

    @property
    def is_quantized(self):
        return False

    @property
    def is_meta(self):
        return False

    def get_device(self):
        """-1 on the CPU, the GPU's index on CUDA."""
        d = self.device
        return -1 if d.type == "cpu" else d.index

    def _wrap_dim(self, dim, ndim=None):
        """Turn a possibly negative dim into an index, with PyTorch's IndexError."""
        n = self._data.ndim if ndim is None else ndim
        return wrap_dim(dim, n)

    # ------------------------------------------------------------------
    # Python number protocol
    # ------------------------------------------------------------------
    def item(self):
        """The value of a one-element tensor as a Python number (int, float or bool).

        Works on CUDA tensors too (the value is copied to the host).

        Raises:
            RuntimeError: "a Tensor with 3 elements cannot be converted to Scalar".
        """
        a = self._data
        if a.size != 1:
            raise RuntimeError(f"a Tensor with {a.size} elements cannot be converted to Scalar")
        return a.item() if a.__class__ is np.ndarray else to_numpy(a).item()

    def tolist(self):
        """The tensor as (nested) Python lists of Python numbers; a 0-d tensor gives a number."""
        return to_numpy(self._data).tolist()

    def _scalar(self, kind):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return kind(self.item())

    def __float__(self):
        if self._requires_grad:
            _warn_scalar_of_grad_tensor()
        return self._scalar(float)

    def __int__(self):
        return self._scalar(int)

    def __complex__(self):
        if self._requires_grad:
            _warn_scalar_of_grad_tensor()
        return self._scalar(complex)

    def __bool__(self):
        if self._data.size != 1:
            if self._data.size == 0:
                raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    def __index__(self):
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        from .ops.views import unbind  # PyTorch: iter(self.unbind(0)), so rows show UnbindBackward0
        return iter(unbind(self, 0))

    def __hash__(self):
        return id(self)

    def __contains__(self, element):
        """``value in t``: whether some element equals ``value`` (a number or a broadcastable tensor).

        Raises:
            RuntimeError: for anything else (PyTorch's message).
        """
        if not isinstance(element, (Tensor, int, float, bool, complex, np.number)):
            raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
                               f"{type(element)}.")
        return bool((self == element).any().item())

    # PyTorch's signatures, (self, dtype=None) and (self, array), so that NumPy 2 warns as it does with PyTorch
    # ("__array__ implementation doesn't accept a copy keyword", "__array_wrap__ must accept context ...").
    def __array__(self, dtype=None):
        a = self.numpy()        # PyTorch's __array__ is numpy(): same errors (CUDA, requires grad)
        return a if dtype is None else a.astype(dtype, copy=False)

    def __array_wrap__(self, array):
        """NumPy's result of an operation involving this tensor (``t + ndarray``, ``np.exp(t)``) as a tensor."""
        array = array if array.__class__ is np.ndarray else np.asarray(array)
        if array.dtype == np.bool_:          # PyTorch's own workaround: np.isnan(t) is a uint8 tensor
            array = array.astype(np.uint8)
        return wrap(array)

    def __reduce_ex__(self, protocol):
        return (_rebuild, (to_numpy(self._data).copy(), self._requires_grad))

    def __copy__(self):
        """``copy.copy(t)``: a new leaf on the same memory, keeping ``requires_grad`` but not ``grad``/``grad_fn``.

        PyTorch rebuilds the tensor from the same storage (``__reduce_ex__``
        without serialising), so the copy shares memory with ``t``.
        """
        new = wrap(self._data)
        new._storage = self._storage
        new._requires_grad = self._requires_grad
        if self._version_ref is not None:
            new._version_ref = [self._version_ref[0]]   # its own counter, starting at t's version
        return new

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the "
                               "deepcopy protocol at the moment.  If you were attempting to deepcopy a "
                               "module, this may be because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        new = wrap(self._data.copy())
        new._requires_grad = self._requires_grad
        if self._grad is not None:
            new._grad = wrap(self._grad._data.copy())
        memo[id(self)] = new
        return new

    # ------------------------------------------------------------------
    # Printing
    # ------------------------------------------------------------------
    def __repr__(self, *, tensor_contents=None):
        from ._printing import tensor_repr
        return tensor_repr(self)

    def __format__(self, spec):
        if self._data.ndim == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    # ------------------------------------------------------------------
    # Conversion
    # ------------------------------------------------------------------
    def numpy(self, *, force=False):
        """A NumPy array that shares memory with this CPU tensor.

        ``force=True`` also converts a CUDA tensor or one that requires grad
        (copying to the host when needed).

        Raises:
            TypeError: the tensor lives on a GPU ("can't convert cuda:0 device
                type tensor to numpy. Use Tensor.cpu() ..."), as in PyTorch.
            RuntimeError: the tensor requires grad and grad mode is on
                (use ``detach()`` first).
        """
        if force:
            return to_numpy(self._data.copy() if self._data.__class__ is not np.ndarray else self._data)
        # PyTorch checks the device first, and requires_grad only while grad mode is on
        if self._data.__class__ is not np.ndarray:
            raise TypeError(f"can't convert {self.device} device type tensor to numpy. Use Tensor.cpu() to copy "
                            "the tensor to host memory first.")
        if self._requires_grad and grad_mode.enabled:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._data

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """Without argument: the legacy type name (``'torch.FloatTensor'``); with a dtype, a legacy type
        (``torch.IntTensor``) or its name (``'torch.IntTensor'``, ``'torch.cuda.FloatTensor'``): convert.
        Mirrors ``Tensor.type``.

        Raises:
            ValueError: an unknown type ("invalid type: 'IntTensor'").
        """
        if dtype is None:
            name = self.dtype._tensor_type
            if self._data.__class__ is not np.ndarray:
                name = name.replace("torch.", "torch.cuda.")
            return name
        if isinstance(dtype, _dtype.dtype):
            return self.to(dtype)
        if isinstance(dtype, str):
            cuda = dtype.startswith("torch.cuda.")
            target = _dtype.from_legacy_name(dtype.replace("torch.cuda.", "torch.")) \
                if dtype.startswith("torch.") else None
            if target is None:
                raise ValueError(f"invalid type: '{dtype}'")
        else:
            target = getattr(dtype, "_dtype_of_type", None)
            if target is None:
                if not isinstance(dtype, type):
                    raise TypeError("dtype must be a type, str, or dtype object")
                name = dtype.__name__                  # the C name of a built-in type: 'numpy.float64'
                if not dtype.__flags__ & (1 << 9) and dtype.__module__ != "builtins":
                    name = f"{dtype.__module__}.{name}"
                raise ValueError(f"invalid type: '{name}'")
            cuda = type(dtype).__name__ == "_CudaTensorType"
        if cuda and cuda_backend() is None:
            raise RuntimeError(_NO_ATEN_CUDA)
        return self.to("cuda" if cuda else "cpu", target)

    def to(self, *args, **kwargs):
        """Convert dtype and/or device: ``to(torch.float64)``, ``to('cuda')``, ``to('cpu', torch.int32)``,
        ``to(other_tensor)``, ``to(device=..., dtype=...)``.

        Returns ``self`` when nothing changes (as PyTorch does), else a copy
        that stays in the autograd graph.
        """
        from .ops.conversion import to
        return to(self, *args, **kwargs)

    def cpu(self):
        """This tensor on the CPU (``self`` if it is already there)."""
        return self.to("cpu")

    def cuda(self, device=None, non_blocking=False):
        """This tensor on the GPU (``self`` if it is already there).

        Raises:
            AssertionError: without CUDA ("Torch not compiled with CUDA enabled").
            RuntimeError: a device that is not a GPU ("Invalid device, must be cuda device"), or an index
                without a GPU, with PyTorch's messages.
        """
        if device is None:
            return self.to("cuda")
        device = _device_cls(device)
        if device.type != "cuda":
            raise RuntimeError("Invalid device, must be cuda device")
        return self.to(device)

    def pin_memory(self, device=None):
        """A copy in page-locked host memory, for faster copies to the GPU (course_lib: an ordinary copy
        that reports ``is_pinned()``). Mirrors ``Tensor.pin_memory``.

        Raises:
            RuntimeError: without a GPU ("Cannot access accelerator device when none is available."),
                as PyTorch.
        """
        if cuda_backend() is None:
            raise RuntimeError("Cannot access accelerator device when none is available.")
        if self._data.__class__ is not np.ndarray:
            raise RuntimeError(f"cannot pin '{self.type()}' only dense CPU tensors can be pinned")
        if self._pinned:
            return self
        copy = self.clone()
        copy._pinned = True
        return copy

    def is_pinned(self, device=None):
        """True for a tensor made by ``pin_memory()``. Mirrors ``Tensor.is_pinned``."""
        return self._pinned

    def _cast(self, dt):
        return self.to(dt)

    def float(self):
        """Convert to float32."""
        return self.to(_dtype.float32)

    def double(self):
        """Convert to float64."""
        return self.to(_dtype.float64)

    def half(self):
        """Convert to float16."""
        return self.to(_dtype.float16)

    def long(self):
        """Convert to int64 (floats are truncated toward zero)."""
        return self.to(_dtype.int64)

    def int(self):
        """Convert to int32."""
        return self.to(_dtype.int32)

    def short(self):
        """Convert to int16."""
        return self.to(_dtype.int16)

    def char(self):
        """Convert to int8."""
        return self.to(_dtype.int8)

    def byte(self):
        """Convert to uint8."""
        return self.to(_dtype.uint8)

    def bool(self):
        """Convert to bool (non-zero is True)."""
        return self.to(_dtype.bool)

    def type_as(self, other):
        return self.to(other.dtype)

    # ------------------------------------------------------------------
    # Autograd
    # ------------------------------------------------------------------
    @property
    def requires_grad(self):
        """Whether operations on this tensor are recorded for autograd.

        True for leaves created with ``requires_grad=True`` and for every
        result of a recorded operation (and, as in PyTorch, for views of a
        tensor that requires grad).
        """
        if self._requires_grad:
            return True
        return self._base is not None and _current_grad_fn(self) is not None

    @requires_grad.setter
    def requires_grad(self, flag):
        if flag is not True and flag is not False:       # PyTorch takes no 1/0 here
            raise RuntimeError("requires_grad must be a bool")
        if not self.is_leaf:
            raise RuntimeError(_NON_LEAF_FLAG_ERROR if flag else _NON_LEAF_FLAG_ERROR + _DETACH_HINT)
        if flag and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if flag and self._version_ref is grad_mode.INFERENCE_VERSION and not grad_mode.inference:
            raise RuntimeError(_INFERENCE_FLAG_ERROR)
        self._requires_grad = bool(flag)

    @requires_grad.deleter
    def requires_grad(self):
        raise RuntimeError("requires_grad must be a bool")

    def requires_grad_(self, requires_grad=True):
        """Set ``requires_grad`` in place and return ``self``. Mirrors ``Tensor.requires_grad_``.

        Raises:
            RuntimeError: on a non-floating tensor, or when switching off a
                non-leaf, with PyTorch's messages.
            TypeError: a flag that is not a bool.
        """
        if requires_grad is not True and requires_grad is not False:
            from ._arguments import type_name
            raise TypeError(f"requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                            f"{type_name(requires_grad)}")
        if not self.is_leaf:
            if requires_grad:
                return self
            raise RuntimeError(_NON_LEAF_FLAG_ERROR + _DETACH_HINT)
        if requires_grad and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self._version_ref is grad_mode.INFERENCE_VERSION and not grad_mode.inference:
            raise RuntimeError(_INFERENCE_FLAG_ERROR)
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def grad_fn(self):
        """The node of the backward graph that produced this tensor; None for leaves."""
        return self._grad_fn if self._base is None else _current_grad_fn(self)

    @property
    def is_leaf(self):
        """True for tensors not produced by a recorded operation (user-created, or ``requires_grad=False``)."""
        return (self._grad_fn if self._base is None else _current_grad_fn(self)) is None

    @property
    def output_nr(self):
        """Which output of ``grad_fn`` this tensor is (0 for most)."""
        return self._output_nr

    @property
    def grad(self):
        """The accumulated gradient of a leaf after ``backward()``; None before.

        Reading it on a non-leaf warns (UserWarning) and gives None, unless
        ``retain_grad()`` was called, exactly as in PyTorch.
        """
        if self._grad is None and not self._retains_grad and not self.is_leaf:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value._data.dtype != self._data.dtype:
                from .ops.linalg import _c_name as c_type_name
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{c_type_name(value._data)}' to a tensor with "
                    f"grad_dtype '{self.dtype._short_name}'. The gradient must match the tensor's grad_dtype "
                    "(defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a specific "
                    "dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a "
                    "tensor and its gradient may break downstream systems that assume they match.")
            if value._data.shape != self._data.shape:
                raise RuntimeError(f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of "
                                   f"size '{list(self.shape)}'. Please ensure that the gradient and the tensor are "
                                   "the same size")
            if value._data.__class__ is not self._data.__class__:
                raise RuntimeError("attempting to assign a gradient located on device with index '0' to a tensor "
                                   "located on device with index '-1'. Please ensure that the gradient and the "
                                   "tensor are on the same device")
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    def retain_grad(self):
        """Ask a non-leaf tensor to keep its gradient in ``.grad`` during backward (a no-op on leaves).

        Mirrors ``Tensor.retain_grad``.

        Raises:
            RuntimeError: on a tensor that does not require grad.
        """
        import weakref
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        node = self.grad_fn
        if node is None or self._retains_grad:
            return
        if node._retained is None:
            node._retained = {}
        node._retained[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    @property
    def retains_grad(self):
        """True after ``retain_grad()`` on a non-leaf."""
        return self._retains_grad

    def register_hook(self, hook):
        """Call ``hook(grad)`` whenever the gradient of this tensor is computed; it may return a new one.

        Returns a handle whose ``remove()`` unregisters the hook.  Mirrors
        ``Tensor.register_hook``.

        Raises:
            RuntimeError: on a tensor that does not require grad.
        """
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        from .autograd.function import RemovableHandle
        node = self.grad_fn
        if node is None:
            if self._hooks is None:
                self._hooks = []
            hooks = self._hooks
        else:
            if node._tensor_hooks is None:
                node._tensor_hooks = {}
            hooks = node._tensor_hooks.setdefault(self._output_nr, [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor with respect to the leaves of its graph.

        The gradients are *added* into the leaves' ``.grad``.  A one-element
        tensor needs no ``gradient``; for any other shape, ``gradient`` (same
        shape) weights the outputs: the vector-Jacobian product.  Without
        ``retain_graph=True`` the graph's saved tensors are freed, so a
        second ``backward`` through them raises.  Mirrors ``Tensor.backward``.

        Raises:
            RuntimeError: "grad can be implicitly created only for scalar
                outputs"; "element 0 of tensors does not require grad and
                does not have a grad_fn"; a second backward; shape mismatch
                of ``gradient``; a saved tensor modified in place — all with
                PyTorch's messages.
            NotImplementedError: ``create_graph=True`` (see ``autograd.api``).
        """
        _autograd_api.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def _accumulate_grad(self, grad, shared=False, in_place=True):
        """Add a gradient array into ``.grad`` (what AccumulateGrad and ``retain_grad`` do).

        The first gradient becomes ``.grad``: the array itself when nobody
        else can see it (``shared=False``), else a copy.  Later ones are
        added in place for leaves (``.grad`` keeps its identity, as in
        PyTorch) and out of place for retained non-leaf gradients
        (``in_place=False``).
        """
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
        """A new tensor sharing this one's memory and version counter, cut off from the graph.

        Writing into it in place changes this tensor too, and autograd still
        notices (the version counter is shared).  Mirrors ``Tensor.detach``.
        """
        t = wrap(self._data)
        t._storage = self._storage
        t._version_ref = self._version_counter()
        return t

    def detach_(self):
        """Cut this tensor off from the graph in place (it becomes a leaf). Mirrors ``Tensor.detach_``.

        Raises:
            RuntimeError: on a view (PyTorch's message).
        """
        if self._base is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are using "
                               "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view "
                               "is set as True, gradients are views of DDP buckets, and hence detach_() "
                               "cannot be called on these gradients. To fix this error, please refer to "
                               "the Optimizer.zero_grad() function in torch/optim/optimizer.py as the "
                               "solution.")
        self._grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        return self

    @property
    def data(self):
        """A tensor sharing memory with this one but with no autograd history and its own version counter.

        Changes made through ``.data`` are invisible to autograd: the
        version counter is not shared.  Prefer ``detach()`` or ``no_grad()``.
        """
        t = wrap(self._data)
        t._storage = self._storage
        return t

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._requires_grad and value._data.dtype.kind != "f":
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex "
                               "dtype")
        self._data = value._data
        self._storage = value._storage

    @data.deleter
    def data(self):
        raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")

    # ------------------------------------------------------------------
    # Version counter (shared by all tensors that share memory)
    # ------------------------------------------------------------------
    def _version_counter(self):
        ref = self._version_ref
        if ref is None:
            ref = self._version_ref = [0]
        return ref

    @property
    def _version(self):
        """How many in-place writes this tensor's memory has seen.

        Raises:
            RuntimeError: for an inference tensor (PyTorch's message).
        """
        ref = self._version_counter()
        if ref is grad_mode.INFERENCE_VERSION:
            raise RuntimeError("Inference tensors do not track version counter.")
        return ref[0]

    def is_inference(self):
        """True for a tensor made in ``torch.inference_mode()`` (or a view of one). Mirrors
        ``Tensor.is_inference``."""
        return self._version_ref is grad_mode.INFERENCE_VERSION

    def _bump(self):
        ref = self._version_ref
        if ref is None:
            self._version_ref = [1]
        else:
            ref[0] += 1

    def _is_view(self):
        return self._base is not None


class UntypedStorage:
    """The minimal face of ``untyped_storage()``: where the memory starts and how large it is."""

    def __init__(self, array):
        self._array = array

    def data_ptr(self):
        return _address(self._array) if self._array.size else 0

    def nbytes(self):
        return self._array.nbytes

    def size(self):
        return self._array.nbytes

    def __len__(self):
        return self._array.nbytes

    def _items(self):
        return to_numpy(self._array).reshape(-1).view(np.uint8)

    def __getitem__(self, i):
        return int(self._items()[i])

    def tolist(self):
        return self._items().tolist()

    @property
    def device(self):
        return device_of(self._array)

    def __repr__(self):
        info = f"[torch.storage.UntypedStorage(device={self.device}) of size {len(self)}]"
        return " " + "\n ".join(str(v) for v in self.tolist()) + "\n" + info


class TypedStorage(UntypedStorage):
    """``Tensor.storage()``: the memory as elements of the tensor's dtype."""

    def __init__(self, array, dtype):
        super().__init__(array)
        self.dtype = dtype

    def _items(self):
        return to_numpy(self._array).reshape(-1)

    def __getitem__(self, i):
        return self._items()[i].item()

    def size(self):
        return self._array.size

    def __len__(self):
        return self._array.size

    def __repr__(self):
        info = f"[torch.storage.TypedStorage(dtype={self.dtype}, device={self.device}) of size {len(self)}]"
        return " " + "\n ".join(str(v) for v in self.tolist()) + "\n" + info


_Storage = UntypedStorage
_TYPED_STORAGE_WARNED = []
_SCALAR_WARNED = []


def _warn_scalar_of_grad_tensor():
    """``float(t)`` of a tensor that requires grad: PyTorch's warning, once per session (TORCH_WARN_ONCE)."""
    if not _SCALAR_WARNED:
        _SCALAR_WARNED.append(True)
        warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
                      "Consider using tensor.detach() first. (Triggered internally at "
                      "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)",
                      UserWarning, stacklevel=3)


def wrap_dim(dim, ndim):
    """Normalise a dimension index; PyTorch's IndexError when out of range (a 0-d tensor counts as 1-d)."""
    n = ndim if ndim > 0 else 1
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def _rebuild(array, requires_grad):
    t = wrap(array)
    t._requires_grad = requires_grad
    return t


def seal_properties(cls=Tensor):
    """Give every read-only property of ``cls`` a setter and deleter that raise PyTorch's AttributeError
    (``x.shape = ...``: "attribute 'shape' of 'torch._C.TensorBase' objects is not writable").

    Called once all properties are attached (``course_lib/__init__.py``); reading stays a plain property.
    """
    for name, value in list(vars(cls).items()):
        if isinstance(value, property) and value.fset is None:
            def refuse(self, *value, _name=name):
                raise AttributeError(f"attribute '{_name}' of 'torch._C.TensorBase' objects is not writable")
            setattr(cls, name, property(value.fget, refuse, refuse, value.__doc__))
