"""The referee: every game's rules as pure Python, looked up by slug.

Nothing here imports Flask, SQLite or WeasyPrint; the web, storage and PDF layers import this.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from . import fifth_avenue_table, street_table, urbanisation_table, yard, yard_table
from .common import Placing, RuleError
from .log import Event, Resolved, resolve
from .names import clean_name, skeleton
from .text import Msg

__all__ = ["GAMES", "Game", "Placing", "Replay", "RuleError", "TableState", "check_players",
           "clean_name", "find_game", "replay"]


class TableState(Protocol):
    """What every game's table state offers the platform."""

    players: list[str]
    finished: bool

    def apply(self, kind: str, payload: Mapping[str, Any]) -> None: ...
    def totals(self) -> dict[str, int]: ...
    def ranking(self) -> list[Placing]: ...


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


GAMES: dict[str, Game] = {
    "yard": Game(
        slug="yard",
        name=Msg("Construction yard card game"),
        players=range(2, 7),
        start=yard_table.YardTable.start,
        describe=yard_table.describe,
        payload_keys=yard_table.YardTable.payload_keys,
        reserved_names=lambda players: (yard.DIRK,) if players == 2 else (),
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


@dataclass(frozen=True)
class Replay:
    """A table's state after replaying its log, with what undo and redo would act on."""

    state: TableState
    log: Resolved
    last_seq: int


def replay(game: Game, players: list[str], events: Iterable[Event]) -> Replay:
    """Rebuild a table's state from its events, undo and redo resolved."""
    events = list(events)
    log = resolve(events)
    state = game.start(players)
    for event in log.done:
        state.apply(event.kind, event.payload)
    return Replay(state, log, events[-1].seq if events else 0)


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
