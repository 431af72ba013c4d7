"""Real WeasyPrint PDFs: the blank pad and a finished score sheet, A4 and A5, any script."""

import io

import pytest
from pypdf import PdfReader

from tests.conftest import act, fresh, new_table


def pdf_text(data):
    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in reader.pages), reader


def fonts(reader):
    names = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("size, width_pt", [("A4", 595), ("A5", 420)])
def test_blank_pad(client, players, size, width_pt):
    response = client.get(f"/pad/yard.pdf?players={players}&size={size}")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    text, reader = pdf_text(response.data)
    assert "score pad" in text and "Scoring C total" in text and "Skyscraper" in text
    assert ("Dirk" in text) == (players == 2)
    assert round(float(reader.pages[0].mediabox.width)) == width_pt


def test_a_pad_for_an_impossible_player_count_is_404(client):
    assert client.get("/pad/yard.pdf?players=9").status_code == 404
    assert client.get("/pad/chess.pdf").status_code == 404


def finished_game(client, names):
    url = new_table(client, *names)
    act(client, url, "buy", player=names[0], building="skyscraper")
    act(client, url, "buy", player=names[1], building="skyscraper")
    act(client, url, "buy", player=names[2], building="park")
    act(client, url, "score", scoring="A")
    act(client, url, "score", scoring="B")
    end = url + "end"
    client.post(end, data=fresh(client, end))
    return url


def test_finished_score_sheet_holds_names_totals_and_splits(client):
    names = ["Tobi", "李小龍", "Zoë"]
    url = finished_game(client, names)
    response = client.get(url + "sheet.pdf?size=A4")
    assert response.data.startswith(b"%PDF")
    text, reader = pdf_text(response.data)
    for name in names:
        assert name in text
    # A: skyscraper tie (6+0)/2 = 3 each, park 5; B: (13+6)/2 = 9 each, park 12;
    # C: (21+13)/2 = 17 each, park 20. Totals: 29, 29, 37.
    assert "Tobi and 李小龍 tie for 1st-2nd with 1 skyscraper: 21 + 13 = 34, 17 each" in text
    assert "Winner: Zoë" in text
    assert any("NotoSansCJK" in f.replace("-", "") for f in fonts(reader)), fonts(reader)


def test_a_sheet_in_progress_says_so(client):
    url = new_table(client, "Ann", "Ben", "Cy")
    text, _ = pdf_text(client.get(url + "sheet.pdf").data)
    assert "Game in progress" in text
