"""Starting and stopping gunicorn (2 sync workers) on a free port of 127.0.0.1, or the
companion as `scripts/serve` runs it (`python -m companion`: companion.serving's workers)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 2


def free_port() -> int:
    """A port nobody listens on now (gunicorn cannot bind port 0 and say which it got)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def gunicorn(app: str, env: dict[str, str], log: Path) -> Iterator[str]:
    """Serve `app` ("module:factory()") with gunicorn; yields the base URL; always stops it."""
    port = free_port()
    command = [
        sys.executable, "-m", "gunicorn", app,
        "--workers", str(WORKERS), "--worker-class", "sync",
        "--bind", f"127.0.0.1:{port}", "--no-control-socket",
        "--chdir", str(ROOT), "--pythonpath", str(ROOT / "benchmarks"),
        "--log-level", "warning",
    ]
    with served(command, env, log, port) as base:
        yield base


@contextmanager
def companion(env: dict[str, str], log: Path, lan: bool = False,
              access_log: Path | None = None) -> Iterator[str]:
    """Serve the companion as `python -m companion --port N [--lan]` does (its own gunicorn
    settings: companion.serving); yields the base URL on 127.0.0.1; always stops it.
    `access_log`: a file that gets the server's own access log (`access_times`)."""
    port = free_port()
    command = [sys.executable, "-m", "companion", "--port", str(port), *(["--lan"] * lan),
               *(["--access-log", str(access_log)] if access_log else [])]
    with served(command, env, log, port) as base:
        yield base


def access_times(log: Path, since: int = 0) -> list[tuple[str, str, float]]:
    """The requests a `companion(..., access_log=...)` answered from line `since` of its access
    log on: (method, path, milliseconds from the request taken to its answer sent). A line:
    "<time> <client> <method> <path> <status> <bytes> <ms>ms"."""
    if not log.exists():
        return []
    rows = []
    for line in log.read_text().splitlines()[since:]:
        _, _, method, path, _, _, ms = line.split()
        rows.append((method, path, float(ms.removesuffix("ms"))))
    return rows


@contextmanager
def served(command: list[str], env: dict[str, str], log: Path, port: int) -> Iterator[str]:
    """Run a server's `command` (from the project's folder, its output to `log`) until it
    answers on `port`; yields its base URL; always stops it."""
    with open(log, "ab") as out:
        server = subprocess.Popen(command, env={**os.environ, **env}, cwd=ROOT, stdout=out,
                                  stderr=out)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(base, server)
        yield base
    finally:
        stop(server)


def wait_until_ready(base: str, server: subprocess.Popen[bytes], limit: float = 60) -> None:
    """Poll until both workers answer (a few requests in a row), or fail with the log."""
    deadline = time.monotonic() + limit
    answered = 0
    while answered < 2 * WORKERS:
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"gunicorn did not start (exit code {server.poll()}); see the log")
        try:
            with urllib.request.urlopen(base + "/", timeout=10):
                answered += 1
        except OSError:  # refused, reset or timed out while the workers boot
            answered = 0
            time.sleep(0.1)


def stop(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM (gunicorn stops its workers gracefully), then SIGKILL if it lingers."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
