"""In-place operations and version counters behave as PyTorch's (each snippet is compared with real PyTorch).

In-place on a leaf that requires grad (or a view of one) is refused; on a
non-leaf it is recorded (CopySlices when it goes through a view); a tensor
saved for backward and then modified in place makes backward raise
PyTorch's "modified by an inplace operation" error, naming the same
tensor, node and versions.  ``detach()`` shares the version counter,
``.data`` does not.
"""

import pytest
from torch_compare import assert_same

EDGES = "def edges(fn): return [(None if f is None else type(f).__name__, i) for f, i in fn.next_functions]\n"
NAME = "def name(t): return None if t.grad_fn is None else type(t.grad_fn).__name__\n"

SNIPPETS = {
    # refused on leaves that require grad
    "leaf_isub": "w = torch.tensor([1.0, 2.0], requires_grad=True); w -= 0.1",
    "leaf_add_": "w = torch.tensor([1.0, 2.0], requires_grad=True); w.add_(1)",
    "leaf_zero_": "w = torch.tensor([1.0, 2.0], requires_grad=True); w.zero_()",
    "leaf_fill_": "w = torch.tensor([1.0, 2.0], requires_grad=True); w.fill_(1)",
    "leaf_copy_": "w = torch.tensor([1.0, 2.0], requires_grad=True); w.copy_(torch.tensor([3.0, 4.0]))",
    "leaf_uniform_": "w = torch.tensor([1.0, 2.0], requires_grad=True); w.uniform_()",
    "leaf_clamp_": "w = torch.tensor([1.0, 2.0], requires_grad=True); w.clamp_(0, 1)",
    "leaf_pow_": "w = torch.tensor([1.0, 2.0], requires_grad=True); w.pow_(2)",
    "leaf_relu_": "w = torch.tensor([1.0, 2.0], requires_grad=True); w.relu_()",
    "leaf_shape_error_comes_after": "w = torch.ones(2, requires_grad=True); w.add_(torch.ones(3))",
    "leaf_setitem_indices": """
for index in ("...", "slice(None)", "[0]", "w > 0", "0", "(slice(None), 0)", "(slice(None), slice(None))",
              "(Ellipsis, 0)", "None", "(0, 1)", "(0, [1])"):
    w = torch.ones(2, 2, requires_grad=True)
    try:
        w[eval(index)] = 1.0
    except RuntimeError as e:
        print(index, e)
""",
    "view_of_leaf": """
w = torch.ones(2, 3, requires_grad=True)
for write in (lambda: w[0].add_(1), lambda: w.view(6).mul_(2), lambda: w.t().__setitem__(0, 1.0),
              lambda: w.reshape(2, 3).zero_()):
    try:
        write()
    except RuntimeError as e:
        print(e)
x = torch.arange(6.0).view(2, 3).requires_grad_()
try:
    x.view(6).mul_(2)
except RuntimeError as e:
    print(e)
""",
    "allowed_under_no_grad_and_through_data": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    w *= 2
    w[0] = 7.0
    w.add_(1)
    w.clamp_(0, 5)
print(w, w.is_leaf, w.grad_fn, w._version)
w.data.mul_(2)
w.data[0] = 9.0
print(w, w._version)
d = w.detach()
d += 1
print(w, d, w._version, d._version)
""",
    # recorded on non-leaves
    "non_leaf_in_place": EDGES + """
w = torch.tensor([1.0, 2.0], requires_grad=True)
u = torch.tensor([3.0, 4.0], requires_grad=True)
for make in (lambda y: y.add_(1), lambda y: y.mul_(u), lambda y: y.sub_(u, alpha=2), lambda y: y.div_(2),
             lambda y: y.pow_(2), lambda y: y.clamp_(0, 3), lambda y: y.zero_(), lambda y: y.fill_(2),
             lambda y: y.copy_(u), lambda y: y.relu_(), lambda y: y.exp_(), lambda y: y.neg_(),
             lambda y: y.sigmoid_(), lambda y: y.uniform_(), lambda y: y.normal_(),
             lambda y: y.fill_(torch.tensor(2.0, requires_grad=True)), lambda y: y.remainder_(3)):
    y = w.clone()
    make(y)
    (y * torch.tensor([1.0, 10.0])).sum().backward()
    print(type(y.grad_fn).__name__, y.grad_fn.name(), edges(y.grad_fn), w.grad, u.grad)
    w.grad = u.grad = None
""",
    "alpha_in_place": """
x = torch.zeros(2)
y = torch.ones(2)
x.add_(y, alpha=-0.5)
print(x)
x.sub_(y, alpha=2)
x.add_(3, alpha=2)
print(x)
w = torch.ones(2, requires_grad=True)
z = w.clone()
z.add_(w, alpha=3)
z.sub_(w * 2, alpha=0.5)
z.sum().backward()
print(z, w.grad)
""",
    "masked_fill_and_more_in_place_methods": EDGES + """
x = torch.ones(2, 3)
x.masked_fill_(torch.tensor([True, False, True]), 5.0)
print(x, x._version)
try:
    torch.ones(3).masked_fill_(torch.ones(2, 3, dtype=torch.bool), 0.0)
except RuntimeError as e:
    print(e)
w = torch.ones(2, 3, requires_grad=True)
v = torch.tensor(3.0, requires_grad=True)
y = w * 1
y.masked_fill_(torch.tensor([True, False, True]), v)
print(type(y.grad_fn).__name__, edges(y.grad_fn))
y.sum().backward()
print(w.grad, v.grad)
for method in ("square_", "sign_", "tan_", "erf_", "log1p_", "log2_", "log10_", "expm1_", "rsqrt_", "masked_fill_"):
    w.grad = None
    y = w * 0.5
    getattr(y, method)(*((y > 0, 1.0) if method == "masked_fill_" else ()))
    y.sum().backward()
    print(method, type(y.grad_fn).__name__, round(w.grad[0, 0].item(), 5))
y = w * 3
y.fmod_(2)
print(type(y.grad_fn).__name__, edges(y.grad_fn))
""",
    "non_leaf_exp_twice": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * 1
y.sigmoid_()
y.sum().backward()
print(w.grad)
z = w * 1
z.exp_()
z.exp_()
z.sum().backward()
""",
    "setitem_on_non_leaf": EDGES + """
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
u = torch.tensor(5.0, requires_grad=True)
y = w * 2
y[0] = 0.0
print(y, type(y.grad_fn).__name__, edges(y.grad_fn))
y[1] = u * u
y.sum().backward()
print(w.grad, u.grad)
""",
    "setitem_advanced": EDGES + """
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = w.clone()
y[[0, 0]] = torch.tensor([5.0, 6.0])
print(y)
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(w.grad)
z = w.clone()
z[z < 0] = 0.0
print(type(z.grad_fn).__name__, edges(z.grad_fn))
v = torch.tensor([7.0], requires_grad=True)
z[z > 2] = v
z.sum().backward()
print(w.grad, v.grad, type(z.grad_fn).__name__, edges(z.grad_fn))
""",
    "setitem_value_shapes": EDGES + """
w = torch.ones(2, 3, requires_grad=True)
def leaf(*shape): return torch.ones(*shape, requires_grad=True)
for value, index in ((2.0, "..."), (leaf(3), "..."), (1.0, "0"), (leaf(1, 3), "0"), (leaf(3), "slice(0, 2)"),
                     (leaf(2, 3), "slice(0, 2)"), (torch.tensor(3.0, requires_grad=True), "0")):
    y = w.clone()
    y[eval(index)] = value
    print(y.grad_fn.name(), edges(y.grad_fn))
    y.sum().backward()
    print(w.grad, value.grad if isinstance(value, torch.Tensor) else None)
    w.grad = None
""",
    "setitem_into_a_plain_buffer": EDGES + """
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = torch.zeros(3)
for i in range(3):
    out[i] = w[i] * (i + 1)
print(out, out.is_leaf, out.requires_grad, out.grad_fn.name(), edges(out.grad_fn))
out.sum().backward()
print(w.grad)
buf = torch.zeros(2, 3)
buf[[0]] = w[:1].expand(1, 3)
buf.add_(w)
print(buf.grad_fn.name(), edges(buf.grad_fn))
""",
    "in_place_through_views": NAME + EDGES + """
w = torch.ones(2, 3, requires_grad=True)
y = w * 1
v = y[0]
print(name(v))
y.mul_(2)
print(name(v), name(y), edges(v.grad_fn))
y = w * 1; v = y[0]; vv = v[1:]; vv.mul_(3)
print(name(v), name(vv), name(y), edges(y.grad_fn))
(y * torch.arange(6.0).view(2, 3)).sum().backward()
print(w.grad)
x = torch.zeros(2, 3); v = x[0]; v.add_(w[0])
print(name(v), name(x), edges(x.grad_fn))
x = torch.zeros(2, 3); v = x[0]; x.add_(w)
print(v.requires_grad, v.is_leaf, name(v), (v * 2).requires_grad)
w2 = torch.ones(3, requires_grad=True); a = w2.view(3)
with torch.no_grad():
    w2.mul_(2)
print(name(a), edges(a.grad_fn))
""",
    "expanded_tensors": """
y = torch.tensor([1.0, 2.0]).expand(3, 2)
y[0, 0] = 5
print(y)
try:
    y += 1
except RuntimeError as e:
    print(e)
""",
    # saved tensors modified in place
    "saved_input_modified": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * 2
z = y * y
y.add_(1)
z.sum().backward()
""",
    "saved_output_exp": "w = torch.tensor([1.0, 2.0], requires_grad=True); y = w.exp(); y.add_(1); y.sum().backward()",
    "saved_output_sigmoid": """
w = torch.ones(2, requires_grad=True)
y = torch.sigmoid(w)
y.mul_(2)
y.sum().backward()
""",
    "saved_output_of_scalar": "w = torch.ones(2, requires_grad=True); y = w.sum().sigmoid(); y += 1; y.backward()",
    "saved_output_tanh_via_setitem": """
w = torch.tensor([[1.0, 2.0]], requires_grad=True)
y = w.tanh()
z = y * 1
y[0, 0] = 0.0
z.sum().backward()
""",
    "detach_add_after_saved": """
x = torch.ones(2, requires_grad=True)
y = x ** 2
x.detach().add_(1)
y.sum().backward()
""",
    "detach_add_after_saved_non_leaf": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
x = w * 1
y = x.sin()
x.detach().add_(1)
y.sum().backward()
""",
    "detach_zero_after_output_saved_is_fine": """
w = torch.ones(2, 3, requires_grad=True)
y = w * 2
z = y.exp()
y.detach().zero_()
z.sum().backward()
print(w.grad)
""",
    "data_add_after_saved_is_not_noticed": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
x.data.add_(1)
y.sum().backward()
print(x.grad)
""",
    "no_grad_in_place_after_saved": """
x = torch.ones(2, requires_grad=True)
y = x * x
with torch.no_grad():
    x.mul_(2)
y.sum().backward()
""",
    "no_grad_in_place_when_nothing_saved": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x + 2
with torch.no_grad():
    x.mul_(2)
y.sum().backward()
print(x.grad)
""",
    "zero_after_matmul_names_zero": """
w = torch.ones(2, 2, requires_grad=True)
y = torch.tensor([[1.0, -1.0], [2.0, 3.0]], requires_grad=True) * 1
h = y @ w
y.zero_()
h.sum().backward()
""",
    "message_names_regenerated_view": """
w = torch.ones(2, 3, requires_grad=True, dtype=torch.float64)
a = w.t()
b = a * a
w.data.zero_()
w.detach().zero_()
b.sum().backward()
""",
    "message_for_a_view_saved": """
w = torch.ones(2, 3, requires_grad=True)
y = w * 1
v = y.view(6)
z = v * v
y.add_(1)
z.sum().backward()
""",
    "relu_in_place_after_matmul": """
w = torch.ones(2, 2, requires_grad=True)
h = torch.tensor([[1.0, -1.0], [2.0, 3.0]]) @ w
h.relu_()
h.sum().backward()
print(w.grad)
""",
    # views made in no_grad mode or by multi-output functions
    "view_made_in_no_grad_then_modified": """
w = torch.ones(2, 3, requires_grad=True)
y = w * 1
with torch.no_grad():
    v = y[0]
    a, b = w.unbind(0)
print(v.requires_grad, v.is_leaf)
for write in (lambda: v.mul_(2), lambda: a.mul_(2)):
    try:
        write()
    except RuntimeError as e:
        print(e)
with torch.no_grad():
    v.mul_(2)
try:
    v.grad_fn
except RuntimeError as e:
    print(e)
""",
    "multi_output_views_modified": """
w = torch.ones(2, 3, requires_grad=True)
for views in (lambda y: y.unbind(0), lambda y: y.split(1), lambda y: y.chunk(2)):
    y = w * 1
    a, b = views(y)
    try:
        a.mul_(2)
    except RuntimeError as e:
        print(e)
y = w * 1
a, b = y.unbind(0)
y.mul_(2)
try:
    a.grad_fn
except RuntimeError as e:
    print(e)
a, b = torch.ones(2, 3).unbind(0)
a.mul_(2)
print(a)
""",
    # version counters
    "version_counters": """
x = torch.ones(3)
print(x._version, (x + 1)._version, x.view(3)._version)
x.add_(1); x[0] = 2; x.mul_(3)
print(x._version)
v = x[1:]
v.add_(1)
print(x._version, v._version)
d = x.detach()
d.zero_()
print(x._version, d._version)
dd = x.data
dd.zero_()
print(x._version, dd._version)
w = torch.ones(2, requires_grad=True)
w.grad = torch.zeros(2)
(w * 2).sum().backward()
(w * 2).sum().backward()
print(w.grad._version)
""",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_same_as_pytorch(name):
    assert_same(SNIPPETS[name])
