"""Tests for chapter 05 exercises: broadcasting."""

import numpy as np

from ..core import Case, Prediction, Question, Raises, Returns, call, shape_of, snap, snap_array
from ._util import label_tensor, make_tensor, rng_values

__all__ = ["QUESTIONS"]


def _np_broadcast(*shapes):
    try:
        return list(np.broadcast_shapes(*[tuple(s) for s in shapes]))
    except ValueError:
        return None


class Q1(Question):
    name = "q1"
    title = "广播后的形状"
    points = 2
    needs = ("broadcast_shape",)
    hint = ("从最右边的维度开始一对一对比较：相等、或其中一个是 1 就可以（结果取较大的）；"
            "维数少的一方在左边补 1；都不满足就 raise RuntimeError。")

    ARGS = [
        ((3, 1), (1, 4)), ((5,), (2, 1)), ((), (3,)), ((2, 3), (3, 2)), ((5, 1, 4), (3, 1)),
        ((8, 1, 6, 1), (7, 1, 5)), ((4, 3), (4,)), ((1,), (0,)), ((2, 0), (1, 1)), ((3,), (3,)),
        ((2, 1), (3, 1, 1)), ((4, 1), (2, 1, 3)), ((6, 5), (5, 6)),
    ]

    def cases(self):
        return [Case(f"broadcast_shape({a}, {b})", (a, b)) for a, b in self.ARGS]

    def observe(self, ns, case):
        a, b = case.data
        return call(ns["broadcast_shape"], tuple(a), tuple(b), convert=shape_of)

    def expect(self, case):
        shape = _np_broadcast(*case.data)
        return Raises("RuntimeError") if shape is None else Returns(shape)


class Q2(Prediction):
    name = "q2"
    title = "预测：能广播吗？结果是什么形状？"
    points = 1
    needs = ("q2_answers",)
    hint = "每一项都可以在新单元格里用 torch.ones(形状) 试一试；不能广播时答 None。"
    items = {
        "a": ("(3, 1) 与 (4,)", [3, 4]),
        "b": ("(2, 3) 与 (3, 2)", None),
        "c": ("(5, 1, 4) 与 (3, 1)", [5, 3, 4]),
        "d": ("() 与 (2, 2)", [2, 2]),
        "e": ("(4, 3) 与 (4,)", None),
        "f": ("(2, 1, 3) 与 (4, 1)", [2, 4, 3]),
        "g": ("(1, 6) 与 (6, 1)", [6, 6]),
        "h": ("(0,) 与 (1,)", [0]),
    }

    def normalize(self, value):
        return None if value is None else shape_of(value)


class Q3(Question):
    name = "q3"
    title = "两组点之间的距离平方"
    points = 2
    needs = ("pairwise_sq_dist",)
    hint = ("把 a 变成 (n, 1, d)、b 变成 (1, m, d)，相减得到 (n, m, d)，平方后沿最后一维求和。"
            "不要写 Python 循环。")
    rtol, atol = 1e-4, 1e-4

    SIZES = [(3, 4, 2), (1, 5, 3), (4, 1, 1), (5, 5, 4), (2, 3, 1)]

    def cases(self):
        out = []
        for i, (n, m, d) in enumerate(self.SIZES):
            a = {"values": rng_values(90 + i, (n, d)), "dtype": "float32"}
            b = {"values": rng_values(100 + i, (m, d)), "dtype": "float32"}
            out.append(Case(f"pairwise_sq_dist(a 形状 {(n, d)}, b 形状 {(m, d)})", (a, b)))
        return out

    def observe(self, ns, case):
        a, b = case.data
        return call(ns["pairwise_sq_dist"], make_tensor(a), make_tensor(b), convert=snap)

    def expect(self, case):
        a, b = (np.array(s["values"], dtype=np.float64) for s in case.data)
        d = ((a[:, None, :] - b[None, :, :]) ** 2).sum(-1)
        return Returns(snap_array(d.astype(np.float32), "torch.float32"))


class Q4(Question):
    name = "q4"
    title = "修复：每行减去该行的均值"
    points = 1
    needs = ("center_rows",)
    hint = ("x.mean(dim=1) 的形状是 (n,)，和 (n, m) 对齐时是从右边对齐的，于是减去的其实是“按列”排开的均值："
            "方阵时不报错但结果错了。用 keepdim=True 得到 (n, 1)。")
    rtol, atol = 1e-5, 1e-5

    SHAPES = [(3, 3), (2, 4), (4, 2), (1, 5), (5, 1), (2, 2)]

    def cases(self):
        out = []
        for i, shape in enumerate(self.SHAPES):
            spec = {"values": rng_values(110 + i, shape), "dtype": "float32"}
            out.append(Case(f"center_rows({label_tensor(spec)})", spec))
        return out

    def observe(self, ns, case):
        return call(ns["center_rows"], make_tensor(case.data), convert=snap)

    def expect(self, case):
        a = np.array(case.data["values"], dtype=np.float64)
        return Returns(snap_array((a - a.mean(axis=1, keepdims=True)).astype(np.float32), "torch.float32"))


class Q5(Question):
    name = "q5"
    title = "把广播后的梯度加回原形状"
    points = 2
    needs = ("sum_to_shape",)
    hint = ("反向传播时，被广播“拉伸”过的输入，其梯度要把拉伸的方向加起来：先对多出来的前导维求和，"
            "再对 shape 里长度为 1（而 grad 里不是 1）的维度用 keepdim=True 求和。")

    ARGS = [((3, 4), (4,)), ((3, 4), (3, 1)), ((2, 3, 4), (3, 1)), ((2, 3, 4), ()), ((5,), (5,)),
            ((2, 3, 4), (1, 3, 1)), ((2, 1, 4), (1, 4)), ((3, 2), (1, 1))]

    def cases(self):
        out = []
        for i, (gshape, shape) in enumerate(self.ARGS):
            spec = {"values": rng_values(120 + i, gshape, -5, 6, integers=True), "dtype": "float32"}
            out.append(Case(f"sum_to_shape(形状为 {gshape} 的梯度, shape={shape})", (spec, shape)))
        return out

    def observe(self, ns, case):
        spec, shape = case.data
        return call(ns["sum_to_shape"], make_tensor(spec), tuple(shape), convert=snap)

    def expect(self, case):
        spec, shape = case.data
        g = np.array(spec["values"], dtype=np.float64)
        lead = g.ndim - len(shape)
        g = g.sum(axis=tuple(range(lead)))
        axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
        g = g.sum(axis=axes, keepdims=True)
        return Returns(snap_array(g.reshape(shape).astype(np.float32), "torch.float32"))


QUESTIONS = [Q1, Q2, Q3, Q4, Q5]
