"""What is stored with a table's last event so that no page reads its log: snapshot and result."""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from .tables import places


def snapshot(db: Database, table_id: str) -> tuple[int, bytes] | None:
    """The snapshot kept with the table's last event (or an older one): its seq and bytes."""
    row = db.execute("select seq, state from snapshots where table_id = ?",
                     [table_id]).fetchone()
    return (int(row[0]), bytes(row[1])) if row else None


def store_snapshot(db: Database, table_id: str, seq: int, state: bytes) -> None:
    """Keep a snapshot of the table as it is after event `seq`, unless a later one is kept (one
    of the same event is replaced: it may have been kept under other rules)."""
    db.execute(
        "insert into snapshots (table_id, seq, state) values (?, ?, ?) "
        "on conflict (table_id) do update set seq = excluded.seq, state = excluded.state "
        "where excluded.seq >= snapshots.seq", [table_id, seq, state])


def store_result(db: Database, table_id: str, result: str | None) -> None:
    """A finished table's result (JSON), or none while it is open (its final undone)."""
    if result is None:
        db.execute("delete from results where table_id = ?", [table_id])
    else:
        db.execute("insert or replace into results (table_id, result) values (?, ?)",
                   [table_id, result])


def results(db: Database, marks: list[str]) -> list[str]:
    """The result (JSON) of each game finished at these tables (by their marks), oldest first:
    a game once, however many tables hold it. A table exported and imported again is the same
    game, begun at the same moment by the same seats, as BG Stats' play id counts it (found at
    a table: a copy imported on the same phone doubled every player's games and wins). Each is
    dated by its table's beginning, as its score sheet and results sheet are."""
    rows = db.execute("select json_set(r.result, '$.at', t.created_at) "
                      "from results r join tables t on t.id = r.table_id "
                      f"where t.mark in ({places(marks)}) and t.status = 'finished' "
                      "group by t.game, t.created_at, t.players "
                      "order by t.created_at, min(t.rowid)", marks)
    return [row[0] for row in rows]


def unscored(db: Database) -> list[dict[str, Any]]:
    """Finished tables without a result yet (finished before results were kept)."""
    rows = db.query("select * from tables where status = 'finished' and id not in "
                    "(select table_id from results)")
    return [dict(row, players=json.loads(row["players"])) for row in rows]
