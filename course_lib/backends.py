"""``torch.backends``: which hardware back ends exist.

course_lib computes with NumPy on the CPU and CuPy on CUDA GPUs; it has no
Apple MPS back end and does not call cuDNN.  The attributes PyTorch code
commonly reads or sets are here so that such code runs:

* ``torch.backends.mps.is_available()`` is False (use ``'cpu'`` or ``'cuda'``);
* ``torch.backends.cudnn.benchmark`` / ``deterministic`` / ``enabled`` can be
  read and set (they change nothing here); ``cudnn.is_available()`` is False
  and ``cudnn.version()`` None, as in PyTorch's CPU build;
* ``torch.backends.cuda.is_built()`` says whether CUDA can be used (False on a CPU-only machine, as in PyTorch's
  CPU build) and ``torch.backends.cuda.matmul.allow_tf32`` (False) can be set.
"""

import types

from .devices import cuda_backend

__all__ = ["cuda", "cudnn", "mps"]


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


class _CuBLASModule:
    """``torch.backends.cuda.matmul``: the cuBLAS precision flags (they change nothing in course_lib)."""

    _FLAGS = ("allow_tf32", "allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction")

    def __init__(self):
        object.__setattr__(self, "allow_tf32", False)
        object.__setattr__(self, "allow_fp16_reduced_precision_reduction", True)
        object.__setattr__(self, "allow_bf16_reduced_precision_reduction", True)

    def __getattr__(self, name):
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name not in self._FLAGS:
            raise AttributeError(f"Unknown attribute {name}")
        object.__setattr__(self, name, value)


def _cuda_is_built():
    """Whether CUDA can be used: True with CuPy on a GPU or under ``torch.cuda.simulate()``."""
    return cuda_backend() is not None


cuda = _module("cuda", "CUDA flags: ``is_built()`` and ``matmul.allow_tf32`` (which changes nothing here).",
               is_built=_cuda_is_built, matmul=_CuBLASModule())
