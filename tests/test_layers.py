"""The layer contract: imports go down only, no module imports itself back, the core stands on NumPy alone.

The layers are written down in ``pyproject.toml`` (``[tool.importlinter]``) and checked two ways:

* ``lint-imports`` (import-linter) keeps the contracts there: the layers in order, the core's import of
  nothing outside core/, the package face imported only by the tooling, no torch import, no cycle
  between sibling packages.  It reads every import, also those inside functions.
* the tests below walk the syntax tree of every module themselves, resolve relative imports and look
  for a cycle between any two *modules* (import-linter's acyclic contract sees cycles between sibling
  packages only, not ``course_lib.viz.descent -> course_lib.viz -> course_lib.viz.descent``), and hold
  what import-linter cannot say: the core imports only the standard library and NumPy, and below the
  tooling no import hides inside a function (where one was used to dodge a cycle, the code belongs in
  another layer) except of an optional package (CuPy).

Each check is also run on a copy of the package with a forbidden import added, to show that it fails.
"""

import ast
import os
import pathlib
import shutil
import subprocess
import sys
from collections import deque

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = "course_lib"
TOOLING = ("course_lib.viz", "course_lib.grading", "course_lib.parallel", "course_lib.tools")
OPTIONAL = ("cupy", "cupyx")        # optional packages, imported where they are needed (the gpu extra)


# ---------------------------------------------------------------------------
# The import graph, from the syntax tree of every module
# ---------------------------------------------------------------------------

def modules(root, package=PACKAGE):
    """``{module name: (path, is_package)}`` for every ``.py`` file of ``package`` under ``root``."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def _in_function(node, parents):
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return True
    return False


def imports_of(name, path, is_package, known):
    """Every import statement of module ``name``: ``(imported, line, inside a function)``.

    ``imported`` is the module an import names, resolved as Python does (``from ..ops import creation`` in
    ``course_lib.core.graph`` is ``course_lib.ops.creation``; ``from . import use_chinese_font`` in
    ``course_lib.viz.descent`` is the package ``course_lib.viz``); names of other packages stay as written.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for target in targets:
            while target not in known and "." in target and target.split(".")[0] == PACKAGE:
                target = target.rsplit(".", 1)[0]         # course_lib.core.tensor.Tensor -> course_lib.core.tensor
            found.append((target, node.lineno, _in_function(node, parents)))
    return found


def import_graph(root, package=PACKAGE):
    """``{module: {imported module of the package: first line}}``, over every import of every module."""
    known = modules(root, package)
    graph = {}
    for name, (path, is_package) in known.items():
        edges = graph.setdefault(name, {})
        for target, line, _ in imports_of(name, path, is_package, known):
            if target in known:
                edges.setdefault(target, line)
    return graph


def cycles(graph):
    """The strongly connected components of more than one module, or of one that imports itself (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def describe(graph, component):
    """One cycle through ``component``, as ``a (line 3) -> b (line 7) -> a``: the shortest from its first module."""
    start, members = component[0], set(component)
    came_from, queue = {}, deque([start])
    while queue:
        v = queue.popleft()
        for w in graph[v]:
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                path.reverse()
                return " -> ".join(f"{a} (line {graph[a][b]})" for a, b in zip(path, path[1:] + [start])) \
                    + f" -> {start}"
            if w in members and w not in came_from:
                came_from[w] = v
                queue.append(w)
    return " <-> ".join(component)


def _external(target):
    return target.split(".")[0] != PACKAGE


# ---------------------------------------------------------------------------
# The checks
# ---------------------------------------------------------------------------

def check_no_cycle(root):
    graph = import_graph(root)
    found = cycles(graph)
    assert not found, "import cycles (every import counts, also inside functions):\n" + "\n".join(
        describe(graph, c) for c in found)


def check_core_imports_only_stdlib_and_numpy(root):
    known = modules(root)
    outside = sorted({f"{name}:{line}: {target}" for name, (path, is_package) in known.items()
                     if name.startswith(PACKAGE + ".core")
                     for target, line, _ in imports_of(name, path, is_package, known)
                     if _external(target) and target.split(".")[0] not in sys.stdlib_module_names | {"numpy"}
                     or not _external(target) and not target.startswith(PACKAGE + ".core")})
    assert not outside, "the core imports only the standard library, NumPy and core/:\n" + "\n".join(outside)


def check_no_import_inside_functions_below_the_tooling(root):
    known = modules(root)
    hidden = sorted({f"{name}:{line}: {target}" for name, (path, is_package) in known.items()
                    if not name.startswith(TOOLING)
                    for target, line, in_function in imports_of(name, path, is_package, known)
                    if in_function and target.split(".")[0] not in OPTIONAL})
    assert not hidden, ("imports inside functions below the tooling (move them to the top of the module; if that "
                        "makes a cycle, the code that needs them belongs in another layer):\n" + "\n".join(hidden))


def lint_imports(root):
    """Run import-linter on the package under ``root`` with the contracts of ``root/pyproject.toml``."""
    pytest.importorskip("importlinter")
    command = [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()",
               "--no-cache"]
    return subprocess.run(command, cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
                          capture_output=True, text=True)


def test_import_linter_contracts_are_kept():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_no_import_cycle_between_modules():
    check_no_cycle(ROOT)


def test_the_core_imports_only_the_standard_library_and_numpy():
    check_core_imports_only_stdlib_and_numpy(ROOT)


def test_no_import_inside_a_function_below_the_tooling():
    check_no_import_inside_functions_below_the_tooling(ROOT)


# ---------------------------------------------------------------------------
# Each check fails on a package that breaks the rule
# ---------------------------------------------------------------------------

@pytest.fixture
def copy(tmp_path):
    """A copy of course_lib and pyproject.toml under a temporary folder, to break."""
    shutil.copytree(ROOT / PACKAGE, tmp_path / PACKAGE, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _add(root, module, code):
    path = root / module
    path.write_text(path.read_text(encoding="utf-8") + "\n\n" + code + "\n", encoding="utf-8")


@pytest.mark.parametrize("module, code, broken", [
    # an import inside a function counts as much as one at the top
    ("core/engine.py", "def _f():\n    from ..ops import creation\n    return creation",
     ["layers: each layer imports only the layers below it", "course_lib.core.engine -> course_lib.ops.creation",
      "the core imports nothing of course_lib outside core/"]),
    ("ops/math.py", "import course_lib",
     ["the package face (course_lib/__init__.py) is imported only by the tooling",
      "course_lib.ops.math -> course_lib (l."]),
    ("nn/module.py", "from ..viz import fonts", ["course_lib.nn is not allowed to import course_lib.viz"]),
    ("devices/__init__.py", "import torch", ["course_lib never imports torch", "course_lib.devices -> torch"]),
])
def test_a_forbidden_import_breaks_a_contract(copy, module, code, broken):
    _add(copy / PACKAGE, module, code)
    result = lint_imports(copy)
    assert result.returncode == 1, result.stdout + result.stderr
    for text in broken:
        assert text in result.stdout


def test_a_cycle_through_an_import_inside_a_function_is_found(copy):
    _add(copy / PACKAGE, "torch_compat/names.py", "def _f():\n    from ..torch_compat import printing\n")
    with pytest.raises(AssertionError) as info:
        check_no_cycle(copy)
    message = str(info.value)
    assert "course_lib.torch_compat.names (line " in message and "course_lib.torch_compat.printing (line " in message
    assert message.count(" -> ") >= 3


def test_a_module_importing_itself_is_a_cycle(copy):
    _add(copy / PACKAGE, "ops/views.py", "def _f():\n    from ..ops.views import view\n")
    with pytest.raises(AssertionError, match=r"course_lib\.ops\.views \(line \d+\) -> course_lib\.ops\.views"):
        check_no_cycle(copy)


def test_the_core_importing_another_package_is_found(copy):
    _add(copy / PACKAGE, "core/layout.py", "def _f():\n    import scipy\n    from ..torch_compat import size\n")
    with pytest.raises(AssertionError) as info:
        check_core_imports_only_stdlib_and_numpy(copy)
    assert "course_lib.core.layout:" in str(info.value) and ": scipy" in str(info.value)
    assert ": course_lib.torch_compat.size" in str(info.value)


def test_an_import_inside_a_function_below_the_tooling_is_found(copy):
    _add(copy / PACKAGE, "nn/init.py", "def _f():\n    import cupy\n    from ..ops import creation\n")
    with pytest.raises(AssertionError) as info:
        check_no_import_inside_functions_below_the_tooling(copy)
    assert ": course_lib.ops.creation" in str(info.value) and "cupy" not in str(info.value)
