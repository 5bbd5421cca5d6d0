"""Hints guide without giving the answer: checked against the solutions, question by question.

Every text a learner may be shown as a hint (the question's ``hint`` and ``hint2``, the hints of
its cases and of the ``Problem`` objects its judge returns, and what its ``Forbid`` says) must not
hold, beyond what the question's own cells in the exercise notebook already show:

* an identifier of the solution's code (a function, method, attribute or keyword it uses, e.g.
  ``linspace``, ``keepdim``, ``item``): naming the call the question is about is the answer;
* a piece of the solution's code (a call, an operation, an attribute chain of six characters or
  more, spaces ignored), e.g. ``((pred - target) ** 2).mean()``;
* for a prediction question, one of its answers (``PowBackward0``, ``(2, 3, 8)``, ``int16``), or
  a name from the expression of a yes/no item (``clone``, ``detach``): a hint that sorts those
  operations into "view" and "copy" is the answer key.

So a hint may use the words of the question (its statement, the code it gives), and Chinese words
for the ideas; never the code that solves it.  Both hint levels are held to this.
"""

import ast
import keyword
import pathlib
import re
import textwrap

import nbformat
import pytest

from course_lib.grading import chapters, run_check
from course_lib.grading.core import Prediction

ROOT = pathlib.Path(__file__).resolve().parents[1]
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BEGIN = re.compile(r"^\s*# BEGIN SOLUTION")
_END = re.compile(r"^\s*# END SOLUTION")
_LINE = re.compile(r"#\s*SOLUTION(\s+NO PROMPT)?\s*$")


def _question_cells(stem, name):
    """(solution code cells' sources, the question's exercise cells' sources) for question ``name``."""
    ex = nbformat.read(ROOT / "exercises" / f"{stem}.ipynb", as_version=4)
    sol = nbformat.read(ROOT / "solutions" / f"{stem}.ipynb", as_version=4)
    cells = [c for c in ex.cells if c.metadata.get("course_lib", {}).get("question") == name]
    ids = {c.id for c in cells}
    solution = [c.source for c in sol.cells if c.id in ids and c.cell_type == "code"]
    return solution, [c.source for c in cells]


def solution_code(sources):
    """The code a solution adds: the lines between the markers, and the lines marked ``# SOLUTION``."""
    blocks = []
    for source in sources:
        inside, block = False, []
        for line in source.splitlines():
            if _BEGIN.match(line):
                inside, block = True, []
            elif _END.match(line):
                inside = False
                blocks.append(textwrap.dedent("\n".join(block)))
            elif inside:
                block.append(line)
            elif _LINE.search(line):
                blocks.append(_LINE.sub("", line).strip())
    return blocks


def _parse(block):
    try:
        return ast.parse(block)
    except SyntaxError:
        try:
            return ast.parse("if True:\n" + textwrap.indent(block, "    "))
        except SyntaxError:
            return None


def solution_identifiers(blocks):
    """Names the solution's code uses: names, attributes, keyword arguments, imported names."""
    out = set()
    for block in blocks:
        tree = _parse(block)
        if tree is None:
            out.update(IDENT.findall(block))
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                out.add(node.id)
            elif isinstance(node, ast.Attribute):
                out.add(node.attr)
            elif isinstance(node, ast.keyword) and node.arg:
                out.add(node.arg)
            elif isinstance(node, ast.alias):
                out.add(node.name.rpartition(".")[2])
    return {n for n in out if len(n) >= 3 and not keyword.iskeyword(n)}


def solution_pieces(blocks):
    """Pieces of the solution's code (calls, operations, attribute chains), spaces removed."""
    out = set()
    for block in blocks:
        tree = _parse(block)
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, (ast.Call, ast.BinOp, ast.Attribute, ast.Subscript, ast.Compare, ast.BoolOp,
                                 ast.UnaryOp)):
                piece = re.sub(r"\s+", "", ast.unparse(node))
                if len(piece) >= 6:
                    out.add(piece)
        for line in block.splitlines():
            piece = re.sub(r"\s+", "", line)
            if len(piece) > 8 and not piece.startswith("#"):
                out.add(piece)
    return out


def yes_no_identifiers(question):
    """The names in the expressions of a prediction question's yes/no items (``x.clone()`` -> ``clone``)."""
    out = set()
    for label, value in getattr(question, "items", {}).values():
        if isinstance(value, bool):
            out.update(n for n in IDENT.findall(label) if len(n) >= 3 and n != "torch")
    return out


def answer_literals(question):
    """The answers of a prediction question as they could be written in a hint."""
    out = set()

    def add(value):
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, str):
            out.add(value)
            if value.startswith("torch."):
                out.add(value[len("torch."):])
        elif isinstance(value, (int, float)):
            out.update({repr(value), repr(int(value))} if float(value).is_integer() else {repr(value)})
        elif isinstance(value, list):
            if value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                out.add(re.sub(r"\s+", "", repr(tuple(value))))
            else:
                for v in value:
                    add(v)
    for _, value in getattr(question, "items", {}).values():
        add(value)
    return out


def _strings(node):
    """The constant text of a string expression (f-strings: their constant parts)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.BinOp):
        return _strings(node.left) + _strings(node.right)
    return ""


def problem_hints(module, class_name):
    """The hint texts of the ``Problem(...)`` objects that a question class's judge returns."""
    tree = ast.parse(pathlib.Path(module.__file__).read_text(encoding="utf-8"))
    out = []
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name):
        for node in ast.walk(cls):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Problem":
                out += [_strings(k.value) for k in node.keywords if k.arg in ("hint", "hint2")]
    return out


def hint_texts(stem, question_class):
    """Every text that a learner may be shown as a hint for this question."""
    q = question_class()
    texts = [q.hint, q.hint2, getattr(q, "case_hint", "")]
    for case in q.cases():
        texts += [case.hint or "", case.hint2 or ""]
    if q.forbid is not None:
        texts.append(q.forbid.why)
    texts += problem_hints(chapters.load(stem), question_class.__name__)
    return [t for t in texts if t]


def all_questions():
    return [(stem, q) for stem in chapters.STEMS for q in chapters.load(stem).QUESTIONS]


def hint_problems(stem, question_class):
    """What gives an answer away in the question's hints (empty when they only guide)."""
    solution, exercise = _question_cells(stem, question_class.name)
    shown = "\n".join(exercise)
    shown_idents = set(IDENT.findall(shown))
    shown_flat = re.sub(r"\s+", "", shown)
    blocks = solution_code(solution)
    banned_idents = solution_identifiers(blocks) - shown_idents
    pieces = {p for p in solution_pieces(blocks) if p not in shown_flat}
    answers = answer_literals(question_class) if issubclass(question_class, Prediction) else set()
    if issubclass(question_class, Prediction):
        banned_idents |= yes_no_identifiers(question_class)
    problems = []
    for text in hint_texts(stem, question_class):
        idents = set(IDENT.findall(text))
        flat = re.sub(r"\s+", "", text)
        problems += [f"names the solution's {n!r}" for n in sorted(banned_idents & idents)]
        problems += [f"holds the solution's code {p!r}" for p in sorted(pieces) if p in flat]
        for a in sorted(answers):
            if (re.fullmatch(r"[\w.]+", a) and a in idents | set(re.findall(r"[\w.]+", text))) or \
                    (not re.fullmatch(r"[\w.]+", a) and re.sub(r"\s+", "", a) in flat):
                problems.append(f"gives the answer {a!r}")
    return problems


@pytest.mark.parametrize("stem, question", all_questions(), ids=lambda x: getattr(x, "name", x))
def test_hints_guide_without_giving_the_answer(stem, question):
    solution, exercise = _question_cells(stem, question.name)
    assert solution and exercise, f"{stem} {question.name}: no cells found"
    assert solution_code(solution), f"{stem} {question.name}: no solution code found"
    assert hint_problems(stem, question) == [], (stem, question.name)


@pytest.mark.parametrize("stem, question", all_questions(), ids=lambda x: getattr(x, "name", x))
def test_every_question_has_a_second_more_direct_hint(stem, question):
    q = question()
    assert q.hint and q.hint2 and q.hint2 != q.hint, (stem, q.name)


def test_the_rule_catches_the_hints_that_gave_answers_away():
    """The hints of the earlier version, which gave the answer away, fail the rule."""
    old = {
        ("01_tensor_creation", "q3"): "先算出元素个数 round((end - start) / step) + 1，再用 torch.linspace。",
        ("04_operations_and_shapes", "q3"): "用 x.sum(dim=-1, keepdim=True)：保留那一维（长度为 1）。",
        ("07_gradient_descent", "q2"): "((pred - target) ** 2).mean() 得到 0 维张量。",
        ("02_dtypes_devices_numpy", "q6"): "只有一个元素时用 .item() 得到 Python 的数；否则用 .tolist()。",
        ("05_broadcasting", "q4"): "用 keepdim=True 得到 (n, 1)。",
        ("06_autograd", "q1"): "z 的 grad_fn 是 PowBackward0，x.grad 是 36。",
        ("04_operations_and_shapes", "q2"): "cat 之后是 (2, 3, 8)。",
        ("03_views_and_copies", "q1"): "记住：切片、view、转置、detach 是视图；高级索引、clone、运算结果是新内存。",
    }
    for (stem, name), text in old.items():
        Q = next(q for q in chapters.load(stem).QUESTIONS if q.name == name)
        fake = type(Q.__name__, (Q,), {"hint": text})
        assert hint_problems(stem, fake), (stem, name, text)


def test_a_second_hint_is_given_on_request():
    def broadcast_shape(a, b):      # aligns the shapes on the left
        return tuple(max(x, y) for x, y in zip(a, b)) + tuple(a[len(b):]) + tuple(b[len(a):])
    q = chapters.load("05").QUESTIONS[0]
    first = run_check("05", "q1", {"broadcast_shape": broadcast_shape})
    assert f"提示：{q.hint}" in first.reason and "更直接的提示" not in first.reason
    assert first.render().endswith('还想要更直接一点的提示：运行 check("q1", hint=2)。')
    second = run_check("05", "q1", {"broadcast_shape": broadcast_shape}, hint=2)
    assert f"提示：{q.hint}" in second.reason and f"更直接的提示：{q.hint2}" in second.reason
    assert "hint=2" not in second.render()
    assert (first.points, second.points, first.case, second.case) == (0, 0, 1, 1)


def test_check_takes_the_hint_level(capsys):
    from course_lib.grading import checker
    check, _ = checker("05_broadcasting")
    ns = {"broadcast_shape": lambda a, b: (1,), "check": check}
    exec('check("q1", hint=2)', ns)
    assert "更直接的提示：" in capsys.readouterr().out
    exec('check("q1", hint=3)', ns)
    assert capsys.readouterr().out.startswith("hint 只能是 1 或 2")
