"""A basic accessibility check of every main screen: names for every control, one page title
heading, no tab-order tricks, a visible focus ring, and text contrast of at least 4.5:1 in the
light and the dark colour scheme."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from companion.rules import GAMES
from tests.conftest import new_table
from tests.tables import players

CSS = (Path(__file__).resolve().parent.parent / "static" / "app.css").read_text()


class Controls(HTMLParser):
    """Collects what the checks need: controls and whether each has a name."""

    def __init__(self):
        super().__init__()
        self.label_depth = 0
        self.labelled_ids = set()
        self.controls = []  # (tag, attrs, inside a label)
        self.buttons = []  # [attrs, text]
        self.h1 = 0
        self.tabindex = []
        self.lang = None
        self.images = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        if tag == "label":
            self.label_depth += 1
            if "for" in attrs:
                self.labelled_ids.add(attrs["for"])
        if tag in ("input", "select", "textarea") and attrs.get("type") not in (
                "hidden", "submit", "button"):
            self.controls.append((tag, attrs, self.label_depth > 0))
        if tag == "button":
            self.buttons.append([attrs, ""])
        if tag == "h1":
            self.h1 += 1
        if "tabindex" in attrs:
            self.tabindex.append(int(attrs["tabindex"]))
        if tag == "img" or (tag == "svg" and attrs.get("role") == "img"):
            self.images.append(attrs)

    def handle_endtag(self, tag):
        if tag == "label":
            self.label_depth -= 1

    def handle_data(self, data):
        if self.buttons and data.strip():
            self.buttons[-1][1] += data.strip()


def check_page(html, where):
    page = Controls()
    page.feed(html)
    assert page.lang in ("en", "de"), where
    assert page.h1 == 1, f"{where}: {page.h1} h1 headings"
    assert all(t <= 0 for t in page.tabindex), f"{where}: positive tabindex"
    for tag, attrs, in_label in page.controls:
        named = in_label or attrs.get("aria-label") or attrs.get("id") in page.labelled_ids
        assert named, f"{where}: a {tag} without a label: {attrs}"
    for attrs, text in page.buttons:
        assert text or attrs.get("aria-label") or attrs.get("title"), f"{where}: empty button"
    for attrs in page.images:
        assert attrs.get("alt") is not None or attrs.get("aria-label"), f"{where}: {attrs}"


def screens(client):
    yield "home", "/"
    for slug in GAMES:
        url = new_table(client, *players(slug), game=slug)
        yield f"{slug} table", url
        yield f"{slug} history", url + "history"
        yield f"{slug} share", url + "share"
        board = re.search(r'href="http://localhost(/board/[^"]+)"',
                          client.get(url + "share").get_data(as_text=True)).group(1)
        yield f"{slug} scoreboard", board


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_main_screen_names_its_controls(client, language):
    checked = 0
    for where, path in list(screens(client)):
        response = client.get(path, headers={"Accept-Language": language})
        assert response.status_code == 200, where
        check_page(response.get_data(as_text=True), f"{where} ({language})")
        checked += 1
    assert checked == 1 + 4 * len(GAMES)


def colours(block):
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", block))


def luminance(hex_colour):
    value = hex_colour.lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    channels = [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


LIGHT = colours(CSS.split("@media (prefers-color-scheme: dark)")[0].split("}")[0])
DARK = {**LIGHT, **colours(CSS.split("@media (prefers-color-scheme: dark)")[1].split("}")[0])}
PAIRS = [("fg", "bg"), ("fg", "card"), ("muted", "bg"), ("muted", "card"), ("accent", "bg"),
         ("accent", "card"), ("accent-fg", "accent"), ("error-fg", "error-bg")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("text", "background"), PAIRS)
def test_text_contrast_is_at_least_4_5_to_1(scheme, text, background):
    palette = LIGHT if scheme == "light" else DARK
    ratio = contrast(palette[text], palette[background])
    assert ratio >= 4.5, f"{scheme}: --{text} on --{background} is {ratio:.2f}:1"


def test_the_keyboard_focus_is_always_visible():
    assert re.search(r":focus-visible[^{]*\{[^}]*outline:\s*3px solid", CSS)


@pytest.mark.parametrize("html", [
    '<html lang="en"><h1>T</h1><input name="a"></html>',
    '<html lang="en"><h1>T</h1><button></button></html>',
    '<html lang="en"><h1>T</h1><h1>U</h1></html>',
    '<html lang="en"><h1>T</h1><a tabindex="2" href="/">x</a></html>',
    '<html><h1>T</h1></html>',
    '<html lang="en"><h1>T</h1><img src="x.png"></html>',
])
def test_the_check_catches_what_it_looks_for(html):
    with pytest.raises(AssertionError):
        check_page(html, "sample")
