"""After every view test: each event the app's forms wrote holds only the keys its kind declares
(an export imports again with the same payloads)."""

import json

import pytest

from companion import storage
from companion.rules import GAMES


@pytest.fixture(autouse=True)
def events_hold_declared_keys(request):
    if "app" not in request.fixturenames:
        yield
        return
    database = request.getfixturevalue("app").config["DATABASE"]
    yield
    db = storage.connect(database)
    try:
        rows = db.execute("select t.game, e.kind, e.payload from events e "
                          "join tables t on t.id = e.table_id").fetchall()
    finally:
        db.close()
    for game, kind, payload in rows:
        undeclared = set(json.loads(payload)) - GAMES[game].declared(kind)
        assert not undeclared, (game, kind, undeclared)
