"""Export and import: a finished table of every game survives the round trip exactly, a changed
or broken file is refused with its own message and nothing stored, and the CSV and BG Stats
exports hold the result."""

import csv
import html
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from companion import exchange, storage
from companion.app import create_app, get_db
from companion.rules import GAMES, replay
from companion.rules.log import Event
from companion.views import clients
from tests.conftest import act, text
from tests.street_moves import build, card, public, takes_public
from tests.tables import (
    FINISHED,
    REDO,
    UNDO,
    URBANISATION,
    YARD,
    exported,
    finished_table,
    seed,
    upload,
)
from tests.yard_moves import buy


def resign(document):
    """Recompute the digest, as someone forging a file would: the later checks must refuse it."""
    document["digest"] = exchange.digest(document)
    return document


def table_count(app):
    with app.app_context():
        return get_db()["tables"].count


def snapshot(app, slug, table_id):
    """What must survive the round trip: the table row, the log, the scores and the ranking."""
    with app.app_context():
        db = get_db()
        row = storage.get_table(db, table_id)
        events = storage.events(db, table_id)
    names = [p["name"] for p in row["players"]]
    state = replay(GAMES[slug], names, events).state
    return {
        "row": {k: row[k] for k in ("game", "players", "created_at", "status")},
        "events": [(e.seq, e.kind, dict(e.payload), e.at) for e in events],
        "totals": state.totals(),
        "ranking": state.ranking(),
    }


# The round trip ------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_export_then_import_restores_the_same_table(app, client, slug):
    table_id = finished_table(app, slug)
    before = snapshot(app, slug, table_id)
    assert before["row"]["status"] == "finished"
    response = client.get(f"/{slug}/{table_id}/export.json")
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="{slug}-table-{before["row"]["created_at"][:10]}.json"')
    document = json.loads(response.data)
    assert list(document) == list(exchange.FIELDS)
    assert document["digest"] == exchange.digest(document)
    assert [e["kind"] for e in document["events"]].count("undo") == 1

    imported = upload(client, document)
    assert imported.status_code == 303, text(imported)
    new_id = imported.headers["Location"].split("/")[2]
    assert imported.headers["Location"] == f"/{slug}/{new_id}/"
    assert new_id != table_id
    assert snapshot(app, slug, new_id) == before
    with client.session_transaction() as session:
        assert session["tables"][0] == storage.mark_of(new_id)
    history = text(client.get(f"/{slug}/{new_id}/history"))
    assert history == text(client.get(f"/{slug}/{table_id}/history")).replace(table_id, new_id)
    # The strip says what the last action gave, as on the table exported (found by an audit:
    # "final scoring C — Winner: Tobi" in place of "— Paul +16 · Nina +16 · ...").
    def last(table):
        return re.search(r'<p><span class="strip-words">(.*?)</p>',
                         text(client.get(f"/{slug}/{table}/")), re.S).group(1)

    assert last(new_id) == last(table_id) and "strip-gave" in last(new_id)


def test_payload_keys_a_kind_does_not_declare_are_not_stored(app, client):
    """A file may carry anything in a payload (its digest recomputed): only the keys each event
    kind declares are kept; the game is the same."""
    table_id = finished_table(app, "yard")
    document = exported(client, "yard", table_id)
    for event in document["events"]:
        event["payload"] |= {"<script>": "x" * 1000, "note": {"deep": [1, 2, 3]}}
    imported = upload(client, resign(document))
    assert imported.status_code == 303, text(imported)
    new_id = imported.headers["Location"].split("/")[2]
    with app.app_context():
        stored = storage.events(get_db(), new_id)
    assert all(not {"<script>", "note"} & set(e.payload) for e in stored)
    assert [dict(e.payload) for e in stored] == [
        dict(e.payload) for e in storage.events(app_db(app), table_id)]


def app_db(app):
    return storage.connect(app.config["DATABASE"])


def test_an_open_table_round_trips_too(app, client):
    names, actions = YARD
    table_id = seed(app, "yard", names, actions[:5])
    response = upload(client, exported(client, "yard", table_id))
    assert response.status_code == 303
    new_id = response.headers["Location"].split("/")[2]
    assert snapshot(app, "yard", new_id) == snapshot(app, "yard", table_id)
    assert snapshot(app, "yard", new_id)["row"]["status"] == "open"


def test_a_long_game_larger_than_the_app_wide_request_limit_is_imported(app, client):
    """Five players building 25 cards each, with corrections: about 80 KB, above the 64 KB
    limit of every other request, far below the import's 1 MB. In turn: each turn a free card
    from one's own deck and one from the public pile, five on every site; Mia's deck runs out
    with her 25th card, and the round is the last."""
    names = ["Mia", "Ola", "Pit", "Uwe", "Zoe"]
    office = card(income=[{"each": "on_site", "amount": 2, "project": "office"}],
                  prestige=[{"each": "on_street", "amount": 1, "project": "store"}])
    sites = [site for _ in range(5) for site in range(1, 6)]
    actions = []
    for turn in range(13):
        for p in names:
            first, *second = sites[2 * turn:2 * turn + 2]
            actions.append(build(p, first, office))
            if turn == 12 and p == "Mia":
                actions.append(("deck_empty", {"player": "Mia"}))
            actions.extend([public(p, second[0], office)] if second else takes_public(p))
    actions = [*actions, *[UNDO, REDO] * 20, ("finish", {})]
    table_id = seed(app, "street", names, actions)
    body = client.get(f"/street/{table_id}/export.json").data
    assert 64 * 1024 < len(body) < exchange.MAX_IMPORT_BYTES // 8
    response = upload(client, raw=body)
    assert response.status_code == 303, text(response)
    new_id = response.headers["Location"].split("/")[2]
    assert snapshot(app, "street", new_id) == snapshot(app, "street", table_id)


def test_long_runs_of_undo_and_redo_and_retaken_actions_restore_exactly(app, client):
    """Undo and redo across many actions, and undone actions taken again as new ones: the
    import's step-by-step referee agrees with the table's replay."""
    names, actions = URBANISATION
    plain = [a for a in actions if a not in (UNDO, REDO)]
    log = [*plain[:40], *[UNDO] * 20, *[REDO] * 20, *plain[40:60], *[UNDO] * 5, *plain[55:70],
           *[UNDO] * 3, REDO, UNDO, REDO, REDO, REDO, *plain[70:]]
    table_id = seed(app, "urbanisation", names, log)
    response = upload(client, exported(client, "urbanisation", table_id))
    assert response.status_code == 303, text(response)
    new_id = response.headers["Location"].split("/")[2]
    assert snapshot(app, "urbanisation", new_id) == snapshot(app, "urbanisation", table_id)
    assert snapshot(app, "urbanisation", new_id)["row"]["status"] == "finished"


# Refusals ------------------------------------------------------------------------------------


@pytest.fixture
def yard_file(app, client):
    return exported(client, "yard", finished_table(app, "yard"))


def refused(app, client, document=None, raw=None, filename="table.json", **headers):
    count = table_count(app)
    response = upload(client, document, raw, filename, **headers)
    assert table_count(app) == count, "a refused file must store nothing"
    return response.status_code, text(response)


def test_a_changed_score_is_refused_as_tampered(app, client, yard_file):
    final = yard_file["events"][-1]
    assert final["kind"] == "final"
    final["payload"]["money"]["Nina"]["blue"] = 19
    status, page = refused(app, client, yard_file)
    assert status == 422
    assert "This file was changed after it was exported." in page


def test_the_tamper_message_is_in_the_players_language(app, client, yard_file):
    yard_file["players"][0]["colour"] = "white"
    status, page = refused(app, client, yard_file, **{"Accept-Language": "de"})
    assert status == 422
    assert "Diese Datei wurde nach dem Export verändert." in page


def move_event(document, source, target):
    events = document["events"]
    events.insert(target, events.pop(source))


CASES = [
    # (change to the exported file, recompute the digest?, status, message)
    (lambda d: d.update(digest="sha256:" + "0" * 64), False, 422,
     "This file was changed after it was exported."),
    (lambda d: d.pop("digest"), False, 422, "This file has no check sum (digest)"),
    (lambda d: d.pop("status"), True, 422, "The file lacks the field “status”."),
    (lambda d: d.update(extra=1), True, 422,
     "The file has a field this app does not know: “extra”."),
    (lambda d: d.update(events={}), True, 422,
     "The field “events” holds the wrong kind of value."),
    (lambda d: d.update(format="something-else"), False, 422,
     "This file is not a table exported from this app."),
    (lambda d: d.update(version=3), False, 422,
     "This file has format version 3; this app reads versions 1 to 2."),
    (lambda d: d.update(game="chess"), True, 422,
     "This file is for a game this app does not know: chess."),
    (lambda d: d["players"][1].update(name="paul"), True, 422,
     "Two players are called Paul: names must differ."),
    (lambda d: d["players"][1].update(name=" Nina "), True, 422,
     "The players&#39; names are not written as the app writes them"),
    (lambda d: d["players"][1].update(colour="pink"), True, 422,
     "Nina&#39;s colour “pink” is not one of the app&#39;s colours."),
    (lambda d: d.update(players=d["players"][:1]), True, 422,
     "Construction yard card game is played by 2 to 6 players."),
    (lambda d: d["events"][4].update(seq=6), True, 422,
     "The events are out of order: event 5 in the file is numbered 6"),
    (lambda d: move_event(d, 7, 4), True, 422,
     "The events are out of order: event 5 in the file is numbered 8"),
    (lambda d: d["events"][3].pop("at"), True, 422,
     "Event 4 in the file does not have exactly the fields seq, kind, payload and at."),
    (lambda d: d["events"][3].update(at="yesterday"), True, 422,
     "The time of event 4 in the file is not a date and time: “yesterday”."),
    (lambda d: d["events"][4]["payload"].update(building="castle"), True, 422,
     "Event 5 (buy) is refused:"),
    (lambda d: d["events"][0].update(kind="undo", payload={}), True, 422,
     "Event 1 (undo) is refused: There is nothing to undo."),
    (lambda d: d["events"][4].update(kind="teleport"), True, 422, "Event 5 (teleport) is refused:"),
    (lambda d: d["events"][4].update(payload={"player": ["Paul"], "for": 3}), True, 422,
     "Event 5 (buy) is refused:"),
    (lambda d: d.update(events=d["events"] * 134), True, 422,
     "The file holds 2010 events; no table of this app is longer than 2000."),
    (lambda d: d.update(status="open"), True, 422,
     "The file says the game is not finished, but its events leave it finished."),
    # Found by an audit: "the game is in_progress" said the file's own spelling.
    (lambda d: d.update(status="in_progress"), True, 422,
     "The file&#39;s game status is none this app writes (finished or not finished): it was "
     "changed after it was exported."),
    (lambda d: d.update(created_at="2024-13-45"), True, 422,
     "The table&#39;s date in the file is not a date and time: “2024-13-45”."),
]


@pytest.mark.parametrize(("change", "digest_again", "status", "message"), CASES,
                         ids=[case[3][:40] for case in CASES])
def test_a_broken_file_is_refused_with_its_own_message(app, client, yard_file, change,
                                                       digest_again, status, message):
    change(yard_file)
    if digest_again:
        resign(yard_file)
    code, page = refused(app, client, yard_file)
    assert (code, message in page) == (status, True), page


@pytest.mark.parametrize(("raw", "filename", "status", "message"), [
    (b"{not json", "table.json", 400, "it is not valid JSON (line 1, column 2)"),
    (b"\xff\xfe\x00garbage", "table.json", 400, "it is not text"),
    (b"[1, 2, 3]", "table.json", 422, "This file is not a table exported from this app."),
    (b'{"format": NaN}', "table.json", 400, "it is not valid JSON"),
    (b"[" * 100_000, "table.json", 400, "it is not valid JSON"),
    (b"{}", "table.txt", 400, "Choose a .json file exported from this app."),
])
def test_a_file_that_is_no_table_file_is_refused(app, client, raw, filename, status, message):
    code, page = refused(app, client, raw=raw, filename=filename)
    assert (code, message in page) == (status, True), page


def test_no_file_is_refused(app, client):
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Choose the table file to import." in text(response)


def test_an_oversized_upload_gets_a_clear_413_page(app, client):
    code, page = refused(app, client, raw=b" " * (exchange.MAX_IMPORT_BYTES + 20_000))
    assert code == 413
    assert "The file is larger than 1024 KB" in page and "<form" in page


def test_the_import_page(client):
    page = text(client.get("/import"))
    assert 'enctype="multipart/form-data"' in page and 'type="file"' in page
    assert "Import a table" in text(client.get("/import", headers={"Accept-Language": "en"}))
    assert "Tisch importieren" in text(client.get("/import", headers={"Accept-Language": "de"}))


# Rate limit and CSRF -------------------------------------------------------------------------


def test_imports_are_rate_limited_per_client(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"),
                      "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    for _ in range(20):
        assert upload(client, raw=b"{}").status_code == 422
    response = upload(client, raw=b"{}")
    assert response.status_code == 429
    assert "Too many imports from here" in text(response)
    other = client.post("/import", data={"file": (io.BytesIO(b"{}"), "t.json")},
                        environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 422


def test_the_import_needs_the_forms_csrf_token(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite")})
    client = app.test_client()
    document = exported(client, "yard", finished_table(app, "yard"))
    body = json.dumps(document).encode()
    forged = client.post("/import", data={"file": (io.BytesIO(body), "t.json")})
    assert forged.status_code == 400
    assert "nothing was changed" in text(forged)
    assert table_count(app) == 1
    page = text(client.get("/import"))
    token = page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    response = client.post("/import", data={"csrf_token": token,
                                            "file": (io.BytesIO(body), "t.json")})
    assert response.status_code == 303
    assert table_count(app) == 2
    huge = io.BytesIO(b" " * (exchange.MAX_IMPORT_BYTES + 20_000))
    response = client.post("/import", data={"csrf_token": token, "file": (huge, "t.json")})
    assert response.status_code == 413
    assert "The file is larger than 1024 KB" in text(response)


# Results as CSV and the play for BG Stats ----------------------------------------------------


def test_results_as_csv(app, client):
    table_id = finished_table(app, "yard")
    response = client.get(f"/yard/{table_id}/results.csv")
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith(
        'attachment; filename="yard-results-')
    date = snapshot(app, "yard", table_id)["row"]["created_at"][:10]
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    game = "Construction yard card game"
    assert rows == [
        ["game", "date", "status", "place", "player", "score", "winner", "place shared"],
        [game, date, "finished", "1", "Tobi", "60", "yes", "no"],
        [game, date, "finished", "2", "Paul", "29", "no", "no"],
        [game, date, "finished", "3", "Kate", "26", "no", "no"],
        [game, date, "finished", "4", "Nina", "24", "no", "no"],
    ]


def test_the_results_of_an_unfinished_game_say_so_and_name_no_winner(app, client):
    table_id = seed(app, "yard", ["Ann", "Ben", "Cy"], [buy("Ann", "park")])
    rows = list(csv.DictReader(io.StringIO(
        client.get(f"/yard/{table_id}/results.csv").data.decode("utf-8-sig"))))
    assert [(r["status"], r["player"], r["score"], r["winner"], r["place shared"])
            for r in rows] == [
        ("in progress", "Ann", "0", "", ""), ("in progress", "Ben", "0", "", ""),
        ("in progress", "Cy", "0", "", "")]



def test_the_results_sheet_is_in_the_phones_language(app, client):
    """Found at a table: a German phone's results sheet said "Construction yard card game",
    "finished", "yes" in German columns' place. Its words are the phone's, as its pages'."""
    table_id = finished_table(app, "yard")
    rows = list(csv.reader(io.StringIO(client.get(
        f"/yard/{table_id}/results.csv", headers={"Accept-Language": "de"}).data.decode(
            "utf-8-sig"))))
    assert rows[0] == ["Spiel", "Datum", "Stand", "Platz", "Person", "Punkte", "gewinnt",
                       "Platz geteilt"]
    assert [row[0] for row in rows[1:]] == ["Bauhof-Kartenspiel"] * (len(rows) - 1)
    assert {row[2] for row in rows[1:]} == {"beendet"}
    assert [row[6:] for row in rows[1:3]] == [["ja", "nein"], ["nein", "nein"]]

def test_csv_cells_cannot_become_formulas(app, client):
    table_id = seed(app, "street", ["=HYPERLINK(1)", "@Ola", "+Pit", "-Uwe", "Ünal"], [])
    rows = list(csv.reader(io.StringIO(
        client.get(f"/street/{table_id}/results.csv").data.decode("utf-8-sig"))))
    assert sorted(row[4] for row in rows[1:]) == ["'+Pit", "'-Uwe", "'=HYPERLINK(1)", "'@Ola",
                                                  "Ünal"]
    assert all(row[2] == "in progress" and row[6:] == ["", ""] for row in rows[1:])


def test_a_finished_play_for_bg_stats(app, client):
    table_id = finished_table(app, "fifth_avenue")
    response = client.get(f"/fifth_avenue/{table_id}/bgstats.json")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith(
        'attachment; filename="fifth_avenue-bgstats-')
    play = json.loads(response.data)
    created = snapshot(app, "fifth_avenue", table_id)["row"]["created_at"]
    assert created.endswith("+00:00")
    assert play == {
        "sourceName": "Companion",
        "sourcePlayId": play["sourcePlayId"],
        "playDate": created[:10] + " " + created[11:19],
        "durationMin": 0,
        "game": {"name": "5th Avenue", "bggId": 9342, "highestWins": True, "noPoints": False,
                 "sourceGameId": "fifth_avenue"},
        "players": [
            {"name": "Ann", "score": 18, "winner": False, "rank": 2, "startPlayer": True,
             "role": "", "sourcePlayerId": exchange.player_id("Ann")},
            {"name": "Ben", "score": 21, "winner": True, "rank": 1, "startPlayer": False,
             "role": "", "sourcePlayerId": exchange.player_id("Ben")},
        ],
    }
    assert re.fullmatch("[0-9a-f]{16}", play["sourcePlayId"])
    assert table_id not in response.get_data(as_text=True)


def test_the_play_goes_to_bg_stats_by_its_documented_link_and_a_qr_code(app, client):
    """BG Stats' "Push plays to BG Stats from other apps or websites": createPlay.html with the
    play as url-encoded JSON in `data` (addPlay.html only starts an empty play)."""
    table_id = finished_table(app, "fifth_avenue")
    play = json.loads(client.get(f"/fifth_avenue/{table_id}/bgstats.json").data)
    page = client.get(f"/fifth_avenue/{table_id}/bgstats")
    assert page.status_code == 200
    href = re.search(r'<a class="button primary wide" href="([^"]+)"', text(page)).group(1)
    link = urlsplit(html.unescape(href))
    assert (link.scheme, link.netloc, link.path) == ("https", "app.bgstatsapp.com",
                                                      "/createPlay.html")
    assert list(parse_qs(link.query)) == ["data"]
    assert json.loads(parse_qs(link.query)["data"][0]) == play
    assert '<svg' in text(page) and 'class="qr"' in text(page)
    assert "BG Stats itself takes a play through the link or the code above" in text(page)


def test_a_player_has_one_id_for_bg_stats_at_every_table_and_seat(app, client):
    first = finished_table(app, "street")  # Mia in seat 1, Ola in seat 2
    names, actions = FINISHED["street"]
    second = seed(app, "street", ["OLA", "Mia"], [
        (kind, swapped(payload)) for kind, payload in actions])
    ids = {}
    for table_id in (first, second):
        play = json.loads(client.get(f"/street/{table_id}/bgstats.json").data)
        ids[table_id] = {p["name"].casefold(): p["sourcePlayerId"] for p in play["players"]}
    assert ids[first] == ids[second]  # the same people, in other seats ("OLA" is Ola)
    assert ids[first]["mia"] != ids[first]["ola"]


def swapped(payload):
    """A street action's payload for the second table, where Ola (written "OLA") sits first
    and so starts: she plays Mia's part of the game, and Mia Ola's."""
    roles = {'"Mia"': '"OLA"', '"Ola"': '"Mia"'}
    return json.loads(re.sub('"Mia"|"Ola"', lambda found: roles[found.group(0)],
                             json.dumps(payload)))


@pytest.mark.parametrize(("created", "date"), [
    ("2026-01-01T20:00:00+02:00", "2026-01-01 18:00:00"),
    ("2026-01-01T01:30:00+02:00", "2025-12-31 23:30:00"),
    ("2026-01-01T20:00:00-05:00", "2026-01-02 01:00:00"),
    ("2026-01-01T20:00:00+00:00", "2026-01-01 20:00:00"),
    ("2026-01-01T20:00:00", "2026-01-01 20:00:00"),
])
def test_bg_stats_gets_the_play_date_in_utc(created, date):
    assert exchange.play_date(created) == date


def test_an_imported_table_with_an_offset_is_sent_in_utc(app, client):
    table_id = finished_table(app, "street")
    document = exported(client, "street", table_id)
    document["created_at"] = "2026-01-01T20:00:00+02:00"
    imported = upload(client, resign(document))
    assert imported.status_code == 303
    new_id = imported.headers["Location"].split("/")[2]
    play = json.loads(client.get(f"/street/{new_id}/bgstats.json").data)
    assert play["playDate"] == "2026-01-01 18:00:00"


def test_a_play_keeps_its_id_through_new_links_and_export_and_import(app, client):
    table_id = finished_table(app, "yard")
    before = json.loads(client.get(f"/yard/{table_id}/bgstats.json").data)
    with app.app_context():
        renewed = storage.renew_links(get_db(), table_id)
    assert client.get(f"/yard/{table_id}/bgstats.json").status_code == 404
    after = json.loads(client.get(f"/yard/{renewed}/bgstats.json").data)
    imported = upload(client, exported(client, "yard", renewed))
    again = json.loads(client.get(imported.headers["Location"] + "bgstats.json").data)
    assert before["sourcePlayId"] == after["sourcePlayId"] == again["sourcePlayId"]
    later = finished_table(app, "yard")  # the same players' next game
    with app.app_context():
        get_db().execute("update tables set created_at = ? where id = ?",
                         ["2030-01-01T21:00:00+00:00", later])
    other = json.loads(client.get(f"/yard/{later}/bgstats.json").data)
    assert other["sourcePlayId"] != before["sourcePlayId"]


@pytest.mark.parametrize(("slug", "starter", "bgg"), [
    ("yard", None, None), ("street", None, None), ("urbanisation", "Ann", None)])
def test_every_game_exports_its_play(app, client, slug, starter, bgg):
    table_id = finished_table(app, slug)
    play = json.loads(client.get(f"/{slug}/{table_id}/bgstats.json").data)
    state = snapshot(app, slug, table_id)
    assert [(p["name"], p["score"], p["rank"]) for p in play["players"]] == [
        (name, state["totals"][name], next(r.place for r in state["ranking"] if r.player == name))
        for name in FINISHED[slug][0]]
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ([starter] if starter
                                                                       else [])
    assert play["game"].get("bggId") == bgg


def test_bg_stats_takes_finished_games_only(app, client):
    table_id = seed(app, "yard", ["Ann", "Ben", "Cy"], [buy("Ann", "park")])
    for url in (f"/yard/{table_id}/bgstats.json", f"/yard/{table_id}/bgstats"):
        response = client.get(url)
        assert response.status_code == 409
        assert "The game is not finished yet" in text(response)
        assert f'href="/yard/{table_id}/"' in text(response)


def test_exports_of_unknown_tables_are_404(client):
    for what in ("export.json", "results.csv", "bgstats.json"):
        assert client.get(f"/yard/nope/{what}").status_code == 404


def test_a_table_holds_as_many_events_as_an_import_accepts(app, client):
    """One limit for both: a table cannot grow past what its own export may bring back."""
    buy_undo = [Event(n, "buy" if n % 2 else "undo",
                      {"player": "Ann", "building": "park"} if n % 2 else {},
                      "2026-01-01T20:00:00+00:00")
                for n in range(1, exchange.MAX_EVENTS)]
    players = [{"name": n, "colour": c} for n, c in (("Ann", "red"), ("Ben", "blue"),
                                                     ("Cy", "green"))]
    with app.app_context():
        table_id = storage.import_table(get_db(), "yard", players, buy_undo,
                                        "2026-01-01T20:00:00+00:00", "open")
    url = f"/yard/{table_id}/"
    assert "This table has room for 1 more entry (a table holds at most 2000" in text(
        client.get(url))
    assert act(client, url, "buy", player="Ann", building="park").status_code == 303
    refused = act(client, url, "buy", player="Ben", building="park")
    assert refused.status_code == 422
    assert "This table holds 2000 entries" in text(refused)
    assert upload(client, exported(client, "yard", table_id)).status_code == 303


@pytest.mark.parametrize("when", ["2026-01-01é20:00:00+00:00", "２０２６-01-01T20:00:00+00:00",
                                  "2026-01-01T20:00:00", "2026-01-01 20:00:00+00:00",
                                  "2026-01-01T20:00:00+00:00\n"])
def test_a_date_not_in_iso_8601_is_refused(app, client, when):
    document = exported(client, "yard", finished_table(app, "yard"))
    document["created_at"] = when
    answer = upload(client, resign(document))
    assert answer.status_code == 422
    assert "The table&#39;s date in the file is not a date and time" in text(answer)


def test_dates_stored_before_they_were_checked_are_repaired(app, client):
    """Such a date broke every download (a header cannot carry it) and BG Stats' play date."""
    names, actions = YARD
    table_id = seed(app, "yard", names, actions)
    db = app_db(app)
    first = storage.events(db, table_id)[0].at
    db.execute("update tables set created_at = ? where id = ?",
               ["２０２６-01-01T20:00:00+00:00", table_id])
    db.execute("update events set at = 'yesterday' where table_id = ? and seq = 2", [table_id])
    storage.repair_times(db)
    assert storage.get_table(db, table_id)["created_at"] == first
    assert storage.events(db, table_id)[1].at == first
    for what in ("export.json", "results.csv", "bgstats.json"):
        assert client.get(f"/yard/{table_id}/{what}").status_code == 200, what


@pytest.mark.parametrize(("name", "header"), [
    ("yard-table-2026-01-01.json", 'attachment; filename="yard-table-2026-01-01.json"'),
    ("yard-table-２０２６.json", "attachment; filename=\"yard-table-____.json\"; "
                                "filename*=UTF-8''yard-table-%EF%BC%92%EF%BC%90%EF%BC%92%EF%BC%96.json"),
    ('a"b\r\n.pdf', "attachment; filename=\"a_b__.pdf\"; filename*=UTF-8''a%22b%0D%0A.pdf"),
])
def test_download_names_follow_rfc_6266(name, header):
    assert clients.content_disposition("attachment", name) == header
