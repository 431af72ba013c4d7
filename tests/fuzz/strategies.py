"""Hypothesis strategies for fuzzing the rules: hostile values of every type and shape, and
well-formed values near the edges of what each game allows."""

from __future__ import annotations

import inspect
import random
import re
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from companion import rules
from companion.rules import (
    common,
    fifth_avenue,
    fifth_avenue_table,
    fifth_avenue_turns,
    street,
    street_table,
    urbanisation,
    urbanisation_actions,
    urbanisation_table,
    yard,
    yard_table,
)
from tests.tables import OFFICE, OPENINGS

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


# Legal games: each table's fuzzing starts from a fresh table or after some of these steps
# (`tests/tables.py` OPENINGS, with each game's other test data).
GAMES = OPENINGS
_OFFICE = OFFICE


# Street games in turn: steps worked out from the table's state (whose turn, which action, the
# upcoins, the accounts, the empty decks, the sites) as the rulebook orders a turn -----------------

_FLAT = {"each": "flat", "amount": 2, "project": None}
STREET_CARDS = [street.check_card(c) for c in (
    _OFFICE,
    {"project": "hotel", "no_gifts": True, "income": [{"each": "flat", "amount": -1}]},
    {"project": "store", "floor": "ground", "income": [_FLAT]},
    {"project": "apartment", "floor": "upper", "prestige": [{"each": "floor_below",
                                                             "amount": 2}]},
    {"project": "office", "double": True, "income": [{"each": "on_site", "amount": 1,
                                                      "project": "office"}]},
    {"roof": True, "prestige": [{"each": "flat", "amount": 3}]},
    {"project": "coffee", "roof": True, "income": [_FLAT]},
    {"gift": True, "roof": True},
    {"project": "service", "gift": True, "prestige": [{"each": "flat", "amount": -2}]},
    {"project": "coffee", "floor": "roof", "prestige": [_FLAT]},
)]


def street_sites(state: Any, player: str, card: dict) -> list[tuple[str, int]]:
    """Where `player` may build `card`, as (street, site): one's own street, a gift on an
    opponent's; a roof finishes a site, on which only a card built on top of a roof goes; a
    ground floor first, an upper floor not first; no gift where a card forbids them."""
    owners = [q for q in state.players if q != player] if card["gift"] else [player]
    found = []
    for owner in owners:
        for number, cards in enumerate(state.streets[owner], 1):
            roofed = any(below["roof"] for below in cards)
            if roofed != (card["floor"] == "roof"):
                continue
            if (card["floor"] == "ground" and cards) or (card["floor"] == "upper" and not cards):
                continue
            if card["gift"] and any(below["no_gifts"] for below in cards):
                continue
            found.append((owner, number))
    return found


def _placed(draw: st.DrawFn, state: Any, player: str) -> tuple[dict, str, int] | None:
    """A card `player` may build now and where, or None when no card fits anywhere."""
    fits = [(card, *where) for card in STREET_CARDS for where in street_sites(state, player, card)]
    return draw(st.sampled_from(fits)) if fits else None


@st.composite
def street_step(draw: st.DrawFn, state: Any) -> tuple[str, dict]:
    """A legal step of the turn at `state` (not over): the player at turn's 1st action (the
    upcoins on their deck, if any; else the top card of their deck, built or discarded), 2nd
    action (a purchase from an open deck they can pay, or the public pile's card, built at once
    or bought first) or the bought card, built or discarded."""
    player, step = state.turn, state.step
    if step == street_table.FIRST and state.upcoins[player]:
        return ("upcoins", {"player": player})
    bought: dict[str, Any] = {}
    if step == street_table.SECOND:
        decks = [q for q in state.players if not state.upcoins[q] and q not in state.decks_empty]
        deck = draw(st.sampled_from([street_table.PUBLIC, *decks]), label="bought from")
        cost = 0 if deck == street_table.PUBLIC else draw(
            st.integers(0, min(state.accounts[player], 99)), label="cost")
        if draw(st.booleans(), label="bought first"):
            return ("buy", {"player": player, "deck": deck, "cost": cost})
        bought = {"bought_from": deck, "cost": cost}
    placed = _placed(draw, state, player)
    if placed is None or (not bought and draw(st.sampled_from([False] * 4 + [True]),
                                               label="discarded")):
        if bought:  # nothing fits: bought, then discarded
            return ("buy", {"player": player, "deck": bought["bought_from"],
                            "cost": bought["cost"]})
        return ("discard", {"player": player})
    card, owner, site = placed
    return ("card", {"player": player, "street": owner, "site": site, "card": card, **bought})


@st.composite
def street_next(draw: st.DrawFn, state: Any, late: bool = False) -> tuple[str, dict]:
    """Any legal next step at `state` (not finished): the scoring once the final round is over;
    now and then a deck running out or a correction; else the next step of the turn. `late`:
    the game ends soon, a deck runs out now if the final round has not begun, and no more
    corrections."""
    if state.round_over:
        return ("finish", {})
    full = [q for q in state.players if q not in state.decks_empty]
    if late:
        what = "turn" if state.final_round else "deck"
    else:  # mostly a step of the turn (what a failing example shrinks to)
        what = draw(st.sampled_from(["turn"] * 24 + ["deck", "correction"]), label="what")
    if what == "deck" and full:
        return ("deck_empty", {"player": draw(st.sampled_from(full)),
                               "by": draw(st.sampled_from(state.players))})
    if what == "correction":
        built = [(q, n) for q in state.players for n, cards in enumerate(state.streets[q], 1)
                 if cards]
        if built and draw(st.booleans()):
            owner, site = draw(st.sampled_from(built))
            return ("remove", {"street": owner, "site": site})
        return ("account", {"player": draw(st.sampled_from(state.players)),
                            "amount": draw(st.integers(0, 30)), "reason": "miscount"})
    return draw(street_step(state))


@st.composite
def street_wrong_step(draw: st.DrawFn, state: Any) -> tuple[str, dict]:
    """A step the turn order refuses at `state`: a player acting in another's turn, the player
    at turn taking the wrong kind of action for the step (a purchase as the 1st action, a free
    card as the 2nd, a free card while upcoins lie on their deck, a second purchase), scoring
    before the final round is over, and once the game is over any step of a turn."""
    players, player, step = state.players, state.turn, state.step
    first, second, placing = street_table.FIRST, street_table.SECOND, street_table.PLACE_BOUGHT
    someone = draw(st.sampled_from(players), label="who")
    fits = [(card, *where) for card in STREET_CARDS for where in street_sites(state, someone,
                                                                              card)]
    card, owner, site = draw(st.sampled_from(fits)) if fits else (STREET_CARDS[0], someone, 1)
    deck = draw(st.sampled_from([street_table.PUBLIC, *players]), label="deck")
    free = ("card", {"player": someone, "street": owner, "site": site, "card": card})
    paid = ("card", {**free[1], "bought_from": deck, "cost": 0})
    turn_steps = [free, paid, ("buy", {"player": someone, "deck": deck, "cost": 0}),
                  ("discard", {"player": someone}), ("upcoins", {"player": someone})]
    if state.finished or state.round_over:
        return draw(st.sampled_from([*turn_steps, *([("finish", {})] if state.finished else []),
                                     ("deck_empty", {"player": someone})]))
    if someone != player:
        return draw(st.sampled_from(turn_steps))
    wrong = {first: [paid, turn_steps[2]], second: [free, turn_steps[3], turn_steps[4]],
             placing: [paid, turn_steps[2], turn_steps[4]]}[step]
    if step == first and state.upcoins[player]:
        wrong += [free, turn_steps[3]]
    elif step == first:
        wrong.append(turn_steps[4])  # no upcoins to take
    return draw(st.sampled_from([*wrong, ("finish", {})]))


# 5th Avenue games in turn: steps worked out from the table's state (the phase, whose turn and
# what it holds, the supply row, the commissioners, the auction under way and its outcomes) --------

_FA = fifth_avenue_table


def _fa_profile(draw: st.DrawFn) -> tuple[str, dict]:
    colours = {d: list(draw(st.permutations(fifth_avenue.COLOURS))) for d in _FA.DISTRICT_IDS}
    pairs = [draw(st.sampled_from([(3, 2), (2, 3)])) for _ in range(4)]
    return ("profile", {"colours": colours, "set_sizes": [n for pair in pairs for n in pair]})


def fa_plots(state: Any) -> list[tuple[str, int]]:
    """Where a business may go: an open district's plot that is empty or holds one business."""
    return [(d, k) for d in _FA.DISTRICT_IDS if d not in state.stopped
            for k, target in enumerate(state.board[d])
            if "owner" not in target and len(target.get("businesses", [])) < 2]


def _fa_business(draw: st.DrawFn, state: Any) -> tuple[str, dict] | None:
    current, targets = state.current_set, fa_plots(state)
    if current is None or not targets:
        return None
    tile = draw(st.sampled_from([k for k, t in enumerate(state.row[current]) if t is not None]))
    district, plot = draw(st.sampled_from(targets))
    return ("business", {"tile": tile, "district": district, "plot": plot})


def _fa_move(draw: st.DrawFn, state: Any) -> tuple[str, dict]:
    moves = [(c, to) for c in _FA.COMMISSIONERS for to in state.allowed_moves(c)]
    commissioner, to = draw(st.sampled_from(moves))
    return ("move", {"commissioner": commissioner, "to": to})


def _fa_alea_cards(draw: st.DrawFn) -> list[int]:
    """Black cards flipped until a value repeats (the repeating card included)."""
    values = draw(st.permutations([4, 5, 6]))
    drawn = values[:draw(st.integers(1, 3))]
    return [*drawn, draw(st.sampled_from(drawn))]


def _fa_cards_for(draw: st.DrawFn, build: int) -> dict[str, Any]:
    """Now and then the winning bid's cards, allowing at least `build` skyscrapers."""
    if not draw(st.booleans()):
        return {}
    allowed = [v for v, n in fifth_avenue.SKYSCRAPERS_ON_CARD.items() if n >= build]
    return {"cards": draw(st.lists(st.sampled_from(allowed), min_size=1, max_size=4))}


def _fa_auction(draw: st.DrawFn, state: Any) -> tuple[str, dict]:
    """Alea's cards first (2 players); then who won with an outcome the table offers."""
    auction = state.auctions[0]
    wins = []  # (player, colour, outcome)
    for player in state.players:
        if auction.place == _FA.CENTRAL_PARK:
            wins += [(player, None, o) for o in state.auction_outcomes(player, None)]
        else:
            wins += [(player, colour, o) for colour in state.colours_for(auction.place, player)
                     for o in state.auction_outcomes(player, colour)]
    if state.with_alea and not auction.alea_cards:  # a high bid only where a player can win
        high = draw(st.none() | st.integers(0, 30), label="high bid") if wins else None
        return ("alea_bid", {"cards": _fa_alea_cards(draw), **({} if high is None else
                                                               {"high_bid": high})})
    # With Alea somebody always wins: Alea, or the player whose bid beat Alea's; after two
    # passes (a high bid of 0) only Alea.
    others = ["alea"] if auction.alea_may_win else [] if state.with_alea else [None]
    if others and (not wins or auction.passed_to_alea or draw(st.integers(0, 3)) == 0):
        return ("auction", {"winner": draw(st.sampled_from(others))})
    player, colour, outcome = draw(st.sampled_from(wins))
    built = {"stop": True} if outcome == "stop" else {"build": outcome,
                                                      **_fa_cards_for(draw, outcome)}
    return ("auction", {"winner": player, **({"colour": colour} if colour else {}), **built})


@st.composite
def fifth_avenue_next(draw: st.DrawFn, state: Any, late: bool = False) -> tuple[str, dict]:
    """A legal next step at `state` (not finished): the board and the drawn set-up kept with
    turns, the first placer and the initial skyscrapers, the turn's 1st action (A skyscrapers,
    B a business, C a move, D a score) or its 3rd (a move), the auction under way, the final
    scoring and the tie-break. `late`: a business as the 1st action whenever one fits, so the
    game ends soon."""
    phase = state.phase
    if phase == "setup":
        if not state.board_set and draw(st.booleans(), label="profile"):
            return _fa_profile(draw)
        seed = draw(st.integers(0, 2**16), label="set-up")
        drawn = fifth_avenue_turns.draw_setup(state.colours, random.Random(seed))
        return ("setup", {**drawn, "turns": True})
    if phase == "placing" and state.first_placer is None:
        return ("first_placer", {"player": draw(st.sampled_from(state.players))})
    if phase == "placing":
        placer = state.next_placer
        free = [(d, k) for d in _FA.DISTRICT_IDS
                if not any(p.get("owner") == placer for p in state.board[d])
                for k, target in enumerate(state.board[d]) if not target]
        district, plot = draw(st.sampled_from(free))
        return ("initial_skyscraper", {"district": district, "plot": plot})
    if phase == "auctions":
        return _fa_auction(draw, state)
    if phase == "final" and not state.final_scored:
        tiles = draw(st.permutations(state.below_park))[:min(3, len(state.below_park))]
        return ("final", {"park_tiles": list(tiles)})
    if phase == "final":
        return ("hand_cards", {"cards": {p: draw(st.integers(0, 30))
                                         for p in state.tied_leaders}})
    player = state.current_player
    if state.turn_steps == ["move"] and draw(st.integers(0, 19), label="end_turn") == 0:
        return ("end_turn", {})  # an old log's option A: accepted after a lone move
    if state.turn_steps:
        return _fa_move(draw, state)
    business = _fa_business(draw, state)
    if late and business:
        return business
    first = draw(st.sampled_from(["skyscrapers", "business", "business", "move", "score"]),
                 label="1st action")
    if first == "business" and business:
        return business
    if first == "score" and state.scorable:
        return ("score", {"district": draw(st.sampled_from(state.scorable))})
    if first == "skyscrapers":
        return ("skyscrapers", {"player": player})
    return _fa_move(draw, state)


@st.composite
def fifth_avenue_wrong_step(draw: st.DrawFn, state: Any) -> tuple[str, dict]:
    """A step the table refuses at `state`: any step of a turn outside a turn (in the set-up,
    during the auctions, in the final phase and after the end), another player's option A, a
    1st action where the 3rd is due, an old log's end of turn not after a lone move, a build
    beyond the winner's supply, an auction or the final scoring while playing."""
    players, phase = state.players, state.phase
    someone = draw(st.sampled_from(players), label="who")
    district = draw(st.sampled_from(_FA.DISTRICT_IDS), label="district")
    targets = fa_plots(state) or [(district, 0)]
    where, plot = draw(st.sampled_from(targets))
    moves = [(c, to) for c in _FA.COMMISSIONERS for to in state.allowed_moves(c)]
    commissioner, to = draw(st.sampled_from(moves)) if moves else ("white", "34w")
    turn_steps = [("skyscrapers", {"player": someone}),
                  ("business", {"tile": 0, "district": where, "plot": plot}),
                  ("score", {"district": draw(st.sampled_from(state.scorable or [district]))}),
                  ("move", {"commissioner": commissioner, "to": to}), ("end_turn", {})]
    if phase != "playing":
        wrong = [*turn_steps]
        if phase == "auctions":
            wrong.append(_fa_beyond_supply(draw, state))
        if phase in ("final", "over"):
            wrong += [("auction", {"winner": someone, "build": 0}),
                      ("initial_skyscraper", {"district": where, "plot": plot})]
        if phase == "over" or state.final_scored:
            wrong.append(("final", {"park_tiles": list(state.below_park[:3])}))
        if phase == "final" and not state.final_scored:
            wrong.append(("hand_cards", {"cards": dict.fromkeys(players, 3)}))
        return draw(st.sampled_from(wrong))
    player = state.current_player
    wrong = [("auction", {"winner": someone, "build": 0}), ("alea_bid", {"cards": [4, 4]}),
             ("final", {"park_tiles": []}), ("first_placer", {"player": someone})]
    wrong += [("skyscrapers", {"player": p}) for p in players if p != player]
    if state.turn_steps != ["move"]:
        wrong.append(("end_turn", {}))
    if state.turn_steps:  # the 3rd action is due: no 1st action
        wrong += [("skyscrapers", {"player": player}), turn_steps[1]]
        if state.scorable:
            wrong.append(turn_steps[2])
    return draw(st.sampled_from(wrong))


def _fa_beyond_supply(draw: st.DrawFn, state: Any) -> tuple[str, dict]:
    """A winner building one skyscraper more than their supply holds (beyond 3, more than
    any bid allows)."""
    auction = state.auctions[0]
    player = draw(st.sampled_from(state.players))
    colours = ([] if auction.place == _FA.CENTRAL_PARK
               else state.colours_for(auction.place, player))
    colour = draw(st.sampled_from(colours)) if colours else None
    return ("auction", {"winner": player, "build": state.supply[player] + 1,
                        **({"colour": colour} if colour else {})})
