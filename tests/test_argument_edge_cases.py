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

NON_TENSORS_AND_SHAPES = r"""
torch.allclose(torch.ones(2), torch.ones(3))
torch.allclose(torch.ones(2), 1.0)
torch.allclose(1.0, torch.ones(2))
torch.allclose(torch.ones(2), torch.ones(2), 'a')
torch.allclose(torch.ones(2), torch.ones(2), torch.ones(1))
torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64))
torch.allclose(torch.ones(2), torch.ones(1)), torch.allclose(torch.ones(2), torch.ones(2) + 1e-6)
torch.isclose(torch.ones(2), torch.ones(3))
torch.isclose(torch.ones(2), 1.0)
torch.isclose(torch.ones(2), torch.ones(2), torch.ones(1))
torch.isclose(torch.tensor([1., 2.]), torch.tensor([1., 2.1]), 0.1)
torch.equal(torch.ones(2), [1., 1.])
torch.equal(torch.ones(2), 1)
torch.equal([1.], torch.ones(2))
torch.equal(torch.ones(2), torch.ones(3)), torch.equal(torch.ones(2), torch.ones(2))
torch.logical_and(torch.tensor([True, False]), 1)
torch.logical_or(torch.tensor([True, False]), 1.)
torch.logical_xor(torch.tensor([True]), None)
torch.logical_and(1, torch.tensor([True]))
torch.logical_and(torch.ones(2), torch.ones(3))
torch.logical_and(torch.tensor([1, 0]), torch.tensor([[1.], [0.]]))
torch.logical_or(torch.tensor([True, False]), torch.tensor(False))
torch.logical_xor(torch.tensor([2, 0]), torch.tensor([1, 1]))
torch.tensor([1.]).type_as(torch.float64)
torch.tensor([1.]).type_as(1)
torch.tensor([1.]).type_as()
torch.tensor([1.]).type_as(torch.tensor([1], dtype=torch.int64))
torch.tensor([1.]).type_as(other=torch.tensor([1], dtype=torch.int8))
torch.tensor([1.]).type_as(torch.ones(1), 1)
torch.can_cast(torch.ones(1), 2)
torch.can_cast(torch.float32, 2)
torch.can_cast('a', torch.float32)
torch.can_cast(float, torch.int32), torch.can_cast(torch.float32, float), torch.can_cast(int, bool)
torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float32)
torch.ones(2, 3).norm(p='a')
torch.ones(2).norm(p='a')
torch.ones(2).norm(p='nuc')
torch.ones(2, 3).norm(p='a', dim=1)
torch.ones(2, 3).norm(p='fro')
torch.bitwise_not(torch.ones(2))
torch.bitwise_not(torch.ones(2, dtype=torch.float64))
torch.bitwise_not(torch.ones(2, dtype=torch.float16))
torch.bitwise_not(torch.tensor([1, 2])), torch.bitwise_not(torch.tensor([True, False]))
~torch.ones(2)
~torch.tensor([1, 2]), ~torch.tensor([True])
torch.cat([torch.ones(2)], dim='x')
torch.cat([torch.ones(2)], 'x')
torch.cat([torch.ones(2)], 1.0)
torch.cat([torch.ones(2)], True)
torch.cat([torch.ones(2)], dim=None)
torch.cat([torch.ones(2)], axis='x')
torch.cat([torch.ones(2)], 0, 1)
torch.cat([torch.ones(2)], 0, dim=0)
torch.cat([torch.ones(2)], 0, axis=0)
torch.cat([torch.ones(2)], dim=torch.tensor(0.))
torch.cat([torch.ones(2), torch.zeros(2)], torch.tensor(0)), torch.concat([torch.ones(1), torch.zeros(1)], axis=0)
torch.stack([torch.ones(2)], dim='x')
torch.stack([torch.ones(2)], 1.)
torch.stack([torch.ones(2)], axis=1.)
torch.stack([torch.ones(2), torch.zeros(2)], 1), torch.stack([torch.ones(2), torch.zeros(2)], dim=-1)
torch.ones(2, 3).masked_fill(torch.ones(2, 2) > 0, 0.)
torch.ones(2, 2).masked_fill(torch.ones(3, 2) > 0, 0.)
torch.ones(2, 3).masked_fill(torch.ones(2, 2) > 0, torch.tensor(0.))
torch.ones(2, 3).masked_fill_(torch.ones(2, 2) > 0, 0.)
torch.ones(2, 3).masked_fill_(torch.ones(3, 3) > 0, 0.)
torch.ones(2, 1).masked_fill_(torch.ones(2, 3) > 0, 0.)
torch.ones(2, 1).masked_fill(torch.tensor([[True, False, True]]), 0.)
torch.ones(2, 3).masked_select(torch.ones(2, 2) > 0)
torch.ones(2, 3).masked_select(torch.ones(3, 3) > 0)
torch.arange(3.).masked_select(torch.tensor([[True, False, True], [False, False, True]]))
torch.outer(torch.ones(2, 2), torch.ones(2))
torch.outer(torch.ones(2), torch.ones(2, 2))
torch.outer(torch.ones(()), torch.ones(2))
torch.outer(torch.ones(2), 1)
torch.outer(torch.arange(2.), torch.arange(3.))
torch.inner(torch.arange(2.), torch.tensor(3.)), torch.inner(torch.tensor(3.), torch.arange(2.))
torch.inner(torch.ones(2, 3), torch.ones(2))
torch.inner(torch.ones(3), torch.ones(2))
torch.inner(torch.arange(6.).reshape(2, 3), torch.arange(3.))
torch.inner(torch.arange(3.), torch.arange(6.).reshape(2, 3))
"""


@pytest.mark.parametrize("code", cases(NON_TENSORS_AND_SHAPES))
def test_non_tensors_and_shapes_same_as_pytorch(code):
    assert_same(code)

PARSER_MESSAGES = r"""
torch.tensor()
x = torch.ones(2); x.add_()
x = torch.ones(2); x.sub_()
x = torch.ones(2); x.mul_()
x = torch.ones(2); x.sub_(1, 2, 3)
x = torch.ones(2); x.add_(1, beta=2)
x = torch.ones(2); x.floor_divide_()
x = torch.ones(2); x.remainder_()
x = torch.ones(2); x.fmod_()
x = torch.ones(2); x.sqrt_(1)
x = torch.ones(2); x.exp_(1)
x = torch.ones(2); x.neg_(1)
x = torch.ones(2); x.relu_(1)
x = torch.ones(2); x.add_(torch.ones(2), alpha=2); x
torch.sqrt()
torch.abs()
torch.relu()
torch.exp(torch.ones(2), 1)
torch.sqrt(torch.ones(2), foo=1)
torch.sqrt(input=torch.ones(4))
torch.add(2, 3), torch.mul(2, 3), torch.div(2, 3), torch.sub(2, 3)
torch.add(2., 3), torch.add(2, 3.5), torch.mul(True, 3), torch.add(True, True)
torch.add(2, 3, alpha=2), torch.sub(5, 2, alpha=2), torch.subtract(5, 2, alpha=2)
torch.add(2, 3, alpha=0.5)
torch.div(7, 2, rounding_mode='floor'), torch.div(2., 3, rounding_mode='trunc'), torch.div(2, 0), torch.div(True, 2)
torch.true_divide(7, 2), torch.divide(1, 4), torch.multiply(2., 2), torch.floor_divide(7, 2), torch.floor_divide(-7, 2.)
torch.floor_divide(7, 0)
torch.div(7, 0, rounding_mode='floor')
torch.sub(True, 1)
torch.add(2, 'a')
torch.add('a', 2)
torch.div(2, 'a')
torch.mul(2, None)
torch.mul(2, [1])
torch.add(2, 3, out=torch.empty(()))
torch.mul(2, 3).requires_grad, torch.add(2, 3).dtype, torch.mul(2., 3).dtype
torch.pow(2, 3)
torch.remainder(2, 3)
torch.add(2, torch.ones(2)), torch.mul(2.5, torch.ones(2)), torch.div(2, torch.ones(2)), torch.sub(2, torch.ones(2))
"""


@pytest.mark.parametrize("code", cases(PARSER_MESSAGES))
def test_parser_messages_same_as_pytorch(code):
    assert_same(code)


def test_no_message_names_an_internal_function():
    import course_lib
    x = course_lib.ones(2)
    calls = [lambda: x.add_(), lambda: x.mul_(1, 2), lambda: course_lib.sqrt(), lambda: x.clamp_(1, 2, 3),
             lambda: x.fill_(), lambda: x.zero_(1), lambda: x.add(), lambda: course_lib.exp(x, 1),
             lambda: course_lib.reshape(), lambda: x.sqrt_(1), lambda: x.type_as()]
    for call in calls:
        with pytest.raises(TypeError) as info:
            call()
        assert "<locals>" not in str(info.value) and not str(info.value).startswith("_"), str(info.value)
    for name, attr in vars(course_lib.Tensor).items():
        qualname = getattr(attr, "__qualname__", "")
        if not name.startswith("__") and hasattr(attr, "__code__"):
            assert "<locals>" not in qualname and not qualname.startswith("_"), (name, qualname)

NARROW_INTEGERS_AND_SCALARS = r"""
torch.tensor([3, 1], dtype=torch.uint8) / -1
torch.tensor([3, 1], dtype=torch.int8) / 300
torch.tensor([3, 1], dtype=torch.int16) / 70000
torch.tensor([3, 1], dtype=torch.int32) / 2**40
torch.tensor([3, 1], dtype=torch.uint8) / 2**63, torch.tensor([3, 1], dtype=torch.uint8) / -2**63
torch.div(torch.tensor([3, 1], dtype=torch.uint8), -1), torch.true_divide(torch.tensor([3, 1], dtype=torch.int8), 300)
torch.tensor([3, 1], dtype=torch.uint8).div(-1), torch.tensor([True, False]) / -1
torch.tensor([3, 1], dtype=torch.uint8) * -1, torch.tensor([3, 1], dtype=torch.int8) * 300
torch.tensor([3, 1], dtype=torch.uint8) + 300, torch.tensor([3, 1], dtype=torch.uint8) - 300
torch.tensor([3, 1], dtype=torch.uint8) // -1, torch.tensor([3, 1], dtype=torch.uint8) % -1
torch.div(torch.tensor([3, 1], dtype=torch.uint8), -1, rounding_mode='floor')
torch.div(torch.tensor([3, 1], dtype=torch.int8), 300, rounding_mode='trunc')
-1 / torch.tensor([3, 1], dtype=torch.uint8), 300 / torch.tensor([3, 1], dtype=torch.int8)
torch.tensor([3, 1], dtype=torch.uint8).div_(-1)
torch.set_default_dtype(torch.float64); torch.tensor([3, 1], dtype=torch.uint8) / -1
"""


@pytest.mark.parametrize("code", cases(NARROW_INTEGERS_AND_SCALARS))
def test_narrow_integers_and_scalars_same_as_pytorch(code):
    assert_same(code)

SMALLER_DIFFERENCES = r"""
torch.max(torch.ones(2), torch.ones(2), torch.ones(2))
torch.min(torch.ones(2), torch.ones(2), torch.ones(2))
torch.max(torch.ones(2), torch.ones(2), True)
torch.max(torch.tensor([1., 5.]), torch.tensor([3., 2.])), torch.min(torch.tensor([1., 5.]), torch.tensor([3., 2.]))
torch.allclose(torch.ones(2), torch.ones(2), torch.ones(2))
torch.isclose(torch.ones(2), torch.ones(2), torch.ones(2))
torch.squeeze(torch.ones(1, 2, 1), 0, 1)
torch.squeeze(torch.ones(1, 2, 1), (0, 2)).shape, torch.squeeze(torch.ones(1, 2, 1), 0).shape
torch.squeeze(torch.ones(1, 2, 1)).shape
torch.squeeze(torch.ones(1, 2, 1), dim=(0, 2)).shape, torch.ones(1, 2, 1).squeeze(0, 2).shape
torch.mv(torch.ones(()), torch.ones(()))
torch.mv(torch.ones(()), torch.ones(2))
torch.mv(torch.ones(2, 2), torch.ones(()))
torch.cat([torch.ones(0), torch.ones(0)], 1)
torch.cat([torch.ones(0), torch.ones(0)], 2), torch.cat([torch.ones(0)], -5)
torch.cat([torch.ones(0, requires_grad=True), torch.ones(0)], 1).grad_fn.name()
torch.cat([torch.ones(0), torch.ones(2, 3)], 1)
"""


@pytest.mark.parametrize("code", cases(SMALLER_DIFFERENCES))
def test_smaller_differences_same_as_pytorch(code):
    assert_same(code)

FUNCTIONS_OF_ONE_TENSOR = r"""
torch.is_floating_point(3)
torch.is_floating_point([1.])
torch.numel([1])
torch.is_floating_point(torch.ones(1)), torch.numel(torch.ones(2, 3)), torch.is_tensor(3)
"""


@pytest.mark.parametrize("code", cases(FUNCTIONS_OF_ONE_TENSOR))
def test_functions_of_one_tensor_same_as_pytorch(code):
    assert_same(code)
