"""Tests for chapter 08 exercises: training a network (minibatches, torch.nn, optimizers, saving)."""

import numpy as np

from ..core import NOTHING, Case, Question, Returns, attempt, call, fmt, is_tensor, snap, snap_array, tensor_lib
from ._util import rng_values

__all__ = ["QUESTIONS", "sgd_linear_steps", "minibatch_fit", "XOR_TRAINING"]


def _is_float(v):
    return isinstance(v, float) or (isinstance(v, int) and not isinstance(v, bool))


def _linear(torch, weight, bias):
    """An ``nn.Linear`` holding the given weights (nested lists), float32."""
    weight, bias = np.array(weight, dtype=np.float32), np.array(bias, dtype=np.float32)
    layer = torch.nn.Linear(weight.shape[1], weight.shape[0])
    with torch.no_grad():
        layer.weight.copy_(torch.tensor(weight))
        layer.bias.copy_(torch.tensor(bias))
    return layer


def _mse_grads(W, b, X, Y):
    """Loss ``mean((X W^T + b - Y)^2)`` (over all elements) and its gradients, in float64."""
    pred = X @ W.T + b
    r = pred - Y
    d = 2 * r / r.size
    return float(np.mean(r ** 2)), d.T @ X, d.sum(axis=0)


def sgd_linear_steps(W, b, X, Y, lr, steps):
    """Reference: ``steps`` full-batch SGD steps of a linear layer on the MSE loss; the losses and final W, b."""
    W, b = np.array(W, dtype=np.float64), np.array(b, dtype=np.float64)
    X, Y = np.array(X, dtype=np.float64), np.array(Y, dtype=np.float64)
    losses = []
    for _ in range(steps):
        loss, gW, gb = _mse_grads(W, b, X, Y)
        losses.append(loss)
        W, b = W - lr * gW, b - lr * gb
    return losses, W, b


def minibatch_fit(W, b, X, y, epochs, lr, batch_size):
    """Reference: minibatch SGD (batches in order, no shuffling) of a linear layer with one output on
    ``mean((X w + b - y)^2)`` per batch; the final W (1, n), b (1,)."""
    W, b = np.array(W, dtype=np.float64), np.array(b, dtype=np.float64)
    X, y = np.array(X, dtype=np.float64), np.array(y, dtype=np.float64)
    for _ in range(epochs):
        for start in range(0, len(X), batch_size):
            xb, yb = X[start:start + batch_size], y[start:start + batch_size, None]
            _, gW, gb = _mse_grads(W, b, xb, yb)
            W, b = W - lr * gW, b - lr * gb
    return W, b


def _snap_params(layer):
    return {"weight": snap(layer.weight.detach()), "bias": snap(layer.bias.detach())}


def _f32(a):
    return snap_array(np.asarray(a).astype(np.float32), "torch.float32")


# ---------------------------------------------------------------------------------------------------------

class Q1(Question):
    name = "q1"
    title = "小批量迭代器"
    points = 2
    needs = ("batches",)
    hint = ("每次遍历先得到一个打乱了的样本编号顺序，再按这个顺序每次取 batch_size 个编号，"
            "用同一组编号同时去取 X 的行和 y 的元素。打乱要用 torch 的随机数（不是 Python 或 NumPy 的），"
            "torch.manual_seed 才管得到它。")
    hint2 = "torch 有一个函数直接给出 0 到 n-1 的一个随机排列；从排列里切出一段编号，用它做索引。"

    SIZES = [(10, 3), (20, 5), (7, 10), (50, 8), (9, 9), (1, 4)]

    def cases(self):
        return [Case(f"batches(X, y, batch_size={bs})，X 有 {n} 行，y[i] 是第 i 行的编号", (n, bs))
                for n, bs in self.SIZES]

    def observe(self, ns, case):
        torch = tensor_lib(ns)
        n, bs = case.data
        X = torch.stack([torch.arange(n, dtype=torch.float32), -torch.arange(n, dtype=torch.float32)], dim=1)
        y = torch.arange(n)

        def one_pass(seed):
            torch.manual_seed(seed)
            ok, result = attempt(ns["batches"], X, y, bs)
            if not ok:
                return result
            if result is None:
                return None
            ok, items = attempt(list, result)
            if not ok:
                return items
            out = {"sizes": [], "order": [], "aligned": True}
            for item in items:
                if not (isinstance(item, (tuple, list)) and len(item) == 2 and all(is_tensor(t) for t in item)):
                    return {"bad_item": type(item).__name__}
                xb, yb = item
                if xb.shape[0] != yb.shape[0] or tuple(xb.shape[1:]) != (2,) or yb.dim() != 1:
                    return {"bad_shape": [list(xb.shape), list(yb.shape)]}
                out["sizes"].append(int(yb.shape[0]))
                out["order"] += [int(v) for v in yb.tolist()]
                out["aligned"] &= xb[:, 0].tolist() == [float(v) for v in yb.tolist()]
            return out
        first = one_pass(0)
        if first is None:
            return NOTHING
        if isinstance(first, dict) and "raises" in first:
            return first
        again, other = one_pass(0), one_pass(1)
        return {"returns": {"pass": first, "same_seed_same_order": again == first,
                            "other_seed_other_order": (other or {}).get("order") != first.get("order")}}

    def expect(self, case):
        n, bs = case.data
        sizes = [bs] * (n // bs) + ([n % bs] if n % bs else [])
        return Returns({"sizes": sizes, "n": n})

    def judge(self, got, want, case):
        g, w = got["returns"], want["returns"]
        p = g["pass"]
        if "bad_item" in p:
            return f"每一批应该是 (X_batch, y_batch) 两个张量，得到的是 {p['bad_item']}"
        if "bad_shape" in p:
            return f"一批里 X 和 y 的形状对不上：{p['bad_shape']}"
        if p["sizes"] != w["sizes"]:
            return f"各批的大小应为 {w['sizes']}，得到 {p['sizes']}"
        if sorted(p["order"]) != list(range(w["n"])):
            return "一轮里每个样本应该恰好出现一次"
        if not p["aligned"]:
            return "X 的行和 y 的元素没有对齐：同一批里要用同一组编号索引 X 和 y"
        if w["n"] >= 7 and p["order"] == list(range(w["n"])):
            return "样本的顺序没有打乱"
        if not g["same_seed_same_order"]:
            return "torch.manual_seed 相同时，打乱的顺序应该相同（请用 torch 的随机数）"
        if w["n"] >= 7 and not g["other_seed_other_order"]:
            return "换一个随机种子，顺序应该跟着变（每次调用都要重新打乱）"
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict) and "pass" in r and "sizes" in r["pass"]:
            return f"各批大小 {r['pass']['sizes']}，样本顺序 {r['pass']['order'][:12]}"
        if isinstance(r, dict) and "sizes" in r:
            return f"各批大小 {r['sizes']}，每个样本恰好一次，顺序随机"
        return fmt(value)


class Q2(Question):
    name = "q2"
    title = "训练一步"
    points = 2
    needs = ("train_step",)
    hint = ("一步训练有固定的顺序，而且每一步都离不开优化器："
            "清除上一步留下的梯度、前向传播算出损失、反向传播、更新参数。"
            "测试会先在参数的梯度里放上“旧梯度”：不先清除，它会被累加进来。要返回的是 Python 浮点数，不是张量。")
    hint2 = ("四件事依次是：让优化器清除梯度、用模型和损失函数算出这一批的损失、对损失反向传播、让优化器更新参数；"
             "最后把 0 维的损失张量换成 Python 数再返回。")
    rtol, atol = 1e-4, 1e-6

    ARGS = [((3, 1), 4, 0.1, 1, False), ((2, 2), 5, 0.05, 2, True), ((4, 3), 8, 0.2, 3, True),
            ((1, 1), 2, 0.5, 1, True)]

    def cases(self):
        out = []
        for i, ((n_in, n_out), n, lr, steps, stale) in enumerate(self.ARGS):
            data = {"W": rng_values(800 + i, (n_out, n_in), -1, 1), "b": rng_values(810 + i, (n_out,), -1, 1),
                    "X": rng_values(820 + i, (n, n_in)), "Y": rng_values(830 + i, (n, n_out)),
                    "lr": lr, "steps": steps, "stale": stale}
            label = (f"nn.Linear({n_in}, {n_out})、nn.MSELoss()、optim.SGD(lr={lr})，{n} 个样本，"
                     f"连续调用 train_step {steps} 次" + ("，调用前 .grad 里留有旧梯度" if stale else ""))
            out.append(Case(label, data))
        return out

    def observe(self, ns, case):
        torch = tensor_lib(ns)
        d = case.data
        model = _linear(torch, d["W"], d["b"])
        optimizer = torch.optim.SGD(model.parameters(), lr=d["lr"])
        if d["stale"]:
            for p in model.parameters():
                p.grad = torch.full_like(p, 5.0)
        X, Y = torch.tensor(d["X"]), torch.tensor(d["Y"])
        losses = []
        for _ in range(d["steps"]):
            ok, value = attempt(ns["train_step"], model, torch.nn.MSELoss(), optimizer, X, Y)
            if not ok:
                return value
            if value is None:
                return NOTHING
            losses.append(float(value) if _is_float(value) else {"type": type(value).__name__})
        return {"returns": {"losses": losses, **_snap_params(model)}}

    def expect(self, case):
        d = case.data
        losses, W, b = sgd_linear_steps(d["W"], d["b"], d["X"], d["Y"], d["lr"], d["steps"])
        return Returns({"losses": losses, "weight": _f32(W), "bias": _f32(b)})

    def judge(self, got, want, case):
        g, w = got["returns"], want["returns"]
        if any(isinstance(v, dict) for v in g["losses"]):
            return "train_step 应该返回这一步的损失，一个 Python 浮点数（用 loss.item()）"
        for key in ("weight", "bias"):
            problem = super().judge({"returns": g[key]}, {"returns": w[key]}, case)
            if problem:
                return f"更新后的 {key}：{problem}"
        if not np.allclose(g["losses"], w["losses"], rtol=self.rtol, atol=self.atol):
            return "返回的损失不对：应该是更新参数之前、这一批数据上的均方误差"
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict) and "losses" in r:
            losses = ", ".join(f"{v:.5g}" if isinstance(v, float) else str(v) for v in r["losses"])
            return f"各步的损失 [{losses}]，之后 weight = {fmt(r['weight'])}"
        return fmt(value)


FIT_PROMPT_HINT = ("这段循环有两个错误。第一，model(xb) 的形状是 (批量大小, 1)，yb 的形状是 (批量大小,)："
                   "两者相减会发生什么（运行一下，看看警告）？第二，每一批的 backward() 之前，.grad 里还留着什么？")


class Q3(Question):
    name = "q3"
    title = "修复：训练循环里的两个错误"
    points = 2
    needs = ("fit",)
    hint = FIT_PROMPT_HINT
    hint2 = "让模型输出的形状和标签一致（去掉长度为 1 的那一维），并且每一批反向传播之前先清除上一批留下的梯度。"
    rtol, atol = 1e-4, 1e-5

    ARGS = [(2, 12, 4, 2, 0.1), (3, 10, 3, 3, 0.05), (1, 8, 8, 5, 0.2), (4, 15, 5, 1, 0.1)]

    def cases(self):
        out = []
        for i, (n_in, n, bs, epochs, lr) in enumerate(self.ARGS):
            data = {"W": rng_values(840 + i, (1, n_in), -1, 1), "b": rng_values(850 + i, (1,), -1, 1),
                    "X": rng_values(860 + i, (n, n_in)), "y": rng_values(870 + i, (n,)),
                    "epochs": epochs, "lr": lr, "batch_size": bs}
            out.append(Case(f"fit(nn.Linear({n_in}, 1), X 形状 ({n}, {n_in}), y 形状 ({n},), epochs={epochs}, "
                            f"lr={lr}, batch_size={bs})", data))
        return out

    def observe(self, ns, case):
        import warnings

        torch = tensor_lib(ns)
        d = case.data
        model = _linear(torch, d["W"], d["b"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ok, err = attempt(ns["fit"], model, torch.tensor(d["X"]), torch.tensor(d["y"]), d["epochs"], d["lr"],
                              d["batch_size"])
        if not ok:
            return err
        return {"returns": _snap_params(model)}

    def expect(self, case):
        d = case.data
        W, b = minibatch_fit(d["W"], d["b"], d["X"], d["y"], d["epochs"], d["lr"], d["batch_size"])
        return Returns({"weight": _f32(W), "bias": _f32(b)})

    def judge(self, got, want, case):
        for key in ("weight", "bias"):
            problem = super().judge({"returns": got["returns"][key]}, {"returns": want["returns"][key]}, case)
            if problem:
                return f"训练后的 {key}：{problem}"
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict) and "weight" in r:
            return f"训练后 weight = {fmt(r['weight'])}，bias = {fmt(r['bias'])}"
        return fmt(value)


def _classifier(torch, spec):
    """Linear -> ReLU -> Dropout(0.5) -> Linear with the weights of ``spec``, left in training mode."""
    net = torch.nn.Sequential(torch.nn.Linear(*np.shape(spec["W1"])[::-1]), torch.nn.ReLU(), torch.nn.Dropout(0.5),
                              torch.nn.Linear(*np.shape(spec["W2"])[::-1]))
    with torch.no_grad():
        for layer, w, b in ((net[0], spec["W1"], spec["b1"]), (net[3], spec["W2"], spec["b2"])):
            layer.weight.copy_(torch.tensor(w))
            layer.bias.copy_(torch.tensor(b))
    net.train()
    return net


class Q4(Question):
    name = "q4"
    title = "修复：评估时忘了切换模式"
    points = 2
    needs = ("evaluate",)
    hint = ("测试用的网络里有一个 Dropout 层。它在训练模式下会随机把一半的激活值置 0，评估时不应该这样。"
            "评估之前要调用哪个方法？另外，评估时不需要计算图。")
    hint2 = "先把模型切换到评估模式（Dropout 就不再随机置零），再把前向传播放进不记录计算图的上下文里。"

    SIZES = [(4, 8, 3, 40), (6, 16, 4, 60), (3, 6, 2, 30)]

    def cases(self):
        out = []
        for i, (n_in, hidden, classes, n) in enumerate(self.SIZES):
            spec = {"W1": rng_values(880 + i, (hidden, n_in), -1, 1),
                    "b1": rng_values(885 + i, (hidden,), -0.5, 0.5),
                    "W2": rng_values(890 + i, (classes, hidden), -1, 1),
                    "b2": rng_values(895 + i, (classes,), -0.5, 0.5),
                    "X": rng_values(900 + i, (n, n_in)),
                    "y": rng_values(905 + i, (n,), 0, classes, integers=True)}
            out.append(Case(f"evaluate(model, X, y)：model 是 Linear({n_in}, {hidden}) → ReLU → Dropout(0.5) → "
                            f"Linear({hidden}, {classes})，处于训练模式；{n} 个样本", spec))
        return out

    def observe(self, ns, case):
        torch = tensor_lib(ns)
        d = case.data
        net = _classifier(torch, d)
        torch.manual_seed(0)
        return call(ns["evaluate"], net, torch.tensor(d["X"]), torch.tensor(d["y"]),
                    convert=lambda v: float(v) if _is_float(v) else {"type": type(v).__name__})

    def expect(self, case):
        d = case.data
        X = np.array(d["X"], dtype=np.float64)
        h = np.maximum(X @ np.array(d["W1"]).T + np.array(d["b1"]), 0)
        scores = h @ np.array(d["W2"]).T + np.array(d["b2"])
        return Returns(float(np.mean(scores.argmax(axis=1) == np.array(d["y"]))))

    def judge(self, got, want, case):
        if isinstance(got.get("returns"), dict):
            return "evaluate 应该返回 Python 浮点数（准确率），不是张量"
        return super().judge(got, want, case)


XOR_TRAINING = {"lr": 0.02, "batch_size": 50, "n_train": 400, "n_test": 200, "max_params": 2000}


class Q5(Question):
    name = "q5"
    title = "让网络学会“异或”"
    points = 3
    needs = ("make_model",)
    hint = ("二维平面上，x₁ 和 x₂ 同号是一类、异号是另一类：没有一条直线能把两类分开。"
            "只有线性层的模型（不论叠几层）都只能画出一条直线。在线性层之间还需要什么？"
            "隐藏层只有几个单元时，训练结果很不稳定，宽一些更可靠。")
    hint2 = "在两个线性层之间放一个非线性的激活函数，隐藏层取十几个或更多单元。"

    RUNS = [(0, 25, 0.9), (1, 25, 0.9), (2, 50, 0.95)]      # (data seed, epochs, test accuracy to reach)

    def cases(self):
        t = XOR_TRAINING
        return [Case(f"make_model() 的网络（输入 2 维，输出 2 个类别的得分），用 Adam(lr={t['lr']}) "
                     f"训练 {epochs} 轮、每批 {t['batch_size']} 个；数据种子 {seed}："
                     f"{t['n_train']} 个训练点、{t['n_test']} 个测试点，测试准确率要达到 {target:.0%}",
                     (seed, epochs, target))
                for seed, epochs, target in self.RUNS]

    def observe(self, ns, case):
        torch = tensor_lib(ns)
        t = XOR_TRAINING
        seed, epochs, _ = case.data
        torch.manual_seed(100 + seed)
        X = torch.rand(t["n_train"] + t["n_test"], 2) * 2 - 1
        y = ((X[:, 0] > 0) != (X[:, 1] > 0)).long()
        torch.manual_seed(seed)
        ok, model = attempt(ns["make_model"])
        if not ok:
            return model
        if model is None:
            return NOTHING
        if not isinstance(model, torch.nn.Module):
            return {"returns": {"not_module": type(model).__name__}}
        n_params = sum(p.numel() for p in model.parameters())
        if n_params > t["max_params"]:
            return {"returns": {"params": n_params}}
        X_train, y_train, X_test, y_test = X[:t["n_train"]], y[:t["n_train"]], X[t["n_train"]:], y[t["n_train"]:]
        optimizer = torch.optim.Adam(model.parameters(), lr=t["lr"])
        loss_fn = torch.nn.CrossEntropyLoss()

        def run():
            for _ in range(epochs):
                model.train()
                order = torch.randperm(t["n_train"])
                for start in range(0, t["n_train"], t["batch_size"]):
                    index = order[start:start + t["batch_size"]]
                    xb, yb = X_train[index], y_train[index]
                    loss = loss_fn(model(xb), yb)
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
            model.eval()
            with torch.no_grad():
                scores = model(X_test)
            if tuple(scores.shape) != (t["n_test"], 2):
                return {"bad_output": list(scores.shape)}
            return {"params": n_params, "accuracy": (scores.argmax(dim=1) == y_test).float().mean().item()}
        ok, result = attempt(run)
        return {"returns": result} if ok else result

    def expect(self, case):
        return Returns({"accuracy_at_least": case.data[2], "max_params": XOR_TRAINING["max_params"]})

    def judge(self, got, want, case):
        g, w = got["returns"], want["returns"]
        if "not_module" in g:
            return f"make_model() 应该返回一个 nn.Module（例如 nn.Sequential(...)），得到的是 {g['not_module']}"
        if "bad_output" in g:
            n = XOR_TRAINING["n_test"]
            return f"网络对 {n} 个二维输入的输出形状应为 ({n}, 2)，得到 {g['bad_output']}"
        if "accuracy" not in g:
            return f"参数太多：{g['params']} 个，不超过 {w['max_params']} 个就够了"
        if g["accuracy"] < w["accuracy_at_least"]:
            return f"测试准确率 {g['accuracy']:.1%}，要达到 {w['accuracy_at_least']:.0%}"
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict) and "accuracy" in r:
            return f"测试准确率 {r['accuracy']:.1%}（{r['params']} 个参数）"
        if isinstance(r, dict) and "accuracy_at_least" in r:
            return f"测试准确率至少 {r['accuracy_at_least']:.0%}，参数不超过 {r['max_params']} 个"
        return fmt(value)


class Q6(Question):
    name = "q6"
    title = "保存与恢复检查点"
    points = 2
    needs = ("save_checkpoint", "load_checkpoint")
    hint = ("检查点是一个字典，放着模型的参数、优化器的状态和轮数，都是张量、数和字典这样的“纯数据”；"
            "保存整个模型对象的文件不能用 weights_only=True 加载。恢复时把读回的两份状态分别装回模型和优化器。")
    hint2 = ("模型和优化器都有一个方法返回自己的全部状态（一个字典），也都有一个方法把这样的字典装回去；"
             "把两份状态和轮数放进一个字典，一起写进文件。")
    rtol, atol = 1e-6, 1e-7

    ARGS = [((3, 2), 7, 3), ((1, 1), 0, 1), ((4, 3), 12, 2)]

    def cases(self):
        out = []
        for i, ((n_in, n_out), epoch, steps) in enumerate(self.ARGS):
            data = {"W": rng_values(910 + i, (n_out, n_in), -1, 1), "b": rng_values(915 + i, (n_out,), -1, 1),
                    "X": rng_values(920 + i, (6, n_in)), "Y": rng_values(925 + i, (6, n_out)), "epoch": epoch,
                    "steps": steps}
            out.append(Case(f"nn.Linear({n_in}, {n_out}) 用 Adam 训练 {steps} 步后 save_checkpoint(model, optimizer, "
                            f"epoch={epoch}, path)，再用新的模型和优化器 load_checkpoint(model, optimizer, path)，"
                            "两边接着训练 2 步", data))
        return out

    def observe(self, ns, case):
        import os
        import tempfile

        torch = tensor_lib(ns)
        d = case.data
        X, Y = torch.tensor(d["X"]), torch.tensor(d["Y"])

        def train(model, optimizer, steps):
            for _ in range(steps):
                optimizer.zero_grad()
                torch.nn.functional.mse_loss(model(X), Y).backward()
                optimizer.step()

        model = _linear(torch, d["W"], d["b"])
        optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
        train(model, optimizer, d["steps"])
        saved = _snap_params(model)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "checkpoint.pt")
            ok, err = attempt(ns["save_checkpoint"], model, optimizer, d["epoch"], path)
            if not ok:
                return err
            written = os.path.exists(path)
            weights_only = written and attempt(torch.load, path, weights_only=True)[0]
            fresh = _linear(torch, d["W"], d["b"])
            fresh_optimizer = torch.optim.Adam(fresh.parameters(), lr=0.05)
            ok, epoch = attempt(ns["load_checkpoint"], fresh, fresh_optimizer, path)
        if not written and (not ok or epoch is None):
            return NOTHING if ok else {"returns": {"no_file": True}}
        if not ok:
            return epoch
        if epoch is None:
            return NOTHING
        restored = _snap_params(fresh)
        train(model, optimizer, 2)
        train(fresh, fresh_optimizer, 2)
        return {"returns": {"epoch": epoch if isinstance(epoch, int) else {"type": type(epoch).__name__},
                            "weights_only": weights_only, "saved": saved, "restored": restored,
                            "after": _snap_params(fresh), "reference": _snap_params(model)}}

    def expect(self, case):
        return Returns({"epoch": case.data["epoch"], "weights_only": True})

    def judge(self, got, want, case):
        g, w = got["returns"], want["returns"]
        if g.get("no_file"):
            return "save_checkpoint 没有在 path 写出文件"
        if not g["weights_only"]:
            return "这个文件不能用 torch.load(path, weights_only=True) 加载：请保存 state_dict，而不是模型对象"
        if g["epoch"] != w["epoch"]:
            return f"load_checkpoint 应该返回保存时的轮数 {w['epoch']}，得到 {fmt(g['epoch'])}"
        for key in ("weight", "bias"):
            if super().judge({"returns": g["restored"][key]}, {"returns": g["saved"][key]}, case):
                return f"恢复后的模型参数（{key}）与保存时不同"
        for key in ("weight", "bias"):
            if super().judge({"returns": g["after"][key]}, {"returns": g["reference"][key]}, case):
                return "恢复后接着训练，结果与不中断时不同：优化器的状态（Adam 的滑动平均）也要保存和恢复"
        return None

    def show(self, value):
        r = value.get("returns")
        if isinstance(r, dict) and "epoch" in r and "restored" in r:
            return f"返回的轮数 {fmt(r['epoch'])}，weights_only 能否加载：{r['weights_only']}"
        if isinstance(r, dict) and "epoch" in r:
            return f"返回轮数 {r['epoch']}，文件能用 weights_only=True 加载，恢复后接着训练与不中断时相同"
        return fmt(value)


QUESTIONS = [Q1, Q2, Q3, Q4, Q5, Q6]
