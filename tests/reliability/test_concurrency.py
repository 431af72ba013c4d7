"""Several phones act on one table at once through a live server, each sending every action twice
(a retry after a dropped answer): every acknowledged action is in the log exactly once, a retry
gets the first answer, every refused one changed nothing, and no answer is a 500."""

import threading

import pytest

from companion import storage
from companion.app import create_app
from tests.reliability.live import action_fields, browser, new_table, post, served

CLIENTS, TRIES = 4, 12


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    database = str(tmp_path / "live.sqlite")
    # These phones post the moment a page has loaded, as no thumb can: no ghost-tap guard.
    app = create_app({"DATABASE": database, "GHOST_TAP_SECONDS": 0})
    with served(app) as base:
        yield base, database


def phone(base, table, results):
    opener = browser()
    for attempt in range(TRIES):
        page = opener.open(base + table, timeout=10).read().decode()
        building = ["museum", "theater", "station", "church", "park", "skyscraper"][attempt % 6]
        data = {**action_fields(page), "player": "Ann", "building": building}
        first = post(opener, base + table + "buy", data)
        retry = post(opener, base + table + "buy", data)
        results.append((first, retry))


def test_concurrent_phones_never_lose_or_double_an_action(server):
    base, database = server
    table = new_table(base)
    results: list[int] = []
    phones = [threading.Thread(target=phone, args=(base, table, results)) for _ in range(CLIENTS)]
    for t in phones:
        t.start()
    for t in phones:
        t.join(timeout=60)
    assert len(results) == CLIENTS * TRIES
    firsts = [first for first, _retry in results]
    assert set(firsts) <= {303, 409, 422}, results  # done, outdated screen, rules refuse
    assert all(retry == 303 for first, retry in results if first == 303), results
    db = storage.connect(database)
    events = storage.events(db, table.strip("/").split("/")[-1])
    assert len(events) == firsts.count(303) > 0
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
