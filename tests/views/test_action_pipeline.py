"""One action pipeline: every game's actions are served by one view from what the game declares,
a tap reads its table once and writes it once (the state copied once and pickled once), and
nothing but the declared actions answers."""

import pickle

import pytest

from companion import replays, storage
from companion.rules import GAMES
from companion.views import game_views
from companion.views.declarations import SHARED, Action
from tests.conftest import fresh, new_table, set_up, text
from tests.tables import players


def event_count(app, url):
    db = storage.connect(app.config["DATABASE"])
    table_id = url.rstrip("/").rsplit("/", 1)[1]
    return storage.last_seq(db, table_id)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_declared_action_is_served_and_checks_its_form(app, client, slug):
    """Each action a game declares answers at its URL; a form without its fields is refused in
    words (400, or 422 where the rules refuse it) and records nothing."""
    url = new_table(client, *players(slug), game=slug)
    declared = game_views(slug).actions
    assert declared and all(isinstance(action, Action) for action in declared.values())
    for name in [*declared, *SHARED]:
        response = client.post(url + name, data={"key": "0.aaaaaaaaaaaaaaaa"})
        assert response.status_code in (400, 422), name  # and said on the page, with why
        assert 'role="alert"' in text(response) or "error" in text(response), name
    assert event_count(app, url) == 0


def test_an_action_no_game_declares_is_not_found_and_records_nothing(app, client):
    url = new_table(client, "Ann", "Ben", "Cy")
    fields = fresh(client, url)
    for name in ("plot", "nothing", "buy/more", "../buy"):  # "plot" is 5th Avenue's, not the yard's
        assert client.post(url + name, data={"player": "Ann", **fields}).status_code == 404, name
    assert client.post(f"/language/{url.split('/')[2]}/buy", data=fields).status_code == 404
    assert event_count(app, url) == 0


def test_an_action_s_link_opened_as_a_page_says_so_in_the_players_language(client):
    url = new_table(client, "Ann", "Ben", "Cy")
    answer = client.get(url + "buy", headers={"Accept-Language": "de"})
    assert answer.status_code == 405
    assert "Unter diesem Link ist nichts" in text(answer)


def test_a_tap_copies_the_table_once_and_pickles_it_once(app, client, monkeypatch):
    """The write path: the table as it stands is copied from the worker's memory (one unpickle
    of its snapshot, not read from the database) and the table after the action is pickled
    once, as its snapshot; the log is never read, the table's row once."""
    url = set_up(client, "Ann", "Ben")
    fields = fresh(client, url)  # and the table in this worker's memory
    counts = {"dumps": 0, "loads": 0, "rows": 0, "snapshots": 0}

    def counted(name, real):
        def call(*args, **kwargs):
            counts[name] += 1
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(replays.pickle, "dumps", counted("dumps", pickle.dumps))
    monkeypatch.setattr(replays.pickle, "loads", counted("loads", pickle.loads))
    monkeypatch.setattr(storage, "get_table", counted("rows", storage.get_table))
    monkeypatch.setattr(storage, "snapshot", counted("snapshots", storage.snapshot))
    monkeypatch.setattr(storage, "events", lambda *a: pytest.fail("the whole log was read"))
    assert client.post(url + "first", data={"player": "Ann", **fields}).status_code == 303
    assert counts == {"dumps": 1, "loads": 1, "rows": 1, "snapshots": 0}
