"""The event log of a table: undo and redo resolved, then replayed through a game's rules."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .common import RuleError, check_reason
from .text import Msg

UNDO = "undo"
REDO = "redo"
# The log's version: 2 since every action says what it means (`common.ActionTable.meaning`);
# a version 1 log is brought up to it by `referee.recorded_log`.
VERSION = 2
# The most events a table holds, undo and redo included: as many as an import accepts, so that
# every table can be exported and imported again. A long real game logs about 170.
MAX_EVENTS = 2000
# When an event happened, as the log writes it: ISO 8601 with its UTC offset, ASCII only.
TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?"
                  r"([+-][0-9]{2}:[0-9]{2}|Z)")


def is_time(value: object) -> bool:
    """A time the log may hold: written as TIME, a real date and time, and within the years 1
    to 9999 in UTC too ("9999-12-31T23:59:59-23:59" is not: in UTC it is in the year 10000,
    which no date on a page or in BG Stats can be)."""
    if not isinstance(value, str) or not TIME.fullmatch(value):
        return False
    try:
        datetime.fromisoformat(value).astimezone(UTC)
    except (ValueError, OverflowError):
        return False
    return True


@dataclass(frozen=True)
class Event:
    """One action at the table, as stored: its place in the log, kind and payload."""

    seq: int
    kind: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    at: str = ""


@dataclass(frozen=True)
class Resolved:
    """The actions in force after undo and redo, and those that can be redone (last first)."""

    done: tuple[Event, ...]
    undone: tuple[Event, ...]


def resolve(events: Iterable[Event]) -> Resolved:
    """Undo takes back the latest action in force; redo restores the latest undone one.

    A new action clears what could be redone, as in any editor. Undo and redo are events too,
    so the log only ever grows and the history shows every tap.
    """
    done: list[Event] = []
    undone: list[Event] = []
    for event in events:
        if event.kind == UNDO:
            if not done:
                raise RuleError(Msg("There is nothing to undo."))
            undone.append(done.pop())
        elif event.kind == REDO:
            if not undone:
                raise RuleError(Msg("There is nothing to redo."))
            done.append(undone.pop())
        else:
            done.append(event)
            undone.clear()
    return Resolved(tuple(done), tuple(reversed(undone)))


@dataclass(frozen=True)
class Entry:
    """One line of a table's history: the event, what an undo or redo acted on, and whether
    the event is in force now (undone ones are shown struck through)."""

    event: Event
    target: Event | None
    in_force: bool


def history(events: Iterable[Event]) -> list[Entry]:
    """Every event in order, undo and redo paired with the action they took back or restored."""
    events = list(events)
    done: list[Event] = []
    undone: list[Event] = []
    targets: dict[int, Event] = {}
    for event in events:
        if event.kind == UNDO and done:
            targets[event.seq] = done.pop()
            undone.append(targets[event.seq])
        elif event.kind == REDO and undone:
            targets[event.seq] = undone.pop()
            done.append(targets[event.seq])
        elif event.kind not in (UNDO, REDO):
            done.append(event)
            undone.clear()
    in_force = {e.seq for e in done}
    return [
        Entry(e, targets.get(e.seq), e.seq in in_force or e.kind in (UNDO, REDO)) for e in events
    ]


# Changing a past action ------------------------------------------------------------------------

# A change is an action of its own (so undo takes it back like any other). Its `edits` name
# actions in force (`seq`), what each was (`was`: its kind and payload, as the table had it) and
# what it is now (`now`, or None: it is taken out); the first is the action the table set out
# to change, the others were changed too. It takes out the later actions the rules no longer
# take after it (`drop`), and says what it is for (`reason`).
CHANGE = "change"
CHANGE_KEYS = frozenset({"edits", "drop", "reason"})


def about(event: Event) -> list[int]:
    """The actions an event is about, by seq, as the history numbers them: a change's, those it
    enters again or takes out (its edits); any other's, itself."""
    if event.kind != CHANGE:
        return [event.seq]
    return [edit["seq"] for edit in event.payload.get("edits", [])]


def as_played(done: Iterable[Event]) -> list[Event]:
    """The actions in force as the game had them, oldest first: each change rewrites the actions
    it edits (each keeping its place and number) or takes them out, and takes out what it
    drops; the changes themselves are not actions of the game. RuleError for a change that does
    not fit the log (an action not in force, or not as the change says it was)."""
    played: dict[int, Event] = {}  # by seq; a rewritten action keeps its place
    for event in done:
        if event.kind != CHANGE:
            played[event.seq] = event
            continue
        fix = checked_change(event.payload)
        for edit in fix["edits"]:
            target = played.get(edit["seq"])
            if target is None or [target.kind, dict(target.payload)] != [
                    edit["was"]["kind"], edit["was"]["payload"]]:
                raise RuleError(Msg("Action {n} is not as this change says it was: it was "
                                    "changed or undone meanwhile.", n=edit["seq"]))
            if edit["now"] is None:
                del played[target.seq]
            else:
                played[target.seq] = Event(target.seq, edit["now"]["kind"],
                                           edit["now"]["payload"], target.at)
        for seq in fix["drop"]:
            played.pop(seq, None)
    return list(played.values())


def changes_nothing(fix: Mapping[str, Any]) -> bool:
    """A change (`checked_change`'s shape) that enters every action as it was recorded and takes
    nothing out: recorded, it would change nothing but the history (ruling: it is not
    recorded)."""
    return not fix["drop"] and all(edit["now"] == edit["was"] for edit in fix["edits"])


def checked_change(fix: Mapping[str, Any]) -> Mapping[str, Any]:
    """A change's payload, if it has the shape `as_played` reads; else RuleError."""
    def action(part: Any) -> bool:
        return (isinstance(part, Mapping) and isinstance(part.get("kind"), str)
                and part["kind"] not in (UNDO, REDO, CHANGE)
                and isinstance(part.get("payload"), Mapping))

    def edit(part: Any) -> bool:
        return (isinstance(part, Mapping) and isinstance(part.get("seq"), int)
                and action(part.get("was")) and (part.get("now") is None or action(part["now"])))

    edits, drop = fix.get("edits"), fix.get("drop")
    if not (isinstance(edits, list) and edits and all(edit(e) for e in edits)
            and isinstance(drop, list) and all(isinstance(n, int) for n in drop)):
        raise RuleError(Msg("This change does not say which action it changes, and how."))
    edited = [e["seq"] for e in edits]
    if len(set(edited)) < len(edited) or any(n <= min(edited) or n in edited for n in drop):
        raise RuleError(Msg("This change does not say which action it changes, and how."))
    check_reason(fix.get("reason"))
    return fix
