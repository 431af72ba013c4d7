"""Speed a player sees on a slow phone (issues 28, 46): real Chromium at 390x844 with touch and
the CPU slowed 4x through the DevTools protocol (`Emulation.setCPUThrottlingRate`, Lighthouse's
mobile profile), the companion as scripts/serve runs it (`python -m companion`) on 127.0.0.1.
Chromium runs at idle scheduling priority (`PHONE`): the slowdown busy-waits in the page's
main thread (0.8 of a core of this box's 2, measured with the page idle), which would otherwise
take the server's CPU from it, as a phone of its own never does.

For each game's mid-game table (`games.MID_GAME`; 5th Avenue's whole script, see `MID_GAME`
here): its most common action (`ACTIONS`), its undo and its redo, each tapped; the page itself
times (from the tap's own `pointerdown` time stamp) the tapped control's working state painted
and the updated frame painted (the paint of the frame in which app.js put the answer in place:
a message after that frame, see PROBE). In the same page and
run, the bare baseline: a button laid over the page that writes one line (its first frame),
fetches a tiny route (the table's `seq`, one read) and writes one more line (fetch + paint).
Each table page's load: the main thread's busy time (`Performance.getMetrics` TaskDuration from
navigation to idle) and its longest task (`PerformanceObserver` longtask); long tasks during the
answers are kept too, and the server's part of each tap (the server's access log). Beside
those, how far the slowed CPU alone stretches a task: one fixed piece of script run 60 times,
each its own task, at full speed and slowed (`stretch`).

    .venv/bin/python benchmarks/phone.py [--quick] [--runs N] [--trace DIR] [--results FILE]

`--trace DIR` also records a DevTools performance trace of one action per game and of each
page load, and prints where the main thread's time went (see `summarise`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path[:0] = [str(HERE), str(HERE.parent)]

import games  # noqa: E402
import report  # noqa: E402
import servers  # noqa: E402

from companion import serving, storage  # noqa: E402

SECTION = "A slow phone (real Chromium, 390x844, touch, CPU 4x slower)"
CHROMIUM = "/usr/bin/chromium"
# The phone's Chromium, at idle scheduling priority (`idle-chromium`): the slowdown's busy wait
# leaves the server its cores, as a phone of its own would (`--same-priority`: as Chromium).
PHONE = HERE / "idle-chromium"
CPU_SLOWDOWN = 4
QUIET_S = 1.1  # app.js's QUIET_MS (1 s): a tap at the same place sooner would be the same tap
ROUNDS = {"full": 6, "quick": 2}
LOADS = {"full": 5, "quick": 2}
GAME_NAMES = {"yard": "yard", "fifth_avenue": "5th Avenue", "street": "street",
              "urbanisation": "Urbanisation"}

# Each game's most common action (issue 46), tapped on its table: a one-tap control of the page.
# A yard purchase, a 5th Avenue commissioner's move, a street card built before put on a site
# (the turn's card builder), an Urbanisation offer.
ACTIONS = {
    "yard": "form[action*='/buy#'] button",
    "fifth_avenue": "form[action*='/move#'] button.move-to",
    "street": "form.builder button[name=pick]:not([disabled])",
    "urbanisation": "form[action*='/offer#'] button[value=taxes]",
}
# The table tapped on: each game's mid-game table (`games.MID_GAME`), but 5th Avenue's, whose
# mid-game is an auction: its whole script (20 events), where a commissioner's move comes next.
MID_GAME = {"yard": True, "fifth_avenue": False, "street": True, "urbanisation": True}
TARGET = 1.5  # tap -> updated frame, at most this many times the bare fetch + paint (issue 46)
BARE_BUTTON = "#bench-bare button"
UNDO = "nav.undo-redo form[action*='/undo#'] button"
REDO = "nav.undo-redo form[action*='/redo#'] button"

# Installed before any of the page's scripts: the taps' times, long tasks, frames after changes.
PROBE = r"""
(() => {
  const bench = window.__bench = {down: null, marks: [], longtasks: []};
  try {
    new PerformanceObserver(list => list.getEntries().forEach(e =>
      bench.longtasks.push({start: e.startTime, duration: e.duration})))
      .observe({type: 'longtask', buffered: true});
  } catch (e) {}
  const channel = new MessageChannel();
  let waiting = [];
  channel.port1.onmessage = () => { const now = performance.now();
    waiting.splice(0).forEach(name => bench.marks.push({name, at: now})); };
  // After the paint of the frame that shows a change: a message posted while a frame is being
  // made (its animation frame callbacks, as app.js puts an answer's scroll position in place)
  // runs after that frame's paint; otherwise a rAF callback runs before the next frame's paint,
  // and a message it posts after it. `framing`: from a frame's first callback until the next
  // task after that frame.
  const frame = window.requestAnimationFrame.bind(window);
  const framed = new MessageChannel();
  let framing = false;
  framed.port1.onmessage = () => { framing = false; };
  window.requestAnimationFrame = callback => frame(time => {
    if (!framing) { framing = true; framed.port2.postMessage(0); }
    callback(time);
  });
  bench.afterPaint = name => {
    const after = () => { waiting.push(name); channel.port2.postMessage(0); };
    if (framing) after();
    else frame(() => { framing = true; framed.port2.postMessage(0); after(); });
  };
  addEventListener('pointerdown', e => { bench.down = e.timeStamp; bench.marks = []; }, true);
  new MutationObserver(changes => changes.forEach(c => {
    if (c.attributeName === 'class' && c.target.classList &&
        c.target.classList.contains('working')) bench.afterPaint('working');
    if (c.attributeName === 'data-answers') {
      bench.marks.push({name: 'placed', at: performance.now()});
      bench.afterPaint('updated');
    }
  })).observe(document, {attributes: true, subtree: true,
                         attributeFilter: ['class', 'data-answers']});
})();
"""

# The bare baseline: a button over the page; a tap writes one line, fetches a tiny route, writes
# another line. Put on the page (after load) by `bare_button`.
BARE = r"""
url => {
  const bench = window.__bench;
  const box = document.createElement('div');
  box.id = 'bench-bare';
  box.style.cssText = 'position:fixed;right:0;top:0;z-index:99;background:#fff;font-size:12px;';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'bare';
  const line = document.createElement('span');
  box.append(button, line);
  document.body.append(box);
  button.addEventListener('click', () => {
    line.textContent = 'working';
    bench.afterPaint('working');
    fetch(url, {credentials: 'same-origin', cache: 'no-store'})
      .then(r => r.text())
      .then(text => { line.textContent = text.slice(0, 40);
                      bench.marks.push({name: 'placed', at: performance.now()});
                      bench.afterPaint('updated'); });
  });
}
"""


@dataclass
class Taps:
    """The times of one kind of tap (ms from the tap's pointerdown), one entry per tap."""

    working: list[float] = field(default_factory=list)
    updated: list[float] = field(default_factory=list)
    answer: list[float] = field(default_factory=list)
    placed: list[float] = field(default_factory=list)

    def add(self, marks: dict[str, float]) -> None:
        self.working.append(marks["working"])
        self.updated.append(marks["updated"])
        self.placed.append(marks["placed"])
        if "answer" in marks:
            self.answer.append(marks["answer"])


@dataclass
class GameRun:
    slug: str
    taps: dict[str, Taps]
    bare: Taps
    load_busy: list[float]
    load_longest: list[float]
    answer_long: list[float]  # every long task (over 50 ms) while tapping, its duration
    placing: dict[str, float]
    back: dict[str, Any]
    served: dict[str, list[float]]  # the server's ms per request while tapping, by kind of tap


def run(mode: str = "full", tmp: Path | None = None, trace: Path | None = None,
        same_priority: bool = False) -> list[report.Figure]:
    """Every game's figures beside the bare baseline of the same page."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="companion-phone-") as own:
        where = tmp or Path(own)
        instance = where / "phone-instance"
        app = games.app_for(instance)
        db = storage.connect(app.config["DATABASE"])
        tables = {slug: games.seed(db, slug, mid_game=MID_GAME[slug]) for slug in games.PLAYERS}
        db.close()
        runs = []
        timed = where / "phone-access.log"
        with (servers.companion({"COMPANION_INSTANCE": str(instance)},
                                where / "phone-companion.log", access_log=timed) as base,
              sync_playwright() as playwright):
            chromium = CHROMIUM if same_priority else str(PHONE)
            browser = playwright.chromium.launch(executable_path=chromium, ignore_default_args=[
                "--disable-back-forward-cache"], args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update"])
            try:
                for table in tables.values():
                    runs.append(measure_game(browser, base, table, mode, trace, timed))
                spread = stretch(browser)
            finally:
                browser.close()
    return [f for game_run in runs for f in figures(game_run)] + [stretched(spread)]


def new_phone(browser: Any, base: str) -> tuple[Any, Any, Any]:
    context = browser.new_context(base_url=base, viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True)
    context.add_init_script(PROBE)
    page = context.new_page()
    page.set_default_timeout(20_000)
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    cdp.send("Performance.enable")
    return context, page, cdp


def measure_game(browser: Any, base: str, table: games.Seeded, mode: str,
                 trace: Path | None, timed: Path) -> GameRun:
    print(f"   {table.label}", flush=True)
    context, page, cdp = new_phone(browser, base)
    try:
        load(page, cdp, table.url)  # the first visit: the service worker and caches filled
        busy, longest = [], []
        for _ in range(LOADS[mode]):
            one_busy, one_longest = load(page, cdp, table.url)
            busy.append(one_busy)
            longest.append(one_longest)
        if trace is not None:
            with tracing(browser, page, trace / f"{table.slug}-load.json"):
                load(page, cdp, table.url)
        taps = {"action": Taps(), "undo": Taps(), "redo": Taps()}
        bare = Taps()
        for _ in range(serving.WORKERS):  # both workers hold the table's state
            tap(page, ACTIONS[table.slug])
            tap(page, UNDO)
        page.evaluate("() => { window.__bench.longtasks = []; }")
        since = len(servers.access_times(timed))
        for _ in range(ROUNDS[mode]):
            taps["action"].add(tap(page, ACTIONS[table.slug]))
            taps["undo"].add(tap(page, UNDO))
            bare.add(tap(page, BARE_BUTTON))
            taps["redo"].add(tap(page, REDO))
            taps["undo"].add(tap(page, UNDO))
            bare.add(tap(page, BARE_BUTTON))
        answer_long = [t["duration"] for t in page.evaluate("window.__bench.longtasks")]
        served = server_times(servers.access_times(timed, since))
        if trace is not None:
            for kind, selector in (("action", ACTIONS[table.slug]), ("undo", UNDO),
                                   ("bare", BARE_BUTTON)):
                with tracing(browser, page, trace / f"{table.slug}-{kind}.json"):
                    tap(page, selector)
        placing = in_place(page, table.slug)
        back = back_from_history(page, table.url)
        return GameRun(table.slug, taps, bare, busy, longest, answer_long, placing, back,
                       served)
    finally:
        context.close()


def server_times(requests: list[tuple[str, str, float]]) -> dict[str, list[float]]:
    """The server's part of each tap (ms): undo, redo, the typical action (any other POST) and
    the bare baseline's `seq` route (also asked by the page's own poll)."""
    kinds: dict[str, list[float]] = defaultdict(list)
    for method, path, ms in requests:
        last = path.rstrip("/").rsplit("/", 1)[-1]
        if method == "GET" and last == "seq":
            kinds["bare"].append(ms)
        elif method == "POST":
            kinds[last if last in ("undo", "redo") else "action"].append(ms)
    return kinds


# Where the time after an answer goes: the page before and after the typical action put in
# place in turn, as app.js does (parse, its <main> put in place of this one by changing what
# differs (`putInPlace`), the layout its keepInPlace forces, frame).
SWAP = r"""
async ([pages, n]) => {
  const frame = () => new Promise(done => requestAnimationFrame(() => {
    const c = new MessageChannel(); c.port1.onmessage = done; c.port2.postMessage(0); }));
  const times = [];
  for (let i = 0; i < n; i++) {
    await frame();
    const t0 = performance.now();
    const main = new DOMParser().parseFromString(pages[i % 2], 'text/html').querySelector('main');
    const t1 = performance.now();
    window.companion.putInPlace(document.querySelector('main'), main);
    const t2 = performance.now();
    document.querySelector('main form button').getBoundingClientRect();
    const t3 = performance.now();
    await frame();
    times.push([t1 - t0, t2 - t1, t3 - t2, performance.now() - t3]);
  }
  return times;
}
"""
PHASES = ("parse", "swap", "style and layout", "frame")


def in_place(page: Any, slug: str, swaps: int = 12) -> dict[str, float]:
    """Medians (ms) of each phase of putting an answer in place, the pages before and after the
    typical action in turn; the table is left as it was (the action undone)."""
    fetch = "fetch(location.href, {credentials: 'same-origin'}).then(r => r.text())"
    before = page.evaluate(fetch)
    tap(page, ACTIONS[slug])
    after = page.evaluate(fetch)
    tap(page, UNDO)
    times = page.evaluate(SWAP, [[before, after], swaps])
    return {phase: median([t[k] for t in times]) for k, phase in enumerate(PHASES)}


SHOWN = ("() => document.readyState === 'complete' && location.pathname.endsWith('/') &&"
         " getComputedStyle(document.documentElement).opacity === '1'")


def back_from_history(page: Any, url: str) -> dict[str, Any]:
    """The table page loaded (navigation start to the end of `load`), then History opened from
    it and the back button: the time until the table is painted again with its seq checked
    (wall clock, from the History page's history.back()), and whether it came from the
    back/forward cache (a mark left on the page is still there)."""
    page.goto(url, wait_until="load")
    page.wait_for_timeout(600)
    loaded = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
    page.evaluate("""() => { window.leftAt = 'the table';
        new MutationObserver(() => { if (!document.documentElement.style.opacity)
            window.__bench.afterPaint('back'); })
          .observe(document.documentElement, {attributes: true, attributeFilter: ['style']});
        }""")
    with page.expect_navigation():
        page.locator('a[href$="/history"]').first.click()
    page.wait_for_timeout(600)
    page.evaluate("sessionStorage.backAt = performance.timeOrigin + performance.now();"
                  " history.back()")
    page.wait_for_function(SHOWN, polling=5)
    page.wait_for_timeout(300)
    page.wait_for_function(SHOWN, polling=5)
    restored = page.evaluate("window.leftAt === 'the table'")
    back = page.evaluate("""() => { const m = (window.__bench.marks || [])
        .filter(m => m.name === 'back').pop();
        return m ? performance.timeOrigin + m.at - Number(sessionStorage.backAt) : null; }""")
    if back is None:  # loaded anew: its own navigation's load
        back = page.evaluate("performance.timeOrigin - Number(sessionStorage.backAt) +"
                             " performance.getEntriesByType('navigation')[0].loadEventEnd")
    return {"load": loaded, "back": back, "restored": restored}


@contextmanager
def tracing(browser: Any, page: Any, path: Path) -> Iterator[None]:
    """A DevTools performance trace of what happens inside (not counted in the figures: the
    tracing itself slows the page)."""
    browser.start_tracing(page=page, path=str(path), screenshots=False)
    try:
        yield
    finally:
        browser.stop_tracing()


def load(page: Any, cdp: Any, url: str) -> tuple[float, float]:
    """One load of the page: main-thread busy time until idle, and its longest task (ms). The
    page's metrics start afresh with each document."""
    page.goto(url, wait_until="load")
    page.wait_for_timeout(600)  # app.js's work after load, and the first poll
    after = metrics(cdp)
    longest = max((t["duration"] for t in page.evaluate("window.__bench.longtasks")),
                  default=0.0)
    page.evaluate(BARE, url + "seq")
    page.locator("body").evaluate("e => 0")  # Playwright's own script in place, before a tap
    return 1000 * after["TaskDuration"], longest


def metrics(cdp: Any) -> dict[str, float]:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def tap(page: Any, selector: str) -> dict[str, float]:
    """Tap a control (scrolled into view first, untimed) and wait for its answer painted; the
    tap's times in ms from its pointerdown."""
    target = page.locator(selector).first
    target.evaluate("e => { const r = e.getBoundingClientRect();"
                    " const strip = document.querySelector('.score-strip');"
                    " const foot = innerHeight - (strip ? strip.offsetHeight : 0);"
                    " if (r.top < 60 || r.bottom > foot) e.scrollIntoView({block: 'center'}); }")
    time.sleep(QUIET_S)  # a new tap, never the last one again; the page idle
    box = target.bounding_box()
    before, seq = page.evaluate("[performance.now(), Number(document.body.dataset.seq)]")
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # Polled every 50 ms, not in every animation frame (Playwright's default): a callback in
    # each frame makes the page draw a frame every 16 ms while the answer is on its way, a commit
    # of 2-5 ms at 4x each time (traces, issue 46), work a phone in a player's hand never does.
    # The times are the page's own marks: the polling only says when they are there.
    page.wait_for_function("() => window.__bench.marks.some(m => m.name === 'updated')",
                           polling=50)
    marks = page.evaluate("""since => { const b = window.__bench;
        const fetches = performance.getEntriesByType('resource')
          .filter(e => e.initiatorType === 'fetch' && e.startTime >= since);
        const out = {};
        b.marks.forEach(m => { out[m.name] = m.at - b.down; });
        if (fetches.length) out.answer = fetches[fetches.length - 1].responseEnd - b.down;
        return out; }""", before)
    if "working" not in marks:
        raise RuntimeError(f"{selector}: no working state was painted")
    now = page.evaluate("Number(document.body.dataset.seq)")
    if now != seq + (selector != BARE_BUTTON):  # each tap of the app's records one event
        raise RuntimeError(f"{selector}: the table went from seq {seq} to {now}")
    return marks


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def figures(game: GameRun) -> list[report.Figure]:
    """The figures of one game, each beside the bare baseline measured in the same page."""
    name = GAME_NAMES[game.slug]
    first, fetched = median(game.bare.working), median(game.bare.updated)
    out = []
    for kind, taps in game.taps.items():
        working = median(taps.working)
        out.append(report.Figure(
            SECTION, f"{name} {kind}: tap → working state painted", working, "ms", first,
            "≤ 1.5 × bare", working <= 1.5 * first,
            note=f"max {max(taps.working):.0f} ms; bare first frame max "
                 f"{max(game.bare.working):.0f} ms"))
        updated = median(taps.updated)
        out.append(report.Figure(
            SECTION, f"{name} {kind}: tap → updated frame painted", updated, "ms", fetched,
            f"≤ {TARGET} × bare", updated <= TARGET * fetched,
            note=f"{len(taps.updated)} taps, max {max(taps.updated):.0f} ms; answer received "
                 f"{median(taps.answer):.0f} ms, in place {median(taps.placed):.0f} ms (bare "
                 f"{median(game.bare.answer):.0f} ms, {median(game.bare.placed):.0f} ms), of "
                 f"which the server's {median(game.served[kind]):.1f} ms (the bare seq route's "
                 f"{median(game.served['bare']):.1f} ms); bare fetch + paint max "
                 f"{max(game.bare.updated):.0f} ms"))
    tapped = sum(len(t.updated) for t in game.taps.values()) + len(game.bare.updated)
    longest = max(game.answer_long, default=0.0)
    out.append(report.Figure(
        SECTION, f"{name}: longest task while answering", longest, "ms",
        target="≤ 50 ms", met=longest <= 50,
        note=f"longtask entries over every tap of the run (0: none over 50 ms): "
             f"{sum(d > 50 for d in game.answer_long)} over 50 ms in {tapped} taps"))
    out.append(report.Figure(
        SECTION, f"{name}: an answer put in place (parse, swap, layout, frame)",
        sum(game.placing.values()), "ms",
        note=", ".join(f"{phase} {ms:.1f} ms" for phase, ms in game.placing.items()) +
        " (medians of 12, the pages before and after the typical action in turn)"))
    back = game.back
    out.append(report.Figure(
        SECTION, f"{name}: back from History, table shown", back["back"], "ms", back["load"],
        "from the back/forward cache", back["restored"],
        note="from history.back() on the History page to the table painted with its seq "
             "checked, beside a load of the table page (navigation start to load's end); "
             + ("restored from the back/forward cache" if back["restored"] else
                "LOADED ANEW, not restored")))
    busy, longest = median(game.load_busy), max(game.load_longest)
    out.append(report.Figure(
        SECTION, f"{name} table page load: main-thread time", busy, "ms",
        note=f"median of {len(game.load_busy)} loads, Performance.getMetrics TaskDuration from "
             f"navigation to 600 ms after load; spread {min(game.load_busy):.0f}–"
             f"{max(game.load_busy):.0f} ms"))
    out.append(report.Figure(
        SECTION, f"{name} table page load: longest task", longest, "ms", target="≤ 50 ms",
        met=longest <= 50, note="the longest of every load's longtask entries (0: none)"))
    return out


# How the slowed CPU stretches one task: the same script, run again and again --------------------
FIXED_TASK = r"""
async n => {
  function work() { let x = 0; for (let i = 0; i < 2e6; i++) x += Math.sqrt(i); return x; }
  work();
  const times = [];
  for (let k = 0; k < n; k++) {
    await new Promise(done => setTimeout(done, 20));
    const t = performance.now();
    work();
    times.push(performance.now() - t);
  }
  return times;
}
"""


def stretch(browser: Any, tasks: int = 60) -> dict[int, list[float]]:
    """The durations (ms) of one fixed piece of script (about 4 ms on this machine at full
    speed), each its own task, at full speed and with the CPU slowed as for the taps: how long
    a task of unchanged work can take under the slowdown alone (the long-task targets' own
    noise)."""
    page = browser.new_page()
    try:
        cdp = page.context.new_cdp_session(page)
        spread = {}
        for rate in (1, CPU_SLOWDOWN):
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            spread[rate] = sorted(page.evaluate(FIXED_TASK, tasks))
        return spread
    finally:
        page.close()


def stretched(spread: dict[int, list[float]]) -> report.Figure:
    slowed = spread[CPU_SLOWDOWN]
    tenth = slowed[int(0.9 * (len(slowed) - 1))]
    return report.Figure(
        SECTION, f"a fixed task at {CPU_SLOWDOWN}x: the longest of {len(slowed)}", slowed[-1],
        "ms", median(slowed),
        note=f"the same script each time, its own task (the baseline: its median); at full "
             f"speed median {median(spread[1]):.1f} ms, longest {spread[1][-1]:.1f} ms; at "
             f"{CPU_SLOWDOWN}x 90th percentile {tenth:.1f} ms: the slowdown alone stretches a "
             f"task this far, so a task of {50 * median(slowed) / slowed[-1]:.0f} ms (median) "
             f"may already be seen over 50 ms")


# Where the time goes: a DevTools trace summarised -------------------------------------------

KEPT = ("RunTask", "ParseHTML", "EvaluateScript", "FunctionCall", "EventDispatch",
        "TimerFire", "FireAnimationFrame", "UpdateLayoutTree", "Layout", "PrePaint", "Paint",
        "Layerize", "HitTest", "MajorGC", "MinorGC", "V8.GC_SCAVENGER", "ParseAuthorStyleSheet",
        "v8.compile", "v8.callFunction", "RunMicrotasks")


SCRIPT = ("FunctionCall", "EventDispatch", "v8.callFunction", "RunMicrotasks")


def summarise(path: Path) -> dict[str, Any]:
    """The renderer main thread's time by event name (total ms, count, longest), the longest
    task, and layouts forced by script (a Layout inside a FunctionCall or EventDispatch)."""
    events = json.loads(path.read_text())
    events = events.get("traceEvents", events) if isinstance(events, dict) else events
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    spans = [e for e in events if (e.get("pid"), e.get("tid")) in main and e.get("ph") == "X"]
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0, 0.0])
    for e in spans:
        if e["name"] in KEPT:
            cell = totals[e["name"]]
            cell[0] += e.get("dur", 0) / 1000
            cell[1] += 1
            cell[2] = max(cell[2], e.get("dur", 0) / 1000)
    scripts = [e for e in spans if e["name"] in SCRIPT]
    forced = [e for e in spans if e["name"] in ("Layout", "UpdateLayoutTree") and any(
        s["ts"] <= e["ts"] and e["ts"] + e.get("dur", 0) <= s["ts"] + s.get("dur", 0)
        for s in scripts)]
    return {"by name (total ms, count, longest ms)": {
                k: [round(v[0], 1), v[1], round(v[2], 1)] for k, v in sorted(
                    totals.items(), key=lambda kv: -kv[1][0])},
            "forced by script": {
                "Layout": [round(sum(e.get("dur", 0) for e in forced if e["name"] == "Layout")
                                 / 1000, 1), sum(e["name"] == "Layout" for e in forced)],
                "UpdateLayoutTree": [round(sum(e.get("dur", 0) for e in forced
                                               if e["name"] == "UpdateLayoutTree") / 1000, 1),
                                     sum(e["name"] == "UpdateLayoutTree" for e in forced)]}}


SPREAD = ("tap → updated frame painted", "longest task while answering")


def spread(runs: list[list[report.Figure]]) -> list[str]:
    """Runs side by side (a markdown table): each tap's updated frame (its ratio to the bare
    fetch + paint of the same run) and each game's longest task while answering, and whether
    the target was met in every run."""
    names = [f.name for f in runs[0] if f.name.endswith(SPREAD)]
    found = [{f.name: f for f in one} for one in runs]
    lines = ["| figure | " + " | ".join(f"run {k + 1}" for k in range(len(runs))) +
             " | target | met in every run? |", "|---|" + "---|" * (len(runs) + 2)]
    for name in names:
        cells, met, target = [], True, "–"
        for one in found:
            figure = one.get(name)
            if figure is None:
                cells.append("–")
                met = False
                continue
            ratio = "" if figure.ratio is None else f" ({figure.ratio:.2f})"
            cells.append(report.amount(figure.value, figure.unit) + ratio)
            met = met and bool(figure.met)
            target = figure.target
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {target} | "
                     f"{'yes' if met else 'NO'} |")
    return lines


def write_section(path: Path, figures: list[report.Figure], elapsed: float,
                  loads: tuple[float, float], runs: list[list[report.Figure]] | None = None,
                  run_loads: list[tuple[float, float]] | None = None) -> None:
    """This benchmark's section of RESULTS.md, put in place of the one there (or before the
    methods) when it is run on its own."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    command = " ".join(["python", "benchmarks/phone.py", *sys.argv[1:]])
    warning = report.busy(loads[0])
    section = "\n".join([
        f"## {SECTION}", "",
        f"- Run on its own: `{command}`, {when}, took {elapsed:.0f} s; load average (1 min) "
        f"{loads[0]:.2f} before, {loads[1]:.2f} after" + (f" ({warning})" if warning else ""),
        *([] if not runs or len(runs) < 2 else [
            "", f"{len(runs)} runs in a row (the table and notes below: the last), load average "
            "before and after each: " + ", ".join(f"{a:.2f} -> {b:.2f}"
                                                  for a, b in run_loads or []), "",
            *spread(runs)]),
        "", report.markdown_table(figures), "", *report.notes(figures), "", ""])
    text = path.read_text() if path.exists() else "# Benchmark results\n\n"
    start = text.find(f"## {SECTION}")
    if start >= 0:
        end = text.find("\n## ", start + 3)
        text = text[:start] + section + (text[end + 1:] if end >= 0 else "")
    else:
        methods = text.find("## How these were measured")
        methods = methods if methods >= 0 else len(text)
        text = text[:methods] + section + text[methods:]
    path.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 rounds and 2 loads per game")
    parser.add_argument("--trace", type=Path, default=None,
                        help="a folder for DevTools traces of one action and one load per game")
    parser.add_argument("--runs", type=int, default=1,
                        help="full runs in a row, their spread given side by side (issue 46: 3)")
    parser.add_argument("--results", type=Path, default=None,
                        help="write this section into a RESULTS.md (replacing it if there)")
    parser.add_argument("--same-priority", action="store_true",
                        help="Chromium at its own scheduling priority, the server's (see PHONE)")
    args = parser.parse_args()
    if args.trace:
        args.trace.mkdir(parents=True, exist_ok=True)
    before, started = os.getloadavg()[0], time.monotonic()
    runs, run_loads = [], []
    for k in range(args.runs):
        ahead = os.getloadavg()[0]
        print(f"Run {k + 1} of {args.runs} (load average {ahead:.2f})", flush=True)
        runs.append(run("quick" if args.quick else "full", trace=args.trace if k == 0 else None,
                        same_priority=args.same_priority))
        run_loads.append((ahead, os.getloadavg()[0]))
        print(report.text_table(runs[-1]), flush=True)
    found = runs[-1]
    elapsed, after = time.monotonic() - started, os.getloadavg()[0]
    print("\nNotes:\n" + "\n".join(report.notes(found)))
    if len(runs) > 1:
        print("\n" + "\n".join(spread(runs)))
    print(f"\nTook {elapsed:.0f} s; load average {before:.2f} before, {after:.2f} after.")
    if args.results:
        write_section(args.results, found, elapsed, (before, after), runs, run_loads)
        print(f"Written to {args.results}")
    if args.trace:
        for path in sorted(args.trace.glob("*.json")):
            print(f"\n{path.name}: {json.dumps(summarise(path), indent=1)}")


if __name__ == "__main__":
    main()
