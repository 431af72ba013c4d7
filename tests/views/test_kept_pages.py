"""A table page is made once per state of the table and kept for every phone that shows it
(views/pages.py, issue 28): each request gets it with its own CSRF token and fresh action keys,
and it is, but for those, the very page made afresh for that phone. What a game shows of the
phone itself (its saved board, the cards it saw at its earlier tables) keeps pages apart."""

import re

import pytest
from flask import g, template_rendered

from companion import storage
from companion.app import create_app
from companion.rules.log import UNDO
from companion.views import game_views, pages
from companion.views.tables import load_table
from tests.browser import states
from tests.browser.states import seed
from tests.conftest import GERMAN, SCRIPT, act, new_table, text

ONE_TIME = re.compile(r'name="(key|csrf_token)" value="[^"]*"')

STATES = [
    ("yard", states.YARD, states.YARD_MID, ["", "?open=fix", "?open=setup"]),
    ("yard", ("Ann", "Ben"), states.DIRK_DEAL, [""]),
    ("fifth_avenue", states.FIFTH, states.FIFTH_PLACING, [""]),
    ("fifth_avenue", states.FIFTH, states.FIFTH_PLAYING, ["", "?open=fix"]),
    ("street", states.STREET, states.STREET_MID, ["", "?open=new-card"]),
    ("street", states.STREET, states.STREET_BOUGHT, ["", "?q=office"]),
    ("urbanisation", states.URBAN, states.URBAN_ACTIONS, ["", "?open=attract", "?open=invention"]),
    ("urbanisation", states.URBAN, states.URBAN_ADMINISTRATION, [""]),
    ("urbanisation", states.URBAN, states.URBAN_FINAL, [""]),
]


def database(app):
    return app.config["DATABASE"]


def seeded_url(app, slug, players, actions):
    """The page of a new table of the game holding these actions."""
    return f"/{slug}/{seed(database(app), slug, players, actions)}/"


def page(app, client, url, keep=True, headers=None):
    """The page as this phone gets it: kept (the second time), or made afresh."""
    app.config["KEEP_PAGES"] = keep
    with client.get(url, headers=headers or {}) as response:  # closed, as a WSGI server does
        assert response.status_code == 200, url
        return text(response)


def without_one_time_values(html):
    return ONE_TIME.sub(lambda m: f'name="{m.group(1)}" value=""', html)


def made(app):
    """The templates rendered from now on (their names), by every request."""
    rendered = []
    template_rendered.connect(lambda sender, template, context, **extra:
                              rendered.append(template.name), app, weak=False)
    return rendered


@pytest.mark.parametrize(("slug", "players", "actions", "queries"), STATES,
                         ids=[f"{s[0]}-{len(s[2])}" for s in STATES])
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_kept_page_is_the_page_made_afresh(app, client, slug, players, actions, queries,
                                              language):
    url = seeded_url(app, slug, players, actions)
    headers = GERMAN if language == "de" else {}
    for query in queries:
        fresh = page(app, client, url + query, keep=False, headers=headers)
        page(app, client, url + query, headers=headers)  # made and kept
        kept = page(app, client, url + query, headers=headers)
        assert without_one_time_values(kept) == without_one_time_values(fresh), query
        assert pages.KEY_MARK not in kept and pages.CSRF_MARK not in kept


def test_a_kept_page_is_not_made_again_and_each_request_gets_its_own_keys(app, client):
    url = seeded_url(app, "yard", states.YARD, states.YARD_MID)
    rendered = made(app)
    first = page(app, client, url)
    assert rendered == ["yard/table.html"]
    second = page(app, client, url)
    assert rendered == ["yard/table.html"]  # not made again
    keys = [re.findall(r'name="key" value="([^"]+)"', html) for html in (first, second)]
    assert len(keys[1]) == len(set(keys[1])) > 5  # a key of its own for every form
    assert not set(keys[0]) & set(keys[1])


def answer_page(app, url, keep, kind, headers=None):
    """The table page as the answer to a tap of `kind` on its last event (as app.js gets it:
    `answers.recorded`), from the kept page or made afresh."""
    app.config["KEEP_PAGES"] = keep
    slug, table_id = url.strip("/").split("/")
    with app.test_request_context(url, headers=headers or {}):
        table = load_table(slug, table_id)
        g.recorded = {"table": storage.mark_of(table.id), "seq": table.current.last_seq,
                      "kind": kind, "merged": []}
        views = game_views(slug)
        html, status = pages.table_page(table, views.page, views.phone)
    assert status == 200
    return html


@pytest.mark.parametrize(("slug", "players", "actions", "queries"), STATES,
                         ids=[f"{s[0]}-{len(s[2])}" for s in STATES])
@pytest.mark.parametrize("language", ["en", "de"])
def test_an_answer_from_the_kept_page_is_the_answer_made_afresh(app, client, slug, players,
                                                                 actions, queries, language):
    """What an answer says of its tap (the strip's line and button, the line read out) is put
    in the kept page's slots: the very page made afresh as the answer, but for one-time
    values; and the page kept for the other phones says nothing of it."""
    url = seeded_url(app, slug, players, actions)
    headers = GERMAN if language == "de" else {}
    fresh = answer_page(app, url, False, actions[-1][0], headers)
    kept = answer_page(app, url, True, actions[-1][0], headers)
    assert 'data-answer="done"' in fresh and "strip-last just" in fresh
    assert without_one_time_values(kept) == without_one_time_values(fresh)
    assert pages.SLOT_MARK not in kept
    other = page(app, client, url, headers=headers)
    assert "data-answer" not in other and "strip-last just" not in other
    assert without_one_time_values(other) == without_one_time_values(
        page(app, client, url, keep=False, headers=headers))
    assert strip_line(other) == strip_line(kept)  # every phone reads the line the answer said


def test_every_phone_reads_the_line_the_answer_said(app, client):
    """Where the rules' note says the action in its own words ("Ann passed."), the strip of
    every other phone says it so too, not the action's words ("Ann passed")."""
    url = seeded_url(app, "urbanisation", states.URBAN, (states.SETUP, *states.TURN_1[:13]))
    answer = strip_line(answer_page(app, url, True, states.TURN_1[12][0]))
    assert answer == "Last: Ann passed."
    assert strip_line(page(app, client, url)) == answer


def strip_line(html):
    """What the score strip says of the last action (its words, then what it gave)."""
    line = re.search(r'id="recorded"[^>]*>\s*<p>(.*?)</p>', html, re.S).group(1)
    return re.sub(r"<[^>]+>", "", line)


def test_an_undo_s_answer_from_the_kept_page_offers_redo(app, client):
    url = seeded_url(app, "yard", states.YARD, states.YARD_MID)
    page(app, client, url)
    act(client, url, "undo")
    fresh = answer_page(app, url, False, UNDO)
    kept = answer_page(app, url, True, UNDO)
    assert without_one_time_values(kept) == without_one_time_values(fresh)
    line = kept.split('id="recorded"')[1].split("</form>")[0]
    assert line.startswith(' data-answer="undone">') and "Undone: " in line
    assert f'action="{url}redo#at-strip_redo" class="" id="at-strip_redo"' in line


def test_an_action_s_answer_and_the_other_phones_make_the_page_once(app, client):
    """The answer app.js gets is made from the page kept for this state, so the other phones
    loading the table after it get that page without it being made again."""
    url = seeded_url(app, "yard", states.YARD, states.YARD_MID)
    kept = page(app, client, url)
    seq = re.search(r'name="seq" value="(\d+)"', kept).group(1)
    key = re.search(r'name="key" value="([^"]+)"', kept).group(1)
    rendered = made(app)
    answer = client.post(url + "buy", data={"seq": seq, "key": key, "player": "Ann",
                                           "building": "park"}, headers=SCRIPT)
    assert answer.status_code == 200
    assert 'data-answer="done"' in text(answer) and "Ann bought a park" in text(answer)
    others = [page(app, phone, url) for phone in (client, app.test_client(), client)]
    assert rendered == ["yard/table.html"]  # once, for the answer and the other phones
    assert all("data-answer" not in other and f'data-seq="{int(seq) + 1}"' in other
               for other in others)


def test_a_form_of_a_kept_page_records_its_action_and_the_next_page_shows_it(app, client):
    url = seeded_url(app, "yard", states.YARD, states.YARD_MID)
    page(app, client, url)
    kept = page(app, client, url)
    seq = re.search(r'name="seq" value="(\d+)"', kept).group(1)
    key = re.search(r'name="key" value="([^"]+)"', kept).group(1)
    answer = client.post(url + "buy", data={"seq": seq, "key": key, "player": "Ann",
                                           "building": "park"})
    assert answer.status_code == 303
    after = page(app, client, url)  # the answer's page: what was recorded, in its slots
    assert "Last: Ann bought a park" in after and 'class="strip-last just"' in after
    assert '<main class="answered">' in after  # a whole page answering a tap
    again = page(app, client, url)
    assert f'name="seq" value="{int(seq) + 1}"' in again
    assert 'class="strip-last just"' not in again  # kept, without the answer's news


def test_change_mode_is_made_afresh(app, client):
    url = seeded_url(app, "yard", states.YARD, states.YARD_MID)
    page(app, client, url)
    rendered = made(app)
    page(app, client, url + "?change=3")
    page(app, client, url + "?change=3")
    assert len([name for name in rendered if name == "yard/table.html"]) == 2


def test_every_phone_shares_a_street_table_s_page_and_its_card_library(app):
    """Issue 45: the cards seen at earlier tables are the table's (those of the phone that
    started it), so a phone that played another street table gets the same page as one that
    did not. A table started before tables kept them offers this phone's own earlier tables:
    there, each phone gets the page made afresh for it."""
    from companion import storage

    earlier = seeded_url(app, "street", states.STREET, states.STREET_MID)
    url = seeded_url(app, "street", states.STREET, ())
    old = seed(database(app), "street", states.STREET, ())
    db = storage.connect(str(database(app)))
    db.execute("update tables set earlier_tables = null where id = ?", [old])
    db.conn.commit()
    db.close()
    played, new = app.test_client(), app.test_client()
    page(app, played, earlier)
    shared = without_one_time_values(page(app, new, url, keep=False))
    for phone in (played, new, played):
        assert without_one_time_values(page(app, phone, url)) == shared
    own = {name: page(app, phone, f"/street/{old}/", keep=False) for name, phone in
           (("played", played), ("new", new))}
    assert "office" in own["played"].lower() and without_one_time_values(own["played"]) != \
        without_one_time_values(own["new"])
    for name, phone in (("played", played), ("new", new), ("played", played), ("new", new)):
        kept = page(app, phone, f"/street/{old}/")
        assert without_one_time_values(kept) == without_one_time_values(own[name]), name


def test_a_phone_s_kept_urbanisation_cards_keep_its_page_apart(app):
    cards = seeded_url(app, "urbanisation", states.URBAN, states.URBAN_FINAL)
    url = seeded_url(app, "urbanisation", states.URBAN, states.URBAN_ACTIONS)
    seen, new = app.test_client(), app.test_client()
    page(app, seen, cards)  # learns the factories and inventions of that table
    query = "?open=attract"
    own = {name: page(app, phone, url + query, keep=False) for name, phone in
           (("seen", seen), ("new", new))}
    assert without_one_time_values(own["seen"]) != without_one_time_values(own["new"])
    for name, phone in (("new", new), ("seen", seen), ("new", new), ("seen", seen)):
        kept = page(app, phone, url + query)
        assert without_one_time_values(kept) == without_one_time_values(own[name]), name


def test_a_phone_that_saved_a_5th_avenue_board_gets_its_own_set_up(app):
    url = seeded_url(app, "fifth_avenue", states.FIFTH, ())
    saved, new = app.test_client(), app.test_client()
    with saved.session_transaction() as session:
        session["fifth_avenue_board"] = {"colours": states.FIFTH_PLAYING[0][1]["colours"],
                                         "set_sizes": states.FIFTH_PLAYING[0][1]["set_sizes"]}
    page(app, new, url)
    assert "Use the saved board" in page(app, saved, url)
    assert "Use the saved board" not in page(app, new, url)


def test_the_history_is_kept_too_and_follows_the_table(app, client):
    url = seeded_url(app, "yard", states.YARD, states.YARD_MID)
    fresh = page(app, client, url + "history", keep=False)
    rendered = made(app)
    assert page(app, client, url + "history") == page(app, client, url + "history") == fresh
    assert rendered == ["history.html"]
    seq = re.search(r'name="seq" value="(\d+)"', page(app, client, url)).group(1)
    key = re.search(r'name="key" value="([^"]+)"', page(app, client, url)).group(1)
    client.post(url + "buy", data={"seq": seq, "key": key, "player": "Cy", "building": "park"})
    assert "Cy bought a park" in page(app, client, url + "history")
    assert "Cy bought a park" not in fresh


def test_the_cookie_is_sent_again_only_when_the_session_changes_and_once_a_day(app, client):
    """A permanent session's cookie was written on every page (Flask renews it by default):
    now only when the session changes, and a table page changes it once a day, so the 400
    days a phone keeps its tables count from its last day at a table."""
    url = seeded_url(app, "yard", states.YARD, states.YARD_MID)
    cookies = [[c for c in client.get(url).headers.getlist("Set-Cookie")
                if c.startswith("session=")] for _ in range(3)]
    assert [bool(c) for c in cookies] == [True, False, False]
    assert "Expires=" in cookies[0][0]
    with client.session_transaction() as session:
        session["day"] = "2000-01-01"  # the phone was last here long ago
    renewed = [c for c in client.get(url).headers.getlist("Set-Cookie")
               if c.startswith("session=")]
    assert renewed and "Expires=" in renewed[0]


def test_the_home_page_is_kept_per_what_it_shows(app):
    """A new browser's home page is everyone's first page: made once and kept (it cost 8.5 ms
    of WTForms, a kept one 0.6 ms); once a browser has a table its page lists it, and the
    other browsers' page stays as it was."""
    first, second, third = app.test_client(), app.test_client(), app.test_client()
    fresh = page(app, first, "/", keep=False)
    rendered = made(app)
    kept = [page(app, phone, "/") for phone in (first, second)]
    assert rendered == ["home.html"]
    assert [without_one_time_values(p) for p in kept] == [without_one_time_values(fresh)] * 2
    assert pages.CSRF_MARK not in kept[0]
    new_table(first, "Ann", "Ben")
    assert "Your tables" in page(app, first, "/") and "Ann" in page(app, first, "/")
    assert without_one_time_values(page(app, third, "/")) == without_one_time_values(fresh)
    assert "Neuer Tisch" in page(app, third, "/", headers=GERMAN)


def test_the_kept_home_page_s_form_carries_each_browser_s_own_csrf_token(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.sqlite")})
    for _ in range(2):
        phone = app.test_client()
        home = text(phone.get("/"))
        token = home.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
        assert token != pages.CSRF_MARK
        answer = phone.post("/new", data={"csrf_token": token, "game": "yard",
                                          "players-0-name": "Ann", "players-1-name": "Ben"})
        assert answer.status_code == 303
    assert len(app.extensions["companion.pages"].pages) == 1  # both got the one kept page


def test_a_page_one_worker_made_is_taken_by_the_other(app, client):
    """Issue 46: the phones loading a table's page after an action land on either worker, and
    each made the page once. The page one worker makes is stored for the other
    (`storage.pages`), which takes it instead of making it; a page of another state is made."""
    url = new_table(client, "Tobi", "Nina", "Cy")
    other = create_app(dict(app.config))  # the other worker: its own memory, one database
    first = page(app, client, url)
    rendered = made(other)
    second = page(other, other.test_client(), url)
    assert rendered == [] and without_one_time_values(first) == without_one_time_values(second)
    assert ONE_TIME.findall(second) and ONE_TIME.search(second).group() not in first
    assert act(client, url, "buy", player="Tobi", building="park").status_code == 303
    page(other, other.test_client(), url)
    assert "yard/table.html" in rendered


def test_a_page_is_shared_once_its_answer_is_sent(app, client):
    """The page a request made is stored for the other worker when the WSGI server closes the
    answer, after sending it: the phone that asked waits for no write only the others need."""
    url = new_table(client, "Tobi", "Nina", "Cy")
    db = storage.connect(database(app))
    shared = "select count(*) from shared_pages"
    app.config["KEEP_PAGES"] = True
    before = db.execute(shared).fetchone()[0]
    response = client.get(url)
    assert response.status_code == 200 and db.execute(shared).fetchone()[0] == before
    response.close()
    assert db.execute(shared).fetchone()[0] == before + 1


def test_a_page_is_shared_only_if_the_database_lets_it_at_once(app, monkeypatch):
    """Sharing a page never holds its page load up behind another's write: it gives up after
    WAIT_MS, and the other worker makes its own page."""
    import sqlite3
    import time

    from companion import storage
    from companion.storage.pages import SHARED_SECONDS, WAIT_MS

    db = storage.connect(database(app))
    writer = sqlite3.connect(database(app), isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another connection holds the write lock
    try:
        started = time.monotonic()
        storage.share_page(db, "a page", "<html>")
        assert time.monotonic() - started < 10 * WAIT_MS / 1000
    finally:
        writer.execute("ROLLBACK")
    assert storage.shared_page(db, "a page") is None
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == 10_000  # as it was
    storage.share_page(db, "a page", "<html>")
    assert storage.shared_page(db, "a page") == "<html>"
    later = time.time() + SHARED_SECONDS + 1
    monkeypatch.setattr(storage.pages.time, "time", lambda: later)
    storage.share_page(db, "a later page", "<html>")  # and the old ones go
    assert storage.shared_page(db, "a page") is None


def test_a_page_of_an_earlier_start_of_the_server_is_never_taken(monkeypatch):
    """A page's name holds the marks of this start of the server (random per start): a page
    an earlier start stored, with its marks and maybe its templates, goes by another name."""
    key = (("table", "id", "token", 3, None), "en", b"")
    before = pages.page_name(key)
    monkeypatch.setattr(pages, "CSRF_MARK", "csrf" + "0" * 32)
    assert pages.page_name(key) != before
