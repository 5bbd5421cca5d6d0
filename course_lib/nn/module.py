"""``nn.Module``: a container of parameters and sub-modules with a ``forward``.

A Module keeps three ordered dictionaries, filled by attribute assignment:

* ``_parameters``: the ``Parameter`` objects assigned to it
  (``self.weight = Parameter(...)``);
* ``_modules``: the sub-modules (``self.fc = Linear(2, 1)``);
* ``_buffers``: tensors registered with ``register_buffer`` (saved with the
  model, not trained).

Everything else is derived from them: ``parameters()`` walks this module
and its sub-modules; ``to(device)`` converts every parameter *in place*
(the Parameter objects stay the same, so an optimizer made before still
holds them); ``zero_grad()`` clears their ``.grad``; calling the module runs
``forward``.  Mirrors ``torch.nn.Module``.
"""

from collections import OrderedDict, namedtuple

from ..core import grad_mode
from ..core.tensor import Tensor
from ..torch_compat import dtypes as _dtype
from ..torch_compat.device import device as Device
from .parameter import Parameter

__all__ = ["Module", "typename"]


def typename(obj):
    """PyTorch's ``torch.typename``: ``'torch.FloatTensor'`` for a tensor, ``'int'``, ``'mymodule.Net'``, ..."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    first = lines.pop(0)
    return first + "\n" + "\n".join(" " * spaces + line for line in lines)


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it could not match (empty lists when all matched)."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _parse_to(args, kwargs):
    """``to(device)``, ``to(dtype)``, ``to(device, dtype)``, ``to(tensor)``, keywords: -> (device, dtype)."""
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments - got unexpected keyword "
                        f"'{next(iter(kwargs))}'")
    for a in args:
        if isinstance(a, _dtype.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            device, dtype = a.device, a.dtype
        elif isinstance(a, (str, Device, int)) and not isinstance(a, bool):
            device = a
        elif isinstance(a, bool):
            continue
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got ({type(a).__name__})")
    return device, dtype


class Module:
    """Base class of every layer and model. Mirrors ``torch.nn.Module``.

    Subclass it, create the parameters and sub-modules in ``__init__``
    (after ``super().__init__()``) and write ``forward``::

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(2, 1)

            def forward(self, x):
                return self.fc(x)

    ``Net()(x)`` calls ``forward(x)``.
    """

    training = True
    _version = 1          # recorded in state_dict()._metadata (a layer bumps it when its saved form changes)

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", OrderedDict())

    # ------------------------------------------------------------------
    # Registration through attributes
    # ------------------------------------------------------------------
    def __setattr__(self, name, value):
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
            return
        modules = d.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = None
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def _forget(self, name):
        for key in ("_parameters", "_buffers", "_modules"):
            self.__dict__.get(key, {}).pop(name, None)
        self.__dict__.pop(name, None)

    def __getattr__(self, name):
        d = self.__dict__
        for key in ("_parameters", "_buffers", "_modules"):
            table = d.get(key)
            if table is not None and name in table:
                return table[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for key in ("_parameters", "_buffers", "_modules"):
            table = self.__dict__.get(key)
            if table is not None and name in table:
                del table[name]
                return
        object.__delattr__(self, name)

    def _check_name(self, name, what):
        if not isinstance(name, str):
            raise TypeError(f"{what} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f"{what} name can't contain \".\", got: {name}")
        if name == "":
            raise KeyError(f"{what} name can't be empty string \"\"")

    def register_parameter(self, name, param):
        """Add a parameter (or None, a declared but absent one such as ``bias=False``).

        Raises:
            AttributeError: before ``Module.__init__()`` ran.
            TypeError/KeyError: a bad name, or a value that is not a Parameter, with PyTorch's messages.
        """
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Add a tensor that belongs to the module's state but is not trained (e.g. running statistics).

        ``persistent=False`` keeps it out of ``state_dict()``.
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Add a sub-module under ``name`` (what ``self.name = module`` does).

        Raises:
            TypeError: ``module`` is not a Module ("... is not a Module subclass").
            KeyError: a name with a dot, or empty.
        """
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_name(name, "module")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        self._modules[name] = module

    register_module = add_module

    # ------------------------------------------------------------------
    # Running
    # ------------------------------------------------------------------
    def forward(self, *args, **kwargs):
        """What the module computes; subclasses define it.

        Raises:
            NotImplementedError: on a Module that defines none.
        """
        raise NotImplementedError(f"Module [{type(self).__name__}] is missing the required \"forward\" function")

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # ------------------------------------------------------------------
    # Walking the tree
    # ------------------------------------------------------------------
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """``(name, module)`` for this module (name ``''``) and every sub-module, depth first."""
        if memo is None:
            memo = set()
        if self in memo and remove_duplicate:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self):
        """This module and every sub-module."""
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        """``(name, module)`` for the direct sub-modules."""
        seen = set()
        for name, m in self._modules.items():
            if m is not None and m not in seen:
                seen.add(m)
                yield name, m

    def children(self):
        """The direct sub-modules."""
        for _, m in self.named_children():
            yield m

    def _named_members(self, table, prefix, recurse, remove_duplicate=True):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for mod_prefix, module in modules:
            for name, value in module.__dict__[table].items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield mod_prefix + ("." if mod_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """``(dotted name, Parameter)`` pairs: ``'fc.weight'``, ``'fc.bias'``, ... (each Parameter once).

        A module's own parameters come before those of its sub-modules, as in PyTorch.
        """
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        """Every Parameter of this module and (``recurse=True``) its sub-modules, each once."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """``(dotted name, tensor)`` for the registered buffers."""
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn):
        """Call ``fn(m)`` on every sub-module (children first) and on this module; return ``self``."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------
    # Converting: device and dtype
    # ------------------------------------------------------------------
    def _apply(self, fn):
        for m in self.children():
            m._apply(fn)
        with grad_mode.no_grad():
            for p in self._parameters.values():
                if p is None:
                    continue
                p.data = fn(p)                 # the same Parameter object, new memory
                if p._grad is not None:
                    p._grad.data = fn(p._grad)
        for name, b in self._buffers.items():
            if b is not None:
                self._buffers[name] = fn(b)
        return self

    def to(self, *args, **kwargs):
        """Move and/or cast every parameter and buffer, in place; return ``self``. Mirrors ``Module.to``.

        ``to('cuda')``, ``to(torch.float64)``, ``to('cpu', torch.float64)``,
        ``to(device=..., dtype=...)``.  A dtype applies to floating tensors
        only.  The Parameter objects are kept (their ``.data`` is replaced),
        so an optimizer created earlier keeps working.

        Raises:
            TypeError: a non-floating dtype ("nn.Module.to only accepts
                floating point or complex dtypes, but got desired dtype=torch.int64").
            AssertionError: ``'cuda'`` without CUDA.
        """
        device, dtype = _parse_to(args, dict(kwargs))
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")

        def convert(t):
            return t.to(device=device, dtype=dtype if t.is_floating_point() else None)
        return self._apply(convert)

    def cuda(self, device=None):
        """Move every parameter and buffer to the GPU (``self`` is returned).

        Raises:
            AssertionError: without CUDA ("Torch not compiled with CUDA enabled").
        """
        return self._apply(lambda t: t.cuda(device))

    def cpu(self):
        """Move every parameter and buffer to the CPU (``self`` is returned)."""
        return self._apply(lambda t: t.cpu())

    def _cast_floating(self, dtype):
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def float(self):
        """Cast floating parameters and buffers to float32."""
        return self._cast_floating(_dtype.float32)

    def double(self):
        """Cast floating parameters and buffers to float64."""
        return self._cast_floating(_dtype.float64)

    def half(self):
        """Cast floating parameters and buffers to float16."""
        return self._cast_floating(_dtype.float16)

    # ------------------------------------------------------------------
    # Training helpers
    # ------------------------------------------------------------------
    def zero_grad(self, set_to_none=True):
        """Reset the gradients of all parameters: to None (default) or, with ``set_to_none=False``, to zeros."""
        for p in self.parameters():
            if p._grad is None:
                continue
            if set_to_none:
                p._grad = None
            else:
                g = p._grad
                if g.grad_fn is not None:
                    g.detach_()
                else:
                    g.requires_grad_(False)
                g.zero_()

    def requires_grad_(self, requires_grad=True):
        """Switch ``requires_grad`` of every parameter (e.g. to freeze a part of a model); return ``self``."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def train(self, mode=True):
        """Set training mode on this module and its sub-modules; return ``self``.

        Raises:
            ValueError: ``mode`` that is not a bool.
        """
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self):
        """Evaluation mode (``train(False)``); return ``self``."""
        return self.train(False)

    # ------------------------------------------------------------------
    # State
    # ------------------------------------------------------------------
    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """An ordered dict ``dotted name -> tensor`` of the parameters and persistent buffers (detached).

        Like PyTorch's, the dict carries ``_metadata``: ``{module prefix: {'version': ...}}`` for every
        module (``''`` for this one), which ``torch.save`` writes into the file too.
        """
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        out = destination
        if hasattr(out, "_metadata"):
            out._metadata[prefix[:-1]] = {"version": self._version}
        for name, p in self._parameters.items():
            if p is not None:
                out[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                out[prefix + name] = b if keep_vars else b.detach()
        for name, m in self._modules.items():
            if m is not None:
                m.state_dict(destination=out, prefix=prefix + name + ".", keep_vars=keep_vars)
        return out

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy the values of ``state_dict`` into the parameters and buffers (in place, under no_grad).

        Values on another device are copied over.  Returns
        ``(missing_keys, unexpected_keys)``, which prints as
        ``<All keys matched successfully>`` when both are empty.

        Raises:
            RuntimeError: (``strict=True``) missing or unexpected keys, or a
                shape mismatch, with PyTorch's message.
        """
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = []
        with grad_mode.no_grad():
            for key, target in own.items():
                if key not in state_dict:
                    continue
                value = state_dict[key]
                if not isinstance(value, Tensor):
                    errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                                  f"Tensor-like object from checkpoint but received {type(value)}")
                    continue
                if value.shape != target.shape:
                    errors.append(f"size mismatch for {key}: copying a param with shape {value.shape} from "
                                  f"checkpoint, the shape in current model is {target.shape}.")
                    continue
                target.copy_(value.to(device=target.device, dtype=target.dtype))
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    # ------------------------------------------------------------------
    # Printing
    # ------------------------------------------------------------------
    def extra_repr(self):
        """The text inside the parentheses of this module's repr (e.g. ``in_features=2, ...``)."""
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _addindent(repr(m), 2) for key, m in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __dir__(self):
        names = set(super().__dir__())
        for key in ("_parameters", "_buffers", "_modules"):
            names.update(self.__dict__.get(key, {}))
        return sorted(names)
