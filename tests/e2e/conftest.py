"""Fixtures of the browser tests: one JupyterLab server and one Chromium per session, a fresh page per test.

Run with ``make test-e2e`` (``pytest -q tests/e2e --e2e``); without ``--e2e``
these tests are skipped, so ``make test`` needs no browser.  Chromium is
Debian's (``apt-get install -y chromium``; ``E2E_CHROMIUM`` overrides the
path), driven by Playwright for Python; no browser is downloaded.

Artifacts (git-ignored) go to ``artifacts/e2e/``: a screenshot of every
widget after the test's interaction, and for a failed test a screenshot of
the whole page, the browser console and the server log.
"""

import os
import pathlib
import re
import shutil

import pytest

from course_lib.viz.fonts import chinese_font_path

from .server import LabServer

REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "e2e"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-dev-shm-usage", "--font-render-hinting=none"]
VIEWPORT = {"width": 1400, "height": 1100}


def _chromium_path():
    path = os.environ.get("E2E_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(path):
        pytest.fail(f"Chromium not found at {path}: apt-get install -y chromium (or set E2E_CHROMIUM)")
    return path


def slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")


@pytest.fixture(scope="session")
def artifacts():
    shutil.rmtree(ARTIFACTS, ignore_errors=True)     # only this run's screenshots and failures
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def e2e_home(tmp_path_factory):
    return tmp_path_factory.mktemp("e2e-home")


@pytest.fixture(scope="session")
def font_home(e2e_home):
    """An XDG_DATA_HOME whose ``fonts`` entry links to the CJK fonts of mplfonts: Chromium draws Chinese with them."""
    font = chinese_font_path()
    if font is None:
        pytest.fail("mplfonts (the lab extra) is not installed: no CJK font for Chromium")
    data_home = e2e_home / "xdg-data"
    data_home.mkdir()
    (data_home / "fonts").symlink_to(pathlib.Path(font).parent, target_is_directory=True)
    return data_home


@pytest.fixture(scope="session")
def server(e2e_home, artifacts):
    lab = LabServer.start(e2e_home / "jupyter")
    yield lab
    lab.stop()
    shutil.copy(lab.log_path, artifacts / "jupyter-server.log")


@pytest.fixture(scope="session")
def browser(font_home, e2e_home, artifacts):
    from playwright.sync_api import sync_playwright
    env = dict(os.environ, XDG_DATA_HOME=str(font_home), XDG_CACHE_HOME=str(e2e_home / "xdg-cache"),
               XDG_CONFIG_HOME=str(e2e_home / "xdg-config"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium_path(), args=CHROMIUM_ARGS, env=env)
        yield browser
        browser.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


class PageSession:
    """A browser context + page, with the console kept for failure reports."""

    def __init__(self, browser, name):
        self.name = name
        self.context = browser.new_context(viewport=VIEWPORT, locale="zh-CN", device_scale_factor=1)
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.console = []
        self.page.on("console", lambda m: self.console.append(f"[{m.type}] {m.text}"))
        self.page.on("pageerror", lambda e: self.console.append(f"[pageerror] {e}"))

    def save_failure(self, test_name):
        target = ARTIFACTS / "failures"
        target.mkdir(parents=True, exist_ok=True)
        stem = slug(test_name)
        try:
            self.page.screenshot(path=str(target / f"{stem}.png"), full_page=True)
        except Exception as e:  # noqa: BLE001 - a failed screenshot must not hide the test's own failure
            self.console.append(f"[screenshot failed] {e}")
        (target / f"{stem}.console.txt").write_text("\n".join(self.console))

    def close(self):
        self.context.close()


def _failed(item):
    return any(getattr(item, f"rep_{when}", None) is not None and getattr(item, f"rep_{when}").failed
               for when in ("setup", "call"))


@pytest.fixture
def page_session(browser, server, request):
    """A fresh page (own browser context); afterwards its kernels are shut down."""
    session = PageSession(browser, request.node.name)
    yield session
    if _failed(request.node):
        session.save_failure(request.node.name)
        (ARTIFACTS / "failures" / f"{slug(request.node.name)}.server.log").write_text(server.log_tail(20000))
    session.close()
    server.shutdown_kernels()


@pytest.fixture
def page(page_session):
    return page_session.page
