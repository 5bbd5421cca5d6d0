"""Generate the exercise notebooks from the solution notebooks (the single source).

    python -m course_lib.grading.generate solutions exercises          # what `make exercises` runs
    python -m course_lib.grading.generate solutions exercises --check  # CI: fail if exercises/ drifted

The markers are otter-grader's (and jAssign's) notebook format, so authors who
know otter know them already:

* a raw cell ``# BEGIN QUESTION`` with a line ``name: q1`` opens a question,
  a raw cell ``# END QUESTION`` closes it (both are dropped; the cells in
  between are tagged ``metadata.course_lib.question = "q1"`` so the grader
  can tell which cells answer which question);
* in code cells, a line ending in ``# SOLUTION`` becomes ``...`` (for an
  assignment, only the right-hand side does); a line ending in
  ``# SOLUTION NO PROMPT`` is dropped;
* lines between ``# BEGIN SOLUTION`` and ``# END SOLUTION`` become one ``...``
  at the marker's indentation; with ``# BEGIN SOLUTION NO PROMPT`` they are dropped;
* the body of a string opened by ``\"\"\" # BEGIN PROMPT`` and closed by
  ``\"\"\" # END PROMPT`` (``\"\"\"; # END PROMPT`` hides it in the solution's
  output) appears as code in the exercise: use it for the broken snippet a
  learner must fix, or for an answer template.

Outputs, execution counts and metadata that depend on where the solutions
were last executed are dropped, so re-executing the solutions does not change
the exercises.  The questions found must be the
ones ``course_lib/grading/chapters/ch<stem>.py`` tests, in the same order,
and each question must contain its ``check("qN")`` cell.
"""

import argparse
import copy
import pathlib
import re
import sys

from . import chapters

__all__ = ["strip_solutions", "make_exercise", "generate", "main"]

_BEGIN_SOL = re.compile(r"^(\s*)# BEGIN SOLUTION( NO PROMPT)?\s*$")
_END_SOL = re.compile(r"^\s*# END SOLUTION( NO PROMPT)?\s*$")
_BEGIN_PROMPT = re.compile(r"^\s*[rR]?(\"\"\"|''')\s*# BEGIN PROMPT\s*$")
_END_PROMPT = re.compile(r"^\s*(\"\"\"|''')\s*;?\s*# END PROMPT\s*$")
_LINE_NO_PROMPT = re.compile(r"#\s*(SOLUTION NO PROMPT|SEED)\s*$")
_LINE_SOL = re.compile(r"#\s*SOLUTION\s*$")
_ASSIGN = re.compile(r"^(\s*[^=#'\"(]*?[^=!<>#\s]\s*(?:[-+*/%@&|^]|//|\*\*|>>|<<)?=)(?!=)")
_QUESTION_NAME = re.compile(r"^\s*name:\s*(\S+)\s*$", re.M)


class MarkerError(ValueError):
    """A solution cell whose markers do not pair up."""


def strip_solutions(source):
    """The exercise version of one code cell's ``source`` (see the module docstring for the rules).

    Raises:
        MarkerError: for an unclosed or unopened ``BEGIN``/``END`` marker.
    """
    out = []
    lines = source.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _BEGIN_SOL.match(line)
        if m:
            indent, no_prompt = m.group(1), m.group(2)
            j = i + 1
            while j < len(lines) and not _END_SOL.match(lines[j]):
                if _BEGIN_SOL.match(lines[j]):
                    raise MarkerError(f"nested '# BEGIN SOLUTION' at line {j + 1}")
                j += 1
            if j == len(lines):
                raise MarkerError(f"'# BEGIN SOLUTION' at line {i + 1} has no '# END SOLUTION'")
            if not no_prompt:
                out.append(indent + "...")
            i = j + 1
            continue
        if _END_SOL.match(line):
            raise MarkerError(f"'# END SOLUTION' at line {i + 1} without a '# BEGIN SOLUTION'")
        if _BEGIN_PROMPT.match(line):
            j = i + 1
            while j < len(lines) and not _END_PROMPT.match(lines[j]):
                j += 1
            if j == len(lines):
                raise MarkerError(f"'# BEGIN PROMPT' at line {i + 1} has no '# END PROMPT'")
            out.extend(lines[i + 1:j])
            i = j + 1
            continue
        if _END_PROMPT.match(line):
            raise MarkerError(f"'# END PROMPT' at line {i + 1} without a '# BEGIN PROMPT'")
        if _LINE_NO_PROMPT.search(line):
            i += 1
            continue
        if _LINE_SOL.search(line):
            code = _LINE_SOL.sub("", line).rstrip()
            a = _ASSIGN.match(code)
            if a:
                out.append(a.group(1).rstrip() + " ...")
            else:
                out.append(code[: len(code) - len(code.lstrip())] + "...")
            i += 1
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def make_exercise(nb, stem):
    """The exercise notebook (a new ``NotebookNode``) generated from solution notebook ``nb``.

    Raises:
        MarkerError: for unpaired markers, or questions that do not match the chapter's tests.
    """
    ex = copy.deepcopy(nb)
    # only what does not depend on where the solutions were last executed (Python version, timings)
    ex.metadata = {"kernelspec": nb.metadata.get("kernelspec", {"display_name": "Python 3 (ipykernel)",
                                                               "language": "python", "name": "python3"}),
                   "language_info": {"name": "python"},
                   "course_lib": {"chapter": stem, "generated_from": f"solutions/{stem}.ipynb"}}
    cells, current, found, has_check, has_solution = [], None, [], {}, {}
    for index, cell in enumerate(ex.cells):
        text = cell.source.strip()
        if cell.cell_type == "raw" and text.startswith("# BEGIN QUESTION"):
            if current is not None:
                raise MarkerError(f"cell {index}: question {current!r} is not closed before the next one")
            m = _QUESTION_NAME.search(text)
            if not m:
                raise MarkerError(f"cell {index}: '# BEGIN QUESTION' needs a line 'name: qN'")
            current = m.group(1)
            found.append(current)
            has_check[current] = False
            has_solution[current] = False
            continue
        if cell.cell_type == "raw" and text.startswith("# END QUESTION"):
            if current is None:
                raise MarkerError(f"cell {index}: '# END QUESTION' without '# BEGIN QUESTION'")
            current = None
            continue
        if cell.cell_type == "code":
            if current is not None and any(_BEGIN_SOL.match(line) or _LINE_SOL.search(line)
                                           or _LINE_NO_PROMPT.search(line) for line in cell.source.splitlines()):
                has_solution[current] = True
            try:
                cell.source = strip_solutions(cell.source)
            except MarkerError as e:
                raise MarkerError(f"cell {index}: {e}") from None
            cell.outputs = []
            cell.execution_count = None
            if current is not None and re.fullmatch(rf"check\(\s*[\"']{re.escape(current)}[\"']\s*\)", text):
                has_check[current] = True
        for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN PROMPT", "END PROMPT"):
            if marker in cell.source:
                raise MarkerError(f"cell {index}: stray '{marker}' marker")
        cell.metadata = {k: v for k, v in cell.metadata.items() if k == "tags"}
        if current is not None:
            cell.metadata["course_lib"] = {"question": current}
        cells.append(cell)
    if current is not None:
        raise MarkerError(f"question {current!r} has no '# END QUESTION'")
    expected = [q.name for q in chapters.load(stem).QUESTIONS]
    if found != expected:
        raise MarkerError(f"questions in the notebook {found} differ from the tests in "
                          f"{chapters.module_name(stem)} {expected}")
    missing = [q for q, ok in has_check.items() if not ok]
    if missing:
        raise MarkerError(f"questions without a check(\"qN\") cell: {missing}")
    unmarked = [q for q, ok in has_solution.items() if not ok]
    if unmarked:
        raise MarkerError(f"questions without solution markers (their exercise would hold the answer): {unmarked}; "
                          "mark the answer with '# BEGIN SOLUTION' ... '# END SOLUTION' or '# SOLUTION'")
    ex.cells = cells
    return ex


def _render(nb):
    import nbformat
    return nbformat.writes(nb) + "\n"


def generate(solutions, exercises, check=False, out=sys.stdout):
    """Write (or, with ``check``, compare) ``exercises/NN_x.ipynb`` for every ``solutions/NN_x.ipynb``.

    Returns the list of problems found in check mode (empty when everything is in sync).
    """
    import nbformat
    solutions, exercises = pathlib.Path(solutions), pathlib.Path(exercises)
    sources = sorted(p for p in solutions.glob("*.ipynb"))
    problems = []
    for src in sources:
        stem = chapters.stem_of(src.stem)
        if stem is None or stem != src.stem:
            problems.append(f"{src}: the file name is not a chapter stem ({', '.join(chapters.STEMS)})")
            continue
        nb = nbformat.read(src, as_version=4)
        try:
            text = _render(make_exercise(nb, stem))
        except MarkerError as e:
            problems.append(f"{src}: {e}")
            continue
        target = exercises / src.name
        if check:
            if not target.exists():
                problems.append(f"{target} is missing")
            elif target.read_text(encoding="utf-8") != text:
                problems.append(f"{target} differs from what {src} generates")
        else:
            exercises.mkdir(parents=True, exist_ok=True)
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                target.write_text(text, encoding="utf-8")
                print(f"wrote {target}", file=out)
    if check:
        names = {p.name for p in sources}
        for extra in sorted(exercises.glob("*.ipynb")):
            if extra.name not in names:
                problems.append(f"{extra} has no solution notebook in {solutions}")
    return problems


def main(argv=None):
    """Command line: ``generate SOLUTIONS EXERCISES [--check]``; returns the exit status."""
    ap = argparse.ArgumentParser(prog="python -m course_lib.grading.generate", description=__doc__.splitlines()[0])
    ap.add_argument("solutions", help="folder of solution notebooks (the source)")
    ap.add_argument("exercises", help="folder of generated exercise notebooks")
    ap.add_argument("--check", action="store_true", help="write nothing; fail if the exercises are out of date")
    args = ap.parse_args(argv)
    problems = generate(args.solutions, args.exercises, check=args.check)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        if args.check:
            print("exercises/ is out of date: run `make exercises` and commit the result", file=sys.stderr)
        return 1
    if args.check:
        print(f"{args.exercises} is in sync with {args.solutions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
