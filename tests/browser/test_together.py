"""Several phones at one table, in real browsers: a scorer, a second scorer who joined by the
share link, and a scoreboard on a third screen that follows the game by itself."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from companion.rules import yard_example
from tests.browser.helpers import building_button, buy, start_table, tap_and_load
from tests.browser.states import seed

Shot = Callable[[Page, str], Any]
FOLLOWS_WITHIN_MS = 2_000


@pytest.fixture
def second_phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """Another phone: its own browser context, so its own cookies and session."""
    context: BrowserContext = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


third_phone = second_phone


def share_links(page: Page, table_url: str) -> tuple[str, str]:
    page.goto(table_url + "share")
    expect(page.get_by_role("heading", name="Share this table")).to_be_visible()
    expect(page.locator("svg.qr")).to_have_count(2)
    join = page.locator("a[href*='/j/']").get_attribute("href")
    board = page.locator("a[href*='/board/']").get_attribute("href")
    assert join and board
    return join, board


def test_the_scoreboard_follows_the_scorer_within_two_seconds(
    page: Page, second_phone: Page, shot: Shot
) -> None:
    table = start_table(page, ["Anna", "Ben", "Cleo"])
    _, board = share_links(page, table)
    shot(page, "together-01-share")
    second_phone.goto(board)
    expect(second_phone.get_by_role("heading", name="Scores")).to_be_visible()
    expect(second_phone.locator(".board-last")).to_have_count(0)
    assert second_phone.locator("form").count() == 0
    page.goto(table)
    buy(page, "Anna", "park")
    expect(second_phone.locator(".board-last")).to_contain_text(
        "Anna bought a park", timeout=FOLLOWS_WITHIN_MS)
    buy(page, "Ben", "museum")
    expect(second_phone.locator(".board-last li").first).to_contain_text(
        "Ben bought a museum", timeout=FOLLOWS_WITHIN_MS)
    shot(second_phone, "together-02-scoreboard")


def test_a_second_scorer_joins_by_the_link_a_stale_tap_is_merged_or_refused(
    page: Page, second_phone: Page, third_phone: Page, shot: Shot
) -> None:
    table = start_table(page, ["Dora", "Emil", "Fay"])
    join, board = share_links(page, table)
    second_phone.goto(join)
    expect(second_phone).to_have_url(table)
    buy(second_phone, "Emil", "church")
    # The first phone still shows the table before Emil's purchase: it is told it changed...
    page.goto(table)
    third_phone.goto(board)
    expect(third_phone.locator(".board-last")).to_contain_text("Emil bought a church")
    buy(second_phone, "Fay", "station")
    expect(page.locator("#changed")).to_contain_text(
        "The table changed on another phone.", timeout=FOLLOWS_WITHIN_MS)
    shot(page, "together-03-changed-banner")
    # ... and Dora's purchase tapped on its outdated screen does not depend on Fay's: it is
    # recorded after it, and the answer says so (issue 23).
    tap_and_load(page, building_button(page, "Dora", "park"))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(page.locator(".score-strip #recorded")).to_contain_text(
        "Dora bought a park — another phone recorded before it: Fay bought a station")
    expect(building_button(page, "Fay", "station")).to_have_text(re.compile(r"Station 1$"))
    expect(building_button(page, "Dora", "park")).to_have_text(re.compile(r"Park 1$"))
    expect(page.locator("#changed")).to_have_count(0)
    shot(page, "together-04-stale-merged")
    # Another purchase of Dora's on the second phone: the first phone's next tap of the same
    # building for Dora may be that same purchase, so it is refused with what happened, nothing
    # applied.
    second_phone.reload()
    buy(second_phone, "Dora", "museum")
    tap_and_load(page, building_button(page, "Dora", "museum"))
    refusal = page.locator(".error, .refusal")
    expect(refusal).to_contain_text("Just recorded: Dora bought a museum. This tap was not "
                                    "recorded again; if it was one more, tap it again")
    # The page is brought up to date in place.
    expect(building_button(page, "Dora", "museum")).to_have_text(re.compile(r"Museum 1$"))
    shot(page, "together-05-stale-refused")


def test_the_scoreboard_works_without_javascript(
    browser: Browser, browser_context_args: dict[str, Any], page: Page
) -> None:
    table = start_table(page, ["Gus", "Hana"])
    _, board = share_links(page, table)
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    tv = context.new_page()
    tv.goto(board)
    expect(tv.get_by_role("link", name="Reload")).to_be_visible()
    assert tv.locator("noscript").count() == 1
    context.close()


def test_a_stale_tap_on_a_control_the_table_no_longer_has_is_told_in_the_strip(
    page: Page, second_phone: Page, live_database: Path, shot: Shot
) -> None:
    """Issue 45, found at a table: the game over, phone 2 gave out the last cards and scored
    C; phone 1, whose screen still offered Cy's last purchase, tapped it. The refusal said what
    changed, but beside the button the page as it is now no longer has, so nowhere. It is said
    in the score strip at the foot, and the page is brought up to date."""
    table_id = seed(live_database, "yard", yard_example.PLAYERS, tuple(yard_example.GAME_OVER))
    url = f"/yard/{table_id}/"
    page.goto(url)
    second_phone.goto(url)
    for k, (_space, holder) in enumerate(
            [("blue", "Ann"), ("green", "tie or nobody"), ("yellow", "Ben")]):
        row = second_phone.locator("#end fieldset.leftover").nth(k)
        row.locator("label.chip", has_text=holder).click()
    tap_and_load(second_phone, second_phone.get_by_role("button",
                                                        name="Give out the cards and score C"))
    expect(second_phone.get_by_role("heading", name="Final result")).to_be_visible()

    stale = building_button(page, "Cy", "museum")
    tap_and_load(page, stale)
    refusal = page.locator(".score-strip #refusal")
    expect(refusal).to_contain_text("The table changed since this screen was loaded (End of")
    expect(refusal).to_be_in_viewport()
    expect(page.get_by_role("heading", name="Final result")).to_be_visible()
    shot(page, "together-stale-tap-gone")


def test_a_phone_changing_a_past_action_is_told_when_another_phone_records(
    page: Page, second_phone: Page, live_database: Path
) -> None:
    """A phone on the change of a correction, its form in view (`#as-recorded`), is told as
    any screen is when another phone records: it heard nothing while the form's anchor had the
    id of the strip's note ("changed")."""
    players = ("Dora", "Emil", "Fay")
    table_id = seed(live_database, "yard", players, (
        ("buy", {"player": "Dora", "building": "park"}),
        ("correct", {"owner": "Emil", "building": "church", "count": 1, "reason": "missed"})))
    table = f"/yard/{table_id}/"
    page.goto(table + "history")
    page.get_by_role("link", name="Change #2").click()
    expect(page.locator("#as-recorded")).to_be_in_viewport()
    second_phone.goto(table)
    buy(second_phone, "Emil", "museum")
    expect(page.locator(".score-strip #changed")).to_contain_text(
        "The table changed on another phone.", timeout=FOLLOWS_WITHIN_MS)


def test_a_fold_out_opened_after_another_phone_recorded_says_the_table_changed(
    page: Page, live_database: Path
) -> None:
    """Found at a table: an auction's winner chip (a fold-out, opened in place) tapped on a
    screen from before another phone recorded that auction showed the next auction without a
    word, as if the tap had done it. The strip says the table changed meanwhile; a fold-out
    opened on a screen that is up to date says nothing."""
    from tests.browser.states import OFFICE, STREET, record

    table_id = seed(live_database, "street", STREET, (
        ("card", {"player": "Mia", "street": "Mia", "site": 1, "card": OFFICE}),))
    url = f"/street/{table_id}/"
    page.goto(url)
    tap_and_load(page, page.locator("#project-office"))
    expect(page.locator(".score-strip #refusal")).to_have_count(0)
    page.goto(url)
    record(live_database, url, list(STREET), [("buy", {"player": "Mia", "deck": "public",
                                                        "cost": 0})])
    tap_and_load(page, page.locator("#project-office"))
    refusal = page.locator(".score-strip #refusal")
    expect(refusal).to_contain_text("The table changed on another phone meanwhile")
    expect(refusal).to_be_in_viewport()
