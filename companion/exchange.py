"""Tables in and out of the app: the whole table as JSON, results as CSV, a play for BG Stats.

Pure Python over plain data and the rules: no Flask, no SQLite. The web layer passes a table's
row and events in and sends the bytes out; an import comes back as an `Imported` or a `BadFile`
naming, in the players' language, the first thing wrong with the file.

The table file (``companion-table``, version 1) holds everything needed to restore the table on
any server: game, players (name and colour, in seat order), created_at, status and every event
(``seq``, ``kind``, ``payload``, ``at``), undo and redo included. ``digest`` is
``"sha256:<hex>"`` over the canonical JSON of all the other fields (keys sorted, separators
``,`` and ``:``, UTF-8 unescaped). It is a tamper check, not a signature: any server accepts a
file whose digest matches, and a file changed by hand is refused.

The BG Stats play follows the app's documented push format ("Push plays to BG Stats from other
apps or websites", https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-
websites/): a JSON object with ``sourceName``, ``sourcePlayId``, ``playDate`` (UTC,
``"YYYY-MM-DD HH:MM:SS"``), ``durationMin``, ``game`` (``name``, ``bggId`` where known,
``highestWins``, ``noPoints``, ``sourceGameId``) and ``players`` (``name``, ``score``,
``winner``, ``rank``, ``startPlayer``, ``role``, ``sourcePlayerId``), the players in seat order,
handed to BG Stats as ``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``
(`bgstats_link`; ``addPlay.html`` only starts an empty play). BG Stats remembers which of its
players a source's ``sourcePlayerId`` is and which play a ``sourcePlayId`` is, so both stay the
same wherever the play or the player turns up again: a player's id comes from the name as the
app's statistics know it (case ignored), the same at every table and seat; a play's from its
game, start and seats, which a renewal of the links or an export and import keep (the table id
changes with both, and would reveal the secret link).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from .rules import GAMES, Current, Game, Placing, RuleError, TableState, check_players, replay
from .rules.log import CHANGE, MAX_EVENTS, TIME, VERSION, Event, is_time
from .rules.referee import Referee
from .rules.text import Msg

FORMAT = "companion-table"
# The file's version is its log's (`rules.log.VERSION`): a version 1 file's actions are
# recorded with what they mean as it is read.
VERSIONS = (1, VERSION)
FIELDS = ("format", "version", "game", "players", "created_at", "status", "events", "digest")
EVENT_FIELDS = ("seq", "kind", "payload", "at")
STATUSES = {"open": Msg("not finished"), "finished": Msg("finished")}
# A long game (five players, 125 cards and corrections in the street game) exports to about
# 80 KB and 170 events; these limits (and the tables' own, MAX_EVENTS) leave ten times that, and
# cap the work a hostile file can ask of the rules.
MAX_IMPORT_BYTES = 1024 * 1024
SOURCE_NAME = "Companion"
BGSTATS_CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
# BoardGameGeek ids, only where one could be established:
# 5th Avenue (alea 2004, Wilko Manz): 9342, as logged in a session report with its BGG id
# (https://trickylight.co.uk/session_detail.php?sessionid=292). The construction-yard card game,
# the street card game and Urbanisation are left out: no id could be confirmed, and a wrong id
# would file the plays under another game.
BGG_IDS = {"fifth_avenue": 9342}


class BadFile(ValueError):
    """An import refused: the message for the players and the HTTP status that fits."""

    def __init__(self, message: Msg, status: int = 422):
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Imported:
    """A checked table file, ready to be stored as a new table."""

    game: Game
    players: list[dict[str, str]]
    created_at: str
    status: str
    events: list[Event]
    table: Current  # as its events leave it


# Export ---------------------------------------------------------------------------------------


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode()


def digest(document: Mapping[str, Any]) -> str:
    """The tamper check: SHA-256 over the canonical JSON of everything but the digest."""
    body = {key: value for key, value in document.items() if key != "digest"}
    return "sha256:" + hashlib.sha256(canonical(body)).hexdigest()


def export_table(table: Mapping[str, Any], events: Sequence[Event]) -> dict[str, Any]:
    """The whole table as a document: players, date, status and every event."""
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": table["game"],
        "players": [{"name": p["name"], "colour": p["colour"]} for p in table["players"]],
        "created_at": table["created_at"],
        "status": table["status"],
        "events": [{"seq": e.seq, "kind": e.kind, "payload": dict(e.payload), "at": e.at}
                   for e in events],
    }
    document["digest"] = digest(document)
    return document


def dumps(document: Mapping[str, Any]) -> bytes:
    return json.dumps(document, ensure_ascii=False, indent=1).encode()


# Import ---------------------------------------------------------------------------------------


def read_table(data: bytes, colours: Sequence[str]) -> Imported:
    """Check a table file, in this order, and say what is wrong with the first thing that is:
    size, JSON syntax, format and version, digest, fields, game, players, events (numbering,
    then every event replayed through the rules, each with only the payload keys its kind
    declares, and recorded with what it means), status."""
    if len(data) > MAX_IMPORT_BYTES:
        raise BadFile(too_large(), 413)
    document = parse(data)
    check_format(document)
    check_digest(document)
    check_fields(document)
    game = known_game(document["game"])
    players = check_seats(game, document["players"], colours)
    created_at = check_time(document["created_at"], Msg("The table's date"))
    events = [declared_only(game, event) for event in check_log(document["events"])]
    table, events = check_rules(game, [p["name"] for p in players], events,
                                document["version"])
    status = "finished" if table.state.finished else "open"
    if document["status"] not in STATUSES:  # said in words, not as the file spells it
        raise BadFile(Msg("The file's game status is none this app writes (finished or not "
                          "finished): it was changed after it was exported."))
    if document["status"] != status:
        raise BadFile(Msg("The file says the game is {said}, but its events leave it {actual}.",
                          said=STATUSES[document["status"]], actual=STATUSES[status]))
    return Imported(game, players, created_at, status, events, table)


def too_large() -> Msg:
    return Msg("The file is larger than {size} KB: no table of this app is that long.",
               size=MAX_IMPORT_BYTES // 1024)


def parse(data: bytes) -> dict[str, Any]:
    """The file as a JSON object; numbers that JSON allows but no table holds are refused."""
    try:
        document = json.loads(data.decode("utf-8-sig"), parse_constant=refuse_constant)
    except UnicodeDecodeError:
        raise BadFile(Msg("This file is not a table export: it is not text."), 400) from None
    except json.JSONDecodeError as error:
        raise BadFile(Msg("This file is not a table export: it is not valid JSON (line {line}, "
                          "column {column}).", line=error.lineno, column=error.colno),
                      400) from None
    except (ValueError, RecursionError):
        raise BadFile(Msg("This file is not a table export: it is not valid JSON."),
                      400) from None
    if not isinstance(document, dict):
        raise BadFile(Msg("This file is not a table exported from this app."))
    return document


def refuse_constant(name: str) -> None:
    raise ValueError(name)


def shown(value: Any) -> str:
    """A value from the file, short enough to quote in a message."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return json.dumps(value, ensure_ascii=False)[:20]
    return "…"


def check_format(document: dict[str, Any]) -> None:
    if document.get("format") != FORMAT:
        raise BadFile(Msg("This file is not a table exported from this app."))
    version = document.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise BadFile(Msg("This file has format version {version}; this app reads versions 1 "
                          "to {known}.", version=shown(version), known=VERSION))


def check_digest(document: dict[str, Any]) -> None:
    stated = document.get("digest")
    if not isinstance(stated, str) or not stated.startswith("sha256:"):
        raise BadFile(Msg("This file has no check sum (digest), so a change to it could not "
                          "be noticed: it cannot be imported."))
    try:
        actual = digest(document)
    except (ValueError, RecursionError):  # floats too large for JSON, nesting too deep
        raise BadFile(Msg("This file was changed after it was exported.")) from None
    if stated != actual:
        raise BadFile(Msg("This file was changed after it was exported."))


def check_fields(document: dict[str, Any]) -> None:
    """Every field there, none unknown, each of its kind."""
    for name in FIELDS:
        if name not in document:
            raise BadFile(Msg("The file lacks the field “{field}”.", field=name))
    for name in document:
        if name not in FIELDS:
            raise BadFile(Msg("The file has a field this app does not know: “{field}”.",
                              field=name[:40]))
    kinds = {"game": str, "players": list, "created_at": str, "status": str, "events": list}
    for name, kind in kinds.items():
        if not isinstance(document[name], kind):
            raise BadFile(Msg("The field “{field}” holds the wrong kind of value.", field=name))


def known_game(slug: str) -> Game:
    if slug not in GAMES:
        raise BadFile(Msg("This file is for a game this app does not know: {game}.",
                          game=slug[:40]))
    return GAMES[slug]


def check_seats(game: Game, seats: list[Any], colours: Sequence[str]) -> list[dict[str, str]]:
    """The players in seat order: names as the app accepts them, colours the app knows."""
    for seat, player in enumerate(seats, 1):
        if (not isinstance(player, dict) or set(player) != {"name", "colour"}
                or not isinstance(player["name"], str) or not isinstance(player["colour"], str)):
            raise BadFile(Msg("Player {seat} in the file has no proper name and colour.",
                              seat=seat))
        if player["colour"] not in colours:
            raise BadFile(Msg("{name}'s colour “{colour}” is not one of the app's colours.",
                              name=player["name"][:24], colour=player["colour"][:20]))
    names = [player["name"] for player in seats]
    try:
        cleaned = check_players(game, names)
    except RuleError as error:
        raise BadFile(rules_message(error)) from None
    if cleaned != names:
        raise BadFile(Msg("The players' names are not written as the app writes them (without "
                          "surrounding or doubled spaces and control characters)."))
    return [{"name": p["name"], "colour": p["colour"]} for p in seats]


def check_time(value: str, what: Msg) -> str:
    """A date and time with its time zone in ISO 8601, as the app writes them (UTC): ASCII
    digits and separators only (Python also reads "2026-01-01é20:00:00+00:00", which no
    download header could carry), and within the years 1 to 9999 in UTC (`is_time`)."""
    try:
        if not TIME.fullmatch(value) or datetime.fromisoformat(value).tzinfo is None:
            raise ValueError(value)
    except ValueError:
        raise BadFile(Msg("{what} in the file is not a date and time: “{value}”.", what=what,
                          value=value[:40])) from None
    if not is_time(value):
        raise BadFile(Msg("{what} in the file lies outside the years 1 to 9999 once it is "
                          "converted to UTC: “{value}”.", what=what, value=value[:40]))
    return value


def check_log(entries: list[Any]) -> list[Event]:
    """The events as the log holds them: numbered 1, 2, 3, ... without gaps."""
    if len(entries) > MAX_EVENTS:
        raise BadFile(Msg("The file holds {count} events; no table of this app is longer than "
                          "{most}.", count=len(entries), most=MAX_EVENTS))
    events = []
    for position, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or set(entry) != set(EVENT_FIELDS):
            raise BadFile(Msg("Event {n} in the file does not have exactly the fields seq, kind, "
                              "payload and at.", n=position))
        seq, kind, payload, at = (entry[name] for name in EVENT_FIELDS)
        if isinstance(seq, bool) or not isinstance(seq, int) or seq != position:
            raise BadFile(Msg("The events are out of order: event {n} in the file is numbered "
                              "{seq}; they must be numbered 1, 2, 3, ... without gaps.",
                              n=position, seq=shown(seq)))
        if not isinstance(kind, str) or not 0 < len(kind) <= 40 or not isinstance(payload, dict):
            raise BadFile(Msg("Event {n} in the file has no proper kind and payload.",
                              n=position))
        if not isinstance(at, str):
            raise BadFile(Msg("Event {n} in the file has no time.", n=position))
        check_time(at, Msg("The time of event {n}", n=position))
        events.append(Event(seq, kind, payload, at))
    return events


def declared_only(game: Game, event: Event) -> Event:
    """The event with only the payload keys its kind declares (the app's own events hold no
    others; a file may, and they would be stored as they came). A kind the game does not have
    is left for the rules to refuse."""
    return Event(event.seq, event.kind, declared_payload(game, event.kind, event.payload),
                 event.at)


def declared_payload(game: Game, kind: str, payload: Mapping[str, Any]) -> Mapping[str, Any]:
    """The payload with only the keys its kind declares; a change's own action payloads too."""
    keys = game.declared(kind)
    if keys is None or not isinstance(payload, Mapping):
        return payload
    kept = {k: v for k, v in payload.items() if k in keys}
    if kind == CHANGE:
        for part in ("was", "now"):
            action = kept.get(part)
            if isinstance(action, Mapping) and isinstance(action.get("kind"), str):
                kept[part] = {**action, "payload": declared_payload(
                    game, action["kind"], action.get("payload") or {})}
    return kept


def check_rules(game: Game, names: list[str], events: list[Event],
                version: int) -> tuple[Current, list[Event]]:
    """Replay the events (of a log of `version`) through the game's rules one by one, naming
    the first one refused; the table they leave, and the events as the app keeps them (each
    action with what it means: `rules.referee`).

    The rules were written for the payloads the app's own forms build; a file may hold anything,
    so any failure of the rules on an event is that event refused, in words.
    """
    referee = Referee(game, names, version)
    for event in events:
        try:
            referee.take(event)
        except Exception as error:  # any failure: see the docstring
            raise BadFile(Msg("Event {n} ({kind}) is refused: {reason}", n=event.seq,
                              kind=event.kind[:40], reason=rules_message(error))) from None
    # The table as a page reads it, with what its last action gave (the strip's "Ann +13";
    # found by an audit: an imported table's strip said only "Winner: Tobi").
    return replay(game, names, referee.recorded), referee.recorded


def rules_message(error: Exception) -> Msg:
    """The rules' reason, still translatable, or a plain one for a payload they choke on."""
    if isinstance(error, RuleError) and error.args and isinstance(error.args[0], Msg):
        return error.args[0]
    if isinstance(error, RuleError):
        return Msg(str(error))
    return Msg("its details are not what the rules expect.")


# Results --------------------------------------------------------------------------------------

CSV_HEADER = ("game", "date", "status", "place", "player", "score", "winner", "place shared")


@dataclass(frozen=True)
class SheetWords:
    """A results sheet's words, in the players' language (the view's; English by default):
    its header (`CSV_HEADER`'s columns), a game's status, and yes and no."""

    header: tuple[str, ...] = CSV_HEADER
    finished: str = "finished"
    in_progress: str = "in progress"
    yes: str = "yes"
    no: str = "no"


def results_csv(game_name: str, date: str, names: Sequence[str], ranking: Sequence[Placing],
                finished: bool, words: SheetWords = SheetWords()) -> str:
    """One row per player at the table, best first; spreadsheet formulas cannot sneak in. A game
    not finished says so in every row ("in progress": the standings so far) and names no
    winner."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(words.header)
    status = words.finished if finished else words.in_progress
    yes_no = {True: words.yes, False: words.no}
    for placing in ranking:
        if placing.player not in names:  # an automated opponent (Dirk, Alea)
            continue
        won = [yes_no[placing.place == 1], yes_no[placing.shared]] if finished else ["", ""]
        writer.writerow([safe_cell(game_name), date, status, placing.place,
                         safe_cell(placing.player), placing.total, *won])
    return out.getvalue()


# A formula character at the start of a cell, or of any part of it after a separator a
# spreadsheet may split on (",", ";" in German-locale spreadsheets, tab; CR ends a line), with
# spaces before it ("x; =1+1"), which spreadsheets skip.
FORMULA_START = re.compile(r"(^|[,;\t\r\n])( *)(?=[=+\-@\t\r])")


def safe_cell(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (OWASP's CSV injection advice: a quote
    before it), however the file is split: "x;=1+1;" becomes "x;'=1+1;", not a formula where
    ";" separates the cells."""
    return FORMULA_START.sub(r"\1\2'", text)


# BG Stats -------------------------------------------------------------------------------------

# Who started, where the log knows it (the street game's rules do not record it).
START_PLAYER: dict[str, Callable[[Any, Sequence[Event]], Any]] = {
    "yard": lambda state, done: getattr(state, "starter", None),
    "fifth_avenue": lambda state, done: getattr(state, "first_placer", None),
    "urbanisation": lambda state, done: next(
        (e.payload.get("start_player") for e in done if e.kind == "setup"), None),
}


def bgstats_play(table: Mapping[str, Any], game_name: str, state: TableState,
                 done: Sequence[Event], events: Sequence[Event]) -> dict[str, Any]:
    """A finished table as a play in BG Stats' push format (see the module docstring)."""
    slug = table["game"]
    starter = START_PLAYER[slug](state, done) if slug in START_PLAYER else None
    placings = {p.player: p for p in state.ranking()}
    game: dict[str, Any] = {"name": game_name, "highestWins": True, "noPoints": False,
                            "sourceGameId": slug}
    if slug in BGG_IDS:
        game["bggId"] = BGG_IDS[slug]
    players = [
        {"name": p["name"], "score": placings[p["name"]].total,
         "winner": placings[p["name"]].place == 1, "rank": placings[p["name"]].place,
         "startPlayer": p["name"] == starter, "role": "", "sourcePlayerId": player_id(p["name"])}
        for p in table["players"] if p["name"] in placings
    ]
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(table),
        "playDate": play_date(table["created_at"]),
        "durationMin": duration(events),
        "game": game,
        "players": players,
    }


def player_id(name: str) -> str:
    """A player's ``sourcePlayerId``: the same for the same name (case ignored, as the app's
    statistics count a player) at every table, in any seat."""
    return stable_id("player", name.casefold())


def play_id(table: Mapping[str, Any]) -> str:
    """A play's ``sourcePlayId``: from its game, when it began and who sat where, all of which
    a renewal of the links and an export and import keep."""
    return stable_id("play", table["game"], utc(table["created_at"]).isoformat(),
                     *[p["name"] for p in table["players"]])


def stable_id(*parts: str) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:16]


def play_date(created_at: str) -> str:
    """BG Stats' play date: UTC, whatever offset the time was stored with."""
    return utc(created_at).strftime("%Y-%m-%d %H:%M:%S")


def utc(time: str) -> datetime:
    """An ISO 8601 time in UTC (a time without an offset is taken as UTC, as the app stores).
    One stored before imports checked it whose UTC falls outside the years 1 to 9999 (see
    `rules.log.is_time`) is taken as written, its offset dropped, rather than break a page."""
    moment = datetime.fromisoformat(time)
    try:
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except OverflowError:
        return moment.replace(tzinfo=UTC)


def duration(events: Sequence[Event]) -> int:
    """Minutes from the first action to the last, as the log timed them (in UTC: `utc`)."""
    if not events or not events[0].at or not events[-1].at:
        return 0
    first, last = (utc(e.at) for e in (events[0], events[-1]))
    return max(0, round((last - first).total_seconds() / 60))


def bgstats_link(play: Mapping[str, Any]) -> str:
    """The link that opens BG Stats' import dialog for this play (on a phone with the app)."""
    return BGSTATS_CREATE_PLAY + quote(json.dumps(play, ensure_ascii=False, separators=(",", ":")))
