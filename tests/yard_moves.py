"""Yard actions as a table logs them, for the tests that play a yard game."""


def buy(player, building, receiver=None):
    return ("buy", {"player": player, "building": building, "for": receiver or player})
