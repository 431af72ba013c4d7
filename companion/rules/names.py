"""Players' names: written one way (cleaned), and told apart as a phone shows them (skeleton).

Unicode lets two different names look the same: "Аnn" with a Cyrillic А beside "Ann", a name
with a zero-width space in it, a name written in full-width letters. A table refuses seats whose
names look alike, so that nobody's points go to the wrong line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING
from unicodedata import category, normalize

from .common import RuleError, clean_text
from .text import Msg

if TYPE_CHECKING:
    from .game import Game

# Cyrillic and Greek letters that a phone shows like Latin ones (after Unicode's confusables,
# UTS #39, for the letters of these two scripts), each read as that Latin letter.
LOOKALIKE = str.maketrans(
    "АВЕКМНОРСТУХІЈЅаеорсухіјѕԁһԛԝӏ" "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορυχ",
    "ABEKMHOPCTYXIJSaeopcyxijsdhqwl" "ABEZHIKMNOPTYXaikvopux",
)


def clean_name(name: str) -> str:
    """A name as typed, written one way (`clean_text`): composed (NFC), without control,
    invisible or direction-changing characters, without surrounding or doubled spaces."""
    if not isinstance(name, str):
        raise RuleError(Msg("A player's name must be text, not {name!r}.", name=name))
    return clean_text(name)


def skeleton(name: str) -> str:
    """How a name looks on a phone: compatibility forms folded (full-width letters,
    ligatures), joiners dropped, look-alike letters of other scripts read as Latin ones, case
    ignored. Two names with the same skeleton cannot be told apart at a glance."""
    folded = normalize("NFKC", name)
    visible = "".join(ch for ch in folded if category(ch) != "Cf")
    return visible.translate(LOOKALIKE).casefold()


NAME_CHARACTERS = 24  # the most a player's name has (a phone's score strip shows it)


def check_players(game: Game, names: Iterable[str]) -> list[str]:
    """Player names for a new table: cleaned, 1 to 24 characters, within the game's player
    count, none that looks like the game's automated opponent or another seat's name.
    """
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise RuleError(Msg("List the players' names."))
    players = [name for name in map(clean_name, names) if name]
    if len(players) not in game.players:
        raise RuleError(Msg("{game} is played by {low} to {high} players.", game=game.name,
                            low=game.players.start, high=game.players.stop - 1))
    reserved = {skeleton(r) for r in game.reserved_names(len(players))}
    for name in players:
        if len(name) > NAME_CHARACTERS:
            raise RuleError(Msg("The name {name!r}... is longer than 24 characters.",
                                name=name[:NAME_CHARACTERS]))
        if skeleton(name) in reserved:
            raise RuleError(Msg(
                "{name} is the automated opponent's name here: choose another name.", name=name))
    _check_apart(players)
    return players


def _check_apart(players: list[str]) -> None:
    """Every seat's name looks different from every other's, as a phone shows them."""
    seen: dict[str, str] = {}
    for name in players:
        other = seen.get(skeleton(name))
        if other is None:
            seen[skeleton(name)] = name
            continue
        if other.casefold() == name.casefold():
            raise RuleError(Msg("Two players are called {name}: names must differ.",
                                name=other))
        raise RuleError(Msg("{name} and {other} look the same on a phone: names must be easy "
                            "to tell apart.", name=other, other=name))
