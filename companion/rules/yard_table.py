"""A construction-yard game at the table: the state that the event log replays into.

Each action kind has one `_apply_<kind>` method that checks everything first and only then
changes the state, so an illegal action raises RuleError and leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .common import (
    ActionTable,
    Placing,
    RuleError,
    check_reason,
    final_ranking,
    join_names,
    reads,
    require_count,
    with_reason,
)
from .text import Msg, Plural
from .yard import (
    A_BUILDING,
    BUILDING_CARDS,
    BUILDINGS,
    COUNTED,
    CURRENCIES,
    DIRK,
    DIRK_DEALS,
    DISPLAY,
    MAX_MONEY,
    PLURALS,
    SUPPLY,
    BuildingResult,
    check_starting_capital,
    dirk_draws,
    explain_round,
    leftover_owner,
    money_piles,
    owners_buildings,
    owners_money,
    points_of,
    starting_candidates,
)


@dataclass(frozen=True)
class Scoring:
    """One scoring event as it happened: A, B or C, its rankings and everyone's points."""

    name: str
    results: tuple[BuildingResult, ...]
    points: dict[str, int]


@dataclass(frozen=True)
class Leftover:
    building: str
    currency: str
    owner: str | None


@dataclass
class YardTable(ActionTable):
    """The construction-yard game at one table, rebuilt from its events."""

    players: list[str]
    buildings: dict[str, dict[str, int]] = field(default_factory=dict)
    deck_left: int = BUILDING_CARDS - DISPLAY
    display_left: int = DISPLAY
    starting: dict[str, tuple[int, int]] = field(default_factory=dict)
    youngest: str | None = None
    scorings: list[Scoring] = field(default_factory=list)
    dirk_deals: list[str] = field(default_factory=list)
    leftovers: list[Leftover] = field(default_factory=list)
    finished: bool = False

    @classmethod
    def start(cls, players: list[str]) -> YardTable:
        table = cls(list(players))
        table.buildings = {owner: dict.fromkeys(BUILDINGS, 0) for owner in table.owners}
        return table

    # What the table looks like now -------------------------------------------------------

    @property
    def with_dirk(self) -> bool:
        return len(self.players) == 2

    @property
    def owners(self) -> list[str]:
        """Everyone who collects buildings: the players, and Dirk in a 2-player game."""
        return self.players + ([DIRK] if self.with_dirk else [])

    @property
    def scored(self) -> list[str]:
        return [s.name for s in self.scorings]

    @property
    def dirk_due(self) -> str | None:
        """The Dirk deal the rules call for now ("setup", "A" or "B"), if one is missing."""
        if not self.with_dirk:
            return None
        due = [deal for deal in DIRK_DEALS if deal == "setup" or deal in self.scored]
        return next((deal for deal in due if deal not in self.dirk_deals), None)

    @property
    def dirk_cards_due(self) -> int:
        due = self.dirk_due
        return dirk_draws(due, self.deck_left) if due else 0

    @property
    def starter(self) -> str | None:
        """Who starts, once the starting capital is known (and the youngest, if it decides)."""
        if not self.starting:
            return None
        candidates = self.start_candidates
        if len(candidates) == 1:
            return candidates[0]
        return self.youngest if self.youngest in candidates else None

    @property
    def start_candidates(self) -> list[str]:
        cards = {p: n for p, (n, _) in self.starting.items()}
        totals = {p: t for p, (_, t) in self.starting.items()}
        return starting_candidates(cards, totals) if self.starting else []

    @property
    def piles(self) -> list[int]:
        return money_piles(len(self.players), sum(n for n, _ in self.starting.values()))

    def counts_of(self, building: str) -> dict[str, int]:
        return {owner: self.buildings[owner][building] for owner in self.owners}

    def totals(self) -> dict[str, int]:
        """Each owner's points over the scorings so far (Dirk included)."""
        return {o: sum(s.points.get(o, 0) for s in self.scorings) for o in self.owners}

    def ranking(self) -> list[Placing]:
        """The real players by total; Dirk is not among them since he cannot win."""
        totals = self.totals()
        return final_ranking({p: totals[p] for p in self.players})

    def verdict(self) -> str:
        """The final result in one sentence: the winner, or the players who share the victory
        (the rules break no tie). Dirk is never among them."""
        ranking = self.ranking()
        winners = [placing.player for placing in ranking if placing.place == 1]
        best = ranking[0].total
        if len(winners) == 1:
            return Msg("{name} wins with {total} points.", name=winners[0], total=best)
        return Msg("{names} tie on {total} points: a shared victory (the rules break no tie).",
                   names=join_names(winners), total=best)

    def preview(self, scoring: str) -> list[BuildingResult]:
        """What scoring A, B or C would give if it came now."""
        return explain_round(self.buildings, scoring)

    def preview_points(self, scoring: str) -> dict[str, int]:
        return points_of(self.preview(scoring), self.owners)

    # Actions -----------------------------------------------------------------------------


    def _owner(self, name: object) -> str:
        if name not in self.owners:
            raise RuleError(Msg("{name!r} is not at this table.", name=name))
        return str(name)

    def _player(self, name: object) -> str:
        if name not in self.players:
            raise RuleError(Msg("{name!r} is not a player at this table.", name=name))
        return str(name)

    def _check_room(self, building: str, more: int) -> None:
        held = sum(row[building] for row in self.buildings.values())
        if held + more > SUPPLY[building]:
            raise RuleError(Msg("There are only {supply} in the game and {held} are already "
                                "recorded.", supply=COUNTED[building](SUPPLY[building]), held=held))

    def _check_no_deal_due(self) -> None:
        if self.dirk_due:
            raise RuleError(Plural("First deal Dirk his {n} card.",
                                   "First deal Dirk his {n} cards.", n=self.dirk_cards_due))

    @reads("cards", "totals")
    def _apply_starting_money(self, payload: Mapping[str, Any]) -> None:
        """Set-up: each player's starting money cards and their total decide who starts."""
        cards, totals = payload.get("cards", {}), payload.get("totals", {})
        if not isinstance(cards, Mapping) or not isinstance(totals, Mapping):
            raise RuleError(Msg("Enter each player's starting cards and total."))
        if set(cards) != set(self.players) or set(totals) != set(self.players):
            raise RuleError(Msg("Enter the starting money of every player at the table."))
        starting = {p: check_starting_capital(p, cards[p], totals[p]) for p in self.players}
        money_piles(len(self.players), sum(n for n, _ in starting.values()))  # raises if too many
        self.starting, self.youngest = starting, None

    @reads("player")
    def _apply_youngest(self, payload: Mapping[str, Any]) -> None:
        """Set-up: the youngest of the players still tied to start."""
        player = self._player(payload.get("player"))
        if player not in self.start_candidates:
            raise RuleError(Msg("{player} is not among those tied to start.", player=player))
        self.youngest = player

    @reads("player", "building", "for")
    def _apply_buy(self, payload: Mapping[str, Any]) -> None:
        """A purchase: the buyer keeps the card, or in a 2-player game may donate it to Dirk."""
        buyer = self._player(payload.get("player"))
        building = self._building(payload.get("building"))
        receiver = self._owner(payload.get("for", buyer))
        if receiver not in (buyer, DIRK):
            raise RuleError(Msg("{buyer} cannot buy for {receiver}.", buyer=buyer,
                                receiver=receiver))
        self._check_no_deal_due()
        if self.deck_left == 0 and self.display_left == 0:
            raise RuleError(Msg("No building cards are left to buy."))
        self._check_room(building, 1)
        self.buildings[receiver][building] += 1
        if self.deck_left > 0:
            self.deck_left -= 1
        else:
            self.display_left -= 1

    def _building(self, building: object) -> str:
        if not isinstance(building, str) or building not in SUPPLY:
            raise RuleError(Msg("Unknown building {building!r}.", building=building))
        return str(building)

    @reads("buildings")
    def _apply_dirk_deal(self, payload: Mapping[str, Any]) -> None:
        """Dirk's cards from the deck: 6 at the start, 6 after A, a third of the deck after B."""
        due = self.dirk_due
        if due is None:
            raise RuleError(Msg("Dirk is not due any cards now."))
        dealt = self._building_counts(payload.get("buildings"))
        expected = self.dirk_cards_due
        if sum(dealt.values()) != expected:
            raise RuleError(Plural("Dirk gets exactly {n} card now; {entered} were entered.",
                                   "Dirk gets exactly {n} cards now; {entered} were entered.",
                                   n=expected, entered=sum(dealt.values())))
        for building, count in dealt.items():
            self._check_room(building, count)
        for building, count in dealt.items():
            self.buildings[DIRK][building] += count
        self.deck_left -= expected
        self.dirk_deals.append(due)

    def _building_counts(self, counts: object) -> dict[str, int]:
        """Dirk's new cards by building type."""
        if not isinstance(counts, Mapping):
            raise RuleError(Msg("Give the cards by building type."))
        checked = {}
        for building, count in counts.items():
            building = self._building(building)
            label = Msg("Dirk's new {buildings}", buildings=PLURALS[building])
            checked[building] = require_count(count, label, 0, SUPPLY[building])
        return checked

    @reads("owner", "building", "count", "reason")
    def _apply_correct(self, payload: Mapping[str, Any]) -> None:
        """A correction by the players: set one owner's count of one building."""
        check_reason(payload.get("reason"))
        owner = self._owner(payload.get("owner"))
        building = self._building(payload.get("building"))
        count = require_count(payload.get("count"), owners_buildings(owner, building),
                              0, SUPPLY[building])
        self._check_room(building, count - self.buildings[owner][building])
        self.buildings[owner][building] = count

    @reads("left", "reason")
    def _apply_deck(self, payload: Mapping[str, Any]) -> None:
        """A correction by the players: the building cards really left in the deck."""
        check_reason(payload.get("reason"))
        self.deck_left = require_count(payload.get("left"), Msg("The cards left in the deck"),
                                       0, BUILDING_CARDS - DISPLAY)

    @reads("scoring")
    def _apply_score(self, payload: Mapping[str, Any]) -> None:
        """Scoring A or B, "as soon as the corresponding card is drawn"; C comes with the end."""
        name = payload.get("scoring")
        expected = "A" if not self.scorings else "B"
        if name not in ("A", "B") or len(self.scorings) >= 2:
            raise RuleError(
                Msg("Scorings A and B come from the money deck; C is the final scoring."))
        if name != expected:
            raise RuleError(Msg("Scoring {scoring} comes next.", scoring=expected))
        self._check_no_deal_due()
        self._score(expected)

    def _score(self, name: str) -> None:
        results = explain_round(self.buildings, name)
        self.scorings.append(Scoring(name, tuple(results), points_of(results, self.owners)))

    @reads("money", "leftovers")
    def _apply_final(self, payload: Mapping[str, Any]) -> None:
        """The end: leftover display cards go to the most money of their currency, then C."""
        if self.scored != ["A", "B"]:
            raise RuleError(Msg("The final scoring comes after scorings A and B."))
        self._check_no_deal_due()
        money = self._money(payload.get("money", {}))
        cards = self._leftover_cards(payload.get("leftovers", []))
        leftovers = [Leftover(b, c, leftover_owner(c, money)) for b, c in cards]
        for leftover in leftovers:
            if leftover.owner:
                self._check_room(leftover.building, 1)
                self.buildings[leftover.owner][leftover.building] += 1
        self.leftovers = leftovers
        self._score("C")
        self.finished = True

    def _money(self, money: object) -> dict[str, dict[str, int]]:
        if not isinstance(money, Mapping) or not set(money) <= set(self.players):
            raise RuleError(Msg("Money is entered for the players at this table only."))
        checked: dict[str, dict[str, int]] = {}
        for player, amounts in money.items():
            if not isinstance(amounts, Mapping) or not set(amounts) <= set(CURRENCIES):
                raise RuleError(Msg("Enter {player}'s money by currency.", player=player))
            checked[player] = {
                c: require_count(amounts.get(c, 0), owners_money(player, c), 0, MAX_MONEY)
                for c in CURRENCIES
            }
        return checked

    def _leftover_cards(self, cards: object) -> list[tuple[str, str]]:
        if not isinstance(cards, list) or len(cards) > DISPLAY:
            raise RuleError(Msg("At most {display} building cards can be left on display.",
                                display=DISPLAY))
        checked = []
        for card in cards:
            if not isinstance(card, Mapping) or card.get("currency") not in CURRENCIES:
                raise RuleError(Msg("Each leftover card needs a building and a currency."))
            checked.append((self._building(card.get("building")), str(card["currency"])))
        return checked


def describe(kind: str, payload: Mapping[str, Any]) -> str:
    """One action in words, for the history page and the undo and redo buttons."""
    if kind == "buy":
        player, building = payload.get("player"), str(payload.get("building"))
        bought = A_BUILDING.get(building, building)
        if payload.get("for", player) == DIRK:
            return Msg("{player} bought {building} for Dirk", player=player, building=bought)
        return Msg("{player} bought {building}", player=player, building=bought)
    if kind == "dirk_deal":
        dealt = payload.get("buildings")
        return Msg("Dirk was dealt {cards}",
                   cards=_cards_in_words(dealt if isinstance(dealt, Mapping) else {}))
    if kind == "score":
        return Msg("Scoring {scoring}", scoring=payload.get("scoring"))
    if kind == "final":
        return Msg("End of the game: leftover cards given out, final scoring C")
    if kind == "starting_money":
        return Msg("Starting money entered")
    if kind == "youngest":
        return Msg("{player} is the youngest and starts", player=payload.get("player"))
    if kind == "correct":
        return with_reason(_correction(payload), payload)
    if kind == "deck":
        left = payload.get("left")
        return with_reason(Plural("Correction: {n} building card left in the deck",
                                  "Correction: {n} building cards left in the deck",
                                  n=left if isinstance(left, int) else 0), payload)
    return kind


def _correction(payload: Mapping[str, Any]) -> str:
    building, count = str(payload.get("building")), payload.get("count")
    if building not in COUNTED or not isinstance(count, int):
        return f"Correction: {payload}"  # never recorded: the rules refuse such a correction
    return Msg("Correction: {owner} has {held}", owner=payload.get("owner"),
               held=COUNTED[building](count))


def _cards_in_words(counts: Mapping[Any, Any]) -> str:
    """'3 parks, 2 museums and 1 church', each part still translatable."""
    parts = [COUNTED[b](n) for b, n in counts.items() if b in COUNTED and isinstance(n, int) and n]
    if not parts:
        return Msg("no cards")
    listed = parts[0]
    for part in parts[1:-1]:
        listed = Msg("{first}, {next}", first=listed, next=part)
    return listed if len(parts) == 1 else Msg("{names} and {last}", names=listed, last=parts[-1])
