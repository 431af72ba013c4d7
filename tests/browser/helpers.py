"""What every browser test does: tap and wait for the next page, read a linked PDF, squash text."""

from __future__ import annotations

import io

from playwright.sync_api import Locator, Page, expect
from pypdf import PdfReader


def tap_and_load(page: Page, target: Locator) -> None:
    """Tap a button that submits a form (or a link) and wait for the page it leads to."""
    with page.expect_navigation():
        target.tap()


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
