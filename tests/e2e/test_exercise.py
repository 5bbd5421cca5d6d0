"""An exercise notebook as a learner uses it: type an answer, run it, run ``check("q2")``, read the verdict.

Question q2 of exercise 01 asks for ``checkerboard(n)``.  The verdicts are
read from the page: no answer yet, a wrong answer (all zeros), then a right
answer written differently from the solution notebook's (the tests check
behaviour, not text).
"""

from .conftest import ARTIFACTS, REPO
from .notebook_ui import NotebookUI

EXERCISE = REPO / "exercises" / "01_tensor_creation.ipynb"
WRONG = "def checkerboard(n):\n    return torch.zeros(n, n, dtype=torch.int64)\n"
RIGHT = "def checkerboard(n):\n    i = torch.arange(n)\n    return (i.view(-1, 1) + i) % 2\n"


def test_check_cell_shows_failing_then_passing_verdict(server, page):
    assert EXERCISE.exists(), f"{EXERCISE.relative_to(REPO)} is missing (make exercises)"
    folder = server.copy_in(EXERCISE.parent, "exercises")
    ui = NotebookUI(page, server, folder / EXERCISE.name).open()

    ui.run_cell(ui.code_cell_containing("checker("))
    answer = ui.code_cell_containing("def checkerboard(")
    check = ui.code_cell_containing('check("q2")')
    assert answer < check
    assert "..." in ui.cell(answer).locator(".cm-content").inner_text(), "the exercise should leave q2 to the learner"

    # as generated: not answered yet
    ui.run_cell(answer)
    ui.run_cell(check)
    verdict = ui.output_text(check)
    assert "✗ q2" in verdict and "未通过" in verdict, verdict

    # a wrong answer: the failing verdict, with what went wrong
    ui.set_source(answer, WRONG)
    ui.run_cell(answer)
    ui.run_cell(check)
    verdict = ui.output_text(check)
    assert "✗ q2" in verdict and "未通过" in verdict, verdict
    assert "还没有作答" not in verdict, verdict
    ui.cell(check).screenshot(path=str(ARTIFACTS / "exercise-01-q2-wrong.png"))

    # a right answer: the passing verdict
    ui.set_source(answer, RIGHT)
    ui.run_cell(answer)
    ui.run_cell(check)
    verdict = ui.output_text(check)
    assert "✓ q2" in verdict and "通过" in verdict and "未通过" not in verdict, verdict

    ui.cell(answer).screenshot(path=str(ARTIFACTS / "exercise-01-q2-answer.png"))
    ui.cell(check).screenshot(path=str(ARTIFACTS / "exercise-01-q2-right.png"))
