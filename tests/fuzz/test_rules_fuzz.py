"""Hostile input for the referee: every public rules function, every table action, the replay of
a log and the player names get random, huge, negative, unicode, missing, extra and wrongly typed
values. The rules answer with a RuleError (shown to the players) or a result, never another
exception, and a refused action leaves the table as it was.

Hunt for bugs with many more examples: RULES_FUZZ_EXAMPLES=5000 pytest tests/fuzz/test_rules_fuzz.py
(tests/fuzz/fuzzing.py reads it for every fuzz test)
"""

import copy
import inspect
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import rules
from companion.rules import fifth_avenue, street, urbanisation, yard
from companion.rules.log import Event, history
from companion.rules.names import skeleton
from tests.fuzz import strategies as s
from tests.fuzz.fuzzing import actions, examples, legal_states, snapshot

# 1. Every public function of the games' API modules -------------------------------------------

API = {"yard": yard, "fifth_avenue": fifth_avenue, "street": street,
       "urbanisation": urbanisation}


@dataclass(frozen=True)
class Own:
    """An argument that only ever comes from the rules themselves (a checked card, a Split):
    fed well-formed, never hostile."""

    strategy: st.SearchStrategy[Any]


CHECKED_STREET = st.lists(st.lists(s.checked_card, max_size=4), min_size=5, max_size=5)


def call(*args: Any, **kwargs: Any) -> st.SearchStrategy[tuple[tuple[Any, ...], dict]]:
    """Positional and keyword arguments, each well-formed near the edges or hostile."""
    def either(arg: Any) -> st.SearchStrategy[Any]:
        return arg.strategy if isinstance(arg, Own) else st.one_of(arg, s.hostile)
    return st.tuples(st.tuples(*map(either, args)),
                     st.fixed_dictionaries({}, optional={k: either(v) for k, v in kwargs.items()}))


def _results(counts_and_scoring: tuple[Any, Any]) -> tuple[list, list[str]]:
    counts, scoring = counts_and_scoring
    return yard.explain_round(counts, scoring), [str(p) for p in counts]


splits = s.valid(st.tuples(s.per_player, st.lists(st.integers(0, 21), max_size=3)),
                 lambda cp: yard.ranked_splits(*cp)).filter(bool).flatmap(st.sampled_from)
results = s.valid(st.tuples(s.counts, s.scoring), _results)

ARGS: dict[str, st.SearchStrategy[Any]] = {
    "yard.check_counts": call(s.counts),
    "yard.owners_buildings": call(s.player, s.building),
    "yard.owners_money": call(s.player, s.currency),
    "yard.split_line": call(s.building, Own(splits)),
    "yard.explain_round": call(s.counts, s.scoring),
    "yard.points_of": results.map(lambda rp: (rp, {})),  # the rules' own results and players
    "yard.score_round": call(s.counts, s.scoring),
    "yard.leftover_owner": call(s.currency, s.money),
    "yard.dirk_draws": call(st.sampled_from([*yard.DIRK_DEALS, "C"]), s.count),
    "yard.money_cards": call(s.players_n),
    "yard.money_piles": call(s.players_n, s.count),
    "yard.starting_candidates": call(s.per_player, s.per_player),
    "yard.check_starting_capital": call(s.player, s.count, s.count),
    "yard.most_starting_cards": call(s.count),
    "yard.majority_line": call(s.building, s.per_player),
    "fifth_avenue.player_name": call(s.player),
    "fifth_avenue.check_district": call(s.district),
    "fifth_avenue.skyscraper_points": call(st.lists(s.business, max_size=6)),
    "fifth_avenue.plot_values": call(s.district),
    "fifth_avenue.district_breakdown": call(s.district),
    "fifth_avenue.district_points": call(s.district),
    "fifth_avenue.building_stop_points": call(s.district, s.player),
    "fifth_avenue.alea_build_plots": call(s.district),
    "fifth_avenue.business_targets": call(s.district),
    "fifth_avenue.max_skyscrapers": call(s.black_cards),
    "fifth_avenue.alea_bid": call(s.black_cards),
    "fifth_avenue.alea_bid_distribution": call(s.deck),
    "fifth_avenue.alea_beats_chance": call(s.count, s.deck),
    "fifth_avenue.bid_possible": call(s.count),
    "fifth_avenue.central_park_points": call(st.lists(s.business, max_size=4), s.count),
    "fifth_avenue.special_scoring_points": call(s.count, s.count),
    "fifth_avenue.districts_built": call(s.board, s.player),
    "fifth_avenue.check_stopped": call(s.stopped),
    "fifth_avenue.commissioner_moves": call(s.position, s.stopped),
    "fifth_avenue.scorable_districts": call(s.positions, s.stopped),
    "fifth_avenue.bid_colours": call(s.district, s.plot_colours, s.player),
    "street.check_card": call(s.card),
    "street.check_street": call(s.a_street),
    "street.check_site": call(s.site, s.site_number),
    "street.count": call(Own(st.lists(s.checked_card, max_size=4)), s.project),
    "street.project_name": call(s.project),
    "street.card_name": call(s.card),
    "street.effect_text": call(Own(s.checked_effect)),
    "street.income_breakdown": call(s.a_street),
    "street.income": call(s.a_street),
    "street.payout": call(s.a_street),
    "street.prestige_breakdown": call(s.a_street),
    "street.prestige_by_site": call(s.a_street),
    "street.upcoin_prestige": call(s.count),
    "street.prestige": call(s.a_street, s.count),
    "street.tallest": call(s.a_street),
    "street.is_finished": call(s.site),
    "street.street_finished": call(s.a_street),
    "street.site_index": call(s.site_number),
    "street.check_placement": call(s.a_street, s.site_number, s.card, st.booleans()),
    "street.place_card": call(s.a_street, s.site_number, s.card, st.booleans()),
    "street.final_round_triggered": call(
        st.lists(s.a_street, max_size=3) | st.dictionaries(s.player, s.a_street, max_size=3),
        st.booleans()),
    "street.last_turn_players": call(s.players, s.player),
    "street.is_last_turn": call(s.players, s.player, st.booleans()),
    "street.score": call(s.a_street, s.count),
    # A table's own street, checked card by card as it was built:
    "street.all_finished": call(Own(CHECKED_STREET)),
    "street.has_roof": call(Own(st.lists(s.checked_card, max_size=4))),
    "street.build": call(Own(CHECKED_STREET), Own(st.integers(0, 4)), Own(s.checked_card),
                         Own(st.booleans())),
    "street.effect_lines": call(Own(CHECKED_STREET), Own(st.sampled_from(["income",
                                                                          "prestige"]))),
    "street.street_income": call(Own(CHECKED_STREET)),
    "street.street_payout": call(Own(CHECKED_STREET)),
    "street.site_prestige": call(Own(CHECKED_STREET)),
    "street.tallest_site": call(Own(CHECKED_STREET)),
    "street.street_score": call(Own(CHECKED_STREET), Own(st.integers(0, 333))),
    "street.final_ranking": call(st.dictionaries(s.player, s.score | s.hostile, max_size=5)),
    "street.verdict": call(st.dictionaries(s.player, s.score | s.hostile, max_size=5)),
    "urbanisation.counted": call(s.kind, s.count),
    "urbanisation.check_players": call(s.players_n),
    "urbanisation.check_market": call(s.market, s.players_n),
    "urbanisation.buy_grain": call(s.market, s.count, players=s.players_n, held=s.grain,
                                   one_dollar=st.booleans()),
    "urbanisation.sell_grain": call(s.market, s.count, s.players_n, held=s.grain),
    "urbanisation.mill_worker": call(s.market, s.players_n, held=s.grain),
    "urbanisation.grain_refill": call(s.market, s.count, s.players_n),
    "urbanisation.harvest": call(s.grain, s.grain, s.market, s.count, s.players_n, extra=s.count),
    "urbanisation.citizens": call(s.count, s.grain, s.count),
    "urbanisation.feeding": call(s.grain, s.grain),
    "urbanisation.turn_score": call(s.count, s.grain, s.count),
    "urbanisation.collect_taxes": call(s.count, s.grain, st.integers(-1, 3)),
    "urbanisation.tax_collections": call(s.count, s.count),
    "urbanisation.erect": call(s.kind, s.count, houses_standing=s.count, left_in_pool=s.count,
                               architect=st.booleans()),
    "urbanisation.land_cost": call(s.count),
    "urbanisation.invention_cost": call(s.count),
    "urbanisation.work_order_value": call(s.orders),
    "urbanisation.work_order_count": call(s.orders),
    "urbanisation.produce_goods": call(s.orders),
    "urbanisation.check_upgrade": call(s.count, s.count),
    "urbanisation.factory_to_remove": call(s.display),
    "urbanisation.factory_bonus": call(s.factories),
    "urbanisation.final_totals": call(s.per_player, s.factories),
    "urbanisation.final_ranking": call(s.per_player, s.factories),
    "urbanisation.mayor": call(s.per_player, s.per_player, s.player, s.players),
    "urbanisation.mayor_order": call(s.per_player, s.per_player, s.player, s.players),
    "urbanisation.setup": call(s.players_n, st.booleans()),
}


def public_functions() -> list[str]:
    return sorted(f"{slug}.{name}" for slug, module in API.items()
                  for name, value in vars(module).items()
                  if inspect.isfunction(value) and value.__module__ == module.__name__
                  and not name.startswith("_"))


def test_every_public_rules_function_is_fuzzed():
    assert sorted(ARGS) == public_functions()


@pytest.mark.parametrize("name", sorted(ARGS))
@examples(30)
@given(data=st.data())
def test_a_rules_function_returns_or_raises_rule_error(name, data):
    slug, function = name.split(".")
    args, kwargs = data.draw(ARGS[name], label="args, kwargs")
    try:
        getattr(API[slug], function)(*args, **kwargs)
    except rules.RuleError:
        pass


# 2. Every action at every game's table ------------------------------------------------------------

@pytest.mark.parametrize("slug", sorted(rules.GAMES))
@examples(80)
@given(data=st.data())
def test_a_table_action_is_applied_or_refused_leaving_the_table_unchanged(slug, data):
    states = legal_states(slug)
    state = copy.deepcopy(states[data.draw(st.integers(0, len(states) - 1), label="steps")])
    for kind, payload in data.draw(st.lists(actions(slug), min_size=1, max_size=3),
                                   label="actions"):
        before = copy.deepcopy(state)
        try:
            state.apply(kind, payload)
        except rules.RuleError:
            assert snapshot(state) == snapshot(before)
        else:  # the table's pages still show it
            state.totals(), state.ranking()
            assert isinstance(rules.GAMES[slug].describe(kind, payload), str)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=10),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)


@pytest.mark.parametrize("slug", sorted(rules.GAMES))
@examples(150)
@given(data=st.data())
def test_any_stored_payload_is_said_in_words(slug, data):
    """The history and the undo button describe what the log holds, whatever an action's rules
    left unread (an auction's cards when nothing was built, say)."""
    game = rules.GAMES[slug]
    kinds = sorted(n.removeprefix("_apply_") for n in dir(game.state_class)
                   if n.startswith("_apply_"))
    kind = data.draw(st.sampled_from([*kinds, "unknown"]), label="kind")
    keys = sorted(game.payload_keys(kind) or {"player"})
    payload = data.draw(st.dictionaries(st.sampled_from(keys), JSON), label="payload")
    assert isinstance(game.describe(kind, payload), str)


# 3. Replaying a log, and the players' names ---------------------------------------------------

def street_next(draw: st.DrawFn, events: list[Event]) -> tuple[str, dict]:
    """A legal next step at the street table the log replays to, in turn (an undo when the log
    is refused already or the game is over)."""
    try:
        state = rules.replay(rules.GAMES["street"], s.GAMES["street"][0], events).state
    except rules.RuleError:
        return ("undo", {})
    return ("undo", {}) if state.finished else draw(s.street_next(state))


@st.composite
def logs(draw: st.DrawFn, slug: str) -> list[Event]:
    """The legal game's steps in order (the street's worked out from the table the log so far
    replays to: its turn order leaves the script after an undo), mixed with undo, redo and
    hostile actions."""
    legal = iter(s.GAMES[slug][1])
    events = []
    for seq in range(1, draw(st.integers(0, 12)) + 1):
        choice = draw(st.sampled_from(["legal", "legal", "undo", "redo", "hostile"]))
        if choice == "legal" and slug == "street":
            kind, payload = street_next(draw, events)
        elif choice == "legal":
            kind, payload = next(legal, ("undo", {}))
        elif choice == "hostile":
            kind, payload = draw(actions(slug))
        else:
            kind, payload = choice, draw(st.just({}) | s.payloads)
        events.append(Event(seq, kind, copy.deepcopy(payload)))
    return events


@pytest.mark.parametrize("slug", sorted(rules.GAMES))
@examples(40)
@given(data=st.data())
def test_a_log_replays_or_is_refused(slug, data):
    events = data.draw(logs(slug), label="events")
    assert len(history(events)) == len(events)
    try:
        game = rules.replay(rules.GAMES[slug], s.GAMES[slug][0], events)
    except rules.RuleError:
        return
    game.state.totals(), game.state.ranking()


names = st.one_of(s.texts, s.player, st.text(st.characters(codec="utf-8"), max_size=30),
                  st.sampled_from(["Straße", "STRASSE", "ǅ", "ǆ", "a\u0301", "\u00e1", "\t\n",
                                   "Dirk", "alea", "x" * 24, "x" * 25]))


@examples(300)
@given(game=st.sampled_from(list(rules.GAMES.values())),
       names=st.lists(names | s.hostile, max_size=8) | s.hostile)
def test_player_names_are_cleaned_or_refused(game, names):
    try:
        players = rules.check_players(game, names)
    except rules.RuleError:
        return
    assert len(players) in game.players
    assert all(rules.clean_name(name) == name and 1 <= len(name) <= 24 for name in players)
    assert len({skeleton(name) for name in players}) == len(players)


@examples(200)
@given(name=names | s.hostile)
def test_a_clean_name_stays_clean(name):
    try:
        cleaned = rules.clean_name(name)
    except rules.RuleError:
        return
    assert rules.clean_name(cleaned) == cleaned == cleaned.strip()
