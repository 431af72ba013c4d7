"""A number out of range or left blank gets the app's own words beside its field, in the
players' language, and changes nothing (the browser's tooltip never comes first)."""

import re

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
    refused = act_in_german(client, url, "correct", owner="Tobi", building="park", count=99,
                            reason="nachgezählt")
    assert refused.status_code == 400 and current_seq(client, url) == seq
    field, error_id, said = beside(text(refused), "count")
    assert said == "Zahl muss zwischen 0 und 11 liegen."
    assert 'aria-invalid="true"' in field and f'aria-describedby="{error_id}"' in field
    assert 'value="99"' in field  # what was typed stays, to be mended


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


def test_a_street_effect_with_a_blank_amount_is_not_saved_as_zero(client):
    url = new_table(client, "Mia", "Ola", game="street")
    seq = current_seq(client, url)
    page = url + "play/0"
    data = fresh(client, page) | {"player": "Mia", "project": "office", "street": "Mia",
                                  "site": 1, "income_each_0": "flat", "income_amount_0": ""}
    refused = client.post(page, data=data)
    assert refused.status_code == 422 and current_seq(client, url) == seq
    assert described(text(refused), "income_amount_0") == "say how much it is: a blank is not +0."
    answer = client.post(page, data=data | fresh(client, page), headers=SCRIPT)
    assert answer.get_json()["field"] == "income_amount_0"


def test_a_street_amount_typed_without_its_icon_is_refused_not_dropped(client):
    """Found at a table: a prestige typed, its icon not chosen, and the card was recorded
    without the prestige. An amount of 0 without an icon says nothing, and is taken."""
    url = new_table(client, "Mia", "Ola", game="street")
    seq = current_seq(client, url)
    page = url + "play/0"
    data = fresh(client, page) | {"player": "Mia", "project": "office", "street": "Mia",
                                  "site": 1, "prestige_each_0": "", "prestige_amount_0": "2"}
    refused = client.post(page, data=data)
    assert refused.status_code == 422 and current_seq(client, url) == seq
    assert described(text(refused), "prestige_amount_0") == (
        "choose its icon, or clear the amount: an amount alone counts for nothing.")
    taken = client.post(page, data=data | fresh(client, page) | {"prestige_amount_0": "0"})
    assert taken.status_code == 303 and current_seq(client, url) == seq + 1


def test_every_action_form_is_checked_by_the_app_not_the_browser(client):
    url = new_table(client, "Tobi", "Nina")
    forms = re.findall(r"<form [^>]*data-action[^>]*>", text(client.get(url + "?open=fix")))
    assert len(forms) > 3 and all("novalidate" in form for form in forms)
