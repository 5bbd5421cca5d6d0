"""How tensors print: byte-for-byte PyTorch's ``repr``.

The rules (PyTorch's ``torch/_tensor_str.py``, reimplemented on arrays):

* One *formatter* looks at all the (finite, non-zero) values first and
  picks one style for the whole tensor, so the columns line up:
  - integer dtypes print as integers;
  - floats that are all whole numbers print as ``1.`` (integer mode);
  - otherwise fixed point with ``precision`` (4) decimals, unless the values
    span more than a factor of 1000, exceed 1e8, or go below 1e-4: then
    scientific notation ``1.0000e-05``;
  - every element is right-aligned to the widest one.
* Rows wrap at ``linewidth`` (80) characters; tensors with more than
  ``threshold`` (1000) elements are summarised with ``...`` keeping
  ``edgeitems`` (3) at each edge.
* Suffixes follow: ``dtype=`` when the dtype is not the default for its
  kind, ``device=`` for CUDA, ``grad_fn=<...>`` or ``requires_grad=True``.
"""

import math

import numpy as np

from ..core.backend import to_numpy
from . import dtypes as _dtype

__all__ = ["set_printoptions", "get_printoptions", "tensor_repr"]


class _PrintOptions:
    precision = 4
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = None


PRINT_OPTS = _PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """Change how tensors print. Mirrors ``torch.set_printoptions``.

    Args:
        precision: digits after the decimal point (default 4).
        threshold: more elements than this are summarised (default 1000).
        edgeitems: items kept at each edge when summarising (default 3).
        linewidth: characters per line before wrapping (default 80).
        profile: ``'default'``, ``'short'`` or ``'full'`` (never summarise).
        sci_mode: True / False forces scientific / fixed notation; None
            (the default, and what every call without it sets) chooses automatically.
    """
    if profile is not None:
        if profile == "default":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, 1000, 3, 80
        elif profile == "short":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 1000, 2, 80
        elif profile == "full":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = \
                4, math.inf, 3, 80
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current print options as a dict. Mirrors ``torch._tensor_str.get_printoptions``."""
    return {"precision": PRINT_OPTS.precision, "threshold": PRINT_OPTS.threshold,
            "edgeitems": PRINT_OPTS.edgeitems, "linewidth": PRINT_OPTS.linewidth, "sci_mode": PRINT_OPTS.sci_mode}


class _Formatter:
    """Chooses one number style and width for all elements of a (possibly summarised) array."""

    def __init__(self, values):
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        p = PRINT_OPTS.precision
        flat = values.reshape(-1)
        if not self.floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(str(v)))
        else:
            finite = flat[np.isfinite(flat) & (flat != 0)].astype(np.float64)
            if finite.size == 0:
                return            # nothing to measure: default style (and sci_mode stays off)
            absolute = np.abs(finite)
            lo, hi = float(absolute.min()), float(absolute.max())
            items = finite.tolist()
            self.int_mode = bool(np.all(finite == np.ceil(finite)))
            if PRINT_OPTS.sci_mode is None:
                self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
            else:
                self.sci_mode = PRINT_OPTS.sci_mode
            if self.sci_mode:
                self.max_width = max(len(f"{v:.{p}e}") for v in items)
            elif self.int_mode:
                # whole numbers print as "3." : one more character for the point
                self.max_width = max(len(f"{v:.0f}") + 1 for v in items)
            else:
                self.max_width = max(len(f"{v:.{p}f}") for v in items)

    def width(self):
        return self.max_width

    def format(self, value):
        p = PRINT_OPTS.precision
        if self.floating:
            if self.sci_mode:
                s = f"{value:{self.max_width}.{p}e}"
            elif self.int_mode:
                s = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    s += "."
            else:
                s = f"{value:.{p}f}"
        else:
            s = str(value)
        return (self.max_width - len(s)) * " " + s


def _vector_str(values, indent, summarize, formatter):
    element_length = formatter.width() + 2
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / element_length)))
    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:
        data = ["..."]
    elif summarize and values.shape[0] > 2 * edge:
        data = ([formatter.format(v) for v in values[:edge].tolist()] + [" ..."] +
                [formatter.format(v) for v in values[-edge:].tolist()])
    else:
        data = [formatter.format(v) for v in values.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(values, indent, summarize, formatter):
    dim = values.ndim
    if dim == 0:
        return formatter.format(values.item())
    if dim == 1:
        return _vector_str(values, indent, summarize, formatter)
    edge = PRINT_OPTS.edgeitems
    n = values.shape[0]
    if summarize and n > 2 * edge:
        slices = ([_tensor_str_with_formatter(values[i], indent + 1, summarize, formatter) for i in range(edge)]
                  + ["..."] +
                  [_tensor_str_with_formatter(values[i], indent + 1, summarize, formatter) for i in range(n - edge, n)])
    else:
        slices = [_tensor_str_with_formatter(values[i], indent + 1, summarize, formatter) for i in range(n)]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _summarized(values):
    """The elements a summarised print shows (the edges of every dimension)."""
    edge = PRINT_OPTS.edgeitems
    if values.ndim == 0:
        return values
    if values.ndim == 1:
        if values.shape[0] > 2 * edge:
            return np.concatenate((values[:edge], values[-edge:]))
        return values
    if not edge:
        return values[(slice(0, 0),) * values.ndim]
    if values.shape[0] > 2 * edge:
        rows = list(range(edge)) + list(range(values.shape[0] - edge, values.shape[0]))
    else:
        rows = range(values.shape[0])
    return np.stack([_summarized(values[i]) for i in rows])


def _tensor_str(values, indent):
    if values.size == 0:
        return "[]"
    summarize = values.size > PRINT_OPTS.threshold
    formatter = _Formatter(_summarized(values) if summarize else values)
    return _tensor_str_with_formatter(values, indent, summarize, formatter)


def _add_suffixes(text, suffixes, indent):
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(t, prefix="tensor("):
    """The text PyTorch prints for tensor ``t``."""
    values = to_numpy(t._data)
    indent = len(prefix)
    suffixes = []
    device = t.device
    if device.type != "cpu":
        suffixes.append(f"device='{device}'")
    dt = t.dtype
    has_default_dtype = dt in (_dtype.get_default_dtype(), _dtype.int64, _dtype.bool)
    if values.size == 0:
        if values.ndim != 1:
            suffixes.append("size=" + str(tuple(values.shape)))
        if dt is not _dtype.get_default_dtype():
            suffixes.append(f"dtype={dt!r}")
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + str(tuple(values.shape)))
        if not has_default_dtype:
            suffixes.append(f"dtype={dt!r}")
        body = _tensor_str(values, indent)
    fn = t.grad_fn
    if fn is not None:
        suffixes.append(f"grad_fn=<{type(fn).__name__}>")
    elif t._requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
