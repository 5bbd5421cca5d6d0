"""``torch.nn``: modules with parameters, the layers and the loss the course needs.

==================  ==========================================================
``parameter.py``    ``Parameter``: a tensor registered as a learnable weight
``module.py``       ``Module``: parameters, sub-modules, ``to``, ``zero_grad``
``layers.py``       ``Linear``, ``ReLU``, ``Sequential``, ``MSELoss``
``functional.py``   ``linear``, ``relu``, ``mse_loss`` (``import ... as F``)
``init.py``         in-place initialisers (``kaiming_uniform_``, ...)
==================  ==========================================================
"""

from . import functional, init
from .layers import Identity, Linear, MSELoss, ReLU, Sequential
from .module import Module
from .parameter import Parameter

__all__ = ["Module", "Parameter", "Linear", "ReLU", "Sequential", "MSELoss", "Identity", "functional", "init"]


def __getattr__(name):                   # only for names the module does not have
    from .._arguments import missing_attribute
    raise missing_attribute("course_lib.nn", name)

