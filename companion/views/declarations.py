"""What a game declares of its web layer: its table page and its actions (`GameViews`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import Blueprint

from ..rules.log import REDO, UNDO
from .forms import ActionForm
from .tables import Table

# A game's table page: page(table, error=None, status=200, **forms) -> (html, status); `forms`
# are forms to draw as typed (a refused one) and `opened`, the fold-out to show open.
Page = Callable[..., Any]
Payload = Callable[[Any, Table], Mapping[str, Any]]


@dataclass(frozen=True)
class Action:
    """One action a game's forms send: the event `kind` it records (or a function of the form
    and the table that says which), the form it comes with (a form class, or a function of the
    table that makes it), its `payload` (raising `FieldError` or `RuleError` for input the
    players must change), and, on a refusal, the name the page draws its form under as typed
    (`form_name`) and the fold-out to show open (`opened`: a name, or a function of the form
    and the table). A change fills its form in from the recorded payload as the form reads
    it (`ActionForm.fields_of`)."""

    kind: str | Callable[[Any, Table], str]
    form: type[ActionForm] | Callable[[Table], ActionForm]
    payload: Payload = lambda form, table: {}
    form_name: str | None = None
    opened: str | Callable[[Any, Table], str | None] | None = None

    def form_for(self, table: Table) -> Any:
        return self.form() if isinstance(self.form, type) else self.form(table)

    def kind_for(self, form: Any, table: Table) -> str:
        return self.kind if isinstance(self.kind, str) else self.kind(form, table)

    def refused_page(self, page: Page, form: Any, table: Table) -> Page:
        """The page a refusal of this action shows: its form as typed, its fold-out open."""
        as_typed: dict[str, Any] = {self.form_name: form} if self.form_name else {}
        opened = self.opened(form, table) if callable(self.opened) else self.opened
        return partial(page, **as_typed, **({"opened": opened} if opened else {}))


def nothing_of_the_phone(table: Table) -> Hashable:
    return ()


@dataclass(frozen=True)
class GameViews:
    """A game's web layer: its table page, its actions by the last part of their URL, a
    blueprint for any page of its own (the 5th Avenue board, the street card builder), and
    what its table page shows of the phone beyond the table (`phone`: its saved board, the
    cards it saw at its earlier tables), under which the page is kept for phones alike
    (`pages.table_page`)."""

    page: Page
    actions: Mapping[str, Action]
    blueprint: Blueprint | None = None
    phone: Callable[[Table], Hashable] = nothing_of_the_phone


# Undo and redo: every game's, carrying nothing.
SHARED = {"undo": Action(UNDO, ActionForm), "redo": Action(REDO, ActionForm)}
