"""Players' names: written one way (cleaned), and told apart as a phone shows them (skeleton).

Unicode lets two different names look the same: "Аnn" with a Cyrillic А beside "Ann", a name
with a zero-width space in it, a name written in full-width letters. A table refuses seats whose
names look alike, so that nobody's points go to the wrong line.
"""

from __future__ import annotations

from unicodedata import category, normalize

from .common import RuleError
from .text import Msg

# Characters that show nothing or turn the text around: they make two names look alike or a
# name read backwards. (Zero-width joiners stay: emoji and some scripts need them.)
INVISIBLE = frozenset("\u00ad\u061c\u180e\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                      "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff")
# Cyrillic and Greek letters that a phone shows like Latin ones (after Unicode's confusables,
# UTS #39, for the letters of these two scripts), each read as that Latin letter.
LOOKALIKE = str.maketrans(
    "АВЕКМНОРСТУХІЈЅаеорсухіјѕԁһԛԝӏ" "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορυχ",
    "ABEKMHOPCTYXIJSaeopcyxijsdhqwl" "ABEZHIKMNOPTYXaikvopux",
)


def clean_name(name: str) -> str:
    """A name as typed, written one way: composed (NFC), without control, invisible or
    direction-changing characters, without surrounding or doubled spaces."""
    if not isinstance(name, str):
        raise RuleError(Msg("A player's name must be text, not {name!r}.", name=name))
    kept = "".join(ch for ch in name if category(ch) != "Cc" and ch not in INVISIBLE)
    return " ".join(normalize("NFC", kept).split())


def skeleton(name: str) -> str:
    """How a name looks on a phone: compatibility forms folded (full-width letters,
    ligatures), joiners dropped, look-alike letters of other scripts read as Latin ones, case
    ignored. Two names with the same skeleton cannot be told apart at a glance."""
    folded = normalize("NFKC", name)
    visible = "".join(ch for ch in folded if category(ch) != "Cf")
    return visible.translate(LOOKALIKE).casefold()
