"""``torch.nn.init``: fill a weight tensor in place (under no_grad) with a chosen distribution.

``nn.Linear`` uses ``kaiming_uniform_(weight, a=sqrt(5))``, which draws each
weight from ``U(-1/sqrt(in_features), 1/sqrt(in_features))``, and the same
bound for the bias.  The draws come from course_lib's generator
(``torch.manual_seed``): the distribution is PyTorch's, the numbers are not.
"""

import math

from ..core import grad_mode

__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "zeros_", "ones_", "kaiming_uniform_",
           "xavier_uniform_"]


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for an activation: 1 for linear/sigmoid, sqrt(2) for relu,
    ``sqrt(2 / (1 + a**2))`` for leaky_relu with slope ``a`` (default 0.01). Mirrors ``nn.init.calculate_gain``.

    Raises:
        ValueError: an unknown nonlinearity or a bad ``param``.
    """
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
              "sigmoid")
    if nonlinearity in linear:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    dims = tensor.dim()
    if dims < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = 1
    for s in tensor.shape[2:]:
        receptive *= s
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill ``tensor`` with draws from ``U(a, b)``, in place; return it. Mirrors ``nn.init.uniform_``."""
    with grad_mode.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill ``tensor`` with draws from ``N(mean, std**2)``, in place; return it. Mirrors ``nn.init.normal_``."""
    with grad_mode.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor, val):
    """Fill ``tensor`` with ``val``, in place; return it. Mirrors ``nn.init.constant_``."""
    with grad_mode.no_grad():
        return tensor.fill_(val)


def zeros_(tensor):
    """Fill ``tensor`` with 0, in place; return it. Mirrors ``nn.init.zeros_``."""
    return constant_(tensor, 0.0)


def ones_(tensor):
    """Fill ``tensor`` with 1, in place; return it. Mirrors ``nn.init.ones_``."""
    return constant_(tensor, 1.0)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He initialisation: ``U(-bound, bound)``, ``bound = gain * sqrt(3 / fan)``. Mirrors ``nn.init.kaiming_uniform_``.

    Raises:
        ValueError: a tensor with fewer than 2 dimensions, or an unknown ``mode``.
    """
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    if 0 in tensor.shape:
        return tensor
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator=generator)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot initialisation: ``U(-a, a)`` with ``a = gain * sqrt(6 / (fan_in + fan_out))``.
    Mirrors ``nn.init.xavier_uniform_``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator=generator)
