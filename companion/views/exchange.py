"""Export and import: a table's whole log as a file, its results as CSV, a play for BG Stats.

The import page takes a table file from this or another server and restores it as a new table
(never under the file's id). Its POST may be larger than the app-wide request limit: the
blueprint raises the limit for that one request before anything reads the body, and then checks
the CSRF token itself (the view is exempt from the app-wide check, which would read the body
first, under the smaller limit).
"""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from flask_wtf.file import FileAllowed, FileField, FileRequired
from werkzeug.exceptions import RequestEntityTooLarge

from .. import exchange, replays, storage
from ..app import csrf, get_db
from ..i18n import lazy_gettext as _l
from ..i18n import phone_day, text
from ..rules.log import as_played
from .clients import content_disposition, remember, too_often
from .share import qr_svg
from .tables import SEAT_COLOURS, Table, load_table

bp = Blueprint("exchange", __name__)

# Room for the multipart envelope around the largest file accepted.
IMPORT_REQUEST_BYTES = exchange.MAX_IMPORT_BYTES + 16 * 1024


class ImportForm(FlaskForm):
    file = FileField(_l("Table file (.json)"), validators=[
        FileRequired(_l("Choose the table file to import.")),
        FileAllowed(["json"], _l("Choose a .json file exported from this app.")),
    ])


# Export ---------------------------------------------------------------------------------------


@bp.get("/<slug>/<table_id>/export.json")
def export_json(slug: str, table_id: str) -> Response:
    """The whole table as a file, enough to restore it exactly on any server of this app. It
    reads the whole log: rate limited per client (after the table is found)."""
    table = load_table(slug, table_id)
    if too_often("export"):
        return Response(render_template("error.html", message=_(
            "Many tables were exported from here just now: wait a minute, then try again.")),
            429)
    document = exchange.export_table(row(table), storage.events(get_db(), table.id))
    return attachment(exchange.dumps(document), "application/json", table, "json")


@bp.get("/<slug>/<table_id>/results.csv")
def results_csv(slug: str, table_id: str) -> Response:
    """The standings (the result, once finished) as a spreadsheet: one row per player."""
    table = load_table(slug, table_id)
    state = table.current.state
    body = exchange.results_csv(text(table.game.name), phone_day(table.created_at), table.names,
                                state.ranking(), state.finished, sheet_words())
    # With a byte order mark, spreadsheet apps read the names' accents and umlauts as UTF-8.
    return attachment(body.encode("utf-8-sig"), "text/csv", table, "csv", "results")


def sheet_words() -> exchange.SheetWords:
    """A results sheet in the phone's language, as its pages and PDFs are (found at a table:
    a German phone's sheet said "Construction yard card game ... finished ... yes")."""
    return exchange.SheetWords(
        header=(_("game"), _("date"), _("status"), _("place"), _("player"), _("score"),
                _("winner"), _("place shared")),
        finished=_("finished"), in_progress=_("in progress"), yes=_("yes"), no=_("no"))


@bp.get("/<slug>/<table_id>/bgstats.json")
def bgstats_json(slug: str, table_id: str) -> Any:
    """What the link to BG Stats sends, as a file: the play in BG Stats' push format, for apps
    that read it (BG Stats itself takes a play through the link only)."""
    table = load_table(slug, table_id)
    play = bgstats_play(table)
    if play is None:
        return not_finished(table)
    body = json.dumps(play, ensure_ascii=False, indent=1).encode()
    return attachment(body, "application/json", table, "json", "bgstats")


@bp.get("/<slug>/<table_id>/bgstats")
def bgstats_open(slug: str, table_id: str) -> Any:
    """Send the play to BG Stats: its link (BG Stats' import dialog opens on a phone with the
    app) and a QR code of it, for a phone that has BG Stats while the table's screen is
    another."""
    table = load_table(slug, table_id)
    play = bgstats_play(table)
    if play is None:
        return not_finished(table)
    link = exchange.bgstats_link(play)
    return render_template("exchange/bgstats.html", table=table, play=play, link=link,
                           qr=qr_svg(link))


def bgstats_play(table: Table) -> dict[str, Any] | None:
    """The play: the table as it stands, with its whole log (its actions as played give the
    start player, its events the times)."""
    game = table.current
    if not game.state.finished:
        return None
    events = storage.events(get_db(), table.id)
    in_force = set(game.done)
    played = as_played(e for e in events if e.seq in in_force)
    return exchange.bgstats_play(row(table), str(table.game.name), game.state, played, events)


def not_finished(table: Table) -> tuple[str, int]:
    message = _("The game is not finished yet: BG Stats records finished plays only. "
                "Finish the game first, then export it.")
    return render_template("exchange/message.html", table=table, message=message), 409


def row(table: Table) -> dict[str, Any]:
    return {"id": table.id, "game": table.game.slug, "players": table.players,
            "created_at": table.created_at, "status": table.status}


def attachment(body: bytes, mimetype: str, table: Table, extension: str, what: str = "table"
               ) -> Response:
    filename = f"{table.game.slug}-{what}-{phone_day(table.created_at)}.{extension}"
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = content_disposition("attachment", filename)
    response.headers["Cache-Control"] = "no-store"
    return response


# Import ---------------------------------------------------------------------------------------


@bp.before_request
def larger_limit_for_imports() -> None:
    """A long game's file is larger than the app-wide request limit: allow the import that."""
    if request.endpoint == "exchange.import_table":
        request.max_content_length = IMPORT_REQUEST_BYTES
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            csrf.protect()


@bp.get("/import")
def import_page() -> str:
    return render_template("exchange/import.html", form=ImportForm())


@csrf.exempt
@bp.post("/import")
def import_table() -> Any:
    """Restore a table from its file as a new table in this browser, or say what is wrong. A
    form without a file is refused before the rate limit: only a file read spends a token."""
    form = ImportForm()
    if not form.validate_on_submit():
        return import_refused(first_error(form), 400)
    if too_often("import"):
        return import_refused(_("Too many imports from here in a short time. Wait ten minutes, "
                                "then try again."), 429)
    try:
        imported = exchange.read_table(form.file.data.read(exchange.MAX_IMPORT_BYTES + 1),
                                       SEAT_COLOURS)
    except exchange.BadFile as refused:
        return import_refused(text(refused.message), refused.status, form)
    table_id = storage.import_table(get_db(), imported.game.slug, imported.players,
                                    imported.events, imported.created_at,
                                    imported.status)
    # Replayed once, while the file was checked: its snapshot, and its result if it is finished.
    replays.kept_imported(get_db(), table_id, imported.game,
                          [p["name"] for p in imported.players], imported.table)
    remember(table_id, started_here=True)
    return redirect(url_for("main.table", slug=imported.game.slug, table_id=table_id), code=303)


def first_error(form: ImportForm) -> str:
    token = getattr(form, "csrf_token", None)  # absent where CSRF is switched off (tests)
    if token is not None and token.errors:
        return _("This form has expired or did not come from this app, so nothing was changed. "
                 "Go back, reload the page and try again.")
    if form.file.errors:
        return str(form.file.errors[0])
    return _("Choose the table file to import.")


def import_refused(message: str, status: int, form: ImportForm | None = None
                   ) -> tuple[str, int]:
    form = form or ImportForm(formdata=None)
    return render_template("exchange/import.html", form=form, error=message), status


@bp.errorhandler(RequestEntityTooLarge)
def too_large(error: RequestEntityTooLarge) -> tuple[str, int]:
    return import_refused(text(exchange.too_large()), 413)
