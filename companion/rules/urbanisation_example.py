"""A scripted six-turn Urbanisation game for three players with the inventions, each action
checked by hand against the rulebook (the comments give the arithmetic). The rules tests play
it through; the benchmarks seed their tables with it.
"""

from typing import Any

Action = tuple[str, dict[str, Any]]

PLAYERS = ["Ann", "Ben", "Cy"]


def act(kind: str, player: str, **payload: Any) -> Action:
    return (kind, {"player": player, **payload})


def hire(*keys: str, players: list[str] = PLAYERS) -> list[Action]:
    return [act("character", p, character=k) for p, k in zip(players, keys, strict=True)]


def passes(*players: str) -> list[Action]:
    return [act("pass", p) for p in players]


ADMIN: Action = ("administration", {})
SETUP = ("setup", {"inventions": True, "start_player": "Ann", "money": 10,
                   "grounds": {"Ann": 2, "Ben": 2, "Cy": 1}})
BUY = "trade_grain"

TURN_1 = [
    *hire("mill_worker", "farmer", "double_orders"),
    # Phase 1. Ann: the Mill Worker takes 2 of the field's 3 grain, then she buys 3: barns 1, 2
    # and 3 ($1 + $1 + $2 = $4). Ben buys 4: barns 1-4 ($1 + $1 + $2 + $2 = $6). Cy: 2 orange,
    # doubled: 4 orange.
    act(BUY, "Ann", buy=3, character="mill_worker"),
    act(BUY, "Ben", buy=4),
    act("work_orders", "Cy", colour="orange", count=2, character="double_orders"),
    # Phase 2. Ann: a house ($2, 1 VP) on her second ground. Ben sows 1 grain and 2 on the Farmer.
    # Cy: 1 grey, the last space of the card (+$1).
    act("erect", "Ann", building="house"),
    act("sow", "Ben", grain=1, farmer=2, character="farmer"),
    act("work_orders", "Cy", colour="grey", count=1, last=True),
    # Phase 3. Cy buys a territory with 2 grounds for 2 price markers ($2).
    act("work_orders", "Ann", colour="white", count=2),
    act("work_orders", "Ben", colour="orange", count=1),
    act("buy_land", "Cy", price_markers=2, grounds=2),
    # Phase 4. Cy attracts factory 3 (orange, 2 goods): 2 VP.
    *passes("Ann", "Ben"),
    act("attract", "Cy", number=3, colour="orange", goods=2, name="other"),
    ADMIN,
]

TURN_2 = [  # Cy has the fewest VP (3): he is the Mayor and starts.
    *hire("any_colour", "architect", "tax_collector", players=["Cy", "Ann", "Ben"]),
    # Phase 1. Cy produces 2 orange goods at factory 3: $2, 2 VP. Ann's skyscraper with the
    # Architect: $3 - $1 = $2, 2 VP. Ben collects taxes twice: 1 citizen, $2.
    act("produce", "Cy", factory=3, orders={"orange": 2}),
    act("erect", "Ann", building="skyscraper", character="architect"),
    act("taxes", "Ben", character="tax_collector"),
    # Phase 2. Ann's taxes: 2 citizens, $2.
    act("work_orders", "Cy", colour="white", count=1),
    act("taxes", "Ann"),
    act("work_orders", "Ben", colour="grey", count=2),
    # Phase 3. Cy upgrades factory 3 with factory 5, the Oil Refinery (grey, 2 goods): 2 VP.
    # Ann: administrative building, $3, 2 VP. Ben: 1 price marker, a territory with 1 ground.
    act("attract", "Cy", number=5, colour="grey", goods=2, name="Oil Refinery", upgrade=3),
    act("erect", "Ann", building="administrative"),
    act("buy_land", "Ben", price_markers=1, grounds=1),
    # Phase 4. Cy with Any colour: 1 orange + 1 white at the grey factory 5: $1 + $3, 2 VP.
    # Ben: a house ($2, 1 VP).
    act("produce", "Cy", factory=5, orders={"orange": 1, "white": 1}, character="any_colour"),
    act("pass", "Ann"),
    act("erect", "Ben", building="house"),
    ADMIN,
]

PROFESSOR_CARDS = [{"ability": "grey_money"},
                   {"ability": "harvest_grain1", "factory": "Oil Refinery", "vp": 2}]

TURN_3 = [  # Cy again has the fewest VP (10).
    *hire("professor", "land_swap", "any_factory", players=["Cy", "Ann", "Ben"]),
    # Phase 1. Cy: a new marker to docking space 2 ($1) and, with the Professor, both cards
    # there: 2 VP. Ann: land swap, 1 price marker ($1), 2 grounds. Ben: Any factory takes
    # factory 4 (grey, 3 goods) before its work orders are filled: 2 VP.
    act("invention", "Cy", to=2, cards=PROFESSOR_CARDS, character="professor"),
    act("buy_land", "Ann", price_markers=1, grounds=2, character="land_swap"),
    act("attract", "Ben", number=4, colour="grey", goods=3, name="Steelworks", filled=False,
        character="any_factory"),
    # Phase 2. Ann sows her 1 grain. Ben: 2 grey goods at factory 4: $4, 2 VP.
    act("work_orders", "Cy", colour="orange", count=3),
    act("sow", "Ann", grain=1),
    act("produce", "Ben", factory=4, orders={"grey": 2}),
    # Phase 3. Cy: 1 grey good at factory 5, $2 + $1 (grey money invention), 1 VP. Ben sells 2
    # grain: barns [1, 1, 2, 3] have room only in barn 1 (2 markers at $1): $2.
    act("produce", "Cy", factory=5, orders={"grey": 1}),
    act("work_orders", "Ann", colour="grey", count=1),
    act(BUY, "Ben", sell=2),
    *passes("Cy", "Ann", "Ben"),
    ADMIN,
]

TURN_4 = [  # Cy has the fewest VP (16) a third time.
    *hire("tax_collector", "mill_worker", "architect", players=["Cy", "Ann", "Ben"]),
    # Phase 1. Cy's taxes twice: 1 citizen, $2. Ann: the Mill Worker alone, 2 grain from the
    # field. Ben: administrative building with the Architect, $2, 2 VP.
    act("taxes", "Cy", character="tax_collector"),
    act(BUY, "Ann", character="mill_worker"),
    act("erect", "Ben", building="administrative", character="architect"),
    # Phase 2. Cy: a house, $2, 1 VP. Ann's taxes: 2 citizens, $2.
    act("erect", "Cy", building="house"),
    act("taxes", "Ann"),
    act("work_orders", "Ben", colour="white", count=1),
    # Phase 3. Cy buys 2 grain: barns 1 and 2, $2. Ann: a house, $2, 1 VP.
    act(BUY, "Cy", buy=2),
    act("erect", "Ann", building="house"),
    act("pass", "Ben"),
    *passes("Cy", "Ann", "Ben"),
    ADMIN,
]

TURN_5 = [  # Ben has the fewest VP (21).
    *hire("double_orders", "farmer", "any_factory", players=["Ben", "Cy", "Ann"]),
    # Phase 1. Ben: 2 grey, doubled in white. Cy: 1 seed on the Farmer. Ann: Any factory takes
    # factory 8 (white, 2 goods): 2 VP.
    act("work_orders", "Ben", colour="grey", count=2, extra_colour="white",
        character="double_orders"),
    act("sow", "Cy", farmer=1, character="farmer"),
    act("attract", "Ann", number=8, colour="white", goods=2, name="Hotel", filled=False,
        character="any_factory"),
    # Phase 2. Ben: 2 grey goods, $4, 2 VP. Cy moves his marker from space 2 to 4 ($1) and takes
    # one card: 1 VP. Ann: 2 white goods, $6, 2 VP.
    act("produce", "Ben", factory=4, orders={"grey": 2}),
    act("invention", "Cy", start=2, to=4, cards=[{"ability": "orange_order"}]),
    act("produce", "Ann", factory=8, orders={"white": 2}),
    # A correction, outside the turn order: Ben paid $1 too little.
    ("effect", {"player": "Ben", "money": -1, "reason": "Paid $1 too little for land"}),
    *passes("Ben", "Cy", "Ann"),
    *passes("Ben", "Cy", "Ann"),
    ADMIN,
]

TURN_6 = [  # Ben has the fewest VP (24) again.
    *hire("mill_worker", "any_colour", "architect", players=["Ben", "Cy", "Ann"]),
    # Phase 1. Ben: Mill Worker 2 free, then barns 1 and 2 ($2). Cy with Any colour: 2 orange at
    # the grey factory 5: $2 (the grey money invention does not apply to orange), 2 VP.
    # Ann: 2 skyscrapers with the Architect, 2 x ($3 - $1) = $4, 4 VP.
    act(BUY, "Ben", buy=2, character="mill_worker"),
    act("produce", "Cy", factory=5, orders={"orange": 2}, character="any_colour"),
    act("erect", "Ann", building="skyscraper", count=2, character="architect"),
    # Phase 2. Ben: 3 price markers ($3), 1 ground. Cy: 2 white.
    act("buy_land", "Ben", price_markers=3, grounds=1),
    act("work_orders", "Cy", colour="white", count=2),
    act("pass", "Ann"),
    # Phase 3. Ben: a house, $2, 1 VP.
    act("erect", "Ben", building="house"),
    *passes("Cy", "Ann"),
    *passes("Ben", "Cy", "Ann"),
    ADMIN,
]


def game() -> list[Action]:
    """The whole game: set-up, six turns, and the final scoring."""
    turns = [TURN_1, TURN_2, TURN_3, TURN_4, TURN_5, TURN_6]
    return [SETUP, *[action for turn in turns for action in turn], ("final", {})]
