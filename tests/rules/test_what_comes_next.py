"""What comes next, as the strip says it (`up_next`), held to the rulebooks' sentences of turn
and end, one test per sentence and game (issue 41). The words come from the rules' state: each
test plays to the position the sentence is about and reads them there."""

from companion import rules
from companion.rules.log import Event
from companion.rules.urbanisation_example import ADMIN, SETUP, TURN_1
from tests import street_moves as street
from tests.yard_moves import buy


def played(slug, players, *actions):
    events = [Event(n, kind, payload) for n, (kind, payload) in enumerate(actions, 1)]
    return rules.replay(rules.GAMES[slug], list(players), events).state


YARD_START = ("starting_money", {"cards": {"Ann": 4, "Ben": 3, "Cy": 5},
                                 "totals": {"Ann": 21, "Ben": 22, "Cy": 20}})


def test_yard_the_next_player_in_clockwise_direction():
    """"Then the next player in clockwise direction performs their turn" (a player who paid
    exactly goes on first)."""
    state = played("yard", ["Ann", "Ben", "Cy"], YARD_START, buy("Ben", "park"))
    assert state.up_next == "Ben goes on after paying exactly; otherwise it is Cy's turn."


def test_yard_a_scoring_card_comes_before_the_next_player_s_turn():
    """"When a scoring card is revealed scoring takes place immediately, before the next
    player's turn. As reminder place the scoring card in front of the next player." The card is
    drawn when the money display is refilled after a turn in which money was taken, which the
    app does not record: after Ben's purchase, Cy may have taken the money that drew it (then
    Ann is next), or Ben after paying exactly (then Cy). So the next player goes unnamed."""
    state = played("yard", ["Ann", "Ben", "Cy"], YARD_START, buy("Ben", "park"),
                   ("score", {"scoring": "A"}))
    assert state.up_next == ("Scoring A done: its card goes in front of the next player, "
                             "whose turn it is.")


def test_street_after_both_actions_the_next_player_to_the_left():
    """"After doing both actions, a player's turn ends, and the next player (to the left)
    starts their turn.\""""
    state = played("street", ["Mia", "Ola", "Pit"], *street.passes("Mia"))
    assert state.up_next == "Ola's 1st action comes next"
    state = played("street", ["Mia", "Ola", "Pit"], street.discard("Mia"))
    assert state.up_next == "Mia's 2nd action comes next"


def test_street_the_final_round_ends_with_the_player_right_of_the_start_player():
    """"Complete the current round (i.e. player turns continue until the end of the turn of
    the last player, sitting to the right of the starting player), and then the game is
    over.\""""
    roofs = [street.build("Mia", 1, street.ROOF), street.public("Mia", 2, street.ROOF),
             *street.passes("Ola"), street.build("Mia", 3, street.ROOF),
             street.public("Mia", 4, street.ROOF), *street.passes("Ola"),
             street.build("Mia", 5, street.ROOF), *street.takes_public("Mia")]
    state = played("street", ["Mia", "Ola"], *roofs)
    assert state.final_round and state.up_next == "Ola's 1st action comes next"
    state = played("street", ["Mia", "Ola"], *roofs, *street.passes("Ola"))
    assert state.up_next == "The final round is complete: score the game."


FIFTH_START = [
    ("profile", {"colours": rules.fifth_avenue_table.DEFAULT_PROFILE,
                 "set_sizes": list(rules.fifth_avenue_table.DEFAULT_SET_SIZES)}),
    ("setup", {"start": {d: {"plot": 0, "kind": "boutique"}
                         for d in rules.fifth_avenue_table.DISTRICT_IDS},
               "row": ["boutique", "jeweler", "gallery", "perfume"] * 5, "turns": True}),
    ("first_placer", {"player": "Ben"}),
]


def test_fifth_avenue_initial_skyscrapers_counter_clockwise_then_back():
    """"... one skyscraper (in counter-clockwise order). Now, ... in clockwise order, beginning
    with the player who placed last.\""""
    placed = [("initial_skyscraper", {"district": d, "plot": 1})
              for d in ("34w", "34e", "times", "42w")]
    placers = [played("fifth_avenue", ["Ann", "Ben", "Cy"], *FIFTH_START, *placed[:n]).up_next
               for n in range(4)]
    assert placers == ["Ben places an initial skyscraper.", "Ann places an initial skyscraper.",
                       "Cy places an initial skyscraper.", "Cy places an initial skyscraper."]


def test_fifth_avenue_the_starting_player_begins_then_clockwise():
    """"The starting player begins and play continues from there in clockwise order.\""""
    placed = [("initial_skyscraper", {"district": d, "plot": 1})
              for d in ("34w", "34e", "times", "42w")]
    state = played("fifth_avenue", ["Ann", "Ben"], *FIFTH_START, *placed)
    assert state.up_next == "Ben's turn: the 1st action (A, B, C or D)."
    state = played("fifth_avenue", ["Ann", "Ben"], *FIFTH_START, *placed,
                   ("skyscrapers", {"player": "Ben"}))
    assert state.up_next == "Ben's turn: the 3rd action, a commissioner's move."
    state = played("fifth_avenue", ["Ann", "Ben"], *FIFTH_START, *placed,
                   ("skyscrapers", {"player": "Ben"}),
                   ("move", {"commissioner": "white", "to": "34w"}))
    assert state.up_next == "Ann's turn: the 1st action (A, B, C or D)."


def test_urbanisation_each_action_phase_in_clockwise_order_from_the_start_player():
    """"In each action phase each player (in clockwise order, ...)": the start player first,
    the characters before the actions, four action phases, then the administration."""
    players = ["Ann", "Ben", "Cy"]
    assert played("urbanisation", players, SETUP).up_next == "Turn 1: Ann chooses a character."
    assert played("urbanisation", players, SETUP, *TURN_1[:3]).up_next == (
        "Turn 1, action phase 1 of 4: Ann acts.")
    assert played("urbanisation", players, SETUP, *TURN_1[:4]).up_next == (
        "Turn 1, action phase 1 of 4: Ben acts.")
    assert played("urbanisation", players, SETUP, *TURN_1[:6]).up_next == (
        "Turn 1, action phase 2 of 4: Ann acts.")
    assert played("urbanisation", players, SETUP, *TURN_1[:-1]).up_next == (
        "All actions are taken: do the administration.")


def test_urbanisation_the_mayor_starts_the_next_turn():
    """The Mayor "becomes the start player": the fewest VP (Cy, after turn 1) chooses first."""
    players = ["Ann", "Ben", "Cy"]
    state = played("urbanisation", players, SETUP, *TURN_1[:-1], ADMIN)
    assert state.up_next == "Turn 2: Cy chooses a character."
