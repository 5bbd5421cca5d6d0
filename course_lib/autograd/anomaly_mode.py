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


def _set(mode, nan):
    global enabled, check_nan
    enabled, check_nan = bool(mode), bool(nan)


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


def forward_stack():
    """Where the current operation was called from (kept by nodes while anomaly mode is on)."""
    return traceback.format_stack()[:-3]


def warn_error_in(node):
    """PyTorch's warning before an anomaly-mode backward error: the failing node and its forward traceback."""
    stack = "".join(getattr(node, "_forward_stack", ()))
    warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n{stack}",
                  UserWarning, stacklevel=4)
