"""Bounded work per request: the expensive routes (new tables, imports, score sheets,
exports) are rate limited by token buckets per client and for all clients together, and blank
pads are rendered once and served from memory."""

import io

import pytest

from companion import storage
from companion.app import create_app
from companion.views import main
from companion.views.clients import client_key
from tests.conftest import new_table


def allowed(db, times, client="10.0.0.1", limit=60, seconds=600):
    """How many of the actions at these times the bucket lets through."""
    return sum(not storage.rate_limited(db, client, "new", limit, seconds, now=t) for t in times)


def test_a_bucket_lets_its_limit_through_then_one_per_refill(db):
    assert allowed(db, [1000.0] * 70) == 60
    assert allowed(db, [1005.0]) == 0  # 5 s refill half a token
    assert allowed(db, [1010.0, 1010.0]) == 1
    assert allowed(db, [1010.0], client="10.0.0.2") == 1  # another client has its own


def test_no_burst_across_what_was_a_window_boundary(db):
    """The fixed window let 120 tables through in 9 s: 60 just before a boundary, 60 after."""
    before, after = [599.0 + k / 100 for k in range(60)], [600.5 + k / 100 for k in range(60)]
    assert allowed(db, before + after) <= 61
    assert allowed(db, [1200.0] * 70) == 60  # and it refills to the limit, never beyond


def test_a_clock_stepping_back_counts_as_no_time_passed(db):
    """Issue 27: a clock stepped back 3,000 s drove the bucket to -300 tokens, and refusals
    lasted 3,000 s. Now no time passes: what was left stays, and it refills from there."""
    assert allowed(db, [1000.0]) == 1
    assert allowed(db, [-2000.0] * 3) == 3  # 59 tokens left, none taken by the step back
    assert allowed(db, [-2000.0] * 60) == 56
    assert allowed(db, [-1990.0, -1990.0]) == 1  # 10 s after the step: one token, as ever
    assert allowed(db, [-4000.0]) == 0 and allowed(db, [-3990.0]) == 1  # never below 0


def test_a_full_bucket_is_forgotten(db):
    allowed(db, [0.0])
    allowed(db, [700.0], client="10.0.0.9")
    rows = db.execute("select client from rate_buckets").fetchall()
    assert rows == [("10.0.0.9",)]


@pytest.fixture
def limited(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.sqlite"),
                       "WTF_CSRF_ENABLED": False,
                       "RATE_LIMITS": {"sheet": (2, 300), "new": (3, 600),
                                       "import": (3, 600), "export": (2, 300)}})


def start(phone, address="10.0.0.1", **names):
    """POST /new from this address with these seats (players-<seat>-name: name)."""
    data = {"game": "yard", **{f"players-{seat}-name": name for seat, name in names.items()}}
    return phone.post("/new", data=data, environ_base={"REMOTE_ADDR": address}).status_code


def test_score_sheets_are_rate_limited_per_client(limited):
    phone = limited.test_client()
    url = new_table(phone, "Tobi", "Nina")
    assert [phone.get(url + "sheet.pdf").status_code for _ in range(3)] == [200, 200, 429]
    assert "Many score sheets were printed from here" in phone.get(url + "sheet.pdf").text
    other = phone.get(url + "sheet.pdf", environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 200


def test_exports_read_whole_logs_so_they_are_rate_limited_per_client(limited):
    """Issue 27, item 4: an export reads the table's whole log; a flood of them waits."""
    phone = limited.test_client()
    url = new_table(phone, "Tobi", "Nina")
    assert [phone.get(url + "export.json").status_code for _ in range(3)] == [200, 200, 429]
    assert "Many tables were exported from here" in phone.get(url + "export.json").text
    assert phone.get(url + "export.json", environ_base={"REMOTE_ADDR": "10.0.0.7"}
                     ).status_code == 200
    assert phone.get(url).status_code == 200  # the table itself is not limited


def test_many_addresses_together_meet_the_shared_limit(limited):
    """Three tables per address, ten addresses' worth for everyone: the 31st table waits."""
    phone = limited.test_client()
    answers = [phone.post("/new", data={"game": "yard", "players-0-name": "A",
                                        "players-1-name": "B"},
                          environ_base={"REMOTE_ADDR": f"10.1.0.{n}"}).status_code
               for n in range(31)]
    assert answers == [303] * 30 + [429]


def test_refused_new_tables_spend_no_token(limited):
    """Issue 27: the limit was spent before the form was checked, so forms without names (or
    with one player) from many addresses locked everyone out. Only a table started spends it."""
    phone = limited.test_client()
    refused = [start(phone, f"10.2.0.{n}") for n in range(40)]
    refused += [start(phone, "10.2.1.1", **{"0": "Solo"}) for _ in range(10)]
    assert refused == [422] * 50
    assert [start(phone, "10.2.1.1", **{"0": "A", "1": "B"}) for _ in range(4)] == [303] * 3 + [429]


def test_refused_imports_spend_no_token(limited):
    """Issue 27: an import without a file (400) spent the limit; a file read still does."""
    phone = limited.test_client()
    empty = [phone.post("/import", data={}, environ_base={"REMOTE_ADDR": f"10.3.0.{n}"})
             for n in range(40)]
    assert {answer.status_code for answer in empty} == {400}
    read = [phone.post("/import", data={"file": (io.BytesIO(b"{}"), "t.json")}).status_code
            for _ in range(4)]
    assert read == [422] * 3 + [429]


def test_a_client_is_an_ipv4_address_or_an_ipv6_64():
    assert client_key("10.0.0.1") == "10.0.0.1" and client_key("::ffff:10.0.0.1") == "10.0.0.1"
    assert client_key("2001:db8:1:2::5") == client_key("2001:db8:1:2:ffff:1:2:3")
    assert client_key("2001:db8:1:2::5") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::5") != client_key("2001:db8:1:2::5")
    assert client_key(None) == "?" and client_key("unknown") == "unknown"


def test_the_addresses_of_one_ipv6_64_share_one_bucket(limited):
    """Issue 27: each address of a /64 had its own bucket, so one home's dozen addresses drained
    the shared one. One /64 is one client; another /64 is another."""
    phone = limited.test_client()
    seats = {"0": "A", "1": "B"}
    same = [start(phone, f"2001:db8:1:2::{n}", **seats) for n in range(1, 5)]
    assert same == [303] * 3 + [429]
    assert start(phone, "2001:db8:1:3::1", **seats) == 303


def test_a_blank_pad_is_rendered_once_per_kind(client, monkeypatch):
    main.blank_pad_pdf.cache_clear()
    renders = []
    real = main.pdf.render_pdf
    monkeypatch.setattr(main.pdf, "render_pdf",
                        lambda *a, **k: renders.append(a[0]) or real(*a, **k))
    first = client.get("/pad/street.pdf?players=3&size=A4")
    again = client.get("/pad/street.pdf?players=3&size=A4")
    german = client.get("/pad/street.pdf?players=3&size=A4", headers={"Accept-Language": "de"})
    assert first.data == again.data and first.data.startswith(b"%PDF")
    assert german.data != first.data
    assert renders == ["street/pad.html", "street/pad.html"]
    main.blank_pad_pdf.cache_clear()
