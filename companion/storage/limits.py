"""Rate limits: a token bucket for each client and action."""

from __future__ import annotations

import time

from sqlite_utils import Database

from .database import write_transaction


def rate_limited(db: Database, client: str, action: str, limit: int, seconds: int,
                 now: float | None = None) -> bool:
    """Take one `action` by `client` from its token bucket: it holds `limit` tokens and refills
    at `limit` per `seconds`, so no stretch of time allows more than `limit` plus what refilled
    in it (a fixed window allowed twice the limit across its boundary). True when the bucket is
    empty: then the action must not be done. A clock stepped back counts as no time passed, and
    a bucket never holds fewer than 0 tokens, so a refusal never outlasts one refill."""
    now = time.time() if now is None else now
    rate = limit / seconds
    with write_transaction(db):
        row = db.execute("select tokens, at from rate_buckets where client = ? and action = ?",
                         [client, action]).fetchone()
        tokens = float(limit) if row is None else refilled(row[0], now - row[1], rate, limit)
        refused = tokens < 1
        db.execute(
            "insert into rate_buckets (client, action, tokens, at) values (?, ?, ?, ?) "
            "on conflict (client, action) do update set tokens = excluded.tokens, "
            "at = excluded.at",
            [client, action, tokens if refused else tokens - 1, now],
        )
        # a bucket untouched for `seconds` is full again: as good as none
        db.execute("delete from rate_buckets where action = ? and at < ?",
                   [action, now - seconds])
    return refused


def refilled(tokens: float, elapsed: float, rate: float, limit: int) -> float:
    """A bucket's tokens after `elapsed` seconds at `rate`: between 0 and `limit`, and no
    refill (nor drain) for a negative `elapsed` (the clock stepped back)."""
    return min(float(limit), max(0.0, tokens + max(0.0, elapsed) * rate))
