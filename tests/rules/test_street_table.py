"""A street game replayed from its actions: building, income at every roof, gifts, buying, the
end of the game and its last turn. Every log is a legal game: players act in seat order, the 1st
action takes the top card of one's own deck for free (or the upcoins on it), the 2nd buys."""

import copy
import pickle

import pytest

from companion.rules import GAMES, replay
from companion.rules.common import RuleError
from companion.rules.log import Event
from companion.rules.street_table import FIRST, PLACE_BOUGHT, SECOND
from tests.street_moves import (
    LOSS,
    OFFICE_2,
    ROOF,
    bought,
    build,
    buy,
    card,
    discard,
    passes,
    public,
    takes_public,
)

GAME = GAMES["street"]


def upcoins(player):
    return ("upcoins", {"player": player})


def play(players, *actions):
    events = [Event(seq, kind, payload) for seq, (kind, payload) in enumerate(actions, 1)]
    return replay(GAME, players, events).state


def frozen(state):
    """Everything the table holds, to compare before and after a refusal."""
    return pickle.dumps(state)


def test_a_roof_pays_the_income_of_the_whole_street():
    state = play(["Mia", "Ola", "Pit"], build("Mia", 1, OFFICE_2), public("Mia", 2, OFFICE_2),
                 *passes("Ola"), *passes("Pit"), build("Mia", 1, ROOF))
    assert state.accounts["Mia"] == 10 + 4
    assert state.payouts[-1].owner == "Mia" and state.payouts[-1].paid == 4
    assert [line.text for line in state.payouts[-1].lines] == [
        "Site 1, floor 1: +2 = +2", "Site 2, floor 1: +2 = +2"]
    assert state.finished_sites("Mia") == [True, False, False, False, False]


def test_negative_income_pays_nothing():
    state = play(["Mia", "Ola"], build("Mia", 1, LOSS), public("Mia", 1, ROOF))
    assert state.payouts[-1].income == -5 and state.payouts[-1].paid == 0
    assert state.accounts["Mia"] == 10


def test_a_gift_that_finishes_a_site_pays_the_owner_not_the_giver():
    gift_roof = card(project=None, roof=True, gift=True)
    state = play(["Mia", "Ola"], build("Mia", 3, OFFICE_2), buy("Mia", "public"),
                 discard("Mia"), build("Ola", 3, gift_roof, "Mia"))
    assert state.accounts == {"Mia": 12, "Ola": 10}
    with pytest.raises(RuleError, match="^A gift can only be built on an opponent's site"):
        state.apply(*public("Ola", 2, gift_roof))  # a gift never on one's own street
    with pytest.raises(RuleError, match="^Mia's street: Only a gift can be built on an "
                                        "opponent's street"):
        state.apply(*public("Ola", 2, OFFICE_2, "Mia"))  # only gifts on another's street


def test_a_refusal_on_another_players_street_says_whose():
    """With several opponents, "site 1" alone does not say which (found at a table of four)."""
    guarded = {**card("hotel"), "no_gifts": True}
    state = play(["Mia", "Ola", "Pit"], build("Mia", 1, guarded), *takes_public("Mia"))
    state.apply(*discard("Ola"))
    with pytest.raises(RuleError) as refused:
        state.apply(*public("Ola", 1, card(project=None, gift=True), "Mia"))
    assert str(refused.value) == ("Mia's street: No gifts can be built on site 1: a card there "
                                  "forbids them.")
    assert refused.value.args[0].params["owner"] == "Mia"  # said in the players' language


def test_buying_moves_upcoins_and_a_deck_with_upcoins_is_closed():
    """Upcoins Mia puts on Ola's deck are taken by Ola's next 1st action; those Pit puts on it
    still lie there in Mia's turn, who sits between: she cannot buy from Ola's deck then."""
    state = play(["Mia", "Ola", "Pit"])
    with pytest.raises(RuleError, match="no upcoins on Mia's deck"):
        state.apply(*upcoins("Mia"))
    state.apply(*discard("Mia"))
    state.apply(*buy("Mia", "Ola", 6))
    assert state.accounts == {"Mia": 4, "Ola": 10, "Pit": 10}
    assert state.upcoins == {"Mia": 0, "Ola": 6, "Pit": 0}
    state.apply(*discard("Mia"))
    state.apply(*upcoins("Ola"))
    assert state.accounts["Ola"] == 16 and state.upcoins["Ola"] == 0
    state.apply(*buy("Ola", "Ola", 3))  # own deck: the bank
    assert state.accounts["Ola"] == 13 and state.upcoins["Ola"] == 0
    state.apply(*discard("Ola"))
    for kind, payload in (discard("Pit"), buy("Pit", "Ola", 1), discard("Pit"), discard("Mia")):
        state.apply(kind, payload)
    assert state.upcoins == {"Mia": 0, "Ola": 1, "Pit": 0}
    with pytest.raises(RuleError, match="Ola's deck has upcoins on it"):
        state.apply(*buy("Mia", "Ola", 1))
    with pytest.raises(RuleError, match="Mia has only \\$4, not \\$5"):
        state.apply(*buy("Mia", "Mia", 5))
    state.apply(*buy("Mia", "public"))
    assert state.accounts == {"Mia": 4, "Ola": 13, "Pit": 9}


def test_an_empty_deck_starts_the_final_round_and_names_the_last_turn():
    state = play(["Mia", "Ola", "Pit"], *passes("Mia"), build("Ola", 1, OFFICE_2),
                 ("deck_empty", {"player": "Ola"}))  # Ola took the last card of her deck
    assert state.triggered_by == "Ola"
    assert state.still_to_play == ["Ola", "Pit"]  # Ola finishes her turn, Pit takes the last
    with pytest.raises(RuleError, match="already empty"):
        state.apply("deck_empty", {"player": "Ola"})
    for kind, payload in (buy("Ola", "public"), discard("Ola")):
        state.apply(kind, payload)
    assert state.still_to_play == ["Pit"]
    for kind, payload in passes("Pit"):
        state.apply(kind, payload)
    assert state.round_over and state.still_to_play == []
    state.apply("finish", {})
    assert state.finished


def test_five_finished_sites_start_the_final_round():
    others = [*passes("Mia"), *passes("Ola")]
    actions = [*others, build("Pit", 1, ROOF), public("Pit", 2, ROOF),
               *others, build("Pit", 3, ROOF), public("Pit", 4, ROOF),
               *others, build("Pit", 5, ROOF)]
    state = play(["Mia", "Ola", "Pit"], *actions[:-1])
    assert not state.final_round
    with pytest.raises(RuleError, match="only after the final round"):
        state.apply("finish", {})
    state.apply(*actions[-1])
    # Pit, the last seat, finished his fifth site with his 1st action: his 2nd is the last of
    # the game.
    assert state.triggered_by == "Pit" and state.still_to_play == ["Pit"]
    for kind, payload in (buy("Pit", "public"), discard("Pit")):
        state.apply(kind, payload)
    assert state.round_over and state.still_to_play == []


def test_final_scores_and_the_tallest_building_tie_break():
    state = play(["Mia", "Ola"], build("Mia", 1, card()), public("Mia", 1, card()),
                 build("Ola", 2, ROOF), buy("Ola", "public"), discard("Ola"),
                 build("Mia", 1, card()), ("deck_empty", {"player": "Mia"}),
                 ("account", {"player": "Mia", "amount": 9}),
                 ("account", {"player": "Ola", "amount": 9}),
                 public("Mia", 2, ROOF), *passes("Ola"), ("finish", {}))
    # Both: a roof worth 3 prestige and $9 -> 3: 6 each. Mia's site 1 holds three cards, Ola's
    # tallest site one: Mia wins the tie, alone.
    scores = state.scores()
    assert (scores["Mia"].total, scores["Ola"].total) == (6, 6)
    assert (scores["Mia"].tallest, scores["Ola"].tallest) == (3, 1)
    assert [(p.place, p.player, p.shared) for p in state.ranking()] == [
        (1, "Mia", False), (2, "Ola", False)]


def test_the_library_remembers_cards_most_recent_first():
    state = play(["Mia", "Ola"], build("Mia", 1, OFFICE_2), public("Mia", 2, LOSS),
                 build("Ola", 1, OFFICE_2))
    assert [c["project"] for c in state.library] == ["office", "hotel"]


def test_a_card_checks_itself_and_its_site_only_however_full_the_street(monkeypatch):
    """Placement is linear: the cards already on the table were checked when they were built."""
    from companion.rules import street, street_table
    from companion.rules.street_table import StreetState

    calls = []
    checked = street.check_card
    monkeypatch.setattr(street_table, "check_card", lambda c: calls.append(c) or checked(c))
    monkeypatch.setattr(street, "check_card", lambda c: calls.append(c) or checked(c))
    state = StreetState.start(["Mia", "Ola"])

    def mia_builds(site, the_card):
        """Mia's next card: her free card or the public pile's; Ola's turns build nothing."""
        if state.turn == "Ola":
            for kind, payload in passes("Ola"):
                state.apply(kind, payload)
        state.apply(*(build if state.step == FIRST else public)("Mia", site, the_card))

    for site in (1, 2, 3, 4, 5):
        for _ in range(6):
            mia_builds(site, OFFICE_2)
        if state.turn == "Ola":
            for kind, payload in passes("Ola"):
                state.apply(kind, payload)
        calls.clear()
        mia_builds(site, ROOF)
        assert len(calls) == 1  # the new card, whatever the street holds
    assert state.triggered_by == "Mia"  # all five sites finished
    # Each roof pays $2 for every office on the street: 6, 12, 18, 24 and 30 offices (the
    # public pile's cards are free).
    assert state.accounts["Mia"] == 10 + 2 * (6 + 12 + 18 + 24 + 30)


# The 2nd action in one event, whose turn it is, removing a card, the library's order --------


def test_a_card_bought_from_an_opponent_puts_the_upcoins_on_their_deck_and_is_built():
    state = play(["Mia", "Ola"], discard("Mia"), bought("Mia", 2, OFFICE_2, "Ola", 6))
    assert (state.accounts, state.upcoins) == ({"Mia": 4, "Ola": 10}, {"Mia": 0, "Ola": 6})
    assert [len(site) for site in state.streets["Mia"]] == [0, 1, 0, 0, 0]


def test_the_rulebook_example_mario_buys_a_ground_floor_roof_and_earns_income_after_paying():
    """Mario plays an apartment on site 2, buys from his opponent for $6 and must place that
    card on his last empty site; it finishes the site: income from all his sites."""
    roof_income = card("store", roof=True, floor="ground",
                       income=[{"each": "flat", "amount": 2, "project": None}])
    state = play(["Mario", "Lea"], build("Mario", 2, card("apartment")),
                 bought("Mario", 1, roof_income, "Lea", 6))
    assert state.accounts == {"Mario": 10 - 6 + 2, "Lea": 10}
    assert state.upcoins["Lea"] == 6


@pytest.mark.parametrize(("deck", "cost", "mia"), [("Mia", 3, 7), ("public", 0, 10)])
def test_own_deck_pays_the_bank_and_the_public_pile_is_free(deck, cost, mia):
    state = play(["Mia", "Ola"], discard("Mia"), bought("Mia", 1, OFFICE_2, deck, cost))
    assert (state.accounts["Mia"], state.upcoins) == (mia, {"Mia": 0, "Ola": 0})


@pytest.mark.parametrize(("actions", "message"), [
    ((*passes("Mia"), discard("Ola"), bought("Ola", 1, OFFICE_2, "Mia", 2), discard("Pit"),
      bought("Pit", 1, OFFICE_2, "Mia", 1)),
     "Mia's deck has upcoins on it: nobody can buy from it."),
    ((discard("Mia"), bought("Mia", 1, OFFICE_2, "Ola", 11)), "Mia has only $10, not $11."),
    ((discard("Mia"), bought("Mia", 1, card(floor="upper"), "Ola", 2)),
     "This card is an upper floor: it cannot be the first card on site 1."),
])
def test_a_refused_purchase_or_placement_changes_nothing(actions, message):
    *before, last = actions
    state = play(["Mia", "Ola", "Pit"], *before)
    before_state = (dict(state.accounts), dict(state.upcoins), dict(state.streets))
    with pytest.raises(RuleError, match=message.replace("$", r"\$")):
        state.apply(*last)
    assert (state.accounts, state.upcoins, state.streets) == before_state


EMPTY = ("deck_empty", {"player": "Ola", "by": "Ola"})
TURNS = [
    ((), ("Mia", FIRST)),
    ((build("Mia", 1, OFFICE_2),), ("Mia", SECOND)),
    ((build("Mia", 1, OFFICE_2), bought("Mia", 2, OFFICE_2, "Ola", 1)), ("Ola", FIRST)),
    ((discard("Mia"),), ("Mia", SECOND)),
    ((discard("Mia"), buy("Mia", "public")), ("Mia", PLACE_BOUGHT)),
    ((discard("Mia"), buy("Mia", "public"), build("Mia", 1, OFFICE_2)), ("Ola", FIRST)),
    ((discard("Mia"), buy("Mia", "public"), discard("Mia")), ("Ola", FIRST)),
    ((*passes("Mia"), build("Ola", 1, OFFICE_2)), ("Ola", SECOND)),
    ((*passes("Mia"), *passes("Ola"), build("Pit", 1, OFFICE_2),
      public("Pit", 2, OFFICE_2)), ("Mia", FIRST)),  # after the last seat, the first again
    ((discard("Mia"), bought("Mia", 2, OFFICE_2, "Ola", 1), upcoins("Ola")), ("Ola", SECOND)),
    ((EMPTY, *passes("Mia")), ("Ola", SECOND)),  # an empty own deck: no 1st action
    ((discard("Mia"), bought("Mia", 2, OFFICE_2, "Ola", 1), EMPTY), ("Ola", FIRST)),  # upcoins
]


@pytest.mark.parametrize(("actions", "turn"), TURNS)
def test_the_table_follows_whose_turn_it_is_and_which_action_comes_next(actions, turn):
    state = play(["Mia", "Ola", "Pit"], *actions)
    assert (state.turn, state.step) == turn


@pytest.mark.parametrize(("actions", "words"), [
    ((), "Mia's 1st action comes next"),
    ((discard("Mia"),), "Mia's 2nd action comes next"),
    ((discard("Mia"), buy("Mia", "public")),
     "Mia builds or discards the card of the 2nd action next"),
    ((*passes("Mia"), *passes("Ola"), EMPTY, discard("Pit"), buy("Pit", "public")),
     "Pit builds or discards the card of the 2nd action next"),
    ((*passes("Mia"), *passes("Ola"), EMPTY, *passes("Pit")),
     "The final round is complete: score the game."),
])
def test_up_next_says_whose_turn_it_is_and_what_comes_next(actions, words):
    assert play(["Mia", "Ola", "Pit"], *actions).up_next == words


# The turn order, enforced: each refusal in its words, and its legal counterpart -------------

P3 = ["Mia", "Ola", "Pit"]


def refused(state, action, words):
    """`action` is refused with exactly `words`, and the table is as it was."""
    before = frozen(state)
    with pytest.raises(RuleError) as refusal:
        state.apply(*action)
    assert str(refusal.value) == words
    assert frozen(state) == before


def test_a_turn_after_the_end_is_refused_and_the_result_stays():
    """Ola's deck ran out in Mia's turn: Mia, Ola and Pit finish the round, and then the game is
    over. A 1st action by the start player is refused; the result everyone sees stays."""
    state = play(P3, build("Mia", 1, OFFICE_2), EMPTY, public("Mia", 2, OFFICE_2),
                 public("Ola", 1, ROOF), *passes("Pit"))
    assert state.round_over and state.still_to_play == []
    totals, ranking = state.totals(), state.ranking()
    over = ("The final round is complete: the game is over. Score the game (or undo the last "
            "step).")
    refused(state, build("Mia", 3, OFFICE_2), over)
    refused(state, discard("Mia"), over)
    refused(state, public("Ola", 2, OFFICE_2), over)
    refused(state, ("deck_empty", {"player": "Pit"}), over)
    assert (state.totals(), state.ranking()) == (totals, ranking)
    state.apply("finish", {})  # the legal step: the game is scored
    assert state.finished and state.ranking() == ranking
    refused(state, build("Mia", 3, OFFICE_2),
            "The game is over: to change anything, undo the last step or change an action from "
            "the history.")


def test_scoring_while_players_still_take_their_final_turns_is_refused_naming_them():
    state = play(P3, build("Mia", 1, OFFICE_2), EMPTY)  # the final round starts in Mia's turn
    refused(state, ("finish", {}), "The final round is not complete: Mia, Ola and Pit still take "
                                   "their final turns (Mia's 2nd action comes next).")
    for kind, payload in (public("Mia", 2, OFFICE_2), *takes_public("Ola")):
        state.apply(kind, payload)
    refused(state, ("finish", {}), "The final round is not complete: Pit still takes a final "
                                   "turn (Pit's 1st action comes next).")
    for kind, payload in passes("Pit"):
        state.apply(kind, payload)
    state.apply("finish", {})  # the legal counterpart: after Pit's turn
    assert state.finished


@pytest.mark.parametrize(("purchase", "mia"), [
    (bought("Mia", 1, OFFICE_2, "Ola", 2), 8), (public("Mia", 1, OFFICE_2), 10),
    (buy("Mia", "Ola", 2), 8), (buy("Mia", "public"), 10),
])
def test_a_purchase_as_the_1st_action_is_refused(purchase, mia):
    state = play(P3)
    refused(state, purchase, "Mia's 1st action comes next. The 1st action is the top card of "
                             "one's own deck, for free (or the upcoins on it): buying a card is "
                             "the 2nd action.")
    state.apply(*build("Mia", 2, OFFICE_2))
    state.apply(*purchase)  # the legal counterpart: the 2nd action buys
    assert state.accounts == {"Mia": mia, "Ola": 10, "Pit": 10}


@pytest.mark.parametrize(("before", "action", "words", "legal"), [
    ((), build("Ola", 1, OFFICE_2), "It is Mia's turn, not Ola's: Mia's 1st action comes next.",
     build("Mia", 1, OFFICE_2)),
    ((), discard("Pit"), "It is Mia's turn, not Pit's: Mia's 1st action comes next.",
     discard("Mia")),
    ((discard("Mia"),), public("Ola", 1, OFFICE_2),
     "It is Mia's turn, not Ola's: Mia's 2nd action comes next.", public("Mia", 1, OFFICE_2)),
    ((discard("Mia"),), buy("Pit", "public"),
     "It is Mia's turn, not Pit's: Mia's 2nd action comes next.", buy("Mia", "public")),
    ((discard("Mia"), buy("Mia", "Ola", 3)), upcoins("Ola"),
     "It is Mia's turn, not Ola's: Mia builds or discards the card of the 2nd action next.",
     discard("Mia")),
])
def test_a_player_acting_in_another_s_turn_is_refused(before, action, words, legal):
    state = play(P3, *before)
    refused(state, action, words)
    state.apply(*legal)  # the legal counterpart: the player at turn acts


@pytest.mark.parametrize("third", [build("Mia", 3, OFFICE_2), public("Mia", 3, OFFICE_2),
                                   buy("Mia", "public"), discard("Mia")])
def test_a_third_action_in_a_turn_is_refused(third):
    state = play(P3, build("Mia", 1, OFFICE_2), public("Mia", 2, OFFICE_2))
    refused(state, third, "It is Ola's turn, not Mia's: Ola's 1st action comes next.")
    state.apply(*build("Ola", 1, OFFICE_2))  # the next player's 1st action
    assert (state.turn, state.step) == ("Ola", SECOND)


def test_a_second_purchase_in_a_turn_is_refused():
    state = play(P3, discard("Mia"), buy("Mia", "public"))
    words = ("Mia builds or discards the card of the 2nd action next. The card of the 2nd "
             "action is built or discarded next.")
    refused(state, buy("Mia", "Pit", 1), words)
    refused(state, public("Mia", 1, OFFICE_2), words)
    state.apply(*build("Mia", 1, OFFICE_2))  # the bought card, built
    assert (state.turn, state.step) == ("Ola", FIRST)


def test_a_free_card_while_upcoins_lie_on_one_s_deck_is_refused():
    state = play(P3, discard("Mia"), bought("Mia", 1, OFFICE_2, "Ola", 4))
    words = "Upcoins lie on Ola's deck: the 1st action is to take them."
    refused(state, build("Ola", 1, OFFICE_2), words)
    refused(state, discard("Ola"), words)
    refused(state, public("Ola", 1, OFFICE_2), "Ola's 1st action comes next. The 1st action is "
            "the top card of one's own deck, for free (or the upcoins on it): buying a card is "
            "the 2nd action.")
    state.apply(*upcoins("Ola"))  # the legal 1st action
    assert (state.accounts["Ola"], state.upcoins["Ola"], state.step) == (14, 0, SECOND)
    state.apply(*public("Ola", 1, OFFICE_2))
    assert (state.turn, state.step) == ("Pit", FIRST)


def test_an_empty_own_deck_without_upcoins_skips_to_the_2nd_action():
    state = play(P3, EMPTY, *passes("Mia"))  # Ola's deck ran out in Mia's turn
    assert (state.turn, state.step) == ("Ola", SECOND)
    assert state.up_next == "Ola's 2nd action comes next"
    refused(state, build("Ola", 1, OFFICE_2), "Ola's 2nd action comes next. The 2nd action buys "
            "the top card of a player deck or takes the public pile's card: say where the card "
            "came from.")
    refused(state, buy("Ola", "Ola", 1), "Ola's deck is empty.")
    state.apply(*bought("Ola", 1, OFFICE_2, "Pit", 2))  # the 2nd action straight away
    assert (state.turn, state.step) == ("Pit", FIRST)
    assert state.accounts == {"Mia": 10, "Ola": 8, "Pit": 10}


def test_an_empty_own_deck_with_upcoins_takes_them_first():
    state = play(P3, discard("Mia"), bought("Mia", 1, OFFICE_2, "Ola", 4), EMPTY)
    assert (state.turn, state.step) == ("Ola", FIRST)
    refused(state, public("Ola", 1, OFFICE_2), "Ola's 1st action comes next. The 1st action is "
            "the top card of one's own deck, for free (or the upcoins on it): buying a card is "
            "the 2nd action.")
    state.apply(*upcoins("Ola"))
    assert (state.turn, state.step, state.accounts["Ola"]) == ("Ola", SECOND, 14)


def test_the_player_at_turn_whose_deck_runs_out_goes_on_to_the_2nd_action():
    state = play(P3, *passes("Mia"))
    state.apply("deck_empty", {"player": "Ola"})  # seen at the start of Ola's turn
    assert (state.turn, state.step, state.triggered_by) == ("Ola", SECOND, "Ola")


def test_a_deck_emptied_by_its_owners_1st_action_keeps_that_action_for_the_card():
    """Ola takes the last card of her deck as her 1st action and the table says so at once:
    the final round begins, and her turn stays at the 1st action, for that card."""
    state = play(P3, *passes("Mia"))
    state.apply("deck_empty", {"player": "Ola", "by": "Ola", "drawn": True})
    assert (state.turn, state.step, state.triggered_by) == ("Ola", FIRST, "Ola")
    state.apply(*build("Ola", 1, OFFICE_2))
    assert (state.turn, state.step) == ("Ola", SECOND)
    assert state.streets["Ola"][0] == [OFFICE_2]


@pytest.mark.parametrize("before, payload, message", [
    ((), {"player": "Ola", "by": "Ola", "drawn": True},  # Mia's turn
     "Ola takes the top card of their own deck as the 1st action of their own turn only; "
     "Mia's 1st action comes next."),
    (passes("Mia") + (build("Ola", 1, OFFICE_2),), {"player": "Ola", "by": "Ola", "drawn": True},
     "Ola takes the top card of their own deck as the 1st action of their own turn only; "
     "Ola's 2nd action comes next."),
    (passes("Mia"), {"player": "Ola", "by": "Mia", "drawn": True},  # a tampered form
     "Ola takes the top card of their own deck as the 1st action of their own turn only; "
     "Ola's 1st action comes next."),
    ((discard("Mia"), bought("Mia", 1, OFFICE_2, "Ola", 4)),
     {"player": "Ola", "by": "Ola", "drawn": True},
     "Upcoins lie on Ola's deck: the 1st action is to take them."),
])
def test_a_last_card_drawn_is_only_its_owners_1st_action(before, payload, message):
    state = play(P3, *before)
    refused(state, ("deck_empty", payload), message)


def test_a_deck_the_last_seat_emptied_with_a_card_bought_in_one_step_ends_the_game():
    """Pit, the last seat, buys the last card of Mia's deck and builds it in one step: his turn
    is over before the deck can be said to be empty. Said then, before Mia's 1st action, it
    ends the game: Pit's turn was the last of the round, and "the last player ... takes the last
    turn of the game"."""
    state = play(P3, *passes("Mia"), *passes("Ola"), discard("Pit"),
                 bought("Pit", 1, OFFICE_2, "Mia", 2))
    assert (state.turn, state.step) == ("Mia", FIRST)
    later = copy.deepcopy(state)
    state.apply("deck_empty", {"player": "Mia", "by": "Pit"})
    assert state.round_over and (state.triggered_by, state.still_to_play) == ("Pit", [])
    refused(state, upcoins("Mia"), "The final round is complete: the game is over. Score the "
                                   "game (or undo the last step).")
    state.apply("finish", {})
    assert state.finished
    # Taken by Ola in her turn of that round, said so (`before`, as the form says it), it ends
    # the game too; said without it, as logs from before it was recorded, it starts a round.
    table = copy.deepcopy(later)
    table.apply("deck_empty", {"player": "Mia", "by": "Ola", "before": True})
    assert table.round_over and table.still_to_play == []
    table = copy.deepcopy(later)
    table.apply("deck_empty", {"player": "Mia", "by": "Ola"})
    assert not table.round_over and table.still_to_play == P3
    # Said only after Mia's 1st action of the next round, which could not be played: refused.
    table = copy.deepcopy(later)
    table.apply(*upcoins("Mia"))
    refused(table, ("deck_empty", {"player": "Mia", "by": "Pit", "before": True}),
            "Pit's last turn was in round 1: if the deck ran out then, that round was the final "
            "one and the game ended with it. Undo the actions of round 2 first, then say the "
            "deck is empty.")


def test_the_action_that_begins_the_final_round_says_so():
    """Found at a table: the history's "Mario's deck is empty: Kofi took its last card" said
    nothing of the final round it began. Said with the table it made: a second deck empty in
    the final round begins nothing; one taken in the round before ends the game at once; a
    table it did not make (a later one) says the action alone."""
    state = play(P3, *passes("Mia"), discard("Ola"), bought("Ola", 1, OFFICE_2, "Mia", 2))
    said = {}
    for kind, payload in (("deck_empty", {"player": "Mia", "by": "Ola"}),
                          ("deck_empty", {"player": "Pit", "by": "Ola"})):
        state.apply(kind, payload)
        said[payload["player"]] = GAME.say(kind, payload, state)
    assert said == {"Mia": "Mia's deck is empty: Ola took its last card: the final round begins",
                    "Pit": "Pit's deck is empty: Ola took its last card"}
    state = play(P3, *passes("Mia"), *passes("Ola"), discard("Pit"),
                 bought("Pit", 1, OFFICE_2, "Mia", 2))
    ended = {"player": "Mia", "by": "Pit"}
    state.apply("deck_empty", ended)
    assert GAME.say("deck_empty", ended, state) == (
        "Mia's deck is empty: Pit took its last card: that round was the final one")
    state.apply("finish", {})
    assert GAME.say("deck_empty", ended, state) == "Mia's deck is empty: Pit took its last card"


def test_a_deck_emptied_in_the_round_before_ends_the_game():
    """"Complete the current round (i.e. player turns continue until the end of the turn of
    the last player ...), and then the game is over": a deck's last card taken by a player who
    has not played in this round yet was taken in the round before, which was the final one
    (`taken_before`); by a player who has played in it (Mia before Ola's turn; Ola herself,
    past her 1st action), this round is the final one."""
    state = play(P3, *passes("Mia"))
    assert [state.taken_before(p) for p in P3] == [False, True, True]
    refused(state, ("deck_empty", {"player": "Ola", "by": "Mia", "before": True}),
            "Mia has played in this round: the deck ran out in it.")
    refused(state, ("deck_empty", {"player": "Ola", "by": "Pit", "before": True}),
            "Pit has not had a turn yet, so has taken no card.")
    state.apply("discard", {"player": "Ola"})
    assert [state.taken_before(p) for p in P3] == [False, False, True]
    state.apply("deck_empty", {"player": "Pit", "by": "Ola"})
    assert not state.round_over and state.still_to_play == ["Ola", "Pit"]


def test_corrections_are_taken_at_any_time_before_the_scoring():
    state = play(P3, build("Mia", 1, OFFICE_2), public("Mia", 1, ROOF))
    state.apply("account", {"player": "Pit", "amount": 7})  # in Ola's turn, for Pit
    state.apply("remove", {"street": "Mia", "site": 1})
    assert (state.accounts["Pit"], state.turn, state.step) == (7, "Ola", FIRST)
    for kind, payload in (EMPTY, *takes_public("Ola"), *passes("Pit")):
        state.apply(kind, payload)
    assert state.round_over
    state.apply("account", {"player": "Mia", "amount": 3})
    assert state.accounts["Mia"] == 3 and state.round_over


def test_remove_takes_the_top_card_off_a_site_and_keeps_the_money():
    state = play(["Mia", "Ola"], build("Mia", 1, OFFICE_2), public("Mia", 1, ROOF),
                 ("remove", {"street": "Mia", "site": 1}))
    assert state.streets["Mia"][0] == [OFFICE_2]
    assert state.finished_sites("Mia")[0] is False and state.accounts["Mia"] == 12


def test_a_roof_taken_off_the_fifth_finished_site_takes_back_the_final_round():
    """"When ... all 5 sites of any street are all finished, that triggers the final round": a
    roof built by mistake on Pit's fifth site and taken off again (a correction) leaves no
    street finished, so the final round is off and the game goes on; built again, it triggers
    the final round anew. An empty player deck keeps it on."""
    others = [*passes("Mia"), *passes("Ola")]
    roofs = [*others, build("Pit", 1, ROOF), public("Pit", 2, ROOF), *others,
             build("Pit", 3, ROOF), public("Pit", 4, ROOF), *others, build("Pit", 5, ROOF)]
    state = play(P3, *roofs)
    assert state.triggered_by == "Pit"
    state.apply("remove", {"street": "Pit", "site": 5})
    assert not state.final_round and state.still_to_play == []
    for kind, payload in (buy("Pit", "public"), discard("Pit")):
        state.apply(kind, payload)
    assert not state.round_over and state.up_next == "Mia's 1st action comes next"
    with pytest.raises(RuleError, match="The game ends only after the final round"):
        state.apply("finish", {})
    state = play(P3, *roofs, EMPTY, ("remove", {"street": "Pit", "site": 5}))
    assert state.final_round


@pytest.mark.parametrize(("payload", "message"), [
    ({"street": "Mia", "site": 2}, "Site 2 of Mia's street has no card to remove."),
    ({"street": "Mia", "site": 6}, "There is no site 6"),
    ({"street": "Zoe", "site": 1}, "'Zoe' is not playing at this table."),
])
def test_remove_refuses_an_empty_or_unknown_site(payload, message):
    state = play(["Mia", "Ola"], build("Mia", 1, OFFICE_2))
    with pytest.raises(RuleError, match=message):
        state.apply("remove", payload)


def test_the_library_puts_the_most_used_card_first_then_the_most_recent():
    hotel, store = card("hotel"), card("store")
    state = play(["Mia", "Ola"], build("Mia", 1, OFFICE_2), public("Mia", 2, hotel),
                 build("Ola", 1, OFFICE_2), public("Ola", 2, store))
    assert state.library == [OFFICE_2, store, hotel]


@pytest.mark.parametrize(("payload", "text"), [
    ({"player": "Mia", "street": "Mia", "site": 1, "card": OFFICE_2, "bought_from": "Ola",
      "cost": 3}, "Mia built an office on site 1 (bought from Ola's deck for $3)"),
    ({"player": "Mia", "street": "Mia", "site": 1, "card": OFFICE_2, "bought_from": "Mia",
      "cost": 2}, "Mia built an office on site 1 (bought from their own deck for $2)"),
    ({"player": "Mia", "street": "Mia", "site": 1, "card": OFFICE_2, "bought_from": "public",
      "cost": 0}, "Mia built an office on site 1 (public pile)"),
    ({"player": "Mia", "street": "Mia", "site": 1, "card": {**OFFICE_2, "double": True}},
     "Mia built a double office on site 1"),  # counts as two offices: said so
    ({"player": "Mia", "street": "Ola", "site": 2, "card": {**card("coffee"), "double": True}},
     "Mia gave Ola a double coffee shop as a gift, on site 2"),
    ({"player": "Mia"}, "Mia discarded the card"),
])
def test_the_new_actions_in_words(payload, text):
    kind = "discard" if "card" not in payload else "card"
    assert GAME.describe(kind, payload) == text


def test_remove_in_words():
    assert GAME.describe("remove", {"street": "Ola", "site": 4}) == (
        "Removed the top card of Ola's site 4")


def test_a_library_card_has_one_short_id_and_another_card_another():
    from companion.rules.street_table import card_id

    office = {"project": "office", "double": False, "roof": False, "gift": False,
              "floor": None, "no_gifts": False, "income": [], "prestige": []}
    assert card_id(office) == card_id(dict(reversed(list(office.items()))))
    assert card_id(office) != card_id({**office, "project": "hotel"})
    assert len(card_id(office)) == 12
