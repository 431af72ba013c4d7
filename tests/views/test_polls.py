"""A table page's poll (`companion.polls`): one number from one read, answered in front of Flask,
never stale, and whatever it does not answer is Flask's as before."""

from companion.app import SECURITY_HEADERS, create_app
from tests.conftest import act, new_table


def test_the_poll_is_the_tables_last_event_read_on_every_poll(app, client):
    url = new_table(client, "Tobi", "Nina", "Cy")
    answer = client.get(url + "seq")
    assert answer.status_code == 200 and answer.get_json() == {"seq": 0}
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers["Content-Type"] == "application/json"
    assert "Set-Cookie" not in answer.headers
    for name, value in SECURITY_HEADERS:
        assert answer.headers[name] == value
    # An action recorded by another worker (its own app and connections) is seen at once.
    other = create_app(dict(app.config)).test_client()
    assert client.get(url + "seq").get_json() == {"seq": 0}  # this thread's connection is open
    assert act(other, url, "buy", player="Tobi", building="park").status_code == 303
    assert client.get(url + "seq").get_json() == {"seq": 1}


def test_what_the_poll_does_not_answer_goes_to_flask(client):
    url = new_table(client, "Tobi", "Nina", "Cy")
    table_id = url.strip("/").split("/")[1]
    assert client.get(f"/street/{table_id}/seq").status_code == 404  # another game's link
    assert client.get(f"/yard/{'x' * 22}/seq").status_code == 404  # no such table
    assert client.get(url + "seq?x=1").get_json() == {"seq": 0}  # a query: the route's
    assert client.post(url + "seq").status_code == 404  # not a GET: as before (405 -> 404)


def test_the_page_carries_the_words_the_poll_does_not_send(client):
    page = client.get(new_table(client, "Tobi", "Nina", "Cy")).get_data(as_text=True)
    assert 'data-changed="The table changed on another phone."' in page
    assert 'data-reload="Reload"' in page
    german = client.get(new_table(client, "Tobi", "Nina", "Cy"),
                        headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert 'data-changed="Der Tisch wurde auf einem anderen Handy geändert."' in german
