"""Every tap counts once, over HTTP: the same action key again (a retry, a double submit, back and
resubmit) gets the first answer and never a second event; without JavaScript, a form from the page
an action just loaded, sent sooner after that action than a thumb can, is the second tap of a
double tap; app.js gets answers it shows in place."""

import io
import json
import re
import time

import pytest

from companion import storage
from companion.app import create_app
from tests.conftest import SCRIPT, act, at_first_auction, fresh, new_table, screen, text
from tests.tables import FINISHED, seed


def events(app, url):
    db = storage.connect(app.config["DATABASE"])
    try:
        return [(e.kind, dict(e.payload)) for e in storage.events(db, url.split("/")[2])]
    finally:
        db.close()


def test_the_same_key_sent_again_gets_the_first_answer_and_no_second_event(app, client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    form = {**fresh(client, url), "player": "Tobi", "building": "park"}
    first = client.post(url + "buy", data=form)
    retry = client.post(url + "buy", data=form)
    assert (first.status_code, retry.status_code) == (303, 303)
    assert first.headers["Location"] == retry.headers["Location"] == url
    assert events(app, url) == [("buy", {"player": "Tobi", "building": "park", "for": "Tobi"})]
    assert "Tobi leads by 1" in text(client.get(url))


def test_a_retry_of_a_random_draw_gets_the_first_draw(app, client):
    """Alea's bid drawn by the app: a retry must not draw again."""
    url = at_first_auction(client)
    form = {**fresh(client, url), "high_bid": "12", "draw": "y"}
    before = len(events(app, url))
    answers = [client.post(url + "alea", data=form).status_code for _ in range(3)]
    log = events(app, url)
    assert answers == [303, 303, 303] and len(log) == before + 1
    assert log[-1][0] == "alea_bid"


def test_another_button_of_the_same_screen_is_refused_as_outdated(app, client):
    """Two buttons of one form share its key: the second is not a retry of the first."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    form = fresh(client, url)
    assert client.post(url + "buy", data={**form, "player": "Tobi",
                                          "building": "park"}).status_code == 303
    other = client.post(url + "buy", data={**form, "player": "Tobi", "building": "museum"})
    assert other.status_code == 409
    assert "Tobi bought a park" in text(other)
    assert len(events(app, url)) == 1


def test_a_key_reused_on_a_current_screen_is_refused_not_a_500(app, client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    used = fresh(client, url)
    client.post(url + "buy", data={**used, "player": "Tobi", "building": "park"})
    forged = {"seq": screen(client, url)[0], "key": used["key"]}
    answer = client.post(url + "score", data={**forged, "scoring": "A"})
    assert answer.status_code == 409
    assert len(events(app, url)) == 1


@pytest.mark.parametrize("key", [None, "", "123", "zz.0123456789abcdef", "1.short",
                                 "1.0123456789abcdef0", "<b>1</b>.0123456789abcdef"])
def test_a_missing_or_tampered_key_is_refused_and_changes_nothing(app, client, key):
    url = new_table(client, "Tobi", "Nina", "Paul")
    form = {"seq": screen(client, url)[0], "player": "Tobi", "building": "park"}
    if key is not None:
        form["key"] = key
    answer = client.post(url + "buy", data=form)
    assert answer.status_code == 400
    assert "This form is incomplete. Reload the page and try again." in text(answer)
    assert events(app, url) == []


def test_every_action_form_has_its_own_key(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    page = text(client.get(url))
    forms = re.findall(r'<form method="post"[^>]*data-action[^>]*>.*?</form>', page, re.S)
    keys = [re.search(r'name="key" value="([^"]+)"', f).group(1) for f in forms]
    assert len(forms) > 5 and len(set(keys)) == len(keys)
    assert keys != [re.search(r'name="key" value="([^"]+)"', f).group(1)
                    for f in re.findall(r"<form method=\"post\"[^>]*data-action[^>]*>.*?</form>",
                                        text(client.get(url)), re.S)]


# Without JavaScript: the second tap of a double tap lands on the page the first one loaded ------


@pytest.fixture
def guarded(tmp_path, monkeypatch):
    """The app with the guard on, 0.4 s (1 s unless configured), a phone and the page of the
    yard table it started for Tobi, Nina and Paul."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "g.sqlite"),
                      "WTF_CSRF_ENABLED": False, "GHOST_TAP_SECONDS": 0.4})
    client = app.test_client()
    return app, client, new_table(client, "Tobi", "Nina", "Paul")


def test_a_form_of_a_page_just_opened_is_meant_however_quickly_it_is_sent(guarded):
    """A player who knows where to tap: the first tap on a page opened (not an action's answer)
    is never a ghost (issue 23)."""
    app, client, url = guarded
    form = {**fresh(client, url), "player": "Tobi", "building": "park"}
    assert client.post(url + "buy", data=form).status_code == 303
    assert len(events(app, url)) == 1


def test_a_tap_on_the_answer_page_sooner_than_a_double_tap_is_ignored_with_no_content(guarded):
    app, client, url = guarded
    assert act(client, url, "buy", player="Tobi", building="park").status_code == 303
    form = {**fresh(client, url), "player": "Tobi", "building": "park"}  # the answer's page
    ghost = client.post(url + "buy", data=form)
    assert ghost.status_code == 204 and ghost.data == b""  # the browser keeps the page as it is
    assert len(events(app, url)) == 1
    time.sleep(0.45)  # seen, and tapped again: meant
    assert client.post(url + "buy", data=form).status_code == 303
    assert len(events(app, url)) == 2


def test_the_guard_covers_undo_too(guarded):
    app, client, url = guarded
    client.post(url + "buy", data={**fresh(client, url), "player": "Tobi", "building": "park"})
    ghost = client.post(url + "undo", data=fresh(client, url))
    assert ghost.status_code == 204
    assert [kind for kind, _payload in events(app, url)] == ["buy"]


def test_undo_three_times_0_45_s_apart_undoes_three(guarded):
    """Each answer page is loaded, seen and tapped again 0.45 s later: meant each time."""
    app, client, url = guarded
    for action in ["buy"] * 3 + ["undo"] * 3:
        form = fresh(client, url)  # the answer's page, as the browser loads it after the action
        time.sleep(0.45)
        form.update({"player": "Tobi", "building": "park"} if action == "buy" else {})
        assert client.post(url + action, data=form).status_code == 303
    assert [kind for kind, _payload in events(app, url)] == ["buy"] * 3 + ["undo"] * 3


def test_the_guard_counts_from_the_answer_page_being_made_not_from_the_action(guarded):
    """A busy server may take longer than a double tap's gap to make the answer's page; the
    second tap, held by the browser until that page is shown, then lands on it at once: still
    the ghost (it failed when the guard counted from the action)."""
    app, client, url = guarded
    assert act(client, url, "buy", player="Tobi", building="park").status_code == 303
    time.sleep(0.5)  # the redirect's page is slow to come
    form = {**fresh(client, url), "player": "Nina", "building": "park"}
    assert client.post(url + "buy", data=form).status_code == 204
    assert len(events(app, url)) == 1


def test_a_ghost_on_an_answer_page_showing_another_phones_action_too_is_ignored(guarded):
    """Found by an audit: Tobi's double tap without JavaScript, with Nina's purchase recorded
    by another phone while Tobi's answer page loaded: that page shows both, and the second tap
    on it was recorded (a second park). It is the ghost all the same."""
    app, client, url = guarded
    assert act(client, url, "buy", player="Tobi", building="park").status_code == 303
    other = app.test_client()
    assert act(other, url, "buy", player="Nina", building="church").status_code == 303
    page = text(client.get(url))  # the answer's page: shows both
    seq = int(re.search(r'name="seq" value="(\d+)"', page)[1])
    key = re.search(r'name="key" value="([^"]+)"', page)[1]
    form = {"seq": seq, "key": key, "player": "Tobi", "building": "park"}
    assert client.post(url + "buy", data=form).status_code == 204
    undo = re.search(r'action="[^"]*/undo#[^"]*".*?name="key" value="([^"]+)"', page, re.S)[1]
    assert client.post(url + "undo", data={"seq": seq, "key": undo}).status_code == 204
    assert [payload["building"] for _kind, payload in events(app, url)] == ["park", "church"]
    time.sleep(0.45)  # seen, and tapped again: meant
    assert client.post(url + "buy", data=form).status_code == 303
    assert len(events(app, url)) == 3


def test_a_page_opened_after_the_answer_s_is_meant_however_quickly(guarded):
    """Found at a table: a card's site tapped within a second of its builder's page, opened
    after an action's answer, was dropped as a double tap's. Only the answer's own page holds
    a tap; a page opened or reloaded after it (a fold-out's) is a player's who knows where to
    tap."""
    app, client, url = guarded
    assert act(client, url, "buy", player="Tobi", building="park").status_code == 303
    client.get(url)  # the answer's page, seen
    form = {**fresh(client, url + "?open=fix"), "player": "Nina", "building": "park"}
    assert client.post(url + "buy", data=form).status_code == 303
    assert len(events(app, url)) == 2


def test_another_phones_page_is_never_a_ghost(guarded):
    app, client, url = guarded
    act(client, url, "buy", player="Tobi", building="park")
    other = app.test_client()
    assert act(other, url, "buy", player="Nina", building="park").status_code == 303
    assert len(events(app, url)) == 2


def test_app_js_is_not_held_back_by_the_guard(guarded):
    """With JavaScript the page is updated in place and app.js ignores a second tap itself."""
    app, client, url = guarded
    form = {**fresh(client, url), "player": "Tobi", "building": "park"}
    assert client.post(url + "buy", data=form, headers=SCRIPT).status_code == 200
    assert len(events(app, url)) == 1


# The answers app.js shows in place, and the line that says what was recorded ------------------


def test_app_js_gets_the_new_page_saying_what_was_recorded(app, client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    form = {**fresh(client, url), "player": "Tobi", "building": "skyscraper"}
    answer = client.post(url + "buy", data=form, headers=SCRIPT)
    assert answer.status_code == 200 and answer.headers["X-Companion-Page"] == url
    page = text(answer)
    assert 'data-seq="1"' in page and "Tobi leads by 1" in page
    recorded = re.search(r'<div class="strip-last just" id="recorded" data-answer="done">'
                         r'.*?</form>', page, re.S).group(0)
    assert "Tobi bought a skyscraper" in recorded and " Undo</button>" in recorded
    assert f'action="{url}undo#at-strip" class="" id="at-strip"' in recorded  # the bar's: "at-undo"
    retry = client.post(url + "buy", data=form, headers=SCRIPT)
    assert retry.status_code == 200 and "Tobi bought a skyscraper" in text(retry)
    assert len(events(app, url)) == 1


def test_app_js_gets_a_refusal_in_words(app, client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    answer = client.post(url + "correct", headers=SCRIPT,
                         data={**fresh(client, url), "owner": "Tobi", "building": "park",
                               "count": "120"})
    assert answer.status_code == 400
    assert json.loads(answer.data) == {"refused": "Count: Number must be between 0 and 99.",
                                       "field": "count"}
    stale = client.post(url + "buy", headers=SCRIPT | {"Accept-Language": "de"},
                        data={"seq": 5, "key": screen(client, url)[1], "player": "Tobi",
                              "building": "park"})
    assert stale.status_code == 409
    assert "nichts geändert" in json.loads(stale.data)["refused"]
    assert events(app, url) == []


def test_without_javascript_the_table_page_says_once_what_was_recorded(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    act(client, url, "buy", player="Nina", building="church")
    page = text(client.get(url))
    assert re.search(r'<div class="strip-last just" id="recorded" data-answer="done">\s*'
                     r'<p><span class="strip-words">Last: Nina bought a church</span></p>', page)
    assert '<p id="said" class="sr-only" role="status" aria-live="polite">Nina bought a church' \
        in page
    again = text(client.get(url))  # the strip says it as the last action, and is not lit up
    assert re.search(r'<div class="strip-last" id="recorded">\s*<p><span class="strip-words">'
                     r"Last: Nina bought a church",
                     again)
    assert '<p id="said" class="sr-only" role="status" aria-live="polite"></p>' in again


def test_after_an_undo_the_line_offers_redo(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    act(client, url, "buy", player="Nina", building="church")
    client.get(url)
    act(client, url, "undo")
    page = text(client.get(url))
    assert "<span class=\"strip-words\">Undone: Nina bought a church</span></p>" in page
    line = page.split('id="recorded"')[1].split("</div>")[0]
    # Found at a table: Redo took Undo's place, and a second tap there redid the first.
    assert re.findall(r'action="[^"]*/(undo|redo)#', line) == ["redo", "undo"]
    assert 'disabled>&#8630; Undo' in line  # nothing left to undo: Undo there, off


def test_two_undos_in_the_strip_undo_two_actions(client):
    url = new_table(client, "Tobi", "Nina", "Paul")
    act(client, url, "buy", player="Nina", building="church")
    act(client, url, "buy", player="Paul", building="park")
    client.get(url)
    act(client, url, "undo", at="at-strip")
    line = text(client.get(url)).split('id="recorded"')[1].split("</div>")[0]
    assert "Undone: Paul bought a park" in line
    assert re.findall(r'action="[^"]*/(undo|redo)#', line) == ["redo", "undo"]
    assert "disabled" not in line
    act(client, url, "undo", at="at-strip")
    history = text(client.get(url + "history"))
    assert "Undo" in history and "Nina bought a church" in history
    assert "Undone: Nina bought a church" in text(client.get(url)).split('id="recorded"')[1]
    # And two Redos there take both back (found at a table: after one, Redo left the strip).
    act(client, url, "redo", at="at-strip_redo")
    line = text(client.get(url)).split('id="recorded"')[1].split("</div>")[0]
    assert "Last: Nina bought a church" in line
    assert re.findall(r'action="[^"]*/(undo|redo)#', line) == ["redo", "undo"]
    act(client, url, "redo", at="at-strip_redo")
    line = text(client.get(url)).split('id="recorded"')[1].split("</div>")[0]
    assert "Last: Paul bought a park" in line
    assert re.findall(r'action="[^"]*/(undo|redo)#', line) == ["undo"]  # nothing more to redo


def test_without_javascript_the_answer_comes_back_at_the_tapped_form(client):
    """The redirect names the form the tap came from: the browser scrolls the new page to it."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    page = text(client.get(url))
    forms = re.findall(r'<form method="post" action="[^"]*/buy#(at-buy[-0-9]*)" class="[^"]*" '
                       r'id="\1"', page)
    assert forms[:3] == ["at-buy", "at-buy-2", "at-buy-3"]
    answer = act(client, url, "buy", player="Paul", building="park", at="at-buy-3")
    assert answer.status_code == 303 and answer.headers["Location"] == url + "#at-buy-3"
    forged = act(client, url, "buy", player="Paul", building="park", at="x\r\nSet-Cookie: a")
    assert forged.headers["Location"] == url  # only an id the page could have drawn


def test_without_javascript_an_answer_whose_form_is_gone_lands_on_what_it_brings_into_view(
        client):
    """Found at a table: after "Scoring B card drawn" without JavaScript the page came back at
    its top, "#at-score" gone with the last scoring's button and its points out of view. Its
    place is then the part the answer brings into view; where the form stays, none is added."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    act(client, url, "buy", player="Nina", building="church")
    assert act(client, url, "score", scoring="A", at="at-score").headers["Location"].endswith(
        "#at-score")
    page = text(client.get(url))
    assert page.count('id="at-score"') == 1 and 'class="landing"' not in page
    act(client, url, "buy", player="Nina", building="church")
    act(client, url, "score", scoring="B", at="at-score")
    page = text(client.get(url))
    assert re.search(r'<span class="landing" id="at-score"></span><section class="card '
                     r'just-scored"[^>]*data-into-view="done"', page), page
    assert 'class="landing"' not in text(client.get(url))  # a page loaded again: as it is


def test_without_javascript_a_refusal_is_said_in_the_tapped_form_too(app, client):
    """Found at a table: a church tapped on an outdated screen, the same purchase just recorded
    by another phone, was refused; the page came back at the form showing the count the tap
    would have made, the refusal at the foot unread, and a scoring missed the card. The
    refusal is said in the tapped form as well; a field's is said beside the field alone."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    form = {**fresh(client, url), "player": "Tobi", "building": "church", "at": "at-buy"}
    assert act(app.test_client(), url, "buy", player="Tobi", building="church").status_code == 303
    refused = client.post(url + "buy", data=form)
    assert refused.status_code == 409
    tapped = text(refused).split('id="at-buy"')[1].split("</form>")[0]
    assert re.search(r'<p class="refusal" role="alert">Just recorded: Tobi bought a church\. '
                     r'This tap was not recorded again', tapped), tapped
    assert text(refused).count('class="refusal"') == 1
    assert 'class="refusal"' not in text(client.get(url))
    typed = act(client, url, "correct", owner="Tobi", building="park", count=500, reason="x")
    assert typed.status_code == 400 and 'class="refusal"' not in text(typed)
    assert 'id="count-error">Number must be between 0 and 99.' in text(typed)


def test_without_javascript_a_refusal_s_fold_out_links_lead_to_the_table_page(client):
    """Found at a table: a refusal without JavaScript stays at the action's address, and its
    fold-outs' "?open=..." led there ("Not found", a GET of the action). They name the table
    page; on the table page itself they stay as they are."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    assert 'href="?open=fix#fix"' in text(client.get(url))
    refused = act(client, url, "buy", player="Paul", building="castle")
    assert refused.status_code == 400, refused.status_code
    assert f'href="{url}?open=fix#fix"' in text(refused) and 'href="?open=' not in text(refused)
    assert client.get(url + "?open=fix").status_code == 200


def test_without_javascript_the_tap_that_ends_the_game_comes_back_at_the_final_result(app, client):
    """The tapped form is gone from a finished table's page; the answer is its final result
    (found at a table: the page came back at its top, the result 1,600 px down)."""
    names, actions = FINISHED["street"]
    assert actions[-1] == ("finish", {})
    url = f"/street/{seed(app, 'street', names, actions[:-1])}/"
    answer = act(client, url, "finish", at="at-finish")
    assert answer.status_code == 303, text(answer)
    assert answer.headers["Location"] == url + "#result"
    assert text(client.get(url)).count('id="result"') == 1
    undone = act(client, url, "undo", at="at-strip_undo")
    assert undone.headers["Location"] == url + "#at-strip_undo"


def test_the_strip_says_what_an_action_gave_and_who_won(client):
    """A scoring's points, and the winner once the end is scored, said after the action."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    act(client, url, "buy", player="Nina", building="church")
    act(client, url, "score", scoring="A")
    strip = text(client.get(url)).split('id="recorded"')[1].split("</p>")[0]
    assert "Scoring A" in strip and "— Nina +4" in strip


def test_the_line_is_not_shown_when_the_table_moved_on(client):
    """Another phone acted between the redirect and the page: the line would name the wrong
    action, so there is none."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    act(client, url, "buy", player="Nina", building="church")
    other = client.application.test_client()
    act(other, url, "buy", player="Tobi", building="park")
    assert "Nina bought a church</p>" not in text(client.get(url))


def test_an_export_leaves_the_keys_out_and_its_import_plays_on(app, client):
    """Keys belong to the forms of one table's pages; an import is a new table with new forms."""
    url = new_table(client, "Tobi", "Nina", "Paul")
    form = {**fresh(client, url), "player": "Tobi", "building": "park"}
    client.post(url + "buy", data=form)
    document = client.get(url + "export.json")
    assert form["key"] not in text(document) and "action_key" not in text(document)
    answer = client.post("/import", content_type="multipart/form-data",
                         data={"file": (io.BytesIO(document.data), "table.json")})
    imported = answer.headers["Location"]
    assert imported != url and events(app, imported) == events(app, url)
    assert client.post(imported + "buy", data=form).status_code == 409  # an old page's form
    assert act(client, imported, "buy", player="Tobi", building="park").status_code == 303
    assert "Tobi leads by 2" in text(client.get(imported))
