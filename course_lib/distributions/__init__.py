"""Probability distributions (``torch.distributions``): a small, readable subset of PyTorch's.

``Normal``, ``Uniform``, ``Bernoulli``, ``Categorical`` and ``Multinomial``, each in the submodule of PyTorch's name
(``from torch.distributions import multinomial``).  Their samples are drawn with the random functions course_lib
reproduces (``torch.normal``, ``torch.rand``, ``torch.bernoulli``, ``torch.multinomial``), the way PyTorch's code draws
them, so ``manual_seed`` gives PyTorch's values; reprs, shapes and the ValueErrors of argument validation are
PyTorch's.
"""

from . import constraints
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .multinomial import Multinomial
from .normal import Normal
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "Multinomial", "Normal", "Uniform", "constraints"]
