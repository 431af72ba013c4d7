"""Changing a past action from the history: the table as it was before it, the game's own forms,
a preview of what the change does (totals before and after, later actions taken out), then the
change recorded once as an action of its own, undoable, and refused with words when it no longer
fits."""

import re

import pytest

from companion import replays, rules, storage
from companion.views import change
from tests import street_moves as moves
from tests.conftest import GERMAN, act, confirm_fields, current_seq, fresh, new_table, text
from tests.tables import FIFTH_AVENUE, FINISHED, STREET, exported, seed, upload

BUYS = [("Tobi", "park"), ("Nina", "museum"), ("Paul", "park"), ("Tobi", "museum")]


def played(client, buys):
    url = new_table(client, "Tobi", "Nina", "Paul")
    for player, building in buys:
        assert act(client, url, "buy", player=player, building=building).status_code == 303
    return url


def state_of(app, url):
    db = storage.connect(app.config["DATABASE"])
    table_id = url.rstrip("/").rsplit("/", 1)[1]
    names = ["Tobi", "Nina", "Paul"]
    return replays.current(db, table_id, rules.GAMES["yard"], names).state


def test_a_wrong_buyer_three_actions_back_is_changed_in_four_taps(app, client):
    url = played(client, BUYS)
    history = text(client.get(url + "history"))
    assert f'href="{url}?change=1#as-recorded"' in history  # tap 1 (History) and tap 2 (Change #1)
    changing = text(client.get(url + "?change=1"))
    assert "Changing #1: Tobi bought a park" in changing
    assert "Take it out" in changing
    assert "?change=1" in re.search(r'action="([^"]*/buy[^"]*)"', changing).group(1)
    fields = fresh(client, url + "?change=1")
    preview = client.post(url + "buy?change=1",  # tap 3: the right buyer's button
                          data={"player": "Nina", "building": "park", **fields})
    assert preview.status_code == 200
    page = text(preview)
    # Named as a change to make, not one made (found at a table: "Changed: ..." above "Nothing
    # is recorded until you confirm" read as done); the history names it made (below).
    assert "Change: Tobi bought a park → Nina bought a park" in page
    assert "Changed:" not in page
    assert storage.last_seq(storage.connect(app.config["DATABASE"]),
                            url.rstrip("/").rsplit("/", 1)[1]) == 4  # nothing recorded yet
    totals = re.findall(r'<th scope="row">(\w+)</th><td>(\d+)</td><td><b>(\d+)</b>', page)
    assert totals  # every player's total now and after the change
    data = {**confirm_fields(page), "reason": "wrong player"}
    assert client.post(url + "change", data=data).status_code == 303  # tap 4: confirm
    right = played(client, [("Nina", "park"), *BUYS[1:]])
    assert vars(state_of(app, url)) | {"note": None} == vars(state_of(app, right)) | {"note": None}
    history = text(client.get(url + "history"))
    assert "Changed: Tobi bought a park → Nina bought a park (wrong player)" in history
    # The changed action's own line says which change entered it again (found at a table: it
    # read "Nina bought a park" as if recorded so), and no longer once that change is undone.
    assert re.search(r"#1</span>\s*Nina bought a park <em>\(changed in #5\)</em>", history)
    assert act(client, url, "undo").status_code == 303
    undone = text(client.get(url + "history"))
    assert "changed in #5" not in undone and re.search(r"#1</span>\s*Tobi bought a park", undone)
    assert act(client, url, "redo").status_code == 303
    again = client.post(url + "change", data=data)  # sent again: the first answer, once only
    assert again.status_code == 303
    assert storage.last_seq(storage.connect(app.config["DATABASE"]),
                            url.rstrip("/").rsplit("/", 1)[1]) == 7


def test_the_strip_keeps_the_way_out_of_a_change_in_view(client):
    """Found at a table: the change's page stands at the action's form, and its Cancel was out
    of view above it. The strip, at the foot wherever the page is scrolled, has one too."""
    url = played(client, BUYS)
    strip = re.search(r'<aside class="score-strip".*?</aside>', text(client.get(url + "?change=3")),
                      re.S).group(0)
    path = url.removeprefix("http://localhost")
    assert re.search(r'Changing #3: Paul bought a park</p>\s*<span class="strip-buttons"><a '
                     r'class="button ghost small" href="\?change=3&amp;open=move#move" data-open>'
                     rf'Move it</a>\s*<a class="button ghost small" href="{path}history\?at=3#e3">'
                     r'Cancel</a></span>', strip)
    assert "Cancel" not in text(client.get(url))  # no change being made: no way out of one
    # Its totals are the table's before #3, said so (found at a table: they read as the score).
    assert re.search(r'<p class="strip-totals"><small class="strip-at">Before #3:</small>', strip)
    assert "strip-at" not in text(client.get(url))


def test_a_change_is_undone_like_any_action(app, client):
    url = played(client, BUYS)
    before = vars(state_of(app, url)) | {"note": None}
    fields = fresh(client, url + "?change=2")
    preview = text(client.post(url + "change/out?change=2", data=fields))
    assert "Take out: Nina bought a museum" in preview
    assert client.post(url + "change", data=confirm_fields(preview)).status_code == 303
    assert state_of(app, url).buildings["Nina"]["museum"] == 0
    assert act(client, url, "undo").status_code == 303
    assert vars(state_of(app, url)) | {"note": None} == before


def test_a_change_refused_by_the_rules_says_why_and_records_nothing(client):
    url = played(client, BUYS)
    fields = fresh(client, url + "?change=1")
    refused = client.post(url + "buy?change=1",
                          data={"player": "Nobody", "building": "park", **fields})
    assert refused.status_code == 422
    assert "Changing #1" in text(refused)  # still the table as it was before the action


@pytest.mark.parametrize("button", ["undo", "redo"])
def test_undo_and_redo_sent_while_changing_are_refused_in_words(client, button):
    """Their buttons are off while a past action is being changed; a tampered form said
    "Unknown action 'undo'"."""
    url = played(client, BUYS)
    history = text(client.get(url + "history"))
    refused = client.post(url + f"{button}?change=1", data=fresh(client, url + "?change=1"))
    assert refused.status_code == 422
    assert "Undo and Redo wait while a past action is being changed" in text(refused)
    assert "Unknown action" not in text(refused)
    assert text(client.get(url + "history")) == history


def test_an_action_entered_as_it_was_recorded_changes_nothing_and_is_not_recorded(app, client):
    """Ruling: a change that enters the action as it was recorded (the same buyer's button
    tapped again) changes nothing, so there is nothing to confirm: the preview says so, with a
    way to enter it again, and a confirm of such a change (signed by this app, as a preview
    would) is refused with words; nothing is recorded, in English or German."""
    url = played(client, BUYS)
    fields = fresh(client, url + "?change=1")
    preview = client.post(url + "buy?change=1",
                          data={"player": "Tobi", "building": "park", **fields})
    assert preview.status_code == 200
    page = text(preview)
    assert "Nothing changes" in page
    assert "#1 is entered as it was recorded: Tobi bought a park." in page
    assert "Confirm the change" not in page and 'name="change"' not in page
    assert f'href="{url}?change=1">Enter it again</a>' in page
    german = text(client.post(url + "buy?change=1", headers=GERMAN,
                              data={"player": "Tobi", "building": "park",
                                    **fresh(client, url + "?change=1")}))
    assert "Nichts ändert sich" in german and "Noch einmal eingeben" in german
    table_id = url.rstrip("/").rsplit("/", 1)[1]
    db = storage.connect(app.config["DATABASE"])
    same = replays.correction(db, table_id, rules.GAMES["yard"], ["Tobi", "Nina", "Paul"],
                              {1: ("buy", {"player": "Tobi", "building": "park",
                                           "for": "Tobi"})}).change
    assert rules.changes_nothing(same)
    with app.app_context():
        signed = change.signed().dumps({"table": storage.mark_of(table_id), "seq": len(BUYS),
                                        "change": same})
    refused = client.post(url + "change", data={**fresh(client, url), "change": signed})
    assert refused.status_code == 422
    assert "This change enters the action as it was recorded, so nothing was recorded." in \
        text(refused)
    assert current_seq(client, url) == len(BUYS)


def test_a_preview_made_outdated_by_another_phone_is_worked_out_again(client):
    """Found at a table: a confirm that another phone's action made outdated is refused, and
    the preview, its choices and its reason were gone. Now the change is shown again, worked
    out on the table as it is now, with the reason typed, to confirm again."""
    url = played(client, BUYS)
    fields = fresh(client, url + "?change=1")
    preview = text(client.post(url + "buy?change=1",
                               data={"player": "Nina", "building": "park", **fields}))
    assert act(client, url, "buy", player="Paul", building="museum").status_code == 303
    stale = client.post(url + "change", data={**confirm_fields(preview), "reason": "Nina's"})
    assert stale.status_code == 409
    again = text(stale)
    assert ("The table changed since this preview was made (Paul bought a museum), so the "
            "change was not recorded.") in again
    assert "Worked out again on the table as it is now: check it, then confirm it again." in again
    assert 'value="Nina&#39;s"' in again
    assert "Change: Tobi bought a park → Nina bought a park" in again
    assert current_seq(client, url) == len(BUYS) + 1
    confirmed = client.post(url + "change", data={**confirm_fields(again), "reason": "Nina's"})
    assert confirmed.status_code == 303
    assert current_seq(client, url) == len(BUYS) + 2
    assert "Nina&#39;s" in text(client.get(url + "history"))


def test_a_preview_the_rules_no_longer_take_is_refused_with_the_table_as_it_is(client):
    """The action being changed was undone on another phone: the preview cannot be made again,
    and the refusal shows the table."""
    url = played(client, [("Tobi", "park")])
    fields = fresh(client, url + "?change=1")
    preview = text(client.post(url + "buy?change=1",
                               data={"player": "Nina", "building": "park", **fields}))
    assert act(client, url, "undo").status_code == 303
    stale = client.post(url + "change", data=confirm_fields(preview))
    assert stale.status_code == 409
    page = text(stale)
    assert "so the change was not recorded." in page and "Worked out again" not in page
    assert 'class="change-preview"' not in page and current_seq(client, url) == 2


def test_a_tampered_change_is_refused(client):
    url = played(client, BUYS)
    fields = fresh(client, url + "?change=1")
    preview = text(client.post(url + "buy?change=1",
                               data={"player": "Nina", "building": "park", **fields}))
    data = confirm_fields(preview)
    # a character of what the change says, not of its signature's last one (whose low bits
    # a base64 decoder may ignore, so that changing it can leave the signature as it was)
    data["change"] = ("B" if data["change"][3] == "A" else "A").join(
        (data["change"][:3], data["change"][4:]))
    refused = client.post(url + "change", data=data)
    assert refused.status_code == 422
    assert "This change could not be read" in text(refused)


def test_changing_an_action_not_in_force_is_not_found(client):
    """Found at a table: a change's address reloaded after another phone undid its action
    said "There is nothing at this link" and sent the table looking for new links. It says
    that the action is no longer in force, with a way back to the table."""
    url = played(client, BUYS)
    for never in (9, 0, -1, 10**12):  # found by a bad-input audit: said "no longer in force"
        unknown = client.get(url + f"?change={never}")
        assert unknown.status_code == 404
        assert f"This table has no action #{never}." in text(unknown)
    assert act(client, url, "undo").status_code == 303
    undone = client.get(url + "?change=4")
    assert undone.status_code == 404
    assert ("Action #4 is no longer in force (it was undone or changed since, maybe on another "
            "phone), so it cannot be changed.") in text(undone)
    assert f'href="{url.removeprefix("http://localhost")}">Back to the table' in text(undone)


def test_the_change_speaks_german(client):
    url = played(client, BUYS)
    assert "Ändern" in text(client.get(url + "history", headers=GERMAN))
    page = text(client.get(url + "?change=1", headers=GERMAN))
    assert "#1" in page and "Herausnehmen" in page


def test_a_later_scoring_that_now_comes_out_differently_is_listed(client):
    """Tobi bought 2 parks and Nina 1, so scoring A gave Tobi the parks' 5 (the only value in
    A). Tobi's first park was Nina's: she has 2 and Tobi 1, and the same scoring A, kept as
    recorded, gives her the 5: the preview says so beside the totals, in German too."""
    url = played(client, [("Tobi", "park"), ("Nina", "park"), ("Tobi", "park")])
    act(client, url, "score", scoring="A")
    for headers, heading, scoring in (({}, "Later actions that now come out differently",
                                       "Scoring A Points:"),
                                      (GERMAN, "Spätere Aktionen, die jetzt anders ausgehen",
                                       "Wertung A Punkte:")):
        fields = fresh(client, url + "?change=1")
        page = text(client.post(url + "buy?change=1", headers=headers,
                                data={"player": "Nina", "building": "park", **fields}))
        assert heading in page
        assert re.search(r'<a class="button ghost small" href="#rescored">1 (later action|'
                         r'spätere Aktion) ', page)
        listed = re.search(r'<ul class="rescored">(.*?)</ul>', page, re.S).group(1)
        assert " ".join(re.sub(r"<[^>]+>", "", listed).split()) == \
            f"#4 {scoring} Tobi +5 → 0 · Nina 0 → +5"
        assert "No total changes" not in page and "Keine Summe" not in page


def test_dirk_s_points_from_a_later_scoring_are_listed_beside_the_players(client):
    """Two players: Dirk holds a museum, Ben one too, so they tie in scoring A for the
    museum's 1 (0 each, rounded down) and Dirk takes the parks' 5. Ben's museum was a theater:
    Dirk alone has the museum, 5 -> 6. The preview listed scoring A with no points, Dirk's
    only in the totals."""
    url = new_table(client, "Ann", "Ben")
    assert act(client, url, "dirk", museum=1, park=5).status_code == 303
    for building in ("theater", "museum"):
        assert act(client, url, "buy", player="Ben", building=building).status_code == 303
    act(client, url, "score", scoring="A")
    fields = fresh(client, url + "?change=3")
    page = text(client.post(url + "buy?change=3",
                            data={"player": "Ben", "building": "theater", **fields}))
    listed = re.search(r'<ul class="rescored">(.*?)</ul>', page, re.S).group(1)
    assert " ".join(re.sub(r"<[^>]+>", "", listed).split()) == "#4 Scoring A Points: Dirk +5 → +6"


def test_a_change_that_moves_no_later_points_lists_none(client):
    url = played(client, [("Tobi", "park"), ("Nina", "park"), ("Tobi", "park")])
    act(client, url, "score", scoring="A")
    fields = fresh(client, url + "?change=2")  # Nina's park was Paul's: Tobi still leads
    page = text(client.post(url + "buy?change=2",
                            data={"player": "Paul", "building": "park", **fields}))
    assert "Change: Nina bought a park → Paul bought a park" in page
    assert "rescored" not in page and "now come out differently" not in page
    # Found at a table: such a preview showed only totals that stay, and said nothing more.
    assert ("No total changes, and every later action comes out as it did: only what this "
            "action records changes.") in page


def test_a_change_that_moves_what_comes_next_says_so(client):
    """Found at a table: an action taken out gave a turn back, no total moved, and the preview
    said "only what this action records changes". Tobi's last purchase was Nina's: Nina, not
    Tobi, may go on, and Paul's turn comes after hers."""
    url = played(client, BUYS)
    fields = fresh(client, url + "?change=4")
    page = text(client.post(url + "buy?change=4",
                            data={"player": "Nina", "building": "museum", **fields}))
    assert "Change: Tobi bought a museum → Nina bought a museum" in page
    assert ("What comes next changes: Tobi goes on after paying exactly; otherwise it is "
            "Nina&#39;s turn. → <b>Nina goes on after paying exactly; otherwise it is "
            "Paul&#39;s turn.</b>") in page, page
    assert "only what this action records changes" not in page
    assert "No total changes, and every later action comes out as it did." in page


def test_a_deck_said_empty_taken_out_says_the_game_goes_on(app, client):
    """Found at a table: Ola's deck said empty by mistake made the next round the final one,
    and the take-out's preview, once it was played, did not say the game goes on: Ola's turn
    without a 1st action (her deck empty) is taken out, and her 1st action comes next."""
    table_id = seed(app, "street", ["Mia", "Ola"], [
        *moves.three_rounds()[:4], ("deck_empty", {"player": "Ola", "by": "Mia"}),
        moves.build("Mia", 3, moves.card()), moves.public("Mia", 4, moves.card()),
        *moves.takes_public("Ola")])  # her deck empty: no 1st action
    url = f"/street/{table_id}/"
    assert "The final round is complete: score the game." in text(client.get(url))
    preview = text(client.post(url + "change/out?change=5", data=fresh(client, url + "?change=5")))
    assert "Take out: Ola&#39;s deck is empty" in preview
    assert ("What comes next changes: Final round: The final round is complete: score the game. "
            "→ <b>Final round: no. Ola&#39;s 1st action comes next</b>") in preview, preview
    # An action of the final round taken out takes back none of it (found at a table: "Final
    # round: no. The final round is complete ..." for Ola's last action): said without it.
    last = text(client.post(url + "change/out?change=8", data=fresh(client, url + "?change=8")))
    assert ("What comes next changes: The final round is complete: score the game. → <b>Ola&#39;s "
            "2nd action comes next</b>") in last, last


def test_a_deck_said_empty_taken_out_in_the_final_round_says_it_no_longer_begins(app, client):
    """Found at a table: a deck said empty by mistake taken out in the final round it began;
    the preview said only what comes next ("Lukas's 2nd action -> Lukas's 1st action"), not
    that the final round no longer began, its biggest consequence. What comes next is said
    with the final round, where the table is in it, and "Final round: no." where it is not
    (found at a table: "Final round: ... -> Kofi's 1st action comes next" read as no change)."""
    table_id = seed(app, "street", ["Mia", "Ola"], [
        *moves.three_rounds()[:4], ("deck_empty", {"player": "Ola", "by": "Mia"}),
        moves.build("Mia", 3, moves.card())])
    url = f"/street/{table_id}/"
    preview = text(client.post(url + "change/out?change=5", data=fresh(client, url + "?change=5")))
    assert ("What comes next changes: Final round: Mia&#39;s 2nd action comes next → <b>Final "
            "round: no. Mia&#39;s 2nd action comes next</b>") in preview, preview
    german = text(client.post(url + "change/out?change=5", headers=GERMAN,
                              data=fresh(client, url + "?change=5")))
    assert ("Schlussrunde: Als Nächstes kommt die 2. Aktion von Mia → <b>Schlussrunde: nein. Als "
            "Nächstes kommt die 2. Aktion von Mia</b>") in german


def test_a_tap_outdated_by_a_change_says_the_change_in_short(app, client):
    """Found at a table: a tap refused after other phones' changes quoted each change in full,
    nine lines over the board; the history has them whole."""
    url = played(client, BUYS)
    outdated = fresh(client, url)
    fields = fresh(client, url + "?change=1")
    preview = client.post(url + "buy?change=1",
                          data={"player": "Nina", "building": "park", **fields})
    data = {**confirm_fields(text(preview)), "reason": "wrong player"}
    assert client.post(url + "change", data=data).status_code == 303
    refused = client.post(url + "buy", data={"player": "Paul", "building": "church",
                                             **outdated})
    assert refused.status_code == 409
    assert ("The table changed since this screen was loaded (a change of action #1), so this "
            "tap was not recorded.") in text(refused)
    outdated = fresh(client, url)  # a take-out is said as one (it read "a change of action")
    fields = fresh(client, url + "?change=2")
    preview = client.post(url + "change/out?change=2", data=fields)
    assert client.post(url + "change", data=confirm_fields(text(preview))).status_code == 303
    refused = client.post(url + "buy", data={"player": "Paul", "building": "church",
                                             **outdated})
    assert ("The table changed since this screen was loaded (action #2 taken out), so this "
            "tap was not recorded.") in text(refused)


def test_a_street_card_changed_into_another_is_no_longer_offered(app, client):
    """A helper changed a card's income from +1 to +2: the card entered by mistake stayed among
    the cards built before, first of them. Only the card the change entered is offered."""
    url = new_table(client, "Mia", "Ola", game="street")
    office = {"project": "office", "double": False, "roof": False, "gift": False,
              "floor": None, "no_gifts": False, "income": [{"each": "flat", "amount": 1,
                                                            "project": None}], "prestige": []}
    table_id = url.rstrip("/").rsplit("/", 1)[1]
    db = storage.connect(app.config["DATABASE"])
    game, names = rules.GAMES["street"], ["Mia", "Ola"]
    for kind, payload in [("card", {"player": "Mia", "street": "Mia", "site": 1, "card": office}),
                          ("buy", {"player": "Mia", "deck": "public", "cost": 0}),
                          ("discard", {"player": "Mia"})]:
        replays.record(db, table_id, game, names, storage.last_seq(db, table_id), kind, payload)
    before = text(client.get(url + "play/1"))
    assert 'aria-label="office (income +1)"' in before
    preview = text(client.post(url + "play/0?change=1", data={
        **fresh(client, url + "?change=1"), "player": "Mia", "street": "Mia", "site": "1",
        "card": "", "project": "office", "income_each_0": "flat", "income_amount_0": "2"}))
    assert "(income +1) → " in preview, preview
    assert client.post(url + "change", data=confirm_fields(preview)).status_code == 303
    offered = text(client.get(url + "play/1"))
    assert 'aria-label="office (income +2)"' in offered
    assert 'aria-label="office (income +1)"' not in offered


def test_a_change_that_moves_only_a_tie_break_says_the_ranking_it_changes(app, client):
    """Found at a table: a street card changed to another site made Ola's building as tall as
    Mia's, no total moved, and the preview said "only what this action records changes"
    while the winner became a shared victory. Mia and Ola end on 3 prestige each; Mia's two
    offices on site 1 are the tallest building (the rulebook's tie-break), on two sites they
    are not."""
    office = moves.card()
    table_id = seed(app, "street", ["Mia", "Ola"], [
        moves.build("Mia", 1, office), moves.public("Mia", 1, office),
        moves.build("Ola", 1, office), moves.public("Ola", 2, office),
        ("deck_empty", {"player": "Ola", "by": "Ola"}), ("finish", {})])
    url = f"/street/{table_id}/"
    assert "Winner: Mia." in text(client.get(url))
    preview = text(client.post(url + "play/0?change=2", data={
        **fresh(client, url + "?change=2"), "player": "Mia", "street": "Mia", "site": "2",
        "source": "public", "card": "", "project": "office"}))
    assert re.search(r"The final ranking changes: 1\. Mia, 2\. Ola → <b>1\. Mia, 1\. Ola</b>",
                     preview), preview
    assert "only what this action records changes" not in preview
    kept = text(client.post(url + "play/0?change=2", data={
        **fresh(client, url + "?change=2"), "player": "Mia", "street": "Mia", "site": "1",
        "source": "public", "card": "", "project": "office", "double": "y"}))
    assert "Change: " in kept and "The final ranking changes" not in kept  # places as they were


def test_a_later_action_the_change_takes_out_can_be_changed_too(app, client):
    """The street: Mia's card (#2) came from her own deck, not Ola's, so Ola's upcoins (#3) and
    her purchase (#4) no longer fit; Ola's 1st action was a discard: changed too, the purchase
    fits again and only that was needed."""
    url = new_table(client, "Mia", "Ola", game="street")
    office = {"project": "office", "double": False, "roof": False, "gift": False,
              "floor": None, "no_gifts": False, "income": [], "prestige": []}
    table_id = url.rstrip("/").rsplit("/", 1)[1]
    db = storage.connect(app.config["DATABASE"])
    game, names = rules.GAMES["street"], ["Mia", "Ola"]
    for kind, payload in [
            ("card", {"player": "Mia", "street": "Mia", "site": 1, "card": office}),
            ("card", {"player": "Mia", "street": "Mia", "site": 1, "card": office,
                      "bought_from": "Ola", "cost": 2}),
            ("upcoins", {"player": "Ola"}), ("buy", {"player": "Ola", "deck": "public",
                                                     "cost": 0}),
            ("discard", {"player": "Ola"})]:
        replays.record(db, table_id, game, names, storage.last_seq(db, table_id), kind, payload)

    fields = fresh(client, url + "?change=2")
    preview = text(client.post(url + "play/0?change=2", data={
        **fields, "player": "Mia", "street": "Mia", "site": "1", "source": "Mia", "cost": "2",
        "card": "", "project": "office"}))
    assert "#3" in preview and "#4" in preview  # Ola's upcoins and purchase no longer fit
    also = change_too(preview, url, 3)
    changing = text(client.get(also))
    assert "Changing #3: Ola took the upcoins" in changing
    assert "on top of the change being made" in changing
    fields = fresh(client, also)
    preview = text(client.post(url + "discard" + also.removeprefix(url),
                               data={**fields, "player": "Ola"}))
    assert "Ola took the upcoins from their deck → Ola discarded" in preview
    assert "Later actions the rules no longer take" not in preview
    assert client.post(url + "change", data=confirm_fields(preview)).status_code == 303
    played = [(e.kind, dict(e.payload)) for e in rules.log.as_played(
        rules.log.resolve(storage.events(db, table_id)).done)]
    assert played[1][1]["bought_from"] == "Mia" and played[2] == ("discard", {"player": "Ola",
                                                                           "round": 1,
                                                                           "action": 1})
    assert [kind for kind, _payload in played] == ["card", "card", "discard", "buy", "discard"]


def test_a_deck_said_empty_rounds_later_is_listed_with_what_the_change_takes_out(app, client):
    """The street: a fix of Mia's card #2 takes out every later turn; the deck said empty in
    round 3 (#11) goes with them, listed with why and 'Change it too', in German too (kept, it
    started the final round in round 1, with Ola's deck full)."""
    table_id = seed(app, "street", ["Mia", "Ola"], moves.three_rounds()[:11])
    url = f"/street/{table_id}/"
    for headers, said in (({}, "#11</span> Ola&#39;s deck is empty: Mia took its last card: "
                           "<em>This action belongs to round 3; here it is round 1.</em>"),
                          (GERMAN, "#11</span> Der Stapel von Ola ist leer: Mia hat die letzte "
                           "Karte genommen: <em>Diese Aktion gehört zu Runde 3; hier ist Runde "
                           "1.</em>")):
        preview = text(client.post(url + "play/0?change=2", headers=headers, data={
            **fresh(client, url + "?change=2"), "player": "Mia", "street": "Mia", "site": "2",
            "source": "Mia", "cost": "2", "card": "", "project": "office", "on": "table"}))
        assert said in preview
        assert change_too(preview, url, 11)


def change_too(preview, url, seq):
    """The address of a preview's "Change it too" for the later action #seq: on top of the
    change that preview showed (its key)."""
    found = re.search(rf'href="{re.escape(url)}\?also={seq}&amp;keep=([0-9a-f]{{12}})#as-recorded"',
                      preview)
    assert found, re.findall(r'href="[^"]*also=[^"]*"', preview)
    return f"{url}?also={seq}&keep={found.group(1)}"


def test_a_change_started_in_another_tab_is_never_mixed_into_this_one(app, client):
    """Found by a tampering session: tab A previews a change of #2, whose later #3 no longer
    fits; tab B of the same browser (the same session) previews a change of #5; tab A's
    "Change it too" then showed B's change mixed into A's, to confirm. It is refused (409),
    in words, and nothing is recorded."""
    table_id = seed(app, "street", ["Mia", "Ola"], moves.three_rounds()[:11])
    url = f"/street/{table_id}/"
    card = {"player": "Mia", "street": "Mia", "site": "2", "source": "Mia", "cost": "2",
            "card": "", "project": "office", "on": "table"}
    tab_a = text(client.post(url + "play/0?change=2", data={
        **fresh(client, url + "?change=2"), **card}))
    also = change_too(tab_a, url, 11)
    tab_b = client.post(url + "play/0?change=5", data={
        **fresh(client, url + "?change=5"), **card, "site": "4", "source": "", "cost": ""})
    assert "Confirm the change" in text(tab_b)
    history = text(client.get(url + "history"))
    replaced = client.get(also)
    assert replaced.status_code == 409
    assert "Another change was started on this phone since" in text(replaced)
    assert client.post(url + "discard" + also.removeprefix(url), data={
        **fresh(client, url), "player": "Ola"}).status_code == 409
    assert text(client.get(url + "history")) == history


def test_upcoins_that_now_take_another_amount_are_listed(app, client):
    """The street: Mia's purchase from Ola's deck cost $3, not $2; Ola's upcoins, kept as
    recorded, now take $3: listed with what they took before, though no total moves."""
    table_id = seed(app, "street", ["Mia", "Ola"], moves.three_rounds()[:4])
    url = f"/street/{table_id}/"
    preview = text(client.post(url + "play/0?change=2", data={
        **fresh(client, url + "?change=2"), "player": "Mia", "street": "Mia", "site": "2",
        "source": "Ola", "cost": "3", "card": "", "project": "office", "on": "table"}))
    listed = re.search(r'<ul class="rescored">(.*?)</ul>', preview, re.S).group(1)
    assert " ".join(re.sub(r"<[^>]+>", "", listed).split()) == (
        "#3 Ola took the upcoins from their deck: $3 Before: Ola took the upcoins from their "
        "deck: $2")
    totals = re.search(r'<table class="totals">.*?</table>', preview, re.S).group(0)
    rows = [" ".join(re.sub(r"<[^>]+>", " ", row).split())
            for row in re.findall(r"<tr class=.*?</tr>", totals, re.S)]
    assert rows == ["Mia 2 $8 2 $7", "Ola 4 $12 4 $13"], rows  # $1 more to Ola


def test_a_changed_action_s_form_is_filled_in_as_it_was_recorded(client):
    """The yard's correction, five fields: shown open with each as recorded, to change one."""
    url = played(client, BUYS)
    assert act(client, url, "correct", owner="Nina", building="museum", count=3,
               reason="miscount").status_code == 303
    page = text(client.get(url + "?change=5"))
    assert "Changing #5" in page
    fix = page.split('action="' + url + 'correct?change=5#')[1].split("</form>")[0]
    assert "<option selected>Nina</option>" in fix
    assert 'value="3"' in fix and 'value="miscount"' in fix
    assert re.search(r'<option selected value="museum">|<option value="museum" selected',
                     fix)


def test_a_later_action_taken_out_says_the_points_it_gave(app, client):
    """The street: Mia's first office (#1) taken out, Ola's roof (#5) no longer fits and goes
    with it: its line in the preview says the 3 points Ola had from it, now none."""
    names, actions = STREET
    table_id = seed(app, "street", names, actions)
    url = f"/street/{table_id}/"
    preview = text(client.post(url + "change/out?change=1", data=fresh(client, url + "?change=1")))
    dropped = preview.split("Later actions the rules no longer take</h2>")[1].split("</ul>")[0]
    line = re.search(r'<li><span class="seq">#5</span>.*?</li>', dropped, re.S).group(0)
    assert "Ola built a roof on site 2" in line
    assert '<span class="moved-points">Points: <span>Ola +3 → <b>0</b></span></span>' in line


def test_later_actions_each_refused_for_its_own_reason_point_at_none(client):
    """Found playing: Dirk's deal changed to more museums took out several later museum
    purchases, each over the seven on its own, and the preview said the first "may take the
    others with it". It says so only where the others fall for another reason than the first
    (the street's test below)."""
    url = new_table(client, "Tobi", "Nina")
    assert act(client, url, "dirk", museum=1, theater=5).status_code == 303
    for _ in range(6):
        assert act(client, url, "buy", player="Tobi", building="museum").status_code == 303
    preview = text(client.post(url + "dirk?change=1", data={
        **fresh(client, url + "?change=1"), "museum": 3, "theater": 3}))
    dropped = preview.split("Later actions the rules no longer take</h2>")[1].split("</ul>")[0]
    assert len(re.findall(r'<li><span class="seq">', dropped)) == 2
    assert "may take the others with it" not in preview


def test_a_change_that_takes_later_actions_out_says_how_many_before_and_after(app, client):
    """The street: Mia's first office (#1) taken out takes the later actions that no longer fit
    with it. Its Confirm button says how many (one tap away from losing them, so the button
    names what it does), and so does its line in the history once confirmed."""
    names, actions = STREET
    table_id = seed(app, "street", names, actions)
    url = f"/street/{table_id}/"
    preview = text(client.post(url + "change/out?change=1", data=fresh(client, url + "?change=1")))
    dropped = preview.split("Later actions the rules no longer take</h2>")[1].split("</ul>")[0]
    count = len(re.findall(r'<li><span class="seq">', dropped))
    assert count > 1
    first = re.search(r'<li><span class="seq">#(\d+)</span>', dropped).group(1)
    # the first may take the rest with it (a helper saw 18 taken out by one over-budget build)
    assert (f"The first, #{first}, may take the others with it: change it too, and the rest are "
            "refereed again.") in preview
    assert f'<button class="danger wide">Confirm the change and take out {count} later actions' \
        '</button>' in preview  # not the page's one blue button: it takes actions out
    assert client.post(url + "change", data=confirm_fields(preview)).status_code == 303
    history = text(client.get(url + "history"))
    assert f"; {count} later actions taken out with it" in history
    german = text(client.get(url + "history", headers=GERMAN))
    assert f"; {count} spätere Aktionen damit herausgenommen" in german


def test_a_change_that_takes_nothing_else_out_is_confirmed_as_before(client):
    """A change whose later actions all still fit: the button and history say only the
    change."""
    url = played(client, BUYS)
    preview = text(client.post(url + "change/out?change=2", data=fresh(client, url + "?change=2")))
    assert "Confirm the change</button>" in preview
    assert client.post(url + "change", data=confirm_fields(preview)).status_code == 303
    assert "later action" not in text(client.get(url + "history"))


def test_the_change_link_leads_to_the_action_s_form_opened_as_recorded(client):
    """A correction far down the page: the history's Change link goes to `#as-recorded`, the
    summary of the correction's fold-out opened as recorded, so the phone shows the form to
    fix, with or without JavaScript; a fold-out the players open instead is not it."""
    url = played(client, BUYS)
    assert act(client, url, "correct", owner="Nina", building="museum", count=3,
               reason="miscount").status_code == 303
    history = text(client.get(url + "history"))
    assert f'href="{url}?change=5#as-recorded"' in history
    page = text(client.get(url + "?change=5"))
    assert page.count('id="as-recorded"') == 1
    assert re.search(r'<details class="card" id="fix" open data-into-view="opened">'
                     r'<summary><span id="as-recorded">',
                     page)
    assert 'id="as-recorded"' not in text(client.get(url + "?change=5&open=setup"))


def test_the_language_switch_keeps_the_change(client):
    """Switching to German while changing #5 comes back to #5's change, in German."""
    url = played(client, BUYS)
    assert act(client, url, "correct", owner="Nina", building="museum", count=3,
               reason="miscount").status_code == 303
    page = text(client.get(url + "?change=5"))
    switch = re.search(r'<a href="([^"]+)" lang="de"', page).group(1).replace("&amp;", "&")
    answer = client.get(switch)
    assert answer.headers["Location"] == f"{url}?change=5#as-recorded"
    assert "#5 ändern: " in text(client.get(answer.headers["Location"]))


def test_a_change_goes_out_and_comes_back_with_an_export(app, client):
    url = played(client, BUYS)
    fields = fresh(client, url + "?change=1")
    preview = text(client.post(url + "buy?change=1",
                               data={"player": "Nina", "building": "park", **fields}))
    assert client.post(url + "change", data=confirm_fields(preview)).status_code == 303
    table_id = url.rstrip("/").rsplit("/", 1)[1]
    document = exported(client, "yard", table_id)
    assert document["events"][-1]["kind"] == "change"
    imported = upload(client, document)
    assert imported.status_code == 303, text(imported)
    copy = imported.headers["Location"]
    assert vars(state_of(app, copy)) | {"note": None} == vars(state_of(app, url)) | {"note": None}
    assert "Changed: Tobi bought a park → Nina bought a park" in text(client.get(copy + "history"))
    assert act(client, copy, "undo").status_code == 303  # undone in the copy too
    assert state_of(app, copy).buildings["Tobi"]["park"] == 1


def test_a_fifth_avenue_change_is_said_in_german_with_the_plot_by_its_colour(app, client):
    """Not "#23 ändern: Auction: Fay won": the action in the players' language, the district
    and the plot by the colour the board shows, on the change page and in its preview."""
    names, actions = FIFTH_AVENUE
    table_id = seed(app, "fifth_avenue", names, actions[:24])
    url = f"/fifth_avenue/{table_id}/"
    page = text(client.get(url + "?change=23", headers=GERMAN))
    assert ("#23 ändern: Ann hat 52nd St East für Bauplatz grau ersteigert und nichts gebaut "
            "(Karten 4)") in page
    fields = fresh(client, url + "?change=23")
    preview = text(client.post(url + "auction?change=23", headers=GERMAN,
                               data={"bid": "Ann:gray", "build": 1, **fields}))
    assert ("Ändern: Ann hat 52nd St East für Bauplatz grau ersteigert und nichts gebaut "
            "(Karten 4) → Ann hat 52nd St East ersteigert und auf Bauplatz grau 1 Hochhaus "
            "gebaut") in preview
    said = re.sub(r"<[^>]+>", " ", preview)  # the words, not the signed change's letters
    assert "won" not in said and "plot" not in said
    # The skyscraper Ann builds leaves her supply (found at a table: the preview said only the
    # VP, where a supply limits what a player builds later).
    assert ('<th scope="row">Ann</th><td>0 <small>1 Hochhaus im Vorrat</small></td><td><b>0</b>'
            ' <small>0 Hochhäuser im Vorrat</small>') in preview


def test_option_a_taken_out_is_said_with_the_skyscrapers_it_took(app, client):
    """Found at a table: "Take out: Cem took skyscrapers (option A)" did not say how many; the
    rules' account of it does, as a change of it says it."""
    from tests.tables import OPENINGS

    names, actions = OPENINGS["fifth_avenue"]
    seq = next(k for k, (kind, _payload) in enumerate(actions, 1) if kind == "skyscrapers")
    table_id = seed(app, "fifth_avenue", names, actions)
    url = f"/fifth_avenue/{table_id}/"
    preview = text(client.post(url + f"change/out?change={seq}",
                               data=fresh(client, url + f"?change={seq}")))
    assert re.search(r"Take out: Ben took 3 skyscrapers \(option A\): \d+ in supply\.", preview), \
        re.search(r'<h1 id="change-title">.*?</h1>', preview, re.S).group(0)


def test_the_strip_says_the_change_without_a_later_action_s_note(app, client):
    """After a change the table's note is the last replayed action's (here Alea's bid in the
    next auction): the strip says the change, and what it gave, not that note."""
    names, actions = FIFTH_AVENUE
    table_id = seed(app, "fifth_avenue", names, actions[:24])
    url = f"/fifth_avenue/{table_id}/"
    fields = fresh(client, url + "?change=23")
    preview = text(client.post(url + "auction?change=23",
                               data={"bid": "Ann:gray", "build": 1, **fields}))
    client.post(url + "change", data=confirm_fields(preview))
    strip = text(client.get(url)).split('class="score-strip"')[1].split("</aside>")[0]
    # the action as it now stands (found at a table: "Changed: ... → ..." was cut short in the
    # strip, which then showed only the action as it was)
    assert "Last: Changed #23: Ann won 52nd St East and built 1 skyscraper on the gray plot" \
        in strip
    assert "Alea bids" not in strip and "Alea draws" not in strip


def test_a_signed_change_is_bound_to_its_table_and_seq_and_expires(client, monkeypatch):
    """Issue 43: a preview's signed change names its table (by its mark) and the seq it was
    made at, and expires. Made at one table and posted with another table's own seq and key to
    that table, it is refused, and so is one whose seq was altered, or one confirmed too late
    (in German too); nothing is recorded."""
    url, other = played(client, BUYS), played(client, BUYS)
    fields = fresh(client, url + "?change=1")
    preview = text(client.post(url + "buy?change=1",
                               data={"player": "Nina", "building": "park", **fields}))
    data = confirm_fields(preview)
    elsewhere = client.post(other + "change", data={**data, **fresh(client, other)})
    assert elsewhere.status_code == 422
    assert "This change could not be read" in text(elsewhere)
    assert current_seq(client, other) == len(BUYS)  # nothing recorded there
    behind = client.post(url + "change", data={**data, "seq": int(data["seq"]) - 1})
    assert behind.status_code == 409  # refused, as any form from an outdated screen
    assert "The table changed since this screen was loaded" in text(behind)
    monkeypatch.setattr(change, "CHANGE_SECONDS", -1)
    late = client.post(url + "change", data=data, headers=GERMAN)
    assert late.status_code == 422
    assert ("Diese Vorschau ist zu alt zum Bestätigen: Beginne die Änderung noch einmal im "
            "Verlauf.") in text(late)
    monkeypatch.setattr(change, "CHANGE_SECONDS", 3600)
    assert client.post(url + "change", data=data).status_code == 303  # in time, at its table


DIRK_GAME = ["Tobi", "Nina"]


def yard_buy(player, building):
    return ("buy", {"player": player, "building": building, "for": player})


def scoring_tapped_early(app):
    """A yard game with Dirk where "Scoring A" (#4) and Dirk's deal (#5) were recorded one
    purchase early, before Nina's park (#6); and the same game as it happened."""
    start = [("dirk_deal", {"buildings": {"museum": 6}}), yard_buy("Tobi", "park"),
             yard_buy("Nina", "museum")]
    scoring = [("score", {"scoring": "A"}), ("dirk_deal", {"buildings": {"theater": 6}})]
    later = [yard_buy("Tobi", "church"), yard_buy("Nina", "station")]
    return (seed(app, "yard", DIRK_GAME, [*start, *scoring, yard_buy("Nina", "park"), *later]),
            seed(app, "yard", DIRK_GAME, [*start, yard_buy("Nina", "park"), *scoring, *later]))


def test_a_move_among_alike_actions_changes_nothing_and_says_so(app, client):
    """Found by the no-dead-ends fuzz test: an action moved past actions just like it (Ann's
    museums in a row) enters every action as it was: no edit at all, and the preview's rules
    met an empty change (a server error). The "Move it" fold-out never offers it; sent all the
    same (an older screen, a tampered form), it is refused in words, and nothing changes."""
    url = new_table(client, "Ann", "Ben")
    assert act(client, url, "dirk", skyscraper=4, park=2).status_code == 303
    for _ in range(2):
        assert act(client, url, "buy", player="Ann", building="museum").status_code == 303
    seq = current_seq(client, url)
    assert ">After #3:" not in text(client.get(url + "?change=2&open=move"))  # not offered
    fields = fresh(client, url + "?change=2")
    refused = client.post(url + "change/move?change=2", data={**fields, "to": 3})
    assert refused.status_code == 422 and current_seq(client, url) == seq
    assert "Every action stands as it was: nothing changes." in text(refused)


def test_a_scoring_tapped_one_purchase_early_is_moved_after_it(app, client):
    """Found at a table: "Scoring A card drawn" tapped one purchase early, noticed three actions
    later. Changing the scoring into the purchase took out every later action; the purchase,
    moved before the scoring, puts each where it happened and keeps every later one."""
    table_id, right = scoring_tapped_early(app)
    names = DIRK_GAME
    url = f"/yard/{table_id}/"
    changing = text(client.get(url + "?change=6"))  # Nina's park
    assert "Recorded at the wrong moment? Move it" in changing  # a fold-out, and in the strip:
    assert changing.count('href="?change=6&amp;open=move#move"') == 2  # the page is at the form
    changing = text(client.get(url + "?change=6&open=move"))
    assert ">Before #4: Scoring A<" in changing and ">After #7: Tobi bought a church<" in changing
    assert ">Before #5:" not in changing  # before Dirk's deal: refused, so not offered
    fields = fresh(client, url + "?change=6")
    refused = client.post(url + "change/move?change=6", data={**fields, "to": 5})
    assert refused.status_code == 422  # before Dirk's deal: the rules say why, nothing changes
    assert "Not moved: the rules refuse it there. First deal Dirk his 6 cards." in text(refused)
    preview = client.post(url + "change/move?change=6", data={**fields, "to": 4})
    assert preview.status_code == 200
    page = text(preview)
    # Said as a move (found at a table: "Scoring A → Nina bought a park; ..." read as a
    # scoring turned into a purchase), in the preview, the history and the strip.
    assert '<h1 id="change-title">Move: Nina bought a park, before Scoring A</h1>' in page
    assert "Later actions the rules no longer take" not in page
    german = text(client.post(url + "change/move?change=6", data={**fields, "to": 4},
                              headers=GERMAN))
    assert "Verschieben: Nina hat einen Park gekauft, vor Wertung A" in german
    confirmed = client.post(url + "change", data=confirm_fields(page), follow_redirects=True)
    assert "Moved: Nina bought a park, before Scoring A" in text(confirmed)  # the strip's line
    assert "Moved: Nina bought a park, before Scoring A" in text(client.get(url + "history"))
    db = storage.connect(app.config["DATABASE"])
    now, meant = (replays.current(db, t, rules.GAMES["yard"], names).state
                  for t in (table_id, right))
    assert now.totals() == meant.totals() and now.buildings == meant.buildings
    assert act(client, url, "undo").status_code == 303  # undone as any change is
    before, _right = scoring_tapped_early(app)
    assert replays.current(db, table_id, rules.GAMES["yard"], names).state.totals() == \
        replays.current(db, before, rules.GAMES["yard"], names).state.totals()


def test_a_scoring_tapped_one_purchase_early_brings_that_purchase_before_it(app, client):
    """Found at a table with Dirk: the scoring, changed, fitted nowhere ("By the rules it fits
    nowhere ..."): Dirk's deal follows it, and the rules keep the deal after the scoring. The
    purchase after the deal, brought before the scoring, is the move that puts each action
    where it happened."""
    table_id, right = scoring_tapped_early(app)
    names = DIRK_GAME
    url = f"/yard/{table_id}/"
    fold = text(client.get(url + "?change=4&open=move"))  # the scoring
    offered = [words for _to, words in re.findall(r'name="to" value="(\d+)">([^<]*)<', fold)]
    assert "#6 brought before #4: Nina bought a park" in offered, offered
    assert not any(words.startswith("After #6") for words in offered)  # the deal before it
    fields = fresh(client, url + "?change=4")
    preview = text(client.post(url + "change/move?change=4",
                               data={**fields, "moved": 6, "to": 4}))
    assert '<h1 id="change-title">Move: Nina bought a park, before Scoring A</h1>' in preview
    assert client.post(url + "change", data=confirm_fields(preview)).status_code == 303
    db = storage.connect(app.config["DATABASE"])
    now, meant = (replays.current(db, t, rules.GAMES["yard"], names).state
                  for t in (table_id, right))
    assert now.totals() == meant.totals() and now.buildings == meant.buildings
    fields = fresh(client, url + "?change=7")
    elsewhere = client.post(url + "change/move?change=7", data={**fields, "moved": 2, "to": 3})
    assert elsewhere.status_code == 422  # neither the action being changed nor brought to it
    assert "Only the action being changed moves, or one brought to it." in text(elsewhere)


def test_a_move_of_no_action_in_force_is_refused_in_words(app, client):
    names, actions = STREET
    table_id = seed(app, "street", names, actions[:6])
    url = f"/street/{table_id}/"
    fields = fresh(client, url + "?change=5")
    for to, status in ((5, 422), (99, 422), ("x", 400), (3, 422)):  # #3: an undo, no action
        refused = client.post(url + "change/move?change=5", data={**fields, "to": to})
        assert refused.status_code == status, to
        assert "Action 5 cannot be moved there." in text(refused) or status == 400
    assert current_seq(client, url) == 6


def test_a_deck_said_empty_one_action_late_is_moved_back_and_recorded(app, client):
    """Found at a table: Ola's deck ran out with Mia's purchase and was said empty only after
    Ola took her upcoins. The move is offered (read where it now stands, the turn and step it
    records worked out there again), previewed, confirmed and recorded."""
    said_late = [moves.build("Mia", 1, moves.card()),
                 moves.bought("Mia", 2, moves.card(), "Ola", cost=3),
                 ("upcoins", {"player": "Ola"}), ("deck_empty", {"player": "Ola", "by": "Mia"})]
    table_id = seed(app, "street", ["Mia", "Ola"], said_late)
    url = f"/street/{table_id}/"
    fold = text(client.get(url + "?change=4&open=move"))
    offered = re.findall(r'name="to" value="(\d+)">([^<]*)<', fold)
    assert offered == [("3", "Before #3: Ola took the upcoins from their deck")], offered
    preview = text(client.post(url + "change/move?change=4",
                               data={**fresh(client, url + "?change=4"), "to": 3}))
    assert ("Move: Ola&#39;s deck is empty: Mia took its last card, before Ola took the upcoins "
            "from their deck") in preview
    assert client.post(url + "change", data=confirm_fields(preview)).status_code == 303
    db = storage.connect(app.config["DATABASE"])
    in_time = seed(app, "street", ["Mia", "Ola"], [*said_late[:2], said_late[3], said_late[2]])
    game = rules.GAMES["street"]
    now, meant = (replays.current(db, t, game, ["Mia", "Ola"]).state for t in (table_id, in_time))
    assert now.scores() == meant.scores() and now.final_round == meant.final_round


@pytest.mark.parametrize("slug", ["yard", "fifth_avenue", "street", "urbanisation"])
def test_every_game_opens_the_move_of_the_action_being_changed(app, client, slug):
    """Found at a table: 5th Avenue, which has no fold-out of its own, never opened "Recorded at
    the wrong moment? Move it": no places, and no word that there were none."""
    names, actions = FINISHED[slug]
    table_id = seed(app, slug, names, actions[:12])
    page = text(client.get(f"/{slug}/{table_id}/?change=10&open=move"))
    fold = re.search(r'<details class="move-it" id="move" open.*?</details>', page, re.S)
    assert fold, slug
    places = fold.group(0)  # each place it may go, or that it may go to none
    assert ('name="to"' in places) != ("By the rules it fits nowhere one or two" in places)
