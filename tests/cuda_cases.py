"""Operations run on CPU and on CUDA (the simulated device here, a real GPU in tests/test_cuda.py).

Each case takes two float tensors ``a``, ``b`` of shape (3, 4) that require
grad and returns a tensor; ``run_case`` records its value, dtype, device,
grad_fn name and the gradients of ``a`` and ``b`` after ``backward`` with a
gradient of ones, so that a CPU run and a CUDA run can be compared.
"""

import numpy as np


def _setitem(a, b):
    c = a * 1
    c[0] = b[1]
    c[:, 1] = 5.0
    return c


def _mask_assign(a, b):
    c = a * 1
    c[c > 0] = 0.0
    return c


def _inplace_on_view(a, b):
    c = a * 1
    c[1:].mul_(b[1:])
    return c


def _index(torch, a, values):
    return torch.tensor(values, device=a.device)


def cases(torch):
    """name -> f(a, b); ``torch`` is the engine (course_lib or PyTorch)."""
    return {
        "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
        "div": lambda a, b: a / (b.abs() + 1), "pow": lambda a, b: a ** 2, "rpow": lambda a, b: 2 ** a,
        "pow_tensor": lambda a, b: (a.abs() + 0.5) ** b, "neg": lambda a, b: -a,
        "exp": lambda a, b: a.exp(), "log": lambda a, b: (a.abs() + 1).log(), "sqrt": lambda a, b: (a.abs() + 1).sqrt(),
        "sin": lambda a, b: a.sin(), "tanh": lambda a, b: a.tanh(), "sigmoid": lambda a, b: a.sigmoid(),
        "relu": lambda a, b: a.relu(), "abs": lambda a, b: a.abs(), "clamp": lambda a, b: a.clamp(min=-0.5, max=0.5),
        "maximum": lambda a, b: torch.maximum(a, b), "where": lambda a, b: torch.where(a > 0, a, b),
        "lerp": lambda a, b: torch.lerp(a, b, 0.3), "lerp_tensor": lambda a, b: a.lerp(b, b.sigmoid()),
        "sum": lambda a, b: a.sum(), "sum_dim": lambda a, b: a.sum(1, keepdim=True), "mean": lambda a, b: a.mean(),
        "mean_dim": lambda a, b: a.mean(dim=0), "max_dim": lambda a, b: a.max(dim=1).values,
        "amax": lambda a, b: a.amax(0), "var": lambda a, b: a.var(1), "norm": lambda a, b: a.norm(),
        "logsumexp": lambda a, b: torch.logsumexp(a, 1), "cumsum": lambda a, b: a.cumsum(1),
        "argmax": lambda a, b: a.argmax(1), "any": lambda a, b: (a > 0).any(),
        "matmul": lambda a, b: a @ b.t(), "mv": lambda a, b: torch.mv(a, b[0]),
        "dot": lambda a, b: torch.dot(a[0], b[0]), "bmm": lambda a, b: torch.bmm(a.unsqueeze(0), b.t().unsqueeze(0)),
        "batched": lambda a, b: a.reshape(1, 3, 4) @ b.t(),
        "view": lambda a, b: a.view(4, 3), "reshape_copy": lambda a, b: a.t().reshape(-1),
        "permute": lambda a, b: a.unsqueeze(0).permute(2, 0, 1), "expand": lambda a, b: a[:1].expand(3, 4) * b,
        "slice": lambda a, b: a[1:, ::2], "index_tensor": lambda a, b: a[_index(torch, a, [0, 2])],
        "mask_select": lambda a, b: a[a > 0], "cat": lambda a, b: torch.cat([a, b]),
        "stack": lambda a, b: torch.stack([a, b]),
        "split": lambda a, b: torch.split(a, 2, dim=1)[1], "flip": lambda a, b: a.flip(0),
        "gather": lambda a, b: torch.gather(a, 1, _index(torch, a, [[0], [1], [2]])),
        "index_select": lambda a, b: torch.index_select(a, 0, _index(torch, a, [2, 0])),
        "masked_fill": lambda a, b: a.masked_fill(a > 0, 0.0), "clone": lambda a, b: a.clone(),
        "to_float64": lambda a, b: a.double(), "to_int64": lambda a, b: a.long(),
        "broadcast": lambda a, b: a + b[0], "cpu_scalar_tensor": lambda a, b: a * torch.tensor(3.0),
        "rsub": lambda a, b: 1 - a, "eq": lambda a, b: a == b, "floor_divide": lambda a, b: a.detach() // 0.3,
        "remainder": lambda a, b: a % 0.7, "setitem": _setitem, "mask_assign": _mask_assign,
        "inplace_on_view": _inplace_on_view, "add_alpha": lambda a, b: torch.add(a, b, alpha=2),
        "zeros_like": lambda a, b: torch.zeros_like(a) + a, "full_like": lambda a, b: torch.full_like(a, 2.0) * a,
        "relu_chain": lambda a, b: ((a @ b.t()).relu() - 1).pow(2).mean(),
        "softmax": lambda a, b: torch.softmax(a, 1) * b, "log_softmax": lambda a, b: a.log_softmax(0) * b,
        "sort": lambda a, b: a.sort(1, descending=True).values * b, "argsort": lambda a, b: a.argsort(0),
        "topk": lambda a, b: a.topk(2, dim=1).values * b[:, :2], "repeat": lambda a, b: a.repeat(2, 1) * 3,
        "tile": lambda a, b: torch.tile(a, (1, 2)) * 2, "tril": lambda a, b: a.tril(-1) + b.triu(1),
        "unbind_iter": lambda a, b: sum(r * r for r in a), "rremainder": lambda a, b: 2 % (a.detach().abs() + 1),
        "t_": lambda a, b: (a * b).t_() * 2, "unsqueeze_": lambda a, b: (a * 1).unsqueeze_(0).squeeze_(0) * b,
        "repeat_interleave": lambda a, b: a.repeat_interleave(2, dim=1) * 2,
        "repeat_interleave_tensor": lambda a, b: a.repeat_interleave(_index(torch, a, [1, 0, 2]), dim=0),
        "tensor_split": lambda a, b: a.tensor_split(3, dim=1)[0] * 2, "fliplr": lambda a, b: torch.fliplr(a) * b,
        "take": lambda a, b: a.take(_index(torch, a, [[0, 5], [11, 5]])),
        "roll": lambda a, b: a.roll((1, -1), (0, 1)) * b,
        "diagonal": lambda a, b: a.diagonal(1) * 2, "diag": lambda a, b: torch.diag(a, -1) + torch.diag(b[0]).sum(),
        "trace": lambda a, b: a.trace() * b, "cumprod": lambda a, b: a.cumprod(1),
        "scatter": lambda a, b: a.scatter(1, _index(torch, a, [[3, 0], [1, 1], [2, 0]]), b),
        "scatter_add_": lambda a, b: (a * 1).scatter_add_(0, _index(torch, a, [[2, 0, 2, 1]]), b),
        "index_add": lambda a, b: a.index_add(0, _index(torch, a, [2, 2, 0]), b, alpha=2),
        "index_fill_": lambda a, b: (a * b).index_fill_(1, _index(torch, a, [3, 0]), 0.5),
        "einsum": lambda a, b: torch.einsum("ij,kj->ik", a, b),
        "einsum_diag": lambda a, b: torch.einsum("ii->i", a[:, :3]),
        "acos": lambda a, b: (a * 0.5).tanh().acos(), "asin": lambda a, b: torch.asin(a.tanh() * 0.9),
        "atan": lambda a, b: a.atan() * b, "softplus": lambda a, b: torch.nn.functional.softplus(a * 9, beta=2,
                                                                                                threshold=5),
        "random_": lambda a, b: (a * 1).random_(5) * 0 + a, "random_to": lambda a, b: (a * 1).random_(2, 5) * 0 + a,
        "random_full": lambda a, b: (a * 1).random_() * 0 + b,
    }


def run_case(torch, fn, device, seed=0):
    """Run ``fn`` on (3, 4) inputs made on the CPU (seeded NumPy) and moved to ``device``; a dict of NumPy results."""
    rng = np.random.default_rng(seed)
    a = torch.tensor(rng.standard_normal((3, 4)).astype(np.float32)).to(device).requires_grad_()
    b = torch.tensor(rng.standard_normal((3, 4)).astype(np.float32)).to(device).requires_grad_()
    r = fn(a, b)
    out = {"value": r.detach().cpu().numpy().copy(), "dtype": str(r.dtype), "device": str(r.device),
           "grad_fn": None if r.grad_fn is None else r.grad_fn.name()}
    if r.requires_grad:
        r.backward(torch.ones_like(r))
        for name, t in (("grad_a", a), ("grad_b", b)):
            g = t.grad
            out[name] = None if g is None else (g.cpu().numpy().copy(), str(g.device))
    return out
