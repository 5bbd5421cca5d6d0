"""``torch.autograd.grad_mode``: the grad-mode context managers (``course_lib/core/grad_mode.py``) and
inference mode (``course_lib/torch_compat/inference.py``), under PyTorch's module name."""

from ..core import grad_mode as _core
from ..core.grad_mode import enable_grad, is_grad_enabled, no_grad
from ..torch_compat.inference import inference_mode, is_inference_mode_enabled

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled"]


class set_grad_enabled(_core.set_grad_enabled):
    """Set grad mode to ``mode``: at once, and as a context manager for a block (then the previous mode
    comes back). Mirrors ``torch.set_grad_enabled``.

    Raises:
        TypeError: ``mode`` is not a bool, with PyTorch's message.
    """

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                            f"{type(mode).__name__}")
        super().__init__(mode)

    def __repr__(self):                       # PyTorch's text (README.md, "Class names")
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.mode})"


# The classes of core/ and torch_compat/ print under PyTorch's module path, course_lib in front (README.md, "Class
# names"): type(torch.no_grad()) is <class 'course_lib.autograd.grad_mode.no_grad'>.
no_grad.__module__ = enable_grad.__module__ = inference_mode.__module__ = __name__
