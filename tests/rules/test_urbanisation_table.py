"""An Urbanisation game replayed from its actions: set-up, characters, every action, the
administration, the Mayor, the final scoring, and every refusal leaving the state untouched."""

import pytest

from companion.rules.common import RuleError
from companion.rules.urbanisation import factory_bonus
from companion.rules.urbanisation_actions import CityCard, Factory, Invention
from companion.rules.urbanisation_example import (  # noqa: F401 - the scripted game
    ADMIN,
    BUY,
    PROFESSOR_CARDS,
    SETUP,
    TURN_1,
    TURN_2,
    act,
    hire,
    passes,
)
from companion.rules.urbanisation_offers import attract_offers
from companion.rules.urbanisation_table import (
    RULINGS,
    RULINGS_BY_STEP,
    RULINGS_IN_PLACE,
    WITHOUT_INVENTIONS,
    UrbanisationState,
    describe,
    factory_total_line,
)
from tests.tables import URBANISATION_PLAYED, URBANISATION_TURNS

PLAYERS = ["Ann", "Ben", "Cy"]


def play(*actions, players=PLAYERS):
    """Replay (kind, payload) actions on a new table (the game is not registered yet)."""
    state = UrbanisationState.start(list(players))
    for kind, payload in actions:
        state.apply(kind, payload)
    return state


def test_set_up_for_three_players_with_inventions():
    state = play(SETUP)
    # One grain per player on each barn and the field, two per player in the return area.
    assert state.grain.market == {"barns": [3, 3, 3, 3], "field": 3}
    assert state.grain.return_area == 6
    assert state.cards["Cy"] == CityCard(money=10, grounds=1)
    assert state.totals() == {"Ann": 1, "Ben": 1, "Cy": 1}  # the set-up house
    assert (state.segment, state.turn, state.order) == ("characters", 1, PLAYERS)
    assert state.current_player == "Ann"
    assert len(state.available_characters) == 9  # the Professor joins with Inventions
    assert state.docks == [2] * 9
    assert state.board_lines[1] == "Factories: only the factory cards marked II or III on the back."
    assert state.note == "Set up for 3 players, with Inventions; Ann starts."


def test_turn_1_actions_and_administration():
    state = play(SETUP, *TURN_1[:-1])
    assert state.segment == "administration"
    # Ann: 2 free + 3 bought, $10 - $4 - $2 (house). Ben: 4 bought, 1 sown, 2 on the Farmer.
    assert (state.cards["Ann"].grain, state.cards["Ann"].money) == (5, 4)
    assert (state.cards["Ben"].grain, state.cards["Ben"].sown, state.cards["Ben"].farmer) == (
        1, 1, 2)
    assert state.grain.market == {"barns": [1, 1, 1, 2], "field": 1}
    # Cy: $10 + $1 (last space) - $2 (land); 4 orange, 1 grey.
    assert state.cards["Cy"].money == 9
    assert state.cards["Cy"].orders == {"white": 0, "grey": 1, "orange": 4}
    assert state.supply == {"white": 13, "grey": 14, "orange": 10}
    state.apply(*ADMIN)
    # Ben harvests 3 markers back + 3 more from the return area: 1 + 6 = 7 grain.
    # Citizens: Ann min(2 houses, 5 grain, 2 orders) = 2: 4 VP, 3 grain left: 1 VP.
    # Ben min(1, 7, 1) = 1: 2 VP, 6 left: 2 VP. Cy min(1, 0, 5) = 0.
    # VP: Ann 1 + 1 + 4 + 1 = 7, Ben 1 + 2 + 2 = 5, Cy 1 + 2 (factory) = 3: Cy is the Mayor.
    assert state.report.players["Ben"] == [
        "Harvest: 3 sown back, 3 more: 7 grain.",
        "Citizens: 1 (houses 1, grain 7, work orders 1): 2 VP each, +2 VP.",
        "Feeding: 1 grain eaten, 6 left: 1 VP per 3, +2 VP.",
    ]
    assert state.report.board[-1] == "Turn 2: Cy receives the Mayor (+1 VP) and starts."
    # Return area: 6 - 3 (harvest) + 2 + 1 (eaten) = 6: no surplus to refill.
    assert (state.grain.market, state.grain.return_area) == (
        {"barns": [1, 1, 1, 2], "field": 1}, 6)
    assert state.totals() == {"Ann": 7, "Ben": 5, "Cy": 3 + 1}
    assert (state.turn, state.order, state.cards["Cy"].characters) == (
        2, ["Cy", "Ann", "Ben"], ["mayor"])
    assert state.note == "Turn 1 administered; Cy is the Mayor of turn 2."


def test_turn_2_refill_and_the_mayor_again():
    state = play(SETUP, *TURN_1, *TURN_2)
    # Return area 6 + 2 (Ann) + 2 (Ben eat) = 10: surplus 4 to the field (2, full at 3), barn 4
    # (1, full) and barn 3 (1).
    assert (state.grain.market, state.grain.return_area) == (
        {"barns": [1, 1, 2, 3], "field": 3}, 6)
    assert state.reports[1].board == [
        "Production markers back to the board: 1 white, 3 orange.",
        "Grain refill: 4 from the return area. Barns 1-4 now hold 1, 1, 2, 3, the field 3, "
        "the return area 6.",
        "Turn 3: Cy receives the Mayor (+1 VP) and starts.",
    ]
    ann = state.cards["Ann"]
    assert (ann.houses, ann.standing, ann.skyscrapers, ann.administrative) == (3, 1, 1, 1)
    assert [(f.number, f.active) for f in state.cards["Cy"].factories] == [(3, False), (5, True)]
    # Ann 7 + 2 + 2 + 4 (2 citizens) = 15; Ben 5 + 1 + 4 + 1 = 11; Cy 4 + 2 + 2 + 2 = 10.
    assert state.totals() == {"Ann": 15, "Ben": 11, "Cy": 10 + 1}
    assert {p: c.money for p, c in state.cards.items()} == {"Ann": 1, "Ben": 3, "Cy": 15}
    assert state.production == {"white": 0, "grey": 0, "orange": 0}  # back on the board


def test_a_scripted_three_player_game_through_six_turns():
    state = play(*URBANISATION_PLAYED)
    assert (state.segment, state.turn) == ("final", 6)
    # After turn 6: Ben 3 citizens (6 VP), Cy 2 (4 VP), Ann 0 (no grain).
    assert state.totals() == {"Ann": 32, "Ben": 32, "Cy": 33}
    # If it were scored now: the same bonuses as the final scoring below, the table unchanged.
    assert state.final_bonuses() == {"Ann": 2, "Ben": 0, "Cy": 2}
    preview = state.if_scored_now()
    assert state.totals() == {"Ann": 32, "Ben": 32, "Cy": 33} and not state.finished
    state.apply("final", {})
    assert preview == state.ranking()
    # Factory totals: Ann 8, Ben 4, Cy 3 + 5 = 8; tied, Ann's newest factory (8) beats Cy's (5).
    # Cy owns the Oil Refinery named on his invention: +2.
    assert state.totals() == {"Ann": 34, "Ben": 32, "Cy": 35}
    assert state.finished
    assert [(p.place, p.player) for p in state.ranking()] == [(1, "Cy"), (2, "Ann"), (3, "Ben")]
    assert state.note == "Final scoring done: Cy wins."
    assert state.verdict() == "Cy wins with 35 VP."
    assert state.report.players["Ann"] == [
        "Factory total 8, tied with Cy; the newest factory (8): +2 VP."]
    assert state.report.players["Cy"] == [
        "Factory total 8, tied; Ann's factory 8 is newer: no bonus.",
        "Invention with the Oil Refinery: +2 VP."]
    assert state.report.players["Ben"] == ["Factory total 4."]
    assert {p: c.money for p, c in state.cards.items()} == {"Ann": 2, "Ben": 3, "Cy": 16}


@pytest.mark.parametrize("turns", range(1, 7))
def test_if_scored_now_is_what_a_final_scoring_then_would_give(turns):
    """At the end of every turn: the preview equals a final scoring applied to a copy."""
    script = [SETUP, *[a for turn in URBANISATION_TURNS[:turns] for a in turn]]
    state = play(*script)
    scored = play(*script)
    scored.segment = "final"
    scored.apply("final", {})
    assert state.if_scored_now() == scored.ranking()


def test_the_score_sheet_by_turn_and_by_source():
    state = play(*URBANISATION_PLAYED, ("final", {}))
    # Turn 0 is the set-up house, turn 7 the final scoring.
    assert state.vp_by_turn() == {
        "Ann": {0: 1, 1: 6, 2: 8, 3: 4, 4: 5, 5: 4, 6: 4, 7: 2},
        "Ben": {0: 1, 1: 4, 2: 6, 3: 6, 4: 4, 5: 3, 6: 8},
        "Cy": {0: 1, 1: 2, 2: 7, 3: 6, 4: 6, 5: 5, 6: 6, 7: 2},
    }
    assert state.vp_by_source()["Cy"] == {
        "house": 2, "factory": 4, "mayor": 3, "goods": 7, "invention": 3, "citizens": 14,
        "invention bonus": 2,
    }
    assert state.vp_by_source()["Ann"] == {
        "house": 3, "grain": 1, "citizens": 16, "skyscraper": 6, "administrative": 2,
        "factory": 2, "goods": 2, "factory bonus": 2,
    }
    assert sum(state.vp_by_source()["Ben"].values()) == 32


def test_the_game_is_over_after_the_final_scoring():
    state = play(*URBANISATION_PLAYED, ("final", {}))
    with pytest.raises(RuleError, match="The game is over"):
        state.apply("final", {})


# Set-up for 2 and 4 players, the Mayor -------------------------------------------------------


def refused(state, kind, payload, message):
    """The action is refused with this message and the state is exactly as before."""
    before = repr(state)
    with pytest.raises(RuleError, match=message):
        state.apply(kind, payload)
    assert repr(state) == before


def test_two_players_use_fewer_grain_factory_cards_and_territories():
    state = play(("setup", {"start_player": "Ben", "money": {"Ann": 12, "Ben": 11},
                            "grounds": 1}), players=["Ann", "Ben"])
    assert state.grain.market == {"barns": [2, 2, 2, 2], "field": 2}
    assert state.grain.return_area == 4
    assert state.board_lines == [
        "Barns 1-4 and the field: 2 grain each; return area: 4.",
        "Factories: only the factory cards marked II on the back.",
        "Character cards: 8 on display, the Mayor set aside.",
        "Cover the territories not used with 2 players.",
    ]
    assert "professor" not in state.available_characters  # no Inventions
    assert state.order == ["Ben", "Ann"] and state.cards["Ann"].money == 12


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"start_player": "Zed", "money": 10, "grounds": 1}, "'Zed' is not playing"),
        ({"start_player": "Ann", "money": 10, "grounds": 3},
         "The building grounds of the first territory cannot be more than 2."),
        ({"start_player": "Ann", "money": 10, "grounds": {"Ann": 1}},
         "Enter the building grounds of the first territory of every player."),
        ({"start_player": "Ann", "money": -1, "grounds": 1},
         "The starting money cannot be less than 0."),
        ({"start_player": "Ann", "money": 5, "grounds": 1, "pools": {"castle": 3}},
         "Pool sizes are given for house"),
        ({"start_player": "Ann", "money": 5, "grounds": 1, "inventions": "yes"},
         "Playing with Inventions is yes or no."),
    ],
)
def test_impossible_set_ups_are_refused(payload, message):
    refused(play(), "setup", payload, message)


def test_set_up_comes_first_and_once():
    state = play()
    refused(state, "pass", {"player": "Ann"}, "First set up the game.")
    refused(state, "effect", {"player": "Ann", "money": 1}, "First set up the game.")
    state.apply(*SETUP)
    refused(state, "setup", SETUP[1], "The game is set up already")
    with pytest.raises(RuleError, match="Urbanisation is played by 2 to 4 players."):
        UrbanisationState.start(["A", "B", "C", "D", "E"])


def test_the_mayor_ties_go_to_least_money_then_clockwise_from_the_former_start():
    everyone_passes = [*hire("farmer", "architect", "mill_worker"), *passes(*PLAYERS) * 4, ADMIN]
    # All have 1 VP and $10: the first clockwise after Ann (the former start player) is Ben.
    state = play(SETUP, *everyone_passes)
    assert (state.order, state.totals()) == (["Ben", "Cy", "Ann"], {"Ann": 1, "Ben": 2, "Cy": 1})
    # Equal VP, Cy has the least money.
    setup = ("setup", {**SETUP[1], "money": {"Ann": 10, "Ben": 10, "Cy": 5}})
    state = play(setup, *everyone_passes)
    assert state.order == ["Cy", "Ann", "Ben"] and state.start_player == "Cy"
    # Turn 3: Ann and Ben tie on 1 VP and $10; clockwise from Cy (the former start), Ann.
    state = play(setup, *everyone_passes, *hire("farmer", "architect", "mill_worker",
                                                players=["Cy", "Ann", "Ben"]),
                 *passes("Cy", "Ann", "Ben") * 4, ADMIN)
    assert state.order == ["Ann", "Ben", "Cy"]


# Characters and turn order --------------------------------------------------------------------


def test_characters_are_hired_in_turn_order_once_each():
    state = play(SETUP, act("character", "Ann", character="farmer"))
    refused(state, "character", {"player": "Cy", "character": "architect"},
            "It is Ben's turn, not Cy's.")
    refused(state, "character", {"player": "Ben", "character": "farmer"},
            "The Farmer card is not on display: choose one of ")
    refused(state, "character", {"player": "Ben", "character": "sheriff"},
            "Choose one of the characters on display: ")  # no such card: its key is not said
    refused(state, "character", {"player": "Ben", "character": "mayor"}, "not on display")
    refused(state, "pass", {"player": "Ben"}, "First the characters: Ben chooses one.")
    state = play(("setup", {**SETUP[1], "inventions": False}))
    refused(state, "character", {"player": "Ann", "character": "professor"}, "not on display")


def test_actions_follow_the_turn_order_and_the_four_action_phases():
    state = play(SETUP, *hire("farmer", "architect", "mill_worker"), *passes(*PLAYERS) * 3,
                 act("pass", "Ann"))
    assert (state.action_phase, state.current_player) == (4, "Ben")
    refused(state, "pass", {"player": "Ann"}, "It is Ben's turn, not Ann's.")
    refused(state, "administration", {}, "First the actions: Ben acts in action phase 4 of 4.")
    refused(state, "final", {}, "First the actions")
    state.apply("pass", {})  # the player defaults to the one whose turn it is
    assert state.current_player == "Cy"


def started(*keys, players=("Ann", "Ben"), inventions=False, money=10, grounds=2, pools=None):
    """A table in action phase 1 of turn 1, the characters hired in seat order."""
    setup = {"inventions": inventions, "start_player": players[0], "money": money,
             "grounds": grounds, "pools": pools or {}}
    return play(("setup", setup), *hire(*keys, players=list(players)), players=list(players))


# Buy land and erect buildings -----------------------------------------------------------------


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"price_markers": 0, "grounds": 1},
         "The price markers on the territory cannot be less than 1."),
        ({"price_markers": 11, "grounds": 1}, r"Ann has only \$10, not \$11."),
        ({"price_markers": 1, "grounds": 3}, "The territory's building grounds cannot be more"),
        ({"price_markers": 1, "grounds": 1, "character": "land_swap"},
         "Ann does not hold the Land swap card."),
        ({"price_markers": 1, "grounds": 1, "character": "farmer"},
         "The character 'farmer' is not played with this action."),
    ],
)
def test_buying_land_refusals(payload, message):
    refused(started("farmer", "architect"), "buy_land", {"player": "Ann", **payload}, message)


def test_land_costs_a_dollar_per_price_marker():
    state = started("land_swap", "architect")
    state.apply("buy_land", {"price_markers": 3, "grounds": 2, "character": "land_swap"})
    ann = state.cards["Ann"]
    assert (ann.money, ann.territories, ann.grounds, ann.characters) == (7, 2, 4, [])
    assert state.note == ("Ann bought a territory with 2 building grounds for $3. Card played: "
                          "Land swap.")


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"building": "house", "count": 2},
         "A house needs an empty building ground: Ann has 1."),
        ({"building": "skyscraper", "count": 2},
         "A skyscraper replaces one of your houses: you have 1 standing"),
        ({"building": "castle"}, "Unknown building 'castle'"),
        ({"building": "administrative", "count": 4}, r"Ann has only \$10, not \$12."),
        ({"building": "house", "count": 0}, "The houses to erect cannot be less than 1."),
        ({"building": "house", "character": "architect"}, "Ann does not hold the Architect card."),
    ],
)
def test_erecting_refusals(payload, message):
    refused(started("farmer", "architect"), "erect", {"player": "Ann", **payload}, message)


def test_counted_pools_run_out():
    state = started("farmer", "architect", pools={"administrative": 1, "house": 0})
    refused(state, "erect", {"building": "house"},
            "The pool holds too few houses: 0 left.")
    state.apply("erect", {"building": "administrative"})
    state.apply("erect", {"building": "skyscraper", "character": "architect"})
    assert state.pools == {"administrative": 0, "house": 1}  # the replaced house is back
    refused(state, "erect", {"building": "administrative"},
            "The pool holds too few administrative buildings: 0 left.")


def test_a_skyscraper_needs_a_house_standing_before_the_action():
    state = started("farmer", "architect", grounds=1)
    state.cards["Ann"].standing = 0  # as if Ann's only house were already a skyscraper
    refused(state, "erect", {"building": "skyscraper"}, "you have 0 standing")


# Trade grain ----------------------------------------------------------------------------------


def test_rulebook_grain_examples_at_a_four_player_table():
    four = ["Anika", "Ben", "Cleo", "Dan"]
    state = started("farmer", "architect", "mill_worker", "land_swap", players=four)
    # "Anika wants to buy 5 grain in one action ... She pays $9 to the bank."
    state.apply(BUY, {"buy": 5})
    assert (state.cards["Anika"].money, state.cards["Anika"].grain) == (1, 5)
    assert state.grain.market == {"barns": [3, 3, 3, 3], "field": 3}
    # "Anika intends to sell 4 grain markers ... 2 grain markers in barn 1 and 1 marker each in
    # barns 2 and 3. She receives $5." (Ben sells into the market of the example)
    state.grain.market = {"barns": [2, 3, 3, 4], "field": 4}
    state.cards["Ben"].grain = 4
    state.apply(BUY, {"sell": 4})
    assert (state.cards["Ben"].money, state.cards["Ben"].grain) == (15, 0)
    assert state.grain.market == {"barns": [4, 4, 4, 4], "field": 4}


@pytest.mark.parametrize(
    "grain, payload, message",
    [
        (0, {"buy": 1, "sell": 1}, "One trade either buys or sells grain, not both."),
        (0, {}, "Enter the grain to buy or to sell."),
        (6, {"buy": 3},
         "A player may have at most 8 grain: with 6 held, at most 2 can be bought."),
        (2, {"sell": 3}, "The seller holds only 2 grain, not 3."),
        (0, {"buy": 7}, "Only 6 grain can be bought in one action now"),  # 4 barns, field 2
        (2, {"sell": 1}, "The barns and the field have room for only 0 more grain."),
        (0, {"buy": 1, "character": "mill_worker"}, "Ann does not hold the Mill Worker card."),
        (0, {"buy": -1}, "The grain to buy cannot be less than 0."),
    ],
)
def test_trading_grain_refusals(grain, payload, message):
    state = started("farmer", "architect")
    state.cards["Ann"].grain = grain
    refused(state, BUY, payload, message)


def test_grain_the_rules_refuse_is_said_beside_the_grain_typed():
    """Found at a table: "at most 8 grain" said in the strip, not under the grain typed."""
    state = started("farmer", "architect")
    state.cards["Ann"].grain = 6
    for payload, key in (({"buy": 3}, "buy"), ({"sell": 7}, "sell")):
        with pytest.raises(RuleError) as refusal:
            state.apply(BUY, payload)
        assert refusal.value.key == key


def test_buying_needs_the_money_and_cheap_grain_costs_a_dollar():
    state = started("farmer", "architect", money=4)
    refused(state, BUY, {"buy": 5}, r"Ann has only \$4, not \$9.")  # 1 + 1 + 2 + 2 + 3
    state.cards["Ann"].inventions = [Invention(1, "cheap_grain", None, 0)]
    state.apply(BUY, {"buy": 4})  # the invention: $1 each instead of 1 + 1 + 2 + 2
    assert (state.cards["Ann"].money, state.cards["Ann"].grain) == (0, 4)


def test_the_mill_worker_takes_what_the_field_has_and_never_above_8():
    state = started("mill_worker", "architect")
    state.grain.market["field"] = 1
    state.apply(BUY, {"character": "mill_worker"})
    assert state.cards["Ann"].grain == 1 and state.grain.market["field"] == 0
    assert state.note == "Ann took 1 grain free. Card played: Mill Worker."
    state = started("mill_worker", "architect")
    state.cards["Ann"].grain = 7
    state.grain.market = {"barns": [0, 2, 2, 2], "field": 2}
    state.apply(BUY, {"character": "mill_worker", "sell": 2})  # 1 free (8 at most), 2 sold ($2)
    assert state.grain.market == {"barns": [2, 2, 2, 2], "field": 1}
    assert state.cards["Ann"].grain == 6 and state.cards["Ann"].money == 12


# Sow, work orders ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "grain, payload, message",
    [
        (3, {"grain": 2}, "Each empty building ground holds 1 grain: Ann has room for 1."),
        (0, {"grain": 1}, "Ann has no grain to sow."),
        (3, {"grain": 0}, "Sow at least one grain."),
        (3, {"grain": 1, "farmer": 1}, "Seeds on the Farmer card need the Farmer"),
        (3, {"grain": 1, "character": "farmer"}, "Ann does not hold the Farmer card"),
    ],
)
def test_sowing_refusals(grain, payload, message):
    state = started("architect", "farmer")
    state.cards["Ann"].grain = grain
    refused(state, "sow", {"player": "Ann", **payload}, message)


def test_rulebook_sowing_one_grain_and_two_per_ground_with_the_invention():
    # "Anika moves 1 grain marker from her tracking card to an empty building space."
    state = started("architect", "farmer")
    state.cards["Ann"].grain = 4
    state.apply("sow", {"grain": 1})
    assert (state.cards["Ann"].grain, state.cards["Ann"].sown, state.cards["Ann"].seed_room) == (
        3, 1, 0)
    refused(state, "erect", {"player": "Ben", "building": "house", "count": 2},
            "Ben has 1")  # Ben's second ground is free; Ann's is sown
    state.cards["Ann"].inventions = [Invention(3, "sow_two", None, 0)]
    assert state.cards["Ann"].seed_room == 1  # the sown ground takes a second seed


@pytest.mark.parametrize("recorded_now", [True, False])
def test_a_ground_sown_before_the_invention_keeps_its_seed(recorded_now):
    """Found by a rules audit: Ann sowed her two empty grounds, a seed on each, then took the
    invention "sow up to 2 seeds per building ground": her seeds were counted two to a ground,
    and a house went on a sown ground. A sowing recorded now counts the grounds it takes
    (`seeded`): no house there, and a second seed still fits on each; one recorded before keeps
    the reading it was refereed with."""
    state = started("architect", "farmer", inventions=True)
    state.cards["Ann"].grain, state.cards["Ann"].grounds = 4, 3  # as after buying land
    sow = {"player": "Ann", "grain": 2}
    state.apply("sow", state.recorded("sow", sow) if recorded_now else sow)
    state.cards["Ann"].inventions = [Invention(3, "sow_two", None, 0)]
    card = state.cards["Ann"]
    assert (card.empty_grounds, card.seed_room) == ((0, 2) if recorded_now else (1, 2))
    while state.current_player != "Ann":
        state.apply("pass", {"player": state.current_player})
    house = {"player": "Ann", "building": "house"}
    if recorded_now:
        refused(state, "erect", state.recorded("erect", house),
                "A house needs an empty building ground: Ann has 0.")
    else:
        state.apply("erect", house)
        assert card.standing == 2


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"colour": "purple", "count": 1}, "Unknown work order colour 'purple'"),
        ({"colour": "white", "count": 0}, "The work orders on the space cannot be less than 1."),
        ({"colour": "white", "count": 1, "last": "yes"}, "The last work order space is yes or no."),
        ({"colour": "white", "count": 3}, "Only 2 white work orders are left on the board."),
        ({"colour": "grey", "count": 3, "character": "double_orders", "extra_colour": "white"},
         "Only 2 white"),
    ],
)
def test_work_order_refusals(payload, message):
    state = started("double_orders", "architect")
    state.cards["Ben"].orders["white"] = 13
    refused(state, "work_orders", {"player": "Ann", **payload}, message)


def test_rulebook_work_orders_two_orange():
    # "The illustration in that box tells her to take 2 orange work order markers."
    state = started("architect", "farmer")
    state.apply("work_orders", {"colour": "orange", "count": 2})
    assert state.cards["Ann"].orders == {"white": 0, "grey": 0, "orange": 2}
    assert state.supply["orange"] == 13
    assert state.note == "Ann received work orders: 2 orange."


# Attract industry, produce goods ---------------------------------------------------------------


def factory(number, colour="orange", goods=2, **more):
    return {"number": number, "colour": colour, "goods": goods, **more}


def test_rulebook_bakery_then_windmill_upgrade_then_two_orange_goods():
    state = started("architect", "farmer")
    # "She then builds a factory on one of her empty building grounds and gains 2 VP."
    state.apply("attract", factory(2, name="Bakery"))
    state.apply("pass", {})
    # "As the Windmill's factory number is higher then the one on the Bakery ... She then moves
    # her marker up 2 victory points."
    state.apply("attract", factory(6, name="Windmill", upgrade=2))
    assert state.cards["Ann"].empty_grounds == 0  # the upgrade needs no ground
    state.apply("pass", {})
    # "Anika produces 2 orange goods with the Windmill ... 2 victory points and $2."
    state.cards["Ann"].orders["orange"] = 2
    state.apply("produce", {"factory": 6, "orders": {"orange": 2}})
    assert state.totals()["Ann"] == 1 + 2 + 2 + 2
    assert state.cards["Ann"].money == 12
    assert state.production["orange"] == 2
    assert state.note == "Ann produced 2 goods at factory 6 Windmill (orange): $2, +2 VP."


@pytest.mark.parametrize(
    "payload, message",
    [
        (factory(4), "Factory 4 is already Ben's: each card exists once."),
        (factory(7, filled=False), "A factory is attracted only when all its work order spaces"),
        (factory(2, upgrade=5), "Factory 2 cannot upgrade factory 5: its number must be higher."),
        (factory(9, upgrade=3), "There is no active factory 3 to upgrade."),
        (factory(9, goods=0), "The goods on its production space cannot be less than 1."),
        (factory(9, colour="blue"), "Unknown factory colour 'blue'"),
        (factory(9, name=7), "The factory's name is a name of at most 40 characters."),
    ],
)
def test_attracting_refusals(payload, message):
    state = started("architect", "farmer")
    state.cards["Ben"].factories = [Factory(4, "grey", 2)]
    state.cards["Ann"].factories = [Factory(5, "orange", 2)]
    state.cards["Ann"].grounds = 3
    refused(state, "attract", payload, message)


def test_grain_bought_after_sowing_does_not_block_the_harvest():
    """"A player may have a maximum of 8 grain markers": Ann sows 1, then buys up to 8. The
    harvest gives back what fits and the sown marker that does not goes to the return area; the
    administration was refused before, and the game could not go on."""
    state = started("architect", "farmer")
    state.apply("effect", {"player": "Ann", "grain": 4, "reason": "the return area"})
    state.apply("sow", {"grain": 1})
    state.apply("pass", {})
    state.apply("trade_grain", {"buy": 4})  # barns 1-4: $6
    state.apply("pass", {})
    state.apply("trade_grain", {"buy": 1})  # the field: $3
    assert (state.cards["Ann"].grain, state.cards["Ann"].sown) == (8, 1)
    for _ in range(3):
        state.apply("pass", {})
    state.apply("administration", {})
    assert state.report.players["Ann"][0] == (
        "Harvest: 0 of 1 sown back, the rest to the return area (at most 8 grain): 8 grain.")
    assert (state.cards["Ann"].grain, state.cards["Ann"].sown) == (8, 0)
    on_board = sum(state.grain.market["barns"]) + state.grain.market["field"]
    in_hand = sum(c.grain + c.sown + c.farmer for c in state.cards.values())
    assert on_board + state.grain.return_area + in_hand == 14  # 7 markers per player


def test_a_new_factory_needs_an_empty_ground_and_a_marker_in_the_pool():
    state = started("architect", "farmer", grounds=1)
    refused(state, "attract", factory(3), "A new factory needs an empty building ground: Ann has")
    state = started("architect", "farmer", pools={"factory": 0})
    refused(state, "attract", factory(3), "No factory markers are left in the pool.")


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"factory": 9, "orders": {"orange": 1}}, "Ann owns no factory 9."),
        ({"factory": 2, "orders": {"orange": 1}}, "Factory 2 was upgraded"),
        ({"factory": 5, "orders": {"grey": 1}},
         "Factory 5 makes orange goods from orange work orders"),
        ({"factory": 5, "orders": {"orange": 3}}, "Factory 5 produces at most 2 goods."),
        ({"factory": 5, "orders": {"orange": 0}}, "Producing goods takes at least one"),
        ({"factory": 5, "orders": {"red": 1}}, "Unknown work order colour 'red'"),
        ({"factory": 5, "orders": {"white": 1}, "character": "any_colour"},
         "Ann has no white work orders."),
        ({"factory": 5, "orders": {"grey": 2}, "character": "any_colour"},
         "Ann has only 1 grey work order."),  # found at a table: "1 ... work orders"
        ({"factory": 6, "orders": {"orange": 1}}, "Factory 6 has already produced this turn."),
    ],
)
def test_production_refusals(payload, message):
    state = started("any_colour", "farmer")
    ann = state.cards["Ann"]
    ann.factories = [Factory(2, "orange", 2, active=False), Factory(5, "orange", 2),
                     Factory(6, "orange", 2, produced=True)]
    ann.orders = {"white": 0, "grey": 1, "orange": 3}
    refused(state, "produce", payload, message)


def test_a_factory_of_one_good_says_good():
    """Found at a table: "Factory 6 produces at most 1 goods." """
    state = started("any_colour", "farmer")
    ann = state.cards["Ann"]
    ann.factories = [Factory(6, "orange", 1)]
    ann.orders = {"white": 0, "grey": 1, "orange": 3}
    refused(state, "produce", {"factory": 6, "orders": {"orange": 2}},
            "Factory 6 produces at most 1 good.")


def test_production_inventions_money_vp_and_at_least_two_goods():
    state = started("architect", "farmer")
    ann = state.cards["Ann"]
    ann.factories = [Factory(5, "white", 1)]
    ann.orders["white"] = 2
    ann.inventions = [Invention(1, "white_min2", None, 0), Invention(2, "white_money", None, 0),
                      Invention(4, "white_vp", None, 0)]
    state.apply("produce", {"factory": 5, "orders": {"white": 2}})
    # 2 goods (at least 2), $4 each (instead of $3), 2 VP each (instead of 1).
    assert ann.money == 10 + 8
    assert state.totals()["Ann"] == 1 + 4


# Taxes, inventions -----------------------------------------------------------------------------


def test_rulebook_taxes_and_their_refusals():
    state = started("architect", "tax_collector")
    state.cards["Ann"].citizens = 1
    # "She moves her tracking marker in the tax line one space left and gains $1 for her citizen."
    state.apply("taxes", {})
    assert (state.cards["Ann"].tax, state.cards["Ann"].money) == (9, 11)
    state.cards["Ben"].citizens, state.cards["Ben"].tax = 4, 5
    refused(state, "taxes", {"character": "tax_collector"},
            "After one collection the tax marker no longer lies right of the citizen marker")
    state.cards["Ben"].tax = 4
    refused(state, "taxes", {}, "only while the tax marker lies right of the citizen marker")


def test_the_tax_collector_collects_twice_and_says_so():
    """"Collect taxes twice in 1 action phase. Move the tax marker left 1 space each time": Ben,
    2 citizens, his tax marker on 6, takes $2 twice and his marker ends on 4, said as twice, not
    as one collection of "$4 in taxes"."""
    state = started("architect", "tax_collector")
    state.apply("taxes", {})  # Ann's action; Ben's turn
    ben = state.cards["Ben"]
    ben.citizens, ben.tax, money = 2, 6, ben.money
    state.apply("taxes", {"character": "tax_collector"})
    assert (ben.tax, ben.money) == (4, money + 4)
    assert state.note.startswith("Ben collected taxes twice: $4.")


def test_inventions_need_the_expansion():
    refused(started("architect", "farmer"), "invention",
            {"to": 1, "cards": [{"ability": "grey_vp"}]},
            "Inventions are played only with the Inventions expansion.")


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"marker": 0, "to": 3, "cards": [{"ability": "grey_vp"}]},
         "A marker moves at least one space to the right."),
        ({"marker": 1, "to": 5, "cards": [{"ability": "grey_vp"}]},
         "The invention marker cannot be more than 0."),
        ({"to": 2, "cards": [{"ability": "grey_vp"}]},
         "No invention card is left at docking space 2."),
        ({"to": 1, "cards": [{"ability": "white_vp"}]},
         r"The invention “2 VP \(instead of 1\) for each white good” is already taken: each "
         "exists once."),
        ({"to": 3, "cards": [{"ability": "grey_vp"}], "character": "professor"},
         "Describe the 2 invention cards taken at docking space 3."),
        ({"to": 9, "cards": [{"ability": "grey_vp"}]}, r"Ann has only \$5, not \$8."),
        ({"to": 1, "cards": [{"ability": "fly"}]}, "Unknown invention ability 'fly'."),
        ({"to": 1, "cards": [{"factory": "Hotel", "vp": 3}]},
         "The invention card with the Hotel pays 1 VP at the end."),
        ({"to": 1, "cards": [{"factory": "Windmill", "vp": 2}]},
         "No invention card names the factory 'Windmill': choose one of Steelworks, "),
        ({"to": 1, "cards": [{"vp": 2}]}, "An end bonus names its factory: choose it."),
        ({"to": 1, "cards": [{}]}, "Describe the invention card: its ability"),
        ({"to": 10, "cards": [{"ability": "grey_vp"}]},
         "The docking space cannot be more than 9."),
    ],
)
def test_invention_refusals(payload, message):
    state = started("professor", "farmer", inventions=True, money=5)
    state.docks[1] = 0
    state.docks[0] = 1
    state.cards["Ann"].markers = [4]
    state.cards["Ben"].inventions = [Invention(1, "white_vp", None, 0)]
    refused(state, "invention", payload, message)


@pytest.mark.parametrize(
    "name, message",
    [
        ("", "Say which factory it is \\(one an invention card names, or another factory\\)"),
        (None, "Say which factory it is"),
        ("Windmill", "No invention card names the factory 'Windmill'"),
        ("Law Firn", "No invention card names the factory 'Law Firn'"),
    ],
)
def test_with_the_inventions_an_attracted_factory_says_which_it_is(name, message):
    """The end bonus "if you own the Law Firm" needs to know which factory each card is: a
    blank or a name no invention card has is refused, not silently left out of the bonus."""
    state = started("architect", "farmer", inventions=True)
    refused(state, "attract", factory(3, name=name), message)


@pytest.mark.parametrize("name, kept", [("other", "other"), ("law firm", "Law Firm"),
                                        ("Law Firm", "Law Firm")])
def test_a_factory_is_one_an_invention_names_or_another(name, kept):
    state = started("architect", "farmer", inventions=True)
    state.apply("attract", factory(3, name=name))
    assert state.cards["Ann"].factories[0].name == kept


def final_with_an_invention(factory_name):
    """Ann holds the Law Firm's invention (2 VP at the end) and attracted factory 3 as
    `factory_name`; the table then stands at the final scoring."""
    state = started("architect", "farmer", inventions=True)
    state.cards["Ann"].inventions = [Invention(1, None, "Law Firm", 2)]
    state.cards["Ann"].factories = [Factory(3, "white", 2, factory_name)]
    state.segment, state.turn = "final", 6
    return state


def test_an_invention_bonus_counts_with_the_factory_it_names():
    state = final_with_an_invention("Law Firm")
    state.apply("final", {})
    assert state.report.players["Ann"][-1] == "Invention with the Law Firm: +2 VP."
    assert state.vp_by_source()["Ann"]["invention bonus"] == 2


def test_a_factory_left_unnamed_is_named_by_a_correction_before_the_final_scoring():
    """A table from before the app asked which factory each is: the final scoring waits for
    the answer (one correction), then counts the bonus."""
    state = final_with_an_invention("")
    refused(state, "final", {}, "Say which factory Ann's factory 3 is first \\(Corrections\\)")
    refused(state, "name_factory", {"player": "Ann", "number": 4, "name": "Law Firm"},
            "Ann has no factory 4.")
    refused(state, "name_factory", {"player": "Ann", "number": 3, "name": ""},
            "Say which factory it is")
    state.apply("name_factory", {"player": "Ann", "number": 3, "name": "Law Firm",
                                 "reason": "the card"})
    state.apply("final", {})
    assert state.report.players["Ann"][-1] == "Invention with the Law Firm: +2 VP."


def test_another_factory_pays_no_invention_bonus():
    state = final_with_an_invention("other")
    state.apply("final", {})
    assert "invention bonus" not in state.vp_by_source()["Ann"]


@pytest.mark.parametrize("name", ["Bakery", "", None, "Law Firm"])
def test_without_the_inventions_a_factory_may_have_any_name_or_none(name):
    """No end bonus needs it: the rulebook's own example has a Bakery and a Windmill."""
    state = started("architect", "farmer")
    state.apply("attract", factory(3, name=name))
    assert state.cards["Ann"].factories[0].name == (name or "")


@pytest.mark.parametrize("card, vp", [({"factory": "Hotel"}, 1), ({"factory": "Electric Plant"}, 5),
                                      ({"factory": "law firm", "vp": 2}, 2)])
def test_an_end_bonus_takes_its_vp_from_the_invention_card(card, vp):
    state = started("farmer", "architect", inventions=True)
    state.apply("invention", {"to": 1, "cards": [card]})
    assert state.cards["Ann"].inventions[0].vp == vp


def test_the_inventions_taken_are_said_by_what_they_do():
    """Found at a table: two players' invention cards were swapped, and the history said only
    "took 1 invention" for each: the cards are said, ability and end bonus."""
    state = started("farmer", "architect", inventions=True)
    state.apply("invention", {"to": 1, "cards": [{"ability": "grey_money", "factory": "Hotel"}]})
    assert state.note == ("Ann moved to docking space 1 free and took 1 invention (“Earn $3 "
                          "(instead of $2) for grey goods; 1 VP at the end with the Hotel”): "
                          "+1 VP.")


def test_a_factory_an_invention_card_names_is_one_card():
    """"If you own the Law Firm": there is one Law Firm, so a second factory card of that name
    is refused (it would pay a second bonus); another factory may come any number of times."""
    state = started("architect", "farmer", inventions=True)
    state.apply("attract", factory(3, name="Law Firm"))  # Ann
    refused(state, "attract", factory(4, name="law firm"),
            "The Law Firm is already Ann's factory 3: each card exists once.")
    state.apply("attract", factory(4, name="other"))  # Ben
    refused(state, "attract", factory(5, name="Law Firm", upgrade=3),  # the old card stays
            "The Law Firm is already Ann's factory 3")
    state.apply("attract", factory(5, name="other", upgrade=3))
    state.apply("attract", factory(6, name="other", upgrade=4))
    assert [f.name for f in state.cards["Ann"].factories] == ["Law Firm", "other"]
    assert [f.name for f in state.cards["Ben"].factories] == ["other", "other"]


def test_a_correction_names_a_factory_only_once():
    state = started("architect", "farmer", inventions=True)
    state.apply("attract", factory(3, name="Hotel"))
    state.apply("attract", factory(4, name="other"))
    refused(state, "name_factory", {"player": "Ben", "number": 4, "name": "Hotel",
                                    "reason": "the card"},
            "The Hotel is already Ann's factory 3: each card exists once.")
    refused(state, "name_factory", {"player": "Ben", "number": 4, "name": "Bakery"},
            "No invention card names the factory 'Bakery'")
    state.apply("name_factory", {"player": "Ann", "number": 3, "name": "Hotel"})  # the same card
    state.apply("name_factory", {"player": "Ann", "number": 3, "name": "other"})
    state.apply("name_factory", {"player": "Ben", "number": 4, "name": "Hotel"})
    assert state.cards["Ben"].factories[0].label == "factory 4 Hotel (orange)"
    assert state.cards["Ann"].factories[0].label == "factory 3 (orange)"


def test_each_end_bonus_is_on_one_invention_card():
    """The thirteen end bonuses name thirteen factories, one card each."""
    state = started("professor", "farmer", inventions=True)
    state.apply("invention", {"to": 1, "cards": [{"ability": "grey_vp", "factory": "Hotel"}]})
    refused(state, "invention", {"to": 2, "cards": [{"factory": "Hotel"}]},
            "The invention with the end bonus for the Hotel is already taken: each exists once.")
    state.apply("pass", {})
    refused(state, "invention", {"to": 3, "character": "professor",
                                 "cards": [{"factory": "Pottery"}, {"factory": "pottery"}]},
            "The invention with the end bonus for the Pottery is already taken")


def test_a_factory_is_shown_by_its_card_name_and_another_factory_by_its_number():
    other, hotel, bakery = (Factory(3, "orange", 2, "other"), Factory(4, "grey", 2, "Hotel"),
                            Factory(5, "white", 2, "Bakery"))
    assert (other.title, hotel.title, bakery.title, Factory(6, "grey", 2).title) == (
        "", "Hotel", "Bakery", "")
    assert hotel.title.template == "Hotel"  # the card's name, translatable


def test_a_new_invention_marker_and_the_professor_taking_a_whole_space():
    state = started("farmer", "professor", inventions=True)
    # A new marker enters at the left: space 1 is free, each further space $1.
    state.apply("invention", {"to": 3, "cards": [{"ability": "grey_vp", "factory": "Steelworks",
                                                  "vp": 3}]})
    assert (state.cards["Ann"].money, state.cards["Ann"].markers, state.docks[2]) == (8, [3], 1)
    refused(state, "invention", {"marker": 0, "to": 4, "cards": []},
            "Ben has no marker on the invention track: enter a new one.")
    state.apply("invention", {"to": 3, "cards": [{"ability": "grey_money"}],
                              "character": "professor"})  # the one card left there
    assert state.totals() == {"Ann": 2, "Ben": 2}
    assert state.cards["Ann"].inventions[0].label == (
        "2 VP (instead of 1) for each grey good; 3 VP at the end with the Steelworks")


# Effects and corrections -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"money": -11}, r"Ann cannot go below \$0 or 0 VP."),
        ({"vp": -2}, r"Ann cannot go below \$0 or 0 VP."),
        ({"grain": 5}, "The return area holds only 4 grain."),
        ({"grain": -1}, "Ann's grain stays between 0 and 8."),
        ({"orders": {"white": -1}}, "Ann cannot take or give that many white work orders."),
        ({"money": 1.5}, "The money must be a whole number between -999 and 999."),
        ({"orders": "lots"}, "Work orders are given by colour"),
        ({"money": 1, "reason": "x" * 101},
         "What a correction is for is at most 100 characters."),
    ],
)
def test_effect_refusals(payload, message):
    refused(started("farmer", "architect"), "effect", {"player": "Ann", **payload}, message)


def test_an_effect_takes_no_action_phase():
    state = started("farmer", "architect")
    state.apply("effect", {"player": "Ben", "vp": 3, "grain": 2, "orders": {"grey": 1},
                           "reason": "Land swap replayed"})
    assert state.current_player == "Ann"
    assert (state.cards["Ben"].grain, state.grain.return_area) == (2, 2)
    assert state.vp_by_source()["Ben"] == {"house": 1, "other": 3}
    assert state.note == "Ben: Land swap replayed (+3 VP, +2 grain, +1 grey work order)."


# Administration with inventions, and its refusals ----------------------------------------------


def administration_ready(**card):
    state = started("farmer", "architect", inventions=True)
    for _ in range(4):
        state.apply("pass", {})
        state.apply("pass", {})
    for key, value in card.items():
        setattr(state.cards["Ann"], key, value)
    return state


def test_administration_with_the_inventions():
    ann_inventions = [Invention(1, "harvest_grain2", None, 0), Invention(2, "harvest_vp", None, 0),
                      Invention(3, "white_order", None, 0),
                      Invention(4, "orange_to_grey", None, 0)]
    state = administration_ready(grain=3, sown=1, inventions=ann_inventions, houses=3,
                                 orders={"white": 0, "grey": 0, "orange": 2})
    state.grain.return_area = 1
    state.apply("administration", {"exchange": ["Ann"], "display": [5, 3, 7]})
    # Harvest: 1 sown back + 1 more + 2 (invention) = 3 + 4 = 7 grain; 1 from the return area,
    # then 2 from the field: 7 // 2 = 3 VP. Factories: +1 white; 2 orange for 2 grey.
    # Citizens: min(3 houses, 7 grain, 3 orders) = 3: 6 VP; 4 grain left: 1 VP.
    assert state.reports[-1].players["Ann"] == [
        "Harvest: 1 sown back, 1 more, 2 from inventions: 7 grain.",  # it said "3 more"
        "Invention: 1 VP per 2 grain: +3 VP.",
        "Invention: +1 white work order.",
        "Invention: 2 orange work orders exchanged for 2 grey.",
        "Citizens: 3 (houses 3, grain 7, work orders 3): 2 VP each, +6 VP.",
        "Feeding: 3 grain eaten, 4 left: 1 VP per 3, +1 VP.",
    ]
    assert state.reports[-1].board[0] == ("Remove factory 3 (space 2) and turn up the top card "
                                          "of the deck.")
    assert state.cards["Ann"].orders == {"white": 1, "grey": 2, "orange": 0}
    # Field 2 - 2 = 0, return area 0 + 3 eaten; no surplus above 2 per player.
    assert (state.grain.market["field"], state.grain.return_area) == (0, 3)
    assert state.vp_by_source()["Ann"] == {"house": 1, "harvest": 3, "citizens": 6, "grain": 1}


def test_a_harvest_with_nothing_sown_says_only_the_inventions_grain():
    """It said "Harvest: 0 sown back, 0 more, 1 from inventions: 1 grain." (found looking at
    the harvest's new words on a phone)."""
    state = administration_ready(grain=0, sown=0,
                                 inventions=[Invention(1, "harvest_grain1", None, 0)])
    state.apply("administration", {})
    assert state.reports[-1].players["Ann"][0] == "Harvest: 1 from inventions: 1 grain."


def test_a_harvest_the_8_grain_cut_short_says_so():
    """Found at a table: "Harvest: 0 sown back, 0 more: 8 grain." of a player at 8 whose
    invention's grain found no room, read as a harvest that happened. Ann at 8 with 1 from an
    invention gets none; at 5 with 2 sown (7 after they are back) and 2 from an invention, 1 of
    the 4 more: "A player may have a maximum of 8 grain markers"."""
    state = administration_ready(grain=8, sown=0,
                                 inventions=[Invention(1, "harvest_grain1", None, 0)])
    state.apply("administration", {})
    assert state.reports[-1].players["Ann"][0] == (
        "Harvest: 0 of 1 from inventions (at most 8 grain): 8 grain.")
    state = administration_ready(grain=5, sown=2,
                                 inventions=[Invention(1, "harvest_grain2", None, 0)])
    state.apply("administration", {})
    assert state.reports[-1].players["Ann"][0] == (
        "Harvest: 2 sown back, 1 of 4 more (at most 8 grain): 8 grain.")


def test_a_factory_removed_at_the_administration_is_out_of_the_game():
    """"Remove the lowest numbered face-up factory card from the game and replace it with the
    top card from the factory deck": once the table has said the display (1, 2, 3), factory 1
    can no longer be attracted, and the display's one-tap offers are the next three."""
    state = administration_ready()
    state.apply("administration", {"display": [1, 2, 3]})
    assert state.removed == [1]
    for _ in state.order:
        state.apply("character", {"character": state.available_characters[0]})
    player = state.current_player
    known = {n: {"colour": "orange", "goods": 2, "name": ""} for n in range(1, 9)}
    assert [o.payload["number"] for o in attract_offers(state, known, most=3)] == [2, 3, 4]
    refused(state, "attract", {"player": player, "number": 1, "colour": "orange", "goods": 2,
                               "name": "other"},
            "Factory 1 was removed from the game at an administration: it cannot be attracted.")


def test_administration_refusals_change_nothing():
    state = administration_ready(orders={"white": 0, "grey": 0, "orange": 1},
                                 inventions=[Invention(4, "orange_to_grey", None, 0)])
    refused(state, "administration", {"exchange": ["Ben"]},
            "Only owners of the exchange invention exchange work orders.")
    refused(state, "administration", {"exchange": ["Ann"]},
            "The exchange needs 2 orange work orders on the card and 2 grey ones on the board.")
    # The page offers the exchange only where it can be done (found at a table: offered with
    # no orange work order, and the whole administration refused once ticked).
    assert not state.exchange_possible("Ann") and not state.exchange_possible("Ben")
    state.cards["Ann"].orders["orange"] = 2
    assert state.exchange_possible("Ann")
    state.cards["Ann"].orders["orange"] = 1
    state.cards["Ann"].inventions.append(Invention(5, "orange_order", None, 0))
    assert state.exchange_possible("Ann")  # the invention's orange order comes first
    refused(state, "administration", {"display": [5, 3]}, "The factory display has 3 spaces.")
    refused(state, "pass", {}, "All actions are taken: do the administration.")


def test_rulebook_citizens_the_lowest_of_the_three_lines():
    # "As the lowest numbered position among her house, grain and work order lines is 1, Anika
    # moves her citizen marker to the 1 space in the citizen line."
    state = administration_ready(grain=3, orders={"white": 0, "grey": 2, "orange": 1})
    state.grain.return_area -= 3  # where Ann's grain came from
    state.apply("administration", {})
    assert state.cards["Ann"].citizens == 1  # houses 1, grain 3, work orders 3
    assert state.cards["Ann"].grain == 2  # one eaten; 2 left are no VP
    assert state.vp_by_turn()["Ann"] == {0: 1, 1: 2}


def test_an_impossible_grain_count_refuses_the_administration_and_changes_nothing():
    # 3 grain more than the 14 markers in play: found when a citizen eats one.
    state = administration_ready(grain=3, orders={"white": 0, "grey": 1, "orange": 0})
    refused(state, "administration", {}, "A 2-player game has only 14 grain markers, but 15")


def test_odd_payloads_are_refused_in_words():
    state = started("farmer", "architect", inventions=True)
    refused(state, "erect", {"building": "house", "character": ["farmer"]},
            "is not played with this action")
    refused(state, "invention", {"to": 1, "cards": [{"ability": ["x"]}]}, "Unknown invention")
    refused(state, "produce", {"factory": 1, "orders": "lots"}, "owns no factory 1")
    refused(state, "nonsense", {}, "Unknown action 'nonsense'.")


def test_the_farmer_is_harvested_like_sown_grain_and_characters_return():
    state = started("farmer", "architect")
    state.cards["Ann"].grain = 2
    state.apply("sow", {"grain": 1, "farmer": 1, "character": "farmer"})
    assert state.note == "Ann sowed 1 grain and 1 on the Farmer. Card played: Farmer."
    for _ in range(7):
        state.apply("pass", {})
    state.apply("administration", {})
    # 2 markers back + 2 more: 4 grain; citizens min(1, 4, 0) = 0: 4 grain left, 1 VP.
    assert state.cards["Ann"].grain == 4
    assert (state.cards["Ann"].sown, state.cards["Ann"].farmer) == (0, 0)
    # Ann 1 + 1 (grain), Ben 1: Ben is the Mayor; his unplayed Architect is gone.
    assert state.cards["Ben"].characters == ["mayor"]
    assert state.available_characters[0] == "land_swap"


def test_the_final_scoring_tie_goes_to_the_newest_factory():
    state = administration_ready()
    state.turn = 6
    state.apply("administration", {})
    state.vp_log.append((6, "Ben", "other", 2))  # Ann 1 + 2 (factory total) = Ben 1 + 2
    state.cards["Ann"].factories = [Factory(4, "grey", 2), Factory(5, "grey", 2, active=False)]
    state.cards["Ben"].factories = [Factory(7, "white", 2)]
    state.apply("final", {})
    # Factory totals: Ann 9, Ben 7; both end on 3 VP: Ben's factory 7 is the newest.
    assert state.totals() == {"Ann": 3, "Ben": 3}
    assert [(p.place, p.player) for p in state.ranking()] == [(1, "Ben"), (2, "Ann")]
    assert state.report.players["Ann"] == ["Factory total 9, the largest: +2 VP."]
    assert state.report.players["Ben"] == ["Factory total 7."]
    assert state.verdict() == "Ann and Ben tie on 3 VP; Ben wins with the newest factory, 7 to 5."


@pytest.mark.parametrize(("ann", "ben", "verdict"), [
    ([], [7], "Ann and Ben tie on 1 VP; Ben wins with factory 7: the others own none."),
    ([], [], "Ann and Ben tie on 1 VP and own no factory: a shared victory."),
    ([2, 9], [8], "Ann and Ben tie on 1 VP; Ann wins with the newest factory, 9 to 8."),
])
def test_the_verdict_says_how_the_newest_factory_broke_a_tie(ann, ben, verdict):
    state = started("farmer", "architect")  # Ann and Ben: 1 VP each, for the house set up
    state.cards["Ann"].factories = [Factory(n, "grey", 2) for n in ann]
    state.cards["Ben"].factories = [Factory(n, "white", 2) for n in ben]
    assert state.totals() == {"Ann": 1, "Ben": 1}
    assert state.verdict() == verdict


@pytest.mark.parametrize(("numbers", "lines"), [
    # Nobody owns a factory: nobody gains the 2 VP.
    ({"Ann": [], "Ben": []}, {"Ann": "Factory total 0.", "Ben": "Factory total 0."}),
    # 3 + 6 = 9 against 8: the largest sum, however new Ben's factory 8 is.
    ({"Ann": [3, 6], "Ben": [8], "Cy": [1]},
     {"Ann": "Factory total 9, the largest: +2 VP.", "Ben": "Factory total 8.",
      "Cy": "Factory total 1."}),
    # Three tied on 9: Cy's factory 9 is the newest; Ann's 7 and Ben's 5 lose the tie.
    ({"Ann": [2, 7], "Ben": [4, 5], "Cy": [9], "Dan": [8]},
     {"Ann": "Factory total 9, tied; Cy's factory 9 is newer: no bonus.",
      "Ben": "Factory total 9, tied; Cy's factory 9 is newer: no bonus.",
      "Cy": "Factory total 9, tied with Ann and Ben; the newest factory (9): +2 VP.",
      "Dan": "Factory total 8."}),
])
def test_the_final_scoring_says_why_the_factory_bonus_went_where_it_went(numbers, lines):
    winner = factory_bonus(numbers)
    assert {p: factory_total_line(p, winner, numbers) for p in numbers} == lines


def test_describe_and_rulings():
    assert describe("erect", {"player": "Ann", "building": "house", "count": 2,
                              "character": "architect"}) == (
        "Ann erected 2 houses (playing the Architect card)")
    assert describe("trade_grain", {"player": "Ben", "sell": 3}) == "Ben sold 3 grain"
    # The Mill Worker's free grain alone (found at a table: "Clara traded grain").
    assert describe("trade_grain", {"player": "Cy", "buy": 0, "character": "mill_worker"}) == (
        "Cy took the free grain (playing the Mill Worker card)")
    assert describe("character", {"player": "Cy", "character": "farmer"}) == (
        "Cy took the Farmer card")
    assert describe("administration", {}).startswith("Administration: harvest")
    assert describe("mystery", {}) == "mystery"
    assert all(text.startswith("Ruling: ") for text in RULINGS.values())


def test_work_orders_doubled_say_what_was_taken():
    """Found at a table: a change that played the Double work orders card read "took 2 orange
    work orders -> took 2 orange work orders (playing the Double work orders card)": as if
    nothing changed, though she took 4."""
    doubled = {"player": "Cy", "colour": "orange", "count": 2, "character": "double_orders"}
    assert describe("work_orders", doubled) == (
        "Cy took work orders: 4 orange (playing the Double work orders card)")
    assert describe("work_orders", {**doubled, "colour": "white", "extra_colour": "grey"}) == (
        "Cy took work orders: 2 white, 2 grey (playing the Double work orders card)")
    assert describe("work_orders", {"player": "Cy", "colour": "orange", "count": 1}) == (
        "Cy took 1 orange work order")


def test_every_ruling_is_shown_once_in_its_step_or_beside_what_it_rules():
    placed = [key for keys in RULINGS_BY_STEP.values() for key in keys] + list(RULINGS_IN_PLACE)
    plain = [key for key in WITHOUT_INVENTIONS.values() if key]  # in place of one about them
    assert sorted(placed + plain) == sorted(RULINGS)
    assert not set(plain) & set(placed) and set(WITHOUT_INVENTIONS) <= set(placed)


def test_no_factory_room_says_why_no_factory_can_be_attracted():
    """Found at a table: a player without an empty building ground and without a factory was
    offered the factory card form, filled it in, and was refused. The table says so first."""
    state = play(SETUP, *TURN_1[:3])
    assert state.no_factory_room("Ann") is None  # Ann has an empty ground
    state.cards["Ann"].grounds = state.cards["Ann"].built  # every ground built on
    assert state.no_factory_room("Ann") == (
        "Ann has no empty building ground for a new factory and no factory to upgrade: no "
        "factory can be attracted now.")
    with pytest.raises(RuleError, match="A new factory needs an empty building ground"):
        state.apply("attract", {"player": "Ann", "number": 7, "colour": "white", "goods": 2,
                                "name": "other", "upgrade": None})
