"""Every kind of page is valid HTML, as the W3C Nu Html Checker (vnu.jar) reads it (issue 45):
home and the pages beside it, each game's table page new, mid-game and finished with its
history, share page, scoreboard and the sub-pages and fold-outs its own GET links open, a
change of a past action and its preview, and the page of a link that leads nowhere; in English
and German. The pages are written to files and checked in one run of the checker."""

import re
from dataclasses import dataclass, field
from html import unescape
from urllib.parse import urljoin, urlsplit

import pytest

from companion import storage
from companion.app import create_app
from companion.rules import GAMES
from tests import vnu
from tests.tables import FINISHED, held, seed

LANGUAGES = ("en", "de")
STATES = ("new", "mid-game", "finished")
TABLE_KINDS = ("table", "history", "share", "scoreboard", "fold-outs and sub-pages")
SITE_KINDS = ("home", "your tables", "players", "a player's statistics", "import",
              "table deleted", "not found")
KINDS = [*SITE_KINDS,
         *(f"{slug} {state} {kind}" for slug in GAMES for state in STATES for kind in TABLE_KINDS),
         *(f"{slug} {kind}" for slug in GAMES for kind in ("change", "change preview"))]
MAX_SUB_PAGES = 40  # per table: crawled from its table page, share page and history
# Not crawled: downloads, the seq the page polls, the pages of a kind of their own (history,
# share page, the table as it was before a past action, to change it), and POST-only URLs
# (never linked).
NOT_CRAWLED = re.compile(r"\.(pdf|csv|json)(\?|$)|/export|/seq$|/history$|/share$|[?&]change=")


@dataclass
class Page:
    kind: str
    language: str
    url: str
    html: str
    errors: list[dict] = field(default_factory=list)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The app on a temporary database of its own, for this module's pages."""
    tmp = tmp_path_factory.mktemp("valid_html")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COMPANION_INSTANCE", str(tmp / "instance"))
        yield create_app({"TESTING": True, "DATABASE": str(tmp / "companion.sqlite"),
                          "WTF_CSRF_ENABLED": False, "GHOST_TAP_SECONDS": 0})


def tables(app):
    """Each game's table new, mid-game (the first half of its finished log) and finished:
    {(slug, state): table URL}."""
    made = {}
    for slug, (names, actions) in FINISHED.items():
        for state, taken in zip(STATES, ([], actions[:len(actions) // 2], actions), strict=True):
            made[slug, state] = f"/{slug}/{seed(app, slug, names, taken)}/"
    return made


def get(client, url, language, status=200):
    """The page at `url` in this language, as text; its status must be `status`."""
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == status, f"{url} ({language}): {response.status_code}"
    return response.get_data(as_text=True)


def links(html, base):
    """The page's links (href), resolved against its URL, without their fragments."""
    return [urljoin(base, unescape(href)).split("#")[0]
            for href in re.findall(r'href="([^"]*)"', html)]


def sub_pages(client, table_url, language, start):
    """The pages the table's own GET links open, crawled from `start` (its table page, share
    page and history): fold-outs and pages under the table's path, not those NOT_CRAWLED; at
    most MAX_SUB_PAGES."""
    seen, queue, found = set(start), list(start), []
    while queue and len(found) < MAX_SUB_PAGES:
        html = get(client, queue.pop(0), language)
        for url in links(html, table_url):
            own = urlsplit(url).path.startswith(table_url)
            if url in seen or not own or NOT_CRAWLED.search(url):
                continue
            seen.add(url)
            queue.append(url)
            found.append((url, get(client, url, language)))
    return found


def scoreboard(share_html):
    return re.search(r'href="https?://[^/"]+(/board/[^"]+)"', share_html).group(1)


def table_pages(client, slug, state, url, language):
    """A table's pages of each kind: {kind: [(url, html)]}."""
    share = get(client, url + "share", language)
    board = scoreboard(share)
    return {
        f"{slug} {state} table": [(url, get(client, url, language))],
        f"{slug} {state} history": [(url + "history", get(client, url + "history", language))],
        f"{slug} {state} share": [(url + "share", share)],
        f"{slug} {state} scoreboard": [(board, get(client, board, language))],
        f"{slug} {state} fold-outs and sub-pages":
            sub_pages(client, url, language, [url, url + "share", url + "history"]),
    }


def change_pages(client, slug, url, language):
    """A past action's Change link followed from the history of a mid-game table (the latest
    one that can be taken out), and the preview of taking it out."""
    history = get(client, url + "history", language)
    for seq in sorted(map(int, re.findall(r'\?change=(\d+)#as-recorded"', history)), reverse=True):
        changing = url + f"?change={seq}"
        page = get(client, changing, language)
        if "/change/out" not in page:
            continue
        fields = {"seq": re.search(r'name="seq" value="(\d+)"', page).group(1),
                  "key": re.search(r'name="key" value="([^"]+)"', page).group(1)}
        preview = client.post(url + f"change/out?change={seq}", data=fields,
                              headers={"Accept-Language": language})
        assert preview.status_code == 200, f"{slug}: the preview of #{seq}"
        return {f"{slug} change": [(changing, page)],
                f"{slug} change preview": [(url + "change/out", preview.get_data(as_text=True))]}
    raise AssertionError(f"{slug}: no action in the history can be taken out")


def site_pages(client, language):
    """The pages beside the tables: {kind: [(url, html)]}."""
    name = FINISHED["yard"][0][0]
    gone = "/yard/no-such-table/"
    return {
        "home": [("/", get(client, "/", language))],
        "your tables": [("/tables", get(client, "/tables", language))],
        "players": [("/players", get(client, "/players", language))],
        "a player's statistics": [(f"/players/{name}",
                                   get(client, f"/players/{name}", language))],
        "import": [("/import", get(client, "/import", language))],
        "table deleted": [("/deleted", get(client, "/deleted", language))],
        "not found": [("/nowhere", get(client, "/nowhere", language, 404)),
                      (gone, get(client, gone, language, 404))],
    }


def owned(client, *table_ids):
    """This browser started these tables and holds them: its pages show what the phone that
    started a table sees (the share page's revoke and delete, the players' statistics)."""
    held(client, *table_ids)
    with client.session_transaction() as session:
        session["owned"] = [*map(storage.mark_of, table_ids), *session.get("owned", [])]


def gathered(app):
    """Every page of every kind, in each language."""
    client = app.test_client()
    made = tables(app)
    owned(client, *(url.strip("/").split("/")[1] for url in made.values()))
    pages = []
    for language in LANGUAGES:
        found = site_pages(client, language)
        for (slug, state), url in made.items():
            found |= table_pages(client, slug, state, url, language)
            if state == "mid-game":
                found |= change_pages(client, slug, url, language)
        pages += [Page(kind, language, url, html)
                  for kind, each in found.items() for url, html in each]
    return pages


def checked(pages, folder):
    """The pages with the errors one run of the checker finds in each."""
    files = []
    for number, page in enumerate(pages):
        files.append(folder / f"{number:04d}.html")
        files[-1].write_text(page.html, encoding="utf-8")
    found = vnu.errors(files)
    for page, path in zip(pages, files, strict=True):
        page.errors = found[path.resolve()]
    elsewhere = [m for path, messages in found.items() if path not in
                 {f.resolve() for f in files} for m in messages]
    assert not elsewhere, f"vnu: {elsewhere}"
    return pages


INVALID = [
    '<!DOCTYPE html><html lang="en"><title>T</title><div aria-label="x">a</div></html>',
    '<!DOCTYPE html><html lang="en"><title>T</title><p><div>a</div></p></html>',
    '<!DOCTYPE html><html lang="en"><title>T</title><a href="/"><a href="/">x</a></a></html>',
]
VALID = '<!DOCTYPE html><html lang="en"><title>T</title><p>ok</p></html>'


def samples():
    """The pages test_the_check_catches_what_it_looks_for reads the checker's answer on."""
    return [*(Page("invalid sample", "en", f"sample {n}", html)
              for n, html in enumerate(INVALID)), Page("valid sample", "en", "sample", VALID)]


@pytest.fixture(scope="module")
def reports(app, tmp_path_factory):
    """{(kind, language): [Page]}, every page (and the samples of the check's own test)
    checked by one run of the checker."""
    if why := vnu.missing():
        pytest.fail(why)
    pages = checked(gathered(app) + samples(), tmp_path_factory.mktemp("pages"))
    by_kind = {}
    for page in pages:
        by_kind.setdefault((page.kind, page.language), []).append(page)
    return by_kind


def report(pages):
    """Each page's errors, a line each, under its URL."""
    return "\n".join(f"{page.url} ({page.language}):\n" + "\n".join(
        "  " + vnu.described(error) for error in page.errors) for page in pages if page.errors)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_page_is_valid_html(reports, kind, language):
    """The checker finds no error on any page of this kind in this language."""
    pages = reports.get((kind, language), [])
    assert pages, f"no page of the kind {kind} ({language}) was gathered"
    assert not any(page.errors for page in pages), report(pages)


def test_the_fold_outs_of_a_game_under_way_are_crawled(reports):
    """The crawl reaches a table's fold-outs and its own sub-pages (street's phone page, 5th
    Avenue's board, BG Stats, the delete page), so the check covers more than the table page."""
    opened = {page.url for pages in reports.values() for page in pages}
    assert any("?open=" in url for url in opened)
    for sub_page in ("/play/0", "/board", "/bgstats", "/delete"):
        assert any(url.endswith(sub_page) for url in opened), sub_page


def test_the_check_catches_what_it_looks_for(reports):
    """Small pages with an error each (an aria-label on a div without a role first) are
    reported with errors, and a valid one with none."""
    invalid = reports["invalid sample", "en"]
    assert len(invalid) == len(INVALID) and all(page.errors for page in invalid)
    assert "aria-label" in invalid[0].errors[0]["message"]
    assert reports["valid sample", "en"][0].errors == []
