"""The score strip at 390x844: every running total and the last action, with its Undo, in view
at the top of a mid-game page and at its very end (5th Avenue's scores used to be some 2,000 px
down); its Undo takes the last action back in place."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.rules.urbanisation_example import TURN_1
from tests.browser.helpers import tap_and_load
from tests.browser.states import (
    FIFTH,
    STREET,
    URBAN,
    URBAN_ACTIONS,
    URBAN_ADMINISTRATION,
    YARD,
    YARD_MID,
    seed,
)
from tests.tables import FIFTH_AVENUE

MID_GAME = {
    "yard": (YARD, YARD_MID, "Cy bought a skyscraper"),
    "fifth_avenue": (FIFTH, tuple(FIFTH_AVENUE[1][:32]), "Ben scored 52nd St West"),
    "street": (STREET, ((("card", {"player": "Mia", "street": "Mia", "site": 1,
                                     "card": {"project": None, "double": False, "roof": True,
                                              "gift": False, "floor": None, "no_gifts": False,
                                              "income": [], "prestige": [
                                                  {"each": "flat", "amount": 3,
                                                   "project": None}]}}),)),
               "Mia built a roof on site 1"),
    "urbanisation": (URBAN, URBAN_ACTIONS, "Cy took the Double work orders card"),
}


def in_view(page: Page) -> None:
    strip = page.locator(".score-strip")
    expect(strip).to_be_visible()
    box = strip.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844 + 0.5


@pytest.mark.parametrize("slug", sorted(MID_GAME))
def test_the_strip_is_in_view_everywhere_and_its_undo_works(page: Page, live_server: str,
                                                            live_database: Path,
                                                            slug: str) -> None:
    players, actions, last = MID_GAME[slug]
    table_id = seed(live_database, slug, players, actions)
    page.goto(f"{live_server}/{slug}/{table_id}/")
    strip = page.locator(".score-strip")
    in_view(page)
    expect(strip).to_contain_text(f"Last: {last}")
    for player in players:
        expect(strip).to_contain_text(player)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    in_view(page)
    tap_and_load(page, strip.get_by_role("button", name="Undo"))
    in_view(page)
    expect(strip).not_to_contain_text(f"Last: {last}")
    expect(page.get_by_role("navigation", name="Undo and redo")
           .get_by_role("button", name="Redo")).to_be_enabled()


def test_four_long_names_take_two_lines_of_totals_on_a_small_phone(page: Page, live_server: str,
                                                                  live_database: Path) -> None:
    """Found at a table: four 24-character names took four lines of the strip, a third of a
    320x568 screen. Two totals a line at most: a long name is cut short (whole everywhere
    else, and for a screen reader), its total never."""
    names = ("Bartholomew Featherstone", "Jürgen Größe-Bäumler von", "Annabelle Montgomery-Fox",
             "Maximilian Oberhuber Jr.")
    bought = tuple(("buy", {"player": name, "building": "museum"}) for name in names[:2])
    table_id = seed(live_database, "yard", names, bought)
    page.set_viewport_size({"width": 320, "height": 568})
    page.goto(f"{live_server}/yard/{table_id}/")
    totals = page.locator(".strip-totals > span")
    expect(totals).to_have_count(4)
    lines = {round(box["y"]) for box in (t.bounding_box() for t in totals.all()) if box}
    assert len(lines) == 2, lines
    for total in totals.all():
        score = total.locator("strong").bounding_box()
        assert score and score["x"] + score["width"] <= 320, score  # every total shown
    expect(page.locator(".strip-totals")).to_contain_text("Bartholomew Featherstone 0")


def test_the_page_s_foot_stays_above_a_tall_strip(page: Page, live_server: str,
                                                 live_database: Path) -> None:
    """Found at a table: six long names at 320x568 made the strip 233 px tall, and at the very
    end of the page the blank pad's link lay under it, a tap there landing on the strip. The
    page keeps room for the strip however tall it is."""
    names = ("Maximilian-Alexander Böh", "Jo & <b>\"Kim\"</b>", "Lea Sophie Marie", "Maximilian K.",
             "Ömer Bartholomäus", "Sophie-Charlotte W.")
    bought = tuple(("buy", {"player": name, "building": "museum"}) for name in names[:2])
    table_id = seed(live_database, "yard", names, bought)
    page.set_viewport_size({"width": 320, "height": 568})
    page.goto(f"{live_server}/yard/{table_id}/")
    strip = page.locator(".score-strip")
    strip_box = strip.bounding_box()
    assert strip_box and strip_box["height"] > 144, strip_box  # taller than the 9rem kept
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(100)
    link = page.get_by_role("link", name="Blank pad (PDF)")
    box, strip_box = link.bounding_box(), strip.bounding_box()
    assert box and strip_box and box["y"] + box["height"] <= strip_box["y"], (box, strip_box)


@pytest.fixture
def small_german_phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """A 320x568 phone that asks for German."""
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": 320,
                                                                            "height": 568}},
                                  extra_http_headers={"Accept-Language": "de"})
    yield context.new_page()
    context.close()


def test_undo_keeps_its_place_when_redo_comes_beside_it_on_a_small_phone(
        small_german_phone: Page, live_server: str, live_database: Path) -> None:
    """Found at a table: at 320 px in German, Redo beside Undo pushed Undo onto a line of its
    own, at the left; a second tap where Undo had been undid nothing."""
    table_id = seed(live_database, "yard", YARD, YARD_MID)
    page = small_german_phone
    page.goto(f"{live_server}/yard/{table_id}/")
    undo = page.locator(".score-strip form[action*='/undo#'] button")
    before = undo.bounding_box()
    tap_and_load(page, undo)
    expect(page.locator(".score-strip form[action*='/redo#'] button")).to_be_visible()
    after = undo.bounding_box()
    assert before and after and abs(after["x"] - before["x"]) < 2, (before, after)
    assert abs(after["y"] - before["y"]) < 8, (before, after)  # under the thumb still
    # What was undone on a line of its own above both, not squeezed beside them into
    # 67 px ("Rückgän/gig gemac…", found at a table at 390 px in German).
    words = page.locator("#recorded .strip-words").bounding_box()
    assert words and words["width"] > 250 and words["y"] + words["height"] <= after["y"]


def test_the_last_action_s_words_cut_short_are_read_whole_with_a_tap(
        small_german_phone: Page, live_server: str, live_database: Path) -> None:
    """Found at a table: at 320 px in German the strip's "Zuletzt: ..." was cut after two lines
    ("Clara hat die Karte…" hid that she discarded it), and a tap on it did nothing."""
    table_id = seed(live_database, "urbanisation", URBAN, (*URBAN_ADMINISTRATION, TURN_1[-1]))
    page = small_german_phone
    page.goto(f"{live_server}/urbanisation/{table_id}/")
    words = page.locator("#recorded .strip-words")
    cut = words.evaluate("e => e.scrollHeight > e.clientHeight + 1")
    assert cut, words.inner_text()  # the words are longer than the strip shows
    short = words.bounding_box()
    words.click()
    whole = words.bounding_box()
    assert short and whole and whole["height"] > short["height"], (short, whole)
    assert not words.evaluate("e => e.scrollHeight > e.clientHeight + 1")
    assert whole["y"] + whole["height"] <= 568  # in view, the strip grown up over the page
    words.click()
    again = words.bounding_box()
    assert again and again["height"] == short["height"]
