"""Legal steps of an Urbanisation game, worked out from the table's state: the set-up, the
characters, the rules' own one-tap offers for the player at turn, now and then a territory, a
factory chosen from the invention cards' names and an invention card, the administration and
the final scoring (for the fuzz tests of the flow and of changes)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from companion.rules.urbanisation import INVENTION_SPACES, PRICE_MARKERS
from companion.rules.urbanisation_actions import ABILITIES, BONUS_FACTORIES, COLOURS, OTHER_FACTORY
from companion.rules.urbanisation_offers import offers
from companion.rules.urbanisation_table import UrbanisationState

Step = tuple[str, dict[str, Any]]


@st.composite
def set_up(draw: st.DrawFn, players: list[str]) -> Step:
    return ("setup", {
        "inventions": draw(st.booleans(), label="inventions"),
        "start_player": draw(st.sampled_from(players), label="start player"),
        "money": draw(st.integers(0, 30), label="money"),
        "grounds": {p: draw(st.integers(1, 2)) for p in players},
    })


def numbers_free(state: UrbanisationState) -> list[int]:
    owned = {f.number for _, f in state.factory_cards}
    return [n for n in range(1, 19) if n not in owned]


def names_free(state: UrbanisationState) -> list[str]:
    """What a new factory may be called: with the inventions another factory, or one an
    invention card names that nobody owns yet; without them any name or none."""
    if not state.inventions:
        return ["", "Bakery", "Windmill"]
    owned = {f.name for _, f in state.factory_cards}
    return [OTHER_FACTORY, *[n for n in BONUS_FACTORIES if n not in owned]]


@st.composite
def attract(draw: st.DrawFn, state: UrbanisationState, player: str) -> Step | None:
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
def invention(draw: st.DrawFn, state: UrbanisationState, player: str) -> Step | None:
    """An invention card it can pay for: an ability nobody has, an end bonus nobody has (the
    VP follow from the card), or both; all cards at the space with the Professor."""
    card = state.cards[player]
    moves = [(start, to) for start in [0, *card.markers]  # 0: a new marker
             for to in range(start + 1, INVENTION_SPACES + 1)
             if state.docks[to - 1] and to - start - 1 <= card.money]
    if not moves:
        return None
    start, to = draw(st.sampled_from(moves), label="move")
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
    return ("invention", {"player": player, "start": start, "to": to, "cards": cards,
                          **({"character": "professor"} if professor else {})})


@st.composite
def buy_land(draw: st.DrawFn, state: UrbanisationState, player: str) -> Step | None:
    card = state.cards[player]
    if sum(c.territories for c in state.cards.values()) >= PRICE_MARKERS or card.money < 1:
        return None
    return ("buy_land", {"player": player, "price_markers": draw(st.integers(1, min(card.money,
                                                                                     4))),
                         "grounds": draw(st.integers(1, 2))})


@st.composite
def legal_step(draw: st.DrawFn, state: UrbanisationState) -> Step:
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
