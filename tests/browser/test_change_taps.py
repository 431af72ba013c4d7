"""Changing a past action from the history (issue 25), in real Chromium at phone size with touch,
JavaScript on and off: the yard's wrong buyer three actions back and 5th Avenue's auction winner
six actions back, each in at most 5 taps, with the totals before and after in view, and the game
it leaves equal to the one entered right."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from companion import replays, storage
from companion.rules import GAMES
from tests.browser.helpers import building_button
from tests.browser.states import seed
from tests.browser.taps import Taps
from tests.street_moves import bought, build, card, takes_public
from tests.tables import FIFTH_AVENUE, URBANISATION

SHOTS = Path("/tmp/change-shots")
PLAYERS = ("Tobi", "Nina", "Paul")


def buy(player: str, building: str) -> tuple[str, dict[str, str]]:
    return "buy", {"player": player, "building": building, "for": player}


@pytest.fixture(params=[True, False], ids=["js", "no js"])
def phone(request: pytest.FixtureRequest, browser: Browser,
          browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context = browser.new_context(**browser_context_args, java_script_enabled=request.param)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def screenshot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    wide, window = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide <= window, f"{name}: {wide}px wide in a {window}px window"


def state(database: Path, table_id: str) -> dict[str, Any]:
    db = storage.connect(str(database))
    try:
        kept = replays.current(db, table_id, GAMES["yard"], list(PLAYERS)).state
        return {key: value for key, value in vars(kept).items() if key != "note"}
    finally:
        db.close()


def kept_state(database: Path, slug: str, players: tuple[str, ...], table_id: str) -> Any:
    db = storage.connect(str(database))
    try:
        kept = replays.current(db, table_id, GAMES[slug], list(players)).state
        return {key: value for key, value in vars(kept).items() if key != "note"}
    finally:
        db.close()


def as_corrected(database: Path, table_id: str) -> tuple[tuple[str, Any], ...]:
    """The table's log as it would have been entered right: its last change applied (the
    actions it edits replaced or left out, the actions it dropped left out), undo and redo as
    they were."""
    db = storage.connect(str(database))
    try:
        events = storage.events(db, table_id)
    finally:
        db.close()
    fix = events[-1].payload
    edits = {edit["seq"]: edit["now"] for edit in fix["edits"]}
    return tuple((edits[e.seq]["kind"], edits[e.seq]["payload"]) if e.seq in edits
                 else (e.kind, dict(e.payload)) for e in events[:-1]
                 if e.seq not in fix["drop"] and (e.seq not in edits or edits[e.seq]))


def test_an_auction_won_by_the_other_player_in_at_most_5_taps(phone: Page,
                                                              live_database: Path) -> None:
    """5th Avenue: the third auction (#23) was Ben's, not Ann's; six actions came after it."""
    players, log = FIFTH_AVENUE
    table_id = seed(live_database, "fifth_avenue", tuple(players), tuple(log[:29]))
    phone.goto(f"/fifth_avenue/{table_id}/")
    mode = "js" if phone.evaluate("document.documentElement.dataset.answers !== undefined") \
        else "no-js"

    taps = Taps(phone)
    taps.tap(phone.get_by_role("link", name="History"), "History")
    taps.tap(phone.get_by_role("link", name="Change #23"), "Change #23")
    expect(phone.get_by_role("heading", name=re.compile("^Changing #23: "))).to_be_visible()
    taps.tap(phone.locator(".chips a", has_text="Ben,").first, "Ben's bid")
    taps.tap(phone.get_by_role("button", name="Built 1", exact=True), "Built 1")
    expect(phone.locator(".change-preview h1")).to_be_in_viewport()
    expect(phone.locator(".change-preview h1")).to_contain_text("Ben")
    screenshot(phone, f"fifth-avenue-change-preview-{mode}")
    taps.tap(phone.get_by_role("button", name="Confirm the change"), "Confirm")
    taps.held_to(f"5th Avenue: an auction winner six actions back ({mode})", 5)

    right = seed(live_database, "fifth_avenue", tuple(players),
                 as_corrected(live_database, table_id))
    assert kept_state(live_database, "fifth_avenue", tuple(players), table_id) == \
        kept_state(live_database, "fifth_avenue", tuple(players), right)


def test_work_orders_of_another_colour_in_at_most_5_taps(phone: Page,
                                                          live_database: Path) -> None:
    """Urbanisation: Ann's work orders (#13) were orange, not white; five actions came after."""
    players, log = URBANISATION
    table_id = seed(live_database, "urbanisation", tuple(players), tuple(log[:18]))
    phone.goto(f"/urbanisation/{table_id}/")
    mode = "js" if phone.evaluate("document.documentElement.dataset.answers !== undefined") \
        else "no-js"

    taps = Taps(phone)
    taps.tap(phone.get_by_role("link", name="History"), "History")
    taps.tap(phone.get_by_role("link", name="Change #13"), "Change #13")
    expect(phone.get_by_role("heading", name=re.compile("^Changing #13: "))).to_be_visible()
    taps.tap(phone.locator('button[name="offer"][value^="work_orders.orange."]').first,
             "orange work orders")
    expect(phone.locator(".change-preview h1")).to_be_in_viewport()
    expect(phone.locator(".change-preview h1")).to_contain_text("orange")
    screenshot(phone, f"urbanisation-change-preview-{mode}")
    taps.tap(phone.get_by_role("button", name="Confirm the change"), "Confirm")
    taps.held_to(f"Urbanisation: a work orders colour five actions back ({mode})", 5)

    right = seed(live_database, "urbanisation", tuple(players),
                 as_corrected(live_database, table_id))
    assert kept_state(live_database, "urbanisation", tuple(players), table_id) == \
        kept_state(live_database, "urbanisation", tuple(players), right)


def test_a_wrong_buyer_three_actions_back_in_at_most_5_taps(phone: Page,
                                                            live_database: Path) -> None:
    later = (buy("Nina", "museum"), buy("Paul", "park"), buy("Tobi", "museum"))
    table_id = seed(live_database, "yard", PLAYERS, (buy("Tobi", "park"), *later))
    right = seed(live_database, "yard", PLAYERS, (buy("Nina", "park"), *later))
    phone.goto(f"/yard/{table_id}/")
    mode = "js" if phone.evaluate("document.documentElement.dataset.answers !== undefined") \
        else "no-js"

    taps = Taps(phone)
    taps.tap(phone.get_by_role("link", name="History"), "History")
    taps.tap(phone.get_by_role("link", name="Change #1"), "Change #1")
    expect(phone.get_by_role("heading", name="Changing #1: Tobi bought a park")).to_be_visible()
    screenshot(phone, f"yard-changing-{mode}")
    taps.tap(building_button(phone, "Nina", "park"), "Nina: park")
    heading = phone.get_by_role("heading", name="Changed: Tobi bought a park → Nina bought a park")
    expect(heading).to_be_in_viewport()  # the answer to the deciding tap is in view
    expect(phone.locator(".change-preview table.totals tbody tr")).to_have_count(3)
    screenshot(phone, f"yard-change-preview-{mode}")
    taps.tap(phone.get_by_role("button", name="Confirm the change"), "Confirm")
    taps.held_to(f"yard: a wrong buyer three actions back ({mode})", 5)
    assert taps.count == 4, taps

    expect(phone).to_have_url(f"/yard/{table_id}/")
    assert state(live_database, table_id) == state(live_database, right)
    phone.goto(f"/yard/{table_id}/history")
    expect(phone.locator("ol.history")).to_contain_text(
        "Changed: Tobi bought a park → Nina bought a park")
    screenshot(phone, f"yard-changed-history-{mode}")


def test_a_card_bought_from_the_wrong_deck_in_at_most_5_taps(phone: Page,
                                                              live_database: Path) -> None:
    """The street: Mia's card (#2) came from her own deck, not Ola's; three actions came after.
    The builder shows the card filled in as it was recorded: one chip and its site change it.
    Ola's upcoins (#3) then no longer lie on her deck: the preview says it is taken out."""
    players = ("Mia", "Ola")
    log = (build("Mia", 1, card()), bought("Mia", 1, card(), "Ola", 2),
           ("upcoins", {"player": "Ola"}), *takes_public("Ola"))
    table_id = seed(live_database, "street", players, log)
    phone.goto(f"/street/{table_id}/")
    mode = "js" if phone.evaluate("document.documentElement.dataset.answers !== undefined") \
        else "no-js"

    taps = Taps(phone)
    taps.tap(phone.get_by_role("link", name="History"), "History")
    taps.tap(phone.get_by_role("link", name="Change #2"), "Change #2")
    sources = phone.locator("fieldset.sources")
    expect(sources.locator('input[value="Ola"]')).to_be_checked()  # as it was recorded
    expect(phone.locator('input[name="cost"]')).to_have_value("2")
    screenshot(phone, f"street-changing-{mode}")
    taps.touch(sources.locator("label.chip", has_text="Bought from own deck"), "own deck")
    taps.tap(phone.get_by_role("button", name="Build on site 1"), "site 1")
    expect(phone.locator(".change-preview h1")).to_be_in_viewport()
    expect(phone.locator(".change-preview .dropped")).to_contain_text("Ola")
    screenshot(phone, f"street-change-preview-{mode}")
    taps.tap(phone.get_by_role("button", name="Confirm the change"), "Confirm")
    taps.held_to(f"street: a card's deck three actions back ({mode})", 5)

    right = seed(live_database, "street", players, as_corrected(live_database, table_id))
    assert kept_state(live_database, "street", players, table_id) == \
        kept_state(live_database, "street", players, right)
    db = storage.connect(str(live_database))
    try:
        now = storage.events(db, table_id)[-1].payload["edits"][0]["now"]["payload"]
    finally:
        db.close()
    assert (now["bought_from"], now["cost"]) == ("Mia", 2)
