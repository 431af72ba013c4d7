"""5th Avenue (alea, Wilko Manz): skyscraper values, auctions, building stops and Alea.

Rulebook: ../shared/rules/fifth_avenue.en.txt; facts and rulings: ../shared/REFEREE-NOTES.md.

A district is a list of five plots in ring order (plot i touches plots i-1 and i+1, mod 5).
A plot is ``{}`` (empty), ``{"businesses": [kind, ...]}`` (one or two businesses, equal or not)
or ``{"owner": name, "skyscrapers": n}``. The owner ``"alea"`` (exactly so) is Alea, the
imaginary third player of the 2-player game; the app should reserve that name at every table.

Rulings this module makes where the rulebook and the referee notes are silent:
- A player builds on one plot per district ("only ... one building plot per district") and has
  at most 17 skyscrapers to build (18 pieces, one marks his score); Alea has exactly one
  skyscraper on each of his plots ("always only 1 skyscraper in a building plot").
- ``alea_bid_distribution`` models the cards Alea draws from as a well-shuffled deck. A deck
  without two cards of one value could run out before a value repeats; it is refused, so the
  caller passes everything Alea may draw (the face-down stack and the returned cards that are
  shuffled when reached). Counts cannot exceed the game's twenty 4s, sixteen 5s, fourteen 6s.
- Central Park at the end when fewer than three tiles lie below it (the game can end by a
  second building stop early): all of them are turned over and scored by the district table,
  so no tile at all means 1 VP per skyscraper ("as described under Scoring districts").
- ``NEXT`` holds the left-to-right moves only; ``commissioner_moves`` adds the return from
  Central Park to City Hall. A commissioner standing in a district that was just stopped
  ("he remains until he is moved") moves on from it as usual.
- ``bid_colours`` is empty when a player without skyscrapers finds every plot built on by
  others (possible with Alea): he cannot bid in that district.
- Lists of positions and districts come in board order, lists of plots and colours in ring order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .common import RuleError, require_count
from .text import Msg, Plural, listed

NAME = Msg("5th Avenue")  # the game's name, as the app shows it

BUSINESSES = ("boutique", "jeweler", "gallery", "perfume")
BUSINESS_NAMES = {"boutique": Msg("boutique"), "jeweler": Msg("jeweler"),
                  "gallery": Msg("gallery"), "perfume": Msg("perfume shop")}
# The short names a plot, a tile or a choice shows (a board tile reads "perfume").
BUSINESS_LABELS = {"boutique": Msg("boutique"), "jeweler": Msg("jeweler"),
                   "gallery": Msg("gallery"), "perfume": Msg("perfume")}
COLOURS = ("violet", "orange", "gray", "brown", "green")
COLOUR_NAMES = {"violet": Msg("violet"), "orange": Msg("orange"), "gray": Msg("gray"),
                "brown": Msg("brown"), "green": Msg("green")}
ALEA = "alea"
PLOTS = 5
MAX_BUILT = 17
VP_BY_KINDS = (1, 2, 3, 5, 8)
BLACK_DECK = {4: 20, 5: 16, 6: 14}
SKYSCRAPERS_ON_CARD = {4: 3, 5: 2, 6: 1}
SPECIAL_SCORINGS = {3: (3, 4), 6: (4, 6), 9: (5, 8)}  # businesses placed: (districts, VP)
BUSINESSES_ON_PLOTS = 12  # 20 in the supply row, 8 of them go below Central Park
CENTRAL_PARK_TILES = 8
PARK_LEAST = 2  # VP a Central Park skyscraper scores at the least: "lowest is 2"
DISTRICTS = (("34w", Msg("34th St West")), ("34e", Msg("34th St East")),
             ("times", Msg("Times Square")), ("42w", Msg("42nd St West")),
             ("42e", Msg("42nd St East")), ("52w", Msg("52nd St West")),
             ("52e", Msg("52nd St East")))  # (id, name) in board order; City Hall is no district
DISTRICT_IDS = tuple(district for district, _ in DISTRICTS)
POSITIONS = ("city_hall", *DISTRICT_IDS, "central_park")  # where a commissioner can stand
POSITION_NAMES = {"city_hall": Msg("City Hall"), **dict(DISTRICTS),
                  "central_park": Msg("Central Park")}
COMMISSIONERS = ("white", "beige")
# "The white commissioner" / "White → Times Square": German declines the colour with the noun.
COMMISSIONER_NAMES = {"white": Msg("white commissioner"), "beige": Msg("beige commissioner")}
COMMISSIONER_COLOURS = {"white": Msg("White"), "beige": Msg("Beige")}
COMMISSIONER_MARKERS = {"white": Msg("white marker"), "beige": Msg("beige marker")}
NEXT: dict[str, tuple[str, ...]] = {
    "city_hall": ("34w", "34e"),
    "34w": ("42w", "times"),
    "34e": ("times", "42e"),
    "times": ("52w", "52e"),
    "42w": ("52w",),
    "42e": ("52e",),
    "52w": ("central_park",),
    "52e": ("central_park",),
}


def player_name(owner: str) -> str:
    """How an owner is shown: Alea gets his capital letter."""
    return "Alea" if owner == ALEA else owner


def _choices(ids: Iterable[str]) -> str:
    return ", ".join(ids)  # the identifiers a request may use, not words for players


def _check_list(value: object, what: str) -> Sequence[object]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise RuleError(Msg("{what} must be given as a list.", what=what))
    return value


def _check_kind(kind: object) -> str:
    if not isinstance(kind, str) or kind not in BUSINESSES:
        raise RuleError(Msg("Unknown business {kind!r}: choose one of {choices}.", kind=kind,
                            choices=_choices(BUSINESSES)))
    return kind


def _check_kinds(kinds: object, what: str) -> list[str]:
    if isinstance(kinds, (str, bytes)) or not isinstance(kinds, Iterable):
        raise RuleError(Msg("{what} must be given as a list.", what=what))
    return [_check_kind(kind) for kind in kinds]


def _check_name(name: object, what: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise RuleError(Msg("{what} must be a player's name.", what=what))
    return name


@dataclass(frozen=True)
class Plot:
    """A checked plot: its businesses, or the owner and number of its skyscrapers."""

    businesses: tuple[str, ...] = ()
    owner: str | None = None
    skyscrapers: int = 0

    @property
    def empty(self) -> bool:
        return not self.businesses and self.owner is None


def _check_plot(raw: object, number: int) -> Plot:
    if not isinstance(raw, Mapping):
        raise RuleError(Msg("Plot {number} must be empty, hold businesses or hold skyscrapers.",
                            number=number))
    keys = set(raw)
    if not keys:
        return Plot()
    if keys == {"businesses"}:
        kinds = _check_list(raw["businesses"],
                            Msg("The businesses on plot {number}", number=number))
        if len(kinds) not in (1, 2):
            raise RuleError(Msg("Plot {number} holds one or two businesses, not {count}.",
                                number=number, count=len(kinds)))
        return Plot(businesses=tuple(_check_kind(kind) for kind in kinds))
    if keys == {"owner", "skyscrapers"}:
        owner = _check_name(raw["owner"], Msg("The owner of plot {number}", number=number))
        most = 1 if owner == ALEA else MAX_BUILT
        label = Msg("{owner}'s skyscrapers on plot {number}", owner=player_name(owner),
                    number=number)
        return Plot(owner=owner, skyscrapers=require_count(raw["skyscrapers"], label, 1, most))
    if "businesses" in keys and keys & {"owner", "skyscrapers"}:
        raise RuleError(Msg("Plot {number} cannot hold both businesses and skyscrapers.",
                            number=number))
    raise RuleError(Msg("Plot {number} is not understood: give its businesses, or its owner "
                        "and skyscrapers.", number=number))


def check_district(plots: Sequence[Mapping[str, object]]) -> list[Plot]:
    """A district's five plots in ring order, checked: at most two businesses and no
    skyscrapers on a business plot, and each player on one plot only ("each player may only
    build skyscrapers in one building plot per district"); Alea may hold several.
    """
    raw = _check_list(plots, Msg("A district"))
    if len(raw) != PLOTS:
        raise RuleError(Msg("A district has {plots} plots, not {count}.", plots=PLOTS,
                            count=len(raw)))
    checked = [_check_plot(plot, number) for number, plot in enumerate(raw, 1)]
    owners = [plot.owner for plot in checked if plot.owner not in (None, ALEA)]
    for owner in owners:
        if owners.count(owner) > 1:
            raise RuleError(Msg("{owner} has skyscrapers on two plots of this district, but a "
                                "player builds on one plot per district only.", owner=owner))
    return checked


def skyscraper_points(kinds: Iterable[str]) -> int:
    """VP per skyscraper by the different business types next door: "0, 1, 2, 3, 4 adjacent
    business types: 1, 2, 3, 5, 8 VP"; several businesses of one type count once.
    """
    return VP_BY_KINDS[len(set(_check_kinds(kinds, Msg("The businesses next door"))))]


def _next_door(plots: Sequence[Plot], index: int) -> frozenset[str]:
    left, right = plots[(index - 1) % PLOTS], plots[(index + 1) % PLOTS]
    return frozenset(left.businesses + right.businesses)


def plot_values(plots: Sequence[Mapping[str, object]]) -> list[int]:
    """What one skyscraper on each plot would score now, by the businesses on its two
    neighbours (whatever the plot itself holds).
    """
    checked = check_district(plots)
    return [skyscraper_points(_next_door(checked, i)) for i in range(PLOTS)]


def _in_board_order(kinds: Iterable[str]) -> tuple[str, ...]:
    return tuple(kind for kind in BUSINESSES if kind in set(kinds))


@dataclass(frozen=True)
class PlotScore:
    """The skyscrapers on one plot (index in ring order) and what they score in a district
    scoring; Alea's are shown too, but ``district_points`` leaves him out.
    """

    plot: int
    owner: str
    skyscrapers: int
    kinds: tuple[str, ...]
    each: int
    total: int

    def line(self, colour: str | None = None) -> str:
        """'Blue: 2 skyscrapers x 5 VP = 10 VP (boutique, jeweler, gallery next door)'; with the
        plot's `colour` where its owner has several in the district ('Alea, orange plot: ...':
        found by an audit, Alea's two plots read as one line said twice)."""
        names = listed([BUSINESS_NAMES[kind] for kind in self.kinds]) or Msg("no business")
        owner = player_name(self.owner) if colour is None else Msg(
            "{owner}, {colour} plot", owner=player_name(self.owner), colour=COLOUR_NAMES[colour])
        built = Plural("{owner}: {n} skyscraper", "{owner}: {n} skyscrapers",
                       owner=owner, n=self.skyscrapers)
        if self.owner == ALEA:
            return Msg("{built} worth {each} VP each ({names} next door); Alea never scores",
                       built=built, each=self.each, names=names)
        return Msg("{built} x {each} VP = {total} VP ({names} next door)", built=built,
                   each=self.each, total=self.total, names=names)


def district_breakdown(plots: Sequence[Mapping[str, object]]) -> list[PlotScore]:
    """Scoring a district, plot by plot: "each skyscraper in a scored district earns its owner
    victory points ... based on the number of directly adjacent different business types".
    """
    checked = check_district(plots)
    scores = []
    for index, plot in enumerate(checked):
        if plot.owner is not None:
            kinds = _next_door(checked, index)
            each = skyscraper_points(kinds)
            scores.append(PlotScore(index, plot.owner, plot.skyscrapers, _in_board_order(kinds),
                                    each, each * plot.skyscrapers))
    return scores


def district_points(plots: Sequence[Mapping[str, object]]) -> dict[str, int]:
    """Every owner's VP when the district is scored (option D or the final scoring); "Alea
    never scores victory points", so he is left out.
    """
    points: dict[str, int] = {}
    for score in district_breakdown(plots):
        if score.owner != ALEA:
            points[score.owner] = points.get(score.owner, 0) + score.total
    return points


def building_stop_points(plots: Sequence[Mapping[str, object]], declarer: str) -> dict[str, int]:
    """A building stop, declared when "all building plots in a district have skyscrapers or
    businesses": the declarer "earns 1 victory point for each skyscraper (his and opponents')",
    Alea's too; "the other players earn half (rounded down)" of a normal scoring. Alea never
    scores, even as the declarer.
    """
    declarer = _check_name(declarer, Msg("Who declares the building stop"))
    checked = check_district(plots)
    empty = [number for number, plot in enumerate(checked, 1) if plot.empty]
    if empty:
        raise RuleError(Msg("No building stop while plot {number} is empty.", number=empty[0]))
    points = {owner: vp // 2 for owner, vp in district_points(plots).items()}
    if declarer != ALEA:
        points[declarer] = sum(plot.skyscrapers for plot in checked)
    return points


def alea_build_plots(plots: Sequence[Mapping[str, object]]) -> list[int]:
    """Where Alea builds after winning a district: one skyscraper on "the most valuable
    building plot" among the empty ones, one on each if several tie. An empty list when no plot
    is empty: "he declares a building stop in this district".
    """
    checked = check_district(plots)
    values = plot_values(plots)
    empty = [index for index, plot in enumerate(checked) if plot.empty]
    best = max((values[index] for index in empty), default=0)
    return [index for index in empty if values[index] == best]


def business_targets(plots: Sequence[Mapping[str, object]]) -> list[int]:
    """Plots a business may go on: "any empty building plot or any building plot that has but
    one (identical or not) business", never one with two businesses or skyscrapers.
    """
    checked = check_district(plots)
    return [i for i, plot in enumerate(checked) if plot.owner is None and len(plot.businesses) < 2]


def _check_card(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in BLACK_DECK:
        raise RuleError(Msg("{what} must be a 4, 5 or 6, not {value!r}.", what=what,
                            value=value))
    return value


def _check_cards(cards: object, what: str, each: str) -> list[int]:
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise RuleError(Msg("{what} must be given as a list of card values.", what=what))
    return [_check_card(value, each) for value in cards]


def max_skyscrapers(cards: Iterable[int]) -> int:
    """How many skyscrapers an auction winner may build: cards 4, 5, 6 show 3, 2, 1
    skyscrapers, and "the number of skyscrapers shown on the card with the fewest in his bid
    is the maximum" (they are not added up).
    """
    values = _check_cards(cards, Msg("A bid"), Msg("Each card of a bid"))
    if not values:
        raise RuleError(Msg("A bid needs at least one card."))
    return min(SKYSCRAPERS_ON_CARD[value] for value in values)


def bid_possible(bid: object) -> bool:
    """Whether bidding cards can add up to `bid` (0: nobody bid): "The number on the card is
    the card's value (4, 5, or 6)" and "he adds the numbers on the cards together to determine
    his total bid". One card makes 4, 5 or 6, two make 8 to 12, and every larger sum is one
    of those with 4s added: so no bid is 1, 2, 3 or 7."""
    bid = require_count(bid, Msg("A bid"))
    return bid == 0 or bid in BLACK_DECK or bid >= 2 * min(BLACK_DECK)


def alea_bid(cards: Iterable[int]) -> int:
    """Alea's bid: black cards are turned over "until they draw and place a card with the same
    number as one already drawn"; the bid is the sum of them all, the repeat included.
    """
    values = _check_cards(cards, Msg("Alea's cards"), Msg("Each of Alea's cards"))
    for count, value in enumerate(values, 1):
        if value in values[:count - 1]:
            if count < len(values):
                raise RuleError(Msg("Alea's bid ended with the repeated {value}: no card after "
                                    "it.", value=value))
            return sum(values)
    raise RuleError(Msg("No value has repeated yet: turn over another black card for Alea."))


def _check_deck(deck: Mapping[int, int] | None) -> dict[int, int]:
    if deck is None:
        return dict(BLACK_DECK)
    if not isinstance(deck, Mapping):
        raise RuleError(Msg("The black cards must be given as a count per value (4, 5, 6)."))
    counts = dict.fromkeys(BLACK_DECK, 0)
    for value, count in deck.items():
        value = _check_card(value, Msg("A black card"))
        counts[value] = require_count(count, Msg("The black {value}s", value=value), 0,
                                      BLACK_DECK[value])
    if max(counts.values()) < 2:
        raise RuleError(Msg("Alea's draw could run out before a value repeats: "
                            "it needs two black cards of one value."))
    return counts


def _bids(deck: dict[int, int], drawn: tuple[int, ...]) -> dict[int, Fraction]:
    left = sum(deck.values())
    chances: dict[int, Fraction] = {}
    for value, count in deck.items():
        if count == 0:
            continue
        draw = Fraction(count, left)
        if value in drawn:
            outcomes = {sum(drawn) + value: Fraction(1)}
        else:
            outcomes = _bids({**deck, value: count - 1}, drawn + (value,))
        for bid, chance in outcomes.items():
            chances[bid] = chances.get(bid, Fraction(0)) + draw * chance
    return chances


def alea_bid_distribution(deck: Mapping[int, int] | None = None) -> dict[int, Fraction]:
    """The exact chance of each bid of Alea ("between 8 and 21"), drawing without
    replacement from ``deck`` (count per value; the whole black deck by default). Only
    8, 10, 12, 13, 14, 16, 17, 19, 20, 21 can occur.
    """
    return dict(sorted(_bids(_check_deck(deck), ()).items()))


def alea_beats_chance(high_bid: int, deck: Mapping[int, int] | None = None) -> Fraction:
    """The chance that Alea's bid is higher than ``high_bid``: "if Alea's bid is less than or
    equal to the highest bid so far, he is out of the auction".
    """
    high_bid = require_count(high_bid, Msg("The high bid"), 0)
    chances = alea_bid_distribution(deck)
    return sum((chance for bid, chance in chances.items() if bid > high_bid), Fraction(0))


def central_park_points(businesses: Iterable[str], tiles_below: int = 3,
                        none: int = PARK_LEAST) -> int:
    """VP per skyscraper in Central Park at the end: three tiles from below Central Park are
    turned over and "1, 2, 3 different types: 2, 3, 5 VP" ("lowest is 2 and the highest is
    5"). When fewer than three lie there (``tiles_below``), all are turned over and scored by
    the district table; with none, ``none`` VP: 2, the rulebook's lowest (1, a neighbourless
    skyscraper's, in the tables scored before that ruling).
    """
    below = require_count(tiles_below, Msg("The businesses below Central Park"), 0,
                          CENTRAL_PARK_TILES)
    kinds = _check_kinds(businesses, Msg("The businesses turned over for Central Park"))
    wanted = min(3, below)
    if len(kinds) != wanted:
        raise RuleError(Msg("Turn over {wanted} businesses for Central Park, not {count}.",
                            wanted=wanted, count=len(kinds)))
    return skyscraper_points(kinds) if kinds else none


def special_scoring_points(businesses_placed: int, districts: int) -> int:
    """The special scoring right after "the 3rd, 6th, or 9th business" goes on a plot: 4 / 6 /
    8 VP for skyscrapers in at least 3 / 4 / 5 different districts; none after other businesses
    ("after the twelfth ... there are no extra points"). Alea never scores.
    """
    placed = require_count(businesses_placed, Msg("The businesses placed on plots"), 1,
                           BUSINESSES_ON_PLOTS)
    built = require_count(districts, Msg("The districts with skyscrapers"), 0, len(DISTRICTS))
    needed, points = SPECIAL_SCORINGS.get(placed, (len(DISTRICTS) + 1, 0))
    return points if built >= needed else 0


def districts_built(board: Mapping[str, Sequence[Mapping[str, object]]], player: str) -> int:
    """In how many different districts ``player`` has skyscrapers (for the special scorings;
    "the area below Central Park is not a district").
    """
    player = _check_name(player, Msg("The player"))
    if not isinstance(board, Mapping):
        raise RuleError(Msg("The board must be given district by district."))
    for district in board:
        _check_district_id(district)
    return sum(any(plot.owner == player for plot in check_district(plots))
               for plots in board.values())


def _check_district_id(district: object) -> str:
    if not isinstance(district, str) or district not in DISTRICT_IDS:
        raise RuleError(Msg("Unknown district {district!r}: choose one of {choices}.",
                            district=district, choices=_choices(DISTRICT_IDS)))
    return district


def _check_position(position: object) -> str:
    if not isinstance(position, str) or position not in POSITIONS:
        raise RuleError(Msg("Unknown position {position!r}: choose one of {choices}.",
                            position=position, choices=_choices(POSITIONS)))
    return position


def check_stopped(stopped: Iterable[str]) -> frozenset[str]:
    """The building-stopped districts: there are "2 building stop tiles"."""
    if isinstance(stopped, (str, bytes)) or not isinstance(stopped, Iterable):
        raise RuleError(Msg("The building-stopped districts must be given as a list."))
    closed = frozenset(_check_district_id(district) for district in stopped)
    if len(closed) > 2:
        raise RuleError(Msg("There are only two building stops in a game."))
    return closed


def _open_from(position: str, closed: frozenset[str]) -> set[str]:
    if position not in closed:
        return {position}
    return set().union(*(_open_from(after, closed) for after in NEXT[position]))


def commissioner_moves(position: str, stopped: Iterable[str] = ()) -> list[str]:
    """Where a commissioner may move: "to the next (adjacent) district or Central Park"; a
    stopped district "is skipped over by a passing commissioner"; from Central Park only back
    to City Hall, which starts the auctions.
    """
    here = _check_position(position)
    closed = check_stopped(stopped)
    if here == "central_park":
        return ["city_hall"]
    found = set().union(*(_open_from(after, closed) for after in NEXT[here]))
    return [place for place in POSITIONS if place in found]


def _check_positions(positions: Mapping[str, str] | Sequence[str]) -> list[str]:
    if isinstance(positions, Mapping):
        if set(positions) != set(COMMISSIONERS):
            raise RuleError(Msg("Give where the white and the beige commissioner stand."))
        positions = list(positions.values())
    places = list(_check_list(positions, Msg("The commissioners' positions")))
    if len(places) != len(COMMISSIONERS):
        raise RuleError(Msg("There are two commissioners, not {count}.", count=len(places)))
    return [_check_position(place) for place in places]


def scorable_districts(positions: Mapping[str, str] | Sequence[str],
                       stopped: Iterable[str] = ()) -> list[str]:
    """The districts option D may score: "there must be at least one of the commissioners"
    there; City Hall and Central Park are not districts, and a stopped district "is as though
    it was never there". ``positions``: {"white": ..., "beige": ...} or the two positions.
    """
    places = _check_positions(positions)
    closed = check_stopped(stopped)
    return [district for district in DISTRICT_IDS if district in places and district not in closed]


def _check_colours(plot_colours: Sequence[str]) -> list[str]:
    colours = []
    for colour in _check_list(plot_colours, Msg("The plot colours")):
        if not isinstance(colour, str) or colour not in COLOURS:
            raise RuleError(Msg("Unknown plot colour {colour!r}: choose one of {choices}.",
                                colour=colour, choices=_choices(COLOURS)))
        colours.append(colour)
    if sorted(colours) != sorted(COLOURS):
        raise RuleError(Msg("A district has one plot of each of the five colours, in ring "
                            "order."))
    return colours


def bid_colours(plots: Sequence[Mapping[str, object]], plot_colours: Sequence[str],
                player: str) -> list[str]:
    """The plot colours ``player`` may bid with in a district auction: (1) only the colour of
    his own skyscrapers there; else (2) the colours of the empty plots; else (3) the colours of
    plots with businesses ("never ... where another player has skyscrapers"): bidding for a
    building stop. Ring order; empty when every plot holds other players' skyscrapers.
    """
    player = _check_name(player, Msg("The bidder"))
    if player == ALEA:
        raise RuleError(Msg("Alea bids with black cards drawn from the stack, not with a "
                            "colour."))

    checked = check_district(plots)
    colours = _check_colours(plot_colours)
    for allowed in ((lambda p: p.owner == player), (lambda p: p.empty),
                    (lambda p: bool(p.businesses))):
        chosen = [colour for colour, plot in zip(colours, checked, strict=True) if allowed(plot)]
        if chosen:
            return chosen
    return []
