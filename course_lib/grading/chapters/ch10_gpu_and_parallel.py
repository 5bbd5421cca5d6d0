"""Tests for chapter 10 exercises: host-device copies (on the simulated device) and data parallelism."""

import numpy as np

from ..core import NOTHING, Case, Prediction, Question, Returns, attempt, call, fmt, snap, snap_array, tensor_lib
from ._util import rng_values
from .ch08_training_a_network import _is_float, _linear, sgd_linear_steps

__all__ = ["QUESTIONS", "SNIPPETS", "full_batch_grads"]


# --------------------------------------------------------------------------------- snippets for q1 and q2

def _zeros_on_device(torch):
    torch.zeros(1000, device="cuda")


def _zeros_then_to(torch):
    torch.zeros(1000).to("cuda")


def _linear_to(torch):
    torch.nn.Linear(3, 1).to("cuda")


def _item_every_step(torch):
    x = torch.zeros(4, device="cuda")
    for _ in range(5):
        x += 1
        x.sum().item()


def _accumulate_then_item(torch):
    x = torch.zeros(4, device="cuda")
    total = torch.zeros((), device="cuda")
    for _ in range(5):
        x += 1
        total += x.sum()
    total.item()


def _round_trip(torch):
    x = torch.arange(6.0).to("cuda")
    x.cpu()


def _print_and_numpy(torch):
    x = torch.ones(3, device="cuda") * 2
    x.cpu().numpy()
    float(x[0])


# name -> (how it reads, the function, (host_to_device, device_to_host)); tests/test_grading_chapters_08_10.py
# runs each on the simulated device and checks the counts
SNIPPETS = {
    "zeros_on_device": ("torch.zeros(1000, device='cuda')", _zeros_on_device, (0, 0)),
    "zeros_then_to": ("torch.zeros(1000).to('cuda')", _zeros_then_to, (1, 0)),
    "linear_to": ("torch.nn.Linear(3, 1).to('cuda')", _linear_to, (2, 0)),
    "item_every_step": ("5 步，每步 x.sum().item()", _item_every_step, (0, 5)),
    "accumulate_then_item": ("5 步在 GPU 上累加，最后 total.item()", _accumulate_then_item, (0, 1)),
    "round_trip": ("torch.arange(6.0).to('cuda') 再 .cpu()", _round_trip, (1, 1)),
    "numpy_and_float": ("x.cpu().numpy() 和 float(x[0])", _print_and_numpy, (0, 2)),
}


class Q1(Question):
    name = "q1"
    title = "数一数主机与设备之间的拷贝"
    points = 2
    needs = ("count_copies",)
    hint = ("把 torch.cuda.simulate() 当作上下文管理器（with 语句）使用，在里面调用 fn；离开 with 时模拟设备自动关掉。"
            "sim.stats 的计数从打开模拟设备以前就在累计：调用 fn 之前先清零。")
    hint2 = "在 with 块里先把计数清零，再调用 fn，离开 with 之前读出两个计数，放进字典返回。"
    course_lib_only = "它在 course_lib 的模拟 GPU（torch.cuda.simulate()）上数拷贝次数，真实的 PyTorch 没有这个模拟设备"

    def cases(self):
        return [Case(f"count_copies(fn)，fn 做的是：{text}", name) for name, (text, _, _) in SNIPPETS.items()]

    def observe(self, ns, case):
        torch = tensor_lib(ns)               # course_lib: a course_lib-only question runs with nothing else
        fn = SNIPPETS[case.data][1]
        with torch.cuda.simulate():          # traffic before the call, which a missing reset() would count
            torch.ones(3).to("cuda").sum().item()
        before = torch.cuda.is_simulated()

        def convert(result):
            if not isinstance(result, dict):
                return {"type": type(result).__name__}
            return {k: result.get(k) if isinstance(result.get(k), int) else None
                    for k in ("host_to_device", "device_to_host")}
        out = call(ns["count_copies"], lambda: fn(torch), convert=convert)
        if out == NOTHING or "raises" in out:
            return out
        return {"returns": {"counts": out["returns"], "state_kept": torch.cuda.is_simulated() == before}}

    def expect(self, case):
        h2d, d2h = SNIPPETS[case.data][2]
        return Returns({"counts": {"host_to_device": h2d, "device_to_host": d2h}, "state_kept": True})

    def judge(self, got, want, case):
        g, w = got["returns"], want["returns"]
        if "type" in g["counts"]:
            return f"应该返回一个字典 {{'host_to_device': ..., 'device_to_host': ...}}，得到的是 {g['counts']['type']}"
        if g["counts"] != w["counts"]:
            return "拷贝次数不对"
        if not g["state_kept"]:
            return "调用之后模拟设备的开关状态变了：用 with torch.cuda.simulate() as sim: 让它在结束时恢复"
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict) and "counts" in r:
            return fmt(r["counts"])
        return fmt(value)


class Q2(Prediction):
    name = "q2"
    title = "预测：拷贝了几次"
    points = 2
    needs = ("q2_answers",)
    hint = ("创建张量时给了 device='cuda'，数据直接在 GPU 上生成；先在 CPU 上创建再 .to('cuda') 就多一次拷贝。"
            "模型的每个参数各拷贝一次。item()、tolist()、把张量当成 Python 的真假值（if）都要把数据取回主机。"
            "张量已经在目标设备上时，.to() 什么也不做。")
    hint2 = ("把每一行拆成几步：张量先在哪个设备上生成，之后有没有被搬到另一个设备，结果是否要变成 Python 的数"
             "或真假值。每搬一次家记一次。")
    items = {
        "a": ("torch.ones(1000, device='cuda')", [0, 0]),
        "b": ("torch.ones(1000).cuda()", [1, 0]),
        "c": ("torch.tensor([1.0, 2.0, 3.0], device='cuda')", [1, 0]),
        "d": ("nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to('cuda')", [4, 0]),
        "e": ("x.sum().item()（x 在 GPU 上）", [0, 1]),
        "f": ("x.tolist()（x 在 GPU 上）", [0, 1]),
        "g": ("if x.sum() > 0: ...（x 在 GPU 上）", [0, 1]),
        "h": ("x.to('cuda')（x 已经在 GPU 上）", [0, 0]),
    }

    def normalize(self, value):
        if isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, int) for v in value):
            return [int(v) for v in value]
        return super().normalize(value)


def full_batch_grads(W, b, X, Y):
    """Gradients of ``mean((X W^T + b - Y)^2)`` over the whole batch (float64)."""
    from .ch08_training_a_network import _mse_grads
    _, gW, gb = _mse_grads(np.array(W, dtype=np.float64), np.array(b, dtype=np.float64),
                           np.array(X, dtype=np.float64), np.array(Y, dtype=np.float64))
    return gW, gb


class Q3(Question):
    name = "q3"
    title = "修复：每一步都在等 GPU"
    points = 2
    needs = ("mean_loss",)
    hint = ("loss.item() 每调用一次，就要把数据从 GPU 拷回主机，还要等 GPU 把排队的运算做完。"
            "能不能先在 GPU 上把各步的损失加起来（注意不要把计算图也攒起来），最后只取回一次？")
    hint2 = "用一个放在 GPU 上的 0 维张量累加每一步脱离了计算图的损失，循环结束后只把它取回主机一次，再除以步数。"
    course_lib_only = "它在 course_lib 的模拟 GPU（torch.cuda.simulate()）上数拷贝次数，真实的 PyTorch 没有这个模拟设备"
    rtol, atol = 1e-4, 1e-6

    ARGS = [((3, 1), 8, 5, 0.1), ((2, 2), 6, 10, 0.05), ((4, 1), 10, 3, 0.2), ((1, 1), 4, 20, 0.1)]

    def cases(self):
        out = []
        for i, ((n_in, n_out), n, steps, lr) in enumerate(self.ARGS):
            data = {"W": rng_values(1000 + i, (n_out, n_in), -1, 1), "b": rng_values(1010 + i, (n_out,), -1, 1),
                    "X": rng_values(1020 + i, (n, n_in)), "Y": rng_values(1030 + i, (n, n_out)),
                    "steps": steps, "lr": lr}
            out.append(Case(f"在模拟的 GPU 上 mean_loss(nn.Linear({n_in}, {n_out}), X, Y, steps={steps}, lr={lr})，"
                            f"{n} 个样本", data))
        return out

    def observe(self, ns, case):
        torch = tensor_lib(ns)               # course_lib: a course_lib-only question runs with nothing else
        d = case.data
        with torch.cuda.simulate() as sim:
            model = _linear(torch, d["W"], d["b"]).to("cuda")
            X, Y = torch.tensor(d["X"], device="cuda"), torch.tensor(d["Y"], device="cuda")
            sim.stats.reset()
            ok, value = attempt(ns["mean_loss"], model, X, Y, d["steps"], d["lr"])
            copies = sim.stats.device_to_host
        if not ok:
            return value
        if value is None:
            return NOTHING
        return {"returns": {"value": float(value) if _is_float(value) else {"type": type(value).__name__},
                            "device_to_host": copies}}

    def expect(self, case):
        d = case.data
        losses, _, _ = sgd_linear_steps(d["W"], d["b"], d["X"], d["Y"], d["lr"], d["steps"])
        return Returns({"value": float(np.mean(losses)), "device_to_host": 1})

    def judge(self, got, want, case):
        g, w = got["returns"], want["returns"]
        if isinstance(g["value"], dict):
            return f"应该返回 Python 浮点数，得到的是 {g['value']['type']}"
        if not np.isclose(g["value"], w["value"], rtol=self.rtol, atol=self.atol):
            return "平均损失不对：应该是各步（更新参数之前）损失的平均值"
        if g["device_to_host"] > w["device_to_host"]:
            return (f"整个函数从设备拷回主机 {g['device_to_host']} 次，"
                    f"最多 {w['device_to_host']} 次就够了")
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict) and "device_to_host" in r:
            v = r["value"]
            shown = f"{v:.6g}" if isinstance(v, float) else fmt(v)
            return f"返回 {shown}，设备到主机的拷贝 {r['device_to_host']} 次"
        return fmt(value)


def _replicas(torch, d, world_size):
    """``world_size`` float64 copies of the linear layer of ``d``; each has run backward on its shard."""
    X, Y = torch.tensor(d["X"], dtype=torch.float64), torch.tensor(d["Y"], dtype=torch.float64)
    models = []
    for rank in range(world_size):
        m = _linear(torch, d["W"], d["b"]).double()
        torch.nn.functional.mse_loss(m(X[rank::world_size]), Y[rank::world_size]).backward()
        models.append(m)
    return models


def _grads(models):
    return [{"weight": snap(m.weight.grad) if m.weight.grad is not None else None,
             "bias": snap(m.bias.grad) if m.bias.grad is not None else None} for m in models]


class _AllReduce(Question):
    """Shared by q4 and q5: replicas with local gradients in, the learner's function, their gradients out."""

    rtol, atol = 1e-9, 1e-12
    ARGS = []

    def cases(self):
        out = []
        for i, (n, n_in, n_out, world) in enumerate(self.ARGS):
            data = {"W": rng_values(1100 + 10 * self.seed + i, (n_out, n_in), -1, 1),
                    "b": rng_values(1150 + 10 * self.seed + i, (n_out,), -1, 1),
                    "X": rng_values(1200 + 10 * self.seed + i, (n, n_in)),
                    "Y": rng_values(1250 + 10 * self.seed + i, (n, n_out)), "world": world}
            sizes = [len(range(r, n, world)) for r in range(world)]
            out.append(Case(self.label(n, n_in, n_out, world, sizes), data))
        return out

    def call_learner(self, ns, models, d):
        raise NotImplementedError

    def observe(self, ns, case):
        torch = tensor_lib(ns)
        d = case.data
        models = _replicas(torch, d, d["world"])
        local = _grads(models)
        ok, result = attempt(self.call_learner, ns, models, d)
        if not ok:
            return result
        after = _grads(models)
        if result is None and after == local:      # an unfinished body: nothing changed
            return NOTHING
        return {"returns": after}

    def expect(self, case):
        d = case.data
        # the replicas' weights went through float32 (nn.Linear's dtype) before .double()
        W32, b32 = (np.array(v, dtype=np.float32).astype(np.float64) for v in (d["W"], d["b"]))
        gW, gb = full_batch_grads(W32, b32, d["X"], d["Y"])
        one = {"weight": snap_array(gW, "torch.float64"), "bias": snap_array(gb, "torch.float64")}
        return Returns([one] * d["world"])

    def judge(self, got, want, case):
        for rank, (g, w) in enumerate(zip(got["returns"], want["returns"])):
            for key in ("weight", "bias"):
                if g[key] is None:
                    return f"工作者 {rank} 的 {key}.grad 是 None"
                problem = super().judge({"returns": g[key]}, {"returns": w[key]}, case)
                if problem:
                    return f"工作者 {rank} 的 {key}.grad 与整批数据的梯度不同：{problem}"
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, list) and r and isinstance(r[0], dict) and "weight" in r[0]:
            return "各工作者的 weight.grad：" + "，".join(fmt(m["weight"]) if m["weight"] else "None" for m in r)
        return fmt(value)


class Q4(_AllReduce):
    name = "q4"
    title = "全规约：平均各工作者的梯度"
    points = 2
    needs = ("all_reduce_mean",)
    hint = ("对每个参数，把所有副本里对应参数的梯度加起来、除以副本数，再把这个平均值交给每个副本。"
            "各副本的参数按同样的顺序排列，所以可以一一对应起来。")
    hint2 = ("一个模型的参数可以按固定的顺序逐个取出；把各副本的参数序列并排对齐，每一组对应的参数算一次平均。"
             "每个副本最好拿到平均值各自的一份拷贝，而不是同一个张量。")
    seed = 0
    ARGS = [(8, 3, 1, 2), (12, 2, 2, 4), (6, 4, 1, 3), (10, 2, 3, 5), (4, 2, 1, 2)]

    def label(self, n, n_in, n_out, world, sizes):
        return (f"{world} 个 nn.Linear({n_in}, {n_out}) 副本（float64），{n} 个样本按 X[rank::{world}] 分片"
                f"（每份 {sizes[0]} 个），各自 backward 之后 all_reduce_mean(models)")

    def call_learner(self, ns, models, d):
        return ns["all_reduce_mean"](models)


class Q5(_AllReduce):
    name = "q5"
    title = "不均匀的分片：按样本数加权平均"
    points = 2
    needs = ("weighted_all_reduce",)
    hint = ("每个工作者的损失是它那份数据上的平均值。整批的平均损失等于各份平均损失按样本数加权的平均："
            "L = Σ n_w L_w / Σ n_w，梯度也一样。")
    hint2 = "每个副本的梯度先乘以它的样本数，全部加起来再除以样本总数，把结果交给每个副本。"
    seed = 1
    ARGS = [(8, 3, 1, 3), (10, 2, 2, 4), (7, 2, 1, 2), (9, 3, 1, 3), (11, 4, 2, 5)]

    def label(self, n, n_in, n_out, world, sizes):
        return (f"{world} 个 nn.Linear({n_in}, {n_out}) 副本（float64），{n} 个样本按 X[rank::{world}] 分片，"
                f"每份 {sizes} 个，各自 backward 之后 weighted_all_reduce(models, {sizes})")

    def call_learner(self, ns, models, d):
        sizes = [len(range(r, len(d["X"]), d["world"])) for r in range(d["world"])]
        return ns["weighted_all_reduce"](models, sizes)


QUESTIONS = [Q1, Q2, Q3, Q4, Q5]
