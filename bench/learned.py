#!/usr/bin/env python3
"""How strong are the shipped networks?  Matches through the tournament harness.

For each game whose own model is shipped (``search.shipped``), with ``--deals`` deals
each played in every seating:

* guided against the yardstick, at each ``--seconds`` a move: the searcher the game's
  skill analysis chose as its yardstick (read from ``docs/results/<ruleset>/``), given
  the network (``model=default``), against the same searcher without it, the same time
  a move for both (``--ours`` gives the guided side more parameters); with ``--plain``,
  ``ismcts(model=default)`` (random rollouts to the end) against the yardstick as well;
* with ``--views N``, whose view the value reads at a leaf: the guided yardstick at N
  iterations a move with ``value_view=actor`` against the same with
  ``value_view=searcher``, its value weighed half against a rollout's
  (``value_weight=0.5``) and alone (``value_weight=1``);
* the raw policy, ``policy(model=default)`` with no search, against ``greedy`` and
  against ``random``.

Prints one table: the first bot's score (a match counts 1, ½ or 0 for each pair of sides
the two bots hold) with its 95% interval over deals, and the games behind it.  Every
game is stored in ``--db`` as it ends, so a stopped run goes on where it stopped, and
a larger ``--deals`` extends it.  ``--journal FILE`` keeps a text copy of the store
there (``tournament.harness.journal``), having first stored the games it holds: a match
of hours goes on from where it stopped on another machine.

    python bench/learned.py --seconds 0.1 --deals 50    # about an hour on two cores
    python bench/learned.py --game shrine --deals 10 --seconds 0.1
    python bench/learned.py --game relinquish --deals 40 --seconds 1 \
        --journal docs/results/learned/relinquish-1s.jsonl
    python bench/learned.py --game shrine --deals 100 --seconds --views 200
"""
import argparse
import json
import os
import sys
from pathlib import Path

# This script's folder holds bench/search.py, which would hide the search package.
sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import core  # noqa: E402
import search  # noqa: E402
from bench.tables import cpu_name, markdown_table, text_table  # noqa: E402
from tournament.harness import config as configs  # noqa: E402
from tournament.harness import runner  # noqa: E402
from tournament.harness.store import Store, StoreError  # noqa: E402
from tournament.learn.train import gate_score  # noqa: E402

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "results"


def yardstick(game):
    """The searcher ``game``'s skill analysis chose, from the first ``skill.json``
    under its ruleset's results."""
    for path in sorted((RESULTS / game.name).rglob("skill.json")):
        return json.loads(path.read_text(encoding="utf-8"))["variants"][0]["player"]
    raise SystemExit(f"no skill analysis of {game.name} in docs/results to take the "
                     "yardstick from")


def matches(game, seconds, plain=False, views=None, ours=None):
    """(what, first bot's spec, second bot's spec) for ``game``; ``ours``, more
    parameters of the guided searcher, as :func:`search.parse_bot` reads them."""
    rows = []
    stick = yardstick(game)
    ours = ours or {}
    for s in seconds:
        timed = with_params(stick, seconds=f"{s:g}")
        guided = with_params(stick, **{"model": "default", **ours, "seconds": f"{s:g}"})
        rows.append((f"{search.bot_spec('guided', ours)} against {timed}", guided, timed))
        if plain:
            rows.append((f"ismcts(model=default) against {timed}",
                         f"ismcts(model=default,seconds={s:g})", timed))
    for weight in ([0.5, 1] if views else []):
        actor, searcher = (with_params(stick, model="default", value_weight=f"{weight:g}",
                                       value_view=view, iterations=f"{views}")
                           for view in ("actor", "searcher"))
        rows.append((f"value_view=actor against searcher, value_weight={weight:g}, "
                     f"{views} iterations", actor, searcher))
    rows += [("policy against greedy", "policy(model=default)", "greedy"),
             ("policy against random", "policy(model=default)", "random")]
    return rows


def with_params(spec, **more):
    """``spec`` with the parameters ``more`` added."""
    kind, values = search.parse_bot(spec)
    return search.bot_spec(kind, {**values, **more})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game string with a shipped "
                        "model (default: every one); may be given again")
    parser.add_argument("--seconds", type=float, nargs="*", default=[0.1, 1.0],
                        help="time a move of the guided matches, none for no guided "
                        "match (default 0.1 1)")
    parser.add_argument("--plain", action="store_true", help="also the network guiding "
                        "plain ismcts (random rollouts to the end) against the yardstick")
    parser.add_argument("--ours", default="", metavar="PARAMS", help="more parameters of "
                        "the guided searcher in the timed matches, such as puct_c=1.2")
    parser.add_argument("--views", type=int, metavar="N", help="also the value read from "
                        "the player to move's view against the searcher's, N iterations "
                        "a move")
    parser.add_argument("--deals", type=int, default=50, help="deals a match (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes (default: one per CPU)")
    parser.add_argument("--db", default="bench-learned.sqlite",
                        help="where the games are stored (default bench-learned.sqlite)")
    parser.add_argument("--journal", metavar="FILE", help="keep a text copy of the store "
                        "in FILE, first storing the games it holds")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args()
    try:
        ours = search.parse_bot(f"ismcts({args.ours})")[1] if args.ours else {}
    except core.CardArenaError as e:
        sys.exit(f"bench/learned.py: --ours: {e}")
    if {"model", "seconds", "iterations"} & set(ours):
        sys.exit("bench/learned.py: --ours: the model and the time a move are the "
                 "match's own (--seconds)")
    games = args.game or [g for kind in core.GAMES.values() for g, _ in search.shipped(kind)]
    body = []
    try:
        store = Store(args.db, journal=args.journal)
    except (StoreError, core.CardArenaError, OSError) as e:
        sys.exit(f"bench/learned.py: {e}")
    with store:
        for text in games:
            game = core.load_game(text)
            sides = configs.sides(str(game))
            for what, first, second in matches(game, args.seconds, args.plain, args.views,
                                                 ours):
                config = configs.Config(game=str(game), bots={"a": first, "b": second},
                                        deals=args.deals, seed=args.seed)
                runner.run(config, store, workers=args.workers, desc=f"{game} {what}")
                score = gate_score(store.games(config.key, deals=range(config.deals)),
                                   "a", sides)
                body.append([str(game), what, f"{score['score']:.1%}",
                             f"{score['low']:.1%} to {score['high']:.1%}",
                             f"{score['games']}"])
    headers = ["game", "match", "score", "95% interval", "games"]
    table = markdown_table if args.markdown else text_table
    print(f"{cpu_name()}; {args.deals} deals a match, seed {args.seed}")
    print(table(headers, body, left=2))


if __name__ == "__main__":
    main()
