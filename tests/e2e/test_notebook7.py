"""The classic-style Notebook 7 interface (/notebooks/<path>): a widget chapter runs and its widgets work.

The chapter is the one with the gradient-descent widget (sliders are where
Notebook 7 differs most), or the first chapter with any widget.

Notebook 7 shares JupyterLab's front end but not its shell: its own menus,
page layout and keyboard handling (a focused slider does not take the arrow
keys: the checks drag the handle with the mouse).
"""

from .conftest import ARTIFACTS, slug
from .notebook_ui import NotebookUI
from .test_chapters import CHAPTER_DIR, CHAPTERS, widget_kinds
from .widget_checks import INTERACTIONS, screenshot_widget, widget_roots


def test_widget_chapter_in_notebook7(server, page):
    candidates = [n for n in CHAPTERS if "cl-descent" in widget_kinds(n)] or [n for n in CHAPTERS if widget_kinds(n)]
    assert candidates, "no chapter builds a course widget"
    name = candidates[0]
    folder = server.copy_in(CHAPTER_DIR, "notebook7")
    ui = NotebookUI(page, server, folder / name, ui="notebook").open()
    assert "/notebooks/" in page.url and page.locator(".jp-LabShell").count() == 0     # not JupyterLab's shell
    ui.run_all()
    nb = ui.save()
    assert ui.error_outputs(nb) == []
    assert ui.unexecuted_cells(nb) == []
    assert ui.widget_problems(nb) == []
    for css in widget_kinds(name):
        root = widget_roots(page, css).first
        INTERACTIONS[css](root)
        screenshot_widget(root, ARTIFACTS / f"notebook7-{slug(name.removesuffix('.ipynb'))}-{css}.png")
