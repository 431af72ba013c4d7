"""Changing a past action from the history (issue 25), in real Chromium at phone size with touch,
JavaScript on and off, one case per game, each in at most 5 taps with the totals now and after
the change in view, and the game it leaves equal to the one entered right from the start: the
yard's wrong buyer, the street's wrong deck, 5th Avenue's auction winner and the colour of an
Urbanisation action."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from companion import replays, storage
from companion.rules import GAMES
from tests.browser.changes import screenshot, to_the_change
from tests.browser.helpers import building_button
from tests.browser.states import seed
from tests.browser.taps import Taps
from tests.street_moves import bought, build, card, takes_public
from tests.tables import FIFTH_AVENUE, URBANISATION
from tests.yard_moves import buy


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


# The most taps each game's task may take, a scroll counted as a tap (since issue 26): the
# history's Change link and the preview's Confirm may be below the fold. The yard's and 5th
# Avenue's were 5 and 7 until their Change links led to the form (`#as-recorded`), not the top.
CHANGE_TAPS = {"yard": 4, "street": 6, "fifth_avenue": 6, "urbanisation": 5}


def confirmed(phone: Page, taps: Taps, task: str, database: Path, slug: str,
              players: tuple[str, ...], table_id: str) -> None:
    """The preview in view with every player's total now and after; Confirm; the task held to
    its game's CHANGE_TAPS, and the table equal to one whose log was entered right from the
    start."""
    expect(phone.locator(".change-preview h1")).to_be_in_viewport()
    expect(phone.locator(".change-preview table.totals tbody tr")).to_have_count(len(players))
    screenshot(phone, re.sub(r"\W+", "-", task))
    taps.tap(phone.get_by_role("button", name="Confirm the change"), "Confirm")
    taps.held_to(task, CHANGE_TAPS[slug])
    expect(phone).to_have_url(re.compile(f"/{slug}/{table_id}/(#[a-z][a-z0-9_-]*)?$"))
    right = seed(database, slug, players, as_corrected(database, table_id))
    assert kept_state(database, slug, players, table_id) == \
        kept_state(database, slug, players, right)


def test_a_wrong_buyer_three_actions_back(phone: Page, live_database: Path) -> None:
    """The yard: Tobi's park (#1) was Nina's; three purchases came after it."""
    players = ("Tobi", "Nina", "Paul")
    log = (buy("Tobi", "park"), buy("Nina", "museum"), buy("Paul", "park"),
           buy("Tobi", "museum"))
    table_id = seed(live_database, "yard", players, log)
    taps, mode = to_the_change(phone, "yard", table_id, 1)
    screenshot(phone, f"yard-changing-{mode}")
    taps.tap(building_button(phone, "Nina", "park"), "Nina: park")
    expect(phone.locator(".change-preview h1")).to_have_text(
        "Change: Tobi bought a park → Nina bought a park")
    confirmed(phone, taps, f"yard: a wrong buyer three actions back ({mode})", live_database,
              "yard", players, table_id)
    assert taps.count == CHANGE_TAPS["yard"], taps
    phone.goto(f"/yard/{table_id}/history")
    expect(phone.locator("ol.history")).to_contain_text(
        "Changed: Tobi bought a park → Nina bought a park")


def test_a_preview_outdated_by_another_phone_comes_back_worked_out_again(
        phone: Page, browser: Browser, browser_context_args: dict[str, Any],
        live_database: Path) -> None:
    """The yard: while Tobi's park (#1) is being changed into Nina's, another phone records
    Paul's museum. Confirm is refused, and the preview comes back worked out on the table as
    it is now, its reason as typed: Confirm again records it (it was all gone)."""
    players = ("Tobi", "Nina", "Paul")
    log = (buy("Tobi", "park"), buy("Nina", "museum"), buy("Paul", "park"))
    table_id = seed(live_database, "yard", players, log)
    taps, mode = to_the_change(phone, "yard", table_id, 1)
    taps.tap(building_button(phone, "Nina", "park"), "Nina: park")
    phone.get_by_label("What for (optional)").fill("Nina paid")
    other = browser.new_context(**browser_context_args)
    try:
        second = other.new_page()
        second.goto(f"/yard/{table_id}/")
        Taps(second).tap(building_button(second, "Tobi", "museum"), "Tobi: museum")
    finally:
        other.close()
    taps.tap(phone.get_by_role("button", name="Confirm the change"), "Confirm")
    said = ("The table changed since this preview was made (Tobi bought a museum), so the "
            "change was not recorded.")
    expect(phone.get_by_text(said).first).to_be_in_viewport()
    # Found at a table: the words came at the foot of the preview, a screen below its Confirm.
    refusal = phone.get_by_text(said).first.bounding_box()
    confirm = phone.get_by_role("button", name="Confirm the change").bounding_box()
    assert refusal is not None and confirm is not None and refusal["y"] < confirm["y"]
    expect(phone.locator(".change-preview")).to_contain_text("Worked out again")
    expect(phone.get_by_label("What for (optional)")).to_have_value("Nina paid")
    screenshot(phone, f"yard-preview-again-{mode}")
    taps.tap(phone.get_by_role("button", name="Confirm the change"), "Confirm again")
    expect(phone).to_have_url(re.compile(f"/yard/{table_id}/(#[a-z][a-z0-9_-]*)?$"))
    phone.goto(f"/yard/{table_id}/history")
    expect(phone.locator("ol.history")).to_contain_text("Nina paid")


def test_the_action_tapped_again_as_it_was_changes_nothing(phone: Page,
                                                          live_database: Path) -> None:
    """The yard: Tobi's park (#1) tapped again as it was recorded. The answer says that nothing
    changes, in view, with no Confirm: Enter it again goes back to the table before #1, and
    nothing is recorded (ruling: such a change is not recorded)."""
    players = ("Tobi", "Nina", "Paul")
    log = (buy("Tobi", "park"), buy("Nina", "museum"), buy("Paul", "park"))
    table_id = seed(live_database, "yard", players, log)
    taps, mode = to_the_change(phone, "yard", table_id, 1)
    taps.tap(building_button(phone, "Tobi", "park"), "Tobi: park, as it was")
    expect(phone.locator(".change-preview h1")).to_have_text("Nothing changes")
    expect(phone.locator(".change-preview h1")).to_be_in_viewport()
    expect(phone.locator(".change-preview p").first).to_have_text(
        "#1 is entered as it was recorded: Tobi bought a park. Tap what should have happened "
        "instead, or cancel.")
    expect(phone.get_by_role("button", name="Confirm the change")).to_have_count(0)
    screenshot(phone, f"yard-nothing-changes-{mode}")
    taps.tap(phone.get_by_role("link", name="Enter it again"), "Enter it again")
    expect(phone.get_by_role("heading", name=re.compile("^Changing #1: "))).to_be_visible()
    db = storage.connect(str(live_database))
    try:
        assert len(storage.events(db, table_id)) == len(log)
    finally:
        db.close()


def test_a_card_bought_from_the_wrong_deck(phone: Page, live_database: Path) -> None:
    """The street: Mia's card (#2) came from her own deck, not Ola's; three actions came after.
    The builder shows where the card came from as it was recorded, and the card first among
    those seen before: one chip and its site change it.
    Ola's upcoins (#3) then no longer lie on her deck: the preview says it is taken out."""
    players = ("Mia", "Ola")
    log = (build("Mia", 1, card()), bought("Mia", 1, card(), "Ola", 2),
           ("upcoins", {"player": "Ola"}), *takes_public("Ola"))
    table_id = seed(live_database, "street", players, log)
    taps, mode = to_the_change(phone, "street", table_id, 2)
    sources = phone.locator("fieldset.sources")
    expect(sources.locator('input[value="Ola"]')).to_be_checked()  # as it was recorded
    expect(phone.locator('input[name="cost"]')).to_have_value("2")
    screenshot(phone, f"street-changing-{mode}")
    taps.touch(sources.locator("label.chip", has_text="From own deck"), "own deck")
    recorded = phone.locator(".known-cards .known").first  # the card as recorded, first
    taps.tap(recorded.get_by_role("button", name="Site 1", exact=True), "site 1")
    expect(phone.locator(".change-preview .dropped")).to_contain_text("Ola")
    confirmed(phone, taps, f"street: a card's deck three actions back ({mode})", live_database,
              "street", players, table_id)
    db = storage.connect(str(live_database))
    try:
        now = storage.events(db, table_id)[-1].payload["edits"][0]["now"]["payload"]
    finally:
        db.close()
    assert (now["bought_from"], now["cost"]) == ("Mia", 2)


def test_an_auction_won_by_the_other_player(phone: Page, live_database: Path) -> None:
    """5th Avenue: the third auction (#23) was Ben's, not Ann's; six actions came after it."""
    players, log = FIFTH_AVENUE
    table_id = seed(live_database, "fifth_avenue", tuple(players), tuple(log[:29]))
    taps, mode = to_the_change(phone, "fifth_avenue", table_id, 23)
    taps.tap(phone.locator(".chips a", has_text="Ben,").first, "Ben's bid")
    taps.tap(phone.get_by_role("button", name="Built 1", exact=True), "Built 1")
    expect(phone.locator(".change-preview h1")).to_contain_text("Ben")
    confirmed(phone, taps, f"5th Avenue: an auction winner six actions back ({mode})",
              live_database, "fifth_avenue", tuple(players), table_id)


def test_work_orders_of_another_colour(phone: Page, live_database: Path) -> None:
    """Urbanisation: Ann's work orders (#13) were orange, not white; five actions came after."""
    players, log = URBANISATION
    table_id = seed(live_database, "urbanisation", tuple(players), tuple(log[:18]))
    taps, mode = to_the_change(phone, "urbanisation", table_id, 13)
    taps.tap(phone.locator('button[name="offer"][value^="work_orders.orange."]').first,
             "orange work orders")
    expect(phone.locator(".change-preview h1")).to_contain_text("orange")
    confirmed(phone, taps, f"Urbanisation: a work orders colour five actions back ({mode})",
              live_database, "urbanisation", tuple(players), table_id)
