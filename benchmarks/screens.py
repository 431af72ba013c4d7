"""The app's screens as the benchmarks find them: links in pages, and the scoreboard's route."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.routing import MapAdapter

from companion.rules import GAMES

NOT_BUILT = "scoreboard: not built yet"


class Assets(HTMLParser):
    """The links of a page: <a href>, <link rel=stylesheet href> and <script src>."""

    def __init__(self, html: str):
        super().__init__()
        self.anchors: list[str] = []
        self.styles: list[str] = []
        self.scripts: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "a" and found.get("href"):
            self.anchors.append(found["href"])
        elif tag == "link" and "stylesheet" in found.get("rel", "").split():
            self.styles.append(found.get("href", ""))
        elif tag == "script" and found.get("src"):
            self.scripts.append(found["src"])


def third_party(url: str) -> bool:
    """Anything not served by the app itself (an absolute or protocol-relative URL)."""
    return bool(urlsplit(url).netloc)


def scoreboard_endpoint(app: Flask) -> str | None:
    """The view-only scoreboard: `share.board`, or a `board`/`scoreboard` endpoint outside the
    games' own blueprints (`fifth_avenue.board` is that game's board set-up form, not it)."""
    for rule in app.url_map.iter_rules():
        blueprint, _, name = rule.endpoint.rpartition(".")
        if rule.endpoint == "share.board" or (
            name in ("board", "scoreboard") and blueprint not in GAMES
        ):
            return rule.endpoint
    return None


def scoreboard_path(app: Flask, slug: str, table_id: str,
                    fetch: Callable[[str], str]) -> str | None:
    """The scoreboard of a table (None if not built or not found); see `endpoint_path`."""
    endpoint = scoreboard_endpoint(app)
    return endpoint_path(app, endpoint, slug, table_id, fetch) if endpoint else None


def endpoint_path(app: Flask, endpoint: str, slug: str, table_id: str,
                  fetch: Callable[[str], str]) -> str | None:
    """A path to `endpoint` for a table: built from the table's slug and id when its route
    needs nothing else; otherwise the first link to it on the table page, or on the pages
    the table page links to under its own path (such as its share page). `fetch` GETs HTML."""
    adapter = app.url_map.bind("127.0.0.1")
    rule = next(iter(app.url_map.iter_rules(endpoint)))
    known = {"slug": slug, "game": slug, "table_id": table_id, "id": table_id}
    if set(rule.arguments) <= set(known):
        return adapter.build(endpoint, {name: known[name] for name in rule.arguments})
    table_url = f"/{slug}/{table_id}/"
    links = Assets(fetch(table_url)).anchors
    below = [urlsplit(href).path for href in links
             if urlsplit(href).path.startswith(table_url) and not href.endswith(".pdf")]
    for page in [table_url, *dict.fromkeys(below)]:
        for href in Assets(fetch(page)).anchors:
            if matches(adapter, href, endpoint):
                return urlsplit(href).path
    return None


def matches(adapter: MapAdapter, href: str, endpoint: str) -> bool:
    try:
        found, _ = adapter.match(urlsplit(href).path, method="GET")
    except HTTPException:
        return False
    return bool(found == endpoint)
