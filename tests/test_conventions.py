"""Conventions that keep the project's shape: pure rules, one slug everywhere, CSRF on."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app import create_app
from companion.rules import GAMES
from companion.views import game_views
from companion.views.declarations import GameViews

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"flask", "flask_wtf", "sqlite_utils", "sqlite3", "weasyprint", "wtforms"}


@pytest.mark.parametrize("path", sorted((ROOT / "companion" / "rules").glob("*.py")),
                         ids=lambda p: p.name)
def test_rules_are_pure(path):
    tree = ast.parse(path.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN


def test_every_game_has_its_test_data_where_the_tests_read_it():
    """Each test that goes over the games reads a game's data from one of these tables: a game
    added to GAMES without its entry is named here, not found as a KeyError in some test."""
    from benchmarks.games import SCRIPTS
    from tests.tables import FINISHED, OPENINGS, PAGES

    tables = {"tests/tables.py FINISHED": FINISHED, "tests/tables.py PAGES": PAGES,
              "tests/tables.py OPENINGS": OPENINGS,
              "benchmarks/games.py SCRIPTS": SCRIPTS}
    missing = [f"{slug}: {where}" for slug in sorted(GAMES)
               for where, table in tables.items() if slug not in table]
    assert not missing, "a game's test data is missing: " + "; ".join(missing)


def test_importing_the_rules_loads_none_of_the_web():
    """The rules are imported alone, as a checker or another program would: the package above
    them builds no app (issue 47: `mypy companion/rules` went through Flask and the views)."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, companion.rules; print(*sorted(sys.modules))"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    assert not {name.split(".")[0] for name in loaded} & FORBIDDEN
    assert not [name for name in loaded if name.startswith(("companion.views", "companion.app"))]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_game_has_its_views_templates_and_tests(slug, app):
    assert isinstance(game_views(slug), GameViews)  # companion/views/<slug>.py
    for template in ("table.html", "sheet.html", "pad.html"):
        assert (ROOT / "templates" / slug / template).exists()
    assert (ROOT / "companion" / "rules" / f"{slug}.py").exists()
    assert (ROOT / "tests" / "rules" / f"test_{slug}.py").exists()
    assert (ROOT / "static" / f"{slug}.css").exists()  # only its table pages load it
    assert (ROOT / "translations" / "de" / f"{slug}.po").exists()


def test_csrf_is_enforced_on_every_form(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite")})
    client = app.test_client()
    for url in ("/new", "/yard/x/buy", "/yard/x/undo", "/yard/x/final"):
        response = client.post(url, data={"game": "yard", "players-0-name": "A"})
        assert response.status_code == 400, url
        assert "nothing was changed" in response.get_data(as_text=True)
    forged = client.post("/new", data={"csrf_token": "forged", "players-0-name": "A"})
    assert forged.status_code == 400


def test_the_secret_key_is_generated_once_into_instance(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "inst"))
    first = create_app({"DATABASE": str(tmp_path / "db.sqlite")}).secret_key
    second = create_app({"DATABASE": str(tmp_path / "db.sqlite")}).secret_key
    key = tmp_path / "inst" / "secret_key"
    assert first == second == key.read_text().strip() and len(first) == 64
    assert key.stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("path", sorted((ROOT / "companion").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_words_looked_up_later_are_text_not_html(path):
    """flask_babel's lazy strings pass for HTML in a page (a player's name in a label would be
    live markup): only `companion.i18n` may use them, to make its escaped `LazyText`."""
    if path.name == "i18n.py":
        return
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "flask_babel":
            assert not {a.name for a in node.names} & {"lazy_gettext", "lazy_ngettext",
                                                         "LazyString"}, path


def test_every_test_module_has_its_own_name():
    """pytest imports test modules by their file name (the test folders are not packages): two
    modules of one name stop the whole run before it starts."""
    names = [p.name for p in (ROOT / "tests").rglob("test_*.py")]
    assert sorted({n for n in names if names.count(n) > 1}) == []


def test_no_test_module_imports_another():
    """Shared fixtures and helpers live in conftest.py or a plain module (tests/tables.py,
    tests/browser/helpers.py, ...): a test module imported by another runs twice under two names
    and ties the two together."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue
            if any(m.split(".")[-1].startswith("test_") for m in modules):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
