"""Differential testing against real PyTorch: run one snippet with each engine bound to ``torch``.

A snippet is Python source that uses the names ``torch`` and ``np`` and
prints what it wants compared.  ``outcome(code, engine)`` runs it and returns
what it printed, the exception it raised (type name and message) and the
warnings it emitted, the same three things the conformance runner compares
(plus the warnings).  ``assert_same(code)`` runs the snippet with course_lib
and with PyTorch and fails with both outcomes side by side when they differ.

Global state (print options, default dtype, grad mode) is reset before each
run, so a snippet may change it freely.
"""

import ast
import contextlib
import io
import re
import warnings

import numpy as np
import pytest

import course_lib

torch = pytest.importorskip("torch")

_CLASS_PATH = re.compile(r"<(class ')?course_lib\.")     # course_lib's rule for class paths (README: Class names)
_PERMUTE_PREFIX = re.compile(r"^permute\(sparse_coo\): ")


def _normalize(text):
    """The conformance runner's normalisations: class paths (``<class 'course_lib.nn.modules.linear.Linear'>`` and
    ``<course_lib.autograd.grad_mode.no_grad object at ...>`` read as PyTorch's: README.md, "Class names") and torch's
    sparse-dispatch prefix."""
    return _PERMUTE_PREFIX.sub("permute(): ", _CLASS_PATH.sub(r"<\1torch.", text))


def _reset(engine):
    engine.set_printoptions(profile="default")
    engine.set_default_dtype(engine.float32)
    engine.set_grad_enabled(True)


def _as_statements(code):
    """The snippet with its last statement printed when that is an expression (not a ``print``), as in Jupyter."""
    tree = ast.parse(code)
    last = tree.body[-1] if tree.body else None
    if isinstance(last, ast.Expr) and not (isinstance(last.value, ast.Call) and
                                           getattr(last.value.func, "id", None) == "print"):
        last.value = ast.Call(ast.Name("print", ast.Load()), [last.value], [])
        ast.fix_missing_locations(tree)
    return compile(tree, "<snippet>", "exec")


def outcome(code, engine):
    """``(stdout, exception, warnings)`` of running ``code`` with ``engine`` bound to the name ``torch``.

    A snippet whose last statement is an expression prints it (as a notebook cell shows it).

    ``exception`` is ``None`` or ``(type name, message)``; ``warnings`` is a
    list of ``(category name, first line of the message)``.
    """
    compiled = _as_statements(code)      # a snippet that is not Python fails the test (it would pass otherwise)
    _reset(engine)
    out = io.StringIO()
    exc = None
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        # course_lib's own filter (see course_lib/_tensor.py), which "always" would override
        warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"course_lib(\.|$)")
        try:
            exec(compiled, {"torch": engine, "np": np, "__name__": "snippet"})
        except Exception as e:  # noqa: BLE001 - the exception is the result
            exc = (type(e).__name__, _normalize(str(e)))
    _reset(engine)
    caught = [(w.category.__name__, str(w.message).splitlines()[0] if str(w.message) else "") for w in caught]
    return _normalize(out.getvalue()), exc, caught


def assert_same(code, check_warnings=True):
    """Fail unless course_lib and PyTorch print the same, raise the same and warn the same for ``code``."""
    expected = outcome(code, torch)
    actual = outcome(code, course_lib)
    if not check_warnings:
        expected, actual = expected[:2], actual[:2]
    assert actual == expected, (f"\n--- snippet ---\n{code}\n--- torch ---\n{_show(expected)}\n"
                                f"--- course_lib ---\n{_show(actual)}")


def _show(result):
    stdout, exc, *rest = result
    lines = [stdout.rstrip("\n"), f"exception: {exc}"]
    if rest:
        lines.append(f"warnings: {rest[0]}")
    return "\n".join(lines)


def cases(text):
    """The snippets of a corpus: one per line (blank lines and ``#`` comments skipped).

    A line may hold several statements separated by ``;``; a last statement
    that is an expression is printed.
    """
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
