"""The street card game: income and prestige icons, building rules, the end and the tie-break."""

import copy

import pytest

from companion.rules.common import Placing, RuleError
from companion.rules.street import (
    EffectLine,
    Placement,
    Score,
    check_card,
    check_placement,
    final_ranking,
    final_round_triggered,
    income,
    income_breakdown,
    is_finished,
    is_last_turn,
    last_turn_players,
    payout,
    place_card,
    prestige,
    prestige_breakdown,
    prestige_by_site,
    score,
    tallest,
    verdict,
)


def card(project="office", **icons):
    return {"project": project, **icons}


def icon(each, amount, project=None):
    return {"each": each, "amount": amount} | ({"project": project} if project else {})


def earns(each, amount, project=None, on="office"):
    """A card whose only icon is an income icon."""
    return card(on, income=[icon(each, amount, project)])


def scores(each, amount, project=None, on="office"):
    """A card whose only icon is a prestige icon."""
    return card(on, prestige=[icon(each, amount, project)])


def street(*sites):
    """A street of five sites; the sites not given are empty."""
    return [list(site) for site in sites] + [[] for _ in range(5 - len(sites))]


OFFICE = card("office")
STORE = card("store")
DOUBLE_OFFICE = card("office", double=True)
ROOF = card(None, roof=True)
ROOFED_OFFICE = card("office", roof=True)
ON_ROOF = card("hotel", floor="roof")
GROUND = card("store", floor="ground")
UPPER = card("apartment", floor="upper")
GIFT = card("coffee", gift=True)
GIFT_ROOF = card("coffee", gift=True, roof=True)
NO_GIFTS = card("service", no_gifts=True)
FINISHED = [OFFICE, ROOF]


def test_a_card_gets_the_defaults_of_the_notes():
    assert check_card({"project": "office"}) == {
        "project": "office", "double": False, "roof": False, "gift": False,
        "floor": None, "no_gifts": False, "income": [], "prestige": [],
    }


def test_the_example_card_of_the_notes_is_kept():
    example = {
        "project": "office", "double": False, "roof": False, "gift": False,
        "floor": None, "no_gifts": False,
        "income": [{"each": "flat", "amount": 2}],
        "prestige": [{"each": "on_street", "project": "hotel", "amount": 1}],
    }
    assert check_card(example) == example | {
        "income": [{"each": "flat", "amount": 2, "project": None}]
    }


# Each kind of icon means the same for income and prestige: (street, what the icons add up to).
ICON_EXAMPLES = [
    # "gain or lose the indicated number"
    pytest.param("flat", 2, None, lambda c: street([c]), 2, id="flat"),
    pytest.param("flat", -2, None, lambda c: street([c]), -2, id="flat-loss"),
    # "$1 for each floor below this card"
    pytest.param("floor_below", 1, None, lambda c: street([OFFICE, STORE, c]), 2,
                 id="floor-below"),
    pytest.param("floor_below", 1, None, lambda c: street([c, OFFICE]), 0,
                 id="floor-below-on-the-ground"),
    pytest.param("floor_below", -1, None, lambda c: street([OFFICE, OFFICE, OFFICE, c]), -3,
                 id="floor-below-loss"),
    # "if this card is on the ground floor"
    pytest.param("ground_floor", 1, None, lambda c: street([c, OFFICE]), 1, id="ground-floor"),
    pytest.param("ground_floor", 1, None, lambda c: street([OFFICE, c]), 0, id="not-ground"),
    # "for each project of the indicated type on this site" (the card itself is an office)
    pytest.param("on_site", 1, "office", lambda c: street([OFFICE, STORE, c]), 2, id="on-site"),
    pytest.param("on_site", 1, "office", lambda c: street([DOUBLE_OFFICE, c]), 3,
                 id="on-site-double"),
    pytest.param("on_site", 2, "store", lambda c: street([STORE, c], [STORE]), 2,
                 id="on-site-only-this-site"),
    pytest.param("on_site", 1, "hotel", lambda c: street([OFFICE, c]), 0, id="on-site-none"),
    # "for each project of the indicated type on your whole street"
    pytest.param("on_street", 2, "store", lambda c: street([STORE, c], [STORE], [], [STORE]), 6,
                 id="on-street"),
    pytest.param("on_street", 1, "office", lambda c: street([c], [DOUBLE_OFFICE], FINISHED), 4,
                 id="on-street-double"),
]


@pytest.mark.parametrize("each, amount, project, build, expected", ICON_EXAMPLES)
def test_income_icons(each, amount, project, build, expected):
    assert income(build(earns(each, amount, project))) == expected


@pytest.mark.parametrize("each, amount, project, build, expected", ICON_EXAMPLES)
def test_prestige_icons(each, amount, project, build, expected):
    assert prestige(build(scores(each, amount, project)), 0) == expected


def test_income_counts_every_site_finished_or_not():
    # "the total income from all their street's sites (whether finished or not)"
    assert income(street([earns("flat", 1), ROOF], [earns("flat", 2)], [earns("flat", 3)])) == 6


def test_income_adds_every_icon_of_a_card():
    both = card("store", income=[icon("flat", 1), icon("on_site", 2, "store")])
    assert income(street([STORE, both])) == 1 + 2 * 2


@pytest.mark.parametrize(
    "sites, total, paid",
    [
        ([[earns("flat", 3)]], 3, 3),
        ([[earns("flat", -3)], [earns("flat", 1)]], -2, 0),  # negative stays negative, pays 0
        ([[earns("flat", 2)], [earns("flat", -2)]], 0, 0),
        ([], 0, 0),
    ],
)
def test_income_may_be_negative_but_a_payout_never_is(sites, total, paid):
    # "If your total income is 0, or negative, then you simply take no upcoins"
    assert (income(street(*sites)), payout(street(*sites))) == (total, paid)


def test_income_breakdown_shows_where_income_comes_from():
    lines = income_breakdown(street(
        [OFFICE, earns("floor_below", 1)],
        [earns("on_site", 1, "hotel")],  # worth nothing now: no line
        [earns("flat", -2, on="store")],
    ))
    assert lines == [
        EffectLine(1, 2, {"each": "floor_below", "amount": 1, "project": None}, 1),
        EffectLine(3, 1, {"each": "flat", "amount": -2, "project": None}, -2),
    ]
    assert [line.text for line in lines] == [
        "Site 1, floor 2: +1 per floor below = +1",
        "Site 3, floor 1: −2 = −2",  # the minus sign, as every total says it
    ]


def test_prestige_breakdown_names_the_counted_project():
    lines = prestige_breakdown(street([OFFICE, scores("on_street", 2, "office")], [OFFICE]))
    assert [line.text for line in lines] == ["Site 1, floor 2: +2 per office on the street = +6"]


@pytest.mark.parametrize("account, expected", [(0, 0), (2, 0), (3, 1), (8, 2), (9, 3), (31, 10)])
def test_one_prestige_per_three_upcoins(account, expected):
    assert prestige(street(), account) == expected


def test_prestige_per_site_for_the_score_pad():
    built = street([scores("flat", 2), scores("floor_below", 1)], [], [scores("flat", -1)])
    assert prestige_by_site(built) == [3, 0, -1, 0, 0]
    assert prestige(built, 8) == 2 + 2


@pytest.mark.parametrize(
    "sites, expected",
    [
        ((), 0),
        (([OFFICE], [OFFICE, OFFICE, ROOF], [STORE]), 3),
        (([OFFICE] * 4, [], [OFFICE]), 4),
    ],
)
def test_the_tallest_building(sites, expected):
    assert tallest(street(*sites)) == expected


@pytest.mark.parametrize(
    "site, finished",
    [
        ([], False),
        ([OFFICE, STORE], False),
        ([OFFICE, ROOF], True),
        ([ROOFED_OFFICE], True),  # a roofed ground floor finishes its site at once
        ([OFFICE, ROOF, ON_ROOF], True),  # Ruling: finished stays finished
    ],
)
def test_a_roof_finishes_a_site(site, finished):
    assert is_finished(site) is finished


@pytest.mark.parametrize(
    "sites, site, built, own, message",
    [
        ((), 0, OFFICE, True, "There is no site 0: choose a site 1 to 5."),
        ((), 6, OFFICE, True, "There is no site 6: choose a site 1 to 5."),
        ((), "2", OFFICE, True, "Choose a site 1 to 5, not '2'."),
        (([OFFICE],), 1, GROUND, True,
         "This card is a ground floor: it must be the first card on a site, and site 1 "
         "already has 1."),
        ((), 1, UPPER, True, "This card is an upper floor: it cannot be the first card on site 1."),
        (([OFFICE],), 1, ON_ROOF, True,
         "This card must be built on top of a roof: site 1 is not finished."),
        ((), 3, ON_ROOF, True, "This card must be built on top of a roof: site 3 is not finished."),
        ((FINISHED,), 1, STORE, True,
         "Site 1 is finished with a roof: only a card that must be built on top of a roof can "
         "be added."),
        ((FINISHED,), 1, ROOF, True, "Site 1 is finished with a roof"),
        ((FINISHED,), 1, GIFT, False, "Site 1 is finished with a roof"),
        (([NO_GIFTS],), 1, GIFT, False,
         "No gifts can be built on site 1: a card there forbids them."),
        (([NO_GIFTS, OFFICE],), 1, GIFT_ROOF, False, "No gifts can be built on site 1"),
        ((), 1, GIFT, True,
         "A gift can only be built on an opponent's site, not on your own street."),
        ((), 1, OFFICE, False, "Only a gift can be built on an opponent's street."),
    ],
)
def test_placements_the_rules_refuse(sites, site, built, own, message):
    with pytest.raises(RuleError) as refused:
        check_placement(street(*sites), site, built, own)
    assert str(refused.value).startswith(message)


@pytest.mark.parametrize(
    "sites, site, built, own",
    [
        ((), 1, OFFICE, True),
        ((), 5, GROUND, True),
        (([OFFICE],), 1, UPPER, True),
        (([OFFICE],), 1, ROOF, True),
        ((FINISHED,), 1, ON_ROOF, True),  # "This project must be built on top of a roof."
        (([OFFICE, ROOF, ON_ROOF],), 1, ON_ROOF, True),
        (([OFFICE],), 1, GIFT_ROOF, False),  # a gift may finish an opponent's site
        (([], [NO_GIFTS]), 1, GIFT, False),  # no gifts on that site only
        (([NO_GIFTS],), 1, OFFICE, True),  # the owner still builds there
    ],
)
def test_placements_the_rules_allow(sites, site, built, own):
    assert check_placement(street(*sites), site, built, own) is None


def test_building_a_card_puts_it_on_top_and_pays_nothing_without_a_roof():
    before = street([earns("flat", 3)])
    kept = copy.deepcopy(before)
    after = place_card(before, 1, STORE, True)
    on_top = [check_card(earns("flat", 3)), check_card(STORE)]
    assert after == Placement([on_top, [], [], [], []], 0)
    assert before == kept  # the given street is not changed


def test_a_roof_pays_the_income_of_the_whole_street():
    before = street([earns("flat", 2)], [earns("ground_floor", 1)])
    assert place_card(before, 2, ROOF, True).income == 3


def test_the_roof_just_built_counts_its_own_income():
    roof = card(None, roof=True, income=[icon("floor_below", 1)])
    assert place_card(street([OFFICE, OFFICE]), 1, roof, True).income == 2


def test_a_roof_on_negative_income_pays_nothing():
    assert place_card(street([earns("flat", -1)]), 1, ROOF, True).income == 0


def test_a_gift_roof_pays_the_site_owner_by_the_owners_street():
    # "When a site becomes finished with a gift from another player, the income goes to the site
    # owner, not the giver": the income is that of the street the gift is built on.
    opponents = street([earns("flat", 4)])
    assert place_card(opponents, 1, GIFT_ROOF, False).income == 4


def test_a_roof_built_on_top_of_a_roof_pays_again():
    roofed_hotel = card("hotel", floor="roof", roof=True)
    assert place_card(street([earns("flat", 2), ROOF]), 1, roofed_hotel, True).income == 2


def test_placing_refuses_what_check_placement_refuses():
    with pytest.raises(RuleError, match="Only a gift can be built on an opponent's street."):
        place_card(street(), 1, OFFICE, False)


ALL_FINISHED = street(FINISHED, FINISHED, FINISHED, FINISHED, [ROOFED_OFFICE])
FOUR_FINISHED = street(FINISHED, FINISHED, FINISHED, FINISHED, [OFFICE])


@pytest.mark.parametrize(
    "streets, decks_empty, triggered",
    [
        ([street(), FOUR_FINISHED], False, False),
        ([street(), FOUR_FINISHED], True, True),  # "any player deck becomes empty"
        ([street(), ALL_FINISHED], False, True),  # "all 5 sites of any street are all finished"
        ({"Ann": ALL_FINISHED, "Ben": street()}, False, True),
        ({"Ann": FOUR_FINISHED}, False, False),
    ],
)
def test_what_triggers_the_final_round(streets, decks_empty, triggered):
    assert final_round_triggered(streets, decks_empty) is triggered


PLAYERS = ["Mario", "Ann", "Ben", "Cy"]  # in turn order, Mario holds the start symbol


@pytest.mark.parametrize(
    "trigger, still_to_play",
    [
        ("Mario", ["Ann", "Ben", "Cy"]),
        ("Ben", ["Cy"]),
        ("Cy", []),  # the last player of the round triggered it: the game ends now
    ],
)
def test_the_current_round_is_completed(trigger, still_to_play):
    # "player turns continue until the end of the turn of the last player, sitting to the right
    # of the starting player"
    assert last_turn_players(PLAYERS, trigger) == still_to_play


@pytest.mark.parametrize(
    "player, final_round, last",
    [("Cy", True, True), ("Cy", False, False), ("Ben", True, False), ("Mario", True, False)],
)
def test_the_last_player_of_the_final_round_takes_the_last_turn(player, final_round, last):
    assert is_last_turn(PLAYERS, player, final_round) is last


def test_the_score_pad_lines():
    built = street([scores("flat", 3), ROOF], [], [], [], [scores("ground_floor", 2)])
    pad = score(built, 8)
    assert pad == Score(sites=(3, 0, 0, 0, 2), upcoins=2, tallest=2)
    assert (pad.from_sites, pad.total) == (5, 7)


@pytest.mark.parametrize(
    "pads, ranking",
    [
        (
            {"Ann": Score((5, 0, 0, 0, 0), 1, 2), "Ben": Score((9, 0, 0, 0, 0), 0, 1)},
            [Placing(1, "Ben", 9, False), Placing(2, "Ann", 6, False)],
        ),
        # "the tied player with the tallest building wins"
        (
            {"Ann": Score((8, 0, 0, 0, 0), 1, 2), "Ben": Score((9, 0, 0, 0, 0), 0, 4)},
            [Placing(1, "Ben", 9, False), Placing(2, "Ann", 9, False)],
        ),
        # "If there is still a tie, they enjoy a shared victory."
        (
            {
                "Ann": Score((9, 0, 0, 0, 0), 0, 3),
                "Ben": Score((7, 2, 0, 0, 0), 0, 3),
                "Cy": Score((4, 0, 0, 0, 0), 5, 2),
                "Dee": Score((1, 0, 0, 0, 0), 0, 6),
            },
            [
                Placing(1, "Ann", 9, True),
                Placing(1, "Ben", 9, True),
                Placing(3, "Cy", 9, False),
                Placing(4, "Dee", 1, False),
            ],
        ),
        # Ruling: the same tie-break orders the places below the winner.
        (
            {
                "Ann": Score((10, 0, 0, 0, 0), 0, 1),
                "Ben": Score((4, 0, 0, 0, 0), 0, 2),
                "Cy": Score((4, 0, 0, 0, 0), 0, 5),
            },
            [Placing(1, "Ann", 10, False), Placing(2, "Cy", 4, False),
             Placing(3, "Ben", 4, False)],
        ),
    ],
)
def test_final_ranking_with_the_tie_break(pads, ranking):
    assert final_ranking(pads) == ranking


@pytest.mark.parametrize(
    "pads, sentence",
    [
        ({"Ann": Score((5, 0, 0, 0, 0), 1, 2), "Ben": Score((9, 0, 0, 0, 0), 0, 1)},
         "Ben wins with 9 prestige points."),
        # "the tied player with the tallest building wins"
        ({"Ann": Score((8, 0, 0, 0, 0), 1, 2), "Ben": Score((9, 0, 0, 0, 0), 0, 4)},
         "Ben and Ann tie on 9 prestige points; Ben wins with the tallest building, 4 floors "
         "to 2."),
        # "If there is still a tie, they enjoy a shared victory." (Cy's 9 has a lower building)
        ({"Ann": Score((9, 0, 0, 0, 0), 0, 3), "Ben": Score((7, 2, 0, 0, 0), 0, 3),
          "Cy": Score((4, 0, 0, 0, 0), 5, 2), "Dee": Score((1, 0, 0, 0, 0), 0, 6)},
         "Ann and Ben tie on 9 prestige points and on their tallest building (3 floors): a "
         "shared victory."),
        # Three tied on points, the tallest of them decides against the next tallest.
        ({"Ann": Score((4, 0, 0, 0, 0), 0, 1), "Ben": Score((4, 0, 0, 0, 0), 0, 2),
          "Cy": Score((4, 0, 0, 0, 0), 0, 5)},
         "Cy, Ben and Ann tie on 4 prestige points; Cy wins with the tallest building, 5 floors "
         "to 2."),
    ],
)
def test_the_verdict_says_how_the_tie_break_decided(pads, sentence):
    assert verdict(pads) == sentence


@pytest.mark.parametrize(
    "bad, message",
    [
        ("office", "A card must be described by its icons (an object), not 'office'."),
        ({"project": "castle"}, "Unknown project 'castle': choose one of office, apartment, "
                                "store, coffee, service, hotel."),
        ({"project": "office", "colour": "red"}, "A card has no 'colour': its keys are"),
        ({"project": "office", "no_gift": True}, "A card has no 'no_gift'"),
        ({"project": "office", "roof": "yes"}, "A card's roof must be true or false, not 'yes'."),
        ({"project": "office", "no_gifts": 1}, "A card's no gifts must be true or false, not 1."),
        ({"project": "office", "floor": "attic"},
         "Unknown floor requirement 'attic': it is ground, upper, roof or null."),
        ({"project": None}, "A card without a project must be a roof or a gift."),
        ({}, "A card without a project must be a roof or a gift."),
        ({"project": "hotel", "double": True},
         "Only an office, apartment, store, coffee shop or service can be a double."),
        ({"project": None, "roof": True, "double": True}, "Only an office, apartment"),
        (earns("each", 1), "Unknown income effect 'each': it is one of flat, floor_below, "
                           "ground_floor, on_site, on_street."),
        (scores("per_floor", 1), "Unknown prestige effect 'per_floor'"),
        (earns("flat", 1.5),
         'The amount of the income icon "a fixed amount" must be a whole number.'),
        (earns("flat", "2"),
         'The amount of the income icon "a fixed amount" must be a whole number.'),
        (earns("flat", True),
         'The amount of the income icon "a fixed amount" must be a whole number.'),
        (card(income=[{"each": "flat"}]), 'The amount of the income icon "a fixed amount" must'),
        (earns("flat", 21),
         'The amount of the income icon "a fixed amount" cannot be more than 20.'),
        (scores("flat", -21),
         'The amount of the prestige icon "a fixed amount" cannot be less than -20.'),
        (earns("on_site", 1), 'The income icon "per project on this site" needs the project it '
                              'counts: choose one.'),
        (scores("on_street", 1, "castle"), "Unknown project 'castle'"),
        (earns("flat", 1, "office"),
         'The income icon "a fixed amount" counts no project: leave its project empty.'),
        (card(income={"each": "flat", "amount": 1}), "A card's income must be a list of effects"),
        (card(prestige=["flat"]),
         "Each prestige effect must be an object with 'each' and 'amount'"),
        (card(income=[icon("flat", 1) | {"per": 2}]), "The income effect has no 'per'"),
    ],
)
def test_a_nonsense_card_is_refused(bad, message):
    with pytest.raises(RuleError) as refused:
        check_card(bad)
    assert str(refused.value).startswith(message)


@pytest.mark.parametrize(
    "bad, message",
    [
        ([[], [], [], []], "A street has 5 sites, not 4."),
        ("sites", "A street must be a list of its 5 sites."),
        (None, "A street must be a list of its 5 sites."),
        ({"1": []}, "A street must be a list of its 5 sites."),
        ([[], "office", [], [], []], "Site 2 must be a list of cards from the ground floor up."),
        ([[], [], [OFFICE, "roof"], [], []],
         "Site 3, floor 2: A card must be described by its icons (an object), not 'roof'."),
        ([[], [], [], [], [OFFICE, {"project": "castle"}]], "Site 5, floor 2: Unknown project"),
    ],
)
def test_a_nonsense_street_is_refused(bad, message):
    for rule in (income, payout, tallest, prestige_by_site, income_breakdown):
        with pytest.raises(RuleError) as refused:
            rule(bad)
        assert str(refused.value).startswith(message)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: prestige(street(), -1), "The account cannot be less than 0."),
        (lambda: prestige(street(), 2.5), "The account must be a whole number."),
        (lambda: is_finished("roof"), "A site must be a list of cards from the ground floor up."),
        (lambda: check_placement(street(), 1, OFFICE, "yes"),
         "Say whether the card goes on the player's own street (true or false)."),
        (lambda: check_placement(street(), True, OFFICE, True), "Choose a site 1 to 5, not True."),
        (lambda: check_placement(street(), 1, "office", True), "A card must be described"),
        (lambda: final_round_triggered([street()], "no"),
         "Say whether a player deck is empty (true or false)."),
        (lambda: final_round_triggered("streets", False),
         "The streets must be given as a list, or by player."),
        (lambda: final_round_triggered([street()[:4]], True), "A street has 5 sites, not 4."),
        (lambda: last_turn_players(PLAYERS, "Zoe"), "'Zoe' is not playing at this table."),
        (lambda: last_turn_players([], "Zoe"),
         "The players must be listed in turn order, the start player first."),
        (lambda: last_turn_players(["Ann", "Ann"], "Ann"), "Each player can be listed only once."),
        (lambda: is_last_turn(PLAYERS, "Cy", 1), "Say whether the final round is on"),
        (lambda: is_last_turn(PLAYERS, "Zoe", True), "'Zoe' is not playing at this table."),
        (lambda: final_ranking({"Ann": 12}), "Score every player's street and account first."),
    ],
)
def test_nonsense_input_is_refused_in_players_words(call, message):
    with pytest.raises(RuleError) as refused:
        call()
    assert str(refused.value).startswith(message)
