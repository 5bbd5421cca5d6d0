"""Gradient descent on a straight-line fit: the loop, its record, and a widget to play with it.

* :func:`fit_line` fits ``y = a * x + b`` by plain gradient descent with
  course_lib (the same loop chapter 07 writes by hand) and returns a
  :class:`FitResult`: the loss of every epoch and the path of ``(a, b)``.
* :func:`draw_fit` draws a result: the loss curve (log scale) and the path
  of the parameters over the contour lines of the loss.
* :class:`DescentWidget` (ipywidgets): a learning-rate slider, an epochs
  slider and preset buttons (``lr=0.1`` diverges, ``lr=0.01`` converges on
  the chapter's data); the picture follows every change.  Saved in a
  notebook, it also leaves a PNG.

The chapter's data are five points on the line ``y = 1.5 x + 1``
(:data:`CHAPTER_X`, :data:`CHAPTER_Y`), starting from ``a = b = 0``.  For
this mean-squared-error loss, plain gradient descent converges only when
``lr < 2 / L``, where ``L`` (about 23.7 here) is the largest eigenvalue of
the loss's Hessian: :func:`critical_lr` computes ``2 / L`` (about 0.0845),
which is why 0.1 diverges and 0.01 converges.
"""

import base64
import io
import math
from dataclasses import dataclass, field

import numpy as np

import course_lib as torch

from . import pictures
from .fonts import use_chinese_font

__all__ = ["CHAPTER_X", "CHAPTER_Y", "PRESETS", "FitResult", "fit_line", "critical_lr", "draw_fit",
           "DescentWidget"]

CHAPTER_X = (1.0, 2.0, 3.0, 4.0, 5.0)
CHAPTER_Y = (2.5, 4.0, 5.5, 7.0, 8.5)     # y = 1.5 * x + 1

PRESETS = (
    ("lr = 0.1（发散）", 0.1, 100),
    ("lr = 0.01（收敛）", 0.01, 100),
    ("lr = 0.01，1000 轮", 0.01, 1000),
)


@dataclass
class FitResult:
    """The record of one gradient-descent run.

    Attributes:
        lr, epochs: the settings.
        losses: the loss computed in each epoch, before that epoch's update
            (stops early at the first loss that is not finite).
        path: ``(a, b)`` before the first update and after each update, so
            ``len(path) == len(losses) + 1``.
        x, y: the data.
    """

    lr: float
    epochs: int
    losses: list = field(default_factory=list)
    path: list = field(default_factory=list)
    x: tuple = CHAPTER_X
    y: tuple = CHAPTER_Y

    @property
    def a(self):
        """``a`` after the last update."""
        return self.path[-1][0]

    @property
    def b(self):
        """``b`` after the last update."""
        return self.path[-1][1]

    @property
    def final_loss(self):
        """The loss of the last epoch run."""
        return self.losses[-1]

    @property
    def diverged(self):
        """True when the loss became inf/nan, or ended higher than it started."""
        return len(self.losses) < self.epochs or not all(map(math.isfinite, self.losses)) \
            or self.losses[-1] > self.losses[0]

    def summary(self):
        """One Chinese line: settings, final loss and parameters, converged or diverged."""
        state = "发散" if self.diverged else "收敛中"
        return (f"lr={self.lr:.3g}，{self.epochs} 轮：最后的损失 {self.final_loss:.4g}，"
                f"a = {self.a:.4g}，b = {self.b:.4g}（{state}）")

    def _repr_png_(self):
        return _png(draw_fit(self))

    def __repr__(self):
        return f"FitResult({self.summary()})"


def fit_line(lr, epochs, x=CHAPTER_X, y=CHAPTER_Y, a0=0.0, b0=0.0):
    """Fit ``y = a * x + b`` by gradient descent on the mean squared error, with course_lib.

    Each epoch: ``loss = ((a * x + b - y) ** 2).mean()``, ``loss.backward()``,
    then ``a -= lr * a.grad`` and ``b -= lr * b.grad`` under ``no_grad()``,
    then the gradients are zeroed.  Everything is float32, as in PyTorch.

    Args:
        lr: the learning rate (> 0).
        epochs: how many updates (>= 1).
        x, y: the data (sequences of numbers of equal length).
        a0, b0: the starting parameters.

    Returns:
        A :class:`FitResult`.  The run stops early when the loss is no
        longer finite (after a divergence).

    Raises:
        ValueError: ``lr <= 0``, ``epochs < 1`` or data of different lengths.
    """
    if not lr > 0:
        raise ValueError(f"学习率 lr 必须是正数，得到的是 {lr}")
    if int(epochs) < 1:
        raise ValueError(f"轮数 epochs 至少是 1，得到的是 {epochs}")
    if len(x) != len(y):
        raise ValueError(f"x 和 y 的长度必须相同，得到的是 {len(x)} 和 {len(y)}")
    xt = torch.tensor(list(x), dtype=torch.float32)
    yt = torch.tensor(list(y), dtype=torch.float32)
    a = torch.tensor(float(a0), requires_grad=True)
    b = torch.tensor(float(b0), requires_grad=True)
    result = FitResult(lr=lr, epochs=int(epochs), x=tuple(x), y=tuple(y), path=[(a.item(), b.item())])
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(int(epochs)):
            loss = ((a * xt + b - yt) ** 2).mean()
            value = loss.item()
            if not math.isfinite(value):
                break
            result.losses.append(value)
            loss.backward()
            with torch.no_grad():
                a -= lr * a.grad
                b -= lr * b.grad
            a.grad.zero_()
            b.grad.zero_()
            result.path.append((a.item(), b.item()))
    return result


def critical_lr(x=CHAPTER_X):
    """The learning rate above which gradient descent on the line fit diverges: ``2 / L``.

    ``L`` is the largest eigenvalue of the Hessian of the mean squared error
    in ``(a, b)``, ``2 * [[mean(x²), mean(x)], [mean(x), 1]]``; it does not
    depend on ``y``.  For the chapter's data it is about 0.0845.
    """
    xs = np.asarray(x, dtype=np.float64)
    h = 2 * np.array([[np.mean(xs * xs), np.mean(xs)], [np.mean(xs), 1.0]])
    return float(2 / np.linalg.eigvalsh(h).max())


def _best(x, y):
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    a, b = np.polyfit(xs, ys, 1)
    return float(a), float(b)


def draw_fit(results, fig=None):
    """Draw one or more :class:`FitResult`: loss curves (log scale) and the ``(a, b)`` paths; return the Figure.

    The right panel shows the contour lines of the loss around the best fit
    (a star); a diverging path leaves the panel, which the legend says.
    """
    from matplotlib.figure import Figure

    use_chinese_font()
    if isinstance(results, FitResult):
        results = [results]
    if fig is None:
        fig = Figure(figsize=(8, 3.6), dpi=100)
    ax_loss, ax_path = fig.subplots(1, 2)
    colors = ["#c0392b", "#2471a3", "#229954", "#b9770e"]
    for r, color in zip(results, colors * 4):
        label = f"lr={r.lr:.3g}，{r.epochs} 轮" + ("（发散）" if r.diverged else "")
        ax_loss.plot(range(1, len(r.losses) + 1), r.losses, color=color, lw=1.6, label=label)
    ax_loss.set_yscale("log")
    ax_loss.set_xlabel("轮数（epoch）")
    ax_loss.set_ylabel("损失（对数刻度）")
    ax_loss.set_title("损失曲线")
    ax_loss.grid(True, which="major", alpha=0.3)
    ax_loss.legend(fontsize=9)

    first = results[0]
    a_best, b_best = _best(first.x, first.y)
    span_a, span_b = max(1.0, abs(a_best) * 1.2), max(2.0, abs(b_best) * 2.5)
    lo_a, hi_a = a_best - span_a, a_best + span_a
    lo_b, hi_b = b_best - span_b, b_best + span_b
    for r in results:
        for pa, pb in r.path[:1]:
            lo_a, hi_a = min(lo_a, pa - 0.3), max(hi_a, pa + 0.3)
            lo_b, hi_b = min(lo_b, pb - 0.5), max(hi_b, pb + 0.5)
    aa, bb = np.meshgrid(np.linspace(lo_a, hi_a, 120), np.linspace(lo_b, hi_b, 120))
    xs, ys = np.asarray(first.x), np.asarray(first.y)
    loss = ((aa[..., None] * xs + bb[..., None] - ys) ** 2).mean(axis=-1)
    ax_path.contour(aa, bb, np.log10(loss + 1e-12), levels=14, colors="#bbbbbb", linewidths=0.7,
                    linestyles="solid")
    ax_path.plot([a_best], [b_best], marker="*", ms=14, color="#f1c40f", mec="#7d6608", ls="none",
                 label=f"最优 a={a_best:.3g}, b={b_best:.3g}")
    for r, color in zip(results, colors * 4):
        path = _until_outside(np.array(r.path), lo_a, hi_a, lo_b, hi_b)
        ax_path.plot(path[:, 0], path[:, 1], "-o", color=color, ms=2.5, lw=1.0,
                     label=f"lr={r.lr:.3g}，{r.epochs} 轮" + ("（冲出画面）" if r.diverged else ""))
    ax_path.set_xlim(lo_a, hi_a)
    ax_path.set_ylim(lo_b, hi_b)
    ax_path.set_xlabel("a（斜率）")
    ax_path.set_ylabel("b（截距）")
    ax_path.set_title("参数 (a, b) 的路径")
    ax_path.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    return fig


def _until_outside(path, lo_a, hi_a, lo_b, hi_b):
    """The path up to and including its first point outside the panel (the rest would only scribble)."""
    inside = (path[:, 0] >= lo_a) & (path[:, 0] <= hi_a) & (path[:, 1] >= lo_b) & (path[:, 1] <= hi_b)
    out = np.flatnonzero(~inside)
    return path if out.size == 0 else path[:out[0] + 1]


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


class DescentWidget:
    """A live gradient-descent widget: learning rate, epochs, presets; loss curve and path.

    ``.box`` is an ``ipywidgets.VBox`` with CSS class ``cl-descent``;
    ``.lr_slider`` (``FloatLogSlider``, ``cl-descent-lr``), ``.epochs_slider``
    (``IntSlider``, ``cl-descent-epochs``), ``.preset_buttons`` (one per
    entry of :data:`PRESETS`, ``cl-descent-preset``), ``.image`` (the
    picture, ``cl-descent-image``) and ``.status`` (``cl-descent-status``).
    Any change reruns :func:`fit_line` with course_lib; ``.result`` is the
    latest :class:`FitResult`.
    """

    def __init__(self, lr=0.01, epochs=100, x=CHAPTER_X, y=CHAPTER_Y):
        import ipywidgets as w
        self.x, self.y = tuple(x), tuple(y)
        # Long tracks (they fill the row) and coarse enough steps that a drag lands on the presets:
        # lr = 10 ** k with k in -3, -2.95, ..., -0.5 (0.01 and 0.1 among them), epochs in steps of 50.
        track = w.Layout(flex="1 1 260px", min_width="200px", max_width="640px")
        label = w.Layout(width="auto", flex="0 0 auto", margin="2px 8px 2px 0")
        number = w.Layout(width="100px", flex="0 0 auto", margin="2px 0")
        name = w.Layout(width="6.5em", flex="0 0 auto", margin="2px 8px 2px 0")     # both tracks start at one x
        row = w.Layout(flex_flow="row wrap", align_items="center", width="100%")
        self.lr_slider = w.FloatLogSlider(value=lr, base=10, min=-3, max=-0.5, step=0.05, readout=False,
                                          continuous_update=False, layout=track)
        self.epochs_slider = w.IntSlider(value=epochs, min=50, max=2000, step=50, readout=False,
                                         continuous_update=False, layout=track)
        # the typed-value boxes, labelled as such (the slider's own readout box would not say it takes input)
        self.lr_box = w.BoundedFloatText(value=lr, min=10 ** -3, max=10 ** -0.5, step=0.001, layout=number)
        self.epochs_box = w.BoundedIntText(value=epochs, min=50, max=2000, step=50, layout=number)
        self.lr_slider.add_class("cl-descent-lr")
        self.epochs_slider.add_class("cl-descent-epochs")
        self.lr_box.add_class("cl-descent-lr-box")
        self.epochs_box.add_class("cl-descent-epochs-box")
        self.preset_buttons = []
        for label_text, p_lr, p_epochs in PRESETS:
            b = w.Button(description=label_text, layout=w.Layout(width="auto", flex="0 0 auto", margin="2px 8px 2px 0"))
            b.add_class("cl-descent-preset")
            b.on_click(lambda _, p_lr=p_lr, p_epochs=p_epochs: self.set(p_lr, p_epochs))
            self.preset_buttons.append(b)
        self.image = pictures.picture("cl-descent-image")
        self.status = w.HTML()
        self.status.add_class("cl-descent-status")
        self._holding = False
        self.lr_slider.observe(self._changed, names="value")
        self.epochs_slider.observe(self._changed, names="value")
        self.lr_box.observe(self._typed, names="value")
        self.epochs_box.observe(self._typed, names="value")
        def typed(box):             # the label and its box wrap to the next line together
            return w.HBox([w.Label("或输入：", layout=label), box],
                          layout=w.Layout(flex="0 0 auto", align_items="center", margin="0 0 0 8px"))

        self.box = w.VBox([
            w.HBox(self.preset_buttons, layout=row),
            w.HBox([w.Label("学习率 lr", layout=name), self.lr_slider, typed(self.lr_box)], layout=row),
            w.HBox([w.Label("轮数 epochs", layout=name), self.epochs_slider, typed(self.epochs_box)], layout=row),
            self.status, pictures.framed(self.image)], layout=w.Layout(width="100%"))
        self.box.add_class("cl-descent")
        self.update()

    def set(self, lr, epochs):
        """Set both controls at once (what the preset buttons do) and redraw once."""
        self._holding = True
        try:
            self.lr_slider.value = lr
            self.epochs_slider.value = epochs
        finally:
            self._holding = False
        self.update()

    def _changed(self, _change):
        if not self._holding:
            self.update()

    def _typed(self, _change):
        """A number typed into a box: move the slider there (it keeps the exact value) and redraw."""
        if not self._holding:
            self.set(self.lr_box.value, self.epochs_box.value)

    def update(self):
        """Rerun the fit with the controls' values and redraw."""
        import html
        self.result = fit_line(self.lr_slider.value, self.epochs_slider.value, self.x, self.y)
        self._holding = True
        try:                            # the boxes show the values in use, rounded as the status line shows them
            self.lr_box.value = float(f"{self.lr_slider.value:.3g}")
            self.epochs_box.value = self.epochs_slider.value
        finally:
            self._holding = False
        self.png = pictures.show(self.image, draw_fit(self.result))
        self.status.value = f"<b>{html.escape(self.result.summary())}</b>"

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.box._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = f"DescentWidget({self.result.summary()})"
        bundle["image/png"] = base64.b64encode(self.png).decode("ascii")
        return bundle
