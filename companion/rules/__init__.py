"""The registry of games: every game's rules as pure Python, looked up by slug (`GAMES`).

A game's entry is one `Game(...)` here. The package's modules are the referee that every game
shares (the replay, changes of past actions, the score pad, names, two phones at one table); this
module names what the platform uses of them. Nothing here imports Flask, SQLite or WeasyPrint;
the web, storage and PDF layers import this.
"""

from __future__ import annotations

from . import (
    fifth_avenue,
    fifth_avenue_table,
    street,
    street_table,
    urbanisation,
    urbanisation_table,
    yard,
    yard_table,
    yard_words,
)
from .common import Placing, RuleError
from .corrections import Correction, Now, Rescored, corrected, move_edits
from .game import Game, TableState
from .log import CHANGE, Event, changes_nothing
from .merging import merges
from .names import check_players, clean_name
from .pad import PadLine, ScorePad, score_pad, shown_together
from .replay import Current, Gained, gained, replay
from .text import Msg

__all__ = ["CHANGE", "GAMES", "Correction", "Current", "Event", "Gained", "Game", "Now",
           "PadLine", "Placing", "Rescored", "RuleError", "ScorePad", "TableState",
           "changes_nothing", "check_players", "clean_name", "corrected", "find_game", "gained",
           "merges", "move_edits", "replay", "score_pad", "shown_together"]


# A game's entry: slug, name, player counts, table state class, its actions in words, and what
# it has of its own (an automated opponent's name, actions in words with the table, ...).
GAMES: dict[str, Game] = {game.slug: game for game in (
    Game("yard", yard.NAME, range(2, 7), yard_table.YardState, yard_table.describe,
         describe_at=yard_words.describe_at,
         reserved_names=lambda players: (yard.DIRK,) if players == 2 else (),
         independent=frozenset({"buy"})),
    Game("fifth_avenue", fifth_avenue.NAME, range(2, 5), fifth_avenue_table.FifthAvenueState,
         fifth_avenue_table.describe, reserved_names=lambda players: ("Alea",)),
    Game("street", street.NAME, range(2, 6), street_table.StreetState,
         street_table.describe, describe_at=street_table.describe_at,
         describe_detail=street_table.describe_detail),
    Game("urbanisation", urbanisation.NAME, range(2, 5), urbanisation_table.UrbanisationState,
         urbanisation_table.describe, describe_detail=urbanisation_table.describe_detail),
)}


def find_game(slug: str) -> Game:
    """The game with this slug; RuleError for one the app does not have."""
    try:
        return GAMES[slug]
    except KeyError:
        raise RuleError(Msg("Unknown game {slug!r}.", slug=slug)) from None
