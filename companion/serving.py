"""The production server behind `python -m companion`: gunicorn, bounded.

WORKERS processes of THREADS threads, with gunicorn's threaded worker changed in one respect: a
connection waits in the worker's poller until its request has arrived whole: its head within
READ_SECONDS of connecting, then a body of up to MAX_BUFFERED bytes (every form of the app but a
table import) within BODY_SECONDS. So idle, half-open or slowly sent requests (hundreds of them)
never hold the threads that real requests need; nor does a connection kept open between a
client's requests: it waits in the poller for its next request as a new one does. A table page's
poll, the most frequent request by far, is answered by the poller itself (one indexed read, no
thread). A larger body is read in a thread, each read within READ_SECONDS and the whole within
UPLOAD_SECONDS. And a worker's threads are shared fairly among clients: at most PER_CLIENT
requests of one client (an IPv4 address or an IPv6 /64) are in a worker's threads at once; its
others wait, received whole, in the order they came; and a client pressing with more (a flood)
starts none while another client's request is in the threads, and while other clients are about
(within ABOUT_SECONDS), each of its requests leaves its thread idle afterwards for FLOOD_IDLE
times as long as it took. So a client that floods the server waits on itself while every other
client's requests are served as they come, with the worker to themselves; alone, it has the
server's whole speed. For public hosting, put a buffering HTTPS reverse proxy in front (README):
behind it (PROXY_FIX) every request comes from the proxy, so the proxy must share among clients.
"""

from __future__ import annotations

import errno
import gc
import queue
import re
import resource
import selectors
import signal
import socket
import sys
import threading
import time
from collections import Counter, OrderedDict, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator
from email.utils import formatdate
from functools import partial
from typing import Any, TextIO

from flask import Flask, request
from gunicorn.app.base import BaseApplication
from gunicorn.workers.gthread import TConn, ThreadWorker

from .app import SECURITY_HEADERS
from .polls import (
    ACCESS,  # the WSGI environ's key for what the access log says of a request
    Polls,
)

WORKERS = 2
THREADS = 8
READ_SECONDS = 5  # for a request to arrive whole once it has begun, and to begin at all
MAX_CONNECTIONS = 5000  # per worker (phones keep theirs between polls); more wait to be accepted
SPARE_FILES = 100  # a worker's files besides its connections: the database, logs, pipes
MAX_HEAD = 16 * 1024  # a longer request head goes to gunicorn's parser, which refuses it
HEAD_END = b"\r\n\r\n"
MAX_BUFFERED = 128 * 1024  # a body up to this long arrives whole before a thread reads it
BODY_SECONDS = 10  # for such a body to arrive whole once the head has (>= READ_SECONDS)
UPLOAD_SECONDS = 20  # for a larger body (a table import) to arrive whole once a thread reads it
PER_CLIENT = 2  # requests of one client in a worker's threads at once (`Worker.enqueue_req`)
ABOUT_SECONDS = 1.0  # a client whose request took a thread this recently is still about
FLOOD_IDLE = 3  # a flood's request leaves its thread idle this many times as long as it took
POLL_HEAD = re.compile(rb"GET (/[a-z_]{1,40}/[A-Za-z0-9_-]{1,64}/seq) HTTP/1\.1\r\n")
MAX_POLL_HEAD = 8190  # a poll's head answered by the poller: no longer than a header may be
NOT_A_POLL = re.compile(rb"\r\n(?:content-length|transfer-encoding|expect|upgrade)[ \t]*:",
                        re.IGNORECASE)  # a body or a protocol change: a thread's (gunicorn's)
CLOSE = re.compile(rb"\r\nconnection:[^\r\n]*\bclose\b", re.IGNORECASE)
ACCESS_LOG = "companion.access_log"  # the app's extension: its AccessLog, when it has one
CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*([0-9]{1,12})[ \t]*\r\n", re.IGNORECASE)


class Connection(TConn):  # type: ignore[misc]
    """A client connection: the start of its request as read by the poller, and reads that
    time out in a thread (a body that stalls is cut off)."""

    received = b""
    yields = False  # a flood's request, taken while other clients are about (`Worker.handle`)

    def init(self) -> None:
        """Before a thread reads a request (gunicorn calls it for each): the head the poller
        read comes first, then the socket, each read timed (`Deadline`)."""
        if not self.initialized:
            super().init()
        self.sock.settimeout(READ_SECONDS)
        self.parser.unreader.unread(self.received)
        self.parser.unreader.sock = Deadline(self.sock, time.monotonic() + UPLOAD_SECONDS)


class Waiting(OrderedDict[Connection, None]):
    """The connections waiting in the poller for their request to arrive, soonest deadline
    first: gunicorn's `pending_conns` (a deque), where a connection's removal (at each of its
    requests) and its move to the back (at each poll it is kept for) take the same time however
    many phones keep a connection open between their polls."""

    def append(self, connection: Connection) -> None:
        self[connection] = None

    def remove(self, connection: Connection) -> None:
        del self[connection]


class Deadline:
    """A connection's socket as its request is read in a thread: each read waits at most
    READ_SECONDS, and none waits past `at`, so a large body sent slowly (a byte every few
    seconds) is cut off as a whole, not only read by read."""

    def __init__(self, sock: socket.socket, at: float):
        self.sock, self.at = sock, at

    def recv(self, size: int) -> bytes:
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self.sock.settimeout(min(READ_SECONDS, left))
        return self.sock.recv(size)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


class Headed:
    """A client's socket as gunicorn writes its own answer to a request it refuses before the
    app sees it (a request line too long, 414; headers too large, 431; a malformed request,
    400): the app's security headers go with it, as with every answer of the app."""

    def __init__(self, sock: socket.socket, headers: bytes):
        self.sock, self.headers = sock, headers

    def sendall(self, data: bytes) -> None:
        head, end, body = data.partition(b"\r\n\r\n")
        self.sock.sendall(head + b"\r\n" + self.headers + end + body if end else data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


class Worker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's threaded worker, except that a connection gets a thread only once its request
    head (line and headers) has arrived whole: until then the poller reads it, and closes it
    READ_SECONDS after it connected if the head is not complete by then; a table's poll is
    answered by the poller itself (`answer_poll`); and clients take turns for the threads
    (`take_turns`)."""

    def accept(self, listener: socket.socket) -> None:
        try:
            client, address = listener.accept()
        except OSError as error:
            if error.errno in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                return
            raise
        self.nr_conns += 1
        self.wait_for_request(Connection(self.cfg, client, address, listener.getsockname()))

    def wait_for_request(self, connection: Connection) -> None:
        """A connection, new or kept after an answer, waits in the poller for its request to
        begin within READ_SECONDS (`on_pending_socket_readable` reads it)."""
        connection.sock.setblocking(False)
        connection.received = b""
        connection.timeout = time.monotonic() + READ_SECONDS
        self.pending_conns.append(connection)
        self.poller.register(connection.sock, selectors.EVENT_READ,
                             partial(self.on_pending_socket_readable, connection))

    def drop(self, connection: Connection) -> None:
        """Close a connection waiting in the poller."""
        del self.pending_conns[connection]
        try:
            self.poller.unregister(connection.sock)
        except (OSError, KeyError, ValueError):
            pass  # unregistered already
        self.nr_conns -= 1
        connection.close()

    def on_pending_socket_readable(self, connection: Connection, client: socket.socket) -> None:
        try:
            data = client.recv(MAX_HEAD)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""  # the thread finds the connection broken and closes it
        had_head = HEAD_END in connection.received
        connection.received += data
        if data and self.incomplete(connection, had_head):
            return
        if data and self.answer_poll(connection, client):
            return
        super().on_pending_socket_readable(connection, client)

    def answer_poll(self, connection: Connection, client: socket.socket) -> bool:
        """Whether the request received is a table page's poll, answered here by the poller
        (`companion.polls`: one indexed read) instead of by a thread: no thread, parser or
        WSGI call for the server's most frequent request. The connection is then kept for the
        client's next request, which must begin within READ_SECONDS as on a new connection: a
        phone's polls share one connection, as browsers do. A request that is anything else (a
        body, a query, pipelined requests, a table not found) goes to a thread as before."""
        received = connection.received
        poll = POLL_HEAD.match(received)
        if (poll is None or len(received) > MAX_POLL_HEAD
                or received.find(HEAD_END) != len(received) - len(HEAD_END)
                or NOT_A_POLL.search(received)):
            return False
        came, started = time.gmtime(), time.monotonic()
        path = poll.group(1).decode()
        body = self.polls.body(path)
        if body is None:
            return False
        close = CLOSE.search(received) is not None or not self.alive
        answer = self.poll_head(body, close) + body
        try:
            kept = client.send(answer) == len(answer) and not close
        except OSError:
            kept = False
        if self.access_log is not None:
            logged = self.polls.logged(connection.client[0], path)
            self.access_log.write({ACCESS: logged}, came, started, "200", len(body))
        if kept:
            connection.received = b""
            connection.timeout = time.monotonic() + READ_SECONDS
            self.pending_conns.move_to_end(connection)
        else:
            self.drop(connection)
        return True

    def poll_head(self, body: bytes, close: bool) -> bytes:
        """A poll's status line and headers (the date's text made once a second)."""
        now = int(time.time())
        if now != self.dated[0]:
            self.dated = now, (b"HTTP/1.1 200 OK\r\nServer: gunicorn\r\nDate: %s\r\n%s" % (
                formatdate(now, usegmt=True).encode(), b"".join(
                    b"%s: %s\r\n" % (name.encode(), value.encode())
                    for name, value in self.polls.headers)))
        return self.dated[1] + b"Content-Length: %d\r\n%s\r\n" % (
            len(body), b"Connection: close\r\n" if close else b"")

    dated: tuple[int, bytes] = (0, b"")

    def handle_error(self, req: Any, client: socket.socket, addr: Any, exc: Exception) -> None:
        """gunicorn's answer to a request it refuses itself, with the app's security headers
        (`Headed`)."""
        headers = b"".join(b"%s: %s\r\n" % (name.encode(), value.encode())
                           for name, value in SECURITY_HEADERS)
        super().handle_error(req, Headed(client, headers.removesuffix(b"\r\n")), addr, exc)

    def murder_pending(self) -> None:
        """Close the connections whose request has not arrived by their deadline (gunicorn's,
        for `Waiting`)."""
        now = time.monotonic()
        while self.pending_conns:
            connection = next(iter(self.pending_conns))
            if connection.timeout > now:
                break
            self.drop(connection)

    per_client: int | None = PER_CLIENT  # None: no sharing (behind a proxy: `Server`)

    polls: Polls  # the app's, and its access log if it has one (`run`)
    access_log: AccessLog | None

    def init_process(self) -> None:
        """A new worker leaves what it was forked with (the app, its imports and templates,
        about 45,000 objects) out of its garbage collections: a full collection, which pauses
        all of the worker's threads, then takes about a tenth of the time (benchmarks/RESULTS.md:
        a flood's allocations set off a full collection every few seconds)."""
        gc.freeze()
        super().init_process()

    def run(self) -> None:
        """Serve (gunicorn's loop), with the loaded app's poll answers and access log."""
        extensions = self.wsgi.extensions
        self.polls, self.access_log = extensions["companion.polls"], extensions.get(ACCESS_LOG)
        super().run()

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.pending_conns = Waiting()
        self.serving: Counter[str] = Counter()  # per client: its requests in the threads
        # per client: its requests received whole that wait for a thread, oldest first
        self.waiting: defaultdict[str, deque[TConn]] = defaultdict(deque)

    def enqueue_req(self, connection: TConn) -> None:
        """A request received whole waits its turn for a thread (`take_turns`)."""
        if self.per_client is None:
            super().enqueue_req(connection)
            return
        self.waiting[client_of(connection)].append(connection)
        self.take_turns()

    def finish_request(self, connection: Connection, future: Any) -> None:
        """A request is answered (on the worker's main thread): a connection kept open for the
        client's next request waits for it in the poller as a new one does, its head read
        there; and the waiting take their turns."""
        if self.keeps(connection, future):
            self.wait_for_request(connection)
        else:
            super().finish_request(connection, future)
        if self.per_client is None:
            return
        client = client_of(connection)
        self.serving[client] -= 1
        if not self.serving[client]:
            del self.serving[client]
        self.take_turns()

    def keeps(self, connection: Connection, future: Any) -> bool:
        """Whether the answer left the connection open for another request, and nothing of
        it has been read yet (gunicorn takes the rest: a read-ahead, a stop, a close)."""
        try:
            kept = not future.cancelled() and future.result() is True
        except Exception:  # gunicorn's finish_request closes it
            return False
        return kept and self.alive and not connection.parser.unreader.buf.getvalue()

    others_seen = 0.0  # when a request of a client that is not pressing last took a thread

    def handle(self, connection: Connection) -> Any:
        """A request, in a thread. One that `yields` (a pressing client's, taken while other
        clients are about) leaves its thread idle afterwards for FLOOD_IDLE times as long as it
        took: a flood gets at most a quarter of its threads' time while anybody else is being
        served."""
        began = time.monotonic()
        try:
            return super().handle(connection)
        finally:
            if connection.yields:
                time.sleep(FLOOD_IDLE * (time.monotonic() - began))

    def take_turns(self) -> None:
        """Waiting requests go to the threads in the order their clients came, at most
        `per_client` of a client at once; and while a client that is not pressing (a phone at
        a table) has a request in the threads, a pressing client (a flood: more requests than it
        may run) starts none: its requests in the threads finish, and the other's then has the
        worker to itself."""
        light_served = any(not self.pressing(client) for client in self.serving)
        for client in list(self.waiting):
            queue = self.waiting[client]
            while queue and self.serving[client] < self.per_client:
                if self.pressing(client) and light_served:
                    break
                light_served = light_served or not self.pressing(client)
                self.serving[client] += 1
                connection = queue.popleft()
                if not self.pressing(client):
                    self.others_seen = time.monotonic()
                else:
                    connection.yields = time.monotonic() - self.others_seen < ABOUT_SECONDS
                super().enqueue_req(connection)
            if not queue:
                del self.waiting[client]

    def pressing(self, client: str) -> bool:
        """More of this client's requests are in the threads and waiting than it may run."""
        waiting = self.waiting.get(client)
        return self.serving[client] + (len(waiting) if waiting else 0) > self.per_client

    def incomplete(self, connection: Connection, had_head: bool) -> bool:
        """Whether the request is still arriving: its head, or a body of up to MAX_BUFFERED
        bytes (when the head has just arrived, the connection gets BODY_SECONDS more)."""
        received = connection.received
        end = received.find(HEAD_END)
        if end < 0:
            return len(received) < MAX_HEAD
        declared = CONTENT_LENGTH.search(received[:end + 2])
        length = int(declared.group(1)) if declared else 0
        if not 0 < length <= MAX_BUFFERED or len(received) - end - len(HEAD_END) >= length:
            return False
        if not had_head:  # later in the queue of pending connections, which stays in order
            self.pending_conns.remove(connection)
            connection.timeout = time.monotonic() + BODY_SECONDS
            self.pending_conns.append(connection)
        return True


def client_of(connection: TConn) -> str:
    """The client a connection counts for: an IPv4 address or an IPv6 /64 (`client_key`)."""
    from .views.clients import client_key

    address = connection.client
    return client_key(address[0] if isinstance(address, tuple) else str(address))


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT)


def keep_stop_signals(master: Any, worker: Worker) -> None:
    """A stop sent to a worker that has only just been forked is kept (gunicorn's post_fork).
    Until the worker sets its own signal handlers, it has the master's, which only put the
    signal in the worker's copy of the master's queue: the worker never saw it and served on
    until the master killed it graceful_timeout (10 s) later, once in 20-60 stops right after a
    start. So the worker's stop handlers are set now, and a stop found in that copied queue
    stops the worker before it serves (one the master still had to act on when it forked is
    sent again by the master: a stop either way)."""
    signal.signal(signal.SIGTERM, worker.handle_exit)
    signal.signal(signal.SIGINT, worker.handle_quit)
    signal.signal(signal.SIGQUIT, worker.handle_quit)
    while True:
        try:
            sent = master.SIG_QUEUE.get_nowait()
        except queue.Empty:
            return
        if sent in STOP_SIGNALS:
            worker.alive = False


SETTINGS: dict[str, Any] = {
    "workers": WORKERS,
    "worker_class": Worker,
    "threads": THREADS,
    "timeout": 30,  # a worker that stops answering its master for this long is restarted
    "graceful_timeout": 10,
    "keepalive": READ_SECONDS,  # a kept connection waits in the poller (`finish_request`)
    "limit_request_line": 4094,
    "limit_request_fields": 50,
    "limit_request_field_size": 8190,
    "control_socket_disable": True,  # gunicorn 27 would leave a control socket under $HOME
    "accesslog": None,
    "errorlog": "-",
    "loglevel": "warning",
    "post_fork": keep_stop_signals,
}


class Server(BaseApplication):  # type: ignore[misc]
    """gunicorn serving the app made in this process (its workers inherit it) on `listener`,
    a socket bound already (so that port 0 can say which port it got)."""

    def __init__(self, app: Flask, listener: socket.socket):
        self.application = app
        compile_templates(app)
        listener.set_inheritable(True)
        if app.config.get("PROXY_FIX"):  # every request comes from the proxy: it shares
            Worker.per_client = None
        self.settings = {**SETTINGS, "bind": [f"fd://{listener.fileno()}"],
                         "worker_connections": connections_allowed(MAX_CONNECTIONS)}
        super().__init__()

    def load_config(self) -> None:
        for name, value in self.settings.items():
            self.cfg.set(name, value)

    def load(self) -> Flask:
        return self.application


def compile_templates(app: Flask) -> None:
    """Every page template compiled once, here, before the workers are forked from this process:
    they inherit them (kept out of their garbage collections, `Worker.init_process`), instead
    of each worker compiling a template the first time it draws it, which made the first tap
    of each kind after a start wait 50-160 ms more (issue 46)."""
    for name in app.jinja_env.list_templates(extensions=["html"]):
        app.jinja_env.get_template(name)


def connections_allowed(wanted: int) -> int:
    """The connections a worker may hold: `wanted`, or fewer if a process may not open that
    many files. The open-file limit is raised first as far as the system lets it (this
    process's, which its workers inherit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted + SPARE_FILES:
        soft = wanted + SPARE_FILES if hard == resource.RLIM_INFINITY else min(
            wanted + SPARE_FILES, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return wanted if soft == resource.RLIM_INFINITY else max(1, min(wanted, soft - SPARE_FILES))


class AccessLog:
    """The operators' access log (`python -m companion --access-log [FILE]`, off by default):
    one line per request once its answer is sent: the time it came (UTC), the client's address,
    method, path, status, bytes sent and milliseconds taken. The path is never the one sent: it
    is rebuilt from the route Flask matched, with a table's id and a scoreboard's token replaced
    by their short ids and without the query (`companion.logged_path`)."""

    def __init__(self, app: Flask, stream: TextIO):
        from .app import logged_path

        def note(exc: BaseException | None = None) -> None:
            request.environ[ACCESS] = (request.remote_addr or "-", request.method, logged_path())

        self.wsgi_app = app.wsgi_app
        app.extensions[ACCESS_LOG] = self  # the polls the poller answers are logged here too
        self.stream = stream
        self.lock = threading.Lock()
        app.teardown_request(note)  # runs while the matched route is known, whatever happened
        app.wsgi_app = self  # type: ignore[method-assign]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        came, started, status = time.gmtime(), time.monotonic(), ["500"]

        def start(line: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            status[0] = line.split(" ", 1)[0]
            return start_response(line, headers, exc_info)

        try:
            answer = self.wsgi_app(environ, start)
        except BaseException:
            self.write(environ, came, started, status[0], 0)
            raise
        return self.sent(answer, environ, came, started, status)

    def sent(self, answer: Iterable[bytes], environ: dict[str, Any], came: time.struct_time,
             started: float, status: list[str]) -> Iterator[bytes]:
        """The answer as the server sends it, counted; the line once it is sent (or given up)."""
        size = 0
        try:
            for chunk in answer:
                size += len(chunk)
                yield chunk
        finally:
            close = getattr(answer, "close", None)
            try:
                if close is not None:
                    close()
            finally:
                self.write(environ, came, started, status[0], size)

    def write(self, environ: dict[str, Any], came: time.struct_time, started: float,
              status: str, size: int) -> None:
        client, method, path = environ.get(ACCESS, ("-", "-", "-"))
        line = (f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', came)} {client} {method} {path} "
                f"{status} {size} {(time.monotonic() - started) * 1000:.1f}ms\n")
        with self.lock:
            self.stream.write(line)
            self.stream.flush()


def log_access(app: Flask, target: str) -> AccessLog:
    """Turn the access log on: to stderr ('-') or appended to the file `target`."""
    stream = sys.stderr if target == "-" else open(target, "a", encoding="utf-8")
    return AccessLog(app, stream)
