"""A long table's history: a page of at most HISTORY_LINES lines, newest first, with links to
older ones; its score pad worked out once per state of the table, however many phones read it
(issue 27, item 4: a 2,000-event history cost 0.69 s and 616 KB on every GET)."""

import re

from companion import replays, rules, storage
from companion.views.main import HISTORY_LINES
from tests.conftest import GERMAN, fresh, new_table, text


def long_table(app, client, events):
    """A yard table: a purchase, then undo/redo pairs up to `events` events."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    table_id = url.rstrip("/").rsplit("/", 1)[1]
    db = storage.connect(app.config["DATABASE"])
    game, names = rules.GAMES["yard"], ["Tobi", "Nina", "Paul"]
    replays.record(db, table_id, game, names, 0, "buy",
                   {"player": "Tobi", "building": "park", "for": "Tobi"})
    while storage.last_seq(db, table_id) < events:
        seq = storage.last_seq(db, table_id)
        replays.record(db, table_id, game, names, seq, "undo" if seq % 2 else "redo", {})
    return url


def numbers(page):
    return [int(n) for n in re.findall(r'<span class="seq">#(\d+)</span>', page)]


def test_a_long_history_comes_a_page_at_a_time_newest_first(app, client):
    url = long_table(app, client, 250)
    first = text(client.get(url + "history"))
    assert numbers(first) == list(range(250, 250 - HISTORY_LINES, -1))
    assert f'href="{url}history?page=2"' in first and "Page 1 of 3" in first
    last = text(client.get(url + "history?page=3"))
    assert numbers(last) == list(range(50, 0, -1))
    assert f'href="{url}history?page=2"' in last and "?page=4" not in last
    assert client.get(url + "history?page=4").status_code == 404
    assert client.get(url + "history?page=0").status_code == 404
    assert "Seite 1 von 3" in text(client.get(url + "history", headers=GERMAN))


def test_the_history_is_worked_out_once_per_state_of_the_table(app, client, monkeypatch):
    url = long_table(app, client, 120)
    reads = []
    real = storage.events
    monkeypatch.setattr(storage, "events", lambda db, table_id: reads.append(table_id)
                        or real(db, table_id))
    for page in ("", "?page=2", "", "?page=2"):
        assert client.get(url + "history" + page).status_code == 200
    assert len(reads) == 1


def test_a_fix_far_back_is_found_from_the_start(app, client):
    """Issue 45: changing an early action meant scrolling back through pages of newest-first
    lines. "From the start" shows the history oldest first, a page at a time."""
    url = long_table(app, client, 250)
    assert f'href="{url}history?order=oldest"' in text(client.get(url + "history"))
    first = text(client.get(url + "history?order=oldest"))
    assert numbers(first) == list(range(1, HISTORY_LINES + 1))
    assert f'href="{url}history?page=2&amp;order=oldest"' in first
    assert f'href="{url}history"' in first and "Newest first" in first
    last = text(client.get(url + "history?page=3&order=oldest"))
    assert numbers(last) == list(range(201, 251))
    assert "Von Anfang an" in text(client.get(url + "history", headers=GERMAN))


def test_a_change_s_cancel_leads_back_to_the_line_of_the_action_it_was_changing(app, client):
    """Found at a table: Cancel on a change of an action far back led to the newest lines, not
    to the one the table had come from. It leads to the page that holds it, at its line."""
    url = long_table(app, client, 251)  # #1, the purchase, in force (the last tap a redo)
    changing = text(client.get(url + "?change=1"))
    cancel = f'href="{url}history?at=1#e1"'
    assert cancel in changing
    preview = text(client.post(url + "change/out?change=1", data=fresh(client, url + "?change=1")))
    assert cancel in preview
    back = text(client.get(url + "history?at=1"))
    assert 'id="e1"' in back and "Page 3 of 3" in back
    assert "Page 1 of 3" in text(client.get(url + "history?order=oldest&at=1"))
    assert "Page 2 of 3" in text(client.get(url + "history?at=150"))
    assert "Page 1 of 3" in text(client.get(url + "history?at=999"))  # no such line: the first
