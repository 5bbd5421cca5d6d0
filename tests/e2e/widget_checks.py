"""What a learner does with each course widget, and what must change on the page when they do it.

One function per widget kind, keyed by the CSS class of the widget's root
(see ``course_lib/viz``): it drives the widget with the mouse and keyboard
only, and asserts that the page shows the new state: the text the widget
prints and the picture (compared as pixels: a new PNG that looks the same
would not count).  ``screenshot_widget`` saves the widget as a learner sees it.
"""

import re

from playwright.sync_api import expect

__all__ = ["INTERACTIONS", "WIDGET_CLASSES", "screenshot_widget", "upscaled_pictures", "widget_roots"]

# constructor used in the chapters -> CSS class on the widget's root box
WIDGET_CLASSES = {
    "MemoryLayout": "cl-memory-layout",
    "BroadcastExplorer": "cl-broadcast",
    "GraphWidget": "cl-graph",
    "DescentWidget": "cl-descent",
}

TIMEOUT = 30_000


def widget_roots(page, css_class):
    """The rendered widgets of this kind among the notebook's top-level outputs."""
    return page.locator(f".jp-Notebook .jp-Cell-outputArea .{css_class}")


def _pixels(locator):
    """What the learner sees of ``locator``: a PNG of the element once its images have loaded."""
    locator.scroll_into_view_if_needed()
    locator.page.wait_for_function("(el) => [...(el.tagName === 'IMG' ? [el] : el.querySelectorAll('img'))]"
                                   ".every(i => i.complete)", arg=locator.element_handle(), timeout=TIMEOUT)
    return locator.screenshot(animations="disabled")


def _wait_changed(locator, before, what):
    """Poll until ``locator`` looks different from the PNG ``before``."""
    page = locator.page
    for _ in range(int(TIMEOUT / 250)):
        now = _pixels(locator)
        if now != before:
            return now
        page.wait_for_timeout(250)
    raise AssertionError(f"{what}: the picture did not change")


def _wait_text_changed(locator, before, what):
    # inner text on both sides: textContent would join table cells without the tab that inner_text() puts
    expect(locator).not_to_have_text(before, timeout=TIMEOUT, use_inner_text=True)
    text = locator.inner_text()
    assert text.strip(), f"{what}: the text is empty"
    return text


def upscaled_pictures(root, factor=1.1):
    """Pictures in ``root`` shown more than ``factor`` times their PNG's size: blurry, and taller than needed."""
    sizes = root.locator("img").evaluate_all(
        "imgs => imgs.filter(i => i.naturalWidth > 0 && i.getBoundingClientRect().width > 0)"
        ".map(i => [i.className, i.naturalWidth, i.naturalHeight, Math.round(i.getBoundingClientRect().width),"
        " Math.round(i.getBoundingClientRect().height)])")
    return [f"{cls or 'img'}: PNG {w}x{h} shown as {sw}x{sh}" for cls, w, h, sw, sh in sizes if sw > factor * w]


def screenshot_widget(root, path):
    """Save ``root`` (a widget) as PNG; the viewport grows first when the widget is taller than it."""
    page = root.page
    viewport = page.viewport_size
    box = root.bounding_box()
    if box and box["height"] > viewport["height"] - 150:
        page.set_viewport_size({"width": viewport["width"], "height": int(box["height"]) + 250})
    try:
        _pixels(root)
        root.screenshot(path=str(path), animations="disabled")
    finally:
        page.set_viewport_size(viewport)


# --- broadcasting explorer ---------------------------------------------------------------
def _type_shape(root, which, text):
    box = root.locator(f".cl-broadcast-{which} input")
    box.fill(text)
    box.press("Enter")       # the boxes send their value on Enter (continuous_update=False)


def check_broadcast(root):
    result, table = root.locator(".cl-broadcast-result"), root.locator(".cl-broadcast-table")
    text, picture = result.inner_text(), _pixels(root)

    # incompatible shapes: PyTorch's own error text
    _type_shape(root, "a", "(2, 1, 3)")
    _type_shape(root, "b", "(4, 2)")
    expect(result).to_contain_text("The size of tensor a (3) must match the size of tensor b (2) "
                                   "at non-singleton dimension 2", timeout=TIMEOUT)
    assert result.inner_text() != text

    # a new compatible shape: the table, the result line and the picture follow
    _type_shape(root, "b", "(4, 1)")
    expect(result).to_contain_text("torch.Size([2, 4, 3])", timeout=TIMEOUT)
    expect(table).to_contain_text("第 -3 维", timeout=TIMEOUT)
    rows = table.locator("tr")
    assert re.sub(r"\s+", " ", rows.filter(has_text="结果").inner_text()).strip().endswith("2 4 3")
    picture = _wait_changed(root, picture, "broadcasting explorer after typing (2, 1, 3) and (4, 1)")

    # a small 2-d case: the stretched operands are drawn
    _type_shape(root, "a", "(3, 1)")
    _type_shape(root, "b", "(4,)")
    expect(result).to_contain_text("torch.Size([3, 4])", timeout=TIMEOUT)
    image = root.locator("img")
    expect(image).to_be_visible(timeout=TIMEOUT)
    _wait_changed(root, picture, "broadcasting explorer after typing (3, 1) and (4,)")
    assert image.evaluate("im => im.naturalWidth") > 100


# --- memory layout -------------------------------------------------------------------------
def check_memory(root):
    info, select = root.locator(".cl-memory-info"), root.locator(".cl-memory-operation select")
    cells_row = info.locator("tr").filter(has_text="读取的存储单元")
    cells, picture = cells_row.inner_text(), _pixels(root)
    labels = [o.inner_text() for o in select.locator("option").all()]
    # a strided slice touches only some cells of the storage: every default operation list has one
    strided = [label for label in labels if "步长切片" in label]
    chosen = strided[0] if strided else labels[1]
    select.select_option(label=chosen)
    cells = _wait_text_changed(cells_row, cells, f"memory layout after choosing {chosen!r}")
    expect(info).to_contain_text("共享", timeout=TIMEOUT)
    picture = _wait_changed(root, picture, f"memory layout after choosing {chosen!r}")

    # writing through the view changes the picture of the base storage too
    root.locator(".cl-memory-write").click()
    _wait_changed(root, picture, "memory layout after writing through the view")
    assert cells_row.inner_text() == cells


# --- computation graph ---------------------------------------------------------------------
def check_graph(root):
    status, image, grads = root.locator(".cl-graph-status"), root.locator(".cl-graph-image"), root.locator(
        ".cl-graph-grads")
    next_button, prev_button = root.locator(".cl-graph-next"), root.locator(".cl-graph-prev")
    start_grads = grads.inner_text()
    text, picture = status.inner_text(), _pixels(image)
    for step in (1, 2):
        next_button.click()
        text = _wait_text_changed(status, text, f"graph after {step} click(s) on 下一步")
        picture = _wait_changed(image, picture, f"graph after {step} click(s) on 下一步")
    expect(prev_button).to_be_enabled()
    midway = (text, picture)

    # to the end of backward: the leaves' .grad appear, 下一步 is disabled
    for _ in range(40):
        if next_button.is_disabled():
            break
        next_button.click()
        text = _wait_text_changed(status, text, "graph stepping to the end")
    expect(next_button).to_be_disabled()
    assert ".grad" in grads.inner_text() and grads.inner_text() != start_grads, grads.inner_text()

    # back to the second step, for the screenshot: the highlighted node mid-way through backward
    root.locator(".cl-graph-reset").click()
    expect(prev_button).to_be_disabled(timeout=TIMEOUT)
    for _ in (1, 2):
        before = status.inner_text()
        next_button.click()
        _wait_text_changed(status, before, "graph after 重新开始")
    expect(status).to_have_text(midway[0], timeout=TIMEOUT, use_inner_text=True)


# --- gradient descent ----------------------------------------------------------------------
def check_descent(root):
    status, image = root.locator(".cl-descent-status"), root.locator(".cl-descent-image")
    presets = root.locator(".cl-descent-preset")
    text, picture = status.inner_text(), _pixels(image)

    presets.filter(has_text="发散").click()
    expect(status).to_contain_text("lr=0.1，", timeout=TIMEOUT)
    expect(status).to_contain_text("发散")
    picture = _wait_changed(image, picture, "gradient descent after the preset lr = 0.1")
    presets.filter(has_text="收敛").click()
    expect(status).to_contain_text("lr=0.01，", timeout=TIMEOUT)
    expect(status).to_contain_text("收敛中")
    text = status.inner_text()
    picture = _wait_changed(image, picture, "gradient descent after the preset lr = 0.01")

    # drag the learning-rate handle to the right with the mouse (what a learner does)
    handle = root.locator(".cl-descent-lr .noUi-handle")
    track = root.locator(".cl-descent-lr .noUi-base").bounding_box()
    box = handle.bounding_box()
    page = root.page
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + track["width"] * 0.2, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()
    new_text = _wait_text_changed(status, text, "gradient descent after dragging the lr slider")
    lr = float(re.search(r"lr=([0-9.e-]+)", new_text).group(1))
    assert lr > 0.01, new_text
    _wait_changed(image, picture, "gradient descent after dragging the lr slider")


INTERACTIONS = {
    "cl-broadcast": check_broadcast,
    "cl-memory-layout": check_memory,
    "cl-graph": check_graph,
    "cl-descent": check_descent,
}
