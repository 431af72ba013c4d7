"""A page's forms as a browser would send them: each enabled submit button of each form not
hidden, with the form's fields filled in as the page fills them (hidden values, typed values,
ticked boxes, chosen options). A radio group or a list with nothing chosen gets an option
chosen by the caller (`Choose`), as a player would tap one."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

# Tags without an end tag: they open no element that could hide what follows.
VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr", "col", "area", "base"}
# Which of a radio group's (or a list's) options to send: choose(name, options) -> option.
Choose = Callable[[str, list[dict[str, Any]]], dict[str, Any]]


@dataclass
class Form:
    action: str
    method: str = "get"
    fields: list[dict[str, Any]] = field(default_factory=list)
    buttons: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Submission:
    """What one tap on a submit button sends: where, the fields (in order, names may repeat)
    and the button's words."""

    action: str
    data: list[tuple[str, str]]
    words: str


class _Parser(HTMLParser):
    """Forms, their fields and buttons; an element inside a `hidden` one is hidden too."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.hidden: list[bool] = []
        self.select: dict[str, Any] | None = None
        self.words: dict[str, Any] | None = None  # the option or button whose words come next

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        hidden = "hidden" in a or bool(self.hidden and self.hidden[-1])
        if tag not in VOID:
            self.hidden.append(hidden)
        if tag == "form":
            self.form = Form(a.get("action", ""), a.get("method", "get").lower())
            if not hidden:
                self.forms.append(self.form)
        elif self.form is None or hidden:
            return
        elif tag == "input" and a.get("type") == "submit":
            self.form.buttons.append({**a, "words": a.get("value", "")})
        elif tag == "input":
            self.form.fields.append({**a, "tag": "input", "type": a.get("type", "text")})
        elif tag == "button" and a.get("type", "submit") == "submit":
            self.words = {**a, "words": ""}
            self.form.buttons.append(self.words)
        elif tag == "select":
            self.select = {**a, "tag": "select", "options": []}
            self.form.fields.append(self.select)
        elif tag == "option" and self.select is not None:
            self.words = {**a, "words": ""}
            self.select["options"].append(self.words)
        elif tag == "textarea":
            self.form.fields.append({**a, "tag": "textarea"})

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.hidden:
            self.hidden.pop()
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        if tag in ("option", "button"):
            self.words = None

    def handle_data(self, data: str) -> None:
        if self.words is not None:
            self.words["words"] += data


def forms(html: str) -> list[Form]:
    """The forms of a page that are not hidden."""
    parser = _Parser()
    parser.feed(html)
    return parser.forms


def submissions(form: Form, choose: Choose) -> Iterator[Submission]:
    """One submission per enabled submit button of `form`, its fields as the page fills them:
    a text or number field sends its value (else its least allowed, else nothing), a check box
    its value if ticked, a radio group its ticked option (else `choose`'s), a list its selected
    option (else `choose`'s)."""
    data: list[tuple[str, str]] = []
    radios: dict[str, list[dict[str, Any]]] = {}
    for f in form.fields:
        name = f.get("name")
        if not name or "disabled" in f:
            continue
        if f["tag"] == "select":
            options = [o for o in f["options"] if "disabled" not in o]
            chosen = [o for o in options if "selected" in o] or (
                [choose(name, options)] if options else [])
            data += [(name, o.get("value", o["words"])) for o in chosen]
        elif f["type"] == "radio":
            radios.setdefault(name, []).append(f)
        elif f["type"] == "checkbox":
            if "checked" in f:
                data.append((name, f.get("value") or "on"))
        else:
            data.append((name, f.get("value") or f.get("min") or ""))
    for name, group in radios.items():
        ticked = [f for f in group if "checked" in f] or [choose(name, group)]
        data.append((name, ticked[0].get("value") or "on"))
    for button in form.buttons:
        if "disabled" in button:
            continue
        sent = [*data, (button["name"], button.get("value", ""))] if button.get("name") else data
        where = (button.get("formaction") or form.action).split("#")[0]  # a browser sends no
        yield Submission(where, sent,  # fragment (it scrolls to it on the answer's page)
                         " ".join(button["words"].split()))
