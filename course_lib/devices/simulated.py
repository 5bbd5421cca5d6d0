"""A simulated CUDA device: NumPy arrays that behave like CuPy's.

``course_lib.cuda.simulate()`` registers this module as the CUDA backend,
so that ``device='cuda'`` works on a machine without a GPU.  Nothing runs on
a GPU: the "device" arrays are NumPy arrays of a distinct class
(:class:`ndarray`, a subclass of ``numpy.ndarray``), computed by NumPy.
What the simulation keeps faithful is what a learner (and the test suite)
can observe of CuPy from course_lib:

* the array class is not ``numpy.ndarray``, so course_lib reports
  ``device(type='cuda', index=0)`` and prints ``device='cuda:0'``;
* mixing a device array with a host (NumPy) array in an operation raises
  ``TypeError`` as CuPy does, so a forgotten host-device copy in course_lib
  shows up as an error instead of silently working;
* reductions and indexing return 0-d device arrays, never NumPy scalars;
* host copies are explicit: ``.get()``, ``asnumpy()``; ``item()``,
  ``float()``, ``bool()``, ``tolist()`` copy to the host too;
* names and keyword arguments that CuPy lacks (``errstate``, ``vectorize``,
  ``flags.writeable``, ``where=``/``initial=`` of reductions, ...) raise
  ``AttributeError`` / ``TypeError``;
* every host-to-device and device-to-host copy is counted in :data:`stats`,
  which the tests use to prove that a training step makes no hidden copies.

Known differences from a real GPU: no asynchrony (every call finishes
before it returns), the same floating-point results as NumPy, no device
memory limit, ``numpy.asarray(device_array)`` quietly returns a host view
(CuPy raises; NumPy gives subclasses no way to refuse), integer index
arrays out of range raise instead of wrapping around, and ``cupyx`` is not
simulated (so ``torch.erf`` on the simulated device raises
``ModuleNotFoundError``).
"""

import sys

import numpy as np

__all__ = ["ndarray", "module", "stats", "DEVICE_NAME"]

DEVICE_NAME = "course_lib simulated GPU (NumPy)"


class Stats:
    """Counters of host-device traffic (reset with :meth:`reset`)."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.host_to_device = 0     # numpy data copied into a device array
        self.device_to_host = 0     # device data copied to the host (get, item, float, bool, tolist, ...)

    def snapshot(self):
        return (self.host_to_device, self.device_to_host)

    def __repr__(self):
        return f"Stats(host_to_device={self.host_to_device}, device_to_host={self.device_to_host})"


stats = Stats()

_base = np.ndarray
_view = np.ndarray.view      # NumPy's own view, also on device arrays (whose ``view`` method is wrapped)
_generic = np.generic


def _unsupported(kind):
    return TypeError(f"Unsupported type {kind}")


def _unwrap(x):
    """Device arrays -> plain NumPy views (same memory); host arrays are refused, as CuPy does."""
    cls = x.__class__
    if cls is ndarray:
        return _view(x, _base)
    if cls is _base:
        raise _unsupported(cls)
    if cls is tuple or cls is list:
        return cls(_unwrap(v) for v in x)
    return x


def _fresh(r):
    """A device array showing the plain array ``r``, which owns its memory: ``base`` None, as CuPy's results."""
    v = r.view(ndarray)
    v._owns = True
    return v


def _wrap(r):
    """NumPy results -> device arrays; NumPy scalars become 0-d device arrays (CuPy never returns scalars)."""
    cls = r.__class__
    if cls is _base:
        return _fresh(r) if r.base is None else r.view(ndarray)
    if cls is ndarray:
        return r
    if isinstance(r, _generic):
        return _fresh(np.asarray(r))
    if cls is tuple or cls is list:
        return cls(_wrap(v) for v in r)
    return r


def _check_kwargs(name, kwargs, refused):
    for k in kwargs:
        if k in refused:
            raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")


class _Flags:
    """CuPy's ``ndarray.flags``: no ``writeable`` (device memory is always writeable)."""

    __slots__ = ("c_contiguous", "f_contiguous", "owndata")

    def __init__(self, flags, owndata):
        self.c_contiguous = flags.c_contiguous
        self.f_contiguous = flags.f_contiguous
        self.owndata = owndata

    def __getitem__(self, name):
        return getattr(self, {"C_CONTIGUOUS": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
                              "OWNDATA": "owndata"}[name])


class _MemoryPointer:
    """CuPy's ``ndarray.data``: the address of the first element as ``.ptr``."""

    __slots__ = ("ptr",)

    def __init__(self, ptr):
        self.ptr = ptr


class ndarray(np.ndarray):
    """An array on the simulated device (CuPy's ``cupy.ndarray``)."""

    __array_priority__ = 100

    # -- host copies ---------------------------------------------------
    def get(self, stream=None, order="C", out=None, blocking=True):
        """Copy to a new NumPy array on the host (CuPy's ``ndarray.get``)."""
        stats.device_to_host += 1
        return np.array(_view(self, _base), order=order, copy=True)

    def item(self, *args):
        stats.device_to_host += 1
        return _view(self, _base).item(*args)

    def tolist(self):
        stats.device_to_host += 1
        return _view(self, _base).tolist()

    def __bool__(self):
        stats.device_to_host += 1
        return bool(_view(self, _base))

    def __float__(self):
        stats.device_to_host += 1
        return float(_view(self, _base))

    def __int__(self):
        stats.device_to_host += 1
        return int(_view(self, _base))

    def __complex__(self):
        stats.device_to_host += 1
        return complex(_view(self, _base))

    def __index__(self):
        raise TypeError("'cupy.ndarray' object cannot be interpreted as an integer")

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __repr__(self):
        return repr(_view(self, _base))

    def __str__(self):
        return str(_view(self, _base))

    def __reduce__(self):
        raise TypeError("course_lib's simulated device arrays cannot be pickled; call .get() first")

    # -- what CuPy's arrays have instead of NumPy's ----------------------
    # A device array is a NumPy view of a plain array that holds the memory;
    # ``_owns`` marks the arrays that stand for that memory themselves (fresh
    # results), so that ``base`` and ``flags.owndata`` read as CuPy's would.
    _owns = False

    @property
    def base(self):
        return None if self._owns else _base.base.__get__(self)

    @property
    def flags(self):
        return _Flags(_base.flags.__get__(self), self._owns)

    @property
    def data(self):
        return _MemoryPointer(_view(self, _base).__array_interface__["data"][0])

    @property
    def __array_interface__(self):
        raise AttributeError("'cupy.ndarray' object has no attribute '__array_interface__'")

    @property
    def device(self):
        return _Device(0)

    # -- computing: NumPy on plain views, results back on the device ------
    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        args = _unwrap(inputs)
        if out is not None:
            kwargs["out"] = _unwrap(out)
        with np.errstate(all="ignore"):
            result = getattr(ufunc, method)(*args, **kwargs)
        if method == "at":
            return None
        if out is not None:
            return out[0] if len(out) == 1 else out
        return _wrap(result)

    def __array_function__(self, func, types, args, kwargs):
        name = func.__name__
        if name in _MISSING:
            raise TypeError(f"no implementation found for 'numpy.{name}' on types that implement "
                            "__array_function__: [<class 'cupy.ndarray'>]")
        refused = _FUNC_REFUSED.get(name)
        if refused:
            _check_kwargs(name, kwargs, refused)
        with np.errstate(all="ignore"):
            return _wrap(func(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()}))

    def __getitem__(self, key):
        return _wrap(_base.__getitem__(_view(self, _base), _unwrap_key(key)))

    def __setitem__(self, key, value):
        if value.__class__ is _base:
            # CuPy copies a host value to the device for advanced indexing, and fills
            # with a host 0-d value for basic indexing; other host arrays are refused.
            if _is_advanced(key):
                stats.host_to_device += 1
            elif value.ndim == 0:
                value = value[()]
            else:
                raise _unsupported(_base)
        _base.__setitem__(_view(self, _base), _unwrap_key(key), _unwrap(value))

    def astype(self, dtype, order="K", casting=None, subok=None, copy=True):
        if casting is not None or subok is not None:
            raise TypeError("astype() does not support 'casting' and 'subok' on the device")
        with np.errstate(all="ignore"):
            return _wrap(_view(self, _base).astype(dtype, order=order, copy=copy))


def _is_advanced(key):
    items = key if key.__class__ is tuple else (key,)
    return any(isinstance(k, (list, np.ndarray)) or k.__class__ in (bool, np.bool_) for k in items)


def _unwrap_key(key):
    """Device index arrays -> plain views; host index arrays are copied to the device first (counted), as CuPy."""
    if key.__class__ is tuple:
        return tuple(_unwrap_index(k) for k in key)
    return _unwrap_index(key)


def _unwrap_index(k):
    if k.__class__ is ndarray:
        return _view(k, _base)
    if k.__class__ is _base:
        stats.host_to_device += 1
    return k


# Methods whose NumPy keywords CuPy lacks (from CuPy 14's signatures); the
# rest of NumPy's methods run unchanged on the plain view.
_METHOD_REFUSED = {
    "all": ("where",), "any": ("where",), "max": ("initial", "where"), "min": ("initial", "where"),
    "sum": ("initial", "where"), "prod": ("initial", "where"), "mean": ("where",),
    "std": ("where", "mean"), "var": ("where", "mean"), "argsort": ("order", "stable"),
    "sort": ("axis", "order", "stable"), "take": ("mode",), "argmax": (), "argmin": (), "cumsum": (),
    "cumprod": (), "clip": (), "nonzero": (), "round": (), "dot": ("out",), "trace": (), "repeat": (),
    "ravel": (), "flatten": (), "diagonal": (), "squeeze": (), "swapaxes": (), "transpose": (),
    "reshape": (), "copy": (), "view": (), "conj": (), "fill": (), "argpartition": ("kind", "order"),
    "partition": ("kind", "order"),
}


def _make_method(name, refused):
    impl = getattr(_base, name)

    def method(self, *args, **kwargs):
        if refused:
            _check_kwargs(name, kwargs, refused)
        with np.errstate(all="ignore"):
            return _wrap(impl(_view(self, _base), *_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()}))
    method.__name__ = name
    return method


for _name, _refused in _METHOD_REFUSED.items():
    setattr(ndarray, _name, _make_method(_name, frozenset(_refused)))

for _name in ("ctypes", "getfield", "setfield", "setflags", "resize", "itemset", "to_device"):
    def _missing(self, *a, _n=_name, **k):
        raise AttributeError(f"'cupy.ndarray' object has no attribute '{_n}'")
    setattr(ndarray, _name, property(_missing))


# ---------------------------------------------------------------------------
# The module: NumPy's API, with CuPy's names and keywords
# ---------------------------------------------------------------------------

# NumPy names that CuPy 14 does not have (those a numerical engine might reach for).
_MISSING = frozenset({
    "errstate", "seterr", "geterr", "vectorize", "frompyfunc", "nditer", "ndenumerate", "nested_iters",
    "matrix", "asmatrix", "block", "insert", "spacing", "geomspace", "longdouble", "float128", "object_",
    "str_", "bytes_", "void", "datetime64", "timedelta64", "ma", "char", "rec", "emath", "strings", "core",
    "ctypeslib", "memmap", "unstack", "vecdot", "matvec", "vecmat", "nanpercentile", "nanquantile",
    "histogram_bin_edges", "polyder", "polydiv", "polyint", "typecodes", "sctypeDict", "ScalarType",
})

# NumPy keywords that CuPy's functions lack.
_FUNC_REFUSED = {
    "all": ("where",), "any": ("where",), "amax": ("initial", "where"), "amin": ("initial", "where"),
    "max": ("initial", "where"), "min": ("initial", "where"), "sum": ("initial", "where"),
    "prod": ("initial", "where"), "mean": ("where",), "std": ("where", "mean", "correction"),
    "var": ("where", "mean", "correction"), "nansum": ("initial", "where"), "nanmax": ("initial", "where"),
    "nanmin": ("initial", "where"), "clip": ("min", "max"), "take": ("mode",), "argsort": ("order", "stable"),
    "sort": ("order", "stable"), "count_nonzero": ("keepdims",), "broadcast_to": ("subok",),
    "broadcast_arrays": ("subok",), "copy": ("subok",), "isin": ("kind",), "unique": ("sorted",),
    "zeros": ("like", "device"), "ones": ("like", "device"), "empty": ("like", "device"),
    "full": ("like", "device"), "arange": ("like", "device"), "eye": ("like", "device"),
    "zeros_like": ("device",), "ones_like": ("device",), "empty_like": ("device",), "full_like": ("device",),
    "linspace": ("device",),
}

# ufunc.reduce and friends: CuPy takes axis, dtype, out, keepdims only.
_UFUNC_METHOD_REFUSED = frozenset({"initial", "where"})


class _Ufunc:
    """A NumPy ufunc seen through CuPy's eyes: device arrays in, device arrays out."""

    def __init__(self, uf):
        self._uf = uf
        self.__name__ = uf.__name__
        self.nin, self.nout, self.nargs = uf.nin, uf.nout, uf.nargs

    def __call__(self, *args, out=None, **kwargs):
        _check_kwargs(self.__name__, kwargs, ("where", "subok", "order"))
        if out is not None:
            kwargs["out"] = _unwrap(out if isinstance(out, tuple) else (out,))
        with np.errstate(all="ignore"):
            r = self._uf(*_unwrap(args), **kwargs)
        if out is not None:
            return out
        return _wrap(r)

    def _method(self, name, *args, **kwargs):
        _check_kwargs(f"{self.__name__}.{name}", kwargs, _UFUNC_METHOD_REFUSED)
        with np.errstate(all="ignore"):
            r = getattr(self._uf, name)(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()})
        return None if name == "at" else _wrap(r)

    def reduce(self, *args, **kwargs):
        return self._method("reduce", *args, **kwargs)

    def accumulate(self, *args, **kwargs):
        return self._method("accumulate", *args, **kwargs)

    def outer(self, *args, **kwargs):
        return self._method("outer", *args, **kwargs)

    def at(self, *args, **kwargs):
        return self._method("at", *args, **kwargs)

    def __repr__(self):
        return f"<ufunc 'cupy_{self.__name__}'>"


def _to_device(obj, dtype=None, copy=None, order=None, always_copy=False):
    """``asarray``/``array``: host data is copied to the device (and counted)."""
    if obj.__class__ is ndarray:
        a = _view(obj, _base)
        if always_copy or copy:
            return _fresh(np.array(a, dtype=dtype, order=order or "K", copy=True))
        return obj if dtype is None or np.dtype(dtype) == obj.dtype else _wrap(a.astype(dtype))
    stats.host_to_device += 1
    with np.errstate(all="ignore"):
        return _fresh(np.array(obj, dtype=dtype, order=order or "K", copy=True))


def asarray(a, dtype=None, order=None, *, copy=None, blocking=False):
    """Like CuPy's ``asarray``: device arrays pass through, host data is copied to the device."""
    return _to_device(a, dtype, copy, order)


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, blocking=False):
    """Like CuPy's ``array``: always a new device array (unless ``copy=False`` and nothing changes)."""
    r = _to_device(obj, dtype, copy, order, always_copy=bool(copy))
    return r if ndmin <= r.ndim else r.reshape((1,) * (ndmin - r.ndim) + r.shape)


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    """Copy a device array to the host (CuPy's ``asnumpy``); host data passes through."""
    if a.__class__ is ndarray:
        return a.get(order=order)
    return np.asarray(a, order=order)


def get_array_module(*args):
    return sys.modules[__name__].module if any(a.__class__ is ndarray for a in args) else np


def _make_function(name, f):
    refused = frozenset(_FUNC_REFUSED.get(name, ()))

    def function(*args, **kwargs):
        if refused:
            _check_kwargs(name, kwargs, refused)
        with np.errstate(all="ignore"):
            return _wrap(f(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()}))
    function.__name__ = name
    function.__doc__ = f"``{name}`` on the simulated device (NumPy's, with CuPy's keywords)."
    return function


class _Device:
    """``cupy.cuda.Device``: one device, index 0."""

    def __init__(self, device=None):
        self.id = 0 if device is None else int(device)

    def synchronize(self):
        """Nothing to wait for: the simulation runs every call to the end before returning."""

    def use(self):
        return None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return f"<CUDA Device {self.id}>"


class _Runtime:
    @staticmethod
    def getDeviceCount():
        return 1

    @staticmethod
    def getDeviceProperties(device):
        return {"name": DEVICE_NAME.encode(), "totalGlobalMem": 0, "multiProcessorCount": 0}


class _Cuda:
    Device = _Device
    runtime = _Runtime()


class _MemoryPool:
    def used_bytes(self):
        return 0

    def total_bytes(self):
        return 0

    def free_all_blocks(self):
        return None


_POOL = _MemoryPool()


class _Namespace:
    """A NumPy namespace (the top level, ``linalg``, ``random``) with CuPy's behaviour."""

    def __init__(self, np_module, name, extra=None):
        self._np = np_module
        self.__name__ = name
        self.__dict__.update(extra or {})

    def __getattr__(self, name):
        if name.startswith("__") or name in _MISSING:
            raise AttributeError(f"module '{self.__name__}' has no attribute '{name}'")
        value = getattr(self._np, name)
        if isinstance(value, np.ufunc):
            value = _Ufunc(value)
        elif callable(value) and not isinstance(value, type):
            value = _make_function(name, value)
        setattr(self, name, value)
        return value

    def __repr__(self):
        return f"<module '{self.__name__}' (course_lib simulation)>"


def _as_strided(x, shape=None, strides=None):
    """CuPy's ``lib.stride_tricks.as_strided`` (no ``writeable``/``subok`` keywords)."""
    return _wrap(np.lib.stride_tricks.as_strided(_unwrap(x), shape, strides))


class _StrideTricks:
    as_strided = staticmethod(_as_strided)

    @staticmethod
    def sliding_window_view(*a, **k):
        raise AttributeError("not simulated")


class _Lib:
    stride_tricks = _StrideTricks()


module = _Namespace(np, "cupy", {
    "ndarray": ndarray,
    "asarray": asarray,
    "array": array,
    "asnumpy": asnumpy,
    "ascontiguousarray": _make_function("ascontiguousarray", np.ascontiguousarray),
    "get_array_module": get_array_module,
    "cuda": _Cuda(),
    "get_default_memory_pool": lambda: _POOL,
    "get_default_pinned_memory_pool": lambda: _POOL,
    "lib": _Lib(),
    "is_available": lambda: True,
})
module.linalg = _Namespace(np.linalg, "cupy.linalg")
module.random = _Namespace(np.random, "cupy.random")
