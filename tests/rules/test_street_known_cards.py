"""Cards seen before (issue 26): the street builder offers them the most likely first, from this
table's log (undone cards too) and the phone's earlier tables, each with the price last paid for
it; a site the card cannot go on is not offered."""

from companion.rules.log import CHANGE, Event
from companion.rules.street_table import (
    Built,
    StreetState,
    built,
    card_key,
    cards_logged,
    likely_cards,
)
from tests.street_moves import card

OFFICE = card("office")
STORE = card("store", floor="ground")
HOTEL = card("hotel")
ROOF = card(None, roof=True)


def order(known):
    return [k.card["project"] for k in known]


def test_a_card_seen_more_often_at_one_table_than_built_here_comes_first():
    """An earlier table saw two stores and one hotel; here one store and the office are built:
    a store and the hotel are still in the decks, the office (seen once here) is not."""
    earlier = [[Built(STORE, 3), Built(HOTEL), Built(STORE)]]
    here = [Built(OFFICE), Built(STORE)]
    in_force = {card_key(OFFICE): 1, card_key(STORE): 1}
    known = likely_cards(here, in_force, earlier)
    assert order(known) == ["store", "hotel", "office"]
    assert [(k.left, k.uses, k.price) for k in known] == [(1, 3, 3), (1, 1, None), (0, 1, None)]


def test_at_a_table_alone_the_most_used_comes_first_then_the_most_recent():
    here = [Built(OFFICE), Built(HOTEL), Built(OFFICE), Built(STORE, 2)]
    in_force = {card_key(OFFICE): 2, card_key(HOTEL): 1, card_key(STORE): 1}
    assert order(likely_cards(here, in_force, [])) == ["office", "store", "hotel"]


def test_an_undone_card_comes_first():
    """The hotel was built and taken back: it is not in force, and likely to come again."""
    here = [Built(OFFICE), Built(OFFICE), Built(HOTEL)]
    in_force = {card_key(OFFICE): 2}
    known = likely_cards(here, in_force, [])
    assert order(known) == ["hotel", "office"]
    assert known[0].left == 1


def test_the_price_is_the_last_one_paid_from_a_deck():
    earlier = [[Built(STORE, 4)], [Built(STORE, 2)]]  # the newest table first
    assert likely_cards([], {}, earlier)[0].price == 4
    assert likely_cards([Built(STORE, 5), Built(STORE)], {}, earlier)[0].price == 5


def test_a_log_s_cards_with_what_they_cost_from_a_deck():
    payloads = [{"card": OFFICE}, {"card": STORE, "bought_from": "Ola", "cost": 3},
                {"card": HOTEL, "bought_from": "public", "cost": 0},
                {"card": {"project": "castle"}}, {"player": "Mia"}]
    assert built(payloads) == [Built(OFFICE), Built(STORE, 3), Built(HOTEL)]


def built_as(seq, the_card, **payload):
    return Event(seq, "card", {"player": "Mia", "site": 1, "card": the_card, **payload})


def changed(seq, was, now):
    return Event(seq, CHANGE, {"edits": [{"seq": was.seq, "was": {"kind": was.kind,
                                                                  "payload": was.payload},
                                          "now": now and {"kind": now.kind,
                                                          "payload": now.payload}}]})


def test_a_card_a_change_replaced_is_no_card_of_the_table():
    """A helper's "2× coffee $+1", changed to "$+2", stayed first among the cards built before:
    the log's first card counted as a copy still in a deck. A card changed into another, or
    taken out, was entered by mistake: only what the change entered is this table's; a card
    changed in its site or price only is one card, at its new price. Read in two parts, as a
    page reads the log after the events it read before."""
    office, store = built_as(1, OFFICE), built_as(2, STORE, bought_from="Ola", cost=3)
    log = [office, store, changed(3, office, built_as(1, HOTEL)),
           changed(4, store, built_as(2, STORE, bought_from="Ola", cost=4, site=2))]
    assert cards_logged(cards_logged([], log[:2]), log[2:]) == [Built(HOTEL), Built(STORE, 4)]
    assert cards_logged([], [office, changed(2, office, None)]) == []
    in_force = {card_key(HOTEL): 1, card_key(STORE): 1}
    known = likely_cards(cards_logged([], log), in_force, [])
    assert [(k.card["project"], k.left) for k in known] == [("store", 0), ("hotel", 0)]


def test_the_open_sites_of_a_card_follow_the_rules_of_one_site():
    table = StreetState.start(["Mia", "Ola"])
    table.streets["Mia"][0] = [OFFICE]
    table.streets["Mia"][1] = [OFFICE, ROOF]
    assert table.open_sites(STORE, "Mia", "Mia") == [False, False, True, True, True]
    assert table.open_sites(card("apartment", floor="upper"), "Mia", "Mia") == [
        True, False, False, False, False]
    assert table.open_sites(card("hotel", floor="roof"), "Mia", "Mia") == [
        False, True, False, False, False]
    gift = card(None, roof=True, gift=True)
    assert table.open_sites(gift, "Mia", "Mia") == [False] * 5  # never on one's own street
    assert table.open_sites(gift, "Ola", "Mia") == [True] * 5
