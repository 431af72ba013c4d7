"""A fix never changes what it did not touch (issue 40). For random legal games of each game, a
random change of one past action (another legal action in its place, or none) keeps every later
action it keeps as the same action: the same player, at the same place in the flow of the game
(the same turn and action of it, the same auction and round, the same action phase), on the same
plot colour and tile; the rules' stand-in for a refused action (Urbanisation's pass) takes the
refused action's place, and an action read again (`READ_AGAIN`) differs only in what the rules
work out; the actions it keeps are recorded as they were; and the table it leaves is the replay
of the log with the change.

Hunt for bugs with many more examples:
RULES_FUZZ_EXAMPLES=300 pytest tests/fuzz/test_changes_keep_meanings.py
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from companion import rules
from companion.rules.log import CHANGE, Event
from tests.fuzz.fuzzing import examples, snapshot
from tests.fuzz.legal_games import NEXT, SEATS

# Where an action stands in its game, as the rulebook names it (not as the app records it) -----


def yard_place(state: Any, kind: str, payload: dict[str, Any]) -> tuple[Any, ...]:
    """Purchases and corrections are each player's own, in no order the rules keep; Dirk's
    deal is the one at the start, after scoring A or after scoring B."""
    return (state.dirk_deal_next,) if kind == "dirk_deal" else ()


def fifth_avenue_place(state: Any, kind: str, payload: dict[str, Any]) -> tuple[Any, ...]:
    """The phase; in the placing, who places; in play, whose turn (how many turns were taken)
    and which action of it, a plot's colour, the supply row's set and tile, a commissioner's
    start; in the auctions, which auction of which round."""
    where: tuple[Any, ...] = (state.phase,)
    if state.phase == "placing":
        where += (state.next_placer,)
    if state.phase == "playing":
        where += (state.current_player, state.turns_taken, len(state.turn_steps))
    if state.phase == "auctions":
        where += (state.auctions[0].place, state.auction_round)
    district, plot = payload.get("district"), payload.get("plot")
    if kind in ("business", "initial_skyscraper"):
        where += (state.colours[district][plot],)
    if kind == "business":
        where += (state.current_set, state.row[state.current_set][payload["tile"]])
    if kind == "move":
        where += (state.commissioners[payload["commissioner"]],)
    return where


def street_place(state: Any, kind: str, payload: dict[str, Any]) -> tuple[Any, ...]:
    """Whose turn, in which round, and which action of it (the free card or the bought one);
    for a deck said empty or a correction, the step of that turn too; the card a correction
    takes off a site."""
    if kind in ("card", "discard", "buy", "upcoins"):
        return (state.turn, state.rounds, state.step if state.step != 3 else 2)
    if kind in ("deck_empty", "account"):
        return (state.turn, state.rounds, state.step)
    if kind == "remove":
        return (state.turn, state.rounds, state.step,
                state.streets[payload["street"]][payload["site"] - 1][-1])
    return ()


def urbanisation_place(state: Any, kind: str, payload: dict[str, Any]) -> tuple[Any, ...]:
    """The turn; in an action phase or the characters, who acts and in which phase."""
    if kind in ("setup", "final", "name_factory"):
        return ()
    if state.segment in ("actions", "characters"):
        return (state.segment, state.turn, state.action_phase, state.current_player)
    return (state.segment, state.turn)


# Where an action stands, for each game.
PLACES: dict[str, Callable[..., tuple[Any, ...]]] = {
    "yard": yard_place, "fifth_avenue": fifth_avenue_place, "street": street_place,
    "urbanisation": urbanisation_place,
}


# What the rules may read again in a later action after a change (ruling "stand_in" of 5th
# Avenue: where a commissioner starts, where Alea builds; Urbanisation's "exchange_kept"; the
# yard's "dirk_kept": Dirk's deal kept as he got it at the table).
READ_AGAIN = {"fifth_avenue": {"from", "building_stop", "none_left", "plots"},
              "urbanisation": {"exchange"}, "yard": {"kept"}}


def stands_in(slug: str, old: Event, new: Event) -> bool:
    """A refused action's replacement: Urbanisation's pass of the same player's action phase,
    or the same action read again, differing only in what the rules work out."""
    if new.kind == "pass":
        return slug == "urbanisation" and new.payload["player"] == old.payload["player"]
    differ = {key for key in {*old.payload, *new.payload}
              if old.payload.get(key) != new.payload.get(key)}
    return new.kind == old.kind and differ <= READ_AGAIN.get(slug, set())


def played(data: Any, slug: str, players: list[str], length: int) -> list[Event]:
    """A legal game of up to `length` actions, recorded as the app records them."""
    game, step = rules.GAMES[slug], NEXT[slug]
    state, events = game.start(players), []
    while not state.finished and len(events) < length:
        kind, payload = step(data.draw, state, len(events))
        recorded = state.recorded(kind, copy.deepcopy(payload))
        state.apply(kind, recorded)
        events.append(Event(len(events) + 1, kind, recorded))
    return events


def places(slug: str, players: list[str], events: list[Event]) -> dict[int, tuple[Any, ...]]:
    """Where each action of a game stood when it was applied (as the rulebook names it)."""
    place, found = PLACES[slug], {}
    state = rules.GAMES[slug].start(players)
    for item in events:
        found[item.seq] = place(state, item.kind, dict(item.payload))
        state.apply(item.kind, item.payload)
    return found


@pytest.mark.parametrize("slug", sorted(PLACES))
@examples(20)
@given(data=st.data())
def test_a_change_keeps_every_later_action_it_keeps_as_the_same_action(slug, data):
    players = SEATS[slug]
    game = rules.GAMES[slug]
    events = played(data, slug, players, data.draw(st.integers(8, 160), label="length"))
    seq = data.draw(st.integers(1, len(events)), label="the action changed")
    before = rules.replay(game, players, events[:seq - 1]).state
    taken_out = data.draw(st.integers(0, 3), label="taken out") == 0
    now = None if taken_out else NEXT[slug](data.draw, before, seq - 1)
    fix = rules.corrected(game, players, events, {seq: now}, "wrong entry")

    was, after = places(slug, players, events), places(slug, players, fix.played)
    replaced = {old.seq: new for old, new, _why in fix.replaced}
    for kept in fix.played:
        if kept.seq > seq:
            here, there = was[kept.seq], after[kept.seq]
            if kept.kind == "move" and kept.seq in replaced:  # read again from where it stands
                here, there = here[:-1], there[:-1]
            assert there == here, (kept, was[kept.seq], after[kept.seq])
            if kept.seq not in replaced:
                assert kept == events[kept.seq - 1]  # kept as recorded
    for old, new, _why in fix.replaced:
        assert stands_in(slug, old, new), (old, new)
    event(f"{len(fix.dropped)} dropped, {len(replaced)} replaced")

    with_change = [*events, Event(len(events) + 1, CHANGE, fix.change)]
    assert snapshot(rules.replay(game, players, with_change).state) == snapshot(fix.state)
