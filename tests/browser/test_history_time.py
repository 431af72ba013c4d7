"""The history reads like a score pad in the phone's own clock: times are stored and written in
UTC, and app.js shows them in the browser's time zone (without JavaScript they stay UTC, said so).
"""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from playwright.sync_api import Browser, expect

from tests.browser.helpers import ZONE, start_table, tap_and_load, written_time


def play_one_purchase(browser: Browser, context_args: dict[str, Any], script: bool) -> Any:
    context = browser.new_context(**context_args, timezone_id=ZONE,
                                  java_script_enabled=script)
    page = context.new_page()
    start_table(page, ["Ann", "Ben", "Cy"])  # three: no Dirk to deal first
    tap_and_load(page, page.locator('form.buildings:has(input[value="Ann"]) '
                                    'button[value="park"]').first)
    page.goto(page.url.split("#")[0] + "history")  # without JavaScript: the tapped place
    return context, page


def test_history_times_are_in_the_phones_time_zone(browser: Browser,
                                                   browser_context_args: dict[str, Any]) -> None:
    context, page = play_one_purchase(browser, browser_context_args, script=True)
    try:
        stamp = page.locator("ol.history time").first
        expect(stamp).not_to_contain_text("UTC")
        local = written_time(stamp).astimezone(ZoneInfo(ZONE)).strftime("%H:%M:%S")
        expect(stamp).to_have_text(local)
    finally:
        context.close()


def test_without_javascript_history_times_say_utc(browser: Browser,
                                                   browser_context_args: dict[str, Any]) -> None:
    context, page = play_one_purchase(browser, browser_context_args, script=False)
    try:
        stamp = page.locator("ol.history time").first
        expect(stamp).to_have_text(written_time(stamp).strftime("%H:%M:%S") + " UTC")
    finally:
        context.close()
