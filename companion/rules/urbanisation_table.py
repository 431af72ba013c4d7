"""An Urbanisation game at the table: the tracking cards, the grain on the board, the turns and
the victory points, rebuilt from the event log.

The players move the pieces; the app keeps the bookkeeping. Each action kind has one
`_apply_<kind>` method that checks everything before it changes anything, so a refused action
leaves the state as it was. The rules are in urbanisation.py, the pieces in
urbanisation_actions.py.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .common import (
    ActionTable,
    Placing,
    RuleError,
    Step,
    check_reason,
    leaders,
    reads,
    require_count,
    require_turn,
    said_at,
    shown_reason,
    winners,
)
from .text import Account, Msg, Plural, and_list, listed
from .urbanisation import (
    ACTIONS_PER_TURN,
    COLOUR_NAMES,
    FACTORY_BONUS_VP,
    FACTORY_VP,
    INVENTION_SPACES,
    INVENTION_VP,
    LAST_WORK_ORDER_BONUS,
    MAX_GRAIN,
    MAYOR_VP,
    ORDERS_OF,
    PRICE_MARKERS,
    START_VP,
    TURNS,
    WORK_ORDERS_PER_COLOUR,
    Market,
    Setup,
    buy_grain,
    check_players,
    collect_taxes,
    counted,
    erect,
    factory_bonus,
    factory_to_remove,
    final_ranking,
    grain_refill,
    invention_cost,
    land_cost,
    mayor_order,
    mill_worker,
    sell_grain,
    setup,
)
from .urbanisation_actions import (
    BONUS_FACTORIES,
    CHARACTERS,
    COLOURS,
    FACTORY_NAMES,
    FINAL_TURN,
    MAX_MONEY,
    SETUP_TURN,
    CityCard,
    Factory,
    GrainArea,
    Invention,
    Report,
    check_colour,
    check_flag,
    check_goods,
    check_new_abilities,
    check_new_bonuses,
    check_orders,
    check_pools,
    check_signed,
    check_sowing,
    citizens_card,
    factories_card,
    factory_name,
    harvest_card,
    invention_card,
    invention_marker,
    listing,
    new_factory,
    orders_in_words,
    per_player,
    production,
    setup_lines,
    trade_note,
    upgraded,
    work_order_gains,
)

# The starting money the set-up form fills in: the rulebook text does not show it (RULINGS).
START_MONEY = 10

SEGMENTS = {
    "setup": Msg("First set up the game."),
    "characters": Msg("First the characters: {player} chooses one."),
    "actions": Msg("First the actions: {player} acts in action phase {phase} of 4."),
    "administration": Msg("All actions are taken: do the administration."),
    "final": Msg("Turn 6 is over: do the final scoring."),
}

RULINGS = {
    "seats": Msg("Ruling: the players are listed in seating order, clockwise."),
    "tracking": Msg(
        "Ruling: the app starts the tracking card's citizens on 0, the house line on 1 (the "
        "set-up house) and the tax marker on 10."),
    "money": Msg(
        "Ruling: the rulebook text names no starting money; the app fills in ${money} for "
        "everyone: change it to what your rulebook says.",
        money=START_MONEY),
    "two_three": Msg(
        "Ruling: for 2 or 3 players the app applies the set-up changes to grain, factory cards "
        "and covered territories; any other change your rulebook names is the table's to make."),
    "board": Msg(
        "Ruling: the app counts territories and building grounds, not the map: the players check "
        "that new land shares an edge with theirs and is not covered."),
    "pools": Msg(
        "Ruling: the rulebook text does not say how many buildings and factory markers the pool "
        "holds; the app counts a pool only when its size is entered at set-up."),
    "markers": Msg(
        "Ruling: the app does not count action markers; the players check that one is free."),
    "pass": Msg("Ruling: a player who cannot or will not act passes his action phase."),
    "stand_in": Msg("Ruling: an action taken out, or one the rules no longer take after a "
                    "change of an earlier one, becomes a pass of that action phase, so that "
                    "every other action keeps its turn and phase; change it too if it happened "
                    "differently."),
    "trade": Msg(
        "Ruling: one trade either buys or sells grain; the Mill Worker's free grain comes first."),
    "characters": Msg(
        "Ruling: every character returns to the display at the start of each turn; one not played "
        "is lost. The Mayor is given, not chosen: its holder also chooses one character card, "
        "as everyone does (\"may choose an additional character card\")."),
    "double_orders": Msg(
        "Ruling: the additional work orders are of the colour the players enter (the one shown), "
        "by default that of the space."),
    "attract": Msg(
        "Ruling: the app asks whether all work order spaces of the card are filled; only the "
        "character who takes any factory skips that."),
    "produce": Msg(
        "Ruling: a factory produces at most once per turn (its production space stays full until "
        "the factories phase), only while active, up to the goods its space shows."),
    "any_colour": Msg(
        "Ruling: with the Any colour character, money and the money inventions follow the work "
        "orders' colour; the VP inventions follow the factory's colour."),
    "any_colour_plain": Msg(
        "Ruling: with the Any colour character, money follows the work orders' colour."),
    "inventions": Msg(
        "Ruling: a marker entering the invention track moves from before space 1 (space 1 is "
        "free); a space without cards left cannot be chosen; each ability exists once."),
    "professor": Msg(
        "Ruling: the Professor takes all cards at the space of the invention action he is played "
        "with."),
    "invention_cards": Msg(
        "Ruling: an invention card is chosen whole, its ability with the end bonus printed below "
        "it on the rulebook's card sheet (18 cards, 13 with an end bonus); a card printed "
        "otherwise is described in the detailed form (ability, end bonus, or both)."),
    "invention_marker": Msg(
        "Ruling: unless the players choose the marker, the one that makes the move cheapest "
        "moves: the marker nearest left of the docking space, or a new one."),
    "factory_name": Msg(
        "Ruling: a factory card is another factory unless the players choose the factory an "
        "invention card names (5 of the 18 cards are named by no invention card); \"Which factory "
        "is it?\" corrects it later."),
    "invention_bonus": Msg(
        "Ruling: an invention's end bonus counts when the factory it names is among the owner's "
        "factories, active or inactive; with the inventions, each factory attracted is chosen as "
        "one an invention card names or another factory."),
    "sow": Msg(
        "Ruling: one \"Sow seeds\" action may sow on several of the player's empty building "
        "grounds, 1 grain each (up to 2 each with the invention that allows 2 seeds per building "
        "ground); the rulebook's example sows 1, and a table that reads it as 1 grain an action "
        "enters 1."),
    "sow_plain": Msg(
        "Ruling: one \"Sow seeds\" action may sow on several of the player's empty building "
        "grounds, 1 grain each; the rulebook's example sows 1, and a table that reads it as 1 "
        "grain an action enters 1."),
    "harvest": Msg(
        "Ruling: players harvest in turn order; the Farmer's seeds are harvested like sown grain; "
        "sown grain that does not fit below 8 (grain bought after sowing) goes to the return "
        "area; 1 VP per 2 grain counts the grain after the harvest."),
    "factories": Msg(
        "Ruling: production markers return to the board before the inventions' work orders are "
        "handed out; the orange-for-grey exchange comes after those."),
    "factories_plain": Msg(
        "Ruling: production markers return to the board before the orange-for-grey exchange."),
    "vp_turns": Msg(
        "Ruling: the set-up house's 1 VP is recorded at set-up, the end bonuses at the final "
        "scoring; the Mayor's VP in the turn he starts."),
    "exchange_kept": Msg(
        "Ruling: after a change of an earlier action, an administration whose orange-for-grey "
        "exchange is no longer possible stays, without that exchange."),
    "mayor_kept": Msg(
        "Ruling: after a change of an earlier action, the Mayor stays with the player who "
        "received him at the table, and the turn order with him, even where the change leaves "
        "the fewest VP with another player; the turns played after him stay as they were."),
    "tie": Msg(
        "Ruling: tied for the most points, the owner of the highest-numbered factory wins; tied "
        "players without a factory share the place."),
}

# The actions taken in an action phase, one per player in turn order.
PHASE_ACTIONS = frozenset({"pass", "buy_land", "erect", "trade_grain", "sow", "work_orders",
                           "attract", "produce", "taxes", "invention"})
# Why an event is not the action it would be where it is applied again (`meant_otherwise`).
MEANT_OTHERWISE = {
    "turn": Msg("This action belongs to turn {recorded}; here it is turn {here}."),
    "phase": Msg("This action belongs to action phase {recorded} of 4; here action phase "
                 "{here} comes."),
}

# The rulings by the step of the game they rule on: the page folds each step's behind one
# "Rulings (n)" in that step's section. The pools', the tie's and the
# starting money's are said beside what they rule.
RULINGS_BY_STEP = {
    "setup": ("seats", "tracking", "two_three"),
    "turn": ("characters", "markers", "pass", "stand_in", "board", "trade", "sow", "double_orders",
             "attract", "factory_name", "produce", "any_colour", "inventions", "professor",
             "invention_cards", "invention_marker"),
    "administration": ("harvest", "factories", "vp_turns", "mayor_kept", "exchange_kept"),
    "final": ("invention_bonus",),
}
RULINGS_IN_PLACE = ("pools", "tie", "money")
# A game without the Inventions: the rulings about them left out (None), or said without them.
WITHOUT_INVENTIONS = {"factory_name": None, "inventions": None, "professor": None,
                      "invention_cards": None, "invention_marker": None, "invention_bonus": None,
                      "sow": "sow_plain", "any_colour": "any_colour_plain",
                      "factories": "factories_plain"}


@dataclass
class UrbanisationState(ActionTable):
    """The Urbanisation game at one table: players in seating order, clockwise."""

    AT_THE_TABLE = ("mayor",)  # an administration's Mayor (ruling "mayor_kept")
    players: list[str]
    cards: dict[str, CityCard] = field(default_factory=dict)
    inventions: bool = False
    board: Setup | None = None
    grain: GrainArea = field(default_factory=lambda: GrainArea({"barns": [0] * 4, "field": 0}, 0))
    pools: dict[str, int] = field(default_factory=dict)
    docks: list[int] = field(default_factory=list)
    production: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COLOURS, 0))
    removed: list[int] = field(default_factory=list)  # factory cards out of the game, when known
    # Each administration whose factory display the table left out: the factory numbers owned
    # then (the card it removed was the lowest face-up: the lowest number neither owned nor
    # removed, `urbanisation_offers.out_of_play`).
    unseen_removals: tuple[frozenset[int], ...] = ()
    segment: str = "setup"
    turn: int = 1
    action_phase: int = 1
    order: list[str] = field(default_factory=list)
    step: int = 0
    start_player: str | None = None
    # When the last Mayor was chosen: the former start player and everyone's money (why him).
    former_start: str | None = None
    mayor_money: dict[str, int] = field(default_factory=dict)
    chosen: list[str] = field(default_factory=list)
    vp_log: list[tuple[int, str, str, int]] = field(default_factory=list)
    reports: list[Report] = field(default_factory=list)
    # What the last action did; not game state, so a refused action clearing it changes nothing.
    note: str | None = field(default=None, repr=False, compare=False)
    finished: bool = False

    def rulings_at(self, step: str) -> tuple[str, ...]:
        """The rulings of one step of the game (`RULINGS_BY_STEP`); in a game without the
        Inventions, none about them (`WITHOUT_INVENTIONS`)."""
        ruled = RULINGS_BY_STEP[step]
        if self.inventions:
            return ruled
        return tuple(k for k in (WITHOUT_INVENTIONS.get(k, k) for k in ruled) if k)

    @classmethod
    def start(cls, players: list[str]) -> UrbanisationState:
        check_players(len(players))
        table = cls(list(players))
        table.cards = {p: CityCard() for p in players}
        return table

    # What the table looks like now -------------------------------------------------------

    @property
    def current_player(self) -> str | None:
        """Who chooses a character or takes an action now (None between those segments)."""
        if self.segment not in ("characters", "actions"):
            return None
        return self.order[self.step]

    @property
    def up_next(self) -> str | None:
        """Whose turn it is and what comes next, in words (the score strip's line)."""
        if self.finished:
            return None
        if self.segment == "characters":
            return Msg("Turn {turn}: {player} chooses a character.", turn=self.turn,
                       player=self.current_player)
        if self.segment == "actions":
            return Msg("Turn {turn}, action phase {phase} of 4: {player} acts.", turn=self.turn,
                       phase=self.action_phase, player=self.current_player)
        return Msg(SEGMENTS[self.segment].template)

    @property
    def available_characters(self) -> list[str]:
        """The character cards still on display this turn (the Mayor is never chosen)."""
        return [k for k in CHARACTERS if k != "mayor" and k not in self.chosen
                and (k != "professor" or self.inventions)]

    @property
    def display_characters(self) -> list[str]:
        """The character cards put on display at the start of the turn, in their places: a
        hired one keeps its place (shown taken), so the list never shrinks under the thumb."""
        return [k for k in CHARACTERS if k != "mayor" and (k != "professor" or self.inventions)]

    @property
    def supply(self) -> dict[str, int]:
        """Work order markers left on the board, by colour."""
        held = {c: sum(card.orders[c] for card in self.cards.values()) for c in COLOURS}
        return {c: WORK_ORDERS_PER_COLOUR - held[c] - self.production[c] for c in COLOURS}

    @property
    def report(self) -> Report | None:
        return self.reports[-1] if self.reports else None

    @property
    def board_lines(self) -> list[str]:
        """What the board needs for this number of players."""
        return setup_lines(self.board)

    def vp(self, player: str) -> int:
        return sum(v for _, p, _, v in self.vp_log if p == player)

    def totals(self) -> dict[str, int]:
        return {p: self.vp(p) for p in self.players}

    def money(self) -> dict[str, int]:
        return {p: self.cards[p].money for p in self.players}

    def holdings(self) -> dict[str, str]:
        """Each player's money and grain (on the tracking card, and sown: on the grounds and
        the Farmer), which a change's preview shows before and after: grain scores at the
        harvest, 1 VP per 2 (found at a table: a sowing changed from 1 to 2 grain was
        previewed as changing only what the action records)."""
        said: dict[str, str] = {}
        for p in self.players:
            card = self.cards[p]
            sown = card.sown + card.farmer
            said[p] = Msg("${money} · {grain} grain, {sown} sown", money=card.money,
                          grain=card.grain, sown=sown) if sown else \
                Msg("${money} · {grain} grain", money=card.money, grain=card.grain)
        return said

    def vp_by_source(self) -> dict[str, dict[str, int]]:
        """Each player's VP by source (keys of urbanisation_actions.SOURCES)."""
        table: dict[str, dict[str, int]] = {p: {} for p in self.players}
        for _, player, source, vp in self.vp_log:
            table[player][source] = table[player].get(source, 0) + vp
        return table

    def vp_by_turn(self) -> dict[str, dict[int, int]]:
        """Each player's VP by turn: 0 is the set-up, 1-6 the turns, 7 the final scoring."""
        table: dict[str, dict[int, int]] = {p: {} for p in self.players}
        for turn, player, _, vp in self.vp_log:
            table[player][turn] = table[player].get(turn, 0) + vp
        return table

    @property
    def factory_cards(self) -> list[tuple[str, Factory]]:
        """Every factory card in front of a player, active or not, with its owner."""
        return [(p, f) for p in self.players for f in self.cards[p].factories]

    def factory_numbers(self) -> dict[str, list[int]]:
        return {p: [f.number for f in c.factories] for p, c in self.cards.items()}

    def ranking(self) -> list[Placing]:
        """Most points first; a tie goes to the newest (highest-numbered) factory."""
        return final_ranking(self.totals(), self.factory_numbers())

    def verdict(self) -> str:
        """The final result in one sentence, saying how the tie-break decided when it had to:
        "In case of a tie, the tied player who owns the newest factory card wins" (tied
        players without any factory share the place, our ruling)."""
        ranking, newest, tied = self.ranking(), self.newest_factories(), leaders(self.totals())
        best, first = ranking[0].total, winners(ranking)
        if len(tied) == 1:
            return Msg("{name} wins with {total} VP.", name=first[0], total=best)
        if len(first) > 1:
            return Msg("{names} tie on {total} VP and own no factory: a shared victory.",
                       names=and_list(first), total=best)
        runner_up = max(newest[p] for p in tied if p != first[0])
        if not runner_up:
            return Msg("{names} tie on {total} VP; {name} wins with factory {n}: the others own "
                       "none.", names=and_list(tied), total=best, name=first[0],
                       n=newest[first[0]])
        return Msg("{names} tie on {total} VP; {name} wins with the newest factory, {n} to "
                   "{next}.", names=and_list(tied), total=best, name=first[0],
                   n=newest[first[0]], next=runner_up)

    def newest_factories(self) -> dict[str, int]:
        """Each player's highest factory number, the tie-break (0: no factory)."""
        return {p: max(numbers, default=0) for p, numbers in self.factory_numbers().items()}

    def totals_tie(self) -> bool:
        """Whether two players have the same total: the tie-break ranks them (`ranking`), and
        its ruling is said under the ranking."""
        totals = list(self.totals().values())
        return len(set(totals)) < len(totals)

    def final_bonuses(self) -> dict[str, int]:
        """What the final scoring would add now: FACTORY_BONUS_VP for the largest sum of factory
        numbers (a tie: the newest factory) and the end bonus of each invention whose factory
        its owner owns."""
        winner = factory_bonus(self.factory_numbers())
        return {p: (FACTORY_BONUS_VP if p == winner else 0)
                   + sum(i.vp for i in earned_inventions(self.cards[p])) for p in self.players}

    def if_scored_now(self) -> list[Placing]:
        """The ranking if the final scoring came now (the table itself is unchanged)."""
        totals, bonuses = self.totals(), self.final_bonuses()
        return final_ranking({p: totals[p] + bonuses[p] for p in self.players},
                             self.factory_numbers())

    # What an event means -----------------------------------------------------------------

    def meaning(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """An event records who acted and when: an action its turn and action phase, a
        character's hire its turn, the administration the turn it ends, an effect or
        correction the turn its points count in; a sowing, that the grounds it takes stay
        taken (`seeded`)."""
        if kind == "sow" and self.segment == "actions":  # its grounds counted (`CityCard.sow`)
            return {"player": self.current_player, "turn": self.turn, "phase": self.action_phase,
                    "seeded": True}
        if kind in PHASE_ACTIONS and self.segment == "actions":
            return {"player": self.current_player, "turn": self.turn, "phase": self.action_phase}
        if kind == "character" and self.segment == "characters":
            return {"player": self.current_player, "turn": self.turn}
        if kind == "administration" and self.segment == "administration":
            return {"turn": self.turn}
        if kind == "effect" and self.segment != "setup":
            return {"turn": self.turn}
        return {}

    def meant_otherwise(self, key: str, recorded: Any, here: Any) -> str:
        if key not in MEANT_OTHERWISE:
            return super().meant_otherwise(key, recorded, here)
        return Msg(MEANT_OTHERWISE[key].template, recorded=recorded, here=here)

    def read_again(self, kind: str, payload: Mapping[str, Any]) -> Step | None:
        """Ruling ("exchange_kept"): the orange-for-grey exchange is a choice ("You may
        exchange 2 orange for 2 grey work orders"); an administration refused after a change
        of an earlier action because an exchange it lists is no longer possible (the orange
        work orders were fewer, the invention taken out) is the same administration with the
        exchanges still possible, in their order."""
        listed = payload.get("exchange")
        if kind != "administration" or not isinstance(listed, list) or not listed:
            return None
        kept: list[Any] = []
        for player in listed:
            trial = self._draft()
            try:
                trial.apply(kind, {**payload, "exchange": [*kept, player]})
            except RuleError:
                continue
            kept.append(player)
        return (kind, {**payload, "exchange": kept}) if kept != listed else None

    def instead_of(self, kind: str, payload: Mapping[str, Any]) -> Step | None:
        """Ruling ("stand_in"): an action taken out, or refused after a change of an earlier
        one (a purchase the player can no longer pay, say), becomes a pass of that player's
        action phase, so that every other player's action keeps its turn and phase."""
        slot = self.meaning(kind, payload)
        if kind not in PHASE_ACTIONS or any(payload.get(k) != v for k, v in slot.items()):
            return None
        return ("pass", slot)

    # Helpers for the actions -------------------------------------------------------------

    def _draft(self) -> UrbanisationState:
        """A copy of its own, to try an action on: a refusal there changes nothing here."""
        copied: UrbanisationState = pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))
        return copied

    def _before_action(self) -> None:
        self.note = None

    def _require(self, segment: str) -> None:
        if self.segment != segment:
            raise RuleError(Msg(SEGMENTS[self.segment].template, player=self.current_player,
                                phase=self.action_phase))

    def _seated(self, name: object) -> str:
        if name not in self.players:
            raise RuleError(Msg("{name!r} is not playing at this table.", name=name))
        return str(name)

    def _to_act(self, payload: Mapping[str, Any], segment: str = "actions") -> str:
        """The player whose turn it is; a payload naming someone else is refused."""
        self._require(segment)
        player = self.order[self.step]
        require_turn(player, self._seated(payload.get("player", player)))
        return player

    def _character(self, player: str, payload: Mapping[str, Any], kind: str) -> bool:
        """Whether the action plays a character; it must be his and belong to this action."""
        key = payload.get("character")
        if not key:
            return False
        if not isinstance(key, str) or key not in CHARACTERS or CHARACTERS[key].action != kind:
            raise RuleError(Msg("The character {key!r} is not played with this action.",
                                key=key))
        if key not in self.cards[player].characters:
            raise RuleError(Msg("{player} does not hold the {character} card.", player=player,
                                character=CHARACTERS[key].name))
        return True

    def _afford(self, player: str, cost: int, key: str | None = None) -> None:
        """The player can pay `cost` (worked out from the payload's `key`, if one)."""
        if cost > self.cards[player].money:
            raise RuleError(Msg("{player} has only ${money}, not ${cost}.", player=player,
                                money=self.cards[player].money, cost=cost), key=key)

    def _score(self, player: str, source: str, vp: int, turn: int | None = None) -> None:
        if vp:
            self.vp_log.append((self.turn if turn is None else turn, player, source, vp))

    def _done(self, player: str, character: str | None, note: str) -> None:
        """After an action: the character played is discarded, the note set (it says the whole
        action, the card played too: an `Account`), the turn passes."""
        if character:
            self.cards[player].characters.remove(character)
            note = Msg("{note} Card played: {character}.", note=note,
                       character=CHARACTERS[character].name)
        self.note = Account("{note}", note=note)
        self._advance()

    def _advance(self) -> None:
        """The next player; after the last, the next action phase or segment."""
        self.step += 1
        if self.step < len(self.order):
            return
        self.step = 0
        if self.segment == "characters":
            self.segment = "actions"
        elif self.action_phase < ACTIONS_PER_TURN:
            self.action_phase += 1
        else:
            self.segment = "administration"

    # Set-up and characters ---------------------------------------------------------------

    @reads("inventions", "start_player", "money", "grounds", "pools")
    def _apply_setup(self, payload: Mapping[str, Any]) -> None:
        """Set-up for 2, 3 or 4: grain one per player on each barn and the field, two per player
        in the return area; each player's first territory with his house (1 VP); the start
        player; Inventions or not; starting money as the table enters it."""
        if self.segment != "setup":
            raise RuleError(Msg("The game is set up already: undo the set-up to change it."))
        inventions = check_flag(payload.get("inventions", False), Msg("Playing with Inventions"))
        start = self._seated(payload.get("start_player"))
        money = per_player(payload.get("money"), self.players, Msg("starting money"), 0,
                           MAX_MONEY)
        grounds = per_player(payload.get("grounds"), self.players,
                             Msg("building grounds of the first territory"), 1, 2)
        pools = check_pools(payload.get("pools") or {})
        board = setup(len(self.players), inventions)
        self.board, self.inventions, self.pools = board, inventions, pools
        self.grain = GrainArea(board.market, board.return_area)
        self.cards = {p: CityCard(money=money[p], grounds=grounds[p]) for p in self.players}
        self.docks = [2] * INVENTION_SPACES if inventions else []
        for player in self.players:
            self._score(player, "house", START_VP, SETUP_TURN)
        self.start_player, self.order = start, self._clockwise_from(start)
        self.segment = "characters"
        self.note = (Account("Set up for {n} players, with Inventions; {start} starts.",
                             n=len(self.players), start=start) if inventions else
                     Account("Set up for {n} players; {start} starts.", n=len(self.players),
                             start=start))

    def _clockwise_from(self, player: str) -> list[str]:
        first = self.players.index(player)
        return self.players[first:] + self.players[:first]

    @reads("player", "character", "turn")
    def _apply_character(self, payload: Mapping[str, Any]) -> None:
        """Hire a character: in turn order from the start player, each takes one card; free."""
        player = self._to_act(payload, "characters")
        key = payload.get("character")
        if key not in self.available_characters:
            names = listing([CHARACTERS[k].name for k in self.available_characters])
            known = CHARACTERS.get(key) if isinstance(key, str) else None
            raise RuleError(Msg("The {character} card is not on display: choose one of {names}.",
                                character=known.name, names=names) if known else
                            Msg("Choose one of the characters on display: {names}.",
                                names=names))
        self.cards[player].characters.append(str(key))
        self.chosen.append(str(key))
        self._done(player, None, Msg("{player} took the {character} card.", player=player,
                                     character=CHARACTERS[str(key)].name))

    # The actions -------------------------------------------------------------------------

    @reads("player", "turn", "phase")
    def _apply_pass(self, payload: Mapping[str, Any]) -> None:
        """A player who does not act in this action phase."""
        player = self._to_act(payload)
        self._done(player, None, Msg("{player} passed.", player=player))

    @reads("player", "character", "price_markers", "grounds", "turn", "phase")
    def _apply_buy_land(self, payload: Mapping[str, Any]) -> None:
        """Buy land: "$1 for each price marker in it"; the territory has 1 or 2 grounds."""
        player = self._to_act(payload)
        card = self.cards[player]
        swap = self._character(player, payload, "buy_land")
        cost = land_cost(payload.get("price_markers"))
        grounds = require_count(payload.get("grounds"), Msg("The territory's building grounds"),
                                1, 2)
        if sum(c.territories for c in self.cards.values()) >= PRICE_MARKERS:
            raise RuleError(Msg("Every territory of the building area is taken."))
        self._afford(player, cost, "price_markers")
        card.money -= cost
        card.territories += 1
        card.grounds += grounds
        self._done(player, "land_swap" if swap else None,
                   Msg("{player} bought a territory with {grounds} for ${cost}.", player=player,
                       grounds=Plural("{n} building ground", "{n} building grounds", n=grounds),
                       cost=cost))

    @reads("player", "character", "building", "count", "turn", "phase")
    def _apply_erect(self, payload: Mapping[str, Any]) -> None:
        """Raise buildings: houses ($2, 1 VP) on empty grounds, skyscrapers ($3, 2 VP) on a house
        standing before the action, administrative buildings ($3, 2 VP); the Architect pays $1
        less each."""
        player = self._to_act(payload)
        card = self.cards[player]
        architect = self._character(player, payload, "erect")
        kind, count = payload.get("building"), payload.get("count", 1)
        done = erect(kind, count, houses_standing=card.standing,
                     left_in_pool=self.pools.get(str(kind)), architect=architect)
        count = int(str(count))
        if kind == "house" and count > card.empty_grounds:
            raise RuleError(Msg("A house needs an empty building ground: {player} has {n}.",
                                player=player, n=card.empty_grounds))
        self._afford(player, done.cost, "count")
        card.money -= done.cost
        card.houses += done.house_steps
        self._place(card, str(kind), count)
        self._score(player, str(kind), done.vp)
        self._done(player, "architect" if architect else None,
                   Msg("{player} erected {buildings} for ${cost}: +{vp} VP.", player=player,
                       buildings=counted(str(kind), count), cost=done.cost, vp=done.vp))

    def _place(self, card: CityCard, kind: str, count: int) -> None:
        """The buildings on the board, and the pools when they are counted."""
        if kind == "house":
            card.standing += count
        elif kind == "skyscraper":
            card.standing -= count
            card.skyscrapers += count
            if "house" in self.pools:
                self.pools["house"] += count
        else:
            card.administrative += count
        if kind in self.pools:
            self.pools[kind] -= count

    @reads("player", "character", "buy", "sell", "turn", "phase")
    def _apply_trade_grain(self, payload: Mapping[str, Any]) -> None:
        """Trade grain at the market's prices (urbanisation.buy_grain / sell_grain), never above 8
        grain; the Mill Worker first takes 2 grain free from the field."""
        player = self._to_act(payload)
        card = self.cards[player]
        mill = self._character(player, payload, "trade_grain")
        buy = require_count(payload.get("buy", 0), Msg("The grain to buy"), 0)
        sell = require_count(payload.get("sell", 0), Msg("The grain to sell"), 0)
        if buy and sell:
            raise RuleError(Msg("One trade either buys or sells grain, not both."))
        if not (buy or sell or mill):
            raise RuleError(Msg("Enter the grain to buy or to sell."))
        free, cost, paid, market = self._trade(card, mill, buy, sell)
        self._afford(player, cost, "buy")
        card.grain += free + buy - sell
        card.money += paid - cost
        self.grain.market = market
        self._done(player, "mill_worker" if mill else None,
                   trade_note(player, free, buy, cost, sell, paid))

    def _trade(self, card: CityCard, mill: bool, buy: int,
               sell: int) -> tuple[int, int, int, Market]:
        """The Mill Worker's free grain, then the purchase or sale: (free, cost, income, market)."""
        n, market, free, cost, paid = len(self.players), self.grain.market, 0, 0, 0
        if mill:
            free, market = mill_worker(market, n, held=card.grain)
        # What the grain typed cannot be is said under it (found at a table: in the strip).
        if buy:
            with said_at("buy"):
                cost, market = buy_grain(market, buy, players=n, held=card.grain, free=free,
                                         one_dollar=card.has("cheap_grain"))
        if sell:
            with said_at("sell"):
                paid, market = sell_grain(market, sell, n, held=card.grain + free)
        return free, cost, paid, market

    @reads("player", "character", "grain", "farmer", "turn", "phase", "seeded")
    def _apply_sow(self, payload: Mapping[str, Any]) -> None:
        """Sow seeds: grain from the card on empty building grounds, one each (two with the
        invention); the Farmer takes 1 or 2 more on his card. Recorded since it did, a sowing
        says that the grounds it takes stay taken (`seeded`, `CityCard.sow`)."""
        player = self._to_act(payload)
        card = self.cards[player]
        farmer = self._character(player, payload, "sow")
        seeds = require_count(payload.get("grain", 0), Msg("The grain sown"), 0, key="grain")
        on_farmer = require_count(payload.get("farmer", 0), Msg("The seeds on the Farmer"), 0, 2,
                                  key="farmer")
        check_sowing(player, card, seeds, on_farmer, farmer)
        card.grain -= seeds + on_farmer
        card.sow(seeds, counted=bool(payload.get("seeded")))
        card.farmer += on_farmer
        said = _sow_text({"grain": seeds, "farmer": on_farmer}, player)
        self._done(player, "farmer" if farmer else None, Msg("{said}.", said=said))

    @reads("player", "character", "colour", "count", "last", "extra_colour", "turn", "phase")
    def _apply_work_orders(self, payload: Mapping[str, Any]) -> None:
        """Receive work orders: the markers shown on the space, from the board; $1 for the last
        empty space of a card; twice as many with the Double work orders character."""
        player = self._to_act(payload)
        card = self.cards[player]
        double = self._character(player, payload, "work_orders")
        colour = check_colour(payload.get("colour"))
        count = require_count(payload.get("count"), Msg("The work orders on the space"), 1,
                              WORK_ORDERS_PER_COLOUR)
        extra = check_colour(payload.get("extra_colour") or colour) if double else None
        last = check_flag(payload.get("last", False), Msg("The last work order space"))
        gains = work_order_gains(count, colour, extra)
        self._check_supply(gains)
        for c, n in gains.items():
            card.orders[c] += n
        card.money += LAST_WORK_ORDER_BONUS if last else 0
        note = (Msg("{player} received work orders: {orders} and ${bonus} for the last space.",
                    player=player, orders=orders_in_words(gains), bonus=LAST_WORK_ORDER_BONUS)
                if last else Msg("{player} received work orders: {orders}.", player=player,
                                 orders=orders_in_words(gains)))
        self._done(player, "double_orders" if double else None, note)

    def _check_supply(self, gains: dict[str, int]) -> None:
        for c, n in gains.items():
            if n > self.supply[c]:
                raise RuleError(Msg("Only {n} {colour} work orders are left on the board.",
                                    n=self.supply[c], colour=COLOUR_NAMES[c]))

    @reads("player", "character", "number", "colour", "goods", "name", "filled", "upgrade",
           "turn", "phase")
    def _apply_attract(self, payload: Mapping[str, Any]) -> None:
        """Attract industry (+2 VP): a factory marker on an empty building ground, or an upgrade
        of an active factory by a higher-numbered card. The card's work order spaces must be
        filled, unless the Any factory character is played."""
        player = self._to_act(payload)
        card = self.cards[player]
        any_factory = self._character(player, payload, "attract")
        factory = new_factory(payload, self.inventions)
        self._check_unowned(factory.number)
        self._check_name_unowned(factory.name)
        filled = check_flag(payload.get("filled", True), Msg("All work orders filled"))
        if not filled and not any_factory:
            raise RuleError(Msg("A factory is attracted only when all its work order spaces are "
                                "filled (unless the Any factory character is played)."))
        old = upgraded(card, payload.get("upgrade"), factory.number)
        if old is None:
            self._check_factory_room(player, card)
        self._install(player, factory, old)
        note = (Msg("{player} upgraded factory {old} to {factory}: +{vp} VP.", player=player,
                    old=old.number, factory=factory.label, vp=FACTORY_VP) if old
                else Msg("{player} attracted {factory}: +{vp} VP.", player=player,
                         factory=factory.label, vp=FACTORY_VP))
        self._done(player, "any_factory" if any_factory else None, note)

    def _install(self, player: str, factory: Factory, old: Factory | None) -> None:
        """The new card in front of its owner (on top of the old one, which becomes inactive)."""
        if old is not None:
            old.active = False
        elif "factory" in self.pools:
            self.pools["factory"] -= 1
        self.cards[player].factories.append(factory)
        self._score(player, "factory", FACTORY_VP)

    def _check_unowned(self, number: int) -> None:
        """Each factory card exists once: not one a player owns, nor one an administration
        removed from the game ("Remove the lowest numbered face-up factory card from the
        game"), as far as the table told the display."""
        if number in self.removed:  # said at the number typed (found at a table: the strip's)
            raise RuleError(Msg("Factory {number} was removed from the game at an "
                                "administration: it cannot be attracted.", number=number),
                            key="number")
        for owner, other in self.cards.items():
            if other.factory(number):
                raise RuleError(Msg("Factory {number} is already {owner}'s: each card exists "
                                    "once.", number=number, owner=owner), key="number")

    def _check_name_unowned(self, name: str, number: int | None = None) -> None:
        """A factory an invention card names is one card ("if you own the Steelworks"): no two
        factory cards are it. `number` is the card being named, which may keep its name."""
        if name not in BONUS_FACTORIES:
            return
        for owner, card in self.cards.items():
            for other in card.factories:
                if other.name == name and other.number != number:
                    raise RuleError(Msg("The {factory} is already {owner}'s factory {number}: "
                                        "each card exists once.", factory=FACTORY_NAMES[name],
                                        owner=owner, number=other.number))

    def no_factory_room(self, player: str) -> str | None:
        """Why `player` can attract no factory card at all now: no empty building ground for a
        new one and no active factory for a card to go over (found at a table: the card form
        was offered, filled in, and then refused)."""
        card = self.cards[player]
        if card.empty_grounds < 1 and not any(f.active for f in card.factories):
            return Msg("{player} has no empty building ground for a new factory and no factory "
                       "to upgrade: no factory can be attracted now.", player=player)
        return None

    def _check_factory_room(self, player: str, card: CityCard) -> None:
        if card.empty_grounds < 1:
            raise RuleError(Msg("A new factory needs an empty building ground: {player} has "
                                "none.", player=player))
        if self.pools.get("factory") == 0:
            raise RuleError(Msg("No factory markers are left in the pool."))

    @reads("player", "character", "factory", "orders", "turn", "phase")
    def _apply_produce(self, payload: Mapping[str, Any]) -> None:
        """Produce goods: work orders from the card onto an active factory's production space;
        money by their value and 1 VP per good (urbanisation.produce_goods), with the inventions'
        bonuses; any colour of work orders with the Any colour character."""
        player = self._to_act(payload)
        card = self.cards[player]
        any_colour = self._character(player, payload, "produce")
        factory = self._producer(player, card, payload.get("factory"))
        orders = check_orders(payload.get("orders"))
        check_goods(player, card, factory, orders, any_colour)
        money, vp = production(card, factory, orders)
        for c, n in orders.items():
            card.orders[c] -= n
            self.production[c] += n
        factory.produced = True
        card.money += money
        self._score(player, "goods", vp)
        self._done(player, "any_colour" if any_colour else None,
                   Msg("{player} produced {goods} at {factory}: ${money}, +{vp} VP.",
                       player=player, factory=factory.label, money=money, vp=vp,
                       goods=Plural("{n} good", "{n} goods", n=sum(orders.values()))))

    def _producer(self, player: str, card: CityCard, number: object) -> Factory:
        factory = card.factory(require_count(number, Msg("The factory number"), 1))
        if factory is None:
            raise RuleError(Msg("{player} owns no factory {number}.", player=player,
                                number=number))
        if not factory.active:
            raise RuleError(Msg("Factory {number} was upgraded: only the newer card produces.",
                                number=number))
        if factory.produced:
            raise RuleError(Msg("Factory {number} has already produced this turn.",
                                number=number))
        return factory

    @reads("player", "character", "turn", "phase")
    def _apply_taxes(self, payload: Mapping[str, Any]) -> None:
        """Collect taxes: tax marker one space left, $1 per citizen, only while it lies right of
        the citizen marker; twice with the Tax Collector."""
        player = self._to_act(payload)
        card = self.cards[player]
        collector = self._character(player, payload, "taxes")
        tax, money = collect_taxes(card.tax, card.citizens, 2 if collector else 1)
        card.tax, card.money = tax, card.money + money
        said = (Msg("{player} collected taxes twice: ${money}.", player=player, money=money)
                if collector else
                Msg("{player} collected ${money} in taxes.", player=player, money=money))
        self._done(player, "tax_collector" if collector else None, said)

    @reads("player", "character", "start", "marker", "to", "cards", "turn", "phase")
    def _apply_invention(self, payload: Mapping[str, Any]) -> None:
        """Acquire invention: move a marker right (a new one enters at the left), the first
        space free and $1 each further; take 1 card there (all of them with the Professor),
        1 VP each."""
        if not self.inventions:
            raise RuleError(Msg("Inventions are played only with the Inventions expansion."))
        player = self._to_act(payload)
        card = self.cards[player]
        professor = self._character(player, payload, "invention")
        marker, start = invention_marker(player, card, payload)
        to = require_count(payload.get("to"), Msg("The docking space"), 1, INVENTION_SPACES)
        if to <= start:
            raise RuleError(Msg("A marker moves at least one space to the right."))
        cost = invention_cost(to - start)
        taken = self._invention_cards(payload.get("cards"), to, professor)
        self._afford(player, cost)
        self._take_inventions(player, card, marker, to, cost, taken)
        said = (Msg("{player} moved to docking space {to} for ${cost} and took {cards}: +{vp} "
                    "VP.", player=player, to=to, cost=cost, cards=inventions_taken(taken),
                    vp=len(taken) * INVENTION_VP) if cost else
                Msg("{player} moved to docking space {to} free and took {cards}: +{vp} VP.",
                    player=player, to=to, cards=inventions_taken(taken),
                    vp=len(taken) * INVENTION_VP))  # not "for $0" (found at a table)
        self._done(player, "professor" if professor else None, said)

    def _take_inventions(self, player: str, card: CityCard, marker: int | None, to: int,
                         cost: int, taken: list[Invention]) -> None:
        if marker is None:
            card.markers.append(to)
        else:
            card.markers[marker] = to
        card.money -= cost
        card.inventions.extend(taken)
        self.docks[to - 1] -= len(taken)
        self._score(player, "invention", INVENTION_VP * len(taken))

    def _invention_cards(self, cards: object, to: int, professor: bool) -> list[Invention]:
        left = self.docks[to - 1]
        if not left:
            raise RuleError(Msg("No invention card is left at docking space {to}.", to=to))
        wanted = left if professor else 1
        if not professor and isinstance(cards, list) and len(cards) > 1:
            raise RuleError(Msg("One invention card is taken at docking space {to}; all the "
                                "cards there only with the Professor played.", to=to))
        if not isinstance(cards, list) or len(cards) != wanted:
            raise RuleError(Msg("Describe the {cards} taken at docking space {to}.", to=to,
                                cards=Plural("{n} invention card", "{n} invention cards",
                                             n=wanted)))
        taken = [invention_card(c, to) for c in cards]
        check_new_abilities(taken, [i.ability for c in self.cards.values() for i in c.inventions])
        check_new_bonuses(taken, [i.factory for c in self.cards.values() for i in c.inventions])
        return taken

    # Corrections and character effects the players enter -----------------------------------

    @reads("player", "money", "vp", "grain", "orders", "reason", "turn")
    def _apply_effect(self, payload: Mapping[str, Any]) -> None:
        """A character's effect or a correction the players enter as explicit gains (negative
        to take away): money, VP, grain (from or to the return area), work orders by colour.
        It takes no action phase."""
        if self.segment == "setup":
            raise RuleError(SEGMENTS["setup"])
        player = self._seated(payload.get("player"))
        card = self.cards[player]
        money = check_signed(payload.get("money", 0), Msg("The money"))
        vp = check_signed(payload.get("vp", 0), Msg("The victory points"))
        grain = check_signed(payload.get("grain", 0), Msg("The grain"), MAX_GRAIN)
        orders = self._effect_orders(payload.get("orders") or {})
        check_reason(payload.get("reason"))
        self._check_effect(player, card, money, vp, grain, orders)
        card.money += money
        card.grain += grain
        self.grain.return_area -= grain
        for c, n in orders.items():
            card.orders[c] += n
        self._score(player, "other", vp)
        self.note = Msg("{said}.", said=_effect_text(payload, player))

    @staticmethod
    def _effect_orders(orders: object) -> dict[str, int]:
        if not isinstance(orders, Mapping) or not set(orders) <= set(COLOURS):
            raise RuleError(Msg("Work orders are given by colour: white, grey and orange."))
        return {c: check_signed(orders.get(c, 0), ORDERS_OF[c], WORK_ORDERS_PER_COLOUR)
                for c in COLOURS}

    def _check_effect(self, player: str, card: CityCard, money: int, vp: int, grain: int,
                      orders: dict[str, int]) -> None:
        if card.money + money < 0 or self.vp(player) + vp < 0:
            raise RuleError(Msg("{player} cannot go below $0 or 0 VP.", player=player))
        if not 0 <= card.grain + grain <= MAX_GRAIN:
            raise RuleError(Msg("{player}'s grain stays between 0 and {most}.", player=player,
                                most=MAX_GRAIN))
        if grain > self.grain.return_area:
            raise RuleError(Msg("The return area holds only {n} grain.",
                                n=self.grain.return_area))
        for c, n in orders.items():
            if card.orders[c] + n < 0 or n > self.supply[c]:
                raise RuleError(Msg("{player} cannot take or give that many {colour} work "
                                    "orders.", player=player, colour=COLOUR_NAMES[c]))

    # Administration and the end ----------------------------------------------------------

    @reads("exchange", "display", "turn", "mayor")
    def _apply_administration(self, payload: Mapping[str, Any]) -> None:
        """Prepare the next turn: harvest, factories, citizens (2 VP each), feeding (1 VP per 3
        grain left), grain refill; then the next turn with its Mayor. `exchange` lists players
        exchanging 2 orange for 2 grey work orders; `display` the face-up factory numbers;
        `mayor` the player who received the Mayor at the table (`mayor_after`), who keeps him
        after a change of an earlier action (ruling "mayor_kept")."""
        self._require("administration")
        mayor = payload.get("mayor")
        if mayor is not None and mayor not in self.players:
            raise RuleError(Msg("{name!r} is not playing at this table.", name=mayor))
        exchange = payload.get("exchange") or []
        if not isinstance(exchange, list) or any(
                p not in self.players or not self.cards[p].has("orange_to_grey") for p in exchange):
            raise RuleError(Msg("Only owners of the exchange invention exchange work orders."))
        display = payload.get("display")
        removed = None if display is None else factory_to_remove(display)
        draft = self._draft()
        draft._administer({str(p) for p in exchange}, display, removed, mayor)
        vars(self).update(vars(draft))

    def exchange_possible(self, player: str) -> bool:
        """Whether `player` may exchange 2 orange for 2 grey work orders at this administration
        (the invention's owner with 2 orange work orders by then, 2 grey ones on the board):
        offered only then (found at a table: offered with no orange, and the whole
        administration refused once ticked)."""
        draft = self._draft()
        try:
            draft.apply("administration", {"exchange": [player]})
        except RuleError:
            return False
        return True

    def mayor_after(self, payload: Mapping[str, Any]) -> str | None:
        """The Mayor the rules give for the next turn if this administration is done as
        `payload` says (None: it is refused, or the game ends with it): recorded with it, so
        that the turns after it stay as they were played."""
        draft = self._draft()
        try:
            draft.apply("administration", payload)
        except RuleError:
            return None
        return draft.start_player if draft.segment != "final" else None

    def _administer(self, exchange: set[str], display: Any, removed: int | None,
                    mayor: object = None) -> None:
        """The five administration phases, on a draft so that any refusal changes nothing."""
        report = Report(Msg("Administration of turn {turn}", turn=self.turn),
                        {p: [] for p in self.order})
        for player in self.order:
            lines, vp = harvest_card(self.cards[player], self.grain, len(self.players))
            report.players[player] += lines
            self._score(player, "harvest", vp)
        self._factories_phase(report, exchange, display, removed)
        for player in self.order:
            self._citizens_phase(player, report)
        market, back = grain_refill(self.grain.market, self.grain.return_area, len(self.players))
        moved = self.grain.return_area - back
        self.grain = GrainArea(market, back)
        report.board.append(Msg("Grain refill: {moved} from the return area. Barns 1-4 now hold "
                                "{barns}, the field {field}, the return area {back}.",
                                moved=moved, barns=", ".join(map(str, market["barns"])),
                                field=market["field"], back=back))
        self.reports.append(report)
        self._next_turn(report, mayor)

    def _factories_phase(self, report: Report, exchange: set[str], display: Any,
                         removed: int | None) -> None:
        if removed is None:
            owned = frozenset(f.number for card in self.cards.values() for f in card.factories)
            self.unseen_removals = (*self.unseen_removals, owned)
        else:
            self.removed.append(display[removed - 1])
            report.board.append(Msg("Remove factory {number} (space {space}) and turn up the top "
                                    "card of the deck.", number=display[removed - 1],
                                    space=removed))
        report.board.append(Msg("Production markers back to the board: {orders}.",
                                orders=orders_in_words(self.production)))
        self.production = dict.fromkeys(COLOURS, 0)
        supply = self.supply
        for player in self.order:
            card = self.cards[player]
            report.players[player] += factories_card(card, supply, player in exchange)
            for factory in card.factories:
                factory.produced = False

    def _citizens_phase(self, player: str, report: Report) -> None:
        lines, citizen_vp, grain_vp, eaten = citizens_card(self.cards[player])
        report.players[player] += lines
        self.grain.return_area += eaten
        self._score(player, "citizens", citizen_vp)
        self._score(player, "grain", grain_vp)

    def _next_turn(self, report: Report, kept: object = None) -> None:
        """Advance the turn marker; from turn 2 the Mayor goes to the fewest VP, then least
        money, then clockwise from the former start player; he starts and scores 1 VP. A
        Mayor `kept` from the table (received before a change of an earlier action gave the
        fewest VP to another player) stays with him, and the order with him."""
        self.segment, self.action_phase, self.step, self.chosen = "characters", 1, 0, []
        for card in self.cards.values():
            card.characters = []
        if self.turn == TURNS:
            self.segment = "final"
            self.note = SEGMENTS["final"]
            return
        money = {p: c.money for p, c in self.cards.items()}
        self.order = mayor_order(self.totals(), money, self.start_player, self.players)
        ruled = self.order[0]
        if kept in self.players and kept != ruled:
            first = self.players.index(str(kept))
            self.order = self.players[first:] + self.players[:first]
        self.turn += 1
        self.former_start, self.mayor_money = self.start_player, money
        self.start_player = mayor = self.order[0]
        self.cards[mayor].characters = ["mayor"]
        self._score(mayor, "mayor", MAYOR_VP)
        report.board.append(Msg("Turn {turn}: {mayor} receives the Mayor (+{vp} VP) and starts.",
                                turn=self.turn, mayor=mayor, vp=MAYOR_VP))
        if mayor == ruled:
            self.note = Msg("Turn {done} administered; {mayor} is the Mayor of turn {turn}.",
                            done=self.turn - 1, mayor=mayor, turn=self.turn)
            return
        report.board.append(Msg("{mayor} received the Mayor at the table and keeps him, though "
                                "the rules would now give him to {ruled} (ruling).",
                                mayor=mayor, ruled=ruled))
        self.note = Msg("Turn {done} administered; {mayor} received the Mayor of turn {turn} at "
                        "the table and keeps him, though the rules would now give him to "
                        "{ruled} (ruling).", done=self.turn - 1, mayor=mayor, turn=self.turn,
                        ruled=ruled)

    @reads("player", "number", "name", "reason")
    def _apply_name_factory(self, payload: Mapping[str, Any]) -> None:
        """A correction: which factory a player's card is, for the inventions' end bonuses (one
        they name, or another)."""
        check_reason(payload.get("reason"))
        player = self._seated(payload.get("player"))
        number = require_count(payload.get("number"), Msg("The factory number"), 1, 99)
        factory = self.cards[player].factory(number)
        if factory is None:
            raise RuleError(Msg("{player} has no factory {number}.", player=player,
                                number=number))
        name = factory_name(payload.get("name"), inventions=True)
        self._check_name_unowned(name, number)
        factory.name = name

    @reads()
    def _apply_final(self, payload: Mapping[str, Any]) -> None:
        """Final scoring: 2 VP for the largest sum of factory numbers (a tie: the newest
        factory), and each invention's bonus when its owner owns the factory it names."""
        self._require("final")
        self._check_factories_named()
        report = Report(Msg("Final scoring"), {p: [] for p in self.players})
        numbers = self.factory_numbers()
        winner = factory_bonus(numbers)
        for player in self.players:
            report.players[player].append(factory_total_line(player, winner, numbers))
            self._score(player, "factory bonus", FACTORY_BONUS_VP if player == winner else 0,
                        FINAL_TURN)
            self._invention_bonus(player, report)
        self.reports.append(report)
        self.segment, self.finished = "over", True
        leaders = winners(self.ranking())
        if len(leaders) == 1:
            self.note = Msg("Final scoring done: {player} wins.", player=leaders[0])
        else:
            self.note = Msg("Final scoring done: {players} share the victory.",
                            players=and_list(leaders))

    def _check_factories_named(self) -> None:
        """An end bonus is decided only once its owner's factories are all known (tables
        from before the app asked which factory each one is)."""
        for player in self.players:
            card = self.cards[player]
            unnamed = [f.number for f in card.factories if not f.name]
            if unnamed and any(i.factory for i in card.inventions):
                raise RuleError(Msg(
                    "Say which factory {player}'s factory {number} is first (Corrections): an "
                    "invention's end bonus may count with it.", player=player,
                    number=unnamed[0]))

    def _invention_bonus(self, player: str, report: Report) -> None:
        for invention in earned_inventions(self.cards[player]):
            report.players[player].append(
                Msg("Invention with the {factory}: +{vp} VP.",
                    factory=FACTORY_NAMES[str(invention.factory)], vp=invention.vp))
            self._score(player, "invention bonus", invention.vp, FINAL_TURN)


def factory_total_line(player: str, winner: str | None, numbers: dict[str, list[int]]) -> Msg:
    """A player's factory total at the final scoring, and why the FACTORY_BONUS_VP went where
    it went: the largest sum wins it; "in case of a tie, the player with the newest factory"."""
    total = sum(numbers[player])
    if winner is None or total != sum(numbers[winner]):
        return Msg("Factory total {total}.", total=total)
    if player != winner:
        return Msg("Factory total {total}, tied; {winner}'s factory {number} is newer: no "
                   "bonus.", total=total, winner=winner, number=max(numbers[winner]))
    tied = [p for p in numbers if p != player and sum(numbers[p]) == total]
    if tied:
        return Msg("Factory total {total}, tied with {players}; the newest factory ({number}): "
                   "+{vp} VP.", total=total, players=and_list(tied),
                   number=max(numbers[player]), vp=FACTORY_BONUS_VP)
    return Msg("Factory total {total}, the largest: +{vp} VP.", total=total, vp=FACTORY_BONUS_VP)


def earned_inventions(card: CityCard) -> list[Invention]:
    """A player's inventions whose end bonus counts: "if you own the factory named on it"."""
    return [i for i in card.inventions if i.factory and card.owns(i.factory)]


def inventions_taken(taken: list[Invention]) -> Msg:
    """The invention cards taken, with what each does ("1 invention (Receive 1 grain in the
    harvest)"): found at a table, two players' cards swapped, and the history said only "took 1
    invention"."""
    said = Plural("{n} invention", "{n} inventions", n=len(taken))
    labels: list[str] = [Msg("“{label}”", label=card.label) for card in taken if card.label]
    return Msg("{cards} ({labels})", cards=said, labels=listed(labels)) if labels else said


def describe(kind: str, payload: Mapping[str, Any]) -> str:
    """One action in words, for the history page."""
    who = payload.get("player", Msg("The player"))
    key = str(payload.get("character"))
    text = _action_text(kind, payload, who)
    if key in CHARACTERS and kind != "character":
        return Msg("{action} (playing the {character} card)", action=text,
                   character=CHARACTERS[key].name)
    return text


def _work_orders_text(payload: Mapping[str, Any], who: object, count: int, colour: Any) -> str:
    """"Ben took 2 orange work orders"; with the Double work orders character, what he took
    ("twice as many"): "Cleo took work orders: 4 orange" (or "2 white, 2 grey", another colour
    entered for the second two)."""
    key = str(payload.get("character"))
    if key in CHARACTERS and CHARACTERS[key].action == "work_orders" and colour in COLOURS:
        gains = work_order_gains(count, colour, payload.get("extra_colour") or colour)
        return Msg("{player} took work orders: {orders}", player=who,
                   orders=orders_in_words(gains))
    return Plural("{player} took {n} {colour} work order",
                  "{player} took {n} {colour} work orders", player=who, n=count,
                  colour=COLOUR_NAMES.get(str(colour), colour))


def describe_detail(kind: str, payload: Mapping[str, Any]) -> str:
    """An action with what its words leave out (the goods produced, the invention card and the
    marker's space, a territory's grounds, ...), for a change whose words would otherwise read
    the same before and after: "Ben produced goods at factory 4 (1 grey)"."""
    said = describe(kind, payload)
    details = [d for d in _details(kind, payload) if d]
    return Msg("{said} ({details})", said=said, details=listed(details)) if details else said


def _details(kind: str, payload: Mapping[str, Any]) -> list[str]:
    get = payload.get
    if kind == "setup":
        return [Msg("starting money {money}", money=_per_player(get("money"))),
                Msg("building grounds {grounds}", grounds=_per_player(get("grounds")))]
    if kind == "buy_land":
        return [Plural("{n} building ground", "{n} building grounds", n=_count(get("grounds")))]
    if kind == "work_orders":
        return [Msg("and {colour}", colour=COLOUR_NAMES.get(str(get("extra_colour")), ""))
                if get("extra_colour") else "",
                Msg("${bonus} for the last space", bonus=LAST_WORK_ORDER_BONUS)
                if get("last") else ""]
    if kind == "attract":
        return [Plural("{n} good", "{n} goods", n=_count(get("goods"))),
                COLOUR_NAMES.get(str(get("colour")), ""),
                FACTORY_NAMES.get(str(get("name")), ""),
                "" if get("filled", True) else Msg("work orders not all filled")]
    if kind == "produce":
        orders = get("orders")
        return [orders_in_words({c: _count(n) for c, n in orders.items() if c in COLOUR_NAMES})
                if isinstance(orders, Mapping) else ""]
    if kind == "invention":
        return [*_invention_cards(get("cards"), get("to")), _marker_words(payload)]
    return []


def _per_player(value: object) -> str:
    """A set-up amount, the same for all ("10") or per player ("Ann 10, Ben 12")."""
    if isinstance(value, Mapping):
        return listed([f"{player} {n}" for player, n in value.items()])
    return str(value)


def _invention_cards(cards: object, to: object) -> list[str]:
    try:
        return [invention_card(c, int(to)).label  # type: ignore[call-overload]
                for c in cards] if isinstance(cards, list) else []
    except (RuleError, TypeError, ValueError):
        return []


def _marker_words(payload: Mapping[str, Any]) -> str:
    """Which marker moved: the one from a space, a new one, or (older logs) the player's
    first, second, ... marker."""
    if "start" in payload:
        start = payload["start"]
        return (Msg("the marker from space {space}", space=start) if start
                else Msg("a new marker"))
    marker = payload.get("marker")
    return (Msg("a new marker") if marker is None
            else Msg("marker {n} of the player's", n=_count(marker) + 1))


def _action_text(kind: str, payload: Mapping[str, Any], who: object) -> str:
    key = str(payload.get("character"))
    if kind == "setup":
        start = payload.get("start_player")
        return (Msg("Set-up: {player} starts, with Inventions", player=start)
                if payload.get("inventions") else Msg("Set-up: {player} starts", player=start))
    if kind == "trade_grain":
        if payload.get("sell"):
            return Msg("{player} sold {n} grain", player=who, n=payload.get("sell"))
        if payload.get("buy"):
            return Msg("{player} bought {n} grain", player=who, n=payload.get("buy"))
        if payload.get("character") == "mill_worker":  # his free grain alone (found at a
            return Msg("{player} took the free grain", player=who)  # table: "traded grain")
        return Msg("{player} traded grain", player=who)
    if kind == "attract":
        number = payload.get("number")
        return (Msg("{player} upgraded to factory {number}", player=who, number=number)
                if payload.get("upgrade")
                else Msg("{player} attracted factory {number}", player=who, number=number))
    count = _count(payload.get("count", 1))
    colour = payload.get("colour")
    texts: dict[str, Callable[[], str]] = {
        "character": lambda: Msg("{player} took the {character} card", player=who, character=(
            CHARACTERS[key].name if key in CHARACTERS else key)),
        "pass": lambda: Msg("{player} passed", player=who),
        "buy_land": lambda: Plural("{player} bought land with {n} price marker",
                                   "{player} bought land with {n} price markers", player=who,
                                   n=_count(payload.get("price_markers"))),
        "erect": lambda: Msg("{player} erected {buildings}", player=who,
                             buildings=counted(str(payload.get("building")), count)),
        "sow": lambda: _sow_text(payload, who),
        "work_orders": lambda: _work_orders_text(payload, who, count, colour),
        "produce": lambda: Msg("{player} produced goods at factory {number}", player=who,
                               number=payload.get("factory")),
        "taxes": lambda: Msg("{player} collected taxes", player=who),
        "invention": lambda: Msg("{player} acquired an invention at space {to}", player=who,
                                 to=payload.get("to")),
        "effect": lambda: _effect_text(payload, who),
        "administration": lambda: _administration_text(payload),
        "final": lambda: Msg("Final scoring"),
        "name_factory": lambda: Msg("Correction: {player}'s factory {number} is the {name}",
                                    player=who, number=payload.get("number"),
                                    name=FACTORY_NAMES.get(str(payload.get("name")),
                                                           payload.get("name"))),
    }
    make = texts.get(kind)
    return kind if make is None else make()


def _sow_text(payload: Mapping[str, Any], who: object) -> str:
    """"Ann sowed 2 grain", "... and 1 on the Farmer", or "sowed 1 grain on the Farmer"."""
    grain, farmer = payload.get("grain", 0), payload.get("farmer")
    if farmer and not grain:
        return Msg("{player} sowed {farmer} grain on the Farmer", player=who, farmer=farmer)
    if farmer:
        return Msg("{player} sowed {n} grain and {farmer} on the Farmer", player=who, n=grain,
                   farmer=farmer)
    return Msg("{player} sowed {n} grain", player=who, n=grain)


def _administration_text(payload: Mapping[str, Any]) -> str:
    """The administration, with who exchanged orange for grey work orders in it (a change that
    takes an exchange out then says so)."""
    exchange = payload.get("exchange")
    if not isinstance(exchange, list) or not exchange:
        return Msg("Administration: harvest, factories, citizens, feeding, grain refill")
    return Plural("Administration: harvest, factories ({names} exchanges 2 orange for 2 grey "
                  "work orders), citizens, feeding, grain refill",
                  "Administration: harvest, factories ({names} exchange 2 orange for 2 grey "
                  "work orders each), citizens, feeding, grain refill",
                  names=and_list([str(p) for p in exchange]), n=len(exchange))


def _effect_text(payload: Mapping[str, Any], who: object) -> str:
    """"Ann: Land swap (+$3, −1 VP, +2 white work orders)": an effect or correction with the
    amounts it gave or took."""
    reason = shown_reason(payload.get("reason")) or Msg("effect entered")
    amounts = effect_amounts(payload)
    if not amounts:
        return Msg("{player}: {reason}", player=who, reason=reason)
    return Msg("{player}: {reason} ({amounts})", player=who, reason=reason,
               amounts=listing(amounts))


def effect_amounts(payload: Mapping[str, Any]) -> list[str]:
    """Each amount of an effect that is not 0, signed: "+$3", "−1 VP", "+2 grain", "−1 white
    work order"."""
    orders = payload.get("orders")
    orders = orders if isinstance(orders, Mapping) else {}
    money, vp, grain = (_signed(payload.get(key)) for key in ("money", "vp", "grain"))
    parts: list[str] = []
    if money:
        parts.append(Msg("{sign}${n}", sign=_sign(money), n=abs(money)))
    if vp:
        parts.append(Msg("{sign}{n} VP", sign=_sign(vp), n=abs(vp)))
    if grain:
        parts.append(Msg("{sign}{n} grain", sign=_sign(grain), n=abs(grain)))
    for colour in COLOURS:
        n = _signed(orders.get(colour))
        if n:
            parts.append(Plural("{sign}{n} {colour} work order", "{sign}{n} {colour} work orders",
                                sign=_sign(n), n=abs(n), colour=COLOUR_NAMES[colour]))
    return parts


def _signed(given: object) -> int:
    """A logged signed amount (0 for what the rules would have refused)."""
    return given if isinstance(given, int) and not isinstance(given, bool) else 0


def _sign(n: int) -> str:
    return "+" if n > 0 else "−"


def _count(given: object) -> int:
    """A logged count as a number to say (0 for what the rules would have refused)."""
    return given if isinstance(given, int) and not isinstance(given, bool) and given >= 0 else 0
