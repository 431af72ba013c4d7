"""Every answer in view, covering nothing (issue 23), in Chromium at 390x844 with touch: a
refusal is said under its field or control, in the page's flow, so no field to fix is covered.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from tests.browser.helpers import tap_and_load
from tests.browser.states import YARD, seed

# The element at a point of the screen is the one asked about (or inside it): nothing covers it.
UNCOVERED = ("e => { const r = e.getBoundingClientRect();"
             " const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
             " return e.contains(hit) || (hit && hit.closest('label') === e.closest('label'))"
             "   ? 'uncovered' : hit && hit.outerHTML.slice(0, 80); }")


def assert_uncovered(fields: list[Locator]) -> None:
    """Each field, brought into view, is itself at its centre."""
    for field in fields:
        field.scroll_into_view_if_needed()
        assert field.evaluate(UNCOVERED) == "uncovered", field


def assert_in_view(page: Page, element: Locator) -> None:
    box = element.bounding_box()
    strip = page.locator(".score-strip").bounding_box()
    assert box is not None and box["y"] >= 0, box
    assert box["y"] + box["height"] <= (strip["y"] if strip else 844), (box, strip)


def test_dirks_deal_of_5_instead_of_6_is_refused_under_the_fields(page: Page,
                                                                   live_database: Path) -> None:
    table_id = seed(live_database, "yard", ("Ann", "Ben"), ())
    page.goto(f"/yard/{table_id}/")
    for label, count in (("Churches", "1"), ("Parks", "2"), ("Skyscrapers", "2")):
        page.get_by_label(label, exact=True).fill(count)
    tap_and_load(page, page.get_by_role("button", name="Dirk got these 6"))
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("6")
    assert_in_view(page, refusal)
    deal = page.locator("#dirk")
    assert_uncovered(deal.locator("input:not([type=hidden])").all())
    assert_uncovered([page.get_by_label(label, exact=True)
                      for label in ("Churches", "Parks", "Skyscrapers")])


def test_a_correction_without_what_for_is_refused_beside_that_field(page: Page,
                                                                   live_database: Path) -> None:
    table_id = seed(live_database, "yard", YARD, ())
    page.goto(f"/yard/{table_id}/")
    tap_and_load(page, page.locator("a[data-open]", has_text="Corrections"))
    page.get_by_label("Count").fill("2")
    tap_and_load(page, page.get_by_role("button", name="Set the count"))
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("What for")
    assert_in_view(page, refusal)
    what_for = page.get_by_label("What for").first
    expect(what_for).to_have_attribute("aria-invalid", "true")
    note, field = refusal.bounding_box(), what_for.bounding_box()
    assert note and field and 0 <= note["y"] - (field["y"] + field["height"]) <= 24, (note, field)
    form = page.locator("form[action$='/correct']")
    assert_uncovered([form.locator("select[name=owner]"), form.locator("select[name=building]"),
                      form.locator("input[name=count]"), form.locator("input[name=reason]")])
