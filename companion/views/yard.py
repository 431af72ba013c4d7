"""The construction-yard game's pages: purchases, Dirk, scorings A, B and C, corrections."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from wtforms import RadioField, SelectChoice, SelectField, StringField
from wtforms.validators import InputRequired, NumberRange, Optional

from ..i18n import lazy_gettext as _l
from ..i18n import lazy_text
from ..rules import Current, yard, yard_table
from ..rules.common import seat_after
from .declarations import Action, GameViews
from .forms import ActionForm, FieldError, IntegerField, reason_field
from .tables import Table, opened_fold_out, table_page

BUILDING_CHOICES = [SelectChoice(b, lazy_text(yard.NAMES[b])) for b in yard.BUILDINGS]
NOBODY = "nobody"


class BuyForm(ActionForm):
    player = StringField(_l("Player"), validators=[InputRequired()])
    building = SelectField(_l("Building"), choices=BUILDING_CHOICES)
    receiver = StringField(_l("For"))


class ScoreForm(ActionForm):
    scoring = SelectField(_l("Scoring"), choices=[SelectChoice("A"), SelectChoice("B")])


class YoungestForm(ActionForm):
    player = StringField(_l("Player"), validators=[InputRequired()])


class CorrectForm(ActionForm):
    owner = StringField(_l("Owner"), validators=[InputRequired()])
    building = SelectField(_l("Building"), choices=BUILDING_CHOICES)
    # The building's own limit is the rules' to say (`_correction`): here only a bound.
    count = IntegerField(_l("Count"), validators=[InputRequired(), NumberRange(0, 99)])
    reason = reason_field()


class DeckForm(ActionForm):
    left = IntegerField(_l("Cards left in the deck"),
                        validators=[InputRequired(), NumberRange(0, 50)])
    reason = reason_field(id="deck-reason")  # beside CorrectForm's in the fix fold-out


def count_field(label: Any, high: int) -> IntegerField:
    """A count of Dirk's cards, blank for none: its "0" shown greyed, not as a value (found at
    a table without JavaScript: a 1 typed into a field showing 0 read "01")."""
    return IntegerField(label, validators=[Optional(), NumberRange(0, high)],
                        render_kw={"placeholder": "0"})


class BaseDirkDealForm(ActionForm):
    """Dirk's new cards by building type (the fields: `DirkDealForm`)."""

    @classmethod
    def fields_of(cls, payload: Mapping[str, Any]) -> dict[str, Any]:
        """A deal recorded, for a change: his cards of each building."""
        buildings = payload.get("buildings")
        return dict(buildings) if isinstance(buildings, Mapping) else {}


DirkDealForm = type("DirkDealForm", (BaseDirkDealForm,), {
    b: count_field(lazy_text(yard.PLURAL_NAMES[b]), yard.SUPPLY[b]) for b in yard.BUILDINGS})


def starting_money_form(players: list[str],
                        entered: Mapping[str, tuple[int, int]] | None = None) -> Any:
    """Each player's starting money: how many cards and their total; shown again as `entered`
    (found at a table: the set-up opened again showed blank fields, as if nothing was kept)."""
    fields: dict[str, Any] = {}
    for i, player in enumerate(players):
        fields[f"cards_{i}"] = IntegerField(_l("%(player)s: cards", player=player),
                                            validators=[InputRequired(), NumberRange(3, 20)])
        fields[f"total_{i}"] = IntegerField(_l("%(player)s: total", player=player),
                                            validators=[InputRequired(), NumberRange(20, 28)])

    def fields_of(cls: type[ActionForm], payload: Mapping[str, Any]) -> dict[str, Any]:
        """The set-up recorded, for a change: each player's cards and total at their seat."""
        cards, totals = payload.get("cards"), payload.get("totals")
        if not isinstance(cards, Mapping) or not isinstance(totals, Mapping):
            return {}
        return {**{f"cards_{i}": cards.get(p) for i, p in enumerate(players)},
                **{f"total_{i}": totals.get(p) for i, p in enumerate(players)}}

    fields["fields_of"] = classmethod(fields_of)
    form = type("StartingMoneyForm", (ActionForm,), fields)
    if not entered:
        return form()
    return form(data=fields_of(form, {"cards": {p: n for p, (n, _t) in entered.items()},
                                      "totals": {p: t for p, (_n, t) in entered.items()}}))


def final_form(state: yard_table.YardState, **data: Any) -> Any:
    """The end: for each card left on display (the app knows which), who takes it: the player
    holding strictly the most money of its space's currency, or nobody (a tie). Only what
    decides is asked (issue 42: the space itself was asked too). Nothing is preselected: a
    guess would score."""
    holders = [SelectChoice(str(i), p) for i, p in enumerate(state.players)]
    fields: dict[str, Any] = {}
    for k, (building, nth, alike) in enumerate(state.leftovers_told_apart):
        name = lazy_text(yard.NAMES[building])
        fields[f"to_{k}"] = RadioField(  # which of two alike, as its legend says (a table asked)
            _l("%(building)s, who takes it", building=name) if alike == 1 else
            _l("%(building)s %(n)s of %(of)s, who takes it", building=name, n=nth, of=alike),
            choices=[*holders, SelectChoice(NOBODY, _l("tie or nobody"))],
            validators=[InputRequired(_l("tap who holds the most money of its space, or "
                                         "'tie or nobody'."))])

    def fields_of(cls: type[ActionForm], payload: Mapping[str, Any]) -> dict[str, Any]:
        """The end recorded, for a change: who took each card left on display, or nobody, by
        the card (the 2nd museum as the 2nd museum recorded), not by its place: a change before
        it may leave other cards on display (found at a table: "nobody took the theater" came
        back as "Museum 2 of 2: tie or nobody"), and a card not recorded is asked anew."""
        cards = payload.get("leftovers")
        if not isinstance(cards, list):
            return {}
        takers: dict[str, list[Any]] = {}
        for card in cards:
            if isinstance(card, Mapping) and card.get("to", "") in (None, *state.players):
                takers.setdefault(str(card.get("building")), []).append(card["to"])
        fields = {}
        for k, (building, nth, _alike) in enumerate(state.leftovers_told_apart):
            if len(takers.get(building, ())) >= nth:
                to = takers[building][nth - 1]
                fields[f"to_{k}"] = NOBODY if to is None else str(state.players.index(to))
        return fields

    fields["fields_of"] = classmethod(fields_of)
    return type("FinalForm", (ActionForm,), fields)(**data)


def render(table: Table, error: Any = None, status: int = 200, **forms: Any) -> Any:
    """The table page: next step, purchase buttons, majority board, scorings, totals."""
    current = table.current
    state: yard_table.YardState = current.state  # type: ignore[assignment]
    playing = not state.finished  # only the forms the players can use now are made
    opened = opened_fold_out(forms.pop("opened", None)) or (
        "setup" if setting_up(table) and not state.starter else None)
    fixing = playing and opened == "fix"
    context = {
        "dirk_form": DirkDealForm() if playing and state.dirk_due else None,
        "starting_form": (starting_money_form(state.players, state.starting)
                          if playing and opened == "setup" else None),
        "correct_form": CorrectForm(formdata=None) if fixing else None,
        "deck_form": DeckForm(formdata=None, left=state.deck_left) if fixing else None,
        "final_form": final_form(state, formdata=None) if ending(state) else None,
        **forms,
    }
    return table_page(table, error, status, yard=yard, rulings=yard.RULINGS, opened=opened,
                      setting_up=setting_up(table), buyers=buyers(state),
                      end_news=end_news(current), names_head=names_head(state.owners),
                      names_beside=max(map(longest_word, state.players)) <= BESIDE, **context)


# The longest word of a name that fits beside a buy row's buttons (a 4.6rem column, bold); else,
# and on a phone under 360 px, the names are above them (static/yard.css).
BESIDE = 7
# The room the majorities' name columns share (px: the table's width less its buildings'
# column, at 320 and 390 px), and what a name's column takes across: about 8 px a letter of its
# longest word (0.8rem bold), 7 px of padding.
NAMES_ROOM = {"narrow": 168, "any": 238}


def longest_word(name: str) -> int:
    """The letters of a name's longest word: a name is broken only between words."""
    return max((len(word) for word in name.split()), default=0)


def names_head(names: list[str]) -> str:
    """How the majorities' columns are headed: upright names (read from bottom to top, each
    whole on one line) where across they would break inside a word (found at a table: six
    players at 320 px, "Ma/xi/mil/ian"); "narrow": only on a phone under 360 px; "" across."""
    needed = sum(8 * longest_word(name) + 7 for name in names)
    return next((f"upright-{width}" for width, room in reversed(NAMES_ROOM.items())
                 if needed > room), "")


# Beside a buyer's row: the player whose turn comes next, the buyer who may go on.
NEXT, AGAIN = "next", "again"


def buyers(state: yard_table.YardState) -> list[tuple[str, str]]:
    """The buy rows in seat order, each (player, NEXT, AGAIN or ""): the player whose turn
    comes next (the one after the last buyer, or who starts, once the starting money says who)
    and the last buyer, who goes on after paying exactly, are marked. The rows never change
    places, so after a purchase every button is where it was, under the thumb that may buy
    again (issue 23); four players' rows fit on the first screen (issue 26). At the end, only
    the last buyer still buys."""
    players, last = state.players, state.last_buyer
    if state.game_over:
        return [(state.still_buying, AGAIN)] if state.still_buying else []
    if state.turn_ended:  # a scoring card drawn after a turn the app did not see
        return [(p, "") for p in players]
    # Who starts, not yet known, is not the first seat (found at a table: Ann marked "next"
    # while the strip said the fewest money cards decide, and Max started).
    first = seat_after(players, last) if last else state.starter
    return [(p, NEXT if p == first else AGAIN if p == last else "") for p in players]


def end_news(current: Current) -> bool:
    """Whether the end is news on this page: it came with the last action (the purchase that
    left the display short, or the scoring or deal before the end form), so the answer brings
    it into view; not after the last buyer's further purchases, whose buttons stay put."""
    state: yard_table.YardState = current.state  # type: ignore[assignment]
    return current.last is not None and not (
        current.last.kind == "buy" and state.on_display < yard.DISPLAY - 1)


def ending(state: yard_table.YardState) -> bool:
    """The end is offered once the rules end the game: the deck empty, the display short (a
    scoring card not drawn by then never comes, `YardState.never_drawn`)."""
    return not state.finished and state.game_over and not state.dirk_due


def setting_up(table: Table) -> bool:
    """The set-up is shown open until the game's first action after it (who starts). In change
    mode, after the action before the one being changed (found at a table: "Ben starts." on
    the table before a purchase of round 5)."""
    last = table.current.last
    if table.changing is not None:
        earlier = [e for e in table.played if e.seq < table.changing.seq]
        last = earlier[-1] if earlier else None
    return last is None or last.kind in ("starting_money", "youngest")


def buy_payload(form: BuyForm, table: Table) -> dict[str, Any]:
    """A purchase, for the buyer unless it is a gift (`receiver`)."""
    return {"player": form.player.data, "building": form.building.data,
            "for": form.receiver.data or form.player.data}


def dirk_payload(form: Any, table: Table) -> dict[str, Any]:
    return {"buildings": {b: form[b].data or 0 for b in yard.BUILDINGS}}


def starting_payload(form: Any, table: Table) -> dict[str, Any]:
    """Each player's starting cards and total; more cards than a capital can have refused here,
    before the rules (which take up to 20, as tables recorded before this check replay)."""
    most = yard.most_starting_cards(len(table.names))
    for i in range(len(table.names)):
        field = form[f"cards_{i}"]
        if field.data > most:  # found by a rules audit: 20 cards each at 2 players was taken
            raise FieldError(field, _("no starting capital has more than %(most)s cards (it is "
                                      "dealt until it reaches 20).", most=most))
    return {"cards": {p: form[f"cards_{i}"].data for i, p in enumerate(table.names)},
            "totals": {p: form[f"total_{i}"].data for i, p in enumerate(table.names)}}


def correct_payload(form: CorrectForm, table: Table) -> dict[str, Any]:
    return fitting("correct", {"owner": form.owner.data, "building": form.building.data,
                               "count": form.count.data, "reason": form.reason.data}, table)


def deck_payload(form: Any, table: Table) -> dict[str, Any]:
    return fitting("deck", {"left": form.left.data, "reason": form.reason.data}, table)


def fitting(kind: str, payload: dict[str, Any], table: Table) -> dict[str, Any]:
    """A correction entered now, refused if it makes more than the 54 building cards
    (`YardState.check_cards_fit`)."""
    state: yard_table.YardState = table.current.state  # type: ignore[assignment]
    state.check_cards_fit(kind, payload)
    return payload


def final_payload(form: Any, table: Table) -> dict[str, Any]:
    """The end of the game: each leftover display card and who takes it (or nobody); then
    scoring C."""
    state: yard_table.YardState = table.current.state  # type: ignore[assignment]
    return {"leftovers": [
        {"building": building, "to": None if form[f"to_{k}"].data == NOBODY
         else state.players[int(form[f"to_{k}"].data)]}
        for k, building in enumerate(state.leftover_buildings)]}


VIEWS = GameViews(page=render, actions={
    "buy": Action("buy", BuyForm, buy_payload),
    "score": Action("score", ScoreForm, lambda form, table: {"scoring": form.scoring.data}),
    "dirk": Action("dirk_deal", DirkDealForm, dirk_payload, form_name="dirk_form"),
    "setup": Action("starting_money", lambda table: starting_money_form(table.names),
                    starting_payload, form_name="starting_form", opened="setup"),
    "youngest": Action("youngest", YoungestForm,
                       lambda form, table: {"player": form.player.data}),
    "correct": Action("correct", CorrectForm, correct_payload, form_name="correct_form",
                      opened="fix"),
    "deck": Action("deck", DeckForm, deck_payload, form_name="deck_form", opened="fix"),
    "final": Action("final", lambda table: final_form(table.current.state), final_payload,
                    form_name="final_form"),
})
