"""The platform under every game's pages: loading a table, forms that act on it, one write path."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import quote

from flask import (
    abort,
    current_app,
    g,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import IntegerField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Regexp
from wtforms.widgets import HiddenInput

from .. import get_db, replays, storage
from ..i18n import lazy_gettext as _l
from ..i18n import text
from ..replays import Current
from ..rules import Game, RuleError, TableState, find_game
from ..rules.common import MAX_REASON
from ..rules.log import MAX_EVENTS, UNDO, Event

MAX_REMEMBERED_TABLES = 40  # of each: opened, started here (the session cookie stays < 4 KB)
ALL_CLIENTS = 10  # the shared rate limit is this many clients' worth (`too_often`)
ROOM_WARNING = 100  # a table page says how many entries are left once this few are
SEAT_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black", "white")
COLOUR_NAMES = {
    "red": _l("red"), "blue": _l("blue"), "green": _l("green"), "yellow": _l("yellow"),
    "purple": _l("purple"), "orange": _l("orange"), "black": _l("black"), "white": _l("white"),
}


@dataclass(frozen=True)
class Table:
    """A game being played: its link id, game, players in seat order and their colours."""

    id: str
    game: Game
    players: list[dict[str, str]]
    created_at: str
    status: str
    view_token: str

    @property
    def names(self) -> list[str]:
        return [p["name"] for p in self.players]

    @property
    def colours(self) -> dict[str, str]:
        return {p["name"]: p["colour"] for p in self.players}

    def current(self) -> Current:
        """The table as it stands (worked out once: `companion.replays`)."""
        return replays.current(get_db(), self.id, self.game, self.names)


def load_table(slug: str, table_id: str) -> Table:
    """The table at this link, or 404 (also when the link names another game); read once per
    request (a route that looks at the table before `act` does not read it again)."""
    loaded: dict[str, Table] = g.setdefault("tables", {})
    if table_id not in loaded:
        row = storage.get_table(get_db(), table_id)
        if row is None or row["game"] != slug:
            abort(404)
        loaded[table_id] = table_from_row(row)
    if loaded[table_id].game.slug != slug:
        abort(404)
    return loaded[table_id]


def table_from_row(row: Mapping[str, Any]) -> Table:
    return Table(row["id"], find_game(row["game"]), row["players"], row["created_at"],
                 row["status"], row["view_token"])


# A fold-out's name in `?open=<name>` (`_macros.html`, `fold_out`).
FOLD_OUT = re.compile(r"[a-z][a-z0-9_-]{0,31}")


def opened_fold_out(kept: str | None = None) -> str | None:
    """The fold-out shown open: the one whose action was just refused (`kept`, with what was
    typed), else the one the players opened (`?open=<name>`). Only its forms are made."""
    name = kept or request.args.get("open", "")
    return name if FOLD_OUT.fullmatch(name) else None


# An action form's one-time key: when its page was made (milliseconds, hex) and 96 random bits.
ACTION_KEY = re.compile(r"([0-9a-f]{1,12})\.[A-Za-z0-9_-]{16}")
# The header app.js sends with an action it answers in place (a CSRF-safe custom header).
SCRIPT_HEADER = "X-Companion"


def new_action_key() -> str:
    """A fresh key for one rendered action form (see `perform`)."""
    return f"{time.time_ns() // 1_000_000:x}.{secrets.token_urlsafe(12)}"


class ActionForm(FlaskForm):
    """Every form that acts on a table names the last event its screen showed, and carries the
    one-time key its page was rendered with."""

    # Labelled, though hidden: a field without a label asks WTForms' own catalogue for one,
    # which Flask-WTF loads from disk once per request.
    seq = IntegerField("Seq", widget=HiddenInput(),
                       validators=[InputRequired(), NumberRange(min=0)])
    key = StringField("Key", widget=HiddenInput(),
                      validators=[InputRequired(), Regexp(f"^{ACTION_KEY.pattern}$")])


def reason_field() -> StringField:
    """What a correction is for, in the players' words: required, the history shows it."""
    return StringField(_l("What for"), filters=[lambda text: text.strip() if text else text],
                       validators=[DataRequired(_l("say what it is for: the history shows it "
                                                   "with the amounts.")),
                                   Length(max=MAX_REASON)])


def form_error(form: FlaskForm) -> str:
    """The first validation error of a form, in words, naming the field."""
    for field in form:
        if field.errors:
            error = field.errors[0] if isinstance(field.errors, list) else field.errors
            if field.name in ("seq", "key"):
                return _("This form is incomplete. Reload the page and try again.")
            if field.name == "csrf_token":
                return _("This form has expired. Reload the page and try again.")
            return f"{field.label.text}: {error}"
    return _("This form is incomplete. Reload the page and try again.")


Render = Callable[..., Any]
# Each game's table page, by slug: render(table, error=None, status=200, **forms). The one
# table pipeline (GET in views/main.py, actions in `perform`, undo and redo) draws every page
# with it.
PAGES: dict[str, Render] = {}


def table_page(slug: str) -> Callable[[Render], Render]:
    """Register a game's table page with the pipeline: `@table_page("yard")` on its render."""
    def register(render: Render) -> Render:
        PAGES[slug] = render
        return render
    return register


def perform(
    table: Table, form: ActionForm, kind: str, payload: Mapping[str, Any], render: Render,
    on_recorded: Callable[[Event], None] | None = None,
) -> Any:
    """Record one action, once: if it is legal and its screen was current; otherwise say why.

    A tap is one action. The same form sent again (a double submit, a retry after a dropped
    connection, back and resubmit) carries the same one-time key and gets the first answer,
    never a second event. Without JavaScript the page reloads after each action, so the second
    tap of a double tap lands on the new page: a form sent less than GHOST_TAP_SECONDS after its
    page was made is that ghost tap, answered 204 (the page stays, nothing is recorded). With
    JavaScript the page is updated in place and app.js ignores the second tap itself.

    Answers: the table page (303 to it, or in place), 409 for an outdated screen, 422 for what
    the rules refuse.
    """
    if ghost_tap(form):
        return Response(status=204)
    once = storage.Once(form.key.data, submitted_digest())
    try:
        event = replays.record(get_db(), table.id, table.game, table.names, form.seq.data, kind,
                               payload, once)
    except storage.GoneError:
        return gone()
    except storage.StaleError as stale:
        return refused(table, stale_message(table, stale, kind, payload), 409, render)
    except RuleError as error:
        return refused(table, reason(error), 422, render)
    if on_recorded is not None:
        on_recorded(event)
    return recorded(table, event)


def ghost_tap(form: ActionForm) -> bool:
    """Sent sooner after its page was made than anyone can read a page and tap (no JavaScript):
    the second tap of a double tap, landing on the page the first tap loaded."""
    if sent_by_script():
        return False
    made = int(form.key.data.partition(".")[0], 16) / 1000  # validated: see ACTION_KEY
    return 0 <= time.time() - made < current_app.config["GHOST_TAP_SECONDS"]


def sent_by_script() -> bool:
    """app.js sent this action and will update the page in place with the answer."""
    return request.headers.get(SCRIPT_HEADER) == "fetch"


def submitted_digest() -> str:
    """What was submitted with the key (every field but the CSRF token, in any order): the same
    key with other fields is another button of the same form, not a retry."""
    fields = sorted((k, v) for k, values in request.form.lists() for v in values
                    if k != "csrf_token")
    return hashlib.sha256(json.dumps(fields).encode()).hexdigest()


def recorded(table: Table, event: Event) -> Any:
    """The answer to a recorded action: the table page, which says in one line what was
    recorded (with Undo). In place for app.js; otherwise post/redirect/get."""
    note = {"table": table.id, "seq": event.seq, "kind": event.kind}
    if sent_by_script():
        g.recorded = note
        page, status = PAGES[table.game.slug](table)
        response = make_response(page, status)
        response.headers["X-Companion-Page"] = table_url(table)
        return response
    session["recorded"] = note
    return redirect_to_table(table)


def refused(table: Table, message: Any, status: int, render: Render,
            field: str | None = None) -> Any:
    """A refusal: the page with why (and beside the `field` at fault, if the form is drawn
    again); for app.js the words to show beside that field or else the tapped control, and,
    when the screen was outdated (409), the page as it is now."""
    if not sent_by_script():
        return render(table, error=message, status=status)
    answer = {"refused": text(message)}
    if field:
        answer["field"] = field
    if status == 409:
        answer["page"] = render(table)[0]
    return jsonify(answer), status


def gone() -> Any:
    """The table's links were renewed while this action was on its way: its page is gone too."""
    message = _("This table has new links now, so nothing was recorded. Open it again from "
                "the new link.")
    if sent_by_script():
        return jsonify(refused=message), 410
    return render_template("error.html", message=message), 410


def act(slug: str, table_id: str, form: ActionForm, kind: str,
        payload_of: Callable[[Any, Table], Any], page: Render | None = None,
        **kept: Any) -> Any:
    """One action from a submitted form, at the table of game `slug` at `table_id`: validate it
    (400 and why, if not), build its payload (a RuleError or FieldError there is the players'
    input refused: 422; any other error is a bug, answered as one), then `perform` it. A refusal
    shows the game's table page (or `page`) again with why, and with `kept`: the form as typed
    (`<name>_form=form`) and the fold-out it came from open (`opened=...`; a function of the
    table, if it depends on the seats)."""
    table = load_table(slug, table_id)
    if page is None:
        kept = {key: value(table) if key == "opened" and callable(value) else value
                for key, value in kept.items()}
        page = partial(PAGES[slug], **kept)
    if not form.validate_on_submit():
        return refuse(table, form, page)
    try:
        payload = payload_of(form, table)
    except FieldError as error:
        error.field.errors = [*error.field.errors, reason(error)]
        return refused(table, form_error(form), 422, page, field=error.field.name)
    except RuleError as error:
        return refused(table, reason(error), 422, page)
    return perform(table, form, kind, payload, page)


class FieldError(RuleError):
    """The players' input refused by a form's payload, about one field: said beside it."""

    def __init__(self, field: Any, message: Any):
        super().__init__(message)
        self.field = field


def refuse(table: Table, form: FlaskForm, render: Render) -> Any:
    """A form that did not validate (missing, out of range or tampered values): 400."""
    return refused(table, form_error(form), 400, render, field=field_at_fault(form))


def field_at_fault(form: FlaskForm) -> str | None:
    """The name of the field `form_error` speaks of, if the players filled it in (not a
    hidden one)."""
    first = next((field.name for field in form if field.errors), None)
    return None if first in ("seq", "key", "csrf_token") else first


def content_disposition(kind: str, filename: str) -> str:
    """The Content-Disposition header of a download ("attachment") or a PDF ("inline"), for any
    file name (RFC 6266): a name of plain ASCII as it is, any other with an ASCII stand-in and
    the name itself in UTF-8 (RFC 5987). A header of other characters cannot be sent at all."""
    plain = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-._") else "_"
                    for ch in filename)
    if plain == filename:
        return f'{kind}; filename="{filename}"'
    return f"{kind}; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"


def table_url(table: Table) -> str:
    return url_for("main.table", slug=table.game.slug, table_id=table.id)


def redirect_to_table(table: Table) -> Response:
    return redirect(table_url(table), code=303)


def stale_message(table: Table, stale: storage.StaleError, kind: str,
                  payload: Mapping[str, Any]) -> str:
    """Tell a repeated tap from a screen that another action made outdated."""
    since = stale.since
    if stale.missed == 1 and since[0].kind == kind and dict(since[0].payload) == dict(payload):
        return _("That was already recorded, so it was not added again.")
    if not since:
        return _("This screen is ahead of the table. Reload the page; nothing was changed.")
    happened = "; ".join(text(describe_event(table, e)) for e in since[-3:])
    return _(
        "The table changed since this screen was loaded (%(happened)s). "
        "Nothing was changed: check the table and try again.",
        happened=happened,
    )


def log_context(table: Table, game: Current) -> dict[str, Any]:
    """What every table page shows of the log: the last seq (for the forms), what undo and
    redo would act on, the action this page is the answer to, the room left, and whose turn it
    is and what comes next (the rules' `up_next`)."""
    return {
        "seq": game.last_seq,
        "undo_label": describe_event(table, game.last, game.state) if game.last else None,
        "redo_label": describe_event(table, game.next, game.state) if game.next else None,
        "recorded": just_recorded(table, game),
        "room_note": room_note(MAX_EVENTS - game.last_seq),
        "strip": score_strip(table, game),
        "up_next": game.state.up_next,
    }


@dataclass(frozen=True)
class StripEntry:
    """One player's running total in the score strip, with their seat colour (the automated
    opponents have none)."""

    name: str
    colour: str | None
    total: int


def score_strip(table: Table, game: Current) -> list[StripEntry]:
    """Every player's running total, in seat order (then Dirk), for the strip at the foot of
    every table page."""
    colours = table.colours
    return [StripEntry(name, colours.get(name), total)
            for name, total in game.state.totals().items()]


def room_note(room: int) -> str | None:
    """Said on the table page once a table nears the most events it may hold."""
    if room > ROOM_WARNING:
        return None
    return ngettext("This table has room for %(num)d more entry (a table holds at most "
                    "%(most)s, so that it can be exported and imported again).",
                    "This table has room for %(num)d more entries (a table holds at most "
                    "%(most)s, so that it can be exported and imported again).",
                    room, most=MAX_EVENTS)


def just_recorded(table: Table, game: Current) -> dict[str, Any] | None:
    """The action this page answers, said in one line with the button that takes it back:
    "Cy bought a skyscraper - Undo" (after an undo: "Undone: ... - Redo"). Nothing when the
    table moved on since, or the page was not loaded as an answer."""
    note = g.pop("recorded", None) or session.pop("recorded", None)
    if not note or note.get("table") != table.id or note.get("seq") != game.last_seq:
        return None
    if note.get("kind") == UNDO and game.next:
        undone = text(describe_event(table, game.next, game.state))
        return {"text": _("Undone: %(action)s", action=undone), "button": "redo"}
    return ({"text": describe_event(table, game.last, game.state), "button": "undo"}
            if game.last else None)


def describe_event(table: Table, event: Event, state: TableState | None = None) -> str:
    """An event in words; with the table's state, what its payload only numbers is named."""
    if event.kind in ("undo", "redo"):
        return _("Undo") if event.kind == "undo" else _("Redo")
    return table.game.say(event.kind, event.payload, state)


def reason(error: Exception) -> Any:
    """What the players are told when the rules refuse: the RuleError's `Msg` (translated
    where it is shown), or the error's text."""
    return error.args[0] if error.args else str(error)


def too_often(action: str) -> bool:
    """Rate limits on the work that costs most (`RATE_LIMITS` in the config: action -> (times,
    seconds)): per client address, and ALL_CLIENTS times as much for every client together, so
    that many addresses cannot add up to unbounded work either."""
    times, seconds = current_app.config["RATE_LIMITS"][action]
    db = get_db()
    return (storage.rate_limited(db, request.remote_addr or "?", action, times, seconds)
            or storage.rate_limited(db, "*", action, times * ALL_CLIENTS, seconds))


def remember(table_id: str, started_here: bool = False) -> None:
    """This browser's tables, most recently opened first, kept in its session cookie; the
    tables it started are its own (it may revoke their links)."""
    session.permanent = True
    tables = [table_id, *[t for t in session.get("tables", []) if t != table_id]]
    session["tables"] = tables[:MAX_REMEMBERED_TABLES]
    if started_here:
        session["owned"] = [table_id, *session.get("owned", [])][:MAX_REMEMBERED_TABLES]
