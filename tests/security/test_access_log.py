"""The operators' access log (`python -m companion --access-log [FILE]`, issue 27): one line per
request, off by default, whose path never holds a link's secret (a table's id, a scoreboard's
token) but its short id, and never the query."""

import io
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request

from flask.testing import FlaskClient

from companion.app import short_id
from companion.serving import AccessLog
from tests.conftest import act, new_table, text

LINE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (\S+) ([A-Z]+) (\S+) (\d{3}) (\d+) "
                  r"(\d+\.\d)ms")


class Buffered(FlaskClient):
    """A test client that reads each answer whole and closes it, as a server does: the line is
    written when the answer has been sent."""

    def open(self, *args, **kwargs):
        return super().open(*args, **{**kwargs, "buffered": True})


def logged(app):
    stream = io.StringIO()
    AccessLog(app, stream)
    app.test_client_class = Buffered
    return stream


def secrets_of(client, url):
    """A table's id and its scoreboard's token, from its page's link and its share page."""
    table_id = url.split("/")[2]
    board = re.search(r"/board/([A-Za-z0-9_-]+)", text(client.get(url + "share"))).group(1)
    return table_id, board


def test_each_request_is_one_line_with_short_ids_never_a_secret(app):
    stream = logged(app)
    client = app.test_client()
    url = new_table(client, "Tobi", "Nina", "Paul")
    table_id, board = secrets_of(client, url)
    short, board_short = short_id(table_id), short_id(board)
    stream.seek(0)
    stream.truncate()

    page = client.get(url + "?lang=de&key=" + table_id)  # a table page; the query is left out
    action = act(client, url, "buy", player="Tobi", building="park")  # a page, then the POST
    join = app.test_client().get(f"/j/{table_id}")  # the join link, from another phone
    scoreboard = client.get(f"/board/{board}")  # the scoreboard link
    assert (page.status_code, action.status_code, join.status_code, scoreboard.status_code) == (
        200, 303, 303, 200)

    log = stream.getvalue()
    assert table_id not in log and board not in log and "?" not in log and "lang" not in log
    lines = [LINE.fullmatch(line).groups() for line in log.splitlines()]
    assert [(method, path, status) for _, method, path, status, _, _ in lines] == [
        ("GET", f"/yard/{short}/", "200"),
        ("GET", f"/yard/{short}/", "200"),
        ("POST", f"/yard/{short}/buy", "303"),
        ("GET", f"/j/{short}", "303"),
        ("GET", f"/board/{board_short}", "200"),
    ]
    assert {client for client, *_ in lines} == {"127.0.0.1"}
    assert int(lines[0][4]) == len(page.get_data()) > 0  # bytes sent
    assert int(lines[3][4]) == len(join.get_data())


def test_a_path_that_matches_no_route_is_logged_to_its_first_segment(app):
    """A secret in a link that matches no route (a redirect adding a slash, a typo, an unknown
    game) is not logged either: only the path's first segment is."""
    stream = logged(app)
    client = app.test_client()
    url = new_table(client, "Tobi", "Nina", "Paul")
    table_id, board = secrets_of(client, url)
    stream.seek(0)
    stream.truncate()
    for path in (url.rstrip("/"), f"/chess/{table_id}/", f"/chess/{table_id}/a/b",
                 f"/board/{board}/x/y", "/nothing", f"/j/{table_id}/", "/a%0Ab/c"):
        client.get(path)
    log = stream.getvalue()
    assert table_id not in log and board not in log
    assert [LINE.fullmatch(line).group(3, 4) for line in log.splitlines()] == [
        ("/yard/...", "308"), (f"/chess/{short_id(table_id)}/", "404"), ("/chess/...", "404"),
        ("/board/...", "404"), ("/nothing", "404"), (f"/j/{short_id(table_id)}/", "404"),
        ("/a%0Ab/...", "308")]


def test_a_table_that_is_not_there_is_logged_by_the_short_id_of_the_link_sent(app):
    stream = logged(app)
    app.test_client().get("/yard/not-a-table-id/history?page=2")
    assert LINE.fullmatch(stream.getvalue().strip()).group(3, 4) == (
        f"/yard/{short_id('not-a-table-id')}/history", "404")


def test_without_the_option_nothing_is_logged(app, capsys):
    client = app.test_client()
    url = new_table(client, "Tobi", "Nina", "Paul")
    assert client.get(url).status_code == 200
    assert app.wsgi_app.__class__ is not AccessLog
    assert capsys.readouterr() == ("", "")


def served(tmp_path, *options):
    """`python -m companion --port 0 OPTIONS`: one table made and its page read through it;
    its id, and what the server wrote to stderr."""
    env = dict(os.environ, COMPANION_INSTANCE=str(tmp_path / "instance"))
    process = subprocess.Popen([sys.executable, "-m", "companion", "--port", "0", *options],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    try:
        base = re.search(r"http://127\.0\.0\.1:\d+", process.stdout.readline()).group(0)
        with urllib.request.urlopen(base + "/j/" + "x" * 22 + "?q=1", timeout=30) as _:
            pass
    except urllib.error.HTTPError as refused:
        assert refused.code == 404
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        _, errors = process.communicate(timeout=20)
    return errors


def test_the_run_command_logs_to_a_file_or_stderr_only_when_asked(tmp_path):
    short = short_id("x" * 22)
    path = tmp_path / "access.log"
    assert "GET" not in served(tmp_path)
    errors = served(tmp_path, "--access-log", str(path))
    assert re.search(rf"Z 127\.0\.0\.1 GET /j/{short} 404 \d+ \d+\.\dms\n$", path.read_text())
    assert "/j/" not in errors and "x" * 22 not in path.read_text()
    errors = served(tmp_path, "--access-log")
    assert re.search(rf"Z 127\.0\.0\.1 GET /j/{short} 404 \d+ \d+\.\dms\n", errors)
    assert "x" * 22 not in errors


def test_the_poller_logs_the_polls_it_answers(client, tmp_path):
    url = new_table(client, "Tobi", "Nina", "Cy")
    log = tmp_path / "access.log"
    env = dict(os.environ, COMPANION_INSTANCE=str(tmp_path))
    process = subprocess.Popen([sys.executable, "-m", "companion", "--port", "0",
                                "--access-log", str(log)], env=env, stdout=subprocess.PIPE,
                               text=True, start_new_session=True)
    try:
        port = int(re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1))
        with socket.create_connection(("127.0.0.1", port)) as phone:
            for _ in range(2):  # answered by the worker's poller (`serving.Worker.answer_poll`)
                phone.sendall(f"GET {url}seq HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                assert phone.recv(65536).endswith(b'{"seq":0}\n')
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    lines = [LINE.fullmatch(line).groups() for line in log.read_text().splitlines()]
    short = short_id(url.split("/")[2])
    assert [line[:5] for line in lines] == [("127.0.0.1", "GET", f"/yard/{short}/seq", "200",
                                             "10")] * 2
