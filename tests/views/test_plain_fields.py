"""The `field` macro writes numbers, text and choices out by hand (the WTForms widgets were the
biggest cost of a table page); what it writes must be what WTForms' widgets write."""

import inspect
import re

import pytest
from flask import render_template_string
from flask_wtf import FlaskForm

from companion.views import exchange, fifth_avenue, main, street, urbanisation, yard

MODULES = [exchange, fifth_avenue, main, street, urbanisation, yard]
FORMS = sorted({form for module in MODULES
                for _, form in inspect.getmembers(module, inspect.isclass)
                if issubclass(form, FlaskForm) and form is not FlaskForm},
               key=lambda f: f.__name__)
PLAIN = ("IntegerField", "StringField", "SelectField")
MACRO = '{% from "_macros.html" import field %}{{ field(f) }}'


def attributes(html):
    """The tags of a field with their attributes in any order (the macro adds inputmode)."""
    tags = re.findall(r"<(input|select|option)([^>]*)>([^<]*)", html)
    return [(tag, sorted(re.findall(r'(\w+)(?:="([^"]*)")?', attrs)), text.strip())
            for tag, attrs, text in tags]


def fields(form):
    for field in form:
        if field.type == "FormField":
            yield from fields(field.form)
        elif field.type == "FieldList":
            for entry in field:
                yield from (fields(entry.form) if entry.type == "FormField" else [entry])
        else:
            yield field


@pytest.mark.parametrize("form_class", FORMS, ids=lambda f: f.__name__)
def test_the_macro_writes_what_the_widget_writes(app, form_class):
    with app.test_request_context():
        form = form_class(meta={"csrf": False})
        checked = 0
        for f in fields(form):
            if f.type not in PLAIN or (f.type == "SelectField" and not f.choices):
                continue
            f.process_formdata(["<b>&\"x"]) if f.type == "StringField" else None
            wanted = attributes(str(f()).replace('">', '" inputmode="numeric">', 1)
                                if f.type == "IntegerField" else str(f()))
            assert attributes(render_template_string(MACRO, f=f)) == wanted, f.name
            checked += 1
        assert checked or not any(f.type in PLAIN for f in fields(form))


def test_numbers_text_and_choices_are_written_by_hand(app):
    """Most fields take the macro's own path; a hidden, multiple or decorated one its widget."""
    with app.test_request_context():
        kinds = [main.plain_kind(f) for form in FORMS for f in fields(form(meta={"csrf": False}))]
        assert {"number", "text", "select"} <= set(kinds)
        assert kinds.count(None) < len(kinds) / 2
        seq = urbanisation.LandForm(meta={"csrf": False}).seq
        assert main.plain_kind(seq) is None  # an IntegerField with a hidden widget
