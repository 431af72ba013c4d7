"""Real-browser tests: the app served on 127.0.0.1 and driven by Debian's Chromium at phone size.

Run with `python -m pytest tests/browser`. Screenshots of every main screen are saved in
tests/browser/screenshots/ (git-ignored) so a person can look at them.
"""

from __future__ import annotations

import signal
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page
from werkzeug.serving import WSGIRequestHandler, make_server

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test: `pytest -m "not browser"` leaves them out.
    (pytest hands this hook the whole session's items, not only this folder's.)"""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)


class QuietHandler(WSGIRequestHandler):
    """Log only the requests that failed (4xx/5xx), so a test failure's output stays short."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if str(code)[:1] in ("4", "5"):
            super().log_request(code, size)


CLOSE_SECONDS = 20


class CloseHung(Exception):
    """A browser context's close did not return in CLOSE_SECONDS."""


@pytest.fixture(scope="session", autouse=True)
def _bounded_context_close() -> Iterator[None]:
    """Closing a browser context once in about 20 runs never returned (Chromium 156, Playwright
    1.65: seen at the end of tests/browser/test_together.py's second test, which closes two extra
    phones, and in stop 49's CI, which it held until CI's limit; not reproduced by a loop of 300
    closes of pages that reload or register the service worker). A test's checks are all made by
    then: a close that hangs is given up after CLOSE_SECONDS with a warning, the context left to
    the browser's own close at the end. Bounded by SIGALRM, as pytest-timeout bounds a whole
    test: its timer is put back, less the time the close took."""
    original = BrowserContext.close

    def give_up(signum: int, frame: object) -> None:
        raise CloseHung

    def close(self: BrowserContext, *args: Any, **kwargs: Any) -> None:
        began, (left, _) = time.monotonic(), signal.getitimer(signal.ITIMER_REAL)
        previous = signal.signal(signal.SIGALRM, give_up)
        signal.setitimer(signal.ITIMER_REAL, CLOSE_SECONDS)
        try:
            original(self, *args, **kwargs)
        except CloseHung:
            warnings.warn(f"a browser context's close gave up after {CLOSE_SECONDS} s",
                          stacklevel=2)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if left:
                signal.setitimer(signal.ITIMER_REAL,
                                 max(left - (time.monotonic() - began), 0.01))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BrowserContext, "close", close)
        yield


@pytest.fixture(scope="session")
def live_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The live server's SQLite file, for tests that seed a table or count its events."""
    return tmp_path_factory.mktemp("companion") / "db.sqlite"


@pytest.fixture(scope="session")
def live_app(live_database: Path) -> Iterator[Flask]:
    """The app with CSRF on, its database and instance folder in a temporary directory."""
    tmp = live_database.parent
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COMPANION_INSTANCE", str(tmp / "instance"))
        from companion.app import create_app

        app = create_app(
            {"DATABASE": str(live_database), "SECRET_KEY": "test", "TESTING": True}
        )
        assert app.config.get("WTF_CSRF_ENABLED", True), "the browser must submit real tokens"
        yield app


@pytest.fixture(scope="session")
def live_server(live_app: Flask) -> Iterator[str]:
    """`live_app` served on 127.0.0.1 from a thread."""
    server = make_server("127.0.0.1", 0, live_app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    return live_server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any], base_url: str) -> dict[str, Any]:
    return {
        **browser_context_args,
        "base_url": base_url,
        "viewport": PHONE,
        "is_mobile": True,
        "has_touch": True,
    }


@pytest.fixture(params=[True, False], ids=["js", "no js"])
def phone(request: pytest.FixtureRequest, browser: Browser,
          browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """A phone with JavaScript on, and one with it off."""
    context = browser.new_context(**browser_context_args, java_script_enabled=request.param)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture(autouse=True)
def _short_timeouts(page: Page) -> None:
    """Everything is local: fail in seconds rather than after Playwright's 30 s default."""
    page.set_default_timeout(10_000)
    page.set_default_navigation_timeout(15_000)


def shot(page: Page, name: str) -> Path:
    """Save a full-page screenshot and check the page does not scroll sideways; the page is left
    where it stood (Chromium's full-page capture scrolls it)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    stood = page.evaluate("scrollY")
    page.screenshot(path=str(path), full_page=True)
    page.evaluate("y => scrollTo(0, y)", stood)
    scroll_width, inner_width = page.evaluate(
        "[document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert scroll_width <= inner_width, (
        f"{name}: the page scrolls sideways ({scroll_width}px wide in a {inner_width}px window)"
    )
    return path


@pytest.fixture(name="shot")
def shot_fixture() -> Any:
    """`shot(page, name)` for the tests (a fixture, so no test imports a conftest module)."""
    return shot
