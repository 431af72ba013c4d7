"""A game as the platform sees it: what its table state offers (`TableState`) and its entry
in the registry (`Game`): name, player counts, referee, and its actions in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .common import Placing, Step, shown_reason
from .log import CHANGE, CHANGE_KEYS, REDO, UNDO
from .text import Msg, Plural


class TableState(Protocol):
    """What every game's table state offers the platform."""

    players: list[str]
    finished: bool

    def apply(self, kind: str, payload: Mapping[str, Any]) -> None: ...
    # What an action means here, and its payload as the log keeps it (`common.ActionTable`).
    def meaning(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]: ...
    def recorded(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]: ...
    def read_again(self, kind: str, payload: Mapping[str, Any]) -> Step | None: ...
    def instead_of(self, kind: str, payload: Mapping[str, Any]) -> Step | None: ...
    def accepted_before(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any] | None: ...
    def totals(self) -> dict[str, int]: ...
    # Each player's money, where the game keeps it, and what they hold besides their points
    # in words (`common.ActionTable.money`, `holdings`).
    def money(self) -> dict[str, int]: ...
    def holdings(self) -> dict[str, str]: ...
    def ranking(self) -> list[Placing]: ...
    # The final result in one sentence, how a tie was broken said (the game over).
    def verdict(self) -> str: ...
    # Whose turn it is and what comes next, in words (None where the rules cannot say).
    @property
    def up_next(self) -> str | None: ...
    # The part of the game the table is in, where the rules name one that bears on what comes
    # next (the street's final round), in words; else None.
    @property
    def stage(self) -> str | None: ...


class TableKind(Protocol):
    """A game's table state class (`common.ActionTable`): a new table, and the keys each kind of
    action holds (None: a kind the game does not have)."""

    def start(self, players: list[str]) -> TableState: ...
    def payload_keys(self, kind: str) -> frozenset[str] | None: ...


@dataclass(frozen=True)
class Game:
    """A supported game: its slug (used everywhere), name, player counts and referee (its state
    class, `state_class`, and its actions in words, `describe`)."""

    slug: str
    name: str
    players: range
    state_class: TableKind
    describe: Callable[[str, Mapping[str, Any]], str]
    reserved_names: Callable[[int], tuple[str, ...]] = lambda players: ()
    # The action in words with the table it was applied to, for what the payload only numbers.
    describe_at: Callable[[Any, str, Mapping[str, Any]], str] | None = None
    # The action in words with every detail (a street card's icons): a change says these where
    # its short words leave out something it changed (or read the same before and after).
    describe_detail: Callable[[str, Mapping[str, Any]], str] | None = None
    # The kinds of action each player takes on their own, in no order the rules keep (`merges`).
    independent: frozenset[str] = frozenset()

    def start(self, players: list[str]) -> TableState:
        """A new table of this game for these players, in seat order."""
        return self.state_class.start(players)

    def payload_keys(self, kind: str) -> frozenset[str] | None:
        """The keys an event of this game's kind holds (None: a kind it does not have)."""
        return self.state_class.payload_keys(kind)

    def say(self, kind: str, payload: Mapping[str, Any], state: TableState | None = None) -> str:
        """An action in words; given the table as it stood after it, with what the payload
        only numbers named (5th Avenue's plots by their colour). A change says what the action
        it changed was and is now."""
        if kind == CHANGE:
            return self.say_change(payload)
        if state is not None and self.describe_at is not None:
            return self.describe_at(state, kind, payload)
        return self.describe(kind, payload)

    def declared(self, kind: str) -> frozenset[str] | None:
        """The payload keys an event of this kind holds (None: a kind the game does not
        have): the game's own actions', none for undo and redo, a change's."""
        if kind in (UNDO, REDO):
            return frozenset()
        return CHANGE_KEYS if kind == CHANGE else self.payload_keys(kind)

    def say_change(self, fix: Mapping[str, Any],
                   accounts: Mapping[int, tuple[str, str | None]] | None = None,
                   proposed: bool = False) -> str:
        """"Changed: Ann bought a church → Ben bought a church (wrong player)"; "Taken out:
        ..."; a change that took later actions out with it (those the rules no longer took)
        says how many. `accounts`: an action's rules' notes that say the whole of it, before and
        after, by seq, said in place of its words (`Account`: what the change does with it, the
        money too: "... for $1. → ... for $2."). `proposed`: a change not yet confirmed, as its
        preview names it ("Change: ...", "Take out: ...": "Changed:" above "Nothing is recorded
        until you confirm" read as done, found at a table)."""
        said = self.say_edits(fix["edits"], shown_reason(fix.get("reason")), accounts, proposed)
        if not fix.get("drop"):
            return said
        dropped = Plural("{n} later action taken out with it",
                         "{n} later actions taken out with it", n=len(fix["drop"]))
        if said.endswith("."):  # said in the rules' sentences: one more (found at a table:
            return Msg("{change} {dropped}.", change=said, dropped=dropped)  # "supply.; 1 ...")
        return Msg("{change}; {dropped}", change=said, dropped=dropped)

    def say_changed(self, fix: Mapping[str, Any]) -> str:
        """A change as the score strip says it, each action as it now stands ("Changed #20:
        Ann took 2 grey work orders"), one taken out as it was ("Taken out #7: Ann bought a
        park"): the strip cuts long words short (a tap reads them whole), and "Changed: ... →
        ..." showed only the action as it was (found at a table)."""
        move = self.move_of(fix["edits"])
        if move is not None:
            return self.say_move(*move)
        now = [self.edit_words(edit["was"], edit["now"])[1] if edit["now"] is not None
               else Msg("#{seq} taken out", seq=edit["seq"]) for edit in fix["edits"]]
        if len(now) == 1 and fix["edits"][0]["now"] is None:  # "Taken out: #8" said nothing
            was = fix["edits"][0]["was"]  # of #8 (found at a table)
            return Msg("Taken out #{seq}: {was}", seq=fix["edits"][0]["seq"],
                       was=self.describe(was["kind"], was["payload"]))
        seqs = ", ".join(f"#{edit['seq']}" for edit in fix["edits"])
        said = now[0]
        for more in now[1:]:
            said = Msg("{said}; {next}", said=said, next=more)
        return Msg("Changed {seqs}: {now}", seqs=seqs, now=said)

    def say_edits(self, edits: list[Mapping[str, Any]], why: str,
                  accounts: Mapping[int, tuple[str, str | None]] | None = None,
                  proposed: bool = False) -> str:
        """The actions a change entered again, each named, with the table's reason (`proposed`:
        as the change's preview names them, see `say_change`)."""
        accounts = accounts or {}
        reason = Msg(" ({reason})", reason=why) if why else ""
        move = self.move_of(edits)
        if move is not None:
            return self.say_move(*move, reason=reason, proposed=proposed)
        if len(edits) == 1 and edits[0]["now"] is None:
            was, account = edits[0]["was"], accounts.get(edits[0]["seq"])
            was_said = account[0] if account else self.describe(was["kind"], was["payload"])
            if proposed:
                return Msg("Take out: {was}{reason}", was=was_said, reason=reason)
            return Msg("Taken out: {was}{reason}", was=was_said, reason=reason)
        said = self.say_edit(edits[0]["was"], edits[0]["now"], accounts.get(edits[0]["seq"]))
        for edit in edits[1:]:
            said = Msg("{said}; {next}", said=said, next=self.say_edit(
                edit["was"], edit["now"], accounts.get(edit["seq"])))
        if proposed:
            return Msg("Change: {edits}{reason}", edits=said, reason=reason)
        return Msg("Changed: {edits}{reason}", edits=said, reason=reason)

    def move_of(self, edits: list[Mapping[str, Any]]) -> tuple[str, bool, str] | None:
        """A change's edits that only move one action (`rules.move_edits`: each action, in its
        words, now where the one after or before it was, and the moved one at the other end), as
        (the action moved, whether it went before the other end's action, that action); None
        for any other change (found at a table: a move said as "Scoring A → Ben bought a
        theater; Ben bought a theater → Scoring A" read as a scoring turned into a purchase)."""
        if len(edits) < 2 or any(edit["now"] is None for edit in edits):
            return None
        ordered = sorted(edits, key=lambda edit: edit["seq"])
        was = [self.describe(e["was"]["kind"], e["was"]["payload"]) for e in ordered]
        now = [self.describe(e["now"]["kind"], e["now"]["payload"]) for e in ordered]
        if now == [was[-1], *was[:-1]]:
            return was[-1], True, was[0]
        if now == [*was[1:], was[0]]:
            return was[0], False, was[-1]
        return None

    def say_move(self, action: str, before: bool, other: str, reason: str = "",
                 proposed: bool = False) -> str:
        """"Moved: Ben bought a theater, before Scoring A" (`proposed`: "Move: ...")."""
        if proposed:
            if before:
                return Msg("Move: {action}, before {other}{reason}", action=action, other=other,
                           reason=reason)
            return Msg("Move: {action}, after {other}{reason}", action=action, other=other,
                       reason=reason)
        if before:
            return Msg("Moved: {action}, before {other}{reason}", action=action, other=other,
                       reason=reason)
        return Msg("Moved: {action}, after {other}{reason}", action=action, other=other,
                   reason=reason)

    def say_edit(self, was: Mapping[str, Any], now: Mapping[str, Any] | None,
                 account: tuple[str, str | None] | None = None) -> str:
        """One action of a change: "Ann bought a church → Ben ...", "... taken out"; by the
        `account` the rules gave of it before and after, where they said the whole of it."""
        if account is not None and now is not None and account[1] is not None:
            return Msg("{was} → {now}", was=account[0], now=account[1])
        if now is None:
            return Msg("{was} taken out", was=account[0] if account else
                       self.describe(was["kind"], was["payload"]))
        said, now_said = self.edit_words(was, now)
        return Msg("{was} → {now}", was=said, now=now_said)

    def edit_words(self, was: Mapping[str, Any], now: Mapping[str, Any]) -> tuple[str, str]:
        """An action a change entered again, as it was and as it now stands: in their short
        words, or with what those leave out where it changed (the roof a change added)."""
        said = self.describe(was["kind"], was["payload"])
        now_said = self.describe(now["kind"], now["payload"])
        if self.describe_detail is not None:
            was_detail = self.describe_detail(was["kind"], was["payload"])
            now_detail = self.describe_detail(now["kind"], now["payload"])
            if now_said == said or \
                    was_detail.removeprefix(said) != now_detail.removeprefix(now_said):
                return was_detail, now_detail
        return said, now_said
