"""Hostile input at the platform's own endpoints: starting a table, revoking links, choosing a
language. Never a 500; a refused table start creates nothing."""

import re
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import storage
from tests.conftest import new_table

TEXT = st.one_of(st.text(max_size=60), st.sampled_from(
    ["", " ", "Dirk", "Alea", "a" * 25, "\u0000", "\u202e", "<script>", "Ann", "ann", "yard",
     "street", "red", "none", "None", "-1", "10" * 40, "/\t/evil.example", "/\n",
     "/\\evil", "/\r\n//x"]))
FIELDS = ["game", "players-0-name", "players-1-name", "players-2-name", "players-6-name",
          "players-0-colour", "players-1-colour", "players-7-colour", "seq", "csrf_token"]


def table_count(app):
    return storage.connect(app.config["DATABASE"]).execute(
        "select count(*) from tables").fetchone()[0]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(form=st.dictionaries(st.sampled_from(FIELDS), TEXT, max_size=8))
def test_starting_a_table_never_makes_a_500(app, client, form):
    before = table_count(app)
    response = client.post("/new", data=form)
    assert response.status_code in (303, 400, 413, 422, 429), form
    assert table_count(app) == before + (response.status_code == 303)


@pytest.fixture
def url(client):
    return new_table(client, "Ann", "Ben")


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(form=st.dictionaries(st.sampled_from(FIELDS), TEXT, max_size=4), code=TEXT, next_=TEXT)
def test_revoking_and_the_language_switch_never_make_a_500(client, url, form, code, next_):
    # after the first revocation the old link is gone (404), as it should be
    assert client.post(url + "renew", data=form).status_code in (303, 400, 404)
    answer = client.get(f"/language/{quote(code, safe='')}", query_string={"next": next_})
    assert answer.status_code in (303, 404, 308)
    if answer.status_code == 303:  # where a browser would go: it drops tabs and line breaks
        target = re.sub(r"[\t\n\r]", "", answer.headers["Location"]).replace("\\", "/")
        assert target.startswith("/") and not target.startswith("//"), target
