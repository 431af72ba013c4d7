"""The pages every game shares: home, a new table, the table page, history, printing."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from functools import lru_cache, partial
from importlib import import_module
from types import ModuleType
from typing import Any
from unicodedata import category
from urllib.parse import quote

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    send_from_directory,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from wtforms import (
    Field,
    FieldList,
    Form,
    FormField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.widgets import NumberInput, Select, TextInput

from .. import pdf, replays, storage
from ..app import get_db
from ..i18n import LANGUAGES, current_language, phone_day, text
from ..i18n import lazy_gettext as _l
from ..rules import GAMES, PadLine, RuleError, check_players, clean_name, find_game, score_pad
from ..rules.common import winners_text
from ..rules.log import about
from ..rules.names import NAME_CHARACTERS
from . import game_views
from .answers import reason
from .change import as_recorded
from .clients import content_disposition, my_tables, remember, too_often
from .forms import digits, new_action_key
from .pages import KEY_MARK, kept, kept_page, marked, marking, slot, table_page
from .players import known_players
from .tables import (
    COLOUR_NAMES,
    EARLIER_TABLES,
    SEAT_COLOURS,
    Table,
    load_table,
    say_event,
)

bp = Blueprint("main", __name__)
HISTORY_LINES = 100  # a history page's lines, newest first
SEAT_NAME = re.compile(r"players-(\d+)-name")  # a seat's name field, as FieldList names it
OPEN_SEATS = 4  # name rows the new-table form shows open at least (the rest: "More players")
HOME_TABLES = 5  # the home page lists this browser's latest tables, the new-table form below
# Opening a table page touches the table (`storage.touch`, for retention) this often at most.
TOUCHED_ONCE_A = timedelta(days=1)

PAD_CACHE_SECONDS = 86400  # a blank pad holds no names: caches may keep it a day (`pad_cache`)


class PlayerForm(Form):
    name = StringField(_l("Name"))
    colour = SelectField(_l("Colour"),
                         choices=[SelectChoice(c, COLOUR_NAMES[c]) for c in SEAT_COLOURS])


class NewTableForm(FlaskForm):
    # No game is chosen for a new browser (the home page offers the one of its latest table).
    game = RadioField(_l("Game"), choices=[SelectChoice(g.slug, g.name) for g in GAMES.values()])
    players = FieldList(FormField(PlayerForm), min_entries=6, max_entries=6)


def new_table_form() -> NewTableForm:
    form = NewTableForm()
    for seat, entry in enumerate(form.players):
        if not entry.colour.data or entry.colour.data == "None":
            entry.colour.data = SEAT_COLOURS[seat]
    return form


# The winners in every game's words, for the score sheets (templates/pdf/_sheet.html).
bp.add_app_template_global(winners_text)
bp.add_app_template_global(slot)  # what a page says of the tap it answers (pages.py)


@bp.app_template_global()
def plain_kind(field: Field) -> str | None:
    """How `_macros.html`'s `field` writes a field out by hand: "select", "number" or "text"
    for WTForms' own Select, NumberInput and TextInput widgets without extra attributes; None
    for any other (its widget writes it)."""
    if field.render_kw:
        return None
    widget = type(field.widget)
    if widget is Select and not field.widget.multiple and field.type == "SelectField":
        return None if any(choice.render_kw for choice in field.iter_choices()) else "select"
    if widget is NumberInput and field.type == "IntegerField":
        return "number"
    if widget is TextInput and field.type == "StringField":
        return "text"
    return None


@bp.app_template_global()
def action_key() -> str:
    """A one-time key for the action form being rendered (`_macros.html`, `action`); in a
    page made to be kept, its mark (`pages`: each request fills in a fresh key)."""
    return KEY_MARK if marking() else new_action_key()


@bp.get("/")
def home() -> Any:
    """The home page, made once per what it shows (`pages.kept_page`): the browser's tables
    as they stand and the names it knows; a new browser's is everyone's first page."""
    mine = my_tables()
    tables, known = storage.list_tables(get_db(), mine), known_players(get_db(), mine)
    shows = ("home", json.dumps(tables, sort_keys=True), tuple(known))
    return kept_page(shows, lambda: (marked(lambda: home_page(new_table_form(), None,
                                                              tables, known)), 200))


def home_page(form: NewTableForm, error: str | None = None,
              tables: list[dict[str, Any]] | None = None, known: list[str] | None = None) -> str:
    """This browser's latest tables (HOME_TABLES, open ones first; the others one tap away),
    and the form for a new one, which offers the game of the latest table again."""
    mine = my_tables()
    tables = storage.list_tables(get_db(), mine) if tables is None else tables
    return render_template("home.html", tables=tables[:HOME_TABLES], more=len(tables),
                           open_seats=OPEN_SEATS,
                           newest=max(tables, key=lambda t: t["created_at"], default=None),
                           games=GAMES, form=form, error=error,
                           known=known_players(get_db(), mine) if known is None else known)


@bp.get("/tables")
def your_tables() -> str:
    """Every table this browser holds (at most MAX_REMEMBERED_TABLES), open ones first."""
    return render_template("tables.html", tables=storage.list_tables(get_db(), my_tables()),
                           games=GAMES)


@bp.post("/new")
def new_table() -> Any:
    """Start a table: the game, then the names in seat order (blank seats are left out). The
    form and its players are checked before the rate limit: only a table started spends it."""
    form = new_table_form()
    if not form.validate_on_submit():
        if form.game.data is None:
            return home_with_error(form, _("Choose the game first: tap one of the games, then "
                                           "start it again."))
        if form.players.errors:
            return home_with_error(form, _("Choose each player's colour from its list."))
        return home_with_error(form, _("Choose a game and enter the players' names."))
    try:
        game = find_game(form.game.data)
        seats = [(clean_name(e.form.name.data or ""), e.form.colour.data) for e in form.players]
        seats = [(name, colour) for name, colour in seats if name]
        check_players(game, [name for name, _ in seats] + names_beyond(form))
        check_colours([colour for _, colour in seats])
    except RuleError as error:
        mark_seat(form, error)
        return home_with_error(form, reason(error))
    if too_often("new"):
        return home_page(form, _("Many tables were started from here just now: wait a few "
                                 "minutes, then try again.")), 429
    players = [{"name": name, "colour": colour} for name, colour in seats]
    db = get_db()
    earlier = storage.latest_tables(db, my_tables(), game.slug, "", EARLIER_TABLES)
    table_id = storage.create_table(db, game.slug, players, earlier)
    remember(table_id, started_here=True)
    return redirect(url_for("main.table", slug=game.slug, table_id=table_id), code=303)


def mark_seat(form: NewTableForm, error: RuleError) -> None:
    """The seat whose name a refusal names (too long, the automated opponent's, like another's)
    marked, the words under its field too (found at a table: "Jean-Baptiste Lefèvre-Dubois"
    refused at the page's top, its field unmarked)."""
    said = reason(error)
    name = getattr(said, "params", {}).get("name")
    if not isinstance(name, str) or not name:
        return
    for entry in form.players:  # a name too long is named by its first 24 characters
        seat = clean_name(entry.form.name.data or "")
        if seat == name or (len(seat) > NAME_CHARACTERS and seat.startswith(name)):
            entry.form.name.errors = [text(said)]
            return


def names_beyond(form: NewTableForm) -> list[str]:
    """The names a form sent for seats past its own (WTForms' FieldList reads its first
    max_entries and drops the rest): counted, so that a form with too many players is refused
    in words rather than started with some of them left out."""
    seats = (SEAT_NAME.fullmatch(key) for key in request.form)
    return [clean_name(request.form[seat.group(0)]) for seat in seats
            if seat and int(seat.group(1)) >= len(form.players)]


def check_colours(colours: list[str]) -> None:
    """Each seat its own colour: two seats alike could not be told apart on the page or pad."""
    twice = next((c for c in colours if colours.count(c) > 1), None)
    if twice is not None:
        raise RuleError(_("Two seats have the same colour (%(colour)s): choose another colour "
                          "for one of them.", colour=COLOUR_NAMES[twice]))


def home_with_error(form: NewTableForm, message: str) -> tuple[str, int]:
    return home_page(form, message), 422


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """What a phone needs to put the app on its home screen."""
    icons = [
        {"src": url_for("static", filename=f"icons/{name}"), "sizes": sizes, "type": kind,
         "purpose": purpose}
        for name, sizes, kind, purpose in (
            ("icon.svg", "any", "image/svg+xml", "any"),
            ("icon-192.png", "192x192", "image/png", "any"),
            ("icon-512.png", "512x512", "image/png", "any"),
            ("maskable-512.png", "512x512", "image/png", "maskable"),
        )
    ]
    body = {
        "name": _("Companion for city-building games"), "short_name": "Companion",
        "start_url": "/", "scope": "/", "display": "standalone", "lang": current_language(),
        "background_color": "#fbfaf7", "theme_color": "#0b57d0", "icons": icons,
    }
    return Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, served from the root so that it may look after the whole app."""
    response = send_from_directory(current_app.static_folder or "", "sw.js",
                                   mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The icon of a page that names none, such as a score sheet open in the browser's PDF
    viewer: the app's own (the pages name icons/icon.svg)."""
    return send_from_directory(current_app.static_folder or "", "icons/icon-192.png",
                               mimetype="image/png", max_age=86400)


@bp.get("/language/<code>")
def language(code: str) -> Response:
    """The language switch on every page: remembered for this browser, then back where it was."""
    if code not in LANGUAGES:
        abort(404)
    session.permanent = True
    session["language"] = code
    return redirect(same_site_path(request.args.get("next", "")) or url_for("main.home"),
                    code=303)


def same_site_path(path: str) -> str | None:
    """A path on this site to go back to (with its query and fragment: a table in change mode,
    at the form), quoted for the Location header, or None.

    Browsers drop tabs and line breaks from an address and read a backslash as a slash, so
    "/<tab>/evil.example" leads to another site: a path with any control or format character,
    line separator or backslash is refused, as is one that starts with two slashes."""
    if not path.startswith("/") or path.startswith("//"):
        return None
    if any(ch == "\\" or category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in path):
        return None
    return quote(path, safe="/-._~!$&'()*+,;=:@?#")


@bp.get("/<slug>/<table_id>/")
def table(slug: str, table_id: str) -> Any:
    """Every game's table page: the table at this link, remembered on this phone, drawn by its
    game's page (`GameViews.page`)."""
    loaded = load_table(slug, table_id)
    remember(loaded.id)
    if loaded.touched_at < storage.now(-TOUCHED_ONCE_A):  # as the table's row was read
        storage.touch(get_db(), loaded.id)
    views = game_views(slug)
    return table_page(loaded, partial(views.page, **as_recorded(loaded, views.actions)),
                      views.phone)


@bp.get("/<slug>/<table_id>/history")
def table_history(slug: str, table_id: str) -> Any:
    """The table's history as a score pad: every tap, newest first (`?order=oldest`: from the
    start, for a fix far back), with its points, at most HISTORY_LINES a page (`?page=2` goes
    on). The pad is worked out once per state of
    the table and kept beside it, so many phones reading a long table's history cost one
    replay, and a page costs what its lines do."""
    table = load_table(slug, table_id)
    remember(table.id)
    return kept(table, "history", (), lambda: (history_page(table), 200))


def page_of(lines: list[PadLine], seq: int | None) -> int:
    """The history's page (newest first, or `?order=oldest`) that holds action `seq`'s line
    (`?at=`, where a change's Cancel leads: its first page held no line of a change far back);
    the first if it holds none."""
    at = next((i for i, line in enumerate(lines) if line.entry.event.seq == seq), None)
    if at is None:
        return 1
    if request.args.get("order") == "oldest":
        return at // HISTORY_LINES + 1
    return (len(lines) - 1 - at) // HISTORY_LINES + 1


def history_page(table: Table) -> str:
    """One page of the history (HISTORY_LINES of its lines, `?page=`), from its score pad."""
    pad = replays.MEMORY.worked_out("history", table.id, table.current, lambda state: score_pad(
        table.game, table.names, storage.events(get_db(), table.id)))
    pages = max(1, -(-len(pad.lines) // HISTORY_LINES))
    page = request.args.get("page", type=int)
    if page is None:
        page = page_of(pad.lines, request.args.get("at", type=int))
    if not 1 <= page <= pages:
        abort(404)
    if request.args.get("order") == "oldest":
        lines = pad.lines[(page - 1) * HISTORY_LINES:page * HISTORY_LINES]
        return render_template("history.html", table=table, lines=lines, oldest=True,
                               start=pad.start if page == 1 else None, page=page, pages=pages)
    newest = len(pad.lines) - (page - 1) * HISTORY_LINES
    lines = pad.lines[max(0, newest - HISTORY_LINES):newest]
    return render_template("history.html", table=table, lines=list(reversed(lines)),
                           start=pad.start if page == pages else None, page=page, pages=pages)


@bp.get("/<slug>/<table_id>/sheet.pdf")
def score_sheet(slug: str, table_id: str) -> Any:
    """The table's filled score sheet: every scoring and how it came about. The table is found
    before the rate limit (an unknown one spends no token). It holds the players' names, so no
    cache keeps it (`no-store`), as with the table's other files."""
    table = load_table(slug, table_id)
    size = pdf.page_size(request.args.get("size"))
    if too_often("sheet"):
        return render_template("error.html", message=_(
            "Many score sheets were printed from here just now: wait a minute, then try "
            "again.")), 429
    body = pdf.render_pdf(f"{slug}/sheet.html", table=table, state=table.current.state,
                          size=size, rules=game_rules(slug), corrections=corrections(table))
    return pdf_response(body, f"{slug}-score-sheet-{phone_day(table.created_at)}.pdf", "no-store")


def corrections(table: Table) -> list[tuple[str, str]]:
    """The corrections in force, each with the actions it is about as the history numbers them
    ("#39", found missing at a table: which action was it?), in words with what they were
    for: each change of a past action, and each action that carries a reason (a count, an
    amount or an effect set by hand)."""
    done = set(table.current.done)
    return [(", ".join(f"#{seq}" for seq in about(event)), text(say_event(table, event)))
            for event in storage.corrections(get_db(), table.id) if event.seq in done]


@bp.get("/pad/<slug>.pdf")
def blank_pad(slug: str) -> Response:
    """A blank score pad to print, for the number of players asked for, in the request's
    language (by its cookie, else Accept-Language: a cache keeps one per language)."""
    game = GAMES.get(slug) or abort(404)
    asked = request.args.get("players", str(game.players.stop - 1))  # none asked: the most
    players = int(asked) if digits(asked) else 0  # "abc", "2.5": refused, not the most (audit)
    if players not in game.players:
        abort(make_response(render_template("error.html", message=_(
            "A score pad of %(game)s is for %(least)s to %(most)s players.", game=text(game.name),
            least=game.players.start, most=game.players.stop - 1)), 404))
    size = pdf.page_size(request.args.get("size"))
    body = blank_pad_pdf(slug, players, size, current_language())
    response = pdf_response(body, f"{slug}-score-pad-{players}.pdf", pad_cache())
    response.vary.add("Accept-Language")
    return response


BLANK_PADS_KEPT = 128


def pad_cache() -> str:
    """A blank pad holds no names and is the same for everyone: any cache may keep it for a
    day, a shared one only when the request has no session (a browser's session cookie is sent
    back with the answer, and no shared cache may keep that)."""
    if current_app.config["SESSION_COOKIE_NAME"] in request.cookies:
        return f"private, max-age={PAD_CACHE_SECONDS}"
    return f"public, max-age={PAD_CACHE_SECONDS}"


@lru_cache(maxsize=BLANK_PADS_KEPT)
def blank_pad_pdf(slug: str, players: int, size: str, language: str) -> bytes:
    """A blank pad is the same for every table: rendered once per game, player count, size and
    language in a process, then served from memory (the view lets through fewer combinations
    than BLANK_PADS_KEPT; the bound holds whatever it lets through). `language` is the
    request's, in which it is rendered."""
    return pdf.render_pdf(f"{slug}/pad.html", game=GAMES[slug], players=players, size=size,
                          rules=game_rules(slug))


def game_rules(slug: str) -> ModuleType:
    """The game's rules module (`companion.rules.<slug>`), for its print templates."""
    return import_module(f"companion.rules.{slug}")


def pdf_response(body: bytes, filename: str, cache_control: str) -> Response:
    """A PDF shown in the browser, with how long caches may keep it (every caller says)."""
    return Response(
        body,
        mimetype="application/pdf",
        headers={"Content-Disposition": content_disposition("inline", filename),
                 "Cache-Control": cache_control},
    )
