#!/usr/bin/env python3
"""What does the tournament harness cost, and how does it scale with workers?

Prints one table.  Every row plays the same games: a duplicate round-robin of three
random players on Shrine (``--deals`` deals, six seatings each), which makes each game
as cheap as a game can be, so the harness's own work shows as much as it ever will.

Rows:

* OpenSpiel's ``evaluate_bots`` -- the peer: OpenSpiel's own loop that plays one game
  between ``pyspiel.Bot``s, run here over the same games with the same bots, storing
  nothing.
* bare play -- ``tournament.harness.runner.play`` called in a loop: one game from its plain
  data, with the harness's failure checks and bookkeeping but no store, no workers
  and no progress bar.
* harness, N workers -- ``tournament.harness.runner.run`` into a fresh SQLite file, as
  ``cardarena tournament`` runs it: one worker plays in this process, more in a pool of
  worker processes.

Columns: games/s; ms/game (wall time per game); overhead, the harness's time per game
over bare play's, less one; speedup, games/s over the one-worker harness's; and ×
OpenSpiel, games/s over ``evaluate_bots``'s.  Each row is run ``--repeats`` times and
the fastest run counts, since the machine's other work slows some runs.

    python bench/harness.py                 # about a minute
"""
import argparse
import os
import sys
import tempfile
import time

# This script's folder holds bench/search.py, which would hide the search package.
sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots  # noqa: E402

from bench.tables import cpu_name, markdown_table, num, ratio, text_table  # noqa: E402
from tournament.harness import config as configs  # noqa: E402
from tournament.harness import runner  # noqa: E402
from tournament.harness.store import Store  # noqa: E402

BOTS = {"a": "random", "b": "random", "c": "random"}


def fastest(repeats, fn):
    best = None
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def openspiel_loop(config, games):
    game = pyspiel.load_game(config.game)
    for where in games:
        job = runner.job(config, *where)
        bots = [configs.make_bot(spec, game, seat, seat) for seat, spec in enumerate(job["specs"])]
        evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                    np.random.default_rng(job["deal_seed"]))


def bare_loop(config, games):
    for where in games:
        runner.play(runner.job(config, *where))


def harness(config, workers):
    with tempfile.TemporaryDirectory() as tmp:
        with Store(os.path.join(tmp, "bench.db")) as store:
            runner.run(config, store, workers=workers, progress=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals (default 100)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per row (default 3)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                        help="worker counts to time (default: 1 2)")
    parser.add_argument("--markdown", action="store_true", help="print Markdown")
    args = parser.parse_args()
    config = configs.parse({"game": "shrine", "deals": args.deals, "seed": 1,
                            "bots": BOTS})
    games = list(config.games())
    n = len(games)
    timed = [("OpenSpiel's evaluate_bots", fastest(args.repeats,
                                                    lambda: openspiel_loop(config, games))),
             ("bare play", fastest(args.repeats, lambda: bare_loop(config, games)))]
    for workers in args.workers:
        timed.append((f"harness, {workers} worker{'s' if workers > 1 else ''}",
                      fastest(args.repeats, lambda: harness(config, workers))))
    peer, bare = timed[0][1], timed[1][1]
    one = next((t for name, t in timed if name == "harness, 1 worker"), None)
    body = []
    for name, seconds in timed:
        in_harness = name.startswith("harness")
        body.append([name, num(n / seconds), num(1000 * seconds / n),
                     f"{100 * (seconds / bare - 1):+.1f}%" if in_harness else "n/a",
                     ratio(one, seconds) if in_harness and one else "n/a",
                     ratio(peer, seconds)])
    headers = ["run", "games/s", "ms/game", "overhead", "speedup", "× OpenSpiel"]
    table = (markdown_table if args.markdown else text_table)(headers, body, 1)
    print(f"Shrine, {n} random-vs-random games ({args.deals} deals of 6 seatings), "
          f"fastest of {args.repeats}; {cpu_name()}, {os.cpu_count()} CPUs")
    print(table)
    two = next((t for name, t in timed if name == "harness, 2 workers"), None)
    goals = []
    if one is not None:
        overhead = one / bare - 1
        goals.append(f"harness overhead per game under 5%: {100 * overhead:+.1f}% -- "
                     + ("met" if overhead < 0.05 else "NOT met"))
        if two is not None:
            goals.append(f"2 workers at least 1.8 times 1 worker: {ratio(one, two)} -- "
                         + ("met" if one / two >= 1.8 else "NOT met"))
    if goals:
        print("\nGoals:\n" + "\n".join("  " + g for g in goals))


if __name__ == "__main__":
    main()
