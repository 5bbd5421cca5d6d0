"""The two tensor libraries an answer can be written with: course_lib and real PyTorch.

Chapter 00 promises that the course's code runs with ``import course_lib as torch`` and with
``import torch`` alike, so the checker must judge answers built with either library in the same
way.  This module is the only place that tells them apart:

* :func:`tensor_lib` picks the library a learner's namespace uses (the one bound to the name
  ``torch``), so a question builds its test inputs with the learner's library;
* :func:`is_tensor`, :func:`read_tensor` and :func:`dtype_text` read tensors and dtypes of either
  library into plain data, by the library's own base class (a subclass cannot dress up what it holds).

Real PyTorch is never imported here: it is used only when the learner's notebook has imported it
already (``sys.modules``), so course_lib still works, and is tested, without it.
"""

import sys

__all__ = ["tensor_lib", "torch_if_loaded", "is_tensor", "read_tensor", "dtype_text", "is_dtype",
           "is_device", "library_of"]


def torch_if_loaded():
    """The real ``torch`` module when something has imported it already, else None."""
    torch = sys.modules.get("torch")
    if torch is None or getattr(torch, "_C", None) is None:
        return None
    return torch


def tensor_lib(ns):
    """The tensor library the learner's namespace ``ns`` uses: the real ``torch`` module or ``course_lib``.

    It is the module bound to the name ``torch`` when that is real PyTorch (``import torch``); else,
    when ``ns`` holds real PyTorch under another name (``import torch as pt``) and no course_lib, real
    PyTorch; else course_lib (``import course_lib as torch``, or no import at all).
    """
    import course_lib
    torch = torch_if_loaded()
    if torch is None or not isinstance(ns, dict):
        return course_lib
    bound = ns.get("torch")
    if bound is torch:
        return torch
    if bound is course_lib:
        return course_lib
    values = list(ns.values())
    if any(v is course_lib for v in values):
        return course_lib
    if any(v is torch for v in values):
        return torch
    return course_lib


def library_of(value):
    """``"torch"`` or ``"course_lib"`` for a tensor of that library, else None."""
    import course_lib
    if isinstance(value, course_lib.Tensor):
        return "course_lib"
    torch = torch_if_loaded()
    if torch is not None and isinstance(value, torch._C.TensorBase):
        return "torch"
    return None


def is_tensor(value):
    """Whether ``value`` is a tensor of course_lib or of real PyTorch (subclasses included)."""
    return library_of(value) is not None


def read_tensor(value):
    """``(shape, dtype text, nested values, requires_grad, device type)`` of a tensor of either library.

    Read through the library's base class, so a subclass that overrides ``tolist``, ``dtype`` or
    ``__eq__`` changes nothing.  Raises ``TypeError`` for anything that is not a tensor.
    """
    lib = library_of(value)
    if lib == "course_lib":
        import course_lib
        T = course_lib.Tensor
        requires_grad = bool(T.requires_grad.__get__(value))
        device = T.device.__get__(value).type
        t = T.detach(value)
        if device != "cpu":
            t = T.cpu(t)
        array = T.numpy(t)
        return list(array.shape), str(T.dtype.__get__(value)), array.tolist(), requires_grad, device
    if lib == "torch":
        torch = torch_if_loaded()
        T = torch._C.TensorBase
        with torch._C.DisableTorchFunctionSubclass():
            requires_grad = bool(T.requires_grad.__get__(value))
            device = T.device.__get__(value).type
            t = T.detach(value)
            if device != "cpu":
                t = T.cpu(t)
            shape = [int(n) for n in T.shape.__get__(t)]
            return shape, str(T.dtype.__get__(value)), T.tolist(t), requires_grad, device
    raise TypeError(f"not a tensor: {type(value).__name__}")


def is_dtype(value):
    """Whether ``value`` is a dtype object of course_lib or of real PyTorch."""
    import course_lib
    if isinstance(value, course_lib.dtype):
        return True
    torch = torch_if_loaded()
    return torch is not None and isinstance(value, torch.dtype)


def is_device(value):
    """Whether ``value`` is a device object of course_lib or of real PyTorch."""
    import course_lib
    if isinstance(value, course_lib.device):
        return True
    torch = torch_if_loaded()
    return torch is not None and isinstance(value, torch.device)


def dtype_text(value):
    """``"torch.float32"`` for a dtype object of either library, else None."""
    return str(value) if is_dtype(value) else None
