"""Whole construction-yard games played by tapping in a real browser at phone size.

Every expected score below is worked out by hand from the reference card (1st/2nd/3rd rank):
museum A 1, B 8/1, C 16/8/1; theater 2, 9/2, 17/9/2; station 3, 10/3, 18/10/3;
church 4, 11/4, 19/11/4; park 5, 12/5, 20/12/5; skyscraper 6, 13/6, 21/13/6.
Tied players occupy consecutive ranks and split those ranks' points, rounded down.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.browser.helpers import (
    building_button,
    buy,
    buyer,
    give_out,
    linked_pdf_text,
    squash,
    start_table,
    tap_and_load,
)
from tests.browser.states import record
from tests.yard_moves import buys

Shot = Callable[[Page, str], Any]
TABLE_URL = re.compile(r"/yard/[^/]+/$")
DIRK_LABELS = {
    "museum": "Museums",
    "theater": "Theaters",
    "station": "Stations",
    "church": "Churches",
    "park": "Parks",
    "skyscraper": "Skyscrapers",
}


# Helpers ------------------------------------------------------------------------------------


def undo_redo(page: Page) -> Locator:
    """The Undo / Redo / History / Share row under the title."""
    return page.get_by_role("navigation", name="Undo and redo")


def last_purchase(page: Page, player: str, building: str, left: list[str]) -> None:
    """The purchase after which the display cannot be refilled: only the buyer may still buy
    (after paying exactly), and only the cards `left` on display."""
    tap_and_load(page, building_button(page, player, building))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(page.get_by_text(f"Last: {player} bought a {building}")).to_be_visible()
    expect(page.get_by_role("heading", name="Still buying, after paying exactly")).to_be_visible()
    expect(page.locator(".buyer h3")).to_have_text([player])
    expect(buyer(page, player).locator("form.buildings:not(.gift) button:enabled")).to_have_count(
        len(left))
    for name in left:
        expect(building_button(page, player, name)).to_be_visible()
    expect(page.locator(".strip-next")).to_have_text(
        f"The display cannot be refilled: {player} may still buy after paying exactly; then "
        "comes the final scoring.")


def score(page: Page, scoring: str) -> None:
    tap_and_load(page, page.get_by_role("button", name=f"Scoring {scoring} card drawn: score now"))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(page.locator("details.scoring summary").first).to_contain_text(f"Scoring {scoring}:")


def deal_dirk(page: Page, cards: dict[str, int]) -> None:
    """Fill the "Deal Dirk N cards" form (labels Museums ... Skyscrapers) and submit it."""
    total = sum(cards.values())
    expect(page.get_by_role("heading", name=f"Deal Dirk {total} cards")).to_be_visible()
    for building, count in cards.items():
        page.get_by_label(DIRK_LABELS[building], exact=True).fill(str(count))
    tap_and_load(page, page.get_by_role("button", name=f"Dirk got these {total}"))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(page.get_by_role("heading", name=re.compile("^Deal Dirk"))).to_have_count(0)


def scoring_summary(page: Page, scoring: str) -> Locator:
    return page.locator("details.scoring summary", has_text=f"Scoring {scoring}:")


def scoring_details(page: Page, scoring: str) -> Locator:
    summary = page.locator("summary", has_text=f"Scoring {scoring}:")
    return page.locator("details.scoring", has=summary)


def ranking_lines(page: Page) -> list[str]:
    return [" ".join(t.split()) for t in page.locator("ol.ranking li").all_inner_texts()]


def pdf_text(page: Page) -> str:
    return linked_pdf_text(page, "Score sheet (PDF, A4)")


# (a) A four-player game, home page to printed sheet ------------------------------------------


def test_four_player_game_to_the_score_sheet(page: Page, shot: Shot,
                                              live_database: Path) -> None:
    page.goto("/")
    shot(page, "01-home")
    start_table(page, ["Anna", "Ben", "Cleo", "Dan"])
    expect(page.get_by_role("heading", name="Construction yard card game")).to_be_visible()
    expect(page.get_by_text("50 building cards left in the deck.")).to_be_visible()
    # Four players: no Dirk, so no "for Dirk" buttons and no deal form.
    expect(page.get_by_role("button", name=re.compile("for Dirk"))).to_have_count(0)

    # Until scoring A: Anna 2 skyscrapers, Ben 1 skyscraper + 1 park, Cleo and Dan 1 museum each.
    buy(page, "Anna", "skyscraper", 2)
    buy(page, "Ben", "skyscraper")
    buy(page, "Ben", "park")
    buy(page, "Cleo", "museum")
    buy(page, "Dan", "museum")
    expect(page.get_by_text("44 building cards left in the deck.")).to_be_visible()
    expect(page.locator("tr.lead td", has_text="Cleo and Dan tie at 1")).to_be_visible()
    shot(page, "02-table-mid-game")

    # Scoring A pays 1st only. Museum: Cleo and Dan tie for 1st-2nd, 1 + 0 = 1, 0 each;
    # park: Ben 5; skyscraper: Anna 6 (Ben is 2nd, which pays nothing in A).
    score(page, "A")
    expect(scoring_summary(page, "A")).to_have_text("Scoring A: Anna 6, Ben 5, Cleo 0, Dan 0")
    splits_a = scoring_details(page, "A").locator("ul.splits li")
    expect(
        splits_a.filter(has_text="Cleo and Dan tie for 1st-2nd with 1 museum: 1 + 0 = 1, 0 each")
    ).to_have_count(1)
    expect(splits_a.filter(has_text="Anna is 1st with 2 skyscrapers: 6")).to_have_count(1)
    shot(page, "03-after-scoring-a")

    # Between A and B: Ben ties Anna on skyscrapers, Cleo a church, Dan a theater, Anna a
    # station (undone once, then redone).
    buy(page, "Ben", "skyscraper")
    buy(page, "Cleo", "church")
    buy(page, "Dan", "theater")
    buy(page, "Anna", "station")
    expect(page.get_by_text("Last: Anna bought a station")).to_be_visible()
    tap_and_load(page, undo_redo(page).get_by_role("button", name="Undo"))
    expect(building_button(page, "Anna", "station")).to_have_text("Station 0")
    expect(page.locator("#recorded")).to_contain_text("Undone: Anna bought a station")
    redo = undo_redo(page).get_by_role("button", name="Redo")
    expect(redo).to_have_attribute("title", "Anna bought a station")
    tap_and_load(page, redo)
    expect(building_button(page, "Anna", "station")).to_have_text("Station 1")
    expect(page.locator("#recorded")).to_contain_text("Anna bought a station")
    expect(undo_redo(page).get_by_role("button", name="Redo")).to_be_disabled()

    # The history page lists the purchase, its undo and its redo, newest first.
    page.get_by_role("link", name="History").tap()
    expect(page.get_by_role("heading", name="History")).to_be_visible()
    entries = [squash(t).removeprefix("Change ")  # each row's Change link stands first
               for t in page.locator("ol.history li").all_inner_texts()]
    assert entries[0].startswith("#13 Redo: Anna bought a station"), entries
    assert entries[1].startswith("#12 Undo: Anna bought a station"), entries
    assert entries[2].startswith("#11 Anna bought a station"), entries
    assert "(undone)" not in entries[2]
    assert any(e.startswith("#7 Scoring A") for e in entries), entries
    assert entries[-1].startswith("#1 Anna bought a skyscraper"), entries
    assert len(entries) == 13
    shot(page, "04-history")
    page.get_by_role("link", name="Back to the table").tap()
    expect(page).to_have_url(TABLE_URL)
    page.wait_for_load_state()  # the URL commits before the page is parsed and its scripts run

    # Scoring B: museum Cleo/Dan tie for 1st-2nd 8 + 1 = 9, 4 each; theater Dan 9; station Anna
    # 10; church Cleo 11; park Ben 12; skyscraper Anna/Ben tie for 1st-2nd 13 + 6 = 19, 9 each.
    score(page, "B")
    expect(scoring_summary(page, "B")).to_have_text("Scoring B: Anna 19, Ben 21, Cleo 15, Dan 13")
    splits_b = scoring_details(page, "B").locator("ul.splits li")
    expect(
        splits_b.filter(
            has_text="Anna and Ben tie for 1st-2nd with 2 skyscrapers: 13 + 6 = 19, 9 each"
        )
    ).to_have_count(1)
    expect(
        splits_b.filter(has_text="Cleo and Dan tie for 1st-2nd with 1 museum: 8 + 1 = 9, 4 each")
    ).to_have_count(1)
    # Standings so far: A + B.
    assert ranking_lines(page) == ["1. Ben 26", "2. Anna 25", "3. Cleo 15", "4. Dan 13"]
    shot(page, "05-after-scoring-b")

    # After B: Dan a skyscraper, Cleo a park.
    buy(page, "Dan", "skyscraper")
    buy(page, "Cleo", "park")

    # Not over yet: the deck still has cards. The rest of the game (38 purchases) is recorded
    # straight into the database; the last purchase is tapped.
    expect(page.locator("section.next")).to_contain_text("38 cards are still in the deck")
    expect(page.locator("#end")).to_have_count(0)
    record(live_database, page.url, ["Anna", "Ben", "Cleo", "Dan"], [
        *buys("Cleo", museum=4, church=8), *buys("Dan", theater=5, skyscraper=5),
        *buys("Anna", station=8), *buys("Ben", park=8)])
    page.reload()
    expect(page.locator("section.next")).to_contain_text("the display still holds 4 cards")
    last_purchase(page, "Dan", "skyscraper", ["museum", "theater", "park"])
    shot(page, "06a-only-the-last-buyer")

    # The end: the display cannot be refilled; the app knows the 3 cards left (a museum, a
    # theater and a park). The park lies on blue and goes to Ben; the museum on green stays
    # unsold (a tie); the theater on orange goes to Anna.
    expect(page.locator("#end legend")).to_have_text(["Museum", "Theater", "Park"])
    give_out(page, [("green", "tie or nobody"), ("orange", "Anna"), ("blue", "Ben")])
    shot(page, "06-end-form")
    tap_and_load(page, page.get_by_role("button", name="Give out the cards and score C"))
    expect(page.locator(".error, .refusal")).to_have_count(0)

    # Scoring C: museum Cleo (5) 16, Dan (1) 8; theater Dan (6) 17, Anna (1) 9; station Anna
    # (9) 18; church Cleo (9) 19; park Ben (10) 20, Cleo (1) 12; skyscraper Dan (7) 21, Anna and
    # Ben (2) tie for 2nd-3rd: 13 + 6 = 19, 9 each.  C: Anna 36, Ben 29, Cleo 47, Dan 46.
    expect(page.get_by_role("heading", name="Final result")).to_be_visible()
    expect(scoring_summary(page, "C")).to_have_text("Scoring C: Anna 36, Ben 29, Cleo 47, Dan 46")
    final = scoring_details(page, "C")
    expect(final.get_by_text("Park: Ben")).to_be_visible()
    expect(final.get_by_text("Museum: unsold (tie or no money)")).to_be_visible()
    expect(final.get_by_text("Theater: Anna")).to_be_visible()
    expect(
        final.locator("ul.splits li").filter(
            has_text="Anna and Ben tie for 2nd-3rd with 2 skyscrapers: 13 + 6 = 19, 9 each"
        )
    ).to_have_count(1)
    expect(
        final.locator("ul.splits li").filter(has_text="Dan is 1st with 7 skyscrapers: 21")
    ).to_have_count(1)
    # Totals A + B + C: Anna 6 + 19 + 36 = 61, Ben 5 + 21 + 29 = 55, Cleo 0 + 15 + 47 = 62,
    # Dan 0 + 13 + 46 = 59.
    assert ranking_lines(page) == ["1. Cleo 62 winner", "2. Anna 61", "3. Dan 59", "4. Ben 55"]
    expect(building_button(page, "Ben", "park")).to_have_count(0)  # no more purchases
    shot(page, "07-final-result")

    text = squash(pdf_text(page))
    for name in ("Anna", "Ben", "Cleo", "Dan"):
        assert name in text
    assert "Total 61 55 62 59" in text, text
    assert "1. Cleo (62), 2. Anna (61), 3. Dan (59), 4. Ben (55)" in text, text
    assert "Winner: Cleo" in text
    assert "13 + 6 = 19, 9 each" in text


# (b) Two players and Dirk ---------------------------------------------------------------------


def test_two_player_game_with_dirk(page: Page, shot: Shot, live_database: Path) -> None:
    start_table(page, ["Eva", "Finn"])
    expect(page.locator("p.players")).to_contain_text("Dirk")

    # Set-up: Dirk's 6 cards come first and block everything else.
    expect(page.get_by_role("button", name="Scoring A card drawn: score now")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile(r"^Museum \d+$"))).to_have_count(0)
    shot(page, "08-dirk-deal-setup")
    deal_dirk(page, {"skyscraper": 3, "park": 3})
    expect(page.get_by_text("44 building cards left in the deck.")).to_be_visible()

    buy(page, "Eva", "museum")
    buy(page, "Finn", "theater")
    gift = page.get_by_role("button", name="Finn buys a skyscraper for Dirk")
    tap_and_load(page, gift)
    expect(page.get_by_text("Last: Finn bought a skyscraper for Dirk")).to_be_visible()
    expect(building_button(page, "Finn", "skyscraper")).to_have_text("Skyscraper 0")
    expect(page.get_by_text("41 building cards left in the deck.")).to_be_visible()
    shot(page, "09-dirk-table")

    # A: museum Eva 1, theater Finn 2, park Dirk (3) 5, skyscraper Dirk (4) 6.
    score(page, "A")
    expect(scoring_summary(page, "A")).to_have_text("Scoring A: Eva 1, Finn 2, Dirk 11")
    # Right after A, Dirk gets 6 more, before anything else.
    expect(page.get_by_role("button", name=re.compile(r"^Museum \d+$"))).to_have_count(0)
    shot(page, "10-dirk-deal-after-a")
    deal_dirk(page, {"church": 3, "station": 3})
    expect(page.get_by_text("35 building cards left in the deck.")).to_be_visible()

    buy(page, "Eva", "museum")
    buy(page, "Finn", "station")
    # B: museum Eva (2) 8; theater Finn 9; station Dirk (3) 10, Finn (1) 3; church Dirk 11;
    # park Dirk 12; skyscraper Dirk 13.
    score(page, "B")
    expect(scoring_summary(page, "B")).to_have_text("Scoring B: Eva 8, Finn 12, Dirk 46")

    # After B: a third of the 33 cards left, rounded down: 11.
    expect(page.get_by_text("a third of the 33 cards left in the deck")).to_be_visible()
    shot(page, "11-dirk-deal-after-b")
    deal_dirk(page, {"park": 5, "skyscraper": 6})
    expect(page.locator("section.next")).to_contain_text("22 cards are still in the deck")
    expect(page.get_by_role("button", name="Scoring B card drawn: score now")).to_have_count(0)

    # The rest of the game (22 purchases) straight into the database; the last one tapped.
    record(live_database, page.url, ["Eva", "Finn"], [
        *buys("Eva", museum=4, church=5, park=3), *buys("Finn", theater=5, station=5)])
    page.reload()
    last_purchase(page, "Finn", "skyscraper", ["museum", "theater", "church"])

    # The end: a museum, a theater and a church are left. The museum on blue goes to Eva, the
    # theater on green stays unsold (a tie), the church on yellow goes to Finn; Dirk holds no
    # money, so he is not offered.
    expect(page.locator("#end legend")).to_have_text(["Museum", "Theater", "Church"])
    expect(page.locator("#end label.chip", has_text="Dirk")).to_have_count(0)
    give_out(page, [("blue", "Eva"), ("green", "tie or nobody"), ("yellow", "Finn")])
    shot(page, "12-dirk-end-form")
    tap_and_load(page, page.get_by_role("button", name="Give out the cards and score C"))

    # C: museum Eva (7) 16; theater Finn (6) 17; station Finn (6) 18, Dirk (3) 10; church Eva
    # (5) 19, Dirk (3) 11, Finn (1) 4; park Dirk (8) 20, Eva (3) 12; skyscraper Dirk (10) 21,
    # Finn (1) 13.  Totals: Eva 1 + 8 + 47 = 56, Finn 2 + 12 + 52 = 66,
    # Dirk 11 + 46 + 62 = 119: Dirk has the most, but Finn wins.
    expect(page.get_by_role("heading", name="Final result")).to_be_visible()
    expect(scoring_summary(page, "C")).to_have_text("Scoring C: Eva 47, Finn 52, Dirk 62")
    assert ranking_lines(page) == ["1. Finn 66 winner", "2. Eva 56"]
    expect(page.locator(".dirk-total")).to_have_text("Dirk: 119 points (Dirk cannot win).")
    expect(page.locator("ol.ranking")).not_to_contain_text("Dirk")
    shot(page, "13-dirk-final-result")

    text = squash(pdf_text(page))
    assert "Eva" in text and "Finn" in text and "Dirk" in text
    assert "Total 56 66 119" in text, text
    assert "Winner: Finn" in text
    assert "Dirk scored 119 but cannot win" in text


# (c) A stale screen is refused ----------------------------------------------------------------


def test_an_outdated_screen_is_refused(page: Page, context: BrowserContext, shot: Shot) -> None:
    url = start_table(page, ["Gus", "Hana", "Ivo"])
    other = context.new_page()
    other.set_default_timeout(10_000)
    other.goto(url)

    # The same tap from two phones: the second one is recognised as a repeat.
    buy(page, "Gus", "museum")
    tap_and_load(other, building_button(other, "Gus", "museum"))
    expect(other.get_by_role("alert")).to_contain_text("Just recorded: Gus bought a museum.")
    expect(building_button(other, "Gus", "museum")).to_have_text("Museum 1")
    shot(other, "14-error-just-recorded")

    # A tap for the same player and building on a screen someone else's taps made outdated
    # (another player's purchase, or the same player's of another building, would be recorded
    # after them: tests/browser/test_together.py).
    buy(page, "Hana", "park")
    buy(page, "Ivo", "park")
    tap_and_load(other, building_button(other, "Hana", "park"))
    alert = other.get_by_role("alert")
    expect(alert).to_contain_text("changed since")
    expect(alert).to_contain_text("Hana bought a park")
    expect(building_button(other, "Hana", "park")).to_have_text("Park 1")
    shot(other, "15-error-changed-since")

    page.reload()
    expect(building_button(page, "Gus", "museum")).to_have_text("Museum 1")
    expect(building_button(page, "Hana", "park")).to_have_text("Park 1")
    expect(building_button(page, "Ivo", "park")).to_have_text("Park 1")
    expect(page.get_by_text("47 building cards left in the deck.")).to_be_visible()
