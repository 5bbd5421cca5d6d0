"""Random numbers: ``rand``, ``randn``, ``randint``, ``randperm``, ``normal``, ``bernoulli``, ``multinomial``.

Each draws from PyTorch's CPU generator (``course_lib/torch_compat/random.py``) the way PyTorch's kernel
does, so ``torch.manual_seed(0); torch.rand(3)`` prints the same values as PyTorch.
"""

import math

import numpy as np

from ..core.layout import broadcast_shape
from ..core.tensor import Tensor
from ..torch_compat import dtypes as _dtype
from ..torch_compat.arguments import Signature, _format_invalid, invalid_arguments, listing_order, unknown_keywords
from ..torch_compat.names import type_name
from ..torch_compat.random import _check_std, _rng, bernoulli_mask, check_random_bounds
from .creation import _MISSING, _finish, _keywords, allocation_error, check_out, into_out, parse_size, size_keyword

__all__ = ["rand", "randn", "randint", "randperm", "normal", "rand_like", "randn_like", "randint_like", "bernoulli",
           "multinomial"]


def _float_dtype(name, dtype, requires_grad, kernel):
    dt = _keywords(name, dtype, requires_grad) or _dtype.get_default_dtype()
    if dt._kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{dt._short_name}\'')
    return dt


def _draw(values, shape, device, requires_grad):
    return _finish(values.reshape(shape), device, requires_grad)


_OPTIONS = ("Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False")


def _size_signatures():
    return (Signature(f"(tuple of ints size, *, torch.Generator generator, {_OPTIONS})"),
            Signature(f"(tuple of ints size, *, {_OPTIONS})"))


def rand(*sizes, size=_MISSING, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False, **kwargs):
    """Uniform random numbers in ``[0, 1)`` of the given shape (float32 by default). Mirrors ``torch.rand``.

    Raises:
        NotImplementedError: an integer ``dtype`` (PyTorch's message).
        TypeError: a size that is not a tuple of ints. RuntimeError: a negative size.
    """
    if kwargs:
        raise unknown_keywords("rand", _size_signatures(), sizes, kwargs, size=None if size is _MISSING else size,
                               generator=generator, out=out, dtype=dtype, layout=layout, device=device,
                               requires_grad=requires_grad, pin_memory=pin_memory)
    if size is not _MISSING:
        sizes = size_keyword("rand", sizes, size, _size_signatures())
    shape = parse_size(sizes, "rand", _size_signatures(), negative=out is None)
    if out is not None:
        check_out("rand", out, sizes, _size_signatures())
        return into_out("rand", out, lambda d, dev: rand(shape, generator=generator, dtype=d, device=dev),
                        _keywords("rand", dtype, requires_grad), device, requires_grad, shape=shape)
    dt = _float_dtype("rand", dtype, requires_grad, "check_uniform_bounds")
    try:
        values = _rng(generator).uniform(math.prod(shape), dt)
    except (MemoryError, ValueError, OverflowError):
        raise allocation_error(shape, dt.itemsize) from None
    return _draw(values, shape, device, requires_grad)


def randn(*sizes, size=_MISSING, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False, **kwargs):
    """Standard normal random numbers (mean 0, variance 1) of the given shape. Mirrors ``torch.randn``.

    Raises:
        NotImplementedError: an integer ``dtype``.
        TypeError: a size that is not a tuple of ints. RuntimeError: a negative size.
    """
    if kwargs:
        raise unknown_keywords("randn", _size_signatures(), sizes, kwargs, size=None if size is _MISSING else size,
                               generator=generator, out=out, dtype=dtype, layout=layout, device=device,
                               requires_grad=requires_grad, pin_memory=pin_memory)
    if size is not _MISSING:
        sizes = size_keyword("randn", sizes, size, _size_signatures())
    shape = parse_size(sizes, "randn", _size_signatures(), negative=out is None)
    if out is not None:
        check_out("randn", out, sizes, _size_signatures())
        return into_out("randn", out, lambda d, dev: randn(shape, generator=generator, dtype=d, device=dev),
                        _keywords("randn", dtype, requires_grad), device, requires_grad, shape=shape)
    given = _keywords("randn", dtype, requires_grad)
    if given is not None and given._kind != "f" and not math.prod(shape):   # no elements: no kernel, no error
        if requires_grad:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        return _draw(np.empty(shape, given.numpy_dtype), shape, device, False)
    dt = _float_dtype("randn", dtype, requires_grad, "normal_kernel_cpu")
    try:
        values = _rng(generator).normal(math.prod(shape), dt)
    except (MemoryError, ValueError, OverflowError):
        raise allocation_error(shape, dt.itemsize) from None
    return _draw(values, shape, device, requires_grad)


_RANDINT = tuple(Signature(f"({lead}tuple of ints size, *, {gen}{_OPTIONS})")
                 for lead in ("int high, ", "int low, int high, ")
                 for gen in ("torch.Generator generator, ", ""))


def randint(*args, low=_MISSING, high=_MISSING, size=None, generator=None, out=None, dtype=None, layout=None,
            device=None, requires_grad=False,
            pin_memory=False):
    """Random integers in ``[low, high)``: ``randint(high, size)`` or ``randint(low, high, size)``;
    int64 by default. Mirrors ``torch.randint``.

    Raises:
        RuntimeError: ``low >= high`` (PyTorch's message).
        TypeError: a missing or malformed size, bounds that are not ints.
    """
    dt = _keywords("randint", dtype, requires_grad) or _dtype.int64
    if low is not _MISSING or high is not _MISSING:     # randint(low=0, high=10, size=(3,))
        if high is _MISSING or size is None or len(args) > (0 if low is not _MISSING else 1):
            if high is _MISSING and not args:       # PyTorch's message names size even when it is given
                raise TypeError('randint() missing 2 required positional argument: "high", "size"')
            kwargs = {k: v for k, v in (("size", size), ("high", high), ("low", low))     # last first
                      if v is not _MISSING and v is not None}
            raise invalid_arguments("randint", _RANDINT, args, kwargs)
        args = ((low,) if low is not _MISSING else args) + (high,)
    given = args + ((size,) if size is not None else ())
    ints = given[:-1]
    if len(given) not in (2, 3) or not isinstance(given[-1], (tuple, list)) or \
            not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in ints):
        kwargs = {"size": size} if size is not None else {}
        raise invalid_arguments("randint", _RANDINT, args, kwargs)
    low, high = (0, int(ints[0])) if len(ints) == 1 else (int(ints[0]), int(ints[1]))
    shape = parse_size((given[-1],), "randint", _RANDINT, position=len(given), negative=out is None)
    if out is not None:
        check_out("randint", out, args, _RANDINT)
        return into_out("randint", out, lambda d, dev: randint(low, high, shape, generator=generator, dtype=d,
                                                               device=dev),
                        None if dtype is None else dt, device, requires_grad, shape=shape)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    check_random_bounds(dt, low, high)
    values = _rng(generator).randint(int(np.prod(shape)), low, high).astype(dt.numpy_dtype)
    return _draw(values, shape, device, requires_grad)


_RANDPERM = (Signature(f"(int n, *, torch.Generator generator, {_OPTIONS})"), Signature(f"(int n, *, {_OPTIONS})"))


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """A random permutation of ``0 .. n-1`` (int64). Mirrors ``torch.randperm``.

    Raises:
        RuntimeError: a negative ``n`` (PyTorch's message).
    """
    given = _keywords("randperm", dtype, requires_grad)
    dt = given or _dtype.int64
    if out is not None:
        check_out("randperm", out, (n,), _RANDPERM)
        return into_out("randperm", out, lambda d, dev: _randperm_out(n, generator, d, dev), given, device,
                        requires_grad)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    values = _rng(generator).randperm(int(n)).astype(dt.numpy_dtype)
    return _draw(values, (int(n),), device, requires_grad)


def _randperm_out(n, generator, dtype, device):
    if n < 0:                               # (randperm's out= kernel words it so, without a space)
        raise RuntimeError(f"n must be non-negative, got{n}")
    return randperm(n, generator=generator, dtype=dtype, device=device)


_NORMAL = (Signature("(Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)"),
           Signature("(Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)"),
           Signature("(float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)"),
           Signature("(float mean, float std, tuple of ints size, *, torch.Generator generator = None, "
                     f"{_OPTIONS})"))


def normal(*args, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
           pin_memory=False, **kwargs):
    """Normal random numbers with the given ``mean`` and standard deviation ``std`` (variance
    ``std**2``). Mirrors ``torch.normal``.

    Forms: ``normal(mean_tensor, std_tensor)``, ``normal(mean_tensor, std=1.0)``,
    ``normal(mean, std_tensor)``, ``normal(mean, std, size)``.  With tensors,
    standard normals are drawn for the result's shape, then scaled and shifted.

    Raises:
        RuntimeError: a negative ``std``.
        TypeError: two numbers without a ``size``.
    """
    rng = _rng(generator)
    if kwargs or len(args) != 2:             # mean, std, size given by keyword (or missing): read as PyTorch reads them
        options = {k: v for k, v in (("generator", generator), ("out", out), ("dtype", dtype), ("layout", layout),
                                     ("device", device), ("requires_grad", requires_grad),
                                     ("pin_memory", pin_memory)) if v is not None and v is not False}
        mean, std, size = _normal_arguments(args, kwargs, options)
    else:
        (mean, std), size = args, None
    given = (args, listing_order(kwargs))
    if out is not None and (isinstance(mean, Tensor) or isinstance(std, Tensor)):
        raise NotImplementedError("course_lib's normal() takes out= only in the form normal(mean, std, size, out=...)")
    if isinstance(mean, Tensor) or isinstance(std, Tensor):

        if size is not None or not isinstance(mean, (Tensor, *_NUMBER)) or not isinstance(std, (Tensor, *_NUMBER)):
            raise _normal_error(given)
        ref = mean if isinstance(mean, Tensor) else std     # the result has mean's dtype, else std's
        dt = ref.dtype
        if isinstance(std, Tensor):
            if not (std._data >= 0).all():
                raise RuntimeError("normal expects all elements of std >= 0.0")
        else:
            _check_std(std)
        if dt._kind != "f":
            raise NotImplementedError(f'"normal_kernel_cpu" not implemented for \'{dt._short_name}\'')
        m = mean._data if isinstance(mean, Tensor) else mean
        s = std._data if isinstance(std, Tensor) else std
        shape = broadcast_shape(np.shape(m), np.shape(s))
        n = int(np.prod(shape))
        if isinstance(std, Tensor):
            z = rng.normal(n, dt).reshape(shape)
            values = z * np.asarray(s, dt.numpy_dtype) + np.asarray(m, dt.numpy_dtype)
        else:
            values = rng.normal(n, dt, 0.0, std).reshape(shape) + np.asarray(m, dt.numpy_dtype)
        return _finish(values.astype(dt.numpy_dtype, copy=False), ref.device, False)
    if not isinstance(size, (tuple, list)) or not isinstance(mean, _NUMBER) or not isinstance(std, _NUMBER) or \
            not all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in size):
        raise _normal_error(given)
    _check_std(std)
    shape = parse_size((size,), "normal", negative=out is None)
    if out is not None:
        check_out("normal", out, args, _NORMAL)
        return into_out("normal", out, lambda d, dev: normal(mean, std, shape, generator=generator, dtype=d,
                                                             device=dev),
                        _keywords("normal", dtype, requires_grad), device, requires_grad, shape=shape)
    dt = _float_dtype("normal", dtype, requires_grad, "normal_kernel_cpu")
    values = rng.normal(int(np.prod(shape)), dt, float(mean), float(std))
    return _draw(values, shape, device, requires_grad)


_NUMBER = (int, float, np.integer, np.floating)


def _normal_arguments(args, kwargs, options):
    """``(mean, std, size)`` from ``normal``'s positional and keyword arguments, or PyTorch's TypeError."""
    names = ("mean", "std", "size")
    bound = dict(zip(names, args))
    if len(args) > 3 or any(k not in names or k in bound for k in kwargs) or "mean" not in bound and \
            "mean" not in kwargs:
        raise _normal_error((args, listing_order({**kwargs, **options})))
    bound.update(kwargs)
    if "std" not in bound and not isinstance(bound["mean"], Tensor):
        raise _normal_error((args, listing_order({**kwargs, **options})))
    return bound["mean"], bound.get("std", 1.0), bound.get("size")


def _normal_error(given):
    args, kwargs = given
    return invalid_arguments("normal", _NORMAL, args, kwargs) or TypeError(
        _format_invalid("normal", _NORMAL, args, kwargs))


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """``rand`` with ``input``'s shape, dtype and device. Mirrors ``torch.rand_like``."""
    return rand(input._data.shape, dtype=dtype or input.dtype, device=device or input.device,
                requires_grad=requires_grad)


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """``randn`` with ``input``'s shape, dtype and device. Mirrors ``torch.randn_like``.

    Raises:
        NotImplementedError: for an integer tensor (PyTorch's behaviour).
    """
    return randn(input._data.shape, dtype=dtype or input.dtype, device=device or input.device,
                 requires_grad=requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None):
    """``randint`` with ``input``'s shape, dtype and device. Mirrors ``torch.randint_like``."""
    if high is None:
        low, high = 0, low
    return randint(low, high, input._data.shape, dtype=dtype or input.dtype, device=device or input.device)


def bernoulli(input, p=None, *, generator=None):
    """1 with probability ``input`` (or ``p``), else 0, element-wise; ``input``'s dtype. Mirrors ``torch.bernoulli``.

    Each element compares one float uniform with its probability, as
    PyTorch's CPU kernel for a tensor of probabilities does.
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"bernoulli(): argument 'input' (position 1) must be Tensor, not {type_name(input)}")
    if p is None:
        if input.dtype._kind != "f":
            raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for \'{input.dtype._short_name}\'')
        probs = input.detach().cpu()._data
        if not ((probs >= 0) & (probs <= 1)).all():
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message "
                               "be improved?  If so, please report an enhancement request to PyTorch.)")
    elif not isinstance(p, _NUMBER):
        raise _bernoulli_error((input, p))
    elif not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    shape = input._data.shape
    if p is not None:                # one double-precision uniform per element (PyTorch's bernoulli_(float p))
        return _finish(bernoulli_mask(shape, p, generator).astype(input._data.dtype), input.device, False)
    probs = np.asarray(probs, dtype=np.float64)
    u = _rng(generator).uniform(int(np.prod(shape)), _dtype.float32).reshape(shape)
    return _finish((u < probs).astype(input._data.dtype), input.device, False)


_BERNOULLI = (Signature("(Tensor input, *, torch.Generator generator = None, Tensor out = None)"),
              Signature("(Tensor input, float p, *, torch.Generator generator = None)"))


def _bernoulli_error(given):
    return invalid_arguments("bernoulli", _BERNOULLI, given) or TypeError(
        _format_invalid("bernoulli", _BERNOULLI, given, {}))


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """``num_samples`` category indices (int64) drawn with the weights ``input`` (1-D, or 2-D: one row per
    distribution; the weights need not sum to 1). Mirrors ``torch.multinomial``.

    The draws are PyTorch's CPU ones, so the same indices come after the same ``manual_seed``: without
    replacement (or for one sample) the argmax / top-k of ``input / q`` with ``q`` exponential draws
    (``-log1p(-u)`` of one double uniform per weight); with replacement one double uniform per sample,
    looked up in the normalised running sum of the weights.

    Raises:
        RuntimeError: an input that is not 1-D or 2-D, ``num_samples`` < 1 or, without replacement, more
            than the categories; weights that are negative, inf or nan, or that sum to 0 (PyTorch's messages).
    """
    x = input.detach().cpu()._data
    if x.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{input.dtype._short_name}")
    if x.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    n = x.shape[-1]
    if not replacement and num_samples > n:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    rows = x.reshape(-1, n)
    gen = _rng(generator)
    if not replacement or num_samples == 1:
        if not (np.isfinite(rows).all() and (rows >= 0).all()):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (rows.sum(1) == 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        u = gen.uniform(rows.size, _dtype.float64).reshape(rows.shape)
        q = (-np.log1p(-u)).astype(x.dtype)            # exponential_(1), in input's dtype
        with np.errstate(divide="ignore"):
            key = rows / q
        # PyTorch's argmax / topk: the largest first, the lowest index among equals
        out = np.argsort(-key, axis=1, kind="stable")[:, :num_samples]
    else:
        out = np.empty((rows.shape[0], num_samples), dtype=np.int64)
        for i, row in enumerate(rows):
            bad = ~(row >= 0) | ~np.isfinite(row)           # PyTorch checks element by element, >= 0 first
            if bad.any() and not row[bad.argmax()] >= 0:
                raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
            if bad.any():
                raise RuntimeError("invalid multinomial distribution (encountering probability entry = infinity "
                                   "or NaN)")
            cum = np.cumsum(row)                       # sequential, in input's dtype
            if not cum[-1] > 0:
                raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
            cum = cum / cum[-1]
            cum[-1] = 1
            out[i] = np.searchsorted(cum, gen.uniform(num_samples, _dtype.float64), side="left")
    return _finish(out.reshape(x.shape[:-1] + (num_samples,)).astype(np.int64), input.device, False)
