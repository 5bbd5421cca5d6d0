"""dtypes: the nine dtypes and their aliases, PyTorch's type promotion (tensors with dimensions, 0-d
tensors and Python numbers), conversion methods, ``type()``, ``element_size``, in-place casting rules,
``iinfo``/``finfo`` and PyTorch's other dtype names, compared with PyTorch."""

import itertools

import pytest
from torch_compare import assert_same, cases

import course_lib as torch

NINE = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]

CASES = r"""
torch.float32, torch.float, torch.float64, torch.double, torch.float16, torch.half
torch.int64, torch.long, torch.int32, torch.int, torch.int16, torch.short, torch.int8, torch.uint8, torch.bool
str(torch.int64), repr(torch.float16), torch.float32 == torch.float, torch.int64 is torch.long
type(torch.float32), torch.float32.is_floating_point, torch.int32.is_floating_point
torch.float32.itemsize, torch.int16.itemsize, torch.bool.itemsize, torch.float64.itemsize
torch.int8.is_signed, torch.uint8.is_signed, torch.bool.is_signed, torch.float16.is_signed
torch.float32.is_complex, torch.get_default_dtype()
{torch.float32: 1}[torch.float]
torch.tensor([1.0]).dtype, torch.tensor([1]).dtype, torch.tensor([True]).dtype
torch.tensor([1.0]).element_size(), torch.tensor([1]).element_size()
torch.tensor([1], dtype=torch.float16).element_size(), torch.tensor([True]).element_size()
torch.ones(3, dtype=torch.int16).element_size(), torch.ones(3, dtype=torch.float64).itemsize
torch.ones(3, dtype=torch.int32).nbytes, torch.ones(2, 3).nbytes
torch.tensor([1.0]).type(), torch.tensor([1]).type()
torch.tensor([1], dtype=torch.int32).type(), torch.tensor([1.0], dtype=torch.float64).type()
torch.tensor([True]).type(), torch.tensor([1], dtype=torch.int16).type(), torch.tensor([1], dtype=torch.int8).type()
torch.tensor([1], dtype=torch.uint8).type(), torch.tensor([1], dtype=torch.float16).type()
torch.tensor([4, 5, 6]).type(torch.float64)
torch.tensor([4, 5, 6]).type(torch.float16)
torch.tensor([1, 2]).type('torch.DoubleTensor')
torch.tensor([1, 2]).type('torch.IntTensor')
torch.tensor([1, 2]).type(torch.IntTensor)
torch.tensor([1, 2]).type('IntTensor')
torch.tensor([1, 2]).type('abc')
torch.tensor([1, 2]).type(float)
t = torch.tensor([1.0]); print(t.type(torch.float32) is t)
torch.tensor([2, 4]).float(), torch.tensor([2, 4]).half(), torch.tensor([2, 4]).double()
torch.tensor([1.7, -2.7, 3.5]).long(), torch.tensor([1.7, -2.7, 3.5]).int(), torch.tensor([1.7, -2.7, 3.5]).short()
torch.tensor([1.7, -2.7, 300.5]).char(), torch.tensor([1.7, -2.7, 300.5]).byte()
torch.tensor([0, 2, -1]).bool(), torch.tensor([0.0, 0.5, float("nan")]).bool()
torch.tensor([1e5, 1e-8, -70000.0]).half()
torch.tensor([1, 2]).to(torch.float32), torch.tensor([1.5, -2.5]).to(dtype=torch.int8)
torch.tensor([1, 2]).to(float), torch.tensor([1.5]).to(int), torch.tensor([1.5]).to(bool)
torch.tensor([1, 2]).to(torch.tensor([1.0], dtype=torch.float64))
torch.tensor([1, 2]).to("cpu", torch.float16)
torch.tensor([1, 2]).to(device="cpu", dtype=torch.int8)
torch.tensor([1.5]).to(torch.float32, torch.int32)
torch.tensor([1.5]).to("abc")
torch.tensor([1.5]).to(None)
t = torch.tensor([1.5]); print(t.to(torch.float32) is t, t.to("cpu") is t, t.float() is t, t.double() is t)
t = torch.tensor([1.5]); print(t.to(torch.float32, copy=True) is t)
t = torch.tensor([1, 2]); print(t.type_as(torch.tensor([1.0])), t.type_as(torch.tensor([True])))
torch.tensor([1.0]).is_floating_point(), torch.tensor([1]).is_floating_point(), torch.is_floating_point(torch.ones(1))
torch.tensor([1]).is_signed(), torch.tensor([1], dtype=torch.uint8).is_signed(), torch.tensor([1.0]).is_complex()
isinstance(torch.tensor([1.0]), torch.FloatTensor), isinstance(torch.tensor([1.0]), torch.DoubleTensor)
isinstance(torch.tensor([1]), torch.LongTensor), isinstance(torch.tensor([True]), torch.BoolTensor)
r = torch.tensor([1, 2]) + 0.5; print(r, r.dtype)
(torch.tensor([1, 2], dtype=torch.int32) + torch.tensor([1, 2])).dtype
(torch.ones(2) + torch.ones(2, dtype=torch.float64)).dtype
(torch.ones(1, dtype=torch.float16) + torch.ones(1)).dtype
(torch.tensor([1, 2]) * torch.tensor([True, False])).dtype
(torch.tensor([1.0, 2.0]) + torch.tensor(0.5, dtype=torch.float64)).dtype
(torch.tensor([1, 2]) + torch.tensor(0.5, dtype=torch.float64)).dtype
(torch.tensor([1, 2], dtype=torch.int8) + 1000), (torch.tensor([1, 2], dtype=torch.uint8) + 300)
torch.tensor([3], dtype=torch.uint8) - 5
torch.tensor([7, 8]) / torch.tensor([2, 2]), (torch.tensor([7, 8]) / torch.tensor([2, 2])).dtype
torch.tensor([7, -7]) // 2, torch.tensor([7.5, -7.5]) // 2
torch.tensor([True]) + torch.tensor([True]), torch.tensor([True]) * 2.5, torch.tensor([True]) / torch.tensor([True])
t = torch.tensor([1, 2]); t += 0.5
t = torch.tensor([1, 2]); t *= 1.5
t = torch.tensor([1, 2]); t /= 2
t = torch.tensor([1, 2]); t.add_(torch.tensor([1.5, 2]))
t = torch.tensor([1, 2]); t.mul_(torch.tensor(1.5))
t = torch.tensor([True, False]); t += 1
t = torch.tensor([True, False]); t += True; print(t)
t = torch.tensor([1.5, 2.5]); t += torch.tensor([1, 1]); print(t, t.dtype)
t = torch.tensor([1.0, 2]); t += torch.tensor([1.0, 2], dtype=torch.float64); print(t, t.dtype)
t = torch.tensor([1, 2], dtype=torch.int32); t.add_(torch.tensor([1, 2])); print(t)
t = torch.tensor([1, 2], dtype=torch.int8); t.add_(1000); print(t)
t = torch.tensor([1.0, 2], dtype=torch.float16); t += 0.1; print(t)
t = torch.ones(1, dtype=torch.int32); t.mul_(2.5)
t = torch.ones(1, dtype=torch.int32); t //= 2; print(t)
torch.promote_types(torch.int32, torch.float16), torch.promote_types(torch.uint8, torch.int8)
torch.promote_types(torch.bool, torch.uint8), torch.promote_types(torch.int64, torch.float16)
torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float32)
torch.can_cast(torch.int64, torch.int8), torch.can_cast(torch.bool, torch.int8), torch.can_cast(torch.int8, torch.bool)
torch.result_type(torch.tensor([1, 2]), 1.0), torch.result_type(torch.tensor([1, 2], dtype=torch.int8), 1000)
torch.result_type(torch.tensor(1), torch.tensor([1], dtype=torch.int8))
torch.result_type(torch.tensor(1.0), torch.tensor([1], dtype=torch.int8))
torch.result_type(2, 3.0), torch.result_type(2, True), torch.result_type(torch.tensor([True]), True)
torch.result_type(torch.tensor([True]), 2), torch.result_type(torch.tensor([1], dtype=torch.uint8), -1)
torch.result_type(torch.tensor(1, dtype=torch.int8), torch.tensor(1, dtype=torch.uint8))
torch.result_type(torch.tensor([1.0], dtype=torch.float16), torch.tensor(1.0, dtype=torch.float64))
torch.result_type(torch.tensor([1], dtype=torch.int32), torch.tensor(1.0, dtype=torch.float16))
torch.set_default_dtype(torch.float64); print((torch.tensor([1, 2]) + 0.5).dtype, torch.tensor([1, 2]) / 2)
torch.iinfo(torch.uint8), torch.iinfo(torch.int64), torch.iinfo(torch.int32).bits, torch.iinfo(torch.int16).dtype
torch.iinfo(torch.bool)
torch.iinfo(torch.float32)
torch.finfo(torch.float16)
torch.finfo(torch.float32)
torch.finfo(torch.float64)
torch.finfo()
torch.finfo(torch.int32)
torch.finfo(torch.float32).eps, torch.finfo(torch.float32).max, torch.finfo(torch.float32).tiny
torch.finfo(torch.float32).resolution, torch.finfo(torch.float16).bits, torch.finfo(torch.float16).dtype
torch.iinfo(torch.int8).min, torch.iinfo(torch.int8).max, type(torch.iinfo(torch.int8).max)
torch.bfloat16, torch.complex64, torch.complex128, torch.uint16, torch.uint32, torch.uint64
torch.cfloat, torch.cdouble, torch.chalf
torch.bfloat16.is_floating_point, torch.bfloat16.itemsize, torch.complex64.is_complex, torch.uint16.is_signed
"""


@pytest.mark.parametrize("code", cases(CASES))
def test_same_as_pytorch(code):
    assert_same(code)


@pytest.mark.parametrize("a", NINE)
def test_promote_types_table(a):
    assert_same(f"[torch.promote_types(torch.{a}, getattr(torch, b)) for b in {NINE}]")


# Operands of each priority: a tensor with dimensions, a 0-d tensor, a Python number.
_OPERANDS = [f"torch.ones(2, dtype=torch.{d})" for d in NINE] + \
            [f"torch.tensor(1, dtype=torch.{d})" for d in NINE] + ["True", "2", "2.5"]


@pytest.mark.parametrize("left", _OPERANDS[:18])
def test_binary_result_dtypes(left):
    """The dtype of ``left + right`` / ``left * right`` / ``left / right`` for every kind of ``right``."""
    rights = ", ".join(_OPERANDS)
    assert_same(f"[(torch.add({left}, r).dtype, torch.mul({left}, r).dtype, torch.div({left}, r).dtype) "
                f"for r in [{rights}]]")


@pytest.mark.parametrize("a, b", list(itertools.combinations(NINE, 2))[::3])
def test_inplace_casting_rule(a, b):
    """``x += y`` writes the promoted result into x's dtype when PyTorch allows it, with its error otherwise."""
    assert_same(f"x = torch.ones(2, dtype=torch.{a}); x += torch.ones(2, dtype=torch.{b}); print(x)")
    assert_same(f"x = torch.ones(2, dtype=torch.{b}); x.mul_(torch.ones(2, dtype=torch.{a})); print(x)")


def test_unsupported_dtype_is_explained():
    with pytest.raises(TypeError, match="course_lib has no tensors of dtype torch.bfloat16"):
        torch.zeros(2, dtype=torch.bfloat16)
