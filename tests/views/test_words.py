"""Words the players read, in English and German (issue 23, "Words and layout"): each said once,
with its consequence, in the grammar of its language."""

import io
import re

import pytest
from pypdf import PdfReader

from companion.i18n import text as said
from companion.rules.fifth_avenue_table import ALEA, FifthAvenueState
from companion.rules.text import Plural
from companion.rules.urbanisation import COLOUR_NAMES
from tests import street_moves as moves
from tests.conftest import GERMAN, act, drawn_table, fresh, new_table, text
from tests.tables import STREET, seed


def build(client, url, seat, **data):
    page = url + f"play/{seat}"
    return client.post(page, data=fresh(client, page) | data)


def urbanisation_set_up(client):
    url = new_table(client, "Ann", "Ben", "Cy", game="urbanisation")
    data = {"inventions": "yes", "start_player": "Ann", "money": 10}
    data |= {f"grounds_{i}": str(g) for i, g in enumerate((2, 2, 1))}
    assert act(client, url, "setup", **data).status_code == 303
    return url


# The street ------------------------------------------------------------------------------------


def test_a_bare_gift_is_said_a_gift_once(client):
    url = new_table(client, "Gina", "Hugo", game="street")
    assert build(client, url, 0, player="Gina", gift="y", street="Gina",
                 site=2).status_code == 303
    for page in (text(client.get(url)), text(client.get(url + "history"))):
        assert "Gina gave Hugo a gift, on site 2" in page
        assert "a gift as a gift" not in page


def test_a_roof_is_said_with_its_payout_in_the_last_line_and_the_history(client):
    url = new_table(client, "Gina", "Hugo", game="street")
    office = {"player": "Gina", "project": "office", "street": "Gina", "site": 1,
              "income_each_0": "flat", "income_amount_0": "3"}
    assert build(client, url, 0, **office).status_code == 303
    for action, data in (("buy", {"deck": "public"}), ("discard", {})):
        assert act(client, url, action, player="Gina", **data).status_code == 303
    for action, data in (("discard", {}), ("buy", {"deck": "public"}), ("discard", {})):
        assert act(client, url, action, player="Hugo", **data).status_code == 303
    assert build(client, url, 0, player="Gina", roof="y", street="Gina",
                 site=1).status_code == 303
    line = "Gina built a roof on site 1: site 1 finished, Gina takes $3"
    assert f"Last: {line}" in text(client.get(url))
    assert line in text(client.get(url + "history"))
    german = text(client.get(url + "history", headers=GERMAN))
    assert "Bauplatz 1 fertig, Gina bekommt 3 $" in german
    assert act(client, url, "undo").status_code == 303  # the table before the roof: no payout
    undone = text(client.get(url))
    assert "Undone: Gina built a roof on site 1" in undone
    assert "Undone: Gina built a roof on site 1:" not in undone


def test_an_amount_is_said_after_its_number_in_german_as_in_every_game(client):
    """Found by the German review: the street said "$19" where the other games say "19 $"."""
    url = new_table(client, "Gina", "Hugo", game="street")
    german = text(client.get(url, headers=GERMAN))
    assert "Gina <small>10 $ · auf dem Stapel: 0 $" in german
    assert not re.search(r"\$\d", german)


def test_a_central_park_win_is_said_once_in_german(app, client):
    """Found at a table: the strip said "Ida hat Central Park ersteigert und 2 Hochhäuser
    gebaut — Ida hat den Central Park ersteigert und 2 Hochhäuser gebaut." (the action's words
    and the rules' note, told apart only by "den")."""
    from tests.tables import FINISHED, seed
    names, logged = FINISHED["fifth_avenue"]
    park = next(i for i, (kind, payload) in enumerate(logged)  # no plot colour: Central Park
                if kind == "auction" and payload["colour"] is None and payload["build"])
    url = f"/fifth_avenue/{seed(app, 'fifth_avenue', names, logged[:park + 1])}/"
    strip = re.search(r'<div class="strip-last.*?</div>',
                      text(client.get(url, headers=GERMAN)), re.S).group(0)
    assert strip.count("Central Park ersteigert") == 1, strip


def test_one_floor_is_said_in_the_singular_in_german(client):
    """Gina and Hugo tie on prestige with one office each: their tallest buildings have one
    floor ("1 Etage", not "1 Etagen")."""
    url = new_table(client, "Gina", "Hugo", game="street")
    for seat, player in enumerate(("Gina", "Hugo")):
        assert build(client, url, seat, player=player, project="office", street=player,
                     site=1).status_code == 303
        for action, data in (("buy", {"deck": "public"}), ("discard", {})):
            assert act(client, url, action, player=player, **data).status_code == 303
    english = text(client.get(url))
    assert "on their tallest building (1 floor): a shared victory." in english
    german = text(client.get(url, headers=GERMAN))
    assert "(1 Etage)" in german and "1 Etagen" not in german


# 5th Avenue ------------------------------------------------------------------------------------


def central_park_with_alea(client):
    """Alea wins every district of the round; Central Park's auction is next, Alea in."""
    url = drawn_table(client)
    for to in ("34w", "times", "52w", "central_park", "city_hall"):
        assert act(client, url, "move", commissioner="white", to=to).status_code == 303
    for _place in ("34w", "times", "52w"):
        act(client, url, "alea", high_bid=0, cards="6 6")
        assert act(client, url, "auction", winner="alea").status_code == 303
    act(client, url, "alea", high_bid=0, cards="6 6")
    return url


def test_alea_is_never_said_to_build_in_central_park(client):
    url = central_park_with_alea(client)
    page = text(client.get(url))
    assert "Auction: Central Park" in page
    assert "Alea won (Alea never builds in Central Park)" in page
    assert "Alea won: Alea builds" not in page
    german = text(client.get(url, headers=GERMAN))
    assert "Alea baut im Central Park nie" in german


def test_a_building_stop_nobody_scores_says_so():
    table = FifthAvenueState.start(["Ann", "Ben"])
    table.board["times"] = [{"businesses": ["boutique", "jeweler"]} for _ in range(5)]
    table._building_stop("times", ALEA)
    assert table.scorings[-1].lines[0] == "Alea declared it: Alea never scores"
    assert table.note == ("Times Square is closed. Every player scores half their district score, "
                          "rounded down; Alea never scores. Nobody scores.")


def test_the_history_names_who_placed_a_business_and_moved_a_commissioner(client):
    url = drawn_table(client)
    page = text(client.get(url))
    tile = page.split('name="tile" value="')[1].split('"')[0]
    target = page.split('name="target" value="')[1].split('"')[0]
    assert act(client, url, "plot", target=target, tile=tile).status_code == 303
    assert act(client, url, "move", commissioner="white", to="34w").status_code == 303
    history = text(client.get(url + "history"))
    assert re.search(r"Ann placed an? [a-z ]+ in [^:]+: business 1 of 12\.", history)
    assert "Ann moved the white commissioner from City Hall to 34th St West" in history
    german = text(client.get(url + "history", headers=GERMAN))
    assert re.search(r"Ann legt ein Geschäft \([^)]+\) in [^:]+: Geschäft 1 von 12\.", german)
    assert "Ann zieht die weiße Kommission weiter: Startfeld → 34th St West" in german


# Urbanisation ----------------------------------------------------------------------------------


def test_a_factorys_goods_agree_in_german(app):
    with app.test_request_context(headers=GERMAN):
        for n, words in ((1, "Fabrik 5: 1 Ware (weiß)"), (2, "Fabrik 5: 2 Waren (weiß)")):
            assert said(Plural("Factory {number}: {n} {colour} good",
                               "Factory {number}: {n} {colour} goods", number=5, n=n,
                               colour=COLOUR_NAMES["white"])) == words


def test_a_corrections_reason_may_be_a_sentence_and_the_history_shows_its_amounts(client):
    url = urbanisation_set_up(client)
    page = text(client.get(url + "?open=effect"))
    assert 'name="reason"' in page and 'maxlength="40"' not in page
    reason = "Land swap: Ann's price marker 3 for Ben's marker 5"  # 50 characters
    assert act(client, url, "effect", effect_player="Ann", money=3, vp=-1, effect_white=2,
               reason=reason).status_code == 303
    line = f"Ann: {reason} (+$3, −1 VP, +2 white work orders)"
    history = text(client.get(url + "history")).replace("&#39;", "'")
    assert line in history
    # the point it took, with the minus sign, as the strip says it (the history said "-1")
    assert '<p class="points"><span>Ann <b>\u22121</b></span></p>' in history
    assert '<span class="strip-gave">— Ann \u22121</span>' in text(client.get(url))
    german = text(client.get(url + "history", headers=GERMAN)).replace("&#39;", "'")
    assert "(+3 $, −1 SP, +2 Arbeitsaufträge (weiß))" in german


class Noted:
    """A table state whose rules noted what the last action did."""

    finished = False

    def __init__(self, note):
        self.note = note


@pytest.mark.parametrize(("said", "note", "gained", "line"), [
    # the note says the action and more: said once (it was "Ann erected 1 house — Ann erected
    # 1 house for $2: +1 VP.")
    ("Ann erected 1 house", "Ann erected 1 house for $2: +1 VP.", [["Ann", 1]],
     ("Ann erected 1 house for $2: +1 VP.", "", "Ann +1")),
    ("Final scoring", "Final scoring done: Cy wins.", [],
     ("Final scoring done: Cy wins.", "", "")),
    # a note that says something else follows the action
    ("Scored 34th St West", "34th St West: Ann 6, Ben 3.", [["Ann", 6], ["Ben", 3]],
     ("Scored 34th St West", "34th St West: Ann 6, Ben 3.", "Ann +6 · Ben +3")),
    ("Ann bought a park", None, [["Ann", 1]], ("Ann bought a park", "", "Ann +1")),
    # a note the action's words begin with says nothing more (the cards drawn are in the words)
    ("Ann won Times Square and built 2 skyscrapers on the brown plot (cards 5)",
     "Ann won Times Square and built 2 skyscrapers on the brown plot.", [],
     ("Ann won Times Square and built 2 skyscrapers on the brown plot (cards 5)", "", "")),
    ("Ann lost a park", None, [["Ann", -2], ["Ben", 0]], ("Ann lost a park", "", "Ann \u22122")),
])
def test_the_strip_says_an_action_and_what_it_gave_once(app, said, note, gained, line):
    from companion.views.tables import consequence

    with app.test_request_context():
        assert consequence(Noted(note), said, gained) == (*line, "")  # nothing meanwhile



def test_a_site_that_takes_prestige_away_is_subtracted_in_the_final_sum(app, client):
    """Found at a table: "sites 7 + -2 + 0"; a site that takes prestige away is subtracted
    with the minus sign, as every page writes it. The finished street game of the tests, Ola's
    roof on site 2 taking 2 prestige away."""
    names, actions = STREET
    roof = moves.card(None, roof=True, prestige=[{"each": "flat", "amount": -2, "project": None}])
    actions = [(kind, {**payload, "card": roof}) if kind == "card" and payload["player"] == "Ola"
               else (kind, payload) for kind, payload in actions]
    url = f"/street/{seed(app, 'street', names, actions)}/"
    page = text(client.get(url))
    assert "(sites 0 − 2 + 0 + 0 + 0, 3 for the money left" in page, re.findall(
        r"sites[^<]{0,80}", page)
    assert "+ -" not in page
    sheet = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(
        client.get(url + "sheet.pdf").data)).pages)
    assert "−2" in sheet and "-2" not in sheet  # the print too (found at a table: "-2")
