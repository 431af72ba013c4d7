"""Changing a past action: as cheap at a 500-event table as at a mid-game one, and the table page
after a change as cheap as before it. Each game's mid-game table beside one with the same state
and a log of 500 events or more (padded with undo/redo pairs, as in `growth`), the action nearest
event 30 changed: the page in change mode, the preview (`replays.correction`) and the change
recorded through `replays.record` (then undone), timed in turn on both tables."""

from __future__ import annotations

import secrets
from pathlib import Path

import games
import growth
from report import Figure

from companion import replays, storage
from companion.rules import GAMES, Now
from companion.rules.log import CHANGE, UNDO, as_played, resolve

SECTION = "Changing a past action: at event 30 of a 500-event table as at mid-game"
AT = 30  # the action changed: the one in force nearest this event


def target(db: storage.Database, table: games.Seeded) -> dict[int, Now]:
    """The action in force nearest event AT, entered again as it was (the same work as any
    change: every later action refereed again)."""
    played = as_played(resolve(storage.events(db, table.id)).done)
    event = min(played, key=lambda e: abs(e.seq - AT))
    return {event.seq: (event.kind, dict(event.payload))}


def preview(db: storage.Database, slug: str, table: games.Seeded, edits: dict[int, Now]):
    def call() -> None:
        replays.correction(db, table.id, GAMES[slug], games.PLAYERS[slug], edits)
    return call


class Changer:
    """A change recorded on one table, then undone, each round (the table's state stays)."""

    def __init__(self, db: storage.Database, slug: str, table: games.Seeded,
                 edits: dict[int, Now]):
        self.db, self.slug, self.id, self.edits = db, slug, table.id, edits
        self.seq = table.events

    def record(self, kind: str, payload: dict) -> None:
        once = storage.Once(secrets.token_urlsafe(12), "bench")
        self.seq = replays.record(self.db, self.id, GAMES[self.slug], games.PLAYERS[self.slug],
                                  self.seq, kind, payload, once)[0].seq

    def change(self) -> None:
        fix = replays.correction(self.db, self.id, GAMES[self.slug], games.PLAYERS[self.slug],
                                 self.edits)
        self.record(CHANGE, fix.change)
        self.record(UNDO, {})


def figures_of(client, db: storage.Database, seeder: storage.Database, slug: str,
               rounds: int) -> list[Figure]:
    pair = growth.pair_of(seeder, slug)
    edits = target(db, pair.mid)
    seq = next(iter(edits))
    events = f"#{seq} of {pair.long.events} events vs of {pair.mid.events}"
    mode_page = growth.alternate(lambda: growth.get(client, f"{pair.mid.url}?change={seq}"),
                                 lambda: growth.get(client, f"{pair.long.url}?change={seq}"),
                                 rounds)
    moves = growth.alternate(  # each place the action may be moved to worked out (`move_choices`)
        lambda: growth.get(client, f"{pair.mid.url}?change={seq}&open=move"),
        lambda: growth.get(client, f"{pair.long.url}?change={seq}&open=move"), rounds)
    previews = growth.alternate(preview(db, slug, pair.mid, edits),
                                preview(db, slug, pair.long, edits), rounds)
    mid, long = Changer(db, slug, pair.mid, edits), Changer(db, slug, pair.long, edits)
    recorded = growth.alternate(mid.change, long.change, rounds)
    unchanged, changed = pair.long, growth.pair_of(seeder, slug).long
    Changer(db, slug, changed, edits).record(
        CHANGE, replays.correction(db, changed.id, GAMES[slug], games.PLAYERS[slug],
                                   edits).change)
    pages = growth.alternate(lambda: growth.get(client, unchanged.url),
                             lambda: growth.get(client, changed.url), rounds)
    return [
        growth.figure(f"{slug} change mode page, {events}", *mode_page,
                      "GET ?change=<seq>: the table as it was before the action",
                      section=SECTION),
        growth.figure(f"{slug} change mode page, its moves open, {events}", *moves,
                      "GET ?change=<seq>&open=move: each place it may be moved to, refereed",
                      section=SECTION),
        growth.figure(f"{slug} change preview, {events}", *previews,
                      "replays.correction: every later action refereed again",
                      section=SECTION),
        growth.figure(f"{slug} change recorded and undone, {events}", *recorded,
                      "replays.record of the change (with a one-time key), then of its undo",
                      section=SECTION),
        growth.figure(f"{slug} table page after a change, {changed.events + 1} events", *pages,
                      "GET the table page, warm, beside the same table without the change",
                      against="the same table unchanged", section=SECTION),
    ]


def run(rounds: int, tmp: Path) -> list[Figure]:
    app = games.app_for(tmp / "changes-instance",
                        {"WTF_CSRF_ENABLED": False, "TESTING": True, "GHOST_TAP_SECONDS": 0})
    client = app.test_client()
    db = storage.connect(app.config["DATABASE"])
    seeder = growth.seeding_connection(app)
    figures: list[Figure] = []
    for slug in games.PLAYERS:
        figures += figures_of(client, db, seeder, slug, rounds)
    db.close()
    seeder.close()
    return figures
