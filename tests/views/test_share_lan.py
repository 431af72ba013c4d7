"""The Share page says plainly when its links name this computer itself (the app started
without `--lan` and opened by 127.0.0.1 or localhost): no other phone can open them; and how to
start the app so that they can (issue 23, "Share")."""

import pytest

from tests.conftest import GERMAN, new_table, text

SAID = "No other phone can open these links yet"


@pytest.mark.parametrize("base", ["http://127.0.0.1:5000", "http://localhost:5000",
                                  "http://localhost", "http://[::1]:5000", "http://127.0.1.1"])
def test_a_link_to_this_computer_itself_is_said_to_open_nowhere_else(client, base):
    url = new_table(client, "Ann", "Ben", "Cy")
    page = text(client.get(url + "share", base_url=base))
    assert SAID in page and "<code>scripts/serve --lan</code>" in page
    host = base.removeprefix("http://")
    assert f"name {host}, this computer itself" in page
    assert f'href="{base}/j/' in page  # the link it is about


@pytest.mark.parametrize("base", ["http://192.168.1.20:5000", "http://companion.example",
                                  "http://[fd00::5]:5000", "http://10.0.0.7"])
def test_a_link_other_phones_can_open_says_nothing_of_it(client, base):
    url = new_table(client, "Ann", "Ben", "Cy")
    page = text(client.get(url + "share", base_url=base))
    assert SAID not in page and "--lan" not in page


def test_it_is_said_in_german(client):
    url = new_table(client, "Ann", "Ben", "Cy")
    page = text(client.get(url + "share", base_url="http://127.0.0.1:5000", headers=GERMAN))
    assert SAID not in page and "<code>scripts/serve --lan</code>" in page
    assert "Noch kann kein anderes Handy diese Links öffnen" in page
