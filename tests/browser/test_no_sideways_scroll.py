"""24-character names never push a screen sideways at 390 px: every game's table page mid-game
and finished, every fold-out of it opened, its history, sharing and BG Stats pages, in English
and in German (the longer words), checked in real Chromium at the phone size."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from benchmarks.games import GAME_SCRIPTS, MID_GAME, PLAYERS
from tests.browser.states import seed
from tests.tables import renamed

# The third one without a space, in full-width letters (it pushed the history sideways: found
# by a tampering session).
LONG = ["Maximiliana Wolkensteins", "Bartholomäus Hohenlohe-Ö", "\uff57" * 24]
assert {len(name) for name in LONG} == {24}
PHONE = 390


def long_named(slug: str, finished: bool) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """The benchmark's scripted game of `slug` (mid-game or whole), players renamed to LONG."""
    names = dict(zip(PLAYERS[slug], LONG, strict=False))
    actions = GAME_SCRIPTS[slug]()
    actions = actions if finished else actions[:MID_GAME[slug]]
    return (tuple(names[p] for p in PLAYERS[slug]),
            tuple((kind, renamed(payload, names)) for kind, payload in actions))


def german_phone(browser: Browser, browser_context_args: dict[str, Any], width: int,
                 height: int) -> Any:
    """A phone of this size whose browser asks for German."""
    return browser.new_context(**{**browser_context_args,
                                  "viewport": {"width": width, "height": height}},
                               extra_http_headers={"Accept-Language": "de"})


def wider_than_the_phone(page: Any) -> list[str]:
    """What sticks out to the right of the screen, if anything (the page's own width first)."""
    return page.evaluate(
        """width => [document.documentElement.scrollWidth > width
             ? 'page ' + document.documentElement.scrollWidth : null,
           ...Array.from(document.querySelectorAll('main *'))
             .filter(e => e.getBoundingClientRect().right > width + 1)
             .slice(0, 3).map(e => e.tagName + '.' + e.className + ': '
                              + (e.textContent || '').trim().slice(0, 40))].filter(Boolean)""",
        PHONE)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("finished", [False, True], ids=["mid-game", "end"])
@pytest.mark.parametrize("slug", sorted(GAME_SCRIPTS))
def test_long_names_never_push_a_screen_sideways(
    slug: str, finished: bool, language: str, live_database: Path, browser: Browser,
    browser_context_args: dict[str, Any],
) -> None:
    players, actions = long_named(slug, finished)
    table = f"/{slug}/{seed(live_database, slug, players, actions)}/"
    context = browser.new_context(**browser_context_args, java_script_enabled=False,
                                  extra_http_headers={"Accept-Language": language})
    page = context.new_page()
    try:
        page.goto(table)
        opens = sorted(set(re.findall(r'href="\?open=([a-z0-9_-]+)', page.content())))
        paths = [table, *[f"{table}?open={name}" for name in opens], f"{table}share",
                 f"{table}history"]
        for path in paths:
            response = page.goto(path)
            assert response is not None and response.ok, path
            assert wider_than_the_phone(page) == [], path
        if f'href="{table}bgstats"' in page.content():  # a finished game: send it
            page.goto(f"{table}bgstats")
            assert wider_than_the_phone(page) == [], "bgstats"
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_building_name_fits_its_button_on_a_320_px_phone(
    language: str, live_database: Path, browser: Browser, browser_context_args: dict[str, Any],
) -> None:
    """Found at a table: at 320 px "Skyscraper" (and "Hochhaus") ran past its buy button's
    edges, cut at both ends."""
    players, actions = long_named("yard", False)
    table = f"/yard/{seed(live_database, 'yard', players, actions)}/"
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": 320,
                                                                            "height": 568}},
                                  extra_http_headers={"Accept-Language": language})
    page = context.new_page()
    try:
        page.goto(table)
        cut = page.evaluate("""() => [...document.querySelectorAll('.buyer .building')]
            .filter(b => b.scrollWidth > b.clientWidth).map(b => b.textContent.trim())""")
        assert page.locator(".buyer .building").count() >= 6 and cut == []
    finally:
        context.close()


@pytest.mark.parametrize("width", [320, 390])
def test_six_long_names_are_whole_in_the_yards_rows_and_columns(
    width: int, live_database: Path, browser: Browser, browser_context_args: dict[str, Any],
) -> None:
    """Found at a table: six players at 320 px, in German, their names broken inside words
    beside the buy rows ("Alexa/ndra") and over the majorities' columns ("Ma/xi/mil/ian")."""
    players = ("Maximilian", "Alexandra", "Sophie-Charlotte", "Jo", "Konstantin", "Bartholomew")
    buys = tuple(("buy", {"player": p, "building": b}) for p, b in zip(
        players, ["park", "church", "museum", "theater", "skyscraper", "park"], strict=True))
    table = f"/yard/{seed(live_database, 'yard', players, buys)}/"
    context = german_phone(browser, browser_context_args, width, 568)
    page = context.new_page()
    try:
        page.goto(table)
        assert page.locator(".buyer .who h3").count() == 6
        assert page.locator("table.board thead th").count() == 13
        assert page.evaluate(BROKEN_WORDS, ".buyer .who h3, table.board thead th") == []
        assert wider_than_the_phone(page) == []
    finally:
        context.close()


def test_the_scoreboard_never_breaks_a_place_or_a_total_beside_a_long_name(
    live_database: Path, browser: Browser, browser_context_args: dict[str, Any],
) -> None:
    """Found at a table: on a 360 px scoreboard, "2." beside a name of two lines read "2" over
    ".", and the total 14 read "1" over "4"."""
    players, actions = long_named("street", True)
    table = f"/street/{seed(live_database, 'street', players, actions)}/"
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": 360,
                                                                            "height": 740}})
    page = context.new_page()
    try:
        page.goto(f"{table}share")
        page.goto(page.locator("a[href*='/board/']").first.get_attribute("href") or "")
        assert page.locator(".board-totals li").count() == len(players)
        lines = page.evaluate("""() => [...document.querySelectorAll(
            '.board-totals .place, .board-totals .score')].map(e => {
                const range = document.createRange(); range.selectNodeContents(e);
                return range.getClientRects().length; })""")
        assert lines == [1] * 2 * len(players)
        assert wider_than_the_phone(page) == []
    finally:
        context.close()


# Each word of an element's text on one line: a word broken mid-way has two boxes.
BROKEN_WORDS = """sel => [...document.querySelectorAll(sel)].flatMap(chip => {
    const walker = document.createTreeWalker(chip, NodeFilter.SHOW_TEXT), broken = [];
    for (let node; (node = walker.nextNode());) {
        for (const word of node.data.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            if (range.getClientRects().length > 1) broken.push(word[0]);
        }
    }
    return broken; })"""


def test_urbanisation_s_offers_break_no_word_on_a_320_px_phone_in_german(
    live_database: Path, browser: Browser, browser_context_args: dict[str, Any],
) -> None:
    """Found at a table: at 320 px in German the one-tap offers broke words mid-way, without a
    hyphen ("Verwaltung/sgebäude", "1 kaufe/n", "Getreid/e")."""
    actions = GAME_SCRIPTS["urbanisation"]()
    hired = [k for k, (kind, _payload) in enumerate(actions) if kind == "character"][2] + 1
    players = tuple(PLAYERS["urbanisation"])
    table = f"/urbanisation/{seed(live_database, 'urbanisation', players, tuple(actions[:hired]))}/"
    context = german_phone(browser, browser_context_args, 320, 568)
    page = context.new_page()
    try:
        page.goto(table)
        assert page.locator(".u-offer-erect .u-chip").count() >= 3
        assert page.locator(".u-offer-trade_grain .u-chip").count() >= 4
        assert page.evaluate(BROKEN_WORDS, ".u-chip, .u-card-link, .u-char") == []
    finally:
        context.close()


# The same, a word broken at a soft hyphen (where the hyphen shows) counted as whole: each of
# its letters on the line of the one before it, but right after a soft hyphen (a letter's last
# box: the one before it, if any, is the hyphen at the end of the line above).
BROKEN_INSIDE_SYLLABLES = """sel => [...document.querySelectorAll(sel)].flatMap(element => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT), broken = [];
    const range = document.createRange();
    for (let node; (node = walker.nextNode());) {
        for (const word of node.data.matchAll(/\\S+/g)) {
            let above = null;
            for (let i = word.index; i < word.index + word[0].length; i++) {
                if (node.data[i] === "\\u00ad") continue;
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                const boxes = range.getClientRects();
                if (!boxes.length) continue;
                const top = Math.round(boxes[boxes.length - 1].top);
                if (above !== null && top !== above && node.data[i - 1] !== "\\u00ad") {
                    broken.push(word[0]);
                    break;
                }
                above = top;
            }
        }
    }
    return broken; })"""


@pytest.mark.parametrize("width", [360, 320])
@pytest.mark.parametrize(("cut", "opened", "where"), [
    (2, "", ".u-char strong, .u-track th"),
    (60, "?open=attract-card", ".u-attract-card label > span, .u-track th"),
    (60, "?open=produce", "button.primary"),
    (None, "?open=vp", "table th"),
    (None, "", ".u-fac"),
], ids=["characters", "factory number", "produce", "final tables", "factories"])
def test_urbanisation_breaks_no_german_word_on_a_small_phone(
    width: int, cut: int | None, opened: str, where: str, live_database: Path, browser: Browser,
    browser_context_args: dict[str, Any],
) -> None:
    """Found at a table at 360 px in German: "Steuereintreibe/r" on a character, "Fabriknumme/r"
    over the factory's number, "Schlusswertun/g" in the points by turn, "Produziere/n" on
    Produce; at 390 px with four players "Steelwor/ks" in the tracking card's factories. A word
    breaks only at a soft hyphen, its hyphen shown."""
    actions = GAME_SCRIPTS["urbanisation"]()
    players = tuple(PLAYERS["urbanisation"])
    table = f"/urbanisation/{seed(live_database, 'urbanisation', players, tuple(actions[:cut]))}/"
    context = german_phone(browser, browser_context_args, width, 740)
    page = context.new_page()
    try:
        page.goto(table + opened)
        assert page.locator(where).count() >= 1
        assert page.evaluate(BROKEN_INSIDE_SYLLABLES, where) == []
    finally:
        context.close()


def test_the_strip_s_last_action_shown_whole_breaks_no_word(
    live_database: Path, browser: Browser, browser_context_args: dict[str, Any],
) -> None:
    """Found at a table: in German at 360 px the strip's "Zuletzt: Schlusswertung erledigt ..."
    is cut at one line that fills it (a word may break there, at the cut); tapped to be read
    whole, it read "Schluss" over "wertung". Whole, its words break where words do."""
    players = tuple(PLAYERS["street"])
    table = f"/street/{seed(live_database, 'street', players, tuple(GAME_SCRIPTS['street']()))}/"
    context = german_phone(browser, browser_context_args, 360, 780)
    page = context.new_page()
    try:
        page.goto(table)
        line = page.locator(".strip-last p")
        assert line.locator(".strip-gave").count() == 1  # cut at one line
        line.tap()
        page.wait_for_function("document.querySelector('.strip-last p.whole')")
        assert page.evaluate(BROKEN_WORDS, ".strip-words") == []
    finally:
        context.close()
