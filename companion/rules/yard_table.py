"""A construction-yard game at the table: the state that the event log replays into.

Each action kind has one `_apply_<kind>` method that checks everything first and only then
changes the state, so an illegal action raises RuleError and leaves the state as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .common import (
    ActionTable,
    Placing,
    RuleError,
    Step,
    check_reason,
    final_ranking,
    known,
    reads,
    require_count,
    said_at,
    seat_after,
    winners,
)
from .text import Msg, Plural, and_list
from .yard import (
    BUILDING_CARDS,
    BUILDINGS,
    COUNTED,
    DIRK,
    DIRK_DEALS,
    DISPLAY,
    PLURALS,
    SUPPLY,
    BuildingResult,
    check_starting_capital,
    dirk_draws,
    explain_round,
    leftover_owner,
    money_piles,
    owners_buildings,
    points_of,
    starting_candidates,
)
from .yard_end import (
    check_money,
    leftover_cards,
    leftovers_taken,
    majority_holders,
    not_over_yet,
    one_card_per_space,
)
from .yard_words import cards_in_words, describe

__all__ = ["Leftover", "Scoring", "YardState", "describe"]

DEAL_NAMES = {"setup": Msg("at the start"), "A": Msg("after scoring A"),
              "B": Msg("after scoring B")}


@dataclass(frozen=True)
class Scoring:
    """One scoring event as it happened: A, B or C, its rankings and everyone's points."""

    name: str
    results: tuple[BuildingResult, ...]
    points: dict[str, int]


@dataclass(frozen=True)
class Leftover:
    building: str
    currency: str | None  # the space it lay on (None: the table said only who took it)
    owner: str | None


@dataclass
class YardState(ActionTable):
    """The construction-yard game at one table, rebuilt from its events."""

    AT_THE_TABLE = ("kept",)  # a deal kept as Dirk got it (ruling "dirk_kept")
    players: list[str]
    buildings: dict[str, dict[str, int]] = field(default_factory=dict)
    deck_left: int = BUILDING_CARDS - DISPLAY
    starting: dict[str, tuple[int, int]] = field(default_factory=dict)
    youngest: str | None = None
    scorings: list[Scoring] = field(default_factory=list)
    dirk_deals: list[str] = field(default_factory=list)
    # The deals Dirk keeps as he got them at the table, though a change of an earlier action
    # makes the rules call for another number of cards (ruling "dirk_kept").
    dirk_kept: list[str] = field(default_factory=list)
    # The deals that came with no card (a scoring with an empty deck, or fewer than 3 cards
    # after B): no deal at the table, over as the scoring is.
    dirk_none: list[str] = field(default_factory=list)
    leftovers: list[Leftover] = field(default_factory=list)
    last_buyer: str | None = None
    # A scoring card ended the last buyer's turn: "scoring takes place immediately, before the
    # next player's turn".
    turn_ended: bool = False
    finished: bool = False
    # What the last action did; not game state, so a refused action clearing it changes nothing.
    note: str | None = field(default=None, repr=False, compare=False)

    @classmethod
    def start(cls, players: list[str]) -> YardState:
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
    def dirk_deal_next(self) -> str | None:
        """The Dirk deal the rules call for now ("setup", "A" or "B") and not yet dealt, however
        many cards it holds."""
        if not self.with_dirk:
            return None
        called = [deal for deal in DIRK_DEALS if deal == "setup" or deal in self.scored]
        return next((deal for deal in called if deal not in self.dirk_deals), None)

    @property
    def dirk_due(self) -> str | None:
        """The Dirk deal the rules call for now, if one is missing. A deal of 0 cards (a third
        of fewer than 3 cards after B, rounded down; an empty deck) is no deal: nothing is due,
        and play goes on."""
        deal = self.dirk_deal_next
        return deal if deal is not None and dirk_draws(deal, self.deck_left) > 0 else None

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

    @property
    def unbought(self) -> dict[str, int]:
        """The building cards nobody holds yet, by type: those in the deck and on display."""
        return {b: SUPPLY[b] - sum(row[b] for row in self.buildings.values()) for b in BUILDINGS}

    @property
    def on_display(self) -> int:
        """The building cards on display: every card not held is in the deck or on display."""
        return max(0, sum(self.unbought.values()) - self.deck_left)

    @property
    def game_over(self) -> bool:
        """"The game ends ... as soon as the building cards can not be replenished completely up
        to 4 because the pile is empty" (after that player's turn)."""
        return self.deck_left == 0 and self.on_display < DISPLAY

    @property
    def up_next(self) -> str | None:
        """What comes next, as far as the app can know it without a tap for taking money: the
        set-up, Dirk's cards, the end (while the last buyer may still buy, and after), who
        bought last and who may act after them, or after a scoring the next player."""
        if self.finished:
            return None
        if self.dirk_due:
            return Plural("Deal Dirk his {n} card.", "Deal Dirk his {n} cards.",
                          n=self.dirk_cards_due)
        if self.still_buying and self.on_display and self.next_scoring:  # ruling "never_drawn"
            return Msg("The display cannot be refilled: {player} may still buy after paying "
                       "exactly; then comes the final scoring (scoring {scoring} first, if its "
                       "card comes with the money after this turn).", player=self.still_buying,
                       scoring=self.next_scoring)
        if self.still_buying and self.on_display:
            return Msg("The display cannot be refilled: {player} may still buy after paying "
                       "exactly; then comes the final scoring.", player=self.still_buying)
        if self.game_over:
            return Msg("The game is over: the final scoring comes next.")
        if self.turn_ended:
            return Msg("Scoring {scoring} done: its card goes in front of the next player, "
                       "whose turn it is.", scoring=self.scored[-1])
        if self.last_buyer is None:
            return self._first_turn()
        return Msg("{player} goes on after paying exactly; otherwise it is {next}'s turn.",
                   player=self.last_buyer, next=seat_after(self.players, self.last_buyer))

    def _first_turn(self) -> Msg:
        """Who takes the first turn, with the money piles the table still makes for it (once
        the starting capital is known; the set-up card folds away then); on a tie, who ties
        (the youngest of them starts); or, not entered, the rule that decides it."""
        if self.starter:
            return Msg("{player} takes the first turn. Money piles: {piles} cards, scoring A "
                       "shuffled into pile 2 and B into pile 4.", player=self.starter,
                       piles=", ".join(str(n) for n in self.piles))
        if self.starting:  # a tie on cards and total (found at a table: the rule said again)
            return Msg("{names} tie on cards and total: the youngest of them takes the first "
                       "turn.", names=and_list(self.start_candidates))
        return Msg("The player with the fewest money cards takes the first turn; on a tie, "
                   "the lowest total, then the youngest.")

    @property
    def still_buying(self) -> str | None:
        """Once the display cannot be refilled, the player whose turn it is, who may still buy
        after paying exactly: the last buyer, unless a scoring card drawn since ended that
        turn (it is drawn when the money is refilled, after a turn)."""
        return self.last_buyer if self.game_over and not self.turn_ended else None

    @property
    def next_scoring(self) -> str | None:
        """The scoring whose card may be drawn next: A, then B; none once a scoring card came
        with the money after the last turn (a whole pile of money lies between A and B, and
        one refill draws at most 4 cards)."""
        if len(self.scorings) >= 2 or (self.game_over and self.turn_ended):
            return None
        return "B" if self.scorings else "A"

    @property
    def never_drawn(self) -> list[str]:
        """Once the game is over, the scorings A and B whose card was not drawn before the end:
        they never come (C "takes place at the end of the game", `RULINGS["never_drawn"]`)."""
        return [name for name in ("A", "B") if name not in self.scored] if self.game_over else []

    def why_not_over(self) -> str:
        """Why the game goes on, while it does."""
        return not_over_yet(self.deck_left, self.on_display)

    @property
    def leftover_buildings(self) -> list[str]:
        """The cards left on display at the end, known by elimination: with the deck empty, every
        card nobody holds lies on display."""
        return [b for b, left in self.unbought.items() for _ in range(left)]

    @property
    def leftovers_told_apart(self) -> list[tuple[str, int, int]]:
        """Each card left on display with which of its building's it is and of how many
        ("Church", 2, 3: the end form's "Church 2 of 3", its legend and its refusal alike)."""
        cards = self.leftover_buildings
        return [(b, cards[:k].count(b) + 1, cards.count(b)) for k, b in enumerate(cards)]

    def leftovers_given(self) -> list[tuple[Leftover, int]]:
        """The leftover display cards as the result says them: alike cards (one building, space
        and taker) once, with how many (two skyscrapers on one space to Anna: one line, not the
        same line twice), in the order given."""
        alike = Counter(self.leftovers)
        return [(leftover, alike.pop(leftover)) for leftover in self.leftovers if leftover in alike]

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
        first, best = winners(ranking), ranking[0].total
        if len(first) == 1:
            return Msg("{name} wins with {total} points.", name=first[0], total=best)
        return Msg("{names} tie on {total} points: a shared victory (the rules break no tie).",
                   names=and_list(first), total=best)

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
        """A purchase: the buyer keeps the card, or in a 2-player game may donate it to Dirk
        ("Special rules for 2 players"; at a bigger table a player may be called Dirk)."""
        buyer = self._player(payload.get("player"))
        building = self._building(payload.get("building"))
        receiver = self._owner(payload.get("for", buyer))
        if receiver != buyer and not (self.with_dirk and receiver == DIRK):
            raise RuleError(Msg("{buyer} cannot buy for {receiver}.", buyer=buyer,
                                receiver=receiver))
        self._check_no_deal_due()
        if self.deck_left == 0 and self.on_display == 0:
            raise RuleError(Msg("No building cards are left to buy."))
        self._check_turn_goes_on(buyer)
        self._check_room(building, 1)
        self.buildings[receiver][building] += 1
        if self.deck_left > 0:
            self.deck_left -= 1  # the display is refilled from the deck
        self.last_buyer, self.turn_ended = buyer, False

    def _check_turn_goes_on(self, buyer: str) -> None:
        """"The game ends - after a player has finished their turn - as soon as the building
        cards can not be replenished completely up to 4": once that is so, only the player
        whose turn it is may still buy (having paid exactly); nobody else takes a turn."""
        if not self.game_over or buyer == self.still_buying:
            return
        if self.last_buyer is None:
            raise RuleError(Msg("The game is over: the display cannot be refilled to 4. Do the "
                                "final scoring."))
        if self.turn_ended:
            raise RuleError(Msg("The game is over: scoring {scoring} ended {player}'s turn, and "
                                "the display cannot be refilled to 4. Do the final scoring.",
                                scoring=self.scored[-1], player=self.last_buyer))
        raise RuleError(Msg("The game is over: the display could not be refilled to 4 after "
                            "{player}'s purchase. Only {player} may still buy, after paying "
                            "exactly; then comes the final scoring.", player=self.last_buyer))

    def _building(self, building: object) -> str:
        if not isinstance(building, str) or building not in SUPPLY:
            raise RuleError(Msg("Unknown building {building!r}.", building=building))
        return str(building)

    def meaning(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """A deal of Dirk's cards records which deal it is: at the start, after scoring A or
        after scoring B (the same six cards at the start and after A)."""
        return known(deal=self.dirk_deal_next) if kind == "dirk_deal" else {}

    def meant_otherwise(self, key: str, recorded: Any, here: Any) -> str:
        if key != "deal":
            return super().meant_otherwise(key, recorded, here)
        def named(deal: Any) -> Any:  # a tampered log's deal may be any value, a list too
            return DEAL_NAMES.get(deal, deal) if isinstance(deal, str) else deal
        return Msg("This was Dirk's deal {recorded}; here his deal {here} is due.",
                   recorded=named(recorded), here=named(here))

    def read_again(self, kind: str, payload: Mapping[str, Any]) -> Step | None:
        """Ruling ("dirk_kept"): a deal of Dirk's refused after a change of an earlier action
        is the same deal, kept as he got it at the table (`kept`), when only the number of
        cards the rules now call for differs (a purchase before it taken out leaves a third of
        another deck after B)."""
        if kind != "dirk_deal" or payload.get("kept") is True:
            return None
        return kind, {**payload, "kept": True}

    def _before_action(self) -> None:
        self.note = None

    @reads("buildings", "deal", "kept")
    def _apply_dirk_deal(self, payload: Mapping[str, Any]) -> None:
        """Dirk's cards from the deck: 6 at the start, 6 after A, a third of the deck after B.
        A deal of 0 cards is no deal (`_deal_nothing`); one recorded before that, with no
        cards, stands for that no deal. A deal `kept` as Dirk got it at the table (ruling
        "dirk_kept", after a change of an earlier action) holds the cards it names, whatever
        number the rules now call for, as far as the deck holds them."""
        due = self.dirk_deal_next
        dealt = self._building_counts(payload.get("buildings"))
        if due is None and payload.get("deal") in self.dirk_none and not any(dealt.values()):
            return  # a deal of 0 cards recorded before (the app asked for it): no deal
        if due is None:
            raise RuleError(Msg("Dirk is not due any cards now."))
        expected, entered = dirk_draws(due, self.deck_left), sum(dealt.values())
        if payload.get("kept") is True:
            self._check_deck_holds(entered)
        elif expected == 0 < entered:
            raise RuleError(Msg("Dirk is not due any cards now."))
        elif entered != expected:
            raise RuleError(Plural("Dirk gets exactly {n} card now; {entered} were entered.",
                                   "Dirk gets exactly {n} cards now; {entered} were entered.",
                                   n=expected, entered=entered))
        for building, count in dealt.items():
            with said_at(building):  # under the count typed (found at a table: in the strip)
                self._check_room(building, count)
        for building, count in dealt.items():
            self.buildings[DIRK][building] += count
        self.deck_left -= entered
        self.dirk_deals.append(due)
        if entered != expected:
            self.dirk_kept.append(due)
            self.note = Plural(
                "Dirk keeps the {n} card he got at the table, though the rules would now deal "
                "him {due} (ruling).",
                "Dirk keeps the {n} cards he got at the table, though the rules would now deal "
                "him {due} (ruling).", n=entered, due=expected)

    def entered_again(self, kind: str, was: Mapping[str, Any],
                      now: Mapping[str, Any]) -> dict[str, Any]:
        """A deal kept as Dirk got it at the table stays kept when entered again with as many
        cards (which buildings they were, corrected); with another number it is a deal the
        rules count again (found by a rules audit: a kept deal of 10 changed to 20 was kept)."""
        again = super().entered_again(kind, was, now)
        if kind == "dirk_deal" and again.get("kept") is True and \
                sum(self._building_counts(now.get("buildings")).values()) != \
                sum(self._building_counts(was.get("buildings")).values()):
            del again["kept"]
        return again

    def _check_deck_holds(self, entered: int) -> None:
        """Dirk's cards come from the deck: a deal kept as he got it cannot hold more."""
        if entered > self.deck_left:
            raise RuleError(Plural(
                "Dirk got {entered} cards at the table; the deck holds only {n} card here.",
                "Dirk got {entered} cards at the table; the deck holds only {n} cards here.",
                n=self.deck_left, entered=entered))

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
        owner, building, count = self._correction(payload)
        self.buildings[owner][building] = count

    def _correction(self, payload: Mapping[str, Any]) -> tuple[str, str, int]:
        """A count set by hand: at most the building's supply less what the others hold, said
        beside the count (found at a table: "There are only 7 theaters in the game and 2 are
        already recorded", the 2 counting Cy's own theater the new count replaces)."""
        check_reason(payload.get("reason"))
        owner = self._owner(payload.get("owner"))
        building = self._building(payload.get("building"))
        what = owners_buildings(owner, building)
        count = require_count(payload.get("count"), what, 0, SUPPLY[building], key="count")
        others = sum(row[building] for holder, row in self.buildings.items() if holder != owner)
        if count + others > SUPPLY[building]:
            raise RuleError(Msg("There are only {supply} in the game and the others hold {others}: "
                                "{what} can be at most {most}.",
                                supply=COUNTED[building](SUPPLY[building]), others=others,
                                what=what, most=SUPPLY[building] - others), key="count")
        return owner, building, count

    def check_cards_fit(self, kind: str, payload: Mapping[str, Any]) -> None:
        """A correction the players enter now keeps the 54 building cards: each is held, in the
        deck or on display, so a deck holds at most the cards nobody holds, and a count raised
        takes its cards from those on display. Checked where the table enters one, not on
        replay: a log recorded before keeps its reading (and the table its way to undo it)."""
        if kind == "deck":
            self._check_deck_fits(require_count(payload.get("left"),
                                                Msg("The cards left in the deck"),
                                                0, BUILDING_CARDS - DISPLAY))
        elif kind == "correct":
            owner, building, count = self._correction(payload)
            self._check_from_display(count - self.buildings[owner][building])

    def _check_from_display(self, more: int) -> None:
        """Cards a count correction adds come from those on display, as the app counts them
        beside the deck."""
        if more > self.on_display:
            raise RuleError(key="count", message=Plural(
                "Only {n} building card is neither held by anyone nor in the deck (the app "
                "counts {left} there): a correction cannot add {more}. If the deck holds "
                "fewer, correct it first.",
                "Only {n} building cards are neither held by anyone nor in the deck (the app "
                "counts {left} there): a correction cannot add {more}. If the deck holds "
                "fewer, correct it first.",
                n=self.on_display, left=self.deck_left, more=more))

    @reads("left", "reason")
    def _apply_deck(self, payload: Mapping[str, Any]) -> None:
        """A correction by the players: the building cards really left in the deck."""
        check_reason(payload.get("reason"))
        self.deck_left = require_count(payload.get("left"), Msg("The cards left in the deck"),
                                       0, BUILDING_CARDS - DISPLAY)

    def _check_deck_fits(self, left: int) -> None:
        """The deck holds at most the cards nobody holds, less the DISPLAY on display: while
        the deck has cards, the display is refilled to 4 after each purchase."""
        free = sum(self.unbought.values())
        if left > free:
            raise RuleError(key="left", message=Plural(
                "Only {n} building card is not held by anyone: the deck cannot hold {left}.",
                "Only {n} building cards are not held by anyone: the deck cannot hold {left}.",
                n=free, left=left))
        if left > 0 and free - left < DISPLAY:
            raise RuleError(key="left", message=Msg(
                "{n} building cards are not held by anyone, and while the deck has cards 4 of "
                "them lie on display: the deck holds at most {most}, not {left}.",
                n=free, most=max(0, free - DISPLAY), left=left))

    @reads("scoring")
    def _apply_score(self, payload: Mapping[str, Any]) -> None:
        """Scoring A or B, "as soon as the corresponding card is drawn"; C comes with the end."""
        name = payload.get("scoring")
        if name not in ("A", "B") or len(self.scorings) >= 2:
            raise RuleError(
                Msg("Scorings A and B come from the money deck; C is the final scoring."))
        expected = self.next_scoring
        if expected is None:
            raise RuleError(Msg(
                "The game is over: scoring {scoring} came with the money after {player}'s last "
                "turn, and no other scoring card can come with it (a whole pile of money lies "
                "between A and B). Do the final scoring.",
                scoring=self.scored[-1], player=self.last_buyer))
        if name != expected:
            raise RuleError(Msg("Scoring {scoring} comes next.", scoring=expected))
        self._check_no_deal_due()
        self._score(expected)
        self.turn_ended = True
        self._deal_nothing(expected)

    def _deal_nothing(self, scoring: str) -> None:
        """Dirk's deal right after a scoring, when it holds no card (a third of fewer than 3
        cards, rounded down; an empty deck), is no deal: it is over with the scoring, and a
        deck corrected later never calls for it again."""
        if self.dirk_deal_next == scoring and dirk_draws(scoring, self.deck_left) == 0:
            self.dirk_deals.append(scoring)
            self.dirk_none.append(scoring)

    def _score(self, name: str) -> None:
        results = explain_round(self.buildings, name)
        self.scorings.append(Scoring(name, tuple(results), points_of(results, self.owners)))

    @reads("money", "leftovers", "most")
    def _apply_final(self, payload: Mapping[str, Any]) -> None:
        """The end: leftover display cards go to the most money of their currency, then C, "at
        the end of the game": a scoring whose card was not drawn by then never comes
        (`never_drawn`).

        Who takes each card is given with it (`to`: a player, or None for a tie or nobody);
        logs from before it give each card's currency and who holds the most of each currency
        (`most`: currency -> player or None), or, older still, every player's `money`.
        """
        self._check_no_deal_due()
        raw = payload.get("leftovers", [])
        if "money" not in payload and "most" not in payload:  # an end as the app records it
            taken = leftovers_taken(raw, self.players)
            self._check_the_end([b for b, _ in taken])
            self._give_out([Leftover(b, None, to) for b, to in taken])
            return
        cards = leftover_cards(raw)
        if "most" in payload:
            self._check_the_end([b for b, _ in cards])
            one_card_per_space([c for _, c in cards])
            most = majority_holders(payload.get("most"), [c for _, c in cards], self.players)
            leftovers = [Leftover(b, c, most[c]) for b, c in cards]
        else:  # the oldest logs' end, refereed as it was then: after A and B, end or not
            if self.scored != ["A", "B"]:
                raise RuleError(Msg("The final scoring comes after scorings A and B."))
            money = check_money(payload.get("money", {}), self.players)
            leftovers = [Leftover(b, c, leftover_owner(c, money)) for b, c in cards]
        self._give_out(leftovers)

    def _give_out(self, leftovers: list[Leftover]) -> None:
        """Each leftover card to who takes it (none on a tie), then scoring C: the end."""
        for leftover in leftovers:
            if leftover.owner:
                self._check_room(leftover.building, 1)
                self.buildings[leftover.owner][leftover.building] += 1
        self.leftovers = leftovers
        self._score("C")
        self.finished = True

    def _check_the_end(self, buildings: list[str]) -> None:
        """The game is over and the cards named are those left on display."""
        if not self.game_over:
            raise RuleError(self.why_not_over())
        if sorted(buildings) != sorted(self.leftover_buildings):
            raise RuleError(Msg("By the app's count the cards left on display are {cards}; "
                                "if that is wrong, correct the counts first.",
                                cards=cards_in_words(self.unbought)))

