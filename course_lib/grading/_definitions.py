"""Which statements of a notebook the grader loads before it tests the learner's functions.

The learner's functions are tested in a fresh process that has run only the notebook's
*definitions*, never its other top-level code: so a hook, an input transformer, a replaced
``display``, a patched library function or an edited table, written at the top of a cell,
does not exist where the observations are made.  A top-level statement is loaded when it is

* an ``import`` / ``from ... import`` (of a module installed in the sandbox),
* a function definition (``def``) or a class definition (``class``),
* an assignment to plain names (``x = ...``, ``a, b = ...``, ``x: int = ...``, ``x += ...``),
* a docstring or ``pass``, or an ``if`` whose parts are all of these, or a ``try`` around imports,

and when the parts of it that run at load time (the assigned value, decorators, default values,
base classes, a class body) use no private attribute (``x._data``, ``f.__code__``), no name of the
double-underscore kind, and none of the built-ins that reach into the interpreter (``getattr``,
``setattr``, ``exec``, ``type`` ...).  While loading, a profile hook also refuses every call the
learner's top-level code makes to its own functions or to anything outside course_lib, NumPy,
PyTorch and a few pure modules (``_observe.LoadGuard``).  Everything else (``print(...)``,
``check("q1")``, loops, ``x.attr = ...``, ``d[k] = ...``, calls of the learner's own functions)
is skipped: a function must not depend on it, as the README says.

What is loaded runs as :func:`as_loaded` rewrites it: ``x += v`` as ``x = x + v`` (an in-place
operator fires no call event, so ``TABLE |= {...}`` on a library's table would pass the profile
hook unseen) and every call ``f(a)`` as ``__clg_call__(f, a)``, which checks the callee and its
arguments (a C function called by C, as by ``map`` or ``functools.partial``, fires no event either).
"""

import ast
import copy

__all__ = ["transform_cell", "plan_cell", "as_loaded", "CALL", "DENIED_NAMES", "DENIED_ATTRIBUTES"]

CALL = "__clg_call__"       # the name of the observer's checked call in the namespace of the definitions

DENIED_NAMES = frozenset({
    "getattr", "setattr", "delattr", "exec", "eval", "compile", "globals", "locals", "vars", "open", "input",
    "breakpoint", "help", "exit", "quit", "type", "memoryview", "get_ipython", "display",
})
# attribute names that reach raw memory or pickles (numpy / PyTorch), refused at load time
DENIED_ATTRIBUTES = frozenset({
    "ndarray", "as_strided", "stride_tricks", "frombuffer", "ctypes", "ctypeslib", "memmap", "fromfile",
    "from_file", "load", "loads", "untyped_storage", "storage", "set_", "from_buffer",
})


PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture", "%%prun")


def transform_cell(source):
    """A cell's source as Python (IPython's magics and ``!`` lines turned into calls), or the source itself.

    The body of a cell magic that runs Python (``%%time`` ...) is kept as Python, its first line
    made a comment, so the definitions in it are found at their own line numbers.
    """
    stripped = source.lstrip()
    if stripped.startswith(PYTHON_CELL_MAGICS) and stripped.split(None, 1)[0] in PYTHON_CELL_MAGICS:
        lead, _, rest = source.partition("\n")
        source = "# " + lead + "\n" + rest
    try:
        from IPython.core.inputtransformer2 import TransformerManager
        return TransformerManager().transform_cell(source)
    except Exception:  # noqa: BLE001 - no IPython, or a cell it cannot transform: Python will say why
        return source


class _Refuse(Exception):
    pass


def _check_expr(node):
    """Raise :class:`_Refuse` when an expression evaluated at load time uses something not allowed."""
    if node is None:
        return
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and (sub.id.startswith("__") or sub.id in DENIED_NAMES):
            raise _Refuse(f"用了 {sub.id}")
        if isinstance(sub, ast.Attribute) and (sub.attr.startswith("_") or sub.attr in DENIED_ATTRIBUTES):
            raise _Refuse(f"用了 .{sub.attr}")
        if isinstance(sub, (ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)):
            raise _Refuse("用了 := / await / yield")
        if isinstance(sub, ast.Call) and not isinstance(sub.func, (ast.Name, ast.Attribute)):
            raise _Refuse("调用了一个表达式的结果")
        if isinstance(sub, ast.Lambda):
            for default in sub.args.defaults + [d for d in sub.args.kw_defaults if d is not None]:
                _check_expr(default)


def _check_target(target):
    if isinstance(target, ast.Name):
        if target.id.startswith("__"):
            raise _Refuse(f"给 {target.id} 赋值")
        return
    if isinstance(target, (ast.Tuple, ast.List)):
        for t in target.elts:
            _check_target(t)
        return
    if isinstance(target, ast.Starred):
        _check_target(target.value)
        return
    raise _Refuse("给属性或下标赋值")


def _check_function(node):
    for d in node.decorator_list:
        _check_expr(d)
    args = node.args
    for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
        _check_expr(default)
    for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
        if a is not None:
            _check_expr(a.annotation)
    _check_expr(node.returns)


def _check_stmt(node, in_class=False):
    """Raise :class:`_Refuse` unless ``node`` is a loadable statement (see the module docstring)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        for alias in node.names:
            parts = (alias.name.split(".") + [alias.asname or ""]
                     + (node.module.split(".") if isinstance(node, ast.ImportFrom) and node.module else []))
            bound = alias.asname or alias.name.split(".")[0]
            if any(p in DENIED_ATTRIBUTES for p in parts) or bound.startswith("__"):
                raise _Refuse(f"导入了 {alias.name}")
        return
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        if node.name.startswith("__") and not in_class:
            raise _Refuse(f"定义了 {node.name}")
        _check_function(node)
        return
    if isinstance(node, ast.ClassDef):
        if node.name.startswith("__") and not in_class:
            raise _Refuse(f"定义了 {node.name}")
        for expr in node.bases + [k.value for k in node.keywords] + node.decorator_list:
            _check_expr(expr)
        if node.keywords:
            raise _Refuse("类定义里用了 metaclass 等关键字")
        for stmt in node.body:
            _check_stmt(stmt, in_class=True)
        return
    if isinstance(node, ast.Assign):
        for t in node.targets:
            _check_target(t)
        _check_expr(node.value)
        return
    if isinstance(node, ast.AnnAssign):
        _check_target(node.target)
        _check_expr(node.annotation)
        _check_expr(node.value)
        return
    if isinstance(node, ast.AugAssign):
        _check_target(node.target)
        _check_expr(node.value)
        return
    if isinstance(node, ast.Pass):
        return
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return
    if isinstance(node, ast.If) and not in_class:
        _check_expr(node.test)
        for stmt in node.body + node.orelse:
            _check_stmt(stmt)
        return
    if isinstance(node, ast.Try) and not in_class:
        for stmt in node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body]:
            if not isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)):
                raise _Refuse("try 里只能有 import")
            _check_stmt(stmt)
        for h in node.handlers:
            _check_expr(h.type)
        return
    raise _Refuse(type(node).__name__)


def _bound_names(node):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"]
    names = []
    targets = node.targets if isinstance(node, ast.Assign) else \
        [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
    for t in targets:
        names += [n.id for n in ast.walk(t) if isinstance(n, ast.Name)]
    return names


def plan_cell(source, until_line=None):
    """Plan the loading of one cell (its Python source, see :func:`transform_cell`).

    Returns ``{"run": [indexes of top-level statements], "skipped": [{"line", "names", "why"}]}``;
    with ``until_line``, only statements that end before that line (the cell failed there when
    the notebook ran) are planned.  A cell that is not valid Python plans nothing.
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {"run": [], "skipped": [], "syntax_error": True}
    run, skipped = [], []
    for i, node in enumerate(tree.body):
        if until_line is not None and getattr(node, "end_lineno", node.lineno) >= until_line:
            break
        try:
            _check_stmt(node)
        except _Refuse as e:
            names = [] if isinstance(node, ast.Expr) else _bound_names(node)
            skipped.append({"line": node.lineno, "names": names, "why": str(e)})
            continue
        run.append(i)
    return {"run": run, "skipped": skipped}


class _AsLoaded(ast.NodeTransformer):
    """See :func:`as_loaded`.  A function's body runs only when it is called (in the observing child): kept."""

    def visit_FunctionDef(self, node):
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args = self.visit(node.args)
        if node.returns is not None:
            node.returns = self.visit(node.returns)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        node.args = self.visit(node.args)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        value = ast.BinOp(left=ast.Name(id=node.target.id, ctx=ast.Load()), op=node.op, right=node.value)
        return ast.copy_location(ast.Assign(targets=[node.target], value=value), node)

    def visit_Call(self, node):
        self.generic_visit(node)
        return ast.copy_location(ast.Call(func=ast.Name(id=CALL, ctx=ast.Load()), args=[node.func] + node.args,
                                          keywords=node.keywords), node)


def as_loaded(node):
    """A loadable top-level statement as the observer runs it: no in-place operator, every call checked.

    ``x += v`` becomes ``x = x + v`` and ``f(a, k=b)`` becomes ``__clg_call__(f, a, k=b)``, outside the
    bodies of functions and lambdas.  ``node`` is left as it is.
    """
    tree = _AsLoaded().visit(copy.deepcopy(node))
    return ast.fix_missing_locations(tree)
