"""How many live tables one box holds (issue 46): N tables played at once against the server as
`scripts/serve` runs it (`python -m companion`), for N growing.

Each table has PHONES phones doing what static/app.js does: each polls the table's seq route
every POLL_SECONDS (app.js's own interval), and every ACTION_SECONDS one phone posts an action
(a yard purchase, sent as app.js sends it and answered with the page in place) after which the
other phones load the table page. A table's phones have opened it before (`phone_cookies`): a
page load changes no session, as a phone's at its own table does not. Two load tools, started
together, drive that schedule at its constant rate, each new connection from the next of many
loopback addresses (sources.c, preloaded into them), as phones come from their own addresses:
the polls by h2load (`polls_load`), one connection a phone (up to the open-file limit and four
fifths of the server's connections) over POLL_THREADS threads, each sending a poll every
POLL_SECONDS (`--rps`), every request logged (when sent, status, time to answer); and the
actions and page loads by wrk (capacity.lua), one thread per connection, whose response()
reads the status, the cookie and the latency of each. Measured per N: the rate achieved beside
the rate intended, p50 and p99 of the action, the poll and the page beside one table's,
errors, the workers' CPU and memory and the load tools' own CPU (h2load's and wrk's); and the
largest N whose action p99 stays within SLACK x one table's with no error.
"""

from __future__ import annotations

import json
import math
import os
import re
import resource
import subprocess
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import action
import flask
import games
import growth
import pdfs
import players_bench
import servers
import wrk
from report import Figure

from companion import serving
from companion.views import clients

SECTION = "How many live tables one box holds (issue 46)"
HERE = Path(__file__).resolve().parent
PHONES = 4
PAGES = PHONES - 1  # the phones that load the page after an action
ACTION_SECONDS = 20
# The baseline, "one table": BASELINE_TABLES tables in turn on one connection, each acting
# every BASELINE_ACTION_SECONDS (an action every 0.25 s, each answered before the next is
# sent): one table live at a time, and its action's p99 of 120 actions in the full window, not
# of the 15 one table's script has room for (nearly their slowest, 9-95 ms in earlier runs).
BASELINE_TABLES = 8
BASELINE_ACTION_SECONDS = 2
# wrk is closed-loop per connection: a connection sends its next request once the last is
# answered (a table's page loads follow its action's answer), so each of the actions' and
# pages' gets a couple of requests a second, room for answers of a few hundred ms, which they
# take under load (at 5 a second, 25 tables a connection, they were sent seconds late); the
# polls' connections are one a phone, each polling about once a second.
PER_CONNECTION = 2  # actions and page loads per second one wrk connection (a thread) sends
MOST_CONNECTIONS = 1800  # the actions' and pages' connections (threads), at most
# The polls' h2load threads (the machine's cores), their connections shared out. (wrk, which
# drove them before, keeps a thread's waiting connections' timers in a list it scans on every
# turn of its loop: at 2,000 tables it took 0.57 of a core for the polls, h2load 0.19.)
POLL_THREADS = 2
SERVER_CONNECTIONS = serving.WORKERS * serving.MAX_CONNECTIONS  # the workers keep this many open
SPARE_FILES = 200  # wrk's files besides its connections
SLACK = 2  # the action's p99 may grow to this many times one table's
KEPT = 0.99  # share of the requests due in the window that must be answered
TARGET = 2000
STEPS = {"full": (1, 100, 250, 500, 750, 1000, 1500, 2000, 2500), "quick": (1, 25, 100)}
SECONDS = {"full": (10, 30), "quick": (3, 5)}  # warm-up, measured window
TAIL = 3  # seconds after the window for its last answers
KINDS = ("action", "poll", "page")
FLAT_OUT = 32  # addresses (and wrk connections) polling one table as fast as they can


def poll_seconds() -> float:
    """How often a table page polls its seq route: app.js's `setInterval(check, ms)`."""
    found = re.search(r"setInterval\(check, (\d+)\)", (games.ROOT / "static/app.js").read_text())
    if found is None:
        raise RuntimeError("static/app.js: no setInterval(check, ms)")
    return int(found.group(1)) / 1000


def purchases() -> list[str]:
    """The form fields of the yard purchases that follow the mid-game table's events."""
    rest = games.script("yard", mid_game=False)[games.MID_GAME["yard"]:]
    return [f"player={p['player']}&building={p['building']}&receiver="
            for kind, p in rest if kind == "buy"]


@dataclass(frozen=True)
class Kind:
    """One kind of request in the measured window: sent, answered, statuses, latency."""

    due: int
    sent: int
    answered: int
    statuses: dict[str, int]
    latency: dict[str, int]  # 0.1 ms bucket -> answers
    quantiles: dict[float, float] = field(default_factory=dict)  # share -> ms, wrk's (polls)

    @classmethod
    def of(cls, kind: str, tally: dict[str, int]) -> Kind:
        quantiles = {int(key[1:-len(kind) - 1]) / 100: n / 1000 for key, n in tally.items()
                     if re.fullmatch(rf"p\d+ {kind}", key)}
        return cls(tally.get(f"due {kind}", 0), tally.get(f"sent {kind}", 0),
                   tally.get(f"answered {kind}", 0), part(tally, f"status {kind}"),
                   part(tally, f"latency {kind}"), quantiles)


@dataclass
class Step:
    """What one N measured."""

    tables: int
    connections: int  # the actions' and pages' (a wrk thread each)
    pollers: int  # the polls' connections
    kinds: dict[str, Kind]
    late_ms: float  # p99 of how late the actions and pages were sent after they were due
    errors: dict[str, int]
    window: int
    workers: list[tuple[float, float]] = field(default_factory=list)  # CPU %, RSS MB
    client_cpu: float = 0.0  # both load tools (h2load, wrk), % of a core
    poll_client_cpu: float = 0.0  # the polls' h2load, of client_cpu
    machine_busy: float = 0.0
    addresses: int = 0
    cookies_set: int = 0  # answers in the window that set a session cookie (none, as a phone's)

    @property
    def intended(self) -> float:
        """Requests per second the schedule has due in the window."""
        return sum(k.due for k in self.kinds.values()) / self.window

    @property
    def achieved(self) -> float:
        return sum(k.answered for k in self.kinds.values()) / self.window

    def percentile(self, kind: str, share: float) -> float:
        quantiles = self.kinds[kind].quantiles
        return quantiles[share] if share in quantiles else percentile(
            self.kinds[kind].latency, share)

    def failures(self) -> int:
        """Answers not as expected (any status but 200), requests sent in the window and never
        answered, and errors of the whole run (wrk's socket errors and timeouts, polls failed
        outside the window)."""
        wrong = sum(n for kind in KINDS for status, n in self.kinds[kind].statuses.items()
                    if status != "200")
        lost = sum(k.sent - k.answered for k in self.kinds.values())
        return wrong + lost + sum(self.errors.values())

    def cpu_ms(self) -> float:
        """The workers' CPU time per request answered, in ms."""
        return sum(cpu for cpu, _ in self.workers) / 100 * self.window * 1000 / max(
            1, sum(k.answered for k in self.kinds.values()))

    def client_ms(self) -> float:
        """The load client's CPU time (both load tools) per request answered, in ms."""
        return self.client_cpu / 100 * self.window * 1000 / max(
            1, sum(k.answered for k in self.kinds.values()))

    def keeps(self) -> bool:
        """The server kept up: the requests due in the window were answered in it."""
        return self.achieved >= KEPT * self.intended

    def holds(self) -> bool:
        return not self.failures() and self.keeps()


def percentile(histogram: dict[str, int], share: float) -> float:
    """The latency (ms) below which `share` of the answers came, from 0.1 ms buckets."""
    buckets = sorted((int(key), n) for key, n in histogram.items())
    total, seen = sum(n for _, n in buckets), 0
    for bucket, n in buckets:
        seen += n
        if seen >= share * total:
            return (bucket + 1) / 10
    return math.nan


def compile_sources(tmp: Path) -> Path:
    """sources.c built into a preloadable library (gcc, as scripts/debian installs it)."""
    library = tmp / "sources.so"
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(library),
                    str(HERE / "sources.c"), "-ldl"], check=True)
    return library


def seed(instance: Path, tables: int) -> list[str]:
    """`tables` mid-game yard tables: one written through the app's write path (30 events,
    purchases and scoring A), the others its copies in SQL."""
    app = games.app_for(instance)
    db = growth.seeding_connection(app)
    first = games.seed(db, "yard", mid_game=True)
    if first.events != first.wanted:
        raise RuntimeError(f"the yard script stopped at {first.events} events")
    ids = [first.id, *players_bench.copies(db, first.id, tables - 1)]
    db.close()
    return ids


def phone_cookies(instance: Path, cookie: str, ids: list[str]) -> list[str]:
    """Each table's phones' session cookie: the session `cookie` (a first visit's) once it has
    opened the table (`clients.remember`), as a phone's session is from its first load of the
    table on. The benchmark's phones all had one session before, which every page load of
    another table changed: a cookie signed again in each answer, work no phone at its own
    table causes."""
    app = games.app_for(instance)
    cookies = []
    for table_id in ids:
        with app.test_request_context("/", headers={"Cookie": cookie}):
            clients.remember(table_id)
            response = app.response_class()
            app.session_interface.save_session(app, flask.session, response)
            cookies.append(response.headers["Set-Cookie"].split(";")[0])
    return cookies


def script(tmp: Path, ids: list[str], connections: int, session: tuple[str, str],
           cookies: list[str], action_seconds: int, seconds: tuple[int, int]) -> Path:
    """capacity.lua (the actions and pages) with its data: each connection's tables (table i to
    connection i mod connections) and their phones' session cookies, the CSRF token of the
    sessions, the purchases to post."""
    token = session[1]
    mine = [ids[c::connections] for c in range(connections)]
    theirs = [cookies[c::connections] for c in range(connections)]
    data = [
        "TABLES = {" + ", ".join(action.lua_list(tables) for tables in mine) + "}",
        "COOKIES = {" + ", ".join(action.lua_list(each) for each in theirs) + "}",
        "ACTIONS = " + action.lua_list(purchases()),
        f"TOKEN = {wrk.lua_string(token)}",
        f"KEY_TIME = {wrk.lua_string(action.key_time())}",
        f"SEQ0, PHONES, PAGES = {games.MID_GAME['yard']}, {PHONES}, {PAGES}",
        f"ACTION_MS = {action_seconds * 1000}",
        f"WARM_MS, WINDOW_MS = {seconds[0] * 1000}, {seconds[1] * 1000}",
    ]
    return lua_script(tmp / f"capacity-{len(ids)}.lua", data, "capacity.lua")


@dataclass(frozen=True)
class Load:
    """A load tool's process: its command, its connections' addresses (sources.c), and how its
    output becomes the tally's counts (`capacity.lua`'s keys)."""

    command: list[str]
    sources: int
    tally: Callable[[str, float], dict[str, int]]  # (stdout, when it started) -> counts


def wrk_load(lua: Path, connections: int, sources: int, seconds: int) -> Load:
    """wrk with one thread a connection, playing `lua` (capacity.lua), for `seconds`."""
    return Load(["wrk", f"-t{connections}", f"-c{connections}", f"-d{seconds}s", "--timeout",
                 "5s", "-s", str(lua)], sources, lambda out, _: wrk_tally(out))


def wrk_tally(out: str) -> dict[str, int]:
    """The counts capacity.lua's done() printed."""
    line = next((x for x in out.splitlines() if x.startswith("BENCH_JSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no counts: {out[-500:]}")
    return dict(json.loads(line.removeprefix("BENCH_JSON ")))


def polls_load(base: str, ids: list[str], pollers: int, seconds: tuple[int, int],
               tmp: Path) -> Load:
    """h2load as the phones' polls: `pollers` connections (one a phone), each GETting a seq
    route every POLL_SECONDS (`--rps`), made over one poll period (`--rate`: so that the
    phones poll at phases of their own, not all at once), each request logged. h2load gives
    every connection the same list of paths, in turn: a phone's polls go to the tables one
    after another (a poll costs the same at any table: one indexed read). Polls are counted by
    when they were sent (`polls_tally`)."""
    warm, window = seconds
    period = poll_seconds()
    paths = tmp / f"polls-{len(ids)}.txt"
    paths.write_text("".join(f"{base}/yard/{table}/seq\n" for table in ids))
    log = tmp / f"polls-{len(ids)}.log"
    log.unlink(missing_ok=True)
    threads = min(POLL_THREADS, pollers)
    per_tenth = max(threads, math.ceil(pollers * 0.1 / period))  # h2load: at least a thread's
    polls = pollers * math.ceil((warm + window + TAIL) / period)
    command = ["h2load", "--h1", "-t", str(threads), "-c", str(pollers),
               "-n", str(polls), "--rps", f"{1 / period:g}", "-r", str(per_tenth),
               "--rate-period", "100ms", "-T", "5s", "-N", "5s", "-i", str(paths),
               "--log-file", str(log)]
    return Load(command, pollers,
                lambda _, started: polls_tally(log, started, pollers, seconds))


def polls_tally(log: Path, started: float, pollers: int,
                seconds: tuple[int, int]) -> dict[str, int]:
    """The polls' counts from h2load's log (when each was sent, in microseconds since the
    epoch; its status, -1 if it failed; microseconds to its answer): those sent in the measured
    window, their statuses and latency (0.1 ms buckets), a failed one unanswered; due, what the
    schedule has in the window; and the polls that failed outside it, as errors."""
    warm, window = seconds
    begin, end = (started + warm) * 1e6, (started + warm + window) * 1e6
    tally = Counter({"due poll": round(pollers * window / poll_seconds())})
    for line in log.read_text().splitlines():
        sent, status, took = (int(x) for x in line.split("\t")[:3])
        if not begin <= sent < end:
            tally["error poll failed outside the window"] += status < 0
        elif status < 0:
            tally["sent poll"] += 1
        else:
            tally.update(["sent poll", "answered poll", f"status poll {status}",
                          f"latency poll {took // 100}"])
    return dict(tally)


def lua_script(path: Path, data: list[str], name: str) -> Path:
    """A wrk script written to `path`: its data, the clock (clock.lua), then the script."""
    parts = [*data, (HERE / "clock.lua").read_text(), (HERE / name).read_text()]
    path.write_text("\n".join(parts))
    return path


def open_files() -> int:
    """The files this process (and the wrk it starts) may open: its soft limit, first raised
    as far as the hard limit lets it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    return 1 << 30 if soft == resource.RLIM_INFINITY else soft


def pollers(tables: int) -> int:
    """The polls' connections: one a phone, at most what h2load may open and four fifths of
    what the workers keep open (room for the pages' connections and for one worker holding
    more than its half)."""
    return min(PHONES * tables, open_files() - SPARE_FILES, SERVER_CONNECTIONS * 4 // 5)


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system, all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_times() -> tuple[int, int]:
    """The whole machine's busy and total CPU ticks so far (/proc/stat)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]
    return sum(ticks) - idle, sum(ticks)


def peers(port: int) -> int:
    """How many client addresses have a connection to `port` now (/proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, remote = line.split()[1:3]
        if int(local.split(":")[1], 16) == port:
            found.add(remote.split(":")[0])
    return len(found)


def workers(port: int, within: float = 2.0) -> list[int]:
    """The gunicorn workers of the `python -m companion --port PORT` this process started:
    looked for again for up to `within` seconds until all its serving.WORKERS are found (some
    steps' figures had counted one worker only)."""
    deadline = time.monotonic() + within
    while True:
        running = players_bench.processes()
        masters = [pid for pid, (parent, command) in running.items()
                   if parent == os.getpid() and f"--port {port}" in command]
        found = sorted(pid for pid, (parent, _) in running.items() if parent in masters)
        if len(found) >= serving.WORKERS or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def drive(base: str, loads: list[Load], library: Path,
          seconds: tuple[int, int]) -> tuple[dict[str, int], dict[str, Any]]:
    """The load tools' processes, started together (the polls' first), each its connections
    from as many addresses as it has `sources`; the workers', the tools' and the machine's CPU
    sampled over the measured window, memory and client addresses at its end. Their tallies
    summed (their keys are the same but for the polls' and the others')."""
    warm, window = seconds
    port = int(base.rsplit(":", 1)[1])
    started, since = time.monotonic(), time.time()
    clients = [subprocess.Popen(
        [*load.command, base], env={**os.environ, "LD_PRELOAD": str(library),
                                    "SOURCES": str(load.sources)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for load in loads]
    try:
        pids = workers(port)
        watched = [*pids, *(client.pid for client in clients)]
        time.sleep(max(0.0, started + warm - time.monotonic()))
        before = [cpu_seconds(pid) for pid in watched], machine_times()
        time.sleep(window / 2)
        addresses = peers(port)
        time.sleep(max(0.0, started + warm + window - time.monotonic()))
        after = [cpu_seconds(pid) for pid in watched], machine_times()
        rss = [pdfs.rss_mb(pid) for pid in pids]
        tally: dict[str, int] = {}
        for client, load in zip(clients, loads, strict=True):
            out, err = client.communicate(timeout=warm + window + TAIL + 120)
            if client.returncode != 0:
                raise RuntimeError(f"{load.command[0]} failed ({client.returncode}): "
                                   f"{out[-500:]} {err[-500:]}")
            for key, n in load.tally(out, since).items():
                tally[key] = tally.get(key, 0) + n
    finally:
        for client in clients:
            if client.poll() is None:
                client.kill()
                client.wait()
    cpu = [100 * (b - a) / window for a, b in zip(before[0], after[0], strict=True)]
    busy, total = (b - a for a, b in zip(before[1], after[1], strict=True))
    usage = {"workers": list(zip(cpu[:len(pids)], rss, strict=True)),
             "client_cpu": sum(cpu[len(pids):]), "poll_client_cpu": cpu[len(pids)],
             "machine_busy": 100 * busy / max(1, total), "addresses": addresses}
    return tally, usage


def step(tables: int, mode: str, library: Path, tmp: Path) -> Step:
    """N live tables on a fresh instance under a fresh server, measured once (N = 1: one
    table live at a time, the baseline)."""
    seconds = SECONDS[mode]
    if tables == 1:  # the baseline: one table live at a time (BASELINE_TABLES in turn)
        played, action_seconds, connections = BASELINE_TABLES, BASELINE_ACTION_SECONDS, 1
    else:
        others = tables * (1 + PAGES) / ACTION_SECONDS  # actions and page loads a second
        played, action_seconds = tables, ACTION_SECONDS
        connections = max(1, min(tables, MOST_CONNECTIONS, math.ceil(others / PER_CONNECTION)))
    polling = pollers(played)
    instance = tmp / f"capacity-{tables}"
    ids = seed(instance, played)
    with servers.companion({"COMPANION_INSTANCE": str(instance)},
                           tmp / f"capacity-{tables}.log") as base:
        session = action.session(base)
        cookies = phone_cookies(instance, session[0], ids)
        loads = [
            polls_load(base, ids, polling, seconds, tmp),
            wrk_load(script(tmp, ids, connections, session, cookies, action_seconds, seconds),
                     connections, PHONES * played, sum(seconds) + TAIL),
        ]
        data, usage = drive(base, loads, library, seconds)
    late = part(data, "late")
    return Step(tables, connections, polling, {kind: Kind.of(kind, data) for kind in KINDS},
                percentile({k: n for k, n in late.items() if k.lstrip("-").isdigit()}, 0.99),
                part(data, "error"), seconds[1],
                cookies_set=data.get("cookie set", 0), **usage)


def part(tally: dict[str, int], prefix: str) -> dict[str, int]:
    """The counts of capacity.lua's tally whose keys begin with `prefix` and a space."""
    return {key[len(prefix) + 1:]: n for key, n in tally.items()
            if key.startswith(prefix + " ")}


def flat_out(library: Path, seconds: int, tmp: Path) -> Figure:
    """The poll's ceiling: one table's seq route asked as fast as FLAT_OUT addresses can (one
    wrk connection each), and the workers' CPU time per poll."""
    instance = tmp / "capacity-flat-out"
    ids = seed(instance, 1)
    with servers.companion({"COMPANION_INSTANCE": str(instance)}, tmp / "flat-out.log") as base:
        url = f"{base}/yard/{ids[0]}/seq"
        script = wrk.simple_script(tmp, "flat-out")
        sources = {"LD_PRELOAD": str(library), "SOURCES": str(FLAT_OUT)}
        wrk.run(url, script, 2, FLAT_OUT, sources)  # warm-up
        pids = workers(int(base.rsplit(":", 1)[1]))
        before = sum(cpu_seconds(pid) for pid in pids)
        load = wrk.run(url, script, seconds, FLAT_OUT, sources)
        cpu = sum(cpu_seconds(pid) for pid in pids) - before
    wrong = load.requests - load.statuses.get("200", 0) + load.errors
    return Figure(SECTION, f"one table's poll flat out ({FLAT_OUT} addresses)", load.rps,
                  "polls/s", note=f"p50 {load.p50_ms:.1f} ms, p99 {load.p99_ms:.1f} ms; "
                  f"{1000 * cpu / max(1, load.requests):.2f} ms of the workers' CPU a poll; "
                  f"{wrong} not 200 or failed")


def run(mode: str, tmp: Path) -> list[Figure]:
    """The poll flat out, then every N of the mode in turn, then the largest that holds; N
    stops growing after two in a row whose rate was not kept (the server fell behind)."""
    library = compile_sources(tmp)
    ceiling = flat_out(library, SECONDS[mode][1], tmp)
    print(f"   {ceiling.name}: {ceiling.value:.0f} polls/s, {ceiling.note}", flush=True)
    measured: list[Step] = []
    for tables in STEPS[mode]:
        measured.append(step(tables, mode, library, tmp))
        print(f"   {tables} tables: {summary(measured[-1])}", flush=True)
        if len(measured) > 2 and not any(s.keeps() for s in measured[-2:]):
            break
    return [ceiling, *(f for s in measured for f in figures(s, measured[0])),
            largest(measured)]


def ok(step: Step, one: Step) -> bool:
    """No error, the intended rate kept, and the action's p99 within SLACK x one table's."""
    return step.holds() and step.percentile("action", 0.99) <= SLACK * one.percentile(
        "action", 0.99)


def summary(step: Step) -> str:
    latencies = ", ".join(f"{kind} p50 {step.percentile(kind, 0.5):.1f} / p99 "
                          f"{step.percentile(kind, 0.99):.1f} ms" for kind in KINDS)
    workers = ", ".join(f"{cpu:.0f}% CPU {rss:.0f} MB" for cpu, rss in step.workers)
    return (f"{step.achieved:.0f} of {step.intended:.0f} req/s, {latencies}; "
            f"{step.failures()} errors; workers {workers} ({step.cpu_ms():.2f} ms CPU a "
            f"request); load tools {step.client_cpu:.0f}% CPU ({step.client_ms():.3f} ms a "
            f"request; the polls' h2load {step.poll_client_cpu:.0f}%); "
            f"machine {step.machine_busy:.0f}% busy; {step.addresses} client addresses")


def figures(step: Step, one: Step) -> list[Figure]:
    """A step's rows: its requests beside the schedule, each kind's p99 beside one table's."""
    name = f"{step.tables:,} tables" if step.tables > 1 else f"1 table ({BASELINE_TABLES} in turn)"
    errors = {**{f"{kind} {status}": n for kind in KINDS
                 for status, n in step.kinds[kind].statuses.items() if status != "200"},
              **{f"unanswered {kind}": step.kinds[kind].sent - step.kinds[kind].answered
                 for kind in KINDS},
              **step.errors}
    workers = ", ".join(f"{cpu:.0f}% CPU, {rss:.0f} MB" for cpu, rss in step.workers)
    listed = ", ".join(f"{key}: {n}" for key, n in errors.items() if n)
    rows = [Figure(SECTION, f"{name}: requests answered", step.achieved, "req/s",
                   step.intended, f"≥ {KEPT} × intended, no error", step.holds(),
                   f"{step.failures()} errors ({listed or 'none'}); "
                   f"workers {workers} ({step.cpu_ms():.2f} ms of CPU a request answered); "
                   f"load tools {step.client_cpu:.0f}% CPU, {step.client_ms():.3f} ms a request "
                   f"(the polls' h2load {step.poll_client_cpu:.0f}%, {step.pollers} "
                   f"connections; the actions' and pages' wrk "
                   f"{step.client_cpu - step.poll_client_cpu:.0f}%, "
                   f"{step.connections} connection{'s' * (step.connections > 1)}); machine "
                   f"{step.machine_busy:.0f}% busy; sent up to {step.late_ms:.0f} ms late "
                   f"(p99; the actions' and pages'); {step.addresses} client "
                   f"addresses connected at mid-window; {step.cookies_set} answers set a "
                   "session cookie")]
    for kind in KINDS:
        p99, base = step.percentile(kind, 0.99), one.percentile(kind, 0.99)
        target, met = (f"≤ {SLACK} × one table", p99 <= SLACK * base) if kind == "action" \
            else ("–", None)
        rows.append(Figure(SECTION, f"{name}: {kind} p99", p99, "ms", base, target, met,
                           f"p50 {step.percentile(kind, 0.5):.2f} ms (one table "
                           f"{one.percentile(kind, 0.5):.2f} ms), "
                           f"{step.kinds[kind].answered} answered in the window"))
    return rows


def largest(measured: list[Step]) -> Figure:
    """The largest N that holds (every smaller N measured holding too), and what the workers'
    CPU per table, at the largest N whose rate was kept, says both cores would hold."""
    held = 0
    for step in measured:
        if not ok(step, measured[0]):
            break
        held = step.tables
    note = (f"the largest N measured with the action's p99 ≤ {SLACK} × one table's, the "
            f"intended rate kept and no error; N measured: "
            f"{', '.join(str(s.tables) for s in measured)}")
    kept = [s for s in measured if s.tables > 1 and s.keeps()]
    if kept:
        busiest = kept[-1]
        cores = sum(cpu for cpu, _ in busiest.workers) / 100 / busiest.tables
        note += (f". At {busiest.tables:,} tables the workers used {1000 * cores:.2f} ms of "
                 f"CPU per table-second: both cores, with the load client elsewhere, would "
                 f"hold about {2 / cores:,.0f} tables by CPU alone")
    return Figure(SECTION, "live tables one box holds", f"{held:,}", "", None,
                  f"≥ {TARGET:,}", held >= TARGET, note)
