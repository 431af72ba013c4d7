"""The end of a construction-yard game: the cards left on display and who takes them.

"The remaining face up building cards are bought by the players owning the most money of the
corresponding currencies ... In case of a tie nobody buys the card in question."
"""

from __future__ import annotations

from collections.abc import Mapping

from .common import RuleError, require_count
from .text import Msg, Plural
from .yard import BUILDINGS, CURRENCIES, CURRENCY_NAMES, DISPLAY, MAX_MONEY, owners_money


def not_over_yet(deck_left: int, on_display: int) -> str:
    """Why the game goes on: the deck still has cards, or the display is still full (more than
    it can hold: purchases not recorded)."""
    if deck_left:
        return Plural("The game ends once the building deck is empty and the display cannot be "
                      "refilled to 4; {n} card is still in the deck.",
                      "The game ends once the building deck is empty and the display cannot be "
                      "refilled to 4; {n} cards are still in the deck.", n=deck_left)
    if on_display > DISPLAY:
        return Msg("The building deck is empty, but the app counts {n} cards nobody has bought: "
                   "record the missing purchases or correct the counts.", n=on_display)
    return Msg("The building deck is empty, but the display still holds 4 cards: the game ends "
               "after the turn in which one of them is bought.")


def leftover_cards(cards: object) -> list[tuple[str, str]]:
    """The cards left on display, each with the currency of the construction-yard space it
    lies on."""
    checked = []
    for card in on_display(cards):
        if not isinstance(card, Mapping) or card.get("currency") not in CURRENCIES:
            raise RuleError(Msg("Each leftover card needs a building and a currency."))
        checked.append((building_of(card), str(card["currency"])))
    return checked


def leftovers_taken(cards: object, players: list[str]) -> list[tuple[str, str | None]]:
    """The cards left on display, each with who takes it (`to`): the player holding strictly
    the most money of the currency of the space it lies on, or None for a tie or nobody
    holding any. What decides, and all the table is asked (issue 42): which space a card lies
    on decides only whose money counts, which the table sees at a glance."""
    taken = []
    for card in on_display(cards):
        if not isinstance(card, Mapping) or "to" not in card:
            raise RuleError(Msg("Say who takes each card left on display, or nobody."))
        to = card["to"]
        if to is not None and to not in players:
            raise RuleError(Msg("{name!r} is not a player at this table.", name=to))
        taken.append((building_of(card), None if to is None else str(to)))
    return taken


def on_display(cards: object) -> list[object]:
    """The leftover cards as a list, at most the display's four."""
    if not isinstance(cards, list) or len(cards) > DISPLAY:
        raise RuleError(Msg("At most {display} building cards can be left on display.",
                            display=DISPLAY))
    return cards


def building_of(card: Mapping[str, object]) -> str:
    building = card.get("building")
    if building not in BUILDINGS:
        raise RuleError(Msg("Unknown building {building!r}.", building=building))
    return str(building)


def one_card_per_space(currencies: list[str]) -> None:
    """The construction yard has one space per currency, so no two cards share a currency."""
    for currency in currencies:
        if currencies.count(currency) > 1:
            raise RuleError(Msg("The construction yard has one {currency} space, so only one "
                                "card can lie on it.", currency=CURRENCY_NAMES[currency]))


def majority_holders(most: object, currencies: list[str],
                     players: list[str]) -> dict[str, str | None]:
    """Who holds strictly the most money of each currency under a leftover card: a player, or
    None for a tie or nobody holding any. Dirk holds no money, so he is never one."""
    if not isinstance(most, Mapping):
        raise RuleError(Msg("Say who holds the most money of each currency."))
    holders: dict[str, str | None] = {}
    for currency in currencies:
        if currency not in most:
            raise RuleError(Msg("Say who holds the most {currency} money, or nobody.",
                                currency=CURRENCY_NAMES[currency]))
        holder = most[currency]
        if holder is not None and holder not in players:
            raise RuleError(Msg("{name!r} is not a player at this table.", name=holder))
        holders[currency] = holder
    return holders


def check_money(money: object, players: list[str]) -> dict[str, dict[str, int]]:
    """Every player's money per currency, as logs from before `most` give it."""
    if not isinstance(money, Mapping) or not set(money) <= set(players):
        raise RuleError(Msg("Money is entered for the players at this table only."))
    checked: dict[str, dict[str, int]] = {}
    for player, amounts in money.items():
        if not isinstance(amounts, Mapping) or not set(amounts) <= set(CURRENCIES):
            raise RuleError(Msg("Enter {player}'s money by currency.", player=player))
        checked[player] = {
            c: require_count(amounts.get(c, 0), owners_money(player, c), 0, MAX_MONEY)
            for c in CURRENCIES
        }
    return checked
