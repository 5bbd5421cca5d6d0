"""Chapter 08 (training a network): the digits classifier reaches 97% test accuracy on the chapter's own code,
the same cells give the same numbers with PyTorch, and the live training plot's API."""

import contextlib
import io
import pathlib
import warnings

import matplotlib
import nbformat
import pytest

from tests.conftest import requires_torch

matplotlib.use("Agg")

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "notebooks" / "08_training_a_network.ipynb"


def run_chapter_until(marker, engine="course_lib"):
    """Run the chapter's code cells in this process, up to and including the first one containing ``marker``;
    with ``engine="torch"`` the first line imports PyTorch instead of course_lib. Returns the namespace."""
    import matplotlib.pyplot as plt
    nb = nbformat.read(CHAPTER, as_version=4)
    ns = {"__name__": "__main__"}
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            source = cell.source
            if engine == "torch":
                source = source.replace("import course_lib as torch", "import torch\ntorch.set_num_threads(1)")
            exec(compile(source, str(CHAPTER), "exec"), ns)
            plt.close("all")
            if marker in cell.source:
                return ns
    raise AssertionError(f"no cell contains {marker!r}")


@pytest.fixture(scope="module")
def chapter():
    return run_chapter_until("for r in history:")


def test_the_digits_classifier_reaches_97_percent(chapter):
    history = chapter["history"]
    assert [r["epoch"] for r in history] == list(range(1, 21))
    assert history[-1]["test_acc"] >= 0.97
    assert len(chapter["X_test"]) == 360 and len(chapter["X_train"]) == 1437
    assert history[-1]["train_loss"] < history[0]["train_loss"] / 10
    # the accuracy the chapter reports is the network's own: recompute it from its predictions
    import course_lib as torch
    net, X_test, y_test = chapter["net"], chapter["X_test"], chapter["y_test"]
    net.eval()
    with torch.no_grad():
        correct = (net(X_test).argmax(dim=1) == y_test).sum().item()
    assert correct / 360 == pytest.approx(history[-1]["test_acc"], abs=1e-6) and correct >= 350


def test_the_plot_received_every_epoch(chapter):
    plot = chapter["plot"]
    assert plot.history == chapter["history"]
    assert repr(plot).startswith("TrainingPlot(第 20/20 轮：训练损失 ")


@requires_torch
def test_pytorch_trains_the_same_network_to_the_same_numbers(chapter):
    theirs = run_chapter_until("for r in history:", engine="torch")["history"]
    ours = chapter["history"]
    for a, b in zip(ours, theirs):
        assert (a["epoch"], a["train_acc"], a["test_acc"]) == (b["epoch"], b["train_acc"], b["test_acc"])
        assert a["train_loss"] == pytest.approx(b["train_loss"], rel=1e-4)


def test_training_plot_without_ipython_keeps_the_record_and_draws():
    from course_lib.viz.training import TrainingPlot
    plot = TrainingPlot(epochs=3, title="t")
    assert repr(plot) == "TrainingPlot(还没有数据，共 3 轮)"
    plot.update({"epoch": 1, "train_loss": 0.5, "test_acc": 0.8, "note": "kept"})
    plot.update({"epoch": 2, "train_loss": 0.25, "train_acc": 0.9, "test_acc": 0.85})
    assert [r["epoch"] for r in plot.history] == [1, 2] and plot.history[0]["note"] == "kept"
    assert repr(plot) == "TrainingPlot(第 2/3 轮：训练损失 0.25，训练准确率 0.9，测试准确率 0.85)"
    fig = plot.figure()
    left, right = fig.axes
    assert [line.get_label() for line in left.get_lines()] == ["训练损失"]
    assert [line.get_label() for line in right.get_lines()] == ["训练准确率", "测试准确率"]
    assert list(right.get_lines()[1].get_ydata()) == pytest.approx([80.0, 85.0])
    assert right.get_title() == "第 2 轮：测试准确率 85.00%"
    png = plot.png()
    assert png.startswith(b"\x89PNG") and png == plot.png()        # deterministic bytes
    with pytest.raises(KeyError):
        plot.update({"train_loss": 1.0})


def test_training_plot_in_ipython_displays_once_and_then_updates(monkeypatch):
    import IPython
    import IPython.display

    from course_lib.viz.training import TrainingPlot
    shown, updated = [], []

    class Handle:
        def update(self, obj):
            updated.append(obj)

    def display(obj, display_id=None):
        shown.append((obj, display_id))
        return Handle()
    monkeypatch.setattr(IPython, "get_ipython", lambda: object())
    monkeypatch.setattr(IPython.display, "display", display)
    plot = TrainingPlot(epochs=2)
    for epoch in (1, 2):
        plot.update({"epoch": epoch, "train_loss": 1.0 / epoch})
    assert len(shown) == 1 and shown[0][1] is True and len(updated) == 1
    assert updated[0].data == plot.png()
