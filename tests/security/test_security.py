"""Security properties the issue asks for, each checked against the running app."""

import os
import re
import subprocess
import sys
import urllib.error
import urllib.request

from tests.conftest import new_table


def session_cookie(response):
    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    assert cookies, "no session cookie was set"
    return cookies[0]


def test_the_session_cookie_is_httponly_and_samesite_lax_and_not_secure_over_http(client):
    cookie = session_cookie(client.get("/language/de"))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie


def test_the_session_cookie_is_secure_over_https(client):
    cookie = session_cookie(client.get("/language/de", base_url="https://localhost"))
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_behind_a_tls_proxy_the_cookie_is_secure_when_configured(tmp_path, monkeypatch):
    from companion.app import create_app

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"),
                      "PROXY_FIX": True})
    response = app.test_client().get("/language/de", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in session_cookie(response)


def test_the_proxy_setting_is_read_from_instance_config(tmp_path, monkeypatch):
    """The README's way to run behind an HTTPS proxy: PROXY_FIX = True in instance/config.py."""
    from companion.app import create_app

    (tmp_path / "config.py").write_text("PROXY_FIX = True\n")
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app()
    assert app.config["PROXY_FIX"] is True
    response = app.test_client().get("/language/de", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in session_cookie(response)


def test_every_page_sends_the_strict_headers(client):
    url = new_table(client, "Ann", "Ben")
    for path in ("/", url, url + "history", url + "share", "/manifest.webmanifest", "/sw.js",
                 "/favicon.ico"):
        headers = client.get(path).headers
        policy = headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, path
        assert "frame-ancestors 'none'" in policy
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"


def test_a_request_over_the_size_limit_is_refused(client):
    assert client.post("/new", data={"game": "yard", "x": "a" * 70_000}).status_code == 413


def test_table_links_carry_at_least_128_bits(client):
    token = new_table(client, "Ann", "Ben").strip("/").split("/")[-1]
    assert len(token) >= 22 and re.fullmatch(r"[A-Za-z0-9_-]+", token)  # 22 x 6 bits = 132


def test_the_start_command_never_runs_the_debugger(tmp_path):
    """Even with FLASK_DEBUG set, `python -m companion` serves no debugger console and shows
    no traceback."""
    env = dict(os.environ, COMPANION_INSTANCE=str(tmp_path), FLASK_DEBUG="1")
    process = subprocess.Popen([sys.executable, "-m", "companion", "--port", "0"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        base = re.search(r"http://127\.0\.0\.1:\d+", process.stdout.readline()).group(0)
        for path in ("/console", "/?__debugger__=yes&cmd=resource&f=debugger.js"):
            try:
                body = urllib.request.urlopen(base + path, timeout=5).read().decode()
            except urllib.error.HTTPError as error:
                assert error.code == 404
                body = error.read().decode()
            assert "Werkzeug" not in body and "debugger" not in body.lower()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_redirect_never_leads_to_the_host_a_request_named(client):
    """Issue 43, finding 6: Werkzeug's own redirects (a doubled slash, a missing one) built an
    absolute address from the Host header (`Host: evil.example` gave `http://evil.example/...`):
    every redirect now leads to a path of this app."""
    url = new_table(client, "Ann", "Ben")
    doubled = client.post(url + "/undo", headers={"Host": "evil.example"})
    assert doubled.status_code == 308
    assert doubled.headers["Location"] == url + "undo"
    missing = client.get(url.rstrip("/"), headers={"Host": "evil.example"})
    assert missing.status_code == 308 and missing.headers["Location"] == url
    language = client.get("/language/de?next=" + url, headers={"Host": "evil.example"})
    assert language.headers["Location"] == url
