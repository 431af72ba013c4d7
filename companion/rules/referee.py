"""A log refereed event by event, undo, redo and changes included, each action recorded with what
it means: how an imported file is checked, and how a log from before events said what they mean
(log version 1) is brought up to date, once, from its own replay.

Version 1 logs left implicit what the rules read from the table (whose turn, which auction,
which action phase): each action gets it written in as the table stood when it was recorded.
A version 1 change read the later actions it kept again on the changed table, and so could
make one mean another action (another player's move, an auction in another district): such an
action becomes one of the change's own edits, from what it was to what the change made it, so
that the log replays to the very table it gave, and its history says what happened.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from . import Current, Game, TableState, replay
from .common import RuleError
from .log import CHANGE, REDO, UNDO, VERSION, Event, as_played, checked_change
from .text import Msg

# Undo and redo rebuild the state from the nearest snapshot taken every so many actions, so a
# log full of corrections costs a few actions' work each, not a replay of the whole log.
SNAPSHOT_EVERY = 16


class Referee:
    """The table's state, kept up to date event by event, and every event as the log keeps it
    now (`recorded`): each action with what it means where it stands."""

    def __init__(self, game: Game, names: list[str], version: int = VERSION):
        self.game, self.names, self.version = game, names, version
        self.state = game.start(names)
        self.done: list[Event] = []
        self.undone: list[Event] = []
        self.recorded: list[Event] = []
        self.snapshots = {0: copy.deepcopy(self.state)}  # actions in force -> state after them
        self.behind = False

    def take(self, event: Event) -> None:
        """The next event of the log; RuleError (or whatever a hostile payload makes the rules
        raise) if the rules refuse it."""
        if event.kind in (UNDO, REDO):
            self._step(event)
        elif event.kind == CHANGE:  # refereed at once: a change that does not fit is refused
            event = Event(event.seq, CHANGE, self._change(event.payload), event.at)
            self.done.append(event)
            self.undone.clear()
            self.rebuild()
        else:
            self._act(event)
        self.recorded.append(self.done[-1] if event.kind not in (UNDO, REDO) else event)

    def _step(self, event: Event) -> None:
        source, target = ((self.done, self.undone) if event.kind == UNDO
                          else (self.undone, self.done))
        if not source:
            raise RuleError(Msg("There is nothing to undo.") if event.kind == UNDO
                            else Msg("There is nothing to redo."))
        target.append(source.pop())
        self.behind = True

    def _act(self, event: Event) -> None:
        if self.behind:
            self.rebuild()
        for kept in [n for n in self.snapshots if n > len(self.done)]:  # a new action: what
            del self.snapshots[kept]  # was undone can no longer be redone
        fill = self.version < VERSION
        payload = said(self.state, event.kind, event.payload, fill)
        event = Event(event.seq, event.kind, applied(self.state, event.kind, payload, fill),
                      event.at)
        self.done.append(event)
        self.undone.clear()
        if len(self.done) % SNAPSHOT_EVERY == 0:
            self.snapshots[len(self.done)] = copy.deepcopy(self.state)

    def _change(self, fix: Mapping[str, Any]) -> dict[str, Any]:
        """A change with the actions it enters recorded where they stand; in a version 1 log,
        with the later actions it read as other actions among its edits."""
        checked_change(fix)
        return change_recorded(self.game, self.names, as_played(self.done), fix,
                               reread=self.version < VERSION)

    def table(self, last_seq: int) -> Current:
        """The table as the log leaves it, after its event `last_seq`."""
        if self.behind:
            self.rebuild()
        return Current(self.state, last_seq, tuple(e.seq for e in self.done),
                       tuple(e.seq for e in reversed(self.undone)),
                       self.done[-1] if self.done else None,
                       self.undone[-1] if self.undone else None)

    def rebuild(self) -> None:
        """The state of the actions in force; with a change among them, replayed as played."""
        if any(e.kind == CHANGE for e in self.done):
            self.state = replay(self.game, self.names, self.done).state
            self.behind = False
            return
        start = max(n for n in self.snapshots if n <= len(self.done))
        self.state = copy.deepcopy(self.snapshots[start])
        for event in self.done[start:]:
            self.state.apply(event.kind, event.payload)
        self.behind = False


def change_recorded(game: Game, names: list[str], played: list[Event], fix: Mapping[str, Any],
                    reread: bool) -> dict[str, Any]:
    """A change of the game `played` (its actions in force, as recorded): each action it enters
    recorded where it stands; with `reread` (a version 1 change), each later action it kept,
    as that change read it on the changed table, and among its edits where that is another
    action than the one recorded. Without it, RuleError for an action that does not say all it
    means (a version 2 log's do)."""
    edits = {edit["seq"]: edit for edit in fix["edits"]}
    dropped, first = list(fix["drop"]), min(edits)
    state = game.start(names)
    entered: dict[int, dict[str, Any]] = {}
    read_again: list[dict[str, Any]] = []
    for event in played:
        if event.seq in edits:
            entered[event.seq] = {"seq": event.seq, "was": _action(event.kind, event.payload),
                                  "now": _entered(state, edits[event.seq]["now"], reread)}
        elif event.seq not in dropped and reread and event.seq > first:
            state = _read_again(state, event, read_again, dropped)
        elif event.seq not in dropped:
            state.apply(event.kind, event.payload)
    return {**fix, "edits": [entered[e["seq"]] for e in fix["edits"]] + read_again,
            "drop": sorted(dropped)}


def _read_again(state: TableState, event: Event, read_again: list[dict[str, Any]],
                dropped: list[int]) -> TableState:
    """A later action a version 1 change kept, as it read it on the changed table: among its
    edits where that is another action; among the actions it drops where the rules refuse
    even that (the version 1 app let Alea draw twice for one auction)."""
    payload = {**event.payload, **state.meaning(event.kind, event.payload)}
    trial = copy.deepcopy(state)
    try:
        payload = applied(trial, event.kind, payload, fill=True)
    except RuleError:
        dropped.append(event.seq)
        return state
    if payload != event.payload:
        read_again.append({"seq": event.seq, "was": _action(event.kind, event.payload),
                           "now": _action(event.kind, payload)})
    return trial


def _entered(state: TableState, now: Mapping[str, Any] | None,
             fill: bool) -> dict[str, Any] | None:
    """An action a change enters, as recorded where it stands, and applied there."""
    if now is None:
        return None
    payload = applied(state, now["kind"], said(state, now["kind"], now["payload"], fill), fill)
    return _action(now["kind"], payload)


def applied(state: TableState, kind: str, payload: dict[str, Any], fill: bool) -> dict[str, Any]:
    """The action applied to `state`, as the log keeps it: in an old log (`fill`), one the
    version 1 app took that the rules refuse now, with the game's mark (`accepted_before`)."""
    try:
        state.apply(kind, payload)
    except RuleError:
        kept = state.accepted_before(kind, payload) if fill else None
        if kept is None:
            raise
        state.apply(kind, kept)
        return kept
    return payload


def said(state: TableState, kind: str, payload: Mapping[str, Any], fill: bool) -> dict[str, Any]:
    """An action as the log keeps it: with what it means here written in (`fill`: an old log's,
    which left it out), else as it is; RuleError if it does not say all it means."""
    recorded = state.recorded(kind, payload)
    if not fill and recorded != payload:
        raise RuleError(Msg("This action does not say all it means: {keys} missing.",
                            keys=", ".join(sorted(set(recorded) - set(payload)))))
    return recorded if fill else dict(payload)


def _action(kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    return {"kind": kind, "payload": dict(payload)}


def recorded_log(game: Game, names: list[str], events: Iterable[Event],
                 version: int) -> list[Event]:
    """A stored log of `version` as version `VERSION` keeps it: every event, each action with
    what it means. RuleError if the rules refuse one of its events."""
    referee = Referee(game, names, version)
    for event in events:
        referee.take(event)
    return referee.recorded
