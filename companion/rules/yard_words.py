"""The construction-yard game's actions in words, for the history and the undo buttons."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import RuleError, with_reason
from .text import Msg, Plural, and_list, listed
from .yard import A_BUILDING, COUNTED, DIRK, starting_candidates


def describe_at(state: Any, kind: str, payload: Mapping[str, Any]) -> str:
    """One action in words, with the table it made: the players tied for the first turn in seat
    order (a stored payload's keys come sorted: found at a table, "Konstantin and
    Sophie-Charlotte tie", seated the other way)."""
    if kind == "starting_money":
        cards, totals = payload.get("cards"), payload.get("totals")
        if isinstance(cards, Mapping) and isinstance(totals, Mapping):
            seated = [p for p in state.players if p in cards and p in totals]
            return _starting_money({"cards": {p: cards[p] for p in seated},
                                    "totals": {p: totals[p] for p in seated}})
    return describe(kind, payload)


def describe(kind: str, payload: Mapping[str, Any]) -> str:
    """One action in words, for the history page and the undo and redo buttons."""
    if kind == "buy":
        player, building = payload.get("player"), str(payload.get("building"))
        bought = A_BUILDING.get(building, building)
        if payload.get("for", player) == DIRK != player:
            return Msg("{player} bought {building} for Dirk", player=player, building=bought)
        return Msg("{player} bought {building}", player=player, building=bought)
    if kind == "dirk_deal":
        dealt = payload.get("buildings")
        cards = cards_in_words(dealt if isinstance(dealt, Mapping) else {})
        if payload.get("kept") is True:  # ruling "dirk_kept"
            return Msg("Dirk was dealt {cards} (kept as dealt at the table)", cards=cards)
        return Msg("Dirk was dealt {cards}", cards=cards)
    if kind == "score":
        return Msg("Scoring {scoring}", scoring=payload.get("scoring"))
    if kind == "final":
        if payload.get("leftovers") == [] and "money" not in payload:  # the display bought empty
            return Msg("End of the game: no card left on display, final scoring C")
        return _the_end(payload)
    if kind == "starting_money":
        return _starting_money(payload)
    if kind == "youngest":
        return Msg("{player} is the youngest and starts", player=payload.get("player"))
    if kind == "correct":
        return with_reason(_correction(payload), payload)
    if kind == "deck":
        left = payload.get("left")
        return with_reason(Plural("Correction: {n} building card left in the deck",
                                  "Correction: {n} building cards left in the deck",
                                  n=left if isinstance(left, int) else 0), payload)
    return kind


def _starting_money(payload: Mapping[str, Any]) -> str:
    """"Starting money entered: Ben starts" (fewest cards, then lowest total), or who tie."""
    try:
        tied = starting_candidates(payload.get("cards", {}), payload.get("totals", {}))
    except RuleError:
        return Msg("Starting money entered")
    if len(tied) == 1:
        return Msg("Starting money entered: {player} starts", player=tied[0])
    return Msg("Starting money entered: {names} tie, the youngest starts",
               names=and_list(tied))


def _the_end(payload: Mapping[str, Any]) -> str:
    """"End of the game: Ann took a church and a skyscraper, nobody took a park or a station;
    final scoring C": who took each card left on display, as the app records it (`to`), each
    taker named once; an older log's end, which gave the money instead, in general words."""
    cards = payload.get("leftovers")
    if not isinstance(cards, list) or not cards or not all(
            isinstance(c, Mapping) and "to" in c and c.get("building") in A_BUILDING
            for c in cards):
        return Msg("End of the game: leftover cards given out, final scoring C")
    taken: dict[Any, dict[str, int]] = {}
    for card in cards:
        held = taken.setdefault(card["to"], {})
        held[card["building"]] = held.get(card["building"], 0) + 1
    given = [Msg("nobody took {buildings}", buildings=and_list(_some(held), "or")) if taker is None
             else Msg("{player} took {buildings}", player=taker, buildings=and_list(_some(held)))
             for taker, held in taken.items()]
    return Msg("End of the game: {given}; final scoring C", given=listed(given))


def _some(held: Mapping[str, int]) -> list[Msg]:
    """Cards of each building, in the order first given: 'a church', '2 churches'."""
    return [A_BUILDING[b] if n == 1 else COUNTED[b](n) for b, n in held.items()]


def _correction(payload: Mapping[str, Any]) -> str:
    building, count = str(payload.get("building")), payload.get("count")
    if building not in COUNTED or not isinstance(count, int):
        return f"Correction: {payload}"  # never recorded: the rules refuse such a correction
    return Msg("Correction: {owner} has {held}", owner=payload.get("owner"),
               held=COUNTED[building](count))


def cards_in_words(counts: Mapping[Any, Any]) -> str:
    """'2 museums, 1 church and 3 parks', each part still translatable, in the game's order of
    the buildings whatever the order of `counts` (a deal as recorded and as changed, side by
    side, read alike)."""
    parts = [COUNTED[b](n) for b in COUNTED if isinstance(n := counts.get(b), int) and n]
    return and_list(parts) if parts else Msg("no cards")
