"""Tests for chapter 04 exercises: operations and shapes (matmul rules, reductions, permute, squeeze)."""

import numpy as np

from ..core import Case, Forbid, Prediction, Question, Raises, Returns, call, shape_of, snap, snap_array, tensor_lib
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
    hint = ("先看失败的这个用例属于题目里的哪一种情形：两个都是 1 维？一个是 1 维？还是有“批量”维？"
            "1 维的一方在计算中临时补了哪一维，最后又去掉了哪一维？形状不合法时要 raise RuntimeError。")
    hint2 = ("把 1 维的一方先补成 2 维（放在左边补成一行，放在右边补成一列），检查最后两维能不能相乘，"
             "前面的批量维按广播规则（从右对齐、相等或有一个是 1）合并，最后再把补上的那一维去掉。")
    forbid = Forbid(tensors=True, why="请只用 Python 的元组和整数，按题目里的规则自己算出形状。")

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
    hint = "运行答错的表达式，打印 .shape 验证；想一想哪一维被“消掉”了，哪一维被保留成 1，哪一维被移动了。"
    hint2 = ("沿一维归约（sum、mean、max）会去掉那一维，keepdim=True 则把它留成长度 1；不带参数的 squeeze() "
             "去掉所有长度为 1 的维度，给了维度时只在那一维长度为 1 时才去掉；cat 沿已有的维度拼接，stack 新增一维；"
             "@ 只改变最后两维。")
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
    hint = ("除法的两边要能按广播对齐：沿最后一维求和之后，结果是什么形状？它和 x 从右边对齐时，对上的是哪一维？"
            "有没有办法让求和之后那一维还在？")
    hint2 = ("求和时让被求和的那一维留下来、长度变成 1（第 04 章讲过求和函数的这个参数），"
             "除法时它就会被广播到那一维的每个元素上。")

    SHAPES = [(3,), (2, 4), (2, 3, 5), (1, 1), (4, 1)]

    def cases(self):
        out = []
        for i, shape in enumerate(self.SHAPES):
            spec = {"values": rng_values(50 + i, shape, 0.5, 5.0), "dtype": "float32"}
            out.append(Case(f"normalize_last({label_tensor(spec)})", spec))
        return out

    def observe(self, ns, case):
        return call(ns["normalize_last"], make_tensor(case.data, tensor_lib(ns)), convert=snap)

    def expect(self, case):
        a = np.array(case.data["values"], dtype=np.float64)
        return Returns(snap_array((a / a.sum(axis=-1, keepdims=True)).astype(np.float32), "torch.float32"))


class Q4(Question):
    name = "q4"
    title = "批量外积"
    points = 2
    needs = ("batch_outer",)
    hint = ("out[k, i, j] = a[k, i] * b[k, j]：如果 a 多出一个长度为 1 的维度对着 j，b 多出一个长度为 1 的维度对着 i，"
            "两者按元素相乘时，广播会把它们拉伸成什么形状？")
    hint2 = "给 a 在最后插入一个长度为 1 的维度，给 b 在中间插入一个长度为 1 的维度，再按元素相乘。"
    forbid = Forbid(loops=True, why="请用广播或现成的矩阵乘法一次算出整个批量。")

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
        torch = tensor_lib(ns)
        return call(ns["batch_outer"], make_tensor(a, torch), make_tensor(b, torch), convert=snap)

    def expect(self, case):
        a, b = (np.array(s["values"], dtype=np.float64) for s in case.data)
        return Returns(snap_array(np.einsum("bi,bj->bij", a, b).astype(np.float32), "torch.float32"))


class Q5(Question):
    name = "q5"
    title = "修复：通道维挪到最后"
    points = 1
    needs = ("channels_last",)
    hint = ("view 只是按原来的顺序把元素重新“切”成新形状，并不交换维度，所以形状对了、数值却乱了。"
            "哪个操作能改变维度的先后顺序？")
    hint2 = ("把原来的第 0 维（通道）挪到最后，其余两维保持原来的顺序："
             "第 04 章讲过一个按给定顺序重新排列所有维度的方法。")

    SHAPES = [(3, 2, 2), (1, 4, 5), (3, 1, 1), (2, 3, 4)]

    def cases(self):
        out = []
        for shape in self.SHAPES:
            spec = {"values": np.arange(np.prod(shape)).reshape(shape).tolist(), "dtype": "int64"}
            out.append(Case(f"channels_last(torch.arange({int(np.prod(shape))}).view{shape})", spec))
        return out

    def observe(self, ns, case):
        return call(ns["channels_last"], make_tensor(case.data, tensor_lib(ns)), convert=snap)

    def expect(self, case):
        a = np.array(case.data["values"], dtype=np.int64)
        return Returns(snap_array(a.transpose(1, 2, 0), "torch.int64"))


class Q6(Question):
    name = "q6"
    title = "每行有几个数超过阈值"
    points = 1
    needs = ("count_above",)
    hint = "比较运算会得到什么样的张量？True 和 False 参与求和时分别算作几？要数的是每一行里的个数，该沿哪一维求和？"
    hint2 = "先按元素比较得到布尔张量，再在每一行内部（沿列的方向）求和；布尔值求和的结果已经是整数。"

    ARGS = [((3, 4), 0.0), ((1, 5), 1.0), ((4, 1), -0.5), ((2, 6), 2.5), ((3, 3), 10.0)]

    def cases(self):
        out = []
        for i, (shape, threshold) in enumerate(self.ARGS):
            spec = {"values": rng_values(80 + i, shape), "dtype": "float32"}
            out.append(Case(f"count_above({label_tensor(spec)}, {threshold})", (spec, threshold)))
        return out

    def observe(self, ns, case):
        spec, threshold = case.data
        return call(ns["count_above"], make_tensor(spec, tensor_lib(ns)), threshold, convert=snap)

    def expect(self, case):
        spec, threshold = case.data
        a = np.array(spec["values"], dtype=np.float32)
        return Returns(snap_array((a > threshold).sum(axis=1).astype(np.int64), "torch.int64"))


QUESTIONS = [Q1, Q2, Q3, Q4, Q5, Q6]
