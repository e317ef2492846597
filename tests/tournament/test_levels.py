"""Strength levels (``cardarena levels``, ``play --elo``): a level plays as strong as its
calibration says, levels are found between and at the calibrated budgets, and the
commands answer bad input clearly."""
import dataclasses
import io
import json
import math
import os
import pathlib
import shlex
import signal
import subprocess
import sys

import numpy as np
import pytest

import core
import search
from tournament import calibrations, cli
from tournament.harness import config as configs
from tournament.harness import runner
from tournament.harness.store import Store
from tournament.skill import climbs, plans
from tournament.skill import levels as calibrating
from tournament.sparring import levels, session
from tournament.stats.ratings import match_scores
from tournament_helpers import CARDARENA


def calibration(*points, game="card_duel", player="ismcts(rollout_depth=8)"):
    """A calibration of ``player`` whose fit has the Elo ``points`` (budget, elo, low,
    high, and the blunder rate where there is one)."""
    fit, rungs = [], [levels.Rung("random", "random", None, 0, 0, 0)]
    for budget, elo, low, high, *rate in points:
        rung = plans.rung(player, budget, *rate)
        fit.append(levels.Level(rung.spec, budget, elo, low, high, blunder=rung.blunder))
        rungs.append(levels.Rung(rung.name, rung.spec, budget, elo, low, high,
                                 blunder=rung.blunder))
    return levels.Calibration(game, player, 10, 0, 2, "made by hand", tuple(rungs),
                              tuple(fit))


def measured_elo(rows, level, anchors):
    """The Elo of the bot ``level`` that best explains its scores in ``rows`` against
    bots of known Elo (``anchors``, by name), and its standard error: the
    maximum-likelihood rating, found by bisection as the expected score rises with
    it, and one over the square root of the games' Fisher information there."""
    games = [(anchors[b], score) for row in rows for a, b, score in match_scores(row)
             if a == level] + \
            [(anchors[a], 1 - score) for row in rows for a, b, score in match_scores(row)
             if b == level]

    def expected(elo, other):
        return 1 / (1 + 10 ** ((other - elo) / 400))

    low, high = -2000.0, 2000.0
    while high - low > 0.01:
        middle = (low + high) / 2
        surplus = sum(score - expected(middle, other) for other, score in games)
        low, high = (middle, high) if surplus > 0 else (low, middle)
    elo = (low + high) / 2
    information = sum(expected(elo, other) * (1 - expected(elo, other))
                      for other, _ in games) * (math.log(10) / 400) ** 2
    return elo, 1 / math.sqrt(information)


# --- a level is as strong as it says ------------------------------------------------


# Deals per opponent for each game's check.  Creature Shrines' runs in the suite, in
# under half a minute, and its middle level lies between two calibrated budgets, so
# interpolation is tested too; the others' take minutes (Card Duel's level searches
# 527 iterations a move with playouts to the end) and run only when
# CARDARENA_LONG_CHECKS is set.
INTERVAL_DEALS = {"card_duel": 500, "shrine": 200, "relinquish": 200,
                  "creature_shrines": 200, "energy_deckbuilder": 200}
IN_SUITE = "creature_shrines"


def interval_check(game):
    """The interval test's parameter for ``game``, skipped unless it is ``IN_SUITE``
    or CARDARENA_LONG_CHECKS is set."""
    if game == IN_SUITE:
        return game
    return pytest.param(game, marks=pytest.mark.skipif(
        not os.environ.get("CARDARENA_LONG_CHECKS"),
        reason="takes minutes: set CARDARENA_LONG_CHECKS"))


def ladder_opponents(calibration, level):
    """The rungs ``level`` meets in the interval check, as a calibrated rung would:
    random and greedy play, and the searcher's rungs nearest below and above its
    place on the ladder."""
    searchers = [r for r in calibration.rungs if r.budget is not None]

    def place(r):
        return r.guided, r.budget, -r.blunder

    below = max((r for r in searchers if place(r) < level.place), key=place)
    above = min((r for r in searchers if place(r) > level.place), key=place)
    named = {r.name: r for r in calibration.rungs}
    return [named[a] for a in calibrating.ANCHORS] + [below, above]


@pytest.mark.parametrize("game", [interval_check(game) for game in sorted(INTERVAL_DEALS)])
def test_a_level_measures_within_its_stated_interval_against_the_ladder(game):
    # The level in the middle of the game's shipped range plays the rungs a calibrated
    # rung meets (random, greedy, and the searcher's budgets either side of its own),
    # on fixed deals the calibration did not play, in every seating.  Its rating from
    # those games alone, the rungs' Elo held at what the calibration measured, must lie
    # in its stated interval, give or take the rating's own error: a test at the 1%
    # level of the claim that its Elo lies in that interval (2.576 standard errors
    # beyond either end rejects it).
    shipped = levels.load(game)
    middle = (shipped.fit[0].elo + shipped.fit[-1].elo) / 2
    level = shipped.level(middle)
    assert level.low < level.elo < level.high
    assert level.interpolated or game != IN_SUITE
    opponents = ladder_opponents(shipped, level)
    rows = []
    for rung in opponents:
        config = configs.Config(game, {"level": level.spec, rung.name: rung.spec},
                                deals=INTERVAL_DEALS[game], seed=1)
        rows += [runner.play(runner.job(config, *game)) for game in config.games()]
    assert all(row.status == "ok" for row in rows)
    elo, error = measured_elo(rows, "level", {r.name: r.elo for r in opponents})
    assert error < 40
    assert level.low - 2.576 * error <= elo <= level.high + 2.576 * error, (elo, error, level)


# --- finding a level ----------------------------------------------------------------


def test_a_level_between_two_budgets_is_interpolated_on_a_log_scale():
    c = calibration((8, 0, -40, 40), (32, 200, 150, 250))
    level = c.level(100)
    # Half-way in Elo is half-way in octaves: 16 iterations, an octave up from 8.
    assert level == levels.Level("ismcts(iterations=16,rollout_depth=8)", 16, 100.0, 55.0,
                                 145.0, interpolated=True)
    # A whole budget is as near as it comes; its figures are its own.
    level = c.level(60)
    assert level.budget == round(8 * 2 ** 0.6) == 12
    assert math.isclose(level.elo, 200 * math.log2(12 / 8) / 2)


def test_a_calibrated_elo_plays_its_budget_and_the_cheapest_of_equals():
    c = calibration((1, -10, -30, 10), (2, -10, -30, 10), (4, -10, -25, 12),
                    (8, 50, 20, 80), (16, 90, 60, 120), (32, 90, 60, 125))
    assert c.level(50) == c.fit[3] and not c.level(50).interpolated
    assert c.level(-10).budget == 1 and c.level(90).budget == 16
    assert [p.budget for p in c.levels] == [1, 8, 16]
    # Between the end of a flat stretch and the next rise, not from its start.
    assert 4 < c.level(20).budget < 8


def test_an_elo_outside_the_levels_names_the_range():
    c = calibration((1, -18, -38, 2), (16, 30, 5, 57), (128, 67, 36, 105))
    for elo in (-19, 68, 1500):
        with pytest.raises(levels.EloRangeError,
                           match=f"card_duel's levels run from -18 to 67 Elo .random play "
                                 f"is 0., not {elo}"):
            c.level(elo)
    assert c.level(-18).budget == 1 and c.level(67).budget == 128


def test_the_fit_rises_with_the_budget_pooling_runs_that_fall():
    assert calibrating.rising([8, -21, -7, -6, 34, 53, 62, 61]) == pytest.approx(
        [-20 / 3] * 3 + [-6, 34, 53, 61.5, 61.5])
    assert calibrating.rising([1, 2, 3]) == [1, 2, 3]
    assert calibrating.rising([3, 2, 1]) == [2, 2, 2]


def test_a_calibration_round_trips_and_is_found_by_its_rules(tmp_path, monkeypatch):
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    c = calibration((8, 0, -40, 40), (32, 200, 150, 250), game="card_duel(life=15)")
    assert levels.path("card_duel(life=15,hand_points=30)") == \
        tmp_path / "levels-card_duel-life=15.json"
    c.save(levels.path(c.game))
    assert levels.load("card_duel(life=15)") == c
    # One rung a line, for a reader and for diffs.
    lines = (tmp_path / "levels-card_duel-life=15.json").read_text().splitlines()
    assert sum(line.startswith('  {"name": ') for line in lines) == len(c.rungs)
    assert sum(line.startswith('  {"spec": ') for line in lines) == len(c.fit)


def test_a_game_without_levels_says_how_to_make_them(tmp_path, monkeypatch):
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    with pytest.raises(levels.UncalibratedError,
                       match=r"^card_duel\(life=15\) has no strength levels: cardarena levels "
                             r"'card_duel\(life=15\)' --calibrate makes them$"):
        levels.load("card_duel(hand_points=30,life=15)")


@pytest.mark.parametrize("text, message", [
    ("{", "is not JSON"),
    ('{"format": "cardarena play"}', "is not a calibration of strength levels: not a "
                                     "calibration of cardarena levels"),
    ('{"format": "cardarena levels", "fit": []}', "the fit is empty"),
])
def test_a_broken_calibration_file_is_refused_with_its_name(tmp_path, monkeypatch, text,
                                                            message):
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    (tmp_path / "levels-card_duel.json").write_text(text)
    with pytest.raises(levels.LevelError, match=message) as error:
        levels.load("card_duel")
    assert "levels-card_duel.json" in str(error.value)


def test_the_shipped_calibrations_load_and_rise():
    for game in core.GAMES:
        c = levels.load(game)
        assert c.game == game and c.command.startswith(f"cardarena levels {game} --calibrate")
        assert [r.name for r in c.rungs[:2]] == ["random", "greedy"]
        assert c.rungs[0].elo == 0
        assert all(a.elo <= b.elo and a.low <= b.low and a.high <= b.high
                   for a, b in zip(c.fit, c.fit[1:]))
        assert len(c.levels) >= 4


# --- calibrating ------------------------------------------------------------------


def test_a_calibration_plays_the_ladder_and_fits_what_it_measured(tmp_path, monkeypatch):
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    previous = signal.getsignal(signal.SIGTERM)
    args = ["levels", "card_duel(life=5)", "--calibrate", "--player",
            "ismcts(rollout=heuristic)", "--deals", "4", "--max-budget", "4", "--workers",
            "1", "--quiet", "--db", str(tmp_path / "games.db")]
    try:
        cli.main(args)
    finally:
        signal.signal(signal.SIGTERM, previous)
    made = levels.load("card_duel(life=5)")
    assert made.command == "cardarena levels " + shlex.join(args[1:])
    # The doubling budgets, and any a step too steep was split at.
    names = [r.name for r in made.rungs]
    assert names[:2] == ["random", "greedy"]
    assert {"ismcts-1", "ismcts-2", "ismcts-4"} <= set(names)
    assert [r.budget for r in made.rungs[2:]] == sorted(r.budget for r in made.rungs[2:])
    # The searcher named is the one whose budget doubles.
    assert made.player == "ismcts(rollout=heuristic)"
    assert made.rungs[2].spec == "ismcts(iterations=1,rollout=heuristic)"
    # The fit starts at the weakest of the searcher's rungs and rises from there.
    searchers = made.rungs[2:]
    weakest = min(searchers, key=lambda r: r.elo)
    assert [p.budget for p in made.fit] == [r.budget for r in searchers
                                            if r.budget >= weakest.budget]
    assert made.fit[0].elo == weakest.elo
    assert all(a.elo <= b.elo for a, b in zip(made.fit, made.fit[1:]))
    # Every round's games are stored: run again, the calibration plays none and ends
    # where it ended.
    plan = calibrating.plan("card_duel(life=5)", 4, high=4, player=made.player)
    with Store(str(tmp_path / "games.db"), readonly=True) as store:
        again, last = calibrating.calibrate(store, plan, made.command, play=lambda plan: None)
        assert again == made
        assert len(store.tournaments()) >= len(last.pairs()) >= len(plan.pairs()) == 10
    # Each searcher rung met random and greedy play, not only the two rungs above it.
    for rung in searchers:
        assert {("random", rung.name), ("greedy", rung.name)} <= set(last.pairs())


def test_a_calibration_fills_the_step_from_one_iteration_with_blundering_rungs(
        tmp_path, monkeypatch):
    # Shrine's heuristic searcher plays far better at 2 iterations than at 1, and no
    # budget lies between: the calibration adds rungs at 2 iterations that blunder,
    # plays them, and the levels run through them.
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    previous = signal.getsignal(signal.SIGTERM)
    try:
        cli.main(["levels", "shrine", "--calibrate", "--player",
                  "ismcts(rollout_depth=8,rollout=heuristic)", "--deals", "4",
                  "--max-budget", "2", "--workers", "1", "--quiet", "--db",
                  str(tmp_path / "games.db")])
    finally:
        signal.signal(signal.SIGTERM, previous)
    made = levels.load("shrine")
    blundering = [r for r in made.rungs if r.blunder]
    assert {r.budget for r in blundering} == {2} and 0.5 in {r.blunder for r in blundering}
    assert all(a.place < b.place and a.elo <= b.elo for a, b in zip(made.fit, made.fit[1:]))
    assert [p.budget for p in made.fit][0] == 1 and made.fit[-1].spec == \
        "ismcts(iterations=2,rollout_depth=8,rollout=heuristic)"
    # Between one iteration and the first blundering rung, the rate is interpolated.
    first = next(p for p in made.fit if p.blunder)
    level = made.level((made.fit[0].elo + first.elo) / 2)
    assert first.blunder < level.blunder < 1 and level.budget == 2


def test_a_variant_calibrated_is_played_at_its_own_levels(tmp_path, monkeypatch, capsys):
    # A variant's levels are its own calibration, made with the command its refusal
    # names; play --elo then takes them, and the default rules' levels stay as they are.
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    monkeypatch.chdir(tmp_path)
    previous = signal.getsignal(signal.SIGTERM)
    try:
        cli.main(["levels", "card_duel(life=4)", "--calibrate", "--deals", "2", "--max-budget",
                  "2", "--workers", "1", "--quiet"])
    finally:
        signal.signal(signal.SIGTERM, previous)
    made = levels.load("card_duel(life=4)")
    level = made.level(made.fit[-1].elo)
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    with pytest.raises(SystemExit) as stopped:
        cli.main(["play", "card_duel(life=4)", "--elo", str(level.elo), "--seed", "3"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out.splitlines()[0] == levels.describe(level,
                                                                      "card_duel(life=4)")
    assert sorted(p.name for p in tmp_path.glob("levels-*.json")) == \
        ["levels-card_duel-life=4.json"]


def test_a_calibration_is_written_into_out_when_asked(tmp_path, monkeypatch):
    monkeypatch.setattr(calibrations, "DATA", tmp_path / "data")
    previous = signal.getsignal(signal.SIGTERM)
    try:
        cli.main(["levels", "card_duel(life=4)", "--calibrate", "--deals", "2", "--max-budget",
                  "2", "--workers", "1", "--quiet", "--db", str(tmp_path / "games.db"),
                  "--out", str(tmp_path / "elsewhere")])
    finally:
        signal.signal(signal.SIGTERM, previous)
    written = tmp_path / "elsewhere" / "levels-card_duel-life=4.json"
    assert levels.Calibration.from_dict(json.loads(written.read_text())).game == \
        "card_duel(life=4)"
    assert not (tmp_path / "data").exists()


def test_a_step_that_rises_too_far_is_split_where_a_budget_lies_between():
    plan = calibrating.plan("card_duel", 2, low=4, high=64)
    c = calibration((4, 0, -20, 20), (8, 151, 100, 200), (16, 300, 250, 350),
                    (32, 400, 350, 450), (64, 560, 500, 600))
    finer = calibrating.refine(plan, c)
    # 4 to 8 and 32 to 64 rise more than 150; 8 to 16 by 149 does not.
    assert finer.ladder.budgets == (4, 6, 8, 16, 32, 45, 64)
    assert [r.name for r in finer.ladder.chain][:3] == ["random", "greedy", "ismcts-4"]
    assert ("ismcts-4", "ismcts-6") in finer.pairs() and ("ismcts-4", "ismcts-16") \
        not in finer.pairs()
    # Neighbouring budgets have no budget between them to split at.
    c = calibration((8, 0, -20, 20), (9, 400, 350, 450))
    assert calibrating.refine(calibrating.plan("card_duel", 2, low=8, high=16), c) is None


def blundering(*points):
    """A calibration of the energy deck-builder whose fit has the points (budget,
    blunder, elo): the searcher at 1 iteration plays at random, at 2 far better."""
    return calibration(*((b, e, e - 40, e + 40, p) for b, p, e in points),
                       game="energy_deckbuilder",
                       player="ismcts(rollout_depth=8,rollout=heuristic)")


def test_a_step_from_one_iteration_is_split_by_the_chance_of_a_blunder():
    # No whole budget lies between 1 and 2 iterations; one iteration plays at random,
    # as 2 do when every move is a blunder, so the step is split by the blunder rate,
    # half-way each time, while it rises more than STEP and the rates are coarser
    # than FINEST_BLUNDER.
    plan = calibrating.plan("energy_deckbuilder", 2, high=4,
                       player="ismcts(rollout_depth=8,rollout=heuristic)")
    finer = calibrating.refine(plan, blundering((1, 0, 0), (2, 0, 1300), (4, 0, 1400)))
    assert finer.ladder.blunders == ((2, 0.5),)
    assert [r.name for r in finer.ladder.chain] == [
        "random", "greedy", "ismcts-1", "ismcts-2-blunder0.5", "ismcts-2", "ismcts-4"]
    assert finer.ladder.chain[3].spec == \
        "ismcts(iterations=2,rollout_depth=8,rollout=heuristic,blunder=0.5)"
    assert ("ismcts-1", "ismcts-2-blunder0.5") in finer.pairs()
    again = calibrating.refine(finer, blundering((1, 0, 0), (2, 0.5, 600), (2, 0, 1300),
                                            (4, 0, 1400)))
    assert again.ladder.blunders == ((2, 0.25), (2, 0.5), (2, 0.75))
    # At the finest rates a step that still rises too far is left as it is.
    finest = blundering((1, 0, 0), (2, 0.875, 400), (2, 0.75, 600), (2, 0, 750))
    assert calibrating.refine(calibrating.plan("energy_deckbuilder", 2, high=2), finest) is None


def test_a_level_between_two_blunder_rates_interpolates_the_rate():
    c = blundering((1, 0, 0), (2, 0.5, 600), (2, 0, 1200))
    level = c.level(300)
    assert level == levels.Level(
        "ismcts(iterations=2,rollout_depth=8,rollout=heuristic,blunder=0.75)", 2, 300.0,
        260.0, 340.0, interpolated=True, blunder=0.75)
    assert c.level(900).blunder == 0.25 and c.level(600) == c.fit[1]
    assert c.level(1200).blunder == 0 and not c.level(1200).interpolated
    # The spec plays: a bot made from it blunders at that rate.
    bot = search.make_bot(level.spec, core.load_game("energy_deckbuilder"), 0)
    assert bot.blunder == 0.75


def test_a_calibration_with_blunder_rates_round_trips_and_keeps_its_order(tmp_path,
                                                                          monkeypatch):
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    c = blundering((1, 0, 0), (2, 0.75, 300), (2, 0.5, 600), (2, 0, 1200), (4, 0, 1300))
    c.save(levels.path(c.game))
    assert levels.load("energy_deckbuilder") == c
    assert "blundering" in calibrating.table(c) and "ismcts-2-blunder0.75" in calibrating.table(c)
    # A rung that blunders less than the one after it at the same budget is out of order.
    data = json.loads(json.dumps(c.to_dict()))
    data["fit"][1], data["fit"][2] = data["fit"][2], data["fit"][1]
    data["fit"][1]["elo"] = data["fit"][2]["elo"]
    with pytest.raises(ValueError, match="does not rise"):
        levels.Calibration.from_dict(data)


def test_a_rung_clearly_weaker_than_a_cheaper_one_is_no_level(monkeypatch):
    # Shrine's heuristic searcher measured +558 [+523, +590] at 3 iterations and +735
    # at 2: pooled into one strength, the fit would misstate both.  On figures made up
    # in its image, the fit leaves 3 out, keeps 6 (whose interval reaches 4's Elo:
    # chance may have put it lower), and no level lands on 3.
    plan = calibrating.plan("shrine", 2, high=8, player="ismcts(rollout_depth=8)")
    plan = dataclasses.replace(plan, ladder=plans.Ladder(plan.ladder.player,
                                                         (1, 2, 3, 4, 6, 8)))
    names = [r.name for r in plan.ladder.chain]
    measured = {"random": 0, "greedy": 1400, "ismcts-1": -30, "ismcts-2": 727,
                "ismcts-3": 540, "ismcts-4": 911, "ismcts-6": 900, "ismcts-8": 1100}
    spread = {"random": 0, "ismcts-3": 33, "ismcts-6": 40}
    elo = np.array([measured[n] for n in names], dtype=float)
    samples = np.array([[e + spread.get(n, 30) * z for n, e in zip(names, elo)]
                        for z in np.linspace(-2, 2, 41)])

    class Games:
        def games(self, key, deals):
            return [None] * 1000

    monkeypatch.setattr(calibrating, "elo_samples", lambda *a, **k: (elo, samples))
    c = calibrating.measure(Games(), plan, "made by hand", bootstrap=41)
    assert [p.budget for p in c.fit] == [1, 2, 4, 6, 8]
    assert c.outplayed == {(False, 3)}
    assert c.fit[2].elo == c.fit[3].elo == 906  # 4 and 6 pooled, as chance allows
    assert all(c.level(e).budget != 3 for e in range(727, 906, 5))
    assert c.level(740).budget == 2 and c.level(900).budget == 4
    assert "ismcts-3" in calibrating.table(c) and "below a cheaper rung" in calibrating.table(c)


# --- the climb above the top, guided by the game's network ----------------------------

GUIDED = "ismcts(rollout_depth=8,model=default)"


def climbing(*points):
    """A calibration of Shrine's ``ismcts(rollout_depth=8)`` whose fit has the points
    (budget, elo, guided): the plain searcher's, then the guided one's."""
    plain = calibration(*((b, e, e - 40, e + 40) for b, e, guided in points if not guided),
                        game="shrine")
    guided = [climbs.rung(plain.player, b) for b, e, g in points if g]
    elos = [e for b, e, g in points if g]
    fit = plain.fit + tuple(levels.Level(r.spec, r.budget, e, e - 40, e + 40, guided=True)
                            for r, e in zip(guided, elos))
    rungs = plain.rungs + tuple(levels.Rung(r.name, r.spec, r.budget, e, e - 40, e + 40,
                                            guided=True) for r, e in zip(guided, elos))
    return dataclasses.replace(plain, rungs=rungs, fit=fit, climb=GUIDED)


def test_a_guided_level_is_the_guided_searcher_and_none_lies_between_the_two():
    c = climbing((8, 0, False), (32, 200, False), (32, 600, True), (128, 800, True))
    assert [p.place for p in c.fit] == [(False, 8, 0), (False, 32, 0), (True, 32, 0),
                                        (True, 128, 0)]
    # Between two guided rungs: the guided searcher, interpolated on a log scale.
    level = c.level(700)
    assert level == levels.Level("ismcts(iterations=64,rollout_depth=8,model=default)", 64,
                                 700.0, 660.0, 740.0, interpolated=True, guided=True)
    # Between the plain top and the first guided rung no budget is half-way: the
    # nearer of the two plays.
    assert c.level(350) == c.fit[1] and c.level(450) == c.fit[2]
    assert c.level(200).spec == "ismcts(iterations=32,rollout_depth=8)"
    # The spec plays, guided by Shrine's own network.
    game = core.load_game("shrine")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    bot = search.make_bot(c.level(800).spec, game, state.current_player())
    assert bot.step(state) in state.legal_actions()


def test_a_calibration_with_a_climb_round_trips_and_one_without_is_written_as_before(
        tmp_path, monkeypatch):
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    c = climbing((8, 0, False), (32, 200, False), (32, 600, True), (128, 800, True))
    c.save(levels.path("shrine"))
    assert levels.load("shrine") == c
    text = calibrating.table(c)
    assert f"then, guided by the game's network, {GUIDED} at 2 budgets from 32 to 128" in text
    assert "ismcts-32-model" in text
    plain = calibration((8, 0, -40, 40), (32, 200, 160, 240), game="shrine")
    data = plain.to_dict()
    assert "climb" not in data and all("guided" not in p for p in data["rungs"] + data["fit"])
    assert levels.Calibration.from_dict(json.loads(json.dumps(data))) == plain
    # A guided rung is out of order before a plain one.
    data = json.loads(json.dumps(c.to_dict()))
    data["fit"][1], data["fit"][2] = data["fit"][2], data["fit"][1]
    with pytest.raises(ValueError, match="does not rise"):
        levels.Calibration.from_dict(data)


def test_a_step_up_to_the_guided_rungs_is_split_by_a_guided_rung_below():
    plan = calibrating.plan("shrine", 2, low=8, high=32, player="ismcts(rollout_depth=8)",
                            climb_to=128)
    assert plan.climb == (32, 64, 128)
    assert [r.name for r in plan.chain][-4:] == ["ismcts-32", "ismcts-32-model",
                                                 "ismcts-64-model", "ismcts-128-model"]
    assert ("ismcts-32", "ismcts-32-model") in plan.pairs()
    # From the plain top at +200 to the guided 32 at +600: a guided 16 is tried below;
    # from the guided 32 to 128 at +800: the guided 64 is there, so 45 and 91.
    c = climbing((8, 0, False), (16, 100, False), (32, 200, False), (32, 600, True),
                 (64, 780, True), (128, 950, True))
    finer = calibrating.refine(plan, c)
    assert finer.climb == (16, 32, 45, 64, 91, 128)
    assert finer.ladder == plan.ladder
    # The guided 16 was measured below the plain top and left out of the fit: the step
    # from the top to the guided 32 is split between them.
    c = climbing((8, 0, False), (16, 100, False), (32, 200, False), (32, 600, True),
                 (45, 700, True), (64, 780, True), (91, 850, True), (128, 950, True))
    finer = calibrating.refine(finer, c)
    assert finer.climb == (16, 23, 32, 45, 64, 91, 128)


def test_a_calibration_climbs_above_its_top_with_the_games_network(tmp_path, monkeypatch):
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    previous = signal.getsignal(signal.SIGTERM)
    args = ["levels", "shrine", "--calibrate", "--player", "ismcts(rollout_depth=8)",
            "--deals", "2", "--min-budget", "2", "--max-budget", "4", "--climb-to", "8",
            "--workers", "1", "--quiet", "--db", str(tmp_path / "games.db")]
    try:
        cli.main(args)
    finally:
        signal.signal(signal.SIGTERM, previous)
    made = levels.load("shrine")
    assert made.climb == GUIDED
    guided = [r for r in made.rungs if r.guided]
    assert {4, 8} <= {r.budget for r in guided}
    assert all(r.spec == levels.spec(GUIDED, r.budget) for r in guided)
    assert all(a.place < b.place and a.elo <= b.elo for a, b in zip(made.fit, made.fit[1:]))
    # The guided rungs met the plain top: their Elo is on the same scale.
    plan = calibrating.plan("shrine", 2, low=2, high=4, player="ismcts(rollout_depth=8)",
                            climb_to=8)
    with Store(str(tmp_path / "games.db"), readonly=True) as store:
        again, last = calibrating.calibrate(store, plan, made.command, play=lambda plan: None)
    assert again == made
    assert all(("ismcts-4", r.name) in last.pairs() for r in last.guided[:2])


@pytest.mark.parametrize("args, message", [
    (["--max-budget", "8", "--climb-to", "4"],
     "cardarena levels: --climb-to 4 is below the ladder's top budget 8: the climb starts "
     "there"),
])
def test_a_climb_that_cannot_start_is_refused_in_one_line(tmp_path, args, message):
    result = run("levels", "shrine", "--calibrate", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == message + "\n"
    assert os.listdir(tmp_path) == []


def test_a_climb_on_rules_without_a_network_is_refused_in_one_line(tmp_path):
    result = run("levels", "card_duel(life=5)", "--calibrate", "--climb-to", "1024",
                 cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("cardarena levels: --climb-to: ")
    assert result.stderr.count("\n") == 1 and "card_duel" in result.stderr
    assert os.listdir(tmp_path) == []


def test_measuring_before_the_games_are_played_says_what_is_missing(tmp_path):
    plan = calibrating.plan("card_duel", 3, high=4)
    with Store(str(tmp_path / "g.db")) as store:
        with pytest.raises(levels.LevelError, match="0 of 6 games of .* are stored; run "
                                                    "the calibration again"):
            calibrating.measure(store, plan, "cardarena levels card_duel --calibrate")


# --- the commands -------------------------------------------------------------------


def run(*args, cwd=None, moves=""):
    """``cardarena ARGS``, fed ``moves`` (lines) and then the end of its input."""
    return subprocess.run([CARDARENA, *args], capture_output=True, text=True, timeout=60,
                          cwd=cwd, input=moves)


def test_the_command_lists_a_games_levels():
    result = run("levels", "card_duel")
    assert result.returncode == 0, result.stderr
    shipped = levels.load("card_duel")
    assert result.stdout == calibrating.table(shipped) + "\n"
    assert f"play --elo takes {shipped.fit[0].elo} to {shipped.fit[-1].elo}." in result.stdout


@pytest.mark.parametrize("args, status, message", [
    (["levels", "card_duel", "--deals", "5"], 2,
     "cardarena levels: --deals is for --calibrate"),
    (["levels", "card_duel(life=15)"], 1,
     "cardarena levels: card_duel(life=15) has no strength levels: cardarena levels "
     "'card_duel(life=15)' --calibrate makes them"),
    (["levels", "card_duel", "--calibrate", "--deals", "1"], 2,
     "cardarena levels: --deals is at least 2"),
    (["levels", "card_duel", "--calibrate", "--player", "greedy"], 2,
     "cardarena levels: --player is a searcher whose budget the ladder doubles"),
    (["levels", "card_duel", "--calibrate", "--player", "ismcts(iterations=8)"], 2,
     "cardarena levels: --player: the ladder sets the iterations"),
    (["levels", "card_duel", "--player", "ismcts"], 2,
     "cardarena levels: --player is for --calibrate"),
    (["play", "card_duel", "--elo", "5000"], 2,
     "cardarena play: card_duel's levels run from "),
    (["play", "card_duel(life=15)", "--elo", "50"], 2,
     "cardarena play: card_duel(life=15) has no strength levels: cardarena levels "
     "'card_duel(life=15)' --calibrate makes them"),
    (["play", "card_duel", "--elo", "50", "--load", "g.json"], 2,
     "cardarena play: --elo chooses the bot of a new game; a loaded game goes on against "
     "its own"),
])
def test_bad_arguments_stop_with_one_clear_line(tmp_path, args, status, message):
    result = run(*args, cwd=tmp_path)
    assert result.returncode == status
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert result.stdout == ""
    assert os.listdir(tmp_path) == []


def test_play_at_an_elo_faces_the_level_and_saves_its_spec(tmp_path):
    shipped = levels.load("card_duel")
    level = shipped.level(shipped.fit[-1].elo - 10)
    result = run("play", "card_duel", "--elo", f"{shipped.fit[-1].elo - 10}", "--seed", "3",
                 cwd=tmp_path, moves="1\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == levels.describe(level, "card_duel")
    assert lines[1].startswith(f"Card Duel (card_duel): you are player 0 against {level.spec}")
    saved = session.Match.load(str(next(tmp_path.glob("cardarena-card_duel-*-seat0-3.json"))))
    assert saved.bot == level.spec
    assert json.loads(next(tmp_path.iterdir()).read_text())["bot"] == level.spec


def test_the_web_pages_bot_picker_lists_each_games_levels(tmp_path, monkeypatch):
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from tournament.web import app
    games = {g["name"]: g for g in app._games()}
    shipped = levels.load("shrine").levels
    assert games["shrine"]["levels"] == [
        {"spec": p.spec, "elo": p.elo, "low": p.low, "high": p.high} for p in shipped]
    monkeypatch.setattr(calibrations, "DATA", tmp_path)
    (tmp_path / "levels-card_duel.json").write_text("{")
    assert all(g["levels"] == [] for g in app._games())


def test_docs_quote_the_levels_shipped():
    text = (pathlib.Path(__file__).parents[2] / "docs" / "play.md").read_text()
    for game in core.GAMES:
        for p in levels.load(game).levels:
            budget = f"{p.budget}, blunder {p.blunder:g}" if p.blunder else f"{p.budget}"
            budget += ", guided" if p.guided else ""
            assert f"| {budget} | {p.elo:+d} [{p.low:+d}, {p.high:+d}] |" in text, \
                (game, p)
