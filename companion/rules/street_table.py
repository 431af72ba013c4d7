"""A street card game at the table: streets, accounts and upcoins rebuilt from the event log.

Each action kind has one `_apply_<kind>` method that checks everything before it changes
anything, so a refused action leaves the state as it was.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .common import (
    ActionTable,
    Placing,
    RuleError,
    action_key,
    check_reason,
    known,
    reads,
    require_count,
    require_turn,
    seat_after,
    winners_text,
    with_reason,
)
from .log import CHANGE, Event
from .street import (
    FLAG_NAMES,
    FLOOR_NAMES,
    KIND_NAMES,
    Card,
    EffectLine,
    Placement,
    Score,
    all_finished,
    build,
    card_name,
    check_card,
    effect_lines,
    effect_text,
    final_ranking,
    has_roof,
    site_index,
    street_score,
    upcoin_prestige,
    verdict,
)
from .text import Msg, Plural, and_list, listed, signed

STARTING_ACCOUNT = 10
MAX_MONEY = 999
PUBLIC = "public"

RULINGS = {
    "players": Msg("Ruling: the rulebook does not give the number of players; the app takes 2 to "
                   "5, one street board each."),
    "income": Msg("Ruling: every roof pays the street's owner the income of all their sites, "
                  "finished or not; 0 or less pays nothing. A gift's roof pays the owner, not the "
                  "giver."),
    "count": Msg("Ruling: 'on this site' and 'on the street' count the card itself; a double "
                 "counts as two of its project; a hotel is never a double."),
    "roof": Msg("Ruling: a site stays finished once a roof is on it; only a card that must be "
                "built on top of a roof can still go there. Only gifts go on another player's "
                "street."),
    "tie": Msg("Ruling: tied players are split by their tallest building (most cards on one "
               "site), then share the place."),
    "empty_deck": Msg("Ruling: a player whose own deck is empty and holds no upcoins has "
                      "nothing to take as the 1st action and goes on to the 2nd (unless its "
                      "last card is this 1st action: say so when the deck is said empty)."),
    "discard_bought": Msg("Ruling: a card bought or taken from the public pile is played (\"Buy "
                          "and play\"); it is discarded only when it fits no site, on the "
                          "player's street or as a gift on another's."),
    "remove": Msg("Ruling: removing a card takes it off the top of its site; money paid for it or "
                  "by its roof stays (correct an account if needed)."),
}
# What a card is, as the object of "... built ...", with its article.
CARD_PHRASES = {
    "office": Msg("an office"),
    "apartment": Msg("an apartment"),
    "store": Msg("a store"),
    "coffee": Msg("a coffee shop"),  # the rulebook's name; "coffee" on the card's face
    "service": Msg("a service"),
    "hotel": Msg("a hotel"),
    "roof": Msg("a roof"),
    "gift": Msg("a gift"),
}
# A double counts as two of its project: said, as its card shows it ("2× office").
DOUBLE_PHRASES = {
    "office": Msg("a double office"),
    "apartment": Msg("a double apartment"),
    "store": Msg("a double store"),
    "coffee": Msg("a double coffee shop"),
    "service": Msg("a double service"),
}
# A turn's steps: the 1st action, the 2nd action, and placing a card bought separately.
FIRST, SECOND, PLACE_BOUGHT = 1, 2, 3
TURN_ACTIONS = ("card", "discard", "buy", "upcoins")
# Said between the steps of a turn, by anyone: a deck run out, a correction.
SAID_BETWEEN = ("deck_empty", "account", "remove")
# A step of a turn, as what comes next when something is said.
STEP_NAMES = {
    FIRST: Msg("the 1st action"),
    SECOND: Msg("the 2nd action"),
    PLACE_BOUGHT: Msg("the card of the 2nd action"),
}
ACTION_OTHERWISE = {
    True: Msg("This was the 1st action of its turn (the free card); here the 2nd action comes."),
    False: Msg("This was the 2nd action of its turn (a card bought or taken); here the 1st "
               "action comes."),
}
STEP_WORDS = {
    FIRST: Msg("{player}'s 1st action comes next"),
    SECOND: Msg("{player}'s 2nd action comes next"),
    PLACE_BOUGHT: Msg("{player} builds or discards the card of the 2nd action next"),
}
ROUND_OVER = Msg("The final round is complete: the game is over. Score the game (or undo the "
                 "last step).")
# What each step of a turn takes, said when something else is tried.
STEP_RULES = {
    FIRST: Msg("The 1st action is the top card of one's own deck, for free (or the upcoins on "
               "it): buying a card is the 2nd action."),
    SECOND: Msg("The 2nd action buys the top card of a player deck or takes the public pile's "
                "card: say where the card came from."),
    PLACE_BOUGHT: Msg("The card of the 2nd action is built or discarded next."),
}


@dataclass(frozen=True)
class Payout:
    """Income paid when a roof finished a site: to whom, how much, and where it came from."""

    owner: str
    site: int
    income: int
    lines: tuple[EffectLine, ...]

    @property
    def paid(self) -> int:
        return max(0, self.income)


@dataclass
class StreetState(ActionTable):
    """The street game at one table; players in turn order, the start player first."""

    players: list[str]
    streets: dict[str, list[list[Card]]] = field(default_factory=dict)
    accounts: dict[str, int] = field(default_factory=dict)
    upcoins: dict[str, int] = field(default_factory=dict)
    decks_empty: list[str] = field(default_factory=list)
    triggered_by: str | None = None
    payouts: list[Payout] = field(default_factory=list)
    taken: int = 0  # the upcoins the last "take the upcoins" took to its player's account
    library: list[Card] = field(default_factory=list)
    uses: dict[str, int] = field(default_factory=dict)
    turn: str = ""
    step: int = FIRST
    rounds: int = 0  # rounds played to their end (the last seat's turn)
    round_over: bool = False
    finished: bool = False
    # `action_key` of the action that made this state: its words may say its payout.
    last_action: str | None = field(default=None, compare=False, repr=False)

    @classmethod
    def start(cls, players: list[str]) -> StreetState:
        table = cls(list(players))
        table.streets = {p: [[] for _ in range(5)] for p in players}
        table.accounts = dict.fromkeys(players, STARTING_ACCOUNT)
        table.upcoins = dict.fromkeys(players, 0)
        table.turn = players[0] if players else ""
        return table

    # What the table looks like now -------------------------------------------------------

    @property
    def final_round(self) -> bool:
        return self.triggered_by is not None

    @property
    def still_to_play(self) -> list[str]:
        """In the final round, the players who still take (or finish) a turn, the one at turn
        first; the last one is the player to the right of the start player."""
        if self.triggered_by is None or self.round_over:
            return []
        return self.players[self.players.index(self.turn):]

    @property
    def up_next(self) -> str:
        """Whose turn it is and what comes next, in words: "Hugo's 2nd action comes next"."""
        if self.finished:
            return winners_text(self.ranking())
        if self.round_over:
            return Msg("The final round is complete: score the game.")
        return Msg(STEP_WORDS[self.step].template, player=self.turn)

    @property
    def stage(self) -> str | None:
        """The final round, complete or not, until the game is scored: what a change that
        begins it or takes it back moves (found at a table: an empty deck taken out, the preview
        said only "Lukas's 2nd action -> Lukas's 1st action", not that the final round no longer
        began; and an action of the final round taken out is no change of it)."""
        return Msg("Final round") if self.final_round and not self.finished else None

    def scores(self) -> dict[str, Score]:
        return {p: street_score(self.streets[p], upcoin_prestige(self.accounts[p]))
                for p in self.players}

    def totals(self) -> dict[str, int]:
        return {p: s.total for p, s in self.scores().items()}

    def money(self) -> dict[str, int]:
        return dict(self.accounts)

    def ranking(self) -> list[Placing]:
        return final_ranking(self.scores())

    def verdict(self) -> str:
        """The final result in one sentence, the tallest building said where it decided."""
        return verdict(self.scores())

    def finished_sites(self, player: str) -> list[bool]:
        return [has_roof(site) for site in self.streets[player]]

    def built_out(self, player: str) -> bool:
        """Every site of the player's street is finished: a card goes only on top of a roof
        or, as a gift, on another street; otherwise it is discarded."""
        return all(self.finished_sites(player))

    def open_sites(self, card: Card, owner: str, player: str) -> list[bool]:
        """Which of `owner`'s five sites `player` may build `card` on now, by the rules of one
        site (its floor, a roof, gifts), so that a site the card cannot go on is not offered."""
        sites = []
        for index in range(len(self.streets[owner])):
            try:
                build(self.streets[owner], index, card, owner == player)
            except RuleError:
                sites.append(False)
            else:
                sites.append(True)
        return sites

    def _build(self, owner: str, site: object, card: Card, player: str) -> Placement:
        """`build` on `owner`'s street; a refusal on another player's street names whose it is
        (a gift: "Kim's street: no gifts can be built on site 1", found at a table of four)."""
        try:
            return build(self.streets[owner], site_index(site), card, owner == player)
        except RuleError as error:
            if owner == player:
                raise
            raise RuleError(Msg("{owner}'s street: {why}", owner=owner, why=error.args[0]),
                            key=error.key) from None

    def payout_of(self, kind: str, payload: Mapping[str, Any]) -> Payout | None:
        """What a roof paid, when this table is the one its action made (None for any other
        action, or a table it did not make: the one an undo went back to)."""
        card = payload.get("card")
        if (kind != "card" or not isinstance(card, Mapping) or not card.get("roof")
                or not self._made_by(kind, payload) or not self.payouts):
            return None
        return self.payouts[-1]

    def upcoins_taken(self, kind: str, payload: Mapping[str, Any]) -> int | None:
        """What an upcoins action took, when this table is the one it made (None for any
        other action, or a table it did not make)."""
        return self.taken if kind == "upcoins" and self._made_by(kind, payload) else None

    def _made_by(self, kind: str, payload: Mapping[str, Any]) -> bool:
        """This table is the one the action made (not the one an undo went back to)."""
        return getattr(self, "last_action", None) == action_key(kind, payload)

    # Actions -----------------------------------------------------------------------------

    def apply(self, kind: str, payload: Mapping[str, Any]) -> None:
        was_final = self.final_round
        super().apply(kind, payload)
        self.last_action = action_key(kind, payload)
        self.began_final = self.final_round and not was_final

    def began_final_round(self, kind: str, payload: Mapping[str, Any]) -> bool:
        """The action began the final round (an empty deck, a fifth site finished), when this
        table is the one it made."""
        return getattr(self, "began_final", False) and self._made_by(kind, payload)

    def _player(self, name: object) -> str:
        if name not in self.players:
            raise RuleError(Msg("{name!r} is not playing at this table.", name=name))
        return str(name)

    # Whose turn: "A player turn consists of doing two actions in this order", clockwise.

    def step_of(self, player: str) -> int:
        """The step `player` is at (the builder's page of a player not at turn shows the 1st)."""
        return self.step if player == self.turn else FIRST

    def _to_act(self, name: object, *steps: int) -> str:
        """The player at turn, at one of `steps`; RuleError saying whose turn it is and what
        comes next otherwise."""
        player = self._player(name)
        if self.round_over:
            raise RuleError(ROUND_OVER)
        require_turn(self.turn, player, self.up_next)
        if self.step not in steps:
            raise RuleError(Msg("{next}. {rule}", next=self.up_next,
                                rule=STEP_RULES[self.step]))
        return player

    def _next(self, player: str, step: int) -> None:
        """The next step; a player whose own deck is empty and holds no upcoins has nothing to
        take as the 1st action (ruling) and goes on to the 2nd."""
        if step == FIRST and player in self.decks_empty and not self.upcoins[player]:
            step = SECOND
        self.turn, self.step = player, step

    def _turn_done(self, player: str) -> None:
        """"After doing both actions, a player's turn ends, and the next player (to the left)
        starts their turn." In the final round, the turn of the player to the right of the start
        player is the last of the game."""
        if player == self.players[-1]:
            self.rounds += 1
            self.round_over = self.final_round
        self._next(seat_after(self.players, player), FIRST)

    def _notice_end(self, player: str) -> None:
        """"When any player deck becomes empty, or all 5 sites of any street are all finished,
        that triggers the final round."""
        if self.triggered_by is None and self._end_triggered():
            self.triggered_by = player

    def _end_triggered(self) -> bool:
        return bool(self.decks_empty) or any(all_finished(s) for s in self.streets.values())

    def meaning(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """An action of a turn records its round; a card built or discarded, which action of
        its player's turn it was: the 1st (the free card) or the 2nd (bought). A deck said
        empty or a correction records where the game stood (`standing`), so that a fix of an
        earlier action never moves it to another turn; a card taken off a site, which card it
        was. (Logs from before `standing` was recorded keep their reading.)"""
        if kind in SAID_BETWEEN:
            card = self._top_card(payload) if kind == "remove" else None
            return known(**self.standing(), card=card)
        if kind not in TURN_ACTIONS or payload.get("player") != self.turn or self.round_over:
            return {}
        if kind in ("card", "discard"):
            return {"round": self.rounds + 1, "action": 1 if self.step == FIRST else 2}
        return {"round": self.rounds + 1}

    def standing(self) -> dict[str, Any]:
        """Where the game stands: the round, whose turn it is (`turn_of`) and its step."""
        return {"round": self.rounds + 1, "turn_of": self.turn, "step": self.step}

    def _top_card(self, payload: Mapping[str, Any]) -> Card | None:
        """The card on top of the site a payload names, if there is one."""
        owner = payload.get("street")
        try:
            cards = self.streets[self._player(owner)][site_index(payload.get("site"))]
        except RuleError:
            return None
        return cards[-1] if cards else None

    def meant_otherwise(self, key: str, recorded: Any, here: Any) -> str:
        if key == "card":
            return Msg("The card taken off was {recorded}; here that site's top card is "
                       "{here}.", recorded=_card_phrase(recorded) if isinstance(
                           recorded, Mapping) else recorded, here=_card_phrase(here))
        if key == "round":
            return Msg("This action belongs to round {recorded}; here it is round {here}.",
                       recorded=recorded, here=here)
        if key == "turn_of":
            return Msg("This was said in {recorded}'s turn; here it is {here}'s turn.",
                       recorded=recorded, here=here)
        if key == "step":
            return Msg("This was said when {recorded} came next; here {here} comes next.",
                       recorded=STEP_NAMES.get(recorded, recorded), here=STEP_NAMES[here])
        if key != "action":
            return super().meant_otherwise(key, recorded, here)
        return ACTION_OTHERWISE[recorded == 1]

    @reads("player", "street", "site", "card", "bought_from", "cost", "round", "action")
    def _apply_card(self, payload: Mapping[str, Any]) -> None:
        """A card built on a site: on one's own street, or a gift on an opponent's. The 1st
        action's card is free ("take its top card for free. You can play it on a street site or
        discard it"); with `bought_from` (a player's deck or the public pile) it is the 2nd
        action: "Buy and play the top card", paid first. A roof pays the street's owner the
        income of the whole street."""
        bought = "bought_from" in payload
        player = self._to_act(payload.get("player"), *((SECOND,) if bought else
                                                         (FIRST, PLACE_BOUGHT)))
        self._check_no_upcoins(player)
        owner = self._player(payload.get("street", player))
        card = check_card(payload.get("card"))
        site = payload.get("site")
        if bought:
            deck, cost = self._purchase(player, payload.get("bought_from"), payload.get("cost"))
        placed = self._build(owner, site, card, player)
        if bought:
            self._pay(player, deck, cost)
        self.streets[owner] = placed.street
        if card["roof"]:
            number = int(str(site))
            lines = effect_lines(placed.street, "income")
            self.payouts.append(Payout(owner, number, sum(line.amount for line in lines),
                                       tuple(line for line in lines if line.amount)))
            self.accounts[owner] += placed.income
        self._remember(card)
        self._notice_end(player)
        self._step_done(player)

    def _check_no_upcoins(self, player: str) -> None:
        """"If your player deck has upcoins on it, take them to your account" (the 1st action)."""
        if self.step == FIRST and self.upcoins[player]:
            raise RuleError(Msg("Upcoins lie on {player}'s deck: the 1st action is to take "
                                "them.", player=player))

    def _step_done(self, player: str) -> None:
        """After the 1st action comes the 2nd; after the 2nd (its card built or discarded) the
        turn ends."""
        if self.step == FIRST:
            self._next(player, SECOND)
        else:
            self._turn_done(player)

    def _remember(self, card: Card) -> None:
        """The table's card library: every card built here, the most used first (of cards used
        as often, the most recent first)."""
        key = card_key(card)
        self.uses[key] = self.uses.get(key, 0) + 1
        recent = [card, *[c for c in self.library if c != card]]
        self.library = sorted(recent, key=lambda c: -self.uses[card_key(c)])

    @reads("player", "round")
    def _apply_upcoins(self, payload: Mapping[str, Any]) -> None:
        """1st action with upcoins on one's deck: take them to the account."""
        player = self._to_act(payload.get("player"), FIRST)
        if not self.upcoins[player]:
            raise RuleError(Msg("There are no upcoins on {player}'s deck.", player=player))
        self.taken = self.upcoins[player]
        self.accounts[player] += self.taken
        self.upcoins[player] = 0
        self._next(player, SECOND)

    @reads("player", "round", "action")
    def _apply_discard(self, payload: Mapping[str, Any]) -> None:
        """The card taken was discarded ("You can play it on a street site or discard it"): the
        1st action is done, or the turn, if it was the bought card."""
        player = self._to_act(payload.get("player"), FIRST, PLACE_BOUGHT)
        self._check_no_upcoins(player)
        self._step_done(player)

    @reads("player", "deck", "cost", "round")
    def _apply_buy(self, payload: Mapping[str, Any]) -> None:
        """2nd action: buy the top card of a player deck (one's own: pay the bank; an
        opponent's: the upcoins go onto that deck), or take the public pile's top card free."""
        player = self._to_act(payload.get("player"), SECOND)
        deck, cost = self._purchase(player, payload.get("deck"), payload.get("cost"))
        self._pay(player, deck, cost)
        self._next(player, PLACE_BOUGHT)

    def _purchase(self, player: str, deck: object, cost: object) -> tuple[str, int]:
        """The deck bought from and the price, checked: "While there are upcoins on a player
        deck, no one can buy a card from it"; the public pile costs nothing."""
        if deck == PUBLIC:
            return PUBLIC, 0
        deck = self._player(deck)
        price = require_count(cost, Msg("The card's cost"), 0, 99, key="cost")
        if self.upcoins[deck]:
            raise RuleError(Msg("{player}'s deck has upcoins on it: nobody can buy from it.",
                                player=deck))
        if deck in self.decks_empty:
            raise RuleError(Msg("{player}'s deck is empty.", player=deck))
        if price > self.accounts[player]:
            raise RuleError(Msg("{player} has only ${account}, not ${cost}.", player=player,
                                account=self.accounts[player], cost=price), key="cost")
        return deck, price

    def _pay(self, player: str, deck: str, cost: int) -> None:
        """One's own deck: pay the bank; an opponent's: the upcoins go onto their deck."""
        self.accounts[player] -= cost
        if deck not in (player, PUBLIC):
            self.upcoins[deck] += cost

    @reads("street", "site", "card", "round", "turn_of", "step")
    def _apply_remove(self, payload: Mapping[str, Any]) -> None:
        """A correction: the top card of a site taken off the street (a card built by
        mistake). Money it cost or its roof paid stays; cards never move otherwise. A roof
        taken off the fifth finished site of a street takes back the final round it triggered
        (unless a player deck is empty): no street is then finished, and the game goes on."""
        owner = self._player(payload.get("street"))
        index = site_index(payload.get("site"))
        if not self.streets[owner][index]:
            raise RuleError(Msg("Site {site} of {player}'s street has no card to remove.",
                                site=index + 1, player=owner))
        street = [*self.streets[owner]]
        street[index] = street[index][:-1]
        self.streets[owner] = street
        if not self._end_triggered():  # the card taken off had finished the fifth site
            self.triggered_by, self.round_over = None, False

    @reads("player", "by", "drawn", "before", "round", "turn_of", "step")
    def _apply_deck_empty(self, payload: Mapping[str, Any]) -> None:
        """A player deck has run out: "that triggers the final round. Complete the current
        round ... and then the game is over." Its owner, at the start of a turn without
        upcoins, then has nothing to take as the 1st action, unless the card that emptied it
        is that 1st action (`drawn`: said while the owner takes it; the turn stays at the 1st
        action, for the card). Taken in the round before this one (`before`: by a player who
        has not played in this round, `taken_before`; a card bought in one step ends the turn
        before the deck can be said to be empty), that round was the final one: the game is
        over, and nothing may have been played since. Logs from before `before` was recorded
        take only the last seat's card so, said before the start player's 1st action."""
        player = self._player(payload.get("player"))
        if self.round_over:
            raise RuleError(ROUND_OVER)
        if player in self.decks_empty:
            raise RuleError(Msg("{player}'s deck is already empty.", player=player))
        by = self._player(payload.get("by", player))
        drawn = payload.get("drawn", False) is True
        if drawn:
            self._check_drawn(player, by)
        before = payload.get("before", False) is True
        if before:
            self._check_taken_before(by)
        starts = self.triggered_by is None
        self.decks_empty.append(player)
        self._notice_end(by)
        if before or (starts and self.rounds and by == self.players[-1] and (
                self.turn, self.step) == (self.players[0], FIRST)):
            self.round_over = True
        if not drawn:
            self._next(self.turn, self.step)

    def taken_before(self, by: str) -> bool:
        """Whether a card `by` took was taken in the round before this one: `by` has not played
        in this round yet (seated after the player at turn, or at turn before the 1st action)."""
        seat, now = self.players.index(by), self.players.index(self.turn)
        return seat > now or (seat == now and self.step == FIRST)

    def _check_taken_before(self, by: str) -> None:
        """A deck's last card taken in the round before this one: that round was the final
        one, so nothing may have been played since (the start player's 1st action comes next)."""
        if not self.taken_before(by):
            raise RuleError(Msg("{by} has played in this round: the deck ran out in it.", by=by))
        if not self.rounds:
            raise RuleError(Msg("{by} has not had a turn yet, so has taken no card.", by=by))
        if (self.turn, self.step) != (self.players[0], FIRST):
            raise RuleError(Msg(
                "{by}'s last turn was in round {round}: if the deck ran out then, that round was "
                "the final one and the game ended with it. Undo the actions of round {next} "
                "first, then say the deck is empty.", by=by, round=self.rounds,
                next=self.rounds + 1))

    def _check_drawn(self, player: str, by: str) -> None:
        """The last card of a deck taken by its owner as the 1st action: "the 1st action is the
        top card of one's own deck", so only in the owner's own turn, at that action, and
        with no upcoins on the deck (those are the 1st action then)."""
        if by != player or (self.turn, self.step) != (player, FIRST):
            raise RuleError(Msg("{player} takes the top card of their own deck as the 1st "
                                "action of their own turn only; {next}.", player=player,
                                next=self.up_next))
        self._check_no_upcoins(player)

    @reads("player", "amount", "reason", "round", "turn_of", "step")
    def _apply_account(self, payload: Mapping[str, Any]) -> None:
        """A correction by the players: what an account really holds."""
        check_reason(payload.get("reason"))
        player = self._player(payload.get("player"))
        self.accounts[player] = require_count(
            payload.get("amount"), Msg("{player}'s account", player=player), 0, MAX_MONEY)

    @reads()
    def _apply_finish(self, payload: Mapping[str, Any]) -> None:
        """The final round is complete ("Complete the current round ... and then the game is
        over"): score prestige and upcoins."""
        if not self.final_round:
            raise RuleError(Msg("The game ends only after the final round: an empty player deck "
                                "or a street with all five sites finished starts it."))
        if not self.round_over:
            raise RuleError(Plural("The final round is not complete: {names} still takes a "
                                   "final turn ({next}).",
                                   "The final round is not complete: {names} still take their "
                                   "final turns ({next}).", names=and_list(self.still_to_play),
                                   next=self.up_next, n=len(self.still_to_play)))
        self.finished = True


def describe(kind: str, payload: Mapping[str, Any]) -> str:
    """One action in words, for the history page."""
    player = payload.get("player")
    if kind == "card":
        return _describe_card(payload)
    if kind == "upcoins":
        return Msg("{player} took the upcoins from their deck", player=player)
    if kind == "discard":
        return Msg("{player} discarded the card", player=player)
    if kind == "remove" and isinstance(payload.get("card"), Mapping):
        return Msg("Took {card} off {player}'s site {site}", card=_card_phrase(payload["card"]),
                   player=payload.get("street"), site=payload.get("site"))
    if kind == "remove":
        return Msg("Removed the top card of {player}'s site {site}",
                   player=payload.get("street"), site=payload.get("site"))
    if kind == "buy" and payload.get("deck") == PUBLIC:
        return Msg("{player} took the public card", player=player)
    if kind == "buy" and payload.get("deck") == player:
        return Msg("{player} bought from their own deck for ${cost}", player=player,
                   cost=payload.get("cost"))
    if kind == "buy":
        return Msg("{player} bought from {deck}'s deck for ${cost}", player=player,
                   deck=payload.get("deck"), cost=payload.get("cost"))
    if kind == "deck_empty" and payload.get("drawn") is True:
        return Msg("{player}'s deck is empty: its last card is {player}'s 1st action",
                   player=player)
    if kind == "deck_empty":  # who took its last card triggered the final round
        return Msg("{player}'s deck is empty: {by} took its last card", player=player,
                   by=payload.get("by", player))
    if kind == "account":
        return with_reason(Msg("Correction: {player} has ${amount}", player=player,
                               amount=payload.get("amount")), payload)
    if kind == "finish":
        return Msg("End of the game: final scoring")
    return kind


def describe_at(state: StreetState, kind: str, payload: Mapping[str, Any]) -> str:
    """One action in words with the table it made: a roof with its consequence, "Gina built
    a roof on site 1: site 1 finished, Gina takes $3"; the upcoins with what they were, "Ola
    took the upcoins from their deck: $3"; the final round it began (found at a table: "Mario's
    deck is empty: Kofi took its last card" said nothing of it)."""
    said = _consequence(state, kind, payload, describe(kind, payload))
    if not state.began_final_round(kind, payload):
        return said
    if state.round_over:  # taken in the round before: that round was the final one
        return Msg("{done}: that round was the final one", done=said)
    return Msg("{done}: the final round begins", done=said)


def _consequence(state: StreetState, kind: str, payload: Mapping[str, Any], said: str) -> str:
    """What an upcoins action took, or what a roof paid."""
    taken = state.upcoins_taken(kind, payload)
    if taken is not None:
        return Msg("{done}: ${amount}", done=said, amount=taken)
    pay = state.payout_of(kind, payload)
    if pay is None:
        return said
    if pay.paid:
        return Msg("{done}: site {site} finished, {owner} takes ${paid}", done=said,
                   site=pay.site, owner=pay.owner, paid=pay.paid)
    return Msg("{done}: site {site} finished, {owner} takes nothing (income {income})",
               done=said, site=pay.site, owner=pay.owner, income=signed(pay.income))


def _describe_card(payload: Mapping[str, Any]) -> str:
    """'Mia built an office on site 2', 'Mia gave Ola a roof as a gift, on site 1' (a card on
    another's street is always a gift), 'Mia gave Ola a gift, on site 1' (a bare gift card)."""
    player, site = payload.get("player"), payload.get("site")
    card = payload.get("card")
    card = card if isinstance(card, Mapping) else {}
    key, what = _card_key(card), _card_phrase(card)
    owner = payload.get("street", player)
    if owner == player:
        done = Msg("{player} built {card} on site {site}", player=player, card=what, site=site)
    elif key == "gift":  # a bare gift card: "a gift as a gift" says it twice
        done = Msg("{player} gave {owner} a gift, on site {site}", player=player, owner=owner,
                   site=site)
    else:
        done = Msg("{player} gave {owner} {card} as a gift, on site {site}", player=player,
                   card=what, owner=owner, site=site)
    deck = payload.get("bought_from")
    if deck is None:
        return done
    if deck == PUBLIC:
        return Msg("{done} (public pile)", done=done)
    if deck == player:
        return Msg("{done} (bought from their own deck for ${cost})", done=done,
                   cost=payload.get("cost"))
    return Msg("{done} (bought from {deck}'s deck for ${cost})", done=done, deck=deck,
               cost=payload.get("cost"))


def describe_detail(kind: str, payload: Mapping[str, Any]) -> str:
    """A card action with every icon of its card: "Mia built an office on site 2 (income +2;
    prestige +1 per hotel on the street)", for a change whose words would otherwise read the
    same before and after."""
    card = payload.get("card")
    said = describe(kind, payload)
    if kind not in ("card", "remove") or not isinstance(card, Mapping):
        return said
    icons = card_icons(unnamed(card))
    return Msg("{said} ({icons})", said=said, icons=icons) if icons else said


def unnamed(card: Mapping[str, Any]) -> Mapping[str, Any]:
    """A card without the mark its words already name it by: a roof or gift with no project is
    "a roof", not "a roof ... (roof)" (found at a table)."""
    named = None if card.get("project") else "roof" if card.get("roof") else "gift"
    return {**card, named: False} if named else card


def card_words(card: Mapping[str, Any]) -> str:
    """A card by what it shows first and its icons: 'office (income +2; prestige +1)', 'roof
    (prestige +2)', as a card seen before is named to a screen reader (its icons drawn say $
    and a star)."""
    name = card_name(card)
    icons = card_icons(unnamed(card))
    return Msg("{said} ({icons})", said=name, icons=icons) if icons else name


def card_icons(card: Mapping[str, Any]) -> str:
    """A card's icons in words: 'income +2, +1 per hotel on the street; prestige +1; roof'."""
    parts: list[str] = []
    for kind in ("income", "prestige"):
        effects = card.get(kind) or []
        if effects:
            parts.append(Msg("{kind} {effects}", kind=KIND_NAMES[kind],
                             effects=listed([effect_text(e) for e in effects])))
    if card.get("floor"):
        parts.append(FLOOR_NAMES.get(card["floor"], Msg("floor {floor}", floor=card["floor"])))
    parts += [FLAG_NAMES[flag] for flag in ("double", "roof", "gift", "no_gifts")
              if card.get(flag)]
    icons = parts[-1] if parts else ""
    for part in reversed(parts[:-1]):
        icons = Msg("{first}; {rest}", first=part, rest=icons)
    return icons


def _card_key(card: Mapping[str, Any]) -> str:
    return str(card.get("project") or ("roof" if card.get("roof") else "gift"))


def _card_phrase(card: Mapping[str, Any]) -> str:
    """'an office', 'a double office', 'a roof', 'a gift'."""
    key = _card_key(card)
    if card.get("double") and key in DOUBLE_PHRASES:
        return DOUBLE_PHRASES[key]
    return CARD_PHRASES.get(key, card_name(card))


def card_key(card: Card) -> str:
    """The card as canonical JSON: what makes two cards the same card."""
    return json.dumps(card, sort_keys=True)


def card_id(card: Card) -> str:
    """A short name for a card of the library, for its one-tap buttons: the same card always
    gets the same name, and another card another (12 hex digits of its canonical JSON's
    SHA-256)."""
    return hashlib.sha256(card_key(card).encode()).hexdigest()[:12]



# Cards seen before: at this table and at the phone's earlier ones ----------------------------


@dataclass(frozen=True)
class Built:
    """A card as one action of a log built it (in force or not): the card, what it cost if it
    was bought from a player deck (None: free, or from the public pile), and the event that
    built it (`seq`: the card action, or the change that entered it again)."""

    card: Card
    cost: int | None = None
    seq: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Known:
    """A card seen before, as the builder offers it: `left`, the copies of it that likely
    still lie in the decks of this table (the most copies one table saw, less those built
    here); `uses`, how often it was built at all these tables; `price`, what it cost when it
    was last bought from a player deck (None if never)."""

    card: Card
    left: int
    uses: int
    price: int | None


def built(payloads: Sequence[Mapping[str, Any]]) -> list[Built]:
    """The cards of a log's card actions (their payloads, oldest first), with their cost."""
    found = []
    for payload in payloads:
        card = payload.get("card")
        if not isinstance(card, Mapping):
            continue
        deck, cost = payload.get("bought_from"), payload.get("cost")
        paid = cost if deck not in (None, PUBLIC) and type(cost) is int else None
        try:
            found.append(Built(check_card(card), paid))
        except RuleError:
            continue  # a card the rules no longer read: not offered
    return found


def cards_logged(cards: Sequence[Built], events: Sequence[Event]) -> list[Built]:
    """The cards a log built: `cards`, those of its events before, then those of `events`
    (oldest first): each card action's card, and each card a change entered again, in place
    of the one it changed. A card changed into another (or taken out) was entered by mistake:
    it is no card of this table, and is not offered again (a helper's "2× coffee $+1", changed
    to "$+2", stayed first among the cards built before, its copy thought still in a deck); a
    card changed in its site or price only is still one card."""
    found = list(cards)
    for event in events:
        if event.kind == "card":
            found += [replace(b, seq=event.seq) for b in built([event.payload])]
        elif event.kind == CHANGE:
            for edit in event.payload.get("edits", []):
                if not isinstance(edit, Mapping):
                    continue
                gone, came = _built_by(edit.get("was")), _built_by(edit.get("now"))
                entered = [i for i, b in enumerate(found) if gone and b.card == gone.card]
                if entered:
                    del found[entered[-1]]
                found += [replace(came, seq=event.seq)] if came else []
    return found


def _built_by(action: Any) -> Built | None:
    """The card a card action of a change built (None: no card action)."""
    if not isinstance(action, Mapping) or action.get("kind") != "card":
        return None
    payload = action.get("payload")
    cards = built([payload]) if isinstance(payload, Mapping) else []
    return cards[0] if cards else None


def likely_cards(here: Sequence[Built], in_force: Mapping[str, int],
                 earlier: Sequence[Sequence[Built]]) -> list[Known]:
    """The cards this table may see next, the most likely first. `here` is every card this
    table's log built (undone ones too: a card taken back is about to come again), `in_force`
    how often each stands built now (by `card_key`), `earlier` the cards of the phone's earlier
    tables, the newest table first. A deck holds each card once or a few times, so a card is
    the more likely the more copies of it one table saw and the fewer of them are built here
    (`left`); then the more often it was built at all (`uses`); then the more recently. The
    price is the last one paid for it from a player deck."""
    logs = [here, *earlier]
    newest = [b for log in logs for b in reversed(log)]
    copies: dict[str, int] = {}
    for log in logs:
        seen: dict[str, int] = {}
        for b in log:
            key = card_key(b.card)
            seen[key] = seen.get(key, 0) + 1
        for key, n in seen.items():
            copies[key] = max(copies.get(key, 0), n)
    uses: dict[str, int] = {}
    prices: dict[str, int] = {}
    cards: dict[str, Card] = {}  # the most recent first
    for b in newest:
        key = card_key(b.card)
        cards.setdefault(key, b.card)
        uses[key] = uses.get(key, 0) + 1
        if b.cost is not None:
            prices.setdefault(key, b.cost)
    known = [Known(card, max(0, copies[key] - in_force.get(key, 0)), uses[key], prices.get(key))
             for key, card in cards.items()]
    return sorted(known, key=lambda k: (-k.left, -k.uses))  # stable: the recent first if equal
