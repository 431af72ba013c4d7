"""An action recorded at the wrong moment, moved (`rules.move_edits`): the edits that put it
where it happened, each action between moving one place; refereed as any change is
(`rules.corrected`)."""

import pytest

from companion import rules
from companion.rules.common import RuleError
from companion.rules.log import Event
from tests import street_moves as moves

YARD = rules.GAMES["yard"]
NAMES = ["Tobi", "Nina"]


def log(*actions):
    """The actions as the app records them, numbered from 1."""
    state, events = YARD.start(NAMES), []
    for kind, payload in actions:
        payload = state.recorded(kind, payload)
        state.apply(kind, payload)
        events.append(Event(len(events) + 1, kind, payload))
    return events


def buy(player, building):
    return ("buy", {"player": player, "building": building, "for": player})


PLAYED = [Event(n, "buy", {"n": n}) for n in range(1, 6)]


def action(n):
    return ("buy", {"n": n})


@pytest.mark.parametrize(("seq", "to", "edits"), [
    (4, 2, {2: action(4), 3: action(2), 4: action(3)}),  # earlier: before #2
    (2, 4, {2: action(3), 3: action(4), 4: action(2)}),  # later: after #4
    (3, 4, {3: action(4), 4: action(3)}),  # next to each other: a swap
    (5, 1, {1: action(5), 2: action(1), 3: action(2), 4: action(3), 5: action(4)}),
])
def test_an_action_moved_shifts_each_one_between_by_one_place(seq, to, edits):
    assert rules.move_edits(PLAYED, seq, to) == edits


def test_an_action_moved_keeps_each_place_s_number_where_numbers_are_missing():
    """Actions undone or taken out leave gaps in the numbers: a move goes by the actions in
    force, not by numbers."""
    played = [PLAYED[0], PLAYED[2], PLAYED[4]]  # #1, #3, #5
    assert rules.move_edits(played, 5, 1) == {1: action(5), 3: action(1), 5: action(3)}


def test_alike_actions_next_to_each_other_change_nothing_by_moving():
    played = [Event(1, "buy", {"n": 1}), Event(2, "buy", {"n": 1})]
    assert rules.move_edits(played, 2, 1) == {}


@pytest.mark.parametrize(("seq", "to"), [(3, 3), (6, 2), (2, 6), (0, 1)])
def test_a_move_to_itself_or_of_no_action_in_force_is_refused(seq, to):
    with pytest.raises(RuleError, match=f"Action {seq} cannot be moved there."):
        rules.move_edits(PLAYED, seq, to)


def test_a_scoring_tapped_one_purchase_early_is_put_after_it_with_dirk_s_deal():
    """Found at a table: "Scoring A card drawn" tapped one purchase too early, noticed later.
    The purchase moved before the scoring: the scoring and Dirk's deal after it each move one
    place, nothing later is taken out, and the game is the one played in the right order (Nina's
    park counts in scoring A)."""
    start = [("dirk_deal", {"buildings": {"museum": 6}}), buy("Tobi", "park"),
             buy("Nina", "museum")]
    scoring = [("score", {"scoring": "A"}), ("dirk_deal", {"buildings": {"theater": 6}})]
    later = [buy("Tobi", "church"), buy("Nina", "station")]
    as_recorded = log(*start, *scoring, buy("Nina", "park"), *later)
    right = log(*start, buy("Nina", "park"), *scoring, *later)
    edits = rules.move_edits(as_recorded, 6, 4)
    assert sorted(edits) == [4, 5, 6]
    fix = rules.corrected(YARD, NAMES, as_recorded, edits)
    assert not fix.dropped and not fix.replaced
    assert fix.state.totals() == rules.replay(YARD, NAMES, right).state.totals()
    assert fix.state.totals() != rules.replay(YARD, NAMES, as_recorded).state.totals()
    assert [(e.kind, e.payload) for e in fix.played] == [(e.kind, e.payload) for e in right]


def test_a_move_is_said_as_a_move_and_any_other_change_as_its_edits():
    """Found at a table: a move said as "Scoring A → Ben bought a theater; Ben bought a theater
    → Scoring A" read as a scoring turned into a purchase."""
    played = log(("dirk_deal", {"buildings": {"museum": 6}}), buy("Tobi", "park"),
                 buy("Nina", "museum"), buy("Tobi", "church"))
    later = rules.corrected(YARD, NAMES, played, rules.move_edits(played, 2, 4)).change
    assert YARD.say_change(later) == "Moved: Tobi bought a park, after Tobi bought a church"
    earlier = rules.corrected(YARD, NAMES, played, rules.move_edits(played, 4, 2)).change
    assert YARD.say_change(earlier, proposed=True) == \
        "Move: Tobi bought a church, before Tobi bought a park"
    assert YARD.say_changed(earlier) == "Moved: Tobi bought a church, before Tobi bought a park"
    edits = {2: buy("Nina", "park"), 3: buy("Tobi", "park")}  # not each other's: no move
    assert YARD.say_change(rules.corrected(YARD, NAMES, played, edits).change) == (
        "Changed: Tobi bought a park → Nina bought a park; Nina bought a museum → Tobi bought "
        "a park")


STREET = rules.GAMES["street"]


def test_a_deck_said_empty_one_action_late_is_moved_to_where_it_ran_out():
    """Found at a table: Ola's deck ran out with Mia's purchase, and was said empty only after
    Ola took her upcoins. Moved back, it is read where it now stands (the turn and step it
    records are worked out there again: it was refused as "said when the 2nd action came
    next"), and the game is the one said in time."""
    said_late = [moves.build("Mia", 1, moves.card()),
                 moves.bought("Mia", 2, moves.card(), "Ola", cost=3),
                 ("upcoins", {"player": "Ola"}), ("deck_empty", {"player": "Ola", "by": "Mia"})]
    played = recorded_street(*said_late)
    edits = rules.move_edits(played, 4, 3)
    fix = rules.corrected(STREET, ["Mia", "Ola"], played, edits, moved=edits.keys())
    in_time = recorded_street(*said_late[:2], said_late[3], said_late[2])
    assert [(e.kind, e.payload) for e in fix.played] == [(e.kind, e.payload) for e in in_time]
    assert STREET.say_change(fix.change) == (
        "Moved: Ola's deck is empty: Mia took its last card, before Ola took the upcoins from "
        "their deck")
    with pytest.raises(RuleError):  # as recorded, not read here: refused as before
        rules.corrected(STREET, ["Mia", "Ola"], played, edits)


def test_a_move_never_changes_who_acted():
    """Moved past another player's action, an action is refused as out of turn: read where it
    stands, what it means is worked out again, but not who acted."""
    played = recorded_street(moves.build("Mia", 1, moves.card()), *moves.passes("Mia")[1:],
                             moves.build("Ola", 1, moves.card()))
    edits = rules.move_edits(played, 4, 3)
    with pytest.raises(RuleError, match="Ola"):
        rules.corrected(STREET, ["Mia", "Ola"], played, edits, moved=edits.keys())


def recorded_street(*actions):
    state, events = STREET.start(["Mia", "Ola"]), []
    for kind, payload in actions:
        payload = state.recorded(kind, payload)
        state.apply(kind, payload)
        events.append(Event(len(events) + 1, kind, payload))
    return events


def test_a_moved_action_keeps_the_time_it_was_tapped_in_the_history():
    """Found at a table: a deck said empty one action late and moved before the upcoins read
    in the history at the upcoins' time, and the upcoins at its time."""
    names = [*NAMES, "Paul"]  # no Dirk to deal to
    events = [Event(n, "buy", {"player": player, "building": building, "for": player},
                    f"2026-12-07T06:0{n}:00Z")
              for n, (player, building) in enumerate(
                  [("Tobi", "park"), ("Nina", "museum"), ("Tobi", "church")], start=1)]
    fix = rules.corrected(YARD, names, events, rules.move_edits(events, 3, 2))
    pad = rules.score_pad(YARD, names, [*events, Event(4, "change", fix.change,
                                                       "2026-12-07T06:09:00Z")])
    assert [(line.said, line.tapped or line.entry.event.at) for line in pad.lines] == [
        ("Tobi bought a park", "2026-12-07T06:01:00Z"),
        ("Tobi bought a church", "2026-12-07T06:03:00Z"),
        ("Nina bought a museum", "2026-12-07T06:02:00Z"),
        (pad.lines[3].said, "2026-12-07T06:09:00Z")]
