"""A street game replayed from its actions: building, income at every roof, gifts, buying, the
end of the game and its last turn."""

import pytest

from companion.rules import GAMES, replay
from companion.rules.common import RuleError
from companion.rules.log import Event

GAME = GAMES["street"]


def card(project="office", roof=False, gift=False, income=(), prestige=(), floor=None):
    return {"project": project, "double": False, "roof": roof, "gift": gift, "floor": floor,
            "no_gifts": False, "income": list(income), "prestige": list(prestige)}


def build(player, site, the_card, street=None):
    return ("card", {"player": player, "street": street or player, "site": site,
                     "card": the_card})


def play(players, *actions):
    events = [Event(seq, kind, payload) for seq, (kind, payload) in enumerate(actions, 1)]
    return replay(GAME, players, events).state


OFFICE_2 = card(income=[{"each": "flat", "amount": 2, "project": None}])
ROOF = card(project=None, roof=True, prestige=[{"each": "flat", "amount": 3, "project": None}])
LOSS = card("hotel", income=[{"each": "flat", "amount": -5, "project": None}])


def test_a_roof_pays_the_income_of_the_whole_street():
    state = play(["Mia", "Ola", "Pit"], build("Mia", 1, OFFICE_2), build("Mia", 2, OFFICE_2),
                 build("Mia", 1, ROOF))
    assert state.accounts["Mia"] == 10 + 4
    assert state.payouts[-1].owner == "Mia" and state.payouts[-1].paid == 4
    assert [line.text for line in state.payouts[-1].lines] == [
        "Site 1, floor 1: +2 = +2", "Site 2, floor 1: +2 = +2"]
    assert state.finished_sites("Mia") == [True, False, False, False, False]


def test_negative_income_pays_nothing():
    state = play(["Mia", "Ola"], build("Mia", 1, LOSS), build("Mia", 1, ROOF))
    assert state.payouts[-1].income == -5 and state.payouts[-1].paid == 0
    assert state.accounts["Mia"] == 10


def test_a_gift_that_finishes_a_site_pays_the_owner_not_the_giver():
    gift_roof = card(project=None, roof=True, gift=True)
    state = play(["Mia", "Ola"], build("Mia", 3, OFFICE_2), build("Ola", 3, gift_roof, "Mia"))
    assert state.accounts == {"Mia": 12, "Ola": 10}
    with pytest.raises(RuleError):
        state.apply(*build("Ola", 2, gift_roof))  # a gift never on one's own street
    with pytest.raises(RuleError):
        state.apply(*build("Ola", 2, OFFICE_2, "Mia"))  # only gifts on another's street


def test_buying_moves_upcoins_and_a_deck_with_upcoins_is_closed():
    state = play(["Mia", "Ola"], ("buy", {"player": "Mia", "deck": "Ola", "cost": 6}))
    assert state.accounts == {"Mia": 4, "Ola": 10} and state.upcoins == {"Mia": 0, "Ola": 6}
    with pytest.raises(RuleError, match="Ola's deck has upcoins on it"):
        state.apply("buy", {"player": "Mia", "deck": "Ola", "cost": 1})
    with pytest.raises(RuleError, match="Mia has only \\$4, not \\$5"):
        state.apply("buy", {"player": "Mia", "deck": "Mia", "cost": 5})
    state.apply("upcoins", {"player": "Ola"})
    assert state.accounts["Ola"] == 16 and state.upcoins["Ola"] == 0
    state.apply("buy", {"player": "Ola", "deck": "Ola", "cost": 3})  # own deck: the bank
    assert state.accounts["Ola"] == 13 and state.upcoins["Ola"] == 0
    state.apply("buy", {"player": "Ola", "deck": "public"})
    with pytest.raises(RuleError, match="no upcoins on Mia's deck"):
        state.apply("upcoins", {"player": "Mia"})


def test_an_empty_deck_starts_the_final_round_and_names_the_last_turn():
    state = play(["Mia", "Ola", "Pit"], ("deck_empty", {"player": "Ola"}))
    assert state.triggered_by == "Ola"
    assert state.still_to_play == ["Pit"]
    with pytest.raises(RuleError, match="already empty"):
        state.apply("deck_empty", {"player": "Ola"})
    state.apply("finish", {})
    assert state.finished


def test_five_finished_sites_start_the_final_round():
    actions = [build("Pit", site, ROOF) for site in range(1, 6)]
    state = play(["Mia", "Ola", "Pit"], *actions[:4])
    assert not state.final_round
    with pytest.raises(RuleError, match="only after the final round"):
        state.apply("finish", {})
    state.apply(*actions[4])
    assert state.triggered_by == "Pit" and state.still_to_play == []


def test_final_scores_and_the_tallest_building_tie_break():
    tall = [build("Mia", 1, card()), build("Mia", 1, card()), build("Mia", 1, card())]
    state = play(["Mia", "Ola"], *tall, build("Ola", 2, ROOF),
                 ("account", {"player": "Mia", "amount": 9}),
                 ("account", {"player": "Ola", "amount": 9}),
                 build("Mia", 2, ROOF), ("deck_empty", {"player": "Mia"}), ("finish", {}))
    # Both: a roof worth 3 prestige and $9 -> 3: 6 each. Mia's site 1 holds three cards, Ola's
    # tallest site one: Mia wins the tie, alone.
    scores = state.scores()
    assert (scores["Mia"].total, scores["Ola"].total) == (6, 6)
    assert (scores["Mia"].tallest, scores["Ola"].tallest) == (3, 1)
    assert [(p.place, p.player, p.shared) for p in state.ranking()] == [
        (1, "Mia", False), (2, "Ola", False)]


def test_the_library_remembers_cards_most_recent_first():
    state = play(["Mia", "Ola"], build("Mia", 1, OFFICE_2), build("Mia", 2, LOSS),
                 build("Ola", 1, OFFICE_2))
    assert [c["project"] for c in state.library] == ["office", "hotel"]


def test_a_card_checks_itself_and_its_site_only_however_full_the_street(monkeypatch):
    """Placement is linear: the cards already on the table were checked when they were built."""
    from companion.rules import street, street_table
    from companion.rules.street_table import StreetTable

    calls = []
    checked = street.check_card
    monkeypatch.setattr(street_table, "check_card", lambda c: calls.append(c) or checked(c))
    monkeypatch.setattr(street, "check_card", lambda c: calls.append(c) or checked(c))
    state = StreetTable.start(["Mia", "Ola"])
    for site in (1, 2, 3, 4, 5):
        for _ in range(6):
            state.apply(*build("Mia", site, OFFICE_2))
        calls.clear()
        state.apply(*build("Mia", site, ROOF))
        assert len(calls) == 1  # the new card, whatever the street holds
    assert state.triggered_by == "Mia"  # all five sites finished
    # Each roof pays $2 for every office on the street: 6, 12, 18, 24 and 30 offices.
    assert state.accounts["Mia"] == 10 + 2 * (6 + 12 + 18 + 24 + 30)


# The 2nd action in one event, whose turn it is, removing a card, the library's order --------


def bought(player, site, the_card, deck, cost=0):
    return ("card", {"player": player, "street": player, "site": site, "card": the_card,
                     "bought_from": deck, "cost": cost})


def test_a_card_bought_from_an_opponent_puts_the_upcoins_on_their_deck_and_is_built():
    state = play(["Mia", "Ola"], bought("Mia", 2, OFFICE_2, "Ola", 6))
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
    state = play(["Mia", "Ola"], bought("Mia", 1, OFFICE_2, deck, cost))
    assert (state.accounts["Mia"], state.upcoins) == (mia, {"Mia": 0, "Ola": 0})


@pytest.mark.parametrize(("actions", "message"), [
    ((bought("Ola", 1, OFFICE_2, "Mia", 2), bought("Pit", 1, OFFICE_2, "Mia", 1)),
     "Mia's deck has upcoins on it: nobody can buy from it."),
    ((bought("Mia", 1, OFFICE_2, "Ola", 11),), "Mia has only $10, not $11."),
    ((bought("Mia", 1, card(floor="upper"), "Ola", 2),),
     "This card is an upper floor: it cannot be the first card on site 1."),
])
def test_a_refused_purchase_or_placement_changes_nothing(actions, message):
    *before, last = actions
    state = play(["Mia", "Ola", "Pit"], *before)
    before_state = (dict(state.accounts), dict(state.upcoins), dict(state.streets))
    with pytest.raises(RuleError, match=message.replace("$", r"\$")):
        state.apply(*last)
    assert (state.accounts, state.upcoins, state.streets) == before_state


TURNS = [
    ((), ("Mia", 1)),
    ((build("Mia", 1, OFFICE_2),), ("Mia", 2)),
    ((build("Mia", 1, OFFICE_2), bought("Mia", 2, OFFICE_2, "Ola", 1)), ("Ola", 1)),
    ((("discard", {"player": "Mia"}),), ("Mia", 2)),
    ((("discard", {"player": "Mia"}), ("buy", {"player": "Mia", "deck": "public"})), ("Mia", 3)),
    ((("discard", {"player": "Mia"}), ("buy", {"player": "Mia", "deck": "public"}),
      build("Mia", 1, OFFICE_2)), ("Ola", 1)),
    ((("discard", {"player": "Mia"}), ("buy", {"player": "Mia", "deck": "public"}),
      ("discard", {"player": "Mia"})), ("Ola", 1)),
    ((build("Pit", 1, OFFICE_2),), ("Pit", 2)),  # out of turn: Pit's own turn is followed
    ((build("Pit", 1, OFFICE_2), bought("Pit", 2, OFFICE_2, "public")), ("Mia", 1)),
    ((bought("Mia", 2, OFFICE_2, "Ola", 1), ("upcoins", {"player": "Ola"})), ("Ola", 2)),
]


@pytest.mark.parametrize(("actions", "turn"), TURNS)
def test_the_table_follows_whose_turn_it_is_and_which_action_comes_next(actions, turn):
    state = play(["Mia", "Ola", "Pit"], *actions)
    assert (state.turn, state.step) == turn


def test_remove_takes_the_top_card_off_a_site_and_keeps_the_money():
    state = play(["Mia", "Ola"], build("Mia", 1, OFFICE_2), build("Mia", 1, ROOF),
                 ("remove", {"street": "Mia", "site": 1}))
    assert state.streets["Mia"][0] == [OFFICE_2]
    assert state.finished_sites("Mia")[0] is False and state.accounts["Mia"] == 12


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
    state = play(["Mia", "Ola"], build("Mia", 1, OFFICE_2), build("Ola", 1, OFFICE_2),
                 build("Mia", 2, hotel), build("Ola", 2, store))
    assert state.library == [OFFICE_2, store, hotel]


@pytest.mark.parametrize(("payload", "text"), [
    ({"player": "Mia", "street": "Mia", "site": 1, "card": OFFICE_2, "bought_from": "Ola",
      "cost": 3}, "Mia built an office on site 1 (bought from Ola's deck for $3)"),
    ({"player": "Mia", "street": "Mia", "site": 1, "card": OFFICE_2, "bought_from": "public",
      "cost": 0}, "Mia built an office on site 1 (public pile)"),
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
