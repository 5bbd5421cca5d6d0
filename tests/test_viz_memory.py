"""The memory-layout widget (course_lib.viz.memory): the cell arithmetic, checked against PyTorch, and the widget."""

import base64
import importlib.util
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import course_lib
from course_lib.viz import memory
from course_lib.viz.memory import (
    MemoryLayout,
    default_operations,
    layout_info,
    memory_figure,
    same_storage,
    storage_values,
    touched_cells,
)

HAVE_TORCH = importlib.util.find_spec("torch") is not None
requires_torch = pytest.mark.skipif(not HAVE_TORCH, reason="PyTorch is not installed (pip install torch==2.13.0)")

# Views of ``x = arange(24).view(4, 6)``; with storage values equal to cell numbers,
# the values a view shows are exactly the cells it reads.
VIEWS = [
    "x", "x.t()", "x.view(-1)", "x.view(2, 12)", "x.view(3, 8).t()", "x[1]", "x[:, 1]", "x[1, 2]", "x[::2, ::3]",
    "x[1:3, 2:5]", "x[:, 1:].t()", "x.view(2, 2, 6).permute(2, 0, 1)", "x.t()[1:4].view(3, 2, 2)",
    "x.unsqueeze(1)", "x[:1].expand(3, 6)", "x[2:2]", "x.view(4, 2, 3).transpose(0, 2)[1]",
    "x.view(2, 2, 6).transpose(0, 1).view(2, 2, 2, 3)", "x.flatten()[5:17:4]", "x.narrow(1, 2, 3)",
]


def _x(lib):
    return lib.arange(24).view(4, 6)


@pytest.mark.parametrize("expr", VIEWS)
def test_touched_cells_are_the_values_a_view_of_arange_shows(expr):
    v = eval(expr, {"x": _x(course_lib)})
    assert touched_cells(v) == v.reshape(-1).tolist()
    assert len(touched_cells(v)) == v.numel()


@requires_torch
@pytest.mark.parametrize("expr", VIEWS)
def test_touched_cells_match_pytorch(expr):
    import torch
    ours = eval(expr, {"x": _x(course_lib)})
    theirs = eval(expr, {"x": _x(torch)})
    assert touched_cells(ours) == touched_cells(theirs) == theirs.reshape(-1).tolist()
    assert layout_info(ours) == layout_info(theirs)


def test_touched_cells_known_values():
    x = course_lib.arange(6).view(2, 3)
    assert touched_cells(x) == [0, 1, 2, 3, 4, 5]
    assert touched_cells(x.t()) == [0, 3, 1, 4, 2, 5]
    assert touched_cells(x[:, 1]) == [1, 4]
    assert touched_cells(x[1, 2]) == [5]                     # 0-d: one cell
    assert touched_cells(x[:, 1:1]) == []                    # empty: no cell
    assert touched_cells(x[0].expand(2, 3)) == [0, 1, 2, 0, 1, 2]   # stride 0 reads cells twice


@settings(max_examples=60, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), data=st.data())
def test_touched_cells_property_random_slices_and_permutations(shape, data):
    n = 1
    for s in shape:
        n *= s
    x = course_lib.arange(n).view(*shape)
    index = tuple(slice(data.draw(st.integers(0, s - 1)), None, data.draw(st.integers(1, 3))) for s in shape)
    order = data.draw(st.permutations(range(len(shape))))
    v = x[index].permute(*order)
    assert touched_cells(v) == v.reshape(-1).tolist()
    if HAVE_TORCH:
        import torch
        t = torch.arange(n).view(*shape)[index].permute(*order)
        assert touched_cells(t) == touched_cells(v)
        assert (t.stride(), t.storage_offset()) == (v.stride(), v.storage_offset())


def test_storage_values_reads_the_whole_storage_from_any_view():
    x = course_lib.arange(6.0).view(2, 3)
    assert storage_values(x[1, 1:]) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert storage_values(x.t()) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert storage_values(x.t().contiguous()) == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    w = course_lib.ones(3, requires_grad=True)
    assert storage_values(w) == [1.0, 1.0, 1.0]


def test_same_storage_views_and_copies():
    x = course_lib.arange(6).view(2, 3)
    assert same_storage(x, x.t()) and same_storage(x, x[1:]) and same_storage(x, x.view(6))
    assert same_storage(x, x.reshape(3, 2))                # reshape of a contiguous tensor is a view
    assert not same_storage(x, x.clone())
    assert not same_storage(x, x.t().reshape(6))           # reshape had to copy
    assert not same_storage(x, x[[0, 1]])                  # advanced indexing copies


def test_default_operations_are_valid_expressions_for_matrices_and_vectors():
    for t in (course_lib.arange(12).view(3, 4), course_lib.arange(6)):
        ops = default_operations(t)
        assert ops[0][1] == "x" and len({e for _, e in ops}) == len(ops)
        failing = []
        for _, expr in ops:
            try:
                eval(expr, {"x": t})
            except RuntimeError:
                failing.append(expr)
        assert failing == (["x.transpose(0, 1).view(-1)"] if t.dim() == 2 else [])


# ---------------------------------------------------------------------------
# The widget
# ---------------------------------------------------------------------------

def test_widget_starts_on_the_tensor_itself():
    x = course_lib.arange(12).view(3, 4)
    w = MemoryLayout(x)
    assert "cl-memory-layout" in w._dom_classes
    assert w.result is x and w.touched == list(range(12)) and w.shared is True
    assert "(4, 1)" in w.info.value and "共享 x 的存储" in w.info.value
    assert bytes(w.image.value).startswith(b"\x89PNG")


def test_an_empty_tensor_shows_an_empty_storage():
    for x in (course_lib.zeros(0), course_lib.zeros(2, 0)):
        w = MemoryLayout(x)
        assert w.touched == [] and storage_values(x) == []
        assert "(0,)" in w.info.value or "(2, 0)" in w.info.value
        assert bytes(w.image.value).startswith(b"\x89PNG")
    fig = memory_figure(course_lib.zeros(0))
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "x 的存储（storage），共 0 个元素" in texts
    assert "（空：这块存储里一个元素也没有）" in texts


def test_choosing_transpose_changes_the_highlighted_cells():
    x = course_lib.arange(12).view(3, 4)
    w = MemoryLayout(x)
    before = w.image.value
    w.operation.value = "x.transpose(0, 1)"
    assert w.expression.value == "x.transpose(0, 1)"
    assert w.touched == [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]
    assert w.shared is True
    assert "(1, 4)" in w.info.value and "否" in w.info.value      # strides, not contiguous
    assert w.image.value != before


def test_typing_an_expression_updates_the_result():
    x = course_lib.arange(12).view(3, 4)
    w = MemoryLayout(x)
    w.expression.value = "x[1:, ::2]"
    assert w.touched == [4, 6, 8, 10]
    assert "存储偏移 storage_offset()</td><td style='font-family:monospace'>4" in w.info.value


def test_clone_and_contiguous_show_a_new_storage():
    x = course_lib.arange(12).view(3, 4)
    w = MemoryLayout(x)
    w.select("x.clone()")
    assert w.shared is False and "新的存储" in w.info.value
    w.select("x.transpose(0, 1).contiguous()")
    assert w.shared is False and w.touched == list(range(12))
    w.select("x.contiguous()")                      # already contiguous: the same tensor
    assert w.shared is True


def test_writing_through_a_view_changes_the_base_and_through_a_copy_does_not():
    x = course_lib.arange(12).view(3, 4)
    w = MemoryLayout(x)
    w.select("x[:, 1]")
    w.write(-7)
    assert x[0, 1].item() == -7 and w.changed == (1,)
    w.select("x.clone()")
    w.write(99)
    assert x[0, 0].item() == 0 and w.result[0, 0].item() == 99
    w.reset()
    assert x.tolist() == course_lib.arange(12).view(3, 4).tolist()


def test_write_button_uses_the_value_box():
    x = course_lib.arange(6.0)
    w = MemoryLayout(x)
    w.select("x[2:]")
    w.value.value = 3.5
    w.write_button.click()
    assert x.tolist() == [0.0, 1.0, 3.5, 3.0, 4.0, 5.0]


def test_an_invalid_view_shows_the_exact_error():
    x = course_lib.arange(12).view(3, 4)
    w = MemoryLayout(x)
    w.select("x.transpose(0, 1).view(-1)")
    assert w.result is None and w.touched == [] and w.shared is None
    expected = ("RuntimeError: view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    assert w.error == expected and "view size is not compatible" in w.info.value
    assert bytes(w.image.value).startswith(b"\x89PNG")     # still shows x's storage
    w.select("x.size()")
    assert w.error.startswith("TypeError: 表达式的结果是 Size")


def test_writing_into_a_leaf_that_requires_grad_reports_the_error():
    x = course_lib.ones(4, requires_grad=True)
    w = MemoryLayout(x)
    w.write(5.0)
    with pytest.raises(RuntimeError) as direct:         # the same write done by hand: the widget shows its error
        x[(0,)] = 5.0
    assert w.error == f"RuntimeError: {direct.value}"
    assert "leaf Variable that requires grad is being used in an in-place operation" in w.error
    assert x.tolist() == [1.0, 1.0, 1.0, 1.0]


def test_mimebundle_carries_a_static_png():
    w = MemoryLayout(course_lib.arange(6))
    bundle = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert base64.b64decode(bundle["image/png"]).startswith(b"\x89PNG")
    assert bundle["text/plain"] == "MemoryLayout(x: shape (6,), y = x)"


def test_figures_have_no_missing_glyphs_and_refuse_big_tensors():
    x = course_lib.arange(24.0).view(2, 3, 4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        png = memory.figure_png(memory_figure(x, x[:, 1:, ::2].clone(), title="标题"))
    assert png.startswith(b"\x89PNG")
    assert not [w for w in caught if "Glyph" in str(w.message)]
    with pytest.raises(ValueError, match="只画小张量"):
        memory_figure(course_lib.arange(100))


def test_figure_png_is_deterministic():
    x = course_lib.arange(6).view(2, 3)
    assert memory.figure_png(memory_figure(x, x.t())) == memory.figure_png(memory_figure(x, x.t()))
