"""The scoring action under load: yard purchases, each POSTed with the table's current seq and
a one-time action key of its own (made a minute old, as a phone's form would be).

Each wrk thread has one connection and its own phone session (cookie and CSRF token) and owns
its own yard tables: it buys the game's 54 building cards on one table, one purchase per
request (seq 0, 1, ... 53, each answered 303), then moves on to its next fresh table. So every
request writes one event, and a table never holds more than a real game's 54 purchases.
"""

from __future__ import annotations

import json
import math
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import games
import wrk

from companion import storage

TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
BUYS = [urllib.parse.urlencode({"player": p["player"], "building": p["building"],
                                "receiver": ""}) for _, p in games.yard_buys(games.PLAYERS["yard"])]
PER_TABLE = len(BUYS)
RATE_CAP = 3000  # requests per second (all connections): enough fresh tables for this rate

POST = r"""
function init(args)
  statuses = {}
  slot, seq = 1, 0
  local session = SESSIONS[id]
  form_headers = {["Cookie"] = session[1],
                  ["Content-Type"] = "application/x-www-form-urlencoded"}
  token = session[2]
end

function request()
  local mine = TABLES[id]
  sent = (sent or 0) + 1
  local key = KEY_TIME .. "." .. string.format("%04d%012d", id, sent)
  local body = "csrf_token=" .. token .. "&seq=" .. seq .. "&key=" .. key .. "&" .. BUYS[seq + 1]
  return wrk.format("POST", "/yard/" .. (mine[slot] or mine[#mine]) .. "/buy", form_headers, body)
end

function response(status, headers, body)
  count(status)
  -- 303: the purchase was written; anything else: leave this table for a fresh one
  seq = (status == 303) and seq + 1 or #BUYS
  if seq >= #BUYS then
    slot, seq = slot + 1, 0
    if slot > #TABLES[id] then wrk.thread:stop() end
  end
end
"""


@dataclass(frozen=True)
class Workload:
    """The tables made for the run, by wrk thread, and the script that plays them."""

    tables: list[list[str]]
    script: Path

    @property
    def ids(self) -> list[str]:
        return [table for mine in self.tables for table in mine]


def make_tables(db: storage.Database, seconds: int) -> list[list[str]]:
    """Fresh yard tables, enough for every thread at RATE_CAP for `seconds`."""
    per_thread = math.ceil(seconds * RATE_CAP / wrk.CONNECTIONS / PER_TABLE) + 1
    db.execute("PRAGMA synchronous = NORMAL")  # this connection only: seeding, not measured
    return [[new_table(db) for _ in range(per_thread)] for _ in range(wrk.CONNECTIONS)]


def new_table(db: storage.Database) -> str:
    """A 3-player yard table without events."""
    return storage.create_table(db, "yard", games.seats("yard"))


def session(base: str) -> tuple[str, str]:
    """A phone's session from the home page: its cookie and the CSRF token of its forms
    (URL-encoded, ready for a form body)."""
    with urllib.request.urlopen(base + "/", timeout=10) as response:
        page = response.read().decode()
        cookies = response.headers.get_all("Set-Cookie") or []
    cookie = next(c.split(";")[0] for c in cookies if c.startswith("session="))
    found = TOKEN.search(page)
    if found is None:
        raise RuntimeError("no CSRF token on the home page")
    return cookie, urllib.parse.quote(found.group(1))


def lua_list(items: list[str]) -> str:
    return "{" + ", ".join(wrk.lua_string(item) for item in items) + "}"


def workload(base: str, db: storage.Database, seconds: int, directory: Path) -> Workload:
    """Tables, one phone session per connection, and the Lua script that ties them together."""
    tables = make_tables(db, seconds)
    sessions = [session(base) for _ in range(wrk.CONNECTIONS)]
    data = "\n".join([
        "TABLES = {" + ", ".join(lua_list(mine) for mine in tables) + "}",
        "SESSIONS = {" + ", ".join(lua_list(list(s)) for s in sessions) + "}",
        "BUYS = " + lua_list(BUYS),
        f"KEY_TIME = {wrk.lua_string(key_time())}",
    ])
    script = directory / "action.lua"
    script.write_text(data + "\n" + wrk.COMMON + POST)
    return Workload(tables, script)


def key_time() -> str:
    """When the forms of the run were "made": a minute ago, in an action key's hex milliseconds
    (a phone sends a form seconds after its page, not within the ghost-tap guard)."""
    return f"{(time.time_ns() // 1_000_000) - 60_000:x}"


def warm_up(base: str, db: storage.Database, purchases: int = 8) -> None:
    """A few purchases on a table of their own, so both workers have run the write path."""
    cookie, token = session(base)
    table = new_table(db)
    for seq, fields in enumerate(BUYS[:purchases]):
        key = f"{key_time()}.{seq:016d}"
        body = f"csrf_token={token}&seq={seq}&key={key}&{fields}".encode()
        request = urllib.request.Request(f"{base}/yard/{table}/buy", body,
                                         {"Cookie": cookie})
        try:
            urllib.request.build_opener(NoRedirect).open(request, timeout=10)
        except urllib.error.HTTPError as answer:
            if answer.code != 303:
                raise RuntimeError(f"warm-up purchase answered {answer.code}") from None


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def written(db: storage.Database, ids: list[str]) -> tuple[int, int, int]:
    """Events in the workload's tables: in all, tables with any, and the most on one table."""
    row = db.execute(
        "select coalesce(sum(n), 0), count(*), coalesce(max(n), 0) from ("
        " select count(*) as n from events"
        " where table_id in (select value from json_each(?)) group by table_id)",
        [json.dumps(ids)],
    ).fetchone()
    return int(row[0]), int(row[1]), int(row[2])
