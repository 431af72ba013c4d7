"""Issue 44: no tap lost when the Wi-Fi drops, in Chromium at 390x844 with touch.

A tap made without a connection used to be said ("No answer: check the connection and tap
again") and gone. Now it is kept on the phone with its one-time key and said in the score strip
("Waiting for the connection: ... will be sent", with "Don't send"); it is sent by itself when
the connection is back, in the order tapped, and answered as any tap: recorded once, or refused
with what changed. A phone that slept comes back to the table as it stands."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from companion import storage
from tests.browser.helpers import building_button, tap_and_load
from tests.browser.states import YARD, YARD_MID, logged, seed

BACK_WITHIN_MS = 8_000  # the `online` event, or the retry that backs off from 2 s


@pytest.fixture
def second_phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context: BrowserContext = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def mid_game(page: Page, live_database: Path) -> tuple[str, str]:
    table_id = seed(live_database, "yard", YARD, YARD_MID)
    page.goto(f"/yard/{table_id}/")
    return table_id, f"/yard/{table_id}/"


def waiting(page: Page) -> Any:
    return page.locator(".score-strip #waiting")


def purchases(live_database: Path, table_id: str) -> list[tuple[str, str]]:
    return [(e.payload["player"], e.payload["building"])
            for e in logged(live_database, table_id) if e.kind == "buy"]


def test_a_purchase_tapped_offline_is_recorded_once_when_the_phone_is_back(
        page: Page, live_database: Path, shot) -> None:
    table_id, _ = mid_game(page, live_database)
    before = purchases(live_database, table_id)
    page.context.set_offline(True)
    tap_and_load(page, building_button(page, "Ben", "park"))
    expect(waiting(page)).to_contain_text("Waiting for the connection: “Ben: Park” will be sent.")
    expect(waiting(page)).to_be_in_viewport()
    shot(page, "offline-waiting")
    page.wait_for_timeout(2_500)  # a retry while still offline: still kept, nothing recorded
    assert purchases(live_database, table_id) == before
    page.context.set_offline(False)
    expect(page.locator(".score-strip #recorded")).to_contain_text(
        "Ben bought a park", timeout=BACK_WITHIN_MS)
    expect(waiting(page)).to_have_count(0)
    page.wait_for_timeout(3_000)
    assert purchases(live_database, table_id) == [*before, ("Ben", "park")]
    assert page.evaluate("localStorage.getItem('companion-kept')") == "[]"


def test_three_taps_made_offline_are_recorded_in_the_order_tapped(
        page: Page, live_database: Path, shot) -> None:
    """Ann's park twice (the same button: two taps, each its own key) and Ben's church."""
    table_id, _ = mid_game(page, live_database)
    before = purchases(live_database, table_id)
    page.context.set_offline(True)
    for player, building in (("Ann", "park"), ("Ann", "park"), ("Ben", "church")):
        tap_and_load(page, building_button(page, player, building))
    expect(waiting(page)).to_contain_text("“Ann: Park”, “Ann: Park”, “Ben: Church”")
    shot(page, "offline-three-waiting")
    page.context.set_offline(False)
    expect(page.locator(".score-strip #recorded")).to_contain_text(
        "Ben bought a church", timeout=BACK_WITHIN_MS)
    expect(page.locator("#refusal")).to_have_count(0)
    assert purchases(live_database, table_id) == [
        *before, ("Ann", "park"), ("Ann", "park"), ("Ben", "church")]


def test_a_kept_tap_that_conflicts_with_another_phone_is_refused_with_what_changed(
        page: Page, second_phone: Page, live_database: Path, shot) -> None:
    table_id, url = mid_game(page, live_database)
    second_phone.goto(url)
    page.context.set_offline(True)
    tap_and_load(page, building_button(page, "Ann", "park"))
    expect(waiting(page)).to_be_visible()
    # The same purchase on the second phone meanwhile: the kept tap may be that one.
    tap_and_load(second_phone, building_button(second_phone, "Ann", "park"))
    before = purchases(live_database, table_id)
    page.context.set_offline(False)
    refusal = page.locator(".score-strip #refusal")
    expect(refusal).to_contain_text("Not sent: “Ann: Park”.", timeout=BACK_WITHIN_MS)
    expect(refusal).to_contain_text("Ann bought a park")
    shot(page, "offline-conflict")
    assert purchases(live_database, table_id) == before
    expect(building_button(page, "Ann", "park")).to_contain_text(
        str(before.count(("Ann", "park"))))  # the page brought up to date


def test_a_kept_tap_is_dropped_with_words_once_the_table_has_new_links(
        page: Page, live_database: Path) -> None:
    table_id, _ = mid_game(page, live_database)
    page.context.set_offline(True)
    tap_and_load(page, building_button(page, "Cy", "park"))
    expect(waiting(page)).to_be_visible()
    db = storage.connect(str(live_database))
    try:
        renewed = storage.renew_links(db, table_id)
    finally:
        db.close()
    page.context.set_offline(False)
    refusal = page.locator(".score-strip #refusal")
    expect(refusal).to_contain_text("Not sent: “Cy: Park”.", timeout=BACK_WITHIN_MS)
    expect(refusal).to_contain_text("new links")
    assert page.evaluate("localStorage.getItem('companion-kept')") == "[]"
    assert len(logged(live_database, renewed)) == len(YARD_MID)


def test_don_t_send_drops_the_kept_taps(page: Page, live_database: Path) -> None:
    table_id, _ = mid_game(page, live_database)
    before = purchases(live_database, table_id)
    page.context.set_offline(True)
    tap_and_load(page, building_button(page, "Cy", "church"))
    waiting(page).get_by_role("button", name="Don’t send").tap()
    expect(page.locator(".score-strip #refusal")).to_contain_text("Not sent: “Cy: Church”.")
    page.context.set_offline(False)
    page.wait_for_timeout(3_000)
    assert purchases(live_database, table_id) == before


SLEEP = ("hidden => { Object.defineProperty(document, 'hidden',"
         " { configurable: true, get: () => hidden });"
         " document.dispatchEvent(new Event('visibilitychange')); }")


def test_a_phone_that_slept_shows_the_other_phone_s_actions_at_once(
        page: Page, second_phone: Page, live_database: Path) -> None:
    _, url = mid_game(page, live_database)
    second_phone.goto(url)
    page.evaluate(SLEEP, True)  # the screen off: no polls
    tap_and_load(second_phone, building_button(second_phone, "Cy", "museum"))
    page.wait_for_timeout(2_500)
    expect(page.locator("#changed")).to_have_count(0)
    bought = second_phone.evaluate("document.body.dataset.seq")
    page.evaluate(SLEEP, False)  # the screen on again
    expect(page.locator("body")).to_have_attribute("data-seq", bought, timeout=1_500)
    count = building_button(second_phone, "Cy", "museum").locator(".count").inner_text()
    expect(building_button(page, "Cy", "museum").locator(".count")).to_have_text(count)
    expect(page.locator("#changed")).to_have_count(0)  # brought up to date, not just told


def test_a_fold_out_opened_offline_keeps_the_table_on_the_screen(page: Page,
                                                                  live_database: Path) -> None:
    """Found at a table: a fold-out tapped without a connection left the app for the
    browser's own "No internet" page. The table stays; the strip says there is no answer."""
    _, url = mid_game(page, live_database)
    page.context.set_offline(True)
    try:
        tap_and_load(page, page.locator("a[data-open]", has_text="Corrections"))
        expect(page.locator(".score-strip #refusal")).to_contain_text("No answer")
        assert page.url.endswith(url)
        expect(page.get_by_role("heading", name="Construction yard card game")).to_be_visible()
    finally:
        page.context.set_offline(False)
    tap_and_load(page, page.locator("a[data-open]", has_text="Corrections"))
    expect(page.get_by_label("Count")).to_be_visible()
