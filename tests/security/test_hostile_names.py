"""A player's name is hostile input: on every page, refusal, PDF and export of every game, in
English and German, it is shown as the text it is, never as markup.

Each game's finished test game (tests/tables.py) is replayed with its players renamed
to names that are HTML, format strings or both, and every page is read at the start, in the middle
and at the end of the game.
"""

import csv
import io
import json
import re
from urllib.parse import quote

import pytest
from markupsafe import escape
from pypdf import PdfReader

from tests.conftest import fresh
from tests.tables import FINISHED, held, renamed, seed

# At most 24 characters each, different even ignoring case.
HOSTILE = ["<a href=//e.co>B</a>", "\"'><b>Ann</b>", "{player}%(x)s&amp;", "<img src=x onerror=1>"]
MARKUP = re.compile(r"<a href=//e\.co>|<b>Ann</b>|<img src=x|&amp;amp;amp;")
LANGUAGES = [{"Accept-Language": "en"}, {"Accept-Language": "de"}]


def hostile_table(app, slug, share):
    """A table of `slug` holding the first `share` of its finished game, players renamed."""
    names, actions = FINISHED[slug]
    rename = dict(zip(names, HOSTILE, strict=False))
    actions = [(kind, renamed(payload, rename)) for kind, payload in actions]
    kept = actions[: round(len(actions) * share)]
    return seed(app, slug, [rename[n] for n in names], kept), [rename[n] for n in names]


def assert_text_not_markup(page, names, where):
    assert not MARKUP.search(page), (where, MARKUP.search(page).group(0))
    for name in names:
        assert str(escape(name)) in page, (where, name)


def pages(client, slug, table_id, finished):
    """Every page a table has, by its address."""
    base = f"/{slug}/{table_id}/"
    found = [base, base + "history", base + "share"]
    if slug == "street":
        found += [base + "play/0", base + "play/1"]
    if slug == "fifth_avenue":
        found.append(base + "board")
    board = re.search(r"/board/[A-Za-z0-9_-]{22}", client.get(base + "share").get_data(True))
    return [*found, board.group(0)]


@pytest.mark.parametrize("language", LANGUAGES, ids=["en", "de"])
@pytest.mark.parametrize("share", [0, 0.5, 1], ids=["start", "middle", "end"])
@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_every_page_shows_the_names_as_text(app, client, slug, share, language):
    table_id, names = hostile_table(app, slug, share)
    for url in pages(client, slug, table_id, finished=share == 1):
        response = client.get(url, headers=language)
        assert response.status_code == 200, url
        page = response.get_data(as_text=True)
        if url.endswith(f"/{slug}/{table_id}/") or "/board/" in url:
            assert_text_not_markup(page, names, url)
        else:
            assert not MARKUP.search(page), (url, MARKUP.search(page).group(0))


@pytest.mark.parametrize("language", LANGUAGES, ids=["en", "de"])
def test_the_set_up_labels_of_the_construction_yard(app, client, language):
    """Where it was found: labels built from a name ("<name>: cards")."""
    table_id, names = hostile_table(app, "yard", 0)
    url = f"/yard/{table_id}/"
    page = client.get(url, headers=language).get_data(as_text=True)
    assert_text_not_markup(page, names, url)
    assert f"<span>{escape(names[0])}:" in page


@pytest.mark.parametrize("language", LANGUAGES, ids=["en", "de"])
def test_refusals_name_the_players_as_text(app, client, language):
    table_id, names = hostile_table(app, "yard", 0.5)
    url = f"/yard/{table_id}/"
    stale = {**fresh(client, url), "player": names[1], "building": "park"}
    client.post(url + "buy", data=stale, headers=language)
    again = client.post(url + "buy", headers=language,
                        data={**stale, "building": "museum"})  # the other button: outdated
    assert again.status_code == 409
    assert_text_not_markup(again.get_data(as_text=True), names[1:2], "409 page")
    in_place = client.post(url + "buy", headers={**language, "X-Companion": "fetch"},
                           data={**stale, "building": "church"})
    answer = json.loads(in_place.data)
    assert names[1] in answer["refused"]  # text for app.js, which sets it as textContent
    assert_text_not_markup(answer["page"], names, "409 page for app.js")


def test_the_players_pages_show_the_names_as_text_and_link_them(app, client):
    for slug in sorted(FINISHED):
        held(client, hostile_table(app, slug, 1)[0])
    index = client.get("/players").get_data(as_text=True)
    assert_text_not_markup(index, HOSTILE, "/players")
    for name in HOSTILE:
        page = client.get("/players/" + quote(name, safe=""))
        assert page.status_code == 200, name
        assert_text_not_markup(page.get_data(as_text=True), [name], name)


@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_pdfs_and_exports_hold_the_names_as_they_are(app, client, slug):
    table_id, names = hostile_table(app, slug, 1)
    base = f"/{slug}/{table_id}/"
    for size in ("A4", "A5"):
        sheet = client.get(base + f"sheet.pdf?size={size}")
        assert sheet.status_code == 200
        words = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(sheet.data)).pages)
        for name in names:
            assert name in words, (size, name)
    document = json.loads(client.get(base + "export.json").data)
    assert [p["name"] for p in document["players"]] == names
    rows = list(csv.DictReader(io.StringIO(client.get(base + "results.csv").data
                                           .decode("utf-8-sig"))))
    assert {row["player"] for row in rows} == set(names)
