"""The core stays readable in an afternoon (issue 12): ``course_lib/core/`` holds at most 2,000 lines
(``wc -l``, docstrings and comments included), no function longer than 40 lines and none of cyclomatic
complexity above 10 as radon counts it.  Each limit is also checked on a made-up module that breaks it,
so the checks can fail."""

import ast
import pathlib
import textwrap

import pytest
from radon.complexity import cc_visit
from radon.visitors import Class

CORE = pathlib.Path(__file__).resolve().parents[1] / "course_lib" / "core"
MAX_LINES, MAX_FUNCTION_LINES, MAX_COMPLEXITY = 2_000, 40, 10


def core_sources():
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(CORE.glob("*.py"))}


def line_count(sources):
    return sum(text.count("\n") for text in sources.values())


def long_functions(sources, limit=MAX_FUNCTION_LINES):
    """``file:function (n lines)`` for every function (methods and nested ones too) over ``limit`` lines,
    counted from its ``def`` line to its last line."""
    found = []
    for name, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > limit:
                    found.append(f"{name}:{node.name} ({length} lines)")
    return found


def complex_functions(sources, limit=MAX_COMPLEXITY):
    """``file:function (complexity)`` for every function or method radon rates above ``limit``."""
    found = []
    for name, text in sources.items():
        for block in cc_visit(text):             # functions and methods, flat, and classes (their methods' sum)
            if not isinstance(block, Class) and block.complexity > limit:
                found.append(f"{name}:{block.name} ({block.complexity})")
    return found


def test_the_core_holds_at_most_2000_lines():
    sources = core_sources()
    assert len(sources) >= 10
    assert line_count(sources) <= MAX_LINES


def test_no_core_function_is_longer_than_40_lines():
    assert long_functions(core_sources()) == []


def test_no_core_function_is_more_complex_than_10():
    assert complex_functions(core_sources()) == []


BRANCHY = textwrap.dedent("""
    def branchy(x):
        if x == 0: return 0
        if x == 1: return 1
        if x == 2: return 2
        if x == 3: return 3
        if x == 4: return 4
        if x == 5: return 5
        if x == 6: return 6
        if x == 7: return 7
        if x == 8: return 8
        if x == 9: return 9
        return x
""")


@pytest.mark.parametrize("check, source, found", [
    (long_functions, "def long():\n" + "    x = 1\n" * 40, ["m.py:long (41 lines)"]),
    (long_functions, "class C:\n    def m(self):\n" + "        pass\n" * 40, ["m.py:m (41 lines)"]),
    (complex_functions, BRANCHY, ["m.py:branchy (11)"]),
    (complex_functions, "class C:\n" + textwrap.indent(BRANCHY, "    "), ["m.py:branchy (11)"]),
])
def test_each_limit_can_fail(check, source, found):
    assert check({"m.py": source}) == found
    assert line_count({"m.py": "a = 1\n" * 2_001}) > MAX_LINES
