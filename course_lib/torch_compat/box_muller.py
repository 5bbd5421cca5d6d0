"""PyTorch's CPU normal sampler for 16 values or more, reproduced bit for bit (``normal_fill`` in PyTorch's
``aten/src/ATen/native/cpu/DistributionTemplates.h``).

For a contiguous tensor of at least 16 elements, PyTorch first fills it with uniform numbers, then turns each
block of 16 into normals by Box-Muller: with ``u1 = 1 - block[j]`` and ``u2 = block[j + 8]`` (j < 8),
``radius = sqrt(-2 log u1)``, ``theta = 2 pi u2``, ``block[j] = radius cos(theta) std + mean`` and
``block[j + 8] = radius sin(theta) std + mean``.  When the size is not a multiple of 16, the last 16 elements
are drawn again and transformed as one more (overlapping) block.

How each block is computed depends on the dtype, and here is what makes the last bits PyTorch's:

* float32 (``normal_fill_16_AVX2``, the path of every x86-64 CPU with AVX2): eight lanes at a time with the
  Cephes-style polynomials of ``avx_mathfun.h`` for ``log`` and ``sincos``, in float32, each multiply-add of
  the polynomials fused into one rounding (the compiler contracts them; ``_madd`` below), and a fused
  ``n * std + mean`` at the end.  This module evaluates the same polynomials with NumPy, in the same order:
  3 million values drawn both ways (seeds 100-129, 16 to 100,000 values, several means and stds) agree to
  the bit.  (A CPU without AVX2, e.g. an ARM one, runs the float code of the float64 path instead.)
* float64: C's ``log``, ``cos`` and ``sin`` (glibc's, which Python's ``math`` calls too) and one fused
  multiply-add at the end.
* float16: every named intermediate (``u1``, ``radius``, ``theta``) is stored as float16, the functions run in
  float32, and ``radius * cos(theta) * std + mean`` is computed in float32 (the last two steps fused).
"""

import math

import numpy as np

from .fma import fma

__all__ = ["transform_blocks"]

_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_I32 = np.dtype(np.int32)


# -- float32 arithmetic, one rounding per operation ----------------------------------------------------------

def _f32(v):
    return np.float32(v)


def _mul(a, b):
    return np.multiply(a, b, dtype=_F32)


def _madd(a, b, c):
    """``a * b + c`` with one rounding (the product of two float32 numbers is exact in float64; the sum rounded
    to float64 and then to float32 differs from one rounding in about one case in 2**28)."""
    wide = np.asarray(a, _F32).astype(_F64) * np.asarray(b, _F32).astype(_F64) + np.asarray(c, _F32).astype(_F64)
    return wide.astype(_F32)


# the constants of avx_mathfun.h (Cephes' single-precision log, sin and cos)
_LOG_P = tuple(_f32(c) for c in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                                 1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                                 3.3333331174e-1))
_LOG_Q1, _LOG_Q2, _SQRTHF = _f32(-2.12194440e-4), _f32(0.693359375), _f32(0.707106781186547524)
_DP = (_f32(-0.78515625), _f32(-2.4187564849853515625e-4), _f32(-3.77489497744594108e-8))
_SIN_P = (_f32(-1.9515295891e-4), _f32(8.3321608736e-3), _f32(-1.6666654611e-1))
_COS_P = (_f32(2.443315711809948e-5), _f32(-1.388731625493765e-3), _f32(4.166664568298827e-2))
_FOUR_OVER_PI = _f32(1.27323954473516)
_SMALLEST_NORMAL = np.array([0x00800000], _I32).view(_F32)[0]


def _log_avx2(x):
    """``log256_ps``: the natural logarithm of float32 ``x`` (``> 0``) as PyTorch's AVX2 normal sampler computes
    it: split into mantissa ``m`` in [sqrt(1/2), sqrt(2)) and exponent ``e``, a degree-9 polynomial in
    ``m - 1``, then ``e * log(2)`` added in two parts."""
    invalid = x <= 0
    x = np.maximum(x, _SMALLEST_NORMAL)
    bits = x.view(_I32)
    e = ((bits >> 23) - 126).astype(_F32)                     # the exponent of x as a number in [0.5, 1), plus 1
    m = ((bits & ~0x7F800000) | 0x3F000000).view(_F32)         # the mantissa scaled into [0.5, 1)
    small = m < _SQRTHF                                        # [0.5, sqrt(1/2)): use 2m, one less in e
    e = e - small.astype(_F32)
    m = (m - _f32(1)) + np.where(small, m, _f32(0))
    z = _mul(m, m)
    y = np.full_like(m, _LOG_P[0])
    for c in _LOG_P[1:]:
        y = _madd(y, m, c)
    y = _madd(_mul(y, m), z, _mul(e, _LOG_Q1))                 # y * m * z + e * q1
    y = _madd(z, _f32(-0.5), y)                                 # - z / 2
    return np.where(invalid, np.float32(np.nan), _madd(e, _LOG_Q2, m + y))


def _sincos_avx2(x):
    """``sincos256_ps``: sine and cosine of float32 ``x`` as PyTorch's AVX2 normal sampler computes them: ``|x|``
    reduced by multiples of pi/4 (in three parts), then one of two polynomials for each, by the octant."""
    negative = np.signbit(x)
    x = np.abs(x)
    j = _mul(x, _FOUR_OVER_PI).astype(_I32)                    # the octant (truncated), made even
    j = (j + 1) & ~1
    y = j.astype(_F32)
    for dp in _DP:                                              # x - j * pi/4, in extended precision
        x = _madd(y, dp, x)
    sin_negative = negative ^ ((j & 4) != 0)
    cos_negative = (~(j - 2) & 4) != 0
    first = (j & 2) == 0                                        # octants where sin uses the sine polynomial
    z = _mul(x, x)
    c = _madd(_madd(np.full_like(z, _COS_P[0]), z, _COS_P[1]), z, _COS_P[2])
    c = _madd(_mul(c, z), z, -_mul(z, _f32(0.5))) + _f32(1)   # 1 - z/2 + z**2 * poly(z)
    s = _madd(_madd(np.full_like(z, _SIN_P[0]), z, _SIN_P[1]), z, _SIN_P[2])
    s = _madd(_mul(s, z), x, x)                                # x + x * z * poly(z)
    sin, cos = np.where(first, s, c), np.where(first, c, s)
    return np.where(sin_negative, -sin, sin), np.where(cos_negative, -cos, cos)


def _blocks_float32(u1, u2, mean, std):
    radius = np.sqrt(_mul(_f32(-2), _log_avx2(_f32(1) - u1)))
    sin, cos = _sincos_avx2(_mul(_f32(2.0 * math.pi), u2))
    return _madd(_mul(radius, cos), std, mean), _madd(_mul(radius, sin), std, mean)


# -- float64: C's functions ------------------------------------------------------------------------------

_log, _cos, _sin = (np.frompyfunc(f, 1, 1) for f in (math.log, math.cos, math.sin))


def _c(function, x):
    return function(x).astype(_F64)


def _blocks_float64(u1, u2, mean, std):
    with np.errstate(divide="ignore"):
        radius = np.sqrt(-2.0 * _c(_log, 1.0 - u1))
    theta = (2.0 * math.pi) * u2
    return fma(radius * _c(_cos, theta), std, mean), fma(radius * _c(_sin, theta), std, mean)


# -- float16: float32 functions, float16 intermediates ---------------------------------------------------

def _float32_of(function, x):
    """``function`` (a float64 NumPy function) of float16/float32 ``x`` as C's float function gives it: the
    correctly rounded float32 value (glibc's ``logf``, ``sinf``, ``cosf`` are, but for rare cases)."""
    return function(x.astype(_F64)).astype(_F32)


def _blocks_float16(u1, u2, mean, std):
    u1 = (_f32(1) - u1.astype(_F32)).astype(_F16)
    with np.errstate(divide="ignore"):
        radius = np.sqrt(_mul(_f32(-2), _float32_of(np.log, u1))).astype(_F16)
    theta = ((2.0 * math.pi) * u2.astype(_F64)).astype(_F32).astype(_F16)
    mean32, std32 = np.float32(np.float16(mean)), np.float32(np.float16(std))
    first = _madd(_mul(radius.astype(_F32), _float32_of(np.cos, theta)), std32, mean32)
    second = _madd(_mul(radius.astype(_F32), _float32_of(np.sin, theta)), std32, mean32)
    return first.astype(_F16), second.astype(_F16)


_BLOCKS = {_F32: _blocks_float32, _F64: _blocks_float64, _F16: _blocks_float16}


def transform_blocks(data, mean, std):
    """Turn ``data`` (uniform numbers, a 2-D array of blocks of 16, float16, float32 or float64) into normals in
    place, block by block, as PyTorch's ``normal_fill`` does."""
    with np.errstate(over="ignore", invalid="ignore"):
        first, second = _BLOCKS[data.dtype](data[:, :8], data[:, 8:], mean, std)
    data[:, :8], data[:, 8:] = first, second
    return data
