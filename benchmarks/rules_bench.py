"""The rules engine: time per call of each game's final scoring, of Alea's exact bid
distribution, and of replaying a whole scripted game (what every table request does)."""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any

import games
from report import Figure

from companion.rules import GAMES, fifth_avenue, replay, street, urbanisation, yard

SECTION = "Rules engine"


def finished_state(slug: str) -> tuple[Any, int]:
    """The state after the game's whole script, and how many events that took."""
    players, events = games.events_of(slug, mid_game=False)
    return replay(GAMES[slug], players, events).state, len(events)


def final_scorings() -> dict[str, Callable[[], object]]:
    """Each game's final scoring function, on the state its scripted game reaches."""
    yard_state, _ = finished_state("yard")
    avenue, _ = finished_state("fifth_avenue")
    street_state, _ = finished_state("street")
    city, _ = finished_state("urbanisation")
    factories = city.factory_numbers()
    tiles = ["gallery", "boutique", "perfume"]
    return {
        "yard.score_round(counts, 'C')":
            lambda: yard.score_round(yard_state.buildings, "C"),
        "fifth_avenue district_points × 8 + central_park_points":
            lambda: ([fifth_avenue.district_points(p) for p in avenue.board.values()],
                     fifth_avenue.central_park_points(tiles, 4)),
        "street.final_ranking(score(street, account) per player)":
            lambda: street.final_ranking({p: street.score(street_state.streets[p],
                                                          street_state.accounts[p])
                                          for p in street_state.players}),
        "urbanisation.final_ranking(final_totals(vp, factories), factories)":
            lambda: urbanisation.final_ranking(
                urbanisation.final_totals(city.totals(), factories), factories),
        "fifth_avenue.alea_bid_distribution() (exact, whole black deck)":
            lambda: fifth_avenue.alea_bid_distribution(),
    }


def replays() -> dict[str, Callable[[], object]]:
    found = {}
    for slug in games.PLAYERS:
        players, events = games.events_of(slug, mid_game=False)
        found[f"replay of a {slug} game ({len(events)} events)"] = (
            lambda slug=slug, players=players, events=events:
            replay(GAMES[slug], players, events))
    return found


def per_call_us(function: Callable[[], object], repeat: int) -> float:
    """Per call, in microseconds: timeit's autorange (at least 0.2 s), then the best of
    `repeat` more runs of that many calls."""
    timer = timeit.Timer(function)
    number, elapsed = timer.autorange()
    best = min([elapsed, *timer.repeat(repeat, number)])
    return 1e6 * best / number


def run(repeat: int) -> list[Figure]:
    calls = {**final_scorings(), **replays()}
    return [Figure(SECTION, name, per_call_us(function, repeat), "µs",
                   note="no bare equivalent and no target in the issue" if k == 0 else "")
            for k, (name, function) in enumerate(calls.items())]
