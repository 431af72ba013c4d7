"""Players' names: written one way (cleaned), and told apart as a phone shows them (skeleton).

Unicode lets two different names look the same: "Аnn" with a Cyrillic А beside "Ann", a name
with a zero-width space in it, a name written in full-width letters. A table refuses seats whose
names look alike, so that nobody's points go to the wrong line.
"""

from __future__ import annotations

from unicodedata import category, normalize

from .common import RuleError, clean_text
from .text import Msg

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
