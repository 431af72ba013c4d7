"""Hostile input at every action endpoint: random, huge, negative, unicode, missing and extra
fields. The web answers with a clear refusal (400, 409 or 422), never a 500, and a refused action
leaves the table's log as it was."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import new_table, screen

ENDPOINTS = {
    "yard": ["buy", "score", "dirk", "setup", "youngest", "correct", "deck", "final", "undo",
             "redo"],
    "fifth_avenue": ["board", "board/saved", "setup", "first", "plot", "move", "skyscrapers",
                     "score", "alea", "auction", "final", "hand", "undo", "redo"],
    "street": ["play/0", "play/1", "buy", "upcoins", "deck_empty", "account", "finish", "undo",
               "redo"],
}
FIELDS = ["player", "building", "receiver", "scoring", "owner", "count", "left", "target", "tile",
          "commissioner", "to", "district", "high_bid", "cards", "draw", "winner", "colour",
          "highest", "build", "stop", "tiles", "street", "site", "card", "project", "deck",
          "cost", "amount", "cards_0", "total_0", "to_0", "card_0", "currency_0",
          "museum", "income_each_0", "income_amount_0", "set_sizes", "34w_0", "row_0",
          "plot_34w", "kind_34w"]
VALUES = st.one_of(
    st.text(max_size=40),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.sampled_from(["", "0", "-1", "3", "9", "A", "B", "C", "park", "Dirk", "alea", "Ann",
                     "34w:2", "34w:99", "times", "city_hall", "white", "4 4", "{}", "[]",
                     '{"project": "office"}', "null", "NaN", "1e309", "\u0000", "ï¿½" * 30]),
)
FORMS = st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=8)


@pytest.fixture
def tables(client):
    return {
        "yard": new_table(client, "Ann", "Ben"),
        "fifth_avenue": new_table(client, "Ann", "Ben", game="fifth_avenue"),
        "street": new_table(client, "Ann", "Ben", "Cy", game="street"),
    }


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_form_makes_a_500(client, tables, data):
    game = data.draw(st.sampled_from(sorted(ENDPOINTS)))
    endpoint = data.draw(st.sampled_from(ENDPOINTS[game]))
    form = data.draw(FORMS)
    url = tables[game]
    seq, key = screen(client, url)
    form.setdefault("seq", str(data.draw(st.sampled_from([seq, seq, seq - 1, seq + 5]))))
    form.setdefault("key", data.draw(st.sampled_from([key, key, key, "", "1.x", key + "!"])))
    history_before = client.get(url + "history").get_data(as_text=True)
    response = client.post(url + endpoint, data=form)
    assert response.status_code in (303, 400, 404, 409, 413, 422), (game, endpoint, form)
    if response.status_code != 303:
        assert client.get(url + "history").get_data(as_text=True) == history_before
