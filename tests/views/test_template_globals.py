"""Every template has the app's globals in one dict of its own (`app.Templates`): each page is
made with every global the app sets, and an import costs no name-by-name comparison."""

import pytest

from tests.conftest import new_table


def test_every_template_sees_every_global(app):
    """Each global the app and its extensions set (url_for, csrf_token, act_url, _, ...) is in
    every template's globals, the same object: none was set after a template was loaded."""
    env = app.jinja_env
    assert {"url_for", "csrf_token", "act_url", "_", "slot", "card_html"} <= env.globals.keys()
    for name in env.list_templates(extensions=["html"]):
        template = env.get_template(name)
        assert type(template.globals) is dict, name
        missing = [key for key, value in env.globals.items()
                   if template.globals.get(key) is not value]
        assert missing == [], (name, missing)


def test_a_template_global_stays_the_templates_own(app):
    """A template's own globals (`get_template(..., globals=...)`) do not reach the
    environment's or another template's."""
    env = app.jinja_env
    own = env.from_string("{{ mine }}", globals={"mine": "only here"})
    assert own.render() == "only here"
    assert "mine" not in env.globals
    assert env.from_string("{{ mine is defined }}").render() == "False"


@pytest.mark.parametrize("game", ["yard", "fifth_avenue", "street", "urbanisation"])
def test_a_table_page_is_made_with_its_imported_macros(client, game):
    """The pages import their macros (`{% from "_macros.html" import ... %}`): an action's
    form, with its CSRF token and one-time key, is drawn by one."""
    url = new_table(client, "Ann", "Ben", game=game)
    page = client.get(url).get_data(as_text=True)
    assert 'name="csrf_token"' in page and 'name="key"' in page and 'class="undo-redo"' in page
