"""A table's history as a score pad: every event's line, with the points it gave or took."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .game import Game, TableState
from .log import CHANGE, Entry, Event, history
from .replay import gained, replay
from .text import Account


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
    changed_in: int | None = None  # the last change in force that entered it again
    tapped: str = ""  # when the action now standing here was tapped, if not its event's time

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
        made[event.seq] = (*shown_together(said, getattr(state, "note", None)),
                           gained(before, after))
        totals.append(after)

    state = replay(game, players, events, each=line).state
    entries = history(events)
    changed, tapped = entered_again(entries), moved_times(game, entries)
    return ScorePad(tuple((p, v) for p, v in start.items() if v),
                    [replace(_pad_line(game, entry, made, state, changed),
                             tapped=tapped.get(entry.event.seq, ""))
                     for entry in entries])


def entered_again(entries: Iterable[Entry]) -> dict[int, int]:
    """Each action that a change in force entered again (not taken out): the last such change's
    number, which its history line names ("changed in #13")."""
    changed: dict[int, int] = {}
    for entry in entries:
        if entry.in_force and entry.event.kind == CHANGE:
            for edit in entry.event.payload.get("edits", ()):
                if edit.get("now") is not None:
                    changed[edit["seq"]] = entry.event.seq
    return changed


def moved_times(game: Game, entries: Sequence[Entry]) -> dict[int, str]:
    """When each action a move in force put at another action's place was tapped, by the place
    it now stands at: a moved action keeps its own time, each action in between too (found at
    a table: after a move each of the two showed the other's time)."""
    at = {entry.event.seq: entry.event.at for entry in entries}
    moved: dict[int, str] = {}
    for entry in entries:
        edits = list(entry.event.payload.get("edits", ())) if entry.event.kind == CHANGE else []
        move = game.move_of(edits) if entry.in_force and edits else None
        if move is None:
            continue
        seqs = sorted(edit["seq"] for edit in edits)
        times = [moved.get(seq, at[seq]) for seq in seqs]
        moved.update(zip(seqs, [times[-1], *times[:-1]] if move[1] else [*times[1:], times[0]],
                         strict=True))
    return moved


def shown_together(said: Any, note: Any) -> tuple[Any, Any]:
    """An action's words and the rules' note on it, as shown together, so that nothing is said
    twice: the note beside the words when it says more than they do (a district's scoring, the
    Mayor of the next turn); None when it says nothing more (words the action's own begin with:
    "Ann won Times Square and built 3 skyscrapers on the brown plot." beside "... on the brown
    plot (cards 4)"); and a note that begins with the action's words says the action in their
    place ("Ben took 3 skyscrapers (option A): 6 in supply."), as does an `Account`, a note that
    says the whole action (Urbanisation's: "Ann erected 1 skyscraper for $2: +2 VP." in place of
    "Ann erected 1 skyscraper")."""
    if isinstance(note, Account):
        return note, None
    if not note or str(said).startswith(note.rstrip(".")):
        return said, None
    if note.rstrip(".").startswith(str(said).rstrip(".")):
        return note, None
    return said, note


def _pad_line(game: Game, entry: Entry, made: Mapping[int, Any], state: TableState,
              changed: Mapping[int, int]) -> PadLine:
    """An action in force has its line from the replay (and the change that entered it again,
    if one did); an undone one, and an undo or redo (said as the action it acted on), give no
    points."""
    event = entry.event
    if entry.in_force and event.seq in made:
        said, note, points = made[event.seq]
        return PadLine(entry, said, note, points, played=True, changed_in=changed.get(event.seq))
    acted_on = entry.target or event
    said = "" if acted_on.kind in ("undo", "redo") else game.say(acted_on.kind,
                                                                   acted_on.payload, state)
    return PadLine(entry, said, None, ())
