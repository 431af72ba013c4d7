"""An action's answer is put in place by changing only what differs (app.js `morph`, issue 28):
what the phone then shows is exactly the answer's page, its fields as a page freshly loaded has
them, and what did not change is the very element it was (so the phone lays out and paints
only what changed). The page's own fields (the table's seq, the one-time key, the CSRF token)
are taken out of its action forms and put into what each tap sends (issue 46): each tap sends
the page's seq, a key of its own and the token.

Real Chromium at 390x844 with touch: each game's typical action and its undo on a mid-game
table. The test keeps the answer's HTML as it arrives (a wrapper round `fetch`), and compares.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page

from companion.views.forms import ACTION_KEY
from tests.browser.helpers import tap_and_load
from tests.browser.states import (
    FIFTH,
    FIFTH_PLAYING,
    STREET,
    STREET_MID,
    URBAN,
    URBAN_ACTIONS,
    YARD,
    YARD_MID,
    seed,
)

CASES = [
    ("yard", YARD, YARD_MID, "form[action*='/buy#'] button"),
    ("fifth_avenue", FIFTH, FIFTH_PLAYING, "form[action*='/skyscrapers#'] button"),
    ("street", STREET, STREET_MID, "form[action*='/upcoins#'] button"),
    ("urbanisation", URBAN, URBAN_ACTIONS, "form[action*='/pass#'] button"),
]
UNDO = "nav.undo-redo form[action*='/undo#'] button"

KEEP_ANSWERS = """() => {
  const fetched = window.fetch;
  window.__answers = [];
  window.__sent = [];
  window.fetch = (...args) => fetched(...args).then(response => {
    if (args[1] && args[1].body) window.__sent.push(Object.fromEntries(args[1].body));
    response.clone().text().then(text => window.__answers.push(text));
    return response;
  });
}"""

# The page's <main> beside the answer's: their HTML (a fold-out the tapped control is in is
# opened by app.js: `open` is left out of both; the page's own fields are out of the page's
# action forms) and every field's value and choice.
COMPARED = """() => {
  const answer = new DOMParser().parseFromString(window.__answers.at(-1), 'text/html');
  answer.querySelectorAll('form[data-action] input[type=hidden]').forEach(e => {
    if (['seq', 'key', 'csrf_token'].includes(e.name)) e.removeAttribute('value'); });
  const html = main => main.outerHTML.replaceAll(' open=""', '');
  const state = main => Array.from(main.querySelectorAll('input, select, textarea, option'))
    .map(e => [e.name || e.textContent, e.value, e.checked === true, e.selected === true]);
  const shown = document.querySelector('main'), sent = answer.querySelector('main');
  return {shown: html(shown), sent: html(sent), shownState: state(shown),
          sentState: state(sent)};
}"""


def typed_into_a_field(page: Page) -> bool:
    """Something typed into the first text or number field (of another form): the answer's
    page, as one loaded anew, no longer has it."""
    return bool(page.evaluate("""() => {
      const field = document.querySelector('main input[type=number], main input[type=text]');
      if (!field) return false;
      field.value = field.type === 'number' ? '7' : 'typed';
      return true;
    }"""))


@pytest.mark.parametrize(("slug", "players", "actions", "control"), CASES,
                         ids=[case[0] for case in CASES])
def test_the_answer_shown_is_the_answer_s_page_and_what_did_not_change_stays(
        page: Page, live_database: Path, base_url: str, slug: str, players: tuple[str, ...],
        actions: tuple, control: str) -> None:
    page.goto(f"{base_url}/{slug}/{seed(live_database, slug, players, actions)}/")
    page.evaluate(KEEP_ANSWERS)
    seq, keys = page.evaluate("Number(document.body.dataset.seq)"), set()
    for tapped in (control, UNDO):
        typed_into_a_field(page)
        page.evaluate("document.querySelector('header, nav, h1').__untouched = true")
        page.evaluate("document.querySelector('main h1, main h2').__untouched = true")
        tap_and_load(page, page.locator(tapped).first)
        page.wait_for_function("window.__answers.length > 0")
        compared = page.evaluate(COMPARED)
        assert compared["shown"] == compared["sent"], tapped
        assert compared["shownState"] == compared["sentState"], tapped
        # the page's heading did not change, so it is the element it was
        assert page.evaluate("document.querySelector('main h1, main h2').__untouched === true")
        # what the tap sent: the seq the page showed, a key of its own, the token
        sent = page.evaluate("window.__sent.at(-1)")
        assert sent["seq"] == str(seq) and re.fullmatch(ACTION_KEY, sent["key"]), sent
        assert sent["key"] not in keys and sent["csrf_token"], sent
        keys.add(sent["key"])
        seq = page.evaluate("Number(document.body.dataset.seq)")
        page.evaluate("window.__answers = []")


# A node new or gone before unchanged siblings (a street turn's builder gains its sources'
# chips before the known cards): the siblings after it are the very elements they were.
IN_AND_OUT = """([before, after]) => {
  const main = html => new DOMParser().parseFromString(`<main>${html}</main>`, 'text/html')
    .querySelector('main');
  const shown = document.querySelector('main');
  window.companion.putInPlace(shown, main(before));
  const kept = Array.from(shown.querySelectorAll('[data-kept]'));
  kept.forEach(e => { e.__untouched = true; });
  window.companion.putInPlace(shown, main(after));
  return {html: shown.innerHTML, sent: main(after).innerHTML,
          kept: kept.map(e => e.__untouched === true && shown.contains(e))};
}"""
HEAD = '<div class="head" data-kept>Built before</div>'
CARDS = '<div class="cards" data-kept><div class="card">roof <b>+2</b></div></div>'
CHIPS = ('<fieldset class="sources"><label><input type="radio" name="s" value="hand"> hand'
         '</label></fieldset>')


@pytest.mark.parametrize(("before", "after"), [
    (f"<h2>Turn</h2>\n{HEAD}\n{CARDS}\n", f"<h2>Turn</h2>\n{CHIPS}\n{HEAD}\n{CARDS}\n"),
    (f"<h2>Turn</h2>\n{CHIPS}\n{HEAD}\n{CARDS}\n", f"<h2>Turn</h2>\n{HEAD}\n{CARDS}\n"),
    (f"<h2>Turn</h2>{HEAD}{CARDS}", f"<h2>Turn</h2><p>Ann's turn</p>{CHIPS}{HEAD}{CARDS}"),
    (f"<p>Ann's turn</p>{CHIPS}{HEAD}{CARDS}<p>end</p>", f"{HEAD}{CARDS}<p>end</p>"),
], ids=["put in", "taken out", "two put in", "two taken out"])
def test_what_follows_an_element_put_in_or_taken_out_is_kept(
        page: Page, live_database: Path, base_url: str, before: str, after: str) -> None:
    page.goto(f"{base_url}/street/{seed(live_database, 'street', STREET, STREET_MID)}/")
    shown = page.evaluate(IN_AND_OUT, [before, after])
    assert shown["html"] == shown["sent"]
    assert shown["kept"] == [True, True]


def test_a_plot_that_stops_taking_taps_keeps_its_words_as_they_were(
        page: Page, live_database: Path, base_url: str) -> None:
    """5th Avenue's plots start or stop taking taps with most answers (28 of 35 after a move and
    its undo). A plot that takes no tap is told by its dotted border alone: its words keep their
    weight and size, so such an answer lays out no plot's text again (issue 46: a slow phone's
    style and layout of that answer went from 12 to 7-8 ms at 4x)."""
    table = seed(live_database, "fifth_avenue", FIFTH, FIFTH_PLAYING)
    page.goto(f"{base_url}/fifth_avenue/{table}/")
    drawn = page.evaluate("""() => {
      const plot = document.querySelector('.districts button.plot.tap:not(.owned)');
      const look = () => Array.from(plot.querySelectorAll('span'), span => {
        const style = getComputedStyle(span);
        return [style.fontWeight, style.fontSize, style.lineHeight];
      }).concat([getComputedStyle(plot).borderStyle]);
      const open = look();
      plot.disabled = true;
      plot.classList.remove('tap');
      const shut = look();
      return {open, shut};
    }""")
    assert drawn["open"][:-1] == drawn["shut"][:-1]
    assert drawn["open"][-1] != drawn["shut"][-1]  # the border tells them apart


def test_undo_keeps_a_new_card_opened_and_what_was_chosen_and_typed_in_it(
        page: Page, live_database: Path) -> None:
    """Found at a table: Mia's 2nd action half filled in (a cost typed, a new card opened by
    its project, its prestige typed), then Undo tapped in the strip to take back Ola's deck
    said empty: the answer drew the builder without the new card's part, and all of it was
    gone. Undo (and Redo) keep what the players opened."""
    office = {"project": "office", "double": False, "roof": False, "gift": False,
              "floor": None, "no_gifts": False, "income": [], "prestige": []}
    table = seed(live_database, "street", STREET, (
        ("card", {"player": "Mia", "street": "Mia", "site": 1, "card": office}),
        ("deck_empty", {"player": "Ola", "by": "Mia"})))
    page.goto(f"/street/{table}/")
    page.locator("form.builder input[name=cost]").fill("3")
    pages = page.evaluate("history.length")
    tap_and_load(page, page.locator("#project-office"))
    assert page.evaluate("history.length") == pages + 1  # Back closes the new card again
    cost = page.locator("form.builder input[name=cost]")
    assert cost.input_value() == "3" and page.locator("input[name=describe]").count() == 1
    page.locator("input[name=prestige_amount_0]").fill("2")
    tap_and_load(page, page.locator(".score-strip form[action*='/undo#'] button"))
    assert page.locator("input[name=describe]").count() == 1  # the new card still open
    assert page.locator("form.builder input[name=cost]").input_value() == "3"
    assert page.locator("input[name=prestige_amount_0]").input_value() == "2"
    assert "open=new-card" in page.url  # a reload shows it as it is
    tap_and_load(page, page.locator(".score-strip form[action*='/redo#'] button"))
    assert page.locator("input[name=describe]").count() == 1
    assert page.locator("form.builder input[name=cost]").input_value() == "3"
    assert page.evaluate("history.length") == pages + 1  # Undo and Redo added no page


def test_undo_and_redo_keep_a_new_card_s_icons_where_the_builder_is_another_action_s(
        page: Page, live_database: Path) -> None:
    """Found at a table: Mia's 2nd action's new card half described (its floor, an icon and its
    amount), then Undo of her 1st action, whose builder came in place of the 2nd's (another
    step): the card stayed open, its floor, icon and amount were gone, and a tap on a site would
    have built a plain card. Undo and Redo give them to the builder on the page."""
    office = {"project": "office", "double": False, "roof": False, "gift": False,
              "floor": None, "no_gifts": False, "income": [], "prestige": []}
    table = seed(live_database, "street", STREET, (
        ("card", {"player": "Mia", "street": "Mia", "site": 1, "card": office}),))
    page.goto(f"/street/{table}/")
    step = page.locator("form.builder input[name=step]").get_attribute("value")
    tap_and_load(page, page.locator("#project-office"))
    page.locator("form.builder input[name=floor][value=upper]").check()
    page.locator("form.builder input[name=prestige_each_0][value=flat]").check()
    page.locator("input[name=prestige_amount_0]").fill("2")

    def described() -> tuple[bool, bool, str]:
        return (page.locator("form.builder input[name=floor][value=upper]").is_checked(),
                page.locator("form.builder input[name=prestige_each_0][value=flat]").is_checked(),
                page.locator("input[name=prestige_amount_0]").input_value())

    tap_and_load(page, page.locator(".score-strip form[action*='/undo#'] button"))
    assert page.locator("form.builder input[name=step]").get_attribute("value") != step
    assert page.locator("input[name=describe]").count() == 1  # the new card still open
    assert described() == (True, True, "2")
    tap_and_load(page, page.locator(".score-strip form[action*='/redo#'] button"))
    assert page.locator("form.builder input[name=step]").get_attribute("value") == step
    assert described() == (True, True, "2")


def test_undo_to_a_turn_without_a_builder_and_redo_keep_a_new_card_s_icons(
        page: Page, live_database: Path) -> None:
    """Found at a table: Pit's 2nd action's new card half described, then Undo of his upcoins,
    whose page has no builder (only "Take $2 from the deck"), then Redo: the card came back
    open with its project, its floor, icon and amount gone. What found no form on the Undo's
    page is kept for the Redo's."""
    table = seed(live_database, "street", STREET, (*STREET_MID, ("upcoins", {"player": "Pit"})))
    page.goto(f"/street/{table}/")
    tap_and_load(page, page.locator("#project-office"))
    page.locator("form.builder input[name=floor][value=upper]").check()
    page.locator("form.builder input[name=prestige_each_0][value=flat]").check()
    page.locator("input[name=prestige_amount_0]").fill("2")
    tap_and_load(page, page.locator(".score-strip form[action*='/undo#'] button"))
    assert page.locator("form.builder").count() == 0
    tap_and_load(page, page.locator(".score-strip form[action*='/redo#'] button"))
    assert page.locator("input[name=describe]").count() == 1
    assert page.locator("form.builder input[name=floor][value=upper]").is_checked()
    assert page.locator("form.builder input[name=prestige_each_0][value=flat]").is_checked()
    assert page.locator("input[name=prestige_amount_0]").input_value() == "2"


def test_undo_to_another_player_s_action_keeps_a_half_described_card_for_its_player(
        page: Page, live_database: Path) -> None:
    """Found at a table: Ola's new card half described, then Undo of Mia's last action: Mia's
    builder came with Ola's card in it, its source chosen, one tap on a site from recording it
    as Mia's. Another player's builder is not given it; Redo gives it back to Ola's."""
    office = {"project": "office", "double": False, "roof": False, "gift": False,
              "floor": None, "no_gifts": False, "income": [], "prestige": []}
    table = seed(live_database, "street", STREET, (
        ("card", {"player": "Mia", "street": "Mia", "site": 1, "card": office}),
        ("card", {"player": "Mia", "street": "Mia", "site": 2, "card": office,
                  "bought_from": "public", "cost": 0})))
    page.goto(f"/street/{table}/")
    assert page.locator("form.builder input[name=player]").get_attribute("value") == "Ola"
    tap_and_load(page, page.locator("#project-office"))
    page.wait_for_timeout(1_100)  # the chips came where the tap was: held as it for a second
    page.locator("form.builder input[name=floor][value=upper]").check()
    page.locator("input[name=prestige_amount_0]").fill("2")
    tap_and_load(page, page.locator(".score-strip form[action*='/undo#'] button"))
    assert page.locator("form.builder input[name=player]").get_attribute("value") == "Mia"
    assert not page.locator("form.builder input[name=floor][value=upper]").is_checked()
    assert page.locator("input[name=prestige_amount_0]").input_value() == ""
    tap_and_load(page, page.locator(".score-strip form[action*='/redo#'] button"))
    assert page.locator("form.builder input[name=player]").get_attribute("value") == "Ola"
    assert page.locator("form.builder input[name=floor][value=upper]").is_checked()
    assert page.locator("input[name=prestige_amount_0]").input_value() == "2"
