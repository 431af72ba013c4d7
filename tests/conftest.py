import re

import pytest

from companion import create_app
from companion.views.tables import SEAT_COLOURS


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    return create_app({
        "TESTING": True,
        "DATABASE": str(tmp_path / "companion.sqlite"),
        "WTF_CSRF_ENABLED": False,
    })


@pytest.fixture
def client(app):
    return app.test_client()


def new_table(client, *names, game="yard"):
    """Create a table through the home page form; returns its page URL."""
    data = {"game": game}
    for seat, name in enumerate(names):
        data[f"players-{seat}-name"] = name
        data[f"players-{seat}-colour"] = SEAT_COLOURS[seat]
    response = client.post("/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def current_seq(client, url):
    page = client.get(url).get_data(as_text=True)
    return int(re.search(r'name="seq" value="(\d+)"', page).group(1))


def act(client, url, action, **data):
    """Post an action from a freshly loaded screen."""
    data.setdefault("seq", current_seq(client, url))
    return client.post(url + action, data=data)
