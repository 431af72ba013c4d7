"""The only package that touches SQLite: tables, their event logs and what is kept with them."""

from sqlite_utils import Database

from .database import (
    DamagedError,
    backup,
    busy,
    check,
    connect,
    damage,
    damage_mark,
    examine,
    write_transaction,
)
from .limits import rate_limited
from .logs import (
    Once,
    StaleError,
    append_event,
    claim,
    corrections,
    event_time,
    events,
    events_at,
    events_since,
    last_like,
    last_seq,
    last_seqs,
    old_logs,
    rewrite_log,
    seq_of,
)
from .pages import share_page, shared_page
from .schema import migrate, migrations, repair_times
from .snapshots import results, snapshot, store_result, store_snapshot, unscored
from .tables import (
    GoneError,
    create_table,
    delete_table,
    get_table,
    get_table_by_view_token,
    has_table,
    import_table,
    latest_tables,
    list_tables,
    mark_of,
    new_table_id,
    now,
    prune,
    renew_links,
    table_players,
    touch,
)

__all__ = [
    "Database", "DamagedError", "GoneError", "Once", "StaleError", "append_event", "backup",
    "busy", "check", "claim", "connect", "corrections", "create_table", "damage", "damage_mark",
    "delete_table", "event_time", "events", "events_at", "events_since", "examine", "get_table",
    "get_table_by_view_token", "has_table", "import_table", "store_result", "store_snapshot",
    "last_like", "last_seq", "last_seqs", "latest_tables", "list_tables", "mark_of", "migrate",
    "migrations", "new_table_id", "now", "old_logs", "prune", "rate_limited", "renew_links",
    "repair_times", "results", "rewrite_log", "seq_of", "share_page", "shared_page", "snapshot",
    "table_players", "touch", "unscored", "write_transaction",
]
