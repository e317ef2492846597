"""``train``: a network for any game, learnt from self-play."""
import argparse
import importlib.util
import re
import sys

from core.errors import CardArenaError
from tournament import stops
from tournament.cli.common import check_game, fail, positive


def _train(args):
    """Train a network for GAME by expert iteration: the searcher plays itself, the
    network learns its moves and the games' results, and each generation is kept only
    if its searcher does not lose to the last one's.  Everything lives in the --out
    folder: run the same command again to go on after a stop or with more --hours.
    Needs the learn extra: pip install "cardarena[learn]".  docs/learning.md tells
    more."""
    missing = [m for m in ("jax", "optax") if importlib.util.find_spec(m) is None]
    if missing:
        fail("train", f"training needs {' and '.join(missing)}: pip install "
             "\"cardarena[learn]\"", 1)
    from tournament.learn.train import Run, TrainError
    game = check_game("train", args.game)
    out = args.out or f"train-{re.sub(r'[^A-Za-z0-9_.-]+', '-', str(game)).strip('-')}"
    try:
        run = Run(out, str(game), hidden=args.hidden, games=args.games,
                  iterations=args.iterations, gate=args.gate, seed=args.seed,
                  value_weight=args.value_weight, searcher=args.searcher,
                  across=tuple(args.across) if args.across else None)
    except TrainError as e:
        fail("train", str(e), 1)
    done = len(run.generations)
    every = f" (any {', '.join(run.plan.across)})" if run.plan.across else ""
    print(f"{run.plan.game}{every}: "
          f"{'going on from generation ' + str(done) if done else 'a new run'}"
          f" in {out} ({run.seconds / 3600:.2f} h so far); each generation {run.plan.games} "
          f"self-play games at {run.plan.iterations} iterations a move, a gate of "
          f"{run.plan.gate} deals", file=sys.stderr)
    try:
        run.go(hours=args.hours, generations=args.generations, workers=args.workers,
               progress=not args.quiet)
    except KeyboardInterrupt as e:
        print(f"\nStopped after {len(run.generations)} generations: run the same command "
              "again to go on.", file=sys.stderr)
        sys.exit(stops.status(e))
    except CardArenaError as e:
        fail("train", f"{e}; the run is kept in {out} as it stood", 1)
    if run.best is None:
        print(f"No generation has been kept yet: the run is in {out}.")
        return
    print(f"The best network is {out}/model.npz; play it with\n"
          f"  cardarena play {_quoted(args.game)} --bot "
          f"\"ismcts(model={out}/model.npz)\"")


def _quoted(text):
    return text if re.fullmatch(r"[A-Za-z0-9_.-]+", text) else f"'{text}'"


def _sizes(text):
    try:
        sizes = tuple(int(s) for s in text.split(","))
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(
            f"layer sizes are whole numbers of at least 1 with commas between, such as "
            f"128,128, not {text!r}")
    return sizes


def _hours(text):
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"a number of hours above 0, not {text!r}")
    return value


def _weight(text):
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a weight from 0 to 1, not {text!r}")
    return value


def add(sub):
    """Add ``train`` to ``sub``."""
    from tournament.learn.defaults import PLAN
    train = sub.add_parser("train", help="learn a network for a game from self-play",
                           description=_train.__doc__)
    train.add_argument("game", help="the game, with any parameters, e.g. card_duel or "
                       "'relinquish(players=4)'")
    train.add_argument("--out", metavar="FOLDER", help="the run's folder (default: "
                       "train-GAME in this directory); an existing run there goes on")
    train.add_argument("--hours", type=_hours, help="stop once the run has taken this "
                       "long, all its sessions together (default: no limit)")
    train.add_argument("--generations", type=positive, help="stop once the run has this "
                       "many generations (default: no limit)")
    train.add_argument("--seed", type=int, default=None,
                       help="the seed every game, batch and first weight is drawn from "
                       f"(default: {PLAN['seed']})")
    train.add_argument("--games", type=positive, default=None,
                       help=f"self-play games a generation (default: {PLAN['games']})")
    train.add_argument("--iterations", type=positive, default=None,
                       help=f"the searcher's iterations a move, 2 or more (default: "
                       f"{PLAN['iterations']})")
    train.add_argument("--gate", type=positive, default=None, metavar="DEALS",
                       help="deals of the gate between generations, each in every "
                       f"seating (default: {PLAN['gate']})")
    train.add_argument("--hidden", type=_sizes, default=None, metavar="SIZES",
                       help="the network's hidden layer sizes (default: "
                       f"{','.join(map(str, PLAN['hidden']))})")
    train.add_argument("--value-weight", type=_weight, default=None, metavar="W",
                       help="the weight of the network's value at a leaf of the guided "
                       "searcher in self-play and the gate, the rest a random rollout's "
                       f"(default: {PLAN['value_weight']:g})")
    train.add_argument("--searcher", default=None, metavar="SPEC",
                       help="the expert that self-play and the gate search with, a "
                       "tree searcher's spec with neither a budget nor a model, e.g. "
                       "'ismcts(rollout_depth=8,rollout=heuristic)' (default: "
                       f"{PLAN['searcher']}, random rollouts)")
    train.add_argument("--across", action="append", metavar="NAME",
                       help="a parameter with named choices that each self-play game "
                       "draws afresh and the gate goes through, so that one network "
                       "serves every value of it; give it once per parameter, e.g. "
                       "--across deck0 --across deck1 (default: the game as given)")
    train.add_argument("--workers", type=positive, default=None,
                       help="local worker processes for self-play and the gate "
                       "(default: one per CPU it may use)")
    train.add_argument("--quiet", action="store_true", help="no progress bars")
    train.set_defaults(run=_train)
