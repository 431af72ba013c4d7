"""A group's records are its own (issue 27, items 2, 3, 11 and 15): the players' pages count
only the tables this browser holds, the session cookie names no table's link, a table's
creator can delete it, and tables untouched for a year are removed by a command."""

import base64
import subprocess
import sys
import zlib
from datetime import timedelta

from companion import exchange, storage
from companion.app import create_app, get_db
from companion.views.clients import MAX_OWNED_TABLES, MAX_REMEMBERED_TABLES
from tests.conftest import GERMAN, new_table, text
from tests.tables import FINISHED, exported, held, seed, upload


def session_cookie(client):
    """The session cookie's payload as the browser (or anyone who sees it) can read it."""
    value = client.get_cookie("session").value
    compressed = value.startswith(".")
    payload = value.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    return (zlib.decompress(raw) if compressed else raw).decode()


# Statistics belong to a group ----------------------------------------------------------------


def test_a_stranger_sees_no_ones_statistics(app, client):
    table_id = seed(app, "street", *FINISHED["street"])
    held(client, table_id)
    assert "Mia" in text(client.get("/players"))
    stranger = app.test_client()
    page = text(stranger.get("/players"))
    assert "Mia" not in page and "No game has been finished at this phone" in page
    assert stranger.get("/players/Mia").status_code == 404
    assert stranger.get("/players?name=Mia").status_code == 404


def test_a_forged_import_counts_only_where_it_was_imported(app, client):
    """A file anyone can write (the digest is only a tamper check) adds nothing to the
    statistics of a group that did not import it."""
    group = app.test_client()
    held(group, seed(app, "street", *FINISHED["street"]))
    assert "<dt>Played</dt><dd>1</dd>" in text(group.get("/players/Mia"))
    forger = app.test_client()
    held(forger, seed(app, "street", *FINISHED["street"]))
    document = exported(forger, "street", forger_table(app))
    document["created_at"] = "2020-01-01T10:00:00+00:00"  # another game, as a forger writes it
    document["digest"] = exchange.digest(document)
    assert upload(forger, document).status_code == 303
    assert "<dt>Played</dt><dd>2</dd>" in text(forger.get("/players/Mia"))
    assert "<dt>Played</dt><dd>1</dd>" in text(group.get("/players/Mia"))


def forger_table(app):
    with app.app_context():
        return get_db().execute("select id from tables order by rowid desc").fetchone()[0]


def test_a_players_page_reads_at_most_the_tables_a_browser_holds(app, client, monkeypatch):
    """Bounded work whatever the server holds: the results read are those of this browser's
    tables, at most MAX_REMEMBERED_TABLES of them."""
    for _ in range(3):
        seed(app, "street", *FINISHED["street"])  # other people's
    mine = seed(app, "street", *FINISHED["street"])
    held(client, mine)
    asked = []
    real = storage.results

    def results(db, marks):
        asked.append(list(marks))
        return real(db, marks)

    monkeypatch.setattr(storage, "results", results)
    assert "<dt>Played</dt><dd>1</dd>" in text(client.get("/players/Mia"))
    assert asked == [[storage.mark_of(mine)]]


# The session cookie names no link ------------------------------------------------------------


def test_the_session_cookie_holds_no_table_link(app, client):
    url = new_table(client, "Ann", "Ben")
    table_id = url.strip("/").split("/")[-1]
    client.post(url + "undo")  # an answer kept for the next page
    joined = app.test_client()
    joined.get(f"/j/{table_id}")
    for browser in (client, joined):
        payload = session_cookie(browser)
        assert table_id not in payload
        assert storage.mark_of(table_id) in payload


def test_a_session_from_before_marks_keeps_its_tables(app, client):
    """Sessions kept the links themselves before: they are read as marks, and written back as
    marks when the list next changes."""
    first = new_table(client, "Ann", "Ben").strip("/").split("/")[-1]
    second = new_table(client, "Cy", "Di").strip("/").split("/")[-1]
    with client.session_transaction() as session:
        session["tables"] = [second, first]
        session["owned"] = [second, first]
    assert "Ann" in text(client.get("/")) and "Cy" in text(client.get("/"))
    assert client.get(f"/yard/{first}/delete").status_code == 200  # still its own
    client.get(f"/yard/{first}/")
    assert first not in session_cookie(client) and second not in session_cookie(client)


def test_renewed_links_leave_other_browsers_without_the_table(app, client):
    url = new_table(client, "Ann", "Ben")
    table_id = url.strip("/").split("/")[-1]
    other = app.test_client()
    other.get(f"/j/{table_id}")
    assert "Ann" in text(other.get("/"))
    assert client.post(url + "renew").status_code == 303
    assert "Ann" not in text(other.get("/")).split("Your tables")[-1]
    assert "Ann" in text(client.get("/"))


# Deleting a table ----------------------------------------------------------------------------


def test_the_creator_deletes_a_table_after_a_confirmation(app, client):
    table_id = seed(app, "street", *FINISHED["street"])
    with client.session_transaction() as session:
        session["owned"] = [storage.mark_of(table_id)]
    held(client, table_id)
    base = f"/street/{table_id}/"
    assert "Delete this table" in text(client.get(base + "share"))
    confirm = client.get(base + "delete")
    assert confirm.status_code == 200 and "cannot be undone" in text(confirm)
    assert "Mia" in text(client.get("/players"))
    answer = client.post(base + "delete")
    assert answer.status_code == 303
    assert "deleted" in text(client.get(answer.headers["Location"]))
    for url in (base, base + "history", base + "export.json", base + "share"):
        assert client.get(url).status_code == 404, url
    assert "Mia" not in text(client.get("/players"))
    with app.app_context():
        db = get_db()
        for kept in ("tables", "events", "snapshots", "results"):
            assert db.execute(f"select count(*) from {kept}").fetchone()[0] == 0, kept


def test_only_the_creator_may_delete(app, client):
    url = new_table(client, "Ann", "Ben")
    table_id = url.strip("/").split("/")[-1]
    other = app.test_client()
    other.get(f"/j/{table_id}")
    assert "Only the phone that started this table" in text(other.get(url + "share"))
    assert other.get(url + "delete").status_code == 403
    assert other.post(url + "delete").status_code == 403
    assert client.get(url).status_code == 200


def test_a_joined_phone_is_refused_on_the_apps_own_page_in_its_language(app, client):
    """Issue 43, finding 4: the delete page or a renewal asked by a phone that joined was
    Werkzeug's bare "403 Forbidden" in English; now it is the app's page, in the players'
    language, with the way back to the table. Any other refusal too (a request too large)."""
    url = new_table(client, "Ann", "Ben")
    other = app.test_client()
    other.get(f"/j/{url.strip('/').split('/')[-1]}")
    for answer in (other.get(url + "delete", headers=GERMAN),
                   other.post(url + "renew", headers=GERMAN)):
        page = text(answer)
        assert answer.status_code == 403 and "Forbidden" not in page
        assert "<h1>Nicht erlaubt</h1>" in page
        assert ("Nur das Handy, das diesen Tisch gestartet hat, darf seine Links erneuern oder "
                "ihn löschen") in page
        assert f'href="{url}">Zurück zum Tisch</a>' in page
    too_large = client.post(url + "buy", headers=GERMAN, data={"x": "a" * 70_000})
    assert too_large.status_code == 413 and "Request Entity Too Large" not in text(too_large)
    assert "Diese Anfrage konnte nicht angenommen werden" in text(too_large)
    assert f'href="{url}">Zurück zum Tisch</a>' in text(too_large)


def test_a_delete_without_csrf_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.sqlite")})
    client = app.test_client()
    page = text(client.get("/"))
    token = page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    answer = client.post("/new", data={"csrf_token": token, "game": "yard",
                                       "players-0-name": "Ann", "players-1-name": "Ben"})
    url = answer.headers["Location"]
    assert client.post(url + "delete").status_code == 400
    assert client.get(url).status_code == 200


# Retention -----------------------------------------------------------------------------------


def test_tables_untouched_for_a_year_are_removed_and_others_stay(app, client):
    old = seed(app, "street", *FINISHED["street"])
    recent = seed(app, "street", *FINISHED["street"])
    with app.app_context():
        db = get_db()
        db.execute("update tables set touched_at = '2020-01-01T00:00:00+00:00' where id = ?",
                   [old])
        assert storage.prune(db, storage.now(-timedelta(days=365))) == 1
        assert storage.get_table(db, old) is None and storage.get_table(db, recent)
        assert db.execute("select count(*) from events where table_id = ?", [old]
                          ).fetchone()[0] == 0


def test_opening_or_writing_a_table_touches_it(app, client):
    url = new_table(client, "Ann", "Ben")
    table_id = url.strip("/").split("/")[-1]

    def touched():
        with app.app_context():
            return get_db().execute("select touched_at from tables where id = ?",
                                    [table_id]).fetchone()[0]

    def set_touched(at):
        with app.app_context():
            db = get_db()
            db.execute("update tables set touched_at = ? where id = ?", [at, table_id])

    set_touched("2020-01-01T00:00:00+00:00")
    client.get(url)
    assert touched() > "2026"
    set_touched("2020-01-01T00:00:00+00:00")
    client.post(url + "undo")  # nothing to undo: refused, nothing written
    assert touched() == "2020-01-01T00:00:00+00:00"


def test_the_prune_command_removes_what_is_old_and_says_so(tmp_path, monkeypatch):
    instance = tmp_path / "instance"
    monkeypatch.setenv("COMPANION_INSTANCE", str(instance))
    app = create_app()  # the instance's own database, as the command opens it
    old = seed(app, "street", *FINISHED["street"])
    kept = seed(app, "yard", *FINISHED["yard"])
    db = storage.connect(app.config["DATABASE"])
    db.execute("update tables set touched_at = '2020-01-01T00:00:00+00:00' where id = ?", [old])
    env = {"COMPANION_INSTANCE": str(instance), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-m", "companion", "prune"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Deleted 1 table(s) untouched since" in run.stdout
    assert storage.get_table(db, old) is None and storage.get_table(db, kept) is not None
    refused = subprocess.run([sys.executable, "-m", "companion", "prune", "--days", "0"],
                             env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "--days must be 1 or more" in refused.stderr


# A browser's tables --------------------------------------------------------------------------


def test_the_home_page_lists_the_latest_tables_and_links_to_all(app, client):
    """Up to MAX_REMEMBERED_TABLES are held, so the home page lists the latest HOME_TABLES
    above the new-table form, and the others on their own page."""
    from companion.views.main import HOME_TABLES

    names = [f"P{n}" for n in range(HOME_TABLES + 2)]
    for name in names:
        new_table(client, name, "Ben")
    home = text(client.get("/"))
    listed = home.split('<ul class="tables">')[1].split("</ul>")[0]
    assert [n for n in names if f">{n}," in listed] == names[-HOME_TABLES:]
    assert f"All your tables ({len(names)})" in home
    every = text(client.get("/tables"))
    assert all(f">{n}," in every for n in names)
    assert "P0" not in text(app.test_client().get("/tables"))
    assert "This phone has no tables yet." in text(app.test_client().get("/tables"))


def test_the_session_cookie_stays_under_4_kb_with_everything_kept(app, monkeypatch):
    """A browser drops a cookie over 4 KB, and with it every table it holds: the most tables
    and started tables, a 5th Avenue board and the most Urbanisation cards a phone keeps (each
    name as long as kept) fit, however many cards its tables have seen."""
    from companion.rules import urbanisation_offers as offering
    from companion.views import urbanisation

    long = "W" * 60
    monkeypatch.setattr(offering, "known_factories", lambda state: {
        n: {"colour": "white", "goods": 3, "name": f"{long}{n}"} for n in range(1, 100)})
    monkeypatch.setattr(offering, "known_inventions", lambda state: [
        (f"ability-{n}", f"{long}{n}") for n in range(60)])
    with app.test_request_context("/"):
        from flask import session

        urbanisation.learn(None)
        kept = session[urbanisation.MY_CARDS]
        assert len(kept["factories"]) == urbanisation.KEPT_FACTORIES
        assert len(kept["inventions"]) == urbanisation.KEPT_INVENTIONS
        assert "99" in kept["factories"]  # the latest seen are kept
        cards = dict(kept)
    client = app.test_client()
    url = new_table(client, "Ann", "Ben", game="fifth_avenue")
    with client.session_transaction() as session:
        session["tables"] = [storage.mark_of(f"t{n}") for n in range(MAX_REMEMBERED_TABLES)]
        session["owned"] = [storage.mark_of(f"o{n}") for n in range(MAX_OWNED_TABLES)]
        session[urbanisation.MY_CARDS] = cards
        session["language"] = "de"
    board = {"colours": "orange yellow pink red brown blue grey green", "set_sizes":
             "2 3 2 3 2 3 2 3", "keep": "y"}
    from tests.conftest import act

    act(client, url, "board", **board)
    cookie = client.get_cookie("session").value
    assert len(cookie) < 3200, len(cookie)  # room for a change being made, a note
