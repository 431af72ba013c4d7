"""Random legal games of every game, step by step, for the property tests that play them
through (a change keeps meanings, no position is a dead end): each game's seats and its next
legal step at a state, the game steered to its end as it grows long."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.fuzz import strategies as s
from tests.fuzz import urbanisation_steps as urbanisation
from tests.fuzz import yard_steps as yard

Step = tuple[str, dict[str, Any]]
# The next legal step: next_step(draw, state, n), `n` the number of actions so far.
Next = Callable[[Any, Any, int], Step]

SEATS: dict[str, list[str]] = {
    "yard": ["Ann", "Ben", "Cy"],
    "fifth_avenue": ["Ann", "Ben", "Cy"],
    "street": ["Mia", "Ola", "Pit"],
    "urbanisation": ["Ann", "Ben", "Cy"],
}

NEXT: dict[str, Next] = {
    "yard": lambda draw, state, n: draw(yard.legal_step(state)),
    "fifth_avenue": lambda draw, state, n: draw(s.fifth_avenue_next(state, late=n > 120)),
    "street": lambda draw, state, n: draw(s.street_next(state, late=n > 60)),
    "urbanisation": lambda draw, state, n: draw(
        urbanisation.set_up(state.players) if state.segment == "setup"
        else urbanisation.legal_step(state)),
}
