"""The database file: opened, written one transaction at a time, copied, refused when damaged."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from sqlite_utils import Database


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
    db.busy_timeout = timeout  # type: ignore[attr-defined]  # how long a writer waits its turn
    db.execute("PRAGMA foreign_keys = ON")
    return db


def busy(error: BaseException) -> bool:
    """SQLite's "database is locked": another connection held the lock past the busy timeout
    (not a fault of the file: the same request succeeds once the lock is free)."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return isinstance(error, sqlite3.OperationalError) and code in (sqlite3.SQLITE_BUSY,
                                                                    sqlite3.SQLITE_LOCKED)


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
def write_transaction(db: Database, wait_ms: int | None = None) -> Iterator[None]:
    """BEGIN IMMEDIATE: take the write lock before reading, so concurrent writers queue up
    (`turn_to_write`) instead of both reading the same last event; commit at the end, roll
    back on any error. A writer waits for its turn and the lock as long as the connection's
    busy timeout, or `wait_ms` (a write that may as well be left undone: `pages.share_page`).
    Nothing is written to a file found damaged while served (`damage`): DamagedError."""
    path = getattr(db, "path", None)  # a connection `connect` made
    said = damage(path) if path else None
    if said is not None:
        raise DamagedError(said)
    waits = getattr(db, "busy_timeout", 10) if wait_ms is None else wait_ms / 1000
    with turn_to_write(path, waits), busy_for(db, wait_ms):
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            db.rollback()
            raise
        db.commit()


@contextmanager
def busy_for(db: Database, wait_ms: int | None) -> Iterator[None]:
    """SQLite's own wait for the write lock set to `wait_ms` for the while, then as it was
    (None: left as it is)."""
    if wait_ms is None:
        yield
        return
    waits = db.execute("PRAGMA busy_timeout").fetchone()[0]
    db.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")
    try:
        yield
    finally:
        db.execute(f"PRAGMA busy_timeout = {int(waits)}")


# Writers of one file wait their turn in a queue, not in SQLite's busy wait, which sleeps 1, 2,
# 5, 10, 15, 20, 25... ms between its tries: under load a writer slept up to 20-230 ms for a
# lock another held for 1-2 ms. Measured (8 writers in 2 processes, each transaction 1 ms):
# at 240 writes a second a write's p99 20 ms and longest 105 ms, queued 5-6 ms and 19-35 ms;
# at 400 a second 55-80 ms and 231 ms, queued 7 ms and 17-107 ms.
TURN_POLL_SECONDS = 0.0002  # how often a writer of another process looks whether it is free
_turns: dict[tuple[int, str], threading.Lock] = {}
_turns_lock = threading.Lock()


@contextmanager
def turn_to_write(path: str | None, timeout: float) -> Iterator[None]:
    """This writer's turn to write the file at `path`: after this process's other threads (a
    lock each waits on) and the server's other processes (an flock on `<path>-writer`).
    Waiting longer than `timeout` (its write's wait, `write_transaction`), the writer goes on
    without it: SQLite's own lock, which the turn only queues for, still keeps the writes one at
    a time and answers busy after its own timeout (so a writer stuck behind another waits at
    most twice its timeout)."""
    if not path or path == ":memory:":
        yield
        return
    with _turns_lock:  # a process's own locks: one copied by a fork is never waited on
        lock = _turns.setdefault((os.getpid(), path), threading.Lock())
    deadline = time.monotonic() + timeout
    if not lock.acquire(timeout=timeout):
        yield
        return
    try:
        queue = os.open(f"{path}-writer", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            wait_for_flock(queue, deadline)
            yield
        finally:
            os.close(queue)  # the flock, if taken, goes with it
    finally:
        lock.release()


def wait_for_flock(queue: int, deadline: float) -> None:
    """The file's flock taken, looked for every TURN_POLL_SECONDS until `deadline`."""
    while True:
        try:
            fcntl.flock(queue, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                return
            time.sleep(TURN_POLL_SECONDS)


@contextmanager
def read_transaction(db: Database) -> Iterator[None]:
    """Reads that see the file as it was at the first of them, whatever is written meanwhile
    (a deferred transaction: in WAL mode a snapshot of the file); within a transaction already
    open, its own."""
    if db.conn.in_transaction:
        yield
        return
    db.execute("BEGIN")
    try:
        yield
    finally:
        db.conn.rollback()


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
