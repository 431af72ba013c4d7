"""A table page made once per state of the table, for every phone that shows it (issue 28).

The phones at a table each load its page after every action, and the page is the same for all
of them but for what is each phone's own: its forms' CSRF token and one-time action keys, and
what a game shows of the phone itself (`GameViews.phone`: a saved board, the cards it saw at
its earlier tables). So a page is made once per (table, last event, language, query, what the
phone adds) with marks where the token and the keys go, kept in the worker's memory, and each
request fills in fresh ones: a page costs a string join, not a template.

The page that answers an action is that page too: what it says of the tap it answers (the
strip's line, the line read out, `main`'s class) is drawn in slots (`slot`), which an answer
fills with its own (`tables.answer_slots`). So an action's answer and the other phones' loads
after it make the page once between them. Made afresh every time, and never kept: a page in
change mode, and a refusal (any page not made by `table_page`). The history is kept the same
way (it has no forms), and so is the home page, per the tables it lists (the same for every new
browser).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from functools import partial
from typing import Any

from flask import Response, after_this_request, current_app, g, request
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from .. import storage
from ..app import get_db
from ..i18n import current_language
from .forms import new_action_key
from .tables import Table, answer_slots

KEPT_PAGES = 64  # per worker: a few tables' pages, in each language and fold-out shown
# Where a page made to be kept has its CSRF token and each form's one-time key. The marks are
# random per process, so no name a player types can be one (names are escaped, and unknown).
CSRF_MARK = f"csrf{secrets.token_hex(16)}"
KEY_MARK = f"key{secrets.token_hex(16)}"
# Where a slot begins ("<SLOT_MARK>[name]") and ends ("<SLOT_MARK>[/name]").
SLOT_MARK = f"slot{secrets.token_hex(16)}"
MARKS = re.compile(rf"({CSRF_MARK}|{KEY_MARK}|{SLOT_MARK}\[/?[a-z]+\])")


class Kept:
    """The pages this worker's app made last, each split at its marks; the least recently used
    go first. Thread-safe."""

    def __init__(self, size: int = KEPT_PAGES):
        self.size = size
        self.lock = threading.Lock()
        self.pages: OrderedDict[Hashable, list[str]] = OrderedDict()

    def get(self, key: Hashable) -> list[str] | None:
        with self.lock:
            parts = self.pages.get(key)
            if parts is not None:
                self.pages.move_to_end(key)
            return parts

    def keep(self, key: Hashable, parts: list[str]) -> None:
        with self.lock:
            self.pages[key] = parts
            self.pages.move_to_end(key)
            while len(self.pages) > self.size:
                self.pages.popitem(last=False)

    def forget(self) -> None:
        with self.lock:
            self.pages.clear()


def kept_pages() -> Kept:
    """The app's kept pages (each app its own: another app may differ in its configuration,
    as the tests' apps do in CSRF)."""
    found = current_app.extensions.get("companion.pages")
    return found if found is not None else current_app.extensions.setdefault(
        "companion.pages", Kept())


def table_page(table: Table, page: Callable[[Table], Any],
               phone: Callable[[Table], Hashable]) -> Any:
    """The table page as it stands (`page(table)`, a game's page), made once for every phone
    that shows this state of the table with what `phone` says of it, and filled in with this
    request's CSRF token, fresh action keys and, if it answers a tap, what it says of it."""
    if not keepable(table):
        return landed(*page(table))
    answer = answer_slots(table)  # taken before the page is made: a kept page says none
    return landed(*kept(table, "table", phone(table), lambda: with_marks(table, page), answer))


# The part of a page an action's answer brings into view (app.js, `intoView`).
INTO_VIEW = re.compile(r'<[a-z0-9]+\s[^>]*?data-into-view="(?:[^"]*\s)?(?:answer|done|undone)'
                       r'(?:\s[^"]*)?"')


def landed(html: str, status: int) -> tuple[str, int]:
    """Without JavaScript, the page an action's answer loaded, at the address of the tapped
    form's place (`answers.anchor`, `tables.just_recorded`): where that form is gone from it (a
    scoring's button, the last pass of a phase: found at tables, the page came back at its
    top), that place is the part the answer brings into view, as app.js shows it."""
    at = g.pop("landing", None)
    if not at or f'id="{at}"' in html or not (found := INTO_VIEW.search(html)):
        return html, status
    place = str(Markup('<span class="landing" id="{}"></span>').format(at))
    return html[:found.start()] + place + html[found.start():], status


def kept(table: Table, name: str, phone: Hashable, make: Callable[[], Any],
         answer: Mapping[str, str] | None = None) -> Any:
    """A page of the table as it stands (`make()`: (html, status)), made once per state of
    the table, language, query and what it shows of the phone, and filled in per request."""
    return kept_page((name, table.id, table.view_token, table.current.last_seq, phone), make,
                     answer)


def kept_page(shows: Hashable, make: Callable[[], Any],
              answer: Mapping[str, str] | None = None) -> Any:
    """A page (`make()`: (html, status)) made once per what it `shows`, language and query,
    and filled in per request (with the `answer`'s slots, if it answers a tap); a page that
    is not a 200 is never kept."""
    if not current_app.config["KEEP_PAGES"] or storage.damage(current_app.config["DATABASE"]):
        html, status = make()  # a damaged database: every page says so
        return filled(MARKS.split(html), answer), status
    key = (shows, current_language(), request.query_string)
    parts = kept_pages().get(key)
    if parts is None:
        name, db = page_name(key), get_db()
        html = storage.shared_page(db, name)
        if html is None:
            html, status = make()
            if status != 200:
                return filled(MARKS.split(html), answer), status
            share_when_answered(db, name, html)
        parts = MARKS.split(html)
        kept_pages().keep(key, parts)
    return filled(parts, answer), 200


def share_when_answered(db: storage.Database, name: str, html: str) -> None:
    """Store the page made for the other workers (`storage.share_page`) once this request's
    answer has been sent (the WSGI server closes it): the phone that tapped waits for nothing
    only the others need (a write, 0.5 ms alone, longer behind other writers). A phone of the
    other worker that asks for the page before it is stored makes it itself, as it would."""
    @after_this_request
    def share(response: Response) -> Response:
        response.call_on_close(partial(storage.share_page, db, name, html))
        return response


def page_name(key: Hashable) -> str:
    """A kept page's name for the other workers (`storage.pages`): a digest of what it shows,
    its language and query, and of this server's marks (random per start: a page stored by an
    earlier start, with its own marks and maybe its own templates, is never taken)."""
    return hashlib.sha256(repr((CSRF_MARK, KEY_MARK, key)).encode()).hexdigest()


def keepable(table: Table) -> bool:
    """A page shown the same to every phone at this state (but for an answer's slots): not
    change mode."""
    return current_app.config["KEEP_PAGES"] and table.changing is None


def with_marks(table: Table, page: Callable[[Table], Any]) -> Any:
    """The table's page made with marks (`marked`)."""
    return marked(lambda: page(table))


def marked(make: Callable[[], Any]) -> Any:
    """A page made with marks for the CSRF token (Flask-WTF takes a request's token from
    `g`) and the action keys (`main.action_key`)."""
    g.csrf_token, g.marking = CSRF_MARK, True
    try:
        return make()
    finally:
        del g.csrf_token, g.marking


def marking() -> bool:
    """A page to be kept is being made: an action key is a mark, filled in per request."""
    return bool(g.get("marking"))


def slot(name: str, caller: Callable[[], str]) -> Markup:
    """`{% call slot(name) %}...{% endcall %}`: what a page says of the tap it answers, drawn
    as it is; in a page made to be kept, between marks, where an answer puts its own
    (`filled`)."""
    if not marking():
        return Markup(caller())  # a macro's output, escaped by Jinja
    return Markup("{0}[{1}]{2}{0}[/{1}]").format(SLOT_MARK, name, caller())


def filled(parts: list[str], answer: Mapping[str, str] | None = None) -> str:
    """A kept page with this request's CSRF token and a fresh key for each form; each slot
    (`slot`) with what the `answer` puts there, or else as it was drawn."""
    if len(parts) == 1:
        return parts[0]
    token, out, skipped = generate_csrf(), [], None
    for part in parts:
        if skipped is not None:  # the slot's own, until its end
            if part == f"{SLOT_MARK}[/{skipped}]":
                skipped = None
        elif part == CSRF_MARK:
            out.append(token)
        elif part == KEY_MARK:
            out.append(new_action_key())
        elif part.startswith(SLOT_MARK):
            name = part[len(SLOT_MARK) + 1:-1]
            if answer is not None and name in answer:
                out.append(answer[name])
                skipped = name
        else:
            out.append(part)
    return "".join(out)
