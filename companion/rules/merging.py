"""Two phones at one table: which action tapped on an outdated screen still goes on the table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .game import Game
from .log import Event


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
