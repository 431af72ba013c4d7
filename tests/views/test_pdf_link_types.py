"""Every link to a PDF says so (type="application/pdf"): app.js saves such a file in the
installed app instead of opening it where there is no way back (tests/browser/test_pdf_links)."""

import re

import pytest

from tests.tables import FINISHED, seed


def pdf_links(page):
    links = re.findall(r"<a [^>]*href=\"[^\"]*\.pdf[^\"]*\"[^>]*>", page)
    assert links
    return links


@pytest.mark.parametrize("share", [0.5, 1], ids=["middle", "end"])
@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_every_pdf_link_of_a_table_says_it_is_a_pdf(app, client, slug, share):
    names, actions = FINISHED[slug]
    table_id = seed(app, slug, names, actions[: round(len(actions) * share)])
    page = client.get(f"/{slug}/{table_id}/").get_data(as_text=True)
    assert all('type="application/pdf"' in link for link in pdf_links(page))


def test_every_blank_pad_link_on_the_home_page_says_it_is_a_pdf(client):
    links = pdf_links(client.get("/").get_data(as_text=True))
    assert len(links) == 15 and all('type="application/pdf"' in link for link in links)


@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_a_finished_table_offers_its_score_sheet_once_per_size(app, client, slug):
    """Issue 45: a finished street table offered both "Filled score pad (PDF)" and "Score pad
    so far (PDF)", a finished 5th Avenue both "Score sheet (PDF)" and another: the same file
    twice. A finished table offers its sheet once per paper size; a game under way, so far."""
    names, actions = FINISHED[slug]
    table_id = seed(app, slug, names, actions)
    page = client.get(f"/{slug}/{table_id}/").get_data(as_text=True)
    sheets = re.findall(r'href="[^"]*/sheet\.pdf\?size=(A4|A5)"', page)
    assert sorted(sheets) == sorted(set(sheets)), sheets
    assert "so far" not in page
    under_way = seed(app, slug, names, actions[: len(actions) // 2])
    assert "Score sheet so far (PDF)" in client.get(f"/{slug}/{under_way}/").get_data(as_text=True)
