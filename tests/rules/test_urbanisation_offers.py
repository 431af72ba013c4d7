"""Urbanisation's one-tap actions (urbanisation_offers.py): only what the current player may do
now, each with what it costs and earns, worked out by hand from the rulebook for states of the
example game and of a 2-player game."""

import pytest

from companion.rules import urbanisation_offers as offering
from companion.rules.urbanisation_example import SETUP, TURN_1, TURN_2, hire
from companion.rules.urbanisation_offers import find_offer, offers
from companion.rules.urbanisation_table import UrbanisationState
from tests.tables import URBANISATION_TWO_SETUP as TWO_SETUP
from tests.tables import URBANISATION_TWO_TURN_1 as TWO_TURN_1

PLAYERS = ["Ann", "Ben", "Cy"]
TWO = ["Ann", "Ben"]


def played(actions, players=PLAYERS):
    table = UrbanisationState.start(list(players))
    for kind, payload in actions:
        table.apply(kind, payload)
    return table


def priced(table):
    """Every offer as (key, money, VP, grain)."""
    return {o.key: (o.money, o.vp, o.grain) for group in offers(table).values() for o in group}


def test_ann_holding_the_mill_worker_at_the_start_of_the_example_game():
    """Ann, $10, no grain, no citizen, the set-up house on 1 of her 2 grounds. Barns and field
    hold 3 each (3 players). The Mill Worker's 2 free grain come first, then "1 grain marker
    from each barn" ($1, $1, $2, $2) and the field's last one ($3)."""
    table = played([SETUP, *TURN_1[:3]])
    assert list(offers(table)) == ["erect", "work_orders", "trade_grain"]
    assert priced(table) == {
        "erect.house": (-2, 1, 0), "erect.skyscraper": (-3, 2, 0),
        "erect.administrative": (-3, 2, 0),  # and 2 or 3 in one action ($10: not 4)
        "erect.administrative.2": (-6, 4, 0), "erect.administrative.3": (-9, 6, 0),
        **{f"work_orders.{c}.{n}": (0, 0, 0) for c in ("white", "grey", "orange")
           for n in (1, 2, 3)},
        "trade_grain.mill": (0, 0, 2), "trade_grain.buy.1": (-1, 0, 3),
        "trade_grain.buy.2": (-2, 0, 4), "trade_grain.buy.3": (-4, 0, 5),
        "trade_grain.buy.4": (-6, 0, 6), "trade_grain.buy.5": (-9, 0, 7),
    }  # no taxes ($0 with no citizen), no factory, no grain to sow or sell


def test_a_mill_worker_who_would_give_nothing_is_kept_for_later():
    """A hand-played game: with the field bought out, "Buy 1" still played Hana's Mill Worker
    for no grain at all ("If the field has no grain, the Mill Worker doesn't receive any"),
    and the card was gone. With the field empty the chips buy without him (he stays in her
    hand: a sale may refill the field later this turn), and his free grain alone is not
    offered."""
    table = played([SETUP, *TURN_1[:3]])
    market = table.grain.market
    table.grain = type(table.grain)({"barns": market["barns"], "field": 0},
                                    table.grain.return_area + market["field"])
    trades = {o.key: o.payload for o in offers(table)["trade_grain"]}
    assert "trade_grain.mill" not in trades
    assert trades["trade_grain.buy.1"] == {"player": "Ann", "buy": 1}
    assert all("character" not in payload for payload in trades.values())


def test_ben_sows_what_his_one_empty_ground_holds_and_two_on_the_farmer():
    """Ben has 4 grain and 1 empty ground: 1 seed there, the Farmer takes 2 more."""
    table = played([SETUP, *TURN_1[:7]])
    sowing = {o.key: o.payload for o in offers(table)["sow"]}
    assert sowing == {
        "sow.1": {"player": "Ben", "grain": 1},
        "sow.farmer.1": {"player": "Ben", "grain": 1, "farmer": 2, "character": "farmer"},
    }
    assert priced(table)["sow.farmer.1"] == (0, 0, -3)


def test_one_seed_is_offered_first_as_the_rulebook_sows():
    """Found by a rules audit: "Sow 3" came first, under the thumb of a table that sows as the
    rulebook does ("places 1 grain marker"); 1 comes first, then all the grounds take (ruling
    "sow")."""
    table = played([SETUP, *TURN_1[:7]])
    card = table.cards["Ben"]
    card.grain, card.characters, card.sown, card.grounds = 4, [], 0, card.built + 3
    assert [o.key for o in offers(table)["sow"]] == ["sow.1", "sow.3"]


def test_cy_produces_at_his_factory_as_many_goods_as_its_space_shows():
    """Cy's factory 3 makes 2 orange goods; he holds 4 orange: 2 goods, $2 and 2 VP."""
    table = played([SETUP, *TURN_1, *TURN_2[:3]])
    production = offers(table)["produce"][0]
    assert production.payload == {"player": "Cy", "factory": 3, "orders": {"orange": 2}}
    assert (production.what, production.money, production.vp) == (
        "Factory 3: 2 orange goods", 2, 2)


def test_a_factory_produces_once_a_turn_and_only_the_newer_card_of_an_upgrade():
    """Cy's factory 3 produced in phase 1: nothing to produce in phase 3. Factory 5 (grey, 2
    goods) then covers it; in phase 4 Cy holds 1 grey work order: 1 good, $2, 1 VP."""
    table = played([SETUP, *TURN_1, *TURN_2[:9]])
    assert table.current_player == "Cy" and "produce" not in offers(table)
    table = played([SETUP, *TURN_1, *TURN_2[:12]])
    assert table.current_player == "Cy"
    assert {o.key: (o.what, o.money, o.vp) for o in offers(table)["produce"]} == {
        "produce.5": ("Factory 5: 1 grey good", 2, 1),
        # He still holds the Any colour: the space's 2 goods, his grey and then white ($3).
        "produce.5.any_colour": ("Factory 5 with the Any colour: 1 grey + 1 white", 5, 2)}


def test_the_any_colour_fills_a_factory_s_space_from_other_colours():
    """Found at a table: Cy held the Any colour, a grey factory and no grey work order, and no
    production was offered at all. Factory 5 (grey, 2 goods), Cy's work orders 0 grey, 1 white,
    2 orange: 1 white + 1 orange ($3 + $1, 2 VP), the character played. Without it, nothing.
    Where his own colour fills the space (factory 3 in phase 1: 4 orange, 1 grey), the same
    goods from his richest work orders, where they pay more: 1 grey + 1 orange, $3 for $2 (found
    at a table: the form had it, no tap did)."""
    table = played([SETUP, *TURN_1, *TURN_2[:12]])
    table.cards["Cy"].orders.update(grey=0, white=1, orange=2)
    [production] = offers(table)["produce"]
    assert production.payload == {"player": "Cy", "factory": 5, "character": "any_colour",
                                  "orders": {"white": 1, "orange": 1}}
    assert (production.what, production.money, production.vp) == (
        "Factory 5 with the Any colour: 1 white + 1 orange", 4, 2)
    table.cards["Cy"].characters.remove("any_colour")
    assert "produce" not in offers(table)
    table = played([SETUP, *TURN_1, *TURN_2[:3]])
    assert "any_colour" in table.cards["Cy"].characters
    assert {o.key: (o.what, o.money, o.vp) for o in offers(table)["produce"]} == {
        "produce.3": ("Factory 3: 2 orange goods", 2, 2),
        "produce.3.any_colour.richest": ("Factory 3 with the Any colour: 1 grey + 1 orange", 3, 2)}
    table.cards["Cy"].orders.update(grey=0)
    assert [o.key for o in offers(table)["produce"]] == ["produce.3"]


def test_the_any_colour_offers_more_goods_and_more_money_apart_where_they_differ():
    """Cy's factory 5 (grey, 2 goods) with 1 grey, 3 white and the Any colour: the plain tap
    1 grey ($2), filled own colour first 1 grey + 1 white ($5, 2 goods), richest 2 white ($6):
    three taps, each paying more than the one before. With 2 grey, the plain tap makes 2 goods
    ($4) and the richest pays $6: two taps."""
    table = played([SETUP, *TURN_1, *TURN_2[:12]])
    table.cards["Cy"].orders.update(grey=1, white=3, orange=0)
    assert {o.key: (o.what, o.money) for o in offers(table)["produce"]} == {
        "produce.5": ("Factory 5: 1 grey good", 2),
        "produce.5.any_colour": ("Factory 5 with the Any colour: 1 grey + 1 white", 5),
        "produce.5.any_colour.richest": ("Factory 5 with the Any colour: 2 white", 6)}
    table.cards["Cy"].orders.update(grey=2)
    assert [o.key for o in offers(table)["produce"]] == [
        "produce.5", "produce.5.any_colour.richest"]


def test_the_tax_collector_beside_one_collection_and_the_architect_played():
    """Turn 2 of a 2-player game: Ann (the Mayor) holds the Architect, no empty ground and her
    set-up house; Ben holds the Tax Collector and 1 citizen."""
    table = played([TWO_SETUP, *TWO_TURN_1, *hire("architect", "tax_collector", players=TWO)], TWO)
    assert priced(table)["erect.skyscraper"] == (-2, 2, 0)  # $3 - $1
    assert "erect.house" not in priced(table)  # house and factory fill her 2 grounds
    assert offers(table)["erect"][0].character == "architect"
    table.apply("pass", {"player": "Ann"})
    taxes = {o.key: (o.what, o.money) for o in offers(table)["taxes"]}
    assert taxes == {"taxes": ("Collect taxes", 1),
                     "taxes.tax_collector": ("Twice, with the Tax Collector", 2)}


def test_what_the_money_does_not_reach_is_not_offered():
    table = played([TWO_SETUP, *TWO_TURN_1, *hire("farmer", "tax_collector", players=TWO),
                    ("effect", {"player": "Ann", "money": -9})], TWO)
    assert table.cards["Ann"].money == 1
    keys = priced(table)
    assert [k for k in keys if k.startswith("erect")] == []
    assert [k for k in keys if k.startswith("trade_grain.buy")] == ["trade_grain.buy.1"]


@pytest.mark.parametrize("actions", [[SETUP], [SETUP, *TURN_1[:1]], [SETUP, *TURN_1]],
                         ids=["characters", "still hiring", "administration"])
def test_nothing_is_offered_outside_the_action_phases(actions):
    table = played(actions)
    assert offers(table) == {}
    assert find_offer(offers(table), "erect.house") is None


def test_an_offer_is_found_by_its_key_and_the_table_is_unchanged():
    table = played([SETUP, *TURN_1[:3]])
    before = (table.cards["Ann"].money, table.grain.market, table.step)
    found = find_offer(offers(table), "trade_grain.buy.3")
    assert found is not None and found.payload == {"player": "Ann", "buy": 3,
                                                  "character": "mill_worker"}
    assert (table.cards["Ann"].money, table.grain.market, table.step) == before
    assert find_offer(offers(table), "trade_grain.buy.6") is None
    assert find_offer(offers(table), "taxes") is None


@pytest.mark.parametrize("step", [3, 4, 7, 10, 13])
def test_offers_tried_without_past_reports_are_those_tried_on_the_whole_table(step, monkeypatch):
    """Offers (and factory cards seen before) are tried on copies without the past turns'
    reports (no action reads them, an action only adds one): the same offers at the same prices
    as on copies of the whole table, in the second turn of the example game (turn 1's report on
    the table), which keeps its report."""
    table = played([SETUP, *TURN_1, *TURN_2[:step]])
    assert table.segment == "actions" and len(table.reports) == 1
    report = table.report
    seen = {n: {"colour": "grey", "goods": 2, "name": "Mill"} for n in (5, 20, 30)}
    lighter = offers(table), offering.attract_offers(table, seen)
    monkeypatch.setattr(offering, "without_reports", lambda whole: whole)
    assert (offers(table), offering.attract_offers(table, seen)) == lighter
    assert lighter[0]
    assert table.reports == [report]


def test_an_administration_without_its_display_removes_the_lowest_face_up_card_from_the_offers():
    """"Factories: Remove the lowest numbered face-up factory card from the game": with the
    factory deck "stacked ... according to their factory number, with the lowest number on
    top", the display the table left out had 1, 2 and 3 face up, so card 1 is out of the game
    and the display offered shows 2, 3 and 4; a turn later, 3, 4 and 5."""
    four = ["Ann", "Ben", "Cy", "Dan"]
    seen = {n: {"colour": "orange", "goods": 2, "name": ""} for n in range(1, 19)}
    table = played([("setup", {"start_player": "Ann", "money": 10, "grounds": 2})], four)

    def hired():
        for character in table.available_characters[:4]:
            table.apply("character", {"player": table.current_player, "character": character})

    def offered_after_a_turn_passed():
        while table.segment == "actions":
            table.apply("pass", {"player": table.current_player})
        table.apply("administration", {})
        hired()
        return sorted({o.payload["number"]
                       for o in offering.attract_offers(table, seen, most=3)})

    hired()
    assert offered_after_a_turn_passed() == [2, 3, 4]
    assert offered_after_a_turn_passed() == [3, 4, 5]
    assert offering.out_of_play(table, seen) == {1, 2}
