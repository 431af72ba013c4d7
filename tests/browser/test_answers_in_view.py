"""Every answer in view, covering nothing (issue 23), in Chromium at 390x844 with touch: a
refusal is said under its typed field, in the page's flow, or in the score strip (issue 45),
so no field to fix is covered;
after a tap whose answer changes what comes next (who starts, Dirk's deal, a scoring, the end),
that answer is in view; without JavaScript the answer's page comes back at the tapped form.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from companion.rules.urbanisation_example import SETUP as SETUP_URBAN
from companion.rules.urbanisation_example import TURN_1
from tests.browser.helpers import tap_and_load
from tests.browser.states import (
    FIFTH,
    FIFTH_PLAYING,
    FIFTH_SET_UP,
    STREET,
    STREET_MID,
    URBAN,
    URBAN_ADMINISTRATION,
    URBAN_FINAL,
    YARD,
    YARD_MID,
    seed,
)

# The element at a point of the screen is the one asked about (or inside it): nothing covers it.
UNCOVERED = ("e => { const r = e.getBoundingClientRect();"
             " const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
             " return e.contains(hit) || (hit && hit.closest('label') === e.closest('label'))"
             "   ? 'uncovered' : hit && hit.outerHTML.slice(0, 80); }")


def assert_uncovered(fields: list[Locator]) -> None:
    """Each field, brought into view, is itself at its centre."""
    for field in fields:
        field.scroll_into_view_if_needed()
        assert field.evaluate(UNCOVERED) == "uncovered", field


def assert_in_view(page: Page, element: Locator) -> None:
    box = element.bounding_box()
    strip = page.locator(".score-strip").bounding_box()
    assert box is not None and box["y"] >= 0, box
    assert box["y"] + box["height"] <= (strip["y"] if strip else 844), (box, strip)


def test_what_an_action_gave_is_in_view_however_long_its_words(page: Page, live_database: Path,
                                                              shot: Any) -> None:
    """The score strip may cut the last action's words short, never what it gave: after an
    Urbanisation administration ("Administration: harvest, factories, citizens, feeding, grain
    refill — Turn 1 administered; Cy is the Mayor of turn 2.") its points were cut off at the
    second line. They have a line of their own now, and the line still fits beside its Undo
    (the strip keeps its height)."""
    table_id = seed(live_database, "urbanisation", URBAN, (*URBAN_ADMINISTRATION, TURN_1[-1]))
    page.goto(f"/urbanisation/{table_id}/")
    line = page.locator("#recorded p")
    gave = line.locator(".strip-gave")
    expect(gave).to_have_text("— Ann +5 · Ben +4 · Cy +1")
    expect(line).to_contain_text("Last: Administration")
    shot(page, "strip-gave-urbanisation")
    box, shown = gave.bounding_box(), line.bounding_box()
    undo = page.locator("#recorded button").bounding_box()
    assert box and shown and undo
    assert shown["y"] <= box["y"] and box["y"] + box["height"] <= shown["y"] + shown["height"]
    assert box["y"] + box["height"] <= 844  # in view, at the foot of the screen
    assert shown["height"] <= undo["height"], (shown, undo)
    # On a 320 px phone one line beside Undo held "Last:…" alone (found at a table, in German):
    # the words take two lines there.
    page.set_viewport_size({"width": 320, "height": 568})
    words = line.locator(".strip-words")
    lines = words.evaluate("e => e.getBoundingClientRect().height / "
                           "parseFloat(getComputedStyle(e).lineHeight)")
    assert round(lines) == 2, lines
    expect(gave).to_be_in_viewport()


def test_dirks_deal_of_5_instead_of_6_is_refused_in_the_strip(page: Page,
                                                               live_database: Path) -> None:
    """About the deal as a whole, not one field: said in the score strip (issue 45), which
    covers none of the fields."""
    table_id = seed(live_database, "yard", ("Ann", "Ben"), ())
    page.goto(f"/yard/{table_id}/")
    for label, count in (("Churches", "1"), ("Parks", "2"), ("Skyscrapers", "2")):
        page.get_by_label(label, exact=True).fill(count)
    tap_and_load(page, page.get_by_role("button", name="Dirk got these 6"))
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("6")
    expect(page.locator(".score-strip #refusal")).to_be_in_viewport()
    deal = page.locator("#dirk")
    assert_uncovered(deal.locator("input:not([type=hidden])").all())
    assert_uncovered([page.get_by_label(label, exact=True)
                      for label in ("Churches", "Parks", "Skyscrapers")])


def test_a_correction_without_what_for_is_refused_beside_that_field(page: Page,
                                                                   live_database: Path) -> None:
    table_id = seed(live_database, "yard", YARD, ())
    page.goto(f"/yard/{table_id}/")
    tap_and_load(page, page.locator("a[data-open]", has_text="Corrections"))
    page.get_by_label("Count").fill("2")
    tap_and_load(page, page.get_by_role("button", name="Set the count"))
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("What for")
    assert_in_view(page, refusal)
    what_for = page.get_by_label("What for").first
    expect(what_for).to_have_attribute("aria-invalid", "true")
    note, field = refusal.bounding_box(), what_for.bounding_box()
    assert note and field and 0 <= note["y"] - (field["y"] + field["height"]) <= 24, (note, field)
    form = page.locator("form[action*='/correct#']")
    assert_uncovered([form.locator("select[name=owner]"), form.locator("select[name=building]"),
                      form.locator("input[name=count]"), form.locator("input[name=reason]")])


# After a tap whose answer changes what comes next, that answer comes into view ----------------


def tap_far_down(page: Page, target: Locator) -> None:
    """Tap a control with the page scrolled as far down as it goes while the control is on
    screen (its answer, above it, starts off screen wherever the page allows)."""
    target.evaluate("e => e.scrollIntoView({block: 'end'})")
    page.evaluate("window.scrollBy(0, 120)")
    tap_and_load(page, target)


def test_who_starts_comes_into_view(page: Page, live_database: Path) -> None:
    table_id = seed(live_database, "yard", YARD, ())
    page.goto(f"/yard/{table_id}/")
    opener = page.locator("a[data-open]", has_text="Set-up")
    if opener.count():
        tap_and_load(page, opener)
    for seat, (cards, total) in enumerate(((5, 22), (4, 21), (6, 25))):
        page.locator(f"input[name=cards_{seat}]").fill(str(cards))
        page.locator(f"input[name=total_{seat}]").fill(str(total))
    tap_far_down(page, page.get_by_role("button", name="Who starts?"))
    expect(page.locator(".starts")).to_have_text("★ Ben starts.")
    expect(page.locator(".starts")).to_be_in_viewport()


def test_dirks_deal_brings_the_buying_into_view(page: Page, live_database: Path) -> None:
    table_id = seed(live_database, "yard", ("Ann", "Ben"), ())
    page.goto(f"/yard/{table_id}/")
    for label, count in (("Churches", "2"), ("Parks", "2"), ("Skyscrapers", "2")):
        page.get_by_label(label, exact=True).fill(count)
    tap_far_down(page, page.get_by_role("button", name="Dirk got these 6"))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(page.get_by_role("heading", name="Who bought what?")).to_be_in_viewport()


def test_a_yard_scoring_comes_into_view(page: Page, live_database: Path) -> None:
    table_id = seed(live_database, "yard", YARD, YARD_MID)
    page.goto(f"/yard/{table_id}/")
    tap_far_down(page, page.get_by_role("button", name="Scoring A card drawn: score now"))
    expect(page.get_by_role("heading", name="Scoring A done")).to_be_in_viewport()


def test_who_places_first_in_5th_avenue_comes_into_view(page: Page,
                                                      live_database: Path) -> None:
    table_id = seed(live_database, "fifth_avenue", FIFTH, FIFTH_SET_UP)
    page.goto(f"/fifth_avenue/{table_id}/")
    tap_far_down(page, page.get_by_role("button", name="Ben", exact=True))
    expect(page.get_by_role("heading", name="Ben: place a skyscraper")).to_be_in_viewport()


def test_alea_s_bid_from_the_cards_flipped_comes_into_view(page: Page,
                                                          live_database: Path) -> None:
    """The black cards the table flipped for Alea, typed in the fold-out: the answer (Alea in
    or out) decides who may win, and comes into view (the fold-out it replaces was longer)."""
    table_id = seed(live_database, "fifth_avenue", FIFTH, (*FIFTH_PLAYING, *[
        ("move", {"commissioner": "white", "to": to})
        for to in ("34w", "times", "52w", "central_park", "city_hall")]))
    page.goto(f"/fifth_avenue/{table_id}/")
    page.locator("summary", has_text="Alea's chance").tap()
    page.locator("input[name=high]").fill("12")
    tap_and_load(page, page.get_by_role("button", name="Alea's chance"))
    page.locator("summary", has_text="The black cards you flipped").tap()
    page.locator("input[name=cards]").fill("4 6 5 4")
    use = page.get_by_role("button", name="Use these cards")
    use.evaluate("e => e.scrollIntoView({block: 'start'})")  # the auction's top above the screen
    tap_and_load(page, use)
    verdict = page.locator("#auction p", has_text="Alea's cards:")
    expect(verdict).to_contain_text("Alea is in")
    expect(verdict).to_be_in_viewport()
    assert_in_view(page, verdict)
    expect(page.locator(".score-strip #recorded")).to_contain_text(
        "Alea draws 4 6 5 4 and bids 19 against 12: Alea is in.")


@pytest.mark.parametrize("button", ["Use these cards", "Draw Alea's cards"])
def test_the_high_bid_typed_goes_with_alea_s_bid(page: Page, live_database: Path,
                                                 button: str) -> None:
    """Issue 41, found at a table: the high bid typed counted only after "Alea's chance" was
    tapped; typed and then "Use these cards" (or "Draw"), it was dropped and "Alea won" offered
    though Alea's 8 was below the players' 13. The high bid now stands in Alea's bid's form."""
    table_id = seed(live_database, "fifth_avenue", FIFTH, (*FIFTH_PLAYING, *[
        ("move", {"commissioner": "white", "to": to})
        for to in ("34w", "times", "52w", "central_park", "city_hall")]))
    page.goto(f"/fifth_avenue/{table_id}/")
    page.get_by_label("High bid after your first bids (0 if both passed)").fill("22")
    if button == "Use these cards":
        page.locator("summary", has_text="The black cards you flipped").tap()
        page.locator("input[name=cards]").fill("4 4")
    tap_and_load(page, page.get_by_role("button", name=button))
    expect(page.locator("#auction p", has_text="Alea's cards:")).to_contain_text(
        "against 22: Alea is out.")  # Alea's bids are 8 to 21
    expect(page.get_by_role("button", name=re.compile("^Alea won"))).to_have_count(0)


def test_urbanisations_final_scoring_brings_the_result_into_view(page: Page,
                                                                live_database: Path) -> None:
    table_id = seed(live_database, "urbanisation", URBAN, URBAN_FINAL)
    page.goto(f"/urbanisation/{table_id}/")
    tap_far_down(page, page.get_by_role("button", name="Do the final scoring"))
    expect(page.get_by_role("heading", name="Final result")).to_be_in_viewport()
    expect(page.locator(".score-strip #recorded")).to_contain_text("Final scoring")


# Without JavaScript, the answer's page comes back at the tapped form ------------------------


def test_without_javascript_the_answer_comes_back_where_the_tapped_button_was(
        browser: Browser, browser_context_args: dict[str, Any], live_database: Path) -> None:
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    try:
        table_id = seed(live_database, "yard", YARD, YARD_MID)
        page.goto(f"/yard/{table_id}/")
        target = page.locator(".buyer").filter(
            has=page.get_by_role("heading", name="Cy", exact=True)).get_by_role(
            "button", name=re.compile(r"^Skyscraper \d+$"))
        target.evaluate("e => e.scrollIntoView({block: 'center'})")
        before = target.bounding_box()
        with page.expect_navigation():
            target.tap()
        expect(target).to_have_text("Skyscraper 4")
        assert re.search(r"#at-buy(-[0-9]+)?$", page.url), page.url
        assert target.evaluate("(e, at) => e.form.id === at", page.url.split("#")[1])
        after, strip = target.bounding_box(), page.locator(".score-strip").bounding_box()
        assert before and after and strip
        assert 0 <= after["y"] and after["y"] + after["height"] <= strip["y"], (after, strip)
        assert abs(after["y"] - before["y"]) < 250, (before, after)  # not the page's top
    finally:
        context.close()


def test_without_javascript_a_refusal_comes_back_at_the_tapped_form_and_says_why_in_view(
        browser: Browser, browser_context_args: dict[str, Any], live_database: Path) -> None:
    """Found at a table: Buy land with more price markers than money, refused without
    JavaScript, came back at the page's top, why in a box there and under the field 1,170 px
    down. It comes back at the tapped form, the field's words in view, and the strip says
    why wherever the page stands."""
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    try:
        players, log = TABLES["urbanisation"]
        page.goto(f"/urbanisation/{seed(live_database, 'urbanisation', players, log)}/"
                  "?open=buy_land")
        form = page.locator("details#act-buy_land form")
        form.get_by_label("Price markers").fill("20")
        form.get_by_role("radio").first.check()
        with page.expect_navigation():
            form.get_by_role("button", name="Buy the territory").tap()
        said = page.locator("details#act-buy_land .field-error")
        expect(said).to_contain_text("has only $")
        expect(said).to_be_in_viewport()
        expect(page.locator(".score-strip .error")).to_contain_text("has only $")
        strip = page.locator(".score-strip").bounding_box()
        box = said.bounding_box()
        assert box and strip and box["y"] + box["height"] <= strip["y"], (box, strip)
        expect(page.locator("main > .error")).to_have_count(0)  # said once, not at the top
    finally:
        context.close()


FOLD_OUTS = {  # a fold-out's link (then its summary), what it opens, its table, where it lies
    "Urbanisation's Buy land, at the foot": (
        "#act-buy_land", "#act-buy_land summary", "details#act-buy_land", "urbanisation", "foot"),
    "Urbanisation's Sow, at the foot": (
        "#act-sow", "#act-sow summary", "details#act-sow", "urbanisation", "foot"),
    # 605 px tall, opened from 262 px down: it stood 190-795 px, "Who starts?" under the strip.
    "the yard's Set-up, near the top": (
        "#setup", "#setup summary", "details#setup", "yard", "top"),
    # Near the page's end: the page did not move, the form under the strip.
    "the street's deck is empty, at the foot": (
        "#empty-2", "#empty-2 summary", "details#empty-2", "street", "foot"),
    # A factory card's form, opened from its link beside the turn order (it stays a link).
    # Ben's turn, with an empty ground (Cy at the table above has none, and no factory: his
    # factory card form is a sentence saying so, `test_no_factory_room_is_said_in_its_form`).
    "Urbanisation's factory card, at the foot": (
        "#open-attract-card", "#open-attract-card", "#attract-card", "urbanisation-room",
        "foot"),
}
TABLES = {"urbanisation": (URBAN, (SETUP_URBAN, *TURN_1[:11])),
          "urbanisation-room": (URBAN, (SETUP_URBAN, *TURN_1[:14])), "yard": (YARD, YARD_MID),
          "street": (STREET, STREET_MID)}


@pytest.mark.parametrize("case", FOLD_OUTS)
def test_a_fold_out_opened_comes_into_view(page: Page, live_database: Path, case: str) -> None:
    """A fold-out opened came open below the strip (found playing: Urbanisation's Buy land at
    the screen's foot, its button 300 px under the strip; one nearly as tall as the screen, or
    near the page's end, whose foot stayed under it). The page moves up the least that shows
    it whole."""
    opener, tapped, opened, table, where = FOLD_OUTS[case]
    players, log = TABLES[table]
    slug = table.split("-")[0]
    page.goto(f"/{slug}/{seed(live_database, slug, players, log)}/")
    link = page.locator(f"a{opener}")
    foot = page.evaluate("document.querySelector('.score-strip').getBoundingClientRect().top")
    if where == "foot":
        link.evaluate("(e, foot) => scrollBy(0, e.getBoundingClientRect().bottom - foot + 2)",
                      foot)
    before = link.bounding_box()
    tap_and_load(page, link)
    box, after = page.locator(opened).bounding_box(), page.locator(tapped).bounding_box()
    assert box and after and before
    assert box["y"] >= 0 and box["y"] + box["height"] <= foot + 1, (box, foot)
    assert after["y"] < before["y"]  # moved up, no further than that takes:
    assert abs(box["y"] + box["height"] - foot) < 2, (box, foot)


def test_no_factory_room_is_said_in_its_form(page: Page, live_database: Path) -> None:
    """Found at a table: a player without an empty building ground and without a factory
    filled in the factory card form and was refused. Cy, in turn 1's second phase of the
    example game: the form says why in its place."""
    players, log = TABLES["urbanisation"]
    page.goto(f"/urbanisation/{seed(live_database, 'urbanisation', players, log)}/")
    tap_and_load(page, page.locator("a#open-attract-card"))
    form = page.locator("#attract-card")
    expect(form).to_contain_text("Cy has no empty building ground for a new factory and no "
                                 "factory to upgrade: no factory can be attracted now.")
    expect(form.locator("form")).to_have_count(0)

