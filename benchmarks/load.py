"""Pages and actions under gunicorn (2 sync workers, wrk with 16 connections), each beside the
bare Flask app doing one sqlite-utils read and write per request, served the same way."""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import action
import bare_app
import games
import screens
import servers
import wrk
from flask import Flask
from report import Figure

from companion import storage

SECTION = "Pages and actions under gunicorn"
TOKEN = re.compile(r"/[\w-]{22}(?=/|$)")  # a table id or view token: secrets.token_urlsafe(16)
WARM_UP_REQUESTS = 20


@dataclass(frozen=True)
class Site:
    """The companion as served from its temporary instance, with its seeded tables."""

    base: str
    app: Flask
    tables: dict[str, games.Seeded]
    cookie: str

    def html(self, path: str) -> str:
        request = urllib.request.Request(self.base + path, headers={"Cookie": self.cookie})
        with urllib.request.urlopen(request, timeout=10) as response:
            return str(response.read().decode())

    def scoreboard(self, table: games.Seeded) -> str | None:
        return screens.scoreboard_path(self.app, table.slug, table.id, self.html)


@dataclass(frozen=True)
class Page:
    """A GET screen under load: its name, the table it shows, its path (None: not built), and
    its targets beside the bare app: the least throughput and the most p99, as ratios."""

    name: str
    slug: str
    path: Callable[[Site, games.Seeded], str | None]
    least: float = 0.5
    most: float = 1.5


# The screens under load, each on a mid-game table; another screen is one more line. A table
# page as cheap as the bare app's page, nearly (issue 28: 0.8 x its throughput, 1.2 x its p99).
PAGES = [
    Page("table page", "yard", lambda site, table: table.url, 0.8, 1.2),
    Page("table page", "fifth_avenue", lambda site, table: table.url, 0.8, 1.2),
    Page("table page", "street", lambda site, table: table.url, 0.8, 1.2),
    Page("table page", "urbanisation", lambda site, table: table.url, 0.8, 1.2),
    Page("history page", "yard", lambda site, table: table.url + "history"),
    Page("scoreboard", "yard", lambda site, table: site.scoreboard(table)),
]


@dataclass(frozen=True)
class Bare:
    """The bare app as served; each figure's baseline is run just before it, so that both
    see the same machine (other work on it comes and goes)."""

    base: str
    seconds: int
    tmp: Path

    def get(self, path: str = "/") -> wrk.Load:
        return wrk.run(self.base + path, wrk.simple_script(self.tmp, "bare-get"), self.seconds)

    def post(self) -> wrk.Load:
        script = wrk.simple_script(self.tmp, "bare-post", method="POST", body="seq=1")
        return wrk.run(self.base + "/act", script, self.seconds)


def run(seconds: int, tmp: Path) -> list[Figure]:
    """Both servers side by side; each figure beside a bare run made just before it."""
    database = tmp / "bare.sqlite"
    bare_app.prepare(str(database))
    instance = tmp / "serve-instance"
    app = games.app_for(instance)  # migrates and writes the secret key before the workers start
    db = storage.connect(app.config["DATABASE"])
    tables = {slug: games.seed(db, slug, mid_game=True) for slug in games.PLAYERS}
    with (
        servers.gunicorn("bare_app:create_app()", {"BARE_DATABASE": str(database)},
                         tmp / "bare.log") as bare_base,
        servers.gunicorn("companion.app:create_app()", {"COMPANION_INSTANCE": str(instance)},
                         tmp / "companion.log") as base,
    ):
        bare = Bare(bare_base, seconds, tmp)
        for path in ("/", "/jinja"):
            warm_up(bare_base + path)
        site = Site(base, app, tables, action.session(base)[0])
        figures = [jinja_figure(bare.get("/jinja"))]
        for page in PAGES:
            figures += measure_page(site, page, bare)
        figures += measure_action(site, db, bare)
    db.close()
    return figures


def measure_page(site: Site, page: Page, bare: Bare) -> list[Figure]:
    """One screen beside the bare GET; a screen that is missing or fails gets a row saying so."""
    table = site.tables[page.slug]
    name = f"{page.name} ({table.label})"
    try:
        path = page.path(site, table)
        cookie = site.cookie if path is None else warm_up(site.base + path, site.cookie)
    except OSError as error:  # such as an HTTP 500 from a screen being worked on
        return [Figure(SECTION, name, "failed", met=False, note=str(error))]
    if path is None:
        print(f"{page.name}: not built yet", flush=True)
        return [Figure(SECTION, name, "not built yet")]
    script = wrk.simple_script(bare.tmp, "page", cookie=cookie)
    baseline = bare.get()
    load = wrk.run(site.base + path, script, bare.seconds)
    return load_figures(name, load, baseline, 200, f"GET {TOKEN.sub('/<id>', path)}",
                        page.least, page.most)


def measure_action(site: Site, db: storage.Database, bare: Bare) -> list[Figure]:
    """Purchases on yard tables; afterwards the database must hold one event per 303 (and
    at most one more per connection: requests still in flight when wrk stopped)."""
    work = action.workload(site.base, db, bare.seconds, bare.tmp)
    action.warm_up(site.base, db)
    baseline = bare.post()
    load = wrk.run(site.base + "/", work.script, bare.seconds)
    events, touched, most = action.written(db, work.ids)
    name = "scoring action (yard purchase)"
    redirects = load.statuses.get("303", 0)
    note = (f"POST /yard/<id>/buy; {touched} of {len(work.ids)} tables played, at most {most} "
            f"events on one (a game has {action.PER_TABLE} purchases)")
    if touched == len(work.ids):
        note += "; EVERY TABLE USED: threads stopped early, raise action.RATE_CAP"
    in_flight = events - redirects
    return [
        *load_figures(name, load, baseline, 303, note),
        Figure(SECTION, f"{name}: answered 303", 100 * load.share(303), "%",
               target="100%", met=redirects == load.requests, note=statuses(load)),
        Figure(SECTION, f"{name}: events in the database", f"{events} for {redirects} × 303",
               target="one per 303", met=0 <= in_flight <= wrk.CONNECTIONS,
               note=f"{in_flight} more than 303s: requests in flight when wrk stopped "
                    f"(at most one per connection)"),
    ]


def load_figures(name: str, load: wrk.Load, bare: wrk.Load, status: int, note: str,
                 least: float = 0.5, most: float = 1.5) -> list[Figure]:
    """Throughput, p50 and p99 beside the bare app's; a wrong status voids the throughput."""
    complete = load.share(status) == 1 and not load.errors
    if not complete:
        note += f"; NOT ALL {status}: {statuses(load)}"
    return [
        Figure(SECTION, f"{name}: throughput", load.rps, "req/s", bare.rps, f"≥ {least} × bare",
               complete and load.rps >= least * bare.rps, note),
        Figure(SECTION, f"{name}: p50", load.p50_ms, "ms", bare.p50_ms),
        Figure(SECTION, f"{name}: p99", load.p99_ms, "ms", bare.p99_ms, f"≤ {most} × bare",
               load.p99_ms <= most * bare.p99_ms),
    ]


def jinja_figure(load: wrk.Load) -> Figure:
    return Figure(SECTION, "bare: Jinja page, no database (for comparison)", load.rps, "req/s",
                  note=f"p50 {load.p50_ms:.2f} ms, p99 {load.p99_ms:.2f} ms")


def statuses(load: wrk.Load) -> str:
    counts = ", ".join(f"{n} × {status}" for status, n in sorted(load.statuses.items()))
    errors = f", {load.errors} socket errors or timeouts" if load.errors else ""
    return f"{load.requests} requests: {counts}{errors}"


def warm_up(url: str, cookie: str | None = None) -> str | None:
    """A few requests first, so that both workers have loaded the page's templates; the
    session cookie as a browser keeps it from the answers (a table page puts its table first
    in the phone's list: a phone that stays on one table's page sends that cookie, and the
    page then writes no new one, while a cookie kept from before would be written again on
    every request)."""
    for _ in range(WARM_UP_REQUESTS):
        headers = {"Cookie": cookie} if cookie else {}
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                    timeout=10) as response:
            sent = [c.split(";")[0] for c in response.headers.get_all("Set-Cookie") or []
                    if c.startswith("session=")]
        cookie = sent[0] if sent else cookie
    return cookie
