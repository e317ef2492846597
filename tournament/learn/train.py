"""Expert iteration (Anthony, Tian and Barber 2017), generation after generation, in a
folder that holds the whole run, so that a stopped run takes up where it stopped:

1. Self-play: the searcher (``ismcts`` with random rollouts unless the plan names
   another) guided by the best network so far (the first generation: by none) plays
   ``games`` games against itself in the harness's worker processes; each finished task's positions go to the replay buffer on disk.
2. Training: the network takes Adam steps on batches drawn from the newest
   ``window`` positions, as many as draw ``reuse`` positions for each new one; its
   targets are the search's visit shares and the games' final returns.
3. The gate: the new network's searcher plays the best one's on ``gate`` deals, each
   in every seating, through the harness (stored, so resumable too).  It is kept (it
   guides the next self-play and becomes ``model.npz``) if it scores at least half of
   the points: a new network is kept unless it loses to the last.  A kept network's
   searcher then plays the first generation's expert (no network) on the same
   deals: its strength, measured against one fixed player (the gates' scores, each
   chosen for being at least half, would add up to more than the truth).

The folder: ``train.json`` (the plan and every generation's figures), ``model.npz``
(the best network), ``models/gen-GGGG.npz`` (each generation's), ``buffer/`` (the
positions), ``trainer.npz`` (the network being trained and its optimiser) and
``gate.sqlite`` (the gates' games)."""
import concurrent.futures as futures
import dataclasses
import hashlib
import itertools
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from core.errors import CardArenaError, ParameterError
from search.bots import KINDS, bot_spec, parse_bot
from tournament.harness import config as configs
from tournament.harness import runner
from tournament.harness.store import Store
from tournament.learn import selfplay
from tournament.learn.buffer import Buffer
from tournament.learn.defaults import PLAN
from tournament.stats.intervals import wilson
from tournament.stats.ratings import match_scores


class TrainError(CardArenaError):
    """A training run that cannot start or go on: a folder holding another run, or one
    that is not a run's folder."""


@dataclasses.dataclass(frozen=True)
class Plan:
    """What a training run does, fixed when it starts (``train.json`` keeps it)."""

    game: str
    """The game string, parameters included."""
    hidden: tuple = PLAN["hidden"]
    """The network's hidden layer sizes (docs/learning.md, "Its size")."""
    games: int = PLAN["games"]
    """Self-play games a generation."""
    iterations: int = PLAN["iterations"]
    """The searcher's iterations a move, in self-play and in the gate."""
    explore: int = PLAN["explore"]
    """How many of a self-play game's first decisions are drawn in proportion to the
    search's visits, not the most visited move."""
    window: int = PLAN["window"]
    """The newest positions the network is trained on."""
    batch: int = PLAN["batch"]
    """Positions an Adam step."""
    reuse: float = PLAN["reuse"]
    """Positions drawn into batches for each new position a generation brings: each
    is trained on about this many times before it leaves the window.  A value head
    trained on its positions many more times learns their games' results by heart
    (docs/learning.md)."""
    gate: int = PLAN["gate"]
    """Deals of the gate, each played in every seating."""
    seed: int = PLAN["seed"]
    """Every self-play game, batch, first weight and gate deal is drawn from it."""
    value_weight: float = PLAN["value_weight"]
    """The weight of the network's value at a leaf of the guided searcher, in
    self-play and the gate, the rest a random rollout's: written into each model file,
    so that a search given the model takes it too (``Model.value_weight``)."""
    searcher: str = PLAN["searcher"]
    """The expert: a tree searcher's spec with neither a budget nor a model, such as
    ``ismcts(rollout_depth=8,rollout=heuristic)``.  Self-play and the gate search with
    it at ``iterations`` a move, guided by the best network so far (the first
    generation by none)."""

    across: tuple = PLAN["across"]
    """Parameters of the game with named choices (Creature Shrines' ``deck0`` and
    ``deck1``) that each self-play game draws afresh and the gate's deals go through,
    so that one network serves every value of them; empty for one variant's network."""

    def __post_init__(self):
        object.__setattr__(self, "searcher", expert(self.searcher))
        object.__setattr__(self, "across", checked_across(self.game, self.across))
        if self.iterations < 2:
            # A guided search of one iteration spends it on the root and visits no
            # move, which leaves no target for the policy.
            raise TrainError(f"--iterations {self.iterations}: a searcher of one "
                             "iteration a move visits no move to learn from; give 2 or "
                             "more")

    def to_dict(self):
        return {**dataclasses.asdict(self), "hidden": list(self.hidden),
                "across": list(self.across)}

    @classmethod
    def from_dict(cls, data):
        # A run's record from before ``across`` was one of its settings trained one
        # variant.
        return cls(**{**data, "hidden": tuple(data["hidden"]),
                      "across": tuple(data.get("across", ()))})

    def variants(self):
        """Every game string the run plays: each combination of the ``across``
        parameters' choices over the game's other parameters (the game alone without
        them)."""
        if not self.across:
            return [self.game]
        game = configs.rules(self.game)
        return [str(type(game)(**{**game.params, **dict(zip(self.across, values))}))
                for values in itertools.product(*(game.choices[n]
                                                  for n in self.across))]


# The searchers an expert may be: each searches what the player to move knows (the
# cheater would teach the network cards it cannot see).
EXPERTS = ("ismcts", "mo_ismcts", "determinized")
# What a run sets in its searcher itself, or what has no place in self-play.
RUN_OWN = ("iterations", "seconds", "model", "threads", "reuse", "blunder")


def expert(spec):
    """``spec`` as a run's searcher (:attr:`Plan.searcher`), normalised; TrainError
    saying why if it cannot be one."""
    try:
        kind, values = parse_bot(spec)
    except ParameterError as e:
        raise TrainError(f"the searcher {spec!r}: {e}") from None
    if kind not in EXPERTS:
        raise TrainError(f"the searcher is one of {', '.join(EXPERTS)}, not {kind}")
    own = [k for k in RUN_OWN if k in values]
    if own:
        raise TrainError(f"the searcher {spec!r} names {', '.join(own)}, which the run "
                         "sets itself (its budget is --iterations, its model the best "
                         "network so far)")
    # In the kind's own order, so that one searcher has one spec however it was given.
    return bot_spec(kind, {k: values[k] for k in KINDS[kind].params if k in values})


def checked_across(game, across):
    """``across`` as a plan keeps it, or TrainError saying why a name cannot be
    trained across: each a parameter of ``game`` with named choices, not set in the
    game string."""
    across = tuple(across)
    loaded = configs.rules(game)
    kind = type(loaded)
    named = list(getattr(kind, "choices", {}))
    for name in across:
        if name not in named:
            raise TrainError(f"--across {name}: {loaded.name} has no parameter {name} with "
                             f"named choices; it has "
                             + (", ".join(named) if named else "none"))
        if loaded.params[name] != kind.parameters[name]:
            raise TrainError(f"--across {name}: the game string sets it to "
                             f"{loaded.params[name]}; leave it out to train across it")
    if len(set(across)) < len(across):
        raise TrainError("--across names a parameter twice")
    return across


# Games a self-play task plays: the unit a stop can lose.
TASK_GAMES = 4


class Run:
    """The training run in ``folder``: the one already there, or a new one of ``game``.
    ``settings`` are :class:`Plan` fields; a run already there keeps its own, and
    refuses settings given that differ from them."""

    def __init__(self, folder, game, **settings):
        self.folder = Path(folder)
        self.file = self.folder / "train.json"
        if self.folder.exists() and not self.folder.is_dir():
            raise TrainError(f"{folder} is a file, not a folder: give a folder")
        # The networks are named in searchers' specs by their files, where these
        # characters are the spec's own.
        odd = sorted(set("(),=") & set(str(self.folder.resolve())))
        if odd:
            raise TrainError(f"{folder}: a run's folder is named in searchers' specs, "
                             f"whose path cannot hold {' '.join(odd)}; give another")
        given = {k: v for k, v in settings.items() if v is not None}
        if "searcher" in given:
            given["searcher"] = expert(given["searcher"])
        if self.file.exists():
            try:
                record = json.loads(self.file.read_text(encoding="utf-8"))
                self.plan = Plan.from_dict(record["plan"])
            except (OSError, ValueError, KeyError, TypeError) as e:
                raise TrainError(f"{self.file} is not a training run's record: {e}") \
                    from None
            changed = [f"{k} {getattr(self.plan, k)!r} (given {v!r})"
                       for k, v in {"game": game, **given}.items()
                       if getattr(self.plan, k) != v]
            if changed:
                raise TrainError(f"{self.folder} holds a run started with "
                                 + ", ".join(changed) + ": give its settings to go on "
                                 "with it, or another folder")
            self.record = record
        else:
            if self.folder.exists() and any(self.folder.iterdir()):
                raise TrainError(f"{self.folder} is not empty and holds no training run: "
                                 "give a new folder")
            self.plan = Plan(game=game, **given)
            self.record = {"plan": self.plan.to_dict(), "seconds": 0.0, "generations": []}
        self._clock = None
        self.buffer = Buffer(self.folder / "buffer")
        # Every self-play game and gate draws from them: listed once.
        self.variants = self.plan.variants()

    @property
    def generations(self):
        """Every finished generation's figures, oldest first."""
        return self.record["generations"]

    @property
    def best(self):
        """The file of the best network so far; None before the first is kept."""
        g = self._best_generation()
        return None if g is None else self.folder / "models" / f"gen-{g:04d}.npz"

    def _best_generation(self):
        kept = [g["generation"] for g in self.generations if g["kept"]]
        return kept[-1] if kept else None

    @property
    def seconds(self):
        """Wall time the run has taken, over all its sessions."""
        return self.record["seconds"]

    def go(self, hours=None, generations=None, workers=None, progress=True, say=print):
        """Run generations until ``hours`` of the run's wall time have passed (all its
        sessions together) or the run has ``generations`` (either, if None, without
        limit); ``say`` hears a line a generation.  Ctrl-C stops it, keeping what was
        done."""
        self._clock = time.monotonic()
        budget = None if hours is None else hours * 3600
        try:
            while (budget is None or self._elapsed() < budget) and (
                    generations is None or len(self.generations) < generations):
                g = len(self.generations) + 1
                if not self._self_play(g, budget, workers, progress):
                    break
                losses, steps = self._train(g)
                if budget is not None and self._elapsed() >= budget:
                    break
                gate, strength = self._gate(g, workers, progress)
                self._finish(g, losses, steps, gate, strength)
                say(self.describe(self.generations[-1]))
        finally:
            self._save()

    def describe(self, gen):
        """A generation's figures in a line."""
        g, gate = gen["generation"], gen["gate"]
        against = f"generation {gen['against']}" if gen["against"] else "no network"
        line = (f"generation {g}: {gen['games']} games, {gen['positions']:,} positions; "
                f"loss {gen['policy_loss']:.3f} policy, {gen['value_loss']:.3f} value; "
                f"gate {_score(gate)} over {gate['games']} games against {against}: "
                + ("kept" if gen["kept"] else "not kept"))
        if gen["kept"]:
            line += f"; against no network {_score(gen['strength'])}"
        return line

    # --- the three steps ---------------------------------------------------------

    def _self_play(self, g, budget, workers, progress):
        """Play generation ``g``'s self-play games the buffer lacks; False if the time
        ran out first."""
        plan = self.plan
        tasks = math.ceil(plan.games / TASK_GAMES)
        todo = [t for t in range(tasks) if t not in self.buffer.tasks(g)]
        searcher = self._searcher(self.best)
        bar = tqdm(total=plan.games, initial=plan.games - sum(
            len(self._task_games(t)) for t in todo), unit="game", disable=not progress,
            desc=f"generation {g} self-play", dynamic_ncols=True)
        pool, window, _, close, _ = runner.executor(workers)
        pending = {}
        try:
            while todo or pending:
                while todo and len(pending) < window and (
                        budget is None or self._elapsed() < budget):
                    t = todo.pop(0)
                    jobs = [selfplay.job(self._variant(g, i), searcher, plan.explore,
                                         self._seed("self-play", g, i))
                            for i in self._task_games(t)]
                    pending[pool.submit(selfplay.play_all, jobs)] = t
                if not pending:
                    return False
                done, _ = futures.wait(pending, return_when=futures.FIRST_COMPLETED)
                for future in done:
                    t = pending.pop(future)
                    positions = future.result()
                    self.buffer.add(g, t, positions)
                    bar.update(positions.games)
                self._save()
        finally:
            for future in pending:
                future.cancel()
            close()
            bar.close()
        return True

    def _train(self, g):
        """Train generation ``g``'s network (unless a stopped run already had)."""
        model = self.folder / "models" / f"gen-{g:04d}.npz"
        trained = self.record.get("trained")
        if trained and trained["generation"] == g and model.exists():
            return trained["losses"], trained["steps"]
        new = self.buffer.count(g)[1]
        steps = max(1, math.ceil(self.plan.reuse * new / self.plan.batch))
        # A process of its own, started afresh: JAX's threads must not be in a
        # process that forks the self-play workers.
        task = json.dumps({"folder": str(self.folder), "plan": self.plan.to_dict(),
                           "generation": g, "steps": steps})
        done = subprocess.run([sys.executable, "-m", "tournament.learn.net", task],
                              capture_output=True, text=True)
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines() or [f"status {done.returncode}"]
            raise TrainError(f"the training of generation {g} failed: {lines[-1]}")
        losses = json.loads(done.stdout.strip().splitlines()[-1])
        self.record["trained"] = {"generation": g, "losses": losses, "steps": steps}
        self._save()
        return losses, steps

    def _gate(self, g, workers, progress):
        """Generation ``g``'s network against the best so far, and if it is kept,
        against the first expert: its score in each, with a 95% interval over deals
        (None for the second if it is not kept)."""
        new = self._searcher(self.folder / "models" / f"gen-{g:04d}.npz")
        expert = self._searcher(None)
        best = self._searcher(self.best)
        gate = self._match(g, new, best, "gate", workers, progress)
        if gate["score"] < 0.5:
            return gate, None
        strength = gate if self.best is None else \
            self._match(g, new, expert, "strength", workers, progress)
        return gate, strength

    def _match(self, g, new, other, what, workers, progress):
        """``new`` against ``other`` on generation ``g``'s gate deals, stored."""
        schedule = [configs.Config(game=game, bots={"new": new, "other": other},
                                   deals=deals, seed=seed,
                                   seconds_per_move=configs.MOST_SECONDS_PER_MOVE,
                                   kind="train")
                    for game, deals, seed in self._gate_variants(g)]
        rows = []
        with Store(self.folder / "gate.sqlite") as store:
            runner.run(schedule, store, workers=workers, progress=progress,
                       desc=f"generation {g} {what}")
            for config in schedule:
                # Each variant's deals numbered on from the last's: one deal, one mean.
                rows += [dataclasses.replace(row, deal=len(rows) + row.deal)
                         for row in store.games(config.key)]
        return gate_score(rows, "new", configs.sides(self.plan.game))

    def _variant(self, g, i):
        """The game string of generation ``g``'s self-play game ``i``: the plan's game,
        with each ``across`` parameter drawn from its choices."""
        variants = self.variants
        if len(variants) == 1:
            return variants[0]
        return variants[self._seed("variant", g, i) % len(variants)]

    def _gate_variants(self, g):
        """``(game string, deals, seed)`` of generation ``g``'s gate: its deals go
        through the variants in an order drawn for the generation, so that the gates of
        a run together meet every variant however few deals each has."""
        variants = self.variants
        if len(variants) == 1:
            return [(variants[0], self.plan.gate, self._seed("gate", g))]
        order = sorted(variants, key=lambda v: self._seed("gate order", g, v))
        deals = [order[d % len(order)] for d in range(self.plan.gate)]
        return [(v, deals.count(v), self._seed("gate", g, v)) for v in order if v in deals]

    def _finish(self, g, losses, steps, gate, strength):
        games, positions = self.buffer.count(g)
        self.generations.append({
            "generation": g, "games": games, "positions": positions, "steps": steps,
            "policy_loss": losses[0], "value_loss": losses[1], "gate": gate,
            "against": self._best_generation(), "kept": strength is not None,
            "strength": strength, "model": f"gen-{g:04d}.npz",
            "seconds": self._elapsed()})
        self.record.pop("trained", None)
        if strength is not None:
            part = self.folder / "model.part"
            shutil.copyfile(self.folder / "models" / f"gen-{g:04d}.npz", part)
            os.replace(part, self.folder / "model.npz")
        self._save()

    # --- bookkeeping -------------------------------------------------------------

    def _searcher(self, model):
        """The plan's searcher at its iterations, guided by the network in the file
        ``model`` (None: by none).  The model's file carries the plan's value_weight,
        which the search then takes."""
        kind, values = parse_bot(self.plan.searcher)
        first = {"iterations": self.plan.iterations}
        if model is not None:
            first = {"model": str(model), **first}
        return bot_spec(kind, {**first, **values})

    def _task_games(self, task):
        return range(task * TASK_GAMES, min((task + 1) * TASK_GAMES, self.plan.games))

    def _seed(self, *what):
        digest = hashlib.sha256("/".join(map(str, (self.plan.seed, *what))).encode())
        return int.from_bytes(digest.digest()[:8], "little") >> 1

    def _elapsed(self):
        now = time.monotonic()
        self.record["seconds"] += now - self._clock
        self._clock = now
        return self.record["seconds"]

    def _save(self):
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._clock is not None:
            self._elapsed()
        part = self.file.with_suffix(".part")
        part.write_text(json.dumps(self.record, indent=1) + "\n", encoding="utf-8")
        os.replace(part, self.file)


def _score(figure):
    return f"{figure['score']:.1%} [{figure['low']:.1%}, {figure['high']:.1%}]"


def gate_score(rows, name, sides):
    """``name``'s score over the matches of ``rows``, with a 95% interval from the
    spread of its mean score per deal (normal approximation), and the games counted.
    Where every deal gave the same mean, which leaves no spread to read (a clean
    sweep), the interval is Wilson's over the matches."""
    per_deal, games = {}, 0
    for row in rows:
        games += 1
        for bot, _, score in match_scores(row, sides):
            per_deal.setdefault(row.deal, []).append(score if bot == name else 1 - score)
    means = np.array([np.mean(s) for s in per_deal.values()])
    score = float(means.mean()) if len(means) else 0.5
    if len(means) < 2:
        low, high = 0.0, 1.0
    elif means.std() == 0:
        low, high = wilson(score, sum(len(s) for s in per_deal.values()))
    else:
        half = 1.96 * float(means.std(ddof=1) / np.sqrt(len(means)))
        low, high = max(0.0, score - half), min(1.0, score + half)
    return {"score": score, "low": low, "high": high, "games": games}
