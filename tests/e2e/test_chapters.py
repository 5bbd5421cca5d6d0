"""Every chapter as a learner meets it in JupyterLab: open, Run All Cells, read the page, play with each widget.

Per chapter one page runs the notebook once (module-scoped fixture); the tests
then read it: no error output, every cell ran, every widget view rendered
(no "Error displaying widget", no "Click to show javascript error"), and
each widget answers the mouse and keyboard (``widget_checks``).  Screenshots
of every widget after its interaction: ``artifacts/e2e/<chapter>-<widget>.png``.
"""

import json
import re

import pytest

from .conftest import ARTIFACTS, REPO, PageSession, slug
from .notebook_ui import NotebookUI
from .widget_checks import INTERACTIONS, WIDGET_CLASSES, screenshot_widget, upscaled_pictures, widget_roots

CHAPTER_DIR = REPO / "notebooks"
CHAPTERS = sorted(p.name for p in CHAPTER_DIR.glob("[0-9][0-9]_*.ipynb"))


def widget_kinds(name):
    """CSS classes of the course widgets that chapter ``name`` builds in its code cells, in order."""
    nb = json.loads((CHAPTER_DIR / name).read_text())
    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    return [css for ctor, css in WIDGET_CLASSES.items() if re.search(rf"\b{ctor}\s*\(", source)]


WIDGET_CASES = [(name, css) for name in CHAPTERS for css in widget_kinds(name)]


def pytest_generate_tests(metafunc):
    # module scope: the tests of one chapter share one run of it (pytest groups them by chapter)
    if "widget" in metafunc.fixturenames:
        metafunc.parametrize(["chapter", "widget"], WIDGET_CASES, indirect=["chapter"], scope="module",
                             ids=[f"{n.removesuffix('.ipynb')}-{css}" for n, css in WIDGET_CASES])
    elif "chapter" in metafunc.fixturenames:
        metafunc.parametrize("chapter", CHAPTERS, indirect=True, scope="module",
                             ids=[n.removesuffix(".ipynb") for n in CHAPTERS])


class ChapterRun:
    def __init__(self, name, session, ui, nb):
        self.name, self.session, self.ui, self.nb = name, session, ui, nb
        self.page = session.page


@pytest.fixture(scope="module")
def chapter(request, browser, server):
    """Chapter ``request.param`` opened in JupyterLab (a fresh kernel), cleared, run, saved."""
    name = request.param
    folder = server.copy_in(CHAPTER_DIR, f"chapters-{name.removesuffix('.ipynb')}")
    session = PageSession(browser, name)
    try:
        ui = NotebookUI(session.page, server, folder / name).open()
        ui.run_all()
        nb = ui.save()
    except Exception:
        session.save_failure(f"{name}-run")
        session.close()
        server.shutdown_kernels()
        raise
    run = ChapterRun(name, session, ui, nb)
    yield run
    session.close()
    server.shutdown_kernels()


@pytest.fixture(autouse=True)
def _page_on_failure(request):
    yield
    run = request.node.funcargs.get("chapter")
    if isinstance(run, ChapterRun) and getattr(request.node, "rep_call", None) and request.node.rep_call.failed:
        run.session.save_failure(request.node.name)


def test_all_chapters_are_there():
    assert [n[:2] for n in CHAPTERS] == [f"{i:02d}" for i in range(11)], CHAPTERS


def test_every_widget_kind_appears_in_a_chapter():
    assert {css for _, css in WIDGET_CASES} == set(WIDGET_CLASSES.values())


def test_chapter_runs_without_errors(chapter):
    assert NotebookUI.error_outputs(chapter.nb) == []
    assert NotebookUI.unexecuted_cells(chapter.nb) == []


def test_chapter_widgets_render(chapter):
    assert chapter.ui.widget_problems(chapter.nb) == []
    # every course widget on the page is one this suite interacts with (its constructor is in the source)
    on_page = {css for css in WIDGET_CLASSES.values() if widget_roots(chapter.page, css).count()}
    assert on_page == set(widget_kinds(chapter.name))


def test_widget_responds(chapter, widget):
    roots = widget_roots(chapter.page, widget)
    count = roots.count()
    assert count >= 1, f"no rendered .{widget} in {chapter.name}"
    for i in range(count):
        root = roots.nth(i)
        INTERACTIONS[widget](root)
        suffix = "" if count == 1 else f"-{i + 1}"
        screenshot_widget(root, ARTIFACTS / f"{slug(chapter.name.removesuffix('.ipynb'))}-{widget}{suffix}.png")
        # a picture stretched past its PNG's size is blurry (and a tall one pushes the controls off screen)
        assert upscaled_pictures(root) == []
