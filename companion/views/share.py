"""Several phones on one table: the scorers' link and QR code, the view-only scoreboard, the
change feed that keeps both up to date, revoking the links, and deleting the table."""

from __future__ import annotations

from ipaddress import ip_address
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from .. import storage
from ..app import get_db
from .clients import forget, owns, remember
from .tables import load_table, say_event, table_from_row

bp = Blueprint("share", __name__)
LAST_ACTIONS = 5


@bp.get("/<slug>/<table_id>/share")
def share(slug: str, table_id: str) -> str:
    """The links to hand over: scorers join by QR code or short link; a screen in the room
    follows the view-only scoreboard."""
    table = load_table(slug, table_id)
    remember(table.id)
    join = url_for("share.join", table_id=table.id, _external=True)
    board = url_for("share.board", view_token=table.view_token, _external=True)
    return render_template(
        "share/share.html", table=table, join=join, board=board, join_qr=qr_svg(join),
        board_qr=qr_svg(board), owner=owns(table.id), form=FlaskForm(),
        this_computer_only=on_loopback(),
    )


def on_loopback() -> bool:
    """Whether the links name this computer itself ("localhost", 127.0.0.1, ::1): the app was
    started without `--lan` and opened on the computer it runs on, so no other phone can open
    them."""
    try:
        host = urlsplit(f"//{request.host}").hostname or ""
    except ValueError:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def qr_svg(url: str) -> str:
    """A QR code as inline SVG (black on white, so every phone camera reads it, also in dark
    mode), scaled to the width of the screen by its viewBox: a long link (a play for BG Stats)
    makes a code wider than a phone."""
    code = segno.make(url, error="m")
    return str(code.svg_inline(scale=5, dark="#000", light="#fff", svgclass="qr", border=3,
                               omitsize=True))


@bp.get("/j/<table_id>")
def join(table_id: str) -> Response:
    """A second scorer joins: the table is remembered on this phone, which can then act."""
    row = storage.get_table(get_db(), table_id) or abort(404)
    remember(row["id"])
    return redirect(url_for("main.table", slug=row["game"], table_id=row["id"]), code=303)


@bp.post("/<slug>/<table_id>/renew")
def renew(slug: str, table_id: str) -> Any:
    """Revoke both links: the table gets a new scorers' link and a new scoreboard link; only
    the phone that started the table may do it."""
    table = load_table(slug, table_id)
    if not owns(table.id):
        abort(403)
    if not FlaskForm().validate_on_submit():
        abort(400)
    try:
        new_id = storage.renew_links(get_db(), table.id)
    except storage.GoneError:
        abort(404)  # renewed by another request meanwhile
    forget(table.id)
    remember(new_id, started_here=True)
    return redirect(url_for("share.share", slug=slug, table_id=new_id), code=303)


@bp.get("/<slug>/<table_id>/delete")
def delete_page(slug: str, table_id: str) -> str:
    """Deleting a table asks first: what goes (the game, its history and its results)."""
    table = load_table(slug, table_id)
    if not owns(table.id):
        abort(403)
    return render_template("share/delete.html", table=table, form=FlaskForm())


@bp.post("/<slug>/<table_id>/delete")
def delete(slug: str, table_id: str) -> Any:
    """Delete a table for good, with its log and results (the players' statistics lose it);
    only the phone that started it may, after the confirmation page."""
    table = load_table(slug, table_id)
    if not owns(table.id):
        abort(403)
    if not FlaskForm().validate_on_submit():
        abort(400)
    if not storage.delete_table(get_db(), table.id):
        abort(404)  # deleted or renewed by another request meanwhile
    forget(table.id)
    return redirect(url_for("share.deleted"), code=303)


@bp.get("/deleted")
def deleted() -> str:
    return render_template("error.html", title=_("Table deleted"), status=True,
                           message=_("The table was deleted, with its history and results."))


@bp.get("/board/<view_token>")
def board(view_token: str) -> str:
    """The view-only scoreboard: totals, the game's result or where it stands, the last
    actions. It shows nothing that leads to the scorers' link."""
    row = storage.get_table_by_view_token(get_db(), view_token) or abort(404)
    table = table_from_row(row)
    game = table.current
    shown = game.done[-LAST_ACTIONS:][::-1]
    events = storage.events_at(get_db(), table.id, list(shown))
    totals = game.state.totals()  # the players', ranked; then Dirk's, who cannot win, apart
    players = {p: n for p, n in totals.items() if p in table.names}
    apart = [(p, n) for p, n in totals.items() if p not in players]
    return render_template(
        "share/board.html", table=table, state=game.state, seq=game.last_seq,
        totals=sorted(players.items(), key=lambda item: -item[1]), apart=apart,
        last=[say_event(table, events[n]) for n in shown],
        poll=url_for("share.board_seq", view_token=view_token),
    )


@bp.get("/board/<view_token>/seq")
def board_seq(view_token: str) -> Response:
    row = storage.get_table_by_view_token(get_db(), view_token) or abort(404)
    return changes(row["id"])


@bp.get("/<slug>/<table_id>/seq")
def table_seq(slug: str, table_id: str) -> Response:
    """What a scorer's page polls to notice another phone's action. `companion.polls` answers
    it in front of the app; this route answers what that layer leaves to the app (a query, a
    table not found: 404)."""
    return changes(load_table(slug, table_id).id)


def changes(table_id: str) -> Response:
    """The table's last event number: a page showing an older one is out of date (the words
    it then says are on the page: base.html's `data-changed`)."""
    response = jsonify(seq=storage.last_seq(get_db(), table_id))
    response.headers["Cache-Control"] = "no-store"
    return response
