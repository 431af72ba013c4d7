"""Urbanisation's one-tap actions: the current player's actions that the table fully determines,
each with what it costs and earns.

An offer is an action payload the rules accept now. The rules themselves decide: each candidate
is applied to a copy of the table, and what the copy's tracking card gained or lost is the
offer's price. So an offer never shows an illegal action (no money for a house, no empty ground,
a factory that has produced, taxes once the tax marker reached the citizen marker) and never a
cost worked out twice. Amounts the table does not know stay with the detailed forms: the price
markers of a territory, a factory card's number, an invention card.

What the table cannot know but the players see at a glance gets one offer each: the work order
spaces show 1 to 3 markers of one colour (the rulebook's spaces: "1. 1. 2." and "2. 3."), so
each colour is offered with 1, 2 and 3.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .common import RuleError
from .text import Msg, Plural
from .urbanisation import BUILDINGS, COLOUR_NAMES, MAX_GRAIN, mill_worker
from .urbanisation_actions import (
    BONUS_FACTORIES,
    COLOURS,
    OTHER_FACTORY,
    CityCard,
    Factory,
    Invention,
    capacity,
    order_parts,
)
from .urbanisation_table import UrbanisationState

MOST_BUILT = 4  # the most buildings of one type a one-tap erect offers
SPACE_COUNTS = (1, 2, 3)  # the work orders one space of a factory card shows
# The actions in the order they are offered: money first, then what it buys.
OFFERED = ("taxes", "produce", "erect", "work_orders", "trade_grain", "sow")

Candidate = tuple[str, str, dict[str, Any], str]  # key, kind, payload (without the player), what


@dataclass(frozen=True)
class Offer:
    """One action the current player can take with one tap: the payload it records, what it
    is in words, and what it changes on his tracking card (money, VP, grain)."""

    key: str
    kind: str
    payload: Mapping[str, Any]
    what: str
    money: int
    vp: int
    grain: int

    @property
    def character(self) -> str | None:
        """The character card the action plays, if any."""
        return self.payload.get("character")


def offers(table: UrbanisationState) -> dict[str, list[Offer]]:
    """The current player's one-tap actions by action kind (OFFERED order); empty outside the
    action phases. Taxes that bring $0 (no citizens yet) are legal but only move the tax marker
    towards the citizen marker: not offered, the detailed form still takes them."""
    if table.segment != "actions" or table.finished:
        return {}
    player = str(table.current_player)
    frozen = pickle.dumps(without_reports(table), pickle.HIGHEST_PROTOCOL)
    found: dict[str, list[Offer]] = {}
    card = table.cards[player]
    free, _market = mill_worker(table.grain.market, len(table.players), held=card.grain)
    for key, kind, payload, what in candidates(card, mill_gives=free > 0):
        offer = _tried(table, frozen, player, (key, kind, payload, what))
        if offer is not None and not (kind == "taxes" and offer.money == 0):
            found.setdefault(kind, []).append(offer)
    return {kind: found[kind] for kind in OFFERED if kind in found}


def without_reports(table: UrbanisationState) -> UrbanisationState:
    """The table without its past turns' reports, which no action reads (an action only adds
    one): the copies an offer is tried on are then a third of the size, and quicker to make."""
    lighter = copy.copy(table)
    lighter.reports = []
    return lighter


def find_offer(offered: Mapping[str, list[Offer]], key: object) -> Offer | None:
    """The offer of this key among those `offers` made, if it is one."""
    return next((o for group in offered.values() for o in group if o.key == key), None)


def _tried(table: UrbanisationState, frozen: bytes, player: str,
           candidate: Candidate) -> Offer | None:
    """The candidate applied to a copy of the table: its offer, or None if the rules refuse."""
    key, kind, payload, what = candidate
    payload = {"player": player, **payload}
    after: UrbanisationState = pickle.loads(frozen)
    try:
        after.apply(kind, payload)
    except RuleError:
        return None
    before, now = table.cards[player], after.cards[player]
    return Offer(key, kind, payload, what, now.money - before.money,
                 after.vp(player) - table.vp(player), now.grain - before.grain)


def candidates(card: CityCard, mill_gives: bool = True) -> Iterator[Candidate]:
    """Every one-tap action worth trying for this tracking card (the rules sort out which are
    legal). A character the player holds is played with its action (the Architect, the Mill
    Worker, unless he gives nothing now: `mill_gives`) or offered beside it (the Tax Collector,
    the Farmer); keeping a character for later is done in the detailed form."""
    yield from _taxes(card)
    yield from _production(card)
    yield from _buildings(card)
    yield from _work_orders()
    yield from _trades(card, mill_gives)
    yield from _sowing(card)


def _taxes(card: CityCard) -> Iterator[Candidate]:
    """Collect taxes; twice with the Tax Collector."""
    yield "taxes", "taxes", {}, Msg("Collect taxes")
    if "tax_collector" in card.characters:
        yield ("taxes.tax_collector", "taxes", {"character": "tax_collector"},
               Msg("Twice, with the Tax Collector"))


def _production(card: CityCard) -> Iterator[Candidate]:
    """Produce goods at each factory: as many of its colour as it can make from the work orders
    held ("The production space of the factory card tells a player how many goods"); with the
    Any colour character, also its space filled from every colour (`filled`), where that makes
    more goods, and filled with the richest work orders, where that pays more ("Receive money
    according to the color of the work orders used")."""
    for factory in card.factories:
        goods = min(capacity(card, factory), card.orders[factory.colour])
        plain = {factory.colour: goods} if goods else {}
        if goods:
            yield (f"produce.{factory.number}", "produce",
                   {"factory": factory.number, "orders": plain},
                   Plural("Factory {number}: {n} {colour} good",
                          "Factory {number}: {n} {colour} goods", number=factory.number,
                          n=goods, colour=COLOUR_NAMES[factory.colour]))
        if "any_colour" in card.characters:
            yield from _any_colour(card, factory, plain)


def _any_colour(card: CityCard, factory: Factory, plain: dict[str, int]) -> Iterator[Candidate]:
    """The Any colour character's taps at a factory: its space filled own colour first (more
    goods than the plain tap), and richest first where that pays more than both."""
    offered = [plain]
    for richest in (False, True):
        orders = filled(card, factory, richest)
        if orders in offered or not _better(card, orders, offered):
            continue
        offered.append(orders)
        yield (f"produce.{factory.number}.any_colour{'.richest' if richest else ''}", "produce",
               {"factory": factory.number, "orders": orders, "character": "any_colour"},
               Msg("Factory {number} with the Any colour: {orders}",
                   number=factory.number, orders=orders_said(orders)))


def _better(card: CityCard, orders: dict[str, int], offered: list[dict[str, int]]) -> bool:
    """More goods than every tap offered, or as many and more money."""
    def worth(mix: dict[str, int]) -> tuple[int, int]:
        return sum(mix.values()), sum(card.good_money(c) * n for c, n in mix.items())
    return all(worth(orders) > worth(mix) for mix in offered)


def filled(card: CityCard, factory: Factory, richest: bool = False) -> dict[str, int]:
    """The Any colour character: "Use any color of work orders to produce any color of goods"
    at one factory. One tap fills its production space from the work orders held, its own
    colour first (or not: `richest`), then the most money first (white, grey, orange, with the
    inventions' $1 more); any other mix is the detailed form's."""
    room, orders = capacity(card, factory), {}
    by_money = sorted(COLOURS, key=card.good_money, reverse=True)
    first = () if richest else (factory.colour,)
    for colour in (*first, *(c for c in by_money if c not in first)):
        used = min(room, card.orders[colour])
        if used:
            orders[colour], room = used, room - used
    return orders


def orders_said(orders: Mapping[str, int]) -> str:
    """Work orders by colour, as a chip says them: "1 grey + 2 white"."""
    said = order_parts(orders)
    joined = said[0]
    for part in said[1:]:
        joined = Msg("{first} + {then}", first=joined, then=part)
    return joined


def _buildings(card: CityCard) -> Iterator[Candidate]:
    """Erect buildings of each type: one, then 2 up to MOST_BUILT in the same row, so a player
    wanting two houses taps "×2" (issue 26); an Architect held is played ($1 less each). The
    rules refuse what the money, the grounds or the houses standing do not allow."""
    architect = {"character": "architect"} if "architect" in card.characters else {}
    for kind, building in BUILDINGS.items():
        yield (f"erect.{kind}", "erect", {"building": kind, "count": 1, **architect},
               building.title)
        for n in range(2, MOST_BUILT + 1):
            yield (f"erect.{kind}.{n}", "erect", {"building": kind, "count": n, **architect},
                   Msg("×{n}", n=n))


def _work_orders() -> Iterator[Candidate]:
    """Receive work orders: each colour with each count a space shows."""
    for colour in COLOURS:
        for n in SPACE_COUNTS:
            yield (f"work_orders.{colour}.{n}", "work_orders", {"colour": colour, "count": n},
                   Msg("{n} {colour}", n=n, colour=COLOUR_NAMES[colour]))


def _trades(card: CityCard, mill_gives: bool) -> Iterator[Candidate]:
    """Trade grain: buy or sell each amount; a Mill Worker held is played with the purchase
    (his 2 free grain first), and alone, but not while he would give nothing ("If the field
    has no grain, the Mill Worker doesn't receive any"): he is kept for later then."""
    held = "mill_worker" in card.characters and mill_gives
    mill = {"character": "mill_worker"} if held else {}
    if mill:
        yield "trade_grain.mill", "trade_grain", mill, Msg("Only the free grain")
    for n in range(1, MAX_GRAIN + 1):
        yield f"trade_grain.buy.{n}", "trade_grain", {"buy": n, **mill}, Msg("Buy {n}", n=n)
    for n in range(1, card.grain + 1):
        yield f"trade_grain.sell.{n}", "trade_grain", {"sell": n}, Msg("Sell {n}", n=n)


def _sowing(card: CityCard) -> Iterator[Candidate]:
    """Sow seeds: 1 first, as the rulebook's action does ("places 1 grain marker"), then as
    many as the grain and the empty grounds allow (ruling "sow"); with the Farmer, 2 on his card
    (1 if that is all the grain) and the rest on the grounds."""
    most = min(card.grain, max(card.seed_room, 0))
    for n in sorted({most, 1} - {0}):
        yield f"sow.{n}", "sow", {"grain": n}, Msg("Sow {n}", n=n)
    if "farmer" in card.characters and card.grain:
        on_farmer = min(2, card.grain)
        seeds = min(card.grain - on_farmer, max(card.seed_room, 0))
        yield (f"sow.farmer.{seeds}", "sow",
               {"grain": seeds, "farmer": on_farmer, "character": "farmer"},
               Msg("Sow {n} and {farmer} on the Farmer", n=seeds, farmer=on_farmer) if seeds
               else Msg("Sow {farmer} on the Farmer", farmer=on_farmer))


# Cards seen before (issue 26): a factory card is the same card at every table (its number, the
# colour of its goods, its production space, its name), and so is an invention card (its ability
# and end bonus). What this table and this phone's earlier tables have seen is offered in one tap.

KnownFactory = Mapping[str, Any]  # {"colour", "goods", "name"}, by factory number


def known_factories(table: UrbanisationState) -> dict[int, dict[str, Any]]:
    """The factory cards this table has seen: every card in front of a player, active or not."""
    return {f.number: {"colour": f.colour, "goods": f.goods, "name": f.name}
            for card in table.cards.values() for f in card.factories}


def known_inventions(table: UrbanisationState) -> list[tuple[str | None, str | None]]:
    """The invention cards this table has seen, as (ability, end bonus's factory)."""
    return [(i.ability, i.factory) for card in table.cards.values() for i in card.inventions]


def attract_offers(table: UrbanisationState, known: Mapping[int, KnownFactory],
                   most: int | None = None) -> list[Offer]:
    """The known factory cards the current player may attract now, lowest number first (the
    factory deck is stacked by number, lowest on top, and the display shows its top three:
    `most` keeps the lowest numbers nobody owns and no administration removed): one offer for
    a new ground and one over each active factory of a lower number; the rules decide which
    are legal (on a copy)."""
    if table.segment != "actions" or table.finished:
        return []
    player = str(table.current_player)
    frozen = pickle.dumps(without_reports(table), pickle.HIGHEST_PROTOCOL)
    found = []
    for number in sorted(set(known) - out_of_play(table, known))[:most]:
        factory = _factory(number, known[number], table.inventions)
        payload = {"number": number, "colour": factory.colour, "goods": factory.goods,
                   "name": factory.name, "filled": True}
        olds = [f.number for f in table.cards[player].factories if f.active and f.number < number]
        for old in [None, *olds]:
            key = f"attract.{number}.{old or 'new'}"
            offer = _tried(table, frozen, player,
                           (key, "attract", {**payload, "upgrade": old}, factory.label))
            if offer is not None:
                found.append(offer)
    return found


def out_of_play(table: UrbanisationState, known: Mapping[int, KnownFactory]) -> set[int]:
    """The factory numbers owned or removed from the game. An administration whose display
    the table left out removed "the lowest numbered face-up factory card": with the deck
    stacked by number, the lowest known number neither owned nor removed then."""
    gone = set(table.removed)
    for then in table.unseen_removals:
        left = sorted(set(known) - then - gone)
        if left:
            gone.add(left[0])
    return gone | {f.number for card in table.cards.values() for f in card.factories}


def _factory(number: int, seen: KnownFactory, inventions: bool) -> Factory:
    """A factory card as seen before, its name as this game asks it: with the inventions one
    an invention card names or another factory; without them, any name."""
    name = str(seen.get("name") or "")
    if inventions and name not in BONUS_FACTORIES:
        name = OTHER_FACTORY
    elif not inventions and name == OTHER_FACTORY:
        name = ""
    return Factory(number, str(seen.get("colour")), int(seen.get("goods") or 1), name)


def inventions_open(table: UrbanisationState,
                    known: list[tuple[str | None, str | None]]) -> list[Invention]:
    """The known invention cards nobody at this table holds yet (each ability and each end
    bonus exists once), in the order seen."""
    held = known_inventions(table)
    abilities = {a for a, _f in held if a}
    bonuses = {f for _a, f in held if f}
    found: list[Invention] = []
    for ability, factory in known:
        if (ability and ability in abilities) or (factory and factory in bonuses):
            continue
        card = Invention(0, ability, factory, BONUS_FACTORIES.get(str(factory), 0))
        if (ability or factory) and card not in found:
            found.append(card)
    return found
