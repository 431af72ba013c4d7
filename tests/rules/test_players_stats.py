"""Players across tables: the names to suggest, finished results and statistics, worked by hand."""

from decimal import Decimal

import pytest

from companion.players import (
    Chart,
    Finished,
    GameStats,
    Record,
    Result,
    Score,
    by_game,
    chart,
    display_name,
    finished,
    known_names,
    player_stats,
    records,
)
from companion.rules.log import Event


def table(game, at, *results):
    """A finished table from (player, total, place, shared) lines."""
    return Finished(game, at, tuple(Result(*line) for line in results))


# Three yard tables (one with a shared victory, one whose names were typed in lower case) and a
# street table won jointly by everyone.
YARD_1 = table("yard", "2025-01-01T20:00:00+00:00",
               ("Tobi", 40, 1, False), ("Nina", 37, 2, False))
YARD_2 = table("yard", "2025-01-05T20:00:00+00:00",
               ("nina", 50, 1, True), ("tobi", 50, 1, True), ("Paul", 12, 3, False))
YARD_3 = table("yard", "2025-01-03T20:00:00+00:00",
               ("Paul", 30, 1, False), ("Tobi", 21, 2, False))
STREET = table("street", "2025-01-04T20:00:00+00:00",
               ("Mia", 3, 1, True), ("Tobi", 3, 1, True))
TABLES = [YARD_1, YARD_2, YARD_3, STREET]


def test_a_players_record_per_game_in_date_order():
    """Tobi: yard 40 (won), 21 (2nd), 50 (shared win); street 3 (shared win)."""
    assert player_stats(TABLES, "TOBI") == [
        GameStats("yard", (
            Score("2025-01-01T20:00:00+00:00", 40, 1, False),
            Score("2025-01-03T20:00:00+00:00", 21, 2, False),
            Score("2025-01-05T20:00:00+00:00", 50, 1, True),
        )),
        GameStats("street", (Score("2025-01-04T20:00:00+00:00", 3, 1, True),)),
    ]


@pytest.mark.parametrize(("name", "game", "played", "wins", "shared", "average", "best"), [
    # (40 + 21 + 50) / 3 = 37; the shared first place of the 5th counts as a win.
    ("Tobi", "yard", 3, 2, 1, "37.0", 50),
    ("Tobi", "street", 1, 1, 1, "3.0", 3),
    # (37 + 50) / 2 = 43.5
    ("Nina", "yard", 2, 1, 1, "43.5", 50),
    # (12 + 30) / 2 = 21
    ("paul", "yard", 2, 1, 0, "21.0", 30),
])
def test_played_wins_average_and_best(name, game, played, wins, shared, average, best):
    stats = {s.game: s for s in player_stats(TABLES, name)}[game]
    assert (stats.played, stats.wins, stats.shared_wins, stats.average, stats.best) == (
        played, wins, shared, Decimal(average), best)


@pytest.mark.parametrize(("totals", "average"), [
    ([10, 11], "10.5"),
    ([10, 11, 11, 11], "10.8"),  # 10.75, half up
    ([0, 0, 0, 1], "0.3"),  # 0.25, half up (not to even)
    ([1, 1, 2], "1.3"),  # 1.333...
    ([1, 2, 2], "1.7"),  # 1.666...
    ([7], "7.0"),
])
def test_the_average_is_rounded_to_one_decimal_halves_up(totals, average):
    stats = GameStats("yard", tuple(Score("", t, 2, False) for t in totals))
    assert stats.average == Decimal(average)


def test_games_are_kept_apart_and_strangers_have_no_record():
    assert [s.game for s in player_stats(TABLES, "Mia")] == ["street"]
    assert player_stats(TABLES, "Zoe") == []


def test_the_list_of_players_most_games_first_then_wins():
    assert records(TABLES) == [
        Record("tobi", 4, 3),  # typed in lower case at the last table, on the 5th
        Record("nina", 2, 1),
        Record("Paul", 2, 1),
        Record("Mia", 1, 1),
    ]


def test_a_name_is_shown_as_last_typed_and_matched_ignoring_case():
    assert display_name(TABLES, "NINA") == "nina"
    assert display_name(TABLES, "Tobi") == "tobi"
    assert display_name([YARD_1, YARD_3, STREET], "tobi") == "Tobi"
    assert display_name(TABLES, "Zoe") is None


def test_finished_tables_by_game_newest_first():
    assert by_game(TABLES) == {"yard": [YARD_2, YARD_3, YARD_1], "street": [STREET]}
    assert by_game([]) == {}


def test_winners_and_shared_victories():
    assert (YARD_1.winners, YARD_1.shared_victory) == (["Tobi"], False)
    assert (YARD_2.winners, YARD_2.shared_victory) == (["nina", "tobi"], True)


# Names to suggest ---------------------------------------------------------------------------


def test_known_names_most_tables_first_as_last_typed():
    tables = [
        ("yard", ["Tobi", "Nina", "Paul"]),
        ("street", ["nina", "Mia"]),
        ("urbanisation", ["Mia", "NINA", "Ola"]),
        ("yard", ["Ola", "Tobi", "Paul"]),
    ]
    # Nina 3; Tobi, Paul, Mia, Ola 2 each, the most recently seen first, then by name.
    assert known_names(tables) == ["NINA", "Ola", "Paul", "Tobi", "Mia"]


def test_automated_opponents_are_not_people():
    tables = [
        ("yard", ["Tobi", "Dirk"]),  # Dirk is the automated opponent of 2-player yard
        ("fifth_avenue", ["Ada", "alea", "Ben"]),  # Alea is 5th Avenue's, always
        ("yard", ["Tobi", "Nina", "Dirk"]),  # with three players, Dirk is a person
    ]
    assert known_names(tables) == ["Tobi", "Dirk", "Nina", "Ada", "Ben"]
    assert known_names([]) == []


# Results by replaying a table's log ----------------------------------------------------------


def events(*actions):
    return [Event(seq, kind, payload, f"2025-02-0{seq}T10:00:00+00:00")
            for seq, (kind, payload) in enumerate(actions, start=1)]


YARD_GAME = events(
    ("buy", {"player": "Tobi", "building": "park"}),
    ("buy", {"player": "Nina", "building": "skyscraper"}),
    ("score", {"scoring": "A"}),
    ("score", {"scoring": "B"}),
    ("final", {"money": {}, "leftovers": []}),
)


def test_a_finished_table_is_replayed_to_its_final_ranking():
    assert finished("yard", ["Tobi", "Nina", "Paul"], YARD_GAME) == Finished(
        "yard", "2025-02-05T10:00:00+00:00",
        (Result("Nina", 40, 1, False), Result("Tobi", 37, 2, False), Result("Paul", 0, 3, False)))


def test_a_two_player_yard_game_leaves_dirk_out():
    result = finished("yard", ["Tobi", "Nina"], events(
        ("dirk_deal", {"deal": "setup", "buildings": {"park": 6}}),
        ("score", {"scoring": "A"}),
        ("dirk_deal", {"deal": "A", "buildings": {"museum": 6}}),
        ("score", {"scoring": "B"}),
        ("dirk_deal", {"deal": "B", "buildings": {"church": 9, "theater": 3}}),
        ("final", {"money": {}, "leftovers": []}),
    ))
    assert result is not None and [r.player for r in result.results] == ["Tobi", "Nina"]


@pytest.mark.parametrize(("game", "log"), [
    ("yard", YARD_GAME[:-1]),  # not finished
    ("yard", YARD_GAME[:-1] + events(("nonsense", {}))[:1]),  # the rules refuse the log
    ("yard", YARD_GAME + events(("undo", {}))),  # the end was taken back
    ("chess", YARD_GAME),  # unknown game
    ("yard", []),
])
def test_tables_without_a_final_result_are_left_out(game, log):
    assert finished(game, ["Tobi", "Nina", "Paul"], log) is None


# The chart ------------------------------------------------------------------------------------


def test_the_chart_puts_the_lowest_score_at_the_bottom_and_the_highest_at_the_top():
    # x from 40 to 310 in steps of 135; y from 108 (lowest, 10) to 12 (highest, 20).
    assert chart([10, 20, 15]) == Chart(320, 120, 40, 12, 108, 10, 20,
                                        ((40, 108), (175, 12), (310, 60)))
    assert chart([10, 20, 15]).polyline == "40,108 175,12 310,60"


def test_one_score_or_equal_scores_sit_halfway_up():
    assert chart([7]).points == ((175, 60),)
    assert chart([5, 5]).points == ((40, 60), (310, 60))
