"""A 2-player 5th Avenue game with Alea, played by tapping in a real browser at phone size.

The board is the saved (default) profile. A district's five plots form a ring (plot i touches
plots i-1 and i+1, mod 5); their colours in ring order (DEFAULT_PROFILE):

    34th St West   violet orange gray   brown  green
    34th St East   orange gray   brown  green  violet
    Times Square   gray   brown  green  violet orange
    42nd St West   brown  green  violet orange gray
    42nd St East   green  violet orange gray   brown
    52nd St West   violet orange gray   brown  green
    52nd St East   orange gray   brown  green  violet

A skyscraper is worth 1, 2, 3, 5, 8 VP for 0, 1, 2, 3, 4 different business types on its two
neighbouring plots. Every expected score below is worked out by hand from that table.

The game: Ann and Ben (and Alea). Ann places first, so the initial skyscrapers go Ann, Ben, Ben,
Ann. Each turn is entered as its 1st action (A: "takes 3 skyscrapers", B: a business, C: a move,
D: a score) and ends with its move. Round 1 (white: 34th St West, Times Square, 52nd St East,
Central Park, City Hall, brought back by Ben's move after his option A) gives auctions where
Alea's cards are typed and Alea builds, Ann builds, nobody bids, Ben builds in Central Park,
each from their supply (3 from the set-up, 3 more from an option A). The 3rd business then pays
Ann the special scoring. Round 2 (beige: 34th St East, Times Square, 52nd St West) scores 52nd
St West (option D), then after Ann's option A Ben declares a building stop in 34th St East and
Alea, winning the full 52nd St West, declares the second one: the game ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from playwright.sync_api import Locator, Page, expect

from companion.rules.fifth_avenue import alea_beats_chance
from companion.rules.fifth_avenue_table import DISTRICT_IDS
from tests.browser.helpers import (
    linked_pdf_text,
    squash,
    start_table,
    tap_and_load,
    wait_until_quiet,
)

Shot = Callable[[Page, str], Any]

# One starting business per district, all on the district's first plot: violet, orange, gray,
# brown, green, violet, orange, so every colour is used once or twice.
STARTING = {
    "34th St West": "boutique",
    "34th St East": "jeweler",
    "Times Square": "gallery",
    "42nd St West": "perfume",
    "42nd St East": "boutique",
    "52nd St West": "jeweler",
    "52nd St East": "gallery",
}
# The supply row in sets of 3, 2, 3, 2, ...: within each set the names differ where we pick.
ROW = [
    "perfume", "gallery", "boutique",  # set 1: place perfume, gallery; boutique drops below CP
    "jeweler", "gallery",  # set 2: place gallery (the 3rd business); jeweler drops
    "boutique", "perfume", "gallery",  # set 3: place boutique, perfume; gallery drops
    "jeweler", "boutique",
    "gallery", "jeweler", "perfume",
    "boutique", "perfume",
    "jeweler", "gallery", "boutique",
    "perfume", "jeweler",
]


# Helpers ------------------------------------------------------------------------------------


def act(page: Page, target: Locator) -> None:
    """Tap, wait for the new page and check the app did not refuse."""
    tap_and_load(page, target)
    expect(page.locator(".error, .refusal")).to_have_count(0)


def set_up_board(page: Page, shot: Shot | None = None) -> None:
    """Saved board, the seven starting businesses and the 20 tiles of the supply row."""
    # A new phone has no saved board (issue 26): the colours are checked once and saved.
    tap_and_load(page, page.get_by_role("link", name="Check or edit the board colours"))
    act(page, page.get_by_role("button", name="Save the board").first)
    expect(page.get_by_role("heading", name="2. Starting businesses and the supply row"))\
        .to_be_visible()
    # Our own draw, its fold-out where "Save the board" was tapped: opened once the answer is
    # seen (a tap there sooner is that tap's bounce, app.js's REACT_MS).
    own_draw = page.get_by_text("… or enter the tiles you drew yourselves")
    wait_until_quiet(page, own_draw)
    own_draw.click()
    for kind, key in zip(STARTING.values(), DISTRICT_IDS, strict=True):
        page.locator(f'select[name="start_{key}"]').select_option(f"0:{kind}")  # plot 1
    tiles = page.locator("fieldset.row-tile")
    expect(tiles).to_have_count(20)
    for k, kind in enumerate(ROW):
        tiles.nth(k).get_by_role("radio", name=kind, exact=True).check()
    if shot:
        shot(page, "fa-01-setup")
    act(page, page.get_by_role("button", name="Start placing skyscrapers"))
    expect(page.get_by_role("heading", name="Who places the first skyscraper?")).to_be_visible()


def district(page: Page, name: str) -> Locator:
    return page.locator(f'section.district[aria-label="{name}"]')


def plot_label(page: Page, name: str, colour: str) -> Locator:
    """What a plot shows: 'empty', 'perfume + gallery', 'Ann ×2' (tappable or not)."""
    return district(page, name).locator(f".plot.p-{colour} > span:not(.pc)")


def plot_button(page: Page, name: str, colour: str, shows: str = "empty") -> Locator:
    return page.get_by_role("button", name=f"{name}, {colour} plot: {shows}", exact=True)


def place_initial(page: Page, placer: str, name: str, colour: str) -> None:
    expect(page.get_by_role("heading", name=f"{placer}: place a skyscraper")).to_be_visible()
    act(page, plot_button(page, name, colour))
    expect(plot_label(page, name, colour)).to_have_text(f"{placer} ×1")


def place_business(page: Page, kind: str, name: str, colour: str, shows: str = "empty") -> None:
    page.locator("fieldset.tiles").get_by_role("radio", name=kind, exact=True).check()
    act(page, plot_button(page, name, colour, shows))
    after = kind if shows == "empty" else f"{shows} + {kind}"
    expect(plot_label(page, name, colour)).to_have_text(after)


def move(page: Page, commissioner: str, to: str) -> None:
    """Tap one of the commissioner's move buttons (each has its own row under its name)."""
    label = f"{commissioner.capitalize()} back to City Hall: auctions!" if to == "City Hall" \
        else f"Move the {commissioner} commissioner to {to}"
    act(page, page.get_by_role("button", name=label, exact=True))
    if to not in ("City Hall", "Central Park"):
        expect(district(page, to).locator(f".commissioner.c-{commissioner}")).to_be_visible()


def alea_chance(page: Page, high: int) -> Locator:
    """Enter the players' high bid, tap "Alea's chance"; returns the verdict paragraph (the
    high bid then stands in Alea's bid's form too)."""
    chance = page.locator("details.alea-chance")
    if not chance.evaluate("d => d.open"):
        wait_until_quiet(page, chance.locator("summary"))
        chance.locator("summary").click()
    page.get_by_label("Against a high bid of").fill(str(high))
    act(page, page.get_by_role("button", name="Alea's chance"))
    expect(page.get_by_label("High bid after your first bids (0 if both passed)")
           ).to_have_value(str(high))
    verdict = page.locator("p.verdict")
    expect(verdict).to_contain_text(f"Alea beats {high} with probability")
    return verdict


def shown_chance(verdict: Locator) -> tuple[str, str]:
    """The percentage and the exact fraction as the verdict shows them."""
    text = squash(verdict.inner_text())
    match = re.fullmatch(r"Alea beats \d+ with probability (\S+)% \((\S+)\)\.", text)
    assert match, text
    return match.group(1), match.group(2)


def record_auction(page: Page, winner: str, colour: str | None = None, build: int | None = None,
                   stop: bool = False, alea: str = "") -> None:
    """Alea's button, which says what Alea's win does (`alea`), or the chip of the winning bid
    ('Ann, brown'; 'Ben' in Central Park) and then what was built ('Built 2', 'Built none') or
    the building stop."""
    if winner == "Alea":
        won = page.get_by_role("button", name=re.compile("^Alea won"))
        expect(won).to_have_text(alea)
        act(page, won)
        return
    chip = f"{winner}, {colour}" if colour else winner
    act(page, page.locator(".chips a").filter(has_text=re.compile(f"^{chip}$")))
    expect(page.locator(".chips a.chosen")).to_have_text(chip)
    outcome = "Declare a building stop" if stop else f"Built {build}" if build else "Built none"
    if stop:  # the choices' heading says a stop is one of them
        expect(page.locator("fieldset.builds legend")).to_contain_text("a building stop")
    act(page, page.get_by_role("button", name=outcome, exact=True))


def alea_out(page: Page, high: int) -> None:
    """Alea's flipped 4 4 = 8 against the players' higher bid: Alea is out."""
    alea_chance(page, high)
    flipped(page).fill("4 4")
    act(page, page.get_by_role("button", name="Use these cards"))
    expect(alea_line(page)).to_contain_text(f"= 8 against {high}: Alea is out.")


def flipped(page: Page) -> Locator:
    """The field of the black cards flipped for Alea, its fold-out opened."""
    more = page.locator("details.alea-more")
    if not more.evaluate("d => d.open"):
        more.locator("summary").click()
    return page.get_by_label(re.compile("the black cards you flipped"))


def alea_line(page: Page) -> Locator:
    """"Alea's cards: 4 + 6 + 5 + 4 = 19 against 12: Alea is in." once Alea's bid is entered."""
    return page.locator("#auction p").filter(has_text=re.compile("^Alea's cards:"))


def auction_heading(page: Page) -> Locator:
    return page.locator("#auction h2")


def scoring(page: Page, label: str) -> Locator:
    """The <details> of one scoring event, by the start of its summary."""
    return page.locator("details.scoring").filter(
        has=page.locator("summary", has_text=re.compile("^" + re.escape(label))))


def scoring_lines(page: Page, label: str) -> list[str]:
    return [squash(t) for t in scoring(page, label).locator("ul.splits li").all_text_contents()]


def ranking_lines(page: Page) -> list[str]:
    return [squash(t) for t in page.locator("ol.ranking").first.locator("li").all_inner_texts()]


def pdf_text(page: Page) -> str:
    return linked_pdf_text(page, "Score sheet (PDF, A4)")


def first_two_skyscrapers(page: Page) -> None:
    """Ann places first, then to the right (Ben), and back: Ann, Ben, Ben, Ann. Both build in
    52nd St West and 34th St East, the two districts that will be filled for building stops."""
    act(page, page.get_by_role("button", name="Ann", exact=True))
    expect(page.get_by_text("Order: Ann, Ben, Ben, Ann.")).to_be_visible()
    place_initial(page, "Ann", "52nd St West", "orange")  # plot 2
    place_initial(page, "Ben", "52nd St West", "brown")  # plot 4


def last_two_skyscrapers(page: Page) -> None:
    place_initial(page, "Ben", "34th St East", "green")  # plot 4
    place_initial(page, "Ann", "34th St East", "gray")  # plot 2
    expect(page.get_by_role("heading", name="Ann's turn")).to_be_visible()


# The whole game -------------------------------------------------------------------------------


def test_two_players_and_alea_from_home_page_to_score_sheet(page: Page, shot: Shot) -> None:
    start_table(page, ["Ann", "Ben"], "fifth_avenue")
    expect(page.get_by_role("heading", name="5th Avenue", exact=True)).to_be_visible()
    expect(page.locator("p.players")).to_contain_text("Alea")
    set_up_board(page, shot)

    # Set-up done: the starting businesses stand on each district's first plot.
    expect(plot_label(page, "34th St West", "violet")).to_have_text("boutique")
    expect(plot_label(page, "52nd St East", "orange")).to_have_text("gallery")
    first_two_skyscrapers(page)
    shot(page, "fa-02-placing")
    last_two_skyscrapers(page)
    # Playing: plots are buttons where a business may go (empty or one business), not where
    # skyscrapers stand.
    expect(plot_button(page, "52nd St West", "violet", "jeweler")).to_be_visible()
    expect(plot_button(page, "52nd St West", "orange", "Ann ×1")).to_have_count(0)

    # Businesses 1 and 2 from the first set (perfume, gallery, boutique): perfume on 52nd St
    # West gray (plot 3), gallery on its green (plot 5). The boutique left alone drops below
    # Central Park.
    # Round 1, the white commissioner: City Hall -> 34th St West -> Times Square ->
    # 52nd St East -> Central Park -> City Hall. Each turn is a business (option B) and a move,
    # two moves (C), or skyscrapers taken (A) and a move.
    expect(page.locator("fieldset.tiles").get_by_role("radio")).to_have_count(3)
    place_business(page, "perfume", "52nd St West", "gray")  # Ann, option B
    # Her 1st action is done: no second business, no scoring; the move comes next.
    expect(page.locator("fieldset.tiles")).to_have_count(0)
    expect(page.locator("#turn")).to_contain_text("2nd action: take 2 coloured cards")
    move(page, "white", "34th St West")
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()
    expect(page.get_by_role("button", name="Score 34th St West")).to_be_visible()
    place_business(page, "gallery", "52nd St West", "green")  # Ben, option B
    move(page, "white", "Times Square")
    expect(page.locator("section.park")).to_contain_text("Businesses below: boutique.")
    expect(page.get_by_text("Businesses placed on plots: 2 of 12.")).to_be_visible()
    # The second set (jeweler, gallery) is current now.
    tile_radios = page.locator("fieldset.tiles").get_by_role("radio")
    expect(tile_radios).to_have_count(2)
    expect(page.locator("details.scoring")).to_have_count(0)
    shot(page, "fa-03-playing")
    expect(district(page, "34th St West").locator(".marker.c-white")).to_be_visible()
    move(page, "white", "52nd St East")  # Ann, option C: two moves
    move(page, "white", "Central Park")
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()
    # From Central Park the only move is back to City Hall.
    row = page.locator("p:has(> span.c-white) + div.links")
    expect(row.get_by_role("button")).to_have_text(["White back to City Hall: auctions!"])
    # Ben's option A: 3 skyscrapers into his supply; his 3rd action, the move, brings the
    # auctions.
    expect(page.locator("#turn h2")).to_have_text("Ben's turn 3 skyscrapers in supply")
    shot(page, "fa-03b-option-a")
    act(page, page.get_by_role("button", name="A: Ben takes 3 skyscrapers"))
    expect(page.locator("p.just-scored")).to_have_text(
        "Ben took 3 skyscrapers (option A): 6 in supply.")
    expect(page.locator("#turn h2")).to_have_text("Ben's turn 6 skyscrapers in supply")
    expect(page.get_by_role("button", name=re.compile("^A: "))).to_have_count(0)
    expect(page.locator("fieldset.tiles")).to_have_count(0)  # no business after option A
    move(page, "white", "City Hall")

    # Auction 1: 34th St West. Alea's cards are typed.
    expect(auction_heading(page)).to_have_text("Auction: 34th St West")
    expect(auction_heading(page)).to_be_in_viewport()  # the move's answer: what comes next
    expect(page.locator("#auction p.hint").first).to_contain_text(
        "Auctions in order: 34th St West → Times Square → 52nd St East → Central Park.")
    # Neither has a skyscraper there: both may bid with the colours of the empty plots.
    # Ben moved: he bids first, and the card lists the bidders in that order.
    expect(page.locator("#auction p.hint").first).to_contain_text(
        "Ben moved the commissioner and bids first; then clockwise.")
    expect(page.locator("#auction li")).to_have_text([
        "Ben may bid with: orange, gray, brown, green 6 skyscrapers in supply",
        "Ann may bid with: orange, gray, brown, green 3 skyscrapers in supply",
    ])
    verdict = alea_chance(page, 12)
    expected = alea_beats_chance(12)  # exactly 824/1225, about 67.3 %
    percent, fraction = shown_chance(verdict)
    assert Fraction(fraction) == expected, (fraction, expected)
    assert percent == "67.3", percent
    shot(page, "fa-04-auction-alea-chance")

    flipped(page).fill("4 6 5 4")
    act(page, page.get_by_role("button", name="Use these cards"))
    # 4 + 6 + 5 + 4 = 19 (the 4 repeated) beats the players' 12.
    expect(page.locator("#auction .card-value")).to_have_text(["4", "6", "5", "4"])
    expect(alea_line(page)).to_have_text("Alea's cards: 4 + 6 + 5 + 4 = 19 against 12: Alea is in.")
    expect(page.get_by_text("If neither of you overbids 19, Alea wins.")).to_be_visible()
    shot(page, "fa-05-auction-alea-in")

    # Alea wins and builds one skyscraper on each most valuable empty plot. 34th St West holds
    # only the boutique on violet (plot 1): orange (plot 2) and green (plot 5) touch it, 2 VP
    # each; gray and brown touch no business, 1 VP. So Alea builds on orange and green.
    record_auction(page, "Alea", alea="Alea won: Alea builds one skyscraper on each of the "
                   "orange and green plots")
    expect(plot_label(page, "34th St West", "orange")).to_have_text("Alea ×1")
    expect(plot_label(page, "34th St West", "green")).to_have_text("Alea ×1")
    expect(plot_label(page, "34th St West", "gray")).to_have_text("empty")
    expect(plot_label(page, "34th St West", "brown")).to_have_text("empty")

    # Auction 2: Times Square. Alea draws against 21, which no bid of Alea's (8 to 21) beats.
    expect(auction_heading(page)).to_have_text("Auction: Times Square")
    verdict = alea_chance(page, 21)
    assert shown_chance(verdict) == ("0.0", "0")
    act(page, page.get_by_role("button", name="Draw Alea's cards"))
    expect(alea_line(page)).to_contain_text(
        "against 21: Alea is out.")
    expect(page.get_by_role("button", name=re.compile("^Alea won"))).to_have_count(0)
    shot(page, "fa-06-auction-result")
    # Ann wins with a 5 as her highest card (2 skyscrapers at most) and builds 2 on brown,
    # leaving 1 in her supply.
    record_auction(page, "Ann", colour="brown", build=2)
    expect(plot_label(page, "Times Square", "brown")).to_have_text("Ann ×2")

    # Auction 3: 52nd St East, nobody bids. Auction 4: Central Park, Ben builds 3 (a 4).
    expect(auction_heading(page)).to_have_text("Auction: 52nd St East")
    # With Alea at the table somebody always wins: Alea's 8 beats a pass. Alea's 4 4 = 8 loses
    # to the players' 20 and Ann wins, building nothing (she may build fewer, even none).
    alea_out(page, 20)
    # Ann's supply holds 1: the buttons offer no more than that.
    act(page, page.locator(".chips a").filter(has_text=re.compile("^Ann, gray$")))
    expect(page.locator("fieldset.builds button")).to_have_text(["Built 1", "Built none"])
    shot(page, "fa-06b-auction-supply")
    act(page, page.get_by_role("button", name="Built none", exact=True))
    expect(auction_heading(page)).to_have_text("Auction: Central Park")
    expect(page.locator("#auction ul.supplies li")).to_have_text([  # Ben moved: bids first
        "Ben: 6 skyscrapers in supply", "Ann: 1 skyscraper in supply"])
    alea_out(page, 20)
    expect(page.locator(".chips a")).to_have_text(["Ann", "Ben"])  # no plot colour in the park
    record_auction(page, "Ben", build=3)
    expect(page.locator("#auction")).to_have_count(0)
    expect(page.locator("section.park")).to_contain_text("Skyscrapers: Ann 0, Ben 3.")

    # Business 3 from the second set: gallery beside the perfume on 52nd St West gray; the
    # jeweler drops below Central Park. Special scoring after the 3rd business: 4 VP for
    # skyscrapers in at least 3 districts. Ann: 52nd St West, 34th St East, Times Square (3):
    # 4 VP. Ben: 52nd St West, 34th St East (Central Park is no district): 0 VP.
    # Ben's turn ended with his move (the auctions it brought are done): Ann's turn.
    expect(page.locator("#turn h2")).to_have_text("Ann's turn 1 skyscraper in supply")
    expect(page.get_by_role("button", name="A: Ann takes 3 skyscrapers")).to_be_visible()
    expect(page.locator(".strip-next")).to_have_text("Ann's turn: the 1st action (A, B, C or D).")
    place_business(page, "gallery", "52nd St West", "gray", shows="perfume")
    expect(scoring(page, "Special scoring after business 3").locator("summary")).to_have_text(
        "Special scoring after business 3: Ann 4, Ben 0")
    assert scoring_lines(page, "Special scoring after business 3") == [
        "Ann: skyscrapers in 3 districts, 4 VP",
        "Ben: skyscrapers in 2 districts, 0 VP",
    ]
    assert ranking_lines(page) == ["1. Ann 4", "2. Ben 0"]
    expect(page.locator("section.park")).to_contain_text("Businesses below: boutique, jeweler.")

    # Businesses 4 and 5 from the third set fill 34th St East: boutique on brown (plot 3),
    # perfume on violet (plot 5); the gallery drops below Central Park.
    # Round 2, the beige commissioner: City Hall -> 34th St East -> Times Square ->
    # 52nd St West -> Central Park -> City Hall, a move at the end of each turn.
    move(page, "beige", "34th St East")  # Ann's 3rd action
    place_business(page, "boutique", "34th St East", "brown")  # Ben
    move(page, "beige", "Times Square")
    place_business(page, "perfume", "34th St East", "violet")  # Ann
    expect(page.locator("section.park")).to_contain_text(
        "Businesses below: boutique, jeweler, gallery.")
    expect(page.locator("details.scoring")).to_have_count(1)  # no special scoring after 4, 5
    move(page, "beige", "52nd St West")
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()

    # Option D on 52nd St West: jeweler (violet), Ann (orange), perfume + gallery (gray),
    # Ben (brown), gallery (green). Ann touches jeweler, perfume, gallery: 3 types, 5 VP.
    # Ben touches perfume, gallery (gray) and gallery (green): 2 types, 3 VP.
    expect(page.get_by_text("It would give: Ann +5, Ben +3")).to_be_visible()  # before the tap
    act(page, page.get_by_role("button", name="Score 52nd St West"))
    expect(scoring(page, "52nd St West scored").locator("summary")).to_have_text(
        "52nd St West scored by Ben: Ann 5, Ben 3")
    assert scoring_lines(page, "52nd St West scored") == [
        "Ann: 1 skyscraper x 5 VP = 5 VP (jeweler, gallery, perfume shop next door)",
        "Ben: 1 skyscraper x 3 VP = 3 VP (gallery, perfume shop next door)",
    ]
    assert ranking_lines(page) == ["1. Ann 9", "2. Ben 3"]
    # One scoring a turn: Ben's 2nd and 3rd actions come next, no second scoring.
    expect(page.get_by_role("button", name=re.compile("^Score "))).to_have_count(0)
    move(page, "beige", "Central Park")
    expect(page.get_by_role("heading", name="Ann's turn")).to_be_visible()
    # Ann's option A (her supply 1 + 3), and her move brings the auctions.
    act(page, page.get_by_role("button", name="A: Ann takes 3 skyscrapers"))
    expect(page.locator(".strip-next")).to_have_text(
        "Ann's turn: the 3rd action, a commissioner's move.")
    move(page, "beige", "City Hall")

    # Auction 1 of round 2: 34th St East is full: jeweler (orange), Ann (gray), boutique
    # (brown), Ben (green), perfume (violet). Each may bid only with his own colour.
    expect(auction_heading(page)).to_have_text("Auction: 34th St East")
    expect(page.locator("#auction li")).to_have_text([
        "Ann may bid with: gray 4 skyscrapers in supply",
        "Ben may bid with: green 3 skyscrapers in supply"])
    alea_chance(page, 14)
    flipped(page).fill("5 4 5")
    act(page, page.get_by_role("button", name="Use these cards"))
    expect(alea_line(page)).to_contain_text(
        "= 14 against 14: Alea is out.")  # a tie is not enough for Alea
    # Ben wins and declares a building stop. Normal score: Ann touches jeweler, boutique: 3 VP;
    # Ben touches boutique, perfume: 3 VP. Ben, the declarer, gets 1 VP per skyscraper there
    # (Ann's and his): 2; Ann half her 3, rounded down: 1.
    record_auction(page, "Ben", colour="green", stop=True)
    expect(scoring(page, "Building stop in 34th St East by Ben").locator("summary")).to_have_text(
        "Building stop in 34th St East by Ben: Ann 1, Ben 2")
    assert scoring_lines(page, "Building stop in 34th St East by Ben") == [
        "Ben declared it: 1 VP per skyscraper in the district, 2 VP",
        "Ann: half of 3, rounded down: 1 VP",
    ]
    expect(page.locator("p.just-scored")).to_have_text(
        "34th St East is closed. Ben scores 1 VP per skyscraper there, every other player half "
        "their district score, rounded down.")
    expect(district(page, "34th St East")).to_contain_text("Building stop: closed.")
    expect(district(page, "34th St East").locator(".plot")).to_have_count(0)
    assert ranking_lines(page) == ["1. Ann 10", "2. Ben 5"]
    expect(auction_heading(page)).to_have_text("Auction: Times Square")
    expect(page.locator("#auction p.hint").first).to_contain_text(
        "Auctions in order: Times Square → 52nd St West → Central Park.")
    shot(page, "fa-07-building-stop")

    # Times Square: Ann bids with her own brown only, wins with a 6 and adds 1 skyscraper.
    expect(page.locator("#auction li").first).to_have_text(
        "Ann may bid with: brown 4 skyscrapers in supply")
    alea_out(page, 20)
    record_auction(page, "Ann", colour="brown", build=1)
    expect(plot_label(page, "Times Square", "brown")).to_have_text("Ann ×3")

    # 52nd St West is full: Alea (6 5 6 = 17 against 10) wins, finds no empty plot and
    # declares the second building stop. Ann gets half her 5 (2), Ben half his 3 (1); Alea
    # never scores. The second stop ends the game before the Central Park auction.
    expect(auction_heading(page)).to_have_text("Auction: 52nd St West")
    alea_chance(page, 10)
    flipped(page).fill("6 5 6")
    act(page, page.get_by_role("button", name="Use these cards"))
    expect(alea_line(page)).to_contain_text(
        "= 17 against 10: Alea is in.")
    record_auction(page, "Alea", alea="Alea won: every plot is taken, so Alea declares the "
                   "second building stop, which ends the game")
    expect(scoring(page, "Building stop in 52nd St West by Alea").locator("summary"))\
        .to_have_text("Building stop in 52nd St West by Alea: Ann 2, Ben 1")
    expect(district(page, "52nd St West")).to_contain_text("Building stop: closed.")

    # The end: districts without a stop with skyscrapers: 34th St West (Alea only: 0 each) and
    # Times Square (Ann 3 skyscrapers touching the gallery: 3 x 2 = 6). Central Park: the
    # three businesses below (boutique, jeweler, gallery) are all turned over, 3 types: 5 VP
    # per skyscraper: Ben 3 x 5 = 15.
    expect(page.get_by_role("heading", name="The second building stop is complete: the game is "
                                         "over.")).to_be_visible()
    expect(page.locator("#auction")).to_have_count(0)
    expect(page.get_by_text("Below Central Park: boutique, jeweler, gallery. Turn over three of "
                            "them, or all if fewer lie there.")).to_be_visible()
    shot(page, "fa-08-final-scoring")
    act(page, page.get_by_role("button", name="Let the app turn them over at random"))

    expect(page.get_by_role("heading", name="Final result")).to_be_visible()
    expect(page.get_by_role("heading", name="Final result")).to_be_in_viewport()  # issue 23
    expect(scoring(page, "Final: 34th St West").locator("summary")).to_have_text(
        "Final: 34th St West: Ann 0, Ben 0")
    assert scoring_lines(page, "Final: 34th St West") == [  # Alea's two plots, each named
        "Alea, orange plot: 1 skyscraper worth 2 VP each (boutique next door); Alea never scores",
        "Alea, green plot: 1 skyscraper worth 2 VP each (boutique next door); Alea never scores",
    ]
    expect(scoring(page, "Final: Times Square").locator("summary")).to_have_text(
        "Final: Times Square: Ann 6, Ben 0")
    assert scoring_lines(page, "Final: Times Square") == [
        "Ann: 3 skyscrapers x 2 VP = 6 VP (gallery next door)"]
    expect(scoring(page, "Final: 52nd St East")).to_have_count(0)
    park = scoring(page, "Central Park (").locator("summary")
    expect(park).to_have_text(re.compile(r"^Central Park \((boutique|jeweler|gallery)(, "
                                         r"(boutique|jeweler|gallery)){2}\): Ann 0, Ben 15$"))
    # Only who has a skyscraper there, as in a district's scoring (found at a table: "Cleo: 0
    # skyscrapers x 2 VP = 0 VP" was noise beside them).
    assert scoring_lines(page, "Central Park (") == ["Ben: 3 skyscrapers x 5 VP = 15 VP"]

    # Totals: Ann 4 (special) + 5 (option D) + 1 + 2 (stops) + 6 (Times Square) = 18;
    # Ben 0 + 3 + 2 + 1 + 15 (Central Park) = 21.
    assert ranking_lines(page) == ["1. Ben 21 winner", "2. Ann 18"]
    expect(page.locator("section.result .verdict")).to_have_text("Ben wins with 21 VP.")
    expect(page.get_by_role("button", name=re.compile(r"plot:"))).to_have_count(0)
    shot(page, "fa-09-final-result")

    text = squash(pdf_text(page))
    assert "by Ann, Ben, with Alea" in text, text
    assert "Total 18 21" in text, text
    assert "1. Ben (21), 2. Ann (18)" in text, text
    assert "Winner: Ben" in text, text
    assert "Building stop in 34th St East by Ben 1 2" in text, text
    assert "Special scoring after business 3 4 0" in text, text


# The chance reads as a percentage ------------------------------------------------------------


def test_alea_chance_reads_as_a_percentage(page: Page) -> None:
    start_table(page, ["Ann", "Ben"], "fifth_avenue")
    expect(page.get_by_role("heading", name="5th Avenue", exact=True)).to_be_visible()
    set_up_board(page)
    first_two_skyscrapers(page)
    last_two_skyscrapers(page)
    for to in ("34th St West", "Times Square", "52nd St East", "Central Park", "City Hall"):
        move(page, "white", to)
    verdict = alea_chance(page, 12)  # 824/1225 = 67.27 %
    assert squash(verdict.inner_text()) == "Alea beats 12 with probability 67.3% (824/1225)."
