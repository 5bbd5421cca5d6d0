"""The chapter-10 diagram: data parallelism, pipeline (layer-wise) and tensor parallelism, two panels a row.

``parallelism_figure()`` returns a matplotlib ``Figure`` (no pyplot state),
with Chinese labels (the font of ``course_lib.viz``); a notebook cell ending
with it shows the picture (a PNG without timestamp, so the saved notebook
does not change when it is run again).
"""

import io

__all__ = ["parallelism_figure"]

_GPU_COLORS = ("#4C72B0", "#DD8452")
_LAYER_COLORS = ("#C7D9EE", "#F6D2B5", "#CDE8C9")


def _box(ax, x, y, w, h, text, face, edge="#333333", size=10):
    from matplotlib.patches import FancyBboxPatch
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.02,rounding_size=0.05",
                                facecolor=face, edgecolor=edge, linewidth=1.2))
    ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=size)


def _arrow(ax, x0, y0, x1, y1, color="#333333", style="-|>", text=None, text_offset=(0.0, 0.0)):
    from matplotlib.patches import FancyArrowPatch
    ax.add_patch(FancyArrowPatch((x0, y0), (x1, y1), arrowstyle=style, mutation_scale=12, color=color,
                                 linewidth=1.3))
    if text:
        ax.text((x0 + x1) / 2 + text_offset[0], (y0 + y1) / 2 + text_offset[1], text, ha="center", va="center",
                fontsize=9, color=color)


def _gpu_frame(ax, x, y, w, h, name, color):
    from matplotlib.patches import Rectangle
    ax.add_patch(Rectangle((x, y), w, h, facecolor="none", edgecolor=color, linewidth=2, linestyle="--"))
    ax.text(x + 0.05, y + h - 0.1, name, fontsize=10, color=color, va="top")


def _data_parallel(ax):
    ax.set_title("数据并行：每块 GPU 一份完整模型", fontsize=12)
    for i, (x, color) in enumerate(zip((0.2, 2.2), _GPU_COLORS)):
        _gpu_frame(ax, x, 0.9, 1.6, 2.6, f"GPU {i}", color)
        _box(ax, x + 0.2, 2.45, 1.2, 0.45, f"数据分片 {i}", "#EEEEEE")
        for k, face in enumerate(_LAYER_COLORS):
            _box(ax, x + 0.2, 1.85 - 0.42 * k, 1.2, 0.34, f"第 {k + 1} 层", face, size=9)
        _arrow(ax, x + 0.8, 2.45, x + 0.8, 2.22)
    _box(ax, 0.9, 0.1, 2.2, 0.45, "all-reduce：梯度取平均", "#FFF2B3")
    _arrow(ax, 1.0, 0.9, 1.4, 0.55, style="<|-|>")
    _arrow(ax, 3.0, 0.9, 2.6, 0.55, style="<|-|>")


def _pipeline_parallel(ax):
    ax.set_title("流水线并行：按层切分模型", fontsize=12)
    _box(ax, 0.2, 2.6, 1.6, 0.45, "整批数据", "#EEEEEE")
    _gpu_frame(ax, 0.1, 0.9, 1.6, 1.5, "GPU 0", _GPU_COLORS[0])
    _gpu_frame(ax, 2.3, 0.9, 1.6, 1.5, "GPU 1", _GPU_COLORS[1])
    _box(ax, 0.3, 1.55, 1.2, 0.34, "第 1 层", _LAYER_COLORS[0], size=9)
    _box(ax, 0.3, 1.1, 1.2, 0.34, "第 2 层", _LAYER_COLORS[1], size=9)
    _box(ax, 2.5, 1.35, 1.2, 0.34, "第 3 层", _LAYER_COLORS[2], size=9)
    _arrow(ax, 0.9, 2.6, 0.9, 1.92)
    # the gap between the two frames is wide enough for the labels: they sit on no border
    _arrow(ax, 1.5, 1.27, 2.5, 1.52, text="激活值", text_offset=(0.0, 0.28))
    _arrow(ax, 2.5, 1.25, 1.5, 1.0, color="#AA3333", text="梯度", text_offset=(0.0, -0.28))
    ax.text(2.0, 0.35, "前向时激活值向后传，反向时梯度向前传；\n把一批再切成若干小批，两块 GPU 就能同时忙",
            ha="center", va="center", fontsize=9)


def _tensor_parallel(ax):
    ax.set_title("张量并行：切分同一层的权重矩阵", fontsize=12)
    _box(ax, 0.9, 2.6, 2.2, 0.45, "输入 x（两块 GPU 都有）", "#EEEEEE", size=9)
    _gpu_frame(ax, 0.2, 0.9, 1.6, 1.5, "GPU 0", _GPU_COLORS[0])
    _gpu_frame(ax, 2.2, 0.9, 1.6, 1.5, "GPU 1", _GPU_COLORS[1])
    _box(ax, 0.4, 1.35, 1.2, 0.45, "W 的前一半行\n$y_0 = x W_0^T$", _LAYER_COLORS[0], size=9)
    _box(ax, 2.4, 1.35, 1.2, 0.45, "W 的后一半行\n$y_1 = x W_1^T$", _LAYER_COLORS[0], size=9)
    _arrow(ax, 1.3, 2.6, 0.8, 1.82)      # clear of the frames' "GPU i" labels
    _arrow(ax, 2.7, 2.6, 3.2, 1.82)
    _box(ax, 1.2, 0.1, 1.6, 0.45, "拼接：$y = [y_0, y_1]$", "#FFF2B3", size=9)
    _arrow(ax, 1.0, 0.9, 1.5, 0.55)
    _arrow(ax, 3.0, 0.9, 2.5, 0.55)


def _summary(ax):
    ax.set_title("三种切分方式", fontsize=12)
    rows = [("数据并行", "切数据：每块 GPU 算一部分样本，\n反向后用 all-reduce 平均梯度"),
            ("流水线并行", "切层：模型太大放不进一块 GPU 时，\n每块 GPU 放几层"),
            ("张量并行", "切矩阵：一层的权重太大时，\n每块 GPU 放它的一部分")]
    for k, (name, text) in enumerate(rows):
        y = 2.95 - 1.05 * k
        ax.text(0.1, y, name, fontsize=11, va="top", color=_GPU_COLORS[k % 2])
        ax.text(0.1, y - 0.3, text, fontsize=10, va="top", linespacing=1.4)


def parallelism_figure():
    """Data parallelism, pipeline parallelism, tensor parallelism and a summary, two panels a row (Chinese labels).

    Returns:
        matplotlib ``Figure`` of 8 x 7.4 inches (800 x 740 px): on a web page at 1280 px it is shown at
        full size, so its smallest text (9 pt, 12.5 px) stays readable.
    """
    from matplotlib.figure import Figure

    from ..viz.fonts import use_chinese_font
    use_chinese_font()
    fig = Figure(figsize=(8, 7.4), dpi=100)
    axes = fig.subplots(2, 2).ravel()
    for ax, draw in zip(axes, (_data_parallel, _pipeline_parallel, _tensor_parallel, _summary)):
        ax.set_xlim(0, 4)
        ax.set_ylim(0, 3.6)
        ax.set_aspect("equal")
        ax.axis("off")
        draw(ax)
    fig.subplots_adjust(left=0.01, right=0.99, top=0.95, bottom=0.01, wspace=0.04, hspace=0.12)
    fig._repr_png_ = lambda: _png(fig)
    return fig


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi, metadata={"Software": None})
    return buf.getvalue()
