"""Autograd's errors and warnings are PyTorch's: same exception type, same message, raised at the same step.

Each snippet is run with course_lib and with real PyTorch; whatever it prints
before the error must match too, so an error raised one step too early or too
late fails.  A learner's session must survive every one of these errors: the
last test checks that grad mode and the graph are still usable afterwards.
"""

import pytest
from torch_compare import assert_same

SNIPPETS = {
    # requires_grad: PyTorch's three slightly different messages
    "int_requires_grad_in_factory": "torch.tensor([1, 2], requires_grad=True)",
    "int_requires_grad_in_arange": "torch.arange(3, requires_grad=True)",
    "int_requires_grad_in_zeros": "torch.zeros(2, dtype=torch.int64, requires_grad=True)",
    "int_requires_grad_attribute": "t = torch.tensor([1, 2]); t.requires_grad = True",
    "bool_requires_grad_attribute": "t = torch.tensor([True]); t.requires_grad = True",
    "int_requires_grad_method": "torch.tensor([1, 2]).requires_grad_()",
    "non_leaf_requires_grad_true": "w = torch.ones(2, requires_grad=True); h = w * 2; h.requires_grad = True",
    "non_leaf_requires_grad_false": "w = torch.ones(2, requires_grad=True); h = w * 2; h.requires_grad = False",
    "non_leaf_requires_grad_method_false": "w = torch.ones(2, requires_grad=True); (w * 2).requires_grad_(False)",
    # backward
    "non_scalar_backward": "v = torch.tensor([1.0, 2.0, 4.0], requires_grad=True); (v ** 2).backward()",
    "non_scalar_2d_backward": "v = torch.ones(2, 2, requires_grad=True); (v * 2).backward()",
    "backward_without_grad": "x = torch.tensor([1.0, 2.0]); (x * 2).sum().backward()",
    "backward_without_grad_non_scalar": "torch.ones(3).backward()",
    "backward_of_int_result": "x = torch.tensor(2.0, requires_grad=True); (x * 2).long().backward()",
    "backward_of_no_grad_result": """
w = torch.tensor([1.0], requires_grad=True)
with torch.no_grad():
    y = (w * 2).sum()
y.backward()
""",
    "backward_of_detached": "w = torch.tensor([1.0, 2.0], requires_grad=True); (w * 2).sum().detach().backward()",
    "gradient_shape_mismatch": "v = torch.ones(3, requires_grad=True); (v * 2).backward(torch.ones(2))",
    "gradient_shape_mismatch_2d": "v = torch.ones(3, requires_grad=True); (v * 2).backward(torch.ones(1, 3))",
    "gradient_for_scalar_with_shape": """
v = torch.tensor([3.0], requires_grad=True)
(v * v).backward(torch.tensor(2.0))
""",
    "gradient_given_as_list": "v = torch.ones(2, requires_grad=True); (v * 2).backward([1.0, 1.0])",
    "gradient_given_as_number": "v = torch.tensor(1.0, requires_grad=True); (v * 2).backward(2.0)",
    "fewer_gradients_than_outputs": """
x = torch.ones(2, requires_grad=True)
torch.autograd.backward([x.sum(), x.sum()], [torch.tensor(1.0)])
""",
    "backward_inputs_empty": "torch.ones(3, requires_grad=True).sum().backward(inputs=[])",
    "backward_inputs_without_grad": """
a = torch.ones(3, requires_grad=True)
(a * 2).sum().backward(inputs=[torch.ones(2)])
""",
    "zero_grad_before_backward": "v = torch.tensor([1.0], requires_grad=True); v.grad.zero_()",
    # the graph is freed by backward exactly where PyTorch frees it
    "second_backward": """
v = torch.tensor([1.0, 3.0], requires_grad=True)
s = (v ** 2 + 1).sum()
s.backward()
print(v.grad)
s.backward()
""",
    "second_backward_mul_by_number": """
w = torch.ones(2, requires_grad=True)
s = (w * 2).sum()
s.backward()
s.backward()
""",
    "second_backward_mul_by_tensor": """
w = torch.ones(2, requires_grad=True)
s = (w * torch.tensor([3.0, 4.0])).sum()
s.backward()
s.backward()
""",
    "second_backward_exp": "w = torch.ones(2, requires_grad=True); s = w.exp().sum(); s.backward(); s.backward()",
    "second_backward_matmul": """
w = torch.ones(2, 2, requires_grad=True)
s = (w @ torch.ones(2)).sum()
s.backward()
s.backward()
""",
    "second_backward_indexing": """
w = torch.ones(3, requires_grad=True)
s = w[[0, 1]].sum()
s.backward()
s.backward()
""",
    "second_backward_copy_slices": """
w = torch.ones(3, requires_grad=True)
y = w.clone()
y[0] = 2.0
s = y.sum()
s.backward()
s.backward()
""",
    "second_backward_through_shared_part": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * w
y.sum().backward()
y.mean().backward()
""",
    "retain_then_release_then_error": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
s = (w * w).sum()
s.backward(retain_graph=True)
s.backward(retain_graph=False)
print(w.grad)
s.backward()
""",
    "saved_tensors_after_backward": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w.exp()
y.sum().backward()
print(y.grad_fn.name())
y.grad_fn._saved_result
""",
    "autograd_grad_twice": """
x = torch.ones(2, requires_grad=True)
y = (x * x).sum()
torch.autograd.grad(y, x)
torch.autograd.grad(y, x)
""",
    # autograd.grad
    "grad_unused_input": """
x = torch.tensor(2.0, requires_grad=True)
z = torch.tensor(3.0, requires_grad=True)
torch.autograd.grad(x * 2, [x, z])
""",
    "grad_non_scalar": "x = torch.ones(2, requires_grad=True); torch.autograd.grad(x * 2, x)",
    "grad_input_without_grad": """
x = torch.ones(2, requires_grad=True)
c = torch.ones(2)
torch.autograd.grad((x * c).sum(), c)
""",
    "grad_output_without_grad": "x = torch.ones(2, requires_grad=True); torch.autograd.grad(torch.ones(2).sum(), x)",
    "grad_inputs_empty": "torch.autograd.grad(torch.ones(3, requires_grad=True).sum(), [])",
    "grad_outputs_shape": """
x = torch.ones(2, requires_grad=True)
torch.autograd.grad(x * 2, x, grad_outputs=torch.ones(3))
""",
    "grad_of_a_number": "x = torch.ones(2, requires_grad=True); torch.autograd.grad(5, x)",
    # grad attribute and the non-leaf warning
    "non_leaf_grad_warning": """
import warnings
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 2
h.sum().backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(h.grad, w.grad)
for c in caught:
    print(c.category.__name__, str(c.message))
""",
    "no_warning_without_requires_grad": """
import warnings
x = torch.tensor([1.0])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(x.grad, (x * 2).grad)
print(len(caught))
""",
    "view_of_leaf_grad_warns": """
import warnings
v = torch.zeros(3, requires_grad=True)[0]
(v * 2).backward()
with warnings.catch_warnings(record=True) as c:
    warnings.simplefilter("always")
    print(v.is_leaf, v.grad, len(c))
""",
    "grad_assignment_errors": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
for value in (torch.tensor([1.0]), torch.tensor([1, 2]), torch.ones(2, dtype=torch.float16), torch.ones(2, 1),
              [1.0, 2.0], 3):
    try:
        w.grad = value
    except Exception as e:
        print(type(e).__name__, e)
w.grad = torch.ones(2, requires_grad=True)
print(w.grad)
""",
    "data_set_to_int_on_requires_grad": "w = torch.ones(2, requires_grad=True); w.data = torch.tensor([5, 6])",
    # hooks and retain_grad
    "retain_grad_without_requires_grad": "torch.tensor([1.0]).retain_grad()",
    "hook_without_requires_grad": "torch.tensor([1.0]).register_hook(lambda g: g)",
    "hook_changes_the_size": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 2
h.register_hook(lambda g: g.sum())
h.sum().backward()
""",
    "hook_returns_a_number": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 2
h.register_hook(lambda g: 5)
h.sum().backward()
""",
    # anomaly mode: what the in-place error's hint suggests
    "anomaly_mode_names_the_failing_node": """
with torch.autograd.detect_anomaly():
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    y = w * 2
    z = y * y
    y.add_(1)
    try:
        z.sum().backward()
    except RuntimeError as e:
        print(e)
    a = torch.tensor([0.0, 1.0], requires_grad=True)
    (a * 3).sum().backward()
    print(a.grad)
    (a.sqrt() * 0).sum().backward()
""",
    "set_detect_anomaly": """
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(False)
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    a = torch.tensor([0.0], requires_grad=True)
    (a.sqrt() * 0).sum().backward()
    print(a.grad)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
""",
    # the pre-0.4 Variable
    "variable": """
Variable = torch.autograd.Variable
x = torch.ones(2)
v = Variable(x, requires_grad=True)
print(v is x, v.requires_grad, x.requires_grad, v.data_ptr() == x.data_ptr(), isinstance(x, Variable), v.is_leaf)
print(Variable(x), Variable(torch.ones(2, requires_grad=True) * 2).requires_grad)
for data in (torch.tensor([1, 2]), [1.0]):
    try:
        Variable(data, requires_grad=True)
    except Exception as e:
        print(type(e).__name__, e)
""",
    # grad mode, detach, numpy
    "set_grad_enabled_not_bool": "torch.set_grad_enabled(1)",
    "detach_in_place_a_view": "w = torch.tensor([1.0, 2.0], requires_grad=True); (w * 2)[0:1].detach_()",
    "detach_in_place_a_plain_view": "torch.zeros(3)[0].detach_()",
    "numpy_of_requires_grad": "torch.tensor([1.0, 2.0], requires_grad=True).numpy()",
    "no_derivative_for_floor_divide": "w = torch.tensor([1.5], requires_grad=True); (w // 2).sum().backward()",
    "deepcopy_of_non_leaf": "import copy; w = torch.ones(2, requires_grad=True); copy.deepcopy(w * 2)",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_same_error_as_pytorch(name):
    assert_same(SNIPPETS[name])


def test_the_session_survives_errors():
    import course_lib as torch
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    s = (w * w).sum()
    s.backward()
    with pytest.raises(RuntimeError):
        s.backward()
    with pytest.raises(RuntimeError):
        with torch.no_grad():
            (w * 2).sum().backward()
    h = w * 2
    h.register_hook(lambda g: g.sum())
    with pytest.raises(RuntimeError):
        h.sum().backward()
    assert torch.is_grad_enabled()
    w.grad = None
    (w * 3).sum().backward()
    assert w.grad.tolist() == [3.0, 3.0]
