"""Tests for chapter 06 exercises: autograd."""

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
    snap,
    snap_array,
    tensor_lib,
)
from ..engines import read_tensor
from ._util import label_tensor, make_tensor, rng_values

__all__ = ["QUESTIONS"]


class Q1(Prediction):
    name = "q1"
    title = "预测：叶节点、grad_fn 和梯度"
    points = 1
    needs = ("q1_answers",)
    hint = ("叶节点（leaf node）有两种：我们直接创建的张量，以及由不需要梯度的张量运算得到的结果。"
            "grad_fn 记录的是“最后一步是什么运算”；梯度先用链式法则手算，再运行代码验证。")
    hint2 = ("逐个问自己：这个张量是直接创建的吗？参与运算的张量里有没有需要梯度的？最后一步是哪种运算？"
             "链式法则：z 对 x 的导数等于 z 对 y 的导数乘以 y 对 x 的导数。整数张量能不能需要梯度？")
    items = {
        "a": ("x.is_leaf", True),
        "b": ("y.is_leaf", False),
        "c": ("c.is_leaf", True),
        "d": ("z.grad_fn.name()", "PowBackward0"),
        "e": ("z.backward() 之后的 x.grad.item()", 36.0),
        "f": ("x.detach().requires_grad", False),
        "g": ("y.requires_grad", True),
        "h": ("torch.tensor([1, 2]).requires_grad_() 抛出的异常类名", "RuntimeError"),
    }

    def normalize(self, value):
        if isinstance(value, type) and issubclass(value, BaseException):
            return value.__name__
        if isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        return super().normalize(value)


# Element-wise functions for Q2: (how it reads, course_lib code, NumPy derivative)
FUNCTIONS = {
    "cubic": ("lambda x: x ** 3 - 2 * x", lambda t, x: x ** 3 - 2 * x, lambda x: 3 * x ** 2 - 2),
    "sin_times_x": ("lambda x: torch.sin(x) * x", lambda t, x: t.sin(x) * x, lambda x: np.cos(x) * x + np.sin(x)),
    "exp_decay": ("lambda x: torch.exp(-x) + x ** 2", lambda t, x: t.exp(-x) + x ** 2,
                  lambda x: -np.exp(-x) + 2 * x),
    "sigmoid": ("lambda x: torch.sigmoid(x)", lambda t, x: t.sigmoid(x),
                lambda x: np.exp(-x) / (1 + np.exp(-x)) ** 2),
    # a kink at 0: autograd gives relu's derivative there as 0 (PyTorch's choice), while a central
    # difference gives 0.5 and a forward difference 1, so a finite-difference answer fails here
    "relu_plus_x": ("lambda x: torch.relu(x) + x", lambda t, x: t.relu(x) + x,
                    lambda x: (x > 0).astype(np.float64) + 1),
}


def _requires_grad(value):
    """Whether ``value`` is a tensor (of course_lib or real PyTorch) that requires grad (read by its base class)."""
    try:
        return read_tensor(value)[3]
    except TypeError:
        return False


class Q2(Question):
    name = "q2"
    title = "用 autograd 求导数"
    points = 2
    needs = ("derivative_at",)
    hint = ("先想三件事：怎样让 autograd 记录 f 对 x 做的运算？不给参数的反向传播只能从标量出发，"
            "f(x) 却是一个向量：怎样得到一个标量，它对 x 的第 i 个元素的导数恰好是 f'(x_i)？"
            "反向传播之后，导数存在哪里？")
    hint2 = ("用 xs 创建一个需要梯度的张量 x；f(x) 的所有元素加起来得到一个标量，它对 x_i 的导数正是 f'(x_i)；"
             "从这个标量做反向传播，导数就在 x 的梯度属性里。")
    case_hint = ("这道题要用 autograd：f 收到的张量都不需要梯度，"
                 "说明导数不是由反向传播算出来的（例如用了有限差分）。")
    rtol, atol = 1e-4, 1e-5

    POINTS = {"cubic": [-2.0, 0.0, 1.5, 3.0], "sin_times_x": [0.0, 1.0, -2.5], "exp_decay": [0.5, -1.0],
              "sigmoid": [-3.0, 0.0, 2.0, 0.25, 5.0], "cubic_one": [0.7], "relu_plus_x": [-1.5, 0.0, 2.0]}

    def cases(self):
        out = []
        for key, xs in self.POINTS.items():
            fname = key.replace("_one", "")
            out.append(Case(f"derivative_at({FUNCTIONS[fname][0]}, {xs})", (fname, xs)))
        return out

    def observe(self, ns, case):
        torch = tensor_lib(ns)
        fname, xs = case.data
        f = FUNCTIONS[fname][1]
        tracked = []

        def f_seen(x):
            tracked.append(_requires_grad(x))
            return f(torch, x)
        out = call(ns["derivative_at"], f_seen, list(xs), convert=snap)
        if out == NOTHING or "raises" in out:
            return out
        return {"result": out, "autograd": any(tracked)}

    def expect(self, case):
        fname, xs = case.data
        d = FUNCTIONS[fname][2](np.array(xs, dtype=np.float64))
        return {"result": Returns(snap_array(d.astype(np.float32), "torch.float32")), "autograd": True}

    def judge(self, got, want, case):
        problem = super().judge(got["result"], want["result"], case)
        if problem is None and not got["autograd"]:
            return self.case_hint
        return problem

    def show(self, value):
        return fmt(value["result"])


class Q3(Question):
    name = "q3"
    title = "自己写 backward：MulAdd"
    points = 3
    needs = ("MulAdd",)
    hint = ("先在纸上分别求 out 对 x、对 y 的偏导数（把另一个输入看成常数）；"
            "forward 保存的张量，在 backward 里从 ctx 的哪个属性取回？backward 收到的 grad_out 按链式法则怎样用？"
            "返回的梯度要与 forward 的输入一一对应、顺序相同。")
    hint2 = ("链式法则：每个输入的梯度 = grad_out 乘以 out 对这个输入的偏导数（按元素相乘）。"
             "out 对 x 的偏导数里含有 y，对 y 的偏导数里含有 x，所以两个输入都要从 ctx 里取回。")
    rtol, atol = 1e-5, 1e-5

    SHAPES = [(3,), (2, 2), (1,), (2, 3, 2)]

    def cases(self):
        out = []
        for i, shape in enumerate(self.SHAPES):
            specs = [{"values": rng_values(130 + 3 * i + k, shape), "dtype": "float32", "requires_grad": k < 2}
                     for k in range(3)]
            out.append(Case(f"MulAdd.apply(x, y)，x、y 形状 {shape}，再 out.backward(形状 {shape} 的随机梯度)",
                            specs))
        return out

    def observe(self, ns, case):
        torch = tensor_lib(ns)
        x, y, g = (make_tensor(s, torch) for s in case.data)
        learner = ns["MulAdd"]
        returned = []

        def backward(ctx, *grads):
            result = learner.backward(ctx, *grads)
            returned.append(result)
            return result
        # a subclass with the same name records what the learner's backward returned, so that an
        # untouched ``...`` body (it returns None) reads as not answered, not as the engine's error
        probe = type(learner.__name__, (learner,), {"backward": staticmethod(backward)})
        ok, out = attempt(probe.apply, x, y)
        if not ok:
            return out
        seen = {"out": snap(out)}
        ok, err = attempt(out.backward, g)
        if returned and all(r is None or r is Ellipsis for r in returned):
            return NOTHING
        if not ok:
            return err
        seen["x.grad"], seen["y.grad"] = snap(x.grad), snap(y.grad)
        return {"returns": seen}

    def expect(self, case):
        x, y, g = (np.array(s["values"], dtype=np.float64) for s in case.data)

        def f32(a):
            return snap_array(a.astype(np.float32), "torch.float32")
        return Returns({"out": f32(x * y + x), "x.grad": f32(g * (y + 1)), "y.grad": f32(g * x)})

    def judge(self, got, want, case):
        g, w = got["returns"], want["returns"]
        for key in ("out", "x.grad", "y.grad"):
            if g[key] == {"type": "NoneType"}:
                return f"{key} 是 None：backward 要按 forward 输入的顺序返回每个输入的梯度"
            problem = super().judge({"returns": g[key]}, {"returns": w[key]}, case)
            if problem:
                return f"{key}：{problem}"
        return None


class Q4(Question):
    name = "q4"
    title = "修复：每个小批量的梯度被累加了"
    points = 2
    needs = ("per_batch_grads",)
    hint = ("backward() 会把梯度累加（accumulate）到 .grad 上，而不是覆盖。"
            "处理第二个小批量时，w.grad 里还留着什么？每个小批量的 backward() 之前，.grad 应该是什么样子？")
    hint2 = "在每个小批量做 backward() 之前，把上一个小批量留在 w.grad 里的梯度清掉（第 06 章讲过两种清法）。"
    rtol, atol = 1e-5, 1e-5

    def cases(self):
        out = []
        for i, (w_shape, sizes) in enumerate([((), (3, 2)), ((), (4, 4, 1)), ((2,), (3, 2)), ((), (5,))]):
            w = {"values": rng_values(150 + i, w_shape), "dtype": "float32", "requires_grad": True}
            batches = [({"values": rng_values(160 + 10 * i + k, (n,) + w_shape), "dtype": "float32"},
                        {"values": rng_values(170 + 10 * i + k, (n,) + w_shape), "dtype": "float32"})
                       for k, n in enumerate(sizes)]
            label = f"per_batch_grads(w={label_tensor(w)}, {len(sizes)} 个小批量，大小 {list(sizes)})"
            out.append(Case(label, (w, batches)))
        return out

    def observe(self, ns, case):
        w_spec, batch_specs = case.data
        torch = tensor_lib(ns)
        w = make_tensor(w_spec, torch)
        batches = [(make_tensor(x, torch), make_tensor(y, torch)) for x, y in batch_specs]
        return call(ns["per_batch_grads"], w, batches,
                    convert=lambda r: [snap(g) for g in r] if isinstance(r, (list, tuple)) else snap(r))

    def expect(self, case):
        w_spec, batch_specs = case.data
        w = np.array(w_spec["values"], dtype=np.float64)
        grads = []
        for xs, ys in batch_specs:
            x, y = np.array(xs["values"]), np.array(ys["values"])
            r = w * x - y
            g = (2 * r * x / r.size)
            grads.append(snap_array(g.sum(axis=0).astype(np.float32) if w.ndim else
                                    np.float32(g.sum()), "torch.float32"))
        return Returns(grads)

    def judge(self, got, want, case):
        g, w = got.get("returns"), want["returns"]
        if not isinstance(g, list):
            return "应该返回一个列表，每个小批量一个梯度张量"
        if len(g) != len(w):
            return f"应该有 {len(w)} 个梯度，得到 {len(g)} 个"
        for i, (a, b) in enumerate(zip(g, w)):
            problem = super().judge({"returns": a}, {"returns": b}, case)
            if problem:
                return f"第 {i + 1} 个小批量的梯度：{problem}"
        return None


# Scalar functions of a 1-D float64 tensor for Q5: (how it reads, course_lib code, NumPy gradient)
SCALAR_FUNCTIONS = {
    "sum_sq": ("lambda x: (x ** 2).sum()", lambda t, x: (x ** 2).sum(), lambda x: 2 * x),
    "sum_sin": ("lambda x: torch.sin(x).sum()", lambda t, x: t.sin(x).sum(), np.cos),
    "first_times_last": ("lambda x: x[0] * x[-1]", lambda t, x: x[0] * x[-1],
                         lambda x: np.array([x[-1]] + [0.0] * (len(x) - 2) + [x[0]]) if len(x) > 1
                         else 2 * x),
    "exp_mean": ("lambda x: torch.exp(x).mean()", lambda t, x: t.exp(x).mean(), lambda x: np.exp(x) / len(x)),
}


class Q5(Question):
    name = "q5"
    title = "数值梯度（有限差分）"
    points = 2
    needs = ("numeric_grad",)
    hint = ("题目里的公式要对每个下标 i 各算一次：e_i 只在第 i 个位置是 1。"
            "怎样得到 x + eps·e_i，又不改动传进来的 x？f 返回的是 0 维张量，结果的 dtype 要是 float64。")
    hint2 = ("对每个 i：把 x 复制两份，一份的第 i 个元素加上 eps，另一份减去 eps，分别算 f，"
             "两者之差除以 2·eps 就是结果的第 i 个元素；结果张量可以先建成和 x 同形状的全 0 张量。")
    forbid = Forbid(calls=("backward", "autograd", "requires_grad_"),
                    why="这道题要用有限差分近似梯度，不要用自动微分。")
    rtol, atol = 1e-5, 1e-6

    ARGS = [("sum_sq", [1.0, -2.0, 0.5]), ("sum_sin", [0.0, 1.0, 2.0, 3.0]), ("first_times_last", [2.0, 7.0, -3.0]),
            ("exp_mean", [0.1, -0.4]), ("sum_sq", [3.0])]

    def cases(self):
        return [Case(f"numeric_grad({SCALAR_FUNCTIONS[f][0]}, torch.tensor({xs}, dtype=torch.float64))", (f, xs))
                for f, xs in self.ARGS]

    def observe(self, ns, case):
        torch = tensor_lib(ns)
        fname, xs = case.data
        f = SCALAR_FUNCTIONS[fname][1]
        x = torch.tensor(xs, dtype=torch.float64)
        before = snap(x)
        tracked = []

        def f_seen(v):
            tracked.append(_requires_grad(v))
            return f(torch, v)
        out = call(ns["numeric_grad"], f_seen, x, convert=snap)
        if out == NOTHING or "raises" in out:
            return out
        return {"result": out, "x_unchanged": snap(x) == before, "autograd": any(tracked)}

    def expect(self, case):
        fname, xs = case.data
        g = SCALAR_FUNCTIONS[fname][2](np.array(xs, dtype=np.float64))
        return {"result": Returns(snap_array(np.asarray(g, dtype=np.float64), "torch.float64")), "x_unchanged": True}

    def judge(self, got, want, case):
        if not got["x_unchanged"]:
            return Problem("传进来的 x 被改动了",
                           hint="在 x 本身上原地加减 eps，调用者手里的 x 也就变了。能不能在一个副本上加减？")
        if got.get("autograd"):
            return Problem("f 收到了需要梯度的张量：这道题要用有限差分，不要用自动微分",
                           hint="只用 f 的函数值：在 x 附近取两个点，算出 f 在这两点的差。")
        return super().judge(got["result"], want["result"], case)

    def show(self, value):
        return fmt(value["result"])


QUESTIONS = [Q1, Q2, Q3, Q4, Q5]
