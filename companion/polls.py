"""A table page's poll, `GET /<slug>/<table_id>/seq`, answered in front of Flask.

static/app.js asks it every second on every phone that shows a table page: by far the server's
most frequent request (issue 46: a table's four phones poll it 240 times a minute; its action
and the pages it loads are a few). It answers one number, `{"seq": N}`, the table's last event,
and needs nothing of what Flask does for a page (a session, a language, a template): so it is
answered before the app, with one indexed read (`storage.seq_of`) through the thread's own
connection (`app.thread_db`): under gunicorn by the worker's poller itself, before any thread
(`serving.Worker.answer_poll`), else by this WSGI layer. The number is read on every poll,
never kept: an action recorded by the other worker is seen by the next poll. Whatever is not
such a poll of a table found in that game (another path, a query, a table gone, a database
error) goes on to Flask as before, which answers it (a 404 page, a busy database's 503).
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
        path = environ.get("PATH_INFO", "")
        body = self.body(path) if environ.get("REQUEST_METHOD") == "GET" and not environ.get(
            "QUERY_STRING") else None
        if body is None:
            return self.wsgi_app(environ, start_response)
        environ[ACCESS] = self.logged(environ.get("REMOTE_ADDR") or "-", path)
        start_response("200 OK", [*self.headers, ("Content-Length", str(len(body)))])
        return [body]

    def body(self, path: str) -> bytes | None:
        """The answer to a GET of `path` if it is a table's poll: `{"seq": N}`; else None (not
        a poll, no such table of that game, or the database could not answer: Flask's route
        answers instead, a 404 page or a busy database's 503)."""
        poll = POLL.fullmatch(path)
        if poll is None:
            return None
        try:
            seq = storage.seq_of(self.connection(), *poll.groups())
        except sqlite3.Error:
            return None
        return None if seq is None else b'{"seq":%d}\n' % seq

    def logged(self, client: str, path: str) -> tuple[str, str, str]:
        """What the access log says of a poll of `path` (a table's id as its short id)."""
        slug, table_id = POLL.fullmatch(path).groups()  # type: ignore[union-attr]
        return client, "GET", f"/{slug}/{self.short_id(table_id)}/seq"
