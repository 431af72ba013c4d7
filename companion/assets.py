"""The app's stylesheets and scripts, sent gzipped to a browser that accepts it: a phone's first
visit downloads about a third of their bytes. Pages are never compressed (BREACH: a page holds
the table's secret link and the CSRF token beside names the players typed)."""

from __future__ import annotations

import gzip
import io
import os
from functools import lru_cache
from typing import Any

from flask import Flask, current_app, request, send_file
from werkzeug.security import safe_join

COMPRESSED = (".css", ".js", ".svg", ".webmanifest")


def init_app(app: Flask) -> None:
    """Serve /static/ through `static_file`."""
    app.view_functions["static"] = static_file


def static_file(filename: str) -> Any:
    """A static file: gzipped when it is text and the browser accepts gzip, else as Flask
    sends it. Either way conditional (ETag, Last-Modified) and marked Vary: Accept-Encoding."""
    folder = current_app.static_folder or ""
    path = safe_join(folder, filename)
    if (path is None or not filename.endswith(COMPRESSED) or not os.path.isfile(path)
            or not request.accept_encodings["gzip"]):
        response = current_app.send_static_file(filename)
    else:
        mtime = os.path.getmtime(path)
        response = send_file(io.BytesIO(gzipped(path, mtime)), download_name=filename,
                             etag=f"{int(mtime)}-{os.path.getsize(path)}-gz",
                             last_modified=mtime, max_age=current_app.get_send_file_max_age(path))
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


@lru_cache(maxsize=64)
def gzipped(path: str, mtime: float) -> bytes:
    """The file's bytes gzipped, once per version of the file (its modification time)."""
    with open(path, "rb") as file:
        return gzip.compress(file.read(), compresslevel=9, mtime=0)
