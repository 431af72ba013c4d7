"""English and German: the players' language, the catalogues, and `Msg`s from the rules.

The catalogues are `translations/de/<area>.po`, one per area of the code (`platform`, and one per
game or feature: the area `x` is `companion/**/x*.py` and `templates/x/`), so that each area's
words are kept together. At start they are merged and compiled into one `.mo` file when any
`.po` is newer. `python -m companion.i18n extract <area>` brings an area's catalogue up to date
with the code, keeping the translations it has.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator
from datetime import UTC, date, datetime
from functools import cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from babel.dates import format_date
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from flask import Flask, g, has_app_context, has_request_context, request, session
from flask_babel import Babel, LazyString, get_locale, get_translations
from flask_babel import gettext as _gettext
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup, escape

from .rules.text import Msg, Plural, filled, one_stop, signed, terms, whole

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "translations"
COMPILED = SOURCES / ".compiled"
LANGUAGES = {"en": "English", "de": "Deutsch"}
KEYWORDS = {
    "_": None, "gettext": None, "lazy_gettext": None, "_l": None, "Msg": None, "Account": None,
    "ngettext": (1, 2), "lazy_ngettext": (1, 2), "Plural": (1, 2),
}
babel = Babel()


def init_app(app: Flask) -> None:
    """Flask-Babel with the merged catalogues; `Msg`s are translated wherever a template
    prints them."""
    compile_catalogues()
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(COMPILED))
    babel.init_app(app, locale_selector=choose_language)
    install_template_gettext(app)
    app.jinja_env.finalize = translate
    app.jinja_env.filters["translate"] = translate
    app.jinja_env.filters["day"] = day
    app.jinja_env.filters["when"] = when
    app.jinja_env.filters["signed"] = signed
    app.jinja_env.filters["terms"] = terms
    app.jinja_env.filters["whole"] = whole
    app.jinja_env.filters["soft_hyphens"] = soft_hyphens
    app.jinja_env.globals.update(languages=LANGUAGES, current_language=current_language)


def install_template_gettext(app: Flask) -> None:
    """Templates look words up in the request's catalogue, found once per request: Flask-Babel's
    own callables find the catalogue again for every word, a third of a page's cost. `_()` and
    `{% trans %}` go straight to `template_gettext`."""
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: request_translations().ugettext(s),
        ngettext=lambda s, p, n: request_translations().ungettext(s, p, n),
        pgettext=lambda c, s: request_translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: request_translations().unpgettext(c, s, p, n),
        newstyle=True,
    )
    app.jinja_env.globals.update(gettext=template_gettext, _=template_gettext)


@pass_eval_context
def template_gettext(context: EvalContext, string: str, **variables: Any) -> str:
    """A template's words in the players' language, as Jinja's newstyle gettext gives them
    (HTML-safe where the template escapes, its `%(name)s` filled with escaped values, `%%` a
    percent sign), in one call instead of three: a word without values and without a percent
    sign is not formatted (formatting would leave it as it is); a value that is a rules `Msg`
    is said in the players' language too. A table page says about 150 words, a tenth of its
    making."""
    said: str = request_translations().ugettext(string)
    if context.autoescape:
        said = Markup(said)
    if not variables:
        return said % variables if "%" in said else said
    values = {name: translate(value) for name, value in variables.items()}
    return one_stop(said, values, "%%(%s)s") % values


def choose_language() -> str:
    """The language chosen with the switch on every page, else the browser's, else English."""
    chosen = session.get("language")
    if chosen in LANGUAGES:
        return str(chosen)
    return request.accept_languages.best_match(LANGUAGES, default="en") or "en"


def current_language() -> str:
    return str(get_locale() or "en")


def day(stamp: str) -> str:
    """The date of an ISO 8601 time as the players' language writes it ("Nov 24, 2026",
    "24.11.2026"); prints show it, so that nobody reads an ISO date."""
    try:
        when = date.fromisoformat(stamp[:10])
    except ValueError:
        return stamp[:10]
    return format_date(when, "medium", locale=current_language())


# The cookie in which app.js sends the phone's time zone (an IANA name such as "Europe/Berlin"):
# a printed sheet has no clock of the phone to show its times in.
ZONE_COOKIE = "tz"


@cache
def known_zones() -> frozenset[str]:
    """The IANA zones a browser names ("Europe/Berlin", "UTC"): not "localtime", which would be
    this computer's own."""
    return frozenset(z for z in available_timezones() if "/" in z or z == "UTC")


def phone_zone() -> ZoneInfo | None:
    """The time zone the phone sent (`ZONE_COOKIE`); None when it sent none, or one this
    computer does not know (a tampered cookie is read as none: the times are said in UTC)."""
    name = request.cookies.get(ZONE_COOKIE, "") if has_request_context() else ""
    if not name or len(name) > 64 or name not in known_zones():
        return None
    try:
        return ZoneInfo(name)
    except (ValueError, OSError):
        return None


def on_the_phone(stamp: str) -> tuple[datetime, ZoneInfo | None]:
    """An ISO 8601 time (the app writes them in UTC) in the phone's time zone, and that zone
    (None: UTC, the phone sent none). ValueError if it is no time."""
    moment = datetime.fromisoformat(stamp)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    zone = phone_zone()
    for there in (zone, None):  # the years 1 and 9999, moved past their ends: in UTC, or as
        try:  # written when UTC is past them too
            return moment.astimezone(there or UTC), there
        except (OverflowError, ValueError):
            continue
    return moment, None


def phone_day(stamp: str) -> str:
    """The date (2026-12-07) of an ISO time in the phone's time zone, as the score sheet says
    it: a results sheet and a file are named by it (found by an audit: a game begun at 10:29
    in Auckland was 2026-12-06 there, by UTC)."""
    try:
        return on_the_phone(stamp)[0].date().isoformat()
    except (TypeError, ValueError):
        return str(stamp)[:10]


def when(stamp: str, part: str = "time") -> str:
    """An ISO 8601 time (the app writes them in UTC) in the phone's time zone, with the zone
    said: "Nov 25, 2026 12:50 (Europe/Berlin)"; in UTC, said so, when the phone sent no zone
    ("Nov 25, 2026 11:50 UTC"). `part="day"`: the date there only."""
    try:
        local, zone = on_the_phone(stamp)
    except (TypeError, ValueError):
        return str(stamp)[:16]
    said = format_date(local.date(), "medium", locale=current_language())
    if part == "day":
        return said
    clock = local.strftime("%H:%M")
    return f"{said} {clock} ({zone.key})" if zone else f"{said} {clock} UTC"


# Where long words may break on a narrow screen (soft hyphens), in both languages: a street
# card's on a narrow site; Urbanisation's at 360 px in German (found at a table:
# "Steuereintreibe/r", "Fabriknumme/r", "Schlusswertun/g").
SOFT_HYPHENS = {"apartment": "apart\u00adment", "service": "ser\u00advice",
                "Dienstleistung": "Dienst\u00adleis\u00adtung", "geschoss": "\u00adge\u00adschoss",
                "Wohnung": "Woh\u00adnung", "Geschenke": "Ge\u00adschen\u00adke",
                "Geschenk": "Ge\u00adschenk",
                "Bauplatz": "Bau\u00adplatz", "darunter": "dar\u00adun\u00adter",
                "Steuereintreiber": "Steuer\u00adein\u00adtreiber",
                "Fabriknummer": "Fabrik\u00adnummer",
                "Schlusswertung": "Schluss\u00adwertung",
                "Verwaltungsgebäude": "Verwaltungs\u00adgebäude",
                "Erfindungskarten": "Erfindungs\u00adkarten", "Erfindungen": "Erfin\u00addungen",
                "Bürgermeister": "Bürger\u00admeister",
                # factory names, in a tracking card's narrow column (found at a table:
                # "Steelwor/ks", "Compan/y" with four players at 390 px)
                "Steelworks": "Steel\u00adworks", "Company": "Com\u00adpany",
                "Factory": "Fac\u00adtory", "Electric": "Elec\u00adtric",
                "Refinery": "Re\u00adfin\u00adery", "Pottery": "Pot\u00adtery",
                "Coalmine": "Coal\u00admine", "Weaving": "Weav\u00ading",
                "Stahlwerk": "Stahl\u00adwerk", "Autofabrik": "Auto\u00adfabrik",
                "Elektrizitätswerk": "Elek\u00adtri\u00adzi\u00adtäts\u00adwerk",
                "Sägewerk": "Säge\u00adwerk",
                "Ölraffinerie": "Öl\u00adraf\u00adfi\u00adne\u00adrie",
                "Anwaltskanzlei": "Anwalts\u00adkanz\u00adlei",
                "Softwarefirma": "Software\u00adfirma", "Weberei": "Webe\u00adrei",
                "Töpferei": "Töp\u00adfe\u00adrei", "Textilfabrik": "Textil\u00adfabrik",
                "Kohlebergwerk": "Kohle\u00adberg\u00adwerk"}
SOFT_WORDS = re.compile("|".join(map(re.escape, SOFT_HYPHENS)))


def soft_hyphens(words: Any) -> str:
    """Words in the players' language, with soft hyphens where long ones may break (a page's,
    never a printed sheet's: a PDF's text keeps its words whole)."""
    return SOFT_WORDS.sub(lambda found: SOFT_HYPHENS[found.group(0)], text(words))


def translate(value: Any) -> Any:
    """A `Msg` in the players' language (its values translated too); anything else as it is."""
    if not isinstance(value, Msg):
        return value
    translations = request_translations()
    if isinstance(value, Plural):
        template = translations.ungettext(value.template, value.plural, value.number)
    else:
        template = translations.ugettext(value.template)
    if not value.params:
        return template
    return filled(template, {key: translate(v) for key, v in value.params.items()})


def request_translations() -> Any:
    """The catalogue for this request's language, looked up once (a page prints hundreds of
    `Msg`s)."""
    translations = g.get("translations")
    if translations is None:
        translations = g.translations = get_translations()
    return translations


class LazyText(LazyString):  # type: ignore[misc]
    """Words looked up when they are shown (forms are often built before a request has chosen
    its language). They are text, never HTML: flask_babel's `LazyString` tells Jinja it is
    HTML as it stands (`__html__` returns it unescaped), so a player's name in a label such as
    "%(player)s: cards" would reach the page as live markup. This one is escaped."""

    def __html__(self) -> Markup:
        return escape(str(self))


def lazy_gettext(string: str, **variables: Any) -> LazyText:
    """`_l`: a translatable string, looked up when shown, escaped in a page."""
    return LazyText(request_gettext, string, **variables)


def request_gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's `gettext` through the request's catalogue, found once per request (a form
    shows dozens of labels and choices); outside an app context, Flask-Babel's own."""
    if not has_app_context():
        return str(_gettext(string, **variables))
    said = request_translations().ugettext(string)
    return str(said % variables) if variables else str(said)


def lazy_text(value: Any) -> LazyText:
    """A rules `Msg` as a form label or choice, said in the language of the request that
    shows it."""
    return LazyText(text, value)


def text(value: Any) -> str:
    """`translate` for Python code: always a plain string."""
    return str(translate(value))


# Catalogues ---------------------------------------------------------------------------------


def compile_catalogues() -> None:
    """Merge every `translations/<lang>/*.po` into one compiled catalogue, if any is newer."""
    for language in LANGUAGES:
        sources = sorted((SOURCES / language).glob("*.po"))
        target = COMPILED / language / "LC_MESSAGES" / "messages.mo"
        if not sources or is_fresh(target, sources):
            continue
        merged = Catalog(locale=language)
        for source in sources:
            with source.open("rb") as f:
                for message in read_po(f, locale=language):
                    if message.id and message.string and not message.fuzzy:
                        merged[message.id] = message
        write_atomically(target, merged)


def is_fresh(target: Path, sources: list[Path]) -> bool:
    return target.exists() and target.stat().st_mtime >= max(s.stat().st_mtime for s in sources)


def write_atomically(target: Path, catalog: Catalog) -> None:
    """Several server processes may start at once: each writes its own file, then renames."""
    target.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    temporary = target.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_bytes(buffer.getvalue())
    os.replace(temporary, target)


def area_of(path: Path) -> str:
    """The catalogue a source file's words belong to."""
    relative = path.relative_to(ROOT)
    for area in areas():
        if area != "platform" and (
            relative.parts[:2] == ("templates", area)
            or (relative.parts[0] == "companion" and relative.name.startswith(area))
        ):
            return area
    return "platform"


def areas() -> list[str]:
    """`platform` and every area with its own templates folder or catalogue, longest first."""
    folders = {p.name for p in (ROOT / "templates").iterdir() if p.is_dir() and p.name != "pdf"}
    catalogues = {p.stem for p in (SOURCES / "de").glob("*.po")}
    return sorted(folders | catalogues | {"platform"}, key=len, reverse=True)


def source_files() -> Iterator[tuple[Path, str]]:
    """Every file that may hold words for the players, with its extraction method."""
    for path in sorted((ROOT / "companion").rglob("*.py")):
        yield path, "python"
    for path in sorted((ROOT / "templates").rglob("*.html")):
        yield path, "jinja2.ext:babel_extract"


def extract(area: str) -> Catalog:
    """The messages the code of one area marks for translation."""
    template = Catalog()
    options = {"extensions": "jinja2.ext.do", "trimmed": "true"}
    for path, method in source_files():
        if area_of(path) != area:
            continue
        for found in extract_from_file(method, str(path), keywords=KEYWORDS, options=options):
            line, message, comments, context = found
            place = [(str(path.relative_to(ROOT)), line)]
            template.add(message, None, place, auto_comments=comments, context=context)
    return template


def update(area: str, language: str = "de") -> Path:
    """Bring `translations/<language>/<area>.po` up to date with the code; translations of
    messages still in use are kept, new ones are left empty (and listed by the tests)."""
    path = SOURCES / language / f"{area}.po"
    path.touch()
    with path.open("rb") as f:
        catalog = read_po(f, locale=language)
    catalog.update(extract(area), no_fuzzy_matching=True)
    catalog.obsolete.clear()
    for message in shared_words(area, language):  # translated once, in the platform's
        del catalog[message]
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, no_location=True, omit_header=True, sort_output=True)
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_bytes(buffer.getvalue())
    os.replace(temporary, path)  # never a half-written catalogue for a server starting now
    return path


def shared_words(area: str, language: str) -> list[str]:
    """The messages of a game's (or another area's) code that the platform's catalogue already
    translates: the catalogues are merged (`compile_catalogues`), so they are found there."""
    if area == "platform":
        return []
    with (SOURCES / language / "platform.po").open("rb") as f:
        return [m.id for m in read_po(f, locale=language) if m.id and all(m.string or ("",))]


def main(argv: list[str]) -> None:
    if len(argv) != 2 or argv[0] != "extract":
        sys.exit("usage: python -m companion.i18n extract <area>")
    path = update(argv[1])
    with path.open("rb") as f:
        missing = [m.id for m in read_po(f) if m.id and not all(m.string or ("",))]
    print(f"{path.relative_to(ROOT)}: {len(missing)} without a translation")
    for message in missing:
        print("  ", message)


if __name__ == "__main__":
    main(sys.argv[1:])
