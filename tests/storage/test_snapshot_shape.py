"""A snapshot is a cache of the replayed log: one kept under another shape of the rules' states
(`replays.SHAPE`, worked out from the state classes' fields) is not read; the table is replayed
from its log instead, and its snapshot kept anew."""

import dataclasses
import pickle
import types

from companion import replays, storage
from companion.rules import GAMES


def test_a_snapshot_of_another_shape_is_replayed_from_the_log(tmp_path):
    db = storage.connect(str(tmp_path / "t.sqlite"))
    storage.migrate(db)
    names = ["Mia", "Ola"]
    table_id = storage.create_table(db, "street", [{"name": n, "colour": "red"} for n in names])
    replays.record(db, table_id, GAMES["street"], names, 0, "discard",
                   {"player": "Mia"})
    kept = storage.snapshot(db, table_id)
    assert replays.unpickled(kept[1]).state.step == 2
    old = pickle.dumps(replays.unpickled(kept[1]))  # as snapshots were kept before SHAPE
    with storage.write_transaction(db):
        db.execute("update snapshots set state = ? where table_id = ?", [old, table_id])
    assert replays.unpickled(old) is None
    replays.MEMORY.forget()
    table = replays.current(db, table_id, GAMES["street"], names)
    assert (table.last_seq, table.state.turn, table.state.step) == (1, "Mia", 2)
    assert replays.unpickled(storage.snapshot(db, table_id)[1]) is not None


def test_a_state_class_that_changes_its_fields_changes_the_shape(monkeypatch):
    """Issue 47: the shape followed a number that every change of a state class had to raise
    by hand. It is worked out from the classes: a field added, or one of another type, is
    another shape; the same classes give the same shape."""
    def shape(**fields):
        module = types.ModuleType("companion.rules.fake_table")
        module.FakeTable = dataclasses.make_dataclass("FakeTable", list(fields.items()))
        module.FakeTable.__module__ = module.__name__
        monkeypatch.setattr(replays, "rules_modules", lambda: [module])
        return replays.shape_of_states()

    before = shape(turn="str")
    assert shape(turn="str") == before
    assert shape(turn="str", step="int") != before
    assert shape(turn="int") != before
    monkeypatch.setattr(replays, "MEANING", replays.MEANING + 1)  # same fields, new meaning
    assert shape(turn="str") != before


def test_a_snapshot_of_a_class_this_version_no_longer_has_is_of_another_shape():
    """Issue 47 renamed the states (`YardTable` is `YardState`): a snapshot kept before names a
    class that is gone, and is replayed from its log like any snapshot of another shape."""
    gone = b"ccompanion.rules.yard_table\nYardTable\n."  # pickle's GLOBAL opcode, protocol 0
    moved = b"ccompanion.rules.no_such_module\nState\n."
    assert replays.unpickled(gone) is None and replays.unpickled(moved) is None
