"""A server killed with SIGKILL in the middle of a stream of actions (its master and workers at
once, as a power cut would), then started again: SQLite's integrity check passes and every
acknowledged action is in the log."""

import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request

from companion import storage
from tests.reliability.live import action_fields, browser, new_table, post


def start_server(instance):
    env = dict(os.environ, COMPANION_INSTANCE=str(instance))
    process = subprocess.Popen([sys.executable, "-m", "companion", "--port", "0"], env=env,
                               stdout=subprocess.PIPE, text=True, start_new_session=True)
    line = process.stdout.readline()
    return process, re.search(r"http://127\.0\.0\.1:\d+", line).group(0)


def test_acknowledged_actions_survive_a_kill(tmp_path):
    # The stream posts the moment a page has loaded, as no thumb can: no ghost-tap guard.
    (tmp_path / "config.py").write_text("GHOST_TAP_SECONDS = 0\n")
    process, base = start_server(tmp_path)
    table = new_table(base)
    acknowledged = []
    stop = threading.Event()

    def stream():
        opener = browser()
        for n in range(200):
            if stop.is_set():
                return
            try:
                page = opener.open(base + table, timeout=5).read().decode()
                building = ["museum", "theater", "station", "church", "park", "skyscraper"][n % 6]
                data = {**action_fields(page), "player": "Ann", "building": building}
                if post(opener, base + table + "buy", data) == 303:
                    acknowledged.append(int(data["seq"]) + 1)
            except OSError:
                return

    writer = threading.Thread(target=stream)
    writer.start()
    time.sleep(0.6)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    stop.set()
    writer.join(timeout=20)
    assert acknowledged, "no action was acknowledged before the kill"

    process, base = start_server(tmp_path)  # starts again on the same files
    try:
        assert urllib.request.urlopen(base + table, timeout=5).status == 200
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)
    db = storage.connect(str(tmp_path / "companion.sqlite"))
    assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
    logged = [e.seq for e in storage.events(db, table.strip("/").split("/")[-1])]
    assert set(acknowledged) <= set(logged)
    assert logged == list(range(1, len(logged) + 1))
