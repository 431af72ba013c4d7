"""Hypothesis strategies for fuzzing the rules: hostile values of every type and shape, and
well-formed values near the edges of what each game allows."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from companion import rules
from companion.rules import (
    common,
    fifth_avenue,
    fifth_avenue_table,
    street,
    street_table,
    urbanisation,
    urbanisation_actions,
    urbanisation_table,
    yard,
    yard_table,
)

MODULES = (common, yard, yard_table, fifth_avenue, fifth_avenue_table, street, street_table,
           urbanisation, urbanisation_actions, urbanisation_table)
TABLE_MODULES = (yard_table, fifth_avenue_table, street_table, urbanisation_table,
                 urbanisation_actions)


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value} if re.fullmatch(r"\w{1,20}", value) else set()
    if isinstance(value, dict):
        return {s for key in value for s in _strings(key)}
    if isinstance(value, (tuple, list, set, frozenset)):
        return {s for item in value for s in _strings(item)}
    return set()


# Every identifier the rules know (buildings, districts, colours, characters, ...), so random
# values often hit a real branch instead of the first "unknown ..." check.
WORDS = sorted({s for module in MODULES for name, value in vars(module).items()
                if not name.startswith("_") for s in _strings(value)})
# Every key a table action reads from its payload (or from a dict inside it).
PAYLOAD_KEYS = sorted({key for module in TABLE_MODULES
                       for pair in re.findall(r'\.get\("(\w+)"|\["(\w+)"\]',
                                              inspect.getsource(module)) for key in pair if key})
NAMES = ("Ann", "Ben", "Cy", "Dirk", "alea", "Alea", "public", "ANN", " Ann ", "")
HUGE = 10**30

ints = st.one_of(st.integers(-3, 30), st.integers(-HUGE, HUGE),
                 st.sampled_from([2**31, 2**63, -(2**63), 10**100, -(10**100)]))
texts = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["", " ", "\x00", "\u202e", "\ud800", "🏙️" * 30, "x" * 10_000, "é" * 5000,
                     "{}", "{0}", "{name}", "%s", "None", "NaN", "1e309", "-1", "3"]),
)
floats = st.floats(allow_nan=True, allow_infinity=True)
words = st.sampled_from(WORDS + list(NAMES))
scalars = st.one_of(ints, st.booleans(), st.none(), floats, texts, words)
json_keys = st.one_of(words, st.sampled_from(PAYLOAD_KEYS), st.text(max_size=8))
keys = st.one_of(json_keys, st.integers(-2, 8), st.sampled_from([4, 5, 6, None, True, 1.5]))

# Anything JSON can hold (payloads come from JSON), and anything Python can hand a function.
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(json_keys, inner,
                                                                         max_size=6),
    max_leaves=10)
hostile = st.recursive(
    scalars, lambda inner: st.one_of(st.lists(inner, max_size=6), st.tuples(inner, inner),
                                     st.frozensets(scalars, max_size=4),
                                     st.dictionaries(keys, inner, max_size=6)),
    max_leaves=20)
payloads = st.dictionaries(json_keys, json_values, max_size=5)


def valid(strategy: st.SearchStrategy[Any], check: Callable[[Any], Any]) -> st.SearchStrategy[Any]:
    """What `check` makes of the drawn values it accepts: the rules' own checked objects."""
    def attempt(value: Any) -> Any:
        try:
            return check(value)
        except rules.RuleError:
            return None
    return strategy.map(attempt).filter(lambda checked: checked is not None)


# Well-formed values near the edges ------------------------------------------------------------

count = st.one_of(st.integers(-2, 30), st.sampled_from([HUGE, -HUGE]))
players_n = st.integers(-1, 7)
player = st.sampled_from(NAMES)
players = st.lists(player, max_size=6)

# The construction yard
building = st.sampled_from([*yard.BUILDINGS, "castle"])
scoring = st.sampled_from([*yard.SCORINGS, "D", "a"])
currency = st.sampled_from([*yard.CURRENCIES, "red"])
counts = st.dictionaries(player, st.dictionaries(building, st.integers(-1, 12), max_size=7),
                         max_size=4)
money = st.dictionaries(player, st.dictionaries(currency, st.integers(-1, 140), max_size=5),
                        max_size=4)
per_player = st.dictionaries(player, st.integers(-1, 30), max_size=4)

# 5th Avenue
business = st.sampled_from([*fifth_avenue.BUSINESSES, "bank"])
plot = st.one_of(
    st.just({}),
    st.fixed_dictionaries({"businesses": st.lists(business, max_size=3)}),
    st.fixed_dictionaries({"owner": player, "skyscrapers": st.integers(-1, 18)}),
    st.fixed_dictionaries({}, optional={"owner": player, "skyscrapers": count,
                                        "businesses": st.lists(business, max_size=2)}),
)
district = st.lists(plot, min_size=4, max_size=6) | st.lists(plot, min_size=5, max_size=5)
district_id = st.sampled_from([*fifth_avenue.DISTRICT_IDS, "mars"])
position = st.sampled_from([*fifth_avenue.POSITIONS, "mars"])
black_cards = st.lists(st.sampled_from([4, 5, 6, 3, 7]), max_size=6)
deck = st.none() | st.dictionaries(st.sampled_from([4, 5, 6, 7]), st.integers(-1, 21), max_size=4)
board = st.dictionaries(district_id, district, max_size=3)
stopped = st.lists(district_id, max_size=3)
positions = st.lists(position, min_size=1, max_size=3) | st.fixed_dictionaries(
    {"white": position, "beige": position})
plot_colours = st.permutations(fifth_avenue.COLOURS) | st.lists(
    st.sampled_from([*fifth_avenue.COLOURS, "red"]), min_size=4, max_size=6)

# The street card game
project = st.sampled_from([*street.PROJECTS, None, "castle"])
effect = st.fixed_dictionaries(
    {"each": st.sampled_from([*street.EACH, "per_roof"]), "amount": st.integers(-21, 21)},
    optional={"project": project})
card = st.fixed_dictionaries({}, optional={
    "project": project, "double": st.booleans(), "roof": st.booleans(), "gift": st.booleans(),
    "floor": st.sampled_from([*street.FLOORS, "attic"]), "no_gifts": st.booleans(),
    "income": st.lists(effect, max_size=2), "prestige": st.lists(effect, max_size=2)})
site = st.lists(card, max_size=4)
a_street = st.lists(site, min_size=5, max_size=5) | st.lists(site, max_size=6)
site_number = st.integers(-1, 7)
# Cards drawn from the values the rules accept, so that most pass `check_card`: a street of up
# to twenty checked cards drawn from `card` would be refused so often that hypothesis gives up.
sound_effect = st.fixed_dictionaries(
    {"each": st.sampled_from(street.EACH), "amount": st.integers(-20, 20)},
    optional={"project": st.sampled_from([*street.PROJECTS, None])})
sound_card = st.fixed_dictionaries({}, optional={
    "project": st.sampled_from([*street.PROJECTS, None]), "double": st.booleans(),
    "roof": st.booleans(), "gift": st.booleans(), "floor": st.sampled_from(street.FLOORS),
    "no_gifts": st.booleans(), "income": st.lists(sound_effect, max_size=2),
    "prestige": st.lists(sound_effect, max_size=2)})
checked_card = valid(card | sound_card, street.check_card)
checked_effect = valid(effect, lambda effect: street.check_card(
    {"project": "office", "income": [effect]})["income"][0])
score = st.builds(street.Score, st.lists(st.integers(-50, 50), min_size=5, max_size=5).map(tuple),
                  st.integers(0, 30), st.integers(0, 10))

# Urbanisation
market = st.fixed_dictionaries({"barns": st.lists(st.integers(-1, 5), min_size=3, max_size=5),
                                "field": st.integers(-1, 5)})
grain = st.integers(-1, 9)
orders = st.dictionaries(st.sampled_from([*urbanisation.WORK_ORDER_VALUES, "red"]),
                         st.integers(-1, 16), max_size=4)
factories = st.dictionaries(player, st.lists(st.integers(-1, 20), max_size=4), max_size=4)
display = st.lists(st.none() | st.integers(-1, 20), min_size=2, max_size=4)
kind = st.sampled_from([*urbanisation.BUILDINGS, "castle"])

# Near-valid values for any payload key.
near_json = st.one_of(count, player, players, words, st.lists(words, max_size=4), card, per_player,
                      orders, black_cards)


# Legal games: each table's fuzzing starts from a fresh table or after some of these steps --------

def _buy(player: str, building: str, receiver: str | None = None) -> tuple[str, dict]:
    return ("buy", {"player": player, "building": building, **({"for": receiver} if receiver
                                                               else {})})


def _move(commissioner: str, to: str) -> tuple[str, dict]:
    return ("move", {"commissioner": commissioner, "to": to})


def _card(player: str, site: int, card: dict, owner: str | None = None) -> tuple[str, dict]:
    return ("card", {"player": player, "site": site, "card": card, "street": owner or player})


def _act(kind: str, player: str, **payload: Any) -> tuple[str, dict]:
    return (kind, {"player": player, **payload})


_OFFICE = {"project": "office", "income": [{"each": "flat", "amount": 2}],
           "prestige": [{"each": "on_street", "amount": 1, "project": "office"}]}
_START = {d: {"plot": 0, "kind": "boutique"} for d in fifth_avenue.DISTRICT_IDS}

GAMES: dict[str, tuple[list[str], list[tuple[str, dict]]]] = {
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
        ("setup", {"start": _START, "row": ["boutique", "jeweler", "gallery", "perfume"] * 5}),
        ("first_placer", {"player": "Ann"}),
        ("initial_skyscraper", {"district": "34w", "plot": 1}),
        ("initial_skyscraper", {"district": "34e", "plot": 1}),
        ("initial_skyscraper", {"district": "times", "plot": 2}),
        ("initial_skyscraper", {"district": "times", "plot": 1}),
        ("business", {"tile": 0, "district": "34w", "plot": 2}),
        _move("white", "34w"), ("score", {"district": "34w"}),
        _move("white", "times"), _move("white", "52w"), _move("white", "central_park"),
        _move("white", "city_hall"),
        ("alea_bid", {"high_bid": 9, "cards": [4, 5, 4]}),
        ("auction", {"winner": "Ann", "colour": "orange", "cards": [5], "build": 2}),
    ]),
    "street": (["Mia", "Ola", "Pit"], [
        _card("Mia", 1, _OFFICE),
        _card("Ola", 2, {"project": "hotel", "double": False, "no_gifts": True}),
        _card("Pit", 1, {"gift": True, "roof": True}, "Mia"),
        ("buy", {"player": "Mia", "deck": "Ola", "cost": 4}),
        ("upcoins", {"player": "Ola"}),
        ("buy", {"player": "Pit", "deck": "public"}),
        ("account", {"player": "Pit", "amount": 7}),
        ("deck_empty", {"player": "Ola"}),
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
        _act("taxes", "Ann"), _act("attract", "Ben", number=3, colour="orange", goods=2, name="Pottery"),
        _act("erect", "Cy", building="house"),
        _act("effect", "Ann", money=-1, grain=1, reason="correction"),
        _act("pass", "Ann"), _act("produce", "Ben", factory=3, orders={"orange": 2}),
        _act("taxes", "Cy"),
        ("administration", {"exchange": [], "display": [4, None, 7]}),
    ]),
}
