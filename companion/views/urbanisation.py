"""Urbanisation's pages: set-up, the characters, the current player's actions with their costs and
gains, every tracking card, the administration's report, the final scoring and the score sheet."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, request, session
from flask_babel import gettext as _
from wtforms import BooleanField, RadioField, SelectChoice, SelectField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from .. import replays
from ..i18n import lazy_gettext as _l
from ..i18n import lazy_text, text
from ..rules import Current
from ..rules import urbanisation as rules
from ..rules import urbanisation_actions as pieces
from ..rules import urbanisation_offers as offering
from ..rules import urbanisation_table as play
from ..rules.common import RuleError, require_turn
from ..rules.text import and_list
from .declarations import Action, GameViews
from .forms import ActionForm, FieldError, IntegerField, Sent, digits, reason_field
from .tables import Table, opened_fold_out, table_page

bp = Blueprint("urbanisation", __name__, url_prefix="/urbanisation")  # its template globals
MY_CARDS = "urbanisation_cards"  # the factory and invention cards this phone has seen (session)
# The most kept of each, the latest seen, with names this long at most: the session cookie, which
# also holds the phone's tables, stays under the 4 KB a browser keeps.
KEPT_FACTORIES, KEPT_INVENTIONS, KEPT_NAME = 12, 8, 24
DISPLAYED_FACTORIES = 3  # the factory display: the deck's top three, the lowest numbers left
PLAYED_WITH = {c.action: key for key, c in pieces.CHARACTERS.items() if c.action}
ACTION_NAMES = {
    "buy_land": _l("Buy land"), "erect": _l("Erect buildings"), "trade_grain": _l("Trade grain"),
    "sow": _l("Sow seeds"), "work_orders": _l("Work orders"), "attract": _l("Attract industry"),
    "produce": _l("Produce goods"), "taxes": _l("Collect taxes"),
    "invention": _l("Acquire invention"),
}


COLOURS = [SelectChoice(c, lazy_text(rules.COLOUR_NAMES[c])) for c in pieces.COLOURS]
ORDERS = rules.WORK_ORDERS_PER_COLOUR


@bp.app_template_global()
def urbanisation_sources(inventions: bool = True) -> dict[str, str]:
    """The VP sources, by key, for the score sheet and the pad (rendered with the rules module
    urbanisation.py only); a game without the Inventions has none of theirs."""
    if inventions:
        return pieces.SOURCES
    return {k: v for k, v in pieces.SOURCES.items() if k not in pieces.INVENTION_SOURCES}


@bp.app_template_global()
def urbanisation_rulings() -> dict[str, str]:
    """The rulings, by key, for the score sheet."""
    return play.RULINGS


@bp.app_template_global()
def urbanisation_gains(offer: offering.Offer) -> list[str]:
    """What a one-tap action changes on the tracking card, in words: '−$2', '+2 VP', '+1 grain'."""
    said = []
    if offer.money:
        said.append(_("+$%(n)s", n=offer.money) if offer.money > 0
                    else _("−$%(n)s", n=-offer.money))
    if offer.vp:
        said.append(_("+%(n)s VP", n=offer.vp))
    if offer.grain:
        said.append(_("+%(n)s grain", n=offer.grain) if offer.grain > 0
                    else _("−%(n)s grain", n=-offer.grain))
    return said


def number(label: Any, low: int, high: int, default: int | None = None,
           id: str | None = None) -> IntegerField:
    """A whole number the players may leave blank (then the default or 0); `id`, its element's
    id where its name is another element's id on the page."""
    return IntegerField(label, default=default, id=id,
                        validators=[Optional(), NumberRange(low, high)])


def needed(label: Any, low: int, high: int, default: int | None = None) -> IntegerField:
    return IntegerField(label, default=default,
                        validators=[InputRequired(), NumberRange(low, high)])


class PlayerForm(ActionForm):
    """An action of the player whose turn it is; `play` plays the character of this action
    (ticked until the players untick it: a character is hired to be played, as the one-tap
    buttons play it)."""

    player = StringField(_l("Player"), validators=[InputRequired()])
    play = BooleanField(_l("Play the character"), default=True)

    @classmethod
    def fields_of(cls, payload: Mapping[str, Any]) -> dict[str, Any]:
        """A recorded action as its form's fields, for a change: the character's box ticked
        only where it was played."""
        return super().fields_of(payload) | {"play": bool(payload.get("character"))}


class OfferForm(PlayerForm):
    """One of the current player's one-tap actions (urbanisation_offers), by its key; work
    orders may come from a card's last space and be doubled by the character."""

    offer = StringField(_l("Action"), validators=[InputRequired(), Length(max=60)])
    last_space = BooleanField(_l("It is the last empty space of its card (+$%(bonus)s)",
                                 bonus=rules.LAST_WORK_ORDER_BONUS))


class CharacterForm(ActionForm):
    player = StringField(_l("Player"), validators=[InputRequired()])
    character = StringField(_l("Character"), validators=[InputRequired()])


class LandForm(PlayerForm):
    PAYLOAD_FIELDS = {"grounds": "land_grounds"}
    price_markers = needed(_l("Price markers in it ($1 each)"), 1, rules.PRICE_MARKERS)
    land_grounds = RadioField(_l("Building grounds"), default="1", validators=[Sent()],
                              choices=[SelectChoice("1", _l("1 ground")),
                                       SelectChoice("2", _l("2 grounds"))])


class ErectForm(PlayerForm):
    PAYLOAD_FIELDS = {"count": "erect_count"}
    building = SelectField(_l("Building"), choices=list(rules.BUILDINGS))
    erect_count = needed(_l("How many"), 1, 12, default=1)


class TradeForm(PlayerForm):
    PAYLOAD_FIELDS = {"buy": "grain_amount", "sell": "grain_amount"}
    trade = SelectField(_l("Trade"), choices=["buy", "sell", "mill"])
    grain_amount = number(_l("Grain"), 0, rules.MAX_GRAIN, default=1)


class SowForm(PlayerForm):
    PAYLOAD_FIELDS = {"grain": "seeds", "farmer": "farmer_seeds"}
    seeds = number(_l("Grain on empty building grounds"), 0, rules.MAX_GRAIN, default=1)
    farmer_seeds = number(_l("Grain on the Farmer card (plays him)"), 0, 2, default=0)


class OrdersForm(PlayerForm):
    PAYLOAD_FIELDS = {"count": "orders_count", "last": "last_space"}
    colour = SelectField(_l("Colour"), choices=COLOURS)
    orders_count = needed(_l("Work orders shown on the space"), 1, ORDERS, default=1)
    last_space = BooleanField(_l("It is the last empty space of its card (+$%(bonus)s)",
                                 bonus=rules.LAST_WORK_ORDER_BONUS))
    extra_colour = SelectField(_l("Colour of the additional ones"),
                               choices=[SelectChoice("", _l("the same")), *COLOURS], default="")


# Which factory a card is: one the invention cards name, or another (rules: factory_name).
FACTORY_CHOICES = [SelectChoice("", _l("which factory?")),
                   *[SelectChoice(key, lazy_text(words))
                     for key, words in pieces.FACTORY_NAMES.items()]]
# An invention card's end bonus: none, or the factory it names with the VP its card pays.
BONUS_CHOICES = [SelectChoice("", _l("no end bonus")),
                 *[SelectChoice(key, _l("%(vp)s VP with the %(factory)s", vp=vp,
                                        factory=lazy_text(pieces.FACTORY_NAMES[key])))
                   for key, vp in pieces.BONUS_FACTORIES.items()]]


class AttractForm(PlayerForm):
    """A factory card described; what a card seen before shows (its colour, goods and name) is
    taken from its number when left blank."""

    PAYLOAD_FIELDS = {"number": "factory_number", "colour": "factory_colour",
                      "name": "factory_name"}

    factory_number = needed(_l("Factory number"), 1, 99)
    factory_colour = SelectField(_l("Goods colour"), default="", choices=[
        SelectChoice("", _l("as seen before")), *COLOURS])
    goods = RadioField(_l("Goods on its production space"), validate_choice=False, choices=[
        SelectChoice(str(n), str(n)) for n in range(1, pieces.MAX_GOODS + 1)])
    factory_name = SelectField(_l("Which factory (for invention bonuses)"),
                               choices=FACTORY_CHOICES, default="")
    upgrade = StringField(_l("Where"))
    filled = BooleanField(_l("All its work order spaces are filled"), default=True)

    @classmethod
    def fields_of(cls, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The goods and the factory upgraded as the form's choices name them."""
        return super().fields_of(payload) | {"goods": str(payload.get("goods") or ""),
                                              "upgrade": str(payload.get("upgrade") or "")}


class CardAttractForm(PlayerForm):
    """A factory card in the order the table reads it (issue 42): its number, which factory it
    is (with the inventions; blank: as seen before, else another factory), where it goes (the
    likeliest preselected); the chip of its production space ("<colour>.<goods>") sends it."""

    PAYLOAD_FIELDS = {"number": "factory_number", "name": "factory_name"}

    factory_number = needed(_l("Factory number"), 1, 99)
    factory_name = SelectField(_l("Which factory"), choices=FACTORY_CHOICES, default="")
    upgrade = StringField(_l("Where"))
    filled = BooleanField(_l("All its work order spaces are filled"), default=True)
    production = StringField(_l("Its production space"), validators=[Length(max=12)])


class ProduceForm(PlayerForm):
    factory = needed(_l("Factory"), 1, 99)
    factory_colour = StringField(_l("Colour of the factory"))
    goods = number(_l("Goods"), 0, pieces.MAX_GOODS)
    produce_white = number(lazy_text(rules.COLOUR_NAMES["white"]), 0, ORDERS, default=0)
    produce_grey = number(lazy_text(rules.COLOUR_NAMES["grey"]), 0, ORDERS, default=0)
    produce_orange = number(lazy_text(rules.COLOUR_NAMES["orange"]), 0, ORDERS, default=0)


def invention_fields() -> dict[str, Any]:
    abilities = [SelectChoice("", _l("no ability")),
                 *[SelectChoice(k, lazy_text(words)) for k, words in pieces.ABILITIES.items()]]
    fields: dict[str, Any] = {}
    for k in (1, 2):
        fields[f"ability_{k}"] = SelectField(_l("Card %(k)s: ability", k=k), choices=abilities,
                                             default="")
        fields[f"bonus_factory_{k}"] = SelectField(
            _l("Card %(k)s: end bonus", k=k), choices=BONUS_CHOICES, default="")
    return fields


class KnownOfferForm(PlayerForm):
    """A card seen before, in one tap: its offer's key (`urbanisation_offers.attract_offers`)."""

    offer = StringField(_l("Action"), validators=[InputRequired(), Length(max=60)])


class BaseInventionForm(PlayerForm):
    start = StringField(_l("Marker"))  # "new", a docking space, or blank: the cheapest
    card = StringField(_l("The card taken"))  # a card seen before: "<ability>|<factory>"
    to = needed(_l("To docking space"), 1, rules.INVENTION_SPACES)

    @classmethod
    def fields_of(cls, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The marker's space as its choice names it ("new": a new one, not the blank choice,
        which is the cheapest), and each card's ability and end bonus."""
        cards = payload.get("cards") if isinstance(payload.get("cards"), list) else []
        fields = super().fields_of(payload) | {"start": str(payload.get("start") or "new")}
        for k, card in enumerate(cards[:2], start=1):
            if isinstance(card, Mapping):
                fields |= {f"ability_{k}": card.get("ability") or "",
                           f"bonus_factory_{k}": card.get("factory") or ""}
        return fields


InventionForm = type("InventionForm", (BaseInventionForm,), invention_fields())


class CardInventionForm(PlayerForm):
    """An invention card chosen whole, as printed (issue 42): the card ("<ability>|<factory>"),
    a second one with the Professor, the marker (blank: the cheapest for the space), and the
    docking space, whose button sends it."""

    start = StringField(_l("Marker"))  # "new", a docking space, or blank: the cheapest
    card = StringField(_l("The card taken"))
    card_2 = StringField(_l("The second card"))
    to = needed(_l("To docking space"), 1, rules.INVENTION_SPACES)


class EffectForm(ActionForm):
    effect_player = StringField(_l("Player"), validators=[InputRequired()])
    money = number(_l("Money ($, − to pay)"), -pieces.MAX_MONEY, pieces.MAX_MONEY, default=0)
    vp = number(_l("Victory points"), -pieces.MAX_MONEY, pieces.MAX_MONEY, default=0,
                id="effect-vp")  # "vp" is the fold-out of the points by source and by turn
    grain = number(_l("Grain (from the return area)"), -rules.MAX_GRAIN, rules.MAX_GRAIN,
                   default=0)
    effect_white = number(_l("White work orders"), -ORDERS, ORDERS, default=0)
    effect_grey = number(_l("Grey work orders"), -ORDERS, ORDERS, default=0)
    effect_orange = number(_l("Orange work orders"), -ORDERS, ORDERS, default=0)
    reason = reason_field()

    @classmethod
    def fields_of(cls, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The player and each colour's work orders under their fields' names."""
        orders = payload.get("orders") if isinstance(payload.get("orders"), Mapping) else {}
        return super().fields_of(payload) | {"effect_player": payload.get("player")} | {
            f"effect_{colour}": orders.get(colour, 0) for colour in pieces.COLOURS}


class NameFactoryForm(ActionForm):
    factory = StringField(_l("Factory"), validators=[InputRequired()])  # "<owner>|<number>"
    name = SelectField(_l("Which factory"), choices=FACTORY_CHOICES[1:])
    reason = reason_field()

    @classmethod
    def fields_of(cls, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The factory as its choice names it: "<owner>|<number>"."""
        return super().fields_of(payload) | {
            "factory": f"{payload.get('player')}|{payload.get('number')}"}


class AdministrationForm(ActionForm):
    display_1 = number(_l("Space %(n)s", n=1), 1, 99)
    display_2 = number(_l("Space %(n)s", n=2), 1, 99)
    display_3 = number(_l("Space %(n)s", n=3), 1, 99)


def setup_form(players: list[str]) -> Any:
    """Inventions or not, the start player, starting money, each first territory's grounds and
    the pool sizes the table wants counted."""
    fields: dict[str, Any] = {
        "inventions": RadioField(_("The Inventions expansion"), default="no", validators=[Sent()],
                                 choices=[SelectChoice("no", _("Without Inventions")),
                                          SelectChoice("yes", _("With Inventions"))]),
        "start_player": SelectField(_("Start player"),
                                    choices=[SelectChoice(p, p) for p in players],
                                    default=players[0], validators=[Sent()]),
        "money": needed(_("Starting money ($)"), 0, pieces.MAX_MONEY, default=play.START_MONEY),
    }
    for i, p in enumerate(players):
        fields[f"grounds_{i}"] = RadioField(
            _("%(name)s's first territory", name=p), default="1", validators=[Sent()],
            choices=[SelectChoice("1", _("1 ground")), SelectChoice("2", _("2 grounds"))])
    for pool in pieces.POOLS:
        fields[f"pool_{pool}"] = number(text(pieces.SOURCES[pool]) if pool in rules.BUILDINGS
                                        else _("Factory markers"), 0, 99)
    return type("SetupForm", (ActionForm,), fields)()


# The page -------------------------------------------------------------------------------------


# A fold-out (an action's tile, or the effects) and the form it holds: made only when open.
FOLD_OUT_FORMS = {
    "buy_land": ("land_form", LandForm), "erect": ("erect_form", ErectForm),
    "trade_grain": ("trade_form", TradeForm), "sow": ("sow_form", SowForm),
    "work_orders": ("orders_form", OrdersForm), "attract": ("attract_form", AttractForm),
    "invention": ("invention_form", InventionForm), "effect": ("effect_form", EffectForm),
    "name_factory": ("name_form", NameFactoryForm),
}


def render(table: Table, error: str | None = None, status: int = 200, **forms: Any) -> Any:
    current = table.current
    state: play.UrbanisationState = current.state  # type: ignore[assignment]
    opened = opened_fold_out(forms.pop("opened", None))
    learn(state)
    context = {
        "setup_form": setup_form(table.names) if state.segment == "setup" else None,
        "administration_form": (AdministrationForm(formdata=None)
                                if state.segment == "administration" else None),
    }
    if opened in FOLD_OUT_FORMS:  # the one action tile (or the effects) opened, if any
        name, form_class = FOLD_OUT_FORMS[opened]
        context[name] = form_class(formdata=None)
    if opened == "sow" and state.current_player:  # no seed offered where no ground is empty
        room = state.cards[state.current_player].seed_room
        context["sow_form"].seeds.data = min(1, room)
    if opened == "attract":  # the factories seen before, in one tap each
        context["known_factories"] = offering.attract_offers(state, factories_seen(state))
    if state.segment == "actions":  # cards seen before, beside the one-tap offers (issue 26)
        context["display_factories"] = offering.attract_offers(
            state, factories_seen(state), most=DISPLAYED_FACTORIES)
        # Any card, at the top of the offers (issue 42): an invention card chosen whole, a
        # factory card by what the table reads from it.
        context["invention_cards"] = (offering.inventions_open(state, [
            (i.ability, i.factory) for i in pieces.printed_inventions()])
            if state.inventions else [])
        context["card_invention_form"] = CardInventionForm(formdata=None)
        context["card_attract_form"] = CardAttractForm(formdata=None)
    return table_page(table, error, status, rules=rules, pieces=pieces, play=play,
                      rulings=play.RULINGS, action_names=ACTION_NAMES, played_with=PLAYED_WITH,
                      mayor=mayor_reason(state), opened=opened,
                      offers=current_offers(table, current), capacity=pieces.capacity,
                      **{**context, **forms})


def factories_seen(state: play.UrbanisationState) -> dict[int, dict[str, Any]]:
    """The factory cards this phone has seen (at any of its tables) and this table's."""
    kept = session.get(MY_CARDS, {}).get("factories", {})
    seen = {int(n): {"colour": f[0], "goods": f[1], "name": f[2]} for n, f in kept.items()
            if digits(str(n)) and isinstance(f, list) and len(f) == 3}
    return seen | offering.known_factories(state)


def inventions_seen(state: play.UrbanisationState) -> list[tuple[str | None, str | None]]:
    kept = session.get(MY_CARDS, {}).get("inventions", [])
    seen = [(a or None, f or None) for a, f in kept if isinstance(a, str | None)]
    return [*seen, *(c for c in offering.known_inventions(state) if c not in seen)]


def cards_kept(table: Table) -> str:
    """The cards this phone keeps, once it has learnt this table's (`learn`): the page offers
    them, so it is kept under them (`GameViews.phone`)."""
    learn(table.current.state)  # type: ignore[arg-type]
    return json.dumps(session.get(MY_CARDS), sort_keys=True)


def learn(state: play.UrbanisationState) -> None:
    """This phone keeps the cards each table it shows has seen, for its next tables (an undone
    factory stays known). The session changes only when a card is new to it."""
    kept = session.get(MY_CARDS, {"factories": {}, "inventions": []})
    factories = {str(n): [f["colour"], f["goods"], (f["name"] or "")[:KEPT_NAME]]
                 for n, f in offering.known_factories(state).items()}
    inventions = [[a or "", (f or "")[:KEPT_NAME]] for a, f in offering.known_inventions(state)]
    new_factories = {n: f for n, f in factories.items() if kept["factories"].get(n) != f}
    new_inventions = [c for c in inventions if c not in kept["inventions"]]
    if new_factories or new_inventions:
        session.permanent = True
        newest = [(n, f) for n, f in kept["factories"].items() if n not in new_factories]
        session[MY_CARDS] = {
            "factories": dict([*newest, *new_factories.items()][-KEPT_FACTORIES:]),
            "inventions": (kept["inventions"] + new_inventions)[-KEPT_INVENTIONS:]}


def current_offers(table: Table, current: Current) -> dict[str, list[offering.Offer]]:
    """The current player's one-tap actions, worked out once per table state (the page that
    shows them and the tap that takes one use the same)."""
    found: dict[str, list[offering.Offer]] = replays.MEMORY.worked_out(
        "offers", table.id, current, offering.offers)
    return found


def mayor_reason(state: play.UrbanisationState) -> str | None:
    """Why this turn's start player starts: set-up, or the Mayor's fewest VP, least money, seat
    (as the state recorded them when it chose him), or a Mayor received at the table that a
    change of an earlier action left with him (ruling "mayor_kept")."""
    if state.segment not in ("characters", "actions"):
        return None
    mayor = state.order[0]
    if state.turn == 1:
        return _("%(name)s is the start player, chosen at set-up.", name=mayor)
    before = {p: sum(v for t, q, _s, v in state.vp_log if q == p and t < state.turn)
              for p in state.players}
    ruled = rules.mayor(before, state.mayor_money, state.former_start, state.players)
    if ruled != mayor:
        return _("%(name)s received the Mayor at the table and keeps him, though the rules "
                 "would now give him to %(ruled)s (ruling).", name=mayor, ruled=ruled)
    least = min(before.values())
    tied = [p for p in state.players if before[p] == least]
    if len(tied) == 1:
        return _("%(name)s is the Mayor: the fewest VP after turn %(turn)s (%(vp)s, before the "
                 "Mayor's +%(mayor_vp)s).", name=mayor, turn=state.turn - 1, vp=least,
                 mayor_vp=rules.MAYOR_VP)
    money = state.mayor_money
    others = text(and_list([p for p in tied if p != mayor]))
    poorest = min(money[p] for p in tied)
    if [p for p in tied if money[p] == poorest] == [mayor]:
        return _("%(name)s is the Mayor: tied with %(others)s on %(vp)s VP, the least money "
                 "($%(money)s).", name=mayor, others=others, vp=least, money=money[mayor])
    poor = [p for p in tied if p != mayor and money[p] == poorest]
    if len(poor) < len(tied) - 1:  # some tied on VP had more money (found by a rules audit)
        return _("%(name)s is the Mayor: tied with %(others)s on %(vp)s VP, with %(poor)s also "
                 "on the least money ($%(money)s), and the first clockwise after %(former)s, "
                 "the former start player.", name=mayor, others=others, vp=least,
                 poor=text(and_list(poor)), money=poorest, former=state.former_start)
    return _("%(name)s is the Mayor: tied with %(others)s on %(vp)s VP and $%(money)s, the "
             "first clockwise after %(former)s, the former start player.", name=mayor,
             others=others, vp=least, money=poorest, former=state.former_start)


def chosen(value: str | None, message: str) -> int | None:
    """A number chosen from a list (a factory, a marker), or None for the blank choice."""
    if not value:
        return None
    if not re.fullmatch(r"[0-9]{1,3}", value):
        raise RuleError(message)
    return int(value)


def character(form: PlayerForm, kind: str) -> dict[str, str]:
    return {"character": PLAYED_WITH[kind]} if form.play.data else {}


# Set-up and characters -------------------------------------------------------------------------


def setup_payload(form: Any, table: Table) -> dict[str, Any]:
    pools = {pool: form[f"pool_{pool}"].data for pool in pieces.POOLS
             if form[f"pool_{pool}"].data is not None}
    return {"inventions": form.inventions.data == "yes",
            "start_player": form.start_player.data, "money": form.money.data,
            "grounds": {p: int(form[f"grounds_{i}"].data) for i, p in enumerate(table.names)},
            "pools": pools}


# The actions -----------------------------------------------------------------------------------


def offer_kind(form: OfferForm, table: Table) -> str:
    kind = str(form.offer.data or "").partition(".")[0]
    return kind if kind in offering.OFFERED else "pass"


def offer_payload(form: OfferForm, table: Table) -> dict[str, Any]:
    """A one-tap action: the payload the rules offered for this key, worked out again from the
    table the form was made on (a stale form is refused as any other)."""
    key = str(form.offer.data or "")
    at_turn = table.current.state.current_player
    if at_turn is not None:  # said as every action out of turn is (found in an audit)
        require_turn(at_turn, form.player.data)
    found = offering.find_offer(current_offers(table, table.current), key)
    if found is None or found.payload["player"] != form.player.data:
        raise RuleError(_("That action is not open to %(name)s now: choose again.",
                           name=form.player.data))
    data = dict(found.payload)
    if key.partition(".")[0] == "work_orders":
        data["last"] = form.last_space.data
        data.update(character(form, "work_orders"))
    return data


def land_payload(f: LandForm, table: Table) -> dict[str, Any]:
    return {"player": f.player.data, "price_markers": f.price_markers.data,
            "grounds": int(f.land_grounds.data), **character(f, "buy_land")}


def erect_payload(f: ErectForm, table: Table) -> dict[str, Any]:
    return {"player": f.player.data, "building": f.building.data, "count": f.erect_count.data,
            **character(f, "erect")}


def trade_payload(f: TradeForm, table: Table) -> dict[str, Any]:
    amount = f.grain_amount.data or 0
    data: dict[str, Any] = {"player": f.player.data, **character(f, "trade_grain")}
    if f.trade.data == "mill":
        data["character"] = PLAYED_WITH["trade_grain"]
    else:
        data[f.trade.data] = amount
    return data


def sow_payload(f: SowForm, table: Table) -> dict[str, Any]:
    farmer = f.farmer_seeds.data or 0
    data = {"player": f.player.data, "grain": f.seeds.data or 0}
    return data | ({"farmer": farmer, "character": PLAYED_WITH["sow"]} if farmer else {})


def orders_payload(f: OrdersForm, table: Table) -> dict[str, Any]:
    data = {"player": f.player.data, "colour": f.colour.data, "count": f.orders_count.data,
            "last": f.last_space.data, **character(f, "work_orders")}
    if f.play.data and f.extra_colour.data:
        data["extra_colour"] = f.extra_colour.data
    return data


def attract_payload(f: AttractForm, table: Table) -> dict[str, Any]:
    """A factory card described: what is left blank (colour, goods, name) is the card's as
    seen before, at this table or at this phone's earlier ones; never asked again."""
    upgrade = chosen(f.upgrade.data, _("Choose a new factory or the factory to upgrade."))
    state: play.UrbanisationState = table.current.state  # type: ignore[assignment]
    seen = factories_seen(state).get(f.factory_number.data, {})
    colour = f.factory_colour.data or seen.get("colour")
    if not colour:
        raise FieldError(f.factory_colour, _("Factory %(number)s is new to this phone: choose "
                                             "its goods colour.", number=f.factory_number.data))
    typed = str(f.goods.data or "")
    goods = int(typed) if digits(typed) else seen.get("goods")
    if not goods:
        raise FieldError(f.goods, _("Factory %(number)s is new to this phone: choose the goods "
                                    "its production space shows.", number=f.factory_number.data))
    name = f.factory_name.data or seen.get("name") or ""
    if state.inventions and seen and not f.factory_name.data and name not in \
            pieces.BONUS_FACTORIES:
        name = pieces.OTHER_FACTORY
    return {"player": f.player.data, "number": f.factory_number.data,
            "colour": colour, "goods": goods, "name": name, "filled": f.filled.data,
            "upgrade": upgrade, **character(f, "attract")}


def card_attract_payload(f: CardAttractForm, table: Table) -> dict[str, Any]:
    """A factory card from the card form: its number, its name (blank: as this phone saw it,
    else another factory), where, and its production space, the chip tapped."""
    state: play.UrbanisationState = table.current.state  # type: ignore[assignment]
    colour, _dot, goods = str(f.production.data or "").partition(".")
    if colour not in pieces.COLOURS or not digits(goods):
        raise FieldError(f.production, _("Tap the production space the card shows."))
    seen = factories_seen(state).get(f.factory_number.data, {})
    name = f.factory_name.data or seen.get("name") or ""
    if state.inventions and name not in pieces.BONUS_FACTORIES:
        name = pieces.OTHER_FACTORY
    upgrade = chosen(f.upgrade.data, _("Choose a new factory or the factory to upgrade."))
    # Holding the Any factory card, the form asks only whether he plays it: not played, the
    # card's work order spaces were all filled (found by a rules audit: refused as not filled).
    card = state.cards.get(f.player.data)
    asked = card is not None and PLAYED_WITH["attract"] in card.characters
    filled = f.filled.data or (asked and not f.play.data)
    return {"player": f.player.data, "number": f.factory_number.data, "colour": colour,
            "goods": int(goods), "name": name, "filled": filled, "upgrade": upgrade,
            **character(f, "attract")}


def known_attract_payload(f: KnownOfferForm, table: Table) -> dict[str, Any]:
    """A factory seen before, in one tap: the payload its offer was worked out with."""
    state: play.UrbanisationState = table.current.state  # type: ignore[assignment]
    found = next((o for o in offering.attract_offers(state, factories_seen(state))
                  if o.key == f.offer.data), None)
    if found is None or found.payload["player"] != f.player.data:
        raise RuleError(_("That factory cannot be attracted by %(name)s now: choose again.",
                          name=f.player.data))
    return {**found.payload, **character(f, "attract")}


def produce_payload(f: ProduceForm, table: Table) -> dict[str, Any]:
    """At one factory: its colour's goods, or any colours with the Any colour character (the
    colours used, as the offers record them)."""
    if f.play.data:
        orders = {c: n for c in pieces.COLOURS if (n := f[f"produce_{c}"].data or 0)}
    else:
        colour = f.factory_colour.data
        if colour not in pieces.COLOURS:
            raise RuleError(_("Choose the factory that produces."))
        orders = {colour: f.goods.data or 0}
    return {"player": f.player.data, "factory": f.factory.data, "orders": orders,
            **character(f, "produce")}


def invention_payload(f: Any, table: Table) -> dict[str, Any]:
    start = marker_start(f, table)
    cards = []
    ability, _bar, factory = (f.card.data or "").partition("|")
    if ability or factory:  # a card seen before, in one tap
        cards.append({"ability": ability or None, "factory": factory or None})
    for k in () if cards else (1, 2):
        ability, factory = f[f"ability_{k}"].data, f[f"bonus_factory_{k}"].data
        if ability or factory:
            cards.append({"ability": ability or None, "factory": factory or None})
    return {"player": f.player.data, "start": start or 0,
            "to": f.to.data, "cards": cards, **character(f, "invention")}


def card_invention_payload(f: CardInventionForm, table: Table) -> dict[str, Any]:
    """An invention card chosen whole (two with the Professor): the marker the players chose,
    or the one that makes the move cheapest (`urbanisation_actions.cheapest_marker`), recorded
    by the docking space it starts from (0: a new one)."""
    cards = []
    for chosen_card in (f.card.data, f.card_2.data):
        ability, _bar, factory = str(chosen_card or "").partition("|")
        if ability or factory:
            cards.append({"ability": ability or None, "factory": factory or None})
    if not cards:
        raise FieldError(f.card, _("Choose the card taken."))
    return {"player": f.player.data, "start": marker_start(f, table) or 0, "to": f.to.data,
            "cards": cards, **character(f, "invention")}


def marker_start(f: Any, table: Table) -> int | None:
    """The marker an invention is taken with, by the docking space it stands on (None: a new
    one): the one the players chose ("new", or a space), or else the one that makes the move
    cheapest (`urbanisation_actions.cheapest_marker`; found at a table: the whole form's blank
    choice was a new marker, $1 more than the free move of Anna's marker on space 1)."""
    state: play.UrbanisationState = table.current.state  # type: ignore[assignment]
    held = state.cards.get(str(f.player.data))
    if f.start.data in ("new", "0") or held is None:
        return None
    if f.start.data:
        return chosen(f.start.data, _("Choose a new marker or one on the track."))
    cheapest = pieces.cheapest_marker(held.markers, f.to.data)
    return None if cheapest is None else held.markers[cheapest]


# Corrections, administration, the end ----------------------------------------------------------


def effect_payload(f: EffectForm, table: Table) -> dict[str, Any]:
    orders = {c: f[f"effect_{c}"].data or 0 for c in pieces.COLOURS}
    changes = {"money": f.money.data or 0, "vp": f.vp.data or 0, "grain": f.grain.data or 0}
    if not any(changes.values()) and not any(orders.values()):  # all blank or 0
        raise RuleError(_("Enter the gain or loss: every amount is 0, so nothing would "
                           "change."))
    return {"player": f.effect_player.data, **changes, "orders": orders,
            "reason": f.reason.data or ""}


def name_payload(f: NameFactoryForm, table: Table) -> dict[str, Any]:
    """A correction: which factory a player's card is (for the inventions' end bonuses)."""
    owner, _bar, number = f.factory.data.rpartition("|")
    if not digits(number):
        raise FieldError(f.factory, _("Choose the factory."))
    return {"player": owner, "number": int(number), "name": f.name.data,
            "reason": f.reason.data or ""}


def administration_payload(f: AdministrationForm, table: Table) -> dict[str, Any]:
    """One tap: harvest, factories, citizens, feeding, grain refill, and the next Mayor."""
    display = [f[f"display_{k}"].data for k in (1, 2, 3)]
    data: dict[str, Any] = {"exchange": request.form.getlist("exchange")}
    if any(n is not None for n in display):
        data["display"] = display
    state: play.UrbanisationState = table.current.state  # type: ignore[assignment]
    mayor = state.mayor_after(data)  # the Mayor handed over at the table, kept as it was
    return data | ({"mayor": mayor} if mayor else {})


def fold_out(name: str, form: type[ActionForm], payload: Any) -> Action:
    """An action of a fold-out (`FOLD_OUT_FORMS`): refused, its form is drawn there as typed."""
    return Action(name, form, payload, form_name=FOLD_OUT_FORMS[name][0], opened=name)


VIEWS = GameViews(page=render, blueprint=bp, phone=cards_kept, actions={
    "setup": Action("setup", lambda table: setup_form(table.names), setup_payload,
                    form_name="setup_form"),
    "character": Action("character", CharacterForm,
                        lambda f, t: {"player": f.player.data, "character": f.character.data}),
    "offer": Action(offer_kind, OfferForm, offer_payload),
    "pass": Action("pass", PlayerForm, lambda f, t: {"player": f.player.data}),
    "buy_land": fold_out("buy_land", LandForm, land_payload),
    "erect": fold_out("erect", ErectForm, erect_payload),
    "trade_grain": fold_out("trade_grain", TradeForm, trade_payload),
    "sow": fold_out("sow", SowForm, sow_payload),
    "work_orders": fold_out("work_orders", OrdersForm, orders_payload),
    "attract": fold_out("attract", AttractForm, attract_payload),
    "attract/known": Action("attract", KnownOfferForm, known_attract_payload, opened="attract"),
    "produce": Action("produce", ProduceForm, produce_payload, opened="produce"),
    "taxes": Action("taxes", PlayerForm,
                    lambda f, t: {"player": f.player.data, **character(f, "taxes")},
                    opened="taxes"),
    "invention": fold_out("invention", InventionForm, invention_payload),
    "invention/card": Action("invention", CardInventionForm, card_invention_payload,
                             form_name="card_invention_form", opened="invention-card"),
    "attract/card": Action("attract", CardAttractForm, card_attract_payload,
                           form_name="card_attract_form", opened="attract-card"),
    "effect": fold_out("effect", EffectForm, effect_payload),
    "name_factory": fold_out("name_factory", NameFactoryForm, name_payload),
    "administration": Action("administration", AdministrationForm, administration_payload,
                             form_name="administration_form", opened="administration"),
    "final": Action("final", ActionForm),
})
