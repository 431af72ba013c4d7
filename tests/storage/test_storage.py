"""Storage on a real SQLite file: schema, WAL, the append-only event log and its guards."""

import json
import sqlite3

import pytest

from companion import storage
from companion.rules import RuleError
from companion.rules.log import Event


def append(db, table, based_on, kind, payload, once=None, status="open", check=None):
    """One event through storage as `replays.record` writes it: claimed, (checked,) appended,
    in one write transaction; a retry gets its first event back, nothing written."""
    with storage.write_transaction(db):
        earlier = storage.claim(db, table, based_on, once)
        if earlier is not None:
            return earlier
        event = Event(based_on + 1, kind, payload, storage.now())
        if check is not None:
            check(event)
        storage.append_event(db, table, event, json.dumps(payload), once, status, b"state",
                             None)
    return event


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
    first = append(db, table, 0, "buy", {"player": "Zoë"})
    second = append(db, table, 1, "undo", {})
    assert (first.seq, second.seq) == (1, 2)
    assert [(e.seq, e.kind, dict(e.payload)) for e in storage.events(db, table)] == [
        (1, "buy", {"player": "Zoë"}), (2, "undo", {})]
    assert storage.get_table(db, table)["players"] == [{"name": "Zoë", "colour": "red"}]


def test_the_last_event_of_a_kind_holding_some_values(db):
    table = storage.create_table(db, "fifth_avenue", [{"name": "Ann", "colour": "red"}])
    for seq, (place, cards) in enumerate([("34w", [5, 5]), ("times", [4, 4]), ("34w", [6, 6])]):
        append(db, table, seq, "alea_bid", {"place": place, "round": 1, "cards": cards})
    append(db, table, 3, "undo", {})
    found = storage.last_like(db, table, "alea_bid", {"place": "34w", "round": 1})
    assert (found.seq, found.payload["cards"]) == (3, [6, 6])
    assert storage.last_like(db, table, "alea_bid", {"place": "times", "round": 1}).seq == 2
    assert storage.last_like(db, table, "alea_bid", {"place": "times", "round": 2}) is None
    assert storage.last_like(db, table, "auction", {"place": "34w"}) is None


def test_a_stale_writer_is_refused_and_told_what_happened(db):
    table = storage.create_table(db, "yard", [])
    append(db, table, 0, "buy", {"n": 1})
    with pytest.raises(storage.StaleError) as stale:
        append(db, table, 0, "buy", {"n": 2})
    assert [e.payload for e in stale.value.since] == [{"n": 1}]
    assert storage.last_seq(db, table) == 1


def test_a_refused_action_writes_nothing(db):
    table = storage.create_table(db, "yard", [])

    def refuse(log):
        raise RuleError("no")

    with pytest.raises(RuleError):
        append(db, table, 0, "buy", {}, check=refuse)
    assert storage.events(db, table) == []
    assert not db.conn.in_transaction


def test_status_is_stored_with_the_event(db):
    table = storage.create_table(db, "yard", [])
    append(db, table, 0, "final", {}, status="finished")
    assert storage.get_table(db, table)["status"] == "finished"


def test_two_connections_cannot_write_the_same_sequence_number(tmp_path):
    path = str(tmp_path / "two.sqlite")
    a, b = storage.connect(path), storage.connect(path)
    storage.migrate(a)
    table = storage.create_table(a, "yard", [])
    append(a, table, 0, "x", {})
    with pytest.raises(storage.StaleError):
        append(b, table, 0, "y", {})
    with pytest.raises(sqlite3.IntegrityError):
        b["events"].insert({"table_id": table, "seq": 1, "kind": "z", "payload": "{}", "at": ""})


def test_list_tables_open_first(db):
    old = storage.create_table(db, "yard", [])
    done = storage.create_table(db, "yard", [])
    append(db, done, 0, "final", {}, status="finished")
    marks = [storage.mark_of(t) for t in (done, old, "missing")]
    assert [t["id"] for t in storage.list_tables(db, marks)] == [old, done]
    assert storage.list_tables(db, []) == []


def test_a_submission_sent_again_returns_its_first_event_and_writes_nothing(db):
    table = storage.create_table(db, "yard", [])
    once = storage.Once("1.aaaaaaaaaaaaaaaa", "digest-1")
    first = append(db, table, 0, "buy", {"n": 1}, once)
    again = append(db, table, 0, "buy", {"n": 1}, once)
    assert again == first and again.seq == 1
    assert len(storage.events(db, table)) == 1
    checked = []
    append(db, table, 0, "buy", {"n": 1}, once, check=checked.append)
    assert checked == []  # a retry is answered before any rule runs


def test_the_same_key_with_other_fields_is_stale_and_keys_are_per_table(db):
    table, other = storage.create_table(db, "yard", []), storage.create_table(db, "yard", [])
    append(db, table, 0, "buy", {"n": 1}, storage.Once("k", "a"))
    with pytest.raises(storage.StaleError) as stale:
        append(db, table, 0, "buy", {"n": 2}, storage.Once("k", "b"))
    assert [e.payload for e in stale.value.since] == [{"n": 1}]
    with pytest.raises(storage.StaleError):  # even on a current screen: a key is used once
        append(db, table, 1, "buy", {"n": 2}, storage.Once("k", "b"))
    append(db, other, 0, "buy", {"n": 1}, storage.Once("k", "a"))
    assert len(storage.events(db, table)) == len(storage.events(db, other)) == 1


def test_a_key_moves_with_its_table_when_the_links_are_renewed(db):
    table = storage.create_table(db, "yard", [])
    once = storage.Once("k", "a")
    append(db, table, 0, "buy", {"n": 1}, once)
    renewed = storage.renew_links(db, table)
    assert append(db, renewed, 0, "buy", {"n": 1}, once).seq == 1
    assert len(storage.events(db, renewed)) == 1
