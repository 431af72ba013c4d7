"""What the app keeps for each browser and client: the tables a browser opened or started (its
session), rate limits per client address, and the headers of the files it downloads."""

from __future__ import annotations

from ipaddress import IPv6Address, ip_address, ip_network
from urllib.parse import quote

from flask import current_app, request, session

from .. import get_db, storage

MAX_REMEMBERED_TABLES = 40  # of each: opened, started here (the session cookie stays < 4 KB)
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
    """This browser's tables, most recently opened first, kept in its session cookie; the
    tables it started are its own (it may revoke their links)."""
    session.permanent = True
    tables = [table_id, *[t for t in session.get("tables", []) if t != table_id]]
    session["tables"] = tables[:MAX_REMEMBERED_TABLES]
    if started_here:
        session["owned"] = [table_id, *session.get("owned", [])][:MAX_REMEMBERED_TABLES]


def content_disposition(kind: str, filename: str) -> str:
    """The Content-Disposition header of a download ("attachment") or a PDF ("inline"), for any
    file name (RFC 6266): a name of plain ASCII as it is, any other with an ASCII stand-in and
    the name itself in UTF-8 (RFC 5987). A header of other characters cannot be sent at all."""
    plain = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-._") else "_"
                    for ch in filename)
    if plain == filename:
        return f'{kind}; filename="{filename}"'
    return f"{kind}; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"
