"""What the browser tests of changing a past action share: from a table page to the change of
one of its actions, and a screenshot of each step (no sideways scroll)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.taps import Taps

SHOTS = Path("/tmp/change-shots")


def screenshot(page: Page, name: str) -> None:
    """A full-page screenshot, the page left where it stood (Chromium's full-page capture
    scrolls it: a page opened at its form, 513 px down, was left 990 px down)."""
    SHOTS.mkdir(exist_ok=True)
    stood = page.evaluate("scrollY")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.evaluate("y => scrollTo(0, y)", stood)
    wide, window = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide <= window, f"{name}: {wide}px wide in a {window}px window"


def to_the_change(phone: Page, slug: str, table_id: str, seq: int) -> tuple[Taps, str]:
    """From the table page: History, then the action's Change link; the taps so far and
    whether the phone runs JavaScript."""
    phone.goto(f"/{slug}/{table_id}/")
    mode = "js" if phone.evaluate("document.documentElement.dataset.answers !== undefined") \
        else "no-js"
    taps = Taps(phone)
    taps.tap(phone.get_by_role("link", name="History"), "History")
    taps.tap(phone.get_by_role("link", name=f"Change #{seq}"), f"Change #{seq}")
    expect(phone.get_by_role("heading", name=re.compile(f"^Changing #{seq}: "))).to_be_visible()
    return taps, mode
