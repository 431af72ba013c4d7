"""Each table's state, worked out once: no page or action replays a table's log.

Every event is stored with a snapshot of the table after it (`record`, the one write path), and
each worker process keeps the tables it served last in memory. A page takes the table from memory,
else from its snapshot; an action applies its one event to a copy of the table as it stands.
The whole log is replayed only for a table that has no snapshot yet (made before snapshots, or
written without one), and then the snapshot is kept.

Undo and redo work like a stack, so a table's state is fixed by its last action in force (its
*head*): the memory keeps states by head too, and an undo finds the state it goes back to there,
or replays just the actions in force.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
import pkgutil
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from importlib import import_module
from types import ModuleType
from typing import Any

from . import players, rules, storage
from .rules import (
    GAMES,
    Correction,
    Current,
    Game,
    Now,
    RuleError,
    TableState,
    corrected,
    gained,
    merges,
    replay,
)
from .rules import log as rules_log
from .rules.log import CHANGE, MAX_EVENTS, REDO, UNDO, Event
from .rules.referee import recorded_log
from .rules.text import Msg

# How many tables (each as of one event) and states a worker keeps: a few busy tables' worth.
REMEMBERED = 256
# Fewer of what is large: a history's score pad holds a line per event.
DERIVED = {"history": 16}


Load = Callable[[Sequence[int]], dict[int, Event]]


def after(game: Game, names: list[str], table: Current, event: Event, load: Load,
          earlier: Callable[[int], TableState | None]) -> Current:
    """The table after one more event; RuleError if the rules refuse it. `table` is this
    write's own copy: an action and a redo apply to its state in place; undo goes back to the
    state of the actions still in force (`earlier(head)`, or replayed from their events); a
    change (and its redo) replays the actions in force with it."""
    if event.kind == UNDO:
        return undone(game, names, table, event.seq, load, earlier)
    if event.kind == REDO:
        if table.next is None:
            raise RuleError(Msg("There is nothing to redo."))
        done, again = (*table.done, table.next.seq), table.next
        rest = table.undone[1:]
        following = load(rest[:1]).get(rest[0]) if rest else None
    else:
        done, again, rest, following = (*table.done, event.seq), event, (), None
    before = table.state.totals()
    if again.kind == CHANGE:
        events = {**load(table.done), again.seq: again}
        state = replay(game, names, [events[n] for n in done]).state
    else:
        state = table.state
        state.apply(again.kind, again.payload)
    return Current(state, event.seq, done, rest, again, following,
                   gained(before, state.totals()))


def undone(game: Game, names: list[str], table: Current, seq: int, load: Load,
           earlier: Callable[[int], TableState | None]) -> Current:
    if table.last is None:
        raise RuleError(Msg("There is nothing to undo."))
    done = table.done[:-1]
    state = earlier(done[-1] if done else 0)
    if state is None:
        events = load(done)
        state = replay(game, names, [events[n] for n in done]).state
    last = load(done[-1:]).get(done[-1]) if done else None
    return Current(state, seq, done, (table.last.seq, *table.undone), last, table.last)


# Raise it when a state's fields keep their names and types but change their meaning (a change
# of the fields themselves changes `SHAPE` by itself).
MEANING = 7  # 6: notes that say the whole action (`rules.text.Account`); 7: 5th Avenue's
# building stops and special scorings say their rule, not their points again


def shape_of_states() -> str:
    """The shape of the rules' table states, worked out from their classes: every dataclass of
    `companion.rules` with its fields and their types, and `MEANING`. A snapshot kept under
    another shape is not read (the table is replayed from its log instead), so a state class
    that changes its fields needs no number raised by hand."""
    classes = sorted(
        (f"{cls.__module__}.{cls.__qualname__}("
         + ", ".join(f"{f.name}: {f.type}" for f in dataclasses.fields(cls)) + ")")
        for module in rules_modules() for cls in vars(module).values()
        if isinstance(cls, type) and dataclasses.is_dataclass(cls)
        and cls.__module__ == module.__name__)
    return hashlib.sha256("\n".join([str(MEANING), *classes]).encode()).hexdigest()[:16]


def rules_modules() -> list[ModuleType]:
    """`companion.rules` and each of its modules."""
    return [rules, *(import_module(f"{rules.__name__}.{info.name}")
                     for info in pkgutil.iter_modules(rules.__path__))]


SHAPE = shape_of_states()


def pickled(table: Current) -> bytes:
    """The table as its snapshot is stored (`storage.snapshot` reads it back), with its shape."""
    return pickle.dumps((SHAPE, table), pickle.HIGHEST_PROTOCOL)


def unpickled(data: bytes) -> Current | None:
    """A snapshot this module kept: bytes from the app's own database, never from a user (an
    import replays its events instead); None if it was kept under another shape (`SHAPE`). Each
    call gives a table of its own (a write applies its event to it). A snapshot whose classes
    this version no longer has (renamed or moved) is of another shape too."""
    try:
        kept = pickle.loads(data)
    except (AttributeError, ImportError):
        return None
    if not isinstance(kept, tuple) or kept[0] != SHAPE:
        return None
    table: Current = kept[1]
    return table


class Memory:
    """The tables this worker served last, by (table id, last seq), each with its snapshot
    (a write's own copy is read from it: pickle copies a state several times faster than
    copy.deepcopy); their states by (table id, head); and what pages work out from a state
    (`worked_out`). The least recently used go first. Thread-safe."""

    def __init__(self, size: int = REMEMBERED):
        self.size = size
        self.lock = threading.Lock()
        self.tables: OrderedDict[tuple[str, int], tuple[Current, bytes]] = OrderedDict()
        self.states: OrderedDict[tuple[str, int], TableState] = OrderedDict()
        self.derived: dict[str, OrderedDict[tuple[str, int, int], Any]] = {}

    def table(self, table_id: str, seq: int) -> Current | None:
        kept = self._get(self.tables, (table_id, seq))
        return kept[0] if kept else None

    def copy_of(self, table_id: str, seq: int) -> Current | None:
        """A copy of its own of the table after event `seq`, if it is kept."""
        kept = self._get(self.tables, (table_id, seq))
        return unpickled(kept[1]) if kept else None

    def state(self, table_id: str, head: int) -> TableState | None:
        return self._get(self.states, (table_id, head))

    def hold(self, table_id: str, table: Current, data: bytes) -> None:
        """Hold a table in this worker's memory with its snapshot (`data`)."""
        with self.lock:
            for kept, key, value in ((self.tables, (table_id, table.last_seq), (table, data)),
                                     (self.states, (table_id, table.head), table.state)):
                kept[key] = value
                kept.move_to_end(key)
                while len(kept) > self.size:
                    kept.popitem(last=False)

    def worked_out(self, what: str, table_id: str, table: Current,
                   work: Callable[[TableState], Any]) -> Any:
        """What `work` makes of the table's state (`what`: Urbanisation's one-tap offers, the
        history's score pad), worked out once per state and kept beside it, so that showing a
        page again costs nothing more (a state by the table's last event and its head: the
        table as it was before a past action, to change it, has the same last event)."""
        key = (table_id, table.last_seq, table.head)
        with self.lock:
            kept = self.derived.setdefault(what, OrderedDict())
        found = self._get(kept, key)
        if found is None:
            found = work(table.state)
            with self.lock:
                kept[key] = found
                while len(kept) > DERIVED.get(what, self.size):
                    kept.popitem(last=False)
        return found

    def forget(self) -> None:
        with self.lock:
            self.tables.clear()
            self.states.clear()
            self.derived.clear()

    def _get(self, kept: OrderedDict[Any, Any], key: tuple[Any, ...]) -> Any:
        with self.lock:
            value = kept.get(key)
            if value is not None:
                kept.move_to_end(key)
            return value


MEMORY = Memory()


# Reading: a table as it stands ----------------------------------------------------------------


def current(db: storage.Database, table_id: str, game: Game, names: list[str]) -> Current:
    """The table as it stands: from memory, else its snapshot, else its replayed log (and then
    its snapshot is kept). GoneError if the table was deleted or its links renewed while its
    log was read."""
    last_seq = storage.last_seq(db, table_id)
    table = MEMORY.table(table_id, last_seq)
    if table is None:
        data = stored_snapshot(db, table_id, last_seq)
        table = unpickled(data) if data else None
        if table is None:
            table = replay(game, names, storage.events(db, table_id))
            with storage.write_transaction(db):
                if not storage.has_table(db, table_id):  # deleted or renewed meanwhile
                    raise storage.GoneError(table_id)
                data = store(db, table_id, game, names, table)
        MEMORY.hold(table_id, table, data)
    return table


def stored_snapshot(db: storage.Database, table_id: str, seq: int) -> bytes | None:
    """The stored snapshot of the table after event `seq`, if that is the one kept."""
    kept = storage.snapshot(db, table_id)
    return kept[1] if kept is not None and kept[0] == seq else None


def store(db: storage.Database, table_id: str, game: Game, names: list[str],
          table: Current) -> bytes:
    """Store a replayed table's snapshot, and its result if it is finished (inside a write
    transaction); the snapshot's bytes."""
    data = pickled(table)
    storage.store_snapshot(db, table_id, table.last_seq, data)
    at = storage.event_time(db, table_id, table.last_seq)
    storage.store_result(db, table_id, result(game, names, table, at))
    return data


def kept_imported(db: storage.Database, table_id: str, game: Game, names: list[str],
                  table: Current) -> None:
    """An imported table, replayed while its file was checked: its snapshot and result."""
    with storage.write_transaction(db):
        MEMORY.hold(table_id, table, store(db, table_id, game, names, table))


def result(game: Game, names: list[str], table: Current, at: str) -> str | None:
    """The result kept for the players' statistics once a table is finished (else None)."""
    if not table.state.finished:
        return None
    finished = players.result_of(game, names, table.state, at)
    return None if finished is None else players.as_json(finished)


def upgrade_logs(db: storage.Database) -> None:
    """Tables from before every action said what it means get their logs brought up to date,
    once, at start-up (`rules.referee.recorded_log`); a log the rules no longer replay is left
    as it is."""
    for row in storage.old_logs(db):
        game = GAMES.get(row["game"])
        names = [p["name"] for p in row["players"]]
        events = storage.events(db, row["id"])
        try:
            kept = recorded_log(game, names, events, row["log_version"]) if game else events
        except RuleError:
            kept = events
        with storage.write_transaction(db):
            storage.rewrite_log(db, row["id"], [new for new, old in zip(kept, events, strict=True)
                                                 if new.payload != old.payload])


def score_unscored(db: storage.Database) -> None:
    """Finished tables from before results were kept get theirs (once, at start-up)."""
    for row in storage.unscored(db):
        game = GAMES.get(row["game"])
        if game is None:
            continue
        names = [p["name"] for p in row["players"]]
        try:
            table = replay(game, names, storage.events(db, row["id"]))
        except RuleError:
            continue  # a log the rules no longer accept: left out of the statistics
        with storage.write_transaction(db):
            store(db, row["id"], game, names, table)


# Writing: one action, once --------------------------------------------------------------------


def record(db: storage.Database, table_id: str, game: Game, names: list[str], based_on: int,
           kind: str, payload: Mapping[str, Any], once: storage.Once | None = None,
           merged: list[Event] | None = None) -> tuple[Event, Current]:
    """Append one action the rules allow, with the table's status, snapshot and result after
    it, in one write transaction; the event and the table after it (kept in memory).

    A submission whose key and fields were recorded before is a retry: its event back and the
    table as it stands, nothing written (`storage.claim`, which also refuses a table whose
    links were renewed, GoneError, and a writer that is behind, StaleError). A writer that is
    behind by actions its own does not depend on (`rules.merges`) is recorded on the table as
    it stands, if the rules take it there (else StaleError as before); the actions it missed
    are added to `merged`. RuleError if the rules refuse the action, or the table is full
    (MAX_EVENTS)."""
    stored = stored_payload({} if kind in (UNDO, REDO) else payload)  # undo and redo carry nothing
    with storage.write_transaction(db):
        try:
            retried, behind = storage.claim(db, table_id, based_on, once), None
        except storage.StaleError as stale:
            if stale.key_used or stale.missed != len(stale.since) or not merges(
                    game, kind, json.loads(stored), stale.since):
                raise
            retried, behind, based_on = None, stale, stale.since[-1].seq
        if retried is not None:
            return retried, as_it_stands(db, table_id, game, names,
                                         storage.last_seq(db, table_id), own=False)
        if based_on + 1 > MAX_EVENTS:
            raise RuleError(Msg("This table holds {most} entries, as many as a table can hold "
                                "(and be exported and imported again): nothing more can be "
                                "recorded. Export it and go on at a new table.", most=MAX_EVENTS))
        try:
            standing = as_it_stands(db, table_id, game, names, based_on,
                                    own=kind not in (UNDO, CHANGE))
            if kind not in (UNDO, REDO, CHANGE):  # an action says what it means here
                stored = stored_payload(standing.state.recorded(kind, json.loads(stored)))
            # The event as a replay reads it back (tuples become lists): what the rules apply.
            event = Event(based_on + 1, kind, json.loads(stored), storage.now())
            table = after(game, names, standing, event,
                          lambda seqs: storage.events_at(db, table_id, list(seqs)),
                          lambda head: MEMORY.state(table_id, head))
        except RuleError:
            if behind is not None:  # not on the table as it stands: the screen was outdated
                raise behind from None
            raise
        data = pickled(table)
        storage.append_event(db, table_id, event, stored, once,
                             "finished" if table.state.finished else "open", data,
                             result(game, names, table, event.at))
    MEMORY.hold(table_id, table, data)
    if behind is not None and merged is not None:
        merged.extend(behind.since)
    return event, table


def as_it_stands(db: storage.Database, table_id: str, game: Game, names: list[str], seq: int,
                 own: bool) -> Current:
    """The table after event `seq`, its last one (inside the write transaction), a copy of its
    own if the action is to change its state in place (`own`; an undo or a change makes a new
    state): from memory, else its snapshot, else its replayed log."""
    kept = MEMORY.copy_of(table_id, seq) if own else MEMORY.table(table_id, seq)
    if kept is None:
        data = stored_snapshot(db, table_id, seq)
        kept = unpickled(data) if data else None
    return kept or replay(game, names, storage.events(db, table_id))


def stored_payload(payload: Mapping[str, Any]) -> str:
    """The payload as the log stores it (JSON text); RuleError if it cannot be stored as UTF-8
    (JSON lets in lone surrogates, SQLite not)."""
    try:
        stored = json.dumps(payload, ensure_ascii=False, sort_keys=True)
        stored.encode()
    except (UnicodeEncodeError, TypeError, ValueError):
        raise RuleError(Msg("This form holds something that is not text: nothing was "
                            "recorded.")) from None
    return stored


# Changing a past action -----------------------------------------------------------------------


def played_log(db: storage.Database, table_id: str, game: Game,
              names: list[str]) -> tuple[list[Event], int]:
    """The table's actions in force as the game had them (changes applied), and its last seq:
    only the events in force are read (the table as it stands names them), however many undo
    and redo taps the log holds."""
    table = current(db, table_id, game, names)
    events = storage.events_at(db, table_id, list(table.done))
    return rules_log.as_played(events[n] for n in table.done), table.last_seq


def before(db: storage.Database, table_id: str, game: Game, names: list[str], seq: int,
           pending: Mapping[int, Now] | None = None) -> tuple[Current, Event, list[Event]]:
    """The table as it was just before action `seq` (to enter that action again), with that
    action, and the actions in force (where it may be moved, `rules.move_edits`); RuleError if it is
    no action in force. With `pending` edits (a change being made, of which `seq` is changed
    too), the game as they leave it. The table keeps its last seq, so that what is entered on it
    is refused once another action comes in meanwhile."""
    played, last_seq = played_log(db, table_id, game, names)
    target = next((e for e in played if e.seq == seq), None)
    if target is None or (pending and seq in pending):
        raise RuleError(Msg("Action {n} is not in force: it cannot be changed.", n=seq))
    if pending:
        played = corrected(game, names, played, pending).played
    earlier = [e for e in played if e.seq < seq]
    state = replay(game, names, earlier).state
    return Current(state, last_seq, tuple(e.seq for e in earlier), (), None, None), target, played


def correction(db: storage.Database, table_id: str, game: Game, names: list[str],
               edits: Mapping[int, Now], moved: Collection[int] = frozenset()) -> Correction:
    """What the game would be with these actions entered again (or taken out, or `moved`
    there): see `rules.corrected`. Nothing is written."""
    played, _last = played_log(db, table_id, game, names)
    return corrected(game, names, played, edits, moved=moved)
