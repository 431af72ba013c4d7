"""The street game's pages: each street's five sites, cards described once and replayed from the
table's library in one tap, income on every roof, the end and the score pad."""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from flask import (
    Blueprint,
    abort,
    get_template_attribute,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, SelectChoice, SelectField, StringField
from wtforms.validators import InputRequired, NumberRange, Optional

from .. import replays, storage
from ..app import get_db
from ..i18n import current_language, lazy_text, text
from ..i18n import lazy_gettext as _l
from ..rules import RuleError
from ..rules import street as rules
from ..rules import street_table as play
from ..rules.text import and_list
from .actions import take
from .clients import my_tables
from .declarations import Action, GameViews
from .forms import MAX_DIGITS, ActionForm, FieldError, IntegerField, reason_field
from .tables import EARLIER_TABLES, Table, load_table, log_context, opened_fold_out, table_page

bp = Blueprint("street", __name__, url_prefix="/street")
@bp.app_template_global()
def card_html(card: Any) -> Markup:
    """A card as `street/_card.html` draws it, in the players' language: drawn once per card
    and language (a street page shows each of a few dozen cards once or twice)."""
    return _drawn_card(current_language(), play.card_key(card))


@lru_cache(maxsize=1024)
def _drawn_card(language: str, key: str) -> Markup:
    """The macro's own escaped output, kept (`language` is part of the key)."""
    return Markup(get_template_attribute("street/_card.html", "scard")(json.loads(key), rules))


@bp.app_template_global()
def new_card_icons(builder: Mapping[str, Any]) -> Markup:
    """The builder's part that describes a new card (street/_new_card.html). A fresh form's is
    the same on every page: drawn once per language, number of icons and project tapped to open
    it, and kept; a form sent back with what was typed is drawn anew."""
    if builder["fresh"]:
        return _fresh_new_card(current_language(), builder["slots"], builder["project"])
    return _drawn_new_card(builder["form"], builder["slots"])


@lru_cache(maxsize=64)
def _fresh_new_card(language: str, slots: int, project: str) -> Markup:
    """`language` is part of the key: the words are the players'."""
    return _drawn_new_card(CardForm(formdata=None, data={"project": project}), slots)


def _drawn_new_card(form: Any, slots: int) -> Markup:
    """The form's project, floor and icon choices as chips, with `slots` icons of each kind;
    an icon that counts projects counts the card's own unless another is chosen."""
    new_card = get_template_attribute("street/_new_card.html", "new_card")
    projects = chips(form.project)
    return Markup(new_card(form, slots, projects, chips(form.floor), chips(form.income_each_0),
                           [("", _("its own")), *projects[1:]]))


MAX_CARD_TEXT = 1000  # a card's JSON is about 350 characters with every icon filled in
LIBRARY_ON_TABLE = 6  # the most likely cards the table page offers; the builder's page has all
# A card seen before and its site, as its row's button sends it: the card's short id, the site,
# and for a gift with several opponents the seat of the street it goes on.
NEW_CARD = "new-card"  # the fold-out that draws a new card's chips in place of the cards seen
PICK = re.compile(r"([0-9a-f]{12})\.([1-5])(?:\.([0-9]))?")
EACH_LABELS = {"flat": _l("once"), "floor_below": _l("per floor below"),
               "ground_floor": _l("if ground floor"), "on_site": _l("per project on this site"),
               "on_street": _l("per project on the street")}
# The project types by their names from the rules, in the players' language.
PROJECT_CHOICES = [SelectChoice("", _l("no project")),
                   *[SelectChoice(p, lazy_text(rules.PROJECT_NAMES[p])) for p in rules.PROJECTS]]


class PlayerForm(ActionForm):
    player = StringField(_l("Player"), validators=[InputRequired()])


class BuyForm(ActionForm):
    player = StringField(_l("Player"), validators=[InputRequired()])
    deck = StringField(_l("From"), validators=[InputRequired()])
    cost = IntegerField(_l("Cost ($)"), default=None, validators=[Optional(), NumberRange(0, 99)])


class AccountForm(ActionForm):
    player = StringField(_l("Player"), validators=[InputRequired()])
    amount = IntegerField(_l("Account ($)"), validators=[InputRequired(), NumberRange(0, 999)])
    reason = reason_field()


class LibraryForm(ActionForm):
    player = StringField(_l("Player"), validators=[InputRequired()])
    street = StringField(_l("Street"), validators=[InputRequired()])
    site = IntegerField(_l("Site"), validators=[InputRequired(), NumberRange(1, 5)])
    card = StringField(_l("Card"), validators=[InputRequired()])


def effect_labels(kind: str, k: int) -> tuple[Any, Any, Any]:
    """The labels of an icon's three fields: what it counts, its amount, the project counted."""
    if kind == "income":
        return (_l("Income %(k)s", k=k), _l("Income %(k)s: amount", k=k),
                _l("Income %(k)s: of project", k=k))
    return (_l("Prestige %(k)s", k=k), _l("Prestige %(k)s: amount", k=k),
            _l("Prestige %(k)s: of project", k=k))


def effect_fields(kind: str) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for k in range(2):
        each, amount, project = effect_labels(kind, k + 1)
        fields[f"{kind}_each_{k}"] = SelectField(
            each, choices=[SelectChoice("", _l("no icon")),
                           *[SelectChoice(e, EACH_LABELS[e]) for e in rules.EACH]],
            default="")
        fields[f"{kind}_amount_{k}"] = IntegerField(
            amount, default=None, validators=[Optional(), NumberRange(-20, 20)])
        fields[f"{kind}_project_{k}"] = SelectField(project, choices=PROJECT_CHOICES, default="")
    return fields


class BaseCardForm(LibraryForm):
    card = StringField(_l("Card"))
    site = IntegerField(_l("Site"), validators=[Optional(), NumberRange(1, 5)])
    street = StringField(_l("Street"))  # the player's own unless a gift's (`gift_street`)
    project = SelectField(_l("Project showing"), choices=PROJECT_CHOICES, default="")
    double = BooleanField(_l("Double"))
    roof = BooleanField(_l("Roof"))
    gift = BooleanField(_l("Gift"))
    no_gifts = BooleanField(_l("No gifts"))
    floor = SelectField(_l("Must be built"), choices=[
        SelectChoice("", _l("anywhere")), SelectChoice("ground", _l("ground floor only")),
        SelectChoice("upper", _l("upper floor only")),
        SelectChoice("roof", _l("on a roof only"))], default="")


class SourcedCardForm(BaseCardForm):
    """A card built: from the library (`card`) or described below, and where it came from:
    `source` blank for the 1st action's free card (or one bought already), else the deck it was
    bought from (with `cost`) or the public pile."""

    source = StringField(_l("Where the card came from"))
    cost = IntegerField(_l("Cost ($)"), default=None, validators=[Optional(), NumberRange(0, 99)])
    pick = StringField(_l("Card"))  # a card seen before and its site (PICK), one tap
    describe = BooleanField(_l("A new card"))  # the new card's chips shown (no script needed)


class RemoveForm(ActionForm):
    street = StringField(_l("Street"), validators=[InputRequired()])
    site = IntegerField(_l("Site"), validators=[InputRequired(), NumberRange(1, 5)])


# A new card described by its icons: the visible project (rotating a card means choosing which of
# its two projects shows), its marks, and up to two income and two prestige icons.
CardForm = type("CardForm", (SourcedCardForm,),
                effect_fields("income") | effect_fields("prestige"))


def render(table: Table, error: str | None = None, status: int = 200, **forms: Any) -> Any:
    """The table page; `built`: a card the turn's builder sent, shown again as it was made
    (a tap refused as from an outdated screen)."""
    opened = opened_fold_out(forms.pop("opened", None))
    state: play.StreetState = table.current.state  # type: ignore[assignment]
    built = forms.pop("built", None)
    turns = builder(state, form=built or as_recorded(table), known=known_cards(table),
                    opened=opened,
                    recorded=recorded_card(table),
                    here=(url_for("main.table", slug="street", table_id=table.id),
                          url_for("main.table", slug="street", table_id=table.id, open=NEW_CARD)),
                    project=request.args.get("project"))
    if turns["fresh"]:  # where the card came from and its cost, as chosen before `fold`
        chosen(turns["form"], state, turns["player"])
    if opened and opened.startswith("buy-") and "buy_form" not in forms:
        forms["buy_form"] = purchase_chosen(state, opened)
    return table_page(table, error, status, builder=turns, play=play, rules=rules,
                      rulings=play.RULINGS, opened=opened, decks=decks,
                      final_round_news=final_round_news(table.current), **forms)


def final_round_news(current: Any) -> bool:
    """Whether the last action began the final round ("When any player deck becomes empty, or
    all 5 sites of any street are all finished"): a deck run out, or a roof that finished the
    street it was built on; the answer then brings "Final round" into view (found at a table:
    a roof that finished a street left it 220 px above the screen, the strip silent)."""
    state: play.StreetState = current.state
    last = current.last
    if not state.final_round or last is None:
        return False
    if last.kind == "deck_empty":
        return True
    card, player = last.payload.get("card"), last.payload.get("player")
    street = last.payload.get("street", player)
    return (last.kind == "card" and player == state.triggered_by and isinstance(card, Mapping)
            and bool(card.get("roof")) and street in state.streets
            and rules.all_finished(state.streets[street]))


@bp.route("/<table_id>/play/<int:seat>", methods=["GET", "POST"])
def play_card(table_id: str, seat: int) -> Any:
    """One player's turn at building: a card from the library in one tap, or a new one. The
    table page's builder sends its cards here too (`on=table`): a tap from an outdated screen
    is answered with the page it came from, brought up to date."""
    table = load_table("street", table_id)
    if not 0 <= seat < len(table.names):
        abort(404)
    player = table.names[seat]
    # Opened with a new card half described on the table page (`described`): its form as that.
    form = CardForm(formdata=request.args) if not request.form and \
        request.args.get("describe") else CardForm()

    def page(table: Table, error: str | None = None, status: int = 200) -> Any:
        if status == 409 and request.form.get("on") == "table":  # the table page's builder
            # The card as it was being built stays, while it is still that player's turn
            # (found by an audit: an undo and redo on another phone emptied the builder).
            kept = {"built": form} if table.current.state.turn == player else {}
            return render(table, error, status, **kept)
        current = table.current
        html = render_template(
            "street/play.html", table=table, state=current.state,
            builder=builder(current.state, player, form, request.args.get("q", "").strip(), 2,
                            known_cards(table), opened_fold_out(), recorded_card(table)),
            player=player, seat=seat, play=play, rules=rules, error=error,
            rulings=play.RULINGS, **log_context(table, current))
        return html, status

    state: play.StreetState = table.current.state  # type: ignore[assignment]
    if not form.is_submitted():
        chosen(form, state, player)
        return page(table)
    step = state.step_of(player)
    return take(table, Action("card", lambda table: form,
                              lambda form, table: card_payload(form, player, state, step,
                                                               known_cards(table))),
                page)


def chosen(form: CardForm, state: play.StreetState, player: str) -> None:
    """Where the card came from and its cost, as chosen on the table page before a new card's
    project chip, "Built before" or the link to every card built before was tapped (in the
    address: street.js puts them there, `fold` without JavaScript): kept, so a card built there
    is bought as chosen (they were lost, and a card bought from Ben's deck for $4 was recorded
    as from the player's own deck). A deck that can no longer be chosen (emptied on another
    phone meanwhile) leaves none chosen, with why, never another in its place; a cost is
    checked as the form checks it, and said beside it if it is out of range."""
    given = passed(state, player, request.args)
    for value, words, off in sources(state, player, state.step_of(player)):
        if given.get("source") == value:
            form.source.data = "" if off else value
            if off:
                form.source.errors = [_("No card can come from there now: %(deck)s. Choose "
                                        "where the card came from.", deck=words)]
    if "cost" in given:
        typed_cost(form, given["cost"])


def typed_cost(form: Any, cost: str) -> None:
    """A cost carried in an address, read and checked as the form's own field would be (said
    beside it if it is out of range)."""
    form.cost.process(MultiDict({form.cost.name: cost}))
    form.cost.validate(form)


def purchase_chosen(state: play.StreetState, opened: str) -> BuyForm | None:
    """The purchase opened by "To discard a card" (`opened`: "buy-1"), with where the card came
    from and its cost as chosen in the card builder (in the address: `fold`, or street.js):
    its deck marked as the one to tap, its cost filled in, and said beside it if it is out of
    range. None where the address chose neither."""
    seat = opened.removeprefix("buy-")
    if not seat.isdigit() or int(seat) >= len(state.players):
        return None
    player = state.players[int(seat)]
    given = passed(state, player, request.args)
    if not given:
        return None
    form = BuyForm(formdata=None, data={"player": player, "deck": given.get("source")})
    if "cost" in given:
        typed_cost(form, given["cost"])
    return form


def passed(state: play.StreetState, player: str, given: Mapping[str, str]) -> dict[str, str]:
    """Of `given` (an address's query or a form), where the card came from if it names one of
    the player's sources (open or not: `chosen` says why one is closed), and the cost as typed
    if it is of at most MAX_DIGITS characters."""
    kept = {}
    source = given.get("source", "")
    if source in [value for value, _words, _off in sources(state, player, state.step_of(player))]:
        kept["source"] = source
    cost = given.get("cost", "")
    if 0 < len(cost) <= MAX_DIGITS:
        kept["cost"] = cost
    return kept


# What a new card half described on the table page's builder says of itself (its first icons:
# the table page draws one of each), taken to the whole card builder's own page.
DESCRIBED = ("project", "floor", "double", "roof", "gift", "no_gifts", "street",
             *(f"{kind}_{part}_0" for kind in ("income", "prestige")
               for part in ("each", "amount", "project")))


def described(given: Mapping[str, str]) -> dict[str, str]:
    """Of `given` (a form), the new card as described so far: each of its fields filled in,
    as typed (the builder's page reads them as its form would, and refuses what it would)."""
    return {name: given[name][:32] for name in DESCRIBED if given.get(name)}  # bounded


@bp.post("/<table_id>/fold")
def fold(table_id: str) -> Any:
    """A new card's project chip, or "Built before", tapped without JavaScript (with it, app.js
    opens the button's data-href in place, where street.js put what was chosen): the builder's
    form comes here, and the table page is opened with the new card shown by that project (or
    the cards built before again), with where the card came from and its cost as chosen
    (`chosen`; as links, the chips lost them, and a card then built from its cost alone was
    recorded as from the player's own deck). "All N cards built before" opens the builder's
    own page for its seat, with both kept as well (found at a table: as a link it lost them).
    "A second income or prestige icon: the whole card builder" opens it with the new card as
    described so far (found at a table: its roof and prestige icon were lost, to be entered
    again). "To discard a card" opens the purchase, with both kept (`purchase_chosen`). Nothing
    is recorded."""
    table = load_table("street", table_id)
    state: play.StreetState = table.current.state  # type: ignore[assignment]
    seats = [str(n) for n in range(len(state.players))]
    discard = request.form.get("discard_card", "")
    if discard in seats:
        buy_at = f"buy-{discard}"
        return redirect(url_for("main.table", slug="street", table_id=table.id, open=buy_at,
                                **passed(state, state.players[int(discard)], request.form))
                        + f"#{buy_at}", code=303)
    whole = request.form.get("whole_card", "")
    seat = request.form.get("all_cards", "") or whole
    if seat in seats:
        kept = passed(state, state.players[int(seat)], request.form)
        if whole:
            kept |= described(request.form) | {"describe": "y"}
        return redirect(url_for("street.play_card", table_id=table.id, seat=int(seat), **kept),
                        code=303)
    project = request.form.get("new_card")  # a project's chip; none: "Built before"
    opened = {} if project is None else {
        "open": NEW_CARD, "project": project if project in rules.PROJECTS else ""}
    kept = passed(state, state.turn, request.form)
    return redirect(url_for("main.table", slug="street", table_id=table.id, **opened, **kept)
                    + ("#new-card" if opened else "#turn"), code=303)


def builder(state: play.StreetState, player: str | None = None, form: Any = None,
            query: str = "", slots: int = 1, known: list[play.Known] | None = None,
            opened: str | None = None, recorded: Any = None,
            here: tuple[str, str] = ("", ""), project: str | None = None) -> Any:
    """What the card builder needs for `player` (by default the one whose turn it is): the form
    with the defaults the state gives, the step, where the card may come from, the cards seen
    before (`known`, the most likely first: those whose words hold `query`, each with the sites
    it may go on), whether a new card's chips are drawn in their place (`describe`: always
    without cards seen before, else once "A new card" is opened, `?open=new-card`, or a card
    described was refused; a page draws only one of the two, so it stays small) and how many
    income and prestige icons it offers (`slots`: one on the table page, both on the builder's
    own page; `here`: the table page with "A new card" closed and opened). "A new card" opens
    by the project the card shows (`project`, one tap for both, `new`: each project's chip and
    its address). In change mode, the card as it was recorded (`recorded`) is offered first,
    or described if it is no card seen before; a project tapped there ("": "no project", which
    a change once passed by; None: none tapped) changes the project the recorded card shows,
    and the rest of it stays as recorded."""
    player = player or state.turn
    step = state.step_of(player)
    project = project if project in (*rules.PROJECTS, "") else None
    fresh = form is None
    form = form or CardForm(formdata=None, data={"project": project or ""})
    if form.player.data not in (None, player):  # filled in for another player's card
        form, fresh = CardForm(formdata=None, data={"project": project or ""}), True
    elif project is not None and not fresh and not form.is_submitted():  # a chip in change mode
        form.project.data = project  # the card as recorded, but for the project it shows
    if form.source.data is None:
        form.source.data = likely_source(state, player, step)
    known = sorted(known or [], key=lambda k: k.card != recorded)  # stable: else as it was
    whole = slots > 1  # the builder's own page draws both
    describe = (not known or opened == NEW_CARD or bool(form.describe.data)
                or (recorded is not None and known[0].card != recorded))
    found = library(known, query, None if whole else LIBRARY_ON_TABLE) \
        if whole or not describe else []
    toggle = known and not whole
    site = form.site.data if recorded is not None else None  # where it went, as recorded
    return {"player": player, "seat": state.players.index(player), "step": step, "form": form,
            "sources": sources(state, player, step), "query": query,
            "library": [offer(state, player, k, words,
                              (site, form.street.data) if k.card == recorded else None)
                        for k, words in found],
            "site": site,
            "known": len(known), "slots": slots, "describe": whole or describe,
            "toggle": here[0] if toggle and describe else "", "fresh": fresh,
            "project": (project or "") if fresh else "",
            "new": [(value, words, f"{here[1]}&project={value}#new-card")
                    for value, words in chips(form.project)] if toggle and not describe else []}


def likely_source(state: play.StreetState, player: str, step: int) -> str:
    """Where the card most likely came from, chosen on the page (one tap changes it): the 1st
    action's is the player's own deck, free ("take its top card for free"), so none is asked;
    the 2nd action's is the player's own deck, the one deck always open then (its upcoins were
    taken as the 1st action; "while there are upcoins on a player deck, no one can buy a card
    from it") and the one whose price goes to the bank, not to a rival ("put the card's cost
    onto their player deck"). None if it is empty."""
    if step != play.SECOND or player in state.decks_empty or state.upcoins[player]:
        return ""
    return player


def offer(state: play.StreetState, player: str, known: play.Known, words: str,
          recorded: tuple[int, str] | None = None) -> dict[str, Any]:
    """A card seen before as its row offers it: its short id, words and price, and a line of
    site buttons per street it may go on (`rows`: (seat, the five sites open or not); the seat
    is None for the player's own street; a gift's rows are named, even the only opponent's:
    bare site buttons read as the player's own, found at a 2-player table). The card of a change, at
    the site and street it was `recorded` on, marks that button (`marked`: row, site)."""
    card = known.card
    opponents = [q for q in state.players if q != player]
    streets = opponents if card["gift"] else [player]
    rows = [(state.players.index(q) if card["gift"] else None,
             state.open_sites(card, q, player)) for q in streets]
    marked = None
    if recorded is not None and recorded[1] in streets:
        marked = (streets.index(recorded[1]), recorded[0])
    return {"card": card, "id": play.card_id(card), "words": words, "price": known.price,
            "rows": rows, "marked": marked}


def known_cards(table: Table) -> list[play.Known]:
    """The table's card library, the same on every phone, the most likely first
    (`play.likely_cards`): every card this table's log built, undone ones too while Redo
    would bring them back (a card taken back is about to come again), and those of the
    earlier street tables of the phone that started it (`earlier_tables`). A card undone and
    then replaced by another action was entered by mistake: it is not offered (found at a
    table: a roof entered with $+3, undone and entered again with $+1, stayed first to the
    game's end, one tap from recording the mistake again). An undone purchase's price is no
    price paid (found at a table: a card bought for $4 by mistake, undone, was offered at $4,
    which a blank cost would have recorded again)."""
    db = get_db()
    state: play.StreetState = table.current.state  # type: ignore[assignment]
    in_force = set(table.current.done)
    log = table.current if table.changing is None else \
        replays.current(db, table.id, table.game, table.names)  # the whole log's, in change mode
    kept = {*log.done, *log.undone}
    logged = [b if b.seq in in_force else replace(b, cost=None)  # also in change mode
              for b in logged_cards(table.id, storage.last_seq(db, table.id)) if b.seq in kept]
    seen = {play.card_key(b.card) for b in logged}
    here = [*logged, *[play.Built(card) for card in state.library  # from a change's replay
                       if play.card_key(card) not in seen]]
    earlier = [logged_cards(table_id, seq) for table_id, seq in earlier_tables(table)]
    return play.likely_cards(here, state.uses, earlier)


def earlier_tables(table: Table) -> tuple[tuple[str, int], ...]:
    """The street tables the phone that started this one had then (`Table.earlier`; for a
    table started before tables kept them, this phone's most recent other ones), each with
    its last event: the cards seen there are offered too, so the table page is kept under
    them (`GameViews.phone`)."""
    db = get_db()
    ids = table.earlier if table.earlier is not None else \
        storage.latest_tables(db, my_tables(), "street", table.id, EARLIER_TABLES)
    last = storage.last_seqs(db, ids)
    return tuple((table_id, last.get(table_id, 0)) for table_id in ids)


# Per worker, the cards each table's log built as of one of its events (a log is only ever
# appended to), for the tables shown last: a page reads only the events since.
CARDS_LOGGED: OrderedDict[str, tuple[int, tuple[play.Built, ...]]] = OrderedDict()
CARDS_LOGGED_TABLES = 256
CARDS_LOGGED_LOCK = threading.Lock()


def logged_cards(table_id: str, last_seq: int) -> tuple[play.Built, ...]:
    """The cards a table's log built as of event `last_seq`, the card actions in force or not,
    and the cards changes entered again: the whole log read once per worker, then only the
    events after the ones read before, so a page costs the same at any length of game."""
    with CARDS_LOGGED_LOCK:
        seq, cards = CARDS_LOGGED.pop(table_id, (0, ()))
    if seq > last_seq:  # another thread read further: start from what this page shows
        seq, cards = 0, ()
    if last_seq > seq:
        db = get_db()
        events = ([e for e in storage.events(db, table_id) if e.seq <= last_seq] if seq == 0
                  else [*storage.events_at(db, table_id, list(range(seq + 1, last_seq + 1)))
                        .values()])
        cards = tuple(play.cards_logged(cards, sorted(events, key=lambda e: e.seq)))
    with CARDS_LOGGED_LOCK:
        CARDS_LOGGED[table_id] = (last_seq, cards)
        while len(CARDS_LOGGED) > CARDS_LOGGED_TABLES:
            CARDS_LOGGED.popitem(last=False)
    return cards


def as_recorded(table: Table) -> Any:
    """In change mode, a card being changed: the builder's form filled in as it was recorded
    (where it came from, the cost, the card described by its chips, whose street), to change
    what was wrong; None otherwise (a fresh form)."""
    changing = table.changing
    if changing is None or changing.kind != "card":
        return None
    payload = changing.payload
    card = payload["card"]
    data = {"player": payload["player"], "street": payload["street"],
            "source": payload.get("bought_from", ""), "cost": payload.get("cost"),
            "site": payload["site"], "project": card.get("project") or "",
            "double": card.get("double"),
            "roof": card.get("roof"), "gift": card.get("gift"),
            "no_gifts": card.get("no_gifts"), "floor": card.get("floor") or ""}
    for kind in ("income", "prestige"):
        for k, effect in enumerate(card.get(kind, [])[:2]):
            data |= {f"{kind}_each_{k}": effect["each"], f"{kind}_amount_{k}": effect["amount"],
                     f"{kind}_project_{k}": effect.get("project") or ""}
    return CardForm(formdata=None, data=data)


def recorded_card(table: Table) -> Any:
    """In change mode, the card of the action being changed (checked as the rules keep it);
    None otherwise."""
    changing = table.changing
    if changing is None or changing.kind != "card":
        return None
    found = play.built([changing.payload])
    return found[0].card if found else None


def chips(field: Any) -> list[tuple[str, Any]]:
    """A select's choices as (value, words), for chips."""
    return [(choice.value, choice.label) for choice in field.choices]


def library(known: list[play.Known], query: str, most: int | None = None
            ) -> list[tuple[play.Known, str]]:
    """The cards seen before, the most likely first, with their words, those matching
    `query`; at most `most` of them (the table page shows the few most likely, the builder's
    page all)."""
    found = []
    for k in known:
        card = k.card
        words = play.card_words(card)
        if query.casefold() in words.casefold():
            found.append((k, words))
    return found[:most]


def sources(state: play.StreetState, player: str, step: int) -> list[tuple[str, Any, bool]]:
    """The chips for where the 2nd action's card came from, as (value, words, disabled): each
    player deck to buy from (`decks`), and the public pile."""
    return [*decks(state, player), (play.PUBLIC, _("Public pile (free)"), False)]


def decks(state: play.StreetState, player: str) -> list[tuple[str, str, bool]]:
    """The player decks `player` may buy a card from, one's own first, as (deck, words,
    closed): not one with upcoins on it ("the 1st action is to take them"), nor an empty one;
    a closed deck's words say why."""
    said = []
    for q in [player, *[q for q in state.players if q != player]]:
        words = _("From own deck") if q == player else _("From %(player)s's deck", player=q)
        if state.upcoins[q]:
            words = _("%(deck)s (upcoins on it)", deck=words)
        elif q in state.decks_empty:
            words = _("%(deck)s (empty)", deck=words)
        said.append((q, words, bool(state.upcoins[q] or q in state.decks_empty)))
    return said


def card_payload(form: Any, player: str, state: play.StreetState, step: int,
                 known: list[play.Known]) -> dict[str, Any]:
    """A card built: one seen before from its row's button (`pick`: the card, its site and,
    for a gift among several opponents, whose street), or the card the form's library choice
    or chips describe, on the site of the button tapped."""
    names = state.players
    street, site, price = form.street.data or None, form.site.data, None
    if form.pick.data:
        found = PICK.fullmatch(form.pick.data)
        seat = found and found.group(3)
        if not found or (seat and int(seat) >= len(names)):
            raise RuleError(_("That card could not be read: describe it again."))
        card = library_card(found.group(1), known)
        site, street = int(found.group(2)), names[int(seat)] if seat else player
    elif form.card.data:
        card = library_card(form.card.data, known)
    else:
        card = described_card(form)
    if site is None:
        raise FieldError(form.site, _("Tap the site it is built on."))
    if form.pick.data or form.card.data:
        price = next((k.price for k in known if k.card == card), None)
    payload = {"player": player, "street": gift_street(card, street, player, names, form),
               "site": site, "card": card}
    return payload | bought_from(form, step, price)


def gift_street(card: dict[str, Any], street: str | None, player: str, names: list[str],
                form: Any) -> str:
    """Whose street the card goes on: the player's own, unless it is a gift, which goes on an
    opponent's (with one opponent that is the only answer; with several, the one chosen)."""
    opponents = [q for q in names if q != player]
    if not card.get("gift"):
        return street or player
    if street in (None, player) and len(opponents) == 1:
        return opponents[0]
    if street is None:
        raise FieldError(form.street, _("Choose whose street the gift goes on: %(names)s.",
                                        names=text(and_list(opponents))))
    return street


def bought_from(form: Any, step: int, price: int | None = None) -> dict[str, Any]:
    """The 2nd action's purchase, if the card was bought: the deck and the cost (a blank is not
    $0, except on the public pile; for a card seen before it is the `price` last paid for
    it)."""
    source = form.source.data or ""
    if not source:
        if step == play.SECOND:
            raise FieldError(form.source, _("choose a deck or the public pile."))
        return {}
    if source == play.PUBLIC:
        return {"bought_from": play.PUBLIC, "cost": 0}
    cost = price if form.cost.data is None else form.cost.data
    if cost is None:
        raise FieldError(form.cost, _("Enter what the card cost: only the public pile is free."))
    return {"bought_from": source, "cost": cost}


def library_card(text: str, known: list[play.Known]) -> Any:
    """A card seen before as its one-tap button sends it: its short name (`card_id`), or, from
    a page made before those, the card as a JSON object of at most MAX_CARD_TEXT characters
    (its shape is the rules' to check). A longer or deeper one never came from the button, and
    a deep one would exhaust the parser."""
    found = next((k.card for k in known if play.card_id(k.card) == text), None)
    if found is not None:
        return json.loads(play.card_key(found))  # a copy: the payload is stored as it is
    try:
        if len(text) > MAX_CARD_TEXT:
            raise ValueError(text[:40])
        card = json.loads(text)
    except (ValueError, RecursionError):
        card = None
    if not isinstance(card, dict):  # broken JSON, or a list, a number, null: no card
        raise RuleError(_("That card could not be read: describe it again."))
    return card


def described_card(form: Any) -> dict[str, Any]:
    """The new card the builder describes. An icon's amount is never blank, and an amount is
    never typed without its icon: refused, not dropped (a card recorded without the prestige
    the player typed)."""
    def effects(kind: str) -> list[dict[str, Any]]:
        found = []
        for k in range(2):
            each, amount = form[f"{kind}_each_{k}"].data, form[f"{kind}_amount_{k}"]
            if each and amount.data is None:
                raise FieldError(amount, _("say how much it is: a blank is not +0."))
            if not each and amount.data:
                raise FieldError(amount, _("choose its icon, or clear the amount: an "
                                           "amount alone counts for nothing."))
            counted = form[f"{kind}_project_{k}"].data or None
            if each in rules.COUNTING and counted is None:  # blank: "its own project"
                counted = form.project.data or None
            if each:
                found.append({"each": each, "amount": amount.data, "project": counted})
        return found

    return {"project": form.project.data or None, "double": form.double.data,
            "roof": form.roof.data, "gift": form.gift.data, "floor": form.floor.data or None,
            "no_gifts": form.no_gifts.data, "income": effects("income"),
            "prestige": effects("prestige")}


def seat_fold_out(kind: str) -> Callable[[Any, Table], str | None]:
    """The fold-out a player's form came from ("buy-1": the second seat's purchase)."""
    def of(form: Any, table: Table) -> str | None:
        player = form.player.data
        return f"{kind}-{table.names.index(player)}" if player in table.names else None
    return of


def buy_payload(form: BuyForm, table: Table) -> dict[str, Any]:
    if form.cost.data is None and form.deck.data != play.PUBLIC:  # blank is not $0
        raise FieldError(form.cost, _("Enter what the card cost: only the public pile is free."))
    return {"player": form.player.data, "deck": form.deck.data, "cost": form.cost.data or 0}


class DeckEmptyForm(PlayerForm):
    by = StringField(_l("Who took its last card"))
    drawn = BooleanField(_l("Its last card is this 1st action"))


def deck_empty_payload(form: DeckEmptyForm, table: Table) -> dict[str, Any]:
    """Who took the deck's last card; its owner, if it is the owner's 1st action (`drawn`);
    whether that was in the round before this one (`before`: the game is then over)."""
    player = form.player.data
    if form.drawn.data:
        return {"player": player, "by": player, "drawn": True}
    by = form.by.data or player
    state: play.StreetState = table.current.state  # type: ignore[assignment]
    if by in state.players and state.taken_before(by):
        return {"player": player, "by": by, "before": True}
    return {"player": player, "by": by}


def player_only(form: PlayerForm, table: Table) -> dict[str, Any]:
    return {"player": form.player.data}


VIEWS = GameViews(page=render, blueprint=bp, phone=earlier_tables, actions={
    "buy": Action("buy", BuyForm, buy_payload, form_name="buy_form",
                  opened=seat_fold_out("buy")),
    "upcoins": Action("upcoins", PlayerForm, player_only),
    # A deck ran out; whoever took its last card triggered the final round.
    "deck_empty": Action("deck_empty", DeckEmptyForm, deck_empty_payload,
                         form_name="deck_empty_form", opened=seat_fold_out("empty")),
    # The card taken was discarded: the turn goes on to its next action.
    "discard": Action("discard", PlayerForm, player_only),
    # A card built by mistake taken off the top of its site.
    "remove": Action("remove", RemoveForm,
                     lambda form, table: {"street": form.street.data, "site": form.site.data}),
    "account": Action("account", AccountForm,
                      lambda form, table: {"player": form.player.data,
                                           "amount": form.amount.data,
                                           "reason": form.reason.data},
                      form_name="account_form", opened="fix"),
    "finish": Action("finish", ActionForm),
})
