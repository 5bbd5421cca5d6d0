"""Grad mode: whether operations record the computation graph.

``no_grad``, ``enable_grad`` and ``set_grad_enabled`` work as context
managers and as decorators, exactly like their PyTorch namesakes.  The
switch is one module-level flag that every operation reads
(``grad_mode.enabled``).  In PyTorch it is thread-local; course_lib is
single-threaded.
"""

import functools

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled"]

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


inference = False        # inside torch.inference_mode()

INFERENCE_SAVED_ERROR = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in "
                         "inference mode in computation tracked by autograd. To work around this, you can make a "
                         "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
                         "`torch.inference_mode()`.")
INFERENCE_INPLACE_ERROR = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
                           "clone to get a normal tensor before doing inplace update.See "
                           "https://github.com/pytorch/rfcs/pull/17 for more details.")


class _InferenceVersion(list):
    """The version counter of every inference tensor (PyTorch's have none): reads 0; an in-place write
    outside inference mode raises PyTorch's error."""

    def __setitem__(self, i, value):
        if not inference:
            raise RuntimeError(INFERENCE_INPLACE_ERROR)


INFERENCE_VERSION = _InferenceVersion([0])


def _new_inference(cls):
    """``object.__new__`` inside inference mode: the new tensor is an inference tensor."""
    t = object.__new__(cls)
    t._version_ref = INFERENCE_VERSION
    return t


def _set_inference(on):
    """Inference mode on or off: the tensors made meanwhile are inference tensors (the two places that make
    tensors, ``_tensor.wrap`` and ``ops/_dispatch``, call ``_new``, switched here: nothing to check elsewhere)."""
    global inference
    from .. import _tensor
    from ..ops import _dispatch
    inference = on
    _tensor._new = _dispatch._new = _new_inference if on else object.__new__


def is_inference_mode_enabled():
    """True inside ``torch.inference_mode()``. Mirrors ``torch.is_inference_mode_enabled``."""
    return inference


class inference_mode(no_grad):
    """``no_grad`` that also makes *inference tensors*: PyTorch's faster mode for evaluating a model.

    Tensors made inside are inference tensors (``x.is_inference()``); outside the block they cannot be
    saved for backward (``w * x`` with ``w`` requiring grad raises), be given ``requires_grad=True``, or be
    changed in place, with PyTorch's messages; ``x.clone()`` is a normal tensor. Mirrors
    ``torch.inference_mode`` (``inference_mode(False)`` switches it off inside a block).
    """

    def __new__(cls, mode=True):
        self = object.__new__(cls)
        if callable(mode):
            self.inference = True
            return self(mode)
        self.inference = bool(mode)
        return self

    def __init__(self, mode=True):
        pass

    def __enter__(self):
        self._prev = (enabled, inference)
        _set(not self.inference)              # inference_mode(False) turns grad mode on, as PyTorch's does
        _set_inference(self.inference)

    def __exit__(self, *exc):
        _set(self._prev[0])
        _set_inference(self._prev[1])
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with inference_mode(self.inference):
                return func(*args, **kwargs)
        return wrapper


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
