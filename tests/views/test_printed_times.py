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


def test_the_results_sheet_the_files_and_the_players_pages_date_a_game_as_the_sheet_does(
        app, client):
    """Found by an audit: a game begun at 23:30 UTC was Dec 7 on a phone in Auckland by its
    score sheet, and Dec 6 on its results sheet, in the files' names and on the players pages
    (there by the time it ended, in UTC). Each says the day it began, in the phone's zone;
    the score sheet's file name too (it had none)."""
    from companion.rules import yard_example
    from tests.tables import seed_on

    url = new_table(client, *yard_example.PLAYERS)
    seed_on(app, url, yard_example.PLAYERS, [*yard_example.GAME_OVER, yard_example.FINAL])
    for zone in ("Pacific/Kiritimati", "Pacific/Pago_Pago"):  # UTC+14, UTC-11: at any hour
        # one of them is on another day than UTC
        client.set_cookie("tz", zone)
        day = created(app, url).astimezone(ZoneInfo(zone)).date()
        csv = client.get(url + "results.csv")
        assert f"yard-results-{day.isoformat()}.csv" in csv.headers["Content-Disposition"]
        assert f",{day.isoformat()}," in csv.data.decode("utf-8-sig")
        assert f"yard-table-{day.isoformat()}.json" in client.get(
            url + "export.json").headers["Content-Disposition"]
        assert f"yard-score-sheet-{day.isoformat()}.pdf" in client.get(
            url + "sheet.pdf").headers["Content-Disposition"]
        said = f"{day:%b} {day.day}, {day.year}"
        assert said in client.get("/players").get_data(as_text=True)
