"""The street game through the Flask test client: building by description and from the library,
refusals, buying, the end and the filled pad."""

import io
import json
import re

import pytest
from pypdf import PdfReader

from companion.rules.street_table import RULINGS
from companion.views.street import card_html
from tests import street_moves as moves
from tests.conftest import GERMAN, act, fresh, new_table, pdf_words, text
from tests.tables import FINISHED, held, seed

OPENED = ' open data-into-view="opened">'  # a fold-out as drawn open


def build(client, url, seat, **data):
    page = url + f"play/{seat}"
    data = fresh(client, page) | data
    return client.post(page, data=data)


def test_a_three_player_game_to_the_filled_pad(client):
    """Mia, Ola and Pit in turn: Mia builds an office and the same card from the library; Ola
    buys Pit's top card for $4 and discards it; Pit takes the $4; Mia's roof pays $4; Ola's
    deck runs out, the round is played out, and Mia wins."""
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    assert "Mia builds a card" in text(client.get(url))
    office = {"player": "Mia", "project": "office", "street": "Mia", "site": 1,
              "income_each_0": "flat",
              "income_amount_0": "2", "prestige_each_0": "on_site", "prestige_amount_0": "1",
              "prestige_project_0": "office"}
    assert build(client, url, 0, **office).status_code == 303
    library = text(client.get(url + "play/0"))
    assert "Built before: tap its site" in library
    known = re.search(r'name="pick" value="([0-9a-f]{12})\.1"', library).group(1)  # its short id
    no_source = build(client, url, 0, player="Mia", street="Mia", site=2, card=known)
    assert no_source.status_code == 422  # the 2nd action: bought from a deck or the public pile
    assert "Where the card came from: choose a deck or the public pile." in text(no_source)
    response = build(client, url, 0, player="Mia", street="Mia", site=2,
                     card=known, source="public")
    assert response.status_code == 303
    assert "Mia builds a card" not in text(client.get(url))  # Ola's turn: only hers is offered
    assert act(client, url, "discard", player="Ola").status_code == 303
    assert act(client, url, "buy", player="Ola", deck="Pit", cost=4).status_code == 303
    assert act(client, url, "discard", player="Ola").status_code == 303
    page = text(client.get(url))
    assert "Take $4 from the deck" in page  # Pit's 1st action, and the only one
    assert "Pit builds a card" not in page
    assert act(client, url, "upcoins", player="Pit").status_code == 303
    assert "Pit took the upcoins from their deck: $4" in text(client.get(url + "history"))
    assert act(client, url, "buy", player="Pit", deck="public").status_code == 303
    assert act(client, url, "discard", player="Pit").status_code == 303
    roof = {"player": "Mia", "roof": "y", "street": "Mia", "site": 1}
    assert build(client, url, 0, **roof).status_code == 303
    page = text(client.get(url))
    assert "Site 1 finished: Mia takes $4" in page
    assert "Site 1, floor 1: +2 = +2" in page
    refused = build(client, url, 0, player="Mia", project="office", street="Mia", site=1,
                    source="public")
    assert refused.status_code == 422
    assert "Site 1 is finished with a roof" in text(refused)
    act(client, url, "deck_empty", player="Ola", by="Mia")
    page = text(client.get(url))
    assert "Triggered by Mia" in page and "<strong>Pit</strong> takes the last turn" in page
    refused = act(client, url, "finish")
    assert refused.status_code == 422
    assert ("The final round is not complete: Mia, Ola and Pit still take their final turns "
            "(Mia&#39;s 2nd action comes next).") in text(refused)
    for player, actions in (("Mia", ("buy", "discard")), ("Ola", ("buy", "discard")),
                            ("Pit", ("discard", "buy", "discard"))):  # Ola's deck is empty
        for action in actions:
            assert act(client, url, action, player=player, deck="public").status_code == 303
    page = text(client.get(url))
    assert "The game is over" in page and 'id="score-now"' in page
    assert "builds a card" not in page and "buys a card" not in page
    assert act(client, url, "finish").status_code == 303
    page = text(client.get(url))
    assert "Final result" in page
    assert '<p class="verdict"><strong>Mia wins with ' in page  # the result first, in a sentence
    pdf = client.get(url + "sheet.pdf")
    reader = PdfReader(io.BytesIO(pdf.data))
    sheet = "\n".join(p.extract_text() for p in reader.pages)
    assert "Mia" in sheet and "Winner: Mia" in sheet and "from remaining upcoins" in sheet
    # A finished game's sheet, not the blank pad (found at a table: it was titled so).
    assert "Street card game: score sheet" in sheet and "score pad" not in sheet
    # The formula stays whole where the name column wraps it (it read "($/" over "3)").
    assert not [line for line in sheet.splitlines() if line.rstrip().endswith("($/")], sheet


def test_a_tampered_library_card_is_refused(client):
    url = new_table(client, "Mia", "Ola", game="street")
    response = build(client, url, 0, player="Mia", street="Mia", site=1, card="{nonsense")
    assert response.status_code == 422
    assert "could not be read" in text(response)
    response = build(client, url, 0, player="Mia", street="Mia", site=1,
                     card=json.dumps({"project": "castle"}))
    assert response.status_code == 422
    assert "seat" not in text(client.get(url + "history"))
    assert client.get(url + "play/7").status_code == 404


@pytest.mark.parametrize("card", ["[1, 2]", "null", "1", '"office"', "true"])
def test_a_library_card_that_is_json_but_no_card_is_refused_in_words(client, card):
    """Found by a tampering session: JSON that is not an object reached the gift's street as
    a list or a number, a server error."""
    url = new_table(client, "Mia", "Ola", game="street")
    response = build(client, url, 0, player="Mia", street="Mia", site=1, card=card)
    assert response.status_code == 422, card
    assert "That card could not be read" in text(response)
    assert "Mia built" not in text(client.get(url + "history"))


@pytest.mark.parametrize("card", [
    "[" * 990 + "]" * 990,  # found by an outside review: a RecursionError, answered 500
    '{"project": "office", "income": ' + "[" * 400 + "]" * 400 + "}",
    json.dumps({"project": "office", "income": [{"each": "flat", "amount": 1}] * 200}),
])
def test_a_huge_or_deep_library_card_is_refused_in_words(client, card):
    url = new_table(client, "Mia", "Ola", game="street")
    response = build(client, url, 0, player="Mia", street="Mia", site=1, card=card)
    assert response.status_code == 422
    assert "could not be read" in text(response) or "must be" in text(response)
    assert "Mia built" not in text(client.get(url + "history"))


def in_turn(client, url, *actions):
    """Post (action, player, more fields) in order, each accepted."""
    for action, player, *more in actions:
        data = more[0] if more else {}
        assert act(client, url, action, player=player, **data).status_code == 303, (action,
                                                                                  player)


def passes(player):
    """A turn that builds nothing: the free card and the public pile's card discarded."""
    return [("discard", player), ("buy", player, {"deck": "public"}), ("discard", player)]


def takes_public_discarded(player):
    """A 2nd action that builds nothing: the public pile's card taken and discarded."""
    return [("buy", player, {"deck": "public"}), ("discard", player)]


def test_whoever_takes_the_last_card_of_a_deck_triggers_the_final_round(client):
    """Pit, the last seat, buys the last card of Mia's deck and builds it in one step: his turn
    is over, and the page asks at Mia's turn who took it, Pit by default. Pit's turn was the
    last of the round: the game is over."""
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    in_turn(client, url, *passes("Mia"), *passes("Ola"), ("discard", "Pit"))
    assert build(client, url, 2, player="Pit", project="office", street="Pit", site=1,
                 source="Mia", cost=2).status_code == 303
    form = text(client.get(url + "?open=empty-0"))
    assert "Who took its last card?" in form and "<option selected>Pit</option>" in form
    assert "The round before was the last: the game is over" in form
    assert act(client, url, "deck_empty", player="Mia", by="Pit").status_code == 303
    page = text(client.get(url))
    assert "The game is over" in page and "The final round is complete: no more turns." in page
    assert "Mia builds a card" not in page and "If the game ended now" not in page
    assert "Mia&#39;s deck is empty" in text(client.get(url + "history"))
    assert act(client, url, "finish").status_code == 303


def test_the_likely_taker_of_a_deck_s_last_card_is_chosen_by_the_step_of_the_turn(client):
    """Found at a table: after a player's 1st action (their upcoins) another's deck was said
    taken by them, though a 1st action takes only from one's own deck. Before Ola's 1st action
    Mia (her purchase) took it; after it, Ola only for her own deck; once Ola bought, Ola.
    Before Pit, the last seat, has had a turn, never Pit (found by a browser test: refused)."""
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    in_turn(client, url, ("discard", "Mia"))

    def chosen(seat):
        form = text(client.get(url + f"?open=empty-{seat}")).split(f'id="empty-{seat}"')[1]
        return re.search(r"<option selected>(\w+)</option>", form.split("</form>")[0])[1]

    assert chosen(1) == "Mia"
    in_turn(client, url, *takes_public_discarded("Mia"))
    assert chosen(2) == "Mia"
    in_turn(client, url, ("discard", "Ola"))
    assert (chosen(1), chosen(2)) == ("Ola", "Mia")
    in_turn(client, url, ("buy", "Ola", {"deck": "Pit", "cost": 2}))
    assert (chosen(0), chosen(2)) == ("Ola", "Ola")


def test_a_deck_emptied_in_the_round_before_ends_the_game_or_is_refused(client):
    """Ola buys the last card of Pit's deck and builds it in one step; nobody says so until
    round 2 begins: Ola's turn was in round 1, so round 1 was the final one and the game is
    over. Said only after Mia's 1st action of round 2, it is refused with what to do."""
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    in_turn(client, url, *passes("Mia"), ("discard", "Ola"))
    assert build(client, url, 1, player="Ola", project="office", street="Ola", site=1,
                 source="Pit", cost=3).status_code == 303
    in_turn(client, url, ("upcoins", "Pit"), ("buy", "Pit", {"deck": "public"}),
            ("discard", "Pit"))
    in_turn(client, url, ("discard", "Mia"))
    refused = act(client, url, "deck_empty", player="Pit", by="Ola")
    assert refused.status_code == 422
    assert ("Ola&#39;s last turn was in round 1: if the deck ran out then, that round was the "
            "final one and the game ended with it. Undo the actions of round 2 first"
            in text(refused))
    assert act(client, url, "undo").status_code == 303
    assert act(client, url, "deck_empty", player="Pit", by="Ola").status_code == 303
    assert "The final round is complete: no more turns." in text(client.get(url))


def test_a_deck_emptied_by_its_owners_1st_action_leaves_that_card_to_record(client):
    """Ola takes the last card of her deck as her 1st action: the form offers it as a button of
    its own, and her turn stays at the 1st action for that card (the ruling: otherwise she goes
    on to the 2nd)."""
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    in_turn(client, url, *passes("Mia"))
    form = text(client.get(url + "?open=empty-1"))
    assert "Ola takes its last card now, as this 1st action" in form
    assert "as this 1st action" not in text(client.get(url + "?open=empty-2"))  # not Pit's turn
    # The select still names Mia (before Ola's 1st action, the likely taker): the button says.
    assert act(client, url, "deck_empty", player="Ola", by="Mia", drawn="y").status_code == 303
    page = text(client.get(url))
    assert "Triggered by Ola" in page and "Ola&#39;s 1st action comes next" in page
    again = text(client.get(url + "?open=empty-2"))  # Pit's: the final round began already
    assert "Record it" in again and "The final round begins" not in again
    assert build(client, url, 1, player="Ola", project="office", street="Ola",
                 site=1).status_code == 303
    assert "Ola&#39;s 2nd action comes next" in text(client.get(url))
    assert ("Ola&#39;s deck is empty: its last card is Ola&#39;s 1st action"
            in text(client.get(url + "history")))


def test_a_deck_emptied_before_the_last_seat_leaves_a_final_round(client):
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    in_turn(client, url, *passes("Mia"), ("discard", "Ola"))
    assert build(client, url, 1, player="Ola", project="office", street="Ola", site=1,
                 source="Pit", cost=3).status_code == 303
    form = text(client.get(url + "?open=empty-2"))
    assert "<option selected>Ola</option>" in form  # before Pit's 1st action: Ola took it
    assert act(client, url, "deck_empty", player="Pit", by="Ola").status_code == 303
    page = text(client.get(url))
    assert "Triggered by Ola" in page
    assert "Still to play: Pit; <strong>Pit</strong> takes the last turn." in page
    assert "Take $3 from the deck" in page  # Pit's deck is empty, but upcoins lie on it
    in_turn(client, url, ("upcoins", "Pit"), ("buy", "Pit", {"deck": "public"}),
            ("discard", "Pit"))
    assert "The game is over" in text(client.get(url))


def test_a_deck_empty_changed_keeps_its_taker_and_another_taker_reads_otherwise(app, client):
    """Mia bought the last card of Pit's deck; it is said at Ola's 2nd action. Changing it, the
    form is open with Mia chosen (not the page's guess, Ola), so the same taps change nothing;
    choosing Ola instead says so on both sides of the arrow, as the history names the taker."""
    office = moves.card("office")
    table_id = seed(app, "street", ["Mia", "Ola", "Pit"], [
        ("card", {"player": "Mia", "street": "Mia", "site": 1, "card": office}),
        ("card", {"player": "Mia", "street": "Mia", "site": 2, "card": office,
                  "bought_from": "Pit", "cost": 0}),
        ("card", {"player": "Ola", "street": "Ola", "site": 1, "card": office}),
        ("deck_empty", {"player": "Pit", "by": "Mia"}),
        ("card", {"player": "Ola", "street": "Ola", "site": 2, "card": office,
                  "bought_from": "public", "cost": 0})])
    url = f"/street/{table_id}/"
    assert "#4</span> Pit&#39;s deck is empty: Mia took its last card: the final round begins" \
        in squash(text(client.get(url + "history")))
    page = text(client.get(url + "?change=4"))
    form = page.split('<details class="buy-card" id="empty-2"' + OPENED)[1].split("</form>")[0]
    assert "<option selected>Mia</option>" in form and "<option selected>" not in form.replace(
        "<option selected>Mia</option>", "")
    fields = fresh(client, url + "?change=4")
    same = text(client.post(url + "deck_empty?change=4", data={**fields, "player": "Pit",
                                                               "by": "Mia"}))
    assert "#4 is entered as it was recorded" in same
    other = text(client.post(url + "deck_empty?change=4", data={**fields, "player": "Pit",
                                                                "by": "Ola"}))
    assert ("Change: Pit&#39;s deck is empty: Mia took its last card → Pit&#39;s deck is "
            "empty: Ola took its last card") in other


def test_blank_street_pad(client):
    response = client.get("/pad/street.pdf?players=3")
    text_ = PdfReader(io.BytesIO(response.data)).pages[0].extract_text()
    assert "from remaining upcoins" in text_ and "Total" in text_


def german(client):
    """Every following request asks for German, as a German phone's browser does."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-DE,de;q=0.9"
    return client


def test_the_table_speaks_german_from_the_first_card_to_the_pad(client):
    url = new_table(german(client), "Mia", "Ola", "Pit", game="street")
    page = text(client.get(url))
    assert "Mia baut eine Karte" in page and "Mia ist dran: 1. Aktion" in page
    assert "Als Nächstes kommt die 1. Aktion von Mia" in page  # the strip
    assert f"Regelungen ({len(RULINGS)})" in page and "Wertungsblatt bis jetzt (PDF)" in page
    assert "Regelung: Jedes Dach zahlt" in text(client.get(url + "?open=rulings"))
    assert "builds a card" not in page and "Ruling:" not in page and "upcoins" not in page

    build_page = text(client.get(url + "play/0"))
    assert "Sichtbares Projekt" in build_page
    assert 'value="office"><span>Büro</span>' in build_page
    assert ">je Projekt in der Straße</span>" in build_page
    assert 'aria-label="Auf Platz 1 bauen"' in build_page
    assert "A new card" not in build_page and "per project" not in build_page

    office = {"player": "Mia", "project": "office", "street": "Mia", "site": 1,
              "income_each_0": "on_street", "income_amount_0": "1",
              "income_project_0": "office"}
    refused = build(client, url, 0, **office, source="public")  # a purchase as the 1st action
    assert refused.status_code == 422
    assert ("Als Nächstes kommt die 1. Aktion von Mia. Die 1. Aktion ist die oberste Karte des "
            "eigenen Stapels, gratis (oder das Geld darauf): Eine Karte zu kaufen ist die 2. "
            "Aktion.") in text(refused)
    assert build(client, url, 0, **office).status_code == 303
    assert "Mia kauft eine Karte" in text(client.get(url))  # the 2nd action buys
    assert "Woher die Karte kam" in text(client.get(url + "play/0"))
    assert build(client, url, 0, player="Mia", roof="y", street="Mia", site=1,
                 source="public").status_code == 303
    page = text(client.get(url))
    assert "Bauplatz 1 fertig: Mia bekommt 1 $" in page
    assert "Bauplatz 1, Etage 1: +1 je Büro in der Straße = +1" in page
    assert "Mia hat ein Dach auf Bauplatz 1 gebaut" in page  # the undo button names it

    refused = build(client, url, 0, player="Mia", project="office", street="Mia", site=2)
    assert refused.status_code == 422  # Ola's turn now
    assert "Ola ist dran, nicht Mia: Als Nächstes kommt die 1. Aktion von Ola." in text(refused)
    assert "It is Ola" not in text(refused) and "comes next" not in text(refused)
    refused = build(client, url, 1, player="Ola", project="service", gift="y", street="Mia",
                    site=1)
    assert refused.status_code == 422
    assert ("Bauplatz 1 ist mit einem Dach fertig: Dort passt nur noch eine Karte, die auf ein "
            "Dach gebaut werden muss.") in text(refused)
    assert "finished with a roof" not in text(refused)
    assert act(client, url, "discard", player="Ola").status_code == 303
    refused = act(client, url, "buy", player="Ola", deck="Pit", cost=12)
    assert refused.status_code == 422 and "Ola hat nur 10 $, nicht 12 $." in text(refused)

    act(client, url, "deck_empty", player="Ola")
    page = text(client.get(url))
    assert "Ausgelöst von Ola." in page and "<strong>Pit</strong> hat den letzten Zug." in page
    history = text(client.get(url + "history"))
    assert "Mia hat ein Büro auf Bauplatz 1 gebaut" in history
    assert "Der Stapel von Ola ist leer" in history and "deck is empty" not in history
    refused = act(client, url, "finish")
    assert refused.status_code == 422
    assert ("Die Schlussrunde ist noch nicht vorbei: Ola und Pit haben noch ihre letzten Züge "
            "(Als Nächstes kommt die 2. Aktion von Ola).") in text(refused)
    for player, action in (("Ola", "buy"), ("Ola", "discard"), ("Pit", "discard"),
                           ("Pit", "buy"), ("Pit", "discard")):
        assert act(client, url, action, player=player, deck="public").status_code == 303
    page = text(client.get(url))
    assert "Das Spiel ist vorbei" in page and "Spiel werten" in page

    assert act(client, url, "finish").status_code == 303
    page = text(client.get(url))
    assert "Endergebnis" in page and "gewinnt" in page and "Final result" not in page
    sheet = squash(pdf_text(client.get(url + "sheet.pdf")))
    assert "Wertungsblatt" in sheet and "Es gewinnt Mia." in sheet, sheet
    assert "Mia, Bauplatz 1: Einkommen 1, ausgezahlt 1 $" in sheet, sheet
    assert "★ Bauplatz 1" in sheet and "Höchstes Gebäude" in sheet
    assert "score pad" not in sheet and "Winner" not in sheet and "site 1" not in sheet


def test_the_blank_pad_in_german(client):
    pad = squash(pdf_text(german(client).get("/pad/street.pdf?players=4")))
    assert "Wertungsblock" in pad and "Datum:" in pad and "★ aus Bauplätzen 1-5" in pad, pad
    assert "Summe" in pad and "Gleichstand: das höchste Gebäude" in pad, pad
    assert "score pad" not in pad and "Total" not in pad and "Tallest" not in pad, pad


def pdf_text(response):
    assert response.status_code == 200
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.data)).pages)


def squash(words):
    return " ".join(words.split())


def test_rare_forms_are_drawn_only_when_opened_and_a_refusal_keeps_its_open(client):
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    page = text(client.get(url))
    assert ("<strong>If the game ended now:</strong> Mia, Ola and Pit tie on 3 prestige points "
            "and on their tallest building (0 floors): a shared victory.") in page  # $10: 3
    assert 'href="?open=buy-0#buy-0"' not in page  # the 1st action buys nothing
    assert act(client, url, "discard", player="Mia").status_code == 303
    page = text(client.get(url))
    assert 'href="?open=buy-0#buy-0"' in page and 'href="?open=fix#fix"' in page
    assert 'href="?open=buy-1#buy-1"' not in page  # only the player at turn buys
    assert 'name="deck"' not in page and 'name="amount"' not in page  # the forms come later
    opened = text(client.get(url + "?open=buy-0"))
    assert '<details class="buy-card" id="buy-0"' + OPENED in opened
    assert opened.count('name="deck"') == 4  # Mia's own deck, the two others', the pile
    in_turn(client, url, ("buy", "Mia", {"deck": "public"}), ("discard", "Mia"),
            ("discard", "Ola"), ("buy", "Ola", {"deck": "Mia", "cost": 4}), ("discard", "Ola"),
            ("discard", "Pit"))
    refused = act(client, url, "buy", player="Pit", deck="Mia", cost=1)  # upcoins on it
    assert refused.status_code == 422
    assert "Mia&#39;s deck has upcoins on it: nobody can buy from it." in text(refused)
    assert '<details class="buy-card" id="buy-2"' + OPENED in text(refused)
    # the deck's button says why it takes no tap, as the card builder's chip does
    assert re.search(r'value="Mia" disabled>From Mia&#39;s deck \(upcoins on it\)</button>',
                     text(refused))
    chips = text(client.get(url + "play/2"))
    assert re.search(r'value="Mia" disabled><span>From Mia&#39;s deck \(upcoins on it\)</span>',
                     chips)
    refused = act(client, url, "account", player="Mia", amount=-1)
    assert refused.status_code == 400 and '<details class="card" id="fix"' + OPENED in text(refused)


def test_a_blank_cost_is_not_a_free_card(client):
    url = new_table(client, "Mia", "Ola", game="street")
    in_turn(client, url, *passes("Mia"), ("discard", "Ola"))
    blank = act(client, url, "buy", player="Ola", deck="Mia", cost="")
    assert blank.status_code == 422
    assert "Enter what the card cost: only the public pile is free." in text(blank)
    assert '<details class="buy-card" id="buy-1"' + OPENED in text(blank)
    assert act(client, url, "buy", player="Ola", deck="public", cost="").status_code == 303
    assert "Ola took the public card" in text(client.get(url + "history"))


def test_a_purchase_tapped_with_its_cost_untouched_is_refused_not_free(client):
    """The purchase's cost box starts blank, not at $0: a deck's button tapped without typing
    the cost is refused with words (only the public pile is free), the fold-out kept open."""
    url = new_table(client, "Mia", "Ola", game="street")
    assert act(client, url, "discard", player="Mia").status_code == 303
    opened = text(client.get(url + "?open=buy-0"))
    form = opened.split('id="buy-0"' + OPENED)[1].split("</form>")[0]
    cost = re.search(r'<input [^>]*name="cost"[^>]*>', form).group(0)
    assert 'value=""' in cost
    sent = {"player": "Mia", "deck": "Ola", "cost": re.search(r'value="([^"]*)"', cost).group(1)}
    refused = act(client, url, "buy", **sent)
    assert refused.status_code == 422
    page = text(refused)
    assert '<span class="field-error" id="buy-cost-error">Enter what the card cost: only the ' \
        'public pile is free.</span>' in page
    assert '<details class="buy-card" id="buy-0"' + OPENED in page
    assert "bought from" not in text(client.get(url + "history"))
    assert '<section class="card turn" id="turn">' in page
    bought = act(client, url, "buy", **(sent | {"cost": 3}))
    page = text(client.get(bought.headers["Location"]))  # placing it: the turn, into view
    assert '<section class="card turn" id="turn" data-into-view="done">' in page
    assert "Mia's turn: place the card" in page


def test_a_purchase_changed_is_shown_open_with_the_cost_recorded(app, client):
    """Changing Mia's purchase from Ola's deck for $4: its fold-out is open with $4 in the
    cost box, so tapping Ola's deck again changes nothing (it read $0 and made the card free)."""
    office = moves.card("office")
    table_id = seed(app, "street", ["Mia", "Ola"], [
        ("card", {"player": "Mia", "street": "Mia", "site": 1, "card": office}),
        ("buy", {"player": "Mia", "deck": "Ola", "cost": 4}),
        ("card", {"player": "Mia", "street": "Mia", "site": 2, "card": office})])
    url = f"/street/{table_id}/"
    page = text(client.get(url + "?change=2"))
    assert "Changing #2: Mia bought from Ola&#39;s deck for $4" in page
    form = page.split('<details class="buy-card" id="buy-0"' + OPENED)[1].split("</form>")[0]
    cost = re.search(r'<input [^>]*name="cost"[^>]*value="([^"]*)"', form).group(1)
    assert cost == "4"
    # The deck it came from is marked, and only that one.
    assert re.findall(r'<button [^>]*value="(\w+)"[^>]* aria-current="true"', form) == ["Ola"]
    preview = text(client.post(url + "buy?change=2", data={
        **fresh(client, url + "?change=2"), "player": "Mia", "deck": "Ola", "cost": cost}))
    assert "#2 is entered as it was recorded: Mia bought from Ola&#39;s deck for $4." in preview


def test_an_account_correction_changed_is_shown_with_the_amount_recorded(app, client):
    """Changing "Ola's account set to $12": the corrections are open with $12 and its reason
    in Ola's form (it showed the $10 the app counted there, so a tap on Set changed it)."""
    office = moves.card("office")
    table_id = seed(app, "street", ["Mia", "Ola"], [
        ("card", {"player": "Mia", "street": "Mia", "site": 1, "card": office}),
        ("account", {"player": "Ola", "amount": 12, "reason": "counted"}),
        ("buy", {"player": "Mia", "deck": "public", "cost": 0})])
    url = f"/street/{table_id}/"
    page = text(client.get(url + "?change=2"))
    form = page.split('<details class="card" id="fix"' + OPENED)[1].split("</form>")[1]
    assert 'name="player" value="Ola"' in form
    assert re.search(r'name="amount"[^>]*value="12"', form)
    assert re.search(r'name="reason"[^>]*value="counted"', form)
    preview = text(client.post(url + "account?change=2", data={
        **fresh(client, url + "?change=2"), "player": "Ola", "amount": 12, "reason": "counted"}))
    assert "#2 is entered as it was recorded" in preview


def test_the_library_is_filtered_without_javascript_and_a_card_is_removed(client):
    url = new_table(client, "Mia", "Ola", game="street")
    assert build(client, url, 0, player="Mia", project="office", street="Mia",
                 site=1).status_code == 303
    assert build(client, url, 0, player="Mia", project="hotel", street="Mia", site=2,
                 source="public").status_code == 303
    found = text(client.get(url + "play/1?q=hot"))  # Ola's turn: her builder's library
    assert found.count('class="known"') == 1 and "<strong>hotel</strong>" in found
    assert "Mia's street: remove a card built by mistake" in text(client.get(url + "?open=fix"))
    mia = text(client.get(url + "play/0"))  # Mia's street, from the corrections: no builder
    assert "<h1>Mia's street</h1>" in mia and "Ola&#39;s 1st action comes next" in mia
    assert 'class="builder"' not in mia and "known-cards" not in mia
    assert "Site 2: remove the hotel on top" in mia
    assert act(client, url, "remove", street="Mia", site=2).status_code == 303
    page = text(client.get(url))
    assert "Last: Took a hotel off Mia&#39;s site 2" in page
    refused = act(client, url, "remove", street="Mia", site=2)
    assert refused.status_code == 422
    assert "Site 2 of Mia&#39;s street has no card to remove." in text(refused)


def test_a_gift_with_one_opponent_goes_on_their_street(client):
    url = new_table(client, "Mia", "Ola", game="street")
    assert build(client, url, 0, player="Mia", roof="y", gift="y", street="Mia",
                 site=1).status_code == 303
    assert "Mia gave Ola a roof as a gift, on site 1" in text(client.get(url))
    # Seen before, the gift's row names Ola's street, as among three players: bare site buttons
    # read as the player's own (found at a 2-player table), and Ola's site 2 builds there.
    page = text(client.get(url))
    assert '<span class="to">Ola</span>' in page and 'aria-label="Ola\'s site 2"' in page
    response = build(client, url, 0, player="Mia", pick=pick(page, "roof", 2, seat=1),
                      source="public")
    assert response.status_code == 303
    assert "Mia gave Ola a roof as a gift, on site 2" in text(client.get(url + "history"))


def test_a_library_card_is_sent_by_its_short_id_and_an_unknown_id_is_refused(client):
    url = new_table(client, "Mia", "Ola", game="street")
    office = {"player": "Mia", "project": "office", "street": "Mia", "site": 1}
    assert build(client, url, 0, **office).status_code == 303
    page = text(client.get(url))
    ids = re.findall(r'name="pick" value="([^"]*)"', page)  # a card's short id and a site
    assert ids and all(re.fullmatch(r"[0-9a-f]{12}\.[1-5]", i) for i in ids)  # not its JSON
    in_turn(client, url, ("buy", "Mia", {"deck": "public"}), ("discard", "Mia"),
            ("discard", "Ola"))  # Ola's 2nd action next
    seq = len(re.findall(r"<li", text(client.get(url + "history"))))
    stranger = build(client, url, 1, player="Ola", street="Ola", site=1, card="0123456789ab",
                     source="public")
    assert stranger.status_code == 422 and "That card could not be read" in text(stranger)
    assert len(re.findall(r"<li", text(client.get(url + "history")))) == seq


def test_the_new_card_part_kept_for_a_fresh_form_is_in_each_page_s_language(client):
    """The builder's new-card part is drawn once per language and kept (views.street
    new_card_icons): an English and a German page in turn each get their own."""
    url = new_table(client, "Mia", "Ola", game="street")
    for _ in range(2):
        english = text(client.get(url, headers={"Accept-Language": "en"}))
        german = text(client.get(url, headers={"Accept-Language": "de"}))
        assert "Project showing" in english and "Sichtbares Projekt" not in english
        assert "Sichtbares Projekt" in german and "Project showing" not in german


def pick(page, project, site, seat=None):
    """The value of the button that builds a card seen before (its row's words start with its
    project) on a site: '<short id>.<site>[.<seat>]'."""
    row = re.search(rf'<div class="known" role="group" aria-label="{project}[^"]*".*?</div></div>',
                    page, re.S).group(0)
    suffix = "" if seat is None else rf"\.{seat}"
    return re.search(rf'name="pick" value="([0-9a-f]{{12}}\.{site}{suffix})"', row).group(1)


def test_a_card_seen_before_is_one_button_and_costs_what_was_last_paid_for_it(client):
    """Mia buys a store from Ola's deck for $3; at Pit's 2nd action the store is a row of site
    buttons with its price: bought from Mia's deck with the cost left blank, it costs $3."""
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    assert build(client, url, 0, player="Mia", project="office", site=1).status_code == 303
    assert build(client, url, 0, player="Mia", project="store", floor="ground", site=2,
                 source="Ola", cost=3).status_code == 303
    in_turn(client, url, ("upcoins", "Ola"), *takes_public_discarded("Ola"), ("discard", "Pit"))
    page = text(client.get(url))
    assert '<span class="price">$3</span>' in page
    assert 'value="Mia"' in page and "From Mia&#39;s deck" in page
    store = pick(page, "store", 1)
    response = build(client, url, 2, player="Pit", pick=store, source="Mia")
    assert response.status_code == 303, text(response)
    history = text(client.get(url + "history"))
    assert "Pit built a store on site 1 (bought from Mia&#39;s deck for $3)" in history
    # A card never bought has no price: its cost is asked.
    in_turn(client, url, ("upcoins", "Mia"))
    office = pick(text(client.get(url)), "office", 2)
    refused = build(client, url, 0, player="Mia", pick=office, source="Pit")
    assert refused.status_code == 422
    assert "Enter what the card cost" in text(refused)


def test_an_undone_purchase_s_price_is_not_offered(client):
    """Found at a table: a store bought for $4 by mistake and undone was offered at $4 among
    the cards built before, and a blank cost would have recorded that mistake again. Only a
    price paid in force is offered: bought again for $2, the store's row says $2."""
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    assert build(client, url, 0, player="Mia", project="office", site=1).status_code == 303
    assert build(client, url, 0, player="Mia", project="store", floor="ground", site=2,
                 source="Ola", cost=4).status_code == 303
    assert act(client, url, "undo").status_code == 303
    page = text(client.get(url))
    store = re.search(r'<div class="known" role="group" aria-label="store[^"]*".*?</div></div>',
                      page, re.S).group(0)
    assert '<span class="price">' not in store, store
    refused = build(client, url, 0, player="Mia", pick=pick(page, "store", 2), source="Ola")
    assert refused.status_code == 422 and "Enter what the card cost" in text(refused)
    assert build(client, url, 0, player="Mia", pick=pick(page, "store", 2), source="Ola",
                 cost=2).status_code == 303
    assert "Mia built a store on site 2 (bought from Ola&#39;s deck for $2)" in text(
        client.get(url + "history"))


def test_a_card_undone_and_replaced_by_another_is_not_offered(client):
    """Found at a table: a roof entered with $+3 by mistake, undone and entered again with $+1,
    stayed first among the cards built before to the game's end: one tap from recording the
    mistake again. Undone, it is offered (Redo would bring it back); replaced, it is not."""
    url = new_table(client, "Mia", "Ola", game="street")
    assert build(client, url, 0, player="Mia", project="coffee", site=1).status_code == 303
    assert act(client, url, "undo").status_code == 303
    assert 'aria-label="coffee"' in text(client.get(url))
    assert build(client, url, 0, player="Mia", project="store", floor="ground",
                 site=1).status_code == 303
    page = text(client.get(url))
    assert 'aria-label="store' in page and 'aria-label="coffee"' not in page


def test_an_outdated_tap_is_told_of_its_own_action_among_more_than_three_missed(client):
    """Found at a table: a tap on an outdated phone was told of the three last actions "and 1
    action before them", the one it repeated left unsaid. The latest action of its kind by its
    player is said among them."""
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    outdated = fresh(client, url + "play/0")
    assert build(client, url, 0, player="Mia", project="office", site=1).status_code == 303
    assert act(client, url, "buy", player="Mia", deck="public").status_code == 303
    assert act(client, url, "discard", player="Mia").status_code == 303
    assert act(client, url, "discard", player="Ola").status_code == 303
    stale = client.post(url + "play/0", data=outdated | {"player": "Mia", "project": "office",
                                                         "street": "Mia", "site": 1})
    assert stale.status_code == 409
    assert ("(Mia built an office on site 1; Mia discarded the card; Ola discarded the card; "
            "and 1 other action)") in text(stale).replace("&#39;", "'"), text(stale)


def test_a_site_the_card_cannot_go_on_is_not_offered_and_a_bad_pick_is_refused(client):
    url = new_table(client, "Mia", "Ola", game="street")
    assert build(client, url, 0, player="Mia", project="store", floor="ground",
                 site=1).status_code == 303
    page = text(client.get(url))
    row = re.search(r'aria-label="store[^"]*".*?</div></div></div>', page, re.S).group(0)
    assert re.search(r'value="[0-9a-f]{12}\.1" aria-label="Site 1" disabled', row)
    assert re.search(r'value="[0-9a-f]{12}\.2" aria-label="Site 2">', row)
    for bad in ("nonsense", pick(page, "store", 2) + ".7", "0123456789ab.2"):
        refused = build(client, url, 0, player="Mia", pick=bad, source="public")
        assert refused.status_code == 422 and "could not be read" in text(refused), bad


def test_a_gift_seen_before_offers_each_opponent_s_street(client):
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    assert build(client, url, 0, player="Mia", roof="y", gift="y", street="Pit",
                 site=1).status_code == 303
    page = text(client.get(url))
    assert '<span class="to">Ola</span>' in page and '<span class="to">Pit</span>' in page
    # each site's button says whose street it is on (both rows said "Site 2" to the ear)
    assert 'aria-label="Ola\'s site 2"' in page and 'aria-label="Pit\'s site 2"' in page
    response = build(client, url, 0, player="Mia", pick=pick(page, "roof", 2, seat=1),
                     source="public")
    assert response.status_code == 303
    assert "Mia gave Ola a roof as a gift, on site 2" in text(client.get(url + "history"))


def test_an_undone_card_and_the_cards_of_the_starting_phone_s_earlier_tables_are_offered(
        client):
    earlier = new_table(client, "Mia", "Ola", game="street")
    assert build(client, earlier, 0, player="Mia", project="hotel", site=1).status_code == 303
    assert build(client, earlier, 0, player="Mia", project="coffee", site=2,
                 source="Ola", cost=4).status_code == 303
    assert act(client, earlier, "undo").status_code == 303
    page = text(client.get(earlier))
    assert 'aria-label="coffee"' in page  # undone, still offered
    url = new_table(client, "Ann", "Ben", game="street")  # the same phone
    page = text(client.get(url))
    assert 'aria-label="hotel"' in page and 'aria-label="coffee"' in page
    # Issue 45: the library is the table's, the same on every phone at it; a table another
    # phone starts has that phone's own.
    other_phone = client.application.test_client()
    assert 'aria-label="hotel"' in text(other_phone.get(url))
    own = new_table(other_phone, "Cy", "Dee", game="street")
    assert 'aria-label="hotel"' not in text(other_phone.get(own))
    assert 'aria-label="hotel"' not in text(client.get(own))
    assert act(client, url, "discard", player="Ann").status_code == 303
    response = build(client, url, 0, player="Ann", pick=pick(text(client.get(url)), "coffee", 3),
                     source="Ben")
    assert response.status_code == 303, text(response)
    assert "Ann built a coffee shop on site 3 (bought from Ben&#39;s deck for $4)" in text(
        client.get(url + "history"))


def test_a_table_keeps_its_library_when_an_earlier_table_s_links_are_renewed(app, client):
    """The earlier tables a table takes its library from are named by id: renewing one's
    links moves the name along, deleting one takes its cards out."""
    from companion import storage
    from companion.app import get_db

    earlier = new_table(client, "Mia", "Ola", game="street")
    assert build(client, earlier, 0, player="Mia", project="hotel", site=1).status_code == 303
    url = new_table(client, "Ann", "Ben", game="street")
    with app.app_context():
        renewed = storage.renew_links(get_db(), earlier.strip("/").split("/")[-1])
    other_phone = client.application.test_client()
    assert 'aria-label="hotel"' in text(other_phone.get(url))
    with app.app_context():
        storage.delete_table(get_db(), renewed)
    assert 'aria-label="hotel"' not in text(other_phone.get(url))


def test_the_cards_seen_are_read_from_the_log_once_then_only_the_new_events(app, client,
                                                                           monkeypatch):
    """A page costs the same at any length of game: after the first page, the cards a table's
    log built are brought up to date from the events since, never the whole log again."""
    from companion import storage
    from tests.tables import FINISHED, seed

    names, actions = FINISHED["street"]
    table_id = seed(app, "street", names, actions[:6])
    client.get(f"/street/{table_id}/")

    def whole_log(*args, **kwargs):
        raise AssertionError("the whole log was read again")

    monkeypatch.setattr(storage, "events", whole_log)
    act(client, f"/street/{table_id}/", "undo")
    assert client.get(f"/street/{table_id}/").status_code == 200


def test_a_street_with_every_site_finished_has_its_way_on_in_the_turn(app, client):
    """Issue 41: Ann finished her 5th site with her 1st action (the final round begins). Her
    2nd action: no site of hers takes a card, so the turn itself offers the purchase (or the
    public card) and then the discard; Ben's last turn follows, then the scoring."""
    roofs = [moves.build("Ann", 1, moves.ROOF), moves.public("Ann", 2, moves.ROOF),
             *moves.passes("Ben"), moves.build("Ann", 3, moves.ROOF),
             moves.public("Ann", 4, moves.ROOF), *moves.passes("Ben"),
             moves.build("Ann", 5, moves.ROOF)]
    table_id = seed(app, "street", ["Ann", "Ben"], roofs)
    url = f"/street/{table_id}/"
    page = text(client.get(url))
    turn = page.split('id="turn"')[1].split("</section>")[0]
    assert "All of Ann's sites are finished" in turn
    assert 'name="deck" value="public"' in turn  # the way on, in the turn
    assert turn.index("All of Ann's sites are finished") < turn.index("<form")  # said first
    assert '<a href="#discard">To discard a card</a>' in turn and 'id="discard"' in turn
    assert "Alle Bauplätze von Ann sind fertig: Eine Karte kommt auf ein Dach" in text(
        client.get(url, headers=GERMAN))
    assert act(client, url, "buy", player="Ann", deck="public", cost=0).status_code == 303
    turn = text(client.get(url)).split('id="turn"')[1].split("</section>")[0]
    assert "It fits no site: Ann discarded it" in turn
    assert "it is discarded only when it fits no site" in turn  # the ruling, beside it
    assert act(client, url, "discard", player="Ann").status_code == 303
    for kind, payload in moves.passes("Ben"):
        assert act(client, url, kind, **payload).status_code == 303
    assert "Score the game" in text(client.get(url))


def test_a_2nd_action_s_card_that_fits_no_site_has_its_way_on_in_the_turn(app, client):
    """Found at a table: Sam's 2nd action, the public card "on a roof only" and no site of his
    finished: every site refused it, and the turn said nothing of the way on (bought or taken,
    then discarded), which was in a fold-out further down."""
    table_id = seed(app, "street", ["Ann", "Ben"], [moves.discard("Ann")])
    url = f"/street/{table_id}/"
    turn = text(client.get(url)).split('id="turn"')[1].split("</section>")[0]
    assert ("A card that fits no site: record it bought (or taken from the public pile), then "
            "discarded. <button ") in turn
    assert re.search(r'<button class="as-link discard-card" form="at-builder" name="discard_card" '
                     r'value="0" [^>]*data-href="\?open=buy-0#buy-0">To discard a card</button>',
                     turn)
    opened = text(client.get(url + "?open=buy-0"))
    assert re.search(r'<details class="buy-card" id="buy-0" open', opened)
    assert act(client, url, "buy", player="Ann", deck="public", cost=0).status_code == 303
    turn = text(client.get(url)).split('id="turn"')[1].split("</section>")[0]
    assert "It fits no site: Ann discarded it" in turn and "A card that fits no site" not in turn
    assert act(client, url, "discard", player="Ann").status_code == 303
    assert "Ben's turn: 1st action" in text(client.get(url))


def test_a_card_refused_on_the_card_builder_s_page_has_the_way_on_there_too(app, client):
    """Found at a table without JavaScript: Bernd's 2nd action, a card "on a roof only" and no
    roof of his finished, refused on the card builder's own page, which said nothing of the way
    on (bought or taken, then discarded): that was on the table page only."""
    table_id = seed(app, "street", ["Ann", "Ben"], [moves.discard("Ann")])
    url = f"/street/{table_id}/"
    hotel = {"player": "Ann", "project": "hotel", "street": "Ann", "site": 1, "floor": "roof",
             "describe": "y", "source": "public"}
    refused = build(client, url, 0, **hotel)
    assert refused.status_code == 422
    page = text(refused)
    assert "A card that fits no site: record it bought (or taken from the public pile), then " \
           "discarded. <button " in page
    assert f'data-href="/street/{table_id}/?open=buy-0#buy-0">To discard a card</button>' in page
    # first, under the refusal at the page's top, not two screens down under the builder
    assert page.index("A card that fits no site") < page.index('class="site-buttons"')
    opened = text(client.get(url + "?open=buy-0"))
    assert re.search(r'<details class="buy-card" id="buy-0" open', opened)


def test_to_discard_a_card_opens_the_purchase_with_the_deck_and_cost_chosen(app, client):
    """Found at a table: Ben's deck and $4 chosen in the card builder, the card fit no site,
    and "To discard a card" opened the purchase with its cost blank and no deck marked. It is
    a button of the builder's form now (on the table page and the builder's own): `street.fold`
    opens the purchase with both (with JavaScript, street.js puts them in its address); the
    deck chosen is the one to tap; a cost out of range is said beside it, a seat that is no
    seat opens the table page, and a purchase opened bare is as before."""
    table_id = seed(app, "street", ["Ann", "Ben"], [moves.discard("Ann")])
    url = f"/street/{table_id}/"
    for page in (url, url + "play/0"):
        assert 'form="at-builder" name="discard_card" value="0"' in text(client.get(page))
        assert 'id="at-builder"' in text(client.get(page))
    data = {**fresh(client, url), "player": "Ann", "source": "Ben", "cost": "4",
            "discard_card": "0"}
    answer = client.post(url + "fold", data=data)
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/street/{table_id}/?open=buy-0&source=Ben&cost=4#buy-0"
    purchase = text(client.get(answer.headers["Location"])).split('id="buy-0"')[1]
    purchase = purchase.split("</details>")[0]
    assert re.search(r'<input id="buy-cost" [^>]*value="4"', purchase)
    assert re.findall(r'<button class="primary" name="deck" value="(\w+)"', purchase) == ["Ben"]
    assert act(client, url, "buy", player="Ann", deck="Ben", cost=4).status_code == 303
    assert "It fits no site: Ann discarded it" in text(client.get(url))
    client.post(url + "undo", data=fresh(client, url))
    too_long = text(client.get(url + "?open=buy-0&source=public&cost=1234567890"))
    assert "1234567890" not in too_long.split('id="buy-0"')[1].split("</details>")[0]
    dear = text(client.get(url + "?open=buy-0&source=public&cost=100"))
    assert 'id="buy-cost-error"' in dear.split('id="buy-0"')[1].split("</details>")[0]
    bare = text(client.get(url + "?open=buy-0")).split('id="buy-0"')[1].split("</details>")[0]
    assert 'class="primary" name="deck"' not in bare and 'value=""' in bare
    for seat in ("2", "-1", ""):
        other = client.post(url + "fold", data={**data, "discard_card": seat})
        assert other.status_code == 303 and "buy-" not in other.headers["Location"]


def test_upcoins_left_on_a_deck_at_the_end_are_said_to_score_nothing(app, client):
    """Found at a table: $2 of upcoins lay on Anna's deck at the end and never reached her
    account; the result counted the account only (the rulebook: 1 prestige point for every $3
    "in your account") and said nothing of them. Said where they are left, and only there."""
    names = ["Mia", "Ola", "Pit"]
    log = [moves.build("Mia", 1, moves.card()), ("deck_empty", {"player": "Ola"}),
           moves.buy("Mia", "public"), moves.discard("Mia"), moves.buy("Ola", "public"),
           moves.discard("Ola"), moves.discard("Pit")]
    said = ("Only money in an account scores (1 prestige point for every $3): upcoins still on "
            "a player deck score nothing.")
    ends = {"left": [moves.buy("Pit", "Mia", 2)], "none": [moves.buy("Pit", "public")]}
    for left, end in ends.items():
        table_id = seed(app, "street", names, [*log, *end, moves.discard("Pit"), ("finish", {})])
        page = " ".join(text(client.get(f"/street/{table_id}/")).split())
        assert "Final result" in page
        sheet = pdf_words(client.get(f"/street/{table_id}/sheet.pdf").data)
        assert (said in page) == (said in sheet) == (left == "left"), left


def test_a_gift_among_three_players_asks_whose_street_it_goes_on(client):
    """Issue 41: no street is chosen beforehand (not the player's own, where no gift may go);
    without one a gift is refused at the street picker, with the opponents to choose from."""
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    page = text(client.get(url))
    assert 'name="street" value="Mia" checked' not in page
    refused = build(client, url, 0, player="Mia", project="service", gift="y", site=2)
    assert refused.status_code == 422
    assert "Choose whose street the gift goes on: Ola and Pit." in text(refused)
    german = client.post(url + "play/0", headers=GERMAN, data=fresh(client, url + "play/0") | {
        "player": "Mia", "project": "service", "gift": "y", "site": 2})
    assert german.status_code == 422
    assert "Wähle, in wessen Straße das Geschenk kommt: Ola und Pit." in text(german)
    assert build(client, url, 0, player="Mia", project="service", gift="y", street="Pit",
                 site=2).status_code == 303


def test_the_builder_s_page_and_a_player_s_street_have_the_score_strip(app, client):
    """Issue 45: "X builds a card" and "X's street" showed no totals, no last action and no
    Undo; a refusal there had no strip to be said in."""
    from tests.tables import FINISHED, seed

    names, actions = FINISHED["street"]
    table_id = seed(app, "street", names, actions[:5])
    for seat, heading in ((0, "Mia's street"), (1, "Ola builds a card")):
        page = text(client.get(f"/street/{table_id}/play/{seat}"))
        assert heading in page
        strip = page.split('<aside class="score-strip"')[1].split("</aside>")[0]
        assert "Mia</span> <strong>" in strip and "Undo" in strip


def test_a_stale_card_without_a_source_is_told_what_changed_not_a_field(client):
    """Issue 45: both phones at Ann's 1st action; one records a card; the other's card, sent
    from the 1st action's screen (no source asked there), reached the 2nd action and was told
    "Where the card came from: ...", a field its screen did not show. It is answered with what
    changed instead, and from the table page's builder, with the table page."""
    url = new_table(client, "Ann", "Ben", game="street")
    stale = fresh(client, url + "play/0")
    assert build(client, url, 0, player="Ann", project="hotel", site=1).status_code == 303
    answer = client.post(url + "play/0", headers={"X-Companion": "fetch"},
                         data={**stale, "player": "Ann", "project": "office", "site": 2,
                               "on": "table"})
    assert answer.status_code == 409
    said = answer.get_json()
    assert "The table changed since this screen was loaded (Ann built a hotel on site 1)" in \
        said["refused"] and "field" not in said
    assert "<h1>Street card game</h1>" in said["page"]
    assert "Remove a card built by mistake" not in said["page"]


def test_a_card_refused_as_from_an_outdated_screen_stays_as_it_was_built(app, client):
    """Found by an audit: Ola was building a card (an office, Double, income 2) when another
    phone undid and redid the last action; the tap on a site was refused as from an outdated
    screen, and the builder came back empty. It comes back with the card as built."""
    names, actions = FINISHED["street"]
    table_id = seed(app, "street", names, actions[:2])  # Ola's 1st action comes next
    held(client, table_id)
    url = f"/street/{table_id}/"
    stale = fresh(client, url + "play/1")
    other = app.test_client()
    held(other, table_id)
    assert act(other, url, "undo").status_code == 303
    assert act(other, url, "redo").status_code == 303
    card = {"player": "Ola", "project": "office", "double": "y", "income_0_each": "flat",
            "income_0_amount": "2", "describe": "y", "site": 3, "on": "table"}
    answer = client.post(url + "play/1", headers={"X-Companion": "fetch"},
                         data={**stale, **card})
    assert answer.status_code == 409
    page = answer.get_json()["page"]
    assert re.search(r'name="project" value="office"[^>]* checked', page)
    assert re.search(r'name="double" value="y"[^>]* checked', page)


def test_a_price_the_buyer_cannot_pay_is_said_beside_the_cost_typed(client):
    """Issue 45, found at a table: "Cleo has only $12, not $20." was said in the score strip,
    the Cost field scrolled away unmarked. The rules name the payload key at fault (`cost`):
    said beside that field, with and without JavaScript."""
    url = new_table(client, "Mia", "Ola", game="street")
    assert build(client, url, 0, player="Mia", project="hotel", site=1).status_code == 303
    card = {"player": "Mia", "project": "office", "site": 2, "source": "Ola", "cost": 40}
    answer = client.post(url + "play/0", headers={"X-Companion": "fetch"},
                         data={**fresh(client, url + "play/0"), **card})
    assert answer.status_code == 422
    assert answer.get_json() == {"refused": "Mia has only $10, not $40.",  # beside the field
                                 "field": "cost"}
    page = text(build(client, url, 0, **card))
    assert re.search(r'name="cost"[^>]*value="40" aria-invalid="true"', page)
    assert "Mia has only $10, not $40." in page.split('name="cost"')[1]


def test_the_2nd_action_s_card_comes_from_one_s_own_deck_unless_another_is_tapped(client):
    """Issue 42: the 2nd action's source is chosen on the page, one's own deck (the one deck
    always open then: its upcoins were taken as the 1st action); the 1st action asks none."""
    url = new_table(client, "Mia", "Ola", game="street")
    own = '<input type="radio" name="source" value="Mia" checked>'
    assert 'name="source"' not in text(client.get(url))  # the 1st action: free, no source
    assert build(client, url, 0, player="Mia", project="hotel", site=1).status_code == 303
    assert own in text(client.get(url))
    assert own in text(client.get(url + "play/0"))
    assert build(client, url, 0, player="Mia", project="office", site=2, source="Mia",
                 cost=3).status_code == 303
    assert act(client, url, "deck_empty", player="Ola", by="Mia").status_code == 303
    page = text(client.get(url))  # Ola's 2nd action (her deck empty: no 1st), none chosen
    assert "<h2>Ola's turn: 2nd action</h2>" in page
    assert 'name="source" value="Ola" disabled' in page
    assert re.search(r'name="source" value="[^"]*" checked', page) is None


def test_a_new_card_opens_by_the_project_it_shows_without_a_script(client):
    """Issue 42: with cards built before, each project's chip opens a new card with that
    project chosen (one tap for both; "A new card" was a tap of its own); "Built before" closes
    it again."""
    url = new_table(client, "Mia", "Ola", game="street")
    assert build(client, url, 0, player="Mia", project="hotel", site=1).status_code == 303
    page = text(client.get(url))
    chip = re.search(r'<button class="chip new-project" id="project-store" data-project="store" '
                     r'name="new_card" value="store" formaction="([^"]+)" formnovalidate '
                     r'data-open data-href="([^"]+)">', page)
    assert chip and chip.group(2).endswith("?open=new-card&amp;project=store#new-card")
    opened = text(client.get(chip.group(2).replace("&amp;", "&")))
    assert '<input type="radio" name="project" value="store" checked>' in opened
    assert 'class="chip new-toggle" name="built_before"' in opened and "new-project" not in opened
    folded = client.post(chip.group(1), data={"new_card": "store"})  # without a script
    assert folded.status_code == 303
    assert folded.location.endswith("?open=new-card&project=store#new-card")
    closed = client.post(chip.group(1), data={"built_before": "y", "project": "store"})
    assert closed.location.endswith(url.removeprefix("http://localhost") + "#turn")
    bogus = text(client.get(url + "?open=new-card&project=<b>"))
    assert '<input type="radio" name="project" value="" checked>' in bogus


def test_a_new_card_opened_without_a_script_keeps_where_it_came_from_and_its_cost(client):
    """Found at a table without JavaScript: the source and cost chosen before a project's chip
    were lost (the chips were links), and a card then built with its cost typed again was
    recorded as from the player's own deck. The chips send the builder's form (`street.fold`):
    the page they open keeps them; a deck emptied meanwhile is chosen no more, with why, and
    a cost out of range is said beside it (a deck that is none of the player's is left aside)."""
    url = new_table(client, "Mia", "Ola", game="street")
    assert build(client, url, 0, player="Mia", project="hotel", site=1).status_code == 303
    assert act(client, url, "deck_empty", player="Ola", by="Mia").status_code == 303
    page = text(client.get(url))  # Mia's 2nd action, a card built before: the chips show
    fold = re.search(r'name="new_card" value="office" formaction="([^"]+)"', page).group(1)
    folded = client.post(fold, data={"new_card": "office", "source": "public", "cost": "4",
                                     "player": "Mia", "step": "2"})
    assert folded.location.endswith("?open=new-card&project=office&source=public&cost=4"
                                    "#new-card")
    opened = text(client.get(folded.location))
    assert '<input type="radio" name="source" value="public" checked>' in opened
    assert re.search(r'name="cost"[^>]*value="4"', opened)
    assert '<input type="radio" name="project" value="office" checked>' in opened
    odd = client.post(fold, data={"new_card": "<b>", "source": "Ola", "cost": "100",
                                  "ignored": "x"})
    assert odd.location.endswith("?open=new-card&project=&source=Ola&cost=100#new-card")
    said = text(client.get(odd.location))  # Ola's deck ran out: none chosen in its place
    assert re.search(r'name="source" value="[^"]*" checked', said) is None
    assert ("No card can come from there now: From Ola&#39;s deck (empty). Choose where the "
            "card came from.") in said
    assert re.search(r'name="cost"[^>]*value="100" aria-invalid="true"', said)
    assert "Number must be between 0 and 99." in said
    assert 'name="source" value="Mia" checked' in text(client.get(url + "?source=Pit"))
    built = build(client, url, 0, player="Mia", project="office", site=2, source="public",
                  describe="y")
    assert built.status_code == 303
    assert "(public pile)" in text(client.get(url + "history"))


def test_an_icon_that_counts_projects_counts_the_card_s_own_unless_another_is_chosen(client):
    """Issue 42: the counted project's blank is "its own" (project), said in the list; another
    chosen is kept, and a bare roof's blank is still refused (it shows no project)."""
    url = new_table(client, "Mia", "Ola", game="street")
    assert '<option value="" selected>its own</option>' in text(client.get(url))  # whole: short
    hotel = {"player": "Mia", "project": "hotel", "site": 1, "income_each_0": "on_street",
             "income_amount_0": "2", "prestige_each_0": "on_site", "prestige_amount_0": "1",
             "prestige_project_0": "office"}
    assert build(client, url, 0, **hotel).status_code == 303
    page = text(client.get(url))
    assert ('<span class="inc">$+2 per hotel on the street</span> '
            '<span class="pre">&#9733;+1 per office on this site</span>') in page
    roof = {"player": "Mia", "roof": "y", "site": 2, "source": "public",
            "income_each_0": "on_site", "income_amount_0": "1"}
    refused = build(client, url, 0, **roof)
    assert refused.status_code == 422
    assert "needs the project it counts" in text(refused)


def test_a_card_seen_before_is_named_with_what_its_icons_mean(client):
    """A screen reader heard a card seen before as "office +2 +1": the card draws $ and a
    star, its name said neither. Now its icons are named, in the players' language."""
    url = new_table(client, "Mia", "Ola", "Pit", game="street")
    office = {"player": "Mia", "project": "office", "street": "Mia", "site": 1,
              "income_each_0": "flat", "income_amount_0": "2",
              "prestige_each_0": "flat", "prestige_amount_0": "1"}
    assert build(client, url, 0, **office).status_code == 303
    assert 'role="group" aria-label="office (income +2; prestige +1)"' in text(client.get(url))
    german = text(client.get(url, headers={"Accept-Language": "de"}))
    assert 'role="group" aria-label="Büro (Einkommen +2; Prestige +1)"' in german


def test_a_roof_or_gift_card_is_named_once():
    from companion.rules.street_table import card_words

    roof = {"project": None, "double": False, "roof": True, "gift": False, "floor": None,
            "no_gifts": False, "income": [], "prestige": [{"each": "flat", "amount": 2,
                                                           "project": None}]}
    assert card_words(roof) == "roof (prestige +2)"
    assert card_words({**roof, "gift": True}) == "roof (prestige +2; gift)"
    assert card_words({**roof, "roof": False, "gift": True}) == "gift (prestige +2)"
    assert card_words({**roof, "prestige": []}) == "roof"
    assert card_words({**roof, "project": "hotel"}) == "hotel (prestige +2; roof)"


def test_a_project_tapped_in_change_mode_is_the_one_the_new_card_shows(app, client):
    """Found at a table: changing "Ann built an office", "New: apartment" opened the builder
    with office still chosen, and a tap on the site then changed nothing. The project tapped
    is chosen; the rest of the card stays as recorded (its prestige icon here)."""
    office = {**moves.card("office"), "prestige": [
        {"each": "flat", "amount": 2, "project": None}]}
    table_id = seed(app, "street", ["Ann", "Ben"], [
        ("card", {"player": "Ann", "street": "Ann", "site": 1, "card": office}),
        ("buy", {"player": "Ann", "deck": "public", "cost": 0}),
        ("card", {"player": "Ann", "street": "Ann", "site": 2, "card": office})])
    url = f"/street/{table_id}/"
    page = text(client.get(url + "?change=1"))
    assert "apartment" in page and "project=apartment#new-card" in page
    page = text(client.get(url + "?open=new-card&change=1&project=apartment"))
    chosen = re.findall(r'<input [^>]*name="project" value="(\w*)"[^>]* checked', page)
    assert chosen == ["apartment"], chosen
    amount = re.search(r'<input [^>]*name="prestige_amount_0"[^>]*value="(\d+)"', page)
    assert amount and amount.group(1) == "2"
    # "New: no project" too (found at a table: the office stayed chosen)
    page = text(client.get(url + "?open=new-card&change=1&project="))
    chosen = re.findall(r'<input [^>]*name="project" value="(\w*)"[^>]* checked', page)
    assert chosen == [""], chosen
    page = text(client.get(url + "?open=new-card&change=1"))  # no chip tapped: as recorded
    assert re.findall(r'<input [^>]*name="project" value="(\w*)"[^>]* checked', page) == [
        "office"]


def test_every_card_built_before_keeps_the_deck_and_cost_chosen(app, client):
    """Found at a table: "From Ben's deck" and $4 chosen, then "All 3 cards built before":
    that page chose the own deck again with no cost, and the hotel picked there was recorded as
    bought from Ann's own deck. street.js puts the choice in the link's address; the page keeps
    it, and leaves aside what is not a deck to buy from or a cost."""
    office = moves.card("office")
    table_id = seed(app, "street", ["Ann", "Ben"], [
        ("card", {"player": "Ann", "street": "Ann", "site": 1, "card": office})])
    url = f"/street/{table_id}/play/0"
    page = text(client.get(url + "?source=Ben&cost=4"))
    assert re.findall(r'<input [^>]*name="source" value="(\w+)"[^>]* checked', page) == ["Ben"]
    assert re.search(r'<input [^>]*name="cost"[^>]*value="4"', page)
    tampered = text(client.get(url + "?source=Zed&cost=x9"))
    assert re.findall(r'<input [^>]*name="source" value="(\w+)"[^>]* checked', tampered) != ["Zed"]
    assert re.search(r'<input [^>]*name="cost"[^>]*value=""', tampered)
    for cost in ("\u00b2", "9" * 5000):  # a digit that is no number, too long
        answer = client.get(url, query_string={"cost": cost})
        assert answer.status_code == 200
        assert re.search(r'<input [^>]*name="cost"[^>]*value=""', text(answer))
    too_much = text(client.get(url, query_string={"cost": "100"}))  # said, as the form says it
    assert re.search(r'<input [^>]*name="cost"[^>]*value="100" aria-invalid="true"', too_much)


def test_every_card_built_before_opened_without_a_script_keeps_the_deck_and_cost(app, client):
    """Found at a table without JavaScript: "All 8 cards built before" was a link, and the
    page it opened chose the own deck again with no cost. It is a button of the builder's form
    now: `street.fold` opens the builder's own page with the deck and cost chosen; a seat that
    is no seat opens the table page as "Built before" does."""
    office = moves.card("office")
    table_id = seed(app, "street", ["Ann", "Ben"], [
        ("card", {"player": "Ann", "street": "Ann", "site": 1, "card": office})])
    url = f"/street/{table_id}/"
    assert 'name="all_cards" value="0" formaction="' not in text(client.get(url))  # one card
    data = {**fresh(client, url), "player": "Ann", "source": "Ben", "cost": "4", "all_cards": "0"}
    answer = client.post(url + "fold", data=data)
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/street/{table_id}/play/0?source=Ben&cost=4"
    page = text(client.get(answer.headers["Location"]))
    assert re.findall(r'<input [^>]*name="source" value="(\w+)"[^>]* checked', page) == ["Ben"]
    assert re.search(r'<input [^>]*name="cost"[^>]*value="4"', page)
    for seat in ("2", "\u00b2", "-1"):
        other = client.post(url + "fold", data={**data, "all_cards": seat})
        assert other.status_code == 303 and "/play/" not in other.headers["Location"]


def test_with_two_players_a_new_gift_says_whose_sites_its_buttons_are(client):
    """Found at a table (twice): with two players a gift's street is not chosen, and its site
    buttons said "on site 2", read as the player's own street. Under them, shown while Gift is
    ticked (street.css), the new card says whose sites they are; with three players the street is
    chosen above them, and nothing more is said."""
    url = new_table(client, "Mia", "Ola", game="street")
    assert build(client, url, 0, player="Mia", project="hotel", site=1).status_code == 303
    opened = text(client.get(url + "?open=new-card&project=store"))
    assert ("<p class=\"hint gift-where\">A gift goes on Ola's street: the site buttons are "
            "Ola's sites.</p>") in opened
    three = new_table(client, "Mia", "Ola", "Pit", game="street")
    assert "gift-where" not in text(client.get(three + "?open=new-card&project=store"))


def test_a_card_built_on_the_ground_floor_only_is_said_so_in_every_language(app, client):
    """Found at a table: "Etage ground" in the German history, strip and sheet."""
    card = moves.card(floor="ground", income=[{"each": "flat", "amount": 1, "project": None}])
    table_id = seed(app, "street", ["Mia", "Ola"], [moves.build("Mia", 1, card)])
    url = f"/street/{table_id}/"
    for headers, said in (({}, "(income +1; ground floor only) → "), (GERMAN, "(Einkommen +1; "
                                                                        "nur Erdgeschoss) → ")):
        preview = text(client.post(url + "play/0?change=1", headers=headers, data={
            **fresh(client, url + "?change=1"), "player": "Mia", "street": "Mia", "site": "1",
            "card": "", "project": "office", "floor": "ground", "income_each_0": "flat",
            "income_amount_0": "2"}))
        title = re.search(r'<h1 id="change-title">([^<]*)', preview).group(1)
        assert said in title and "ground)" not in title and "Etage" not in title, title


def test_the_whole_card_builder_opens_with_the_new_card_as_described(app, client):
    """Found at a table: "A second income or prestige icon: the whole card builder" was a link,
    and the card half described (a roof, a prestige icon of +1) was gone on the builder's own
    page, to be entered again. It is a button of the builder's form: `street.fold` opens that
    page with the deck, the cost and the card as described so far (app.js opens the address
    street.js puts the same into)."""
    office = moves.card("office")
    table_id = seed(app, "street", ["Ann", "Ben"], [
        ("card", {"player": "Ann", "street": "Ann", "site": 1, "card": office})])
    url = f"/street/{table_id}/"
    page = text(client.get(url + "?open=new-card"))
    assert 'name="whole_card" value="0" formaction="' in page  # Ann's 2nd action
    data = {**fresh(client, url), "player": "Ann", "source": "Ann", "cost": "3",
            "describe": "y", "project": "hotel",
            "roof": "y", "floor": "upper", "prestige_each_0": "flat", "prestige_amount_0": "1",
            "whole_card": "0"}
    answer = client.post(url + "fold", data=data)
    assert answer.status_code == 303
    where = answer.headers["Location"]
    assert where.startswith(f"/street/{table_id}/play/0?source=Ann&cost=3&") and "roof=y" in where
    builder = text(client.get(where))
    assert re.search(r'<input type="checkbox" name="roof" value="y" checked', builder)
    assert re.search(r'<input type="radio" name="floor" value="upper" checked', builder)
    assert re.search(r'<input type="radio" name="project" value="hotel" checked', builder)
    assert re.search(r'<input type="radio" name="prestige_each_0" value="flat" checked', builder)
    assert re.search(r'name="prestige_amount_0"[^>]*value="1"', builder)
    assert not re.search(r'name="gift" value="y" checked', builder)


def test_a_card_face_names_a_gift_once(app):
    """Found at a table: a gift with no project and no roof read "gift" over "gift"."""
    bare = moves.card(project=None, gift=True, income=[{"each": "flat", "amount": -1,
                                                        "project": None}])
    roofed = moves.card(project=None, roof=True, gift=True)
    with app.test_request_context():
        assert re.sub(r"<[^>]+>|\xad", "", str(card_html(bare))).split() == ["gift", "$−1"]
        assert re.sub(r"<[^>]+>|\xad", "", str(card_html(roofed))).split() == ["roof", "gift"]


def test_a_roof_that_finishes_a_street_brings_the_final_round_into_view(app, client):
    """Found at a table: J. R. R.'s roof finished his street, and "Final round — Triggered by J.
    R. R." stood 220 px above the screen, the strip silent. Its answer brings it into view, as
    a deck run out does; the next player's action does not again."""
    roof = moves.card(project=None, roof=True)
    turns = [moves.build("Mia", 1, roof), moves.public("Mia", 2, roof), *moves.passes("Ola"),
             moves.build("Mia", 3, roof), moves.public("Mia", 4, roof), *moves.passes("Ola"),
             moves.build("Mia", 5, roof)]
    url = f"/street/{seed(app, 'street', ['Mia', 'Ola'], turns)}/"
    held(client, url.strip("/").split("/")[-1])
    final = re.search(r'<section class="card next"( data-into-view="done")?>\s*<h2>Final round',
                      text(client.get(url)))
    assert final and final.group(1)
    assert act(client, url, "buy", player="Mia", deck="public").status_code == 303  # 2nd action
    final = re.search(r'<section class="card next"( data-into-view="done")?>\s*<h2>Final round',
                      text(client.get(url)))
    assert final and not final.group(1)
