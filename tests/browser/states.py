"""Tables the browser tests start from, seeded straight into the live server's database through
the real rules: a mid-game state of each game, and the log a test reads back afterwards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion import replays, storage
from companion.rules import GAMES
from companion.rules.fifth_avenue_table import DEFAULT_PROFILE, DEFAULT_SET_SIZES, DISTRICT_IDS
from companion.rules.log import Event
from companion.rules.urbanisation_example import SETUP, TURN_1
from companion.views.tables import SEAT_COLOURS
from tests.tables import URBANISATION_PLAYED

Action = tuple[str, dict[str, Any]]


# The states ----------------------------------------------------------------------------------

YARD = ("Ann", "Ben", "Cy")
YARD_MID: tuple[Action, ...] = tuple(
    ("buy", {"player": YARD[k % 3], "building": b})
    for k, b in enumerate(["park", "church", "station", "theater", "museum", "skyscraper"] * 3)
)
YARD_TIE = (("starting_money", {"cards": {"Ann": 4, "Ben": 4, "Cy": 5},
                                "totals": {"Ann": 22, "Ben": 22, "Cy": 25}}),)
DIRK_DEAL = (("dirk_deal", {"buildings": {"museum": 2, "theater": 1, "station": 1, "church": 1,
                                          "park": 1, "skyscraper": 0}}),)

FIFTH = ("Ann", "Ben")
FIFTH_SET_UP: tuple[Action, ...] = (
    ("profile", {"colours": DEFAULT_PROFILE, "set_sizes": list(DEFAULT_SET_SIZES)}),
    ("setup", {"start": {d: {"plot": 0, "kind": "boutique"} for d in DISTRICT_IDS},
               "row": ["boutique", "jeweler", "gallery", "perfume"] * 5, "turns": True}),
)
FIFTH_PLACING = (*FIFTH_SET_UP, ("first_placer", {"player": "Ann"}))
FIFTH_PLAYING = (*FIFTH_PLACING, *[("initial_skyscraper", {"district": d, "plot": p})
                                   for d, p in (("34w", 1), ("34e", 1), ("times", 2),
                                                ("times", 1))])

STREET = ("Mia", "Ola", "Pit")
OFFICE = {"project": "office", "double": False, "roof": False, "gift": False, "floor": None,
          "no_gifts": False, "income": [{"each": "flat", "amount": 1, "project": None}],
          "prestige": []}
# In turn: Mia builds an office and discards the public pile's card; Ola builds an office, buys
# the top card of Pit's deck for $2 and discards it: Pit's 1st action is to take the $2.
STREET_MID: tuple[Action, ...] = (
    ("card", {"player": "Mia", "street": "Mia", "site": 1, "card": OFFICE}),
    ("buy", {"player": "Mia", "deck": "public", "cost": 0}), ("discard", {"player": "Mia"}),
    ("card", {"player": "Ola", "street": "Ola", "site": 1, "card": OFFICE}),
    ("buy", {"player": "Ola", "deck": "Pit", "cost": 2}), ("discard", {"player": "Ola"}),
)
# Pit took the $2 and the public pile's card: he builds it next.
STREET_BOUGHT = (*STREET_MID, ("upcoins", {"player": "Pit"}),
                 ("buy", {"player": "Pit", "deck": "public", "cost": 0}))

URBAN = ("Ann", "Ben", "Cy")
URBAN_ACTIONS = (SETUP, *TURN_1[:3])
URBAN_ADMINISTRATION = (SETUP, *TURN_1[:-1])
URBAN_FINAL = URBANISATION_PLAYED


def seed(database: Path, slug: str, players: tuple[str, ...], actions: tuple[Action, ...]) -> str:
    """A new table holding these actions, each checked by the rules as the app checks it."""
    db = storage.connect(str(database))
    try:
        seats = [{"name": p, "colour": c} for p, c in zip(players, SEAT_COLOURS, strict=False)]
        table_id = storage.create_table(db, slug, seats)
        for done, (kind, payload) in enumerate(actions):
            replays.record(db, table_id, GAMES[slug], list(players), done, kind, payload)
        return table_id
    finally:
        db.close()


def record(database: Path, url: str, players: list[str], actions: list[Action]) -> None:
    """Record actions on the table at `url` (its page's address: /<game>/<table>/) straight into
    the live database, each checked by the rules as the app checks it (a quick way through many
    purchases)."""
    db = storage.connect(str(database))
    slug, table_id = url.split("?")[0].split("#")[0].rstrip("/").split("/")[-2:]
    try:
        for kind, payload in actions:
            replays.record(db, table_id, GAMES[slug], players, storage.last_seq(db, table_id),
                           kind, payload)
    finally:
        db.close()


def logged(database: Path, table_id: str) -> list[Event]:
    db = storage.connect(str(database))
    try:
        return storage.events(db, table_id)
    finally:
        db.close()
