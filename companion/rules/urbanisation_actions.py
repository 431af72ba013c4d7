"""Urbanisation at the table, the pieces urbanisation_table.py keeps: each player's tracking card,
factories, inventions, the characters, and the small calculations the actions and the
administration share. The rules themselves live in urbanisation.py; this file only applies them
to a tracking card.

Rulebook: ../shared/rules/urbanisation.en.txt; rulings: RULINGS in urbanisation_table.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .common import RuleError, join_names, require_count
from .urbanisation import (
    CITIZEN_VP,
    GRAIN_PER_VP,
    TAX_START,
    WORK_ORDER_VALUES,
    Market,
    Setup,
    check_upgrade,
    harvest,
    produce_goods,
    turn_score,
    work_order_count,
)

COLOURS = tuple(WORK_ORDER_VALUES)  # white, grey, orange
SETUP_TURN, FINAL_TURN = 0, 7  # the VP record's "turns" before turn 1 and after turn 6
MAX_MONEY = 999
MAX_GOODS = 6  # the most goods a production space can be entered with
POOLS = ("house", "skyscraper", "administrative", "factory")
MAX_INVENTION_BONUS = 5  # "Receive 5 victory points in Final Scoring if you own the Electric Plant"
SOURCES = {
    "house": "Houses", "skyscraper": "Skyscrapers", "administrative": "Administrative buildings",
    "factory": "Factories", "goods": "Goods produced", "citizens": "Citizens",
    "grain": "Grain left after feeding", "mayor": "Mayor", "invention": "Invention cards",
    "harvest": "Inventions at the harvest", "factory bonus": "Highest factory total",
    "invention bonus": "Inventions with their factory", "other": "Other effects and corrections",
}


@dataclass(frozen=True)
class Character:
    """A character card: its name, the action it is played with, and its power."""

    name: str
    action: str | None
    power: str


CHARACTERS = {
    "land_swap": Character("Land swap", "buy_land", "Exchange all the price markers in any 2 "
                           "territories, then immediately purchase 1 of these territories."),
    "architect": Character("Architect", "erect", "Pay $1 less for each building you erect "
                           "during 1 action phase."),
    "mill_worker": Character("Mill Worker", "trade_grain", "Take 2 grain markers for free from "
                             "the field (none if the field is empty)."),
    "farmer": Character("Farmer", "sow", "Sow 1 or 2 seeds on the Farmer card, harvested like "
                        "grain in the building area."),
    "double_orders": Character("Double work orders", "work_orders", "Receive twice as many work "
                               "orders; the additional ones are of the indicated colour."),
    "any_factory": Character("Any factory", "attract", "Acquire any one of the three available "
                             "factories, even if not all its work order spaces are filled."),
    "any_colour": Character("Any colour", "produce", "Use any colour of work orders to produce "
                            "at 1 factory; money by the colour of the work orders used."),
    "tax_collector": Character("Tax Collector", "taxes", "Collect taxes twice in 1 action phase."),
    "professor": Character("Professor", "invention", "Take all available invention cards at the "
                           "docking space you move to."),
    "mayor": Character("Mayor", None, "Start player this turn; 1 victory point."),
}

ABILITIES = {
    "white_order": "Receive 1 white work order in the factories phase",
    "grey_order": "Receive 1 grey work order in the factories phase",
    "orange_order": "Receive 1 orange work order in the factories phase",
    "orange_to_grey": "May exchange 2 orange for 2 grey work orders in the factories phase",
    "white_money": "Earn $4 (instead of $3) for white goods",
    "grey_money": "Earn $3 (instead of $2) for grey goods",
    "orange_money": "Earn $2 (instead of $1) for orange goods",
    "white_vp": "2 VP (instead of 1) for each white good",
    "grey_vp": "2 VP (instead of 1) for each grey good",
    "orange_vp": "2 VP (instead of 1) for each orange good",
    "white_min2": "White factories produce at least 2 goods",
    "grey_min2": "Grey factories produce at least 2 goods",
    "orange_min2": "Orange factories produce at least 2 goods",
    "harvest_grain1": "Receive 1 grain in the harvest",
    "harvest_grain2": "Receive 2 grain in the harvest",
    "harvest_vp": "1 VP per 2 grain on the tracking card in the harvest",
    "sow_two": "Sow up to 2 seeds per building ground",
    "cheap_grain": "Pay only $1 for each grain marker",
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
    def label(self) -> str:
        name = f" {self.name}" if self.name else ""
        return f"factory {self.number}{name} ({self.colour})"


@dataclass(frozen=True)
class Invention:
    """An invention card: the docking space it came from, its ability, its end bonus."""

    space: int
    ability: str | None
    factory: str | None
    vp: int

    @property
    def label(self) -> str:
        parts = [ABILITIES[self.ability]] if self.ability else []
        if self.factory:
            parts.append(f"{self.vp} VP at the end with the {self.factory}")
        return "; ".join(parts)


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
    farmer: int = 0
    factories: list[Factory] = field(default_factory=list)
    inventions: list[Invention] = field(default_factory=list)
    characters: list[str] = field(default_factory=list)
    markers: list[int] = field(default_factory=list)

    def has(self, ability: str) -> bool:
        return any(card.ability == ability for card in self.inventions)

    def factory(self, number: int) -> Factory | None:
        return next((f for f in self.factories if f.number == number), None)

    def owns(self, name: str) -> bool:
        """Whether a factory of this name is among his cards, active or inactive."""
        return any(f.name.casefold() == name.casefold() for f in self.factories)

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
        per = self.seeds_per_ground
        return self.grounds - self.built - (self.sown + per - 1) // per

    @property
    def seed_room(self) -> int:
        """Sow seeds: "Each empty building ground may hold only 1 grain marker" (2 with the
        invention)."""
        return (self.grounds - self.built) * self.seeds_per_ground - self.sown


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


def check_colour(colour: object, what: str = "work order") -> str:
    if colour not in COLOURS:
        raise RuleError(f"Unknown {what} colour {colour!r}: white, grey or orange.")
    return str(colour)


def check_flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(f"{what} is yes or no.")
    return value


def check_orders(orders: object) -> dict[str, int]:
    """Work orders by colour, every colour present (validated by the rules module)."""
    work_order_count(orders)
    assert isinstance(orders, Mapping)
    return {c: int(orders.get(c, 0)) for c in COLOURS}


def check_signed(value: object, what: str, limit: int = MAX_MONEY) -> int:
    """A change the players enter, up or down."""
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > limit:
        raise RuleError(f"{what} must be a whole number between -{limit} and {limit}.")
    return value


def check_name(name: object, what: str) -> str:
    if name is None:
        return ""
    if not isinstance(name, str) or len(name.strip()) > 40:
        raise RuleError(f"{what} is a name of at most 40 characters.")
    return name.strip()


def new_factory(payload: Mapping[str, object]) -> Factory:
    """The factory card a player attracts: its number, colour, goods and (optional) name."""
    return Factory(require_count(payload.get("number"), "The factory number", 1, 99),
                   check_colour(payload.get("colour"), "factory"),
                   require_count(payload.get("goods"), "The goods on its production space", 1,
                                 MAX_GOODS),
                   check_name(payload.get("name"), "The factory's name"))


def invention_card(card: object, space: int) -> Invention:
    """An invention card as the players describe it: ability, end bonus, or both."""
    if not isinstance(card, Mapping):
        raise RuleError("Describe each invention card by its ability and its end bonus.")
    ability = card.get("ability") or None
    if ability is not None and (not isinstance(ability, str) or ability not in ABILITIES):
        raise RuleError(f"Unknown invention ability {ability!r}.")
    factory = check_name(card.get("factory"), "The invention's factory") or None
    vp = require_count(card.get("vp", 0), "The invention's end bonus", 0, MAX_INVENTION_BONUS)
    if (factory is None) != (vp == 0):
        raise RuleError("An end bonus names its factory and its victory points.")
    if ability is None and factory is None:
        raise RuleError("Describe the invention card: its ability, its end bonus, or both.")
    return Invention(space, None if ability is None else str(ability), factory, vp)


def capacity(card: CityCard, factory: Factory) -> int:
    """The goods a factory may produce: its production space, or at least 2 with the invention
    "All of your <colour> factories produce at least 2 goods"."""
    return max(factory.goods, 2) if card.has(f"{factory.colour}_min2") else factory.goods


def production(card: CityCard, factory: Factory, orders: dict[str, int]) -> tuple[int, int]:
    """Produce goods: money by the work orders' value, 1 VP per good (urbanisation.py), plus the
    inventions "Earn $4 (instead of $3) ..." (+$1 per work order of that colour) and "Receive 2
    points (instead of 1) for each <colour> good" (the factory's colour). Returns (money, VP)."""
    money, vp = produce_goods(orders)
    money += sum(n for colour, n in orders.items() if card.has(f"{colour}_money"))
    if card.has(f"{factory.colour}_vp"):
        vp += sum(orders.values())
    return money, vp


def orders_in_words(orders: Mapping[str, int]) -> str:
    parts = [f"{n} {c}" for c, n in orders.items() if n]
    return ", ".join(parts) if parts else "none"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def harvest_card(card: CityCard, area: GrainArea, players: int) -> tuple[list[str], int]:
    """Harvest for one player: the sown grain (and the Farmer's) back plus one more each, the
    inventions' grain, then "1 point per 2 grain". Changes card and area; returns (lines, VP)."""
    sown = card.sown + card.farmer
    extra = card.has("harvest_grain1") + 2 * card.has("harvest_grain2")
    before = card.grain
    result = harvest(sown, before, area.market, area.return_area, players, extra=extra)
    area.market, area.return_area = result.market, result.return_area
    card.grain, card.sown, card.farmer = result.grain, 0, 0
    lines = []
    if sown or extra:
        more = result.grain - before - sown
        lines.append(f"Harvest: {sown} sown back, {more} more: {result.grain} grain.")
    vp = card.grain // 2 if card.has("harvest_vp") else 0
    if vp:
        lines.append(f"Invention: 1 VP per 2 grain: +{vp} VP.")
    return lines, vp


def factories_card(card: CityCard, supply: dict[str, int], exchange: bool) -> list[str]:
    """Factories phase for one player: the inventions' work orders (while the board has them),
    then the optional exchange of 2 orange for 2 grey. Changes card and supply."""
    lines = []
    for colour in COLOURS:
        if card.has(f"{colour}_order") and supply[colour]:
            card.orders[colour] += 1
            supply[colour] -= 1
            lines.append(f"Invention: +1 {colour} work order.")
    if exchange:
        if card.orders["orange"] < 2 or supply["grey"] < 2:
            raise RuleError("The exchange needs 2 orange work orders on the card and 2 grey "
                            "ones on the board.")
        card.orders["orange"] -= 2
        card.orders["grey"] += 2
        supply["orange"] += 2
        supply["grey"] -= 2
        lines.append("Invention: 2 orange work orders exchanged for 2 grey.")
    return lines


def citizens_card(card: CityCard) -> tuple[list[str], int, int, int]:
    """Citizens and feeding for one player (urbanisation.turn_score). Changes the card; returns
    (lines, citizen VP, grain VP, grain eaten)."""
    score = turn_score(card.houses, card.grain, card.order_count)
    lines = [f"Citizens: {score.citizens} (houses {card.houses}, grain {card.grain}, work orders "
             f"{card.order_count}): {CITIZEN_VP} VP each, +{score.citizen_vp} VP.",
             f"Feeding: {score.citizens} grain eaten, {score.grain_left} left: "
             f"1 VP per {GRAIN_PER_VP}, +{score.grain_vp} VP."]
    card.citizens, card.grain = score.citizens, score.grain_left
    return lines, score.citizen_vp, score.grain_vp, score.citizens


def per_player(values: object, players: list[str], what: str, low: int,
               high: int) -> dict[str, int]:
    """One number for everybody, or one per player."""
    if isinstance(values, Mapping):
        if set(values) != set(players):
            raise RuleError(f"Enter the {what} of every player.")
        return {p: require_count(values[p], f"{p}'s {what}", low, high) for p in players}
    value = require_count(values, f"The {what}", low, high)
    return dict.fromkeys(players, value)


def check_pools(pools: object) -> dict[str, int]:
    """Pool sizes the table chose to count: houses, skyscrapers, administrative, factories."""
    if not isinstance(pools, Mapping) or not set(pools) <= set(POOLS):
        raise RuleError("Pool sizes are given for house, skyscraper, administrative and "
                        "factory.")
    return {str(k): require_count(v, f"The {k} pool", 0, 99) for k, v in pools.items()}


def trade_note(player: str, free: int, buy: int, cost: int, sell: int, paid: int) -> str:
    parts = [f"took {free} grain free"] if free else []
    if buy:
        parts.append(f"bought {buy} grain for ${cost}")
    if sell:
        parts.append(f"sold {sell} grain for ${paid}")
    return f"{player} {join_names(parts) or 'took no grain (the field is empty)'}."


def upgraded(card: CityCard, upgrade: object, number: int) -> Factory | None:
    """The active factory an upgrade covers (urbanisation.check_upgrade: a higher number)."""
    if upgrade is None:
        return None
    old = card.factory(require_count(upgrade, "The factory to upgrade", 1))
    if old is None or not old.active:
        raise RuleError(f"There is no active factory {upgrade} to upgrade.")
    check_upgrade(old.number, number)
    return old


def check_sowing(player: str, card: CityCard, seeds: int, on_farmer: int, farmer: bool) -> None:
    """Sow seeds: grain from the card, one per empty building ground (two with the invention);
    seeds on the Farmer card only with the Farmer, who takes 1 or 2."""
    if farmer != bool(on_farmer):
        raise RuleError("Seeds on the Farmer card need the Farmer; the Farmer takes 1 or 2.")
    if seeds + on_farmer == 0:
        raise RuleError("Sow at least one grain.")
    if seeds + on_farmer > card.grain:
        raise RuleError(f"{player} has only {card.grain} grain to sow.")
    if seeds > card.seed_room:
        raise RuleError(f"Each empty building ground holds {card.seeds_per_ground} grain: "
                        f"{player} has room for {card.seed_room}.")


def check_goods(player: str, card: CityCard, factory: Factory, orders: dict[str, int],
                any_colour: bool) -> None:
    """Produce goods: at least one, of the factory's colour (any with the Any colour
    character), up to its production space, from work orders the player holds."""
    goods = sum(orders.values())
    if not goods:
        raise RuleError("Producing goods takes at least one work order.")
    if not any_colour and any(n for c, n in orders.items() if c != factory.colour):
        raise RuleError(f"Factory {factory.number} makes {factory.colour} goods from "
                        f"{factory.colour} work orders (unless Any colour is played).")
    if goods > capacity(card, factory):
        raise RuleError(f"Factory {factory.number} produces at most "
                        f"{capacity(card, factory)} goods.")
    for c, n in orders.items():
        if n > card.orders[c]:
            raise RuleError(f"{player} has only {card.orders[c]} {c} work orders.")


def invention_marker(player: str, card: CityCard, marker: object) -> tuple[int | None, int]:
    """A new marker (None; it starts before space 1) or one already on the track."""
    if marker is None:
        return None, 0
    if not card.markers:
        raise RuleError(f"{player} has no marker on the invention track: enter a new one.")
    index = require_count(marker, "The invention marker", 0, len(card.markers) - 1)
    return index, card.markers[index]


def check_new_abilities(taken: list[Invention], owned: list[str | None]) -> None:
    """Each invention ability exists once in the game."""
    abilities = [i.ability for i in taken if i.ability]
    for ability in abilities:
        if ability in owned or abilities.count(ability) > 1:
            raise RuleError(f"The invention {ability!r} is already taken: each exists once.")


def setup_lines(board: Setup | None) -> list[str]:
    """What the board needs for this number of players."""
    if board is None:
        return []
    lines = [f"Barns 1-4 and the field: {board.players} grain each; return area: "
             f"{board.return_area}.",
             f"Factories: {board.factory_cards}.",
             f"Character cards: {board.characters} on display, the Mayor set aside."]
    if board.covered_territories:
        lines.append(f"Cover the territories not used with {board.players} players.")
    return lines
