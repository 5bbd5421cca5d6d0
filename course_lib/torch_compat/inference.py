"""``torch.inference_mode()``: ``no_grad`` that also makes *inference tensors*.

Tensors made inside the mode are inference tensors (``x.is_inference()``).  Outside it they cannot be
saved for backward, be given ``requires_grad=True`` or be changed in place, and they have no version
counter; ``x.clone()`` is a normal tensor.  course_lib marks an inference tensor by its version
counter, one shared list (:data:`INFERENCE_VERSION`) whose writes raise outside the mode.  While some
thread is in the mode, the core's ``hooks.new`` makes that thread's new tensors inference tensors.

In PyTorch: ``c10/core/InferenceMode.h`` (thread-local, like this one) and ``torch/autograd/grad_mode.py``.
"""

import functools
import threading

from ..core import hooks
from ..core.grad_mode import no_grad, state
from ..core.tensor import Tensor

__all__ = ["inference_mode", "is_inference_mode_enabled", "is_inference", "INFERENCE_VERSION"]

INFERENCE_SAVED_ERROR = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in "
                         "inference mode in computation tracked by autograd. To work around this, you can make a "
                         "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
                         "`torch.inference_mode()`.")
INFERENCE_INPLACE_ERROR = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
                           "clone to get a normal tensor before doing inplace update.See "
                           "https://github.com/pytorch/rfcs/pull/17 for more details.")
INFERENCE_FLAG_ERROR = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."


class _Mode(threading.local):
    on = False


_mode = _Mode()
_inside = [0]                  # how many inference_mode blocks are open, in all threads


def is_inference_mode_enabled():
    """True inside ``torch.inference_mode()`` (in this thread). Mirrors ``torch.is_inference_mode_enabled``."""
    return _mode.on


class _InferenceVersion(list):
    """The version counter of every inference tensor: reads 0; a write outside inference mode raises."""

    def __setitem__(self, i, value):
        if not _mode.on:
            raise RuntimeError(INFERENCE_INPLACE_ERROR)


INFERENCE_VERSION = _InferenceVersion([0])


def _new(cls):
    """``hooks.new`` while a thread is in inference mode: that thread's new tensors are inference tensors."""
    t = object.__new__(cls)
    if _mode.on:
        t._version_ref = INFERENCE_VERSION
    return t


def _refuse_saved(counter):
    """``hooks.check_saved``: an inference tensor cannot be saved for backward."""
    if counter is INFERENCE_VERSION:
        raise RuntimeError(INFERENCE_SAVED_ERROR)


hooks.check_saved = _refuse_saved


class inference_mode(no_grad):
    """``no_grad`` that also makes inference tensors (see the module's docstring). Mirrors
    ``torch.inference_mode`` (``inference_mode(False)`` switches it off inside a block)."""

    def __new__(cls, mode=True):
        self = object.__new__(cls)
        self.inference = True if callable(mode) else bool(mode)
        return self(mode) if callable(mode) else self

    def __init__(self, mode=True):
        pass

    def __enter__(self):
        self._prev = (state.enabled, _mode.on)
        state.enabled = not self.inference         # inference_mode(False) turns grad mode on, as PyTorch's does
        _mode.on = self.inference
        _inside[0] += 1
        hooks.new = _new

    def __exit__(self, *exc):
        state.enabled, _mode.on = self._prev
        _inside[0] -= 1
        if not _inside[0]:
            hooks.new = object.__new__
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def run_in_mode(*args, **kwargs):
            with inference_mode(self.inference):
                return func(*args, **kwargs)
        return run_in_mode


def is_inference(input):
    """``input.is_inference()``. Mirrors ``torch.is_inference``."""
    return input.is_inference()


# -- what inference tensors change in the Tensor API ----------------------------------------------------

def _is_inference(self):
    """True for a tensor made in ``torch.inference_mode()`` (or a view of one). Mirrors ``Tensor.is_inference``."""
    return self._version_ref is INFERENCE_VERSION


def _refuse_flag(setter):
    """``requires_grad`` cannot be switched on for an inference tensor outside the mode."""
    @functools.wraps(setter)
    def set_flag(self, flag=True):
        if flag is True and self._version_ref is INFERENCE_VERSION and not _mode.on and self.is_leaf \
                and self._data.dtype.kind == "f":
            raise RuntimeError(INFERENCE_FLAG_ERROR)
        return setter(self, flag)
    return set_flag


def _version(self):
    """How many in-place writes this tensor's memory has seen.

    Raises:
        RuntimeError: for an inference tensor (PyTorch's message).
    """
    if self._version_ref is INFERENCE_VERSION:
        raise RuntimeError("Inference tensors do not track version counter.")
    return self._version_counter()[0]


Tensor.is_inference = _is_inference
Tensor._version = property(_version)
Tensor.requires_grad = property(Tensor.requires_grad.fget, _refuse_flag(Tensor.requires_grad.fset))
Tensor.requires_grad_ = _refuse_flag(Tensor.requires_grad_)
