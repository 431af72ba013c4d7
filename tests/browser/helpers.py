"""What every browser test does: tap and wait for the next page, read a linked PDF, squash text."""

from __future__ import annotations

import io
import re
import time
from datetime import datetime
from urllib.parse import unquote

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from pypdf import PdfReader

from companion.views.forms import key_made

# How a person taps, which the app holds the tests to as well: the same place again only once
# the answer could have been seen (app.js: a tap there sooner is the same tap again, for as long
# as <html data-bounce-ms> says: longer after an answer that moved the page and put another
# action under the thumb, MOVED_MS), and without JavaScript not before the answer's page could
# have been seen (sooner, a form of the page an action loaded is the second tap of a double
# tap: ignored).
NEAR_PX, SPARE_SECONDS, MOVED_MS = 32, 0.05, "1000"
READ_SECONDS = 1.05
_last_taps: dict[int, tuple[float, float, float]] = {}


def tap_and_load(page: Page, target: Locator) -> None:
    """Tap a control and wait for its answer: an action form's answer, or a fold-out opened
    ([data-open]), shown in place by app.js (it counts its answers on <html data-answers>),
    otherwise the page a link or form leads to."""
    kind = target.evaluate(
        "e => { const acts = !!(e.form && e.form.hasAttribute('data-action'));"
        " const script = document.documentElement.dataset.answers !== undefined;"
        " return script && (acts || e.matches('[data-open]')) ? 'in place'"
        " : acts ? 'plain' : 'other'; }")
    if kind == "plain":
        wait_until_read(target)
    if kind != "in place":
        wait_until_quiet(page, target)  # a link where the last answer put it: a person's tap
        with page.expect_navigation():
            target.tap()
        return
    x, y = wait_until_quiet(page, target)
    before = page.evaluate("document.documentElement.dataset.answers")
    tapped = target.evaluate(ACTION_OF)
    was = page.evaluate(WHERE)
    target.tap()
    page.wait_for_function("b => document.documentElement.dataset.answers !== b", arg=before)
    assert_nothing_moved_under_the_thumb(page, x, y, tapped, was)
    guard = int(page.evaluate("document.documentElement.dataset.bounceMs")) / 1000
    _last_taps[id(page)] = (x, y, time.monotonic() + guard + SPARE_SECONDS)  # painted


# What a button does: its form's address and fixed fields, its own name and value (app.js's
# `signature`), so that an answer's counterpart of a tapped button is told from another action's.
ACTION_OF = ("b => { const f = b.form; if (!f || !f.hasAttribute('data-action')) return null;"
             " const fixed = Array.from(f.querySelectorAll('input[type=hidden]'))"
             "   .filter(i => !['csrf_token', 'seq', 'key', 'at'].includes(i.name))"
             "   .map(i => i.name + '=' + i.value).sort().join('&');"
             " return [f.getAttribute('action'), fixed, b.name, b.value, b.textContent.trim()]; }")
# Where the page stands: its scroll, and whether it is a page of its own (a change's preview).
WHERE = "() => [scrollY, !!document.querySelector('main [data-into-view=\"\"]')]"
# The button of an action under a point of the screen, but the score strip's, which stays put.
UNDER = ("([x, y]) => { const hit = document.elementFromPoint(x, y);"
         " const b = hit && hit.closest('main form[data-action] button:enabled');"
         " return b && !b.closest('.score-strip') ? b : null; }")


def assert_nothing_moved_under_the_thumb(page: Page, x: float, y: float,
                                         tapped: list[str] | None, was: list) -> None:
    """An answer that moved the page, or put another page in its place (a change confirmed),
    put no other action's button (after a link tapped: none) where the thumb tapped, or, where
    it could not help it, holds a tap there as that same tap again for longer (app.js
    `settle`): a second tap 0.6 s later acted on what came under it (a purchase, a scoring, a
    street's site; after a bid chip, "Built none")."""
    if page.evaluate(WHERE) == was:
        return
    under = page.evaluate_handle(UNDER, [x, y]).as_element()
    action = under.evaluate(ACTION_OF) if under else None
    if action and (not tapped or action[:4] != tapped[:4]):  # a link's answer: any action
        assert page.evaluate("document.documentElement.dataset.bounceMs") == MOVED_MS, (
            f"after {tapped[4] if tapped else 'a link'!r} the page moved {action[4]!r} under "
            "the thumb")


def touch(page: Page, x: float, y: float, limit_ms: float = 3000) -> None:
    """One tap at a point of the screen, as `page.touchscreen.tap` makes it, but with a time
    limit: Playwright waits for Chromium to acknowledge the touch without one, and a touch that
    lands while the page is being replaced by the next one is sometimes never acknowledged (the
    browser dropped it, as a phone would). Same protocol call, its `timeout` set."""
    try:
        page._sync(page._impl_obj._channel.touchscreenTap(x=x, y=y, timeout=limit_ms))
    except PlaywrightTimeout:
        pass


def wait_until_quiet(page: Page, target: Locator) -> tuple[float, float]:
    """The target's centre on screen, once a tap there is no longer the last tap again."""
    # Wholly on screen and above the score strip (unless it is in the strip), so that the tap
    # itself need not scroll: it lands where the box says.
    target.evaluate("e => { const r = e.getBoundingClientRect();"
                    " const strip = document.querySelector('.score-strip');"
                    " const foot = strip && !strip.contains(e) ? innerHeight - strip.offsetHeight"
                    "   : innerHeight;"
                    " if (r.top < 0 || r.bottom > foot) e.scrollIntoView({block: 'center'}); }")
    box = target.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    last = _last_taps.get(id(page))
    near = NEAR_PX + 1  # a click's point is in whole pixels: a centre 32.3 px away lands 32 away
    if last and abs(last[0] - x) <= near and abs(last[1] - y) <= near:
        time.sleep(max(0.0, last[2] - time.monotonic()))
    return x, y


def wait_until_read(target: Locator) -> None:
    """Without JavaScript: wait until the form's page is old enough to have been seen (its
    one-time key says when it was made), and, on an action's answer, until its buttons take
    taps (app.css: `main.answered`, 1 s after it showed)."""
    made = key_made(target.evaluate("e => e.form.elements.key.value"))
    time.sleep(max(0.0, made + READ_SECONDS - time.time()))
    while target.evaluate("e => e.getAnimations().some(a => a.playState === 'running')"):
        time.sleep(0.02)


def linked_pdf_text(page: Page, link_name: str) -> str:
    """Fetch the PDF the named link points to (a real WeasyPrint PDF) and return its text."""
    link = page.get_by_role("link", name=link_name)
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href and "/sheet.pdf" in href, href
    response = page.request.get(href)
    assert response.ok, response.status
    assert response.headers["content-type"].startswith("application/pdf")
    body = response.body()
    assert body.startswith(b"%PDF")
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages)


def squash(text: str) -> str:
    return " ".join(text.split())


# Starting a table ------------------------------------------------------------------------------

GAME_RADIOS = {"yard": "Construction yard card game", "street": "Street card game",
               "fifth_avenue": "5th Avenue (2-4 players"}


def start_table(page: Page, players: list[str], game: str = "yard") -> str:
    """Fill the home page's "New table" form for `game` (a new browser has none chosen, one
    that started a table has that table's game) and start; returns the table page's URL."""
    page.goto("/")
    expect(page.get_by_role("heading", name="New table")).to_be_visible()
    page.get_by_role("radio", name=GAME_RADIOS[game]).check()
    for seat, name in enumerate(players, start=1):
        page.get_by_placeholder(f"Player {seat}", exact=True).fill(name)
    tap_and_load(page, page.get_by_role("button", name="Start the game"))
    expect(page).to_have_url(re.compile(rf"/{game}/[^/]+/$"))
    expect(page.locator(".error, .refusal")).to_have_count(0)
    return page.url


# The street's table page -----------------------------------------------------------------------

def street_of(page: Page, player: str) -> Locator:
    """A player's section on the table page: heading, five sites and the player's actions."""
    heading = page.locator("h2", has_text=re.compile(rf"^\s*{player}\s"))
    return page.locator("section.street-card").filter(has=heading)


def money(page: Page, player: str) -> Locator:
    """The '$16 · upcoins on deck 0 · ★ 10' line under a player's name."""
    return street_of(page, player).locator("h2 small")


def site(page: Page, player: str, number: int) -> Locator:
    return page.locator(f'.site[aria-label="{player}, site {number}"]')


# Times ---------------------------------------------------------------------------------------

ZONE = "Pacific/Chatham"  # +12:45 or +13:45: no chance of matching UTC by accident


def written_time(stamp: Locator) -> datetime:
    """What a <time> element's datetime attribute holds: the UTC time the page was written
    with, whatever app.js shows of it."""
    return datetime.fromisoformat(stamp.get_attribute("datetime") or "")


# The yard's table page -------------------------------------------------------------------------

def buyer(page: Page, player: str) -> Locator:
    """The "Who bought what?" group of one player."""
    heading = page.get_by_role("heading", name=player, exact=True)
    return page.locator(".buyer").filter(has=heading)


def building_button(page: Page, player: str, building: str) -> Locator:
    """The player's own purchase button, e.g. "Museum 2" (not the smaller "for Dirk" ones)."""
    label = re.compile(rf"^{building.capitalize()} \d+$")
    return buyer(page, player).get_by_role("button", name=label)


def count_on(page: Page, player: str, building: str) -> int:
    text = building_button(page, player, building).inner_text()
    return int(text.split()[-1])


def buy(page: Page, player: str, building: str, times: int = 1) -> None:
    """Tap the player's building button and check the count on the new page went up by one."""
    for _ in range(times):
        before = count_on(page, player, building)
        tap_and_load(page, building_button(page, player, building))
        expect(page.locator(".error, .refusal")).to_have_count(0)
        expect(building_button(page, player, building)).to_have_text(
            f"{building.capitalize()} {before + 1}"
        )


def give_out(page: Page, leftovers: list[tuple[str, str]]) -> None:
    """Fill the end form: for each card left on display, in order, its space (which only names
    the row) and the chip of who gets it (a player, or the words for a tie)."""
    for k, (_space, holder) in enumerate(leftovers):
        row = page.locator("#end fieldset.leftover").nth(k)
        tap_once_quiet(page, row.locator("label.chip", has_text=holder))


def tap_once_quiet(page: Page, target: Locator) -> None:
    """A tap on what only changes the form (a chip, a check box), as a person taps it: not where
    the last action was tapped before its answer could have been seen (app.js holds that)."""
    wait_until_quiet(page, target)
    target.tap()


# A page's own links --------------------------------------------------------------------------

# Files, the language switch and the seq poll: not pages to look at.
SKIPPED = re.compile(r"\.(pdf|json|csv|webmanifest|js|css|svg|png)(\?|$)|/language/|/seq$")


def links(page: Page, under: str) -> list[str]:
    """The page's links to pages under `under` (no files, no language switch), as paths."""
    hrefs: list[str] = page.evaluate(
        "Array.from(document.querySelectorAll('a[href]'), a => a.href)")
    paths = {unquote(re.sub(r"^https?://[^/]+", "", h)).split("#")[0] for h in hrefs}
    return sorted(p for p in paths if p.startswith(under) and not SKIPPED.search(p))
