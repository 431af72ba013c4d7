"""Each game's test data, in one place: a finished game as its table logs it (`FINISHED`, its
players first), the pages a table of it has (`PAGES`), an opening of every kind of action for
the fuzz tests (`OPENINGS`); and ways to put a log into the app's
database (through the one write path the app itself uses), to export a table and to import a
file. Every test that goes over the games reads them here; a game added to `GAMES` without them
fails `tests/test_conventions.py`, which names what is missing (with the benchmarks' script,
`benchmarks/games.py` SCRIPTS)."""

import io
import json
from typing import Any

from companion import replays, storage
from companion.app import get_db
from companion.rules import GAMES, fifth_avenue, fifth_avenue_table
from companion.rules import urbanisation_example as scripted
from companion.views.tables import SEAT_COLOURS
from tests.street_moves import ROOF, build, card, passes, public, takes_public
from tests.yard_moves import buy

UNDO, REDO = ("undo", {}), ("redo", {})


# Complete games, as their tables log them; each takes one action back and forth (undo, redo).
YARD = (["Paul", "Nina", "Tobi", "Kate"], [
    buy("Paul", "park"), UNDO, REDO, buy("Paul", "park"), buy("Nina", "park"),
    buy("Tobi", "church"), ("score", {"scoring": "A"}),
    buy("Nina", "park"), buy("Kate", "skyscraper"), buy("Kate", "skyscraper"),
    buy("Tobi", "skyscraper"), buy("Tobi", "skyscraper"), ("score", {"scoring": "B"}),
    buy("Paul", "park"),
    ("final", {"money": {"Paul": {"blue": 5}, "Nina": {"blue": 9}, "Tobi": {"green": 3},
                         "Kate": {"green": 3}},
               "leftovers": [{"building": "park", "currency": "blue"},
                             {"building": "museum", "currency": "green"}]}),
])
DISTRICTS = {"34e": ["orange", "gray", "brown", "green", "violet"],
             "34w": ["violet", "orange", "gray", "brown", "green"],
             "42e": ["green", "violet", "orange", "gray", "brown"],
             "42w": ["brown", "green", "violet", "orange", "gray"],
             "52e": ["orange", "gray", "brown", "green", "violet"],
             "52w": ["violet", "orange", "gray", "brown", "green"],
             "times": ["gray", "brown", "green", "violet", "orange"]}
START = {"34e": "jeweler", "34w": "boutique", "42e": "boutique", "42w": "perfume",
         "52e": "gallery", "52w": "jeweler", "times": "gallery"}
ROW = ["perfume", "gallery", "boutique", "jeweler", "gallery", "boutique", "perfume", "gallery",
       "jeweler", "boutique", "gallery", "jeweler", "perfume", "boutique", "perfume", "jeweler",
       "gallery", "boutique", "perfume", "jeweler"]


def move(commissioner, *stops):
    return [("move", {"commissioner": commissioner, "to": to}) for to in stops]


def auction(winner, build=0, cards=(4,), colour=None, stop=False):
    return ("auction", {"build": build, "cards": list(cards), "colour": colour, "stop": stop,
                        "winner": winner})


def alea(high, *cards):
    return ("alea_bid", {"cards": list(cards), "high_bid": high})


def place(district, plot, tile):
    return ("business", {"district": district, "plot": plot, "tile": tile})


def skyscrapers(player):
    return ("skyscrapers", {"player": player})


# The browser test's 2-player game with Alea (tests/browser/test_fifth_avenue_game.py), in turn:
# Ann, Ben, Ann, ... each a 1st action (A: skyscrapers, B: a business, C: a move, D: a score)
# and a move. Ann builds 2 of the 3 in her supply, then 1 after her A; Ben 3 after his A.
FIFTH_AVENUE = (["Ann", "Ben"], [
    ("profile", {"colours": DISTRICTS, "set_sizes": [3, 2, 3, 2, 3, 2, 3, 2]}),
    ("setup", {"row": ROW, "start": {d: {"kind": k, "plot": 0} for d, k in START.items()},
               "turns": True}),
    ("first_placer", {"player": "Ann"}),
    *[("initial_skyscraper", {"district": d, "plot": p})
      for d, p in (("52w", 1), ("52w", 3), ("34e", 3), ("34e", 1))],
    place("52w", 2, 0), *move("white", "34w"),  # Ann: B
    place("52w", 4, 1), *move("white", "times"),  # Ben: B
    *move("white", "52e", "central_park"),  # Ann: C
    skyscrapers("Ben"), *move("white", "city_hall"),  # Ben: A, and his move brings auctions
    alea(12, 4, 6, 5, 4), auction("alea"),
    alea(21, 4, 4), auction("Ann", 2, (5,), "brown"), UNDO, REDO,
    alea(20, 4, 4), auction("Ann", colour="gray"),
    alea(20, 4, 4), auction("Ben", 3),
    place("52w", 2, 1), *move("beige", "34e"),  # Ann: B (the 3rd business: special scoring)
    place("34e", 2, 0), *move("beige", "times"),  # Ben: B
    place("34e", 4, 1), *move("beige", "52w"),  # Ann: B
    ("score", {"district": "52w"}), *move("beige", "central_park"),  # Ben: D
    skyscrapers("Ann"), *move("beige", "city_hall"),  # Ann: A, and her move brings auctions
    alea(14, 5, 4, 5), auction("Ben", colour="green", stop=True),
    alea(20, 4, 4), auction("Ann", 1, (6,), "brown"),
    alea(10, 6, 5, 6), auction("alea"),
    ("final", {"park_tiles": ["boutique", "jeweler", "gallery"]}),
])
# Mia and Ola in turn (the 1st action free from one's own deck, the 2nd bought): Mia's three
# cards on site 1 and a roof on site 2, Ola's roof on site 2, both accounts corrected to $9;
# Mia's deck runs out in her turn, and Ola's turn is the last.
STREET = (["Mia", "Ola"], [
    build("Mia", 1, card()), public("Mia", 1, card()), UNDO, REDO,
    build("Ola", 2, ROOF), *takes_public("Ola"), build("Mia", 1, card()),
    ("deck_empty", {"player": "Mia"}), ("account", {"player": "Mia", "amount": 9}),
    ("account", {"player": "Ola", "amount": 9}), public("Mia", 2, ROOF), *passes("Ola"),
    ("finish", {}),
])
# The scripted Urbanisation game (companion/rules/urbanisation_example.py), turn by turn, and
# every action of it from the set-up to the end of turn 6 (before the final scoring).
URBANISATION_TURNS = (scripted.TURN_1, scripted.TURN_2, scripted.TURN_3, scripted.TURN_4,
                      scripted.TURN_5, scripted.TURN_6)
URBANISATION_PLAYED = (scripted.SETUP, *(action for turn in URBANISATION_TURNS for action in turn))
URBANISATION = (["Ann", "Ben", "Cy"], [  # one undo and redo after the set-up and 3 characters
    *URBANISATION_PLAYED[:4], UNDO, REDO, *URBANISATION_PLAYED[4:], ("final", {}),
])
# Turn 1 of a 2-player Urbanisation game without Inventions: Ann gets orange work orders and a
# factory, Ben grain and land. After it Ann has 3 VP (the set-up house, the factory), Ben 4 (the
# house, 1 citizen, 3 grain left): Ann is the Mayor of turn 2.
URBANISATION_TWO_SETUP = ("setup", {"inventions": False, "start_player": "Ann", "money": 10,
                                    "grounds": {"Ann": 2, "Ben": 2}})
URBANISATION_TWO_TURN_1 = [
    *scripted.hire("double_orders", "mill_worker", players=["Ann", "Ben"]),
    scripted.act("work_orders", "Ann", colour="orange", count=2, character="double_orders"),
    scripted.act("trade_grain", "Ben", buy=2, character="mill_worker"),
    scripted.act("attract", "Ann", number=3, colour="orange", goods=2, name="Bakery"),
    scripted.act("buy_land", "Ben", price_markers=1, grounds=2),
    scripted.act("work_orders", "Ann", colour="grey", count=1),
    scripted.act("work_orders", "Ben", colour="white", count=2),
    *scripted.passes("Ann", "Ben"),
    ("administration", {}),
]
FINISHED = {"yard": YARD, "fifth_avenue": FIFTH_AVENUE, "street": STREET,
            "urbanisation": URBANISATION}
# The pages of a table besides its own ("": the table page), each loaded by the tests.
PAGES = {"yard": ["", "history", "share", "sheet.pdf"],
         "fifth_avenue": ["", "history", "share", "board", "sheet.pdf"],
         "street": ["", "history", "share", "play/0", "play/1", "sheet.pdf"],
         "urbanisation": ["", "history", "share", "sheet.pdf"]}


# Each game's opening for the fuzz tests (`tests/fuzz/strategies.py`): every kind of action, legal,
# from which each table's fuzzing starts (fresh, or after some of these steps).

def _buy(player: str, building: str, receiver: str | None = None) -> tuple[str, dict]:
    return ("buy", {"player": player, "building": building, **({"for": receiver} if receiver
                                                               else {})})


def _move(commissioner: str, to: str) -> tuple[str, dict]:
    return ("move", {"commissioner": commissioner, "to": to})


def _card(player: str, site: int, card: dict, owner: str | None = None) -> tuple[str, dict]:
    return ("card", {"player": player, "site": site, "card": card, "street": owner or player})


def _bought(player: str, site: int, card: dict, deck: str, cost: int = 0) -> tuple[str, dict]:
    return ("card", {"player": player, "site": site, "card": card, "street": player,
                     "bought_from": deck, "cost": cost})


def _act(kind: str, player: str, **payload: Any) -> tuple[str, dict]:
    return (kind, {"player": player, **payload})


OFFICE = {"project": "office", "income": [{"each": "flat", "amount": 2}],
           "prestige": [{"each": "on_street", "amount": 1, "project": "office"}]}
_START = {d: {"plot": 0, "kind": "boutique"} for d in fifth_avenue.DISTRICT_IDS}

OPENINGS: dict[str, tuple[list[str], list[tuple[str, dict]]]] = {
    "yard": (["Ann", "Ben"], [
        ("dirk_deal", {"buildings": {"park": 3, "station": 3}}),
        ("starting_money", {"cards": {"Ann": 3, "Ben": 3}, "totals": {"Ann": 22, "Ben": 22}}),
        ("youngest", {"player": "Ben"}),
        _buy("Ann", "park"), _buy("Ben", "museum", "Dirk"),
        ("correct", {"owner": "Ann", "building": "church", "count": 2}),
        ("score", {"scoring": "A"}),
        ("dirk_deal", {"buildings": {"church": 6}}),
        ("deck", {"left": 30}),
        ("score", {"scoring": "B"}),
        ("dirk_deal", {"buildings": {"skyscraper": 5, "theater": 5}}),
        ("final", {"money": {"Ann": {"blue": 5}},
                   "leftovers": [{"building": "park", "currency": "blue"}]}),
    ]),
    "fifth_avenue": (["Ann", "Ben"], [
        ("profile", {"colours": fifth_avenue_table.DEFAULT_PROFILE,
                     "set_sizes": list(fifth_avenue_table.DEFAULT_SET_SIZES)}),
        ("setup", {"start": _START, "row": ["boutique", "jeweler", "gallery", "perfume"] * 5,
                   "turns": True}),
        ("first_placer", {"player": "Ann"}),
        ("initial_skyscraper", {"district": "34w", "plot": 1}),
        ("initial_skyscraper", {"district": "34e", "plot": 1}),
        ("initial_skyscraper", {"district": "times", "plot": 2}),
        ("initial_skyscraper", {"district": "times", "plot": 1}),
        # In turn: Ann's B, Ben's D, Ann's C, Ben's A (his move brings the auctions).
        ("business", {"tile": 0, "district": "34w", "plot": 2}), _move("white", "34w"),
        ("score", {"district": "34w"}), _move("white", "times"),
        _move("white", "52w"), _move("white", "central_park"),
        ("skyscrapers", {"player": "Ben"}), _move("white", "city_hall"),
        ("alea_bid", {"high_bid": 9, "cards": [4, 5, 4]}),
        ("auction", {"winner": "Ann", "colour": "orange", "cards": [5], "build": 2}),
    ]),
    "street": (["Mia", "Ola", "Pit"], [  # in turn: Mia, Ola, Pit; Ola's deck runs out
        _card("Mia", 1, OFFICE), _act("buy", "Mia", deck="Ola", cost=4), _act("discard", "Mia"),
        _act("upcoins", "Ola"),
        _bought("Ola", 2, {"project": "hotel", "double": False, "no_gifts": True}, "public"),
        _card("Pit", 1, {"gift": True, "roof": True}, "Mia"),
        _act("buy", "Pit", deck="public"), _card("Pit", 2, OFFICE),
        ("account", {"player": "Pit", "amount": 7}),
        ("deck_empty", {"player": "Ola", "by": "Mia"}),
        _act("discard", "Mia"), _bought("Mia", 2, {"project": "store"}, "Pit", 2),
        _act("buy", "Ola", deck="public"), _act("discard", "Ola"),
        _act("upcoins", "Pit"), _bought("Pit", 3, {"project": "coffee"}, "public"),
        ("remove", {"street": "Pit", "site": 3}),
        ("finish", {}),
    ]),
    "urbanisation": (["Ann", "Ben", "Cy"], [
        ("setup", {"inventions": True, "start_player": "Ann", "money": 10,
                   "grounds": {"Ann": 2, "Ben": 2, "Cy": 1}, "pools": {"house": 5}}),
        _act("character", "Ann", character="mill_worker"),
        _act("character", "Ben", character="double_orders"),
        _act("character", "Cy", character="professor"),
        _act("trade_grain", "Ann", buy=3, character="mill_worker"),
        _act("work_orders", "Ben", colour="orange", count=2, character="double_orders"),
        _act("invention", "Cy", to=2, character="professor",
             cards=[{"ability": "grey_money"}, {"factory": "Pottery", "vp": 2}]),
        _act("sow", "Ann", grain=1), _act("trade_grain", "Ben", buy=2),
        _act("buy_land", "Cy", price_markers=2, grounds=2),
        _act("taxes", "Ann"),
        _act("attract", "Ben", number=3, colour="orange", goods=2, name="Pottery"),
        _act("erect", "Cy", building="house"),
        _act("effect", "Ann", money=-1, grain=1, reason="correction"),
        _act("pass", "Ann"), _act("produce", "Ben", factory=3, orders={"orange": 2}),
        _act("taxes", "Cy"),
        ("administration", {"exchange": [], "display": [4, None, 7]}),
    ]),
}


def players(slug):
    """The players of the game's finished table, for a test's new table of that game."""
    return tuple(FINISHED[slug][0])


def seed(app, slug, names, actions):
    """A table with these actions logged through the app's one write path."""
    players = [{"name": n, "colour": SEAT_COLOURS[seat]} for seat, n in enumerate(names)]
    with app.app_context():
        db = get_db()
        table_id = storage.create_table(db, slug, players)
        for kind, payload in actions:
            replays.record(db, table_id, GAMES[slug], names, storage.last_seq(db, table_id),
                           kind, payload)
    return table_id


def held(client, *table_ids):
    """This browser holds these tables, as if it had opened them (its session keeps their
    marks): its players' pages count them."""
    with client.session_transaction() as session:
        session["tables"] = [*map(storage.mark_of, table_ids), *session.get("tables", [])]


def finished_table(app, slug):
    names, actions = FINISHED[slug]
    return seed(app, slug, names, actions)


def exported(client, slug, table_id):
    response = client.get(f"/{slug}/{table_id}/export.json")
    assert response.status_code == 200
    return json.loads(response.data)


def upload(client, document=None, raw=None, filename="table.json", **headers):
    body = raw if raw is not None else json.dumps(document).encode()
    return client.post("/import", data={"file": (io.BytesIO(body), filename)},
                       content_type="multipart/form-data", headers=headers)


def renamed(value, names):
    """A payload with every player's name replaced, as keys and as values."""
    if isinstance(value, dict):
        return {names.get(k, k): renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


def seed_on(app, url, names, actions):
    """Record these actions on the table at `url` as the app would, through the rules."""
    db = storage.connect(app.config["DATABASE"])
    table_id = url.strip("/").split("/")[-1]
    for kind, payload in actions:
        replays.record(db, table_id, GAMES["yard"], list(names),
                       storage.last_seq(db, table_id), kind, payload)
