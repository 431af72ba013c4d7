"""Words shown whole at 390 px (issue 23): the yard's majorities name five players in columns
without breaking a name inside a word ("Clar|a" was), in English and German; Urbanisation's
narrow headers and action tiles break a long German word only at a syllable (a soft hyphen in the
translation: "Arbeitsaufträg|e" was); 5th Avenue's board colours show each select's whole colour
("orang" was cut)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from benchmarks.games import GAME_SCRIPTS, MID_GAME, PLAYERS, yard_buys
from companion.rules import yard_example
from companion.rules.fifth_avenue_table import DISTRICT_IDS
from tests.browser.states import FIFTH, FIFTH_SET_UP, seed
from tests.street_moves import build, card, passes, public

# Each word of the elements' text (split at spaces, hyphens and soft hyphens) that lies on more
# than one line, with the element it is in.
BROKEN_WORDS = r"""sel => { const out = [];
  const line = (node, i) => {  // the top of a character's own box (not a hyphen drawn before it)
    const range = document.createRange();
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const boxes = Array.from(range.getClientRects());
    return Math.round(boxes.reduce((a, r) => r.width > a.width ? r : a).top);
  };
  for (const el of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n; (n = walker.nextNode());) {
      const word = /[^\s\u00ad\-]+/g;
      for (let m; (m = word.exec(n.data));) {
        if (line(n, m.index) !== line(n, m.index + m[0].length - 1)) out.push(m[0]);
      }
    }
  }
  return out;
}"""
# Each select whose longest option is wider than the room it has for text (its width less its
# padding and about 20 px for the arrow), with that option.
CUT_SELECTS = r"""sel => Array.from(document.querySelectorAll(sel)).flatMap(s => {
  const style = getComputedStyle(s);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = style.font;
  const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
  return Array.from(s.options).filter(o => pen.measureText(o.text).width > room)
    .map(o => o.text + ' in ' + Math.round(room) + 'px');
})"""


@pytest.fixture(params=["en", "de"])
def phone(request: pytest.FixtureRequest, browser: Browser,
          browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context = browser.new_context(**browser_context_args, java_script_enabled=False,
                                  extra_http_headers={"Accept-Language": request.param})
    page = context.new_page()
    yield page
    context.close()


def test_five_players_names_are_never_broken_in_the_majorities(phone: Page,
                                                               live_database: Path) -> None:
    players = ("Clara", "Alexander", "Hugo", "Gina", "Bo")
    table = seed(live_database, "yard", players, tuple(yard_buys(list(players))[:30]))
    phone.goto(f"/yard/{table}/")
    headers = phone.locator("table.board thead th")
    assert headers.count() >= 2 * len(players)
    assert phone.evaluate(BROKEN_WORDS, "table.board thead th, table.board tbody th") == []
    # and the table fits: no column pushed out of the phone's width
    widths = phone.evaluate("Array.from(document.querySelectorAll('.scroll-x'),"
                            " s => [s.scrollWidth, s.clientWidth])")
    assert all(scroll <= client for scroll, client in widths), widths


def test_urbanisation_breaks_long_words_only_at_a_syllable(phone: Page,
                                                          live_database: Path) -> None:
    actions = tuple(GAME_SCRIPTS["urbanisation"]()[:MID_GAME["urbanisation"]])
    table = seed(live_database, "urbanisation", tuple(PLAYERS["urbanisation"]), actions)
    phone.goto(f"/urbanisation/{table}/")
    narrow = "table.u-market th, table.u-track th, a.fold-out, .u-act summary"
    assert phone.locator(narrow).count() > 20
    assert phone.evaluate(BROKEN_WORDS, narrow) == []


def test_the_board_colours_show_each_whole_colour(phone: Page, live_database: Path) -> None:
    table = seed(live_database, "fifth_avenue", FIFTH, FIFTH_SET_UP[:1])
    phone.goto(f"/fifth_avenue/{table}/board")
    assert phone.locator(".grid-form.five select").count() == 5 * len(DISTRICT_IDS)
    assert phone.evaluate(CUT_SELECTS, ".grid-form.five select") == []


# Each business's name as the board shows it, in each language (a soft hyphen in the German
# "Parfü-merie").
BUSINESSES = {"en": ("boutique", "jeweler", "gallery", "perfume"),
              "de": ("Boutique", "Juwelier", "Galerie", "Parfü\u00admerie")}
# Each business's name alone on a plot of the board as drawn (the first four plots' words).
NAMED_PLOTS = r"""names => document.querySelectorAll('.plots .plot > span:last-child')
  .forEach((label, i) => { if (i < names.length) label.textContent = names[i]; })"""


@pytest.mark.parametrize("width", [390, 375, 360])
def test_the_fifth_avenue_board_breaks_long_words_only_at_a_syllable(
        phone: Page, live_database: Path, width: int) -> None:
    """Each plot is a fifth of the board's row, about 50 px wide at 390 px: a business's name
    broke inside a word ("boutiqu|e" was), and the German "Parfümerie" did; at 360 px, found at
    a table, "boutiqu|e" and "perfum|e" again. Each whole, or at a syllable, in a whole game's
    board and alone on a plot."""
    actions = tuple(GAME_SCRIPTS["fifth_avenue"]())
    table = seed(live_database, "fifth_avenue", tuple(PLAYERS["fifth_avenue"]), actions)
    phone.set_viewport_size({"width": width, "height": 740})
    phone.goto(f"/fifth_avenue/{table}/")
    assert phone.locator(".plots .plot").count() == 5 * len(DISTRICT_IDS)
    assert phone.evaluate(BROKEN_WORDS, ".plots .plot") == []
    phone.evaluate(NAMED_PLOTS, BUSINESSES[phone.evaluate("document.documentElement.lang")])
    assert phone.evaluate(BROKEN_WORDS, ".plots .plot") == []


def test_the_set_up_drawn_at_the_table_reads_whole_at_320_px(
        browser: Browser, browser_context_args: dict[str, Any], live_database: Path) -> None:
    """Found at a table: at 320 px each start business read "Bauplatz un…", and the supply
    row's four choices ran into each other ("Boutiqu◯Juwelie")."""
    table = seed(live_database, "fifth_avenue", ("Ida", "Jon", "Kim"), FIFTH_SET_UP[:1])
    context = browser.new_context(**{**browser_context_args,
                                     "viewport": {"width": 320, "height": 568}},
                                  extra_http_headers={"Accept-Language": "de"})
    page = context.new_page()
    page.goto(f"/fifth_avenue/{table}/")
    page.locator(".own-draw summary").tap()
    assert page.locator("select[name^=start_]").count() == 7  # every district but Central Park
    assert page.evaluate(CUT_SELECTS, "select[name^=start_]") == []
    overflowing = page.evaluate("""() => Array.from(document.querySelectorAll('.row-tile .choice'))
      .filter(c => c.scrollWidth > c.clientWidth).map(c => c.textContent.trim())""")
    assert page.locator(".row-tile .choice").count() == 80 and overflowing == []
    context.close()


# Each card on a street whose words reach past its box (a word wider than a site).
OVERFLOWING_CARDS = r"""() => Array.from(document.querySelectorAll('.street .scard'))
  .filter(c => c.scrollWidth > c.clientWidth).map(c => c.textContent.trim())"""
PLAIN = card("office")
WORDY_GAME = (  # on each site the longest words a card shows, in German most of all
    build("Ann", 1, PLAIN),
    public("Ann", 1, card("store", floor="upper", income=[
        {"each": "on_site", "amount": 1, "project": "store"}])), *passes("Ben"),
    build("Ann", 2, card("office", floor="ground", income=[
        {"each": "ground_floor", "amount": 1, "project": None}])),
    public("Ann", 3, card("service", prestige=[
        {"each": "on_site", "amount": 1, "project": "service"}])), *passes("Ben"),
    build("Ann", 4, PLAIN),
    public("Ann", 4, {**card("apartment", floor="upper"), "no_gifts": True}),
    *passes("Ben"),
    build("Ann", 5, card("hotel", income=[{"each": "floor_below", "amount": 1,
                                           "project": None}])))


def test_a_street_s_cards_keep_their_words_inside_at_320_px(
        browser: Browser, browser_context_args: dict[str, Any], live_database: Path) -> None:
    """Found at a table: at 320 px "Bauplatz" and "Erdgeschoss" ran out of the cards into the
    next site. Each long word breaks at a syllable."""
    table = seed(live_database, "street", ("Ann", "Ben"), WORDY_GAME)
    for language in ("de", "en"):
        context = browser.new_context(**{**browser_context_args,
                                         "viewport": {"width": 320, "height": 568}},
                                      extra_http_headers={"Accept-Language": language})
        page = context.new_page()
        page.goto(f"/street/{table}/")
        assert page.locator(".street .scard").count() == 7
        assert page.evaluate(OVERFLOWING_CARDS) == [], language
        context.close()


# Each button whose last line holds one word under a line of three or more (its words and
# lines as drawn), e.g. "Give out the cards and score | C".
ORPHANS = r"""() => Array.from(document.querySelectorAll('main button')).flatMap(b => {
  const lines = new Map();
  const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
  for (let n; (n = walker.nextNode());) {
    for (const m of n.data.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const box = range.getBoundingClientRect();
      if (!box.width) continue;
      const top = Math.round(box.top / 4);
      lines.set(top, [...(lines.get(top) || []), m[0]]);
    }
  }
  const rows = [...lines.entries()].sort((a, c) => a[0] - c[0]).map(e => e[1]);
  const [before, last] = rows.slice(-2);
  return rows.length > 1 && last.length === 1 && before.length >= 3 ? [b.textContent.trim()] : [];
})"""


def test_no_button_leaves_one_word_alone_on_its_last_line(phone: Page,
                                                          live_database: Path) -> None:
    """Found playing: "Give out the cards and score | C" (the yard's end), "Score 52nd St |
    West". A button's words are balanced over its lines (CSS text-wrap: balance)."""
    table = seed(live_database, "yard", tuple(yard_example.PLAYERS), yard_example.GAME_OVER)
    phone.goto(f"/yard/{table}/")
    assert phone.locator("#end button.primary").count() == 1  # "Give out the cards ..."
    assert phone.evaluate(ORPHANS) == []


# Each played character's badge inside its tile: its right edge, and the tile's, as drawn.
BADGES_OUT = """() => [...document.querySelectorAll('.u-act .badge')].filter(badge =>
    badge.getBoundingClientRect().right > badge.closest('.u-act').getBoundingClientRect().right)
    .map(badge => badge.textContent)"""


def test_a_long_character_badge_stays_inside_its_tile(phone: Page, live_database: Path) -> None:
    """Found at a table: "Double work orders" on the Work orders tile ran out of it, under the
    next tile, its last letter cut. Whole on a line where it fits, else its words wrap in it."""
    setup = ("setup", {"inventions": False, "start_player": "Ada", "money": 10,
                       "grounds": {"Ada": 1, "Ben": 2}})
    table = seed(live_database, "urbanisation", ("Ada", "Ben"), (
        setup, ("character", {"player": "Ada", "character": "mill_worker"}),
        ("character", {"player": "Ben", "character": "double_orders"}),
        ("pass", {"player": "Ada"})))
    phone.goto(f"/urbanisation/{table}/")
    assert phone.locator(".u-act .badge").count() >= 1
    assert phone.evaluate(BADGES_OUT) == []
