"""Helpers shared by every game's referee: the error type, ranked splits, final rankings with a
game's tie-break, seat order and turns, and the action table every game's state is."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar
from unicodedata import category, normalize

from .text import Msg, and_list


class RuleError(ValueError):
    """An action or input the rules do not allow; the message is shown to the players, beside
    the payload's `key` at fault when it names one (a price typed: said under that field)."""

    def __init__(self, message: object = None, *, key: str | None = None):
        super().__init__(*(() if message is None else (message,)))
        self.key = key


@contextmanager
def said_at(key: str) -> Iterator[None]:
    """A RuleError raised within, said beside the payload's `key` (the field it was typed in)
    unless it names its own."""
    try:
        yield
    except RuleError as error:
        if error.key is None:
            error.key = key
        raise


def require_count(value: object, what: str, low: int = 0, high: int | None = None,
                  key: str | None = None) -> int:
    """Return `value` as a whole number in [low, high], or raise RuleError naming `what` (and
    the payload's `key` it came in)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(Msg("{what} must be a whole number.", what=what), key=key)
    if value < low:
        raise RuleError(Msg("{what} cannot be less than {low}.", what=what, low=low), key=key)
    if high is not None and value > high:
        raise RuleError(Msg("{what} cannot be more than {high}.", what=what, high=high),
                        key=key)
    return value


# Characters that show nothing or turn the text around: they make two names look alike, or a
# name or a reason read backwards ("\u202e" shows "tnuocsim" for "miscount"). (Zero-width
# joiners stay: emoji and some scripts need them.)
INVISIBLE = frozenset("\u00ad\u061c\u180e\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                      "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff")


def clean_text(text: str) -> str:
    """Free text the players type (a name, what a correction is for), written one way:
    composed (NFC), without control, invisible or direction-changing characters, without
    surrounding or doubled spaces."""
    kept = "".join(ch for ch in text if category(ch) != "Cc" and ch not in INVISIBLE)
    return " ".join(normalize("NFC", kept).split())


MAX_REASON = 100  # a short sentence: "Land swap: Ann's price marker 3 for Ben's 5"


def check_reason(reason: object) -> str:
    """What a correction is for, in the players' words, cleaned (`clean_text`), at most
    MAX_REASON characters; "" when the log holds none (corrections were recorded without one
    before)."""
    if reason is None:
        return ""
    if not isinstance(reason, str) or len(clean_text(reason)) > MAX_REASON:
        raise RuleError(Msg("What a correction is for is at most {most} characters.",
                            most=MAX_REASON))
    return clean_text(reason)


def shown_reason(reason: object) -> str:
    """What a correction is for as a page shows it: cleaned (`clean_text`), whatever the log
    holds (a file may bring a reason the forms would have cleaned); "" for none."""
    return clean_text(reason) if isinstance(reason, str) else ""


def with_reason(correction: str, payload: Mapping[str, Any]) -> str:
    """A correction in the history with what it was for: "Correction: Ann has $9 (miscount)"."""
    reason = shown_reason(payload.get("reason"))
    if not reason:
        return correction
    return Msg("{correction} ({reason})", correction=correction, reason=reason)


@dataclass(frozen=True)
class Split:
    """Players who share a block of consecutive ranks and the points those ranks pay."""

    players: tuple[str, ...]
    count: int
    first_rank: int
    rank_points: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.rank_points)

    @property
    def each(self) -> int:
        """Tied players share the ranks' points, each getting the sum divided, rounded down."""
        return self.total // len(self.players)

    @property
    def last_rank(self) -> int:
        return self.first_rank + len(self.players) - 1


def ranked_splits(counts: Mapping[str, int], paying: Sequence[int]) -> list[Split]:
    """Rank players by count, most first; `paying[i]` is what rank i+1 pays (later ranks pay 0).

    A player with 0 never ranks. Tied players occupy as many consecutive ranks as there are of
    them and split the points of those ranks (rounded down); the next player takes the rank after
    the tied block.
    """
    ranked = sorted((c for c in set(counts.values()) if c > 0), reverse=True)
    splits: list[Split] = []
    rank = 1
    for count in ranked:
        players = tuple(p for p in counts if counts[p] == count)
        ranks = range(rank, rank + len(players))
        points = tuple(paying[r - 1] if r <= len(paying) else 0 for r in ranks)
        splits.append(Split(players, count, rank, points))
        rank += len(players)
    return splits


ORDINALS = {1: Msg("{n}st"), 2: Msg("{n}nd"), 3: Msg("{n}rd")}


def ordinal(n: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th' (German: '1.', '2.', '11.')."""
    if 10 <= n % 100 <= 20:
        return Msg("{n}th", n=n)
    return Msg(ORDINALS.get(n % 10, Msg("{n}th")).template, n=n)


def rank_label(split: Split) -> str:
    """'1st' for one player, '1st-2nd' for a tied block."""
    first, last = ordinal(split.first_rank), ordinal(split.last_rank)
    return first if first == last else Msg("{first}-{last}", first=first, last=last)


@dataclass(frozen=True)
class Placing:
    """One line of a final ranking: place 1 is the winner; equal totals share a place."""

    place: int
    player: str
    total: int
    shared: bool


def final_ranking(totals: Mapping[str, int],
                  tie_break: Mapping[str, Any] | None = None) -> list[Placing]:
    """Order players by total, best first (equal totals in seat order); among equal totals a
    game's tie-break places the higher value first (`tie_break`: the street's tallest building,
    Urbanisation's newest factory, 5th Avenue's cards in hand); players equal on both share
    the place (a shared victory)."""
    keys = {player: (total, 0 if tie_break is None else tie_break[player])
            for player, total in totals.items()}
    values = list(keys.values())
    return [Placing(1 + sum(other > keys[player] for other in values), player, totals[player],
                    values.count(keys[player]) > 1)
            for player in sorted(keys, key=keys.__getitem__, reverse=True)]


def leaders(totals: Mapping[str, int]) -> list[str]:
    """The players with the most points, in seat order (several: a tie the game's tie-break
    decides, `final_ranking`)."""
    best = max(totals.values())
    return [player for player, total in totals.items() if total == best]


def winners(ranking: Sequence[Placing]) -> list[str]:
    """The players placed 1st, in seat order among equals (several: a shared victory)."""
    return [placing.player for placing in ranking if placing.place == 1]


def winners_text(ranking: Sequence[Placing]) -> str:
    """"Winner: Mia." or "Shared victory: Mia and Ola.", every game's words for the result."""
    first = winners(ranking)
    if len(first) == 1:
        return Msg("Winner: {name}.", name=first[0])
    return Msg("Shared victory: {names}.", names=and_list(first))


# Seat order: "play continues from there in clockwise order" --------------------------------

def seat_after(players: Sequence[str], player: str, seats: int = 1) -> str:
    """The player `seats` places to the left of `player`, clockwise (the next one by default)."""
    return players[(players.index(player) + seats) % len(players)]


def out_of_turn(at_turn: str, named: object, then: str | None = None) -> str:
    """Every game's refusal of an action out of turn: "It is Ann's turn, not Ben's." (and what
    comes next where the game says it: "...: Ann's 2nd action comes next.")."""
    if then is None:
        return Msg("It is {here}'s turn, not {recorded}'s.", here=at_turn, recorded=named)
    return Msg("It is {here}'s turn, not {recorded}'s: {next}.", here=at_turn, recorded=named,
               next=then)


def require_turn(at_turn: str, named: object, then: str | None = None) -> None:
    """RuleError (`out_of_turn`) unless the player named is the one at turn."""
    if named != at_turn:
        raise RuleError(out_of_turn(at_turn, named, then))


def known(**values: Any) -> dict[str, Any]:
    """The values given that are known (not None): what an action means where the rules can
    say it."""
    return {key: value for key, value in values.items() if value is not None}


Handler = TypeVar("Handler", bound=Callable[..., None])
Step = tuple[str, dict[str, Any]]  # an action: its kind and payload


def reads(*keys: str) -> Callable[[Handler], Handler]:
    """Declares the payload keys of an action kind, on its `_apply_<kind>` method: an event of
    that kind holds these and no others (an imported file's other keys are dropped)."""

    def declare(handler: Handler) -> Handler:
        setattr(handler, "payload_keys", frozenset(keys))  # noqa: B010 (a function attribute)
        return handler

    return declare


def action_key(kind: str, payload: Mapping[str, Any]) -> str:
    """An action as canonical JSON: a table state keeps the key of the action that made it, so
    that the words for that action can add what it did (and the words for another action, such
    as the one an undo took back, do not)."""
    return json.dumps([kind, payload], sort_keys=True, default=str)


class ActionTable:
    """A game's table state: each action kind `k` is a method `_apply_k` that checks everything
    before it changes anything, so a refused action leaves the state as it was. Each declares
    the keys of its payload with `@reads(...)`.

    An event says what it means: whatever the rules would otherwise read from the table it is
    applied to (who acts, where, in which auction, round or phase: `meaning`) is written into its
    payload when it is recorded (`recorded`) and checked whenever it is applied again, so that a
    replay in a changed past keeps it as the same action or refuses it, never reads it as
    another one."""

    finished: bool
    # What an event records of what happened at the table beyond what its form asks
    # (Urbanisation: the Mayor handed over; the yard: a deal kept as Dirk got it): the same
    # action entered again for a change keeps it.
    AT_THE_TABLE: ClassVar[tuple[str, ...]] = ()

    def entered_again(self, kind: str, was: Mapping[str, Any],
                      now: Mapping[str, Any]) -> dict[str, Any]:
        """An action of `kind` recorded as `was`, entered again as `now` for a change: with what
        `was` recorded of what happened at the table (`AT_THE_TABLE`)."""
        return {**now, **{key: was[key] for key in self.AT_THE_TABLE if key in was}}

    @classmethod
    def payload_keys(cls, kind: str) -> frozenset[str] | None:
        """The keys an event of `kind` holds; None for a kind this game does not have."""
        handler = getattr(cls, f"_apply_{kind}", None)
        return None if handler is None else frozenset(getattr(handler, "payload_keys"))  # noqa: B009

    def apply(self, kind: str, payload: Mapping[str, Any]) -> None:
        """Apply one action from the log; RuleError if the rules do not allow it now, or if it
        says it means something else than it would here (`meaning`)."""
        handler = getattr(self, f"_apply_{kind}", None)
        if handler is None:
            raise RuleError(Msg("Unknown action {kind!r}.", kind=kind))
        if self.finished:
            raise RuleError(self.over_for(kind))
        self._before_action()
        self._check_meaning(kind, payload)
        handler(payload)

    def over_for(self, kind: str) -> str:
        """Why an action of `kind` is refused once the game is over (a game says more of a kind
        of its own)."""
        return Msg("The game is over: to change anything, undo the last step or change an "
                   "action from the history.")

    def money(self) -> dict[str, int]:
        """Each player's money, where the game keeps it (the street's, Urbanisation's); none
        where the table keeps it by hand (the yard's, 5th Avenue's skyscrapers are no money)."""
        return {}

    @property
    def stage(self) -> str | None:
        """The part of the game the table is in, where the rules name one that bears on what
        comes next (the street's final round): a change's preview says it with what comes
        next. None: a game that names none."""
        return None

    def holdings(self) -> dict[str, str]:
        """What each player holds besides their points, in words, where the game keeps it and
        a change may move it: their money ("$5"), or what a game says instead (5th Avenue's
        skyscrapers in supply, which limit what a player builds). A change's preview shows it
        before and after."""
        return {player: Msg("${money}", money=money) for player, money in self.money().items()}

    def meaning(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """What an action of `kind` would mean here beyond what its payload says: the keys the
        log records for it, with their values on this table (none where the rules cannot say:
        the action is refused here for another reason). A game overrides it."""
        return {}

    def recorded(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The payload as the log keeps it: with everything it means here written in."""
        return {**self.meaning(kind, payload), **payload}

    def meant_otherwise(self, key: str, recorded: Any, here: Any) -> str:
        """Why an action that records `key` as `recorded` is refused where it would be `here`
        (a game says its own keys in its own words)."""
        if key == "player":
            return out_of_turn(here, recorded)
        return Msg("This action was recorded as another one ({key}: {recorded}, here {here}).",
                   key=key, recorded=recorded, here=here)

    def read_again(self, kind: str, payload: Mapping[str, Any]) -> Step | None:
        """A later action refused after a change of an earlier one, as the same action read
        again on the changed table, where only what the rules work out from the table differs
        (5th Avenue: where a commissioner moves from); None: there is no such reading."""
        return None

    def instead_of(self, kind: str, payload: Mapping[str, Any]) -> Step | None:
        """What stands in place of an action taken out, or refused after a change of an
        earlier one, so that the actions after it keep their places (Urbanisation: the player
        passes that action phase); None: it is taken out, with nothing in its place."""
        return None

    def accepted_before(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any] | None:
        """An action the version 1 app took that the rules refuse now, as the log keeps it
        from now on: with a mark that says so, which the rules take (None: there is none)."""
        return None

    def _check_meaning(self, kind: str, payload: Mapping[str, Any]) -> None:
        for key, here in self.meaning(kind, payload).items():
            if key in payload and payload[key] != here:
                raise RuleError(self.meant_otherwise(key, payload[key], here))

    def _before_action(self) -> None:
        """A hook for state that lasts one action only (such as a note of what just happened)."""
