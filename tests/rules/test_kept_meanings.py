"""A fix never changes what it did not touch (issue 40): the cases tables met, as named tests.
Each game is recorded as the app records it (every action with what it means where it stood);
a change keeps a later action as the same action (in 5th Avenue, read again where only the
district a commissioner moves from or the outcome of Alea's win differs: the plots Alea builds
on, its building stop, or no skyscraper left), or takes it out with the rules' reason (in
Urbanisation, a pass of that phase stands in), and never reads it as another one."""

import pytest

from benchmarks.games import GAME_SCRIPTS, PLAYERS
from companion import rules
from companion.rules import fifth_avenue_table
from companion.rules.common import RuleError
from companion.rules.fifth_avenue_table import DEFAULT_PROFILE, DEFAULT_SET_SIZES, DISTRICT_IDS
from companion.rules.log import CHANGE, VERSION, Event
from companion.rules.referee import recorded_log
from companion.rules.urbanisation_example import SETUP, TURN_1, TURN_2, TURN_3
from tests import street_moves as moves

FIFTH = rules.GAMES["fifth_avenue"]
URBANISATION = rules.GAMES["urbanisation"]
ROW = ["boutique", "jeweler", "gallery", "perfume"] * 5
START = {d: {"plot": 0, "kind": "boutique"} for d in DISTRICT_IDS}


def recorded(game, players, actions):
    """The actions as the app records them, each with what it means where it stood (and an
    Urbanisation administration with the Mayor it hands over, as its form records it)."""
    state, events = game.start(players), []
    for kind, payload in actions:
        mayor = state.mayor_after(payload) if kind == "administration" else None
        payload = state.recorded(kind, {**payload, **({"mayor": mayor} if mayor else {})})
        state.apply(kind, payload)
        events.append(Event(len(events) + 1, kind, payload))
    return events


def fifth_avenue(players, *actions):
    placed = [("initial_skyscraper", {"district": d, "plot": 1})
              for d in ("34w", "34e", "times", "42w", "42e", "52w")][:2 * len(players)]
    return recorded(FIFTH, players, [
        ("profile", {"colours": DEFAULT_PROFILE, "set_sizes": list(DEFAULT_SET_SIZES)}),
        ("setup", {"start": START, "row": ROW, "turns": True}),
        ("first_placer", {"player": players[0]}), *placed, *actions])


def move(to, commissioner="white"):
    return ("move", {"commissioner": commissioner, "to": to})


def seq_of(events, kind, **payload):
    return next(e.seq for e in events if e.kind == kind
                and all(e.payload.get(k) == v for k, v in payload.items()))


def dropped(fix):
    return {event.seq: str(why) for event, why in fix.dropped}


# 5th Avenue: a move keeps its hands and its place in the turn ----------------------------------


def test_taking_out_a_1st_action_makes_neither_its_move_option_c_nor_the_next_move_hers():
    """Fay took 3 skyscrapers (option A) and moved the white commissioner (her 3rd action);
    Gus moved twice (option C). Taken out, Fay's option A leaves her turn's 1st action open:
    the version 1 app read her move as option C and Gus's first move as her 3rd action ("Fay
    moved the beige commissioner"). Now each is refused, saying why, and none changes hands."""
    events = fifth_avenue(["Fay", "Gus", "Hal"], ("skyscrapers", {"player": "Fay"}),
                          move("34w"), move("34e", "beige"), move("times"))
    fix = rules.corrected(FIFTH, ["Fay", "Gus", "Hal"], events, {10: None})
    assert dropped(fix) == {
        11: "This move was the 3rd action of its turn; here it would be the 1st (option C).",
        12: "It is Fay's turn, not Gus's.",
        13: "It is Fay's turn, not Gus's.",
    }
    assert fix.state.current_player == "Fay" and fix.state.turn_steps == []


def test_taking_out_an_initial_placement_moves_no_later_placement_to_another_player():
    """Ann, Ben, Ben, Ann place the initial skyscrapers (#4 to #7). Without Ann's first, the
    version 1 app gave Ben's two to Ann and Ben; now they are refused, and Ann's second stays
    hers."""
    events = fifth_avenue(["Ann", "Ben"])
    fix = rules.corrected(FIFTH, ["Ann", "Ben"], events, {4: None})
    assert dropped(fix) == {5: "It is Ann's turn, not Ben's.", 6: "It is Ann's turn, not Ben's."}
    owners = {e.seq: e.payload["player"] for e in fix.played if e.kind == "initial_skyscraper"}
    assert owners == {7: "Ann"}


def option_a(*moves, players=("Ann", "Ben", "Cy")):
    """Turns of option A, in seat order: 3 skyscrapers, then a move of the white
    commissioner."""
    turns = []
    for turn, to in enumerate(moves):
        turns += [("skyscrapers", {"player": players[turn % len(players)]}), move(to)]
    return turns


# The white commissioner visits 34th St West, Times Square and 52nd St West, then comes back to
# City Hall: auctions in 34th St West, Times Square, 52nd St West and Central Park.
ROUND = ("34w", "times", "52w", "central_park", "city_hall")


def auctions_with_alea():
    return fifth_avenue(["Ann", "Ben"], *option_a(*ROUND, players=("Ann", "Ben")),
                        ("alea_bid", {"cards": [4, 5, 4], "high_bid": 9}),
                        ("auction", {"winner": "alea"}),
                        ("alea_bid", {"cards": [6, 6], "high_bid": 8}),
                        ("auction", {"winner": "alea"}))


def test_alea_s_outcome_stays_in_its_auction():
    """Alea's draw and win in 34th St West taken out: Times Square's draw and win are not read
    as 34th St West's (the version 1 app did, and built for Alea on another plot); they are
    refused, saying which auction they belong to."""
    events = auctions_with_alea()
    times = seq_of(events, "alea_bid", place="times")
    assert events[times].payload["plots"] == ["orange"]  # Alea built on the orange plot
    fix = rules.corrected(FIFTH, ["Ann", "Ben"], events, {times - 2: None})
    assert dropped(fix)[times - 1] == "Alea bids third: draw or enter Alea's cards first."
    assert dropped(fix)[times] == ("This belongs to the auction in Times Square; here the "
                                   "auction in 34th St West is under way.")
    assert all(e.payload.get("place") != "times" for e in fix.played)


def test_a_move_changed_keeps_the_commissioner_s_later_moves_from_where_it_now_stands():
    """As in a hand-played game: the white commissioner went to 34th St East, not 34th St West
    (its move changed); Ben's later move of it to Times Square was taken out because it had
    been recorded from 34th St West, and everything after it with it. Times Square is next to
    both: the move stays Ben's, to Times Square, read again from 34th St East (ruling
    "stand_in"), and every later action stays as it was."""
    events = fifth_avenue(["Ann", "Ben"], *option_a(*ROUND, players=("Ann", "Ben")))
    first = seq_of(events, "move", to="34w")
    later = seq_of(events, "move", to="times")
    assert events[later - 1].payload["from"] == "34w"
    fix = rules.corrected(FIFTH, ["Ann", "Ben"], events,
                          {first: ("move", {"commissioner": "white", "to": "34e"})})
    assert dropped(fix) == {}
    [(was, now, why)] = fix.replaced
    assert (was.seq, now.payload["from"], now.payload["to"], now.payload["player"]) == (
        later, "34e", "times", "Ben")
    assert why == "This commissioner moved from 34th St West; here it stands in 34th St East."
    assert [e.payload for e in fix.played if e.seq > later] == [
        e.payload for e in events if e.seq > later]
    # The district it visited is 34th St East's now: the auctions it starts are there.
    assert [a.place for a in fix.state.auctions] == ["34e", "times", "52w", "central_park"]


def test_a_move_that_cannot_follow_a_changed_one_is_still_taken_out():
    """The white commissioner went to 34th St East, not 34th St West: its next move, to 42nd
    St West, is no move from there (only Times Square and 42nd St East are next), so it is
    taken out with why, as before, and nothing stands in for it."""
    events = fifth_avenue(["Ann", "Ben"], *option_a("34w", "42w", "52w", players=("Ann", "Ben")))
    first = seq_of(events, "move", to="34w")
    fix = rules.corrected(FIFTH, ["Ann", "Ben"], events,
                          {first: ("move", {"commissioner": "white", "to": "34e"})})
    assert dropped(fix)[seq_of(events, "move", to="42w")] == (
        "This commissioner moved from 34th St West; here it stands in 34th St East.")
    assert fix.replaced == []


def test_a_business_moved_keeps_alea_s_win_building_where_alea_now_would():
    """Ann's business stood in 42nd St East, not 34th St West: Alea, who won 34th St West and
    built on its brown and green plots, now builds on the green plot only. The win stays
    Alea's, read again on the changed board (ruling "stand_in"), and so does every later
    action: the table takes Alea's brown skyscraper off the board."""
    players = ("Ann", "Ben")
    events = fifth_avenue(players, ("business", {"district": "34w", "plot": 2, "tile": 0}),
                          *option_a(*ROUND, players=players)[1:],
                          ("alea_bid", {"cards": [4, 5, 4], "high_bid": 9}),
                          ("auction", {"winner": "alea"}),
                          ("alea_bid", {"cards": [6, 6], "high_bid": 8}),
                          ("auction", {"winner": "alea"}))
    won = seq_of(events, "auction", place="34w")
    business = seq_of(events, "business")
    assert events[won - 1].payload["plots"] == ["brown", "green"]
    fix = rules.corrected(FIFTH, list(players), events, {business: (
        "business", {"district": "42e", "plot": 0, "tile": 0})})
    assert dropped(fix) == {}
    [(was, now, why)] = fix.replaced
    assert (was.seq, now.payload["winner"], now.payload["plots"]) == (won, "alea", ["green"])
    assert why == ("Alea built on the brown and green plots; here Alea would build on the "
                   "green plot.")
    assert [e.payload for e in fix.played if e.seq > won] == [
        e.payload for e in events if e.seq > won]


def test_alea_draws_once_per_auction():
    """"Alea's first draw is the whole bid": a second draw in one auction is refused."""
    events = auctions_with_alea()
    state = rules.replay(FIFTH, ["Ann", "Ben"], events[:seq_of(events, "alea_bid") - 1]).state
    state.apply("alea_bid", {"cards": [4, 5, 4]})
    with pytest.raises(RuleError, match="Alea's cards for the auction in 34th St West are drawn "
                                        "already: Alea's first draw is the whole bid."):
        state.apply("alea_bid", {"cards": [6, 6]})


# 5th Avenue: Alea's 18 skyscrapers (ruling "alea_pieces") and a change -----------------------


def alea_table(placed, *actions, ann_wins=lambda state: False):
    """Ann and Ben, with their initial skyscrapers on the plots `placed` (in placing order),
    then `actions`, recorded as the app records them; after each action, the auctions it
    starts: Alea draws 4 4 against a high bid of 5 and wins, but where `ann_wins`, Ann wins
    for her first colour and builds nothing."""
    state, events = FIFTH.start(["Ann", "Ben"]), []

    def record(kind, payload):
        payload = state.recorded(kind, payload)
        state.apply(kind, payload)
        events.append(Event(len(events) + 1, kind, payload))

    for kind, payload in [
            ("profile", {"colours": DEFAULT_PROFILE, "set_sizes": list(DEFAULT_SET_SIZES)}),
            ("setup", {"start": START, "row": ROW, "turns": True}),
            ("first_placer", {"player": "Ann"}),
            *(("initial_skyscraper", {"district": d, "plot": p}) for d, p in placed),
            *actions]:
        record(kind, payload)
        while state.phase == "auctions":
            record("alea_bid", {"cards": [4, 4], "high_bid": 5})
            record("auction", {"winner": "alea"} if not ann_wins(state) else {
                "winner": "Ann", "colour": state.colours_for(state.auctions[0].place, "Ann")[0],
                "cards": [6], "build": 0})
    return events


def trip(commissioner, *districts):
    """A commissioner's moves, each a 1st action (option C) or a 3rd, as the turn comes."""
    return [move(to, commissioner) for to in districts]


EAST = (("34e", 2), ("42e", 2), ("34e", 3), ("42e", 3))
WHITE = ("34w", "times", "52w", "central_park", "city_hall")
BEIGE = ("34e", "42e", "52e", "central_park", "city_hall")


def all_of_alea_s_out(*actions, ann_wins=lambda state: False):
    """Three trips won by Alea put all 18 of Alea's skyscrapers on the board (#46): two on
    each of 34th St West, Times Square, 52nd St West, 34th St East, 42nd St East and 52nd St
    East, four in the first three."""
    return alea_table(EAST, *trip("white", *WHITE), *trip("white", *WHITE),
                      *trip("beige", *BEIGE), *actions, ann_wins=ann_wins)


def won_by_alea(events, place, round_):
    return next(e for e in events if e.kind == "auction" and e.payload["place"] == place
                and e.payload["round"] == round_)


def alea_stop_in_52nd_st_east():
    """With all of Alea's skyscrapers out, Ann's and Ben's businesses (#48, #50) fill 52nd St
    East's last empty plots; Alea wins it again (#61, Ann winning 34th and 42nd St East) and
    declares a building stop."""
    return all_of_alea_s_out(
        move("34w"), ("business", {"tile": 0, "district": "52e", "plot": 2}), move("times"),
        ("business", {"tile": 1, "district": "52e", "plot": 3}), *trip("beige", *BEIGE),
        ann_wins=lambda state: state.auction_round == 4 and state.auctions[0].place in (
            "34e", "42e"))


def test_alea_s_building_stop_is_read_again_when_a_change_leaves_a_plot_empty_and_none_left():
    """Ben's business went to 34th St West, not 52nd St East: a plot of 52nd St East stays
    empty, and Alea, all 18 of its skyscrapers on the board, builds nothing there and declares
    no building stop. The win recorded as a building stop was kept as recorded, built nothing,
    and the history still said "declared a building stop"; now it is read again (ruling
    "stand_in"), and says so."""
    events = alea_stop_in_52nd_st_east()
    stop = won_by_alea(events, "52e", 4)
    assert (stop.seq, FIFTH.say(stop.kind, stop.payload)) == (
        61, "Alea won 52nd St East and declared a building stop")
    fix = rules.corrected(FIFTH, ["Ann", "Ben"], events, {50: (
        "business", {"tile": 1, "district": "34w", "plot": 0})})
    [(was, now, why)] = fix.replaced
    assert (was.seq, now.payload) == (61, {**stop.payload, "building_stop": False,
                                           "none_left": True})
    assert why == "Alea declared a building stop; here a plot is empty, so Alea declares none."
    assert FIFTH.say(now.kind, now.payload) == ("Alea won 52nd St East, with no skyscraper "
                                                "left to build")
    assert fix.rescored == [] and fix.dropped == [] and fix.state.stopped == []


def alea_s_last_win(ann_wins=lambda state: False):
    """Four trips with auctions won by Alea but where `ann_wins`: in round 4, Alea declares a
    building stop in 34th St East, which sends Alea's two skyscrapers there to the box, out of
    the game; Alea's win of Times Square next comes with none of Alea's skyscrapers left if
    Alea won every district before."""
    return alea_table(EAST, *trip("white", *WHITE), *trip("beige", *BEIGE),
                      *trip("white", "34w", "42w", "52w", "central_park", "city_hall"),
                      *trip("beige", "34e", "times", "52e", "central_park", "city_hall"),
                      ann_wins=ann_wins)


@pytest.mark.parametrize("ann_won, now, why, said", [
    (False, ("auction", {"winner": "Ann", "colour": "gray", "cards": [6], "build": 0}),
     "Alea had no skyscraper left to build; here Alea has some left.",
     "Alea won Times Square and built one skyscraper on each of the green and violet plots"),
    (True, ("auction", {"winner": "alea"}),
     "Alea had skyscrapers left to build; here Alea has none left.",
     "Alea won Times Square, with no skyscraper left to build"),
])
def test_alea_s_win_read_again_says_whether_alea_had_skyscrapers_left(ann_won, now, why, said):
    """42nd St West in round 3 won by Ann instead of Alea leaves Alea two skyscrapers for
    Times Square in round 4, where it had none left (those of its building stop in 34th St East
    went to the box); won by Alea instead of Ann, it takes Alea's last two, so Alea has none
    left there. The win is read again: its words, its reason and its record
    say what the board shows (they said "with no skyscraper left" with Alea building, or "a
    building stop" with none declared), and the change reads differently on either side."""
    events = alea_s_last_win(lambda state: ann_won and (state.auction_round,
                                                        state.auctions[0].place) == (3, "42w"))
    won = won_by_alea(events, "times", 4)
    fix = rules.corrected(FIFTH, ["Ann", "Ben"], events,
                          {won_by_alea(events, "42w", 3).seq: now})
    [(was, again, reason)] = fix.replaced
    assert (was.seq, reason, FIFTH.say(again.kind, again.payload)) == (won.seq, why, said)
    assert again.payload["none_left"] is ann_won and again.payload["building_stop"] is False
    assert FIFTH.say(was.kind, was.payload) != said
    assert fix.state.stopped == ["34e"] and fix.state.alea_left == 0


def test_alea_s_skyscrapers_a_building_stop_sent_to_the_box_are_out_of_the_game():
    """Found by a rules audit: a building stop's skyscrapers are "removed from the board and
    returned to the box - out of the game", Alea's too; Alea counted them as left and built a
    19th. After Alea's stop in 34th St East (two of Alea's there), with 16 on the board, Alea
    has none left for Times Square, and the button says why before it is tapped."""
    events = alea_s_last_win()
    times = won_by_alea(events, "times", 4)
    assert (times.payload["plots"], times.payload["none_left"], times.payload["box"]) == (
        [], True, True)
    before = rules.replay(FIFTH, ["Ann", "Ben"], events[:times.seq - 1]).state
    assert (before.alea_boxed, before.alea_left) == (2, 0)
    assert before.alea_win_said("times") == ("Alea won: Alea's skyscrapers are all on the "
                                             "board or out of the game, so Alea builds nothing")
    state = rules.replay(FIFTH, ["Ann", "Ben"], events).state
    assert sum(p.get("owner") == "alea" for d in state.board.values() for p in d) == 16
    assert FIFTH.say(times.kind, times.payload) == ("Alea won Times Square, with no skyscraper "
                                                    "left to build")


def test_an_alea_win_recorded_before_the_box_counted_keeps_its_reading(monkeypatch):
    """A log the app recorded before Alea's skyscrapers in the box counted as used (no `box`
    in Alea's wins): Alea built two more in Times Square after the stop, and the table replays
    and imports as it was refereed, its result unchanged."""
    with monkeypatch.context() as before_the_box:
        before_the_box.setattr(fifth_avenue_table, "_counts_box", lambda payload: False)
        events = alea_s_last_win()
    assert not any("box" in e.payload for e in events)
    assert won_by_alea(events, "times", 4).payload["plots"] == ["green", "violet"]
    state = rules.replay(FIFTH, ["Ann", "Ben"], events).state
    assert sum(p.get("owner") == "alea" for d in state.board.values() for p in d) == 18
    assert recorded_log(FIFTH, ["Ann", "Ben"], events, VERSION) == events


def test_a_change_that_reads_alea_s_win_again_is_recorded_and_imported_again():
    """The table's own log with such a change, as an import reads it (`recorded_log`, which
    refereed the change and refused it: "This action does not say all it means: none_left
    missing")."""
    events = alea_s_last_win(lambda state: (state.auction_round,
                                            state.auctions[0].place) == (3, "42w"))
    fix = rules.corrected(FIFTH, ["Ann", "Ben"], events, {won_by_alea(events, "42w", 3).seq: (
        "auction", {"winner": "alea"})}, "fix")
    log = [*events, Event(len(events) + 1, CHANGE, fix.change)]
    assert recorded_log(FIFTH, ["Ann", "Ben"], log, VERSION)[-1].payload == fix.change
    assert rules.replay(FIFTH, ["Ann", "Ben"], log).state.board == fix.state.board


def test_a_business_that_fills_alea_s_district_makes_its_win_a_building_stop_and_says_so():
    """Ben's business goes on the last empty plot of 34th St West: Alea, which built there,
    now declares a building stop, and the reason says so (it said "here Alea would build on
    no plot (a building stop)")."""
    events = alea_table((("34w", 1), ("34e", 1), ("34w", 2), ("34e", 2)),
                        ("business", {"tile": 0, "district": "34w", "plot": 3}), move("34w"),
                        ("business", {"tile": 1, "district": "42w", "plot": 2}),
                        *trip("white", "times", "52w", "central_park", "city_hall"))
    won = won_by_alea(events, "34w", 1)
    business = seq_of(events, "business", player="Ben")
    fix = rules.corrected(FIFTH, ["Ann", "Ben"], events, {business: (
        "business", {"tile": 1, "district": "34w", "plot": 4})})
    [(was, now, why)] = fix.replaced
    assert (was.seq, FIFTH.say(now.kind, now.payload)) == (
        won.seq, "Alea won 34th St West and declared a building stop")
    assert why == ("Alea declared no building stop; here every plot is taken, so Alea declares "
                   "a building stop.")
    assert fix.state.stopped == ["34w"]


def older(payload):
    """An Alea win as the app recorded it before it said whether Alea declared a building
    stop: `none_left` only when true."""
    kept = {k: v for k, v in payload.items() if k not in ("building_stop", "none_left")}
    return {**kept, **({"none_left": True} if payload.get("none_left") else {})}


def test_an_alea_win_recorded_before_building_stop_was_said_keeps_its_reading():
    """Logs from before: an Alea win records where Alea built, and `none_left` only when true.
    Kept as recorded by a change, Alea's building stop of 52nd St East built nothing and
    stopped nothing: the table replays so still, and imports again."""
    events = [Event(e.seq, e.kind, older(e.payload)) if e.kind == "auction" else e
              for e in alea_stop_in_52nd_st_east()]
    business = events[49]
    now = {**business.payload, "district": "34w", "plot": 0, "colour": "violet"}
    change = Event(len(events) + 1, CHANGE, {
        "edits": [{"seq": 50, "was": {"kind": "business", "payload": dict(business.payload)},
                   "now": {"kind": "business", "payload": now}}], "drop": [], "reason": "fix"})
    state = rules.replay(FIFTH, ["Ann", "Ben"], [*events, change]).state
    assert state.stopped == [] and not state.board["52e"][3]
    assert recorded_log(FIFTH, ["Ann", "Ben"], [*events, change], VERSION)[-1] == change
    assert FIFTH.say("auction", events[60].payload) == ("Alea won 52nd St East and declared a "
                                                        "building stop")


def test_the_change_says_what_changed_in_every_field():
    """Not "Changed: Auction: Ben won → Auction: Ben won": the district, the plot by its colour
    and what was built, before and after."""
    events = fifth_avenue(["Ann", "Ben", "Cy"], *option_a(*ROUND),
                          ("auction", {"winner": "Ben", "colour": "gray", "build": 2}))
    auction = events[-1]
    fix = rules.corrected(FIFTH, ["Ann", "Ben", "Cy"], events, {auction.seq: (
        "auction", {"winner": "Ben", "colour": "gray", "build": 1})})
    assert FIFTH.say(CHANGE, fix.change) == (
        "Changed: Ben won 34th St West and built 2 skyscrapers on the gray plot → Ben won "
        "34th St West and built 1 skyscraper on the gray plot")


def test_a_street_card_changed_in_its_icons_says_them():
    """Found at a table: "Changed: Pit built a service on site 4 → Pit built a service on site
    4" (the card's icons changed); a change whose words read the same says every icon."""
    street = rules.GAMES["street"]
    was = {"player": "Pit", "site": 4, "card": {
        "project": "service", "income": [{"each": "flat", "amount": 1, "project": None}]}}
    now = {"player": "Pit", "site": 4, "card": {
        "project": "service", "income": [{"each": "flat", "amount": 2, "project": None}],
        "prestige": [{"each": "on_street", "amount": 1, "project": "hotel"}], "roof": True}}
    change = {"edits": [{"seq": 19, "was": {"kind": "card", "payload": was},
                         "now": {"kind": "card", "payload": now}}], "reason": ""}
    assert street.say(CHANGE, change) == (
        "Changed: Pit built a service on site 4 (income +1) → Pit built a service on site 4 "
        "(income +2; prestige +1 per hotel on the street; roof)")
    moved = {**change, "edits": [{**change["edits"][0], "now": {
        "kind": "card", "payload": {**was, "site": 5}}}]}
    assert street.say(CHANGE, moved) == (  # words that differ are enough
        "Changed: Pit built a service on site 4 → Pit built a service on site 5")


@pytest.mark.parametrize("kind, was, now, said", [
    ("produce", {"factory": 4, "orders": {"grey": 2}}, {"factory": 4, "orders": {"grey": 1}},
     "Ben produced goods at factory 4 (2 grey) → Ben produced goods at factory 4 (1 grey)"),
    ("work_orders", {"colour": "grey", "count": 1, "last": True},
     {"colour": "grey", "count": 1, "last": False},
     "Ben took 1 grey work order ($1 for the last space) → Ben took 1 grey work order"),
    ("invention", {"start": 2, "to": 4, "cards": [{"ability": "orange_order"}]},
     {"start": 0, "to": 4, "cards": [{"ability": "orange_order"}]},
     "Ben acquired an invention at space 4 (Receive 1 orange work order in the factories "
     "phase, the marker from space 2) → Ben acquired an invention at space 4 (Receive 1 orange "
     "work order in the factories phase, a new marker)"),
    ("attract", {"number": 3, "colour": "orange", "goods": 2},
     {"number": 3, "colour": "orange", "goods": 3},
     "Ben attracted factory 3 (2 goods, orange) → Ben attracted factory 3 (3 goods, orange)"),
])
def test_an_urbanisation_change_whose_words_read_the_same_says_what_it_changes(
        kind, was, now, said):
    """Found by an audit: "Changed: Ben produced goods at factory 4 → Ben produced goods at
    factory 4" (2 goods became 1)."""
    change = {"edits": [{"seq": 9, "was": {"kind": kind, "payload": {"player": "Ben", **was}},
                         "now": {"kind": kind, "payload": {"player": "Ben", **now}}}],
              "reason": ""}
    assert URBANISATION.say(CHANGE, change) == f"Changed: {said}"


# Urbanisation: other players' actions stay, each in its own phase -------------------------------


def urbanisation_game():
    return recorded(URBANISATION, ["Ann", "Ben", "Cy"], [SETUP, *TURN_1, *TURN_2, *TURN_3])


def test_a_land_purchase_changed_to_a_pass_keeps_every_other_action_in_its_phase():
    """Turn 2: Ben's territory (phase 3) changed to a pass. In turn 3 his factory 4 has no
    ground, and so nothing to produce at: a pass stands in for each. Everyone else's actions
    stay, each in its own turn and phase (the version 1 app took out 7 later actions and moved
    a kept "collected taxes" into another phase)."""
    events = urbanisation_game()
    land = seq_of(events, "buy_land", player="Ben", turn=2)
    fix = rules.corrected(URBANISATION, ["Ann", "Ben", "Cy"], events,
                          {land: ("pass", {"player": "Ben"})})
    assert fix.dropped == []
    factory, production = (seq_of(events, "attract", player="Ben", turn=3),
                           seq_of(events, "produce", player="Ben", turn=3))
    assert [(was.seq, now.kind, dict(now.payload), str(why)) for was, now, why in fix.replaced] == [
        (factory, "pass", {"player": "Ben", "turn": 3, "phase": 1},
         "A new factory needs an empty building ground: Ben has none."),
        (production, "pass", {"player": "Ben", "turn": 3, "phase": 2}, "Ben owns no factory 4.")]
    slots = {e.seq: (e.payload.get("player"), e.payload.get("turn"), e.payload.get("phase"))
             for e in events}
    assert all((e.payload.get("player"), e.payload.get("turn"), e.payload.get("phase"))
               == slots[e.seq] for e in fix.played)
    assert [e.seq for e in fix.played] == [e.seq for e in events]


def test_an_action_taken_out_leaves_a_pass_in_its_phase():
    events = urbanisation_game()
    taxes = seq_of(events, "taxes", player="Ann", turn=2)
    fix = rules.corrected(URBANISATION, ["Ann", "Ben", "Cy"], events, {taxes: None})
    assert fix.change["edits"][0]["now"] == {
        "kind": "pass", "payload": {"player": "Ann", "turn": 2, "phase": 2}}
    assert [e.seq for e in fix.played] == [e.seq for e in events]


def test_a_kept_action_is_never_read_into_another_phase():
    """Applied where another phase comes, a recorded action is refused, saying so."""
    events = urbanisation_game()
    taxes = events[seq_of(events, "taxes", player="Ann", turn=2) - 1]
    state = rules.replay(URBANISATION, ["Ann", "Ben", "Cy"], events[:21]).state
    assert (state.action_phase, state.current_player) == (1, "Ann")
    with pytest.raises(RuleError, match="This action belongs to action phase 2 of 4; here "
                                        "action phase 1 comes."):
        state.apply(taxes.kind, taxes.payload)


# A change that changes nothing ----------------------------------------------------------------


def test_an_action_entered_again_as_it_was_recorded_changes_nothing():
    """Ruling: Fay's move entered again to the same district, as the app would enter it (what
    it means filled in where it stands), changes nothing and is not recorded; to another
    district, or taken out, or beside another action taken out, it does."""
    events = fifth_avenue(["Fay", "Gus", "Hal"], ("skyscrapers", {"player": "Fay"}),
                          move("34w"), move("34e", "beige"))
    players = ["Fay", "Gus", "Hal"]
    same = rules.corrected(FIFTH, players, events, {11: move("34w")})
    assert dict(same.change["edits"][0]["was"]["payload"]) == dict(events[10].payload)
    assert rules.changes_nothing(same.change)
    assert not rules.changes_nothing(rules.corrected(FIFTH, players, events,
                                                     {11: move("34e")}).change)
    assert not rules.changes_nothing(rules.corrected(FIFTH, players, events, {11: None}).change)
    out = rules.corrected(FIFTH, players, events, {11: move("34w"), 10: None})
    assert not rules.changes_nothing(out.change)


@pytest.mark.parametrize("slug", sorted(GAME_SCRIPTS))
def test_every_action_of_a_whole_game_entered_again_as_recorded_changes_nothing(slug):
    """Each action of each game's whole script, entered again with the payload the table
    recorded, is a change of nothing (so the app never records one), whatever it means where
    it stands: a bid drawn, an auction's skyscrapers, a card's purchase, an offer."""
    game, players = rules.GAMES[slug], list(PLAYERS[slug])
    events = recorded(game, players, GAME_SCRIPTS[slug]())
    for event in events:
        fix = rules.corrected(game, players, events, {event.seq: (event.kind, event.payload)})
        assert rules.changes_nothing(fix.change), (event.seq, event.kind)
        assert fix.rescored == [], (event.seq, event.kind)


# Later actions kept as recorded that now come out differently ---------------------------------


def test_a_grain_purchase_changed_leaves_the_mayor_where_he_went_and_the_change_says_so():
    """Ben bought 3 grain in turn 1, not 4 ($4, not $6). With 1 grain less to feed on, the
    administration of turn 1 gives him 3 VP, not 4. After the administration of turn 2 he has
    10 VP (11 before) and ties Cy, with less money ($5 to Cy's $15): the rules would now give
    him the Mayor of turn 3. But Cy received him at the table (the administration records it):
    he keeps him and his 1 VP (ruling "mayor_kept"), and the change says so. Both
    administrations stay as recorded; what each gives now explains every total it moves."""
    players = ["Ann", "Ben", "Cy"]
    events = recorded(URBANISATION, players, [SETUP, *TURN_1, *TURN_2])
    ben = seq_of(events, "trade_grain", player="Ben", turn=1)
    fix = rules.corrected(URBANISATION, players, events,
                          {ben: ("trade_grain", {**events[ben - 1].payload, "buy": 3})})
    assert fix.dropped == [] and fix.replaced == []
    first, second = (seq_of(events, "administration", turn=1),
                     seq_of(events, "administration", turn=2))
    assert events[second - 1].payload["mayor"] == "Cy"
    assert [(r.event.seq, r.moved(players)) for r in fix.rescored] == [
        (first, [("Ben", 4, 3)]), (second, [])]  # the purchase itself is no later action
    assert fix.accounts() == {ben: ("Ben bought 4 grain for $6.", "Ben bought 3 grain for $4.")}
    assert [(str(r.was.note), str(r.now.note)) for r in fix.rescored][1] == (
        "Turn 2 administered; Cy is the Mayor of turn 3.",
        "Turn 2 administered; Cy received the Mayor of turn 3 at the table and keeps him, though "
        "the rules would now give him to Ben (ruling).")
    before = rules.replay(URBANISATION, players, events).state.totals()
    assert fix.state.totals() == {"Ann": 15, "Ben": 10, "Cy": 11}
    assert fix.state.order[0] == "Cy"
    moved = {p: fix.state.totals()[p] - before[p] for p in players}
    assert moved == {p: sum(now - was for r in fix.rescored for who, was, now in r.moved(players)
                            if who == p) for p in players}  # the purchase itself gives no VP


def test_a_house_taken_out_keeps_every_later_turn_as_it_was_played():
    """In a hand-played game a house fewer in turn 1 moved the fewest VP, and with them the
    Mayor, and every later turn's actions were taken out (about 60). Here Ben's house of turn 2
    taken out leaves him the fewest VP after its administration, so the rules would now give
    him the Mayor of turn 3, and every action of turns 3 and after was taken out ("It is Ben's
    turn, not Cy's": 15). Cy received the Mayor at the table and keeps him: nothing is taken
    out, and only Ben's total moves (the house's VP and its citizens')."""
    players = ["Ann", "Ben", "Cy"]
    events = urbanisation_game()
    house = seq_of(events, "erect", player="Ben", turn=2)
    before = rules.replay(URBANISATION, players, events).state.totals()
    fix = rules.corrected(URBANISATION, players, events, {house: None})
    assert fix.dropped == []
    assert [e.seq for e in fix.played] == [e.seq for e in events]
    after = fix.state.totals()
    assert {p: after[p] - before[p] for p in players} == {"Ann": 0, "Ben": -3, "Cy": 0}
    # Without the Mayor recorded (a table of an earlier version), the rules give him again.
    unrecorded = [e if e.kind != "administration" else
                  Event(e.seq, e.kind, {k: v for k, v in e.payload.items() if k != "mayor"})
                  for e in events]
    assert len(rules.corrected(URBANISATION, players, unrecorded, {house: None}).dropped) == 15


def test_a_roof_that_pays_another_amount_is_said_even_without_other_points():
    """The street: Mia's first office (#1) had income $2, not $1. Her roof on site 1 (#7) pays
    the street's whole income: $4, not $3 (her offices $2 + $2). Her score counts $1 of
    prestige per $3 in the account, so the extra dollar moves no total here, yet the
    table must hand her one more upcoin now: the change says so. Income $3 pays $5: then her
    total moves too."""
    game, players = rules.GAMES["street"], ["Mia", "Ola", "Pit"]
    events = recorded(game, players, GAME_SCRIPTS["street"]()[:13])
    for income, points in ((2, []), (3, [("Mia", 3, 4)])):
        card = {**events[0].payload["card"],
                "income": [{"each": "flat", "amount": income, "project": None}]}
        fix = rules.corrected(game, players, events, {1: ("card", {**events[0].payload,
                                                                    "card": card})})
        assert fix.dropped == [] and fix.replaced == []
        (roof,) = fix.rescored
        assert roof.event.seq == 7 and roof.moved(players) == points
        assert (str(roof.was.said), str(roof.now.said)) == (
            "Mia built a roof on site 1: site 1 finished, Mia takes $3",
            f"Mia built a roof on site 1: site 1 finished, Mia takes ${2 + income}")



def test_a_roof_that_pays_nothing_says_its_income_with_the_minus_sign():
    """The street, as above, with Mia's first office at income −4: her street's income is
    −4 + 2 = −2, and the roof pays nothing; said "(income −2)", the minus sign every page
    writes (found at a table: a hyphen, "-2", there alone)."""
    game, players = rules.GAMES["street"], ["Mia", "Ola", "Pit"]
    events = recorded(game, players, GAME_SCRIPTS["street"]()[:13])
    card = {**events[0].payload["card"],
            "income": [{"each": "flat", "amount": -4, "project": None}]}
    fix = rules.corrected(game, players, events, {1: ("card", {**events[0].payload,
                                                                "card": card})})
    roof = next(r for r in fix.rescored if r.event.seq == 7)
    assert str(roof.now.said) == ("Mia built a roof on site 1: site 1 finished, Mia takes "
                                  "nothing (income \u22122)")

# The street: a deck said empty or a correction stays where the game stood -----------------------

STREET = rules.GAMES["street"]


def test_a_fix_never_moves_a_deck_said_empty_or_a_correction_to_an_earlier_round():
    """Mia's card #2 came from her own deck: Ola has no upcoins to take (#3), and every later
    turn goes with it. The deck said empty in round 3 (#11) goes too, with why: kept, it started
    the final round in round 1, with Ola's deck full; so do the account corrected (#12) and the
    office taken off (#13), which were about the table of round 3."""
    events = recorded(STREET, ["Mia", "Ola"], moves.three_rounds())
    assert [e.payload.get("round") for e in events[10:]] == [3, 3, 3]
    fix = rules.corrected(STREET, ["Mia", "Ola"], events, {
        2: ("card", {**events[1].payload, "bought_from": "Mia"})})
    assert list(dropped(fix)) == list(range(3, 14))
    assert {seq: dropped(fix)[seq] for seq in (11, 12, 13)} == dict.fromkeys(
        (11, 12, 13), "This action belongs to round 3; here it is round 1.")
    assert (fix.state.triggered_by, fix.state.decks_empty) == (None, [])


def test_a_deck_said_empty_stays_in_its_turn_and_at_its_step():
    """Mia buys the last card of Ola's deck and builds it (#2); it is said at Ola's turn (#3).
    Taken out, the purchase no longer ends Mia's turn: the deck said empty would be Mia's 2nd
    action's, with Ola's deck full. Said at Mia's 2nd action, with her free card taken out it
    would come before her 1st action."""
    office = moves.card()
    events = recorded(STREET, ["Mia", "Ola"], [
        moves.build("Mia", 1, office), moves.bought("Mia", 2, office, "Ola", 3),
        ("deck_empty", {"player": "Ola", "by": "Mia"})])
    assert {k: events[2].payload[k] for k in ("round", "turn_of", "step")} == {
        "round": 1, "turn_of": "Ola", "step": 1}
    assert dropped(rules.corrected(STREET, ["Mia", "Ola"], events, {2: None})) == {
        3: "This was said in Ola's turn; here it is Mia's turn."}
    said_first = recorded(STREET, ["Mia", "Ola"], [
        moves.build("Mia", 1, office), ("deck_empty", {"player": "Ola", "by": "Mia"})])
    assert dropped(rules.corrected(STREET, ["Mia", "Ola"], said_first, {1: None})) == {
        2: "This was said when the 2nd action came next; here the 1st action comes next."}


def test_a_deck_said_empty_recorded_without_its_place_keeps_that_reading():
    """Logs from before the place was recorded: the deck said empty is kept where the fix
    puts it, as those tables' replays always kept it."""
    events = [e if e.kind != "deck_empty" else Event(e.seq, e.kind, {"player": "Ola", "by": "Mia"})
              for e in recorded(STREET, ["Mia", "Ola"], moves.three_rounds()[:11])]
    fix = rules.corrected(STREET, ["Mia", "Ola"], events, {
        2: ("card", {**events[1].payload, "bought_from": "Mia"})})
    assert 11 not in dropped(fix) and fix.state.triggered_by == "Mia"


def test_upcoins_that_take_another_amount_are_said_even_without_other_points():
    """The street: Mia's purchase from Ola's deck (#2) cost $3, not $2, so Ola's upcoins (#3)
    take $3: her account moves though no total does (prestige counts $3 as 1), and the change
    says so, as the history says what they took."""
    events = recorded(STREET, ["Mia", "Ola"], moves.three_rounds()[:4])
    fix = rules.corrected(STREET, ["Mia", "Ola"], events, {
        2: ("card", {**events[1].payload, "cost": 3})})
    assert fix.dropped == [] and fix.replaced == []
    (upcoins,) = fix.rescored
    assert upcoins.event.seq == 3 and upcoins.moved(["Mia", "Ola"]) == []
    assert (str(upcoins.was.said), str(upcoins.now.said)) == (
        "Ola took the upcoins from their deck: $2", "Ola took the upcoins from their deck: $3")
    assert fix.state.accounts == {"Mia": 7, "Ola": 13}


def test_an_exchange_no_longer_possible_leaves_its_administration_without_it():
    """Ann took 1 orange work order, not 2: the Saw Mill's exchange ("You may exchange 2
    orange for 2 grey work orders during the factories administration phase") is no longer
    possible, and the administration that listed it stays, without it (ruling
    "exchange_kept"); turn 2 keeps every action. By hand: Ann 1 orange work order, 0 grey."""
    def by(player, kind, **payload):
        return kind, {"player": player, **payload}

    players = ["Ann", "Ben"]
    events = recorded(URBANISATION, players, [
        ("setup", {"inventions": True, "start_player": "Ann", "money": 10, "grounds": 2}),
        by("Ann", "character", character="architect"), by("Ben", "character", character="farmer"),
        by("Ann", "invention", to=1, cards=[{"ability": "orange_to_grey",
                                             "factory": "Saw Mill"}]),
        by("Ben", "pass"), by("Ann", "work_orders", colour="orange", count=2),
        *[by(p, "pass") for p in ("Ben", "Ann", "Ben", "Ann", "Ben")],
        ("administration", {"exchange": ["Ann"]}),
        by("Ben", "character", character="architect"), by("Ann", "character", character="farmer"),
        by("Ben", "erect", building="house")])
    orders = seq_of(events, "work_orders", player="Ann")
    fix = rules.corrected(URBANISATION, players, events, {orders: (
        "work_orders", {**events[orders - 1].payload, "count": 1})})
    assert dropped(fix) == {}
    [(was, now, why)] = fix.replaced
    assert (was.kind, was.payload["exchange"], now.payload["exchange"]) == (
        "administration", ["Ann"], [])
    assert why == ("The exchange needs 2 orange work orders on the card and 2 grey ones on the "
                   "board.")
    said = [str(URBANISATION.say(e.kind, e.payload)) for e in (was, now)]
    assert said == ["Administration: harvest, factories (Ann exchanges 2 orange for 2 grey work "
                    "orders), citizens, feeding, grain refill",
                    "Administration: harvest, factories, citizens, feeding, grain refill"]
    assert fix.state.cards["Ann"].orders["orange"] == 1
    assert fix.state.cards["Ann"].orders["grey"] == 0
    assert [e.payload for e in fix.played if e.seq > was.seq] == [
        e.payload for e in events if e.seq > was.seq]


def invention_game(third):
    """Ann enters a marker at space 2, then one at space 3, then makes `third` move; Ben
    passes."""
    def by(player, kind, **payload):
        return (kind, {"player": player, **payload})

    def invention(to, ability, **marker):
        return by("Ann", "invention", to=to, cards=[{"ability": ability}], **marker)

    return recorded(URBANISATION, ["Ann", "Ben"], [
        ("setup", {"inventions": True, "start_player": "Ann", "money": 10, "grounds": 2}),
        by("Ann", "character", character="architect"), by("Ben", "character", character="farmer"),
        invention(2, "white_order", start=0), by("Ben", "pass"),
        invention(3, "grey_order", start=0), by("Ben", "pass"),
        third, by("Ben", "pass")])


@pytest.mark.parametrize("start, to", [(3, 5), (2, 6)])
def test_an_invention_marker_is_the_one_on_its_space_whatever_came_before(start, to):
    """Ann's marker on space 3 (or 2) moves on. Her move to space 2 taken out, the one on 3 is
    still the one that moves, for what it cost (or, the one on 2 gone, the move is refused):
    recorded by its place in her list of markers, it became her other marker or was refused."""
    third = ("invention", {"player": "Ann", "start": start, "to": to,
                           "cards": [{"ability": "orange_order"}]})
    events = invention_game(third)
    fix = rules.corrected(URBANISATION, ["Ann", "Ben"], events, {4: None})
    if start == 3:
        assert fix.replaced == [] and fix.dropped == []
        card = fix.state.cards["Ann"]
        assert (card.markers, card.money) == ([5], 10 - 2 - 1)  # $2 to enter at 3, $1 on to 5
    else:
        [(was, now, why)] = fix.replaced
        assert (was.seq, now.kind) == (8, "pass")
        assert str(why) == "Ann has no marker on docking space 2."


def test_an_invention_recorded_by_its_marker_s_place_keeps_that_reading():
    """Logs recorded before name the marker by its place in the player's list (`marker`)."""
    third = ("invention", {"player": "Ann", "marker": 0, "to": 6,
                           "cards": [{"ability": "orange_order"}]})
    state = rules.replay(URBANISATION, ["Ann", "Ben"], invention_game(third)).state
    assert (state.cards["Ann"].markers, state.cards["Ann"].money) == ([6, 3], 10 - 1 - 2 - 3)


# The yard: Dirk keeps the cards he got at the table ------------------------------------------


YARD = rules.GAMES["yard"]


def yard_buy(player, building):
    return "buy", {"player": player, "building": building, "for": player}


def dirk_deal(**buildings):
    return "dirk_deal", {"buildings": buildings}


# Dirk's 6 (deck 44), 6 purchases, A, Dirk's 6 more (deck 32), B: a third of 32 is 10; then 6
# more purchases (deck 16).
BEFORE_B = recorded(YARD, ["Ann", "Ben"], [
    dirk_deal(museum=2, park=4),
    yard_buy("Ann", "park"), yard_buy("Ben", "church"), yard_buy("Ann", "station"),
    ("score", {"scoring": "A"}), dirk_deal(skyscraper=6),
    yard_buy("Ann", "theater"), yard_buy("Ben", "theater"), yard_buy("Ann", "museum"),
    ("score", {"scoring": "B"}), dirk_deal(church=5, station=5),
    yard_buy("Ann", "skyscraper"), yard_buy("Ben", "skyscraper"), yard_buy("Ann", "park"),
    yard_buy("Ben", "museum"), yard_buy("Ann", "church"), yard_buy("Ben", "park")])


def test_a_purchase_taken_out_before_b_keeps_dirk_s_deal_as_he_got_it():
    """Ben's theater (#8) never was: the deck held 33 at scoring B, a third is 11, but Dirk got
    10 at the table and keeps them (ruling "dirk_kept"); the deck holds what he did not take,
    one card more, and every later purchase stays. The deal and every purchase after it were
    taken out ("Dirk gets exactly 11 cards now"; "First deal Dirk his 11 cards")."""
    fix = rules.corrected(YARD, ["Ann", "Ben"], BEFORE_B, {8: None})
    assert fix.dropped == []
    [(was, now, why)] = fix.replaced
    assert (was.seq, now.payload) == (11, {**was.payload, "kept": True})
    assert str(why) == "Dirk gets exactly 11 cards now; 10 were entered."
    assert str(YARD.say(now.kind, now.payload)) == (
        "Dirk was dealt 5 stations and 5 churches (kept as dealt at the table)")
    assert [e.seq for e in fix.played] == [e.seq for e in BEFORE_B if e.seq != 8]
    state = fix.state
    assert (state.deck_left, state.dirk_kept, state.dirk_due) == (17, ["B"], None)
    assert state.buildings["Dirk"] == {"museum": 2, "theater": 0, "station": 5, "church": 5,
                                       "park": 4, "skyscraper": 6}
    replayed = rules.replay(YARD, ["Ann", "Ben"], fix.played).state
    assert (replayed.deck_left, replayed.totals()) == (17, state.totals())


def test_a_kept_deal_says_the_ruling_and_stands_as_recorded_in_a_later_change():
    """The kept deal says what the rules would deal now; a later change that makes its number
    the one due again keeps it as it is, with nothing to say."""
    fix = rules.corrected(YARD, ["Ann", "Ben"], BEFORE_B, {8: None})
    state = YARD.start(["Ann", "Ben"])
    for event in fix.played:
        state.apply(event.kind, event.payload)
        if event.seq == 11:
            assert str(state.note) == ("Dirk keeps the 10 cards he got at the table, though the "
                                       "rules would now deal him 11 (ruling).")
    again = rules.corrected(YARD, ["Ann", "Ben"], fix.played, {7: None})  # deck 34 - 1 = 33
    assert again.dropped == [] and again.replaced == []
    assert (again.state.deck_left, again.state.dirk_kept) == (18, ["B"])
    back = rules.corrected(YARD, ["Ann", "Ben"], fix.played, {
        7: ("deck", {"left": 33, "reason": "counted"})})  # 32 at scoring B: 10 due again
    assert back.dropped == [] and back.replaced == []
    assert (back.state.deck_left, back.state.dirk_kept) == (16, [])


def test_a_deal_after_a_with_a_short_deck_keeps_dirk_s_cards_as_far_as_the_deck_holds_them():
    """The deck counted 5, one purchase: 4 left at scoring A, and Dirk got those 4. The count
    changed to 6, he keeps his 4 (5 would be due) and one card stays in the deck (Ben's
    purchase after B takes it); changed to 4, the deck never held his 4, and his deal is taken
    out, with why."""
    events = recorded(YARD, ["Ann", "Ben"], [
        dirk_deal(museum=6), ("deck", {"left": 5, "reason": "counted"}),
        yard_buy("Ann", "park"), ("score", {"scoring": "A"}), dirk_deal(skyscraper=4),
        ("score", {"scoring": "B"}), yard_buy("Ben", "park")])
    counted = {"reason": "counted"}
    fix = rules.corrected(YARD, ["Ann", "Ben"], events, {2: ("deck", {"left": 6, **counted})})
    assert fix.dropped == [] and [was.seq for was, _now, _why in fix.replaced] == [5]
    assert (fix.state.deck_left, fix.state.dirk_kept, fix.state.dirk_deals, fix.state.dirk_none
            ) == (0, ["A"], ["setup", "A", "B"], ["B"])  # a third of 1 after B is no deal
    fix = rules.corrected(YARD, ["Ann", "Ben"], events, {2: ("deck", {"left": 4, **counted})})
    assert [(event.seq, str(why)) for event, why in fix.dropped] == [
        (5, "Dirk gets exactly 3 cards now; 4 were entered."),
        (6, "First deal Dirk his 3 cards."), (7, "First deal Dirk his 3 cards.")]
    assert fix.state.deck_left == 3 and fix.state.dirk_due == "A"
    refused = fix.state
    with pytest.raises(RuleError, match="Dirk got 4 cards at the table; the deck holds only 3 "
                                        "cards here."):
        refused.apply("dirk_deal", {**events[4].payload, "kept": True})


def test_a_change_said_in_the_rules_sentences_adds_what_it_takes_out_as_one_more():
    """Found playing: a preview said "... 3 districts or more.; 44 later actions taken out with
    it". After the rules' sentences (`Correction.accounts`) the count is a sentence of its own;
    after words (the history's), it follows a semicolon as before."""
    game = URBANISATION
    buy = {"player": "Ben", "trade": "buy", "buy": 4}
    fix = {"edits": [{"seq": 6, "was": {"kind": "trade_grain", "payload": buy},
                      "now": {"kind": "trade_grain", "payload": {**buy, "buy": 3}}}],
           "drop": [9, 10]}
    accounts = {6: ("Ben bought 4 grain for $6.", "Ben bought 3 grain for $4.")}
    assert str(game.say_change(fix, accounts)) == (
        "Changed: Ben bought 4 grain for $6. → Ben bought 3 grain for $4. 2 later actions taken "
        "out with it.")
    assert str(game.say_change(fix)).endswith("; 2 later actions taken out with it")
    # Taken out, said in its sentence too (found at a table: "... 6 in supply.; 1 later ...").
    out = {**fix, "edits": [{**fix["edits"][0], "now": None}]}
    assert str(game.say_change(out, {6: ("Ben bought 4 grain for $6.", None)}, True)) == (
        "Take out: Ben bought 4 grain for $6. 2 later actions taken out with it.")


def test_a_change_says_what_the_short_words_leave_out_where_it_changed():
    """Found by a tampering session: an office on site 1 changed to an office with the roof mark
    on site 2 read "built an office on site 1 → built an office on site 2": the roof the change
    added was not said. Where what the short words leave out changed, both sides say it."""
    office = moves.card("office")
    was = {"kind": "card", "payload": {"player": "Mia", "street": "Mia", "site": 1,
                                       "card": office}}
    now = {"kind": "card", "payload": {**was["payload"], "site": 2,
                                       "card": {**office, "roof": True}}}
    assert str(STREET.say_change({"edits": [{"seq": 1, "was": was, "now": now}]})) == (
        "Changed: Mia built an office on site 1 → Mia built an office on site 2 (roof)")
    moved = {**was, "payload": {**was["payload"], "site": 2}}  # only the site: short words
    assert str(STREET.say_change({"edits": [{"seq": 1, "was": was, "now": moved}]})) == (
        "Changed: Mia built an office on site 1 → Mia built an office on site 2")
    # the score strip says each action as it now stands (the long words were cut short there)
    assert str(STREET.say_changed({"edits": [{"seq": 1, "was": was, "now": moved}]})) == (
        "Changed #1: Mia built an office on site 2")
    roofed = {**was, "payload": {**was["payload"], "card": {**office, "roof": True}}}
    assert str(STREET.say_changed({"edits": [{"seq": 1, "was": was, "now": roofed}]})) == (
        "Changed #1: Mia built an office on site 1 (roof)")
    assert str(STREET.say_changed({"edits": [{"seq": 1, "was": was, "now": None}]})) == (
        "Taken out #1: Mia built an office on site 1")  # what it was (it said "#1" alone)
    assert str(STREET.say_changed({"edits": [{"seq": 1, "was": was, "now": moved},
                                             {"seq": 4, "was": was, "now": None}]})) == (
        "Changed #1, #4: Mia built an office on site 2; #4 taken out")
    # a roof card is "a roof", not "a roof ... (roof)" (found at a table)
    roof = {"kind": "card", "payload": {**was["payload"], "site": 2, "bought_from": "public",
                                        "cost": 0, "card": moves.card(None, roof=True)}}
    office_there = {**roof, "payload": {**roof["payload"], "card": moves.card(
        "office", income=[{"each": "flat", "amount": 3, "project": None}])}}
    assert str(STREET.say_change({"edits": [{"seq": 1, "was": office_there, "now": roof}]})) == (
        "Changed: Mia built an office on site 2 (public pile) (income +3) → Mia built a roof on "
        "site 2 (public pile)")
