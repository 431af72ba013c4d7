"""Changing past actions: for random games and a random change (one or two actions, each another
action in its place or none), the table the app keeps after the change is the table the
corrected log replays to;
undo brings back the game as it was, redo the change again; a change that does not fit the log
is refused and changes nothing."""

import copy

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from companion import replays, rules, storage
from companion.rules.log import CHANGE, Event
from tests.fuzz import strategies as s
from tests.fuzz.fuzzing import examples, snapshot


def same(state, other):
    assert snapshot(state) == snapshot(other)


def table(slug, players, steps):
    db = storage.connect(":memory:")
    storage.migrate(db)
    table_id = storage.create_table(db, slug, [{"name": p, "colour": "red"} for p in players])
    for kind, payload in steps:
        replays.record(db, table_id, rules.GAMES[slug], players, storage.last_seq(db, table_id),
                       kind, copy.deepcopy(payload))
    return db, table_id


def kept(db, table_id, slug, players):
    """The table as a page gets it: from memory, and again from the stored snapshot."""
    game = rules.GAMES[slug]
    from_memory = replays.current(db, table_id, game, players)
    replays.MEMORY.forget()
    same(from_memory.state, replays.current(db, table_id, game, players).state)
    return from_memory


@pytest.mark.parametrize("slug", sorted(rules.GAMES))
@examples(25)
@given(data=st.data())
def test_a_change_leaves_the_table_the_corrected_log_replays_to(slug, data):
    players, steps = s.GAMES[slug]
    game = rules.GAMES[slug]
    played = data.draw(st.integers(2, len(steps)), label="actions played")
    db, table_id = table(slug, players, steps[:played])
    seqs = data.draw(st.lists(st.integers(1, played), min_size=1, max_size=2, unique=True),
                     label="the actions changed")
    edits = {seq: data.draw(st.none() | st.sampled_from(steps).map(copy.deepcopy),
                            label=f"#{seq} now") for seq in seqs}
    events = storage.events(db, table_id)
    before = rules.replay(game, players, events).state
    try:
        correction = rules.corrected(game, players, events, edits, "wrong entry")
    except rules.RuleError:
        event("the changed action is refused")
        return  # the rules refuse the changed action itself: nothing to record
    event(f"changed, {len(correction.dropped) > 0 and 'some' or 'no'} later actions dropped")
    replays.record(db, table_id, game, players, played, CHANGE, correction.change)

    now = {edit["seq"]: edit["now"] for edit in correction.change["edits"]}  # as recorded
    corrected_log = [Event(e.seq, now[e.seq]["kind"], now[e.seq]["payload"]) if e.seq in now
                     else e for e in events
                     if e.seq not in correction.change["drop"] and now.get(e.seq, True)]
    assert [(e.kind, dict(e.payload)) for e in correction.played] == [
        (e.kind, dict(e.payload)) for e in rules.log.as_played(
            rules.log.resolve(corrected_log).done)]
    expected = rules.replay(game, players, corrected_log).state
    same(kept(db, table_id, slug, players).state, expected)
    same(correction.state, expected)
    assert rules.replay(game, players, storage.events(db, table_id)).last.kind == CHANGE

    replays.record(db, table_id, game, players, played + 1, "undo", {})
    same(kept(db, table_id, slug, players).state, before)
    replays.record(db, table_id, game, players, played + 2, "redo", {})
    same(kept(db, table_id, slug, players).state, expected)


@pytest.mark.parametrize("slug", sorted(rules.GAMES))
def test_a_change_that_does_not_fit_the_log_is_refused_and_changes_nothing(slug):
    players, steps = s.GAMES[slug]
    game = rules.GAMES[slug]
    db, table_id = table(slug, players, steps[:3])
    events = storage.events(db, table_id)
    change = rules.corrected(game, players, events, {2: None}, "wrong entry").change
    edit = change["edits"][0]
    refused = [
        {**change, "edits": [{**edit, "was": {"kind": "buy", "payload": {"player": "x"}}}]},
        {**change, "edits": [{**edit, "seq": 9}]},  # no such action
        {**change, "edits": [edit, edit]},  # the same action twice
        {**change, "edits": []},
        {**change, "drop": [1]},  # an earlier action
        {**change, "drop": [2]},  # the one it edits
        {**change, "edits": [{**edit, "now": {"kind": "undo", "payload": {}}}]},
        {**change, "reason": "x" * 101},
        {"seq": 2},
    ]
    for payload in refused:
        with pytest.raises(rules.RuleError):
            replays.record(db, table_id, game, players, 3, CHANGE, payload)
    assert storage.last_seq(db, table_id) == 3
    replays.record(db, table_id, game, players, 3, "undo", {})  # action 3 undone: not in force
    with pytest.raises(rules.RuleError):
        replays.record(db, table_id, game, players, 4, CHANGE,
                       rules.corrected(game, players, events, {3: None}).change)
