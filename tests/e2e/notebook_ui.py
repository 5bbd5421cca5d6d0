"""Drive a notebook in JupyterLab or Notebook 7 the way a learner does: menus, clicks, typing.

``NotebookUI(page, server, path, ui="lab"|"notebook")`` opens the notebook,
clears and runs all cells through the menus, saves it, and reads back what
a learner would see: the saved outputs (errors are precise there: ``ename``
and ``evalue``) and the page (widgets rendered or "Error displaying
widget").  Both interfaces share JupyterLab's DOM classes, so one driver
serves both.
"""

import re
import time

__all__ = ["NotebookUI", "WIDGET_ERROR_TEXTS", "WIDGET_VIEW"]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# what ipywidgets / jupyterlab_widgets show instead of a widget that cannot be displayed
WIDGET_ERROR_TEXTS = ("Error displaying widget", "Click to show javascript error", "Error creating widget",
                      "Error rendering", "Loading widget...")

# Per top-level cell (all cells, markdown too, in notebook order): how many outputs hold a rendered widget
# view, the text of every output that shows a widget error, and how many outputs there are.
_WIDGET_DOM_JS = """(errorTexts) => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map(cell => {
    const area = cell.querySelector('.jp-Cell-outputArea');
    const outputs = area ? [...area.querySelectorAll(':scope > .jp-OutputArea-child > .jp-OutputArea-output')] : [];
    const rendered = outputs.filter(o => [...o.children].some(c => c.classList.contains('jupyter-widgets')
                                                                   && c.getBoundingClientRect().height > 0));
    const errors = [...cell.querySelectorAll('.jp-OutputArea-output')]
        .filter(o => errorTexts.some(t => o.textContent.includes(t)))
        .map(o => o.textContent.trim().slice(0, 300));
    return {rendered: rendered.length, errors: errors, outputs: outputs.length};
})"""


# what an error output looks like on the page (the stderr of a warning does not match)
_TRACEBACK = re.compile(r"Traceback \(most recent call last\)|^\w*(Error|Exception)\b[^\n]*:", re.M)


def _exactly(text):
    return re.compile(f"^{re.escape(text)}$")


class NotebookUI:
    def __init__(self, page, server, path, ui="lab"):
        self.page = page
        self.server = server
        self.path = str(path)
        self.ui = ui

    # --- opening ----------------------------------------------------------------------
    def open(self, timeout=120_000):
        """Load the page, accept a kernel dialog if one appears, wait until the kernel is idle."""
        self.page.goto(self.server.url(self.path, self.ui))
        self.page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=timeout)
        deadline = time.monotonic() + timeout / 1000
        while True:
            dialog = self.page.locator(".jp-Dialog")
            if dialog.count() and dialog.get_by_role("button", name="Select").count():
                # a notebook without kernelspec metadata asks for a kernel: take the proposed one (python3)
                dialog.get_by_role("button", name="Select").click()
            if self.page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").count() \
                    and self._kernel_state() == "idle":
                return self
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.path}: the kernel did not become idle in {timeout / 1000:.0f} s "
                                     f"(server log:\n{self.server.log_tail(1500)})")
            self.page.wait_for_timeout(250)

    def _kernel_state(self):
        for session in self.server.api("GET", "sessions"):
            if session.get("path") == self.path and session.get("kernel"):
                return session["kernel"].get("execution_state")
        return None

    # --- menus ------------------------------------------------------------------------
    def menu(self, top, item):
        """Click ``top`` in the menu bar, then the item whose label is exactly ``item``."""
        self.page.locator(".lm-MenuBar-itemLabel").filter(has_text=_exactly(top)).click()
        # the item's label alone: its accessible name also holds the shortcut ("Save Notebook Ctrl+S")
        self.page.locator(".lm-Menu .lm-Menu-itemLabel").filter(has_text=_exactly(item)).click()

    # --- running ----------------------------------------------------------------------
    def run_all(self, timeout=300_000):
        """Clear every output, then Run > Run All Cells, and wait until nothing is queued or running.

        Clearing first makes every output on the page (and in the saved file) one that this run produced.
        """
        self.menu("Edit", "Clear Outputs of All Cells")
        self.page.wait_for_function("() => ![...document.querySelectorAll('.jp-Notebook .jp-InputArea-prompt')]"
                                    ".some(p => /\\d/.test(p.textContent))")
        self.menu("Run", "Run All Cells")
        # started: some prompt shows a number or the running mark
        self.page.wait_for_function("() => [...document.querySelectorAll('.jp-Notebook .jp-InputArea-prompt')]"
                                    ".some(p => /[\\d*]/.test(p.textContent))", timeout=60_000)
        self.wait_idle(timeout)
        return self

    def wait_idle(self, timeout=120_000):
        """Wait until no cell is queued or running and the kernel is idle."""
        self.page.wait_for_function(
            "() => ![...document.querySelectorAll('.jp-Notebook .jp-InputArea-prompt')]"
            ".some(p => p.textContent.includes('*'))"
            " && !!document.querySelector(\".jp-Notebook-ExecutionIndicator[data-status='idle']\")",
            timeout=timeout, polling=250)

    def save(self, timeout=30_000):
        """File > Save Notebook, and wait until the server has written the new file.

        The wait is for the answer to the front end's PUT of the notebook: Jupyter Server writes a
        notebook in place (``atomic_writing`` keeps a backup, it does not write elsewhere and rename),
        so the file's modification time changes while the JSON is still half written, and reading it
        then fails with HTTP 500.
        """
        def is_save(response):
            return response.request.method == "PUT" and "/api/contents/" in response.url

        with self.page.expect_response(is_save, timeout=timeout) as saved:
            self.menu("File", "Save Notebook")
        if not saved.value.ok:
            raise AssertionError(f"{self.path}: File > Save Notebook answered HTTP {saved.value.status}")
        return self.server.notebook_json(self.path)

    # --- what the learner sees --------------------------------------------------------
    @staticmethod
    def error_outputs(nb):
        """Every error output in the saved notebook ``nb``: "cell N: Name: value" (N counts all cells from 0)."""
        found = []
        for i, cell in enumerate(nb["cells"]):
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error":
                    found.append(f"cell {i}: {out.get('ename')}: {out.get('evalue')}")
        return found

    @staticmethod
    def unexecuted_cells(nb):
        """Non-empty code cells of the saved notebook ``nb`` that did not run, or ran out of order."""
        wrong, expected = [], 1
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code" or not "".join(cell["source"]).strip():
                continue
            if cell.get("execution_count") != expected:
                wrong.append(f"cell {i}: execution_count {cell.get('execution_count')}, expected {expected}")
            expected += 1
        return wrong

    @staticmethod
    def widget_views(nb):
        """Per cell of ``nb``: how many outputs are live widget views (model_id not empty)."""
        def is_view(out):
            return bool((out.get("data") or {}).get(WIDGET_VIEW, {}).get("model_id"))
        return [sum(1 for out in cell.get("outputs", []) if is_view(out)) for cell in nb["cells"]]

    def widget_dom(self):
        """Per cell on the page: {"rendered": n, "errors": [...], "outputs": n} (see _WIDGET_DOM_JS)."""
        return self.page.evaluate(_WIDGET_DOM_JS, list(WIDGET_ERROR_TEXTS))

    def widget_problems(self, nb, settle_ms=15_000):
        """What differs between the widget views the saved notebook has and what the page shows.

        Waits up to ``settle_ms`` for views that are still loading; returns a list of readable problems.
        """
        expected = self.widget_views(nb)
        deadline = time.monotonic() + settle_ms / 1000
        while True:
            dom = self.widget_dom()
            problems = []
            if len(dom) != len(expected):
                problems.append(f"the page shows {len(dom)} cells, the saved notebook has {len(expected)}")
            for i, (want, seen) in enumerate(zip(expected, dom)):
                for text in seen["errors"]:
                    problems.append(f"cell {i}: {text!r}")
                if want != seen["rendered"]:
                    problems.append(f"cell {i}: {want} widget view(s) in the outputs, {seen['rendered']} rendered")
            if not problems or time.monotonic() > deadline:
                return problems
            self.page.wait_for_timeout(300)

    def cell(self, index):
        """The locator of the cell with this index (all cells, from 0)."""
        return self.page.locator(".jp-Notebook .jp-Cell").nth(index)

    def code_cell_containing(self, text):
        """Index (among all cells) of the first code cell whose source contains ``text``."""
        cells = self.page.evaluate("() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map(c => "
                                   "c.classList.contains('jp-CodeCell') ? "
                                   "(c.querySelector('.cm-content') || {innerText: ''}).innerText : null)")
        for i, source in enumerate(cells):
            if source is not None and text in source:
                return i
        raise AssertionError(f"{self.path}: no code cell contains {text!r}")

    def set_source(self, index, text):
        """Replace the source of cell ``index`` by typing into its editor (select all, then insert the text)."""
        editor = self.cell(index).locator(".cm-content")
        editor.click()
        self.page.keyboard.press("Control+a")
        self.page.keyboard.press("Delete")
        # insert_text sends the text as one input event: no auto-indent or bracket completion on the way
        self.page.keyboard.insert_text(text)
        got = editor.inner_text()
        if got.replace("\u00a0", " ").strip() != text.strip():
            raise AssertionError(f"{self.path}: cell {index} holds {got!r} after typing {text!r}")

    def run_cell(self, index, timeout=60_000):
        """Select cell ``index`` and press Shift+Enter (Run Selected Cell); wait until it has run.

        Raises AssertionError when the cell shows a traceback.
        """
        self.cell(index).locator(".jp-InputArea-prompt").click()
        before = self.cell(index).locator(".jp-InputArea-prompt").inner_text()
        self.page.keyboard.press("Shift+Enter")
        self.page.wait_for_function(
            "([i, before]) => { const p = document.querySelectorAll('.jp-Notebook .jp-Cell')[i]"
            ".querySelector('.jp-InputArea-prompt').textContent.trim();"
            " return p !== before.trim() && /\\d/.test(p) && !p.includes('*'); }",
            arg=[index, before], timeout=timeout)
        self.wait_idle(timeout)
        text = self.output_text(index)
        if _TRACEBACK.search(text):
            raise AssertionError(f"{self.path}: cell {index} raised:\n{text}")

    def output_text(self, index):
        """The visible text of cell ``index``'s outputs."""
        return self.cell(index).locator(".jp-Cell-outputArea").inner_text()
