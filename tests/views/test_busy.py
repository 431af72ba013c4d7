"""Another process holding the database's write lock past the busy timeout (issue 27, item 4):
the write is answered 503 with Retry-After, in the players' language (as words for app.js),
nothing is recorded, and the same tap succeeds once the lock is free."""

import sqlite3
from contextlib import contextmanager

import pytest

from companion import storage
from companion.app import create_app
from tests.conftest import fresh, new_table, text

BUSY = {"en": "The server is busy writing something else just now, so this was not recorded.",
        "de": "Der Server schreibt gerade etwas anderes, deshalb wurde das nicht eingetragen."}


@pytest.fixture
def app(tmp_path, monkeypatch):
    """A busy timeout of a fifth of a second (10 s as served), errors answered as served."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    return create_app({"DATABASE": str(tmp_path / "c.sqlite"), "WTF_CSRF_ENABLED": False,
                       "GHOST_TAP_SECONDS": 0, "DATABASE_TIMEOUT": 0.2,
                       "PROPAGATE_EXCEPTIONS": False})


@contextmanager
def write_lock_held(app):
    """Another process's connection in a write transaction (it holds the write lock)."""
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.rollback()
        other.close()


def logged(app, url):
    db = storage.connect(app.config["DATABASE"])
    try:
        return len(storage.events(db, url.strip("/").split("/")[1]))
    finally:
        db.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_write_while_the_lock_is_held_is_answered_503_and_recorded_once_it_is_free(
        app, language):
    client = app.test_client()
    url = new_table(client, "Mia", "Ola", "Pit")
    client.get(f"/language/{language}")
    form = fresh(client, url) | {"player": "Mia", "building": "park"}
    with write_lock_held(app):
        response = client.post(url + "buy", data=form)
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert BUSY[language] in text(response) and f'href="{url}"' in text(response)
    assert logged(app, url) == 0
    assert client.post(url + "buy", data=form).status_code == 303
    assert logged(app, url) == 1


def test_app_js_gets_the_words_to_show_beside_the_tapped_control(app):
    client = app.test_client()
    url = new_table(client, "Mia", "Ola", "Pit")
    client.get("/language/de")
    form = fresh(client, url) | {"player": "Mia", "building": "park"}
    with write_lock_held(app):
        response = client.post(url + "buy", data=form, headers={"X-Companion": "fetch"})
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert response.get_json() == {"refused": BUSY["de"] + " Versuche es in ein paar Sekunden "
                                              "noch einmal."}
    assert logged(app, url) == 0


def test_any_other_operational_error_is_an_unexpected_error(app, monkeypatch, caplog):
    client = app.test_client()
    url = new_table(client, "Mia", "Ola", "Pit")

    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("no such table: events")

    monkeypatch.setattr(storage, "last_seq", broken)
    response = client.get(url)
    assert response.status_code == 500
    assert "Something went wrong on our side" in text(response)
    assert "no such table: events" in caplog.text
