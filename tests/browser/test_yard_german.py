"""A construction-yard game played in German: a phone whose browser asks for German gets the
table, the refusals, the end and the score sheet in the German rulebook's words.

Navigation uses the forms' fields and actions rather than the platform's words, so that only the
game's own German is asserted (besides <html lang="de">). Scores are worked out by hand from the
reference card: skyscraper A 6, B 13/6, C 21/13/6; park 5, 12/5, 20/12/5; museum 1, 8/1, 16/8/1;
church 4, 11/4, 19/11/4.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from pypdf import PdfReader

from tests.browser.helpers import give_out, squash, tap_and_load
from tests.browser.states import record
from tests.yard_moves import buys

Shot = Callable[[Page, str], Any]
TABLE_URL = re.compile(r"/yard/[^/]+/$")
NAMES = {"museum": "Museum", "theater": "Theater", "station": "Bahnhof", "church": "Kirche",
         "park": "Park", "skyscraper": "Hochhaus"}


@pytest.fixture
def german(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """A phone whose browser prefers German (Accept-Language: de-DE)."""
    context = browser.new_context(**{**browser_context_args, "locale": "de-DE"})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.set_default_navigation_timeout(15_000)
    yield page
    context.close()


def start_table(page: Page, players: list[str]) -> None:
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.locator("input[name=game][value=yard]").check()
    for seat, name in enumerate(players):
        page.locator(f"input[name='players-{seat}-name']").fill(name)
    page.locator("form.new-table button[type=submit]").tap()
    expect(page).to_have_url(TABLE_URL)
    # The URL is the new page's once its navigation commits, before its parse and scripts: a
    # whole suite's run once tapped on it half-made (its form's one-time key read as blank).
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", name="Bauhof-Kartenspiel", exact=True)).to_be_visible()


def building_button(page: Page, player: str, building: str) -> Locator:
    heading = page.get_by_role("heading", name=player, exact=True)
    buyer = page.locator(".buyer").filter(has=heading)
    return buyer.get_by_role("button", name=re.compile(rf"^{NAMES[building]} \d+$"))


def buy(page: Page, player: str, building: str, times: int = 1) -> None:
    for _ in range(times):
        before = int(building_button(page, player, building).inner_text().split()[-1])
        tap_and_load(page, building_button(page, player, building))
        expect(page.locator(".error, .refusal")).to_have_count(0)
        expect(building_button(page, player, building)).to_have_text(
            f"{NAMES[building]} {before + 1}")


def score(page: Page, scoring: str) -> None:
    tap_and_load(page, page.get_by_role(
        "button", name=f"Karte „Wertung {scoring}“ gezogen: jetzt werten"))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(page.get_by_role("heading", name=f"Wertung {scoring} erledigt")).to_be_visible()


def pdf_text(page: Page, link_name: str | re.Pattern[str]) -> str:
    """The text of the PDF a link points to, asked for in German as the browser would (the API
    requests of a Playwright context do not send the locale's Accept-Language by themselves)."""
    href = page.get_by_role("link", name=link_name).get_attribute("href")
    assert href and "/sheet.pdf" in href, href
    response = page.request.get(href, headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert response.ok and response.body().startswith(b"%PDF"), response.status
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages)


def details(page: Page, scoring: str) -> Locator:
    summary = page.locator("summary", has_text=f"Wertung {scoring}:")
    return page.locator("details.scoring", has=summary)


def test_a_three_player_game_in_german(german: Page, shot: Shot, live_database: Path) -> None:
    page = german
    start_table(page, ["Anna", "Ben", "Cleo"])
    expect(page.get_by_text("Noch 50 Bildkarten im Stapel.")).to_be_visible()
    expect(page.get_by_role("heading", name="Wer hat was gekauft?")).to_be_visible()
    expect(page.get_by_text("Vorbereitung: Startspieler, Geldstapel")).to_be_visible()
    shot(page, "de-01-yard-table")

    # Until A: Anna 2 skyscrapers, Ben a skyscraper and a park, Cleo a museum.
    buy(page, "Anna", "skyscraper", 2)
    buy(page, "Ben", "skyscraper")
    buy(page, "Ben", "park")
    buy(page, "Cleo", "museum")
    expect(page.locator("tr.lead td", has_text="Anna führt mit 1 Karte Vorsprung")).to_be_visible()
    expect(page.get_by_text("Noch 45 Bildkarten im Stapel.")).to_be_visible()

    # A purchase undone: the redo button names it in German.
    buy(page, "Anna", "station")
    expect(page.locator("#recorded")).to_contain_text("Anna hat einen Bahnhof gekauft")
    expect(page.locator("#recorded").get_by_role("button")).to_contain_text("Rückgängig")
    expect(page.get_by_text("Zuletzt: Anna hat einen Bahnhof gekauft")).to_be_visible()
    tap_and_load(page, page.locator(".undo-redo form[action*='/undo#'] button"))
    expect(building_button(page, "Anna", "station")).to_have_text("Bahnhof 0")
    expect(page.locator(".undo-redo form[action*='/redo#'] button")).to_have_attribute(
        "title", "Anna hat einen Bahnhof gekauft")
    shot(page, "de-02-yard-mid-game")

    # A: skyscraper Anna 6, park Ben 5, museum Cleo 1.
    score(page, "A")
    expect(details(page, "A").locator("summary")).to_have_text("Wertung A: Anna 6, Ben 5, Cleo 1")
    lines = details(page, "A").locator("ul.splits li")
    expect(lines.filter(has_text="Anna belegt den 1. Platz mit 2 Hochhäusern: 6")).to_have_count(1)
    expect(lines.filter(has_text="Cleo belegt den 1. Platz mit 1 Museum: 1")).to_have_count(1)
    shot(page, "de-03-yard-scoring-a")

    # B: skyscraper Anna and Ben tie for 1st-2nd, 13 + 6 = 19, 9 each; park Ben 12; museum
    # Cleo 8; church Cleo 11.
    buy(page, "Ben", "skyscraper")
    buy(page, "Cleo", "church")
    score(page, "B")
    expect(details(page, "B").locator("summary")).to_have_text(
        "Wertung B: Anna 9, Ben 21, Cleo 19")
    tie = details(page, "B").locator("ul.splits li", has_text="Anna und Ben teilen sich den 1.")
    expect(tie).to_contain_text("Platz mit 2 Hochhäusern: 13 + 6 = 19, je 9")
    expect(page.get_by_role("row", name=re.compile("^Wertung C"))).to_be_visible()
    shot(page, "de-04-yard-scoring-b")

    # The rest of the game (43 purchases) straight into the database; the last one tapped.
    record(live_database, page.url, ["Anna", "Ben", "Cleo"], [
        *buys("Cleo", museum=6, skyscraper=7), *buys("Ben", theater=6, church=8),
        *buys("Anna", station=8, park=8)])
    page.reload()
    expect(page.locator("section.next")).to_contain_text("in der Auslage liegen noch 4 Karten")
    buy(page, "Anna", "park")

    # The end: a theater, a station and a park are left. The theater on green stays unsold (a
    # tie), the station on yellow goes to Ben, the park on blue to Cleo.
    expect(page.get_by_role("heading", name="Am Ende: die letzten Karten und Wertung C")
           ).to_be_visible()
    expect(page.locator("#end legend")).to_have_text(["Theater", "Bahnhof", "Park"])
    give_out(page, [("grün", "Gleichstand oder niemand"), ("gelb", "Ben"), ("blau", "Cleo")])
    shot(page, "de-05-yard-end-form")
    tap_and_load(page, page.get_by_role("button", name="Karten vergeben und Wertung C"))
    expect(page).to_have_url(TABLE_URL)
    expect(page.locator(".error, .refusal")).to_have_count(0)

    # C: museum Cleo (7) 16; theater Ben (6) 17; station Anna (8) 18, Ben (1) 10; church Ben (8)
    # 19, Cleo (1) 11; park Anna (9) 20, Ben and Cleo (1) tie for 2nd-3rd 12 + 5 = 17, 8 each;
    # skyscraper Cleo (7) 21, Anna and Ben (2) tie for 2nd-3rd 13 + 6 = 19, 9 each.
    # C: Anna 47, Ben 63, Cleo 56.  Totals: Anna 6 + 9 + 47 = 62, Ben 5 + 21 + 63 = 89,
    # Cleo 1 + 19 + 56 = 76.
    expect(page.get_by_role("heading", name="Endergebnis")).to_be_visible()
    expect(details(page, "C").locator("summary")).to_have_text(
        "Wertung C: Anna 47, Ben 63, Cleo 56")
    expect(details(page, "C").get_by_text("Park: Cleo")).to_be_visible()
    ranking = [" ".join(t.split()) for t in page.locator("ol.ranking li").all_inner_texts()]
    assert ranking == ["1. Ben 89 gewinnt", "2. Cleo 76", "3. Anna 62"], ranking
    expect(page.get_by_role("heading", name="Gebäude bei Spielende")).to_be_visible()
    shot(page, "de-06-yard-final")

    # "Wertungsblatt" here; the games' catalogues share this label and one still says "-bogen".
    text = squash(pdf_text(page, re.compile(r"^Wertungs\w+ \(PDF, A4\)$")))
    assert "Bauhof-Kartenspiel" in text and "Gespielt am" in text, text
    assert "Summe 62 89 76" in text, text
    assert "Rangfolge: 1. Ben (89), 2. Cleo (76), 3. Anna (62)." in text, text
    assert "Park an Cleo" in text, text
    assert "Hochhaus: Anna und Ben teilen sich den 1." in text, text
    assert "Hochhaus: Cleo belegt den 1. Platz mit 7 Hochhäusern: 21" in text, text
    assert "Kirche: Ben belegt den 1. Platz mit 8 Kirchen: 19" in text, text
    for english in ("Scoring", "Total", "Ranking", "Played", "Ruling", "skyscraper", "each"):
        assert english not in text, english


def test_two_players_and_dirk_in_german(german: Page, shot: Shot) -> None:
    page = german
    start_table(page, ["Eva", "Finn"])
    expect(page.get_by_role("heading", name="Dirk bekommt 6 Karten")).to_be_visible()
    expect(page.get_by_text("Bei Spielbeginn bekommt Dirk die 6 obersten Bildkarten")
           ).to_be_visible()

    # A wrong count is refused in German, keeping what was typed.
    page.get_by_label("Hochhäuser", exact=True).fill("3")
    page.get_by_label("Parks", exact=True).fill("2")
    tap_and_load(page, page.get_by_role("button", name="Diese 6 Karten an Dirk"))
    expect(page.get_by_role("alert")).to_have_text(
        "Dirk bekommt jetzt genau 6 Karten; eingetragen sind 5.")
    expect(page.get_by_label("Hochhäuser", exact=True)).to_have_value("3")
    shot(page, "de-07-yard-dirk-refused")
    page.get_by_label("Parks", exact=True).fill("3")
    tap_and_load(page, page.get_by_role("button", name="Diese 6 Karten an Dirk"))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    expect(page.get_by_text("Noch 44 Bildkarten im Stapel.")).to_be_visible()

    # A purchase given to Dirk, named in German.
    tap_and_load(page, page.get_by_role("button", name="Finn kauft ein Hochhaus für Dirk"))
    expect(page.locator("#recorded")).to_contain_text("Finn hat ein Hochhaus für Dirk gekauft")
    lead = page.locator("tr.lead td", has_text="Dirk führt mit 4 Karten Vorsprung")
    expect(lead).to_have_count(1)
    shot(page, "de-08-yard-dirk-table")

    # A: park Dirk 5, skyscraper Dirk 6; then Dirk's 6 more cards are due.
    tap_and_load(page, page.get_by_role(
        "button", name="Karte „Wertung A“ gezogen: jetzt werten"))
    expect(page.get_by_role("heading", name="Dirk bekommt 6 Karten")).to_be_visible()
    expect(details(page, "A").locator("summary")).to_have_text("Wertung A: Eva 0, Finn 0, Dirk 11")
    expect(page.get_by_text("Unmittelbar nach Wertung A bekommt Dirk 6 weitere Bildkarten.")
           ).to_be_visible()
    expect(page.locator("p.dirk-total")).to_have_text(
        "Dirk: 11 Punkte (Dirk kann nicht gewinnen).")
    shot(page, "de-09-yard-dirk-after-a")
