"""5th Avenue in fewer taps than paper (issue 15), counted in a real browser at phone size.

What each count covers, as `Taps` counts it (a tap, a key press, a choice: one each):

- The set-up for 2 players with Alea: from the new table's page (made on the home page) to the
  first turn: the board's colours (the printed board, one tap), the starting businesses and the
  supply row (drawn by the app, one tap; the table lays the tiles out as shown), who places
  first, and the four initial skyscrapers (a tap on a plot each). Target: at most 12.
- The auctions: from the first auction's page to the game going on, a full set of four (three
  districts and Central Park) with Alea: Alea's cards drawn (one tap each), then who won (a
  chip with the player and plot colour) and what was built (a button), or "Alea won". Target: at
  most 3 for one auction, at most 12 for the set. The moves that bring the commissioner round
  are turns, not auctions, and are not counted.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from companion.rules.fifth_avenue_table import DISTRICT_IDS
from tests.browser.helpers import start_table, tap_and_load
from tests.browser.states import seed
from tests.browser.taps import Taps
from tests.tables import FIFTH_AVENUE

Shot = Callable[[Page, str], Any]
SHOTS = Path("/tmp/fifth_avenue-shots")


def keep_shot(shot: Shot, page: Page, name: str) -> None:
    """The shared screenshot (which checks for sideways scrolling), copied for review, and the
    screen as the thumb sees it (`-screen`); the page is left scrolled as it was."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-screen.png"))
    at = page.evaluate("scrollY")
    shutil.copy(shot(page, name), SHOTS / f"{name}.png")
    page.evaluate("y => scrollTo(0, y)", at)


def district(page: Page, name: str) -> Locator:
    return page.locator(f'section.district[aria-label="{name}"]')


def empty_plot(page: Page, name: str) -> Locator:
    """The first plot of a district a skyscraper may go on now (the drawn business stands on
    one of the others)."""
    return district(page, name).locator("button.plot", has_text="empty").first


def owners_plot(page: Page, name: str, owner: str) -> Locator:
    return district(page, name).locator(".plot", has_text=f"{owner} ×")


def no_refusal(page: Page) -> None:
    expect(page.locator(".error, .refusal")).to_have_count(0)


def the_board(page: Page, taps: Taps) -> None:
    """The board's colours in one tap: the saved board on a phone that saved one; on a new
    phone the printed board, its colours shown on the page to compare (issue 42: 36 taps)."""
    saved = page.get_by_role("button", name="Use the saved board")
    if saved.count():
        taps.tap(saved)
        return
    taps.tap(page.get_by_role("button", name="Our board has the colours shown below"),
             "the printed board")
    expect(page.get_by_role("button", name="Draw the set-up for us")).to_be_visible()


def set_up(page: Page, taps: Taps, shot: Shot | None = None) -> None:
    """The board, the drawn tiles, Ann first, and Ann, Ben, Ben, Ann's initial skyscrapers in
    34th St West, 34th St East, Times Square and 42nd St West."""
    the_board(page, taps)
    if shot:
        keep_shot(shot, page, "fa-taps-01-draw")
    taps.tap(page.get_by_role("button", name="Draw the set-up for us"))
    no_refusal(page)
    expect(page.locator("ol.supply-row li")).to_have_count(8)
    expect(page.locator("ol.supply-row .tile")).to_have_count(20)
    expect(page.locator(".districts .plot", has_text=re.compile(
        "boutique|jeweler|gallery|perfume"))).to_have_count(7)
    taps.tap(page.get_by_role("button", name="Ann", exact=True))
    expect(page.get_by_text("Ann places first and takes the first turn.")).to_be_visible()
    if shot:
        keep_shot(shot, page, "fa-taps-02-drawn-board")
    placing = Taps(page)
    for placer, name in (("Ann", "34th St West"), ("Ben", "34th St East"),
                         ("Ben", "Times Square"), ("Ann", "42nd St West")):
        expect(page.get_by_role("heading", name=f"{placer}: place a skyscraper")).to_be_visible()
        placing.tap(empty_plot(page, name), f"{placer}: {name}")
        expect(owners_plot(page, name, placer)).to_have_text(re.compile(f"{placer} ×1$"))
    expect(page.get_by_role("heading", name="Ann's turn")).to_be_visible()
    taps.count += placing.count
    taps.steps += placing.steps
    if shot:  # counted once, with the set-up's test
        placing.held_to("5th Avenue: the initial placement, 2 players (no scroll)", 4)


def move(page: Page, commissioner: str, to: str) -> None:
    label = f"{commissioner.capitalize()} back to City Hall: auctions!" if to == "City Hall" \
        else f"Move the {commissioner} commissioner to {to}"
    tap_and_load(page, page.get_by_role("button", name=label, exact=True))
    no_refusal(page)


def auction(page: Page, taps: Taps, place: str, chip: str | None, built: str,
            offered: list[str] | None = None) -> int:
    """One auction with Alea, its taps counted on their own: Alea's draw, then the chip of the
    winning bid and what was built (`offered`: the buttons the chip shows), or "Alea won" (chip
    None)."""
    before = taps.count
    expect(page.locator("#auction h2")).to_have_text(f"Auction: {place}")
    taps.tap(page.get_by_role("button", name="Draw Alea's cards"))
    # Alea's bid decides what comes next: the answer brings it into view (issue 23)
    expect(page.locator("#auction p", has_text=re.compile(r"^Alea's cards: .* = \d+\.$")))\
        .to_be_in_viewport()
    if chip is None:
        taps.tap(page.get_by_role("button", name=re.compile("^Alea won: Alea builds ")))
    else:
        taps.tap(page.locator(".chips a", has_text=chip).first)
        expect(page.locator(".chips a.chosen")).to_have_count(1)
        if offered:
            expect(page.locator("fieldset.builds button")).to_have_text(offered)
        taps.tap(page.get_by_role("button", name=built, exact=True))
    no_refusal(page)
    return taps.count - before


def test_set_up_for_two_players_with_alea_takes_at_most_12_taps(page: Page, shot: Shot) -> None:
    start_table(page, ["Ann", "Ben"], "fifth_avenue")
    taps = Taps(page)
    set_up(page, taps, shot)
    keep_shot(shot, page, "fa-taps-03-first-turn")
    # The printed board confirmed (issue 42: one tap, as "Use the saved board" on a phone that
    # saved one), draw, first placer, four plots.
    assert taps.count == 7, str(taps)
    taps.held_to("5th Avenue: set-up, 2 players with Alea", 12)


def test_a_full_set_of_auctions_with_alea_takes_at_most_12_taps(page: Page, shot: Shot) -> None:
    start_table(page, ["Ann", "Ben"], "fifth_avenue")
    set_up(page, Taps(page))
    # Ann (option C: two moves), Ben (C), then Ann's C brings the white commissioner back.
    for to in ("34th St West", "Times Square"):
        move(page, "white", to)
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()
    for to in ("52nd St West", "Central Park"):
        move(page, "white", to)
    expect(page.get_by_role("heading", name="Ann's turn")).to_be_visible()
    move(page, "white", "City Hall")

    taps = Taps(page)
    keep_shot(shot, page, "fa-taps-04-auction-draw")
    # 34th St West: Ann, with her skyscraper there, may bid only its colour: one chip.
    expect(page.locator("#auction h2")).to_have_text("Auction: 34th St West")
    taps.tap(page.get_by_role("button", name="Draw Alea's cards"))
    expect(page.locator(".chips a", has_text="Ann,")).to_have_count(1)
    taps.tap(page.locator(".chips a", has_text="Ann,"))
    taps.tap(page.get_by_role("button", name="Built 2", exact=True))
    counts = [3]
    expect(owners_plot(page, "34th St West", "Ann")).to_have_text(re.compile("Ann ×3$"))
    counts.append(auction(page, taps, "Times Square", None, ""))
    expect(owners_plot(page, "Times Square", "Alea").first).to_be_visible()
    # 52nd St West: Ben's bid for one of the plots; the chip chosen shows the buttons.
    expect(page.locator("#auction h2")).to_have_text("Auction: 52nd St West")
    taps.tap(page.get_by_role("button", name="Draw Alea's cards"))
    taps.tap(page.locator(".chips a", has_text="Ben,").first)
    keep_shot(shot, page, "fa-taps-05-auction-chosen")
    taps.tap(page.get_by_role("button", name="Built 1", exact=True))
    counts.append(3)
    expect(owners_plot(page, "52nd St West", "Ben")).to_have_text(re.compile("Ben ×1$"))
    # Central Park: Ann built 2 of her 3 in 34th St West, so 1 is the most offered to her.
    counts.append(auction(page, taps, "Central Park", "Ann", "Built 1",
                          offered=["Built 1", "Built none"]))
    expect(page.locator("section.park")).to_contain_text("Skyscrapers: Ann 1, Ben 0.")
    assert taps.count == sum(counts) == 11, str(taps)
    most = Taps(page, max(counts), [f"the four auctions took {counts}"])
    most.held_to("5th Avenue: one auction with Alea (the most of a set)", 3)
    taps.held_to("5th Avenue: a full set of auctions with Alea (4)", 12)

    # The game goes on with Ann's turn: her 1st action (C) is done, her 3rd is a second move.
    expect(page.get_by_role("heading", name="Ann's turn")).to_be_visible()
    expect(page.locator("#turn")).to_contain_text("3rd action: move a commissioner again.")
    expect(page.get_by_role("button", name=re.compile("^A: "))).to_have_count(0)
    keep_shot(shot, page, "fa-taps-06-after-auctions")


def test_a_turn_scores_one_district_and_offers_the_move_next(page: Page, shot: Shot) -> None:
    start_table(page, ["Ann", "Ben"], "fifth_avenue")
    set_up(page, Taps(page))
    # Ann's option A: skyscrapers taken (one tap), then her move ends the turn.
    tap_and_load(page, page.get_by_role("button", name="A: Ann takes 3 skyscrapers"))
    no_refusal(page)
    move(page, "beige", "34th St East")
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()
    # Ben scores 34th St East (option D), where his initial skyscraper stands.
    tap_and_load(page, page.get_by_role("button", name="Score 34th St East"))
    no_refusal(page)
    expect(page.locator("details.scoring summary").first).to_contain_text(
        "34th St East scored by Ben")
    # Scored once: no second scoring is offered; the 2nd and 3rd actions come first.
    expect(page.get_by_role("button", name=re.compile("^Score "))).to_have_count(0)
    expect(page.locator("#turn")).to_contain_text("2nd action: take 2 black cards. 3rd action")
    expect(page.locator("#turn h3").first).to_have_text("Move a commissioner")
    keep_shot(shot, page, "fa-taps-07-after-scoring")
    move(page, "beige", "Times Square")
    expect(page.get_by_role("heading", name="Ann's turn")).to_be_visible()


def test_entering_the_tiles_the_table_drew_takes_at_most_34_taps(page: Page, shot: Shot) -> None:
    """Issue 26: the table drew its own tiles. Each district's business is one choice of plot
    and kind (7; plot and kind were 14), each of the 20 row tiles one tap, the fold-out opened
    and the set-up confirmed, and the scrolls down the form: at most 34 (it was 41-58)."""
    start_table(page, ["Ann", "Ben"], "fifth_avenue")
    the_board(page, Taps(page))
    taps = Taps(page)
    taps.touch(page.get_by_text("… or enter the tiles you drew yourselves"), "our own draw")
    # A box's worth of tiles: 9 of each kind (the starting businesses and the row hold 7 of
    # each at most here; 52nd St East's is a gallery).
    kinds = ("boutique", "jeweler", "gallery", "perfume")
    for k, key in enumerate(DISTRICT_IDS):
        taps.choose(page.locator(f'select[name="start_{key}"]'), f"1:{kinds[k % 4]}")
    tiles = page.locator("fieldset.row-tile")
    for k in range(20):
        taps.touch(tiles.nth(k).get_by_role("radio").nth(k % 4), f"row tile {k + 1}")
    keep_shot(shot, page, "fa-taps-10-own-draw")
    taps.tap(page.get_by_role("button", name="Start placing skyscrapers"), "start")
    no_refusal(page)
    expect(page.get_by_role("heading", name="Who places the first skyscraper?")).to_be_visible()
    expect(district(page, "52nd St East").locator(".plot", has_text="gallery")).to_have_count(1)
    taps.held_to("5th Avenue: the tiles the table drew entered", 34)


def any_move(page: Page) -> Locator:
    """The first commissioner move the turn offers."""
    return page.locator("#turn .links button").first


def test_a_typical_turn_takes_at_most_3_taps_without_a_scroll(page: Page, shot: Shot) -> None:
    """Issue 26: the turn's controls (A, the scoring, the tiles, the plots and the moves) in one
    screen. Four turns, each counted on its own: Ann's A and a move, Ben's D (34th St East,
    where his skyscraper stands) and a move, Ann's B (a business far down the board, in 52nd St
    East) and a move, Ben's C (two moves)."""
    start_table(page, ["Ann", "Ben"], "fifth_avenue")
    set_up(page, Taps(page))
    counts = []

    def turn(name: str, player: str) -> Taps:
        expect(page.get_by_role("heading", name=f"{player}'s turn")).to_be_visible()
        return Taps(page, 0, [name])

    taps = turn("A and a move", "Ann")
    taps.tap(page.get_by_role("button", name="A: Ann takes 3 skyscrapers"), "A")
    keep_shot(shot, page, "fa-taps-08-turn-move")
    taps.tap(page.get_by_role("button", name="Move the beige commissioner to 34th St East",
                              exact=True), "beige to 34th St East")
    counts.append(taps)
    taps = turn("D and a move", "Ben")
    taps.tap(page.get_by_role("button", name="Score 34th St East"), "D: 34th St East")
    taps.tap(any_move(page), "a move")
    counts.append(taps)
    taps = turn("B and a move", "Ann")
    keep_shot(shot, page, "fa-taps-09-turn-business")
    taps.tap(empty_plot(page, "52nd St East"), "B: a business in 52nd St East")
    no_refusal(page)
    expect(district(page, "52nd St East").locator(".plot", has_text=re.compile(
        "boutique|jeweler|gallery|perfume"))).to_have_count(2)
    taps.tap(any_move(page), "a move")
    counts.append(taps)
    taps = turn("C: two moves", "Ben")
    taps.tap(any_move(page), "a move")
    taps.tap(any_move(page), "a move again")
    counts.append(taps)
    expect(page.get_by_role("heading", name="Ann's turn")).to_be_visible()
    most = max(counts, key=lambda t: t.count)
    for t in counts:
        assert t.count <= 3 and not any(step.startswith("scroll") for step in t.steps), str(t)
    most.held_to("5th Avenue: a typical turn (the most of A, B, C, D; no scroll)", 3)


def test_the_new_screens_fit_the_phone_in_german(page: Page, shot: Shot) -> None:
    start_table(page, ["Annegret", "Bartholomäus"], "fifth_avenue")
    taps = Taps(page)
    the_board(page, taps)
    table = page.url
    page.goto(f"/language/de?next={table.split('127.0.0.1')[1].split('/', 1)[1]}")
    page.goto(table)
    expect(page.get_by_role("button", name="Zieh den Spielaufbau für uns")).to_be_visible()
    keep_shot(shot, page, "fa-taps-de-01-draw")
    taps.tap(page.get_by_role("button", name="Zieh den Spielaufbau für uns"))
    taps.tap(page.get_by_role("button", name="Annegret", exact=True))
    keep_shot(shot, page, "fa-taps-de-02-row")
    for name in ("34th St West", "34th St East", "Times Square", "42nd St West"):
        taps.tap(district(page, name).locator("button.plot", has_text="leer").first)
    expect(page.get_by_role("heading", name="Annegret ist dran")).to_be_visible()
    expect(page.get_by_role("button", name="A: Annegret nimmt 3 Hochhäuser")).to_be_visible()
    keep_shot(shot, page, "fa-taps-de-04-turn")
    for to in ("34th St West", "Times Square", "52nd St West", "Central Park", "City Hall"):
        label = f"weiße Kommission ziehen: {to}" if to != "City Hall" else \
            "Weiß zurück zum Startfeld: Versteigerungen!"
        tap_and_load(page, page.get_by_role("button", name=label, exact=True))
        no_refusal(page)
    taps.tap(page.get_by_role("button", name="Aleas Karten ziehen"))
    taps.tap(page.locator(".chips a", has_text="Annegret,"))
    expect(page.get_by_role("button", name="3 gebaut", exact=True)).to_be_visible()
    keep_shot(shot, page, "fa-taps-de-03-auction")
    taps.tap(page.get_by_role("button", name="Nichts gebaut", exact=True))
    expect(page.locator("#auction h2")).to_have_text("Versteigerung: Times Square")


@pytest.mark.parametrize("where", ["mid-screen", "at the screen's foot", "changing the auction"])
def test_a_bid_chip_tapped_stays_under_the_thumb_and_shows_what_was_built(
        page: Page, live_database: Path, where: str) -> None:
    """A bid chip is a link: followed, the page stood at its #auction, the chips 36 px away
    from where they were tapped, or, while the auction was being changed (the page opened at
    "Who won?"), 270 px away (found playing). Answered in place, the chip tapped stays where the
    thumb is, and is the one chosen; and the "Built N" buttons it answers with are in view. A
    chip at the screen's foot: the page moves up as far as they need, and a tap where the chip
    was is held for a second (`tap_and_load` checks it: "Built none" came there, found
    playing)."""
    players, log = FIFTH_AVENUE
    changing = where == "changing the auction"
    table_id = seed(live_database, "fifth_avenue", tuple(players),
                    tuple(log[:29] if changing else log[:22]))
    page.goto(f"/fifth_avenue/{table_id}/" + ("?change=23#as-recorded" if changing else ""))
    chip = page.locator(".chips a", has_text="Ben, gray")
    foot = page.evaluate("document.querySelector('.score-strip').getBoundingClientRect().top")
    if where == "mid-screen":
        chip.evaluate("e => e.scrollIntoView({block: 'center'})")
    elif where == "at the screen's foot":
        chip.evaluate("(e, foot) => scrollBy(0, e.getBoundingClientRect().bottom - foot + 4)",
                      foot)
    before = chip.bounding_box()
    tap_and_load(page, chip)
    expect(page.locator(".chips a.chosen")).to_have_text("Ben, gray")
    after = page.locator(".chips a", has_text="Ben, gray").bounding_box()
    builds = page.locator("fieldset.builds").bounding_box()
    assert before and after and builds
    assert builds["y"] >= 0 and builds["y"] + builds["height"] <= foot + 1, (builds, foot)
    if where == "at the screen's foot":  # moved up just enough: the buttons' foot at the strip
        assert abs(builds["y"] + builds["height"] - foot) < 2, (builds, foot)
    else:
        assert abs(after["y"] - before["y"]) < 1, (before, after)
