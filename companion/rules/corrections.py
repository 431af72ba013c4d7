"""Changing past actions: the rules referee every later action again on top of the change
(`corrected`), keeping it, putting their stand-in in its place, or leaving it out, with why."""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .common import RuleError
from .game import Game, TableState
from .log import Event, as_played
from .text import Msg


@dataclass(frozen=True)
class Correction:
    """The game with past actions changed: the table it leaves, the change as the log keeps it
    (`CHANGE`'s payload), the later actions the rules no longer take, each with why (they are
    taken out with the change, or `replaced`: the rules' stand-in takes their place, with why),
    and the actions as they are played then."""

    state: TableState
    change: dict[str, Any]
    dropped: list[tuple[Event, str]]
    played: list[Event]
    replaced: list[tuple[Event, Event, str]] = field(default_factory=list)


# An action as a change enters it: (kind, payload), or None for an action taken out.
Now = tuple[str, Mapping[str, Any]] | None


def corrected(game: Game, players: list[str], in_force: Iterable[Event],
              edits: Mapping[int, Now], reason: str = "") -> Correction:
    """Past actions entered again (`edits`: seq -> what it is now, or None: taken out, and the
    rules' stand-in, if they have one, in its place; the first is the one the table set out to
    change), each recorded with what it means where it now stands: the rules referee every
    later action again on top of them, as recorded, and keep it, or put their stand-in in its
    place, or leave it out, with why. RuleError if they refuse an action entered again, or one
    of `edits` is no action in force."""
    played = as_played(in_force)
    by_seq = {e.seq: e for e in played}
    for seq in edits:
        if seq not in by_seq:
            raise RuleError(Msg("Action {n} is not in force: it cannot be changed.", n=seq))
    first = min(edits)
    state = game.start(players)
    dropped: list[tuple[Event, str]] = []
    replaced: list[tuple[Event, Event, str]] = []
    kept: list[Event] = []
    entered: dict[int, Event | None] = {}
    for event in played:
        if event.seq in edits:
            now = edits[event.seq] or state.instead_of(event.kind, event.payload)
            entered[event.seq] = again = None if now is None else Event(
                event.seq, now[0], state.recorded(*now), event.at)
            if again is not None:
                state.apply(again.kind, again.payload)
                kept.append(again)
            continue
        if event.seq < first:
            state.apply(event.kind, event.payload)
            kept.append(event)
            continue
        state, again, why = refereed_again(state, event)
        if again is None:
            dropped.append((event, why))
            continue
        kept.append(again)
        if again is not event:
            replaced.append((event, again, why))
    changes = [*((by_seq[seq], entered[seq]) for seq in edits),
               *((was, now) for was, now, _why in replaced)]
    change = {"edits": [{"seq": was.seq, "was": _action(was),
                         "now": None if now is None else _action(now)} for was, now in changes],
              "drop": [e.seq for e, _why in dropped], "reason": reason}
    return Correction(state, change, dropped, kept, replaced)


def refereed_again(state: TableState, event: Event) -> tuple[TableState, Event | None, str]:
    """A later action after a change: the table with it as it was recorded (the same action, or
    the rules refuse it), else with the rules' stand-in for it (`instead_of`), else without it;
    the action kept or put in its place (None: none), and why it is not kept as it was."""
    trial = _copy(state)
    try:
        trial.apply(event.kind, event.payload)
    except RuleError as refused:
        why = refused.args[0] if refused.args else str(refused)
    else:
        return trial, event, ""
    instead = state.instead_of(event.kind, event.payload)
    if instead is None:
        return state, None, why
    trial = _copy(state)
    try:
        trial.apply(*instead)
    except RuleError:
        return state, None, why
    return trial, Event(event.seq, *instead, event.at), why


def _copy(state: TableState) -> TableState:
    """A copy of its own, so that a refused action leaves nothing behind."""
    copied: TableState = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return copied


def _action(event: Event) -> dict[str, Any]:
    """An action as a change keeps it."""
    return {"kind": event.kind, "payload": dict(event.payload)}
