"""Tests for chapter 05 exercises: broadcasting."""

import numpy as np

from ..core import Case, Forbid, Prediction, Question, Raises, Returns, call, shape_of, snap, snap_array, tensor_lib
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
    hint = ("从最右边的维度开始一对一对比较：两个长度满足什么条件才能广播，结果取哪一个？"
            "维数少的一方缺的维度怎么办？都不满足时要 raise RuntimeError。")
    hint2 = ("先在较短的形状左边补 1，让两个形状一样长，再逐位比较：相等，或者有一个是 1，才可以；"
             "结果取不是 1 的那个（有一个是 0、另一个是 1 时取 0）。")
    forbid = Forbid(calls=("broadcast_shapes", "broadcast_tensors", "broadcast_to", "broadcast"), tensors=True,
                    why="请只用 Python 的元组和整数，按题目里的三条规则自己实现。")

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
    hint = "每一项都可以在新单元格里用 torch.ones(形状) 造两个张量相加试一试；不能广播时答 None。"
    hint2 = "从右往左逐位比较两个形状：相等或有一个是 1 才行，维数少的一方在左边补 1；结果每一位取不是 1 的那个。"
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
    hint = ("如果能得到一个形状为 (n, m, d) 的张量，第 [i, j] 个位置放着 a[i] - b[j]，剩下的就简单了。"
            "给 a、b 各插入一个长度为 1 的维度，相减时广播会怎样对齐？")
    hint2 = "给 a 在第 1 维、b 在第 0 维各插入一个长度为 1 的维度，相减之后按元素平方，再沿最后一维（坐标那一维）求和。"
    forbid = Forbid(calls=("cdist",), loops=True, why="请用广播一次算出所有点对之间的距离。")
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
        torch = tensor_lib(ns)
        return call(ns["pairwise_sq_dist"], make_tensor(a, torch), make_tensor(b, torch), convert=snap)

    def expect(self, case):
        a, b = (np.array(s["values"], dtype=np.float64) for s in case.data)
        d = ((a[:, None, :] - b[None, :, :]) ** 2).sum(-1)
        return Returns(snap_array(d.astype(np.float32), "torch.float32"))


class Q4(Question):
    name = "q4"
    title = "修复：每行减去该行的均值"
    points = 1
    needs = ("center_rows",)
    hint = ("x.mean(dim=1) 的形状是什么？它和形状为 (n, m) 的 x 相减时从右边对齐，对齐到的是行还是列？"
            "为什么方阵时不报错，结果却不对？")
    hint2 = "让均值保留被归约掉的那一维（长度变成 1），它就是一列，相减时会沿每一行广播。"
    rtol, atol = 1e-5, 1e-5

    SHAPES = [(3, 3), (2, 4), (4, 2), (1, 5), (5, 1), (2, 2)]

    def cases(self):
        out = []
        for i, shape in enumerate(self.SHAPES):
            spec = {"values": rng_values(110 + i, shape), "dtype": "float32"}
            out.append(Case(f"center_rows({label_tensor(spec)})", spec))
        return out

    def observe(self, ns, case):
        return call(ns["center_rows"], make_tensor(case.data, tensor_lib(ns)), convert=snap)

    def expect(self, case):
        a = np.array(case.data["values"], dtype=np.float64)
        return Returns(snap_array((a - a.mean(axis=1, keepdims=True)).astype(np.float32), "torch.float32"))


class Q5(Question):
    name = "q5"
    title = "把广播后的梯度加回原形状"
    points = 2
    needs = ("sum_to_shape",)
    hint = ("grad 比 shape 多出来的维度（在左边），以及 shape 里长度为 1、grad 里却更长的维度，都是广播“拉伸”出来的。"
            "沿被拉伸的方向，梯度应该怎样合并成一个？")
    hint2 = ("先把左边多出来的维度全部求和掉；再对 shape 里长度为 1 的维度求和，"
             "并保留这一维；最后结果的形状应该正好是 shape。")
    forbid = Forbid(calls=("sum_to_size", "backward", "autograd"),
                    why="请自己用求和把梯度变回 shape（不要用 sum_to_size，也不要借助自动微分）。")

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
        return call(ns["sum_to_shape"], make_tensor(spec, tensor_lib(ns)), tuple(shape), convert=snap)

    def expect(self, case):
        spec, shape = case.data
        g = np.array(spec["values"], dtype=np.float64)
        lead = g.ndim - len(shape)
        g = g.sum(axis=tuple(range(lead)))
        axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
        g = g.sum(axis=axes, keepdims=True)
        return Returns(snap_array(g.reshape(shape).astype(np.float32), "torch.float32"))


QUESTIONS = [Q1, Q2, Q3, Q4, Q5]
