"""Replay once: no page or action reads a table's whole log once the table has its snapshot,
and no page changes the table it shows (every request of a worker shares it)."""

import pytest

from companion import replays, storage
from companion.rules import GAMES, replay
from companion.rules.log import Event
from tests.conftest import act
from tests.tables import FINISHED, PAGES, seed


def snapshot(state):
    """A table's state; `note` only says what the last action did."""
    return {key: value for key, value in vars(state).items() if key != "note"}


@pytest.mark.parametrize("share", [0.5, 1], ids=["middle", "end"])
@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_no_page_changes_the_table_it_shows(app, client, slug, share):
    names, actions = FINISHED[slug]
    table_id = seed(app, slug, names, actions[: round(len(actions) * share)])
    for page in PAGES[slug]:
        assert client.get(f"/{slug}/{table_id}/{page}").status_code == 200, page
    db = storage.connect(app.config["DATABASE"])
    kept = replays.MEMORY.table(table_id, storage.last_seq(db, table_id))
    fresh = replay(GAMES[slug], names, storage.events(db, table_id))
    assert kept is not None and snapshot(kept.state) == snapshot(fresh.state)


def test_pages_and_actions_never_read_the_whole_log(app, client, monkeypatch):
    names, actions = FINISHED["yard"]
    table_id = seed(app, "yard", names, actions[:8])
    url = f"/yard/{table_id}/"

    def whole_log(*args, **kwargs):
        raise AssertionError("the whole log was read")

    monkeypatch.setattr(storage, "events", whole_log)
    for forget in (False, True):  # from this worker's memory, then from the snapshot
        if forget:
            replays.MEMORY.forget()
        assert client.get(url).status_code == 200
        assert act(client, url, "buy", player="Nina", building="museum").status_code == 303
        assert act(client, url, "undo").status_code == 303
        assert act(client, url, "redo").status_code == 303
        assert client.get(url + "sheet.pdf").status_code == 200
        assert "/board/" in client.get(url + "share").text


def test_what_a_page_works_out_from_a_state_is_worked_out_once_per_state():
    """replays.Memory.worked_out (Urbanisation's one-tap offers): once per table state, again
    for the next state, and forgotten with the tables."""
    memory = replays.Memory(size=2)
    names, actions = FINISHED["yard"]
    events = [Event(seq, kind, payload) for seq, (kind, payload) in enumerate(actions, 1)]
    first = replay(GAMES["yard"], names, events[:3])
    later = replay(GAMES["yard"], names, events[:4])
    calls = []

    def work(state):
        calls.append(state)
        return len(calls)

    assert memory.worked_out("w", "t", first, work) == memory.worked_out("w", "t", first,
                                                                          work) == 1
    assert memory.worked_out("w", "t", later, work) == 2
    assert memory.worked_out("w", "other", first, work) == 3  # another table, another answer
    assert memory.worked_out("w", "t", first, work) == 4  # the oldest went (size 2)
    memory.forget()
    assert memory.worked_out("w", "t", later, work) == 5
    assert memory.worked_out("other work", "t", later, work) == 6  # kept apart by what it is
