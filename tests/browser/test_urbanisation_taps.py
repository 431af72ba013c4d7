"""Urbanisation turns played on the phone and counted as issue 15 counts them: each tap, key
press and choice is one. The table is seeded straight into the live database up to the start of
the turn; the turn is then played with the one-tap actions the rules offer, the detailed forms
only for what the table cannot know (a territory's price markers, a factory card).

A full turn is the character selection, four action phases for every player and the
administration: with 2 players 2 + 8 + 1 = 11 recorded events, with 3 players 3 + 12 + 1 = 16.
Issue 15's "a typical turn, at most 15 taps" is therefore held for a typical 2-player turn; the
3-player turn 1 of the example game is counted and kept too.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect

from companion.rules.urbanisation_example import SETUP as EXAMPLE_SETUP
from companion.rules.urbanisation_example import TURN_1 as EXAMPLE_TURN_1
from companion.rules.urbanisation_example import TURN_2 as EXAMPLE_TURN_2
from companion.rules.urbanisation_example import TURN_3 as EXAMPLE_TURN_3
from companion.rules.urbanisation_example import act, hire
from companion.rules.urbanisation_table import UrbanisationState
from tests.browser.helpers import tap_and_load, touch
from tests.browser.states import logged, record, seed
from tests.browser.taps import Taps
from tests.tables import URBANISATION_TWO_SETUP as TWO_SETUP
from tests.tables import URBANISATION_TWO_TURN_1 as TWO_TURN_1

Action = tuple[str, dict[str, Any]]
SHOTS = Path(os.environ.get("URBANISATION_SHOTS", "/tmp/urbanisation-shots"))  # one per clone
TWO = ("Ann", "Ben")
ADMIN: Action = ("administration", {})

# Turn 1 of a 2-player game (TWO_SETUP, TWO_TURN_1: tests/tables.py) is seeded: Ann gets orange
# work orders and a factory, Ben grain and land; Ann is the Mayor of turn 2.
# Turn 2, played on the phone: every action kind a turn usually holds.
TWO_TURN_2: list[Action] = [
    *hire("architect", "tax_collector", players=list(TWO)),
    act("produce", "Ann", factory=3, orders={"orange": 2}),  # $2, 2 VP
    act("taxes", "Ben", character="tax_collector"),  # 1 citizen, twice: $2
    act("erect", "Ann", building="skyscraper", count=1, character="architect"),  # $2, 2 VP
    act("erect", "Ben", building="house", count=1),  # $2, 1 VP
    act("work_orders", "Ann", colour="white", count=3, last=True),  # +$1
    act("sow", "Ben", grain=2),  # 2 of his 3 grain: the house left 2 empty grounds
    act("trade_grain", "Ann", buy=2),  # barns 1 and 2: $2
    act("pass", "Ben"),
    ADMIN,
]


def replayed(players: tuple[str, ...], actions: list[Action]) -> UrbanisationState:
    table = UrbanisationState.start(list(players))
    for kind, payload in actions:
        table.apply(kind, payload)
    return table


def offer(page: Page, key: str) -> Locator:
    return page.locator(f'.u-offers button[name="offer"][value="{key}"]')


def tick(taps: Taps, box: Locator, what: str) -> None:
    """One tap on a check box or radio button of an action form (it sends nothing)."""
    taps.touch(box, what)
    expect(box).to_be_checked()


def hire_button(page: Page, key: str) -> Locator:
    return page.locator(f'button[name="character"][value="{key}"]')


def vp_row(page: Page) -> list[int]:
    row = page.locator("table.u-track tbody tr.vp td")
    return [int(t.split()[0]) for t in row.all_inner_texts()]


def shot(page: Page, name: str) -> None:
    """A full-page screenshot, and one of the screen as the thumb sees it (`-screen`); the page
    is left scrolled as it was (a full-page screenshot may scroll it)."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-screen.png"))
    at = page.evaluate("scrollY")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.evaluate("y => scrollTo(0, y)", at)
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"{name} scrolls sideways: {width}"


def assert_recorded(database: Path, table_id: str, seeded: list[Action],
                    played: list[Action]) -> None:
    """The log holds exactly the turn meant, and its scores are those of a replay of it."""
    log = logged(database, table_id)
    recorded = [(e.kind, dict(e.payload)) for e in log[len(seeded):]]
    assert len(recorded) == len(played), recorded
    for (kind, payload), (meant_kind, meant) in zip(recorded, played, strict=True):
        assert kind == meant_kind and meant.items() <= payload.items(), (kind, payload, meant)


# Cy's invention in the example game's turn 2: the grey money card, its end bonus printed with it.
GREY_MONEY_INVENTION = act("invention", "Cy", start=0, to=1,
                           cards=[{"ability": "grey_money", "factory": "Car Factory"}])


def grey_money_invention(taps: Taps, name: str) -> None:
    """Cy opens "Acquire invention", chooses the grey money card as printed (its ability and end
    bonus in one choice: issue 42) and taps docking space 1; `name` is the screenshot's."""
    page = taps.page
    taps.tap(page.locator("#open-invention-card"), "open Acquire invention")
    form = page.locator("#invention-card")
    taps.choose(form.get_by_label("The card"), "grey_money|Car Factory", "the grey money card")
    shot(page, name)
    taps.tap(form.locator('button[name="to"][value="1"]'), "docking space 1")
    expect(page.locator("p.just-scored")).to_contain_text("Cy moved to docking space 1 free")


def test_a_typical_two_player_turn(page: Page, live_database: Path) -> None:
    """A typical 2-player turn: two hires; Ann produces, erects a skyscraper with the Architect,
    takes white work orders from a card's last space and buys grain; Ben collects taxes twice
    with the Tax Collector, erects a house, sows and passes; then the administration."""
    seeded = [TWO_SETUP, *TWO_TURN_1]
    table_id = seed(live_database, "urbanisation", TWO, tuple(seeded))
    page.goto(f"/urbanisation/{table_id}/")
    taps = Taps(page)
    taps.tap(hire_button(page, "architect"), "Ann hires the Architect")
    taps.tap(hire_button(page, "tax_collector"), "Ben hires the Tax Collector")
    expect(offer(page, "produce.3")).to_have_text("Factory 3: 2 orange goods +$2 +2 VP")
    expect(offer(page, "erect.house")).to_have_count(0)  # no empty ground
    expect(page.locator('.u-offers button[value^="taxes"]')).to_have_count(0)  # no citizen
    shot(page, "offers-ann-phase-1")
    # "×2" is told apart from the other rows' "×2" by its row; read out, it names the building
    expect(offer(page, "erect.administrative.2")).to_have_accessible_name(
        "administrative buildings ×2 −$4 +4 VP")
    expect(offer(page, "erect.administrative.2")).to_be_visible()
    taps.tap(offer(page, "produce.3"), "Ann produces")
    expect(offer(page, "taxes.tax_collector")).to_have_text("Twice, with the Tax Collector +$2")
    shot(page, "offers-ben-phase-1")
    taps.tap(offer(page, "taxes.tax_collector"), "Ben collects taxes twice")
    expect(offer(page, "erect.skyscraper")).to_have_text("Skyscraper −$2 +2 VP")  # Architect
    expect(page.locator(".u-offer-erect .badge")).to_have_text("Architect")
    taps.tap(offer(page, "erect.skyscraper"), "Ann's skyscraper")
    taps.tap(offer(page, "erect.house"), "Ben's house")
    tick(taps, page.locator(".u-offer-work_orders").get_by_label(
        "The last space of its card (+$1)"), "the last space")
    shot(page, "offers-work-orders")
    taps.tap(offer(page, "work_orders.white.3"), "Ann takes 3 white")
    expect(offer(page, "sow.2")).to_have_text("Sow 2 −2 grain")
    shot(page, "offers-ben-sows")
    taps.tap(offer(page, "sow.2"), "Ben sows 2")
    expect(offer(page, "trade_grain.buy.2")).to_have_text("Buy 2 −$2 +2 grain")
    expect(page.locator(".u-offer-trade_grain .badge")).to_have_count(0)
    taps.tap(offer(page, "trade_grain.buy.2"), "Ann buys 2 grain")
    taps.tap(page.get_by_role("button", name="Ben passes", exact=True), "Ben passes")
    taps.tap(page.get_by_role("button", name="Do the administration"), "administration")
    expect(page.get_by_role("heading", name="Turn 3: Ben hires a character")).to_be_visible()
    shot(page, "after-the-turn")

    assert_recorded(live_database, table_id, seeded, TWO_TURN_2)
    meant = replayed(TWO, [*seeded, *TWO_TURN_2])
    assert vp_row(page) == [meant.vp(p) for p in TWO]
    taps.held_to("Urbanisation: a typical turn (2 players)", 12)


def test_attract_a_factory_seen_before_takes_2_taps(page: Page, live_database: Path) -> None:
    """The phone saw Ann's factory 3 (orange, 2 goods, the Bakery) at an earlier table; at this
    one the card is offered beside the work orders: one tap, nothing typed (issue 26: 2)."""
    earlier = seed(live_database, "urbanisation", TWO, (TWO_SETUP, *TWO_TURN_1))
    page.goto(f"/urbanisation/{earlier}/")
    seeded = [TWO_SETUP, *hire("double_orders", "mill_worker", players=list(TWO))]
    table_id = seed(live_database, "urbanisation", TWO, tuple(seeded))
    page.goto(f"/urbanisation/{table_id}/")
    taps = Taps(page)
    chip = page.locator('.u-offer-attract button[value="attract.3.new"]')
    expect(chip).to_have_text("3 Bakery 2 goods new +2 VP")
    shot(page, "attract-seen-before")
    taps.tap(chip, "Ann attracts factory 3")
    expect(page.locator("p.just-scored")).to_have_text(
        "Ann attracted factory 3 Bakery (orange): +2 VP.")
    assert_recorded(live_database, table_id, seeded, [act(
        "attract", "Ann", number=3, colour="orange", goods=2, name="Bakery", upgrade=None)])
    taps.held_to("Urbanisation: attract a factory seen before", 2)


def test_an_invention_seen_before_takes_3_taps(page: Page, live_database: Path) -> None:
    """The phone saw the Professor's two cards at an earlier table (the example game's turn
    3); here Cy opens "Acquire invention", chooses the grey money card as printed (its end
    bonus with it: issue 42) and taps docking space 1."""
    earlier = seed(live_database, "urbanisation", ("Ann", "Ben", "Cy"),
                   (EXAMPLE_SETUP, *EXAMPLE_TURN_1, *EXAMPLE_TURN_2, *EXAMPLE_TURN_3[:4]))
    page.goto(f"/urbanisation/{earlier}/")
    seeded = [EXAMPLE_SETUP, *EXAMPLE_TURN_1, *EXAMPLE_TURN_2[:3]]
    table_id = seed(live_database, "urbanisation", ("Ann", "Ben", "Cy"), tuple(seeded))
    page.goto(f"/urbanisation/{table_id}/")
    taps = Taps(page)
    grey_money_invention(taps, "invention-seen-before")
    assert_recorded(live_database, table_id, seeded, [GREY_MONEY_INVENTION])
    taps.held_to("Urbanisation: take an invention seen before", 3)


def test_turn_1_of_the_example_game(page: Page, live_database: Path) -> None:
    """The example game's turn 1 for Ann, Ben and Cy (companion/rules/urbanisation_example.py):
    one-tap offers, and the detailed forms for Cy's territory and factory card."""
    seeded = [EXAMPLE_SETUP]
    players = ("Ann", "Ben", "Cy")
    table_id = seed(live_database, "urbanisation", players, tuple(seeded))
    page.goto(f"/urbanisation/{table_id}/")
    taps = Taps(page)
    for key in ("mill_worker", "farmer", "double_orders"):
        taps.tap(hire_button(page, key), f"hire {key}")
    expect(offer(page, "trade_grain.buy.3")).to_have_text("Buy 3 −$4 +5 grain")  # 2 free
    expect(page.locator(".u-offer-trade_grain .badge")).to_have_text("Mill Worker")
    shot(page, "example-ann-phase-1")
    taps.tap(offer(page, "trade_grain.buy.3"), "Ann: Mill Worker and 3 bought")
    taps.tap(offer(page, "trade_grain.buy.4"), "Ben buys 4")
    orders = page.locator(".u-offer-work_orders")
    # Cy hired the Double work orders: its box stands ticked, as the one-tap buttons play it.
    expect(orders.get_by_label("Play the Double work orders", exact=False)).to_be_checked()
    taps.tap(offer(page, "work_orders.orange.2"), "Cy: 2 orange, doubled")
    taps.tap(offer(page, "erect.house"), "Ann's house")
    expect(offer(page, "sow.farmer.1")).to_have_text("Sow 1 and 2 on the Farmer −3 grain")
    taps.tap(offer(page, "sow.farmer.1"), "Ben sows")
    tick(taps, orders.get_by_label("The last space of its card (+$1)"), "last space")
    taps.tap(offer(page, "work_orders.grey.1"), "Cy: 1 grey")
    taps.tap(offer(page, "work_orders.white.2"), "Ann: 2 white")
    taps.tap(offer(page, "work_orders.orange.1"), "Ben: 1 orange")
    taps.tap(page.locator("#act-buy_land"), "open Buy land")
    land = page.locator("#act-buy_land")
    taps.enter(land.get_by_label("Price markers in it ($1 each)"), "2")
    tick(taps, land.get_by_label("2 grounds"), "2 grounds")
    taps.tap(land.get_by_role("button", name="Buy the territory"), "Cy buys land")
    taps.tap(page.get_by_role("button", name="Ann passes", exact=True), "Ann passes")
    taps.tap(page.get_by_role("button", name="Ben passes", exact=True), "Ben passes")
    attract = page.locator("#act-attract")
    taps.tap(attract, "open Attract industry")
    taps.enter(attract.get_by_label("Factory number"), "3")
    taps.choose(attract.get_by_label("Goods colour"), "orange")
    # A card new to this phone: its production space is entered (a card seen before is not).
    tick(taps, attract.locator('input[name="goods"][value="2"]'), "2 goods")
    # With the inventions the card is chosen from the list: no invention card names Cy's
    # factory 3, so it is another factory (one choice; typing "Bakery" took 7).
    taps.choose(attract.get_by_label("Which factory (for invention bonuses)"), "other",
                "another factory")
    shot(page, "example-attract")
    taps.tap(attract.get_by_role("button", name="Attract the factory: +2 VP"), "attract")
    taps.tap(page.get_by_role("button", name="Do the administration"), "administration")
    expect(page.get_by_role("heading", name="Turn 2: Cy hires a character")).to_be_visible()

    assert_recorded(live_database, table_id, seeded, EXAMPLE_TURN_1)
    meant = replayed(players, [*seeded, *EXAMPLE_TURN_1])
    assert vp_row(page) == [meant.vp(p) for p in players]
    # 27 taps: choosing "another factory" is one choice where typing "Bakery" took 7 (33);
    # issue 26 counts the scrolls too (4: 31). Now 28 and 3 scrolls: a factory card new to this
    # phone has its goods tapped (the form guessed 2), a card seen before is one tap in all.
    taps.held_to("Urbanisation: turn 1 of the example game (3 players)", 31)


def test_the_one_tap_actions_fit_the_phone_in_german(page: Page, live_database: Path) -> None:
    seeded = [TWO_SETUP, *TWO_TURN_1, *hire("architect", "tax_collector", players=list(TWO)),
              act("pass", "Ann")]
    table_id = seed(live_database, "urbanisation", TWO, tuple(seeded))
    page.goto(f"/urbanisation/{table_id}/")
    tap_and_load(page, page.get_by_role("link", name="Deutsch"))  # the German page loaded
    expect(offer(page, "taxes.tax_collector")).to_have_text(  # a soft hyphen where it breaks
        "Zweimal, mit dem Steuer\u00adeintreiber +2 $")
    expect(offer(page, "erect.administrative")).to_contain_text("−3 $ +2 SP")
    shot(page, "offers-german")  # and nothing scrolls sideways
    for chip in page.locator(".u-chip").all():
        box = chip.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def test_the_card_links_cover_none_of_a_long_turn_order(page: Page, live_database: Path) -> None:
    """The turn order with each player's character ("Ben Farmer", "Cy Double work orders")
    takes a row of its own, and the card forms' links ("Acquire invention", "Attract
    industry") the row below: they covered the bottom of the order's chips, reaching out of
    their row to stay as tall as the chips beside them."""
    table_id = seed(live_database, "urbanisation", ("Ann", "Ben", "Cy"),
                    (EXAMPLE_SETUP, *EXAMPLE_TURN_1[:4]))
    page.goto(f"/urbanisation/{table_id}/")
    chips = [chip.bounding_box() for chip in page.locator(".u-turn .u-order li").all()]
    links = [link.bounding_box() for link in page.locator(".u-card-link").all()]
    assert len(chips) == 3 and len(links) == 2, (chips, links)
    assert max(c["y"] + c["height"] for c in chips) < min(link["y"] for link in links)  # wrapped
    for link in links:
        assert not any(overlap(link, chip) for chip in chips), (link, chips)


def test_the_cards_seen_and_the_characters_fit_the_phone_in_german(
        page: Page, live_database: Path) -> None:
    """Issue 26's screens in German: the characters with one hired (in its place, disabled),
    a factory seen before beside the work orders, an invention seen before opened."""
    earlier = seed(live_database, "urbanisation", ("Ann", "Ben", "Cy"),
                   (EXAMPLE_SETUP, *EXAMPLE_TURN_1, *EXAMPLE_TURN_2, *EXAMPLE_TURN_3[:4]))
    page.goto(f"/urbanisation/{earlier}/")
    tap_and_load(page, page.get_by_role("link", name="Deutsch"))
    hiring = seed(live_database, "urbanisation", ("Ann", "Ben", "Cy"),
                  (EXAMPLE_SETUP, *EXAMPLE_TURN_1, *EXAMPLE_TURN_2[:1]))
    page.goto(f"/urbanisation/{hiring}/")
    taken = page.locator("button.u-char.taken")
    expect(taken).to_have_count(1)
    expect(taken).to_be_disabled()
    expect(page.locator("button.u-char")).to_have_count(9)  # all in their places
    shot(page, "german-characters")
    acting = seed(live_database, "urbanisation", ("Ann", "Ben", "Cy"),
                  (EXAMPLE_SETUP, *EXAMPLE_TURN_1, *EXAMPLE_TURN_2[:3]))
    page.goto(f"/urbanisation/{acting}/")
    tap_and_load(page, page.locator("#open-invention-card"))
    expect(page.locator('#invention-card option[value="grey_money|Car Factory"]')).to_contain_text(
        "3 $ (statt 2 $) für graue Waren")
    shot(page, "german-invention-seen-before")
    two = seed(live_database, "urbanisation", TWO, (TWO_SETUP, *TWO_TURN_1))
    page.goto(f"/urbanisation/{two}/")
    fresh = seed(live_database, "urbanisation", TWO,
                 (TWO_SETUP, *hire("double_orders", "mill_worker", players=list(TWO))))
    page.goto(f"/urbanisation/{fresh}/")
    expect(page.locator('.u-offer-attract button[value="attract.3.new"]')).to_have_text(
        "3 Bakery 2 Waren neu +2 SP")
    shot(page, "german-attract-seen-before")


def test_a_one_tap_action_without_javascript(browser: Browser, live_database: Path,
                                             browser_context_args: dict[str, Any]) -> None:
    seeded = [TWO_SETUP, *TWO_TURN_1, *hire("architect", "tax_collector", players=list(TWO))]
    table_id = seed(live_database, "urbanisation", TWO, tuple(seeded))
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    try:
        phone = context.new_page()
        phone.goto(f"/urbanisation/{table_id}/")
        tap_and_load(phone, offer(phone, "produce.3"))
        expect(phone.locator("p.just-scored")).to_have_text(
            "Ann produced 2 goods at factory 3 Bakery (orange): $2, +2 VP.")
        assert_recorded(live_database, table_id, seeded,
                        [act("produce", "Ann", factory=3, orders={"orange": 2})])
    finally:
        context.close()


# Issue 42: the Urbanisation rows, each played on a phone that has seen none of the cards, from
# the screen the previous player's tap left (the turn at the top). Before (commit 9f20af8, the
# detailed forms): an invention 6, a Professor turn 7, a new factory 9, a named one over an old
# one 10.

def after_previous(page: Page, live_database: Path, seeded: list[Action],
                   previous: Callable[[Page], Locator]) -> str:
    """A table seeded up to one action before `seeded`, whose last action is then tapped on
    this phone (not counted): the screen is the one the table has when its turn comes."""
    table_id = seed(live_database, "urbanisation", ("Ann", "Ben", "Cy"), tuple(seeded[:-1]))
    page.goto(f"/urbanisation/{table_id}/")
    tap_and_load(page, previous(page))
    assert_recorded(live_database, table_id, seeded[:-1], seeded[-1:])
    return table_id


def test_issue_42_an_invention_in_3_taps(page: Page, live_database: Path) -> None:
    """Cy takes the grey money card, its ability and end bonus printed together (one choice),
    at docking space 1: open, the card, the space."""
    seeded = [EXAMPLE_SETUP, *EXAMPLE_TURN_1, *EXAMPLE_TURN_2[:3]]
    table_id = after_previous(page, live_database, seeded,
                              lambda page: hire_button(page, "tax_collector"))
    taps = Taps(page)
    grey_money_invention(taps, "issue-42-invention")
    assert_recorded(live_database, table_id, seeded, [GREY_MONEY_INVENTION])
    taps.held_to("Urbanisation: an invention (issue 42)", 3)


def test_issue_42_a_professor_turn_in_4_taps(page: Page, live_database: Path) -> None:
    """Cy, who hired the Professor, takes both cards at docking space 2: open, card 1, card 2,
    the space (the Professor plays himself)."""
    seeded = [EXAMPLE_SETUP, *EXAMPLE_TURN_1, *EXAMPLE_TURN_2, *EXAMPLE_TURN_3[:3]]
    table_id = after_previous(page, live_database, seeded,
                              lambda page: hire_button(page, "any_factory"))
    taps = Taps(page)
    expect(page.locator("#open-invention-card .badge")).to_have_text("Professor")
    taps.tap(page.locator("#open-invention-card"), "open Acquire invention")
    form = page.locator("#invention-card")
    taps.choose(form.get_by_label("Card 1"), "grey_money|Car Factory", "card 1")
    taps.choose(form.get_by_label("Card 2"), "harvest_grain1|", "card 2")
    shot(page, "issue-42-professor")
    taps.tap(form.locator('button[name="to"][value="2"]'), "docking space 2")
    expect(page.locator("p.just-scored")).to_contain_text("Cy moved to docking space 2 for $1")
    assert_recorded(live_database, table_id, seeded, [act(
        "invention", "Cy", start=0, to=2, character="professor",
        cards=[{"ability": "grey_money", "factory": "Car Factory"},
               {"ability": "harvest_grain1", "factory": None}])])
    taps.held_to("Urbanisation: a Professor turn (issue 42)", 4)


def test_issue_42_attract_a_new_factory_in_3_taps(page: Page, live_database: Path) -> None:
    """Cy attracts factory 3 (orange, 2 goods; no invention card names it) onto his empty
    ground: open, its number, its production space (which factory: another, preselected;
    where: new, preselected; filled: yes)."""
    seeded = [EXAMPLE_SETUP, *EXAMPLE_TURN_1[:14]]
    table_id = after_previous(page, live_database, seeded, lambda page: page.get_by_role(
        "button", name="Ben passes", exact=True))
    taps = Taps(page)
    taps.tap(page.locator("#open-attract-card"), "open Attract industry")
    form = page.locator("#attract-card")
    taps.choose(form.get_by_label("Factory number"), "3", "its number")
    shot(page, "issue-42-attract")
    taps.tap(form.get_by_role("button", name="2 orange goods"), "its production space")
    expect(page.locator("p.just-scored")).to_have_text("Cy attracted factory 3 (orange): +2 VP.")
    assert_recorded(live_database, table_id, seeded, [act(
        "attract", "Cy", number=3, colour="orange", goods=2, name="other", upgrade=None,
        filled=True)])
    taps.held_to("Urbanisation: attract a new factory (issue 42)", 3)


def test_issue_42_attract_a_named_factory_over_an_old_one(page: Page,
                                                          live_database: Path) -> None:
    """Cy attracts factory 5, the Oil Refinery (grey, 2 goods), over his factory 3 though he
    has an empty ground: open, its number, which factory, where, its production space. The
    rulebook has no factory list (which factory a card is, is read from it) and leaves the
    place to the player ("To attract industry, you have to choose between two options")."""
    seeded = [EXAMPLE_SETUP, *EXAMPLE_TURN_1, *EXAMPLE_TURN_2[:9]]
    table_id = after_previous(page, live_database, seeded,
                              lambda page: offer(page, "work_orders.grey.2"))
    taps = Taps(page)
    taps.tap(page.locator("#open-attract-card"), "open Attract industry")
    form = page.locator("#attract-card")
    taps.choose(form.get_by_label("Factory number"), "5", "its number")
    taps.choose(form.get_by_label("Which factory"), "Oil Refinery", "the Oil Refinery")
    taps.choose(form.get_by_label("Where"), "3", "over factory 3")
    shot(page, "issue-42-upgrade")
    taps.tap(form.get_by_role("button", name="2 grey goods"), "its production space")
    assert_recorded(live_database, table_id, seeded, [act(
        "attract", "Cy", number=5, colour="grey", goods=2, name="Oil Refinery", upgrade=3)])
    taps.held_to("Urbanisation: attract a named factory over an old one (issue 42)", 5)


def test_a_tap_again_where_a_refused_pass_was_is_held_not_the_next_players(
        page: Page, live_database: Path) -> None:
    """Found at a table: Ann's "passes" tapped on a screen another phone had made outdated (Ann
    had passed there) was refused, and the page as it is put Ben's "passes" in its place; a
    second tap 0.8 s later, as a player does when "it did not work", recorded Ben's pass. The
    tapped action gone from the answer, a tap at the same place within a second is held, as
    after a page that moved (the refusal says nothing was recorded); later, it is meant."""
    seeded = [TWO_SETUP, *TWO_TURN_1[:-3]]  # Ann's turn in the last action phase
    table_id = seed(live_database, "urbanisation", TWO, tuple(seeded))
    url = f"/urbanisation/{table_id}/"
    page.goto(url)
    ann_passes = page.get_by_role("button", name="Ann passes", exact=True)
    ann_passes.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(1100)
    box = ann_passes.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    record(live_database, url, list(TWO), [TWO_TURN_1[-3]])  # another phone: Ann passes
    touch(page, x, y)
    page.wait_for_function("() => document.documentElement.dataset.answers === '1'")
    ben_passes = page.get_by_role("button", name="Ben passes", exact=True)
    expect(ben_passes).to_be_visible()
    under = page.evaluate("([x, y]) => { const b = document.elementFromPoint(x, y);"
                          " return b && b.closest('button') && b.closest('button').textContent; }",
                          [x, y])
    assert under and "Ben passes" in under  # the next player's pass came where the thumb is
    assert page.evaluate("document.documentElement.dataset.bounceMs") == "1000"
    page.wait_for_timeout(500)  # past an ordinary bounce (REACT_MS), within the second held
    touch(page, x, y)  # held, not sent: after a refusal, said by the refusal itself
    page.wait_for_timeout(600)
    passes = [e.payload.get("player") for e in logged(live_database, table_id) if e.kind == "pass"]
    assert passes == ["Ann"]
    expect(page.get_by_role("alert")).to_contain_text("this tap was not recorded")
    page.wait_for_timeout(600)
    touch(page, x, y)  # over a second after the answer: meant
    expect(page.locator("p.just-scored")).to_contain_text("Ben passed")

