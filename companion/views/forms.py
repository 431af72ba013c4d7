"""The form every action comes with: its screen's last event, its one-time key, its errors."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Mapping
from typing import Any

import wtforms
from flask import g, request
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Regexp
from wtforms.widgets import HiddenInput

from ..i18n import lazy_gettext as _l
from ..rules import RuleError
from ..rules.common import MAX_REASON, clean_text
from ..rules.log import MAX_EVENTS

# An action form's one-time key: when its page was made (milliseconds, hex) and 96 random bits.
ACTION_KEY = re.compile(r"([0-9a-f]{1,12})\.[A-Za-z0-9_-]{16}")


def new_action_key() -> str:
    """A fresh key for one rendered action form (see `actions.perform`), which says when its
    page was made: every key of one page the same time (`page_made`)."""
    return f"{page_made():x}.{secrets.token_urlsafe(12)}"


def page_made() -> int:
    """When this request's page was made (its first action key), in ms: the page an action's
    answer loaded is known by it (`taps.ghost_tap`)."""
    made: int = g.setdefault("page_made", time.time_ns() // 1_000_000)
    return made


def key_page(key: str) -> int:
    """When the page of an action form's key (`ACTION_KEY`, validated) was made, in ms."""
    return int(key.partition(".")[0], 16)


def key_made(key: str) -> float:
    """When the page of an action form's key (`ACTION_KEY`, validated) was made: Unix seconds."""
    return key_page(key) / 1000


class IntegerField(wtforms.IntegerField):
    """A whole number as a phone's number field sends it: ASCII digits, after a minus sign at
    most (int() would read "1_0" as 10, "+5" as 5 and "٣" as 3, none of which a number field
    sends: a tampered form's). Every form's numbers are read with it."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist and not WHOLE.fullmatch(str(valuelist[0]).strip()):
            valuelist = ["-"]  # refused as WTForms refuses what is no number, in its words
        super().process_formdata(valuelist)


WHOLE = re.compile(r"-?[0-9]+")


class ActionForm(FlaskForm):
    """Every form that acts on a table names the last event its screen showed, and carries the
    one-time key its page was rendered with. `PAYLOAD_FIELDS`: the form's field for a payload
    key of another name (where the rules' refusal of that key is said, `actions.rule_refused`,
    and where a change fills in its value, `fields_of`)."""

    PAYLOAD_FIELDS: dict[str, str] = {}

    @classmethod
    def fields_of(cls, payload: Mapping[str, Any]) -> dict[str, Any]:
        """A recorded action's payload as this form's fields, for a change: each value under
        its field's name."""
        return {cls.PAYLOAD_FIELDS.get(key, key): value for key, value in payload.items()}

    # Labelled, though hidden: a field without a label asks WTForms' own catalogue for one,
    # which Flask-WTF loads from disk once per request. No table holds more than MAX_EVENTS
    # events, so no screen shows a later one (and a larger number would not fit SQLite).
    seq = IntegerField("Seq", widget=HiddenInput(),
                       validators=[InputRequired(), NumberRange(min=0, max=MAX_EVENTS)])
    key = StringField("Key", widget=HiddenInput(),
                      validators=[InputRequired(), Regexp(f"^{ACTION_KEY.pattern}\\Z")])

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields' own checks, and none sent twice with different values: a form the page
        never makes, whose first value WTForms would read (found in an audit: a purchase row
        with a second player field recorded "Ben bought a park" for Ann's tap)."""
        valid = super().validate(extra_validators)
        for field in self:
            if len(set(request.form.getlist(field.name))) > 1:
                field.errors = [*field.errors, _("two different values were sent: reload the "
                                                 "page and try again.")]
                valid = False
        return valid


class Sent(InputRequired):
    """A choice the form always sends (one is chosen when the page is made): refused if it was
    taken out of the form, not read as its default. Without the `required` flag (a required
    list must start with an empty choice, which these do not have)."""

    def __init__(self, message: Any = None):
        super().__init__(message)
        self.field_flags: dict[str, Any] = {}


def cleaned(text: str | None) -> str | None:
    """Free text as the players typed it, cleaned as names are (`clean_text`: no control,
    invisible or direction-changing characters, no surrounding or doubled spaces)."""
    return clean_text(text) if text else text


# The most digits a typed count may have: no count at a table comes near it, and int() refuses
# a text of more than 4,300 digits (a server error, not words).
MAX_DIGITS = 9


def digits(text: str) -> bool:
    """Whether typed text is a whole number int() reads: ASCII digits only ("²" and "٣" are
    digits to str.isdigit, and a server error in int()), at most MAX_DIGITS of them."""
    return len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def reason_field(id: str | None = None) -> StringField:
    """What a correction is for, in the players' words: required, the history shows it. `id`
    sets its element's id apart where two such forms share a page (else it is "reason")."""
    return StringField(_l("What for"), filters=[cleaned], id=id,
                       validators=[DataRequired(_l("write a few words (the history shows them "
                                                   "with the amounts).")),
                                   Length(max=MAX_REASON)])


class FieldError(RuleError):
    """The players' input refused by a form's payload, about one field: said beside it."""

    def __init__(self, field: Any, message: Any):
        super().__init__(message)
        self.field = field


def form_error(form: FlaskForm) -> str:
    """The first validation error of a form, in words, naming the field."""
    for field in form:
        if field.errors:
            error = field.errors[0] if isinstance(field.errors, list) else field.errors
            if field.name in ("seq", "key"):
                return _("This form is incomplete. Reload the page and try again.")
            if field.name == "csrf_token":
                return _("This form has expired. Reload the page and try again.")
            return f"{field.label.text}: {error}"
    return _("This form is incomplete. Reload the page and try again.")


def field_at_fault(form: FlaskForm) -> str | None:
    """The name of the field `form_error` speaks of, if the players filled it in (not a
    hidden one)."""
    first = next((field.name for field in form if field.errors), None)
    return None if first in ("seq", "key", "csrf_token") else first
