"""A fix never changes what it did not touch (issue 40), as a table meets it: in real Chromium at
phone size with touch, from the history's Change link to the confirmed change. The preview says
every field the change changes and each later action it cannot keep, with why; a kept action is
the same action after it (the same player, auction and phase), and the page says what comes next
as the rules have it."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from companion.rules.fifth_avenue import COLOUR_NAMES
from companion.rules.fifth_avenue_table import DEFAULT_PROFILE, DEFAULT_SET_SIZES, DISTRICT_IDS
from companion.rules.log import as_played, resolve
from companion.rules.urbanisation_example import SETUP, TURN_1, TURN_2, TURN_3
from tests.browser.changes import screenshot, to_the_change
from tests.browser.helpers import tap_and_load
from tests.browser.states import logged, seed

START = {d: {"plot": 0, "kind": "boutique"} for d in DISTRICT_IDS}
ROW = ["boutique", "jeweler", "gallery", "perfume"] * 5


def fifth_avenue(players: tuple[str, ...], *actions: tuple[str, dict]) -> tuple:
    placed = [("initial_skyscraper", {"district": d, "plot": 1})
              for d in ("34w", "34e", "times", "42w", "42e", "52w")][:2 * len(players)]
    return (("profile", {"colours": DEFAULT_PROFILE, "set_sizes": list(DEFAULT_SET_SIZES)}),
            ("setup", {"start": START, "row": ROW, "turns": True}),
            ("first_placer", {"player": players[0]}), *placed, *actions)


def move(to: str, commissioner: str = "white") -> tuple[str, dict]:
    return ("move", {"commissioner": commissioner, "to": to})


def preview(phone: Page) -> str:
    expect(phone.locator(".change-preview h1")).to_be_in_viewport()
    return phone.locator(".change-preview").inner_text()


def confirm(phone: Page, name: str) -> None:
    screenshot(phone, name)
    phone.get_by_role("button", name="Confirm the change").tap()
    expect(phone.locator(".change-preview")).to_have_count(0)


def test_a_business_moved_to_another_district_keeps_alea_s_win_building_where_alea_now_would(
        phone: Page, live_database: Path) -> None:
    """Ann's business (#8) stood in 42nd St East, not 34th St West. Alea had then won 34th St
    West and built on its brown and green plots. The version 1 app read that win again on the
    changed board and said nothing; then the change took it out, and with it every later
    action of a game (a hand-played game lost 13). Now the win stays Alea's, read again on the
    board as it is (ruling "stand_in"): the preview lists it with what changed and why, and
    after the change Alea's win builds on the green plot only (the table takes the brown
    skyscraper off) and Times Square's auction comes next, as before."""
    players = ("Ann", "Ben")
    options = [("skyscrapers", {"player": p}) for p in ("Ben", "Ann", "Ben", "Ann")]
    log = fifth_avenue(players, ("business", {"district": "34w", "plot": 2, "tile": 0}),
                       move("34w"), options[0], move("times"), options[1], move("52w"),
                       options[2], move("central_park"), options[3], move("city_hall"),
                       ("alea_bid", {"cards": [4, 5, 4], "high_bid": 9}),
                       ("auction", {"winner": "alea"}))
    table_id = seed(live_database, "fifth_avenue", players, log)
    won = logged(live_database, table_id)[-1]
    assert won.payload["plots"] == ["brown", "green"]
    to_the_change(phone, "fifth_avenue", table_id, 8)
    green = COLOUR_NAMES[DEFAULT_PROFILE["42e"][0]]
    phone.get_by_role("button", name=f"42nd St East, {green} plot: boutique", exact=True).tap()
    said = preview(phone)
    # two actions changed (Alea's win read again): each said in its words, not its account
    assert ("Change: Ann placed a boutique in 34th St West, on the gray plot → Ann placed a "
            "boutique in 42nd St East, on the green plot; Alea won 34th St West") in said
    assert "Later actions the rules no longer take as they were" in said
    assert ("Alea won 34th St West and built one skyscraper on each of the brown and green "
            "plots → Alea won 34th St West and built one skyscraper on the green plot: Alea "
            "built on the brown and green plots; here Alea would build on the green plot.") in said
    expect(phone.get_by_role("heading", name="Later actions the rules no longer take",
                             exact=True)).to_have_count(0)  # nothing taken out
    confirm(phone, "fifth-avenue-alea-business-moved")
    expect(phone.locator("#auction h2")).to_have_text("Auction: Times Square")
    phone.goto(f"/fifth_avenue/{table_id}/history")
    history = phone.locator("ol.history").inner_text()
    assert "Alea won 34th St West and built one skyscraper on the green plot" in history
    events = logged(live_database, table_id)
    assert events[-1].payload["drop"] == []
    assert [e["seq"] for e in events[-1].payload["edits"]] == [8, won.seq]


def test_an_auction_won_by_another_player_keeps_every_later_move_in_its_hands(
        phone: Page, live_database: Path) -> None:
    """Three players: 34th St West's auction (#14) was Gus's, not Fay's. Gus then has too few
    skyscrapers for the 3 he built in Times Square: the preview says so, and that the later
    auctions belong to other districts and Hal's move to after them (the version 1 app read
    them as the next auctions and as other players' moves). "Change it too" on Times Square:
    Gus built 2, and every later action stays, each as it was; Fay's turn comes next, as
    before."""
    players = ("Fay", "Gus", "Hal")
    log = fifth_avenue(players, move("34w"), move("times"), move("52w"), move("central_park"),
                       move("city_hall"),
                       ("auction", {"winner": "Fay", "colour": "orange", "build": 1}),
                       ("auction", {"winner": "Gus", "colour": "brown", "build": 3}),
                       ("auction", {"winner": "Hal", "colour": "gray", "build": 1}),
                       ("auction", {"winner": None}), move("34e"))
    table_id = seed(live_database, "fifth_avenue", players, log)
    before = logged(live_database, table_id)
    to_the_change(phone, "fifth_avenue", table_id, 15)
    tap_and_load(phone, phone.locator(".chips a", has_text="Gus, gray"))  # answered in place
    phone.get_by_role("button", name="Built 1", exact=True).tap()
    said = preview(phone)
    assert ("Gus won Times Square and built 3 skyscrapers on the brown plot: Gus has 2 "
            "skyscrapers in supply") in said
    assert ("This belongs to the auction in 52nd St West; here the auction in Times Square is "
            "under way.") in said
    assert "Hal moved the white commissioner from City Hall to 34th St East: First finish the " \
           "auctions under way." in said
    screenshot(phone, "fifth-avenue-3-players-winner-changed")
    phone.get_by_role("link", name="Change it too (#16)").tap()
    tap_and_load(phone, phone.locator(".chips a", has_text="Gus, brown"))  # answered in place
    phone.get_by_role("button", name="Built 2", exact=True).tap()
    said = preview(phone)
    assert "no longer take" not in said
    confirm(phone, "fifth-avenue-3-players-changed-too")
    expect(phone.locator(".strip-next")).to_contain_text("Fay's turn: the 1st action")
    after = logged(live_database, table_id)
    fix = after[-1].payload
    assert fix["drop"] == [] and [e["seq"] for e in fix["edits"]] == [15, 16]
    played = {e.seq: e for e in as_played(resolve(after).done)}
    assert [played[seq] for seq in (17, 18, 19)] == before[16:19]  # kept as recorded
    assert played[19].payload["player"] == "Hal"


def test_a_land_purchase_changed_to_a_pass_keeps_every_other_action_in_its_phase(
        phone: Page, live_database: Path) -> None:
    """Urbanisation, three players: Ben's territory in turn 2 (#30) changed to a pass. Without
    it, Ben's factory and production in turn 3 have no ground: a pass of those phases stands in
    for each (the preview says so and why), and every other action stays in its turn and phase
    (the version 1 app took out seven later actions, other players' too, and moved a kept
    "collected taxes" into another phase)."""
    players = ("Ann", "Ben", "Cy")
    table_id = seed(live_database, "urbanisation", players, (SETUP, *TURN_1, *TURN_2, *TURN_3))
    before = logged(live_database, table_id)
    land = next(e.seq for e in before if e.kind == "buy_land" and e.payload["player"] == "Ben")
    to_the_change(phone, "urbanisation", table_id, land)
    phone.get_by_role("button", name="Ben passes").tap()
    said = preview(phone)
    assert "Later actions the rules no longer take as they were" in said
    assert "A new factory needs an empty building ground: Ben has none." in said
    assert "Ben owns no factory 4." in said
    assert "Later actions the rules no longer take\n" not in said
    confirm(phone, "urbanisation-land-to-pass")
    after = logged(live_database, table_id)
    fix = after[-1].payload
    assert fix["drop"] == []
    slot = {e.seq: (e.payload.get("player"), e.payload.get("turn"), e.payload.get("phase"))
            for e in before}
    for edit in fix["edits"]:
        now = edit["now"]["payload"]
        assert (now.get("player"), now.get("turn"), now.get("phase")) == slot[edit["seq"]]
    expect(phone.locator(".strip-next")).to_contain_text("Turn 4")
