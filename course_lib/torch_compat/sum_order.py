"""Float sums added in PyTorch's order, so that ``loss.item()`` and gradients match PyTorch's bits.

PyTorch's CPU sum (``cascade_sum`` in aten/src/ATen/native/cpu/SumKernel.cpp) does not add pairwise as
NumPy does. It sees each reduction as a 2-D loop (dims in memory order, neighbours that are one run in
memory merged), the reduced dim first, and adds in one of these orders:

* ``multi_row_sum`` adds the rows of a (size, W) block into W accumulators in a cascade: rows one after
  another within blocks of L = 2**max(4, ceil(log2(size)) // 4) rows; each block's sum goes into a second
  accumulator, emptied into a third every L blocks, emptied into a fourth every L*L blocks; at the end the
  leftover rows, then the second, third and fourth accumulators are added in turn.
* ``row_sum`` reads the reduced axis as (-1, 4) rows (four accumulators, for instruction-level
  parallelism), sums them with ``multi_row_sum``, adds the 1-3 leftover rows to the first accumulator,
  then the other three to it.
* A contiguous reduced axis (a full sum, a sum over trailing dims) of at least V elements (V: the width of
  ``Vectorized<T>``, 8 float32 or 4 float64 lanes) is summed by ``row_sum`` over vectors of V lanes; then
  the elements past the last whole vector and the V lanes are added one by one to 0
  (``vectorized_inner_sum``). A shorter one goes through ``row_sum`` element by element
  (``scalar_inner_sum``).
* A reduction over leading dims, the kept elements contiguous (``vectorized_outer_sum``), sums each kept
  column on its own: columns in groups of 4*V with ``multi_row_sum``, the others with ``row_sum``; with
  fewer than V columns, groups of 4 (``scalar_outer_sum``).
* Two reduced dims that are not one run (a sliced tensor, or dims 0 and 2 of three): each row of the inner
  one is summed as above, and the rows are added in turn into the output.
* float16 is summed in float32; its vector loads read 16 values and add the upper 8 to the lower 8, and a
  dim needs 16 elements (not 8) for the vector path.

A full sum of 32768 (``GRAIN_SIZE``) elements or more is split into one chunk per thread, each summed as
above, and the per-thread results are summed in turn (``two_pass_reduction``): its last bit depends on
PyTorch's thread count, taken here as PyTorch's default (``OMP_NUM_THREADS``, else the physical cores).

NumPy adds a middle axis of ``np.add.reduce`` one row after another, so each level is one reshape and one
``np.add.reduce``; Python loops run only over the few leftover elements (fewer than 4 or 2V) and the
threads. NumPy's middle-axis reduce runs 32 or 16 lanes at a time, about 4 times slower than its pairwise
sum, so tensors of more than 2**20 elements keep NumPy's pairwise sum (and its speed), as do layouts not
modelled here (e.g. sums over dims that alternate with kept ones, reversed strides) and CuPy arrays.
"""

import functools
import glob
import os

import numpy as np

__all__ = ["total"]

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)      # (NumPy's dtypes of native arrays are these)
_GRAIN = 32768
_LIMIT = 1 << 20          # larger sums keep NumPy's pairwise sum: PyTorch's order costs ~4x (+4 ms per 1e7 floats)


def _seq(x):
    """``x`` (..., n, W) summed over axis -2 one row after another (NumPy does so for a middle axis)."""
    return np.add.reduce(x, -2)


def _multi_row_sum(x):
    """``multi_row_sum``: ``x`` (..., size, W), W >= 2, summed over axis -2 in PyTorch's cascade."""
    size, lead, w = x.shape[-2], x.shape[:-2], x.shape[-1]
    step = 1 << max(4, (size - 1).bit_length() // 4 if size > 1 else 0)
    left = []                                  # what stays in the 1st, 2nd and 3rd accumulators
    while len(left) < 3 and size >= step:      # (once fewer rows than a block are left, the levels above
        whole = size // step * step            # hold zeros: they are not computed)
        left.append(_seq(x[..., whole:, :]))
        x = _seq(x[..., :whole, :].reshape(lead + (size // step, step, w)))
        size = x.shape[-2]
    out = _seq(x)
    if left:
        out = left[0]
        for part in left[1:]:
            out = out + part
        out = out + _seq(x)
    return out


def _row_sum(x):
    """``row_sum``: ``x`` (..., n, W) summed over axis -2 with four interleaved accumulators."""
    n, lead, w = x.shape[-2], x.shape[:-2], x.shape[-1]
    whole = n // 4 * 4
    parts = _multi_row_sum(x[..., :whole, :].reshape(lead + (n // 4, 4 * w))).reshape(lead + (4, w))
    first = parts[..., 0, :]
    for i in range(whole, n):
        first = first + x[..., i, :]
    return ((first + parts[..., 1, :]) + parts[..., 2, :]) + parts[..., 3, :]


def _inner_sum(x, half=False):
    """The rows of a C-contiguous ``x`` (R, n) summed as PyTorch sums a contiguous reduced axis: (R,).

    ``half``: ``x`` holds float16 values (as float32): a vector load reads 16 of them and adds the upper 8
    to the lower 8, giving 8 float32 lanes."""
    r, n = x.shape
    lanes = _LANES[x.dtype]
    width = 2 * lanes if half else lanes       # elements per vector load
    if n < width:                              # scalar_inner_sum
        return _row_sum(x[:, :, None])[:, 0]
    whole = n // width * width
    vec = x[:, :whole].reshape(r, n // width, width)
    vec = _row_sum(vec[:, :, :lanes] + vec[:, :, lanes:] if half else vec)
    rest = [x[:, k] for k in range(whole, n)] + [vec[:, k] for k in range(lanes)]
    total = rest[0]
    for part in rest[1:]:
        total = total + part
    return total


def _outer_sum(x, half=False):
    """The columns of a C-contiguous ``x`` (R, M, K) summed over M as PyTorch does: (R, K). (For float16,
    the vector path needs 16 columns, but loads 8 at a time.)"""
    k = x.shape[2]
    lanes = _LANES[x.dtype]
    group = 4 * lanes if k >= (2 * lanes if half else lanes) else 4
    split = k // group * group
    if split == k:
        return _multi_row_sum(x)
    if split == 0:
        return _row_sum(x)
    return np.concatenate([_multi_row_sum(x[:, :, :split]), _row_sum(x[:, :, split:])], axis=1)


@functools.cache
def _threads():
    """PyTorch's default intra-op thread count: OMP_NUM_THREADS (MKL_NUM_THREADS), else the physical cores."""
    for name in ("MKL_NUM_THREADS", "OMP_NUM_THREADS"):
        value = os.environ.get(name, "")
        if value.isdigit() and int(value) > 0:
            return int(value)
    cores = set()
    for path in glob.glob("/sys/devices/system/cpu/cpu[0-9]*/topology/thread_siblings_list"):
        with open(path) as f:
            cores.add(f.read().strip())
    return len(cores) or os.cpu_count() or 1


def _full_sum(x, half, unit=True):
    """A 1-D ``x`` summed as PyTorch sums all elements of a tensor whose elements are one run in memory
    (of stride 1 if ``unit``, else summed by ``row_sum`` element by element): a 0-d array."""
    def run(y):
        return _inner_sum(y[None], half)[0] if unit else _row_sum(y[None, :, None])[0, 0]
    n = x.shape[0]
    threads = min(_threads(), -(-n // _GRAIN))
    if threads <= 1:
        return run(x)
    chunk = -(-n // threads)                   # at::parallel_for's split; one result per thread, 0 for idle ones
    partial = np.zeros((1, _threads()), x.dtype)
    for t, start in enumerate(range(0, n, chunk)):
        partial[0, t] = run(x[start:start + chunk])
    if half:                                   # the per-thread results are float16 tensors
        partial = partial.astype(_F16).astype(_F32)
    return _inner_sum(partial)[0]


def _ordered(a, axes, half):
    """``a`` (a float32/float64 ndarray, not empty; float16 values as float32 if ``half``) summed over ``axes``
    (a tuple) in PyTorch's order: an array of the kept dims; None for a layout not modelled."""
    # PyTorch iterates in memory order (a transposed tensor as its storage) and merges neighbouring dims
    # that are one run in memory and both reduced or both kept
    if any(st <= 0 for st, n in zip(a.strides, a.shape) if n > 1):
        return None
    dims = sorted((d for d in range(a.ndim) if a.shape[d] > 1), key=lambda d: -a.strides[d])
    blocks = []                                # [reduced?, size, stride], outermost first
    for d in dims:
        reduced, size, stride = d in axes, a.shape[d], a.strides[d]
        if blocks and blocks[-1][0] == reduced and blocks[-1][2] == size * stride:
            blocks[-1][1:] = [blocks[-1][1] * size, stride]
        else:
            blocks.append([reduced, size, stride])
    pattern = tuple(b[0] for b in blocks)
    sizes = [b[1] for b in blocks]
    unit = bool(blocks) and blocks[-1][2] == a.itemsize       # the innermost run has stride 1
    x = a.transpose([d for d in range(a.ndim) if a.shape[d] == 1] + dims)
    x = (x if x.flags.c_contiguous else np.ascontiguousarray(x)).reshape(sizes)
    if pattern == (True,):
        out = _full_sum(x, half, unit)
    elif pattern == (False, True):
        out = _inner_sum(x, half) if unit else _row_sum(x[:, :, None])[:, 0]
    elif pattern == (True, False) and unit:
        out = _outer_sum(x[None], half)
    elif pattern == (False, True, False) and unit:
        out = _outer_sum(x, half)
    elif pattern in ((True, False, True), (True, True)) and not half and (len(pattern) == 3 or a.size < _GRAIN):
        # each row of the inner block summed, then the rows added in turn (into the same output)
        rows = _inner_sum(x.reshape(-1, sizes[-1])) if unit else _row_sum(x.reshape(-1, sizes[-1], 1))[:, 0]
        out = _seq(rows.reshape(sizes[:2])) if len(pattern) == 3 else np.cumsum(rows)[-1]
    else:
        return None
    kept = [d for d in dims if d not in axes]
    out = np.asarray(out).reshape(tuple(a.shape[d] for d in kept))
    if kept != sorted(kept):
        out = out.transpose(np.argsort(kept))
    return out.reshape(tuple(n for d, n in enumerate(a.shape) if d not in axes))


def _small_full_sum(x, lanes):
    """The fast path of ``_full_sum`` for a contiguous 1-D float32/float64 ``x`` of 4 to 1024 * lanes - 1
    elements (a loss, a gradient summed back to a scalar): the same order in a few NumPy calls, the cascade
    of ``multi_row_sum`` cut to the two levels such a size reaches."""
    n = x.shape[0]
    if n < lanes:                              # scalar_inner_sum: four accumulators, one holding the 5th-7th
        v = x.tolist()                         # (Python floats; a NumPy float32 + a float stays float32)
        first = x.dtype.type(v[0])
        for e in v[4:]:
            first = first + e
        return x.dtype.type(0) + (((first + v[1]) + v[2]) + v[3])
    width, vec, rest = lanes, x[:n // lanes * lanes].reshape(-1, lanes), x[n // lanes * lanes:].tolist()
    m = vec.shape[0] // 4                      # row_sum: rows of 4 vectors, 1-3 vectors left over
    rows = vec[:4 * m].reshape(m, 4 * width)
    whole = m // 16 * 16                       # multi_row_sum: blocks of 16 rows, then the rows left
    parts = np.add.reduce(rows[whole:], 0)
    if whole:
        parts = parts + np.add.reduce(np.add.reduce(rows[:whole].reshape(-1, 16, 4 * width), 1), 0)
    parts = parts.reshape(4, width)
    first = parts[0]
    for row in vec[4 * m:]:
        first = first + row
    acc = (((first + parts[1]) + parts[2]) + parts[3]).tolist()
    out = x.dtype.type(0)
    for v in (*rest, *acc):
        out = out + v
    return out


def total(a, axes=None, keepdims=False):
    """``np.add.reduce(a, axes, keepdims=keepdims)`` in ``a``'s dtype (float16 accumulated in float32, as
    PyTorch does), added in PyTorch's order for float16, float32 and float64 NumPy arrays (of up to 2**20
    elements); other dtypes, larger arrays and CuPy arrays as NumPy (CuPy) sums them."""
    dtype = a.dtype
    if (axes is None and a.size < 4 or a.size > _LIMIT or a.__class__ is not np.ndarray
            or dtype not in _LANES and dtype is not _F16):
        acc = _F32 if dtype is _F16 else dtype
        if a.__class__ is np.ndarray:          # from 0, as PyTorch (0.0, not -0.0); up to 3 elements in turn
            out = np.add.reduce(a, axes, acc, None, keepdims, 0)
        else:
            out = a.sum(axis=axes, keepdims=keepdims, dtype=acc)
        return out if acc is dtype else out.astype(dtype)
    lanes = _LANES.get(dtype)
    if (lanes and 4 <= a.size < 1024 * lanes and a.flags.c_contiguous
            and (axes is None or len(axes) == a.ndim)):  # a small full sum: the fast path
        out = np.asarray(_small_full_sum(a.reshape(-1), lanes) + 0)
        return out.reshape((1,) * a.ndim) if keepdims else out
    if (lanes and a.ndim == 2 and axes == (0,) and a.shape[0] > 1 and a.shape[1] > 1
            and a.flags.c_contiguous):         # a bias gradient (batch, features) -> (features,): no layout analysis
        out = _outer_sum(a[None])[0] + 0
        return out[None] if keepdims else out
    axes = tuple(range(a.ndim)) if axes is None else axes
    half = dtype is _F16
    wide = a.astype(_F32) if half else a
    out = _ordered(wide, axes, half) if a.size else None
    if out is None:
        out = np.add.reduce(wide, axes)
    out = np.asarray(out) + 0              # PyTorch adds to 0: 0.0, never -0.0 (and a NumPy scalar's reshape leaks)
    if keepdims:
        out = out.reshape(tuple(1 if i in axes else n for i, n in enumerate(a.shape)))
    if half:
        with np.errstate(over="ignore"):   # inf, silently, as in PyTorch
            return out.astype(dtype)
    return out.astype(dtype, copy=False)
