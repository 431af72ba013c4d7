"""Writes tests/data/v1_logs.json: logs as the app stored them before every action said what it
means (log version 1), with the results that app gave for them. Run once, in a checkout of the
last version 1 commit (60a87ae), from its top folder:

    PYTHONPATH=. .venv/bin/python /path/to/this/file.py OUT.json

Each log is a random legal game of one of the four games, recorded through that app's one write
path (`replays.record`), with one to three changes of past actions made as that app made them
(`rules.corrected`), now and then an undo and a redo, and more play after each change."""

import importlib
import json
import sys

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from companion import replays, rules, storage
from companion.rules.log import CHANGE
from tests.fuzz import strategies as s

# In that checkout the legal steps of these two games live in their fuzz test modules.
urbanisation = importlib.import_module("tests.fuzz.test_urbanisation_turns")
yard = importlib.import_module("tests.fuzz.test_yard_turns")

LOGS = []
SEATS = {"yard": ["Ann", "Ben"], "fifth_avenue": ["Ann", "Ben"], "street": ["Mia", "Ola", "Pit"],
         "urbanisation": ["Ann", "Ben", "Cy"]}
SEATS_MORE = {"yard": ["Ann", "Ben", "Cy"], "fifth_avenue": ["Fay", "Gus", "Hal"],
              "street": ["Mia", "Ola"], "urbanisation": ["Ann", "Ben"]}


def step(draw, slug, state, n):
    if slug == "yard":
        return draw(yard.legal_step(state))
    if slug == "fifth_avenue":
        return draw(s.fifth_avenue_next(state, late=n > 110))
    if slug == "street":
        return draw(s.street_next(state, late=n > 60))
    return draw(urbanisation.legal_step(state) if n else urbanisation.set_up(state.players))


def play(draw, db, table_id, slug, names, upto):
    game = rules.GAMES[slug]
    while True:
        table = replays.current(db, table_id, game, names)
        played = len(table.done)
        if table.state.finished or played >= upto:
            return
        kind, payload = step(draw, slug, table.state, played)
        replays.record(db, table_id, game, names, table.last_seq, kind, payload)


def change(draw, db, table_id, slug, names):
    game = rules.GAMES[slug]
    played, last = replays.played_log(db, table_id, game, names)
    target = draw(st.sampled_from(played[1:] or played))
    before = rules.replay(game, names, [e for e in played if e.seq < target.seq]).state
    now = None if draw(st.integers(0, 3)) == 0 else step(
        draw, slug, before, len([e for e in played if e.seq < target.seq]))
    try:
        fix = rules.corrected(game, names, played, {target.seq: now}, "fixed")
    except rules.RuleError:
        return
    replays.record(db, table_id, game, names, last, CHANGE, fix.change)


def result(slug, names, events):
    game = rules.GAMES[slug]
    state = rules.replay(game, names, events).state
    pad = rules.score_pad(game, names, events)
    return {"totals": state.totals(), "finished": state.finished,
            "ranking": [[p.place, p.player, p.total, p.shared] for p in state.ranking()],
            "up_next": state.up_next, "points": [[line.entry.event.seq, list(map(list,
                                                                                 line.points))]
                                                 for line in pad.lines]}


@settings(max_examples=12, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data(), slug=st.sampled_from(sorted(SEATS)), more=st.booleans())
def make(data, slug, more):
    names = (SEATS_MORE if more else SEATS)[slug]
    db = storage.connect(":memory:")
    storage.migrate(db)
    table_id = storage.create_table(db, slug, [{"name": n, "colour": "red"} for n in names])
    game, draw = rules.GAMES[slug], data.draw
    play(draw, db, table_id, slug, names, draw(st.integers(15, 90)))
    for _ in range(draw(st.integers(1, 3))):
        change(draw, db, table_id, slug, names)
        if draw(st.booleans()):
            last = storage.last_seq(db, table_id)
            replays.record(db, table_id, game, names, last, "undo", {})
            replays.record(db, table_id, game, names, last + 1, "redo", {})
        table = replays.current(db, table_id, game, names)
        play(draw, db, table_id, slug, names, len(table.done) + draw(st.integers(0, 30)))
    events = storage.events(db, table_id)
    LOGS.append({"game": slug, "players": names,
                 "events": [[e.seq, e.kind, e.payload, e.at] for e in events],
                 "result": result(slug, names, events)})


if __name__ == "__main__":
    for number in range(5):
        seed(number)(make)()
    with open(sys.argv[1], "w") as out:
        json.dump(LOGS, out, ensure_ascii=False, separators=(",", ":"))
    print(len(LOGS), "logs", sum(len(log["events"]) for log in LOGS), "events")
