"""Back to the table from History (issue 28): the table page comes back from the browser's
back/forward cache, at once and as it was, but only once app.js has checked the table's seq; a
table that changed meanwhile is loaded anew, so an outdated table is never shown.

Playwright starts Chromium with the back/forward cache off; these tests start their own browser
without that switch. The page is restored without a navigation Playwright follows, so the tests
go back with `history.back()` and wait for the page's own state.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright

from tests.browser.states import URBAN, URBAN_ACTIONS, YARD, YARD_MID, logged, record, seed

SHOWN = "() => document.readyState === 'complete' && getComputedStyle(document.documentElement)" \
        ".opacity === '1' && location.pathname.endsWith('/')"
ANN_BUYS_A_PARK = ("buy", {"player": "Ann", "building": "park"})  # on another phone, meanwhile
# The browser may keep a page out of its cache for reasons of its own (its memory, a timing of
# the moment): a page that comes back in one of ATTEMPTS tries is one nothing of its own keeps
# out, since a blocker of the page's own making (an unload handler, a lock held) keeps it out
# every time.
ATTEMPTS = 3
NOT_RESTORED = "JSON.stringify(performance.getEntriesByType('navigation')[0].notRestoredReasons)"


@pytest.fixture
def caching_browser(playwright: Playwright,
                    browser_type_launch_args: dict[str, Any]) -> Iterator[Browser]:
    browser = playwright.chromium.launch(**browser_type_launch_args,
                                         ignore_default_args=["--disable-back-forward-cache"])
    yield browser
    browser.close()


@pytest.fixture
def phone(caching_browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context = caching_browser.new_context(**browser_context_args)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def to_history_and_back(page: Page, table_id: str, meanwhile: Any = None) -> None:
    page.goto(f"/yard/{table_id}/")
    page.evaluate("window.leftAt = 'the table'")  # a restored page still has it; a loaded one not
    with page.expect_navigation():
        page.locator(f'a[href$="/{table_id}/history"]').first.click()
    if meanwhile:
        meanwhile()
    page.evaluate("history.back()")
    page.wait_for_function(SHOWN)
    page.wait_for_timeout(300)  # a reload the check asks for has begun by now
    page.wait_for_function(SHOWN)


def test_the_table_comes_back_from_the_back_forward_cache(phone: Page,
                                                          live_database: Path) -> None:
    kept_out = []
    for _attempt in range(ATTEMPTS):
        table_id = seed(live_database, "yard", YARD, YARD_MID)
        to_history_and_back(phone, table_id)
        if phone.evaluate("window.leftAt") == "the table":  # not loaded anew
            break
        kept_out.append(phone.evaluate(NOT_RESTORED))
    else:
        pytest.fail(f"loaded anew every time; the browser's reasons: {kept_out}")
    assert phone.evaluate("document.body.dataset.seq") == str(len(YARD_MID))


def test_a_table_changed_meanwhile_is_loaded_anew(phone: Page, live_database: Path) -> None:
    table_id = seed(live_database, "yard", YARD, YARD_MID)

    def another_phone_buys() -> None:
        record(live_database, f"/yard/{table_id}/", list(YARD), [ANN_BUYS_A_PARK])

    to_history_and_back(phone, table_id, another_phone_buys)
    assert phone.evaluate("window.leftAt") is None  # the outdated page was never kept
    assert phone.evaluate("document.body.dataset.seq") == str(len(YARD_MID) + 1)


def test_only_the_table_page_may_be_kept(phone: Page, live_database: Path) -> None:
    """The table page is `private, no-cache` (no shared cache keeps it, the phone's cache asks
    the server before any reuse); every other page stays `no-store`."""
    table_id = seed(live_database, "yard", YARD, YARD_MID)
    table = phone.request.get(f"/yard/{table_id}/")
    history = phone.request.get(f"/yard/{table_id}/history")
    assert table.headers["cache-control"] == "private, no-cache"
    assert history.headers["cache-control"] == "no-store"


def test_without_the_back_forward_cache_back_loads_the_table_anew(page: Page,
                                                                   live_database: Path) -> None:
    """`no-cache`, unlike `no-store`, lets the phone's HTTP cache keep the page; Chromium asks
    the server again on the back button (a page from the HTTP cache would be outdated here).
    `page` is the tests' usual browser, whose back/forward cache is off."""
    table_id = seed(live_database, "yard", YARD, YARD_MID)
    page.goto(f"/yard/{table_id}/")
    with page.expect_navigation():
        page.locator(f'a[href$="/{table_id}/history"]').first.click()
    record(live_database, f"/yard/{table_id}/", list(YARD), [ANN_BUYS_A_PARK])
    with page.expect_navigation():
        page.go_back()
    assert page.evaluate("document.body.dataset.seq") == str(len(YARD_MID) + 1)
    assert page.evaluate("performance.getEntriesByType('navigation')[0].transferSize") > 0


def test_forward_to_a_table_answered_in_place_shows_it_as_it_stands(page: Page,
                                                                    live_database: Path) -> None:
    """Found by an audit: a purchase answered in place, Back to History, then Forward: Chromium
    showed the table page from its own cache, as it was before the purchase (it does not always
    ask the server again on Back and Forward; the tests' server it does ask, so here the route
    answers Forward with that first page, as the cache did), and the next tap was refused as
    outdated. A page loaded from history checks the table's seq as a restored one does, and is
    loaded anew if the table moved on."""
    table_id = seed(live_database, "yard", YARD, YARD_MID)
    first: dict[str, Any] = {}

    def as_cached(route: Any) -> None:
        if first.get("forward"):  # once: the reload it asks for goes to the server
            first.pop("forward")
            route.fulfill(status=200, headers=first["headers"], body=first["body"])
            return
        response = route.fetch()
        first.setdefault("body", response.text())
        first.setdefault("headers", response.headers)
        route.fulfill(response=response)

    page.route(f"**/yard/{table_id}/", as_cached)
    page.goto(f"/yard/{table_id}/history")
    page.goto(f"/yard/{table_id}/")
    answers = page.evaluate("document.documentElement.dataset.answers || '0'")
    page.locator('form:has(input[name=player][value="Ann"]) button[value="park"]').first.click()
    page.wait_for_function("a => document.documentElement.dataset.answers !== a", arg=answers)
    seq = str(len(YARD_MID) + 1)
    assert page.evaluate("document.body.dataset.seq") == seq
    with page.expect_navigation():
        page.go_back()
    first["forward"] = True
    page.go_forward()
    page.wait_for_function("s => document.body && document.body.dataset.seq === s", arg=seq)
    page.wait_for_timeout(500)  # nothing loads it again, or back
    assert page.evaluate("document.body.dataset.seq") == seq and "forward" not in first


def test_without_javascript_back_after_a_purchase_puts_nothing_typed_in_the_next_turn(
        browser: Browser, browser_context_args: dict[str, Any], live_database: Path) -> None:
    """Found at a table (no JavaScript): Ann bought land; Back loaded the table anew, Ben's turn
    now, and the browser put Ann's numbers back into the form, so one more tap bought the land
    again, for Ben. The forms keep nothing typed across a load."""
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    table_id = seed(live_database, "urbanisation", URBAN, URBAN_ACTIONS)
    page.goto(f"/urbanisation/{table_id}/?open=buy_land")
    page.locator("input[name=price_markers]").fill("1")
    with page.expect_navigation():
        page.locator("#act-buy_land button").first.click()
    bought = logged(live_database, table_id)
    assert bought[-1].kind == "buy_land"
    with page.expect_navigation():
        page.go_back()
    assert page.locator("input[name=price_markers]").input_value() == ""
    page.wait_for_timeout(1200)  # not a ghost tap: a second later
    with page.expect_navigation():
        page.locator("#act-buy_land button").first.click()
    assert len(logged(live_database, table_id)) == len(bought)  # refused: nothing typed
    context.close()
