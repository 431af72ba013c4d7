"""In Chromium at 390x844: a number out of range is answered by the app, beside its field, in
the players' language, with JavaScript (a note over the field) and without (the page again, the
words at its top, naming the field, and under the field). The browser's own tooltip never comes
first."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from tests.browser.helpers import start_table, tap_and_load


def corrections(browser: Browser, context_args: dict[str, Any], script: bool) -> Any:
    context = browser.new_context(**context_args, java_script_enabled=script)
    page = context.new_page()
    start_table(page, ["Ann", "Ben", "Cy"])
    tap_and_load(page, page.get_by_role("link", name="Corrections"))
    page.get_by_label("Count").fill("99")
    page.get_by_label("What for").first.fill("counted again")
    return context, page


def test_with_javascript_the_refusal_stands_over_the_field(browser: Browser,
                                                           browser_context_args: dict) -> None:
    context, page = corrections(browser, browser_context_args, script=True)
    try:
        table = page.url
        tap_and_load(page, page.get_by_role("button", name="Set the count"))
        note = page.locator("#refusal")
        expect(note).to_have_text("Ann's museums cannot be more than 7.")
        field = page.get_by_label("Count")
        expect(field).to_have_attribute("aria-invalid", "true")
        box, said = field.bounding_box(), note.bounding_box()
        assert box and said
        assert said["y"] + said["height"] <= box["y"] or said["y"] >= box["y"] + box["height"]
        assert min(abs(said["y"] + said["height"] - box["y"]),
                   abs(said["y"] - box["y"] - box["height"])) <= 16  # right by the field
        assert page.url == table and field.input_value() == "99"
        field.fill("2")
        expect(field).not_to_have_attribute("aria-invalid", "true")
    finally:
        context.close()


def test_without_javascript_the_words_are_at_the_top_and_under_the_field(browser: Browser,
                                                                  browser_context_args: dict
                                                                  ) -> None:
    context, page = corrections(browser, browser_context_args, script=False)
    try:
        tap_and_load(page, page.get_by_role("button", name="Set the count"))
        beside = page.locator("#count-error")
        expect(beside).to_have_text("Ann's museums cannot be more than 7.")
        expect(page.locator(".error")).to_contain_text("Ann's museums cannot be more than 7.")
        expect(page.get_by_label("Count")).to_have_value("99")
    finally:
        context.close()
