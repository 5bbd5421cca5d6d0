"""``torch.save`` and ``torch.load`` in PyTorch's own file format.

A file written by ``torch.save`` (PyTorch 1.6 and later) is an uncompressed zip archive.  All its
records sit in one folder, named after the file (``model.pt`` -> ``model/``; ``archive/`` for a
buffer)::

    model/data.pkl               the saved object, pickled (protocol 2); every tensor in it is a call
                                 torch._utils._rebuild_tensor_v2(storage, offset, size, stride,
                                                                 requires_grad, OrderedDict())
    model/.format_version        "1"
    model/.storage_alignment     "64": each record's bytes start at a multiple of 64 in the file
    model/byteorder              "little" (or "big"): the byte order of the storages
    model/data/0, data/1, ...    the raw bytes of each storage, one record per storage
    model/version                "3\\n"
    model/.data/serialization_id 40 digits: a hash of the record names, then of their CRC-32s

A storage is the memory a tensor and its views share.  In ``data.pkl`` it is a *persistent id*,
``('storage', torch.FloatStorage, '0', 'cpu', 6)`` (kind, storage type, record key, device,
number of elements), so two views of one tensor point to the same record and are views of one
storage again after loading.  A view saves its *whole* storage: ``torch.save(x[:2])`` writes all
of ``x``'s memory (``clone()`` first to save only the view).

:func:`save` writes exactly these records (``data.pkl`` is byte for byte what PyTorch writes for
the same objects, the serialization id too), so real PyTorch reads the file with
``torch.load(path, weights_only=True)``; :func:`load` reads files that PyTorch wrote.  With
``weights_only=True`` (the default, as in PyTorch 2.6+) the pickle is read by a small interpreter
that builds only tensors, dicts, lists, tuples, numbers, strings and the few types a checkpoint
holds, and calls no other function: loading a file cannot run code hidden in it.

Not supported: PyTorch's legacy (pre-1.6) format, dtypes course_lib lacks (bfloat16, complex),
``mmap`` (accepted; the file is read into memory), custom ``pickle_module``.
"""

import codecs
import collections
import importlib
import io
import os
import pickle
import re
import struct
import sys
import warnings
import zipfile
import zlib

import numpy as np

from .core.grad_mode import no_grad
from .core.tensor import Tensor
from .devices import cuda_backend
from .nn.parameter import Parameter
from .ops.creation import from_numpy
from .torch_compat import dtypes as _dtypes
from .torch_compat.arguments import _hash_string
from .torch_compat.device import device
from .torch_compat.dtypes import dtype
from .torch_compat.size import Size

__all__ = ["save", "load", "DEFAULT_PROTOCOL"]

DEFAULT_PROTOCOL = 2
MAGIC_NUMBER = 0x1950a86a20f9469cfc6c        # first object of a legacy (pre-1.6) file
_ALIGNMENT = 64
_FORMAT_VERSION = 3                          # the "version" record torch.save writes
_MIN_VERSION, _MAX_VERSION = 1, 10           # what PyTorch 2.13's reader accepts
_LOCAL_HEADER = 30                           # bytes of a zip local file header before the name

# The legacy storage class PyTorch names in a persistent id, for each dtype course_lib has.
_STORAGE_OF = {"float32": "FloatStorage", "float64": "DoubleStorage", "float16": "HalfStorage",
               "int64": "LongStorage", "int32": "IntStorage", "int16": "ShortStorage", "int8": "CharStorage",
               "uint8": "ByteStorage", "bool": "BoolStorage"}
_DTYPE_OF = {v: k for k, v in _STORAGE_OF.items()}
# Storage classes PyTorch may write for dtypes course_lib does not have.
_FOREIGN = {"BFloat16Storage": "torch.bfloat16", "ComplexFloatStorage": "torch.complex64",
            "ComplexDoubleStorage": "torch.complex128", "QInt8Storage": "torch.qint8",
            "QUInt8Storage": "torch.quint8", "QInt32Storage": "torch.qint32", "QUInt4x2Storage": "torch.quint4x2",
            "QUInt2x4Storage": "torch.quint2x4"}

_MINIZ_NOTE = (". This is an internal miniz error. If you are seeing this error, there is a high likelihood that "
               "your checkpoint file is corrupted. This can happen if the checkpoint was not saved properly, was "
               "transferred incorrectly, or the file was modified after saving.")
_UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to "
    "`True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in "
    "arbitrary code execution. Do it only if you got the file from a trusted source.")
_DOCS_MESSAGE = ("\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
                 "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


# ---------------------------------------------------------------------------------------------
# Saving
# ---------------------------------------------------------------------------------------------

class _Global:
    """A name that the pickle refers to, ``torch._utils._rebuild_tensor_v2``, written as a GLOBAL
    opcode without importing it (course_lib never imports torch)."""

    __slots__ = ("module", "name")

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __repr__(self):
        return f"{self.module}.{self.name}"

    def __call__(self, *args):     # pickle asks a reduce function to be callable; this one is only a name
        raise TypeError(f"{self!r} is only a name written into a pickle")


_GLOBALS = {}


def _global(module, name):
    """One :class:`_Global` per name, so that the pickle's memo refers back to it (as PyTorch's does)."""
    key = (module, name)
    if key not in _GLOBALS:
        _GLOBALS[key] = _Global(module, name)
    return _GLOBALS[key]


class _StorageRef:
    """What a tensor's pickle holds in place of its storage; the pickler turns it into a persistent id."""

    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = tensor


class _Pickler(pickle._Pickler):
    """Python's pickler (the pure-Python one, so that GLOBAL opcodes can name torch's functions), with
    course_lib's tensors, parameters, dtypes, devices and sizes pickled under PyTorch's names."""

    dispatch = pickle._Pickler.dispatch.copy()

    def __init__(self, file, protocol, archive):
        super().__init__(file, protocol)
        self.archive = archive
        self.dispatch = dict(type(self).dispatch)
        self.dispatch[dtype] = type(self)._save_dtype

    def _save_name(self, obj):
        self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode("utf-8"))
        self.memoize(obj)

    dispatch[_Global] = _save_name

    def _save_dtype(self, obj):
        # PyTorch's dtype pickles as the global torch.float32 (its __reduce__ gives the bare name)
        self.save(_global("torch", str(obj).replace("torch.", "")))

    def persistent_id(self, obj):
        if type(obj) is _StorageRef:
            return self.archive.storage_id(obj.tensor)
        return None

    def reducer_override(self, obj):
        if isinstance(obj, Parameter):
            return (_global("torch._utils", "_rebuild_parameter"),
                    (obj.detach(), obj.requires_grad, collections.OrderedDict()))
        if isinstance(obj, Tensor):
            return (_global("torch._utils", "_rebuild_tensor_v2"),
                    (_StorageRef(obj), obj.storage_offset(), tuple(obj.size()), obj.stride(), obj.requires_grad,
                     collections.OrderedDict()))
        if isinstance(obj, device):
            kind = _fresh(obj.type)
            return (_global("torch", "device"), (kind,) if obj.index is None else (kind, obj.index))
        if isinstance(obj, Size):
            return (_global("torch", "Size"), (tuple(obj),))
        return NotImplemented


class _Archive:
    """The storages met while pickling: one record key per storage, in order of first appearance."""

    def __init__(self):
        self.keys = {}             # storage identity -> key ("0", "1", ...)
        self.storages = {}         # key -> (1-D tensor over the whole storage, dtype name)
        self.dtypes = {}           # data_ptr -> dtype name (one storage, one dtype)

    def storage_id(self, tensor):
        dtype = str(tensor.dtype).replace("torch.", "")
        if dtype not in _STORAGE_OF:
            raise TypeError(f"course_lib cannot save tensors of dtype {tensor.dtype}")
        storage = tensor.untyped_storage()
        ptr, nbytes = storage.data_ptr(), storage.nbytes()
        itemsize = tensor.element_size()
        if ptr != 0:
            if self.dtypes.setdefault(ptr, dtype) != dtype:
                raise RuntimeError("Cannot save multiple tensors or storages that view the same data as different "
                                   "types")
            identity = (ptr, nbytes)
        else:
            identity = ("empty", id(tensor))
        # the elements a tensor reaches (a tensor made by from_numpy of a strided array reaches past nbytes)
        reach = tensor.storage_offset() + 1 + sum((n - 1) * s for n, s in zip(tensor.shape, tensor.stride()))
        numel = max(nbytes // itemsize, reach if tensor.numel() else 0)
        key = self.keys.get(identity)
        if key is None:
            key = self.keys[identity] = str(len(self.keys))
        if key not in self.storages or self.storages[key][0].numel() < numel:
            with no_grad():
                whole = tensor.detach().as_strided((numel,), (1,), 0)
            self.storages[key] = (whole, dtype)
        location = "cpu" if tensor.device.type == "cpu" else str(tensor.device)
        return ("storage", _global("torch", _STORAGE_OF[dtype]), key, _intern(location), numel)


_LOCATIONS = {}


def _fresh(text):
    """A new string object equal to ``text``: PyTorch's ``device.type`` is made anew on each call, so the
    pickle spells it out rather than referring back to an equal string met before."""
    return "".join([text[:1], text[1:]])


def _intern(text):
    """The same string object for the same location, so the pickle memoizes it as PyTorch's does."""
    return _LOCATIONS.setdefault(text, text)


def _record_names_hash(names):
    """The first half of PyTorch's serialization id: ``c10::hash_combine`` over ``std::hash`` of the record
    names, in the order a libstdc++ ``std::unordered_set<std::string>`` filled with them holds them."""
    m = (1 << 64) - 1
    combined = 0
    for name in _unordered_set_order(names):
        combined = (combined ^ ((_hash_string(name) + 0x9e3779b9 + ((combined << 6) & m) + (combined >> 2)) & m)) & m
    return combined


def _crc_hash(crcs):
    """The second half of the serialization id: ``c10::hash_combine`` over the records' CRC-32s, in order."""
    m = (1 << 64) - 1
    combined = 0
    for crc in crcs:
        combined = (combined ^ ((crc + 0x9e3779b9 + ((combined << 6) & m) + (combined >> 2)) & m)) & m
    return combined


# libstdc++'s bucket counts (its _Prime_rehash_policy: 13 buckets at the first insertion, then the
# first prime of its table at or above twice the count)
_BUCKETS = (13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229, 172933, 351061, 712697)


def _unordered_set_order(names):
    """``names`` in the iteration order of a libstdc++ unordered_set into which they were inserted in order.

    A node whose bucket is empty goes to the front of the one list of nodes; one whose bucket holds nodes goes
    before the first of them.  Growing the table re-inserts the nodes in list order by the same rule.
    """
    order, buckets = [], 0
    for name in names:
        if len(order) + 1 > buckets:
            buckets = next(b for b in _BUCKETS if b >= len(order) + 1)
            old, order = order, []
            for n in old:
                _insert(order, n, buckets)
        _insert(order, name, buckets)
    return order


def _insert(order, name, buckets):
    b = _hash_string(name) % buckets
    for i, other in enumerate(order):
        if _hash_string(other) % buckets == b:
            order.insert(i, name)
            return
    order.insert(0, name)


def _archive_name(f):
    """The folder of the records: the file's name without its extension, or "archive" for a buffer."""
    if isinstance(f, (str, os.PathLike)):
        base = os.path.basename(os.fspath(f))
        stem = base.rsplit(".", 1)[0] if "." in base else base
        return stem
    return "archive"


def _zip_records(records, archive):
    """The bytes of an uncompressed zip archive holding ``records`` (name -> bytes) under ``archive/``, each
    record's data starting at a multiple of 64 (padding in the local header's extra field, as PyTorch pads)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, data in records:
            info = zipfile.ZipInfo(f"{archive}/{name}", date_time=(1980, 1, 1, 0, 0, 0))
            info.create_system = 0
            start = out.tell() + _LOCAL_HEADER + len(info.filename.encode("utf-8")) + 4
            padding = -start % _ALIGNMENT
            info.extra = b"FB" + padding.to_bytes(2, "little") + b"Z" * padding
            zf.writestr(info, data)
            info.extra = b""            # the central directory carries no padding
    return out.getvalue()


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Save ``obj`` (tensors, state dicts, and the plain Python data around them) to ``f`` in PyTorch's format.

    ``f`` is a file name (str or ``os.PathLike``) or a binary file object with ``write`` (``io.BytesIO``).
    Tensors keep their dtype, shape, strides, storage offset and ``requires_grad`` (not ``grad``); tensors
    that share memory share it again after loading; a CUDA tensor is saved with its device ('cuda:0').
    Mirrors ``torch.save``: the file loads in PyTorch with ``torch.load(f, weights_only=True)``.

    Raises:
        AttributeError: ``f`` is neither a path nor has ``write`` (PyTorch's message).
        RuntimeError: the parent folder of ``f`` does not exist, or ``f`` cannot be opened (PyTorch's messages);
            two tensors view the same memory as different dtypes.
        TypeError: a tensor of a dtype course_lib cannot save.
        NotImplementedError: ``_use_new_zipfile_serialization=False`` (the legacy format) or another
            ``pickle_module``.
    """
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")
    if pickle_module is not pickle:
        raise NotImplementedError("course_lib's save pickles with Python's pickle module only")
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("course_lib writes only the zip format (PyTorch's default since 1.6)")
    path = None
    if isinstance(f, (str, os.PathLike)):
        path = os.fspath(f)
        parent = os.path.dirname(path)
        if parent and not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")
        if os.path.isdir(path):
            raise RuntimeError("[enforce fail at inline_container.cc:747] . open file failed with strerror: "
                               "Is a directory")
    archive = _Archive()
    buf = io.BytesIO()
    _Pickler(buf, pickle_protocol, archive).dump(obj)
    records = [("data.pkl", buf.getvalue()), (".format_version", b"1"),
               (".storage_alignment", str(_ALIGNMENT).encode())]
    if not _disable_byteorder_record:
        records.append(("byteorder", sys.byteorder.encode()))
    for key, (whole, _) in archive.storages.items():
        records.append((f"data/{key}", whole.cpu().numpy().tobytes()))
    records.append(("version", f"{_FORMAT_VERSION}\n".encode()))
    if _disable_byteorder_record:
        records.append(("byteorder", sys.byteorder.encode()))   # PyTorch's writer adds it at the end
    names_hash = _record_names_hash([name for name, _ in records])
    # (miniz writes no data descriptor, whose CRC the hash collects, for an empty record)
    crcs = _crc_hash(zlib.crc32(data) for _, data in records if data)
    records.append((".data/serialization_id", f"{names_hash:020d}{crcs:020d}".encode()))
    data = _zip_records(records, _archive_name(f))
    if path is None:
        f.write(data)
        return
    with open(path, "wb") as out:
        out.write(data)


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------

class _LoadedStorage:
    """A storage read from the archive: a 1-D tensor over all its elements, and its dtype's name."""

    __slots__ = ("tensor", "dtype")

    def __init__(self, tensor, dtype):
        self.tensor, self.dtype = tensor, dtype


def _rebuild_tensor(storage, storage_offset, size, stride, requires_grad=False, backward_hooks=None,
                    metadata=None):
    """``torch._utils._rebuild_tensor_v2``: the tensor viewing ``storage`` at ``storage_offset`` with
    ``size`` and ``stride`` (a view of the loaded storage, sharing it with the other tensors of that
    storage, and a leaf: no ``_base``, no ``grad_fn``)."""
    if not isinstance(storage, _LoadedStorage):
        raise pickle.UnpicklingError("a tensor in the file does not refer to a storage")
    size, stride = tuple(int(n) for n in size), tuple(int(s) for s in stride)
    base = storage.tensor
    numel = base.numel()
    need = storage_offset + 1 + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else 0
    if need > numel or storage_offset < 0:
        itemsize = base.element_size()
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
                           f"{storage_offset}, and itemsize {itemsize} requiring a storage size of {need * itemsize} "
                           f"are out of bounds for storage of size {numel * itemsize}")
    with no_grad():
        t = base.as_strided(size, stride, storage_offset).detach()
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_tensor_v1(storage, storage_offset, size, stride):
    return _rebuild_tensor(storage, storage_offset, size, stride)


def _rebuild_parameter(data, requires_grad, backward_hooks=None):
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    p = _rebuild_parameter(data, requires_grad)
    for name, value in (state or {}).items():
        setattr(p, name, value)
    return p


class _StorageType:
    """A legacy storage class named in a persistent id (``torch.FloatStorage``): what dtype it holds."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"StorageType(dtype=torch.{_DTYPE_OF.get(self.name, self.name)})"


def _device(type, index=None):  # noqa: A002 - PyTorch's parameter name
    return device(type) if index is None else device(type, index)


def _size(sizes=()):
    return Size(sizes)


def _allowed_globals():
    """What a weights-only load may name: ``"module.name" -> object``."""
    allowed = {
        "collections.OrderedDict": collections.OrderedDict,
        "collections.Counter": collections.Counter,
        "torch._utils._rebuild_tensor_v2": _rebuild_tensor,
        "torch._utils._rebuild_tensor": _rebuild_tensor_v1,
        "torch._utils._rebuild_parameter": _rebuild_parameter,
        "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
        "torch.nn.parameter.Parameter": Parameter,
        "torch.Size": _size,
        "torch.device": _device,
        "_codecs.encode": codecs.encode,
        "builtins.bytearray": bytearray,
        "builtins.set": set,
        "builtins.complex": complex,
    }
    for name in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"):
        allowed[f"torch.{name}"] = getattr(_dtypes, name)
    for name in list(_STORAGE_OF.values()) + list(_FOREIGN):
        allowed[f"torch.{name}"] = _StorageType(name)
    return allowed


_PY2_MODULES = {"__builtin__": "builtins", "copy_reg": "copyreg"}    # what protocol 2 writes for Python 2


class _WeightsUnpickler:
    """A pickle interpreter for checkpoints: the opcodes of protocol 2 that PyTorch's weights-only loader
    reads, building only allowed objects (:func:`_allowed_globals`); nothing in the file can call anything
    else.  Errors are PyTorch's: ``EOFError`` at the end of the data, ``KeyError`` for an unknown memo
    index, ``UnpicklingError`` for an opcode, global or call that is not allowed."""

    def __init__(self, file, persistent_load=None, encoding="utf-8"):
        self.read, self.readline = file.read, file.readline
        self.persistent_load = persistent_load
        self.encoding = encoding
        self.memo = {}
        self.allowed = _allowed_globals()
        self.ops = {op[0]: getattr(self, "op_" + name) for name, op in vars(pickle).items()
                    if isinstance(op, bytes) and len(op) == 1 and name.isupper() and hasattr(self, "op_" + name)}

    def load(self):
        self.stack, self.marks = [], []
        while True:
            key = self.read(1)
            if not key:
                raise EOFError
            op = self.ops.get(key[0])
            if op is None:
                raise pickle.UnpicklingError(f"Unsupported operand {key[0]}")
            if key[0] == pickle.STOP[0]:
                return self.stack.pop()
            op()

    # stack and memo
    def op_MARK(self):
        self.marks.append(self.stack)
        self.stack = []

    def _pop_mark(self):
        items, self.stack = self.stack, self.marks.pop()
        return items

    def op_STOP(self):
        pass

    def op_PROTO(self):
        proto = self.read(1)[0]
        if proto != 2:
            warnings.warn(f"Detected pickle protocol {proto} in the checkpoint, which was not the default pickle "
                          "protocol used by `torch.load` (2). The weights_only Unpickler might not support all "
                          "instructions implemented by this protocol, please file an issue for adding support if "
                          "you encounter this.", stacklevel=4)

    def op_BINPUT(self):
        self.memo[self.read(1)[0]] = self.stack[-1]

    def op_LONG_BINPUT(self):
        self.memo[int.from_bytes(self.read(4), "little")] = self.stack[-1]

    def op_BINGET(self):
        self.stack.append(self.memo[self.read(1)[0]])

    def op_LONG_BINGET(self):
        self.stack.append(self.memo[int.from_bytes(self.read(4), "little")])

    # plain values
    def op_NONE(self):
        self.stack.append(None)

    def op_NEWTRUE(self):
        self.stack.append(True)

    def op_NEWFALSE(self):
        self.stack.append(False)

    def op_BININT(self):
        self.stack.append(int.from_bytes(self.read(4), "little", signed=True))

    def op_BININT1(self):
        self.stack.append(self.read(1)[0])

    def op_BININT2(self):
        self.stack.append(int.from_bytes(self.read(2), "little"))

    def op_LONG1(self):
        n = self.read(1)[0]
        self.stack.append(int.from_bytes(self.read(n), "little", signed=True))

    def op_BINFLOAT(self):
        self.stack.append(struct.unpack(">d", self.read(8))[0])

    def op_BINUNICODE(self):
        n = int.from_bytes(self.read(4), "little")
        self.stack.append(str(self.read(n), "utf-8", "surrogatepass"))

    def op_SHORT_BINSTRING(self):
        data = self.read(self.read(1)[0])
        self.stack.append(data.decode(self.encoding) if self.encoding != "bytes" else data)

    # containers
    def op_EMPTY_TUPLE(self):
        self.stack.append(())

    def op_TUPLE(self):
        items = self._pop_mark()          # (first: it swaps self.stack for the one below the mark)
        self.stack.append(tuple(items))

    def op_TUPLE1(self):
        self.stack[-1] = (self.stack[-1],)

    def op_TUPLE2(self):
        self.stack[-2:] = [(self.stack[-2], self.stack[-1])]

    def op_TUPLE3(self):
        self.stack[-3:] = [(self.stack[-3], self.stack[-2], self.stack[-1])]

    def op_EMPTY_LIST(self):
        self.stack.append([])

    def op_EMPTY_DICT(self):
        self.stack.append({})

    def op_EMPTY_SET(self):
        self.stack.append(set())

    def op_APPEND(self):
        item = self.stack.pop()
        self._list("append to").append(item)

    def op_APPENDS(self):
        items = self._pop_mark()
        self._list("extend").extend(items)

    def _list(self, what):
        target = self.stack[-1]
        if type(target) is not list:
            raise pickle.UnpicklingError(f"Can only {what} lists, but got {type(target)}")
        return target

    def op_SETITEM(self):
        value, key = self.stack.pop(), self.stack.pop()
        self._dict("SETITEM")[key] = value

    def op_SETITEMS(self):
        items = self._pop_mark()
        target = self._dict("SETITEMS")
        for i in range(0, len(items), 2):
            target[items[i]] = items[i + 1]

    def _dict(self, opcode):
        target = self.stack[-1]
        if type(target) not in (dict, collections.OrderedDict, collections.Counter):
            raise pickle.UnpicklingError(f"Can only {opcode} for dict, collections.OrderedDict, collections.Counter, "
                                         f"but got {type(target)}")
        return target

    # the risky ones: names, calls, object state, persistent ids
    def op_GLOBAL(self):
        module = self.readline()[:-1].decode("utf-8")
        name = self.readline()[:-1].decode("utf-8")
        module = _PY2_MODULES.get(module, module)
        path = f"{module}.{name}"
        if path not in self.allowed:
            shown = path[len("builtins."):] if path.startswith("builtins.") else path
            raise pickle.UnpicklingError(
                f"Unsupported global: GLOBAL {shown} was not an allowed global by default. Please use "
                f"`torch.serialization.add_safe_globals([{shown}])` or the `torch.serialization.safe_globals"
                f"([{shown}])` context manager to allowlist this global if you trust this class/function.")
        self.stack.append(self.allowed[path])

    def _is_allowed(self, obj):
        return any(obj is v for v in self.allowed.values())

    def op_REDUCE(self):
        args = self.stack.pop()
        func = self.stack[-1]
        if not self._is_allowed(func):
            raise pickle.UnpicklingError(f"Trying to call reduce for unrecognized function {func}")
        self.stack[-1] = func(*args)

    def op_NEWOBJ(self):
        args = self.stack.pop()
        cls = self.stack.pop()
        if cls is Parameter:
            self.stack.append(Parameter(*args))
        elif isinstance(cls, type) and self._is_allowed(cls):
            self.stack.append(cls.__new__(cls, *args))
        else:
            raise pickle.UnpicklingError("Can only create new object for nn.Parameter or classes allowlisted via "
                                         f"`add_safe_globals` but got {cls}")

    def op_BUILD(self):
        state = self.stack.pop()
        inst = self.stack[-1]
        if type(inst) is collections.OrderedDict:
            inst.__dict__.update(state)
        elif type(inst) is Parameter:
            for name, value in (state or {}).items():
                setattr(inst, name, value)
        else:
            raise pickle.UnpicklingError("Can only build Tensor, Parameter, OrderedDict or types allowlisted via "
                                         f"`add_safe_globals`, but got {type(inst)}")

    def op_BINPERSID(self):
        pid = self.stack.pop()
        if type(pid) is not tuple and type(pid) is not int:
            raise pickle.UnpicklingError(f"persistent_load id must be tuple or int, but got {type(pid)}")
        if type(pid) is tuple and pid and _ascii(pid[0]) != "storage":
            raise pickle.UnpicklingError(f"Only persistent_load of storage is allowed, but got {type(pid[0])}")
        if self.persistent_load is None:
            raise pickle.UnpicklingError("unsupported persistent id encountered")
        self.stack.append(self.persistent_load(pid))


def _ascii(text):
    return text.decode("ascii") if isinstance(text, bytes) else text


class _FullUnpickler(pickle.Unpickler):
    """``weights_only=False``: Python's unpickler (any object, so only for files you trust), with PyTorch's
    names mapped to course_lib's."""

    def __init__(self, file, persistent_load, **kwargs):
        super().__init__(file, **kwargs)
        self._persistent = persistent_load
        self._allowed = _allowed_globals()

    def persistent_load(self, pid):
        return self._persistent(pid)

    def find_class(self, module, name):
        path = f"{_PY2_MODULES.get(module, module)}.{name}"
        if path in self._allowed:
            return self._allowed[path]
        if module == "torch" or module.startswith("torch."):
            target = importlib.import_module("course_lib" + module[len("torch"):])
            return getattr(target, name)
        return super().find_class(module, name)


def _wo_message(message):
    """PyTorch's text around an error of the weights-only unpickler."""
    if re.search(r"GLOBAL (\S+) was not an allowed global by default.", message):
        return ("Weights only load failed. This file can still be loaded, to do so you have two options, "
                "\033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
                f"\n\t(1) {_UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with `weights_only=True` please check "
                "the recommended steps in the following error message.\n\tWeightsUnpickler error: "
                + message + _DOCS_MESSAGE)
    return (f"Weights only load failed. {_UNSAFE_MESSAGE}\nPlease file an issue with the following so that we can "
            "make `weights_only=True` compatible with your use case: WeightsUnpickler error: \n\n" + message
            + _DOCS_MESSAGE)


def _target_device(location, map_location):
    """The device a storage saved on ``location`` goes to (PyTorch's map_location rules, for str, device and
    dict; a callable gets the storage's 1-D tensor and the location and returns a tensor)."""
    if map_location is None:
        target = location
    elif isinstance(map_location, dict):
        target = map_location.get(location, location)
    elif isinstance(map_location, (str, device)):
        target = str(map_location)
    else:
        raise TypeError("course_lib's load takes map_location as None, a str, a torch.device or a dict")
    if target.startswith("cuda") and cuda_backend() is None:
        raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
                           "False. If you are running on a CPU-only machine, please use torch.load with "
                           "map_location=torch.device('cpu') to map your storages to the CPU.")
    return target


def _search_end_record_as_miniz(file, start, size):
    """No end-of-central-directory record: fail as PyTorch's reader (miniz) fails.

    miniz reads the file backwards in 4096-byte windows that overlap by 3 bytes, up to 64 KiB from the end.
    It computes the next window's offset in unsigned arithmetic, so below offset 0 it wraps to a negative
    position, and PyTorch's reader seeks there: ``OSError: [Errno 22] Invalid argument`` for a file,
    ``ValueError: negative seek value`` for a buffer.  Short files (up to 4096 bytes) and long ones (the
    search stops after 64 KiB) end with "failed finding central directory".
    """
    offset = max(size - 4096, 0)
    while True:
        file.seek(start + offset)              # raises the same error where PyTorch's reader does
        if offset == 0 or size - offset >= 0xFFFF + 22:
            break
        offset -= 4096 - 3
    raise RuntimeError(f"PytorchStreamReader failed reading zip archive: failed finding central directory"
                       f"{_MINIZ_NOTE}")


class _ZipReader:
    """The records of a PyTorch archive, with the reader's checks and messages (PyTorchStreamReader's)."""

    def __init__(self, file):
        start = file.tell()
        size = file.seek(0, io.SEEK_END) - start
        file.seek(start)
        if size < 22:           # shorter than an end-of-central-directory record
            raise RuntimeError(f"PytorchStreamReader failed reading zip archive: not a ZIP archive{_MINIZ_NOTE}")
        try:
            self.zip = zipfile.ZipFile(file)
        except zipfile.BadZipFile as e:
            if "not a zip file" in str(e):
                _search_end_record_as_miniz(file, start, size)
            raise RuntimeError("PytorchStreamReader failed reading zip archive: invalid header or archive is "
                               f"corrupted{_MINIZ_NOTE}") from None
        names = self.zip.namelist()
        if not names:
            raise RuntimeError("PytorchStreamReader failed reading zip archive: failed finding central directory"
                               + _MINIZ_NOTE)
        if "/" not in names[0]:
            raise RuntimeError("[enforce fail at inline_container.cc:180] . file in archive is not in a "
                               f"subdirectory: {names[0]}")
        self.prefix = names[0].split("/", 1)[0] + "/"
        self.names = set(names)
        version = self.record(".data/version") if self.has(".data/version") else \
            self.record("version") if self.has("version") else None
        if version is None:
            raise RuntimeError('Expected hasRecord("version") to be true, but got false.  (Could this error message '
                               "be improved?  If so, please report an enhancement request to PyTorch.)")
        number = int(version.decode().strip() or 0)
        if number < _MIN_VERSION:
            raise RuntimeError(f"[enforce fail at inline_container.cc:219] . Attempted to read a PyTorch file with "
                               f"version {number}, but the minimum supported version for reading is {_MIN_VERSION}. "
                               "Your PyTorch script module file is too old. Please regenerate it with latest version "
                               "of PyTorch to mitigate this issue.")
        if number > _MAX_VERSION:
            raise RuntimeError(f"[enforce fail at inline_container.cc:230] . Attempted to read a PyTorch file with "
                               f"version {number}, but the maximum supported version for reading is {_MAX_VERSION}. "
                               "The version of your PyTorch installation may be too old, please upgrade PyTorch to "
                               "latest version to mitigate this issue.")

    def has(self, name):
        return self.prefix + name in self.names

    def record(self, name):
        """The bytes of record ``name``, read from where its local header says they start (as PyTorch's reader
        reads them: the CRC-32 is not checked)."""
        if not self.has(name):
            raise RuntimeError(f"PytorchStreamReader failed locating file {name}: file not found{_MINIZ_NOTE}")
        info = self.zip.getinfo(self.prefix + name)
        damaged = RuntimeError(f"PytorchStreamReader failed reading file {name}: invalid header or archive is "
                               f"corrupted{_MINIZ_NOTE}")
        if info.compress_type != zipfile.ZIP_STORED:
            try:
                return self.zip.read(info)
            except (zipfile.BadZipFile, OSError, EOFError, zlib.error):
                raise damaged from None
        fp = self.zip.fp
        fp.seek(info.header_offset)
        header = fp.read(_LOCAL_HEADER)
        if len(header) < _LOCAL_HEADER or header[:4] != b"PK\x03\x04":
            raise damaged
        skip = int.from_bytes(header[26:28], "little") + int.from_bytes(header[28:30], "little")
        fp.seek(info.header_offset + _LOCAL_HEADER + skip)
        data = fp.read(info.file_size)
        if len(data) != info.file_size:
            raise damaged
        return data


def _load_zip(reader, map_location, weights_only, pickle_load_args):
    byteorder = reader.record("byteorder").decode() if reader.has("byteorder") else sys.byteorder
    if byteorder not in ("little", "big"):
        raise ValueError("Unknown endianness type: " + byteorder)
    loaded = {}

    def persistent_load(pid):
        if not isinstance(pid, tuple) or len(pid) != 5 or _ascii(pid[0]) != "storage":
            raise RuntimeError(f"Unknown typename for persistent_load, expected 'storage' but got '{pid[0]}'")
        storage_type, key, location, numel = pid[1], _ascii(pid[2]), _ascii(pid[3]), pid[4]
        name = storage_type.name if isinstance(storage_type, _StorageType) else getattr(storage_type, "__name__", "")
        if name in _FOREIGN:
            raise TypeError(f"course_lib cannot load tensors of dtype {_FOREIGN[name]} (it has the nine dtypes "
                            "float16/32/64, int8/16/32/64, uint8 and bool)")
        if name not in _DTYPE_OF:
            raise pickle.UnpicklingError(f"unknown storage type {storage_type!r}")
        if key not in loaded:
            dtype = np.dtype(_DTYPE_OF[name])
            data = reader.record(f"data/{key}")
            nbytes = numel * dtype.itemsize
            if len(data) != nbytes:
                raise RuntimeError(f"record size ({len(data)} bytes) does not match expected size ({nbytes} bytes = "
                                   f"{nbytes} elements * 1 bytes/element) for dtype Byte")
            array = np.frombuffer(data, dtype=dtype.newbyteorder("<" if byteorder == "little" else ">"))
            base = from_numpy(array.astype(dtype, copy=True))
            target = _target_device(location, map_location)
            if target != "cpu":
                base = base.to(target)
            loaded[key] = _LoadedStorage(base, name)
        return loaded[key]

    data = io.BytesIO(reader.record("data.pkl"))
    if weights_only:
        try:
            return _WeightsUnpickler(data, persistent_load, pickle_load_args.get("encoding", "utf-8")).load()
        except pickle.UnpicklingError as e:
            raise pickle.UnpicklingError(_wo_message(str(e))) from None
    return _FullUnpickler(data, persistent_load, **pickle_load_args).load()


def _load_legacy(file, weights_only, pickle_load_args):
    """A file that is not a zip archive: PyTorch reads it as its legacy format, whose first object is a magic
    number.  Read that object as PyTorch does (so garbage fails as it fails in PyTorch); course_lib stops there."""
    if weights_only:
        try:
            magic = _WeightsUnpickler(file, None, pickle_load_args.get("encoding", "utf-8")).load()
        except pickle.UnpicklingError as e:
            raise pickle.UnpicklingError(_wo_message(str(e))) from None
    else:
        magic = pickle.Unpickler(file, **pickle_load_args).load()
    if magic != MAGIC_NUMBER:
        raise RuntimeError("Invalid magic number; corrupt file?")
    raise NotImplementedError("this file is in PyTorch's legacy format (before PyTorch 1.6), which course_lib does "
                              "not read: load it in PyTorch and torch.save it again")


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Load an object saved by :func:`save` or by PyTorch's ``torch.save``. Mirrors ``torch.load``.

    ``f`` is a file name or a binary file object with ``read``, ``readline``, ``seek`` and ``tell``.
    ``weights_only=True`` (the default) reads only tensors, state dicts (``OrderedDict`` with
    ``_metadata``), optimizer states and plain data (dict, list, tuple, set, int, float, complex, str,
    bytes, None, bool, dtypes, devices, sizes): a file cannot run code while it loads.
    ``weights_only=False`` unpickles anything (only for files you trust), with torch's classes mapped to
    course_lib's.  ``map_location``: None (where saved), a device or its name, or a dict from saved to new
    location.  Tensors that shared a storage share it again; a tensor's storage offset and strides are kept.

    Raises:
        FileNotFoundError, IsADirectoryError: as ``open`` raises them.
        EOFError: an empty file.
        RuntimeError: a truncated or damaged archive, a missing record, an unsupported version (PyTorch's
            messages); "Invalid magic number; corrupt file?" for a pickle that is not a checkpoint; a CUDA
            storage without CUDA.
        pickle.UnpicklingError: (weights_only) something a checkpoint does not hold, with PyTorch's message;
            garbage bytes raise what PyTorch raises for them (UnpicklingError, KeyError, EOFError).
        NotImplementedError: a file in PyTorch's legacy (pre-1.6) format.
        TypeError: tensors of a dtype course_lib lacks (bfloat16, complex).
    """
    if weights_only is None:
        weights_only = True
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    if pickle_module is not None and pickle_module is not pickle:
        raise NotImplementedError("course_lib's load unpickles with Python's pickle module only")
    if pickle_load_args and weights_only:
        warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    pickle_load_args.setdefault("encoding", "utf-8")
    if mmap and not isinstance(f, (str, os.PathLike)):
        raise ValueError("f must be a file path in order to use the mmap argument")
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            return _load_file(file, map_location, weights_only, pickle_load_args)
    try:
        f.seek(f.tell())
    except (io.UnsupportedOperation, AttributeError) as e:
        raise type(e)(f"{e}. You can only torch.load from a file that is seekable. Please pre-load the data "
                             "into a buffer like io.BytesIO and try to load from it instead.") from None
    return _load_file(f, map_location, weights_only, pickle_load_args)


def _load_file(file, map_location, weights_only, pickle_load_args):
    start = file.tell()
    is_zip = file.read(4) == b"PK\x03\x04"
    file.seek(start)
    if is_zip:
        return _load_zip(_ZipReader(file), map_location, weights_only, pickle_load_args)
    return _load_legacy(file, weights_only, pickle_load_args)
