"""Storage on a real SQLite file: schema, WAL, the append-only event log and its guards."""

import sqlite3

import pytest

from companion import storage
from companion.rules import RuleError


@pytest.fixture
def db(tmp_path):
    db = storage.connect(str(tmp_path / "t.sqlite"))
    storage.migrate(db)
    yield db
    db.close()


def accept(event):
    return storage.Written("open")


def test_schema_wal_and_idempotent_migrations(db, tmp_path):
    assert db.journal_mode == "wal"
    storage.migrate(db)  # a second start applies nothing new
    assert {"tables", "events"} <= set(db.table_names())
    assert db.execute("pragma integrity_check").fetchone()[0] == "ok"


def test_table_ids_are_long_and_random():
    ids = {storage.new_table_id() for _ in range(1000)}
    assert len(ids) == 1000
    assert all(len(i) == 22 for i in ids)  # 16 random bytes, url-safe base64


def test_events_append_in_sequence(db):
    table = storage.create_table(db, "yard", [{"name": "Zoë", "colour": "red"}])
    first = storage.append_event(db, table, 0, "buy", {"player": "Zoë"}, accept)
    second = storage.append_event(db, table, 1, "undo", {}, accept)
    assert (first.seq, second.seq) == (1, 2)
    assert [(e.seq, e.kind, dict(e.payload)) for e in storage.events(db, table)] == [
        (1, "buy", {"player": "Zoë"}), (2, "undo", {})]
    assert storage.get_table(db, table)["players"] == [{"name": "Zoë", "colour": "red"}]


def test_a_stale_writer_is_refused_and_told_what_happened(db):
    table = storage.create_table(db, "yard", [])
    storage.append_event(db, table, 0, "buy", {"n": 1}, accept)
    with pytest.raises(storage.StaleError) as stale:
        storage.append_event(db, table, 0, "buy", {"n": 2}, accept)
    assert [e.payload for e in stale.value.since] == [{"n": 1}]
    assert storage.last_seq(db, table) == 1


def test_a_refused_action_writes_nothing(db):
    table = storage.create_table(db, "yard", [])

    def refuse(log):
        raise RuleError("no")

    with pytest.raises(RuleError):
        storage.append_event(db, table, 0, "buy", {}, refuse)
    assert storage.events(db, table) == []
    assert not db.conn.in_transaction


def test_status_is_stored_with_the_event(db):
    table = storage.create_table(db, "yard", [])
    storage.append_event(db, table, 0, "final", {}, lambda event: storage.Written("finished"))
    assert storage.get_table(db, table)["status"] == "finished"


def test_two_connections_cannot_write_the_same_sequence_number(tmp_path):
    path = str(tmp_path / "two.sqlite")
    a, b = storage.connect(path), storage.connect(path)
    storage.migrate(a)
    table = storage.create_table(a, "yard", [])
    storage.append_event(a, table, 0, "x", {}, accept)
    with pytest.raises(storage.StaleError):
        storage.append_event(b, table, 0, "y", {}, accept)
    with pytest.raises(sqlite3.IntegrityError):
        b["events"].insert({"table_id": table, "seq": 1, "kind": "z", "payload": "{}", "at": ""})


def test_list_tables_open_first(db):
    old = storage.create_table(db, "yard", [])
    done = storage.create_table(db, "yard", [])
    storage.append_event(db, done, 0, "final", {}, lambda event: storage.Written("finished"))
    assert [t["id"] for t in storage.list_tables(db, [done, old, "missing"])] == [old, done]
    assert storage.list_tables(db, []) == []


def test_a_submission_sent_again_returns_its_first_event_and_writes_nothing(db):
    table = storage.create_table(db, "yard", [])
    once = storage.Once("1.aaaaaaaaaaaaaaaa", "digest-1")
    first = storage.append_event(db, table, 0, "buy", {"n": 1}, accept, once)
    again = storage.append_event(db, table, 0, "buy", {"n": 1}, accept, once)
    assert again == first and again.seq == 1
    assert len(storage.events(db, table)) == 1
    checked = []
    storage.append_event(db, table, 0, "buy", {"n": 1}, checked.append, once)
    assert checked == []  # a retry is answered before any rule runs


def test_the_same_key_with_other_fields_is_stale_and_keys_are_per_table(db):
    table, other = storage.create_table(db, "yard", []), storage.create_table(db, "yard", [])
    storage.append_event(db, table, 0, "buy", {"n": 1}, accept, storage.Once("k", "a"))
    with pytest.raises(storage.StaleError) as stale:
        storage.append_event(db, table, 0, "buy", {"n": 2}, accept, storage.Once("k", "b"))
    assert [e.payload for e in stale.value.since] == [{"n": 1}]
    with pytest.raises(storage.StaleError):  # even on a current screen: a key is used once
        storage.append_event(db, table, 1, "buy", {"n": 2}, accept, storage.Once("k", "b"))
    storage.append_event(db, other, 0, "buy", {"n": 1}, accept, storage.Once("k", "a"))
    assert len(storage.events(db, table)) == len(storage.events(db, other)) == 1


def test_a_key_moves_with_its_table_when_the_links_are_renewed(db):
    table = storage.create_table(db, "yard", [])
    once = storage.Once("k", "a")
    storage.append_event(db, table, 0, "buy", {"n": 1}, accept, once)
    renewed = storage.renew_links(db, table)
    assert storage.append_event(db, renewed, 0, "buy", {"n": 1}, accept, once).seq == 1
    assert len(storage.events(db, renewed)) == 1
