"""Changing past actions: the rules referee every later action again on top of the change
(`corrected`), keeping it, reading it again or putting their stand-in in its place, or leaving
it out, with why; and say which of those they keep as recorded now come out differently
(`Correction.rescored`)."""

from __future__ import annotations

import pickle
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .common import RuleError
from .game import Game, TableState
from .log import Event, as_played
from .replay import Gained, gained
from .text import Account, Msg


@dataclass(frozen=True)
class Outcome:
    """What the rules make of an action where it stands: its words with the table (a roof's
    payout), their note on it (the Mayor of the next turn), and the points it gives or takes."""

    said: str
    note: Any
    points: Gained


@dataclass(frozen=True)
class Rescored:
    """A later action a change keeps as it was recorded, but which comes out differently now:
    what the rules made of it before the change (`was`) and make of it now (`now`)."""

    event: Event
    was: Outcome
    now: Outcome

    def moved(self, players: Iterable[str]) -> list[tuple[str, int, int]]:
        """Each player whose points from the action moved, in seat order: (name, was, now)."""
        return moved(self.was.points, self.now.points, players)


def moved(was: Gained, now: Gained, players: Iterable[str]) -> list[tuple[str, int, int]]:
    """Each player whose points from an action moved, in seat order: (name, was, now)."""
    before, after = dict(was), dict(now)
    return [(p, before.get(p, 0), after.get(p, 0)) for p in players
            if before.get(p, 0) != after.get(p, 0)]


@dataclass(frozen=True)
class Correction:
    """The game with past actions changed: the table it leaves, the change as the log keeps it
    (`CHANGE`'s payload), the later actions the rules no longer take, each with why (they are
    taken out with the change, or `replaced`: the rules' stand-in takes their place, with why),
    and the actions as they are played then. `rescored`: the later actions kept as recorded
    that come out differently (a Mayor's VP that goes to another player, a roof's payout), each
    with what the rules made of it before and make of it now. `came_out`, `comes_out`: what
    each later action gave before the change, and gives now (itself or the stand-in in its
    place; none if it is taken out), by seq."""

    state: TableState
    change: dict[str, Any]
    dropped: list[tuple[Event, str]]
    played: list[Event]
    replaced: list[tuple[Event, Event, str]] = field(default_factory=list)
    rescored: list[Rescored] = field(default_factory=list)
    came_out: dict[int, Outcome] = field(default_factory=dict)
    comes_out: dict[int, Outcome] = field(default_factory=dict)

    def accounts(self) -> dict[int, tuple[str, str | None]]:
        """The action the change entered again, if it is the only one, whose rules' note says
        the whole of it (`Account`), before and after, by seq: where they differ, what the
        change does ("Ben bought a territory with 2 building grounds for $1." → "... for
        $2."); taken out (None after), what it did (found at a table: "Take out: Cem took
        skyscrapers (option A)" did not say how many)."""
        if len(self.change["edits"]) != 1:  # their words only: each account is a sentence
            return {}
        seq = self.change["edits"][0]["seq"]
        was, now = self.came_out.get(seq), self.comes_out.get(seq)
        if not (was and isinstance(was.note, Account)):
            return {}
        if self.change["edits"][0]["now"] is None:
            return {seq: (was.note, None)}
        if now and isinstance(now.note, Account) and was.note != now.note:
            return {seq: (was.note, now.note)}
        return {}

    def points_moved(self, seq: int, players: Iterable[str]) -> list[tuple[str, int, int]]:
        """The points a later action replaced or taken out gave, and give now (0: taken out),
        for each player they moved for: (name, was, now). None known before: none."""
        if seq not in self.came_out:
            return []
        now = self.comes_out[seq].points if seq in self.comes_out else ()
        return moved(self.came_out[seq].points, now, players)


# An action as a change enters it: (kind, payload), or None for an action taken out.
Now = tuple[str, Mapping[str, Any]] | None


def corrected(game: Game, players: list[str], in_force: Iterable[Event],
              edits: Mapping[int, Now], reason: str = "",
              moved: Collection[int] = frozenset()) -> Correction:
    """Past actions entered again (`edits`: seq -> what it is now, or None: taken out, and the
    rules' stand-in, if they have one, in its place; the first is the one the table set out to
    change), each recorded with what it means where it now stands (those `moved` there, as
    recorded elsewhere, read again here: `read_here`): the rules referee every later action
    again on top of them, as recorded, and keep it, or put their stand-in in its place, or
    leave it out, with why; and say which of those kept as recorded now come out differently
    (`Rescored`). RuleError if they refuse an action entered again, or one of `edits` is no
    action in force, or there is none (an action moved past actions just like it: found by the
    no-dead-ends fuzz test, a server error)."""
    if not edits:
        raise RuleError(Msg("Every action stands as it was: nothing changes."))
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
    as_it_was: TableState | None = None  # the table before the first action changed
    comes_out: dict[int, Outcome] = {}
    for event in played:
        if as_it_was is None and event.seq >= first:
            as_it_was = _copy(state)
        if event.seq in edits:
            now = edits[event.seq] or state.instead_of(event.kind, event.payload)
            if now is not None and event.seq in moved:
                now = (now[0], read_here(state, *now))
            entered[event.seq] = again = None if now is None else Event(
                event.seq, now[0], state.recorded(*now), event.at)
            if again is not None:
                before = state.totals()
                state.apply(again.kind, again.payload)
                kept.append(again)
                comes_out[event.seq] = outcome(game, state, again, before)
            continue
        if event.seq < first:
            state.apply(event.kind, event.payload)
            kept.append(event)
            continue
        before = state.totals()
        state, again, why = refereed_again(state, event)
        if again is None:
            dropped.append((event, why))
            continue
        kept.append(again)
        comes_out[event.seq] = outcome(game, state, again, before)
        if again is not event:
            replaced.append((event, again, why))
    changes = [*((by_seq[seq], entered[seq]) for seq in edits),
               *((was, now) for was, now, _why in replaced)]
    change = {"edits": [{"seq": was.seq, "was": _action(was),
                         "now": None if now is None else _action(now)} for was, now in changes],
              "drop": [e.seq for e, _why in dropped], "reason": reason}
    later = [e for e in played if e.seq >= first]
    came_out = _came_out(game, as_it_was, later) if as_it_was is not None else {}
    stood_in = {was.seq for was, _now, _why in replaced}
    rescored = [Rescored(event, came_out[event.seq], comes_out[event.seq]) for event in later
                if event.seq in came_out and event.seq in comes_out and event.seq not in edits
                and event.seq not in stood_in and came_out[event.seq] != comes_out[event.seq]]
    return Correction(state, change, dropped, kept, replaced, rescored, came_out, comes_out)


def read_here(state: TableState, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """An action recorded at another place, moved here: as the table entered it, what it means
    (`TableState.meaning`: which action of the turn, where a commissioner moved from) to be
    worked out here again, but who acted, which no move changes (moved past another player's
    action, it is refused as out of turn)."""
    here = state.meaning(kind, payload)
    return {key: value for key, value in payload.items() if key not in here or key == "player"}


def move_edits(played: list[Event], seq: int, to: int) -> dict[int, Now]:
    """Action `seq` recorded at the wrong moment, moved to where action `to` stands (before it,
    or after it if it is later: a yard's scoring tapped one purchase early has that purchase
    moved before it), each action between them moving one place towards where it was: the
    edits that say so, each action's number now holding the action that comes there (only
    those that change). RuleError if either is no action in force, or they are one."""
    order = [e.seq for e in played]
    if seq not in order or to not in order or seq == to:
        raise RuleError(Msg("Action {n} cannot be moved there.", n=seq))
    low, high = sorted((order.index(seq), order.index(to)))
    places = played[low:high + 1]
    actions = [(e.kind, dict(e.payload)) for e in places]
    shifted = [actions[-1], *actions[:-1]] if to < seq else [*actions[1:], actions[0]]
    return {place.seq: action for place, action in zip(places, shifted, strict=True)
            if action != (place.kind, dict(place.payload))}


def outcome(game: Game, state: TableState, event: Event,
            before: Mapping[str, int]) -> Outcome:
    """What the rules made of `event`, just applied to `state` (the totals `before` it)."""
    return Outcome(game.say(event.kind, event.payload, state), getattr(state, "note", None),
                   gained(before, state.totals()))


def _came_out(game: Game, state: TableState, later: list[Event]) -> dict[int, Outcome]:
    """What each later action gave before the change: the actions as they were played,
    replayed on the table before the first action changed. None of them if the rules refuse
    the log as it was (one recorded under older rules): nothing is said rather than something
    wrong."""
    came_out: dict[int, Outcome] = {}
    try:
        for event in later:
            before = state.totals()
            state.apply(event.kind, event.payload)
            came_out[event.seq] = outcome(game, state, event, before)
    except RuleError:
        return {}
    return came_out


def refereed_again(state: TableState, event: Event) -> tuple[TableState, Event | None, str]:
    """A later action after a change: the table with it as it was recorded (the same action, or
    the rules refuse it), else with it read again on the changed table (`read_again`), else
    with the rules' stand-in for it (`instead_of`), else without it; the action kept or put in
    its place (None: none), and why it is not kept as it was."""
    trial = _copy(state)
    try:
        trial.apply(event.kind, event.payload)
    except RuleError as refused:
        why = refused.args[0] if refused.args else str(refused)
    else:
        return trial, event, ""
    for instead in (state.read_again(event.kind, event.payload),
                    state.instead_of(event.kind, event.payload)):
        if instead is None:
            continue
        trial = _copy(state)
        try:
            trial.apply(*instead)
        except RuleError:
            continue
        return trial, Event(event.seq, *instead, event.at), why
    return state, None, why


def _copy(state: TableState) -> TableState:
    """A copy of its own, so that a refused action leaves nothing behind."""
    copied: TableState = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return copied


def _action(event: Event) -> dict[str, Any]:
    """An action as a change keeps it."""
    return {"kind": event.kind, "payload": dict(event.payload)}
