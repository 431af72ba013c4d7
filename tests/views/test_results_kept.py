"""A table's result is kept when it finishes (and taken back with its final), so the players'
pages read results, never logs: also for imported tables and tables finished before."""

from datetime import UTC, datetime, timedelta

from companion import replays, storage
from companion.app import create_app, get_db
from companion.rules import GAMES
from tests.conftest import act
from tests.tables import FINISHED, exported, held, seed, upload


def results(app):
    """Every finished table's result on the server, one a table (`storage.results` reads
    them a game once)."""
    db = storage.connect(app.config["DATABASE"])
    return [result for (result,) in db.execute("select result from results")]


def test_a_result_comes_and_goes_with_the_final_action(app, client):
    names, actions = FINISHED["yard"]
    table_id = seed(app, "yard", names, actions[:-1])
    assert results(app) == []
    with app.app_context():
        db = get_db()
        replays.record(db, table_id, GAMES["yard"], names, storage.last_seq(db, table_id),
                       *actions[-1])
    assert len(results(app)) == 1 and '"Paul"' in results(app)[0]
    url = f"/yard/{table_id}/"
    act(client, url, "undo")
    assert results(app) == []
    act(client, url, "redo")
    assert len(results(app)) == 1


def test_the_players_pages_read_no_log(app, client, monkeypatch):
    for slug in sorted(FINISHED):
        held(client, seed(app, slug, *FINISHED[slug]))

    def whole_log(*args, **kwargs):
        raise AssertionError("a log was read")

    monkeypatch.setattr(storage, "events", whole_log)
    index = client.get("/players").text
    assert "Paul" in index and "Mia" in index and "Cy" in index
    assert "<dt>Played</dt><dd>1</dd>" in client.get("/players/Ann").text


def test_an_imported_finished_table_counts_at_once(app, client):
    table_id = seed(app, "street", *FINISHED["street"])
    held(client, table_id)
    document = exported(client, "street", table_id)
    assert upload(client, document).status_code == 303
    assert len(results(app)) == 2
    # Both tables held: one game (begun at the same moment by the same seats), counted once.
    assert "<dt>Played</dt><dd>1</dd>" in client.get("/players/Mia").text


def test_renewed_links_keep_the_result(app, client):
    table_id = seed(app, "street", *FINISHED["street"])
    with client.session_transaction() as session:
        session["owned"] = [storage.mark_of(table_id)]
    assert client.post(f"/street/{table_id}/renew").status_code == 303
    assert len(results(app)) == 1 and "Mia" in client.get("/players").text


def test_tables_finished_before_results_were_kept_get_theirs_at_start(app, tmp_path,
                                                                       monkeypatch):
    seed(app, "yard", *FINISHED["yard"])
    db = storage.connect(app.config["DATABASE"])
    db.execute("delete from results")
    db.execute("delete from snapshots")
    assert results(app) == []
    create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
    assert len(results(app)) == 1


def test_the_list_shows_the_newest_tables_and_counts_them_all(app, client, monkeypatch):
    monkeypatch.setattr("companion.views.players.SHOWN_PER_GAME", 2)
    names, actions = FINISHED["street"]
    for hour in range(3):  # three games, each begun at its own time
        monkeypatch.setattr(storage.tables, "now", lambda offset=timedelta(), hour=hour: (
            datetime(2026, 1, 1, 10 + hour, tzinfo=UTC) + offset).isoformat(timespec="seconds"))
        held(client, seed(app, "street", names, actions))
    page = client.get("/players").text
    assert "Street card game <small>(3)</small>" in page
    assert "The 2 most recent:" in page
    assert page.count('<ol class="pl-results">') == 2
    assert "<dt>Played</dt><dd>3</dd>" in client.get("/players/Mia").text
