"""Argument edge cases against PyTorch: 0-d tensors as dims, ``axis=`` aliases, non-tensor operands, the
argument parser's messages and narrow integer dtypes with out-of-range Python scalars.

Every snippet runs with course_lib and with real PyTorch (skipped without it); printed output, the exception
(type and message) and warnings must be the same.
"""

import pytest
from torch_compare import assert_same, cases

DIM_AS_TENSOR = r"""
x = torch.arange(6.).reshape(2, 3); x.sum(dim=torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.sum(torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.sum(dim=torch.tensor([1]))
x = torch.arange(6.).reshape(2, 3); x.sum(dim=(torch.tensor(0), torch.tensor(1)))
x = torch.arange(6.).reshape(2, 3); x.sum(dim=torch.tensor(True))
x = torch.arange(6.).reshape(2, 3); x.mean(torch.tensor(1)), x.std(torch.tensor(1)), x.var(torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.prod(torch.tensor(1)), x.amax(torch.tensor(1)), x.amin(torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.any(torch.tensor(1)), x.all(torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.argmax(torch.tensor(1)), x.argmin(torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.max(torch.tensor(1)), x.min(torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.unsqueeze(torch.tensor(1)).shape, x.squeeze(torch.tensor(1)).shape
x = torch.arange(6.).reshape(2, 3); x.unsqueeze(torch.tensor([1]))
x = torch.arange(6.).reshape(2, 3); x.unsqueeze(torch.tensor(1.))
x = torch.arange(6.).reshape(2, 3); x.chunk(2, torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.flatten(torch.tensor(0)), x.flatten(0, torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.flatten(None)
x = torch.arange(6.).reshape(2, 3); x.flatten('a')
x = torch.arange(6.).reshape(2, 3); x.cumsum(torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); torch.cumsum(x, 'a')
x = torch.arange(6.).reshape(2, 3); x.softmax(torch.tensor(1)), x.log_softmax(torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.transpose(torch.tensor(0), torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.select(torch.tensor(0), 0), x.narrow(torch.tensor(1), 0, 1)
x = torch.arange(6.).reshape(2, 3); x.narrow(0, torch.tensor(0), 1)
x = torch.arange(6.).reshape(2, 3); x.narrow(0)
x = torch.arange(6.).reshape(2, 3); x.narrow(0, 'a', 1)
x = torch.arange(6.).reshape(2, 3); x.select(0)
x = torch.arange(6.).reshape(2, 3); x.select(0, 'a')
x = torch.arange(6.).reshape(2, 3); x.index_select(torch.tensor(1), torch.tensor([0]))
x = torch.arange(6.).reshape(2, 3); x.gather(torch.tensor(1), torch.tensor([[0]]))
x = torch.arange(6.).reshape(2, 3); x.unbind(torch.tensor(1)), x.split(1, torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.split(1, 'a')
x = torch.arange(6.).reshape(2, 3); x.unbind('a')
x = torch.arange(6.).reshape(2, 3); x.flip(torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.movedim(torch.tensor(0), torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.movedim((0,), (torch.tensor(1),))
x = torch.arange(6.).reshape(2, 3); x.movedim(0, 'a')
x = torch.arange(6.).reshape(2, 3); x.sort(torch.tensor(1)), x.argsort(torch.tensor(1)), x.topk(1, torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.sort('a')
x = torch.arange(6.).reshape(2, 3); x.swapaxes(torch.tensor(0), torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.tril(torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); torch.cat([x, x], torch.tensor(1)).shape, torch.stack([x, x], torch.tensor(1)).shape
torch.tensor(3.).flip(0)
torch.tensor(3.).flip(-1)
torch.tensor(3.).flip(())
torch.tensor(3.).flip(1)
torch.tensor(3.).flip(0, 0)
torch.tensor(3.).chunk(1)
torch.tensor(3.).chunk(0)
torch.tensor(3.).split(1)
torch.tensor(3.).split([1])
torch.tensor(3.).unbind()
torch.tensor(3.).unbind(1)
torch.nonzero(torch.tensor(2.))
torch.nonzero(torch.tensor(0.))
torch.tensor(2.).nonzero()
torch.nonzero(torch.tensor(2.), as_tuple=True)
torch.nonzero(torch.tensor(0.), as_tuple=True)
torch.where(torch.tensor(2.))
torch.where(torch.tensor(0.))
torch.where(torch.tensor([[0, 1], [2, 0]]))
"""

AXIS_ALIAS = r"""
x = torch.arange(6.).reshape(2, 3); x.chunk(2, axis=0)
x = torch.arange(6.).reshape(2, 3); x.unbind(axis=0)
x = torch.arange(6.).reshape(2, 3); x.index_select(axis=0, index=torch.tensor([1]))
x = torch.arange(6.).reshape(2, 3); torch.index_select(x, axis=0, index=torch.tensor([1]))
x = torch.arange(6.).reshape(2, 3); x.index_select(axis=0)
x = torch.arange(6.).reshape(2, 3); x.index_select('a', torch.tensor([1]))
x = torch.arange(6.).reshape(2, 3); x.gather(axis=1, index=torch.tensor([[0]]))
x = torch.arange(6.).reshape(2, 3); torch.gather(x, axis=1, index=torch.tensor([[2]]))
x = torch.arange(6.).reshape(2, 3); x.gather(0)
x = torch.arange(6.).reshape(2, 3); x.select(axis=0, index=1)
x = torch.arange(6.).reshape(2, 3); torch.select(x, axis=0, index=1)
x = torch.arange(6.).reshape(2, 3); x.select(0, 0, axis=0)
x = torch.arange(6.).reshape(2, 3); x.narrow(axis=0, start=1, length=1)
x = torch.arange(6.).reshape(2, 3); torch.narrow(x, axis=1, start=0, length=2)
x = torch.arange(6.).reshape(2, 3); x.swapaxes(axis0=0, axis1=1)
x = torch.arange(6.).reshape(2, 3); torch.swapaxes(x, axis0=0, axis1=1)
x = torch.arange(6.).reshape(2, 3); x.swapaxes(0, axis1=1)
x = torch.arange(6.).reshape(2, 3); x.swapaxes(dim0=0, dim1=1)
x = torch.arange(6.).reshape(2, 3); x.swapdims(dim0=0, dim1=1)
x = torch.arange(6.).reshape(2, 3); x.flip(dims=0)
x = torch.arange(6.).reshape(2, 3); torch.flip(x, 1)
x = torch.arange(6.).reshape(2, 3); torch.flip(x, dims=1)
x = torch.arange(6.).reshape(2, 3); torch.flip(x, torch.tensor(1))
x = torch.arange(6.).reshape(2, 3); x.flip(True)
x = torch.arange(6.).reshape(2, 3); x.flip(1.0)
x = torch.arange(6.).reshape(2, 3); x.flip()
x = torch.arange(6.).reshape(2, 3); x.flip(axis=1)
x = torch.arange(6.).reshape(2, 3); x.flip(1), x.flip(0, 1), x.flip((0, 1)), x.flip([1]), x.flip(dims=(0,))
x = torch.arange(6.).reshape(2, 3); torch.flip(x, (1,)), torch.flip(x, [torch.tensor(1)])
x = torch.arange(6.).reshape(2, 3); x.flip(0, -2)
x = torch.arange(6.).reshape(2, 3); x.flip(5)
x = torch.arange(6., requires_grad=True); y = torch.flip(x, (0,)); y.grad_fn.name()
"""


@pytest.mark.parametrize("code", cases(DIM_AS_TENSOR))
def test_dim_as_tensor_same_as_pytorch(code):
    assert_same(code)


@pytest.mark.parametrize("code", cases(AXIS_ALIAS))
def test_axis_alias_and_flip_same_as_pytorch(code):
    assert_same(code)
