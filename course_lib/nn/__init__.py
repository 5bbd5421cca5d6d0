"""``torch.nn``: modules with parameters, the layers and the loss the course needs.

==================  ==========================================================
``parameter.py``    ``Parameter``: a tensor registered as a learnable weight
``module.py``       ``Module``: parameters, sub-modules, ``to``, ``zero_grad``
``layers.py``       ``Linear``, ``ReLU``, ``Sequential``, ``Flatten``, ``Dropout``, ``MSELoss``
``activation.py``   ``Sigmoid``, ``Tanh``, ``Softmax``, ``LogSoftmax``
``loss.py``         ``L1Loss``, ``NLLLoss``, ``CrossEntropyLoss``, ``BCELoss``, ``BCEWithLogitsLoss``
``functional.py``   ``linear``, ``relu``, ``cross_entropy``, ... (``import ... as F``)
``init.py``         in-place initialisers (``kaiming_uniform_``, ...)
``parallel.py``     ``DataParallel`` (calls the module as it is without a GPU, as PyTorch does)
==================  ==========================================================
"""

from ..torch_compat.arguments import missing_attribute as _missing_attribute
from . import functional, init
from .activation import LogSoftmax, Sigmoid, Softmax, Softplus, Tanh
from .layers import Dropout, Flatten, Identity, Linear, MSELoss, ReLU, Sequential
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, NLLLoss
from .module import Module
from .parallel import DataParallel
from .parameter import Parameter

__all__ = ["Module", "Parameter", "Linear", "ReLU", "Sequential", "MSELoss", "Identity", "Flatten", "Dropout",
           "Sigmoid", "Tanh", "Softmax", "Softplus", "LogSoftmax", "L1Loss", "NLLLoss", "CrossEntropyLoss", "BCELoss",
           "BCEWithLogitsLoss", "DataParallel", "functional", "init", "parallel"]


def __getattr__(name):                   # only for names the module does not have
    raise _missing_attribute("course_lib.nn", name)

