"""The construction-yard game's flow as a property: random legal games for 2 to 6 players (Dirk
at 2) - the starting money, Dirk's cards when they are due, purchases by any player while the
game goes on, scorings A then B, once the display cannot be refilled only the last buyer's
purchases, then the final scoring with the cards left - are played to the end without one
refusal. A wrong step (another player buying after the end, a purchase before Dirk's due deal,
scoring B before A, the final scoring before the end, anything after it) is always refused and
leaves the table exactly as it was.

Hunt for bugs with many more examples:
RULES_FUZZ_EXAMPLES=2000 pytest tests/fuzz/test_yard_turns.py
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import rules
from companion.rules.yard import BUILDINGS, CURRENCIES
from companion.rules.yard_table import YardState
from tests.fuzz.fuzzing import after_the_end_refused, examples, replayed, wrong_steps_refused
from tests.fuzz.yard_steps import final, legal_step, purchase, starting_money

GAME = rules.GAMES["yard"]
SEATS = ["Ann", "Ben", "Cy", "Dee", "Eli", "Flo"]
Step = tuple[str, dict[str, Any]]


# Wrong steps ------------------------------------------------------------------------------------


@st.composite
def wrong_step(draw: st.DrawFn, state: YardState) -> Step | None:
    """A step the rules must refuse now, if the table has one: anything after the final
    scoring; another player's purchase once the display could not be refilled; a purchase or
    a scoring before Dirk's due deal; scoring B before A (or A again, or C as A or B); the final
    scoring before the end; Dirk's cards when none are due."""
    wrong: list[Step] = []
    anyone = draw(st.sampled_from(state.players), label="player")
    building = draw(st.sampled_from(BUILDINGS), label="building")
    if state.finished:
        wrong += [("buy", {"player": anyone, "building": building}), ("score", {"scoring": "B"}),
                  ("final", {"leftovers": [], "most": {}}),
                  ("correct", {"owner": anyone, "building": building, "count": 0,
                               "reason": "late"})]
        return draw(st.sampled_from(wrong))
    if state.game_over:
        wrong += [("buy", {"player": p, "building": b})
                  for p in state.players if p != state.last_buyer for b in BUILDINGS]
    if state.dirk_due:
        wrong += [("buy", {"player": anyone, "building": building}),
                  ("score", {"scoring": "B" if state.scored else "A"})]
        if len(state.scored) == 2:
            wrong.append(draw(final(state)) if state.game_over else
                         ("final", {"leftovers": [], "most": {}}))
    else:
        wrong.append(("dirk_deal", {"buildings": {building: 1}}))
    wrong += [("score", {"scoring": s}) for s in ("A", "B", "C")
              if s == "C" or s in state.scored or (s == "B" and not state.scored)]
    if not state.game_over:
        wrong.append(("final", {"leftovers": [], "most": {}}))
        left = [b for b in BUILDINGS if state.unbought[b]][:4]
        wrong.append(("final", {"leftovers": [{"building": b, "currency": c}
                                              for b, c in zip(left, CURRENCIES, strict=False)],
                                "most": dict.fromkeys(CURRENCIES)}))
    return draw(st.sampled_from(wrong)) if wrong else None


# The properties -------------------------------------------------------------------------------


@examples(30)
@given(data=st.data(), seats=st.integers(2, 6), wrong=st.integers(0, 2))
def test_legal_games_reach_the_end_and_wrong_steps_are_refused(data, seats, wrong):
    """`wrong`: how often a wrong step is tried before each legal one, at most."""
    players = SEATS[:seats]
    state = YardState.start(players)
    log: list[Step] = data.draw(st.one_of(st.just([]), starting_money(players)), label="money")
    for step in log:
        state.apply(*copy.deepcopy(step))
    while not state.finished:
        wrong_steps_refused(data, state, wrong_step, wrong)
        was_over, buyer = state.game_over, state.last_buyer
        step = data.draw(legal_step(state), label="legal")
        state.apply(*copy.deepcopy(step))  # a legal step: never refused
        log.append(step)
        if was_over and step[0] == "buy":
            assert step[1]["player"] == buyer  # after the end, only the last buyer buys
    assert log[-1][0] == "final" and state.scored == ["A", "B", "C"]
    assert state.deck_left == 0 and state.up_next is None
    assert all(sum(row[b] for row in state.buildings.values()) + state.unbought[b] == n
               for b, n in zip(BUILDINGS, (7, 7, 9, 9, 11, 11), strict=True))
    assert state.dirk_deals == (["setup", "A", "B"] if seats == 2 else [])
    after_the_end_refused(data, state, wrong_step)  # anything at all
    assert pickle.dumps(replayed(GAME, players, log)) == pickle.dumps(state)  # the log is the game


@examples(40)
@given(data=st.data(), seats=st.integers(2, 6))
def test_once_the_display_runs_short_only_the_last_buyer_buys(data, seats):
    """Whoever ends it, every other player's purchase is refused naming the last buyer, who
    may buy on (paying exactly) until the display is empty; the strip says the end is next."""
    players = SEATS[:seats]
    state = YardState.start(players)
    while not state.game_over:
        state.apply(*data.draw(legal_step(state), label="legal"))
    last = state.last_buyer
    assert last in players
    first = (f" (scoring {state.next_scoring} first, if its card comes with the money after "
             "this turn)") if state.next_scoring else ""
    assert state.up_next == (f"The display cannot be refilled: {last} may still buy after "
                             f"paying exactly; then comes the final scoring{first}.")
    while state.on_display:
        for other in (p for p in players if p != last):
            with pytest.raises(rules.RuleError, match=f"Only {last} may still buy"):
                state.apply("buy", {"player": other, "building": state.leftover_buildings[0]})
        state.apply(*data.draw(purchase(state, last), label="the last buyer"))
        assert state.last_buyer == last
    with pytest.raises(rules.RuleError, match="No building cards are left to buy"):
        state.apply("buy", {"player": last, "building": "park"})
    state.apply("final", {"leftovers": [], "most": {}})
    assert state.finished and state.leftover_buildings == []
