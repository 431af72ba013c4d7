"""A damaged database file (issue 27, items 2 and 3): the app does not start on it (SQLite's
quick_check), and the run command exits saying which file and what to do; a table's log that
reads back with events missing (a damaged index loses rows silently) or that cannot be read
whole is never exported in part."""

import os
import sqlite3
import subprocess
import sys
import threading

import pytest

from companion import storage
from companion.app import create_app
from tests.tables import YARD, seed

NAMES, ACTIONS = YARD


def made(instance, tables=3):
    """A real database, made by the app, with finished tables; its path and the tables' ids."""
    path = instance / "companion.sqlite"
    app = create_app({"DATABASE": str(path), "WTF_CSRF_ENABLED": False,
                      "PROPAGATE_EXCEPTIONS": False, "SECRET_KEY": "test"})
    ids = [seed(app, "yard", NAMES, ACTIONS) for _ in range(tables)]
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the file itself
    db.close()
    return app, path, ids


def page_size_and_count(path):
    db = sqlite3.connect(path)
    try:
        return (db.execute("PRAGMA page_size").fetchone()[0],
                db.execute("PRAGMA page_count").fetchone()[0])
    finally:
        db.close()


def overwrite_middle_page(path):
    """Garbage over the start (the b-tree page's header and cell pointers) of the middle one of
    the events' pages in the file, as a bad disk sector or a torn copy leaves it."""
    size, _ = page_size_and_count(path)
    db = sqlite3.connect(path)
    pages = [n for (n,) in db.execute("select pageno from dbstat where name = 'events' "
                                      "order by pageno")]
    db.close()
    with open(path, "r+b") as file:
        file.seek((pages[len(pages) // 2] - 1) * size)
        file.write(b"\xa5" * 64)


@pytest.fixture
def instance(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    return tmp_path


def test_the_app_refuses_a_damaged_file_naming_it_and_what_to_do(instance):
    _, path, _ = made(instance)
    overwrite_middle_page(path)
    with pytest.raises(storage.DamagedError) as refused:
        create_app({"DATABASE": str(path), "SECRET_KEY": "test"})
    said = str(refused.value)
    assert str(path) in said and "is damaged" in said
    assert "backup" in said and f"sqlite3 {path} .recover" in said


def test_the_run_command_exits_with_the_message_instead_of_serving(instance):
    _, path, _ = made(instance)
    overwrite_middle_page(path)
    run = subprocess.run([sys.executable, "-m", "companion", "--port", "0"],
                         env=dict(os.environ, COMPANION_INSTANCE=str(instance)),
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert f"The database file {path} is damaged" in run.stderr
    assert "Traceback" not in run.stderr
    assert "Companion is running" not in run.stdout


def test_a_sound_file_starts(instance):
    _, path, ids = made(instance)
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "test"})
    assert app.test_client().get(f"/yard/{ids[0]}/export.json").status_code == 200


def drop_index_entries(path, index, lost):
    """A damaged index that SQLite reads without an error: its root page (a leaf, for one
    table's log) says it holds `lost` entries fewer than it does, so the last events of the
    last table in it are not found through it any more."""
    size, _ = page_size_and_count(path)
    db = sqlite3.connect(path)
    root = db.execute("select rootpage from sqlite_master where name = ?", [index]).fetchone()[0]
    db.close()
    with open(path, "r+b") as file:
        file.seek((root - 1) * size)
        header = file.read(5)
        assert header[0] == 10, "the index should fit in one leaf page"
        file.seek((root - 1) * size + 3)
        file.write((int.from_bytes(header[3:5], "big") - lost).to_bytes(2, "big"))


def test_an_export_of_a_log_a_damaged_index_reads_in_part_fails(instance):
    app, path, [table_id] = made(instance, tables=1)
    drop_index_entries(path, "idx_events_table_id_seq", 5)
    db = sqlite3.connect(path)
    shown = db.execute("select seq from events where table_id = ? order by seq", [table_id])
    assert [seq for (seq,) in shown] == list(range(1, len(ACTIONS) - 4))  # silently in part
    db.close()
    response = app.test_client().get(f"/yard/{table_id}/export.json")
    assert response.status_code == 503  # quick_check finds the index damaged: marked so
    assert response.mimetype == "text/html"
    assert "The database of this server is damaged" in response.get_data(as_text=True)
    with pytest.raises(storage.DamagedError):
        storage.events(storage.connect(str(path)), table_id)


def test_an_export_of_a_log_that_cannot_be_read_whole_fails(instance, monkeypatch):
    """A damaged page met halfway through the log: SQLite raises, and the export answers the
    error page, not the events read before it."""
    app, path, [table_id] = made(instance, tables=1)
    connect = storage.connect

    def failing_halfway(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.conn = HalfwayConnection(db.conn)
        return db

    monkeypatch.setattr(storage, "connect", failing_halfway)
    app.extensions["companion.connections"] = threading.local()  # connect again
    response = app.test_client().get(f"/yard/{table_id}/export.json")
    assert response.status_code == 500
    assert b'"events"' not in response.data


class HalfwayConnection:
    """A connection whose reads of a table's whole log meet a damaged page after 3 rows."""

    def __init__(self, conn):
        self.conn = conn

    def __getattr__(self, name):
        return getattr(self.conn, name)

    def execute(self, sql, *args):
        cursor = self.conn.execute(sql, *args)
        if "from events where table_id = ? order by seq" in " ".join(sql.split()):
            return HalfwayCursor(cursor)
        return cursor


class HalfwayCursor:
    """A cursor that gives the first rows, then meets a damaged page."""

    def __init__(self, cursor):
        self.cursor = cursor

    def __getattr__(self, name):
        return getattr(self.cursor, name)

    def fetchall(self):
        self.cursor.fetchmany(3)
        raise sqlite3.DatabaseError("database disk image is malformed")

    def __iter__(self):
        yield from self.cursor.fetchmany(3)
        raise sqlite3.DatabaseError("database disk image is malformed")


def test_a_file_damaged_while_served_is_written_no_more_and_every_page_says_so(instance):
    """Issue 43, finding 5: after the file was damaged under a running server, pages answered
    200 or 500 and an undo on another table was written into it (303). Now the first error of
    the damaged file has SQLite's quick_check look at it: it is marked damaged, no write is
    taken any more (an undo on another table: refused, nothing written), every page says so in
    the players' language with what to do, and what can still be read is shown. A sound file
    restored in its place starts, and the mark is gone."""
    app, path, ids = made(instance)
    client = app.test_client()
    for table_id in ids:
        assert client.get(f"/yard/{table_id}/").status_code == 200  # kept in memory
    events_before = sqlite3.connect(path).execute("select count(*) from events").fetchone()[0]
    backup = instance / "backup.sqlite"
    storage.backup(storage.connect(str(path)), str(backup))
    overwrite_middle_page(path)
    app.extensions["companion.connections"] = threading.local()  # the server reads anew
    storage_reads = [client.get(f"/yard/{table_id}/{page}") for table_id in ids
                     for page in ("history", "export.json")]
    assert 503 in [answer.status_code for answer in storage_reads]
    damaged = next(a for a in storage_reads if a.status_code == 503)
    assert "The database of this server is damaged" in damaged.get_data(as_text=True)
    assert os.path.exists(storage.damage_mark(str(path)))

    undo = client.post(f"/yard/{ids[0]}/undo", headers={"Accept-Language": "de"},
                       data={"seq": len(ACTIONS), "key": "1.abcdefghijklmnop"})
    assert undo.status_code == 503
    assert "Die Datenbank dieses Servers ist beschädigt" in undo.get_data(as_text=True)
    table = client.get(f"/yard/{ids[0]}/", headers={"Accept-Language": "de"})
    assert table.status_code == 200  # what can still be read
    assert "Die Datenbank dieses Servers ist beschädigt" in table.get_data(as_text=True)

    os.replace(backup, path)  # restored from the backup
    for leftover in (f"{path}-wal", f"{path}-shm"):
        if os.path.exists(leftover):
            os.remove(leftover)
    restored = create_app({"DATABASE": str(path), "SECRET_KEY": "test"})
    assert not os.path.exists(storage.damage_mark(str(path)))
    assert storage.damage(str(path)) is None
    db = sqlite3.connect(path)
    assert db.execute("select count(*) from events").fetchone()[0] == events_before
    db.close()
    assert restored.test_client().get(f"/yard/{ids[0]}/").status_code == 200
