"""Tests for chapter 01 exercises: tensors and how to create them."""

import numpy as np

from ..core import NOTHING, Case, Prediction, Question, Returns, call, fmt, snap, snap_array, tensor_lib
from ._util import dtype_name, label_tensor, make_tensor, rng_values

__all__ = ["QUESTIONS"]


class Q1(Prediction):
    name = "q1"
    title = "预测形状和 dtype"
    points = 1
    needs = ("q1_answers",)
    hint = "在下面新建一个单元格，运行答错的那几个表达式，再打印结果的 .shape 和 .dtype 看看，和你想的哪里不一样？"
    hint2 = ("想一想这几个问题：只写整数时，张量默认是哪种 dtype？有小数时呢？一个列表里整数和小数混在一起时呢？"
             "arange 的步长是小数时，结果跟着谁的类型？0 维张量的形状要写成空元组。")
    items = {
        "a": ("torch.zeros(2, 3)", [[2, 3], "torch.float32"]),
        "b": ("torch.tensor([1, 2, 3])", [[3], "torch.int64"]),
        "c": ("torch.tensor([[1, 2.5], [3, 4]])", [[2, 2], "torch.float32"]),
        "d": ("torch.arange(1, 10, 2)", [[5], "torch.int64"]),
        "e": ("torch.linspace(0, 1, 5)", [[5], "torch.float32"]),
        "f": ("torch.tensor(3.0)", [[], "torch.float32"]),
        "g": ("torch.full((2, 2), 7)", [[2, 2], "torch.int64"]),
        "h": ("torch.arange(0, 1, 0.25)", [[4], "torch.float32"]),
    }

    def normalize(self, value):
        if isinstance(value, tuple) and len(value) == 2:
            shape, dt = value
            shape = list(shape) if isinstance(shape, (tuple, list)) else {"type": type(shape).__name__}
            return [shape, dtype_name(dt)]
        return {"type": type(value).__name__}


class Q2(Question):
    name = "q2"
    title = "棋盘张量"
    points = 1
    needs = ("checkerboard",)
    hint = "棋盘上哪些位置是 1？它们的行号和列号的奇偶有什么关系？别忘了结果的 dtype。"
    hint2 = ("一种办法：先建一个全 0 的整数张量，再用带步长的切片把该是 1 的位置成片地赋值；"
             "另一种办法：用行号的向量和列号的向量做广播运算。")

    def cases(self):
        return [Case(f"checkerboard({n})", n) for n in (1, 2, 3, 4, 7)]

    def observe(self, ns, case):
        return call(ns["checkerboard"], case.data, convert=snap)

    def expect(self, case):
        i = np.arange(case.data)
        return Returns(snap_array((i[:, None] + i[None, :]) % 2, "torch.int64"))


class Q3(Question):
    name = "q3"
    title = "包含终点的等差序列"
    points = 2
    needs = ("inclusive_range",)
    hint = ("用小数步长时，按“步长”生成序列的函数会因为舍入误差多出或少掉一个元素。"
            "能不能先确定结果一共应该有几个元素，再用一个按“个数”生成等差序列的函数？")
    hint2 = ("元素个数是 (end - start) / step 四舍五入成整数之后再加 1（两个端点都算）；"
             "第 01 章讲过一个给出起点、终点和元素个数就能生成等差序列的函数。")

    def cases(self):
        args = [(0, 1, 0.25), (0, 0.3, 0.1), (-1, 1, 0.5), (2, 2, 1), (0, 3, 1), (1, 0.4, -0.2), (0, 0.9, 0.3),
                (1, 1.3, 0.1)]
        return [Case(f"inclusive_range{a}", a) for a in args]

    def observe(self, ns, case):
        return call(ns["inclusive_range"], *case.data, convert=snap)

    def expect(self, case):
        start, end, step = case.data
        n = int(round((end - start) / step)) + 1
        return Returns(snap_array(np.linspace(start, end, n).astype(np.float32), "torch.float32"))


class Q4(Question):
    name = "q4"
    title = "同形同类型的新张量"
    points = 1
    needs = ("filled_like",)
    hint = "新张量的形状和 dtype 都要跟着 x，而不是由 value 决定；而且不能改动 x。创建时怎样把 x 的这两样带过去？"
    hint2 = "创建函数大多接受 dtype= 参数；第 01 章还讲过一族以 _like 结尾、照着另一个张量的形状和 dtype 创建的函数。"

    SPECS = [
        ({"values": rng_values(1, (2, 3)), "dtype": "float32"}, 7),
        ({"values": [4, 5, 6, 7], "dtype": "int64"}, 3),
        ({"values": rng_values(2, (2, 2)), "dtype": "float64"}, 0.5),
        ({"values": [1, 2, 3], "dtype": "int64"}, 2.9),
        ({"values": 1.5, "dtype": "float32"}, -2),
        ({"values": [True, False, True], "dtype": "bool"}, True),
    ]

    def cases(self):
        return [Case(f"filled_like({label_tensor(x)}, {v})", (x, v)) for x, v in self.SPECS]

    def observe(self, ns, case):
        spec, value = case.data
        x = make_tensor(spec, tensor_lib(ns))
        before = snap(x)
        out = call(ns["filled_like"], x, value, convert=snap)
        if out == NOTHING or "raises" in out:
            return out
        return {"result": out, "x_unchanged": snap(x) == before}

    def expect(self, case):
        spec, value = case.data
        a = np.array(spec["values"], dtype=spec["dtype"])
        filled = np.full(a.shape, value).astype(a.dtype)
        return {"result": Returns(snap_array(filled, f"torch.{spec['dtype']}")), "x_unchanged": True}

    def show(self, value):
        return fmt(value["result"])

    def judge(self, got, want, case):
        if not got["x_unchanged"]:
            return "x 被改动了：应该返回一个新张量，而不是在 x 上原地修改"
        return super().judge(got["result"], want["result"], case)


class Q5(Question):
    name = "q5"
    title = "修复：把字符串变成张量"
    points = 1
    needs = ("parse_numbers",)
    hint = ("读一读报错信息：张量里能存什么样的数据？字符串要先变成什么，"
            "才能交给创建张量的函数？别忘了空列表和结果的数据类型。")
    hint2 = ("Python 内置的类型转换能把 \"1e3\"、\" 4 \" 这样的字符串变成浮点数；"
             "对列表里的每个字符串都转换一次，创建张量时再指定数据类型。")

    def cases(self):
        data = [["1.5", "2", "-3"], ["0"], [], ["1e3", " 4 "], ["-0.25", "8", "16", "0.5"]]
        return [Case(f"parse_numbers({d!r})", d) for d in data]

    def observe(self, ns, case):
        return call(ns["parse_numbers"], list(case.data), convert=snap)

    def expect(self, case):
        return Returns(snap_array(np.array([float(s) for s in case.data], dtype=np.float32), "torch.float32"))


class Q6(Question):
    name = "q6"
    title = "可复现的均匀随机张量"
    points = 2
    needs = ("uniform",)
    reveal = False
    hint = ("有三件事：怎样让随机数可以复现？怎样得到 [0, 1) 上的均匀随机数？"
            "怎样把 [0, 1) 上的数线性地变到 [low, high)？")
    hint2 = "先用 seed 固定随机数生成器；[0, 1) 上的数先乘以区间的长度，再加上区间的起点，就落在 [low, high) 里。"

    ARGS = [(0, (3, 4), 0.0, 1.0), (7, (1000,), -2.0, 2.0), (42, (2, 5), 5.0, 6.0), (3, (1,), -1.0, 0.0)]

    def cases(self):
        return [Case(f"uniform(seed={s}, shape={sh}, low={lo}, high={hi})", (s, sh, lo, hi))
                for s, sh, lo, hi in self.ARGS]

    def observe(self, ns, case):
        seed, shape, low, high = case.data
        fn = ns["uniform"]
        first = call(fn, seed, tuple(shape), low, high, convert=snap)
        if first == NOTHING or "raises" in first:
            return first
        if not first["returns"].get("tensor"):
            return {"first": first}
        again = call(fn, seed, tuple(shape), low, high, convert=snap)
        other = call(fn, seed + 1, tuple(shape), low, high, convert=snap)
        values = np.array(first["returns"]["values"], dtype=np.float64).reshape(-1)
        return {
            "first": {"returns": {k: v for k, v in first["returns"].items() if k != "values"}},
            "in_range": bool(values.size and values.min() >= low and values.max() < high),
            "same_seed_same_values": again == first,
            "other_seed_differs": other != first,
            "spread": float(values.max() - values.min()) if values.size else 0.0,
            "mean": float(values.mean()) if values.size else 0.0,
        }

    def expect(self, case):
        seed, shape, low, high = case.data
        return {"first": Returns({"tensor": True, "shape": list(shape), "dtype": "torch.float32"})}

    def judge(self, got, want, case):
        seed, shape, low, high = case.data
        r = got["first"].get("returns")
        if not (isinstance(r, dict) and r.get("tensor")):
            return "应该返回一个张量"
        if r["shape"] != list(shape):
            return f"形状应为 {tuple(shape)}，得到 {tuple(r['shape'])}"
        if r["dtype"] != "torch.float32":
            return f"dtype 应为 torch.float32，得到 {r['dtype']}"
        if not got["in_range"]:
            return f"有元素不在 [{low}, {high}) 里"
        if not got["same_seed_same_values"]:
            return "同一个 seed 调用两次，结果应该完全一样"
        if not got["other_seed_differs"]:
            return "换一个 seed，结果应该不同"
        n = int(np.prod(shape))
        if n >= 1000 and not (low + 0.4 * (high - low) < got["mean"] < low + 0.6 * (high - low)):
            return "这么多个均匀随机数，平均值应该在区间中点附近"
        if n >= 4 and got["spread"] < 0.2 * (high - low):
            return "数值太集中了，不像 [low, high) 上的均匀分布"
        return None


QUESTIONS = [Q1, Q2, Q3, Q4, Q5, Q6]
