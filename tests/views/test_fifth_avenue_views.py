"""5th Avenue through the Flask test client: set-up, the board, auctions with Alea, the end."""

from companion.rules.fifth_avenue_table import DISTRICT_IDS
from tests.conftest import act, current_seq, new_table

ROW = ["boutique", "jeweler", "gallery", "perfume"] * 5


def text(response):
    return response.get_data(as_text=True)


def set_up(client, *names):
    url = new_table(client, *names, game="fifth_avenue")
    assert "Use the saved board" in text(client.get(url))
    assert act(client, url, "board/saved").status_code == 303
    data = {f"plot_{d}": "0" for d in DISTRICT_IDS}
    data |= {f"kind_{d}": "boutique" for d in DISTRICT_IDS}
    data |= {f"row_{k}": kind for k, kind in enumerate(ROW)}
    assert act(client, url, "setup", **data).status_code == 303
    return url


def test_a_two_player_game_with_alea_through_an_auction_round(client):
    url = set_up(client, "Ann", "Ben")
    assert "Who places the first skyscraper?" in text(client.get(url))
    act(client, url, "first", player="Ann")
    assert "Ann: place a skyscraper" in text(client.get(url))
    for target in ("34w:1", "34e:1", "times:2", "times:1"):
        assert act(client, url, "plot", target=target).status_code == 303
    page = text(client.get(url))
    assert "Place a business" in page and "Ben ×1" in page.replace("&times;", "×")
    assert act(client, url, "plot", target="34w:3", tile=0).status_code == 303
    for to in ("34w", "times", "52w", "central_park", "city_hall"):
        assert act(client, url, "move", commissioner="white", to=to).status_code == 303, to
    page = text(client.get(url + "?high=10"))
    assert "Auction: 34th St West" in page and "Alea beats 10 with probability" in page
    refused = act(client, url, "auction", winner="Ann", colour="violet")
    assert refused.status_code == 422 and "Alea bids third" in text(refused)
    bad = act(client, url, "alea", high_bid=10, cards="4 6 5")
    assert bad.status_code == 422 and "Alea beats 10 with probability" in text(bad)
    response = act(client, url, "alea", high_bid=10, cards="4654")
    assert response.status_code == 303
    page = text(client.get(url))
    assert "= <strong>19</strong> against 10" in page and "Alea is in" in page
    assert act(client, url, "auction", winner="alea").status_code == 303
    page = text(client.get(url))
    assert "Auction: Times Square" in page
    drawn = act(client, url, "alea", high_bid=30, draw="y")
    assert drawn.status_code == 303
    assert "Alea is out" in text(client.get(url))


def test_refusals_say_why_and_change_nothing(client):
    url = set_up(client, "Ann", "Ben", "Cy")
    act(client, url, "first", player="Ann")
    act(client, url, "plot", target="34w:1")
    seq = current_seq(client, url)
    refused = act(client, url, "plot", target="34w:1")
    assert refused.status_code == 422 and "Initial skyscrapers go on empty plots." in text(refused)
    assert act(client, url, "plot", target="nowhere").status_code == 422
    assert current_seq(client, url) == seq
    bad = act(client, url, "move", commissioner="white", to="times")
    assert bad.status_code == 422 and "First place the initial skyscrapers." in text(bad)


def test_the_board_profile_is_remembered_for_the_next_table(client):
    url = new_table(client, "Ann", "Ben", game="fifth_avenue")
    assert "Board colours" in text(client.get(url + "board"))
    data = {f"{d}_{k}": c for d in DISTRICT_IDS
            for k, c in enumerate(["green", "brown", "gray", "orange", "violet"])}
    data["set_sizes"] = "2 3 2 3 2 3 2 3"
    assert act(client, url, "board", **data).status_code == 303
    second = new_table(client, "Cy", "Di", game="fifth_avenue")
    act(client, second, "board/saved")
    page = text(client.get(second + "board"))
    assert 'value="2 3 2 3 2 3 2 3"' in page
    third = new_table(client, "Ed", "Flo", game="fifth_avenue")
    refused = act(client, third, "board", **dict(data, set_sizes="3 3 3 3 2 2 2 2"))
    assert refused.status_code == 422 and "holds five spaces" in text(refused)


def test_alea_is_a_reserved_name(client):
    response = client.post("/new", data={"game": "fifth_avenue", "players-0-name": "alea",
                                         "players-1-name": "Ben", "players-2-name": "Cy"})
    assert response.status_code == 422 and "automated opponent" in text(response)


def test_fifth_avenue_pdfs(client):
    url = set_up(client, "Ann", "Ben")
    assert client.get(url + "sheet.pdf").data.startswith(b"%PDF")
    assert client.get("/pad/fifth_avenue.pdf?players=4&size=A4").data.startswith(b"%PDF")
