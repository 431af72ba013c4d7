"""The history's rows at a phone's width (issue 45, smaller finding): each row's Change link
stood wherever the row's words ended, so a fix far back meant reading for it row by row. The
links stand in one column at the right, at the top of their rows."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from companion.rules import urbanisation_example
from tests.browser.states import seed


def test_every_change_link_stands_in_one_column(page: Page, live_database: Path) -> None:
    actions = (urbanisation_example.SETUP, *urbanisation_example.TURN_1)
    table_id = seed(live_database, "urbanisation", ("Ann", "Ben", "Cy"), actions)
    page.goto(f"/urbanisation/{table_id}/history")
    rows = page.locator("ol.history li:has(a.change-link)")
    assert rows.count() >= 10
    edges = rows.evaluate_all(
        "rows => rows.map(row => { const link = row.querySelector('a.change-link');"
        " const r = link.getBoundingClientRect(), box = row.getBoundingClientRect();"
        " return [Math.round(box.right - r.right), Math.round(r.top - box.top)]; })")
    assert len({right for right, _top in edges}) == 1, edges  # one column
    assert all(top < 16 for _right, top in edges), edges  # on each row's first line
