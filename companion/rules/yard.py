"""The construction-yard card game: majorities scored three times, and Dirk for two players.

Rulebook: ../shared/rules/yard.en.txt; reference card and rulings: ../shared/REFEREE-NOTES.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .common import RuleError, Split, rank_label, ranked_splits, require_count
from .text import Msg, Plural, and_list

NAME = Msg("Construction yard card game")  # the game's name, as the app shows it

BUILDINGS = ("museum", "theater", "station", "church", "park", "skyscraper")
# The buildings' names for the players: on buttons and in tables, as a plural in labels
# ("Tobi's museums"), with an article ("bought a museum") and counted ("3 museums").
NAMES = {
    "museum": Msg("Museum"),
    "theater": Msg("Theater"),
    "station": Msg("Station"),
    "church": Msg("Church"),
    "park": Msg("Park"),
    "skyscraper": Msg("Skyscraper"),
}
PLURAL_NAMES = {
    "museum": Msg("Museums"),
    "theater": Msg("Theaters"),
    "station": Msg("Stations"),
    "church": Msg("Churches"),
    "park": Msg("Parks"),
    "skyscraper": Msg("Skyscrapers"),
}
PLURALS = {
    "museum": Msg("museums"),
    "theater": Msg("theaters"),
    "station": Msg("stations"),
    "church": Msg("churches"),
    "park": Msg("parks"),
    "skyscraper": Msg("skyscrapers"),
}
A_BUILDING = {
    "museum": Msg("a museum"),
    "theater": Msg("a theater"),
    "station": Msg("a station"),
    "church": Msg("a church"),
    "park": Msg("a park"),
    "skyscraper": Msg("a skyscraper"),
}
COUNTED: dict[str, Callable[[int], Msg]] = {
    "museum": lambda n: Plural("{n} museum", "{n} museums", n=n),
    "theater": lambda n: Plural("{n} theater", "{n} theaters", n=n),
    "station": lambda n: Plural("{n} station", "{n} stations", n=n),
    "church": lambda n: Plural("{n} church", "{n} churches", n=n),
    "park": lambda n: Plural("{n} park", "{n} parks", n=n),
    "skyscraper": lambda n: Plural("{n} skyscraper", "{n} skyscrapers", n=n),
}
# "with 4 skyscrapers" in a ranking line (German needs the dative there).
HOLDING: dict[str, Callable[[int], Msg]] = {
    "museum": lambda n: Plural("with {n} museum", "with {n} museums", n=n),
    "theater": lambda n: Plural("with {n} theater", "with {n} theaters", n=n),
    "station": lambda n: Plural("with {n} station", "with {n} stations", n=n),
    "church": lambda n: Plural("with {n} church", "with {n} churches", n=n),
    "park": lambda n: Plural("with {n} park", "with {n} parks", n=n),
    "skyscraper": lambda n: Plural("with {n} skyscraper", "with {n} skyscrapers", n=n),
}
COLOURS = {
    "museum": "blue",
    "theater": "red",
    "station": "brown",
    "church": "white",
    "park": "green",
    "skyscraper": "purple",
}
SUPPLY = {"museum": 7, "theater": 7, "station": 9, "church": 9, "park": 11, "skyscraper": 11}
SCORINGS = ("A", "B", "C")
# The reference card: what 1st, 2nd and 3rd rank pay in each scoring.
REFERENCE_CARD: dict[str, dict[str, tuple[int, ...]]] = {
    "museum": {"A": (1,), "B": (8, 1), "C": (16, 8, 1)},
    "theater": {"A": (2,), "B": (9, 2), "C": (17, 9, 2)},
    "station": {"A": (3,), "B": (10, 3), "C": (18, 10, 3)},
    "church": {"A": (4,), "B": (11, 4), "C": (19, 11, 4)},
    "park": {"A": (5,), "B": (12, 5), "C": (20, 12, 5)},
    "skyscraper": {"A": (6,), "B": (13, 6), "C": (21, 13, 6)},
}
RULINGS = {
    "ties": Msg("Ruling: tied players share the ranks they occupy, each getting the sum divided "
                "equally, rounded down; a player without the building does not rank."),
    "leftovers": Msg("Ruling: a leftover card goes to the player with strictly the most money "
                     "of its currency; on a tie, or if nobody holds any, it stays unsold."),
    "dirk": Msg("Ruling: Dirk scores like a player but cannot win; the winner is the real player "
                "with the most points. Dirk holds no money and never gets leftover cards."),
    "turns": Msg("Ruling: the app records purchases, not money taken, so after a purchase it "
                 "cannot tell whose turn it is (paying exactly lets the buyer go on). Once the "
                 "display cannot be refilled, only the last buyer may still buy."),
    "dirk_kept": Msg("Ruling: after a change of an earlier action, Dirk keeps the cards he got "
                     "at the table, even where the change makes the rules call for another "
                     "number (a third of another deck after scoring B); the deck holds what he "
                     "did not take, and the actions after his deal stay as they were."),
    "never_drawn": Msg("Ruling: scorings A and B take place when their cards are drawn from the "
                       "money deck, up to the money refilled after the last turn; a card not "
                       "drawn by then never comes, and the game ends with scoring C."),
}

BUILDING_CARDS = 54
DISPLAY = 4
DIRK = "Dirk"
DIRK_DEALS = ("setup", "A", "B")


def _check_building(building: object) -> str:
    if not isinstance(building, str) or building not in SUPPLY:
        raise RuleError(Msg("Unknown building {building!r}: choose one of {choices}.",
                            building=building, choices=", ".join(BUILDINGS)))
    return str(building)


def _check_scoring(scoring: object) -> str:
    if scoring not in SCORINGS:
        raise RuleError(Msg("Unknown scoring {scoring!r}: it is A, B or C.", scoring=scoring))
    return str(scoring)


def check_counts(counts: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """Every player's count of every building, validated against the supply of the game.

    Raises RuleError for an unknown building, a negative or fractional count, or a building whose
    total over all players (Dirk included) exceeds its supply (7/7/9/9/11/11).
    """
    if not isinstance(counts, Mapping):
        raise RuleError(Msg("Give the buildings by player."))
    table: dict[str, dict[str, int]] = {}
    for player, owned in counts.items():
        if not isinstance(owned, Mapping):
            raise RuleError(Msg("The buildings of {player} must be given by type.",
                                player=player))
        row = dict.fromkeys(BUILDINGS, 0)
        for building, count in owned.items():
            label = owners_buildings(str(player), _check_building(building))
            row[building] = require_count(count, label, 0, SUPPLY[building])
        table[str(player)] = row
    for building in BUILDINGS:
        total = sum(row[building] for row in table.values())
        if total > SUPPLY[building]:
            raise RuleError(Msg("There are only {supply} in the game, but {total} are entered.",
                                supply=COUNTED[building](SUPPLY[building]), total=total))
    return table


def owners_buildings(owner: str, building: str) -> str:
    """'Tobi's parks': how a count is named when it is refused."""
    return Msg("{owner}'s {buildings}", owner=owner, buildings=PLURALS[_check_building(building)])


@dataclass(frozen=True)
class BuildingResult:
    """One building type in one scoring: who ranks and what each block of ranks earns."""

    building: str
    scoring: str
    splits: tuple[Split, ...]

    def lines(self) -> list[str]:
        """The arithmetic of every split that pays, in words."""
        return [split_line(self.building, split) for split in self.splits if split.total > 0]


def split_line(building: str, split: Split) -> str:
    """'Tobi and Nina tie for 1st-2nd with 4 skyscrapers: 13 + 6 = 19, 9 each'."""
    held = HOLDING[_check_building(building)](split.count)
    if len(split.players) == 1:
        return Msg("{player} is {rank} {held}: {total}", player=split.players[0],
                   rank=rank_label(split), held=held, total=split.total)
    return Msg("{names} tie for {rank} {held}: {sums} = {total}, {each} each",
               names=and_list(split.players), rank=rank_label(split), held=held,
               sums=" + ".join(str(p) for p in split.rank_points), total=split.total,
               each=split.each)


def explain_round(counts: Mapping[str, Mapping[str, int]], scoring: str) -> list[BuildingResult]:
    """Each building's ranking in scoring A, B or C, per the reference card.

    "In case of a tie ... the points of the corresponding ranks are totaled and then divided by
    the number of tied players" (rounded down); a player without the building never ranks.
    """
    scoring = _check_scoring(scoring)
    table = check_counts(counts)
    return [
        BuildingResult(
            building,
            scoring,
            tuple(ranked_splits({p: row[building] for p, row in table.items()},
                                REFERENCE_CARD[building][scoring])),
        )
        for building in BUILDINGS
    ]


def points_of(results: list[BuildingResult], players: list[str]) -> dict[str, int]:
    points = dict.fromkeys(players, 0)
    for result in results:
        for split in result.splits:
            for player in split.players:
                points[player] += split.each
    return points


def score_round(counts: Mapping[str, Mapping[str, int]], scoring: str) -> dict[str, int]:
    """Every player's points in scoring A, B or C, all buildings together (Dirk scores too)."""
    return points_of(explain_round(counts, scoring), [str(p) for p in counts])


def leftover_owner(currency: str, money: Mapping[str, Mapping[str, int]]) -> str | None:
    """Who takes a leftover display card at the end: the player holding strictly the most money
    of its currency. "In case of a tie nobody buys the card"; nobody holding any leaves it too.
    """
    currency = _check_currency(currency)
    if not isinstance(money, Mapping):
        raise RuleError(Msg("Give the money by player."))
    held = {}
    for player, amounts in money.items():
        if not isinstance(amounts, Mapping):
            raise RuleError(Msg("Enter {player}'s money by currency.", player=player))
        held[str(player)] = require_count(amounts.get(currency, 0),
                                          owners_money(str(player), currency), 0, MAX_MONEY)
    best = max(held.values(), default=0)
    leaders = [player for player, amount in held.items() if amount == best]
    return leaders[0] if best > 0 and len(leaders) == 1 else None


def dirk_draws(after: str, deck_left: int) -> int:
    """How many building cards Dirk receives: 6 at the start ("setup"), 6 more right after
    scoring A, and after scoring B "a third of all remaining cards, rounded down"; never more than
    the deck holds.
    """
    deck_left = require_count(deck_left, Msg("The cards left in the building deck"), 0,
                              BUILDING_CARDS)
    if after == "B":
        return deck_left // 3
    if after in ("setup", "A"):
        return min(6, deck_left)
    raise RuleError(Msg("Dirk is dealt cards at 'setup', after 'A' or after 'B', not {after!r}.",
                        after=after))


# Money: four currencies of 27 cards each (values 1-9, three of each); 2 players use 72 cards.
CURRENCIES = ("blue", "green", "orange", "yellow")
CURRENCY_NAMES = {
    "blue": Msg("blue"),
    "green": Msg("green"),
    "orange": Msg("orange"),
    "yellow": Msg("yellow"),
}
MAX_MONEY = 3 * sum(range(1, 10))


def money_cards(players: int) -> int:
    """108 money cards for 3-6 players; with 2, one of each card is sorted out: 72."""
    return 72 if players == 2 else 108


def most_starting_cards(players: int) -> int:
    """The most cards a starting capital can have: it is dealt "one card after the other ...
    until their total is 20 or more", so all its cards but the last total 19 at most, and the
    deck holds each value (1 to 9) once per currency in each of its copies (3; 2 with 2
    players): 16 cards (12 ones and 3 twos, then any), with 2 players 14."""
    players = require_count(players, Msg("The number of players"), 2, 6)
    copies = money_cards(players) // (len(CURRENCIES) * 9)
    dealt = total = 0
    for value in (v for v in range(1, 10) for _ in range(copies * len(CURRENCIES))):
        if total + value >= 20:
            break
        dealt, total = dealt + 1, total + value
    return dealt + 1


def money_piles(players: int, starting_cards: int) -> list[int]:
    """The five piles the rest of the money deck is split into, as equal as possible, after the
    starting capital and the 4 cards on display; scoring A goes into pile 2, scoring B into pile 4.
    """
    starting_cards = require_count(starting_cards, Msg("The starting money cards"), 0)
    rest = money_cards(players) - starting_cards - DISPLAY
    if rest < 5:
        raise RuleError(Msg("The starting capital uses more money cards than the game has."))
    return [rest // 5 + (1 if pile < rest % 5 else 0) for pile in range(5)]


def starting_candidates(cards: Mapping[str, int], totals: Mapping[str, int]) -> list[str]:
    """Who may start: "the least number of cards", then "the least total"; when several remain,
    the youngest of them starts (the app then asks who that is).
    """
    if not isinstance(cards, Mapping) or not isinstance(totals, Mapping) or not cards \
            or set(cards) != set(totals):
        raise RuleError(Msg("Enter each player's starting cards and total."))
    for p in cards:
        require_count(cards[p], Msg("{player}'s number of starting money cards", player=p))
        require_count(totals[p], Msg("{player}'s starting money total", player=p))
    fewest = min(cards.values())
    tied = [p for p in cards if cards[p] == fewest]
    lowest = min(totals[p] for p in tied)
    return [p for p in tied if totals[p] == lowest]


def check_starting_capital(player: str, cards: object, total: object) -> tuple[int, int]:
    """A starting capital is dealt until it reaches 20, so it totals 20 to 28 in 3 to 20 cards."""
    n = require_count(cards, Msg("{player}'s number of starting money cards", player=player),
                      3, 20)
    t = require_count(total, Msg("{player}'s starting money total", player=player), 20, 28)
    if t > 9 * n or t < n:
        raise RuleError(Msg("{n} money cards cannot add up to {total} ({player}).",
                            n=n, total=t, player=player))
    return n, t


def majority_line(building: str, counts: Mapping[str, int]) -> str:
    """Who leads a building and by how many: 'Tobi leads by 2', 'Tobi and Nina tie at 3'."""
    _check_building(building)
    if not isinstance(counts, Mapping):
        raise RuleError(Msg("Give the buildings by player."))
    for owner, count in counts.items():
        require_count(count, owners_buildings(str(owner), building), 0, SUPPLY[building])
    ranked = sorted((c for c in counts.values() if c > 0), reverse=True)
    if not ranked:
        return Msg("nobody yet")
    leaders = [p for p, c in counts.items() if c == ranked[0]]
    if len(leaders) > 1:
        return Msg("{names} tie at {count}", names=and_list(leaders), count=ranked[0])
    runner_up = ranked[1] if len(ranked) > 1 else 0
    return Plural("{name} leads by {n}", "{name} leads by {n}", name=leaders[0],
                  n=ranked[0] - runner_up)


def owners_money(owner: str, currency: str) -> str:
    """'Tobi's blue money': how an amount is named when it is refused."""
    return Msg("{owner}'s {currency} money", owner=owner,
               currency=CURRENCY_NAMES[_check_currency(currency)])


def _check_currency(currency: object) -> str:
    if not isinstance(currency, str) or currency not in CURRENCIES:
        raise RuleError(Msg("Unknown currency {currency!r}: choose one of {choices}.",
                            currency=currency, choices=", ".join(CURRENCIES)))
    return currency
