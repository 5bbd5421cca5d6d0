"""Static figures for chapters 01 and 02: tensors of 0 to 4 dimensions drawn as boxes, and number lines.

    from course_lib.viz import tensor_shapes
    fig = tensor_shapes.draw_tensor_dims()
    fig = tensor_shapes.draw_number_lines([("arange(0, 1, 0.25)", torch.arange(0, 1, 0.25)),
                                           ("linspace(0, 1, 5)", torch.linspace(0, 1, 5))], end=1)

Both functions return a matplotlib ``Figure`` created with ``plt.subplots``,
so Jupyter's inline backend shows it once at the end of the cell.  Assign
the result (``fig = ...``) instead of ending the cell with ``;``: nbval runs
cells without storing history, so IPython does not see the ``;`` and would
show the figure's repr as a second output.  Labels are Chinese: importing
``course_lib.viz`` sets up the Noto Sans CJK SC font.
They accept course_lib tensors, PyTorch tensors, NumPy arrays or lists.
"""

import matplotlib.pyplot as plt
from matplotlib.patches import Polygon, Rectangle

__all__ = ["DIMS", "draw_tensor_dims", "draw_number_lines", "as_list"]

# (title, example use, shape) of each panel of draw_tensor_dims
DIMS = [
    ("0 维：标量", "一个损失值", ()),
    ("1 维：向量", "一个样本的特征", (4,)),
    ("2 维：矩阵", "灰度图 H×W", (3, 4)),
    ("3 维张量", "彩色图 C×H×W", (3, 3, 4)),
    ("4 维张量", "一批彩色图 N×C×H×W", (2, 3, 3, 4)),
]

_FILL = ["#cfe2f3", "#f9cb9c", "#b6d7a8"]   # one colour per channel (depth layer)
_EDGE = "#35506b"
_MONO = ["DejaVu Sans Mono", "Noto Sans CJK SC"]   # code in a monospace font, Chinese falls back


def as_list(values):
    """A flat list of Python numbers from a tensor (course_lib or PyTorch), a NumPy array or a sequence."""
    if hasattr(values, "tolist"):
        values = values.tolist()
    out = []
    for v in values if isinstance(values, (list, tuple)) else [values]:
        if isinstance(v, (list, tuple)):
            out.extend(as_list(v))
        else:
            out.append(v)
    return out


def _grid(ax, x0, y0, rows, cols, color, cell=1.0):
    """Draw a rows x cols grid of square cells with its lower-left corner at (x0, y0)."""
    for r in range(rows):
        for c in range(cols):
            ax.add_patch(Rectangle((x0 + c * cell, y0 + (rows - 1 - r) * cell), cell, cell,
                                   facecolor=color, edgecolor=_EDGE, linewidth=1.0))


def _stack(ax, x0, y0, depth, rows, cols, dx=0.55, dy=0.55):
    """A depth x rows x cols block: ``depth`` grids, the front one at (x0, y0), the others shifted back."""
    for k in reversed(range(depth)):
        _grid(ax, x0 + k * dx, y0 + k * dy, rows, cols, _FILL[k % len(_FILL)])
    # the two slanted edges that make the stack read as a block
    top = y0 + rows
    right = x0 + cols
    for x, y in ((x0, top), (right, top), (right, y0)):
        ax.add_patch(Polygon([(x, y), (x + (depth - 1) * dx, y + (depth - 1) * dy)], closed=False,
                             fill=False, edgecolor=_EDGE, linewidth=1.0))


def _shape_text(shape):
    return "torch.Size([" + ", ".join(str(s) for s in shape) + "])"


def _panel_size(shape, dx=0.55, gap=1.2):
    """Width and height (in cells) that ``shape`` takes when drawn."""
    shape = tuple(shape)
    if len(shape) == 0:
        return 1.0, 1.0
    if len(shape) == 1:
        return float(shape[0]), 1.0
    if len(shape) == 2:
        return float(shape[1]), float(shape[0])
    c, h, w = shape[-3:]
    block = w + dx * (c - 1)
    n = shape[0] if len(shape) == 4 else 1
    return n * block + (n - 1) * gap, h + dx * (c - 1)


# which panels share a row in draw_tensor_dims: 0-3 dimensions above, the 4-d batch below
_ROWS = ((0, 1, 2, 3), (4,))


def draw_tensor_dims(figsize=(8, 5.6)):
    """Draw tensors of 0, 1, 2, 3 and 4 dimensions, each with its shape and a typical use.

    Every element is one box, at the same scale in all panels; the shapes are
    the small ones of ``DIMS`` (``()``, ``(4,)``, ``(3, 4)``, ``(3, 3, 4)``,
    ``(2, 3, 3, 4)``).  Scalars to 3-d tensors stand in one row, the 4-d batch
    in a second row, so that the figure is 800 px wide and its smallest text
    (10 pt) stays above 10 px on a web page.  Returns the ``Figure`` (one
    axes, whose texts hold the titles and the shapes).
    """
    fig, ax = plt.subplots(figsize=figsize)
    dx, gap, space = 0.55, 1.2, 2.2
    height = max(_panel_size(shape)[1] for _, _, shape in DIMS)
    row_h = height + 5.0                      # title above, use and shape below
    widths = [sum(_panel_size(DIMS[i][2])[0] for i in row) + space * (len(row) - 1) for row in _ROWS]
    full = max(widths)
    for r, row in enumerate(_ROWS):
        base = -r * row_h
        x = (full - widths[r]) / 2
        for i in row:
            title, use, shape = DIMS[i]
            width, _ = _panel_size(shape)
            ndim = len(shape)
            if ndim == 0:
                _grid(ax, x, base, 1, 1, _FILL[0])
            elif ndim == 1:
                _grid(ax, x, base, 1, shape[0], _FILL[0])
            elif ndim == 2:
                _grid(ax, x, base, shape[0], shape[1], _FILL[0])
            elif ndim == 3:
                _stack(ax, x, base, *shape, dx=dx, dy=dx)
            else:
                n, c, h, w = shape
                block = w + dx * (c - 1)
                for k in range(n):
                    _stack(ax, x + k * (block + gap), base, c, h, w, dx=dx, dy=dx)
                    ax.text(x + k * (block + gap) + w / 2, base - 0.25, f"第 {k} 张", ha="center", va="top",
                            fontsize=10)
            center = x + width / 2
            ax.text(center, base + height + 0.7, title, ha="center", va="bottom", fontsize=13)
            below = base - (1.2 if ndim == 4 else 0.4)
            ax.text(center, below, use, ha="center", va="top", fontsize=10)
            ax.text(center, below - 0.85, _shape_text(shape), ha="center", va="top", fontsize=10, fontfamily=_MONO)
            x += width + space
    ax.set_xlim(-0.5, full + 0.5)
    ax.set_ylim(-(len(_ROWS) - 1) * row_h - 3.2, height + 1.9)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.tight_layout()
    return fig


def draw_number_lines(rows, end=None, figsize=(8, None)):
    """Draw each row's values as points on its own number line, e.g. ``arange`` next to ``linspace``.

    Args:
        rows: ``[(label, values), ...]``; values are a tensor, an array or a list of numbers.
        end: if given, a dashed vertical line marks this value (the ``end`` argument of both calls).
        figsize: width and height in inches; height ``None`` gives 1.1 inch per row.

    Returns the ``Figure`` (one axes); each row is one scatter collection
    whose offsets are the values, in order, so tests can read them back.
    """
    width, height = figsize
    if height is None:
        height = 0.9 + 1.1 * len(rows)
    fig, ax = plt.subplots(figsize=(width, height))
    all_values = []
    for i, (label, values) in enumerate(rows):
        y = len(rows) - 1 - i
        xs = [float(v) for v in as_list(values)]
        all_values.extend(xs)
        ax.axhline(y, color="#999999", linewidth=1, zorder=1)
        ax.scatter(xs, [y] * len(xs), s=60, color=f"C{i}", zorder=3, label=label)
        ax.text(0.0, y + 0.22, f"{label}：{len(xs)} 个点", transform=ax.get_yaxis_transform(),
                ha="left", va="bottom", fontsize=10, fontfamily=_MONO)
    if end is not None:
        ax.axvline(float(end), color="#cc0000", linestyle="--", linewidth=1.2, zorder=2)
        ax.text(float(end), len(rows) - 0.35, f"end = {end}", color="#cc0000", ha="center", va="bottom", fontsize=10,
                fontfamily=_MONO)
        all_values.append(float(end))
    lo, hi = (min(all_values), max(all_values)) if all_values else (0.0, 1.0)
    pad = 0.08 * (hi - lo or 1.0)
    ax.set_xlim(lo - pad, hi + pad)
    ax.set_ylim(-0.6, len(rows) - 0.1)
    ax.set_yticks([])
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    ax.set_xlabel("数值")
    fig.tight_layout()
    return fig
