"""The street card game: projects stacked on five sites, income at every roof, prestige at the end.

Rulebook: ../shared/rules/street.en.txt; card format and rulings: ../shared/REFEREE-NOTES.md.

A card is the JSON object of the referee notes, a site is its cards from the ground floor up and
a street is its five sites. Sites are numbered 1 to 5, as on the score pad; floors are numbered
from 1, the ground floor (the first card of a site).

Ruling: a site is finished once a roof is built on it and stays finished; after that only a card
that "must be built on top of a roof" can be added to it.
Ruling: every roof built pays income, also one added on top of a finished site ("Roof - finishes
a site; the owner earns income from all their street's sites").
Ruling: "on this site" and "on your whole street" count the card itself when it is of that type.
Ruling: a hotel is never a double (the rulebook lists doubles of every other type only).
Ruling: a card with "no gifts" refuses gifts on its site from when it is built; earlier gifts stay.
Ruling: only a gift may be built on an opponent's street ("Choose a site on your street").
Ruling: any effect may be negative; an amount is a whole number from -20 to 20.
Ruling: a card has only the keys of the notes; another key (a typo such as "no_gift") is refused.
Ruling: the tie-break (tallest building, then a shared place) orders every place, not only 1st.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypedDict

from . import common
from .common import Placing, RuleError, require_count
from .text import Msg, Plural, and_list, signed

NAME = Msg("Street card game")  # the game's name, as the app shows it

PROJECTS = ("office", "apartment", "store", "coffee", "service", "hotel")
FLOORS = (None, "ground", "upper", "roof")
EACH = ("flat", "floor_below", "ground_floor", "on_site", "on_street")
COUNTING = ("on_site", "on_street")
SITES = 5
MAX_AMOUNT = 20
CARD_KEYS = ("project", "double", "roof", "gift", "floor", "no_gifts", "income", "prestige")
EFFECT_KEYS = ("each", "amount", "project")
PROJECT_NAMES = {
    "office": Msg("office"),
    "apartment": Msg("apartment"),
    "store": Msg("store"),
    "coffee": Msg("coffee"),
    "service": Msg("service"),
    "hotel": Msg("hotel"),
}
ROOF, GIFT = Msg("roof"), Msg("gift")
FLAG_NAMES = {"double": Msg("double"), "roof": ROOF, "gift": GIFT, "no_gifts": Msg("no gifts")}
KIND_NAMES = {"income": Msg("income"), "prestige": Msg("prestige")}
# Where a card must be built, in words (found at a table: "Etage ground" in German).
FLOOR_NAMES = {"ground": Msg("ground floor only"), "upper": Msg("upper floor only"),
               "roof": Msg("on a roof only")}
# An icon's kind as the card-builder offers it, for messages (never the format's own keys).
EACH_WORDS = {
    "flat": Msg("a fixed amount"),
    "floor_below": Msg("per floor below"),
    "ground_floor": Msg("on the ground floor"),
    "on_site": Msg("per project on this site"),
    "on_street": Msg("per project on the street"),
}
# An icon in words; the fields are the amount (with its sign) and the project it counts.
EFFECT_WORDS = {
    "flat": Msg("{amount}"),
    "floor_below": Msg("{amount} per floor below"),
    "ground_floor": Msg("{amount} on the ground floor"),
    "on_site": Msg("{amount} per {project} on this site"),
    "on_street": Msg("{amount} per {project} on the street"),
}

Kind = Literal["income", "prestige"]


class Effect(TypedDict):
    """One income or prestige icon: `amount` once, or per what `each` counts."""

    each: str
    amount: int
    project: str | None


class Card(TypedDict):
    """A project card as played (its visible project), in the JSON shape of the notes."""

    project: str | None
    double: bool
    roof: bool
    gift: bool
    floor: str | None
    no_gifts: bool
    income: list[Effect]
    prestige: list[Effect]


Site = list[Card]
Street = list[Site]


def check_card(card: object) -> Card:
    """One card checked against the notes' format, with defaults for missing keys: no project,
    not a double, roof or gift, no floor requirement, gifts allowed, no income, no prestige.
    """
    if not isinstance(card, Mapping):
        raise RuleError(
            Msg("A card must be described by its icons (an object), not {card!r}.", card=card))
    _refuse_unknown(card, CARD_KEYS, Msg("A card"))
    checked: Card = {
        "project": _project(card.get("project")),
        "double": _flag(card, "double"),
        "roof": _flag(card, "roof"),
        "gift": _flag(card, "gift"),
        "floor": _floor(card.get("floor")),
        "no_gifts": _flag(card, "no_gifts"),
        "income": _effects(card.get("income", []), "income"),
        "prestige": _effects(card.get("prestige", []), "prestige"),
    }
    _check_project_and_double(checked)
    return checked


def _refuse_unknown(given: Mapping[object, object], known: tuple[str, ...], what: str) -> None:
    for key in given:
        if key not in known:
            raise RuleError(Msg("{what} has no {key!r}: its keys are {keys}.", what=what,
                                key=key, keys=", ".join(known)))


def _project(project: object) -> str | None:
    if project is not None and project not in PROJECTS:
        raise RuleError(Msg("Unknown project {project!r}: choose one of {projects}.",
                            project=project, projects=", ".join(PROJECTS)))
    return None if project is None else str(project)


def _flag(card: Mapping[str, object], key: str) -> bool:
    value = card.get(key, False)
    if not isinstance(value, bool):
        raise RuleError(Msg("A card's {flag} must be true or false, not {value!r}.",
                            flag=FLAG_NAMES[key], value=value))
    return value


def _floor(floor: object) -> str | None:
    if floor not in FLOORS:
        raise RuleError(Msg("Unknown floor requirement {floor!r}: it is ground, upper, roof or "
                            "null.", floor=floor))
    return None if floor is None else str(floor)


def _check_project_and_double(card: Card) -> None:
    """A bare card is a roof or a gift; "some projects count as two offices / apartments /
    stores / coffee shops / service" (no hotel).
    """
    if card["project"] is None and not (card["roof"] or card["gift"]):
        raise RuleError(Msg("A card without a project must be a roof or a gift."))
    if card["double"] and card["project"] in (None, "hotel"):
        raise RuleError(
            Msg("Only an office, apartment, store, coffee shop or service can be a double."))


def _effects(effects: object, kind: Kind) -> list[Effect]:
    if not isinstance(effects, list | tuple):
        raise RuleError(Msg("A card's {kind} must be a list of effects, not {effects!r}.",
                            kind=KIND_NAMES[kind], effects=effects))
    return [_effect(effect, kind) for effect in effects]


def _effect(effect: object, kind: Kind) -> Effect:
    if not isinstance(effect, Mapping):
        raise RuleError(Msg("Each {kind} effect must be an object with 'each' and 'amount'.",
                            kind=KIND_NAMES[kind]))
    _refuse_unknown(effect, EFFECT_KEYS, Msg("The {kind} effect", kind=KIND_NAMES[kind]))
    each = effect.get("each")
    if each not in EACH:
        raise RuleError(Msg("Unknown {kind} effect {each!r}: it is one of {kinds}.",
                            kind=KIND_NAMES[kind], each=each, kinds=", ".join(EACH)))
    amount = require_count(
        effect.get("amount"),
        Msg("The amount of the {kind} icon \"{each}\"", kind=KIND_NAMES[kind],
            each=EACH_WORDS[str(each)]),
        -MAX_AMOUNT, MAX_AMOUNT)
    return {"each": str(each), "amount": amount, "project": _counted(effect, str(each), kind)}


def _counted(effect: Mapping[str, object], each: str, kind: Kind) -> str | None:
    """The project type an "on this site" / "on your whole street" icon counts; no other has one."""
    project = effect.get("project")
    if each in COUNTING:
        if project is None:
            raise RuleError(Msg("The {kind} icon \"{each}\" needs the project it counts: "
                                "choose one.", kind=KIND_NAMES[kind], each=EACH_WORDS[each]))
        return _project(project)
    if project is not None:
        raise RuleError(Msg("The {kind} icon \"{each}\" counts no project: leave its project "
                            "empty.", kind=KIND_NAMES[kind], each=EACH_WORDS[each]))
    return None


def check_street(street: object) -> Street:
    """A street as checked lists: "all 5 sites" of a street board, each from the ground floor up."""
    if not isinstance(street, list | tuple):
        raise RuleError(Msg("A street must be a list of its 5 sites."))
    if len(street) != SITES:
        raise RuleError(Msg("A street has 5 sites, not {count}.", count=len(street)))
    return [check_site(site, number) for number, site in enumerate(street, 1)]


def check_site(site: object, number: int | None = None) -> Site:
    """A site as a checked list of cards; errors name the site and floor of a faulty card."""
    where = Msg("Site {number}", number=number) if number else Msg("A site")
    if not isinstance(site, list | tuple):
        raise RuleError(Msg("{where} must be a list of cards from the ground floor up.",
                            where=where))
    return [_card_at(card, where, floor) for floor, card in enumerate(site, 1)]


def _card_at(card: object, where: str, floor: int) -> Card:
    try:
        return check_card(card)
    except RuleError as error:
        raise RuleError(Msg("{where}, floor {floor}: {error}", where=where, floor=floor,
                            error=error.args[0])) from None


def count(cards: Sequence[Card], project: str | None) -> int:
    """How many projects of a type the cards show: "a double counts as two"."""
    return sum(2 if card["double"] else 1 for card in cards if card["project"] == project)


def _value(effect: Effect, street: Street, site: int, below: int) -> int:
    """What one icon is worth for the card with `below` cards under it on street[site]."""
    each, amount = effect["each"], effect["amount"]
    if each == "flat":
        return amount
    if each == "floor_below":
        return amount * below
    if each == "ground_floor":
        return amount if below == 0 else 0
    cards = street[site] if each == "on_site" else [card for cards in street for card in cards]
    return amount * count(cards, effect["project"])


def project_name(project: str | None) -> str:
    """A project type in the players' words."""
    if project is not None and not isinstance(project, str):
        raise RuleError(Msg("Unknown project {project!r}: choose one of {projects}.",
                            project=project, projects=", ".join(PROJECTS)))
    return PROJECT_NAMES.get(project or "", str(project))


def card_name(card: Mapping[str, object]) -> str:
    """What a card shows first: its project, else that it is a roof or a gift."""
    if not isinstance(card, Mapping):
        raise RuleError(Msg("A card must be described by its icons (an object), not {card!r}.",
                            card=card))
    project = card.get("project")
    if project:
        return project_name(str(project))
    return ROOF if card.get("roof") else GIFT


def effect_text(effect: Effect) -> str:
    """An icon in words: '+2', '−1 per floor below', '+1 per hotel on the street'."""
    words = EFFECT_WORDS[effect["each"]].template
    return Msg(words, amount=signed(effect["amount"]), project=project_name(effect["project"]))


@dataclass(frozen=True)
class EffectLine:
    """Where some income or prestige comes from: site 1-5, floor (1 = ground floor), the icon
    and what it is worth on the street as it stands.
    """

    site: int
    floor: int
    effect: Effect
    amount: int

    @property
    def text(self) -> str:
        """'Site 2, floor 3: +1 per office on this site = +2'."""
        return Msg("Site {site}, floor {floor}: {effect} = {amount}", site=self.site,
                   floor=self.floor, effect=effect_text(self.effect), amount=signed(self.amount))


def _lines(street: object, kind: Kind) -> list[EffectLine]:
    return effect_lines(check_street(street), kind)


def effect_lines(sites: Street, kind: Kind) -> list[EffectLine]:
    """Every income or prestige icon of a checked street, site by site, floor up."""
    return [
        EffectLine(number + 1, below + 1, effect, _value(effect, sites, number, below))
        for number, cards in enumerate(sites)
        for below, card in enumerate(cards)
        for effect in card[kind]
    ]


def income_breakdown(street: object) -> list[EffectLine]:
    """Every income icon on the street that adds or takes upcoins now, site by site, floor up."""
    return [line for line in _lines(street, "income") if line.amount]


def income(street: object) -> int:
    """The street's income: every income icon on "all their street's sites (whether finished or
    not)". It may be negative; `payout` applies "0, or negative ... no upcoins".
    """
    return street_income(check_street(street))


def street_income(sites: Street) -> int:
    """`income` of a checked street."""
    return sum(line.amount for line in effect_lines(sites, "income"))


def payout(street: object) -> int:
    """What a finished site pays its owner: "If your total income is 0, or negative, then you
    simply take no upcoins from the bank."
    """
    return street_payout(check_street(street))


def street_payout(sites: Street) -> int:
    """`payout` of a checked street."""
    return max(0, street_income(sites))


def prestige_breakdown(street: object) -> list[EffectLine]:
    """Every prestige icon on the street that scores now, site by site, floor up."""
    return [line for line in _lines(street, "prestige") if line.amount]


def prestige_by_site(street: object) -> list[int]:
    """The score pad's "prestige points from sites 1-5", one number per site (index 0 = site 1)."""
    return site_prestige(check_street(street))


def site_prestige(sites: Street) -> list[int]:
    """`prestige_by_site` of a checked street."""
    totals = [0] * SITES
    for line in effect_lines(sites, "prestige"):
        totals[line.site - 1] += line.amount
    return totals


def upcoin_prestige(account: object) -> int:
    """"Add 1 prestige point for every $3 in your account" (rounded down)."""
    return require_count(account, Msg("The account"), 0) // 3


def prestige(street: object, account: object) -> int:
    """"Sum the prestige points for all projects on your street. Add 1 prestige point for every
    $3 in your account."
    """
    return sum(prestige_by_site(street)) + upcoin_prestige(account)


def tallest(street: object) -> int:
    """The tallest building, for the tie-break: the most cards on one site."""
    return tallest_site(check_street(street))


def tallest_site(sites: Street) -> int:
    """`tallest` of a checked street."""
    return max(len(cards) for cards in sites)


def has_roof(cards: Site) -> bool:
    return any(card["roof"] for card in cards)


def is_finished(site: object) -> bool:
    """"Roof - finishes a site." Ruling: it stays finished, also under a card that "must be built
    on top of a roof" and has no roof itself: "If a site has been finished with a roof, then no
    additional projects can be added there" but such cards.
    """
    return has_roof(check_site(site))


def street_finished(street: object) -> bool:
    """All 5 sites of the street are finished."""
    return all_finished(check_street(street))


def all_finished(sites: Street) -> bool:
    """`street_finished` of a checked street."""
    return all(has_roof(cards) for cards in sites)


def site_index(site: object) -> int:
    """The list index (0-4) of site 1 to 5."""
    if isinstance(site, bool) or not isinstance(site, int):
        raise RuleError(Msg("Choose a site 1 to 5, not {site!r}.", site=site))
    if not 1 <= site <= SITES:
        raise RuleError(Msg("There is no site {site}: choose a site 1 to 5.", site=site))
    return site - 1


def check_placement(street: object, site: object, card: object, own_street: object) -> None:
    """Raise RuleError with the reason when `card` may not be built on `site` (1 to 5) of
    `street`; `own_street` is True when the street belongs to the player building.
    """
    sites, index, built = check_street(street), site_index(site), check_card(card)
    _check_placing(sites[index], index, built, _own(own_street))


def _own(own_street: object) -> bool:
    if not isinstance(own_street, bool):
        raise RuleError(
            Msg("Say whether the card goes on the player's own street (true or false)."))
    return own_street


def _check_placing(cards: Site, index: int, card: Card, own_street: bool) -> None:
    """The rules for one card on one site, whose cards are checked already."""
    _check_owner(card, own_street)
    _check_gift(card, cards, index + 1)
    _check_floor(card, cards, index + 1)


def _check_owner(card: Card, own_street: bool) -> None:
    """"Choose a site on your street"; "Gift - you can place this only on an opponent's site."."""
    if card["gift"] and own_street:
        raise RuleError(
            Msg("A gift can only be built on an opponent's site, not on your own street."))
    if not card["gift"] and not own_street:
        raise RuleError(Msg("Only a gift can be built on an opponent's street."))


def _check_gift(card: Card, cards: Site, number: int) -> None:
    """"No gifts can be built on this site."."""
    if card["gift"] and any(below["no_gifts"] for below in cards):
        raise RuleError(Msg("No gifts can be built on site {site}: a card there forbids them.",
                            site=number))


def _check_floor(card: Card, cards: Site, number: int) -> None:
    """Ground floor, upper floor, on top of a roof, and nothing else on a finished site."""
    finished, floor = has_roof(cards), card["floor"]
    if finished and floor != "roof":
        raise RuleError(Msg("Site {site} is finished with a roof: only a card that must be "
                            "built on top of a roof can be added.", site=number))
    if floor == "roof" and not finished:
        raise RuleError(Msg("This card must be built on top of a roof: site {site} is not "
                            "finished.", site=number))
    if floor == "ground" and cards:
        raise RuleError(Msg("This card is a ground floor: it must be the first card on a site, "
                            "and site {site} already has {count}.", site=number,
                            count=len(cards)))
    if floor == "upper" and not cards:
        raise RuleError(Msg("This card is an upper floor: it cannot be the first card on site "
                            "{site}.", site=number))


@dataclass(frozen=True)
class Placement:
    """The street after a card is built, and the upcoins its owner takes from the bank."""

    street: Street
    income: int


def place_card(street: object, site: object, card: object, own_street: object) -> Placement:
    """Build a card on top of a site (cards never move afterwards). A roof pays its street's owner
    at once: "When a site becomes finished with a gift from another player, the income goes to
    the site owner, not the giver."
    """
    return build(check_street(street), site_index(site), check_card(card), _own(own_street))


def build(street: Street, index: int, card: Card, own_street: bool) -> Placement:
    """`place_card` on a street and card checked already (a table's own street): only the one
    site is checked and copied, so a card costs the same however many the street holds."""
    _check_placing(street[index], index, card, own_street)
    built = [*street]
    built[index] = [*street[index], card]
    return Placement(built, street_payout(built) if card["roof"] else 0)


def _all_streets(streets: object) -> list[object]:
    if isinstance(streets, Mapping):
        return list(streets.values())
    if not isinstance(streets, list | tuple):
        raise RuleError(Msg("The streets must be given as a list, or by player."))
    return list(streets)


def final_round_triggered(streets: object, decks_empty: object) -> bool:
    """"When any player deck becomes empty, or all 5 sites of any street are all finished, that
    triggers the final round." `decks_empty` is True when any player deck is empty.
    """
    if not isinstance(decks_empty, bool):
        raise RuleError(Msg("Say whether a player deck is empty (true or false)."))
    finished = [street_finished(street) for street in _all_streets(streets)]
    return decks_empty or any(finished)


def _turn_order(players: object) -> list[str]:
    if not isinstance(players, list | tuple) or not players:
        raise RuleError(Msg("The players must be listed in turn order, the start player first."))
    order = [str(player) for player in players]
    if len(set(order)) != len(order):
        raise RuleError(Msg("Each player can be listed only once."))
    return order


def last_turn_players(players: object, triggered_by: object) -> list[str]:
    """Who still plays once the player who triggered the final round ends that turn: "Complete
    the current round (i.e. player turns continue until the end of the turn of the last player,
    sitting to the right of the starting player)". `players` are in turn order from the start
    player; the last one returned takes the last turn; none means this turn is the last.
    """
    order = _turn_order(players)
    if triggered_by not in order:
        raise RuleError(Msg("{name!r} is not playing at this table.", name=triggered_by))
    return order[order.index(str(triggered_by)) + 1:]


def is_last_turn(players: object, player: object, final_round: object) -> bool:
    """The game is over after this turn: the final round is on and `player` is the last player,
    "sitting to the right of the start player".
    """
    order = _turn_order(players)
    if player not in order:
        raise RuleError(Msg("{name!r} is not playing at this table.", name=player))
    if not isinstance(final_round, bool):
        raise RuleError(Msg("Say whether the final round is on (true or false)."))
    return final_round and player == order[-1]


@dataclass(frozen=True)
class Score:
    """One player's column of the score pad, and their tallest building for the tie-break."""

    sites: tuple[int, ...]
    upcoins: int
    tallest: int

    @property
    def from_sites(self) -> int:
        return sum(self.sites)

    @property
    def total(self) -> int:
        return self.from_sites + self.upcoins


def score(street: object, account: object) -> Score:
    """The score pad: "prestige points from sites 1-5", "from remaining upcoins" ($/3), total."""
    return street_score(check_street(street), upcoin_prestige(account))


def street_score(sites: Street, upcoin_points: int) -> Score:
    """`score` of a checked street, with the account's prestige points."""
    return Score(tuple(site_prestige(sites)), upcoin_points, tallest_site(sites))


def final_ranking(scores: Mapping[str, Score]) -> list[Placing]:
    """"Whoever has the most prestige points wins. In case of a tie for high score, the tied
    player with the tallest building wins. If there is still a tie, they enjoy a shared victory."
    """
    if not isinstance(scores, Mapping) or not all(
            isinstance(result, Score) for result in scores.values()):
        raise RuleError(Msg("Score every player's street and account first."))
    return common.final_ranking({player: result.total for player, result in scores.items()},
                                {player: result.tallest for player, result in scores.items()})


def verdict(scores: Mapping[str, Score]) -> str:
    """The final result in one sentence, saying how the tie-break decided when it had to ("In
    case of a tie for high score, the tied player with the tallest building wins. If there is
    still a tie, they enjoy a shared victory.")."""
    ranking = final_ranking(scores)
    if not ranking:
        raise RuleError(Msg("Score every player's street and account first."))
    best = ranking[0].total
    tied = [placing.player for placing in ranking if placing.total == best]
    first = common.winners(ranking)
    if len(tied) == 1:
        return Msg("{name} wins with {total} prestige points.", name=tied[0], total=best)
    floors = scores[first[0]].tallest
    if len(first) > 1:
        return Plural("{names} tie on {total} prestige points and on their tallest building "
                      "({n} floor): a shared victory.",
                      "{names} tie on {total} prestige points and on their tallest building "
                      "({n} floors): a shared victory.", names=and_list(first),
                      total=best, n=floors)
    runner_up = max(scores[player].tallest for player in tied if player != first[0])
    return Plural("{names} tie on {total} prestige points; {name} wins with the tallest "
                  "building, {n} floor to {next}.",
                  "{names} tie on {total} prestige points; {name} wins with the tallest "
                  "building, {n} floors to {next}.", names=and_list(tied), total=best,
                  name=first[0], n=floors, next=runner_up)
