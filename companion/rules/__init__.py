"""The registry of games: every game's rules as pure Python, looked up by slug (`GAMES`).

A game's entry is one `Game(...)` here. The package's modules are the referee that every game
shares (the replay, changes of past actions, the score pad, names, two phones at one table); this
module names what the platform uses of them. Nothing here imports Flask, SQLite or WeasyPrint;
the web, storage and PDF layers import this.
"""

from __future__ import annotations

from . import fifth_avenue_table, street_table, urbanisation_table, yard, yard_table
from .common import Placing, RuleError
from .corrections import Correction, Now, corrected
from .game import Game, TableState
from .log import CHANGE, Event
from .merging import merges
from .names import check_players, clean_name
from .pad import PadLine, ScorePad, score_pad
from .replay import Current, Gained, gained, replay
from .text import Msg

__all__ = ["CHANGE", "GAMES", "Correction", "Current", "Event", "Gained", "Game", "Now",
           "PadLine", "Placing", "RuleError", "ScorePad", "TableState", "check_players",
           "clean_name", "corrected", "find_game", "gained", "merges", "replay", "score_pad"]


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
    """The game with this slug; RuleError for one the app does not have."""
    try:
        return GAMES[slug]
    except KeyError:
        raise RuleError(Msg("Unknown game {slug!r}.", slug=slug)) from None
