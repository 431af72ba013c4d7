"""The web layer: the platform's pages, and one views module per game.

A game's pages are `companion/views/<slug>.py`, found by the game's slug (the rules' `GAMES`
is the one registry): its `VIEWS` (`declarations.GameViews`) declares its table page, the
actions its forms record, and a blueprint for any page of its own.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .declarations import GameViews


def game_views(slug: str) -> GameViews:
    """The views of the game with this slug (a slug of `companion.rules.GAMES`)."""
    views: GameViews = import_module(f"{__name__}.{slug}").VIEWS
    return views
