"""Automatic differentiation: the graph, the backward pass, grad modes and gradcheck.

``torch.autograd`` in PyTorch.  Reading order for the curious:
``grad_mode.py`` (is recording on?), ``function.py`` (what a node is),
``engine.py`` (how backward walks the graph), ``api.py`` (``backward`` and
``grad``), ``gradcheck.py`` (how to test a gradient with finite
differences), ``anomaly_mode.py`` (help for debugging a failed backward),
``variable.py`` (the pre-0.4 ``Variable``, for old code).
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
