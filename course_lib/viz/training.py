"""A live training plot: loss and accuracy per epoch, redrawn in place while a model trains.

    plot = TrainingPlot(epochs=20)
    for epoch in range(1, 21):
        ...                                     # one epoch of training
        plot.update({"epoch": epoch, "train_loss": 0.31, "train_acc": 0.91, "test_acc": 0.90})

The first :meth:`TrainingPlot.update` displays the figure as an image output with a display id;
each later one replaces that image in place (IPython's ``update_display``), so the picture grows
epoch by epoch while the cell runs, and the saved notebook keeps the final picture, which a web
page or a viewer without a kernel shows as it is.  No ipywidgets and no ``clear_output`` (which
nbval reports as an unhandled message).  Outside IPython nothing is displayed; the record and
:meth:`TrainingPlot.figure` work anywhere.

The values are plain Python numbers, so the plot serves a loop written with course_lib or with
PyTorch alike.
"""

import io

from .fonts import use_chinese_font

__all__ = ["TrainingPlot", "METRICS"]

# key -> (label, which panel: 0 loss, 1 accuracy, colour, line style)
METRICS = {
    "train_loss": ("训练损失", 0, "tab:blue", "-"),
    "test_loss": ("测试损失", 0, "tab:orange", "--"),
    "train_acc": ("训练准确率", 1, "tab:blue", "-"),
    "test_acc": ("测试准确率", 1, "tab:orange", "--"),
}


class TrainingPlot:
    """Loss (left) and accuracy (right, in %) against the epoch, for the metrics given so far.

    Args:
        epochs: how many epochs the x axis spans (it grows if more come).
        title: the figure's title.
        figsize: matplotlib figure size in inches.

    ``update(record)`` takes a dict with ``"epoch"`` and any of :data:`METRICS`' keys (other keys are
    kept in :attr:`history` but not drawn) and redraws.  :attr:`history` is the list of records.

    Raises:
        KeyError: a record without ``"epoch"``.
    """

    def __init__(self, epochs, title="训练过程", figsize=(10, 3.6)):
        self.epochs, self.title, self.figsize = int(epochs), title, figsize
        self.history = []
        self._handle = None

    def update(self, record):
        """Add one epoch's record and redraw the displayed picture (display it on the first call)."""
        record = dict(record)
        record["epoch"] = int(record["epoch"])
        self.history.append(record)
        self._show()
        return self

    def figure(self):
        """A matplotlib figure of the history so far (not displayed)."""
        from matplotlib.figure import Figure

        use_chinese_font()
        fig = Figure(figsize=self.figsize, layout="constrained")
        axes = fig.subplots(1, 2)
        last = max([self.epochs] + [r["epoch"] for r in self.history])
        epochs = [r["epoch"] for r in self.history]
        for key, (label, panel, color, style) in METRICS.items():
            points = [(r["epoch"], r[key]) for r in self.history if key in r]
            if not points:
                continue
            xs, ys = zip(*points)
            if panel == 1:
                ys = [100 * y for y in ys]
            axes[panel].plot(xs, ys, style, color=color, marker="o", ms=3, label=label)
        axes[0].set_ylabel("损失")
        axes[1].set_ylabel("准确率（%）")
        from matplotlib.ticker import MaxNLocator
        for ax in axes:
            ax.set_xlim(0.5, last + 0.5)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlabel("轮数（epoch）")
            ax.grid(alpha=0.3)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(loc="best")
        if self.history and any("test_acc" in r for r in self.history):
            best = self.history[-1].get("test_acc")
            if best is not None:
                axes[1].set_title(f"第 {epochs[-1]} 轮：测试准确率 {100 * best:.2f}%", fontsize=11)
        fig.suptitle(self.title)
        return fig

    def png(self):
        """The current picture as PNG bytes (no timestamp in its metadata, so the same history gives the
        same bytes)."""
        buf = io.BytesIO()
        self.figure().savefig(buf, format="png", dpi=80, metadata={"Software": None})
        return buf.getvalue()

    def _repr_png_(self):
        return self.png()

    def __repr__(self):
        if not self.history:
            return f"TrainingPlot(还没有数据，共 {self.epochs} 轮)"
        last = self.history[-1]
        parts = [f"{METRICS[k][0]} {last[k]:.4g}" for k in METRICS if k in last]
        return f"TrainingPlot(第 {last['epoch']}/{self.epochs} 轮：" + "，".join(parts) + ")"

    def _show(self):
        try:
            from IPython import get_ipython
            from IPython.display import Image, display
        except ImportError:           # plain Python: keep the record only
            return
        if get_ipython() is None:
            return
        image = Image(data=self.png(), format="png")
        if self._handle is None:
            self._handle = display(image, display_id=True)
        else:
            self._handle.update(image)
