"""The suite's own detectors, on notebooks made to fail: an error cell, a widget whose front end is missing.

Without these the chapter tests could pass by not seeing anything; here the
same code must report exactly the broken cells.  Also: Chromium draws
Chinese with real glyphs (the CJK fonts of mplfonts via XDG_DATA_HOME), not
with the empty boxes it uses when it has no CJK font.
"""

import nbformat

from .notebook_ui import NotebookUI

SLIDER = """import ipywidgets as widgets
slider = widgets.IntSlider(value=3, description='步数')
slider"""

BROKEN_WIDGET = """import ipywidgets as widgets
from traitlets import Unicode

class Missing(widgets.DOMWidget):
    # a view from a front-end module that is not installed: what a missing lab extension looks like
    _view_name = Unicode('MissingView').tag(sync=True)
    _view_module = Unicode('course-lib-no-such-extension').tag(sync=True)
    _view_module_version = Unicode('1.0.0').tag(sync=True)

Missing()"""


def _write(folder, name, sources):
    # no kernelspec metadata: JupyterLab asks for a kernel first, and the driver must answer that dialog
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 检测器自测")]
    nb.cells += [nbformat.v4.new_code_cell(s) for s in sources]
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / name)


def test_detectors_report_error_cells_and_broken_widgets(server, page):
    _write(server.root / "harness", "broken.ipynb",
           [SLIDER, "print('ok')", BROKEN_WIDGET, "1 / 0", "print('never runs')"])
    ui = NotebookUI(page, server, "harness/broken.ipynb").open()
    ui.run_all()
    nb = ui.save()

    assert nb["metadata"]["kernelspec"]["name"] == "python3"          # chosen in the kernel dialog, then saved
    assert ui.error_outputs(nb) == ["cell 4: ZeroDivisionError: division by zero"]
    assert ui.unexecuted_cells(nb) == ["cell 5: execution_count None, expected 5"]
    problems = ui.widget_problems(nb, settle_ms=5_000)
    # the slider (cell 1) renders; the widget without a front end (cell 3) is reported, nothing else
    assert problems, "a widget with a missing front-end module was not reported"
    assert all(p.startswith("cell 3:") for p in problems), problems
    assert page.locator(".jp-Notebook .jp-Cell").nth(1).locator(".widget-slider").is_visible()


def test_chromium_draws_chinese_glyphs(browser):
    """Two different characters drawn on a canvas differ; without a CJK font both are the same empty box."""
    page = browser.new_page()
    try:
        page.set_content("<canvas id='c' width='200' height='60'></canvas>")
        pixels = page.evaluate("""() => {
            const ctx = document.getElementById('c').getContext('2d');
            const draw = (ch) => { ctx.clearRect(0, 0, 200, 60); ctx.font = '48px sans-serif';
                                   ctx.fillText(ch, 4, 50); return Array.from(ctx.getImageData(0, 0, 60, 60).data); };
            return {zhang: draw('张'), liang: draw('量'), a: draw('A')};
        }""")
    finally:
        page.close()
    ink = sum(1 for v in pixels["zhang"][3::4] if v)
    assert ink > 50, "nothing was drawn for 张"
    assert pixels["zhang"] != pixels["liang"], "张 and 量 draw the same glyph: Chromium has no CJK font (boxes)"
