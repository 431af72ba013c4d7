"""Ruling (two phones, issue 23): an action from a screen that missed others goes on the table
as it stands only when nothing it depends on changed: the yard's purchases, each another
player's."""

import pytest

from companion.rules import GAMES, merges
from companion.rules.log import Event


def bought(seq: int, player: str, building: str = "park") -> Event:
    return Event(seq, "buy", {"player": player, "building": building}, "2026-01-01T00:00:00Z")


@pytest.mark.parametrize(("game", "kind", "payload", "missed", "merged"), [
    ("yard", "buy", {"player": "Nina", "building": "museum"}, [bought(1, "Tobi")], True),
    ("yard", "buy", {"player": "Nina", "building": "museum", "for": "Dirk"},
     [bought(1, "Tobi"), bought(2, "Paul", "church")], True),
    # The same player's purchase of the same building: maybe the very same one, recorded twice.
    ("yard", "buy", {"player": "Tobi", "building": "museum"}, [bought(1, "Tobi", "museum")],
     False),
    ("yard", "buy", {"player": "Nina", "building": "museum"},
     [bought(1, "Paul"), bought(2, "Nina", "museum")], False),
    # The same player's purchase of another building is another purchase (having paid
    # exactly): a church tapped after the skyscraper cannot be the skyscraper.
    ("yard", "buy", {"player": "Tobi", "building": "church"},
     [bought(1, "Tobi", "skyscraper")], True),
    ("yard", "buy", {"player": "Tobi", "building": "museum", "for": "Dirk"},
     [bought(1, "Tobi", "museum")], True),
    # A scoring, an undo or a correction in between: what the purchase meant may have changed.
    ("yard", "buy", {"player": "Nina", "building": "museum"},
     [Event(1, "score", {"scoring": "A"}, "")], False),
    ("yard", "buy", {"player": "Nina", "building": "museum"}, [Event(1, "undo", {}, "")], False),
    ("yard", "undo", {}, [bought(1, "Tobi")], False),
    ("yard", "score", {"scoring": "A"}, [bought(1, "Tobi")], False),
    ("yard", "buy", {"player": "Nina", "building": "museum"}, [], False),
    # Turn-based games keep an order: never merged.
    ("street", "upcoins", {"player": "Ola"}, [Event(1, "upcoins", {"player": "Mia"}, "")], False),
    ("urbanisation", "pass", {"player": "Ben"}, [Event(1, "pass", {"player": "Ann"}, "")], False),
])
def test_an_outdated_screens_action_merges_only_when_nothing_it_depends_on_changed(
        game, kind, payload, missed, merged):
    assert merges(GAMES[game], kind, payload, missed) is merged
