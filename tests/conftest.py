import io
import re

import pytest
from pypdf import PdfReader

from companion import storage
from companion.app import create_app
from companion.rules.fifth_avenue_table import DISTRICT_IDS
from companion.views.tables import SEAT_COLOURS


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The app on a temporary database. Forms are posted at once after their page was loaded,
    as no thumb could: the guard against a second tap landing on a just-loaded page is off here
    and tested on its own (tests/views/test_one_action.py)."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    return create_app({
        "TESTING": True,
        "DATABASE": str(tmp_path / "companion.sqlite"),
        "WTF_CSRF_ENABLED": False,
        "GHOST_TAP_SECONDS": 0,
    })


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def db(tmp_path):
    """A database of the app's schema in a file of its own, for the storage functions."""
    db = storage.connect(str(tmp_path / "storage.sqlite"))  # not the app fixture's
    storage.migrate(db)
    yield db
    db.close()


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
    return screen(client, url)[0]


def screen(client, url):
    """The last seq a freshly loaded table page shows, and a one-time key of one of its forms."""
    page = client.get(url).get_data(as_text=True)
    seq = int(re.search(r'name="seq" value="(\d+)"', page).group(1))
    return seq, re.search(r'name="key" value="([^"]+)"', page).group(1)


def fresh(client, url):
    """The fields every action form carries, from a freshly loaded screen: seq and key."""
    seq, key = screen(client, url)
    return {"seq": seq, "key": key}


def act(client, url, action, **data):
    """Post an action from a freshly loaded screen (its seq and a form's key, unless given)."""
    if "seq" not in data or "key" not in data:
        seq, key = screen(client, url)
        data.setdefault("seq", seq)
        data.setdefault("key", key)
    return client.post(url + action, data=data)


def text(response):
    return response.get_data(as_text=True)


def pdf_words(data):
    """A PDF's words, every page's, each run of white space as one space."""
    pages = PdfReader(io.BytesIO(data)).pages
    return " ".join(" ".join(page.extract_text().split()) for page in pages)


GERMAN = {"Accept-Language": "de"}
SCRIPT = {"X-Companion": "fetch"}  # an action as app.js sends it, answered in place


def confirm_fields(preview):
    """The preview's confirm form: its signed change, seq and one-time key."""
    form = preview.split('class="change-preview"')[1]
    return {name: re.search(rf'name="{name}"( type="hidden")? value="([^"]*)"', form).group(2)
            for name in ("change", "seq", "key")}


def act_in_german(client, url, action, **data):
    data = fresh(client, url) | data
    return client.post(url + action, data=data, headers=GERMAN)


# The 5th Avenue tables the views tests start from.
ROW = ["boutique", "jeweler", "gallery", "perfume"] * 5
# The starting businesses in board order, with the row no more of a kind than the box holds.
START_KINDS = ["boutique", "jeweler", "gallery", "perfume", "boutique", "jeweler", "gallery"]


def set_up(client, *names):
    url = new_table(client, *names, game="fifth_avenue")
    assert "Check or edit the board colours" in text(client.get(url))  # no saved board yet
    assert act(client, url, "board/saved").status_code == 303
    data = {f"plot_{d}": "0" for d in DISTRICT_IDS}
    data |= {f"kind_{d}": kind for d, kind in zip(DISTRICT_IDS, START_KINDS, strict=True)}
    data |= {f"row_{k}": kind for k, kind in enumerate(ROW)}
    assert act(client, url, "setup", **data).status_code == 303
    return url


def at_first_auction(client):
    """A 2-player table (Ann and Ben, with Alea) set up as `set_up` does, Ann first, at its
    first auction (34th St West): the initial skyscrapers, a business, the white commissioner
    moved on to City Hall."""
    url = set_up(client, "Ann", "Ben")
    act(client, url, "first", player="Ann")
    for target in ("34w:1", "34e:1", "times:2", "times:1"):
        act(client, url, "plot", target=target)
    act(client, url, "plot", target="34w:3", tile=0)
    for to in ("34w", "times", "52w", "central_park", "city_hall"):
        act(client, url, "move", commissioner="white", to=to)
    return url


def drawn_table(client):
    """A 2-player 5th Avenue table set up in one tap ('Draw the set-up for us'), Ann first, the
    initial skyscrapers placed on the first empty plots of four districts."""
    url = new_table(client, "Ann", "Ben", game="fifth_avenue")
    act(client, url, "board/saved")
    assert "Draw the set-up for us" in text(client.get(url))
    assert act(client, url, "setup/draw").status_code == 303
    act(client, url, "first", player="Ann")
    for district in ("34w", "34e", "times", "42w"):
        empty = re.search(rf'name="target" value="({district}:\d)"', text(client.get(url)))
        assert act(client, url, "plot", target=empty.group(1)).status_code == 303
    return url
