# ruff: noqa: E501 - one PyTorch snippet per line
"""Fixes from the third differential report (breaker3): torch.distributions, multi-GPU APIs on a CPU build,
"invalid combination of arguments" messages with keywords, and a few missing operations.

Each snippet runs with course_lib and with real PyTorch (skipped without it): printed output, exception type and
message, and warnings must be the same.
"""

import pytest
from torch_compare import assert_same, cases, outcome

import course_lib

DISTRIBUTIONS = r"""
multinomial = torch.distributions.multinomial; torch.manual_seed(0); fair_probs = torch.ones([6]) / 6; print(multinomial.Multinomial(1, fair_probs).sample())
torch.manual_seed(1); print(torch.distributions.multinomial.Multinomial(10, torch.ones(6) / 6).sample((500,)).sum(0))
torch.manual_seed(2); torch.distributions.Multinomial(5, torch.tensor([[.2, .8], [.5, .5]])).sample((2,))
D = torch.distributions; print(D.Normal(0., 1.), D.Normal(torch.zeros(3), 1.), D.Uniform(0, 1), D.Bernoulli(0.3), D.Categorical(torch.ones(3)), D.Multinomial(1, torch.ones(6) / 6), D.Bernoulli(logits=0.2), D.Normal(torch.zeros(1), 2))
D = torch.distributions.constraints; print(D.simplex, D.real_vector, D.real, D.positive, D.unit_interval, D.boolean, D.integer_interval(0, 3), D.less_than(torch.tensor(1.)), D.multinomial(3))
D = torch.distributions; print(D.Normal(0, 1).loc, D.Normal(0, 1).batch_shape, D.Multinomial(3, torch.ones(2, 4)).batch_shape, D.Multinomial(3, torch.ones(2, 4)).event_shape, D.Uniform(0, 1).low.dtype)
torch.distributions.Normal(0., -1.)
torch.distributions.Normal(0., 1.).log_prob(2.0)
torch.distributions.Categorical()
torch.distributions.Categorical(torch.tensor(1.))
torch.distributions.Uniform(1., 0.)
torch.distributions.Bernoulli(1.5)
torch.distributions.Multinomial(1.5, torch.ones(3))
torch.distributions.Categorical(torch.tensor([-1., 2.]))
torch.distributions.Bernoulli(0.3).log_prob(torch.tensor(0.5))
torch.distributions.Normal(torch.zeros(3), 1.).log_prob(torch.zeros(2))
torch.distributions.Uniform(0., 1.).log_prob(torch.tensor(2.))
torch.distributions.Normal('a', 1.)
torch.distributions.Normal(torch.zeros(2), torch.tensor([1., -1.]))
torch.distributions.Multinomial(1, torch.ones(3)).log_prob(torch.tensor([1., 1., 0.]))
torch.distributions.Categorical(torch.ones(3)).log_prob(torch.tensor(3))
torch.manual_seed(0); N = torch.distributions.Normal(0., 1.); print(N.sample((3,)), N.rsample((2,)), N.sample().shape)
torch.manual_seed(0); N = torch.distributions.Normal(torch.zeros(2, 3), torch.ones(3)); print(N.rsample((2,)).shape, N.sample())
torch.manual_seed(3); print(torch.distributions.Categorical(torch.tensor([.1, .2, .7])).sample((5,)), torch.distributions.Categorical(logits=torch.tensor([[.1, .2, .7], [1., 0., 0.]])).sample((2,)))
torch.manual_seed(4); print(torch.distributions.Bernoulli(0.3).sample((4,)), torch.distributions.Bernoulli(torch.tensor([0.1, 0.9])).sample(), torch.distributions.Uniform(0., 2.).sample((3,)), torch.distributions.Uniform(torch.zeros(2), torch.ones(2)).rsample((3,)))
D = torch.distributions; print(D.Normal(0., 1.).log_prob(torch.tensor([0., 1.])), D.Normal(0, 1).mean, D.Normal(0, 1).stddev, D.Normal(0, 2).variance, D.Normal(1., 2.).entropy(), D.Normal(1., 2.).cdf(torch.tensor(1.)))
D = torch.distributions; print(D.Multinomial(10, probs=torch.tensor([1., 1., 1., 1.])).log_prob(torch.tensor([2., 4, 3, 1])), D.Multinomial(10, torch.tensor([1., 2])).mean)
D = torch.distributions; print(D.Bernoulli(0.3).log_prob(torch.tensor([0., 1.])), D.Bernoulli(logits=torch.tensor([0.3])).probs, D.Bernoulli(torch.tensor([0.3])).logits, D.Bernoulli(0.3).entropy())
D = torch.distributions; print(D.Uniform(0., 2.).log_prob(torch.tensor([0.5])), D.Uniform(0., 2.).mean, D.Uniform(0., 2.).stddev, D.Uniform(0., 2.).entropy())
C = torch.distributions.Categorical(torch.tensor([.1, .2, .7])); print(C.entropy(), C.logits, C.log_prob(torch.tensor(2)), C.mean, C.enumerate_support(), torch.distributions.Categorical(logits=torch.tensor([.1, .2, .7])).probs)
loc = torch.tensor(1., requires_grad=True); s = torch.distributions.Normal(loc, 2.).rsample((3,)); s.sum().backward(); print(loc.grad, s.grad_fn.name(), torch.distributions.Normal(loc, 2.).sample().requires_grad)
[n for n in dir(torch.distributions) if n in ('Normal', 'Bernoulli', 'Categorical', 'Multinomial', 'Uniform', 'Distribution', 'constraints', 'normal', 'multinomial', 'uniform', 'bernoulli', 'categorical')]
"""


@pytest.mark.parametrize("code", cases(DISTRIBUTIONS))
def test_distributions(code):
    assert_same(code)
    exc = outcome(code, course_lib)[1]
    assert exc is None or exc[0] not in ("NameError", "AttributeError"), exc


def test_distribution_submodules_import():
    import course_lib.distributions.bernoulli
    import course_lib.distributions.categorical
    import course_lib.distributions.multinomial
    import course_lib.distributions.normal
    import course_lib.distributions.uniform  # noqa: F401
    assert course_lib.distributions.multinomial.Multinomial is course_lib.distributions.Multinomial


MULTI_GPU = r"""
m = torch.nn.DataParallel(torch.nn.Linear(3, 2)); print(m); print(m.module, m.device_ids)
torch.nn.DataParallel(torch.nn.Linear(3, 2), device_ids=[0, 1]).device_ids
torch.manual_seed(0); m = torch.nn.DataParallel(torch.nn.Linear(3, 2)); print(m(torch.ones(2, 3)), [n for n, _ in m.named_parameters()], list(m.state_dict()))
torch.nn.DataParallel(torch.nn.Linear(3, 2)).output_device
dist = torch.distributed; print(dist.is_available(), dist.is_initialized(), dist.is_nccl_available(), dist.is_gloo_available())
torch.distributed.init_process_group(backend='nccl')
torch.distributed.init_process_group('gloo')
torch.distributed.get_rank()
torch.distributed.get_world_size()
torch.distributed.barrier()
torch.distributed.all_reduce(torch.ones(2))
torch.distributed.destroy_process_group()
dist = torch.distributed; print(dist.ReduceOp.SUM, repr(dist.ReduceOp.SUM), dist.Backend.NCCL, dist.Backend('GLOO'))
torch.cuda.device(0).__enter__()
torch.set_default_device('foo')
torch.set_default_device(1)
torch.get_default_device()
print(torch.backends.cuda.is_built(), torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32, torch.version.cuda)
print(torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction, torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction)
torch.backends.cuda.matmul.foo
"""


@pytest.mark.parametrize("code", cases(MULTI_GPU))
def test_multi_gpu_apis_on_a_cpu_build(code):
    assert_same(code)


DEFAULT_DEVICE = [
    "torch.set_default_device('cuda')\ntry:\n    print(torch.ones(2))\nfinally:\n    torch.set_default_device(None)",
    "torch.set_default_device('cuda')\ntry:\n    print(torch.get_default_device())\nfinally:\n"
    "    torch.set_default_device(None)",
    "torch.set_default_device('cpu')\ntry:\n    print(torch.get_default_device(), torch.ones(2).device, torch.tensor([1]).device,"
    " torch.arange(3).device, torch.randn(2).device)\nfinally:\n    torch.set_default_device(None)\nprint(torch.get_default_device())",
    "torch.backends.cuda.matmul.allow_tf32 = True\ntry:\n    print(torch.backends.cuda.matmul.allow_tf32)\nfinally:\n"
    "    torch.backends.cuda.matmul.allow_tf32 = False",
]


@pytest.mark.parametrize("code", DEFAULT_DEVICE)
def test_default_device(code):
    assert_same(code)


def test_simulated_gpu_behaves_as_pytorch_with_one_gpu():
    with course_lib.cuda.simulate():
        m = course_lib.nn.DataParallel(course_lib.nn.Linear(3, 2))
        assert (m.device_ids, m.output_device, str(m.module.weight.device)) == ([0], 0, "cuda:0")
        assert str(m(course_lib.ones(2, 3)).device) == "cuda:0"
        m.module.cpu()
        with pytest.raises(RuntimeError, match=r"^module must have its parameters and buffers on device cuda:0 "
                                               r"\(device_ids\[0\]\) but found one of them on device: cpu$"):
            m(course_lib.ones(2, 3))
        course_lib.set_default_device("cuda")
        try:
            assert str(course_lib.ones(2).device) == str(course_lib.get_default_device()) == "cuda:0"
        finally:
            course_lib.set_default_device(None)
        with course_lib.cuda.device(0):
            pass
        assert course_lib.backends.cuda.is_built()
    assert str(course_lib.ones(1).device) == "cpu"


MISSING_OPS = r"""
x = torch.tensor([0.5, -0.3, 0.99, 1.5], requires_grad=True); y = torch.acos(x); print(y, y.grad_fn.name(), y.grad_fn._saved_self); y.sum().backward(); x.grad
x = torch.tensor([0.5, -0.3, 0.99, 1.5], requires_grad=True); y = x.asin(); print(y, y.grad_fn.name()); y.sum().backward(); x.grad
x = torch.tensor([0.5, -0.3, 0.99, 1.5], requires_grad=True); y = torch.atan(x); print(y, y.grad_fn.name()); y.sum().backward(); x.grad
print(torch.acos(torch.tensor([1, 2])), torch.tensor([0.5]).acos_(), torch.arctan(torch.tensor([1.])), torch.arcsin(torch.tensor([0.5], dtype=torch.float64)), torch.tensor([0.5]).arccos())
torch.atan(2.)
F = torch.nn.functional; print(F.softplus(torch.tensor([1., 30., -20., 5.]), beta=2, threshold=10), F.softplus(torch.tensor([0.5, -3., 25.]), 2), F.softplus(torch.tensor([0.5], dtype=torch.float64), beta=0.5))
torch.nn.functional.softplus(torch.tensor([1, 2]))
torch.nn.functional.softplus(2.0)
print(torch.nn.Softplus(beta=2), torch.nn.Softplus(), torch.nn.Softplus()(torch.tensor([0.5])))
y = torch.nn.functional.softplus(torch.tensor([0.5], requires_grad=True), beta=2); print(y.grad_fn.name(), y.grad_fn._saved_beta, y.grad_fn._saved_threshold)
x = torch.tensor([-2., 0., 1., 3., 25.], requires_grad=True); torch.nn.functional.softplus(x, beta=0.5, threshold=1).sum().backward(); x.grad
x = torch.tensor([-2., 0., 1., 3., 25.], requires_grad=True); torch.nn.functional.softplus(x).sum().backward(); x.grad
torch.manual_seed(1); print(torch.empty(5).random_(), torch.zeros(3).random_(10), torch.zeros(3).random_(2, 5))
torch.manual_seed(1); print(torch.empty(5, dtype=torch.float64).random_(), torch.zeros(3, dtype=torch.int64).random_(10), torch.zeros(3, dtype=torch.int64).random_(-5, 5))
torch.manual_seed(1); print(torch.empty(5, dtype=torch.int32).random_(), torch.empty(5, dtype=torch.uint8).random_(), torch.empty(5, dtype=torch.int16).random_(), torch.empty(3, dtype=torch.bool).random_())
torch.manual_seed(2); print(torch.zeros(3, dtype=torch.int64).random_(0, 2**40), torch.zeros(2, dtype=torch.float64).random_(to=7), torch.zeros(3).random_(2, None))
torch.zeros(3).random_(5, 2)
torch.zeros(3).random_(-3)
torch.zeros(3, requires_grad=True).random_()
torch.zeros(3, dtype=torch.uint8).random_(0, 300)
torch.zeros(3, dtype=torch.uint8).random_(-1, 3)
torch.zeros(3, dtype=torch.bool).random_(10)
torch.zeros(3).random_(1.5)
torch.zeros(3).random_(foo=1)
x = torch.zeros(3, requires_grad=True).clone(); print(x.random_().grad_fn.name(), x.random_(5).grad_fn.name(), x.random_(2, 5).grad_fn.name())
torch.ones(2, requires_grad=True).resize_(3)
x = torch.arange(6.); print(x.resize_(2, 2), x.shape, torch.ones(2).resize_((1,)), torch.ones(2).resize_(2, 2).shape)
print(torch.arange(6).view(2, 3)[1].untyped_storage().size(), torch.tensor([True, False]).untyped_storage(), torch.tensor([]).untyped_storage(), torch.ones(1).untyped_storage()[3])
"""


@pytest.mark.parametrize("code", cases(MISSING_OPS))
def test_missing_operations(code):
    assert_same(code)


def test_storage():
    assert_same("x = torch.tensor([1.5, 2.], dtype=torch.float64); s = x.storage(); print(type(s).__name__, s.size(), "
                "len(s), s.dtype, s.device, s.tolist(), s.nbytes(), s[0], s.data_ptr() == x.data_ptr())\n"
                "print(torch.arange(6).view(2, 3)[1].storage(), torch.tensor([]).storage())\n"
                "print(type(torch.ones(1).untyped_storage()).__name__)", check_warnings=False)


ARGUMENT_MESSAGES = r"""
torch.normal(mean=0.0, std=1.0)
torch.normal(2.0, 3.0, size=4)
torch.normal(torch.zeros(2), std=1.0, size=(2,))
torch.normal(std=1.0)
torch.normal(2.0)
torch.normal(2.0, 3.0, 4, 5)
torch.manual_seed(0); print(torch.normal(torch.zeros(3), std=2.0), torch.normal(mean=torch.zeros(2), std=torch.ones(2)), torch.normal(1.0, 2.0, size=(2,)), torch.normal(mean=1.0, std=2.0, size=(3,)), torch.normal(torch.ones(2)))
torch.randn(2, 3, foo=1)
torch.rand(2, bar=1)
torch.randn(2, foo=1, bar=2, baz=3)
torch.randn(2, a=1, b=2, c=3, d=4)
torch.rand(2, dtype=torch.float32, foo=1)
torch.eye(3, 4, 5)
torch.eye(3, foo=1)
torch.arange(5, foo=1)
torch.Tensor([1, 2], [3])
torch.ones(2).add(1, 2)
torch.ones(2).sub(1, 2)
torch.add(torch.ones(2), 1, 2)
torch.ones(2).add(1, foo=2)
"""


@pytest.mark.parametrize("code", cases(ARGUMENT_MESSAGES))
def test_argument_messages(code):
    assert_same(code, check_warnings=False)      # the deprecated-overload warning comes once per process


def test_deprecated_add_overload_warns_once_with_pytorchs_text():
    from course_lib.ops import arithmetic
    saved = list(arithmetic._DEPRECATED_WARNED)
    arithmetic._DEPRECATED_WARNED.clear()
    try:
        with pytest.warns(UserWarning) as record:
            assert course_lib.ones(2).sub(1, 2).tolist() == [-1.0, -1.0]
            assert course_lib.ones(2).add(1, 2).tolist() == [3.0, 3.0]
        assert [str(w.message) for w in record] == [
            "This overload of sub is deprecated:\n\tsub(Number alpha, Tensor other)\nConsider using one of the "
            "following signatures instead:\n\tsub(Tensor other, *, Number alpha = 1) (Triggered internally at "
            "/__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1841.)"]
    finally:
        arithmetic._DEPRECATED_WARNED[:] = saved or [True]


def test_keywords_listed_in_pytorchs_order():
    from course_lib.torch_compat.arguments import listing_order
    assert list(listing_order(dict.fromkeys(["a", "b", "c", "d"]))) == ["c", "b", "d", "a"]
    assert list(listing_order(dict.fromkeys(["mean", "std"]))) == ["std", "mean"]
    assert list(listing_order(dict.fromkeys(["unbiased", "correction"]))) == ["correction", "unbiased"]
