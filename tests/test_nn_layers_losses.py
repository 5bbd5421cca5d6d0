# ruff: noqa: E501 - one PyTorch snippet per line
"""nn layers, activations and losses against real PyTorch: printed results, grad_fn names, gradients, errors.

Each snippet runs once with ``torch`` bound to PyTorch and once to course_lib
(``tests/torch_compare.py``); printed output, the exception and the warnings
must be identical.  Seeds make the inputs and the initial weights the same
(course_lib's generator reproduces PyTorch's CPU stream).
"""

import numpy as np
import pytest
from torch_compare import assert_same, cases

import course_lib

pytest.importorskip("torch")

NON_TENSOR = cases("""
torch.nn.Linear(2, 1)(np.ones((3, 2)))
torch.nn.Linear(2, 1)([[1.0, 2.0]])
torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.ReLU())(np.ones((3, 2)))
torch.nn.functional.linear(torch.ones(1), [[1.0]])
torch.nn.functional.linear(torch.ones(1), torch.ones(1, 1), [1.0])
torch.nn.ReLU()([1.0])
torch.nn.Sigmoid()(np.ones(2))
torch.nn.Tanh()([1.0])
torch.nn.Softmax(0)(np.ones(2))
torch.nn.LogSoftmax(0)([1.0])
torch.nn.Flatten()(np.ones((2, 2)))
torch.nn.Dropout()(np.ones(2))
torch.nn.Dropout(0.0)([1.0])
torch.nn.functional.sigmoid([1.0])
torch.nn.functional.tanh([1.0])
torch.nn.functional.softmax([1.0], 0)
torch.nn.MSELoss()(torch.ones(3), [1.0, 2.0, 3.0])
torch.nn.MSELoss()([1.0], torch.ones(1))
torch.nn.MSELoss()(torch.ones(3), np.ones(3))
torch.nn.L1Loss()(torch.ones(3), [1.0, 2.0, 3.0])
torch.nn.BCELoss()(torch.ones(3), [1.0, 0.0, 1.0])
torch.nn.BCEWithLogitsLoss()([1.0], torch.ones(1))
torch.nn.CrossEntropyLoss()(torch.ones(3, 4), [1, 0, 3])
torch.nn.CrossEntropyLoss()([[1.0, 2.0]], torch.tensor([1]))
torch.nn.NLLLoss()(torch.ones(3, 4), [1, 0, 3])
torch.nn.functional.nll_loss([1.0], torch.tensor([0]))
""")


@pytest.mark.parametrize("code", NON_TENSOR)
def test_non_tensor_arguments_raise_pytorchs_errors(code):
    assert_same(code)


MODULES = cases("""
print(torch.nn.Sigmoid(), torch.nn.Tanh(), torch.nn.Softmax(dim=1), torch.nn.Softmax(), torch.nn.LogSoftmax(0))
print(torch.nn.Flatten(), torch.nn.Flatten(0, 2), torch.nn.Dropout(), torch.nn.Dropout(0.2, inplace=True))
print(torch.nn.CrossEntropyLoss(), torch.nn.BCELoss(), torch.nn.BCEWithLogitsLoss(), torch.nn.L1Loss(), torch.nn.NLLLoss())
torch.manual_seed(0); m = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Dropout(0.1), torch.nn.Linear(3, 2), torch.nn.Softmax(dim=1)); print(m); print(m.state_dict())
torch.manual_seed(0); m = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Sigmoid()); print([n for n, _ in m.named_parameters()], [tuple(p.shape) for p in m.parameters()])
torch.manual_seed(0); m = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Dropout()); print(m.training, m.eval().training, m[1].training, m.train().training, m[1].training)
torch.manual_seed(0); m = torch.nn.Linear(2, 2); m2 = torch.nn.Linear(2, 2); print(m2.load_state_dict(m.state_dict())); print(m2.weight)
torch.manual_seed(0); m = torch.nn.Linear(2, 1); m(torch.ones(3, 2)).sum().backward(); print(m.weight.grad); m.zero_grad(); print(m.weight.grad)
torch.manual_seed(0); print(torch.nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0])).state_dict())
torch.manual_seed(0); x = torch.randn(2, 3, 2, 2, requires_grad=True); y = torch.nn.Flatten()(x); print(y.shape, y.grad_fn.name())
torch.manual_seed(0); x = torch.randn(2, 3, requires_grad=True); print(torch.nn.Sigmoid()(x), torch.nn.Tanh()(x))
torch.manual_seed(0); x = torch.randn(2, 3, requires_grad=True); print(torch.nn.Softmax(dim=1)(x), torch.nn.LogSoftmax(dim=0)(x))
torch.manual_seed(0); x = torch.randn(2, 3); print(torch.nn.Softmax()(x))
torch.manual_seed(0); x = torch.randn(2, 3, requires_grad=True); print(torch.nn.functional.sigmoid(x), torch.nn.functional.tanh(x), torch.nn.functional.relu(x))
torch.nn.Flatten()(torch.ones(3))
torch.nn.Dropout(1.5)
torch.nn.functional.dropout(torch.ones(2), -0.1)
x = torch.ones(3); print(torch.nn.Dropout(0.5).eval()(x) is x, torch.nn.Dropout(0.0)(x) is x, torch.nn.functional.dropout(x, 0.5, training=False) is x)
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True); print(torch.nn.Dropout(1.0)(x))
x = torch.ones(2, 3, requires_grad=True); y = torch.nn.Dropout(0.5)(x); print(y.grad_fn.name(), y.shape)
""")


@pytest.mark.parametrize("code", MODULES)
def test_modules_as_pytorch(code):
    assert_same(code)


def test_dropout_scales_the_kept_elements_and_trains_only():
    course_lib.manual_seed(0)
    x = course_lib.ones(1000, requires_grad=True)
    drop = course_lib.nn.Dropout(0.25)
    y = drop(x)
    kept = y.detach().numpy() != 0
    assert 0.65 < kept.mean() < 0.85
    np.testing.assert_allclose(y.detach().numpy()[kept], 1 / 0.75, rtol=1e-6)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), kept / 0.75, rtol=1e-6)
    assert drop.eval()(x) is x


LOSSES = cases("""
torch.manual_seed(0); x = torch.randn(3, 4, requires_grad=True); y = torch.tensor([1, 0, 3]); l = torch.nn.CrossEntropyLoss()(x, y); print(l, l.grad_fn.name()); l.backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(3, 4, requires_grad=True); y = torch.tensor([1, 0, 3]); l = torch.nn.CrossEntropyLoss(reduction='none')(x, y); print(l); l.sum().backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(3, 4, requires_grad=True); y = torch.tensor([1, 0, 3]); l = torch.nn.CrossEntropyLoss(reduction='sum')(x, y); print(l); l.backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(3, 4, requires_grad=True); y = torch.tensor([1, 0, 3], dtype=torch.uint8); print(torch.nn.functional.cross_entropy(x, y))
torch.manual_seed(0); x = torch.randn(3, 4, dtype=torch.float64); print(torch.nn.functional.cross_entropy(x, torch.tensor([1, 0, 3])))
torch.manual_seed(0); x = torch.randn(4); print(torch.nn.functional.cross_entropy(x, torch.tensor(2)), torch.nn.functional.cross_entropy(x, torch.tensor(2), reduction='none'))
torch.manual_seed(0); x = torch.randn(2, 3, 4, requires_grad=True); y = torch.tensor([[1, 0, 2, 1], [0, 0, 0, 2]]); l = torch.nn.functional.cross_entropy(x, y); print(l); l.backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(3, 4, requires_grad=True); p = torch.softmax(torch.randn(3, 4), 1); l = torch.nn.CrossEntropyLoss()(x, p); print(l, l.grad_fn.name()); l.backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(3, 4, requires_grad=True); p = torch.softmax(torch.randn(3, 4), 1); print(torch.nn.functional.cross_entropy(x, p, reduction='none'), torch.nn.functional.cross_entropy(x, p, reduction='sum'))
torch.manual_seed(0); x = torch.randn(3, 4); print(torch.nn.functional.cross_entropy(x, torch.ones(3, 4, dtype=torch.float64)))
torch.manual_seed(0); x = torch.randn(3, 4, requires_grad=True); l = torch.nn.functional.cross_entropy(x, torch.tensor([1, -100, 3])); print(l); l.backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(3, 4, requires_grad=True); l = torch.nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 3.0, 4.0]))(x, torch.tensor([1, 0, 3])); print(l); l.backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(3, 4, requires_grad=True); l = torch.nn.CrossEntropyLoss(label_smoothing=0.1)(x, torch.tensor([1, 0, 3])); print(l, l.grad_fn.name()); l.backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(3, 4); print(torch.nn.functional.cross_entropy(x, torch.tensor([-100, -100, -100])))
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.cross_entropy(x, torch.tensor([1.0, 0.0, 3.0]))
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.cross_entropy(x, torch.tensor([1, 0, 3], dtype=torch.int32))
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.cross_entropy(x, torch.tensor([True, False, True]))
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.cross_entropy(x, torch.tensor([1, 0]))
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.cross_entropy(x, torch.tensor([1, 0, 4]))
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.cross_entropy(x, torch.tensor([1, 0, -1]))
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.cross_entropy(x, torch.tensor([[1, 0, 2]]))
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.cross_entropy(x, torch.ones(3, 3))
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.cross_entropy(x, torch.tensor(1))
torch.nn.functional.cross_entropy(torch.tensor(1.0), torch.tensor(1))
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.cross_entropy(x, torch.tensor([1, 0, 2]), reduction='avg')
torch.manual_seed(0); x = torch.randn(3, 4).log_softmax(1).requires_grad_(); l = torch.nn.NLLLoss()(x, torch.tensor([1, 0, 3])); print(l, l.grad_fn.name()); l.backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.nll_loss(x, torch.tensor([1.0, 0.0, 3.0]))
torch.manual_seed(0); x = torch.randn(3, 4); torch.nn.functional.nll_loss(x, torch.tensor([1, 0, 4]))
torch.manual_seed(0); x = torch.randn(2, 3, requires_grad=True); y = torch.rand(2, 3); l = torch.nn.BCELoss()(torch.sigmoid(x), y); print(l, l.grad_fn.name()); l.backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(2, 3, requires_grad=True); y = torch.rand(2, 3); l = torch.nn.BCELoss(reduction='none')(torch.sigmoid(x), y); print(l); l.sum().backward(); print(x.grad)
torch.manual_seed(0); p = torch.rand(2, 3, requires_grad=True); y = torch.rand(2, 3); l = torch.nn.BCELoss(weight=torch.tensor([1.0, 2.0, 0.5]), reduction='sum')(p, y); print(l); l.backward(); print(p.grad)
print(torch.nn.functional.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])))
torch.nn.functional.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([1.0, 0.0]))
torch.nn.functional.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([1, 0]))
torch.nn.functional.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([1.0, 0.0, 1.0]))
torch.nn.functional.binary_cross_entropy(torch.tensor([0.5, 0.5], dtype=torch.float64), torch.tensor([1.0, 0.0]))
torch.nn.functional.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([1.0, 0.0]), reduction='x')
torch.manual_seed(0); x = torch.randn(2, 3, requires_grad=True); y = torch.rand(2, 3); l = torch.nn.BCEWithLogitsLoss()(x, y); print(l, l.grad_fn.name()); l.backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(2, 3, requires_grad=True); y = torch.rand(2, 3); l = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 3.0]), reduction='none')(x, y); print(l); l.sum().backward(); print(x.grad)
print(torch.nn.functional.binary_cross_entropy_with_logits(torch.tensor([100.0, -100.0]), torch.tensor([0.0, 1.0])))
print(torch.nn.functional.binary_cross_entropy_with_logits(torch.tensor([0.5, 1.5], dtype=torch.float64), torch.tensor([1.0, 0.0])))
torch.nn.functional.binary_cross_entropy_with_logits(torch.tensor([0.5, 1.5]), torch.tensor([1, 0]))
torch.nn.functional.binary_cross_entropy_with_logits(torch.tensor([0.5, 1.5]), torch.tensor([[1.0, 0.0]]))
torch.nn.functional.binary_cross_entropy_with_logits(torch.tensor([1, 2]), torch.tensor([1.0, 0.0]))
torch.manual_seed(0); x = torch.randn(2, 3, requires_grad=True); y = torch.randn(2, 3); l = torch.nn.L1Loss()(x, y); print(l, l.grad_fn.name()); l.backward(); print(x.grad)
torch.manual_seed(0); x = torch.randn(2, 3, requires_grad=True); y = torch.randn(2, 3); print(torch.nn.L1Loss(reduction='none')(x, y), torch.nn.L1Loss(reduction='sum')(x, y))
print(torch.nn.functional.l1_loss(torch.tensor([0.5, 1.5]), torch.tensor([[1.0, 0.0]])))
torch.nn.functional.l1_loss(torch.tensor([1, 2]), torch.tensor([1, 0]))
torch.nn.L1Loss(reduction='avg')(torch.ones(2), torch.ones(2))
torch.manual_seed(0); x = torch.randn(2, 3, requires_grad=True); y = torch.randn(2, 3); l = torch.nn.functional.mse_loss(x, y, reduction='sum'); print(l, l.grad_fn.name())
""")


@pytest.mark.parametrize("code", LOSSES)
def test_losses_as_pytorch(code):
    assert_same(code)


@pytest.mark.parametrize("make", [
    lambda F, x, y: F.cross_entropy(x, y.softmax(1)),
    lambda F, x, y: F.cross_entropy(x, course_lib.tensor([2, 0, 1])),
    lambda F, x, y: F.binary_cross_entropy(x.sigmoid(), y.sigmoid()),
    lambda F, x, y: F.binary_cross_entropy_with_logits(x, y.sigmoid(), reduction="sum"),
    lambda F, x, y: F.l1_loss(x, y),
])
def test_loss_gradients_pass_gradcheck(make):
    F = course_lib.nn.functional
    rng = np.random.default_rng(0)
    x, y = (course_lib.tensor(rng.standard_normal((3, 3)), dtype=course_lib.float64, requires_grad=True)
            for _ in range(2))
    assert course_lib.autograd.gradcheck(lambda a, b: make(F, a, b), (x, y), eps=1e-6, atol=1e-5)
