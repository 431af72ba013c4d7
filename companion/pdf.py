"""The one PDF module: render an HTML template to PDF bytes with WeasyPrint."""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

from flask import render_template

PAGE_SIZES = ("A4", "A5")
# One render at a time in a process: the server runs threads, and the font libraries under
# WeasyPrint are not known to be safe from several at once (renders hold the GIL anyway).
RENDERING = threading.Lock()


@cache
def font_config() -> Any:
    """One FontConfiguration per process: a fresh one per PDF leaks about 0.2 MB each time."""
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


def render_pdf(template: str, **context: Any) -> bytes:
    """Render `template` with `context` and return the PDF; WeasyPrint is imported lazily."""
    from weasyprint import HTML

    html = render_template(template, **context)
    # Print templates carry their own CSS, so nothing is fetched while rendering.
    with RENDERING:
        pdf: bytes = HTML(string=html).write_pdf(font_config=font_config())
    return pdf


def page_size(requested: str | None) -> str:
    """A4 or A5 (the default is A5, a pad's natural size); anything else falls back to A5."""
    size = (requested or "A5").upper()
    return size if size in PAGE_SIZES else "A5"
