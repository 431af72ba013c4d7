"""What the app keeps for each browser and client: the tables a browser opened or started (its
session), rate limits per client address, and the headers of the files it downloads."""

from __future__ import annotations

import re
from datetime import date
from ipaddress import IPv6Address, ip_address, ip_network
from urllib.parse import quote

from flask import current_app, request, session

from .. import storage

# The tables a browser opened, and those it started (a mark is 16 characters: the session cookie
from ..app import get_db

# stays < 4 KB). The players' pages count the finished tables among those it opened.
MAX_REMEMBERED_TABLES = 100
MAX_OWNED_TABLES = 50
MARK = re.compile(r"[0-9a-f]{16}")
ALL_CLIENTS = 10  # the shared rate limit is this many clients' worth (`too_often`)


def too_often(action: str) -> bool:
    """Rate limits on the work that costs most (`RATE_LIMITS` in the config: action -> (times,
    seconds)): per client (`client_key`), and ALL_CLIENTS times as much for every client
    together, so that many addresses cannot add up to unbounded work either. Ask only once the
    request is known to do the work: a request refused for its form spends no one's tokens."""
    times, seconds = current_app.config["RATE_LIMITS"][action]
    db = get_db()
    return (storage.rate_limited(db, client_key(request.remote_addr), action, times, seconds)
            or storage.rate_limited(db, "*", action, times * ALL_CLIENTS, seconds))


def client_key(address: str | None) -> str:
    """Whose bucket a request spends from: an IPv4 address is one client, an IPv6 address its
    /64 (a home or phone is given a whole /64, so each of its addresses alone would be a client
    of its own, and a dozen of them would drain the shared bucket for everyone)."""
    try:
        ip = ip_address(address or "")
    except ValueError:
        return address or "?"
    if isinstance(ip, IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ip_network(f"{ip}/64", strict=False))
    return str(ip)


def remember(table_id: str, started_here: bool = False) -> None:
    """This browser's tables, most recently opened first, kept in its session cookie by their
    marks (`storage.mark_of`), never their links; the tables it started are its own (it may
    revoke their links and delete them)."""
    mark = storage.mark_of(table_id)
    today = date.today().isoformat()
    if session.get("day") != today:  # the cookie's 400 days count again, once a day
        session.permanent = True
        session["day"] = today
    if session.get("tables", [])[:1] != [mark]:  # else nothing changes: no new cookie
        session.permanent = True
        session["tables"] = [mark, *[t for t in my_tables() if t != mark]
                             ][:MAX_REMEMBERED_TABLES]
        session["owned"] = owned_tables()
    if started_here:
        session["owned"] = [mark, *[t for t in owned_tables() if t != mark]
                            ][:MAX_OWNED_TABLES]


def forget(table_id: str) -> None:
    """This browser no longer holds the table (deleted, or its links renewed)."""
    mark = storage.mark_of(table_id)
    session["tables"] = [t for t in my_tables() if t != mark]
    session["owned"] = [t for t in owned_tables() if t != mark]


def my_tables() -> list[str]:
    """The marks of the tables this browser opened or started, most recently opened first."""
    return marks(session.get("tables", []))


def owned_tables() -> list[str]:
    return marks(session.get("owned", []))


def owns(table_id: str) -> bool:
    """This browser started the table (or imported it): it may renew its links or delete it."""
    return storage.mark_of(table_id) in owned_tables()


def marks(kept: list[str]) -> list[str]:
    """Marks as the session keeps them; a table's link, as sessions kept it before marks, is
    read as its mark (and written back as one when the list next changes)."""
    return [t if MARK.fullmatch(t) else storage.mark_of(t) for t in kept if isinstance(t, str)]


def content_disposition(kind: str, filename: str) -> str:
    """The Content-Disposition header of a download ("attachment") or a PDF ("inline"), for any
    file name (RFC 6266): a name of plain ASCII as it is, any other with an ASCII stand-in and
    the name itself in UTF-8 (RFC 5987). A header of other characters cannot be sent at all."""
    plain = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-._") else "_"
                    for ch in filename)
    if plain == filename:
        return f'{kind}; filename="{filename}"'
    return f"{kind}; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"
