"""Input made to break the app, as an outside review found it (issue 27): dates whose UTC lies
outside the calendar, numbers too large for SQLite, free text that turns itself around, and
results cells that become formulas after a separator. Each is refused with words or made
harmless at the entrance, and a page reading what was stored before never answers 500."""

import csv
import io
import json
import re

import pytest

from companion import exchange, storage
from companion.app import get_db
from tests.conftest import GERMAN, act, fresh, new_table, set_up, text
from tests.tables import FINISHED, exported, finished_table, seed, upload


def table_count(app):
    with app.app_context():
        return get_db()["tables"].count


def resign(document):
    """The digest recomputed, as someone forging a file would: the later checks must refuse
    it."""
    document["digest"] = exchange.digest(document)
    return document


def confirm_fields(preview):
    """The preview's confirm form: its signed change, seq and one-time key."""
    form = preview.split('class="change-preview"')[1]
    return {name: re.search(rf'name="{name}"( type="hidden")? value="([^"]*)"', form).group(2)
            for name in ("change", "seq", "key")}


# Dates the log's format allows whose UTC falls before year 1 or after year 9999.
OFF_THE_CALENDAR = ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59"]


# Times outside the calendar ------------------------------------------------------------------


@pytest.mark.parametrize("when", OFF_THE_CALENDAR)
@pytest.mark.parametrize("where", ["created_at", "event"])
def test_an_import_dated_outside_the_calendar_is_refused_with_words(app, client, when, where):
    document = exported(client, "yard", finished_table(app, "yard"))
    if where == "created_at":
        document["created_at"] = when
    else:
        document["events"][-1]["at"] = when
    count = table_count(app)
    for headers, words in (({}, "outside the years 1 to 9999"),
                           (GERMAN, "außerhalb der Jahre 1 bis 9999")):
        answer = upload(client, resign(document), **headers)
        assert answer.status_code == 422
        assert words in text(answer)
        assert when in text(answer)
    assert table_count(app) == count, "a refused file must store nothing"


@pytest.mark.parametrize("when", OFF_THE_CALENDAR)
@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_times_stored_outside_the_calendar_break_no_page(app, client, slug, when):
    """Rows written before the import checked it (here straight into SQLite)."""
    table_id = finished_table(app, slug)
    with app.app_context():
        db = get_db()
        db.execute("update tables set created_at = ? where id = ?", [when, table_id])
        db.execute("update events set at = ? where table_id = ?", [when, table_id])
        (result,) = db.execute("select result from results where table_id = ?",
                               [table_id]).fetchone()
        db.execute("update results set result = ? where table_id = ?",
                   [json.dumps({**json.loads(result), "at": when}), table_id])
        db.commit()
    name = FINISHED[slug][0][0]
    base = f"/{slug}/{table_id}/"
    client.get(base)  # this browser holds the table: its statistics count it
    for url in ("/players", f"/players/{name}", f"/players?name={name}", base + "bgstats",
                base + "bgstats.json", base, base + "history", base + "export.json",
                base + "results.csv"):
        for headers in ({}, GERMAN):
            assert client.get(url, headers=headers).status_code == 200, url


# Numbers too large for SQLite ----------------------------------------------------------------

HUGE = "99999999999999999999"


@pytest.mark.parametrize(("action", "data"), [
    ("buy", {"player": "Ann", "building": "park", "seq": HUGE}),
    ("undo", {"seq": HUGE}),
    ("change/out?change=1", {"seq": HUGE}),
    ("correct", {"owner": "Ann", "building": "park", "count": HUGE, "reason": "x"}),
    ("deck", {"left": HUGE, "reason": "x"}),
    ("buy", {"player": "Ann", "building": "park", "seq": "-" + HUGE}),
])
def test_numbers_too_large_for_sqlite_are_refused_with_words(app, client, action, data):
    url = new_table(client, "Ann", "Ben", "Cy")
    assert act(client, url, "buy", player="Ben", building="park").status_code == 303
    table_id = url.strip("/").split("/")[-1]
    answer = client.post(url + action, data=fresh(client, url) | data)
    assert answer.status_code == 400, text(answer)
    assert re.search(r"This form is incomplete|cannot be|must be|Number must be", text(answer))
    with app.app_context():
        assert storage.last_seq(get_db(), table_id) == 1, "nothing recorded"


def test_a_huge_seq_in_an_address_is_no_error(app, client):
    url = new_table(client, "Ann", "Ben", "Cy")
    for address in (url + f"?change={HUGE}", url + f"?also={HUGE}", url + f"history?change={HUGE}",
                    f"/pad/yard.pdf?players={HUGE}"):
        assert client.get(address).status_code in (200, 404), address
    fifth = new_table(client, "Ann", "Ben", game="fifth_avenue")
    assert client.get(fifth + f"?high={HUGE}").status_code == 200


@pytest.mark.parametrize("target", ["north:²", f"north:{HUGE}"])
def test_a_plot_number_no_board_has_is_refused_with_words(app, client, target):
    """"²" is a digit to str.isdigit, but int() cannot read it."""
    url = set_up(client, "Ann", "Ben")
    table_id = url.strip("/").split("/")[-1]
    with app.app_context():
        before = storage.last_seq(get_db(), table_id)
    answer = act(client, url, "plot", target=target)
    assert answer.status_code == 422
    assert "Tap a plot on the board." in text(answer)
    with app.app_context():
        assert storage.last_seq(get_db(), table_id) == before, "nothing recorded"


# Free text that turns itself around ----------------------------------------------------------

TURNING = "\u202emiscount\u2066x\u2067y\u2068z\u2069\u200f \u200b"


def test_a_correction_reason_is_stored_and_shown_without_direction_changes(app, client):
    url = new_table(client, "Ann", "Ben", "Cy")
    assert act(client, url, "correct", owner="Ann", building="park", count=2,
               reason=TURNING).status_code == 303
    table_id = url.strip("/").split("/")[-1]
    with app.app_context():
        db = get_db()
        (event,) = storage.events(db, table_id)
        token = storage.get_table(db, table_id)["view_token"]
    assert event.payload["reason"] == "miscountxyz"
    for page in (url, url + "history", f"/board/{token}"):
        answer = client.get(page)
        assert answer.status_code == 200, page
        shown = text(answer)
        assert not re.search("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u200b]", shown), page
    assert "miscountxyz" in text(client.get(url + "history"))


def test_a_change_reason_is_stored_and_shown_without_direction_changes(app, client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    for player, building in (("Tobi", "park"), ("Nina", "museum")):
        assert act(client, url, "buy", player=player, building=building).status_code == 303
    preview = text(client.post(url + "change/out?change=1", data=fresh(client, url + "?change=1")))
    data = {**confirm_fields(preview), "reason": TURNING}
    assert client.post(url + "change", data=data).status_code == 303
    table_id = url.strip("/").split("/")[-1]
    with app.app_context():
        change = storage.events(get_db(), table_id)[-1]
    assert change.kind == "change" and change.payload["reason"] == "miscountxyz"
    history = text(client.get(url + "history"))
    assert "(miscountxyz)" in history
    assert not re.search("[\u202a-\u202e\u2066-\u2069\u200e\u200f]", history)


def test_reasons_stored_with_direction_changes_are_shown_without_them(app, client):
    """A reason stored before the forms cleaned it (or brought in by a file)."""
    names = ["Ann", "Ben", "Cy"]
    table_id = seed(app, "street", names, [
        ("account", {"player": "Ann", "amount": 12, "reason": "\u202ereversed\u2069"})])
    history = text(client.get(f"/street/{table_id}/history"))
    assert "(reversed)" in history
    assert "\u202e" not in history and "\u2069" not in history


def test_an_urbanisation_effect_reason_is_cleaned(app, client):
    table_id = seed(app, "urbanisation", *FINISHED["urbanisation"][:1],
                    FINISHED["urbanisation"][1][:1])
    url = f"/urbanisation/{table_id}/"
    answer = act(client, url, "effect", effect_player="Ann", money=3, reason=TURNING)
    assert answer.status_code == 303, text(answer)
    with app.app_context():
        event = storage.events(get_db(), table_id)[-1]
    assert event.payload["reason"] == "miscountxyz"
    assert "Ann: miscountxyz" in text(client.get(url + "history"))


# Formulas after a separator ------------------------------------------------------------------


def test_csv_cells_cannot_become_formulas_after_a_separator(app, client):
    names = ["x;=1+1;", "a,@SUM(1)", "c;-2", "d; +3", "Ünal;ok"]
    table_id = seed(app, "street", names, [])
    body = client.get(f"/street/{table_id}/results.csv").data.decode("utf-8-sig")
    players = [row[4] for row in list(csv.reader(io.StringIO(body)))[1:]]
    assert sorted(players) == sorted(["x;'=1+1;", "a,'@SUM(1)", "c;'-2", "d; '+3", "Ünal;ok"])
    for separator in (";", "\t", ","):  # read as a German spreadsheet reads it, too
        for row in csv.reader(io.StringIO(body), delimiter=separator):
            for cell in row:
                assert cell.strip()[:1] not in ("=", "+", "-", "@"), (separator, cell)


@pytest.mark.parametrize(("cell", "safe"), [
    ("=1", "'=1"), ("\t=1", "'\t'=1"), ("a\t+1", "a\t'+1"), ("a\r@1", "a\r'@1"),
    ("a;;=1", "a;;'=1"), ("Ann", "Ann"), ("Ann-Kathrin", "Ann-Kathrin"), ("a, b", "a, b"),
])
def test_every_part_of_a_cell_is_kept_from_becoming_a_formula(cell, safe):
    assert exchange.safe_cell(cell) == safe


def test_an_action_key_with_a_line_break_after_it_is_refused(app, client):
    """A key is its pattern whole: `$` let one ending in a line break through (issue 27, 15)."""
    url = new_table(client, "Ann", "Ben", "Cy")
    fields = fresh(client, url)
    answer = client.post(url + "buy", data={**fields, "key": fields["key"] + "\n",
                                            "player": "Ann", "building": "park"})
    assert answer.status_code == 400
    assert "Reload the page" in text(answer)
    assert client.post(url + "buy", data={**fields, "player": "Ann",
                                          "building": "park"}).status_code == 303
