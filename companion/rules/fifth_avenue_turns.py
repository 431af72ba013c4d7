"""5th Avenue's turn and set-up helpers: what a turn may still hold, and the set-up drawn for
the table.

"On a player's turn, he has four choices (A, B, C, or D), of which he must execute one
completely on his turn: first, the 1st action, then, the 2nd action, and finally, the 3rd
action." The app sees three of those actions: placing a business (B's 1st), scoring a district
(D's 1st) and moving a commissioner (C's 1st and everyone's 3rd). Taking skyscrapers (A) and
the cards of the 2nd action are not entered, so a turn the app sees is one of:

    business, move  |  score, move  |  move, move (C)  |  move (A, ended by a tap)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .common import RuleError
from .fifth_avenue import BUSINESSES, COLOURS, PLOTS
from .text import Msg

FIRST_ACTIONS = ("business", "score")
TILES_EACH = 9  # "9 each of boutique, jeweler, gallery, and perfume shop"
ROW_TILES = 20


def turn_after(steps: Sequence[str], step: str, player: str) -> tuple[bool, list[str] | None]:
    """Whether `step` starts the next player's turn, and the steps of the turn it belongs to
    afterwards (None once that turn is complete: a 1st action and its move, or C's two moves).

    A business or a score after a lone move must be the next player's: a 1st action never
    follows the 3rd, so the lone move was option A's. Anything else out of order is refused.
    """
    done = list(steps)
    new_turn = step in FIRST_ACTIONS and done == ["move"]
    if new_turn:
        done = []
    if step == "score" and "score" in done:
        raise RuleError(Msg("{player} has already scored a district this turn: option D scores "
                            "one district. Next, move a commissioner (3rd action).",
                            player=player))
    if step in FIRST_ACTIONS and done:
        raise RuleError(Msg("{player} has had the 1st action of this turn; next, move a "
                            "commissioner (3rd action).", player=player))
    done.append(step)
    complete = done[-1] == "move" and len(done) == 2
    return new_turn, None if complete else done


def may_end_turn(steps: Sequence[str]) -> bool:
    """A turn the app cannot see end by itself: option A's, whose only entered action is the
    commissioner's move (the 3rd action, which every turn must make)."""
    return list(steps) == ["move"]


def draw_setup(colours: Mapping[str, Sequence[str]], rng: random.Random) -> dict[str, Any]:
    """The set-up drawn as the rulebook has the table draw it: the 36 business tiles shuffled,
    one face up on a plot in each district ("at least one is placed on each plot color and none
    are placed so that more than two plots of a color are used"), then 20 on the supply row in
    the order drawn; the other 9 stay in the box."""
    tiles = [kind for kind in BUSINESSES for _ in range(TILES_EACH)]
    rng.shuffle(tiles)
    used = dict.fromkeys(COLOURS, 0)
    start = {}
    districts = list(colours)
    for number, district in enumerate(districts, start=1):
        after = len(districts) - number
        plots = [k for k in range(PLOTS) if _colour_fits(colours[district][k], used, after)]
        plot = rng.choice(plots)
        used[colours[district][plot]] += 1
        start[district] = {"plot": plot, "kind": tiles.pop()}
    return {"start": {d: start[d] for d in districts}, "row": tiles[:ROW_TILES]}


def _colour_fits(colour: str, used: Mapping[str, int], districts_after: int) -> bool:
    """A colour may take one more plot if it is on fewer than two, and the districts still to
    come can give every unused colour its plot."""
    if used[colour] >= 2:
        return False
    unused = sum(1 for c, n in used.items() if n == 0 and c != colour)
    return unused <= districts_after
