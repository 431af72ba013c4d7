"""Stylesheets and scripts are sent without their comments and gzipped to a browser that
accepts it; pages never are compressed."""

import gzip
import re
from pathlib import Path

import pytest

from companion.assets import COMPACTED, compact
from tests.conftest import new_table

STATIC = Path(__file__).resolve().parents[2] / "static"


def sent(name: str) -> bytes:
    """What the app sends of a static text file, before any gzip."""
    source = (STATIC / name).read_text()
    if name.endswith(COMPACTED):
        source = compact(source, css=name.endswith(".css"))
    return source.encode()


@pytest.mark.parametrize("name", ["app.css", "app.js", "yard.css", "icons/icon.svg"])
def test_text_assets_are_gzipped_for_a_browser_that_accepts_it(client, name):
    response = client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert gzip.decompress(response.data) == sent(name)
    assert len(response.data) < 0.6 * len(sent(name))
    again = client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip",
                                                   "If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("encoding", [None, "identity", "gzip;q=0", "br"])
def test_others_get_it_uncompressed(client, encoding):
    headers = {"Accept-Encoding": encoding} if encoding else {}
    response = client.get("/static/app.css", headers=headers)
    assert "Content-Encoding" not in response.headers
    assert response.data == sent("app.css")
    assert "Accept-Encoding" in response.headers["Vary"]
    again = client.get("/static/app.css", headers={**headers, "If-None-Match":
                                                   response.headers["ETag"]})
    assert again.status_code == 304


def test_a_script_is_sent_without_its_comments_and_spaces_but_every_string():
    script = ('// What it does.\n(function () {\n  "use strict";\n\n  // Why.\n'
              '  var url = "http://example.org/x"; // gone: after code\n'
              '  var re = /\\/\\//;\n  var t = `a\n  // b`;\n})();\n')
    assert compact(script, css=False) == ('(function(){"use strict";var url="http://example.org/x";'
                                          'var re=/\\/\\//;var t=`a\n  // b`;})();')


def test_a_stylesheet_is_sent_without_its_comments_and_spaces():
    sheet = ("/* The page. */\nbody { margin: 0; } /* one line */\n/* two\n   lines */\n"
             "a::before {\n  content: \"\\25B8 /* kept */\";\n}\n")
    assert compact(sheet, css=True) == 'body{margin:0}a::before{content:"\\25B8 /* kept */"}'


@pytest.mark.parametrize("name", sorted(p.name for p in STATIC.glob("*.css")))
def test_every_rule_of_a_stylesheet_is_sent(name):
    """Only comments and spaces are left out: the rules' text is what the file says."""
    source = re.sub(r"/\*.*?\*/", "", (STATIC / name).read_text(), flags=re.DOTALL)
    assert "".join(sent(name).decode().split()) == "".join(source.split()).replace(";}", "}")


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


def test_a_page_that_names_no_icon_gets_the_apps(client):
    """A score sheet in the browser's PDF viewer asks for /favicon.ico (it was a 404)."""
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert response.data == (STATIC / "icons/icon-192.png").read_bytes()
