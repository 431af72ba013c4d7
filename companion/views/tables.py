"""The platform under every game's pages: loading a table, forms that act on it, one write path."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import abort, current_app, redirect, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import IntegerField
from wtforms.validators import InputRequired, NumberRange
from wtforms.widgets import HiddenInput

from .. import get_db, storage
from ..i18n import text
from ..rules import Game, Replay, RuleError, find_game, replay
from ..rules.log import Event

MAX_REMEMBERED_TABLES = 100
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

    def replay(self, events: list[Event] | None = None) -> Replay:
        if events is None:
            events = storage.events(get_db(), self.id)
        return replay(self.game, self.names, events)


def load_table(slug: str, table_id: str) -> Table:
    """The table at this link, or 404 (also when the link names another game)."""
    row = storage.get_table(get_db(), table_id)
    if row is None or row["game"] != slug:
        abort(404)
    return table_from_row(row)


def table_from_row(row: Mapping[str, Any]) -> Table:
    return Table(row["id"], find_game(row["game"]), row["players"], row["created_at"],
                 row["status"], row["view_token"])


class ActionForm(FlaskForm):
    """Every form that acts on a table names the last event its screen showed."""

    seq = IntegerField(widget=HiddenInput(), validators=[InputRequired(), NumberRange(min=0)])


def form_error(form: FlaskForm) -> str:
    """The first validation error of a form, in words, naming the field."""
    for field in form:
        if field.errors:
            error = field.errors[0] if isinstance(field.errors, list) else field.errors
            if field.name == "seq":
                return _("This form is incomplete. Reload the page and try again.")
            if field.name == "csrf_token":
                return _("This form has expired. Reload the page and try again.")
            return f"{field.label.text}: {error}"
    return _("This form is incomplete. Reload the page and try again.")


Render = Callable[..., Any]
# Each game's table page, by slug: render(table, error=None, status=200, **forms).
PAGES: dict[str, Render] = {}


def perform(
    table: Table, form: ActionForm, kind: str, payload: Mapping[str, Any], render: Render
) -> Any:
    """Append one action if it is legal and the screen was current; otherwise say why.

    Returns a redirect to the table (post/redirect/get), or the page again with the reason:
    409 for an outdated or repeated submission, 422 for what the rules refuse.
    """
    def status_after(log: list[Event]) -> str:
        return "finished" if table.replay(log).state.finished else "open"

    try:
        storage.append_event(get_db(), table.id, form.seq.data, kind, payload, status_after)
    except storage.StaleError as stale:
        return render(table, error=stale_message(table, stale.since, kind, payload), status=409)
    except RuleError as error:
        return render(table, error=reason(error), status=422)
    return redirect_to_table(table)


def act(
    table: Table, form: ActionForm, kind: str, payload_of: Callable[[Any, Table], Any],
    render: Render,
) -> Any:
    """One action from a submitted form: validate it (400 and why, if not), build its payload
    (a ValueError there is the players' input refused: 422), then `perform` it."""
    if not form.validate_on_submit():
        return refuse(table, form, render)
    try:
        payload = payload_of(form, table)
    except ValueError as error:
        return render(table, error=reason(error), status=422)
    return perform(table, form, kind, payload, render)


def refuse(table: Table, form: FlaskForm, render: Render) -> Any:
    """A form that did not validate (missing, out of range or tampered values): 400."""
    return render(table, error=form_error(form), status=400)


def redirect_to_table(table: Table) -> Response:
    return redirect(url_for(f"{table.game.slug}.table", table_id=table.id), code=303)


def stale_message(table: Table, since: list[Event], kind: str, payload: Mapping[str, Any]) -> str:
    """Tell a repeated tap from a screen that another action made outdated."""
    if len(since) == 1 and since[0].kind == kind and dict(since[0].payload) == dict(payload):
        return _("That was already recorded, so it was not added again.")
    if not since:
        return _("This screen is ahead of the table. Reload the page; nothing was changed.")
    happened = "; ".join(text(describe_event(table, e)) for e in since[-3:])
    return _(
        "The table changed since this screen was loaded (%(happened)s). "
        "Nothing was changed: check the table and try again.",
        happened=happened,
    )


def log_context(table: Table, game: Replay) -> dict[str, Any]:
    """What every table page shows of the log: the last seq (for the forms), and what undo and
    redo would act on."""
    done, undone = game.log.done, game.log.undone
    return {
        "seq": game.last_seq,
        "undo_label": describe_event(table, done[-1]) if done else None,
        "redo_label": describe_event(table, undone[0]) if undone else None,
    }


def describe_event(table: Table, event: Event) -> str:
    if event.kind in ("undo", "redo"):
        return _("Undo") if event.kind == "undo" else _("Redo")
    return table.game.describe(event.kind, event.payload)


def reason(error: Exception) -> Any:
    """What the players are told when the rules refuse: the RuleError's `Msg` (translated
    where it is shown), or the error's text."""
    return error.args[0] if error.args else str(error)


def too_often(action: str) -> bool:
    """Rate limiting per client for the actions that create tables (`RATE_LIMITS` in the
    config: action -> (times, seconds))."""
    times, seconds = current_app.config["RATE_LIMITS"][action]
    return storage.rate_limited(get_db(), request.remote_addr or "?", action, times, seconds)


def remember(table_id: str, started_here: bool = False) -> None:
    """This browser's tables, most recently opened first, kept in its session cookie; the
    tables it started are its own (it may revoke their links)."""
    session.permanent = True
    tables = [table_id, *[t for t in session.get("tables", []) if t != table_id]]
    session["tables"] = tables[:MAX_REMEMBERED_TABLES]
    if started_here:
        session["owned"] = [table_id, *session.get("owned", [])][:MAX_REMEMBERED_TABLES]
