"""Players remembered across tables: the names to suggest, each finished table's result, and
per-player statistics by game.

Pure functions over plain data (no Flask, no SQLite): storage reads the rows, the view shows the
results. People are told apart ignoring case ("tobi" and "Tobi" are one player, shown as the
name was last typed); automated opponents (`Game.reserved_names`) are not people.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from .rules import GAMES, Game, RuleError, TableState, replay
from .rules.log import Event


def key(name: str) -> str:
    """One player however the name's case was typed."""
    return name.casefold()


def people(game: Game, names: Sequence[str]) -> list[str]:
    """The people at a table: its seats without the game's automated opponent."""
    reserved = {key(name) for name in game.reserved_names(len(names))}
    return [name for name in names if key(name) not in reserved]


def known_names(tables: Iterable[tuple[str, Sequence[str]]]) -> list[str]:
    """Every person who sat at a table, from (game slug, names) oldest table first: most tables
    first, then the most recent; each shown as the name was last typed."""
    counts: Counter[str] = Counter()
    latest: dict[str, tuple[int, str]] = {}
    for order, (slug, names) in enumerate(tables):
        game = GAMES.get(slug)
        for name in people(game, names) if game else names:
            counts[key(name)] += 1
            latest[key(name)] = (order, name)
    ranked = sorted(counts, key=lambda k: (-counts[k], -latest[k][0], k))
    return [latest[k][1] for k in ranked]


# Finished tables ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """One person's line in a finished table's final ranking."""

    player: str
    total: int
    place: int
    shared: bool

    @property
    def won(self) -> bool:
        """Place 1 wins; a shared first place is a (shared) victory."""
        return self.place == 1


@dataclass(frozen=True)
class Finished:
    """A finished table: its game, a time (ISO; kept as when it ended, read as when it began:
    `storage.results`) and the final ranking."""

    game: str
    at: str
    results: tuple[Result, ...]

    @property
    def winners(self) -> list[str]:
        return [r.player for r in self.results if r.won]

    @property
    def shared_victory(self) -> bool:
        return len(self.winners) > 1


def finished(slug: str, names: Sequence[str], events: Sequence[Event]) -> Finished | None:
    """A table's final result by replaying its log; None if the game is unknown, not finished
    or its log no longer replays (so one odd table cannot break the statistics)."""
    game = GAMES.get(slug)
    if game is None or not events:
        return None
    try:
        state = replay(game, list(names), events).state
        return result_of(game, names, state, events[-1].at)
    except RuleError:
        return None


def result_of(game: Game, names: Sequence[str], state: TableState, at: str) -> Finished | None:
    """A table's result from its state (kept when it finishes): the final ranking of the people
    at it; None while it is not finished."""
    if not state.finished:
        return None
    seated = {key(name) for name in people(game, names)}
    results = tuple(Result(p.player, p.total, p.place, p.shared) for p in state.ranking()
                    if key(p.player) in seated)
    return Finished(game.slug, at, results)


def as_json(table: Finished) -> str:
    return json.dumps({"game": table.game, "at": table.at,
                       "results": [dataclasses.astuple(r) for r in table.results]},
                      ensure_ascii=False)


def from_json(text: str) -> Finished:
    data = json.loads(text)
    return Finished(data["game"], data["at"], tuple(Result(*r) for r in data["results"]))


def by_game(tables: Iterable[Finished]) -> dict[str, list[Finished]]:
    """Finished tables grouped by game (in the GAMES order), newest first within each."""
    grouped: dict[str, list[Finished]] = {slug: [] for slug in GAMES}
    for table in tables:
        grouped.setdefault(table.game, []).append(table)
    return {slug: sorted(ts, key=lambda t: t.at, reverse=True)
            for slug, ts in grouped.items() if ts}


# Statistics ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """A player's line in the list of players: finished games played and won."""

    name: str
    played: int
    wins: int


def records(tables: Iterable[Finished]) -> list[Record]:
    """Every person with a finished game: most games first, then most wins, then by name."""
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    names: dict[str, str] = {}
    for table in sorted(tables, key=lambda t: t.at):
        for result in table.results:
            played[key(result.player)] += 1
            wins[key(result.player)] += result.won
            names[key(result.player)] = result.player
    ranked = sorted(played, key=lambda k: (-played[k], -wins[k], k))
    return [Record(names[k], played[k], wins[k]) for k in ranked]


@dataclass(frozen=True)
class Score:
    """One finished game of a player: when it ended, the total and the place."""

    at: str
    total: int
    place: int
    shared: bool


@dataclass(frozen=True)
class GameStats:
    """A player's record in one game; `scores` oldest first."""

    game: str
    scores: tuple[Score, ...]

    @property
    def played(self) -> int:
        return len(self.scores)

    @property
    def wins(self) -> int:
        """First places, shared ones included."""
        return sum(s.place == 1 for s in self.scores)

    @property
    def shared_wins(self) -> int:
        return sum(s.place == 1 and s.shared for s in self.scores)

    @property
    def average(self) -> Decimal:
        """The mean total to one decimal, halves rounded up (10.25 -> 10.3)."""
        mean = Decimal(sum(s.total for s in self.scores)) / Decimal(self.played)
        return mean.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)

    @property
    def best(self) -> int:
        return max(s.total for s in self.scores)


def player_stats(tables: Iterable[Finished], name: str) -> list[GameStats]:
    """One player's record per game played (GAMES order), the name compared ignoring case."""
    scores: dict[str, list[Score]] = {}
    for table in sorted(tables, key=lambda t: t.at):
        for r in table.results:
            if key(r.player) == key(name):
                scores.setdefault(table.game, []).append(Score(table.at, r.total, r.place,
                                                               r.shared))
    order = [*GAMES, *sorted(set(scores) - set(GAMES))]
    return [GameStats(slug, tuple(scores[slug])) for slug in order if slug in scores]


def display_name(tables: Iterable[Finished], name: str) -> str | None:
    """The player's name as last typed at a finished table; None if they finished none."""
    found = [(t.at, r.player) for t in tables for r in t.results if key(r.player) == key(name)]
    return max(found)[1] if found else None


# A small chart of scores over time ------------------------------------------------------------


@dataclass(frozen=True)
class Chart:
    """Where an SVG line chart of scores puts its points (`viewBox="0 0 width height"`);
    y grows downwards, the lowest score sits on `bottom` and the highest on `top`."""

    width: int
    height: int
    left: int
    top: int
    bottom: int
    low: int
    high: int
    points: tuple[tuple[float, float], ...]

    @property
    def polyline(self) -> str:
        return " ".join(f"{x:g},{y:g}" for x, y in self.points)


def chart(scores: Sequence[int], width: int = 320, height: int = 120) -> Chart:
    """Scores left to right in order at equal steps; one score sits in the middle, equal
    scores on a level line halfway up."""
    left, right, top, bottom = 40, width - 10, 12, height - 12
    low, high = min(scores), max(scores)
    step = (right - left) / (len(scores) - 1) if len(scores) > 1 else 0
    span = high - low

    def y(total: int) -> float:
        return round(bottom - (total - low) / span * (bottom - top), 1) if span else (
            (top + bottom) / 2)

    xs = [left + i * step for i in range(len(scores))] if step else [(left + right) / 2]
    return Chart(width, height, left, top, bottom, low, high,
                 tuple((round(x, 1), y(s)) for x, s in zip(xs, scores, strict=True)))
