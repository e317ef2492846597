"""What a second core buys a tree search, and the most it could buy.

For each game, the iterations of one search of ``--seconds`` on mid-game positions of
seeded random games (bench/positions.py), run by ismcts:

* on one thread;
* on two threads in one tree (``threads=2``, the default way);
* on two threads each with its own tree, summed at the root (``parallel=root``);
* on one thread for twice the time: the one tree grown as far as two threads that
  shared it for free would grow it.  A bigger tree makes each iteration dearer, so
  this, not 2, is the ceiling of one tree on two threads.

The last column, one tree's iterations over those of one thread given twice the time,
is the share of that ceiling two threads reach: what is missing is what sharing the
tree's nodes between two cores costs.  Each position is searched ``--repeats`` times by
each searcher in turn, and its most iterations kept; a row sums its positions.

Two threads are only as fast as the cores left free for them: this needs two idle
cores, and prints the machine's load average before and after.

    python bench/threads.py
    python bench/threads.py --games shrine,card_duel --seconds 0.5 --markdown
"""
import argparse
import os
import sys

# Run from a checkout without installing the package, the checkout first (see search.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# numpy's BLAS would otherwise start one idle thread per core beside the searches timed.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import core  # noqa: E402
import search  # noqa: E402
from bench.positions import positions, replay  # noqa: E402
from bench.tables import cpu_name, markdown_table, num, ratio, text_table  # noqa: E402

GAMES = "shrine,card_duel,relinquish,creature_shrines,energy_deckbuilder"
HEADERS = ["game", "iterations, one thread", "one tree", "at the root",
           "one thread, twice the time", "one tree / twice the time"]
# The searchers of a row, by the spec each adds to ismcts's, and the time each is given
# in units of --seconds.
SEARCHERS = (("one", "", 1), ("tree", ",threads=2", 1), ("root", ",threads=2,parallel=root", 1),
             ("twice", "", 2))


def row(name, seconds, repeats, seed, ours):
    """The iterations each searcher runs on the game's positions, summed over them."""
    game = core.load_game(name)
    states = [replay(game.new_initial_state, h)
              for h in positions(game.new_initial_state, seed)]
    best = {label: [0] * len(states) for label, _, _ in SEARCHERS}
    for _ in range(repeats):
        for i, state in enumerate(states):
            for label, more, times in SEARCHERS:
                spec = f"ismcts(seconds={seconds * times:g}{more}{ours})"
                bot = search.make_bot(spec, game, state.current_player(), seed=seed)
                best[label][i] = max(best[label][i], bot.searcher.search(state).iterations)
    return {label: sum(counts) for label, counts in best.items()}


def parser():
    ap = argparse.ArgumentParser(
        description="The iterations one search runs on two threads, in one tree and at "
                    "the root, over one thread's, beside one thread given twice the "
                    "time: what a second core buys, and the most one tree could.",
        epilog="Needs two idle cores; figures depend on the machine.")
    ap.add_argument("--games", default=GAMES,
                    help=f"the games, comma-separated (default {GAMES})")
    ap.add_argument("--seconds", type=float, default=0.15,
                    help="the time of one search (default 0.15)")
    ap.add_argument("--repeats", type=int, default=5,
                    help="searches of each position by each searcher, the most "
                         "iterations kept (default 5)")
    ap.add_argument("--seed", type=int, default=1,
                    help="seed of the positions and the searchers (default 1)")
    ap.add_argument("--ours", default="rollout_depth=8,rollout=heuristic",
                    help="more parameters of every ismcts (default "
                         "rollout_depth=8,rollout=heuristic, as the timed match plays)")
    ap.add_argument("--markdown", action="store_true",
                    help="print the table as a Markdown table")
    return ap


def main(argv=None):
    ap = parser()
    args = ap.parse_args(argv)
    if not args.seconds > 0 or args.repeats < 1:
        ap.error("--seconds is above 0 and --repeats at least 1")
    names = [n.strip() for n in args.games.split(",") if n.strip()]
    unknown = [n for n in names if n not in core.GAMES]
    if unknown:
        ap.error(f"unknown game {unknown[0]!r}; games: {', '.join(sorted(core.GAMES))}")
    ours = f",{args.ours}" if args.ours else ""
    before = os.getloadavg()[0]
    body = []
    for name in names:
        n = row(name, args.seconds, args.repeats, args.seed, ours)
        body.append([name, num(n["one"]), ratio(n["tree"], n["one"]),
                     ratio(n["root"], n["one"]), ratio(n["twice"], n["one"]),
                     f"{n['tree'] / n['twice']:.0%}" if n["twice"] else "n/a"])
    table = markdown_table if args.markdown else text_table
    print(f"ismcts(seconds={args.seconds:g}{ours}) on {cpu_name()}, {os.cpu_count()} cores; "
          f"each position's most iterations of {args.repeats} searches, summed over "
          f"its game's positions")
    print(table(HEADERS, body, 1))
    print(f"load average: {before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
