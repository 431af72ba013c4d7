"""Stylesheets and scripts are sent gzipped to a browser that accepts it; pages never are."""

import gzip
from pathlib import Path

import pytest

from tests.conftest import new_table

STATIC = Path(__file__).resolve().parents[2] / "static"


@pytest.mark.parametrize("name", ["app.css", "app.js", "yard.css", "icons/icon.svg"])
def test_text_assets_are_gzipped_for_a_browser_that_accepts_it(client, name):
    response = client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert gzip.decompress(response.data) == (STATIC / name).read_bytes()
    assert len(response.data) < 0.6 * (STATIC / name).stat().st_size
    again = client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip",
                                                   "If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("encoding", [None, "identity", "gzip;q=0", "br"])
def test_others_get_the_file_as_it_is(client, encoding):
    headers = {"Accept-Encoding": encoding} if encoding else {}
    response = client.get("/static/app.css", headers=headers)
    assert "Content-Encoding" not in response.headers
    assert response.data == (STATIC / "app.css").read_bytes()
    assert "Accept-Encoding" in response.headers["Vary"]


def test_images_and_missing_files_are_not_compressed(client):
    png = client.get("/static/icons/apple-touch-icon.png", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in png.headers
    for name in ["missing.css", "../companion/__init__.py", "%2e%2e/pyproject.toml"]:
        assert client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip"}).status_code \
            == 404


def test_pages_are_never_compressed(client):
    """A page holds the table's secret link and the CSRF token beside typed names (BREACH)."""
    url = new_table(client, "Ann", "Ben")
    for path in ["/", url]:
        response = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert "Content-Encoding" not in response.headers
