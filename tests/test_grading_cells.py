"""Which question a learner's cell belongs to, as the batch grader's report names it."""

import pathlib

import nbformat

from course_lib.grading._worker import question_of_cells

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _exercise():
    return nbformat.read(ROOT / "exercises" / "05_broadcasting.ipynb", as_version=4)


def _index(nb, source):
    return next(i for i, c in enumerate(nb.cells) if c.source == source)


def test_generated_cells_carry_their_question_and_check_all_is_named():
    nb = _exercise()
    where = question_of_cells(nb)
    assert where[_index(nb, 'check("q3")')] == "q3"
    assert where[_index(nb, "check_all()")] == "check_all"
    setup = next(i for i, c in enumerate(nb.cells) if "checker(" in c.source)
    assert setup not in where
    answers = [i for i, c in enumerate(nb.cells) if c.source.startswith("def pairwise_sq_dist")]
    assert [where[i] for i in answers] == ["q3"]


def test_a_cell_the_learner_added_belongs_to_the_question_it_follows():
    nb = _exercise()
    after_q2 = _index(nb, 'check("q2")') + 1
    nb.cells.insert(after_q2, nbformat.v4.new_code_cell("while True:\n    pass"))          # no metadata
    inside_q4 = _index(nb, 'check("q4")')
    nb.cells.insert(inside_q4, nbformat.v4.new_code_cell("print(center_rows)"))
    where = question_of_cells(nb)
    assert where[after_q2] == "q2"
    assert where[inside_q4] == "q4"


def test_without_any_tags_cells_belong_to_the_next_check():
    nb = _exercise()
    for cell in nb.cells:
        cell.metadata.pop("course_lib", None)
    where = question_of_cells(nb)
    first_answer = next(i for i, c in enumerate(nb.cells) if c.source.startswith("def broadcast_shape"))
    assert where[first_answer] == "q1"
    assert where[_index(nb, 'check("q5")')] == "q5"
    assert where[_index(nb, "check_all()")] == "check_all"
    assert not any("checker(" in nb.cells[i].source for i in where)
