"""Players across tables through the Flask test client: finished tables, statistics, charts."""

import json
import re
import xml.etree.ElementTree as ET

import pytest

from companion.app import get_db
from companion.views.players import known_players
from tests.conftest import act, new_table, text
from tests.tables import seed_on
from tests.yard_moves import ended_early

SVG = "{http://www.w3.org/2000/svg}"


def play_yard(app, client, *names):
    """A yard game to its end: the first buys a park (37), the second a skyscraper (40). It
    ends early, as a log from before the app knew the end could (an imported table)."""
    url = new_table(client, *names)
    act(client, url, "buy", player=names[0], building="park")
    act(client, url, "buy", player=names[1], building="skyscraper")
    act(client, url, "score", scoring="A")
    act(client, url, "score", scoring="B")
    seed_on(app, url, names, [ended_early(names)])
    return url


def play_street(client, *names):
    """A street game ended at once: the start player's 1st action takes the last card of a
    short deck, and one round of turns that build nothing (each free card discarded, each
    public card taken and discarded) is the final round: everyone has the same score, a shared
    victory."""
    url = new_table(client, *names, game="street")
    assert act(client, url, "deck_empty", player=names[0], by=names[0],
               drawn="y").status_code == 303
    for name in names:
        assert act(client, url, "discard", player=name).status_code == 303
        assert act(client, url, "buy", player=name, deck="public").status_code == 303
        assert act(client, url, "discard", player=name).status_code == 303
    assert act(client, url, "finish").status_code == 303
    return url


@pytest.fixture
def played(app, client):
    """Two yard games, one street game and an unfinished table."""
    urls = [play_yard(app, client, "Tobi", "Nina", "Paul"),
            play_yard(app, client, "nina", "tobi", "Ola"),
            play_street(client, "Mia", "tobi", "Ola")]
    new_table(client, "Zoe", "Tobi", game="urbanisation")
    return urls


def test_finished_tables_per_game_with_winners_and_no_table_links(client, played):
    page = text(client.get("/players"))
    assert "Construction yard card game <small>(2)</small>" in page
    assert "Street card game <small>(1)</small>" in page
    assert "Winner: Nina" in page and "Winner: tobi" in page
    assert "Shared victory" in page and "Winners: Mia, tobi, Ola" in page
    assert '<span class="pl-place">2nd</span> Tobi <span class="pl-total">37</span>' in page
    for url in played:  # a table's link is its scorers' secret
        assert url.split("/")[2] not in page
    assert "Zoe" not in page  # her table is not finished


def test_the_list_of_players_counts_games_and_wins(client, played):
    page = text(client.get("/players"))
    rows = re.findall(r'<a href="(/players/\w+)">(\w+)</a></th><td>(\d+)</td><td>(\d+)</td>', page)
    assert rows == [
        ("/players/tobi", "tobi", "3", "2"),  # Tobi at the first table, tobi since
        ("/players/nina", "nina", "2", "1"),
        ("/players/Ola", "Ola", "2", "1"),
        ("/players/Mia", "Mia", "1", "1"),
        ("/players/Paul", "Paul", "1", "0"),
    ]


def test_a_players_page_per_game_ignoring_case(client, played):
    response = client.get("/players/TOBI")
    assert response.status_code == 200
    page = text(response)
    assert "<h1>tobi</h1>" in page
    yard, street = page.split("<h2>")[1:]
    assert "Construction yard card game" in yard and "Street card game" in street
    assert "<dt>Played</dt><dd>2</dd>" in yard and "<dt>Wins</dt><dd>1</dd>" in yard
    assert "<dt>Average</dt><dd>38.5</dd>" in yard and "<dt>Best</dt><dd>40</dd>" in yard
    assert "<dt>Wins</dt><dd>1 <small>(1 shared)</small></dd>" in street


def test_each_chart_is_well_formed_accessible_svg(client, played):
    page = text(client.get("/players/tobi"))
    charts = re.findall(r"<svg .*?</svg>", page, re.S)
    assert len(charts) == 2
    svg = ET.fromstring(charts[0])
    assert svg.get("role") == "img" and svg.get("aria-labelledby") == "chart-yard"
    title = svg.find(f"{SVG}title")
    assert title.get("id") == "chart-yard"
    assert title.text == "Scores of tobi in Construction yard card game, oldest first: 37, 40."
    assert [c.get("cy") for c in svg.iter(f"{SVG}circle")] == ["108.0", "12.0"]
    assert "style" not in charts[0]


def test_the_pages_speak_german(client, played):
    german = {"Accept-Language": "de"}
    page = text(client.get("/players", headers=german))
    assert '<html lang="de">' in page
    assert "<h1>Mitspielende</h1>" in page and "Geteilter Sieg: Mia, tobi, Ola" in page
    assert "Bauhof-Kartenspiel <small>(2)</small>" in page
    assert '<span class="pl-place">2.</span> Tobi <span class="pl-total">37</span>' in page
    player = text(client.get("/players/Nina", headers=german))
    assert "<dt>Schnitt</dt><dd>38,5</dd>" in player
    assert "Punkte von nina in" in player and re.search(r"\d\d\.\d\d\.\d{4}", player)


def test_an_unknown_player_is_a_404_that_says_so(client, played):
    response = client.get("/players/Zoe")
    assert response.status_code == 404
    assert "Nobody called Zoe has finished a game at this phone" in text(response)
    german = client.get("/players/Nobody", headers={"Accept-Language": "de"})
    assert german.status_code == 404
    assert "Niemand namens Nobody hat" in text(german)


def test_no_finished_games_yet(client):
    page = text(client.get("/players"))
    assert "No game has been finished at this phone" in page


def test_names_with_slashes_and_dots_get_working_links(client):
    play_street(client, "A/B", "..")
    page = text(client.get("/players"))
    links = re.findall(r'<th scope="row"><a href="([^"]+)">', page)
    assert sorted(links) == ["/players?name=..", "/players?name=A/B"]
    for link in links:
        assert "<dt>Played</dt><dd>1</dd>" in text(client.get(link.replace("&amp;", "&")))


def test_known_players_for_the_name_suggestions(app, client, played):
    with client.session_transaction() as session:
        mine = session["tables"]
    with app.test_request_context():
        assert known_players(get_db(), mine) == ["Tobi", "Ola", "nina", "Zoe", "Mia", "Paul"]


def test_the_home_page_suggests_only_this_browsers_players(app, client, played):
    home = text(client.get("/"))
    assert '<option value="Tobi">' in home and '<option value="Zoe">' in home
    stranger = app.test_client()
    assert "<option value=" not in text(stranger.get("/")).split("<datalist")[1].split(
        "</datalist>")[0]
    new_table(stranger, "Quinn", "Rae")
    theirs = text(stranger.get("/"))
    assert '<option value="Quinn">' in theirs and '<option value="Tobi">' not in theirs
    assert '<option value="Quinn">' not in text(client.get("/"))



def test_an_imported_copy_of_a_finished_table_is_not_a_second_game(app, client):
    """Found at a table: a finished table exported and imported again on the same phone counted
    twice, every player with two games (and the winner two wins). The copy is the same game,
    begun at the same moment by the same seats; a game played again is another."""
    from tests.tables import upload

    url = play_yard(app, client, "Tobi", "Nina", "Paul")
    before = text(client.get("/players"))
    assert "Construction yard card game <small>(1)</small>" in before
    document = json.loads(client.get(url + "export.json").data)
    assert upload(client, document).status_code == 303
    after = text(client.get("/players"))
    assert "Construction yard card game <small>(1)</small>" in after
    assert re.findall(r"<td>\d+</td>", after) == re.findall(r"<td>\d+</td>", before)
    play_yard(app, client, "Nina", "Tobi", "Paul")  # another game
    assert "Construction yard card game <small>(2)</small>" in text(client.get("/players"))
