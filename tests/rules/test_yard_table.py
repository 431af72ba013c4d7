"""A construction-yard game replayed from its actions: order of play, Dirk, the end."""

import pytest

from companion.rules import GAMES, check_players, replay
from companion.rules.common import RuleError
from companion.rules.log import Event
from companion.rules.text import Msg
from companion.rules.yard_table import YardState, describe
from tests.yard_moves import buy

YARD = GAMES["yard"]


def play(players, *actions):
    """Replay (kind, payload) actions on a new table."""
    events = [Event(seq, kind, payload) for seq, (kind, payload) in enumerate(actions, 1)]
    return replay(YARD, players, events).state


def refused_unchanged(state, action, message):
    """`action` is refused with `message`, and the table is as it was."""
    before = repr(state)
    with pytest.raises(RuleError, match=message):
        state.apply(*action)
    assert repr(state) == before


def dirk(**buildings):
    return ("dirk_deal", {"buildings": buildings})


def test_purchases_count_and_take_cards_from_the_deck():
    state = play(["Ann", "Ben", "Cy"], buy("Ann", "park"), buy("Ann", "park"), buy("Ben", "museum"))
    assert state.buildings["Ann"]["park"] == 2
    assert state.buildings["Ben"]["museum"] == 1
    assert state.deck_left == 50 - 3
    assert state.owners == ["Ann", "Ben", "Cy"]


def test_a_full_four_player_game():
    actions = [
        buy("Paul", "park"), buy("Paul", "park"), buy("Nina", "park"), buy("Tobi", "church"),
        ("score", {"scoring": "A"}),
        buy("Nina", "park"), buy("Kate", "skyscraper"), buy("Kate", "skyscraper"),
        buy("Tobi", "skyscraper"), buy("Tobi", "skyscraper"),
        ("score", {"scoring": "B"}),
        buy("Paul", "park"),
        ("final", {
            "money": {"Paul": {"blue": 5}, "Nina": {"blue": 9}, "Tobi": {"green": 3},
                      "Kate": {"green": 3}},
            "leftovers": [{"building": "park", "currency": "blue"},
                          {"building": "museum", "currency": "green"}],
        }),
    ]
    state = play(["Paul", "Nina", "Tobi", "Kate"], *actions)
    # A: park Paul 2 > Nina 1: Paul 5; church Tobi 4.
    assert state.scorings[0].points == {"Paul": 5, "Nina": 0, "Tobi": 4, "Kate": 0}
    # B: park Paul 2 = Nina 2: (12 + 5) // 2 = 8 each; church Tobi 11;
    # skyscraper Kate 2 = Tobi 2: (13 + 6) // 2 = 9 each.
    assert state.scorings[1].points == {"Paul": 8, "Nina": 8, "Tobi": 20, "Kate": 9}
    # End: Nina (9 blue) takes the park: Nina 3 parks, Paul 3 parks; the museum stays unsold
    # (Tobi and Kate tie on green).
    assert [(lo.building, lo.owner) for lo in state.leftovers] == [("park", "Nina"),
                                                                     ("museum", None)]
    # C: park Paul 3 = Nina 3: (20 + 12) // 2 = 16; church Tobi 19; skyscrapers 2 = 2: 17 each.
    assert state.scorings[2].points == {"Paul": 16, "Nina": 16, "Tobi": 19 + 17, "Kate": 17}
    assert state.totals() == {"Paul": 29, "Nina": 24, "Tobi": 60, "Kate": 26}
    assert state.finished
    assert [(p.place, p.player, p.shared) for p in state.ranking()] == [
        (1, "Tobi", False), (2, "Paul", False), (3, "Kate", False), (4, "Nina", False)]
    assert state.verdict() == "Tobi wins with 60 points."


def test_equal_totals_share_the_victory():
    state = play(
        ["Ann", "Ben", "Cy"],
        buy("Ann", "park"), buy("Ben", "park"),
        ("score", {"scoring": "A"}), ("score", {"scoring": "B"}),
        ("final", {"money": {}, "leftovers": []}),
    )
    assert [(p.place, p.player, p.shared) for p in state.ranking()] == [
        (1, "Ann", True), (1, "Ben", True), (3, "Cy", False)]
    # A: park 1 = 1: (5 + 0) // 2 = 2 each; B: (12 + 5) // 2 = 8; C: (20 + 12) // 2 = 16.
    assert state.verdict() == ("Ann and Ben tie on 26 points: a shared victory (the rules break "
                               "no tie).")


def test_dirk_is_dealt_at_setup_after_a_and_after_b():
    state = play(["Ann", "Ben"])
    assert (state.dirk_due, state.dirk_cards_due) == ("setup", 6)
    with pytest.raises(RuleError, match="First deal Dirk his 6 cards"):
        state.apply(*buy("Ann", "park"))
    state = play(
        ["Ann", "Ben"],
        dirk(park=2, museum=4),
        buy("Ann", "park"), buy("Ben", "church", "Dirk"),
        ("score", {"scoring": "A"}),
        dirk(skyscraper=6),
        ("score", {"scoring": "B"}),
    )
    # Deck: 50 - 6 - 2 purchases - 6 = 36; a third of 36 is 12.
    assert state.deck_left == 36
    assert (state.dirk_due, state.dirk_cards_due) == ("B", 12)
    assert state.buildings["Dirk"] == {"museum": 4, "theater": 0, "station": 0, "church": 1,
                                       "park": 2, "skyscraper": 6}
    # A: Dirk park 2 > Ann 1: 5; museum 1; church 4 (the donated one): 10.
    assert state.scorings[0].points == {"Ann": 0, "Ben": 0, "Dirk": 10}


# 40 purchases after Dirk's 6 at the start leave 4 cards in the deck and 4 on display.
SHORT_DECK = [dirk(museum=6), *[buy("Ann" if k % 2 else "Ben", building) for k, building in
                                enumerate(["theater"] * 7 + ["station"] * 9 + ["church"] * 9
                                          + ["park"] * 11 + ["skyscraper"] * 4)]]


def test_a_deal_of_0_cards_is_no_deal():
    """After scoring B with no card in the deck, a third rounded down is 0: no deal is due,
    and the next purchase is taken (it was refused with "First deal Dirk his 0 cards")."""
    state = play(["Ann", "Ben"], *SHORT_DECK, ("score", {"scoring": "A"}))
    assert (state.deck_left, state.dirk_due, state.dirk_cards_due) == (4, "A", 4)
    state.apply(*dirk(skyscraper=4))
    state.apply("score", {"scoring": "B"})
    assert (state.deck_left, state.dirk_due, state.dirk_cards_due) == (0, None, 0)
    assert state.up_next == ("Scoring B done: its card goes in front of the next player, whose "
                             "turn it is.")
    state.apply(*buy("Ann", "skyscraper"))
    assert state.game_over
    state.apply("final", {"leftovers": [{"building": b, "to": None}
                                        for b in state.leftover_buildings]})
    assert state.finished


def test_a_deal_of_0_cards_is_over_with_its_scoring_whatever_the_deck_later_holds():
    """Found playing: no deal after B (the deck empty), then the deck corrected to 4 asked for
    "Deal Dirk 1 card" and refused every purchase: the deal comes right after the scoring, with
    the deck as it was then."""
    state = play(["Ann", "Ben"], *SHORT_DECK, ("score", {"scoring": "A"}), dirk(skyscraper=4),
                 ("score", {"scoring": "B"}), ("deck", {"left": 4, "reason": "counted"}))
    assert (state.dirk_due, state.dirk_deals, state.dirk_none) == (None, ["setup", "A", "B"],
                                                                   ["B"])
    state.apply(*buy("Ann", "museum"))


def test_a_scoring_with_the_last_turn_s_money_and_an_empty_deck_leaves_dirk_nothing_to_deal():
    """Scoring A comes with the money after the last turn, the deck empty: Dirk's 6 more are 0,
    no deal, and the final scoring comes next."""
    state = play(["Ann", "Ben"], *SHORT_DECK, *[buy("Ann", "skyscraper")] * 5,
                 ("score", {"scoring": "A"}))
    assert (state.deck_left, state.game_over, state.dirk_due) == (0, True, None)
    assert state.up_next == "The game is over: the final scoring comes next."
    state.apply("final", {"leftovers": [{"building": b, "to": None}
                                        for b in state.leftover_buildings]})
    assert state.finished


def test_a_deal_of_0_cards_recorded_before_stays_the_deal_it_names():
    """The app used to ask for Dirk's 0 cards ("Dirk got these 0"): such a log replays as it
    did; a deal of cards where none are due is refused."""
    actions = [*SHORT_DECK, ("score", {"scoring": "A"}), dirk(skyscraper=4),
               ("score", {"scoring": "B"})]
    refused_unchanged(play(["Ann", "Ben"], *actions), dirk(skyscraper=1),
                      "Dirk is not due any cards now")
    state = play(["Ann", "Ben"], *actions, ("dirk_deal", {"buildings": {}, "deal": "B"}),
                 buy("Ann", "skyscraper"))
    assert (state.dirk_deals, state.deck_left, state.game_over) == (["setup", "A", "B"], 0, True)


def test_dirk_gets_exactly_what_is_due():
    state = play(["Ann", "Ben"])
    with pytest.raises(RuleError, match="Dirk gets exactly 6 cards now; 5 were entered"):
        state.apply(*dirk(park=5))
    with pytest.raises(RuleError, match="There are only 7 museums"):
        play(["Ann", "Ben"], ("deck", {"left": 45}),
             ("correct", {"owner": "Ann", "building": "museum", "count": 5}),
             dirk(museum=3, park=3))


def test_dirk_can_outscore_the_players_but_never_wins():
    state = play(
        ["Ann", "Ben"],
        dirk(skyscraper=6), buy("Ann", "park"),
        ("score", {"scoring": "A"}), dirk(park=6),
        ("score", {"scoring": "B"}), dirk(church=9, museum=3),
        ("final", {"money": {"Ann": {"blue": 2}}, "leftovers": []}),
    )
    totals = state.totals()
    assert totals["Dirk"] > max(totals["Ann"], totals["Ben"])
    assert [p.player for p in state.ranking()] == ["Ann", "Ben"]
    assert state.verdict().startswith("Ann wins with ")  # never Dirk


@pytest.mark.parametrize(
    "action, message",
    [
        # 10 held and 40 in the deck leave 4 on display: 44 cards nobody holds, not 50.
        (("deck", {"left": 45, "reason": "counted"}),
         r"Only 44 building cards are not held by anyone: the deck cannot hold 45\."),
        # Found at a table: 41 in the deck would leave 3 on display, which is refilled to 4.
        (("deck", {"left": 41, "reason": "counted"}),
         r"44 building cards are not held by anyone, and while the deck has cards 4 of them lie "
         r"on display: the deck holds at most 40, not 41\."),
        (("correct", {"owner": "Ann", "building": "park", "count": 8, "reason": "counted"}),
         r"Only 4 building cards are neither held by anyone nor in the deck \(the app counts 40 "
         r"there\): a correction cannot add 5\. If the deck holds fewer, correct it first\."),
    ],
)
def test_corrections_never_make_more_than_the_54_building_cards(action, message):
    """Every building card is held, in the deck or on display (54 in all): a correction entered
    that would make more is refused, or the game could never end (the deck never empties). A
    log that holds one keeps its reading: the table can still undo it."""
    state = play(["Ann", "Ben", "Cy"], *[buy("Ann", "park"), buy("Ben", "museum")] * 3,
                 *[buy("Cy", "church")] * 4)
    assert (state.deck_left, state.on_display) == (40, 4)
    before = repr(state)
    with pytest.raises(RuleError, match=message):
        state.check_cards_fit(*action)
    assert repr(state) == before
    state.apply(*action)  # as recorded before the check


def test_a_deck_correction_may_empty_the_deck_or_leave_the_display_full():
    state = play(["Ann", "Ben", "Cy"], *[buy("Ann", "park"), buy("Ben", "museum")] * 3,
                 *[buy("Cy", "church")] * 4)
    for left in (0, 1, 40):
        state.check_cards_fit("deck", {"left": left, "reason": "counted"})
    state.apply("deck", {"left": 44, "reason": "counted"})  # every card not held in the deck
    state.apply("deck", {"left": 39, "reason": "counted"})
    state.apply("correct", {"owner": "Ann", "building": "park", "count": 8, "reason": "counted"})
    assert (state.deck_left, state.on_display, sum(state.unbought.values())) == (39, 0, 39)


def test_supply_is_enforced_with_the_building_named():
    actions = [buy("Ann", "museum")] * 7
    state = play(["Ann", "Ben", "Cy"], *actions)
    with pytest.raises(RuleError, match="There are only 7 museums in the game and 7 are already"):
        state.apply(*buy("Ben", "museum"))
    assert state.buildings["Ben"]["museum"] == 0


@pytest.mark.parametrize(
    "action, message",
    [
        (buy("Zed", "park"), "'Zed' is not a player at this table"),
        (buy("Ann", "castle"), "Unknown building 'castle'"),
        (buy("Ann", "park", "Ben"), "Ann cannot buy for Ben"),
        (buy("Ann", "park", "Dirk"), "'Dirk' is not at this table"),  # no Dirk with 3 players
        (("score", {"scoring": "B"}), "Scoring A comes next"),
        (("score", {"scoring": "C"}), "C is the final scoring"),
        (("final", {"money": {}, "leftovers": []}), "after scorings A and B"),
        (("teleport", {}), "Unknown action 'teleport'"),
        (("youngest", {"player": "Ann"}), "not among those tied"),
        (("deck", {"left": 51}), "cannot be more than 50"),
        (("correct", {"owner": "Ann", "building": "park", "count": 12}), "more than 11"),
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(action, message):
    state = play(["Ann", "Ben", "Cy"], buy("Ann", "park"))
    refused_unchanged(state, action, message)


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"money": {"Zed": {"blue": 1}}, "leftovers": []}, "players at this table only"),
        ({"money": {"Ann": {"pink": 1}}, "leftovers": []}, "Enter Ann's money by currency"),
        ({"money": {"Ann": {"blue": -3}}, "leftovers": []}, "cannot be less than 0"),
        ({"money": {}, "leftovers": [{"building": "park"}] * 5}, "At most 4"),
        ({"money": {}, "leftovers": [{"building": "park", "currency": "gold"}]}, "a currency"),
        ({"money": {}, "leftovers": "park"}, "At most 4"),
    ],
)
def test_a_broken_final_is_refused(payload, message):
    state = play(["Ann", "Ben", "Cy"], ("score", {"scoring": "A"}), ("score", {"scoring": "B"}))
    with pytest.raises(RuleError, match=message):
        state.apply("final", payload)
    assert not state.finished and state.scored == ["A", "B"]


def test_nothing_changes_after_the_end():
    state = play(["Ann", "Ben", "Cy"], ("score", {"scoring": "A"}), ("score", {"scoring": "B"}),
                 ("final", {"money": {}, "leftovers": []}))
    with pytest.raises(RuleError, match="The game is over"):
        state.apply(*buy("Ann", "park"))


def test_the_last_purchases_empty_the_display_once_the_deck_is_empty():
    state = play(yard_example.PLAYERS, *yard_example.GAME_OVER[:-2])
    assert (state.deck_left, state.on_display, state.game_over) == (1, 4, False)
    state.apply(*buy("Cy", "skyscraper"))  # the last card of the deck refills the display
    assert (state.deck_left, state.on_display, state.game_over) == (0, 4, False)
    state.apply(*buy("Cy", "skyscraper"))  # the display cannot be refilled: the game ends
    assert (state.deck_left, state.on_display, state.game_over) == (0, 3, True)
    assert state.leftover_buildings == ["museum", "church", "skyscraper"]


def test_starting_player_and_money_piles():
    state = play(["Ann", "Ben", "Cy"], ("starting_money", {
        "cards": {"Ann": 4, "Ben": 3, "Cy": 3}, "totals": {"Ann": 20, "Ben": 22, "Cy": 22}}))
    assert state.start_candidates == ["Ben", "Cy"]
    assert state.starter is None  # the youngest decides
    state.apply("youngest", {"player": "Cy"})
    assert state.starter == "Cy"
    assert state.piles == [19, 19, 19, 19, 18]  # 108 - 10 - 4 = 94


@pytest.mark.parametrize(
    "cards, totals, message",
    [
        ({"Ann": 2, "Ben": 3}, {"Ann": 20, "Ben": 20}, "cannot be less than 3"),
        ({"Ann": 3, "Ben": 3}, {"Ann": 29, "Ben": 20}, "cannot be more than 28"),
        ({"Ann": 3, "Ben": 3}, {"Ann": 28, "Ben": 20}, "3 money cards cannot add up to 28"),
        ({"Ann": 3}, {"Ann": 20}, "every player"),
    ],
)
def test_impossible_starting_money_is_refused(cards, totals, message):
    state = play(["Ann", "Ben"])
    with pytest.raises(RuleError, match=message):
        state.apply("starting_money", {"cards": cards, "totals": totals})


def test_undo_and_redo_replay_to_the_right_state():
    events = [
        Event(1, "buy", {"player": "Ann", "building": "park"}),
        Event(2, "buy", {"player": "Ben", "building": "park"}),
        Event(3, "undo"),
        Event(4, "undo"),
        Event(5, "redo"),
    ]
    state = replay(YARD, ["Ann", "Ben", "Cy"], events).state
    assert isinstance(state, YardState)
    assert (state.buildings["Ann"]["park"], state.buildings["Ben"]["park"]) == (1, 0)


@pytest.mark.parametrize(
    "names, result",
    [
        (["  Ann ", "Ben", "", "   "], ["Ann", "Ben"]),
        (["Zoë", "李小龍", "Ann\u0000"], ["Zoë", "李小龍", "Ann"]),
        (["a" * 24, "b"], ["a" * 24, "b"]),
        (["Ann", "Dirk", "Cy"], ["Ann", "Dirk", "Cy"]),  # Dirk only plays with two
        (["Zoe\u0308", "B  en", "\u3000Cy\t"], ["Zoë", "B en", "Cy"]),  # composed (NFC)
        (["A\u200bnn", "Be\u202en", "Cy\ufeff"], ["Ann", "Ben", "Cy"]),  # nothing invisible
        (["e\u200b\u0301", "Ben"], ["é", "Ben"]),
        (["Иван", "Ivan", "Ana", "Anna"], ["Иван", "Ivan", "Ana", "Anna"]),  # different looks
        (["👨‍👩‍👧", "Ben"], ["👨‍👩‍👧", "Ben"]),  # joiners stay
    ],
)
def test_player_names_are_cleaned(names, result):
    assert check_players(YARD, names) == result


@pytest.mark.parametrize(
    "names, message",
    [
        (["Ann"], "played by 2 to 6 players"),
        ([f"P{i}" for i in range(7)], "played by 2 to 6 players"),
        (["a" * 25, "b"], "longer than 24 characters"),
        (["Ann", "ann "], "Two players are called"),
        (["Ann", "dirk"], "automated opponent"),
        (["Ann", "D\u0456rk"], "automated opponent"),  # a Cyrillic і
        (["Zoe\u0308", "zoë"], "Two players are called Zoë"),
        (["0", "0"], "Two players are called 0"),
        (["Ann", "A\u200bnn"], "Two players are called Ann"),
        (["Ann", "\u0410nn"], "Ann and Аnn look the same on a phone"),  # a Cyrillic А
        (["Kate", "\uff2b\uff41\uff54\uff45"], "look the same"),  # full-width letters
        (["HANS", "\u0397\u0391NS"], "look the same"),  # Greek Eta and Alpha
        (["Pia", "\u0440ia"], "look the same"),  # a Cyrillic р
    ],
)
def test_bad_player_names_are_refused(names, message):
    with pytest.raises(RuleError, match=message):
        check_players(YARD, names)


def test_descriptions_and_refusals_are_messages_the_web_layer_can_translate():
    """Every word for the players is a Msg (a template with its values), never a bare str."""
    bought = describe("buy", {"player": "Ann", "building": "church", "for": "Dirk"})
    assert isinstance(bought, Msg) and bought == "Ann bought a church for Dirk"
    assert bought.template == "{player} bought {building} for Dirk"
    dealt = describe("dirk_deal", {"buildings": {"museum": 1, "park": 2, "skyscraper": 3}})
    assert dealt == "Dirk was dealt 1 museum, 2 parks and 3 skyscrapers"
    assert all(isinstance(v, Msg) for v in dealt.params["cards"].params.values())
    with pytest.raises(RuleError) as refused:
        play(["Ann", "Ben"]).apply(*buy("Ann", "park"))
    assert isinstance(refused.value.args[0], Msg)


def test_a_deal_is_said_in_the_games_order_of_the_buildings_whatever_its_payloads_order():
    """Found playing: a change's preview said Dirk's deal as recorded in the stored payload's
    order (alphabetical) and the new one in the game's: "Dirk was dealt 1 church, 2 museums ...
    → Dirk was dealt 2 museums, 1 church ...". Both read in the game's order now."""
    stored = {"church": 1, "museum": 2, "park": 1, "station": 1, "theater": 1}
    entered = {"museum": 2, "theater": 1, "station": 1, "church": 1, "park": 1}
    words = "Dirk was dealt 2 museums, 1 theater, 1 station, 1 church and 1 park"
    assert describe("dirk_deal", {"buildings": stored}) == words
    assert describe("dirk_deal", {"buildings": entered}) == words


# The end, as the app asks it since issue 15: who holds the most of each currency ----------------

from companion.rules import yard_example  # noqa: E402 - the scripted game, below its tests


def test_the_end_says_a_scoring_may_still_come_with_the_last_turns_money():
    """Found by a rules audit: "then comes the final scoring" while scoring B's card could
    still come with the money after the last buyer's turn (ruling "never_drawn"): said so."""
    state = play(yard_example.PLAYERS, *yard_example.GAME_OVER)
    state.scorings = state.scorings[:1]  # as if B's card had not come before the end
    assert state.up_next == ("The display cannot be refilled: Cy may still buy after paying "
                             "exactly; then comes the final scoring (scoring B first, if its "
                             "card comes with the money after this turn).")


def test_once_the_display_cannot_be_refilled_nobody_else_takes_a_turn():
    """"The game ends - after a player has finished their turn - as soon as the building cards
    can not be replenished completely up to 4": Cy's purchase left the display short, so only
    Cy may still buy (having paid exactly); Ann's purchase after it is refused, and changes
    nothing."""
    state = play(yard_example.PLAYERS, *yard_example.GAME_OVER)
    assert state.up_next == ("The display cannot be refilled: Cy may still buy after paying "
                             "exactly; then comes the final scoring.")
    refused_unchanged(state, buy("Ann", "museum"),
                      "The game is over: the display could not be refilled to 4 after Cy's "
                      "purchase. Only Cy may still buy, after paying exactly; then comes the "
                      "final scoring.")
    state.apply(*buy("Cy", "museum"))  # Cy paid exactly and goes on
    assert (state.on_display, state.game_over) == (2, True)


def test_the_strip_says_who_starts_and_who_may_act_after_a_purchase():
    setup = ("starting_money", {"cards": {"Ann": 4, "Ben": 3, "Cy": 5},
                                "totals": {"Ann": 21, "Ben": 22, "Cy": 20}})
    state = play(["Ann", "Ben", "Cy"])
    assert state.up_next == ("The player with the fewest money cards takes the first turn; on "
                             "a tie, the lowest total, then the youngest.")  # not entered
    state.apply(*setup)
    # 108 money cards, 12 dealt, 4 on display: 92 in five piles (the set-up card, folded away
    # once who starts is known, says so too).
    assert state.up_next == ("Ben takes the first turn. Money piles: 19, 19, 18, 18, 18 cards, "
                             "scoring A shuffled into pile 2 and B into pile 4.")
    state.apply(*buy("Cy", "park"))
    assert state.up_next == "Cy goes on after paying exactly; otherwise it is Ann's turn."


def test_the_strip_says_who_ties_for_the_first_turn():
    """Found at a table: after a tie on cards and total the strip said the rule again ("The
    player with the fewest money cards ..."), where the page asked who is the youngest."""
    state = play(["Ann", "Ben", "Cy"])
    state.apply("starting_money", {"cards": {"Ann": 4, "Ben": 4, "Cy": 5},
                                   "totals": {"Ann": 22, "Ben": 22, "Cy": 25}})
    assert state.up_next == ("Ann and Ben tie on cards and total: the youngest of them takes "
                             "the first turn.")
    state.apply("youngest", {"player": "Ben"})
    assert state.up_next.startswith("Ben takes the first turn.")


def test_the_scripted_game_ends_with_three_cards_known_by_elimination():
    state = play(yard_example.PLAYERS, *yard_example.GAME_OVER)
    assert (state.deck_left, state.on_display, state.game_over) == (0, 3, True)
    assert state.leftover_buildings == ["museum", "church", "skyscraper"]
    assert [s.points for s in state.scorings] == [yard_example.POINTS["A"],
                                                  yard_example.POINTS["B"]]
    state.apply(*yard_example.FINAL)
    assert [(lo.building, lo.currency, lo.owner) for lo in state.leftovers] == [
        ("museum", "blue", "Ann"), ("church", "green", None), ("skyscraper", "yellow", "Ben")]
    assert state.scorings[2].points == yard_example.POINTS["C"]
    assert state.totals() == yard_example.TOTALS
    assert state.verdict() == "Ben wins with 99 points."


def end_with(**changes):
    kind, payload = yard_example.FINAL
    return kind, {**payload, **changes}


CARDS = yard_example.FINAL[1]["leftovers"]


@pytest.mark.parametrize(
    "action, message",
    [
        (end_with(most={"blue": "Ann", "green": None}), "Say who holds the most yellow money"),
        (end_with(most={"blue": "Zed", "green": None, "yellow": None}), "'Zed' is not a player"),
        (end_with(most=["Ann"]), "Say who holds the most money of each currency"),
        (end_with(leftovers=[*CARDS[:2], {"building": "skyscraper", "currency": "green"}]),
         "one green space"),
        (end_with(leftovers=CARDS[:2]),
         "the cards left on display are 1 museum, 1 church and 1 skyscraper"),
        (end_with(leftovers=[*CARDS[:2], {"building": "park", "currency": "yellow"}]),
         "correct the counts first"),
    ],
)
def test_a_wrong_end_is_refused_and_changes_nothing(action, message):
    state = play(yard_example.PLAYERS, *yard_example.GAME_OVER)
    refused_unchanged(state, action, message)


@pytest.mark.parametrize(
    "done, message",
    [
        (-1, "the display still holds 4 cards"),  # the deck just emptied into the display
        (-2, "1 card is still in the deck"),
        (-3, "2 cards are still in the deck"),
    ],
)
def test_the_end_comes_only_when_the_display_cannot_be_refilled(done, message):
    state = play(yard_example.PLAYERS, *yard_example.GAME_OVER[:done])
    assert not state.game_over
    with pytest.raises(RuleError, match=message):
        state.apply("final", {"leftovers": [], "most": {}})


def test_a_deck_found_empty_early_ends_the_game_once_the_purchases_add_up():
    state = play(yard_example.PLAYERS, *yard_example.GAME_OVER[:-3],
                 ("deck", {"left": 0, "reason": "counted"}))
    assert (state.deck_left, state.on_display, state.game_over) == (0, 6, False)
    with pytest.raises(RuleError, match="counts 6 cards nobody has bought"):
        state.apply("final", {"leftovers": [], "most": {}})
    state.apply(*buy("Ann", "park"))  # purchases the table forgot to record
    state.apply(*buy("Ann", "skyscraper"))
    assert (state.on_display, state.game_over) == (4, False)
    state.apply(*buy("Ann", "skyscraper"))
    assert (state.on_display, state.game_over) == (3, True)
    assert state.leftover_buildings == ["museum", "church", "skyscraper"]


def test_a_dirk_game_ends_with_the_players_only_holding_money():
    state = play(["Ann", "Ben"], dirk(museum=6), ("score", {"scoring": "A"}), dirk(theater=6),
                 ("score", {"scoring": "B"}), dirk(park=11, skyscraper=1),
                 ("deck", {"left": 0, "reason": "counted"}),
                 *[buy("Ann", "station")] * 9, *[buy("Ben", "church")] * 9, buy("Ann", "theater"),
                 *[buy("Ben", "skyscraper")] * 9)
    assert state.leftover_buildings == ["museum", "skyscraper"]
    with pytest.raises(RuleError, match="'Dirk' is not a player"):
        state.apply("final", {"leftovers": [{"building": "museum", "currency": "blue"},
                                            {"building": "skyscraper", "currency": "green"}],
                              "most": {"blue": "Dirk", "green": None}})


def test_after_a_scoring_card_the_next_player_is_up():
    """"When a scoring card is revealed scoring takes place immediately, before the next
    player's turn. As reminder place the scoring card in front of the next player": the card
    is drawn when the money is refilled after a turn in which money was taken, which the app
    does not record (Cy after paying exactly, or Ann after Cy): the next player goes unnamed,
    and nobody is told to go on. A purchase names them again."""
    setup = ("starting_money", {"cards": {"Ann": 4, "Ben": 3, "Cy": 5},
                                "totals": {"Ann": 21, "Ben": 22, "Cy": 20}})
    state = play(["Ann", "Ben", "Cy"], setup, buy("Cy", "park"), ("score", {"scoring": "A"}))
    assert state.up_next == ("Scoring A done: its card goes in front of the next player, whose "
                             "turn it is.")
    state.apply(*buy("Ann", "museum"))
    assert state.up_next == "Ann goes on after paying exactly; otherwise it is Ben's turn."


# 52 of the 54 building cards bought after scoring A: the deck runs out before card B is drawn.
BEFORE_B = [buy("Ann", "park")] * 4 + [("score", {"scoring": "A"})] + [
    buy(player, building) for player, building, n in (
        ("Ben", "museum", 7), ("Ben", "theater", 7), ("Ben", "station", 9),
        ("Cy", "church", 9), ("Cy", "park", 7), ("Cy", "skyscraper", 9)) for _ in range(n)]


def test_the_building_cards_can_run_out_before_scoring_b():
    """"The third and final scoring "C" takes place at the end of the game, as soon as the
    number of building cards cannot be replenished", whether or not card B was drawn (it lies
    in the fourth of five money piles; two players buy fast): the end is not refused, B never
    comes, and C scores. By hand: A gives Ann's 4 parks 5; C gives Ben's 7 museums, 7 theaters
    and 9 stations 16 + 17 + 18 = 51, Cy's 9 churches 19, 7 parks 20 and 9 skyscrapers 21 =
    60, Ann's 4 parks second place 12: totals 17, 51, 60."""
    state = play(["Ann", "Ben", "Cy"], *BEFORE_B)
    assert (state.deck_left, state.on_display, state.scored) == (0, 2, ["A"])
    assert state.game_over and state.never_drawn == ["B"]
    state.apply("final", {"leftovers": [{"building": "skyscraper", "to": None}] * 2})
    assert state.finished and state.scored == ["A", "C"] and state.never_drawn == ["B"]
    assert state.scorings[-1].points == {"Ann": 12, "Ben": 51, "Cy": 60}
    assert state.totals() == {"Ann": 17, "Ben": 51, "Cy": 60}


def test_a_scoring_card_drawn_with_the_last_turn_still_scores_and_ends_that_turn():
    """A scoring card drawn when the last turn's money is refilled (the last buyer paid
    exactly and took money) scores at once, "before the next player's turn"; that turn is then
    over: nobody buys after it ("The game ends - after a player has finished their turn")."""
    state = play(["Ann", "Ben", "Cy"], *BEFORE_B)
    assert state.still_buying == "Cy"
    state.apply("score", {"scoring": "B"})
    assert state.still_buying is None and state.never_drawn == []
    assert state.up_next == "The game is over: the final scoring comes next."
    with pytest.raises(RuleError, match="scoring B ended Cy's turn"):
        state.apply(*buy("Cy", "skyscraper"))
    state.apply("final", {"leftovers": [{"building": "skyscraper", "to": None}] * 2})
    assert state.scored == ["A", "B", "C"]


TAKEN = {"leftovers": [{"building": "museum", "to": "Ann"}, {"building": "church", "to": None},
                       {"building": "skyscraper", "to": "Ben"}]}


def test_the_end_said_as_who_takes_each_card_scores_as_the_spaces_did():
    """Issue 42: what decides is who takes each card (the most money of its space's currency,
    nobody on a tie): asked alone, the end scores as with the spaces and the majorities (the
    rulebook's worked example in yard_example: Ben wins 99 to 97)."""
    state = play(yard_example.PLAYERS, *yard_example.GAME_OVER)
    state.apply("final", TAKEN)
    assert [(lo.building, lo.currency, lo.owner) for lo in state.leftovers] == [
        ("museum", None, "Ann"), ("church", None, None), ("skyscraper", None, "Ben")]
    assert state.scorings[2].points == yard_example.POINTS["C"]
    assert state.totals() == yard_example.TOTALS
    assert state.verdict() == "Ben wins with 99 points."


@pytest.mark.parametrize(
    "leftovers, message",
    [
        ([*TAKEN["leftovers"][:2], {"building": "skyscraper", "to": "Zed"}],
         "'Zed' is not a player"),
        ([*TAKEN["leftovers"][:2], {"building": "skyscraper", "to": "Dirk"}],
         "'Dirk' is not a player"),
        (TAKEN["leftovers"][:2], "the cards left on display are 1 museum, 1 church and 1 "
                                 "skyscraper"),
        ([*TAKEN["leftovers"][:2], {"building": "skyscraper"}],
         "Say who takes each card left on display"),
        ([*TAKEN["leftovers"][:2], {"building": "palace", "to": "Ben"}],
         "Unknown building 'palace'"),
    ],
)
def test_a_wrong_end_said_as_who_takes_each_card_is_refused(leftovers, message):
    state = play(yard_example.PLAYERS, *yard_example.GAME_OVER)
    refused_unchanged(state, ("final", {"leftovers": leftovers}), message)


def test_an_end_with_the_display_bought_empty_is_scored():
    """The last buyer, paying exactly, buys the display empty: the end has no card to give
    out ({"leftovers": []}, as the end form sends it) and is not taken for an old log's end
    (which came after A and B). By hand: Cy's 11 skyscrapers keep his 21; the totals as with
    the two cards left: 17, 51, 60."""
    state = play(["Ann", "Ben", "Cy"], *BEFORE_B, buy("Cy", "skyscraper"),
                 buy("Cy", "skyscraper"))
    assert (state.on_display, state.never_drawn) == (0, ["B"])
    state.apply("final", {"leftovers": []})
    assert state.finished and state.scored == ["A", "C"]
    assert str(describe("final", {"leftovers": []})) == ("End of the game: no card left on "
                                                         "display, final scoring C")
    assert state.totals() == {"Ann": 17, "Ben": 51, "Cy": 60}


def test_one_scoring_card_at_most_comes_with_the_last_turns_money():
    """Card A lies in the second money pile and B in the fourth, a pile of 18 between them;
    the money refilled after the last turn draws at most 4 cards: once a scoring came then,
    the other never comes. By hand, A: Ben's museums, theaters and stations 1 + 2 + 3, Cy's
    churches, parks and skyscrapers 4 + 5 + 6: Ann 0, Ben 6, Cy 15; C as above: 12, 51, 60."""
    state = play(["Ann", "Ben", "Cy"], *(a for a in BEFORE_B if a[0] != "score"))
    assert state.next_scoring == "A"
    state.apply("score", {"scoring": "A"})
    assert (state.next_scoring, state.never_drawn) == (None, ["B"])
    refused_unchanged(state, ("score", {"scoring": "B"}),
                      "scoring A came with the money after Cy's last turn")
    state.apply("final", {"leftovers": [{"building": "skyscraper", "to": None}] * 2})
    assert state.totals() == {"Ann": 12, "Ben": 57, "Cy": 75}


def test_a_player_called_dirk_at_a_bigger_table_is_no_automated_opponent():
    """Donating a purchase to Dirk is one of the "Special rules for 2 players"; at a table of
    three a player may be called Dirk, and nobody buys for him."""
    state = play(["Ann", "Dirk", "Cy"])
    refused_unchanged(state, buy("Ann", "park", "Dirk"), "Ann cannot buy for Dirk")
    state.apply(*buy("Dirk", "park"))
    assert state.buildings["Dirk"]["park"] == 1
    assert str(describe("buy", buy("Dirk", "park")[1])) == "Dirk bought a park"
    assert str(describe("buy", buy("Ann", "park", "Dirk")[1])) == "Ann bought a park for Dirk"


def test_the_end_says_who_took_each_card_left_on_display():
    """Found playing: a change of the end read "End of the game: leftover cards given out,
    final scoring C → End of the game: leftover cards given out, final scoring C", saying
    nothing of what changed. The end says who took each card, or nobody, each taker once (it
    said "Ann took a church, Bob took a park and Ann took a skyscraper")."""
    end = {"leftovers": [{"building": "church", "to": "Ann"},
                         {"building": "skyscraper", "to": None}]}
    assert describe("final", end) == (
        "End of the game: Ann took a church, nobody took a skyscraper; final scoring C")
    three = {"leftovers": [{"building": "church", "to": "Ann"}, {"building": "park", "to": "Bob"},
                           {"building": "skyscraper", "to": "Ann"}]}
    assert describe("final", three) == (
        "End of the game: Ann took a church and a skyscraper, Bob took a park; final scoring C")
    # Nobody took either, not the pair together.
    two = {"leftovers": [{"building": "theater", "to": None}, {"building": "station", "to": None}]}
    assert describe("final", two) == (
        "End of the game: nobody took a theater or a station; final scoring C")
    # Cards of one building counted (a helper's end read "Anna took a church and a church").
    churches = {"leftovers": [{"building": "church", "to": "Anna"},
                              {"building": "church", "to": "Ben"},
                              {"building": "church", "to": "Anna"},
                              {"building": "park", "to": None}, {"building": "park", "to": None}]}
    assert describe("final", churches) == (
        "End of the game: Anna took 2 churches, Ben took a church, nobody took 2 parks; final "
        "scoring C")
    older = {"leftovers": [{"building": "church", "space": "blue"}], "money": {}}
    assert describe("final", older) == (
        "End of the game: leftover cards given out, final scoring C")


def test_a_tampered_deal_in_a_log_is_refused_in_words():
    """Found by the fuzz test: a Dirk's deal whose recorded `deal` was a list raised a server
    error while its refusal was worded."""
    state = YardState(["Ann", "Ben"])
    with pytest.raises(RuleError, match="This was Dirk's deal"):
        state.apply("dirk_deal", {"34e": [], "deal": []})


def test_players_tied_for_the_first_turn_are_said_in_seat_order():
    """Found at a table: the history said "Konstantin and Sophie-Charlotte tie", seated the
    other way (a stored payload's keys come sorted by name)."""
    players = ["Sophie-Charlotte", "Jo", "Konstantin"]
    payload = {"cards": {"Jo": 6, "Konstantin": 4, "Sophie-Charlotte": 4},
               "totals": {"Jo": 26, "Konstantin": 20, "Sophie-Charlotte": 20}}
    state = play(players, ("starting_money", payload))
    assert GAMES["yard"].say("starting_money", payload, state) == (
        "Starting money entered: Sophie-Charlotte and Konstantin tie, the youngest starts")
    assert GAMES["yard"].say("buy", {"player": "Jo", "building": "park"}, state) == (
        "Jo bought a park")
