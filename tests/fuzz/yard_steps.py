"""Legal steps of a construction-yard game, worked out from the table's state: the starting
money, Dirk's cards when they are due, purchases by any player while the game goes on, scorings
A then B, once the display cannot be refilled only the last buyer's purchases, then the final
scoring (for the fuzz tests of the flow and of changes)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from companion.rules.yard import BUILDINGS, CURRENCIES, DIRK
from companion.rules.yard_table import YardState

Step = tuple[str, dict[str, Any]]


@st.composite
def starting_money(draw: st.DrawFn, players: list[str]) -> list[Step]:
    """Each player's starting capital (dealt until it reaches 20: 20-28 in 3-8 cards here), and
    the youngest when several are tied to start."""
    cards = {p: draw(st.integers(3, 8)) for p in players}
    totals = {p: draw(st.integers(max(20, cards[p]), min(28, 9 * cards[p]))) for p in players}
    steps: list[Step] = [("starting_money", {"cards": cards, "totals": totals})]
    table = YardState.start(players)
    table.apply(*copy.deepcopy(steps[0]))
    if table.starter is None:
        steps.append(("youngest", {"player": draw(st.sampled_from(table.start_candidates))}))
    return steps


@st.composite
def dirk_deal(draw: st.DrawFn, state: YardState) -> Step:
    """Dirk's due cards, drawn from the building cards nobody holds."""
    left = dict(state.unbought)
    dealt = dict.fromkeys(BUILDINGS, 0)
    for _ in range(state.dirk_cards_due):
        building = draw(st.sampled_from([b for b in BUILDINGS if left[b]]))
        left[building] -= 1
        dealt[building] += 1
    return ("dirk_deal", {"buildings": dealt})


@st.composite
def purchase(draw: st.DrawFn, state: YardState, buyer: str) -> Step:
    """A card nobody holds yet, for the buyer (or, at two, for Dirk)."""
    building = draw(st.sampled_from([b for b in BUILDINGS if state.unbought[b]]))
    receiver = draw(st.sampled_from([buyer, DIRK])) if state.with_dirk else buyer
    return ("buy", {"player": buyer, "building": building, "for": receiver})


@st.composite
def final(draw: st.DrawFn, state: YardState) -> Step:
    """The cards left on display and who takes each (a player, or nobody for a tie), as the
    app records them; or, as logs from before did, each on its own currency space with who
    holds the most of that money."""
    left = state.leftover_buildings
    if draw(st.booleans(), label="who takes each card"):
        return ("final", {"leftovers": [{"building": b, "to": draw(st.sampled_from(
            [None, *state.players]))} for b in left]})
    spaces = draw(st.permutations(CURRENCIES))[:len(left)]
    return ("final", {
        "leftovers": [{"building": b, "currency": c} for b, c in zip(left, spaces, strict=True)],
        "most": {c: draw(st.sampled_from([None, *state.players])) for c in spaces},
    })


@st.composite
def legal_step(draw: st.DrawFn, state: YardState) -> Step:
    """What the table may do now: Dirk's deal when due; the scorings before the deck runs low;
    otherwise a purchase by anyone, and once the game is over the last buyer's or the end."""
    if state.dirk_due:
        return draw(dirk_deal(state))
    if state.game_over:
        if state.on_display and draw(st.booleans(), label="the last buyer goes on"):
            return draw(purchase(state, str(state.last_buyer)))
        return draw(final(state))
    due = {"A": 22, "B": 10}  # a scoring card comes before the building deck runs this low
    for scoring in ("A", "B"):
        if scoring not in state.scored:
            if state.deck_left <= due[scoring] or draw(st.integers(0, 15)) == 0:
                return ("score", {"scoring": scoring})
            break
    return draw(purchase(state, draw(st.sampled_from(state.players), label="buyer")))
