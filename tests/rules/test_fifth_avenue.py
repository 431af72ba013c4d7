"""5th Avenue rules: the rulebook's figures and worked examples, and ties worked out by hand."""

from fractions import Fraction
from itertools import permutations

import pytest

from companion.rules.common import RuleError
from companion.rules.fifth_avenue import (
    BUSINESSES,
    COLOURS,
    DISTRICT_IDS,
    DISTRICTS,
    NEXT,
    POSITION_NAMES,
    POSITIONS,
    PlotScore,
    alea_beats_chance,
    alea_bid,
    alea_bid_distribution,
    alea_build_plots,
    bid_colours,
    bid_possible,
    building_stop_points,
    business_targets,
    central_park_points,
    check_district,
    commissioner_moves,
    district_breakdown,
    district_points,
    districts_built,
    max_skyscrapers,
    plot_values,
    scorable_districts,
    skyscraper_points,
    special_scoring_points,
)

EMPTY: dict[str, object] = {}


def shops(*kinds):
    return {"businesses": list(kinds)}


def tower(owner, skyscrapers=1):
    return {"owner": owner, "skyscrapers": skyscrapers}


# Fig. 10: Red declares a building stop; a ring that produces the figure's points.
FIG10 = [tower("Yellow"), shops("boutique", "jeweler"), tower("Blue", 2), tower("Red"),
         shops("gallery")]
# Fig. 07, three districts rebuilt from the points the figure gives.
FIG07_A = [tower("Blue", 2), shops("boutique", "jeweler"), tower("Yellow"),
           shops("gallery", "perfume"), shops("gallery")]
FIG07_B = [tower("Blue", 2), shops("boutique"), tower("Yellow"), shops("boutique"), EMPTY]
FIG07_C = [tower("Red", 2), shops("jeweler", "gallery"), tower("Yellow"), shops("jeweler"),
           tower("Blue", 2)]


def test_the_contract_constants():
    assert BUSINESSES == ("boutique", "jeweler", "gallery", "perfume")
    assert COLOURS == ("violet", "orange", "gray", "brown", "green")
    assert DISTRICTS == (
        ("34w", "34th St West"), ("34e", "34th St East"), ("times", "Times Square"),
        ("42w", "42nd St West"), ("42e", "42nd St East"), ("52w", "52nd St West"),
        ("52e", "52nd St East"),
    )
    assert DISTRICT_IDS == ("34w", "34e", "times", "42w", "42e", "52w", "52e")
    assert POSITIONS == ("city_hall", *DISTRICT_IDS, "central_park")
    assert POSITION_NAMES["city_hall"] == "City Hall"
    assert POSITION_NAMES["central_park"] == "Central Park"
    assert POSITION_NAMES["times"] == "Times Square"
    assert NEXT == {
        "city_hall": ("34w", "34e"), "34w": ("42w", "times"), "34e": ("times", "42e"),
        "times": ("52w", "52e"), "42w": ("52w",), "42e": ("52e",),
        "52w": ("central_park",), "52e": ("central_park",),
    }


@pytest.mark.parametrize(
    "kinds, points",
    [
        ([], 1),
        (["boutique"], 2),
        (["boutique", "jeweler"], 3),
        (["boutique", "jeweler", "gallery"], 5),
        (["boutique", "jeweler", "gallery", "perfume"], 8),
        # "If a skyscraper is adjacent to several businesses of the same type, only one counts."
        (["gallery", "gallery", "gallery"], 2),
        (("perfume", "boutique", "perfume", "boutique"), 3),
        ({"jeweler", "perfume", "gallery"}, 5),
    ],
)
def test_the_skyscraper_table(kinds, points):
    assert skyscraper_points(kinds) == points


@pytest.mark.parametrize(
    "kinds, message",
    [
        (["bakery"], "Unknown business 'bakery'"),
        (["Boutique"], "Unknown business 'Boutique'"),
        ([None], "Unknown business None"),
        ("boutique", "must be given as a list"),
        (3, "must be given as a list"),
    ],
)
def test_the_skyscraper_table_refuses_unknown_businesses(kinds, message):
    with pytest.raises(RuleError, match=message):
        skyscraper_points(kinds)


@pytest.mark.parametrize(
    "plots, points",
    [
        # Fig. 07: "Blue earns 2 x 5 VP = 10 VP, Yellow earns 1 x 8 VP = 8 VP".
        (FIG07_A, {"Blue": 10, "Yellow": 8}),
        # Fig. 07: "Blue earns 2 x 2 VP = 4 VP, Yellow earns 1 x 2 VP = 2 VP".
        (FIG07_B, {"Blue": 4, "Yellow": 2}),
        # Fig. 07: "Blue 2 x 2 VP = 4 VP, Yellow 1 x 3 VP = 3 VP, Red 2 x 3 VP = 6 VP".
        (FIG07_C, {"Red": 6, "Yellow": 3, "Blue": 4}),
        # Fig. 10 scored normally: Yellow 5, Blue 2 x 3, Red 2.
        (FIG10, {"Yellow": 5, "Blue": 6, "Red": 2}),
        # Nobody built: nobody scores.
        ([EMPTY, shops("gallery"), EMPTY, EMPTY, shops("boutique", "boutique")], {}),
        # Neighbours wrap around the ring: plot 0 touches plot 4.
        ([tower("Ann", 3), EMPTY, EMPTY, EMPTY, shops("perfume", "jeweler")], {"Ann": 9}),
        # A skyscraper with nothing next door is worth 1 VP.
        ([tower("Ann"), EMPTY, tower("Ben", 4), EMPTY, EMPTY], {"Ann": 1, "Ben": 4}),
        # Alea's skyscrapers are valued like any, but "Alea never scores".
        ([tower("alea"), shops("gallery"), tower("Ann", 2), tower("alea"), EMPTY],
         {"Ann": 4}),
    ],
)
def test_district_scoring(plots, points):
    assert district_points(plots) == points


def test_the_breakdown_explains_each_plot():
    assert district_breakdown(FIG07_A) == [
        PlotScore(0, "Blue", 2, ("boutique", "jeweler", "gallery"), 5, 10),
        PlotScore(2, "Yellow", 1, ("boutique", "jeweler", "gallery", "perfume"), 8, 8),
    ]
    assert [score.line() for score in district_breakdown(FIG07_A)] == [
        "Blue: 2 skyscrapers x 5 VP = 10 VP (boutique, jeweler, gallery next door)",
        "Yellow: 1 skyscraper x 8 VP = 8 VP (boutique, jeweler, gallery, perfume shop next door)",
    ]


def test_the_breakdown_shows_alea_and_bare_plots():
    plots = [tower("alea"), shops("gallery"), EMPTY, tower("Ann", 2), EMPTY]
    assert [score.line() for score in district_breakdown(plots)] == [
        "Alea: 1 skyscraper worth 2 VP each (gallery next door); Alea never scores",
        "Ann: 2 skyscrapers x 1 VP = 2 VP (no business next door)",
    ]


@pytest.mark.parametrize(
    "plots, values",
    [
        (FIG10, [5, 1, 3, 2, 1]),
        ([EMPTY] * 5, [1, 1, 1, 1, 1]),
        ([shops("boutique"), EMPTY, shops("jeweler", "gallery"), EMPTY, shops("perfume")],
         [2, 5, 1, 5, 2]),
    ],
)
def test_plot_values(plots, values):
    assert plot_values(plots) == values


@pytest.mark.parametrize(
    "declarer, points",
    [
        # Fig. 10: "Red earns 4 VP, Yellow earns 5/2 = 2 VP, and Blue earns 6/2 = 3 VP."
        ("Red", {"Red": 4, "Yellow": 2, "Blue": 3}),
        # A winner without skyscrapers there must declare it: he scores all 4, the rest half.
        ("Green", {"Green": 4, "Yellow": 2, "Blue": 3, "Red": 1}),
        # The declarer never scores half his own: 1 VP per skyscraper, however few.
        ("Yellow", {"Yellow": 4, "Blue": 3, "Red": 1}),
        # Alea declaring (he won a district with no empty plot): only the halves.
        ("alea", {"Yellow": 2, "Blue": 3, "Red": 1}),
    ],
)
def test_building_stop(declarer, points):
    assert building_stop_points(FIG10, declarer) == points


def test_a_building_stop_counts_aleas_skyscrapers_for_the_declarer():
    plots = [tower("alea"), shops("boutique", "jeweler"), tower("Blue", 2), tower("alea"),
             shops("gallery")]
    # Blue: 2 x 3 = 6, half 3 -- as declarer: 1 + 2 + 1 = 4 skyscrapers. Alea never scores.
    assert building_stop_points(plots, "Ann") == {"Ann": 4, "Blue": 3}
    assert building_stop_points(plots, "Blue") == {"Blue": 4}
    assert building_stop_points(plots, "alea") == {"Blue": 3}


def test_a_building_stop_needs_every_plot_built_on():
    plots = [tower("Ann"), shops("gallery"), EMPTY, tower("Ben"), shops("jeweler")]
    with pytest.raises(RuleError, match="No building stop while plot 3 is empty"):
        building_stop_points(plots, "Ann")


@pytest.mark.parametrize("declarer", ["", "  ", None, 3])
def test_a_building_stop_needs_a_declarer(declarer):
    with pytest.raises(RuleError, match="Who declares the building stop must be a player's name"):
        building_stop_points(FIG10, declarer)


@pytest.mark.parametrize(
    "plots, message",
    [
        (FIG10[:4], "A district has 5 plots, not 4"),
        (FIG10 + [EMPTY], "A district has 5 plots, not 6"),
        ("abcde", "A district must be given as a list"),
        (None, "A district must be given as a list"),
        ([EMPTY, EMPTY, "shop", EMPTY, EMPTY], "Plot 3 must be empty, hold businesses or hold"),
        ([EMPTY, shops(), EMPTY, EMPTY, EMPTY], "Plot 2 holds one or two businesses, not 0"),
        ([shops("gallery", "gallery", "perfume"), EMPTY, EMPTY, EMPTY, EMPTY],
         "Plot 1 holds one or two businesses, not 3"),
        ([shops("bakery"), EMPTY, EMPTY, EMPTY, EMPTY], "Unknown business 'bakery'"),
        ([{"businesses": "gallery"}, EMPTY, EMPTY, EMPTY, EMPTY],
         "The businesses on plot 1 must be given as a list"),
        ([{"businesses": ["gallery"], "owner": "Ann", "skyscrapers": 1}, EMPTY, EMPTY, EMPTY,
          EMPTY], "Plot 1 cannot hold both businesses and skyscrapers"),
        ([{"businesses": ["gallery"], "skyscrapers": 1}, EMPTY, EMPTY, EMPTY, EMPTY],
         "Plot 1 cannot hold both businesses and skyscrapers"),
        ([{"owner": "Ann"}, EMPTY, EMPTY, EMPTY, EMPTY], "Plot 1 is not understood"),
        ([{"shops": ["gallery"]}, EMPTY, EMPTY, EMPTY, EMPTY], "Plot 1 is not understood"),
        ([tower("Ann", 0), EMPTY, EMPTY, EMPTY, EMPTY],
         "Ann's skyscrapers on plot 1 cannot be less than 1"),
        ([tower("Ann", -2), EMPTY, EMPTY, EMPTY, EMPTY],
         "Ann's skyscrapers on plot 1 cannot be less than 1"),
        ([tower("Ann", 18), EMPTY, EMPTY, EMPTY, EMPTY],
         "Ann's skyscrapers on plot 1 cannot be more than 17"),
        ([tower("Ann", "2"), EMPTY, EMPTY, EMPTY, EMPTY],
         "Ann's skyscrapers on plot 1 must be a whole number"),
        ([tower("Ann", 1.0), EMPTY, EMPTY, EMPTY, EMPTY],
         "Ann's skyscrapers on plot 1 must be a whole number"),
        ([tower("Ann", True), EMPTY, EMPTY, EMPTY, EMPTY],
         "Ann's skyscrapers on plot 1 must be a whole number"),
        ([EMPTY, tower("alea", 2), EMPTY, EMPTY, EMPTY],
         "Alea's skyscrapers on plot 2 cannot be more than 1"),
        ([tower(""), EMPTY, EMPTY, EMPTY, EMPTY], "The owner of plot 1 must be a player's name"),
        ([tower(7), EMPTY, EMPTY, EMPTY, EMPTY], "The owner of plot 1 must be a player's name"),
        ([tower("Ann"), EMPTY, tower("Ann", 2), EMPTY, EMPTY],
         "Ann has skyscrapers on two plots of this district"),
    ],
)
def test_impossible_districts_are_refused(plots, message):
    for score in (district_points, plot_values, alea_build_plots, district_breakdown,
                  business_targets, check_district, lambda p: building_stop_points(p, "Ann"),
                  lambda p: bid_colours(p, COLOURS, "Ann")):
        with pytest.raises(RuleError, match=message):
            score(plots)


def test_alea_may_hold_several_plots_of_a_district():
    plots = [tower("alea"), EMPTY, tower("alea"), EMPTY, tower("alea")]
    assert district_points(plots) == {}


@pytest.mark.parametrize(
    "plots, where",
    [
        # One best plot: plot 1 touches boutique and jeweler (3 VP), plot 3 only jeweler (2 VP).
        ([shops("boutique"), EMPTY, shops("jeweler"), EMPTY, tower("Blue")], [1]),
        # Two tied best plots (3 types each, 5 VP): "he builds 1 skyscraper in each".
        ([shops("boutique"), EMPTY, shops("jeweler", "gallery"), EMPTY, shops("perfume")],
         [1, 3]),
        # Three tied, each next to boutiques only (2 VP).
        ([EMPTY, shops("boutique"), EMPTY, shops("boutique"), EMPTY], [0, 2, 4]),
        # A bare district: every plot is worth 1 VP, so all five are tied.
        ([EMPTY] * 5, [0, 1, 2, 3, 4]),
        # The most valuable plot is taken by a skyscraper: Alea builds on the best empty one.
        ([shops("boutique"), tower("Ann"), shops("jeweler"), EMPTY, EMPTY], [3, 4]),
        # Alea builds even where he already has skyscrapers, always on an empty plot.
        ([tower("alea"), shops("gallery"), EMPTY, shops("perfume", "jeweler"), tower("Ann")],
         [2]),
        # No empty plot: Alea declares a building stop instead.
        (FIG10, []),
    ],
)
def test_where_alea_builds(plots, where):
    assert alea_build_plots(plots) == where


@pytest.mark.parametrize(
    "plots, targets",
    [
        # Fig. 06-like: only plots with one business or none take a business.
        ([shops("gallery", "boutique"), tower("Ann"), EMPTY, shops("jeweler"), tower("alea")],
         [2, 3]),
        ([EMPTY] * 5, [0, 1, 2, 3, 4]),
        (FIG10, [4]),
    ],
)
def test_where_a_business_may_go(plots, targets):
    assert business_targets(plots) == targets


@pytest.mark.parametrize(
    "cards, most",
    [
        # "Blue wins an auction with 2 gray and 2 black number 4 cards: ... up to 3".
        ([4, 4, 4, 4], 3),
        # "Yellow wins with 2 violet 4s, 1 black 5 and 2 black 6s: ... only up to 1".
        ([4, 4, 5, 6, 6], 1),
        # "If he has at least one number 5 card (and no number 6 cards) ... up to 2".
        ([4, 5, 4], 2),
        ([5], 2),
        ([6], 1),
        ((4,), 3),
    ],
)
def test_max_skyscrapers(cards, most):
    assert max_skyscrapers(cards) == most


@pytest.mark.parametrize(
    "cards, message",
    [
        ([], "A bid needs at least one card"),
        ([4, 3], "Each card of a bid must be a 4, 5 or 6, not 3"),
        ([7], "must be a 4, 5 or 6, not 7"),
        (["4"], "must be a 4, 5 or 6, not '4'"),
        ([True], "must be a 4, 5 or 6, not True"),
        ([4.0], "must be a 4, 5 or 6, not 4.0"),
        ("44", "A bid must be given as a list of card values"),
        (None, "A bid must be given as a list of card values"),
    ],
)
def test_max_skyscrapers_refuses_impossible_bids(cards, message):
    with pytest.raises(RuleError, match=message):
        max_skyscrapers(cards)


@pytest.mark.parametrize(
    "cards, bid",
    [
        ([4, 4], 8),
        ([5, 5], 10),
        ([6, 6], 12),
        ([5, 4, 4], 13),
        ([4, 6, 4], 14),
        ([5, 6, 5], 16),
        ([6, 5, 6], 17),
        ([6, 5, 4, 4], 19),
        ([4, 6, 5, 5], 20),
        ([4, 5, 6, 6], 21),
    ],
)
def test_alea_bids_until_a_value_repeats(cards, bid):
    assert alea_bid(cards) == bid


def test_a_bid_is_a_sum_of_cards_worth_4_5_and_6():
    """Worked out by hand: 4, 5, 6 from one card; 8 = 4+4 ... 12 = 6+6; 13 = 4+4+5; from 8 on
    every number (each is 4 more than one 4 less); never 1, 2, 3 or 7 (found at a table: a
    high bid of 3 was taken, and Alea's draw worked out against it)."""
    possible = [n for n in range(0, 31) if bid_possible(n)]
    assert possible == [0, 4, 5, 6, *range(8, 31)]
    assert all(bid_possible(sum(cards)) for cards in ([4, 4, 5], [6, 6, 6, 5], [4] * 40))


@pytest.mark.parametrize(
    "cards, message",
    [
        ([], "No value has repeated yet"),
        ([4], "No value has repeated yet"),
        ([4, 5, 6], "No value has repeated yet"),
        ([4, 4, 5], "Alea's bid ended with the repeated 4: no card after it"),
        ([4, 5, 4, 4], "Alea's bid ended with the repeated 4: no card after it"),
        ([4, 7], "must be a 4, 5 or 6, not 7"),
        ([4, "4"], "must be a 4, 5 or 6, not '4'"),
        ([False, 4], "must be a 4, 5 or 6, not False"),
        ("44", "Alea's cards must be given as a list of card values"),
        (None, "Alea's cards must be given as a list of card values"),
    ],
)
def test_alea_bid_refusals(cards, message):
    with pytest.raises(RuleError, match=message):
        alea_bid(cards)


def test_alea_bids_only_ten_totals_and_always_bids():
    chances = alea_bid_distribution()
    assert list(chances) == [8, 10, 12, 13, 14, 16, 17, 19, 20, 21]
    assert sum(chances.values()) == 1
    assert all(isinstance(chance, Fraction) and chance > 0 for chance in chances.values())


@pytest.mark.parametrize(
    "bid, chance",
    [
        (8, Fraction(20 * 19, 50 * 49)),  # two 4s in a row
        (10, Fraction(16 * 15, 50 * 49)),
        (12, Fraction(14 * 13, 50 * 49)),
        # A 4, a 5 and a 6 in any of 3! orders, then one of the 13 sixes left.
        (21, Fraction(6 * 20 * 16 * 14 * 13, 50 * 49 * 48 * 47)),
    ],
)
def test_alea_bid_chances_by_hand(bid, chance):
    assert alea_bid_distribution()[bid] == chance


def _shuffled_bids(deck):
    """Every order of a small deck, labelled card by card: Alea's bid for each order."""
    cards = [value for value, count in deck.items() for _ in range(count)]
    orders = list(permutations(range(len(cards))))
    bids = {}
    for order in orders:
        drawn = []
        for position in order:
            drawn.append(cards[position])
            if len(set(drawn)) < len(drawn):
                break
        bid = alea_bid(drawn)
        bids[bid] = bids.get(bid, 0) + Fraction(1, len(orders))
    return bids


@pytest.mark.parametrize("deck", [{4: 2}, {4: 2, 5: 1}, {4: 2, 5: 2, 6: 1}, {4: 3, 5: 2, 6: 2}])
def test_small_decks_match_every_shuffle(deck):
    assert alea_bid_distribution(deck) == _shuffled_bids(deck)


def test_a_small_deck_by_hand():
    # 4,4 (2/3 x 1/2) -> 8; 4,5,4 (2/3 x 1/2) -> 13; 5,4,4 (1/3) -> 13.
    assert alea_bid_distribution({4: 2, 5: 1}) == {8: Fraction(1, 3), 13: Fraction(2, 3)}


@pytest.mark.parametrize(
    "deck, message",
    [
        ({4: 1, 5: 1, 6: 1}, "could run out before a value repeats"),
        ({}, "could run out before a value repeats"),
        ({4: 0, 5: 0, 6: 0}, "could run out before a value repeats"),
        ({4: 21}, "The black 4s cannot be more than 20"),
        ({6: 15}, "The black 6s cannot be more than 14"),
        ({5: -1, 4: 5}, "The black 5s cannot be less than 0"),
        ({5: 2.0}, "The black 5s must be a whole number"),
        ({7: 2, 4: 3}, "A black card must be a 4, 5 or 6, not 7"),
        ({"4": 3}, "A black card must be a 4, 5 or 6, not '4'"),
        ([4, 4, 5], "must be given as a count per value"),
    ],
)
def test_impossible_decks_are_refused(deck, message):
    with pytest.raises(RuleError, match=message):
        alea_bid_distribution(deck)
    with pytest.raises(RuleError, match=message):
        alea_beats_chance(10, deck)


@pytest.mark.parametrize(
    "high_bid, deck, chance",
    [
        (0, None, Fraction(1)),  # nobody bid: Alea wins
        (7, None, Fraction(1)),
        (21, None, Fraction(0)),  # he never bids more than 21
        (40, None, Fraction(0)),
        (8, None, 1 - Fraction(20 * 19, 50 * 49)),  # "less than or equal ... he is out"
        (20, None, Fraction(6 * 20 * 16 * 14 * 13, 50 * 49 * 48 * 47)),
        (12, {4: 2, 5: 1}, Fraction(2, 3)),
        (13, {4: 2, 5: 1}, Fraction(0)),
    ],
)
def test_the_chance_alea_beats_a_bid(high_bid, deck, chance):
    assert alea_beats_chance(high_bid, deck) == chance


@pytest.mark.parametrize(
    "high_bid, message",
    [(-1, "The high bid cannot be less than 0"), ("12", "The high bid must be a whole number"),
     (12.5, "The high bid must be a whole number")],
)
def test_the_chance_refuses_impossible_bids(high_bid, message):
    with pytest.raises(RuleError, match=message):
        alea_beats_chance(high_bid)


@pytest.mark.parametrize(
    "businesses, tiles_below, points",
    [
        (["boutique", "boutique", "boutique"], 3, 2),
        (["gallery", "perfume", "gallery"], 3, 3),
        (["gallery", "perfume", "jeweler"], 3, 5),
        (("jeweler", "boutique", "jeweler"), 8, 3),
        # Ruling: fewer than three tiles below Central Park, all are turned over.
        (["perfume", "jeweler"], 2, 3),
        (["perfume"], 1, 2),
        ([], 0, 2),  # "lowest is 2"
    ],
)
def test_central_park(businesses, tiles_below, points):
    assert central_park_points(businesses, tiles_below=tiles_below) == points


def test_central_park_takes_three_tiles_by_default():
    assert central_park_points(["gallery", "perfume", "boutique"]) == 5


@pytest.mark.parametrize(
    "businesses, tiles_below, message",
    [
        (["gallery", "perfume"], 3, "Turn over 3 businesses for Central Park, not 2"),
        (["gallery"] * 4, 5, "Turn over 3 businesses for Central Park, not 4"),
        ([], 3, "Turn over 3 businesses for Central Park, not 0"),
        (["gallery", "perfume", "boutique"], 2, "Turn over 2 businesses for Central Park, not 3"),
        (["gallery", "perfume", "bakery"], 3, "Unknown business 'bakery'"),
        ("gallery", 3, "must be given as a list"),
        (["gallery"] * 3, 9, "The businesses below Central Park cannot be more than 8"),
        (["gallery"] * 3, -1, "The businesses below Central Park cannot be less than 0"),
    ],
)
def test_central_park_refusals(businesses, tiles_below, message):
    with pytest.raises(RuleError, match=message):
        central_park_points(businesses, tiles_below=tiles_below)


@pytest.mark.parametrize(
    "placed, districts, points",
    [
        (3, 3, 4),
        (3, 7, 4),
        (3, 2, 0),
        (6, 4, 6),
        (6, 3, 0),
        (9, 5, 8),
        (9, 4, 0),
        (9, 7, 8),
        # "After the twelfth business ... there are no extra points for players."
        (12, 7, 0),
        (1, 7, 0),
        (4, 7, 0),
        (3, 0, 0),
    ],
)
def test_special_scorings(placed, districts, points):
    assert special_scoring_points(placed, districts) == points


@pytest.mark.parametrize(
    "placed, districts, message",
    [
        (0, 3, "The businesses placed on plots cannot be less than 1"),
        (13, 3, "The businesses placed on plots cannot be more than 12"),
        ("3", 3, "The businesses placed on plots must be a whole number"),
        (3, 8, "The districts with skyscrapers cannot be more than 7"),
        (3, -1, "The districts with skyscrapers cannot be less than 0"),
        (3, True, "The districts with skyscrapers must be a whole number"),
    ],
)
def test_special_scoring_refusals(placed, districts, message):
    with pytest.raises(RuleError, match=message):
        special_scoring_points(placed, districts)


def test_districts_built_counts_districts_not_skyscrapers():
    board = {
        "34w": FIG10,
        "times": [tower("Red", 5), EMPTY, EMPTY, EMPTY, EMPTY],
        "52e": [tower("Blue"), EMPTY, EMPTY, EMPTY, EMPTY],
        "42e": [EMPTY] * 5,
    }
    assert {p: districts_built(board, p) for p in ("Red", "Blue", "Yellow", "Ann")} == {
        "Red": 2, "Blue": 2, "Yellow": 1, "Ann": 0,
    }


@pytest.mark.parametrize(
    "board, player, message",
    [
        ({"central_park": [EMPTY] * 5}, "Red", "Unknown district 'central_park'"),
        ({"34w": [EMPTY] * 4}, "Red", "A district has 5 plots, not 4"),
        ([[EMPTY] * 5], "Red", "The board must be given district by district"),
        ({"34w": [EMPTY] * 5}, "", "The player must be a player's name"),
    ],
)
def test_districts_built_refusals(board, player, message):
    with pytest.raises(RuleError, match=message):
        districts_built(board, player)


@pytest.mark.parametrize(
    "position, stopped, moves",
    [
        ("city_hall", (), ["34w", "34e"]),
        ("34w", (), ["times", "42w"]),
        ("34e", (), ["times", "42e"]),
        ("times", (), ["52w", "52e"]),
        ("42w", (), ["52w"]),
        ("42e", (), ["52e"]),
        ("52w", (), ["central_park"]),
        ("52e", (), ["central_park"]),
        # Fig. 03: from Central Park only back to City Hall (which starts the auctions).
        ("central_park", (), ["city_hall"]),
        ("central_park", {"52e"}, ["city_hall"]),
        # Fig. 04, 52nd St East stopped: "the white commissioner to Central Park or to
        # 52nd St. West. Or ... the beige commissioner to 42nd St. West or Times Square."
        ("times", {"52e"}, ["52w", "central_park"]),
        ("34w", {"52e"}, ["times", "42w"]),
        # Skipping is recursive: past a stopped district to all the places after it.
        ("34e", {"times"}, ["42e", "52w", "52e"]),
        ("city_hall", ["34w", "34e"], ["times", "42w", "42e"]),
        ("42w", ["52w"], ["central_park"]),
        ("34e", ("times", "52e"), ["42e", "52w", "central_park"]),
        # A commissioner left in a district just stopped moves on from it as usual.
        ("52e", {"52e"}, ["central_park"]),
        ("times", {"times", "52w"}, ["52e", "central_park"]),
    ],
)
def test_commissioner_moves(position, stopped, moves):
    assert commissioner_moves(position, stopped) == moves


@pytest.mark.parametrize(
    "position, stopped, message",
    [
        ("moon", (), "Unknown position 'moon'"),
        ("Times Square", (), "Unknown position 'Times Square'"),
        (None, (), "Unknown position None"),
        ("times", "52e", "The building-stopped districts must be given as a list"),
        ("times", None, "The building-stopped districts must be given as a list"),
        ("times", ["city_hall"], "Unknown district 'city_hall'"),
        ("times", ["central_park"], "Unknown district 'central_park'"),
        ("times", ["34w", "42w", "42e"], "There are only two building stops in a game"),
    ],
)
def test_commissioner_moves_refusals(position, stopped, message):
    with pytest.raises(RuleError, match=message):
        commissioner_moves(position, stopped)


@pytest.mark.parametrize(
    "positions, stopped, districts",
    [
        # Fig. 03: "a player may score only 52nd St. East".
        ({"white": "central_park", "beige": "52e"}, (), ["52e"]),
        # Fig. 04: "either 34th Street West or Times Square".
        ({"white": "times", "beige": "34w"}, {"52e"}, ["34w", "times"]),
        # Both in City Hall or Central Park: "a player may not choose option D".
        ({"white": "city_hall", "beige": "central_park"}, (), []),
        ({"white": "city_hall", "beige": "city_hall"}, (), []),
        (["central_park", "central_park"], (), []),
        # Both commissioners in one district: it is scorable once.
        (["42e", "42e"], (), ["42e"]),
        (("52w", "34e"), (), ["34e", "52w"]),
        # A commissioner left in a stopped district: "it is as though it was never there".
        ({"white": "42w", "beige": "times"}, ["42w"], ["times"]),
    ],
)
def test_scorable_districts(positions, stopped, districts):
    assert scorable_districts(positions, stopped) == districts


@pytest.mark.parametrize(
    "positions, message",
    [
        ({"white": "times"}, "Give where the white and the beige commissioner stand"),
        ({"white": "times", "red": "34w"}, "Give where the white and the beige commissioner"),
        (["times"], "There are two commissioners, not 1"),
        (["times", "34w", "42w"], "There are two commissioners, not 3"),
        (["times", "park"], "Unknown position 'park'"),
        ("times", "The commissioners' positions must be given as a list"),
    ],
)
def test_scorable_districts_refusals(positions, message):
    with pytest.raises(RuleError, match=message):
        scorable_districts(positions, ())


# Fig. 08 and fig. 09 rebuilt: Red on orange, Yellow on green; violet has a business.
RING = ["violet", "orange", "gray", "green", "brown"]
FIG08 = [shops("perfume"), tower("Red", 2), EMPTY, tower("Yellow"), EMPTY]
FIG09 = [shops("perfume"), tower("Red", 2), shops("boutique"), tower("Yellow"), tower("Blue")]


@pytest.mark.parametrize(
    "plots, player, colours",
    [
        # Fig. 08: "Red may only choose the orange color to bid. Yellow may only choose green.
        # Blue and Green may only choose either the gray color or the brown color."
        (FIG08, "Red", ["orange"]),
        (FIG08, "Yellow", ["green"]),
        (FIG08, "Blue", ["gray", "brown"]),
        (FIG08, "Green", ["gray", "brown"]),
        # Fig. 09: "Blue may only choose brown. Green may only choose the violet color or the
        # gray color, trying for building stop."
        (FIG09, "Red", ["orange"]),
        (FIG09, "Blue", ["brown"]),
        (FIG09, "Green", ["violet", "gray"]),
        # Every plot holds someone else's skyscrapers (with Alea): no colour to bid with.
        ([tower("alea"), tower("Red"), tower("alea"), tower("Yellow"), tower("alea")], "Green",
         []),
        # Alea's plot is never a building-stop colour.
        ([tower("alea"), shops("gallery"), tower("Red"), tower("alea"), tower("Yellow")],
         "Green", ["orange"]),
    ],
)
def test_bid_colours(plots, player, colours):
    assert bid_colours(plots, RING, player) == colours


@pytest.mark.parametrize(
    "plot_colours, player, message",
    [
        (RING, "alea", "Alea bids with black cards"),
        (RING, "", "The bidder must be a player's name"),
        (RING[:4], "Green", "one plot of each of the five colours"),
        (RING[:4] + ["violet"], "Green", "one plot of each of the five colours"),
        (RING + ["violet"], "Green", "one plot of each of the five colours"),
        (RING[:4] + ["black"], "Green", "Unknown plot colour 'black'"),
        (RING[:4] + [None], "Green", "Unknown plot colour None"),
        ("violet", "Green", "The plot colours must be given as a list"),
    ],
)
def test_bid_colours_refusals(plot_colours, player, message):
    with pytest.raises(RuleError, match=message):
        bid_colours(FIG08, plot_colours, player)
