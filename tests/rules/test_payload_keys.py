"""Every action kind of every game declares the keys of its payload (`@reads`), the declaration
names every key its handler reads, and every event the app's tests log holds only declared keys:
an imported file keeps these keys and drops any other."""

import ast
import inspect
import textwrap

import pytest

from companion.rules import GAMES
from tests.tables import FINISHED

HANDLERS = [(slug, name) for slug, game in GAMES.items()
            for name in dir(game.state_class) if name.startswith("_apply_")]


@pytest.mark.parametrize(("slug", "name"), HANDLERS)
def test_each_kind_declares_the_keys_its_handler_reads(slug, name):
    table = GAMES[slug].state_class
    declared = GAMES[slug].payload_keys(name.removeprefix("_apply_"))
    assert declared is not None and isinstance(declared, frozenset)
    tree = ast.parse(textwrap.dedent(inspect.getsource(getattr(table, name))))
    read = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get" and getattr(node.func.value, "id", "") == "payload"):
            read.add(node.args[0].value)
        if isinstance(node, ast.Subscript) and getattr(node.value, "id", "") == "payload":
            read.add(node.slice.value)
    assert read <= declared, read - declared


def test_an_unknown_kind_has_no_keys():
    assert GAMES["yard"].payload_keys("dance") is None


@pytest.mark.parametrize("slug", sorted(FINISHED))
def test_every_logged_event_holds_only_declared_keys(slug):
    for kind, payload in FINISHED[slug][1]:
        if kind not in ("undo", "redo"):
            assert set(payload) <= GAMES[slug].payload_keys(kind), (kind, payload)
