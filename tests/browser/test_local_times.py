"""Times in the phone's own time zone everywhere (issue 23, "Times"): "Your tables" on the home
page as the history does (app.js turns the UTC the page writes into the phone's clock; without
JavaScript it stays UTC, said so), and the printed score sheet in the zone the phone sent (a
cookie app.js sets: a PDF has no clock of the phone), with the zone named."""

from __future__ import annotations

import io
import re
from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import format_date
from playwright.sync_api import Browser, expect
from pypdf import PdfReader

from tests.browser.helpers import ZONE, start_table, tap_and_load, written_time


def a_table_then_home(browser: Browser, context_args: dict[str, Any], script: bool) -> Any:
    """A new phone in ZONE starts a table, then opens the home page (its tables listed)."""
    context = browser.new_context(**context_args, timezone_id=ZONE, java_script_enabled=script)
    page = context.new_page()
    start_table(page, ["Ann", "Ben", "Cy"])
    table = page.url
    page.goto("/")
    return context, page, table


def test_your_tables_are_dated_in_the_phones_time_zone(browser: Browser,
                                                        browser_context_args: dict[str, Any]
                                                        ) -> None:
    context, page, _table = a_table_then_home(browser, browser_context_args, script=True)
    try:
        stamp = page.locator("ul.tables time").first
        local = written_time(stamp).astimezone(ZoneInfo(ZONE))
        expect(stamp).to_have_text(local.strftime("%Y-%m-%d %H:%M"))
    finally:
        context.close()


def test_without_javascript_your_tables_say_utc(browser: Browser,
                                                browser_context_args: dict[str, Any]) -> None:
    context, page, _table = a_table_then_home(browser, browser_context_args, script=False)
    try:
        stamp = page.locator("ul.tables time").first
        expect(stamp).to_have_text(written_time(stamp).strftime("%Y-%m-%d %H:%M") + " UTC")
    finally:
        context.close()


def test_the_score_sheet_is_dated_in_the_phones_time_zone(browser: Browser,
                                                          browser_context_args: dict[str, Any]
                                                          ) -> None:
    context, page, table = a_table_then_home(browser, browser_context_args, script=True)
    try:
        created = written_time(page.locator("ul.tables time").first)
        tap_and_load(page, page.locator("ul.tables a").first)  # the zone goes with a link
        sheet = page.request.get(table + "sheet.pdf?size=A5")
        assert sheet.ok, sheet.status
        words = " ".join(" ".join(p.extract_text().split())
                         for p in PdfReader(io.BytesIO(sheet.body())).pages)
        local = created.astimezone(ZoneInfo(ZONE))
        said = f"{format_date(local.date(), 'medium', locale='en')} {local:%H:%M} ({ZONE})"
        assert f"Played {said} by Ann, Ben, Cy." in words, words[:300]
        assert not re.search(r"\bUTC\b", words)
    finally:
        context.close()


def test_the_zone_is_sent_only_once_a_link_is_followed(
        browser: Browser, browser_context_args: dict[str, Any]) -> None:
    """Finding the zone's name wakes the phone's `Intl` data (140-190 ms on a slow phone,
    issue 28): no page looks it up on load, not even one showing times (those are read from the
    phone's clock); it goes as a cookie once a link is followed (the sheet is then dated in the
    phone's zone: the test above)."""
    context, page, _table = a_table_then_home(browser, browser_context_args, script=True)
    try:
        expect(page.locator("ul.tables time").first).not_to_contain_text("UTC")
        assert "tz" not in {c["name"] for c in context.cookies()}
        tap_and_load(page, page.locator("ul.tables a").first)
        assert {c["name"]: c["value"] for c in context.cookies()}.get("tz") == ZONE
    finally:
        context.close()
