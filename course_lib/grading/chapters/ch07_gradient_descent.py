"""Tests for chapter 07 exercises: gradient descent."""

import numpy as np

from ..core import (
    NOTHING,
    Case,
    Forbid,
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
from ._util import make_tensor, rng_values

__all__ = ["QUESTIONS", "gd_line", "gd_minimize"]


def gd_line(x, y, lr, epochs):
    """Reference: full-batch gradient descent for y ~ w * x + b on the mean squared error, from w = b = 0."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    w = b = 0.0
    for _ in range(epochs):
        r = w * x + b - y
        gw, gb = 2 * np.mean(r * x), 2 * np.mean(r)
        w, b = w - lr * gw, b - lr * gb
    return [w, b]


class Q1(Question):
    name = "q1"
    title = "修复：原地更新叶节点参数"
    points = 2
    needs = ("sgd_step",)
    hint = ("读一读报错信息：对 requires_grad=True 的叶节点做原地操作，为什么 autograd 不允许？"
            "更新参数这一步本来就不该被记进计算图：第 06 章讲过哪几种办法让运算不被记录？")
    hint2 = "把更新参数的那几行放进一个“不记录计算图”的上下文里；在这个上下文里，对叶节点做原地操作是允许的。"
    rtol, atol = 1e-5, 1e-6

    ARGS = [([(3,)], 0.1), ([(2, 2), (2,)], 0.01), ([()], 1.0), ([(1,), (3,), (2, 1)], 0.5)]

    def cases(self):
        out = []
        for i, (shapes, lr) in enumerate(self.ARGS):
            params = [({"values": rng_values(200 + 10 * i + k, s), "dtype": "float32", "requires_grad": True},
                       {"values": rng_values(300 + 10 * i + k, s), "dtype": "float32"}) for k, s in enumerate(shapes)]
            out.append(Case(f"sgd_step(形状为 {[tuple(s) for s in shapes]} 的参数列表（已有梯度）, lr={lr})",
                            (params, lr)))
        return out

    def observe(self, ns, case):
        specs, lr = case.data
        torch = tensor_lib(ns)
        params = []
        for p_spec, g_spec in specs:
            p = make_tensor(p_spec, torch)
            p.grad = make_tensor(g_spec, torch)
            params.append(p)
        originals = list(params)
        ok, err = attempt(ns["sgd_step"], params, lr)
        if not ok:
            return err
        seen = []
        for p, orig in zip(params, originals):
            grad_cleared = p.grad is None or bool((p.grad == 0).all())
            seen.append({"same_object": p is orig, "is_leaf": bool(p.is_leaf),
                         "requires_grad": bool(p.requires_grad), "value": snap(p), "grad_cleared": grad_cleared})
        return {"returns": seen}

    def expect(self, case):
        specs, lr = case.data
        out = []
        for p_spec, g_spec in specs:
            p = np.array(p_spec["values"], dtype=np.float32)
            g = np.array(g_spec["values"], dtype=np.float32)
            out.append({"same_object": True, "is_leaf": True, "requires_grad": True,
                        "value": snap_array(p - np.float32(lr) * g, "torch.float32"), "grad_cleared": True})
        return Returns(out)

    def judge(self, got, want, case):
        for i, (g, w) in enumerate(zip(got["returns"], want["returns"])):
            where = f"第 {i + 1} 个参数"
            if not g["same_object"]:
                return f"{where}：列表里的参数被换成了新张量，应该原地更新原来的参数"
            if not (g["is_leaf"] and g["requires_grad"]):
                return f"{where}：更新后应该仍是 requires_grad=True 的叶节点"
            problem = super().judge({"returns": g["value"]}, {"returns": w["value"]}, case)
            if problem:
                return f"{where}：{problem}（应为 p - lr * p.grad）"
            if not g["grad_cleared"]:
                return Problem(f"{where}：更新后应该把梯度清零，否则下一步会累加",
                               hint=("下一次 backward() 会把新梯度加到 .grad 里已有的梯度上。"
                                     "更新完参数之后，旧梯度该怎么处理？"))
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, list):
            return "[" + ", ".join(fmt(p["value"]) for p in r) + "]"
        return fmt(value)


class Q2(Question):
    name = "q2"
    title = "均方误差损失"
    points = 1
    needs = ("mse",)
    hint = ("结果要是一个 0 维张量，而且整个计算都要用张量运算完成，梯度才能传回 pred："
            "如果中途变成了 Python 数或 NumPy 数组，会发生什么？")
    hint2 = "先按元素求差、再平方，最后对所有元素取平均（不给维度参数）；中间结果一直保持为张量。"
    forbid = Forbid(calls=("mse_loss", "MSELoss"), why="请用张量运算自己写出均方误差。")
    rtol, atol = 1e-5, 1e-6

    SHAPES = [(3,), (2, 2), (1,), (4, 3)]

    def cases(self):
        out = []
        for i, shape in enumerate(self.SHAPES):
            pred = {"values": rng_values(400 + i, shape), "dtype": "float32", "requires_grad": True}
            target = {"values": rng_values(410 + i, shape), "dtype": "float32"}
            out.append(Case(f"mse(pred 形状 {shape}, target 形状 {shape})，再对结果 backward()", (pred, target)))
        return out

    def observe(self, ns, case):
        torch = tensor_lib(ns)
        pred, target = make_tensor(case.data[0], torch), make_tensor(case.data[1], torch)
        ok, loss = attempt(ns["mse"], pred, target)
        if not ok or loss is None:
            return loss if not ok else NOTHING
        seen = {"loss": snap(loss)}
        ok, err = attempt(loss.backward)
        seen["pred.grad"] = snap(pred.grad) if ok else {"type": "backward 失败：" + err["raises"]}
        return {"returns": seen}

    def expect(self, case):
        p, t = (np.array(s["values"], dtype=np.float64) for s in case.data)
        return Returns({"loss": snap_array(np.float32(((p - t) ** 2).mean()), "torch.float32"),
                        "pred.grad": snap_array((2 * (p - t) / p.size).astype(np.float32), "torch.float32")})

    def judge(self, got, want, case):
        g, w = got["returns"], want["returns"]
        for key in ("loss", "pred.grad"):
            problem = super().judge({"returns": g[key]}, {"returns": w[key]}, case)
            if problem:
                return f"{key}：{problem}"
        return None


class Q3(Question):
    name = "q3"
    title = "梯度下降拟合直线"
    points = 3
    needs = ("fit_line",)
    hint = ("w、b 要怎样创建，autograd 才会为它们求梯度？每一轮有四件事：前向算损失、反向传播、"
            "更新参数（这一步不该被记进计算图）、处理这一轮留下的梯度（想想梯度会不会累加）。"
            "轮数、学习率都要照参数来：测试会比较每一步之后的结果，不只是最后收敛的值。")
    hint2 = ("w、b 是两个需要梯度的 0 维浮点张量，初值 0；更新放在不记录计算图的上下文里原地进行；"
             "每轮更新之后把两个梯度清零；最后把两个 0 维张量变成 Python 浮点数再返回。")
    rtol, atol = 2e-3, 2e-4

    ARGS = [(2.0, 1.0, 0.1, 200, 0), (-1.5, 0.5, 0.05, 5, 1), (0.5, -2.0, 0.1, 1, 2), (3.0, 0.0, 0.02, 50, 3)]

    def cases(self):
        out = []
        for slope, intercept, lr, epochs, seed in self.ARGS:
            x = rng_values(500 + seed, (8,), -2, 2)
            y = [round(slope * v + intercept, 4) for v in x]
            out.append(Case(f"fit_line(x, y, lr={lr}, epochs={epochs})，数据落在 y = {slope}x + {intercept} 上",
                            (x, y, lr, epochs)))
        return out

    def observe(self, ns, case):
        torch = tensor_lib(ns)
        x, y, lr, epochs = case.data

        def as_pair(result):
            # the question asks for a tuple of two Python floats: a tensor (even one with a single
            # element) is reported as such, not converted
            if not isinstance(result, tuple) or len(result) != 2:
                return {"not_pair": type(result).__name__}
            vals = []
            for v in result:
                if is_tensor(v):
                    return {"tensor_item": True}
                if not isinstance(v, (int, float)) or isinstance(v, bool):
                    return {"not_number": type(v).__name__}
                vals.append(float(v))
            return vals
        return call(ns["fit_line"], torch.tensor(x), torch.tensor(y), lr, epochs, convert=as_pair)

    def expect(self, case):
        return Returns(gd_line(*case.data))

    def judge(self, got, want, case):
        g = got.get("returns")
        if isinstance(g, dict):
            if "not_pair" in g:
                return f"应该返回两个数组成的元组 (w, b)，得到的是 {g['not_pair']}"
            if "tensor_item" in g:
                return "w、b 应该是 Python 浮点数，不是张量：第 02 章讲过怎样把只有一个元素的张量变成 Python 的数"
            if "not_number" in g:
                return f"w、b 应该是 Python 浮点数，得到的是 {g['not_number']}"
        return super().judge(got, want, case)

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, list) and len(r) == 2:
            return f"返回 (w, b) = ({r[0]:.5g}, {r[1]:.5g})"
        if isinstance(r, dict) and "tensor_item" in r:
            return "返回的元组里有张量"
        if isinstance(r, dict) and ("not_pair" in r or "not_number" in r):
            return f"返回了 {r.get('not_pair') or r.get('not_number')}"
        return fmt(value)


class Q4(Question):
    name = "q4"
    title = "学习率的临界值"
    points = 2
    needs = ("critical_lr",)
    hint = ("对 y ≈ w·x，一步更新后 w - w* 变成原来的 (1 - 2·lr·mean(x²)) 倍；"
            "这个倍数的绝对值小于 1 才会收敛。解出 lr 的上界。")
    hint2 = ("把 |1 - 2·lr·m| < 1（m 是 x² 的平均值）拆成两个不等式：其中一个对正的 lr 总是成立，"
             "另一个给出上界。m 要从张量变成 Python 的数。")
    rtol, atol = 1e-4, 1e-8

    XS = [[1.0, 2.0, 3.0], [0.5, -0.5], [10.0], [0.1, 0.2, 0.3, 0.4], [-3.0, 1.0, 2.0, 0.5, 1.5]]

    def cases(self):
        return [Case(f"critical_lr(torch.tensor({xs}))", xs) for xs in self.XS]

    def observe(self, ns, case):
        torch = tensor_lib(ns)

        def as_float(v):
            # the question asks for a Python float: a tensor (even with one element) is reported, not converted
            if is_tensor(v):
                return {"tensor_item": True}
            return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else {"type": type(v).__name__}
        return call(ns["critical_lr"], torch.tensor(case.data), convert=as_float)

    def expect(self, case):
        return Returns(1.0 / float(np.mean(np.square(case.data))))

    def judge(self, got, want, case):
        g = got.get("returns")
        if isinstance(g, dict) and "tensor_item" in g:
            return "应该返回 Python 浮点数，不是张量：第 02 章讲过怎样把只有一个元素的张量变成 Python 的数"
        return super().judge(got, want, case)

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict) and "tensor_item" in r:
            return "返回了一个张量"
        return fmt(value)


def _f_bowl(x):
    return 2 * (x - 3)


def _f_valley(x):
    return np.array([2 * (x[0] - 1), 20 * (x[1] + 2)])


# Functions for Q5: (how it reads, course_lib code, NumPy gradient)
OBJECTIVES = {
    "bowl": ("lambda x: ((x - 3) ** 2).sum()", lambda x: ((x - 3) ** 2).sum(), _f_bowl),
    "valley": ("lambda x: (x[0] - 1) ** 2 + 10 * (x[1] + 2) ** 2", lambda x: (x[0] - 1) ** 2 + 10 * (x[1] + 2) ** 2,
               _f_valley),
}


def gd_minimize(fname, x0, lr, steps):
    """Reference: ``steps`` plain gradient-descent steps on an objective of :data:`OBJECTIVES`."""
    x = np.array(x0, dtype=np.float64)
    for _ in range(steps):
        x = x - lr * OBJECTIVES[fname][2](x)
    return x


class Q5(Question):
    name = "q5"
    title = "修复：第二步梯度变成了 None"
    points = 2
    needs = ("minimize",)
    hint = ("对比走一步和走两步：第一步更新之后，x 还是原来那个叶节点吗？打印 x.is_leaf 和 x.grad 看看。"
            "参数的更新不该被记进计算图，也不该换掉 x 这个张量；"
            "另外想一想，下一步 backward() 之前 .grad 里还留着什么。")
    hint2 = "更新要放进不记录计算图的上下文里，并且原地修改 x（不要给 x 重新赋值）；每步更新之后把 x 的梯度清零。"
    rtol, atol = 1e-4, 1e-5

    ARGS = [("bowl", [0.0, 1.0], 0.1, 1), ("bowl", [5.0], 0.1, 3), ("valley", [0.0, 0.0], 0.04, 50),
            ("bowl", [-1.0, 2.0, 4.0], 0.25, 10)]

    def cases(self):
        return [Case(f"minimize({OBJECTIVES[f][0]}, x0={x0}, lr={lr}, steps={steps})", (f, x0, lr, steps))
                for f, x0, lr, steps in self.ARGS]

    def observe(self, ns, case):
        fname, x0, lr, steps = case.data
        return call(ns["minimize"], OBJECTIVES[fname][1], list(x0), lr, steps, convert=snap)

    def expect(self, case):
        return Returns(snap_array(gd_minimize(*case.data).astype(np.float32), "torch.float32"))


QUESTIONS = [Q1, Q2, Q3, Q4, Q5]

