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


SHAPE_OPS = _cases(r"""
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(2); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(2,dim=1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(2,dim=0).stride(); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(torch.tensor([1,2]),dim=0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(torch.tensor([3]),dim=0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(torch.tensor(3)); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.repeat_interleave(x,2,1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.tensor(5).repeat_interleave(3); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.arange(3).repeat_interleave(torch.tensor([1,0,2])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(torch.tensor([1,2,3]),dim=0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(torch.tensor([1.,2]),dim=0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(-1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(torch.tensor([-1,2]),dim=0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(2,dim=3); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.repeat_interleave(torch.tensor([[1,2]])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(torch.tensor([1,2])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(torch.tensor([[1,2]]),dim=0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.repeat_interleave(torch.tensor([1,2,3])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.repeat_interleave(0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.tensor_split(2); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.tensor_split([1,2],dim=1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.tensor_split(torch.tensor([1]),1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.tensor_split(torch.tensor(2),1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.tensor_split(0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.tensor_split(torch.tensor([1.])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.tensor_split(torch.tensor([[1]])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.tensor_split(2, dim=2); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.tensor(1.).tensor_split(1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.tensor_split((0,5)); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.tensor_split([2,1]); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.tensor_split(4,1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.arange(7).tensor_split(3); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.arange(7).tensor_split([-2, 5]); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.fliplr(x); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.flipud(x); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.fliplr(); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.fliplr(torch.ones(3)); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.flipud(torch.tensor(1.)); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.take(torch.tensor([0,5])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.take(torch.tensor([6])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.take(torch.tensor([-6,-1])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.take(torch.tensor([1.])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.take(torch.tensor([[1,2]])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.take(torch.tensor([-7])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.take(torch.tensor(3.), torch.tensor([0,0])); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.roll(1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.roll(1,0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.roll((1,1),(0,1)); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.roll(1,5); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.roll((1,2),(0,)); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.roll(-7, 1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.roll((1,2)); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.roll(1, (0,1)); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.roll([]); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.roll(x, shifts=1, dims=1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.diag(x); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.diag(x[0]); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.diagonal(); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.diagonal(1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.diagonal(-1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.diag(1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.diag(x,-1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.diag(x, 5); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.diag(torch.ones(2,2,2)); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.diagonal(0,0,0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.diagonal(5); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.diagonal(-5); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.ones(2,3,4).diagonal(0,1,2); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.ones(2,3,4).diagonal(0,-1,0).shape; print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.ones(3).diagonal(); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.diagonal(x, offset=1).stride(); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.diag(torch.tensor([1,2]),-1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.diag(torch.tensor(1)); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.arange(24.).reshape(2,3,4).diagonal(1, 2, 0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.trace(); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.ones(2,3,4).trace(); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.arange(9).reshape(3,3).trace(); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.arange(9,dtype=torch.int32).reshape(3,3).trace().dtype; print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.ones(3,3,dtype=torch.bool).trace(); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.trace(torch.arange(6.).reshape(3,2)); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.arange(1,5).cumprod(0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.arange(1,5,dtype=torch.int32).cumprod(0).dtype; print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.ones(3,dtype=torch.bool).cumprod(0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.cumprod(0,dtype=torch.float64); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.cumprod(2); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = x.cumprod(); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.cumprod(x, dim=1); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); r = torch.tensor(2.).cumprod(0); print(r, getattr(r, 'dtype', None))
x = torch.arange(6.).reshape(2, 3).requires_grad_(); print([f.name() for f in [x.repeat_interleave(2).grad_fn, x.repeat_interleave(2).grad_fn.next_functions[0][0]]])
x = torch.arange(9.).reshape(3, 3); v = x.diagonal(); print(v._base is x, v.is_contiguous(), v.stride()); v.zero_(); x
x = torch.tensor([[2., 0, 3], [0., 0, 4]], requires_grad=True); x.cumprod(1).sum().backward(); x.grad
x = torch.tensor([[2., 0, 3], [0., 0, 4]], requires_grad=True); x.cumprod(0).sum().backward(); x.grad
x = torch.tensor([[2., 1, 3], [5., 1, 4]], requires_grad=True); y = x * 1; z = y.take(torch.tensor([1, 1, 3])); y.add_(1); z.sum().backward()
x = torch.tensor([[2., 1, 3], [5., 1, 4]], requires_grad=True); x.take(torch.tensor([1, 1, -1])).sum().backward(); x.grad
x = torch.arange(6.).reshape(2, 3).requires_grad_(); [p.grad_fn.name() for p in x.tensor_split(2, 1)]
""")


@pytest.mark.parametrize("code", SHAPE_OPS)
def test_repeat_interleave_tensor_split_roll_diag_take_cumprod_as_pytorch(code):
    assert_same(code)


SCATTER = _cases(r"""
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = torch.scatter(x,0,i,src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter(1,torch.tensor([[2],[0]]),5.); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = torch.scatter_add(x,0,i,src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter_add(1,i,src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = (x*1).scatter_(0,i,src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = (x*1).scatter_(0,i,7.); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = (x*1).scatter_add_(0,i,src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = z.scatter_(0,i,src.detach()); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = z.scatter_add_(0,i,src.detach()); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter_(0,i,src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter(0,i.float(),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter(0,i,src.double()); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter(2,i,src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter(0,torch.tensor([[3,0,0]]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter(0,torch.tensor([1,0]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter(0,torch.tensor([[0,0,0,0]]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter(0,i,src[:1]); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter_add(0,i,src.double()); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter_add(0,i,5.); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = torch.zeros(3,dtype=torch.int64).scatter_(0,torch.tensor([0,2]),torch.tensor([5,6])); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = torch.zeros(3).scatter_(0,torch.tensor([0,2]),torch.tensor([5,6])); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter(0,torch.tensor([[-1,0,0]]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = (x*1).index_add_(0,torch.tensor([1,1]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = torch.index_add(x,1,torch.tensor([0,2,0]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_add(0,torch.tensor([1,0]),src,alpha=2); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_add_(0,torch.tensor([1,1]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_add(0,torch.tensor([1.,1]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_add(0,torch.tensor([1,1,0]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_add(0,torch.tensor([5,1]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_add(0,torch.tensor([1,0]),src.double()); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_add(0,torch.tensor([[1,0]]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_add(0,torch.tensor([1,0]),src[:, :2]); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_add(2,torch.tensor([1,0]),src); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = (x*1).index_fill_(1,torch.tensor([0,2]),-1.); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_fill(1,torch.tensor([0,2]),-1.); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_fill(1,torch.tensor([0,2]),torch.tensor(-1.)); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_fill(1,torch.tensor([0,2]),torch.tensor(-1., requires_grad=True)); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_fill(1,torch.tensor([0,5]),-1.); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_fill(1,torch.tensor([0.]),-1.); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_fill(1,torch.tensor([[0]]),-1.); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_fill(1,torch.tensor([0]),torch.tensor([1.,2])); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.index_fill_(1,torch.tensor([0]),1.); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = torch.index_fill(x,0,torch.tensor([1]),2); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = torch.arange(4).index_fill(0,torch.tensor([1]),2.5); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); (x.scatter(0, i, src) * torch.arange(6.).reshape(2, 3)).sum().backward(); print(x.grad, src.grad)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); (x.scatter_add(1, i, src) * torch.arange(6.).reshape(2, 3)).sum().backward(); print(x.grad, src.grad)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); (x.index_add(0, torch.tensor([1, 1]), src, alpha=3) * torch.arange(6.).reshape(2, 3)).sum().backward(); print(x.grad, src.grad)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); v = torch.tensor(2., requires_grad=True); (x.index_fill(1, torch.tensor([0, 2]), v) * torch.arange(6.).reshape(2, 3)).sum().backward(); print(x.grad, v.grad)
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); y = x * 1; v0 = y._version; y.scatter_(0, i, src); y.index_fill_(0, torch.tensor([0]), 1.); y.index_add_(1, torch.tensor([0, 0, 1]), src); print(y, y._version - v0, y.grad_fn.name())
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); y = x * 1; w = y.index_add(0, torch.tensor([1, 0]), src); src.data.add_(1); w.sum().backward(); print(x.grad)
torch.zeros(5).scatter_add_(0, torch.tensor([0, 2, 2, 4, 2]), torch.ones(5))
""")


@pytest.mark.parametrize("code", SCATTER)
def test_scatter_index_add_index_fill_as_pytorch(code):
    assert_same(code)


# scatter's reduce=: PyTorch warns once per process (so warnings depend on the order tests run in)
SCATTER_REDUCE = _cases(r"""
x = torch.arange(6.).reshape(2, 3).requires_grad_(); src = torch.arange(10., 16.).reshape(2, 3).requires_grad_(); i = torch.tensor([[1, 0, 1], [0, 1, 0]]); z = torch.zeros(3, 3); r = x.scatter(0,i,src,reduce='mean'); print(r, r.dtype, r.grad_fn.name() if r.grad_fn else None)
z = torch.zeros(3); z.scatter(0, torch.tensor([1, 1]), torch.tensor([1., 2]), reduce='add')
z = torch.ones(4); z.scatter_(0, torch.tensor([1, 1, 3]), 3., reduce='multiply')
""")


@pytest.mark.parametrize("code", SCATTER_REDUCE)
def test_scatter_reduce_values_as_pytorch(code):
    assert_same(code, check_warnings=False)


MULTINOMIAL = _cases(r"""
torch.manual_seed(0); w = torch.tensor([0.1, 0.2, 0.3, 0.4]); print(torch.multinomial(w, 1), torch.multinomial(w, 3), torch.multinomial(w, 10, replacement=True), torch.rand(2))
torch.manual_seed(1); W = torch.tensor([[1., 2, 3, 0], [0, 0, 5, 1], [1, 1, 1, 1]]); print(W.multinomial(2), W.multinomial(6, True), torch.multinomial(W.double(), 2))
torch.manual_seed(2); print(torch.multinomial(torch.rand(1000), 20), torch.multinomial(torch.rand(50).double(), 20, True), torch.multinomial(torch.rand(7, 30), 30))
torch.manual_seed(3); torch.multinomial(torch.rand(1000) ** 4, 100, True)
g = torch.Generator().manual_seed(5); torch.multinomial(torch.tensor([0.1, 0.2, 0.3, 0.4]), 4, generator=g)
torch.multinomial(torch.tensor([0., 1]), 2)
torch.multinomial(torch.tensor([0.5, 0.5]), 2).dtype
torch.multinomial(torch.tensor([1, 2]), 1)
torch.multinomial(torch.ones(2, 2, 2), 1)
torch.multinomial(torch.ones(3), 0)
torch.multinomial(torch.ones(3), 5)
torch.multinomial(torch.tensor([1., -1]), 1)
torch.multinomial(torch.tensor([1., float('inf')]), 1)
torch.multinomial(torch.tensor([0., 0]), 1)
torch.multinomial(torch.tensor([1., -1]), 3, True)
torch.multinomial(torch.tensor([1., float('nan')]), 3, True)
torch.multinomial(torch.tensor([1., float('inf')]), 3, True)
torch.multinomial(torch.tensor([0., 0]), 3, True)
""")


@pytest.mark.parametrize("code", MULTINOMIAL)
def test_multinomial_draws_as_pytorch(code):
    assert_same(code)


EINSUM = _cases(r"""
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ij,jk->ik', A, B)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('i,i->', v, v)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('bij,bjk->bik', C, D)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ii->i', S)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ij->ji', A)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('i,j->ij', v, u)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ii', S)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ij->', A)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ij->j', A)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ij,ij->ij', A, A)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ij,j->i', A, v)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ij,kj->ik', A, A)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ij,jk', A, B)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('i,i', v, v)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ij', A)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ji', A)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ij,ij->', A, A)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('bij,bjk', C, D)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('ij,jk->ik', [A, B])\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('...ij,...jk->...ik', C, D)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
def chain(f, d=0):\n    return [] if f is None or d > 6 else [('  ' * d) + f.name()] + [x for g, _ in f.next_functions for x in chain(g, d + 1)]\nA = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); r = torch.einsum('i j , j k -> i k', A, B)\nprint(r, r.shape, r.stride(), chain(r.grad_fn))
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); torch.einsum('ij,jk->ik', A)
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); torch.einsum('ij,jk->ik', A, v)
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); torch.einsum('ij->k', A)
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); torch.einsum('ij->ii', A)
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); torch.einsum('ijk', A)
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); torch.einsum('i,i->', v, u)
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); torch.einsum('ij,jk->ik', A, B.double())
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); torch.einsum('ij,jk->ik', A.long(), B.long())
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); torch.einsum('iJ', A)
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); torch.einsum('i1', A)
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); torch.einsum('ij->i->j', A)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('ij,jk->ik', A, A, A); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('ij,jk->ik'); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('ij,jk->ik', A, A.t().long()); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('ij->j', A.long()); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('i,i->i', torch.ones(3), torch.ones(1)); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('ij,jk->ik', A, 3); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('ab,bc,cd->ad', A, A.t(), A); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('Ab,b->A', A, torch.ones(3)); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('bA->', A); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('ba', A); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('ij,jk->ik', A.t(), A.t()); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('ij,jk->i', A, A.t()); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('i,i', torch.ones(3), torch.ones(1)); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('ii->', torch.ones(2,2)); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('i j,j k->i k',A, A.t()); print(r, r.grad_fn)
A = torch.arange(6.).reshape(2, 3); r = torch.einsum('ij,kl->ijkl', A, A).shape; print(r, r.grad_fn)
C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); B = torch.arange(20.).reshape(4, 5); v = torch.arange(4.); r = torch.einsum('...ij->...ji', C); print(r, r.grad_fn.name(), r.stride())
C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); B = torch.arange(20.).reshape(4, 5); v = torch.arange(4.); r = torch.einsum('...i,...i->...', C, C); print(r, r.grad_fn.name(), r.stride())
C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); B = torch.arange(20.).reshape(4, 5); v = torch.arange(4.); r = torch.einsum('...ij,jk->...ik', C, B); print(r, r.grad_fn.name(), r.stride())
C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); B = torch.arange(20.).reshape(4, 5); v = torch.arange(4.); r = torch.einsum('...ij', C); print(r, r.grad_fn.name(), r.stride())
C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); B = torch.arange(20.).reshape(4, 5); v = torch.arange(4.); r = torch.einsum('i...->...', C); print(r, r.grad_fn.name(), r.stride())
C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); B = torch.arange(20.).reshape(4, 5); v = torch.arange(4.); r = torch.einsum('...j,j', C, v); print(r, r.grad_fn.name(), r.stride())
C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); B = torch.arange(20.).reshape(4, 5); v = torch.arange(4.); r = torch.einsum('bij,bkj->bik', C, C); print(r, r.grad_fn.name(), r.stride())
C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); B = torch.arange(20.).reshape(4, 5); v = torch.arange(4.); r = torch.einsum('ij,j->i', C[0], v); print(r, r.grad_fn.name(), r.stride())
C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); B = torch.arange(20.).reshape(4, 5); v = torch.arange(4.); r = torch.einsum('i,i->i', v, v); print(r, r.grad_fn.name(), r.stride())
C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); B = torch.arange(20.).reshape(4, 5); v = torch.arange(4.); r = torch.einsum('ij->i', C[0]); print(r, r.grad_fn.name(), r.stride())
C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); B = torch.arange(20.).reshape(4, 5); v = torch.arange(4.); r = torch.einsum('bi,bi->b', C[0], C[1]); print(r, r.grad_fn.name(), r.stride())
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); w = torch.einsum('ij,jk->ik', A, B); (w * torch.arange(w.numel()).reshape(w.shape)).sum().backward(); print([t.grad for t in (A, B, v, u, C, D, S)])
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); w = torch.einsum('bij,bjk->bik', C, D); (w * torch.arange(w.numel()).reshape(w.shape)).sum().backward(); print([t.grad for t in (A, B, v, u, C, D, S)])
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); w = torch.einsum('ii->i', S); (w * torch.arange(w.numel()).reshape(w.shape)).sum().backward(); print([t.grad for t in (A, B, v, u, C, D, S)])
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); w = torch.einsum('i,j->ij', v, u); (w * torch.arange(w.numel()).reshape(w.shape)).sum().backward(); print([t.grad for t in (A, B, v, u, C, D, S)])
A = torch.arange(6.).reshape(2, 3).requires_grad_(); B = torch.arange(12.).reshape(3, 4).requires_grad_(); v = torch.arange(3.).requires_grad_(); u = torch.arange(4.).requires_grad_(); C = torch.arange(24.).reshape(2, 3, 4).requires_grad_(); D = torch.arange(40.).reshape(2, 4, 5).requires_grad_(); S = torch.arange(9.).reshape(3, 3).requires_grad_(); w = torch.einsum('ij,kj->ik', A, A); (w * torch.arange(w.numel()).reshape(w.shape)).sum().backward(); print([t.grad for t in (A, B, v, u, C, D, S)])
""")


@pytest.mark.parametrize("code", EINSUM)
def test_einsum_as_pytorch(code):
    assert_same(code)


@pytest.mark.parametrize("equation, shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("i,i->", [(3,), (3,)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ii->i", [(3, 3)]), ("ij->ji", [(2, 3)]), ("i,j->ij", [(3,), (4,)]), ("ii", [(3, 3)]),
    ("...ij,jk->...ik", [(2, 3, 4), (4, 2)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
])
def test_einsum_gradients_by_finite_differences(equation, shapes):
    import numpy as np

    import course_lib
    rng = np.random.default_rng(0)
    inputs = [course_lib.tensor(rng.standard_normal(s), dtype=course_lib.float64, requires_grad=True) for s in shapes]
    assert course_lib.autograd.gradcheck(lambda *xs: course_lib.einsum(equation, *xs), inputs)


INFERENCE = _cases(r"""
with torch.inference_mode():\n    x = torch.ones(3); y = x * 2\nprint(x.is_inference(), y.is_inference(), torch.ones(2).is_inference(), torch.is_inference_mode_enabled(), torch.is_grad_enabled(), y, y.requires_grad)
with torch.inference_mode():\n    y = torch.ones(3) * 2\nw = torch.ones(3, requires_grad=True); (w * y).sum().backward()
with torch.inference_mode():\n    y = torch.ones(3) * 2\nw = torch.ones(3, requires_grad=True); print((w + y).sum(), (w.exp() + y).grad_fn.name(), torch.exp(y).sum()); (w.exp() * y).grad_fn
with torch.inference_mode():\n    y = torch.ones(3) * 2\ny.requires_grad_()
with torch.inference_mode():\n    y = torch.ones(3) * 2\ny.requires_grad = True
with torch.inference_mode():\n    y = torch.ones(3) * 2\nprint(y.requires_grad_(False).requires_grad)
with torch.inference_mode():\n    y = torch.ones(3) * 2\ny.add_(1)
with torch.inference_mode():\n    y = torch.ones(3)\nfor f in [lambda: y.add_(1), lambda: y.mul_(torch.full((3,), 2.)), lambda: y.__setitem__(0, 7.), lambda: y.zero_(), lambda: y[0].fill_(2), lambda: y.copy_(torch.ones(3)), lambda: y.unsqueeze_(0)]:\n    try: f()\n    except RuntimeError as e: print(e, y)
with torch.inference_mode():\n    y = torch.ones(3)\ny._version
with torch.inference_mode():\n    y = torch.ones(3)\nprint((y + 1).is_inference(), y.clone().is_inference(), y.view(3).is_inference(), y[0].is_inference(), y.detach().is_inference(), torch.is_inference(y))
w = torch.ones(3, requires_grad=True)\nwith torch.inference_mode():\n    z = w * 2\n    w.add_(1)\nprint(z.requires_grad, z.grad_fn, z.is_inference(), z.is_leaf, w, w.is_inference())
b = torch.ones(2)\nwith torch.inference_mode():\n    b.add_(1); c = b.view(2); y = torch.ones(2); y.add_(1)\nprint(b._version, c.is_inference(), b.is_inference(), y)
w = torch.ones(3, requires_grad=True)\n@torch.inference_mode()\ndef f(t): return t * 2\nprint(f(w).is_inference(), f(w).requires_grad, torch.is_inference_mode_enabled())
w = torch.ones(2, requires_grad=True)\nwith torch.inference_mode():\n    with torch.inference_mode(False):\n        q = w * 2\n        print(q.grad_fn.name(), q.is_inference(), torch.is_grad_enabled(), torch.is_inference_mode_enabled())\nprint(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
lin = torch.nn.Linear(2, 2)\nwith torch.inference_mode():\n    out = lin(torch.ones(1, 2))\nprint(lin.weight.is_inference(), out.is_inference(), out.requires_grad, out.grad_fn)
with torch.inference_mode():\n    yy = torch.ones(2)\ntorch.nn.functional.linear(yy, torch.ones(3, 2, requires_grad=True))
with torch.inference_mode():\n    yy = torch.ones(2)\nv = yy.clone().requires_grad_(); (v * 3).sum().backward(); v.grad
""")


@pytest.mark.parametrize("code", INFERENCE)
def test_inference_mode_as_pytorch(code):
    assert_same(code)


SAVED_NUMBERS = _cases(r"""
x = torch.ones(3, requires_grad=True); print([(x * 2).grad_fn._saved_other, (x * 2.5).grad_fn._saved_other, (x * True).grad_fn._saved_other, (x / 2).grad_fn._saved_other])
x = torch.ones(3, requires_grad=True); print([(x ** 2).grad_fn._saved_exponent, (x ** 2.5).grad_fn._saved_exponent, x.pow(3).grad_fn._saved_exponent, (2 ** x).grad_fn._saved_self])
x = torch.ones(3, requires_grad=True); print([(x * 2).grad_fn._saved_self, (x + 2).grad_fn._saved_alpha, torch.mul(x, torch.tensor(2)).grad_fn._saved_other, x.double().mul(2).grad_fn._saved_other])
x = torch.ones(3, requires_grad=True); (x + 2).grad_fn._saved_other
""")


@pytest.mark.parametrize("code", SAVED_NUMBERS)
def test_saved_numbers_shown_as_pytorch(code):
    assert_same(code)
