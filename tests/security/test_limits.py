"""Bounded work per request: the expensive routes (new tables, imports, score sheets) are rate
limited by token buckets per client and for all clients together, and blank pads are rendered
once and served from memory."""

import pytest

from companion import create_app, storage
from companion.views import main
from tests.conftest import new_table


@pytest.fixture
def db(tmp_path):
    db = storage.connect(str(tmp_path / "limits.sqlite"))
    storage.migrate(db)
    yield db
    db.close()


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
                       "RATE_LIMITS": {"sheet": (2, 300), "new": (3, 600)}})


def test_score_sheets_are_rate_limited_per_client(limited):
    phone = limited.test_client()
    url = new_table(phone, "Tobi", "Nina")
    assert [phone.get(url + "sheet.pdf").status_code for _ in range(3)] == [200, 200, 429]
    assert "Many score sheets were printed from here" in phone.get(url + "sheet.pdf").text
    other = phone.get(url + "sheet.pdf", environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 200


def test_many_addresses_together_meet_the_shared_limit(limited):
    """Three tables per address, ten addresses' worth for everyone: the 31st table waits."""
    phone = limited.test_client()
    answers = [phone.post("/new", data={"game": "yard", "players-0-name": "A",
                                        "players-1-name": "B"},
                          environ_base={"REMOTE_ADDR": f"10.1.0.{n}"}).status_code
               for n in range(31)]
    assert answers == [303] * 30 + [429]


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
