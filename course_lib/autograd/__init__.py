"""``torch.autograd``: backward and grad, grad modes, custom Functions, gradcheck.

The graph, the engine and grad mode themselves are the core's (``course_lib/core``: ``graph.py``,
``engine.py``, ``grad_mode.py``).  Here: ``api.py`` (``backward`` and ``grad`` with PyTorch's
argument checks), ``function.py`` (``autograd.Function``, a learner's own differentiable function),
``gradcheck.py`` (testing a gradient with finite differences), ``grad_mode.py`` and
``anomaly_mode.py`` (PyTorch's module names), ``variable.py`` (the pre-0.4 ``Variable``, for old code).
"""

from . import grad_mode, graph
from .anomaly_mode import detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled, set_detect_anomaly
from .api import backward, grad
from .function import Function, FunctionCtx, once_differentiable
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .gradcheck import gradcheck
from .variable import Variable

__all__ = ["Function", "FunctionCtx", "once_differentiable", "backward", "grad", "gradcheck", "no_grad",
           "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode", "grad_mode", "graph",
           "detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "Variable"]
