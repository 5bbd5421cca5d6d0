"""Grad mode: whether operations record the graph that ``backward()`` walks (README.md, 7).

The mode belongs to the thread that sets it: every thread starts with recording on, and ``no_grad()``
in one thread does not stop another from recording.

In PyTorch: ``c10/core/GradMode.h`` (a thread-local flag) and ``torch/autograd/grad_mode.py``.
"""

import functools
import threading

__all__ = ["is_grad_enabled", "no_grad", "enable_grad", "set_grad_enabled"]


class _Mode(threading.local):
    enabled = True                       # what every thread starts with


state = _Mode()            # state.enabled: this thread's grad mode


def is_grad_enabled():
    """True when operations on tensors that require grad record the graph. Mirrors ``torch.is_grad_enabled``."""
    return state.enabled


class _GradMode:
    """A context manager and decorator that runs a block with grad mode ``mode``, then restores it."""

    mode = True

    def __new__(cls, func=None):         # also usable without parentheses: @torch.no_grad
        self = super().__new__(cls)
        return self(func) if callable(func) else self

    def __init__(self, func=None):
        pass

    def __enter__(self):
        self._previous = state.enabled
        state.enabled = self.mode

    def __exit__(self, *exc):
        state.enabled = self._previous
        return False

    def __call__(self, func):
        mode = self.mode

        @functools.wraps(func)
        def run_in_mode(*args, **kwargs):
            previous, state.enabled = state.enabled, mode
            try:
                return func(*args, **kwargs)
            finally:
                state.enabled = previous
        return run_in_mode


class no_grad(_GradMode):
    """Record nothing: results do not require grad. Use it to update parameters or to evaluate a
    model. Mirrors ``torch.no_grad``."""

    mode = False


class enable_grad(_GradMode):
    """Record again, inside a ``no_grad`` block. Mirrors ``torch.enable_grad``."""


class set_grad_enabled(_GradMode):
    """Set grad mode to ``mode`` at once; as a context manager, restore the previous mode after the
    block. Mirrors ``torch.set_grad_enabled``."""

    def __new__(cls, mode):
        return object.__new__(cls)

    def __init__(self, mode):
        self._previous, self.mode = state.enabled, mode
        state.enabled = mode

    def __enter__(self):
        pass

    def __call__(self, func):            # as a decorator it must not change the mode where it is written
        state.enabled = self._previous
        return super().__call__(func)
