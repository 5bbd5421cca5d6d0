"""The chapters' tests as the sandbox sees them: the observing half only.

Inside a submission's sandbox, ``course_lib/grading`` is replaced by a copy (``_sandbox.build_view``)
in which every chapter module has lost what a learner's code could use to compute the expected
results instead of its own: the ``expect``, ``judge`` and ``show`` methods of every question class,
and the expected values of prediction items (``items = {"a": (text, expected)}`` keeps the keys and
the texts).  ``cases`` and ``observe`` stay, so the observations are made exactly as ``check()``
makes them; the verdicts are made outside, by the grader, with the full modules.
"""

import ast

__all__ = ["strip_expected", "CHECK_STUB", "REMOVED_METHODS"]

REMOVED_METHODS = ("expect", "judge", "show")


def _strip_class(node):
    body = []
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                stmt.name in REMOVED_METHODS or stmt.name.startswith("expect")):
            continue
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "items" for t in stmt.targets) \
                and isinstance(stmt.value, ast.Dict):
            for value in stmt.value.values:
                if isinstance(value, ast.Tuple) and len(value.elts) > 1:
                    value.elts[1:] = [ast.Constant(None) for _ in value.elts[1:]]
        if isinstance(stmt, ast.ClassDef):
            _strip_class(stmt)
        body.append(stmt)
    node.body = body or [ast.Pass()]


def strip_expected(source):
    """The source of a chapter module without expected results (see the module docstring)."""
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            _strip_class(node)
    return ("# The sandbox's copy of this chapter's tests: expected results removed (course_lib/grading/_view.py)\n"
            + ast.unparse(tree) + "\n")


CHECK_STUB = '''"""check() while the batch grader runs a notebook: the verdicts are made outside the sandbox."""

__all__ = ["checker", "run_check"]


def run_check(*args, **kwargs):
    raise RuntimeError("批改时不在笔记本里判分：得分由批改程序在沙箱外判定")


def checker(chapter=None, *args, **kwargs):
    def check(name=None, *args, **kwargs):
        print(f"（批改中：{name} 的结果由批改程序在沙箱外判定）")

    def check_all(*args, **kwargs):
        print("（批改中：得分由批改程序在沙箱外判定）")
    return check, check_all


def __getattr__(name):
    return lambda *args, **kwargs: None
'''
