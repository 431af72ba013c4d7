"""A printed score sheet says its time in the zone the phone sent (the cookie app.js sets), with
the zone named; none, or one this computer does not know (a tampered cookie), is said as UTC and
never fails (issue 23, "Times")."""

import io
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from pypdf import PdfReader

from companion import storage
from tests.conftest import new_table


def sheet_words(client, url):
    answer = client.get(url + "sheet.pdf?size=A5")
    assert answer.status_code == 200
    return " ".join(" ".join(p.extract_text().split())
                    for p in PdfReader(io.BytesIO(answer.data)).pages)


def created(app, url):
    db = storage.connect(app.config["DATABASE"])
    try:
        row = storage.get_table(db, url.strip("/").split("/")[-1])
    finally:
        db.close()
    return datetime.fromisoformat(row["created_at"])


def test_the_sheet_says_its_time_in_the_phones_zone(app, client):
    url = new_table(client, "Ann", "Ben", "Cy")
    client.set_cookie("tz", "Asia/Kolkata")
    local = created(app, url).astimezone(ZoneInfo("Asia/Kolkata"))
    words = sheet_words(client, url)
    assert f"{local:%H:%M} (Asia/Kolkata) by Ann, Ben, Cy." in words
    assert "UTC" not in words


@pytest.mark.parametrize("zone", [None, "", "Mars/Olympus_Mons", "../../etc/passwd",
                                  "Europe/Berlin\x00", "x" * 3000, "localtime", "Factory/"])
def test_no_zone_or_an_unknown_one_is_said_as_utc(app, client, zone):
    url = new_table(client, "Ann", "Ben", "Cy")
    if zone is not None:
        client.set_cookie("tz", zone)
    utc = created(app, url)
    assert f"{utc:%H:%M} UTC by Ann, Ben, Cy." in sheet_words(client, url)
