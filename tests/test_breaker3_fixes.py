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
