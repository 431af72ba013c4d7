"""Each table's state, worked out once: no page or action replays a table's log.

Every event is stored with a snapshot of the table after it (`storage.append_event`), and each
worker process keeps the tables it served last in memory. A page takes the table from memory,
else from its snapshot; an action applies its one event to a copy of the table as it stands.
The whole log is replayed only for a table that has no snapshot yet (made before snapshots, or
written without one), and then the snapshot is kept.

Undo and redo work like a stack, so a table's state is fixed by its last action in force (its
*head*): the memory keeps states by head too, and an undo finds the state it goes back to there,
or replays just the actions in force.
"""

from __future__ import annotations

import json
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import players, storage
from .rules import GAMES, Game, RuleError, TableState
from .rules.log import MAX_EVENTS, REDO, UNDO, Event, resolve
from .rules.text import Msg

# How many tables (each as of one event) and states a worker keeps: a few busy tables' worth.
REMEMBERED = 256


@dataclass(frozen=True)
class Current:
    """A table as it stands after its event `last_seq`: its state, the actions in force (their
    seqs, oldest first) and those redo would restore (next first), with the two events undo
    and redo would act on. Shared by every request that shows it: never changed."""

    state: TableState
    last_seq: int
    done: tuple[int, ...]
    undone: tuple[int, ...]
    last: Event | None  # what undo would take back
    next: Event | None  # what redo would restore

    @property
    def head(self) -> int:
        return self.done[-1] if self.done else 0


Load = Callable[[Sequence[int]], dict[int, Event]]


def replayed(game: Game, names: list[str], events: Sequence[Event]) -> Current:
    """The table from its whole log: undo and redo resolved, the actions in force applied."""
    log = resolve(events)
    state = game.start(names)
    for event in log.done:
        state.apply(event.kind, event.payload)
    return Current(state, events[-1].seq if events else 0, tuple(e.seq for e in log.done),
                   tuple(e.seq for e in log.undone), log.done[-1] if log.done else None,
                   log.undone[0] if log.undone else None)


def after(game: Game, names: list[str], table: Current, event: Event, load: Load,
          earlier: Callable[[int], TableState | None]) -> Current:
    """The table after one more event; RuleError if the rules refuse it. An action applies to a
    copy of the state; redo applies again what undo took back; undo goes back to the state of
    the actions still in force (`earlier(head)`, or replayed from their events)."""
    if event.kind == UNDO:
        return undone(game, names, table, event.seq, load, earlier)
    if event.kind == REDO:
        if table.next is None:
            raise RuleError(Msg("There is nothing to redo."))
        state = copied(table.state)
        state.apply(table.next.kind, table.next.payload)
        rest = table.undone[1:]
        return Current(state, event.seq, (*table.done, table.next.seq), rest, table.next,
                       load(rest[:1]).get(rest[0]) if rest else None)
    state = copied(table.state)
    state.apply(event.kind, event.payload)
    return Current(state, event.seq, (*table.done, event.seq), (), event, None)


def undone(game: Game, names: list[str], table: Current, seq: int, load: Load,
           earlier: Callable[[int], TableState | None]) -> Current:
    if table.last is None:
        raise RuleError(Msg("There is nothing to undo."))
    done = table.done[:-1]
    state = earlier(done[-1] if done else 0)
    if state is None:
        events = load(done)
        state = game.start(names)
        for n in done:
            state.apply(events[n].kind, events[n].payload)
    last = load(done[-1:]).get(done[-1]) if done else None
    return Current(state, seq, done, (table.last.seq, *table.undone), last, table.last)


def copied(state: TableState) -> TableState:
    """A copy to apply an event to (pickle copies a table's state several times faster than
    copy.deepcopy)."""
    state_copy: TableState = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return state_copy


# The shape of the rules' table states: a snapshot kept under another one is not read (the
# table is replayed from its log instead). Raise it whenever a state class changes its fields.
STATES = 2


def snapshot(table: Current) -> bytes:
    return pickle.dumps((STATES, table), pickle.HIGHEST_PROTOCOL)


def from_snapshot(data: bytes) -> Current | None:
    """A snapshot this module kept: bytes from the app's own database, never from a user (an
    import replays its events instead); None if it was kept under other rules (`STATES`)."""
    kept = pickle.loads(data)
    if not isinstance(kept, tuple) or kept[0] != STATES:
        return None
    table: Current = kept[1]
    return table


class Memory:
    """The tables this worker served last, by (table id, last seq), their states by (table
    id, head), and what pages work out from a state (`worked_out`); the least recently used go
    first. Thread-safe."""

    def __init__(self, size: int = REMEMBERED):
        self.size = size
        self.lock = threading.Lock()
        self.tables: OrderedDict[tuple[str, int], Current] = OrderedDict()
        self.states: OrderedDict[tuple[str, int], TableState] = OrderedDict()
        self.derived: OrderedDict[tuple[str, int], Any] = OrderedDict()

    def table(self, table_id: str, seq: int) -> Current | None:
        return self._get(self.tables, (table_id, seq))

    def state(self, table_id: str, head: int) -> TableState | None:
        return self._get(self.states, (table_id, head))

    def keep(self, table_id: str, table: Current) -> None:
        with self.lock:
            for kept, key, value in ((self.tables, (table_id, table.last_seq), table),
                                     (self.states, (table_id, table.head), table.state)):
                kept[key] = value
                kept.move_to_end(key)
                while len(kept) > self.size:
                    kept.popitem(last=False)

    def worked_out(self, table_id: str, table: Current, work: Callable[[TableState], Any]) -> Any:
        """What `work` makes of the table's state (Urbanisation's one-tap offers), worked out
        once per state and kept beside it, so that showing a page again costs nothing more."""
        key = (table_id, table.last_seq)
        found = self._get(self.derived, key)
        if found is None:
            found = work(table.state)
            with self.lock:
                self.derived[key] = found
                while len(self.derived) > self.size:
                    self.derived.popitem(last=False)
        return found

    def forget(self) -> None:
        with self.lock:
            self.tables.clear()
            self.states.clear()
            self.derived.clear()

    def _get(self, kept: OrderedDict[tuple[str, int], Any], key: tuple[str, int]) -> Any:
        with self.lock:
            value = kept.get(key)
            if value is not None:
                kept.move_to_end(key)
            return value


MEMORY = Memory()


def current(db: storage.Database, table_id: str, game: Game, names: list[str]) -> Current:
    """The table as it stands: from memory, else its snapshot, else its replayed log (and then
    its snapshot is kept)."""
    last_seq = storage.last_seq(db, table_id)
    table = MEMORY.table(table_id, last_seq)
    if table is None:
        table = (snapshot_at(db, table_id, last_seq)
                 or replayed_and_kept(db, table_id, game, names))
        MEMORY.keep(table_id, table)
    return table


def snapshot_at(db: storage.Database, table_id: str, seq: int) -> Current | None:
    """The table after event `seq` from its stored snapshot, if that is the one kept."""
    kept = storage.snapshot(db, table_id)
    return from_snapshot(kept[1]) if kept is not None and kept[0] == seq else None


def replayed_and_kept(db: storage.Database, table_id: str, game: Game,
                      names: list[str]) -> Current:
    """The table replayed from its whole log, its snapshot (and result, if finished) kept."""
    events = storage.events(db, table_id)
    table = replayed(game, names, events)
    with storage.write_transaction(db):
        storage.keep_snapshot(db, table_id, table.last_seq, snapshot(table))
        if table.state.finished:
            storage.keep_result(db, table_id, result(game, names, table, events[-1].at))
    return table


def result(game: Game, names: list[str], table: Current, at: str) -> str | None:
    """The result kept for the players' statistics once a table is finished (else None)."""
    finished = players.result_of(game, names, table.state, at)
    return None if finished is None else players.as_json(finished)


def score_unscored(db: storage.Database) -> None:
    """Finished tables from before results were kept get theirs (once, at start-up)."""
    for row in storage.unscored(db):
        game = GAMES.get(row["game"])
        if game is not None:
            try:
                replayed_and_kept(db, row["id"], game, [p["name"] for p in row["players"]])
            except RuleError:
                continue  # a log the rules no longer accept: left out of the statistics


def with_event(db: storage.Database, table_id: str, game: Game, names: list[str],
               event: Event) -> Current:
    """The table after `event`, the next event of its log (inside the write transaction that
    appends it); RuleError if the rules refuse it."""
    before = current_within(db, table_id, game, names, event.seq - 1)
    return after(game, names, before, event,
                 lambda seqs: storage.events_at(db, table_id, list(seqs)),
                 lambda head: MEMORY.state(table_id, head))


def current_within(db: storage.Database, table_id: str, game: Game, names: list[str],
                   seq: int) -> Current:
    """The table after event `seq`, its last one, inside a transaction (nothing is written)."""
    return (MEMORY.table(table_id, seq) or snapshot_at(db, table_id, seq)
            or replayed(game, names, storage.events(db, table_id)))


def is_text(payload: Mapping[str, Any]) -> bool:
    """Whether the payload can be stored as UTF-8 (JSON lets in lone surrogates, SQLite not)."""
    try:
        json.dumps(payload, ensure_ascii=False).encode()
    except (UnicodeEncodeError, TypeError, ValueError):
        return False
    return True


def record(db: storage.Database, table_id: str, game: Game, names: list[str], based_on: int,
           kind: str, payload: Mapping[str, Any], once: storage.Once | None = None) -> Event:
    """Append one action the rules allow (`storage.append_event`, which refuses an outdated or
    repeated one), with the table's status and snapshot after it; the table is kept in memory.
    RuleError if the rules refuse it, or the table is full (MAX_EVENTS)."""
    payload = {} if kind in (UNDO, REDO) else payload  # they carry nothing
    if not is_text(payload):
        raise RuleError(Msg("This form holds something that is not text: nothing was recorded."))
    written: list[Current] = []

    def check(event: Event) -> storage.Written:
        if event.seq > MAX_EVENTS:
            raise RuleError(Msg("This table holds {most} entries, as many as a table can hold "
                                "(and be exported and imported again): nothing more can be "
                                "recorded. Export it and go on at a new table.", most=MAX_EVENTS))
        table = with_event(db, table_id, game, names, event)
        written.append(table)
        return storage.Written("finished" if table.state.finished else "open", snapshot(table),
                               result(game, names, table, event.at))

    event = storage.append_event(db, table_id, based_on, kind, payload, check, once)
    if written:
        MEMORY.keep(table_id, written[0])
    return event
