"""A table's log is read as it was at one moment (`storage.events`): an action recorded while
it is read is not an event missing, which would call the database damaged (issue 46: a page
loaded as an action on its table committed got a 500, and the file was called damaged)."""

from companion import storage
from tests.conftest import act, new_table


class Recording:
    """A connection whose read of a log's events lets another phone's action commit before
    it goes on to the table's snapshot, as another worker's thread may."""

    def __init__(self, db, action):
        self.db, self.action = db, action

    def execute(self, sql, *args):
        cursor = self.db.execute(sql, *args)
        if sql.startswith("select seq, kind, payload, at from events"):
            rows = cursor.fetchall()
            self.action()
            return Rows(rows)
        return cursor

    def __getattr__(self, name):
        return getattr(self.db, name)


class Rows:
    def __init__(self, rows):
        self.rows = rows

    def fetchall(self):
        return self.rows


def test_an_action_recorded_while_a_log_is_read_is_not_a_missing_event(app, client):
    url = new_table(client, "Tobi", "Nina", "Cy")
    for player in ("Tobi", "Nina"):
        assert act(client, url, "buy", player=player, building="park").status_code == 303
    table_id = url.split("/")[2]
    db = storage.connect(app.config["DATABASE"])

    def another_phone():
        assert act(client, url, "buy", player="Cy", building="park").status_code == 303

    events = storage.events(Recording(db, another_phone), table_id)
    assert [e.seq for e in events] == [1, 2]  # the log as it was when the read began
    assert [e.seq for e in storage.events(db, table_id)] == [1, 2, 3]
    assert storage.damage(app.config["DATABASE"]) is None
