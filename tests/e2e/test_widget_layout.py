"""The four course widgets in a narrow JupyterLab: 900 px and 1280 px windows with the file browser open.

At each width, for every widget: no label or button text is clipped, the widget does not spill
out of its output area, each picture is shown no larger than its PNG and no smaller than its
minimum width (the width at which its smallest text is 10 px; ``course_lib.viz.pictures``), and the
gradient-descent sliders give at least 4 px per step.  At 900 px a learner drags the learning-rate
handle onto the presets' values (0.1 and 0.01 exactly) and types a value into the box labelled
"或输入".  Screenshots: ``artifacts/e2e/layout-<width>-<widget>.png``.
"""

import json
import re

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .notebook_ui import NotebookUI

WIDTHS = (900, 1280)
TIMEOUT = 30_000

CELLS = [
    "import course_lib as torch\nfrom course_lib.viz import BroadcastExplorer, MemoryLayout\n"
    "from course_lib.viz.descent import DescentWidget\nfrom course_lib.viz.graph import GraphWidget",
    "MemoryLayout(torch.arange(12).view(3, 4))",
    'BroadcastExplorer("(3, 1)", "(4,)")',
    "x = torch.tensor([1.0, -2.0], requires_grad=True)\nb = torch.tensor([0.5, 0.5], requires_grad=True)\n"
    "loss = ((x * b).exp() + x).sum()\nGraphWidget(loss)",
    "DescentWidget()",
]
WIDGETS = ["cl-memory-layout", "cl-broadcast", "cl-graph", "cl-descent"]

MEASURE = """(root) => {
  const visible = e => e.offsetParent !== null && e.getBoundingClientRect().width > 0;
  const clipped = [...root.querySelectorAll('.widget-label, button, .widget-html-content')]
      .filter(visible).filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim());
  const pictures = [...root.querySelectorAll('img.cl-picture')].filter(visible).map(i => ({
      natural: i.naturalWidth, shown: i.getBoundingClientRect().width, min: parseFloat(i.style.minWidth || '0')}));
  const tracks = {};
  root.querySelectorAll('.widget-slider').forEach(s => {
      const base = s.querySelector('.noUi-base');
      const name = [...s.classList].find(c => c.startsWith('cl-')) || 'slider';
      if (base) tracks[name] = base.getBoundingClientRect().width;
  });
  const area = root.closest('.jp-OutputArea-output');
  return {clipped, pictures, tracks, spill: root.getBoundingClientRect().right - area.getBoundingClientRect().right,
          width: area.getBoundingClientRect().width};
}"""


def _notebook(folder):
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": src}
                    for src in CELLS],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "widgets.ipynb").write_text(json.dumps(nb), encoding="utf-8")


@pytest.fixture(scope="module")
def lab(browser, server, tmp_path_factory):
    from .conftest import PageSession
    source = tmp_path_factory.mktemp("layout")
    _notebook(source)
    folder = server.copy_in(source, "layout")
    session = PageSession(browser, "widget-layout")
    ui = NotebookUI(session.page, server, folder / "widgets.ipynb").open()
    ui.run_all()
    page = session.page
    for css in WIDGETS:
        page.locator(f".jp-Cell-outputArea .{css}").first.wait_for(timeout=60_000)
    if not page.locator("#filebrowser").is_visible():
        page.locator(".jp-SideBar.jp-mod-left [data-id='filebrowser']").click()
    page.locator("#filebrowser").wait_for(state="visible")
    yield page
    session.close()
    server.shutdown_kernels()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("css", WIDGETS)
def test_widget_fits_the_window(lab, width, css):
    lab.set_viewport_size({"width": width, "height": 1000})
    lab.wait_for_timeout(400)
    root = lab.locator(f".jp-Cell-outputArea .{css}").first
    root.scroll_into_view_if_needed()
    m = root.evaluate(MEASURE)
    root.screenshot(path=str(ARTIFACTS / f"layout-{width}-{css}.png"))
    assert m["clipped"] == [], f"{css} at {width} px: clipped {m['clipped']}"
    assert m["spill"] <= 1, f"{css} at {width} px: spills {m['spill']} px out of its output area ({m['width']} px)"
    assert m["pictures"], f"{css}: no picture"
    for p in m["pictures"]:
        assert p["shown"] <= p["natural"] + 1, (css, width, p)
        assert p["shown"] >= p["min"] - 1 > 0, (css, width, p)       # text >= 10 px
    if css == "cl-descent":
        assert m["tracks"]["cl-descent-lr"] >= 50 * 4, m["tracks"]     # 50 steps of 10**0.05
        assert m["tracks"]["cl-descent-epochs"] >= 39 * 4, m["tracks"]  # 39 steps of 50 epochs


def _drag_to(page, slider, fraction):
    handle, track = slider.locator(".noUi-handle"), slider.locator(".noUi-base").bounding_box()
    box = handle.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] / 2, y)
    page.mouse.down()
    page.mouse.move(track["x"] + track["width"] * fraction, y, steps=10)
    page.mouse.up()


def test_a_drag_lands_on_the_presets_and_a_typed_value_is_taken(lab):
    lab.set_viewport_size({"width": 900, "height": 1000})
    lab.wait_for_timeout(400)
    root = lab.locator(".jp-Cell-outputArea .cl-descent").first
    root.scroll_into_view_if_needed()
    status, slider = root.locator(".cl-descent-status"), root.locator(".cl-descent-lr")
    for lr, fraction in (("0.1", (-1 + 3) / 2.5), ("0.01", (-2 + 3) / 2.5)):
        _drag_to(lab, slider, fraction)
        expect(status).to_contain_text(f"lr={lr}，", timeout=TIMEOUT)
    box = root.locator(".cl-descent-lr-box input")
    label = root.locator(".widget-label", has=lab.locator("text=或输入"))
    assert label.count() >= 1
    box.fill("0.05")
    box.press("Enter")
    expect(status).to_contain_text("lr=0.05，", timeout=TIMEOUT)
    assert re.search(r"lr=0\.05，100 轮", status.inner_text())
