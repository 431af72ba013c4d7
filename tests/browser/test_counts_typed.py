"""A count that shows 0 is typed over, not after: found at a table, Dirk's cards typed as "02"."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.states import seed


def test_a_count_of_0_is_typed_over_and_comes_back_when_left_empty(page: Page,
                                                                  live_database: Path) -> None:
    page.goto(f"/yard/{seed(live_database, 'yard', ('Ann', 'Ben'), ())}/")
    museums, parks = page.get_by_label("Museums"), page.get_by_label("Parks")
    expect(museums).to_have_value("0")
    museums.tap()
    page.keyboard.type("2")
    expect(museums).to_have_value("2")
    parks.tap()  # Museums keeps the 2 typed; Parks, focused, is empty to type into
    expect(parks).to_have_value("")
    page.get_by_label("Theaters").tap()
    expect(parks).to_have_value("0")  # left empty: 0 again
    expect(museums).to_have_value("2")
