"""Widgets and figures for the course (ipywidgets + matplotlib).

Importing this package sets up a Chinese font for matplotlib.  Each widget
has a Python API (used by the tests) and leaves a static picture in the
saved notebook.
"""

from . import tensor_shapes
from .fonts import use_chinese_font

use_chinese_font()

from . import descent, graph  # noqa: E402 - chapters 06-07: computation graph, gradient descent

__all__ = ["use_chinese_font", "tensor_shapes"]
__all__ += ["graph", "descent"]

from . import broadcasting, memory  # noqa: E402 - chapters 03 and 05: memory layout, broadcasting explorer
from .broadcasting import BroadcastExplorer  # noqa: E402
from .memory import MemoryLayout  # noqa: E402

__all__ += ["memory", "broadcasting", "MemoryLayout", "BroadcastExplorer"]
