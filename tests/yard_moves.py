"""Yard actions as a table logs them, for the tests that play a yard game."""


def buy(player, building, receiver=None):
    return ("buy", {"player": player, "building": building, "for": receiver or player})


def buys(player, **counts):
    """`player`'s purchases of these many of each building, in that order."""
    return [buy(player, building) for building, n in counts.items() for _ in range(n)]


def ended_early(names):
    """The end as a log from before issue 15 gives it: every player's money (none here) and no
    leftover cards, before the deck is empty. The rules still replay such a log."""
    return ("final", {"money": {n: {} for n in names}, "leftovers": []})
