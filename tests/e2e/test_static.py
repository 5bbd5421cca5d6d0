"""A chapter read without a live kernel: the pictures saved in the notebook still show.

Every widget leaves a static PNG next to its live view in the saved file.
Here a chapter with widgets is opened, nothing is run, its kernel is shut
down (Kernel > Shut Down Kernel: "No Kernel"), and every cell whose saved
outputs hold a PNG must show that picture, loaded and visible, with no
"Error displaying widget" in its place.
"""

import json

import pytest

from .conftest import ARTIFACTS
from .notebook_ui import WIDGET_VIEW, NotebookUI
from .test_chapters import CHAPTER_DIR, CHAPTERS


def _load(name):
    return json.loads((CHAPTER_DIR / name).read_text())


def _outputs(nb):
    return [(i, o) for i, c in enumerate(nb["cells"]) for o in c.get("outputs", [])]


def _png_cells(nb):
    counts = {}
    for i, o in _outputs(nb):
        if "image/png" in o.get("data", {}):
            counts[i] = counts.get(i, 0) + 1
    return counts


WITH_WIDGETS = [n for n in CHAPTERS if any(WIDGET_VIEW in o.get("data", {}) for _, o in _outputs(_load(n)))]


@pytest.mark.parametrize("name", CHAPTERS, ids=[n.removesuffix(".ipynb") for n in CHAPTERS])
def test_every_saved_widget_output_has_a_picture(name):
    missing = [i for i, o in _outputs(_load(name)) if WIDGET_VIEW in o.get("data", {}) and "image/png" not in o["data"]]
    assert missing == [], f"{name}: widget outputs without a static PNG in cells {missing}"


def test_some_chapter_saves_widget_outputs():
    assert WITH_WIDGETS, "no chapter has a saved widget output"


@pytest.mark.parametrize("name", WITH_WIDGETS, ids=[n.removesuffix(".ipynb") for n in WITH_WIDGETS])
def test_saved_chapter_shows_its_pictures_without_a_kernel(server, page, name):
    expected = _png_cells(_load(name))
    folder = server.copy_in(CHAPTER_DIR, "static")
    ui = NotebookUI(page, server, folder / name).open()
    ui.menu("Kernel", "Shut Down Kernel")
    page.locator(".jp-Toolbar-kernelName").filter(has_text="No Kernel").wait_for()
    assert not [s for s in server.api("GET", "sessions") if s["path"] == str(folder / name)]

    shown = {}
    for i in expected:
        cell = ui.cell(i)
        cell.scroll_into_view_if_needed()
        shown[i] = cell.locator(".jp-Cell-outputArea img").evaluate_all(
            "imgs => imgs.filter(im => im.complete && im.naturalWidth > 0 && im.src.startsWith('data:image/png')"
            " && im.getBoundingClientRect().width > 0).length")
    assert shown == expected
    assert [p for cell in ui.widget_dom() for p in cell["errors"]] == []
    widget_cell = max(i for i, o in _outputs(_load(name)) if WIDGET_VIEW in o.get("data", {}))
    ui.cell(widget_cell).scroll_into_view_if_needed()
    ui.cell(widget_cell).screenshot(path=str(ARTIFACTS / f"static-{name.removesuffix('.ipynb')}.png"))
