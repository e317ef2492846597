"""Training: self-play's records, the replay buffer, the network JAX trains against the
one the searchers run, a run that resumes where it stopped, and a small game learnt
well enough that its raw policy beats random play.

JAX runs only in spawned processes here, as in training itself: a pytest worker that
imported it would fork other tests' workers with its threads."""
import concurrent.futures as futures
import json
import multiprocessing
import re
import sys

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

from search.bots import engine_game  # noqa: E402
from tournament.harness import config as configs  # noqa: E402
from tournament.harness import runner  # noqa: E402
from tournament.harness.row import GameRow  # noqa: E402
from tournament.harness.store import Store  # noqa: E402
from tournament.learn import selfplay  # noqa: E402
from tournament.learn.buffer import Buffer  # noqa: E402
from tournament.learn.train import Run, TrainError, gate_score  # noqa: E402
from tournament.stats.intervals import wilson  # noqa: E402
from tournament_helpers import cli  # noqa: E402

TINY = {"games": 8, "iterations": 20, "gate": 2, "hidden": (16,), "seed": 5}


def spawned(fn, *args):
    context = multiprocessing.get_context("spawn")
    with futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        return pool.submit(fn, *args).result()


def test_self_play_records_each_decision_with_its_visit_shares_and_the_result():
    game = engine_game("card_duel")
    played = selfplay.play(selfplay.job("card_duel", "ismcts(iterations=30)", 2, seed=11))
    again = selfplay.play(selfplay.job("card_duel", "ismcts(iterations=30)", 2, seed=11))
    assert played.games == 1 and len(played) > 2
    assert np.array_equal(played.features, again.features)
    assert np.array_equal(played.shares, again.shares)
    rows = np.arange(len(played))
    target, legal = played.targets(rows, game.num_distinct_actions)
    assert np.allclose(target.sum(axis=1), 1)
    assert not (target > 0)[~legal].any()
    # Every decision had a choice (a lone move is no target), and the value target
    # is one game's result, the same in every row: a win for one seat, a loss for the
    # other, or a draw.
    assert (legal.sum(axis=1) >= 2).all()
    assert (played.value == played.value[0]).all()
    assert played.value[0].tolist() in ([1, -1], [-1, 1], [0, 0])
    assert played.features.shape == (len(played), game.observation_tensor_size)


def test_the_buffer_keeps_tasks_and_gives_the_newest_positions(tmp_path):
    first = selfplay.play(selfplay.job("card_duel", "ismcts(iterations=10)", 0, seed=1))
    second = selfplay.play(selfplay.job("card_duel", "ismcts(iterations=10)", 0, seed=2))
    buffer = Buffer(tmp_path)
    buffer.add(1, 0, first)
    buffer.add(2, 3, second)
    assert buffer.tasks(1) == {0} and buffer.tasks(2) == {3}
    assert buffer.count(2) == (1, len(second))
    whole = buffer.window(10**6)
    assert len(whole) == len(first) + len(second)
    newest = buffer.window(len(second) + 1)
    assert len(newest) == len(second) + 1
    assert np.array_equal(newest.features[:len(second)], second.features)
    assert np.array_equal(newest.features[-1], first.features[0])
    n = len(second) + 1
    assert np.array_equal(newest.targets(np.arange(n), 28)[0][:len(second)],
                          second.targets(np.arange(len(second)), 28)[0])


def _trained_and_read_back(seed):
    """In a spawned process: a trainer's losses before and after some steps, its
    network's weights, and what JAX's network computes from them for a few positions
    (its policy over one position's legal moves, and its values)."""
    import jax
    from tournament.learn.net import Trainer
    game = engine_game("card_duel")
    positions = selfplay.Positions.join(
        selfplay.play(selfplay.job("card_duel", "ismcts(iterations=20)", 2, seed=s)) for s in range(3))
    trainer = Trainer(game, (24, 12), seed)
    before = trainer.losses(positions)
    trainer.train(positions, 60, 32)
    after = trainer.losses(positions)
    legal = np.flatnonzero(positions.targets([0], game.num_distinct_actions)[1][0])
    h = positions.features[:4]
    for w, b in trainer.params["layers"]:
        h = jax.nn.relu(h @ w + b)
    policy = jax.nn.softmax((h @ trainer.params["policy"][0]
                             + trainer.params["policy"][1])[:, legal])
    values = np.tanh(h @ trainer.params["value"][0] + trainer.params["value"][1])
    return (before, after, trainer.model().weights(), positions.features[:4],
            legal.tolist(), np.asarray(policy), np.asarray(values))


def test_the_trained_network_is_the_one_the_searchers_run():
    before, after, weights, features, legal, policy, values = spawned(
        _trained_and_read_back, 3)
    assert after.sum() < before.sum()
    from search.model import Model
    model = Model(engine_game("card_duel"), weights["layers"], weights["policy"],
                  weights["value"])
    got_values, got_policy = model.predict(features, legal)
    assert np.allclose(got_policy, policy, atol=1e-5)
    assert np.allclose(got_values, values, atol=1e-5)  # card_duel's returns span [-1, 1]


def test_a_stopped_run_goes_on_to_the_same_generations(tmp_path, monkeypatch):
    whole = Run(tmp_path / "whole", "card_duel", **TINY)
    whole.go(generations=2, workers=1, progress=False, say=lambda line: None)
    parts = Run(tmp_path / "parts", "card_duel", **TINY)
    # Ctrl-C during the second self-play task (one worker plays in this process).
    tasks = []

    def stop_at_the_second(jobs, play=selfplay.play_all):
        tasks.append(jobs)
        if len(tasks) == 2:
            raise KeyboardInterrupt
        return play(jobs)
    monkeypatch.setattr(selfplay, "play_all", stop_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        parts.go(workers=1, progress=False)
    monkeypatch.undo()
    assert parts.buffer.tasks(1) == {0}
    assert json.loads((tmp_path / "parts" / "train.json").read_text())["generations"] == []
    parts = Run(tmp_path / "parts", "card_duel")
    parts.go(generations=1, workers=1, progress=False, say=lambda line: None)
    Run(tmp_path / "parts", "card_duel", games=TINY["games"]).go(
        generations=2, workers=1, progress=False, say=lambda line: None)
    done = Run(tmp_path / "parts", "card_duel")

    def figures(run):
        return [{k: v for k, v in g.items() if k != "seconds"} for g in run.generations]
    assert figures(done) == figures(whole)
    for g in (1, 2):
        name = f"models/gen-{g:04d}.npz"
        assert (tmp_path / "parts" / name).read_bytes() == \
            (tmp_path / "whole" / name).read_bytes()
    kept = [g["model"] for g in done.generations if g["kept"]]
    if kept:
        assert (tmp_path / "parts" / "model.npz").read_bytes() == \
            (tmp_path / "parts" / "models" / kept[-1]).read_bytes()


def test_a_run_refuses_other_settings_and_a_folder_that_is_not_a_run(tmp_path):
    Run(tmp_path / "run", "card_duel", **TINY)._save()
    with pytest.raises(TrainError, match=r"started with games 8 \(given 9\)"):
        Run(tmp_path / "run", "card_duel", games=9)
    with pytest.raises(TrainError, match="started with game 'card_duel'"):
        Run(tmp_path / "run", "shrine")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(TrainError, match="not empty and holds no training run"):
        Run(tmp_path / "other", "card_duel")


def _first_generation(run, monkeypatch):
    """Run ``run``'s first generation on one worker; the self-play jobs it played."""
    jobs = []

    def seen(task, play=selfplay.play_all):
        jobs.extend(task)
        return play(task)
    monkeypatch.setattr(selfplay, "play_all", seen)
    run.go(generations=1, workers=1, progress=False, say=lambda line: None)
    return jobs


def test_a_run_searches_with_its_own_searcher_in_self_play_and_the_gate(tmp_path,
                                                                       monkeypatch):
    run = Run(tmp_path / "run", "card_duel", searcher="ismcts( rollout=heuristic ,"
              "rollout_depth=3)", **TINY)
    assert run.plan.searcher == "ismcts(rollout=heuristic,rollout_depth=3)"
    jobs = _first_generation(run, monkeypatch)
    assert {j["searcher"] for j in jobs} == {
        "ismcts(iterations=20,rollout=heuristic,rollout_depth=3)"}
    with Store(tmp_path / "run" / "gate.sqlite") as store:
        (gate,) = store.tournaments()
    assert gate["config"]["bots"] == {
        "new": f"ismcts(model={tmp_path / 'run' / 'models' / 'gen-0001.npz'},"
               "iterations=20,rollout=heuristic,rollout_depth=3)",
        "other": "ismcts(iterations=20,rollout=heuristic,rollout_depth=3)"}
    # The same searcher given in another order is the run's own; another is refused.
    Run(tmp_path / "run", "card_duel", searcher="ismcts(rollout_depth=3,rollout=heuristic)")
    with pytest.raises(TrainError, match=r"started with searcher 'ismcts\(rollout="):
        Run(tmp_path / "run", "card_duel", searcher="ismcts")


@pytest.mark.parametrize("spec, says", [
    ("cheater", "the searcher is one of ismcts, mo_ismcts, determinized, not cheater"),
    ("greedy", "the searcher is one of ismcts, mo_ismcts, determinized, not greedy"),
    ("ismcts(iterations=50)", "names iterations, which the run sets itself"),
    ("ismcts(model=default,threads=2)", "names model, threads, which the run sets"),
    ("ismcts(depth=3)", "the searcher 'ismcts(depth=3)': ismcts has no parameter 'depth'"),
])
def test_a_run_refuses_a_searcher_it_cannot_train_with(tmp_path, spec, says):
    with pytest.raises(TrainError, match=re.escape(says)):
        Run(tmp_path / "run", "card_duel", searcher=spec)
    assert not (tmp_path / "run").exists()


def test_the_gate_scores_a_network_by_deal():
    rows = [GameRow(deal=d, seating=seating, returns=returns) for d, seating, returns in (
        (0, ["new", "best"], [1, -1]), (0, ["best", "new"], [1, -1]),
        (1, ["new", "best"], [1, -1]), (1, ["best", "new"], [-1, 1]))]
    gate = gate_score(rows, "new", None)
    assert gate["score"] == 0.75 and gate["games"] == 4
    assert gate["low"] < 0.75 < gate["high"]
    # A clean sweep leaves no spread between deals: Wilson's interval over the matches.
    swept = gate_score(rows[:1] + rows[2:3], "new", None)
    assert swept["score"] == 1 and swept["high"] == 1
    assert swept["low"] == pytest.approx(wilson(1.0, 2)[0]) and swept["low"] < 0.5


def test_a_small_game_learnt_in_a_few_generations_beats_random_play(tmp_path):
    """Stated before the first run: tic-tac-toe, seed 1, three generations of 32
    self-play games at 40 iterations a move, a network of one hidden layer of 32,
    each position drawn 16 times (a generation brings about 200 positions, too few
    for the default reuse); then its raw policy (no search) plays random play on 100
    deals in both seatings, and the 95% interval of its score lies above one half.
    (The untrained network plays as random does: its policy is near uniform.)"""
    run = Run(tmp_path / "ttt", "tic_tac_toe", games=32, iterations=40, gate=4,
              hidden=(32,), reuse=16, seed=1)
    run.go(generations=3, workers=2, progress=False, say=lambda line: None)
    assert len(run.generations) == 3
    model = tmp_path / "ttt" / "models" / "gen-0003.npz"
    config = configs.Config(game="tic_tac_toe", bots={
        "learnt": f"policy(model={model})", "random": "random"}, deals=100, seed=7,
        seconds_per_move=60)
    with Store(tmp_path / "check.sqlite") as store:
        runner.run(config, store, workers=2, progress=False)
        gate = gate_score(store.games(config.key), "learnt", None)
    assert gate["low"] > 0.5, gate


def test_the_command_trains_goes_on_and_names_its_model(tmp_path):
    args = ["train", "card_duel", "--out", str(tmp_path / "run"), "--games", "4",
            "--iterations", "10", "--gate", "1", "--hidden", "8", "--workers", "1",
            "--quiet"]
    first = cli(*args, "--generations", "1")
    assert first.returncode == 0, first.stderr
    assert "a new run" in first.stderr
    assert "generation 1: 4 games" in first.stdout + first.stderr
    record = json.loads((tmp_path / "run" / "train.json").read_text())
    assert record["plan"]["games"] == 4 and len(record["generations"]) == 1
    more = cli(*args, "--generations", "2")
    assert more.returncode == 0, more.stderr
    assert "going on from generation 1" in more.stderr
    assert len(json.loads((tmp_path / "run" / "train.json").read_text())["generations"]) == 2
    other = cli(*args[:-1], "--games", "5", "--generations", "3")
    assert other.returncode == 1
    assert other.stderr.strip().splitlines() == [
        f"cardarena train: {tmp_path / 'run'} holds a run started with games 4 (given 5): "
        "give its settings to go on with it, or another folder"]


def test_the_command_refuses_a_searcher_in_one_line(tmp_path):
    done = cli("train", "card_duel", "--out", str(tmp_path / "run"), "--searcher",
               "ismcts(iterations=9)")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "cardarena train: the searcher 'ismcts(iterations=9)' names iterations, which the "
        "run sets itself (its budget is --iterations, its model the best network so far)"]
    assert not (tmp_path / "run").exists()


def test_a_run_refuses_a_folder_and_a_budget_it_could_not_train_with(tmp_path):
    # A searcher's spec names the networks by their files: a folder with a spec's own
    # characters failed only at the first gate, hours in.
    for name in ("run(2)", "a,b", "k=v"):
        with pytest.raises(TrainError, match="whose path cannot hold"):
            Run(tmp_path / name, "card_duel", **TINY)
    (tmp_path / "file").write_text("")
    with pytest.raises(TrainError, match="is a file, not a folder"):
        Run(tmp_path / "file", "card_duel", **TINY)
    # One iteration visits no move: self-play had no target and divided by zero.
    with pytest.raises(TrainError, match="--iterations 1: a searcher of one iteration"):
        Run(tmp_path / "run", "card_duel", **{**TINY, "iterations": 1})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_a_run_that_fails_midway_says_so_in_one_line_and_keeps_its_folder(tmp_path):
    # A trainer's state of another generation than the record's: the run cannot go on.
    args = ["train", "card_duel", "--out", str(tmp_path / "run"), "--games", "4",
            "--iterations", "10", "--gate", "1", "--hidden", "8", "--workers", "1",
            "--quiet"]
    assert cli(*args, "--generations", "1").returncode == 0
    trainer = tmp_path / "run" / "trainer.npz"
    with np.load(trainer) as f:
        state = dict(f)
    state["generation"] = np.array(5)
    with open(trainer, "wb") as f:
        np.savez(f, **state)
    done = cli(*args, "--generations", "2")
    assert done.returncode == 1, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("cardarena train: ") and "Traceback" not in done.stderr
    assert last.endswith(f"the run is kept in {tmp_path / 'run'} as it stood")


def test_the_command_says_what_to_install_without_jax(tmp_path):
    code = ("import importlib.util, sys; real = importlib.util.find_spec\n"
            "importlib.util.find_spec = lambda n, *a: None if n == 'optax' else real(n, *a)\n"
            "from tournament.cli import main; sys.argv = ['cardarena', 'train', 'card_duel']\n"
            "main()")
    import subprocess
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip() == ('cardarena train: training needs optax: pip install '
                                   '"cardarena[learn]"')
    assert list(tmp_path.iterdir()) == []


def test_a_run_across_the_decks_plays_every_pair_and_its_model_serves_each(tmp_path,
                                                                             monkeypatch):
    run = Run(tmp_path / "run", "creature_shrines(max_turns=6)", games=8, iterations=4,
              gate=3, hidden=(8,), seed=2, across=("deck0", "deck1"))
    assert len(run.plan.variants()) == 25
    played = [j["game"] for j in _first_generation(run, monkeypatch)]
    assert set(played) <= set(run.plan.variants()) and len(set(played)) > 1
    assert all(g.startswith("creature_shrines(") and "max_turns=6" in g for g in played)
    # The gate's three deals meet three pairs, one deal each, in both seatings.
    with Store(tmp_path / "run" / "gate.sqlite") as store:
        gates = store.tournaments()
    assert len({g["config"]["game"] for g in gates}) == 3
    assert run.generations[0]["gate"]["games"] == 6
    from search.model import load_model
    pair = engine_game("creature_shrines(deck0=green,deck1=purple,max_turns=6)")
    model = load_model(str(tmp_path / "run" / "models" / "gen-0001.npz"), pair)
    assert (model.game_string, model.across) == ("creature_shrines(max_turns=6)",
                                                 ("deck0", "deck1"))
    # The record keeps it, and going on with other settings is refused.
    assert Run(tmp_path / "run", "creature_shrines(max_turns=6)").plan.across == \
        ("deck0", "deck1")
    with pytest.raises(TrainError, match=r"started with across \('deck0', 'deck1'\)"):
        Run(tmp_path / "run", "creature_shrines(max_turns=6)", across=("deck0",))


@pytest.mark.parametrize("game, across, says", [
    ("creature_shrines", ("max_turns",), "--across max_turns: creature_shrines has no "
     "parameter max_turns with named choices; it has mode, deck0, deck1"),
    ("card_duel", ("life",), "--across life: card_duel has no parameter life with named "
     "choices; it has none"),
    ("creature_shrines(deck0=blue)", ("deck0",), "--across deck0: the game string sets it "
     "to blue; leave it out to train across it"),
    ("creature_shrines", ("deck0", "deck0"), "--across names a parameter twice"),
])
def test_a_run_refuses_what_it_cannot_train_across(tmp_path, game, across, says):
    with pytest.raises(TrainError, match="^" + re.escape(says) + "$"):
        Run(tmp_path / "run", game, across=across)
    assert not (tmp_path / "run").exists()


def test_the_command_refuses_a_parameter_it_cannot_train_across_in_one_line(tmp_path):
    done = cli("train", "shrine", "--out", str(tmp_path / "run"), "--across", "alt_heal")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "cardarena train: --across alt_heal: shrine has no parameter alt_heal with named "
        "choices; it has none"]
    assert "--across NAME" in cli("train", "--help").stdout
