"""5th Avenue's turn order as a property: random games with the turns kept (2 to 4 players, so
Alea too), each step worked out from what the table allows (the set-up, the initial
skyscrapers, each turn's 1st action and its move, the auctions with Alea's draws and the
outcomes the table offers), are played to the final scoring without a refusal; steps out of
turn, out of order, beyond a supply and after the end are always refused and leave the table
exactly as it was.

Hunt for bugs with many more examples:
RULES_FUZZ_EXAMPLES=2000 pytest tests/fuzz/test_fifth_avenue_turn_order.py
"""

import copy
import pickle

from hypothesis import given
from hypothesis import strategies as st

from companion import rules
from companion.rules.fifth_avenue_table import (
    COLOUR_SKYSCRAPERS,
    TAKEN_AT_START,
    FifthAvenueState,
)
from tests.fuzz import fuzzing
from tests.fuzz import strategies as s
from tests.fuzz.fuzzing import after_the_end_refused, examples, replayed, wrong_steps_refused

GAME = rules.GAMES["fifth_avenue"]
LONGEST = 40  # steps before every 1st action is a business: the 12th ends the game soon
SHAPES = ([], ["skyscrapers"], ["business"], ["score"], ["move"])


def refused_unchanged(state, step):
    """`step` is refused, and the table is as it was, to the last byte (`note` only says what
    the last action did: no game state)."""
    state.note = None
    fuzzing.refused_unchanged(state, step)


def skyscrapers_kept(state):
    """Nobody's supply or colour left in the general supply goes below zero, and no more are
    out than a colour has (one is the scoring marker)."""
    for player in state.players:
        built = sum(p.get("skyscrapers", 0) for d in state.board.values() for p in d
                    if p.get("owner") == player)
        assert state.supply[player] >= 0 and state.general[player] >= 0
        assert state.supply[player] + state.general[player] + built + state.park[player] <= (
            COLOUR_SKYSCRAPERS - 1)
        assert state.general[player] <= COLOUR_SKYSCRAPERS - TAKEN_AT_START


@examples(40)
@given(data=st.data(), seats=st.integers(2, 4), wrong=st.integers(0, 2))
def test_legal_games_are_played_to_the_end_and_wrong_steps_are_refused(data, seats, wrong):
    """`wrong`: how often a wrong step is tried before each legal one, at most."""
    players = ["Ann", "Ben", "Cy", "Di"][:seats]
    state = FifthAvenueState.start(players)
    log = []
    while not state.finished:
        wrong_steps_refused(data, state, s.fifth_avenue_wrong_step, wrong, refused_unchanged)
        step = data.draw(s.fifth_avenue_next(state, late=len(log) > LONGEST), label="legal")
        state.apply(*copy.deepcopy(step))  # a legal step: never refused
        log.append(step)
        assert state.turn_steps in SHAPES, state.turn_steps
        if state.phase in ("playing", "auctions"):
            assert state.current_player in players
        skyscrapers_kept(state)
    assert state.turns and state.final_scored and log[-1][0] in ("final", "hand_cards")
    # After the end: every step of a turn, an auction, the scoring again.
    after_the_end_refused(data, state, s.fifth_avenue_wrong_step, refused_unchanged)
    replay = replayed(GAME, players, log)
    replay.note = state.note = None
    assert pickle.dumps(replay) == pickle.dumps(state)  # the log is the game


@examples(40)
@given(data=st.data(), seats=st.integers(2, 4))
def test_each_turn_is_a_1st_action_and_a_move_and_hands_the_turn_on(data, seats):
    """Whatever the 1st action, the turn ends with the next move and passes clockwise; the
    auctions a move brings in between keep the turn where it was."""
    players = ["Ann", "Ben", "Cy", "Di"][:seats]
    state = FifthAvenueState.start(players)
    steps = 0
    while not state.finished and state.phase != "final":
        step = data.draw(s.fifth_avenue_next(state, late=steps > LONGEST), label="legal")
        before = state.phase, state.current_player, list(state.turn_steps), state.turns_taken
        state.apply(*step)
        steps += 1
        phase, player, turn, taken = before
        if phase == "auctions":
            assert (state.current_player, state.turn_steps) == (player, turn)
        elif phase == "playing" and step[0] != "end_turn" and state.phase != "final":
            if turn:  # the 3rd action: the next player's turn
                seat = players.index(player)
                assert state.current_player == players[(seat + 1) % seats]
                assert (state.turn_steps, state.turns_taken) == ([], taken + 1)
            else:
                assert (state.current_player, state.turn_steps) == (player, [step[0]])
