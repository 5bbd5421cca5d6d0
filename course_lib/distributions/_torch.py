"""The ``torch.*`` names the distributions are written with, taken from the layers below.

The distributions read like PyTorch's own (``torch.log(...)``, ``torch.Size(...)``).  The package
(``course_lib/__init__.py``) imports them, so they cannot import it: this module is the ``torch`` they see.
"""

from math import nan  # noqa: F401

from ..core.grad_mode import enable_grad, no_grad  # noqa: F401
from ..core.tensor import Tensor  # noqa: F401
from ..ops.arithmetic import square  # noqa: F401
from ..ops.creation import arange, empty, full, ones_like, tensor, zeros  # noqa: F401
from ..ops.math import clamp, erf, exp, log, log1p, sigmoid  # noqa: F401
from ..ops.random import bernoulli, multinomial, normal, rand  # noqa: F401
from ..ops.softmax import softmax  # noqa: F401
from ..ops.views import broadcast_tensors  # noqa: F401
from ..torch_compat.dtypes import finfo, get_default_dtype, long  # noqa: F401
from ..torch_compat.size import Size  # noqa: F401
