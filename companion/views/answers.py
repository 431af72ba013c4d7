"""The answer to a tap: the table page it recorded on, or the refusal and why."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import g, jsonify, make_response, redirect, render_template, request, session
from flask_babel import gettext as _
from flask_babel import ngettext

from .. import storage
from ..app import get_db
from ..i18n import text
from ..rules.log import CHANGE, REDO, UNDO, Event, about
from ..rules.merging import refusal_on, same_tap
from . import game_views
from .declarations import Page
from .pages import table_page
from .tables import Table, say_event, table_url
from .taps import sent_by_script

# An action form's id on its page, sent with it (`form_anchor`): "at-buy", "at-buy-2", ...
ANCHOR = re.compile(r"at-[a-z0-9_]{1,32}(-[0-9]{1,3})?")
RESULT = "result"  # the id of a finished table's final result (`_macros.html`, `result_card`)
# A fold-out's id on its page, sent by the forms in it (`fold_in`): "act-buy_land", "buy-2".
FOLD = re.compile(r"[a-z][a-z0-9_-]{0,40}")


def form_anchor(url: str) -> str:
    """An id for the action form being drawn (`_macros.html`, `action`): its action's name, and
    which of that action's forms on the page it is ("at-buy-2"). The form sends it, and without
    JavaScript the answer's page comes back scrolled to it (`recorded`): the same form, where
    the tapped control was, not the top of the page."""
    name = re.sub(r"[^a-z0-9_]", "_", url.rstrip("/").rsplit("/", 1)[-1].lower())[:32] or "act"
    drawn = g.setdefault("form_anchors", {})
    drawn[name] = drawn.get(name, 0) + 1
    return f"at-{name}" if drawn[name] == 1 else f"at-{name}-{drawn[name]}"


def fold_in(fold: str | None) -> str:
    """The action forms drawn from here on are in the fold-out `fold` (None: in none): each
    sends it (`_macros.html`, `action`), for `anchor`. Writes nothing."""
    g.fold = fold
    return ""


def form_fold() -> str | None:
    """The fold-out the action form being drawn is in (`fold_in`), if any."""
    return g.get("fold")


def refused_here(at: str) -> Any:
    """Without JavaScript, the refusal of the tap that came from the action form `at`, said
    in that form as well as in the strip, where the page comes back (found at a table: a
    purchase refused on an outdated screen came back showing the count it would have made,
    the refusal at the foot unread, and a scoring missed the card)."""
    refused = g.get("refused")
    return refused[1] if refused and refused[0] == at else None


def anchor(table: Table) -> str:
    """Where the answer's page comes back without JavaScript: the final result, if the tap
    ended the game (it is the answer, and the tapped form is gone); else the place of the
    fold-out the tapped form was in, closed on the answer's page (found at a table: the page
    came back at its top, the form's "#at-buy_land" gone); else the tapped form's place
    ("#at-buy-2"), if it sent a valid one."""
    if table.current.state.finished:
        return f"#{RESULT}"
    fold, at = request.form.get("fold", ""), request.form.get("at", "")
    if FOLD.fullmatch(fold):
        return f"#{fold}"
    return f"#{at}" if ANCHOR.fullmatch(at) else ""


def shown_at(table: Table) -> str:
    """The address of the table page an answer shows: with the fold-out the players opened, if
    the tap kept it (app.js sends Undo and Redo with the page's `?open=...`)."""
    kept = request.query_string.decode("latin-1") if request.args.get("open") else ""
    return table_url(table) + (f"?{kept}" if kept else "")


def recorded(table: Table, event: Event, merged: list[str] | None = None) -> Any:
    """The answer to a recorded action: the table page, which says in its score strip what was
    recorded (with what it gave, after what another phone recorded meanwhile, `merged`, and
    Undo). In place for app.js; otherwise post/redirect/get."""
    note = {"table": storage.mark_of(table.id), "seq": event.seq, "kind": event.kind,
            "merged": merged or []}
    if sent_by_script():
        g.recorded = note
        views = game_views(table.game.slug)
        html, status = table_page(table, views.page, views.phone)
        response = make_response(html, status)
        response.headers["X-Companion-Page"] = shown_at(table)
        return response
    at = anchor(table)
    session["recorded"] = {**note, "at": at[1:]}  # its page lands there (`pages.landed`)
    return redirect(table_url(table) + at, code=303)


def refused(table: Table, message: Any, status: int, page: Page,
            field: str | None = None) -> Any:
    """A refusal: the page with why (and beside the `field` at fault, if the form is drawn
    again); for app.js the words to show beside that field or else the tapped control, and,
    when the screen was outdated (409), the page as it is now."""
    if not sent_by_script():
        if field is None and request.endpoint != "actions.change":  # in the tapped form too,
            g.refused = (request.form.get("at", ""), message)  # but a change's: at its top
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
    """Tell a repeated tap from a screen that another action made outdated. The one action
    missed being what this tap says (an Undo tapped on two phones, a purchase recorded on
    both, or on this phone's screen before Back) is said as what was just recorded, never as
    this tap's: the same purchase twice may be two, and the table says so by tapping again (an
    action taken at will, `Game.independent`; a turn's action, a scoring, is not taken twice);
    so is one after the same player's purchase of the same building among several missed."""
    since = stale.since
    if stale.missed == 1 and since[0].kind == kind and dict(since[0].payload) == dict(payload):
        if kind in (UNDO, REDO):
            return _("%(button)s was just tapped, as this tap would have: it was not done "
                     "twice. The page now shows the table as it is.",
                     button=said_missed(table, since[0]))
        said = text(say_event(table, since[0]))
        if kind in table.game.independent:  # a purchase the yard's players make at will
            return _("Just recorded: %(action)s. This tap was not recorded again; if it was one "
                     "more, tap it again on the page as it is now.", action=said)
        return _("Just recorded: %(action)s. This tap was not recorded again. The page now "
                 "shows the table as it is.", action=said)
    if not since:
        return _("This screen is ahead of the table. Reload the page; nothing was changed.")
    if kind == CHANGE:  # its preview is shown again if it can be (`change.again_or`)
        return _("The table changed since this preview was made (%(happened)s), so the change "
                 "was not recorded.", happened=missed_words(table, stale))
    independent = kind in table.game.independent and payload.get("player") is not None
    refusal = refusal_on(table.current.state, kind, payload) if independent else None
    if refusal is not None:  # tapped again, it would be refused as well: said why
        return _("The table changed since this screen was loaded (%(happened)s), so this tap "
                 "was not recorded. %(reason)s", happened=missed_words(table, stale),
                 reason=text(refusal))  # a sentence of its own (it read "recorded: The game")
    same = next((e for e in since if same_tap(e, kind, payload)), None) if independent else None
    if same is not None:  # not merged: said which (found at a table: "Ömer's purchase" only)
        return _("The table changed since this screen was loaded (%(happened)s), so this tap "
                 "was not recorded: it may be “%(action)s”, recorded already. If this was one "
                 "more, tap it again on the page as it is now.",
                 happened=missed_words(table, stale), action=said_missed(table, same))
    return _(
        "The table changed since this screen was loaded (%(happened)s), so this tap was not "
        "recorded. The page now shows the table as it is.",
        happened=missed_words(table, stale, kind, payload),
    )


def missed_words(table: Table, stale: storage.StaleError, kind: str = "",
                 payload: Mapping[str, Any] | None = None) -> str:
    """What another screen recorded since this one was loaded: the last three actions in
    words, the others counted; the latest of this tap's own kind and player among those said
    (`this_players`), where one was missed (found at a table: a tap of "Ann takes 3
    skyscrapers" on an outdated phone was told of three later actions "and 1 action before
    them": the one it repeated)."""
    since = stale.since
    if kind and stale.missed > len(since) and not any(
            this_players(e, kind, payload) for e in since):
        screen = since[-1].seq - stale.missed
        since = storage.events_since(get_db(), table.id, screen, min(stale.missed, MISSED_READ))
    last = since[-3:]
    mine = next((e for e in reversed(since) if this_players(e, kind, payload)), None)
    shown = last if mine is None or mine in last else [mine, *since[-2:]]
    happened = "; ".join(said_missed(table, e) for e in shown)
    others = stale.missed - len(shown)
    if not others:
        return happened
    if shown is last:
        return ngettext("%(last)s; and %(num)d action before them",
                        "%(last)s; and %(num)d actions before them", others, last=happened)
    return ngettext("%(last)s; and %(num)d other action", "%(last)s; and %(num)d other actions",
                    others, last=happened)


# The most missed actions read to find one of the tap's own kind and player (`missed_words`).
MISSED_READ = 50


def this_players(event: Event, kind: str, payload: Mapping[str, Any] | None) -> bool:
    """Whether a missed action is of this tap's kind, by the same player (if it names one)."""
    return bool(kind) and event.kind == kind and \
        event.payload.get("player") == (payload or {}).get("player")


def said_missed(table: Table, event: Event) -> str:
    """An action another screen recorded, in words (a change by the actions it changed:
    "a change of action #12"); the table's last one, an Undo or a Redo, with what it took back
    or restored ('Redo of “Ben took the upcoins from their deck”'), as
    the table as it stands knows it."""
    if event.kind == CHANGE:  # in full it runs to lines: the history has it
        seqs = about(event)
        numbers = ", ".join(f"#{seq}" for seq in seqs)
        edits = event.payload.get("edits")
        if isinstance(edits, list) and edits and all(  # not "a change" (found at a table)
                isinstance(edit, Mapping) and edit.get("now") is None for edit in edits):
            return ngettext("action %(actions)s taken out", "actions %(actions)s taken out",
                            len(seqs), actions=numbers)
        return ngettext("a change of action %(actions)s", "a change of actions %(actions)s",
                        len(seqs), actions=numbers)
    current = table.current
    target = current.next if event.kind == UNDO else current.last if event.kind == REDO else None
    if target is None or event.seq != current.last_seq:
        return text(say_event(table, event))
    said = text(say_event(table, target, current.state))
    return _("Undo of “%(action)s”", action=said) if event.kind == UNDO else \
        _("Redo of “%(action)s”", action=said)


def reason(error: Exception) -> Any:
    """What the players are told when the rules refuse: the RuleError's `Msg` (translated
    where it is shown), or the error's text."""
    return error.args[0] if error.args else str(error)
