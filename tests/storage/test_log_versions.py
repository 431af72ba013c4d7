"""Logs from before every action said what it means (log version 1), as the app stored them:
brought up to date once, at start-up, from their own replay, and imported from version 1 files,
each still gives the result it gave (issue 40).

`tests/data/v1_logs.json` holds 60 random games of the four games as the version 1 app stored
them (with changes of past actions, undo and redo, more play after each change) and the result
that app gave for each: the totals, the ranking, whether it is over, what comes next, and the
points of every line of its score pad (`tests/data/make_v1_logs.py` made them)."""

import json
from pathlib import Path

import pytest

from companion import exchange, replays, rules, storage
from companion.app import create_app
from companion.rules.log import CHANGE, VERSION, Event
from companion.rules.referee import Referee, recorded_log

LOGS = json.loads((Path(__file__).parent.parent / "data" / "v1_logs.json").read_text())


def events_of(log):
    return [Event(*event) for event in log["events"]]


def result(slug, names, events):
    """What the version 1 app gave for a log, worked out by this app (what comes next, in the
    yard, as that app said it: since issue 41 the strip says more there)."""
    game = rules.GAMES[slug]
    state = rules.replay(game, names, events).state
    pad = rules.score_pad(game, names, events)
    return {"totals": state.totals(), "finished": state.finished,
            "ranking": [[p.place, p.player, p.total, p.shared] for p in state.ranking()],
            "up_next": V1_WORDS.get(slug, lambda state: state.up_next)(state),
            "points": [[line.entry.event.seq, list(map(list, line.points))]
                       for line in pad.lines]}


def v1_yard_words(state):
    """The yard's strip as the version 1 app said it: the game over as soon as the display
    cannot be refilled, and the last buyer going on after a scoring card too."""
    if state.finished or state.dirk_due or state.last_buyer is None:
        return state.up_next
    if state.game_over:
        return "The game is over: the final scoring comes next."
    following = state.players[(state.players.index(state.last_buyer) + 1) % len(state.players)]
    return (f"{state.last_buyer} goes on after paying exactly; otherwise it is {following}'s "
            "turn.")


V1_WORDS = {"yard": v1_yard_words}


def said_all(slug, names, events):
    """The log as a version 2 log: every action says all it means (else RuleError)."""
    referee = Referee(rules.GAMES[slug], names, VERSION)
    for event in events:
        referee.take(event)
    return referee.recorded


@pytest.mark.parametrize("number", range(len(LOGS)))
def test_every_version_1_log_gives_the_result_it_gave(number):
    log = LOGS[number]
    slug, names = log["game"], log["players"]
    upgraded = recorded_log(rules.GAMES[slug], names, events_of(log), 1)
    assert result(slug, names, upgraded) == log["result"]
    assert said_all(slug, names, upgraded) == upgraded
    assert [(e.seq, e.kind, e.at) for e in upgraded] == [
        (e.seq, e.kind, e.at) for e in events_of(log)]  # only payloads are written in


def test_a_version_1_change_that_read_a_kept_action_as_another_says_so_in_its_edits():
    """The version 1 app read the later actions a change kept again on the changed table, and
    so could make one mean another action: brought up to date, that action is one of the
    change's edits, from what it was to what the change made it (the history says so)."""
    read_again = []
    for log in LOGS:
        game, names = rules.GAMES[log["game"]], log["players"]
        for old, new in zip(events_of(log), recorded_log(game, names, events_of(log), 1),
                            strict=True):
            if old.kind == CHANGE and len(new.payload["edits"]) > len(old.payload["edits"]):
                read_again.append((game, new.payload))
    assert len(read_again) >= 10
    game, fix = next((g, f) for g, f in read_again if g.slug == "fifth_avenue")
    extra = fix["edits"][-1]
    assert extra["was"]["payload"] != extra["now"]["payload"]
    assert game.say_edit(extra["was"], extra["now"]) in game.say(CHANGE, fix)


@pytest.fixture
def old_database(tmp_path):
    """A database file as the version 1 app left it: every table's log of version 1, with
    a snapshot (kept under the old rules)."""
    path = str(tmp_path / "old.sqlite")
    db = storage.connect(path)
    storage.migrate(db)
    ids = []
    for log in LOGS:
        table_id = storage.create_table(db, log["game"], [{"name": n, "colour": "red"}
                                                          for n in log["players"]])
        db["events"].insert_all({"table_id": table_id, "seq": seq, "kind": kind,
                                 "payload": json.dumps(payload), "at": at}
                                for seq, kind, payload, at in log["events"])
        db.execute("update tables set log_version = 1 where id = ?", [table_id])
        storage.store_snapshot(db, table_id, len(log["events"]), b"old rules")
        ids.append(table_id)
    db.conn.commit()
    db.close()
    return path, ids


def test_the_app_brings_every_old_log_up_to_date_once_at_start(old_database, tmp_path):
    path, ids = old_database
    create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "x"})
    db = storage.connect(path)
    assert storage.old_logs(db) == []
    replays.MEMORY.forget()
    for log, table_id in zip(LOGS, ids, strict=True):
        slug, names = log["game"], log["players"]
        events = storage.events(db, table_id)
        assert said_all(slug, names, events) == events
        table = replays.current(db, table_id, rules.GAMES[slug], names)
        assert table.state.totals() == log["result"]["totals"]
        assert table.state.finished == log["result"]["finished"]
        assert result(slug, names, events) == log["result"]
    before = [storage.events(db, table_id) for table_id in ids]
    replays.upgrade_logs(db)  # a second start finds nothing to do
    assert [storage.events(db, table_id) for table_id in ids] == before


@pytest.mark.parametrize("number", [n for n, log in enumerate(LOGS)
                                    if any(e[1] == CHANGE for e in log["events"])][:8])
def test_a_version_1_file_is_imported_with_every_action_saying_what_it_means(number):
    log = LOGS[number]
    document = {"format": exchange.FORMAT, "version": 1, "game": log["game"],
                "players": [{"name": n, "colour": c} for n, c in zip(
                    log["players"], ("red", "blue", "green"), strict=False)],
                "created_at": log["events"][0][3],
                "status": "finished" if log["result"]["finished"] else "open",
                "events": [{"seq": s, "kind": k, "payload": p, "at": a}
                           for s, k, p, a in log["events"]]}
    document["digest"] = exchange.digest(document)
    imported = exchange.read_table(json.dumps(document).encode(), ["red", "blue", "green"])
    assert result(log["game"], log["players"], imported.events) == log["result"]
    assert said_all(log["game"], log["players"], imported.events) == imported.events
    assert imported.table.state.totals() == log["result"]["totals"]


def test_an_auction_the_version_1_app_let_nobody_win_after_alea_was_beaten_is_kept_marked():
    """Issue 41: the rules now refuse "nobody bid" after a player's bid beat Alea's; a log the
    version 1 app let do it keeps its result, the auction marked so in its history."""
    marked = []
    for log in LOGS:
        game, names = rules.GAMES[log["game"]], log["players"]
        marked += [(game, e) for e in recorded_log(game, names, events_of(log), 1)
                   if e.payload.get("unsold")]
    assert marked
    game, event = marked[0]
    assert game.say(event.kind, event.payload).startswith("Nobody won ")
    assert "though a player's bid had beaten Alea's" in game.say(event.kind, event.payload)
