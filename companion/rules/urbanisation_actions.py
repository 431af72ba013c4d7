"""Urbanisation at the table, the pieces urbanisation_table.py keeps: each player's tracking card,
factories, inventions, the characters, and the small calculations the actions and the
administration share. The rules themselves live in urbanisation.py; this file only applies them
to a tracking card.

Rulebook: ../shared/rules/urbanisation.en.txt; rulings: RULINGS in urbanisation_table.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .common import RuleError, clean_text, require_count
from .text import Msg, Plural, listed
from .urbanisation import (
    CITIZEN_VP,
    COLOUR_NAMES,
    GOOD_VP,
    GRAIN_PER_VP,
    INVENTION_SPACES,
    MAX_GRAIN,
    TAX_START,
    WORK_ORDER_VALUES,
    Market,
    Setup,
    check_upgrade,
    harvest,
    invention_cost,
    produce_goods,
    turn_score,
    work_order_count,
)

COLOURS = tuple(WORK_ORDER_VALUES)  # white, grey, orange
SETUP_TURN, FINAL_TURN = 0, 7  # the VP record's "turns" before turn 1 and after turn 6
MAX_MONEY = 999
MAX_GOODS = 6  # the most goods a production space can be entered with
POOLS = ("house", "skyscraper", "administrative", "factory")
# The factories the invention cards name, each with the end bonus its card pays ("Receive 3
# victory points in Final Scoring if you own the Steelworks."). The other factory cards are not
# named in the rulebook text: the players choose "another factory" (OTHER_FACTORY) for them.
BONUS_FACTORIES = {"Steelworks": 3, "Car Factory": 4, "Electric Plant": 5, "Saw Mill": 1,
                   "Hotel": 1, "Oil Refinery": 2, "Law Firm": 2, "Software Company": 3,
                   "Stock Market": 4, "Weaving Mill": 1, "Pottery": 2, "Textile Factory": 3,
                   "Coalmine": 4}
OTHER_FACTORY = "other"
FACTORY_NAMES = {
    "Steelworks": Msg("Steelworks"), "Car Factory": Msg("Car Factory"),
    "Electric Plant": Msg("Electric Plant"), "Saw Mill": Msg("Saw Mill"), "Hotel": Msg("Hotel"),
    "Oil Refinery": Msg("Oil Refinery"), "Law Firm": Msg("Law Firm"),
    "Software Company": Msg("Software Company"), "Stock Market": Msg("Stock Market"),
    "Weaving Mill": Msg("Weaving Mill"), "Pottery": Msg("Pottery"),
    "Textile Factory": Msg("Textile Factory"), "Coalmine": Msg("Coalmine"),
    OTHER_FACTORY: Msg("another factory"),
}
SOURCES = {
    "house": Msg("Houses"), "skyscraper": Msg("Skyscrapers"),
    "administrative": Msg("Administrative buildings"), "factory": Msg("Factories"),
    "goods": Msg("Goods produced"), "citizens": Msg("Citizens"),
    "grain": Msg("Grain left after feeding"), "mayor": Msg("Mayor"),
    "invention": Msg("Invention cards"), "harvest": Msg("Inventions at the harvest"),
    "factory bonus": Msg("Highest factory total"),
    "invention bonus": Msg("Inventions with their factory"),
    "other": Msg("Other effects and corrections"),
}
INVENTION_SOURCES = frozenset({"invention", "harvest", "invention bonus"})  # with them only
POOL_NAMES = {"house": Msg("houses"), "skyscraper": Msg("skyscrapers"),
              "administrative": Msg("administrative buildings"),
              "factory": Msg("factory markers")}
POOL_WHAT = {"house": Msg("The house pool"), "skyscraper": Msg("The skyscraper pool"),
             "administrative": Msg("The administrative pool"),
             "factory": Msg("The factory pool")}


@dataclass(frozen=True)
class Character:
    """A character card: its name, the action it is played with, and its power."""

    name: str
    action: str | None
    power: str


CHARACTERS = {
    "land_swap": Character(Msg("Land swap"), "buy_land", Msg(
        "Exchange all the price markers in any 2 territories, then immediately purchase 1 of "
        "these territories.")),
    "architect": Character(Msg("Architect"), "erect", Msg(
        "Pay $1 less for each building you erect during 1 action phase.")),
    "mill_worker": Character(Msg("Mill Worker"), "trade_grain", Msg(
        "Take 2 grain markers for free from the field (none if the field is empty).")),
    "farmer": Character(Msg("Farmer"), "sow", Msg(
        "Sow 1 or 2 seeds on the Farmer card, harvested like grain in the building area.")),
    "double_orders": Character(Msg("Double work orders"), "work_orders", Msg(
        "Receive twice as many work orders; the additional ones are of the indicated colour.")),
    "any_factory": Character(Msg("Any factory"), "attract", Msg(
        "Acquire any one of the three available factories, even if not all its work order "
        "spaces are filled.")),
    "any_colour": Character(Msg("Any colour"), "produce", Msg(
        "Use any colour of work orders to produce at 1 factory; money by the colour of the work "
        "orders used.")),
    "tax_collector": Character(Msg("Tax Collector"), "taxes", Msg(
        "Collect taxes twice in 1 action phase.")),
    "professor": Character(Msg("Professor"), "invention", Msg(
        "Take all available invention cards at the docking space you move to.")),
    "mayor": Character(Msg("Mayor"), None, Msg("Start player this turn; 1 victory point.")),
}

ABILITIES = {
    "white_order": Msg("Receive 1 white work order in the factories phase"),
    "grey_order": Msg("Receive 1 grey work order in the factories phase"),
    "orange_order": Msg("Receive 1 orange work order in the factories phase"),
    "orange_to_grey": Msg("May exchange 2 orange for 2 grey work orders in the factories phase"),
    "white_money": Msg("Earn $4 (instead of $3) for white goods"),
    "grey_money": Msg("Earn $3 (instead of $2) for grey goods"),
    "orange_money": Msg("Earn $2 (instead of $1) for orange goods"),
    "white_vp": Msg("2 VP (instead of 1) for each white good"),
    "grey_vp": Msg("2 VP (instead of 1) for each grey good"),
    "orange_vp": Msg("2 VP (instead of 1) for each orange good"),
    "white_min2": Msg("White factories produce at least 2 goods"),
    "grey_min2": Msg("Grey factories produce at least 2 goods"),
    "orange_min2": Msg("Orange factories produce at least 2 goods"),
    "harvest_grain1": Msg("Receive 1 grain in the harvest"),
    "harvest_grain2": Msg("Receive 2 grain in the harvest"),
    "harvest_vp": Msg("1 VP per 2 grain on the tracking card in the harvest"),
    "sow_two": Msg("Sow up to 2 seeds per building ground"),
    "cheap_grain": Msg("Pay only $1 for each grain marker"),
}
# The 18 invention cards as the rulebook's card sheet ("The Invention Cards") prints them: each
# ability with the end bonus printed below it, if any ("Receive 1 grey work order during the
# "factories" administration phase. / Receive 3 victory points in Final Scoring if you own the
# Steelworks."). 13 name a factory (BONUS_FACTORIES, each once); 5 have no end bonus.
INVENTION_CARDS: dict[str, str | None] = {
    "grey_order": "Steelworks", "grey_money": "Car Factory", "grey_vp": "Electric Plant",
    "orange_to_grey": "Saw Mill", "white_min2": "Hotel", "grey_min2": "Oil Refinery",
    "white_order": "Law Firm", "white_money": "Software Company", "white_vp": "Stock Market",
    "harvest_grain1": None, "orange_min2": "Weaving Mill", "orange_order": "Pottery",
    "sow_two": None, "cheap_grain": None, "orange_money": "Textile Factory",
    "orange_vp": "Coalmine", "harvest_vp": None, "harvest_grain2": None,
}


@dataclass
class Factory:
    """A factory card in front of its owner: number, colour of its goods, how many goods its
    production space shows, its name (for the inventions' end bonus), active or not."""

    number: int
    colour: str
    goods: int
    name: str = ""
    active: bool = True
    produced: bool = False

    @property
    def title(self) -> str:
        """Which factory it is, in words: a name an invention card gives (translatable) or the
        table's own (without the inventions); blank for another factory or none."""
        if not self.name or self.name == OTHER_FACTORY:
            return ""
        return FACTORY_NAMES.get(self.name, self.name)

    @property
    def label(self) -> str:
        colour = COLOUR_NAMES[self.colour]
        if self.title:
            return Msg("factory {number} {name} ({colour})", number=self.number,
                       name=self.title, colour=colour)
        return Msg("factory {number} ({colour})", number=self.number, colour=colour)


@dataclass(frozen=True)
class Invention:
    """An invention card: the docking space it came from, its ability, its end bonus."""

    space: int
    ability: str | None
    factory: str | None
    vp: int

    @property
    def label(self) -> str:
        bonus = Msg("{vp} VP at the end with the {factory}", vp=self.vp,
                    factory=FACTORY_NAMES.get(str(self.factory), self.factory))
        if not self.ability:
            return bonus if self.factory else ""
        if not self.factory:
            return ABILITIES[self.ability]
        return Msg("{ability}; {bonus}", ability=ABILITIES[self.ability], bonus=bonus)


@dataclass
class CityCard:
    """A tracking card and what stands in the player's city. `houses` is the house line (a
    skyscraper moves it one more space); `standing` the houses on the board."""

    money: int = 0
    grounds: int = 1
    territories: int = 1
    houses: int = 1
    standing: int = 1
    skyscrapers: int = 0
    administrative: int = 0
    citizens: int = 0
    grain: int = 0
    orders: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COLOURS, 0))
    tax: int = TAX_START
    sown: int = 0
    # The building grounds holding seeds, counted as they are sown (`seeded`); the seeds of
    # sowings recorded before they were counted so (`packed`) are worked out two to a ground
    # with the invention, as those tables were refereed.
    seeded: int = 0
    packed: int = 0
    farmer: int = 0
    factories: list[Factory] = field(default_factory=list)
    inventions: list[Invention] = field(default_factory=list)
    characters: list[str] = field(default_factory=list)
    markers: list[int] = field(default_factory=list)

    def has(self, ability: str) -> bool:
        return any(card.ability == ability for card in self.inventions)

    def factory(self, number: int) -> Factory | None:
        return next((f for f in self.factories if f.number == number), None)

    def good_money(self, colour: str) -> int:
        """The money a good made with a work order of `colour` brings: "according to the value
        ... of the markers", $1 more with "Earn $4 (instead of $3) for white goods" (and grey's,
        orange's)."""
        return WORK_ORDER_VALUES[colour] + (1 if self.has(f"{colour}_money") else 0)

    def good_vp(self, colour: str) -> int:
        """The VP a good of a factory of `colour` brings: "1 victory point per good produced",
        2 with "2 VP (instead of 1) for each white good" (and grey's, orange's)."""
        return GOOD_VP * (2 if self.has(f"{colour}_vp") else 1)

    def owns(self, name: str) -> bool:
        """Whether a factory of this name is among his cards, active or inactive."""
        return any(f.name == name for f in self.factories)

    @property
    def order_count(self) -> int:
        return sum(self.orders.values())

    @property
    def seeds_per_ground(self) -> int:
        return 2 if self.has("sow_two") else 1

    @property
    def built(self) -> int:
        """Grounds under a house, a skyscraper or a factory marker (one per active factory)."""
        return self.standing + self.skyscrapers + sum(f.active for f in self.factories)

    @property
    def empty_grounds(self) -> int:
        """Grounds with no building and no seed: a seed sown before the invention "sow up to 2
        seeds per building ground" keeps its ground to itself (found by a rules audit: with the
        invention taken after sowing, a house went on a sown ground)."""
        per = self.seeds_per_ground
        return self.grounds - self.built - self.seeded - (self.packed + per - 1) // per

    @property
    def seed_room(self) -> int:
        """Sow seeds: "Each empty building ground may hold only 1 grain marker" (2 with the
        invention, also on a ground sown before it)."""
        return (self.grounds - self.built) * self.seeds_per_ground - self.sown

    def sow(self, seeds: int, counted: bool) -> None:
        """Seeds sown, first where a sown ground has room (with the invention), then on as few
        empty grounds as they fit on (`counted`: those grounds counted now; else worked out
        from the seeds, as the tables recorded before were)."""
        per = self.seeds_per_ground
        if counted:
            room = self.seeded * per - (self.sown - self.packed)
            self.seeded += (max(0, seeds - room) + per - 1) // per
        else:
            self.packed += seeds
        self.sown += seeds


@dataclass
class GrainArea:
    """The grain on the board: barns 1-4 and the field (the market), and the return area."""

    market: Market
    return_area: int


@dataclass
class Report:
    """The readable report of an administration (or the final scoring): lines per player, then
    the lines for the board."""

    title: str
    players: dict[str, list[str]]
    board: list[str] = field(default_factory=list)


def check_colour(colour: object, what: str | None = None) -> str:
    if colour not in COLOURS:
        raise RuleError(Msg("Unknown {what} colour {colour!r}: white, grey or orange.",
                            what=what or Msg("work order"), colour=colour))
    return str(colour)


def check_flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(Msg("{what} is yes or no.", what=what))
    return value


def check_orders(orders: object) -> dict[str, int]:
    """Work orders by colour, every colour present (validated by the rules module)."""
    work_order_count(orders)
    assert isinstance(orders, Mapping)
    return {c: int(orders.get(c, 0)) for c in COLOURS}


def check_signed(value: object, what: str, limit: int = MAX_MONEY) -> int:
    """A change the players enter, up or down."""
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > limit:
        raise RuleError(Msg("{what} must be a whole number between -{limit} and {limit}.",
                            what=what, limit=limit))
    return value


def check_name(name: object, what: str) -> str:
    """A name or reason the players typed, cleaned (`clean_text`), at most 40 characters."""
    if name is None:
        return ""
    if not isinstance(name, str) or len(clean_text(name)) > 40:
        raise RuleError(Msg("{what} is a name of at most 40 characters.", what=what))
    return clean_text(name)


def new_factory(payload: Mapping[str, object], inventions: bool) -> Factory:
    """The factory card a player attracts: its number, colour, goods and which factory it is
    (needed with the inventions, whose end bonuses name factories)."""
    return Factory(require_count(payload.get("number"), Msg("The factory number"), 1, 99),
                   check_colour(payload.get("colour"), Msg("factory")),
                   require_count(payload.get("goods"), Msg("The goods on its production space"),
                                 1, MAX_GOODS),
                   factory_name(payload.get("name"), inventions))


def factory_name(name: object, inventions: bool) -> str:
    """Which factory a card is. With the inventions, whose end bonuses name factories, one the
    invention cards name (BONUS_FACTORIES) or another (OTHER_FACTORY), never blank; without
    them, any name or none (the rulebook's example has a Bakery and a Windmill)."""
    if not inventions:
        return check_name(name, Msg("The factory's name"))
    if name in (None, ""):
        raise RuleError(Msg("Say which factory it is (one an invention card names, or another "
                            "factory): an invention's end bonus may count with it."))
    if name == OTHER_FACTORY:
        return OTHER_FACTORY
    return bonus_factory(name)


def bonus_factory(name: object) -> str:
    """A factory an invention card names, as the card names it."""
    known = {known.casefold(): known for known in BONUS_FACTORIES}
    if not isinstance(name, str) or name.strip().casefold() not in known:
        raise RuleError(Msg("No invention card names the factory {name!r}: choose one of "
                            "{names}.", name=name, names=listing(list(BONUS_FACTORIES))))
    return known[name.strip().casefold()]


def invention_card(card: object, space: int) -> Invention:
    """An invention card as the players describe it: ability, end bonus, or both."""
    if not isinstance(card, Mapping):
        raise RuleError(Msg("Describe each invention card by its ability and its end bonus."))
    ability = card.get("ability") or None
    if ability is not None and (not isinstance(ability, str) or ability not in ABILITIES):
        raise RuleError(Msg("Unknown invention ability {ability!r}.", ability=ability))
    factory = bonus_factory(card["factory"]) if card.get("factory") else None
    if factory is None and card.get("vp"):
        raise RuleError(Msg("An end bonus names its factory: choose it."))
    vp = BONUS_FACTORIES[factory] if factory else 0
    if factory and card.get("vp", vp) != vp:
        raise RuleError(Msg("The invention card with the {factory} pays {vp} VP at the end.",
                            factory=FACTORY_NAMES[factory], vp=vp))
    if ability is None and factory is None:
        raise RuleError(Msg("Describe the invention card: its ability, its end bonus, or both."))
    return Invention(space, None if ability is None else str(ability), factory, vp)


def printed_inventions() -> list[Invention]:
    """The invention cards as printed (INVENTION_CARDS): one choice each, its ability and end
    bonus together (space 0: not taken yet)."""
    return [Invention(0, ability, factory, BONUS_FACTORIES[factory] if factory else 0)
            for ability, factory in INVENTION_CARDS.items()]


def cheapest_marker(markers: Sequence[int], to: int) -> int | None:
    """The marker whose move to docking space `to` costs least ("The first space of each
    movement is free; each additional space costs $1"): the one on the track nearest to its
    left, or a new marker (None: "A new action marker always enter at the leftmost space")
    when none lies left of it."""
    left = [(space, index) for index, space in enumerate(markers) if space < to]
    return max(left)[1] if left else None


def cheapest_move(markers: Sequence[int], to: int) -> int:
    """What a move to docking space `to` costs with the marker that makes it cheapest
    (`cheapest_marker`): the price each docking space's button says."""
    index = cheapest_marker(markers, to)
    return invention_cost(to - (0 if index is None else markers[index]))


def capacity(card: CityCard, factory: Factory) -> int:
    """The goods a factory may produce: its production space, or at least 2 with the invention
    "All of your <colour> factories produce at least 2 goods"."""
    return max(factory.goods, 2) if card.has(f"{factory.colour}_min2") else factory.goods


def production(card: CityCard, factory: Factory, orders: dict[str, int]) -> tuple[int, int]:
    """Produce goods: money by the work orders' value, 1 VP per good (urbanisation.py), plus the
    inventions "Earn $4 (instead of $3) ..." (+$1 per work order of that colour) and "Receive 2
    points (instead of 1) for each <colour> good" (the factory's colour). Returns (money, VP)."""
    produce_goods(orders)  # at least one work order, each of a colour
    money = sum(card.good_money(colour) * n for colour, n in orders.items())
    return money, card.good_vp(factory.colour) * sum(orders.values())


def listing(parts: Sequence[str]) -> str:
    """'A, B, C' (or 'none'), keeping each part translatable."""
    return listed(parts) if parts else Msg("none")


def work_order_gains(count: int, colour: str, extra: str | None) -> dict[str, int]:
    """The work orders a player takes from a space showing `count` of `colour`: as many again
    of `extra` with the Double work orders character ("twice as many"; None without it)."""
    return {c: count * ((c == colour) + (c == extra)) for c in COLOURS}


def orders_in_words(orders: Mapping[str, int]) -> str:
    """'2 white, 1 orange' (or 'none'): work orders by colour."""
    return listing(order_parts(orders))


def order_parts(orders: Mapping[str, int]) -> list[str]:
    """Work orders by colour, each its own words: '2 white', '1 orange' (none of a colour left
    out)."""
    return [Msg("{n} {colour}", n=n, colour=COLOUR_NAMES[c]) for c, n in orders.items() if n]


def _harvest_short(sown: int, more: int, due: int, extra: int, grain: int) -> str:
    """A harvest the 8 grain or the supply cut short, said why (found at a table: "Harvest: 0
    sown back, 0 more: 8 grain." read as a harvest, of a player at 8 whose inventions' grain
    found no room)."""
    why = (Msg("at most {most} grain", most=MAX_GRAIN) if grain == MAX_GRAIN
           else Msg("no more grain in the supply"))
    if not sown:
        return Msg("Harvest: {more} of {extra} from inventions ({why}): {grain} grain.",
                   more=more, extra=extra, why=why, grain=grain)
    return Msg("Harvest: {sown} sown back, {more} of {due} more ({why}): {grain} grain.",
               sown=sown, more=more, due=due, why=why, grain=grain)


def harvest_card(card: CityCard, area: GrainArea, players: int) -> tuple[list[str], int]:
    """Harvest for one player: the sown grain (and the Farmer's) back plus one more each, the
    inventions' grain, then "1 point per 2 grain". Changes card and area; returns (lines, VP)."""
    sown = card.sown + card.farmer
    extra = card.has("harvest_grain1") + 2 * card.has("harvest_grain2")
    before = card.grain
    result = harvest(sown, before, area.market, area.return_area, players, extra=extra)
    area.market, area.return_area = result.market, result.return_area
    card.grain, card.sown, card.farmer = result.grain, 0, 0
    card.seeded = card.packed = 0
    lines: list[str] = []
    if result.left_over:
        lines.append(Msg("Harvest: {back} of {sown} sown back, the rest to the return area (at "
                         "most {most} grain): {grain} grain.", back=sown - result.left_over,
                         sown=sown, most=MAX_GRAIN, grain=result.grain))
    elif extra and result.grain - before == 2 * sown + extra:  # all of it: each part said
        lines.append(Msg("Harvest: {sown} sown back, {more} more, {extra} from inventions: "
                         "{grain} grain.", sown=sown, more=sown, extra=extra, grain=result.grain)
                     if sown else Msg("Harvest: {extra} from inventions: {grain} grain.",
                                      extra=extra, grain=result.grain))
    elif sown or extra:  # what the 8 grain or the supply let in, the inventions' with it
        more, due = result.grain - before - sown, sown + extra
        lines.append(Msg("Harvest: {sown} sown back, {more} more: {grain} grain.", sown=sown,
                         more=more, grain=result.grain) if more == due else
                     _harvest_short(sown, more, due, extra, result.grain))
    vp = card.grain // 2 if card.has("harvest_vp") else 0
    if vp:
        lines.append(Msg("Invention: 1 VP per 2 grain: +{vp} VP.", vp=vp))
    return lines, vp


def factories_card(card: CityCard, supply: dict[str, int], exchange: bool) -> list[str]:
    """Factories phase for one player: the inventions' work orders (while the board has them),
    then the optional exchange of 2 orange for 2 grey. Changes card and supply."""
    lines: list[str] = []
    for colour in COLOURS:
        if card.has(f"{colour}_order") and supply[colour]:
            card.orders[colour] += 1
            supply[colour] -= 1
            lines.append(Msg("Invention: +1 {colour} work order.", colour=COLOUR_NAMES[colour]))
    if exchange:
        if card.orders["orange"] < 2 or supply["grey"] < 2:
            raise RuleError(Msg("The exchange needs 2 orange work orders on the card and 2 grey "
                                "ones on the board."))
        card.orders["orange"] -= 2
        card.orders["grey"] += 2
        supply["orange"] += 2
        supply["grey"] -= 2
        lines.append(Msg("Invention: 2 orange work orders exchanged for 2 grey."))
    return lines


def citizens_card(card: CityCard) -> tuple[list[str], int, int, int]:
    """Citizens and feeding for one player (urbanisation.turn_score). Changes the card; returns
    (lines, citizen VP, grain VP, grain eaten)."""
    score = turn_score(card.houses, card.grain, card.order_count)
    lines: list[str] = [
        Msg("Citizens: {citizens} (houses {houses}, grain {grain}, work orders {orders}): "
            "{each} VP each, +{vp} VP.", citizens=score.citizens, houses=card.houses,
            grain=card.grain, orders=card.order_count, each=CITIZEN_VP, vp=score.citizen_vp),
        Msg("Feeding: {eaten} grain eaten, {left} left: 1 VP per {per}, +{vp} VP.",
            eaten=score.citizens, left=score.grain_left, per=GRAIN_PER_VP, vp=score.grain_vp)]
    card.citizens, card.grain = score.citizens, score.grain_left
    return lines, score.citizen_vp, score.grain_vp, score.citizens


def per_player(values: object, players: list[str], what: str, low: int,
               high: int) -> dict[str, int]:
    """One number for everybody, or one per player."""
    if isinstance(values, Mapping):
        if set(values) != set(players):
            raise RuleError(Msg("Enter the {what} of every player.", what=what))
        return {p: require_count(values[p], Msg("{player}'s {what}", player=p, what=what), low,
                                 high) for p in players}
    value = require_count(values, Msg("The {what}", what=what), low, high)
    return dict.fromkeys(players, value)


def check_pools(pools: object) -> dict[str, int]:
    """Pool sizes the table chose to count: houses, skyscrapers, administrative, factories."""
    if not isinstance(pools, Mapping) or not set(pools) <= set(POOLS):
        raise RuleError(Msg("Pool sizes are given for house, skyscraper, administrative and "
                            "factory."))
    return {str(k): require_count(v, POOL_WHAT[str(k)], 0, 99) for k, v in pools.items()}


def trade_note(player: str, free: int, buy: int, cost: int, sell: int, paid: int) -> str:
    """What a trade did: the Mill Worker's free grain, then the purchase or the sale."""
    deal = (Msg("bought {n} grain for ${cost}", n=buy, cost=cost) if buy
            else Msg("sold {n} grain for ${paid}", n=sell, paid=paid) if sell else None)
    if free:
        took = Msg("took {n} grain free", n=free)
        did = took if deal is None else Msg("{first} and {then}", first=took, then=deal)
    else:
        did = deal or Msg("took no grain (the field is empty)")
    return Msg("{player} {did}.", player=player, did=did)


def upgraded(card: CityCard, upgrade: object, number: int) -> Factory | None:
    """The active factory an upgrade covers (urbanisation.check_upgrade: a higher number)."""
    if upgrade is None:
        return None
    old = card.factory(require_count(upgrade, Msg("The factory to upgrade"), 1))
    if old is None or not old.active:
        raise RuleError(Msg("There is no active factory {number} to upgrade.", number=upgrade))
    check_upgrade(old.number, number)
    return old


def check_sowing(player: str, card: CityCard, seeds: int, on_farmer: int, farmer: bool) -> None:
    """Sow seeds: grain from the card, one per empty building ground (two with the invention);
    seeds on the Farmer card only with the Farmer, who takes 1 or 2."""
    if farmer != bool(on_farmer):
        raise RuleError(Msg("Seeds on the Farmer card need the Farmer; the Farmer takes 1 or "
                            "2."), key="farmer")
    if seeds + on_farmer == 0:
        raise RuleError(Msg("Sow at least one grain."), key="grain")
    if seeds + on_farmer > card.grain:
        raise RuleError(Msg("{player} has only {n} grain to sow.", player=player, n=card.grain)
                        if card.grain else Msg("{player} has no grain to sow.", player=player),
                        key="grain")
    if seeds > card.seed_room:  # said under the grain typed (found at a table: in the strip)
        raise RuleError(Msg("Each empty building ground holds {per} grain: {player} has room "
                            "for {room}.", per=card.seeds_per_ground, player=player,
                            room=card.seed_room), key="grain")


def check_goods(player: str, card: CityCard, factory: Factory, orders: dict[str, int],
                any_colour: bool) -> None:
    """Produce goods: at least one, of the factory's colour (any with the Any colour
    character), up to its production space, from work orders the player holds."""
    goods = sum(orders.values())
    if not goods:
        raise RuleError(Msg("Producing goods takes at least one work order."))
    if not any_colour and any(n for c, n in orders.items() if c != factory.colour):
        raise RuleError(Msg("Factory {number} makes {colour} goods from {colour} work orders "
                            "(unless Any colour is played).", number=factory.number,
                            colour=COLOUR_NAMES[factory.colour]))
    if goods > capacity(card, factory):
        raise RuleError(Plural("Factory {number} produces at most {n} good.",
                               "Factory {number} produces at most {n} goods.",
                               number=factory.number, n=capacity(card, factory)))
    for c, n in orders.items():
        if n > card.orders[c]:
            raise RuleError(Plural("{player} has only {n} {colour} work order.",
                                   "{player} has only {n} {colour} work orders.", player=player,
                                   n=card.orders[c], colour=COLOUR_NAMES[c]) if card.orders[c]
                            else Msg("{player} has no {colour} work orders.", player=player,
                                     colour=COLOUR_NAMES[c]))


def invention_marker(player: str, card: CityCard,
                     payload: Mapping[str, Any]) -> tuple[int | None, int]:
    """The marker that moves and the space it starts from: a new one (None; it starts before
    space 1) or one on the track, named by the docking space it stands on (`start`, 0 for a new
    one), so that an earlier move taken out never makes it another marker. Older logs name it
    by its place in the player's list (`marker`)."""
    if "start" in payload:
        start = require_count(payload["start"], Msg("The marker's docking space"), 0,
                              INVENTION_SPACES)
        if not start:
            return None, 0
        if start not in card.markers:
            raise RuleError(Msg("{player} has no marker on docking space {space}.",
                                player=player, space=start))
        return card.markers.index(start), start
    marker = payload.get("marker")
    if marker is None:
        return None, 0
    if not card.markers:
        raise RuleError(Msg("{player} has no marker on the invention track: enter a new one.",
                            player=player))
    index = require_count(marker, Msg("The invention marker"), 0, len(card.markers) - 1)
    return index, card.markers[index]


def check_new_abilities(taken: list[Invention], owned: list[str | None]) -> None:
    """Each invention ability exists once in the game."""
    abilities = [i.ability for i in taken if i.ability]
    for ability in abilities:
        if ability in owned or abilities.count(ability) > 1:
            raise RuleError(Msg("The invention “{ability}” is already taken: each exists "
                                "once.", ability=ABILITIES.get(ability, ability)))


def check_new_bonuses(taken: list[Invention], owned: list[str | None]) -> None:
    """Each end bonus is on one invention card: the thirteen factories are named once each."""
    bonuses = [i.factory for i in taken if i.factory]
    for factory in bonuses:
        if factory in owned or bonuses.count(factory) > 1:
            raise RuleError(Msg("The invention with the end bonus for the {factory} is already "
                                "taken: each exists once.", factory=FACTORY_NAMES[factory]))


def setup_lines(board: Setup | None) -> list[str]:
    """What the board needs for this number of players."""
    if board is None:
        return []
    lines: list[str] = [
        Msg("Barns 1-4 and the field: {n} grain each; return area: {back}.", n=board.players,
            back=board.return_area),
        Msg("Factories: {cards}.", cards=board.factory_cards),
        Msg("Character cards: {n} on display, the Mayor set aside.", n=board.characters)]
    if board.covered_territories:
        lines.append(Msg("Cover the territories not used with {n} players.", n=board.players))
    return lines
