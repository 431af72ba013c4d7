"""A whole street card game played by tapping in a real browser at phone size.

Mia, Ola and Pit sit in that order: Mia starts, Pit (to the right of the start player) takes the
last turn. Everyone starts with $10. A turn is two actions: the 1st the top card of one's own
deck for free (or the upcoins on it), the 2nd a card bought (from a player deck, or the public
pile's for free); the table offers only the player at turn what their step allows. Every
expected number below is worked out by hand.

The cards described on the way (most are built once from the form, some again from the library):
  A  office; income +1 per office on the street; prestige +2 once
  F  double office (counts as two offices); prestige +1 once
  B  store, ground floor only; income +3 once; prestige +1 once
  C  apartment, upper floor only; prestige +2 per floor below
  G  bare gift roof (no project, no icons)
  D  hotel; income +2 once; prestige +1 per hotel on the street
  E  bare roof
  K  coffee, no icons

The turns:
  1  Mia: A on site 1; F from the public pile on site 3.
     Ola: B on site 1; C from the public pile on top of it.
     Pit: C from the library on his empty site 3 is refused; D on site 1; buys the top card of
          Ola's deck for $3 (the upcoins go onto her deck) and discards it.
  2  Mia: A again from the library on site 2; G from the public pile on Ola's site 1 (a gift).
     Ola: takes the $3 from her deck; K from the public pile, refused on her finished site 1,
          built on site 2.
     Pit: discards his card and the public pile's.
  3  Mia: E on site 1 (her roof pays); buys the top card of her own deck for $2, discards it.
     Ola: discards the last card of her deck: the final round; takes the public card, discards.
     Pit: D again from the library on site 2; takes the public card, discards it. The game is
          over, and scored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Locator, Page, expect

from tests.browser.helpers import (
    linked_pdf_text,
    money,
    site,
    squash,
    start_table,
    street_of,
    tap_and_load,
)

Shot = Callable[[Page, str], Any]
TABLE_URL = re.compile(r"/street/[^/]+/$")
Icon = tuple[str, int, str | None]  # (each, amount, project counted) as the form's words


# Helpers ------------------------------------------------------------------------------------


def opened(page: Page, player: str, fold_out: str) -> Locator:
    """A player's fold-out ("Pit buys a card", "Ola's deck runs out"), opened if it was closed
    (closed, it is a link: only an open fold-out draws its form)."""
    street = street_of(page, player)
    link = street.locator("a[data-open]", has_text=fold_out)
    if link.count():
        tap_and_load(page, link)
    found = street.locator("details[open]", has=page.locator("summary", has_text=fold_out))
    expect(found).to_be_visible()
    return found


def deck_button(page: Page, player: str, label: str) -> Locator:
    """A button of the player's "buys a card" form, e.g. "From Ola's deck"."""
    return opened(page, player, f"{player} buys a card").get_by_role("button", name=label)


def floors(page: Page, player: str, number: int) -> list[str]:
    """The cards on a site from the top floor down, each as its first line (the project; soft
    hyphens that let long names break on a narrow site are left out)."""
    return [
        t.split("\n")[0].replace("\u00ad", "").strip()
        for t in site(page, player, number).locator(".scard").all_inner_texts()
    ]


def open_build_page(page: Page, player: str) -> None:
    tap_and_load(page, page.get_by_role("link", name=f"{player} builds a card", exact=True))
    expect(page.get_by_role("heading", name=f"{player} builds a card")).to_be_visible()


def tap_chip(page: Page, legend: str, words: str) -> None:
    """Tap a chip of the build page's card builder, by its group's legend and its words."""
    group = page.locator("form.builder fieldset.chips",
                         has=page.locator("legend", has_text=re.compile(rf"^{re.escape(legend)}$")))
    label = group.locator("label.chip", has_text=re.compile(rf"^\s*{re.escape(words)}\s*$"))
    label.locator("span").first.tap()


def describe(
    page: Page,
    project: str | None = None,
    floor: str | None = None,
    double: bool = False,
    roof: bool = False,
    gift: bool = False,
    income: list[Icon] | None = None,
    prestige: list[Icon] | None = None,
    street: str | None = None,
    source: str | None = None,
) -> None:
    """Tap the card into the build page's builder (without building it)."""
    form = page.locator("form.builder")
    if source:
        tap_chip(page, "Where the card came from", source)
    if project:
        tap_chip(page, "Project showing", project)
    if floor:
        tap_chip(page, "Must be built", floor)
    for name, on in (("Double", double), ("Roof", roof), ("Gift", gift)):
        if on:
            tap_chip(page, "Marks", name)
    for kind, icons in (("income", income or []), ("prestige", prestige or [])):
        for k, (each, amount, counted) in enumerate(icons):
            tap_chip(page, f"{kind.capitalize()} {k + 1}", each)
            form.locator(f'input[name="{kind}_amount_{k}"]').fill(str(amount))
            if counted:
                form.locator(f'select[name="{kind}_project_{k}"]').select_option(counted)
    if street:
        tap_chip(page, "Whose street (a gift goes on an opponent's)", street)


def build_on(page: Page, number: int) -> None:
    """Tap "Build on site N" of the new-card form; the build succeeds and leads to the table."""
    tap_and_load(page, page.get_by_role("button", name=f"Build on site {number}", exact=True))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(page).to_have_url(TABLE_URL)


def build_new(page: Page, player: str, number: int, **card: Any) -> None:
    open_build_page(page, player)
    describe(page, **card)
    build_on(page, number)


def library_card(page: Page, text: str) -> Locator:
    """One card of the build page's library (the cards seen before), found by its words."""
    return page.locator(".known-cards .known").filter(has_text=text)


def build_known(page: Page, text: str, number: int) -> None:
    """Tap site N of a card of the library (one tap: its 1st action)."""
    tap_and_load(page, library_card(page, text).get_by_role("button", name=f"Site {number}",
                                                           exact=True))


def in_view(target: Locator) -> bool:
    """Whether the element shows in the window as it is scrolled now."""
    return bool(target.evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }"
    ))


def pdf_text(page: Page) -> str:
    return linked_pdf_text(page, "Score sheet (PDF, A5)")


# The game -----------------------------------------------------------------------------------


def discards(page: Page, player: str) -> None:
    """The player at turn discards the card taken (the 1st action's, or the one bought)."""
    tap_and_load(page, page.get_by_role("button", name=f"{player} discarded"))
    expect(page.locator(".error, .refusal")).to_have_count(0)


def takes_public_card(page: Page, player: str) -> None:
    """The 2nd action: the public pile's card, taken for free and discarded."""
    tap_and_load(page, deck_button(page, player, "Public pile (free)"))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    discards(page, player)


def turn_heading(page: Page) -> Locator:
    return page.locator("section.turn h2")


def test_three_player_street_game_to_the_filled_pad(page: Page, shot: Shot) -> None:
    start_table(page, ["Mia", "Ola", "Pit"], "street")
    expect(page.get_by_role("heading", name="Street card game", level=1)).to_be_visible()
    for player in ("Mia", "Ola", "Pit"):
        expect(money(page, player)).to_contain_text("$10 · upcoins on deck 0 · ★ 3")
    expect(page.get_by_role("button", name="Score the game")).to_have_count(0)
    expect(turn_heading(page)).to_have_text("Mia's turn: 1st action")
    expect(page.locator(".score-strip .strip-next")).to_have_text("Mia's 1st action comes next")
    # Only the player at turn builds, and nobody buys as the 1st action.
    expect(page.get_by_role("link", name=re.compile("builds a card"))).to_have_count(1)
    expect(page.get_by_role("link", name=re.compile("buys a card"))).to_have_count(0)

    # Turn 1. Mia: office A on site 1 (income +1 per office on the street, prestige +2).
    build_new(page, "Mia", 1, project="office",
              income=[("per project on the street", 1, "office")], prestige=[("once", 2, None)])
    expect(site(page, "Mia", 1).locator(".scard")).to_contain_text("$+1 per office on the street")
    expect(page.get_by_text(re.compile(r"^Last: Mia built an? office on site 1( — .*)?$")))\
        .to_be_visible()
    expect(turn_heading(page)).to_have_text("Mia's turn: 2nd action")
    # Mia's 2nd action: a double office F from the public pile on site 3 (prestige +1).
    build_new(page, "Mia", 3, project="office", double=True, prestige=[("once", 1, None)],
              source="Public pile (free)")
    expect(site(page, "Mia", 3).locator(".scard strong")).to_have_text("2× office")

    # Ola: store B, ground floor only, on site 1; then apartment C, upper floor only, on top.
    expect(turn_heading(page)).to_have_text("Ola's turn: 1st action")
    build_new(page, "Ola", 1, project="store", floor="ground floor only",
              income=[("once", 3, None)], prestige=[("once", 1, None)])
    build_new(page, "Ola", 1, project="apartment", floor="upper floor only",
              prestige=[("per floor below", 2, None)], source="Public pile (free)")
    assert floors(page, "Ola", 1) == ["apartment", "store"]  # top floor first

    # Pit wants the upper-floor apartment C from the library on his empty site 3: the rules
    # know it cannot be the first card on a site, so none of his empty sites is offered.
    open_build_page(page, "Pit")
    for number in range(1, 6):
        expect(library_card(page, "per floor below").get_by_role(
            "button", name=f"Site {number}", exact=True)).to_be_disabled()
    shot(page, "street-03-upper-floor-not-offered")
    tap_and_load(page, page.get_by_role("link", name="Back to the table"))
    assert floors(page, "Pit", 3) == []

    # Pit: hotel D on site 1 (income +2, prestige +1 per hotel on the street).
    open_build_page(page, "Pit")
    describe(page, project="hotel", income=[("once", 2, None)],
             prestige=[("per project on the street", 1, "hotel")])
    shot(page, "street-02a-new-card-filled")
    build_on(page, 1)
    # Prestige so far, shown next to each name: Mia 2 (A) + 1 (F) + $10/3 = 6,
    # Ola 1 + 2 + 3 = 6, Pit 1 + 3 = 4.
    expect(money(page, "Mia")).to_contain_text("★ 6")
    expect(money(page, "Ola")).to_contain_text("★ 6")
    expect(money(page, "Pit")).to_contain_text("★ 4")
    shot(page, "street-01-table-early")

    # Pit's 2nd action: he buys the top card of Ola's deck for $3: $10 - 3 = $7, and $3 lies
    # on Ola's deck. He discards the card.
    pit = opened(page, "Pit", "Pit buys a card")
    pit.get_by_label("Cost ($)").fill("3")
    tap_and_load(page, pit.get_by_role("button", name="From Ola's deck"))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(turn_heading(page)).to_have_text("Pit's turn: place the card")
    discards(page, "Pit")
    expect(money(page, "Pit")).to_contain_text("$7 · upcoins on deck 0")
    expect(money(page, "Ola")).to_contain_text("$10 · upcoins on deck 3")

    # Turn 2. Mia's build page: the library holds the five cards, the newest first; the office
    # A goes on site 2 in one tap (her 1st action).
    expect(turn_heading(page)).to_have_text("Mia's turn: 1st action")
    open_build_page(page, "Mia")
    expect(page.get_by_text("Built before: tap its site")).to_be_visible()
    cards = page.locator(".known-cards .known")
    expect(cards).to_have_count(5)
    expect(cards.first.locator("strong")).to_have_text("hotel")
    shot(page, "street-02-build-page")
    office = library_card(page, "per office on the street")
    expect(office).to_have_count(1)
    build_known(page, "per office on the street", 2)
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(page).to_have_url(TABLE_URL)
    assert floors(page, "Mia", 2) == ["office"]
    expect(page.get_by_text(re.compile(r"^Last: Mia built an? office on site 2( — .*)?$")))\
        .to_be_visible()

    # Nobody can buy from Ola's deck while the upcoins are on it.
    expect(deck_button(page, "Mia", "From Ola's deck")).to_be_disabled()
    expect(deck_button(page, "Mia", "From Pit's deck")).to_be_enabled()
    expect(deck_button(page, "Mia", "From own deck")).to_be_enabled()

    # Mia's 2nd action: the public pile's card, a bare gift roof G, on Ola's site 1. It pays
    # Ola, not Mia: Ola's income is store B's +3 (C has no income) -> Ola $10 + 3 = $13; Mia
    # stays at $10.
    open_build_page(page, "Mia")
    expect(page.locator('form.builder input[name="source"][value="Ola"]')).to_be_disabled()
    describe(page, roof=True, gift=True, street="Ola", source="Public pile (free)")
    build_on(page, 1)
    payout = page.locator("section.just-scored")
    expect(payout.get_by_role("heading")).to_have_text("Site 1 finished: Ola takes $3")
    expect(payout.locator("li")).to_have_text(["Site 1, floor 1: +3 = +3"])
    expect(money(page, "Ola")).to_contain_text("$13 ·")
    expect(money(page, "Mia")).to_contain_text("$10 ·")
    expect(site(page, "Ola", 1)).to_have_class(re.compile(r"\bfinished\b"))
    expect(site(page, "Ola", 1).locator(".scard").first).to_contain_text("gift")
    expect(page.get_by_text("Last: Mia gave Ola a roof as a gift, on site 1")).to_be_visible()
    shot(page, "street-04-gift-roof-pays-ola")

    # Ola's 1st action: the upcoins on her deck, $13 + 3 = $16; her deck can be bought from
    # again.
    expect(turn_heading(page)).to_have_text("Ola's turn: 1st action")
    builds = page.get_by_role("link", name="Ola builds a card")
    expect(builds).to_have_count(0)  # taking the upcoins is her 1st action: nothing else
    take = page.get_by_role("button", name="Take $3 from the deck")
    expect(take).to_have_count(1)  # in the turn's section, not again beside her street
    tap_and_load(page, take)
    expect(money(page, "Ola")).to_contain_text("$16 · upcoins on deck 0")
    expect(take).to_have_count(0)
    expect(builds).to_be_visible()
    expect(deck_button(page, "Ola", "From own deck")).to_be_enabled()

    # Ola's 2nd action: a coffee K from the public pile on her finished site 1 is refused; the
    # form keeps the card, and one tap on site 2 builds it there.
    open_build_page(page, "Ola")
    # The gift G in the library: each street's name on one line over its row of sites, the
    # card at least 6rem wide beside them; on a 320 px phone the sites go under the card
    # (found at a table: squeezed to 25 px, names broken letter by letter over the card).
    gift = page.locator(".known-cards .known").filter(has=page.locator(".to")).first
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 844})
        card, name = gift.locator(".scard").bounding_box(), gift.locator(".to").first
        assert card is not None and card["width"] >= 96, (width, card)
        assert name.evaluate("e => e.getClientRects().length === 1 && e.offsetHeight < 20")
        sites = gift.locator("button").first.bounding_box()
        assert sites is not None and (sites["x"] > card["x"] + card["width"]) == (width == 390)
    page.set_viewport_size({"width": 390, "height": 844})
    describe(page, project="coffee", source="Public pile (free)")
    tap_and_load(page, page.get_by_role("button", name="Build on site 1", exact=True))
    expect(page.locator(".error, .refusal")).to_have_text(
        "Site 1 is finished with a roof: only a card that must be built on top of a roof can be "
        "added."
    )
    expect(page.locator('form.builder input[name="project"][value="coffee"]')).to_be_checked()
    expect(page.locator('form.builder input[name="source"][value="public"]')).to_be_checked()
    build_on(page, 2)
    assert floors(page, "Ola", 1) == ["roof", "apartment", "store"]
    assert floors(page, "Ola", 2) == ["coffee"]

    # Pit builds nothing this turn.
    discards(page, "Pit")
    takes_public_card(page, "Pit")

    # Turn 3. Mia finishes her site 1 with a bare roof E. Income of her whole street: office A
    # on site 1 and on site 2 each +1 per office on the street, offices 1 + 1 + 2 (double) = 4,
    # so 4 + 4 = $8 -> Mia $10 + 8 = $18.
    build_new(page, "Mia", 1, roof=True)
    expect(payout.get_by_role("heading")).to_have_text("Site 1 finished: Mia takes $8")
    expect(payout.locator("li")).to_have_text([
        "Site 1, floor 1: +1 per office on the street = +4",
        "Site 2, floor 1: +1 per office on the street = +4",
    ])
    expect(money(page, "Mia")).to_contain_text("$18 ·")
    shot(page, "street-05-roof-payout")

    # Mia buys the top card of her own deck for $2: she pays the bank, $18 - 2 = $16; she
    # discards it.
    mia = opened(page, "Mia", "Mia buys a card")
    mia.get_by_label("Cost ($)").fill("2")
    tap_and_load(page, mia.get_by_role("button", name="From own deck"))
    expect(money(page, "Mia")).to_contain_text("$16 · upcoins on deck 0")
    discards(page, "Mia")

    # Ola's 1st action takes the last card of her deck (discarded): the final round; Pit,
    # right of Mia, has the last turn.
    discards(page, "Ola")
    ola = opened(page, "Ola", "Ola's deck runs out")
    expect(ola.get_by_label("Who took its last card?")).to_have_value("Ola")
    tap_and_load(page, ola.get_by_role("button", name="The final round begins"))
    final = page.locator("section.next")
    expect(final.get_by_role("heading", name="Final round")).to_be_visible()
    expect(final.get_by_role("heading", name="Final round")).to_be_in_viewport()  # the answer
    expect(final).to_contain_text("Triggered by Ola.")
    expect(final).to_contain_text("Still to play: Ola, Pit; Pit takes the last turn.")
    expect(final.locator("strong")).to_have_text("Pit")
    expect(page.get_by_role("button", name="Score the game")).to_have_count(0)
    expect(deck_button(page, "Ola", "From own deck")).to_be_disabled()
    shot(page, "street-06-final-round")
    takes_public_card(page, "Ola")

    # Pit's last turn: the hotel D again, from the library, on site 2; the public card after.
    expect(final).to_contain_text("Still to play: Pit; Pit takes the last turn.")
    open_build_page(page, "Pit")
    build_known(page, "per hotel on the street", 2)
    expect(page.locator(".error, .refusal")).to_have_count(0)
    assert floors(page, "Pit", 2) == ["hotel"]
    takes_public_card(page, "Pit")

    # The game is over: no more turns, and the scoring is at the top.
    the_end = page.locator("section#the-end")
    expect(the_end.get_by_role("heading", name="The game is over")).to_be_visible()
    expect(the_end.get_by_role("heading", name="The game is over")).to_be_in_viewport()
    expect(page.get_by_role("link", name=re.compile("builds a card"))).to_have_count(0)
    expect(page.locator(".score-strip .strip-next")).to_have_text(
        "The final round is complete: score the game.")
    tap_and_load(page, the_end.get_by_role("button", name="Score the game"))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    result = page.locator("section.result")
    expect(result.get_by_role("heading", name="Final result")).to_be_visible()
    expect(result.get_by_role("heading", name="Final result")).to_be_in_viewport()  # issue 23
    # Mia: sites 2 (A) + 2 (A) + 1 (F) = 5, $16 // 3 = 5 -> 10; tallest 2 (site 1: A + roof).
    # Ola: site 1 = 1 (B) + 2 x 1 floor below (C) = 3, $16 // 3 = 5 -> 8; tallest 3.
    # Pit: 2 hotels on the street, each +2 -> 2 + 2 = 4, $7 // 3 = 2 -> 6; tallest 1.
    lines = [squash(t) for t in result.locator("ol.ranking li").all_inner_texts()]
    assert lines == [
        "1. Mia 10 (sites 2 + 2 + 1 + 0 + 0, 5 for the money left, tallest building 2) winner",
        "2. Ola 8 (sites 3 + 0 + 0 + 0 + 0, 5 for the money left, tallest building 3)",
        "3. Pit 6 (sites 2 + 2 + 0 + 0 + 0, 2 for the money left, tallest building 1)",
    ], lines
    # The game is over: no more actions on the streets.
    expect(page.get_by_role("link", name=re.compile("builds a card"))).to_have_count(0)
    expect(page.get_by_role("button", name="Score the game")).to_have_count(0)
    shot(page, "street-07-final-result")

    sheet = pdf_text(page)
    flat = squash(sheet)
    for name in ("Mia", "Ola", "Pit"):
        assert name in sheet
    assert "Ranking: 1. Mia (10), 2. Ola (8), 3. Pit (6). Winner: Mia." in flat, flat
    assert "Total 10 8 6" in flat, flat
    # The pad's columns Mia, Ola, Pit: prestige site by site, from sites, from $/3, total.
    for line in ("★ site 1 2 3 2", "★ site 2 2 0 2", "★ site 3 1 0 0", "★ site 4 0 0 0",
                 "★ site 5 0 0 0", "★ from sites 1-5 5 3 4", "Tallest building (tie-break) 2 3 1"):
        assert line in flat, (line, flat)
    # (The narrow first column wraps "($/3)" in the PDF, so compare without spaces.)
    assert "fromremainingupcoins($/3)552Total1086" in flat.replace(" ", ""), flat
    assert "Game in progress" not in flat
    assert "Ola, site 1: income 3, paid $3" in flat and "Mia, site 1: income 8, paid $8" in flat


def test_a_refused_build_is_said_where_the_player_looks(page: Page) -> None:
    """The site buttons are at the bottom of a long form; the refusal is said beside them."""
    start_table(page, ["Mia", "Ola"], "street")
    open_build_page(page, "Mia")
    describe(page, project="apartment", floor="upper floor only")
    tap_and_load(page, page.get_by_role("button", name="Build on site 1", exact=True))
    error = page.locator(".error, .refusal")
    expect(error).to_have_text(
        "This card is an upper floor: it cannot be the first card on site 1."
    )
    assert in_view(error), "the refusal is above the window: the tap seems to do nothing"
