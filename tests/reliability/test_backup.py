"""`python -m companion backup FILE` (issue 43, finding 8): a copy of the whole database made
with SQLite's online backup API while a writer records actions, checked with integrity_check;
restored (the copy put in the database's place), it serves every event committed before the
backup began, each table's log whole."""

import os
import sqlite3
import subprocess
import sys
import threading
import time

from companion import replays, storage
from companion.app import create_app
from companion.rules import GAMES, RuleError
from tests.yard_moves import buy

NAMES = ["Ann", "Ben", "Cy"]
BUILDINGS = ["museum", "theater", "station", "church", "park", "skyscraper"]


def test_a_backup_taken_while_a_writer_runs_restores_whole(tmp_path):
    env = dict(os.environ, COMPANION_INSTANCE=str(tmp_path))
    app = create_app({"DATABASE": str(tmp_path / "companion.sqlite")})
    db = storage.connect(app.config["DATABASE"])
    players = [{"name": n, "colour": c} for n, c in zip(NAMES, ["red", "blue", "green"],
                                                          strict=True)]
    tables = [storage.create_table(db, "yard", players) for _ in range(3)]
    committed, stop = [], threading.Event()

    def writer():
        """Purchases round the tables, then, the cards bought, undo and redo, until stopped."""
        own = storage.connect(app.config["DATABASE"])
        for n in range(20_000):
            if stop.is_set():
                break
            table_id, seq = tables[n % 3], storage.last_seq(own, tables[n % 3])
            step = buy(NAMES[n % 3], BUILDINGS[n // 3 % 6]) if n < 120 else (
                ("undo", {}) if n // 3 % 2 else ("redo", {}))
            try:
                replays.record(own, table_id, GAMES["yard"], NAMES, seq, *step)
            except RuleError:
                continue
            committed.append(table_id)
        own.close()

    thread = threading.Thread(target=writer)
    thread.start()
    deadline = time.monotonic() + 30
    while len(committed) < 50 and time.monotonic() < deadline:
        time.sleep(0.01)
    before = len(committed)
    target = tmp_path / "backup.sqlite"
    done = subprocess.run([sys.executable, "-m", "companion", "backup", str(target)], env=env,
                          capture_output=True, text=True, timeout=120)
    stop.set()
    thread.join()
    assert done.returncode == 0, done.stderr
    assert "passed SQLite's integrity check" in done.stdout
    assert target.stat().st_mode & 0o077 == 0  # owner-only, as the database
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    kept = copy.execute("select count(*) from events").fetchone()[0]
    copy.close()
    assert before <= kept <= len(committed)

    # Restored: the copy in the database's place; the app starts on it and replays every log.
    restored = tmp_path / "restored"
    restored.mkdir()
    os.replace(target, restored / "companion.sqlite")
    again = create_app({"DATABASE": str(restored / "companion.sqlite")})
    db = storage.connect(again.config["DATABASE"])
    for table_id in tables:
        events = storage.events(db, table_id)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        assert len(events) >= committed[:before].count(table_id)
        replays.MEMORY.forget()
        table = replays.current(db, table_id, GAMES["yard"], NAMES)
        assert table.last_seq == len(events)
