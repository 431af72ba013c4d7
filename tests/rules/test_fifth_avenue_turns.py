"""5th Avenue's turns as the app keeps them ("first, the 1st action, then, the 2nd action, and
finally, the 3rd action"; the 3rd is always a commissioner's move), the set-up the app draws,
and the one-tap auction's payloads."""

import pickle
import random
import re
from collections import Counter

import pytest

from companion.rules import GAMES, replay
from companion.rules.common import RuleError
from companion.rules.fifth_avenue_table import DEFAULT_PROFILE, DEFAULT_SET_SIZES, DISTRICT_IDS
from companion.rules.fifth_avenue_turns import check_tiles_in_box, draw_setup, turn_after
from companion.rules.log import Event
from companion.rules.pad import shown_together

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


def skyscrapers(player):
    return ("skyscrapers", {"player": player})


# Whose turn -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "actions, player, steps",
    [
        ([], "Ann", []),  # the first placer takes the first turn
        ([business()], "Ann", ["business"]),
        ([business(), move("34w")], "Ben", []),  # B: business, cards, move
        ([skyscrapers("Ann")], "Ann", ["skyscrapers"]),
        ([skyscrapers("Ann"), move("34w")], "Ben", []),  # A: skyscrapers, cards, move
        ([move("34w")], "Ann", ["move"]),  # C's 1st action: the 3rd is another move
        ([move("34w"), move("times")], "Ben", []),  # C: two moves
        ([move("34w"), move("times"), score("times")], "Ben", ["score"]),  # D
        ([move("34w"), move("times"), score("times"), move("52w")], "Ann", []),
        ([move("34w"), ("end_turn", {})], "Ben", []),  # A before it was entered: a tap
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


A_TURN = [skyscrapers("Ann"), move("34w")]  # Ann takes skyscrapers (A): now Ben's turn


def test_a_district_cannot_be_scored_twice_in_one_turn():
    state = play(["Ann", "Ben"], *A_TURN, score("34w"))
    before = (list(state.scorings), state.turns_taken, list(state.turn_steps))
    with pytest.raises(RuleError, match="Ben has already scored a district this turn: option D "
                                        "scores one district"):
        state.apply("score", {"district": "34w"})
    assert (list(state.scorings), state.turns_taken, list(state.turn_steps)) == before


@pytest.mark.parametrize(
    "actions, refused, message",
    [
        ([business()], business("34w:4"), "Ann has had the 1st action of this turn"),
        ([*A_TURN, score("34w")], business(), "Ben has had the 1st action"),
        ([business()], score("34w"), "Ann has had the 1st action"),
        ([business()], skyscrapers("Ann"), "Ann has had the 1st action"),
        ([move("34w")], business(), "Ann's 1st action was a commissioner's move \\(option C\\)"),
        ([move("34w")], skyscrapers("Ann"), "the 3rd action is to move a commissioner again"),
        ([], skyscrapers("Ben"), "It is Ann's turn"),
        ([], ("end_turn", {}), "A turn ends with moving a commissioner"),
        ([business()], ("end_turn", {}), "A turn ends with moving a commissioner"),
        ([move("34w"), move("times")], ("end_turn", {}), "A turn ends with moving"),
    ],
)
def test_a_turn_holds_one_first_action_and_ends_with_a_move(actions, refused, message):
    state = play(["Ann", "Ben"], *actions)
    state.note = None  # what the last action did: not game state
    before = pickle.dumps(state)
    with pytest.raises(RuleError, match=message):
        state.apply(*refused)
    assert pickle.dumps(state) == before


def test_a_forgotten_end_of_turn_cannot_shift_the_turns():
    """Option A is entered as its 1st action, so the next player's move is never taken for the
    2nd move of the turn before: Ann's A ends with her move, Ben's C is his own two moves."""
    state = play(["Ann", "Ben"], skyscrapers("Ann"), move("34w"), move("times"), move("52w"))
    assert (state.current_player, state.turns_taken, state.turn_steps) == ("Ann", 2, [])


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


def test_a_set_of_auctions_after_the_3rd_action_ends_with_its_last_auction():
    # Ben's 3rd action brings the white commissioner back: after the auctions it is Ann's turn.
    to_park = [move("34w"), move("times"), move("52e"), move("central_park")]  # Ann, Ben
    state = play(["Ann", "Ben"], *to_park, *A_TURN[:1], move("city_hall"))
    assert (state.phase, state.current_player, state.turn_steps) == ("auctions", "Ben", [])
    for _place in ("34w", "times", "52e", "central_park"):
        state.apply("alea_bid", {"cards": [4, 4]})
        state.apply("auction", {"winner": "alea"})
    assert (state.phase, state.current_player, state.turn_steps) == ("playing", "Ben", [])


def test_tables_set_up_before_the_app_kept_turns_replay_as_they_were():
    second_tile = ("business", {"district": "34w", "plot": 4, "tile": 1})
    state = play(["Ann", "Ben"], move("34w"), score("34w"), score("34w"), business(),
                 second_tile, turns=False)
    assert state.current_player is None
    assert len(state.scorings) == 2


@pytest.mark.parametrize(
    "steps, step, after",
    [
        ([], "move", ["move"]),
        ([], "skyscrapers", ["skyscrapers"]),
        (["move"], "move", None),
        (["skyscrapers"], "move", None),
        (["business"], "move", None),
        (["score"], "move", None),
    ],
)
def test_what_a_turn_holds_after_each_step(steps, step, after):
    assert turn_after(steps, step, "Ann") == after


# Each player's skyscraper supply --------------------------------------------------------------


def test_option_a_takes_three_skyscrapers_into_the_supply_and_building_takes_them_out():
    state = play(["Ann", "Ben"], skyscrapers("Ann"))
    assert (state.supply, state.general) == ({"Ann": 6, "Ben": 3}, {"Ann": 9, "Ben": 12})
    assert state.note == "Ann took 3 skyscrapers (option A): 6 in supply."


def test_option_a_takes_what_is_left_of_the_colour():
    # 12 of Ann's colour are left after the set-up: four A turns take them all, a fifth none.
    turns = [skyscrapers("Ann"), move("34w"), skyscrapers("Ben"), move("times")]
    state = play(["Ann", "Ben"], *turns, skyscrapers("Ann"), move("52w"), skyscrapers("Ben"),
                 move("central_park"))
    state.general["Ann"] = 2  # as if most were taken already
    assert state.option_a("Ann") == 2  # what its button says (found by a rules audit: "3")
    state.apply(*skyscrapers("Ann"))
    assert state.option_a("Ann") == 0
    assert (state.supply["Ann"], state.general["Ann"]) == (11, 0)
    assert state.note == "Ann took 2 skyscrapers (option A): 11 in supply."
    # The note says the whole action, in place of its words, which do not know how many were
    # left (found by an audit: the strip said "Ann took 3 skyscrapers" of a tap that took none).
    said = GAMES["fifth_avenue"].say(*skyscrapers("Ann"))
    assert str(said) == "Ann took skyscrapers (option A)"
    assert shown_together(said, state.note) == (state.note, None)


def test_nobody_builds_more_skyscrapers_than_their_supply_holds():
    """"He takes the skyscrapers from his supply (not the general supply)": Ann has her 3 from
    the set-up; the outcomes offered stop there, and 4 ... are refused."""
    state = auctions_in_34w()
    state.apply("alea_bid", {"cards": [4, 4]})
    state.supply["Ann"] = 2
    assert state.auction_outcomes("Ann", "orange") == [2, 1, 0]
    state.note = None
    before = pickle.dumps(state)
    with pytest.raises(RuleError, match="Ann has 2 skyscrapers in supply: build at most that"):
        state.apply("auction", {"winner": "Ann", "colour": "orange", "build": 3})
    assert pickle.dumps(state) == before
    state.apply("auction", {"winner": "Ann", "colour": "orange", "build": 2})
    assert state.supply["Ann"] == 0 and state.board["34w"][1]["skyscrapers"] == 3


def alea_wins(state, *places):
    for _place in places:
        state.apply("alea_bid", {"cards": [4, 4]})
        state.apply("auction", {"winner": "alea"})


def test_an_empty_supply_builds_nothing_in_central_park_until_option_a_fills_it():
    """Ann builds her 3 in 34th St West: in Central Park she may build none ("even none!"),
    not 1, until option A has given her 3 more for the next set of auctions."""
    state = auctions_in_34w()  # Ann's C brought the white commissioner back
    state.apply("alea_bid", {"cards": [4, 4]})
    state.apply("auction", {"winner": "Ann", "colour": "orange", "build": 3})
    assert state.supply["Ann"] == 0
    alea_wins(state, "times", "52w")
    state.apply("alea_bid", {"cards": [4, 4]})
    assert state.auctions[0].place == "central_park"
    assert state.auction_outcomes("Ann", None) == [0]
    state.note = None
    before = pickle.dumps(state)
    with pytest.raises(RuleError, match=re.escape(
            "Ann has 0 skyscrapers in supply: build at most that.")):
        state.apply("auction", {"winner": "Ann", "build": 1})
    assert pickle.dumps(state) == before
    state.apply("auction", {"winner": "Ann", "build": 0})  # the legal counterpart: none
    assert state.note == "Ann won Central Park and built nothing."
    assert (state.phase, state.park["Ann"], state.supply["Ann"]) == ("playing", 0, 0)
    # Ann's 3rd action; Ben's C; Ann takes 3 (A) and moves; Ben's move brings the auctions.
    for step in (move("34w"), move("times"), move("52w"), skyscrapers("Ann"),
                 move("central_park"), move("city_hall")):
        state.apply(*step)
    assert state.supply["Ann"] == 3
    alea_wins(state, "34w", "times", "52w")
    state.apply("alea_bid", {"cards": [4, 4]})
    assert state.auction_outcomes("Ann", None) == [3, 2, 1, 0]
    state.apply("auction", {"winner": "Ann", "build": 1})
    assert (state.park["Ann"], state.supply["Ann"]) == (1, 2)


def test_a_forgotten_option_a_is_caught_before_it_shifts_the_turns():
    """Ann took 3 skyscrapers but only her move was entered: the app takes that move for her
    option C, so Ben's business after it is refused, saying why, and changes nothing. Entered
    as her 1st action (the legal counterpart), A makes the move her 3rd: Ben's business is
    his own turn's. (An old log's tap at the end of the turn still says the same.)"""
    forgot = play(["Ann", "Ben"], move("34w"))
    forgot.note = None
    before = pickle.dumps(forgot)
    with pytest.raises(RuleError, match=re.escape(
            "Ann's 1st action was a commissioner's move (option C): the 3rd action is to move "
            "a commissioner again.")):
        forgot.apply(*business())
    assert pickle.dumps(forgot) == before
    assert forgot.up_next == "Ann's turn: the 3rd action, a commissioner's move."
    entered = play(["Ann", "Ben"], skyscrapers("Ann"), move("34w"), business())
    old_log = play(["Ann", "Ben"], move("34w"), ("end_turn", {}), business())
    for state in (entered, old_log):
        assert (state.current_player, state.turn_steps, state.turns_taken) == (
            "Ben", ["business"], 1)
        assert state.supply == {"Ann": 6, "Ben": 3}


def test_central_park_is_built_from_the_supply_too():
    state = auctions_in_34w()
    for _place in ("34w", "times", "52w"):
        state.apply("alea_bid", {"cards": [4, 4]})
        state.apply("auction", {"winner": "alea"})
    state.apply("alea_bid", {"cards": [4, 4]})
    state.supply["Ben"] = 0
    assert state.auction_outcomes("Ben", None) == [0]
    with pytest.raises(RuleError, match="Ben has 0 skyscrapers in supply"):
        state.apply("auction", {"winner": "Ben", "build": 1})


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
    check_tiles_in_box(tiles.elements())  # what the box holds: never refused
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


def test_an_auction_a_player_s_bid_won_is_not_won_by_nobody():
    """Issue 41: the players bid 14 and Alea's cards make 13: a player won, so "nobody bid"
    contradicts what was entered before it in this auction."""
    state = play(["Ann", "Ben"], skyscrapers("Ann"), move("34w"), skyscrapers("Ben"),
                 move("times"), skyscrapers("Ann"), move("52w"), skyscrapers("Ben"),
                 move("central_park"), skyscrapers("Ann"), move("city_hall"))
    state.apply("alea_bid", {"cards": [4, 5, 4], "high_bid": 14})
    with pytest.raises(RuleError, match="A bid of 14 was made, and Alea's 13 does not beat "
                                        "it: tap who won."):
        state.apply("auction", {"winner": None})
    state.apply("auction", {"winner": "Ben", "colour": "gray", "build": 1})
    assert [a.place for a in state.auctions] == ["times", "52w", "central_park"]


def test_a_set_up_shows_no_business_more_often_than_the_box_holds_it():
    """"9 each of boutique, jeweler, gallery, and perfume shop": 27 tiles laid out (7 starting
    businesses, 20 on the row) may hold 9 of one kind, not 10."""
    nine = ["gallery"] * 9 + ["boutique", "jeweler", "perfume"] * 6
    check_tiles_in_box(nine)
    check_tiles_in_box(nine + ["museum"] * 12)  # no business: left to the set-up's own check
    with pytest.raises(RuleError) as refusal:
        check_tiles_in_box(nine + ["gallery"])
    assert str(refusal.value) == ("The box holds 9 gallery tiles, but this set-up shows 10: "
                                  "check the starting businesses and the row.")
