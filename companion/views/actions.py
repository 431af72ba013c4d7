"""The one action view: every tap that changes a table, at `/<slug>/<table_id>/<action>`.

A game declares its actions (`declarations.GameViews`); this view, registered once, serves them
all. The path of a tap: load the table (its current state, once: `tables.load_table`), make the
action's form and validate it, build its payload, record it once (`replays.record`: the rules
apply it and the event is stored with the table after it, in one write transaction), answer
with the table page. A refusal is only ever a form error or a `RuleError`, said in the players'
language beside the field or the control at fault; nothing is recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, abort, url_for
from flask_babel import gettext as _
from jinja2 import pass_context
from werkzeug.wrappers import Response

from .. import replays, storage
from ..app import get_db
from ..i18n import text
from ..rules import CHANGE, GAMES, RuleError
from ..rules.log import REDO, UNDO, Event
from . import game_views
from .answers import (
    fold_in,
    form_anchor,
    form_fold,
    gone,
    reason,
    recorded,
    refused,
    refused_here,
    stale_message,
)
from .change import (
    ChangeForm,
    MoveForm,
    again_or,
    change_payload,
    change_preview,
    move_choices,
    move_places,
    move_preview,
)
from .declarations import SHARED, Action, Page
from .forms import ActionForm, FieldError, field_at_fault, form_error
from .tables import (
    Table,
    being_changed,
    changed_fold_out,
    fold_out_href,
    history_at,
    load_table,
    now_showing,
    remember_changing,
    say_event,
)
from .taps import ghost_tap, submitted_digest

bp = Blueprint("actions", __name__)
bp.app_url_defaults(remember_changing)
bp.add_app_template_global(form_anchor)
bp.add_app_template_global(fold_in)
bp.add_app_template_global(form_fold)
bp.add_app_template_global(refused_here)
bp.add_app_template_global(fold_out_href)
bp.add_app_template_global(changed_fold_out)
bp.add_app_template_global(being_changed)
bp.add_app_template_global(move_places)
bp.add_app_template_global(move_choices)
bp.add_app_template_global(history_at)


@bp.app_template_global()
@pass_context
def act_url(context: Any, action: str, table: Table | None = None) -> str:
    """Where a form of the table page sends an action: `act_url('buy')` (`GameViews.actions`,
    or undo and redo), at the page's table (or, in a macro, the `table` it is given)."""
    table = table or context["table"]
    return url_for("actions.act", slug=table.game.slug, table_id=table.id, action=action)


@bp.post(f"/<any({', '.join(GAMES)}):slug>/<table_id>/<path:action>")
def act(slug: str, table_id: str, action: str) -> Any:
    """Any action of any game's table, by its name in the game's `GameViews`."""
    table = load_table(slug, table_id)
    views = game_views(slug)
    declared = views.actions.get(action) or SHARED.get(action) or abort(404)
    return take(table, declared, views.page)


def take(table: Table, action: Action, page: Page,
         on_recorded: Callable[[Event], None] | None = None) -> Any:
    """One action from its submitted form: validate it (400 and why, if not), build its
    payload (a RuleError or FieldError there is the players' input refused: 422; any other
    error is a bug, answered as one), then `perform` it. A refusal shows `page` again with why,
    with the action's form as typed and its fold-out open."""
    form = action.form_for(table)
    kept = action.refused_page(page, form, table)
    if not form.validate_on_submit():
        if field_at_fault(form) and screen_behind(form, table):  # what it lacks may be new
            return outdated(table, form.seq.data, kept)
        return refused(table, form_error(form), 400, kept, field=field_at_fault(form))
    try:
        kind, payload = action.kind_for(form, table), action.payload(form, table)
        if table.changing is not None:  # a past action entered again: first, what it does
            if kind in (UNDO, REDO):  # their buttons are off there; only a tampered form
                raise RuleError(_("Undo and Redo wait while a past action is being changed: "
                                  "confirm the change or cancel it first."))
            return change_preview(table, (kind, payload))
    except (FieldError, RuleError) as error:
        if screen_behind(form, table):  # what it refuses may be what changed
            return outdated(table, form.seq.data, kept)
        return rule_refused(table, form, error, kept)
    return perform(table, form, kind, payload, kept, on_recorded)


def rule_refused(table: Table, form: ActionForm, error: RuleError, page: Page) -> Any:
    """Input the rules refuse: said beside the field at fault (a FieldError's, or the form's
    field named by the payload key the rules name, `RuleError.key`), else as the action's."""
    named = form.PAYLOAD_FIELDS.get(error.key, error.key) if error.key else None
    field = error.field if isinstance(error, FieldError) else \
        form._fields.get(named) if named else None
    if field is None:
        return refused(table, reason(error), 422, page)
    field.errors = [*field.errors, text(reason(error))]
    # The rules' words are a sentence of their own: said beside the field, without its label
    # before them (it read "Cards flipped, in order (e.g. 4 6 5 4): No value has repeated...");
    # a FieldError's follow its label ("Where the card came from: choose a deck ...").
    said = form_error(form) if isinstance(error, FieldError) else reason(error)
    return refused(table, said, 422, page, field=field.name)


def screen_behind(form: ActionForm, table: Table) -> bool:
    """The form comes from a screen the table has moved on from (its seq, a valid one, is not
    the table's last): a field it lacks or an input it holds may be about the table as it
    was, so it is answered with what changed (`outdated`), not as a field to fill in."""
    return not form.seq.errors and form.seq.data is not None and \
        form.seq.data != table.current.last_seq


def outdated(table: Table, seq: int, page: Page) -> Any:
    """A tap from a screen the table has moved on from, whose input the table as it stands
    refuses: said as what changed on the other phone (never as a field or an offer this screen
    did not show), with the page as it stands now."""
    since = storage.events_since(get_db(), table.id, seq)
    stale = storage.StaleError(since, table.current.last_seq - seq)
    return refused(now_showing(table, None), stale_message(table, stale, "", {}), 409, page)


def perform(
    table: Table, form: ActionForm, kind: str, payload: Mapping[str, Any], page: Page,
    on_recorded: Callable[[Event], None] | None = None,
) -> Any:
    """Record one action, once: if it is legal and its screen was current; otherwise say why
    on `page`. The answer to a recorded action is the game's table page.

    A tap is one action. The same form sent again (a double submit, a retry after a dropped
    connection, back and resubmit) carries the same one-time key and gets the first answer,
    never a second event. Without JavaScript the page reloads after each action, so the second
    tap of a double tap may land on the new page: a form from the page this phone's last action
    loaded, sent less than GHOST_TAP_SECONDS after that action, is that ghost tap (`ghost_tap`),
    answered 204 (the page stays, nothing is recorded). With JavaScript the page is updated in
    place and app.js ignores the second tap itself.

    Answers: the table page (303 to it, or in place), 409 for an outdated screen, 422 for what
    the rules refuse.
    """
    if ghost_tap(form):
        return Response(status=204)
    once = storage.Once(form.key.data, submitted_digest())
    merged: list[Event] = []  # what another phone recorded meanwhile, if this merges with it
    try:
        event, after = replays.record(get_db(), table.id, table.game, table.names,
                                      form.seq.data, kind, payload, once, merged)
    except storage.GoneError:
        return gone()
    except storage.StaleError as stale:  # said and shown as the table stands now
        table = now_showing(table, None)
        return refused(table, stale_message(table, stale, kind, payload), 409, page)
    except RuleError as error:
        return rule_refused(table, form, error, page)
    if on_recorded is not None:
        on_recorded(event)
    return recorded(now_showing(table, after), event,
                    [text(say_event(table, e)) for e in merged])


@bp.post(f"/<any({', '.join(GAMES)}):slug>/<table_id>/change/out")
def take_out(slug: str, table_id: str) -> Any:
    """The action being changed taken out: what that does, before it is recorded."""
    return preview_tap(slug, table_id, ActionForm, lambda table, _form: change_preview(table, None))


@bp.post(f"/<any({', '.join(GAMES)}):slug>/<table_id>/change/move")
def move(slug: str, table_id: str) -> Any:
    """The action being changed moved, recorded at the wrong moment: what that does, before it
    is recorded."""
    return preview_tap(slug, table_id, MoveForm,
                       lambda table, form: move_preview(table, form.to.data, form.moved.data))


def preview_tap(slug: str, table_id: str, form_class: type[ActionForm],
                preview: Callable[[Table, Any], Any]) -> Any:
    """A tap of change mode that `preview` works out from its form into the change's preview,
    nothing recorded; refused in words where the form or the rules refuse it (not found outside
    change mode)."""
    table = load_table(slug, table_id)
    page = game_views(slug).page
    form = form_class()
    if table.changing is None:
        abort(404)
    if not form.validate_on_submit():
        return refused(table, form_error(form), 400, page)
    try:
        return preview(table, form)
    except RuleError as error:
        return refused(table, reason(error), 422, page)


@bp.post(f"/<any({', '.join(GAMES)}):slug>/<table_id>/change")
def change(slug: str, table_id: str) -> Any:
    """Record a change the players saw in its preview: refereed again as it is recorded."""
    table = load_table(slug, table_id)
    return take(table, Action(CHANGE, ChangeForm, change_payload),
                again_or(game_views(slug).page))
