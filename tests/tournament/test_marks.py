"""Mark thresholds calibrated per game (``cardarena marks``): the reviewer's noise
measured by judging its own moves under another seed, the thresholds raised by it,
reviews marked by their game's calibration, and the command's answers."""
import json
import os
import pathlib
import subprocess

import pytest

import core
from tournament import calibrations
from tournament.skill import marks as calibrating_marks
from tournament.sparring import marks, review
from tournament_helpers import CARDARENA

GAMES = sorted(core.GAMES)


def run(*args, cwd=None):
    return subprocess.run([CARDARENA, *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, stdin=subprocess.DEVNULL)


def made(game="card_duel", floor=0.03):
    return marks.Marks(game, 2000, 10, 0, "made by hand", 0.5, 0.01, floor,
                       marks.thresholds(floor))


def test_the_thresholds_are_the_base_ones_raised_by_the_noise_floor():
    assert marks.thresholds(0.0) == marks.BASE == review.MARKS
    assert marks.thresholds(0.03) == (("very bad", 0.13), ("bad", 0.08), ("doubtful", 0.05))
    m = made()
    assert [m.mark(x) for x in (0.049, 0.05, 0.08, 0.2)] == [None, "doubtful", "bad",
                                                             "very bad"]


def test_a_calibration_is_the_reviewers_own_moves_judged_under_another_seed():
    found = calibrating_marks.calibrate("card_duel", 100, 12, seed=5, command="by hand")
    losses = []
    for state, step, seat in calibrating_marks.positions("card_duel", 12, 5):
        own = review.Reviewer("card_duel", seat, 100, 5).preferred(state, step)
        losses.append(review.Reviewer("card_duel", seat, 100, 6).judge(state, step, own).loss)
    assert found.positions == len(losses) == 12
    assert found.noise == round(sum(losses) / 12, 4)
    # No more than 5% of the positions reach the floor or pass it, bar ties with it.
    assert found.floor in [round(x, 4) for x in losses]
    assert sum(x > found.floor for x in losses) <= 0.05 * 12
    assert found.thresholds == marks.thresholds(found.floor)
    assert found == calibrating_marks.calibrate("card_duel", 100, 12, seed=5, command="by hand")


def test_a_review_is_marked_by_its_games_calibration_or_its_default_rules(tmp_path,
                                                                         monkeypatch):
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    assert review.Reviewer("card_duel", 0, 100).thresholds == review.MARKS
    own = made(floor=0.03)
    own.save(marks.path("card_duel"))
    assert marks.load("card_duel") == own
    reviewer = review.Reviewer("card_duel", 0, 100)
    assert reviewer.thresholds == own.thresholds
    # A variant without marks of its own is marked as its default rules are.
    assert review.Reviewer("card_duel(life=15)", 0, 100).thresholds == own.thresholds
    variant = made("card_duel(life=15)", floor=0.01)
    variant.save(marks.path("card_duel(life=15)"))
    assert review.Reviewer("card_duel(life=15)", 0, 100).thresholds == variant.thresholds
    state = reviewer.game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) == 1:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node()
                           else state.legal_actions()[0])
    decision = review.Reviewer("card_duel", state.current_player(), 100).judge(
        state, 0, state.legal_actions()[0])
    assert decision.thresholds == own.thresholds
    assert decision.mark == own.mark(decision.loss)


def test_the_command_calibrates_into_out_and_shows_the_shipped_marks(tmp_path):
    result = run("marks", "card_duel", "--calibrate", "--positions", "4", "--iterations",
                 "100", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    written = marks.Marks.from_dict(json.loads((tmp_path / "marks-card_duel.json").read_text()))
    assert written.positions == 4 and written.iterations == 100
    assert written.command == "cardarena marks card_duel --calibrate --positions 4 " \
        f"--iterations 100 --out {tmp_path}"
    assert result.stdout == marks.describe(written) + "\n"
    shown = run("marks", "card_duel")
    assert shown.returncode == 0 and shown.stdout == marks.describe(marks.load("card_duel")) + "\n"


@pytest.mark.parametrize("args, status, message", [
    (["marks", "card_duel", "--seed", "3"], 2, "cardarena marks: --seed is for --calibrate"),
    (["marks", "card_duel", "--calibrate", "--positions", "0"], 2, "cardarena marks: error: argument "
     "--positions"),
])
def test_bad_arguments_stop_with_one_clear_line(tmp_path, args, status, message):
    result = run(*args, cwd=tmp_path)
    assert result.returncode == status and result.stdout == ""
    assert message in result.stderr.splitlines()[-1]
    assert os.listdir(tmp_path) == []


def test_a_broken_file_is_refused_with_its_name(tmp_path, monkeypatch):
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    (tmp_path / "marks-shrine.json").write_text('{"format": "cardarena marks"}')
    with pytest.raises(marks.MarksError, match="marks-shrine.json is not a calibration of "
                                               "marks"):
        review.Reviewer("shrine", 0)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_ships_marks_made_at_a_reviews_budget_and_the_docs_quote_them(game):
    shipped = marks.load(game)
    assert shipped.game == game and shipped.iterations == review.ITERATIONS
    assert shipped.command == f"cardarena marks {game} --calibrate"
    assert shipped.positions >= 100
    text = (pathlib.Path(__file__).parents[2] / "docs" / "review.md").read_text()
    doubtful, bad, very_bad = (dict(shipped.thresholds)[name]
                               for name in ("doubtful", "bad", "very bad"))
    assert f"| {game} | {shipped.agree:.0%} | {shipped.noise:.3f} | {shipped.floor:.3f} | " \
        f"{doubtful:.3f} | {bad:.3f} | {very_bad:.3f} |" in text
