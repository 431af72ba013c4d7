"""Every control a thumb taps is at least 44 x 44 CSS px (issue 42; WCAG 2.5.5's size), in
Chromium at 390x844 with touch: each game's table page mid-game and finished, with each of its
fold-outs open, its history, share and scoreboard pages, and the site's own pages, in English
and German (longer words wrap, which must not shrink a target).

What is measured is what takes the tap: a button, a link shown as a control, a fold-out's
summary, a field, and the label of a radio or checkbox (its box is the chip a player taps). A
link inside a sentence is exempt, as in WCAG (the sentence sets its height). So are two controls
the issue's "44 px where the layout keeps every row in view" leaves as they are, each a scroll
the tap tests would count at 44 px: the street builder's chips (38 px; a new card's site buttons
no longer fit above the score strip at the 2nd action, tests/browser/test_street_taps.py) and
Urbanisation's "The last space of its card" beside the work orders (32 px; "Sow 2" goes under the
strip in the typical turn, tests/browser/test_urbanisation_taps.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from benchmarks.games import GAME_SCRIPTS, MID_GAME, PLAYERS
from tests.browser.helpers import links
from tests.browser.states import seed

SIZE = 44  # CSS px
EXEMPT = ".builder .chip, .u-offer-work_orders .u-last"
SMALL = """([size, exempt]) => {
  const shown = e => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const words = n => n.nodeType === 3 && n.textContent.trim();
  const inSentence = a => getComputedStyle(a).display === 'inline' &&
    Array.from(a.parentElement.childNodes).some(n => n !== a && words(n));
  const targets = new Set();
  for (const e of document.querySelectorAll('a[href], button, summary, select, textarea, input')) {
    if (e.type === 'hidden' || e.closest('[hidden], .sr-only, noscript') || e.closest(exempt)) {
      continue;
    }
    if (e.matches('input[type=radio], input[type=checkbox]')) {
      const label = e.closest('label') || (e.id && document.querySelector(`label[for="${e.id}"]`));
      if (label) { targets.add(label); continue; }
    }
    if (e.matches('a') && inSentence(e)) continue;
    targets.add(e);
  }
  const said = e => (e.textContent || e.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
  const classes = e => e.className ? '.' + String(e.className).trim().replace(/\\s+/g, '.') : '';
  return Array.from(targets).filter(shown).map(e => [e, e.getBoundingClientRect()])
    .filter(([e, r]) => r.height < size - 0.5 || r.width < size - 0.5)
    .map(([e, r]) => `${e.tagName.toLowerCase()}${classes(e)} "${said(e)}" ` +
                     `${Math.round(r.width)}x${Math.round(r.height)}`);
}"""


@pytest.fixture(params=["en", "de"])
def phone(request: pytest.FixtureRequest, browser: Browser,
          browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context = browser.new_context(**browser_context_args,
                                  extra_http_headers={"Accept-Language": request.param})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def small_targets(page: Page) -> list[str]:
    found: list[str] = page.evaluate(SMALL, [SIZE, EXEMPT])
    return found


def measured(page: Page, paths: list[str]) -> dict[str, list[str]]:
    found = {}
    for path in paths:
        page.goto(path)
        found[path] = small_targets(page)
    return found


def assert_none(found: dict[str, list[str]]) -> None:
    """Nothing small anywhere; else each small target once, with the pages it is on."""
    pages: dict[str, list[str]] = {}
    for path, seen in found.items():
        for target in seen:
            pages.setdefault(target, []).append(path)
    assert not pages, "\n".join(f"{t}\n    on {', '.join(p[:3])}" for t, p in pages.items())


@pytest.mark.parametrize("finished", [False, True], ids=["mid-game", "end"])
@pytest.mark.parametrize("slug", sorted(GAME_SCRIPTS))
def test_every_target_of_a_game_is_44_px(phone: Page, live_database: Path, slug: str,
                                         finished: bool) -> None:
    actions = GAME_SCRIPTS[slug]()
    actions = actions if finished else actions[:MID_GAME[slug]]
    table = f"/{slug}/{seed(live_database, slug, tuple(PLAYERS[slug]), tuple(actions))}/"
    phone.goto(table)
    found = {table: small_targets(phone)}
    opens = [p for p in links(phone, table) if p != table and "change=" not in p]
    opens += [f"{table}?open={name}" for name in sorted(set(re.findall(
        r'href="\?open=([a-z0-9_-]+)', phone.content())))]
    found |= measured(phone, opens)
    phone.goto(table + "share")
    found |= measured(phone, [p for p in links(phone, "/board/")][:1])
    assert_none(found)


def test_the_answer_to_a_scoring_is_44_px(phone: Page, live_database: Path) -> None:
    """The yard just after scoring A: its points and the link to how it was scored."""
    actions = GAME_SCRIPTS["yard"]()
    first = next(k for k, (kind, _payload) in enumerate(actions) if kind == "score")
    scored = tuple(actions[:first + 1])
    table = f"/yard/{seed(live_database, 'yard', tuple(PLAYERS['yard']), scored)}/"
    phone.goto(table)
    assert phone.locator(".just-scored").count() == 1
    assert_none({table: small_targets(phone)})


def test_every_target_of_the_site_pages_is_44_px(phone: Page, live_database: Path) -> None:
    table = f"/yard/{seed(live_database, 'yard', ('Ann', 'Ben', 'Cy'), ())}/"
    phone.goto(table)
    assert_none(measured(phone, ["/", "/players", "/players/Ann", "/import",
                                 "/yard/no-such-table/"]))
