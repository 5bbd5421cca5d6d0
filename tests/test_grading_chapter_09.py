"""Chapter 09's exercise tests judge behaviour: the expectations are what the engines of course_lib and real
PyTorch do, typical mistakes fail with the reason that teaches, shortcuts are caught, and a wrong answer
reads the same whichever library it was written with."""

import pathlib

import numpy as np
import pytest

import course_lib
from course_lib.grading import chapters, run_check
from course_lib.grading.chapters import ch09_engine_internals as ch09
from course_lib.grading.core import run_question
from tests.conftest import HAVE_TORCH, requires_torch
from tests.test_grading_questions import exec_notebook

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENGINES = ["course_lib"] + (["torch"] if HAVE_TORCH else [])


def engine(name):
    if name == "torch":
        import torch
        return torch
    return course_lib


def verdict(name, code, lib="import course_lib as torch"):
    ns = {"__name__": "__main__"}
    exec(f"{lib}\nimport math\n{code}", ns)
    return run_check("09", name, ns)


def test_the_chapter_is_listed_in_order():
    assert chapters.STEMS.index("09_engine_internals") == chapters.STEMS.index("08_training_a_network") + 1
    assert chapters.load("09") is ch09


def test_the_solution_gets_full_marks_and_the_untouched_exercise_none():
    solved, printed = exec_notebook(ROOT / "solutions" / "09_engine_internals.ipynb")
    untouched, _ = exec_notebook(ROOT / "exercises" / "09_engine_internals.ipynb")
    for q in ch09.QUESTIONS:
        assert run_question(q(), solved).passed
        v = run_question(q(), untouched)
        assert (v.status, v.points) == ("not_answered", 0), v.render()
    assert "本章练习得分：11/11" in printed


# ---------------------------------------------------------------------------
# The expectations are what the engines do
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("lib", ENGINES)
@pytest.mark.parametrize("name", sorted(ch09.GRAPHS))
def test_expected_order_and_gradients_are_the_engines(lib, name):
    """Pre-hooks on every node record the order the engine really runs them; the leaves' .grad after
    backward() are the expected gradients (old .grad included)."""
    torch = engine(lib)
    graph = ch09.GRAPHS[name]
    env = ch09.build_graph(graph, torch)
    labels = ch09._node_labels(graph, env)
    order = []
    for node, label in labels.items():
        node.register_prehook(lambda grads, label=label: order.append(label))
    env[graph["steps"][-1][0]].backward()
    assert order == ch09.expected_order(graph)
    for leaf in graph["leaves"]:
        want = ch09.expected_grads(graph).get(leaf)
        got = env[leaf].grad
        assert (got is None) == (want is None)
        if want is not None:
            assert tuple(got.shape) == np.shape(want) and str(got.dtype) == "torch.float32"
            np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-5, atol=1e-6)


def test_the_broadcast_leaves_are_found():
    found = {name: ch09.broadcast_leaves(g) for name, g in ch09.GRAPHS.items()}
    assert found["two_branches"] == ["w"] and found["broadcast"] == ["w", "s"] and found["divide"] == ["w"]
    assert found["constant"] == ["w"] and found["chain"] == found["reused_leaf"] == found["diamond"] == []


def test_every_graph_is_a_test_case_and_the_orders_differ():
    used = set(ch09.Q4.GRAPH_NAMES) | set(ch09.Q5.GRAPH_NAMES)
    assert used == set(ch09.GRAPHS)
    orders = {tuple(ch09.expected_order(ch09.GRAPHS[g])) for g in ch09.Q4.GRAPH_NAMES}
    assert len(orders) == len(ch09.Q4.GRAPH_NAMES)
    # some graph runs a leaf's accumulator before an older node, and some has two nodes ready at once
    assert any(o.index("AccumulateGrad") < len(o) - 2 for o in orders)


@requires_torch
@pytest.mark.parametrize("lib", ENGINES)
def test_the_stride_rules_are_pytorchs(lib):
    torch = engine(lib)
    for shape, stride, new_shape in ch09.Q2.ARGS:
        try:
            real = tuple(torch.zeros(100).as_strided(shape, stride).view(new_shape).stride())
        except RuntimeError:
            real = None
        assert ch09.view_strides(shape, stride, new_shape) == real, (shape, stride, new_shape)
    for shape, stride, sizes in ch09.Q3.ARGS:
        real = tuple(torch.zeros(100).as_strided(shape, stride).expand(*sizes).stride())
        assert ch09.expand_strides(shape, stride, sizes) == real, (shape, stride, sizes)
    assert any(ch09.view_strides(*a) is None for a in ch09.Q2.ARGS)


def _prediction_values(torch):
    """Each item of q1, computed by running its code (every item from a fresh graph)."""
    def graph():
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = torch.tensor(2.0, requires_grad=True)
        a = x * w
        b = a.exp()
        c = a * b
        loss = c.sum()
        return x, w, a, b, c, loss

    x, w, a, b, c, loss = graph()
    nodes = [b.grad_fn, c.grad_fn, loss.grad_fn]
    acc_x = a.grad_fn.next_functions[0][0]
    points_at = {k: sum(n is target for node in nodes + [a.grad_fn] for n, _ in node.next_functions)
                 for k, target in (("a", a.grad_fn), ("b", acc_x))}
    order = []
    for node in nodes + [a.grad_fn, acc_x, a.grad_fn.next_functions[1][0]]:
        node.register_prehook(lambda grads, node=node: order.append(node.name()))
    with torch.no_grad():
        _, gw = a.grad_fn(torch.ones(3))
    loss.backward()
    values = dict(points_at, c=order[1], d=order[2], e=list(gw.shape), f=list(w.grad.shape))
    x, w, a, b, c, loss = graph()
    with torch.no_grad():
        x.detach().mul_(2)
    values["h"] = x._version
    try:
        loss.backward()
        values["g"] = False
    except RuntimeError:
        values["g"] = True
    return values


@pytest.mark.parametrize("lib", ENGINES)
def test_the_predicted_values_are_what_the_engines_do(lib):
    assert _prediction_values(engine(lib)) == {k: v for k, (_, v) in ch09.Q1.items.items()}


# ---------------------------------------------------------------------------
# Wrong answers get the verdicts that teach
# ---------------------------------------------------------------------------

CONTIGUOUS_VIEW = """
def strides_after_view(shape, stride, new_shape):      # ignores the memory layout
    new_shape = list(new_shape)
    if -1 in new_shape:
        rest = math.prod(n for n in new_shape if n != -1)
        new_shape[new_shape.index(-1)] = math.prod(shape) // rest
    if math.prod(new_shape) != math.prod(shape):
        return None
    out, step = [], 1
    for n in reversed(new_shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))
"""

NO_INFERENCE_VIEW = """
def strides_after_view(shape, stride, new_shape):      # right for contiguous inputs, but -1 is taken as a size
    if math.prod(new_shape) != math.prod(shape):
        return None
    out, step = [], 1
    for n in reversed(new_shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))
"""

ZERO_LEADING_EXPAND = """
def strides_after_expand(shape, stride, sizes):        # every new leading dimension gets stride 0
    lead = len(sizes) - len(shape)
    out = [0] * lead
    for i, (n, st) in enumerate(zip(shape, stride)):
        out.append(st if sizes[lead + i] in (n, -1) else 0)
    return tuple(out)
"""

COUNTS_FIRST = """
def _deps(root):
    deps, stack, seen = {}, [root], {root}
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return deps


def backward_order(root, created):
    rank = {node: i for i, node in enumerate(created)}
    deps, order, ready = _deps(root), [], [root]
    while ready:
        node = max(ready, key=lambda n: PRIORITY(rank, n))
        ready.remove(node)
        order.append(RESULT(node))
        for nxt, _ in node.next_functions:
            if nxt is not None:
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    ready.append(nxt)
    return order
"""


def _order_code(priority="rank.get(n, math.inf)", result="node"):
    return COUNTS_FIRST.replace("PRIORITY(rank, n)", priority).replace("RESULT(node)", result)


DEPTH_FIRST = """
def backward_order(root, created):                     # depth first, no dependency counts
    order, seen = [], set()
    def visit(node):
        if node is None or node in seen:
            return
        seen.add(node)
        order.append(node)
        for nxt, _ in node.next_functions:
            visit(nxt)
    visit(root)
    return order
"""

MANUAL = """
def fit(grad, shape):
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for i, n in enumerate(shape):
        if n == 1 and grad.shape[i] != 1:
            grad = grad.sum(i, keepdim=True)
    return grad


def manual_backward(root):
    deps, stack, seen = {}, [root], {root}
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    buffers, ready = {root: torch.ones(())}, [root]
    with torch.no_grad():
        while ready:
            node = ready.pop()
            grad = buffers.pop(node)
            if hasattr(node, "variable"):
                leaf = node.variable
                grad = FIT
                leaf.grad = STORE
                continue
            grads = node(grad)
            if not isinstance(grads, tuple):
                grads = (grads,)
            for (nxt, _), g in zip(node.next_functions, grads):
                if nxt is None:
                    continue
                if g is not None:
                    buffers[nxt] = g if nxt not in buffers else buffers[nxt] + g
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    ready.append(nxt)
"""


def _manual_code(fit="fit(grad, leaf.shape)", store="grad if leaf.grad is None else leaf.grad + grad"):
    return MANUAL.replace("FIT", fit).replace("STORE", store)


def test_the_right_order_and_backward_written_by_hand_pass():
    assert verdict("q4", _order_code()).passed
    assert verdict("q5", _manual_code()).passed


def test_a_view_that_ignores_the_layout_is_told_it_cannot_be_done():
    v = verdict("q2", CONTIGUOUS_VIEW)
    assert v.status == "failed" and v.case == 2
    assert "输入：strides_after_view(shape=(4, 3), stride=(1, 4), new_shape=(2, 2, 3))" in v.reason
    assert "期望：返回 (2, 1, 4)" in v.reason and "实际：返回 (6, 3, 1)" in v.reason and "步幅不对" in v.reason


def test_a_view_that_takes_minus_one_as_a_size_gets_the_hint_about_inference():
    v = verdict("q2", NO_INFERENCE_VIEW)
    assert v.status == "failed" and v.case == 1
    assert "-1 代表的长度" in v.reason


def test_an_expand_with_zero_strides_for_new_size_one_dimensions_gets_the_hint():
    v = verdict("q3", ZERO_LEADING_EXPAND)
    assert v.status == "failed"
    assert "输入：strides_after_expand(shape=(2, 3), stride=(3, 1), sizes=(1, -1, 3))" in v.reason
    assert "期望：返回 (6, 3, 1)" in v.reason and "实际：返回 (0, 3, 1)" in v.reason
    assert "假如张量在这里是连续的" in v.reason


def test_orders_that_miss_a_rule_fail_where_the_rule_matters():
    depth_first = verdict("q4", DEPTH_FIRST)
    assert depth_first.status == "failed" and depth_first.case == 1
    assert "第 4 个运行的节点应为 ExpBackward0(b)，得到 MulBackward0(a)" in depth_first.reason
    oldest_first = verdict("q4", _order_code(priority="-rank.get(n, -1)"))
    assert oldest_first.status == "failed" and oldest_first.case == 1
    accumulators_last = verdict("q4", _order_code(priority="rank.get(n, -1)"))
    assert accumulators_last.status == "failed" and accumulators_last.case == 4      # late_branch
    assert "第 5 个运行的节点应为 AccumulateGrad，得到 ExpBackward0(a)" in accumulators_last.reason
    names = verdict("q4", _order_code(result="node.name()"))
    assert names.status == "failed" and "不是节点的名字" in names.reason


def test_a_backward_by_hand_that_forgets_to_sum_back_or_overwrites_old_gradients_fails():
    unsummed = verdict("q5", _manual_code(fit="grad"))
    assert unsummed.status == "failed" and unsummed.case == 1                         # w is 0-d, x is (2,)
    assert "attempting to assign a gradient of size '[2]' to a tensor of size '[]'" in unsummed.reason
    assert "这张图里 w 在前向传播中被广播过" in unsummed.reason
    overwriting = verdict("q5", _manual_code(store="grad"))
    assert overwriting.status == "failed" and overwriting.case == 6                    # old_grads
    assert "原有的梯度被覆盖了" in overwriting.reason and "梯度会累加" in overwriting.reason


def test_a_backward_by_hand_that_touches_no_leaf_is_not_an_answer():
    v = verdict("q5", "def manual_backward(root):\n    root.name()")
    assert v.status == "not_answered"


@pytest.mark.parametrize("name, code", [
    ("q2", "from course_lib.core.layout import view_strides\n"
           "def strides_after_view(shape, stride, new_shape):\n    return view_strides(shape, stride, new_shape)"),
    ("q2", "def strides_after_view(shape, stride, new_shape):\n"
           "    try:\n        return torch.zeros(100).as_strided(shape, stride).view(new_shape).stride()\n"
           "    except RuntimeError:\n        return None"),
    ("q3", "def strides_after_expand(shape, stride, sizes):\n"
           "    return torch.zeros(100).as_strided(shape, stride).expand(*sizes).stride()"),
    ("q4", "def backward_order(root, created):\n    order = []\n"
           "    root.register_prehook(lambda g: order.append(root))\n    return order"),
    ("q5", "import numpy as np\nfrom course_lib.core import engine\n"
           "def manual_backward(root):\n"
           "    engine._Pass(engine._Root(((root, 0),), (np.ones((), np.float32),)), set(), False, None).run()"),
])
def test_shortcuts_are_caught(name, code):
    v = verdict(name, code)
    assert (v.status, v.points) == ("shortcut", 0), v.render()


# ---------------------------------------------------------------------------
# Either library, the same verdict
# ---------------------------------------------------------------------------

WRONG = [
    ("q2", CONTIGUOUS_VIEW),
    ("q3", ZERO_LEADING_EXPAND),
    ("q4", DEPTH_FIRST),
    ("q4", _order_code(priority="rank.get(n, -1)")),
    ("q4", _order_code(result="node.name()")),
    ("q5", _manual_code(fit="grad")),
    ("q5", _manual_code(store="grad")),
    ("q1", 'q1_answers = dict(a=1, b=1, c="ExpBackward0", d="MulBackward0", e=(), f=(), g=False, h=0)'),
]


@requires_torch
@pytest.mark.parametrize("name, code", WRONG, ids=[f"{n}-{i}" for i, (n, _) in enumerate(WRONG)])
def test_a_wrong_answer_reads_the_same_with_either_library(name, code):
    course, real = verdict(name, code), verdict(name, code, lib="import torch")
    assert not course.passed and course.points == 0
    assert (real.status, real.case) == (course.status, course.case)
    assert real.render() == course.render()


@requires_torch
def test_the_solution_written_with_pytorch_passes_q4_and_q5():
    assert verdict("q4", _order_code(), lib="import torch").passed
    assert verdict("q5", _manual_code(), lib="import torch").passed
