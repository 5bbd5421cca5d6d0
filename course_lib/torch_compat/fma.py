"""Fused multiply-add as C++ compilers emit it for PyTorch's CPU kernels (arange, linspace, uniform_, lerp, add
and sub with ``alpha``, tanh's backward).

PyTorch's vectorised kernels write ``a + alpha * b`` as ``vec::fmadd(b, alpha, a)``, and the compiler fuses the
scalar loops' ``x * y + z`` too: one rounding where NumPy's ``a + alpha * b`` rounds twice.  The two differ in
about one value in ten, by many units in the last place where ``a`` and ``alpha * b`` nearly cancel.
"""

import numpy as np

from ..core.backend import backend_of

__all__ = ["fma", "fma_float32", "fused"]

_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


def _xp(*values):
    """The array library of the first array among ``values`` (NumPy for Python and NumPy scalars)."""
    for v in values:
        if hasattr(v, "shape") and not isinstance(v, np.generic):
            return backend_of(v)
    return np


def fma(a, b, c):
    """``a * b + c`` rounded once, as a C++ compiler's fused multiply-add gives it (float64 arrays; exact
    products and sums by error-free transformations)."""
    xp = _xp(a, b, c)
    with np.errstate(all="ignore"):
        a, b = xp.asarray(a, dtype=np.float64), xp.asarray(b, dtype=np.float64)
        p = a * b
        t = 134217729.0 * a                      # Dekker's split: p + e is a * b exactly
        ah = t - (t - a)
        t = 134217729.0 * b
        bh = t - (t - b)
        e = ((ah * bh - p) + ah * (b - bh) + (a - ah) * bh) + (a - ah) * (b - bh)
        s = p + c
        bb = s - p
        r = s + (((p - (s - bb)) + (c - bb)) + e)
        return xp.where(xp.isfinite(r), r, p + c)


def fma_float32(a, b, c):
    """``a * b + c`` of float32 values rounded once to float32, as the FMA instruction of a float32 kernel
    gives it (NumPy or CuPy arrays, or scalars).

    The product of two float32 values is exact in float64.  The sum is rounded *to odd* in float64 (where it
    is inexact, the neighbour whose last bit is 1), which keeps enough bits for the rounding to float32 to
    give the exact value rounded once (Boldo and Melquiond, "When double rounding is odd", 2005).
    """
    xp = _xp(a, b, c)
    with np.errstate(all="ignore"):
        a, b, c = (xp.asarray(v, dtype=np.float64) for v in (a, b, c))
        p = a * b
        s = p + c
        bb = s - p
        err = (p - (s - bb)) + (c - bb)              # s + err == p + c exactly (Knuth's two-sum)
        even = (s.view(np.int64) & 1) == 0
        odd = xp.nextafter(s, xp.where(err > 0, np.inf, -np.inf))
        s = xp.where((err != 0) & even & xp.isfinite(s), odd, s)
        return s.astype(np.float32)


def fused(a, b, c, dtype):
    """``a * b + c`` in ``dtype`` (float16, float32 or float64) with one rounding, as PyTorch's kernels compute it;
    float16 is computed as PyTorch does, fused in float32 and then rounded to float16.

    float32 operands multiply exactly in float64 (24 + 24 bits), so the float64 sum is rounded only once more
    (a double rounding that differs from one fused rounding in about one case in 2**29); float64 uses ``fma``.
    """
    dtype = np.dtype(dtype)
    if dtype == _F64:
        if _plain(a) and _plain(c):
            return fma(a, b, c)
        return a * b + c                         # (a GPU array: its own rounding)
    with np.errstate(all="ignore"):
        wide = _f32_as_f64(a) * _f32_as_f64(b) + _f32_as_f64(c)
        return wide.astype(_F32) if dtype == _F32 else wide.astype(_F32).astype(_F16)


def _plain(v):
    return v.__class__ is np.ndarray or isinstance(v, (np.generic, int, float))


def _f32_as_f64(v):
    """``v`` (an array or a number) rounded to float32, held in float64."""
    if isinstance(v, (int, float)):
        return np.float64(np.float32(v))
    return v.astype(_F32, copy=False).astype(_F64)
