"""The tables' event logs: each action appended once (`claim`, `append_event`), and read back."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from ..rules.log import CHANGE, Event
from ..rules.log import VERSION as LOG_VERSION
from .database import DamagedError, read_transaction
from .snapshots import store_result, store_snapshot
from .tables import GoneError, has_table, now, places


@dataclass(frozen=True)
class Once:
    """What makes a submission one action: the form's one-time key and a digest of its fields."""

    key: str
    request: str


class StaleError(Exception):
    """A write based on an outdated view of the table: `missed` events happened meanwhile, the
    last of them (up to three) in `since`; or its form's key was used before with other fields
    (`key_used`: another button of the same screen)."""

    def __init__(self, since: list[Event], missed: int, key_used: bool = False):
        super().__init__("The table changed since this screen was loaded.")
        self.since = since
        self.missed = missed
        self.key_used = key_used


def claim(db: Database, table_id: str, based_on: int, once: Once | None) -> Event | None:
    """Inside the write transaction, before an action is worked out: the event recorded
    before with this submission's key and fields (a retry: nothing is to be written), else
    None when the writer saw the table's last event (`based_on`). GoneError when the table's
    links were renewed since the writer loaded it; StaleError when the writer is behind, or
    the key came with other fields (another button of the same form)."""
    if not has_table(db, table_id):
        raise GoneError(table_id)
    earlier = earlier_use(db, table_id, once.key) if once else None
    if once and earlier and earlier[1] == once.request:
        return earlier[0]
    current = last_seq(db, table_id)
    if based_on != current or earlier:
        raise StaleError(events_since(db, table_id, based_on), current - based_on,
                         key_used=bool(earlier))
    return None


def append_event(db: Database, table_id: str, event: Event, payload: str, once: Once | None,
                 status: str, snapshot: bytes, result: str | None) -> None:
    """Inside the write transaction that `claim`ed it: the event (its payload as JSON text,
    with its one-time key), the table's status after it ("open" or "finished"), its snapshot
    and result (JSON, or None while it is not finished)."""
    db.execute(
        "insert into events (table_id, seq, kind, payload, at, action_key, request) "
        "values (?, ?, ?, ?, ?, ?, ?)",
        [table_id, event.seq, event.kind, payload, event.at, once.key if once else None,
         once.request if once else None])
    db.execute("update tables set status = ?, touched_at = ? where id = ?",
               [status, now(), table_id])
    store_snapshot(db, table_id, event.seq, snapshot)
    store_result(db, table_id, result)


def earlier_use(db: Database, table_id: str, key: str) -> tuple[Event, str] | None:
    """The event recorded with this action key, and the digest of what was submitted with it."""
    row = db.execute(
        "select seq, kind, payload, at, request from events where table_id = ? and action_key = ?",
        [table_id, key],
    ).fetchone()
    return (Event(row[0], row[1], json.loads(row[2]), row[3]), row[4]) if row else None


def last_seq(db: Database, table_id: str) -> int:
    row = db.execute("select max(seq) from events where table_id = ?", [table_id]).fetchone()
    return int(row[0] or 0)


def seq_of(db: Database, game: str, table_id: str) -> int | None:
    """A table's last event number (0 before any), or None when there is no table of `game` at
    this id: one read of the table's row and of the last entry of the events' (table_id, seq)
    index, as a table page's poll asks every second (`companion.polls`)."""
    row = db.execute("select game, (select max(seq) from events where table_id = tables.id) "
                     "from tables where id = ?", [table_id]).fetchone()
    if row is None or row[0] != game:
        return None
    return int(row[1] or 0)


def last_seqs(db: Database, table_ids: list[str]) -> dict[str, int]:
    """Each of these tables' last event (a table without events is left out)."""
    if not table_ids:
        return {}
    rows = db.execute(f"select table_id, max(seq) from events where table_id in "
                      f"({places(table_ids)}) group by table_id", table_ids)
    return {table_id: int(seq) for table_id, seq in rows}


def events(db: Database, table_id: str) -> list[Event]:
    """The table's whole log, oldest first, or an error, never part of it: a damaged page
    raises sqlite3.DatabaseError, and a damaged index, which can lose rows silently, gives
    DamagedError (the events must be numbered 1, 2, 3, ... at least up to the one the table's
    snapshot was kept with). Both are read as they were at one moment: an action recorded
    between the two reads is not a missing event."""
    with read_transaction(db):
        rows = db.execute("select seq, kind, payload, at from events where table_id = ? "
                          "order by seq", [table_id]).fetchall()
        kept = db.execute("select seq from snapshots where table_id = ?", [table_id]).fetchone()
    seqs = [row[0] for row in rows]
    if seqs != list(range(1, len(seqs) + 1)) or (kept is not None and kept[0] > len(seqs)):
        raise DamagedError("A table's log reads back with events missing: the database file "
                           "is damaged (run PRAGMA quick_check on it).")
    return [Event(seq, kind, json.loads(payload), at) for seq, kind, payload, at in rows]


def events_since(db: Database, table_id: str, seq: int, most: int = 3) -> list[Event]:
    """The last `most` events after `seq`, oldest first (what a stale screen missed)."""
    rows = db.execute(
        "select seq, kind, payload, at from events where table_id = ? and seq > ? "
        "order by seq desc limit ?", [table_id, seq, most]).fetchall()
    return [Event(r[0], r[1], json.loads(r[2]), r[3]) for r in reversed(rows)]


def events_at(db: Database, table_id: str, seqs: list[int]) -> dict[int, Event]:
    """The table's events with these numbers, by number."""
    if not seqs:
        return {}
    marks = ", ".join("?" for _ in seqs)
    rows = db.execute(f"select seq, kind, payload, at from events where table_id = ? "
                      f"and seq in ({marks})", [table_id, *seqs]).fetchall()
    return {r[0]: Event(r[0], r[1], json.loads(r[2]), r[3]) for r in rows}


def last_like(db: Database, table_id: str, kind: str, like: dict[str, Any]) -> Event | None:
    """The table's last event of `kind` whose payload holds each of these values (its keys
    the app's own names), in force or not, found by SQLite."""
    holds = "".join(f" and json_extract(payload, '$.{key}') = ?" for key in like)
    row = db.execute(f"select seq, kind, payload, at from events where table_id = ? and kind = ?"
                     f"{holds} order by seq desc limit 1", [table_id, kind, *like.values()]
                     ).fetchone()
    return None if row is None else Event(row[0], row[1], json.loads(row[2]), row[3])


def event_time(db: Database, table_id: str, seq: int) -> str:
    """When the table's event `seq` was recorded (its creation time before its first)."""
    row = db.execute("select at from events where table_id = ? and seq = ?",
                     [table_id, seq]).fetchone()
    if row is None:
        row = db.execute("select created_at from tables where id = ?", [table_id]).fetchone()
    return str(row[0]) if row else now()


def corrections(db: Database, table_id: str) -> list[Event]:
    """A table's corrections, oldest first: its changes of past actions (kind `change`) and
    the actions that say what they were for (a `reason`), found by SQLite, so that a score
    sheet reads these few events, not the whole log."""
    rows = db.execute("select seq, kind, payload, at from events where table_id = ? and "
                      "(kind = ? or json_extract(payload, '$.reason') is not null) order by seq",
                      [table_id, CHANGE]).fetchall()
    return [Event(seq, kind, json.loads(payload), at) for seq, kind, payload, at in rows]


def old_logs(db: Database) -> list[dict[str, Any]]:
    """The tables whose log is of an earlier version than the app's (`LOG_VERSION`)."""
    rows = db.query("select id, game, players, log_version from tables where log_version < ?",
                    [LOG_VERSION])
    return [dict(row, players=json.loads(row["players"])) for row in rows]


def rewrite_log(db: Database, table_id: str, events: list[Event]) -> None:
    """Inside a write transaction: a table's log brought up to the app's version, each of
    `events` (payloads only: numbers, kinds and times stay) as it is kept from now on; the
    snapshot kept with the old log goes (it holds its events)."""
    db.conn.executemany("update events set payload = ? where table_id = ? and seq = ?",
                        [(json.dumps(e.payload, ensure_ascii=False, sort_keys=True), table_id,
                          e.seq) for e in events])
    db.execute("delete from snapshots where table_id = ?", [table_id])
    db.execute("update tables set log_version = ? where id = ?", [LOG_VERSION, table_id])
