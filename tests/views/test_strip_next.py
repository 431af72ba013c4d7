"""The score strip says whose turn it is and what comes next, in every game, from the rules'
own `up_next` (the rules are tested in tests/rules/; here: it reaches the strip, in both
languages, and moves on with the game)."""

import re

import pytest

from tests.conftest import act, new_table


def strip_next(client, url):
    page = client.get(url).get_data(as_text=True)
    found = re.search(r'<p class="strip-next">([^<]*)</p>', page)
    return found.group(1) if found else None


@pytest.mark.parametrize(
    "slug, names, said",
    [
        ("street", ("Mia", "Ola"), "Mia&#39;s 1st action comes next"),
        ("yard", ("Ann", "Ben"), "Deal Dirk his 6 cards."),
        ("fifth_avenue", ("Ann", "Ben"),
         "First set up the board: starting businesses and the supply row."),
        ("urbanisation", ("Ann", "Ben"), "First set up the game."),
    ],
)
def test_a_new_table_says_what_comes_first(client, slug, names, said):
    assert strip_next(client, new_table(client, *names, game=slug)) == said


def test_the_strip_follows_the_turn(client):
    url = new_table(client, "Mia", "Ola", game="street")
    card = {"player": "Mia", "street": "Mia", "site": 1, "project": "office", "source": ""}
    assert act(client, url, "play/0", **card).status_code == 303
    assert strip_next(client, url) == "Mia&#39;s 2nd action comes next"


def test_the_strip_speaks_german(client):
    url = new_table(client, "Ann", "Ben", game="yard")
    client.get("/language/de")
    assert strip_next(client, url) == "Gib Dirk seine 6 Karten."


def test_after_a_scoring_card_the_next_player_is_up_in_both_languages(client):
    """Issue 41: a scoring card is revealed after a turn ends ("scoring takes place immediately,
    before the next player's turn"): after Ann's purchase and scoring A, not "Ann goes on after
    paying exactly". The card is drawn when the money is refilled after a turn of taking money,
    which the app does not record (Ann's after paying exactly, or Ben's after hers): the next
    player is not named, the card in front of them says who it is."""
    url = new_table(client, "Ann", "Ben", "Cy", game="yard")
    assert act(client, url, "buy", player="Ann", building="park").status_code == 303
    assert strip_next(client, url) == ("Ann goes on after paying exactly; otherwise it is "
                                       "Ben&#39;s turn.")
    assert act(client, url, "score", scoring="A").status_code == 303
    assert strip_next(client, url) == ("Scoring A done: its card goes in front of the next "
                                       "player, whose turn it is.")
    client.get("/language/de")
    assert strip_next(client, url) == ("Wertung A erledigt: Die Wertungskarte kommt vor den "
                                       "nächsten Spieler, der jetzt an der Reihe ist.")
