"""Two servers started at once on a fresh instance folder (issue 27, item 1): both start, on one
schema, one WAL database and one secret key (the migrations are looked for and applied under the
write lock; the key appears whole or not at all)."""

import multiprocessing

from sqlite_utils import Database

from companion.storage import migrations

ROUNDS = 6


def start(instance, ready, answers):
    """One server's start-up, as `python -m companion` makes its app (instance/config.py and
    the default database)."""
    import os

    os.environ["COMPANION_INSTANCE"] = instance
    from companion.app import create_app

    ready.wait()
    try:
        app = create_app()
        answers.put(("started", app.config["SECRET_KEY"]))
    except Exception as error:  # the test says which
        answers.put(("failed", repr(error)))


def start_two(instance):
    context = multiprocessing.get_context("spawn")
    ready, answers = context.Barrier(2), context.Queue()
    servers = [context.Process(target=start, args=(str(instance), ready, answers))
               for _ in range(2)]
    for server in servers:
        server.start()
    found = [answers.get(timeout=60) for _ in servers]
    for server in servers:
        server.join(timeout=30)
    return found


def test_two_servers_starting_together_on_a_fresh_instance_both_start(tmp_path):
    for n in range(ROUNDS):
        instance = tmp_path / f"instance{n}"
        found = start_two(instance)
        assert [state for state, _ in found] == ["started", "started"], found
        assert found[0][1] == found[1][1]  # one secret key, read whole by both
        db = Database(instance / "companion.sqlite")
        assert not migrations.pending(db)
        assert db.journal_mode == "wal"
        db.close()
