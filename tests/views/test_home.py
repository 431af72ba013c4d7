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


def test_more_players_than_the_form_has_seats_are_refused_not_left_out(app, client):
    """A tampered form with a 7th name is refused in words, not started with six of them
    (WTForms' FieldList reads its six seats and drops the rest); a tampered colour is named."""
    names = {f"players-{n}-name": f"P{n + 1}" for n in range(7)}
    answer = client.post("/new", data={"game": "yard", **names})
    assert answer.status_code == 422
    assert "is played by 2 to 6 players." in text(answer)
    colour = client.post("/new", data={"game": "yard", "players-0-name": "Ann",
                                       "players-1-name": "Ben",
                                       "players-1-colour": "javascript:alert(1)"})
    assert colour.status_code == 422
    assert "Choose each player&#39;s colour from its list." in text(colour)
    db = storage.connect(app.config["DATABASE"])
    try:
        assert db.execute("select count(*) from tables").fetchone()[0] == 0
    finally:
        db.close()
    blank = client.post("/new", data={"game": "yard", "players-0-name": "Ann",
                                      "players-1-name": "Ben", "players-7-name": " "})
    assert blank.status_code == 303  # a blank seat past the form's is no player


def test_the_games_with_an_automated_opponent_say_so_and_names_say_their_length(client):
    """Found at a table: a group typed "Dirk" as a third player and got a 3-player game."""
    page = text(client.get("/"))
    assert "2-6 players; with 2, the app plays Dirk" in page
    assert "2-4 players; with 2, the app plays Alea" in page
    assert "Names of up to 24 characters" in page


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


def test_a_name_with_emoji_is_never_cut_by_the_field_and_a_long_one_is_refused_in_words(client):
    """Found at a table: the field's maxlength of 24 counted an emoji as two (UTF-16 units) and
    cut the last one off without a word, though the rules take 24 characters. The field now
    lets 48 units through; the rules' limit answers a longer name, keeping what was typed."""
    page = text(client.get("/"))
    assert page.count('maxlength="48"') == 6 and 'maxlength="24"' not in page
    emoji = "Grandma Ingeborg Smith 🐙"  # 24 characters, 25 UTF-16 units
    assert len(emoji) == 24 and len(emoji.encode("utf-16-le")) // 2 == 25
    assert "/yard/" in new_table(client, emoji, "Ben")
    long = "Grandma Ingeborg Smithers"  # 25 characters
    answer = client.post("/new", data={"game": "yard", "players-0-name": long,
                                       "players-1-name": "Ben"})
    assert answer.status_code == 422
    assert "is longer than 24 characters." in text(answer)
    assert f'value="{long}"' in text(answer)  # what was typed stays
    german = client.post("/new", data={"game": "yard", "players-0-name": long,
                                       "players-1-name": "Ben"}, headers=GERMAN)
    assert "Der Name „Grandma Ingeborg Smither…“ ist länger als 24 Zeichen." in text(german)
    # Said under the seat's own field too, which is marked (found at a table: only at the top)
    seat = re.search(r'<input[^>]*name="players-0-name"[^>]*>', text(german)).group(0)
    assert 'aria-invalid="true"' in seat and 'aria-describedby="players-0-name-error"' in seat
    assert re.search(r'<span class="field-error seat-error" id="players-0-name-error">Der Name '
                     r'„Grandma Ingeborg Smither…“ ist länger', text(german))
    assert text(german).count('aria-invalid="true"') == 1


def test_the_seat_a_refusal_names_is_the_one_marked(client):
    """Dirk is the yard's automated opponent with two players: the seat named "Dirk" is marked,
    not "Dirkje" above it, whose name begins alike."""
    answer = client.post("/new", data={"game": "yard", "players-0-name": "Dirkje",
                                       "players-1-name": "Dirk"})
    assert answer.status_code == 422
    marked = re.findall(r'<input[^>]*aria-invalid="true"[^>]*>', text(answer))
    assert len(marked) == 1 and 'name="players-1-name"' in marked[0]
