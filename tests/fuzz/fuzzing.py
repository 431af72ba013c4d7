"""What the fuzz tests share: how many examples each runs (RULES_FUZZ_EXAMPLES for many more),
the legal states of every game's table and a random action for it, and a table's state to
compare before and after a refusal; the wrong steps a turn-order test tries, each refused and
leaving the table as it was, and the replay of a played log."""

import copy
import functools
import os
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from companion import rules
from tests.fuzz import strategies as s

EXAMPLES = int(os.environ.get("RULES_FUZZ_EXAMPLES", "0"))
fuzz = settings(deadline=None, suppress_health_check=list(HealthCheck))


def examples(default: int) -> settings:
    return settings(fuzz, max_examples=EXAMPLES or default)


@functools.cache
def legal_states(slug: str) -> list[Any]:
    """A fresh table, and the table after each step of a legal game."""
    players, steps = s.GAMES[slug]
    state = rules.GAMES[slug].start(players)
    states = [copy.deepcopy(state)]
    for kind, payload in steps:
        state.apply(kind, copy.deepcopy(payload))
        states.append(copy.deepcopy(state))
    return states


def kinds(slug: str) -> list[str]:
    table = type(legal_states(slug)[0])
    return sorted(name.removeprefix("_apply_") for name in dir(table)
                  if name.startswith("_apply_"))


@st.composite
def actions(draw: st.DrawFn, slug: str) -> tuple[str, dict]:
    """A known or unknown kind with a hostile payload, or a legal payload with keys dropped,
    replaced or added."""
    unknown = st.sampled_from(["", "undo", "redo", "apply", "_apply_pass", "before_action"])
    kind = draw(st.sampled_from(kinds(slug)) | unknown | s.texts)
    legal = [payload for k, payload in s.GAMES[slug][1] if k == kind]
    if not legal or draw(st.booleans()):
        return kind, draw(s.payloads)
    payload = copy.deepcopy(draw(st.sampled_from(legal)))
    for key in draw(st.lists(st.sampled_from(sorted(payload) or [""]), max_size=2)):
        payload.pop(key, None)
    payload.update(draw(st.dictionaries(s.json_keys, s.json_values | s.near_json, max_size=3)))
    return kind, payload


def snapshot(state: Any) -> dict[str, Any]:
    """The table's state; `note` only says what the last action did, so a refusal may clear it."""
    return {key: value for key, value in vars(state).items() if key != "note"}


Step = tuple[str, dict[str, Any]]


def refused_unchanged(state: Any, step: Step, frozen: Callable[[Any], bytes] = pickle.dumps
                      ) -> None:
    """`step` is refused, and the table is as it was: to the last byte, or as `frozen` keeps
    it."""
    before = frozen(state)
    with pytest.raises(rules.RuleError):
        state.apply(*copy.deepcopy(step))
    assert frozen(state) == before, step


def wrong_steps_refused(data: st.DataObject, state: Any, wrong_step: Callable[[Any], Any],
                        at_most: int, refused: Callable[[Any, Step], None] = refused_unchanged
                        ) -> None:
    """Up to `at_most` steps drawn from `wrong_step(state)` (None: it has none now), each
    refused and leaving the table as it was (`refused` checks it)."""
    for _ in range(data.draw(st.integers(0, at_most), label="wrong steps")):
        step = data.draw(wrong_step(state), label="wrong")
        if step is not None:
            refused(state, step)


def after_the_end_refused(data: st.DataObject, state: Any, wrong_step: Callable[[Any], Any],
                          refused: Callable[[Any, Step], None] = refused_unchanged) -> None:
    """Three steps drawn from `wrong_step(state)` once the game is over, each refused and
    leaving the table as it was."""
    for _ in range(3):
        refused(state, data.draw(wrong_step(state), label="after the end"))


def replayed(game: rules.Game, players: list[str], log: list[Step]) -> Any:
    """The table a replay of the played steps gives, logged as events numbered from 1."""
    events = [rules.Event(seq, kind, payload) for seq, (kind, payload) in enumerate(log, 1)]
    return rules.replay(game, players, events).state
