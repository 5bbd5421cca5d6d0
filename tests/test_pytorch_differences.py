"""The differences from PyTorch listed in issue 17, each as a differential test against PyTorch 2.13.

Every snippet runs with course_lib and with real PyTorch (``torch_compare``):
printed output, exception type and message, and warnings must be the same.
Each item of the issue is here with its neighbouring cases, and all of them
pass.  What still differs is marked ``xfail(strict=True)``: the suite stays
green, and a mark fails loudly (XPASS) as soon as its difference is fixed,
so that whoever fixes it removes the mark.  The reason of each mark names
the difference.

Exact bits are compared where the issue is about last bits: the snippets
print ``.item()`` or ``.tolist()`` (Python's repr of a float shows every bit
of a float32), or a hash of them, not the 4 digits of a tensor's print.

The snippets marked "fuzz" at the end are differences the differential
fuzzer (``tests/fuzz``) found beyond the issue; those still marked remain
(``tests/fuzz/FINDINGS.md``).
"""

import threading

import pytest
from torch_compare import assert_same

import course_lib

torch = pytest.importorskip("torch")


def _xfail(item):
    return pytest.mark.xfail(strict=True, reason=f"issue 17: {item}")


def _case(code, item=None):
    return pytest.param(code, marks=_xfail(item)) if item else code


def _fuzz(code, item):
    """A difference the fuzzer found (not in issue 17's list yet)."""
    return pytest.param(code, marks=pytest.mark.xfail(strict=True, reason=f"fuzz (tests/fuzz/FINDINGS.md): {item}"))


ZEROS_NAN_INF = {
    "relu_backward_at_nan": "x = torch.tensor([float('nan'), 1.0, -1.0], requires_grad=True); "
                            "x.relu().sum().backward(); "
                            "print(x.grad)",
    "prod_backward_zeros_and_neg_inf": "x = torch.tensor([0., 0., -float('inf')], requires_grad=True); "
                                       "x.prod().backward(); print(x.grad)",
    "prod_backward_one_zero": "x = torch.tensor([0., 2., 3.], requires_grad=True); x.prod().backward(); print(x.grad)",
    "prod_backward_no_zero_bits": "x = torch.tensor([1.1, 2.3, 3.7, 0.3], requires_grad=True); x.prod().backward(); "
                                  "x.grad.tolist()",
    "prod_dim_backward_zero_and_inf": "x = torch.tensor([[0., 2., 3.], [1., 2., float('inf')]], requires_grad=True); "
                                      "x.prod(1).sum().backward(); print(x.grad)",
    "prod_dim_backward_no_zero_inf": "x = torch.tensor([[0.5, 2., 3.], [1., 2., float('inf')]], requires_grad=True); "
                                     "x.prod(0, keepdim=True).sum().backward(); print(x.grad)",
    "prod_backward_two_zeros_dim": "x = torch.tensor([[0., 0., 2.]], requires_grad=True); x.prod(1).sum().backward(); "
                                   "print(x.grad)",
    "sign_nan": "torch.sign(torch.tensor([float('nan'), -0.0, 2.0, -3.0]))",
    "sign_nan_float16": "torch.tensor([float('nan'), -0.0, -2.0], dtype=torch.float16).sign()",
    "relu_negative_zero": "torch.relu(torch.tensor([-0.0, 0.0, -1.0]))",
    "clamp_min_negative_zero": "torch.tensor([-0.0, -1.0]).clamp(min=0)",
    "clamp_min_method_negative_zero": "torch.tensor([[-0.0]]).clamp_min(0)",
    "clamp_max_negative_zero": "torch.tensor([-0.0, 1.0, float('nan')]).clamp(max=0)",
    "clamp_both_negative_zero": "torch.tensor([-0.0]).clamp(-1, 1)",
    "clamp_zero_bounds_signs": "torch.tensor([0.0, -0.0, float('nan')]).clamp(0.0, -0.0)",
    "clamp_nan_bound": "torch.tensor([1., -0.0]).clamp(min=float('nan'))",
    "clamp_float16_negative_zero": "torch.tensor([[-0.0, 0.0, -2.0]], dtype=torch.float16).clamp(0.0, 0.0)",
    "clamp_tensor_bounds_negative_zero": "torch.tensor([1., -0.0, float('nan')]).clamp(torch.tensor([0., 0., 0.]), "
                                         "torch.tensor([float('nan'), 0., 0.]))",
    "clamp_backward_at_bound": "x = torch.tensor([-0.0, 1.0, 2.0], requires_grad=True); y = x.clamp(0, 1); "
                               "y.sum().backward(); print(y, x.grad)",
    "matmul_1d_negative_zero": "torch.tensor([-0.0]) @ torch.tensor([1.0])",
    "dot_negative_zero": "torch.dot(torch.tensor([-0.0]), torch.tensor([1.0]))",
    "mm_negative_zero": "torch.tensor([[-1.0]]) @ torch.tensor([[0.0]])",
    "mv_negative_zero": "torch.tensor([[-0.0]]) @ torch.tensor([1.0])",
    "cumsum_negative_zero": "torch.tensor([-0.0, -0.0]).cumsum(0)",
    "cumsum_negative_zero_float64_2d": "torch.tensor([[-0.0, -0.0]], dtype=torch.float64).cumsum(0)",
    "cumsum_0d_negative_zero": "torch.tensor(-0.0).cumsum(0)",
    "cumsum_backward_size_1": "x = torch.tensor([-0.0], requires_grad=True); y = x * -1; y.retain_grad(); "
                              "y.cumsum(0).backward(torch.tensor([-0.0])); print(y.grad)",
    "cumprod_negative_zero": "torch.tensor([-0.0, -0.0]).cumprod(0)",
}

_RANDOM_1000 = "torch.manual_seed(0); x = torch.randn(1000) * 3; "
FLOAT16 = {
    "sigmoid_float16": "torch.sigmoid(torch.tensor([2.0, 1.0, -3.0], dtype=torch.float16))",
    "sigmoid_float16_bits": _RANDOM_1000 + "x.half().sigmoid().tolist()",
    "sigmoid_backward_float16": _RANDOM_1000 + "h = x.half().requires_grad_(); h.sigmoid().sum().backward(); "
                                               "h.grad.tolist()",
    "tanh_backward_float16": _RANDOM_1000 + "h = x.half().requires_grad_(); h.tanh().sum().backward(); h.grad.tolist()",
    # (992: PyTorch's vectorised loop takes 32 float16 at a time, its scalar tail rounds sqrt to float16 first)
    "rsqrt_float16": _RANDOM_1000 + "x[:992].abs().half().rsqrt().tolist()",
    "prod_float16": _RANDOM_1000 + "x.half().view(-1, 4).prod(1).tolist()",
    "float16_div_float64_0d": "torch.tensor([0.17578125, 1.7666015625], dtype=torch.float16) / "
                              "torch.tensor(2.189, dtype=torch.float64)",
    "float16_mul_float32_0d": "torch.tensor([[3.]], dtype=torch.float16) * torch.tensor(1e-08)",
    "float16_mul_number_recorded": "x = torch.tensor([[3.]], dtype=torch.float16, requires_grad=True); y = x * 1e-8; "
                                   "y.backward(torch.ones(1, 1, dtype=torch.float16)); print(y, x.grad)",
    "float16_div_number_recorded": "x = torch.tensor([3., 1.], dtype=torch.float16, requires_grad=True); y = x / 3.3; "
                                   "print(y); y.sum().backward(); print(x.grad)",
    "float16_mul_int_number": "print((torch.tensor([1.], dtype=torch.float16) * 100000).tolist())",
    "float16_add_number_rounded_first": "t = torch.tensor([1.], dtype=torch.float16); "
                                        "print((t + 0.00048843).item(), (t * 1.00048843).item())",
    "float16_0d_times_float64_0d": "torch.tensor(1., dtype=torch.float16) * torch.tensor(3.3, dtype=torch.float64)",
}

NUMPY_MESSAGES = {
    "movedim_0d": "torch.tensor(1.5).movedim(0, 0)",
    "movedim_function_0d": "torch.movedim(torch.tensor(1.5), 0, -1)",
    "movedim_0d_grad_fn": "x = torch.tensor(1.5, requires_grad=True); print(torch.movedim(x, (0,), (-1,)))",
    "movedim_0d_out_of_range": "torch.movedim(torch.tensor(1.5), 1, 0)",
    "movedim_repeated_source": "torch.movedim(torch.ones(2, 3), (0, 0), (0, 1))",
    "movedim_repeated_destination": "torch.movedim(torch.ones(2, 3), (0, 1), (1, 1))",
    "movedim_lengths_differ": "torch.movedim(torch.tensor(1.), (0, -1), (0,))",
    "moveaxis": "torch.ones(2, 3, 4).moveaxis((0, 1), (-1, 0)).shape",
    "prod_backward_empty": "x = torch.ones(4, 0, requires_grad=True); x.prod().backward(); print(x.grad)",
    "prod_dim_backward_empty": "x = torch.ones(4, 0, requires_grad=True); x.prod(0).sum().backward(); print(x.grad)",
    "neg_inplace_bool": "torch.tensor([True, False]).neg_()",
    "neg_bool": "-torch.tensor([True, False])",
}

ZERO_D = {   # (each deprecation warning comes once per process in PyTorch: these are the first of their kind here)
    "mT_0d": "torch.tensor(2.0).mT",
    "mT_mH_0d_identity": "x = torch.tensor(2.0, requires_grad=True); print(x.mT is x, x.mH is x, x.H is x)",
    "mH_1d": "torch.ones(3).mH",
    "T_0d_warning": "torch.tensor(0).T",
    "max_dim0_0d_grad_fn": "x = torch.tensor(2.0, requires_grad=True); x.max(0)",
    "min_dim0_0d_grad_fn": "x = torch.tensor(2.0, requires_grad=True); x.min(dim=-1).values.grad_fn.name()",
    "max_dim0_0d_backward": "x = torch.tensor(2.0, requires_grad=True); y = x.max(0, keepdim=True); "
                            "y.values.backward(); print(y, x.grad)",
    "max_dim0_0d_copy": "x = torch.tensor(2.0); y = x.max(0); y.values[()] = 5; print(x, y)",
    "transpose_0d_grad_fn": "x = torch.tensor(2.0, requires_grad=True); x.transpose(0, -1).grad_fn.name()",
    "transpose_0d_backward": "x = torch.tensor(2.0, requires_grad=True); y = x.swapaxes(0, 0); y.backward(); "
                             "print(y, x.grad)",
    "transpose__0d_backward": "x = torch.tensor(2.0, requires_grad=True); y = x * 1; y.transpose_(0, 0); "
                              "y.backward(); print(y.grad_fn.name(), x.grad)",
    "t_0d_backward": "x = torch.tensor(2.0, requires_grad=True); y = x.t(); y.backward(); "
                     "print(y.grad_fn.name(), x.grad)",
    "softmax_0d_grad_fn": "x = torch.tensor(2.0, requires_grad=True); y = x.softmax(0); y.backward(); print(y, x.grad)",
    "log_softmax_0d_inf": "x = torch.tensor(float('inf'), requires_grad=True); print(x.log_softmax(-1))",
}

_TUPLE_DIM = "a tuple dim: PyTorch's message omits \"(position 1)\" / names position 2"
MESSAGES = {
    "argmax_dim_kw_tuple": "torch.ones(2, 3).argmax(dim=(0, 1))",
    "argmin_dim_kw_tuple": "torch.ones(2, 3).argmin(dim=(0,))",
    "argmax_function_tuple": "torch.argmax(torch.ones(2, 3), (0, 1))",
    "max_dim_kw_tuple": "torch.ones(2, 3).max(dim=(0, 1))",
    "min_dim_kw_tuple": "torch.ones(2, 3).min(dim=(0, 1))",
    "prod_dim_kw_tuple": "torch.ones(2, 3).prod(dim=(0, 1))",
    "prod_function_tuple": "torch.prod(torch.ones(2, 3), (0, 1))",
    "cumsum_dim_kw_tuple": "torch.ones(2, 3).cumsum(dim=(0, 1))",
    "cumsum_method_tuple": "torch.ones(2, 3).cumsum((0, 1))",
    "softmax_method_tuple": "torch.ones(2, 3).softmax((0,))",
    "argmax_method_tuple": "torch.ones(2, 3).argmax((0, 1))",
    "cumsum_function_tuple": "torch.cumsum(torch.ones(2, 3), (0, 1))",
    "count_nonzero_keepdim": "torch.ones(2, 3).count_nonzero(0, keepdim=True)",
    "count_nonzero_dim_kw_keepdim": "torch.ones(2, 3).count_nonzero(dim=0, keepdim=True)",
    "copy_into_view_of_leaf": "x = torch.ones(3, requires_grad=True); x[:2].copy_(torch.zeros(3))",
    "copy_into_view_of_leaf_same_shape": "x = torch.ones(3, requires_grad=True); x[:2].copy_(torch.zeros(2))",
    "matmul_shape_before_dtype": "torch.ones(3) @ torch.ones(2, 2, dtype=torch.float64)",
    "matmul_empty_shape_before_dtype": "torch.tensor([]) @ torch.ones(2, 2, dtype=torch.int8)",
    "mm_dtype_message": "torch.mm(torch.ones(2, 3), torch.ones(2, 3, dtype=torch.float64))",
    "fill_str": "torch.ones(2).fill_('a')",
    "pow_three_arguments": "torch.pow(torch.tensor([2.0]), 2, 3)",
    "lshift_float": "torch.tensor([1.0]) << 1",
    "full_int_overflow": "torch.full((2,), 2**70)",
    "full_negative_int_overflow": "torch.full((2,), -2**70, dtype=torch.float32)",
    "full_int64_overflow": "torch.full((2,), 2**63)",
    "rshift_float": "torch.tensor([1.0]) >> 1",
    "lshift_bool": "torch.tensor([True]) << True",
    "shifts_past_width": "print(torch.tensor([1, -2], dtype=torch.int8) << torch.tensor([-1, 7], dtype=torch.int8), "
                         "torch.tensor([1, -2], dtype=torch.int8) >> torch.tensor([-1, 9], dtype=torch.int8), "
                         "torch.tensor([200], dtype=torch.uint8) >> torch.tensor([200], dtype=torch.uint8))",
    "shifts_number_first_and_inplace": "t = torch.tensor([1, 2]); u = t; t <<= 2; print(1 << t, 64 >> t, u)",
    "bitwise_inplace_operators": "t = torch.tensor([6]); u = t; t ^= 3; t &= 7; t |= 8; print(u)",
    "argmax_dim_tensor": "torch.ones(2, 3).argmax(torch.tensor(1), keepdim=True)",
    "max_keepdim_without_dim": "torch.ones(2, 3).max(keepdim=True)",
    "prod_dim_none": "torch.ones(2, 3).prod(dim=None)",
    "cumprod_method_tuple": "torch.ones(2, 3).cumprod((0,))",
    "log_softmax_dim_kw_tuple": "torch.ones(2, 3).log_softmax(dim=(0,))",
    "count_nonzero_keepdim_only": "torch.ones(2, 3).count_nonzero(keepdim=True)",
    "count_nonzero_function_keepdim": "torch.count_nonzero(torch.ones(2, 3), 0, keepdim=True)",
    "copy_into_leaf_wrong_shape": "x = torch.ones(3, requires_grad=True); x.copy_(torch.zeros(2))",
    "setitem_mask_of_leaf": "x = torch.ones(2, 2, requires_grad=True); x[[True]] = 0.",
    "setitem_mask_of_view_of_leaf": "x = torch.ones(2, 2, requires_grad=True); x[0, [True]] = 0.",
    "setitem_select_out_of_range_first": "x = torch.ones(2, 2, requires_grad=True); x[5, [0]] = 0.",
    "isub_bool_on_view_of_leaf": "x = torch.ones(2, 2, requires_grad=True); y = x[0]; y -= False",
    "add_overlap_on_view_of_leaf": "x = torch.ones(4, requires_grad=True); x[1:].add_(x[:3])",
    "matmul_batched_sizes_before_dtype": "torch.ones(2, 2, 3) @ torch.ones(2, 4, 2, dtype=torch.float64)",
    "matmul_folded_sizes_before_dtype": "torch.ones(2, 2, 3) @ torch.ones(4, 2, dtype=torch.float64)",
    "matmul_vector_batch_folded_message": "torch.ones(4) @ torch.ones(2, 1, 3)",
    "fill_none": "torch.ones(2).fill_(None)",
    "fill_str_bool": "torch.ones(2, dtype=torch.bool).fill_('a')",
    "pow_method_three_arguments": "torch.tensor([2.0]).pow(2, 3)",
    "pow_method_no_argument": "torch.tensor([2.0]).pow()",
    "mm_method_position": "torch.ones(2, 2).mm('a')",
    "eq_method_invalid_combination": "torch.ones(2).eq('a')",
    "remainder_method_invalid_combination": "torch.ones(2).remainder('a')",
}

TYPES = {
    "int_mod_int32_0d": "r = -1 % torch.tensor(3, dtype=torch.int32); print(r, r.dtype)",
    "int_mod_int32_1d": "r = -1 % torch.tensor([3], dtype=torch.int32); print(r, r.dtype)",
    "linspace_bool": "torch.linspace(0, 1, 3, dtype=torch.bool)",
    "linspace_bool_one_step": "torch.linspace(0, 1, 1, dtype=torch.bool)",
    "logspace_bool": "torch.logspace(0, 1, 3, dtype=torch.bool)",
    "floordiv_int_0d_number_first": "r = -1 // torch.tensor(3, dtype=torch.int32); print(r, r.dtype)",
    "remainder_uint8_0d_number_first": "r = -1 % torch.tensor(7, dtype=torch.uint8); print(r, r.dtype)",
    "div_number_first_int32_0d": "r = torch.div(2, torch.tensor(3, dtype=torch.int32), rounding_mode='floor'); "
                                 "print(r, r.dtype)",
}

MISSING = {
    "median_all": "torch.median(torch.tensor([3.0, 1.0, 2.0, 4.0]))",
    "median_dim": "torch.tensor([[3.0, 1.0], [2.0, 5.0]]).median(1)",
    "median_keepdim_grad": "x = torch.tensor([[3.0, 1.0, 2.0]], requires_grad=True); m = x.median(-1, keepdim=True); "
                           "m.values.sum().backward(); print(m, x.grad)",
    "median_ties_first_index": "torch.tensor([[2., 2., 1., 2.]]).median(1)",
    "median_nan_first": "print(torch.tensor([[3.0, float('nan'), 1.0, float('nan')]]).median(1), "
                        "torch.tensor([3.0, float('nan'), 1.0]).median())",
    "median_backward_shared_by_ties": "x = torch.tensor([1., 2., 2., 3.], requires_grad=True); m = x.median(); "
                                      "m.backward(); print(m, x.grad, m.grad_fn._saved_result)",
    "median_empty": "print(torch.tensor([]).median(), torch.tensor([], dtype=torch.int32).median(), "
                    "torch.ones(2, 0).median(0))",
    "median_empty_dim": "torch.ones(2, 0).median(1)",
    "median_0d": "x = torch.tensor(2.5, requires_grad=True); print(x.median(0), x.median())",
    "median_int_transposed": "torch.manual_seed(0); x = torch.randint(0, 4, (5, 6)).t(); "
                             "print(x.median(0), x.median(1))",
    "median_bool": "torch.tensor([True, False]).median(0)",
    "median_dim_none": "torch.ones(2, 3).median(None)",
    "median_keepdim_without_dim": "torch.median(torch.ones(2, 3), keepdim=True)",
    "median_tuple_dim_function": "torch.median(torch.ones(2, 3), (0,))",
    "set_default_tensor_type": "torch.set_default_tensor_type(torch.DoubleTensor); print(torch.tensor([1.5]))",
    "set_default_tensor_type_name": "torch.set_default_tensor_type('torch.HalfTensor'); print(torch.tensor([1.5]))",
    "set_default_tensor_type_long": "torch.set_default_tensor_type(torch.LongTensor)",
    "set_default_tensor_type_dtype": "torch.set_default_tensor_type(torch.float64)",
    "set_default_tensor_type_cuda": "torch.set_default_tensor_type('torch.cuda.FloatTensor')",
    "deepcopy_keeps_view_sharing": "import copy; a = torch.arange(4.); d = copy.deepcopy([a, a[1:]]); d[1][0] = 100.; "
                                   "print(d[0], d[1])",
    "deepcopy_view_first": "import copy; a = torch.arange(4.); d = copy.deepcopy([a[1:], a]); d[0][0] = 100.; "
                           "print(d[0], d[1], d[0]._base is d[1], d[0].storage_offset())",
    "deepcopy_transposed_view": "import copy; a = torch.arange(4.); d = copy.deepcopy([a, a.view(2, 2).t()]); "
                                "d[1][0, 1] = -1; print(d[0], d[1], d[1].stride(), d[1].is_contiguous())",
    "deepcopy_rows_of_one_tensor": "import copy; a = torch.arange(6.).view(2, 3); d = copy.deepcopy([a[0], a[1]]); "
                                   "d[0][2] = -5; print(d, a)",
    "deepcopy_view_of_leaf": "import copy; x = torch.ones(3, requires_grad=True); copy.deepcopy([x, x[1:]])",
}

_HASH = "print(hash(tuple(x.tolist())))"      # every bit of every value, in one line
LAST_BITS = {
    "add_alpha_fma": "torch.add(torch.tensor([0.12573022]), torch.tensor([0.32359472]), alpha=0.1).item()",
    "sub_alpha_fma": "torch.sub(torch.tensor([-0.13210486]), torch.tensor([1.1264654]), alpha=0.1).item()",
    "sgd_style_add_": "w = torch.tensor([0.12573022]); w.add_(torch.tensor([0.32359472]), alpha=3); w.item()",
    "tanh_backward_fma": "x = torch.tensor([-0.5356693863868713, 0.9470809698104858], requires_grad=True); "
                               "x.tanh().sum().backward(); x.grad.tolist()",
    "randn_16_values": "torch.manual_seed(0); torch.randn(16).tolist()",
    "normal_1000x2": "torch.manual_seed(0); x = torch.normal(0, 1, (1000, 2)); print(hash(tuple(x.flatten()."
                           "tolist())))",
    "randn_15_values": "torch.manual_seed(0); torch.randn(15).tolist()",
    "randn_15_float64": "torch.manual_seed(3); torch.randn(15, dtype=torch.float64).tolist()",
    "randn_1000_float64": "torch.manual_seed(0); x = torch.randn(1000, dtype=torch.float64); " + _HASH,
    "randn_17_float16": "torch.manual_seed(0); torch.randn(17, dtype=torch.float16).tolist()",
    "randn_1000_float16": "torch.manual_seed(0); x = torch.randn(1000, dtype=torch.float16); " + _HASH,
    "normal_mean_std_33": "torch.manual_seed(1); torch.empty(33).normal_(2.5, 0.7).tolist()",
    "normal_small_mean_std": "torch.manual_seed(1); torch.empty(5, dtype=torch.float64).normal_(0.3, 0.1).tolist()",
    "normal_tensor_std": "torch.manual_seed(2); torch.normal(torch.zeros(20), torch.arange(20.) / 7).tolist()",
    "rand_float16_upper_bound": "torch.manual_seed(0); x = torch.rand(2000, dtype=torch.float16); "
                                "print((x == 0).sum().item(), (x == 1).sum().item(), hash(tuple(x.tolist())))",
    "uniform_float16_bounds": "torch.manual_seed(0); x = torch.empty(5000, dtype=torch.float16).uniform_(-1.3, 7.1); "
                              + _HASH,
}

_POSITION = "a Python number where a tensor is required, method form: \"(position 2)\" (PyTorch: position 1)"
_GRAD_FN = "grad_fn names"
_OVERLAP = "writing a tensor into itself through an index: PyTorch's overlap error"
_EMPTY = "an empty tensor of a dtype the kernel lacks: PyTorch returns the empty result"
FUZZ = {
    "lshift_int": "torch.tensor([1, 2]) << 1",
    "rshift_tensor": "torch.tensor([8]) >> torch.tensor([2])",
    "maximum_number": "torch.ones(2).maximum(1.0)",
    "logical_and_number": "torch.ones(2).logical_and(True)",
    "isclose_number": "torch.ones(2).isclose(1.0)",
    "clamp_min_max_grad_fn": "x = torch.ones(2, requires_grad=True); print(x.clamp_min(0).grad_fn.name(), "
                                   "x.clamp_max(0).grad_fn.name())",
    "rsub_grad_fn": "x = torch.ones(2, requires_grad=True); torch.rsub(x, x).grad_fn.name()",
    "inner_grad_fn": "x = torch.ones(1, 3, requires_grad=True); torch.inner(x, torch.ones(3)).grad_fn.name()",
    "matmul_2d_3d_grad_fn": "x = torch.ones(1, 4, requires_grad=True); (x @ torch.ones(2, 4, 3)).grad_fn.name()",
    "matmul_eye_3d_grad_fn": "(torch.eye(3, dtype=torch.float64, requires_grad=True) @ torch.ones(1, 3, 1, "
                             "dtype=torch.float64)).grad_fn.name()",
    "inner_1_1_grad_fn": "torch.inner(torch.ones(1, 1, requires_grad=True), torch.ones(1)).grad_fn.name()",
    "matmul_1d_3d_grad_fn": "x = torch.ones(4, requires_grad=True); (x @ torch.ones(2, 4, 3)).grad_fn.name()",
    "inner_dtype_message": "torch.inner(torch.ones(3), torch.ones(3, dtype=torch.float64))",
    "linspace_int8": "torch.linspace(0.0, 2.5, 6, dtype=torch.int8)",
    "linspace_uint8_negative": "torch.linspace(-1, 0, 6, dtype=torch.uint8)",
    "linspace_int32_truncated_ends": "torch.linspace(-2.7, 9.9, 7, dtype=torch.int32)",
    "linspace_int8_end_overflow": "torch.linspace(300, 0, 3, dtype=torch.int8)",
    "requires_grad_off_before_backward": "t = torch.tensor([2.0], requires_grad=True); v = t * t; "
                                         "t.requires_grad_(False); v.sum().backward(); print(t.grad)",
    "setitem_mask_self": "t = torch.ones(3); t[t > 0] = t",
    "setitem_list_self": "t = torch.tensor([1]); t[[0, 0]] = t; t",
    "random_expanded": _fuzz("torch.zeros(3).expand(2, 3).random_(0, 10)",
                             "random_ on an expanded tensor: PyTorch's internal-overlap error"),
    "random_transposed": _fuzz("torch.manual_seed(0); t = torch.zeros(2, 2).t(); t.random_(5); t",
                               "random_ on a non-contiguous tensor fills in another order"),
    "randn_empty_int": "torch.randn(0, dtype=torch.int32)",
    "softmax_empty_int": "torch.tensor([[]], dtype=torch.int16).softmax(-1)",
    "sum_int_dtype_requires_grad": "torch.ones(2, requires_grad=True).sum(dtype=torch.int64)",
    "sum_dim_int_dtype_requires_grad": "torch.ones(2, 3, requires_grad=True).sum((0,), True, dtype=torch.int16)",
    "sum_bad_dim_before_autograd_dtype": "torch.ones(2, requires_grad=True).sum(5, dtype=torch.int64)",
    "sum_uint8_dtype_requires_grad": "torch.sum(torch.ones(2, dtype=torch.float64, requires_grad=True), "
                                     "dtype=torch.uint8)",
    "sum_bool_dtype_requires_grad": "torch.ones(2, requires_grad=True).sum(dtype=torch.bool)",
    "sum_int_dtype_no_grad": "x = torch.ones(2, requires_grad=True)\nwith torch.no_grad(): print(x.sum(dtype=torch."
                             "int64))\nwith torch.inference_mode(): print(x.sum(dtype=torch.int64))\n"
                             "print(x.detach().sum(dtype=torch.int64), x.sum(dtype=torch.float64))",
    "sum_int_dtype_view_requires_grad": "x = torch.ones(2, requires_grad=True); x[0].sum(dtype=torch.int64)",
    "prod_int_dtype_requires_grad": "torch.ones(2, requires_grad=True).prod(dtype=torch.int64)",
    "prod_dim_int_dtype_requires_grad": "torch.prod(torch.ones(2, requires_grad=True), 0, keepdim=True, "
                                        "dtype=torch.int8)",
    "cumsum_int_dtype_requires_grad": "torch.ones(2, requires_grad=True).cumsum(dim=0, dtype=torch.int64)",
    "cumprod_int_dtype_requires_grad": "torch.ones(2, 2, requires_grad=True).cumprod(1, dtype=torch.int32)",
    "cumsum_bad_dim_before_autograd_dtype": "torch.ones(2, requires_grad=True).cumsum(5, dtype=torch.int64)",
    "cumsum_bool_dtype": "torch.cumsum(torch.ones(2), 0, dtype=torch.bool)",
    "cumprod_bool_dtype": "torch.cumprod(torch.tensor([True, False]), 0, dtype=torch.bool)",
    "cumsum_bool_dtype_requires_grad": "torch.cumsum(torch.ones(2, requires_grad=True), 0, dtype=torch.bool)",
    "randint_bool": "torch.randint(1, 10, (4,), dtype=torch.bool)",
    "randint_bool_from": "torch.randint(-1, 1, (4,), dtype=torch.bool)",
    "randint_bool_from_first": "torch.randint(2, 5, (4,), dtype=torch.bool)",
    "randint_bool_from_ge_to": "torch.randint(3, 2, (4,), dtype=torch.bool)",
    "randint_bool_draws": "torch.manual_seed(3); print(torch.randint(2, (2, 5), dtype=torch.bool), "
                          "torch.randint(1, 2, (3,), dtype=torch.bool), torch.randint(0, 2, (0,), dtype=torch.bool))",
    "randint_uint8_bounds": "print(torch.randint(-5, 2, (2,), dtype=torch.uint8))",
    "randint_uint8_to": "torch.randint(0, 257, (2,), dtype=torch.uint8)",
    "randint_int32_to": "torch.randint(0, 2**31 + 1, (2,), dtype=torch.int32)",
    "randint_int8_draws": "torch.manual_seed(0); torch.randint(-5, 2, (6,), dtype=torch.int8)",
    "randint_like_bool_bounds": "torch.randint_like(torch.zeros(4, dtype=torch.bool), 3)",
    "randint_float16_bounds": "torch.randint(0, 2**17, (2,), dtype=torch.float16)",
    "random_float16_bounds": "torch.zeros(2, dtype=torch.float16).random_(0, 2**17)",
    "bmm_bool": "torch.matmul(torch.ones(1, 3, dtype=torch.bool), torch.ones(1, 3, 1, dtype=torch.uint8))",
    "bmm_bool_before_dtype": "torch.bmm(torch.ones(1, 1, 2, dtype=torch.bool), torch.ones(1, 2, 1))",
    "bmm_dtype_after_bool_second": "torch.bmm(torch.ones(1, 1, 2, dtype=torch.int64), torch.ones(1, 2, 1, "
                                   "dtype=torch.bool))",
    "bmm_sizes_before_bool": "torch.bmm(torch.ones(1, 1, 2, dtype=torch.bool), torch.ones(1, 3, 1))",
    "bmm_empty_mixed_dtypes": "print(torch.bmm(torch.ones(1, 2, 0, dtype=torch.float64), torch.ones(1, 0, 2, "
                              "dtype=torch.int32)), torch.bmm(torch.ones(0, 2, 3, dtype=torch.bool), torch.ones(0, 3, "
                              "2, dtype=torch.bool)))",
    "mm_mv_empty_bool": "print(torch.mm(torch.ones(2, 0, dtype=torch.bool), torch.ones(0, 2, dtype=torch.bool)), "
                        "torch.mv(torch.ones(0, 3, dtype=torch.bool), torch.ones(3, dtype=torch.bool)))",
    "matmul_bool_batched_int": "torch.ones(2, 1, 3, dtype=torch.bool) @ torch.ones(2, 3, 2, dtype=torch.int32)",
    "matmul_vector_batch_addmv": "torch.ones(2, dtype=torch.float64) @ torch.ones(2, 2, 3, dtype=torch.int32).mT"
                                 ".contiguous().mT",
    "matmul_vector_batch_addmv_permuted": "torch.ones(2, dtype=torch.float64) @ torch.ones(2, 3, 2, "
                                          "dtype=torch.int32).permute(1, 0, 2)",
    "matmul_vector_batch_bmm": "torch.ones(2, dtype=torch.float64) @ torch.ones(2, 2, 3, dtype=torch.int32)",
    "matmul_batch_vector_addmv": "torch.ones(2, 2, 3, dtype=torch.float64) @ torch.ones(3, dtype=torch.int32)",
    "matmul_transposed_batch_matrix_bmm": "torch.ones(2, 2, 3, dtype=torch.float64).mT @ torch.ones(2, 2, "
                                          "dtype=torch.int32)",
    "matmul_empty_batch_mixed": "torch.ones(2, 3, dtype=torch.float64) @ torch.ones(0, 3, 2, dtype=torch.int32)",
    "inner_bool_empty": "torch.inner(torch.ones(0, 3, dtype=torch.bool), torch.ones(2, 3, dtype=torch.bool))",
    "inner_bool_1_1": "torch.inner(torch.ones(2, 1, dtype=torch.bool), torch.ones(2, 1, dtype=torch.bool))",
    "inner_int32_last_1": "torch.inner(torch.ones(2, 1, dtype=torch.int32), torch.ones(3, 1, dtype=torch.int32))",
    "roll_0d": "torch.tensor(0).roll(1, 0)",
    "true_divide_0d_wider_int": "torch.true_divide(torch.tensor([[1]], dtype=torch.int8), torch.tensor(300))",
    "div_0d_wider_int": "torch.tensor([1], dtype=torch.int8) / torch.tensor(300)",
    "div_uint8_by_0d_int8": "torch.tensor([0], dtype=torch.uint8) / torch.tensor(-2, dtype=torch.int8)",
    "inner_bool_message": "torch.inner(torch.ones(1, 3, dtype=torch.bool), torch.tensor([True, True, False]))",
    "cumprod_float16_overflow_warns": "torch.cumprod(torch.tensor([65504.0, 1.5], dtype=torch.float16), 0)",
    "cat_legacy_empty_requires_grad": _fuzz("t = torch.tensor([], requires_grad=True); "
                                            "torch.cat([torch.zeros(0, 2), t])",
                                            "cat skipping a legacy empty 1-D operand drops its requires_grad"),
    "view_before_requires_grad_": _fuzz("t = torch.zeros(2, 2); v = t.diagonal(); t.requires_grad_(); "
                                        "print(v, v.requires_grad)",
                                        "a view taken before base.requires_grad_() does not follow"),
    "stack_dim_before_sizes": _fuzz("torch.stack([torch.tensor(1.), torch.ones(2, 0)], 3)",
                                    "stack: PyTorch checks the dim before the sizes"),
    "norm_tuple_p": _fuzz("torch.ones(2).norm((2,))", "norm with a tuple p: another message"),
    "pos_bool": "+torch.tensor([True])",
    "add_uint8_negative_alpha": _fuzz("torch.add(torch.tensor([127], dtype=torch.uint8), torch.tensor([1], "
                                      "dtype=torch.uint8), alpha=-1)",
                                      "a negative alpha with an unsigned tensor: NumPy's OverflowError"),
    "rsub_int_float_alpha": _fuzz("torch.rsub(torch.tensor([[0]]), -2, alpha=0.5)",
                                  "rsub of an integer tensor with a float alpha is accepted"),
    "einsum_mixed_dtypes_k1": "torch.einsum('ij,jk->ik', torch.ones(3, 1), torch.ones(1, 2, dtype=torch.float64))",
    "einsum_mixed_dtypes_k1_int": "torch.einsum('ij,jk->ik', torch.full((1, 1), 1.5, dtype=torch.float64), "
                                  "torch.tensor([[2, 3]], dtype=torch.int32))",
    "einsum_mixed_dtypes_contracted": "torch.einsum('ij,jk->ik', torch.ones(2, 3, dtype=torch.float64), "
                                      "torch.ones(3, 2, dtype=torch.int32))",
    "einsum_mixed_dtypes_bool_first": "torch.einsum('bij,bjk->bik', torch.ones(2, 2, 3, dtype=torch.bool), "
                                      "torch.ones(2, 3, 2, dtype=torch.int64))",
    "einsum_mixed_dtypes_empty": "torch.einsum('ij,jk->ik', torch.ones(2, 0, dtype=torch.float64), "
                                 "torch.ones(0, 2, dtype=torch.int32))",
    "einsum_mixed_dtypes_outer": "torch.einsum('i,j->ij', torch.tensor([1, 2], dtype=torch.uint8), "
                                 "torch.tensor([-1, 2, 3], dtype=torch.int8))",
    "einsum_mixed_dtypes_elementwise": "torch.einsum('ij,ij->i', torch.ones(2, 1, dtype=torch.float16), "
                                       "torch.ones(2, 1))",
    "einsum_mixed_dtypes_dot": "torch.einsum('i,i->', torch.ones(3), torch.ones(3, dtype=torch.float64))",
    "einsum_mixed_dtypes_dot_1": "torch.einsum('i,i->', torch.ones(1, dtype=torch.bool), torch.ones(1))",
}

ALL = {**ZEROS_NAN_INF, **FLOAT16, **NUMPY_MESSAGES, **ZERO_D, **MESSAGES, **TYPES, **MISSING, **LAST_BITS, **FUZZ}


@pytest.mark.parametrize("code", list(ALL.values()), ids=list(ALL))
def test_same_as_pytorch(code):
    assert_same(code)


# ------------------------------------------- matmul's and inner's graphs (PyTorch's _matmul_impl and tensordot)

_CHAIN = ("def chain(f):\n"
          "    if f is None: return '-'\n"
          "    return f.name() + '(' + ','.join(chain(g) for g, _ in getattr(f, 'next_functions', ())) + ')'\n"
          "def make(shape, layout, rg, k):\n"
          "    n = 1\n"
          "    for s in shape: n *= s\n"
          "    base = (torch.arange(n, dtype=torch.float64) * 0.37 + k).sin()\n"
          "    if layout == 'T':\n"
          "        t = base.reshape(shape[:-2] + (shape[-1], shape[-2])).transpose(-1, -2)\n"
          "    elif layout == 'P':\n"
          "        t = base.reshape((shape[1], shape[0]) + shape[2:]).transpose(0, 1)\n"
          "    else:\n"
          "        t = base.reshape(shape)\n"
          "    return t.requires_grad_(rg) if rg else t\n"
          "def rounded(t):\n"
          "    return [round(v, 12) for v in t.detach().reshape(-1).tolist()]\n"
          "def run(f, a, b):\n"
          "    y = f(a, b)\n"
          "    print(chain(y.grad_fn), tuple(y.shape), y.stride(), y.is_contiguous(), rounded(y))\n"
          "    if y.requires_grad:\n"
          "        (y * torch.ones_like(y).cumsum(-1)).sum().backward()\n"
          "        print([rounded(t.grad) for t in (a, b) if t.grad is not None])\n")

_SHAPES = [   # (a, b): 1-D, 2-D, batched on either side, broadcasting batches, batches of one, empty ones
    ((3,), (4, 3, 2)), ((3,), (1, 3, 2)), ((3,), (2, 1, 3, 2)), ((2, 3), (4, 3, 2)), ((1, 3), (1, 3, 1)),
    ((3, 3), (1, 3, 1)), ((4, 2, 3), (3,)), ((4, 2, 3), (3, 2)), ((1, 2, 3), (3, 1)), ((4, 2, 3), (1, 3, 2)),
    ((1, 2, 3), (4, 3, 2)), ((2, 1, 2, 3), (4, 3, 2)), ((2, 1, 2, 3), (3,)), ((3,), (0, 3, 2)), ((0, 2, 3), (3, 2)),
    ((2, 3), (0, 3, 2)), ((2, 0, 3), (3,)), ((3, 1, 3), (5, 3, 4)), ((4, 2, 3), (4, 3, 2)),
]


def _layouts(shape):
    return "c" + ("T" if len(shape) >= 2 else "") + ("P" if len(shape) >= 3 else "")


def _graph_program(function, a, b):
    lines = [_CHAIN]
    for la in _layouts(a):
        for lb in _layouts(b):
            for rga, rgb in ((True, False), (False, True), (True, True), (False, False)):
                lines.append(f"run({function}, make({a}, '{la}', {rga}, 0), make({b}, '{lb}', {rgb}, 1))\n")
    return "".join(lines)


@pytest.mark.parametrize("a, b", _SHAPES, ids=[f"{a}@{b}" for a, b in _SHAPES])
def test_matmul_graph_values_and_gradients(a, b):
    """The whole grad_fn chain, the result's strides, values and gradients (to 12 digits: BLAS's summation order is
    not PyTorch's) of ``a @ b`` for each operand layout
    (contiguous, last two dims transposed, batch dims permuted) and each side requiring grad: PyTorch folds a
    batched operand into one mm/mv (through ``b.mT``, then transposes back) where ``should_fold`` says so."""
    assert_same(_graph_program("torch.matmul", a, b))


_INNER_SHAPES = [((3,), (3,)), ((1, 3), (3,)), ((3,), (1, 3)), ((2, 3), (4, 3)), ((1,), (1,)), ((1, 1), (1,)),
                 ((2, 1), (4, 1)), ((4, 2, 3), (2, 4, 3)), ((0, 3), (2, 3)), ((2, 1, 1), (3, 1))]


@pytest.mark.parametrize("a, b", _INNER_SHAPES, ids=[f"{a},{b}" for a, b in _INNER_SHAPES])
def test_inner_graph_values_and_gradients(a, b):
    """``inner`` is PyTorch's tensordot: a last dim of size 1 summed first, permute, reshape, mm (dot for one row
    on each side), reshape."""
    assert_same(_graph_program("torch.inner", a, b))


# ---------------------------------------------------------------- class paths

_OBJECTS = {   # what type() of each prints: course_lib's rule (README.md, "Class names")
    "Tensor": "torch.ones(1)",
    "Parameter": "torch.nn.Parameter(torch.ones(1))",
    "device": "torch.device('cpu')",
    "dtype": "torch.float32",
    "Size": "torch.Size([2])",
    "finfo": "torch.finfo(torch.float32)",
    "iinfo": "torch.iinfo(torch.int8)",
    "Generator": "torch.Generator()",
    "FloatTensor": "torch.ones(1)",                       # (replaced below: the legacy type itself)
    "Linear": "torch.nn.Linear(1, 1)",
    "Sequential": "torch.nn.Sequential()",
    "ReLU": "torch.nn.ReLU()",
    "Tanh": "torch.nn.Tanh()",
    "MSELoss": "torch.nn.MSELoss()",
    "CrossEntropyLoss": "torch.nn.CrossEntropyLoss()",
    "Dropout": "torch.nn.Dropout()",
    "Flatten": "torch.nn.Flatten()",
    "SGD": "torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=0.1)",
    "AdamW": "torch.optim.AdamW([torch.nn.Parameter(torch.ones(1))])",
    "TensorDataset": "torch.utils.data.TensorDataset(torch.ones(2))",
    "DataLoader": "torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.ones(2)))",
    "RandomSampler": "torch.utils.data.RandomSampler(range(2))",
    "Normal": "torch.distributions.Normal(0.0, 1.0)",
    "no_grad": "torch.no_grad()",
    "enable_grad": "torch.enable_grad()",
    "set_grad_enabled": "torch.set_grad_enabled(True)",
    "inference_mode": "torch.inference_mode()",
    "detect_anomaly": "torch.autograd.detect_anomaly()",
    "return_types.max": "torch.ones(2).max(0)",
    "return_types.median": "torch.ones(2).median(0)",
}


def _class_paths(engine):
    import warnings

    def path(name, src):
        t = type(eval(src, {"torch": engine})) if name != "FloatTensor" else engine.FloatTensor
        return t.__module__ + "." + t.__qualname__
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # (detect_anomaly() warns that it slows things down)
        return {name: path(name, src) for name, src in _OBJECTS.items()}


def test_class_paths_follow_one_rule():
    """Every public class prints as ``course_lib.`` followed by the rest of PyTorch's path
    (``course_lib.nn.modules.linear.Linear`` for ``torch.nn.modules.linear.Linear``), and is importable there."""
    import importlib
    import pickle
    ours, theirs = _class_paths(course_lib), _class_paths(torch)
    assert ours == {k: "course_lib" + v[len("torch"):] for k, v in theirs.items()}
    for name, path in ours.items():
        module, _, qualname = path.rpartition(".")
        if name not in ("Generator", "inference_mode", "detect_anomaly"):
            assert getattr(importlib.import_module(module), qualname).__qualname__ == qualname
    layer = pickle.loads(pickle.dumps(course_lib.nn.Linear(1, 1)))
    assert type(layer) is course_lib.nn.Linear and repr(type(layer)) == "<class 'course_lib.nn.modules.linear.Linear'>"


def test_class_paths_in_messages_and_reprs_stay_pytorchs():
    """What PyTorch writes out (reprs it defines, its messages naming its types) is PyTorch's text; Python's default
    object repr shows the class path, which the differential tests read by the rule."""
    for code in ("torch.set_grad_enabled(False)",
                 "torch.ones(2).max(0)",
                 "x = torch.ones(1); x.shape[0] = 2",
                 "torch.float32()",
                 "torch.zeros(2, dtype='a')",
                 "torch.ones(2).fill_(torch.float32)",
                 "print(type(torch.ones(2).shape), torch.FloatTensor, type(torch.FloatTensor))",
                 "print(repr(torch.no_grad()).split(' object at ')[0])"):
        assert_same(code)


def test_set_grad_enabled_repr():
    assert_same("torch.set_grad_enabled(False)")
    assert_same("print(torch.set_grad_enabled(True), torch.set_grad_enabled(False))")


# ---------------------------------------------------------------- threads

def _run_threads(engine, n, body):
    """Run ``body(engine, i, barrier)`` in ``n`` threads; ``[result or (exception type, message)]`` in thread order."""
    results = [None] * n
    barrier = threading.Barrier(n, timeout=20)

    def run(i):
        try:
            results[i] = body(engine, i, barrier)
        except Exception as e:  # noqa: BLE001 - the exception is the result
            results[i] = (type(e).__name__, str(e))
            barrier.abort()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def _train_separate_graphs(engine, i, barrier):
    """One of 8 threads: its own parameters, 5 steps of gradient descent.  Even threads are inside backward (held in a
    gradient hook) while odd threads build their graphs, then the roles swap."""
    engine.manual_seed(i)
    w = engine.tensor([0.5 * i, -1.0], requires_grad=True)
    x = engine.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
    y = engine.tensor([1.0, 2.0, 3.0])
    log = []
    for step in range(5):
        inside_backward = (i + step) % 2 == 0

        def hold(grad):
            barrier.wait()          # 1: the backward threads are in backward now
            barrier.wait()          # 2: the forward threads have built their graphs
            return grad

        if inside_backward:
            loss = ((x @ w - y) ** 2).mean()
            h = w * 1.0
            h.register_hook(hold)
            (loss + 0 * h.sum()).backward()
        else:
            barrier.wait()          # 1
            loss = ((x @ w - y) ** 2).mean()
            log.append((loss.requires_grad, loss.grad_fn is not None))
            barrier.wait()          # 2
            loss.backward()
        with engine.no_grad():
            w -= 0.1 * w.grad
        w.grad.zero_()
        log.append(round(loss.item(), 6))
    return log, w.tolist()


class _Alone:
    """A barrier for a thread that runs by itself."""

    def wait(self):
        return 0


def _close(a, b):
    """The same structure, equal flags, numbers within 1e-5 (PyTorch's mv backward adds in its BLAS's order, so the
    last bits of a loss can differ: README.md, "Last-bit differences")."""
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= 1e-5 * max(1.0, abs(a))
    return a == b


def test_eight_threads_train_separate_graphs():
    """Grad mode is per thread and backward() switches it off only in its own thread: 8 threads, each training its
    own parameters while others are inside backward, record their graphs and get exactly what each gets alone."""
    expected = _run_threads(torch, 8, _train_separate_graphs)
    assert all(not isinstance(r[0], str) for r in expected), expected     # PyTorch itself runs them all
    together = _run_threads(course_lib, 8, _train_separate_graphs)
    alone = [_train_separate_graphs(course_lib, i, _Alone()) for i in range(8)]
    assert together == alone
    assert all((True, True) in log for log, _ in together)               # graphs recorded while others ran backward
    assert _close(together, expected), (together, expected)


def _no_grad_in_one_thread(engine, i, barrier):
    w = engine.ones(2, requires_grad=True)
    if i == 0:
        with engine.no_grad():
            barrier.wait()          # the other thread computes while this one is inside no_grad
            barrier.wait()
            return (w * 2).requires_grad, engine.is_grad_enabled()
    barrier.wait()
    out = ((w * 2).requires_grad, engine.is_grad_enabled())
    barrier.wait()
    return out


def test_no_grad_in_one_thread_does_not_affect_another():
    expected = _run_threads(torch, 2, _no_grad_in_one_thread)
    assert expected == [(False, False), (True, True)]
    assert _run_threads(course_lib, 2, _no_grad_in_one_thread) == expected


def _set_grad_enabled_in_a_thread(engine, i, barrier):
    if i == 0:
        engine.set_grad_enabled(False)
        barrier.wait()
        barrier.wait()
        engine.set_grad_enabled(True)
        return None
    barrier.wait()
    out = engine.is_grad_enabled()
    barrier.wait()
    return out


def test_set_grad_enabled_is_per_thread():
    expected = _run_threads(torch, 2, _set_grad_enabled_in_a_thread)
    assert expected == [None, True]
    assert _run_threads(course_lib, 2, _set_grad_enabled_in_a_thread) == expected


def _started_inside_no_grad(engine):
    seen = []
    with engine.no_grad():
        t = threading.Thread(target=lambda: seen.append(engine.is_grad_enabled()))
        t.start()
        t.join()
    return seen


def test_new_threads_start_with_grad_enabled():
    """PyTorch: a new thread starts in the default grad mode (enabled), whatever the thread that started it is in."""
    expected = _started_inside_no_grad(torch)
    assert expected == [True]
    assert _started_inside_no_grad(course_lib) == expected
