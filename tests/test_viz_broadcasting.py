"""The broadcasting explorer (course_lib.viz.broadcasting): parsing, comparison table, PyTorch's errors, widget."""

import base64
import importlib.util
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_lib.viz.broadcasting import (
    BroadcastExplorer,
    BroadcastRow,
    broadcast_figure,
    broadcast_outcome,
    broadcast_table,
    can_draw,
    explorer_figure,
    parse_shape,
)
from course_lib.viz.memory import figure_png

HAVE_TORCH = importlib.util.find_spec("torch") is not None
requires_torch = pytest.mark.skipif(not HAVE_TORCH, reason="PyTorch is not installed (pip install torch==2.13.0)")


@pytest.mark.parametrize("text, shape", [
    ("(2, 3)", (2, 3)), ("2, 3", (2, 3)), ("2 3", (2, 3)), ("[2, 3]", (2, 3)), ("torch.Size([2, 3])", (2, 3)),
    ("(3,)", (3,)), ("3", (3,)), ("()", ()), ("", ()), ("  ( 4 , 1 , 5 ) ", (4, 1, 5)), ("torch.Size([])", ()),
    ("(0, 2)", (0, 2)),
])
def test_parse_shape(text, shape):
    assert parse_shape(text) == shape


@pytest.mark.parametrize("text", ["(2, x)", "2.5", "(2, -1)", "((2,), 3)", "abc", "(True, 2)"])
def test_parse_shape_rejects_non_shapes(text):
    with pytest.raises(ValueError, match="形状"):
        parse_shape(text)


def test_broadcast_table_rows_right_to_left():
    assert broadcast_table((3, 1), (2,)) == [BroadcastRow(-1, 1, 2, "a_is_1", 2),
                                             BroadcastRow(-2, 3, None, "b_missing", 3)]
    assert broadcast_table((4,), (2, 1, 4)) == [BroadcastRow(-1, 4, 4, "equal", 4),
                                                BroadcastRow(-2, None, 1, "a_missing", 1),
                                                BroadcastRow(-3, None, 2, "a_missing", 2)]
    assert broadcast_table((2, 3), (4,)) == [BroadcastRow(-1, 3, 4, "mismatch", None),
                                             BroadcastRow(-2, 2, None, "b_missing", 2)]
    assert broadcast_table((5, 4), (5, 1)) == [BroadcastRow(-1, 4, 1, "b_is_1", 4), BroadcastRow(-2, 5, 5, "equal", 5)]
    assert broadcast_table((), ()) == []
    assert broadcast_table((0,), (1,)) == [BroadcastRow(-1, 0, 1, "b_is_1", 0)]


def test_broadcast_outcome_results_and_errors():
    assert broadcast_outcome((64, 128), (128,)) == ((64, 128), None)
    assert broadcast_outcome((3, 1), (3,)) == ((3, 3), None)       # the (N, 1) vs (N,) trap
    assert broadcast_outcome((), (2, 3)) == ((2, 3), None)
    assert broadcast_outcome((10000, 1), (1, 10000)) == ((10000, 10000), None)   # no memory spent
    assert broadcast_outcome((2, 3), (4,)) == (
        None, "RuntimeError: The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1")
    assert broadcast_outcome((5, 2, 1), (3, 4))[1].endswith("(2) must match the size of tensor b (3) at "
                                                             "non-singleton dimension 1")


shapes = st.lists(st.integers(0, 4), max_size=4).map(tuple)


@st.composite
def related(draw):
    """Pairs that often broadcast: b is a with some sizes set to 1 and some leading dimensions dropped."""
    a = draw(shapes)
    ones = draw(st.lists(st.booleans(), min_size=len(a), max_size=len(a)))
    b = tuple(1 if one else n for one, n in zip(ones, a))[draw(st.integers(0, len(a))):]
    return (a, b) if draw(st.booleans()) else (b, a)


@settings(max_examples=150, deadline=None)
@given(pair=st.one_of(st.tuples(shapes, shapes), related()))
def test_table_agrees_with_course_lib(pair):
    a, b = pair
    rows = broadcast_table(a, b)
    result, error = broadcast_outcome(a, b)
    assert len(rows) == max(len(a), len(b))
    if any(r.verdict == "mismatch" for r in rows):
        assert result is None and error.startswith("RuntimeError: The size of tensor a")
    else:
        assert error is None and result == tuple(r.size for r in reversed(rows))


@requires_torch
@settings(max_examples=150, deadline=None)
@given(pair=st.one_of(st.tuples(shapes, shapes), related()))
def test_table_and_errors_agree_with_pytorch(pair):
    import torch
    a, b = pair
    rows = broadcast_table(a, b)
    result, error = broadcast_outcome(a, b)
    try:
        expected = tuple(torch.broadcast_shapes(a, b))
    except RuntimeError:
        expected = None
        try:
            torch.zeros(()).expand(a) + torch.zeros(()).expand(b)
        except RuntimeError as e:
            assert error == f"RuntimeError: {e}"
    assert result == expected
    assert (expected is None) == any(r.verdict == "mismatch" for r in rows)


@requires_torch
def test_two_mismatches_name_the_rightmost():
    assert broadcast_outcome((2, 3), (4, 5))[1] == ("RuntimeError: The size of tensor a (3) must match the size of "
                                                    "tensor b (5) at non-singleton dimension 1")


def test_can_draw_only_small_results():
    assert can_draw((3, 1), (1, 2)) and can_draw((), ()) and can_draw((4,), (2, 1))
    assert not can_draw((2, 3), (4,))            # does not broadcast
    assert not can_draw((2, 2, 2), (2,))         # three dimensions
    assert not can_draw((64, 128), (128,))       # too big
    assert not can_draw((0, 3), (3,))            # empty


def test_broadcast_figure_draws_originals_and_copies():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = broadcast_figure((3, 1), (1, 2))
        png = figure_png(fig)
    assert png.startswith(b"\x89PNG") and not [w for w in caught if "Glyph" in str(w.message)]
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "a：(3, 1) → (3, 2)" in texts and "b：(1, 2) → (3, 2)" in texts and "a + b：(3, 2)" in texts
    # a = [[1], [2], [3]], b = [[10, 20]]: the sums are drawn
    for value in ("11", "21", "12", "22", "13", "23"):
        assert value in texts
    dashed = [p for p in fig.axes[0].patches if p.get_linestyle() == "--"]
    assert len(dashed) == 3 + 4                 # a's second column, b's last two rows
    with pytest.raises(ValueError, match="The size of tensor a"):
        broadcast_figure((2, 3), (4,))


# ---------------------------------------------------------------------------
# The widget
# ---------------------------------------------------------------------------

def test_widget_initial_state_and_classes():
    w = BroadcastExplorer("(3, 1)", "(2,)")
    assert "cl-broadcast" in w._dom_classes
    assert "cl-broadcast-a" in w.shape_a._dom_classes and "cl-broadcast-result" in w.result_label._dom_classes
    assert w.result_shape == (3, 2) and w.error is None
    assert "torch.Size([3, 2])" in w.result_label.value
    assert "第 -1 维" in w.table.value and "第 -2 维" in w.table.value and "b 缺此维" in w.table.value
    assert bytes(w.image.value).startswith(b"\x89PNG")


def test_setting_the_shape_text_updates_the_result_label():
    w = BroadcastExplorer("(3, 1)", "(2,)")
    w.shape_b.value = "(4, 1, 2)"
    assert w.result_shape == (4, 3, 2) and "torch.Size([4, 3, 2])" in w.result_label.value
    assert w.image.layout.display == "none" and len(w.image.value) == 0      # three dims: not drawn
    w.shape_a.value = "(2, 3)"
    w.shape_b.value = "(4,)"
    assert w.result_shape is None
    assert w.error == ("RuntimeError: The size of tensor a (3) must match the size of tensor b (4) at "
                       "non-singleton dimension 1")
    assert "The size of tensor a (3) must match" in w.result_label.value and "无法广播" in w.result_label.value
    assert "不相等且都不为 1" in w.table.value


def test_set_shapes_accepts_tuples_and_redraws():
    w = BroadcastExplorer()
    before = bytes(w.image.value)
    assert w.set_shapes((2, 3), (3,)) == (2, 3)
    assert w.shape_a.value == "(2, 3)" and w.shape_b.value == "(3,)"
    assert bytes(w.image.value) != before and w.image.layout.display is None
    assert w.set_shapes("()", "(2, 2)") == (2, 2)


def test_bad_text_shows_a_chinese_message():
    w = BroadcastExplorer()
    w.shape_a.value = "(2, x)"
    assert w.result_shape is None and w.rows == [] and "无法解析形状" in w.result_label.value


def test_mimebundle_carries_a_static_png_for_every_pair():
    w = BroadcastExplorer("(3, 1)", "(1, 2)")
    bundle = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    first = base64.b64decode(bundle["image/png"])
    assert first.startswith(b"\x89PNG") and first == w.static_png
    w.set_shapes("(2, 3)", "(4,)")                 # fails, nothing stretched to draw, still a picture
    second = base64.b64decode(w._repr_mimebundle_()["image/png"])
    assert second.startswith(b"\x89PNG") and second != first
    w.shape_a.value = "nonsense"
    assert "image/png" not in w._repr_mimebundle_()


def test_explorer_figure_shows_table_result_and_error():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ok = explorer_figure((2, 1, 4), (3, 1))
        bad = explorer_figure((2, 3), (4,))
        figure_png(ok), figure_png(bad)
    assert not [w for w in caught if "Glyph" in str(w.message)]
    texts = [t.get_text() for t in ok.axes[0].texts]
    for label in ("第 -3 维", "第 -2 维", "第 -1 维", "b 缺失", "a 为 1", "b 为 1", "结果形状：torch.Size([2, 3, 4])"):
        assert label in texts
    assert not [p for p in ok.axes[0].patches if p.get_linestyle() == "--"]     # 3-d: no stretch drawing
    texts = [t.get_text() for t in bad.axes[0].texts]
    assert "不匹配" in texts and "失败" in texts
    assert any(t.startswith("a + b 报错：\nRuntimeError: The size of tensor a (3) must match") for t in texts)
    small = explorer_figure((3, 1), (1, 2))
    assert len([p for p in small.axes[0].patches if p.get_linestyle() == "--"]) == 7
