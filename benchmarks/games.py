"""Scripted games for the benchmarks: realistic event logs, and tables seeded with them.

Events are written through the app's one write path (`companion.replays.record`, the real rules
with a snapshot of each table), so a script that the rules no longer accept stops early; the
caller reports how far it got.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask

from companion import replays, storage
from companion.app import create_app
from companion.rules import GAMES, RuleError, replay, urbanisation_example
from companion.rules.fifth_avenue_table import DEFAULT_PROFILE, DEFAULT_SET_SIZES, DISTRICT_IDS
from companion.rules.log import Event
from companion.rules.yard import BUILDINGS, CURRENCIES, SUPPLY
from companion.views.tables import SEAT_COLOURS

ROOT = Path(__file__).resolve().parent.parent
Action = tuple[str, dict[str, Any]]

def yard_buys(players: list[str]) -> list[Action]:
    """Every building card of the game bought once (54), players in turn, buildings mixed. The
    purchase that leaves the display short with the deck empty ends the game after that turn:
    its buyer takes the last cards too, paying exactly each time."""
    cards = [b for b in BUILDINGS for _ in range(SUPPLY[b])]
    cards = cards[::2] + cards[1::2]  # interleave so majorities change hands during the game
    last_turn = len(cards) - 4  # the deck is empty and the display short after this purchase
    return [("buy", {"player": players[min(k, last_turn) % len(players)], "building": b})
            for k, b in enumerate(cards)]


def yard_game() -> list[Action]:
    """A whole 3-player game: 54 purchases with scorings A and B in between, then the end."""
    buys = yard_buys(PLAYERS["yard"])
    money = {p: dict(zip(CURRENCIES, (3, 2, 1, 0), strict=True)) for p in PLAYERS["yard"]}
    final = ("final", {"money": money, "leftovers": []})
    return [*buys[:18], ("score", {"scoring": "A"}), *buys[18:36],
            ("score", {"scoring": "B"}), *buys[36:], final]


def fifth_avenue_game() -> list[Action]:
    """A 2-player game with Alea, in turn: set-up, initial skyscrapers, a round of the white
    commissioner (Ann's and Ben's option C, two moves each; Ann's next 1st action brings it
    back) and the auctions it starts, Alea's or built from the winner's supply of 3 (the game
    is not finished; Ann's 3rd action, a second move, comes next)."""
    start = {d: {"plot": 0, "kind": "boutique"} for d in DISTRICT_IDS}
    row = ["boutique", "jeweler", "gallery", "perfume"] * 5
    alea_out = ("alea_bid", {"high_bid": 30, "cards": [4, 4]})  # a player's 30 beats Alea's 8
    alea_in = ("alea_bid", {"high_bid": 0, "cards": [4, 4]})  # both passed: Alea's 8 wins
    times = DEFAULT_PROFILE["times"]
    return [
        ("profile", {"colours": DEFAULT_PROFILE, "set_sizes": list(DEFAULT_SET_SIZES)}),
        ("setup", {"start": start, "row": row, "turns": True}),
        ("first_placer", {"player": "Ann"}),
        *[("initial_skyscraper", {"district": d, "plot": p})
          for d, p in (("34w", 1), ("34e", 1), ("times", 2), ("times", 1))],
        *[("move", {"commissioner": "white", "to": to})
          for to in ("34w", "times", "52w", "central_park", "city_hall")],
        alea_in, ("auction", {"winner": "alea"}), alea_out,
        ("auction", {"winner": "Ann", "colour": times[1], "cards": [4], "build": 3}),
        alea_in, ("auction", {"winner": "alea"}), alea_out,
        ("auction", {"winner": "Ben", "cards": [6], "build": 1}),
    ]


def street_card(project: str | None, roof: bool = False, income: int = 0,
                prestige: int = 0) -> dict[str, Any]:
    def effects(amount: int) -> list[dict[str, Any]]:
        return [{"each": "flat", "amount": amount, "project": None}] if amount else []

    return {"project": project, "double": False, "roof": roof, "gift": False, "floor": None,
            "no_gifts": False, "income": effects(income), "prestige": effects(prestige)}


def street_game() -> list[Action]:
    """Three players in turn build two floors and a roof on three sites each: the 1st action
    the top card of one's own deck for free, the 2nd a card bought (the public pile's, free).
    Ola buys the top card of Pit's deck once ($2, upcoins on it, which Pit takes as his next 1st
    action). Mia's deck runs out with her last card: the final round, Ola's and Pit's last
    turns, and the scoring."""
    players = PLAYERS["street"]
    projects = dict(zip(players, ("office", "apartment", "store"), strict=True))
    cards = {p: [street_card(projects[p], income=floor, prestige=1) if floor else
                 street_card(None, roof=True, prestige=2)
                 for _site in (1, 2, 3) for floor in (1, 2, 0)] for p in players}
    sites = [site for site in (1, 2, 3) for _floor in range(3)]
    built = dict.fromkeys(players, 0)
    actions: list[Action] = []

    def build(player: str, **bought: Any) -> None:
        n = built[player]
        actions.append(("card", {"player": player, "street": player, "site": sites[n],
                                 "card": cards[player][n], **bought}))
        built[player] += 1

    upcoins = False
    for turn in range(5):
        for player in players:
            if player == "Pit" and upcoins:
                actions.append(("upcoins", {"player": "Pit"}))
                upcoins = False
            else:
                build(player)
            if player == "Mia" and built["Mia"] == len(sites):
                actions.append(("deck_empty", {"player": "Mia"}))
            if built[player] == len(sites):  # nothing left to build: the public card discarded
                actions.append(("buy", {"player": player, "deck": "public", "cost": 0}))
                actions.append(("discard", {"player": player}))
            elif player == "Ola" and turn == 1:
                build(player, bought_from="Pit", cost=2)
                upcoins = True
            else:
                build(player, bought_from="public", cost=0)
    return [*actions, ("finish", {})]


@dataclass(frozen=True)
class Script:
    """A game's scripted table: its players, its actions (a function that writes them out) and
    how many of them a "mid-game" table holds."""

    players: list[str]
    actions: Callable[[], list[Action]]
    mid_game: int


# Each game's one entry.
SCRIPTS = {
    "yard": Script(["Ann", "Ben", "Cy"], yard_game, 30),
    "fifth_avenue": Script(["Ann", "Ben"], fifth_avenue_game, 14),
    "street": Script(["Mia", "Ola", "Pit"], street_game, 20),
    "urbanisation": Script(["Ann", "Ben", "Cy"], urbanisation_example.game, 60),
}
PLAYERS = {slug: script.players for slug, script in SCRIPTS.items()}
GAME_SCRIPTS = {slug: script.actions for slug, script in SCRIPTS.items()}
MID_GAME = {slug: script.mid_game for slug, script in SCRIPTS.items()}


@dataclass(frozen=True)
class Seeded:
    """A table written into the database: its game, id and how many events it holds."""

    slug: str
    id: str
    events: int
    wanted: int

    @property
    def url(self) -> str:
        return f"/{self.slug}/{self.id}/"

    @property
    def label(self) -> str:
        short = "" if self.events == self.wanted else f", script stopped at {self.events}"
        return f"{self.slug}, {self.events} events{short}"


def app_for(instance: Path, config: dict[str, Any] | None = None) -> Flask:
    """The companion on a temporary instance folder, as `create_app()` makes it."""
    os.environ["COMPANION_INSTANCE"] = str(instance)
    return create_app(config)


def script(slug: str, mid_game: bool) -> list[Action]:
    actions = GAME_SCRIPTS[slug]()
    return actions[:MID_GAME[slug]] if mid_game else actions


def seed(db: storage.Database, slug: str, mid_game: bool) -> Seeded:
    """A new table of `slug` holding the scripted events the rules accept, in order."""
    players = PLAYERS[slug]
    table_id = storage.create_table(db, slug, seats(slug))
    actions = script(slug, mid_game)
    done = 0
    for kind, payload in actions:
        try:
            replays.record(db, table_id, GAMES[slug], players, done, kind, payload)
        except RuleError:
            break
        done += 1
    return Seeded(slug, table_id, done, len(actions))


def seats(slug: str) -> list[dict[str, str]]:
    """The players of a scripted game as a new table stores them: names and colours."""
    return [{"name": name, "colour": colour}
            for name, colour in zip(PLAYERS[slug], SEAT_COLOURS, strict=False)]


def events_of(slug: str, mid_game: bool) -> tuple[list[str], list[Event]]:
    """The players and the accepted events of a script, without a database (for the rules)."""
    players, accepted = PLAYERS[slug], []
    for kind, payload in script(slug, mid_game):
        event = Event(len(accepted) + 1, kind, payload)
        try:
            replay(GAMES[slug], players, [*accepted, event])
        except RuleError:
            break
        accepted.append(event)
    return players, accepted
