"""Issue 15 in the street card game: the taps a task takes on the phone, counted as the issue
counts them (a tap, a key press and a choice are one each), held to its target.

A new card not yet in the library: at most 4 taps without income or prestige, at most 8 with one
icon. The table page offers the card builder of the player whose turn it is, so a card is its
chips and its site button.

The first round of 3 players (Mia, Ola, Pit; Mia holds the start board): at most 25 taps. From
the rulebook, a turn is two actions. 1st action: with no upcoins on one's deck, take its top card
free and play it on a site (or discard it); with upcoins on it, take them. 2nd action: buy the top
card of one's own deck (pay the bank) or of an opponent's (the upcoins go onto that deck), or take
the public pile's top card free, and play it. What the app records of this round:
  Mia  1st: the top card of her deck, an office, on site 1.
       2nd: buys Ola's top card for $3 (Mia $7, $3 onto Ola's deck): a store, ground floor only,
            on site 2.
  Ola  1st: upcoins lie on her deck: she takes the $3 ($13).
       2nd: the public pile's card, a hotel, on site 1.
  Pit  1st: his top card is an office like Mia's: one tap on site 1 of it in the library.
       2nd: buys his own top card for $2 ($8): a coffee, ground floor only, with a roof and
            income +2, on site 2. The roof pays the income of his street: +2 -> $10.
Then it is Mia's turn again, 1st action.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.helpers import money, site, start_table, street_of
from tests.browser.taps import Taps

SHOTS = "/tmp/street-shots"


def turn(page: Page) -> Locator:
    return page.locator("section.turn")


def chip(page: Page, group: str, words: str) -> Locator:
    """A chip of the turn's builder, by its group's legend and its words."""
    fieldset = turn(page).locator("fieldset.chips", has=page.locator("legend", has_text=group))
    return fieldset.locator("label.chip", has_text=words).first.locator("span, .scard").first


def site_button(page: Page, number: int) -> Locator:
    return turn(page).get_by_role("button", name=f"Build on site {number}", exact=True)


def expect_turn(page: Page, heading: str) -> None:
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(turn(page).locator("h2")).to_have_text(heading)


def test_a_new_card_without_icons_takes_three_taps(page: Page, shot) -> None:
    start_table(page, ["Mia", "Ola", "Pit"], "street")
    expect_turn(page, "Mia's turn: 1st action")
    taps = Taps(page)
    taps.touch(chip(page, "Project showing", "store"), "store")
    taps.touch(chip(page, "Must be built", "on the ground floor"), "ground floor only")
    shot(page, "street-taps-new-card")
    page.screenshot(path=f"{SHOTS}/new-card-chips.png", full_page=True)
    taps.tap(site_button(page, 3), "site 3")
    assert taps.count == 3, taps
    taps.held_to("street: a new card, no income or prestige", 4)
    expect(site(page, "Mia", 3).locator(".scard")).to_contain_text("ground floor only")
    expect_turn(page, "Mia's turn: 2nd action")


def test_a_new_card_with_an_income_icon_takes_six_taps(page: Page) -> None:
    start_table(page, ["Mia", "Ola", "Pit"], "street")
    taps = Taps(page)
    taps.touch(chip(page, "Project showing", "hotel"), "hotel")
    taps.touch(chip(page, "Income 1", "per project on the street"), "income per project")
    plus = turn(page).get_by_role("button", name="Income 1: amount: one more")
    taps.touch(plus, "+1")
    taps.touch(plus, "+1")
    taps.choose(turn(page).get_by_label("Income 1: of project"), "hotel", "counts hotels")
    page.screenshot(path=f"{SHOTS}/new-card-income.png", full_page=True)
    taps.tap(site_button(page, 1), "site 1")
    assert taps.count == 6, taps
    taps.held_to("street: a new card with one income", 8)
    expect(site(page, "Mia", 1).locator(".scard")).to_contain_text("$+2 per hotel on the street")


def test_the_first_round_of_three_players_takes_at_most_25_taps(page: Page) -> None:
    start_table(page, ["Mia", "Ola", "Pit"], "street")
    taps = Taps(page)

    expect_turn(page, "Mia's turn: 1st action")
    taps.touch(chip(page, "Project showing", "office"), "office")
    taps.tap(site_button(page, 1), "site 1")

    expect_turn(page, "Mia's turn: 2nd action")
    taps.touch(chip(page, "Where the card came from", "Bought from Ola"), "from Ola")
    taps.enter(turn(page).get_by_label("Cost ($), if bought from a deck"), "3")
    taps.touch(chip(page, "Project showing", "store"), "store")
    taps.touch(chip(page, "Must be built", "on the ground floor"), "ground floor only")
    page.screenshot(path=f"{SHOTS}/round-mia-2nd.png", full_page=True)
    taps.tap(site_button(page, 2), "site 2")
    expect(money(page, "Mia")).to_contain_text("$7 · upcoins on deck 0")
    expect(money(page, "Ola")).to_contain_text("$10 · upcoins on deck 3")

    expect_turn(page, "Ola's turn: 1st action")
    page.screenshot(path=f"{SHOTS}/round-ola-upcoins.png", full_page=True)
    taps.tap(turn(page).get_by_role("button", name="Take $3 from the deck"), "take $3")
    expect(money(page, "Ola")).to_contain_text("$13 · upcoins on deck 0")

    expect_turn(page, "Ola's turn: 2nd action")
    taps.touch(chip(page, "Where the card came from", "Public pile"), "public pile")
    taps.touch(chip(page, "Project showing", "hotel"), "hotel")
    taps.tap(site_button(page, 1), "site 1")

    expect_turn(page, "Pit's turn: 1st action")
    page.screenshot(path=f"{SHOTS}/round-pit-library.png", full_page=True)
    office = turn(page).locator(".library-card", has_text="office")
    taps.tap(office.get_by_role("button", name="Site 1", exact=True), "the office again, site 1")

    expect_turn(page, "Pit's turn: 2nd action")
    taps.touch(chip(page, "Where the card came from", "Bought from own deck"), "own deck")
    taps.enter(turn(page).get_by_label("Cost ($), if bought from a deck"), "2")
    taps.touch(chip(page, "Project showing", "coffee"), "coffee")
    taps.touch(chip(page, "Must be built", "on the ground floor"), "ground floor only")
    taps.touch(chip(page, "Marks", "Roof"), "roof")
    taps.touch(chip(page, "Income 1", "once"), "income once")
    plus = turn(page).get_by_role("button", name="Income 1: amount: one more")
    taps.touch(plus, "+1")
    taps.touch(plus, "+1")
    taps.tap(site_button(page, 2), "site 2")

    assert taps.count == 23, taps
    taps.held_to("street: the first round of 3 players", 25)
    expect(page.locator("section.just-scored h2")).to_have_text("Site 2 finished: Pit takes $2")
    expect(money(page, "Pit")).to_contain_text("$10 · upcoins on deck 0")
    expect(money(page, "Mia")).to_contain_text("$7 ·")
    expect(money(page, "Ola")).to_contain_text("$13 ·")
    expect_turn(page, "Mia's turn: 1st action")
    page.screenshot(path=f"{SHOTS}/round-end.png", full_page=True)


def test_the_library_filters_as_one_types_and_a_card_is_removed_and_undone(page: Page) -> None:
    start_table(page, ["Mia", "Ola"], "street")
    taps = Taps(page)
    taps.touch(chip(page, "Project showing", "office"), "office")
    taps.tap(site_button(page, 1))
    taps.touch(chip(page, "Where the card came from", "Public pile"))
    taps.touch(chip(page, "Project showing", "hotel"))
    taps.tap(site_button(page, 2))
    known = turn(page).locator(".library .known")
    expect(known).to_have_count(2)
    turn(page).get_by_label("Find a card built before").fill("hot")
    expect(known.filter(visible=True)).to_have_count(1)
    expect(known.filter(visible=True)).to_contain_text("hotel")

    # It is Ola's turn now: Mia's street is corrected from the corrections.
    expect(street_of(page, "Mia").get_by_role("link", name="Mia builds a card")).to_have_count(0)
    taps.tap(page.get_by_role("link", name="Corrections"))
    taps.tap(page.get_by_role("link", name="Mia's street: remove a card built by mistake"))
    expect(page.get_by_role("heading", name="Mia's street", level=1)).to_be_visible()
    page.screenshot(path=f"{SHOTS}/builder-page-remove.png", full_page=True)
    taps.tap(page.get_by_role("button", name="Site 2: remove the hotel on top"))
    expect(site(page, "Mia", 2).locator(".scard")).to_have_count(0)
    expect(page.get_by_text("Last: Removed the top card of Mia's site 2")).to_be_visible()
    taps.tap(page.locator("nav.undo-redo").get_by_role("button", name=re.compile("Undo")))
    expect(site(page, "Mia", 2).locator(".scard")).to_have_count(1)


def test_without_javascript_the_chips_build_and_the_amount_is_typed(browser: Browser,
                                                                    base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False,
                                  viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    try:
        start_table(page, ["Mia", "Ola"], "street")
        taps = Taps(page)
        taps.touch(chip(page, "Project showing", "apartment"))
        taps.touch(chip(page, "Prestige 1", "per floor below"))
        expect(turn(page).get_by_role("button", name="Prestige 1: amount: one more")).to_be_hidden()
        taps.enter(turn(page).get_by_label("Prestige 1: amount", exact=True), "2")
        taps.tap(site_button(page, 4))
        assert taps.count <= 8, taps
        expect(site(page, "Mia", 4).locator(".scard")).to_contain_text("★+2 per floor below")
    finally:
        context.close()
