"""Writers of one database file wait their turn in a queue (`storage.database.turn_to_write`):
another process's writer holds the turn by an flock on `<file>-writer`; this process's threads
queue behind a lock; a writer that waited past its timeout goes on, and SQLite's own lock
still keeps the writes one at a time."""

import fcntl
import os
import threading

from companion import storage


def connected(tmp_path, timeout=10):
    path = str(tmp_path / "c.sqlite")
    db = storage.connect(path, timeout)
    storage.migrate(db)
    return path, db


def held_by_another_process(path):
    """The turn as another process holds it: an flock of its own on the queue file (an flock
    belongs to an open file, so a second open of it in this process stands for another's)."""
    queue = os.open(f"{path}-writer", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(queue, fcntl.LOCK_EX)
    return queue


def write_in_a_thread(db, started, done):
    def write():
        with storage.write_transaction(db):
            started.set()
            db.execute("create table if not exists t (x)")
        done.set()
    thread = threading.Thread(target=write)
    thread.start()
    return thread


def test_a_writer_waits_while_another_process_has_the_turn_and_writes_when_it_is_free(
        tmp_path):
    path, db = connected(tmp_path)
    queue = held_by_another_process(path)
    started, done = threading.Event(), threading.Event()
    thread = write_in_a_thread(db, started, done)
    assert not started.wait(0.3)  # queued: its transaction has not begun
    os.close(queue)  # the other process's turn is over
    assert done.wait(10)
    thread.join()
    assert "t" in db.table_names()
    assert oct(os.stat(f"{path}-writer").st_mode & 0o777) == "0o600"


def test_a_writer_of_this_process_waits_for_another_thread_of_it(tmp_path):
    path, db = connected(tmp_path)
    other = storage.connect(path)
    started, done = threading.Event(), threading.Event()
    with storage.write_transaction(other):
        thread = write_in_a_thread(db, started, done)
        assert not started.wait(0.3)
        other.execute("create table u (x)")
    assert done.wait(10)
    thread.join()
    assert {"t", "u"} <= set(db.table_names())


def test_a_writer_that_waited_past_its_timeout_goes_on_and_sqlite_keeps_the_writes_apart(
        tmp_path):
    path, db = connected(tmp_path, timeout=0.2)
    queue = held_by_another_process(path)  # and never given up while the writer waits
    try:
        with storage.write_transaction(db):
            db.execute("create table t (x)")
    finally:
        os.close(queue)
    assert "t" in db.table_names()


def test_a_database_in_memory_has_no_queue(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = storage.connect(":memory:")
    with storage.write_transaction(db):
        db.execute("create table t (x)")
    assert os.listdir(tmp_path) == []
