"""Page weight: the bytes a phone downloads for each main screen on its first visit: the HTML
plus the CSS and JS it links, as sent to a browser that accepts gzip (the app gzips its CSS and
JS, never a page)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
import screens
from report import Figure

from companion import storage

SECTION = "Page weight"
LIMIT_KB = 30


@dataclass(frozen=True)
class Weight:
    """One screen's bytes by kind, and any script that does not come from the app."""

    html: int
    css: int
    js: int
    foreign: list[str]

    @property
    def total_kb(self) -> float:
        return (self.html + self.css + self.js) / 1024


def weigh(client: Any, path: str) -> Weight:
    """GET a screen and the stylesheets and scripts it links (third-party ones are not
    fetched, only named)."""
    html = get(client, path)  # pages are never compressed
    links = screens.Assets(html.decode())
    foreign = [src for src in links.scripts + links.styles if screens.third_party(src)]
    own = [url for url in links.styles if url not in foreign]
    scripts = [url for url in links.scripts if url not in foreign]
    return Weight(len(html), sum(len(get(client, u)) for u in own),
                  sum(len(get(client, u)) for u in scripts), foreign)


def get(client: Any, path: str) -> bytes:
    """The body as sent to a browser that accepts gzip (still compressed if it was)."""
    response = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br"})
    if response.status_code != 200:
        raise RuntimeError(f"{path} answered {response.status_code}")
    body = bytes(response.data)
    response.close()
    return body


def main_screens(app: Any, client: Any, tables: dict[str, games.Seeded]) -> dict[str, str]:
    """The screens a phone shows most, by name: every game's table page (mid-game), the
    history, the share page and the scoreboard if built, and the home page listing the
    tables."""
    found: dict[str, str | None] = {f"table page ({t.label})": t.url for t in tables.values()}
    yard = tables["yard"]
    found[f"history page ({yard.label})"] = yard.url + "history"

    def fetch(path: str) -> str:
        return get(client, path).decode()

    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    if "share.share" in endpoints:
        found[f"share page ({yard.label})"] = screens.endpoint_path(
            app, "share.share", "yard", yard.id, fetch)
    board = screens.scoreboard_path(app, "yard", yard.id, fetch)
    if board:
        found[f"scoreboard ({yard.label})"] = board
    found["home page (4 tables listed)"] = "/"
    return {name: path for name, path in found.items() if path}


def run(tmp: Path) -> list[Figure]:
    app = games.app_for(tmp / "weight-instance", {"WTF_CSRF_ENABLED": False})
    client = app.test_client()
    db = storage.connect(app.config["DATABASE"])
    tables = {slug: games.seed(db, slug, mid_game=True) for slug in games.PLAYERS}
    db.close()
    figures = []
    for name, path in main_screens(app, client, tables).items():
        weight = weigh(client, path)
        met = weight.total_kb < LIMIT_KB and not weight.foreign
        note = (f"HTML {weight.html / 1024:.1f} KB + CSS {weight.css / 1024:.1f} KB + "
                f"JS {weight.js / 1024:.1f} KB")
        if weight.foreign:
            note += f"; THIRD-PARTY: {', '.join(weight.foreign)}"
        figures.append(Figure(SECTION, name, weight.total_kb, "KB",
                              target=f"< {LIMIT_KB} KB, no third-party script", met=met,
                              note=note))
    if not screens.scoreboard_endpoint(app):
        figures.append(Figure(SECTION, "scoreboard", "not built yet"))
    return figures
