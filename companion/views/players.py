"""Players remembered across tables: finished tables per game, and each player's statistics.

Statistics belong to a group: a browser sees the finished tables among its own (those it started,
imported or opened: `clients.my_tables`, at most MAX_REMEMBERED_TABLES), never other people's on
this server; a stranger sees none. So a page reads at most that many stored results, whatever the
server holds. Nothing here links to a table: a table's link is its scorers' secret.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for
from flask_babel import format_decimal
from flask_babel import gettext as _

from .. import storage
from ..app import get_db
from ..players import (
    Finished,
    by_game,
    chart,
    display_name,
    from_json,
    known_names,
    player_stats,
    records,
)
from ..rules import GAMES
from ..rules.common import ordinal
from .clients import MAX_REMEMBERED_TABLES, my_tables

bp = Blueprint("players", __name__)

# The finished tables listed per game, newest first: a page costs the same with 30 or 3,000.
SHOWN_PER_GAME = 20


def known_players(db: storage.Database, tables: list[str]) -> list[str]:
    """Every person who sat at these tables (a browser's own, by their marks), most tables
    first (for a <datalist>): never the names other people entered on this server."""
    return known_names(storage.table_players(db, tables))


def finished_tables() -> list[Finished]:
    """The result of each finished table among this browser's, as kept when it finished (no
    log is read), each game once (`storage.results`: an imported copy is not a second game)."""
    return [from_json(text) for text in storage.results(get_db(), my_tables())]


@bp.app_template_global()
def player_url(name: str) -> str:
    """A player's page; names a browser would change in a path (slashes, dots) go in the query."""
    if "/" in name or name in (".", ".."):
        return url_for("players.index", name=name)
    return url_for("players.player", name=name)


@bp.get("/players")
def index() -> Any:
    """Finished tables per game and everyone who played them."""
    if request.args.get("name"):
        return player(request.args["name"])
    tables = finished_tables()
    return render_template("players/index.html", games=GAMES, grouped=by_game(tables),
                           records=records(tables), ordinal=ordinal,
                           shown=SHOWN_PER_GAME, most=MAX_REMEMBERED_TABLES)


@bp.get("/players/<path:name>")
def player(name: str) -> Any:
    """One player's record per game: played, wins, average and best score, and a chart."""
    tables = finished_tables()
    shown = display_name(tables, name)
    if shown is None:
        message = _("Nobody called %(name)s has finished a game at this phone's tables yet.",
                    name=name[:40])
        return render_template("error.html", message=message), 404
    stats = player_stats(tables, shown)
    charts = {s.game: chart([score.total for score in s.scores]) for s in stats}
    return render_template("players/player.html", name=shown, stats=stats, charts=charts,
                           games=GAMES, decimal=decimal,
                           ordinal=ordinal)


def decimal(value: Any) -> str:
    return str(format_decimal(value, "0.0"))
