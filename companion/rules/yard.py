"""The construction-yard card game: majorities scored three times, and Dirk for two players.

Rulebook: ../shared/rules/yard.en.txt; reference card and rulings: ../shared/REFEREE-NOTES.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .common import RuleError, Split, join_names, rank_label, ranked_splits, require_count

BUILDINGS = ("museum", "theater", "station", "church", "park", "skyscraper")
PLURALS = {
    "museum": "museums",
    "theater": "theaters",
    "station": "stations",
    "church": "churches",
    "park": "parks",
    "skyscraper": "skyscrapers",
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
BUILDING_CARDS = 54
DISPLAY = 4
DIRK = "Dirk"
DIRK_DEALS = ("setup", "A", "B")


def building_name(building: str, count: int = 1) -> str:
    return building if count == 1 else PLURALS[building]


def _check_building(building: object) -> str:
    if building not in SUPPLY:
        raise RuleError(f"Unknown building {building!r}: choose one of {', '.join(BUILDINGS)}.")
    return str(building)


def _check_scoring(scoring: object) -> str:
    if scoring not in SCORINGS:
        raise RuleError(f"Unknown scoring {scoring!r}: it is A, B or C.")
    return str(scoring)


def check_counts(counts: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """Every player's count of every building, validated against the supply of the game.

    Raises RuleError for an unknown building, a negative or fractional count, or a building whose
    total over all players (Dirk included) exceeds its supply (7/7/9/9/11/11).
    """
    table: dict[str, dict[str, int]] = {}
    for player, owned in counts.items():
        if not isinstance(owned, Mapping):
            raise RuleError(f"The buildings of {player} must be given by type.")
        row = dict.fromkeys(BUILDINGS, 0)
        for building, count in owned.items():
            label = f"{player}'s {PLURALS[_check_building(building)]}"
            row[building] = require_count(count, label, 0, SUPPLY[building])
        table[str(player)] = row
    for building in BUILDINGS:
        total = sum(row[building] for row in table.values())
        if total > SUPPLY[building]:
            raise RuleError(
                f"There are only {SUPPLY[building]} {PLURALS[building]} in the game, "
                f"but {total} are entered."
            )
    return table


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
    held = f"{split.count} {building_name(building, split.count)}"
    if len(split.players) == 1:
        return f"{split.players[0]} is {rank_label(split)} with {held}: {split.total}"
    sums = " + ".join(str(p) for p in split.rank_points)
    names = join_names(split.players)
    shares = f"{sums} = {split.total}, {split.each} each"
    return f"{names} tie for {rank_label(split)} with {held}: {shares}"


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
    if currency not in CURRENCIES:
        raise RuleError(f"Unknown currency {currency!r}: choose one of {', '.join(CURRENCIES)}.")
    held = {
        str(player): require_count(amounts.get(currency, 0), f"{player}'s {currency} money",
                                   0, MAX_MONEY)
        for player, amounts in money.items()
    }
    best = max(held.values(), default=0)
    leaders = [player for player, amount in held.items() if amount == best]
    return leaders[0] if best > 0 and len(leaders) == 1 else None


def dirk_draws(after: str, deck_left: int) -> int:
    """How many building cards Dirk receives: 6 at the start ("setup"), 6 more right after
    scoring A, and after scoring B "a third of all remaining cards, rounded down"; never more than
    the deck holds.
    """
    deck_left = require_count(deck_left, "The cards left in the building deck", 0, BUILDING_CARDS)
    if after == "B":
        return deck_left // 3
    if after in ("setup", "A"):
        return min(6, deck_left)
    raise RuleError(f"Dirk is dealt cards at 'setup', after 'A' or after 'B', not {after!r}.")


# Money: four currencies of 27 cards each (values 1-9, three of each); 2 players use 72 cards.
CURRENCIES = ("blue", "green", "orange", "yellow")
MAX_MONEY = 3 * sum(range(1, 10))


def money_cards(players: int) -> int:
    """108 money cards for 3-6 players; with 2, one of each card is sorted out: 72."""
    return 72 if players == 2 else 108


def money_piles(players: int, starting_cards: int) -> list[int]:
    """The five piles the rest of the money deck is split into, as equal as possible, after the
    starting capital and the 4 cards on display; scoring A goes into pile 2, scoring B into pile 4.
    """
    rest = money_cards(players) - starting_cards - DISPLAY
    if rest < 5:
        raise RuleError("The starting capital uses more money cards than the game has.")
    return [rest // 5 + (1 if pile < rest % 5 else 0) for pile in range(5)]


def starting_candidates(cards: Mapping[str, int], totals: Mapping[str, int]) -> list[str]:
    """Who may start: "the least number of cards", then "the least total"; when several remain,
    the youngest of them starts (the app then asks who that is).
    """
    fewest = min(cards.values())
    tied = [p for p in cards if cards[p] == fewest]
    lowest = min(totals[p] for p in tied)
    return [p for p in tied if totals[p] == lowest]


def check_starting_capital(player: str, cards: object, total: object) -> tuple[int, int]:
    """A starting capital is dealt until it reaches 20, so it totals 20 to 28 in 3 to 20 cards."""
    n = require_count(cards, f"{player}'s number of starting money cards", 3, 20)
    t = require_count(total, f"{player}'s starting money total", 20, 28)
    if t > 9 * n or t < n:
        raise RuleError(f"{n} money cards cannot add up to {t} ({player}).")
    return n, t


def majority_line(building: str, counts: Mapping[str, int]) -> str:
    """Who leads a building and by how many: 'Tobi leads by 2', 'Tobi and Nina tie at 3'."""
    ranked = sorted((c for c in counts.values() if c > 0), reverse=True)
    if not ranked:
        return "nobody yet"
    leaders = [p for p, c in counts.items() if c == ranked[0]]
    if len(leaders) > 1:
        return f"{join_names(leaders)} tie at {ranked[0]}"
    runner_up = ranked[1] if len(ranked) > 1 else 0
    return f"{leaders[0]} leads by {ranked[0] - runner_up}"
