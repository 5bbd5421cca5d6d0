"""Shrink a program that shows a mismatch to a minimal one that shows the same mismatch (delta reduction).

Two passes, repeated until nothing changes (or the budget of runs is spent):

1. drop one statement at a time (the mismatching one last);
2. simplify one statement at a time: drop a keyword argument, drop an element
   of a list literal (of every row at once, so that nested lists stay
   rectangular), replace a number by 0 or 1, replace a ``with`` block by its body.

A candidate is kept when it shows the same ``signature``: the same class
(``Mismatch.key``), the same known difference (``known.py``) and, for exception differences, the same two exception
types and message templates (numbers read as ``#``), so that shrinking does
not wander from one difference to another.
"""

import ast
import re

from .compare import classify, rows_at
from .known import known_issue
from .programs import Program, Stmt


def _template(exc):
    return None if exc is None else (exc[0], re.sub(r"\d+", "#", exc[1]))


def signature(program, t, c):
    """What must stay the same while shrinking; None when the two sides agree."""
    m = classify(program, t, c)
    if m is None:
        return None
    label = known_issue(m, *rows_at(m, t, c))
    if m.kind in ("course_lib raises", "course_lib accepts", "exception type", "message") and \
            0 <= m.index < len(t["results"]):
        return m.key, label, _template(t["results"][m.index]["exc"]), _template(c["results"][m.index]["exc"])
    return m.key, label


class _ListShrinker(ast.NodeTransformer):
    """Drop the first or last element (``last``) of the ``n``-th list literal with two or more elements; of a list of
    equal-length lists (a matrix literal) drop the first or last column instead, when its rows have two or more."""

    def __init__(self, n, last):
        self.n, self.last, self.seen, self.done = n, last, 0, False

    def _drop(self, elts):
        del elts[-1 if self.last else 0]

    def visit_List(self, node):
        if self.done:
            return node
        rows = [e.elts for e in node.elts if isinstance(e, ast.List)]
        if len(rows) == len(node.elts) >= 1 and len({len(r) for r in rows}) == 1 and len(rows[0]) >= 2:
            if self.seen == self.n:
                self.done = True
                for r in rows:
                    self._drop(r)
                return node
            self.seen += 1
        if len(node.elts) >= 2:
            if self.seen == self.n:
                self.done = True
                self._drop(node.elts)
                return node
            self.seen += 1
        return self.generic_visit(node)


def _simpler_sources(src):
    """Simpler versions of one statement's source (each one step simpler)."""
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.With):
        yield ast.unparse(tree.body[0].body)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    for ci, call in enumerate(calls):
        for ki in range(len(call.keywords)):
            t = ast.parse(src)
            target = [n for n in ast.walk(t) if isinstance(n, ast.Call)][ci]
            del target.keywords[ki]
            yield ast.unparse(t)
    for n in range(8):
        for last in (True, False):
            t = ast.parse(src)
            shrinker = _ListShrinker(n, last)
            t = shrinker.visit(t)
            if shrinker.done:
                yield ast.unparse(t)
    consts = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and type(n.value) in (int, float)]
    for ci, const in enumerate(consts):
        for simple in (0, 1) if isinstance(const.value, int) else (0.0, 1.0):
            if const.value != simple:
                t = ast.parse(src)
                [n for n in ast.walk(t) if isinstance(n, ast.Constant) and type(n.value) in (int, float)][ci].value \
                    = simple
                yield ast.unparse(t)


def reduce_program(program, engines, budget=200):
    """``(smaller program, torch answer, course_lib answer)`` showing the same signature as ``program``."""
    t, c = engines.run(program.sources)
    target = signature(program, t, c)
    if target is None:
        return program, t, c
    best = (program, t, c)
    runs = 0

    def try_candidate(stmts):
        nonlocal best, runs
        if runs >= budget:
            return False
        runs += 1
        candidate = Program(tuple(stmts))
        ct, cc = engines.run(candidate.sources)
        if signature(candidate, ct, cc) == target:
            best = (candidate, ct, cc)
            return True
        return False

    changed = True
    while changed and runs < budget:
        changed = False
        stmts = list(best[0].stmts)
        i = len(stmts) - 1
        while i >= 0:                                    # 1. drop statements
            stmts = list(best[0].stmts)
            if len(stmts) > 1 and i < len(stmts) and try_candidate(stmts[:i] + stmts[i + 1:]):
                changed = True
            i -= 1
        for i in range(len(best[0].stmts)):              # 2. simplify statements
            progress = True
            while progress and runs < budget:
                progress = False
                stmts = list(best[0].stmts)
                for src in _simpler_sources(stmts[i].src):
                    if src == stmts[i].src:
                        continue
                    if try_candidate(stmts[:i] + [Stmt(src, stmts[i].op)] + stmts[i + 1:]):
                        progress = changed = True
                        break
    return best
