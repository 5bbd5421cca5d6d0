"""Tests for chapter 03 exercises: views and copies, shapes and strides."""

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
    fmt,
    shape_of,
    snap,
    snap_array,
    tensor_lib,
)
from ._util import label_tensor, make_tensor, rng_values

__all__ = ["QUESTIONS", "contiguous_strides", "is_contiguous", "view_strides"]


# -- independent reference rules (checked against real PyTorch in tests/test_grading_questions.py) --

def contiguous_strides(shape):
    """Row-major strides of ``shape`` (PyTorch counts a size-0 dimension as 1)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def is_contiguous(shape, stride):
    """PyTorch's ``is_contiguous`` rule: size-1 dimensions are ignored, empty tensors are contiguous."""
    if any(size == 0 for size in shape):
        return True
    expected = 1
    for size, st in zip(reversed(shape), reversed(stride)):
        if size == 1:
            continue
        if st != expected:
            return False
        expected *= size
    return True


def view_strides(shape, stride, new_shape):
    """The strides ``view(new_shape)`` gives a tensor of ``shape``/``stride``, or None if view must fail.

    ATen's ``computeStride`` for tensors with at least one dimension and one element: group the old
    dimensions into chunks that are contiguous with each other, and require every chunk to be
    split/merged exactly by consecutive new dimensions.
    """
    if int(np.prod(shape)) != int(np.prod(new_shape)):
        return None
    new_stride = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base = stride[-1]
    tensor_numel, view_numel = 1, 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and stride[d - 1] != tensor_numel * chunk_base):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_stride[view_d] = view_numel * chunk_base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                chunk_base = stride[d - 1]
                tensor_numel, view_numel = 1, 1
    if view_d != -1:
        return None
    return tuple(new_stride)


class Q1(Prediction):
    name = "q1"
    title = "预测：和 x 共享内存吗？"
    points = 1
    needs = ("q1_answers",)
    hint = ("每一项都可以动手验证：把结果存进一个变量，改动它的一个元素，再看 x 变没变。"
            "判断之前先问自己：这个操作需要把元素搬到新的位置、或者算出新的数值吗？")
    hint2 = ("只改变“怎样看”同一块内存（形状、步幅、起始位置）的操作得到视图；要按新的顺序摆放元素、"
             "或者算出新数值的操作得到新内存；还有的操作只在必要时才复制，它的结果取决于输入是否连续。")
    items = {
        "a": ("x[1]", True),
        "b": ("x[:, [0, 2]]", False),
        "c": ("x.t()", True),
        "d": ("x.reshape(6)", True),
        "e": ("x.t().reshape(6)", False),
        "f": ("x.clone()", False),
        "g": ("x.detach()", True),
        "h": ("x.flatten()", True),
        "i": ("x + 0", False),
        "j": ("x.t().contiguous()", False),
    }


class Q2(Question):
    name = "q2"
    title = "行优先的步幅"
    points = 1
    needs = ("row_major_strides",)
    hint = ("在连续张量里沿最后一维走一步，内存里跨过几个元素？沿倒数第二维走一步呢？"
            "它和后面各维的长度有什么关系？")
    hint2 = "从最后一维往前算：最后一维的步幅是 1，每往前一维，就乘上它后面那一维的长度。"
    forbid = Forbid(tensors=True, why="请只用 Python 的元组和整数，自己算出步幅。")

    SHAPES = [(2, 3, 4), (5,), (), (3, 1, 2), (1, 1), (7, 2, 1, 3), (4, 6), (2, 0, 3)]

    def cases(self):
        zero_hint = "长度为 0 的维度在计算步幅时按 1 算，和 torch.empty(2, 0, 3).stride() 一样。"
        return [Case(f"row_major_strides({s})", s, hint=zero_hint if 0 in s else None) for s in self.SHAPES]

    def observe(self, ns, case):
        return call(ns["row_major_strides"], tuple(case.data), convert=shape_of)

    def expect(self, case):
        return Returns(list(contiguous_strides(case.data)))


class Q3(Question):
    name = "q3"
    title = "从形状和步幅判断是否连续"
    points = 2
    needs = ("is_contiguous_layout",)
    hint = ("连续的意思是：步幅恰好是按行优先排列时的步幅。从最后一维往前，你期望看到的步幅分别是多少？"
            "哪些维度的步幅根本不会被用到？")
    hint2 = ("从最后一维往前走，期望的步幅从 1 开始，每走过一维就乘上它的长度；"
             "长度为 1 的维度跳过不比较；没有元素的张量直接算连续。")
    forbid = Forbid(tensors=True, why="请只用 Python 的元组和整数，按规则自己判断。")

    ARGS = [
        ((2, 3), (3, 1)), ((2, 3), (1, 2)), ((3, 1), (1, 7)), ((2, 1, 3), (3, 99, 1)), ((4,), (2,)),
        ((), ()), ((2, 3), (6, 2)), ((1,), (5,)), ((2, 2), (0, 1)), ((3, 4), (4, 1)), ((3, 4), (8, 2)),
        ((0, 3), (5, 7)), ((2, 3, 4), (12, 4, 1)), ((2, 3, 4), (12, 1, 3)),
    ]

    def cases(self):
        return [Case(f"is_contiguous_layout(shape={s}, stride={st})", (s, st)) for s, st in self.ARGS]

    def observe(self, ns, case):
        shape, stride = case.data
        return call(ns["is_contiguous_layout"], tuple(shape), tuple(stride),
                    convert=lambda r: r if isinstance(r, bool) else {"type": type(r).__name__})

    def expect(self, case):
        return Returns(is_contiguous(*case.data))


class Q4(Question):
    name = "q4"
    title = "view 能不能成功？"
    points = 3
    needs = ("can_view",)
    hint = ("先把原来的维度分段：哪些相邻的维度在内存里“接得上”？"
            "再看新形状的每一维，能不能由某一段拆出来或者并起来，而不跨过两段。")
    hint2 = ("从右往左同时走原形状和新形状，分别累计两边的元素个数：每当原形状的一段结束，"
             "新形状这边累计的个数必须恰好相等，否则就不能 view；长度为 1 的新维度放在哪里都可以。")
    forbid = Forbid(tensors=True, why="请只用 Python 的元组和整数，按分段的规则自己判断（不要调用 try_view）。")

    ARGS = [
        ((2, 3), (3, 1), (6,)),
        ((3, 2), (1, 3), (6,)),
        ((3, 2), (1, 3), (3, 2, 1)),
        ((3, 2), (1, 3), (3, 1, 2)),
        ((4, 6), (6, 1), (2, 2, 3, 2)),
        ((4, 3), (6, 1), (2, 2, 3)),
        ((4, 3), (6, 1), (12,)),
        ((4, 3), (6, 1), (4, 3, 1)),
        ((3, 4), (0, 1), (12,)),
        ((3, 4), (0, 1), (3, 2, 2)),
        ((2, 3), (3, 1), (1, 2, 3, 1)),
        ((2, 3, 4), (12, 1, 3), (2, 12)),
        ((2, 3, 4), (12, 1, 3), (6, 4)),
        ((2, 3, 4), (1, 8, 2), (2, 12)),
    ]

    def cases(self):
        return [Case(f"can_view(shape={s}, stride={st}, new_shape={n})", (s, st, n)) for s, st, n in self.ARGS]

    def observe(self, ns, case):
        shape, stride, new_shape = case.data
        return call(ns["can_view"], tuple(shape), tuple(stride), tuple(new_shape),
                    convert=lambda r: r if isinstance(r, bool) else {"type": type(r).__name__})

    def expect(self, case):
        return Returns(view_strides(*case.data) is not None)


class Q5(Question):
    name = "q5"
    title = "修复：转置后展平"
    points = 1
    needs = ("flatten_t",)
    hint = ("读一读报错信息：view 对输入的内存布局有什么要求？"
            "转置之后的张量满足吗？有没有改形状的办法在必要时会复制数据？")
    hint2 = "第 03 章讲过一个“能不复制就不复制、必要时才复制”的改形状方法；也可以先得到一个连续的副本，再用原来的写法。"

    SHAPES = [(2, 3), (1, 4), (4, 1), (3, 3), (1, 1), (3, 5)]

    def cases(self):
        out = []
        for i, shape in enumerate(self.SHAPES):
            spec = {"values": rng_values(30 + i, shape, -9, 10, integers=True), "dtype": "int64"}
            out.append(Case(f"flatten_t({label_tensor(spec)})", spec))
        return out

    def observe(self, ns, case):
        return call(ns["flatten_t"], make_tensor(case.data, tensor_lib(ns)), convert=snap)

    def expect(self, case):
        return Returns(snap_array(np.array(case.data["values"], dtype=np.int64).T.reshape(-1), "torch.int64"))


class Q6(Question):
    name = "q6"
    title = "修复：加一却改动了原张量"
    points = 2
    needs = ("plus_one",)
    hint = ("两件事要同时做到：结果不需要梯度，而且 x 不能被改动。原地操作（+=）改的是哪块内存？"
            "有没有办法不做原地操作，一步得到一个新张量？")
    hint2 = ("先得到一个和计算图分离的张量（它和 x 共享内存，"
             "所以不能在它上面原地改），再用一次普通的（不是原地的）加法得到新张量。")

    SPECS = [
        {"values": rng_values(40, (3,)), "dtype": "float32", "requires_grad": True},
        {"values": rng_values(41, (2, 2)), "dtype": "float32"},
        {"values": [1, 2, 3, 4], "dtype": "int64"},
        {"values": rng_values(42, (2, 1, 3)), "dtype": "float64", "requires_grad": True},
    ]

    def cases(self):
        return [Case(f"plus_one({label_tensor(s)})", s) for s in self.SPECS]

    def observe(self, ns, case):
        x = make_tensor(case.data, tensor_lib(ns))
        before = snap(x)
        ok, result = attempt(ns["plus_one"], x)
        if not ok or result is None:
            return result if not ok else NOTHING
        return {"returns": snap(result, requires_grad=True), "x_unchanged": snap(x) == before}

    def expect(self, case):
        a = np.array(case.data["values"], dtype=case.data["dtype"]) + 1
        return {"returns": snap_array(a, f"torch.{case.data['dtype']}", requires_grad=False), "x_unchanged": True}

    def judge(self, got, want, case):
        if not got.get("x_unchanged", True):
            return Problem("x 被改动了：返回的结果和 x 共享内存",
                           hint=("detach() 得到的张量和 x 共享同一块内存，"
                                 "在它上面原地加，改到的就是 x。怎样得到一块新内存？"))
        r = got["returns"]
        if isinstance(r, dict) and r.get("tensor") and r.get("requires_grad"):
            return Problem("结果还需要梯度（requires_grad=True）：它还连在 x 的计算图上",
                           hint="复制出来的张量会保留“需要梯度”这个属性，所以先复制、再原地加，结果仍连着计算图。"
                                "想一想：先和计算图分离，再做一次普通的加法，会得到什么？")
        return super().judge({"returns": got["returns"]}, {"returns": want["returns"]}, case)

    def show(self, value):
        return fmt({"returns": value["returns"]}) if "returns" in value else fmt(value)


QUESTIONS = [Q1, Q2, Q3, Q4, Q5, Q6]
