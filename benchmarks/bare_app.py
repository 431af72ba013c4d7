"""The bare baseline: a Flask app doing one sqlite-utils read and one write per request.

Served by gunicorn exactly like the companion (`bare_app:create_app()`, the database file named
by BARE_DATABASE). GET / reads and writes and returns a small page; POST /act does the same and
redirects (303), like an action; GET /jinja renders a page with Jinja and touches no database.
"""

from __future__ import annotations

import os
import time

from flask import Flask, redirect, render_template_string
from sqlite_utils import Database
from werkzeug.wrappers import Response

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bare</title></head>
<body><h1>Table {{ row.id }}</h1>
<table>{% for n in range(40) %}<tr><td>Player {{ n }}</td><td>{{ n * row.hits }}</td></tr>
{% endfor %}</table></body></html>"""


def prepare(path: str) -> None:
    """Create the database the bare app reads and writes (WAL, like the companion's)."""
    db = Database(path)
    db.enable_wal()
    db["counter"].insert({"id": 1, "hits": 0}, pk="id", replace=True)
    db["hits"].create({"id": int, "at": float}, pk="id", if_not_exists=True)
    db.close()


def read_and_write(path: str) -> dict[str, int]:
    """One read and one write through sqlite-utils, on a connection opened for the request."""
    db = Database(path)
    try:
        row = db["counter"].get(1)
        db["hits"].insert({"at": time.time()})
    finally:
        db.close()
    return row


def create_app() -> Flask:
    app = Flask(__name__)
    path = os.environ["BARE_DATABASE"]

    @app.get("/")
    def page() -> str:
        row = read_and_write(path)
        return f"<!doctype html><title>Bare</title><p>Counter {row['id']}: {row['hits']}</p>"

    @app.post("/act")
    def act() -> Response:
        read_and_write(path)
        return redirect("/", code=303)

    @app.get("/jinja")
    def jinja() -> str:
        return render_template_string(PAGE, row={"id": 1, "hits": 3})

    return app
