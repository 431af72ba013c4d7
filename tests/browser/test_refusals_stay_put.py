"""Issue 45: a refusal neither moves nor covers anything, in Chromium at 390x844 with touch.

A refused tap's words were put in the page's flow between the rows (100-200 px), pushing every
later control down under the thumb; "the table changed on another phone" floated over the top
of the page. Now a refusal of a tap (a button or a chip, "no answer", what another phone
changed) is said in the score strip at the foot, over the strip's own lines: the strip keeps
its size, so every control stays where it was, and none is covered that was not before. Only
a refusal about a typed field is said beside that field."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from companion.rules.urbanisation_example import SETUP, TURN_1
from tests.browser.helpers import building_button, tap_and_load, wait_until_quiet
from tests.browser.states import (
    FIFTH,
    FIFTH_PLAYING,
    STREET,
    STREET_BOUGHT,
    URBAN,
    YARD,
    YARD_MID,
    seed,
)

# Every control of the page (the score strip's aside: words said there take its place, its
# Undo too, until tapped): where it is on the screen, and whether a tap at its centre reaches
# it (nothing covers it there) when that centre is on the screen.
CONTROLS = """() => Array.from(document.querySelectorAll(
    'main button, main input:not([type=hidden]), main select, main textarea, main a[href],'
    + ' main summary, header a')).filter(e => !e.closest('.score-strip')).map(e => {
  const r = e.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  let reached = null;
  if (r.width && r.height && x >= 0 && x < innerWidth && y >= 0 && y < innerHeight) {
    const hit = document.elementFromPoint(x, y);
    reached = !!hit && (e.contains(hit) || (!!hit.closest('label')
                                             && hit.closest('label') === e.closest('label')));
  }
  return {what: e.outerHTML.slice(0, 90), box: [r.left, r.top, r.width, r.height].map(Math.round),
          reached};
})"""


def controls(page: Page) -> list[dict[str, Any]]:
    return page.evaluate(CONTROLS)


def assert_nothing_moved_or_covered(before: list[dict[str, Any]],
                                    after: list[dict[str, Any]]) -> None:
    """The same controls in the same places, and each one a tap reached before, reached still."""
    assert [c["what"][:40] for c in after] == [c["what"][:40] for c in before]
    moved = [(b["what"], b["box"], a["box"]) for b, a in zip(before, after, strict=True)
             if b["box"] != a["box"]]
    assert not moved, moved
    covered = [b["what"] for b, a in zip(before, after, strict=True)
               if b["reached"] and not a["reached"]]
    assert not covered, covered


def said_in_the_strip(page: Page, words: str) -> None:
    note = page.locator(".score-strip #refusal")
    expect(note).to_contain_text(words)
    expect(note).to_be_in_viewport()


# A refused tap in each game -----------------------------------------------------------------

def yard_deal(page: Page, live_database: Path) -> tuple[Locator, str]:
    """Dirk's deal of 5 cards where 6 are due (Dirk plays at two-player tables)."""
    page.goto(f"/yard/{seed(live_database, 'yard', ('Ann', 'Ben'), ())}/")
    for label, count in (("Churches", "1"), ("Parks", "2"), ("Skyscrapers", "2")):
        page.get_by_label(label, exact=True).fill(count)
    return page.get_by_role("button", name="Dirk got these 6"), "6"


def fifth_avenue_cards(page: Page, live_database: Path) -> tuple[Locator, str]:
    """Alea's black cards typed before a value repeated: about the typed field (below)."""
    table_id = seed(live_database, "fifth_avenue", FIFTH, (*FIFTH_PLAYING, *[
        ("move", {"commissioner": "white", "to": to})
        for to in ("34w", "times", "52w", "central_park", "city_hall")]))
    page.goto(f"/fifth_avenue/{table_id}/")
    page.get_by_label("High bid after your first bids (0 if both passed)").fill("12")
    page.locator("summary", has_text="The black cards you flipped").tap()
    page.locator("input[name=cards]").fill("4 6 5")
    return page.get_by_role("button", name="Use these cards"), "No value has repeated yet"


def street_no_source(page: Page, live_database: Path) -> tuple[Locator, str]:
    """Pit's 2nd action, his own deck empty (so none is chosen for him, issue 42): a site
    tapped before saying where the card came from (a chip)."""
    empty = ("deck_empty", {"player": "Pit", "by": "Pit"})
    page.goto(f"/street/{seed(live_database, 'street', STREET, (*STREET_BOUGHT[:-1], empty))}/")
    page.locator("section.turn .known", has_text="office").first.get_by_role(
        "button", name="Site 1", exact=True).wait_for()
    row = page.locator("section.turn .known", has_text="office").first
    return row.get_by_role("button", name="Site 2", exact=True), "choose a deck or the public pile"


def urbanisation_sow(page: Page, live_database: Path) -> tuple[Locator, str]:
    """Ben sows 3 grain with room for 1: about the grain typed (below)."""
    table_id = seed(live_database, "urbanisation", URBAN, (SETUP, *TURN_1[:7]))
    page.goto(f"/urbanisation/{table_id}/")
    form = page.locator("#act-sow")
    tap_and_load(page, form)  # a closed tile is a link: only the open one draws its form
    expect(form).to_have_attribute("open", "")
    form.get_by_label("Grain on empty building grounds", exact=True).fill("3")
    return form.get_by_role("button", name="Sow"), "Ben has room for 1"


# 5th Avenue and Urbanisation offer no tap the rules refuse but on an outdated screen (below):
# their typed refusals are said beside their fields.
REFUSED_TAPS: dict[str, Callable[[Page, Path], tuple[Locator, str]]] = {
    "yard": yard_deal, "street": street_no_source}


@pytest.mark.parametrize("game", REFUSED_TAPS)
def test_a_refused_tap_moves_no_control_and_covers_none(page: Page, live_database: Path,
                                                        game: str, shot) -> None:
    target, words = REFUSED_TAPS[game](page, live_database)
    wait_until_quiet(page, target)
    before = controls(page)
    strip = page.locator(".score-strip").bounding_box()
    tap_and_load(page, target)
    said_in_the_strip(page, words)
    assert page.locator(".score-strip").bounding_box() == strip  # the strip kept its size
    assert_nothing_moved_or_covered(before, controls(page))
    shot(page, f"refusal-stays-put-{game}")
    # A tap on the words puts the strip's lines back.
    page.locator(".score-strip #refusal").tap()
    expect(page.locator("#refusal")).to_have_count(0)
    expect(page.locator(".strip-totals")).to_be_visible()


def test_a_refusal_in_the_strip_goes_once_its_chips_are_chosen(page: Page,
                                                               live_database: Path) -> None:
    """A site tapped before saying where the card came from: the chips are outlined and the
    strip says so; a chip chosen answers it, so the strip's words go and its lines come back
    (they stayed, stale, until the next action: found at the yard's end)."""
    target, words = street_no_source(page, live_database)
    tap_and_load(page, target)
    said_in_the_strip(page, words)
    sources = page.locator("fieldset.sources")
    expect(sources).to_have_attribute("aria-invalid", "true")
    sources.locator("label.chip:has(input:enabled)").first.tap()
    expect(page.locator("#refusal")).to_have_count(0)
    expect(sources).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator(".strip-totals")).to_be_visible()


def tap_in_place(page: Page, button: Locator) -> None:
    """Tap a button in the middle of the screen and wait for its answer: the button is still
    under the thumb (the page scrolls by whole pixels)."""
    button.evaluate("e => e.scrollIntoView({block: 'center'})")
    wait_until_quiet(page, button)
    box = button.bounding_box()
    tap_and_load(page, button)
    after = button.bounding_box()
    assert box and after and abs(after["y"] - box["y"]) < 1, (box, after)


def test_a_refusal_about_a_typed_field_stays_beside_it(page: Page, live_database: Path) -> None:
    """A correction without what it is for: said under that field, which is outlined; the
    tapped button below stays under the thumb (the page above it goes up instead)."""
    page.goto(f"/yard/{seed(live_database, 'yard', YARD, ())}/")
    tap_and_load(page, page.locator("a[data-open]", has_text="Corrections"))
    page.get_by_label("Count").fill("2")
    tap_in_place(page, page.get_by_role("button", name="Set the count"))
    what_for = page.get_by_label("What for").first
    expect(what_for).to_be_in_viewport()
    expect(what_for).to_have_attribute("aria-invalid", "true")
    note = page.locator("main #refusal")
    expect(note).to_contain_text("What for")
    assert page.locator(".score-strip #refusal").count() == 0


@pytest.mark.parametrize(("refused", "field"), [
    (fifth_avenue_cards, "input[name=cards]"), (urbanisation_sow, "input[name=seeds]")],
    ids=["Alea's cards", "grain sown"])
def test_a_typed_refusal_of_the_rules_is_said_under_the_field_typed(
        page: Page, live_database: Path, refused: Callable[[Page, Path], tuple[Locator, str]],
        field: str) -> None:
    """Found at tables: Alea's cards typed before a value repeated, and more grain typed than
    the empty grounds hold, were refused in the strip, over the totals; the words are about the
    field typed, so they go under it, and the tapped button stays under the thumb."""
    button, words = refused(page, live_database)
    tap_in_place(page, button)
    expect(page.locator("main #refusal")).to_contain_text(words)
    expect(page.locator(field)).to_have_attribute("aria-invalid", "true")
    assert page.locator(".score-strip #refusal").count() == 0


def test_a_refused_field_in_a_fold_out_closed_since_is_shown_open(page: Page,
                                                                   live_database: Path) -> None:
    """Found at a table: Alea's cards typed, their fold-out closed, Draw tapped: the refusal
    of the typed cards was said inside the closed fold-out, and the tap looked lost. The
    fold-out opens with the words under the field; Draw stays under the thumb."""
    fifth_avenue_cards(page, live_database)
    page.locator("summary", has_text="The black cards you flipped").tap()
    expect(page.locator("input[name=cards]")).to_be_hidden()
    tap_in_place(page, page.get_by_role("button", name="Draw Alea's cards"))
    expect(page.locator("main #refusal")).to_contain_text("No value has repeated yet")
    expect(page.locator("main #refusal")).to_be_visible()
    expect(page.locator("input[name=cards]")).to_have_attribute("aria-invalid", "true")


@pytest.mark.parametrize("width", [390, 320])
def test_an_amount_without_its_icon_is_said_under_the_stepper_row(page: Page,
                                                                  live_database: Path,
                                                                  width: int) -> None:
    """Found at a table: the street's refusal of a prestige typed without its icon was put
    inside the −, amount, + stepper, squeezed into a column 130 px wide that pushed + below it,
    and faded with the stepper of an amount with no icon. It goes under the amount's row; the
    tapped site stays under the thumb, and where the words under the amount would push it
    down with the amount kept on the screen (at 320 px it went 158 px down), they are said in
    the strip instead, the amount outlined."""
    page.set_viewport_size({"width": width, "height": 844 if width == 390 else 568})
    page.goto(f"/street/{seed(live_database, 'street', STREET, ())}/")
    page.locator("#project-office").tap()  # no card built before: the new card's chips
    amount = page.locator("input[name=prestige_amount_0]")
    amount.fill("2")
    tap_in_place(page, page.get_by_role("button", name="Build on site 1"))
    expect(amount).to_have_attribute("aria-invalid", "true")
    if width == 320:
        expect(page.locator(".score-strip #refusal")).to_contain_text("choose its icon")
        assert page.locator("main #refusal").count() == 1  # the strip's, in <main>, only
        return
    note = page.locator("main #refusal")
    expect(note).to_contain_text("choose its icon, or clear the amount")
    assert note.evaluate("e => !e.closest('.stepper') && e.previousElementSibling.matches("
                         "'.amount')"), note.evaluate("e => e.parentElement.outerHTML")
    plus = page.get_by_role("button", name="Prestige 1: amount: one more").bounding_box()
    field = amount.bounding_box()
    assert plus and field and abs(plus["y"] - field["y"]) < 8, (plus, field)  # one row
    stepper = page.locator(".effect.prestige .stepper")
    assert stepper.evaluate("e => getComputedStyle(e).opacity") == "1"


# No answer, and another phone's action -----------------------------------------------------

@pytest.fixture
def second_phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context: BrowserContext = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def test_a_tap_without_an_answer_is_said_in_the_strip(page: Page, live_database: Path,
                                                     shot) -> None:
    """No connection: the tap is kept to be sent later (issue 44), which is said in the strip,
    moving nothing."""
    page.goto(f"/yard/{seed(live_database, 'yard', YARD, YARD_MID)}/")
    target = building_button(page, "Ben", "park")
    target.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 200)")
    wait_until_quiet(page, target)
    before = controls(page)
    page.context.set_offline(True)
    try:
        tap_and_load(page, target)
        note = page.locator(".score-strip #waiting")
        expect(note).to_contain_text("Waiting for the connection")
        expect(note).to_be_in_viewport()
        assert_nothing_moved_or_covered(before, controls(page))
        shot(page, "refusal-no-answer")
    finally:
        page.context.set_offline(False)
    expect(page.locator(".score-strip #recorded")).to_contain_text("Ben bought a park",
                                                                   timeout=8000)


def test_another_phone_s_action_is_said_in_the_strip(page: Page, second_phone: Page,
                                                    live_database: Path, shot) -> None:
    url = f"/yard/{seed(live_database, 'yard', YARD, YARD_MID)}/"
    page.goto(url)
    second_phone.goto(url)
    building_button(page, "Cy", "museum").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 150)")
    page.wait_for_timeout(200)
    before = controls(page)
    tap_and_load(second_phone, building_button(second_phone, "Cy", "park"))
    note = page.locator(".score-strip #changed")
    expect(note).to_contain_text("The table changed on another phone.", timeout=3000)
    expect(note).to_be_in_viewport()
    assert_nothing_moved_or_covered(before, controls(page))
    box, strip = note.bounding_box(), page.locator(".score-strip").bounding_box()
    assert box and strip and box["y"] >= strip["y"], (box, strip)  # nothing over the page
    shot(page, "refusal-table-changed")
    tap_and_load(page, note.get_by_role("link", name="Reload"))
    expect(building_button(page, "Cy", "park")).to_contain_text("Park")
    expect(page.locator("#changed")).to_have_count(0)


def test_a_stale_undo_in_the_strip_keeps_the_page_where_it_was(
        page: Page, second_phone: Page, live_database: Path) -> None:
    """Found at a table: the strip's Undo, tapped on a screen another phone had made outdated,
    was refused and the page jumped to its top (the page's own Undo, at the top, was taken for
    the strip's)."""
    url = f"/yard/{seed(live_database, 'yard', YARD, YARD_MID)}/"
    page.goto(url)
    second_phone.goto(url)
    page.evaluate("window.scrollTo(0, 400)")
    before = controls(page)
    tap_and_load(second_phone, building_button(second_phone, "Cy", "park"))
    page.locator(".score-strip #changed").tap()  # told, and put away: the strip is back
    undo = page.locator(".score-strip").get_by_role("button", name="Undo")
    tap_and_load(page, undo)
    said_in_the_strip(page, "The table changed since this screen was loaded")
    assert page.evaluate("scrollY") == 400
    after = controls(page)
    assert [c["box"] for c in after] == [c["box"] for c in before]


def test_long_words_on_a_short_strip_are_read_whole(page: Page, second_phone: Page,
                                                    live_database: Path, shot) -> None:
    """Found at a table: at a 5th Avenue set-up the strip is two short lines, and a German
    refusal of a stale tap ended mid-sentence, its Reload below the screen. Words longer than
    the strip holds take the room they need above it."""
    from tests.browser.states import FIFTH_PLACING

    url = f"/fifth_avenue/{seed(live_database, 'fifth_avenue', FIFTH, FIFTH_PLACING)}/"
    page.goto(url)
    page.get_by_role("link", name="Deutsch").tap()
    page.wait_for_load_state()
    second_phone.goto(url)
    second_phone.locator(".districts button.plot:enabled").first.tap()
    page.locator(".score-strip #changed").tap()  # told, and put away
    tap_and_load(page, page.locator(".districts button.plot:enabled").nth(3))
    note = page.locator(".score-strip #refusal")
    expect(note).to_contain_text("Der Tisch hat sich geändert")
    assert note.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "words cut off"
    box = note.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844 + 1, box
    shot(page, "refusal-long-words-short-strip")
