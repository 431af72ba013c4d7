"""The only module that touches SQLite: tables (games being played) and their event logs."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from .rules.log import CHANGE, Event, is_time
from .rules.log import VERSION as LOG_VERSION

migrations = Migrations("companion")


@migrations()
def create_tables_and_events(db: Database) -> None:
    db["tables"].create(
        {
            "id": str,
            "game": str,
            "players": str,  # JSON list of {"name", "colour"} in seat order
            "created_at": str,
            "status": str,  # "open" or "finished"
        },
        pk="id",
    )
    db["events"].create(
        {
            "id": int,
            "table_id": str,
            "seq": int,
            "kind": str,
            "payload": str,
            "at": str,
        },
        pk="id",
        foreign_keys=[("table_id", "tables", "id")],
    )
    db["events"].create_index(["table_id", "seq"], unique=True)


@migrations()
def create_settings(db: Database) -> None:
    db["settings"].create({"name": str, "value": str}, pk="name")


@migrations()
def add_view_links_and_rate_limits(db: Database) -> None:
    db["tables"].add_column("view_token", str)
    for row in list(db.query("select id from tables")):
        db["tables"].update(row["id"], {"view_token": new_table_id()})
    db["tables"].create_index(["view_token"], unique=True)
    db["rate_limits"].create(
        {"client": str, "action": str, "window": int, "count": int},
        pk=("client", "action", "window"),
    )


@migrations()
def add_action_keys(db: Database) -> None:
    """Each action form's one-time key, stored with the event it recorded, and a digest of what
    was submitted with it: the same key and request again is a retry, never a second event."""
    db["events"].add_column("action_key", str)
    db["events"].add_column("request", str)
    db["events"].create_index(["table_id", "action_key"], unique=True)


@migrations()
def token_buckets(db: Database) -> None:
    """Rate limits as token buckets (the fixed windows of `rate_limits` allowed bursts)."""
    db["rate_limits"].drop()
    db["rate_buckets"].create({"client": str, "action": str, "tokens": float, "at": float},
                              pk=("client", "action"))
    db["rate_buckets"].create_index(["action", "at"])


@migrations()
def repair_times(db: Database) -> None:
    """Dates stored before imports checked them strictly: a table's becomes its first event's
    time (or now), an event's its table's (downloads name files by date; BG Stats reads it)."""
    repair_stored_times(db)


def repair_stored_times(db: Database) -> None:
    """Every stored time a time the app can show (`is_time`: ISO, and within the years 1 to
    9999 in UTC); one that is not becomes its table's first good event time, or now."""
    for table_id, created_at in db.execute("select id, created_at from tables").fetchall():
        times = [at for (at,) in db.execute("select at from events where table_id = ? "
                                            "order by seq", [table_id]) if is_time(at)]
        if not is_time(created_at):
            created_at = times[0] if times else now()
            db.execute("update tables set created_at = ? where id = ?", [created_at, table_id])
        for event_id, at in db.execute("select id, at from events where table_id = ?",
                                       [table_id]).fetchall():
            if not is_time(at):
                db.execute("update events set at = ? where id = ?", [created_at, event_id])


@migrations()
def forget_the_shared_board(db: Database) -> None:
    """A board edited at any table used to become everybody's default: it is each browser's
    own now (in its session), so the shared one goes."""
    db["settings"].drop()


@migrations()
def add_snapshots(db: Database) -> None:
    """Each table's state as of its last event, kept with it, so that no page or action has to
    replay the log (the bytes are `companion.replays`' to read)."""
    db["snapshots"].create({"table_id": str, "seq": int, "state": bytes}, pk="table_id",
                           foreign_keys=[("table_id", "tables", "id")])


@migrations()
def add_results(db: Database) -> None:
    """Each finished table's result, kept when it finishes, so that the players' pages read
    results, never logs (`companion.players`)."""
    db["results"].create({"table_id": str, "result": str}, pk="table_id",
                         foreign_keys=[("table_id", "tables", "id")])


@migrations()
def mark_tables(db: Database) -> None:
    """A table's mark (`mark_of`: a digest of its id), which a browser's session keeps instead
    of the table's link; and when the table was last touched (started, written or opened), for
    the retention command (`prune`). Times stored before imports checked their range are
    repaired (`repair_stored_times`)."""
    db["tables"].add_column("mark", str)
    db["tables"].add_column("touched_at", str)
    for (table_id,) in db.execute("select id from tables").fetchall():
        db.execute("update tables set mark = ?, touched_at = ? where id = ?",
                   [mark_of(table_id), now(), table_id])
    db["tables"].create_index(["mark"], unique=True)
    db["tables"].create_index(["touched_at"])
    repair_stored_times(db)


@migrations()
def add_log_versions(db: Database) -> None:
    """Each table's log version (`rules.log.VERSION`): the tables from before events said
    what they mean are version 1, brought up to date once, at start-up
    (`companion.replays.upgrade_logs`)."""
    db["tables"].add_column("log_version", int, not_null_default=1)


@migrations()
def add_earlier_tables(db: Database) -> None:
    """The tables of its game that the phone which started a table had then, newest first
    (`earlier_tables`, a JSON list of ids): what a game takes from them (the street's card
    library) is the table's own, the same on every phone. NULL for the tables started before."""
    db["tables"].add_column("earlier_tables", str)


@dataclass(frozen=True)
class Once:
    """What makes a submission one action: the form's one-time key and a digest of its fields."""

    key: str
    request: str


class GoneError(Exception):
    """The table is not at this id any more: its links were renewed meanwhile."""


class StaleError(Exception):
    """A write based on an outdated view of the table: `missed` events happened meanwhile, the
    last of them (up to three) in `since`; or its form's key was used before with other fields
    (`key_used`: another button of the same screen)."""

    def __init__(self, since: list[Event], missed: int, key_used: bool = False):
        super().__init__("The table changed since this screen was loaded.")
        self.since = since
        self.missed = missed
        self.key_used = key_used


class DamagedError(sqlite3.DatabaseError):
    """The database file is damaged: SQLite finds faults in it, or a table's log reads back
    with events missing. It is not served (start-up, `check`), nor a log answered in part."""


def connect(path: str, timeout: float = 10) -> Database:
    """Open the database file (check() and migrate() it once at start-up); a new file is made
    owner-only first (SQLite gives its WAL and shared-memory files the same permissions). A
    writer waits up to `timeout` seconds for another's write lock (busy timeout), then gets
    sqlite3.OperationalError (`busy`)."""
    if path != ":memory:" and not os.path.exists(path):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    conn = sqlite3.connect(path, timeout=timeout, check_same_thread=False, isolation_level=None)
    db = Database(conn)
    db.path = path  # type: ignore[attr-defined]  # where `damage` is marked
    db.execute("PRAGMA foreign_keys = ON")
    return db


def busy(error: BaseException) -> bool:
    """SQLite's "database is locked": another connection held the lock past the busy timeout
    (not a fault of the file: the same request succeeds once the lock is free)."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return isinstance(error, sqlite3.OperationalError) and code in (sqlite3.SQLITE_BUSY,
                                                                    sqlite3.SQLITE_LOCKED)


def backup(db: Database, target: str) -> int:
    """A copy of the whole database into the file `target` (replaced if there), made with
    SQLite's online backup API: consistent as of one moment, safe while the server writes
    (writers wait at most a page step, never for the whole copy). The copy is checked with
    `integrity_check` (DamagedError if it finds a fault, and the copy is removed) and made
    owner-only; its number of events."""
    unfinished = f"{target}.partial"
    if os.path.exists(unfinished):
        os.remove(unfinished)
    os.close(os.open(unfinished, os.O_WRONLY | os.O_CREAT, 0o600))
    copy = sqlite3.connect(unfinished)
    try:
        db.conn.backup(copy, pages=256)
        faults = [row[0] for row in copy.execute("PRAGMA integrity_check").fetchall()]
        events = copy.execute("select count(*) from events").fetchone()[0]
    finally:
        copy.close()
    if faults != ["ok"]:
        os.remove(unfinished)
        raise DamagedError(f"The backup did not pass SQLite's integrity check ({faults[0]}): "
                           "nothing was written; check the database file itself.")
    os.replace(unfinished, target)
    return int(events)


def check(db: Database, path: str) -> None:
    """At start-up, before anything is read or written: a file SQLite's quick_check finds
    faults in is refused (DamagedError, saying what to do), never served in part."""
    try:
        faults = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.DatabaseError as error:
        if busy(error):
            raise
        faults = [str(error)]
    if faults != ["ok"]:
        raise DamagedError(damaged(path, faults))
    if damage(path) is not None:  # found damaged while served, and since restored
        os.remove(damage_mark(path))


def damaged(path: str, faults: list[str]) -> str:
    """What the operator reads when the database file is damaged: which file, and what to do."""
    found = "; ".join(" ".join(fault.split()) for fault in faults[:3])[:300]
    return (f"The database file {path} is damaged (SQLite's quick_check: {found}). The "
            "companion does not serve a damaged file, so that nothing more is lost or answered "
            "from part of it. Stop every server using it, keep a copy of the file (and of its "
            "-wal file, if there is one), then put your last backup in its place, or recover "
            f"what SQLite can still read: sqlite3 {path} .recover | sqlite3 recovered.sqlite, "
            "and move recovered.sqlite to its place. Then start the companion again.")


def damage_mark(path: str) -> str:
    """The file beside the database that says it was found damaged while served: every worker
    process reads it, and stops writing."""
    return f"{path}.damaged"


def damage(path: str) -> str | None:
    """What was found, if the database was found damaged while served (else None)."""
    try:
        with open(damage_mark(path), encoding="utf-8") as mark:
            return mark.read()
    except FileNotFoundError:
        return None


def examine(path: str) -> str | None:
    """After an error that may be damage ("database disk image is malformed"): SQLite's
    quick_check on a connection of its own; if it finds faults, the database is marked damaged
    (nothing more is written to it) and what to do is returned."""
    try:
        db = sqlite3.connect(path, timeout=10)
        try:
            faults = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        if busy(error):
            return None
        faults = [str(error)]
    if faults == ["ok"]:
        return None
    said = damaged(path, faults)
    with open(damage_mark(path), "w", encoding="utf-8") as mark:
        mark.write(said)
    return said


def migrate(db: Database) -> None:
    """Bring the schema up to date, in WAL mode (kept in the file itself, so a connection
    opened later need not ask for it again). Two servers starting at once on one file both
    start: each waits for the write lock (BEGIN IMMEDIATE, busy timeout) before it looks for
    migrations to apply, so the second finds them applied by the first."""
    if db.execute("PRAGMA database_list").fetchone()[2]:  # a file, not :memory:
        wal(db)
    with write_transaction(db):
        migrations.apply(db)


def wal(db: Database) -> None:
    """WAL mode, also while another server is switching the same new file to it: SQLite can
    answer "database is locked" to the switch at once, without waiting, so it is tried again
    for up to the connection's busy timeout (the second finds WAL mode on: nothing to do)."""
    deadline = time.monotonic() + db.execute("PRAGMA busy_timeout").fetchone()[0] / 1000
    while True:
        try:
            db.enable_wal()
            return
        except sqlite3.OperationalError as error:
            if not busy(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


@contextmanager
def write_transaction(db: Database) -> Iterator[None]:
    """BEGIN IMMEDIATE: take the write lock before reading, so concurrent writers queue up
    instead of both reading the same last event; commit at the end, roll back on any error.
    Nothing is written to a file found damaged while served (`damage`): DamagedError."""
    path = getattr(db, "path", None)  # a connection `connect` made
    said = damage(path) if path else None
    if said is not None:
        raise DamagedError(said)
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.rollback()
        raise
    db.commit()


def now(offset: timedelta = timedelta()) -> str:
    """The time now (or `offset` from now), in UTC: as every time the app writes."""
    return (datetime.now(UTC) + offset).isoformat(timespec="seconds")


def new_table_id() -> str:
    """An unguessable table link: 128 bits of randomness."""
    return secrets.token_urlsafe(16)


def mark_of(table_id: str) -> str:
    """A table's mark: the first 64 bits of a digest of its id. A browser's session names its
    tables by their marks, which lead to no link (whoever reads the cookie learns no table's
    link; a mark cannot be added to the signed cookie without the server's key). Renewed links
    give the table a new mark, so the marks other browsers kept lead nowhere."""
    return hashlib.sha256(table_id.encode()).hexdigest()[:16]


def create_table(db: Database, game: str, players: list[dict[str, str]],
                 earlier: list[str] | None = None) -> str:
    """A new table, with the tables of its game the phone starting it had (`earlier`)."""
    table_id = new_table_id()
    db["tables"].insert(
        {
            "id": table_id,
            "game": game,
            "players": json.dumps(players, ensure_ascii=False),
            "created_at": now(),
            "status": "open",
            "view_token": new_table_id(),
            "mark": mark_of(table_id),
            "touched_at": now(),
            "log_version": LOG_VERSION,
            "earlier_tables": json.dumps(earlier or []),
        }
    )
    return table_id


def get_table(db: Database, table_id: str) -> dict[str, Any] | None:
    """The table at this id, or None."""
    return _table_where(db, "id", table_id)


def _table_where(db: Database, column: Literal["id", "view_token"], value: str
                 ) -> dict[str, Any] | None:
    """The table whose `column` (id or view_token, both unique) holds `value`, or None. Plain
    SQL on every page and action: sqlite-utils' table objects look the schema up on each use."""
    cursor = db.execute(f"select * from tables where {column} = ?", [value])
    row = cursor.fetchone()
    if row is None:
        return None
    found = dict(zip([described[0] for described in cursor.description], row, strict=True))
    return found | {"players": json.loads(found["players"])}


def list_tables(db: Database, marks: list[str]) -> list[dict[str, Any]]:
    """The tables with these marks (`mark_of`), open ones first, newest first within each."""
    if not marks:
        return []
    rows = db.query(
        f"select * from tables where mark in ({places(marks)}) "
        "order by status = 'finished', created_at desc, rowid desc",
        marks,
    )
    return [dict(row, players=json.loads(row["players"])) for row in rows]


def latest_tables(db: Database, marks: list[str], game: str, but: str, count: int) -> list[str]:
    """The ids of the newest `count` tables of this game with these marks, but `but`."""
    if not marks:
        return []
    rows = db.execute(f"select id from tables where mark in ({places(marks)}) and game = ? "
                      "and id != ? order by created_at desc, rowid desc limit ?",
                      [*marks, game, but, count])
    return [table_id for (table_id,) in rows]


def places(values: list[Any]) -> str:
    """One SQL parameter mark per value: "?, ?, ?"."""
    return ", ".join("?" for _ in values)


def touch(db: Database, table_id: str) -> None:
    """The table was opened: touched now (for retention, `prune`)."""
    with write_transaction(db):
        db.execute("update tables set touched_at = ? where id = ?", [now(), table_id])


def delete_table(db: Database, table_id: str) -> bool:
    """Delete a table and all it holds (its log, snapshot and result), in one transaction;
    False when there was none at this id (deleted or renewed meanwhile)."""
    with write_transaction(db):
        return remove_tables(db, [table_id]) > 0


def prune(db: Database, before: str) -> int:
    """Retention: delete every table untouched (not started, written or opened) since
    `before` (an ISO time in UTC), with all it holds; how many were deleted."""
    with write_transaction(db):
        stale = [row[0] for row in db.execute("select id from tables where touched_at < ?",
                                              [before])]
        return remove_tables(db, stale)


def remove_tables(db: Database, ids: list[str]) -> int:
    """Inside a write transaction: these tables and everything kept for them."""
    removed = 0
    for start in range(0, len(ids), 500):  # SQLite's limit on parameters is higher: be modest
        chunk = ids[start:start + 500]
        for kept in ("events", "snapshots", "results"):
            db.execute(f"delete from {kept} where table_id in ({places(chunk)})", chunk)
        removed += db.execute(f"delete from tables where id in ({places(chunk)})",
                              chunk).rowcount
    return removed


def events(db: Database, table_id: str) -> list[Event]:
    """The table's whole log, oldest first, or an error, never part of it: a damaged page
    raises sqlite3.DatabaseError, and a damaged index, which can lose rows silently, gives
    DamagedError (the events must be numbered 1, 2, 3, ... at least up to the one the table's
    snapshot was kept with)."""
    rows = db.execute("select seq, kind, payload, at from events where table_id = ? "
                      "order by seq", [table_id]).fetchall()
    kept = db.execute("select seq from snapshots where table_id = ?", [table_id]).fetchone()
    seqs = [row[0] for row in rows]
    if seqs != list(range(1, len(seqs) + 1)) or (kept is not None and kept[0] > len(seqs)):
        raise DamagedError("A table's log reads back with events missing: the database file "
                           "is damaged (run PRAGMA quick_check on it).")
    return [Event(seq, kind, json.loads(payload), at) for seq, kind, payload, at in rows]


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
    keep_snapshot(db, table_id, event.seq, snapshot)
    keep_result(db, table_id, result)


def event_time(db: Database, table_id: str, seq: int) -> str:
    """When the table's event `seq` was recorded (its creation time before its first)."""
    row = db.execute("select at from events where table_id = ? and seq = ?",
                     [table_id, seq]).fetchone()
    if row is None:
        row = db.execute("select created_at from tables where id = ?", [table_id]).fetchone()
    return str(row[0]) if row else now()


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


def snapshot(db: Database, table_id: str) -> tuple[int, bytes] | None:
    """The snapshot kept with the table's last event (or an older one): its seq and bytes."""
    row = db.execute("select seq, state from snapshots where table_id = ?",
                     [table_id]).fetchone()
    return (int(row[0]), bytes(row[1])) if row else None


def keep_result(db: Database, table_id: str, result: str | None) -> None:
    """A finished table's result (JSON), or none while it is open (its final undone)."""
    if result is None:
        db.execute("delete from results where table_id = ?", [table_id])
    else:
        db.execute("insert or replace into results (table_id, result) values (?, ?)",
                   [table_id, result])


def results(db: Database, marks: list[str]) -> list[str]:
    """The result (JSON) of each finished table among these (by their marks), oldest first."""
    rows = db.execute("select r.result from results r join tables t on t.id = r.table_id "
                      f"where t.mark in ({places(marks)}) and t.status = 'finished' "
                      "order by t.created_at, t.rowid", marks)
    return [row[0] for row in rows]


def unscored(db: Database) -> list[dict[str, Any]]:
    """Finished tables without a result yet (finished before results were kept)."""
    rows = db.query("select * from tables where status = 'finished' and id not in "
                    "(select table_id from results)")
    return [dict(row, players=json.loads(row["players"])) for row in rows]


def has_table(db: Database, table_id: str) -> bool:
    """A table is at this id (not deleted, nor its links renewed)."""
    return db.execute("select 1 from tables where id = ?", [table_id]).fetchone() is not None


def keep_snapshot(db: Database, table_id: str, seq: int, state: bytes) -> None:
    """Keep a snapshot of the table as it is after event `seq`, unless a later one is kept (one
    of the same event is replaced: it may have been kept under other rules)."""
    db.execute(
        "insert into snapshots (table_id, seq, state) values (?, ?, ?) "
        "on conflict (table_id) do update set seq = excluded.seq, state = excluded.state "
        "where excluded.seq >= snapshots.seq", [table_id, seq, state])


def earlier_use(db: Database, table_id: str, key: str) -> tuple[Event, str] | None:
    """The event recorded with this action key, and the digest of what was submitted with it."""
    row = db.execute(
        "select seq, kind, payload, at, request from events where table_id = ? and action_key = ?",
        [table_id, key],
    ).fetchone()
    return (Event(row[0], row[1], json.loads(row[2]), row[3]), row[4]) if row else None


def get_table_by_view_token(db: Database, view_token: str) -> dict[str, Any] | None:
    """The table a view-only (scoreboard) link shows, or None."""
    return _table_where(db, "view_token", view_token)


def renew_links(db: Database, table_id: str) -> str:
    """Revoke a table's links: a new table id (the scorers' link) and a new view-only link.

    The events move to the new id in the same transaction (foreign keys checked at commit), so
    nothing is lost; every old link stops working at once.
    """
    new_id = new_table_id()
    with write_transaction(db):
        db.execute("PRAGMA defer_foreign_keys = ON")
        moved = db.execute("update tables set id = ?, view_token = ?, mark = ?, touched_at = ? "
                           "where id = ?",
                           [new_id, new_table_id(), mark_of(new_id), now(), table_id]).rowcount
        if not moved:
            raise GoneError(table_id)  # renewed by another request meanwhile
        db.execute("update events set table_id = ? where table_id = ?", [new_id, table_id])
        db.execute("update snapshots set table_id = ? where table_id = ?", [new_id, table_id])
        db.execute("update results set table_id = ? where table_id = ?", [new_id, table_id])
        db.execute("update tables set earlier_tables = replace(earlier_tables, ?, ?) "
                   "where instr(earlier_tables, ?)",
                   [json.dumps(table_id), json.dumps(new_id), json.dumps(table_id)])
    return new_id


def rate_limited(db: Database, client: str, action: str, limit: int, seconds: int,
                 now: float | None = None) -> bool:
    """Take one `action` by `client` from its token bucket: it holds `limit` tokens and refills
    at `limit` per `seconds`, so no stretch of time allows more than `limit` plus what refilled
    in it (a fixed window allowed twice the limit across its boundary). True when the bucket is
    empty: then the action must not be done. A clock stepped back counts as no time passed, and
    a bucket never holds fewer than 0 tokens, so a refusal never outlasts one refill."""
    now = time.time() if now is None else now
    rate = limit / seconds
    with write_transaction(db):
        row = db.execute("select tokens, at from rate_buckets where client = ? and action = ?",
                         [client, action]).fetchone()
        tokens = float(limit) if row is None else refilled(row[0], now - row[1], rate, limit)
        refused = tokens < 1
        db.execute(
            "insert into rate_buckets (client, action, tokens, at) values (?, ?, ?, ?) "
            "on conflict (client, action) do update set tokens = excluded.tokens, "
            "at = excluded.at",
            [client, action, tokens if refused else tokens - 1, now],
        )
        # a bucket untouched for `seconds` is full again: as good as none
        db.execute("delete from rate_buckets where action = ? and at < ?",
                   [action, now - seconds])
    return refused


def refilled(tokens: float, elapsed: float, rate: float, limit: int) -> float:
    """A bucket's tokens after `elapsed` seconds at `rate`: between 0 and `limit`, and no
    refill (nor drain) for a negative `elapsed` (the clock stepped back)."""
    return min(float(limit), max(0.0, tokens + max(0.0, elapsed) * rate))


def table_players(db: Database, marks: list[str]) -> list[tuple[str, list[str]]]:
    """The game and player names of the tables with these marks, oldest first (the names a
    browser has seen at its tables, to suggest)."""
    rows = db.query(f"select game, players from tables where mark in ({places(marks)}) "
                    "order by created_at, rowid", marks) if marks else []
    return [(r["game"], [p["name"] for p in json.loads(r["players"])]) for r in rows]


def import_table(
    db: Database, game: str, players: list[dict[str, str]], events: list[Event],
    created_at: str, status: str,
) -> str:
    """A table restored from an export: a fresh id and view link (never the file's), its
    players, date and status, and every event as it was, all in one transaction."""
    table_id = new_table_id()
    with write_transaction(db):
        db["tables"].insert(
            {
                "id": table_id,
                "game": game,
                "players": json.dumps(players, ensure_ascii=False),
                "created_at": created_at,
                "status": status,
                "view_token": new_table_id(),
                "mark": mark_of(table_id),
                "touched_at": now(),
                "log_version": LOG_VERSION,
            }
        )
        db["events"].insert_all(
            {
                "table_id": table_id,
                "seq": event.seq,
                "kind": event.kind,
                "payload": json.dumps(event.payload, ensure_ascii=False, sort_keys=True),
                "at": event.at,
            }
            for event in events
        )
    return table_id
