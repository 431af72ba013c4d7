"""The construction-yard game's end in a few taps (issue 15: at most 8; the long form before
took 20 even when only the four deciding amounts were typed), in real Chromium at phone size
with touch, with JavaScript on and off.

The table is seeded straight into the live database through the real rules with the scripted
game of companion/rules/yard_example.py, whose scores are worked out by hand there: 51 of the 54
building cards bought, so the deck is empty and the display holds a museum, a church and a
skyscraper. The players tap, for each, who takes it (who holds the most money of the currency of
its space, or nobody on a tie), then score C: only what decides (issue 42: the space was asked
too, 8 taps).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from companion.rules import yard_example
from tests.browser.helpers import tap_and_load, touch
from tests.browser.states import seed
from tests.browser.taps import Taps

SHOTS = Path("/tmp/yard-shots")
PLAYERS = tuple(yard_example.PLAYERS)


def tap_chip(taps: Taps, target: Locator, what: str) -> None:
    """A chip (a radio drawn as a button) only marks itself chosen: one tap, nothing sent."""
    taps.touch(target, what)
    expect(target.locator("input")).to_be_checked()


def screenshot(page: Page, name: str) -> None:
    """Save a full-page screenshot to look at, and check the page does not scroll sideways. The
    page is left scrolled as it was (a full-page screenshot scrolls it to the top), so a task's
    scrolls are counted as the player would make them."""
    SHOTS.mkdir(exist_ok=True)
    scrolled = page.evaluate("scrollY")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.evaluate("y => window.scrollTo(0, y)", scrolled)
    wide, window = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide <= window, f"{name}: {wide}px wide in a {window}px window"


def leftover(page: Page, k: int) -> Locator:
    return page.locator("#end fieldset.leftover").nth(k)


def chip(row: Locator, words: str) -> Locator:
    return row.locator("label.chip", has_text=words)


def test_the_end_of_the_game_in_5_taps(phone: Page, live_database: Path) -> None:
    table_id = seed(live_database, "yard", PLAYERS, tuple(yard_example.GAME_OVER))
    phone.goto(f"/yard/{table_id}/")
    expect(phone.get_by_role("heading", name="At the end: the last cards and scoring C")
           ).to_be_visible()
    expect(phone.locator("#end legend")).to_have_text(["Museum", "Church", "Skyscraper"])
    expect(phone.locator("#end input:checked")).to_have_count(0)  # nothing guessed
    script = phone.evaluate("document.documentElement.dataset.answers !== undefined")
    screenshot(phone, f"end-form-{'js' if script else 'no-js'}")

    taps = Taps(phone)
    for k, holder in enumerate(["Ann", "tie or nobody", "Ben"]):
        tap_chip(taps, chip(leftover(phone, k), holder), holder)
    screenshot(phone, f"end-form-tapped-{'js' if script else 'no-js'}")
    taps.tap(phone.get_by_role("button", name="Give out the cards and score C"), "score C")
    taps.held_to(f"yard: end of game, 3 cards left ({'JavaScript' if script else 'no script'})",
                 5)
    assert taps.count <= 5, taps  # per card who takes it, a scroll at most, score C

    # The scores worked out by hand in yard_example: C Ann 80, Ben 75, Cy 39; the skyscraper on
    # yellow goes to Ben, who wins 99 to 97.
    heading = phone.get_by_role("heading", name="Final result")
    expect(heading).to_be_in_viewport()  # the deciding tap's answer comes into view, uncovered
    assert heading.evaluate("h => { const r = h.getBoundingClientRect();"
                            " return h.contains(document.elementFromPoint("
                            "r.left + r.width / 2, r.top + r.height / 2)); }")
    c = phone.locator("details.scoring", has=phone.locator("summary", has_text="Scoring C:"))
    expect(c.locator("summary")).to_have_text("Scoring C: Ann 80, Ben 75, Cy 39")
    expect(c.get_by_text("Museum: Ann")).to_be_visible()
    expect(c.get_by_text("Church: unsold (tie or no money)")).to_be_visible()
    expect(c.get_by_text("Skyscraper: Ben")).to_be_visible()
    ranking = [" ".join(t.split()) for t in phone.locator("ol.ranking li").all_inner_texts()]
    assert ranking == ["1. Ben 99 winner", "2. Ann 97", "3. Cy 59"], ranking
    screenshot(phone, f"final-result-{'js' if script else 'no-js'}")


# When the last answer was painted, and when each chip was tapped (page time, ms).
WATCH_TIMES = ("() => { window.tapTimes = []; new MutationObserver(() => requestAnimationFrame("
               "t => { window.shownAt = t; })).observe(document.documentElement,"
               " {attributeFilter: ['data-answers']}); document.addEventListener('click',"
               " e => { if (e.target.closest('label')) tapTimes.push(e.timeStamp); }, true); }")
REACT_MS = 300  # app.js: a tap at the same place this soon after an answer is the same tap


@pytest.mark.parametrize("building", ["skyscraper", "museum"])
def test_a_bounce_on_a_chip_the_last_purchase_put_under_the_thumb_chooses_nothing(
        page: Page, live_database: Path, building: str) -> None:
    """The last purchase's answer brings the end's form into view where the buy rows were, a
    "who takes it" chip where the thumb tapped (Cy's purchase 450 px down the screen). A second
    tap there sooner than anyone sees the answer (REACT_MS of its paint) is the same tap again:
    it chose that chip before. A tap later is meant, and chooses it."""
    before_last = tuple(yard_example.GAME_OVER[:-1])  # Cy buys the last skyscraper next
    page.goto(f"/yard/{seed(live_database, 'yard', PLAYERS, before_last)}/")
    row = page.locator(".buyer", has=page.locator("h3", has_text="Cy"))
    button = row.locator(f"button.building.b-{building}")
    button.evaluate("b => { const r = b.getBoundingClientRect();"
                    " scrollBy(0, r.top + r.height / 2 - 450); }")
    box = button.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate(WATCH_TIMES)
    tap_and_load(page, button)
    chip = page.evaluate_handle("([x, y]) => document.elementFromPoint(x, y).closest('label')",
                                [x, y]).as_element()
    assert chip is not None, "the answer put no chip under the thumb"
    touch(page, x, y)  # the bounce
    page.wait_for_timeout(REACT_MS)
    shown, tapped = page.evaluate("[window.shownAt, window.tapTimes]")
    assert len(tapped) == 1
    late = tapped[0] - shown  # the bounce's delay after the paint: tens of ms, more under load
    if late < REACT_MS - 50:
        expect(page.locator("#end input:checked")).to_have_count(0)
    elif late > REACT_MS + 50:
        expect(page.locator("#end input:checked")).to_have_count(1)
    page.wait_for_timeout(200)
    touch(page, x, y)  # a tap once the answer could be seen (over REACT_MS after it): meant
    expect(page.locator("#end input:checked")).to_have_count(1)
    assert chip.evaluate("c => c.querySelector('input').checked")


def test_a_chip_left_out_is_asked_for_and_the_others_are_kept(page: Page,
                                                               live_database: Path) -> None:
    table_id = seed(live_database, "yard", PLAYERS, tuple(yard_example.GAME_OVER))
    page.goto(f"/yard/{table_id}/")
    taps = Taps(page)
    tap_chip(taps, chip(leftover(page, 0), "Ann"), "Ann")
    page.get_by_role("button", name="Give out the cards and score C").tap()
    expect(page.get_by_role("alert")).to_contain_text(
        "Church, who takes it: tap who holds the most money of its space")
    expect(chip(leftover(page, 0), "Ann").locator("input")).to_be_checked()
    screenshot(page, "end-form-refused")


def test_a_chip_chosen_moves_no_chip(page: Page, live_database: Path) -> None:
    """A chosen chip's tick takes no room of its own: its neighbours stay where the thumb
    will go next (it widened the chip and moved them up to 12 px)."""
    table_id = seed(live_database, "yard", PLAYERS, tuple(yard_example.GAME_OVER))
    page.goto(f"/yard/{table_id}/")
    chips = page.locator(".chip")
    before = [chips.nth(k).bounding_box() for k in range(chips.count())]
    tap_chip(Taps(page), chip(leftover(page, 0), "Ann"), "Ann")
    after = [chips.nth(k).bounding_box() for k in range(chips.count())]
    assert after == before


def test_game_over_is_offered_only_once_the_display_cannot_be_refilled(
        page: Page, live_database: Path) -> None:
    table_id = seed(live_database, "yard", PLAYERS, tuple(yard_example.GAME_OVER[:-1]))
    page.goto(f"/yard/{table_id}/")
    expect(page.locator("#end")).to_have_count(0)
    expect(page.locator("section.next")).to_contain_text(
        "The building deck is empty, but the display still holds 4 cards: the game ends after "
        "the turn in which one of them is bought.")
    screenshot(page, "not-over-yet")
    buyer = page.locator(".buyer").filter(has=page.get_by_role("heading", name="Cy", exact=True))
    Taps(page).tap(buyer.get_by_role("button", name="Skyscraper 1"), "Cy buys the skyscraper")
    heading = page.get_by_role("heading", name="At the end: the last cards and scoring C")
    expect(heading).to_be_in_viewport()  # the end is this tap's news: it comes into view
    expect(page.locator("#end legend")).to_have_text(["Museum", "Church", "Skyscraper"])
    screenshot(page, "game-over-in-view")
    # Cy paid exactly and buys the museum too: his buttons stay where they were (the cards
    # gone from the display disabled in place), and the page does not jump to the end form.
    museum = buyer.get_by_role("button", name="Museum 4")
    museum.evaluate("e => e.scrollIntoView({block: 'center'})")
    places = ("row => [...row.querySelectorAll('button')]"
              ".map(b => Math.round(b.getBoundingClientRect().top))")
    before = buyer.evaluate(places)
    Taps(page).tap(museum, "Cy buys the museum")
    expect(buyer.get_by_role("button", name="Museum 5")).to_be_disabled()
    assert buyer.evaluate(places) == before and len(before) == 6
    expect(page.locator("#end legend")).to_have_text(["Church", "Skyscraper"])


def test_the_set_up_says_who_starts_at_the_top(page: Page, live_database: Path) -> None:
    table_id = seed(live_database, "yard", PLAYERS, ())
    page.goto(f"/yard/{table_id}/")
    setup = page.locator("details.setup")
    assert setup.evaluate("e => e.getBoundingClientRect().top") < page.locator(
        "section.buy").evaluate("e => e.getBoundingClientRect().top")  # before the purchases
    expect(setup).to_contain_text("The player with the fewest money cards starts")
    for i, (cards, total) in enumerate([(4, 22), (3, 21), (3, 24)]):
        page.get_by_label(f"{PLAYERS[i]}: cards", exact=True).fill(str(cards))
        page.get_by_label(f"{PLAYERS[i]}: total", exact=True).fill(str(total))
    Taps(page).tap(page.get_by_role("button", name="Who starts?"))
    # Ben and Cy hold the fewest cards (3); Ben the lower total (21): Ben starts.
    expect(page.locator("p.starts")).to_have_text("★ Ben starts.")
    box = page.locator("p.starts").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844, box  # on the first screen
    screenshot(page, "set-up-who-starts")


YARD4 = ("Ann", "Ben", "Cy", "Dan")
# Ann starts (the fewest money cards). A turn takes money or buys; a buyer who paid exactly goes
# on: Ann and Ben each buy twice in a row once; Cy takes money instead of buying once.
START4 = (("starting_money", {"cards": {"Ann": 3, "Ben": 4, "Cy": 4, "Dan": 5},
                              "totals": {"Ann": 22, "Ben": 21, "Cy": 24, "Dan": 26}}),)
PURCHASES = [("Ann", "park"), ("Ben", "church"), ("Cy", "station"), ("Dan", "theater"),
             ("Ann", "museum"), ("Ann", "skyscraper"), ("Ben", "park"), ("Cy", "church"),
             ("Dan", "station"), ("Ann", "theater"), ("Ben", "museum"), ("Ben", "skyscraper"),
             ("Dan", "park"), ("Ann", "church"), ("Ben", "station"), ("Cy", "theater")]


def test_16_purchases_of_4_players_take_16_taps_and_no_swipe(page: Page,
                                                             live_database: Path) -> None:
    """Issue 26: the buy area follows whose turn it is: the player whose turn comes next and
    the last buyer, who may go on after paying exactly, marked; every row on the first screen,
    so each purchase is one tap with no swipe (before: 16 taps and 7 swipes, the set-up open
    above and rows below the screen). The rows stay in seat order: the button tapped is where
    it was after the answer (issue 23: a second purchase where the first was is the same
    player's)."""
    table_id = seed(live_database, "yard", YARD4, START4)
    page.goto(f"/yard/{table_id}/")
    expect(page.locator("p.starts")).to_have_text("★ Ann starts.")
    screenshot(page, "buy-4-players-first")
    strip = page.locator(".score-strip").evaluate("e => e.offsetHeight")
    rows = page.locator(".buyer")
    bottom = rows.last.evaluate("e => e.getBoundingClientRect().bottom")
    assert bottom <= 844 - strip, f"the last row ends at {bottom}px, under the strip"
    taps = Taps(page)
    for k, (who, building) in enumerate(PURCHASES):
        row = page.locator(".buyer").filter(has=page.get_by_role("heading", name=who, exact=True))
        if k:  # the seat after the last buyer's is marked next (Cy takes money once)
            last = PURCHASES[k - 1][0]
            expect(page.locator(".buyer.next h3")).to_have_text(
                YARD4[(YARD4.index(last) + 1) % len(YARD4)])
        button = row.get_by_role("button", name=re.compile(rf"^{building.capitalize()} \d+$"))
        before = button.bounding_box()
        taps.tap(button, f"{who} buys a {building}")
        expect(page.locator(".error, .refusal")).to_have_count(0)
        assert button.bounding_box() == before, f"{who}'s {building} moved"
        if k == 4:
            screenshot(page, "buy-4-players-ann-goes-on")
    taps.held_to("yard: 16 purchases, 4 players", 16)
    assert "scroll" not in str(taps), taps
    expect(page.locator(".buyer h3")).to_have_text(["Ann", "Ben", "Cy", "Dan"])
    expect(page.locator(".buyer.next h3")).to_have_text("Dan")
    counts = phone_counts(page)
    assert counts == {"Ann": 5, "Ben": 5, "Cy": 3, "Dan": 3}, counts


def phone_counts(page: Page) -> dict[str, int]:
    """Each player's buildings, summed from the majority board's columns."""
    heads = page.locator("table.board").first.locator("thead th").all_inner_texts()[1:]
    rows = page.locator("table.board").first.locator("tbody tr:not(.lead)")
    totals = dict.fromkeys(heads, 0)
    for r in range(rows.count()):
        cells = rows.nth(r).locator("td").all_inner_texts()
        for name, cell in zip(heads, cells, strict=True):
            totals[name] += int(cell)
    return totals


def test_the_buy_rows_mark_the_turn_in_german(browser: Browser, base_url: str,
                                                live_database: Path) -> None:
    table_id = seed(live_database, "yard", YARD4, (*START4, ("buy", {
        "player": "Ann", "building": "park"})))
    context = browser.new_context(base_url=base_url, locale="de-DE", has_touch=True,
                                  is_mobile=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(f"/yard/{table_id}/")
        expect(page.locator(".buyer h3")).to_have_text(["Ann", "Ben", "Cy", "Dan"])
        expect(page.locator(".buyer .note")).to_have_text(
            ["noch einmal, wenn passend bezahlt", "ist dran"])
        screenshot(page, "buy-4-players-german")
        # The last row whole, with room for a note a line longer in the strip (found at a
        # table: the row's edge was under the strip, its buttons clear by under a pixel).
        last = page.locator(".buyer").last
        room = 844 - page.locator(".score-strip").evaluate("e => e.offsetHeight") - last.evaluate(
            "e => e.getBoundingClientRect().bottom")
        assert room >= 20, room
    finally:
        context.close()
