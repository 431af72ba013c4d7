"""The construction-yard rules: the rulebook's worked examples and ties worked out by hand."""

import pytest

from companion.rules.common import RuleError
from companion.rules.yard import (
    dirk_draws,
    explain_round,
    leftover_owner,
    majority_line,
    money_piles,
    score_round,
    starting_candidates,
)


@pytest.mark.parametrize(
    "counts, scoring, expected",
    [
        # Rulebook: "The player owning the most white building cards gains 4 points."
        ({"Lucy": {"church": 3}, "Paul": {"church": 1}}, "A", {"Lucy": 4, "Paul": 0}),
        # Rulebook: most purple cards 13 points, second most 6 points (scoring B).
        ({"Lucy": {"skyscraper": 4}, "Paul": {"skyscraper": 2}}, "B", {"Lucy": 13, "Paul": 6}),
        # Rulebook: Tobi and Nina own 4 purple each: 13 + 6 = 19, 9 each, rounded down.
        ({"Tobi": {"skyscraper": 4}, "Nina": {"skyscraper": 4}}, "B", {"Tobi": 9, "Nina": 9}),
        # Rulebook: Paul and Nina 3 green each: 20 + 12 = 32 : 2 = 16; Tobi and Kate 2 each:
        # 5 : 2 = 2 (rounded down).
        (
            {"Paul": {"park": 3}, "Nina": {"park": 3}, "Tobi": {"park": 2}, "Kate": {"park": 2}},
            "C",
            {"Paul": 16, "Nina": 16, "Tobi": 2, "Kate": 2},
        ),
    ],
)
def test_rulebook_examples(counts, scoring, expected):
    assert score_round(counts, scoring) == expected


@pytest.mark.parametrize(
    "counts, scoring, expected",
    [
        # Three-way tie for 1st in C: (20 + 12 + 5) / 3 = 12 each.
        ({"A": {"park": 3}, "B": {"park": 3}, "C": {"park": 3}}, "C", {"A": 12, "B": 12, "C": 12}),
        # Three-way tie in B: ranks 1-3, rank 3 pays nothing in B: (12 + 5 + 0) / 3 = 5.
        ({"A": {"park": 1}, "B": {"park": 1}, "C": {"park": 1}}, "B", {"A": 5, "B": 5, "C": 5}),
        # Tie for 1st in A: only rank 1 pays: 5 / 2 = 2 each.
        ({"A": {"park": 2}, "B": {"park": 2}, "C": {"park": 1}}, "A", {"A": 2, "B": 2, "C": 0}),
        # Tie for 2nd in B: ranks 2-3 share 6 + 0: 3 each.
        (
            {"A": {"skyscraper": 5}, "B": {"skyscraper": 3}, "C": {"skyscraper": 3}},
            "B",
            {"A": 13, "B": 3, "C": 3},
        ),
        # Tie for 2nd in C: ranks 2-3 share 8 + 1 = 9: 4 each.
        (
            {"A": {"museum": 3}, "B": {"museum": 2}, "C": {"museum": 2}},
            "C",
            {"A": 16, "B": 4, "C": 4},
        ),
        # Nobody holds any: nobody ranks, nobody scores.
        ({"A": {}, "B": {"park": 0}}, "C", {"A": 0, "B": 0}),
        # Players with 0 do not rank, even when ranks would pay: the lone holder is 1st.
        ({"A": {"theater": 1}, "B": {}, "C": {}}, "C", {"A": 17, "B": 0, "C": 0}),
        # Six players in C: ranks 1-2 share 16 + 8 = 24 (12 each); ranks 3-5 share 1 + 0 + 0,
        # rounded down to 0; the player without a museum gets nothing.
        (
            {
                "P1": {"museum": 2}, "P2": {"museum": 2}, "P3": {"museum": 1},
                "P4": {"museum": 1}, "P5": {"museum": 1}, "P6": {"museum": 0},
            },
            "C",
            {"P1": 12, "P2": 12, "P3": 0, "P4": 0, "P5": 0, "P6": 0},
        ),
        # Dirk in a three-way tie for 1st in A: 5 / 3 = 1 each.
        (
            {"Tobi": {"park": 3}, "Nina": {"park": 3}, "Dirk": {"park": 3}},
            "A",
            {"Tobi": 1, "Nina": 1, "Dirk": 1},
        ),
        # Dirk 1st, a tie behind him in C: Dirk 21; ranks 2-3 share 13 + 6 = 19: 9 each.
        (
            {"Tobi": {"skyscraper": 2}, "Nina": {"skyscraper": 2}, "Dirk": {"skyscraper": 5}},
            "C",
            {"Tobi": 9, "Nina": 9, "Dirk": 21},
        ),
        # Every building at once, scoring B: the sums add up per player.
        (
            {
                "A": {"museum": 2, "theater": 1, "station": 3, "church": 0, "park": 4,
                      "skyscraper": 1},
                "B": {"museum": 1, "theater": 1, "station": 3, "church": 2, "park": 1,
                      "skyscraper": 0},
            },
            "B",
            # A: museum 8, theater (9+2)//2=5, station (10+3)//2=6, park 12, skyscraper 13 = 44
            # B: museum 1, theater 5, station 6, church 11, park 5 = 28
            {"A": 44, "B": 28},
        ),
    ],
)
def test_ties_worked_out_by_hand(counts, scoring, expected):
    assert score_round(counts, scoring) == expected


def test_the_arithmetic_of_a_split_is_shown():
    results = explain_round({"Tobi": {"skyscraper": 4}, "Nina": {"skyscraper": 4}}, "B")
    skyscraper = next(r for r in results if r.building == "skyscraper")
    assert skyscraper.lines() == [
        "Tobi and Nina tie for 1st-2nd with 4 skyscrapers: 13 + 6 = 19, 9 each"
    ]


def test_a_lone_player_and_a_tie_below_are_both_explained():
    counts = {"Paul": {"park": 3}, "Tobi": {"park": 2}, "Kate": {"park": 2}}
    park = next(r for r in explain_round(counts, "C") if r.building == "park")
    assert park.lines() == [
        "Paul is 1st with 3 parks: 20",
        "Tobi and Kate tie for 2nd-3rd with 2 parks: 12 + 5 = 17, 8 each",
    ]


@pytest.mark.parametrize(
    "counts, scoring, message",
    [
        ({"A": {"castle": 1}}, "A", "Unknown building 'castle'"),
        ({"A": {"park": 1}}, "D", "Unknown scoring 'D'"),
        ({"A": {"park": -1}}, "A", "A's parks cannot be less than 0"),
        ({"A": {"park": 1.5}}, "A", "A's parks must be a whole number"),
        ({"A": {"park": True}}, "A", "A's parks must be a whole number"),
        ({"A": {"park": "3"}}, "A", "A's parks must be a whole number"),
        ({"A": {"park": 6}, "B": {"park": 6}}, "A",
         "There are only 11 parks in the game, but 12 are entered."),
        ({"A": {"museum": 8}}, "C", "A's museums cannot be more than 7"),
        ({"A": {"museum": 4}, "B": {"museum": 2}, "Dirk": {"museum": 2}}, "C",
         "There are only 7 museums in the game, but 8 are entered."),
        ({"A": ["park"]}, "A", "The buildings of A must be given by type."),
    ],
)
def test_impossible_counts_are_refused(counts, scoring, message):
    with pytest.raises(RuleError, match=message):
        score_round(counts, scoring)


def test_the_whole_supply_is_allowed():
    counts = {"A": {"museum": 7, "park": 11}, "B": {}}
    assert score_round(counts, "C") == {"A": 16 + 20, "B": 0}


@pytest.mark.parametrize(
    "currency, money, owner",
    [
        ("blue", {"A": {"blue": 7}, "B": {"blue": 5}}, "A"),
        ("blue", {"A": {"blue": 7}, "B": {"blue": 7}}, None),  # a tie: nobody buys it
        ("blue", {"A": {"green": 9}, "B": {}}, None),  # nobody holds blue
        ("green", {"A": {"green": 1}, "B": {"blue": 30}, "C": {}}, "A"),
        ("orange", {"A": {"orange": 3}, "B": {"orange": 3}, "C": {"orange": 4}}, "C"),
        ("yellow", {}, None),
    ],
)
def test_leftover_card_goes_to_strictly_most_money(currency, money, owner):
    assert leftover_owner(currency, money) == owner


@pytest.mark.parametrize(
    "currency, money, message",
    [
        ("pink", {"A": {"blue": 1}}, "Unknown currency 'pink'"),
        ("blue", {"A": {"blue": -1}}, "cannot be less than 0"),
        ("blue", {"A": {"blue": 10**9}}, "cannot be more than 135"),
    ],
)
def test_leftover_refuses_impossible_money(currency, money, message):
    with pytest.raises(RuleError, match=message):
        leftover_owner(currency, money)


@pytest.mark.parametrize(
    "after, deck_left, cards",
    [
        ("setup", 50, 6),
        ("A", 30, 6),
        ("A", 4, 4),  # never more than the deck holds
        ("B", 20, 6),
        ("B", 17, 5),  # a third, rounded down
        ("B", 2, 0),
        ("B", 0, 0),
    ],
)
def test_dirk_draws(after, deck_left, cards):
    assert dirk_draws(after, deck_left) == cards


@pytest.mark.parametrize("after, deck_left", [("C", 10), ("setup", -1), ("A", 99), ("B", "9")])
def test_dirk_draws_refuses_nonsense(after, deck_left):
    with pytest.raises(RuleError):
        dirk_draws(after, deck_left)


@pytest.mark.parametrize(
    "players, starting_cards, piles",
    [
        (4, 16, [18, 18, 18, 17, 17]),  # 108 - 16 - 4 = 88
        (2, 8, [12, 12, 12, 12, 12]),  # 72 - 8 - 4 = 60
        (6, 24, [16, 16, 16, 16, 16]),  # 108 - 24 - 4 = 80
        (3, 11, [19, 19, 19, 18, 18]),  # 108 - 11 - 4 = 93
    ],
)
def test_money_piles_are_as_equal_as_possible(players, starting_cards, piles):
    assert money_piles(players, starting_cards) == piles


@pytest.mark.parametrize(
    "cards, totals, candidates",
    [
        ({"A": 3, "B": 4, "C": 3}, {"A": 22, "B": 20, "C": 21}, ["C"]),  # fewest, then lowest
        ({"A": 3, "B": 4}, {"A": 25, "B": 20}, ["A"]),  # cards count before the total
        ({"A": 3, "B": 3, "C": 4}, {"A": 21, "B": 21, "C": 20}, ["A", "B"]),  # youngest decides
    ],
)
def test_who_may_start(cards, totals, candidates):
    assert starting_candidates(cards, totals) == candidates


@pytest.mark.parametrize(
    "counts, line",
    [
        ({"A": 0, "B": 0}, "nobody yet"),
        ({"A": 3, "B": 1}, "A leads by 2"),
        ({"A": 2, "B": 0}, "A leads by 2"),
        ({"A": 2, "B": 2, "C": 1}, "A and B tie at 2"),
    ],
)
def test_majority_line(counts, line):
    assert majority_line("park", counts) == line
