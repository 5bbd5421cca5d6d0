"""Memory layout: a tensor's storage drawn as a row of cells, and which cells a view touches.

A tensor is a *storage* (one flat block of elements) plus three numbers
that say how to read it: ``shape``, ``stride()`` and ``storage_offset()``.
The element at index ``(i0, i1, ...)`` lives in storage cell

    storage_offset() + i0 * stride(0) + i1 * stride(1) + ...

``touched_cells(t)`` applies exactly this formula, so it works on course_lib
tensors and on real PyTorch tensors alike (the tests compare the two).
``memory_figure`` draws the storage and the view; ``MemoryLayout`` is the
widget of chapter 03: pick an operation (``x.t()``, ``x.view(...)``, a
slice, ``x.clone()``, ...) or type one, see which cells it reads and whether
it shares ``x``'s storage, and write through it to watch ``x`` change.
"""

import base64
import itertools
import sys

import ipywidgets as widgets
from matplotlib import colormaps
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from . import pictures
from .fonts import use_chinese_font

__all__ = ["touched_cells", "storage_values", "same_storage", "layout_info", "default_operations",
           "memory_figure", "figure_png", "displayable", "MemoryLayout"]

MAX_CELLS = 64          # the pictures are for small tensors: at most this many storage cells / view elements

_CMAP = colormaps["YlGnBu"]
_CHANGED = "#d62728"
_GRAY = "#888888"


def _torch_of(t):
    """The module a tensor belongs to (``course_lib`` or ``torch``), so expressions use the same library."""
    return sys.modules[type(t).__module__.split(".")[0]]


def touched_cells(t):
    """The storage cells a tensor reads, one per element, in row-major order of its indices.

    Computed only from ``t.shape``, ``t.stride()`` and ``t.storage_offset()``:
    element ``(i0, i1, ...)`` is cell ``offset + i0*stride[0] + i1*stride[1] + ...``.
    A 0-d tensor reads one cell; an empty tensor none; an expanded tensor
    (stride 0) reads the same cell several times.  Works on any object with
    PyTorch's ``shape``/``stride()``/``storage_offset()`` (course_lib or torch).

    >>> x = course_lib.arange(6).view(2, 3)
    >>> touched_cells(x.t())
    [0, 3, 1, 4, 2, 5]

    Returns:
        list of int, of length ``t.numel()``.
    """
    shape = tuple(t.shape)
    strides = tuple(t.stride())
    offset = t.storage_offset()
    return [offset + sum(i * s for i, s in zip(index, strides))
            for index in itertools.product(*(range(n) for n in shape))]


def storage_values(t):
    """All the elements of ``t``'s storage, as a flat Python list (including cells ``t`` does not read).

    Read through ``as_strided((n,), (1,), 0)`` on a detached alias, so the
    tensor and its graph are untouched.  Mirrors what
    ``t.untyped_storage()`` holds, decoded with ``t.dtype``.
    """
    n = t.untyped_storage().nbytes() // t.element_size()
    return t.detach().as_strided((n,), (1,), 0).tolist()


def same_storage(a, b):
    """True if ``a`` and ``b`` use the same storage (the same memory block), as views of one tensor do.

    Compares ``untyped_storage().data_ptr()``; a tensor and its ``clone()``
    give False, a tensor and its ``t()``/``view``/slice give True.
    """
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def layout_info(t):
    """``{'shape', 'stride', 'storage_offset', 'is_contiguous'}`` of a tensor, as plain Python values."""
    return {"shape": tuple(t.shape), "stride": tuple(t.stride()), "storage_offset": t.storage_offset(),
            "is_contiguous": t.is_contiguous()}


def default_operations(t, name="x"):
    """The operations the widget offers for a tensor ``t`` called ``name``: a list of (label, expression).

    Chosen by ``t.dim()``: for a matrix, transpose, ``view``, a row, a column,
    a strided slice, ``clone``, ``contiguous``, a ``reshape`` that has to copy,
    a ``view`` that fails after a transpose, ``expand`` and advanced indexing.
    """
    n = name
    ops = [(f"{n}（原张量）", n)]
    if t.dim() >= 2:
        rows, cols = t.shape[0], t.shape[1]
        ops += [
            (f"{n}.t() 转置（视图）", f"{n}.transpose(0, 1)"),
            (f"{n}.view(-1) 展平（视图）", f"{n}.view(-1)"),
            (f"{n}[1] 取一行（视图）", f"{n}[1]") if rows > 1 else (f"{n}[0] 取一行（视图）", f"{n}[0]"),
            (f"{n}[:, 1] 取一列（视图）", f"{n}[:, 1]") if cols > 1 else (f"{n}[:, 0] 取一列（视图）", f"{n}[:, 0]"),
            (f"{n}[:, ::2] 步长切片（视图）", f"{n}[:, ::2]"),
            (f"{n}[1:, 1:] 子矩阵（视图）", f"{n}[1:, 1:]"),
            (f"{n}.clone() 复制", f"{n}.clone()"),
            (f"{n}.t().contiguous() 复制成连续", f"{n}.transpose(0, 1).contiguous()"),
            (f"{n}.t().reshape(-1) 必须复制", f"{n}.transpose(0, 1).reshape(-1)"),
            (f"{n}.t().view(-1) 报错", f"{n}.transpose(0, 1).view(-1)"),
            (f"{n}[[0, -1]] 高级索引（复制）", f"{n}[[0, -1]]"),
        ]
    else:
        ops += [
            (f"{n}[1:4] 切片（视图）", f"{n}[1:4]"),
            (f"{n}[::2] 步长切片（视图）", f"{n}[::2]"),
            (f"{n}.view(2, -1) 变形（视图）", f"{n}.view(2, -1)"),
            (f"{n}.clone() 复制", f"{n}.clone()"),
            (f"{n}[:2].expand(3, 2) 扩展（步幅 0）", f"{n}[:2].expand(3, 2)"),
            (f"{n}[[0, 2]] 高级索引（复制）", f"{n}[[0, 2]]"),
        ]
    return ops


# ---------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------

def _fmt(v):
    if isinstance(v, bool):
        return "T" if v else "F"
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")) or v != int(v) or abs(v) >= 1e5:
            return f"{v:.4g}"
        return f"{int(v)}."
    return str(v)


def _colors(n):
    return [_CMAP(0.12 + 0.5 * k / max(1, n - 1)) for k in range(n)]


def _cell_colors(touched):
    """Colour of each storage cell read: light to dark in the order of first reading (a cell read twice keeps one)."""
    order = {}
    for cell in touched:
        order.setdefault(cell, len(order))
    palette = _colors(len(order))
    return {cell: palette[rank] for cell, rank in order.items()}


def _draw_storage(ax, y, values, touched, title, changed=(), per_row=None):
    """Draw storage cells from height ``y`` downwards; returns the y below the drawing."""
    per_row = per_row or (len(values) if len(values) <= 14 else 12) or 1   # at most 800 px wide
    ax.text(0, y, title, fontsize=11, va="top", ha="left")
    y -= 0.55
    if not values:
        ax.text(0, y - 0.3, "（空：这块存储里一个元素也没有）", fontsize=10, va="top", ha="left", color=_GRAY)
        return y - 1.2, 1
    counts = {}
    for cell in touched:
        counts[cell] = counts.get(cell, 0) + 1
    colors = _cell_colors(touched)
    for i, v in enumerate(values):
        r, c = divmod(i, per_row)
        x0, y0 = c, y - 1 - r * 1.45
        hit = i in colors
        face = colors[i] if hit else "white"
        edge, lw = (_CHANGED, 2.6) if i in changed else (("#333333", 1.2) if hit else ("#bbbbbb", 0.8))
        ax.add_patch(Rectangle((x0 + 0.04, y0), 0.92, 0.92, facecolor=face, edgecolor=edge, linewidth=lw))
        ax.text(x0 + 0.5, y0 + 0.46, _fmt(v), ha="center", va="center", fontsize=10,
                color="black" if hit else _GRAY)
        ax.text(x0 + 0.5, y0 - 0.12, str(i), ha="center", va="top", fontsize=8, color=_GRAY)
        if counts.get(i, 0) > 1:
            ax.text(x0 + 0.9, y0 + 0.86, f"×{counts[i]}", ha="right", va="top", fontsize=8, color="#333333")
    rows = max(1, -(-len(values) // per_row))
    y -= rows * 1.45
    if any(i < len(values) for i in changed):
        ax.text(0, y - 0.1, "红框：刚刚通过 y 写入的单元", fontsize=9, va="top", color=_CHANGED)
        y -= 0.55
    return y - 0.35, min(per_row, max(1, len(values)))


def _draw_logical(ax, y, t, touched, title):
    """Draw the tensor's elements as a grid (last dim across); each cell says which storage cell it reads."""
    ax.text(0, y, title, fontsize=11, va="top", ha="left")
    y -= 0.55
    shape = tuple(t.shape)
    cols = shape[-1] if shape else 1
    index_rows = list(itertools.product(*(range(n) for n in shape[:-1]))) if shape else [()]
    flat = t.detach().reshape(-1).tolist() if t.numel() else []
    colors = _cell_colors(touched)
    label_w = 0 if len(shape) <= 2 else 1.2
    # a row longer than 14 elements continues on the next line, 12 a line (the picture stays <= 800 px)
    per_line = max(1, cols) if cols <= 14 else 12
    lines_per_row = max(1, -(-cols // per_line))
    line = 0
    for r, prefix in enumerate(index_rows):
        if label_w:
            ax.text(label_w - 0.1, y - 1 - line * 1.1 + 0.46, "[" + ", ".join(map(str, prefix)) + ", :]", ha="right",
                    va="center", fontsize=9, color=_GRAY)
        for c in range(cols):
            k = r * cols + c
            x0 = label_w + c % per_line
            y0 = y - 1 - (line + c // per_line) * 1.1
            ax.add_patch(Rectangle((x0 + 0.04, y0), 0.92, 0.92, facecolor=colors[touched[k]],
                                   edgecolor="#333333", linewidth=1.2))
            ax.text(x0 + 0.5, y0 + 0.58, _fmt(flat[k]), ha="center", va="center", fontsize=10)
            ax.text(x0 + 0.5, y0 + 0.2, f"存储[{touched[k]}]", ha="center", va="center", fontsize=8,
                    color="#333333")
        line += lines_per_row
    if not t.numel():
        ax.text(0, y - 0.5, "（空张量，不读任何存储单元）", fontsize=10, va="top", color=_GRAY)
        return y - 1.2, 4
    return y - line * 1.1 - 0.35, label_w + min(cols, per_line)


def memory_figure(base, view=None, name="x", view_name="y", changed=(), title=None):
    """A matplotlib Figure of ``base``'s storage and, if given, of ``view``.

    * The storage of ``base`` is a row of cells (value inside, cell number
      below).  The cells that ``view`` (or ``base`` itself) reads are
      coloured, from light to dark in the order of the view's elements;
      a cell read several times (stride 0) is marked ``×k``.
    * If ``view`` does not share ``base``'s storage (``clone``, a ``reshape``
      that copied, advanced indexing), its new storage is drawn as a second
      row, and ``base``'s row stays grey.
    * The view's elements as a grid: the value and the storage cell it reads.
    * ``changed``: storage cells (of the row where the view lives) to outline
      in red, e.g. after writing through the view.

    Raises:
        ValueError: more than ``MAX_CELLS`` storage cells or view elements (the picture is for small tensors).
    """
    use_chinese_font()
    shown = base if view is None else view
    shown_name = name if view is None else view_name
    values = storage_values(base)
    if len(values) > MAX_CELLS or shown.numel() > MAX_CELLS:
        raise ValueError(f"memory_figure 只画小张量：存储和视图最多 {MAX_CELLS} 个元素")
    touched = touched_cells(shown)
    shared = view is None or same_storage(base, view)
    info = layout_info(shown)
    contiguous = "是" if info["is_contiguous"] else "否"
    fig = Figure(dpi=100)
    ax = fig.add_axes((0.01, 0.01, 0.98, 0.98))
    ax.set_axis_off()
    y = 0.0
    widths = []
    y, w = _draw_storage(ax, y, values, touched if shared else [],
                         f"{name} 的存储（storage），共 {len(values)} 个元素", changed=changed if shared else ())
    widths.append(w)
    if not shared:
        y, w = _draw_storage(ax, y, storage_values(view), touched,
                             f"{view_name} 的新存储：与 {name} 不共享内存", changed=changed)
        widths.append(w)
    head = (f"{shown_name}：形状 {tuple(info['shape'])}，步幅 {info['stride']}，"
            f"偏移 {info['storage_offset']}，连续：{contiguous}")
    y, w = _draw_logical(ax, y, shown, touched, head)
    widths.append(w)
    width = max(max(widths), 9.5)
    if title:
        ax.text(0, 0.75, title, fontsize=12, va="bottom", ha="left")
    top = 1.2 if title else 0.35
    ax.set_xlim(-0.2, width + 0.2)
    ax.set_ylim(y, top)
    scale = 0.55
    fig.set_size_inches((width + 0.4) * scale, (top - y) * scale)
    ax.set_aspect("equal")
    return displayable(fig)


def figure_png(fig):
    """PNG bytes of a matplotlib Figure (deterministic: no timestamp in the file)."""
    return pictures.figure_png(fig)


def displayable(fig):
    """Give a pyplot-free Figure a ``_repr_png_``, so that a notebook cell ending with it shows the picture."""
    fig._repr_png_ = lambda: figure_png(fig)
    return fig


# ---------------------------------------------------------------------------
# The widget
# ---------------------------------------------------------------------------

class MemoryLayout(widgets.VBox):
    """Widget: ``x``'s storage, the cells an operation's result reads, and whether memory is shared.

    ``MemoryLayout(x)`` offers the operations of ``default_operations(x)`` in
    a dropdown; the expression box accepts any expression in ``x`` (and
    ``torch``, the library ``x`` comes from), evaluated when Enter is
    pressed.  "写入" writes a number into the result's first element
    (``y[0, ..., 0] = v``): for a view the coloured cell of ``x`` changes too,
    for a copy only the new storage changes.  "恢复" puts ``x``'s original
    values back.

    Python API (what the tests drive): ``select(expression)``, ``write(v)``,
    ``reset()``; state in ``result``, ``error``, ``touched``, ``shared``,
    ``info.value`` (HTML) and ``image.value`` (PNG bytes).  The main box has
    the CSS class ``cl-memory-layout``.  Displayed, it also carries a PNG of
    its current picture for viewers without a live kernel.
    """

    def __init__(self, tensor, operations=None, name="x"):
        self.base = tensor
        self.name = name
        self.torch = _torch_of(tensor)
        self._original = tensor.detach().clone()
        self.result = None
        self.error = None
        self.changed = ()
        ops = list(operations) if operations is not None else default_operations(tensor, name)
        # rows wrap in a narrow window; labels never shrink (a squeezed label shows only its first character)
        row = widgets.Layout(flex_flow="row wrap", align_items="center", width="100%")
        label = widgets.Layout(width="auto", flex="0 0 auto", margin="2px 6px 2px 0")
        field = widgets.Layout(width="320px", max_width="100%", flex="0 1 auto", margin="2px 12px 2px 0")
        self.operation = widgets.Dropdown(options=ops, value=ops[0][1], layout=field)
        self.expression = widgets.Text(value=ops[0][1], continuous_update=False,
                                       placeholder=f"例如 {name}.t()[1:]，按回车", layout=field)
        integer = not tensor.is_floating_point()
        self.value = (widgets.IntText if integer else widgets.FloatText)(
            value=100, layout=widgets.Layout(width="90px", flex="0 0 auto", margin="2px 12px 2px 0"))
        self.write_button = widgets.Button(description="写入 y[0, …, 0]", button_style="warning",
                                           layout=widgets.Layout(width="auto", flex="0 0 auto", margin="2px 8px 2px 0"))
        self.reset_button = widgets.Button(description=f"恢复 {name}",
                                           layout=widgets.Layout(width="auto", flex="0 0 auto", margin="2px 0"))
        self.info = widgets.HTML()
        self.image = pictures.picture("cl-memory-image")
        rows = [
            widgets.HBox([widgets.Label("操作：", layout=label), self.operation,
                          widgets.Label("或输入表达式 y =", layout=label), self.expression], layout=row),
            widgets.HBox([widgets.Label("写入的值：", layout=label), self.value, self.write_button,
                          self.reset_button], layout=row),
            self.info,
            pictures.framed(self.image),
        ]
        super().__init__(rows, layout=widgets.Layout(width="100%"))
        self.add_class("cl-memory-layout")
        self.operation.add_class("cl-memory-operation")
        self.expression.add_class("cl-memory-expression")
        self.write_button.add_class("cl-memory-write")
        self.info.add_class("cl-memory-info")
        self.operation.observe(self._on_operation, names="value")
        self.expression.observe(self._on_expression, names="value")
        self.write_button.on_click(lambda _: self.write())
        self.reset_button.on_click(lambda _: self.reset())
        self._evaluate()

    # --- state -------------------------------------------------------------
    @property
    def touched(self):
        """Storage cells the current result reads (``touched_cells(result)``); [] after an error."""
        return touched_cells(self.result) if self.result is not None else []

    @property
    def shared(self):
        """True if the current result shares ``x``'s storage; None after an error."""
        return same_storage(self.base, self.result) if self.result is not None else None

    def select(self, expression):
        """Show ``expression`` (a string in ``x`` and ``torch``); returns the result tensor (None on error)."""
        if self.expression.value == expression:
            self._evaluate()
        else:
            self.expression.value = expression
        return self.result

    def write(self, value=None):
        """``result[0, ..., 0] = value`` (default: the number in the box); shows the error if writing fails."""
        if self.result is None:
            return
        value = self.value.value if value is None else value
        index = (0,) * self.result.dim()
        try:
            self.result[index] = value
        except Exception as e:  # noqa: BLE001 - the error is what the widget shows
            self.error = f"{type(e).__name__}: {e}"
        else:
            self.error = None
            if self.result.numel():
                self.changed = (self.touched[0],)
        self._redraw()

    def reset(self):
        """Put ``x``'s original values back and re-evaluate the expression."""
        with self.torch.no_grad():
            self.base.copy_(self._original)
        self.changed = ()
        self._evaluate()

    def figure(self):
        """The current picture as a matplotlib Figure (see ``memory_figure``)."""
        if self.result is None:
            return memory_figure(self.base, name=self.name)
        return memory_figure(self.base, self.result, name=self.name, view_name="y", changed=self.changed)

    def png(self):
        """PNG bytes of the current picture."""
        return figure_png(self.figure())

    # --- events ------------------------------------------------------------
    def _on_operation(self, change):
        self.select(change["new"])

    def _on_expression(self, change):
        self._evaluate()

    def _evaluate(self):
        self.changed = ()
        expression = self.expression.value.strip()
        try:
            result = eval(expression, {"torch": self.torch, self.name: self.base})  # noqa: S307 - learner's own kernel
            if not isinstance(result, self.torch.Tensor):
                raise TypeError(f"表达式的结果是 {type(result).__name__}，不是张量")
            self.result, self.error = result, None
        except Exception as e:  # noqa: BLE001 - the error is what the widget shows
            self.result, self.error = None, f"{type(e).__name__}: {e}"
        self._redraw()

    def _redraw(self):
        x = self.name
        if self.result is None:
            self.info.value = (f"<div style='color:#b00020;font-family:monospace;white-space:pre-wrap'>"
                               f"{_html(self.error)}</div>")
        else:
            info = layout_info(self.result)
            share = (f"<b style='color:#1b7837'>共享 {x} 的存储（视图）</b>" if self.shared
                     else f"<b style='color:#b35806'>新的存储（复制，与 {x} 无关）</b>")
            rows = [("y = ", _html(self.expression.value)), ("形状 shape", str(tuple(info["shape"]))),
                    ("步幅 stride()", str(info["stride"])), ("存储偏移 storage_offset()", str(info["storage_offset"])),
                    ("连续 is_contiguous()", "是" if info["is_contiguous"] else "否"), ("内存", share),
                    ("读取的存储单元", str(self.touched))]
            if self.error:
                rows.append(("写入失败", f"<span style='color:#b00020'>{_html(self.error)}</span>"))
            self.info.value = "<table style='border-collapse:collapse'>" + "".join(
                f"<tr><td style='padding:1px 12px 1px 0;color:#555'>{k}</td><td style='font-family:monospace'>"
                f"{v}</td></tr>" for k, v in rows) + "</table>"
        try:
            pictures.show(self.image, self.figure())
        except ValueError as e:
            self.info.value += f"<div style='color:#b00020'>{_html(str(e))}</div>"
            pictures.clear(self.image)

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = f"MemoryLayout({self.name}: shape {tuple(self.base.shape)}, y = {self.expression.value})"
        if self.image.value:
            bundle["image/png"] = base64.b64encode(self.image.value).decode("ascii")
        return bundle


def _html(text):
    return (text or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
