"""The exercise generator: otter's marker rules, the checks on a solution notebook, and the sync check."""

import pathlib

import nbformat
import pytest

from course_lib.grading import chapters
from course_lib.grading.generate import MarkerError, generate, main, make_exercise, strip_solutions

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("source, expected", [
    # otter's own documented examples
    ("def square(x):\n    y = x * x # SOLUTION NO PROMPT\n    return y # SOLUTION\n\nnine = square(3) # SOLUTION",
     "def square(x):\n    ...\n\nnine = ..."),
    ("pi = 3.14\nif True:\n    # BEGIN SOLUTION\n    radius = 3\n    area = radius * pi * pi\n    # END SOLUTION\n"
     "    print('A circle with radius', radius, 'has area', area)\ndef circumference(r):\n"
     "    # BEGIN SOLUTION NO PROMPT\n    return 2 * pi * r\n    # END SOLUTION\n    ''' # BEGIN PROMPT\n"
     "    # Next, define a circumference function.\n    pass\n    ''' # END PROMPT",
     "pi = 3.14\nif True:\n    ...\n    print('A circle with radius', radius, 'has area', area)\n"
     "def circumference(r):\n    # Next, define a circumference function.\n    pass"),
    # a prompt hidden from the solution's output with a semicolon; augmented assignment
    ('q = {"a": 1}  # SOLUTION\nx += 2  # SOLUTION\n""" # BEGIN PROMPT\nq = {"a": ...}\n"""; # END PROMPT',
     'q = ...\nx += ...\nq = {"a": ...}'),
    # comparison is not an assignment; nothing to do without markers
    ("assert a == b  # SOLUTION\nprint(1)", "...\nprint(1)"),
    ("x = 1\ny = 2", "x = 1\ny = 2"),
])
def test_marker_rules(source, expected):
    assert strip_solutions(source) == expected


@pytest.mark.parametrize("source, message", [
    ("# BEGIN SOLUTION\nx = 1", "has no '# END SOLUTION'"),
    ("x = 1\n# END SOLUTION", "without a '# BEGIN SOLUTION'"),
    ("# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION", "nested"),
    ('""" # BEGIN PROMPT\nx = ...', "has no '# END PROMPT'"),
    ('""" # END PROMPT', "without a '# BEGIN PROMPT'"),
])
def test_unpaired_markers_are_errors(source, message):
    with pytest.raises(MarkerError, match=message):
        strip_solutions(source)


def _solution(stem="05_broadcasting"):
    return nbformat.read(ROOT / "solutions" / f"{stem}.ipynb", as_version=4)


def test_exercise_tags_question_cells_and_drops_the_markers():
    ex = make_exercise(_solution(), "05_broadcasting")
    assert ex.metadata["course_lib"]["chapter"] == "05_broadcasting"
    assert not [c for c in ex.cells if c.cell_type == "raw" and "QUESTION" in c.source]
    tagged = [c.metadata["course_lib"]["question"] for c in ex.cells if "course_lib" in c.metadata]
    assert sorted(set(tagged)) == ["q1", "q2", "q3", "q4", "q5"]
    for c in ex.cells:
        if c.cell_type == "code":
            assert c.outputs == [] and c.execution_count is None
    # the broken snippet of q4 is what the learner gets; the fix is not
    q4 = [c.source for c in ex.cells
          if c.cell_type == "code" and c.metadata.get("course_lib", {}).get("question") == "q4"][0]
    assert "return x - x.mean(dim=1)" in q4 and "keepdim=True" not in q4


def test_question_markers_must_match_the_tests():
    nb = _solution()
    begin = next(i for i, c in enumerate(nb.cells) if c.cell_type == "raw" and "name: q5" in c.source)
    nb.cells[begin].source = "# BEGIN QUESTION\nname: q9"
    with pytest.raises(MarkerError, match="differ from the tests"):
        make_exercise(nb, "05_broadcasting")
    nb = _solution()
    check_q1 = next(c for c in nb.cells if c.source.strip() == 'check("q1")')
    nb.cells.remove(check_q1)
    with pytest.raises(MarkerError, match="without a check"):
        make_exercise(nb, "05_broadcasting")
    nb = _solution()
    end = next(c for c in nb.cells if c.cell_type == "raw" and "END QUESTION" in c.source)
    nb.cells.remove(end)
    with pytest.raises(MarkerError, match="not closed|no '# END QUESTION'"):
        make_exercise(nb, "05_broadcasting")


def test_a_question_without_solution_markers_is_refused():
    nb = _solution()
    begin = next(i for i, c in enumerate(nb.cells) if c.cell_type == "raw" and "name: q3" in c.source)
    end = next(i for i, c in enumerate(nb.cells) if i > begin and c.cell_type == "raw" and "END QUESTION" in c.source)
    for cell in nb.cells[begin:end]:
        if cell.cell_type == "code":     # the solution written out without markers
            cell.source = "\n".join(line for line in cell.source.splitlines()
                                    if "SOLUTION" not in line).replace("# SOLUTION", "")
    with pytest.raises(MarkerError) as info:
        make_exercise(nb, "05_broadcasting")
    assert str(info.value).startswith("questions without solution markers (their exercise would hold the answer): "
                                      "['q3']")


def test_repository_exercises_are_in_sync():
    assert generate(ROOT / "solutions", ROOT / "exercises", check=True) == []
    assert sorted(p.stem for p in (ROOT / "exercises").glob("*.ipynb")) == list(chapters.STEMS)


@pytest.mark.parametrize("stem", chapters.STEMS)
def test_exercises_hold_no_solution_code(stem):
    sol = _solution(stem)
    ex = nbformat.read(ROOT / "exercises" / f"{stem}.ipynb", as_version=4)
    ex_text = "\n".join(c.source for c in ex.cells)
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN PROMPT", "END PROMPT", "BEGIN QUESTION"):
        assert marker not in ex_text
    for cell in sol.cells:
        lines = cell.source.split("\n")
        inside = False
        for line in lines:
            if "# BEGIN SOLUTION" in line:
                inside = True
            elif "# END SOLUTION" in line:
                inside = False
            elif inside and len(line.strip()) > 12 and "return" in line:
                assert line.strip() not in ex_text, f"{stem}: solution line {line.strip()!r} leaked"


def test_check_mode_reports_drift_and_extra_files(tmp_path, capsys):
    sol, ex = tmp_path / "solutions", tmp_path / "exercises"
    sol.mkdir()
    (sol / "05_broadcasting.ipynb").write_bytes((ROOT / "solutions" / "05_broadcasting.ipynb").read_bytes())
    assert main([str(sol), str(ex), "--check"]) == 1
    assert "missing" in capsys.readouterr().err
    assert main([str(sol), str(ex)]) == 0
    assert main([str(sol), str(ex), "--check"]) == 0
    target = ex / "05_broadcasting.ipynb"
    target.write_text(target.read_text(encoding="utf-8").replace("广播", "广 播"), encoding="utf-8")
    assert main([str(sol), str(ex), "--check"]) == 1
    assert "differs" in capsys.readouterr().err
    main([str(sol), str(ex)])
    (ex / "99_extra.ipynb").write_text("{}", encoding="utf-8")
    assert main([str(sol), str(ex), "--check"]) == 1
    assert "has no solution notebook" in capsys.readouterr().err


def test_a_solution_file_must_be_named_after_a_chapter(tmp_path):
    sol = tmp_path / "solutions"
    sol.mkdir()
    (sol / "my_homework.ipynb").write_bytes((ROOT / "solutions" / "05_broadcasting.ipynb").read_bytes())
    problems = generate(sol, tmp_path / "exercises", check=True)
    assert len(problems) == 1 and "not a chapter stem" in problems[0]
