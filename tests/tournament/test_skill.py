"""The skill analysis: its figures on hand-computed results, and the whole command on
a tiny ladder."""
import dataclasses
import json
import math
import pathlib
import re
import shutil
import signal
import subprocess
import time

import pytest

from tournament.harness import runner
from tournament.harness.row import GameRow
from tournament.harness.store import Store
from tournament.skill import analysis, plans, report, run
from tournament.skill.figures import (Chain, Clear, Climb, ClimbStep, Edge, RatedRung, Reading,
                                      Results)
from tournament_helpers import CARDARENA, cli, comparable, rows_in

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


# --- the command ------------------------------------------------------------------

TINY = ["card_duel", "--grid", "hand_points=20,30", "--grid", "life=15,22", "--deals", "3",
        "--min-budget", "4", "--max-budget", "16", "--reach", "2", "--bootstrap", "200",
        "--quiet", "--trial-deals", "2"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("skill")
    result = cli("skill", *TINY, "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out, result, Results.from_dict(json.loads((out / "skill.json").read_text()))


def test_the_command_writes_a_report_the_figures_and_the_plots(tiny):
    out, result, _ = tiny
    for name in ("report.md", "summary.md", "skill.json", "elo.png", "ladder.png",
                 "seats.png", "grid.png", "games.db"):
        assert (out / name).stat().st_size > 0, name
    for name in ("elo.png", "ladder.png", "seats.png", "grid.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert result.stdout == (out / "summary.md").read_text() + "\n"
    assert "cardarena skill " + " ".join(TINY) in result.stdout


def test_every_variant_gets_every_figure(tiny):
    _, _, results = tiny
    assert [v.name for v in results.variants] == [
        "hand_points=20,life=15", "hand_points=20,life=22", "hand_points=30,life=15",
        "hand_points=30,life=22"]
    names = [r.name for r in results.rungs]
    assert names == ["random", "greedy", "ismcts-4", "ismcts-8", "ismcts-16", "cheater-16"]
    for v in results.variants:
        # 7 pairs of rungs (5 chain rungs, each against the 2 above) and the cheater's
        # pair, 6 games each; two self-plays of 6 games.
        assert v.games == 8 * 6 + 2 * 6
        # Four games are too few for any challenger to beat the default clearly.
        assert v.player == v.yardstick.player == plans.PLAYER
        assert [c.games for c in v.yardstick.challengers] == [4] * 7
        assert [r.name for r in v.rungs] == names
        assert v.rungs[0].elo == 0
        for r in v.rungs:
            assert r.low <= r.high
        assert v.span.lowest == "ismcts-4" and v.span.top == "ismcts-16"
        assert v.span.low <= v.span.high
        assert len(v.steps) == 7 and all(s.games == 6 for s in v.steps)
        chain = [n for n in names if n != "cheater-16"]
        scores = {(s.lower, s.upper): s.score for s in v.steps}
        for threshold, figure in zip((0.6, 0.75), (v.chain["60%"], v.chain["75%"])):
            assert figure.length == analysis.skill_chain(scores, chain, threshold)
            assert figure.low <= figure.high
        doubling = [scores[("ismcts-4", "ismcts-8")], scores[("ismcts-8", "ismcts-16")]]
        trace = v.skill_trace
        assert dataclasses.replace(trace, low=None, high=None) == analysis.skill_trace(
            [2 * s - 1 for s in doubling])
        assert 0 <= trace.low <= trace.high <= 1 and 0 <= trace.trace <= 1
        seat = v.seat
        assert seat.games == 6 and seat.low <= seat.score <= seat.high
        assert v.seat_random.games == 6
        assert 0 <= seat.balance <= 1
        for play in ("random", "strong"):
            shape = getattr(v.shape, play)
            assert shape.games == 6
            assert 0 <= shape.draws <= 1 and shape.stopped == 0
            assert shape.turns_mean <= shape.decisions_mean
            assert shape.branching >= 1
        edge = v.cheater_edge
        assert (edge.lower, edge.upper, edge.games) == ("ismcts-16", "cheater-16", 6)
        # Every game ended, and each of its two seats is a sample of its rung's moves.
        assert sum(u.games for u in v.usage.values()) == 2 * v.games
        assert edge.elo == analysis.elo_of(edge.score)


def test_the_verdicts_name_the_deepest_and_the_fairest_variant(tiny):
    _, result, results = tiny
    spans = {v.name: v.span.elo for v in results.variants}
    deepest = results.deepest
    assert deepest.variant == max(spans, key=spans.get)
    assert deepest.runner_up.lead == pytest.approx(
        spans[deepest.variant] - sorted(spans.values())[-2])
    assert [b.variant for b in deepest.behind] == sorted(
        (n for n in spans if n != deepest.variant), key=lambda n: -spans[n])
    differences = results.depth_differences
    for a in spans:
        for b in spans:
            if a != b:
                d, back = differences[a][b], differences[b][a]
                assert d.lead == pytest.approx(spans[a] - spans[b])
                assert (d.low, d.high) == pytest.approx((-back.high, -back.low))
                assert d.clear == (d.low > 0)
    for behind in deepest.behind:
        assert behind == differences[deepest.variant][behind.variant]
    seats = {v.name: abs(v.seat.score - 0.5) for v in results.variants}
    assert results.fairest.variant == min(seats, key=seats.get)
    assert deepest.clear == all(b.clear for b in deepest.behind)
    assert (f"**Deepest: `{deepest.variant}`**" if deepest.clear else
            f"**Deepest: not told apart**: `{deepest.variant}`") in result.stdout
    fairest = results.fairest
    assert (f"**Fairest: `{fairest.variant}`**" if fairest.clear else
            f"**Fairest: not told apart**: `{fairest.variant}`") in result.stdout


def test_the_same_command_again_plays_nothing_and_reports_the_same(tiny, tmp_path):
    out, _, results = tiny
    again = cli("skill", *TINY, "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert "240 games; 240 stored" in again.stderr
    assert Results.from_dict(json.loads((out / "skill.json").read_text())) == results


def test_one_call_from_python_gives_the_figures_the_command_wrote(tiny, tmp_path):
    out, _, results = tiny
    db = tmp_path / "games.db"
    shutil.copy(out / "games.db", db)
    found = run.analyse("card_duel", grid=["hand_points=20,30", "life=15,22"], deals=3,
                        min_budget=4, max_budget=16, reach=2, trial_deals=2,
                        bootstrap=200, db=str(db))
    assert found == dataclasses.replace(results, command=None)


def test_more_deals_extend_the_stored_run(tiny, tmp_path):
    out, _, _ = tiny
    copy = tmp_path / "more"
    copy.mkdir()
    (copy / "games.db").write_bytes((out / "games.db").read_bytes())
    more = [a if a != "3" else "4" for a in TINY]
    result = cli("skill", *more, "--out", str(copy))
    assert result.returncode == 0, result.stderr
    assert "320 games; 240 stored" in result.stderr
    assert all(v["seat"]["games"] == 8 for v in json.loads(
        (copy / "skill.json").read_text())["variants"])


def test_failures_are_counted_as_losses_and_reported(tmp_path):
    # No bot can move within a microsecond: every game is lost by its first mover.
    result = cli("skill", "card_duel", "--deals", "2", "--min-budget", "2", "--max-budget",
                 "8", "--player", plans.PLAYER, "--seconds-per-move", "0.000001", "--bootstrap", "20", "--quiet",
                 "--workers", "1", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "- **Failures**: 28 games in `default` ended with a bot failing" in result.stdout
    assert "- **Fairest: none**" in result.stdout
    figures = json.loads((tmp_path / "skill.json").read_text())["variants"][0]
    assert sum(sum(k.values()) for k in figures["failures"].values()) == 28
    assert figures["seat"]["games"] == 0 and figures["shape"]["strong"]["games"] == 0
    assert all(u == analysis.move_figures([]).to_dict() for u in figures["usage"].values())
    assert "Failures, each counted as the failing bot's loss: random: " in \
        (tmp_path / "report.md").read_text()
    assert not (tmp_path / "seats.png").exists() or (tmp_path / "seats.png").stat().st_size


def test_plots_of_an_earlier_run_into_the_folder_are_not_left_behind(tiny, tmp_path):
    out, _, _ = tiny
    (tmp_path / "games.db").write_bytes((out / "games.db").read_bytes())
    (tmp_path / "grid.png").write_bytes((out / "grid.png").read_bytes())
    one_line = TINY[:3] + TINY[5:]  # hand_points=20,30 alone: no grid of two
    result = cli("skill", *one_line, "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "elo.png").exists() and not (tmp_path / "grid.png").exists()


@pytest.mark.parametrize("args, message", [
    (["shrine", "--deals", "1"], "--deals is at least 2"),
    (["shrine", "--variant", "life=3"], "cardarena skill: variant life=3: cannot load"),
    (["shrine", "--player", "random"], "cardarena skill: --player is a searcher"),
    (["shrine", "--max-budget", "16"], "at least three budgets"),
    (["shrin"], "cardarena skill: unknown game 'shrin' (did you mean shrine"),
    (["card_duel", "--variant", "life=\udcff"], "cardarena skill: 'life=\\xff' is not "
     "UTF-8 text"),
    (["card_duel", "--variant", "life=22", "--variant", "default"], "the same rules"),
    (["shrine", "--deals", "10", "--decide-to", "10"], "cardarena skill: --decide-to is "
     "the most deals a match may reach, above --deals (10), not 10"),
])
def test_bad_arguments_get_one_line_and_no_games(args, message, tmp_path):
    result = cli("skill", *args, "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert message in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, message", [
    (["--max-budget", "100000000000"], r"cardarena skill: --max-budget 68719476736, --deals "
     r"30: the analysis would take about \d+ years? on 1 worker \(\d+ decisions a game, "
     r"[\d.]+ µs an iteration\), beyond the 7 days this runs: lower --max-budget or "
     r"--deals"),
    (["--max-budget", "10000000", "--deals", "1000000", "--seconds-per-move", "86400"],
     r"cardarena skill: --max-budget 8388608, --deals 1000000: the analysis would take "
     r"about \d+ years? on 1 worker \(\d+ decisions a game, [\d.]+ µs an iteration\), "
     r"beyond the 7 days this runs: lower --max-budget or --deals"),
    (["--max-budget", "1000000", "--decide-to", "1000000"],
     r"cardarena skill: --max-budget 524288, --decide-to 1000000: the analysis would take "
     r"about \d+ years? on 1 worker \(\d+ decisions a game, [\d.]+ µs an iteration\), "
     r"beyond the 7 days this runs: lower --max-budget or --decide-to"),
])
def test_a_budget_that_cannot_finish_is_refused_with_how_long_it_would_take(
        tmp_path, args, message):
    result = cli("skill", "card_duel", *args, "--workers", "1", "--out", "out", cwd=tmp_path)
    assert result.returncode == 1
    assert re.fullmatch(message, result.stderr.strip()), result.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_out_that_cannot_hold_the_report_gets_one_line_and_no_games(tmp_path):
    (tmp_path / "l.toml").write_text("")
    result = cli("skill", "card_duel", "--out", "l.toml", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == "cardarena skill: --out l.toml is a file, not a folder\n"
    result = cli("skill", "card_duel", "--out", "/proc/cardarena/out", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("cardarena skill: --out /proc/cardarena/out: cannot "
                                    "make the folder: ")
    assert result.stderr.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["l.toml"]


def test_a_db_that_cannot_be_opened_is_refused_before_the_out_folder_is_made(tmp_path):
    (tmp_path / "notes.db").write_text("not a database")
    result = cli("skill", "card_duel", "--out", "out", "--db", "notes.db", cwd=tmp_path)
    assert result.returncode == 1 and "notes.db: not a cardarena database" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()


def test_the_default_out_folder_names_the_games_parameters(tmp_path):
    args = TINY[:1] + TINY[5:]
    plain = cli("skill", *args, cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert (tmp_path / "skill-card_duel" / "skill.json").exists()
    shorter = cli("skill", "card_duel(max_exchanges=200)", *args[1:], cwd=tmp_path)
    assert shorter.returncode == 0, shorter.stderr
    assert (tmp_path / "skill-card_duel-max_exchanges=200" / "skill.json").exists()
    assert json.loads((tmp_path / "skill-card_duel" / "skill.json").read_text())[
        "variants"][0]["game"] == "card_duel"


def test_an_interrupted_analysis_resumes_to_the_same_figures(tmp_path):
    # Shrine at budgets up to 16 with full rollouts: 42 games, the costliest first, so
    # that the run is still going when it is stopped after its second.
    args = ["shrine", "--deals", "3", "--player", "ismcts", "--min-budget", "4",
            "--max-budget", "16", "--bootstrap", "50", "--quiet", "--workers", "2"]
    stopped = tmp_path / "stopped"
    process = subprocess.Popen([CARDARENA, "skill", *args, "--out", str(stopped)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while rows_in(str(stopped / "games.db")) < 2 and time.monotonic() < deadline \
            and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    stored = rows_in(str(stopped / "games.db"))
    assert process.returncode == 130, err
    assert f"Stopped: {stored} of 42 games are stored" in err
    assert "Traceback" not in err and not (stopped / "skill.json").exists()
    resumed = cli("skill", *args, "--out", str(stopped))
    assert resumed.returncode == 0, resumed.stderr
    assert f"42 games; {stored} stored" in resumed.stderr
    whole = tmp_path / "whole"
    assert cli("skill", *args, "--out", str(whole)).returncode == 0
    assert json.loads((stopped / "skill.json").read_text())["variants"] == \
        json.loads((whole / "skill.json").read_text())["variants"]


@pytest.mark.parametrize("game", ["shrine", "card_duel"])
def test_the_readme_quotes_the_summaries_the_tool_wrote(game):
    root = pathlib.Path(__file__).resolve().parents[2]
    summary = (root / "docs" / "results" / game / "summary.md").read_text().strip()
    assert summary in (root / "README.md").read_text()
    figures = json.loads((root / "docs" / "results" / game / "skill.json").read_text())
    assert summary.startswith(f"`{figures['command']}`")


def test_on_shrine_more_search_is_clearly_stronger(tmp_path):
    # In Shrine the searcher at 32 iterations beat the one at 8 in 99% of 200 games of
    # the results run; here 10 deals, seeded, must show it at 95% confidence: the
    # span's bootstrap interval above the null, so the depth question is decided.  The
    # step from 8 to 16 scores 75%, but two of its ten deals went to 8 iterations in
    # both seatings, and its interval, read from the spread between deals, holds 50%
    # (Wilson's over the 20 games, which took them to be independent, did not).
    result = cli("skill", "shrine", "--deals", "10", "--min-budget", "8", "--max-budget",
                 "32", "--player", plans.PLAYER, "--bootstrap", "500", "--quiet", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    figures = json.loads((tmp_path / "skill.json").read_text())["variants"][0]
    assert figures["span"]["low"] > 0
    steps = {(s["lower"], s["upper"]): s for s in figures["steps"]}
    assert steps[("ismcts-16", "ismcts-32")]["games"] == 20
    assert steps[("ismcts-8", "ismcts-16")]["score"] == 0.75
    assert steps[("ismcts-8", "ismcts-16")]["low"] < 0.5
    depth = next(v for v in json.loads((tmp_path / "skill.json").read_text())["verdicts"]
                 if v["question"] == "depth")
    assert depth["decided"] and depth["answer"] == "the searcher gains"
    assert "the games counted as the spread between deals says they weigh" in \
        (tmp_path / "summary.md").read_text()
    assert "| step | games | score % | ± 2 SE | 95% by deal |" in \
        (tmp_path / "report.md").read_text()
    assert figures["chain"]["60%"]["length"] >= 1


@pytest.mark.parametrize("game, matches_a_game", [("euchre", 1), ("oh_hell", 2)])
def test_a_team_game_and_a_free_for_all_are_measured(game, matches_a_game, tmp_path):
    # Euchre's rungs each hold a team: one match a game, partners never matched.  In
    # three-player oh_hell two rungs share the seats: the lone seat meets the other two.
    result = cli("skill", game, "--deals", "2", "--min-budget", "2", "--max-budget", "8",
                 "--player", plans.PLAYER, "--out", str(tmp_path), "--workers", "1", "--bootstrap", "20", "--quiet")
    assert result.returncode == 0, result.stderr
    variant = json.loads((tmp_path / "skill.json").read_text())["variants"][0]
    games_a_pair = 2 * (2 if game == "euchre" else 6)
    for step in variant["steps"]:
        assert step["games"] == games_a_pair * matches_a_game, step
    assert variant["seat"]["games"] > 0 and 0 <= variant["seat"]["score"] <= 1
    assert [r["name"] for r in variant["rungs"]] == ["random", "greedy", "ismcts-2",
                                                      "ismcts-4", "ismcts-8", "cheater-8"]
    # A team is one sample of its rung's moves, each seat of a free-for-all one.
    sides = 2 if game == "euchre" else 3
    assert sum(u["games"] for u in variant["usage"].values()) == sides * variant["games"]


# --- intervals and verdicts, on hand-built games ----------------------------------
#
# Every game is made up, so the truth is known: on deal d of n, the upper rung of a
# step scoring s wins both seatings when d < s * n and loses both otherwise, and in
# self-play the first seat of a variant whose seat scores s wins every rotation of deal
# d when d < s * n.  No game is played; the games have no moves.

HAND_LADDER = plans.ladder(plans.PLAYER, 4, 16)


class HandMadeGames:
    """A store of made-up games of ``plan``: ``steps[variant](lower, upper)`` is the
    upper rung's score against the lower, ``seats[variant]`` the first seat's score in
    self-play."""

    def __init__(self, plan, steps, seats):
        self.rows = {}
        for variant in plan.variants:
            for config in plan.configs(variant):
                rows = []
                for deal, seating, rotation in config.games():
                    if len(config.bots) == 1:
                        won = deal < seats[variant.name] * config.deals
                        returns = [1, -1] if won else [-1, 1]
                    else:
                        lower, upper = config.bots
                        won = deal < steps[variant.name](lower, upper) * config.deals
                        returns = [1 if (bot == upper) == won else -1 for bot in seating]
                    rows.append(GameRow(deal=deal, seating=list(seating), returns=returns,
                                        rotation=rotation))
                self.rows[config.key] = rows

    def games(self, key, deals=None):
        return [r for r in self.rows[key] if deals is None or r.deal in deals]


def each_step(searcher, greedy=0.9, others=0.8):
    """Steps where each doubling of the searcher scores ``searcher``, the lowest
    searcher scores ``greedy`` against greedy, and every other step ``others``."""
    def score(lower, upper):
        if lower.startswith("ismcts") and upper.startswith("ismcts"):
            return searcher
        return greedy if lower == "greedy" else others
    return score


def hand_measure(steps, seats, deals=40):
    """The figures of made-up games of two or three variants of Card Duel,
    ``life=15``, ``life=22`` (and ``life=30``): ``steps`` and ``seats`` hold one for
    each."""
    lives = [f"life={n}" for n in (15, 22, 30)[:len(steps)]]
    plan = plans.Plan(plans.variants("card_duel", lives), HAND_LADDER, deals=deals)
    names = [v.name for v in plan.variants]
    store = HandMadeGames(plan, dict(zip(names, steps)), dict(zip(names, seats)))
    return analysis.measure(store, plan, bootstrap=200)


def width(figure):
    return figure.high - figure.low


def test_chains_and_skilltrace_have_intervals_that_hold_them_and_narrow_with_more_deals():
    few = hand_measure([each_step(0.75)] * 2, [0.5, 0.5], deals=20).variants[0]
    many = hand_measure([each_step(0.75)] * 2, [0.5, 0.5], deals=200).variants[0]
    for figures in (few, many):
        for chain in figures.chain.values():
            assert chain.low <= chain.length <= chain.high
        trace = figures.skill_trace
        assert trace.low <= trace.trace <= trace.high
        assert figures.gain.low <= figures.gain.elo <= figures.gain.high
    # Every step scores 75% or more: the chain at 60% climbs all four, and at 75% it
    # breaks in a resample wherever a step dips below, more often with fewer deals.
    assert many.chain["60%"] == Chain(length=4, low=4, high=4)
    assert width(many.chain["75%"]) <= width(few.chain["75%"])
    assert width(many.skill_trace) < width(few.skill_trace)
    assert width(many.gain) < width(few.gain)


def test_the_deepest_is_named_only_when_its_lead_is_clear():
    clear = hand_measure([each_step(0.9), each_step(0.6)], [0.5, 0.5])
    assert clear.deepest.variant == "life=15" and clear.deepest.clear
    assert "**Deepest: `life=15`**" in report.summary(clear, "cardarena skill")
    close = hand_measure([each_step(0.75), each_step(0.7)], [0.5, 0.5], deals=20)
    assert close.deepest.variant == "life=15" and not close.deepest.clear
    text = report.summary(close, "cardarena skill")
    assert "**Deepest: not told apart**: `life=15` has the widest" in text
    assert "do not tell the two apart" in text
    assert "clearly deeper than" not in text
    far = hand_measure([each_step(0.75), each_step(0.7), each_step(0.5)], [0.5] * 3,
                       deals=20)
    assert "do not tell the two apart. It is clearly deeper than `life=30`." in \
        report.summary(far, "cardarena skill")


def test_the_fairest_is_named_only_when_its_seats_are_clearly_nearer_even():
    clear = hand_measure([each_step(0.8)] * 2, [0.5, 0.8])
    assert clear.fairest.variant == "life=15" and clear.fairest.clear
    assert clear.fairest.uneven == ["life=22"]
    assert "**Fairest: `life=15`**" in report.summary(clear, "cardarena skill")
    close = hand_measure([each_step(0.8)] * 2, [0.5, 0.55])
    assert close.fairest.variant == "life=15" and not close.fairest.clear
    assert "**Fairest: not told apart**" in report.summary(close, "cardarena skill")
    assert "it is clearly nearer 50% than" not in report.summary(close, "cardarena skill")
    far = hand_measure([each_step(0.8)] * 3, [0.5, 0.55, 0.85])
    assert "(the interval of the difference in distance from 50% holds zero); it is " \
        "clearly nearer 50% than `life=30`;" in report.summary(far, "cardarena skill")


def test_the_report_says_when_the_top_rung_does_not_clearly_beat_greedy():
    strong = hand_measure([each_step(0.8)] * 2, [0.5, 0.5])
    assert all(v.over_greedy.clear for v in strong.variants)
    assert "clearly beats greedy in every variant" in report.summary(strong, "c")
    # Greedy beats the lowest searcher 90% of the time; two doublings at 60% do not
    # bring the top searcher clear of it.
    weak = hand_measure([each_step(0.6, greedy=0.1)] * 2, [0.5, 0.5])
    assert not any(v.over_greedy.clear for v in weak.variants)
    text = report.summary(weak, "c")
    assert "**Searcher: weak yardstick**: ismcts-16 does not clearly beat greedy" in text
    assert "measure the searcher as much as the rules" in text


def test_the_report_says_where_the_cheater_clearly_gains_from_seeing_every_card():
    # Every step but the searcher's doublings and the first over greedy scores
    # ``others``: the cheater's over the top searcher among them.
    ahead = hand_measure([each_step(0.8, others=0.8)] * 2, [0.5, 0.5])
    assert "- **Hidden cards**: the cheater, seeing every card, against ismcts-16 " \
        "clearly wins in `life=15` (" in report.summary(ahead, "c")
    level = hand_measure([each_step(0.8, others=0.5)] * 2, [0.5, 0.5])
    assert "against ismcts-16, is not told from 50% in any variant (50.0%): at this " \
        "budget, seeing every card is worth nothing these games show." in \
        report.summary(level, "c")


def climb_to(budget, over_greedy, cheater, ended="ceiling"):
    """A climb that ended (``ceiling`` or ``cap``) at ``budget``, its ceiling
    ``over_greedy`` = (Elo, low, high) above greedy, the cheater at its top scoring
    ``cheater`` = (score, low, high)."""
    elo, low, high = over_greedy
    score, s_low, s_high = cheater
    top = ClimbStep(lower=f"ismcts-{budget}", upper=f"ismcts-{2 * budget}",
                    budget=2 * budget, doubling=True, games=80, score=0.5, low=0.4,
                    high=0.6, undecided=True)
    return Climb(player="ismcts", cap=4096, unguided="none shipped", steps=[top],
                 ended=ended, below=True,
                 ceiling=RatedRung(name=f"ismcts-{budget}", spec="", budget=budget,
                                   elo=300.0, low=250.0, high=350.0),
                 over_greedy=Clear(elo=elo, low=low, high=high, clear=low > 0),
                 cheater_edge=Edge(lower="", upper="", games=80, score=score, se=0.05, low=s_low,
                                   high=s_high, elo=0.0, elo_low=0.0, elo_high=0.0))


def test_a_climb_tells_a_weak_searcher_from_rules_with_little_above_greedy():
    weak = hand_measure([each_step(0.6, greedy=0.1)] * 3, [0.5] * 3)
    climbs = [climb_to(4096, (50, -40, 140), (0.49, 0.38, 0.60)),   # flat, the cheater too
              climb_to(2048, (160, 60, 260), (0.55, 0.45, 0.65)),   # clear once it climbs
              climb_to(8192, (20, -60, 100), (0.50, 0.40, 0.60), ended="cap")]
    variants = [dataclasses.replace(v, climb=c) for v, c in zip(weak.variants, climbs)]
    text = report.summary(dataclasses.replace(weak, variants=variants), "c")
    assert "**Searcher: weak yardstick**" in text
    assert "in `life=15` the ceiling, at 4096 iterations, is +50 [-40, +140] Elo above " \
        "greedy, and the cheater at the climb's top, seeing every card, scores 49.0 " \
        "[38.0, 60.0]% against the searcher. Neither more search nor seeing every card " \
        "beats greedy clearly" in text
    assert "but its climb does: `life=22` at 2048 iterations, +160 [+60, +260] Elo above " \
        "greedy" in text
    # A climb stopped by its cap has not shown a ceiling: the searcher stays suspect.
    assert "ismcts-16 does not clearly beat greedy in `life=30`" in text
    assert "measure the searcher as much as the rules" in text
    flat = dataclasses.replace(weak, variants=[
        dataclasses.replace(v, climb=climbs[0]) for v in weak.variants])
    assert "**Searcher: little skill above greedy**" in report.summary(flat, "c")
    # A cheater clearly ahead at the top says hidden cards still pay: not flat.
    ahead = dataclasses.replace(weak, variants=[
        dataclasses.replace(v, climb=climb_to(4096, (50, -40, 140), (0.7, 0.6, 0.8)))
        for v in weak.variants])
    assert "**Searcher: weak yardstick**" in report.summary(ahead, "c")


def test_x_percent_is_100_for_the_same_game_and_falls_as_a_coin_decides_more_of_it():
    # A fair coin deciding a share q of games that the upper rung wins 90% of the time
    # makes it win q / 2 + 0.9 (1 - q): 80% at q = 1/4, 70% at q = 1/2.
    same = hand_measure([each_step(0.9)] * 2, [0.5, 0.5]).chess
    assert same.readings[0] == Reading(variant="life=22", x=100, low=100, high=100,
                                       wider=True)
    quarter = hand_measure([each_step(0.9), each_step(0.8)], [0.5, 0.5]).chess
    half = hand_measure([each_step(0.9), each_step(0.7)], [0.5, 0.5]).chess
    assert quarter.reference == half.reference == "life=15"
    assert quarter.readings[0].x == pytest.approx(75)
    assert half.readings[0].x == pytest.approx(50)
    for reading in quarter.readings + half.readings:
        assert reading.low <= reading.x <= reading.high < 100
    assert analysis.chess_share([0.9, 0.9], [0.5, 0.5]) == 0


def test_x_percent_is_withheld_when_the_reference_shows_no_clear_gain():
    flat = hand_measure([each_step(0.5)] * 2, [0.5, 0.5])
    assert flat.chess.readings is None
    assert "there is no skill for a coin to dilute" in report.summary(flat, "c")


def test_one_variant_is_measured_but_never_named_deepest_or_fairest():
    root = pathlib.Path(__file__).resolve().parents[2]
    results = Results.from_dict(json.loads(
        (root / "docs/results/validation/tic_tac_toe/skill.json").read_text()))
    text = report.summary(results, results.command)
    assert "- **Depth**: the Elo span from ismcts-8 to ismcts-1024 is" in text
    assert "- **Seats**: in self-play of ismcts-1024 the first seat scores" in text
    assert "Deepest" not in text and "Fairest" not in text
