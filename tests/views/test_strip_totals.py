"""Every table page ends with the score strip: each player's running total and the last action
with its Undo (fixed at the foot of the screen: tests/browser/test_score_strip.py)."""

import re

import pytest

from companion import storage
from companion.rules import GAMES, replay
from tests.tables import FINISHED, seed


def strip_of(page):
    found = re.search(r'<aside class="score-strip"[^>]*>(.*?)</aside>', page, re.S)
    assert found, "no score strip"
    return found.group(1)


@pytest.mark.parametrize("share", [0.5, 1], ids=["middle", "end"])
@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_the_strip_shows_every_running_total_and_the_last_action(app, client, slug, share):
    names, actions = FINISHED[slug]
    table_id = seed(app, slug, names, actions[: round(len(actions) * share)])
    strip = strip_of(client.get(f"/{slug}/{table_id}/").get_data(as_text=True))
    db = storage.connect(app.config["DATABASE"])
    game = replay(GAMES[slug], names, storage.events(db, table_id))
    shown = re.findall(r'<span class="who">([^<]+)</span> <strong>(-?\d+)</strong>', strip)
    totals = {name: int(total) for name, total in shown}
    assert totals == game.state.totals()
    assert f'action="/{slug}/{table_id}/undo#at-' in strip
    assert "Last: " in strip


def test_a_new_table_shows_the_totals_and_nothing_to_undo(client):
    from tests.conftest import new_table

    url = new_table(client, "Ann", "Ben", "Cy")
    strip = strip_of(client.get(url).get_data(as_text=True))
    assert '"who">Ann</span> <strong>0</strong>' in strip and "/undo" not in strip


def test_after_an_undo_a_reload_keeps_redo_beside_undo(client):
    """Found at a table: after an Undo the strip had Redo beside Undo; after a reload only Undo,
    with Redo still on at the top of the page. It stays while there is something to redo."""
    from tests.conftest import act, new_table

    url = new_table(client, "Ann", "Ben", "Cy")
    act(client, url, "buy", player="Ann", building="park")
    act(client, url, "buy", player="Ben", building="park")
    act(client, url, "undo")
    strip = strip_of(client.get(url).get_data(as_text=True))
    assert strip.index(f'action="{url}redo#') < strip.index(f'action="{url}undo#')
    act(client, url, "redo")
    assert "/redo" not in strip_of(client.get(url).get_data(as_text=True))


def test_after_a_reload_the_last_line_still_says_what_it_gave(app, client):
    """Issue 45: the answer said "Scoring A — Paul +10 · ...", a reload only "Last: Scoring A".
    What the last action gave is kept with the table (as a replay from the log works it out
    too), so every page and every phone says it; after an undo it is not known: not said."""
    from companion import replays
    from tests.conftest import act

    names, actions = FINISHED["yard"]
    table_id = seed(app, "yard", names, actions[:7])  # ... then Scoring A
    url = f"/yard/{table_id}/"
    reloaded = strip_of(client.get(url).get_data(as_text=True))
    line = re.search(r"Last: Scoring A</span> <span class=\"strip-gave\">— ([^<]+)</span>",
                     reloaded)
    assert line and "Paul +" in line.group(1), reloaded
    replays.MEMORY.forget()  # from the snapshot, then from the log alone
    assert line.group(0) in strip_of(client.get(url).get_data(as_text=True))
    db = storage.connect(app.config["DATABASE"])
    db.execute("delete from snapshots where table_id = ?", [table_id])
    db.conn.commit()
    replays.MEMORY.forget()
    assert line.group(0) in strip_of(client.get(url).get_data(as_text=True))
    assert act(client, url, "buy", player="Nina", building="park").status_code == 303
    assert act(client, url, "undo").status_code == 303
    client.get(url)  # the undo's own answer said "Undone: ..."
    assert "Last: Scoring A</span></p>" in strip_of(client.get(url).get_data(as_text=True))


def test_names_the_strip_would_cut_alike_are_told_apart(client):
    """Found at a table: "Maximilian-Alexander Böh" and "Maximilian K." both read "Maximilia…"
    in the strip at 320 px, their dots the only difference. A name sharing its first 9
    characters with another's is shown from where they part; a screen reader reads it whole."""
    from tests.conftest import new_table
    url = new_table(client, "Maximilian-Alexander Böh", "Maximilian K.", "Maximilian",
                    "Lea & <b>Jo</b>")
    strip = strip_of(client.get(url).get_data(as_text=True))
    shown = re.findall(r'<span class="who"[^>]*>([^<]+)</span>', strip)
    assert shown == ["Max…-Alexander Böh", "Max… K.", "Maximilian",
                     "Lea &amp; &lt;b&gt;Jo&lt;/b&gt;"]
    assert '<span class="sr-only">Maximilian-Alexander Böh</span>' in strip
    assert '<span class="who" aria-hidden="true">Max… K.</span><span class="sr-only">' \
        'Maximilian K.</span>' in strip
