"""Cards seen before (issue 26): a factory or invention card seen at a table is offered in one
tap at the next (urbanisation_offers.attract_offers, inventions_open); the character display
keeps its places; the one-tap erect row offers 2 and more buildings."""

import pytest

from companion.rules.urbanisation_actions import (
    ABILITIES,
    BONUS_FACTORIES,
    INVENTION_CARDS,
    cheapest_marker,
    printed_inventions,
)
from companion.rules.urbanisation_example import SETUP, TURN_1, act, hire
from companion.rules.urbanisation_offers import (
    attract_offers,
    inventions_open,
    known_factories,
    known_inventions,
    offers,
)
from companion.rules.urbanisation_table import UrbanisationState

TWO = ["Ann", "Ben"]
TWO_SETUP = ("setup", {"inventions": False, "start_player": "Ann", "money": 10,
                       "grounds": {"Ann": 2, "Ben": 2}})
BAKERY = {3: {"colour": "orange", "goods": 2, "name": "Bakery"}}


def played(actions, players=TWO):
    table = UrbanisationState.start(list(players))
    for kind, payload in actions:
        table.apply(kind, payload)
    return table


def test_a_factory_seen_before_is_offered_new_with_its_colour_goods_and_name():
    table = played([TWO_SETUP, *hire("double_orders", "mill_worker", players=TWO)])
    [offer] = attract_offers(table, BAKERY)
    assert offer.key == "attract.3.new" and offer.vp == 2
    assert offer.payload == {"player": "Ann", "number": 3, "colour": "orange", "goods": 2,
                             "name": "Bakery", "filled": True, "upgrade": None}
    table.apply(offer.kind, offer.payload)
    assert known_factories(table) == BAKERY


def test_an_owned_factory_is_not_offered_and_a_higher_one_may_upgrade():
    table = played([TWO_SETUP, *hire("double_orders", "mill_worker", players=TWO),
                    act("attract", "Ann", number=3, colour="orange", goods=2, name="Bakery"),
                    act("pass", "Ben")])
    seen = {**BAKERY, 7: {"colour": "grey", "goods": 3, "name": "Windmill"}}
    keys = [o.key for o in attract_offers(table, seen)]
    # Not 3 (Ann's), and not new: her 2 grounds hold the set-up house and the Bakery.
    assert keys == ["attract.7.3"]


def test_with_the_inventions_a_name_no_card_names_is_another_factory():
    three = ["Ann", "Ben", "Cy"]
    table = played([SETUP, *hire("mill_worker", "farmer", "double_orders", players=three)],
                   players=three)
    [offer] = attract_offers(table, BAKERY)
    assert offer.payload["name"] == "other"


def test_nothing_to_attract_outside_the_action_phases():
    table = played([TWO_SETUP])
    assert attract_offers(table, BAKERY) == []


def test_invention_cards_seen_before_and_not_yet_taken():
    seen = [("grey_money", None), (None, "Steelworks"), ("grey_money", "Hotel")]
    table = played([SETUP, *TURN_1], players=["Ann", "Ben", "Cy"])
    assert [(i.ability, i.factory, i.vp) for i in inventions_open(table, seen)] == [
        ("grey_money", None, 0), (None, "Steelworks", 3), ("grey_money", "Hotel", 1)]
    assert known_inventions(table) == []


def test_the_character_display_keeps_its_places_after_a_hire():
    table = played([TWO_SETUP])
    before = table.display_characters
    table.apply("character", {"player": "Ann", "character": "architect"})
    assert table.display_characters == before and "architect" in before
    assert "architect" not in table.available_characters


def test_the_architect_erects_two_houses_in_one_tap():
    """Ann: $10, 2 grounds with the set-up house on one, and a bought territory's 2 more:
    3 empty grounds; the Architect pays $1 a house: 2 houses $2, 2 VP."""
    table = played([TWO_SETUP, *hire("architect", "mill_worker", players=TWO),
                    act("pass", "Ann"), act("buy_land", "Ben", price_markers=1, grounds=2)])
    table.apply("buy_land", {"player": "Ann", "price_markers": 1, "grounds": 2})
    table.apply("pass", {"player": "Ben"})
    erect = {o.key: (o.money, o.vp, o.payload["count"]) for o in offers(table)["erect"]}
    assert erect["erect.house"] == (-1, 1, 1)
    assert erect["erect.house.2"] == (-2, 2, 2)
    assert erect["erect.house.3"] == (-3, 3, 3)
    assert "erect.house.4" not in erect  # 3 empty grounds


def test_the_invention_cards_as_printed_pair_each_ability_with_its_end_bonus():
    """The rulebook's card sheet prints 18 cards, each ability with the end bonus below it:
    13 name a factory, each once (with the VP its card pays), 5 have none."""
    assert set(INVENTION_CARDS) == set(ABILITIES)
    named = [f for f in INVENTION_CARDS.values() if f]
    assert sorted(named) == sorted(BONUS_FACTORIES)
    cards = {i.ability: (i.factory, i.vp) for i in printed_inventions()}
    assert cards["grey_order"] == ("Steelworks", 3)
    assert cards["grey_money"] == ("Car Factory", 4)
    assert cards["grey_vp"] == ("Electric Plant", 5)
    assert cards["orange_to_grey"] == ("Saw Mill", 1)
    assert cards["orange_vp"] == ("Coalmine", 4)
    assert [a for a, (f, _vp) in cards.items() if f is None] == [
        "harvest_grain1", "sow_two", "cheap_grain", "harvest_vp", "harvest_grain2"]


@pytest.mark.parametrize("markers, to, cheapest", [
    ([], 3, None),  # no marker on the track: a new one ($2 to space 3)
    ([2], 3, 0),  # from space 2: free
    ([4], 3, None),  # a marker moves only right: a new one
    ([1, 5], 4, 0),  # space 1 to 4: $2, a new one $3
    ([1, 3], 4, 1),  # the nearest on its left
    ([1, 3], 9, 1),
])
def test_the_cheapest_marker_is_the_nearest_on_the_left_of_the_space(markers, to, cheapest):
    assert cheapest_marker(markers, to) == cheapest
