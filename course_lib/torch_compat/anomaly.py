"""Anomaly detection: help for finding the operation whose backward failed.

PyTorch's "modified by an inplace operation" error suggests
``torch.autograd.set_detect_anomaly(True)``; with it on, as in PyTorch:

* every recorded node remembers where in your code it was created, and an
  error in its backward first warns "Error detected in MulBackward0.
  Traceback of forward call that caused the error:" followed by that place;
* with ``check_nan`` (the default), a backward formula that produces NaN
  raises "Function 'SqrtBackward0' returned nan values in its 0th output.".

It costs time: leave it off except when debugging.
"""

import traceback
import warnings

import numpy as np

from ..core import hooks
from ..core.backend import backend_of

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled"]

enabled = False
check_nan = True


def is_anomaly_enabled():
    """True inside ``detect_anomaly()`` / after ``set_detect_anomaly(True)``. Mirrors ``torch.is_anomaly_enabled``."""
    return enabled


def is_anomaly_check_nan_enabled():
    """True when anomaly mode also checks backward results for NaN. Mirrors ``torch.is_anomaly_check_nan_enabled``."""
    return check_nan


def _state():
    return enabled, check_nan


_PLAIN_HINT = hooks.modified_hint
_ANOMALY_HINT = ("the backtrace further above shows the operation that failed to compute its gradient. The variable "
                 "in question was changed in there or anywhere later. Good luck!")


def _set(mode, nan):
    """Switch anomaly mode, and with it the core's hooks: nodes keep their forward stack, the engine runs each
    node through ``_run_node``, the in-place error ends with another hint."""
    global enabled, check_nan
    enabled, check_nan = bool(mode), bool(nan)
    hooks.node_created = _keep_forward_stack if enabled else None
    hooks.run_node = _run_node if enabled else None
    hooks.modified_hint = _ANOMALY_HINT if enabled else _PLAIN_HINT


class detect_anomaly:
    """Context manager that turns anomaly detection on (and warns that it is slow). Mirrors
    ``torch.autograd.detect_anomaly``."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                      "enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self):
        self._prev = _state()
        _set(True, self.check_nan)

    def __exit__(self, *exc):
        _set(*self._prev)
        return False


class set_detect_anomaly:
    """Turn anomaly detection on or off; as a context manager, only for the block. Mirrors
    ``torch.autograd.set_detect_anomaly``."""

    def __init__(self, mode, check_nan=True):
        self._prev = _state()
        _set(mode, check_nan)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        _set(*self._prev)
        return False


def _keep_forward_stack(node):
    """Where the operation that made ``node`` was called from (kept by nodes while anomaly mode is on)."""
    node._forward_stack = traceback.format_stack()[:-4]


def _run_node(apply, node, grads, shared):
    """The engine's ``apply`` of one node in anomaly mode: NaN results raise, and an error first warns with
    the node's name and forward stack."""
    try:
        out = apply(node, grads, shared)
        if check_nan:
            for i, g in enumerate(out):
                if g is not None and backend_of(np.asarray(g) if isinstance(g, np.generic) else g).isnan(g).any():
                    raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
    except Exception:
        warn_error_in(node)
        raise
    return out


def warn_error_in(node):
    """PyTorch's warning before an anomaly-mode backward error: the failing node and its forward traceback."""
    stack = "".join(getattr(node, "_forward_stack", ()))
    warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n{stack}",
                  UserWarning, stacklevel=4)
