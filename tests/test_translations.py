"""Every word the app shows has its German translation, and translations keep their blanks."""

import re
import string

import pytest
from babel.messages.pofile import read_po
from jinja2 import Environment

from companion import i18n
from companion.rules.text import Msg, Plural
from tests.conftest import SCRIPT, act, new_table, screen, text

CATALOGUES = sorted((i18n.SOURCES / "de").glob("*.po"))


def messages(path):
    with path.open("rb") as f:
        return [m for m in read_po(f, locale="de") if m.id]


def fields(text):
    """The `{name}` blanks of a str.format template and the %(name)s ones of gettext."""
    names = {f[1] for f in string.Formatter().parse(text) if f[1] is not None}
    return names | set(re.findall(r"%\((\w+)\)", text))


def test_there_is_a_catalogue_per_game_and_for_the_platform():
    names = {p.stem for p in CATALOGUES}
    assert {"platform", "yard", "fifth_avenue", "street", "urbanisation"} <= names


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_every_message_is_translated_with_the_same_blanks(path):
    for message in messages(path):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"no German for {ids[0]!r}"
        assert not message.fuzzy, f"fuzzy: {ids[0]!r}"
        for translation in strings:
            assert fields(translation) <= fields(ids[-1]) | fields(ids[0]), (ids[0], translation)


NAMES = {"player", "deck", "owner", "name", "buyer", "winner", "players", "names", "by", "to",
         "holder", "taker", "who", "giver", "commissioner"}


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_a_name_is_never_given_a_genitive_s(path):
    """Found at a table: "von Lukass Stapel" (a German name ending in s takes an apostrophe,
    "Lukas' Stapel", and one ending in x or z as well): a name's blank is never followed by an
    s; the German says "Stapel von Lukas", as its other words do."""
    for message in messages(path):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for translation in strings:
            found = re.findall(r"(?:\{(\w+)\}|%\((\w+)\)s)s\b", translation)
            assert not [n for pair in found for n in pair if n in NAMES], translation


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_the_catalogue_has_every_message_the_code_marks(path):
    """`python -m companion.i18n extract <area>` was run after the last change of words. A
    game's words that the platform's catalogue translates are found there (issue 47: shared
    words are translated once)."""
    known = {m.id if isinstance(m.id, str) else m.id[0]
             for m in messages(path) + messages(i18n.SOURCES / "de" / "platform.po")}
    marked = {m.id if isinstance(m.id, str) else m.id[0] for m in i18n.extract(path.stem) if m.id}
    assert sorted(marked - known) == []


def test_a_word_the_platform_translates_is_in_no_other_catalogue():
    shared = {m.id if isinstance(m.id, str) else m.id[0]
              for m in messages(i18n.SOURCES / "de" / "platform.po")}
    for path in CATALOGUES:
        if path.stem != "platform":
            again = {m.id if isinstance(m.id, str) else m.id[0] for m in messages(path)}
            assert sorted(again & shared) == [], path.stem


def test_a_msg_is_english_text_that_translates_with_its_values(app):
    message = Msg("{what} must be a whole number.", what=Msg("Game"))
    assert message == "Game must be a whole number."
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.translate(message) == "Spiel muss eine ganze Zahl sein."
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert i18n.translate(message) == "Game must be a whole number."


def plural_entries():
    return [m for path in CATALOGUES for m in messages(path) if isinstance(m.id, tuple)]


@pytest.mark.parametrize("count", [1, 2, 7])
def test_a_plural_picks_the_german_form_for_its_count(app, count):
    entry = plural_entries()[0]
    singular, plural = entry.id
    message = Plural(singular, plural, n=count)
    assert message == (singular if count == 1 else plural).format(n=count)
    with app.test_request_context(headers={"Accept-Language": "de"}):
        german = entry.string[0] if count == 1 else entry.string[1]
        assert i18n.translate(message) == german.format(n=count)


def test_every_area_has_its_catalogue():
    assert set(i18n.areas()) == {p.stem for p in CATALOGUES}


def test_a_msg_survives_a_round_trip_through_pickle():
    import pickle

    message = Plural("{n} player", "{n} players", n=2)
    again = pickle.loads(pickle.dumps(message))
    assert (again, again.template, again.plural, again.number) == ("2 players", "{n} player",
                                                                 "{n} players", 2)


def test_the_language_switch_remembers_the_choice(client):
    page = client.get("/", headers={"Accept-Language": "en"})
    assert b'<html lang="en">' in page.data
    switched = client.get("/language/de?next=/")
    assert switched.status_code == 303 and switched.headers["Location"] == "/"
    assert b'<html lang="de">' in client.get("/", headers={"Accept-Language": "en"}).data


@pytest.mark.parametrize("target", [
    "https://evil.example/", "//evil.example/", "/\\evil.example", "/\t/evil.example",
    "/\n/evil.example", "/\r\n/evil.example", " //evil.example", "/\x00", "/\n",
    "/\u2028/evil.example", "\t//evil.example", "javascript:alert(1)", "",
])
def test_the_switch_never_sends_players_to_another_site(client, target):
    """Browsers drop tabs and line breaks from an address and read a backslash as a slash, so
    "/<tab>/evil.example" is another site; "/<newline>" used to be a 500."""
    answer = client.get("/language/de", query_string={"next": target})
    assert answer.status_code == 303 and answer.headers["Location"] == "/"


@pytest.mark.parametrize(("target", "location"), [
    ("/yard/abc/", "/yard/abc/"), ("/players/Ann Lee", "/players/Ann%20Lee"),
    ("/players/Zoë", "/players/Zo%C3%AB"), ("/players/a%2Fb", "/players/a%252Fb"),
])
def test_the_switch_goes_back_to_any_page_of_this_site(client, target, location):
    assert client.get("/language/de", query_string={"next": target}).headers[
        "Location"] == location


def test_the_switch_on_a_table_page_comes_back_to_the_table_whoever_made_the_page(app, client):
    """A table page is made once for every phone: the one made by an action's answer (app.js's
    request, a POST) is the one the other phones load after it; its switch came back to the
    home page. So did a refusal's page without JavaScript."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    seq, key = screen(client, url)
    answer = client.post(url + "buy", headers=SCRIPT,
                         data={"player": "Tobi", "building": "park", "seq": seq, "key": key})
    back = f'href="/language/de?next={url}"'
    assert back in text(answer)
    assert back in text(app.test_client().get(url))  # another phone, after the action
    refused = act(client, url, "buy", player="Nobody", building="park")
    assert refused.status_code == 422 and back in text(refused)


def test_an_unknown_language_is_a_404(client):
    assert client.get("/language/xx").status_code == 404


def test_the_browser_language_is_the_default(client):
    page = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert b'<html lang="de">' in page.data


def test_a_message_shared_by_several_areas_has_one_german_text():
    """The catalogues are merged into one: the same English must not mean two things."""
    german = {}
    for path in CATALOGUES:
        for message in messages(path):
            key = message.id if isinstance(message.id, str) else message.id[0]
            german.setdefault(key, {})[path.stem] = str(message.string)
    differing = {k: v for k, v in german.items() if len(set(v.values())) > 1}
    assert differing == {}


# A template's words: `i18n.template_gettext` in place of Jinja's newstyle gettext.
TEMPLATE_WORDS = [
    "{{ _('Undo') }}",
    "{{ _('%(name)s is the start player, chosen at set-up.', name=player) }}",
    "{% trans high=player, percent=40, fraction='2/5' %}Alea beats {{ high }} with probability "
    "<strong>{{ percent }}%</strong> ({{ fraction }}).{% endtrans %}",
    "{{ _('100%%') }} {{ _('Undo') ~ player }}",
]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("source", TEMPLATE_WORDS)
def test_a_template_says_its_words_as_jinjas_own_gettext_would(app, source, language):
    """The same words, escaped the same way (a player's name is hostile), as Jinja's newstyle
    gettext through the request's catalogue."""
    jinjas = Environment(extensions=["jinja2.ext.i18n"], autoescape=True)
    jinjas.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: i18n.request_translations().ugettext(s),
        ngettext=lambda s, p, n: i18n.request_translations().ungettext(s, p, n), newstyle=True)
    player = '<b onclick="x()">Ann & Bo</b>'
    with app.test_request_context(headers={"Accept-Language": language}):
        ours = app.jinja_env.from_string(source).render(player=player)
        assert ours == jinjas.from_string(source).render(player=player)
    assert "<b" not in ours and "&lt;b onclick=&#34;x()&#34;&gt;Ann &amp; Bo&lt;/b&gt;" in ours \
        or "player" not in source


def test_a_template_word_is_in_the_players_language(app):
    with app.test_request_context(headers={"Accept-Language": "de"}):
        said = app.jinja_env.from_string(TEMPLATE_WORDS[2]).render(player="Ann")
    assert said == ("Alea überbietet Ann mit einer Wahrscheinlichkeit von <strong>40 %</strong> "
                    "(2/5).")


@pytest.mark.parametrize("game", ["yard", "street"])
def test_a_macros_words_follow_each_requests_language(app, game):
    """The shared macros (`_macros.html`) are made once per worker and imported by every page:
    their words are still looked up in each request's language, one page after another."""
    from tests.conftest import new_table

    url = new_table(app.test_client(), "Ann", "Ben", game=game)
    said = {}
    for language in ("en", "de", "en"):
        page = app.test_client().get(url, headers={"Accept-Language": language})
        nav = re.search(r'<nav class="undo-redo" aria-label="([^"]+)"', page.get_data(as_text=True))
        said.setdefault(language, set()).add(nav.group(1))
    assert said == {"en": {"Undo and redo"}, "de": {"Rückgängig und wiederholen"}}


def test_a_sentence_ending_with_a_name_that_ends_with_a_stop_has_one(app):
    """Found at a table: "Triggered by Jean-Baptiste Lefèvre-D..". A stop inside the words
    stays ("Ann. Bo" is no end), and so does one after any other name."""
    assert Msg("Winner: {name}.", name="Jean-Baptiste L.") == "Winner: Jean-Baptiste L."
    assert Msg("Winner: {name}.", name="Ann") == "Winner: Ann."
    source = "{{ _('Triggered by %(player)s.', player=p) }}"
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert app.jinja_env.from_string(source).render(p="J. B. L.") == "Ausgelöst von J. B. L."
        assert app.jinja_env.from_string(source).render(p="Ann") == "Ausgelöst von Ann."
