"""A number out of range or left blank gets the app's own words beside its field, in the
players' language, and changes nothing (the browser's tooltip never comes first)."""

import re

import pytest

from tests.conftest import SCRIPT, act, act_in_german, current_seq, fresh, new_table, text


def described(page, field):
    """The words the field's input is described by (said under its row, as the street's
    stepper says them), and the input."""
    found = re.search(rf'<input[^>]*name="{field}"[^>]*aria-describedby="([^"]+)"[^>]*>', page)
    assert found, f"no description of {field}"
    words = re.search(rf'<span class="field-error" id="{found.group(1)}">([^<]*)</span>', page)
    assert words, f"no words for {field}"
    return words.group(1)


def beside(page, field):
    """The field's input and the words shown right under it."""
    found = re.search(rf'(<(?:input|select)[^>]*name="{field}"[^>]*>)\s*'
                      rf'<span class="field-error" id="([^"]+)">([^<]*)</span>', page)
    assert found, f"no message beside {field}"
    return found.group(1), found.group(2), found.group(3)


def test_an_out_of_range_number_is_refused_beside_its_field_in_german(client):
    url = new_table(client, "Tobi", "Nina")
    seq = current_seq(client, url)
    refused = act_in_german(client, url, "correct", owner="Tobi", building="park", count=100,
                            reason="nachgezählt")
    assert refused.status_code == 400 and current_seq(client, url) == seq
    field, error_id, said = beside(text(refused), "count")
    assert said == "Zahl muss zwischen 0 und 99 liegen."
    assert 'aria-invalid="true"' in field and f'aria-describedby="{error_id}"' in field
    assert 'value="100"' in field  # what was typed stays, to be mended


def test_a_blank_number_is_refused_beside_its_field(client):
    url = new_table(client, "Tobi", "Nina")
    seq = current_seq(client, url)
    refused = act(client, url, "deck", left="", reason="counted the deck")
    assert refused.status_code == 400 and current_seq(client, url) == seq
    assert beside(text(refused), "left")[2] == "This field is required."


def test_app_js_is_told_which_field_to_show_the_refusal_beside(client):
    url = new_table(client, "Tobi", "Nina")
    data = fresh(client, url) | {"left": "51", "reason": "counted"}
    answer = client.post(url + "deck", data=data, headers=SCRIPT)
    assert answer.status_code == 400
    assert answer.get_json() == {"refused": "Cards left in the deck: Number must be between 0 "
                                            "and 50.", "field": "left"}
    ahead = client.post(url + "deck", data=data | {"seq": "7", "left": "40"}, headers=SCRIPT)
    assert ahead.status_code == 409 and "field" not in ahead.get_json()  # not a field's fault


@pytest.mark.parametrize(("effect", "words"), [
    ({"income_each_0": "flat", "income_amount_0": ""}, "say how much it is: a blank is not +0."),
    # Found at a table: a prestige typed, its icon not chosen, and the card was recorded
    # without the prestige.
    ({"prestige_each_0": "", "prestige_amount_0": "2"},
     "choose its icon, or clear the amount: an amount alone counts for nothing."),
], ids=["blank amount", "amount without its icon"])
def test_a_street_effect_half_described_is_refused_beside_its_amount(client, effect, words):
    url = new_table(client, "Mia", "Ola", game="street")
    seq = current_seq(client, url)
    page = url + "play/0"
    data = fresh(client, page) | {"player": "Mia", "project": "office", "street": "Mia",
                                  "site": 1, **effect}
    refused = client.post(page, data=data)
    assert refused.status_code == 422 and current_seq(client, url) == seq
    amount = next(name for name in effect if "_amount_" in name)
    assert described(text(refused), amount) == words
    answer = client.post(page, data=data | fresh(client, page), headers=SCRIPT)
    assert answer.get_json()["field"] == amount


def test_an_amount_of_0_without_its_icon_is_taken(client):
    url = new_table(client, "Mia", "Ola", game="street")
    page = url + "play/0"
    data = fresh(client, page) | {"player": "Mia", "project": "office", "street": "Mia",
                                  "site": 1, "prestige_each_0": "", "prestige_amount_0": "0"}
    assert client.post(page, data=data).status_code == 303


def test_every_action_form_is_checked_by_the_app_not_the_browser(client):
    url = new_table(client, "Tobi", "Nina")
    forms = re.findall(r"<form [^>]*data-action[^>]*>", text(client.get(url + "?open=fix")))
    assert len(forms) > 3 and all("novalidate" in form for form in forms)
