"""Every tap counts once, in real Chromium at phone size with touch.

A double tap (two taps on the same screen point) on every kind of one-tap control of all four
games, at gaps from 60 to 200 ms, near the top and far down a mid-game page, with JavaScript on
and off, records exactly one action: the one the first tap named. A tap once the answer could
be seen is meant and recorded: two purchases 0.7 s apart, Undo three times, each 0.45 s after
the answer before. With JavaScript the page is updated in place and the controls stay where
they were, also after a refusal.

Each table is seeded straight into the live server's database through the real rules, so a test
starts at the state it is about.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Locator, Page, expect

from companion.rules.urbanisation_example import (
    SETUP,
)
from companion.views import actions
from companion.views.forms import ActionForm, key_made
from companion.views.taps import ghost_tap
from tests.browser.helpers import tap_and_load, touch, wait_until_quiet, wait_until_read
from tests.browser.states import (
    DIRK_DEAL,
    FIFTH,
    FIFTH_PLACING,
    FIFTH_PLAYING,
    FIFTH_SET_UP,
    STREET,
    STREET_BOUGHT,
    STREET_MID,
    URBAN,
    URBAN_ACTIONS,
    URBAN_ADMINISTRATION,
    URBAN_FINAL,
    YARD,
    YARD_MID,
    YARD_TIE,
    Action,
    logged,
    seed,
)
from tests.tables import FINISHED
from tests.yard_moves import buy

SETTLE_MS = 900  # after the second tap: long enough for any request it made to be answered
# Without JavaScript, a tap that reaches the server GHOST_TAP_SECONDS or more after its page was
# made is a person's, not a double tap's second: a loaded machine sometimes holds the second tap
# that long (Chromium sends it when the page it lands on can take it). Then the test taps again.
ATTEMPTS = 4


# The controls --------------------------------------------------------------------------------


def button(name: str) -> Callable[[Page], Locator]:
    return lambda page: page.get_by_role("button", name=name, exact=True)


def buyer_button(player: str, building: str) -> Callable[[Page], Locator]:
    heading = re.compile(rf"^{building.capitalize()} \d+$")
    return lambda page: (page.locator(".buyer")
                         .filter(has=page.get_by_role("heading", name=player, exact=True))
                         .get_by_role("button", name=heading))


def undo_redo(name: str) -> Callable[[Page], Locator]:
    return lambda page: (page.get_by_role("navigation", name="Undo and redo")
                         .get_by_role("button", name=name))


def plot(target: str) -> Callable[[Page], Locator]:
    return lambda page: page.locator(f'button.plot[value="{target}"]')


def library_site(site: int) -> Callable[[Page], Locator]:
    return lambda page: page.locator(".known-cards .known").first.get_by_role(
        "button", name=f"Site {site}", exact=True)


@dataclass(frozen=True)
class Control:
    """A one-tap control: the state it is tapped in, how to find it, and the action the first
    tap names (its kind and the payload fields that say who and what)."""

    name: str
    slug: str
    players: tuple[str, ...]
    seed: tuple[Action, ...]
    find: Callable[[Page], Locator]
    expected: Action
    path: str = ""
    open_first: str | None = None  # the fold-out to open before the tap (its link's words)


CONTROLS = [
    Control("yard purchase, far down", "yard", YARD, YARD_MID, buyer_button("Cy", "skyscraper"),
            ("buy", {"player": "Cy", "building": "skyscraper", "for": "Cy"})),
    Control("yard purchase, near the top", "yard", YARD, (), buyer_button("Ann", "museum"),
            ("buy", {"player": "Ann", "building": "museum"})),
    Control("yard gift for Dirk", "yard", ("Ann", "Ben"), DIRK_DEAL,
            button("Ben buys a park for Dirk"),
            ("buy", {"player": "Ben", "building": "park", "for": "Dirk"})),
    Control("yard scoring A", "yard", YARD, YARD_MID,
            button("Scoring A card drawn: score now"), ("score", {"scoring": "A"})),
    Control("yard scoring B", "yard", YARD, (*YARD_MID, ("score", {"scoring": "A"})),
            button("Scoring B card drawn: score now"), ("score", {"scoring": "B"})),
    Control("yard youngest", "yard", YARD, YARD_TIE, button("Ben"),
            ("youngest", {"player": "Ben"})),  # the set-up is open until the game starts
    Control("yard undo", "yard", YARD, YARD_MID, undo_redo("Undo"), ("undo", {})),
    Control("yard redo", "yard", YARD, (*YARD_MID, ("undo", {})), undo_redo("Redo"),
            ("redo", {})),
    Control("5th Avenue board saved", "fifth_avenue", FIFTH, (),  # a new phone: its page
            lambda page: page.get_by_role("button", name="Save the board").first,
            ("profile", {}), path="board"),
    Control("5th Avenue first placer", "fifth_avenue", FIFTH, FIFTH_SET_UP, button("Ben"),
            ("first_placer", {"player": "Ben"})),
    Control("5th Avenue skyscraper on a plot", "fifth_avenue", FIFTH, FIFTH_PLACING,
            plot("42w:2"), ("initial_skyscraper", {"district": "42w", "plot": 2})),
    Control("5th Avenue business on a plot, far down", "fifth_avenue", FIFTH, FIFTH_PLAYING,
            plot("52e:2"), ("business", {"district": "52e", "plot": 2})),
    Control("5th Avenue commissioner move", "fifth_avenue", FIFTH, FIFTH_PLAYING,
            button("Move the white commissioner to 34th St West"),
            ("move", {"commissioner": "white", "to": "34w"})),
    Control("5th Avenue option A", "fifth_avenue", FIFTH, FIFTH_PLAYING,
            button("A: Ann takes 3 skyscrapers"), ("skyscrapers", {"player": "Ann"})),
    Control("5th Avenue district scoring", "fifth_avenue", FIFTH,  # Ann's A, then Ben's turn
            (*FIFTH_PLAYING, ("skyscrapers", {"player": "Ann"}),
             ("move", {"commissioner": "white", "to": "34w"})),
            button("Score 34th St West"), ("score", {"district": "34w"})),
    Control("5th Avenue undo", "fifth_avenue", FIFTH, FIFTH_PLAYING, undo_redo("Undo"),
            ("undo", {})),
    Control("street library card", "street", STREET, STREET_BOUGHT, library_site(2),
            ("card", {"player": "Pit", "street": "Pit", "site": 2}), path="play/2"),
    Control("street upcoins", "street", STREET, STREET_MID, button("Take $2 from the deck"),
            ("upcoins", {"player": "Pit"})),
    Control("street redo", "street", STREET, (*STREET_MID, ("undo", {})), undo_redo("Redo"),
            ("redo", {})),
    Control("street final scoring", "street", tuple(FINISHED["street"][0]),
            tuple(FINISHED["street"][1][:-1]), button("Score the game"), ("finish", {})),
    Control("Urbanisation character", "urbanisation", URBAN, (SETUP,),
            lambda page: page.get_by_role("button", name=re.compile("^Farmer")),
            ("character", {"player": "Ann", "character": "farmer"})),
    Control("Urbanisation pass", "urbanisation", URBAN, URBAN_ACTIONS, button("Ann passes"),
            ("pass", {"player": "Ann"})),
    Control("Urbanisation work orders", "urbanisation", URBAN, URBAN_ACTIONS,
            lambda page: page.get_by_role("button", name=re.compile("^Orange")),
            ("work_orders", {"player": "Ann", "colour": "orange"}), open_first="Work orders"),
    Control("Urbanisation administration", "urbanisation", URBAN, URBAN_ADMINISTRATION,
            button("Do the administration"), ("administration", {})),
    Control("Urbanisation final scoring", "urbanisation", URBAN, URBAN_FINAL,
            button("Do the final scoring"), ("final", {})),
]
# Every control is double-tapped at two gaps with JavaScript and the two others without it: a
# double tap's second tap comes sooner than anyone can see the first one's answer and tap again
# (app.js: REACT_MS after it is painted; without JavaScript GHOST_TAP_SECONDS after the first).
GAPS = ((100, 200), (60, 150))
CASES = [
    pytest.param(control, gap, script,
                 id=f"{control.name}, {'js' if script else 'no js'}, {gap} ms")
    for n, control in enumerate(CONTROLS)
    for script in (True, False)
    for gap in GAPS[(n + script) % 2]
]


# Seeding and counting ------------------------------------------------------------------------


@pytest.fixture
def no_script_page(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """A phone with JavaScript off."""
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def double_tap(page: Page, target: Locator, gap_ms: int) -> None:
    """Two taps on the same screen point, `gap_ms` apart, where the first tap found the target."""
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touch(page, x, y)
    page.wait_for_timeout(gap_ms)
    touch(page, x, y)
    page.wait_for_timeout(SETTLE_MS)
    page.wait_for_load_state()


# The tests -----------------------------------------------------------------------------------


@pytest.fixture
def ghost_checks(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """For each action sent without JavaScript, how long after its page was made it reached the
    server's ghost-tap check (its form's key says when the page was made; the live server runs
    in this process)."""
    seen: list[float] = []

    def checked(form: ActionForm) -> bool:
        seen.append(time.time() - key_made(form.key.data))
        return ghost_tap(form)

    monkeypatch.setattr(actions, "ghost_tap", checked)
    return seen


@pytest.mark.parametrize(("control", "gap", "script"), CASES)
def test_a_double_tap_records_one_action_the_one_first_tapped(
    control: Control, gap: int, script: bool, live_database: Path, live_app: Flask,
    ghost_checks: list[float], request: pytest.FixtureRequest,
) -> None:
    phone: Page = request.getfixturevalue("page" if script else "no_script_page")
    for _attempt in range(ATTEMPTS):
        table_id = seed(live_database, control.slug, control.players, control.seed)
        phone.goto(f"/{control.slug}/{table_id}/{control.path}")
        if control.open_first:
            tap_and_load(phone, phone.locator("a[data-open]", has_text=control.open_first))
        target = control.find(phone)
        expect(target).to_be_enabled()
        if not script:
            wait_until_read(target)  # the first tap is a person's, not a ghost
        ghost_checks.clear()
        double_tap(phone, target, gap)
        log = logged(live_database, table_id)
        added = [(e.kind, dict(e.payload)) for e in log[len(control.seed):]]
        if script or not (len(added) == 2 and len(ghost_checks) == 2
                          and ghost_checks[1] >= live_app.config["GHOST_TAP_SECONDS"]):
            break  # else the second tap reached the server at a person's pace: again
    else:
        pytest.fail(f"no double tap in {ATTEMPTS} attempts: each time the second tap reached "
                    f"the server {live_app.config['GHOST_TAP_SECONDS']} s or more after its page")

    kind, named = control.expected
    assert len(added) == 1, added
    assert added[0][0] == kind and named.items() <= added[0][1].items(), added
    # Nor did the second tap follow a link the answer put under the thumb (the street's score
    # sheet, where "Score the game" was).
    at = phone.url.split("?")[0].split("#")[0]
    assert at.endswith((f"/{table_id}/{control.path}", f"/{table_id}/")), phone.url


def positions(area: Locator) -> list[tuple[float, float]]:
    """Where each control of an area is on the screen (its top-left corner)."""
    boxes = [b.bounding_box() for b in area.locator("button").all()]
    return [(b["x"], b["y"]) for b in boxes if b]


def assert_unmoved(after: list[tuple[float, float]], before: list[tuple[float, float]]) -> None:
    """The same controls at the same places, to within a pixel (scrolling snaps to pixels)."""
    assert len(after) == len(before)
    moved = [(a, b) for a, b in zip(after, before, strict=True)
             if abs(a[0] - b[0]) > 1 or abs(a[1] - b[1]) > 1]
    assert not moved, moved


@pytest.mark.parametrize(("seeded", "when"), [
    ((), "first"), (YARD_MID, "mid-game"),
    ((*YARD_MID, ("score", {"scoring": "A"})), "after-scoring"),
], ids=["first action", "mid-game", "right after a scoring"])
def test_after_an_action_the_controls_are_where_they_were(
    page: Page, live_database: Path, shot: Any, seeded: tuple[Action, ...], when: str
) -> None:
    table_id = seed(live_database, "yard", YARD, seeded)
    page.goto(f"/yard/{table_id}/")
    target = buyer_button("Cy", "skyscraper")(page)
    target.evaluate("e => e.scrollIntoView({block: 'center'})")  # in view, above the strip
    area = page.locator("section.buy")
    before, scrolled = positions(area), page.evaluate("scrollY")
    tap_and_load(page, target)
    expect(target).to_have_text(re.compile(r"^Skyscraper [1-9]"))
    assert_unmoved(positions(area), before)
    recorded = page.locator(".score-strip #recorded")  # said in the strip, over nothing
    expect(recorded.locator("p")).to_have_text("Last: Cy bought a skyscraper")
    expect(recorded.get_by_role("button", name="Undo")).to_be_visible()
    if seeded:
        assert page.evaluate("scrollY") == scrolled  # nothing above the area changed size
    shot(page, f"taps-in-place-{when}")  # scrolls, full page


def test_the_undo_line_takes_the_action_back_in_place(page: Page, live_database: Path,
                                                      shot: Any) -> None:
    table_id = seed(live_database, "yard", YARD, YARD_MID)
    page.goto(f"/yard/{table_id}/")
    target = buyer_button("Ben", "park")(page)
    tap_and_load(page, target)
    expect(target).to_have_text("Park 1")
    line = page.locator(".score-strip #recorded")
    expect(page.locator("#said")).to_have_attribute("role", "status")
    expect(page.locator("#said")).to_have_text("Ben bought a park")
    shot(page, "taps-undo-line")
    tap_and_load(page, line.get_by_role("button", name="Undo"))
    expect(target).to_have_text("Park 0")
    expect(line.locator("p")).to_have_text("Undone: Ben bought a park")
    expect(line.get_by_role("button", name="Redo")).to_be_visible()
    expect(page.locator("#said")).to_have_text("Undone: Ben bought a park")
    assert [e.kind for e in logged(live_database, table_id)][-2:] == ["buy", "undo"]


def test_six_purchases_in_a_row_with_nothing_over_the_next_button(
        page: Page, live_database: Path, shot: Any) -> None:
    """What each purchase recorded is said in the score strip: nothing floats over the page, so
    the point under the next Skyscraper button is that button, every time (issue 23)."""
    table_id = seed(live_database, "yard", YARD, ())
    page.goto(f"/yard/{table_id}/")
    target = buyer_button("Ann", "skyscraper")(page)
    target.evaluate("e => e.scrollIntoView({block: 'center'})")
    for n in range(1, 7):
        tap_and_load(page, target)
        expect(target).to_have_text(f"Skyscraper {n}")
        expect(page.locator(".score-strip #recorded")).to_contain_text("Ann bought a skyscraper")
        hit = target.evaluate("e => { const r = e.getBoundingClientRect();"
                              " const hit = document.elementFromPoint(r.left + r.width / 2,"
                              " r.top + r.height / 2);"
                              " return e.contains(hit) ? 'the button' : hit && hit.outerHTML; }")
        assert hit == "the button", (n, hit)
        for covered in ("the turn heading", "the undo bar"):
            box = page.locator("h1" if covered == "the turn heading" else ".undo-redo").first
            assert box.evaluate("e => { const r = e.getBoundingClientRect();"
                                " const y = r.top + r.height / 2;"
                                " if (y < 0 || y > innerHeight) return true;"  # scrolled away
                                " return e.contains(document.elementFromPoint(r.left + 8, y));"
                                " }"), (covered, n)
    shot(page, "taps-six-purchases")
    assert len(logged(live_database, table_id)) == 6


def test_a_refusal_is_said_in_the_strip_and_nothing_moves(page: Page, live_database: Path,
                                                          shot: Any) -> None:
    """Issue 45: "There are only 7 museums" was put under the tapped row, pushing every later
    row down about 100 px under the thumb. It is said in the score strip, which keeps its
    size: no control moves, none is covered."""
    all_museums = tuple(("buy", {"player": "Ann", "building": "museum"}) for _ in range(7))
    table_id = seed(live_database, "yard", YARD, all_museums)
    page.goto(f"/yard/{table_id}/")
    target = buyer_button("Cy", "museum")(page)
    target.evaluate("e => e.scrollIntoView({block: 'center'})")
    area = page.locator("section.buy")
    before, scrolled = positions(area), page.evaluate("scrollY")
    tap_and_load(page, target)
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("museum")
    expect(page.locator(".score-strip #refusal")).to_be_in_viewport()
    assert_unmoved(positions(area), before)
    assert page.evaluate("scrollY") == scrolled
    assert all(b.evaluate("e => { const r = e.getBoundingClientRect();"
                          " const strip = document.querySelector('.score-strip')"
                          "   .getBoundingClientRect();"
                          " return r.bottom < 0 || r.top > strip.top || e.contains("
                          " document.elementFromPoint(r.left + r.width / 2,"
                          " r.top + r.height / 2)); }") for b in area.locator("button").all())
    shot(page, "taps-refusal-in-the-strip")
    assert len(logged(live_database, table_id)) == 7


# Meant taps, quick ones included (issue 23) ----------------------------------------------------


def centre(target: Locator) -> tuple[float, float]:
    target.evaluate("e => e.scrollIntoView({block: 'center'})")
    box = target.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def answers(page: Page) -> int:
    return int(page.evaluate("document.documentElement.dataset.answers"))


def test_a_second_church_0_7_s_after_the_first_answer_is_recorded(page: Page,
                                                                 live_database: Path) -> None:
    # One purchase made: the set-up is folded away already, so nothing above the button changes.
    table_id = seed(live_database, "yard", YARD, (("buy", {"player": "Ben", "building": "park"}),))
    page.goto(f"/yard/{table_id}/")
    target = buyer_button("Ann", "church")(page)
    x, y = centre(target)
    touch(page, x, y)
    page.wait_for_function("() => document.documentElement.dataset.answers === '1'")
    expect(target).to_have_text("Church 1")  # the answer, seen
    page.wait_for_timeout(700)
    box = target.bounding_box()  # where the button is now (it stays, unless the page changed)
    assert box is not None
    touch(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(target).to_have_text("Church 2")
    assert [e.kind for e in logged(live_database, table_id)] == ["buy", "buy", "buy"]
    expect(page.locator(".score-strip #held")).to_have_count(0)  # no tap was held


def test_a_second_tap_held_as_the_same_tap_is_said_and_a_later_one_records(
        page: Page, live_database: Path) -> None:
    """A player buying two churches with a quick double tap: the second tap, 40 ms after the
    first, is held as the same tap (while the answer is on its way, or as a bounce on it), so
    one church is recorded, and the strip's line of it says so once it is, in place of a
    silence (a helper buying two theaters 0.2 s apart saw one recorded and no word why),
    covering nothing: the totals and Undo stay in view. A tap later records the second
    church, and its line says only that."""
    table_id = seed(live_database, "yard", YARD, (("buy", {"player": "Ben", "building": "park"}),))
    page.goto(f"/yard/{table_id}/")
    target = buyer_button("Ann", "church")(page)
    x, y = centre(target)
    touch(page, x, y)
    page.wait_for_timeout(40)
    touch(page, x, y)
    held = page.locator(".score-strip #held")
    expect(held).to_have_text("2 taps, 1 recorded.")
    expect(page.locator("#recorded .strip-words")).to_have_text("Last: Ann bought a church")
    expect(page.locator("#recorded").get_by_role("button", name="Undo")).to_be_visible()
    expect(target).to_have_text("Church 1")
    assert [e.kind for e in logged(live_database, table_id)] == ["buy", "buy"]
    page.wait_for_timeout(700)
    touch(page, x, y)
    expect(target).to_have_text("Church 2")
    expect(held).to_have_count(0)
    assert [e.kind for e in logged(live_database, table_id)] == ["buy", "buy", "buy"]


def test_another_action_tapped_while_the_answer_is_on_its_way_is_said_not_sent(
        page: Page, live_database: Path) -> None:
    """Found at a table: the upcoins taken, then a card built at once, whose tap came while
    the first answer was on its way: not sent (the answer may change what it means), and no
    word why. The strip's line now says so, as for a tap held where the page moved."""
    table_id = seed(live_database, "yard", YARD, (("buy", {"player": "Ben", "building": "park"}),))
    page.goto(f"/yard/{table_id}/")
    page.evaluate("""() => { const sent = window.fetch;  // each action's answer 0.4 s slower
      window.fetch = (url, options) => options && options.method === 'POST'
        ? new Promise(wait => setTimeout(wait, 400)).then(() => sent(url, options))
        : sent(url, options); }""")
    church, park = buyer_button("Ann", "church")(page), buyer_button("Ann", "park")(page)
    first = centre(church)
    box = park.bounding_box()  # beside it, in the same row
    assert box is not None
    touch(page, *first)
    page.wait_for_timeout(100)
    touch(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator(".score-strip #held")).to_have_text(
        "2 taps, 1 recorded: the second came as the page changed and was not sent; tap again "
        "if it was meant.")
    expect(church).to_have_text("Church 1")
    expect(park).to_have_text("Park 0")
    assert [e.kind for e in logged(live_database, table_id)] == ["buy", "buy"]


def test_undo_three_times_each_0_45_s_after_the_answer_undoes_three(page: Page,
                                                                   live_database: Path) -> None:
    """A player undoing three actions taps Undo again each time the answer shows: every tap is
    meant, however long the server takes (a tap while an answer is on its way is a bounce)."""
    table_id = seed(live_database, "yard", YARD, YARD_MID)
    page.goto(f"/yard/{table_id}/")
    x, y = centre(undo_redo("Undo")(page))
    for tap in range(1, 4):
        touch(page, x, y)
        page.wait_for_function(f"() => document.documentElement.dataset.answers === '{tap}'")
        page.wait_for_timeout(450)
    page.wait_for_timeout(SETTLE_MS)
    added = [e.kind for e in logged(live_database, table_id)][len(YARD_MID):]
    assert added == ["undo", "undo", "undo"], added
    assert answers(page) == 3


def test_without_javascript_a_tap_right_after_a_page_is_opened_is_recorded(
        no_script_page: Page, live_database: Path) -> None:
    """A player who knows where to tap: a page opened (not an action's answer) takes its first
    tap at once."""
    table_id = seed(live_database, "yard", YARD, ())
    no_script_page.goto(f"/yard/{table_id}/")
    target = buyer_button("Ann", "church")(no_script_page)
    with no_script_page.expect_navigation():
        target.tap()
    expect(buyer_button("Ann", "church")(no_script_page)).to_have_text("Church 1")
    assert [e.kind for e in logged(live_database, table_id)] == ["buy"]


@pytest.mark.parametrize("gap", [150, 250])
def test_without_javascript_the_answer_s_buttons_take_no_tap_in_its_first_moments(
        no_script_page: Page, live_app: Flask, live_database: Path, gap: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The browser holds a double tap's second tap while the answer loads and sends it the
    moment the page shows, however long the server took: the page itself ignores it (app.css,
    `main.answered`), with the server's own guard (GHOST_TAP_SECONDS) off."""
    monkeypatch.setitem(live_app.config, "GHOST_TAP_SECONDS", 0)
    table_id = seed(live_database, "yard", YARD, ())
    no_script_page.goto(f"/yard/{table_id}/")
    target = buyer_button("Ann", "church")(no_script_page)
    wait_until_read(target)
    double_tap(no_script_page, target, gap)
    assert [e.kind for e in logged(live_database, table_id)] == ["buy"]


def test_without_javascript_a_tap_within_a_second_of_the_answer_records_nothing(
        no_script_page: Page, live_database: Path) -> None:
    """The answer's page stands where its answer is, not where the thumb was (a yard purchase's
    put Scoring B's "Score now" under it at a table): a tap 0.6 s after it showed, whatever is
    there, records nothing, as app.js holds a tap where the page moved; a second church tapped
    1.2 s after it showed (once its buttons take taps, app.css `main.answered`) is meant."""
    table_id = seed(live_database, "yard", YARD, ())
    no_script_page.goto(f"/yard/{table_id}/")
    with no_script_page.expect_navigation():
        buyer_button("Ann", "church")(no_script_page).tap()
    target = buyer_button("Ann", "church")(no_script_page)
    expect(target).to_have_text("Church 1")
    no_script_page.wait_for_timeout(600)
    x, y = centre(target)
    touch(no_script_page, x, y)
    no_script_page.wait_for_timeout(SETTLE_MS)
    no_script_page.wait_for_load_state()
    expect(target).to_have_text("Church 1")
    assert [e.kind for e in logged(live_database, table_id)] == ["buy"]
    no_script_page.wait_for_timeout(max(0, 1200 - 600 - SETTLE_MS))
    with no_script_page.expect_navigation():
        touch(no_script_page, x, y)
    expect(buyer_button("Ann", "church")(no_script_page)).to_have_text("Church 2")
    assert [e.kind for e in logged(live_database, table_id)] == ["buy", "buy"]


# Nothing moves under a thumb ------------------------------------------------------------------

YARD_FIVE = ("Ann", "Ben", "Cy", "Dee", "Eve")
DIRK_CARDS = {"museum": "2", "theater": "1", "station": "1", "church": "1", "park": "1"}


def deal_dirk_his_first_cards(page: Page) -> Locator:
    for building, count in DIRK_CARDS.items():
        page.locator(f"input[name={building}]").fill(count)
    return page.get_by_role("button", name="Dirk got these 6")


@pytest.mark.parametrize(("players", "seeded", "ready"), [
    (YARD_FIVE, YARD_MID[:6], lambda page: page.get_by_role(
        "button", name="Scoring A card drawn: score now")),
    (("Ann", "Ben"), (), deal_dirk_his_first_cards),
], ids=["a scoring, five players", "Dirk's deal, two players"])
def test_a_second_tap_where_an_answer_moved_the_page_records_nothing(
    page: Page, live_database: Path, shot: Any, players: tuple[str, ...],
    seeded: tuple[Action, ...], ready: Callable[[Page], Locator],
) -> None:
    """An answer that brings its part into view moves the page: a scoring's points, the buy rows
    after Dirk's deal. A tap at the same point 0.6 s later, past a double tap's bounce (a thumb
    tapping again because the page jumped), records nothing: the page stands where no other
    action's button is under the thumb (after the scoring, the next scoring's and the purchases'
    buttons were), or, where every place is near one (the buy rows), holds a tap there as the
    same tap again for a second."""
    table_id = seed(live_database, "yard", players, seeded)
    page.goto(f"/yard/{table_id}/")
    target = ready(page)
    target.evaluate("e => e.scrollIntoView({block: 'center'})")
    box = target.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touch(page, x, y)
    page.wait_for_function("() => document.documentElement.dataset.answers === '1'")
    answered = page.evaluate("scrollY")
    page.wait_for_timeout(600)
    touch(page, x, y)
    page.wait_for_timeout(SETTLE_MS)
    added = logged(live_database, table_id)[len(seeded):]
    assert [e.kind for e in added] == ["score" if seeded else "dirk_deal"], added
    assert page.evaluate("scrollY") == answered
    shot(page, f"moved-page-{'scoring' if seeded else 'dirk'}")
    under = page.evaluate("([x, y]) => { const b = document.elementFromPoint(x, y)"
                          ".closest('form[data-action] button'); return b && b.textContent; }",
                          [x, y])
    held = page.evaluate("document.documentElement.dataset.bounceMs")
    if seeded:  # the points where "Score now" was: a place clear of buttons
        assert (under, held) == (None, "300")
    else:  # the buy rows fill the screen: no place is clear, a tap there is held for 1 s
        assert held == "1000"
        # Past a bounce, it may have been meant for what came there: said, with what to do.
        expect(page.locator(".score-strip #held")).to_have_text(
            "2 taps, 1 recorded: the second came as the page changed and was not sent; tap "
            "again if it was meant.")


def test_a_second_tap_after_a_change_is_confirmed_records_nothing(
        page: Page, live_database: Path, shot: Any) -> None:
    """"Confirm the change" is answered with the table page in place of its preview, at the
    same scroll: nothing scrolls, yet everything under the thumb is new, and a purchase button
    came to lie where Confirm was (a yard's theater; a street's site). A tap there 0.6 s later
    (a thumb tapping again because the page changed) used to buy it, held only as long as a
    double tap's bounce (0.3 s); it is held for a second, as after a page that moved."""
    players = ("Tobi", "Nina", "Paul")
    log = (buy("Tobi", "park"), buy("Nina", "museum"), buy("Paul", "park"),
           buy("Tobi", "museum"))
    table_id = seed(live_database, "yard", players, log)
    page.goto(f"/yard/{table_id}/?change=1")
    tap_and_load(page, buyer_button("Nina", "park")(page))
    confirm = page.get_by_role("button", name="Confirm the change")
    x, y = wait_until_quiet(page, confirm)
    touch(page, x, y)
    page.wait_for_function("() => document.documentElement.dataset.answers === '2'")
    under = page.evaluate("([x, y]) => { const b = document.elementFromPoint(x, y)"
                          ".closest('form[data-action] button'); return b && b.textContent; }",
                          [x, y])
    assert under, "no button under the thumb: the case tests nothing"
    assert page.evaluate("document.documentElement.dataset.bounceMs") == "1000"
    page.wait_for_timeout(600)
    touch(page, x, y)
    page.wait_for_timeout(SETTLE_MS)
    shot(page, "change-confirmed-second-tap")
    assert [e.kind for e in logged(live_database, table_id)][len(log):] == ["change"]


def test_an_action_tapped_while_a_fold_out_opens_is_said_not_sent(
        page: Page, live_database: Path) -> None:
    """Found at a table: a site tapped while "New: no project" was opening the card's chips
    was held (the answer may change what it means), and nothing said so: nothing was recorded
    to say it beside. Said as a tap that came as the page changed."""
    table_id = seed(live_database, "yard", YARD, (("buy", {"player": "Ben", "building": "park"}),))
    page.goto(f"/yard/{table_id}/")
    page.evaluate("""() => { const sent = window.fetch;  // each page fetched 0.4 s slower
      window.fetch = (url, options) => !options || !options.method || options.method === 'GET'
        ? new Promise(wait => setTimeout(wait, 400)).then(() => sent(url, options))
        : sent(url, options); }""")
    corrections = page.locator("a.fold-out#fix")
    corrections.scroll_into_view_if_needed()
    church = buyer_button("Ann", "church")(page)
    church.scroll_into_view_if_needed()
    answers = page.evaluate("document.documentElement.dataset.answers")
    touch(page, *centre(corrections))
    page.wait_for_timeout(100)
    touch(page, *centre(church))
    page.wait_for_function(f"() => document.documentElement.dataset.answers !== '{answers}'")
    expect(page.locator(".score-strip #held")).to_have_text(
        "A tap came as the page changed and was not sent: tap again if it was meant.")
    assert [e.kind for e in logged(live_database, table_id)] == ["buy"]
