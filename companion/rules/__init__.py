"""The referee: every game's rules as pure Python, looked up by slug.

Nothing here imports Flask, SQLite or WeasyPrint; the web, storage and PDF layers import this.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import fifth_avenue_table, street_table, urbanisation_table, yard, yard_table
from .common import Placing, RuleError, Step, shown_reason
from .log import CHANGE, CHANGE_KEYS, REDO, UNDO, Entry, Event, as_played, history, resolve
from .names import clean_name, skeleton
from .text import Msg

__all__ = ["CHANGE", "GAMES", "Correction", "Current", "Gained", "Game", "PadLine", "Placing",
           "RuleError", "Now", "ScorePad", "TableState", "check_players", "clean_name",
           "corrected", "find_game", "gained", "merges", "replay", "score_pad"]


class TableState(Protocol):
    """What every game's table state offers the platform."""

    players: list[str]
    finished: bool

    def apply(self, kind: str, payload: Mapping[str, Any]) -> None: ...
    # What an action means here, and its payload as the log keeps it (`common.ActionTable`).
    def meaning(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]: ...
    def recorded(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]: ...
    def instead_of(self, kind: str, payload: Mapping[str, Any]) -> Step | None: ...
    def accepted_before(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any] | None: ...
    def totals(self) -> dict[str, int]: ...
    def ranking(self) -> list[Placing]: ...
    # Whose turn it is and what comes next, in words (None where the rules cannot say).
    @property
    def up_next(self) -> str | None: ...


@dataclass(frozen=True)
class Game:
    """A supported game: its slug (used everywhere), name, player counts and referee."""

    slug: str
    name: str
    players: range
    start: Callable[[list[str]], TableState]
    describe: Callable[[str, Mapping[str, Any]], str]
    payload_keys: Callable[[str], frozenset[str] | None]
    reserved_names: Callable[[int], tuple[str, ...]] = lambda players: ()
    # The action in words with the table it was applied to, for what the payload only numbers.
    describe_at: Callable[[Any, str, Mapping[str, Any]], str] | None = None
    # The action in words with every detail (a street card's icons): a change whose short words
    # read the same before and after says these.
    describe_detail: Callable[[str, Mapping[str, Any]], str] | None = None
    # The kinds of action each player takes on their own, in no order the rules keep (`merges`).
    independent: frozenset[str] = frozenset()

    def say(self, kind: str, payload: Mapping[str, Any], state: TableState | None = None) -> str:
        """An action in words; given the table as it stood after it, with what the payload
        only numbers named (5th Avenue's plots by their colour). A change says what the action
        it changed was and is now."""
        if kind == CHANGE:
            return self.say_change(payload)
        if state is not None and self.describe_at is not None:
            return self.describe_at(state, kind, payload)
        return self.describe(kind, payload)

    def declared(self, kind: str) -> frozenset[str] | None:
        """The payload keys an event of this kind holds (None: a kind the game does not
        have): the game's own actions', none for undo and redo, a change's."""
        if kind in (UNDO, REDO):
            return frozenset()
        return CHANGE_KEYS if kind == CHANGE else self.payload_keys(kind)

    def say_change(self, fix: Mapping[str, Any]) -> str:
        """"Changed: Ann bought a church → Ben bought a church (wrong player)"; "Taken out:
        ..."; a change of several actions names each."""
        said_why = shown_reason(fix.get("reason"))
        reason = Msg(" ({reason})", reason=said_why) if said_why else ""
        edits = fix["edits"]
        if len(edits) == 1 and edits[0]["now"] is None:
            was = edits[0]["was"]
            return Msg("Taken out: {was}{reason}", was=self.describe(was["kind"], was["payload"]),
                       reason=reason)
        said = self.say_edit(edits[0]["was"], edits[0]["now"])
        for edit in edits[1:]:
            said = Msg("{said}; {next}", said=said, next=self.say_edit(edit["was"], edit["now"]))
        return Msg("Changed: {edits}{reason}", edits=said, reason=reason)

    def say_edit(self, was: Mapping[str, Any], now: Mapping[str, Any] | None) -> str:
        """One action of a change: "Ann bought a church → Ben ...", "... taken out"."""
        said = self.describe(was["kind"], was["payload"])
        if now is None:
            return Msg("{was} taken out", was=said)
        now_said = self.describe(now["kind"], now["payload"])
        if now_said == said and self.describe_detail is not None:
            said = self.describe_detail(was["kind"], was["payload"])
            now_said = self.describe_detail(now["kind"], now["payload"])
        return Msg("{was} → {now}", was=said, now=now_said)


GAMES: dict[str, Game] = {
    "yard": Game(
        slug="yard",
        name=Msg("Construction yard card game"),
        players=range(2, 7),
        start=yard_table.YardTable.start,
        describe=yard_table.describe,
        payload_keys=yard_table.YardTable.payload_keys,
        reserved_names=lambda players: (yard.DIRK,) if players == 2 else (),
        independent=frozenset({"buy"}),
    ),
    "fifth_avenue": Game(
        slug="fifth_avenue",
        name=Msg("5th Avenue"),
        players=range(2, 5),
        start=fifth_avenue_table.FifthAvenueTable.start,
        describe=fifth_avenue_table.describe,
        payload_keys=fifth_avenue_table.FifthAvenueTable.payload_keys,
        reserved_names=lambda players: ("Alea",),
    ),
    "street": Game(
        slug="street",
        name=Msg("Street card game"),
        players=range(2, 6),
        start=street_table.StreetTable.start,
        describe=street_table.describe,
        payload_keys=street_table.StreetTable.payload_keys,
        describe_at=street_table.describe_at,
        describe_detail=street_table.describe_detail,
    ),
    "urbanisation": Game(
        slug="urbanisation",
        name=Msg("Urbanisation"),
        players=range(2, 5),
        start=urbanisation_table.UrbanisationTable.start,
        describe=urbanisation_table.describe,
        payload_keys=urbanisation_table.UrbanisationTable.payload_keys,
    ),
}


def find_game(slug: str) -> Game:
    try:
        return GAMES[slug]
    except KeyError:
        raise RuleError(Msg("Unknown game {slug!r}.", slug=slug)) from None


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


@dataclass(frozen=True)
class PadLine:
    """One line of a table's history, as a score pad reads it: the event (with what an undo or
    redo acted on), the action in words, the consequence the rules worked out when it differs
    from those words (a business's plot, an auction's skyscrapers, the VP of a building), and
    the points it gave or took, seat by seat; whether it is an action of the game as played
    (one that can be changed). Undone actions, and those a change took out, give no points."""

    entry: Entry
    said: str
    note: str | None
    points: tuple[tuple[str, int], ...]
    played: bool = False

    @property
    def taken_out(self) -> bool:
        """In force, but a change took it out (or dropped it)."""
        return (self.entry.in_force and not self.played
                and self.entry.event.kind not in ("undo", "redo", CHANGE))


@dataclass(frozen=True)
class ScorePad:
    """A table's history as a score pad: the points everyone starts with (the street's
    starting money counts), then every event's line, oldest first."""

    start: tuple[tuple[str, int], ...]
    lines: list[PadLine]


def score_pad(game: Game, players: list[str], events: Iterable[Event]) -> ScorePad:
    """Every event in order as a score pad line: the actions in force replayed once, each
    said with the table it made and its change to every total."""
    events = list(events)
    start = game.start(players).totals()
    totals = [start]
    made: dict[int, tuple[str, str | None, tuple[tuple[str, int], ...]]] = {}

    def line(event: Event, state: TableState) -> None:
        before, after = totals[-1], state.totals()
        said = game.say(event.kind, event.payload, state)
        note = getattr(state, "note", None)
        made[event.seq] = (said, None if not note or note.rstrip(".") == said else note,
                           _changes(before, after))
        totals.append(after)

    state = replay(game, players, events, each=line).state
    return ScorePad(tuple((p, v) for p, v in start.items() if v),
                    [_pad_line(game, entry, made, state) for entry in history(events)])


def _changes(before: Mapping[str, int], after: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple((p, after[p] - before.get(p, 0)) for p in after if after[p] != before.get(p, 0))


def _pad_line(game: Game, entry: Entry, made: Mapping[int, Any], state: TableState) -> PadLine:
    """An action in force has its line from the replay; an undone one, and an undo or redo
    (said as the action it acted on), give no points."""
    event = entry.event
    if entry.in_force and event.seq in made:
        said, note, points = made[event.seq]
        return PadLine(entry, said, note, points, played=True)
    acted_on = entry.target or event
    said = "" if acted_on.kind in ("undo", "redo") else game.say(acted_on.kind,
                                                                   acted_on.payload, state)
    return PadLine(entry, said, None, ())


def merges(game: Game, kind: str, payload: Mapping[str, Any], missed: list[Event]) -> bool:
    """Ruling (two phones at one table): an action tapped on a screen that did not yet show the
    `missed` actions (all of them: another phone recorded them meanwhile) goes on the table as it
    stands, if the rules take it there, when nothing it depends on changed: it is of a kind each
    player takes on their own (`Game.independent`: the yard's purchases, which the rules do not
    order), and so is every missed action, each another player's. Anything else (an undo, a
    scoring, a turn-based game's action, or the same player's action, which may be the very
    same purchase recorded twice) is refused as an outdated screen."""
    player = payload.get("player")
    return (kind in game.independent and bool(missed) and player is not None
            and all(e.kind in game.independent and e.payload.get("player") not in (None, player)
                    for e in missed))


def check_players(game: Game, names: Iterable[str]) -> list[str]:
    """Player names for a new table: cleaned, 1 to 24 characters, within the game's player
    count, none that looks like the game's automated opponent or another seat's name.
    """
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise RuleError(Msg("List the players' names."))
    players = [name for name in map(clean_name, names) if name]
    if len(players) not in game.players:
        raise RuleError(Msg("{game} is played by {low} to {high} players.", game=game.name,
                            low=game.players.start, high=game.players.stop - 1))
    reserved = {skeleton(r) for r in game.reserved_names(len(players))}
    for name in players:
        if len(name) > 24:
            raise RuleError(Msg("The name {name!r}... is longer than 24 characters.",
                                name=name[:24]))
        if skeleton(name) in reserved:
            raise RuleError(Msg(
                "{name} is the automated opponent's name here: choose another name.", name=name))
    _check_apart(players)
    return players


def _check_apart(players: list[str]) -> None:
    """Every seat's name looks different from every other's, as a phone shows them."""
    seen: dict[str, str] = {}
    for name in players:
        other = seen.get(skeleton(name))
        if other is None:
            seen[skeleton(name)] = name
            continue
        if other.casefold() == name.casefold():
            raise RuleError(Msg("Two players are called {name}: names must differ.",
                                name=other))
        raise RuleError(Msg("{name} and {other} look the same on a phone: names must be easy "
                            "to tell apart.", name=other, other=name))
