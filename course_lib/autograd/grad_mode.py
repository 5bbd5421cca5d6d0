"""Grad mode: whether operations record the computation graph.

``no_grad``, ``enable_grad`` and ``set_grad_enabled`` work as context
managers and as decorators, exactly like their PyTorch namesakes.  The
switch is one module-level flag that every operation reads
(``grad_mode.enabled``).  In PyTorch it is thread-local; course_lib is
single-threaded.
"""

import functools

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode"]

enabled = True


def is_grad_enabled():
    """True when operations on tensors that require grad record the graph. Mirrors ``torch.is_grad_enabled``."""
    return enabled


def _set(mode):
    global enabled
    enabled = bool(mode)


class _GradModeContext:
    """Base for the context managers: remembers the previous mode and restores it."""

    mode = True

    def __enter__(self):
        self._prev = enabled
        _set(self.mode)
        return None

    def __exit__(self, *exc):
        _set(self._prev)
        return False

    def __call__(self, func):
        """Use as a decorator: ``@no_grad()`` (or ``@no_grad``) runs ``func`` in this mode."""
        mode = self.mode

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            prev = enabled
            _set(mode)
            try:
                return func(*args, **kwargs)
            finally:
                _set(prev)
        return wrapper


class no_grad(_GradModeContext):
    """Turn off graph recording: results of operations do not require grad.

    Use ``with torch.no_grad():`` when updating parameters or evaluating a
    model, or decorate a function with ``@torch.no_grad()``.  Mirrors
    ``torch.no_grad``.
    """

    mode = False

    def __new__(cls, func=None):
        self = super().__new__(cls)
        if callable(func):  # bare @no_grad without parentheses
            return self(func)
        return self

    def __init__(self, func=None):
        pass


class enable_grad(_GradModeContext):
    """Turn graph recording back on inside a ``no_grad`` block. Mirrors ``torch.enable_grad``."""

    mode = True

    def __new__(cls, func=None):
        self = super().__new__(cls)
        if callable(func):
            return self(func)
        return self

    def __init__(self, func=None):
        pass


class inference_mode(no_grad):
    """Like ``no_grad`` here (PyTorch adds more speed-ups). Mirrors ``torch.inference_mode``."""

    def __new__(cls, mode=True):
        self = object.__new__(cls)
        if callable(mode):
            self.mode = False
            return self(mode)
        self.mode = not mode
        return self

    def __init__(self, mode=True):
        pass


class set_grad_enabled(_GradModeContext):
    """Set grad mode to ``mode``: takes effect at once, and as a context manager restores it after.

    ``torch.set_grad_enabled(False)`` switches recording off globally;
    ``with torch.set_grad_enabled(flag):`` does so for a block.  Mirrors
    ``torch.set_grad_enabled``.

    Raises:
        TypeError: if ``mode`` is not a bool, with PyTorch's message.
    """

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                            f"{type(mode).__name__}")
        self._prev = enabled
        self.mode = mode
        _set(mode)

    def __enter__(self):
        return None

    def __call__(self, func):
        _set(self._prev)  # as a decorator it must not change the mode at definition time
        return super().__call__(func)
