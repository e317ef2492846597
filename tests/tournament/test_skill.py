"""The skill analysis as a user runs it: the whole command on a tiny ladder, its
errors, resuming, and the figures it writes."""
import dataclasses
import json
import pathlib
import re
import shutil
import signal
import subprocess
import time

import pytest

from tournament.skill import analysis, plans, run
from tournament.skill.figures import (Results)
from tournament_helpers import CARDARENA, cli, rows_in

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
    # Nor does a store and journal named apart, which the command began.
    result = cli("skill", "card_duel", "--db", "new.db", "--journal", "new.jsonl",
                 "--out", "/proc/cardarena/out", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
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
