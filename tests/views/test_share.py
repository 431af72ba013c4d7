"""Several phones on one table: joining by link, the view-only scoreboard, revoking links."""

import re

import pytest
from markupsafe import escape

from companion import storage
from companion.app import get_db
from companion.rules import GAMES, replay
from tests.conftest import act, new_table
from tests.tables import FINISHED, seed


def table_id(url):
    return url.strip("/").split("/")[-1]


def links(client, url):
    page = client.get(url + "share").get_data(as_text=True)
    join = re.search(r'href="(http://localhost/j/[^"]+)"', page).group(1)
    board = re.search(r'href="(http://localhost/board/[^"]+)"', page).group(1)
    return page, join.removeprefix("http://localhost"), board.removeprefix("http://localhost")


def started_with_a_purchase(client):
    url = new_table(client, "Tobi", "Nina", "Cy")
    assert act(client, url, "buy", player="Tobi", building="park").status_code == 303
    return url


def test_the_share_page_has_a_qr_code_and_a_link_for_scorers_and_for_the_scoreboard(client):
    url = started_with_a_purchase(client)
    page, join, board = links(client, url)
    assert page.count('<svg') == 2 and page.count('class="qr"') == 2
    assert join == f"/j/{table_id(url)}"
    assert board.startswith("/board/") and table_id(url) not in board


def test_a_second_phone_joins_by_the_link_and_can_score(app, client):
    url = started_with_a_purchase(client)
    _, join, _ = links(client, url)
    other = app.test_client()
    joined = other.get(join)
    assert (joined.status_code, joined.headers["Location"]) == (303, url)
    assert b"Construction yard" in other.get("/").data  # remembered on the second phone
    assert act(other, url, "buy", player="Nina", building="museum").status_code == 303
    assert len(storage.events(storage.connect(app.config["DATABASE"]), table_id(url))) == 2


def test_the_scoreboard_shows_totals_and_last_actions_but_no_way_to_act(app, client):
    url = started_with_a_purchase(client)
    _, _, board = links(client, url)
    viewer = app.test_client()
    page = viewer.get(board).get_data(as_text=True)
    assert "Tobi" in page and "bought" in page.lower()
    assert "<form" not in page.split("<main>")[1]  # only the header's language links
    assert table_id(url) not in page
    assert 'data-follow="reload"' in page and '<meta http-equiv="refresh"' in page


def test_the_scoreboard_ranks_the_players_and_shows_dirk_apart(app, client):
    """Found at a table: "Dirk 12 / Ann 0 / Ben 0" read as Dirk leading; he cannot win."""
    url = "/yard/{}/".format(seed(app, "yard", ["Ann", "Ben"], [
        ("dirk_deal", {"buildings": {"park": 6}}),
        ("buy", {"player": "Ben", "building": "museum"}), ("score", {"scoring": "A"})]))
    _, _, board = links(client, url)
    page = app.test_client().get(board).get_data(as_text=True)
    ranked = page.split('<ol class="board-totals">')[1].split("</ol>")[0]
    assert re.findall(r"<strong>([^<]+)</strong>", ranked) == ["Ben", "Ann"]
    assert "Dirk" not in ranked
    assert re.search(r"<p>Dirk: \d+ \(cannot win\)</p>", page)


def test_the_view_only_link_cannot_be_used_as_a_table_link(app, client):
    url = started_with_a_purchase(client)
    _, _, board = links(client, url)
    token = board.split("/")[-1]
    viewer = app.test_client()
    assert viewer.get(f"/yard/{token}/").status_code == 404
    assert viewer.post(f"/yard/{token}/buy", data={"seq": 1, "player": "Cy",
                                                    "building": "park"}).status_code == 404
    assert viewer.get(f"/j/{token}").status_code == 404
    assert viewer.post(board, data={"seq": 1}).status_code == 405
    assert viewer.get(f"/yard/{token}/share").status_code == 404


def test_both_pages_can_poll_for_the_last_event_number(app, client):
    url = started_with_a_purchase(client)
    _, _, board = links(client, url)
    assert client.get(url + "seq").get_json()["seq"] == 1
    assert app.test_client().get(board + "/seq").get_json()["seq"] == 1
    act(client, url, "buy", player="Nina", building="museum")
    assert app.test_client().get(board + "/seq").get_json()["seq"] == 2
    page = client.get(url).get_data(as_text=True)
    assert f'data-poll="{url}seq" data-seq="2"' in page


def test_the_starter_revokes_the_links_and_nothing_of_the_game_is_lost(app, client):
    url = started_with_a_purchase(client)
    _, join, board = links(client, url)
    renewed = client.post(url + "renew")
    assert renewed.status_code == 303
    new_url = renewed.headers["Location"].removesuffix("share")
    assert new_url != url
    for old in (url, join, board):
        assert app.test_client().get(old).status_code == 404
    assert "Tobi" in client.get(new_url + "history").get_data(as_text=True)
    assert act(client, new_url, "buy", player="Nina", building="museum").status_code == 303
    _, _, new_board = links(client, new_url)
    assert new_board != board and app.test_client().get(new_board).status_code == 200


def test_only_the_phone_that_started_the_table_may_revoke(app, client):
    url = started_with_a_purchase(client)
    _, join, _ = links(client, url)
    other = app.test_client()
    other.get(join)
    assert other.post(url + "renew").status_code == 403
    assert "Only the phone that started" in other.get(url + "share").get_data(as_text=True)
    assert client.get(url).status_code == 200


@pytest.fixture
def strict_app(tmp_path, monkeypatch):
    from companion.app import create_app

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.sqlite"),
                       "WTF_CSRF_ENABLED": False, "RATE_LIMITS": {"new": (3, 600),
                                                                  "import": (3, 600)}})


def test_starting_tables_is_rate_limited_per_client(strict_app):
    phone = strict_app.test_client()
    for _ in range(3):
        new_table(phone, "Tobi", "Nina")
    refused = phone.post("/new", data={"game": "yard", "players-0-name": "A",
                                       "players-1-name": "B"})
    assert refused.status_code == 429
    assert "wait a few minutes" in refused.get_data(as_text=True)
    other = strict_app.test_client()
    answer = other.post("/new", data={"game": "yard", "players-0-name": "A",
                                      "players-1-name": "B"},
                        environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert answer.status_code == 303


@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_the_scoreboard_says_the_final_result_as_the_table_page_does(app, client, slug):
    """Found at a table: the scoreboard read "1. Cleo 14 wins, 2. Bartholomew 14", the
    tallest building that decided unsaid, and a shared 3rd place as "3." twice. It says the
    verdict, how a tie was broken, and a shared place as one."""
    names, actions = FINISHED[slug]
    url = f"/{slug}/{seed(app, slug, names, actions)}/"
    _, _, board = links(client, url)
    page = app.test_client().get(board).get_data(as_text=True)
    with app.app_context():
        state = replay(GAMES[slug], names, storage.events(get_db(), table_id(url))).state
    assert state.finished
    assert f'<p class="verdict">{escape(str(state.verdict()))}</p>' in page
    ranked = page.split('<ol class="board-totals">')[1].split("</ol>")[0]
    shared = [p for p in state.ranking() if p.shared and p.place > 1]
    assert ranked.count("shared place") == len(shared)
