"""An unexpected error (a bug, a fault of the server) answers a page in the players' language
that says nothing recorded is lost and leads back to the table; the server's log has the route
and the table's short id, never the table's secret link."""

import logging

import pytest

from companion.app import create_app
from companion.views import street
from tests.conftest import act, new_table


@pytest.fixture
def app(tmp_path, monkeypatch):
    """As the server runs it: errors are answered, not raised into the test."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    return create_app({"DATABASE": str(tmp_path / "c.sqlite"), "WTF_CSRF_ENABLED": False,
                       "GHOST_TAP_SECONDS": 0, "PROPAGATE_EXCEPTIONS": False})


def broken(*args, **kwargs):
    raise KeyError("a bug")


@pytest.mark.parametrize(
    "language, words, back",
    [
        ("en", "Something went wrong on our side. Nothing that was recorded is lost",
         "Back to the table"),
        ("de", "Bei uns ist etwas schiefgegangen. Nichts Eingetragenes ist verloren",
         "Zurück zum Tisch"),
    ],
)
def test_an_unexpected_error_is_said_in_the_players_language_and_logged_without_the_link(
        app, monkeypatch, caplog, language, words, back):
    client = app.test_client()
    url = new_table(client, "Mia", "Ola", game="street")
    table_id = url.strip("/").split("/")[1]
    client.get(f"/language/{language}")
    monkeypatch.setattr(street, "builder", broken)
    with caplog.at_level(logging.ERROR):
        response = client.get(url)
    page = response.get_data(as_text=True)
    assert response.status_code == 500
    assert words in page and back in page and f'href="{url}"' in page
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "Unexpected error in GET /<slug>/<table_id>/ (table " in logged
    assert table_id not in caplog.text


def test_a_stray_value_error_in_a_payload_is_a_bug_not_a_refusal(app, monkeypatch, caplog):
    """Only the rules' and the forms' refusals are said to the players (422); Python's own
    words from a bug in a payload builder are not."""
    client = app.test_client()
    url = new_table(client, "Mia", "Ola", game="street")

    def buggy(*args, **kwargs):
        raise ValueError("invalid literal for int() with base 10: 'x'")

    monkeypatch.setattr(street, "card_payload", buggy)
    form = {"player": "Mia", "street": "Mia", "site": 1, "project": "office", "source": ""}
    response = act(client, url, "play/0", **form)
    assert response.status_code == 500
    assert "invalid literal" not in response.get_data(as_text=True)
    assert "invalid literal" in caplog.text
