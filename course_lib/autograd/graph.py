"""``torch.autograd.graph``: the node type of the backward graph."""

from .function import Node

__all__ = ["Node"]
