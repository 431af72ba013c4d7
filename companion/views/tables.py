"""The platform under every game's pages: a table loaded once per request, and what every table
page shows of it (the log's last steps, whose turn it is, the score strip)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from os.path import commonprefix
from typing import Any, NamedTuple

from flask import (
    abort,
    g,
    get_template_attribute,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from .. import replays, storage
from ..app import get_db
from ..i18n import lazy_gettext as _l
from ..i18n import signed, text
from ..rules import (
    Current,
    Gained,
    Game,
    Now,
    RuleError,
    TableState,
    find_game,
    shown_together,
)
from ..rules.common import winners
from ..rules.log import CHANGE, MAX_EVENTS, REDO, UNDO, Event
from ..rules.text import Account
from .taps import answer_page_made, sent_by_script

ROOM_WARNING = 100  # a table page says how many entries are left once this few are
# A new table keeps the newest tables of its game that the phone starting it had (`earlier`).
EARLIER_TABLES = 10
SEAT_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black", "white")
COLOUR_NAMES = {
    "red": _l("red"), "blue": _l("blue"), "green": _l("green"), "yellow": _l("yellow"),
    "purple": _l("purple"), "orange": _l("orange"), "black": _l("black"), "white": _l("white"),
}


@dataclass
class Table:
    """A game being played: its link id, game, players in seat order and their colours, and
    the table as it stands (`current`: read once per request)."""

    id: str
    game: Game
    players: list[dict[str, str]]
    created_at: str
    status: str
    view_token: str
    touched_at: str = ""  # when it was last started, written or opened (retention: `prune`)
    # The tables of its game the phone that started it had then, newest first (None: started
    # before tables kept them): the street offers the cards built there.
    earlier: list[str] | None = None
    _current: Current | None = field(default=None, repr=False, compare=False)
    # A past action being entered again (`?change=<seq>` on the table's links): the action as
    # it was played; the table shows the game just before it. Changed too (`?also=<seq>`): on
    # top of the change being made (`pending`: seq -> the action entered again, or None).
    changing: Event | None = None
    pending: dict[int, Now] = field(default_factory=dict)
    played: list[Event] = field(default_factory=list)  # in change mode, the actions in force

    @property
    def names(self) -> list[str]:
        return [p["name"] for p in self.players]

    @property
    def colours(self) -> dict[str, str]:
        return {p["name"]: p["colour"] for p in self.players}

    @property
    def current(self) -> Current:
        """The table as it stands: from the worker's memory or its snapshot (`replays`), once
        per request; after an action, the table that action made (`now_showing`)."""
        if self._current is None:
            self._current = replays.current(get_db(), self.id, self.game, self.names)
        return self._current


def now_showing(table: Table, current: Current | None) -> Table:
    """The table as an action just left it: the answer's page shows that, read nowhere (None:
    as it stands now, read again: another phone changed it)."""
    table._current = current
    return table


def load_table(slug: str, table_id: str) -> Table:
    """The table at this link, or 404 (also when the link names another game, or a past action
    to change that is not in force); read once per request."""
    loaded: dict[str, Table] = g.setdefault("tables", {})
    if table_id not in loaded:
        row = storage.get_table(get_db(), table_id)
        if row is None or row["game"] != slug:
            abort(404)
        loaded[table_id] = changing(table_from_row(row))
    if loaded[table_id].game.slug != slug:
        abort(404)
    return loaded[table_id]


# The action a table's links say is being changed (`?change=<seq>`), or changed too, on top of
# the change being made (`?also=<seq>`); the change being made is kept in the session.
CHANGE_ARGS = ("change", "also")
PENDING = "pending_change"


def changing(table: Table) -> Table:
    """In change mode (`?change=<seq>` or `?also=<seq>`), the table as it was just before that
    action, which is kept in every link the page makes (`remember_changing`): the players enter it
    again with the game's own forms, and see what the change does before it is recorded."""
    arg = next((name for name in CHANGE_ARGS if name in request.args), None)
    seq = request.args.get(arg, type=int) if arg else None
    if arg is None or seq is None:
        return table
    table.pending = pending_edits(table.id) if arg == "also" else {}
    if arg == "also":
        g.keep = kept_change(table)
    try:
        before, table.changing, table.played = replays.before(
            get_db(), table.id, table.game, table.names, seq, table.pending)
    except RuleError:  # undone or changed since (on another phone), or never recorded
        abort(make_response(render_template("error.html", status=False, back=table_url(table),
                                            message=not_in_force(table, seq)), 404))
    g.changing = (arg, seq)
    return now_showing(table, before)


def not_in_force(table: Table, seq: int) -> str:
    """Why action `seq` cannot be changed: undone or changed since, or no action recorded."""
    if not 0 < seq <= table.current.last_seq:
        return _("This table has no action #%(number)s. The table's history shows the actions "
                 "it holds.", number=seq)
    return _("Action #%(number)s is no longer in force (it was undone or changed since, maybe "
             "on another phone), so it cannot be changed. The table's history shows what it "
             "holds now.", number=seq)


def remember_changing(endpoint: str, values: dict[str, Any]) -> None:
    """In change mode, the table's links stay in it (`url_for(..., change=None, also=None)`
    leaves it), changed too with the change being made (`keep`)."""
    if "changing" in g and "table_id" in values:
        arg, seq = g.changing
        if arg not in values:
            values[arg] = seq
            if arg == "also":
                values.setdefault("keep", g.keep)


def kept_change(table: Table) -> str:
    """Changed too (`?also=<seq>&keep=<key>`): on top of the change this page's links were made
    for. The change being made is kept once a phone (its session), so a change started in
    another tab since takes its place: this page is then refused (409), never shown with that
    other change mixed into it."""
    keep = request.args.get("keep", "")
    if keep != pending_key(table.id):
        abort(make_response(render_template("error.html", status=False, back=table_url(table),
                                            message=_(
            "Another change was started on this phone since, in another tab or window, and "
            "took this one's place: nothing was recorded. Start this change again from the "
            "history.")), 409))
    return keep


def history_at(table: Table) -> str:
    """Where a change's Cancel leads: the history at the line of the action being changed (found
    at a table: it led to the newest lines, far from the one the table had come from)."""
    seq = table.changing.seq if table.changing is not None else None
    return url_for("main.table_history", slug=table.game.slug, table_id=table.id, change=None,
                   also=None, at=seq, _anchor=None if seq is None else f"e{seq}")


def fold_out_href(name: str | None, anchor: str) -> str:
    """A fold-out's link on the table page: `?open=<name>#<anchor>` (no name: every fold-out
    closed), in change mode with its `change` or `also` kept (`remember_changing`). On a page
    that answers an action without JavaScript, a refusal, the browser stays at the action's
    address: the link names the table page's (found at a table: "?open=empty-0" there led to
    the action's address, "Not found")."""
    query = [f"{g.changing[0]}={g.changing[1]}"] if "changing" in g else []
    query += [f"keep={g.keep}"] if "keep" in g else []
    query += [f"open={name}"] if name else []
    tables = list(g.get("tables", {}).values())
    at_action = request.method == "POST" and not sent_by_script() and len(tables) == 1
    return f"{table_url(tables[0]) if at_action else ''}?{'&'.join(query)}#{anchor}"


def changed_fold_out() -> str | None:
    """In change mode, the fold-out opened with the action being changed filled in as it was
    recorded (`change.as_recorded`): its summary is `#as-recorded`, where the Change links lead."""
    return g.get("changed_fold_out")


def being_changed(table: Table, kind: str) -> Mapping[str, Any]:
    """In change mode, the payload of the action being changed if it is of this `kind`, else an
    empty one: the table page marks the choice it was recorded with (`aria-current`)."""
    changing = table.changing
    return changing.payload if changing is not None and changing.kind == kind else {}


def pending_edits(table_id: str) -> dict[int, Now]:
    """The change being made at this table on this phone: seq -> the action entered again."""
    kept = session.get(PENDING) or {}
    if kept.get("table") != storage.mark_of(table_id):
        return {}
    return {int(seq): None if now is None else (now[0], now[1]) for seq, now in kept["edits"]}


def pending_key(table_id: str) -> str:
    """A short key of the change being made at this table on this phone (`kept_change`)."""
    kept = session.get(PENDING) or {}
    if kept.get("table") != storage.mark_of(table_id):
        return ""
    edits = json.dumps(kept["edits"], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(edits.encode()).hexdigest()[:12]


def remember_pending(table_id: str, edits: Mapping[int, Now]) -> None:
    session[PENDING] = {"table": storage.mark_of(table_id), "edits": [
        [seq, None if now is None else [now[0], dict(now[1])]] for seq, now in edits.items()]}


def table_from_row(row: Mapping[str, Any]) -> Table:
    earlier = row.get("earlier_tables")
    return Table(row["id"], find_game(row["game"]), row["players"], row["created_at"],
                 row["status"], row["view_token"], row.get("touched_at") or "",
                 None if earlier is None else json.loads(earlier))


# A fold-out's name in `?open=<name>` (`_macros.html`, `fold_out`).
FOLD_OUT = re.compile(r"[a-z][a-z0-9_-]{0,31}")


def opened_fold_out(kept: str | None = None) -> str | None:
    """The fold-out shown open: the one whose action was just refused (`kept`, with what was
    typed), else the one the players opened (`?open=<name>`). Only its forms are made."""
    name = kept or request.args.get("open", "")
    return name if FOLD_OUT.fullmatch(name) else None


def table_url(table: Table) -> str:
    """The table page's own address, never in change mode (`remember_changing`)."""
    return url_for("main.table", slug=table.game.slug, table_id=table.id, change=None, also=None)


def redirect_to_table(table: Table) -> Response:
    return redirect(table_url(table), code=303)


def table_page(table: Table, error: Any = None, status: int = 200,
               **context: Any) -> tuple[str, int]:
    """A game's table page, `templates/<slug>/table.html` (which extends `_table.html`): the
    table, its state (`state`) and the table as it stands (`current`), what every table page
    shows of the log (`log_context`), and the game's own `context` (its forms, rulings, ...).
    `here`: the page's own address, whatever request made it (an action's answer, kept for the
    phones that load the page after it), where the language switch comes back to: in change
    mode, with its `change` or `also` (`remember_changing`) and at the form (`#as-recorded`).
    `opened`: the fold-out shown open, a game's own (a refused form's) or else the players'
    (`?open=`): every game's page has the change mode's (found at a table: 5th Avenue, which has
    no fold-out of its own, never opened "Move it")."""
    context.setdefault("opened", opened_fold_out())
    current = table.current
    here = url_for("main.table", slug=table.game.slug, table_id=table.id,
                   _anchor="as-recorded" if table.changing else None)
    page = render_template(f"{table.game.slug}/table.html", table=table, state=current.state,
                           current=current, error=error, here=here,
                           **log_context(table, current), **context)
    return page, status


def log_context(table: Table, current: Current) -> dict[str, Any]:
    """What every table page shows of the log: the last seq (for the forms), what undo and
    redo would act on, the action this page is the answer to, the room left, and whose turn it
    is and what comes next (the rules' `up_next`)."""
    last = say_event(table, current.last, current.state) if current.last else None
    return {
        "seq": current.last_seq,
        "undo_label": last,
        "last_line": last_line(current, strip_said(table, current, last)),
        "redo_label": (say_event(table, current.next, current.state) if current.next
                       else None),
        "recorded": just_recorded(table, current),
        "room_note": room_note(MAX_EVENTS - current.last_seq),
        "strip": score_strip(table, current),
        "up_next": current.state.up_next,
    }


@dataclass(frozen=True)
class StripEntry:
    """One player's running total in the score strip, with their seat colour (the automated
    opponents have none) and their name as the strip shows it (`told_apart`)."""

    name: str
    colour: str | None
    total: int
    shown: str


def score_strip(table: Table, current: Current) -> list[StripEntry]:
    """Every player's running total, in seat order (then Dirk), for the strip at the foot of
    every table page."""
    colours, totals = table.colours, current.state.totals()
    shown = told_apart(list(totals))
    return [StripEntry(name, colours.get(name), total, shown[name])
            for name, total in totals.items()]


# The characters of a name the strip shows before it cuts the name short, at the least (two
# totals a line on a 320 px phone).
SHOWN = 9


def told_apart(names: list[str]) -> dict[str, str]:
    """Each name as the strip shows it: told apart from the others where the strip cuts names
    short (found at a table: "Maximilian-Alexander Böh" and "Maximilian K." both read
    "Maximilia…"). A name that shares its first SHOWN characters with another's is shown from
    where they part, after its first three ("Max…-Alexander Böh", "Max… K."); the others as
    they are."""
    def shared(name: str) -> int:
        return max((len(commonprefix([name.casefold(), other.casefold()]))
                    for other in names if other != name), default=0)
    told = {}
    for name in names:
        part = shared(name)
        told[name] = name[:3] + "\u2026" + name[part:] if SHOWN <= part < len(name) else name
    return told


def room_note(room: int) -> str | None:
    """Said on the table page once a table nears the most events it may hold."""
    if room > ROOM_WARNING:
        return None
    return ngettext("This table has room for %(num)d more entry (a table holds at most "
                    "%(most)s, so that it can be exported and imported again).",
                    "This table has room for %(num)d more entries (a table holds at most "
                    "%(most)s, so that it can be exported and imported again).",
                    room, most=MAX_EVENTS)


def answer_slots(table: Table) -> dict[str, str] | None:
    """What the page that answers a tap (`just_recorded`) puts in its slots (`pages.slot`):
    the strip's line with its button (Undo, or Redo after an undo), the line read out, and
    `main`'s class; None for a page that answers nothing. Drawn by `_answer.html`, as a page
    made afresh draws them."""
    recorded = just_recorded(table, table.current)
    if recorded is None:
        return None
    return {"strip": drawn("strip_last", recorded, None, table.current.last_seq, table),
            "said": drawn("read_out", recorded), "main": drawn("main_class", recorded)}


def drawn(macro: str, *values: Any) -> str:
    """A macro of `_answer.html` drawn with `values`."""
    return str(get_template_attribute("_answer.html", macro)(*values))


def just_recorded(table: Table, current: Current) -> dict[str, Any] | None:
    """The action this page answers, said in one line with the button that takes it back:
    "Cy bought a skyscraper - Undo" (after an undo: "Undone: ... - Redo, Undo"; after a redo
    with more to redo, Redo too: two Undos on the strip are taken back by two Redos there,
    found at a table). Nothing when the table moved on since, or the page was not loaded as an
    answer. `reloaded`: the answer is a whole page (without JavaScript), whose buttons take no
    tap in its first moments (`main.answered` in app.css)."""
    reloaded = "recorded" not in g  # without JavaScript: the page loaded after the action
    note = g.pop("recorded", None) or session.pop("recorded", None)
    if reloaded and note and note.get("table") == storage.mark_of(table.id):
        answer_page_made()  # whatever it shows: another phone's action too (`ghost_tap`)
        g.landing = note.get("at")  # where its address puts it (`pages.landed`)
    if (not note or note.get("table") != storage.mark_of(table.id)
            or note.get("seq") != current.last_seq):
        return None
    if note.get("kind") == UNDO and current.next:  # Redo beside Undo, which keeps its place
        undone = text(say_event(table, current.next, current.state))
        return {"line": StripLine(_("Undone: %(action)s", action=undone)), "button": "redo",
                "redo": True, "undo": current.last is not None, "reloaded": reloaded}
    if not current.last:
        return None
    line = last_line(current, strip_said(table, current,
                                         say_event(table, current.last, current.state)))
    if note.get("merged"):  # an outdated screen's action, recorded after another phone's
        # What the line says first (cut to two lines): another phone's, then which actions.
        meanwhile = _("another phone recorded before it: %(actions)s",
                      actions="; ".join(note["merged"]))
        line = line._replace(meanwhile=meanwhile)  # type: ignore[union-attr]
    return {"line": line, "button": "undo", "undo": True, "reloaded": reloaded,
            "redo": note.get("kind") == REDO and current.next is not None}


class StripLine(NamedTuple):
    """The last action as the score strip says it: its words, the rules' note when it says
    more than they do, what it gave (the points, the winner), and, for a tap on an outdated
    screen that went on the table after another phone's actions, after which (`meanwhile`).
    The strip may cut the words short, never what it gave or the `meanwhile` (app.css:
    `.strip-words`, `.strip-gave`, `.strip-meanwhile`): a purchase recorded on two phones is
    the table's to see and take out."""

    said: str
    note: str = ""
    gave: str = ""
    meanwhile: str = ""

    def __str__(self) -> str:
        """The whole line, as a screen reader hears it: "Scoring A — Ann +5 · Ben +3"."""
        return " — ".join(part for part in self if part)


def last_line(current: Current, said: str | None) -> StripLine | None:
    """The last action (`said`: in words) and what it gave, as the strip says them when the
    page is not that action's answer (a reload, another phone's page): in the answer's words
    (`consequence`), so that every phone at the table reads the same line."""
    if not current.last or said is None:
        return None
    return consequence(current.state, text(said), current.gained,
                       own_note=current.last.kind != CHANGE)


def consequence(state: TableState, said: str, gained: Gained,
                own_note: bool = True) -> StripLine:
    """The action just recorded in words, and what the rules made of it, said after it in the
    score strip: their note when it says more than the action's words (a district's scoring;
    `shown_together`: nothing is said twice), the points or money it gave or took ("Ann +13 ·
    Ben +6"), and the winner once it ended the game. After a change the table's note is the
    last replayed action's, not the change's (`own_note` False): it is not said."""
    note = getattr(state, "note", None) if own_note else None
    if isinstance(note, Account):  # it says the whole action (`shown_together`)
        said, note = text(note), None
    noted = text(note) if note else ""
    if noted.rstrip(".").startswith(said.rstrip(".")):  # the rules' sentence, with its period
        said, noted = noted or said, ""
    said, noted = shown_together(said, noted)
    noted = noted or ""
    gave = [" · ".join(f"{name} {signed(delta)}" for name, delta in gained if delta)]
    if state.finished:
        first = winners(state.ranking())
        if not all(name in " ".join([said, noted, *gave]) for name in first):
            gave.append(_("Winner: %(names)s", names=", ".join(first)))
    return StripLine(said, noted, " — ".join(filter(None, gave)))


def strip_said(table: Table, current: Current, said: str | None) -> str | None:
    """The last action as the score strip says it: a change as its actions now stand
    (`Game.say_changed`), any other as the history says it (`said`)."""
    if current.last is not None and current.last.kind == CHANGE:
        return table.game.say_changed(current.last.payload)
    return said


def say_event(table: Table, event: Event, state: TableState | None = None) -> str:
    """An event in words; with the table's state, what its payload only numbers is named."""
    if event.kind in ("undo", "redo"):
        return _("Undo") if event.kind == "undo" else _("Redo")
    return table.game.say(event.kind, event.payload, state)
