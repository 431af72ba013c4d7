"""Changing a past action: its preview, and the signed change the preview's form confirms."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from flask import current_app, g, render_template, request
from flask_babel import gettext as _
from itsdangerous import BadData, SignatureExpired, URLSafeTimedSerializer
from wtforms import StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional
from wtforms.widgets import HiddenInput

from .. import replays, storage
from ..app import get_db
from ..i18n import lazy_gettext as _l
from ..i18n import text
from ..rules import (
    Correction,
    Now,
    Rescored,
    RuleError,
    changes_nothing,
    corrected,
    move_edits,
    shown_together,
)
from ..rules.common import MAX_REASON, Placing
from ..rules.log import MAX_EVENTS, Event
from ..rules.text import Msg
from .declarations import Action, Page
from .forms import ActionForm, IntegerField, cleaned
from .tables import (
    Table,
    now_showing,
    pending_edits,
    pending_key,
    remember_pending,
    say_event,
)

# How long a change's preview may be confirmed: a table that talked it over longer previews it
# again (what it does may have been worked out on a table since changed, or leaked).
CHANGE_SECONDS = 2 * 60 * 60


class ChangeForm(ActionForm):
    """The change as the preview worked it out (signed: only this app makes one), and what it
    is for."""

    change = StringField("Change", widget=HiddenInput(), validators=[InputRequired()])
    reason = StringField(_l("What for (optional)"),
                         filters=[cleaned],
                         validators=[Length(max=MAX_REASON)])


class MoveForm(ActionForm):
    """An action moved to where another stands (`move_preview`): the one being changed, or
    (`moved`) one next to it brought to it."""

    to = IntegerField("To", validators=[InputRequired(), NumberRange(min=1, max=MAX_EVENTS)])
    moved = IntegerField("Moved", validators=[Optional(), NumberRange(min=1, max=MAX_EVENTS)])


# How many actions on each side of the one being changed it may be moved to, in one tap.
MOVE_REACH = 2


def move_places(table: Table) -> list[tuple[str, Event]]:
    """Where the action being changed may be moved (recorded at the wrong moment): before each
    of the MOVE_REACH actions in force before it, nearest last, or after each of those after
    it, nearest first, as ("before" or "after", that action)."""
    changing, played = table.changing, table.played
    at = next((k for k, e in enumerate(played) if changing and e.seq == changing.seq), None)
    if at is None:
        return []
    earlier = played[max(0, at - MOVE_REACH):at]
    later = played[at + 1:at + 1 + MOVE_REACH]
    return [*(("before", e) for e in earlier), *(("after", e) for e in later)]


@dataclass(frozen=True)
class Move:
    """A move the "Move it" fold-out offers: the action `moved` to where action `to` stands;
    `brought` if that is an action next to the one being changed, brought to it ("before" or
    "after" it), else the one being changed, moved `where` (before or after) action `event`."""

    where: str
    event: Event
    moved: int
    to: int
    brought: bool = False


def move_choices(table: Table) -> list[Move]:
    """Of `move_places`, those where the rules take the action (each move worked out on the
    table as it stands): none they refuse is offered (found at a table: of 85 moves offered in
    5th Avenue, one was taken; the others were refused in words about another action). Then
    each action there brought to the one being changed, where that is another move: a yard
    scoring tapped one purchase early is followed by Dirk's deal, which the rules keep after
    it, so the scoring fits nowhere later, but the purchase fits before it (found at a table)."""
    changing = table.changing
    assert changing is not None
    places = move_places(table)
    candidates = [Move(where, event, changing.seq, event.seq) for where, event in places] + [
        Move("after" if event.seq < changing.seq else "before", event, event.seq, changing.seq,
             brought=True) for _where, event in places]
    choices: list[Move] = []
    tried: list[Mapping[int, Any]] = []
    for move in candidates:
        edits = move_edits(table.played, move.moved, move.to)
        if not edits or edits in tried:
            continue
        tried.append(edits)
        try:
            corrected(table.game, table.names, table.played, edits, moved=edits.keys())
        except RuleError:
            continue
        choices.append(move)
    return choices


def signed() -> URLSafeTimedSerializer:
    """A change as its preview signs it: only this app makes one, for one table at one seq,
    confirmed within CHANGE_SECONDS."""
    return URLSafeTimedSerializer(current_app.secret_key, salt="companion.change")


def signed_change(table: Table, seq: int, change: Mapping[str, Any]) -> str:
    """The change a preview worked out, bound to its table (by the table's mark) and the seq
    the table stood at."""
    return signed().dumps({"table": storage.mark_of(table.id), "seq": seq, "change": change})


def change_payload(form: ChangeForm, table: Table) -> dict[str, Any]:
    """The change the preview showed (as it signed it, for this table at the seq the form
    says), with what it is for; refused if it changes nothing (`changes_nothing`: the preview
    offers no confirm then)."""
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
    if changes_nothing(signed_data["change"]):
        raise RuleError(_("This change enters the action as it was recorded, so nothing was "
                          "recorded."))
    return {**signed_data["change"], "reason": form.reason.data or ""}


def as_recorded(table: Table, actions: Mapping[str, Action]) -> dict[str, Any]:
    """In change mode, what the table page draws of the action being changed: its fold-out
    open, its summary the Change links' `#as-recorded` (`tables.changed_fold_out`), with the
    form of its kind filled in as it was recorded (`ActionForm.fields_of`), unless the players
    opened another (`?open=`: the change enters another kind of action)."""
    changing = table.changing
    if changing is None:
        return {}
    action = next((action for action in actions.values()
                   if action.kind == changing.kind and (action.form_name or action.opened)),
                  None)
    if action is None:
        return {}
    form = None
    if action.form_name:
        form = action.form_for(table)
        form.process(formdata=None, data={
            name: value for name, value in form.fields_of(changing.payload).items()
            if name in form and not isinstance(value, (dict, list))})
    opened = action.opened(form, table) if callable(action.opened) else action.opened
    if "open" in request.args:
        opened = None
    g.changed_fold_out = opened
    return {**({action.form_name: form} if action.form_name else {}),
            **({"opened": opened} if opened else {})}


def as_it_happened(table: Table, kind: str,
                   payload: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The action being changed as entered again, with what its event recorded of what
    happened at the table beyond what its form asks (`ActionTable.AT_THE_TABLE`)."""
    was = table.changing
    assert was is not None
    if was.kind != kind:
        return kind, dict(payload)
    return kind, table.current.state.entered_again(kind, was.payload, payload)


def change_preview(table: Table, now: tuple[str, Mapping[str, Any]] | None) -> Any:
    """The action being changed (`table.changing`) entered again as `now`, or taken out (None):
    what the change does, before it is recorded. Every later action is refereed again as it was
    recorded: each player's total before and after, the later actions the rules no longer
    take, each with why (the change takes them out, or puts the rules' stand-in in their
    place), and those they keep that now come out differently. RuleError if the rules refuse
    the action entered."""
    assert table.changing is not None
    return edits_preview(table, {**table.pending,
                                 table.changing.seq: now and as_it_happened(table, *now)})


def move_preview(table: Table, to: int, moved: int | None = None) -> Any:
    """The action being changed (or `moved`, an action brought to it: `to` is then the one
    being changed) moved to where action `to` stands, the actions between moving one place each
    (`rules.move_edits`), on top of the change being made: what that does, before it is
    recorded, as `change_preview` shows it ("Move: ..., before ...", `Game.move_of`).
    RuleError if the rules refuse an action where it then stands (Dirk's deal before its
    scoring), or `to` is no action in force, or the move is of neither the action being
    changed nor one brought to it."""
    assert table.changing is not None
    moved = moved or table.changing.seq
    if table.changing.seq not in (moved, to):
        raise RuleError(_("Only the action being changed moves, or one brought to it."))
    move = move_edits(table.played, moved, to)
    if not move:  # past actions just like it: "Move it" never offers it (`move_choices`)
        raise RuleError(Msg("Every action stands as it was: nothing changes."))
    try:
        return edits_preview(table, {**table.pending, **move}, moved=move.keys())
    except RuleError as refused:
        raise RuleError(Msg("Not moved: the rules refuse it there. {why}",
                            why=refused.args[0] if refused.args else "")) from refused


def edits_preview(table: Table, edits: Mapping[int, Now],
                  moved: Collection[int] = frozenset()) -> Any:
    """The change of these edits worked out, and kept as the change being made on this phone
    (for an action taken out that is changed too; those `moved`, as read where they now stand):
    its preview."""
    fix = replays.correction(get_db(), table.id, table.game, table.names, edits, moved)
    read = {edit["seq"]: (edit["now"]["kind"], edit["now"]["payload"])
            for edit in fix.change["edits"] if edit["seq"] in moved and edit["now"] is not None}
    remember_pending(table.id, {**edits, **read})
    return change_page(table, fix)


def rescored_line(rescored: Rescored, holders: list[str]) -> tuple[Any, ...]:
    """A later action that now comes out differently, as the preview lists it: its number, what
    the rules say of it now (its words with the table, and their note if it says more), what
    they said before where that differs (words, note: None where the same), and the points
    was -> now of each of the `holders` (everyone the totals list: the players, and Dirk in a
    2-player yard game) whose points from it moved."""
    was, now = (shown_together(r.said, r.note) for r in (rescored.was, rescored.now))
    before = tuple(then if then != it else None for then, it in zip(was, now, strict=True))
    return (rescored.event.seq, *now, before if any(before) else None,
            rescored.moved(holders))


def taking_others(dropped: list[tuple[Event, Any]]) -> int | None:
    """The first later action a change takes out, where it may take the others with it: they
    are refused for another reason than it is (an auction it left unfinished refuses all that
    follows), not each for its own (every museum over the seven)."""
    if len(dropped) < 2 or all(str(why) == str(dropped[0][1]) for _event, why in dropped[1:]):
        return None
    return dropped[0][0].seq


def again_or(page: Page) -> Page:
    """The page a change's refusal shows: `page` (the table's), but for a confirm that another
    phone's action made outdated (409), the change's preview again if it can be made (found at
    a table: the preview, the choices made for it and its reason were gone, and it had to be
    started again from the history)."""
    def shown(table: Table, error: Any = None, status: int = 200, **forms: Any) -> Any:
        again = preview_again(table, error) if status == 409 else None
        return again if again is not None else page(table, error=error, status=status, **forms)
    return shown


def preview_again(table: Table, error: Any) -> Any:
    """The change this phone is making (its edits, kept in the session) worked out again on the
    table as it stands, with what its confirm said it was for; None if this phone is making
    no such change now (another tab started another), or the rules no longer take it (the
    action it changes was undone meanwhile), or it now changes nothing."""
    edits = pending_edits(table.id)
    try:
        confirmed = signed().loads(request.form.get("change", ""), max_age=CHANGE_SECONDS)
        seqs = [edit["seq"] for edit in confirmed["change"]["edits"]]
    except (BadData, KeyError, TypeError):
        return None
    if not edits or seqs[:len(edits)] != list(edits):
        return None
    try:
        fix = replays.correction(get_db(), table.id, table.game, table.names, edits)
    except RuleError:
        return None
    if changes_nothing(fix.change):
        return None
    return change_page(table, fix, error=error, status=409,
                       reason=(cleaned(request.form.get("reason", "")) or "")[:MAX_REASON])


def change_page(table: Table, fix: Correction, error: Any = None, status: int = 200,
                reason: str = "") -> Any:
    """The preview of a change, with the form that records it; or, if it enters every action as
    it was recorded (`changes_nothing`), that it changes nothing, without that form. Shown
    again after another phone's action (`preview_again`): with why (`error`, status 409), and
    what the change is for as it was typed."""
    standing = now_showing(table, None).current  # the change is made on the table as it stands
    after, held, held_after = fix.state.totals(), standing.state.holdings(), fix.state.holdings()
    page = render_template(
        "change.html", table=table,
        said=table.game.say_change(fix.change, fix.accounts(), proposed=True),
        keep=pending_key(table.id),
        unchanged=changes_nothing(fix.change),
        totals=[(name, total, after.get(name, 0), held.get(name), held_after.get(name))
                for name, total in standing.state.totals().items()],
        dropped=[(event.seq, say_event(table, event), why, fix.points_moved(event.seq, after))
                 for event, why in fix.dropped],
        first_dropped=taking_others(fix.dropped),
        replaced=[(was.seq, say_event(table, was), say_event(table, now), why,
                   fix.points_moved(was.seq, after)) for was, now, why in fix.replaced],
        rescored=[rescored_line(r, list(after)) for r in fix.rescored],
        form=ChangeForm(formdata=None, reason=reason,
                        change=signed_change(table, standing.last_seq, fix.change)),
        seq=standing.last_seq, error=error, again=status == 409,
        moving=table.game.move_of(fix.change["edits"]) is not None,
        ranking=ranking_moved(standing.state, fix.state),
        next_moved=next_moved(standing.state, fix.state))
    return page, status


def next_moved(before: Any, after: Any) -> tuple[str, str] | None:
    """What comes next before and after a change, where it differs (found at a table: a street
    action taken out brought a 1st action back as next, and the preview said "only what this
    action records changes"); the end of the game where a side has nothing next. A part of the
    game one side is in and the other not is said on both (`said_next`: found at a table, an
    empty deck taken out read "Final round: Kofi's 1st action comes next -> Kofi's 1st action
    comes next")."""
    stage = None if before.stage == after.stage else before.stage or after.stage
    was, now = (said_next(state, stage) for state in (before, after))
    return None if was == now else (was, now)


def said_next(state: Any, stage: str | None = None) -> str:
    """What comes next, in words; where a change moves the table into or out of a part of the
    game the rules name (`stage`), after it: "Final round: Lukas's 2nd action comes next", or
    on the side not in it, "Final round: no. Lukas's 2nd action comes next"."""
    if not state.up_next:
        return _("Nothing: the game is over.")
    if stage is None:
        return text(state.up_next)
    if state.stage:
        return _("%(stage)s: %(next)s", stage=text(state.stage), next=text(state.up_next))
    return _("%(stage)s: no. %(next)s", stage=text(stage), next=text(state.up_next))


def ranking_moved(before: Any, after: Any) -> tuple[list[Placing], list[Placing]] | None:
    """The final ranking before and after a change, where the game is over on both sides and
    the places differ: a tie-break can move a winner while no total moves (a street card built
    on another site makes another building the tallest)."""
    if not (before.finished and after.finished):
        return None
    was, now = before.ranking(), after.ranking()
    if [(p.place, p.player) for p in was] == [(p.place, p.player) for p in now]:
        return None  # the same places (their totals may differ)
    return was, now
