"""The history reads like a score pad in the phone's own clock: times are stored and written in
UTC, and app.js shows them in the browser's time zone (without JavaScript they stay UTC, said so).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from playwright.sync_api import Browser, expect

from tests.browser.helpers import tap_and_load

ZONE = "Pacific/Chatham"  # +12:45 or +13:45: no chance of matching UTC by accident


def play_one_purchase(browser: Browser, context_args: dict[str, Any], script: bool) -> Any:
    context = browser.new_context(**context_args, timezone_id=ZONE,
                                  java_script_enabled=script)
    page = context.new_page()
    page.goto("/")
    page.get_by_role("radio", name="Construction yard card game").check()  # a new browser: none
    for seat, name in enumerate(["Ann", "Ben", "Cy"], start=1):  # three: no Dirk to deal first
        page.get_by_placeholder(f"Player {seat}", exact=True).fill(name)
    tap_and_load(page, page.get_by_role("button", name="Start the game"))
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
        utc = datetime.fromisoformat(stamp.get_attribute("datetime") or "")
        local = utc.astimezone(ZoneInfo(ZONE)).strftime("%H:%M:%S")
        expect(stamp).to_have_text(local)
    finally:
        context.close()


def test_without_javascript_history_times_say_utc(browser: Browser,
                                                   browser_context_args: dict[str, Any]) -> None:
    context, page = play_one_purchase(browser, browser_context_args, script=False)
    try:
        stamp = page.locator("ol.history time").first
        utc = datetime.fromisoformat(stamp.get_attribute("datetime") or "")
        expect(stamp).to_have_text(utc.strftime("%H:%M:%S") + " UTC")
    finally:
        context.close()
