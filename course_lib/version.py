"""``torch.version``: what this build is.

``__version__`` is course_lib's own version (the same as ``course_lib.__version__``), not a PyTorch
version: code that checks ``torch.__version__`` for a PyTorch release should not be fooled.
``cuda`` and ``hip`` are None, as in PyTorch's CPU build: course_lib is not compiled against CUDA
(it reaches a GPU through CuPy, when installed; ``torch.cuda.is_available()`` says whether it can).
"""

__all__ = ["__version__", "cuda", "hip", "debug"]

__version__ = "0.1.0"
cuda = None
hip = None
debug = False
