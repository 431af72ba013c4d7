"""Urbanisation (Queen Games 2012) with the Inventions expansion: the grain market, citizens,
feeding, taxes, buildings, the Mayor, the administration phases and the final scoring.

Rulebook: ../shared/rules/urbanisation.en.txt; facts and rulings: ../shared/REFEREE-NOTES.md.

The grain market is ``{"barns": [b1, b2, b3, b4], "field": f}``, the markers lying in barns 1-4
and on the field; each of these five slots holds at most one marker per player. The return area
is a plain count. A tracking card is modelled as the rulebook draws it: parallel lines of
numbered spaces in aligned columns, so "farther to the right" compares two markers' space numbers;
a marker's space is its count (citizens, houses, grain, work order markers).

Ruling: feeding never meets fewer grain than citizens, since the citizens phase just counted the
grain among the three lines; ``feeding`` refuses such numbers as a miscount.
Ruling: barns of one price are bought from in number order (barn 1 before 2, 3 before 4).
Ruling: a purchase that would take a player above 8 grain is refused (when his grain is given);
so is selling more grain than he holds.
Ruling: harvest returns the sown markers and then as many additional markers as fit below 8;
the rest stay in the supply. Sown markers that do not fit below 8 (grain bought after sowing)
go to the return area. When the return area, field and barns run dry, a player gets only what
is left; players harvest in turn order.
Grain from inventions ("Receive 1 grain", "2 grain markers") comes from the same supply.
Ruling: grain refill moves nothing while the return area holds 2 per player or fewer; a surplus
that the field and barns cannot take (impossible with 7 markers per player) stays there.
Ruling: the OCR does not show the marked start spaces: the citizen marker starts on 0, the house
marker on 1 (the setup house, whose 1 VP is why the score marker starts on space 1) and the tax
marker on 10, the right end of its line; the tax marker only ever moves left.
Ruling: one "erect buildings" action may erect any number of one type (the Architect pays "$1
less for each building"); a skyscraper needs a house standing before the action for each one.
Ruling: in a Mayor tie the former start player himself comes last: the search starts at his left.
Ruling: factory numbers are positive whole numbers and each card is owned by one player only;
the newest factory is the highest number a player owns, active or inactive. Tied players without
any factory share their place.
Ruling: when the factory deck is empty, the space of a removed or attracted card stays empty.
Ruling: the table enters the starting money (the rulebook text names none; the app fills in $10).
Ruling: 7 grain markers per player are in play (the notes' setup); the rest of the 32 stay boxed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from . import common
from .common import Placing, RuleError, require_count
from .text import Msg, Plural

NAME = Msg("Urbanisation")  # the game's name, as the app shows it

PLAYERS = range(2, 5)
TURNS = 6
ACTIONS_PER_TURN = 4
BARN_PRICES = (1, 1, 2, 2)
FIELD_PRICE = 3
PRICES = (*BARN_PRICES, FIELD_PRICE)  # the five slots: barns 1-4, then the field
GRAIN_IN = (Msg("The grain in barn {n}", n=1), Msg("The grain in barn {n}", n=2),
            Msg("The grain in barn {n}", n=3), Msg("The grain in barn {n}", n=4),
            Msg("The grain in the field"))
REFILL_ORDER = (4, 3, 2, 1, 0)  # "first to the field ..., then to the fourth barn ..., etc."
MAX_GRAIN = 8
GRAIN_PER_PLAYER = 7  # one on each barn and on the field, two in the return area
RETURN_PER_PLAYER = 2
WORK_ORDER_VALUES = {"white": 3, "grey": 2, "orange": 1}
WORK_ORDERS_PER_COLOUR = 15
MAX_WORK_ORDERS = WORK_ORDERS_PER_COLOUR * len(WORK_ORDER_VALUES)
COLOUR_NAMES = {"white": Msg("white"), "grey": Msg("grey"), "orange": Msg("orange")}
ORDERS_OF = {"white": Msg("The white work orders"), "grey": Msg("The grey work orders"),
             "orange": Msg("The orange work orders")}
VICTORY_POINTS = Msg("victory points")
CITIZEN_VP = 2
GRAIN_PER_VP = 3
MAYOR_VP = 1
FACTORY_VP = 2
GOOD_VP = 1
INVENTION_VP = 1
FACTORY_BONUS_VP = 2
LAST_WORK_ORDER_BONUS = 1  # dollars for filling a factory card's last work order space
START_VP = 1
TAX_START = 10
PRICE_MARKERS = 24
INVENTION_SPACES = 9
FACTORY_CARDS = {2: Msg("only the factory cards marked II on the back"),
                 3: Msg("only the factory cards marked II or III on the back"),
                 4: Msg("all 18 factory cards")}


class Market(TypedDict):
    """The grain lying in barns 1-4 and on the field."""

    barns: list[int]
    field: int


@dataclass(frozen=True)
class Building:
    """What erecting one building costs and earns, and how far it moves the house marker."""

    name: str
    plural: str
    cost: int
    vp: int
    house_steps: int
    needs_house: bool
    title: str = ""


BUILDINGS = {
    "house": Building(Msg("house"), Msg("houses"), 2, 1, 1, False, Msg("House")),
    "skyscraper": Building(Msg("skyscraper"), Msg("skyscrapers"), 3, 2, 1, True,
                           Msg("Skyscraper")),
    # The title's soft hyphen: "Admin-istrative" on a 320 px phone's chip, not "Administra/tive".
    "administrative": Building(Msg("administrative building"), Msg("administrative buildings"),
                               3, 2, 0, False, Msg("Admin\u00adistrative building")),
}


def counted(kind: object, n: object) -> str:
    """'1 house', '2 skyscrapers': a number of buildings of one kind (any kind: 'buildings')."""
    n = require_count(n, Msg("The buildings"), 0)
    if kind == "house":
        return Plural("{n} house", "{n} houses", n=n)
    if kind == "skyscraper":
        return Plural("{n} skyscraper", "{n} skyscrapers", n=n)
    if kind == "administrative":
        return Plural("{n} administrative building", "{n} administrative buildings", n=n)
    return Plural("{n} building", "{n} buildings", n=n)


def check_players(players: object) -> int:
    """The number of players: Urbanisation is for 2 to 4."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYERS:
        raise RuleError(Msg("Urbanisation is played by 2 to 4 players."))
    return players


def _slots(market: object, players: int) -> list[int]:
    """The market as five counts (barns 1-4, the field), each from 0 to one per player."""
    if not isinstance(market, Mapping) or set(market) != {"barns", "field"}:
        raise RuleError(Msg("The grain market is given as its 4 barns and its field."))
    barns = market["barns"]
    if not isinstance(barns, list | tuple) or len(barns) != len(BARN_PRICES):
        raise RuleError(Msg("The grain market has exactly 4 barns."))
    counts = [*barns, market["field"]]
    return [require_count(n, what, 0, players) for n, what in zip(counts, GRAIN_IN, strict=True)]


def _market(slots: Sequence[int]) -> Market:
    return {"barns": list(slots[:4]), "field": slots[4]}


def check_market(market: object, players: object) -> Market:
    """A grain market validated for this many players (a clean copy)."""
    return _market(_slots(market, check_players(players)))


def _fill(room: Sequence[int], amount: int) -> list[int]:
    """Spread `amount` markers over slots in the given order, each up to its room."""
    placed = []
    for space in room:
        placed.append(min(space, amount))
        amount -= placed[-1]
    return placed


def _cost(counts: Sequence[int], one_dollar: bool) -> int:
    return sum(n * (1 if one_dollar else price) for n, price in zip(counts, PRICES, strict=True))


def _check_grain(held: object, what: str | None = None) -> int:
    return require_count(held, what or Msg("Your grain"), 0, MAX_GRAIN)


def buy_grain(market: object, amount: object, *, players: object = max(PLAYERS),
              held: object = None, one_dollar: bool = False, free: int = 0) -> tuple[int, Market]:
    """Trade grain, buying: "A player may purchase only 1 grain marker from each barn per action;
    he may purchase more than 1 grain marker from the field." The app fills the order cheapest
    first (barn 1, 2, 3, 4, then the field). `held` (the buyer's grain, with the Mill Worker's
    `free` grain taken first) refuses going above 8, saying how many can be bought; `one_dollar`
    is the invention "Pay only $1 for each grain marker". Returns (cost, market).
    """
    slots = _slots(market, check_players(players))
    amount = require_count(amount, Msg("The grain to buy"), 1)
    if held is not None and _check_grain(held) + free + amount > MAX_GRAIN:
        room = MAX_GRAIN - _check_grain(held) - free
        if free:  # found at a table: "you have 5" of a player who had 3 and the free 2
            raise RuleError(Msg("A player may have at most {most} grain: with {held} held and "
                                "the Mill Worker's {free}, at most {room} can be bought.",
                                most=MAX_GRAIN, held=held, free=free, room=max(0, room)))
        raise RuleError(Msg("A player may have at most {most} grain: with {held} held, at most "
                            "{room} can be bought.", most=MAX_GRAIN, held=held, room=room))
    offer = [min(1, n) for n in slots[:4]] + [slots[4]]
    if not sum(offer):
        raise RuleError(Msg("No grain can be bought now: the barns and the field are empty."))
    if amount > sum(offer):
        raise RuleError(Msg("Only {n} grain can be bought in one action now: one from each "
                            "barn holding grain and any number from the field.", n=sum(offer)))
    taken = _fill(offer, amount)
    return _cost(taken, one_dollar), _market([s - t for s, t in zip(slots, taken, strict=True)])


def sell_grain(market: object, amount: object, players: object, *,
               held: object = None) -> tuple[int, Market]:
    """Trade grain, selling: the seller "fills the barns from right to left, then the field"
    (barn 1, 2, 3, 4, then the field), each up to one marker per player, and is paid each slot's
    price. "If all barns and the field are filled to capacity, it is not possible to sell any more
    grain." `held` (the seller's grain) refuses selling more than he has. Returns (income, market).
    """
    players = check_players(players)
    slots = _slots(market, players)
    amount = require_count(amount, Msg("The grain to sell"), 1)
    if held is not None and amount > _check_grain(held):
        raise RuleError(Msg("The seller holds only {held} grain, not {n}.", n=amount,
                            held=held))
    room = [players - n for n in slots]
    if amount > sum(room):
        raise RuleError(Msg("The barns and the field have room for only {n} more grain.",
                            n=sum(room)))
    put = _fill(room, amount)
    return _cost(put, False), _market([s + p for s, p in zip(slots, put, strict=True)])


def mill_worker(market: object, players: object, *, held: object = 0) -> tuple[int, Market]:
    """The Mill Worker: "Take 2 grain markers for free from the field. If the field has no grain,
    the Mill Worker doesn't receive any." Never above 8 grain. Returns (grain taken, market).
    """
    slots = _slots(market, check_players(players))
    taken = min(2, slots[4], MAX_GRAIN - _check_grain(held))
    return taken, _market([*slots[:4], slots[4] - taken])


def _check_supply(slots: Sequence[int], return_area: object, players: int) -> int:
    """The return area's count; with the market it cannot exceed the 7 markers per player."""
    in_play = GRAIN_PER_PLAYER * players
    return_area = require_count(return_area, Msg("The grain in the return area"), 0, in_play)
    if sum(slots) + return_area > in_play:
        raise RuleError(Msg("A {players}-player game has only {in_play} grain markers, but {n} "
                            "are entered.", players=players, in_play=in_play,
                            n=sum(slots) + return_area))
    return return_area


def grain_refill(market: object, return_area: object, players: object) -> tuple[Market, int]:
    """Grain refill: "If more than 2 grain markers per player are in the return area, distribute
    any surplus markers as follows: first to the field (1 per player), then to the fourth barn
    (1 per player), etc." Returns the market and the return area after it.
    """
    players = check_players(players)
    slots = _slots(market, players)
    return_area = _check_supply(slots, return_area, players)
    surplus = max(0, return_area - RETURN_PER_PLAYER * players)
    put = _fill([players - slots[i] for i in REFILL_ORDER], surplus)
    for i, n in zip(REFILL_ORDER, put, strict=True):
        slots[i] += n
    return _market(slots), return_area - sum(put)


@dataclass(frozen=True)
class Harvest:
    """A player's grain after the harvest, and the supply it was taken from; `left_over`: the
    sown markers that did not fit below 8 and went to the return area."""

    grain: int
    market: Market
    return_area: int
    left_over: int = 0


def harvest(sown: object, held: object, market: object, return_area: object, players: object,
            *, extra: object = 0) -> Harvest:
    """Harvest: "Each player with 1 or more grain markers in the building area gets back that
    marker(s) plus a second grain marker for each marker returned ... A player may have a maximum
    of 8 grain markers." "The additional grain markers are taken from the return area first. If
    there are no markers left, grain is taken from the field, then from the fourth barn, etc."
    `held` is the grain left on the card; `extra` is grain from inventions. Grain bought after
    sowing can leave no room for all the sown markers: those that do not fit go to the return
    area (the game's markers are all somewhere).
    """
    players = check_players(players)
    slots = _slots(market, players)
    return_area = _check_supply(slots, return_area, players)
    held = _check_grain(held, Msg("The grain on the tracking card"))
    sown = require_count(sown, Msg("The grain sown"), 0, GRAIN_PER_PLAYER * players)
    back = min(sown, MAX_GRAIN - held)
    wanted = min(sown + require_count(extra, Msg("The grain from inventions"), 0, 3),
                 MAX_GRAIN - held - back)
    from_return = min(wanted, return_area)
    taken = _fill([slots[i] for i in REFILL_ORDER], wanted - from_return)
    for i, n in zip(REFILL_ORDER, taken, strict=True):
        slots[i] -= n
    grain = held + back + from_return + sum(taken)
    return Harvest(grain, _market(slots), return_area - from_return + sown - back, sown - back)


def citizens(houses: object, grain: object, work_orders: object) -> int:
    """Citizens: "Compare the number of houses, grain markers and work order markers, then move
    the citizen marker to match the lowest numbered position of these three categories" (work
    orders count as markers, not by value; the house line counts skyscrapers too).
    """
    return min(require_count(houses, Msg("The houses"), 0),
               _check_grain(grain, Msg("The grain")),
               require_count(work_orders, Msg("The work orders"), 0, MAX_WORK_ORDERS))


def feeding(grain: object, citizens: object) -> tuple[int, int]:
    """Feeding: "Remove 1 grain marker per citizen ... Now each player receives 1 victory point
    for every 3 grain markers still left." Returns (grain left, VP).
    """
    grain = _check_grain(grain, Msg("The grain"))
    fed = require_count(citizens, Msg("The citizens"), 0, MAX_GRAIN)
    if fed > grain:
        raise RuleError(Msg("{fed} citizens cannot live on {grain} grain: citizens never "
                            "outnumber the grain, so recount them.", fed=fed, grain=grain))
    return grain - fed, (grain - fed) // GRAIN_PER_VP


@dataclass(frozen=True)
class TurnScore:
    """The citizens and feeding phases of one player: citizens, their VP, grain left and its VP."""

    citizens: int
    citizen_vp: int
    grain_left: int
    grain_vp: int

    @property
    def vp(self) -> int:
        return self.citizen_vp + self.grain_vp


def turn_score(houses: object, grain: object, work_orders: object) -> TurnScore:
    """Citizens ("2 victory points per citizen"), then feeding; the fed grain goes to the return
    area (as many markers as citizens).
    """
    count = citizens(houses, grain, work_orders)
    left, grain_vp = feeding(grain, count)
    return TurnScore(count, CITIZEN_VP * count, left, grain_vp)


def collect_taxes(tax: object, citizens: object, times: object = 1) -> tuple[int, int]:
    """Collect taxes: "The player moves the tax marker ... 1 space to the left, then receives $1
    per citizen ... However, taxes may be collected only if the tax marker is on a space farther
    to the right than the citizen marker." The Tax Collector collects twice ("The standard
    taxation rules apply" each time). Returns (the tax marker's new space, money).
    """
    tax = require_count(tax, Msg("The tax marker's space"), 0, TAX_START)
    count = require_count(citizens, Msg("The citizen marker's space"), 0, MAX_GRAIN)
    times = require_count(times, Msg("The tax collections"), 1, 2)
    if tax <= count:
        raise RuleError(Msg("Taxes can be collected only while the tax marker lies right of the "
                            "citizen marker."))
    if tax - times < count:
        raise RuleError(Msg("After one collection the tax marker no longer lies right of the "
                            "citizen marker: the second is not allowed."))
    return tax - times, count * times


def tax_collections(tax: object, citizens: object) -> int:
    """How many tax collections the markers allow now (0, 1, or the Tax Collector's 2): each
    moves the tax marker one space left, and only while it lies right of the citizen marker
    (`collect_taxes`)."""
    tax = require_count(tax, Msg("The tax marker's space"), 0, TAX_START)
    count = require_count(citizens, Msg("The citizen marker's space"), 0, MAX_GRAIN)
    return max(0, min(2, tax - count))


def _building(kind: object) -> Building:
    if not isinstance(kind, str) or kind not in BUILDINGS:
        raise RuleError(Msg("Unknown building {kind!r}: choose house, skyscraper or "
                            "administrative.", kind=kind))
    return BUILDINGS[kind]


@dataclass(frozen=True)
class Erected:
    """What an "erect buildings" action costs and earns, and the house marker's steps right."""

    cost: int
    vp: int
    house_steps: int


def erect(kind: object, count: object = 1, *, houses_standing: object = 0,
          left_in_pool: object = None, architect: bool = False) -> Erected:
    """Raise buildings: a house costs $2 and gains 1 VP; a skyscraper replaces a house, costs $3
    and gains 2 VP; an administrative building costs $3 and gains 2 VP. House and skyscraper move
    the house marker one space right. "If there are no ... left in the pool, a player may not erect
    a building of that type." The Architect pays "$1 less for each building".
    """
    building = _building(kind)
    count = require_count(count, Msg("The {buildings} to erect", buildings=building.plural), 1)
    if left_in_pool is not None and count > require_count(left_in_pool, Msg("The pool"), 0):
        raise RuleError(Msg("The pool holds too few {buildings}: {left} left.",
                            buildings=building.plural, left=left_in_pool))
    if building.needs_house and count > require_count(houses_standing, Msg("Your houses"), 0):
        raise RuleError(Msg("A skyscraper replaces one of your houses: you have {n} standing "
                            "from earlier actions.", n=houses_standing))
    price = building.cost - (1 if architect else 0)
    return Erected(price * count, building.vp * count, building.house_steps * count)


def land_cost(price_markers: object) -> int:
    """Buy land: "The territory costs $1 for each price marker in it"; it holds at least one."""
    return require_count(price_markers, Msg("The price markers on the territory"), 1,
                         PRICE_MARKERS)


def invention_cost(spaces: object) -> int:
    """Acquire invention: "The first space of each movement is free; each additional space
    costs $1" (a new marker enters at the leftmost of the 9 docking spaces).
    """
    return require_count(spaces, Msg("The spaces moved"), 1, INVENTION_SPACES) - 1


def _orders(orders: object) -> dict[str, int]:
    if not isinstance(orders, Mapping):
        raise RuleError(Msg("Work orders are given by colour: white, grey and orange."))
    for colour in orders:
        if colour not in WORK_ORDER_VALUES:
            raise RuleError(Msg("Unknown {what} colour {colour!r}: white, grey or orange.",
                                what=Msg("work order"), colour=colour))
    return {colour: require_count(orders.get(colour, 0), ORDERS_OF[colour], 0,
                                  WORK_ORDERS_PER_COLOUR) for colour in WORK_ORDER_VALUES}


def work_order_value(orders: object) -> int:
    """Work orders by colour, valued "white 3, grey 2, orange 1"."""
    return sum(WORK_ORDER_VALUES[c] * n for c, n in _orders(orders).items())


def work_order_count(orders: object) -> int:
    """The work order markers, whatever their colour (what the citizens phase compares)."""
    return sum(_orders(orders).values())


def produce_goods(orders: object) -> tuple[int, int]:
    """Produce goods: the player "receives money from the bank according to the value and number
    of the markers" and "1 victory point per good produced". Returns (money, VP).
    """
    goods = work_order_count(orders)
    if goods == 0:
        raise RuleError(Msg("Producing goods takes at least one work order."))
    return work_order_value(orders), GOOD_VP * goods


def check_upgrade(old: object, new: object) -> int:
    """Upgrade a factory: allowed "if the factory number ... on the newly acquired factory card
    is higher than the number of the factory to be upgraded". Returns the 2 VP it gains.
    """
    old = require_count(old, Msg("The factory to upgrade"), 1)
    if require_count(new, Msg("The new factory"), 1) <= old:
        raise RuleError(Msg("Factory {new} cannot upgrade factory {old}: its number must be "
                            "higher.", new=new, old=old))
    return FACTORY_VP


def factory_to_remove(display: object) -> int:
    """Factories phase: "Remove the lowest numbered face-up factory card from the game and
    replace it with the top card from the factory deck." `display` lists the numbers on spaces
    1-3 (None for an empty space); returns the space (1-3) of the card removed.
    """
    if not isinstance(display, list | tuple) or len(display) != 3:
        raise RuleError(Msg("The factory display has 3 spaces."))
    numbers = {i + 1: require_count(n, Msg("The factory on space {n}", n=i + 1), 1)
               for i, n in enumerate(display) if n is not None}
    if not numbers:
        raise RuleError(Msg("No factory card is face up."))
    return min(numbers, key=lambda space: numbers[space])


def _factories(factories: object) -> dict[str, list[int]]:
    """Every player's factory numbers (active and inactive); a card is owned once."""
    if not isinstance(factories, Mapping):
        raise RuleError(Msg("Factories are given per player."))
    table: dict[str, list[int]] = {}
    for player, numbers in factories.items():
        if not isinstance(numbers, list | tuple):
            raise RuleError(Msg("The factories of {player} must be given as a list of numbers.",
                                player=player))
        table[str(player)] = [require_count(n, Msg("{player}'s factory number", player=player), 1)
                              for n in numbers]
    owned = [n for numbers in table.values() for n in numbers]
    for number in owned:
        if owned.count(number) > 1:
            raise RuleError(Msg("Factory {number} is entered twice: each card exists once.",
                                number=number))
    return table


def factory_bonus(factories: object) -> str | None:
    """Final scoring: "the player with the largest sum of factory values (that is, the sum of all
    factory numbers on both active and inactive factories) gains 2 victory points. In case of a
    tie, the player with the newest factory receives the points." Nobody with factories: None.
    """
    table = _factories(factories)
    sums = {player: sum(numbers) for player, numbers in table.items()}
    best = max(sums.values(), default=0)
    if best == 0:
        return None
    return max((p for p in table if sums[p] == best), key=lambda p: max(table[p]))


def final_totals(vp: object, factories: object) -> dict[str, int]:
    """Final scoring: every player's VP plus the 2 VP of the largest factory sum."""
    winner = factory_bonus(factories)
    vp = _by_player(vp, VICTORY_POINTS)
    return {str(p): require_count(v, Msg("{player}'s {what}", player=p, what=VICTORY_POINTS), 0)
            + (FACTORY_BONUS_VP if p == winner else 0) for p, v in vp.items()}


def final_ranking(totals: object, factories: object) -> list[Placing]:
    """"The player with the most points wins. In case of a tie, the tied player who owns the
    newest factory card wins." Equal totals without any factory share the place.
    """
    table = _factories(factories)
    totals = _by_player(totals, Msg("totals"))
    checked = {str(p): require_count(t, Msg("{player}'s total", player=p), 0)
               for p, t in totals.items()}
    return common.final_ranking(checked, {p: max(table.get(p, []), default=0) for p in checked})


def _seats(seat_order: object) -> list[str]:
    if not isinstance(seat_order, list | tuple) or len(seat_order) not in PLAYERS:
        raise RuleError(Msg("List the 2 to 4 players in seating order, clockwise."))
    seats = [str(player) for player in seat_order]
    if len(set(seats)) != len(seats):
        raise RuleError(Msg("Each player can be seated only once."))
    return seats


def _by_player(values: object, what: str) -> Mapping[object, object]:
    if not isinstance(values, Mapping):
        raise RuleError(Msg("The {what} are given per player.", what=what))
    return values


def _per_player(values: object, seats: list[str], what: str) -> dict[str, int]:
    values = _by_player(values, what)
    if set(map(str, values)) != set(seats):
        raise RuleError(Msg("Give the {what} of every seated player, and only theirs.",
                            what=what))
    return {str(p): require_count(v, Msg("{player}'s {what}", player=p, what=what), 0)
            for p, v in values.items()}


def mayor(vp: object, money: object, former_start: object, seat_order: object) -> str:
    """The Mayor, from turn 2: "the player with the fewest victory points receives the Mayor ...
    If two or more players tie ..., the player among them with the least money ... If still tied,
    the player among them sitting closest to the former start player in clockwise direction".
    """
    seats = _seats(seat_order)
    if former_start not in seats:
        raise RuleError(Msg("{player!r} is not seated at this table.", player=former_start))
    points = _per_player(vp, seats, VICTORY_POINTS)
    cash = _per_player(money, seats, Msg("money"))
    start = seats.index(str(former_start))
    clockwise = seats[start + 1:] + seats[:start + 1]
    return min(clockwise, key=lambda p: (points[p], cash[p], clockwise.index(p)))


def mayor_order(vp: object, money: object, former_start: object, seat_order: object) -> list[str]:
    """This turn's order: the Mayor ("He is the start player for this turn"), then clockwise."""
    seats = _seats(seat_order)
    first = seats.index(mayor(vp, money, former_start, seats))
    return seats[first:] + seats[:first]


@dataclass(frozen=True)
class Tracking:
    """A tracking card at the start: the marker spaces, and victory points on the score track."""

    vp: int = START_VP
    citizens: int = 0
    houses: int = 1
    grain: int = 0
    work_orders: int = 0
    tax: int = TAX_START


@dataclass(frozen=True)
class Setup:
    """The board for 2, 3 or 4 players, and each player's tracking card."""

    players: int
    market: Market
    return_area: int
    grain_markers: int
    factory_cards: str
    covered_territories: bool
    characters: int
    tracking: Tracking


def setup(players: object, inventions: bool = False) -> Setup:
    """Set-up: barns 1-4 and the field "1 GM per player" each, the return area "2 GM per player";
    with 2 or 3 players some territories are covered and only the factory cards marked II (or II
    and III) are used. The Mayor is set aside; the Professor joins only with Inventions.
    """
    n = check_players(players)
    return Setup(n, _market([n] * 5), RETURN_PER_PLAYER * n, GRAIN_PER_PLAYER * n,
                 FACTORY_CARDS[n], n < max(PLAYERS), 9 if inventions else 8, Tracking())
