"""The schema: its sqlite-utils migrations, brought up to date at start-up (`migrate`)."""

from __future__ import annotations

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from ..rules.log import is_time
from .database import wal, write_transaction
from .tables import mark_of, new_table_id, now

migrations = Migrations("companion")


def migrate(db: Database) -> None:
    """Bring the schema up to date, in WAL mode (kept in the file itself, so a connection
    opened later need not ask for it again). Two servers starting at once on one file both
    start: each waits for the write lock (BEGIN IMMEDIATE, busy timeout) before it looks for
    migrations to apply, so the second finds them applied by the first."""
    if db.execute("PRAGMA database_list").fetchone()[2]:  # a file, not :memory:
        wal(db)
    with write_transaction(db):
        migrations.apply(db)


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


@migrations()
def add_shared_pages(db: Database) -> None:
    """Table pages one worker made, for the other (`storage.pages`), deleted after a minute."""
    db["shared_pages"].create({"name": str, "page": str, "made": float}, pk="name")
    db["shared_pages"].create_index(["made"])
