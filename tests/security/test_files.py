"""Files and fetches: the instance folder and everything in it are the owner's alone, and a print
fetches nothing but the app's own static files (never file: or http: addresses)."""

import http.server
import io
import stat
import threading
from pathlib import Path

import pytest
from pypdf import PdfReader

from companion import pdf, storage
from companion.app import create_app
from tests.conftest import act, new_table

ROOT = Path(__file__).resolve().parent.parent.parent


def mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_the_instance_folder_and_database_files_are_owner_only(tmp_path, monkeypatch):
    instance = tmp_path / "instance"
    monkeypatch.setenv("COMPANION_INSTANCE", str(instance))
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "GHOST_TAP_SECONDS": 0})
    client = app.test_client()
    act(client, new_table(client, "Ann", "Ben", "Cy"), "buy", player="Ann", building="park")
    open_now = storage.connect(app.config["DATABASE"])  # the WAL files exist while it is open
    open_now.execute("select count(*) from events").fetchone()
    files = sorted(instance.glob("companion.sqlite*"))
    assert [f.name for f in files] == ["companion.sqlite", "companion.sqlite-shm",
                                       "companion.sqlite-wal", "companion.sqlite-writer"]
    assert mode(instance) == 0o700
    assert {f.name: mode(f) for f in [*files, instance / "secret_key"]} == {
        f.name: 0o600 for f in [*files, instance / "secret_key"]}
    open_now.close()


def test_files_made_before_are_made_owner_only_at_start(tmp_path, monkeypatch):
    instance = tmp_path / "old"
    instance.mkdir(mode=0o755)
    (instance / "companion.sqlite").touch(mode=0o644)
    monkeypatch.setenv("COMPANION_INSTANCE", str(instance))
    create_app({"TESTING": True})
    assert mode(instance) == 0o700 and mode(instance / "companion.sqlite") == 0o600


@pytest.fixture
def web_server():
    """A web server that counts the requests it gets."""
    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"p { color: red }")

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", hits
    server.shutdown()


def test_a_print_fetches_no_file_or_web_address(web_server, tmp_path):
    base, hits = web_server
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-CONTENT")
    html = (f'<link rel="stylesheet" href="{base}/style.css"><img src="{base}/x.png">'
            f'<img src="file://{secret}"><iframe src="file://{secret}"></iframe>'
            f'<object data="file://{secret}"></object><p>Print</p>')
    body = pdf.write(html, ROOT / "static")
    assert body.startswith(b"%PDF") and hits == [] and b"SECRET-CONTENT" not in body


@pytest.mark.parametrize("url", ["file:///etc/passwd", "http://127.0.0.1/", "data:text/css,p{}",
                                 pdf.BASE_URL + "static/../../pyproject.toml",
                                 pdf.BASE_URL + "static/missing.css", pdf.BASE_URL + "x.css"])
def test_the_fetcher_refuses_what_is_not_a_static_file(url):
    with pytest.raises(ValueError):
        pdf.static_file(url, ROOT / "static")


def test_the_fetcher_serves_a_static_file():
    body, mime_type = pdf.static_file(pdf.BASE_URL + "static/app.css", ROOT / "static")
    assert body == (ROOT / "static" / "app.css").read_bytes() and mime_type == "text/css"


@pytest.mark.parametrize(("src", "images"), [("static/icons/icon-192.png", 1),
                                             ("static/icons/missing.png", 0),
                                             ("file:///work/main/static/icons/icon-192.png", 0)])
def test_a_print_may_use_a_static_file_only(src, images):
    """The one thing a print may fetch: a file of the app's static folder."""
    body = pdf.write(f'<img src="{src}" style="width: 2cm">', ROOT / "static")
    page = PdfReader(io.BytesIO(body)).pages[0]
    assert len(page["/Resources"].get("/XObject", {})) == images


def test_a_tables_sheet_is_never_cached_and_a_blank_pad_for_a_day(app):
    """Issue 27: the sheet (it holds the players' names) and the blank pad had no Cache-Control.
    The sheet is no-store, as the table's other files; the pad may be kept a day, by a shared
    cache only when no session cookie is sent back with it."""
    stranger = app.test_client()
    pad = stranger.get("/pad/yard.pdf?players=3")
    assert pad.headers["Cache-Control"] == "public, max-age=86400"
    assert {"Accept-Language", "Cookie"} <= set(pad.headers["Vary"].split(", "))
    assert "Set-Cookie" not in pad.headers
    phone = app.test_client()
    url = new_table(phone, "Ann", "Ben")
    sheet = phone.get(url + "sheet.pdf")
    assert sheet.data.startswith(b"%PDF") and sheet.headers["Cache-Control"] == "no-store"
    own_pad = phone.get("/pad/yard.pdf?players=3")
    assert own_pad.headers["Cache-Control"] == "private, max-age=86400"
