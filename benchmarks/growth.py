"""Growth: a game's 500th action as cheap as its 30th. Each game's mid-game table beside one
with the same state and a log of 500 events or more (padded with undo/redo pairs): the table
page (warm from a worker's memory, and cold from the stored snapshot) and an action through
`replays.record`, the write path the views call, timed in turn on both tables."""

from __future__ import annotations

import secrets
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
from flask import Flask
from report import Figure

from companion import replays, storage
from companion.rules import GAMES, RuleError

SECTION = "Growth: a game's 500th action as cheap as its 30th"
LONG = 500  # events the long table holds at least
LIMIT = 1.3  # the long table's median may be this many times the mid-game one's
ROUNDS = {"full": 200, "quick": 40}  # samples per table and figure
RESEED_EVERY = 10  # rounds of actions before the mid-game table is seeded afresh (30 -> 50)


@dataclass(frozen=True)
class Pair:
    """One game's two tables with the same state: mid-game, and padded to a long log."""

    slug: str
    mid: games.Seeded
    long: games.Seeded


def seeding_connection(app: Flask) -> storage.Database:
    """A connection to write untimed set-up events with: no fsync per commit (several times
    faster); timed writes go through a connection as the app opens it."""
    db = storage.connect(app.config["DATABASE"])
    db.execute("PRAGMA synchronous = OFF")
    return db


def pad(db: storage.Database, slug: str, table_id: str, seq: int, total: int) -> int:
    """Undo and redo the last action until the table holds `total` events or more (the same
    state, a longer log); the last seq."""
    while seq < total:
        for kind in ("undo", "redo"):
            seq = replays.record(db, table_id, GAMES[slug], games.PLAYERS[slug], seq, kind,
                                 {})[0].seq
    return seq


def pair_of(db: storage.Database, slug: str) -> Pair:
    """A mid-game table, and a second one with the same script padded to LONG events."""
    mid = games.seed(db, slug, mid_game=True)
    long = games.seed(db, slug, mid_game=True)
    events = pad(db, slug, long.id, long.events, LONG)
    return Pair(slug, mid, games.Seeded(slug, long.id, events, events))


def timed(call: Callable[[], Any]) -> float:
    """Milliseconds one call took."""
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def get(client: Any, url: str) -> None:
    response = client.get(url)
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}")
    response.close()


def alternate(first: Callable[[], Any], second: Callable[[], Any],
              rounds: int) -> tuple[list[float], list[float]]:
    """Milliseconds of each call, the two in turn (A B A B) for `rounds` rounds, after one
    untimed call of each (templates loaded, the table in memory)."""
    first()
    second()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        times[0].append(timed(first))
        times[1].append(timed(second))
    return times


def page_times(client: Any, pair: Pair, rounds: int, cold: bool) -> tuple[list[float], ...]:
    """The table page of both tables in turn; cold: the worker's memory emptied before each
    request, so that the table comes from its stored snapshot."""
    def page(table: games.Seeded) -> Callable[[], None]:
        def call() -> None:
            if cold:
                replays.MEMORY.forget()
            get(client, table.url)
        return call

    return alternate(page(pair.mid), page(pair.long), rounds)


class Player:
    """Actions on one table: the next scripted action (or an undo where the script has none
    the rules take) and then its undo (or redo), each record call timed."""

    def __init__(self, db: storage.Database, slug: str, table: games.Seeded, played: int):
        """`played`: how many of the script's actions the table holds (in force)."""
        self.db, self.slug, self.id, self.seq = db, slug, table.id, table.events
        actions = games.GAME_SCRIPTS[slug]()
        self.next = actions[played] if played < len(actions) else None
        self.action: list[float] = []
        self.back: list[float] = []

    def record(self, kind: str, payload: dict[str, Any]) -> float:
        once = storage.Once(secrets.token_urlsafe(12), "bench")  # a form's one-time key

        def call() -> None:
            self.seq = replays.record(self.db, self.id, GAMES[self.slug],
                                      games.PLAYERS[self.slug], self.seq, kind, payload,
                                      once)[0].seq
        return timed(call)

    def play(self) -> None:
        """One round: the action then its undo, or an undo then its redo."""
        if self.next is not None:
            try:
                self.action.append(self.record(*self.next))
            except RuleError:
                self.next = None  # the rules refuse it: undo/redo pairs from now on
            else:
                self.back.append(self.record("undo", {}))
                return
        self.action.append(self.record("undo", {}))
        self.back.append(self.record("redo", {}))


def action_times(db: storage.Database, seeder: storage.Database, pair: Pair,
                 rounds: int) -> tuple[Player, Player, int]:
    """Rounds of actions on both tables in turn; the mid-game table is seeded afresh every
    RESEED_EVERY rounds, so that it stays at mid-game (the long one only grows). A player
    holding the timings of all the mid-game tables, the long table's, and the most events a
    mid-game table reached."""
    played = pair.mid.events
    long = Player(db, pair.slug, pair.long, played)
    mids = [Player(db, pair.slug, pair.mid, played)]
    for round_ in range(1, rounds + 1):
        mids[-1].play()
        long.play()
        if round_ % RESEED_EVERY == 0 and round_ < rounds:
            mids.append(Player(db, pair.slug, games.seed(seeder, pair.slug, mid_game=True),
                               played))
    mid = mids[-1]
    mid.action = [ms for player in mids for ms in player.action]
    mid.back = [ms for player in mids for ms in player.back]
    return mid, long, max(player.seq for player in mids)


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def p90(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=10)[-1]


def figure(name: str, mid: list[float], long: list[float], note: str = "",
           against: str = "mid-game", section: str = SECTION) -> Figure:
    """Median ms on the long table (value) beside the mid-game one (baseline), or whatever
    short log it is `against`."""
    value, baseline = median(long), median(mid)
    spread = f"{len(long)} samples each; p90 {p90(long):.2f} ms vs {p90(mid):.2f} ms"
    return Figure(section, name, value, "ms", baseline, f"≤ {LIMIT} × {against}",
                  value <= LIMIT * baseline, f"{note}; {spread}" if note else spread)


def page_figures(client: Any, pair: Pair, rounds: int) -> list[Figure]:
    events = f"{pair.long.events} events vs {pair.mid.events}"
    warm = page_times(client, pair, rounds, cold=False)
    cold = page_times(client, pair, rounds, cold=True)
    return [
        figure(f"{pair.slug} table page, warm, {events}", *warm,
               f"GET /{pair.slug}/<id>/, the table in the worker's memory"),
        figure(f"{pair.slug} table page, cold, {events}", *cold,
               "memory emptied before each GET: the table from its stored snapshot"),
    ]


def action_figures(db: storage.Database, seeder: storage.Database, pair: Pair,
                   rounds: int) -> list[Figure]:
    mid, long, most = action_times(db, seeder, pair, rounds)
    if long.next is not None and mid.next is not None:
        kind, back = long.next[0], "undo"
        how = f"replays.record of the script's next action ({kind}), then of its undo"
    else:
        kind, back = "undo", "redo"
        how = ("NO SCRIPTED ACTION THE RULES TAKE at mid-game: replays.record of an undo of "
               "the last action, then of its redo")
    events = f"{pair.long.events}–{long.seq} events vs {pair.mid.events}–{most}"
    how += (f", with a one-time key as the views pass; the mid-game table seeded afresh "
            f"every {RESEED_EVERY} rounds, the long one growing")
    return [
        figure(f"{pair.slug} action ({kind}), {events}", mid.action, long.action, how),
        figure(f"{pair.slug} {back} of it, {events}", mid.back, long.back),
    ]


def run(rounds: int, tmp: Path) -> list[Figure]:
    """Every game: pages first (the tables unchanged), then actions (which grow the logs)."""
    app = games.app_for(tmp / "growth-instance",
                        {"WTF_CSRF_ENABLED": False, "TESTING": True, "GHOST_TAP_SECONDS": 0})
    client = app.test_client()
    db = storage.connect(app.config["DATABASE"])
    seeder = seeding_connection(app)
    figures: list[Figure] = []
    for slug in games.PLAYERS:
        pair = pair_of(seeder, slug)
        figures += page_figures(client, pair, rounds)
        figures += action_figures(db, seeder, pair, rounds)
    db.close()
    seeder.close()
    return figures
