"""The figures of chapters 01-02: what they draw, and that Chinese labels render without missing glyphs."""

import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

import course_lib as torch  # noqa: E402
from course_lib.viz import tensor_shapes  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _draw_without_warnings(fig):
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # "Glyph ... missing from font" would raise here
        fig.canvas.draw()


def test_as_list_flattens_tensors_arrays_and_lists():
    assert tensor_shapes.as_list(torch.tensor([[1, 2], [3, 4]])) == [1, 2, 3, 4]
    assert tensor_shapes.as_list(np.array([0.5, 1.5])) == [0.5, 1.5]
    assert tensor_shapes.as_list([1, (2, 3)]) == [1, 2, 3]
    assert tensor_shapes.as_list(torch.tensor(7)) == [7]


def test_tensor_dims_draws_one_box_per_element():
    fig = tensor_shapes.draw_tensor_dims()
    _draw_without_warnings(fig)
    (ax,) = fig.axes
    boxes = [p for p in ax.patches if isinstance(p, Rectangle)]
    expected = sum(int(np.prod(shape)) for _, _, shape in tensor_shapes.DIMS)   # 1 + 4 + 12 + 36 + 72
    assert expected == 125
    assert len(boxes) == expected
    texts = [t.get_text() for t in ax.texts]
    for title, use, _shape in tensor_shapes.DIMS:
        assert title in texts and use in texts
    assert "torch.Size([])" in texts
    assert "torch.Size([2, 3, 3, 4])" in texts
    assert texts.count("第 0 张") == 1 and texts.count("第 1 张") == 1


def test_tensor_dims_shapes_match_what_tensors_report():
    for _, _, shape in tensor_shapes.DIMS:
        assert tensor_shapes._shape_text(shape) == str(torch.zeros(shape).shape)


def test_number_lines_put_the_values_on_the_lines():
    a = torch.arange(0, 1, 0.25)
    b = torch.linspace(0, 1, 5)
    fig = tensor_shapes.draw_number_lines([("arange", a), ("linspace", b)], end=1)
    _draw_without_warnings(fig)
    (ax,) = fig.axes
    first, second = ax.collections
    np.testing.assert_allclose(first.get_offsets()[:, 0], [0, 0.25, 0.5, 0.75])
    np.testing.assert_allclose(second.get_offsets()[:, 0], [0, 0.25, 0.5, 0.75, 1.0])
    assert set(first.get_offsets()[:, 1]) == {1.0} and set(second.get_offsets()[:, 1]) == {0.0}
    texts = [t.get_text() for t in ax.texts]
    assert "arange：4 个点" in texts and "linspace：5 个点" in texts and "end = 1" in texts
    # the dashed end line sits at x = 1
    assert [tuple(line.get_xdata()) for line in ax.lines if line.get_linestyle() == "--"] == [(1.0, 1.0)]


def test_number_lines_without_end_and_with_plain_lists():
    fig = tensor_shapes.draw_number_lines([("list", [2, 4, 6])])
    (ax,) = fig.axes
    np.testing.assert_allclose(ax.collections[0].get_offsets()[:, 0], [2, 4, 6])
    assert not [line for line in ax.lines if line.get_linestyle() == "--"]
    lo, hi = ax.get_xlim()
    assert lo < 2 and hi > 6
