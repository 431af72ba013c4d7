"""The one replay: a table from its whole log (`replay`), as every page, export and statistic
reads it (`Current`), with what its last action gave (`gained`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from .game import Game, TableState
from .log import CHANGE, Event, as_played, resolve

# What an action gave or took, player by player (points, or the street's money): (name, delta).
Gained = tuple[tuple[str, int], ...]


def gained(before: Mapping[str, int], after: Mapping[str, int]) -> Gained:
    """The totals that an action changed, from the totals before it and after it."""
    return tuple((name, total - before.get(name, 0)) for name, total in after.items()
                 if total != before.get(name, 0))


@dataclass(frozen=True)
class Current:
    """A table as it stands after its event `last_seq`: its state, the actions in force (their
    seqs, oldest first) and those redo would restore (next first), with the two events undo
    and redo would act on, and what the last one gave (`gained`; empty when it gave nothing,
    or is not known: after an undo, or a log replayed up to a change). Shared by every
    request that shows it: never changed."""

    state: TableState
    last_seq: int
    done: tuple[int, ...]
    undone: tuple[int, ...]
    last: Event | None  # what undo would take back
    next: Event | None  # what redo would restore
    gained: Gained = ()

    @property
    def head(self) -> int:
        """The last action in force: undo and redo work like a stack, so it fixes the state."""
        return self.done[-1] if self.done else 0


def replay(game: Game, players: list[str], events: Iterable[Event],
           each: Callable[[Event, TableState], None] | None = None) -> Current:
    """A table from its whole log: undo and redo resolved, the actions in force applied (and
    `each` told of every one, as recorded, with the state it made). The one replay: pages,
    history, exports and statistics read the table it gives (kept as a snapshot by
    `companion.replays`, so that a page never replays a log). An action that does not say
    everything it means (written by hand: the app records it all) means what it means here."""
    events = list(events)
    log = resolve(events)
    state = game.start(players)
    played = as_played(log.done)
    before: Mapping[str, int] | None = None
    for k, event in enumerate(played):
        if k == len(played) - 1 and log.done[-1].kind != CHANGE:  # the last action's own
            before = state.totals()
        meant = Event(event.seq, event.kind, state.recorded(event.kind, event.payload), event.at)
        state.apply(meant.kind, meant.payload)
        if each is not None:
            each(meant, state)
    return Current(state, events[-1].seq if events else 0, tuple(e.seq for e in log.done),
                   tuple(e.seq for e in log.undone), log.done[-1] if log.done else None,
                   log.undone[0] if log.undone else None,
                   () if before is None else gained(before, state.totals()))
