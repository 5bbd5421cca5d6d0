"""``autograd.Function`` written by learners works as PyTorch's (snippets compared with real PyTorch).

forward/backward with ``ctx``, ``save_for_backward`` / ``saved_tensors``,
``needs_input_grad``, non-tensor arguments, several outputs,
``mark_non_differentiable``, ``set_materialize_grads``, ``mark_dirty``,
the errors for wrong backward results, and gradcheck of a custom Function.
"""

import pytest
from torch_compare import assert_same

import course_lib

SNIPPETS = {
    "square_with_saved_tensors": """
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = Square.apply(x)
print(y, type(y.grad_fn).__name__, y.grad_fn.name(), y.is_leaf)
print([(None if f is None else type(f).__name__, i) for f, i in y.grad_fn.next_functions])
(y * y).sum().backward()
print(x.grad)
print(Square.apply(torch.ones(2)).requires_grad)
""",
    "non_tensor_arguments_and_needs_input_grad": """
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k, y):
        print("needs", ctx.needs_input_grad, torch.is_grad_enabled())
        ctx.k = k
        ctx.save_for_backward(x, y)
        return x * y * k
    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        print("backward grad mode", torch.is_grad_enabled(), grad.requires_grad, ctx.needs_input_grad)
        return grad * y * ctx.k, None, grad * x * ctx.k
x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0, 4.0])
z = Scale.apply(x, 2.0, c)
print([(None if f is None else type(f).__name__, i) for f, i in z.grad_fn.next_functions])
z.sum().backward()
print(x.grad, c.grad)
with torch.no_grad():
    r = Scale.apply(x, 2.0, c)
print(r.requires_grad, r.grad_fn)
""",
    "several_outputs": """
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x.argmax(), x * 3
    @staticmethod
    def backward(ctx, g1, g2, g3):
        print("backward", g1, g2, g3)
        return g1 * 2 + g3 * 3
x = torch.tensor([1.0, 2.0], requires_grad=True)
a, i, b = Two.apply(x)
print(type(a.grad_fn).__name__, i.requires_grad, i.grad_fn, b.requires_grad, a.grad_fn is b.grad_fn, b.output_nr)
a.sum().backward()
print(x.grad)
""",
    "non_differentiable_and_no_materialize": """
class Pair(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y, z = x * 2, x * 3
        ctx.mark_non_differentiable(z)
        ctx.set_materialize_grads(False)
        return y, z
    @staticmethod
    def backward(ctx, g1, g2):
        print("backward", g1, g2)
        return g1 * 2
x = torch.tensor([1.0, 2.0], requires_grad=True)
y, z = Pair.apply(x)
print(y.requires_grad, z.requires_grad, z.grad_fn)
y.sum().backward()
print(x.grad)
""",
    "input_returned_as_is": """
class Identity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 5
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Identity.apply(x)
print(y is x, type(y.grad_fn).__name__, y._base is x, y._is_view(), x.is_leaf)
y.sum().backward()
print(x.grad)
""",
    "mark_dirty": """
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 1
r = Double.apply(h)
print(r is h, type(h.grad_fn).__name__, h._version, h)
(h * h).sum().backward()
print(w.grad)
try:
    Double.apply(w)
except RuntimeError as e:
    print(e)
""",
    "saved_output_modified_in_place": """
class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * 2
z = Twice.apply(torch.ones(2, requires_grad=True))
z.add_(1)
z.sum().backward()
""",
    "saved_input_modified_only_matters_when_read": """
class Keep(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
class Read(Keep):
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2
w = torch.ones(2, requires_grad=True)
h = w * 1
z = Keep.apply(h)
h.add_(1)
z.sum().backward()
print(w.grad)
h = w * 1
z = Read.apply(h)
h.add_(1)
z.sum().backward()
""",
    "saved_tensors_freed_after_backward": """
class Keep(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x
x = torch.tensor([1.0, 2.0], requires_grad=True)
z = Keep.apply(x, torch.tensor([2.0, 3.0]))
print(z, z.grad_fn.saved_tensors)
z.sum().backward()
z.grad_fn.saved_tensors
""",
    "wrong_number_of_gradients": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g
F.apply(torch.ones(2, requires_grad=True), 3).sum().backward()
""",
    "extra_none_gradients_are_fine": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * 3, None, None
x = torch.ones(2, requires_grad=True)
F.apply(x, 3).sum().backward()
print(x.grad)
""",
    "gradient_for_a_number_argument": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * 3, g
F.apply(torch.ones(2, requires_grad=True), 3).sum().backward()
""",
    "gradient_of_wrong_shape": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)
F.apply(torch.ones(2, requires_grad=True)).sum().backward()
""",
    "gradient_that_broadcasts_back": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(1)
x = torch.ones(2, requires_grad=True)
F.apply(x).sum().backward()
print(x.grad)
""",
    "gradient_that_is_not_a_tensor": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return 1.0
F.apply(torch.ones(2, requires_grad=True)).sum().backward()
""",
    "save_for_backward_of_a_number": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(3)
        return x
F.apply(torch.ones(2, requires_grad=True))
""",
    "missing_forward_or_backward": """
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
class NoForward(torch.autograd.Function):
    pass
for call in (lambda: NoBackward.apply(torch.ones(2, requires_grad=True)).sum().backward(),
             lambda: NoForward.apply(torch.ones(2)), lambda: torch.autograd.Function.apply(torch.ones(2))):
    try:
        call()
    except NotImplementedError as e:
        print(e)
""",
    "instantiating_is_deprecated_and_calling_fails": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
F()(torch.ones(2))
""",
    "custom_function_inside_a_network": """
class ReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * (x > 0)
torch.manual_seed(0)
W = torch.tensor([[0.5, -1.0], [1.5, 0.25]], requires_grad=True)
X = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.0, -2.0]])
for _ in range(3):
    loss = (ReLU.apply(X @ W) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W -= 0.1 * W.grad
    W.grad.zero_()
    print(round(loss.item(), 6))
print(W)
""",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_same_as_pytorch(name):
    assert_same(SNIPPETS[name])


class _Cube(course_lib.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x ** 3 * y, x + y

    @staticmethod
    def backward(ctx, g1, g2):
        x, y = ctx.saved_tensors
        return g1 * 3 * x ** 2 * y + g2, g1 * x ** 3 + g2


def test_gradcheck_of_a_custom_function():
    x = course_lib.tensor([0.5, -1.5, 2.0], dtype=course_lib.float64, requires_grad=True)
    y = course_lib.tensor([1.5, 0.25, -1.0], dtype=course_lib.float64, requires_grad=True)
    assert course_lib.autograd.gradcheck(_Cube.apply, (x, y))
