"""The computation-graph widget (course_lib.viz.graph), driven through its Python API."""

import warnings

import numpy as np
import pytest

import course_lib as torch
from course_lib.viz.graph import (
    BackwardStepper,
    GraphWidget,
    draw_graph,
    format_grad,
    graph_of,
    layout,
)
from tests.conftest import requires_torch


def _square_sum():
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    z = (x * x).sum()
    return x, z


def _mixed():
    """z = sum(w * x*x + x): a broadcast scalar, a leaf reached three times."""
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    w = torch.tensor(0.5, requires_grad=True)
    z = (w * (x * x) + x).sum()
    return x, w, z


# ---------------------------------------------------------------------------
# graph_of
# ---------------------------------------------------------------------------

def test_graph_of_nodes_edges_and_names():
    x, z = _square_sum()
    g = graph_of(z, names={"x": x, "z": z})
    assert g.names() == ["z", "SumBackward0", "MulBackward0", "saved (2,)", "saved (2,)", "AccumulateGrad", "x"]
    assert [n.kind for n in g.nodes] == ["output", "function", "function", "saved", "saved", "accumulate", "leaf"]
    out, leaf = g.node("out"), g.find("x")[0]
    assert out.shape == () and leaf.shape == (2,)
    assert leaf.obj is x and out.obj is z
    mul = g.find("MulBackward0")[0]
    acc = g.find("AccumulateGrad")[0]
    twins = [e for e in g.edges if e.source == mul.id and e.target == acc.id]
    assert [e.index for e in twins] == [0, 1]          # x * x: two edges to one AccumulateGrad
    assert acc.obj.variable is x


def test_graph_of_guesses_names_from_caller():
    weight = torch.tensor([1.0, -1.0], requires_grad=True)
    total = (weight * 3).sum()
    g = graph_of(total)
    assert g.node("out").label == "total"
    assert g.find("weight")[0].kind == "leaf"


def test_graph_of_skips_inputs_without_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([5.0, 5.0])
    u = (x + c).sum()
    g = graph_of(u, names={"x": x})
    add = g.find("AddBackward0")[0]
    assert [e.index for e in g.edges if e.source == add.id and e.kind == "grad"] == [0]
    assert [n.label for n in g.nodes if n.kind == "leaf"] == ["x"]


def test_graph_of_leaf_output_and_errors():
    x = torch.tensor([1.0], requires_grad=True)
    g = graph_of(x, names={"x": x})
    assert [n.kind for n in g.nodes] == ["output", "accumulate", "leaf"]
    with pytest.raises(ValueError):
        graph_of(torch.tensor([1.0, 2.0]) * 2)
    with pytest.raises(TypeError):
        graph_of([1.0])


def test_saved_values_shapes_and_freed_after_backward():
    x, w, z = _mixed()
    g = graph_of(z, names={"x": x, "w": w})
    saved = sorted(n.shape for n in g.nodes if n.kind == "saved")
    assert saved == [(), (2,), (2,), (2,)]          # w*(x*x) saves w and x*x; x*x saves x twice
    z.backward()
    after = graph_of(z, names={"x": x, "w": w})
    assert [n.label for n in after.nodes if n.kind == "saved"] == ["已释放", "已释放"]


def test_layout_output_on_top_leaves_at_bottom():
    x, w, z = _mixed()
    g = graph_of(z, names={"x": x, "w": w})
    pos, routes = layout(g)
    ys = {n.kind: [] for n in g.nodes}
    for n in g.nodes:
        if n.id in pos:
            ys[n.kind].append(pos[n.id][1])
    assert max(ys["output"]) > max(ys["function"])
    assert min(ys["leaf"]) == max(ys["leaf"]) < min(ys["accumulate"])
    assert all(n.id not in pos for n in g.nodes if n.kind == "saved")
    # AddBackward0 -> AccumulateGrad(x) jumps over rows: it is routed through bend points
    add = g.find("AddBackward0")[0].id
    long_edges = [e for e in g.edges if e.source == add and g.node(e.target).kind == "accumulate"]
    assert routes[long_edges[0]]


# ---------------------------------------------------------------------------
# BackwardStepper
# ---------------------------------------------------------------------------

def test_step_advances_one_node_in_engine_order():
    from course_lib.core.engine import run_backward
    x, w, z = _mixed()
    s = BackwardStepper(z, names={"x": x, "w": w, "z": z})
    assert s.position == 0 and s.current is None and not s.done
    names = []
    while True:
        before = s.position
        st = s.step()
        if st is None:
            break
        assert s.position == before + 1 and s.current is st and st.index == s.position
        names.append(st.name)
    assert s.done and s.step() is None and s.position == len(names)
    # the engine's own order on an identical graph
    x2, w2, z2 = _mixed()
    order = []
    run_backward((z2,), [np.ones((), np.float32)], trace=lambda node, gi, go: order.append(node.name()))
    assert names == ["z"] + order


def test_gradients_shown_equal_the_engines():
    x, w, z = _mixed()
    s = BackwardStepper(z, names={"x": x, "w": w, "z": z})
    s.run()
    shown = s.leaf_grads()
    np.testing.assert_array_equal(shown["x"], x.grad.numpy())
    np.testing.assert_array_equal(shown["w"], w.grad.numpy())
    np.testing.assert_allclose(shown["x"], [3.0, 4.0])   # 2 w x + 1
    np.testing.assert_allclose(shown["w"], 13.0)          # sum x^2
    g = s.graph
    sum_edge = next(e for e in g.edges if e.source == g.find("SumBackward0")[0].id)
    np.testing.assert_array_equal(s.edge_gradients()[sum_edge], [1.0, 1.0])
    # the gradient for the broadcast scalar w is shown already summed back to w's shape
    acc_w = next(e.source for e in g.edges if e.kind == "leaf" and e.target == g.find("w")[0].id)
    to_w = [e for e in g.edges if e.target == acc_w]
    assert s.edge_gradients()[to_w[0]].shape == ()


def test_leaf_grad_appears_only_at_its_accumulate_step():
    x, z = _square_sum()
    s = BackwardStepper(z, names={"x": x})
    s.step()
    s.step()                                     # SumBackward0
    assert s.leaf_grads() == {"x": None}
    s.step()                                     # MulBackward0: two edges of 2 and 3 each... sent, not stored
    st = s.current
    assert st.name == "MulBackward0"
    assert [g.tolist() for g in st.grads_out.values()] == [[2.0, 3.0], [2.0, 3.0]]
    assert s.leaf_grads() == {"x": None}
    st = s.step()
    assert st.name == "torch::autograd::AccumulateGrad" and st.leaf_id == s.graph.find("x")[0].id
    np.testing.assert_array_equal(st.grads_in[0], [4.0, 6.0])
    np.testing.assert_array_equal(s.leaf_grads()["x"], [4.0, 6.0])
    assert s.done


def test_accumulation_into_existing_grad_is_shown():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    z = (x * 10).sum()
    s = BackwardStepper(z, names={"x": x})
    s.step()
    np.testing.assert_array_equal(s.leaf_grads()["x"], [2.0, 4.0])   # before: the first backward's
    s.run()
    np.testing.assert_array_equal(s.leaf_grads()["x"], [12.0, 14.0])
    np.testing.assert_array_equal(x.grad.numpy(), [12.0, 14.0])


def test_back_and_reset_replay_without_running_again():
    x, z = _square_sum()
    s = BackwardStepper(z, names={"x": x})
    s.run()
    n = s.position
    assert s.back().index == n - 1 and s.position == n - 1
    assert s.leaf_grads() == {"x": None}
    s.reset()
    assert s.position == 0 and s.edge_gradients() == {}
    s.run()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 6.0])      # backward ran once, not twice


def test_non_scalar_needs_gradient_like_backward():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 2
    s = BackwardStepper(y, names={"x": x})
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        s.step()
    v = torch.tensor([1.0, 0.1, 0.01])
    s = BackwardStepper(y, gradient=v, names={"x": x})
    first = s.step()
    np.testing.assert_allclose(first.grads_in[0], [1.0, 0.1, 0.01])
    s.run()
    np.testing.assert_allclose(s.leaf_grads()["x"], [2.0, 0.4, 0.06], rtol=1e-6)


def test_retain_graph_passes_through():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp().sum()
    BackwardStepper(y, names={"x": x}).run()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()
    x2 = torch.tensor([1.0, 2.0], requires_grad=True)
    y2 = x2.exp().sum()
    BackwardStepper(y2, retain_graph=True, names={"x": x2}).run()
    y2.backward()
    np.testing.assert_allclose(x2.grad.numpy(), 2 * np.exp([1.0, 2.0]), rtol=1e-6)


def test_describe_sentences():
    x, z = _square_sum()
    s = BackwardStepper(z, names={"x": x, "z": z})
    assert s.describe().startswith("还没有开始：共 4 步")
    assert repr(s) == "BackwardStepper(第 0/4 步)"
    draw_graph(s)
    assert x.grad is None                       # showing the stepper does not run backward yet
    s.step()
    assert s.describe() == "第 1/4 步：backward() 从 z 出发，初始梯度为 tensor(1.)。"
    s.run()
    assert s.describe() == ("第 4/4 步：AccumulateGrad 把收到的梯度 tensor([4., 6.]) 加进 x.grad，"
                            "现在 x.grad = tensor([4., 6.])。")
    assert repr(s) == "BackwardStepper(第 4/4 步)"


def test_format_grad():
    assert format_grad(None) == "None"
    assert format_grad(np.array(1.0, np.float32)) == "1."
    assert format_grad(np.array([0.5, 2.0], np.float32)) == "[0.5000, 2.0000]"
    assert format_grad(np.array([1.0], np.float64), full=True) == "tensor([1.], dtype=torch.float64)"
    assert format_grad(np.array([1.0], np.float64)) == "[1.]"


def _build_exp(lib):
    x = lib.tensor([2.0, -1.0, 0.5], requires_grad=True)
    w = lib.tensor([[1.0], [2.0]], requires_grad=True)
    h = (w * x).exp()
    z = (h.sum(0) * x - x / 3).mean()
    return x, w, z


def _build_mixed(lib):
    x = lib.tensor([2.0, 3.0], requires_grad=True)
    w = lib.tensor(0.5, requires_grad=True)
    return x, w, (w * (x * x) + x).sum()


@requires_torch
@pytest.mark.parametrize("build", [_build_exp, _build_mixed])
def test_same_graph_order_and_gradients_as_pytorch(build):
    import torch as real

    def walk(fn, out):
        out.append(fn.name().replace("torch::autograd::", ""))
        for nxt, _ in fn.next_functions:
            if nxt is not None:
                walk(nxt, out)
        return out

    x, w, z = build(torch)
    rx, rw, rz = build(real)
    s = BackwardStepper(z, names={"x": x, "w": w})
    labels = [n.label for n in s.graph.nodes if n.kind in ("function", "accumulate")]
    unique_real = list(dict.fromkeys(walk(rz.grad_fn, [])))
    assert sorted(set(labels)) == sorted(set(unique_real))
    order = []
    seen = set()

    def watch(fn):                    # record the order in which PyTorch runs the nodes
        if fn is None or fn in seen:
            return
        seen.add(fn)
        fn.register_hook(lambda grad_in, grad_out, name=fn.name(): order.append(name))
        for nxt, _ in fn.next_functions:
            watch(nxt)

    watch(rz.grad_fn)
    s.run()
    rz.backward()
    assert [st.name for st in s.steps[1:]] == order
    np.testing.assert_allclose(s.leaf_grads()["x"], rx.grad.numpy(), rtol=1e-5)
    np.testing.assert_allclose(s.leaf_grads()["w"], rw.grad.numpy(), rtol=1e-5)


# ---------------------------------------------------------------------------
# Pictures and the widget
# ---------------------------------------------------------------------------

def _texts(fig):
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_draw_graph_shows_gradients_and_grads_without_glyph_warnings():
    x, w, z = _mixed()
    s = BackwardStepper(z, names={"x": x, "w": w, "z": z})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        start = draw_graph(s)
        start.canvas.draw()
        s.run()
        end = draw_graph(s)
        end.canvas.draw()
    assert "x  (2,)\n.grad = None" in _texts(start)
    assert "x  (2,)\n.grad = [3., 4.]" in _texts(end)
    assert "w  ()\n.grad = 13." in _texts(end)
    assert "MulBackward0\n保存: 已释放" in _texts(end)
    assert "13." in _texts(end)                         # the gradient on the edge into w's AccumulateGrad
    assert end.axes[0].get_title(loc="left").startswith("第 7/7 步")
    png = s._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_widget_buttons_step_and_redraw():
    x, w, z = _mixed()
    gw = GraphWidget(z, names={"x": x, "w": w, "z": z})
    assert "cl-graph" in gw.box._dom_classes
    assert "cl-graph-next" in gw.next_button._dom_classes
    assert gw.prev_button.disabled and not gw.next_button.disabled
    first_png, first_status = gw.image.value, gw.status.value
    assert "还没有开始" in first_status
    gw.next_button.click()
    assert gw.stepper.position == 1
    assert gw.image.value != first_png and "第 1/7 步" in gw.status.value
    assert not gw.prev_button.disabled
    for _ in range(10):
        gw.next_button.click()
    assert gw.stepper.done and gw.next_button.disabled
    assert "[3., 4.]" in gw.grads.value and "13." in gw.grads.value
    gw.prev_button.click()
    assert gw.stepper.position == 6 and "第 6/7 步" in gw.status.value
    gw.reset_button.click()
    assert gw.stepper.position == 0 and gw.image.value == first_png
    bundle = gw._repr_mimebundle_()
    assert bundle["text/plain"].startswith("GraphWidget(还没有开始")
    assert "application/vnd.jupyter.widget-view+json" in bundle
    import base64
    assert base64.b64decode(bundle["image/png"]) == gw.png


def test_widgets_without_a_tensor_say_so_in_chinese():
    with pytest.raises(TypeError) as info:
        GraphWidget()
    assert str(info.value).startswith("GraphWidget 需要一个张量：GraphWidget(loss) 画出 loss 背后的计算图")
    with pytest.raises(TypeError) as info:
        BackwardStepper(None)
    assert str(info.value) == "BackwardStepper 需要一个张量：BackwardStepper(loss) 一步一步重放 loss.backward()"
    with pytest.raises(TypeError) as info:
        graph_of([1.0, 2.0])
    assert str(info.value) == "要画计算图，需要传入一个张量（Tensor），例如 graph_of(loss)；得到的是 list"
