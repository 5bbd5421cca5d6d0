"""Broadcasting explorer: two shapes in; the right-aligned comparison, the stretched operands, the result or the error.

PyTorch's rule (the same as NumPy's): line the two shapes up **from the
right**; in every position the two sizes must be equal, or one of them must
be 1, or one shape must have run out of dimensions (it counts as 1).  The
result takes the larger size in every position.

``broadcast_table`` applies the rule one dimension at a time and says why
each position works or fails; ``broadcast_outcome`` asks course_lib itself
(so the error text is PyTorch's); ``broadcast_figure`` draws small cases;
``BroadcastExplorer`` is the widget of chapter 05.
"""

import ast
import base64
import itertools
import textwrap
from collections import namedtuple

import ipywidgets as widgets
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

import course_lib

from . import pictures
from .fonts import use_chinese_font
from .memory import displayable, figure_png

__all__ = ["BroadcastRow", "VERDICTS", "parse_shape", "broadcast_table", "broadcast_outcome", "can_draw",
           "broadcast_figure", "explorer_figure", "BroadcastExplorer"]

BroadcastRow = namedtuple("BroadcastRow", ["dim", "a", "b", "verdict", "size"])
BroadcastRow.__doc__ = """One position of the right-aligned comparison.

dim: negative position (-1 is the last dimension); a, b: the sizes there
(None where that shape has no such dimension); verdict: a key of VERDICTS;
size: the result's size there (None when the position fails).
"""

VERDICTS = {
    "equal": "相等",
    "a_is_1": "a 为 1：沿此维复制",
    "b_is_1": "b 为 1：沿此维复制",
    "a_missing": "a 缺此维：视为 1 再复制",
    "b_missing": "b 缺此维：视为 1 再复制",
    "mismatch": "不相等且都不为 1：失败",
}

MAX_DRAW = 6     # broadcast_figure draws results of at most 2 dimensions, each at most this long


def parse_shape(text):
    """A shape from text: ``"(2, 3)"``, ``"2, 3"``, ``"2 3"``, ``"[2, 3]"``, ``"torch.Size([2, 3])"``, ``"(3,)"``.

    ``"()"`` or an empty string is the shape of a 0-d tensor.

    Returns:
        tuple of int.
    Raises:
        ValueError: (Chinese message) text that is not a list of non-negative integers.
    """
    s = text.strip()
    if s.startswith("torch.Size(") and s.endswith(")"):
        s = s[len("torch.Size("):-1].strip()
    if not s:
        return ()
    if "," not in s and not s.startswith(("(", "[")):
        s = ",".join(s.split())
    try:
        value = ast.literal_eval(s if s.startswith(("(", "[")) else f"({s},)")
    except (ValueError, SyntaxError):
        raise ValueError(f"无法解析形状 {text!r}：请写成 (2, 3) 这样的整数列表") from None
    if isinstance(value, int):
        value = (value,)
    if not isinstance(value, (tuple, list)) or not all(isinstance(n, int) and not isinstance(n, bool)
                                                       for n in value):
        raise ValueError(f"无法解析形状 {text!r}：请写成 (2, 3) 这样的整数列表")
    if any(n < 0 for n in value):
        raise ValueError(f"形状 {text!r} 中有负数：每一维的大小都应 ≥ 0")
    return tuple(value)


def broadcast_table(shape_a, shape_b):
    """The right-to-left comparison of two shapes, one ``BroadcastRow`` per position, **rightmost first**.

    >>> broadcast_table((3, 1), (2,))
    [BroadcastRow(dim=-1, a=1, b=2, verdict='a_is_1', size=2),
     BroadcastRow(dim=-2, a=3, b=None, verdict='b_missing', size=3)]

    Broadcasting succeeds exactly when no row has verdict ``'mismatch'``;
    then the ``size`` column read from left to right (``reversed``) is the
    result shape, ``torch.broadcast_shapes(shape_a, shape_b)``.
    """
    a, b = tuple(shape_a), tuple(shape_b)
    rows = []
    for k in range(1, max(len(a), len(b)) + 1):
        sa = a[-k] if k <= len(a) else None
        sb = b[-k] if k <= len(b) else None
        if sa is None:
            verdict, size = "a_missing", sb
        elif sb is None:
            verdict, size = "b_missing", sa
        elif sa == sb:
            verdict, size = "equal", sa
        elif sa == 1:
            verdict, size = "a_is_1", sb
        elif sb == 1:
            verdict, size = "b_is_1", sa
        else:
            verdict, size = "mismatch", None
        rows.append(BroadcastRow(-k, sa, sb, verdict, size))
    return rows


def broadcast_outcome(shape_a, shape_b):
    """What ``a + b`` does for tensors of these shapes, asked of course_lib: ``(shape, None)`` or ``(None, error)``.

    The error is ``"RuntimeError: The size of tensor a (3) must match the size
    of tensor b (4) at non-singleton dimension 1"``, PyTorch's exact text.
    No memory is spent on big shapes: the operands are expanded 0-d tensors
    and the sum is only computed to obtain the error.
    """
    try:
        return tuple(course_lib.broadcast_shapes(tuple(shape_a), tuple(shape_b))), None
    except RuntimeError:
        pass
    a = course_lib.zeros(()).expand(tuple(shape_a))
    b = course_lib.zeros(()).expand(tuple(shape_b))
    try:
        a + b
    except Exception as e:  # noqa: BLE001 - the error is the answer
        return None, f"{type(e).__name__}: {e}"
    raise AssertionError("broadcast_shapes failed but a + b succeeded")  # pragma: no cover


def can_draw(shape_a, shape_b):
    """True if ``broadcast_figure`` draws this pair: it broadcasts, at most 2 dims, each result size ≤ ``MAX_DRAW``."""
    result, _ = broadcast_outcome(shape_a, shape_b)
    return (result is not None and len(result) <= 2 and all(1 <= n <= MAX_DRAW for n in result)
            and len(shape_a) <= 2 and len(shape_b) <= 2)


def _stretched(shape, result):
    """For each result index: (source index in the operand, whether that cell is the original or a copy)."""
    pad = (1,) * (len(result) - len(shape)) + tuple(shape)
    cells = {}
    for idx in itertools.product(*(range(n) for n in result)):
        src = tuple(i if s > 1 else 0 for i, s in zip(idx, pad))
        original = all(i == 0 for i, s in zip(idx, pad) if s == 1)
        cells[idx] = (src[len(result) - len(shape):], original)
    return cells


def _grid(result):
    if len(result) == 0:
        return 1, 1, lambda r, c: ()
    if len(result) == 1:
        return 1, result[0], lambda r, c: (c,)
    return result[0], result[1], lambda r, c: (r, c)


def _draw_stretched(ax, shape_a, shape_b, top):
    """Draw a, b (stretched) and a + b with their top edge at ``top``; returns (width, bottom)."""
    result, _ = broadcast_outcome(shape_a, shape_b)
    a = course_lib.arange(1, _numel(shape_a) + 1).reshape(tuple(shape_a))
    b = (course_lib.arange(1, _numel(shape_b) + 1) * 10).reshape(tuple(shape_b))
    total = a + b
    rows, cols, index = _grid(result)
    panels = [("a", a, shape_a, "#9ecae1", "#deebf7"), ("b", b, shape_b, "#fdae6b", "#fee6ce"),
              ("a + b", total, result, "#a1d99b", None)]
    y0 = top - 0.65
    x = 0.0
    for p, (name, t, shape, solid, pale) in enumerate(panels):
        cells = _stretched(shape, result) if pale else None
        label = (f"{name}：{_fmt_shape(shape)} → {_fmt_shape(result)}" if pale and tuple(shape) != tuple(result)
                 else f"{name}：{_fmt_shape(shape)}")
        ax.text(x, top, label, fontsize=10, ha="left", va="top")
        for r in range(rows):
            for c in range(cols):
                idx = index(r, c)
                if cells is None:
                    value, original = t[idx].item() if idx else t.item(), True
                else:
                    src, original = cells[idx]
                    value = t[src].item() if src else t.item()
                ax.add_patch(Rectangle((x + c + 0.04, y0 - r - 0.96), 0.92, 0.92,
                                       facecolor=solid if original else pale,
                                       edgecolor="#333333" if original else "#999999",
                                       linestyle="-" if original else "--", linewidth=1.2))
                ax.text(x + c + 0.5, y0 - r - 0.5, str(value), ha="center", va="center", fontsize=10,
                        color="black" if original else "#666666")
        x += max(cols, 2.6)
        if p < 2:
            ax.text(x + 0.5, y0 - rows / 2, "+" if p == 0 else "=", fontsize=16, ha="center", va="center")
            x += 1.0
    ax.text(0, y0 - rows - 0.25, "实线格：张量真实存有的元素；虚线浅色格：广播时沿长度为 1（或缺失）的维度"
            "“复制”出的元素，并不占内存", fontsize=8, ha="left", va="top", color="#555555")
    return max(x, 14.5), y0 - rows - 0.9


def _finish(fig, ax, width, bottom, top):
    ax.set_xlim(-0.2, width + 0.2)
    ax.set_ylim(bottom, top)
    ax.set_aspect("equal")
    scale = 0.5
    fig.set_size_inches((width + 0.4) * scale, (top - bottom) * scale)
    return displayable(fig)


def broadcast_figure(shape_a, shape_b):
    """A Figure of ``a + b`` for small shapes: both operands stretched to the result shape, and the result.

    ``a`` holds 1, 2, 3, ... and ``b`` holds 10, 20, 30, ... (in their own
    shapes).  Cells that exist in the operand are solid; cells that
    broadcasting *pretends* to have (copies along a size-1 or missing
    dimension; no memory is copied) are pale with a dashed edge.

    Raises:
        ValueError: the pair does not broadcast, or is too big to draw (see ``can_draw``).
    """
    use_chinese_font()
    result, error = broadcast_outcome(shape_a, shape_b)
    if not can_draw(shape_a, shape_b):
        raise ValueError(error or f"只画不超过 2 维、每维不超过 {MAX_DRAW} 的结果")
    fig = Figure(dpi=100)
    ax = fig.add_axes((0.01, 0.01, 0.98, 0.98))
    ax.set_axis_off()
    width, bottom = _draw_stretched(ax, shape_a, shape_b, 0.0)
    return _finish(fig, ax, width, bottom, 0.3)


SHORT_VERDICTS = {"equal": "相等", "a_is_1": "a 为 1", "b_is_1": "b 为 1", "a_missing": "a 缺失",
                  "b_missing": "b 缺失", "mismatch": "不匹配"}


def explorer_figure(shape_a, shape_b):
    """The whole explorer as one picture: the right-aligned table, the result or error, and (small cases) the stretch.

    This is the static picture ``BroadcastExplorer`` leaves in a saved
    notebook; it works for every pair of shapes, including failing ones.
    """
    use_chinese_font()
    rows = list(reversed(broadcast_table(shape_a, shape_b)))
    result, error = broadcast_outcome(shape_a, shape_b)
    fig = Figure(dpi=100)
    ax = fig.add_axes((0.01, 0.01, 0.98, 0.98))
    ax.set_axis_off()
    ax.text(0, 0, f"a 的形状 {_fmt_shape(shape_a)}，b 的形状 {_fmt_shape(shape_b)}：右对齐，从右往左逐维比较",
            fontsize=11, ha="left", va="top")
    label_w, col_w, row_h, y = 1.6, 2.4, 0.75, -0.75
    lines = [("", lambda r: f"第 {r.dim} 维"), ("a", lambda r: "—" if r.a is None else str(r.a)),
             ("b", lambda r: "—" if r.b is None else str(r.b)), ("比较", lambda r: SHORT_VERDICTS[r.verdict]),
             ("结果", lambda r: "失败" if r.size is None else str(r.size))]
    for k, (name, get) in enumerate(lines):
        top = y - k * row_h
        ax.text(label_w / 2, top - row_h / 2, name, ha="center", va="center", fontsize=10)
        for c, r in enumerate(rows):
            bad = r.verdict == "mismatch"
            face = "#fde0dd" if bad and k else ("#f0f0f0" if k == 0 else "white")
            ax.add_patch(Rectangle((label_w + c * col_w, top - row_h), col_w, row_h, facecolor=face,
                                   edgecolor="#bbbbbb", linewidth=0.8))
            ax.text(label_w + (c + 0.5) * col_w, top - row_h / 2, get(r), ha="center", va="center", fontsize=10,
                    color="#b00020" if bad and k >= 3 else "black")
    y -= len(lines) * row_h + 0.3
    if not rows:
        ax.text(label_w, y + 0.2, "两个都是 0 维张量：结果也是 0 维", fontsize=10, va="top")
        y -= 0.8
    if error is None:
        ax.text(0, y, "结果形状：torch.Size([" + ", ".join(map(str, result)) + "])", fontsize=11, va="top")
    else:
        wrapped = textwrap.wrap(error, 70)
        ax.text(0, y, "a + b 报错：\n" + "\n".join(wrapped), fontsize=9.5, va="top", color="#b00020",
                linespacing=1.5)
        y -= 0.5 * len(wrapped)
    y -= 0.9
    width = label_w + col_w * max(1, len(rows))
    if can_draw(shape_a, shape_b):
        w, y = _draw_stretched(ax, shape_a, shape_b, y)
        width = max(width, w)
    return _finish(fig, ax, max(width, 14.5), y, 0.3)


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _fmt_shape(shape):
    shape = tuple(shape)
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _html(text):
    return (text or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class BroadcastExplorer(widgets.VBox):
    """Widget: type two shapes; see the right-aligned comparison, the stretched operands and the result or error.

    ``BroadcastExplorer("(3, 1)", "(2,)")``.  The shape boxes take text like
    ``(2, 3)``; the table lines the shapes up from the right, one column per
    dimension; the result line shows ``torch.Size([...])`` or course_lib's
    (= PyTorch's) exact error for ``a + b``; small cases are drawn.

    Python API (what the tests drive): ``set_shapes(a, b)``; state in
    ``rows`` (``broadcast_table``), ``result_shape``, ``error``,
    ``result_label.value``, ``table.value`` (HTML), ``image.value`` (PNG
    bytes of the stretched operands, empty when nothing is drawn) and
    ``static_png`` (``explorer_figure``: table, result and drawing in one
    picture, the PNG the displayed widget carries for viewers without a
    live kernel).  CSS classes: ``cl-broadcast`` on
    the box, ``cl-broadcast-a``/``-b`` on the inputs, ``cl-broadcast-result``
    on the result line.
    """

    def __init__(self, a="(3, 1)", b="(2,)"):
        self.rows, self.result_shape, self.error, self.static_png = [], None, None, b""
        box = widgets.Layout(width="160px", flex="0 1 auto", margin="2px 16px 2px 0")
        label = widgets.Layout(width="auto", flex="0 0 auto", margin="2px 6px 2px 0")   # labels never shrink
        self.shape_a = widgets.Text(value=a, continuous_update=False, layout=box, placeholder="例如 (3, 1)")
        self.shape_b = widgets.Text(value=b, continuous_update=False, layout=box, placeholder="例如 (2,)")
        self.table = widgets.HTML()
        self.result_label = widgets.HTML()
        self.image = pictures.picture("cl-broadcast-image")
        self._frame = pictures.framed(self.image)
        inputs = widgets.HBox([widgets.Label("a 的形状：", layout=label), self.shape_a,
                               widgets.Label("b 的形状：", layout=label), self.shape_b,
                               widgets.Label("（输入后按回车）", layout=label)],
                              layout=widgets.Layout(flex_flow="row wrap", align_items="center", width="100%"))
        super().__init__([inputs, self.table, self.result_label, self._frame], layout=widgets.Layout(width="100%"))
        self.add_class("cl-broadcast")
        self.shape_a.add_class("cl-broadcast-a")
        self.shape_b.add_class("cl-broadcast-b")
        self.table.add_class("cl-broadcast-table")
        self.result_label.add_class("cl-broadcast-result")
        self.shape_a.observe(self._update, names="value")
        self.shape_b.observe(self._update, names="value")
        self._update()

    def set_shapes(self, a, b):
        """Set both shape boxes (text or tuples) and update; returns the result shape (None on error)."""
        with self.hold_trait_notifications():
            self.shape_a.value = a if isinstance(a, str) else _fmt_shape(a)
            self.shape_b.value = b if isinstance(b, str) else _fmt_shape(b)
        self._update()
        return self.result_shape

    def _update(self, change=None):
        try:
            a, b = parse_shape(self.shape_a.value), parse_shape(self.shape_b.value)
        except ValueError as e:
            self.rows, self.result_shape, self.error = [], None, str(e)
            self.table.value = ""
            self.result_label.value = f"<div style='color:#b00020'>{_html(self.error)}</div>"
            self._show_image(None)
            self.static_png = b""
            return
        self.rows = broadcast_table(a, b)
        self.result_shape, self.error = broadcast_outcome(a, b)
        self.table.value = _table_html(self.rows)
        if self.error is None:
            size = "torch.Size([" + ", ".join(map(str, self.result_shape)) + "])"
            self.result_label.value = (f"<div style='font-size:1.05em'>{_fmt_shape(a)} 与 {_fmt_shape(b)} 可以广播，"
                                       f"结果形状：<code>{size}</code></div>")
        else:
            self.result_label.value = (f"<div style='color:#b00020'>无法广播，<code>a + b</code> 报错：<br>"
                                       f"<code style='white-space:pre-wrap'>{_html(self.error)}</code></div>")
        self._show_image(broadcast_figure(a, b) if can_draw(a, b) else None)
        self.static_png = figure_png(explorer_figure(a, b))

    def _show_image(self, fig):
        if fig is None:
            pictures.clear(self.image)
        else:
            pictures.show(self.image, fig)
        self.image.layout.display = self._frame.layout.display = None if fig is not None else "none"

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = f"BroadcastExplorer(a={self.shape_a.value!r}, b={self.shape_b.value!r})"
        if self.static_png:
            bundle["image/png"] = base64.b64encode(self.static_png).decode("ascii")
        return bundle


def _table_html(rows):
    """The comparison as an HTML table, right-aligned: one column per dimension, the last dimension rightmost."""
    cols = list(reversed(rows))
    cell = "padding:2px 10px;border:1px solid #ccc;text-align:center"

    def size(v):
        return "<span style='color:#aaa'>—</span>" if v is None else str(v)

    def bg(r):
        return "background:#fde0dd;" if r.verdict == "mismatch" else ""

    head = "".join(f"<th style='{cell}'>第 {r.dim} 维</th>" for r in cols)
    lines = [f"<tr><th style='{cell}'></th>{head}</tr>"]
    for name, get in (("a", lambda r: size(r.a)), ("b", lambda r: size(r.b)),
                      ("比较", lambda r: VERDICTS[r.verdict]), ("结果", lambda r: size(r.size) if r.size is not None
                                                                   else "<b style='color:#b00020'>✗</b>")):
        tds = "".join(f"<td style='{cell};{bg(r)}'>{get(r)}</td>" for r in cols)
        lines.append(f"<tr><th style='{cell}'>{name}</th>{tds}</tr>")
    if not rows:
        lines.append(f"<tr><td style='{cell}' colspan='2'>两个都是 0 维张量：结果也是 0 维</td></tr>")
    return "<div style='font-size:0.95em;margin:4px 0'>从右往左逐维比较（右对齐）：</div>" \
           f"<table style='border-collapse:collapse'>{''.join(lines)}</table>"
