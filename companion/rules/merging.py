"""Two phones at one table: which action tapped on an outdated screen still goes on the table."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from .common import RuleError
from .game import Game, TableState
from .log import Event


def merges(game: Game, kind: str, payload: Mapping[str, Any], missed: list[Event]) -> bool:
    """Ruling (two phones at one table): an action tapped on a screen that did not yet show the
    `missed` actions (all of them: another phone recorded them meanwhile) goes on the table as it
    stands, if the rules take it there, when nothing it depends on changed: it is of a kind each
    player takes on their own (`Game.independent`: the yard's purchases, which the rules do not
    order), and so is every missed action, each another player's or the same player's other
    purchase (found at a table: a church tapped after the same player's skyscraper, bought
    again having paid exactly, cannot be the skyscraper). Anything else (an undo, a scoring, a
    turn-based game's action, or the same player's action as tapped, which may be the very
    same purchase recorded twice) is refused as an outdated screen."""
    player = payload.get("player")
    return (kind in game.independent and bool(missed) and player is not None
            and all(e.kind in game.independent and e.payload.get("player") is not None
                    and not same_tap(e, kind, payload) for e in missed))


def same_tap(event: Event, kind: str, payload: Mapping[str, Any]) -> bool:
    """Whether a recorded action may be this tap recorded already: the same kind, and every
    choice the tap names the same (the same player's purchase of the same building)."""
    return event.kind == kind and all(event.payload.get(k) == v for k, v in payload.items())


def refusal_on(state: TableState, kind: str, payload: Mapping[str, Any]) -> Any | None:
    """Why the table as it stands refuses an action tapped on an outdated screen, in the rules'
    words (None if it takes it): said in place of "it may have been recorded already, tap it
    again" where tapping again cannot record it (found at a table: a purchase tapped on a screen
    from before the game's end, when only the last buyer may still buy). Tried on a copy."""
    trial = copy.deepcopy(state)
    try:
        trial.apply(kind, trial.recorded(kind, payload))
    except RuleError as error:
        return error.args[0] if error.args else str(error)
    return None
