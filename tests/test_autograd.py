"""Autograd behaves as PyTorch's: each snippet prints the same with course_lib and with real PyTorch.

Covers requires_grad and leaves, grad_fn names and next_functions, backward
on scalars and non-scalars, accumulation, retain_graph, retain_grad, hooks,
grad modes, detach and .data, autograd.grad / autograd.backward, gradients
through broadcasting, views and indexing.  Error messages are in
test_autograd_errors.py, in-place operations in test_inplace_and_versions.py.
"""

import pytest
from torch_compare import assert_same

EDGES = "def edges(fn): return [(None if f is None else type(f).__name__, i) for f, i in fn.next_functions]\n"

SNIPPETS = {
    # -- requires_grad, leaves ---------------------------------------------------------------
    "defaults": """
t = torch.tensor([1.0, 2.0])
print(t.requires_grad, t.grad, t.grad_fn, t.is_leaf)
t.requires_grad = True
print(t.requires_grad, t.is_leaf, t)
print(torch.ones(2, requires_grad=True), torch.zeros(2, dtype=torch.float16, requires_grad=True))
""",
    "requires_grad_method": """
t = torch.ones(2)
print(t.requires_grad_() is t, t.requires_grad, t.requires_grad_(False).requires_grad)
w = torch.ones(2, requires_grad=True); h = w * 2
print(h.requires_grad_() is h, h.requires_grad, h.requires_grad_(True).is_leaf)
x = torch.tensor([1, 2]); x.requires_grad = False; x.requires_grad_(False); print(x.requires_grad)
""",
    "results_of_ops_without_grad_are_leaves": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
plain = torch.tensor([4.0, 5.0])
b = a * 3
print(a.is_leaf, b.is_leaf, b.sum().is_leaf, plain.is_leaf, (plain * 2).is_leaf, (plain * 2).requires_grad)
print((a.detach() * plain).requires_grad, (a > 1).requires_grad, a.argmax().requires_grad, a.long().requires_grad)
""",
    "scaled_tensor_is_not_a_leaf": """
import warnings
w = torch.ones(3, requires_grad=True) * 0.1
w2 = (torch.ones(3) * 0.1).requires_grad_()
(w * w2).sum().backward()
with warnings.catch_warnings(record=True) as c:
    warnings.simplefilter("always")
    print(w.is_leaf, type(w.grad_fn).__name__, w.grad, w2.is_leaf, w2.grad, len(c))
""",
    "double_after_requires_grad_is_not_a_leaf": """
w = torch.tensor([1.0, 2.0], requires_grad=True).double()
(w * w).sum().backward()
print(w.is_leaf, type(w.grad_fn).__name__)
""",
    "view_of_plain_tensor_made_a_leaf": """
x = torch.arange(6.0).view(2, 3)
x.requires_grad_()
(x * x).sum().backward()
print(x.is_leaf, x.grad)
""",
    # -- grad_fn names and next_functions -------------------------------------------------------
    "grad_fn_names_elementwise": """
w = torch.tensor([2.0, 3.0], requires_grad=True)
u = torch.tensor([0.5, 1.5], requires_grad=True)
for r in (w + 1, w * 2, w - 1, w / 2, w ** 2, w ** u, 2 ** w, -w, w.exp(), w.log(), w.sqrt(), w.abs(), w.sin(),
          w.cos(), w.tanh(), w.sigmoid(), w.relu(), w.log1p(), w.reciprocal(), w % 2, w % u, w.fmod(1.5),
          w.fmod(u), w.clamp(0, 1), w.clamp(u, None), torch.maximum(w, u), torch.div(w, 2, rounding_mode="floor"),
          w.floor(), w.round(decimals=1), torch.where(w > 2, w, u), w.masked_fill(w > 2, 0.0),
          w.to(torch.float64), w // 2):
    print(type(r.grad_fn).__name__)
""",
    "grad_fn_names_reductions_and_shapes": """
w = torch.ones(2, 3, requires_grad=True)
for r in (w.sum(), w.sum(0), w.mean(), w.mean(1, keepdim=True), w.prod(), w.prod(1), w.max(), w.max(1)[0], w.min(),
          w.amax(0), w.amin(), w.std(), w.var(1), w.norm(), w.norm(dim=1, p=1), w.logsumexp(1), w.cumsum(0),
          w.view(6), w.reshape(3, 2), w.t().reshape(6), w.t().reshape(3, 1, 2), w.t(), w.T, w.mT,
          w.transpose(0, 1), w.permute(1, 0), w.unsqueeze(0), w.unsqueeze(0).squeeze(), w.unsqueeze(0).squeeze(0),
          w.expand(2, 2, 3), w[0], w[:, 1], w[0:1], w[:], w[:, :], w[...], w[[0, 1]], w[w > 0], w.flatten(),
          w.clone(), w.flip(0), w.narrow(1, 0, 2), w.unbind()[0], w.split(1)[0], w.chunk(3, 1)[0],
          w.split([1, 2], 1)[1], torch.cat([w, w]), torch.stack([w, w]), w.index_select(0, torch.tensor([1])),
          w.masked_select(w > 0), w.gather(1, torch.tensor([[0], [1]])), w.as_strided((2,), (1,))):
    print(type(r.grad_fn).__name__)
""",
    "grad_fn_names_matmul": """
m = torch.ones(2, 3, requires_grad=True)
v = torch.ones(3, requires_grad=True)
b = torch.ones(4, 2, 3, requires_grad=True)
for r in (m @ m.t(), m @ v, v @ v, v @ m.t(), b @ v, b @ m.t(), b @ b.transpose(1, 2), m.mm(m.t()), m.mv(v),
          v.dot(v), torch.outer(v, v), b.bmm(b.transpose(1, 2))):
    print(type(r.grad_fn).__name__, [type(f).__name__ for f, _ in r.grad_fn.next_functions])
""",
    "next_functions_with_python_numbers": EDGES + """
w = torch.tensor([2.0], requires_grad=True)
for y in (w + 1, 1 + w, w * 2, 2 * w, w - 1, 1 - w, w / 2, 2 / w, w ** 2, 2 ** w, w % 2, w.fmod(2), w // 2,
          w.clamp(0, 1), torch.where(w > 0, w, 0.0), w.masked_fill(w > 0, 1.0), torch.add(w, 1, alpha=2)):
    print(type(y.grad_fn).__name__, edges(y.grad_fn))
""",
    "next_functions_with_constant_tensors": EDGES + """
w = torch.tensor([2.0], requires_grad=True)
c = torch.tensor([3.0])
for y in (w + c, c + w, w * c, c - w, c / w, w ** c, c ** w, w @ c, torch.cat([c, w]), torch.where(c > 0, c, w),
          w.clamp(c, None), w.masked_fill(w > 0, torch.tensor(1.0))):
    print(type(y.grad_fn).__name__, edges(y.grad_fn))
""",
    "next_functions_chain_and_accumulate_grad": EDGES + """
w = torch.tensor([2.0, 3.0], requires_grad=True)
z = (w ** 2 + 2).sum()
add = z.grad_fn.next_functions[0][0]
pw = add.next_functions[0][0]
acc = pw.next_functions[0][0]
print(edges(z.grad_fn), edges(add), edges(pw))
print(acc.variable is w, acc.name(), acc.next_functions, z.grad_fn.name(), add.name())
print((w * 2).grad_fn.next_functions[0][0] is (w * 3).grad_fn.next_functions[0][0])
""",
    "node_types_print_as_pytorchs": """
w = torch.ones(2, requires_grad=True)
y = w * 2
z = w.clone()
z[0] = 1.0
print(type(y.grad_fn), type(y.grad_fn.next_functions[0][0]), type(z.grad_fn), type(y.grad_fn).__qualname__)
""",
    "multi_output_nodes": """
w = torch.tensor([[2.0, 1.0], [0.0, 4.0]], requires_grad=True)
a, b = w.unbind(0)
print(type(a.grad_fn).__name__, a.grad_fn is b.grad_fn, a.output_nr, b.output_nr)
v, i = w.max(1)
print(type(v.grad_fn).__name__, i.grad_fn, i.requires_grad)
(a * b + w.split(1)[1].sum()).sum().backward()
print(w.grad)
""",
    "printing_grad_fn": """
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = w.clone()
print(w * w + 2, (w * w).sum(), w.mean(), w[1], w.view(3, 1), w.detach(), w.t())
y[0] = 5.0
print(y)
y += 1
print(y)
""",
    # -- backward ---------------------------------------------------------------------------------
    "scalar_backward": """
s = torch.tensor(3.0, requires_grad=True)
(s ** 3).backward()
print(s.grad)
t = torch.tensor(2.0, requires_grad=True)
(t * t).backward(torch.tensor(1.0))
print(t.grad)
v = torch.tensor([3.0], requires_grad=True)
(v * v).backward()
print(v.grad)
""",
    "backward_with_gradient_argument": """
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(v ** 2).backward(torch.tensor([0.1, 1.0, 0.01]))
print(v.grad)
(v * 2).backward(torch.tensor([1, 1, 1]))
print(v.grad)
(v * 2).backward(torch.tensor([1.0, 0.5, 0.0], dtype=torch.float64))
print(v.grad, v.grad.dtype)
y = v ** 3
y.backward(torch.ones_like(y))
print(v.grad)
""",
    "backward_on_a_leaf": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
g = torch.tensor([1.0, 1.0])
w.backward(g)
w.sum().backward()
print(w.grad, g)
""",
    "accumulation_and_zeroing": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
for _ in range(3):
    (w * w).sum().backward()
    print(w.grad)
g = w.grad
w.grad.zero_()
(w * 3).sum().backward()
print(g, w.grad is g)
w.grad = None
(w * 3).sum().backward()
print(w.grad, w.grad is g, w.grad.requires_grad, w.grad.grad_fn, w.grad.is_leaf)
w.grad.data.zero_()
print(w.grad)
""",
    "leaf_used_many_times": """
w = torch.tensor(3.0, requires_grad=True)
(w * w * w + w).backward()
print(w.grad)
u = torch.tensor([1.0, 2.0], requires_grad=True)
s = sum([u * 1, u * 2])
print(type(s.grad_fn).__name__, [None if f is None else type(f).__name__ for f, _ in s.grad_fn.next_functions])
s.sum().backward()
print(u.grad)
""",
    "retain_graph": """
v = torch.tensor([1.0, 3.0], requires_grad=True)
s = (v ** 2 + 1).sum()
s.backward(retain_graph=True)
print(v.grad)
s.backward()
print(v.grad)
y = v * v
y.sum().backward(retain_graph=True)
y.mean().backward()
print(v.grad)
""",
    "graphs_without_saved_tensors_run_twice": """
w = torch.ones(2, 2, requires_grad=True)
for s in ((w + 1).sum(), w.mean(), w.view(4)[1:].sum(), w.t().sum(), (w % 2).sum(), w.floor().sum(),
          w.cumsum(0).sum(), w.to(torch.float64).sum(), torch.cat([w, w]).sum(), w.as_strided((2,), (1,)).sum()):
    s.backward()
    s.backward()
print(w.grad)
""",
    "two_outputs_share_a_subgraph": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * 2
y.sum().backward()
(y * y).sum().backward()
print(w.grad)
""",
    "grad_through_broadcasting": """
a = torch.tensor([[1.0], [2.0]], requires_grad=True)
b = torch.tensor([10.0, 20.0, 30.0], requires_grad=True)
c = torch.tensor(2.0, requires_grad=True)
((a * b + c) ** 2).sum().backward()
print(a.grad, b.grad, c.grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
(w.expand(3, 2) * torch.arange(6.0).view(3, 2)).sum().backward()
print(w.grad)
""",
    "grad_dtypes_follow_the_inputs": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
d = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
i = torch.tensor([3, 4])
(w * d).sum().backward()
(w * i + i / 2).sum().backward()
print(w.grad, d.grad)
h = torch.tensor([1.0, 2.0], dtype=torch.float16, requires_grad=True)
(h * 2.5).sum().backward()
print(h.grad)
""",
    "grad_through_views_and_indexing": """
w = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
m = w.view(2, 2)
(m.t()[0] * torch.tensor([5.0, 7.0])).sum().backward()
print(w.grad)
w.grad = None
(w[[0, 0, 3, 0]] * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(w.grad)
w.grad = None
(w[w > 2] ** 2).sum().backward()
print(w.grad)
x = torch.arange(6.0, requires_grad=True)
(x.view(2, 3)[torch.tensor([1, 1]), torch.tensor([0, 2])] * torch.tensor([2.0, 3.0])).sum().backward()
print(x.grad)
""",
    "grad_of_reductions_with_ties": """
w = torch.tensor([[2.0, 5.0, 5.0], [7.0, 1.0, 7.0]], requires_grad=True)
w.max(1).values.sum().backward(); print(w.grad); w.grad = None
w.max().backward(); print(w.grad); w.grad = None
w.amax(1).sum().backward(); print(w.grad); w.grad = None
w.norm(p=float("inf")).backward(); print(w.grad); w.grad = None
torch.max(w, 0)[0].sum().backward(); print(w.grad)
""",
    "grad_at_special_points": """
w = torch.tensor([0.0, -1.0, 2.0], requires_grad=True)
(w.abs() + w.relu() + w.clamp(min=0) + w.sqrt() + w.sign() + w.floor()).sum().backward()
print(w.grad)
b = torch.tensor([0.0, 1.0], requires_grad=True)
e = torch.tensor([0.0, 2.0], requires_grad=True)
(b ** e).sum().backward(); print(b.grad, e.grad)
b.grad = None; (b ** 0.5).sum().backward(); print(b.grad)
b.grad = None; (2 ** b).sum().backward(); print(b.grad)
b.grad = None; (0 ** b).sum().backward(); print(b.grad)
n = torch.tensor([[3.0, -4.0], [0.0, 0.0]], requires_grad=True)
n.norm(dim=1).sum().backward(); print(n.grad)
s = torch.tensor([2.0, 2.0, 2.0], requires_grad=True)
s.std().backward(); print(s.grad)
m = torch.tensor([1.0, 2.0], requires_grad=True)
torch.maximum(m, torch.tensor([1.0, 3.0])).sum().backward(); print(m.grad)
""",
    "matmul_gradients": """
a = torch.ones(2, 3, 4, requires_grad=True)
b = torch.ones(4, 5, requires_grad=True)
v = torch.ones(4, requires_grad=True)
(a @ b).sum().backward()
(a @ v).sum().backward()
print(a.grad[0, 0], b.grad, v.grad)
""",
    "cat_and_stack_gradients": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
(torch.cat([a, b, a]) * torch.arange(5.0)).sum().backward()
print(a.grad, b.grad)
print(torch.stack([a, a * 2]))
""",
    "rebind_outside_no_grad_makes_non_leaf": """
import warnings
x = torch.tensor([3.0], requires_grad=True)
for _ in range(2):
    y = x ** 2
    y.backward()
    with warnings.catch_warnings(record=True) as c:
        warnings.simplefilter("always")
        g = x.grad
    print(g, len(c))
    x = x - 0.1 * x.grad
    print(x, x.is_leaf)
""",
    "descent_with_no_grad_and_data": """
x = torch.tensor([5.0], requires_grad=True)
for step in range(3):
    y = x ** 2
    if x.grad is not None:
        x.grad.zero_()
    y.backward()
    with torch.no_grad():
        x -= 0.2 * x.grad
    print(step, x.item(), y.item())
z = torch.tensor([2.0], requires_grad=True)
for _ in range(3):
    (z ** 2).backward()
    z.data -= 0.25 * z.grad
    z.grad.zero_()
print(z, z.grad)
""",
    # -- retain_grad and hooks ----------------------------------------------------------------------
    "retain_grad": """
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = y * 3
y.retain_grad(); z.retain_grad(); x.retain_grad()
z.backward(retain_graph=True)
print(x.grad, y.grad, z.grad, y.retains_grad, x.retains_grad)
z.backward()
print(y.grad, z.grad)
""",
    "retain_grad_follows_in_place": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 2
h.retain_grad()
h.mul_(3)
(h * h).sum().backward()
print(h.grad, w.grad)
""",
    "tensor_hooks": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
handle = w.register_hook(lambda g: g * 2)
h = w * 3
h.register_hook(lambda g: print("h hook", g))
h.register_hook(lambda g: g * 10)
h.sum().backward()
print(w.grad)
handle.remove()
w.grad = None
(w * 3).sum().backward()
print(w.grad)
""",
    "hook_and_retain_grad_order": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 3
h.retain_grad()
h.register_hook(lambda g: g * 10)
h.sum().backward()
print(h.grad, w.grad)
""",
    "hooks_run_leaves_first": """
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
a.register_hook(lambda g: print("a hook"))
bb = b * 2
bb.register_hook(lambda g: print("bb hook", torch.is_grad_enabled()))
b.register_hook(lambda g: print("b hook"))
(a * bb).backward()
""",
    "node_hooks": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * 3
y.grad_fn.register_prehook(lambda go: print("pre", go))
y.grad_fn.register_hook(lambda gi, go: print("post", gi, go))
y.sum().backward()
z = w * 3
z.grad_fn.register_hook(lambda gi, go: (gi[0] * 0, None))
z.sum().backward()
print(w.grad)
""",
    "accumulate_grad_node_hooks": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
acc = y.grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: print("pre", go, x.grad))
acc.register_hook(lambda gi, go: print("post", gi, go, x.grad))
x.register_hook(lambda g: print("tensor hook", g))
y.sum().backward()
handle = acc.register_prehook(lambda go: (go[0] * 10,))
x.grad = None
(x * 3).sum().backward()
print(x.grad)
handle.remove()
x.grad = None
(x * 3).sum().backward()
print(x.grad)
""",
    "the_engine_runs_nodes_in_pytorchs_order": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor(0.5, requires_grad=True)
a = x * w
b = x.exp()
c = a + b
d = (c * a).sum()
order, seen, stack = [], set(), [d.grad_fn]
while stack:
    node = stack.pop()
    if node in seen:
        continue
    seen.add(node)
    label = node.name() + ("(w)" if getattr(node, "variable", None) is w else "")
    node.register_prehook(lambda go, label=label: order.append(label))
    stack.extend(n for n, _ in node.next_functions if n is not None)
d.backward()
print(order)
""",
    "hooks_may_change_the_dtype_only_to_fail": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 2
h.register_hook(lambda g: g.double())
try:
    h.sum().backward()
except RuntimeError as e:
    print(e)
""",
    "grad_fn_call_and_saved_tensors": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x.mul(3).grad_fn(torch.tensor([1.0, 1.0])))
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self), x is y.grad_fn._saved_self)
e = x.exp()
print(e.equal(e.grad_fn._saved_result), e is e.grad_fn._saved_result)
""",
    "grad_fn_call_gives_the_formulas_gradients_before_the_engine_sums_them": """
x = torch.ones(2, 3, requires_grad=True)
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s = torch.tensor(2.0, requires_grad=True)
d = torch.ones(3, dtype=torch.float64, requires_grad=True)
for out in (x + w, x - w, x * w, x / w, x * s, x ** s, torch.maximum(x, w), torch.where(x > 0, x, w),
            w.expand(2, 3), w + d, w * d, torch.add(x, w, alpha=2), (x * w).sum(), x @ torch.ones(3, 2)):
    with torch.no_grad():
        grads = out.grad_fn(torch.ones_like(out))
    print(out.grad_fn.name(), [None if g is None else (tuple(g.shape), g.dtype, g.sum().item())
                               for g in (grads if isinstance(grads, tuple) else (grads,))])
""",
    # -- grad modes ---------------------------------------------------------------------------------
    "no_grad": """
w = torch.tensor(1.5, requires_grad=True)
with torch.no_grad():
    y = w * 4
    print(torch.is_grad_enabled())
    with torch.enable_grad():
        z = w * 2
print(y.requires_grad, y.grad_fn, y.is_leaf, y, z.requires_grad, torch.is_grad_enabled())
try:
    with torch.no_grad():
        raise ValueError("boom")
except ValueError:
    print(torch.is_grad_enabled())
""",
    "decorators": """
@torch.no_grad()
def f(t): return t * t + 1
@torch.no_grad
def g(t): return t * 2
@torch.enable_grad()
def h(t): return t * 2
@torch.inference_mode()
def k(t): return t * 2
w = torch.tensor([2.0], requires_grad=True)
with torch.no_grad():
    print(h(w).requires_grad)
print(f(w).requires_grad, g(w).requires_grad, k(w).requires_grad, f(w))
""",
    "set_grad_enabled": """
w = torch.tensor([2.0], requires_grad=True)
torch.set_grad_enabled(False)
a = w ** 2
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    y = w * 3
print(a.requires_grad, y.requires_grad, torch.is_grad_enabled())
@torch.set_grad_enabled(False)
def f(x): return x * 2
print(torch.is_grad_enabled(), f(w).requires_grad, torch.is_grad_enabled())
""",
    "inference_mode": """
w = torch.tensor([1.0], requires_grad=True)
with torch.inference_mode():
    y = w * 2
    print(torch.is_grad_enabled())
with torch.inference_mode(False):
    z = w * 2
print(y.requires_grad, z.requires_grad, torch.is_grad_enabled())
""",
    "tensors_created_in_no_grad_keep_requires_grad": """
with torch.no_grad():
    w = torch.tensor([1.0], requires_grad=True)
    y = w * 2
print(w.requires_grad, y.requires_grad)
""",
    "views_made_in_no_grad": """
w = torch.ones(2, 3, requires_grad=True)
with torch.no_grad():
    v = w[0]
    print(v, w.t().requires_grad, (w[0] * 2).requires_grad, w.detach()[0].requires_grad)
r = v * 2
print(v.requires_grad, v.is_leaf, v.grad_fn, r.requires_grad)
r.sum().backward()
print(w.grad)
""",
    # -- detach and .data -------------------------------------------------------------------------
    "detach": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
d = w.detach()
print(d.requires_grad, d.is_leaf, d.grad_fn, d.data_ptr() == w.data_ptr())
d[0] = 10.0
print(w, w._version, d._version)
y = w * 2
e = y.detach().requires_grad_()
(e * e).sum().backward()
print(e.is_leaf, e.grad, w.grad, w.detach().numpy())
""",
    "detach_in_place": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * 2
print(y.detach_() is y, y.requires_grad, y.is_leaf, y.grad_fn)
w.detach_()
print(w.requires_grad, w.is_leaf)
""",
    "data": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * 2
d = y.data
print(d, d.requires_grad, d.is_leaf, d.grad_fn, d.data_ptr() == y.data_ptr())
w.data = torch.tensor([5.0, 6.0, 7.0])
print(w, w.requires_grad, w.shape)
""",
    # -- autograd.grad and autograd.backward ---------------------------------------------------------
    "autograd_grad": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
(g,) = torch.autograd.grad((x ** 3).sum(), x)
print(g, x.grad, g.requires_grad)
z = torch.tensor(3.0, requires_grad=True)
s = torch.tensor(2.0, requires_grad=True)
print(torch.autograd.grad(s * z + z, [s, z]))
print(torch.autograd.grad(s * 2, [s, z], allow_unused=True))
print(torch.autograd.grad(s * 2, [s, z], materialize_grads=True))
print(torch.autograd.grad(x * x, x, grad_outputs=torch.tensor([1.0, 10.0])))
print(torch.autograd.grad((x * 2).sum(), [x, x]))
h = x * 2
print(torch.autograd.grad((h * h).sum(), h), x.grad)
""",
    "autograd_grad_runs_only_what_leads_to_the_inputs": """
x = torch.tensor(1.0, requires_grad=True)
z = torch.tensor(2.0, requires_grad=True)
zz = z * 2
zz.register_hook(lambda g: print("zz hook"))
print(torch.autograd.grad(x * 3 + zz, x))
y = x * x
s = y.sum()
print(torch.autograd.grad(s, x))
print(torch.autograd.grad(s, y))
""",
    "autograd_backward": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
torch.autograd.backward([(x * 2).sum(), (x * x).sum()])
print(x.grad)
torch.autograd.backward(x * 2, grad_tensors=torch.tensor([1.0, 3.0]))
print(x.grad)
torch.autograd.backward([(x * 2).sum()], [torch.tensor(1.0), torch.tensor(1.0)])
print(x.grad)
""",
    "backward_inputs": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
z = torch.tensor([3.0, 4.0], requires_grad=True)
(x * z).sum().backward(inputs=[x])
print(x.grad, z.grad)
h = x * 2
(h * h).sum().backward(inputs=[h])
print(h.grad, h.retains_grad, x.grad)
(x * 2).sum().backward(inputs=[torch.ones(2, requires_grad=True)])
print(x.grad)
""",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_same_as_pytorch(name):
    assert_same(SNIPPETS[name])


def test_create_graph_is_not_supported_and_says_so():
    import course_lib as torch
    x = torch.tensor(2.0, requires_grad=True)
    for call in (lambda: torch.autograd.grad(x ** 3, x, create_graph=True),
                 lambda: (x ** 3).backward(create_graph=True)):
        with pytest.raises(NotImplementedError, match="create_graph=True"):
            call()
    assert x.grad is None
