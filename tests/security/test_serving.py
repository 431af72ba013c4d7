"""The run command serves with a production server (gunicorn), bounded: hundreds of idle or
half-sent connections neither hold its threads nor grow them, and a stalled request is cut off."""

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from companion.serving import READ_SECONDS, THREADS, WORKERS


@pytest.fixture
def served(tmp_path):
    env = dict(os.environ, COMPANION_INSTANCE=str(tmp_path))
    process = subprocess.Popen([sys.executable, "-m", "companion", "--port", "0"], env=env,
                               stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        base = re.search(r"http://127\.0\.0\.1:(\d+)", process.stdout.readline())
        yield base.group(0), int(base.group(1)), process
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


def answer_time(base):
    started = time.monotonic()
    with urllib.request.urlopen(base + "/", timeout=30) as response:
        assert response.status == 200 and response.headers["Server"].startswith("gunicorn")
    return time.monotonic() - started


def threads_of(pid):
    """Threads of a process and its children (its workers)."""
    tree = subprocess.run(["ps", "-L", "--ppid", str(pid), "-p", str(pid), "-o", "lwp="],
                          capture_output=True, text=True).stdout.split()
    return len(tree)


def test_the_run_command_answers_from_gunicorn_with_bounded_threads(served):
    base, port, process = served
    answer_time(base)
    before = threads_of(process.pid)
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(300)]
    for connection in idle[:150]:  # half a request, never finished
        connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    time.sleep(0.5)
    assert answer_time(base) < 2
    assert threads_of(process.pid) <= max(before, 1 + WORKERS * (THREADS + 3))
    idle[0].settimeout(READ_SECONDS + 5)
    assert idle[0].recv(100) == b""  # cut off, without an answer
    for connection in idle:
        connection.close()
