"""axe-core finds nothing on any page, in the light and the dark colour scheme, at 390x844 with
touch (issue 23): the home page, each game's table page mid-game and finished with each of its
fold-outs open, its history, share and scoreboard pages, a change being entered and its preview,
the game's own pages (5th Avenue's board profile, a street player's building page), the players'
pages, the import page and the error page; in English and German (the dark scheme, which changes
only colours, in English and for the colour rules).

axe-core is vendored in tests/browser/axe/ (axe.min.js with its licence), so the test runs
offline; it is injected into each page as it stands after loading (JavaScript on)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from benchmarks.games import GAME_SCRIPTS, MID_GAME, PLAYERS
from tests.browser.helpers import building_button, links, tap_and_load
from tests.browser.states import YARD, YARD_MID, seed

AXE = Path(__file__).resolve().parent / "axe" / "axe.min.js"
# In the light scheme every rule axe-core runs by default (WCAG 2.0-2.2 A and AA, and its best
# practices); in the dark one, which changes only colours, its colour rules.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
RUN = """async rules => {
  const only = rules.length ? {runOnly: {type: 'rule', values: rules}} : {};
  const result = await axe.run(document, {resultTypes: ['violations'], ...only});
  return result.violations.map(v => v.id + ' (' + v.impact + '): ' + v.help + '\\n' +
    v.nodes.slice(0, 4).map(n => '    ' + n.target.join(' ') + ': '
                            + n.failureSummary.replace(/\\s+/g, ' ').slice(0, 240)).join('\\n'));
}"""


def violations(page: Page) -> list[str]:
    """What axe-core finds on the page as it stands."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    found: list[str] = page.evaluate(RUN, COLOUR_RULES if dark else [])
    return found


@pytest.fixture(params=[("light", "en"), ("light", "de"), ("dark", "en")],
                ids=["light-en", "light-de", "dark-en"])
def phone(request: pytest.FixtureRequest, browser: Browser,
          browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """A phone in the colour scheme and language, JavaScript on (axe-core needs it)."""
    scheme, language = request.param
    context = browser.new_context(**browser_context_args, color_scheme=scheme, bypass_csp=True,
                                  extra_http_headers={"Accept-Language": language})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def assert_none(found: dict[str, list[str]]) -> None:
    """Nothing found anywhere; else each violation once, with the pages it is on."""
    pages: dict[str, list[str]] = {}
    for path, seen in found.items():
        for violation in seen:
            pages.setdefault(violation, []).append(path)
    assert not pages, "\n".join(f"{v}\n    on {', '.join(p)}" for v, p in pages.items())


def checked(page: Page, paths: list[str], found: dict[str, list[str]]) -> None:
    """Load each path and note what axe-core finds there."""
    for path in paths:
        response = page.goto(path)
        assert response is not None, path
        found[path] = violations(page)


def previewed(page: Page, table: str, found: dict[str, list[str]]) -> None:
    """A change entered from the history: the table page in change mode, then the first of its
    actions tapped, which shows the change's preview."""
    page.goto(table + "history")
    changes = [p for p in links(page, table) if "change=" in p]
    assert changes, f"{table}: no change link in the history"
    page.goto(changes[-1])
    found[f"{changes[-1]} (changing)"] = violations(page)
    button = page.locator("main form[data-action] button[type=submit]:enabled, "
                          "main form[data-action] button:not([type]):enabled").first
    button.scroll_into_view_if_needed()
    button.evaluate("b => b.form.requestSubmit(b)")
    page.locator(".change-preview").wait_for()
    found[f"{changes[-1]} (preview)"] = violations(page)


def test_the_site_pages(phone: Page, live_database: Path) -> None:
    """Home (with a table of this phone's), players, import and the error page."""
    table = f"/yard/{seed(live_database, 'yard', ('Ann', 'Ben', 'Cy'), ())}/"
    found: dict[str, list[str]] = {}
    phone.goto(table)
    checked(phone, ["/", "/players", "/players/Ann", "/import", "/yard/no-such-table/"], found)
    assert_none(found)


def test_the_answer_to_a_tap(phone: Page, live_database: Path) -> None:
    """A purchase answered in place: the score strip says what was recorded."""
    table = f"/yard/{seed(live_database, 'yard', YARD, YARD_MID)}/"
    phone.goto(table)
    tap_and_load(phone, building_button(phone, "Ann", "park"))
    found = {f"{table} (recorded)": violations(phone)}
    assert_none(found)


@pytest.mark.parametrize("finished", [False, True], ids=["mid-game", "end"])
@pytest.mark.parametrize("slug", sorted(GAME_SCRIPTS))
def test_every_page_of_a_game(phone: Page, live_database: Path, slug: str,
                              finished: bool) -> None:
    actions = GAME_SCRIPTS[slug]()
    actions = actions if finished else actions[:MID_GAME[slug]]
    table = f"/{slug}/{seed(live_database, slug, tuple(PLAYERS[slug]), tuple(actions))}/"
    found: dict[str, list[str]] = {}
    phone.goto(table)
    found[table] = violations(phone)
    opens = [p for p in links(phone, table) if p != table and "change=" not in p]
    opens += [f"{table}?open={name}" for name in sorted(set(re.findall(
        r'href="\?open=([a-z0-9_-]+)', phone.content())))]
    checked(phone, opens, found)
    phone.goto(table + "share")
    checked(phone, [p for p in links(phone, "/board/")][:1], found)
    if not finished:
        previewed(phone, table, found)
    assert_none(found)
