"""Pages made by one worker for the others: a table page kept a short while in the database.

A table page is made once per state of the table and kept in the worker's memory
(`views.pages`). A server has two workers, and the phones that load a table's page after an
action land on either: each made the page once, most of what an action costs them both. So a
page made to be kept is also stored here, by its name (`views.pages.page_name`: what it shows,
for this start of the server), and the other worker takes it from here instead of making it.
Pages older than SHARED_SECONDS are deleted as others are stored: the phones at a table load its
page within seconds of an action, and an older state's page is made again if ever asked.
"""

from __future__ import annotations

import sqlite3
import time

from sqlite_utils import Database

from .database import write_transaction

SHARED_SECONDS = 60.0
WAIT_MS = 20  # for the write lock, at most: a page is never held up to be shared


def shared_page(db: Database, name: str) -> str | None:
    """The page stored by this name, if it is (an index read)."""
    row = db.execute("select page from shared_pages where name = ?", [name]).fetchone()
    return None if row is None else str(row[0])


def share_page(db: Database, name: str, page: str) -> None:
    """Store a page by its name (unless the other worker has just stored it) and delete the old
    ones. A page is shared only if the write lock is free within WAIT_MS: a busy or damaged
    database leaves it to each worker to make (a page load never waits long to share)."""
    made = time.time()
    try:
        with write_transaction(db, wait_ms=WAIT_MS):
            db.execute("insert or ignore into shared_pages (name, page, made) values (?, ?, ?)",
                       [name, page, made])
            db.execute("delete from shared_pages where made < ?", [made - SHARED_SECONDS])
    except (sqlite3.Error, OSError):
        pass
