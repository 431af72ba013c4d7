"""The home page (issues 23 and 26): this browser's tables first, then the new-table form with the
game and the number of seats of its latest table; a new browser has no game chosen."""

import re
from datetime import timedelta

from companion import storage
from tests.conftest import GERMAN, new_table, text


def checked_games(page):
    return re.findall(r'<input[^>]*checked[^>]*name="game"[^>]*value="(\w+)"|'
                      r'<input[^>]*name="game"[^>]*value="(\w+)"[^>]*checked', page)


def open_seats(page):
    """The name fields shown before the "More players" fold-out."""
    return page.split('class="more-seats"')[0].count('placeholder="Player ')


def test_a_new_browser_has_no_game_chosen_and_four_seats_open(client):
    """Issue 42: six name rows for games of at most four (three of the four games): four
    open, the 5th and 6th under "More players"."""
    page = text(client.get("/"))
    assert checked_games(page) == [] and "Your tables" not in page
    assert "<h1>New table</h1>" in page and open_seats(page) == 4
    assert "More players" in page and page.count('placeholder="Player ') == 6


def test_a_missing_game_is_refused_with_words(client):
    answer = client.post("/new", data={"players-0-name": "Ann", "players-1-name": "Ben"})
    assert answer.status_code == 422
    assert "Choose the game first: tap one of the games, then start it again." in text(answer)
    assert 'value="Ann"' in text(answer)  # the names stay
    german = client.post("/new", data={"players-0-name": "Ann"}, headers=GERMAN)
    assert "Wähle zuerst das Spiel" in text(german)


def test_your_tables_come_first_and_the_latest_game_and_seats_are_offered(app, client):
    first = new_table(client, "Ann", "Ben", "Cy", "Dee", game="yard")
    db = storage.connect(app.config["DATABASE"])
    try:  # an hour before the next one (two tables started within a second are not told apart)
        db.execute("update tables set created_at = ? where id = ?",
                   [storage.now(-timedelta(hours=1)), first.strip("/").split("/")[-1]])
        db.conn.commit()
    finally:
        db.close()
    new_table(client, "Ann", "Ben", "Cy", game="street")
    page = text(client.get("/"))
    assert page.index("<h1>Your tables</h1>") < page.index("<h2>New table</h2>")
    assert [c for pair in checked_games(page) for c in pair if c] == ["street"]
    assert open_seats(page) == 4 and "More players" in page  # a group of 3 may be 4 next time
    assert page.count('placeholder="Player ') == 6  # two more in the fold-out


def test_your_tables_times_are_marked_for_the_phones_clock_and_said_as_utc(client):
    new_table(client, "Ann", "Ben", game="yard")
    page = text(client.get("/"))
    stamp = re.search(r'<time datetime="([^"]+)" data-show="date">([^<]+)</time>', page)
    assert stamp and stamp.group(2).endswith(" UTC")
    assert stamp.group(2).startswith(stamp.group(1)[:16].replace("T", " "))
