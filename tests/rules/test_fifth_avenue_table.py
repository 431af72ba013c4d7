"""A 5th Avenue game replayed from its actions: set-up, businesses, commissioners, auctions,
Alea, building stops and the final scoring. Tables are set up as the app sets them up, keeping
the turns: each turn a 1st action (A skyscrapers, B a business, C a move, D a score) and a move
(tests/rules/test_fifth_avenue_turns.py has the turns themselves)."""

import copy

import pytest

from companion.rules import GAMES, replay
from companion.rules.common import RuleError
from companion.rules.fifth_avenue_table import (
    DEFAULT_PROFILE,
    DEFAULT_SET_SIZES,
    DISTRICT_IDS,
    Auction,
    FifthAvenueState,
    describe,
)
from companion.rules.log import Event

GAME = GAMES["fifth_avenue"]
ROW = ["boutique", "jeweler", "gallery", "perfume"] * 5
START = {d: {"plot": 0, "kind": "boutique"} for d in DISTRICT_IDS}


def play(players, *actions):
    events = [Event(seq, kind, payload) for seq, (kind, payload) in enumerate(actions, 1)]
    return replay(GAME, players, events).state


def set_up(players=("Ann", "Ben")):
    return [
        ("profile", {"colours": DEFAULT_PROFILE, "set_sizes": list(DEFAULT_SET_SIZES)}),
        ("setup", {"start": START, "row": ROW, "turns": True}),
        ("first_placer", {"player": players[0]}),
    ]


def initial(district, plot):
    return ("initial_skyscraper", {"district": district, "plot": plot})


PLACED = [initial("34w", 1), initial("34e", 1), initial("times", 2), initial("times", 1)]


def test_set_up_and_the_order_of_the_initial_skyscrapers():
    state = play(["Ann", "Ben", "Cy", "Di"], *set_up(["Ann", "Ben", "Cy", "Di"])[:2],
                 ("first_placer", {"player": "Cy"}))
    # Counter-clockwise (to the right) from the first placer, then back clockwise.
    assert state.placing_order == ["Cy", "Ben", "Ann", "Di", "Di", "Ann", "Ben", "Cy"]
    assert state.phase == "placing"
    assert state.board["34w"][0] == {"businesses": ["boutique"]}
    assert [len(s) for s in state.row] == list(DEFAULT_SET_SIZES)


def test_two_players_place_and_alea_is_at_the_table():
    state = play(["Ann", "Ben"], *set_up(), *PLACED)
    assert state.owners == ["Ann", "Ben", "alea"]
    assert state.board["34w"][1] == {"owner": "Ann", "skyscrapers": 1}
    assert state.board["times"][2] == {"owner": "Ben", "skyscrapers": 1}
    assert state.board["times"][1] == {"owner": "Ann", "skyscrapers": 1}
    assert state.phase == "playing"


@pytest.mark.parametrize(
    "start, message",
    [
        ({d: {"plot": DEFAULT_PROFILE[d].index("orange"), "kind": "gallery"}
          for d in DISTRICT_IDS},
         "every plot colour once or twice; violet is used 0 times"),
        ({d: {"plot": 0, "kind": "shoe shop"} for d in DISTRICT_IDS},
         "Choose the business in 34th St West"),
        ({"34w": {"plot": 0, "kind": "gallery"}}, "each of the seven districts"),
    ],
)
def test_impossible_starting_businesses_are_refused(start, message):
    state = play(["Ann", "Ben"], set_up()[0])
    with pytest.raises(RuleError, match=message):
        state.apply("setup", {"start": start, "row": ROW})


def test_one_plot_per_district_for_the_initial_skyscrapers():
    state = play(["Ann", "Ben"], *set_up(), initial("34w", 1), initial("34e", 1))
    with pytest.raises(RuleError, match="Ben already has a plot in 34th St East"):
        state.apply(*initial("34e", 3))
    with pytest.raises(RuleError, match="empty plots"):
        state.apply(*initial("34w", 0))


def business(tile, district, plot):
    return ("business", {"tile": tile, "district": district, "plot": plot})


def test_businesses_drop_the_last_of_a_set_below_central_park_and_trigger_special_scoring():
    # Ann's B and her move, then Ben's B.
    state = play(["Ann", "Ben"], *set_up(), *PLACED,
                 business(0, "34w", 2), move("white", "34w"), business(1, "52e", 2))
    # Set 1 held boutique, jeweler, gallery: after the second is taken, the gallery drops.
    assert state.below_park == ["gallery"]
    assert state.current_set == 1
    # Each consequence said in one line where the eye is (the default board's plot colours).
    assert state.note == (f"Ben placed a jeweler in 52nd St East, on the {state.colours['52e'][2]}"
                          " plot: business 2 of 12. The set's last tile, a gallery, goes below "
                          "Central Park.")
    state.apply(*move("white", "times"))  # Ben's 3rd action: Ann's turn
    state.apply(*business(0, "42w", 2))  # set 2: perfume taken, boutique drops
    assert state.below_park == ["gallery", "boutique"]
    assert state.placed == 3
    # Special scoring after the 3rd business: 4 VP for 3 districts; Ann has 2, Ben 2.
    assert state.scorings[-1].label == "Special scoring after business 3"
    assert state.scorings[-1].points == {"Ann": 0, "Ben": 0}
    assert state.note.endswith(" goes below Central Park. Special scoring: 4 VP for skyscrapers "
                               "in 3 districts or more; nobody has them.")
    assert state.board["34w"][2] == {"businesses": ["boutique"]}


@pytest.mark.parametrize(
    "action, message",
    [
        (business(0, "34w", 1), "never on a plot with skyscrapers"),
        (business(5, "34w", 2), "cannot be more than 2"),
        (business(0, "mars", 2), "Unknown district"),
        (("move", {"commissioner": "white", "to": "times"}),
         "The white commissioner cannot move to Times Square now."),
        (("move", {"commissioner": "white", "to": "mars"}),
         "The white commissioner cannot move there."),
        (("move", {"commissioner": "red", "to": "34w"}), "white or the beige"),
        (("score", {"district": "34w"}), "has no commissioner in it"),
        (("auction", {"winner": None}), "none is under way"),
        (("final", {"park_tiles": []}), "The game is not over yet: the final scoring comes at "
                                        "its end"),
        (("alea_bid", {"cards": [4, 4]}), "That belongs to the auctions, and none is under way"),
        (("first_placer", {"player": "Ben"}), "The set-up is done; undo back to it to change it"),
        (initial("42w", 1), "The set-up is done"),
        (set_up()[1], "The set-up is done"),
    ],
)
def test_refusals_while_playing(action, message):
    state = play(["Ann", "Ben"], *set_up(), *PLACED)
    with pytest.raises(RuleError, match=message):
        state.apply(*action)


def move(which, to):
    return ("move", {"commissioner": which, "to": to})


# Ann's C (two moves), Ben's C, and Ann's next 1st action brings the white commissioner back.
ROUND = [move("white", "34w"), move("white", "times"), move("white", "52w"),
         move("white", "central_park"), move("white", "city_hall")]


def test_a_commissioner_back_at_city_hall_starts_the_auctions_in_the_order_visited():
    state = play(["Ann", "Ben"], *set_up(), *PLACED, *ROUND[:2])
    assert state.scorable == ["times"]
    assert state.visited["white"] == ["34w"]
    state = play(["Ann", "Ben"], *set_up(), *PLACED, *ROUND)
    assert [a.place for a in state.auctions] == ["34w", "times", "52w", "central_park"]
    assert state.phase == "auctions"
    with pytest.raises(RuleError, match="finish the auctions"):
        state.apply(*business(0, "34w", 2))


def test_the_player_who_moved_the_commissioner_bids_first_then_clockwise():
    """"The player who triggered the auctions begins the auction": Ben, the first placer,
    brings the white commissioner back to City Hall, so the auction card lists Ben, then Ann
    (seated first)."""
    state = play(["Ann", "Ben"], *set_up(players=("Ben", "Ann")), *PLACED, *ROUND)
    assert state.phase == "auctions" and state.auctions[0].mover == "Ben"
    assert state.players == ["Ann", "Ben"] and state.bidders == ["Ben", "Ann"]
    assert play(["Ann", "Ben"], *set_up(), *PLACED, *ROUND).bidders == ["Ann", "Ben"]


def test_scoring_a_district_with_its_breakdown():
    # Ann's B, Ben's A, then Ann scores Times Square (option D).
    turns = [business(0, "times", 3), move("beige", "34e"), ("skyscrapers", {"player": "Ben"}),
             move("beige", "times")]
    before = play(["Ann", "Ben"], *set_up(), *PLACED, *turns)
    assert before.scorable == ["times"]
    assert before.if_scored_now("times") == {"Ann": 2, "Ben": 2}  # what the tap will give
    state = play(["Ann", "Ben"], *set_up(), *PLACED, *turns, ("score", {"district": "times"}))
    # Times Square ring: 0 boutique, 1 Ann, 2 Ben, 3 boutique (just placed), 4 empty.
    # Ann (plot 1) touches plot 0 (boutique) and plot 2 (a skyscraper): 1 type, 2 VP.
    # Ben (plot 2) touches plot 1 (a skyscraper) and plot 3 (boutique): 1 type, 2 VP.
    assert state.scorings[-1].points == {"Ann": 2, "Ben": 2}
    assert state.scorings[-1].label == "Times Square scored by Ann"  # twice in a row: told apart
    assert state.note is None  # both have skyscrapers there: nobody draws a black card
    assert any("Ann" in line and "2 VP" in line for line in state.scorings[-1].lines)


def test_players_without_skyscrapers_in_a_scored_district_are_told_to_draw():
    # Ann's A and her move; Ben scores.
    state = play(["Ann", "Ben"], *set_up(), *PLACED, ("skyscrapers", {"player": "Ann"}),
                 move("beige", "34w"), ("score", {"district": "34w"}))
    assert state.note == ("Ben scored 34th St West. Without a skyscraper there, Ben draws a "
                          "black card.")

    # A table that keeps no turns does not know who scored: the district is named first.
    untracked = [(kind, {**payload, "turns": False}) if kind == "setup" else (kind, payload)
                 for kind, payload in set_up()]
    state = play(["Ann", "Ben"], *untracked, *PLACED, ("skyscrapers", {"player": "Ann"}),
                 move("beige", "34w"), ("score", {"district": "34w"}))
    assert state.current_player is None
    assert state.note == "34th St West scored. Without a skyscraper there, Ben draws a black card."
    assert state.scorings[-1].label == "34th St West scored"  # by whom, the table did not keep


def test_alea_bids_wins_and_builds_on_the_most_valuable_empty_plot():
    state = play(["Ann", "Ben"], *set_up(), *PLACED, business(0, "34w", 3), *ROUND,
                 ("alea_bid", {"high_bid": 10, "cards": [4, 6, 5, 4]}))
    auction = state.auctions[0]
    assert (auction.alea_bid, auction.alea_in) == (19, True)
    state.apply("auction", {"winner": "alea"})
    # 34th St West: 0 boutique, 1 Ann, 2 empty, 3 boutique, 4 empty. Plot 2 touches Ann and a
    # boutique (1 type: 2 VP); plot 4 touches a boutique and the boutique at plot 0 (1 type):
    # a tie, so Alea builds one skyscraper on each.
    assert state.board["34w"][2] == {"owner": "alea", "skyscrapers": 1}
    assert state.board["34w"][4] == {"owner": "alea", "skyscrapers": 1}
    assert state.auctions[0].place == "times"


def with_alea_built(state, count):
    """The table with `count` of Alea's skyscrapers on empty plots outside 34th St West, as
    earlier wins would have left them."""
    for place in ("times", "52w", "34e", "42w", "42e", "52e"):
        for plot, here in enumerate(state.board[place]):
            if count and not here:
                state.board[place][plot] = {"owner": "alea", "skyscrapers": 1}
                count -= 1
    assert count == 0
    return state


@pytest.mark.parametrize("on_board, built", [(16, [2, 4]), (17, [2]), (18, [])])
def test_alea_builds_only_the_18_skyscrapers_of_its_colour(on_board, built):
    """"All the skyscrapers in one of the two unchosen colors ... These are Alea's
    skyscrapers": 18. With fewer left than the tied plots 2 and 4 of 34th St West, Alea builds
    on the first in ring order; with none left, nothing, and no building stop (ruling
    "alea_pieces")."""
    state = play(["Ann", "Ben"], *set_up(), *PLACED, business(0, "34w", 3), *ROUND,
                 ("alea_bid", {"high_bid": 10, "cards": [4, 6, 5, 4]}))
    state = with_alea_built(state, on_board)
    assert state.alea_left == 18 - on_board
    meant = state.recorded("auction", {"winner": "alea"})
    assert meant["plots"] == [state.colours["34w"][p] for p in built]
    assert (meant["building_stop"], meant["none_left"]) == (False, not built)
    state.apply("auction", meant)
    assert [p for p, here in enumerate(state.board["34w"]) if here.get("owner") == "alea"] == built
    assert "34w" not in state.stopped and state.alea_left == max(0, 18 - on_board - 2)
    if not built:
        assert str(describe("auction", meant)) == ("Alea won 34th St West, with no skyscraper "
                                                   "left to build")
        assert state.note == ("All of Alea's skyscrapers are on the board: Alea builds nothing "
                              "in 34th St West.")


BUILT = "Alea won 52nd St East and built one skyscraper on each of the brown and green plots"
STOP = "Alea won 52nd St East and declared a building stop"
NONE_LEFT = "Alea won 52nd St East, with no skyscraper left to build"


@pytest.mark.parametrize("outcome, said", [
    ({"plots": ["brown", "green"], "building_stop": False, "none_left": False}, BUILT),
    ({"plots": [], "building_stop": True, "none_left": False}, STOP),
    ({"plots": [], "building_stop": False, "none_left": True}, NONE_LEFT),
    # Logs from before Alea's win said whether it declared a building stop:
    ({"plots": []}, STOP),
    ({"plots": [], "none_left": True}, NONE_LEFT),
    ({"plots": ["brown", "green"], "none_left": True}, BUILT),  # read again by a change
])
def test_alea_s_win_says_where_it_built_its_building_stop_or_that_none_was_left(outcome, said):
    """A building stop and a win with no skyscraper left both build on no plot: the history
    tells them apart, as the event records it."""
    assert str(describe("auction", {"winner": "alea", "place": "52e", "round": 4,
                                    **outcome})) == said


def test_alea_s_win_of_a_full_district_records_its_building_stop():
    """"If there is no empty building plot in the district, he declares a building stop": the
    win records it, so that a change that leaves a plot empty reads it again."""
    state = play(["Ann", "Ben"], *set_up(), *PLACED, business(0, "34w", 3), *ROUND,
                 ("alea_bid", {"high_bid": 10, "cards": [4, 6, 5, 4]}))
    for plot, here in enumerate(state.board["34w"]):
        state.board["34w"][plot] = here or {"owner": "alea", "skyscrapers": 1}
    meant = state.recorded("auction", {"winner": "alea"})
    assert {k: meant[k] for k in ("plots", "building_stop", "none_left")} == {
        "plots": [], "building_stop": True, "none_left": False}
    state.apply("auction", meant)
    assert state.stopped == ["34w"]


def at_34w_with_alea_in():
    return play(["Ann", "Ben"], *set_up(), *PLACED, business(0, "34w", 3), *ROUND,
                ("alea_bid", {"high_bid": 10, "cards": [4, 6, 5, 4]}))


def test_alea_won_says_what_it_will_do_before_it_is_tapped():
    """The button for Alea's win says what the win does here, and the win then does it: the
    tied plots 2 and 4 of 34th St West (worked out above), the first of them when Alea has one
    skyscraper left, nothing when none, a building stop in a full district, and the second
    stop ending the game."""
    state = at_34w_with_alea_in()
    assert state.alea_win_said("34w") == ("Alea won: Alea builds one skyscraper on each of the "
                                          f"{state.colours['34w'][2]} and "
                                          f"{state.colours['34w'][4]} plots")
    state = with_alea_built(at_34w_with_alea_in(), 17)
    assert state.alea_win_said("34w") == (f"Alea won: Alea builds one skyscraper on the "
                                          f"{state.colours['34w'][2]} plot")
    state = with_alea_built(at_34w_with_alea_in(), 18)
    assert state.alea_win_said("34w") == ("Alea won: all of Alea's skyscrapers are on the "
                                          "board, so Alea builds nothing")
    state = at_34w_with_alea_in()
    for plot, here in enumerate(state.board["34w"]):
        state.board["34w"][plot] = here or {"businesses": ["boutique", "jeweler"]}
    assert state.alea_win_said("34w") == ("Alea won: every plot is taken, so Alea declares a "
                                          "building stop")
    state.stopped.append("52e")  # a first stop elsewhere
    assert state.alea_win_said("34w") == ("Alea won: every plot is taken, so Alea declares the "
                                          "second building stop, which ends the game")
    state.apply("auction", state.recorded("auction", {"winner": "alea"}))
    assert state.stopped == ["52e", "34w"] and state.end_reason is not None
    assert state.alea_win_said("central_park") == "Alea won (Alea never builds in Central Park)"


def won_by(state, player):
    """The auction under way won by `player`, who builds nothing."""
    colours = state.colours_for(state.auctions[0].place, player)
    return ("auction", {"winner": player, "build": 0, **({"colour": colours[0]} if colours
                                                         else {})})


def test_alea_winning_central_park_is_said_with_its_result():
    state = play(["Ann", "Ben"], *set_up(), *PLACED, *ROUND)
    for _ in range(3):
        state.apply("alea_bid", {"high_bid": 30, "cards": [4, 4]})
        state.apply(*won_by(state, "Ben"))
    assert state.auctions[0].place == "central_park"
    state.apply("alea_bid", {"high_bid": 10, "cards": [4, 6, 5, 4]})
    state.apply("auction", {"winner": "alea"})
    assert state.note == "Alea won Central Park; Alea never builds there, so nothing is built."
    assert set(state.park.values()) == {0}  # nothing built there, by anyone


def test_alea_cannot_win_without_beating_the_high_bid():
    state = play(["Ann", "Ben"], *set_up(), *PLACED, *ROUND,
                 ("alea_bid", {"high_bid": 20, "cards": [4, 6, 5, 4]}))
    with pytest.raises(RuleError, match="above the players' high bid"):
        state.apply("auction", {"winner": "alea"})
    with pytest.raises(RuleError, match="repeat"):
        state.apply("alea_bid", {"high_bid": 4, "cards": [4, 5, 6]})


ALEA_OUT = ("alea_bid", {"high_bid": 30, "cards": [4, 4]})  # Alea bids 8: out


def test_a_player_builds_up_to_the_cards_limit_on_the_plot_of_the_bid_colour():
    state = play(["Ann", "Ben"], *set_up(), *PLACED, *ROUND, ALEA_OUT)
    state.apply(*won_by(state, "Ben"))  # 34th St West: Ben bid 30 and built nothing
    state.apply(*ALEA_OUT)
    times = DEFAULT_PROFILE["times"]
    with pytest.raises(RuleError, match="Ann may bid here only with brown"):
        state.apply("auction", {"winner": "Ann", "colour": times[0], "cards": [4], "build": 1})
    with pytest.raises(RuleError, match="cannot be more than 2"):
        state.apply("auction", {"winner": "Ann", "colour": times[1], "cards": [5], "build": 3})
    state.apply("auction", {"winner": "Ann", "colour": times[1], "cards": [4], "build": 3})
    assert state.board["times"][1] == {"owner": "Ann", "skyscrapers": 4}
    assert state.note == "Ann won Times Square and built 3 skyscrapers on the brown plot."
    with pytest.raises(RuleError, match="Alea bids third"):
        state.apply("auction", {"winner": None})
    state.apply(*ALEA_OUT)
    with pytest.raises(RuleError, match="A bid of 30 was made, and Alea's 8 does not beat "
                                        "it: tap who won."):
        state.apply("auction", {"winner": None})
    state.apply(*won_by(state, "Ben"))  # 52nd St West
    state.apply(*ALEA_OUT)
    state.apply("auction", {"winner": "Ben", "cards": [6], "build": 1})  # Central Park
    assert state.note == "Ben won Central Park and built 1 skyscraper."
    assert state.park == {"Ann": 0, "Ben": 1, "alea": 0}
    assert state.phase == "playing"


def test_when_alea_is_in_nobody_cannot_win():
    state = play(["Ann", "Ben"], *set_up(), *PLACED, *ROUND,
                 ("alea_bid", {"high_bid": 0, "cards": [4, 4]}))
    with pytest.raises(RuleError, match="Alea's bid stands"):
        state.apply("auction", {"winner": None})


def test_central_park_has_no_building_stop():
    """"A player cannot choose building stop in the area below Central Park"."""
    state = play(["Ann", "Ben"], *set_up(), *PLACED, *ROUND)
    for _ in range(3):
        state.apply(*ALEA_OUT)
        state.apply(*won_by(state, "Ben"))
    assert state.auctions[0].place == "central_park"
    state.apply("alea_bid", {"high_bid": 4, "cards": [4, 4]})
    with pytest.raises(RuleError, match="A building stop cannot be declared in Central Park."):
        state.apply("auction", {"winner": "Ann", "cards": [6], "stop": True})


def test_after_both_players_passed_only_alea_wins():
    """A high bid of 0 before Alea's is two passes: "A player cannot re-enter an auction after
    passing", and "if the others both pass with Alea's bid the highest, Alea wins the auction"
    (rule 4.2), in a district and in Central Park alike."""
    state = play(["Ann", "Ben"], *set_up(), *PLACED, *ROUND,
                 ("alea_bid", {"high_bid": 0, "cards": [4, 4]}))
    assert state.auctions[0].passed_to_alea
    colour = state.colours[state.auctions[0].place][1]
    with pytest.raises(RuleError, match="You both passed before Alea's bid"):
        state.apply("auction", {"winner": "Ann", "colour": colour, "cards": [4], "build": 1})
    state.apply("auction", {"winner": "alea"})
    for _ in range(2):
        state.apply(*ALEA_OUT)
        state.apply(*won_by(state, "Ben"))
    assert state.auctions[0].place == "central_park"
    state.apply("alea_bid", {"high_bid": 0, "cards": [5, 5]})
    with pytest.raises(RuleError, match="You both passed before Alea's bid"):
        state.apply("auction", {"winner": "Ben", "cards": [4], "build": 3})
    state.apply("auction", {"winner": "alea"})
    assert state.park == {"Ann": 0, "Ben": 0, "alea": 0}


def test_building_stop_scores_clears_and_closes_the_district():
    state = FifthAvenueState.start(["Red", "Yellow", "Blue"])
    state.started, state.first_placer, state.initial_done = True, "Red", 6
    state.row = [[None] * size for size in DEFAULT_SET_SIZES]
    ring = [{"owner": "Yellow", "skyscrapers": 1}, {"businesses": ["boutique", "jeweler"]},
            {"owner": "Blue", "skyscrapers": 2}, {"owner": "Red", "skyscrapers": 1},
            {"businesses": ["gallery"]}]
    state.board["42e"] = ring
    state.auctions = [Auction("42e")]
    colour = state.colours["42e"][3]
    state.apply("auction", {"winner": "Red", "colour": colour, "cards": [6], "stop": True})
    # The rulebook's figure 10: Red 4, Yellow 5 // 2 = 2, Blue 6 // 2 = 3.
    assert state.scorings[-1].points == {"Red": 4, "Yellow": 2, "Blue": 3}
    assert state.scorings[-1].lines == (
        "Red declared it: 1 VP per skyscraper in the district, 4 VP",
        "Yellow: half of 5, rounded down: 2 VP",
        "Blue: half of 6, rounded down: 3 VP",
    )
    assert state.board["42e"] == [{}, {}, {}, {}, {}]
    assert state.stopped == ["42e"]
    state.commissioners["white"] = "34e"
    assert state.allowed_moves("white") == ["times", "52e"]  # the stopped district is skipped


def test_without_a_plot_of_his_own_the_winner_must_declare_a_building_stop():
    state = FifthAvenueState.start(["Red", "Yellow", "Blue"])
    state.started, state.first_placer, state.initial_done = True, "Red", 6
    state.board["42e"] = [{"owner": "Yellow", "skyscrapers": 1}, {"businesses": ["boutique"]},
                          {"owner": "Blue", "skyscrapers": 2}, {"businesses": ["jeweler"]},
                          {"businesses": ["gallery"]}]
    state.auctions = [Auction("42e")]
    colour = state.colours["42e"][1]
    with pytest.raises(RuleError, match="must declare a building stop"):
        state.apply("auction", {"winner": "Red", "colour": colour, "cards": [4], "build": 1})


def test_final_scoring_and_the_hand_cards_tie_break():
    state = play(["Ann", "Ben"], *set_up(), *PLACED)
    state.placed, state.end_reason = 12, "The last business is placed: the game is over."
    state.below_park = ["gallery", "boutique", "gallery", "perfume"]
    state.park = {"Ann": 2, "Ben": 0, "alea": 0}
    state.apply("final", {"park_tiles": ["gallery", "boutique", "gallery"]})
    # Times Square: Ann (plot 1) touches a boutique: 2; Ben (plot 2) touches Ann and an empty
    # plot: 1. 34w: Ann touches a boutique: 2. 34e: Ben touches a boutique: 2.
    # Central Park: 2 types: 3 VP x 2 skyscrapers = 6 for Ann.
    assert state.totals() == {"Ann": 2 + 2 + 6, "Ben": 1 + 2}
    assert state.finished
    assert state.verdict() == "Ann wins with 10 VP."
    park = state.scorings[-1]  # only who has a skyscraper there, as in a district's scoring
    assert [str(line) for line in park.lines] == ["Ann: 2 skyscrapers x 3 VP = 6 VP"]
    assert park.points == {"Ann": 6, "Ben": 0}
    # Found at a table: cards in hand entered where no tie is left (a change of the Central
    # Park businesses broke it) were refused as "The game is over: undo the last step".
    with pytest.raises(RuleError, match="No tie for the most VP is left for cards in hand"):
        state.apply("hand_cards", {"cards": {"Ann": 3, "Ben": 5}})
    with pytest.raises(RuleError, match="The game is over: to change anything, undo the last"):
        state.apply("final", {"park_tiles": []})


def test_a_tie_for_the_most_vp_asks_for_the_cards_in_hand():
    state = play(["Ann", "Ben"], *set_up(), initial("34w", 1), initial("34e", 1),
                 initial("42w", 1), initial("42e", 1))
    state.end_reason = "The second building stop is complete: the game is over."
    state.apply("final", {"park_tiles": []})
    assert state.totals() == {"Ann": 4, "Ben": 4}
    assert state.tied_leaders == ["Ann", "Ben"] and not state.finished
    # What comes next is the tie-break, and a step of a turn or the scoring again says so.
    assert state.up_next == "Enter the cards in hand of Ann and Ben."
    for step in (("final", {"park_tiles": []}), move("white", "34w")):
        with pytest.raises(RuleError, match="The final scoring is done; break the tie with the "
                                            "cards in hand."):
            state.apply(*step)
    state.apply("hand_cards", {"cards": {"Ann": 3, "Ben": 5}})
    assert state.finished
    assert [(p.place, p.player) for p in state.ranking()] == [(1, "Ben"), (2, "Ann")]
    assert state.verdict() == "Ann and Ben tie on 4 VP; Ben wins with 5 cards left in hand to 3."


def test_central_park_with_no_business_below_it_scores_the_rulebooks_lowest():
    """Found by a rules audit: a game ended by two building stops before any business went
    below Central Park scored its skyscrapers 1 VP each; the rulebook scores them "(lowest is 2
    and the highest is 5)". A final scoring recorded now says so (`park_none`); one recorded
    before it did keeps the 1 VP it was scored with, so a finished table's result stays."""
    state = play(["Ann", "Ben"], *set_up(), initial("34w", 1), initial("34e", 1),
                 initial("42w", 1), initial("42e", 1))
    state.end_reason = "The second building stop is complete: the game is over."
    state.park = {"Ann": 3, "Ben": 0, "alea": 0}
    before = copy.deepcopy(state)
    final = state.recorded("final", {"park_tiles": []})
    assert final == {"park_tiles": [], "park_none": 2}
    state.apply("final", final)
    park = state.scorings[-1]
    assert str(park.label) == "Central Park (no business below it)"
    assert [str(line) for line in park.lines] == ["Ann: 3 skyscrapers x 2 VP = 6 VP"]
    assert state.totals() == {"Ann": 4 + 6, "Ben": 4} and state.finished
    before.apply("final", {"park_tiles": []})  # as recorded before
    assert before.totals() == {"Ann": 4 + 3, "Ben": 4}
    with pytest.raises(RuleError):  # a tampered value is refused, not scored
        copy.deepcopy(before).apply("final", {"park_tiles": [], "park_none": 5})


@pytest.mark.parametrize(("cards", "verdict"), [
    ({"Ann": 1, "Ben": 0}, "Ann and Ben tie on 4 VP; Ann wins with 1 card left in hand to 0."),
    ({"Ann": 2, "Ben": 2},
     "Ann and Ben tie on 4 VP and on their cards in hand (2 cards): a shared victory."),
    ({"Ann": 1, "Ben": 1},
     "Ann and Ben tie on 4 VP and on their cards in hand (1 card): a shared victory."),
])
def test_the_verdict_says_how_the_cards_in_hand_broke_the_tie(cards, verdict):
    state = play(["Ann", "Ben"], *set_up(), initial("34w", 1), initial("34e", 1),
                 initial("42w", 1), initial("42e", 1))
    state.end_reason = "The second building stop is complete: the game is over."
    state.apply("final", {"park_tiles": []})
    state.apply("hand_cards", {"cards": cards})
    assert state.verdict() == verdict


def test_refused_central_park_tiles():
    state = play(["Ann", "Ben"], *set_up(), *PLACED)
    state.end_reason = "over"
    state.below_park = ["gallery", "boutique", "gallery", "perfume"]
    with pytest.raises(RuleError, match="No 'jeweler' lies below Central Park"):
        state.apply("final", {"park_tiles": ["jeweler", "gallery", "gallery"]})
    with pytest.raises(RuleError, match="Turn over 3"):
        state.apply("final", {"park_tiles": ["gallery"]})
    # Two galleries lie there, not three (a hand-played game was told "No 'gallery' lies").
    with pytest.raises(RuleError) as refusal:
        state.apply("final", {"park_tiles": ["gallery", "gallery", "gallery"]})
    assert str(refusal.value) == "Only 2 'gallery' lie below Central Park, not 3."
    with pytest.raises(RuleError) as refusal:
        state.apply("final", {"park_tiles": ["perfume", "perfume", "boutique"]})
    assert str(refusal.value) == "Only 1 'perfume' lies below Central Park, not 2."
    assert refusal.value.key == "park_tiles"  # said under the businesses typed


def test_the_auction_offers_only_what_the_winner_of_a_bid_may_do():
    """Times Square: Ann's skyscraper stands on the brown plot (she may build on it), Ben's bid
    in a colour whose plot is hers gives him nothing to build; the district is not full, so no
    building stop. Central Park: up to 3, or none."""
    state = play(["Ann", "Ben"], *set_up(), *PLACED, *ROUND, ALEA_OUT)
    state.apply(*won_by(state, "Ben"))  # 34th St West: Ben built nothing
    state.apply(*ALEA_OUT)
    times = DEFAULT_PROFILE["times"]
    assert state.auctions[0].place == "times"
    assert state.auction_outcomes("Ann", times[1]) == [3, 2, 1, 0]
    assert state.auction_outcomes("Ben", times[1]) == []
    state.apply(*won_by(state, "Ann"))
    state.apply(*ALEA_OUT)
    state.apply(*won_by(state, "Ben"))
    state.apply(*ALEA_OUT)
    assert state.auction_outcomes("Ben", None) == [3, 2, 1, 0]  # Central Park


def test_a_district_that_is_no_name_is_refused_with_words():
    """Found by tests/fuzz/test_rules_fuzz.py: a district sent as a list (a tampered form or
    file) raised TypeError (unhashable) instead of the rules' refusal."""
    state = play(["Ann", "Ben"], *set_up(), ("first_placer", {"player": "Ann"}))
    with pytest.raises(RuleError, match="Unknown district"):
        state.apply("initial_skyscraper", {"district": [], "plot": 1})


def test_a_changed_final_scoring_says_the_central_park_tiles_it_changed():
    """Found at a table: a final scoring changed from perfume, perfume, jeweler to boutique,
    gallery, perfume read "Final scoring → Final scoring" in the preview and on the sheet."""
    game = GAMES["fifth_avenue"]
    was = {"kind": "final", "payload": {"park_tiles": ["perfume", "perfume", "jeweler"]}}
    now = {"kind": "final", "payload": {"park_tiles": ["boutique", "gallery", "perfume"]}}
    assert list(game.edit_words(was, now)) == [
        "Final scoring (Central Park: perfume, perfume, jeweler)",
        "Final scoring (Central Park: boutique, gallery, perfume)"]
    # A stored payload of no such tiles (found by the fuzz test: a list in the list) says none.
    assert game.describe("final", {"park_tiles": [[]]}) == (
        "Final scoring (no business below Central Park)")
    none = {"kind": "final", "payload": {"park_tiles": []}}
    assert game.edit_words(was, none)[1] == (
        "Final scoring (no business below Central Park)")
    cards = [{"kind": "hand_cards", "payload": {"cards": {"Ann": n, "Ben": 8}}} for n in (5, 7)]
    assert list(game.edit_words(*cards)) == [
        "Cards in hand entered for the tie-break (Ann 5, Ben 8)",
        "Cards in hand entered for the tie-break (Ann 7, Ben 8)"]
