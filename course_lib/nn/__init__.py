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
from ..torch_compat.names import public_module
from . import functional, init
from .activation import LogSoftmax, Sigmoid, Softmax, Softplus, Tanh
from .layers import Dropout, Flatten, Identity, Linear, MSELoss, ReLU, Sequential
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, NLLLoss
from .module import Module
from .parallel import DataParallel
from .parameter import Parameter

# Each class prints under PyTorch's module path with course_lib in front (README.md, "Class names"):
# type(nn.Linear(1, 1)) is <class 'course_lib.nn.modules.linear.Linear'> (PyTorch: torch.nn.modules.linear.Linear).
public_module("course_lib.nn.modules.module", Module)
public_module("course_lib.nn.modules.linear", Identity, Linear)
public_module("course_lib.nn.modules.container", Sequential)
public_module("course_lib.nn.modules.activation", ReLU, Sigmoid, Tanh, Softmax, LogSoftmax, Softplus)
public_module("course_lib.nn.modules.loss", MSELoss, L1Loss, NLLLoss, CrossEntropyLoss, BCELoss, BCEWithLogitsLoss)
public_module("course_lib.nn.modules.dropout", Dropout)
public_module("course_lib.nn.modules.flatten", Flatten)
public_module("course_lib.nn.parallel.data_parallel", DataParallel)

__all__ = ["Module", "Parameter", "Linear", "ReLU", "Sequential", "MSELoss", "Identity", "Flatten", "Dropout",
           "Sigmoid", "Tanh", "Softmax", "Softplus", "LogSoftmax", "L1Loss", "NLLLoss", "CrossEntropyLoss", "BCELoss",
           "BCEWithLogitsLoss", "DataParallel", "functional", "init", "parallel"]


def __getattr__(name):                   # only for names the module does not have
    raise _missing_attribute("course_lib.nn", name)

