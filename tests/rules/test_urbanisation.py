"""Urbanisation: the rulebook's worked examples, the referee notes' rulings and their refusals."""

import pytest

from companion.rules.common import Placing, RuleError
from companion.rules.urbanisation import (
    TAX_START,
    Erected,
    Harvest,
    Setup,
    Tracking,
    TurnScore,
    buy_grain,
    check_market,
    check_upgrade,
    citizens,
    collect_taxes,
    erect,
    factory_bonus,
    factory_to_remove,
    feeding,
    final_ranking,
    final_totals,
    grain_refill,
    harvest,
    invention_cost,
    land_cost,
    mayor,
    mayor_order,
    mill_worker,
    produce_goods,
    sell_grain,
    setup,
    tax_collections,
    turn_score,
    work_order_count,
    work_order_value,
)


def market(barns, field):
    return {"barns": list(barns), "field": field}


FULL_4 = market([4, 4, 4, 4], 4)
EMPTY = market([0, 0, 0, 0], 0)


# The grain market -----------------------------------------------------------------------------


def test_rulebook_grain_bought_for_9_dollars():
    # "Anika wants to buy 5 grain in one action. She takes one marker each from barns 1 and 2
    # (for $1 each), one marker each from barns 3 and 4 (for $2 each) and one marker from the
    # field ($3). She pays $9 to the bank." (the 4-player market as set up)
    assert buy_grain(FULL_4, 5) == (9, market([3, 3, 3, 3], 3))


def test_rulebook_grain_sold_for_5_dollars():
    # "Anika intends to sell 4 grain markers. Selling for the lowest possible price, Annika puts
    # 2 grain markers in barn 1 and 1 marker each in barns 2 and 3. She receives $5."
    # Four players: barn 1 has room for 2, barns 2 and 3 for 1 each.
    assert sell_grain(market([2, 3, 3, 4], 4), 4, 4) == (5, FULL_4)


@pytest.mark.parametrize(
    "before, amount, cost, after",
    [
        (FULL_4, 1, 1, market([3, 4, 4, 4], 4)),  # cheapest: barn 1
        (FULL_4, 2, 2, market([3, 3, 4, 4], 4)),  # barns 1 and 2, $1 each
        (FULL_4, 3, 4, market([3, 3, 3, 4], 4)),  # then barn 3 for $2
        (FULL_4, 8, 18, market([3, 3, 3, 3], 0)),  # one from each barn, the rest from the field
        (market([0, 2, 0, 1], 2), 2, 3, market([0, 1, 0, 0], 2)),  # empty barns are skipped
        (market([0, 0, 0, 0], 3), 3, 9, EMPTY),  # only the field: any number at $3
        (market([1, 1, 1, 1], 0), 4, 6, EMPTY),  # only barns: one from each
    ],
)
def test_buying_takes_one_per_barn_and_any_from_the_field_cheapest_first(before, amount, cost,
                                                                        after):
    assert buy_grain(before, amount) == (cost, after)


def test_the_one_dollar_invention_pays_1_dollar_per_grain():
    assert buy_grain(FULL_4, 5, one_dollar=True) == (5, market([3, 3, 3, 3], 3))


def test_buying_leaves_the_callers_market_alone():
    before = market([2, 2, 2, 2], 2)
    buy_grain(before, 5, players=2)
    assert before == market([2, 2, 2, 2], 2)


@pytest.mark.parametrize(
    "before, amount, kwargs, message",
    [
        (FULL_4, 0, {}, "The grain to buy cannot be less than 1."),
        (FULL_4, -2, {}, "The grain to buy cannot be less than 1."),
        (FULL_4, "2", {}, "The grain to buy must be a whole number."),
        (FULL_4, True, {}, "The grain to buy must be a whole number."),
        (FULL_4, 1.5, {}, "The grain to buy must be a whole number."),
        (market([1, 0, 1, 0], 1), 4, {}, "Only 3 grain can be bought in one action now"),
        (EMPTY, 1, {}, "No grain can be bought now: the barns and the field are empty."),
        (FULL_4, 3, {"held": 6},
         "A player may have at most 8 grain: with 6 held, at most 2 can be bought."),
        (FULL_4, 4, {"held": 3, "free": 2},  # found at a table: "you have 5"
         "A player may have at most 8 grain: with 3 held and the Mill Worker's 2, at most 3 can "
         "be bought."),
        (FULL_4, 1, {"held": 9}, "Your grain cannot be more than 8."),
        (market([3, 3, 3, 3], 3), 1, {"players": 2}, r"The grain in barn 1 cannot be more than 2"),
        (FULL_4, 1, {"players": 5}, "Urbanisation is played by 2 to 4 players."),
        (market([5, 0, 0, 0], 0), 1, {}, "The grain in barn 1 cannot be more than 4."),
        (market([0, 0, -1, 0], 0), 1, {}, "The grain in barn 3 cannot be less than 0."),
        (market([0, 0, 0, 0], "2"), 1, {}, "The grain in the field must be a whole number."),
        (market([1, 1, 1], 1), 1, {}, "The grain market has exactly 4 barns."),
        ({"barns": "1111", "field": 1}, 1, {}, "The grain market has exactly 4 barns."),
        ({"barns": [1, 1, 1, 1]}, 1, {}, "The grain market is given as its 4 barns and its field"),
        ([1, 1, 1, 1, 1], 1, {}, "The grain market is given as its 4 barns and its field"),
    ],
)
def test_impossible_purchases_are_refused(before, amount, kwargs, message):
    with pytest.raises(RuleError, match=message):
        buy_grain(before, amount, **kwargs)


@pytest.mark.parametrize(
    "before, amount, players, income, after",
    [
        (EMPTY, 1, 4, 1, market([1, 0, 0, 0], 0)),
        (EMPTY, 4, 4, 4, market([4, 0, 0, 0], 0)),  # barn 1 takes one marker per player
        (EMPTY, 5, 4, 5, market([4, 1, 0, 0], 0)),
        (EMPTY, 20, 4, 36, FULL_4),  # 4x1 + 4x1 + 4x2 + 4x2 + 4x3
        (market([2, 2, 2, 2], 0), 2, 2, 6, market([2, 2, 2, 2], 2)),  # only the field has room
        (market([3, 0, 3, 1], 3), 4, 3, 5, market([3, 3, 3, 2], 3)),  # full barns are passed
    ],
)
def test_selling_fills_barn_1_to_4_then_the_field(before, amount, players, income, after):
    assert sell_grain(before, amount, players) == (income, after)


@pytest.mark.parametrize(
    "before, amount, players, kwargs, message",
    [
        (FULL_4, 1, 4, {}, "The barns and the field have room for only 0 more grain."),
        (market([2, 2, 2, 2], 1), 2, 2, {}, "room for only 1 more grain"),
        (EMPTY, 0, 4, {}, "The grain to sell cannot be less than 1."),
        (EMPTY, 3, 4, {"held": 2}, "The seller holds only 2 grain, not 3."),
        (EMPTY, 1, 4, {"held": -1}, "Your grain cannot be less than 0."),
        (EMPTY, 1, 1, {}, "Urbanisation is played by 2 to 4 players."),
        (EMPTY, 1, "4", {}, "Urbanisation is played by 2 to 4 players."),
        (market([3, 0, 0, 0], 0), 1, 2, {}, "The grain in barn 1 cannot be more than 2."),
    ],
)
def test_impossible_sales_are_refused(before, amount, players, kwargs, message):
    with pytest.raises(RuleError, match=message):
        sell_grain(before, amount, players, **kwargs)


@pytest.mark.parametrize(
    "before, held, taken, after",
    [
        (FULL_4, 0, 2, market([4, 4, 4, 4], 2)),
        (market([4, 4, 4, 4], 1), 0, 1, market([4, 4, 4, 4], 0)),  # only what the field holds
        (EMPTY, 0, 0, EMPTY),  # "If the field has no grain, the Mill Worker doesn't receive any"
        (FULL_4, 7, 1, market([4, 4, 4, 4], 3)),  # never above 8 grain
    ],
)
def test_the_mill_worker_takes_2_grain_from_the_field(before, held, taken, after):
    assert mill_worker(before, 4, held=held) == (taken, after)


def test_check_market_returns_a_clean_copy():
    assert check_market({"field": 1, "barns": (0, 1, 2, 3)}, 3) == market([0, 1, 2, 3], 1)


# Administration: harvest and grain refill -------------------------------------------------------


@pytest.mark.parametrize(
    "sown, held, before, return_area, extra, expected",
    [
        # The sown markers come back with one more each, from the return area first.
        (2, 3, FULL_4, 8, 0, Harvest(7, FULL_4, 6)),
        (0, 5, FULL_4, 8, 0, Harvest(5, FULL_4, 8)),
        # "If there are no markers left, grain is taken from the field, then from the fourth
        # barn, etc."
        (3, 0, market([4, 4, 4, 4], 1), 1, 0, Harvest(6, market([4, 4, 4, 3], 0), 0)),
        (2, 0, market([1, 1, 0, 0], 0), 0, 0, Harvest(4, market([0, 0, 0, 0], 0), 0)),
        # The supply runs dry: the player gets only what is left.
        (3, 0, market([0, 0, 0, 0], 1), 0, 0, Harvest(4, EMPTY, 0)),
        # "A player may have a maximum of 8 grain markers": the extra ones stop at 8.
        (3, 4, FULL_4, 8, 0, Harvest(8, FULL_4, 7)),
        (4, 4, FULL_4, 8, 0, Harvest(8, FULL_4, 8)),
        # Grain bought after sowing: the sown markers that do not fit go to the return area.
        (5, 4, FULL_4, 8, 0, Harvest(8, FULL_4, 9, left_over=1)),
        (2, 8, FULL_4, 6, 1, Harvest(8, FULL_4, 8, left_over=2)),
        # An invention's grain comes from the same supply.
        (1, 0, FULL_4, 8, 2, Harvest(4, FULL_4, 5)),
        (0, 2, FULL_4, 0, 1, Harvest(3, market([4, 4, 4, 4], 3), 0)),
    ],
)
def test_harvest_returns_each_sown_marker_with_a_second(sown, held, before, return_area, extra,
                                                         expected):
    assert harvest(sown, held, before, return_area, 4, extra=extra) == expected


@pytest.mark.parametrize(
    "sown, held, before, return_area, extra, message",
    [
        (29, 4, FULL_4, 8, 0, "The grain sown cannot be more than 28."),
        (-1, 0, FULL_4, 8, 0, "The grain sown cannot be less than 0."),
        (1, 9, FULL_4, 8, 0, "The grain on the tracking card cannot be more than 8."),
        (1, 0, FULL_4, 29, 0, "The grain in the return area cannot be more than 28."),
        (1, 0, FULL_4, 9, 0, "A 4-player game has only 28 grain markers, but 29 are entered."),
        (1, 0, FULL_4, 8, 4, "The grain from inventions cannot be more than 3."),
    ],
)
def test_impossible_harvests_are_refused(sown, held, before, return_area, extra, message):
    with pytest.raises(RuleError, match=message):
        harvest(sown, held, before, return_area, 4, extra=extra)


@pytest.mark.parametrize(
    "before, return_area, players, after, left",
    [
        # "If more than 2 grain markers per player are in the return area, distribute any
        # surplus markers as follows: first to the field (1 per player), then to the fourth
        # barn (1 per player), etc."
        (market([4, 4, 4, 2], 1), 12, 4, market([4, 4, 4, 3], 4), 8),
        (market([0, 0, 0, 0], 0), 12, 3, market([0, 0, 0, 3], 3), 6),
        (market([0, 0, 0, 0], 0), 14, 2, market([2, 2, 2, 2], 2), 4),
        (market([1, 1, 1, 1], 1), 8, 4, market([1, 1, 1, 1], 1), 8),  # exactly 2 per player
        (market([1, 1, 1, 1], 1), 5, 4, market([1, 1, 1, 1], 1), 5),  # fewer: nothing moves
    ],
)
def test_grain_refill_moves_the_surplus_to_the_field_then_barn_4_down(before, return_area,
                                                                      players, after, left):
    assert grain_refill(before, return_area, players) == (after, left)


@pytest.mark.parametrize(
    "before, return_area, players, message",
    [
        (market([2, 2, 2, 2], 2), 5, 2, "A 2-player game has only 14 grain markers, but 15"),
        (EMPTY, -1, 2, "The grain in the return area cannot be less than 0."),
        (EMPTY, 4, 5, "Urbanisation is played by 2 to 4 players."),
    ],
)
def test_impossible_refills_are_refused(before, return_area, players, message):
    with pytest.raises(RuleError, match=message):
        grain_refill(before, return_area, players)


# Citizens, feeding and taxes -------------------------------------------------------------------


@pytest.mark.parametrize(
    "houses, grain, work_orders, count",
    [
        (1, 2, 2, 1),  # rulebook: "the lowest numbered position ... is 1": Anika has 1 citizen
        (3, 5, 4, 3),  # houses are the lowest
        (6, 2, 4, 2),  # grain is
        (6, 5, 0, 0),  # no work orders, no citizens
        (8, 8, 45, 8),
    ],
)
def test_citizens_are_the_lowest_of_houses_grain_and_work_orders(houses, grain, work_orders,
                                                                 count):
    assert citizens(houses, grain, work_orders) == count


@pytest.mark.parametrize(
    "houses, grain, work_orders, message",
    [
        (-1, 2, 2, "The houses cannot be less than 0."),
        (2, 9, 2, "The grain cannot be more than 8."),
        (2, 2, 46, "The work orders cannot be more than 45."),
        (2, 2, "3", "The work orders must be a whole number."),
    ],
)
def test_impossible_tracks_are_refused(houses, grain, work_orders, message):
    with pytest.raises(RuleError, match=message):
        citizens(houses, grain, work_orders)


@pytest.mark.parametrize(
    "grain, fed, left, vp",
    [
        (8, 2, 6, 2),  # 1 VP per 3 grain left
        (8, 3, 5, 1),  # rounded down
        (4, 2, 2, 0),
        (3, 0, 3, 1),
        (5, 5, 0, 0),
        (0, 0, 0, 0),
    ],
)
def test_feeding_removes_one_grain_per_citizen_then_scores_every_3_left(grain, fed, left, vp):
    assert feeding(grain, fed) == (left, vp)


@pytest.mark.parametrize(
    "grain, fed, message",
    [
        (2, 3, "3 citizens cannot live on 2 grain"),
        (9, 1, "The grain cannot be more than 8."),
        (4, -1, "The citizens cannot be less than 0."),
    ],
)
def test_feeding_refuses_more_citizens_than_grain(grain, fed, message):
    with pytest.raises(RuleError, match=message):
        feeding(grain, fed)


@pytest.mark.parametrize(
    "houses, grain, work_orders, expected",
    [
        (4, 7, 5, TurnScore(4, 8, 3, 1)),
        (1, 0, 3, TurnScore(0, 0, 0, 0)),
        (6, 8, 6, TurnScore(6, 12, 2, 0)),
    ],
)
def test_a_turn_scores_2_vp_per_citizen_then_feeds_them(houses, grain, work_orders, expected):
    assert turn_score(houses, grain, work_orders) == expected
    assert expected.vp == expected.citizen_vp + expected.grain_vp


def test_rulebook_tax_example():
    # "Anika wants to collect taxes. She moves her tracking marker in the tax line one space
    # left and gains $1 for her citizen."
    assert collect_taxes(TAX_START, 1) == (TAX_START - 1, 1)


@pytest.mark.parametrize(
    "tax, count, times, expected",
    [
        (5, 3, 1, (4, 3)),
        (4, 3, 1, (3, 3)),  # one space right of the citizen marker is enough
        (6, 0, 1, (5, 0)),  # no citizens: the marker moves, nothing is paid
        (7, 3, 2, (5, 6)),  # the Tax Collector collects twice
        (5, 3, 2, (3, 6)),
    ],
)
def test_taxes_are_collected_while_the_tax_marker_is_right_of_the_citizen_marker(tax, count,
                                                                                 times, expected):
    assert collect_taxes(tax, count, times) == expected


@pytest.mark.parametrize(
    "tax, count, times, message",
    [
        (3, 3, 1, "Taxes can be collected only while the tax marker lies right of the citizen"),
        (2, 4, 1, "Taxes can be collected only while"),
        (4, 3, 2, "the second is not allowed"),
        (11, 3, 1, "The tax marker's space cannot be more than 10."),
        (5, 9, 1, "The citizen marker's space cannot be more than 8."),
        (5, 1, 3, "The tax collections cannot be more than 2."),
    ],
)
def test_taxes_are_refused_otherwise(tax, count, times, message):
    with pytest.raises(RuleError, match=message):
        collect_taxes(tax, count, times)


@pytest.mark.parametrize("tax, count, most", [(5, 3, 2), (4, 3, 1), (3, 3, 0), (2, 4, 0),
                                              (10, 0, 2)])
def test_the_collections_the_markers_allow_are_those_collect_taxes_takes(tax, count, most):
    """What the Collect-taxes tile offers (a hand-played game offered "Twice, with the Tax
    Collector" with the tax marker on 2 and the citizen marker on 1, then refused it)."""
    assert tax_collections(tax, count) == most
    for times in (1, 2):
        if times <= most:
            collect_taxes(tax, count, times)
        else:
            with pytest.raises(RuleError):
                collect_taxes(tax, count, times)


# Buildings, land, inventions, work orders and factories ---------------------------------------


@pytest.mark.parametrize(
    "kind, count, kwargs, expected",
    [
        ("house", 1, {}, Erected(2, 1, 1)),
        ("skyscraper", 1, {"houses_standing": 1}, Erected(3, 2, 1)),  # still moves the house line
        ("administrative", 1, {}, Erected(3, 2, 0)),
        ("house", 3, {}, Erected(6, 3, 3)),
        ("skyscraper", 2, {"houses_standing": 3}, Erected(6, 4, 2)),
        ("house", 2, {"architect": True}, Erected(2, 2, 2)),  # the Architect: $1 less each
        ("administrative", 1, {"left_in_pool": 1}, Erected(3, 2, 0)),
    ],
)
def test_buildings_cost_and_earn(kind, count, kwargs, expected):
    assert erect(kind, count, **kwargs) == expected


@pytest.mark.parametrize(
    "kind, count, kwargs, message",
    [
        ("skyscraper", 1, {}, "A skyscraper replaces one of your houses: you have 0 standing"),
        ("skyscraper", 3, {"houses_standing": 2}, "you have 2 standing"),
        ("house", 2, {"left_in_pool": 1}, "The pool holds too few houses: 1 left."),
        ("house", 0, {}, "The houses to erect cannot be less than 1."),
        ("castle", 1, {}, "Unknown building 'castle'"),
    ],
)
def test_impossible_buildings_are_refused(kind, count, kwargs, message):
    with pytest.raises(RuleError, match=message):
        erect(kind, count, **kwargs)


@pytest.mark.parametrize("markers, cost", [(1, 1), (3, 3)])  # rulebook: Anika pays $1
def test_land_costs_1_dollar_per_price_marker(markers, cost):
    assert land_cost(markers) == cost


@pytest.mark.parametrize("spaces, cost", [(1, 0), (2, 1), (9, 8)])
def test_an_invention_move_is_free_for_its_first_space(spaces, cost):
    assert invention_cost(spaces) == cost


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: land_cost(0), "The price markers on the territory cannot be less than 1."),
        (lambda: invention_cost(10), "The spaces moved cannot be more than 9."),
        (lambda: invention_cost(0), "The spaces moved cannot be less than 1."),
    ],
)
def test_impossible_moves_are_refused(call, message):
    with pytest.raises(RuleError, match=message):
        call()


@pytest.mark.parametrize(
    "orders, value, count",
    [
        ({"white": 1, "grey": 1, "orange": 1}, 6, 3),  # white $3, grey $2, orange $1
        ({"grey": 2}, 4, 2),
        ({}, 0, 0),
    ],
)
def test_work_orders_are_valued_by_colour_and_counted_as_markers(orders, value, count):
    assert (work_order_value(orders), work_order_count(orders)) == (value, count)


def test_rulebook_production_example():
    # "Anika produces 2 orange goods with the Windmill ... She immediately gains 2 victory
    # points and $2."
    assert produce_goods({"orange": 2}) == (2, 2)


@pytest.mark.parametrize(
    "orders, message",
    [
        ({"pink": 1}, "Unknown work order colour 'pink'"),
        ({"white": 16}, "The white work orders cannot be more than 15."),
        ({"grey": -1}, "The grey work orders cannot be less than 0."),
        (["white"], "Work orders are given by colour"),
        ({"white": 0}, "Producing goods takes at least one work order."),
    ],
)
def test_impossible_productions_are_refused(orders, message):
    with pytest.raises(RuleError, match=message):
        produce_goods(orders)


def test_rulebook_upgrade_example_gains_2_vp():
    # The Windmill's number is higher than the Bakery's: the upgrade gains 2 VP.
    assert check_upgrade(3, 7) == 2


@pytest.mark.parametrize("old, new", [(7, 3), (5, 5)])
def test_an_upgrade_needs_a_higher_factory_number(old, new):
    with pytest.raises(RuleError, match=f"Factory {new} cannot upgrade factory {old}"):
        check_upgrade(old, new)


@pytest.mark.parametrize(
    "display, space",
    [([4, 2, 6], 2), ([1, 2, 3], 1), ([None, 9, 8], 3)],
)
def test_the_factories_phase_removes_the_lowest_numbered_card(display, space):
    assert factory_to_remove(display) == space


@pytest.mark.parametrize(
    "display, message",
    [
        ([None, None, None], "No factory card is face up."),
        ([1, 2], "The factory display has 3 spaces."),
        ([1, 0, 3], "The factory on space 2 cannot be less than 1."),
    ],
)
def test_the_factories_phase_refuses_an_impossible_display(display, message):
    with pytest.raises(RuleError, match=message):
        factory_to_remove(display)


# Mayor, setup and the final scoring ------------------------------------------------------------

SEATS = ["Anika", "Ben", "Cleo", "Dan"]


@pytest.mark.parametrize(
    "vp, money, former, expected",
    [
        ({"Anika": 9, "Ben": 5, "Cleo": 7, "Dan": 6}, {"Anika": 0, "Ben": 9, "Cleo": 0, "Dan": 0},
         "Anika", "Ben"),  # fewest VP, whatever the money
        ({"Anika": 5, "Ben": 5, "Cleo": 7, "Dan": 6}, {"Anika": 3, "Ben": 4, "Cleo": 0, "Dan": 0},
         "Cleo", "Anika"),  # tied VP: least money
        ({"Anika": 5, "Ben": 9, "Cleo": 5, "Dan": 5}, {"Anika": 2, "Ben": 0, "Cleo": 2, "Dan": 2},
         "Cleo", "Dan"),  # still tied: first clockwise after the former start player
        ({"Anika": 5, "Ben": 9, "Cleo": 5, "Dan": 5}, {"Anika": 2, "Ben": 0, "Cleo": 2, "Dan": 2},
         "Dan", "Anika"),  # clockwise wraps round
        ({"Anika": 5, "Ben": 9, "Cleo": 5, "Dan": 9}, {"Anika": 2, "Ben": 0, "Cleo": 2, "Dan": 2},
         "Anika", "Cleo"),  # the former start player himself comes last
    ],
)
def test_the_mayor_goes_to_fewest_vp_then_least_money_then_clockwise(vp, money, former,
                                                                     expected):
    assert mayor(vp, money, former, SEATS) == expected


def test_the_mayor_starts_and_play_goes_clockwise():
    vp = {"Anika": 9, "Ben": 8, "Cleo": 4, "Dan": 6}
    money = dict.fromkeys(SEATS, 0)
    assert mayor_order(vp, money, "Anika", SEATS) == ["Cleo", "Dan", "Anika", "Ben"]


@pytest.mark.parametrize(
    "vp, money, former, seats, message",
    [
        ({"Anika": 1, "Ben": 1}, {"Anika": 0, "Ben": 0}, "Zoe", ["Anika", "Ben"],
         "'Zoe' is not seated at this table."),
        ({"Anika": 1}, {"Anika": 0, "Ben": 0}, "Ben", ["Anika", "Ben"],
         "Give the victory points of every seated player"),
        ({"Anika": 1, "Ben": -1}, {"Anika": 0, "Ben": 0}, "Ben", ["Anika", "Ben"],
         "Ben's victory points cannot be less than 0."),
        ({"Anika": 1, "Ben": 1}, {"Anika": 0, "Ben": 0}, "Ben", ["Anika", "Ben", "Anika"],
         "Each player can be seated only once."),
        ({"Anika": 1}, {"Anika": 0}, "Anika", ["Anika"], "List the 2 to 4 players"),
    ],
)
def test_the_mayor_refuses_an_impossible_table(vp, money, former, seats, message):
    with pytest.raises(RuleError, match=message):
        mayor(vp, money, former, seats)


@pytest.mark.parametrize(
    "players, expected",
    [
        (4, Setup(4, market([4, 4, 4, 4], 4), 8, 28, "all 18 factory cards", False, 8,
                  Tracking())),
        (3, Setup(3, market([3, 3, 3, 3], 3), 6, 21,
                  "only the factory cards marked II or III on the back", True, 8, Tracking())),
        (2, Setup(2, market([2, 2, 2, 2], 2), 4, 14,
                  "only the factory cards marked II on the back", True, 8, Tracking())),
    ],
)
def test_setup_puts_one_grain_per_player_on_each_barn_and_the_field(players, expected):
    assert setup(players) == expected


def test_setup_starts_every_tracking_card_alike():
    assert Tracking() == Tracking(vp=1, citizens=0, houses=1, grain=0, work_orders=0, tax=10)


def test_the_professor_joins_with_inventions():
    assert setup(4, inventions=True).characters == 9


@pytest.mark.parametrize("players", [1, 5, "3", True, None])
def test_setup_refuses_other_player_counts(players):
    with pytest.raises(RuleError, match="Urbanisation is played by 2 to 4 players."):
        setup(players)


@pytest.mark.parametrize(
    "factories, winner",
    [
        ({"Anika": [3, 7], "Ben": [9]}, "Anika"),  # largest sum, inactive factories count
        ({"Anika": [3, 6], "Ben": [9]}, "Ben"),  # a tie: Ben owns the newest factory
        ({"Anika": [2, 8], "Ben": [4, 6], "Cleo": [1]}, "Anika"),
        ({"Anika": [], "Ben": []}, None),  # nobody with factories
        ({}, None),
    ],
)
def test_the_largest_factory_sum_takes_2_vp(factories, winner):
    assert factory_bonus(factories) == winner


@pytest.mark.parametrize(
    "factories, message",
    [
        ({"Anika": [3], "Ben": [3]}, "Factory 3 is entered twice"),
        ({"Anika": [0]}, "Anika's factory number cannot be less than 1."),
        ({"Anika": 3}, "The factories of Anika must be given as a list of numbers."),
        ([3, 4], "Factories are given per player."),
    ],
)
def test_impossible_factories_are_refused(factories, message):
    with pytest.raises(RuleError, match=message):
        factory_bonus(factories)


def test_final_totals_add_the_factory_bonus():
    vp = {"Anika": 40, "Ben": 41}
    assert final_totals(vp, {"Anika": [5, 9], "Ben": [7]}) == {"Anika": 42, "Ben": 41}


@pytest.mark.parametrize(
    "totals, factories, expected",
    [
        (
            {"Anika": 40, "Ben": 44, "Cleo": 40},
            {"Anika": [2, 5], "Ben": [3], "Cleo": [8]},
            [Placing(1, "Ben", 44, False), Placing(2, "Cleo", 40, False),
             Placing(3, "Anika", 40, False)],  # the tie goes to the newest factory
        ),
        (
            {"Anika": 30, "Ben": 30, "Cleo": 30},
            {"Anika": [4], "Ben": [], "Cleo": []},
            [Placing(1, "Anika", 30, False), Placing(2, "Ben", 30, True),
             Placing(2, "Cleo", 30, True)],  # no factory at all: a shared place
        ),
        (
            {"Anika": 30, "Ben": 31},
            {},
            [Placing(1, "Ben", 31, False), Placing(2, "Anika", 30, False)],
        ),
    ],
)
def test_final_ranking_breaks_ties_by_the_newest_factory(totals, factories, expected):
    assert final_ranking(totals, factories) == expected


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: final_ranking({"Anika": -1}, {}), "Anika's total cannot be less than 0."),
        (lambda: final_ranking([40, 41], {}), "The totals are given per player."),
        (lambda: final_totals(["Anika"], {}), "The victory points are given per player."),
        (lambda: mayor([1, 2], {}, "Anika", ["Anika", "Ben"]),
         "The victory points are given per player."),
    ],
)
def test_final_scoring_refuses_impossible_entries(call, message):
    with pytest.raises(RuleError, match=message):
        call()
