"""The street game's turn order as a property: random legal games, each step worked out from the
table's state as the rulebook orders a turn, are played to the scoring without a refusal; steps
out of turn, out of order and after the end are always refused and leave the table exactly as
it was.

Hunt for bugs with many more examples:
RULES_FUZZ_EXAMPLES=2000 pytest tests/fuzz/test_street_turns.py
"""

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import rules
from companion.rules.street_table import StreetState
from tests.fuzz import strategies as s
from tests.fuzz.fuzzing import after_the_end_refused, examples, replayed, wrong_steps_refused

GAME = rules.GAMES["street"]
LONGEST = 40  # steps before a deck runs out for sure: the final round then comes within a round


@examples(60)
@given(data=st.data(), seats=st.integers(2, 5), wrong=st.integers(0, 3))
def test_legal_games_are_played_to_the_end_and_wrong_steps_are_refused(data, seats, wrong):
    """`wrong`: how often a wrong step is tried before each legal one, at most."""
    players = ["Mia", "Ola", "Pit", "Uwe", "Zoe"][:seats]
    state = StreetState.start(players)
    log = []
    while not state.finished:
        wrong_steps_refused(data, state, s.street_wrong_step, wrong)
        step = data.draw(s.street_next(state, late=len(log) > LONGEST), label="legal")
        state.apply(*copy.deepcopy(step))  # a legal step: never refused
        log.append(step)
        assert state.turn in players and (state.still_to_play == [] or state.final_round)
    assert log[-1] == ("finish", {}) and state.round_over
    after_the_end_refused(data, state, s.street_wrong_step)  # a turn's steps, the scoring
    assert pickle.dumps(replayed(GAME, players, log)) == pickle.dumps(state)  # the log is the game


@examples(60)
@given(data=st.data())
def test_the_final_round_ends_with_the_last_seat_and_only_then_is_scored(data):
    """Whoever triggers it, the final round ends when the last seat's turn ends: until then the
    scoring is refused naming the players still to play, the one at turn first."""
    players = ["Mia", "Ola", "Pit"]
    state = StreetState.start(players)
    steps = 0
    while not state.round_over:
        if state.final_round:
            assert state.still_to_play == players[players.index(state.turn):]
            with pytest.raises(rules.RuleError, match="The final round is not complete: "
                               + state.still_to_play[0]):
                state.apply("finish", {})
        step = data.draw(s.street_next(state, late=steps > LONGEST), label="legal")
        if step[0] == "finish":
            break
        before = state.final_round, state.turn, state.step
        state.apply(*step)
        steps += 1
        if before[0] and state.round_over:  # the last seat's turn ended the game
            assert before[1] == players[-1] and state.turn == players[0]
    assert state.still_to_play == [] and state.up_next == (
        "The final round is complete: score the game.")
    state.apply("finish", {})
    assert state.finished
