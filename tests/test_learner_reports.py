"""Errors and confusions learners report on forums (PyTorch forums, Stack Overflow, CSDN, Zhihu).

Each snippet runs with course_lib and with real PyTorch (skipped without it): printed output, exception
type and message, and warnings must be the same.  A few also assert the expected text itself.
"""

import pytest
from torch_compare import assert_same, outcome

import course_lib

SNIPPETS = {
    # torch.cat(a, b) / torch.stack(a, b): the list was forgotten; PyTorch complains about 'tensors' first
    "cat_two_tensors": "torch.cat(torch.ones(2), torch.ones(2))",
    "stack_two_tensors": "torch.stack(torch.ones(2), torch.ones(2))",
    "cat_tensor_and_float_dim": "torch.stack(torch.ones(2), 1.5)",
    "cat_list_tensor_dim": "torch.cat([torch.ones(2)], torch.ones(2))",
    "cat_three_args": "torch.cat(torch.ones(2, 2), torch.ones(2), 1)",
    # the C types' names in Python's own messages
    "size_item_assignment": "s = torch.ones(2, 3).shape\ns[0] = 3",
    "size_called": "torch.ones(2).shape()",
    "size_compared_with_int": "torch.ones(2).shape < 3",
    "dtype_called": "torch.ones(3).dtype()",
    "dtype_subscripted": "torch.float32[0]",
    "dtype_plus_int": "torch.float32 + 1",
    "device_called": "torch.ones(3).device()",
    "type_names": "print(type(torch.ones(2).shape).__name__, type(torch.float32).__name__, "
                  "type(torch.device('cpu')).__name__, type(torch.ones(2).shape), type(torch.float32))",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_same_as_pytorch(name):
    assert_same(SNIPPETS[name])


def test_messages():
    assert outcome("torch.cat(torch.ones(2), torch.ones(2))", course_lib)[1] == (
        "TypeError", "cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    assert outcome("s = torch.Size([2])\ns[0] = 1", course_lib)[1] == (
        "TypeError", "'torch.Size' object does not support item assignment")
    assert outcome("torch.float32()", course_lib)[1] == ("TypeError", "'torch.dtype' object is not callable")
    assert course_lib.Size.__name__ == "Size" and course_lib.dtype.__name__ == "dtype"
