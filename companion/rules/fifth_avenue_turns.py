"""5th Avenue's turn and set-up helpers: what a turn may still hold, and the set-up drawn for
the table.

"On a player's turn, he has four choices (A, B, C, or D), of which he must execute one
completely on his turn: first, the 1st action, then, the 2nd action, and finally, the 3rd
action." The app sees the 1st action of each (A taking 3 skyscrapers, B placing a business,
C's move of a commissioner, D scoring a district) and the 3rd (everyone's move); the cards of
the 2nd action are not entered. So a turn the app sees is its 1st action, then a move:

    skyscrapers, move  |  business, move  |  move, move (C)  |  score, move

and it ends by itself with that move.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .common import RuleError
from .fifth_avenue import BUSINESS_LABELS, BUSINESSES, COLOURS, PLOTS
from .text import Msg

FIRST_ACTIONS = ("skyscrapers", "business", "score")
TILES_EACH = 9  # "9 each of boutique, jeweler, gallery, and perfume shop"
ROW_TILES = 20


def turn_after(steps: Sequence[str], step: str, player: str) -> list[str] | None:
    """The steps of the turn after `step`, or None once the turn is complete (its 1st action,
    then the 3rd: a move). RuleError for a 1st action where the 3rd comes next."""
    if step == "score" and "score" in steps:
        raise RuleError(Msg("{player} has already scored a district this turn: option D scores "
                            "one district. Next, move a commissioner (3rd action).",
                            player=player))
    if step in FIRST_ACTIONS and steps:
        raise RuleError(third_action_due(steps, player))
    done = [*steps, step]
    return None if len(done) == 2 else done


def third_action_due(steps: Sequence[str], player: str) -> str:
    """Why a 1st action cannot come now: the turn's 3rd action, a move, comes next."""
    if list(steps) == ["move"]:
        return Msg("{player}'s 1st action was a commissioner's move (option C): the 3rd action "
                   "is to move a commissioner again.", player=player)
    return Msg("{player} has had the 1st action of this turn; next, move a commissioner (3rd "
               "action).", player=player)


def may_end_turn(steps: Sequence[str]) -> bool:
    """Tables from before option A was entered ended its turn with a tap after the lone move
    (the 3rd action): that tap says the move was option A's."""
    return list(steps) == ["move"]


def check_tiles_in_box(kinds: Iterable[object]) -> None:
    """A set-up the table lays out comes from the box: "9 each of boutique, jeweler, gallery,
    and perfume shop", so no business shows more than 9 times among the starting businesses and
    the supply row (more means one was entered wrong)."""
    counted = Counter(kind for kind in kinds if kind in BUSINESSES)
    for kind in BUSINESSES:
        if counted[kind] > TILES_EACH:
            raise RuleError(Msg("The box holds {most} {business} tiles, but this set-up shows "
                                "{count}: check the starting businesses and the row.",
                                most=TILES_EACH, business=BUSINESS_LABELS[kind],
                                count=counted[kind]))


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
