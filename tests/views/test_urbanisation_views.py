"""Urbanisation through the Flask test client: set-up, characters, actions and a refusal, the
administration and its report, the Mayor explained, the whole scripted game through the forms,
the score sheet and the blank pad, and hostile forms."""

import io
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from benchmarks.games import GAME_SCRIPTS
from companion import i18n, storage
from companion.rules import GAMES, Event, RuleError, replay
from companion.rules.urbanisation_actions import BONUS_FACTORIES
from companion.rules.urbanisation_example import SETUP, TURN_1, TURN_2, TURN_3, hire
from companion.rules.urbanisation_table import RULINGS_BY_STEP
from tests.conftest import GERMAN, act, confirm_fields, current_seq, fresh, new_table, screen, text
from tests.tables import FINISHED, URBANISATION_PLAYED, URBANISATION_TURNS, seed
from tests.tables import URBANISATION_TWO_SETUP as TWO_SETUP
from tests.tables import URBANISATION_TWO_TURN_1 as TWO_TURN_1

PLAYERS = ("Ann", "Ben", "Cy")


def pdf_text(data):
    assert data.startswith(b"%PDF")
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)


def set_up(client, *names, inventions="yes", money=10, grounds=(2, 2, 1)):
    url = new_table(client, *names, game="urbanisation")
    assert "Set up the game" in text(client.get(url))
    data = {"inventions": inventions, "start_player": names[0], "money": money}
    data |= {f"grounds_{i}": str(g) for i, g in enumerate(grounds[:len(names)])}
    assert act(client, url, "setup", **data).status_code == 303
    return url


@pytest.mark.parametrize("left_out", ["inventions", "start_player", "grounds_1"])
def test_a_setup_sent_without_one_of_its_choices_is_refused_not_read_as_its_default(
        client, left_out):
    """Found by a bad-input audit: a setup form with its choices taken out was recorded with
    the choices the form shows first (no inventions, the first player to start, 1 ground)."""
    url = new_table(client, *PLAYERS, game="urbanisation")
    data = {"inventions": "yes", "start_player": "Ben", "money": 10,
            "grounds_0": "2", "grounds_1": "2", "grounds_2": "1"}
    del data[left_out]
    refused = act(client, url, "setup", **data)
    assert refused.status_code == 400 and "This field is required." in text(refused)
    assert "Set up the game" in text(client.get(url))
    assert act(client, url, "setup", **data, **{left_out: "2" if "grounds" in left_out else
                                               "Ann" if left_out == "start_player" else "no"}
               ).status_code == 303


def test_land_bought_without_saying_how_many_grounds_is_refused(client):
    url = set_up(client, "Ann", "Ben")
    act(client, url, "character", player="Ann", character="architect")
    act(client, url, "character", player="Ben", character="any_colour")
    refused = act(client, url, "buy_land", player="Ann", price_markers=2)
    assert refused.status_code == 400
    assert "Building grounds: This field is required." in text(refused)


def form_data(kind, payload):
    """The form a player fills for one scripted action: (endpoint, fields)."""
    data = {"player": payload.get("player", "")}
    if payload.get("character") and kind != "character":
        data["play"] = "y"
    if kind == "character":
        data["character"] = payload["character"]
    elif kind == "buy_land":
        data |= {"price_markers": payload["price_markers"], "land_grounds": payload["grounds"]}
    elif kind == "erect":
        data |= {"building": payload["building"], "erect_count": payload.get("count", 1)}
    elif kind == "trade_grain":
        trade = "buy" if payload.get("buy") else "sell" if payload.get("sell") else "mill"
        data |= {"trade": trade, "grain_amount": payload.get(trade, 0)}
    elif kind == "sow":
        data |= {"seeds": payload.get("grain", 0), "farmer_seeds": payload.get("farmer", 0)}
        data.pop("play", None)
    elif kind == "work_orders":
        data |= {"colour": payload["colour"], "orders_count": payload["count"],
                 "extra_colour": payload.get("extra_colour", "")}
        if payload.get("last"):
            data["last_space"] = "y"
    elif kind == "attract":
        data |= {"factory_number": payload["number"], "factory_colour": payload["colour"],
                 "goods": payload["goods"], "factory_name": payload.get("name", ""),
                 "upgrade": payload.get("upgrade") or ""}
        if payload.get("filled", True):
            data["filled"] = "y"
    elif kind == "produce":
        data["factory"] = payload["factory"]
        if payload.get("character"):
            data |= {f"produce_{c}": n for c, n in payload["orders"].items()}
        else:
            [(colour, goods)] = payload["orders"].items()
            data |= {"factory_colour": colour, "goods": goods}
    elif kind == "invention":
        data |= {"start": payload.get("start") or "new", "to": payload["to"]}
        for k, card in enumerate(payload["cards"], start=1):
            data |= {f"ability_{k}": card.get("ability") or "",
                     f"bonus_factory_{k}": card.get("factory") or ""}
    elif kind == "effect":
        data = {"effect_player": payload["player"], "money": payload.get("money", 0),
                "reason": payload.get("reason", "")}
    elif kind == "administration":
        data = {}
    return kind, data


def perform(client, url, kind, payload):
    endpoint, data = form_data(kind, payload)
    response = act(client, url, endpoint, **data)
    assert response.status_code == 303, (kind, payload, text(response)[:2000])


def test_a_short_game_through_set_up_actions_a_refusal_and_the_administration(client):
    url = set_up(client, *PLAYERS)
    page = text(client.get(url))
    assert "Set up for 3 players, with Inventions; Ann starts." in page
    assert "Turn 1: " in page and "Ann hires a character" in page
    assert "Ann is the start player, chosen at set-up." in page
    assert page.count('name="character" value=') == 9  # with the Professor
    for kind, payload in TURN_1[:7]:  # characters; phase 1; Ann's house
        perform(client, url, kind, payload)
    page = text(client.get(url))
    assert "Ann erected 1 house for $2: +1 VP." in page
    assert "Turn 1, action 2 of 4: " in page
    assert 'id="act-sow"' in page and "Farmer</span>" in page  # Ben holds the Farmer
    assert "<strong>If the game ended now:</strong> 1. Ann (2), 2. Ben (1), 2. Cy (1)" in page

    # Ben sows 3 grain with room for 1: refused, said, nothing recorded, the form kept open.
    seq = current_seq(client, url)
    history = text(client.get(url + "history"))
    refused = act(client, url, "sow", player="Ben", seeds=3)
    assert refused.status_code == 422
    page = text(refused)
    assert "Each empty building ground holds 1 grain: Ben has room for 1." in page
    assert re.search(r'id="act-sow"\s+open', page)
    assert current_seq(client, url) == seq
    assert text(client.get(url + "history")) == history
    # Another player's form on a stale screen is refused too.
    wrong = act(client, url, "pass", player="Cy")
    assert wrong.status_code == 422 and "It is Ben&#39;s turn, not Cy&#39;s." in text(wrong)

    for kind, payload in TURN_1[7:-1]:
        perform(client, url, kind, payload)
    page = text(client.get(url))
    assert "Turn 1: the administration" in page
    assert act(client, url, "administration").status_code == 303
    page = text(client.get(url))
    assert "Turn 1 administered; Cy is the Mayor of turn 2." in page
    assert "Administration of turn 1" in page
    assert "Harvest: 3 sown back, 3 more: 7 grain." in page
    assert "Feeding: 1 grain eaten, 6 left: 1 VP per 3, +2 VP." in page
    assert "Cy is the Mayor: the fewest VP after turn 1 (3, before the Mayor&#39;s +1)." in page
    assert "Cy hires a character" in page

    sheet = pdf_text(client.get(url + "sheet.pdf").data)
    assert "Game in progress (turn 2)" in sheet and "Ann Ben Cy" in sheet
    assert "Total 7 5 4" in sheet and "Turn 1 6 4 2" in sheet
    for players in (2, 3, 4):
        pad = client.get(f"/pad/urbanisation.pdf?players={players}")
        assert pad.status_code == 200
        assert "Largest factory total" in pdf_text(pad.data)
    for players in (1, 5, 99, -1, 0, "abc", "2.5", ""):  # bad-input audits: not the most either
        refused = client.get(f"/pad/urbanisation.pdf?players={players}")
        assert refused.status_code == 404
        assert "A score pad of Urbanisation is for 2 to 4 players." in text(refused)


def test_a_sheet_before_the_set_up_says_the_game_is_in_progress(client):
    url = new_table(client, "Ann", "Ben", game="urbanisation")
    sheet = pdf_text(client.get(url + "sheet.pdf").data)
    assert "Game in progress." in sheet and "Total 0 0" in sheet
    assert "Nothing has happened yet." in text(client.get(url + "history"))


def test_every_character_s_power_is_there_in_full_while_characters_are_hired(client):
    """Found at a table: a character's button cuts its power to two lines (the turn fits one
    screen), so "Exchange all the price markers in any 2 territories, ..." could not be read
    in full; the fold-out under the buttons says each, in the page's language."""
    url = set_up(client, "Ann", "Ben")
    page = text(client.get(url))
    powers = page.split("What each character does", 1)[1].split("</details>", 1)[0]
    assert powers.count("<dt>") == 9  # with Inventions: the Professor too
    assert ("<dt>Land swap</dt><dd>Buy land: Exchange all the price markers in any 2 "
            "territories, then immediately purchase 1 of these territories.</dd>") in powers
    german = text(client.get(url, headers=GERMAN))
    assert "Was jeder Charakter kann" in german
    act(client, url, "character", player="Ann", character="architect")
    act(client, url, "character", player="Ben", character="farmer")
    assert "What each character does" not in text(client.get(url))  # the actions follow


def test_undo_brings_back_the_screen_before(client):
    url = set_up(client, "Ann", "Ben")
    act(client, url, "character", player="Ann", character="architect")
    assert "Ann took the Architect card." in text(client.get(url))
    assert act(client, url, "undo").status_code == 303
    page = text(client.get(url))
    assert "Set up for 2 players, with Inventions; Ann starts." in page
    assert "Ann hires a character" in page


def test_the_mayor_is_explained_when_players_tie(client):
    url = set_up(client, *PLAYERS)
    for p, key in zip(PLAYERS, ("farmer", "architect", "mill_worker"), strict=True):
        act(client, url, "character", player=p, character=key)
    for _ in range(4):
        for p in PLAYERS:
            act(client, url, "pass", player=p)
    assert act(client, url, "administration").status_code == 303
    assert ("Ben is the Mayor: tied with Ann and Cy on 1 VP and $10, the first clockwise after "
            "Ann, the former start player.") in text(client.get(url))
    # Undo the administration; Cy pays $5 (a correction, which must say what for): now he has
    # the least money.
    act(client, url, "undo")
    seq = current_seq(client, url)
    refused = act(client, url, "effect", effect_player="Cy", money=-5, reason="")
    assert refused.status_code == 400 and current_seq(client, url) == seq
    assert ("What for: write a few words (the history shows them with the amounts)."
            in text(refused))
    nothing = act(client, url, "effect", effect_player="Cy", money="", reason="Paid the bank")
    assert nothing.status_code == 422 and current_seq(client, url) == seq
    assert "Enter the gain or loss: every amount is 0, so nothing would change." in text(nothing)
    assert act(client, url, "effect", effect_player="Cy", money=-5,
               reason="Paid the bank").status_code == 303
    act(client, url, "administration")
    assert ("Cy is the Mayor: tied with Ann and Ben on 1 VP, the least money ($5).") in text(
        client.get(url))
    # Cy gains $5 instead: Ann and Ben tie on the least money, Cy not (found by a rules audit:
    # "tied with Ann and Cy on 1 VP and $10" said Cy had $10).
    act(client, url, "undo")
    act(client, url, "undo")
    assert act(client, url, "effect", effect_player="Cy", money=5,
               reason="Found in the box").status_code == 303
    act(client, url, "administration")
    assert ("Ben is the Mayor: tied with Ann and Cy on 1 VP, with Ann also on the least money "
            "($10), and the first clockwise after Ann, the former start player.") in text(
        client.get(url))


def test_the_scripted_game_through_the_forms_to_the_score_sheet(client):
    url = set_up(client, *PLAYERS, inventions="yes" if SETUP[1]["inventions"] else "no",
                 money=SETUP[1]["money"], grounds=[SETUP[1]["grounds"][p] for p in PLAYERS])
    for kind, payload in URBANISATION_PLAYED[1:]:  # after the set-up
        perform(client, url, kind, payload)
    assert "Turn 6 is over: the final scoring" in text(client.get(url))
    assert act(client, url, "final").status_code == 303
    page = text(client.get(url))
    assert "Final scoring done: Cy wins." in page and "Final result" in page
    assert '<p class="verdict"><strong>Cy wins with 35 VP.</strong></p>' in page
    assert "Invention with the Oil Refinery: +2 VP." in page
    assert 'id="act-' not in page and 'id="effect"' not in page  # nothing more to do
    sheet = pdf_text(client.get(url + "sheet.pdf").data)
    assert "Ranking: 1. Cy (35), 2. Ann (34), 3. Ben (32). Winner: Cy." in sheet
    assert sheet.count("Total 34 32 35") == 2
    assert "Highest factory total 2 0 0" in sheet and "Inventions with their factory 0 0 2" in sheet
    assert "Factories (the newest breaks a tie): Ann 8; Ben 4; Cy 3, 5." in sheet
    assert "tied for the most points" not in sheet  # nobody did
    refused = act(client, url, "pass", player="Ann")
    assert refused.status_code == 422 and "The game is over" in text(refused)


ENDPOINTS = ["setup", "character", "pass", "buy_land", "erect", "trade_grain", "sow",
             "work_orders", "attract", "produce", "taxes", "invention", "effect",
             "administration", "final", "undo", "redo", "offer"]
FIELDS = ["player", "play", "character", "price_markers", "land_grounds", "building",
          "erect_count", "trade", "grain_amount", "seeds", "farmer_seeds", "colour",
          "orders_count", "last_space", "extra_colour", "factory_number", "factory_colour",
          "goods", "factory_name", "upgrade", "filled", "factory", "produce_white", "start",
          "to", "ability_1", "bonus_factory_1", "bonus_vp_1", "effect_player", "money", "vp",
          "grain", "effect_grey", "reason", "display_1", "exchange", "inventions",
          "start_player", "grounds_0", "grounds_1", "pool_house", "offer"]
VALUES = st.one_of(
    st.text(max_size=30),
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.sampled_from(["", "0", "1", "2", "-1", "y", "yes", "Ann", "Ben", "house", "buy", "mill",
                     "white", "orange", "farmer", "architect", "grey_vp", "²", "٣", "9" * 5000,
                     "\u0000", "null", "erect.house", "taxes", "work_orders.white.2",
                     "trade_grain.buy.2", "sow.1", "produce.3"]),
)


@pytest.fixture
def started(client):
    url = set_up(client, "Ann", "Ben")
    act(client, url, "character", player="Ann", character="architect")
    act(client, url, "character", player="Ben", character="any_colour")
    return url


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_form_makes_a_500(client, started, data):
    endpoint = data.draw(st.sampled_from(ENDPOINTS))
    form = data.draw(st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=8))
    seq, key = screen(client, started)
    form.setdefault("seq", str(seq))
    form.setdefault("key", key)
    history = text(client.get(started + "history"))
    response = client.post(started + endpoint, data=form)
    assert response.status_code in (303, 400, 409, 422), (endpoint, form)
    if response.status_code != 303:
        assert text(client.get(started + "history")) == history


def test_the_table_page_speaks_german(client):
    url = set_up(client, *PLAYERS)
    page = text(client.get(url, headers=GERMAN))
    assert "Aufbau für 3 Personen, mit Erfindungen; Ann beginnt." in page
    assert "Runde 1: " in page and "Ann wählt einen Charakter" in page
    assert "Ann ist Startperson, beim Aufbau gewählt." in page
    assert "Architekt" in page and "Steuereintreiber" in page and "Tableaus" in page
    assert f"Regelungen ({len(RULINGS_BY_STEP['turn'])})" in page  # folded: drawn when opened
    rulings = text(client.get(url + "?open=rulings", headers=GERMAN))
    assert "Regelung: Jeder Charakter kommt zu Beginn jeder Runde zurück" in rulings
    assert "Regelung: Die Mitspielenden stehen in Sitzreihenfolge" not in rulings  # set-up's
    for english in ("Set up for 3 players", "hires a character", "Ruling:", "Tracking cards",
                    "Tax Collector", "Mill Worker", "start player"):
        assert english not in page, english
    for kind, payload in TURN_1[:7]:
        perform(client, url, kind, payload)
    page = text(client.get(url + "?open=sow", headers=GERMAN))  # the sowing tile open
    assert "Ann baut 1 Haus für 2 $: +1 SP." in page
    assert "Runde 1, Aktion 2 von 4:" in page
    assert "Getreide handeln" in page and "Getreide auf leere Bauplätze" in page
    assert "Ann erected" not in page and "Trade grain" not in page


def test_a_refusal_is_said_in_german(client):
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:7]:
        perform(client, url, kind, payload)
    refused = client.post(url + "sow", headers=GERMAN,
                          data={**fresh(client, url), "player": "Ben", "seeds": 3})
    assert refused.status_code == 422
    page = text(refused)
    assert "Jeder leere Bauplatz fasst 1 Getreide: Ben hat Platz für 1." in page
    assert "Each empty building ground" not in page


def test_the_score_sheet_and_the_pad_speak_german(client):
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1:  # up to the administration of turn 1
        perform(client, url, kind, payload)
    sheet = pdf_text(client.get(url + "sheet.pdf", headers=GERMAN).data)
    assert "Spiel läuft noch (Runde 2)" in sheet and "Verwaltung von Runde 1" in sheet
    assert "Summe 7 5 4" in sheet and "Runde 1 6 4 2" in sheet
    assert "Ernte: 3 Gesätes zurück, 3 dazu: 7 Getreide." in sheet
    assert "Runde 2: Cy erhält den Bürgermeister (+1 SP) und beginnt." in sheet
    for english in ("Game in progress", "Total", "Harvest", "Administration of", "Ruling"):
        assert english not in sheet, english
    pad = pdf_text(client.get("/pad/urbanisation.pdf?players=4", headers=GERMAN).data)
    assert "Wertungsblock" in pad and "Größte Fabriksumme (+2 SP)" in pad
    assert "Bürgermeister" in pad and "Andere Effekte und Korrekturen" in pad
    for english in ("score pad", "Largest factory total", "Turn 1", "Total", "Mayor"):
        assert english not in pad, english


@pytest.mark.parametrize(("done", "step"), [(0, "setup"), (1, "turn"), (18, "administration"),
                                            (-1, "final"), (None, "final")])
def test_each_step_folds_its_own_rulings(app, client, done, step):
    """The set-up, a turn, the administration, the final scoring and the result each fold the
    rulings of their step behind one "Rulings (n)"; only the pools' (in the set-up's folded
    pool counts), the starting money's (beside the amount it fills in, issue 26) and the
    tie's (under the final ranking, when totals tie: not in this game) are said in place."""
    names, actions = FINISHED["urbanisation"]
    table_id = seed(app, "urbanisation", names, actions[:done])
    url = f"/urbanisation/{table_id}/"
    page = text(client.get(url))
    assert f"Rulings ({len(RULINGS_BY_STEP[step])})" in page
    assert page.count("Ruling:") == (2 if step == "setup" else 0)
    opened = text(client.get(url + "?open=rulings"))
    assert opened.count("Ruling:") == page.count("Ruling:") + len(RULINGS_BY_STEP[step])


def test_a_tie_for_the_most_points_is_ruled_under_the_final_ranking(app, client):
    """Cy 35, Ann 34, Ben 32 at the end of the scripted game; with 1 VP more for Ann (a
    correction before the final scoring) Ann and Cy tie on 35, and Ann's factory 8, newer than
    Cy's 5, wins: the ranking says so, and the tie's ruling stands under it."""
    names, actions = FINISHED["urbanisation"]
    assert actions[-1][0] == "final"
    more = ("effect", {"player": "Ann", "vp": 1, "reason": "A VP missed in turn 6"})
    url = f"/urbanisation/{seed(app, 'urbanisation', names, (*actions[:-1], more, actions[-1]))}/"
    page = " ".join(re.sub(r"<[^>]+>", " ", text(client.get(url))).split())  # as read
    assert "Ann and Cy tie on 35 VP; Ann wins with the newest factory, 8 to 5." in page
    assert ("Ann und Cy haben gleich viele SP (35); Ann gewinnt mit der neuesten Fabrik, 8 gegen "
            "5.") in text(client.get(url, headers=GERMAN))
    assert "1. Ann 35 (newest factory 8: wins the tie on 35)" in page
    assert "2. Cy 35 (newest factory 5)" in page
    assert re.search(r"3\. Ben 32(?! \()", page)  # in no tie: nothing beside his total
    assert page.count("Ruling:") == 1 and "Ruling: tied for the most points" in page
    # Without the tie, no newest factory is said: beside every player it read as a tie broken
    untied = f"/urbanisation/{seed(app, 'urbanisation', names, actions)}/"
    ranking = text(client.get(untied)).split('<ol class="ranking">')[1].split("</ol>")[0]
    assert "newest factory" not in ranking and "no factory" not in ranking
    sheet = " ".join(pdf_text(client.get(url + "sheet.pdf").data).split())
    assert ("Ranking: 1. Ann (35), 2. Cy (35), 3. Ben (32). Winner: Ann. Ann and Cy tie on 35 VP; "
            "Ann wins with the newest factory, 8 to 5.") in sheet, sheet
    assert "Ruling: tied for the most points" in sheet
    untied_sheet = " ".join(pdf_text(client.get(untied + "sheet.pdf").data).split())
    assert "Winner:" in untied_sheet and " tie on " not in untied_sheet


# One-tap actions ---------------------------------------------------------------------------------


def offered(client, url):
    """The keys of the one-tap actions on the page, in order."""
    return re.findall(r'name="offer" value="([^"]+)"', text(client.get(url)))


def test_a_one_tap_action_records_the_payload_the_rules_offered(client):
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:3]:
        perform(client, url, kind, payload)
    keys = offered(client, url)
    assert keys[:3] == ["erect.house", "erect.skyscraper", "erect.administrative"]
    assert "trade_grain.mill" in keys and "trade_grain.buy.5" in keys  # Ann holds the Mill Worker
    assert "trade_grain.buy.6" not in keys  # one from each barn and the 3 of the field
    assert not [k for k in keys if k.startswith(("taxes", "produce", "sow"))]  # none of those
    response = act(client, url, "offer", player="Ann", offer="trade_grain.buy.3")
    assert response.status_code == 303
    page = text(client.get(url))
    assert "Ann took 2 grain free and bought 3 grain for $4." in page


def test_a_stale_offer_is_told_what_changed_on_the_other_phone(client):
    """Issue 45, found at a table: phone 2 recorded Ann's purchase; phone 1's outdated tap on
    the same offer was told "That action is not open to Ann now" (an offer its screen showed).
    It is told what changed on the other phone, and gets the page as it stands (409)."""
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:3]:
        perform(client, url, kind, payload)
    screen_of_phone_1 = fresh(client, url)
    assert act(client, url, "offer", player="Ann", offer="trade_grain.buy.3").status_code == 303
    stale = client.post(url + "offer", data={**screen_of_phone_1, "player": "Ann",
                                             "offer": "trade_grain.buy.3"},
                        headers={"X-Companion": "fetch"})
    assert stale.status_code == 409
    assert stale.json["refused"] == ("The table changed since this screen was loaded (Ann bought "
                                     "3 grain (playing the Mill Worker card)), so this tap was not "
                                     "recorded. The page now shows the table as it is.")
    assert "not open to Ann" not in stale.json["refused"] and "page" in stale.json


def test_the_any_colour_production_is_one_tap(client):
    """Found at a table: the Any colour character was only in the detailed form. Cy's grey
    factory 5 in turn 2's phase 4: its 2 goods from his 1 grey and 1 white work order."""
    url = set_up(client, *PLAYERS)
    for kind, payload in [*TURN_1, *TURN_2[:12]]:
        perform(client, url, kind, payload)
    assert offered(client, url)[:2] == ["produce.5", "produce.5.any_colour"]
    assert "Factory 5 with the Any colour: 1 grey + 1 white" in text(client.get(url))
    response = act(client, url, "offer", player="Cy", offer="produce.5.any_colour")
    assert response.status_code == 303
    page = text(client.get(url))
    assert "Cy produced 2 goods at factory 5" in page and "$5, +2 VP" in page, page


def test_work_orders_from_the_last_space_doubled_in_one_tap(client):
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:5]:
        perform(client, url, kind, payload)
    response = act(client, url, "offer", player="Cy", offer="work_orders.orange.2", play="y",
                   last_space="y")
    assert response.status_code == 303
    assert "Cy received work orders: 4 orange and $1 for the last space." in text(client.get(url))


@pytest.mark.parametrize(("player", "key"), [
    ("Ann", "erect.house.architect"),  # not a key the rules offer
    ("Ann", "taxes"),  # no citizen yet: $0 is not offered
    ("Ben", "erect.house"),  # not Ben's turn
    ("Ann", "pass"),
    ("Ann", ""),
])
def test_an_action_not_offered_is_refused_and_nothing_is_recorded(client, player, key):
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:3]:
        perform(client, url, kind, payload)
    history = text(client.get(url + "history"))
    response = act(client, url, "offer", player=player, offer=key)
    assert response.status_code in (400, 422)
    if player == "Ben":  # said as every action out of turn (it said "not open to Ben")
        assert "It is Ann&#39;s turn, not Ben&#39;s." in text(response)
    elif key:
        assert f"That action is not open to {player} now: choose again." in text(response)
    assert text(client.get(url + "history")) == history


def test_the_one_tap_actions_speak_german(client):
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:3]:
        perform(client, url, kind, payload)
    page = text(client.get(url, headers=GERMAN))
    assert "Nur das freie Getreide" in page and "3 kaufen" in page and "−4 $" in page
    assert "+5 Getreide" in page and "Haus" in page and "+1 SP" in page
    assert "Buy 3" not in page and "grain</span>" not in page


# Which factory it is -----------------------------------------------------------------------------


def options(page, name, within=None):
    """A select's options as (value, words), in the order shown (in the element of id
    `within`, if given)."""
    page = page[page.index(f'id="{within}"'):] if within else page
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select, name
    return re.findall(r'<option[^>]*value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))


def test_without_the_inventions_nothing_asks_or_speaks_of_them(client):
    """A game without the inventions: the attract form does not ask which factory a card is
    (only an invention's end bonus needs it), and no line speaks of inventions."""
    url = set_up(client, *PLAYERS, inventions="no")
    for kind, payload in TURN_1[:-2]:  # up to Cy's factory in phase 4
        perform(client, url, kind, payload)
    page = text(client.get(url + "?open=attract"))
    assert 'name="factory_name"' not in page and "invention" not in page.lower()
    assert "Other amounts, land and factories:" in page
    ruled = text(client.get(url + "?open=rulings"))  # the turn's: 16 with them, 11 without
    assert "Rulings (11)" in ruled and ruled.count("Ruling:") == 11
    assert "invention" not in ruled.lower() and "Professor" not in ruled
    assert "money follows the work orders' colour" in ruled.replace("&#39;", "'")
    perform(client, url, *TURN_1[-2])  # Cy's factory: the administration comes
    administration = text(client.get(url + "?open=rulings"))
    assert "Ruling: production markers return to the board before the orange-for-grey" in \
        administration.replace("&#39;", "'")
    assert "Rulings (5)" in administration and "invention" not in administration.lower()
    perform(client, url, *TURN_1[-1])
    sources = text(client.get(url + "?open=vp"))
    assert "VP by source" in sources and "Citizens" in sources
    assert "invention" not in sources.lower(), "a row of the Inventions' VP, all 0"
    sheet = pdf_text(client.get(url + "sheet.pdf").data)
    assert "Citizens" in sheet and "invention" not in sheet.lower()
    assert "with the final scoring's factory bonus" in page


@pytest.mark.parametrize("play, filled, character", [("", True, None),
                                                       ("y", False, "any_factory")])
def test_the_card_form_with_the_any_factory_card_held(app, client, play, filled, character):
    """Found by a rules audit: holding the Any factory card, the card form asks only whether
    Ann plays it, and unticked it was refused as "not all its work order spaces filled".
    Not played, the card was filled; played, it need not be."""
    url = set_up(client, "Ann", "Ben")
    act(client, url, "character", player="Ann", character="any_factory")
    act(client, url, "character", player="Ben", character="architect")
    form = text(client.get(url + "?open=attract-card"))
    assert "Play the Any factory card" in form and 'name="filled"' not in form
    fields = {"player": "Ann", "factory_number": "3", "production": "orange.2",
              **({"play": play} if play else {})}
    assert act(client, url, "attract/card", **fields).status_code == 303
    table_id = url.strip("/").split("/")[-1]
    attract = storage.events(storage.connect(app.config["DATABASE"]), table_id)[-1]
    assert attract.kind == "attract" and attract.payload["filled"] is filled
    assert attract.payload.get("character") == character


def test_the_attract_form_offers_the_factories_the_invention_cards_name(client):
    """With the inventions a factory card is chosen, not typed: one of the thirteen factories
    the invention cards name, or another factory; an invention's end bonus likewise, its VP
    said with it."""
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:-2]:  # up to Cy's factory in phase 4
        perform(client, url, kind, payload)
    page = text(client.get(url + "?open=attract"))
    chosen = options(page, "factory_name", within="act-attract")
    assert chosen[0] == ("", "which factory?") and chosen[-1] == ("other", "another factory")
    assert [value for value, _ in chosen[1:-1]] == list(BONUS_FACTORIES)
    assert ("Law Firm", "Law Firm") in chosen and ("Oil Refinery", "Oil Refinery") in chosen
    assert "Which factory (for invention bonuses)" in page
    assert "Say which factory it is: an invention's end bonus may count with it." in page
    german = options(text(client.get(url + "?open=attract", headers=GERMAN)), "factory_name",
                     within="act-attract")
    assert ("", "welche Fabrik?") in german and ("other", "eine andere Fabrik") in german
    assert ("Oil Refinery", "Ölraffinerie") in german

    bonuses = options(text(client.get(url + "?open=invention")), "bonus_factory_1")
    assert bonuses[0] == ("", "no end bonus") and len(bonuses) == 1 + len(BONUS_FACTORIES)
    assert ("Law Firm", "2 VP with the Law Firm") in bonuses
    assert ("Electric Plant", "5 VP with the Electric Plant") in bonuses
    assert "bonus_vp_1" not in text(client.get(url + "?open=invention"))


@pytest.mark.parametrize("headers, said, not_said", [
    ({}, "Say which factory it is (one an invention card names, or another factory): an "
         "invention&#39;s end bonus may count with it.", "Sag, welche Fabrik"),
    (GERMAN, "Sag, welche Fabrik es ist (eine, die eine Erfindungskarte nennt, oder eine "
             "andere): Der Endbonus einer Erfindung kann mit ihr zählen.", "Say which factory"),
])
def test_a_factory_left_unsaid_is_refused_in_the_players_language(client, headers, said,
                                                                 not_said):
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:-2]:
        perform(client, url, kind, payload)
    seq, history = current_seq(client, url), text(client.get(url + "history"))
    _kind, data = form_data(*TURN_1[-2])
    refused = client.post(url + "attract", headers=headers,
                          data={**fresh(client, url), **data, "factory_name": ""})
    assert refused.status_code == 422
    page = text(refused)
    assert said in page and not_said not in page
    assert re.search(r'id="act-attract"\s+open', page)  # the form stays open to choose
    assert current_seq(client, url) == seq and text(client.get(url + "history")) == history
    perform(client, url, *TURN_1[-2])  # chosen: another factory
    assert "Cy attracted factory 3 (orange): +2 VP." in text(client.get(url))


def test_a_factory_is_shown_by_its_card_name_in_the_players_language(client):
    """Another factory goes by its number; the Oil Refinery by its name, in German too (the
    app's key for another factory is never shown)."""
    url = set_up(client, *PLAYERS)
    for kind, payload in [*TURN_1, *TURN_2[:3]]:  # Cy, the Mayor, is to produce
        perform(client, url, kind, payload)
    page = text(client.get(url + "?open=produce"))
    assert re.search(r"<strong>Factory 3</strong> · orange · up to 2 goods", page)
    assert ">other<" not in page and " other " not in page
    for kind, payload in TURN_2[3:]:  # the upgrade to factory 5, the Oil Refinery
        perform(client, url, kind, payload)
    page = text(client.get(url, headers=GERMAN))
    assert "<small>Öl\u00adraf\u00adfi\u00adne\u00adrie</small>" in page  # breaks at a syllable
    assert "Oil Refinery" not in page
    assert ">other<" not in page


def test_the_cards_seen_are_kept_for_this_phones_next_tables(app, client):
    """Issue 26: the factory and invention cards a table shows are kept by the phone showing
    it, for its next tables (another phone learns them when it shows the table); the session
    cookie stays small with all 18 factory cards kept."""
    from companion.views.urbanisation import MY_CARDS

    names, actions = FINISHED["urbanisation"]
    url = f"/urbanisation/{seed(app, 'urbanisation', names, actions)}/"
    assert client.get(url).status_code == 200
    with client.session_transaction() as session:
        kept = session[MY_CARDS]
        assert kept["factories"] and kept["inventions"]
        kept["factories"] |= {str(n): ["grey", 3, "other"] for n in range(1, 19)
                              if str(n) not in kept["factories"]}
        session[MY_CARDS] = kept
    assert client.get(url).status_code == 200
    assert len(client.get_cookie("session").value) < 2000
    other = app.test_client()
    assert other.get(url).status_code == 200
    with other.session_transaction() as session:
        assert MY_CARDS in session  # the table's own cards, learnt by whoever shows it


def test_a_factory_seen_before_is_typed_by_its_number_alone(app, client):
    """Issue 26: what the rules know is never asked: factory 3's colour, goods and name come
    from this phone's earlier table; a number new to the phone still asks for its colour."""
    names, actions = FINISHED["urbanisation"]
    assert client.get(f"/urbanisation/{seed(app, 'urbanisation', names, actions)}/")\
        .status_code == 200
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:-2]:
        perform(client, url, kind, payload)
    refused = act(client, url, "attract", player="Cy", factory_number=17, filled="y")
    assert refused.status_code == 422 and "Factory 17 is new to this phone" in text(refused)
    assert act(client, url, "attract", player="Cy", factory_number=3,
               filled="y").status_code == 303
    assert "Cy attracted factory 3 (orange): +2 VP." in text(client.get(url))


def test_a_hired_character_is_played_by_its_fold_out_too(app, client):
    """Issue 41: Cy hired the Professor; the invention's fold-out has "Play the Professor"
    ticked, as the one-tap buttons play a hired character by themselves; describing two cards
    with it unticked is refused saying that only the Professor takes them all."""
    actions = [SETUP, *TURN_1, *TURN_2, *TURN_3[:3]]
    url = f"/urbanisation/{seed(app, 'urbanisation', PLAYERS, actions)}/"
    page = text(client.get(url + "?open=invention"))
    box = re.search(r'<input type="checkbox" name="play" value="y" ?(checked)?>', page)
    assert box and box.group(1) == "checked"
    state = replay(GAMES["urbanisation"], PLAYERS,
                   [Event(n, kind, payload) for n, (kind, payload) in enumerate(actions, 1)]).state
    with pytest.raises(RuleError, match="One invention card is taken at docking space 2; all "
                                        "the cards there only with the Professor played.") as no:
        state.apply("invention", {"player": "Cy", "to": 2, "cards": [
            {"ability": "grey_money"}, {"ability": "harvest_grain1"}]})
    with app.test_request_context(headers=GERMAN):
        assert i18n.text(no.value.args[0]) == ("Vom Andockplatz 2 wird eine Erfindungskarte "
                                               "genommen; alle Karten dort nur mit "
                                               "ausgespieltem Professor.")


def test_without_javascript_a_fold_out_s_form_comes_back_at_its_fold_out(client):
    """Found at a table: after "Buy the territory" without JavaScript the page came back at its
    top, the form's "#at-buy_land" gone with its fold-out closed. The forms in a fold-out send
    its id, and the answer comes back there; a form outside any, at itself."""
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:3]:  # the characters: Ann acts first
        perform(client, url, kind, payload)
    page = text(client.get(url + "?open=buy_land"))
    opened = page.split('id="act-buy_land"')[1].split("</details>")[0]
    assert '<input type="hidden" name="fold" value="act-buy_land">' in opened
    assert page.count('name="fold"') == opened.count('name="fold"')  # only its forms send it
    land = act(client, url, "buy_land", player="Ann", price_markers=1, land_grounds=1,
               at="at-buy_land", fold="act-buy_land")
    assert land.status_code == 303 and land.headers["Location"] == url + "#act-buy_land"
    assert 'id="act-buy_land"' in text(client.get(url))  # the next player's, closed
    forged = act(client, url, "pass", player="Ben", at="at-pass", fold='x"><script>')
    assert forged.headers["Location"] == url + "#at-pass"


def test_without_javascript_the_last_administration_lands_on_the_final_scoring(app, client):
    """Found at a table without JavaScript: after turn 6's administration the address named
    its form, gone with it, and the page stood at its top, "Do the final scoring" below the
    fold. The final scoring's card is what that answer brings into view, and its page lands
    there."""
    names, actions = FINISHED["urbanisation"]
    assert [kind for kind, _ in actions[-2:]] == ["administration", "final"]
    url = f"/urbanisation/{seed(app, 'urbanisation', names, actions[:-2])}/"
    answer = act(client, url, "administration", at="at-administration")
    assert answer.headers["Location"] == url + "#at-administration"
    page = text(client.get(url))
    assert re.search(r'<span class="landing" id="at-administration"></span><section class="card '
                     r'next u-turn" id="turn" data-into-view="answer">\s*<h2>Turn 6 is over',
                     page), page


def test_a_price_the_player_cannot_pay_is_said_beside_the_number_typed(client):
    """Found at a table: "Cy has only $11, not $20." for 20 price markers typed was said in the
    score strip, the box unmarked. The rules name the payload key their cost comes from: said
    beside the form's field for it (land's price markers, a trade's grain)."""
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:3]:  # the characters: Ann acts first
        perform(client, url, kind, payload)
    land = client.post(url + "buy_land", headers={"X-Companion": "fetch"}, data={
        **fresh(client, url), "player": "Ann", "price_markers": 20,
        "land_grounds": 1})
    assert land.status_code == 422
    assert land.get_json() == {"refused": "Ann has only $10, not $20.",  # beside the field
                               "field": "price_markers"}
    trade = client.post(url + "trade_grain", headers={"X-Companion": "fetch"}, data={
        **fresh(client, url), "player": "Ann", "trade": "buy",
        "grain_amount": 7})
    assert trade.status_code == 422 and trade.get_json()["field"] == "grain_amount"


def test_sowing_with_no_empty_ground_offers_no_seed_there_and_says_the_farmer_s(client):
    """A hand-played game: with no empty building ground left, the sowing tile still offered 1
    seed on the grounds, so sowing on the Farmer card alone was refused until that was cleared
    by hand, and the history said "sowed 0 grain". Now it offers 0 there, and says both."""
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:7]:
        perform(client, url, kind, payload)
    assert 'name="seeds" type="number" value="1"' in text(client.get(url + "?open=sow"))
    assert act(client, url, "sow", player="Ben", seeds=1).status_code == 303  # his one ground
    assert act(client, url, "pass", player="Cy").status_code == 303
    assert act(client, url, "pass", player="Ann").status_code == 303
    page = text(client.get(url + "?open=sow"))  # Ben again, room for 0, the Farmer in hand
    assert "Ben has 3 grain and room for 0 seeds" in page
    assert 'name="seeds" type="number" value="0"' in page
    assert act(client, url, "sow", player="Ben", seeds=0, farmer_seeds=1).status_code == 303
    assert "Ben sowed 1 grain on the Farmer" in text(client.get(url + "history"))


def test_the_exchange_is_offered_only_where_it_can_be_done(client):
    """Found at a table: Ben, holding the invention to exchange 2 orange for 2 grey work orders
    but no orange one, was offered the exchange; ticked, the whole administration was
    refused. The page says why it is not offered."""
    url = set_up(client, "Ann", "Ben")
    act(client, url, "character", player="Ann", character="architect")
    act(client, url, "character", player="Ben", character="any_colour")
    assert act(client, url, "invention", player="Ann", start=0, to=1,
               ability_1="orange_to_grey").status_code == 303
    while "the administration" not in text(client.get(url)):
        assert act(client, url, "pass", player=re.search(
            r"(\w+) passes", text(client.get(url)))[1]).status_code == 303
    page = text(client.get(url))
    assert 'name="exchange"' not in page
    assert ("Ann cannot exchange work orders this turn: it needs 2 orange work orders on the "
            "card and 2 grey ones on the board.") in page
    assert act(client, url, "administration").status_code == 303


def test_an_invention_s_marker_left_to_the_app_is_the_cheapest(client):
    """Found at a table: Ann, her marker on docking space 1, took an invention at space 2 with
    the whole form, its marker left as it came (a new one): $1, where moving her marker one
    space is free. Unless the players choose, the cheapest moves (ruling "invention_marker"),
    as the card's own form already took it."""
    url = set_up(client, "Ann", "Ben")
    act(client, url, "character", player="Ann", character="architect")
    act(client, url, "character", player="Ben", character="any_colour")
    assert act(client, url, "invention", player="Ann", start="new", to=1,
               ability_1="orange_to_grey").status_code == 303
    assert act(client, url, "pass", player="Ben").status_code == 303
    form = text(client.get(url + "?open=invention")).split(f'action="{url}invention#')[1]
    assert re.search(r'<option value="">The cheapest for the space</option>', form)
    # each space's button says what the move costs with the cheapest marker: Ann's on space
    # 1 moves to 2 free, to 4 for $2 (found at a table: a space's $3 learnt once taken)
    prices = re.findall(r'<button class="u-chip" name="to" value="(\d)" *>Space \d <small>'
                        r'<span>([^<]*)</span>', form)
    assert prices[:4] == [("1", "free"), ("2", "free"), ("3", "$1"), ("4", "$2")], prices
    german = text(client.get(url + "?open=invention", headers=GERMAN))
    assert "Platz 4 <small><span>2 $</span>" in german
    assert "Platz 2 <small><span>gratis</span>" in german
    assert act(client, url, "invention", player="Ann", start="", to=2,
               ability_1="white_money").status_code == 303
    history = text(client.get(url + "history"))
    assert "Ann moved to docking space 2 free" in history
    first = int(re.search(r'#(\d+)</span>\s*Ann moved to docking space 1', history).group(1))
    changing = text(client.get(url + f"?change={first}&open=invention"))
    assert '<option value="new" selected>' in changing  # a new marker, as recorded


def test_the_administration_records_the_mayor_it_hands_over(app, client):
    """The Mayor goes with the administration's record (ruling "mayor_kept"): a change of an
    earlier action later leaves him with the player who received him at the table."""
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1:  # up to the administration of turn 1, done with its form
        perform(client, url, kind, payload)
    page = text(client.get(url))
    mayor = re.search(r"Turn 1 administered; (\w+) is the Mayor of turn 2", page).group(1)
    db = storage.connect(app.config["DATABASE"])
    try:
        events = storage.events(db, url.strip("/").split("/")[1])
    finally:
        db.close()
    administration = [e for e in events if e.kind == "administration"][-1]
    assert dict(administration.payload) == {"exchange": [], "turn": 1, "mayor": mayor}


def three_turns(app, client):
    """The example game's first three turns, played with the forms: the table and its log."""
    url = set_up(client, *PLAYERS)
    for kind, payload in [*TURN_1, *TURN_2, *TURN_3]:
        perform(client, url, kind, payload)
    db = storage.connect(app.config["DATABASE"])
    try:
        return url, storage.events(db, url.strip("/").split("/")[1])
    finally:
        db.close()


def test_an_administration_entered_again_keeps_the_mayor_it_recorded(app, client):
    """Ben's house of turn 2 taken out: Cy keeps the Mayor he received at the table (ruling
    "mayor_kept"). Entering that administration again as it was then changes nothing; it used
    to hand the Mayor to the rules' choice (Ben) and take out all of turn 3."""
    url, events = three_turns(app, client)
    house = next(e.seq for e in events if e.kind == "erect"
                 and e.payload.get("player") == "Ben" and e.payload.get("turn") == 2)
    admin = next(e for e in events if e.kind == "administration" and e.payload["turn"] == 2)
    assert admin.payload["mayor"] == "Cy"
    preview = text(client.post(url + f"change/out?change={house}",
                               data=fresh(client, url + f"?change={house}")))
    assert client.post(url + "change", data={**confirm_fields(preview), "reason": "no house"}
                       ).status_code == 303
    assert "at the table and keeps him" in text(client.get(url + "history"))
    fields = fresh(client, url + f"?change={admin.seq}")
    preview = text(client.post(url + f"administration?change={admin.seq}", data=fields))
    assert "Nothing changes" in preview and "no longer take" not in preview


def test_a_mayor_kept_after_a_change_is_explained_as_kept(app, client):
    """Ben bought 3 grain in turn 1, not 4: after turn 2 he ties Cy on 10 VP with less money,
    so the rules would now give him the Mayor of turn 3; Cy received him at the table and keeps
    him (ruling "mayor_kept"). The turn card says so; it used to explain Cy's Mayor with Ben's
    tie-break ("tied with Ben on 10 VP and $5, the first clockwise after Cy")."""
    url = set_up(client, *PLAYERS)
    for kind, payload in [*TURN_1, *TURN_2]:
        perform(client, url, kind, payload)
    assert "Cy is the Mayor: the fewest VP after turn 2 (10, before the Mayor&#39;s +1)." in (
        text(client.get(url)))
    db = storage.connect(app.config["DATABASE"])
    try:
        events = storage.events(db, url.strip("/").split("/")[1])
    finally:
        db.close()
    grain = next(e.seq for e in events if e.kind == "trade_grain"
                 and e.payload.get("player") == "Ben" and e.payload.get("turn") == 1)
    fields = fresh(client, url + f"?change={grain}") | {
        "player": "Ben", "trade": "buy", "grain_amount": 3}
    preview = text(client.post(url + f"trade_grain?change={grain}", data=fields))
    assert client.post(url + "change", data={**confirm_fields(preview), "reason": ""}
                       ).status_code == 303
    page = text(client.get(url))
    assert ("Cy received the Mayor at the table and keeps him, though the rules would now give "
            "him to Ben (ruling).") in page
    assert "tied with" not in page


def test_a_change_s_preview_says_what_it_does_with_the_money_too(client):
    """Found playing: a change that moves only money (Ben's 4 grain bought, made 3) showed every
    total as it was and the action's words only ("Ben bought 4 grain → Ben bought 3 grain"),
    as if it changed nothing. The preview says the action as the rules account for it, the
    money with it."""
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:5]:  # #6: Ben buys 4 grain
        perform(client, url, kind, payload)
    preview = client.post(url + "trade_grain?change=6", data={
        **fresh(client, url + "?change=6"), "player": "Ben", "trade": "buy", "grain_amount": 3})
    assert preview.status_code == 200
    title = re.search(r'<h1 id="change-title">(.*?)</h1>', text(preview), re.S).group(1)
    assert title == "Change: Ben bought 4 grain for $6. → Ben bought 3 grain for $4."
    # and each player's money and grain beside the totals: Ben's $2 more and 1 grain less,
    # his row marked as moved
    rows = re.findall(r'<tr class="(\w*)"><th scope="row">(\w+)</th><td>(\d+) <small>\$(\d+) '
                      r'· (\d+) grain</small></td><td><b>(\d+)</b> <small>\$(\d+) · (\d+) grain'
                      r'</small>', text(preview))
    ben = [row for row in rows if row[1] == "Ben"]
    assert len(rows) == 3 and ben and ben[0][0] == "moved"
    was, now = ben[0][2:5], ben[0][5:8]
    assert was[0] == now[0] and int(now[1]) == int(was[1]) + 2 and int(now[2]) == int(was[2]) - 1
    assert all(row[0] == "" and row[2:5] == row[5:8] for row in rows if row[1] != "Ben")


def test_a_sowing_taken_out_is_previewed_with_the_grain_it_moves(client):
    """Found at a table: a sowing changed was previewed with each player's points and money,
    as if only what the action records changed, though the grain on the card and on the
    grounds moved (grain scores at the harvest). The preview shows each player's grain, and
    what is sown, before and after."""
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:7]:
        perform(client, url, kind, payload)
    assert act(client, url, "sow", player="Ben", seeds=1).status_code == 303
    seq = int(re.findall(r'id="e(\d+)"', text(client.get(url + "history")))[0])
    preview = text(client.post(url + f"change/out?change={seq}",
                               data=fresh(client, url + f"?change={seq}")))
    ben = re.search(r'<tr class="moved"><th scope="row">Ben</th><td>\d+ <small>(.*?)</small></td>'
                    r'<td><b>\d+</b> <small>(.*?)</small>', preview)
    assert ben and ben.groups() == ("$4 · 3 grain, 1 sown", "$4 · 4 grain"), ben and ben.groups()


def test_fold_outs_opened_while_changing_an_action_stay_in_the_change(app, client):
    """Found playing: changing an action, a tap on "Acquire invention" (or any fold-out) went
    back to the table as it is, the change dropped without a word: its link was `?open=...`."""
    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:5]:
        perform(client, url, kind, payload)
    page = text(client.get(url + "?change=5"))  # Ann's grain purchase, her first action
    assert "Changing #5" in page
    links = re.findall(r'<a [^>]*href="([^"]*)" data-open', page)
    assert links and all(link.startswith("?change=5&amp;") for link in links), links
    opened = text(client.get(url + "?change=5&open=buy_land"))
    assert "Changing #5" in opened and 'id="act-buy_land" open' in opened
    assert all(link.startswith("?open=") or link.startswith("?#")
               for link in re.findall(r'<a [^>]*href="([^"]*)" data-open', text(client.get(url))))


def test_an_invention_or_work_orders_changed_show_what_was_recorded(app, client):
    """Found playing: changing an invention showed "no ability" and "no end bonus", changing
    work orders taken with the last space's $1 left its box unticked."""
    url, events = three_turns(app, client)
    professor = next(e for e in events if e.kind == "invention")  # Cy's two cards, space 2
    page = text(client.get(url + f"?change={professor.seq}"))
    chosen = re.findall(r'<option selected value="([^"]*)"', page)
    assert chosen == ["grey_money", "", "harvest_grain1", "Oil Refinery"]
    last = next(e for e in events if e.kind == "work_orders" and e.payload.get("last"))
    page = text(client.get(url + f"?change={last.seq}"))
    assert re.search(r'<input[^>]*checked[^>]*name="last_space"|<input[^>]*name="last_space"'
                     r'[^>]*checked', page)
    fields = fresh(client, url + f"?change={last.seq}") | {
        "player": last.payload["player"], "colour": last.payload["colour"],
        "orders_count": last.payload["count"], "last_space": "y"}
    assert "Nothing changes" in text(client.post(url + f"work_orders?change={last.seq}",
                                                 data=fields))


def test_the_taxes_tile_offers_the_collections_the_markers_allow(app, client):
    """Ben holds the Tax Collector, his tax marker far right of his citizen marker: both
    buttons, as `rules.tax_collections` allows (its test has the markers that allow one
    collection or none, where the tile offers fewer: never a tap the rules refuse)."""
    two = ["Ann", "Ben"]
    table_id = seed(app, "urbanisation", two, [
        TWO_SETUP, *TWO_TURN_1, *hire("architect", "tax_collector", players=two),
        ("pass", {"player": "Ann"})])
    page = text(client.get(f"/urbanisation/{table_id}/?open=taxes"))
    assert "Collect taxes: $1" in page and "Twice, with the Tax Collector: $2" in page


def test_if_the_game_ended_now_says_how_a_tie_is_broken(app, client):
    """A tie in the provisional ranking is broken as the final scoring's is, and says so: the
    newest factory. After the 41st action of the scripted game Ben (factory 4) and Ann (none)
    both have 15 VP with the factory bonus; Ben is placed ahead. Equal totals with no factory
    share the place and need no word (the first test: "2. Ben (1), 2. Cy (1)")."""
    actions = [SETUP, *[a for turn in URBANISATION_TURNS for a in turn]][:42]
    url = f"/urbanisation/{seed(app, 'urbanisation', PLAYERS, actions)}/"
    assert ("<strong>If the game ended now:</strong> 1. Cy (17), 2. Ben (15, newest factory 4), "
            "3. Ann (15, no factory)") in text(client.get(url))
    german = text(client.get(url, headers=GERMAN))
    assert "2. Ben (15, neueste Fabrik 4), 3. Ann (15, keine Fabrik)" in german


@pytest.mark.parametrize(("endpoint", "fields"), [
    ("attract", {"player": "Ann", "factory_number": "7", "factory_colour": "white",
                 "goods": "\u00b2"}),
    ("attract/card", {"player": "Ann", "factory_number": "7", "production": "white.\u00b2"}),
    ("name_factory", {"factory": "Ann|\u00b2", "name": "Hotel", "reason": ""}),
    # More digits than int() reads (4,300): a server error too, found by a tampering session.
    ("attract", {"player": "Ann", "factory_number": "7", "factory_colour": "white",
                 "goods": "1" * 5000}),
    ("name_factory", {"factory": "Ann|" + "1" * 5000, "name": "Hotel", "reason": "x"}),
])
def test_a_digit_that_is_no_number_is_refused_not_a_500(client, started, endpoint, fields):
    """"²" is a digit to Python's str.isdigit and no number to int(): a tampered form with it
    as a factory's goods or number was a server error. Refused, nothing recorded."""
    history = text(client.get(started + "history"))
    response = client.post(started + endpoint, data=fresh(client, started) | fields)
    assert response.status_code in (400, 422), (response.status_code, endpoint)
    assert text(client.get(started + "history")) == history


def test_with_no_empty_ground_a_new_factory_cannot_be_chosen_and_the_upgrade_is(client,
                                                                                 monkeypatch):
    """Found at a table: with every ground taken, "Where" stood on "New" (0 empty grounds),
    which the rules then refused. Cy before his upgrade in the example's turn 2, his
    last ground taken (the card's count of empty grounds read as 0): "New" cannot be chosen,
    so the first upgrade is."""
    from companion.rules import urbanisation_actions

    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1 + TURN_2[:[k for k, _ in TURN_2].index("attract")]:
        perform(client, url, kind, payload)
    before = text(client.get(url + "?open=attract"))
    assert '<option value="">New: 1 empty ground</option>' in before
    monkeypatch.setattr(urbanisation_actions.CityCard, "empty_grounds", property(lambda _: 0))
    page = text(client.get(url + "?open=attract&grounds=0"))
    where = re.search(r'<select name="upgrade">(.*?)</select>', page, re.S).group(1)
    assert '<option value="" disabled>New: 0 empty grounds</option>' in where
    assert '<option value="3" >Upgrade factory 3 (orange)</option>' in where


def test_an_upgrade_names_the_factory_it_covers(app, client):
    """Found at a table: "Upgrade factory 4 (orange)", where the tracking card called it the
    Weaving Mill. An upgrade says the factory as the card does: its number, name and colour."""
    names, actions = PLAYERS, GAME_SCRIPTS["urbanisation"]()  # Ann, Ben and Cy
    state = GAMES["urbanisation"].start(list(names))
    done = 0
    while not (state.segment == "actions" and state.current_player == "Cy" and any(
            f.name == "Oil Refinery" and f.active for f in state.cards["Cy"].factories)):
        state.apply(*actions[done])  # up to Cy's turn with his Oil Refinery
        done += 1
    url = f"/urbanisation/{seed(app, 'urbanisation', names, actions[:done])}/"
    where = re.search(r'<select name="upgrade">(.*?)</select>',
                      text(client.get(url + "?open=attract")), re.S).group(1)
    assert ">Upgrade factory 5 Oil Refinery (grey)</option>" in where
    german = text(client.get(url + "?open=attract", headers=GERMAN))
    assert ">Fabrik 5 Ölraffinerie (grau) ausbauen</option>" in german


def test_the_goods_prices_said_are_the_players_own_with_the_inventions(client, monkeypatch):
    """Found at a table: Ana, with "Earn $4 (instead of $3) for white goods", read "Each good:
    $3 white" above the produce form that paid her $4. The prices said are the player's own:
    with that invention and "2 VP (instead of 1) for each grey good" (as if Ben held them)."""
    from companion.rules import urbanisation_actions

    url = set_up(client, *PLAYERS)
    for kind, payload in TURN_1[:7]:
        perform(client, url, kind, payload)
    plain = " ".join(text(client.get(url + "?open=produce")).split())
    assert "Each good: $3 white, $2 grey, $1 orange, and 1 VP." in plain
    assert "VP each instead of" not in plain
    monkeypatch.setattr(urbanisation_actions.CityCard, "has",
                        lambda _card, ability: ability in ("white_money", "grey_vp"))
    page = " ".join(text(client.get(url + "?open=produce&inventions=1")).split())
    assert ("Each good: $4 white, $2 grey, $1 orange, and 1 VP. A factory produces once per "
            "turn, up to the goods its space shows. Goods from grey factories: 2 VP each "
            "instead of 1.") in page


def test_the_card_form_offers_no_factory_removed_from_the_game(app, client):
    """Found at a table: factories 2, 4, 5 and 6, removed at administrations, were offered in
    the card form's numbers, then refused. After turn 1's display 1, 2, 4 (factory 1 removed,
    "the lowest numbered face-up factory card"), Cy's card form offers neither 1 nor his 3."""
    administration = ("administration", {"display": [1, 2, 4]})
    table = seed(app, "urbanisation", ["Ann", "Ben", "Cy"],
                 [SETUP, *TURN_1[:-1], administration, *TURN_2[:3]])
    form = text(client.get(f"/urbanisation/{table}/?open=attract-card"))
    numbers = re.search(r'<select name="factory_number"[^>]*>(.*?)</select>', form, re.S)
    offered = [int(n) for n in re.findall(r"<option[^>]*>(\d+)</option>", numbers.group(1))]
    assert 1 not in offered and 3 not in offered
    assert offered[:3] == [2, 4, 5]


def test_a_removed_factory_typed_in_the_card_form_is_refused_at_its_number(app, client):
    """Found at a table: "Factory 4 was removed from the game ..." was said only in the strip,
    the number field unmarked, where a price the player cannot pay is said at its field."""
    administration = ("administration", {"display": [1, 2, 4]})
    table = seed(app, "urbanisation", ["Ann", "Ben", "Cy"],
                 [SETUP, *TURN_1[:-1], administration, *TURN_2[:3]])
    url = f"/urbanisation/{table}/"
    refused = act(client, url, "attract/card", player="Cy", factory_number="1",
                  production="orange.2", filled="y")
    assert refused.status_code == 422
    said = re.search(r'<span class="field-error" id="factory_number-error">([^<]*)</span>',
                     text(refused))
    assert said and said.group(1) == ("Factory 1 was removed from the game at an "
                                      "administration: it cannot be attracted.")
