"""5th Avenue's pages: the board twin, businesses, commissioners, auctions, Alea, the end."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, render_template, request, session
from flask_babel import gettext as _
from wtforms import (
    BooleanField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import InputRequired, NumberRange, Optional

from .. import storage
from ..app import get_db
from ..i18n import lazy_gettext as _l
from ..i18n import lazy_text, text
from ..rules import RuleError
from ..rules import fifth_avenue as rules
from ..rules import fifth_avenue_table as play
from ..rules import fifth_avenue_turns as turns
from ..rules.log import Event
from .actions import take
from .declarations import Action, GameViews
from .forms import ActionForm, FieldError, IntegerField, digits
from .tables import Table, load_table, table_page

bp = Blueprint("fifth_avenue", __name__, url_prefix="/fifth_avenue")
MY_BOARD = "fifth_avenue_board"  # this browser's board for its new tables (session)
_draw = random.SystemRandom()


def choices(names: dict[str, str]) -> list[SelectChoice]:
    return [SelectChoice(key, lazy_text(name)) for key, name in names.items()]


class WhoForm(ActionForm):
    player = StringField(_l("Player"), validators=[InputRequired()])


class PlotForm(ActionForm):
    """A tap on a plot of the board: its button carries 'district:plot'."""

    target = StringField(_l("Plot"), validators=[InputRequired()])
    tile = IntegerField(_l("Tile"), validators=[Optional(), NumberRange(0, 2)])


class MoveForm(ActionForm):
    commissioner = SelectField(_l("Commissioner"), choices=choices(rules.COMMISSIONER_NAMES))
    to = StringField(_l("To"), validators=[InputRequired()])


class ScoreForm(ActionForm):
    district = SelectField(_l("District"), choices=choices(dict(rules.DISTRICTS)))


class AleaForm(ActionForm):
    high_bid = IntegerField(_l("High bid after your first bids"),
                            validators=[Optional(), NumberRange(0, 200)])
    cards = StringField(_l("Cards flipped, in order (e.g. 4 6 5 4)"))
    draw = BooleanField(_l("Let the app draw"))

    @classmethod
    def fields_of(cls, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The cards as typed ("5 5"): a change keeps the cards flipped."""
        return super().fields_of(payload) | {"cards": cards_typed(payload.get("cards", []))}


def cards_typed(cards: list[int]) -> str:
    """Black cards as the players type them: "4 6 5 4"."""
    return " ".join(str(card) for card in cards)


def alea_known(table: Table) -> str | None:
    """The black cards already flipped for this auction, as typed: those of Alea's bid being
    changed, or of the last one drawn for it and undone (its event records its auction,
    `place` and `round`), redo's or not. A change or a bid entered again keeps them (found at a
    table: both drew new cards, where the table's were face up, and a table could draw again
    until it liked them)."""
    if table.changing is not None and table.changing.kind == "alea_bid":
        return cards_typed(table.changing.payload["cards"])
    state: play.FifthAvenueState = table.current.state  # type: ignore[assignment]
    if not state.with_alea or not state.auctions or state.auctions[0].alea_cards \
            or table.changing:
        return None
    drawn = storage.last_like(get_db(), table.id, "alea_bid", {
        "place": state.auctions[0].place, "round": state.auction_round})
    return None if drawn is None else cards_typed(drawn.payload["cards"])


class AuctionForm(ActionForm):
    """One tap on the winning bid ('Ann:violet', or 'Ann' in Central Park), one on the
    skyscrapers built or the building stop; Alea or nobody is one button of its own."""

    bid = StringField(_l("Winning bid"))
    winner = StringField(_l("Winner"))
    build = IntegerField(_l("Skyscrapers built"), validators=[Optional(), NumberRange(0, 3)])
    stop = BooleanField(_l("Declare a building stop"))

    @classmethod
    def fields_of(cls, payload: Mapping[str, Any]) -> dict[str, Any]:
        """An auction recorded, for a change: a player's winning bid as its chip names it, so
        the page shows it tapped, with what was built."""
        winner, colour = payload.get("winner"), payload.get("colour")
        if not isinstance(winner, str) or winner == play.ALEA:
            return {}
        return {"bid": f"{winner}:{colour}" if colour else winner}


class FinalForm(ActionForm):
    PAYLOAD_FIELDS = {"park_tiles": "tiles"}
    tiles = StringField(_l("The three businesses turned over"))
    draw = BooleanField(_l("Let the app turn them over"))


def profile_form(profile: dict[str, Any]) -> Any:
    """Each district's five plot colours in ring order, and the supply row's set sizes."""
    fields: dict[str, Any] = {}
    for district in play.DISTRICT_IDS:
        for k in range(5):
            fields[f"{district}_{k}"] = SelectField(
                _("%(district)s, plot %(number)s", district=text(play.DISTRICT_NAMES[district]),
                  number=k + 1),
                choices=choices(rules.COLOUR_NAMES), default=profile["colours"][district][k])
    fields["set_sizes"] = StringField(
        _("Set sizes on the supply row, left to right"),
        default=" ".join(str(s) for s in profile["set_sizes"]))
    fields["keep"] = BooleanField(_("Use this board for my new tables"), default=True)
    return type("ProfileForm", (ActionForm,), fields)()


def setup_form(state: play.FifthAvenueState) -> Any:
    """The seven starting businesses and the 20 on the row. A district's business is one
    choice of plot and kind together (`start_<district>`, issue 26: 7 choices where plot and
    kind took 14); `plot_`/`kind_` still say it in two."""
    fields: dict[str, Any] = {}
    kinds = choices(rules.BUSINESS_LABELS)
    for district in play.DISTRICT_IDS:
        name = text(play.DISTRICT_NAMES[district])
        fields[f"start_{district}"] = SelectField(name, default="", choices=[
            SelectChoice("", _("plot and business?")),
            *[SelectChoice(f"{k}:{kind}", _("%(colour)s plot: %(business)s",
                                            colour=text(rules.COLOUR_NAMES[c]),
                                            business=text(label)))
              for k, c in enumerate(state.colours[district])
              for kind, label in rules.BUSINESS_LABELS.items()]])
        fields[f"plot_{district}"] = SelectField(
            _("%(district)s: plot", district=name), validate_choice=False,
            choices=[SelectChoice(str(k), _("%(colour)s plot",
                                            colour=text(rules.COLOUR_NAMES[c])))
                     for k, c in enumerate(state.colours[district])])
        fields[f"kind_{district}"] = SelectField(_("%(district)s: business", district=name),
                                                 choices=kinds, validate_choice=False)
    for k in range(play.ROW_TILES):
        fields[f"row_{k}"] = RadioField(_("Row tile %(number)s", number=k + 1), choices=kinds,
                                        validators=[InputRequired()])
    return type("SetupForm", (ActionForm,), fields)()


def render(table: Table, error: str | None = None, status: int = 200, **forms: Any) -> Any:
    state: play.FifthAvenueState = table.current.state  # type: ignore[assignment]
    high = request.args.get("high", type=int) if asked_here(state) else None
    if high is None and "alea_form" in forms:
        high = forms["alea_form"].high_bid.data  # a refused bid keeps its high bid
    in_range = high is not None and 0 <= high <= 200
    out_of_range = high is not None and not in_range  # asked in a tampered address: said so
    high = high if in_range else None  # and not copied into Alea's bid (found in an audit)
    chance = rules.alea_beats_chance(high) if in_range and rules.bid_possible(high) else None
    no_such_bid = in_range and chance is None and "high" in request.args  # asked, not refused
    phase = state.phase  # only the forms of the step the table is at are made and drawn
    context = {
        "setup_form": setup_form(state) if phase == "setup" else None,
        "auction_form": AuctionForm(formdata=None) if phase == "auctions" else None,
        "alea_form": AleaForm(formdata=None, high_bid=high) if phase == "auctions" else None,
        "final_form": FinalForm(formdata=None) if phase == "final" else None,
        "hand_form": hand_form(table, formdata=None)
        if phase == "final" and state.tied_leaders else None,
        **forms,
    }
    if phase == "auctions":
        context |= auction_choice(state, context["auction_form"])
    return table_page(table, error, status, saved_board=board_saved(table), rules=rules,
                      play=play, rulings=play.RULINGS, chance=chance, high=high,
                      no_such_bid=no_such_bid, out_of_range=out_of_range,
                      chance_asked=(high is not None or out_of_range) and "bid" not in request.args,
                      alea_known=alea_known(table) if phase == "auctions" else None, **context)


def auction_choice(state: play.FifthAvenueState, form: AuctionForm) -> dict[str, Any]:
    """The auction's bids as chips, the one tapped (or the only one, or a refused form's) and
    what its winner may do: build 3, 2, 1 or none, or declare a building stop."""
    bids = auction_bids(state)
    values = [value for value, _p, _c in bids]
    asked = (request.args.get("bid") if asked_here(state) else None) or form.bid.data
    chosen = asked if asked in values else values[0] if len(values) == 1 else None
    return {"bids": bids, "chosen": chosen,
            "outcomes": state.auction_outcomes(*bid_parts(chosen)) if chosen else []}


def asked_here(state: play.FifthAvenueState) -> bool:
    """Whether a bid chip or a high bid in the page's address was asked in the auction under
    way (`at`, its place): one asked in an auction since decided (a chip tapped on a screen
    another phone had moved on) is not carried into the next (found at a table: its high bid
    stood typed there, Alea's chance against it open)."""
    at = request.args.get("at")
    return at is None or bool(state.auctions) and at == state.auctions[0].place


def bid_parts(bid: str) -> tuple[str, str | None]:
    """A bid chip's value as (player, plot colour): 'Ann:violet', or 'Ann' in Central Park."""
    player, _colon, colour = bid.partition(":")
    return player, colour or None


def auction_bids(state: play.FifthAvenueState) -> list[tuple[str, str, str | None]]:
    """The bids that can win the auction under way, one chip each: (value, player, colour);
    in Central Park a player's bid has no plot colour of its own."""
    place = state.auctions[0].place
    if place == play.CENTRAL_PARK:
        return [(p, p, None) for p in state.players]
    return [(f"{p}:{c}", p, c) for p in state.players for c in state.colours_for(place, p)]


@bp.route("/<table_id>/board", methods=["GET", "POST"])
def board(table_id: str) -> Any:
    """The board profile of this table: which colour sits where in each district. It is the
    table's own; this browser may keep it for its new tables (never for anyone else's)."""
    table = load_table("fifth_avenue", table_id)
    state: play.FifthAvenueState = table.current.state  # type: ignore[assignment]
    shown = ({"colours": state.colours, "set_sizes": state.set_sizes} if state.board_set
             else my_board())
    form = profile_form(shown)

    def render_board(table: Table, error: str | None = None, status: int = 200) -> Any:
        page = render_template("fifth_avenue/board.html", table=table, state=state, form=form,
                               seq=table.current.last_seq, play=play, error=error)
        return page, status

    if request.method == "GET":
        return render_board(table)

    def kept_for_new_tables(event: Event) -> None:
        if form.keep.data:
            keep_my_board(dict(event.payload))

    return take(table, Action("profile", lambda table: form, profile_payload), render_board,
                on_recorded=kept_for_new_tables)


def board_saved(table: Table) -> bool:
    """Whether this phone saved a board for its new tables: the set-up offers it then (the
    table page is kept under it, `GameViews.phone`)."""
    return MY_BOARD in session


def my_board() -> dict[str, Any]:
    """The board this browser kept for its new tables, or the default profile."""
    return session.get(MY_BOARD) or {"colours": play.DEFAULT_PROFILE,
                                     "set_sizes": list(play.DEFAULT_SET_SIZES)}


def keep_my_board(profile: dict[str, Any]) -> None:
    session.permanent = True
    session[MY_BOARD] = profile


def profile_payload(form: Any, table: Table) -> dict[str, Any]:
    colours = {d: [form[f"{d}_{k}"].data for k in range(5)] for d in play.DISTRICT_IDS}
    sizes = [int(s) for s in form.set_sizes.data.split() if digits(s)]
    return {"colours": colours, "set_sizes": list(play.check_set_sizes(sizes))}


def setup_payload(form: Any, table: Table) -> dict[str, Any]:
    """The set-up as the table laid it out, its tiles counted against the box's."""
    start = {d: start_tile(form, d) for d in play.DISTRICT_IDS}
    row = [form[f"row_{k}"].data for k in range(play.ROW_TILES)]
    turns.check_tiles_in_box([tile["kind"] for tile in start.values()] + row)
    return {"start": start, "row": row, "turns": True}


def start_tile(form: Any, district: str) -> dict[str, Any]:
    """A district's starting business: its one choice ('2:gallery'), or its plot and kind."""
    plot, _colon, kind = str(form[f"start_{district}"].data or "").partition(":")
    if not (digits(plot) and kind):
        plot, kind = str(form[f"plot_{district}"].data or ""), form[f"kind_{district}"].data
    if not (digits(plot) and kind):
        raise FieldError(form[f"start_{district}"], _("Choose the plot and the business drawn "
                                                      "for %(district)s.", district=text(
                                                          play.DISTRICT_NAMES[district])))
    return {"plot": int(plot), "kind": kind}


def drawn_setup(form: ActionForm, table: Table) -> dict[str, Any]:
    """One tap: the app draws the starting businesses and the supply row; the table lays the
    tiles out as the board shows them."""
    return {**turns.draw_setup(state_of(table).colours, _draw), "turns": True}


def state_of(table: Table) -> play.FifthAvenueState:
    state: play.FifthAvenueState = table.current.state  # type: ignore[assignment]
    return state


def split_target(target: str) -> tuple[str, int]:
    district, _colon, plot = target.partition(":")
    if not re.fullmatch("[0-9]{1,3}", plot):  # ASCII digits ("²" is a digit int() refuses)
        raise RuleError(_("Tap a plot on the board."))
    return district, int(plot)


def plot_kind(form: PlotForm, table: Table) -> str:
    """A tap on a plot: an initial skyscraper while placing, otherwise the chosen business."""
    return "initial_skyscraper" if state_of(table).phase == "placing" else "business"


def plot_payload(form: PlotForm, table: Table) -> dict[str, Any]:
    district, number = split_target(form.target.data)
    data: dict[str, Any] = {"district": district, "plot": number}
    if plot_kind(form, table) == "business":
        data["tile"] = form.tile.data if form.tile.data is not None else first_tile(
            state_of(table))
    return data


def first_tile(state: play.FifthAvenueState) -> int:
    current = state.current_set
    tiles = state.row[current] if current is not None else []
    return next((i for i, t in enumerate(tiles) if t is not None), 0)


def alea_payload(form: AleaForm, table: Table) -> dict[str, Any]:
    """Alea's bid: the cards the players flipped, if typed (Enter in their field sends the
    form's first button, Draw, too), else drawn by the app from a full black deck; with the
    players' high bid, if typed."""
    high = {} if form.high_bid.data is None else {"high_bid": form.high_bid.data}
    if high and not rules.bid_possible(high["high_bid"]):  # before any card is drawn
        raise FieldError(form.high_bid, _("no bid adds up to %(bid)s (cards are worth 4, 5 "
                                          "and 6: a high bid is 0 if both passed, else 4, 5, "
                                          "6, or 8 or more).", bid=high["high_bid"]))
    typed = (form.cards.data or "").strip() or alea_known(table) or ""  # flipped: they stay
    cards = parse_cards(typed) if typed or not form.draw.data else draw_alea_cards()
    return {**high, "cards": cards}


def draw_alea_cards() -> list[int]:
    """Flip black cards from a shuffled full deck until a value repeats."""
    deck = [v for v, n in rules.BLACK_DECK.items() for _ in range(n)]
    _draw.shuffle(deck)
    seen: list[int] = []
    for card in deck:
        seen.append(card)
        if seen.count(card) == 2:
            return seen
    raise RuleError(_("The deck ran out before a value repeated."))


def parse_cards(text: str) -> list[int]:
    """'4 6 5 4', '4,6,5,4' or '4654': every card is one digit."""
    values = [ch for ch in text if not ch.isspace() and ch != ","]
    if not values or any(v not in ("4", "5", "6") for v in values):
        raise RuleError(_("Enter the black cards' values, 4, 5 or 6, in the order flipped."),
                        key="cards")  # said under the cards typed (it was said over the strip)
    return [int(v) for v in values]


def parse_tiles(typed: str) -> list[str]:
    """'boutique gallery gallery', in English or in the players' language ('Galerie'), by the
    names the app shows ('perfume shop' as well as 'perfume': found at a table, refused)."""
    names = {kind: kind for kind in rules.BUSINESSES}
    for words in (rules.BUSINESS_LABELS, rules.BUSINESS_NAMES):
        names |= {text(name).casefold(): kind for kind, name in words.items()}
    said = typed.casefold().replace(",", " ")
    for name in sorted((name for name in names if " " in name), key=len, reverse=True):
        said = said.replace(name, names[name])
    return [names.get(word, word) for word in said.split()]


def auction_payload(form: AuctionForm, table: Table) -> dict[str, Any]:
    """Alea or nobody from their buttons; a player from the bid tapped, with the skyscrapers
    built (a choice: never 0 by default) or the building stop."""
    if form.winner.data in (play.ALEA, "-"):
        return {"winner": None if form.winner.data == "-" else play.ALEA}
    player, colour = bid_parts(form.bid.data or "")
    if not player:
        raise RuleError(_("Tap who won the auction, then what was built."))
    if form.stop.data:
        return {"winner": player, "colour": colour, "stop": True}
    if form.build.data is None:
        raise RuleError(_("Tap how many skyscrapers %(player)s built.", player=player))
    return {"winner": player, "colour": colour, "build": form.build.data}


def final_payload(form: FinalForm, table: Table) -> dict[str, Any]:
    """The final scoring; Central Park's three tiles drawn by the app or entered."""
    if form.draw.data:
        below = state_of(table).below_park
        return {"park_tiles": _draw.sample(below, min(3, len(below)))}
    return {"park_tiles": parse_tiles(form.tiles.data or "")}


def hand_form(table: Table, **blank: Any) -> Any:
    """The cards in hand of the players tied for the lead (the final tie-break); `blank`
    (formdata=None): the page's, not the request's."""
    state = state_of(table)
    fields = {f"cards_{i}": IntegerField(_("%(player)s: cards in hand", player=p),
                                         validators=[InputRequired(), NumberRange(0, 200)])
              for i, p in enumerate(state.players) if p in state.tied_leaders}
    return type("HandForm", (ActionForm,), fields)(**blank)


def hand_payload(form: Any, table: Table) -> dict[str, Any]:
    state = state_of(table)
    return {"cards": {p: form[f"cards_{i}"].data for i, p in enumerate(state.players)
                      if p in state.tied_leaders}}


def who(form: WhoForm, table: Table) -> dict[str, Any]:
    return {"player": form.player.data}


VIEWS = GameViews(page=render, blueprint=bp, phone=board_saved, actions={
    "board/saved": Action("profile", ActionForm, lambda form, table: my_board()),
    "setup": Action("setup", lambda table: setup_form(state_of(table)), setup_payload,
                    form_name="setup_form"),
    "setup/draw": Action("setup", ActionForm, drawn_setup),
    "first": Action("first_placer", WhoForm, who),
    "plot": Action(plot_kind, PlotForm, plot_payload),
    "move": Action("move", MoveForm,
                   lambda form, table: {"commissioner": form.commissioner.data,
                                        "to": form.to.data}),
    # Option A's 1st action: the player at turn takes 3 skyscrapers into their supply.
    "skyscrapers": Action("skyscrapers", WhoForm, who),
    "score": Action("score", ScoreForm, lambda form, table: {"district": form.district.data}),
    "alea": Action("alea_bid", AleaForm, alea_payload, form_name="alea_form"),
    "auction": Action("auction", AuctionForm, auction_payload, form_name="auction_form"),
    "final": Action("final", FinalForm, final_payload, form_name="final_form"),
    "hand": Action("hand_cards", hand_form, hand_payload, form_name="hand_form"),
})
