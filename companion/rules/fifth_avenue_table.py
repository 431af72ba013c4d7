"""A 5th Avenue game at the table: the digital twin of the board that the event log replays into.

The table moves the pieces; the app mirrors the board so it can score districts, run the
auctions' bookkeeping and decide for Alea. Each action kind has one `_apply_<kind>` method that
checks everything before it changes anything, so a refused action leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from .common import (
    ActionTable,
    Placing,
    RuleError,
    Step,
    final_ranking,
    known,
    leaders,
    reads,
    require_count,
    require_turn,
    said_at,
    seat_after,
    winners,
)
from .fifth_avenue import (
    BUSINESS_LABELS,
    BUSINESS_NAMES,
    BUSINESSES,
    COLOUR_NAMES,
    COLOURS,
    COMMISSIONER_NAMES,
    DISTRICTS,
    PARK_LEAST,
    PLOTS,
    POSITION_NAMES,
    SKYSCRAPERS_ON_CARD,
    SPECIAL_SCORINGS,
    alea_bid,
    alea_build_plots,
    bid_colours,
    building_stop_points,
    central_park_points,
    commissioner_moves,
    district_breakdown,
    district_points,
    districts_built,
    max_skyscrapers,
    scorable_districts,
    special_scoring_points,
)
from .fifth_avenue_turns import may_end_turn, turn_after
from .text import Account, Msg, Plural, and_list, listed

ALEA = "alea"
COMMISSIONERS = ("white", "beige")
CITY_HALL, CENTRAL_PARK = "city_hall", "central_park"
DISTRICT_IDS = tuple(d for d, _ in DISTRICTS)
DISTRICT_NAMES = dict(POSITION_NAMES)
# Ruling: the printed board's colour order differs per district; this default is a rotation the
# table corrects once on the board page, and the app remembers the corrected one.
DEFAULT_PROFILE = {
    district: [COLOURS[(i + k) % 5] for k in range(5)] for i, district in enumerate(DISTRICT_IDS)
}
# Ruling: the supply row's eight sets alternate 3 and 2 spaces from the left unless the table
# says otherwise; every two sets hold five tiles, so the 3rd, 6th and 9th placement end a pair.
DEFAULT_SET_SIZES = (3, 2, 3, 2, 3, 2, 3, 2)
ROW_TILES = 20
LAST_PLACEMENT = 12
# "Each player chooses a color and takes, in that color: 6 skyscrapers" of 18 (one scoring
# marker, two on the board, three in his supply); option A takes 3 more from the rest.
COLOUR_SKYSCRAPERS, TAKEN_AT_START, START_SUPPLY, OPTION_A = 18, 6, 3, 3

RULINGS = {
    "ring": Msg("Ruling: the five plots of a district form a ring; each touches the two beside "
                "it."),
    "alea_deck": Msg("Ruling: Alea's virtual draw uses a full black deck of 50 cards "
                     "(twenty 4s, sixteen 5s, fourteen 6s), since the real stack's order is "
                     "hidden."),
    "alea": Msg("Ruling: Alea builds one skyscraper on the most valuable empty plot, one on each "
                "if several tie; with no empty plot Alea declares a building stop. Alea never "
                "scores."),
    "alea_pieces": Msg("Ruling: Alea has the 18 skyscrapers of one colour; once all are on the "
                       "board or out of the game (a building stop sends those in its district to "
                       "the box), Alea's wins build nothing, and with fewer left than tied plots "
                       "Alea builds on the first of them in ring order."),
    "park": Msg("Ruling: if fewer than three businesses lie below Central Park at the end, all "
                "are turned over and scored like a district's neighbours; with none, 2 VP per "
                "skyscraper (\"lowest is 2\")."),
    "turns": Msg("Ruling: a turn is entered as its 1st action (A, B, C's move or D) and its 3rd, "
                 "a commissioner's move; it ends with that move."),
    "supply": Msg("Ruling: option A takes 3 skyscrapers of the player's colour from the general "
                  "supply (12 are left there after the set-up); with fewer left, the rest."),
    "tie": Msg("Ruling: tied for the most VP, the player with the most cards left in hand wins; "
               "still tied, the victory is shared."),
    "stand_in": Msg("Ruling: after a change of a past action, a later commissioner's move that "
                    "now starts from another district stays the same move, from the table as it "
                    "now stands, where the rules allow it there (a move the commissioner can no "
                    "longer make is refused, in words); the change's preview says so, and the "
                    "board is put right to match."),
    "stand_in_alea": Msg("Ruling: after a change of a past action, a later commissioner's move "
                         "that now starts from another district, or Alea's win where Alea would "
                         "now build on other plots, declare a building stop or have no "
                         "skyscraper left to build, stays the same move or win, from the table "
                         "as it now stands, where the rules allow it there (a move the "
                         "commissioner can no longer make is refused, in words); the change's "
                         "preview says so, and the board is put right to match."),
}
# What an action records that the rules work out from the board rather than the players choose:
# where a commissioner moved from; whether Alea's win declared a building stop, found all of
# Alea's skyscrapers on the board, and where Alea built (`FifthAvenueState.alea_outcome`). A later
# action refused after a change only because one of these differs is the same action, worked out
# again (`read_again`).
# An Alea win recorded since Alea's skyscrapers sent to the box count as used says so (`box`);
# one recorded before counts only those on the board, as it was refereed; read again, it counts
# both.
WORKED_OUT = ("from", "building_stop", "none_left", "plots", "box")


@dataclass(frozen=True)
class ScoringEvent:
    """One moment that gave victory points: what happened, who got what and why."""

    label: str
    points: dict[str, int]
    lines: tuple[str, ...] = ()


@dataclass
class Auction:
    """The auction under way: where, the bid Alea must beat, and Alea's cards if drawn."""

    place: str
    high_bid: int | None = None
    alea_cards: tuple[int, ...] = ()
    mover: str | None = None  # who moved the commissioner and so bids first (None: not known)

    @property
    def alea_bid(self) -> int | None:
        return alea_bid(list(self.alea_cards)) if self.alea_cards else None

    @property
    def alea_in(self) -> bool:
        bid = self.alea_bid
        return bid is not None and self.high_bid is not None and bid > self.high_bid

    @property
    def passed_to_alea(self) -> bool:
        """Both players passed before Alea's bid (a high bid of 0): "A player cannot re-enter an
        auction after passing", so "if the others both pass with Alea's bid the highest, Alea
        wins the auction" (rule 4.2)."""
        return self.high_bid == 0 and bool(self.alea_cards)

    @property
    def alea_may_win(self) -> bool:
        """Alea's bid is drawn and not known to be beaten: drawn without the players' high bid
        entered, the table says who won (Alea's 8 to 21 beats two passes, so somebody wins)."""
        return bool(self.alea_cards) and (self.high_bid is None or self.alea_in)


@dataclass
class FifthAvenueState(ActionTable):
    """The board and the scores of one 5th Avenue game, rebuilt from its events."""

    players: list[str]
    colours: dict[str, list[str]] = field(default_factory=lambda: dict(DEFAULT_PROFILE))
    set_sizes: tuple[int, ...] = DEFAULT_SET_SIZES
    board_set: bool = False  # the table has said which colour sits where (its "profile")
    board: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    row: list[list[str | None]] = field(default_factory=list)
    below_park: list[str] = field(default_factory=list)
    park: dict[str, int] = field(default_factory=dict)
    started: bool = False
    first_placer: str | None = None
    initial_done: int = 0
    placed: int = 0
    commissioners: dict[str, str] = field(default_factory=dict)
    visited: dict[str, list[str]] = field(default_factory=dict)
    stopped: list[str] = field(default_factory=list)
    alea_boxed: int = 0  # Alea's skyscrapers a building stop sent to the box, out of the game
    auctions: list[Auction] = field(default_factory=list)
    auction_round: int = 0  # how many times a commissioner has come back to City Hall
    scorings: list[ScoringEvent] = field(default_factory=list)
    hand_cards: dict[str, int] = field(default_factory=dict)
    park_tiles: tuple[str, ...] = ()
    final_scored: bool = False
    turns: bool = False  # the app keeps the turns (tables set up before it did not)
    turns_taken: int = 0
    turn_steps: list[str] = field(default_factory=list)
    # Each player's skyscrapers in supply, and those of their colour left in the general supply.
    supply: dict[str, int] = field(default_factory=dict)
    general: dict[str, int] = field(default_factory=dict)
    note: str | None = None
    end_reason: str | None = None
    finished: bool = False
    # 'Ann', 'Ann and Ben': for the pages and the score sheet, said in the players' language.
    and_list = staticmethod(and_list)


    @classmethod
    def start(cls, players: list[str]) -> FifthAvenueState:
        table = cls(list(players))
        table.board = {d: [{} for _ in range(5)] for d in DISTRICT_IDS}
        table.commissioners = dict.fromkeys(COMMISSIONERS, CITY_HALL)
        table.visited = {c: [] for c in COMMISSIONERS}
        table.park = dict.fromkeys(table.owners, 0)
        table.supply = dict.fromkeys(table.players, START_SUPPLY)
        table.general = dict.fromkeys(table.players, COLOUR_SKYSCRAPERS - TAKEN_AT_START)
        return table

    # What the table looks like now -------------------------------------------------------

    @property
    def with_alea(self) -> bool:
        return len(self.players) == 2

    @property
    def owners(self) -> list[str]:
        return self.players + ([ALEA] if self.with_alea else [])

    @property
    def placing_order(self) -> list[str]:
        """Initial skyscrapers: the first placer, then counter-clockwise (to the right); the
        second round clockwise, beginning with the player who placed last."""
        if self.first_placer is None:
            return []
        start = self.players.index(self.first_placer)
        count = len(self.players)
        first_round = [self.players[(start - k) % count] for k in range(count)]
        return first_round + first_round[::-1]

    @property
    def next_placer(self) -> str | None:
        order = self.placing_order
        return order[self.initial_done] if self.initial_done < len(order) else None

    def may_place_in(self, district: str) -> bool:
        """Whether the next initial skyscraper may go in `district`: its placer has no plot
        there yet ("one building plot per district"; found at a table: the plot looked as open
        as any, and was refused once tapped)."""
        placer = self.next_placer
        return placer is None or all(p.get("owner") != placer for p in self.board[district])

    @property
    def placer_districts(self) -> list[str]:
        """The districts the next initial skyscraper may not go in: its placer has a plot there
        (`may_place_in`; found at a table: their plots greyed out with no word why)."""
        return [d for d in self.board if not self.may_place_in(d)]

    @property
    def phase(self) -> str:
        """setup, placing (initial skyscrapers), auctions, playing, final (tie-break) or over."""
        if self.finished:
            return "over"
        if self.end_reason:
            return "final"
        if not self.started:
            return "setup"
        if self.next_placer is not None or self.first_placer is None:
            return "placing"
        return "auctions" if self.auctions else "playing"

    @property
    def current_player(self) -> str | None:
        """Whose turn it is: "The starting player begins and play continues from there in
        clockwise order" (the seating order); the first placer starts."""
        if not self.turns or self.first_placer is None:
            return None
        return seat_after(self.players, self.first_placer, self.turns_taken)

    @property
    def bidders(self) -> list[str]:
        """The players in bidding order: "the player who triggered the auctions begins the
        auction", then clockwise (the seating order); the seating order when the table does not
        follow turns (the app does not know who moved)."""
        mover = self.auctions[0].mover if self.auctions else None
        if mover is None:
            return list(self.players)
        at = self.players.index(mover)
        return [*self.players[at:], *self.players[:at]]

    @property
    def first_action_open(self) -> bool:
        """Whether the turn's 1st action (skyscrapers, a business, a score, a move) comes now."""
        return self.current_player is None or not self.turn_steps

    @property
    def up_next(self) -> str | None:
        """Whose turn it is and what comes next, in words."""
        player = self.current_player
        if self.phase == "playing" and player is None:
            return None
        if self.phase == "playing" and self.turn_steps:
            return Msg("{player}'s turn: the 3rd action, a commissioner's move.", player=player)
        if self.phase == "playing":
            return Msg("{player}'s turn: the 1st action (A, B, C or D).", player=player)
        if self.phase == "placing" and self.next_placer is not None:
            return Msg("{player} places an initial skyscraper.", player=self.next_placer)
        if self.phase == "auctions":
            return Msg("Auction in {place}.", place=DISTRICT_NAMES[self.auctions[0].place])
        if self.phase == "over":
            return None
        if self.phase == "final" and self.final_scored:
            return Msg("Enter the cards in hand of {names}.", names=and_list(self.tied_leaders))
        return PHASE_HINTS[self.phase]

    @property
    def current_set(self) -> int | None:
        """The left-most set of the supply row that still holds a tile."""
        return next((i for i, tiles in enumerate(self.row) if any(tiles)), None)

    def allowed_moves(self, commissioner: str) -> list[str]:
        return commissioner_moves(self.commissioners[commissioner], list(self.stopped))

    @property
    def scorable(self) -> list[str]:
        return scorable_districts(list(self.commissioners.values()), list(self.stopped))

    def if_scored_now(self, district: str) -> dict[str, int]:
        """What scoring `district` (option D) would give each player now, before the tap."""
        points = district_points(self.board[district])
        return {player: points.get(player, 0) for player in self.players}

    def colours_for(self, district: str, player: str) -> list[str]:
        return bid_colours(self.board[district], self.colours[district], player)

    def districts_with(self, owner: str) -> int:
        return districts_built(self.board, owner)

    def totals(self) -> dict[str, int]:
        return {p: sum(s.points.get(p, 0) for s in self.scorings) for p in self.players}

    def holdings(self) -> dict[str, str]:
        """Each player's skyscrapers in supply, where the table keeps them (turns kept): what a
        change moves there limits what they build later (found at a table: a winner changed
        moved 2 from one supply to another, and the preview said only the VP)."""
        if not self.turns:
            return {}
        return {p: Plural("{n} skyscraper in supply", "{n} skyscrapers in supply",
                          n=self.supply[p]) for p in self.players}

    def ranking(self) -> list[Placing]:
        """Most VP first; tied leaders are split by the cards left in hand, then share."""
        return final_ranking(self.totals(), {p: self.hand_cards.get(p, 0) for p in self.players})

    def verdict(self) -> str:
        """The final result in one sentence, saying how the tie-break decided when it had to:
        "If players are tied with the most, the player among them with the most remaining
        cards in his hand is the winner" (still tied: a shared victory, the referee notes)."""
        ranking = self.ranking()
        best, tied, first = ranking[0].total, self.tied_leaders, winners(ranking)
        if not tied:
            return Msg("{name} wins with {total} VP.", name=first[0], total=best)
        cards = self.hand_cards.get(first[0], 0)
        if len(first) > 1:
            return Plural("{names} tie on {total} VP and on their cards in hand ({n} card): a "
                          "shared victory.",
                          "{names} tie on {total} VP and on their cards in hand ({n} cards): a "
                          "shared victory.", names=and_list(first), total=best, n=cards)
        runner_up = max(self.hand_cards.get(p, 0) for p in tied if p != first[0])
        return Plural("{names} tie on {total} VP; {name} wins with {n} card left in hand to "
                      "{next}.",
                      "{names} tie on {total} VP; {name} wins with {n} cards left in hand to "
                      "{next}.", names=and_list(tied), total=best, name=first[0], n=cards,
                      next=runner_up)

    @property
    def tied_leaders(self) -> list[str]:
        tied = leaders(self.totals())
        return tied if len(tied) > 1 else []

    def over_for(self, kind: str) -> str:
        """Cards in hand entered after a final scoring with no tie for the most VP (found at a
        table: a change of the Central Park businesses broke the tie, and the cards entered for
        it were refused as "The game is over: undo the last step")."""
        if kind == "hand_cards":
            return Msg("No tie for the most VP is left for cards in hand to break: the game is "
                       "over.")
        return super().over_for(kind)

    # Actions -----------------------------------------------------------------------------

    # What an event means -----------------------------------------------------------------

    def meaning(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """An event records who acted (the placer, the player at turn, and in which of the
        game's turns), a plot's colour, the
        tile a business came from (its set and business), where a commissioner moved from and
        which action of the turn the move was (the 1st, option C, or the 3rd), the auction
        an outcome or Alea's draw belongs to (its district and round) with where Alea built,
        and what a Central Park skyscraper scores with no business below it."""
        if kind == "initial_skyscraper" and self.phase == "placing":
            return known(player=self.next_placer, colour=self.colour_of(payload))
        if kind in ("alea_bid", "auction") and self.phase == "auctions":
            return self._auction_meaning(kind, payload)
        if kind == "final" and self.phase == "final":
            return {"park_none": PARK_LEAST}  # ruling "park" as it stood (1 VP before)
        if self.phase != "playing":
            return {}
        turn = {} if self.current_player is None else {"player": self.current_player,
                                                         "turn": self.turns_taken + 1}
        if kind == "business":
            return known(**turn, colour=self.colour_of(payload), **self._tile_of(payload))
        if kind == "move":
            which = payload.get("commissioner")
            here = self.commissioners.get(which) if isinstance(which, str) else None
            action = (3 if self.turn_steps else 1) if turn else None
            return known(**turn, action=action, **{"from": here})
        if kind in ("score", "skyscrapers", "end_turn"):
            return turn
        return {}

    def colour_of(self, payload: Mapping[str, Any]) -> str | None:
        """The colour of the plot a payload names (its district and place in the ring)."""
        district, plot = payload.get("district"), payload.get("plot")
        if not isinstance(district, str) or district not in self.colours or not _index(plot,
                                                                                         PLOTS):
            return None
        return self.colours[str(district)][plot]

    def _tile_of(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The supply row's set in play, and the business on the tile a payload takes there."""
        current, tile = self.current_set, payload.get("tile")
        if current is None:
            return {}
        tiles = self.row[current]
        return known(set=current, business=tiles[tile] if _index(tile, len(tiles)) else None)

    def _auction_meaning(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The auction (district and round); for Alea's win of a district, its outcome
        (`alea_outcome`). An Alea win recorded before it said whether Alea declared a building
        stop (`plots` without `building_stop`) means only where Alea built: the board tells a
        building stop from no skyscraper left, as those logs replayed."""
        auction = self.auctions[0]
        meant = {"place": auction.place, "round": self.auction_round}
        if (kind == "auction" and payload.get("winner") == ALEA and auction.alea_may_win
                and auction.place != CENTRAL_PARK):
            box = _counts_box(payload)
            outcome = self.alea_outcome(auction.place, box)
            older = "plots" in payload and "building_stop" not in payload
            meant.update({"plots": outcome["plots"]} if older else
                         {**outcome, **({"box": True} if box else {})})
        return meant

    def alea_outcome(self, place: str, box: bool = True) -> dict[str, Any]:
        """What Alea's win of `place` does, as its event records it: a building stop when no
        plot is empty (`building_stop`, ruling "alea"); nothing when all of Alea's skyscrapers
        are on the board or in the box (`none_left`, ruling "alea_pieces"); else one skyscraper
        on each of `plots` (by colour)."""
        empty = alea_build_plots(self.board[place])
        plots = self.alea_plots(place, box)
        return {"building_stop": not empty, "none_left": bool(empty) and not plots,
                "plots": [self.colours[place][p] for p in plots]}

    def alea_win_said(self, place: str) -> str:
        """What tapping "Alea won" does here, said on the button before it is tapped: where Alea
        builds, or the building stop Alea declares (the second ends the game), or why Alea
        builds nothing."""
        if place == CENTRAL_PARK:
            return Msg("Alea won (Alea never builds in Central Park)")
        outcome = self.alea_outcome(place)
        if outcome["building_stop"]:
            return (Msg("Alea won: every plot is taken, so Alea declares a building stop")
                    if not self.stopped else
                    Msg("Alea won: every plot is taken, so Alea declares the second building "
                        "stop, which ends the game"))
        if outcome["none_left"]:
            return (Msg("Alea won: Alea's skyscrapers are all on the board or out of the game, "
                        "so Alea builds nothing") if self.alea_boxed else
                    Msg("Alea won: all of Alea's skyscrapers are on the board, so Alea builds "
                        "nothing"))
        return Plural("Alea won: Alea builds one skyscraper on the {colours} plot",
                      "Alea won: Alea builds one skyscraper on each of the {colours} plots",
                      n=len(outcome["plots"]), colours=_colour_list(outcome["plots"]))

    @property
    def alea_left(self) -> int:
        """Alea's skyscrapers not yet built: "all the skyscrapers in one of the two unchosen
        colors ... These are Alea's skyscrapers", one on each of Alea's plots; those a building
        stop took off the board are "returned to the box - out of the game"."""
        return self._alea_left(box=True)

    def _alea_left(self, box: bool) -> int:
        built = sum(plot.get("owner") == ALEA for district in self.board.values()
                    for plot in district)
        return COLOUR_SKYSCRAPERS - int(built) - (self.alea_boxed if box else 0)

    def alea_plots(self, place: str, box: bool = True) -> list[int]:
        """Where Alea builds after winning `place` (`alea_build_plots`), as far as Alea's
        skyscrapers go (ruling "alea_pieces": the first of tied plots, in ring order); `box`:
        those in the box count as used (not in a win recorded before they did)."""
        return alea_build_plots(self.board[place])[:max(0, self._alea_left(box))]

    def read_again(self, kind: str, payload: Mapping[str, Any]) -> Step | None:
        """Ruling ("stand_in"): a later action refused after a change of an earlier one only
        because what the rules work out from the board differs now (`WORKED_OUT`: the
        commissioner starts from another district, Alea would build on other plots) is the same
        move or the same win of Alea's, from the table as it now stands: every worked-out key
        as the table gives it now (an older win of Alea's gains `building_stop` and
        `none_left`)."""
        here = self.meaning(kind, {k: v for k, v in payload.items() if k not in WORKED_OUT})
        if any(key in payload and payload[key] != value for key, value in here.items()
               if key not in WORKED_OUT):
            return None
        now = {key: here[key] for key in WORKED_OUT
               if key in here and payload.get(key) != here[key]}
        return (kind, {**payload, **now}) if now else None

    def accepted_before(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any] | None:
        """The version 1 app let an auction be won by nobody after a player's bid had beaten
        Alea's: kept, marked `unsold`, and said so in the history."""
        if kind == "auction" and payload.get("winner") is None and self.phase == "auctions":
            return {**payload, "unsold": True}
        return None

    def meant_otherwise(self, key: str, recorded: Any, here: Any) -> str:
        """Why a recorded action is not the one it would be here, in the table's words."""
        if key == "action":
            return MOVES_OTHERWISE[here == 1]
        if key in ("building_stop", "none_left"):
            return ALEA_OTHERWISE[key, here is True]
        if key not in MEANT_OTHERWISE:
            return super().meant_otherwise(key, recorded, here)
        return Msg(MEANT_OTHERWISE[key].template, recorded=_said(key, recorded),
                   here=_said(key, here))

    def _before_action(self) -> None:
        self.note = None


    def _require_phase(self, *phases: str) -> None:
        """RuleError unless the game is in one of `phases`, saying what comes first, or that
        the set-up is behind the table or the end still ahead of it."""
        if self.phase in phases:
            return
        done = {"placing": {"setup"}, "playing": {"setup", "placing"},
                "auctions": {"setup", "placing"}}.get(self.phase, set())
        if set(phases) <= done:
            raise RuleError(Msg("The set-up is done; undo back to it to change it."))
        if self.phase == "playing" and "final" in phases:
            raise RuleError(Msg("The game is not over yet: the final scoring comes at its end."))
        if self.phase == "final" and self.final_scored:
            raise RuleError(TIE_BREAK_NEXT)
        raise RuleError(PHASE_HINTS[self.phase])

    def _district(self, district: object, open_only: bool = True) -> str:
        if not isinstance(district, str) or district not in self.board:
            raise RuleError(Msg("Unknown district {district!r}.", district=district))
        if open_only and district in self.stopped:
            raise RuleError(Msg("{district} is closed by a building stop.",
                                district=DISTRICT_NAMES[str(district)]))
        return str(district)

    def _plot(self, district: str, plot: object) -> int:
        return require_count(plot, Msg("The plot in {district}", district=DISTRICT_NAMES[district]),
                             0, 4)

    def _owner(self, name: object, alea: bool = True) -> str:
        allowed = self.owners if alea else self.players
        if name not in allowed:
            raise RuleError(Msg("{name!r} is not playing at this table.", name=name))
        return str(name)

    @reads("colours", "set_sizes")
    def _apply_profile(self, payload: Mapping[str, Any]) -> None:
        """The board's colour order per district and the supply row's set sizes."""
        self._require_phase("setup")
        colours = payload.get("colours")
        if not isinstance(colours, Mapping) or set(colours) != set(DISTRICT_IDS):
            raise RuleError(Msg("Give the colour order of all seven districts."))
        for district, ring in colours.items():
            if not isinstance(ring, list) or sorted(ring) != sorted(COLOURS):
                raise RuleError(Msg("{district} needs each of the five colours once.",
                                    district=DISTRICT_NAMES[district]))
        sizes = check_set_sizes(payload.get("set_sizes", DEFAULT_SET_SIZES))
        self.colours = {d: list(colours[d]) for d in DISTRICT_IDS}
        self.set_sizes = sizes
        self.board_set = True

    @reads("start", "row", "turns")
    def _apply_setup(self, payload: Mapping[str, Any]) -> None:
        """The seven starting businesses (one per district) and the twenty on the supply row;
        `turns` (tables set up since the app keeps the turns): whose turn it is is followed."""
        self._require_phase("setup")
        starts = self._starting_businesses(payload.get("start"))
        row = payload.get("row")
        if not isinstance(row, list) or len(row) != ROW_TILES or any(
            kind not in BUSINESSES for kind in row
        ):
            raise RuleError(Msg("The supply row holds {tiles} businesses, each one of {kinds}.",
                                tiles=ROW_TILES, kinds=and_list(
                                    [BUSINESS_LABELS[kind] for kind in BUSINESSES])))
        for district, plot, kind in starts:
            self.board[district][plot] = {"businesses": [kind]}
        sets, k = [], 0
        for size in self.set_sizes:
            sets.append(list(row[k:k + size]))
            k += size
        self.row = sets
        self.started = True
        self.turns = bool(payload.get("turns"))

    def _starting_businesses(self, start: object) -> list[tuple[str, int, str]]:
        """One business per district; every colour used at least once and at most twice."""
        if not isinstance(start, Mapping) or set(start) != set(DISTRICT_IDS):
            raise RuleError(Msg("Place one starting business in each of the seven districts."))
        starts = []
        for district in DISTRICT_IDS:
            entry = start[district]
            if not isinstance(entry, Mapping) or entry.get("kind") not in BUSINESSES:
                raise RuleError(Msg("Choose the business in {district}.",
                                    district=DISTRICT_NAMES[district]))
            starts.append((district, self._plot(district, entry.get("plot")), str(entry["kind"])))
        used = [self.colours[d][p] for d, p, _ in starts]
        for colour in COLOURS:
            if not 1 <= used.count(colour) <= 2:
                raise RuleError(Msg(
                    "The starting businesses must use every plot colour once or twice; "
                    "{colour} is used {count} times.",
                    colour=COLOUR_NAMES[colour], count=used.count(colour)))
        return starts

    @reads("player")
    def _apply_first_placer(self, payload: Mapping[str, Any]) -> None:
        """The youngest (or chosen) player places the first skyscraper."""
        self._require_phase("placing")
        if self.initial_done:
            raise RuleError(Msg("The placing has begun; undo it to choose another first "
                                "player."))
        self.first_placer = self._owner(payload.get("player"), alea=False)

    @reads("district", "plot", "player", "colour")
    def _apply_initial_skyscraper(self, payload: Mapping[str, Any]) -> None:
        """Two skyscrapers each on empty plots: first round counter-clockwise, then back."""
        self._require_phase("placing")
        player = self.next_placer
        if player is None:
            raise RuleError(Msg("First choose who places the first skyscraper."))
        district = self._district(payload.get("district"))
        plot = self._plot(district, payload.get("plot"))
        if self.board[district][plot]:
            raise RuleError(Msg("Initial skyscrapers go on empty plots."))
        if any(p.get("owner") == player for p in self.board[district]):
            raise RuleError(Msg("{player} already has a plot in {district}: one plot per "
                                "district.", player=player, district=DISTRICT_NAMES[district]))
        self.board[district][plot] = {"owner": player, "skyscrapers": 1}
        self.initial_done += 1

    @reads("district", "plot", "tile", "player", "turn", "colour", "set", "business")
    def _apply_business(self, payload: Mapping[str, Any]) -> None:
        """Option B: a business from the current set onto a plot that is empty or holds one
        business; when a set is down to one tile, that tile drops below Central Park."""
        self._require_phase("playing")
        placer = self.current_player
        turn = self._turn_check("business")
        current = self.current_set
        if current is None:
            raise RuleError(Msg("The supply row is empty."))
        tiles = self.row[current]
        tile = require_count(payload.get("tile"), Msg("The tile"), 0, len(tiles) - 1)
        if tiles[tile] is None:
            raise RuleError(Msg("That tile has already been taken."))
        district = self._district(payload.get("district"))
        plot = self._plot(district, payload.get("plot"))
        target = self.board[district][plot]
        if "owner" in target or len(target.get("businesses", [])) >= 2:
            raise RuleError(Msg("A business goes on an empty plot or on a plot with one "
                                "business: never on a plot with skyscrapers or 2 businesses."))
        kind = tiles[tile]
        assert kind is not None
        self.board[district][plot] = {"businesses": [*target.get("businesses", []), kind]}
        tiles[tile] = None
        left = [i for i, t in enumerate(tiles) if t is not None]
        below = ""
        if len(left) == 1:
            self.below_park.append(str(tiles[left[0]]))
            below = Msg(" The set's last tile, a {kind}, goes below Central Park.",
                        kind=BUSINESS_NAMES[str(tiles[left[0]])])
            tiles[left[0]] = None
        self.placed += 1
        self._turn_record(turn)
        special = self._special_scoring()
        if self.placed == LAST_PLACEMENT:
            self.end_reason = Msg("The last business is placed: the game is over.")
        where = {"kind": BUSINESS_NAMES[kind], "district": DISTRICT_NAMES[district],
                 "colour": COLOUR_NAMES[self.colours[district][plot]], "n": self.placed,
                 "last": LAST_PLACEMENT, "below": below, "special": special}
        self.note = (Account("{player} placed a {kind} in {district}, on the {colour} plot: "
                             "business {n} of {last}.{below}{special}", player=placer, **where)
                     if placer else
                     Msg("Business {n} of {last}: a {kind} in {district}, on the {colour} plot."
                         "{below}{special}", **where))

    def _special_scoring(self) -> str:
        """Right after the 3rd, 6th and 9th business: 4 / 6 / 8 VP for skyscrapers in at least
        3 / 4 / 5 districts. Returns what it gave, in words ("" when none was due)."""
        if self.placed not in (3, 6, 9):
            return ""
        points = {
            p: special_scoring_points(self.placed, self.districts_with(p))
            for p in self.players
        }
        lines = [Plural("{player}: skyscrapers in {n} district, {points} VP",
                        "{player}: skyscrapers in {n} districts, {points} VP",
                        player=p, n=self.districts_with(p), points=v)
                 for p, v in points.items()]
        label = Msg("Special scoring after business {number}", number=self.placed)
        self.scorings.append(ScoringEvent(label, points, tuple(lines)))
        needed, each = SPECIAL_SCORINGS[self.placed]
        rule = {"points": each, "n": needed}
        return (Msg(" Special scoring: {points} VP for skyscrapers in {n} districts or more.",
                    **rule) if any(points.values()) else
                Msg(" Special scoring: {points} VP for skyscrapers in {n} districts or more; "
                    "nobody has them.", **rule))

    @reads("commissioner", "to", "player", "turn", "action", "from")
    def _apply_move(self, payload: Mapping[str, Any]) -> None:
        """Move a commissioner one step towards Central Park (marking the district left), or
        from Central Park back to City Hall, which starts the auctions it visited."""
        self._require_phase("playing")
        mover, turn = self.current_player, self._turn_check("move")
        which = payload.get("commissioner")
        if which not in COMMISSIONERS:
            raise RuleError(Msg("Choose the white or the beige commissioner."))
        to = payload.get("to")
        if to not in self.allowed_moves(str(which)):
            name = DISTRICT_NAMES.get(to) if isinstance(to, str) else None
            raise RuleError(Msg("The {commissioner} cannot move to {to} now.",
                                commissioner=COMMISSIONER_NAMES[str(which)], to=name)
                            if name else Msg("The {commissioner} cannot move there.",
                                             commissioner=COMMISSIONER_NAMES[str(which)]))
        here = self.commissioners[str(which)]
        if here in DISTRICT_IDS and here not in self.stopped:
            self.visited[str(which)].append(here)
        self.commissioners[str(which)] = str(to)
        self._turn_record(turn)
        if to == CITY_HALL:
            self.auction_round += 1
            places = [d for d in self.visited[str(which)] if d not in self.stopped]
            self.auctions = [Auction(p, mover=mover) for p in [*places, CENTRAL_PARK]]
            self.visited[str(which)] = []

    @reads("district", "player", "turn")
    def _apply_score(self, payload: Mapping[str, Any]) -> None:
        """Option D: score a district where a commissioner stands."""
        self._require_phase("playing")
        scorer = self.current_player
        turn = self._turn_check("score")
        district = self._district(payload.get("district"))
        if district not in self.scorable:
            raise RuleError(Msg("{district} has no commissioner in it.",
                                district=DISTRICT_NAMES[district]))
        plots = self.board[district]
        self._turn_record(turn)
        self.scorings.append(
            ScoringEvent(Msg("{district} scored by {player}", district=DISTRICT_NAMES[district],
                             player=scorer) if scorer else
                         Msg("{district} scored", district=DISTRICT_NAMES[district]),
                         district_points(plots), self._district_lines(district)))
        absent = [p for p in self.players if not any(q.get("owner") == p for q in plots)]
        if absent:
            draw = Plural("Without a skyscraper there, {names} draws a black card.",
                          "Without a skyscraper there, {names} draw a black card.",
                          names=and_list(absent), n=len(absent))
            self.note = (Account("{player} scored {district}. {draw}", player=scorer,
                                 district=DISTRICT_NAMES[district], draw=draw) if scorer
                         else Msg("{district} scored. {draw}", district=DISTRICT_NAMES[district],
                                  draw=draw))

    def _turn_check(self, step: str) -> list[str] | None:
        """The steps of the turn after `step` (None: the turn is complete); RuleError if
        `step` does not fit the turn. A table that does not keep turns has no steps."""
        player = self.current_player
        if player is None:
            return []
        return turn_after(self.turn_steps, step, player)

    def _turn_record(self, steps: list[str] | None) -> None:
        if self.current_player is None:
            return
        self.turns_taken += steps is None
        self.turn_steps = steps or []

    @reads("player", "turn")
    def _apply_skyscrapers(self, payload: Mapping[str, Any]) -> None:
        """Option A's 1st action: "The player takes 3 skyscrapers in his color from the general
        supply and places them in his supply" (ruling: the rest, if fewer are left)."""
        self._require_phase("playing")
        player = self._owner(payload.get("player", self.current_player), alea=False)
        if self.current_player is not None:
            require_turn(self.current_player, player)
        turn = self._turn_check("skyscrapers")
        self._take_skyscrapers(player)
        self._turn_record(turn)

    def option_a(self, player: str) -> int:
        """The skyscrapers option A takes: 3 from the general supply, the rest if fewer are left
        there (ruling "supply")."""
        return min(OPTION_A, self.general[player])

    def _take_skyscrapers(self, player: str) -> None:
        taken = self.option_a(player)
        self.general[player] -= taken
        self.supply[player] += taken
        # The whole action, said in place of its words, which cannot say how many were left
        # (found by an audit: "took 3 skyscrapers" of a tap that took none).
        self.note = Account("{said}", said=Plural(
            "{player} took {n} skyscraper (option A): {supply} in supply.",
            "{player} took {n} skyscrapers (option A): {supply} in supply.",
            player=player, n=taken, supply=self.supply[player]))

    @reads("player", "turn")
    def _apply_end_turn(self, payload: Mapping[str, Any]) -> None:
        """Tables from before option A was entered: a tap after the turn's lone move ended it,
        saying that the turn was option A's (3 skyscrapers taken)."""
        self._require_phase("playing")
        player = self.current_player
        if player is None or not may_end_turn(self.turn_steps):
            raise RuleError(Msg("A turn ends with moving a commissioner (the 3rd action); "
                                "enter that move."))
        self._take_skyscrapers(player)
        self.turns_taken += 1
        self.turn_steps = []

    @reads("high_bid", "cards", "place", "round")
    def _apply_alea_bid(self, payload: Mapping[str, Any]) -> None:
        """Alea, third to bid: the black cards flipped until a value repeats, against the high
        bid the real players made in their first round."""
        self._require_phase("auctions")
        if not self.with_alea:
            raise RuleError(Msg("Alea only plays in a 2-player game."))
        high = payload.get("high_bid")  # None: drawn at Alea's turn, the high bid not entered
        if high is not None:
            high = require_count(high, Msg("The high bid"), 0, 200)
        cards = payload.get("cards")
        with said_at("cards"):  # under the cards typed
            if not isinstance(cards, list):
                raise RuleError(Msg("Give Alea's cards in the order they were flipped."))
            alea_bid(cards)  # raises unless a value has just repeated
        auction = self.auctions[0]
        if auction.alea_cards:
            raise RuleError(Msg("Alea's cards for the auction in {district} are drawn already: "
                                "Alea's first draw is the whole bid.",
                                district=DISTRICT_NAMES[auction.place]))
        auction.high_bid, auction.alea_cards = high, tuple(cards)
        drawn = {"place": _place(auction.place), "cards": " ".join(str(c) for c in cards),
                 "bid": auction.alea_bid, "high": high}
        self.note = (Account("{place}: Alea draws {cards} and bids {bid}.", **drawn)
                     if high is None else
                     Account("{place}: Alea draws {cards} and bids {bid} against {high}: Alea is "
                             "in.", **drawn) if auction.alea_in else
                     Account("{place}: Alea draws {cards} and bids {bid} against {high}: Alea is "
                             "out.", **drawn))

    @reads("winner", "colour", "cards", "build", "stop", "place", "round", "plots", "unsold",
           "none_left", "building_stop", "box")
    def _apply_auction(self, payload: Mapping[str, Any]) -> None:
        """The auction's outcome: nobody, Alea, or a player who builds or declares a stop."""
        self._require_phase("auctions")
        auction = self.auctions[0]
        winner = payload.get("winner")
        if self.with_alea and not auction.alea_cards:
            raise RuleError(Msg("Alea bids third: draw or enter Alea's cards first."))
        if winner is None and auction.alea_may_win:
            raise RuleError(Msg("Alea's bid stands: if neither of you overbid it, Alea wins."))
        if winner is None and auction.high_bid and not payload.get("unsold"):
            raise RuleError(Msg("A bid of {high} was made, and Alea's {bid} does not beat it: "
                                "tap who won.", high=auction.high_bid, bid=auction.alea_bid))
        if winner not in (None, ALEA) and auction.passed_to_alea:
            raise RuleError(Msg("You both passed before Alea's bid, and a player who passed "
                                "cannot bid again: Alea wins."))
        if winner is None:
            self.note = Msg("Nobody bid in {district}.", district=DISTRICT_NAMES[auction.place])
        elif winner == ALEA:
            self._alea_wins(auction, _counts_box(payload))
        elif auction.place == CENTRAL_PARK:
            self._build_in_park(self._owner(winner, alea=False), payload)
        else:
            self._player_wins(auction.place, self._owner(winner, alea=False), payload)
        self.auctions.pop(0)
        if len(self.stopped) == 2:
            self.end_reason = Msg("The second building stop is complete: the game is over.")
            self.auctions = []

    def _alea_wins(self, auction: Auction, box: bool) -> None:
        if not auction.alea_may_win:
            raise RuleError(Msg("Alea only wins with a bid above the players' high bid."))
        if auction.place == CENTRAL_PARK:
            self.note = Msg("Alea won Central Park; Alea never builds there, so nothing is "
                            "built.")
            return
        plots = self.alea_plots(auction.place, box)
        if not alea_build_plots(self.board[auction.place]):
            self._building_stop(auction.place, ALEA)
        elif not plots:
            self.note = (Msg("Alea's skyscrapers are all on the board or out of the game: Alea "
                             "builds nothing in {district}.",
                             district=DISTRICT_NAMES[auction.place]) if box and self.alea_boxed
                         else Msg("All of Alea's skyscrapers are on the board: Alea builds "
                                  "nothing in {district}.",
                                  district=DISTRICT_NAMES[auction.place]))
        for plot in plots:
            self.board[auction.place][plot] = {"owner": ALEA, "skyscrapers": 1}
        if plots:
            self.note = Msg("{said}.", said=alea_built(
                DISTRICT_NAMES[auction.place], [self.colours[auction.place][p] for p in plots]))

    def _build_in_park(self, winner: str, payload: Mapping[str, Any]) -> None:
        """"A player cannot choose building stop in the area below Central Park": he builds
        there, or builds nothing."""
        if payload.get("stop"):
            raise RuleError(Msg("A building stop cannot be declared in Central Park."))
        built = self._built(payload, winner)
        self.park[winner] += built
        self.note = (Plural("{winner} won Central Park and built {n} skyscraper.",
                            "{winner} won Central Park and built {n} skyscrapers.",
                            winner=winner, n=built) if built
                     else Msg("{winner} won Central Park and built nothing.", winner=winner))

    def _built(self, payload: Mapping[str, Any], winner: str) -> int:
        """Skyscrapers built, at most what the bid's cards allow, taken from the winner's supply:
        "He takes the skyscrapers from his supply (not the general supply)". Without `cards`
        (the one-tap auction: the scorer taps the number built, each button saying which cards
        allow it) up to 3, the most any bid allows."""
        cards = payload.get("cards")
        if cards is None:
            most = max(SKYSCRAPERS_ON_CARD.values())
        elif isinstance(cards, list):
            most = max_skyscrapers(cards)
        else:
            raise RuleError(Msg("Give the values of the winning bid's cards."))
        built = require_count(payload.get("build", 0), Msg("Skyscrapers built"), 0, most)
        if self.turns and built > self.supply[winner]:
            raise RuleError(self.supply_limit(winner))
        if self.turns:
            self.supply[winner] -= built
        return built

    def _player_wins(self, district: str, winner: str, payload: Mapping[str, Any]) -> None:
        colour = payload.get("colour")
        allowed = self.colours_for(district, winner)
        if colour not in allowed:
            colours = and_list([COLOUR_NAMES[c] for c in allowed]) or Msg("no colour")
            raise RuleError(Msg("{winner} may bid here only with {colours}.", winner=winner,
                                colours=colours))
        plot = self.colours[district].index(str(colour))
        target = self.board[district][plot]
        if payload.get("stop"):
            if not all(self.board[district]):
                raise RuleError(Msg("A building stop needs every plot of the district taken."))
            self._building_stop(district, winner)
            return
        if not self._may_build(district, plot, winner):
            raise RuleError(Msg("{winner} must declare a building stop here (no plot to build "
                                "on).", winner=winner))
        built = self._built(payload, winner)
        if built:
            self.board[district][plot] = {"owner": winner,
                                          "skyscrapers": target.get("skyscrapers", 0) + built}
        where, named = DISTRICT_NAMES[district], COLOUR_NAMES[str(colour)]
        self.note = (Plural("{winner} won {district} and built {n} skyscraper on the {colour} "
                            "plot.",
                            "{winner} won {district} and built {n} skyscrapers on the {colour} "
                            "plot.",
                            winner=winner, district=where, n=built, colour=named) if built
                     else Msg("{winner} won {district} for the {colour} plot and built "
                              "nothing.", winner=winner, district=where, colour=named))

    def _may_build(self, district: str, plot: int, winner: str) -> bool:
        """The winner builds on the plot of the bid's colour if it is empty or already theirs;
        otherwise "he must declare a building stop"."""
        target = self.board[district][plot]
        return not target or target.get("owner") == winner

    def supply_limit(self, player: str) -> str | None:
        """Why `player` may build fewer than a bid's 3 now: their supply holds fewer (None when
        it does not limit them, or the table keeps no supplies)."""
        if not self.turns or self.supply[player] >= max(SKYSCRAPERS_ON_CARD.values()):
            return None
        return Plural("{player} has {n} skyscraper in supply: build at most that.",
                      "{player} has {n} skyscrapers in supply: build at most that.",
                      player=player, n=self.supply[player])  # not option A's: an auction's

    def auction_outcomes(self, player: str, colour: str | None) -> list[int | str]:
        """What the winner of the auction under way may do with this bid: build 3, 2, 1 or
        none ("fewer than allowed", even none) where the rules let them build, and declare a
        building stop where every plot is taken. Central Park has no plots to take."""
        place = self.auctions[0].place
        most = self.supply[player] if self.turns else 3
        counts: list[int | str] = [n for n in (3, 2, 1, 0) if n <= most]
        if place == CENTRAL_PARK:
            return counts
        plot = self.colours[place].index(str(colour))
        build = counts if self._may_build(place, plot, player) else []
        return [*build, *(["stop"] if all(self.board[place]) else [])]

    def _building_stop(self, district: str, declarer: str) -> None:
        """The declarer scores 1 VP per skyscraper there, the others half their district score;
        then the district is cleared and closed."""
        if len(self.stopped) >= 2:
            raise RuleError(Msg("There have already been two building stops."))
        plots = self.board[district]
        points = building_stop_points(plots, declarer)
        normal = district_points(plots)
        who = "Alea" if declarer == ALEA else declarer
        towers = sum(p.get("skyscrapers", 0) for p in plots)
        if declarer == ALEA:
            declared = Msg("Alea declared it: Alea never scores")
        else:
            declared = Msg("{who} declared it: 1 VP per skyscraper in the district, {points} VP",
                           who=who, points=towers)
        lines = [declared]
        lines += [Msg("{player}: half of {normal}, rounded down: {points} VP", player=p,
                      normal=normal.get(p, 0), points=v)
                  for p, v in points.items() if p not in (declarer, ALEA)]
        label = Msg("Building stop in {district} by {who}", district=DISTRICT_NAMES[district],
                    who=who)
        scored = {p: v for p, v in points.items() if p != ALEA}
        self.scorings.append(ScoringEvent(label, scored, tuple(lines)))
        self.note = _stop_note(DISTRICT_NAMES[district], declarer, any(scored.values()))
        self.alea_boxed += sum(p.get("skyscrapers", 0) for p in plots if p.get("owner") == ALEA)
        self.board[district] = [{} for _ in range(5)]
        self.stopped.append(district)
        for c in COMMISSIONERS:
            if district in self.visited[c]:
                self.visited[c].remove(district)

    @reads("park_tiles", "park_none")
    def _apply_final(self, payload: Mapping[str, Any]) -> None:
        """Final scoring: every district without a building stop, then Central Park from three
        businesses turned over from those below it (none there: `park_none` VP, as recorded;
        1 in a final scoring recorded before it said)."""
        self._require_phase("final")
        if self.final_scored:
            raise RuleError(TIE_BREAK_NEXT)
        with said_at("park_tiles"):  # under the businesses typed
            tiles = self._park_tiles(payload.get("park_tiles"))
        each = central_park_points(tiles, tiles_below=len(self.below_park),
                                   none=payload.get("park_none", 1))
        for district in DISTRICT_IDS:
            if district not in self.stopped:
                self._score_final_district(district)
        park = {p: self.park.get(p, 0) * each for p in self.players}
        lines = [Plural("{player}: {n} skyscraper x {each} VP = {total} VP",
                        "{player}: {n} skyscrapers x {each} VP = {total} VP", player=p,
                        n=self.park.get(p, 0), each=each, total=park[p])
                 for p in self.players if self.park.get(p, 0)]  # as a district's: who has one
        label = (Msg("Central Park ({tiles})", tiles=listed([BUSINESS_LABELS[t]
                                                                 for t in tiles]))
                 if tiles else Msg("Central Park (no business below it)"))
        self.scorings.append(ScoringEvent(label, park, tuple(lines)))
        self.park_tiles, self.final_scored = tuple(tiles), True
        self.finished = not self.tied_leaders

    def _park_tiles(self, tiles: object) -> list[str]:
        """Three of the businesses below Central Park (all of them if fewer lie there)."""
        wanted = min(3, len(self.below_park))
        if not isinstance(tiles, list) or len(tiles) != wanted:
            raise RuleError(Plural("Turn over {n} of the businesses below Central Park.",
                                   "Turn over {n} of the businesses below Central Park.",
                                   n=wanted))
        pool = list(self.below_park)
        for tile in tiles:
            if tile not in pool:
                raise RuleError(self._not_below_park(tile, tiles))
            pool.remove(tile)
        return [str(t) for t in tiles]

    def _not_below_park(self, tile: object, tiles: list[Any]) -> Msg:
        """Why `tile` cannot be turned over: none of its kind lies below Central Park, or fewer
        than `tiles` names."""
        name = BUSINESS_LABELS.get(tile, tile) if isinstance(tile, str) else tile
        below = self.below_park.count(tile) if isinstance(tile, str) else 0
        if not below:
            return Msg("No {tile!r} lies below Central Park to turn over.", tile=name)
        return Plural("Only {n} {tile!r} lies below Central Park, not {named}.",
                      "Only {n} {tile!r} lie below Central Park, not {named}.", n=below,
                      tile=name, named=tiles.count(tile))

    def _score_final_district(self, district: str) -> None:
        plots = self.board[district]
        if any("owner" in p for p in plots):
            self.scorings.append(ScoringEvent(
                Msg("Final: {district}", district=DISTRICT_NAMES[district]), district_points(plots),
                self._district_lines(district)))

    def _district_lines(self, district: str) -> tuple[str, ...]:
        """A district's scoring, plot by plot; an owner of several plots there has each named
        by its colour."""
        scores = district_breakdown(self.board[district])
        owners = [b.owner for b in scores]
        return tuple(b.line(self.colours[district][b.plot] if owners.count(b.owner) > 1 else None)
                     for b in scores)

    @reads("cards")
    def _apply_hand_cards(self, payload: Mapping[str, Any]) -> None:
        """The tie-break: cards left in hand of the players tied for the most VP."""
        if not self.final_scored:
            raise RuleError(Msg("Cards in hand only break a tie after the final scoring."))
        cards = payload.get("cards")
        tied = self.tied_leaders
        if not isinstance(cards, Mapping) or set(cards) != set(tied):
            raise RuleError(Msg("Enter the cards in hand of {names}.", names=and_list(tied)))
        self.hand_cards = {p: require_count(cards[p], Msg("{player}'s cards", player=p), 0, 200)
                           for p in tied}
        self.finished = True


# Why an event is not the action it would be where it is applied again (`meant_otherwise`).
MEANT_OTHERWISE = {
    "turn": Msg("This belongs to turn {recorded} of the game; here it is turn {here}."),
    "colour": Msg("This was the {recorded} plot; here that plot is {here}."),
    "set": Msg("This business came from set {recorded} of the supply row; here set {here} is "
               "in play."),
    "business": Msg("This business was a {recorded}; here that tile is a {here}."),
    "from": Msg("This commissioner moved from {recorded}; here it stands in {here}."),
    "place": Msg("This belongs to the auction in {recorded}; here the auction in {here} is "
                 "under way."),
    "round": Msg("This belongs to auction round {recorded}; here round {here} is under way."),
    "plots": Msg("Alea built on {recorded}; here Alea would build on {here}."),
}
# Why Alea's win is not the one it would be (its worked-out `building_stop` or `none_left`
# differs), by what it would be here.
ALEA_OTHERWISE = {
    ("building_stop", True): Msg("Alea declared no building stop; here every plot is taken, so "
                                 "Alea declares a building stop."),
    ("building_stop", False): Msg("Alea declared a building stop; here a plot is empty, so Alea "
                                  "declares none."),
    ("none_left", True): Msg("Alea had skyscrapers left to build; here Alea has none left."),
    ("none_left", False): Msg("Alea had no skyscraper left to build; here Alea has some left."),
}
MOVES_OTHERWISE = {
    True: Msg("This move was the 3rd action of its turn; here it would be the 1st (option C)."),
    False: Msg("This move was the 1st action of its turn (option C); here the 3rd action "
               "comes."),
}


def _said(key: str, value: Any) -> Any:
    """A value an event records, as the table names it (a district, a colour, set 1, ...)."""
    if key == "plots":
        return _plots(value)
    if key == "set":
        return _number(value)
    names = {"from": POSITION_NAMES, "place": POSITION_NAMES, "colour": COLOUR_NAMES,
             "business": BUSINESS_LABELS}.get(key, {})
    return names.get(str(value), value)


def _index(value: Any, size: int) -> TypeGuard[int]:
    """Whether a logged value is a place in a list of `size` (0 to size - 1)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def _number(index: Any) -> Any:
    """A 0-based place as the table counts it (from 1)."""
    return index + 1 if isinstance(index, int) and not isinstance(index, bool) else index


TIE_BREAK_NEXT = Msg("The final scoring is done; break the tie with the cards in hand.")
PHASE_HINTS = {
    "setup": Msg("First set up the board: starting businesses and the supply row."),
    "placing": Msg("First place the initial skyscrapers."),
    "auctions": Msg("First finish the auctions under way."),
    "playing": Msg("That belongs to the auctions, and none is under way."),
    "final": Msg("The game is over: do the final scoring."),
    "over": Msg("The game is over."),
}


def check_set_sizes(sizes: object) -> tuple[int, ...]:
    """Eight sets of 2 or 3 spaces; each pair of sets holds five tiles (so the special
    scorings come after the 3rd, 6th and 9th business)."""
    if not isinstance(sizes, (list, tuple)) or len(sizes) != 8 or any(
        s not in (2, 3) for s in sizes
    ):
        raise RuleError(Msg("The supply row has eight sets of 2 or 3 spaces."))
    if any(sizes[i] + sizes[i + 1] != 5 for i in range(0, 8, 2)):
        raise RuleError(Msg("Each pair of sets on the supply row holds five spaces (3 + 2)."))

    return tuple(int(s) for s in sizes)


def describe(kind: str, payload: Mapping[str, Any]) -> str:
    """One action in words with everything its event records: who acted, the district and the
    plot by its colour, the business, a move's start and whether it was option C, the auction's
    district and what its winner built (the history, the change pages, the refusals)."""
    player, drawn = payload.get("player"), payload.get("cards")
    cards = " ".join(str(c) for c in drawn) if isinstance(drawn, list) else ""
    if kind in ("initial_skyscraper", "business"):
        return _placement(kind, payload)
    if kind == "move":
        return _move(payload)
    if kind == "auction":
        return _auction(payload)
    if kind == "alea_bid":
        said = (Msg("Alea's cards {cards} against a high bid of {high}", cards=cards,
                    high=payload.get("high_bid")) if payload.get("high_bid") is not None
                else Msg("Alea's cards {cards}", cards=cards))
        place = payload.get("place")
        return Msg("{place}: {said}", place=_place(place), said=said) if place else said
    if kind == "final":
        return _final(payload)
    if kind == "hand_cards":
        return _hand_cards(payload)
    if kind == "score":
        district = _place(payload.get("district"))
        return (Msg("{player} scored {district}", player=player, district=district) if player
                else Msg("{district} scored", district=district))
    texts = {
        "profile": Msg("Board colours set"),
        "setup": Msg("Starting businesses and supply row entered"),
        "first_placer": Msg("{player} places the first skyscraper", player=player),
        "end_turn": (Msg("{player}'s turn ended (option A)", player=player) if player
                     else Msg("Turn ended")),
        "skyscrapers": Msg("{player} took skyscrapers (option A)", player=player),
    }
    return texts.get(kind, kind)


def _final(payload: Mapping[str, Any]) -> str:
    """The final scoring with the businesses turned over below Central Park (found at a table:
    a change of them read "Final scoring → Final scoring")."""
    tiles = payload.get("park_tiles")
    shown = [BUSINESS_LABELS[t] for t in tiles if isinstance(t, str) and t in BUSINESS_LABELS
             ] if isinstance(tiles, list) else []
    if not shown:
        return Msg("Final scoring (no business below Central Park)")
    return Msg("Final scoring (Central Park: {tiles})", tiles=listed(shown))


def _hand_cards(payload: Mapping[str, Any]) -> str:
    """The tie-break's cards in hand, each tied player's."""
    cards = payload.get("cards")
    if not isinstance(cards, Mapping):
        return Msg("Cards in hand entered for the tie-break")
    return Msg("Cards in hand entered for the tie-break ({cards})", cards=", ".join(
        f"{player} {count}" for player, count in cards.items()))


def _stop_note(district: str, declarer: str, anybody: bool) -> Msg:
    """A building stop's rule, said once beside the points it gave: "34th St East is closed.
    Ben scores 1 VP per skyscraper there, every other player half their district score, rounded
    down." (the points are the event's; its scoring's lines show each one worked out)."""
    if declarer == ALEA:
        rule = Msg("{district} is closed. Every player scores half their district score, "
                   "rounded down; Alea never scores.", district=district)
    else:
        rule = Msg("{district} is closed. {declarer} scores 1 VP per skyscraper there, every "
                   "other player half their district score, rounded down.", district=district,
                   declarer=declarer)
    return rule if anybody else Msg("{rule} Nobody scores.", rule=rule)


def _place(place: object) -> str:
    """A district, City Hall or Central Park by its name; "the auction" for an outcome whose
    event does not say where (hand-made)."""
    return POSITION_NAMES.get(str(place), Msg("the auction")) if place else Msg("the auction")


def _plot(payload: Mapping[str, Any]) -> str:
    """A plot by its colour, as the board shows it (by its number only in hand-made events)."""
    colour = COLOUR_NAMES.get(str(payload.get("colour")))
    if colour is not None:
        return Msg("the {colour} plot", colour=colour)
    return Msg("plot {plot}", plot=_number(payload.get("plot")))


def _placement(kind: str, payload: Mapping[str, Any]) -> str:
    """'Ann placed a gallery in Times Square, on the green plot' (the business by the
    rulebook's name, as the rules' note says it: 'a perfume shop')."""
    district, plot, player = _place(payload.get("district")), _plot(payload), payload.get("player")
    business = BUSINESS_NAMES.get(str(payload.get("business")))
    if kind == "initial_skyscraper":
        return (Msg("{player} placed an initial skyscraper in {district}, on {plot}",
                    player=player, district=district, plot=plot) if player
                else Msg("Initial skyscraper in {district}, on {plot}", district=district,
                         plot=plot))
    if player and business:
        return Msg("{player} placed a {business} in {district}, on {plot}",
                   player=player, business=business, district=district, plot=plot)
    if player:
        return Msg("{player} placed a business in {district}, on {plot}", player=player,
                   district=district, plot=plot)
    return Msg("Business placed in {district}, on {plot}", district=district, plot=plot)


def _move(payload: Mapping[str, Any]) -> str:
    """'Ann moved the white commissioner from City Hall to 34th St West (option C)'."""
    which, player = payload.get("commissioner"), payload.get("player")
    commissioner = COMMISSIONER_NAMES.get(str(which), which)
    to, start = _place(payload.get("to")), payload.get("from")
    if player and start:
        said = Msg("{player} moved the {commissioner} from {start} to {to}", player=player,
                   commissioner=commissioner, start=_place(start), to=to)
    elif player:
        said = Msg("{player} moved the {commissioner} to {to}", player=player,
                   commissioner=commissioner, to=to)
    else:
        said = Msg("The {commissioner} moved to {to}", commissioner=commissioner, to=to)
    return Msg("{move} (option C)", move=said) if payload.get("action") == 1 else said


def _auction(payload: Mapping[str, Any]) -> str:
    """'Ben won Times Square and built 2 skyscrapers on the orange plot (cards 5 5)', 'Alea
    won 42nd St East and built one skyscraper on each of the gray and orange plots', 'Nobody
    bid in ...'."""
    winner, place = payload.get("winner"), _place(payload.get("place"))
    if winner is None and payload.get("unsold"):
        return Msg("Nobody won {place}, though a player's bid had beaten Alea's (recorded so "
                   "before the app checked it)", place=place)
    if winner is None:
        return Msg("Nobody bid in {place}", place=place)
    if winner == ALEA:
        return _alea_won(payload, place)
    drawn, built = payload.get("cards"), _count(payload.get("build", 0))
    park = payload.get("place") == CENTRAL_PARK or not payload.get("colour")
    if payload.get("stop"):
        said = Msg("{winner} won {place} for {plot} and declared a building stop",
                   winner=winner, place=place, plot=_plot(payload))
    elif not built:
        said = (Msg("{winner} won {place} and built nothing", winner=winner, place=place) if park
                else Msg("{winner} won {place} for {plot} and built nothing", winner=winner,
                         place=place, plot=_plot(payload)))
    elif park:
        said = Plural("{winner} won {place} and built {n} skyscraper",
                      "{winner} won {place} and built {n} skyscrapers", winner=winner,
                      place=place, n=built)
    else:
        said = Plural("{winner} won {place} and built {n} skyscraper on {plot}",
                      "{winner} won {place} and built {n} skyscrapers on {plot}", winner=winner,
                      place=place, n=built, plot=_plot(payload))
    if isinstance(drawn, list):
        return Msg("{said} (cards {cards})", said=said, cards=" ".join(str(c) for c in drawn))
    return said


def _counts_box(payload: Mapping[str, Any]) -> bool:
    """Whether Alea's win counts Alea's skyscrapers a building stop sent to the box as used:
    as recorded (`box`), or, a win not yet recorded, yes; a win recorded before (its `plots`
    without `box`) counted only those on the board."""
    return bool(payload.get("box")) or "plots" not in payload


def _alea_won(payload: Mapping[str, Any], place: str) -> str:
    """Alea's win as the history says it: where Alea built, its building stop, or nothing built
    with all of Alea's skyscrapers on the board (`none_left`; an older win without
    `building_stop` that built nowhere declared a building stop)."""
    plots = payload.get("plots")
    if not isinstance(plots, list):
        return Msg("Alea won {place}", place=place)
    if payload.get("none_left") and not plots:
        return Msg("Alea won {place}, with no skyscraper left to build", place=place)
    if payload.get("building_stop") or not plots:
        return Msg("Alea won {place} and declared a building stop", place=place)
    return alea_built(place, plots)


def alea_built(place: str, colours: list[Any]) -> str:
    """Alea's win with the plots it built on (by colour), as the history says it and the table
    notes it: 'Alea won 42nd St East and built one skyscraper on each of the gray and orange
    plots'."""
    return Plural("Alea won {place} and built one skyscraper on the {colours} plot",
                  "Alea won {place} and built one skyscraper on each of the {colours} plots",
                  n=len(colours), place=place, colours=_colour_list(colours))


def _plots(plots: Any) -> str:
    """Where Alea built: 'the gray and orange plots', or 'no plot' (a building stop, or no
    skyscraper left: `ALEA_OTHERWISE` tells them apart)."""
    if not isinstance(plots, list) or not plots:
        return Msg("no plot")
    return Plural("the {colours} plot", "the {colours} plots", n=len(plots),
                  colours=_colour_list(plots))


def _colour_list(colours: list[Any]) -> str:
    """Plots named by their colours: 'gray and orange' (a colour the app does not know, as
    logged)."""
    return and_list([COLOUR_NAMES.get(str(c)) or str(c) for c in colours])


def _count(given: object) -> int:
    """A logged count as a number to say (0 for what the rules would have refused)."""
    return given if isinstance(given, int) and not isinstance(given, bool) and given >= 0 else 0
