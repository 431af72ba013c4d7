"""Tables (games being played): their rows, links and marks, from start or import to deletion."""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlite_utils import Database

from ..rules.log import VERSION as LOG_VERSION
from ..rules.log import Event
from .database import write_transaction


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


def places(values: list[Any]) -> str:
    """One SQL parameter mark per value: "?, ?, ?"."""
    return ", ".join("?" for _ in values)


class GoneError(Exception):
    """The table is not at this id any more: its links were renewed meanwhile."""


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


def get_table(db: Database, table_id: str) -> dict[str, Any] | None:
    """The table at this id, or None."""
    return _table_where(db, "id", table_id)


def get_table_by_view_token(db: Database, view_token: str) -> dict[str, Any] | None:
    """The table a view-only (scoreboard) link shows, or None."""
    return _table_where(db, "view_token", view_token)


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


def has_table(db: Database, table_id: str) -> bool:
    """A table is at this id (not deleted, nor its links renewed)."""
    return db.execute("select 1 from tables where id = ?", [table_id]).fetchone() is not None


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


def table_players(db: Database, marks: list[str]) -> list[tuple[str, list[str]]]:
    """The game and player names of the tables with these marks, oldest first (the names a
    browser has seen at its tables, to suggest)."""
    rows = db.query(f"select game, players from tables where mark in ({places(marks)}) "
                    "order by created_at, rowid", marks) if marks else []
    return [(r["game"], [p["name"] for p in json.loads(r["players"])]) for r in rows]


def touch(db: Database, table_id: str) -> None:
    """The table was opened: touched now (for retention, `prune`)."""
    with write_transaction(db):
        db.execute("update tables set touched_at = ? where id = ?", [now(), table_id])


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
