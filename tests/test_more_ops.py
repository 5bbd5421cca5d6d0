# ruff: noqa: E501  (one PyTorch snippet a line)
"""More operations a learner meets: in-place shape changes, repeat_interleave & co, scatter, einsum, ...

Each snippet runs with course_lib and with real PyTorch (skipped without it):
printed output (values, dtypes, grad_fn names, shapes), exception type and
message, and warnings must be the same.  Gradients are checked by finite
differences in ``tests/test_gradcheck.py``.
"""

import pytest
from torch_compare import assert_same, cases


def _cases(text):
    """One snippet a line; a literal \\n in a line is a line break inside the snippet."""
    return [c.replace("\\n", "\n") for c in cases(text)]


INPLACE_SHAPE = _cases(r"""
x = torch.ones(2, 3, requires_grad=True); x.t_()
x = torch.ones(2, 3, requires_grad=True); x.unsqueeze_(0)
x = torch.ones(1, 3, requires_grad=True); x.squeeze_()
x = torch.ones(2, 3, requires_grad=True); x.transpose_(0, 1)
x = torch.ones(1, 3, requires_grad=True); v = x[0]; v.unsqueeze_(0)
x = torch.ones(2, 3, requires_grad=True); y = x * 1; r = y.t_(); print(r is y, y.shape, y.stride(), y.grad_fn.name(), y._version)
x = torch.ones(2, 3, requires_grad=True); y = x * 1; y.unsqueeze_(0); print(y.shape, y.stride(), y.grad_fn.name(), y._version)
x = torch.ones(2, 1, 3, requires_grad=True); y = x * 1; y.squeeze_(); print(y.shape, y.grad_fn.name())
x = torch.ones(2, 1, 3, requires_grad=True); y = x * 1; y.squeeze_(1); print(y.shape, y.grad_fn.name())
x = torch.ones(1, 3, 1, requires_grad=True); y = x * 1; y.squeeze_((0, 2)); print(y.shape, y.grad_fn.name())
x = torch.ones(2, 3, requires_grad=True); y = x * 1; y.transpose_(0, 1); print(y.shape, y.is_contiguous(), y.grad_fn.name())
z = torch.tensor(1., requires_grad=True) * 1; z.transpose_(0, 0); print(z.grad_fn.name()); z.t_(); z.grad_fn.name()
z = torch.arange(6).reshape(2, 3); v0 = z._version; z.t_(); print(z, z._version - v0, z.stride())
b = torch.ones(2, 3); v = b[0]; v.unsqueeze_(0); print(v.shape, v._base is b, b.shape)
torch.ones(2, 3, 4).t_()
torch.ones(2, 3).transpose_(0, 5)
torch.ones(2, 3).unsqueeze_(5)
torch.ones(2).transpose_(0, 'a')
torch.ones(2).unsqueeze_()
torch.ones(2).squeeze_(None)
x = torch.ones(2, 3, requires_grad=True); y = x * 1; z = y.sin(); y.t_(); z.sum().backward()
x = torch.ones(2, 3, requires_grad=True); y = x * 1; z = y * y; y.unsqueeze_(0); z.sum().backward()
x = torch.arange(6.).reshape(2, 3).requires_grad_(); y = x * 2; v = y[1]; v.unsqueeze_(0); (v * torch.tensor([1., 2, 3])).sum().backward(); print(x.grad, y[0].grad_fn.name())
x = torch.arange(6.).reshape(2, 3).requires_grad_(); y = x * 2; y.t_(); y.unsqueeze_(1); y.squeeze_(); y.transpose_(0, 1); (y * torch.arange(6.).reshape(2, 3)).sum().backward(); print(x.grad, y._version)
w = torch.ones(2, 3, requires_grad=True)\nwith torch.no_grad(): w.t_()\nprint(w.shape, w.requires_grad, w.grad_fn, w.is_leaf)
""")


@pytest.mark.parametrize("code", INPLACE_SHAPE)
def test_inplace_shape_methods_as_pytorch(code):
    assert_same(code)
