"""The rest of PyTorch's Tensor API, on the core's Tensor (``course_lib/core/tensor.py``).

The core's Tensor holds the memory (shape, strides, offset), the autograd attributes and the version
counter.  This module attaches what PyTorch's Tensor offers besides: ``torch.Size`` shapes,
conversions (``to``, ``cuda``, ``float()``, ``numpy()``, ``type()``, ``tolist()``), Python's number
and container protocols, copying and pickling, storages, printing, and PyTorch's checks of the values
given to ``requires_grad``, ``grad`` and ``data``.  The operations themselves are attached as methods
by ``course_lib/_methods.py``.
"""

import warnings

import numpy as np

from .core.backend import address as _address
from .core.backend import device_of, to_numpy
from .core.grad_mode import state as _grad_mode
from .core.tensor import Tensor, wrap, wrap_dim
from .devices import cuda_backend
from .ops.conversion import to as _to
from .ops.views import unbind as _unbind
from .torch_compat import dtypes as _dtype
from .torch_compat.device import device as _device_cls
from .torch_compat.layouts import element_strides
from .torch_compat.names import type_name
from .torch_compat.printing import tensor_repr
from .torch_compat.size import Size

__all__ = ["Tensor", "wrap", "wrap_dim", "UntypedStorage", "TypedStorage", "seal_properties"]

_new_size = tuple.__new__      # a Size from an array's shape, which holds ints already

strided = type("layout", (), {"__repr__": lambda self: "torch.strided"})()     # torch.strided, the only layout

_NO_ATEN_CUDA = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared libraries: a "
    "CPU library and a CUDA library; this error has occurred because you are trying to use some CUDA "
    "functionality, but the CUDA library has not been loaded by the dynamic linker for some reason.  The CUDA "
    "library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA library! One common culprit "
    "is a lack of -Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library "
    "dependencies if you don't depend on any of their symbols.  You can check if this has occurred by using ldd "
    "on your binary to see if there is a dependency on *_cuda.so library.")


class _TensorAPI:
    """The rest of ``torch.Tensor``: everything ``core.tensor.Tensor`` leaves to the package (attached below)."""

    # ------------------------------------------------------------------
    # What the array says
    # ------------------------------------------------------------------

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
    def is_cuda(self):
        return self.device.type == "cuda"

    @property
    def is_cpu(self):
        return self.device.type == "cpu"

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

    def is_floating_point(self):
        """True for float16, float32 and float64 tensors."""
        return self._data.dtype.kind == "f"

    def is_complex(self):
        return False

    def is_signed(self):
        return self.dtype.is_signed

    @property
    def layout(self):
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
        return iter(_unbind(self, 0))       # PyTorch: iter(self.unbind(0)), so rows show UnbindBackward0

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
        data, storage = _copied_memory(self._data, memo)
        new = wrap(data)
        if storage is not data:
            new._storage = storage
        new._requires_grad = self._requires_grad
        if self._grad is not None:
            new._grad = wrap(self._grad._data.copy())
        memo[id(self)] = new
        return new

    # ------------------------------------------------------------------
    # Printing
    # ------------------------------------------------------------------
    def __repr__(self, *, tensor_contents=None):
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
        if self._requires_grad and _grad_mode.enabled:
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
        return _to(self, *args, **kwargs)

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

    # ------------------------------------------------------------------
    # Autograd
    # ------------------------------------------------------------------

    @property
    def output_nr(self):
        """Which output of ``grad_fn`` this tensor is (0 for most)."""
        return self._output_nr

    @property
    def retains_grad(self):
        """True after ``retain_grad()`` on a non-leaf."""
        return self._retains_grad

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


# -- PyTorch's checks of what is given to requires_grad, grad and data ----------------------------------

def _refuse_delete(self):
    raise RuntimeError("requires_grad must be a bool")


def _checked_requires_grad_(method):
    """``requires_grad_()``'s argument must be a bool (PyTorch's TypeError)."""
    def requires_grad_(self, requires_grad=True):
        """Set ``requires_grad`` in place and return ``self``. Mirrors ``Tensor.requires_grad_``.

        Raises:
            RuntimeError: on a non-floating tensor, or when switching off a non-leaf, with PyTorch's messages.
            TypeError: a flag that is not a bool.
        """
        if requires_grad is not True and requires_grad is not False:
            raise TypeError(f"requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                            f"{type_name(requires_grad)}")
        return method(self, requires_grad)
    return requires_grad_


def _set_grad(self, value):
    """``t.grad = value``: None, or a tensor of ``t``'s dtype, shape and device (PyTorch's messages)."""
    if value is not None:
        if not isinstance(value, Tensor):
            raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                            f"{type(value).__name__}")
        if value._data.dtype != self._data.dtype:
            raise RuntimeError(
                f"attempting to assign a gradient with dtype '{_dtype.DEMANGLED_NAMES[value.dtype]}' to a tensor with "
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


def _set_data(self, value):
    """``t.data = value``: ``t`` now shows ``value``'s memory (PyTorch's checks)."""
    if not isinstance(value, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
    if self._requires_grad and value._data.dtype.kind != "f":
        raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
    self._data, self._storage = value._data, value._storage


def _delete_data(self):
    raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")


def _checked_hooks(register_hook):
    """``register_hook``, with PyTorch's checks of what the hook returns (a tensor of the same type and size)."""
    def checked_register_hook(self, hook):
        """Call ``hook(grad)`` whenever the gradient of this tensor is computed; it may return a new one.

        Returns a handle whose ``remove()`` unregisters the hook.  Mirrors ``Tensor.register_hook``.

        Raises:
            RuntimeError: on a tensor that does not require grad; later, a hook that changes the
                gradient's type or size (PyTorch's messages).
            TypeError: later, a hook that returns something other than a tensor.
        """
        name = getattr(hook, "__name__", type(hook).__name__)

        def checked(grad):
            result = hook(grad)
            if result is None:
                return None
            if not isinstance(result, Tensor):
                raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
            if result._data.dtype != grad._data.dtype:
                raise RuntimeError(f"hook '{name}' has changed the type of value (was {grad.type()} got "
                                   f"{result.type()})")
            if result._data.shape != grad._data.shape:
                raise RuntimeError(f"hook '{name}' has changed the size of value")
            return result
        return register_hook(self, checked)
    return checked_register_hook


def _attach():
    """Give the core's Tensor the rest of PyTorch's Tensor API."""
    for name, value in vars(_TensorAPI).items():
        if name not in ("__dict__", "__weakref__", "__doc__", "__module__", "__qualname__"):
            for fn in (value.fget, value.fset) if isinstance(value, property) else (value,):
                if hasattr(fn, "__qualname__"):
                    fn.__qualname__ = "Tensor." + name        # as PyTorch's methods are named
            setattr(Tensor, name, value)
    Tensor.__module__ = "course_lib"       # type(t) prints <class 'course_lib.Tensor'> (PyTorch's: torch.Tensor)
    Tensor.__doc__ = _TENSOR_DOC
    Tensor.__array_priority__ = 1000       # numpy_array + tensor calls Tensor.__radd__
    Tensor._is_param = False
    Tensor._pinned = False                 # made by pin_memory()
    Tensor.shape = property(lambda self: _new_size(Size, self._data.shape), doc="The sizes of the dimensions, a "
                                                                                 "``torch.Size``.")
    Tensor.ndimension, Tensor.nelement = Tensor.dim, Tensor.numel
    Tensor.requires_grad = property(Tensor.requires_grad.fget, Tensor.requires_grad.fset, _refuse_delete,
                                    Tensor.requires_grad.__doc__)
    Tensor.requires_grad_ = _checked_requires_grad_(Tensor.requires_grad_)
    Tensor.grad = property(Tensor.grad.fget, _set_grad, Tensor.grad.fdel, Tensor.grad.__doc__)
    Tensor.data = property(Tensor.data.fget, _set_data, _delete_data, Tensor.data.__doc__)
    Tensor.register_hook = _checked_hooks(Tensor.register_hook)


_TENSOR_DOC = """A multi-dimensional array of one dtype on one device, with autograd.

    Create tensors with ``torch.tensor(data)`` or the factory functions
    (``zeros``, ``arange``, ...).  Calling ``torch.Tensor(...)`` directly is
    PyTorch's legacy constructor: ``Tensor(2, 3)`` gives an uninitialised
    2x3 float32 tensor and ``Tensor([1, 2])`` a float32 copy of the data.
    Mirrors ``torch.Tensor``.
    """

_attach()


def _copied_memory(array, memo):
    """``(data, storage)``: ``array`` (a tensor's data) in new memory for ``copy.deepcopy``, and the array that owns
    that memory.  As PyTorch copies each storage once per
    deep copy, tensors that shared memory (a base and its views, in one container) share the new memory, with their
    own sizes, strides and offsets; other arrays (CuPy's) are copied on their own."""
    owner = array
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    if array.__class__ is not np.ndarray or owner.__class__ is not np.ndarray or not owner.flags.c_contiguous:
        copied = array.copy()
        return copied, copied
    key = ("course_lib storage", id(owner))
    copied = memo.get(key)
    if copied is None:
        copied = memo[key] = owner.copy()
        memo.setdefault(id(memo), []).append(owner)          # (keeps the id in the key taken, as copy's memo does)
    offset = array.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    data = np.ndarray(array.shape, array.dtype, copied, offset, array.strides)
    return data, (data if owner is array else copied)
