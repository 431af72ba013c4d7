"""A whole 3-player Urbanisation game with Inventions, played by tapping in a real browser at phone
size: the scripted game of tests/rules/test_urbanisation_table.py, every action of it entered
through the page's forms, then the final scoring and the filled score sheet.

Ann, Ben and Cy sit in that order; Ann starts with $10, as everyone, and 2 building grounds (Ben 2,
Cy 1). The numbers checked on the way are worked out by hand in the rules test's comments.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect

from companion.rules.urbanisation_actions import CHARACTERS
from companion.rules.urbanisation_example import (
    SETUP,
    TURN_1,
    TURN_2,
    TURN_3,
    TURN_4,
    TURN_5,
    TURN_6,
)
from tests.browser.helpers import linked_pdf_text, squash, tap_and_load

Shot = Callable[[Page, str], Any]
# Without JavaScript an answer comes back at the tapped form's place, or at its fold-out's.
TABLE_URL = re.compile(r"/urbanisation/[^/]+/(#[a-z][a-z0-9_-]*)?$")
PLAYERS = ["Ann", "Ben", "Cy"]


# Helpers ------------------------------------------------------------------------------------


def done(page: Page, target: Locator) -> None:
    """Tap, wait for the table page again and check the app did not refuse."""
    tap_and_load(page, target)
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(page).to_have_url(TABLE_URL)


def start_table(page: Page) -> None:
    page.goto("/")
    page.get_by_role("radio", name="Urbanisation").check()
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_placeholder(f"Player {seat}", exact=True).fill(name)
    done(page, page.get_by_role("button", name="Start the game"))


def tile(page: Page, kind: str) -> Locator:
    """An action's tile of the current player, opened (a closed tile is a link: only the open
    one draws its form)."""
    found = page.locator(f"#act-{kind}")
    if found.get_attribute("open") is None:
        tap_and_load(page, found)
    expect(found).to_have_attribute("open", "")
    return found


def play_character(form: Locator, payload: Mapping[str, Any]) -> None:
    if payload.get("character"):
        form.get_by_label(f"Play the {CHARACTERS[payload['character']].name}").check()


def fill(form: Locator, label: str, value: object) -> None:
    form.get_by_label(label, exact=True).fill(str(value))


def enter(page: Page, kind: str, payload: Mapping[str, Any]) -> Locator:
    """Fill the form of one scripted action; returns the button that records it."""
    if kind == "character":
        return page.locator(f'button[name="character"][value="{payload["character"]}"]')
    if kind == "pass":
        return page.get_by_role("button", name=f"{payload['player']} passes")
    if kind == "administration":
        return page.get_by_role("button", name=re.compile("^Do the administration"))
    if kind == "effect":
        form = page.locator("#effect")
        tap_and_load(page, form)
        form.get_by_label("Player").select_option(payload["player"])
        fill(form, "Money ($, − to pay)", payload.get("money", 0))
        fill(form, "What for", payload.get("reason", ""))
        return form.get_by_role("button", name="Enter the effect")
    form = tile(page, kind)
    if kind not in ("sow", "produce", "taxes"):  # those play it with their own field or button
        play_character(form, payload)
    if kind == "buy_land":
        fill(form, "Price markers in it ($1 each)", payload["price_markers"])
        form.get_by_label("2 grounds" if payload["grounds"] == 2 else "1 ground").check()
        return form.get_by_role("button", name="Buy the territory")
    if kind == "erect":
        fill(form, "How many", payload.get("count", 1))
        return form.locator(f'button[name="building"][value="{payload["building"]}"]')
    if kind == "trade_grain":
        trade = "buy" if payload.get("buy") else "sell" if payload.get("sell") else "mill"
        if trade == "mill":
            return form.get_by_role("button", name="Only the Mill Worker's free grain")
        fill(form, "Grain", payload[trade])
        return form.get_by_role("button", name=f"{trade.capitalize()} grain")
    if kind == "sow":
        fill(form, "Grain on empty building grounds", payload.get("grain", 0))
        if payload.get("farmer"):
            fill(form, "Grain on the Farmer card (plays him)", payload["farmer"])
        return form.get_by_role("button", name="Sow")
    if kind == "work_orders":
        fill(form, "Work orders shown on the space", payload["count"])
        if payload.get("last"):
            form.get_by_label("It is the last empty space of its card").check()
        if payload.get("extra_colour"):
            form.get_by_label("Colour of the additional ones").select_option(
                payload["extra_colour"])
        return form.locator(f'button[name="colour"][value="{payload["colour"]}"]')
    if kind == "attract":
        fill(form, "Factory number", payload["number"])
        form.get_by_label("Goods colour").select_option(payload["colour"])
        form.locator(f'input[name="goods"][value="{payload["goods"]}"]').check()
        form.get_by_label("Which factory (for invention bonuses)").select_option(
            payload.get("name") or "")
        form.get_by_label("Where").select_option(str(payload.get("upgrade") or ""))
        if payload.get("filled") is False:
            form.get_by_label("All its work order spaces are filled", exact=True).uncheck()
        return form.get_by_role("button", name=re.compile("^Attract the factory"))
    if kind == "produce":
        if payload.get("character"):
            any_colour = form.locator("form.u-any")
            any_colour.get_by_label("With the Any colour: factory").select_option(
                str(payload["factory"]))
            for colour, n in payload["orders"].items():
                any_colour.locator(f'input[name="produce_{colour}"]').fill(str(n))
            return any_colour.get_by_role("button", name="Produce with the Any colour")
        at = form.locator("form", has=page.locator(
            f'input[name="factory"][value="{payload["factory"]}"]'))
        at.locator('input[name="goods"]').fill(str(sum(payload["orders"].values())))
        return at.get_by_role("button", name=f"Produce at factory {payload['factory']}")
    if kind == "taxes":
        name = "Twice, with the Tax Collector" if payload.get("character") else "Collect taxes"
        return form.get_by_role("button", name=re.compile(f"^{name}"))
    if kind == "invention":
        form.locator('select[name="start"]').select_option(str(payload.get("start") or ""))
        for k, card in enumerate(payload["cards"], start=1):
            form.locator(f'select[name="ability_{k}"]').select_option(card.get("ability") or "")
            form.locator(f'select[name="bonus_factory_{k}"]').select_option(
                card.get("factory") or "")
        return form.locator(f'button[name="to"][value="{payload["to"]}"]')  # the space: a tap
    raise AssertionError(f"no form for {kind}")


def perform(page: Page, kind: str, payload: Mapping[str, Any]) -> None:
    done(page, enter(page, kind, payload))


def play_turn(page: Page, actions: list[tuple[str, dict[str, Any]]]) -> None:
    for kind, payload in actions:
        perform(page, kind, payload)


def track(page: Page, line: str) -> list[str]:
    """One line of the tracking cards, Ann, Ben, Cy."""
    row = page.locator("table.u-track tbody tr", has=page.locator("th", has_text=line))
    return [squash(t) for t in row.locator("td").all_inner_texts()]


def note(page: Page) -> Locator:
    return page.locator("p.just-scored")


# The game -----------------------------------------------------------------------------------


def test_three_player_urbanisation_game_to_the_score_sheet(page: Page, shot: Shot) -> None:
    start_table(page)
    expect(page.get_by_role("heading", name="Set up the game")).to_be_visible()
    setup = SETUP[1]
    page.get_by_label("With Inventions").check()
    page.get_by_label("Start player").select_option(setup["start_player"])
    page.get_by_label("Starting money ($)").fill(str(setup["money"]))
    for seat, player in enumerate(PLAYERS):
        grounds = setup["grounds"][player]
        page.locator(f'input[name="grounds_{seat}"][value="{grounds}"]').check()
    shot(page, "urbanisation-01-setup")
    done(page, page.get_by_role("button", name="Start turn 1"))
    expect(note(page)).to_have_text("Set up for 3 players, with Inventions; Ann starts.")
    expect(page.get_by_role("heading", name="Turn 1: Ann hires a character")).to_be_visible()
    expect(page.locator(".u-mayor")).to_have_text("Ann is the start player, chosen at set-up.")
    expect(page.locator('button[name="character"]')).to_have_count(9)  # the Professor too
    assert track(page, "VP") == ["1", "1", "1"]
    assert track(page, "Money") == ["$10", "$10", "$10"]
    shot(page, "urbanisation-02-characters")

    # Turn 1, up to Cy's factory in phase 4.
    play_turn(page, TURN_1[:3])
    expect(page.get_by_role("heading", name="Turn 1, action 1 of 4: Ann")).to_be_visible()
    mill = tile(page, "trade_grain")
    expect(mill.locator("summary .badge")).to_have_text("Mill Worker")
    shot(page, "urbanisation-03-turn-actions")
    play_turn(page, TURN_1[3:-2])
    expect(note(page)).to_have_text("Ben passed.")
    assert track(page, "Grain") == ["5", "1 +1 sown +2 Farmer", "0"]
    assert track(page, "Work orders") == ["2 0 0", "0 0 1", "0 1 4"]  # white, grey, orange

    # Cy says his factory's work order spaces are not all filled: refused, nothing recorded, the
    # form stays open with what was chosen (another factory: no invention card names it).
    # Ticked, it is attracted.
    kind, payload = TURN_1[-2]
    tap_and_load(page, enter(page, kind, {**payload, "filled": False}))
    expect(page.locator(".error, .refusal")).to_have_text(
        "A factory is attracted only when all its work order spaces are filled (unless the Any "
        "factory character is played).")
    expect(page.get_by_text("Last: Ben passed")).to_be_visible()
    attract = page.locator("#act-attract")
    expect(attract).to_have_attribute("open", "")
    which = attract.get_by_label("Which factory (for invention bonuses)")
    expect(which).to_have_value("other")
    expect(which.locator("option:checked")).to_have_text("another factory")
    shot(page, "urbanisation-04-refused")
    attract.get_by_label("All its work order spaces are filled", exact=True).check()
    done(page, attract.get_by_role("button", name=re.compile("^Attract the factory")))
    expect(note(page)).to_have_text("Cy attracted factory 3 (orange): +2 VP.")
    expect(page.get_by_role("heading", name="Turn 1: the administration")).to_be_visible()
    expect(page.locator(".u-actions")).to_have_count(0)
    shot(page, "urbanisation-04b-administration-due")

    # The administration in one tap, and its report.
    perform(page, *TURN_1[-1])
    expect(note(page)).to_have_text("Turn 1 administered; Cy is the Mayor of turn 2.")
    report = page.locator("section#report")
    expect(report.get_by_role("heading", name="Administration of turn 1")).to_be_visible()
    for line in ("Harvest: 3 sown back, 3 more: 7 grain.",
                 "Citizens: 1 (houses 1, grain 7, work orders 1): 2 VP each, +2 VP.",
                 "Feeding: 1 grain eaten, 6 left: 1 VP per 3, +2 VP.",
                 "Turn 2: Cy receives the Mayor (+1 VP) and starts."):
        expect(report.get_by_text(line, exact=True)).to_be_visible()
    expect(page.locator(".u-mayor")).to_have_text(
        "Cy is the Mayor: the fewest VP after turn 1 (3, before the Mayor's +1).")
    assert track(page, "VP") == ["7", "5", "4"]
    assert track(page, "Characters") == ["–", "–", "Mayor"]
    shot(page, "urbanisation-05-administration-report")

    # Turn 2: Cy, the Mayor, produces at his factory 3; he also holds the Any colour.
    play_turn(page, TURN_2[:3])
    produce = tile(page, "produce")
    expect(produce.locator("summary .badge")).to_have_text("Any colour")
    expect(produce.get_by_role("button", name="Produce at factory 3")).to_be_visible()
    expect(produce.get_by_text("Factory 3 · orange · up to 2 goods; Cy holds 4 orange",
                               exact=True)).to_be_visible()
    expect(produce.get_by_label("Orange goods")).to_have_value("2")
    shot(page, "urbanisation-05b-produce")
    play_turn(page, TURN_2[3:])
    # The upgrade is the Oil Refinery, a factory an invention card names: the tracking card says
    # so; the factory 3 under it, another factory, goes by its number alone.
    factories = track(page, "Factories")[2].replace("\u00ad", "")  # where it may break
    assert "Oil Refinery" in factories and "other" not in factories, factories

    # Turn 3: Cy's Professor takes both cards at docking space 2, one with the Oil Refinery's
    # end bonus chosen from the list (its 2 VP follow from the card).
    play_turn(page, TURN_3[:3])
    kind, payload = TURN_3[3]
    invention = enter(page, kind, payload)
    bonus = page.locator('#act-invention select[name="bonus_factory_2"]')
    expect(bonus.locator("option:checked")).to_have_text("2 VP with the Oil Refinery")
    expect(bonus.locator("xpath=..")).to_contain_text("Card 2: end bonus")
    shot(page, "urbanisation-05c-invention-form")
    done(page, invention)
    expect(note(page)).to_have_text(
        "Cy moved to docking space 2 for $1 and took 2 inventions (“Earn $3 (instead of $2) "
        "for grey goods”, “Receive 1 grain in the harvest; 2 VP at the end with the Oil "
        "Refinery”): +2 VP. Card played: Professor.")
    play_turn(page, TURN_3[4:])
    play_turn(page, TURN_4)
    expect(page.locator(".u-mayor")).to_have_text(
        "Ben is the Mayor: the fewest VP after turn 4 (21, before the Mayor's +1).")
    play_turn(page, TURN_5)
    play_turn(page, TURN_6)
    expect(page.get_by_role("heading", name="Turn 6 is over: the final scoring")).to_be_visible()
    assert track(page, "VP") == ["32", "32", "33"]

    done(page, page.get_by_role("button", name="Do the final scoring"))
    expect(note(page)).to_have_text("Final scoring done: Cy wins.")
    result = page.locator("section.result")
    expect(result.locator(".verdict")).to_have_text("Cy wins with 35 VP.")
    lines = [squash(t) for t in result.locator("ol.ranking li").all_inner_texts()]
    assert lines == ["1. Cy 35 winner", "2. Ann 34", "3. Ben 32"], lines  # no tie to break
    # Ann's and Cy's totals tie on 8: Ann's factory 8 is newer than Cy's 5.
    expect(result.get_by_text("Factory total 8, tied with Cy; the newest factory (8): +2 VP.")
           ).to_be_visible()
    expect(result.get_by_text("Factory total 8, tied; Ann's factory 8 is newer: no bonus.")
           ).to_be_visible()
    expect(result.get_by_text("Invention with the Oil Refinery: +2 VP.")).to_be_visible()
    expect(page.locator(".u-actions")).to_have_count(0)
    expect(page.locator("#effect")).to_have_count(0)
    shot(page, "urbanisation-06-final-result")

    sheet = squash(linked_pdf_text(page, "Score sheet (PDF, A4)"))
    for name in PLAYERS:
        assert name in sheet
    assert "Ranking: 1. Cy (35), 2. Ann (34), 3. Ben (32). Winner: Cy." in sheet, sheet
    assert sheet.count("Total 34 32 35") == 2, sheet  # by source and by turn
    assert "Set-up (first house) 1 1 1" in sheet and "Final scoring 2 0 2" in sheet, sheet
    assert "Citizens 16" in sheet and "Game in progress" not in sheet, sheet
    assert "Administration of turn 6" in sheet and "Final scoring • Ann: Factory total 8" in sheet


def test_four_players_with_long_names_fit_the_phone(page: Page, shot: Shot) -> None:
    """Four tracking cards side by side, long names, every tile open: no sideways scrolling."""
    names = ["Alexandrina Wilhelmina", "Bartholomew Fitzgerald", "Cy", "Dorothea Konstantinova"]
    page.goto("/")
    page.get_by_role("radio", name="Urbanisation").check()
    for seat, name in enumerate(names, start=1):
        page.get_by_placeholder(f"Player {seat}", exact=True).fill(name)
    done(page, page.get_by_role("button", name="Start the game"))
    page.get_by_label("With Inventions").check()
    page.get_by_label("Starting money ($)").fill("999")
    done(page, page.get_by_role("button", name="Start turn 1"))
    done(page, page.locator('button[name="character"][value="architect"]'))
    expect(page.get_by_role("heading", name=re.compile("Turn 1: .*Bartholomew"))).to_be_visible()
    shot(page, "urbanisation-07-four-players-characters")
    for key in ("farmer", "professor", "any_colour"):
        done(page, page.locator(f'button[name="character"][value="{key}"]'))
    for kind in ("buy_land", "erect", "trade_grain", "sow", "work_orders", "attract", "produce",
                 "taxes", "invention"):  # each tile opens alone, with its form
        opened = tile(page, kind)
        expect(page.locator(".u-act[open]")).to_have_count(1)
        expect(opened.locator(".u-body")).to_be_visible()  # no factory yet: produce says so
    shot(page, "urbanisation-08-four-players-invention-open")
    tap_and_load(page, page.locator("#effect"))
    expect(page.locator("#effect")).to_have_attribute("open", "")
    expect(page.locator(".u-act[open]")).to_have_count(0)
    expect(page.locator("table.u-track thead th")).to_have_count(5)
    shot(page, "urbanisation-08-four-players-effects-open")


def test_a_turn_works_without_javascript(
    browser: Browser, browser_context_args: dict[str, Any]
) -> None:
    """Set-up, a character, an action from a tile opened by its link: no script needed."""
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    try:
        start_table(page)
        page.get_by_label("Starting money ($)").fill("10")
        done(page, page.get_by_role("button", name="Start turn 1"))
        done(page, page.locator('button[name="character"][value="architect"]'))
        for key in ("farmer", "tax_collector"):
            done(page, page.locator(f'button[name="character"][value="{key}"]'))
        erect = tile(page, "erect")
        erect.get_by_label("Play the Architect").check()
        done(page, erect.locator('button[name="building"][value="administrative"]'))
        expect(note(page)).to_have_text("Ann erected 1 administrative building for $2: +2 VP. "
                                        "Card played: Architect.")
    finally:
        context.close()
