"""Talking to a live server the way a phone does: its own cookies, forms with CSRF tokens; and
the server, the app served by a thread."""

import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager

from werkzeug.serving import make_server


@contextmanager
def served(app):
    """The app served on 127.0.0.1, at a free port, by a thread for each request: its address."""
    live = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=live.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{live.server_port}"
    finally:
        live.shutdown()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def browser():
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)


def post(opener, url, data):
    body = urllib.parse.urlencode(data).encode()
    try:
        return opener.open(url, body, timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code


def action_fields(page):
    """What an action form of a table page carries: CSRF token, the last seq and a one-time key."""
    return {"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1),
            "seq": re.search(r'name="seq" value="(\d+)"', page).group(1),
            "key": re.search(r'name="key" value="([^"]+)"', page).group(1)}


def new_table(base):
    return new_owned_table(base)[1]


def new_owned_table(base):
    """A 3-player yard table started by a new phone: that phone (it may renew the links) and
    the table's address."""
    opener = browser()
    home = opener.open(base + "/", timeout=10).read().decode()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', home).group(1)
    data = {"csrf_token": token, "game": "yard", "players-0-name": "Ann",
            "players-1-name": "Ben", "players-2-name": "Cy"}
    request = urllib.request.Request(base + "/new", urllib.parse.urlencode(data).encode())
    try:
        opener.open(request, timeout=10)
    except urllib.error.HTTPError as redirect:
        return opener, redirect.headers["Location"]
    raise AssertionError("no redirect to the new table")
