"""A past action's form, opened for a change (`#as-recorded`), shows it as it was recorded:
sent back as the page fills it in, the choice it was recorded with tapped (marked
`aria-current`), it enters the action as recorded and changes nothing. Every action of each
game's scripted table whose change opens a form, or marks its choice on the page (a purchase,
a hire, a commissioner's move, a business's plot); found wrong before: the yard's set-up read
blank, a 5th Avenue business's tile read the row's first, an Urbanisation territory's 2
grounds read 1, 2 buildings erected read 1, grain sold read 1 bought, the Farmer's seeds read
0, an effect's player read the first player, the character's box ticked where it was not
played; a 5th Avenue scoring or option A, a street card's site or discard, an Urbanisation
pass and a yard scoring were not marked at all."""

from __future__ import annotations

from typing import Any

import pytest
from werkzeug.datastructures import MultiDict

from companion.rules import urbanisation_actions as pieces
from tests.conftest import text
from tests.page_forms import Form, Submission, forms, submissions
from tests.tables import FINISHED, URBANISATION_PLAYED, seed

# What the app's forms always record that the scripted logs, written by hand, leave to the rules'
# defaults: entered through a form, these are in the payload.
ORDERS = {colour: 0 for colour in pieces.COLOURS}
FORM_DEFAULTS: dict[str, dict[str, Any]] = {
    "erect": {"count": 1}, "work_orders": {"last": False}, "sow": {"grain": 0},
    "attract": {"filled": True, "upgrade": None}, "invention": {"start": 0},
    "effect": {"vp": 0, "grain": 0, "orders": ORDERS}, "account": {"reason": "counted"},
}


def as_the_forms_record(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    payload = {**FORM_DEFAULTS.get(kind, {}), **payload}
    if kind == "invention":  # each card's ability and end bonus, its VP the rules' own
        payload["cards"] = [{"ability": card.get("ability"), "factory": card.get("factory")}
                            for card in payload["cards"]]
    if kind == "auction":  # asked: the winner, and a player's plot and build or stop
        asked = ("winner",) if payload["winner"] == "alea" else (
            "winner", "colour", "stop" if payload.get("stop") else "build")
        payload = {key: payload[key] for key in asked}
    if kind == "deck_empty":  # who took the last card: as the rules read a log without it
        payload.setdefault("by", payload["player"])
    return payload


YARD_NAMES, YARD_LOG = FINISHED["yard"]
GAMES = {
    "yard, its set-up and corrections": (YARD_NAMES, [
        ("starting_money", {"cards": {"Paul": 4, "Nina": 5, "Tobi": 6, "Kate": 5},
                            "totals": {"Paul": 21, "Nina": 22, "Tobi": 25, "Kate": 23}}),
        *YARD_LOG[:3], ("correct", {"owner": "Nina", "building": "museum", "count": 3,
                                    "reason": "miscount"}),
        ("deck", {"left": 40, "reason": "counted"}), *YARD_LOG[3:5]]),
    "yard": FINISHED["yard"],
    "fifth_avenue": FINISHED["fifth_avenue"],
    "street": FINISHED["street"],
    "urbanisation": FINISHED["urbanisation"],
    "urbanisation, the rulebook's example": (["Ann", "Ben", "Cy"], list(URBANISATION_PLAYED)),
}


def changed_fold_out(html: str) -> str:
    """The fold-out opened with the action being changed: from its summary (`#as-recorded`) to
    the end of its `<details>`."""
    start = html.index('id="as-recorded"')
    depth, at = 1, start
    while depth:
        opens, closes = html.find("<details", at), html.find("</details>", at)
        depth, at = (depth + 1, opens + 1) if -1 < opens < closes else (depth - 1, closes + 1)
    return html[start:at]


def as_shown(part: str) -> Submission | None:
    """The tap that sends the action as this part of the page shows it: its marked choice, else
    the one button of its first form that has one (None: no form)."""
    tapped: list[tuple[Form, Submission, dict[str, Any]]] = []
    for form in forms(part):
        buttons = [b for b in form.buttons if "disabled" not in b]
        for sent, button in zip(submissions(form, lambda name, options: options[0]), buttons,
                                strict=True):
            tapped.append((form, sent, button))
    marked = [sent for _form, sent, button in tapped if button.get("aria-current") == "true"]
    if marked:
        assert len(marked) == 1, "one choice is marked as recorded"
        return marked[0]
    ones = [sent for form, sent, _button in tapped if len(form.buttons) == 1]
    return ones[0] if ones else None


def marked(page: str) -> Submission | None:
    """The action being changed as the page shows it where no fold-out opens for it (a
    purchase, a hire): the button marked as recorded, if any."""
    return next((sent for form in forms(page) for sent, button in zip(
        submissions(form, lambda name, options: options[0]),
        [b for b in form.buttons if "disabled" not in b], strict=True)
        if button.get("aria-current") == "true"), None)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_form_opened_for_a_change_enters_the_action_as_recorded(app, client, game):
    names, log = GAMES[game]
    slug = game.split(",")[0]
    actions = [(kind, as_the_forms_record(kind, dict(payload))) for kind, payload in log]
    url = f"/{slug}/{seed(app, slug, names, actions)}/"
    client.get(url)
    checked = []
    for seq in range(1, len(actions) + 1):
        page = text(client.get(f"{url}?change={seq}"))
        if '<summary><span id="as-recorded">' in page:
            sent = as_shown(changed_fold_out(page))
            assert sent is not None, f"#{seq}: no choice is marked as recorded"
        else:
            sent = marked(page)
            if sent is None:
                continue
        answer = text(client.post(sent.action, data=MultiDict(sent.data)))
        assert "is entered as it was recorded" in answer, (seq, sent.words, answer[-3000:])
        checked.append(seq)
    assert checked, f"{game}: no change opens a form"



# Set-ups, whose forms open the page, and undo and redo, which are not changed.
AT_THE_TOP = {"profile", "setup", "first_placer", "undo", "redo"}


@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_every_change_link_leads_to_the_form_of_its_action(app, client, slug):
    """A Change link goes to `#as-recorded`: the part of the page where the action is entered
    again, once on the page. Found playing: a 5th Avenue auction, Alea's bid, a street card, an
    Urbanisation hire or pass, a yard scoring and each game's end opened at the page top, their
    forms a screen or two below."""
    names, log = FINISHED[slug]
    actions = [(kind, as_the_forms_record(kind, dict(payload))) for kind, payload in log]
    url = f"/{slug}/{seed(app, slug, names, actions)}/"
    missing = {}
    for seq, (kind, _payload) in enumerate(actions, start=1):
        count = text(client.get(f"{url}?change={seq}")).count('id="as-recorded"')
        if count != (kind not in AT_THE_TOP):
            missing[seq] = (kind, count)
    assert not missing, missing
