"""Several phones act on one table at once through a live server: every acknowledged action is in
the log exactly once, every refused one changed nothing, and no answer is a 500."""

import re
import threading

import pytest
from werkzeug.serving import make_server

from companion import create_app, storage
from tests.reliability.live import browser, new_table, post

CLIENTS, TRIES = 4, 12


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    database = str(tmp_path / "live.sqlite")
    app = create_app({"DATABASE": database})
    live = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=live.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{live.server_port}", database
    live.shutdown()


def phone(base, table, results):
    opener = browser()
    for attempt in range(TRIES):
        page = opener.open(base + table, timeout=10).read().decode()
        seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        building = ["museum", "theater", "station", "church", "park", "skyscraper"][attempt % 6]
        status = post(opener, base + table + "buy",
                      {"csrf_token": token, "seq": seq, "player": "Ann", "building": building})
        results.append(status)


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
    assert set(results) <= {303, 409, 422}, results  # done, outdated screen, rules refuse
    db = storage.connect(database)
    events = storage.events(db, table.strip("/").split("/")[-1])
    assert len(events) == results.count(303) > 0
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
