"""The one PDF module: render an HTML template to PDF bytes with WeasyPrint."""

from __future__ import annotations

import mimetypes
import threading
from functools import cache
from pathlib import Path
from typing import Any

from flask import current_app, render_template

PAGE_SIZES = ("A4", "A5")
# One render at a time in a process: the server runs threads, and the font libraries under
# WeasyPrint are not known to be safe from several at once (renders hold the GIL anyway).
RENDERING = threading.Lock()
# The address prints are rendered at: their relative links resolve under it, and the fetcher
# serves only the app's static files from there.
BASE_URL = "https://companion.invalid/"


@cache
def font_config() -> Any:
    """One FontConfiguration per process: a fresh one per PDF leaks about 0.2 MB each time."""
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


def render_pdf(template: str, **context: Any) -> bytes:
    """Render `template` with `context` and return the PDF."""
    return write(render_template(template, **context), Path(current_app.static_folder or ""))


def write(html: str, static: Path) -> bytes:
    """The PDF of `html`; WeasyPrint is imported lazily and may fetch only files of `static`."""
    from weasyprint import HTML

    document = HTML(string=html, base_url=BASE_URL, url_fetcher=static_fetcher(static))
    with RENDERING:
        pdf: bytes = document.write_pdf(font_config=font_config())
    return pdf


@cache
def static_fetcher(static: Path) -> Any:
    """WeasyPrint's URL fetcher for prints, one per process: `static_file` and nothing else
    (its default would follow file:, http: and any other address a print named)."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticFiles(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            body, mime_type = static_file(url, static)
            return URLFetcherResponse(url, body, {"Content-Type": mime_type})

    return StaticFiles()


def static_file(url: str, static: Path) -> tuple[bytes, str]:
    """A file of the app's static folder at BASE_URL/static/, with its type; ValueError for
    any other address."""
    prefix = BASE_URL + "static/"
    path = (static / url.removeprefix(prefix)).resolve() if url.startswith(prefix) else None
    if path is None or not path.is_relative_to(static.resolve()) or not path.is_file():
        raise ValueError(f"A print may use only the app's static files, not {url[:80]!r}.")
    return path.read_bytes(), mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def page_size(requested: str | None) -> str:
    """A4 or A5 (the default is A5, a pad's natural size); anything else falls back to A5."""
    size = (requested or "A5").upper()
    return size if size in PAGE_SIZES else "A5"
