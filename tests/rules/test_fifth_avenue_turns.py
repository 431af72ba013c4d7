"""5th Avenue's turns as the app keeps them ("first, the 1st action, then, the 2nd action, and
finally, the 3rd action"; the 3rd is always a commissioner's move), the set-up the app draws,
and the one-tap auction's payloads."""

import random
from collections import Counter

import pytest

from companion.rules import GAMES, replay
from companion.rules.common import RuleError
from companion.rules.fifth_avenue_table import DEFAULT_PROFILE, DEFAULT_SET_SIZES, DISTRICT_IDS
from companion.rules.fifth_avenue_turns import draw_setup, turn_after
from companion.rules.log import Event

GAME = GAMES["fifth_avenue"]
ROW = ["boutique", "jeweler", "gallery", "perfume"] * 5
START = {d: {"plot": 0, "kind": "boutique"} for d in DISTRICT_IDS}
# The initial skyscrapers, one district each: Ann, Ben, Ben, Ann (with Cy: Ann, Cy, Ben, ...).
PLACED = [("initial_skyscraper", {"district": d, "plot": 1})
          for d in ("34w", "34e", "times", "42w", "42e", "52w")]


def play(players, *actions, turns=True):
    setup = {"start": START, "row": ROW} | ({"turns": True} if turns else {})
    events = [("profile", {"colours": DEFAULT_PROFILE, "set_sizes": list(DEFAULT_SET_SIZES)}),
              ("setup", setup), ("first_placer", {"player": players[0]}),
              *PLACED[:2 * len(players)], *actions]
    log = [Event(seq, kind, payload) for seq, (kind, payload) in enumerate(events, 1)]
    return replay(GAME, players, log).state


def business(target="34w:3"):
    district, plot = target.split(":")
    return ("business", {"district": district, "plot": int(plot), "tile": 0})


def move(to, commissioner="white"):
    return ("move", {"commissioner": commissioner, "to": to})


def score(district):
    return ("score", {"district": district})


# Whose turn -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "actions, player, steps",
    [
        ([], "Ann", []),  # the first placer takes the first turn
        ([business()], "Ann", ["business"]),
        ([business(), move("34w")], "Ben", []),  # B: business, cards, move
        ([move("34w")], "Ann", ["move"]),  # A's move, or C's first: the app cannot tell yet
        ([move("34w"), move("times")], "Ben", []),  # C: two moves
        ([move("34w"), ("end_turn", {})], "Ben", []),  # A, ended by a tap
        ([move("34w"), score("34w")], "Ben", ["score"]),  # a 1st action after a lone move
        ([move("34w"), business()], "Ben", ["business"]),  # begins the next player's turn
        ([move("34w"), score("34w"), move("times")], "Ann", []),
    ],
)
def test_the_app_knows_whose_turn_it_is_and_what_it_holds(actions, player, steps):
    state = play(["Ann", "Ben"], *actions)
    assert (state.current_player, state.turn_steps) == (player, steps)


def test_turns_go_round_clockwise_from_the_first_placer():
    # Ann placed first; each C turn (two moves) hands the turn on: Ann, Ben, Cy, Ann.
    state = play(["Ann", "Ben", "Cy"], move("34w"), move("times"), move("52e"),
                 move("central_park"), move("34e", "beige"), move("times", "beige"))
    assert state.current_player == "Ann"
    assert state.turns_taken == 3


def test_a_district_cannot_be_scored_twice_in_one_turn():
    state = play(["Ann", "Ben"], move("34w"), ("end_turn", {}), score("34w"))
    before = (list(state.scorings), state.turns_taken, list(state.turn_steps))
    with pytest.raises(RuleError, match="Ben has already scored a district this turn: option D "
                                        "scores one district"):
        state.apply("score", {"district": "34w"})
    assert (list(state.scorings), state.turns_taken, list(state.turn_steps)) == before


A_TURN = [move("34w"), ("end_turn", {})]  # Ann takes skyscrapers (A): now Ben's turn


@pytest.mark.parametrize(
    "actions, refused, message",
    [
        ([business()], business("34w:4"), "Ann has had the 1st action of this turn"),
        ([*A_TURN, score("34w")], business(), "Ben has had the 1st action"),
        ([business()], score("34w"), "Ann has had the 1st action"),
        ([], ("end_turn", {}), "A turn ends with moving a commissioner"),
        ([business()], ("end_turn", {}), "A turn ends with moving a commissioner"),
        ([move("34w"), move("times")], ("end_turn", {}), "A turn ends with moving"),
    ],
)
def test_a_turn_holds_one_first_action_and_ends_with_a_move(actions, refused, message):
    state = play(["Ann", "Ben"], *actions)
    with pytest.raises(RuleError, match=message):
        state.apply(*refused)


def test_auctions_a_move_triggers_do_not_end_an_option_c_turn():
    # Ann's C: her 1st action brings the white commissioner back to City Hall; the auctions
    # run; her 3rd action is a second move, and only then is it Ben's turn.
    to_park = [move("34w"), move("times"), move("52e"), move("central_park")]  # Ann, Ben
    state = play(["Ann", "Ben"], *to_park, move("city_hall"))
    assert (state.phase, state.current_player, state.turn_steps) == ("auctions", "Ann", ["move"])
    for _place in ("34w", "times", "52e", "central_park"):
        state.apply("alea_bid", {"cards": [4, 4]})
        state.apply("auction", {"winner": "alea"})
    state.apply(*move("34e", "beige"))
    assert (state.phase, state.current_player) == ("playing", "Ben")


def test_tables_set_up_before_the_app_kept_turns_replay_as_they_were():
    second_tile = ("business", {"district": "34w", "plot": 4, "tile": 1})
    state = play(["Ann", "Ben"], move("34w"), score("34w"), score("34w"), business(),
                 second_tile, turns=False)
    assert state.current_player is None
    assert len(state.scorings) == 2


@pytest.mark.parametrize(
    "steps, step, new_turn, after",
    [
        ([], "move", False, ["move"]),
        (["move"], "move", False, None),
        (["business"], "move", False, None),
        (["score"], "move", False, None),
        (["move"], "score", True, ["score"]),
    ],
)
def test_what_a_turn_holds_after_each_step(steps, step, new_turn, after):
    assert turn_after(steps, step, "Ann") == (new_turn, after)


# The set-up the app draws ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_the_drawn_set_up_follows_the_rulebook(seed):
    drawn = draw_setup(DEFAULT_PROFILE, random.Random(seed))
    colours = Counter(DEFAULT_PROFILE[d][s["plot"]] for d, s in drawn["start"].items())
    assert set(drawn["start"]) == set(DISTRICT_IDS)
    assert set(colours) == {"violet", "orange", "gray", "brown", "green"}
    assert max(colours.values()) <= 2
    assert len(drawn["row"]) == 20
    # 27 of the 36 tiles (9 of each kind) come out of the bag; 9 stay in the box.
    tiles = Counter([s["kind"] for s in drawn["start"].values()] + drawn["row"])
    assert sum(tiles.values()) == 27 and max(tiles.values()) <= 9
    state = play(["Ann", "Ben"])
    fresh = replay(GAME, ["Ann", "Ben"], [
        Event(1, "profile", {"colours": DEFAULT_PROFILE, "set_sizes": list(DEFAULT_SET_SIZES)}),
        Event(2, "setup", {**drawn, "turns": True})]).state
    assert fresh.phase == "placing" and fresh.turns and state.turns


# The one-tap auction --------------------------------------------------------------------------


def auctions_in_34w():
    """Two C turns bring the white commissioner through 34th St West, Times Square and 52nd St
    West to Central Park, and Ann's next move brings it back: four auctions, 34th St West
    first."""
    return play(["Ann", "Ben"], move("34w"), move("times"), move("52w"), move("central_park"),
                move("city_hall"))


def test_alea_drawn_without_the_high_bid_lets_the_table_say_who_won():
    state = auctions_in_34w()
    state.apply("alea_bid", {"cards": [6, 5, 6]})  # 17
    assert state.auctions[0].alea_may_win and not state.auctions[0].alea_in
    with pytest.raises(RuleError, match="Alea's bid stands"):
        state.apply("auction", {"winner": None})
    # Ann overbid Alea's 17: with her skyscraper on 34th St West's orange plot, she bids orange.
    state.apply("auction", {"winner": "Ann", "colour": "orange", "build": 3})
    assert state.board["34w"][1] == {"owner": "Ann", "skyscrapers": 4}


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"winner": "Ann", "colour": "orange", "build": 4}, "Skyscrapers built"),
        ({"winner": "Ann", "colour": "orange", "cards": [6], "build": 2}, "Skyscrapers built"),
    ],
)
def test_the_skyscrapers_built_stay_within_the_bid(payload, message):
    state = auctions_in_34w()
    state.apply("alea_bid", {"cards": [4, 4]})
    with pytest.raises(RuleError, match=message):
        state.apply("auction", payload)
