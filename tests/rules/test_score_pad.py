"""The history as a score pad: each action with the points it gave, plots by name."""

import pytest

from companion.rules import GAMES, PadLine, replay, score_pad, shown_together
from companion.rules.log import Event
from tests.tables import FINISHED
from tests.yard_moves import buy


def events(actions):
    return [Event(seq, kind, payload) for seq, (kind, payload) in enumerate(actions, start=1)]


def pad(slug, actions=None):
    names, logged = FINISHED[slug]
    return score_pad(GAMES[slug], names, events(logged if actions is None else actions)).lines


def test_a_purchase_scores_nothing_and_a_scoring_gives_each_majority_its_points():
    """Scoring A in the yard: the most parks score 5 (Paul has 2, Nina 1), the most churches 4
    (Tobi, alone); a purchase changes no total."""
    lines = pad("yard")
    said = [line.said for line in lines]
    assert said[:4] == ["Paul bought a park", "Paul bought a park", "Paul bought a park",
                        "Paul bought a park"]
    assert all(line.points == () for line in lines[:6])
    scoring_a = lines[6]
    assert scoring_a.said == "Scoring A"
    assert scoring_a.points == (("Paul", 5), ("Tobi", 4))


def test_undone_actions_give_no_points_and_undo_says_what_it_took_back():
    names, _ = FINISHED["yard"]
    lines = score_pad(GAMES["yard"], names, events([
        buy("Paul", "park"),
        ("score", {"scoring": "A"}), ("undo", {}),
    ])).lines
    assert [(line.entry.in_force, line.said, line.points) for line in lines] == [
        (True, "Paul bought a park", ()),
        (False, "Scoring A", ()),
        (True, "Scoring A", ()),  # the undo's line: "Undo: Scoring A"
    ]


@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_the_start_and_the_points_of_every_line_add_up_to_the_final_totals(slug):
    names, logged = FINISHED[slug]
    state = replay(GAMES[slug], names, events(logged)).state
    summed = dict.fromkeys(state.totals(), 0)
    scored = score_pad(GAMES[slug], names, events(logged))
    for line in [PadLine(None, "start", None, scored.start), *scored.lines]:
        for player, change in line.points:
            summed[player] += change
    assert summed == state.totals() and any(summed.values())


def test_fifth_avenue_names_plots_by_colour_and_the_owner_of_each_initial_skyscraper():
    """The test board's 52nd St West is violet, orange, gray, brown, green: plot 1 is orange,
    plot 2 gray (the log numbers plots from 0)."""
    lines = pad("fifth_avenue")
    assert lines[3].said == "Ann placed an initial skyscraper in 52nd St West, on the orange plot"
    # the rules' note says the whole placement (an Account), in place of the action's words
    assert lines[7].said == ("Ann placed a perfume shop in 52nd St West, on the gray plot: "
                             "business 1 of 12.")
    assert lines[7].note is None


def test_fifth_avenue_says_who_placed_a_business_and_who_moved_a_commissioner():
    """The payload names neither: the turn does (issue 23)."""
    said = [line.said for line in pad("fifth_avenue")]
    moves = [s for s in said if " moved the " in s]
    assert moves and all(s.split(" ")[0] in ("Ann", "Ben") for s in moves), moves
    assert not any(s.startswith(("Business placed", "The white", "The beige")) for s in said)


def test_a_consequence_is_said_once_and_only_when_it_adds_to_the_action():
    lines = pad("fifth_avenue")
    scored = next(line for line in lines if line.said.endswith("scored 52nd St West"))
    assert scored.note is None and scored.points == (("Ann", 5), ("Ben", 3))
    # a building stop's note says its rule, the points are said once, as the event's
    stop = next(line for line in lines if line.note and line.note.startswith("34th St East is "
                                                                            "closed."))
    assert stop.said == ("Ben won 34th St East for the green plot and declared a building stop "
                         "(cards 4)")
    assert stop.note == ("34th St East is closed. Ben scores 1 VP per skyscraper there, every "
                         "other player half their district score, rounded down.")
    assert stop.points == (("Ann", 1), ("Ben", 2))
    # a special scoring, after the business that brings it: its rule, and who scored as points
    special = next(line for line in lines if "Special scoring" in line.said)
    assert special.said.endswith(" Special scoring: 4 VP for skyscrapers in 3 districts or more.")
    assert special.points == (("Ann", 4),)
    # Urbanisation's note says the whole action, the card played too: said in place of its words
    urbanisation = pad("urbanisation")
    sown = urbanisation[42]
    assert sown.said == "Ann sowed 1 grain." and sown.note is None
    erected = urbanisation[23]
    assert erected.said == "Ann erected 1 skyscraper for $2: +2 VP. Card played: Architect."
    assert erected.note is None
    assert urbanisation[0].said == "Set up for 3 players, with Inventions; Ann starts."
    # an auction's note says less than its words, which have the cards drawn too: not said
    won = next(line for line in lines if line.said.startswith("Ann won Times Square"))
    assert won.said == "Ann won Times Square and built 2 skyscrapers on the brown plot (cards 5)"
    assert won.note is None
    # nor does Alea's, nor a win in Central Park (each said it again in other words)
    alea = [line for line in lines if line.said.startswith("Alea won") and "built" in line.said]
    assert ("Alea won 34th St West and built one skyscraper on each of the orange and green "
            "plots") in [line.said for line in alea]
    park = [line for line in lines if " won Central Park and built" in line.said]
    assert alea and park and all(line.note is None for line in alea + park), alea + park


def test_the_street_pad_starts_with_the_prestige_of_the_starting_money():
    """Street: each account starts at $10, worth 3 prestige (1 per $3) from the first moment,
    so the pad starts with it; the two roofs add 3 each, the corrections to $9 nothing."""
    names, logged = FINISHED["street"]
    scored = score_pad(GAMES["street"], names, events(logged))
    assert scored.start == (("Mia", 3), ("Ola", 3))
    assert [line.points for line in scored.lines if line.points] == [(("Ola", 3),),
                                                                     (("Mia", 3),)]


def test_alea_s_draw_is_said_with_the_high_bid_only_when_it_was_entered():
    from companion.rules.fifth_avenue_table import describe

    assert describe("alea_bid", {"cards": [4, 6, 4], "high_bid": 12}) == (
        "Alea's cards 4 6 4 against a high bid of 12")
    assert describe("alea_bid", {"cards": [5, 5]}) == "Alea's cards 5 5"
    assert describe("alea_bid", {"cards": [5, 5], "place": "times"}) == (
        "Times Square: Alea's cards 5 5")


@pytest.mark.parametrize(("said", "note", "shown"), [
    # The note says more: beside the words.
    ("Scoring A", "Ann +13, Ben +6.", ("Scoring A", "Ann +13, Ben +6.")),
    # The words begin with the note: it says nothing more.
    ("Ann won Times Square and built 3 skyscrapers on the brown plot (cards 4)",
     "Ann won Times Square and built 3 skyscrapers on the brown plot.",
     ("Ann won Times Square and built 3 skyscrapers on the brown plot (cards 4)", None)),
    # The note begins with the words: it says the action in their place (a change's preview
    # said "Ben took 3 skyscrapers (option A): Ben took 3 skyscrapers (option A): 6 in supply.").
    ("Ben took 3 skyscrapers (option A)", "Ben took 3 skyscrapers (option A): 6 in supply.",
     ("Ben took 3 skyscrapers (option A): 6 in supply.", None)),
    ("Ann bought a park", None, ("Ann bought a park", None)),
])
def test_an_action_and_its_note_are_shown_together_saying_nothing_twice(said, note, shown):
    assert shown_together(said, note) == shown
