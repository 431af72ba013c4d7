"""No dead ends (issue 41): in every position a game reaches before its end, the table page
offers a control the rules accept, and when the game's last action is the final scoring, the
page offers it.

Random legal games of each game are played through the app's storage, with undo, redo and fixes
of past actions mixed in. At every position the table page, and the pages it links to at the
table's address (the 5th Avenue board), are read as a browser reads them: each submit button of
each form that is not hidden, sent with the form's fields as the page fills them and, where a
radio group or a list has nothing chosen, its first option, or options apart from one another
(the yard's leftover cards lie on different spaces). Each is sent to the app as a tap would be,
with `replays.record` in a dry run: the rules apply the action to a copy of the table, nothing
is written. Undo, redo and the change forms do not count as a way forward.

Hunt for bugs with many more examples:
RULES_FUZZ_EXAMPLES=50 pytest tests/fuzz/test_no_dead_ends.py
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from companion import replays, rules, storage
from companion.rules.log import CHANGE, REDO, UNDO
from tests import street_moves as moves
from tests.conftest import new_table
from tests.fuzz.fuzzing import examples
from tests.fuzz.legal_games import NEXT, SEATS
from tests.page_forms import Submission, forms, submissions
from tests.tables import seed

# Undo, redo and fixes are mixed in for this many steps, then the game is played on to its
# end: with them all the way, one random Urbanisation game had not ended after 400 steps (23
# fixes, 14 undos, 20 redos). Played on alone, a game ends within 160 steps (random games from
# the start: 5th Avenue 78-154 steps, Urbanisation 98, the yard 54-57, the street 8-68).
MIXED_STEPS = 200
# Links of a table page that lead to no action of the game.
NOT_ACTIONS = ("history", "share", ".pdf", "change", "also=", "renew", "export")
# Actions the rules take at any time that do not move the game on: the players' corrections of
# a count, a card or a factory, and news of a street deck run out (not a move of anyone's).
NOT_FORWARD = {"yard": {"correct", "deck"}, "street": {"account", "remove", "deck_empty"},
               "urbanisation": {"name_factory"}, "fifth_avenue": set()}


class Accepted(Exception):
    """The action a page's control sent, which the rules take (in a dry run)."""


def dry_run(db: storage.Database, table_id: str, game: rules.Game, names: list[str],
            based_on: int, kind: str, payload: Mapping[str, Any], *args: Any) -> None:
    """`replays.record` without the writing: the rules apply the action to a copy of the table
    as it stands; Accepted if they take it, their RuleError if not."""
    standing = replays.current(db, table_id, game, names)
    assert based_on == standing.last_seq, "the page showed an outdated table"
    state = copy.deepcopy(standing.state)
    state.apply(kind, state.recorded(kind, dict(payload)))
    raise Accepted(kind)


def first(name: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    return options[0]


def apart() -> Any:
    """Options chosen apart: radio groups (or lists) of the same options get the first, the
    second, ... of them in turn."""
    taken: Counter[tuple[str, ...]] = Counter()

    def choose(name: str, options: list[dict[str, Any]]) -> dict[str, Any]:
        alike = tuple(o.get("value", "") for o in options)
        taken[alike] += 1
        return options[(taken[alike] - 1) % len(options)]
    return choose


def pages(client: Any, url: str) -> list[str]:
    """The table page and the pages it links to at the table's address that may act."""
    page = client.get(url).get_data(as_text=True)
    links = sorted({href.replace("&amp;", "&") for href in
                    re.findall(rf'href="({re.escape(url)}[^"#]*)"', page)})
    return [page] + [client.get(link).get_data(as_text=True) for link in links
                     if link != url and not any(word in link for word in NOT_ACTIONS)]


def accepted(client: Any, url: str, monkeypatch: pytest.MonkeyPatch,
             wanted: str | None = None) -> tuple[str | None, list[Any]]:
    """The kind of the first action the page's controls send that the rules accept and that
    moves the game on (`wanted`: the first of that kind), and every control tried before it
    with its answer (to say what the page offered when none was accepted)."""
    tried, ignored = [], NOT_FORWARD[url.split("/")[1]]
    with monkeypatch.context() as patched:
        patched.setattr(replays, "record", dry_run)
        for sent in controls(client, url):
            try:
                answer = client.post(sent.action, data=MultiDict(sent.data),
                                     headers={"X-Companion": "fetch"})
            except Accepted as taken:
                if taken.args[0] == wanted or (wanted is None and taken.args[0] not in ignored):
                    return taken.args[0], tried
                tried.append((sent.words, taken.args[0]))
            else:
                tried.append((sent.words, answer.status_code, answer.get_data(as_text=True)))
    return None, tried


def controls(client: Any, url: str) -> Iterator[Submission]:
    """What the page's controls send, but undo, redo and changes: on the table page and the
    pages it links to, each form filled in with its first options, then options apart."""
    for html in pages(client, url):
        for form in forms(html):
            for choose in (first, apart()):
                for sent in submissions(form, choose):
                    name = sent.action.rsplit("/", 1)[-1]
                    if sent.action.startswith(url) and name not in (UNDO, REDO) \
                            and "/change" not in sent.action:
                        yield sent


def fix(draw: Any, db: storage.Database, table_id: str, slug: str, names: list[str]) -> None:
    """A past action in force entered again as another legal action, or taken out, or moved
    next to one of the nearest in force (`rules.move_edits`), where the rules take it there."""
    game = rules.GAMES[slug]
    played, last = replays.played_log(db, table_id, game, names)
    index = draw(st.integers(0, len(played) - 1), label="the action fixed")
    near = [e.seq for e in played[max(0, index - 2):index + 3] if e is not played[index]]
    if near and draw(st.integers(0, 3), label="moved") == 0:
        edits = rules.move_edits(played, played[index].seq, draw(st.sampled_from(near)))
        try:
            change = replays.correction(db, table_id, game, names, edits).change
        except rules.RuleError:  # refused there: the page says so, and nothing is recorded
            return
        if change["edits"]:
            replays.record(db, table_id, game, names, last, CHANGE, {**change, "reason": "moved"})
        return
    before, _target, _played = replays.before(db, table_id, game, names, played[index].seq)
    now = None if draw(st.integers(0, 3), label="taken out") == 0 else \
        NEXT[slug](draw, before.state, index)
    change = replays.correction(db, table_id, game, names, {played[index].seq: now}).change
    replays.record(db, table_id, game, names, last, CHANGE, {**change, "reason": "fixed"})


@pytest.mark.parametrize("slug", sorted(NEXT))
@examples(3)
@given(data=st.data())
def test_every_position_offers_a_way_forward_to_the_final_scoring(
        app: Any, client: Any, monkeypatch: pytest.MonkeyPatch, slug: str, data: Any) -> None:
    names, game = SEATS[slug], rules.GAMES[slug]
    url = new_table(client, *names, game=slug)
    table_id = url.rstrip("/").rsplit("/", 1)[-1]
    db = storage.connect(app.config["DATABASE"])
    for n in range(400):
        table = replays.current(db, table_id, game, names)
        if table.state.finished:
            break
        what = "step" if n >= MIXED_STEPS else data.draw(
            st.sampled_from(["step"] * 16 + ["undo", "redo", "fix"]), label="what")
        kind, payload = NEXT[slug](data.draw, table.state, n)
        ending = finishes(table.state, kind, payload)  # the final scoring: the page offers it
        offered, tried = accepted(client, url, monkeypatch, kind if ending else None)
        assert offered, (f"a dead end after {n} steps" if not ending else
                         f"the final scoring ({kind}) is not offered", tried)
        if what == "undo" and table.last is not None:
            replays.record(db, table_id, game, names, table.last_seq, UNDO, {})
        elif what == "redo" and table.next is not None:
            replays.record(db, table_id, game, names, table.last_seq, REDO, {})
        elif what == "fix" and replays.played_log(db, table_id, game, names)[0]:
            # (an action in force to fix: `table.done` also counts changes, which may have
            # taken out every action)
            fix(data.draw, db, table_id, slug, names)
        else:
            replays.record(db, table_id, game, names, table.last_seq, kind, payload)
    else:
        pytest.fail("the game did not end in 400 steps")


# Positions random games seldom reach, from the tables that met them.
STREET_BUILT_OUT = ["Ann", "Ben"], [  # Ann finished her 5th site with her 1st action
    moves.build("Ann", 1, moves.ROOF), moves.public("Ann", 2, moves.ROOF), *moves.passes("Ben"),
    moves.build("Ann", 3, moves.ROOF), moves.public("Ann", 4, moves.ROOF), *moves.passes("Ben"),
    moves.build("Ann", 5, moves.ROOF)]


@pytest.mark.parametrize(("slug", "position"), [("street", STREET_BUILT_OUT)],
                         ids=["street, every site finished with the 1st action"])
def test_positions_met_at_tables_offer_a_way_forward(app, client, monkeypatch, slug, position):
    names, log = position
    table_id = seed(app, slug, names, log)
    offered, tried = accepted(client, f"/{slug}/{table_id}/", monkeypatch)
    assert offered, tried


def finishes(state: Any, kind: str, payload: dict[str, Any]) -> bool:
    """The step ends the game."""
    after = copy.deepcopy(state)
    after.apply(kind, after.recorded(kind, copy.deepcopy(payload)))
    return bool(after.finished)
