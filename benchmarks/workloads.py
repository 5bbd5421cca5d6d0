"""The course's workloads, written once against the PyTorch API and once in raw NumPy.

The PyTorch-API versions take the module bound to ``torch`` (``course_lib`` or ``torch``), do
their setup, and return ``run()``; only ``run()`` is timed.  The NumPy versions derive every
gradient by hand: the practical floor for a NumPy-backed engine.  Sizes and data are those of
the team's reference harness (``shared/bench/bench.py``), so the ratios are comparable.
"""

import math

N_TINY_OP = 20_000          # additions of two (3,) tensors
N_TINY_AG = 2_000           # repetitions of the 10-op chain + backward
CHAIN = 10
N_BIG = 10_000_000          # elements, float32
MM = 1024                   # matmul side
MLP_IN, MLP_H, MLP_OUT, MLP_B = 64, 128, 10, 64
MLP_STEPS = 500
MLP_LR = 0.01
LR_EPOCHS, LR_LR = 100, 0.01
LR_X = [1.0, 2.0, 3.0, 4.0, 5.0]
LR_Y = [3.0, 5.0, 7.0, 9.0, 11.0]       # y = 2x + 1
TINY_A = [0.5, -1.25, 2.0]
TINY_B = [1.5, 0.75, -1.5]


class Workload:
    """A named workload: its unit, how many units one run holds, and its two implementations."""

    def __init__(self, name, unit, per_run, description, api, numpy, checked=False):
        self.name, self.unit, self.per_run, self.description = name, unit, per_run, description
        self.api, self.numpy = api, numpy
        self.checked = checked      # same data on every engine: the results must agree


# --------------------------------------------------------------------------- PyTorch API

def tiny_op(torch):
    a, b = torch.tensor(TINY_A), torch.tensor(TINY_B)

    def run():
        with torch.no_grad():
            for _ in range(N_TINY_OP):
                c = a + b
        return c
    return run


def tiny_autograd(torch):
    x = torch.tensor(TINY_A, requires_grad=True)
    w = torch.tensor(TINY_B, requires_grad=True)

    def run():
        for p in (x, w):
            if p.grad is not None:
                p.grad.zero_()
        for _ in range(N_TINY_AG):
            y = x * w
            y = y + x
            y = y * y
            y = y + w
            y = y.clamp(min=0)
            y = y * 0.5
            y = y + 1.0
            y = y.pow(2)
            y = y * x
            y = y + w
            loss = y.sum()
            loss.backward()
        return loss
    return run


def _big(torch):
    torch.manual_seed(0)
    return torch.randn(N_BIG), torch.randn(N_BIG)


def big_elementwise_fwd(torch):
    a, b = _big(torch)

    def run():
        with torch.no_grad():
            return (a * b + a).sum()
    return run


def big_elementwise_fwdbwd(torch):
    a, b = _big(torch)
    a.requires_grad = True
    b.requires_grad = True

    def run():
        a.grad = None
        b.grad = None
        y = (a * b + a).sum()
        y.backward()
        return y
    return run


def matmul(torch):
    torch.manual_seed(0)
    A, B = torch.randn(MM, MM), torch.randn(MM, MM)

    def run():
        with torch.no_grad():
            return A @ B
    return run


def mlp_step(torch):
    torch.manual_seed(0)
    X, Y = torch.randn(MLP_B, MLP_IN), torch.randn(MLP_B, MLP_OUT)
    W1 = torch.randn(MLP_IN, MLP_H) * (1.0 / math.sqrt(MLP_IN))
    b1 = torch.randn(MLP_H) * 0.01
    W2 = torch.randn(MLP_H, MLP_OUT) * (1.0 / math.sqrt(MLP_H))
    b2 = torch.randn(MLP_OUT) * 0.01
    params = [W1, b1, W2, b2]
    for p in params:
        p.requires_grad = True

    def run():
        for _ in range(MLP_STEPS):
            h = (X @ W1 + b1).clamp(min=0)
            out = h @ W2 + b2
            loss = ((out - Y) ** 2).mean()
            loss.backward()
            with torch.no_grad():
                for p in params:
                    p -= MLP_LR * p.grad
                    p.grad.zero_()
        return loss
    return run


def linreg_fit(torch):
    x, y = torch.tensor(LR_X), torch.tensor(LR_Y)

    def run():
        a = torch.tensor(0.0, requires_grad=True)
        b = torch.tensor(0.0, requires_grad=True)
        for _ in range(LR_EPOCHS):
            loss = ((a * x + b - y) ** 2).mean()
            loss.backward()
            with torch.no_grad():
                a -= LR_LR * a.grad
                b -= LR_LR * b.grad
                a.grad.zero_()
                b.grad.zero_()
        return loss
    return run


# --------------------------------------------------------------------------- raw NumPy

def np_tiny_op(np):
    a, b = np.array(TINY_A, np.float32), np.array(TINY_B, np.float32)

    def run():
        for _ in range(N_TINY_OP):
            c = a + b
        return c
    return run


def np_tiny_autograd(np):
    x, w = np.array(TINY_A, np.float32), np.array(TINY_B, np.float32)

    def run():
        xg, wg = np.zeros_like(x), np.zeros_like(w)
        for _ in range(N_TINY_AG):
            y1 = x * w
            y2 = y1 + x
            y3 = y2 * y2
            y4 = y3 + w
            m = y4 > 0
            y5 = y4 * m
            y6 = y5 * 0.5
            y7 = y6 + 1.0
            y8 = y7 ** 2
            y9 = y8 * x
            y10 = y9 + w
            loss = y10.sum()
            g10 = np.ones_like(y10)
            gw = g10                     # from y10 = y9 + w
            g8 = g10 * x                 # from y9 = y8 * x
            gx = g10 * y8
            g7 = g8 * (2.0 * y7)         # y8 = y7 ** 2
            g5 = g7 * 0.5                # y6 = y5 * 0.5 (y7 = y6 + 1)
            g4 = g5 * m                  # relu
            gw = gw + g4                 # y4 = y3 + w
            g2 = g4 * (2.0 * y2)         # y3 = y2 * y2
            gx = gx + g2                 # y2 = y1 + x
            gx = gx + g2 * w             # y1 = x * w
            gw = gw + g2 * x
            xg += gx
            wg += gw
        return loss
    return run


def _np_big(np):
    rng = np.random.default_rng(0)
    return rng.standard_normal(N_BIG, dtype=np.float32), rng.standard_normal(N_BIG, dtype=np.float32)


def np_big_elementwise_fwd(np):
    a, b = _np_big(np)

    def run():
        return (a * b + a).sum()
    return run


def np_big_elementwise_fwdbwd(np):
    a, b = _np_big(np)

    def run():
        y = (a * b + a).sum()
        g = np.float32(1.0)
        ga = b * g
        ga += g
        gb = a * g
        return y, ga, gb
    return run


def np_matmul(np):
    rng = np.random.default_rng(0)
    A = rng.standard_normal((MM, MM), dtype=np.float32)
    B = rng.standard_normal((MM, MM), dtype=np.float32)

    def run():
        return A @ B
    return run


def np_mlp_step(np):
    rng = np.random.default_rng(0)
    f32 = np.float32
    X = rng.standard_normal((MLP_B, MLP_IN), dtype=f32)
    Y = rng.standard_normal((MLP_B, MLP_OUT), dtype=f32)
    W1 = rng.standard_normal((MLP_IN, MLP_H), dtype=f32) * f32(1.0 / math.sqrt(MLP_IN))
    b1 = rng.standard_normal(MLP_H, dtype=f32) * f32(0.01)
    W2 = rng.standard_normal((MLP_H, MLP_OUT), dtype=f32) * f32(1.0 / math.sqrt(MLP_H))
    b2 = rng.standard_normal(MLP_OUT, dtype=f32) * f32(0.01)
    n = f32(2.0 / (MLP_B * MLP_OUT))

    def run():
        for _ in range(MLP_STEPS):
            z1 = X @ W1 + b1
            h = np.maximum(z1, 0)
            out = h @ W2 + b2
            d = out - Y
            loss = (d ** 2).mean()
            g_out = d * n
            gW2, gb2 = h.T @ g_out, g_out.sum(0)
            gz1 = (g_out @ W2.T) * (z1 > 0)
            gW1, gb1 = X.T @ gz1, gz1.sum(0)
            for p, g in ((W1, gW1), (b1, gb1), (W2, gW2), (b2, gb2)):
                p -= MLP_LR * g
        return loss
    return run


def np_linreg_fit(np):
    x, y = np.array(LR_X, np.float32), np.array(LR_Y, np.float32)
    k = np.float32(2.0 / len(LR_X))

    def run():
        a, b = np.zeros((), np.float32), np.zeros((), np.float32)
        for _ in range(LR_EPOCHS):
            d = a * x + b - y
            loss = (d ** 2).mean()
            g = d * k
            a -= LR_LR * (g * x).sum()
            b -= LR_LR * g.sum()
        return loss
    return run


WORKLOADS = [
    Workload("tiny_op", "us/op", N_TINY_OP, "a + b on (3,) float32, no grad", tiny_op, np_tiny_op, checked=True),
    Workload("tiny_autograd", "us/op", N_TINY_AG * CHAIN, "10-op chain on (3,) + sum + backward, per op",
             tiny_autograd, np_tiny_autograd, checked=True),
    Workload("big_elementwise_fwd", "ms", 1, "(a*b+a).sum(), 1e7 float32, no grad",
             big_elementwise_fwd, np_big_elementwise_fwd),
    Workload("big_elementwise_fwdbwd", "ms", 1, "(a*b+a).sum() + backward, 1e7 float32",
             big_elementwise_fwdbwd, np_big_elementwise_fwdbwd),
    Workload("matmul", "ms", 1, f"{MM}x{MM} @ {MM}x{MM} float32", matmul, np_matmul),
    Workload("mlp_step", "ms/step", MLP_STEPS, f"MLP {MLP_IN}->{MLP_H}->{MLP_OUT}, batch {MLP_B}, fwd+bwd+SGD",
             mlp_step, np_mlp_step),
    Workload("linreg_fit", "ms", 1, f"y = a*x + b on 5 points, {LR_EPOCHS} epochs", linreg_fit, np_linreg_fit,
             checked=True),
]
