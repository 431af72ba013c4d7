"""A scripted three-player construction-yard game played to its end, every score worked out by
hand from the reference card (C pays 16/8/1, 17/9/2, 18/10/3, 19/11/4, 20/12/5, 21/13/6). The
rules tests play it through; the browser tests seed a table with it and tap the end.

All 54 building cards: 51 are bought, so the deck is empty and the display holds 3, which by
elimination are a museum, a church and a skyscraper.
"""

from typing import Any

Action = tuple[str, dict[str, Any]]

PLAYERS = ["Ann", "Ben", "Cy"]


def buys(player: str, **counts: int) -> list[Action]:
    return [("buy", {"player": player, "building": building, "for": player})
            for building, n in counts.items() for _ in range(n)]


# A: park Ann (2) 5; skyscraper Ben (1) 6; museum Cy (1) 1.
BEFORE_A = [*buys("Ann", park=2), *buys("Ben", skyscraper=1), *buys("Cy", museum=1)]
# B: museum Cy 8; park Ann (2) 12, Ben (1) 5; skyscraper Ben 13; church Cy 11.
BEFORE_B = [*buys("Ben", park=1), *buys("Cy", church=1)]
# To the end: Ann 0 museums, 3 theaters, 5 stations, 3 churches, 5 parks, 4 skyscrapers;
# Ben 2, 3, 2, 3, 4, 4; Cy 4, 1, 2, 2, 2, 2.
TO_THE_END = [
    *buys("Ann", theater=3, station=5, church=3, park=3, skyscraper=4),
    *buys("Ben", museum=2, theater=3, station=2, church=3, park=3, skyscraper=3),
    *buys("Cy", museum=3, theater=1, station=2, church=1, park=2, skyscraper=2),
]
GAME_OVER: list[Action] = [*BEFORE_A, ("score", {"scoring": "A"}), *BEFORE_B,
                           ("score", {"scoring": "B"}), *TO_THE_END]

# The museum lies on blue, the church on green, the skyscraper on yellow. Ann holds the most blue
# and Ben the most yellow money; Ann and Cy tie on green, so the church stays unsold.
FINAL: Action = ("final", {
    "leftovers": [{"building": "museum", "currency": "blue"},
                  {"building": "church", "currency": "green"},
                  {"building": "skyscraper", "currency": "yellow"}],
    "most": {"blue": "Ann", "green": None, "yellow": "Ben"},
})
# C: museum Cy (4) 16, Ben (2) 8, Ann (1) 1; theater Ann = Ben (3) 17 + 9 = 26, 13 each, Cy 2;
# station Ann (5) 18, Ben = Cy (2) 10 + 3 = 13, 6 each; church Ann = Ben (3) 19 + 11 = 30,
# 15 each, Cy 4; park Ann (5) 20, Ben (4) 12, Cy (2) 5; skyscraper Ben (5) 21, Ann (4) 13, Cy 6.
POINTS = {
    "A": {"Ann": 5, "Ben": 6, "Cy": 1},
    "B": {"Ann": 12, "Ben": 18, "Cy": 19},
    "C": {"Ann": 1 + 13 + 18 + 15 + 20 + 13, "Ben": 8 + 13 + 6 + 15 + 12 + 21,
          "Cy": 16 + 2 + 6 + 4 + 5 + 6},
}
TOTALS = {"Ann": 97, "Ben": 99, "Cy": 59}  # the skyscraper on yellow makes Ben the winner
