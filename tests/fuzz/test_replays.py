"""The table a page or an action gets, from memory or from its snapshot, is always the table its
whole log replays to: after any legal, refused, undone or redone action, in every game."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import replays, rules, storage
from tests.fuzz import strategies as s
from tests.fuzz.fuzzing import actions, examples, snapshot

UNDO, REDO = ("undo", {}), ("redo", {})
NEXT = ("next", {})  # the street: a legal step at the table's state, drawn when it comes


def agree(kept, fresh):
    assert snapshot(kept.state) == snapshot(fresh.state)
    assert (kept.last_seq, kept.done, kept.undone, kept.last, kept.next) == (
        fresh.last_seq, fresh.done, fresh.undone, fresh.last, fresh.next)


def moves(slug):
    """Steps of the game's legal script in any order, undos, redos and hostile actions; the
    street's turn order refuses most of its script out of order, so there also steps legal at
    the table's state."""
    steps = s.GAMES[slug][1]
    step = st.sampled_from(range(len(steps))).map(lambda n: steps[n])
    legal = [st.just(NEXT), st.just(NEXT)] if slug == "street" else []
    return st.lists(st.one_of(step, step, *legal, st.just(UNDO), st.just(REDO), actions(slug)),
                    max_size=14)


@pytest.mark.parametrize("slug", sorted(rules.GAMES))
@examples(40)
@given(data=st.data())
def test_the_kept_table_is_the_replayed_table(slug, data):
    players, steps = s.GAMES[slug]
    game = rules.GAMES[slug]
    db = storage.connect(":memory:")
    storage.migrate(db)
    table_id = storage.create_table(db, slug, [{"name": p, "colour": "red"} for p in players])
    prefix = steps[:data.draw(st.integers(0, len(steps)), label="legal steps first")]
    for kind, payload in [*prefix, *data.draw(moves(slug), label="then")]:
        if (kind, payload) == NEXT:
            state = replays.current(db, table_id, game, players).state
            if not state.finished:
                kind, payload = data.draw(s.street_next(state), label="legal now")
        if data.draw(st.booleans(), label="this worker forgets"):
            replays.MEMORY.forget()  # the next action starts from the snapshot
        try:
            replays.record(db, table_id, game, players, storage.last_seq(db, table_id), kind,
                           payload)
        except rules.RuleError:
            pass
        fresh = rules.replay(game, players, storage.events(db, table_id))
        agree(replays.current(db, table_id, game, players), fresh)  # from memory
        replays.MEMORY.forget()
        agree(replays.current(db, table_id, game, players), fresh)  # from the snapshot
    db.close()
