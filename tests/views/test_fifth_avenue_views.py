"""5th Avenue through the Flask test client: set-up, the board, auctions with Alea, the end."""

import html
import json
import re
from pathlib import Path

import pytest

from companion import storage
from companion.rules.fifth_avenue_table import DISTRICT_IDS
from companion.views.clients import MAX_OWNED_TABLES, MAX_REMEMBERED_TABLES
from tests.conftest import (
    GERMAN,
    act,
    at_first_auction,
    current_seq,
    drawn_table,
    fresh,
    new_table,
    pdf_words,
    set_up,
    text,
)
from tests.tables import FINISHED, held, seed


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
    refused = act(client, url, "auction", bid="Ann:orange", build=1)
    assert refused.status_code == 422 and "Alea bids third" in text(refused)
    bad = act(client, url, "alea", high_bid=10, cards="4 6 5")
    assert bad.status_code == 422 and "Alea beats 10 with probability" in text(bad)
    typed = client.post(url + "alea", data={**fresh(client, url), "high_bid": 10,
                                            "cards": "4 6 5"}, headers={"X-Companion": "fetch"})
    assert typed.json == {"field": "cards", "refused": "No value has repeated yet: turn over "
                                                       "another black card for Alea."}
    # A card no black card is (found at a table: "4 7 4" was said over the strip): under them.
    typed = client.post(url + "alea", data={**fresh(client, url), "high_bid": 10,
                                            "cards": "4 7 4"}, headers={"X-Companion": "fetch"})
    assert typed.json == {"field": "cards", "refused": "Enter the black cards' values, 4, 5 or "
                                                       "6, in the order flipped."}
    response = act(client, url, "alea", high_bid=10, cards="4654")
    assert response.status_code == 303
    page = text(client.get(url))
    cards = "".join(f'<span class="card-value">{c}</span>' for c in (4, 6, 5, 4))
    assert cards not in page  # read out and copied as "4654"
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())
    assert "Alea's cards: 4 + 6 + 5 + 4 = 19 against 10: Alea is in." in said
    assert act(client, url, "auction", winner="alea").status_code == 303
    page = text(client.get(url))
    assert "Auction: Times Square" in page
    drawn = act(client, url, "alea", high_bid=30, draw="y")
    assert drawn.status_code == 303
    assert "Alea is out" in text(client.get(url))


def test_the_placing_comes_into_view_after_the_set_up_and_says_who_placed_first(client):
    """Found at a table: at 320 px the page stood at the foot of the set-up's long form, and
    "Who places the first skyscraper?" was out of view; later "Ida places first" read as if
    Ida were placing while Kim was."""
    url = set_up(client, "Ida", "Jon", "Kim")
    page = text(client.get(url))
    assert re.search(r'<section class="card next" data-into-view="done">\s*<h2>Who places the '
                     r'first skyscraper\?</h2>', page)
    act(client, url, "first", player="Ida")
    assert "Ida places first and takes the first turn." in text(client.get(url))
    act(client, url, "plot", target="34w:1")
    page = text(client.get(url))
    assert "Ida, who placed first, takes the first turn." in page and "places first" not in page
    for target in ("34e:1", "52w:1", "52e:1", "42w:1"):  # Kim, Jon, Jon, Kim
        assert act(client, url, "plot", target=target).status_code == 303
    page = text(client.get(url))  # Ida places the last one (found at a table: "places first")
    assert "Ida: place a skyscraper" in page and "places first" not in page


def test_a_district_where_the_placer_has_a_plot_takes_no_initial_skyscraper(client):
    """Found at a table: Jon's second initial skyscraper, a plot of 34th St West where he had
    placed his first, looked as open as any and was refused once tapped ("one plot per
    district"). Its plots take no tap; the other districts' empty plots do."""
    url = set_up(client, "Ida", "Jon")
    act(client, url, "first", player="Ida")
    assert act(client, url, "plot", target="34w:1").status_code == 303  # Ida
    assert act(client, url, "plot", target="52w:1").status_code == 303  # Jon, then Jon again
    page = text(client.get(url))
    taps = set(re.findall(r'name="target" value="(\w+):(\d)"', page))
    assert not {t for t in taps if t[0] == "52w"} and ("34w", "2") in taps, sorted(taps)
    assert {t for t in taps if t[0] == "52e"}
    refused = act(client, url, "plot", target="52w:2")
    assert refused.status_code == 422
    assert "Jon already has a plot in 52nd St West: one plot per district." in text(refused)
    assert "One plot per district: not in 52nd St West, where Jon has one." in page
    assert act(client, url, "plot", target="34w:2").status_code == 303  # Jon's second
    page = text(client.get(url))  # Ida's second: not in 34th St West
    assert "One plot per district: not in 34th St West, where Ida has one." in page
    taps = set(re.findall(r'name="target" value="(\w+):(\d)"', text(client.get(url))))
    assert not {t for t in taps if t[0] == "34w"} and ("52w", "2") in taps  # Ida's second


def test_alea_s_bid_changed_keeps_the_cards_drawn(client):
    """Found at a table: the high bid typed as 8, not 13; Alea's 5 5 won. Changed, the form
    opened empty under a big "Draw Alea's cards", which drew new cards (6 5 4 4: Alea in
    again, and another draw each time). The cards drawn stay: only the high bid changes."""
    url = at_first_auction(client)
    assert act(client, url, "alea", high_bid=8, cards="5 5").status_code == 303
    cards = "5 5"
    assert act(client, url, "auction", winner="alea").status_code == 303
    history = text(client.get(url + "history"))
    seq = re.search(r"#(\d+)</span>\s*34th St West: Alea draws", history)[1]
    page = text(client.get(url + f"?change={seq}"))
    assert f"Changing #{seq}: 34th St West: Alea&#39;s cards 5 5 against a high bid of 8" in page
    assert f'<input name="cards" autocomplete="off" value="{cards}">' in page
    assert "Draw Alea&#39;s cards" not in page and "Use these cards" in page
    fields = fresh(client, url + f"?change={seq}")
    preview = text(client.post(url + f"alea?change={seq}",
                               data={"high_bid": 99, "cards": cards, **fields}))
    assert "Alea draws 5 5 and bids 10 against 99: Alea is out." in preview


def test_alea_s_bid_undone_is_entered_again_with_the_same_cards(client):
    """The same at a bid undone: the cards drawn are face up at the table (and the app's draw
    again would let a table draw until it liked the cards). Redo restores the bid as it was."""
    url = at_first_auction(client)
    act(client, url, "alea", high_bid=8, draw="y")
    cards = re.search(r"Alea draws ([4-6 ]+) and bids", text(client.get(url + "history")))[1]
    assert act(client, url, "undo").status_code == 303
    page = text(client.get(url))
    assert f'<input name="cards" autocomplete="off" value="{cards}">' in page
    assert "These cards were drawn for this auction" in page and "Draw Alea" not in page
    assert act(client, url, "alea", high_bid=9, cards=cards).status_code == 303
    assert f"Alea draws {cards} and bids" in text(client.get(url + "history"))
    assert act(client, url, "undo").status_code == 303
    assert act(client, url, "redo").status_code == 303
    assert "Draw Alea" not in text(client.get(url))  # the bid is back: no form for it


def test_alea_s_cards_stay_after_undo_past_them_and_the_earlier_action_entered_again(client):
    """Found by an audit: Alea's bid undone, then her win of the auction before it, and that
    win entered again (not redone): redo no longer held the bid, and the next auction offered a
    new draw (4 4 on the table, 6 6 recorded). The cards drawn for an auction (its event says
    which: place and round) stay; a Draw sent anyway takes them too."""
    url = at_first_auction(client)
    assert act(client, url, "alea", high_bid=8, cards="5 5").status_code == 303
    assert act(client, url, "auction", winner="alea").status_code == 303
    assert act(client, url, "alea", high_bid=21, cards="4 4").status_code == 303  # Times Square
    for _ in range(2):
        assert act(client, url, "undo").status_code == 303
    assert act(client, url, "auction", winner="alea").status_code == 303  # again, not redo
    page = text(client.get(url))
    assert "Auction: Times Square" in page
    assert '<input name="cards" autocomplete="off" value="4 4">' in page
    assert "Draw Alea" not in page
    assert act(client, url, "alea", high_bid=21, draw="y").status_code == 303  # no cards sent
    assert "Times Square: Alea draws 4 4 and bids 8" in text(client.get(url + "history"))


def test_a_high_bid_no_cards_add_up_to_is_refused_before_alea_draws(client):
    """Found at a table: a high bid of 3 was taken and Alea's cards drawn against it. Cards are
    worth 4, 5 and 6: no bid is 1, 2, 3 or 7. Refused under the field, nothing drawn; the chance
    asked for such a bid says so, and leaves the draw's field empty."""
    url = at_first_auction(client)
    seq = current_seq(client, url)
    for bid in (3, 7):
        refused = client.post(url + "alea", data={**fresh(client, url), "high_bid": bid,
                                                  "draw": "y"},
                              headers={"X-Companion": "fetch"})
        assert refused.status_code == 422
        assert refused.json == {"field": "high_bid", "refused": (
            f"High bid after your first bids: no bid adds up to {bid} (cards are worth 4, 5 and "
            "6: a high bid is 0 if both passed, else 4, 5, 6, or 8 or more).")}
    assert current_seq(client, url) == seq
    page = text(client.get(url + "?high=7"))
    assert "No bid adds up to 7" in page and "Alea beats 7" not in page
    # ... and the draw's own field is not filled with it (found at a table: 7 stood there).
    assert 'name="high_bid" inputmode="numeric" min="0" max="200" value=""' in \
        client.get(url + "?high=7").get_data(as_text=True)
    assert 'name="high_bid" inputmode="numeric" min="0" max="200" value="8"' in \
        client.get(url + "?high=8").get_data(as_text=True)
    assert "Alea beats 8 with probability" in text(client.get(url + "?high=8"))
    # A high bid out of range in the address is said so, and not copied into the draw's field
    # either (found in an audit: -1 stood there, and nothing was said).
    for asked in ("-1", "201", "99999999999999999999"):
        page = client.get(url + f"?high={asked}").get_data(as_text=True)
        assert "A high bid is a number from 0 to 200." in page
        assert 'name="high_bid" inputmode="numeric" min="0" max="200" value=""' in page
        assert '<details class="alea-chance" id="alea-chance" open' in page
    assert act(client, url, "alea", high_bid=4, cards="4 4").status_code == 303


def test_a_high_bid_asked_in_an_auction_since_decided_is_not_carried_into_the_next(client):
    """Found at a table: a bid chip tapped on a screen another phone had moved on kept its high
    bid of 10 in the address, and the next auction's draw field stood filled with it, Alea's
    chance against it open. A chip and a high bid asked say their auction (`at`, its place);
    the next auction leaves them out."""
    url = at_first_auction(client)
    page = client.get(url).get_data(as_text=True)
    assert 'name="at" value="34w"' in page  # the chance's form says its auction
    here = text(client.get(url + "?high=10&at=34w"))
    assert "Alea beats 10 with probability" in here and 'data-into-view="opened"' in here
    assert act(client, url, "alea", high_bid=8, cards="5 5").status_code == 303
    assert act(client, url, "auction", winner="alea").status_code == 303  # on to Times Square
    for asked in ("?high=10&at=34w", "?bid=Ann:violet&high=10&at=34w"):
        page = client.get(url + asked).get_data(as_text=True)
        assert "Auction: Times Square" in page and "Alea beats 10" not in page
        assert 'name="high_bid" inputmode="numeric" min="0" max="200" value=""' in page
        assert 'aria-current="true"' not in page.split('id="auction"')[1].split("</section>")[0]
    assert "Alea beats 10" in text(client.get(url + "?high=10&at=times"))


def test_after_both_players_passed_only_alea_is_offered_as_the_winner(client):
    """A high bid of 0 entered with Alea's cards: both players passed and cannot bid again, so
    the page offers Alea's win only and says why; a player's win sent anyway is refused."""
    url = at_first_auction(client)
    assert act(client, url, "alea", high_bid=0, cards="4 4").status_code == 303
    page = text(client.get(url))
    assert "You both passed before Alea's bid" in page and 'value="alea"' in page
    assert "bid=Ann" not in page and "bid=Ben" not in page
    seq = current_seq(client, url)
    refused = act(client, url, "auction", bid="Ann:orange", build=1)
    assert refused.status_code == 422 and "You both passed before Alea" in text(refused)
    assert current_seq(client, url) == seq


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


BOARD = {f"{d}_{k}": c for d in DISTRICT_IDS
         for k, c in enumerate(["green", "brown", "gray", "orange", "violet"])}


def test_the_board_is_remembered_for_this_phones_next_tables_only(app, client):
    url = new_table(client, "Ann", "Ben", game="fifth_avenue")
    assert "Use the saved board" not in text(client.get(url))  # none saved yet (issue 26)
    assert "Our board has the colours shown below" in text(client.get(url))  # issue 42
    assert "Board colours" in text(client.get(url + "board"))
    assert act(client, url, "board", **BOARD, set_sizes="2 3 2 3 2 3 2 3",
               keep="y").status_code == 303
    second = new_table(client, "Cy", "Di", game="fifth_avenue")
    assert "Use the saved board" in text(client.get(second))
    assert 'value="2 3 2 3 2 3 2 3"' in text(client.get(second + "board"))
    act(client, second, "board/saved")
    assert 'value="2 3 2 3 2 3 2 3"' in text(client.get(second + "board"))
    # Another phone, even at the same table, starts from the rulebook's board.
    other = app.test_client()
    elsewhere = new_table(other, "Ed", "Flo", game="fifth_avenue")
    assert 'value="3 2 3 2 3 2 3 2"' in text(other.get(elsewhere + "board"))
    act(other, elsewhere, "board/saved")
    assert 'value="3 2 3 2 3 2 3 2"' in text(other.get(elsewhere + "board"))
    # A board saved for one table only is not kept.
    third = new_table(client, "Gus", "Hal", game="fifth_avenue")
    act(client, third, "board", **BOARD, set_sizes="3 3 2 2 3 3 2 2")
    fourth = new_table(client, "Ivo", "Jo", game="fifth_avenue")
    assert 'value="2 3 2 3 2 3 2 3"' in text(client.get(fourth + "board"))


def test_the_tiles_drawn_at_the_table_are_one_choice_per_district(client):
    """Issue 26: a district's starting business is one choice of plot and kind."""
    url = new_table(client, "Ann", "Ben", game="fifth_avenue")
    act(client, url, "board/saved")
    data = {f"start_{d}": "2:gallery" for d in DISTRICT_IDS}
    data |= {f"row_{k}": kind for k, kind in enumerate(["boutique", "jeweler"] * 10)}
    refused = act(client, url, "setup", **data)  # 10 boutiques: the box holds 9
    assert refused.status_code == 422
    assert ("The box holds 9 boutique tiles, but this set-up shows 10: check the starting "
            "businesses and the row.") in text(refused)
    assert "Starting businesses and supply row entered" not in text(client.get(url + "history"))
    data |= {f"row_{k}": kind for k, kind in enumerate(
        ["boutique", "jeweler", "perfume"] * 6 + ["boutique", "jeweler"])}
    assert act(client, url, "setup", **data).status_code == 303
    assert "Starting businesses and supply row entered" in text(client.get(url + "history"))
    assert text(client.get(url)).count("gallery</span></button>") >= 7
    refused = act(client, url, "undo")
    data.pop("start_52e")
    refused = act(client, url, "setup", **data)
    assert refused.status_code == 422 and "52nd St East" in text(refused)


def test_a_board_with_wrong_set_sizes_is_refused(client):
    url = new_table(client, "Ed", "Flo", game="fifth_avenue")
    refused = act(client, url, "board", **BOARD, set_sizes="3 3 3 3 2 2 2 2")
    assert refused.status_code == 422 and "holds five spaces" in text(refused)


def test_more_digits_than_a_number_reads_are_refused_in_words(client):
    """int() refuses a text of more than 4,300 digits: a tampered set size or starting plot
    was a server error (found by a tampering session)."""
    url = new_table(client, "Ed", "Flo", game="fifth_avenue")
    refused = act(client, url, "board", **BOARD, set_sizes="1" * 5000)
    assert refused.status_code == 422
    act(client, url, "board/saved")
    data = {f"start_{d}": "2:gallery" for d in DISTRICT_IDS}
    data |= {f"row_{k}": kind for k, kind in enumerate(
        ["boutique", "jeweler", "perfume"] * 6 + ["boutique", "jeweler"])}
    data |= {"start_34w": "", "plot_34w": "1" * 5000, "kind_34w": "gallery"}
    refused = act(client, url, "setup", **data)
    assert refused.status_code == 422 and "Choose the plot and the business" in text(refused)
    assert "Starting businesses" not in text(client.get(url + "history"))


def test_the_session_cookie_stays_small_with_everything_remembered(app, client):
    """Browsers drop a cookie over 4 KB: the most tables remembered and a board kept fit."""
    app.config["RATE_LIMITS"] = {**app.config["RATE_LIMITS"], "new": (1000, 600)}
    for _ in range(MAX_REMEMBERED_TABLES + 5):
        url = new_table(client, "Ann", "Ben", game="fifth_avenue")
    act(client, url, "board", **BOARD, set_sizes="2 3 2 3 2 3 2 3", keep="y")
    cookie = client.get_cookie("session")
    assert len(cookie.value) < 4000, len(cookie.value)
    with client.session_transaction() as session:
        assert len(session["tables"]) == MAX_REMEMBERED_TABLES
        assert len(session["owned"]) == MAX_OWNED_TABLES


def test_alea_is_a_reserved_name(client):
    response = client.post("/new", data={"game": "fifth_avenue", "players-0-name": "alea",
                                         "players-1-name": "Ben", "players-2-name": "Cy"})
    assert response.status_code == 422 and "automated opponent" in text(response)


def test_fifth_avenue_pdfs(client):
    url = set_up(client, "Ann", "Ben")
    assert client.get(url + "sheet.pdf").data.startswith(b"%PDF")
    assert client.get("/pad/fifth_avenue.pdf?players=4&size=A4").data.startswith(b"%PDF")


# In German -----------------------------------------------------------------------------------

DE = {"Accept-Language": "de"}


def german(client, url, action=None, **data):
    """The page (or the answer to an action) for a German browser."""
    if action is None:
        return text(client.get(url, headers=DE))
    data = fresh(client, url) | data
    return client.post(url + action, data=data, headers=DE)


def test_the_table_speaks_german(client):
    url = new_table(client, "Ann", "Ben", "Cy", game="fifth_avenue")
    page = german(client, url)
    # A phone that saved no board is not offered one (issue 26): it checks the colours.
    assert "Gespeicherten Spielplan nutzen" not in page
    assert "Farben des Spielplans prüfen oder ändern" in page and "Check or edit" not in page
    act(client, url, "board/saved")
    page = german(client, url)
    assert "2. Startgeschäfte und Auslage" in page and "Bauplatz und Geschäft?" in page
    assert "> Parfü\u00admerie</label>" in page and "> perfume</label>" not in page
    url = set_up(client, "Ann", "Ben", "Cy")
    assert "Wer setzt das erste Hochhaus?" in german(client, url)
    act(client, url, "first", player="Ann")
    page = german(client, url)
    assert "Ann: Setze ein Hochhaus" in page and "Reihenfolge: Ann, Cy, Ben, Ben, Cy, Ann." in page
    assert 'aria-label="34th St West, Bauplatz orange: leer"' in page
    assert "Regelung: Die fünf Bauplätze eines Viertels bilden einen Ring" in page
    for english in ("place a skyscraper", "plot:", "Ruling:", ">empty<"):
        assert english not in page, english
    act(client, url, "plot", target="34w:1")
    refused = german(client, url, "plot", target="34w:1")
    assert refused.status_code == 422
    assert "Start-Hochhäuser kommen auf leere Bauplätze." in text(refused)
    assert "Initial skyscrapers" not in text(refused)
    assert "Zuletzt: Ann setzt ein Start-Hochhaus in 34th St West, auf Bauplatz " in text(refused)
    tapped = german(client, url, "plot", target="nowhere")
    assert tapped.status_code == 422 and "Tippe auf einen Bauplatz des Spielplans." in text(tapped)


def test_auctions_with_alea_in_german(client):
    url = set_up(client, "Ann", "Ben")
    act(client, url, "first", player="Ann")
    for target in ("34w:1", "34e:1", "times:2", "times:1"):
        act(client, url, "plot", target=target)
    page = german(client, url)
    assert "Geschäft legen (Option B)" in page and "Ann ist dran" in page
    assert 'aria-label="weiße Kommission ziehen: 34th St West"' in page
    for to in ("34w", "times", "52w", "central_park", "city_hall"):
        act(client, url, "move", commissioner="white", to=to)
    page = text(client.get(url + "?high=10", headers=DE))
    assert "Versteigerung: 34th St West" in page and "Ann darf bieten mit:" in page
    assert ("Alea überbietet 10 mit einer Wahrscheinlichkeit von <strong>74,7 %</strong> "
            "(183/245).") in page
    for english in ("Auction:", "may bid with", "Alea beats", "Record the auction"):
        assert english not in page, english
    refused = german(client, url, "auction", bid="Ann:orange", build=1)
    assert refused.status_code == 422
    assert "Alea bietet als Dritter: Zieh zuerst Aleas Karten oder gib sie ein." in text(refused)
    bad = german(client, url, "alea", high_bid=10, cards="4 6 7")
    assert bad.status_code == 422 and "Gib die Werte der schwarzen Karten" in text(bad)
    act(client, url, "alea", high_bid=10, cards="4654")
    page = german(client, url)
    assert "Aleas Karten:" in page and "= <strong>19</strong> gegen 10:" in page
    assert "Alea ist dabei" in page
    act(client, url, "auction", winner="alea")
    note = re.search(r'just-scored[^>]*>(.*?)</p>', german(client, url)).group(1)
    assert note.startswith("Alea hat 34th St West ersteigert und "), note
    # Issue 41: after the players' 30 beat Alea's 8, nobody cannot have won Times Square.
    act(client, url, "alea", high_bid=30, cards="44")
    nobody = german(client, url, "auction", winner="-")
    assert nobody.status_code == 422
    assert ("Es wurde 30 geboten, und Aleas 8 ist nicht höher: Tippe an, wer gewonnen hat."
            in text(nobody))
    history = text(client.get(url + "history", headers=DE))
    assert "Ann zieht die weiße Kommission weiter: Startfeld" in history
    assert "Alea hat 34th St West ersteigert und ein Hochhaus auf Bauplatz" in history
    assert "Alea won" not in history


def test_german_score_sheet_and_pad(client):
    url = set_up(client, "Ann", "Ben")
    act(client, url, "first", player="Ann")
    for target in ("34w:1", "34e:1", "times:2", "times:1"):
        act(client, url, "plot", target=target)
    for target, to in (("34w:2", "34w"), ("34w:3", "times"), ("34w:4", None)):
        # a business (option B) and the commissioner's move make a turn; the third business
        # brings a special scoring
        assert act(client, url, "plot", target=target).status_code == 303
        if to:
            assert act(client, url, "move", commissioner="white", to=to).status_code == 303
    page = german(client, url)
    assert "Sonderwertung nach Geschäft 3: Ann 0, Ben 0" in page
    assert "Ann: Hochhäuser in 2 Vierteln, 0 SP" in page
    sheet = pdf_words(client.get(url + "sheet.pdf", headers=DE).data)
    assert "Gespielt am" in sheet and "von Ann, Ben, mit Alea." in sheet
    assert re.search(r"Gespielt am \d\d\.\d\d\.\d{4} \d\d:\d\d UTC", sheet)  # no ISO date
    assert re.search(r"5th Avenue, \d\d\.\d\d\.\d{4} · Seite 1 von 1", sheet)
    assert "Sonderwertung nach Geschäft 3 0 0" in sheet and "Summe 0 0" in sheet
    assert "Regelung: Die fünf Bauplätze" in sheet and "Alea punktet nie." in sheet
    for english in ("Played", "Special scoring", "Total", "Ruling", "page"):
        assert english not in sheet, english
    pad = pdf_words(client.get("/pad/fifth_avenue.pdf?players=2&size=A5", headers=DE).data)
    assert "5th Avenue: Wertungsblock" in pad and "2 Personen (Alea spielt mit" in pad
    assert "Sonderwertung (3. Geschäft: 4 SP)" in pad and "Schlusswertung" in pad
    assert "Handkarten (bei Gleichstand)" in pad
    for english in ("score pad", "Special scoring", "Final scoring", "Total", "Cards in hand"):
        assert english not in pad, english


def test_the_drawn_set_up_shows_the_tiles_to_lay_out(client):
    url = new_table(client, "Ann", "Ben", game="fifth_avenue")
    act(client, url, "board/saved")
    act(client, url, "setup/draw")
    page = text(client.get(url))
    assert "The supply row, left to right" in page and page.count('class="tile"') == 20
    assert "Who places the first skyscraper?" in page


def test_a_district_is_scored_once_a_turn_and_the_move_comes_next(client):
    url = drawn_table(client)
    assert "Ann's turn" in text(client.get(url))
    assert act(client, url, "skyscrapers", player="Ann").status_code == 303
    assert act(client, url, "move", commissioner="beige", to="34e").status_code == 303
    first = fresh(client, url)
    assert act(client, url, "score", district="34e", **first).status_code == 303
    seq = current_seq(client, url)
    page = text(client.get(url))
    assert "Score 34th St East" not in page and "2nd action: take 2 black cards." in page
    again = act(client, url, "score", district="34e")  # a new tap, not a retry
    assert again.status_code == 422
    assert "Ben has already scored a district this turn" in text(again)
    assert current_seq(client, url) == seq
    # A retry of the first tap gets the first answer and records nothing.
    assert act(client, url, "score", district="34e", **first).status_code == 303
    assert current_seq(client, url) == seq


def test_an_auction_asks_what_was_built_and_never_assumes_none(client):
    url = drawn_table(client)
    for to in ("34w", "times", "52w", "central_park", "city_hall"):
        assert act(client, url, "move", commissioner="white", to=to).status_code == 303, to
    act(client, url, "alea", draw="y")
    page = text(client.get(url))
    assert "Alea won: Alea builds " in page and "Built 2" not in page
    chip = re.search(r'href="([^"]*bid=Ann(?:%3A|:)\w+)[^"]*"', page).group(1)
    chosen = text(client.get(chip))
    assert 'aria-current="true"' in chosen and "Built 3" in chosen and "Built none" in chosen
    bid = chip.split("bid=")[1].replace("%3A", ":")
    unsure = act(client, url, "auction", bid=bid)
    assert unsure.status_code == 422 and "Tap how many skyscrapers Ann built." in text(unsure)
    assert act(client, url, "auction", bid=bid, build=2).status_code == 303
    assert "Ann won 34th St West and built 2 skyscrapers" in text(client.get(url))


def test_a_build_beyond_the_supply_is_refused_in_german(client):
    """Ann builds her 3 skyscrapers in 34th St West; in Times Square only "none" is offered to
    her, and a tap on "1 built" is refused, saying why in German, recording nothing."""
    url = drawn_table(client)
    for to in ("34w", "times", "52w", "central_park", "city_hall"):
        act(client, url, "move", commissioner="white", to=to)
    act(client, url, "alea", high_bid=30, cards="4 4")
    page = text(client.get(url))
    chip = re.search(r'href="([^"]*bid=Ann(?:%3A|:)\w+)[^"]*"', page).group(1)
    bid = chip.split("bid=")[1].split("&")[0].replace("%3A", ":")
    assert act(client, url, "auction", bid=bid, build=3).status_code == 303
    act(client, url, "alea", high_bid=30, cards="4 4")
    page = german(client, url)
    assert "Versteigerung: Times Square" in page and "0 Hochhäuser im Vorrat" in page
    chip = re.search(r'href="([^"]*bid=Ann(?:%3A|:)\w+)[^"]*"', page).group(1)
    chosen = text(client.get(chip.replace("&amp;", "&"), headers=DE))
    assert "Nichts gebaut" in chosen and "1 gebaut" not in chosen  # her supply is empty
    assert "Ann hat 0 Hochhäuser im Vorrat: baue höchstens so viele" in chosen  # and why
    seq = current_seq(client, url)
    bid = chip.split("bid=")[1].split("&")[0].replace("%3A", ":")
    refused = german(client, url, "auction", bid=bid, build=1)
    assert refused.status_code == 422
    assert ("Ann hat 0 Hochhäuser im Vorrat: baue höchstens so viele."
            in text(refused))
    assert "in supply" not in text(refused)
    assert current_seq(client, url) == seq
    assert german(client, url, "auction", bid=bid, build=0).status_code == 303


@pytest.mark.parametrize("left, said", [
    (3, "A: Ann takes 3 skyscrapers"), (1, "A: Ann takes 1 skyscraper"),
    (0, "A: Ann takes none (no skyscraper of that colour is left in the general supply)")])
def test_option_a_s_button_says_how_many_it_takes(app, client, monkeypatch, left, said):
    """Found by a rules audit: the button said "takes 3" with none of Ann's colour left in the
    general supply (the rest is taken, ruling "supply")."""
    from companion.rules.fifth_avenue_table import FifthAvenueState
    names, actions = FINISHED["fifth_avenue"]
    table_id = seed(app, "fifth_avenue", names, actions[:7])  # Ann's turn, its 1st action
    held(client, table_id)
    monkeypatch.setattr(FifthAvenueState, "option_a", lambda state, player: left)
    page = " ".join(text(client.get(f"/fifth_avenue/{table_id}/")).split())
    assert f'value="Ann">{said}</button>' in page


def test_the_supplies_are_shown_where_they_limit_a_build(client):
    """Beside the bids of a district and of Central Park, each player's supply; by the build
    buttons, why fewer are offered; in the rulings, how a turn and option A are kept."""
    url = drawn_table(client)
    assert "Ruling: option A takes 3 skyscrapers of the player" in text(client.get(url))
    for to in ("34w", "times", "52w", "central_park", "city_hall"):
        act(client, url, "move", commissioner="white", to=to)
    act(client, url, "alea", high_bid=30, cards="4 4")
    page = text(client.get(url))
    chip = re.search(r'href="([^"]*bid=Ann(?:%3A|:)\w+)[^"]*"', page).group(1)
    chosen = text(client.get(chip.replace("&amp;", "&")))
    assert "in supply: build at most that" not in chosen  # her 3 limit nothing
    bid = chip.split("bid=")[1].split("&")[0].replace("%3A", ":")
    act(client, url, "auction", bid=bid, build=2)
    for _place in ("times", "52w"):
        act(client, url, "alea", high_bid=0, cards="6 6")
        act(client, url, "auction", winner="alea")
    act(client, url, "alea", high_bid=30, cards="4 4")
    page = text(client.get(url))
    assert "Auction: Central Park" in page
    assert "<li>Ann: <small>1 skyscraper in supply</small></li>" in page
    assert "<li>Ben: <small>3 skyscrapers in supply</small></li>" in page
    chosen = text(client.get(url + "?bid=Ann"))
    assert "Ann has 1 skyscraper in supply: build at most that." in chosen
    assert re.findall(r'name="build" value="(\d)"', chosen) == ["1", "0"]


def test_the_printed_board_is_confirmed_in_one_tap(client):
    """Issue 42: confirming that the board matches the printed one took the board page and 35
    colours; the set-up shows the board with its colours and takes it in one tap."""
    from companion.rules.fifth_avenue_table import DEFAULT_PROFILE

    url = new_table(client, "Ann", "Ben", game="fifth_avenue")
    page = text(client.get(url))
    assert page.count('class="plot p-') == 35
    assert act(client, url, "board/saved").status_code == 303
    page = text(client.get(url))
    assert "Draw the set-up for us" in page
    shown = re.findall(r'class="plot p-(\w+)', page)
    assert shown == [c for d in DISTRICT_IDS for c in DEFAULT_PROFILE[d]]


def test_the_final_result_says_who_won_in_one_sentence(app, client):
    """As the yard's and the street's: the result card's verdict (a tie and how the cards in
    hand broke it: the rules' tests)."""
    names, actions = FINISHED["fifth_avenue"]
    url = f"/fifth_avenue/{seed(app, 'fifth_avenue', names, actions)}/"
    page = text(client.get(url))
    assert '<p class="verdict"><strong>Ben wins with 21 VP.</strong></p>' in page
    assert "Ben gewinnt mit 21 SP." in text(client.get(url, headers=GERMAN))


def test_a_winner_who_cannot_build_is_told_why_the_building_stop_is_all_that_is_left(app,
                                                                                     client):
    """A hand-played game (tests/data): Times Square full, none of its plots Ann's; she won
    with gray. The only button was "Declare a building stop", under a line about her supply.
    Now the page says why: every plot there is taken, the gray one too."""
    logged = json.loads((Path(__file__).parent.parent / "data" /
                         "fifth_avenue_full_times_square.json").read_text())
    table_id = seed(app, "fifth_avenue", logged["players"], logged["actions"])
    held(client, table_id)
    page = text(client.get(f"/fifth_avenue/{table_id}/?bid=Ann:gray&high=12"))
    assert ("Every plot here is taken, the gray one too: Ann cannot build and declares a "
            "building stop.") in page
    assert "skyscrapers in supply: build at most that" not in page
    assert 'name="stop" value="y"' in page and 'name="build"' not in page
    assert "<legend>A building stop</legend>" in page  # not "Skyscrapers built (...)"


def test_a_player_s_second_building_stop_says_it_ends_the_game(app, client):
    """As Alea's button does: a player's stop after the first one ends the game, and its button
    says so (a helper found only Alea's warned). 52nd St West is full when Alea's bid is drawn
    there, after Ben's stop in 34th St East."""
    names, actions = FINISHED["fifth_avenue"]
    table_id = seed(app, "fifth_avenue", names, actions[:40])  # Alea's bid in 52nd St West
    held(client, table_id)
    url = f"/fifth_avenue/{table_id}/"
    page = text(client.get(url))
    assert "Auction: 52nd St West" in page
    chip = re.search(r'href="([^"]*bid=Ann(?:%3A|:)\w+)[^"]*"', page).group(1)
    chosen = text(client.get(chip.replace("&amp;", "&")))
    assert "Declare the second building stop: the game ends</button>" in chosen
    assert "Declare a building stop</button>" not in chosen


@pytest.mark.parametrize("cards, said", [
    ({"Gus": 19, "Hal": 0}, "Gus and Hal tie on 68 VP; Gus wins with 19 cards left in hand to 0."),
    ({"Gus": 5, "Hal": 5}, "Gus and Hal tie on 68 VP and on their cards in hand (5 cards): a "
                           "shared victory."),
])
def test_the_score_sheet_says_how_the_tie_break_decided(app, client, cards, said):
    """A random legal game (tests/data) ends Gus 68, Hal 68: the sheet says what the table page
    says (`verdict`); it said "Tie broken by cards in hand" also when the cards were equal."""
    logged = json.loads((Path(__file__).parent.parent / "data" /
                         "fifth_avenue_tie.json").read_text())
    table_id = seed(app, "fifth_avenue", logged["players"],
                    [*logged["actions"], ("hand_cards", {"cards": cards})])
    sheet = pdf_words(client.get(f"/fifth_avenue/{table_id}/sheet.pdf").data)
    assert sheet.count(said) == 1 and "Tie broken" not in sheet  # said once, by the ranking


def test_the_tie_break_s_counts_refused_stay_as_typed(app, client):
    """Found at a table without JavaScript: 500 and -3 cards typed, refused, and the form came
    back empty. It comes back as typed, each count at fault said beside it."""
    logged = json.loads((Path(__file__).parent.parent / "data" /
                         "fifth_avenue_tie.json").read_text())
    table_id = seed(app, "fifth_avenue", logged["players"], logged["actions"])
    url = f"/fifth_avenue/{table_id}/"
    page = text(client.get(url))
    assert page.count('name="cards_') == 2 and "Gus: cards in hand" in page
    seats = [i for i, p in enumerate(logged["players"]) if p in ("Gus", "Hal")]
    refused = act(client, url, "hand", **{f"cards_{seats[0]}": 500, f"cards_{seats[1]}": -3})
    assert refused.status_code == 400
    again = text(refused)
    assert f'name="cards_{seats[0]}" required type="number" value="500"' in again
    assert f'name="cards_{seats[1]}" required type="number" value="-3"' in again
    assert again.count('class="field-error"') == 2
    done = act(client, url, "hand", **{f"cards_{seats[0]}": 7, f"cards_{seats[1]}": 6})
    assert done.status_code == 303


def test_a_win_that_built_nothing_is_said_once_in_the_strip(app, client):
    """The rules' note of a win that built nothing names the plot, as the action's words do, so
    the strip says it once (it said "Ann won 52nd St East for the gray plot and built nothing
    — Ann won 52nd St East and built nothing."), in German too."""
    names, actions = FINISHED["fifth_avenue"]
    table_id = seed(app, "fifth_avenue", names, actions[:23])
    url = f"/fifth_avenue/{table_id}/"
    act(client, url, "auction", bid="Ann:gray", build=0)
    for headers, words in (({}, "Ann won 52nd St East for the gray plot and built nothing"),
                           (GERMAN, "Ann hat 52nd St East für Bauplatz grau ersteigert und "
                                    "nichts gebaut")):
        page = text(client.get(url, headers=headers))
        strip = re.sub(r"\s+", " ", page.split('class="score-strip"')[1].split("</aside>")[0])
        assert words in strip and strip.count(words[:len("Ann won")]) == 1, strip


def test_option_a_is_said_once_in_the_strip(app, client):
    """Option A's note begins with the action's words, so the strip says them once, with what
    the note adds (it said "Ben took 3 skyscrapers (option A) — Ben took 3 skyscrapers: 6 in
    supply."), in German too."""
    names, actions = FINISHED["fifth_avenue"]
    table_id = seed(app, "fifth_avenue", names, actions[:13])
    url = f"/fifth_avenue/{table_id}/"
    act(client, url, "skyscrapers", player="Ben")
    for headers, words in (({}, "Ben took 3 skyscrapers (option A): 6 in supply."),
                           (GERMAN, "Ben hat 3 Hochhäuser genommen (Option A): 6 im Vorrat.")):
        page = text(client.get(url, headers=headers))
        strip = re.sub(r"\s+", " ", page.split('class="score-strip"')[1].split("</aside>")[0])
        assert words in strip and strip.count(words[:len("Ben ta")]) == 1, strip


def test_option_a_is_said_once_in_the_history_and_a_changes_preview(app, client):
    """Found playing: a change's preview listed a later option A as "#14 Ben took 3 skyscrapers
    (option A): Ben took 3 skyscrapers (option A): 6 in supply.", and the history said the
    note under the words it begins with. Both say it once, as the strip does (the preview's
    line: `test_pad.py`)."""
    names, actions = FINISHED["fifth_avenue"]
    table_id = seed(app, "fifth_avenue", names, actions[:14])
    url = f"/fifth_avenue/{table_id}/"
    words = "Ben took 3 skyscrapers (option A): 6 in supply."
    history = re.sub(r"<[^>]+>", "", text(client.get(url + "history")))
    assert words in history and history.count("Ben took 3 skyscrapers") == 1, history


def test_the_board_marks_the_auction_under_way_and_those_to_come(client):
    """Found at a table: at City Hall every commissioner marker left the board at once, and
    nothing showed where the auction was; then Central Park, the last of a set, had no mark."""
    url = at_first_auction(client)
    page = text(client.get(url))
    marks = dict(re.findall(r'aria-label="([^"]+)">\s*<h3[^>]*>[^<]*<span class="marker auction">'
                            r'([^<]+)</span>', page))
    assert marks == {"34th St West": "auction now", "Times Square": "auction next",
                     "52nd St West": "auction"}
    assert re.search(r'<section class="park card">\s*<h3>Central Park <span class="marker '
                     r'auction">auction</span>', page)
    assert re.findall(r'class="district\s+auction-now" aria-label="([^"]+)"', page) == [
        "34th St West"]  # outlined



def test_central_park_with_no_business_below_it_at_the_end(app, client):
    """A 4-player game (played through the app by a rules audit) ended by two building stops
    before any business went below Central Park, where Ann has 3 skyscrapers: they score the
    rulebook's lowest, 2 VP each ("lowest is 2"; it was 1), and the board says none lie there
    (it said "none yet" after the end)."""
    logged = json.loads((Path(__file__).parent.parent / "data" /
                         "fifth_avenue_park_empty.json").read_text())
    table_id = seed(app, "fifth_avenue", logged["players"], logged["actions"])
    held(client, table_id)
    url = f"/fifth_avenue/{table_id}/"
    page = text(client.get(url))
    assert "Businesses below: none yet." in page
    # Nothing to turn over: one button (it offered to turn over businesses that are not there).
    assert "Do the final scoring</button>" in page and "turn them over" not in page
    assert 'name="tiles"' not in page
    assert act(client, url, "final", draw="y").status_code == 303
    page = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text(client.get(url)))).split())
    assert "Businesses below: none." in page
    assert ("Central Park (no business below it): Ann 6, Ben 0, Cy 0, Di 0 Ann: 3 skyscrapers x "
            "2 VP = 6 VP") in page
    assert "Ann wins with 8 VP." in page


def test_an_owner_of_two_plots_in_a_district_has_each_line_named_by_its_plot(app, client):
    """Found by an audit: "Final: 34th St West" said "Alea: 1 skyscraper worth 2 VP each
    (boutique next door); Alea never scores" twice, one line for each of Alea's two plots,
    with nothing telling them apart: each is named by its plot's colour."""
    names, actions = FINISHED["fifth_avenue"]
    table_id = seed(app, "fifth_avenue", names, actions)
    held(client, table_id)
    page = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text(
        client.get(f"/fifth_avenue/{table_id}/")))).split())
    for colour in ("orange", "green"):
        assert (f"Alea, {colour} plot: 1 skyscraper worth 2 VP each (boutique next door); Alea "
                "never scores") in page
    german = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text(client.get(
        f"/fifth_avenue/{table_id}/", headers={"Accept-Language": "de"})))).split())
    assert "Alea, Bauplatz orange: 1 Hochhaus" in german


def test_central_park_says_the_businesses_turned_over_for_it(app, client):
    """Found at a table: the three businesses Central Park scored with were said only in the
    scores' list far below the board; its own box says them once the final scoring is in."""
    names, actions = FINISHED["fifth_avenue"]
    table_id = seed(app, "fifth_avenue", names, actions[:-1])
    held(client, table_id)
    url = f"/fifth_avenue/{table_id}/"
    assert "Turned over at the final scoring" not in text(client.get(url))
    assert act(client, url, "final", tiles="boutique jeweler gallery").status_code == 303
    park = text(client.get(url)).split('<section class="park card')[1].split("</section>")[0]
    assert "Turned over at the final scoring: boutique, jeweler, gallery." in park
    # The event records what a skyscraper there scores with no business below it (2 VP).
    final = storage.events(storage.connect(app.config["DATABASE"]), table_id)[-1]
    assert final.kind == "final" and final.payload["park_none"] == 2


def test_the_businesses_turned_over_are_read_by_every_name_the_app_shows(app):
    """Found at a table: "boutique jeweler perfume shop" was refused as four businesses, though
    the app writes "perfume shop" itself ("Ann placed a perfume shop ...")."""
    from companion.views.fifth_avenue import parse_tiles

    with app.test_request_context():
        assert parse_tiles("Boutique jeweler perfume shop") == ["boutique", "jeweler", "perfume"]
        assert parse_tiles("perfume, Perfume Shop gallery") == ["perfume", "perfume", "gallery"]
        assert parse_tiles("boutique shop") == ["boutique", "shop"]  # refused by the rules
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert parse_tiles("Parfümerie Galerie Juwelier") == ["perfume", "gallery", "jeweler"]
