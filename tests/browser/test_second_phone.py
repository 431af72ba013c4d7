"""Issue 45: two phones at one street table, in Chromium at 390x844 with touch.

Found at a table: both phones showed Ann's 1st action; phone A built a card from the library on
site 1, then phone B tapped site 2 for a card: B was told about a field its screen did not show
("Where the card came from"). At Ann's 2nd action the same race took B to "Ann's street /
Remove a card built by mistake", and B's card was silently not recorded. A stale tap is now
recorded when nothing it depends on changed, else refused with what changed on the other phone,
on the page B was on, brought up to date in place. And the card library is the table's: a
second phone offers the cards the first phone's earlier tables built."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.browser.helpers import start_table, tap_and_load
from tests.browser.states import seed
from tests.street_moves import build, card, passes, public

OFFICE = card("office", income=[{"each": "flat", "amount": 1, "project": None}])
HOTEL = card("hotel", prestige=[{"each": "flat", "amount": 2, "project": None}])
# Ann built an office and the public pile's hotel; Ben passed: Ann's 1st action again, with
# both cards in the table's library.
BUILT = (build("Ann", 1, OFFICE), public("Ann", 2, HOTEL), *passes("Ben"))


@pytest.fixture
def second_phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context: BrowserContext = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def turn(page: Page) -> Locator:
    return page.locator("section.turn")


def known_site(page: Page, words: str, number: int) -> Locator:
    row = turn(page).locator(".known", has_text=words).first
    return row.get_by_role("button", name=f"Site {number}", exact=True)


def public_pile(page: Page) -> Locator:
    sources = turn(page).locator("fieldset.sources")
    return sources.locator("label.chip", has_text="Public pile").locator("span").first


def expect_refused_with_what_changed(page: Page, url: str, happened: str, now: str) -> None:
    """The tap was refused in the strip with what the other phone did, on the same page (the
    table page), brought up to date: the turn now shown is `now`."""
    note = page.locator(".score-strip #refusal")
    expect(note).to_contain_text("The table changed since this screen was loaded")
    expect(note).to_contain_text(happened)
    expect(note).to_be_in_viewport()
    expect(page).to_have_url(re.compile(re.escape(url) + "$"))
    expect(page.get_by_role("heading", name="Street card game", level=1)).to_be_visible()
    expect(turn(page).locator("h2")).to_have_text(now)
    expect(page.locator(".field-error")).to_have_count(0)
    expect(page.get_by_role("heading", name="Remove a card built by mistake")).to_have_count(0)


def test_a_stale_tap_at_the_1st_action_is_refused_with_what_changed(
        page: Page, second_phone: Page, live_database: Path, shot) -> None:
    url = f"/street/{seed(live_database, 'street', ('Ann', 'Ben'), BUILT)}/"
    page.goto(url)
    second_phone.goto(url)
    tap_and_load(page, known_site(page, "office", 3))
    expect(turn(page).locator("h2")).to_have_text("Ann's turn: 2nd action")
    tap_and_load(second_phone, known_site(second_phone, "hotel", 4))
    expect_refused_with_what_changed(second_phone, url, "Ann built an office on site 3",
                                     "Ann's turn: 2nd action")
    shot(second_phone, "second-phone-street-1st-action")
    expect(second_phone.locator(".site", has_text="hotel")).to_have_count(1)  # not built


def test_a_stale_tap_at_the_2nd_action_stays_on_the_table_page(
        page: Page, second_phone: Page, live_database: Path, shot) -> None:
    table_id = seed(live_database, "street", ("Ann", "Ben"), (*BUILT, build("Ann", 3, OFFICE)))
    url = f"/street/{table_id}/"
    page.goto(url)
    second_phone.goto(url)
    public_pile(page).tap()
    tap_and_load(page, known_site(page, "hotel", 4))
    expect(turn(page).locator("h2")).to_have_text("Ben's turn: 1st action")
    public_pile(second_phone).tap()
    tap_and_load(second_phone, known_site(second_phone, "office", 5))
    expect_refused_with_what_changed(second_phone, url, "Ann built a hotel on site 4",
                                     "Ben's turn: 1st action")
    shot(second_phone, "second-phone-street-2nd-action")
    history = second_phone.context.request.get(url + "history").text()
    assert "site 5" not in history


def test_a_second_phone_offers_the_table_s_card_library(
        page: Page, second_phone: Page, live_database: Path, shot) -> None:
    """Phone A played an earlier table; at the new table it starts, phone B (joined by the
    share link) offers the cards built there, as A does: one tap, not 7 to 10."""
    page.goto(f"/street/{seed(live_database, 'street', ('Ann', 'Ben'), BUILT)}/")
    url = start_table(page, ["Cleo", "Dan"], "street")
    expect(known_site(page, "hotel", 1)).to_be_visible()
    page.goto(url + "share")
    join = page.locator("a[href*='/j/']").get_attribute("href")
    assert join
    second_phone.goto(join)
    expect(second_phone).to_have_url(url)
    for words in ("office", "hotel"):
        expect(known_site(second_phone, words, 1)).to_be_visible()
    shot(second_phone, "second-phone-library")
    tap_and_load(second_phone, known_site(second_phone, "hotel", 1))
    expect(second_phone.locator(".score-strip #recorded")).to_contain_text(
        "Cleo built a hotel on site 1")
