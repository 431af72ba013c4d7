"""Real WeasyPrint PDFs: the blank pad and a finished score sheet, A4 and A5, any script; the
whole scripted games' sheets on one A4 page (two A5 pages), with every result kept."""

import io
import re
from pathlib import Path

import pytest
from flask import render_template_string
from pypdf import PdfReader

from benchmarks.games import GAME_SCRIPTS, PLAYERS
from companion import pdf
from companion.rules import GAMES, urbanisation_actions, urbanisation_table, yard
from tests.conftest import act, fresh, new_table
from tests.tables import renamed, seed, seed_on
from tests.yard_moves import ended_early


def pdf_text(data):
    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in reader.pages), reader


def fonts(reader):
    names = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("size, width_pt", [("A4", 595), ("A5", 420)])
def test_blank_pad(client, players, size, width_pt):
    response = client.get(f"/pad/yard.pdf?players={players}&size={size}")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    text, reader = pdf_text(response.data)
    assert "score pad" in text and "Scoring C total" in text and "Skyscraper" in text
    assert ("Dirk" in text) == (players == 2)
    assert round(float(reader.pages[0].mediabox.width)) == width_pt


@pytest.mark.parametrize("size", ["A4", "A5"])
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_blank_pad_fits_one_page_for_every_player_count(client, slug, size):
    for players in GAMES[slug].players:
        response = client.get(f"/pad/{slug}.pdf?players={players}&size={size}")
        assert response.status_code == 200
        assert len(pdf_text(response.data)[1].pages) == 1, (slug, size, players)


def test_a_pad_for_an_impossible_player_count_is_404(client):
    assert client.get("/pad/yard.pdf?players=9").status_code == 404
    assert client.get("/pad/chess.pdf").status_code == 404


def finished_game(app, client, names):
    """A short yard game, ended early as a log from before issue 15 could (an imported one)."""
    url = new_table(client, *names)
    act(client, url, "buy", player=names[0], building="skyscraper")
    act(client, url, "buy", player=names[1], building="skyscraper")
    act(client, url, "buy", player=names[2], building="park")
    act(client, url, "score", scoring="A")
    act(client, url, "score", scoring="B")
    seed_on(app, url, names, [ended_early(names)])
    return url


def test_finished_score_sheet_holds_names_totals_and_splits(app, client):
    names = ["Tobi", "李小龍", "Zoë"]
    url = finished_game(app, client, names)
    response = client.get(url + "sheet.pdf?size=A4")
    assert response.data.startswith(b"%PDF")
    text, reader = pdf_text(response.data)
    for name in names:
        assert name in text
    # A: skyscraper tie (6+0)/2 = 3 each, park 5; B: (13+6)/2 = 9 each, park 12;
    # C: (21+13)/2 = 17 each, park 20. Totals: 29, 29, 37.
    assert "Tobi and 李小龍 tie for 1st-2nd with 1 skyscraper: 21 + 13 = 34, 17 each" in text
    assert "Winner: Zoë" in text
    assert any("NotoSansCJK" in f.replace("-", "") for f in fonts(reader)), fonts(reader)


def test_an_emoji_in_a_name_prints_with_the_emoji_font_not_a_box(app, client):
    names = ["Ann 🎲", "Ben", "Cy"]
    response = client.get(finished_game(app, client, names) + "sheet.pdf?size=A4")
    text, reader = pdf_text(response.data)
    assert "Ann" in text and "Winner" in text
    assert any("NotoColorEmoji" in f.replace("-", "") for f in fonts(reader)), fonts(reader)


def test_a_sheet_in_progress_says_so(client):
    url = new_table(client, "Ann", "Ben", "Cy")
    text, _ = pdf_text(client.get(url + "sheet.pdf").data)
    assert "Game in progress" in text


# The scripted whole games of the benchmarks: one A4 page, at most two A5 pages -------------

# The benchmarks' scripted games (benchmarks/games.py; Urbanisation's is
# companion/rules/urbanisation_example.py), whole: the sheets the benchmark renders.
SHEETS = ["yard", "urbanisation"]
# 24 characters each, the most a name may have: spaces, a hyphen, umlauts, wide letters.
LONG_NAMES = ["Maximiliana Wolkensteins", "Bartholomäus Hohenlohe-Ö", "Wilhelmina Wawrzyniakowa"]
assert {len(name) for name in LONG_NAMES} == {24}


def scripted_game(slug, names=None):
    """The scripted whole game of `slug`: its players (renamed to `names` if given, in every
    payload too), its actions and the state they end in."""
    players, actions = PLAYERS[slug], GAME_SCRIPTS[slug]()
    if names:
        rename = dict(zip(players, names, strict=True))
        players, actions = names, [(kind, renamed(payload, rename)) for kind, payload in actions]
    state = GAMES[slug].start(list(players))
    for kind, payload in actions:
        state.apply(kind, payload)
    assert state.finished
    return list(players), actions, state


def sheets(app, client, slug, names=None, language="en"):
    """The score sheet of the scripted game at A4 and A5: {size: (text, words, pages)}: the
    extracted text, the same with whitespace runs as single spaces, the page count."""
    players, actions, _ = scripted_game(slug, names)
    url = f"/{slug}/{seed(app, slug, players, actions)}/sheet.pdf?size="
    found = {}
    for size in ("A4", "A5"):
        response = client.get(url + size, headers={"Accept-Language": language})
        assert response.status_code == 200
        text, reader = pdf_text(response.data)
        found[size] = text, " ".join(text.split()), len(reader.pages)
    return found


@pytest.mark.parametrize("slug", SHEETS)
def test_a_whole_scripted_game_fits_one_a4_page_and_two_a5_pages(app, client, slug):
    found = sheets(app, client, slug)
    assert found["A4"][2] == 1 and found["A5"][2] <= 2, {s: f[2] for s, f in found.items()}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("slug", SHEETS)
def test_24_character_names_are_shown_whole_and_the_pages_still_hold(app, client, slug,
                                                                        language):
    found = sheets(app, client, slug, LONG_NAMES, language)
    assert found["A4"][2] == 1 and found["A5"][2] <= 2, {s: f[2] for s, f in found.items()}
    for size, (text, words, _) in found.items():
        for name in LONG_NAMES:
            assert name in text, (size, name)  # on one line somewhere, never cut
            assert words.count(name) >= 4, (size, name)  # list, ranking, tables, reports
    # At A4 the tables' head holds every name on one line, in seat order.
    assert " ".join(LONG_NAMES) in found["A4"][0]


@pytest.mark.parametrize("slug", SHEETS)
def test_the_compact_sheet_keeps_every_result_and_explanation(app, client, slug):
    _, _, state = scripted_game(slug)
    found = sheets(app, client, slug)
    expected = [f"{placing.place}. {placing.player} ({placing.total})"
                for placing in state.ranking()]
    totals = state.totals()
    if slug == "yard":
        owners = state.owners
        expected += [f"Scoring {s.name} " + " ".join(str(s.points[o]) for o in owners)
                     for s in state.scorings]
        expected.append("Total " + " ".join(str(totals[o]) for o in owners))
        expected += [f"{yard.NAMES[b]} " + " ".join(str(state.buildings[o][b]) for o in owners)
                     for b in yard.BUILDINGS]
        expected += [f"{yard.NAMES[r.building]}: {line}"
                     for s in state.scorings for r in s.results for line in r.lines()]
        expected.append(yard.RULINGS["ties"])
    else:
        players, by_source, by_turn = state.players, state.vp_by_source(), state.vp_by_turn()
        expected += [f"{label} " + " ".join(str(by_source[p].get(source, 0)) for p in players)
                     for source, label in urbanisation_actions.SOURCES.items()]
        expected += [f"Turn {turn} " + " ".join(str(by_turn[p].get(turn, 0)) for p in players)
                     for turn in range(1, 7)]
        expected.append("Total " + " ".join(str(totals[p]) for p in players))
        for report in state.reports:
            expected.append(report.title)
            expected += [f"{player}: " + " ".join(lines) for player, lines in
                         report.players.items()]
            expected.append("The board: " + " ".join(report.board))
        tie = " ".join(urbanisation_table.RULINGS["tie"].split())
        if state.totals_tie():
            expected.append(tie)
        else:  # said only when two totals tie (the views' tests have a tie)
            assert all(tie not in words for _, words, _ in found.values())
    for size, (_, words, _) in found.items():
        for line in expected:
            assert " ".join(line.split()) in words, (size, line)


def test_a_sheet_says_each_correction_in_force_with_what_it_was_for(app, client):
    """Issue 45: the reason of a correction was on the history, not on the sheet. A change of
    a past action and a count set by hand are printed with what they were for; an undone one
    is not."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    for player, building in (("Tobi", "park"), ("Nina", "museum"), ("Paul", "park")):
        assert act(client, url, "buy", player=player, building=building).status_code == 303
    assert act(client, url, "correct", owner="Paul", building="park", count=2,
               reason="Counted twice").status_code == 303
    assert act(client, url, "correct", owner="Nina", building="park", count=1,
               reason="Tapped by mistake").status_code == 303
    assert act(client, url, "undo").status_code == 303
    preview = client.post(url + "buy?change=1", data={
        "player": "Nina", "building": "park", **fresh(client, url + "?change=1")})
    page = preview.get_data(as_text=True).split('class="change-preview"')[1]
    fields = {name: re.search(rf'name="{name}"( type="hidden")? value="([^"]*)"', page).group(2)
              for name in ("change", "seq", "key")}
    assert client.post(url + "change", data={**fields, "reason": "wrong player"}
                       ).status_code == 303
    text, _ = pdf_text(client.get(url + "sheet.pdf").data)
    corrections = text.split("Corrections")[-1]
    # each with the action it is about as the history numbers it (a table asked which it was)
    assert "#4: Correction: Paul has 2 parks (Counted twice)" in corrections
    assert "#1: Changed: Tobi bought a park → Nina bought a park (wrong player)" in corrections
    assert "Tapped by mistake" not in text


CORRECTIONS = [("#15", "Changed: David took 1 orange work order → 2"),
               ("#90", "Changed: Carla upgraded to factory 8 (grey) → (orange)")]


def test_a_correction_is_never_alone_on_a_page(app):
    """Found at a table: the second of two corrections printed alone on a page 2 of the score
    sheet. With the page filled by more and more lines above them, the heading and both
    corrections are always on one page."""
    pages_seen = set()
    with app.test_request_context():
        for lines in range(50, 70):
            html = render_template_string(
                '{% extends "pdf/base.html" %}{% block body %}{% for n in range(lines) %}'
                '<p>Line {{ n }}</p>{% endfor %}{% endblock %}', lines=lines, size="A4",
                game=GAMES["yard"], corrections=CORRECTIONS)
            reader = PdfReader(io.BytesIO(pdf.write(html, Path(app.static_folder or ""))))
            pages = [page.extract_text() for page in reader.pages]
            pages_seen.add(len(pages))
            holding = [k for k, words in enumerate(pages) if "#15" in words or "#90" in words
                       or "Corrections" in words]
            assert len(holding) == 1, (lines, holding)
    assert pages_seen == {1, 2}  # the lines took the corrections across a page's end
