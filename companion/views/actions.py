"""Every tap that changes a table, one way: a game declares its actions (`GameViews`), and one
view, registered once, serves them all at `/<slug>/<table_id>/<action>`.

The path of a tap: load the table (its current state, once: `tables.load_table`), make the
action's form and validate it, build its payload, record it once (`replays.record`: the rules
apply it and the event is stored with the table after it, in one write transaction), answer
with the table page. A refusal is only ever a form error or a `RuleError`, said in the players'
language beside the field or the control at fault; nothing is recorded.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import (
    Blueprint,
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
from itsdangerous import BadData, SignatureExpired, URLSafeTimedSerializer
from jinja2 import pass_context
from werkzeug.wrappers import Response
from wtforms import IntegerField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Regexp
from wtforms.widgets import HiddenInput

from .. import replays, storage
from ..app import get_db
from ..i18n import lazy_gettext as _l
from ..i18n import text
from ..rules import CHANGE, GAMES, Correction, RuleError
from ..rules.common import MAX_REASON, clean_text
from ..rules.log import MAX_EVENTS, REDO, UNDO, Event
from . import game_views
from .tables import (
    Table,
    describe_event,
    keep_changing,
    keep_pending,
    load_table,
    now_showing,
    table_url,
)

bp = Blueprint("actions", __name__)
bp.app_url_defaults(keep_changing)

# An action form's one-time key: when its page was made (milliseconds, hex) and 96 random bits.
ACTION_KEY = re.compile(r"([0-9a-f]{1,12})\.[A-Za-z0-9_-]{16}")
# The header app.js sends with an action it answers in place (a CSRF-safe custom header).
SCRIPT_HEADER = "X-Companion"
# This phone's last action answered without JavaScript: its seq and when (`ghost_tap`).
ANSWERED = "answered"
# An action form's id on its page, sent with it (`form_anchor`): "at-buy", "at-buy-2", ...
ANCHOR = re.compile(r"at-[a-z0-9_]{1,32}(-[0-9]{1,3})?")
# How long a change's preview may be confirmed: a table that talked it over longer previews it
# again (what it does may have been worked out on a table since changed, or leaked).
CHANGE_SECONDS = 2 * 60 * 60


# Forms ----------------------------------------------------------------------------------------


def new_action_key() -> str:
    """A fresh key for one rendered action form (see `perform`)."""
    return f"{time.time_ns() // 1_000_000:x}.{secrets.token_urlsafe(12)}"


class ActionForm(FlaskForm):
    """Every form that acts on a table names the last event its screen showed, and carries the
    one-time key its page was rendered with. `PAYLOAD_FIELDS`: the form's field for a payload
    key of another name (where the rules' refusal of that key is said, `rule_refused`)."""

    PAYLOAD_FIELDS: dict[str, str] = {}

    # Labelled, though hidden: a field without a label asks WTForms' own catalogue for one,
    # which Flask-WTF loads from disk once per request. No table holds more than MAX_EVENTS
    # events, so no screen shows a later one (and a larger number would not fit SQLite).
    seq = IntegerField("Seq", widget=HiddenInput(),
                       validators=[InputRequired(), NumberRange(min=0, max=MAX_EVENTS)])
    key = StringField("Key", widget=HiddenInput(),
                      validators=[InputRequired(), Regexp(f"^{ACTION_KEY.pattern}\\Z")])


def cleaned(text: str | None) -> str | None:
    """Free text as the players typed it, cleaned as names are (`clean_text`: no control,
    invisible or direction-changing characters, no surrounding or doubled spaces)."""
    return clean_text(text) if text else text


def reason_field(id: str | None = None) -> StringField:
    """What a correction is for, in the players' words: required, the history shows it. `id`
    sets its element's id apart where two such forms share a page (else it is "reason")."""
    return StringField(_l("What for"), filters=[cleaned], id=id,
                       validators=[DataRequired(_l("say what it is for (the history shows it "
                                                   "with the amounts).")),
                                   Length(max=MAX_REASON)])


class FieldError(RuleError):
    """The players' input refused by a form's payload, about one field: said beside it."""

    def __init__(self, field: Any, message: Any):
        super().__init__(message)
        self.field = field


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


def field_at_fault(form: FlaskForm) -> str | None:
    """The name of the field `form_error` speaks of, if the players filled it in (not a
    hidden one)."""
    first = next((field.name for field in form if field.errors), None)
    return None if first in ("seq", "key", "csrf_token") else first


# What a game declares -------------------------------------------------------------------------

# A game's table page: page(table, error=None, status=200, **forms) -> (html, status); `forms`
# are forms to draw as typed (a refused one) and `opened`, the fold-out to show open.
Page = Callable[..., Any]
Payload = Callable[[Any, Table], Mapping[str, Any]]


@dataclass(frozen=True)
class Action:
    """One action a game's forms send: the event `kind` it records (or a function of the form
    and the table that says which), the form it comes with (a form class, or a function of the
    table that makes it), its `payload` (raising `FieldError` or `RuleError` for input the
    players must change), and, on a refusal, the name the page draws its form under as typed
    (`keep`) and the fold-out to show open (`opened`: a name, or a function of the form and the
    table)."""

    kind: str | Callable[[Any, Table], str]
    form: type[ActionForm] | Callable[[Table], ActionForm]
    payload: Payload = lambda form, table: {}
    keep: str | None = None
    opened: str | Callable[[Any, Table], str | None] | None = None

    def form_for(self, table: Table) -> Any:
        return self.form() if isinstance(self.form, type) else self.form(table)

    def kind_for(self, form: Any, table: Table) -> str:
        return self.kind if isinstance(self.kind, str) else self.kind(form, table)

    def page_kept(self, page: Page, form: Any, table: Table) -> Page:
        """The page a refusal of this action shows: its form as typed, its fold-out open."""
        kept: dict[str, Any] = {self.keep: form} if self.keep else {}
        opened = self.opened(form, table) if callable(self.opened) else self.opened
        return partial(page, **kept, **({"opened": opened} if opened else {}))


def nothing_of_the_phone(table: Table) -> Hashable:
    return ()


@dataclass(frozen=True)
class GameViews:
    """A game's web layer: its table page, its actions by the last part of their URL, a
    blueprint for any page of its own (the 5th Avenue board, the street card builder), and
    what its table page shows of the phone beyond the table (`phone`: its saved board, the
    cards it saw at its earlier tables), under which the page is kept for phones alike
    (`pages.table_page`)."""

    page: Page
    actions: Mapping[str, Action]
    blueprint: Blueprint | None = None
    phone: Callable[[Table], Hashable] = nothing_of_the_phone


# Undo and redo: every game's, carrying nothing.
SHARED = {"undo": Action(UNDO, ActionForm), "redo": Action(REDO, ActionForm)}


@bp.app_template_global()
@pass_context
def act_url(context: Any, action: str, table: Table | None = None) -> str:
    """Where a form of the table page sends an action: `act_url('buy')` (`GameViews.actions`,
    or undo and redo), at the page's table (or, in a macro, the `table` it is given)."""
    table = table or context["table"]
    return url_for("actions.act", slug=table.game.slug, table_id=table.id, action=action)


@bp.app_template_global()
def form_anchor(url: str) -> str:
    """An id for the action form being drawn (`_macros.html`, `action`): its action's name, and
    which of that action's forms on the page it is ("at-buy-2"). The form sends it, and without
    JavaScript the answer's page comes back scrolled to it (`recorded`): the same form, where
    the tapped control was, not the top of the page."""
    name = re.sub(r"[^a-z0-9_]", "_", url.rstrip("/").rsplit("/", 1)[-1].lower())[:32] or "act"
    drawn = g.setdefault("form_anchors", {})
    drawn[name] = drawn.get(name, 0) + 1
    return f"at-{name}" if drawn[name] == 1 else f"at-{name}-{drawn[name]}"


def anchor() -> str:
    """The tapped form's place on the answer's page ("#at-buy-2"), if it sent a valid one."""
    at = request.form.get("at", "")
    return f"#{at}" if ANCHOR.fullmatch(at) else ""


# The one view ---------------------------------------------------------------------------------


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
    kept = action.page_kept(page, form, table)
    if not form.validate_on_submit():
        if field_at_fault(form) and screen_behind(form, table):  # what it lacks may be new
            return outdated(table, form.seq.data, kept)
        return refused(table, form_error(form), 400, kept, field=field_at_fault(form))
    try:
        kind, payload = action.kind_for(form, table), action.payload(form, table)
        if table.changing is not None:  # a past action entered again: first, what it does
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
    return refused(table, form_error(form), 422, page, field=field.name)


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
    except storage.StaleError as stale:  # the page shows the table as it stands now
        message = stale_message(table, stale, kind, payload)
        return refused(now_showing(table, None), message, 409, page)
    except RuleError as error:
        return rule_refused(table, form, error, page)
    if on_recorded is not None:
        on_recorded(event)
    return recorded(now_showing(table, after), event,
                    [text(describe_event(table, e)) for e in merged])


def ghost_tap(form: ActionForm) -> bool:
    """Without JavaScript, the second tap of a double tap: it lands on the page the first tap's
    answer loaded, so its form is from that page (made after the action, showing it: its seq is
    the action's), and it arrives sooner after that page was made than anyone sees it and taps
    in reply (GHOST_TAP_SECONDS). The time counts from the page's making (its form's key says
    when), not from the action: a busy server's redirect and page, however slow, are not
    counted, and the browser sends a tap held during the load the moment the page shows. A
    form from any other page (one opened or reloaded, another phone's, or the answer page
    tapped later) is always meant, at whatever speed: a player who knows where to tap is not
    held back. A second tap that lands on the first tap's own page sends its key again:
    `storage.claim` gives it the first answer."""
    answered = session.get(ANSWERED)
    if sent_by_script() or not answered or answered.get("seq") != form.seq.data:
        return False
    made = int(form.key.data.partition(".")[0], 16) / 1000  # validated: see ACTION_KEY
    since = time.time() - made
    return made >= float(answered.get("at", 0)) - 0.001 and \
        0 <= since < current_app.config["GHOST_TAP_SECONDS"]


def sent_by_script() -> bool:
    """app.js sent this action and will update the page in place with the answer."""
    return request.headers.get(SCRIPT_HEADER) == "fetch"


def submitted_digest() -> str:
    """What was submitted with the key (every field but the CSRF token, in any order): the same
    key with other fields is another button of the same form, not a retry."""
    fields = sorted((k, v) for k, values in request.form.lists() for v in values
                    if k != "csrf_token")
    return hashlib.sha256(json.dumps(fields).encode()).hexdigest()


# Answers --------------------------------------------------------------------------------------


def recorded(table: Table, event: Event, merged: list[str] | None = None) -> Any:
    """The answer to a recorded action: the table page, which says in its score strip what was
    recorded (with what it gave, after what another phone recorded meanwhile, `merged`, and
    Undo). In place for app.js; otherwise post/redirect/get."""
    note = {"table": storage.mark_of(table.id), "seq": event.seq, "kind": event.kind,
            "merged": merged or []}
    if sent_by_script():
        g.recorded = note
        html, status = game_views(table.game.slug).page(table)
        response = make_response(html, status)
        response.headers["X-Companion-Page"] = table_url(table)
        return response
    session["recorded"] = note
    session[ANSWERED] = {"seq": event.seq, "at": time.time()}  # see `ghost_tap`
    return redirect(table_url(table) + anchor(), code=303)


def refused(table: Table, message: Any, status: int, page: Page,
            field: str | None = None) -> Any:
    """A refusal: the page with why (and beside the `field` at fault, if the form is drawn
    again); for app.js the words to show beside that field or else the tapped control, and,
    when the screen was outdated (409), the page as it is now."""
    if not sent_by_script():
        return page(table, error=message, status=status)
    answer = {"refused": text(message)}
    if field:
        answer["field"] = field
    if status == 409:
        answer["page"] = page(table, status=status)[0]
    return jsonify(answer), status


def gone() -> Any:
    """The table's links were renewed while this action was on its way: its page is gone too."""
    message = _("This table has new links now, so nothing was recorded. Open it again from "
                "the new link.")
    if sent_by_script():
        return jsonify(refused=message), 410
    return render_template("error.html", message=message), 410


def stale_message(table: Table, stale: storage.StaleError, kind: str,
                  payload: Mapping[str, Any]) -> str:
    """Tell a repeated tap from a screen that another action made outdated."""
    since = stale.since
    if stale.missed == 1 and since[0].kind == kind and dict(since[0].payload) == dict(payload):
        return _("That was already recorded, so it was not added again.")
    if not since:
        return _("This screen is ahead of the table. Reload the page; nothing was changed.")
    happened = "; ".join(text(describe_event(table, e)) for e in since[-3:])
    if stale.missed > len(since[-3:]):  # the last three are said, the others counted
        happened = ngettext("%(last)s; and %(num)d action before them",
                            "%(last)s; and %(num)d actions before them",
                            stale.missed - len(since[-3:]), last=happened)
    return _(
        "The table changed since this screen was loaded (%(happened)s), so this tap was not "
        "recorded. The page now shows the table as it is.",
        happened=happened,
    )


def reason(error: Exception) -> Any:
    """What the players are told when the rules refuse: the RuleError's `Msg` (translated
    where it is shown), or the error's text."""
    return error.args[0] if error.args else str(error)


# Changing a past action -----------------------------------------------------------------------


class ChangeForm(ActionForm):
    """The change as the preview worked it out (signed: only this app makes one), and what it
    is for."""

    change = StringField("Change", widget=HiddenInput(), validators=[InputRequired()])
    reason = StringField(_l("What for (optional)"),
                         filters=[cleaned],
                         validators=[Length(max=MAX_REASON)])


def signed() -> URLSafeTimedSerializer:
    """A change as its preview signs it: only this app makes one, for one table at one seq,
    confirmed within CHANGE_SECONDS."""
    return URLSafeTimedSerializer(current_app.secret_key, salt="companion.change")


def signed_change(table: Table, seq: int, change: Mapping[str, Any]) -> str:
    """The change a preview worked out, bound to its table (by the table's mark) and the seq
    the table stood at."""
    return signed().dumps({"table": storage.mark_of(table.id), "seq": seq, "change": change})


def as_recorded(table: Table, actions: Mapping[str, Action]) -> dict[str, Any]:
    """In change mode, what the table page draws of the action being changed: the form of its
    kind filled in as it was recorded (each field the payload names) and its fold-out open."""
    changing = table.changing
    if changing is None:
        return {}
    for action in actions.values():
        if action.kind == changing.kind and action.keep:
            form = action.form_for(table)
            form.process(formdata=None, data={
                name: value for name, value in changing.payload.items()
                if name in form and not isinstance(value, (dict, list))})
            opened = action.opened if isinstance(action.opened, str) else None
            return {action.keep: form, **({"opened": opened} if opened else {})}
    return {}


def change_preview(table: Table, now: tuple[str, Mapping[str, Any]] | None) -> Any:
    """The action being changed (`table.changing`) entered again as `now`, or taken out (None):
    what the change does, before it is recorded. Every later action is refereed again as it was
    recorded: each player's total before and after, and the later actions the rules no longer
    take, each with why (the change takes them out, or puts the rules' stand-in in their
    place). RuleError if the rules refuse the action entered."""
    assert table.changing is not None
    edits = {**table.pending, table.changing.seq: now}
    fix = replays.correction(get_db(), table.id, table.game, table.names, edits)
    keep_pending(table.id, edits)  # for an action taken out that is changed too
    return change_page(table, fix)


def change_page(table: Table, fix: Correction) -> Any:
    """The preview of a change, with the form that records it."""
    standing = now_showing(table, None).current  # the change is made on the table as it stands
    after = fix.state.totals()
    page = render_template(
        "change.html", table=table, said=table.game.say(CHANGE, fix.change),
        totals=[(name, total, after.get(name, 0))
                for name, total in standing.state.totals().items()],
        dropped=[(event.seq, describe_event(table, event), why) for event, why in fix.dropped],
        replaced=[(was.seq, describe_event(table, was), describe_event(table, now), why)
                  for was, now, why in fix.replaced],
        form=ChangeForm(formdata=None,
                        change=signed_change(table, standing.last_seq, fix.change)),
        seq=standing.last_seq)
    return page, 200


@bp.post(f"/<any({', '.join(GAMES)}):slug>/<table_id>/change/out")
def take_out(slug: str, table_id: str) -> Any:
    """The action being changed taken out: what that does, before it is recorded."""
    table = load_table(slug, table_id)
    page = game_views(slug).page
    form = ActionForm()
    if table.changing is None:
        abort(404)
    if not form.validate_on_submit():
        return refused(table, form_error(form), 400, page)
    try:
        return change_preview(table, None)
    except RuleError as error:
        return refused(table, reason(error), 422, page)


def change_payload(form: ChangeForm, table: Table) -> dict[str, Any]:
    """The change the preview showed (as it signed it, for this table at the seq the form
    says), with what it is for."""
    try:
        signed_data = signed().loads(form.change.data, max_age=CHANGE_SECONDS)
    except SignatureExpired:
        raise RuleError(_("This preview is too old to confirm: start the change again from "
                          "the history.")) from None
    except BadData:
        signed_data = None
    if not isinstance(signed_data, dict) or signed_data.get("seq") != form.seq.data \
            or signed_data.get("table") != storage.mark_of(table.id):
        raise RuleError(_("This change could not be read: start it again from the "
                          "history."))
    return {**signed_data["change"], "reason": form.reason.data or ""}


@bp.post(f"/<any({', '.join(GAMES)}):slug>/<table_id>/change")
def change(slug: str, table_id: str) -> Any:
    """Record a change the players saw in its preview: refereed again as it is recorded."""
    table = load_table(slug, table_id)
    return take(table, Action(CHANGE, ChangeForm, change_payload), game_views(slug).page)
