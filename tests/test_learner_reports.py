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
    # d2l's activation-function plots: arange's values are PyTorch's to the last bit (relu'(0) is 0)
    "arange_relu_grad": "x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)\ny = torch.relu(x)\n"
                        "y.backward(torch.ones_like(x), retain_graph=True)\nprint(x.grad[75:85], (x == 0).sum())",
    "arange_values": "print(torch.arange(-8.0, 8.0, 0.1)[76:84].tolist(), torch.arange(0, 1, 0.1).tolist())",
    "arange_float64_values": "print(torch.arange(-1., 1., 0.01, dtype=torch.float64)[95:105].tolist())",
    "arange_odd_lengths": "print([torch.arange(0.3, 5.1 + k, 0.3).tolist()[-3:] for k in range(3)])",
    "linspace_float64_values": "print(torch.linspace(-5, 5, 101, dtype=torch.float64)[40:60].tolist())",
    # squeeze(None) is not "every dim" in PyTorch: its TypeError, whichever way None is passed
    "squeeze_none_method": "torch.ones(3).squeeze(None)",
    "squeeze_none_keyword": "torch.ones(3).squeeze(dim=None)",
    "squeeze_none_axis": "torch.ones(3).squeeze(axis=None)",
    "squeeze_none_function": "torch.squeeze(torch.ones(3), None)",
    "squeeze_none_function_keyword": "torch.squeeze(torch.ones(3), dim=None)",
    "squeeze_still_works": "print(torch.ones(1, 3).squeeze(axis=0), torch.squeeze(torch.ones(1, 3, 1)).shape, "
                           "torch.ones(1, 3, 1).squeeze(dim=(0, 2)).shape, torch.ones(1, 3).squeeze().shape)",
    # a saved output unpacks with its node as grad_fn, as in PyTorch
    "saved_result": "x = torch.tensor([1., 2.], requires_grad=True)\n"
                    "print(x.exp().grad_fn._saved_result, x.sigmoid().grad_fn._saved_result, "
                    "x.tanh().grad_fn._saved_result, x.relu().grad_fn._saved_result)",
    "saved_result_attributes": "x = torch.tensor([1., 2.], requires_grad=True)\nr = x.exp().grad_fn._saved_result\n"
                               "print(r.requires_grad, r.is_leaf, r.grad_fn.name())",
    # nn.Linear's initial bias and weight, hence a first loss that matches PyTorch to the last digit
    "linear_init_bias": "torch.manual_seed(0)\nm = torch.nn.Linear(2, 1)\nprint(m.bias.tolist(), m.weight.tolist())",
    "linear_first_loss": "torch.manual_seed(0)\nm = torch.nn.Linear(2, 1)\n"
                         "print((m(torch.ones(4, 2)) ** 2).mean().item())",
    "uniform_values": "torch.manual_seed(3)\nprint(torch.empty(6).uniform_(-3.3, 7.1).tolist(), "
                      "torch.empty(3, dtype=torch.float64).uniform_(-0.1, 0.1).tolist())",
    # nn.Dropout drops the elements PyTorch drops after the same seed (bernoulli_(1 - p) in double precision)
    "dropout_mask": "torch.manual_seed(0)\nprint(torch.nn.Dropout(0.5)(torch.ones(10)), "
                    "torch.nn.functional.dropout(torch.ones(2, 4), 0.25), torch.rand(2))",
    "dropout_grad": "torch.manual_seed(1)\nx = torch.ones(8, requires_grad=True)\n"
                    "y = torch.nn.Dropout(0.5)(x)\ny.sum().backward()\nprint(y, x.grad)",
    "bernoulli_scalar_p": "torch.manual_seed(0)\nprint(torch.bernoulli(torch.ones(10), 0.3), "
                          "torch.bernoulli(torch.full((6,), 0.5)))",
    # torch.tensor(data, dtype) with the keyword forgotten; x.type(np.float64)
    "tensor_two_positional": "torch.tensor([1, 2], torch.float32)",
    "tensor_numbers": "torch.tensor(1, 2)",
    "type_numpy_type": "torch.ones(2).type(np.float64)",
    "type_numpy_dtype": "torch.ones(2).type(np.dtype('float64'))",
    "type_number": "torch.ones(2).type(3)",
    # F.one_hot, common in classification code
    "one_hot": "F = torch.nn.functional\nprint(F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor([2, 0]), "
               "num_classes=4).float(), F.one_hot(torch.tensor([[1], [0]]), 3).shape, F.one_hot(torch.tensor(2)))",
    "one_hot_empty": "F = torch.nn.functional\nprint(F.one_hot(torch.tensor([], dtype=torch.long), 3))\n"
                     "F.one_hot(torch.tensor([], dtype=torch.long))",
    "one_hot_float": "torch.nn.functional.one_hot(torch.tensor([0., 1.]))",
    "one_hot_int32": "torch.nn.functional.one_hot(torch.tensor([0, 1], dtype=torch.int32))",
    "one_hot_too_big": "torch.nn.functional.one_hot(torch.tensor([0, 3]), 3)",
    "one_hot_negative": "torch.nn.functional.one_hot(torch.tensor([-1, 1]))",
    "one_hot_float_classes": "torch.nn.functional.one_hot(torch.tensor([1]), 2.0)",
    "one_hot_list": "torch.nn.functional.one_hot([1, 2])",
    # NumPy interop: NumPy 2 warns as it does with PyTorch's __array__ / __array_wrap__ signatures
    "np_array_of_tensor": "x = torch.tensor([1, 2])\nprint(np.array(x), np.asarray(torch.ones(2)), np.array(x).dtype)",
    "np_array_requires_grad": "np.array(torch.tensor([1., 2.], requires_grad=True))",
    "np_ufunc_on_tensor": "x = torch.tensor([1., 2.])\nprint(np.exp(x), np.sqrt(x), type(np.exp(x)))",
    "tensor_plus_ndarray": "x = torch.tensor([1., 2.])\ny = x + np.array([1., 2.])\nprint(y, y.dtype)",
    "np_isnan_uint8": "print(np.isnan(torch.tensor([1., float('nan')])), np.greater(torch.tensor([1., 2.]), 1.5))",
    "np_sum_of_tensor": "np.sum(torch.tensor([1., 2.]))",
    "np_sum_axis": "np.sum(torch.tensor([[1., 2.]]), axis=0)",
    "np_mean_of_tensor": "np.mean(torch.tensor([1., 2.]))",
    "np_mean_axis": "np.mean(torch.tensor([[1., 2.]]), axis=1)",
    "np_max_of_tensor": "np.max(torch.tensor([1., 2.]))",
    "np_min_axis": "np.min(torch.tensor([[1., 2.]]), axis=0)",
    "np_prod_of_tensor": "np.prod(torch.tensor([1., 2.]))",
    "np_amax_of_tensor": "np.amax(torch.tensor([1., 2.]))",
    "np_functions_on_numpy": "a = torch.tensor([1., 2.]).numpy()\nprint(np.sum(a), np.mean(a), np.max(a))",
    # torch.hstack / torch.vstack / torch.unique
    "hstack_vstack": "a, b = torch.tensor(1.), torch.tensor(2.)\nprint(torch.hstack([torch.ones(2), torch.ones(3)]), "
                     "torch.vstack([torch.ones(2), torch.ones(2)]), torch.hstack((a, b)), torch.vstack((a, b)))",
    "hstack_vstack_shapes": "print(torch.hstack([torch.ones(2, 3, 4), torch.ones(2, 1, 4)]).shape, "
                            "torch.vstack([torch.ones(2, dtype=torch.int64), torch.ones(2)]).dtype)",
    "vstack_grad": "x = torch.ones(2, requires_grad=True)\ny = torch.vstack([x, x * 2])\ny.sum().backward()\n"
                   "print(y, x.grad)",
    "vstack_mismatch": "torch.vstack([torch.ones(2), torch.ones(3)])",
    "hstack_mismatch": "torch.hstack([torch.ones(2, 3), torch.ones(3, 3)])",
    "hstack_empty": "torch.hstack([])",
    "vstack_empty": "torch.vstack([])",
    "hstack_tensor": "torch.hstack(torch.ones(2))",
    "hstack_number": "torch.hstack([torch.ones(2), 1])",
    "unique": "x = torch.tensor([3, 1, 3, 2])\nprint(torch.unique(x), x.unique(sorted=False), "
              "torch.unique(x, return_inverse=True), torch.unique(x, return_counts=True), "
              "torch.unique(x, return_inverse=True, return_counts=True))",
    "unique_dim_nan": "print(torch.unique(torch.tensor([[1, 2], [1, 2], [3, 4]]), dim=0), "
                      "torch.unique(torch.tensor([1.5, float('nan'), float('nan')])), torch.tensor([]).unique())",
    "unique_label_counts": "y = torch.tensor([0, 1, 1, 2, 0])\nlabels, counts = y.unique(return_counts=True)\n"
                           "print(labels, counts, counts.float() / len(y))",
    "unique_list": "torch.unique([1, 2])",
    # torch.linalg.norm / vector_norm / matrix_norm, F.normalize
    "linalg_norm": "x = torch.tensor([[3., 4.], [1., 0.]], requires_grad=True)\nprint(torch.linalg.norm(x), "
                   "torch.linalg.norm(x, 'fro'), torch.linalg.norm(x[0], 1), "
                   "torch.linalg.norm(x, dim=0, keepdim=True), torch.linalg.norm(x, dim=1))",
    "linalg_matrix_norms": "x = torch.tensor([[3., -4.], [1., 0.]])\nprint(torch.linalg.norm(x, 1), "
                           "torch.linalg.norm(x, float('inf')), torch.linalg.norm(x, -1), "
                           "torch.linalg.vector_norm(x, 1))",
    "linalg_norm_int": "torch.linalg.norm(torch.tensor([1, 2]))",
    "linalg_matrix_norm_1d": "torch.linalg.matrix_norm(torch.ones(3))",
    "linalg_norm_backward": "x = torch.tensor([[3., 4.], [1., 0.]], requires_grad=True)\n"
                            "torch.linalg.norm(x).backward()\nprint(x.grad)",
    "normalize": "x = torch.tensor([[3., 4.], [1., 0.]], requires_grad=True)\nF = torch.nn.functional\n"
                 "print(F.normalize(x), F.normalize(x, dim=0), F.normalize(torch.zeros(2, 2)), "
                 "F.normalize(torch.tensor([3., 4.]), dim=0))",
    "normalize_1d_default_dim": "torch.nn.functional.normalize(torch.tensor([3., 4.]))",
    # DivBackward0's gradient for the divisor is PyTorch's -grad * ((a / b) / b), to the last bit
    "div_backward_other": "x = torch.tensor([[3., 4.], [1., 0.]], requires_grad=True)\n"
                          "torch.nn.functional.normalize(x, p=1).sum().backward()\nprint(x.grad)",
    "div_backward_values": "x = torch.tensor([1., 2., 3.], requires_grad=True)\n(1 / x).sum().backward()\n"
                           "print(x.grad.tolist())\nx.grad = None\n(torch.tensor(2.) / x).sum().backward()\n"
                           "print(x.grad.tolist())",
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


def test_arange_fused_multiply_add():
    x = course_lib.arange(-8.0, 8.0, 0.1)
    assert x[80].item() == 4.440892098500626e-16          # PyTorch's value: -8 + 0.1 * 80 in one rounding
    assert x[78].item() == -0.20000001788139343 and x[79].item() == -0.10000000894069672
    assert course_lib.arange(5.).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert course_lib.linspace(-5, 5, 101, dtype=course_lib.float64)[53].item() == 0.2999999999999997


def test_uniform_fused_multiply_add():
    course_lib.manual_seed(0)
    m = course_lib.nn.Linear(2, 1)
    assert m.bias.item() == -0.5819807648658752          # PyTorch's value (a separate multiply and add: ...8244)


def test_dropout_mask_values():
    course_lib.manual_seed(0)
    y = course_lib.nn.Dropout(0.5)(course_lib.ones(10))
    assert y.tolist() == [0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0, 2.0, 0.0, 2.0]     # PyTorch's mask for seed 0


def test_one_hot_values():
    y = course_lib.nn.functional.one_hot(course_lib.tensor([0, 2]), 3)
    assert y.tolist() == [[1, 0, 0], [0, 0, 1]] and y.dtype is course_lib.int64
