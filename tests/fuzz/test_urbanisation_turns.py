"""Urbanisation's flow as a property: random games played from the rules' own one-tap offers for
the player at turn (with the characters, the administration and the final scoring as the table
calls for them, and now and then a territory, a factory chosen from the invention cards' names
and an invention card) reach the final scoring without one refusal. A step out of turn, out of
order or after the end is always refused and leaves the table exactly as it was.

Hunt for bugs with many more examples:
RULES_FUZZ_EXAMPLES=300 pytest tests/fuzz/test_urbanisation_turns.py
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import rules
from companion.rules.urbanisation import BUILDINGS, INVENTION_SPACES, PRICE_MARKERS, TURNS
from companion.rules.urbanisation_actions import (
    ABILITIES,
    BONUS_FACTORIES,
    COLOURS,
    OTHER_FACTORY,
)
from companion.rules.urbanisation_offers import offers
from companion.rules.urbanisation_table import UrbanisationTable
from tests.fuzz.fuzzing import examples

GAME = rules.GAMES["urbanisation"]
SEATS = ["Ann", "Ben", "Cy", "Dee"]
Step = tuple[str, dict[str, Any]]


def frozen(state: UrbanisationTable) -> bytes:
    """The table to the last byte, without the note of what the last action did (not game
    state: any action, refused or not, clears it first)."""
    state.note = None
    return pickle.dumps(state)


def refused_unchanged(state: UrbanisationTable, step: Step) -> None:
    before = frozen(state)
    with pytest.raises(rules.RuleError):
        state.apply(*copy.deepcopy(step))
    assert frozen(state) == before, step


# Legal steps, worked out from the table's state -------------------------------------------------


@st.composite
def set_up(draw: st.DrawFn, players: list[str]) -> Step:
    return ("setup", {
        "inventions": draw(st.booleans(), label="inventions"),
        "start_player": draw(st.sampled_from(players), label="start player"),
        "money": draw(st.integers(0, 30), label="money"),
        "grounds": {p: draw(st.integers(1, 2)) for p in players},
    })


def numbers_free(state: UrbanisationTable) -> list[int]:
    owned = {f.number for _, f in state.factory_cards}
    return [n for n in range(1, 19) if n not in owned]


def names_free(state: UrbanisationTable) -> list[str]:
    """What a new factory may be called: with the inventions another factory, or one an
    invention card names that nobody owns yet; without them any name or none."""
    if not state.inventions:
        return ["", "Bakery", "Windmill"]
    owned = {f.name for _, f in state.factory_cards}
    return [OTHER_FACTORY, *[n for n in BONUS_FACTORIES if n not in owned]]


@st.composite
def attract(draw: st.DrawFn, state: UrbanisationTable, player: str) -> Step | None:
    """A factory card whose work order spaces are filled: new on an empty ground, or an upgrade
    of an active factory by a higher number; always said which factory it is."""
    card = state.cards[player]
    free = numbers_free(state)
    if not free:
        return None
    upgrades = [f.number for f in card.factories if f.active and f.number < max(free)]
    places = ([None] if card.empty_grounds >= 1 else []) + upgrades
    if not places:
        return None
    upgrade = draw(st.sampled_from(places), label="upgrade")
    number = draw(st.sampled_from([n for n in free if upgrade is None or n > upgrade]))
    return ("attract", {"player": player, "number": number,
                        "colour": draw(st.sampled_from(COLOURS)), "goods": draw(st.integers(1, 3)),
                        "name": draw(st.sampled_from(names_free(state)), label="name"),
                        "upgrade": upgrade})


@st.composite
def invention(draw: st.DrawFn, state: UrbanisationTable, player: str) -> Step | None:
    """An invention card it can pay for: an ability nobody has, an end bonus nobody has (the
    VP follow from the card), or both; all cards at the space with the Professor."""
    card = state.cards[player]
    markers: list[tuple[int | None, int]] = [(None, 0), *enumerate(card.markers)]
    moves = [(marker, to) for marker, start in markers
             for to in range(start + 1, INVENTION_SPACES + 1)
             if state.docks[to - 1] and to - start - 1 <= card.money]
    if not moves:
        return None
    marker, to = draw(st.sampled_from(moves), label="move")
    professor = "professor" in card.characters and draw(st.booleans(), label="professor")
    held = [i for c in state.cards.values() for i in c.inventions]
    abilities = [a for a in ABILITIES if a not in {i.ability for i in held}]
    bonuses = [f for f in BONUS_FACTORIES if f not in {i.factory for i in held}]
    cards = []
    for _ in range(state.docks[to - 1] if professor else 1):
        described = [(a, b) for a in [None, *abilities] for b in [None, *bonuses] if a or b]
        if not described:
            return None
        ability, bonus = draw(st.sampled_from(described), label="card")
        abilities = [a for a in abilities if a != ability]
        bonuses = [b for b in bonuses if b != bonus]
        cards.append({"ability": ability, "factory": bonus})
    return ("invention", {"player": player, "marker": marker, "to": to, "cards": cards,
                          **({"character": "professor"} if professor else {})})


@st.composite
def buy_land(draw: st.DrawFn, state: UrbanisationTable, player: str) -> Step | None:
    card = state.cards[player]
    if sum(c.territories for c in state.cards.values()) >= PRICE_MARKERS or card.money < 1:
        return None
    return ("buy_land", {"player": player, "price_markers": draw(st.integers(1, min(card.money,
                                                                                     4))),
                         "grounds": draw(st.integers(1, 2))})


@st.composite
def legal_step(draw: st.DrawFn, state: UrbanisationTable) -> Step:
    """What the table calls for now, chosen at random among what the rules allow."""
    if state.segment == "characters":
        return ("character", {"player": state.current_player,
                              "character": draw(st.sampled_from(state.available_characters))})
    if state.segment == "administration":
        return ("administration", {})
    if state.segment == "final":
        return ("final", {})
    assert state.segment == "actions", state.segment
    player = str(state.current_player)
    detailed = [attract, buy_land] + ([invention] if state.inventions else [])
    kind = draw(st.sampled_from(["offer", "pass", "detailed"]), label="kind")
    if kind == "detailed":
        form = draw(st.sampled_from(detailed), label="form")
        found = draw(form(state, player))
        if found is not None:
            return found
    if kind != "pass":
        offered = [o for group in offers(state).values() for o in group]
        if offered:
            chosen = draw(st.sampled_from(offered), label="offer")
            return (chosen.kind, dict(chosen.payload))
    return ("pass", {"player": player})


# Wrong steps ------------------------------------------------------------------------------------


def an_action(player: str) -> list[Step]:
    """Actions any player could take in an action phase (legal or not, by who and when)."""
    return [("pass", {"player": player}), ("taxes", {"player": player}),
            ("work_orders", {"player": player, "colour": "white", "count": 1}),
            ("erect", {"player": player, "building": next(iter(BUILDINGS)), "count": 1})]


@st.composite
def wrong_step(draw: st.DrawFn, state: UrbanisationTable) -> Step:
    """A step the rules must refuse now: another player's action or character, an action or
    a character outside its segment, the administration or the final scoring before their
    time, an attract that does not say which factory it is (with the inventions), the set-up
    again, and anything at all once the game is over."""
    current = state.current_player
    others = [p for p in state.players if p != current]
    other = draw(st.sampled_from(others), label="other")
    wrong: list[Step] = [("setup", {"inventions": False, "start_player": other, "money": 5,
                                    "grounds": dict.fromkeys(state.players, 1)})]
    if state.finished:
        wrong += [*an_action(other), ("final", {}), ("administration", {}),
                  ("character", {"player": other, "character": "farmer"}),
                  ("name_factory", {"player": other, "number": 1, "name": OTHER_FACTORY}),
                  ("effect", {"player": other, "money": 1, "reason": "late"})]
        return draw(st.sampled_from(wrong))
    if state.segment != "final" and state.turn <= TURNS:
        wrong.append(("final", {}))  # before turn 6 is over
    if state.segment != "administration":
        wrong.append(("administration", {}))
    if state.segment == "characters":
        wrong += an_action(str(current))  # an action before the characters are chosen
        wrong += [("character", {"player": other, "character": c})
                  for c in state.available_characters]
    else:
        wrong += [("character", {"player": p, "character": "farmer"}) for p in state.players]
    if state.segment == "actions":
        wrong += an_action(other)
        wrong += [(o.kind, {**o.payload, "player": other})
                  for group in offers(state).values() for o in group]
        if state.inventions:
            unnamed = draw(attract(state, str(current)))
            if unnamed is not None:
                wrong.append(("attract", {**unnamed[1], "name": draw(st.sampled_from(
                    ["", None, " ", "Bakery"]))}))
                wrong.append(("attract", {k: v for k, v in unnamed[1].items() if k != "name"}))
    else:
        wrong += an_action(draw(st.sampled_from(state.players)))  # no action phase now
    return draw(st.sampled_from(wrong))


# The properties -------------------------------------------------------------------------------


@examples(8)
@given(data=st.data(), seats=st.integers(2, 4), wrong=st.integers(0, 2))
def test_games_from_the_offers_reach_the_end_and_wrong_steps_are_refused(data, seats, wrong):
    """`wrong`: how often a wrong step is tried before each legal one, at most."""
    players = SEATS[:seats]
    state = UrbanisationTable.start(players)
    log = [data.draw(set_up(players), label="set-up")]
    state.apply(*copy.deepcopy(log[0]))
    while not state.finished:
        for _ in range(data.draw(st.integers(0, wrong), label="wrong steps")):
            refused_unchanged(state, data.draw(wrong_step(state), label="wrong"))
        step = data.draw(legal_step(state), label="legal")
        state.apply(*copy.deepcopy(step))  # a step the table calls for: never refused
        log.append(step)
    assert log[-1] == ("final", {}) and state.turn == TURNS and state.up_next is None
    assert len([k for k, _ in log if k == "administration"]) == TURNS
    for _ in range(3):  # after the end: anything at all
        refused_unchanged(state, data.draw(wrong_step(state), label="after the end"))
    # The end bonuses: each invention's counts exactly when its owner owns the factory it names.
    bonus = {p: sum(v for _, q, source, v in state.vp_log
                    if q == p and source == "invention bonus") for p in players}
    assert bonus == {p: sum(i.vp for i in state.cards[p].inventions
                            if i.factory and state.cards[p].owns(i.factory)) for p in players}
    replayed = rules.replay(GAME, players, [rules.Event(seq, kind, payload)
                                            for seq, (kind, payload) in enumerate(log, 1)])
    assert frozen(replayed.state) == frozen(state)  # the log is the game
