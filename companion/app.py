"""The table companion: a Flask app that keeps score and referees board games on a phone."""

from __future__ import annotations

import hashlib
import os
import secrets
import sqlite3
import tempfile
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from flask import Flask, Response, current_app, g, jsonify, render_template, request, url_for
from flask.sessions import SecureCookieSessionInterface
from flask.templating import Environment
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException, InternalServerError, NotFound
from werkzeug.middleware.proxy_fix import ProxyFix

from . import assets, i18n, replays, storage
from .rules import GAMES

ROOT = Path(__file__).resolve().parent.parent
csrf = CSRFProtect()
# Token buckets per client address (views/clients.py, `too_often`): action -> (times, seconds).
# An export reads a table's whole log (up to MAX_EVENTS events), so it shares them too.
RATE_LIMITS = {"new": (60, 600), "import": (20, 600), "sheet": (30, 300), "export": (30, 300)}

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


# Every answer's headers (`security_headers`; the table page's poll sends them too: polls.py).
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app factory: config from instance/, a generated secret key, blueprints, headers."""
    app = Companion(
        __name__,
        instance_path=os.environ.get("COMPANION_INSTANCE", str(ROOT / "instance")),
        instance_relative_config=True,  # instance/config.py
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    owner_only(Path(app.instance_path))
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "companion.sqlite"),
        MAX_CONTENT_LENGTH=64 * 1024,
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        # The cookie is sent again only when the session changes, which a table page makes it
        # do once a day (views/clients.remember): not on every page.
        SESSION_REFRESH_EACH_REQUEST=False,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,
        RATE_LIMITS=RATE_LIMITS,
        # Without JavaScript, a form from the page this phone's last action loaded, sent sooner
        # than this after that page was made, is the second tap of a double tap
        # (views/taps.py, `ghost_tap`): as app.js holds a tap where the page moved under it,
        # for the new page stands where its answer is, not where the thumb was.
        GHOST_TAP_SECONDS=1.0,
        # A table page is made once per state of the table for the phones that show it
        # (views/pages.py); False makes every page afresh (tests compare the two).
        KEEP_PAGES=True,
        # A write waits this long for another's write lock, then is answered 503 (`busy`).
        DATABASE_TIMEOUT=10.0,
        # `python -m companion prune` deletes the tables untouched for this many days.
        RETENTION_DAYS=365,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    app.config["RATE_LIMITS"] = {**RATE_LIMITS, **app.config["RATE_LIMITS"]}
    from .polls import Polls

    # answered here, and by the worker's poller before any thread (`companion.serving`)
    app.wsgi_app = app.extensions["companion.polls"] = Polls(  # type: ignore[method-assign]
        app, app.wsgi_app)
    if app.config.get("PROXY_FIX"):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))

    prepare_database(app.config["DATABASE"], app.config["DATABASE_TIMEOUT"])

    app.session_interface = SessionInterface()
    csrf.init_app(app)
    i18n.init_app(app)
    assets.init_app(app)
    app.extensions["companion.connections"] = threading.local()  # see get_db
    app.teardown_appcontext(close_db)
    app.after_request(security_headers)
    app.after_request(relative_location)
    app.register_error_handler(CSRFError, csrf_failed)
    app.register_error_handler(404, not_found)
    app.register_error_handler(storage.GoneError, table_gone)
    app.register_error_handler(405, not_found)  # an action's link opened as a page
    app.register_error_handler(403, not_allowed)
    app.register_error_handler(HTTPException, refused_request)  # any other 4xx
    app.register_error_handler(InternalServerError, unexpected_error)
    app.register_error_handler(sqlite3.OperationalError, busy)
    app.register_error_handler(sqlite3.DatabaseError, database_fault)
    app.context_processor(damage_said)

    from .views import actions, exchange, game_views, main, players, share

    for blueprint in (main.bp, actions.bp, share.bp, exchange.bp, players.bp):
        app.register_blueprint(blueprint)
    for slug in GAMES:  # each game's own pages, if it has any
        views = game_views(slug)
        if views.blueprint is not None:
            app.register_blueprint(views.blueprint)
    return app


def prepare_database(path: str, timeout: float) -> None:
    """Start-up: a damaged file is refused (storage.DamagedError, which says what to do);
    else the schema is brought up to date, also when another server starts at the same time."""
    db = storage.connect(path, timeout)
    try:
        storage.check(db, path)
        storage.migrate(db)
        replays.upgrade_logs(db)
        replays.score_unscored(db)
    finally:
        db.close()


class Templates(Environment):
    """Flask's templates, each with its globals in one dict (Jinja's are a ChainMap over the
    environment's). At each `{% from ... import ... %}` (a table page makes six to twelve),
    Jinja compares the page's globals with the imported template's name by name, and through
    a ChainMap that took about a twentieth of the page's making. The app sets every global as
    it is made (`create_app`), before any template is loaded; a template loaded earlier would
    miss a later one (`test_every_template_sees_every_global`)."""

    def make_globals(self, d: Any) -> dict[str, Any]:
        return {**self.globals, **(d or {})}


class Companion(Flask):
    """The Flask app, with its unexpected errors logged without a table's secret link."""

    jinja_environment = Templates

    def log_exception(self, exc_info: Any) -> None:
        """An unexpected error, to the server's log (stderr: gunicorn's error log): the route
        as declared and the table by a short id (a digest), never the link itself."""
        self.logger.error("Unexpected error in %s %s (table %s)", request.method,
                          request.url_rule.rule if request.url_rule else "?",
                          short_table_id(), exc_info=exc_info)


def short_table_id() -> str:
    """A table's short id for the log: the start of a digest of its id, which is its link's
    secret; '-' outside a table."""
    table_id = (request.view_args or {}).get("table_id")
    if not isinstance(table_id, str):
        return "-"
    return short_id(table_id)


def short_id(secret: str) -> str:
    """What the logs say for a link's secret: the first 8 hex digits of its SHA-256."""
    return hashlib.sha256(secret.encode()).hexdigest()[:8]


SECRETS = ("table_id", "view_token")  # the route arguments that are a link's secret


def logged_path() -> str:
    """The request's path for the access log, rebuilt from the route it matched with each
    secret (a table's id, a scoreboard's token) replaced by its short id, without the query.
    A path that matched no route (unknown, or redirected to add a slash) is logged as its first
    segment only: what follows may be a secret."""
    rule, args = request.url_rule, dict(request.view_args or {})
    if rule is None:
        first, _, rest = request.path.lstrip("/").partition("/")
        return "/" + quote(first) + ("/..." if rest else "")
    for name in SECRETS:
        if isinstance(args.get(name), str):
            args[name] = short_id(args[name])
    built = rule.build(args, append_unknown=False)
    return built[1] if built else rule.rule


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie (HttpOnly, SameSite=Lax) is also Secure whenever the request came
    over HTTPS (behind a TLS proxy, set PROXY_FIX in instance/config.py)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def owner_only(instance: Path) -> None:
    """The instance folder (database, secret key, configuration) is its owner's alone, also
    when it was made before with wider permissions; so is its database. The database's WAL
    and shared-memory files take the database's permissions from SQLite."""
    instance.mkdir(mode=0o700, parents=True, exist_ok=True)
    instance.chmod(0o700)
    for path in instance.glob("companion.sqlite*"):
        try:
            path.chmod(0o600)
        except FileNotFoundError:  # a journal another server's SQLite just removed
            pass


def instance_secret_key(instance: Path) -> str:
    """The secret key kept in instance/secret_key, generated on first run (owner-only file).
    It appears whole or not at all (written aside, then linked in place, which fails if it is
    there), so two servers starting at once both read the one key the first one made."""
    path = instance / "secret_key"
    if not path.exists():
        fd, aside = tempfile.mkstemp(dir=instance, prefix=".secret_key.")  # owner-only
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
            os.link(aside, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(aside)
    return path.read_text().strip()


def get_db() -> storage.Database:
    """This thread's connection to the app's database, on `g` for the request. A server thread
    keeps its connection from request to request: opening one cost more than most pages, and
    closing the last one of a WAL database checkpoints it. It is never used by another process
    (a forked worker opens its own) or thread."""
    if "db" not in g:
        g.db = thread_db(current_app)
    return g.db


def thread_db(app: Flask) -> storage.Database:
    """This thread's connection to `app`'s database, opened on its first use in this process
    and kept (`get_db`)."""
    kept: threading.local = app.extensions["companion.connections"]
    if getattr(kept, "pid", None) != os.getpid():
        kept.db = storage.connect(app.config["DATABASE"], app.config["DATABASE_TIMEOUT"])
        kept.pid = os.getpid()
    return kept.db  # type: ignore[no-any-return]


def close_db(exc: BaseException | None = None) -> None:
    """The end of a request: the connection stays open for the thread's next one, never inside
    a transaction (a write rolls its own back on an error; this is the backstop)."""
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()


def security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS:
        response.headers[name] = value
    if response.mimetype == "text/html":
        response.headers["Cache-Control"] = html_cache_control(response)
    return response


def relative_location(response: Response) -> Response:
    """Every redirect leads to a path of this app, never to the host a request named: Werkzeug's
    own redirects (a doubled or missing slash) build an absolute address from the Host header,
    which a forged request may set to any host."""
    location = response.headers.get("Location")
    if location:
        parts = urlsplit(location)
        if parts.scheme or parts.netloc:
            response.headers["Location"] = urlunsplit(("", "", parts.path or "/", parts.query,
                                                       parts.fragment))
    return response


# The table page, when players come back to it from History with the back button, is shown
# again from the browser's back/forward cache (which `no-store` forbids) instead of loaded and
# drawn anew; app.js checks the table's seq before showing it (issue 28).
BACK_FORWARD_PAGES = frozenset({"main.table"})


def html_cache_control(response: Response) -> str:
    """No page is ever taken from a cache without asking the server: `no-store` for every page,
    except a table page answering a GET, which is `private, no-cache`: never kept by a shared
    cache (its address and forms are the table's secret), and revalidated before any reuse
    from the phone's HTTP cache (there is no validator, so it is always sent anew); only the
    back/forward cache may show it again, and app.js checks its seq first."""
    if (request.method == "GET" and response.status_code == 200
            and request.endpoint in BACK_FORWARD_PAGES):
        return "private, no-cache"
    return "no-store"


def not_found(error: HTTPException) -> tuple[str, int]:
    """An unknown or revoked link (or an action's, opened as a page): said in the players'
    language, with the way home."""
    message = _(
        "There is nothing at this link. If it was a table's link, the table may have new links "
        "now: ask the phone that started it to share the table again."
    )
    return render_template("error.html", message=message, title=_("Not found")), error.code or 404


def table_gone(error: storage.GoneError) -> tuple[str, int]:
    """A table deleted, or its links renewed, while a request read it: what a reload shows."""
    return not_found(NotFound())


def unexpected_error(error: InternalServerError) -> tuple[str, int]:
    """A bug or a fault of the server: said in the players' language, with the way back to the
    table (the error is in the server's log, `Companion.log_exception`)."""
    message = _(
        "Something went wrong on our side. Nothing that was recorded is lost; the tap that "
        "failed was not recorded. Go back to the table, reload it and try again."
    )
    return render_template("error.html", message=message, title=_("Something went wrong"),
                           back=back_to_table()), 500


def back_to_table() -> str | None:
    """The table page the failed request came from (an action's, a page's), if any."""
    args = request.view_args or {}
    slug = args.get("slug") or request.blueprint
    return (url_for("main.table", slug=slug, table_id=args["table_id"])
            if "table_id" in args and slug in GAMES else None)


def not_allowed(error: HTTPException) -> tuple[str, int]:
    """What only the phone that started a table may do (renew its links, delete it), asked of
    another: said in the players' language, with the way back to the table."""
    message = _("Only the phone that started this table may renew its links or delete it: ask "
                "the player whose phone that is.")
    return render_template("error.html", message=message, title=_("Not allowed"),
                           back=back_to_table()), 403


def refused_request(error: HTTPException) -> Any:
    """Any other refusal of a request (a form that cannot be read, too large, too many): the
    app's own page in the players' language, with the way back to the table. A redirect or an
    error of the server is left to its own handling."""
    code = error.code or 500
    if code < 400 or code >= 500:
        return error
    message = _("This request could not be taken, so nothing was changed. Go back to the "
                "table, reload it and try again.")
    return render_template("error.html", message=message, back=back_to_table()), code


def csrf_failed(error: CSRFError) -> tuple[str, int]:
    message = _(
        "This form has expired or did not come from this app, so nothing was changed. "
        "Go back, reload the page and try again."
    )
    return render_template("error.html", message=message), 400


def damage_said() -> dict[str, Any]:
    """Every page says so while the database is marked damaged (`storage.examine`)."""
    return {"damaged": storage.damage(current_app.config["DATABASE"]) is not None}


def database_fault(error: sqlite3.DatabaseError) -> Any:
    """An error of the database file (not a busy lock): SQLite's quick_check looks at it; if
    it is damaged, it is marked so (nothing more is written to it, and every page says so with
    what to do), and the answer says so (503); the operator's words go to the server's log. An
    error that is no damage is the unexpected error it is."""
    path = current_app.config["DATABASE"]
    found = storage.damage(path) or storage.examine(path)
    if found is None:
        raise error
    current_app.logger.error("%s", found)
    return unavailable(_("The database of this server is damaged, so nothing more is recorded. "
                         "What can still be read is shown. Ask whoever runs the server to "
                         "restore its last backup (each table can also be exported from its "
                         "history)."), _("Damaged"))


def busy(error: sqlite3.OperationalError) -> Any:
    """Another process held the database's write lock past the busy timeout: nothing was
    recorded, and the same tap succeeds in a moment. 503 with Retry-After, said in the players'
    language (to app.js, which shows it beside the tapped control, as words to show). Any other
    OperationalError is a fault of the file (`database_fault`)."""
    if not storage.busy(error):
        return database_fault(error)
    answer = unavailable(_("The server is busy writing something else just now, so this was "
                           "not recorded. Try again in a few seconds."), _("Busy"))
    answer.headers["Retry-After"] = "5"
    return answer


def unavailable(message: str, title: str) -> Response:
    """A 503 in the players' language: to app.js as words to show beside the tapped control,
    else the error page with the way back to the table."""
    if request.headers.get("X-Companion") == "fetch":
        answer = jsonify({"refused": message})
    else:
        answer = Response(render_template("error.html", message=message, title=title,
                                          back=back_to_table()))
    answer.status_code = 503
    return answer
