"""Words for the players that the rules produce, kept translatable without any web framework.

A `Msg` is the English text as a plain `str` (so the rules and their tests read and compare it
like any string) that also keeps its template and values, so the web layer can show it in the
players' language: it looks the template up in the catalogue, then fills in the values (which may
be `Msg`s themselves). Templates use `str.format` fields: `Msg("{name} leads by {lead}", ...)`.
Build a sentence from parts with a template, never with `+` or an f-string: either would give a
plain English `str` that no catalogue can translate.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from string import Formatter
from typing import Any

# The most characters of a value a refusal quotes as it was sent (a `!r` field: "'Zed' is not
# a player at this table."): a tampered form's 40,000-character name is said cut short.
QUOTED = 40


class _Quoting(Formatter):
    """`str.format`, but a value quoted as sent (`!r`) is cut short past QUOTED characters."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion != "r":
            return super().convert_field(value, conversion)
        quoted = repr(value)
        return quoted if len(quoted) <= QUOTED else quoted[:QUOTED - 1] + "\u2026"


_QUOTING = _Quoting()


def filled(template: str, params: dict[str, Any]) -> str:
    """A template with its values (`str.format`; a value quoted as sent is cut short; one stop
    at a sentence's end, `one_stop`)."""
    template = one_stop(template, params, "{%s}")
    return _QUOTING.format(template, **params) if "!r}" in template else \
        template.format(**params)


def one_stop(template: str, params: Mapping[str, Any], field: str) -> str:
    """The template without the full stop it puts right after a value that ends with one (a
    name "Jean-Baptiste L."): a sentence ends with one stop (found at a table: "Triggered by
    Jean-Baptiste Lefèvre-D.."). `field`: how the template names a value ("{%s}", "%%(%s)s");
    a template with no value right before a stop is looked at no further (most are not)."""
    if field.split("%s")[1] + "." not in template:
        return template
    for key, value in params.items():
        if isinstance(value, str) and value.endswith("."):
            template = template.replace(field % key + ".", field % key)
    return template


class Msg(str):
    """English text that remembers how to say itself in another language."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Msg:
        text = super().__new__(cls, filled(template, params) if params else template)
        text.template = template
        text.params = params
        return text

    def __reduce__(self) -> Any:
        return (_rebuild, (type(self), self.template, self.params))


class Plural(Msg):
    """A `Msg` whose wording depends on a count: `Plural("{n} card", "{n} cards", n=3)`."""

    plural: str
    number: int

    def __new__(cls, singular: str, plural: str, **params: Any) -> Plural:
        number = int(params["n"])
        text = str.__new__(cls, filled(singular if number == 1 else plural, params))
        text.template, text.params, text.plural, text.number = singular, params, plural, number
        return text

    def __reduce__(self) -> Any:
        return (_rebuild_plural, (self.template, self.plural, self.params))


class Account(Msg):
    """The rules' note on an action that says the whole of it in its own words, and what came of
    it ("Ann erected 1 skyscraper for $2: +2 VP."): shown in place of the action's words, not
    beside them (`pad.shown_together`)."""


def _rebuild(cls: type[Msg], template: str, params: dict[str, Any]) -> Msg:
    return cls(template, **params)


def _rebuild_plural(singular: str, plural: str, params: dict[str, Any]) -> Plural:
    return Plural(singular, plural, **params)


MINUS = "\u2212"  # a lost point said as the minus sign, not a hyphen


def signed(points: int) -> str:
    """Points or money given or taken, as every page says them: "+5", "0", "−3" (the minus
    sign, not a hyphen)."""
    return f"+{points}" if points > 0 else f"{MINUS}{-points}" if points < 0 else "0"


def whole(number: int) -> str:
    """A whole number as every page and print writes it: "2", "0", "−2" (the minus sign, not a
    hyphen)."""
    return f"{MINUS}{-number}" if number < 0 else str(number)


def terms(numbers: Iterable[int]) -> str:
    """Numbers added up, written as a sum is: "7 − 2 + 0 + 3" (a negative one taken away with
    the minus sign, never "+ -2")."""
    said = ""
    for number in numbers:
        if not said:
            said = whole(number)
        else:
            said += f" + {number}" if number >= 0 else f" {MINUS} {-number}"
    return said


def listed(words: Sequence[str]) -> str:
    """Words one after another, 'a, b, c', each kept a `Msg` so the list can be said in German
    too."""
    if not words:
        return ""
    joined = words[-1]
    for word in reversed(words[:-1]):
        joined = Msg("{first}, {rest}", first=word, rest=joined)
    return joined


def and_list(words: Sequence[str], joined: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (or, `joined` "or", 'a, b or c'): players' names as they
    are, other words each kept a `Msg` so the list can be said in German too."""
    if len(words) <= 1:
        return listed(words)
    names, last = listed(words[:-1]), words[-1]
    return (Msg("{names} or {last}", names=names, last=last) if joined == "or"
            else Msg("{names} and {last}", names=names, last=last))
