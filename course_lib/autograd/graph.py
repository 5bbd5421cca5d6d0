"""``torch.autograd.graph``: the node type of the backward graph (``course_lib/core/graph.py``)."""

from ..core.graph import Node

__all__ = ["Node"]
