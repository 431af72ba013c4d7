"""Urbanisation's flow as a property: random games played from the rules' own one-tap offers for
the player at turn (with the characters, the administration and the final scoring as the table
calls for them, and now and then a territory, a factory chosen from the invention cards' names
and an invention card) reach the final scoring without one refusal. A step out of turn, out of
order or after the end is always refused and leaves the table exactly as it was.

Hunt for bugs with many more examples:
RULES_FUZZ_EXAMPLES=300 pytest tests/fuzz/test_urbanisation_turns.py
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion import rules
from companion.rules.urbanisation import BUILDINGS, TURNS
from companion.rules.urbanisation_actions import (
    OTHER_FACTORY,
)
from companion.rules.urbanisation_offers import offers
from companion.rules.urbanisation_table import UrbanisationState
from tests.fuzz import fuzzing
from tests.fuzz.fuzzing import after_the_end_refused, examples, replayed, wrong_steps_refused
from tests.fuzz.urbanisation_steps import attract, legal_step, set_up

GAME = rules.GAMES["urbanisation"]
SEATS = ["Ann", "Ben", "Cy", "Dee"]
Step = tuple[str, dict[str, Any]]


def frozen(state: UrbanisationState) -> bytes:
    """The table to the last byte, without the note of what the last action did (not game
    state: any action, refused or not, clears it first)."""
    state.note = None
    return pickle.dumps(state)


def refused_unchanged(state: UrbanisationState, step: Step) -> None:
    fuzzing.refused_unchanged(state, step, frozen)


# Wrong steps ------------------------------------------------------------------------------------


def an_action(player: str) -> list[Step]:
    """Actions any player could take in an action phase (legal or not, by who and when)."""
    return [("pass", {"player": player}), ("taxes", {"player": player}),
            ("work_orders", {"player": player, "colour": "white", "count": 1}),
            ("erect", {"player": player, "building": next(iter(BUILDINGS)), "count": 1})]


@st.composite
def wrong_step(draw: st.DrawFn, state: UrbanisationState) -> Step:
    """A step the rules must refuse now: another player's action or character, an action or
    a character outside its segment, the administration or the final scoring before their
    time, an attract that does not say which factory it is (with the inventions), the set-up
    again, and anything at all once the game is over."""
    current = state.current_player
    others = [p for p in state.players if p != current]
    other = draw(st.sampled_from(others), label="other")
    wrong: list[Step] = [("setup", {"inventions": False, "start_player": other, "money": 5,
                                    "grounds": dict.fromkeys(state.players, 1)})]
    if state.finished:
        wrong += [*an_action(other), ("final", {}), ("administration", {}),
                  ("character", {"player": other, "character": "farmer"}),
                  ("name_factory", {"player": other, "number": 1, "name": OTHER_FACTORY}),
                  ("effect", {"player": other, "money": 1, "reason": "late"})]
        return draw(st.sampled_from(wrong))
    if state.segment != "final" and state.turn <= TURNS:
        wrong.append(("final", {}))  # before turn 6 is over
    if state.segment != "administration":
        wrong.append(("administration", {}))
    if state.segment == "characters":
        wrong += an_action(str(current))  # an action before the characters are chosen
        wrong += [("character", {"player": other, "character": c})
                  for c in state.available_characters]
    else:
        wrong += [("character", {"player": p, "character": "farmer"}) for p in state.players]
    if state.segment == "actions":
        wrong += an_action(other)
        wrong += [(o.kind, {**o.payload, "player": other})
                  for group in offers(state).values() for o in group]
        if state.inventions:
            unnamed = draw(attract(state, str(current)))
            if unnamed is not None:
                wrong.append(("attract", {**unnamed[1], "name": draw(st.sampled_from(
                    ["", None, " ", "Bakery"]))}))
                wrong.append(("attract", {k: v for k, v in unnamed[1].items() if k != "name"}))
    else:
        wrong += an_action(draw(st.sampled_from(state.players)))  # no action phase now
    return draw(st.sampled_from(wrong))


# The properties -------------------------------------------------------------------------------


@examples(8)
@given(data=st.data(), seats=st.integers(2, 4), wrong=st.integers(0, 2))
def test_games_from_the_offers_reach_the_end_and_wrong_steps_are_refused(data, seats, wrong):
    """`wrong`: how often a wrong step is tried before each legal one, at most."""
    players = SEATS[:seats]
    state = UrbanisationState.start(players)
    log = [data.draw(set_up(players), label="set-up")]
    state.apply(*copy.deepcopy(log[0]))
    while not state.finished:
        wrong_steps_refused(data, state, wrong_step, wrong, refused_unchanged)
        step = data.draw(legal_step(state), label="legal")
        state.apply(*copy.deepcopy(step))  # a step the table calls for: never refused
        log.append(step)
    assert log[-1] == ("final", {}) and state.turn == TURNS and state.up_next is None
    assert len([k for k, _ in log if k == "administration"]) == TURNS
    after_the_end_refused(data, state, wrong_step, refused_unchanged)  # anything at all
    # The end bonuses: each invention's counts exactly when its owner owns the factory it names.
    bonus = {p: sum(v for _, q, source, v in state.vp_log
                    if q == p and source == "invention bonus") for p in players}
    assert bonus == {p: sum(i.vp for i in state.cards[p].inventions
                            if i.factory and state.cards[p].owns(i.factory)) for p in players}
    assert frozen(replayed(GAME, players, log)) == frozen(state)  # the log is the game
