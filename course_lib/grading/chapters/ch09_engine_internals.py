"""Tests for chapter 09 exercises: the engine's internals, rebuilt on the public API.

The strides questions work on plain tuples.  The graph questions build small computation graphs
from plain recipes (leaves and steps) with the learner's library, hand the learner the loss's
``grad_fn``, and compare what the learner's code does with what PyTorch's engine does, computed here
in plain Python and NumPy from the recipe (``expected_order``, ``expected_grads``).
``tests/test_grading_chapter_09.py`` checks that those expectations are what the engines of
course_lib and of real PyTorch really do, with hooks on every node.
"""

import math

import numpy as np

from ..core import (
    NOTHING,
    Case,
    Forbid,
    Prediction,
    Problem,
    Question,
    Returns,
    attempt,
    call,
    compare,
    fmt,
    shape_of,
    snap,
    snap_array,
    tensor_lib,
)
from ._util import rng_values

__all__ = ["QUESTIONS", "view_strides", "expand_strides", "GRAPHS", "OPS", "build_graph", "expected_order",
           "expected_grads", "graph_code", "broadcast_leaves"]


# -- independent reference rules (checked against real PyTorch in tests/test_grading_chapter_09.py) ----------

def _infer(numel, sizes):
    """``sizes`` with its -1 replaced by what the element count leaves, or None when nothing fits."""
    sizes = list(sizes)
    if -1 not in sizes:
        return sizes if math.prod(sizes) == numel else None
    i = sizes.index(-1)
    rest = math.prod(sizes[:i] + sizes[i + 1:])
    if rest == 0 or numel % rest:
        return None
    sizes[i] = numel // rest
    return sizes


def view_strides(shape, stride, new_shape):
    """The strides ``x.view(new_shape)`` gives a tensor of ``shape``/``stride`` (at least one element),
    or None where view raises.  ATen's ``computeStride``, written out: the dimensions are cut into
    runs that lie one after another in memory, and every run must be rebuilt exactly by new dimensions."""
    new_shape = _infer(math.prod(shape), new_shape)
    if new_shape is None:
        return None
    if not shape:
        return tuple(1 for _ in new_shape)
    out = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    base, tensor_numel, view_numel = stride[-1], 1, 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and stride[d - 1] != tensor_numel * base):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                out[view_d] = view_numel * base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                base, tensor_numel, view_numel = stride[d - 1], 1, 1
    return tuple(out) if view_d == -1 else None


def expand_strides(shape, stride, sizes):
    """The strides ``x.expand(*sizes)`` gives a tensor of ``shape``/``stride`` (valid sizes; -1 keeps a
    dimension).  ATen's ``inferExpandGeometry``; a 0-d tensor gets strides 0 everywhere."""
    if not shape:
        return tuple(0 for _ in sizes)
    out, resolved, lead = [0] * len(sizes), list(sizes), len(sizes) - len(shape)
    for i in range(len(sizes) - 1, -1, -1):
        if i >= lead:
            size, st = shape[i - lead], stride[i - lead]
        else:
            size, st = 1, resolved[i + 1] * out[i + 1]
        if resolved[i] == -1:
            resolved[i] = size
        out[i] = st if resolved[i] == size else 0
    return tuple(out)


# -- small computation graphs, as plain recipes ----------------------------------------------------------------

# op: (the node PyTorch makes, how the step reads, the operation on tensors of either library, on NumPy arrays)
OPS = {
    "add": ("AddBackward0", "{} + {}", lambda a, b: a + b, lambda a, b: a + b),
    "sub": ("SubBackward0", "{} - {}", lambda a, b: a - b, lambda a, b: a - b),
    "mul": ("MulBackward0", "{} * {}", lambda a, b: a * b, lambda a, b: a * b),
    "div": ("DivBackward0", "{} / {}", lambda a, b: a / b, lambda a, b: a / b),
    "exp": ("ExpBackward0", "{}.exp()", lambda a: a.exp(), np.exp),
    "relu": ("ReluBackward0", "{}.relu()", lambda a: a.relu(), lambda a: np.maximum(a, 0.0)),
    "sum": ("SumBackward0", "{}.sum()", lambda a: a.sum(), lambda a: np.sum(a)),
}


def _leaf(seed, shape, requires_grad=True, low=-2.0, high=2.0, grad_seed=None):
    spec = {"values": rng_values(seed, shape, low, high), "requires_grad": requires_grad}
    if grad_seed is not None:
        spec["grad"] = rng_values(grad_seed, shape, -1.0, 1.0)
    return spec


# Each graph: its leaves (x, w, ... require grad; c does not) and its steps (variable, op, inputs).  The last
# step is the scalar loss.  Only leaves are ever broadcast, so a gradient is summed back only at a leaf.
GRAPHS = {
    "chain": {"leaves": {"x": _leaf(901, (3,))},
              "steps": [("a", "exp", "x"), ("b", "exp", "a"), ("loss", "sum", "b")]},
    "two_branches": {"leaves": {"x": _leaf(902, (2,)), "w": _leaf(903, ())},
                     "steps": [("a", "mul", "x", "w"), ("b", "exp", "x"), ("c", "add", "a", "b"),
                               ("d", "mul", "c", "a"), ("loss", "sum", "d")]},
    "reused_leaf": {"leaves": {"x": _leaf(904, (3,))},
                    "steps": [("a", "mul", "x", "x"), ("b", "mul", "a", "x"), ("c", "add", "b", "x"),
                              ("loss", "sum", "c")]},
    "diamond": {"leaves": {"x": _leaf(905, (4,)), "w": _leaf(906, (4,))},
                "steps": [("a", "mul", "x", "w"), ("b", "exp", "a"), ("c", "relu", "a"), ("d", "add", "b", "c"),
                          ("loss", "sum", "d")]},
    "late_branch": {"leaves": {"x": _leaf(907, (3,)), "w": _leaf(908, (3,))},
                    "steps": [("a", "exp", "x"), ("b", "exp", "w"), ("c", "exp", "b"), ("d", "mul", "a", "c"),
                              ("loss", "sum", "d")]},
    "constant": {"leaves": {"x": _leaf(909, (2, 3)), "c": _leaf(910, (2, 3), requires_grad=False),
                            "w": _leaf(911, (3,))},
                 "steps": [("a", "mul", "c", "x"), ("b", "sub", "a", "c"), ("d", "mul", "b", "w"),
                           ("e", "div", "d", "w"), ("loss", "sum", "e")]},
    "broadcast": {"leaves": {"x": _leaf(912, (2, 3)), "w": _leaf(913, (3,)), "s": _leaf(914, ())},
                  "steps": [("a", "mul", "x", "w"), ("b", "add", "a", "s"), ("c", "relu", "b"),
                            ("d", "mul", "c", "w"), ("loss", "sum", "d")]},
    "old_grads": {"leaves": {"x": _leaf(915, (3,), grad_seed=916), "w": _leaf(917, (), grad_seed=918)},
                  "steps": [("a", "mul", "x", "w"), ("b", "mul", "a", "a"), ("c", "sub", "b", "x"),
                            ("loss", "sum", "c")]},
    "divide": {"leaves": {"x": _leaf(919, (2, 2)), "w": _leaf(920, (2, 1), low=0.5, high=2.0)},
               "steps": [("a", "div", "x", "w"), ("b", "exp", "a"), ("d", "div", "b", "w"), ("e", "add", "d", "a"),
                         ("loss", "sum", "e")]},
}


def graph_code(graph):
    """How a graph reads in a verdict: ``a = x * w; b = a.exp(); loss = b.sum()``."""
    return "; ".join(f"{var} = {OPS[op][1].format(*args)}" for var, op, *args in graph["steps"])


def _leaves_label(graph):
    parts = []
    for name, spec in graph["leaves"].items():
        shape = tuple(np.shape(spec["values"]))
        extra = "" if spec["requires_grad"] else "，不需要梯度"
        if "grad" in spec:
            extra += "，.grad 里已经有梯度"
        parts.append(f"{name} 形状 {shape}{extra}")
    return "；".join(parts)


def broadcast_leaves(graph):
    """The leaves that some step of ``graph`` broadcasts (their shape is not the step's)."""
    shapes = {name: np.shape(spec["values"]) for name, spec in graph["leaves"].items()}
    out = []
    for var, op, *args in graph["steps"]:
        shapes[var] = np.shape(OPS[op][3](*(np.zeros(shapes[a]) for a in args)))
        if len(args) == 2:
            full = np.broadcast_shapes(*(shapes[a] for a in args))
            out += [a for a in args if a in graph["leaves"] and shapes[a] != full and a not in out]
    return out


def build_graph(graph, torch):
    """The tensors of ``graph`` made with library ``torch`` (float32): ``{name: tensor}``, leaves and steps."""
    env = {}
    for name, spec in graph["leaves"].items():
        t = torch.tensor(spec["values"], dtype=torch.float32, requires_grad=spec["requires_grad"])
        if "grad" in spec:
            t.grad = torch.tensor(spec["grad"], dtype=torch.float32)
        env[name] = t
    for var, op, *args in graph["steps"]:
        env[var] = OPS[op][2](*(env[a] for a in args))
    return env


def _node_labels(graph, env):
    """``{node: label}`` for the graph's nodes: ``"MulBackward0(a)"`` for a step's node, ``"AccumulateGrad"``
    for a leaf's (the leaves' accumulators read alike: PyTorch orders ready ones among themselves as its
    heap happens to)."""
    labels = {}
    for var, op, *_ in graph["steps"]:
        labels[env[var].grad_fn] = f"{OPS[op][0]}({var})"
    stack = [env[graph["steps"][-1][0]].grad_fn]
    seen = set(stack)
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
                labels.setdefault(nxt, "AccumulateGrad")
    return labels


def _model(graph):
    """The graph as PyTorch's engine sees it: ``{label: (priority, [edge targets])}`` and the root's label.

    A step's node has one edge per input: to the node of a step, to a leaf's accumulator (one per leaf
    that requires grad), or none.  Priority: the creation order; accumulators come before all."""
    nodes, made = {}, {}
    for name, spec in graph["leaves"].items():
        if spec["requires_grad"]:
            made[name] = f"acc:{name}"
            nodes[made[name]] = (math.inf, [])
    for rank, (var, op, *args) in enumerate(graph["steps"]):
        made[var] = f"{OPS[op][0]}({var})"
        nodes[made[var]] = (rank, [made.get(a) for a in args])
    return nodes, made[graph["steps"][-1][0]]


def expected_order(graph):
    """The labels of the graph's nodes in the order PyTorch's engine runs them: dependency counts, then the
    ready node of highest priority first (``engine.cpp``'s ready queue)."""
    nodes, root = _model(graph)
    deps, stack, seen = {}, [root], {root}
    while stack:
        for nxt in nodes[stack.pop()][1]:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    order, ready = [], [root]
    while ready:
        node = max(ready, key=lambda n: nodes[n][0])
        ready.remove(node)
        order.append("AccumulateGrad" if node.startswith("acc:") else node)
        for nxt in nodes[node][1]:
            if nxt is not None:
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    ready.append(nxt)
    return order


def _unbroadcast(grad, shape):
    lead = grad.ndim - len(shape)
    grad = grad.sum(axis=tuple(range(lead)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)
    return grad.sum(axis=axes, keepdims=True).reshape(shape)


def _local_grads(op, inputs, out, grad):
    """The gradients of one step's inputs (in the broadcast shape), NumPy, float64."""
    if op == "add":
        return grad, grad
    if op == "sub":
        return grad, -grad
    if op == "mul":
        return grad * inputs[1], grad * inputs[0]
    if op == "div":
        return grad / inputs[1], -grad * inputs[0] / inputs[1] ** 2
    if op == "exp":
        return (grad * out,)
    if op == "relu":
        return (grad * (inputs[0] > 0),)
    return (np.broadcast_to(grad, np.shape(inputs[0])),)            # sum


def expected_grads(graph):
    """``{leaf: its .grad after one backward from the loss}`` (float64): what was there, plus the chain rule."""
    values = {name: np.asarray(spec["values"], dtype=np.float64) for name, spec in graph["leaves"].items()}
    for var, op, *args in graph["steps"]:
        values[var] = np.asarray(OPS[op][3](*(values[a] for a in args)), dtype=np.float64)
    grads = {graph["steps"][-1][0]: np.ones(())}
    for var, op, *args in reversed(graph["steps"]):
        local = _local_grads(op, [values[a] for a in args], values[var], grads.pop(var))
        for a, g in zip(args, local):
            g = _unbroadcast(np.asarray(g), np.shape(values[a]))
            grads[a] = g if a not in grads else grads[a] + g
    out = {}
    for name, spec in graph["leaves"].items():
        if spec["requires_grad"]:
            out[name] = grads.get(name, 0.0) + np.asarray(spec.get("grad", 0.0), dtype=np.float64)
    return out


# -- the questions -----------------------------------------------------------------------------------------------

class Q1(Prediction):
    name = "q1"
    title = "预测：图里的依赖数、运行顺序和版本"
    points = 1
    needs = ("q1_answers",)
    hint = ("每一项都可以在真正的引擎上验证：沿着 next_functions 数一数有几条边指向某个节点；"
            "在每个节点上注册一个前置钩子（pre-hook），就能记下引擎运行节点的顺序。")
    hint2 = ("依赖数是“有多少条边指向它”，不是“它指向几个节点”。就绪的节点里，叶节点的累加节点最先运行，"
             "其余的越晚创建越先运行。节点公式给出的梯度还是广播后的形状，求和回原形状是引擎做的。"
             "视图等与原张量共享内存的张量（.data 除外）和它共用一个版本计数器，"
             "保存下来的张量版本变了，反向传播就会拒绝计算。")
    items = {
        "a": ("有几条边指向 a.grad_fn（它的依赖数）", 2),
        "b": ("有几条边指向 x 的 AccumulateGrad 节点", 1),
        "c": ("反向传播时第二个运行的节点的 name()（第一个是 loss.grad_fn）", "MulBackward0"),
        "d": ("反向传播时第三个运行的节点的 name()", "ExpBackward0"),
        "e": ("with torch.no_grad(): ga, gw = a.grad_fn(torch.ones(3)) 之后 gw.shape", [3]),
        "f": ("loss.backward() 之后 w.grad.shape", []),
        "g": ("先 with torch.no_grad(): x.detach().mul_(2)，再 loss.backward()：会抛出 RuntimeError 吗？", True),
        "h": ("上一项的 x.detach().mul_(2) 之后，x._version 是多少", 1),
    }

    def normalize(self, value):
        if isinstance(value, type) and issubclass(value, BaseException):
            return value.__name__
        return super().normalize(value)


class Q2(Question):
    name = "q2"
    title = "view 的步幅规则"
    points = 2
    needs = ("strides_after_view",)
    hint = ("先把原来的维度分段：相邻两维在内存里首尾相接（长度为 1 的维度不算断开），就归入同一段。"
            "新形状从右往左，逐段“分掉”每一段的元素；一段之内，最右边的新维度沿用这一段最右一维的步幅，"
            "往左每一维再乘上它右边那一维的长度。")
    hint2 = ("-1 先用元素总数推算出来，推不出整数就不能 view；元素个数对不上也不能 view。0 维张量怎么 view 都行，"
             "每一维的步幅都是 1。每一段结束时，新形状这边累计的元素个数必须恰好等于这一段的元素个数，"
             "否则返回 None；长度为 1 的新维度放在哪里都可以。")
    forbid = Forbid(calls=("view_strides", "_chunks"), tensors=True,
                    why="请只用 Python 的元组和整数，按分段的规则自己算出步幅"
                        "（不要创建张量，也不要调用 course_lib.core）。")

    ARGS = [
        ((2, 3), (3, 1), (6,)),
        ((2, 3), (3, 1), (3, -1)),
        ((4, 3), (1, 4), (2, 2, 3)),
        ((4, 3), (1, 4), (12,)),
        ((2, 2, 4), (12, 4, 1), (2, 8)),
        ((2, 2, 4), (12, 4, 1), (2, 2, 2, 2)),
        ((2, 2, 4), (12, 4, 1), (4, 4)),
        ((3, 4), (0, 1), (3, 2, 2)),
        ((3, 4), (0, 1), (12,)),
        ((2, 3), (3, 1), (1, 2, 1, 3, 1)),
        ((1, 6), (99, 1), (2, 3)),
        ((2, 1, 3), (3, 7, 1), (6,)),
        ((), (), (1, 1)),
        ((2, 3), (3, 1), (4, -1)),
        ((2, 3), (3, 1), (5,)),
        ((3, 2, 2), (4, 2, 1), (3, 4)),
        ((3, 2, 2), (2, 6, 1), (6, 2)),
        ((3, 2, 2), (2, 6, 1), (3, 1, 2, 2)),
    ]

    def cases(self):
        out = []
        for s, st, n in self.ARGS:
            hint = None
            if not s:
                hint = "0 维张量只有一个元素，view 成任何只含一个元素的形状都可以：每一维的步幅是多少？"
            elif -1 in n or math.prod(n) != math.prod(s):
                hint = "先看元素个数：-1 代表的长度能不能由其余各维整除得到？元素个数不等时 view 一定失败。"
            out.append(Case(f"strides_after_view(shape={s}, stride={st}, new_shape={n})", (s, st, n), hint=hint))
        return out

    def observe(self, ns, case):
        shape, stride, new_shape = case.data
        return call(ns["strides_after_view"], tuple(shape), tuple(stride), tuple(new_shape),
                    convert=lambda r: shape_of(r) if r is not None else r)

    def expect(self, case):
        out = view_strides(*case.data)
        return {"returns": None if out is None else list(out), "can_view": out is not None}

    def judge(self, got, want, case):
        if "raises" in got:
            return "不应该抛出异常：view 不成立时返回 None"
        g = got.get("returns")
        if not want["can_view"]:
            return None if g is None else "这个 view 做不到（PyTorch 会报错），应该返回 None"
        if g is None:
            return "这个 view 做得到，应该返回步幅元组，而不是 None"
        if not isinstance(g, list):
            return "应该返回一个由整数组成的元组"
        if len(g) != len(want["returns"]):
            return f"步幅的个数应该等于新形状的维数 {len(want['returns'])}"
        return None if g == want["returns"] else "步幅不对"

    def show(self, value):
        if "can_view" in value:
            return "返回 None（view 会报错）" if not value["can_view"] else fmt({"returns": value["returns"]})
        if value.get("returns", 0) is None and "raises" not in value:
            return "返回 None"
        return fmt(value)


class Q3(Question):
    name = "q3"
    title = "expand 的步幅"
    points = 2
    needs = ("strides_after_expand",)
    hint = ("expand 不复制数据：沿被拉长的维度走一步，读到的还是同一个元素，所以这一步在内存里跨过几个元素？"
            "长度不变的维度（包括写成 -1 的），步幅也不变。")
    hint2 = ("把原形状和新形状右对齐。原来长度为 1、现在变长的维度，步幅是 0；左边新加的维度，长度大于 1 时步幅是 0，"
             "长度为 1 时取“假如在这里连续”的步幅，即右边一维的长度乘以右边一维的步幅。"
             "0 维张量扩展后，每一维的步幅都是 0。")
    forbid = Forbid(calls=("expand_strides",), tensors=True,
                    why="请只用 Python 的元组和整数，自己算出步幅（不要创建张量，也不要调用 course_lib.core）。")

    ARGS = [
        ((3, 1), (1, 1), (3, 4)),
        ((3, 1), (1, 1), (2, 3, 4)),
        ((3, 1), (1, 1), (3, -1)),
        ((4,), (1,), (2, 4)),
        ((4,), (2,), (3, -1)),
        ((1,), (1,), (5,)),
        ((2, 1, 3), (3, 3, 1), (2, 4, 3)),
        ((2, 3), (1, 2), (-1, 3)),
        ((2, 3), (3, 1), (1, -1, 3)),
        ((3, 1), (1, 1), (1, 3, 5)),
        ((3, 1), (1, 7), (2, 1, 3, 4)),
        ((1, 1), (5, 5), (1, 1, 1)),
        ((), (), (2, 3)),
        ((), (), (1,)),
        ((2, 3), (3, 1), (2, 3)),
    ]

    def cases(self):
        out = []
        for s, st, sizes in self.ARGS:
            hint = None
            if not s:
                hint = "0 维张量只有一个元素：扩展之后，沿哪一维走都读到这同一个元素。"
            elif len(sizes) > len(s) and 1 in sizes[:len(sizes) - len(s)]:
                hint = ("左边新加的、长度为 1 的维度永远不会被“走一步”，PyTorch 仍然给它一个步幅："
                        "假如张量在这里是连续的，它的步幅应该是多少？")
            out.append(Case(f"strides_after_expand(shape={s}, stride={st}, sizes={sizes})", (s, st, sizes),
                            hint=hint))
        return out

    def observe(self, ns, case):
        shape, stride, sizes = case.data
        return call(ns["strides_after_expand"], tuple(shape), tuple(stride), tuple(sizes), convert=shape_of)

    def expect(self, case):
        return Returns(list(expand_strides(*case.data)))


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _graph_case_label(name, call_text):
    graph = GRAPHS[name]
    return f"{call_text}，其中 {graph_code(graph)}（{_leaves_label(graph)}）"


_ENGINE_CALLS = ("backward", "autograd", "run_backward", "engine")


class Q4(Question):
    name = "q4"
    title = "反向传播按什么顺序运行节点"
    points = 3
    needs = ("backward_order",)
    hint = ("引擎先数出每个节点有几条边指向它（依赖数），只有依赖数降到 0 的节点才就绪；"
            "就绪的节点里，叶节点的累加节点最先运行，其余的越晚创建越先运行。")
    hint2 = ("从 root 出发沿 next_functions 走一遍图，记下每个节点被指向的次数（每个节点只展开一次）。"
             "然后维护一个就绪列表：每次取出优先级最高的节点，把它的每条边指向的节点的依赖数减一，减到 0 就放进列表。"
             "created 里的位置就是创建的先后；不在 created 里的节点是叶节点的累加节点。")
    forbid = Forbid(calls=_ENGINE_CALLS + ("register_hook", "register_prehook"),
                    why="请自己按依赖数和优先级排出顺序，不要运行反向传播，也不要用钩子记录。")

    GRAPH_NAMES = ["chain", "two_branches", "reused_leaf", "diamond", "late_branch", "constant", "broadcast", "divide"]

    def cases(self):
        return [Case(_graph_case_label(g, "backward_order(loss.grad_fn, created)"), g) for g in self.GRAPH_NAMES]

    def observe(self, ns, case):
        graph = GRAPHS[case.data]
        env = build_graph(graph, tensor_lib(ns))
        labels = _node_labels(graph, env)
        created = [env[var].grad_fn for var, *_ in graph["steps"]]
        root = created[-1]

        def read(result):
            if not isinstance(result, (list, tuple)):
                return {"type": type(result).__name__}
            return [{"type": "str"} if isinstance(n, str) else labels.get(n, "?") if _hashable(n) else "?"
                    for n in result]
        return call(ns["backward_order"], root, list(created), convert=read)

    def expect(self, case):
        return Returns(expected_order(GRAPHS[case.data]))

    def judge(self, got, want, case):
        g, w = got.get("returns"), want["returns"]
        if not isinstance(g, list):
            return "应该返回一个列表，按运行的先后列出节点"
        if any(isinstance(n, dict) for n in g):
            return "列表里应该是节点对象本身（像 loss.grad_fn 那样的对象），不是节点的名字"
        if "?" in g:
            return "列表里有不属于这张图的对象"
        if len(g) != len(w):
            return f"这张图有 {len(w)} 个节点，每个节点恰好运行一次；得到 {len(g)} 个"
        for i, (a, b) in enumerate(zip(g, w)):
            if a != b:
                return f"第 {i + 1} 个运行的节点应为 {b}，得到 {a}"
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, list):
            return "[" + ", ".join(x if isinstance(x, str) else "一个字符串" for x in r) + "]"
        return fmt(value)


class Q5(Question):
    name = "q5"
    title = "手写一次反向传播"
    points = 3
    needs = ("manual_backward",)
    hint = ("一个节点要收齐所有指向它的边送来的梯度（加在一起）才能运行；调用节点得到的梯度，"
            "与它的 next_functions 一一对应；叶节点的累加节点收到梯度后，要加进叶节点已有的梯度里，而不是覆盖。")
    hint2 = ("先像上一题那样数出依赖数，再用一个字典给每个节点攒梯度，依赖数降到 0 的节点才调用；"
             "调用节点公式时关掉计算图的记录（和引擎一样）。叶节点被广播过时，节点给出的梯度还是广播后的形状："
             "沿被拉伸的维度求和，变回叶节点的形状（第 05 章），再加进叶节点的梯度。")
    forbid = Forbid(calls=_ENGINE_CALLS, why="请沿着 next_functions 自己调用每个节点的公式，不要运行反向传播。")
    rtol, atol = 1e-4, 1e-5

    GRAPH_NAMES = ["chain", "two_branches", "reused_leaf", "diamond", "constant", "broadcast", "old_grads", "divide"]

    def cases(self):
        out = []
        for g in self.GRAPH_NAMES:
            stretched = broadcast_leaves(GRAPHS[g])
            hint = None
            if stretched:
                hint = (f"这张图里 {'、'.join(stretched)} 在前向传播中被广播过：节点公式给出的梯度是广播后的形状，"
                        "交给叶节点之前，要沿被拉伸的维度求和，变回叶节点的形状（第 05 章）。")
            out.append(Case(_graph_case_label(g, "manual_backward(loss.grad_fn)"), g, hint=hint))
        return out

    def observe(self, ns, case):
        graph = GRAPHS[case.data]
        env = build_graph(graph, tensor_lib(ns))
        def grads():
            return {name: None if env[name].grad is None else snap(env[name].grad) for name in graph["leaves"]}
        before = grads()
        ok, result = attempt(ns["manual_backward"], env[graph["steps"][-1][0]].grad_fn)
        if not ok:
            return result
        after = grads()
        if after == before and (result is None or result is Ellipsis):
            return NOTHING                  # an untouched ``...`` body: nothing happened
        return {"returns": after}

    def expect(self, case):
        graph = GRAPHS[case.data]
        want = {name: None for name in graph["leaves"]}
        for name, g in expected_grads(graph).items():
            want[name] = snap_array(np.asarray(g).astype(np.float32), "torch.float32")
        return Returns(want)

    def judge(self, got, want, case):
        graph = GRAPHS[case.data]
        g, w = got.get("returns"), want["returns"]
        if g is None:
            return "没有一个叶节点的 .grad 被改动：梯度最后要加进每个需要梯度的叶节点的 .grad"
        for name, spec in graph["leaves"].items():
            mine, right = g.get(name), w[name]
            if right is None:
                if mine is not None:
                    return Problem(f"{name}.grad 应该仍是 None：{name} 不需要梯度",
                                   hint="next_functions 里 (None, 0) 这样的边表示那个输入不需要梯度，"
                                        "不要往那里送梯度。")
                continue
            if mine is None:
                return f"{name}.grad 还是 None：梯度没有加进这个叶节点"
            problem = compare({"returns": mine}, {"returns": right}, self.rtol, self.atol)
            if problem is None:
                continue
            if "grad" in spec and mine.get("shape") == right["shape"]:
                fresh = np.asarray(right["values"]) - np.asarray(spec["grad"], dtype=np.float32)
                if np.allclose(np.asarray(mine["values"]), fresh, rtol=1e-4, atol=1e-5):
                    return Problem(f"{name}.grad：原有的梯度被覆盖了", hint=(
                        "这个叶节点的 .grad 里原来就有梯度。累加节点做的是“加进去”（第 06 章：梯度会累加），"
                        "不是替换。"))
            if mine.get("shape") != right["shape"]:
                return Problem(f"{name}.grad：{problem}", hint=(
                    f"{name} 在前向传播里被广播过。节点公式给出的梯度是广播后的形状，"
                    "引擎在把梯度交给叶节点之前，会沿被拉伸的维度求和（第 05 章）。"))
            return f"{name}.grad：{problem}"
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict):
            return "，".join(f"{k}.grad = " + ("None" if v is None else fmt(v)) for k, v in r.items())
        return fmt(value)


QUESTIONS = [Q1, Q2, Q3, Q4, Q5]
