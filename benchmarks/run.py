"""The benchmark suite: `python benchmarks/run.py [--quick] [--only STEP]`.

Prints a table of figures, each beside a bare baseline measured in the same run, and (for a
full run) writes it to benchmarks/RESULTS.md. Everything runs on 127.0.0.1 in a temporary
directory: gunicorn servers are started on free ports and always stopped; wrk runs for a fixed
time. `--quick` runs shorter and fewer of everything and finishes in under a minute.
`--only "players pages"` runs the steps whose titles begin so; a full run of them replaces
their sections of RESULTS.md, saying so, and leaves the others as they were.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import capacity  # noqa: E402 - the sibling modules, importable once HERE is on the path
import changes  # noqa: E402
import growth  # noqa: E402
import lighthouse  # noqa: E402
import load  # noqa: E402
import pdfs  # noqa: E402
import phone  # noqa: E402
import players_bench  # noqa: E402
import report  # noqa: E402
import rules_bench  # noqa: E402
import taps  # noqa: E402
import weight  # noqa: E402

RESULTS = HERE / "RESULTS.md"


@dataclass(frozen=True)
class Mode:
    """How long and how often: wrk seconds per figure, PDF renders (and warm-up renders of
    each document), timeit repeats after its autorange."""

    name: str
    wrk_seconds: int
    pdf_renders: int
    pdf_warm_up: int
    timeit_repeat: int


FULL = Mode("full", wrk_seconds=10, pdf_renders=500, pdf_warm_up=2, timeit_repeat=5)
QUICK = Mode("quick", wrk_seconds=2, pdf_renders=60, pdf_warm_up=1, timeit_repeat=0)

METHODS = [
    "- Pages and actions: gunicorn with 2 sync workers (`--no-control-socket`) on 127.0.0.1, "
    "the companion on a temporary instance, loaded by wrk `-t16 -c16 --latency` (one "
    "connection per thread) for a fixed time after a warm-up of 20 requests. The baseline is "
    "`benchmarks/bare_app.py` under the same gunicorn settings, run just before each figure: a "
    "Flask app opening a sqlite-utils connection per request and doing one read and one "
    "insert. With 16 connections on 2 workers requests queue, so the mean latency is about "
    "16 / throughput (Little's law): p99 < 25 ms takes roughly 1,000 req/s or more.",
    "- The scoring action is a yard purchase (POST /yard/<id>/buy, CSRF token and session "
    "cookie of that connection's phone, the current seq): each connection plays its own "
    "3-player tables from seq 0 to 53 (the game's 54 building cards), then moves to a fresh "
    "table, so tables hold 0 to 54 events while measured. Every 303 must have written one "
    "event: the database is counted afterwards.",
    "- Table, history and scoreboard pages show mid-game tables written through the storage "
    "layer with scripted events the rules accept (yard: 30 events, purchases and scoring A; "
    "urbanisation: the first 60 events of the six-turn game in "
    "companion/rules/urbanisation_example.py). Score sheets are of whole scripted games "
    "(fifth_avenue's script stops after its first auctions).",
    "- PDF: each side in a fresh process; renders go through the documents in shuffled "
    "rounds after warm-up renders of each (two in a full run, one in a quick one). The app's "
    "PDFs are fetched through the Flask test client (view, replay, template, WeasyPrint), at "
    "the sizes the table pages link to. The bare render is WeasyPrint alone on a one-page "
    "16 × 6 table, one FontConfiguration per process as in companion/pdf.py. Memory is VmRSS "
    "from /proc/self/status.",
    "- Page weight: the Flask test client, a mid-game table of each game; HTML plus the "
    "stylesheets and scripts each page links, as sent to a browser accepting gzip (CSS and "
    "JS gzipped, pages never: BREACH), i.e. a phone's first visit.",
    "- Rules: timeit, best of the repeats, on the states the scripted games reach.",
    "- Growth: in-process (Flask test client, `time.perf_counter`), per game a mid-game table "
    "beside one with the same script padded with undo/redo pairs to 500 events, asked in turn "
    "(A B A B), 200 rounds (40 quick), medians: the table page warm (in the worker's memory) "
    "and cold (`replays.MEMORY.forget()` first: from the stored snapshot), then "
    "`replays.record` (with a one-time key, as the views call it) of the script's next action "
    "and of its undo; the mid-game table is seeded afresh every 10 rounds, the long one keeps "
    "growing. Set-up events are written through a connection without fsync.",
    "- Players pages: statistics belong to a browser (issue 27), so every request carries "
    "the session cookie of the test client that opened or imported the tables (the server "
    "signs with the same instance's secret key; each page is checked to show Ann). /players "
    "and /players/Ann through the test client on two instances of 30 finished yard tables "
    "each, plain games (57 events) and games padded with undo/redo pairs before the final "
    "action to 16 times that; each side one played table exported and imported 29 times "
    "through POST /import, asked in turn, 200 rounds (40 quick). Then gunicorn over 120 tables "
    "(30 quick) of 1,999 events imported the same way (the cookie holds the last 100): 20 "
    "single urllib GETs after 10 warm-up, wrk with 8 connections, the workers' VmRSS before "
    "and after. Then a crowded server: 20,000 finished yard tables (2,000 quick), one played "
    "through the app's write path and copied in SQL (fresh id, mark and view link; events, "
    "snapshot and result by insert-select; no fsync), and a browser that opened 100 of them "
    "spread over the server's (MAX_REMEMBERED_TABLES, all finished: the most one browser "
    "counts); /players and /players/Ann under gunicorn with its cookie (20 single GETs after "
    "10 warm-up, then wrk with 16 connections), and without a cookie (a stranger). Last, the "
    "history flood under `python -m companion` (scripts/serve's server, 2 workers × 8 "
    "threads): a finished yard table of 1,999 events; GET / by wrk with 2 connections, quiet, "
    "then while a second wrk (16 connections, from a second before to a second after) asks "
    "for that table's history; the same with the home page as the flood, as a control.",
    "- Taps per task: the browser tests tests/browser/test_*_taps.py (Debian's Chromium, "
    "390x844, touch) play each task of issue 15 through tests/browser/taps.py, which counts a "
    "tap, a key press (a character typed or deleted) and a choice from a list as one each; "
    "the note lists the steps.",
    "- A slow phone (issues 28, 46): `benchmarks/phone.py` (also alone: `.venv/bin/python "
    "benchmarks/phone.py [--quick] [--runs N] [--trace DIR]`; `--runs 3` gives three full runs "
    "side by side). Debian's Chromium headless at 390x844 with "
    "touch, the CPU slowed 4x by `Emulation.setCPUThrottlingRate` (Lighthouse's mobile "
    "profile), run at idle scheduling priority (`benchmarks/idle-chromium`: `chrt --idle 0`; "
    "the slowdown busy-waits in the page's main thread, 0.8 of a core of the box's 2 with the "
    "page idle, which a real phone never takes from the server; `--same-priority` runs it as "
    "before), the companion as scripts/serve runs it (`python -m companion`: 2 workers x 8 "
    "threads, its templates compiled before they fork) on 127.0.0.1 with each game's "
    "mid-game table (5th Avenue's: its whole script, 20 events, where a commissioner's move "
    "comes next). Per game, after a first visit and a warm-up (action and undo on each "
    "worker), 6 rounds (2 quick) of: the game's most common action (a yard purchase, a 5th "
    "Avenue move, a street card built before put on a site, an Urbanisation offer), undo, "
    "bare, redo, undo, bare, each "
    "a touch tap 1.1 s after the last (app.js's quiet time). Times run from the tap's own "
    "`pointerdown` time stamp to a frame painted (the first message after the next "
    "`requestAnimationFrame`): the tapped control's working state (its class `working`), "
    "and the updated frame (after app.js counted the answer on `<html data-answers>`); every "
    "tap must have recorded one event; the benchmark waits for a tap's marks by polling every "
    "50 ms (not in every animation frame, which would make the page draw a frame every 16 ms). "
    "The bare baseline, in the same page: a button laid "
    "over the page's top right corner that writes one line (its first frame), fetches the "
    "table's `seq` route (one read) and writes another line (fetch + paint). Page loads: 5 "
    "(2 quick) after a first visit, the main thread's busy time (`Performance.getMetrics` "
    "TaskDuration, which starts afresh with each document, read 600 ms after `load`) and "
    "the longest `longtask` entry; long tasks are also collected over every measured tap. "
    "The server's part of each tap: the server's own access log of the run "
    "(`--access-log`: the milliseconds from the request taken by a thread, or the poller, to "
    "its answer sent), medians by kind. "
    "The slowdown's own spread, in the same browser after the games: one fixed piece of "
    "script (about 4 ms at full speed here) run 60 times, each its own task 20 ms after the "
    "last, at full speed and at 4x; its longest beside its median. Medians; the notes give "
    "the maxima.",
    "- Lighthouse (issues 23, 28): `benchmarks/lighthouse.py` (also alone: `.venv/bin/python "
    "benchmarks/lighthouse.py [--quick] [--keep DIR]`). Lighthouse 12 (installed with npm into "
    "~/.cache/companion-bench when missing), run through its Node API by "
    "`benchmarks/lighthouse_run.mjs`, with Debian's Chromium headless and its default "
    "mobile settings (a Moto G Power's screen; slow 4G and a 4x slower CPU, simulated), on "
    "the companion under gunicorn (2 sync workers) on 127.0.0.1 with each game's mid-game "
    "table and the whole scripted games that end. Every page is asked with the Cookie of a "
    "phone that opened and started all those tables (`extraHeaders`), after Lighthouse "
    "cleared the storage (a first visit), waiting at most 15 s after load for the network "
    "to go quiet (`maxWaitForLoad`, 45 s by default: a table page polls its seq every "
    "second, so its network never does). Per page: accessibility and performance in the "
    "light colour scheme, accessibility in the dark one (Chromium's "
    "`--blink-settings=preferredColorScheme=0`, checked first on a probe page to switch "
    "`prefers-color-scheme`); a performance score below 100 is measured twice more and the "
    "median given. The notes name the failing audits and the elements they point at, and "
    "each page's performance metrics, longest tasks and Lighthouse's benchmark index of the "
    "machine. A quick run: the home page and yard's mid-game table, each measured once.",
    "- Live tables on one box (issue 46): `benchmarks/capacity.py` (alone: `scripts/bench "
    "--only capacity`). Per N, a fresh instance of N mid-game yard tables (one written through "
    "the app's write path, 30 events; the others its copies in SQL) under `python -m companion` "
    "(scripts/serve's server: 2 workers x 8 threads; a poll answered by a worker's poller and "
    "its connection kept, any other request one per connection; at most 2 requests of one "
    "address in a worker's threads). h2load and wrk, started together, play every table's 4 "
    "phones on a fixed schedule, whatever the answers take: each phone GETs the table's seq "
    "route at app.js's interval (`setInterval(check, 1000)`: every second, not the issue's "
    "2 s), and every 20 s one phone POSTs a yard purchase (CSRF token, current seq, a "
    "one-time key) and the other 3 GET the table page. The baseline, \"1 table\", is one table "
    "live at a time: 8 tables in turn on one connection, each acting every 2 s (an action "
    "every 0.25 s, each answered before the next is sent), so that its p99 is of 120 actions "
    "(20 in a quick run). The polls: h2load (`--h1`, 2 threads), one connection a phone (at "
    "most 8,000: four fifths of the workers' connections, and the open-file limit), each "
    "GETting a seq route once a second (`--rps 1`), the connections made over one second "
    "(`--rate`) so that the phones poll at phases of their own; every connection is given "
    "the same list of the tables' seq routes, in turn; every request logged (sent, status, "
    "time to answer), those sent in the window counted, a failed one as unanswered. The "
    "actions and page loads (`benchmarks/capacity.lua`): one wrk thread per connection, "
    "about 2 requests/s each (at most 1,800 connections), a table's requests all on one "
    "connection (its page loads sent "
    "once its action is answered), a connection's tables' actions evenly spaced over the 20 s "
    "(so that no connection waits the 5 s after which the server closes it), each request "
    "held by `delay()` until it is due (a "
    "connection is made, then waits), a connection behind its schedule sending at once; "
    "a table's phones have opened it before (a session cookie each table, made as the app "
    "makes it: a page load changes no session); the action is sent as app.js sends it "
    "(`X-Companion: fetch`), answered with the page in place; `response()` moves the table's "
    "seq on an action's 200, keeps a cookie the server sets (counted: none is) and times each "
    "answer. How late the actions and pages were sent is reported (p99). Each new connection "
    "comes from the next of 4 x N loopback addresses 127.1.x.y (the polls': one address a "
    "connection): `benchmarks/sources.c`, built with gcc and preloaded into both tools, binds "
    "the socket before connect(). 10 s of warm-up, then "
    "30 s measured (quick: 3 and 5 s): only requests due in the window count (the rate intended "
    "is theirs, 99% must be answered; no poll due after it is sent), latency from sent to "
    "answered; errors are other statuses, requests unanswered 3 s after the window, and "
    "wrk's socket errors and timeouts (5 s), and polls failed outside the window. CPU from "
    "/proc/<pid>/stat over the window for the workers, both load tools and the whole machine "
    "(the load client shares the 2 cores), VmRSS at its end. N grows (1, 100, 250, 500, 750, "
    "1,000, 1,500, 2,000, 2,500; quick: 1, 25, 100) "
    "until two in a row fall behind (fewer than 99% of the requests due answered). First, the "
    "poll flat out: one table's seq route by wrk with 32 "
    "connections from 32 addresses, 30 s (quick 5 s) after 2 s of warm-up, with the workers' "
    "CPU per poll.",
]


def ensure_wrk() -> None:
    """Debian's wrk, installed with apt when missing and we are root (as scripts/test does)."""
    if shutil.which("wrk"):
        return
    if os.geteuid() != 0:
        sys.exit("wrk is missing: sudo apt-get install -y wrk")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, env=env)


def steps(mode: Mode, tmp: Path) -> dict[str, Callable[[], list[report.Figure]]]:
    return {
        "pages and actions under gunicorn": lambda: load.run(mode.wrk_seconds, tmp),
        f"PDF, {mode.pdf_renders} renders": lambda: pdfs.run(mode.pdf_renders, mode.pdf_warm_up),
        "page weight": lambda: weight.run(tmp),
        "rules engine": lambda: rules_bench.run(mode.timeit_repeat),
        "growth: long logs vs mid-game": lambda: growth.run(growth.ROUNDS[mode.name], tmp),
        "changing a past action": lambda: changes.run(growth.ROUNDS[mode.name], tmp),
        "players pages": lambda: players_bench.run(mode.name, mode.wrk_seconds, tmp),
        "taps per task": taps.run,
        "a slow phone (Chromium, CPU 4x slower)": lambda: phone.run(mode.name, tmp),
        "lighthouse (mobile)": lambda: lighthouse.run(mode.name, tmp),
        "capacity: live tables on one box": lambda: capacity.run(mode.name, tmp),
    }


def measure(mode: Mode, only: list[str] | None = None) -> list[report.Figure]:
    """Every step in turn (or those whose titles begin with one of `only`), in one temporary
    directory, saying how long each took; a step that fails (the app is being worked on) is
    reported as a failed figure and the others go on."""
    figures: list[report.Figure] = []
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        for title, step in steps(mode, Path(tmp)).items():
            if only and not any(title.startswith(start) for start in only):
                continue
            started = time.monotonic()
            print(f"-- {title} ...", flush=True)
            try:
                figures += step()
            except Exception as error:  # reported in the table; the other steps go on
                traceback.print_exc()
                figures.append(report.Figure(title, "step failed", "failed", met=False,
                                             note=f"{type(error).__name__}: {error}"[:300]))
            print(f"   done in {time.monotonic() - started:.0f} s", flush=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="2 s per load figure, 60 PDF renders; RESULTS.md is left alone")
    parser.add_argument("--output", type=Path, default=None,
                        help="where to write the markdown (default: RESULTS.md for a full run)")
    parser.add_argument("--only", action="append", metavar="STEP",
                        help="run only the steps whose titles begin with STEP (repeatable), "
                             "e.g. 'players pages'; their sections of the markdown are replaced")
    args = parser.parse_args()
    mode = QUICK if args.quick else FULL
    output = args.output or (None if args.quick else RESULTS)
    if args.only and not any(t.startswith(tuple(args.only)) for t in steps(mode, HERE)):
        sys.exit(f"No step begins with {args.only}: {', '.join(steps(mode, HERE))}")
    ensure_wrk()
    before = os.getloadavg()[0]
    if report.busy(before):
        print(f"Warning: {report.busy(before)}.", flush=True)
    started = time.monotonic()
    figures = measure(mode, args.only)
    elapsed = time.monotonic() - started
    loads = (before, os.getloadavg()[0])
    print()
    print(report.text_table(figures))
    print("\nNotes:\n" + "\n".join(report.notes(figures)))
    if mode is QUICK:
        print(f"\nQuick run: {mode.wrk_seconds} s per load figure, memory over "
              f"{mode.pdf_renders} renders (not 500).")
    if output and args.only:
        report.write_steps(output, figures, report.command_line(), elapsed, loads, METHODS)
        print(f"\nIts sections written into {output}")
    elif output:
        report.write_markdown(output, figures, report.command_line(), elapsed, loads, METHODS)
        print(f"\nWritten to {output}")
    print(f"Took {elapsed:.0f} s.")
    if any(figure.name == "step failed" for figure in figures):
        sys.exit(1)


if __name__ == "__main__":
    main()
