"""The static website (``make site`` -> ``_build/site/``), read from disk in Chromium with the network off.

Static checks (no browser): every page of ``website/pages.py`` is built; no page's ``script``,
``link``, ``img``, ``iframe`` (or ``source``/``embed``/``object``) and no stylesheet's ``url()``
points outside the site; each code cell of a notebook page shows as many pictures as the cell has
image outputs (a widget cell: the PNG it saved).

In Chromium (``file://``, every non-file request refused and recorded, no CJK font given to the
browser: Chinese must come from the site's own font): every page loads with no console error and no
failed request; every picture is loaded and visible; MathJax has typeset every formula and no raw
``$...$`` is left in the text; Chinese glyphs are real glyphs from the site's font, not boxes;
search finds a Chinese word; at 1280 px the text column holds an 800 px figure at full size and
wider pictures are shown at >= 72 % (matplotlib's 10 pt default text stays >= 10 px); long output
lines scroll inside their box instead of widening the page.  Screenshots of every page at 900 and
1280 px go to ``artifacts/site/``.

Needs the built site: ``make test-e2e`` builds it first (``make site``).
"""

import html.parser
import json
import pathlib
import re
import shutil
import sys

import pytest

from .conftest import CHROMIUM_ARGS, REPO, _chromium_path

SITE = REPO / "_build" / "site"
ARTIFACTS = REPO / "artifacts" / "site"
WIDTHS = (900, 1280)
IMAGE_TYPES = ("image/png", "image/jpeg", "image/svg+xml", "image/gif")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
OUTSIDE = re.compile(r"^\s*(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")     # a scheme or a protocol-relative address

sys.path.insert(0, str(REPO / "website"))
import pages  # noqa: E402 - the site's page list

SECTIONS = pages.sections(REPO)
SOURCES = [rel for _, files in SECTIONS for rel in files]
NOTEBOOKS = [rel for rel in SOURCES if rel.endswith(".ipynb")]
PAGES = ["index.html", "search.html"] + [rel.rsplit(".", 1)[0] + ".html" for rel in SOURCES]


def _ids(items):
    return [i.rsplit(".", 1)[0].replace("/", "-") for i in items]


@pytest.fixture(scope="module", autouse=True)
def built_site():
    if not (SITE / "index.html").exists():
        pytest.fail("no _build/site/index.html: run make site (make test-e2e does)")
    shutil.rmtree(ARTIFACTS, ignore_errors=True)           # this run's screenshots only


# ---------------------------------------------------------------------------
# Static checks of the HTML
# ---------------------------------------------------------------------------

class _Refs(html.parser.HTMLParser):
    """The addresses a page loads (script/link/img/iframe/...), and each code cell's pictures."""

    LOADS = {"script": ("src",), "link": ("href",), "img": ("src", "srcset"), "iframe": ("src",),
             "source": ("src", "srcset"), "embed": ("src",), "object": ("data",), "video": ("src", "poster"),
             "audio": ("src",), "input": ("src",)}

    def __init__(self):
        super().__init__()
        self.loads = []
        self.cells = []            # one list of img srcs per code cell (div.cell), in page order
        self._depth = 0            # div nesting inside the current code cell; 0 = outside
        self._in_output = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in self.LOADS.get(tag, ()):
            if attrs.get(name):
                self.loads.append((tag, name, attrs[name]))
        classes = (attrs.get("class") or "").split()
        if tag == "div":
            if self._depth:
                self._depth += 1
            elif "cell" in classes and "docutils" in classes:
                self._depth = 1
                self.cells.append([])
        if tag == "img" and self._depth:
            self.cells[-1].append(attrs.get("src", ""))

    def handle_endtag(self, tag):
        if tag == "div" and self._depth:
            self._depth -= 1


def _parse(page):
    refs = _Refs()
    refs.feed((SITE / page).read_text(encoding="utf-8"))
    return refs


def _outside(value, attr):
    values = [v.strip().split()[0] for v in value.split(",")] if attr == "srcset" else [value]
    return [v for v in values if OUTSIDE.match(v) and not v.startswith("data:")]


def test_every_listed_page_is_built():
    missing = [p for p in PAGES if not (SITE / p).exists()]
    assert missing == []
    assert len(NOTEBOOKS) >= 9, NOTEBOOKS


def test_no_page_loads_anything_from_outside_the_site():
    found = []
    for path in sorted(SITE.rglob("*.html")):
        page = path.relative_to(SITE).as_posix()
        for tag, attr, value in _parse(page).loads:
            found += [f"{page}: <{tag} {attr}={v!r}>" for v in _outside(value, attr)]
    for css in sorted(SITE.rglob("*.css")):
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", css.read_text(encoding="utf-8", errors="ignore")):
            if OUTSIDE.match(url) and not url.startswith("data:"):
                found.append(f"{css.relative_to(SITE)}: url({url})")
    assert found == []


def test_the_detector_sees_outside_addresses():
    refs = _Refs()
    refs.feed('<script src="https://cdn.example/x.js"></script><link href="//fonts.example/a.css">'
              '<img src="data:image/png;base64,AAAA"><img src="../_images/a.png"><iframe src="http://a.b/"></iframe>')
    bad = [v for tag, attr, value in refs.loads for v in _outside(value, attr)]
    assert bad == ["https://cdn.example/x.js", "//fonts.example/a.css", "http://a.b/"]


def _image_outputs_per_code_cell(rel):
    nb = json.loads((REPO / rel).read_text(encoding="utf-8"))
    return [sum(1 for o in c.get("outputs", []) if any(t in o.get("data", {}) for t in IMAGE_TYPES))
            for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("rel", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_each_code_cell_shows_as_many_pictures_as_it_has_image_outputs(rel):
    expected = _image_outputs_per_code_cell(rel)
    shown = [len(srcs) for srcs in _parse(rel.rsplit(".", 1)[0] + ".html").cells]
    assert shown == expected
    assert sum(shown) == sum(expected)


def test_widget_cells_are_among_the_pictures():
    """Every saved widget view carries a PNG (the picture the page shows)."""
    without = []
    for rel in NOTEBOOKS:
        nb = json.loads((REPO / rel).read_text(encoding="utf-8"))
        without += [f"{rel} cell {i}" for i, c in enumerate(nb["cells"]) for o in c.get("outputs", [])
                    if WIDGET_VIEW in o.get("data", {}) and "image/png" not in o["data"]]
    assert without == []


# ---------------------------------------------------------------------------
# In Chromium, offline, from disk
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site_browser(browser, tmp_path_factory):
    """A second Chromium (from the session's Playwright) with an empty XDG data folder: no CJK font but the site's."""
    home = tmp_path_factory.mktemp("site-browser")
    env = {"HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache"),
           "XDG_CONFIG_HOME": str(home / "config"), "PATH": "/usr/bin:/bin"}
    plain = browser.browser_type.launch(executable_path=_chromium_path(), args=CHROMIUM_ARGS, env=env)
    yield plain
    plain.close()


class OfflinePage:
    """A page in its own context with the network off: every non-file request is refused and recorded."""

    def __init__(self, browser, width):
        self.context = browser.new_context(viewport={"width": width, "height": 900}, locale="zh-CN",
                                           device_scale_factor=1, offline=True)
        self.problems = []
        self.context.route(lambda url: not url.startswith("file:"), self._refuse)
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.page.on("console", lambda m: m.type in ("error", "warning") and self.problems.append(
            f"console {m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.problems.append(f"failed request: {r.url} ({r.failure})"))

    def _refuse(self, route):
        self.problems.append(f"request outside the site: {route.request.url}")
        route.abort()

    def open(self, page):
        path, _, query = page.partition("?")
        self.page.goto((SITE / path).as_uri() + (f"?{query}" if query else ""))
        self.page.wait_for_load_state("load")
        self.page.evaluate("""async () => {
            await document.fonts.ready;
            if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
            await Promise.all([...document.images].map(im => im.complete ? null : im.decode().catch(() => null)));
        }""")
        return self.page

    def close(self):
        self.context.close()


@pytest.fixture(scope="module")
def offline(site_browser):
    pages_by_width = {w: OfflinePage(site_browser, w) for w in WIDTHS}
    yield pages_by_width
    for p in pages_by_width.values():
        p.close()


PAGE_STATE = """() => {
  const article = document.querySelector('article[role=main]') || document.body;
  const imgs = [...article.querySelectorAll('img')].map(im => ({
      src: im.getAttribute('src'), ok: im.complete && im.naturalWidth > 0,
      natural: im.naturalWidth, shown: im.getBoundingClientRect().width}));
  // text outside code, outside typeset math: where a raw $...$ would show
  const clone = article.cloneNode(true);
  clone.querySelectorAll('pre, code, mjx-container, script, style, .highlight').forEach(e => e.remove());
  const text = clone.textContent;
  const math = [...article.querySelectorAll('.math')];
  return {
    imgs, text, columnWidth: article.getBoundingClientRect().width,
    pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth,
    mathTotal: math.length, mathTypeset: math.filter(e => e.querySelector('mjx-container')).length,
    cjkFont: [...document.fonts].filter(f => f.family.replace(/"/g, '') === 'Course CJK').map(f => f.status),
  };
}"""

# Draw some of the page's Chinese characters with the page's own font on a canvas: real glyphs
# differ from each other and have ink; missing glyphs (tofu) are identical boxes.
GLYPHS = """() => {
  const head = document.querySelector('h1') || document.querySelector('.sidebar-brand-text') || document.body;
  const text = head.textContent + document.body.innerText.slice(0, 2000);
  const chars = [...new Set([...text].filter(c => /[\\u4e00-\\u9fff]/.test(c)))].slice(0, 8);
  const family = getComputedStyle(head).fontFamily;
  const canvas = document.createElement('canvas'); canvas.width = 48; canvas.height = 48;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const shapes = chars.map(c => {
    ctx.clearRect(0, 0, 48, 48); ctx.font = `32px ${family}`; ctx.fillStyle = '#000'; ctx.textBaseline = 'top';
    ctx.fillText(c, 8, 8);
    const data = ctx.getImageData(0, 0, 48, 48).data; let ink = 0, key = '';
    for (let i = 3; i < data.length; i += 4) { if (data[i] > 128) ink++; key += data[i] > 128 ? '1' : '0'; }
    return {c, ink, key};
  });
  return {chars, family, distinct: new Set(shapes.map(s => s.key)).size, minInk: Math.min(...shapes.map(s => s.ink)),
          loaded: document.fonts.check(`32px "Course CJK"`, chars.join(''))};
}"""

RAW_MATH = re.compile(r"\$[^$\s][^$]*\$|\\\(|\\\[|\\frac|\\sum|\\partial")


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_page_reads_well_offline(offline, page):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width in WIDTHS:
        session = offline[width]
        session.problems.clear()
        p = session.open(page)
        state = p.evaluate(PAGE_STATE)
        p.screenshot(path=str(ARTIFACTS / f"{page.removesuffix('.html').replace('/', '-')}-{width}.png"),
                     full_page=True)
        assert session.problems == [], f"{page} at {width} px"
        assert [i["src"] for i in state["imgs"] if not i["ok"] or i["shown"] <= 0] == [], f"{page}: pictures"
        assert state["mathTypeset"] == state["mathTotal"], f"{page}: formulas left untypeset"
        assert RAW_MATH.findall(state["text"]) == [], f"{page}: raw TeX in the text"
        assert state["pageWidth"] <= state["viewport"], f"{page} at {width} px: the page scrolls sideways"
        assert state["cjkFont"] and set(state["cjkFont"]) == {"loaded"}, f"{page}: the site's CJK font"
        glyphs = p.evaluate(GLYPHS)
        if glyphs["chars"]:
            assert glyphs["loaded"], glyphs
            assert glyphs["distinct"] == len(glyphs["chars"]) and glyphs["minInk"] > 20, f"{page}: tofu {glyphs}"
        if width == 1280 and page.endswith(".html") and state["imgs"]:
            assert state["columnWidth"] >= 840, f"{page}: text column {state['columnWidth']} px at 1280 px"
            for im in state["imgs"]:
                scale = im["shown"] / im["natural"]
                if im["natural"] <= state["columnWidth"]:
                    assert scale == pytest.approx(1, abs=0.01), (page, im)
                else:
                    assert scale >= 0.72, (page, im)


@pytest.mark.parametrize("page", ["notebooks/02_dtypes_devices_numpy.html", "notebooks/05_broadcasting.html"])
def test_long_output_lines_wrap_or_scroll_inside_their_box(offline, page):
    """Chapter 02 and 05 print lines longer than a 900 px column (error messages): they wrap at spaces."""
    p = offline[900].open(page)
    boxes = p.evaluate("""() => [...document.querySelectorAll('.cell_output pre')].map(pre => {
        const s = getComputedStyle(pre);
        const lines = pre.textContent.split('\\n').map(l => l.length);
        return {wrap: s.whiteSpace, overflow: s.overflowX, longest: Math.max(...lines),
                cut: pre.scrollWidth > pre.clientWidth + 1 && !['auto', 'scroll'].includes(s.overflowX)};
    })""")
    assert any(b["longest"] > 110 for b in boxes), "no line longer than the column: nothing to check"
    assert [b for b in boxes if b["cut"]] == []
    assert {b["wrap"] for b in boxes} == {"pre-wrap"}


def test_search_finds_a_chinese_word(offline):
    session = offline[1280]
    session.problems.clear()
    p = session.open("search.html?q=%E5%B9%BF%E6%92%AD")          # 广播
    p.locator("#search-results li").first.wait_for(timeout=30_000)
    found = p.locator("#search-results li a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert any("05_broadcasting" in href for href in found), found
    assert session.problems == []


def test_previous_and_next_links_follow_the_page_list(offline):
    order = [rel.rsplit(".", 1)[0] + ".html" for rel in SOURCES]
    p = offline[1280].open(order[1])
    nxt = p.locator("a.next-page").get_attribute("href")
    prev = p.locator("a.prev-page").get_attribute("href")
    assert pathlib.PurePosixPath(order[1]).parent.joinpath(nxt).as_posix().endswith(order[2].split("/")[-1])
    assert prev.endswith(order[0].split("/")[-1])
    toc = p.locator(".sidebar-tree a.reference").evaluate_all("links => links.map(a => a.textContent)")
    assert len(toc) >= len(SOURCES)
