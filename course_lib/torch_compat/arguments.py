"""How PyTorch checks the arguments of its functions, and the TypeErrors it raises.

PyTorch's functions are written in C++; a generated parser matches each call
against the function's *signatures* (the overloads shown in its error
messages) and, when none matches, explains why:

* one signature that could fit (by argument count) explains itself:
  ``zeros(): argument 'size' (position 1) must be tuple of ints, not float``,
  ``transpose() missing 1 required positional arguments: "dim1"``,
  ``zeros() takes 1 positional argument but 2 were given``;
* otherwise the message lists every signature:
  ``sum() received an invalid combination of arguments - got (float), but
  expected one of: ...``, marking (``!float!``) what did not match.

course_lib's functions check their arguments cheaply in Python and call
``invalid_arguments`` only to build that message, so a learner sees
PyTorch's text (quirks included).  ``int_list`` reads a list of sizes the
way PyTorch does (``zeros(2, 3)``, ``zeros((2, 3))``, ``zeros([2, 3])``).
"""

import numpy as np

from ..core.tensor import Tensor
from .device import device as _device
from .dtypes import dtype as _dtype
from .names import type_name

__all__ = ["Signature", "invalid_arguments", "int_list", "parse", "missing_attribute", "tensor_expected", "type_name",
           "listing_order", "unknown_keywords", "wrong_arguments"]


def tensor_expected(name, value, arg="input", position=1):
    """The TypeError PyTorch raises for a non-tensor where ``name`` takes one: ``exp(2.0)`` gives
    ``exp(): argument 'input' (position 1) must be Tensor, not float``."""
    return TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {type_name(value)}")


_BINARY = ("(Tensor input, Tensor other, *, Tensor out = None)", "(Tensor input, Number other, *, Tensor out = None)")
_VAR = ("(Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False, *, Tensor out = None)",
        "(Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = False, "
        "Tensor out = None)",
        "(Tensor input, bool unbiased = True)")
_ALL = ("(Tensor input, *, Tensor out = None)",
        "(Tensor input, tuple of ints dim = None, bool keepdim = False, *, Tensor out = None)",
        "(Tensor input, int dim, bool keepdim = False, *, Tensor out = None)")
_CLAMP = ("(Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)",
          "(Tensor input, Number min = None, Number max = None, *, Tensor out = None)")
_MM = ("(Tensor input, Tensor mat2, *, Tensor out = None)",
       "(Tensor input, Tensor mat2, torch.dtype out_dtype, *, Tensor out = None)")
_MAX = ("(Tensor input, *, Tensor out = None)", "(Tensor input, Tensor other, *, Tensor out = None)",
        "(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)")

# The overloads of torch.* functions, for the messages about their arguments (those not listed here take
# ``Tensor input`` first).
FUNCTION_SIGNATURES = {
    "dot": ("(Tensor input, Tensor tensor, *, Tensor out = None)",),
    "mv": ("(Tensor input, Tensor vec, *, Tensor out = None)",),
    "outer": ("(Tensor input, Tensor vec2, *, Tensor out = None)",),
    "inner": ("(Tensor input, Tensor other, *, Tensor out = None)",),
    "matmul": ("(Tensor input, Tensor other, *, Tensor out = None)",),
    "cumsum": ("(Tensor input, int dim, *, torch.dtype dtype = None, Tensor out = None)",),
    "remainder": ("(Tensor input, Tensor other, *, Tensor out = None)", "(Number self, Tensor other)",
                  "(Tensor input, Number other, *, Tensor out = None)"),
    "floor_divide": ("(Tensor input, Tensor other, *, Tensor out = None)", "(Tensor input, Number other)"),
    "pow": ("(Tensor input, Tensor exponent, *, Tensor out = None)",
            "(Number self, Tensor exponent, *, Tensor out = None)",
            "(Tensor input, Number exponent, *, Tensor out = None)"),
    **dict.fromkeys(("eq", "ne", "lt", "le", "gt", "ge", "fmod"), _BINARY),
    "rsub": ("(Tensor input, Tensor other, *, Number alpha = 1)", "(Tensor input, Number other, Number alpha = 1)"),
    "std": _VAR, "var": _VAR, "all": _ALL, "any": _ALL, "clamp": _CLAMP, "clip": _CLAMP, "mm": _MM, "bmm": _MM,
    "max": _MAX, "min": _MAX,
    "sum": ("(Tensor input, *, torch.dtype dtype = None)",
            "(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)"),
    "mean": ("(Tensor input, *, torch.dtype dtype = None, Tensor out = None)",
             "(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)"),
    "prod": ("(Tensor input, *, torch.dtype dtype = None)",
             "(Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)"),
    "masked_fill": ("(Tensor input, Tensor mask, Tensor value)", "(Tensor input, Tensor mask, Number value)"),
    "movedim": ("(Tensor input, int source, int destination)",
                "(Tensor input, tuple of ints source, tuple of ints destination)"),
    "narrow": ("(Tensor input, int dim, Tensor start, int length)", "(Tensor input, int dim, int start, int length)"),
}


def wrong_arguments(name, *args, **kwargs):
    """The TypeError PyTorch raises for ``torch.name(*args, **kwargs)`` that fits none of its overloads (a
    non-tensor where it takes a tensor, ...).

    Pass the arguments as the learner gave them (those left at their defaults may be left out).
    """
    texts = FUNCTION_SIGNATURES.get(name)
    if texts:
        error = invalid_arguments(name, tuple(Signature(t) for t in texts), args, kwargs)
        if error is not None:
            return error
    return tensor_expected(name, args[0])


def _is_tensor(obj):
    return isinstance(obj, Tensor)


def _is_index(obj):
    """PyTorch's "int": a Python or NumPy integer (not a bool), or a one-element integer tensor."""
    if isinstance(obj, bool):
        return False
    if isinstance(obj, (int, np.integer)):
        return True
    if _is_tensor(obj):
        return obj._data.size == 1 and obj._data.dtype.kind in "iub"
    return False


def _is_number(obj):
    return isinstance(obj, (int, float, complex, np.number, np.bool_))


def _is_zero_dim(obj):
    return _is_tensor(obj) and obj._data.ndim == 0 and not obj._requires_grad


def _check(kind, obj):
    """Whether ``obj`` fits a parameter of ``kind`` (PyTorch's ``FunctionParameter::check``)."""
    if kind == "Tensor":
        return _is_tensor(obj)
    if kind in ("Number", "float"):
        return _is_number(obj) or _is_zero_dim(obj)
    if kind == "int":
        return (isinstance(obj, (int, np.integer)) and not isinstance(obj, bool)) or (
            _is_zero_dim(obj) and obj._data.dtype.kind in "iu")
    if kind == "bool":
        return isinstance(obj, (bool, np.bool_))
    if kind == "int[1]":
        return _is_index(obj) or _check("tuple of ints", obj)
    if kind == "tuple of ints":
        if isinstance(obj, (tuple, list)):
            return not obj or _is_index(obj[0])
        return False
    if kind == "tuple of Tensors":
        return isinstance(obj, (tuple, list))
    if kind == "torch.dtype":
        return isinstance(obj, _dtype) or obj in (float, int, bool, complex)
    if kind == "torch.device":
        return isinstance(obj, (_device, str)) or isinstance(obj, int) and not isinstance(obj, bool)
    if kind == "str":
        return isinstance(obj, str)
    return True                              # layouts, generators, memory formats: not checked here


class Signature:
    """One overload as PyTorch prints it: ``Signature("(Tensor input, int dim, bool keepdim = False)")``.

    ``hidden`` overloads take part in matching but are not listed in messages.
    """

    def __init__(self, text, hidden=False):
        self.text = text
        self.hidden = hidden
        self.params = []                     # (kind, name, optional, keyword_only)
        self.nullable = set()                # the parameters that take None (default None, or "int?")
        keyword_only = False
        for part in filter(None, text[1:-1].split(", ")):
            if part == "*":
                keyword_only = True
                continue
            decl, _, default = part.partition(" = ")
            kind, _, name = decl.rpartition(" ")
            if kind == "tuple of ints" and name == "dim":
                kind = "int[1]"              # the reductions' dim (int[1] in PyTorch) also takes a single int
            self.params.append((kind, name, bool(default) or kind.endswith("?"), keyword_only))
            if default == "None" or kind.endswith("?"):
                self.nullable.add(name)
        positional = [p for p in self.params if not p[3]]
        self.max_pos_args = len(positional)
        self.min_args = sum(1 for p in self.params if not p[2])
        self.max_args = len(self.params)
        self.varargs = self.max_pos_args == 1 and positional[0][0] == "tuple of ints"

    def explain(self, name, args, kwargs):
        """The TypeError PyTorch raises when this signature rejects ``args``/``kwargs``, or None if it fits."""
        nargs = len(args)
        varargs = self.varargs and nargs > 0 and _is_index(args[0])      # zeros(2, 3) for zeros((2, 3))
        if nargs > self.max_pos_args and not varargs:
            return _extra_args(name, self, nargs)
        pos = 0
        used = 0
        for i, (kind, pname, optional, keyword_only) in enumerate(self.params):
            is_kwd = pos >= nargs
            if not is_kwd:
                if keyword_only:
                    return _extra_args(name, self, nargs)
                obj = args[pos]
            elif pname in kwargs:
                obj = kwargs[pname]
                used += 1
            else:
                if optional:
                    continue
                return _missing_args(name, self, i)
            if obj is None and pname in self.nullable or _check(kind, obj):
                pass
            elif varargs and pos == 0 and not is_kwd:
                pos = nargs                  # all positional arguments are the sizes
                continue
            else:
                return _wrong_type(name, kind, pname, obj, None if is_kwd else pos + 1)
            if not is_kwd:
                pos += 1
        if used < len(kwargs):
            names = [p[1] for p in self.params]
            for key in kwargs:
                if key not in names:
                    return TypeError(f"{name}() got an unexpected keyword argument '{key}'")
                if names.index(key) < nargs:
                    return TypeError(f"{name}() got multiple values for argument '{key}'")
        return None


    def convert(self, args, kwargs):
        """``args`` and ``kwargs`` (which fit) with the tensors PyTorch reads as ints (``dim=torch.tensor(1)``)
        turned into Python ints."""
        if self.varargs:
            return args, kwargs
        kinds = {p[1]: p[0] for p in self.params}
        positional = [p[0] for p in self.params if not p[3]]
        args = tuple(_as_ints(kind, a) for kind, a in zip(positional, args))
        return args, {k: _as_ints(kinds.get(k), v) for k, v in kwargs.items()}


def _as_ints(kind, obj):
    if kind == "int" or kind in ("int[1]", "tuple of ints") and _is_tensor(obj):
        return int(obj) if _is_tensor(obj) else obj
    if kind in ("int[1]", "tuple of ints") and isinstance(obj, (tuple, list)):
        return type(obj)(int(o) if _is_tensor(o) else o for o in obj)
    return obj


def parse(name, signatures, args, kwargs=None):
    """``(args, kwargs)`` as the first of ``signatures`` that fits reads them (one-element integer tensors
    given for ints become ints, as in PyTorch), or raise the TypeError PyTorch raises when none fits.

    Call it on the slow path only, once a cheap check has failed.
    """
    kwargs = kwargs or {}
    for sig in signatures:
        if sig.explain(name, args, kwargs) is None:
            return sig.convert(args, kwargs)
    raise invalid_arguments(name, signatures, args, kwargs)


def _wrong_type(name, kind, pname, obj, position):
    if kind == "int[1]":
        kind = "tuple of ints"
    if position is None:
        return TypeError(f"{name}(): argument '{pname}' must be {kind}, not {type_name(obj)}")
    if kind == "tuple of ints" and isinstance(obj, (tuple, list)):
        return TypeError(f"{name}(): argument '{pname}' (position {position}) must be {kind}, but found element of "
                         f"type {type_name(obj[0])} at pos 0")
    return TypeError(f"{name}(): argument '{pname}' (position {position}) must be {kind}, not {type_name(obj)}")


def _extra_args(name, sig, nargs):
    if sig.min_args != sig.max_pos_args:
        return TypeError(f"{name}() takes from {sig.min_args} to {sig.max_pos_args} positional arguments but "
                         f"{nargs} were given")
    n = sig.max_pos_args
    return TypeError(f"{name}() takes {n} positional argument{'' if n == 1 else 's'} but {nargs} "
                     f"{'was' if nargs == 1 else 'were'} given")


def _missing_args(name, sig, start):
    missing = [f'"{p[1]}"' for p in sig.params[start:] if not p[2]]
    return TypeError(f"{name}() missing {len(missing)} required positional argument{'s' if len(missing) == 1 else ''}"
                     f": {', '.join(missing)}")


def unknown_keywords(name, signatures, args, kwargs, **options):
    """The TypeError PyTorch raises for ``name(*args, **kwargs)`` where ``kwargs`` holds keywords no overload takes
    (``randn(2, 3, foo=1)``: "randn() received an invalid combination of arguments - got (int, int, foo=int), but
    expected one of: ...").  ``options`` are the function's own keyword arguments: those not at their default
    (None or False) are listed too (as if given before the unknown ones: Python does not tell the order).

    A function takes ``**kwargs`` and calls this only when ``kwargs`` is not empty, so calls that fit pay nothing.
    """
    kwargs = listing_order({**{k: v for k, v in options.items() if v is not None and v is not False}, **kwargs})
    return invalid_arguments(name, signatures, args, kwargs) or TypeError(
        _format_invalid(name, [s for s in signatures if not s.hidden], args, kwargs))


def invalid_arguments(name, signatures, args, kwargs=None):
    """The TypeError PyTorch raises for ``name(*args, **kwargs)`` that fits none of ``signatures``.

    ``signatures`` are :class:`Signature` objects (for a method, without
    ``self``).  Returns None when one of them does fit (the caller then has
    another problem to report).
    """
    kwargs = kwargs or {}
    visible = [s for s in signatures if not s.hidden]
    if len(signatures) == 1:
        return signatures[0].explain(name, args, kwargs)
    if not all(s.explain(name, args, kwargs) for s in signatures):
        return None
    n = len(args) + len(kwargs)
    plausible = [s for s in visible if s.min_args <= n <= s.max_args]
    if len(plausible) == 1:
        error = plausible[0].explain(name, args, kwargs)
        if error is not None:
            return error
    return TypeError(_format_invalid(name, visible, args, kwargs))


# ---------------------------------------------------------------------------
# The "received an invalid combination of arguments" message (torch/csrc/utils/invalid_arguments.cpp).
# That code reads the printed signatures again, naively: "*" counts as an argument and a parameter
# with a default is misread, which is why some overloads get a "didn't match" line and others not.
# ---------------------------------------------------------------------------

_LOOSE = {"float": ("float", "int", "long"), "int": ("int", "long")}


def _loose_args(text):
    """The (type, name) pairs the message code reads off a printed signature."""
    out = []
    for part in text[1:-1].split(", "):
        kind, _, pname = part.rpartition(" ")
        out.append((kind, pname))
    return out


def _matches(kind, obj):
    return type_name(obj) in _LOOSE.get(kind, (kind,))


def _describe(obj):
    if isinstance(obj, (tuple, list)):
        inner = ", ".join(type_name(o) for o in obj)
        if isinstance(obj, tuple):
            return f"tuple of ({inner}{',' if len(obj) == 1 else ''})"
        return f"list of [{inner}]"
    return type_name(obj)


_M64 = (1 << 64) - 1
_MUL = 0xc6a4a7935bd1e995


def _hash_string(key):
    """``std::hash<std::string>`` of libstdc++ (its 64-bit ``_Hash_bytes``, MurmurHash2 with seed 0xc70f6907)."""
    def shift_mix(v):
        return v ^ (v >> 47)
    data = key.encode()
    n = len(data)
    aligned = n & ~7
    h = (0xc70f6907 ^ (n * _MUL)) & _M64
    for i in range(0, aligned, 8):
        h ^= (shift_mix((int.from_bytes(data[i:i + 8], "little") * _MUL) & _M64) * _MUL) & _M64
        h = (h * _MUL) & _M64
    if n & 7:
        h ^= int.from_bytes(data[aligned:], "little")
        h = (h * _MUL) & _M64
    h = (shift_mix(h) * _MUL) & _M64
    return shift_mix(h)


def _unordered_keys(keys):
    """``keys`` in the order a libstdc++ ``std::unordered_map<std::string, ...>`` filled with them in this order
    iterates them: PyTorch's message lists the keyword arguments that way (``got (std=float, mean=float, )`` for
    ``normal(mean=0.0, std=1.0)``).  Up to 13 keys the map has 13 buckets; a key whose bucket is empty goes to the
    front of the list, one whose bucket is taken goes before that bucket's first key."""
    buckets = 13 if len(keys) <= 13 else 29
    order = []
    for key in keys:
        b = _hash_string(key) % buckets
        same = [i for i, k in enumerate(order) if _hash_string(k) % buckets == b]
        order.insert(same[0] if same else 0, key)
    return order


def listing_order(kwargs):
    """``kwargs`` (a dict in the order of the call) reordered as PyTorch's message lists them (see
    ``_unordered_keys``); pass the result to ``invalid_arguments``, which lists keywords as it gets them."""
    return {k: kwargs[k] for k in _unordered_keys(list(kwargs))}


def _arg_desc(args, kwargs):
    text = "".join(f"{type_name(a)}, " for a in args) + "".join(f"{k}={type_name(v)}, " for k, v in kwargs.items())
    return "(" + (text[:-2] if args else text) + ")"


def _formatted_arg_desc(loose, args, kwargs):
    parts = []
    for i in range(len(args) + len(kwargs)):
        if i < len(args):
            obj, label = args[i], ""
        else:
            key = loose[i][1]
            obj, label = kwargs.get(key), key + "="
        ok = i < len(loose) and obj is not None and _matches(loose[i][0], obj)
        mark = "" if ok else "!"
        parts.append(f"{mark}{label}{_describe(obj)}{mark}, ")
    text = "".join(parts)
    return "(" + (text[:-2] if args else text) + ")"


def _format_invalid(name, signatures, args, kwargs):
    if len(signatures) == 1:                 # one overload shown (others hidden): "but expected (...)"
        sig = signatures[0]
        return (f"{name}() received an invalid combination of arguments - got "
                f"{_formatted_arg_desc(_loose_args(sig.text), args, kwargs)}, but expected {sig.text}")
    lines = [f"{name}() received an invalid combination of arguments - got {_arg_desc(args, kwargs)}, but expected "
             "one of:"]
    given = len(args) + len(kwargs)
    for sig in signatures:
        lines.append(f" * {sig.text}")
        loose = _loose_args(sig.text)
        if len(loose) != given:
            continue
        start = max(len(loose) - len(kwargs), 0)
        unmatched = [k for k in kwargs if k not in [p[1] for p in loose[start:]]]
        if unmatched:
            lines.append("      didn't match because some of the keywords were incorrect: " + ", ".join(unmatched))
        else:
            lines.append("      didn't match because some of the arguments have invalid types: "
                         + _formatted_arg_desc(loose, args, kwargs))
    return "\n".join(lines) + "\n"


def int_list(name, pname, args, position=1):
    """Sizes given as ``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` or ``f(torch.Size(...))``, as a tuple of ints.

    Mirrors how PyTorch unpacks a ``tuple of ints`` parameter: the first
    element decides whether the call fits, the others are converted after
    (one-element integer tensors count as ints).

    Raises:
        TypeError: PyTorch's messages ("must be tuple of ints, not float",
            "failed to unpack the object at pos 2 with error ...").
    """
    seq = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    if len(args) == 1 and not isinstance(args[0], (tuple, list)) and not _is_index(args[0]):
        raise TypeError(f"{name}(): argument '{pname}' (position {position}) must be tuple of ints, not "
                        f"{type_name(args[0])}")
    if seq and not _is_index(seq[0]):
        raise TypeError(f"{name}(): argument '{pname}' (position {position}) must be tuple of ints, but found "
                        f"element of type {type_name(seq[0])} at pos 0")
    out = []
    for i, s in enumerate(seq):
        if isinstance(s, bool) or _is_index(s):
            out.append(int(s))
        else:
            raise TypeError(f"{name}(): argument '{pname}' failed to unpack the object at pos {i + 1} with error "
                            f"\"type must be tuple of ints,but got {type_name(s)}\"")
    return tuple(out)


def public_names(functions):
    """Give each function of ``functions`` (a ``{public name: function}`` mapping) its public name as
    ``__qualname__`` where it has an internal one, so that Python's own argument errors name it as PyTorch
    does (``sqrt()``, not ``_unary_function.<locals>.function()``)."""
    for public, function in functions.items():
        qualname = getattr(function, "__qualname__", None)
        if not isinstance(qualname, str) or not hasattr(function, "__code__") or public.startswith("__"):
            continue
        if "<locals>" in qualname or qualname.startswith("_"):     # the first public name of an alias wins
            function.__qualname__ = public
            if function.__name__.startswith("_") or "<" in function.__name__:
                function.__name__ = public


def missing_attribute(module, name):
    """The AttributeError for a name that a course_lib module lacks, with a hint (course_lib is a subset).

    ``module`` is the module's name (``"course_lib.nn"``); the hint names the
    PyTorch counterpart (``torch.nn.X``).  Python's own probes (dunder names)
    get the plain message.
    """
    message = f"module '{module}' has no attribute '{name}'"
    if name.startswith("__"):
        return AttributeError(message)
    torch_name = "torch" + module[len("course_lib"):] + "." + name
    return AttributeError(f"{message}. Note: course_lib implements only the part of PyTorch this course uses, so "
                          f"{torch_name} may exist in real PyTorch although course_lib lacks it.")



_NUMPY_SPELLINGS = ("axis", "keepdims", "out")      # keywords PyTorch's Python layer takes besides the signatures'


def parsed_like_pytorch(name, method_texts, function_texts, fits):
    """A decorator that gives ``function`` (``function(input, ...)``) PyTorch's argument errors, keyword and
    position aware: it returns ``(torch_function, tensor_method)``.

    Python binds ``t.argmax(dim=(0, 1))`` and ``torch.argmax(t, (0, 1))`` to the same parameters, but PyTorch's
    messages tell them apart: a keyword argument has no position (``argument 'dim' must be int, not tuple``), the
    function form counts ``input`` (``(position 2)``), an invalid combination lists keywords as ``dim=tuple``.  So
    both forms take ``*args, **kwargs`` as given; ``fits(args, kwargs)`` (the arguments after ``input``) is a cheap
    check of the usual calls, and only when it fails are the arguments parsed against the overloads
    (``method_texts`` without ``input``, ``function_texts`` with it) to raise PyTorch's TypeError.  Arguments that
    do fit one overload (a dim given as a one-element integer tensor) go on to ``function`` as they are.
    """
    method_signatures = tuple(Signature(t) for t in method_texts)
    function_signatures = tuple(Signature(t) for t in function_texts)

    def explain(signatures, args, kwargs):
        named = listing_order({k: v for k, v in kwargs.items() if k not in _NUMPY_SPELLINGS})
        error = invalid_arguments(name, signatures, args, named)
        if error is not None:
            raise error

    def decorate(function):
        def as_function(*args, **kwargs):
            if not fits(args[1:], kwargs) and args and _is_tensor(args[0]):
                explain(function_signatures, args, kwargs)
            return function(*args, **kwargs)

        def as_method(self, *args, **kwargs):
            if not fits(args, kwargs):
                explain(method_signatures, args, kwargs)
            return function(self, *args, **kwargs)

        for wrapper in (as_function, as_method):
            wrapper.__name__ = wrapper.__qualname__ = name
            wrapper.__doc__, wrapper.__wrapped__ = function.__doc__, function
        return as_function, as_method
    return decorate
