"""Hostile files at the import: random bytes, deep nesting, huge numbers, unicode, wrong types in
every field, extra fields, with and without a recomputed digest. The web answers with a clear
refusal (400, 413 or 422), never a 500, and stores a table only for a valid file: one that
comes back out of the new table exactly as it went in."""

import copy
import io
import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import exchange
from companion.app import get_db
from companion.rules import GAMES
from tests.tables import finished_table

ADDRESSES = (f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}" for n in itertools.count(1))
SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(["", "Paul", "paul", " Paul", "Dirk", "undo", "redo", "final", "buy",
                     "park", "castle", "blue", "red", "pink", "open", "finished", "yard",
                     "street", "2024-01-01T00:00:00+00:00", "2024-01-01", "\u0000", "\u202e",
                     "😀" * 10, "x" * 300]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


@pytest.fixture
def files(app, client):
    """Exported files of a finished game of every kind."""
    def export(slug):
        table_id = finished_table(app, slug)
        return json.loads(client.get(f"/{slug}/{table_id}/export.json").data)

    return {slug: export(slug) for slug in ("yard", "fifth_avenue", "street", "urbanisation")}


def post(client, body):
    return client.post("/import", data={"file": (io.BytesIO(body), "table.json")},
                       content_type="multipart/form-data",
                       environ_base={"REMOTE_ADDR": next(ADDRESSES)})


def tables(app):
    with app.app_context():
        return get_db()["tables"].count


def check_answer(app, client, body, document=None):
    before = tables(app)
    response = post(client, body)
    assert response.status_code in (303, 400, 413, 422), response.get_data(as_text=True)[:2000]
    if response.status_code != 303:
        assert tables(app) == before
        assert 'class="error"' in response.get_data(as_text=True)
        return
    assert tables(app) == before + 1
    assert document is not None, "only a file built from an export can be valid"
    url = response.headers["Location"]
    again = json.loads(client.get(url + "export.json").data)
    assert again == declared_only(document)
    for page in ("", "history", "results.csv", "bgstats.json"):
        assert client.get(url + page).status_code in (200, 409), page


def declared_only(document):
    """The file as the app keeps it: each payload with only the keys its kind declares."""
    kept = copy.deepcopy(document)
    for event in kept["events"]:
        keys = GAMES[kept["game"]].payload_keys(event["kind"]) or frozenset()
        event["payload"] = {k: v for k, v in event["payload"].items() if k in keys}
    kept["digest"] = exchange.digest(kept)
    return kept


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(
    st.binary(max_size=3000),
    st.text(max_size=500).map(str.encode),
    VALUES.map(lambda v: json.dumps(v).encode()),
    st.integers(min_value=1, max_value=200_000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(min_value=1, max_value=50_000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
    st.integers(min_value=4000, max_value=20_000).map(lambda n: b"1" * n),
    st.sampled_from([b"1e999", b"-1e999", b"NaN", b'{"format": Infinity}', b"\xef\xbb\xbf{}",
                     b"null", b'"companion-table"', b"\x00" * 100]),
))
def test_random_files_are_refused_in_words(app, client, body):
    check_answer(app, client, body)


def paths(document):
    """Every place in a table file a value can be changed: fields, players, events, payloads
    (as far as earlier changes left them lists and objects)."""
    places = [(key,) for key in document]
    for part in ("players", "events"):
        items = document.get(part)
        for i, item in enumerate(items if isinstance(items, list) else []):
            places += [(part, i, key) for key in (item if isinstance(item, dict) else [])]
            payload = item.get("payload") if isinstance(item, dict) else None
            if isinstance(payload, dict):
                places += [(part, i, "payload", key) for key in payload]
    return places


def change(document, path, value, extra):
    target = document
    for step in path[:-1]:
        target = target[step]
    if extra:
        target[f"{path[-1]}_extra"] = value
    else:
        target[path[-1]] = value


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_files_with_wrong_values_anywhere_never_make_a_500(app, client, files, data):
    document = copy.deepcopy(files[data.draw(st.sampled_from(sorted(files)))])
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        path = data.draw(st.sampled_from(paths(document)))
        change(document, path, data.draw(VALUES), extra=data.draw(st.booleans()))
    if data.draw(st.booleans()):
        document["digest"] = exchange.digest(document)
    check_answer(app, client, json.dumps(document, ensure_ascii=data.draw(st.booleans()))
                 .encode(), document)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_shuffled_dropped_or_repeated_events_are_refused_or_restored_exactly(app, client, files,
                                                                           data):
    document = copy.deepcopy(files["yard"])
    events = document["events"]
    document["events"] = data.draw(st.lists(st.sampled_from(events), max_size=len(events) + 3))
    if data.draw(st.booleans()):
        for seq, event in enumerate(document["events"], 1):
            document["events"][seq - 1] = dict(event, seq=seq)
    document["digest"] = exchange.digest(document)
    check_answer(app, client, json.dumps(document).encode(), document)
