"""Prints in the installed app (display-mode standalone: no address bar, no back button): a PDF
link saves the file, which the phone opens in its own viewer, and the app stays on the table.
In a browser tab a PDF link opens the PDF as any link does."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser

from tests.browser.helpers import start_table

# What Chromium answers for an app opened from the home screen (it cannot be started so here).
STANDALONE = """
const asked = window.matchMedia.bind(window);
window.matchMedia = query => asked(/display-mode: *standalone/.test(query) ? "all" : query);
"""
# Keeps a tapped link from navigating, to see what the tap made of it.
STAY = "document.addEventListener('click', e => e.preventDefault())"


def yard_table(browser: Browser, context_args: dict[str, Any], installed: bool) -> Any:
    context = browser.new_context(**context_args, accept_downloads=True)
    if installed:
        context.add_init_script(STANDALONE)
    page = context.new_page()
    start_table(page, ["Ann", "Ben", "Cy"])
    return context, page


def test_in_the_installed_app_a_pdf_is_saved_and_the_table_stays(
        browser: Browser, browser_context_args: dict) -> None:
    context, page = yard_table(browser, browser_context_args, installed=True)
    try:
        table = page.url
        link = page.get_by_role("link", name="Blank pad (PDF)")
        link.scroll_into_view_if_needed()
        with page.expect_download() as saved:
            link.tap()
        download = saved.value
        assert download.suggested_filename == "yard-score-pad-3.pdf"
        with open(download.path(), "rb") as pdf:
            assert pdf.read(5) == b"%PDF-"
        assert page.url == table
        assert page.get_by_role("heading", name="Construction yard card game").is_visible()
    finally:
        context.close()


def test_in_a_browser_tab_a_pdf_link_opens_as_any_link(browser: Browser,
                                                       browser_context_args: dict) -> None:
    context, page = yard_table(browser, browser_context_args, installed=False)
    try:
        page.evaluate(STAY)
        link = page.get_by_role("link", name="Blank pad (PDF)")
        link.scroll_into_view_if_needed()
        link.tap()
        assert link.get_attribute("download") is None
        assert link.get_attribute("type") == "application/pdf"
    finally:
        context.close()
