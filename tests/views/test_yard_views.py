"""The construction-yard pages through the Flask test client: actions, refusals, undo, history."""

import re

import pytest
from werkzeug.datastructures import MultiDict

from companion import storage
from companion.rules import yard, yard_example
from companion.rules.yard_table import YardState
from companion.views.yard import names_head
from tests.conftest import (
    GERMAN,
    SCRIPT,
    act,
    act_in_german,
    confirm_fields,
    current_seq,
    fresh,
    new_table,
    pdf_words,
    screen,
    text,
)
from tests.tables import seed_on


def test_home_starts_a_table_and_remembers_it(client):
    assert "Start the game" in text(client.get("/"))
    url = new_table(client, "Tobi", "Nina", "Paul")
    assert re.fullmatch(r"/yard/[A-Za-z0-9_-]{22}/", url)
    home = text(client.get("/"))
    assert url in home and "Tobi" in home and "open" in home


def test_a_table_link_of_another_game_or_unknown_id_is_404(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    assert client.get("/yard/nope/").status_code == 404
    assert client.get(url.replace("/yard/", "/street/") + "history").status_code == 404


def test_an_unknown_or_revoked_link_says_so_in_the_players_language_with_the_way_home(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    for headers, words, home in (
            ({}, "There is nothing at this link.", ">Home</a>"),
            ({"Accept-Language": "de"}, "Unter diesem Link ist nichts.", ">Start</a>")):
        for link in ("/yard/nope/", url.replace("/yard/", "/street/"), "/board/nope", "/j/nope"):
            response = client.get(link, headers=headers)
            assert response.status_code == 404
            page = text(response)
            assert words in page and 'href="/"' in page and home in page, link
            assert '<link rel="stylesheet"' in page  # the app's own page, styled


def test_two_seats_with_the_same_colour_are_refused_in_words(client):
    response = client.post("/new", data={"game": "yard",
                                         "players-0-name": "Ann", "players-0-colour": "red",
                                         "players-1-name": "Ben", "players-1-colour": "blue",
                                         "players-2-name": "Cy", "players-2-colour": "red"})
    assert response.status_code == 422
    assert "Two seats have the same colour (red): choose another colour for one of them." in (
        text(response))
    assert client.get("/").status_code == 200 and "Ann" not in text(client.get("/"))


def test_bad_names_are_refused_with_a_message(client):
    response = client.post("/new", data={"game": "yard", "players-0-name": "Solo"})
    assert response.status_code == 422
    assert "played by 2 to 6 players" in text(response)
    response = client.post("/new", data={"game": "yard", "players-0-name": "Ann",
                                         "players-1-name": "ann"})
    assert "Two players are called" in text(response)
    response = client.post("/new", data={"game": "chess", "players-0-name": "Ann",
                                         "players-1-name": "Ben"})
    assert response.status_code == 422


def test_a_purchase_is_recorded_and_shown(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    response = act(client, url, "buy", player="Tobi", building="park")
    assert response.status_code == 303 and response.headers["Location"] == url
    page = text(client.get(url))
    assert "Tobi leads by 1" in page
    assert "Last: Tobi bought a park" in page


def test_a_repeated_submission_is_not_recorded_twice(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    seq = current_seq(client, url)
    assert act(client, url, "buy", seq=seq, player="Tobi", building="park").status_code == 303
    again = act(client, url, "buy", seq=seq, player="Tobi", building="park")
    assert again.status_code == 409
    assert "Just recorded: Tobi bought a park. This tap was not recorded again" in text(again)
    assert "Tobi leads by 1" in text(again)


def test_an_outdated_screen_changes_nothing_and_says_what_happened(client):
    """The same player's purchase on a screen that missed another: it may be that very
    purchase again, so it is refused with what happened."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    seq = current_seq(client, url)
    act(client, url, "buy", seq=seq, player="Tobi", building="park")
    act(client, url, "buy", seq=seq + 1, player="Nina", building="museum")
    stale = act(client, url, "buy", seq=seq, player="Tobi", building="park")
    assert stale.status_code == 409
    assert ("changed since this screen was loaded (Tobi bought a park; Nina bought a museum), "
            "so this tap was not recorded: it may be “Tobi bought a park”, recorded already. "
            "If this was one more, tap it again") in text(stale)
    assert text(client.get(url + "history")).count("Tobi bought a park") == 1


def test_an_outdated_screen_that_missed_five_actions_says_the_last_three_and_counts_the_rest(
        client):
    """Found at a table: five purchases on another phone, and the refusal named three of them
    as if they were all. The last three are said, the two before them counted."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    seq = current_seq(client, url)
    for building in ("park", "church", "station", "theater", "museum"):
        act(client, url, "buy", seq=current_seq(client, url), player="Tobi", building=building)
    stale = act(client, url, "buy", seq=seq, player="Tobi", building="church")
    assert stale.status_code == 409
    assert ("changed since this screen was loaded (Tobi bought a station; Tobi bought a theater; "
            "Tobi bought a museum; and 2 actions before them)") in text(stale)


@pytest.mark.parametrize("first, tapped", [
    (("Tobi", "park"), ("Nina", "museum")),
    # Found at a table: a church tapped after the same player's skyscraper, recorded on the
    # other phone (bought again, having paid exactly), was refused as maybe the skyscraper.
    (("Tobi", "skyscraper"), ("Tobi", "church")),
])
def test_another_purchase_on_an_outdated_screen_is_recorded_after_it(client, first, tapped):
    """Two phones (issue 23): a purchase tapped on a screen that missed another player's
    purchase, or the same player's of another building, goes on the table as it stands, and
    the answer says after what."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    seq = current_seq(client, url)
    act(client, url, "buy", seq=seq, player=first[0], building=first[1])
    merged = act(client, url, "buy", seq=seq, player=tapped[0], building=tapped[1])
    assert merged.status_code == 303
    page = text(client.get(url))
    assert (f"<span class=\"strip-words\">Last: {tapped[0]} bought a {tapped[1]}</span> <span "
            f"class=\"strip-meanwhile\">— another phone recorded before it: {first[0]} bought a "
            f"{first[1]}</span>") in page  # its point first: cut to two lines, it stays
    assert current_seq(client, url) == 2
    undone = act(client, url, "undo", seq=seq)  # an undo never merges
    assert undone.status_code == 409


def test_impossible_input_names_the_building_and_its_supply(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    for _ in range(7):
        act(client, url, "buy", player="Tobi", building="museum")
    refused = act(client, url, "buy", player="Nina", building="museum")
    assert refused.status_code == 422
    assert "There are only 7 museums in the game and 7 are already recorded." in text(refused)


def test_a_tampered_name_is_quoted_cut_short_in_every_language(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    for language, said in ((None, "is not a player at this table."),
                           (GERMAN, "spielt an diesem Tisch nicht mit.")):
        post = act if language is None else act_in_german
        refused = text(post(client, url, "buy", player="A" * 30_000, building="park"))
        assert f"&#39;{'A' * 38}\u2026 {said}" in refused and "A" * 39 not in refused


def test_tampered_forms_are_refused(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    cases = [
        ({"player": "Tobi", "building": "castle"}, 400, "Not a valid choice"),
        ({"player": "Mallory", "building": "park"}, 422, "is not a player at this table"),
        ({"player": "Tobi", "building": "park", "receiver": "Nina"}, 422, "cannot buy for"),
        ({"player": "Tobi", "building": "park", "seq": "x"}, 400, "Reload the page"),
        ({"building": "park"}, 400, "Player"),
    ]
    for data, status, message in cases:
        response = act(client, url, "buy", **data)
        assert response.status_code == status, data
        assert message in text(response), data
    assert "nothing has happened yet" in text(client.get(url + "history")).lower()


def test_undo_and_redo(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    act(client, url, "buy", player="Tobi", building="park")
    act(client, url, "buy", player="Nina", building="church")
    assert act(client, url, "undo").status_code == 303
    page = text(client.get(url))
    assert "Nina leads" not in page and "Tobi leads by 1" in page
    assert act(client, url, "redo").status_code == 303
    assert "Nina leads by 1" in text(client.get(url))
    act(client, url, "redo")
    assert "There is nothing to redo." in text(act(client, url, "redo"))
    history = text(client.get(url + "history"))
    assert "Undo: Nina bought a church" in history
    assert "Redo: Nina bought a church" in history


def test_scoring_a_shows_the_split_arithmetic(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    for player in ("Tobi", "Nina"):
        for _ in range(4):
            act(client, url, "buy", player=player, building="skyscraper")
    act(client, url, "score", scoring="A")
    act(client, url, "score", scoring="B")
    page = text(client.get(url))
    assert "Tobi and Nina tie for 1st-2nd with 4 skyscrapers: 13 + 6 = 19, 9 each" in page
    assert "Tobi and Nina tie for 1st-2nd with 4 skyscrapers: 6 + 0 = 6, 3 each" in page


def test_more_of_a_building_than_the_game_holds_dealt_to_dirk_is_said_under_its_count(client):
    """Found at a table: said in the strip, over the totals, with no field marked; it is about
    the count typed. 7 museums in the game: Tobi bought 2, so Dirk cannot be dealt 6."""
    url = new_table(client, "Tobi", "Nina")
    act(client, url, "dirk", skyscraper=6)
    for _ in range(2):
        act(client, url, "buy", player="Tobi", building="museum")
    act(client, url, "score", scoring="A")
    over = client.post(url + "dirk", data={**fresh(client, url), "museum": 6}, headers=SCRIPT)
    assert over.status_code == 422
    assert over.get_json() == {"refused": "There are only 7 museums in the game and 2 are "
                                          "already recorded.", "field": "museum"}


def test_dirk_s_counts_are_blank_with_a_0_shown_greyed_and_blank_is_none(app, client):
    """Found at a table without JavaScript: a 1 typed into a count showing 0 read "01". The
    counts are blank, "0" their placeholder; sent blank, a count is 0."""
    url = new_table(client, "Tobi", "Nina")
    form = text(client.get(url)).split('class="grid-form dirk-deal"')[1].split("</form>")[0]
    counts = re.findall(r'<input id="(\w+)" inputmode="numeric" max="\d+" min="0" name="\1" '
                        r'placeholder="0" type="number" value="">', form)
    assert counts == list(yard.BUILDINGS), form
    blank = dict.fromkeys(counts, "") | {"skyscraper": "2", "park": "4"}
    assert act(client, url, "dirk", **blank).status_code == 303
    log = storage.events(storage.connect(app.config["DATABASE"]), url.split("/")[2])
    [deal] = [e for e in log if e.kind == "dirk_deal"]
    assert deal.payload["buildings"] == dict.fromkeys(counts, 0) | {"skyscraper": 2, "park": 4}


def test_two_players_play_with_dirk_through_the_end(client):
    url = new_table(client, "Tobi", "Nina")
    page = text(client.get(url))
    assert "Deal Dirk 6 cards" in page
    refused = act(client, url, "buy", player="Tobi", building="park")
    assert "First deal Dirk his 6 cards" in text(refused)
    assert act(client, url, "dirk", skyscraper=6).status_code == 303
    act(client, url, "buy", player="Tobi", building="park", receiver="Dirk")
    act(client, url, "buy", player="Nina", building="park")
    act(client, url, "score", scoring="A")
    assert "Deal Dirk 6 cards" in text(client.get(url))
    wrong = act(client, url, "dirk", park=5)
    assert "Dirk gets exactly 6 cards now; 5 were entered." in text(wrong)
    act(client, url, "dirk", museum=6)
    act(client, url, "score", scoring="B")
    # The deck: 50 - 6 - 2 - 6 = 36, a third is 12.
    assert "Deal Dirk 12 cards" in text(client.get(url))
    act(client, url, "dirk", church=9, theater=3)
    page = text(client.get(url))
    assert "Give out the cards and score C" not in page
    assert "The game ends once the building deck is empty and the display cannot be refilled to " \
        "4; 24 cards are still in the deck." in page
    assert client.get(url + "end").status_code in (404, 405)  # the long end form of old is gone


def buys(player, **counts):
    return [("buy", {"player": player, "building": b, "for": player})
            for b, n in counts.items() for _ in range(n)]


DIRK_TO_THE_END = [
    ("dirk_deal", {"buildings": {"museum": 6}}), ("score", {"scoring": "A"}),
    ("dirk_deal", {"buildings": {"theater": 6}}), ("score", {"scoring": "B"}),
    ("dirk_deal", {"buildings": {"park": 11, "station": 1}}),  # a third of 38: 12
    *buys("Tobi", station=8, church=5, skyscraper=1), *buys("Nina", church=4, skyscraper=9),
]


# Dirk's 6 at the start and 40 purchases: 4 cards left in the deck, 4 on display.
SHORT_DECK = [("dirk_deal", {"buildings": {"museum": 6}}),
              *buys("Tobi", theater=7, station=9, church=4),
              *buys("Nina", church=5, park=11, skyscraper=4)]


def test_a_deck_corrected_empty_with_cards_unrecorded_says_so_before_the_scorings(client):
    """Found playing: the deck corrected to 0 with 50 cards nobody was recorded buying said
    "the game ends when the display cannot be refilled to 4 (50 on display)"."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    assert act(client, url, "deck", left=0, reason="counted").status_code == 303
    page = text(client.get(url))
    assert "(54 on display)" not in page
    assert ("The building deck is empty, but the app counts 54 cards nobody has bought: record "
            "the missing purchases or correct the counts.") in page


def test_after_scoring_a_with_4_cards_in_the_deck_dirk_s_card_asks_for_those_4(app, client):
    """Right after scoring A Dirk gets 6 more cards, as far as the deck holds them: with 4
    left, the card says so, in German too (it said "Deal Dirk 4 cards. Right after scoring A,
    Dirk gets 6 more cards.")."""
    url = new_table(client, "Tobi", "Nina")
    seed_on(app, url, ["Tobi", "Nina"], [*SHORT_DECK, ("score", {"scoring": "A"})])
    card = re.search(r'<section class="card next" id="dirk".*?</section>',
                     text(client.get(url)), re.S).group(0)
    assert "Deal Dirk 4 cards" in card and "6 more cards" not in card
    assert "Dirk gets 6 cards, but only 4 are left in the deck: he gets those." in card
    assert "Dirk got these 4" in card
    german = text(client.get(url, headers=GERMAN))
    assert "Dirk bekommt 6 Bildkarten, aber im Stapel liegen nur noch 4: Er bekommt diese." in (
        german)


def test_after_scoring_b_with_an_empty_deck_dirk_is_dealt_nothing_and_play_goes_on(app, client):
    """A third of 0 cards is 0: no deal of Dirk's is asked for ("Deal Dirk 0 cards", "Dirk got
    these 0"), and the next purchase is taken (it was refused: "First deal Dirk his 0 cards")."""
    url = new_table(client, "Tobi", "Nina")
    seed_on(app, url, ["Tobi", "Nina"], [*SHORT_DECK, ("score", {"scoring": "A"}),
                                         ("dirk_deal", {"buildings": {"skyscraper": 4}})])
    assert act(client, url, "score", scoring="B").status_code == 303
    page = text(client.get(url))
    assert 'id="dirk"' not in page and "Deal Dirk" not in page and "Dirk got these" not in page
    assert act(client, url, "buy", player="Tobi", building="skyscraper").status_code == 303


def test_a_purchase_taken_out_before_b_keeps_dirk_s_deal_and_says_why(app, client):
    """Nina's theater before scoring B never was: a third of the deck is 11 now, Dirk got 10
    at the table and keeps them (ruling "dirk_kept"). The preview lists his deal with why, the
    purchases after it stay; the history and the page say the ruling. It took out the deal and
    every purchase after it ("First deal Dirk his 11 cards")."""
    url = new_table(client, "Tobi", "Nina")
    seed_on(app, url, ["Tobi", "Nina"], [
        ("dirk_deal", {"buildings": {"museum": 2, "park": 4}}),
        *buys("Tobi", park=1, station=1), ("score", {"scoring": "A"}),
        ("dirk_deal", {"buildings": {"skyscraper": 6}}),
        *buys("Tobi", theater=1), *buys("Nina", theater=1), *buys("Tobi", museum=1, church=1),
        ("score", {"scoring": "B"}),  # 32 in the deck: a third is 10
        ("dirk_deal", {"buildings": {b: 0 for b in yard.BUILDINGS} | {"church": 5, "station": 5}}),
        *buys("Tobi", skyscraper=2), *buys("Nina", park=2)])
    preview = text(client.post(url + "change/out?change=7", data=fresh(client, url + "?change=7")))
    assert "Later actions the rules no longer take</h2>" not in preview
    assert re.search(r'<span class="seq">#11</span> Dirk was dealt 5 stations and 5 churches → '
                     r'<b>Dirk was dealt 5 stations and 5 churches \(kept as dealt at the table\)'
                     r'</b>: <em>Dirk gets exactly 11 cards now; 10 were entered.</em>', preview)
    assert client.post(url + "change", data={**confirm_fields(preview), "reason": "no theater"}
                       ).status_code == 303
    assert ("Dirk keeps the 10 cards he got at the table, though the rules would now deal him 11 "
            "(ruling).") in text(client.get(url + "history"))
    page = text(client.get(url))
    assert str(yard.RULINGS["dirk_kept"]) in page and "Deal Dirk" not in page
    # 33 at scoring B, 10 to Dirk, 4 purchases: one more card than before the change.
    assert "19 cards are still in the deck." in page
    # His deal entered again as he got it stays kept: nothing changes. Its form shows his cards.
    form = text(client.get(url + "?change=11"))
    assert "Dirk got these 10" in form and str(yard.RULINGS["dirk_kept"]) in form
    assert '<h2 id="as-recorded">Deal Dirk 10 cards</h2>' in form  # where Change #11 leads
    # The strip names the deal being changed, not the 11 cards the rules would deal him now.
    strip = form.split('class="score-strip"')[1].split("</aside>")[0]
    assert "Changing #11: Dirk was dealt 5 stations and 5 churches" in strip
    assert "Deal Dirk" not in strip
    assert re.search(r'name="church"[^>]*value="5"', form)
    assert re.search(r'name="station"[^>]*value="5"', form)
    fields = fresh(client, url + "?change=11") | {"church": 5, "station": 5}
    assert "Nothing changes" in text(client.post(url + "dirk?change=11", data=fields))
    # Which buildings they were, corrected: still his 10, still kept.
    def changed(church, station):
        fields = fresh(client, url + "?change=11") | {"church": church, "station": station}
        answer = client.post(url + "dirk?change=11", data=fields)
        return answer, " ".join(re.sub(r"<[^>]+>", " ", text(answer)).split())

    assert ("→ Dirk was dealt 6 stations and 4 churches (kept as dealt at the table)"
            in changed(4, 6)[1])
    # Another number of cards is no deal he got at the table: the rules count it (found by a
    # rules audit: a kept deal changed to 20 cards was taken, still kept).
    refused, said = changed(6, 6)
    assert refused.status_code == 422 and "Dirk gets exactly 11 cards now; 12 were entered." in said
    said = changed(6, 5)[1]  # 11, as the rules deal: not kept
    assert "→ Dirk was dealt 5 stations and 6 churches Every later action" in said


def test_the_end_of_a_dirk_game_asks_only_for_the_cards_left_on_display(app, client):
    url = new_table(client, "Tobi", "Nina")
    seed_on(app, url, ["Tobi", "Nina"], DIRK_TO_THE_END)
    page = text(client.get(url))
    assert "Give out the cards and score C" in page
    # The deck is empty and 3 cards are left, known by elimination: a museum, a theater and a
    # skyscraper. Dirk holds no money, so he is not among the majority holders.
    assert re.findall(r'<legend><span class="chip-card b-(\w+)">', page) == [
        "museum", "theater", "skyscraper"]
    assert 'name="to_0" value="0"' in page and 'name="to_0" value="2"' not in page
    assert " checked" not in page  # nothing is guessed
    # Nina bought last: she may still buy one of those three, for herself or for Dirk.
    assert re.findall(r'value="\w+" ?aria-label="(\w+) buys an? (\w+) for Dirk"', page) == [
        ("Nina", "museum"), ("Nina", "theater"), ("Nina", "skyscraper")]  # the others disabled
    response = client.post(url + "final", data={
        **fresh(client, url), "to_0": "0", "to_1": "nobody", "to_2": "1"})
    assert response.status_code == 303
    page = text(client.get(url))
    assert "Final result" in page and "Dirk cannot win" in page
    assert "Museum: Tobi" in page and "Skyscraper: Nina" in page
    assert "Theater: unsold (tie or no money)" in page


def test_cards_of_one_building_left_on_display_are_counted_in_the_end_form(app, client,
                                                                           monkeypatch):
    """A helper's end form showed three rows "Church / Most money of its space" alike: each
    now says which of them it is ("1 of 3"), and what decides."""
    url = new_table(client, *yard_example.PLAYERS)
    seed_on(app, url, yard_example.PLAYERS, yard_example.GAME_OVER)
    monkeypatch.setattr(YardState, "leftover_buildings", ["church", "museum", "church", "church"])
    page = text(client.get(url))
    legends = [" ".join(re.sub(r"<[^>]+>", " ", legend).split())
               for legend in re.findall(r"<legend>(.*?)</legend>", page)]
    assert legends == ["Church 1 of 3", "Museum", "Church 2 of 3", "Church 3 of 3"]
    assert page.count("Most money in the currency of its space") == 4
    # a refusal says which of them is not tapped yet (found at a table: "Church: ..." of two)
    answer = text(client.post(url + "final", data={**fresh(client, url), "to_0": "0",
                                                   "to_1": "1", "to_3": "2"}))
    assert "Church 2 of 3, who takes it: tap who holds the most money" in answer
    assert "Museum, who takes it: tap" not in answer


def test_a_bad_end_form_keeps_what_was_tapped(app, client):
    url = new_table(client, *yard_example.PLAYERS)
    seed_on(app, url, yard_example.PLAYERS, yard_example.GAME_OVER)
    seq = current_seq(client, url)
    response = client.post(url + "final", data={**fresh(client, url), "to_1": "2"})
    assert response.status_code == 400 and current_seq(client, url) == seq
    page = text(response)
    assert ("Museum, who takes it: tap who holds the most money of its space, or &#39;tie or "
            "nobody&#39;.") in page
    assert 'name="to_1" value="2" checked' in page
    tampered = client.post(url + "final", data={
        **fresh(client, url), "to_0": "0", "to_1": "7", "to_2": "1"})
    assert tampered.status_code == 400 and current_seq(client, url) == seq


def test_security_headers(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_a_request_size_limit(client):
    response = client.post("/new", data={"game": "yard", "players-0-name": "x" * 100_000})
    assert response.status_code == 413


# In German ------------------------------------------------------------------------------------


def test_the_table_page_speaks_german(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    for _ in range(2):
        act(client, url, "buy", player="Tobi", building="skyscraper")
    act(client, url, "buy", player="Nina", building="station")
    act(client, url, "score", scoring="A")
    page = text(client.get(url, headers=GERMAN))
    assert '<html lang="de">' in page
    for german in ("Wertung A erledigt", "Wer hat was gekauft?", "Mehrheiten jetzt",
                   "Hochhaus <span class=\"count\">2</span>", "Tobi führt mit 2 Karten Vorsprung",
                   "Tobi belegt den 1. Platz mit 2 Hochhäusern: 6",
                   "Nina belegt den 1. Platz mit 1 Bahnhof: 3",
                   "Karte „Wertung B“ gezogen: jetzt werten", "Noch 47 Bildkarten im Stapel.",
                   "Zuletzt: Wertung A", "Regelung: Bei Gleichstand"):
        assert german in page, german
    for english in ("Who bought what?", "leads by", "is 1st with", "Skyscraper", "Scoring A",
                    "building cards left", "Ruling:"):
        assert english not in page, english


def test_a_refusal_and_the_history_in_german(client):
    url = new_table(client, "Tobi", "Nina")
    refused = act_in_german(client, url, "buy", player="Tobi", building="park")
    assert refused.status_code == 422
    assert "Gib Dirk zuerst seine 6 Karten." in text(refused)
    assert "First deal Dirk" not in text(refused)
    act(client, url, "dirk", skyscraper=4, park=2)
    act(client, url, "buy", player="Nina", building="church", receiver="Dirk")
    history = text(client.get(url + "history", headers=GERMAN))
    assert "Dirk hat 2 Parks und 4 Hochhäuser bekommen" in history
    assert "Nina hat eine Kirche für Dirk gekauft" in history
    too_many = act_in_german(client, url, "correct", owner="Tobi", building="park", count=10,
                             reason="nachgezählt")
    assert too_many.status_code == 422
    assert ("Es gibt nur 11 Parks im Spiel, und die anderen haben 2: Die Zahl der Parks von Tobi "
            "kann höchstens 9 sein.") in text(too_many)
    wrong = act_in_german(client, url, "correct", owner="Tobi", building="museum", count=8,
                          reason="nachgezählt")
    assert "Die Zahl der Museen von Tobi darf nicht größer als 7 sein." in text(wrong)


def test_a_correction_beyond_the_54_building_cards_is_refused_in_german(client):
    """At the start 50 cards are in the deck and 4 on display: nobody can be given 5 cards by
    a correction, and the deck can never hold more than the cards nobody holds."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    seq = current_seq(client, url)
    refused = act_in_german(client, url, "correct", owner="Tobi", building="park", count=5,
                            reason="nachgezählt")
    assert refused.status_code == 422 and current_seq(client, url) == seq
    assert ("Nur 4 Bildkarten gehören niemandem und liegen nicht im Stapel (laut App liegen dort "
            "50): Eine Korrektur kann nicht 5 hinzufügen.") in text(refused)
    assert act(client, url, "deck", left=40, reason="counted").status_code == 303
    assert act(client, url, "correct", owner="Tobi", building="park", count=5,
               reason="counted").status_code == 303
    refused = act_in_german(client, url, "deck", left=50, reason="nachgezählt")
    assert refused.status_code == 422
    assert "Nur 49 Bildkarten gehören niemandem: Im Stapel können nicht 50 liegen." in (
        text(refused))
    answer = client.post(url + "deck", headers=SCRIPT, data={
        **fresh(client, url), "left": 50, "reason": "counted"})  # said under the number typed
    assert (answer.status_code, answer.get_json()["field"]) == (422, "left")
    url = new_table(client, "Tobi", "Nina", "Paul")
    answer = client.post(url + "correct", headers=SCRIPT, data={
        **fresh(client, url), "owner": "Nina", "building": "park", "count": 5, "reason": "c"})
    assert (answer.status_code, answer.get_json()["field"]) == (422, "count")


def test_a_count_set_by_hand_beyond_the_supply_says_the_owner_s_own_limit(client):
    """Found at a table: Cy and Dora a theater each, Cy's count set to 7 was refused as "There
    are only 7 theaters in the game and 2 are already recorded" (the 2 counting Cy's own, which
    the count replaces), 8 was said in the strip only, 21 as "Number must be between 0 and
    11". Each is said beside the count with Cy's own limit: 7 less what the others hold."""
    url = new_table(client, "Cy", "Dora", "Paul")
    for player in ("Cy", "Dora"):
        assert act(client, url, "buy", player=player, building="theater").status_code == 303
    seq = current_seq(client, url)
    for count, words in ((7, "There are only 7 theaters in the game and the others hold 1: "
                             "Cy&#39;s theaters can be at most 6."),
                         (8, "Cy&#39;s theaters cannot be more than 7."),
                         (21, "Cy&#39;s theaters cannot be more than 7.")):
        refused = act(client, url, "correct", owner="Cy", building="theater", count=count,
                      reason="counted")
        assert refused.status_code == 422 and current_seq(client, url) == seq
        assert f'<span class="field-error" id="count-error">{words}</span>' in text(refused), count
        answer = client.post(url + "correct", headers=SCRIPT, data={
            **fresh(client, url), "owner": "Cy", "building": "theater", "count": count,
            "reason": "c"})
        assert (answer.status_code, answer.get_json()["field"]) == (422, "count")
    german = act_in_german(client, url, "correct", owner="Cy", building="theater", count=7,
                           reason="nachgezählt")
    assert ("Es gibt nur 7 Theater im Spiel, und die anderen haben 1: Die Zahl der Theater von "
            "Cy kann höchstens 6 sein.") in text(german)
    assert act(client, url, "correct", owner="Cy", building="theater", count=2,
               reason="counted").status_code == 303


def test_a_correction_says_what_it_is_for_in_the_history(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    seq = current_seq(client, url)
    blank = act(client, url, "correct", owner="Tobi", building="park", count=2, reason=" ")
    assert blank.status_code == 400 and current_seq(client, url) == seq
    assert "What for: write a few words (the history shows them with the amounts)." in text(blank)
    assert act(client, url, "correct", owner="Tobi", building="park", count=2,
               reason="a card under the box").status_code == 303
    assert act(client, url, "deck", left=40, reason="counted the deck").status_code == 303
    history = text(client.get(url + "history"))
    assert "Correction: Tobi has 2 parks (a card under the box)" in history
    assert "Correction: 40 building cards left in the deck (counted the deck)" in history


def test_the_end_form_and_the_final_result_in_german(app, client):
    url = new_table(client, *yard_example.PLAYERS)
    seed_on(app, url, yard_example.PLAYERS, yard_example.GAME_OVER)
    form = text(client.get(url, headers=GERMAN))
    assert "Gleichstand oder niemand" in form
    assert '<span class="chip-card b-skyscraper">Hochhaus</span>' in form
    response = client.post(url + "final", headers=GERMAN, data={
        **fresh(client, url), "to_0": "0", "to_1": "nobody", "to_2": "1"})
    assert response.status_code == 303
    page = text(client.get(url, headers=GERMAN))
    assert "Endergebnis" in page and "Hochhaus: Ben" in page
    assert "Final result" not in page and "tie for" not in page
    verdict = re.search(r'<p class="verdict"><strong>([^<]+)</strong>', page).group(1)
    assert verdict == "Ben gewinnt mit 99 Punkten.", verdict


def test_the_score_sheet_and_the_pad_in_german(client):
    url = new_table(client, "Tobi", "Nina")
    act(client, url, "dirk", museum=6)
    act(client, url, "buy", player="Tobi", building="park")
    act(client, url, "score", scoring="A")
    sheet = pdf_words(client.get(url + "sheet.pdf?size=A4", headers=GERMAN).data)
    assert "Gespielt am" in sheet and "mit Dirk" in sheet and "Spiel läuft noch." in sheet
    assert "Park: Tobi belegt den 1. Platz mit 1 Park: 5" in sheet
    assert "Dirk belegt den 1. Platz mit 6 Museen: 1" in sheet
    assert "Gebäude bisher" in sheet and "Regelung" in sheet
    for english in ("Played", "Scoring", "Ruling", "Total", "with 1 park"):
        assert english not in sheet, english
    pad = pdf_words(client.get("/pad/yard.pdf?players=2&size=A5", headers=GERMAN).data)
    assert "Wertungsblock" in pad and "2 Personen und Dirk." in pad
    assert "Summe Wertung C" in pad and "Hochhaus (21 / 13 / 6)" in pad and "Gesamtsumme" in pad
    for english in ("score pad", "Scoring", "Skyscraper", "Grand total", "Points for"):
        assert english not in pad, english


def test_names_that_look_alike_are_refused_at_the_start(app, client):
    before = len(list(storage.connect(app.config["DATABASE"])["tables"].rows))
    response = client.post("/new", data={"game": "yard", "players-0-name": "Ann",
                                         "players-1-name": "\u0410nn", "players-2-name": "Cy"})
    assert response.status_code == 422
    assert "Ann and Аnn look the same on a phone: names must be easy to tell apart." in text(
        response)
    german = client.post("/new", headers={"Accept-Language": "de"},
                         data={"game": "yard", "players-0-name": "Ann",
                               "players-1-name": "\u0410nn", "players-2-name": "Cy"})
    assert "Ann und Аnn sehen auf dem Handy gleich aus" in text(german)
    assert len(list(storage.connect(app.config["DATABASE"])["tables"].rows)) == before


def test_once_the_display_runs_short_only_the_last_buyer_may_buy(app, client):
    """The scripted game's last purchase was Cy's: only his row is left to tap, anyone else's
    purchase is refused naming him (in German too), and his own goes through."""
    url = new_table(client, *yard_example.PLAYERS)
    seed_on(app, url, yard_example.PLAYERS, yard_example.GAME_OVER)
    page = text(client.get(url))
    assert "Still buying, after paying exactly" in page and "Who bought what?" not in page
    # Who started is not said beside the one row left, where it read as news (found playing:
    # "Still buying, after paying exactly ★ Ann started.").
    started = new_table(client, *yard_example.PLAYERS)
    seed_on(app, started, yard_example.PLAYERS, [
        ("starting_money", {"cards": {"Ann": 3, "Ben": 4, "Cy": 4},
                            "totals": {"Ann": 22, "Ben": 21, "Cy": 24}}),
        *yard_example.GAME_OVER])
    assert "Still buying" in text(client.get(started))
    assert "Ann started." not in text(client.get(started))
    # The end form, the likelier next step, stands first and fits one thumb's reach (issue 15:
    # at most 8 taps); the last buyer's row follows it, and the strip says it may come first.
    assert page.index('id="end"') < page.index('id="buy"')
    assert "Cy may still buy after paying exactly" in page
    assert ("Die Auslage kann nicht mehr aufgefüllt werden: Cy darf nach passender Bezahlung "
            "noch kaufen; dann kommt die Schlusswertung.") in text(client.get(url, headers=GERMAN))
    assert re.findall(r'<div class="buyer \w*">\s*<div class="who"><h3>.*?</span>(\w+)</h3>',
                      page) == ["Cy"]
    # Only the cards left on display can be bought: a museum, a church and a skyscraper (the
    # others' buttons disabled in their places).
    assert re.findall(r'name="building" value="(\w+)">', page) == [
        "museum", "church", "skyscraper"]
    assert len(re.findall(r'name="building" value="\w+" disabled>', page)) == 3
    assert ("The display cannot be refilled: Cy may still buy after paying exactly; then comes "
            "the final scoring.") in page  # the strip
    seq = current_seq(client, url)
    refused = act(client, url, "buy", player="Ann", building="museum")
    assert refused.status_code == 422 and current_seq(client, url) == seq
    assert ("The game is over: the display could not be refilled to 4 after Cy&#39;s purchase. "
            "Only Cy may still buy, after paying exactly; then comes the final scoring."
            ) in text(refused)
    german = act_in_german(client, url, "buy", player="Ben", building="church")
    assert german.status_code == 422 and current_seq(client, url) == seq
    assert "Nach dem Kauf von Cy konnte die Auslage nicht mehr auf 4 aufgefüllt" in text(german)
    assert "Only Cy may still buy" not in text(german)
    assert act(client, url, "buy", player="Cy", building="museum").status_code == 303
    page = text(client.get(url))
    assert "Last: Cy bought a museum" in page and "Give out the cards and score C" in page


def test_a_purchase_tapped_on_a_screen_from_before_the_end_says_only_the_last_buyer_may_buy(
        app, client):
    """Found at a table: a purchase tapped on a screen from before the game's end was refused
    as "Ann's purchase may have been recorded already. If this was one more, tap it again":
    tapped again, it is refused all the same, as only the last buyer may still buy. Said so,
    for a player who bought meanwhile and for one who did not."""
    url = new_table(client, *yard_example.PLAYERS)
    seed_on(app, url, yard_example.PLAYERS, yard_example.GAME_OVER)
    seq = current_seq(client, url)
    for player, behind in (("Ben", 12), ("Ann", 3)):  # Ben bought in those 12, Ann not in 3
        tapped = act(client, url, "buy", seq=seq - behind, player=player, building="museum")
        assert tapped.status_code == 409 and current_seq(client, url) == seq
        said = text(tapped)
        assert "so this tap was not recorded. The game is over: the display could not be " \
            "refilled to 4 after Cy&#39;s purchase. Only Cy may still buy" in said, said
        assert "tap it again" not in said
    assert act(client, url, "buy", seq=seq - 3, player="Cy", building="skyscraper"
               ).status_code == 409  # Cy's own skyscrapers meanwhile: may be this one


def test_an_end_no_purchase_made_offers_no_purchase(app, client):
    """Corrections can leave the display short with the deck empty before anyone bought: the
    game is over, nobody may buy, so no one is listed under "Still buying"; the end is offered,
    with the ruling for the scoring cards not drawn, and so are those cards if they come now."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    counted = {"museum": 7, "theater": 7, "station": 9, "church": 9, "park": 11, "skyscraper": 9}
    seed_on(app, url, ["Tobi", "Nina", "Paul"], [
        ("deck", {"left": 0, "reason": "recounted"}),
        *[("correct", {"owner": "Tobi", "building": b, "count": n, "reason": "recounted"})
          for b, n in counted.items()]])
    page = text(client.get(url))
    assert "Give out the cards and score C" in page
    assert str(yard.RULINGS["never_drawn"]) in page
    assert "Scoring A card drawn: score now" in page
    assert '<section class="buy">' not in page and "Still buying" not in page
    refused = act(client, url, "buy", player="Tobi", building="skyscraper")
    assert refused.status_code == 422
    assert "The game is over: the display cannot be refilled to 4. Do the final scoring." in (
        text(refused))


def test_the_buy_rows_stay_in_seat_order_and_mark_the_turn(app, client):
    """The player whose turn comes next and the last buyer (who may go on after paying exactly)
    are marked; the rows never change places, so a button stays under the thumb that tapped it
    (issue 23: a second purchase where the first was must be the same player's); before any
    purchase, who starts is marked, once the starting money says who (found at a table: the
    first seat was marked before it was known)."""
    url = new_table(client, "Ann", "Ben", "Cy", "Dan")

    def rows():
        return re.findall(r'<div class="buyer (\w*)">\s*<div class="who"><h3>.*?</span>(\w+)</h3>',
                          text(client.get(url)))

    assert rows() == [("", "Ann"), ("", "Ben"), ("", "Cy"), ("", "Dan")]
    assert act(client, url, "setup", cards_0=5, total_0=25, cards_1=5, total_1=25, cards_2=3,
               total_2=22, cards_3=5, total_3=25).status_code == 303  # Cy starts
    assert rows() == [("", "Ann"), ("", "Ben"), ("next", "Cy"), ("", "Dan")]
    assert "&#9733;</span> Cy starts.</p>" in text(client.get(url))
    assert act(client, url, "buy", player="Cy", building="park").status_code == 303
    assert act(client, url, "buy", player="Dan", building="park").status_code == 303
    # Changing Dan's purchase: the table before it, where Cy has bought (found at a table: it
    # read "Cy starts."); changing Cy's, the first after the set-up: he starts.
    assert "&#9733;</span> Cy started.</p>" in text(client.get(url + "?change=3"))
    assert "&#9733;</span> Cy starts.</p>" in text(client.get(url + "?change=2"))
    assert act(client, url, "undo").status_code == 303
    assert rows() == [("", "Ann"), ("", "Ben"), ("again", "Cy"), ("next", "Dan")]
    assert act(client, url, "buy", player="Ann", building="park").status_code == 303
    assert rows() == [("again", "Ann"), ("next", "Ben"), ("", "Cy"), ("", "Dan")]
    # A scoring card is drawn after a turn of taking money, which the app does not see: Ben's
    # (then Cy is next) or Ann's after paying exactly (then Ben): nobody is marked.
    assert act(client, url, "score", scoring="A").status_code == 303
    assert rows() == [("", "Ann"), ("", "Ben"), ("", "Cy"), ("", "Dan")]
    assert "its card goes in front of the next player, whose turn it is" in text(client.get(url))


def test_with_two_players_who_starts_is_said_in_view_and_in_the_strip(client):
    """Issue 41: with Dirk's first cards due, the answer to "Who starts?" stands in the Dirk
    section on top (not only in the folded set-up), and the strip names who starts."""
    url = new_table(client, "Ann", "Ben")
    assert act(client, url, "setup", cards_0=4, total_0=21, cards_1=3,
               total_1=22).status_code == 303  # Ben: fewer cards
    page = text(client.get(url))
    dirk = page.split('id="dirk"')[1].split("</section>")[0]
    assert "&#9733;</span> Ben starts.</p>" in dirk
    assert "Last: Starting money entered: Ben starts" in page
    german = text(client.get(url, headers=GERMAN))
    assert "Startgeld eingetragen: Ben beginnt" in german


@pytest.mark.parametrize("players, most", [(("Ann", "Ben"), 14), (("Ann", "Ben", "Cy"), 16)])
def test_a_starting_capital_of_more_cards_than_one_can_have_is_refused(client, players, most):
    """Found by a rules audit: 20 cards each at 2 players was taken (that needs 40 ones; the 72
    cards hold 8). A capital is dealt until it reaches 20: at most 14 cards with 2 players' deck,
    16 with the full one. Refused under the field, nothing recorded."""
    url = new_table(client, *players)
    seq = current_seq(client, url)
    fields = {f"{k}_{i}": v for i in range(len(players)) for k, v in (("cards", 4),
                                                                        ("total", 21))}
    refused = client.post(url + "setup", data={**fresh(client, url), **fields,
                                               "cards_0": most + 1, "total_0": 20},
                          headers={"X-Companion": "fetch"})
    assert refused.status_code == 422 and current_seq(client, url) == seq
    assert refused.json == {"field": "cards_0", "refused": (
        f"Ann: cards: no starting capital has more than {most} cards (it is dealt until it "
        "reaches 20).")}
    assert act(client, url, "setup", **{**fields, "cards_0": most, "total_0": 20}
               ).status_code == 303


def test_the_set_up_opened_again_shows_what_was_entered_and_the_piles(client):
    """Found at a table: after "Who starts?" the set-up, opened again, showed blank fields and
    the button, as if nothing had been kept, and the money piles only there. It shows what was
    entered; Dirk's first deal and the strip say the piles."""
    url = new_table(client, "Ann", "Ben")
    assert act(client, url, "setup", cards_0=4, total_0=21, cards_1=3,
               total_1=22).status_code == 303
    setup = text(client.get(url + "?open=setup")).split('id="setup"')[1].split("</details>")[0]
    for name, value in (("cards_0", 4), ("total_0", 21), ("cards_1", 3), ("total_1", 22)):
        assert re.search(rf'name="{name}"[^>]* value="{value}"', setup), name
    dirk = text(client.get(url)).split('id="dirk"')[1].split("</section>")[0]
    assert "five piles of <strong>13, 12, 12, 12, 12</strong> cards" in dirk


def test_the_end_changed_opens_filled_in_as_recorded(app, client):
    """Found playing: Change on the yard's end opened its form blank, so the players had to
    remember and tap again who took every card left on display. It opens with each card's
    taker (or nobody) chosen as recorded; sent as it opens, it changes nothing."""
    url = new_table(client, *yard_example.PLAYERS)
    seed_on(app, url, yard_example.PLAYERS,
            [*yard_example.GAME_OVER, ("buy", {"player": "Cy", "building": "museum"})])
    page = text(client.get(url))
    buildings = re.findall(r'class="chip-card b-(\w+)"', page.split('id="end"')[1])
    takers = ["Ann", None]
    assert buildings == ["church", "skyscraper"]
    answer = act(client, url, "final", **{f"to_{k}": "nobody" if to is None else str(
        yard_example.PLAYERS.index(to)) for k, to in enumerate(takers)})
    assert answer.status_code == 303
    seq = current_seq(client, url)
    form = text(client.get(f"{url}?change={seq}")).split('id="end"')[1]
    chosen = re.findall(r'name="(to_\d)" value="(\w+)" checked', form)
    assert chosen == [("to_0", "0"), ("to_1", "nobody")]
    fields = fresh(client, f"{url}?change={seq}") | dict(chosen)
    assert "Nothing changes" in text(client.post(f"{url}final?change={seq}", data=fields))


def test_the_end_changed_after_another_change_asks_anew_for_a_card_it_did_not_record(
        app, client):
    """Found at a table: a purchase changed (a museum for another building) left other cards on
    display, and the end, changed too, opened with the takers recorded by their place: "nobody
    took the skyscraper" came back as the 2nd card's, a card nobody had answered for. Each card
    recorded keeps its taker; one not recorded is asked anew."""
    url = new_table(client, *yard_example.PLAYERS)
    seed_on(app, url, yard_example.PLAYERS,
            [*yard_example.GAME_OVER, ("buy", {"player": "Cy", "building": "museum"})])
    bought = current_seq(client, url)
    assert act(client, url, "final", to_0="0", to_1="nobody").status_code == 303  # church: Ann
    fields = fresh(client, f"{url}?change={bought}")  # Cy's museum was a church
    preview = text(client.post(f"{url}buy?change={bought}",
                               data={**fields, "player": "Cy", "building": "church"}))
    also = re.search(r'href="([^"]*also=\d+[^"]*)"', preview).group(1).replace("&amp;", "&")
    form = text(client.get(also)).split('id="end"')[1].split("</form>")[0]
    buildings = re.findall(r'class="chip-card b-(\w+)"', form)
    assert buildings == ["museum", "skyscraper"]  # the church bought: the museum on display
    chosen = re.findall(r'name="(to_\d)" value="(\w+)" checked', form)
    assert chosen == [("to_1", "nobody")]  # the skyscraper as recorded; the museum asked


def test_alike_leftover_cards_given_to_one_player_are_said_once_with_how_many(app, client):
    """Two parks left on blue spaces both go to Nina (the most blue money): the result and the
    score sheet say "Park ×2 (blue): Nina" once, not the same line twice; the museum, a tie,
    as before."""
    from tests.tables import YARD, seed

    names, actions = YARD
    final = ("final", {**actions[-1][1], "leftovers": [
        {"building": "park", "currency": "blue"}, {"building": "museum", "currency": "green"},
        {"building": "park", "currency": "blue"}]})
    url = f"/yard/{seed(app, 'yard', names, [*actions[:-1], final])}/"
    page = text(client.get(url))
    assert "<li>Park ×2 (blue): Nina</li><li>Museum (green): unsold (tie or no money)</li>" \
        in page, re.search(r"Leftover cards:.*?</ul>", page, re.S).group(0)
    sheet = pdf_words(client.get(url + "sheet.pdf?size=A4").data)
    assert "Leftover display cards: Park ×2 (blue) to Nina; Museum (green) to nobody" in sheet


def test_a_tap_just_made_on_another_screen_is_said_as_what_was_recorded(client):
    """Found at a table: an Undo tapped on two phones, and a purchase on the second phone tapped
    again on the first's older screen, were both answered "That was already recorded, so it was
    not added again": nothing of this tap was recorded, and the same purchase twice may be two.
    Each is refused as before, saying what was just recorded and how to record one more."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    act(client, url, "buy", player="Tobi", building="park")
    seq = current_seq(client, url)
    assert act(client, url, "undo", seq=seq).status_code == 303
    again = act(client, url, "undo", seq=seq)
    assert again.status_code == 409 and current_seq(client, url) == seq + 1
    assert ("Undo of “Tobi bought a park” was just tapped, as this tap would have: it was not "
            "done twice.") in text(again)
    redone = act(client, url, "redo", seq=seq + 1)
    late = act(client, url, "buy", seq=seq + 1, player="Tobi", building="church")
    assert redone.status_code == 303 and late.status_code == 409
    assert ("The table changed since this screen was loaded (Redo of “Tobi bought a park”), so "
            "this tap was not recorded.") in text(late)
    seq = current_seq(client, url)
    act(client, url, "buy", seq=seq, player="Nina", building="park")
    twice = act(client, url, "buy", seq=seq, player="Nina", building="park")
    assert twice.status_code == 409 and current_seq(client, url) == seq + 1
    assert ("Just recorded: Nina bought a park. This tap was not recorded again; if it was one "
            "more, tap it again on the page as it is now.") in text(twice)
    act(client, url, "buy", seq=seq + 1, player="Tobi", building="church")
    other = act(client, url, "buy", seq=seq, player="Nina", building="park")  # found at a
    assert other.status_code == 409 and current_seq(client, url) == seq + 2  # table: unsaid
    assert ("The table changed since this screen was loaded (Nina bought a park; Tobi bought a "
            "church), so this tap was not recorded: it may be “Nina bought a park”, recorded "
            "already. If this was one more, tap it again on the page as it is now.") in text(other)
    seq = current_seq(client, url)  # a scoring is not taken twice: no "tap it again"
    act(client, url, "score", seq=seq, scoring="A")
    scored = act(client, url, "score", seq=seq, scoring="A")
    assert scored.status_code == 409 and "Just recorded: Scoring A" in text(scored)
    assert "This tap was not recorded again. The page now shows the table as it is." \
        in text(scored) and "tap it again" not in text(scored)
    seq = current_seq(client, url)
    act(client, url, "buy", seq=seq, player="Nina", building="park")
    german = act_in_german(client, url, "buy", seq=seq, player="Nina", building="park")
    assert "Gerade eingetragen: Nina hat einen Park gekauft." in text(german)


@pytest.mark.parametrize("typed", ["1_0", "+5", "٣", "2.5", "1e3", "0x1"])
def test_a_number_no_number_field_sends_is_refused_and_changes_nothing(client, typed):
    """Found in an audit: int() read a tampered form's "1_0" as 10 ("Correction: 10 building
    cards left in the deck"), "+5" as 5 and "٣" as 3. Only ASCII digits are a number."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    seq = current_seq(client, url)
    refused = act(client, url, "deck", left=typed, reason="counted")
    assert refused.status_code == 400
    assert "Not a valid integer value." in text(refused)
    assert current_seq(client, url) == seq
    assert act(client, url, "deck", left=" 10 ", reason="counted").status_code == 303


def test_a_form_with_a_field_sent_twice_is_refused_and_changes_nothing(client):
    """Found in an audit: a second player field put before Ann's in her purchase row (a form
    the page never makes) recorded "Ben bought a park" for the tap on Ann's park: WTForms read
    the first. Two different values of one field are refused; the same one twice is a value."""
    url = new_table(client, "Ann", "Ben", "Cy")
    seq, key = screen(client, url)
    sent = MultiDict([("seq", seq), ("key", key), ("player", "Ben"), ("player", "Ann"),
                      ("building", "park")])
    refused = client.post(url + "buy", data=sent)
    assert refused.status_code == 400
    assert "two different values were sent" in text(refused)
    assert current_seq(client, url) == seq
    seq, key = screen(client, url)
    same = MultiDict([("seq", seq), ("key", key), ("player", "Ann"), ("player", "Ann"),
                      ("building", "park")])
    assert client.post(url + "buy", data=same).status_code == 303
    assert "Ann bought a park" in text(client.get(url + "history"))


def test_names_head_the_majorities_upright_only_where_across_they_would_break():
    """Across, a name's column needs about 8 px a letter of its longest word and 7 more; the
    names share 168 px at 320 px, 238 at 390."""
    assert names_head(["Ann", "Ben", "Maximilian"]) == ""  # 31 + 31 + 87
    assert names_head(["Jo & Kim", "Al Bo", "Cy"]) == ""  # broken between words only
    assert names_head(["Ann", "Ben", "Cy", "Maximilian"]) == "upright-narrow"  # 172
    assert names_head(["Maximilian", "Alexandra", "Konstantin"]) == "upright-any"  # 253
