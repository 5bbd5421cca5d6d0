"""The gradient-descent widget (course_lib.viz.descent), driven through its Python API."""

import base64
import math
import warnings

import numpy as np
import pytest

from course_lib.viz.descent import (
    CHAPTER_X,
    CHAPTER_Y,
    PRESETS,
    DescentWidget,
    critical_lr,
    draw_fit,
    fit_line,
)
from tests.conftest import requires_torch


def _distance(r):
    return abs(r.a - 1.5) + abs(r.b - 1.0)


def test_chapter_data_lie_on_the_line():
    assert [1.5 * x + 1 for x in CHAPTER_X] == list(CHAPTER_Y)


def test_lr_0_1_diverges():
    r = fit_line(0.1, 100)
    assert r.diverged
    assert len(r.losses) == 100 and len(r.path) == 101
    assert all(b > a for a, b in zip(r.losses[1:], r.losses[2:]))     # grows every epoch after the first
    assert r.final_loss > 1e20
    assert abs(r.a) > 1e10


def test_lr_0_01_converges_and_more_epochs_get_closer():
    r100, r1000, r5000 = (fit_line(0.01, n) for n in (100, 1000, 5000))
    for r in (r100, r1000, r5000):
        assert not r.diverged
        # never goes up, until float32 rounding (losses near 1e-9) takes over
        assert all(b <= a for a, b in zip(r.losses, r.losses[1:]) if a > 1e-7)
    assert r100.losses[0] == pytest.approx(34.75)                    # mean(y^2) at a = b = 0
    assert r100.final_loss < 0.05
    assert _distance(r100) > _distance(r1000) > _distance(r5000)
    assert r5000.a == pytest.approx(1.5, abs=1e-3) and r5000.b == pytest.approx(1.0, abs=1e-3)


def test_path_starts_at_start_and_follows_the_update_rule():
    r = fit_line(0.01, 3, a0=0.5, b0=-1.0)
    assert r.path[0] == (0.5, -1.0)
    # one step by hand in float64: grad_a = mean(2 (a x + b - y) x), grad_b = mean(2 (a x + b - y))
    x, y = np.array(CHAPTER_X), np.array(CHAPTER_Y)
    err = 0.5 * x - 1.0 - y
    assert r.path[1][0] == pytest.approx(0.5 - 0.01 * np.mean(2 * err * x), rel=1e-6)
    assert r.path[1][1] == pytest.approx(-1.0 - 0.01 * np.mean(2 * err), rel=1e-6)
    assert r.losses[0] == pytest.approx(np.mean(err ** 2), rel=1e-6)


def test_critical_learning_rate_separates_the_two_behaviours():
    lr_c = critical_lr()
    assert lr_c == pytest.approx(0.0845, abs=1e-4)
    assert not fit_line(lr_c * 0.95, 300).diverged
    assert fit_line(lr_c * 1.05, 300).diverged
    # it depends on x only
    assert critical_lr((1.0, 1.0)) == pytest.approx(2 / 4)


def test_divergence_stops_when_the_loss_overflows():
    r = fit_line(0.1, 1000)
    assert r.diverged and len(r.losses) < 1000
    assert all(math.isfinite(v) for v in r.losses)
    assert len(r.path) == len(r.losses) + 1


def test_other_data_and_errors():
    r = fit_line(0.05, 500, x=(0.0, 1.0, 2.0), y=(1.0, 3.0, 5.0))
    assert r.a == pytest.approx(2.0, abs=0.05) and r.b == pytest.approx(1.0, abs=0.1)
    with pytest.raises(ValueError, match="学习率 lr 必须是正数，得到的是 0.0"):
        fit_line(0.0, 10)
    with pytest.raises(ValueError, match="轮数 epochs 至少是 1，得到的是 0"):
        fit_line(0.01, 0)
    with pytest.raises(ValueError, match="x 和 y 的长度必须相同，得到的是 2 和 1"):
        fit_line(0.01, 10, x=(1.0, 2.0), y=(1.0,))


def test_summary_text():
    assert fit_line(0.01, 100).summary() == "lr=0.01，100 轮：最后的损失 0.02743，a = 1.607，b = 0.6131（收敛中）"
    assert fit_line(0.1, 100).summary().endswith("（发散）")


@requires_torch
def test_same_numbers_as_pytorch():
    import torch

    def torch_fit(lr, epochs):
        x, y = torch.tensor(CHAPTER_X), torch.tensor(CHAPTER_Y)
        a = torch.tensor(0.0, requires_grad=True)
        b = torch.tensor(0.0, requires_grad=True)
        losses = []
        for _ in range(epochs):
            loss = ((a * x + b - y) ** 2).mean()
            losses.append(loss.item())
            loss.backward()
            with torch.no_grad():
                a -= lr * a.grad
                b -= lr * b.grad
            a.grad.zero_()
            b.grad.zero_()
        return losses, (a.item(), b.item())

    for lr in (0.1, 0.01):
        losses, last = torch_fit(lr, 100)
        r = fit_line(lr, 100)
        np.testing.assert_allclose(r.losses, losses, rtol=1e-4)
        np.testing.assert_allclose(r.path[-1], last, rtol=1e-4)


def test_draw_fit_has_chinese_labels_and_no_glyph_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = draw_fit([fit_line(0.1, 100), fit_line(0.01, 100)])
        fig.canvas.draw()
    loss_ax, path_ax = fig.axes
    assert loss_ax.get_yscale() == "log"
    assert loss_ax.get_xlabel() == "轮数（epoch）"
    assert path_ax.get_xlabel() == "a（斜率）"
    labels = [t.get_text() for t in loss_ax.get_legend().get_texts()]
    assert labels == ["lr=0.1，100 轮（发散）", "lr=0.01，100 轮"]
    assert len(loss_ax.lines[0].get_xdata()) == 100


def test_widget_controls_change_the_output():
    w = DescentWidget()
    assert "cl-descent" in w.box._dom_classes
    assert "cl-descent-lr" in w.lr_slider._dom_classes
    assert w.result.lr == pytest.approx(0.01) and not w.result.diverged
    png0, status0 = w.image.value, w.status.value
    w.lr_slider.value = 0.1
    assert w.result.lr == pytest.approx(0.1) and w.result.diverged
    assert w.image.value != png0 and w.status.value != status0 and "发散" in w.status.value
    w.epochs_slider.value = 300
    assert w.result.epochs == 300


def test_widget_presets_are_one_click_apart():
    w = DescentWidget()
    assert [b.description for b in w.preset_buttons] == [p[0] for p in PRESETS]
    w.preset_buttons[0].click()
    assert (w.result.lr, w.result.epochs, w.result.diverged) == (0.1, 100, True)
    w.preset_buttons[1].click()
    assert (w.result.lr, w.result.epochs, w.result.diverged) == (0.01, 100, False)
    w.preset_buttons[2].click()
    assert w.result.epochs == 1000 and w.result.final_loss < 1e-3
    bundle = w._repr_mimebundle_()
    assert bundle["text/plain"] == f"DescentWidget({w.result.summary()})"
    assert base64.b64decode(bundle["image/png"]) == w.png
