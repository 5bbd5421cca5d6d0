"""Tests for chapter 04 exercises: operations and shapes (matmul rules, reductions, permute, squeeze)."""

import numpy as np

from ..core import Case, Prediction, Question, Raises, Returns, call, shape_of, snap, snap_array
from ._util import label_tensor, make_tensor, rng_values

__all__ = ["QUESTIONS"]


def _np_matmul_shape(a, b):
    """The shape of ``torch.matmul`` on shapes ``a`` and ``b`` (NumPy's matmul follows the same rules)."""
    if len(a) == 0 or len(b) == 0:
        return None
    try:
        return list(np.matmul(np.zeros(a), np.zeros(b)).shape)
    except ValueError:
        return None


class Q1(Question):
    name = "q1"
    title = "矩阵乘法的结果形状"
    points = 2
    needs = ("matmul_shape",)
    hint = ("1 维和 1 维得到标量 ()；2 维和 1 维得到向量；1 维放在左边时先当作 (1, n)、算完再去掉这一维；"
            "更多维时最后两维做矩阵乘法，前面的“批量”维按广播规则对齐。形状不合法时 raise RuntimeError。")

    ARGS = [
        ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)),
        ((2, 1, 3, 4), (5, 4, 2)), ((3,), (2, 3, 4)), ((2, 3, 4), (4,)), ((2, 3), (2, 3)),
        ((2, 3, 4), (3, 4, 5)), ((4,), (5,)), ((), (3,)), ((1, 4, 2), (3, 2, 6)),
    ]

    def cases(self):
        return [Case(f"matmul_shape({a}, {b})", (a, b)) for a, b in self.ARGS]

    def observe(self, ns, case):
        a, b = case.data
        return call(ns["matmul_shape"], tuple(a), tuple(b), convert=shape_of)

    def expect(self, case):
        shape = _np_matmul_shape(*case.data)
        return Raises("RuntimeError") if shape is None else Returns(shape)


class Q2(Prediction):
    name = "q2"
    title = "预测结果的形状"
    points = 1
    needs = ("q2_answers",)
    hint = "运行这个表达式，打印 .shape 验证；想一想哪一维被“消掉”了，哪一维被保留成 1，哪一维被移动了。"
    items = {
        "a": ("x.sum(dim=1)", [2, 4]),
        "b": ("x.sum(dim=1, keepdim=True)", [2, 1, 4]),
        "c": ("x.mean()", []),
        "d": ("x.permute(2, 0, 1)", [4, 2, 3]),
        "e": ("torch.ones(1, 3, 1, 2).squeeze()", [3, 2]),
        "f": ("torch.ones(1, 3, 1, 2).squeeze(1)", [1, 3, 1, 2]),
        "g": ("x.unsqueeze(-1)", [2, 3, 4, 1]),
        "h": ("x.max(dim=0).values", [3, 4]),
        "i": ("torch.cat([x, x], dim=2)", [2, 3, 8]),
        "j": ("torch.stack([x, x])", [2, 2, 3, 4]),
        "k": ("x @ torch.ones(4, 5)", [2, 3, 5]),
    }

    def normalize(self, value):
        return shape_of(value)


class Q3(Question):
    name = "q3"
    title = "沿最后一维归一化"
    points = 1
    needs = ("normalize_last",)
    hint = "用 x.sum(dim=-1, keepdim=True)：保留那一维（长度为 1），除法时才能按广播对齐到每个元素。"

    SHAPES = [(3,), (2, 4), (2, 3, 5), (1, 1), (4, 1)]

    def cases(self):
        out = []
        for i, shape in enumerate(self.SHAPES):
            spec = {"values": rng_values(50 + i, shape, 0.5, 5.0), "dtype": "float32"}
            out.append(Case(f"normalize_last({label_tensor(spec)})", spec))
        return out

    def observe(self, ns, case):
        return call(ns["normalize_last"], make_tensor(case.data), convert=snap)

    def expect(self, case):
        a = np.array(case.data["values"], dtype=np.float64)
        return Returns(snap_array((a / a.sum(axis=-1, keepdims=True)).astype(np.float32), "torch.float32"))


class Q4(Question):
    name = "q4"
    title = "批量外积"
    points = 2
    needs = ("batch_outer",)
    hint = "a 变成 (B, n, 1)，b 变成 (B, 1, m)（unsqueeze），相乘时广播成 (B, n, m)；也可以用 torch.matmul。"

    SIZES = [(2, 3, 4), (1, 2, 2), (3, 1, 5), (4, 3, 1), (2, 1, 1)]

    def cases(self):
        out = []
        for i, (B, n, m) in enumerate(self.SIZES):
            a = {"values": rng_values(60 + i, (B, n)), "dtype": "float32"}
            b = {"values": rng_values(70 + i, (B, m)), "dtype": "float32"}
            out.append(Case(f"batch_outer(a 形状 {(B, n)}, b 形状 {(B, m)})", (a, b)))
        return out

    def observe(self, ns, case):
        a, b = case.data
        return call(ns["batch_outer"], make_tensor(a), make_tensor(b), convert=snap)

    def expect(self, case):
        a, b = (np.array(s["values"], dtype=np.float64) for s in case.data)
        return Returns(snap_array(np.einsum("bi,bj->bij", a, b).astype(np.float32), "torch.float32"))


class Q5(Question):
    name = "q5"
    title = "修复：通道维挪到最后"
    points = 1
    needs = ("channels_last",)
    hint = ("view/reshape 只是按原来的顺序重新“切”元素，并不会交换维度，所以结果形状对了、数值却乱了；"
            "交换维度要用 permute。")

    SHAPES = [(3, 2, 2), (1, 4, 5), (3, 1, 1), (2, 3, 4)]

    def cases(self):
        out = []
        for shape in self.SHAPES:
            spec = {"values": np.arange(np.prod(shape)).reshape(shape).tolist(), "dtype": "int64"}
            out.append(Case(f"channels_last(torch.arange({int(np.prod(shape))}).view{shape})", spec))
        return out

    def observe(self, ns, case):
        return call(ns["channels_last"], make_tensor(case.data), convert=snap)

    def expect(self, case):
        a = np.array(case.data["values"], dtype=np.int64)
        return Returns(snap_array(a.transpose(1, 2, 0), "torch.int64"))


class Q6(Question):
    name = "q6"
    title = "每行有几个数超过阈值"
    points = 1
    needs = ("count_above",)
    hint = "x > threshold 得到布尔张量；对它沿 dim=1 求和就是每行 True 的个数（结果是 int64）。"

    ARGS = [((3, 4), 0.0), ((1, 5), 1.0), ((4, 1), -0.5), ((2, 6), 2.5), ((3, 3), 10.0)]

    def cases(self):
        out = []
        for i, (shape, threshold) in enumerate(self.ARGS):
            spec = {"values": rng_values(80 + i, shape), "dtype": "float32"}
            out.append(Case(f"count_above({label_tensor(spec)}, {threshold})", (spec, threshold)))
        return out

    def observe(self, ns, case):
        spec, threshold = case.data
        return call(ns["count_above"], make_tensor(spec), threshold, convert=snap)

    def expect(self, case):
        spec, threshold = case.data
        a = np.array(spec["values"], dtype=np.float32)
        return Returns(snap_array((a > threshold).sum(axis=1).astype(np.int64), "torch.int64"))


QUESTIONS = [Q1, Q2, Q3, Q4, Q5, Q6]
