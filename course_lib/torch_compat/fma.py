"""Fused multiply-add as C++ compilers emit it for PyTorch's CPU kernels (arange, linspace, uniform_)."""

import numpy as np

__all__ = ["fma"]


def fma(a, b, c):
    """``a * b + c`` rounded once, as a C++ compiler's fused multiply-add gives it (float64 arrays; exact
    products and sums by error-free transformations)."""
    with np.errstate(all="ignore"):
        a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
        p = a * b
        t = 134217729.0 * a                      # Dekker's split: p + e is a * b exactly
        ah = t - (t - a)
        t = 134217729.0 * b
        bh = t - (t - b)
        e = ((ah * bh - p) + ah * (b - bh) + (a - ah) * bh) + (a - ah) * (b - bh)
        s = p + c
        bb = s - p
        r = s + (((p - (s - bb)) + (c - bb)) + e)
        return np.where(np.isfinite(r), r, p + c)
