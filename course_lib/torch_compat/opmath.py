"""The precision PyTorch's CPU kernels compute element-wise math in.

PyTorch's float32 ``exp``, ``log``, ``sin``, ... are accurate to about one unit in the last place, so
the correctly rounded value is almost always theirs; NumPy's float32 versions are faster but less
accurate (``log10(100)`` is not exactly 2).  float16 is computed in float32, as PyTorch does.  So the
catalogue's math ops compute one precision wider and round once (``precise``).
"""

__all__ = ["precise"]

import numpy as np

_WIDER = {np.dtype(np.float16): np.dtype(np.float32), np.dtype(np.float32): np.dtype(np.float64)}


def precise(fn, a):
    """``fn(a)`` computed one precision wider, then rounded to ``a``'s dtype.

    PyTorch's float32 ``exp``, ``log``, ``sin``, ... are accurate to about
    one unit in the last place, so the correctly rounded value is almost
    always theirs; NumPy's float32 versions are faster but less accurate
    (``log10(100)`` is not exactly 2).  float16 is computed in float32, as
    PyTorch does.
    """
    wide = _WIDER.get(a.dtype)
    return fn(a) if wide is None else fn(a.astype(wide)).astype(a.dtype)


