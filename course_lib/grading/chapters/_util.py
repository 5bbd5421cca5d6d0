"""Small helpers shared by the chapter tests: plain data in, tensors out, and back."""

import numpy as np

from ..engines import dtype_text

__all__ = ["rng_values", "make_tensor", "dtype_name", "np_dtype", "label_tensor"]


def rng_values(seed, shape, low=-3.0, high=3.0, integers=False, decimals=2):
    """Deterministic test values as nested lists (same in every process): floats rounded, or ints."""
    rng = np.random.default_rng(seed)
    if integers:
        return rng.integers(int(low), int(high), size=shape).tolist()
    return np.round(rng.uniform(low, high, size=shape), decimals).tolist()


def make_tensor(spec, lib=None):
    """Build a tensor from ``{"values": ..., "dtype": "float32", "requires_grad": bool}``.

    ``lib`` is the tensor library to build it with (``tensor_lib(ns)``: the learner's ``torch``,
    real PyTorch or course_lib); course_lib when not given.
    """
    if lib is None:
        import course_lib as lib
    return lib.tensor(spec["values"], dtype=getattr(lib, spec.get("dtype", "float32")),
                      requires_grad=spec.get("requires_grad", False))


def np_dtype(name):
    """NumPy dtype of a torch dtype name (``"float32"`` or ``"torch.float32"``)."""
    return np.dtype(name.replace("torch.", ""))


def dtype_name(value):
    """``torch.float32`` (a dtype of course_lib or of real PyTorch) -> ``"torch.float32"``.

    Anything else becomes ``{"type": ...}``; a dtype written as text (``"float32"`` or
    ``"torch.float32"``) becomes ``{"type": "str", "text": ...}`` so that the verdict can say so.
    """
    text = dtype_text(value)
    if text is not None:
        return text
    if isinstance(value, str):
        return {"type": "str", "text": value[:40]}
    return {"type": type(value).__name__}


def label_tensor(spec):
    """How a tensor input reads in a verdict: ``tensor(shape=(2, 3), dtype=torch.float32)``."""
    shape = np.shape(spec["values"])
    extra = ", requires_grad=True" if spec.get("requires_grad") else ""
    if len(shape) == 0 or np.size(spec["values"]) <= 12:
        return f"torch.tensor({spec['values']}, dtype=torch.{spec.get('dtype', 'float32')}{extra})"
    return f"形状为 {tuple(shape)} 的 torch.{spec.get('dtype', 'float32')} 张量{extra}"
