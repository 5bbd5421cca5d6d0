"""Tests for chapter 02 exercises: dtypes, conversions, devices and NumPy interop."""

import numpy as np

from ..core import (
    NOTHING,
    Case,
    Prediction,
    Problem,
    Question,
    Returns,
    attempt,
    call,
    fmt,
    is_tensor,
    snap,
    snap_array,
    tensor_lib,
)
from ._util import dtype_name, label_tensor, make_tensor, rng_values

__all__ = ["QUESTIONS"]


class Q1(Prediction):
    name = "q1"
    title = "预测运算结果的 dtype"
    points = 1
    needs = ("q1_answers",)
    hint = ("类型提升（type promotion）：浮点胜过整数；同类时取更宽的；"
            "0 维张量和 Python 数只有在“类别更高”时才会改变结果类型。运行一下验证你的想法。")
    hint2 = ("类别从低到高是：布尔、整数、浮点。维数大于 0 的张量之间取更宽的类型；0 维张量和 Python 数"
             "只有类别比它们高时才起作用，这时 Python 的整数或小数按默认的类型参与。除法 / 的结果总是浮点。"
             "有符号和无符号的 8 位整数放在一起时，要找一个两边的值都装得下的类型。")
    items = {
        "a": ("i + 1.5", "torch.float32"),
        "b": ("i32 + i", "torch.int64"),
        "c": ("i / 2", "torch.float32"),
        "d": ("i // 2", "torch.int64"),
        "e": ("f64 + torch.tensor([1.0])", "torch.float64"),
        "f": ("u8 + torch.tensor([1], dtype=torch.int8)", "torch.int16"),
        "g": ("i32 + torch.tensor(5)", "torch.int32"),
        "h": ("torch.tensor([1.0]) + torch.tensor(5.0, dtype=torch.float64)", "torch.float32"),
        "i": ("torch.tensor([True, False]) * 3", "torch.int64"),
    }

    def normalize(self, value):
        return dtype_name(value)


class Q2(Question):
    name = "q2"
    title = "转成不共享内存的 NumPy 数组"
    points = 1
    needs = ("to_numpy_copy",)
    hint = ("把张量变成 NumPy 数组的那个方法，得到的数组和张量共享内存；需要梯度的张量还不能直接这样变。"
            "怎样才能得到一份和 t 毫无关系的数据？")
    hint2 = ("分三步想：先得到一个和计算图分离、不需要梯度的张量（它仍和 t 共享内存），把它转成 NumPy 数组，"
             "最后让数组自己复制一份。")

    SPECS = [
        {"values": rng_values(3, (2, 3)), "dtype": "float32"},
        {"values": [1, 2, 3, 4], "dtype": "int64"},
        {"values": rng_values(4, (3,)), "dtype": "float64", "requires_grad": True},
        {"values": [[True, False], [False, True]], "dtype": "bool"},
        {"values": 2.5, "dtype": "float32"},
    ]

    def cases(self):
        return [Case(f"to_numpy_copy({label_tensor(s)})", s) for s in self.SPECS]

    def observe(self, ns, case):
        t = make_tensor(case.data, tensor_lib(ns))
        before = snap(t)
        ok, result = attempt(ns["to_numpy_copy"], t)
        if not ok or result is None:
            return result if not ok else NOTHING
        if not isinstance(result, np.ndarray):
            return {"returns": {"type": type(result).__name__}}
        seen = {"ndarray": True, "dtype": str(result.dtype), "shape": list(result.shape), "values": result.tolist()}
        if result.size and result.flags.writeable:
            result[...] = ~result if result.dtype == np.bool_ else result + 1
        seen["t_unchanged"] = snap(t) == before
        return {"returns": seen}

    def expect(self, case):
        a = np.array(case.data["values"], dtype=case.data["dtype"])
        return Returns({"ndarray": True, "dtype": str(a.dtype), "shape": list(a.shape), "values": a.tolist(),
                        "t_unchanged": True})

    def judge(self, got, want, case):
        g, w = got.get("returns"), want["returns"]
        if not isinstance(g, dict) or not g.get("ndarray"):
            return "应该返回一个 numpy.ndarray"
        if g["dtype"] != w["dtype"]:
            return f"数组的 dtype 应为 {w['dtype']}，得到 {g['dtype']}"
        if g["shape"] != w["shape"] or g["values"] != w["values"]:
            return "数组的形状或数值和张量不一致"
        if not g["t_unchanged"]:
            return "改动返回的数组时，原张量也跟着变了：它们还共享内存"
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict) and r.get("ndarray"):
            return f"numpy 数组(shape={tuple(r['shape'])}, dtype={r['dtype']})"
        return fmt(value)


class Q3(Question):
    name = "q3"
    title = "NumPy 数组转 float32 张量"
    points = 2
    needs = ("as_float32",)
    hint = ("两种情况分开想：arr 已经是 float32 时，哪种从数组得到张量的办法不复制数据？"
            "不是 float32 时，转换 dtype 必然要一块新内存。改动 arr 的一个元素，看张量变不变，就能验证。")
    hint2 = ("第 02 章讲过一个从 NumPy 数组创建张量、和数组共享内存、并保留数组原来 dtype 的函数；"
             "之后再把 dtype 变成 float32，而转换 dtype 的方法在 dtype 已经对了的时候会直接返回原张量。")

    ARRAYS = [
        ("float64", (2, 3), False), ("float32", (4,), False), ("int64", (3,), False),
        ("float32", (3, 2), True), ("int32", (2, 2), False), ("float64", (), False),
    ]

    def cases(self):
        out = []
        for i, (dt, shape, transpose) in enumerate(self.ARRAYS):
            values = rng_values(10 + i, shape, -5, 5, integers=dt.startswith("int"))
            label = f"as_float32(np.array({values}, dtype=np.{dt}){'.T' if transpose else ''})"
            out.append(Case(label, (values, dt, transpose)))
        return out

    def observe(self, ns, case):
        values, dt, transpose = case.data
        arr = np.array(values, dtype=dt)
        if transpose:
            arr = arr.T
        ok, result = attempt(ns["as_float32"], arr)
        if not ok or result is None:
            return result if not ok else NOTHING
        first = snap(result)
        if not first.get("tensor"):
            return {"result": {"returns": first}}
        arr[...] = arr + 1
        return {"result": {"returns": first}, "follows_array": snap(result) != first}

    def expect(self, case):
        values, dt, transpose = case.data
        arr = np.array(values, dtype=dt)
        if transpose:
            arr = arr.T
        return {"result": Returns(snap_array(arr.astype(np.float32), "torch.float32")),
                "follows_array": dt == "float32"}

    def judge(self, got, want, case):
        problem = super().judge(got["result"], want["result"], case)
        if problem:
            return problem
        if want["follows_array"] and not got["follows_array"]:
            return "数组本来就是 float32，应该直接共享内存（不复制）：改动数组，张量也应该跟着变"
        if not want["follows_array"] and got["follows_array"]:
            return "这个数组不是 float32，返回的张量不应该和原数组共享内存"
        return None

    def show(self, value):
        return fmt(value["result"])


class Q4(Question):
    name = "q4"
    title = "修复：uint8 图像调亮"
    points = 2
    needs = ("brighten",)
    hint = ("先运行看看：uint8 的 200 乘以 2 得到多少，为什么？乘以 1.5 时结果又是什么 dtype？"
            "想一想：乘法应该在哪种 dtype 里做，什么时候再回到 uint8？")
    hint2 = ("在一个能装下大数和小数的 dtype 里做乘法，"
             "把结果限制在 0 到 255 之间，最后再转回 uint8（小数部分会被舍去）。")

    FACTORS = [2, 1.5, 0, 1, 0.25, 3, 2.5]

    def cases(self):
        out = []
        for i, factor in enumerate(self.FACTORS):
            img = rng_values(20 + i, (2, 4), 0, 256, integers=True)
            img[0][0], img[1][3] = 255, 0
            out.append(Case(f"brighten(torch.tensor({img}, dtype=torch.uint8), {factor})", (img, factor)))
        return out

    def observe(self, ns, case):
        img, factor = case.data
        torch = tensor_lib(ns)
        return call(ns["brighten"], torch.tensor(img, dtype=torch.uint8), factor, convert=snap)

    def expect(self, case):
        img, factor = case.data
        out = np.clip(np.array(img, dtype=np.float64) * factor, 0, 255).astype(np.uint8)
        return Returns(snap_array(out, "torch.uint8"))


class Q5(Question):
    name = "q5"
    title = "选择计算设备"
    points = 1
    needs = ("pick_device",)
    hint = "函数每次被调用时都要问一句“现在有没有可用的 GPU？”，再按回答选设备。第 02 章讲过怎样向 PyTorch 问这句话。"
    hint2 = ("PyTorch 管 GPU 的那个子模块里有一个函数回答“CUDA 能不能用”，"
             "返回 True 或 False；按它的回答选 \"cuda\" 或 \"cpu\" 设备。")

    def cases(self):
        return [Case("pick_device()，torch.cuda.is_available() 返回 True 时", True),
                Case("pick_device()，torch.cuda.is_available() 返回 False 时", False)]

    def observe(self, ns, case):
        torch = tensor_lib(ns)
        cuda = torch.cuda
        original = cuda.is_available
        cuda.is_available = lambda: case.data
        try:
            def describe(d):
                if isinstance(d, torch.device):
                    return {"device": d.type}
                return {"type": type(d).__name__}
            return call(ns["pick_device"], convert=describe)
        finally:
            cuda.is_available = original

    def expect(self, case):
        return Returns({"device": "cuda" if case.data else "cpu"})

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict) and "device" in r:
            return f"返回 torch.device('{r['device']}')"
        return fmt(value)


class Q6(Question):
    name = "q6"
    title = "张量变回 Python 的数或列表"
    points = 1
    needs = ("to_python",)
    hint = ("只有一个元素和有多个元素要分开处理。第 02 章讲过两个方法：一个把只有一个元素的张量变成 Python 数，"
            "一个把张量变成嵌套列表。怎样知道张量有几个元素？")
    hint2 = "判断时不要看形状，要看元素个数：形状为 (1, 1) 的张量也只有一个元素。数元素个数的方法返回各维长度的乘积。"

    SPECS = [
        {"values": 3, "dtype": "int64"},
        {"values": [[2.5]], "dtype": "float32"},
        {"values": [1, 2], "dtype": "int64"},
        {"values": [[True, False]], "dtype": "bool"},
        {"values": True, "dtype": "bool"},
        {"values": [[0.5, 1.0], [1.5, -2.0]], "dtype": "float64"},
        {"values": [], "dtype": "float32"},
    ]

    def cases(self):
        return [Case(f"to_python({label_tensor(s)})", s) for s in self.SPECS]

    def observe(self, ns, case):
        def describe(r):
            if is_tensor(r):
                return {"tensor": snap(r)}
            return {"type": type(r).__name__, "value": r if _plain_ok(r) else None}
        return call(ns["to_python"], make_tensor(case.data, tensor_lib(ns)), convert=describe)

    def expect(self, case):
        a = np.array(case.data["values"], dtype=case.data["dtype"])
        value = a.item() if a.size == 1 else a.tolist()
        return Returns({"type": type(value).__name__, "value": value})

    def judge(self, got, want, case):
        g, w = got.get("returns"), want["returns"]
        kind = _PYTHON_KINDS.get(w["type"], w["type"])
        if isinstance(g, dict) and "tensor" in g:
            return Problem(f"应该返回 Python 的{kind}，得到的却是一个张量",
                           hint="张量即使只有一个元素，也还是张量；题目要的是 Python 自己的数或列表。"
                                "第 02 章讲过把张量变回 Python 数据的两个方法。")
        if not isinstance(g, dict) or g.get("type") != w["type"]:
            found = g.get("type") if isinstance(g, dict) else type(g).__name__
            return f"应该返回 Python 的{kind}，得到的是 {found}"
        return super().judge(got, want, case)

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict) and "tensor" in r:
            return "返回 " + fmt(r["tensor"])
        if isinstance(r, dict) and "type" in r and "value" in r:
            return f"返回 {r['value']!r}（{r['type']}）"
        return fmt(value)


_PYTHON_KINDS = {"int": "整数（int）", "float": "浮点数（float）", "bool": "布尔值（bool）", "list": "列表（list）"}


def _plain_ok(value):
    if isinstance(value, (bool, int, float)) or value is None:
        return True
    if isinstance(value, list):
        return all(_plain_ok(v) for v in value)
    return False


QUESTIONS = [Q1, Q2, Q3, Q4, Q5, Q6]
