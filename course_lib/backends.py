"""``torch.backends``: which hardware back ends exist.

course_lib computes with NumPy on the CPU and CuPy on CUDA GPUs; it has no
Apple MPS back end and does not call cuDNN.  The attributes PyTorch code
commonly reads or sets are here so that such code runs:

* ``torch.backends.mps.is_available()`` is False (use ``'cpu'`` or ``'cuda'``);
* ``torch.backends.cudnn.benchmark`` / ``deterministic`` / ``enabled`` can be
  read and set (they change nothing here); ``cudnn.is_available()`` is False
  and ``cudnn.version()`` None, as in PyTorch's CPU build.
"""

import types

__all__ = ["mps", "cudnn"]


def _module(name, doc, **attrs):
    module = types.ModuleType(f"course_lib.backends.{name}", doc)
    for key, value in attrs.items():
        setattr(module, key, value)
    return module


def _false():
    """False: course_lib has no such back end."""
    return False


def _none():
    """None: course_lib does not use cuDNN."""
    return None


mps = _module("mps", "Apple's Metal GPUs: course_lib has no MPS back end, so ``is_available()`` is False.",
              is_available=_false, is_built=_false)
cudnn = _module("cudnn", "NVIDIA's cuDNN: course_lib does not use it; the flags can be set and change nothing.",
                is_available=_false, version=_none, enabled=True, benchmark=False, deterministic=False,
                allow_tf32=True)
