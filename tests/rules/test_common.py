"""What every game's referee shares (`companion.rules.common`): the final ranking with a game's
tie-break, the winners in words, seat order and the refusal of an action out of turn. Each
game's own tests check them again with its rulebook's examples (tests/rules/test_<slug>.py)."""

import pytest

from companion.rules.common import (
    Placing,
    RuleError,
    final_ranking,
    leaders,
    out_of_turn,
    require_turn,
    seat_after,
    winners,
    winners_text,
)
from companion.rules.text import QUOTED, Msg, Plural, terms


def test_the_leaders_are_every_player_on_the_most_points_in_seat_order():
    assert leaders({"Cy": 5, "Ann": 3, "Ben": 5}) == ["Cy", "Ben"]
    assert leaders({"Ann": 0, "Ben": 2}) == ["Ben"]


def test_equal_totals_share_a_place_without_a_tie_break():
    """The yard: "the rules break no tie". Places after a shared one are skipped (1, 1, 3)."""
    assert final_ranking({"Ann": 20, "Ben": 31, "Cy": 31, "Dee": 7}) == [
        Placing(1, "Ben", 31, True), Placing(1, "Cy", 31, True),
        Placing(3, "Ann", 20, False), Placing(4, "Dee", 7, False)]


def test_a_tie_break_orders_equal_totals_and_only_those():
    """Worked by hand: Ann and Cy tie on 30, Cy's tie-break value is higher, so Cy is 1st and
    Ann 2nd; Ben's higher tie-break value does not lift his lower total."""
    ranking = final_ranking({"Ann": 30, "Ben": 12, "Cy": 30}, {"Ann": 2, "Ben": 9, "Cy": 4})
    assert ranking == [Placing(1, "Cy", 30, False), Placing(2, "Ann", 30, False),
                       Placing(3, "Ben", 12, False)]


def test_equal_on_total_and_tie_break_is_a_shared_victory_in_seat_order():
    ranking = final_ranking({"Ann": 8, "Ben": 8, "Cy": 8}, {"Ann": 3, "Ben": 1, "Cy": 3})
    assert ranking == [Placing(1, "Ann", 8, True), Placing(1, "Cy", 8, True),
                       Placing(3, "Ben", 8, False)]
    assert winners(ranking) == ["Ann", "Cy"]
    assert winners_text(ranking) == "Shared victory: Ann and Cy."
    assert winners_text(ranking[1:]) == "Winner: Cy."


@pytest.mark.parametrize(("player", "seats", "expected"), [
    ("Ann", 1, "Ben"), ("Cy", 1, "Ann"), ("Ben", 0, "Ben"), ("Ben", 4, "Cy"), ("Cy", 5, "Ben")])
def test_seat_after_goes_clockwise_round_the_table(player, seats, expected):
    assert seat_after(["Ann", "Ben", "Cy"], player, seats) == expected


def test_an_action_out_of_turn_is_refused_in_the_same_words_in_every_game():
    require_turn("Ann", "Ann")  # the player at turn acts
    with pytest.raises(RuleError, match=r"^It is Ann's turn, not Ben's\.$"):
        require_turn("Ann", "Ben")
    assert out_of_turn("Mia", "Ola", "Mia's 2nd action comes next") == (
        "It is Mia's turn, not Ola's: Mia's 2nd action comes next.")


@pytest.mark.parametrize(("numbers", "said"), [
    ([7, -2, 0, 3], "7 − 2 + 0 + 3"), ([-2, 5], "−2 + 5"), ([0], "0"), ([], ""),
])
def test_a_sum_takes_a_negative_term_away_with_the_minus_sign(numbers, said):
    assert terms(numbers) == said


def test_a_value_quoted_as_sent_is_cut_short_and_a_short_one_kept_whole():
    """Found by a bad-input audit: a refusal repeated a tampered 40,000-character name whole."""
    assert Msg("{name!r} is not a player at this table.", name="Zed") == \
        "'Zed' is not a player at this table."
    said = Msg("{name!r} is not a player at this table.", name="A" * 40_000)
    assert said == "'" + "A" * (QUOTED - 2) + "\u2026 is not a player at this table."
    assert Plural("{n} card of {name!r}", "{n} cards of {name!r}", n=2, name="B" * 99) == \
        "2 cards of '" + "B" * (QUOTED - 2) + "\u2026"
    assert Msg("{name} builds", name="C" * 99) == "C" * 99 + " builds"  # not quoted: whole
