"""The computation graph behind a tensor, and a step-by-step ``backward()``.

Three layers, each usable on its own:

* :func:`graph_of` reads the graph PyTorch-style, by walking
  ``grad_fn.next_functions`` from a tensor: grad_fn nodes, the
  ``AccumulateGrad`` node of each leaf, the leaf tensors (with shapes) and
  the values each node saved for backward.  It returns plain data
  (:class:`Graph`: ``nodes`` and ``edges``); in a notebook it shows itself
  as a picture.
* :class:`BackwardStepper` runs the real engine once
  (``course_lib.core.engine.run_backward`` with a ``trace`` callback),
  records what every node received and produced, and then replays that
  record one node per :meth:`~BackwardStepper.step`: the gradient on every
  edge so far and each leaf's ``.grad`` as it accumulates.
* :class:`GraphWidget` (ipywidgets) shows the picture with the buttons
  下一步 / 上一步 / 重新开始.  Saved in a notebook, it also leaves a PNG, so
  the page reads well without a kernel.

Layout: igraph's Sugiyama layout (the output on top, the leaves at the
bottom; an arrow points the way ``next_functions`` and the gradients go),
drawn with matplotlib.  No graphviz binary is needed.

Example::

    x = torch.tensor([2., 3.], requires_grad=True)
    z = (x * x).sum()
    s = BackwardStepper(z, names={"x": x, "z": z})
    s.step()                  # the output: dz/dz = 1
    s.step()                  # SumBackward0
    s.leaf_grads()            # {'x': None} - AccumulateGrad has not run yet
    s.run()                   # to the end; s.leaf_grads()['x'] == [4., 6.]
"""

import base64
import inspect
import io
from dataclasses import dataclass, field

import numpy as np

import course_lib as _torch

from ..autograd.api import _initial_grads
from ..core import graph as _function
from ..core.backend import to_numpy
from ..core.engine import run_backward
from ..core.layout import sum_to
from . import pictures
from .fonts import use_chinese_font

__all__ = ["GraphNode", "GraphEdge", "Graph", "Step", "graph_of", "BackwardStepper", "draw_graph",
           "GraphWidget", "format_grad"]

# Node kinds, and how they are drawn (face colour).
KIND_COLORS = {
    "output": "#e4d7f5",      # the tensor backward() starts from
    "function": "#d6e6f7",    # a grad_fn node (MulBackward0, ...)
    "accumulate": "#e9e9e9",  # AccumulateGrad
    "leaf": "#d5f0d5",        # a leaf tensor that requires grad
    "saved": "#fde3c8",       # a value saved for backward
}
KIND_NAMES = {"output": "输出张量", "function": "grad_fn 节点", "accumulate": "AccumulateGrad",
              "leaf": "叶节点", "saved": "保存的张量"}


@dataclass(frozen=True)
class GraphNode:
    """One box of the picture.

    Attributes:
        id: a short stable name: ``'out'``, ``'f0'``, ``'acc0'``, ``'leaf0'``, ``'saved0'``...
        kind: ``'output'``, ``'function'``, ``'accumulate'``, ``'leaf'`` or ``'saved'``.
        label: the text in the box (``'MulBackward0'``, ``'x'``...).
        shape: the tensor's shape as a tuple (``None`` for function nodes).
        name: the variable name of an output or leaf tensor, if known.
        obj: the engine object (a ``Node``, a ``Tensor`` or a saved array).
    """

    id: str
    kind: str
    label: str
    shape: tuple = None
    name: str = None
    obj: object = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class GraphEdge:
    """An arrow from ``source`` to ``target``.

    ``kind`` is ``'grad'`` (an entry of ``next_functions``: gradients flow
    along it), ``'leaf'`` (an AccumulateGrad writes into its leaf's ``.grad``)
    or ``'saved'`` (a function node and a value it saved).  ``index`` is the
    position in ``next_functions`` (or in the saved tuple), so the two edges
    of ``x * x`` to the same AccumulateGrad stay apart.
    """

    source: str
    target: str
    kind: str = "grad"
    index: int = 0


@dataclass
class Graph:
    """The nodes and edges :func:`graph_of` found; shows itself as a picture in Jupyter."""

    nodes: list
    edges: list

    def node(self, node_id):
        """The :class:`GraphNode` with this id (KeyError if none)."""
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    def find(self, label):
        """The nodes whose label (or name) is ``label``, e.g. ``g.find('MulBackward0')``."""
        return [n for n in self.nodes if n.label == label or n.name == label]

    def names(self, kind=None):
        """The labels of the nodes, in order (only those of ``kind`` if given)."""
        return [n.label for n in self.nodes if kind is None or n.kind == kind]

    def id_of(self, obj):
        """The id of the node that stands for ``obj`` (a Node or a Tensor), or None."""
        for n in self.nodes:
            if n.obj is obj:
                return n.id
        return None

    def _repr_png_(self):
        return _png(draw_graph(self))

    def __repr__(self):
        return f"Graph({len(self.nodes)} nodes, {len(self.edges)} edges)"


# ---------------------------------------------------------------------------
# Reading the graph
# ---------------------------------------------------------------------------

def _caller_names(depth=2):
    """``{id(tensor): name}`` for the Tensors in the caller's variables (names starting with '_' skipped)."""
    frame = inspect.currentframe()
    try:
        for _ in range(depth):
            frame = frame.f_back if frame is not None else None
        if frame is None:
            return {}
        found = {}
        for scope in (frame.f_locals, frame.f_globals):
            for k, v in list(scope.items()):
                if isinstance(v, _torch.Tensor) and not k.startswith("_") and id(v) not in found:
                    found[id(v)] = k
        return found
    finally:
        del frame


def _name_table(names):
    if names is None:
        return {}
    return {id(t): k for k, t in names.items()}


def graph_of(tensor, names=None, saved=True):
    """Read the backward graph behind ``tensor`` by walking ``grad_fn.next_functions``.

    Args:
        tensor: the output whose graph to read; it must require grad.
        names: ``{"x": x, ...}`` to label tensors; by default the caller's
            variables that hold the tensors are used.
        saved: include the values each node saved for backward.

    Returns:
        A :class:`Graph`.  Nodes come in depth-first order from the output,
        inputs in ``next_functions`` order; leaves without a name are
        labelled ``leaf0``, ``leaf1``...  A node whose saved values were
        already freed by ``backward()`` gets one ``saved`` node labelled
        ``已释放``.

    Raises:
        ValueError: ``tensor`` has no graph (it does not require grad).
    """
    table = _name_table(names) if names is not None else _caller_names()
    return _build(tensor, table, saved)


def _shape_text(shape):
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _build(tensor, table, with_saved=True):
    if not isinstance(tensor, _torch.Tensor):
        raise TypeError(f"要画计算图，需要传入一个张量（Tensor），例如 graph_of(loss)；"
                        f"得到的是 {type(tensor).__name__}")
    if tensor.grad_fn is None and not tensor.requires_grad:
        raise ValueError("这个张量不需要梯度（requires_grad=False），它背后没有计算图")
    nodes, edges = [], []
    counters = {}

    def new_id(prefix):
        k = counters.get(prefix, 0)
        counters[prefix] = k + 1
        return f"{prefix}{k}"

    out_name = table.get(id(tensor))
    shape = tuple(tensor.shape)
    nodes.append(GraphNode("out", "output", out_name or "输出", shape, out_name, tensor))
    first = tensor.grad_fn if tensor.grad_fn is not None else _function.accumulator_of(tensor)
    ids = {}

    def node_for(fn):
        if fn in ids:
            return ids[fn], False
        if isinstance(fn, _function.AccumulateGrad):
            nid = new_id("acc")
            nodes.append(GraphNode(nid, "accumulate", "AccumulateGrad", None, None, fn))
        else:
            nid = new_id("f")
            nodes.append(GraphNode(nid, "function", fn.name(), None, None, fn))
        ids[fn] = nid
        return nid, True

    root_id, _ = node_for(first)
    edges.append(GraphEdge("out", root_id, "grad", 0))
    stack = [first]
    while stack:
        fn = stack.pop()
        nid = ids[fn]
        if isinstance(fn, _function.AccumulateGrad):
            leaf = fn.variable
            name = table.get(id(leaf))
            lid = new_id("leaf")
            nodes.append(GraphNode(lid, "leaf", name or lid, tuple(leaf.shape), name, leaf))
            edges.append(GraphEdge(nid, lid, "leaf", 0))
            continue
        if with_saved:
            _add_saved(fn, nid, nodes, edges, new_id)
        children = []
        for k, (nxt, _nr) in enumerate(fn.next_functions):
            if nxt is None:
                continue
            cid, is_new = node_for(nxt)
            edges.append(GraphEdge(nid, cid, "grad", k))
            if is_new:
                children.append(nxt)
        stack.extend(reversed(children))   # depth first, first input first
    return Graph(nodes, edges)


def _add_saved(fn, nid, nodes, edges, new_id):
    values = fn.__dict__.get("_saved", ())
    if values is _function.FREED:
        sid = new_id("saved")
        nodes.append(GraphNode(sid, "saved", "已释放", None, None, None))
        edges.append(GraphEdge(nid, sid, "saved", 0))
        return
    for k, v in enumerate(values):
        if v is None:
            continue
        if isinstance(v, _torch.Tensor):
            shape = tuple(v.shape)
        elif hasattr(v, "shape") and hasattr(v, "dtype"):
            shape = tuple(v.shape)
        else:
            continue                  # a Python number: not a tensor
        sid = new_id("saved")
        nodes.append(GraphNode(sid, "saved", "saved " + _shape_text(shape), shape, None, v))
        edges.append(GraphEdge(nid, sid, "saved", k))


# ---------------------------------------------------------------------------
# Stepping through backward()
# ---------------------------------------------------------------------------

@dataclass
class Step:
    """What one node did during ``backward()``.

    Attributes:
        index: 1 for the first step (the output hands out its gradient).
        node_id: the :class:`GraphNode` id of the node that ran.
        name: its name (``'MulBackward0'``, ``'AccumulateGrad'``, or the output's label).
        grads_in: the gradient(s) that arrived at the node (NumPy arrays).
        grads_out: ``{GraphEdge: array}``, the gradient sent along each
            outgoing edge, already summed back to the input's shape, as the
            engine does before passing it on.
        leaf_id: for AccumulateGrad, the leaf it writes to.
        leaf_grad: for AccumulateGrad, the leaf's ``.grad`` after this step.
    """

    index: int
    node_id: str
    name: str
    grads_in: tuple
    grads_out: dict
    leaf_id: str = None
    leaf_grad: np.ndarray = None


class BackwardStepper:
    """Step through ``output.backward(gradient)`` one node at a time.

    The first :meth:`step` runs the real engine once (it fills the leaves'
    ``.grad`` exactly as ``backward()`` does, and frees the graph unless
    ``retain_graph=True``), recording each node as it runs; the steps then
    replay that record in the engine's order.  Step 1 is the output handing
    out the starting gradient (ones for a scalar, ``gradient`` otherwise).

    Args:
        output: the tensor to call backward on.
        gradient: as in ``Tensor.backward``: needed for non-scalar outputs.
        retain_graph: as in ``Tensor.backward``.
        names: ``{"x": x, ...}``; by default the caller's variable names.

    Raises:
        ValueError: ``output`` has no graph.
        RuntimeError: (on the first step) whatever ``backward()`` raises,
            e.g. "grad can be implicitly created only for scalar outputs".
    """

    def __init__(self, output=None, gradient=None, retain_graph=False, names=None, _table=None):
        if output is None:
            raise TypeError("BackwardStepper 需要一个张量：BackwardStepper(loss) 一步一步重放 loss.backward()")
        if _table is None:
            _table = _name_table(names) if names is not None else _caller_names()
        self.graph = _build(output, _table)
        self.output = output
        self.gradient = gradient
        self.retain_graph = bool(retain_graph)
        self.position = 0
        self._steps = None
        self._leaf_start = {n.id: _copy_grad(n.obj) for n in self.graph.nodes if n.kind == "leaf"}
        self._edges_from = {}
        for e in self.graph.edges:
            if e.kind == "grad":
                self._edges_from.setdefault(e.source, {})[e.index] = e

    # -- recording -----------------------------------------------------------
    @property
    def steps(self):
        """All :class:`Step` records (runs the engine on first use)."""
        if self._steps is None:
            self._steps = self._record()
        return self._steps

    def _record(self):
        seeds = _initial_grads((self.output,), None if self.gradient is None else (self.gradient,))
        start = to_numpy(seeds[0]).copy()
        root_edge = self._edges_from["out"][0]
        out_node = self.graph.node("out")
        steps = [Step(1, "out", out_node.label, (start,), {root_edge: start})]
        leaves = {n.obj: n.id for n in self.graph.nodes if n.kind == "accumulate"}
        leaf_of = {e.source: e.target for e in self.graph.edges if e.kind == "leaf"}
        ids = {id(n.obj): n.id for n in self.graph.nodes if n.kind in ("function", "accumulate")}

        def trace(node, grads_in, grads_out):
            nid = ids[id(node)]
            gin = tuple(None if g is None else to_numpy(g).copy() for g in grads_in)
            gout = {}
            metas = node._input_meta
            for k, g in enumerate(grads_out):
                edge = self._edges_from.get(nid, {}).get(k)
                if edge is None or g is None:
                    continue
                g = np.asarray(to_numpy(g))
                meta = metas[k] if k < len(metas) else None
                if meta is not None and g.shape != meta[0]:
                    g = sum_to(g, meta[0])
                gout[edge] = g.copy()
            step = Step(len(steps) + 1, nid, node.name(), gin, gout)
            if node in leaves:
                step.leaf_id = leaf_of[nid]
                step.leaf_grad = _copy_grad(node.variable)
            steps.append(step)

        run_backward((self.output,), seeds, retain_graph=self.retain_graph, trace=trace)
        return steps

    # -- moving --------------------------------------------------------------
    def step(self):
        """Advance one node; return its :class:`Step`, or None when backward is already over."""
        if self.position >= len(self.steps):
            return None
        self.position += 1
        return self.steps[self.position - 1]

    def back(self):
        """Go back one node (the record is replayed; nothing runs again)."""
        self.position = max(0, self.position - 1)
        return self.current

    def reset(self):
        """Back to before the first step."""
        self.position = 0

    def run(self):
        """Step to the end; return the list of all steps."""
        while self.step() is not None:
            pass
        return self.steps

    @property
    def done(self):
        """True when every node has run."""
        return self._steps is not None and self.position == len(self._steps)

    @property
    def current(self):
        """The :class:`Step` shown now (None before the first step)."""
        return self.steps[self.position - 1] if self.position else None

    # -- what is known so far -------------------------------------------------
    def edge_gradients(self):
        """``{GraphEdge: array}``: the gradient sent along each edge by the steps so far."""
        grads = {}
        for s in (self._steps or [])[:self.position]:
            grads.update(s.grads_out)
        return grads

    def leaf_grads(self):
        """``{leaf name: array or None}``: each leaf's ``.grad`` as of the current step."""
        state = dict(self._leaf_start)
        for s in (self._steps or [])[:self.position]:
            if s.leaf_id is not None:
                state[s.leaf_id] = s.leaf_grad
        return {self.graph.node(k).label: v for k, v in state.items()}

    def ran(self):
        """Ids of the nodes that have run so far."""
        return {s.node_id for s in (self._steps or [])[:self.position]}

    def describe(self, step=None):
        """One Chinese sentence about ``step`` (default: the current one)."""
        s = self.current if step is None else step
        total = self.total
        if s is None:
            return f"还没有开始：共 {total} 步。点“下一步”调用 backward()。"
        head = f"第 {s.index}/{total} 步："
        if s.node_id == "out":
            return head + f"backward() 从 {s.name} 出发，初始梯度为 {format_grad(s.grads_in[0], True)}。"
        got = "，".join(format_grad(g, True) for g in s.grads_in if g is not None)
        if s.leaf_id is not None:
            leaf = self.graph.node(s.leaf_id).label
            return head + f"AccumulateGrad 把收到的梯度 {got} 加进 {leaf}.grad，现在 {leaf}.grad = " \
                          f"{format_grad(s.leaf_grad, True)}。"
        sent = "，".join(f"{format_grad(g, True)} → {self._target_label(e)}" for e, g in s.grads_out.items())
        return head + f"{s.name} 收到梯度 {got}，传出 {sent or '（无）'}。"

    def _target_label(self, edge):
        n = self.graph.node(edge.target)
        return n.label if n.kind != "accumulate" else f"AccumulateGrad({self._leaf_label(n.id)})"

    def _leaf_label(self, acc_id):
        for e in self.graph.edges:
            if e.kind == "leaf" and e.source == acc_id:
                return self.graph.node(e.target).label
        return "?"

    @property
    def total(self):
        """How many steps there are: before the first step, one per node of the graph (nothing runs to count)."""
        if self._steps is not None:
            return len(self._steps)
        return 1 + sum(1 for n in self.graph.nodes if n.kind in ("function", "accumulate"))

    def _repr_png_(self):
        return _png(draw_graph(self))

    def __repr__(self):
        return f"BackwardStepper(第 {self.position}/{self.total} 步)"


def _copy_grad(tensor):
    g = tensor._grad
    return None if g is None else to_numpy(g._data).copy()


def format_grad(array, full=False):
    """A gradient as PyTorch prints it: ``[4., 6.]`` and ``1.`` (``tensor([4., 6.])`` with ``full``), or ``None``."""
    if array is None:
        return "None"
    text = repr(_torch.from_numpy(np.array(array)))
    if full:
        return text
    if text.startswith("tensor(") and text.endswith(")"):
        text = text[len("tensor("):-1]
        text = text.split(", dtype=")[0]
    return "\n".join(line[len("       "):] if i else line for i, line in enumerate(text.split("\n")))


# ---------------------------------------------------------------------------
# Layout and drawing
# ---------------------------------------------------------------------------

def layout(graph):
    """Where to draw each node: ``(positions, routes)``.

    ``positions`` is ``{node id: (x, y)}`` with the output on the top row and
    the leaf tensors on the bottom row, their AccumulateGrad nodes just above
    them; ``routes`` is ``{GraphEdge: [(x, y), ...]}``, the bend points of
    edges that pass over a row.  Saved values are drawn inside their node's
    box and get no position.

    The rows are the longest-path layering from the output; the order within
    rows and the bend points come from igraph's Sugiyama layout (barycenter
    crossing reduction), so arrows rarely cross.
    """
    import igraph
    main = [n for n in graph.nodes if n.kind != "saved"]
    index = {n.id: i for i, n in enumerate(main)}
    flow = [e for e in graph.edges if e.kind != "saved"]
    ig = igraph.Graph(n=len(main), edges=[(index[e.source], index[e.target]) for e in flow], directed=True)
    row = {}
    for i in ig.topological_sorting():          # longest path from the output
        preds = ig.predecessors(i)
        row[main[i].id] = 1 + max((row[main[p].id] for p in preds), default=-1)
    kinds = {n.id: n.kind for n in main}
    inner = [row[n] for n in row if kinds[n] not in ("accumulate", "leaf")]
    bottom = max(inner, default=0) + 2
    for n in row:
        if kinds[n] == "accumulate":
            row[n] = bottom - 1
        elif kinds[n] == "leaf":
            row[n] = bottom
    lay = ig.layout_sugiyama(layers=[row[n.id] for n in main], hgap=1, vgap=1)
    coords = lay.coords[:len(main)]
    positions = {n.id: (float(coords[i][0]), -float(coords[i][1])) for i, n in enumerate(main)}
    routes = {e: [(float(x), -float(y)) for x, y in (lay.edge_routing[k] or [])] for k, e in enumerate(flow)}
    return positions, routes


def draw_graph(target, ax=None, title=None, width=None):
    """Draw a graph (or a stepper's current state) with matplotlib; return the Figure.

    Args:
        target: a :class:`Graph`, a :class:`BackwardStepper` or a Tensor.
        ax: an Axes to draw into (a new Figure otherwise).
        title: a title; by default the stepper's description.
        width: figure width in inches (default: grows with the graph, at most 8 inches = 800 px).

    Arrows point the way ``next_functions`` point, which is the way the
    gradients flow.  Each function node lists the shapes it saved for
    backward (``已释放`` once backward freed them).  In a stepper's picture
    the node that ran last has a red frame, each gradient produced so far is
    written on its edge (red: produced by the current step) and each leaf
    shows its ``.grad``.
    """
    from matplotlib.figure import Figure

    use_chinese_font()
    stepper = target if isinstance(target, BackwardStepper) else None
    if isinstance(target, _torch.Tensor):
        target = _build(target, _caller_names())
    graph = stepper.graph if stepper else target
    pos, routes = layout(graph)
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    n_cols = max(xs) - min(xs) + 1
    n_rows = max(ys) - min(ys) + 1
    if ax is None:
        w = width or min(8.0, max(6.0, 2.1 * n_cols))     # at most 800 px: full size on a 1280 px page
        fig = Figure(figsize=(w, 1.0 * n_rows + 1.3), dpi=100)
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    ax.set_axis_off()
    ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)
    ax.set_ylim(min(ys) - 0.45, max(ys) + 0.35)

    current = stepper.current if stepper else None
    ran = stepper.ran() if stepper else set()
    edge_grads = stepper.edge_gradients() if stepper else {}
    leaf_grads = stepper.leaf_grads() if stepper else {}
    freed = set()
    if stepper and not stepper.retain_graph:
        freed = {n for n in ran if graph.node(n).kind == "function"}
    saved = {}
    for e in graph.edges:
        if e.kind == "saved":
            saved.setdefault(e.source, []).append(graph.node(e.target).label)

    boxes = {}
    for n in graph.nodes:
        if n.kind == "saved":
            continue
        text = n.label
        if n.kind in ("output", "leaf"):
            text += "  " + _shape_text(n.shape)
        if n.kind == "leaf" and stepper is not None:
            text += "\n.grad = " + format_grad(leaf_grads.get(n.label))
        if n.kind == "function" and n.id in saved:
            shapes = [s.replace("saved ", "") for s in saved[n.id]]
            text += "\n保存: " + ("已释放" if n.id in freed or shapes == ["已释放"] else " ".join(shapes))
        style = "round,pad=0.4" if n.kind in ("function", "accumulate") else "square,pad=0.4"
        is_current = current is not None and (current.node_id == n.id or current.leaf_id == n.id)
        boxes[n.id] = ax.text(*pos[n.id], text, ha="center", va="center", fontsize=9, zorder=3,
                              bbox=dict(boxstyle=style, fc=KIND_COLORS[n.kind],
                                        ec="#c0392b" if is_current else "#555555",
                                        lw=2.4 if is_current else 1.0))
    seen_pairs = {}
    for e in graph.edges:
        if e.kind == "saved":
            continue
        k = seen_pairs.get((e.source, e.target), 0)
        seen_pairs[(e.source, e.target)] = k + 1
        rad = 0.0 if not _has_twin(graph, e) else (0.3 if k == 0 else -0.3)
        points = [pos[e.source]] + routes.get(e, []) + [pos[e.target]]
        if len(points) > 2:
            ax.plot([p[0] for p in points[:-1]], [p[1] for p in points[:-1]], color="#34495e", lw=1.1,
                    zorder=1)
        props = dict(arrowstyle="-|>", color="#34495e", lw=1.1, mutation_scale=12, shrinkA=2, shrinkB=2,
                     patchB=boxes[e.target].get_bbox_patch(), connectionstyle=f"arc3,rad={rad}")
        if len(points) == 2:
            props["patchA"] = boxes[e.source].get_bbox_patch()
        else:
            props["shrinkA"] = 0            # continue the polyline without a gap
        ax.annotate("", xy=points[-1], xytext=points[-2], arrowprops=props, zorder=2)
        if e in edge_grads:
            new = current is not None and e in current.grads_out
            (ax_, ay), (bx, by) = points[-2], points[-1]
            mx, my = (ax_ + bx) / 2 - rad * (by - ay) * 0.5, (ay + by) / 2 + rad * (bx - ax_) * 0.5
            ha = "center" if rad == 0 else ("left" if mx > (ax_ + bx) / 2 else "right")
            ax.text(mx, my, format_grad(edge_grads[e]), fontsize=8, ha=ha, va="center",
                    color="#c0392b" if new else "#6b2d1f", zorder=4,
                    bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="#c0392b" if new else "#d5b8b0", lw=0.8))
    if title is None and stepper is not None:
        title = stepper.describe()
    if title:
        ax.set_title(_wrap(title, 60), fontsize=10, loc="left")
    handles = _legend_handles({n.kind for n in graph.nodes} - {"saved"})
    ax.legend(handles=handles, loc="upper left", fontsize=8, frameon=False, ncol=len(handles),
              bbox_to_anchor=(0.0, 0.0))
    fig.tight_layout()
    return fig


def _has_twin(graph, edge):
    return sum(1 for e in graph.edges if e.source == edge.source and e.target == edge.target) > 1


def _wrap(text, width):
    lines, line = [], ""
    for ch in text:
        line += ch
        if len(line) >= width and ch in "，。；、 ":
            lines.append(line)
            line = ""
    if line:
        lines.append(line)
    return "\n".join(lines)


def _legend_handles(kinds):
    from matplotlib.patches import Patch
    order = ["output", "function", "accumulate", "leaf", "saved"]
    return [Patch(fc=KIND_COLORS[k], ec="#555555", label=KIND_NAMES[k]) for k in order if k in kinds]


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


# ---------------------------------------------------------------------------
# The widget
# ---------------------------------------------------------------------------

def _widgets():
    import ipywidgets
    return ipywidgets


class GraphWidget:
    """A live computation-graph widget: the picture plus 上一步 / 下一步 / 重新开始 buttons.

    ``GraphWidget(z)`` (or ``GraphWidget(stepper=s)``) builds an
    ``ipywidgets.VBox`` (``.box``, CSS class ``cl-graph``) holding an
    ``Image`` (``.image``, ``cl-graph-image``), the buttons (``.next_button``
    ``cl-graph-next``, ``.prev_button`` ``cl-graph-prev``, ``.reset_button``
    ``cl-graph-reset``), a line describing the step (``.status``,
    ``cl-graph-status``) and the leaves' ``.grad`` so far (``.grads``,
    ``cl-graph-grads``).  Clicking (or calling ``next_button.click()``)
    advances ``.stepper`` one node and redraws.  Displayed in a notebook it
    also leaves a PNG of its current picture in the saved file.
    """

    def __init__(self, output=None, gradient=None, retain_graph=False, names=None, stepper=None):
        if output is None and stepper is None:
            raise TypeError("GraphWidget 需要一个张量：GraphWidget(loss) 画出 loss 背后的计算图，"
                            "并一步一步重放 loss.backward()（也可以传入 stepper=BackwardStepper(loss)）")
        w = _widgets()
        if stepper is None:
            table = _name_table(names) if names is not None else _caller_names()
            stepper = BackwardStepper(output, gradient, retain_graph, _table=table)
        self.stepper = stepper
        self.image = pictures.picture("cl-graph-image")
        self.prev_button = w.Button(description="上一步", icon="step-backward")
        self.next_button = w.Button(description="下一步", icon="step-forward", button_style="primary")
        self.reset_button = w.Button(description="重新开始", icon="undo")
        for b, cls in ((self.prev_button, "cl-graph-prev"), (self.next_button, "cl-graph-next"),
                       (self.reset_button, "cl-graph-reset")):
            b.add_class(cls)
        self.status = w.HTML()
        self.status.add_class("cl-graph-status")
        self.grads = w.HTML()
        self.grads.add_class("cl-graph-grads")
        self.next_button.on_click(lambda _: self._move(self.stepper.step))
        self.prev_button.on_click(lambda _: self._move(self.stepper.back))
        self.reset_button.on_click(lambda _: self._move(self.stepper.reset))
        self.box = w.VBox([w.HBox([self.prev_button, self.next_button, self.reset_button],
                                  layout=w.Layout(flex_flow="row wrap")), self.status,
                           pictures.framed(self.image), self.grads])
        self.box.add_class("cl-graph")
        self.refresh()

    def _move(self, action):
        action()
        self.refresh()

    def refresh(self):
        """Redraw the picture and the texts for the stepper's current position."""
        import html
        s = self.stepper
        self.png = pictures.show(self.image, draw_graph(s, title=""))
        self.status.value = f"<b>{html.escape(s.describe())}</b>"
        rows = "".join(f"<tr><td><code>{html.escape(k)}.grad</code></td><td><code>{html.escape(format_grad(v))}"
                       f"</code></td></tr>" for k, v in s.leaf_grads().items())
        self.grads.value = f"<table>{rows}</table>"
        self.prev_button.disabled = s.position == 0
        self.next_button.disabled = s.done

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.box._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = f"GraphWidget({self.stepper.describe()})"
        bundle["image/png"] = base64.b64encode(self.png).decode("ascii")
        return bundle

