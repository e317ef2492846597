"""The skill analysis's figures on hand-computed results: SkillTrace, chains, seats,
steps, the ladder and the variants, and the plans that play them."""
import dataclasses
import math

import pytest

from tournament.harness import runner
from tournament.harness.row import GameRow
from tournament.harness.store import Store
from tournament.skill import analysis, plans
from tournament_helpers import comparable

# --- SkillTrace, as Ludii computes it ---------------------------------------------


def test_skill_trace_of_falling_results_extrapolates_to_zero():
    # x = 0..3, mean 1.5; y mean 0.275; Sxy = -0.55, Sxx = 5: slope -0.11, intercept
    # 0.44.  At x = 5 (two past the last) the line reads -0.11, clamped to 0; the area
    # is 1.1 over 4 levels.
    trace = analysis.skill_trace([0.5, 0.3, 0.1, 0.2])
    assert trace.slope == pytest.approx(-0.11)
    assert trace.intercept == pytest.approx(0.44)
    assert trace.predicted == pytest.approx(-0.11)
    assert trace.y == 0
    assert trace.area == pytest.approx(1.1)
    assert trace.trace == pytest.approx(0.275)


def test_skill_trace_of_rising_results_weights_the_area_by_what_y_leaves():
    # Sxy = 0.3, Sxx = 5: slope 0.06, intercept 0.11, read at x = 5: 0.41.
    # Trace = 0.41 + 0.59 * 0.8 / 4 = 0.528.
    trace = analysis.skill_trace([0.1, 0.2, 0.2, 0.3])
    assert trace.y == pytest.approx(0.41)
    assert trace.trace == pytest.approx(0.528)


def test_skill_trace_counts_only_positive_results_in_the_area_and_clamps_y_at_one():
    falling = analysis.skill_trace([0.4, -0.2])  # line 0.4 - 0.6 x reads -1.4 at x = 3
    assert (falling.y, falling.area, falling.trace) == (0, pytest.approx(0.4),
                                                                  pytest.approx(0.2))
    rising = analysis.skill_trace([-0.2, 0.4])  # reads 1.6 at x = 3, clamped to 1
    assert (rising.y, rising.trace) == (1, 1)


def test_skill_trace_needs_two_levels():
    with pytest.raises(ValueError, match="two levels"):
        analysis.skill_trace([0.5])


# --- skill chains (Lantz et al. 2017) ---------------------------------------------

RUNGS = ["a", "b", "c", "d"]


def test_skill_chain_is_the_longest_chain_of_rungs_each_beating_the_last():
    scores = {("a", "b"): 0.7, ("b", "c"): 0.55, ("c", "d"): 0.8,
              ("a", "c"): 0.65, ("b", "d"): 0.9}
    # At 60%: a > b, then b > d, or a > c > d: two steps.
    assert analysis.skill_chain(scores, RUNGS, 0.60) == 2
    # At 75%: only c > d and b > d count, and no two of them chain.
    assert analysis.skill_chain(scores, RUNGS, 0.75) == 1


def test_skill_chain_with_only_adjacent_pairs_breaks_where_a_step_fails():
    scores = {("a", "b"): 0.7, ("b", "c"): 0.55, ("c", "d"): 0.8}
    # Two steps succeed, but not one after the other.
    assert analysis.skill_chain(scores, RUNGS, 0.60) == 1


def test_skill_chain_counts_a_score_exactly_at_the_threshold_and_nothing_else():
    assert analysis.skill_chain({("a", "b"): 0.6, ("b", "c"): 0.6}, RUNGS, 0.6) == 2
    assert analysis.skill_chain({("a", "b"): 0.5999}, RUNGS, 0.6) == 0
    assert analysis.skill_chain({}, RUNGS, 0.6) == 0


# --- Balance, utilities, ladder steps ---------------------------------------------


def test_utilities_rank_seats_as_ludii_does():
    assert analysis.utilities([5, -5]) == [1, -1]
    assert analysis.utilities([0, 0]) == [0, 0]
    # Three seats: the best +1, two tied for the last two places share -0.5.
    assert analysis.utilities([3, 1, 1]) == [1, -0.5, -0.5]


def test_balance_is_one_minus_the_widest_gap_between_seats_win_rates():
    rows = [game_row(0, ["a", "b"], r) for r in ([1, -1], [1, -1], [-1, 1])]
    # Win rates 2/3 and 1/3.
    assert analysis.balance(rows) == pytest.approx(2 / 3)
    # A draw is half a win for each seat.
    draw = game_row(0, ["a", "b"], [0, 0])
    assert analysis.balance(rows + [draw]) == pytest.approx(1 - 0.25)


def game_row(deal, seating, returns, failed=None):
    return GameRow(deal=deal, seating=seating, returns=returns, failed=failed,
                   status="ok" if failed is None else "error")


def test_a_step_is_the_stronger_rungs_score_with_tags_standard_error():
    rows = [game_row(0, ["w", "s"], [-1, 1]), game_row(0, ["s", "w"], [1, -1]),
            game_row(1, ["w", "s"], [1, -1]), game_row(1, ["s", "w"], [0, 0])]
    got = analysis.step(rows, "w", "s")
    # Scores 1, 1, 0, 0.5: mean 0.625, population variance 0.171875.
    assert got.games == 4
    assert got.score == pytest.approx(0.625)
    assert got.se == pytest.approx(math.sqrt(0.171875 / 4))
    assert got.low < 0.625 < got.high


def test_seat_advantage_leaves_out_failed_games():
    rows = [game_row(0, ["x", "x"], [1, -1]), game_row(1, ["x", "x"], [0, 0]),
            game_row(2, ["x", "x"], [-1, 1], failed="x")]
    seat = analysis.seat_advantage(rows)
    assert (seat.games, seat.wins, seat.draws, seat.score) == (2, 0.5, 0.5, 0.75)
    assert seat.balance == pytest.approx(0.5)


def test_seat_and_shape_without_a_game_that_ended_have_no_figures():
    rows = [game_row(0, ["x", "x"], [-1, 1], failed="x")]
    seat = analysis.seat_advantage(rows)
    assert seat.games == 0 and seat.score is None and seat.balance is None
    stopped = dataclasses.replace(game_row(1, ["x", "x"], [0, 0]), status="length")
    assert analysis.seat_advantage([stopped]).games == 0


def test_wilson_bounds_stay_within_zero_and_one():
    from tournament.stats.intervals import wilson
    for n in range(1, 200):
        assert wilson(0, n)[0] == 0 and wilson(1, n)[1] == 1


def test_a_list_of_configs_plays_each_its_own_deals():
    plan = plans.Plan(plans.variants("card_duel"), plans.ladder("ismcts", 2, 8), deals=2)
    with pytest.raises(ValueError, match="deals limits one config"):
        runner.run(plan.schedule(), None, deals=1)


def test_elo_of_a_score():
    assert analysis.elo_of(0.5) == 0
    assert analysis.elo_of(10 / 11) == pytest.approx(400)
    assert analysis.elo_of(1.0) == 800 and analysis.elo_of(0.0) == -800


# --- the ladder and variants ------------------------------------------------------


def test_the_ladder_doubles_the_searchers_budget_and_tops_it_with_the_cheater():
    ladder = plans.ladder("ismcts(rollout_depth=4)", 8, 40)
    assert ladder.budgets == (8, 16, 32)
    assert [r.name for r in ladder.rungs] == ["random", "greedy", "ismcts-8", "ismcts-16",
                                               "ismcts-32", "cheater-32"]
    assert ladder.top.spec == "ismcts(iterations=32,rollout_depth=4)"
    assert ladder.cheater.spec == "cheater(iterations=32,rollout_depth=4)"


@pytest.mark.parametrize("player, low, high, message", [
    ("greedy", 8, 64, "a searcher whose budget the ladder doubles"),
    ("ismcts(iterations=5)", 8, 64, "leave out iterations and seconds"),
    ("ismcts(seconds=1)", 8, 64, "leave out iterations and seconds"),
    ("ismcts(uct_c=-1)", 8, 64, "--player: ismcts: uct_c must be >= 0.0"),
    ("ismcts", 8, 31, "at least three budgets"),
])
def test_a_bad_ladder_is_refused_with_the_reason(player, low, high, message):
    with pytest.raises(plans.SkillError, match=message):
        plans.ladder(player, low, high)


def test_variants_are_the_given_ones_then_the_grid():
    found = plans.variants("card_duel(max_exchanges=100)", ["default", "life=10"],
                           ["hand_points=20,30", "life=15,30"])
    assert [v.name for v in found] == [
        "default", "life=10", "hand_points=20,life=15", "hand_points=20,life=30",
        "hand_points=30,life=15", "hand_points=30,life=30"]
    assert found[0].game == "card_duel(max_exchanges=100)"
    assert found[3].game == "card_duel(max_exchanges=100,hand_points=20,life=30)"


@pytest.mark.parametrize("game, given, grid, message", [
    ("shrine", ["life=3"], [], "variant life=3: cannot load"),
    ("shrine", ["alt_heal"], [], "write name=value pairs"),
    ("shrine", ["default", "default"], [], "asked for twice"),
    ("card_duel", [], ["life"], "write one parameter and its values"),
    ("card_duel(life=15)", ["default", "life=15"], [], "default and life=15 are the same"),
    ("card_duel", [], ["life=15,22", "life=30"], "life is given twice"),
    ("card_duel", ["life=22", "default"], [], "life=22 and default are the same rules"),
    ("card_duel", ["life=22", "hand_points=30"], [], "life=22 and hand_points=30 are the "
     "same rules"),
    ("shrin", [], [], r"unknown game 'shrin' \(did you mean shrine"),
])
def test_a_bad_variant_is_refused_with_the_reason(game, given, grid, message):
    with pytest.raises(plans.SkillError, match=message):
        plans.variants(game, given, grid)


def test_measuring_before_the_games_are_played_says_what_is_missing(tmp_path):
    plan = plans.Plan(plans.variants("card_duel"), plans.ladder("ismcts", 2, 8), deals=1)
    with Store(str(tmp_path / "g.db")) as store:
        with pytest.raises(plans.SkillError, match="0 of 2 games of random v greedy"):
            analysis.measure(store, plan)


def test_configs_in_one_run_store_what_each_run_alone_stores(tmp_path):
    plan = plans.Plan(plans.variants("card_duel"), plans.ladder("ismcts", 2, 8), deals=2)
    together, alone = Store(str(tmp_path / "a.db")), Store(str(tmp_path / "b.db"))
    schedule = plan.schedule()
    runner.run(schedule, together, workers=2, progress=False)
    for config in schedule:
        runner.run(config, alone, workers=1, progress=False)
    for config in schedule:
        assert comparable(together.games(config.key)) == comparable(alone.games(config.key))
        assert len(alone.games(config.key)) == 4
