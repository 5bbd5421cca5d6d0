"""Every course figure is readable on a web page: at most 800 px wide, smallest text at least 11 px.

On the site at 1280 px the text column is 840 px wide (tests/e2e/test_site.py checks it), so these
pictures are shown at full size there; in JupyterLab a widget's picture shrinks with a narrow window
only down to 10 px text (``course_lib.viz.pictures.show``), then scrolls sideways.
"""

import matplotlib
import pytest

matplotlib.use("agg")

import course_lib as torch  # noqa: E402
from course_lib.parallel.figures import parallelism_figure  # noqa: E402
from course_lib.viz import broadcasting, descent, graph, memory, pictures, tensor_shapes  # noqa: E402

MAX_WIDTH_PX = 800
MIN_TEXT_PX = 11


def _figures():
    x = torch.arange(12).view(3, 4)
    a = torch.tensor([1.0, -2.0], requires_grad=True)
    b = torch.tensor([0.5, 0.5], requires_grad=True)
    z = ((a * b).exp() + a).sum()
    stepper = graph.BackwardStepper(z)
    stepper.run()
    yield "tensor dims", tensor_shapes.draw_tensor_dims()
    yield "number lines", tensor_shapes.draw_number_lines([("torch.arange(0, 1, 0.25)", torch.arange(0, 1, 0.25)),
                                                           ("torch.linspace(0, 1, 5)", torch.linspace(0, 1, 5))], end=1)
    for label, expr in memory.default_operations(x):
        try:
            view = eval(expr, {"x": x, "torch": torch})  # noqa: S307 - the widget's own expressions
        except RuntimeError:
            continue
        yield f"memory {label}", memory.memory_figure(x, view)
    yield "memory 14 cells", memory.memory_figure(torch.arange(14))
    yield "memory 16 cells", memory.memory_figure(torch.arange(16))
    yield "memory 64 cells", memory.memory_figure(torch.arange(64).view(8, 8))
    yield "broadcast (3, 1) + (4,)", broadcasting.broadcast_figure((3, 1), (4,))
    yield "explorer (2, 1, 4) + (3, 1)", broadcasting.explorer_figure((2, 1, 4), (3, 1))
    yield "explorer error", broadcasting.explorer_figure((2, 1, 3), (4, 2))
    yield "graph", graph.draw_graph(z)
    yield "graph stepped", graph.draw_graph(stepper)
    yield "descent", descent.draw_fit([descent.fit_line(0.1, 100), descent.fit_line(0.01, 1000)])
    yield "parallelism", parallelism_figure()


FIGURES = list(_figures())


@pytest.mark.parametrize("name,fig", FIGURES, ids=[n for n, _ in FIGURES])
def test_figure_fits_a_page_and_its_text_is_readable(name, fig):
    width, height = pictures.png_size(pictures.figure_png(fig))
    assert width <= MAX_WIDTH_PX, f"{name}: {width} px wide"
    assert pictures.smallest_text_px(fig) >= MIN_TEXT_PX, name


def test_smallest_text_sees_every_text_artist():
    from matplotlib.figure import Figure
    fig = Figure(dpi=100)
    ax = fig.add_subplot()
    ax.text(0.5, 0.5, "小", fontsize=7.2)
    ax.text(0.2, 0.2, "   ", fontsize=3)             # blank: not counted
    assert pictures.smallest_text_px(fig) == pytest.approx(10.0)


def test_png_size_reads_the_header_and_refuses_other_bytes():
    assert pictures.png_size(pictures.figure_png(tensor_shapes.draw_tensor_dims())) == (800, 560)
    with pytest.raises(ValueError, match="not a PNG"):
        pictures.png_size(b"GIF89a" + b"\0" * 30)


def test_a_widget_picture_stops_shrinking_at_readable_text():
    image = pictures.picture("cl-test")
    fig = descent.draw_fit(descent.fit_line(0.01, 100))
    png = pictures.show(image, fig)
    width = pictures.png_size(png)[0]
    smallest = pictures.smallest_text_px(fig)
    assert image.value == png and "cl-picture" in image._dom_classes and "cl-test" in image._dom_classes
    assert image.layout.max_width == "100%"
    # min width = width * 10 / smallest: shrunk that far, the smallest text is exactly 10 px
    assert int(image.layout.min_width.removesuffix("px")) * smallest / width == pytest.approx(10, abs=0.02)
    pictures.clear(image)
    assert len(image.value) == 0 and image.layout.min_width is None
