"""A tap from a screen one action behind (another phone recorded an action since it loaded,
and it has no JavaScript to be told) is answered as what changed, never as a field to fill in
or a move the rules refuse: every action form of the table page and of the pages it links to
at the table's address (a street player's card builder), at positions through a whole game of
each game, each of its buttons sent as the page fills the form. A yard purchase is the one
action the rules take on the table as it stands (`rules.merges`); opening a street card's
fold-out records nothing (a 303 to the page)."""

from __future__ import annotations

import re

import pytest
from werkzeug.datastructures import MultiDict

from benchmarks.games import SCRIPTS
from companion import replays, storage
from companion.app import get_db
from companion.rules import GAMES
from companion.views.tables import SEAT_COLOURS
from tests.page_forms import forms, submissions

EVERY = 3  # positions: every third of the scripted game's, to keep the test short
NOT_ACTIONS = ("history", "share", ".pdf", "change", "also=", "renew", "export")
MERGED = {"yard": "buy"}  # the one action recorded on the table as it stands
OPENS = "/fold"  # the street's fold-outs without JavaScript: nothing recorded


def table_at(app, slug, actions):
    names = SCRIPTS[slug].players
    with app.app_context():
        db = get_db()
        table_id = storage.create_table(
            db, slug, [{"name": n, "colour": SEAT_COLOURS[i]} for i, n in enumerate(names)])
        for kind, payload in actions:
            replays.record(db, table_id, GAMES[slug], names, storage.last_seq(db, table_id),
                           kind, payload)
    return table_id


def pages(client, url):
    """The table page and the pages it links to at its address that hold action forms."""
    page = client.get(url).get_data(as_text=True)
    links = sorted({href.replace("&amp;", "&") for href in
                    re.findall(rf'href="({re.escape(url)}[^"#]*)"', page)})
    return [page, *(client.get(link).get_data(as_text=True) for link in links
                    if link != url and not any(word in link for word in NOT_ACTIONS))]


def taps(html):
    for form in forms(html):
        if form.method != "post":
            continue
        for sent in submissions(form, lambda name, options: options[0]):
            if "/change" not in sent.action and not sent.action.endswith(("/undo", "/redo")):
                yield sent


@pytest.mark.parametrize("slug", list(SCRIPTS))
def test_a_screen_one_action_behind_is_told_what_changed(app, client, slug):
    actions = SCRIPTS[slug].actions()
    answers = {}
    for k in range(0, len(actions) - 1, EVERY):
        table_id = table_at(app, slug, actions[:k])
        url = f"/{slug}/{table_id}/"
        behind = pages(client, url)
        with app.app_context():  # the other phone's action
            db = get_db()
            kind, payload = actions[k]
            replays.record(db, table_id, GAMES[slug], SCRIPTS[slug].players, k, kind, payload)
        for html in behind:
            for sent in taps(html):
                answer = client.post(sent.action, data=MultiDict(sent.data))
                merged = sent.action.endswith("/" + MERGED.get(slug, "-"))
                expected = {303} if OPENS in sent.action else {303, 409} if merged else {409}
                assert answer.status_code in expected, (k, sent)
                answers[answer.status_code] = answers.get(answer.status_code, 0) + 1
    checkpoints = len(range(0, len(actions) - 1, EVERY))
    assert answers.get(409, 0) > min(50, checkpoints - 1)  # the forms were found and sent
