"""A number a field shows is typed over, not after: found at a table, Dirk's cards typed as "02"
over a 0, and a high bid typed as "1210" over the 12 Alea's chance was worked out for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.states import FIFTH, FIFTH_PLAYING, seed


@pytest.mark.parametrize("script", [True, False], ids=["js", "no js"])
def test_a_count_of_0_is_typed_in_and_stays_when_left_alone(
        browser: Browser, browser_context_args: dict[str, Any], live_database: Path,
        script: bool) -> None:
    """Dirk's counts are blank, their 0 a placeholder: what is typed is the count, with
    JavaScript or without (found at a table without it: "01")."""
    context = browser.new_context(**browser_context_args, java_script_enabled=script)
    page = context.new_page()
    page.goto(f"/yard/{seed(live_database, 'yard', ('Ann', 'Ben'), ())}/")
    museums, parks = page.get_by_label("Museums"), page.get_by_label("Parks")
    expect(museums).to_have_value("")
    expect(museums).to_have_attribute("placeholder", "0")
    museums.tap()
    page.keyboard.type("2")
    expect(museums).to_have_value("2")
    parks.tap()
    page.get_by_label("Theaters").tap()
    expect(parks).to_have_value("")  # tapped, nothing typed: as it was
    expect(museums).to_have_value("2")
    context.close()


def test_the_high_bid_shown_is_typed_over(page: Page, live_database: Path) -> None:
    table_id = seed(live_database, "fifth_avenue", FIFTH, (*FIFTH_PLAYING, *[
        ("move", {"commissioner": "white", "to": to})
        for to in ("34w", "times", "52w", "central_park", "city_hall")]))
    page.goto(f"/fifth_avenue/{table_id}/?high=12#auction")  # Alea's chance, worked out for 12
    high = page.get_by_label("High bid after your first bids (0 if both passed)")
    expect(high).to_have_value("12")
    high.tap()
    page.keyboard.type("10")
    expect(high).to_have_value("10")


def test_counts_typed_in_another_form_outlive_an_answer(page: Page, live_database: Path) -> None:
    """Found at a table: Dirk's cards typed, then the starting money entered and "Who starts?"
    tapped: the answer showed Dirk's counts at 0 again. What was typed, and not sent, in a form
    the answer did not come from stays, where the answer has that form."""
    page.goto(f"/yard/{seed(live_database, 'yard', ('Ann', 'Ben'), ())}/")
    page.get_by_label("Museums").fill("2")
    page.get_by_label("Parks").fill("1")
    for label, value in (("Ann: cards", "5"), ("Ann: total", "22"), ("Ben: cards", "4"),
                         ("Ben: total", "24")):
        page.get_by_label(label).fill(value)
    before = int(page.evaluate("document.documentElement.dataset.answers"))
    page.get_by_role("button", name="Who starts?").tap()
    page.wait_for_function(f"() => Number(document.documentElement.dataset.answers) > {before}")
    expect(page.locator(".starts").first).to_contain_text("Ben starts.")
    expect(page.get_by_label("Museums")).to_have_value("2")
    expect(page.get_by_label("Parks")).to_have_value("1")
    expect(page.get_by_label("Theaters")).to_have_value("")


def test_alea_s_chance_is_worked_out_in_place_under_the_thumb(page: Page,
                                                               live_database: Path) -> None:
    """Found at a table: "Work out Alea's chance" loaded the page at its answer, and the button
    went from 611 px down the screen to 139, the board under the thumb. It is answered in place:
    the button stays, the verdict in view."""
    from tests.browser.helpers import tap_and_load

    table_id = seed(live_database, "fifth_avenue", FIFTH, (*FIFTH_PLAYING, *[
        ("move", {"commissioner": "white", "to": to})
        for to in ("34w", "times", "52w", "central_park", "city_hall")]))
    page.goto(f"/fifth_avenue/{table_id}/#auction")
    page.locator("details.alea-chance > summary").tap()
    page.get_by_label("Against a high bid of").fill("10")
    button = page.get_by_role("button", name="Work out Alea's chance")
    button.scroll_into_view_if_needed()
    before = button.bounding_box()
    tap_and_load(page, button)
    verdict = page.locator("details.alea-chance p.verdict")
    expect(verdict).to_contain_text("Alea beats 10 with probability")
    expect(verdict).to_be_in_viewport()
    after = page.get_by_role("button", name="Work out Alea's chance").bounding_box()
    assert before and after and abs(after["y"] - before["y"]) < 2, (before, after)
    assert "high=10" in page.url
