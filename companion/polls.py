"""A table page's poll, `GET /<slug>/<table_id>/seq`, answered in front of Flask.

static/app.js asks it every second on every phone that shows a table page: by far the server's
most frequent request (issue 46: a table's four phones poll it 240 times a minute; its action
and the pages it loads are a few). It answers one number, `{"seq": N}`, the table's last event,
and needs nothing of what Flask does for a page (a session, a language, a template): so it is
answered here, before the app, with one indexed read (`storage.seq_of`) through the thread's
own connection (`app.thread_db`). The number is read on every poll, never kept: an action
recorded by the other worker is seen by the next poll. Whatever is not such a poll of a table
found in that game (another path, a query, a table gone, a database error) goes on to Flask as
before, which answers it (a 404 page, a busy database's 503).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from flask import Flask

from . import storage

POLL = re.compile(r"/([a-z_]{1,40})/([A-Za-z0-9_-]{1,64})/seq")
ACCESS = "companion.access"  # serving.ACCESS: what the access log says of a request


class Polls:
    """The WSGI layer that answers a table page's poll, the app behind it for the rest."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]):
        from .app import SECURITY_HEADERS, short_id, thread_db  # app.py installs this layer

        self.wsgi_app, self.short_id = wsgi_app, short_id
        self.connection = partial(thread_db, app)
        self.headers = [("Content-Type", "application/json"), ("Cache-Control", "no-store"),
                        *SECURITY_HEADERS]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        poll = POLL.fullmatch(environ.get("PATH_INFO", ""))
        if poll is None or environ.get("REQUEST_METHOD") != "GET" or environ.get(
                "QUERY_STRING"):
            return self.wsgi_app(environ, start_response)
        seq = self.seq(*poll.groups())
        if seq is None:
            return self.wsgi_app(environ, start_response)
        slug, table_id = poll.groups()
        environ[ACCESS] = (environ.get("REMOTE_ADDR") or "-", "GET",
                           f"/{slug}/{self.short_id(table_id)}/seq")
        body = b'{"seq":%d}\n' % seq
        start_response("200 OK", [*self.headers, ("Content-Length", str(len(body)))])
        return [body]

    def seq(self, slug: str, table_id: str) -> int | None:
        """The table's last event number, or None (no such table of that game, or the database
        could not answer: Flask's route answers instead)."""
        try:
            return storage.seq_of(self.connection(), slug, table_id)
        except sqlite3.Error:
            return None
