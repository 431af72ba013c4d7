"""Players pages read results, never logs: /players and /players/<name> as fast over finished
tables with long logs as over short ones, and as fast and as lean under gunicorn over many
imported tables of 2,000 events each."""

from __future__ import annotations

import io
import os
import statistics
import urllib.request
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import games
import growth
import pdfs
import servers
import wrk
from report import Figure

from companion import replays, storage
from companion.rules import GAMES
from companion.rules.log import MAX_EVENTS

SECTION = "Players pages read results, never logs"
TABLES = 30  # finished tables on each side of the comparison
LONGER = 16  # how many times longer the long side's logs are
LIMIT = 1.3  # the long side's median may be this many times the plain side's
IMPORTS = {"full": 120, "quick": 30}  # imported tables of MAX_EVENTS events served
SINGLE_GETS = 20
WARM_UP_GETS = 10
CLIENTS = 8  # wrk connections
RSS_GROWTH = 1.2  # the workers' memory after wrk may be this many times that before
CONFIG = {"WTF_CSRF_ENABLED": False, "TESTING": True, "GHOST_TAP_SECONDS": 0,
          "RATE_LIMITS": {"import": (1_000_000, 600)}}  # imports unlimited for the set-up


@dataclass(frozen=True)
class Site:
    """An instance of finished yard tables: one played, the others imported from its file."""

    client: Any
    tables: int
    events: int


def finished_yard(db: storage.Database, events: int) -> games.Seeded:
    """A whole scripted yard game, its log padded with undo/redo pairs before the final action
    to hold about `events` events (none added if the plain game is as long)."""
    names, actions = games.PLAYERS["yard"], games.GAME_SCRIPTS["yard"]()
    if events <= len(actions):
        return games.seed(db, "yard", mid_game=False)
    table_id = storage.create_table(db, "yard", games.seats("yard"))
    seq = 0
    for kind, payload in actions[:-1]:
        seq = replays.record(db, table_id, GAMES["yard"], names, seq, kind, payload)[0].seq
    seq = growth.pad(db, "yard", table_id, seq, events - 2)
    seq = replays.record(db, table_id, GAMES["yard"], names, seq, *actions[-1])[0].seq
    return games.Seeded("yard", table_id, seq, seq)


def exported(client: Any, table: games.Seeded) -> bytes:
    """The table's file, from the app's export route."""
    response = client.get(f"{table.url}export.json")
    if response.status_code != 200:
        raise RuntimeError(f"export answered {response.status_code}")
    return bytes(response.data)


def import_file(client: Any, body: bytes) -> None:
    """One import through the app's import route (POST /import, a multipart file)."""
    response = client.post("/import", data={"file": (io.BytesIO(body), "table.json")},
                           content_type="multipart/form-data")
    if response.status_code != 303:
        raise RuntimeError(f"import answered {response.status_code}: "
                           f"{response.get_data(as_text=True)[:300]}")


def site(instance: Path, events: int, imports: int) -> Site:
    """A fresh instance: one finished yard table of about `events` events, exported and
    imported `imports` times."""
    app = games.app_for(instance, CONFIG)
    client = app.test_client()
    seeder = growth.seeding_connection(app)
    table = finished_yard(seeder, events)
    seeder.close()
    body = exported(client, table)
    for _ in range(imports):
        import_file(client, body)
    return Site(client, imports + 1, table.events)


def compare(rounds: int, tmp: Path) -> list[Figure]:
    """/players and /players/Ann over TABLES plain games beside TABLES whose logs are LONGER
    times longer: two instances, asked in turn."""
    plain_length = len(games.GAME_SCRIPTS["yard"]())
    plain = site(tmp / "players-plain", plain_length, TABLES - 1)
    long = site(tmp / "players-long", LONGER * plain_length, TABLES - 1)
    figures = []
    for path in ("/players", "/players/Ann"):
        times = growth.alternate(partial(growth.get, plain.client, path),
                                 partial(growth.get, long.client, path), rounds)
        figures.append(growth.figure(
            f"GET {path}, {long.tables} tables of {long.events} events vs {plain.events}",
            *times, f"finished yard tables on each side: one played, {long.tables - 1} "
                    "imported from its file", against="plain logs", section=SECTION))
    return figures


def processes() -> dict[int, tuple[int, str]]:
    """Every process: its parent's pid and its command line."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # it ended meanwhile
            continue
        found[int(entry.name)] = (int(stat.rsplit(")", 1)[1].split()[1]), command)
    return found


def workers(base: str) -> list[int]:
    """The gunicorn workers serving `base`: children of the master this process started."""
    bind = base.removeprefix("http://")
    running = processes()
    masters = [pid for pid, (parent, command) in running.items()
               if parent == os.getpid() and bind in command]
    return sorted(pid for pid, (parent, _) in running.items() if parent in masters)


def rss_mb(pids: list[int]) -> list[float]:
    """Each process's resident memory (VmRSS), in MB."""
    return [pdfs.rss_mb(pid) for pid in pids]


def single_gets(url: str) -> tuple[list[float], int]:
    """Milliseconds of SINGLE_GETS requests one after another (after WARM_UP_GETS), and the
    bytes of the page."""
    sizes = []

    def fetch() -> None:
        with urllib.request.urlopen(url, timeout=10) as response:
            sizes.append(len(response.read()))

    for _ in range(WARM_UP_GETS):
        fetch()
    return [growth.timed(fetch) for _ in range(SINGLE_GETS)], sizes[-1]


def served(imports: int, seconds: int, tmp: Path) -> list[Figure]:
    """/players under gunicorn over `imports` imported tables of MAX_EVENTS events: single
    requests, then wrk with CLIENTS connections, the workers' memory before and after."""
    made = site(tmp / "players-served", MAX_EVENTS, imports)
    what = f"{imports} imported tables × {made.events:,} events"
    with servers.gunicorn("companion:create_app()",
                          {"COMPANION_INSTANCE": str(tmp / "players-served")},
                          tmp / "players.log") as base:
        pids = workers(base)
        start = rss_mb(pids)
        singles = single_gets(base + "/players")
        before = rss_mb(pids)
        load = wrk.run(base + "/players", wrk.simple_script(tmp, "players"), seconds, CLIENTS)
        after = rss_mb(pids)
    return served_figures(what, made, singles, load, (start, before, after))


def served_figures(what: str, made: Site, singles: tuple[list[float], int], load: wrk.Load,
                   rss: tuple[list[float], ...]) -> list[Figure]:
    (times, size), (start, before, after) = singles, rss
    median = statistics.median(times)
    complete = load.share(200) == 1 and not load.errors
    mb = ", ".join(f"{a:.2f} → {b:.2f} MB" for a, b in zip(before, after, strict=True))
    return [
        Figure(SECTION, f"GET /players, {what}: one at a time", median, "ms",
               target="< 100 ms", met=median < 100,
               note=f"{made.tables} finished tables ({imports_note(made)}); median of "
                    f"{len(times)} urllib GETs after {WARM_UP_GETS} warm-up, max "
                    f"{max(times):.1f} ms; the page is {size / 1024:.0f} KB"),
        Figure(SECTION, f"GET /players, {what}: p99 under {CLIENTS} wrk connections",
               load.p99_ms, "ms", target="all 200", met=complete,
               note=f"{load.rps:.0f} req/s, p50 {load.p50_ms:.1f} ms; {load.requests} "
                    f"requests: {load.statuses}, {load.errors} socket errors or timeouts"),
        Figure(SECTION, f"gunicorn workers' RSS after that wrk run, {what}", sum(after), "MB",
               sum(before), f"≤ {RSS_GROWTH} × before", sum(after) <= RSS_GROWTH * sum(before),
               f"VmRSS summed over {len(after)} workers, baseline just before wrk; per worker "
               f"{mb}; at start (before any /players) {sum(start):.1f} MB"),
    ]


def imports_note(made: Site) -> str:
    return (f"one played and padded with undo/redo pairs, exported, and imported "
            f"{made.tables - 1} times through POST /import")


def run(mode: str, seconds: int, tmp: Path) -> list[Figure]:
    """Both parts; `mode` ("full" or "quick") picks the counts."""
    return [*compare(growth.ROUNDS[mode], tmp), *served(IMPORTS[mode], seconds, tmp)]
