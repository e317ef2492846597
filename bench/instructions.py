#!/usr/bin/env python3
"""How many instructions does a seeded game of searchers take, and where?

A machine busy with other work makes timings of a change to an engine too noisy to
read: the same search can take 0.7 or 1.3 times its time from one run to the next.
The instructions a seeded game runs do not depend on the load, so they tell a
change's cost from the noise.  Each row plays one seeded game of a ruleset between two
copies of its skill analysis's searcher (its yardstick) under valgrind's callgrind,
and counts the instructions: all of them (start-up included), those in the game's
compiled modules, and those in search's.

``--against DIR`` plays the same games in another checkout of cardarena (built in
place, with ``python setup.py build_ext --inplace``), with the same Python, and adds
its counts and the ratios, this checkout's over the other's; a game that is not the
same move for move there is said to be.

Needs valgrind (Debian's ``valgrind`` package).  Under it a game runs some fifty
times slower than on its own: about a minute a row at the default 256 iterations.

    python bench/instructions.py --game relinquish
    python bench/instructions.py --against ../cardarena-before
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.learned import with_params, yardstick  # noqa: E402
from bench.tables import markdown_table, num, text_table  # noqa: E402
import core  # noqa: E402

# Each ruleset's game, as its skill analysis plays it.
GAMES = {
    "shrine": "shrine",
    "card_duel": "card_duel",
    "relinquish": "relinquish",
    "creature_shrines": "creature_shrines(deck1=red)",
    "energy_deckbuilder": "energy_deckbuilder",
}


def searcher(game, iterations):
    """The yardstick of ``game`` (a ruleset's name) at ``iterations`` a move."""
    return with_params(yardstick(core.load_game(GAMES[game])), iterations=iterations)


def count(checkout, game, bot, seed):
    """Play the seeded game in ``checkout`` under callgrind: (the game's words, the
    instructions by the file of code that ran them)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             sys.executable, "-m", "tournament.cli", "demo", GAMES[game],
             "--seed", str(seed), "--players", bot, bot],
            cwd=checkout, capture_output=True, text=True,
            env=dict(os.environ, PYTHONPATH=str(checkout)))
        if run.returncode != 0:
            raise SystemExit(f"bench/instructions.py: the game failed in {checkout}:\n"
                             + run.stderr[-2000:])
        annotated = subprocess.run(["callgrind_annotate", "--threshold=100", out],
                                   capture_output=True, text=True, check=True).stdout
    by_object = {}
    for line in annotated.splitlines():
        found = re.match(r"\s*([\d,]+) \([^)]*\)\s+\S.* \[(.+)\]\s*$", line)
        if found:
            n, obj = int(found.group(1).replace(",", "")), found.group(2)
            by_object[obj] = by_object.get(obj, 0) + n
    total = re.search(r"([\d,]+) \([^)]*\)\s+PROGRAM TOTALS", annotated)
    return run.stdout, int(total.group(1).replace(",", "")), by_object


def split(checkout, game, by_object):
    """Of the instructions ``by_object``, those of the game's folder and of search's."""
    game_dir = str(Path(checkout, "core", game)) + os.sep
    search_dir = str(Path(checkout, "search")) + os.sep
    return (sum(n for obj, n in by_object.items() if obj.startswith(game_dir)),
            sum(n for obj, n in by_object.items() if obj.startswith(search_dir)))


def millions(n):
    return num(n / 1e6)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--game", action="append", choices=sorted(GAMES),
                        help="a ruleset (default: every one); may be given again")
    parser.add_argument("--iterations", type=int, default=256,
                        help="the searchers' iterations a move (default 256)")
    parser.add_argument("--seed", type=int, default=2, help="the deal's seed (default 2)")
    parser.add_argument("--against", metavar="DIR",
                        help="another checkout, built in place, to count the same games in")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args(argv)
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")
    against = Path(args.against).resolve() if args.against is not None else None
    if against is not None and not (against / "core").is_dir():
        parser.error(f"--against {args.against}: not a cardarena checkout")
    for tool in ("valgrind", "callgrind_annotate"):
        if shutil.which(tool) is None:
            raise SystemExit(f"bench/instructions.py: {tool} is not installed "
                             "(Debian's valgrind package has it)")
    header = ["game", "searchers", "instructions (millions)", "in the game", "in search"]
    if against is not None:
        header += ["theirs", "in the game", "in search", "ratio", "game ratio",
                   "same game"]
    rows = []
    for game in args.game or sorted(GAMES):
        bot = searcher(game, args.iterations)
        words, total, by_object = count(ROOT, game, bot, args.seed)
        in_game, in_search = split(ROOT, game, by_object)
        row = [GAMES[game], bot, millions(total), millions(in_game), millions(in_search)]
        if against is not None:
            their_words, their_total, theirs = count(against, game, bot, args.seed)
            their_game, their_search = split(against, game, theirs)
            row += [millions(their_total), millions(their_game), millions(their_search),
                    f"{total / their_total:.3f}",
                    f"{in_game / their_game:.3f}" if their_game else "-",
                    "yes" if words == their_words else "no"]
        rows.append(row)
    print((markdown_table if args.markdown else text_table)(header, rows, 2))
    print(f"\nOne seeded game (seed {args.seed}) each, both players the same searcher; "
          "instructions counted by callgrind, start-up included.")


if __name__ == "__main__":
    main()
