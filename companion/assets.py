"""The app's stylesheets and scripts, sent gzipped to a browser that accepts it: a phone's first
visit downloads about a fifth of their bytes. Their comments stay in the files for the next
engineer and are left out of what is sent (`compact`). Pages are never compressed (BREACH: a
page holds the table's secret link and the CSRF token beside names the players typed)."""

from __future__ import annotations

import gzip
import io
import os
from functools import lru_cache
from typing import Any

import rcssmin
import rjsmin
from flask import Flask, current_app, request, send_file
from werkzeug.security import safe_join

COMPRESSED = (".css", ".js", ".svg", ".webmanifest")
COMPACTED = (".css", ".js")


def init_app(app: Flask) -> None:
    """Serve /static/ through `static_file`."""
    app.view_functions["static"] = static_file


def static_file(filename: str) -> Any:
    """A static file: a text file as `served` (gzipped when the browser accepts gzip), any
    other as Flask sends it. Either way conditional (ETag, Last-Modified) and marked Vary:
    Accept-Encoding."""
    folder = current_app.static_folder or ""
    path = safe_join(folder, filename)
    if path is None or not filename.endswith(COMPRESSED) or not os.path.isfile(path):
        response = current_app.send_static_file(filename)
    else:
        zipped = bool(request.accept_encodings["gzip"])
        mtime = os.path.getmtime(path)
        version = f"{int(mtime)}-{os.path.getsize(path)}"
        response = send_file(io.BytesIO(served(path, mtime, zipped)), download_name=filename,
                             etag=f"{version}-gz" if zipped else version, last_modified=mtime,
                             max_age=current_app.get_send_file_max_age(path))
        if zipped:
            response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


@lru_cache(maxsize=128)
def served(path: str, mtime: float, zipped: bool) -> bytes:
    """The file's bytes as sent, made once per version of the file (its modification time):
    a stylesheet or script `compact`, then gzipped if asked."""
    with open(path, "rb") as file:
        body = file.read()
    if path.endswith(COMPACTED):
        body = compact(body.decode(), css=path.endswith(".css")).encode()
    return gzip.compress(body, compresslevel=9, mtime=0) if zipped else body


def compact(text: str, css: bool) -> str:
    """A stylesheet or script as the browser runs it, without comments and the spaces that
    change nothing (issue 28: app.js is two-fifths comments, and a table page's HTML, CSS and
    JS together must stay under 30 KB): rcssmin and rjsmin, whose tokenizers know strings,
    regular expressions and comments (issue 47: they replaced a line filter that was safe only
    while no script string spanned lines, and send 6% fewer gzipped bytes)."""
    return rcssmin.cssmin(text) if css else rjsmin.jsmin(text)
