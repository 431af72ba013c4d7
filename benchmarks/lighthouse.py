"""Lighthouse (mobile) on every kind of page (issues 23 and 28): accessibility in the light and
the dark colour scheme, performance in the light one, each a score out of 100 (target 100).

The companion is served by gunicorn (2 sync workers) on 127.0.0.1 from a temporary instance
with seeded tables (`games.seed`: every game mid-game, and whole games where the script ends
the game). Every page is asked with the Cookie of a phone that opened and started all of them
(a session signed with the instance's secret key), so its own pages (its tables, the players'
statistics, the owner's share and delete pages) show what a phone that plays sees.

Lighthouse 12 (13 needs Node 22) is installed with npm into the user's cache when missing
(`LIGHTHOUSE_MODULES=/path/to/node_modules` uses another) and run through its Node API by
`lighthouse_run.mjs` (its command line, with Chromium 156, often stopped on an error of its own
after the audits, before or while writing the report); it drives Debian's Chromium with its
default mobile settings (a Moto G Power's screen, slow 4G and a CPU 4x slower, simulated). The dark
scheme is Chromium's `--blink-settings=preferredColorScheme=0`, checked first to really switch
`prefers-color-scheme`. A performance score below 100 is measured twice more and the median
of the three is given (a quick run: the home page and yard's mid-game table, each measured
once).

    .venv/bin/python benchmarks/lighthouse.py [--quick] [--keep DIR]

`--keep DIR` keeps each Lighthouse report (JSON) there.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path[:0] = [str(HERE), str(HERE.parent)]

import games  # noqa: E402
import load  # noqa: E402
import report  # noqa: E402
import screens  # noqa: E402
import servers  # noqa: E402
from flask import Flask  # noqa: E402
from phone import CHROMIUM  # noqa: E402

from companion import storage  # noqa: E402
from companion.views.clients import MAX_OWNED_TABLES  # noqa: E402

SECTION = "Lighthouse (mobile: Moto G Power screen, slow 4G, CPU 4x slower, simulated)"
VERSION = "12"
RUNNER = HERE / "lighthouse_run.mjs"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "companion-bench"
FLAGS = ("--headless --no-sandbox --disable-gpu --disable-background-networking "
         "--disable-component-update --disable-sync --no-first-run")
DARK = "--blink-settings=preferredColorScheme=0"
SCHEME_PROBE = ('data:text/html,<script>document.title = matchMedia("(prefers-color-scheme: '
                'dark)").matches ? "dark" : "light"</script>')
TIMEOUT_S = 240
# Lighthouse waits up to 45 s for the network to go quiet for 1 s after load; a table page asks
# for its seq every second, so it never does. 15 s is still long after everything it measures.
MAX_WAIT_MS = 15_000
ATTEMPTS = 5
RETRY_PAUSE_S = 5
# Runs of performance when the first is below 100 (their median: Lighthouse's own advice).
PERFORMANCE_RUNS = {"full": 3, "quick": 1}


@dataclass(frozen=True)
class Page:
    """A page Lighthouse loads: what it is, its path, and whether it answers 404."""

    name: str
    path: str
    missing: bool = False


@dataclass(frozen=True)
class Lighthouse:
    """How to run Lighthouse on the served companion: its node_modules, the server, the
    phone's Cookie, and where the reports go."""

    modules: Path
    base: str
    headers: Path
    reports: Path

    def audit(self, page: Page, categories: str, dark: bool, run: int = 0) -> dict[str, Any]:
        """One Lighthouse run of `page`: its report. A run that fails (Lighthouse with this
        Chromium now and then loses its page or trace, or writes half a report) is run
        again, up to ATTEMPTS times; the report's "retried" says why. A whole report is kept
        even when a promise of Lighthouse's was left rejected after the audits (exit status 3
        of `lighthouse_run.mjs`); the report's "exited" says so."""
        scheme = "dark" if dark else "light"
        out = self.reports / f"{slug(page.name)}-{categories.replace(',', '+')}-{scheme}-{run}.json"
        command = ["node", str(RUNNER), str(self.modules), self.base + page.path, str(out),
                   categories, f"{FLAGS}{' ' + DARK if dark else ''}", str(self.headers),
                   str(MAX_WAIT_MS), "1" if page.missing else "0"]
        retried: list[str] = []
        for _ in range(ATTEMPTS):
            out.unlink(missing_ok=True)
            done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM},
                                  capture_output=True, text=True, timeout=TIMEOUT_S,
                                  check=False)
            found = report_in(out)
            error = (found.get("runtimeError") or {}).get("code")
            last = done.stderr.strip().splitlines()[-1:] or [""]
            exit_ = f"exit {done.returncode}: {last[0][:120]}"
            if found and not error:
                return {**found, "retried": retried, "exited": exit_ if done.returncode else ""}
            retried.append(error or exit_)
            time.sleep(RETRY_PAUSE_S)
        raise RuntimeError(f"lighthouse failed {ATTEMPTS} times: {'; '.join(retried)}")


def report_in(path: Path) -> dict[str, Any]:
    """The report Lighthouse wrote, or {} when it wrote none or only part of one (it can stop
    half way through writing it): a whole one scores every category it was asked for."""
    try:
        found: dict[str, Any] = json.loads(path.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return {}
    asked = (found.get("configSettings") or {}).get("onlyCategories") or []
    scored = found.get("categories") or {}
    return found if asked and all(name in scored for name in asked) else {}


def slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-")


def installed() -> Path:
    """Where Lighthouse is: $LIGHTHOUSE_MODULES, else Lighthouse 12 in the user's cache,
    installed there with npm when missing (chrome-launcher comes with it)."""
    if os.environ.get("LIGHTHOUSE_MODULES"):
        return Path(os.environ["LIGHTHOUSE_MODULES"])
    modules = CACHE / "node_modules"
    if not (modules / "lighthouse" / "core" / "index.js").exists():
        if not shutil.which("npm"):
            raise RuntimeError("Lighthouse needs Node.js 18+ and npm: apt-get install npm")
        print(f"   Installing Lighthouse {VERSION} with npm into {CACHE}", flush=True)
        subprocess.run(["npm", "install", "--prefix", str(CACHE), "--no-audit", "--no-fund",
                        "--loglevel=error", f"lighthouse@{VERSION}"], check=True)
    return modules


def check_dark_flag() -> None:
    """Chromium with the flags Lighthouse gets, with and without DARK: the page must see
    `prefers-color-scheme: dark` with it and light without (else the dark figures would be
    the light ones again)."""
    for flags, wanted in ((FLAGS, "light"), (f"{FLAGS} {DARK}", "dark")):
        dom = subprocess.run([CHROMIUM, *flags.split(), "--dump-dom", SCHEME_PROBE],
                             capture_output=True, text=True, timeout=60, check=False).stdout
        if f"<title>{wanted}</title>" not in dom:
            raise RuntimeError(f"Chromium with {flags!r} does not prefer the {wanted} scheme")


def phone_cookie(app: Flask, table_ids: list[str]) -> str:
    """The Cookie of a phone that opened and started these tables (the first most recently),
    signed as the app signs its sessions."""
    marks = [storage.mark_of(table_id) for table_id in table_ids]
    session = {"_permanent": True, "tables": marks, "owned": marks[:MAX_OWNED_TABLES]}
    value = app.session_interface.get_signing_serializer(app).dumps(session)  # type: ignore[attr-defined]
    return f"{app.config['SESSION_COOKIE_NAME']}={value}"


def seeded(db: storage.Database) -> tuple[dict[str, games.Seeded], dict[str, games.Seeded]]:
    """Every game's mid-game table, and its whole script's table where that ends the game."""
    middle = {slug: games.seed(db, slug, mid_game=True) for slug in games.PLAYERS}
    ended = {}
    for slug in games.PLAYERS:
        table = games.seed(db, slug, mid_game=False)
        if (storage.get_table(db, table.id) or {}).get("status") == "finished":
            ended[slug] = table
    return middle, ended


def pages(site: load.Site, middle: dict[str, games.Seeded], ended: dict[str, games.Seeded],
          mode: str) -> list[Page]:
    """Every kind of page (a quick run: the home page and yard's mid-game table page)."""
    found = [Page("home", "/")]
    found += [Page(f"table page ({t.slug}, mid-game)", t.url) for t in middle.values()]
    if mode == "quick":
        return found[:2]
    found += [Page(f"table page ({t.slug}, finished)", t.url) for t in ended.values()]
    yard = middle["yard"]
    found.append(Page("history (yard, mid-game)", yard.url + "history"))
    changes = [urlsplit(a).query for a in screens.Assets(site.html(yard.url + "history")).anchors
               if "change=" in a]
    if changes:  # the last action's Change link: the table page as it was before it
        found.append(Page("a past action being changed (yard)", f"{yard.url}?{changes[-1]}"))
    found.append(Page("share page (yard, its owner)", yard.url + "share"))
    board = site.scoreboard(yard)
    if board:
        found.append(Page("scoreboard (yard)", board))
    return [
        *found,
        Page("delete page (yard, its owner)", yard.url + "delete"),
        Page("5th Avenue's board page", middle["fifth_avenue"].url + "board"),
        Page("a street player's page", middle["street"].url + "play/0"),
        Page("your tables", "/tables"),
        Page("players", "/players"),
        Page("a player (Ann)", "/players/Ann"),
        Page("import", "/import"),
        Page("page not found (404)", "/yard/no-such-table/", missing=True),
    ]


def run(mode_name: str, tmp: Path, keep: Path | None = None) -> list[report.Figure]:
    """Every page: accessibility light and dark, performance light."""
    modules = installed()
    check_dark_flag()
    instance = tmp / "lighthouse-instance"
    app = games.app_for(instance)
    db = storage.connect(app.config["DATABASE"])
    middle, ended = seeded(db)
    db.close()
    cookie = phone_cookie(app, [t.id for t in [*ended.values(), *middle.values()]])
    headers = tmp / "lighthouse-headers.json"
    headers.write_text(json.dumps({"Cookie": cookie}))
    reports = keep or tmp / "lighthouse-reports"
    reports.mkdir(parents=True, exist_ok=True)
    figures: list[report.Figure] = []
    with servers.gunicorn("companion.app:create_app()", {"COMPANION_INSTANCE": str(instance)},
                          tmp / "lighthouse-companion.log") as base:
        lighthouse = Lighthouse(modules, base, headers, reports)
        site = load.Site(base, app, middle, cookie)
        for page in pages(site, middle, ended, mode_name):
            print(f"   {page.name}", flush=True)
            figures += measured(lighthouse, page, PERFORMANCE_RUNS[mode_name])
    return figures


def measured(lighthouse: Lighthouse, page: Page, performance_runs: int) -> list[report.Figure]:
    """A page's three figures; a page Lighthouse fails on is a failed figure, the others go
    on."""
    try:
        light = lighthouse.audit(page, "accessibility,performance", dark=False)
        dark = lighthouse.audit(page, "accessibility", dark=True)
        runs = [light]
        if score(light, "performance") != 100:
            runs += [lighthouse.audit(page, "performance", False, run)
                     for run in range(1, performance_runs)]
    except (RuntimeError, subprocess.TimeoutExpired) as error:
        return [report.Figure(SECTION, f"{page.name}: lighthouse", "failed", met=False,
                              note=str(error)[:300])]
    return [accessibility(page, light, "light"), accessibility(page, dark, "dark"),
            performance(page, runs)]


def score(found: dict[str, Any], category: str) -> int | None:
    """The category's score as Lighthouse shows it (None: it could not be scored)."""
    value = found["categories"][category]["score"]
    return None if value is None else round(100 * value)


def failing(found: dict[str, Any], category: str) -> list[dict[str, Any]]:
    """The category's weighed audits that did not pass."""
    refs = found["categories"][category]["auditRefs"]
    audits = [found["audits"][ref["id"]] for ref in refs if ref.get("weight")]
    return [a for a in audits if a["score"] is not None and a["score"] < 1]


def accessibility(page: Page, found: dict[str, Any], scheme: str) -> report.Figure:
    """The score, and the failing audits with the first elements each names."""
    value = score(found, "accessibility")
    notes = []
    for audit in failing(found, "accessibility"):
        items = (audit.get("details") or {}).get("items") or []
        where = [item.get("node", {}).get("selector", "") for item in items[:3]]
        notes.append(f"{audit['id']} ({', '.join(w for w in where if w)})")
    return report.Figure(SECTION, f"{page.name}: accessibility, {scheme}",
                         "error" if value is None else value, "/ 100", target="100",
                         met=value == 100, note="; ".join([*notes, *retries(found)]))


def performance(page: Page, runs: list[dict[str, Any]]) -> report.Figure:
    """The score (the median of the runs), and of the first run: its metrics (those below
    full marks with their scores), its longest tasks (simulated: 4x as long as they took) and
    the machine's speed as Lighthouse measured it (its benchmark index; below 1000 it warns
    that the CPU is slower than it expects)."""
    scores = [score(found, "performance") for found in runs]
    value = None if None in scores else statistics.median(scores)  # type: ignore[type-var]
    first = runs[0]
    refs = first["categories"]["performance"]["auditRefs"]
    metrics = [first["audits"][ref["id"]] for ref in refs if ref.get("group") == "metrics"]
    shown = ", ".join(f"{m['id']} {m.get('displayValue', '')}".strip()
                      + ("" if m["score"] == 1 else f" (score {m['score']:.2f})")
                      for m in metrics)
    tasks = ((first["audits"].get("long-tasks") or {}).get("details") or {}).get("items") or []
    notes = [shown, *(["long tasks " + ", ".join(f"{task_source(t['url'])} {t['duration']:.0f} ms"
                                                 for t in tasks[:4])] if tasks else []),
             f"benchmark index {first['environment']['benchmarkIndex']:.0f}"]
    if len(runs) > 1:
        notes[0] = f"runs {', '.join(map(str, scores))} (the median shown); the first: {shown}"
    if any("loaded too slowly" in warning for warning in first["runWarnings"]):
        notes.append("the network never went quiet for 1 s (a request every second, such as "
                     "the table's poll of its seq): Lighthouse stopped waiting at "
                     f"{MAX_WAIT_MS // 1000} s")
    return report.Figure(SECTION, f"{page.name}: performance",
                         "error" if value is None else value, "/ 100", target="100",
                         met=value == 100,
                         note="; ".join([*notes, *[r for f in runs for r in retries(f)]]))


def task_source(url: str) -> str:
    """A long task's script by its file name; the page's own work (parsing, style, layout)
    as "the page"; Lighthouse's "Unattributable" as it is."""
    if url.endswith(".js"):
        return url.rsplit("/", 1)[-1]
    return url if not url.startswith("http") else "the page"


def retries(found: dict[str, Any]) -> list[str]:
    again = [f"a run failed ({why}) and was run again" for why in found.get("retried", [])]
    exited = found.get("exited")
    return [*again, *([f"Lighthouse ended with an error after its whole report ({exited})"]
                      if exited else [])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="the home page and yard's mid-game table, each measured once")
    parser.add_argument("--keep", type=Path, default=None,
                        help="keep each Lighthouse report (JSON) in this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="companion-lighthouse-") as tmp:
        figures = run("quick" if args.quick else "full", Path(tmp), args.keep)
    print(report.text_table(figures))
    print("\nNotes:\n" + "\n".join(report.notes(figures)))


if __name__ == "__main__":
    main()
