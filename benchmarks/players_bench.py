"""Players pages read results, never logs: /players and /players/<name> as fast over finished
tables with long logs as over short ones, and as fast and as lean under gunicorn over many
imported tables of 2,000 events each. Statistics belong to a browser (issue 27): each page asks
with the session cookie of the browser that imported or opened the tables, which holds at most
MAX_REMEMBERED_TABLES of them; on a server of 20,000 finished tables, a browser holding the most
it can is answered within PAGE_TARGET_MS. And a long table's history, asked by FLOOD_CLIENTS
clients at once, leaves the home page's p99 within FLOOD_LIMIT times its quiet value."""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import games
import gc_pause
import growth
import pdfs
import servers
import wrk
from report import Figure

from companion import replays, storage
from companion.__main__ import lan_address
from companion.rules import GAMES
from companion.rules.log import MAX_EVENTS
from companion.views.clients import MAX_REMEMBERED_TABLES

SECTION = "Players pages read results, never logs"
TABLES = 30  # finished tables on each side of the comparison
LONGER = 16  # how many times longer the long side's logs are
LIMIT = 1.3  # the long side's median may be this many times the plain side's
IMPORTS = {"full": 120, "quick": 30}  # imported tables of MAX_EVENTS events served
SINGLE_GETS = 20
WARM_UP_GETS = 10
CLIENTS = 8  # wrk connections
RSS_GROWTH = 1.2  # the workers' memory after wrk may be this many times that before
SEEDED = {"full": 20_000, "quick": 2_000}  # finished tables on the crowded server
PAGE_TARGET_MS = 50  # a players page one at a time, for a browser holding the most it can
FLOOD_CLIENTS = 16  # wrk connections on a long table's history
QUIET_CLIENTS = 2  # wrk connections on the home page, quiet and during the flood
FLOOD_LIMIT = 2  # the home page's p99 during the flood may be this many times its quiet p99
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
    hold(client, [table.id])  # this browser holds it, as it holds those it imports
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


def session_cookie(client: Any) -> str:
    """The Cookie header of the browser the test client is: its session, which names the
    tables it imported or opened (the server must sign with the same instance's secret key)."""
    cookie = client.get_cookie("session")
    if cookie is None:
        raise RuntimeError("the test client holds no session cookie")
    return f"session={cookie.value}"


def fetch(url: str, cookie: str | None = None, status: int = 200) -> bytes:
    """One GET (with the browser's cookie, if any) answered `status`: the page."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            answered, page = response.status, response.read()
    except urllib.error.HTTPError as error:
        answered, page = error.code, error.read()
    if answered != status:
        raise RuntimeError(f"{url} answered {answered}, not {status}")
    return bytes(page)


def single_gets(url: str, cookie: str | None = None, status: int = 200
                ) -> tuple[list[float], bytes]:
    """Milliseconds of SINGLE_GETS requests one after another (after WARM_UP_GETS), and the
    last page."""
    pages = []

    def get() -> None:
        pages.append(fetch(url, cookie, status))

    for _ in range(WARM_UP_GETS):
        get()
    return [growth.timed(get) for _ in range(SINGLE_GETS)], pages[-1]


def counted(page: bytes, name: str = "Ann") -> None:
    """The page shows the browser's statistics, not a stranger's empty page (the server
    read the test client's cookie: same secret key)."""
    if name.encode() not in page:
        raise RuntimeError(f"{name} is not on the page: the server did not read the cookie")


def served(imports: int, seconds: int, tmp: Path) -> list[Figure]:
    """/players under gunicorn over `imports` imported tables of MAX_EVENTS events: single
    requests, then wrk with CLIENTS connections, the workers' memory before and after."""
    made = site(tmp / "players-served", MAX_EVENTS, imports)
    what = f"{imports} imported tables × {made.events:,} events"
    with servers.gunicorn("companion.app:create_app()",
                          {"COMPANION_INSTANCE": str(tmp / "players-served")},
                          tmp / "players.log") as base:
        pids = workers(base)
        start = rss_mb(pids)
        cookie = session_cookie(made.client)
        singles = single_gets(base + "/players", cookie)
        counted(singles[1])
        before = rss_mb(pids)
        load = wrk.run(base + "/players", wrk.simple_script(tmp, "players", cookie=cookie),
                       seconds, CLIENTS)
        after = rss_mb(pids)
    return served_figures(what, made, singles, load, (start, before, after))


def served_figures(what: str, made: Site, singles: tuple[list[float], bytes], load: wrk.Load,
                   rss: tuple[list[float], ...]) -> list[Figure]:
    (times, page), (start, before, after) = singles, rss
    size = len(page)
    median = statistics.median(times)
    mb = ", ".join(f"{a:.2f} → {b:.2f} MB" for a, b in zip(before, after, strict=True))
    return [
        Figure(SECTION, f"GET /players, {what}: one at a time", median, "ms",
               target="< 100 ms", met=median < 100,
               note=f"{made.tables} finished tables ({imports_note(made)}); median of "
                    f"{len(times)} urllib GETs after {WARM_UP_GETS} warm-up, max "
                    f"{max(times):.1f} ms; the page is {size / 1024:.0f} KB"),
        p99_figure(f"GET /players, {what}: p99 under {CLIENTS} wrk connections", load),
        Figure(SECTION, f"gunicorn workers' RSS after that wrk run, {what}", sum(after), "MB",
               sum(before), f"≤ {RSS_GROWTH} × before", sum(after) <= RSS_GROWTH * sum(before),
               f"VmRSS summed over {len(after)} workers, baseline just before wrk; per worker "
               f"{mb}; at start (before any /players) {sum(start):.1f} MB"),
    ]


def p99_figure(title: str, load: wrk.Load) -> Figure:
    """A wrk run's p99, met when every answer was a 200 and no socket failed."""
    return Figure(SECTION, title, load.p99_ms, "ms", target="all 200",
                  met=load.share(200) == 1 and not load.errors,
                  note=f"{load.rps:.0f} req/s, p50 {load.p50_ms:.1f} ms; {load.requests} "
                       f"requests: {load.statuses}, {load.errors} socket errors or timeouts")


def imports_note(made: Site) -> str:
    return (f"one played and padded with undo/redo pairs, exported, and imported "
            f"{made.tables - 1} times through POST /import; asked with the importing "
            f"browser's cookie, which holds the last {min(MAX_REMEMBERED_TABLES, made.tables - 1)}")


def copies(db: storage.Database, table_id: str, count: int) -> list[str]:
    """`count` copies of a finished table, made in SQL in one transaction: a tables row each
    with a fresh id, mark and view link (other people's tables, as imports or games played on
    this server make them), its events, snapshot and result copied by insert-select."""
    ids = [storage.new_table_id() for _ in range(count)]
    columns = "game, players, created_at, status, touched_at"
    with storage.write_transaction(db):
        db.execute("create temp table copies (id text primary key, mark text, view_token text)")
        db.conn.executemany("insert into copies values (?, ?, ?)",
                            [(i, storage.mark_of(i), storage.new_table_id()) for i in ids])
        db.execute(f"insert into tables (id, mark, view_token, {columns}) select c.id, c.mark, "
                   f"c.view_token, {columns} from copies c, tables t where t.id = ?",
                   [table_id])
        for table, rest in (("events", "seq, kind, payload, at, action_key, request"),
                            ("snapshots", "seq, state"), ("results", "result")):
            db.execute(f"insert into {table} (table_id, {rest}) select c.id, {rest} "
                       f"from copies c, {table} o where o.table_id = ?", [table_id])
        db.execute("drop table copies")
    return ids


def crowded(instance: Path, count: int) -> tuple[Site, int]:
    """A fresh instance of `count` finished yard tables, and a browser (the test client) that
    holds MAX_REMEMBERED_TABLES of them, spread over the server's, so that its session holds
    the most finished tables it can: one game played through the app's write path, the others
    its copies (`copies`); how many finished tables the browser holds."""
    app = games.app_for(instance, CONFIG)
    client = app.test_client()
    seeder = growth.seeding_connection(app)
    played = games.seed(seeder, "yard", mid_game=False)
    if played.events != played.wanted:
        raise RuntimeError(f"the yard script stopped at {played.events} events")
    ids = [played.id, *copies(seeder, played.id, count - 1)]
    finished = seeder.execute("select count(*) from tables t join results r on r.table_id = "
                              "t.id where t.status = 'finished'").fetchone()[0]
    seeder.close()
    if finished != count:
        raise RuntimeError(f"{finished} finished tables with a result, not {count}")
    held = ids[::max(1, count // MAX_REMEMBERED_TABLES)][:MAX_REMEMBERED_TABLES]
    hold(client, held)
    return Site(client, count, played.events), len(held)


def hold(client: Any, table_ids: list[str]) -> None:
    """The browser opened these tables, in turn: their marks first in its session, as
    `clients.remember` keeps them (the last opened first, at most MAX_REMEMBERED_TABLES),
    written into its cookie directly (the set-up renders no table page)."""
    with client.session_transaction() as session:
        kept = list(session.get("tables", []))
        session.permanent = True
        session["tables"] = [*[storage.mark_of(i) for i in reversed(table_ids)],
                             *kept][:MAX_REMEMBERED_TABLES]


def crowd(mode: str, seconds: int, tmp: Path) -> list[Figure]:
    """/players and /players/Ann under gunicorn on a server of SEEDED[mode] finished tables:
    for a browser holding MAX_REMEMBERED_TABLES of them (single GETs and wrk), and for a
    stranger (no cookie: nothing to count)."""
    made, held = crowded(tmp / "players-crowded", SEEDED[mode])
    cookie = session_cookie(made.client)
    figures = []
    with servers.gunicorn("companion.app:create_app()",
                          {"COMPANION_INSTANCE": str(tmp / "players-crowded")},
                          tmp / "players-crowded.log") as base:
        for path in ("/players", "/players/Ann"):
            singles = single_gets(base + path, cookie)
            counted(singles[1])
            script = wrk.simple_script(tmp, "players-crowded", cookie=cookie)
            load = wrk.run(base + path, script, seconds)
            figures += crowd_figures(path, made, held, singles, load)
        for path, status in (("/players", 200), ("/players/Ann", 404)):
            figures.append(stranger_figure(path, status, made, single_gets(base + path,
                                                                            None, status)))
    return figures


def crowd_figures(path: str, made: Site, held: int, singles: tuple[list[float], bytes],
                  load: wrk.Load) -> list[Figure]:
    (times, page), median = singles, statistics.median(singles[0])
    what = f"a browser holding {held} of {made.tables:,} finished tables"
    return [
        Figure(SECTION, f"GET {path}, {what}: one at a time", median, "ms",
               target=f"≤ {PAGE_TARGET_MS} ms", met=median <= PAGE_TARGET_MS,
               note=f"{made.tables:,} finished yard tables of {made.events} events (one played, "
                    f"the others its copies made in SQL: other people's); the browser holds "
                    f"{held} of them, spread over the server's; median of {len(times)} urllib "
                    f"GETs with its cookie after {WARM_UP_GETS} warm-up, max "
                    f"{max(times):.1f} ms; the page is {len(page) / 1024:.0f} KB"),
        p99_figure(f"GET {path}, {what}: p99 under {wrk.CONNECTIONS} wrk connections", load),
    ]


def stranger_figure(path: str, status: int, made: Site,
                    singles: tuple[list[float], bytes]) -> Figure:
    (times, page), median = singles, statistics.median(singles[0])
    return Figure(SECTION, f"GET {path} answered {status} to a stranger, {made.tables:,} "
                  "finished tables", median, "ms", target=f"≤ {PAGE_TARGET_MS} ms",
                  met=median <= PAGE_TARGET_MS,
                  note=f"no cookie: nothing to count; median of {len(times)} urllib GETs after "
                       f"{WARM_UP_GETS} warm-up, max {max(times):.1f} ms; the page is "
                       f"{len(page) / 1024:.1f} KB")


def flood(seconds: int, tmp: Path) -> list[Figure]:
    """The home page's p99 with QUIET_CLIENTS wrk connections from this machine's LAN address,
    quiet and then while FLOOD_CLIENTS more, from 127.0.0.1 (another client), ask a finished
    table of MAX_EVENTS events for its history (a second wrk started a second before and ending
    a second after), as `python -m companion --lan` serves; then the same with FLOOD_CLIENTS
    asking for the home page itself (a control: the cost of FLOOD_CLIENTS clients of any page,
    beside what the long history adds)."""
    instance = tmp / "players-flood"
    seeder = growth.seeding_connection(games.app_for(instance, CONFIG))
    table = finished_yard(seeder, MAX_EVENTS)
    seeder.close()
    home = wrk.simple_script(tmp, "home")
    with servers.companion({"COMPANION_INSTANCE": str(instance)},
                           tmp / "players-flood.log", lan=True) as base:
        history = base + table.url + "history"
        # the measured client is another client than the flood's: this machine's LAN address
        own = base.replace("127.0.0.1", lan_address())
        for _ in range(WARM_UP_GETS):  # each worker works the score pad out once
            fetch(history)
            fetch(own + "/")
        quiet = wrk.run(own + "/", home, seconds, QUIET_CLIENTS)
        during, load = flooded(own + "/", history, seconds, tmp)
        control, control_load = flooded(own + "/", base + "/", seconds, tmp)
    return [*flood_figures(table, quiet, (during, load), (control, control_load)),
            gc_pause_figure(instance, table)]


def gc_pause_figure(instance: Path, table: games.Seeded) -> Figure:
    """A worker's full garbage collection after the flood's pages, with what it was forked with
    left out (`serving.Worker.init_process`) against all of it (`gc_pause.py`, a fresh process
    for each side)."""
    def pause(*flags: str) -> dict[str, float]:
        command = [sys.executable, gc_pause.__file__, str(instance), table.url, *flags]
        return json.loads(subprocess.run(command, check=True, capture_output=True,
                                         text=True).stdout)

    whole, frozen = pause(), pause("--freeze")
    return Figure(SECTION, "a worker's full garbage collection after the flood's pages",
                  frozen["ms"], "ms", whole["ms"], "≤ 0.5 × every object collected",
                  frozen["ms"] <= 0.5 * whole["ms"],
                  f"median of {gc_pause.COLLECTIONS} gc.collect() in a process that served "
                  f"{gc_pause.REQUESTS} histories of the long table and home pages; what it "
                  f"started with frozen (gc.freeze(), as each worker does): {frozen['objects']:,} "
                  f"objects to go through, against {whole['objects']:,} (the baseline)")


def flooded(url: str, flood_url: str, seconds: int, tmp: Path) -> tuple[wrk.Load, wrk.Load]:
    """`url` by wrk with QUIET_CLIENTS connections while FLOOD_CLIENTS ask for `flood_url`
    (from a second before to a second after): both runs."""
    with ThreadPoolExecutor(1) as pool:
        flooding = pool.submit(wrk.run, flood_url, wrk.simple_script(tmp, "flood"),
                               seconds + 2, FLOOD_CLIENTS)
        time.sleep(1)
        during = wrk.run(url, wrk.simple_script(tmp, "during"), seconds, QUIET_CLIENTS)
        return during, flooding.result()


def flood_figures(table: games.Seeded, quiet: wrk.Load, history: tuple[wrk.Load, wrk.Load],
                  control: tuple[wrk.Load, wrk.Load]) -> list[Figure]:
    (during, load), (beside, home_load) = history, control
    complete = all(x.share(200) == 1 and not x.errors for x in (quiet, *history, *control))
    what = f"{FLOOD_CLIENTS} clients ask for the history of a {table.events:,}-event table"
    return [
        Figure(SECTION, f"GET / p99 while {what}", during.p99_ms, "ms", quiet.p99_ms,
               f"≤ {FLOOD_LIMIT} × quiet, all 200", complete and during.p99_ms
               <= FLOOD_LIMIT * quiet.p99_ms,
               f"python -m companion --lan (2 workers × 8 threads, as scripts/serve), the flood "
               f"from 127.0.0.1 and the home page from {lan_address()} (two clients), "
               f"the home page "
               f"by wrk with {QUIET_CLIENTS} connections for {quiet.seconds:.0f} s, quiet "
               f"(baseline: {quiet.rps:.0f} req/s, p50 {quiet.p50_ms:.1f} ms) and during the "
               f"flood ({during.rps:.0f} req/s, p50 {during.p50_ms:.1f} ms); "
               f"{during.p99_ms / beside.p99_ms:.2f} × its p99 beside {FLOOD_CLIENTS} clients "
               f"of the home page itself (the control below)"),
        Figure(SECTION, f"the flood itself: GET <table>/history, {what}", load.p99_ms, "ms",
               note=f"wrk {FLOOD_CLIENTS} connections: {load.rps:.0f} req/s, p50 "
                    f"{load.p50_ms:.1f} ms; {load.requests} requests: {load.statuses}, "
                    f"{load.errors} socket errors or timeouts; a yard game padded with undo/redo"
                    " pairs before its final action, its history's first page (100 lines)"),
        Figure(SECTION, f"control: GET / p99 while {FLOOD_CLIENTS} clients ask for the home "
               "page", beside.p99_ms, "ms", quiet.p99_ms,
               note=f"the same two wrk runs with the home page as the flood: {QUIET_CLIENTS} "
                    f"connections {beside.rps:.0f} req/s, p50 {beside.p50_ms:.1f} ms; the flood "
                    f"{home_load.rps:.0f} req/s, p50 {home_load.p50_ms:.1f} ms, p99 "
                    f"{home_load.p99_ms:.1f} ms"),
    ]


def run(mode: str, seconds: int, tmp: Path) -> list[Figure]:
    """Every part; `mode` ("full" or "quick") picks the counts."""
    return [*compare(growth.ROUNDS[mode], tmp), *served(IMPORTS[mode], seconds, tmp),
            *crowd(mode, seconds, tmp), *flood(seconds, tmp)]
