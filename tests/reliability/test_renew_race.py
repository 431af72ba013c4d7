"""Revoking a table's links while phones act on it: every racing action is either recorded on
the table (under its new id) or refused with a clear answer, never a 500."""

import re
import threading

import pytest

from companion import replays, storage
from companion.app import create_app
from tests.conftest import fresh, new_table
from tests.reliability.live import action_fields, browser, new_owned_table, post, served

ROUNDS, PHONES = 25, 4


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    database = str(tmp_path / "race.sqlite")
    # The phones post the moment a page has loaded, as no thumb can: no ghost-tap guard.
    app = create_app({"DATABASE": database, "GHOST_TAP_SECONDS": 0,
                      "RATE_LIMITS": {"new": (1000, 60)}})
    with served(app) as base:
        yield base, database


def race(base, owner, table):
    """Phones tap a purchase on a freshly loaded screen while the table's starter renews its
    links, all at once; returns every answer's status."""
    phones = [browser() for _ in range(PHONES)]
    forms = [action_fields(p.open(base + table, timeout=10).read().decode()) for p in phones]
    share = owner.open(base + table + "share", timeout=10).read().decode()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', share).group(1)
    start, answers = threading.Barrier(PHONES + 1), []

    def tap(phone, form, building):
        start.wait()
        answers.append(post(phone, base + table + "buy",
                            {**form, "player": "Ann", "building": building}))

    def renew():
        start.wait()
        answers.append(post(owner, base + table + "renew", {"csrf_token": token}))

    threads = [threading.Thread(target=tap, args=(p, f, b)) for p, f, b in
               zip(phones, forms, ["museum", "park", "church", "station"], strict=True)]
    threads.append(threading.Thread(target=renew))
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return answers


def test_renewing_links_while_phones_act_never_answers_500(server):
    base, database = server
    statuses = []
    for _ in range(ROUNDS):
        owner, table = new_owned_table(base)
        answers = race(base, owner, table)
        statuses += answers
        db = storage.connect(database)
        renewed = db.execute("select id from tables order by rowid desc limit 1").fetchone()[0]
        events = storage.events(db, renewed)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        assert len(events) == answers.count(303) - 1  # the renewal is one of the 303s
    assert set(statuses) <= {303, 409, 410, 404}, statuses
    assert 410 in statuses or 404 in statuses  # the race did happen


@pytest.mark.parametrize("meanwhile", ["deleted", "renewed"])
def test_a_page_read_while_its_table_goes_is_not_found(app, client, monkeypatch, meanwhile):
    """Issue 43, finding 2: a page view that replays a table's log (no snapshot at hand) while
    the table is deleted or its links renewed answered 500 (a snapshot kept for a table no
    longer there); now it answers as a reload would, 404 with words, and keeps nothing."""
    url = new_table(client, "Ann", "Ben")
    table_id = url.rstrip("/").rsplit("/", 1)[1]
    db = storage.connect(app.config["DATABASE"])
    db.execute("delete from snapshots")
    replays.MEMORY.forget()
    replayed = replays.replay

    def replay_while_it_goes(*args, **kwargs):
        table = replayed(*args, **kwargs)
        other = storage.connect(app.config["DATABASE"])
        if meanwhile == "deleted":
            storage.delete_table(other, table_id)
        else:
            storage.renew_links(other, table_id)
        other.close()
        return table

    monkeypatch.setattr(replays, "replay", replay_while_it_goes)
    answer = client.get(url)
    assert answer.status_code == 404
    assert "There is nothing at this link" in answer.get_data(as_text=True)
    assert db.execute("select count(*) from snapshots").fetchone()[0] == 0


def test_an_action_while_its_table_is_renewed_is_told_so(app, client, monkeypatch):
    """Issue 43, finding 2: a purchase whose table's links are renewed after the table was
    loaded and before its write answers 410 with words (as when the renewal comes first),
    never 500; nothing is recorded."""
    url = new_table(client, "Ann", "Ben")
    table_id = url.rstrip("/").rsplit("/", 1)[1]
    fields = fresh(client, url)
    db = storage.connect(app.config["DATABASE"])
    record = replays.record
    renewed = []

    def record_after_renewal(*args, **kwargs):
        if not renewed:
            renewed.append(storage.renew_links(storage.connect(app.config["DATABASE"]),
                                               table_id))
        return record(*args, **kwargs)

    monkeypatch.setattr(replays, "record", record_after_renewal)
    answer = client.post(url + "dirk", data={**fields, "skyscraper": 6})
    assert answer.status_code == 410
    assert "This table has new links now" in answer.get_data(as_text=True)
    assert storage.last_seq(db, renewed[0]) == 0
