#!/usr/bin/env python3
"""How fast and how lean is cardarena's search, next to OpenSpiel's own ISMCTS?

Prints one table.  Each row is a searcher on a game, timed on the same fixed positions:

* each ruleset, Shrine first -- each of our searchers (``search.make_bot`` specs): ``ismcts`` with
  random rollouts, heuristic rollouts and rollouts cut after 8 moves, and with random
  rollouts on two threads (``threads=2``); ``mo_ismcts``,
  ``determinized`` and ``cheater``; and ``expectimax``, whose figure is nodes/s, for it
  runs no iterations.
* shrine, OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts``) on
  ``pyspiel.load_game("shrine")`` states, with the same random rollouts: the peer on our
  games (OpenSpiel's C++ ISMCTS cannot run on a Python-registered game).
* hearts, OpenSpiel's C++ ISMCTS (``pyspiel.ISMCTSBot``): the reference for compiled
  speed; and our ``ismcts`` on hearts through ``core.ForeignGame``, which calls into
  pyspiel at every step, so it says what the wrapper costs, not what our search does.
* oh_hell, the same two: the game on which ``--match`` meets OpenSpiel's C++ ISMCTS,
  so the iterations each side runs in its time per move, on the same positions.

Each searcher gets the same wall time on each position: ours by their time budget,
OpenSpiel's bots, whose budget is a simulation count, by a count calibrated on that
position with a short probe run.  Each search is then run again (``--repeats``) with
the iterations of its first run and the same seed, the same work each time, and the
fastest run counts.  The repeats go round every row in turn: the machine's other work
slows some runs, and the fastest is the least slowed.

Columns:

* iterations/s -- iterations (simulations) of one search over its wall time, the
  fastest run on each position; the median over the positions.
* steps/iteration -- the mean length, in steps (moves and chance outcomes alike), of a
  game played from the position to its end by the rollout policy.  Every iteration
  plays one such game: down the tree, then the rollout.  Measured with random
  playouts from each position (``core.state.random_playouts``, in C; for heuristic
  rollouts, by the game's heuristic move with the same ``epsilon``).  Only the tree
  part of an iteration is played by UCB instead of the rollout policy, so the figure is
  an estimate, the same for every searcher of one game.  Rollouts cut after 8 moves
  have no such length: n/a.
* rollout steps/s -- iterations/s times steps/iteration, position by position, the
  median over positions: how many game steps a searcher simulates per second.
* nodes/iteration, bytes/node, tree bytes/iteration -- how fast the tree grows.  Ours:
  ``SearchResult.nodes`` and ``MCTS.node_bytes`` (a node is one edge and its
  statistics, one C struct).  OpenSpiel's Python ISMCTS: a node is one information set
  with its children's statistics in a dict, weighed with ``tracemalloc`` over a
  separate search.  OpenSpiel's C++ tree is out of Python's sight: n/a.
* ×: the Shrine rows' iterations/s over OpenSpiel's Python ISMCTS's on Shrine, and
  every row's rollout steps/s over OpenSpiel's C++ ISMCTS's on hearts.

Under the table, the million-iteration line (``--million``, in the full run): one
SO-ISMCTS search of 1,000,000 iterations on Shrine with full random rollouts, its nodes
and the memory its tree takes.

``--match N`` instead plays N games between our ``ismcts(seconds=S)`` and an opponent
given the same time per move, ours taking each seat in turn, each deal once per seat.
The opponent is OpenSpiel's ISMCTS (``openspiel_ismcts(seconds=S)``, which sets each
move's simulation count from the rate measured on its moves before): its Python bot on
our games, its C++ bot on OpenSpiel's own (``--game oh_hell``).  With ``--opponent
threads`` it is our ismcts on one thread, and ours the same on two (``threads=2``, in
one tree unless ``--ours`` says ``parallel=root``): both take ``--ours``' parameters,
so that only the second thread differs.  Moves with a single
legal action are played without asking any bot, and every bot is told every move and
chance outcome.  The result is a score (a draw counts half) with its 95% Wilson
interval, and the mean margin over the opponents' mean payoff with its 95% interval,
over the games and, where deals were played from every seat, over the deals, whose
interval decides the verdict.  ``--record FILE`` writes each game to FILE as it ends
and, run again with the same match, plays only the games FILE does not hold: a match
of hours survives being stopped.  OpenSpiel's bot sizes its searches by the rate it
measured before, so its time per move is near the budget, not at it: the mean
seconds each side spent per searched move are printed beside the result.
On Shrine at one second per move, a game takes about a minute.

Under the table, a second: a network in the search (``search.model``, docs/learning.md),
per ruleset, with random weights of the chosen size (``HIDDEN``), untrained, for its
cost alone: the microseconds of one evaluation (the network over the player to move's
observation tensor, the value head and the policy over a position's legal moves, timed
over a batch of tensors from seeded random games), and the iterations/s of
``ismcts(model=...)``, its value alone at the leaves and mixed half and half with random
rollouts, beside ``ismcts``'s without a model, measured as the first table's rows are.
``--sizes`` times one evaluation for several hidden layer sizes instead, the figures
that chose ``HIDDEN``.

Every row but ``ismcts(threads=2)`` runs in one thread, so its figure is for one core;
that row searches on two threads, and the table notes the machine's load, for two
threads are only as fast as the cores left free for them.  Linux only: memory is read
from /proc/self/statm.

    python bench/search.py                           # two to three minutes
    python bench/search.py --quick                   # under half a minute, noisier
    python bench/search.py --match 40 --seconds 1    # the match alone, about 40 minutes
    python bench/search.py --match 60 --seconds 0.1 --game oh_hell --ours reuse=true
    python bench/search.py --match 40 --seconds 0.2 --opponent threads
    python bench/search.py --match 400 --seconds 0.02 --opponent threads --game relinquish \
        --ours rollout_depth=8,rollout=heuristic
    python bench/search.py --match 400 --seconds 0.2 --opponent threads --game relinquish \
        --ours rollout_depth=8,rollout=heuristic --record relinquish-threads-0.2.jsonl
    python bench/search.py --sizes                   # the network's sizes, a minute

The parts are modules beside this one: ``positions.py`` (the positions and rollout
lengths), ``searchers.py`` (the searchers timed, the peers, the million-iteration tree),
``network.py`` (a network in the search) and ``match.py`` (``--match``).
"""
import argparse
import os
import platform
import sys
import time

# Run from a checkout without installing the package.  The checkout goes first: the
# script's own folder, which Python puts first, holds this file, named like the
# ``search`` package.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# core imports numpy, whose BLAS would otherwise start one worker thread per core; idle
# or spinning, they share the machine with the single-threaded searches timed here.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import pyspiel  # noqa: E402

import core  # noqa: E402  (registers shrine with OpenSpiel)
from bench.match import GOAL_WIN_RATE, match  # noqa: E402
from bench.network import (BATCH, NETWORK_HEADERS, guided_rows, network_cells,  # noqa: E402
                           network_notes, sizes_table)
from bench.positions import (MIN_LEGAL, POSITIONS, heuristic_steps, positions,  # noqa: E402
                             random_steps, replay)
from bench.searchers import (CUT, MILLION, OUR_SEARCHERS, Row, expectimax, find,  # noqa: E402
                             label, million, our_searcher, peer, weigh_python_peer)
from bench.tables import cpu_name, markdown_table, num, ratio, text_table  # noqa: E402

# The search's goals.
GOAL_VS_PYTHON = 100          # iterations/s over OpenSpiel's Python ISMCTS's, on Shrine
GOAL_VS_CPP = 0.5             # rollout steps/s over OpenSpiel's C++ ISMCTS's on hearts
GOAL_MILLION_BYTES = 1 << 30  # memory of a 1,000,000-iteration tree
GOAL_THREADS = 1.8            # iterations/s of 2 threads over 1 thread's, on Shrine

SECONDS = {"quick": 0.05, "full": 0.5}   # per search
PLAYOUTS = {"quick": 200, "full": 2000}  # random games per position, for steps/iteration
LOAD = []                     # the machine's one-minute load average, before and after


def make_rows(mode, seed):
    """Every row, with the positions it searches and its steps per iteration."""
    games = PLAYOUTS[mode]
    rows = []
    # Shrine first, the game the peers are compared on; then every other ruleset.
    for name in ["shrine"] + [n for n in core.GAMES if n != "shrine"]:
        game = core.load_game(name)
        histories = positions(game.new_initial_state, seed)
        states = [replay(game.new_initial_state, h) for h in histories]
        lengths = {
            "random": [random_steps(st, games, seed) for st in states],
            "heuristic": [heuristic_steps(st, games // 10, seed) for st in states],
            "cut": [],
        }
        for kind, params, rollout in OUR_SEARCHERS:
            row = Row(name, label(kind, params), None, lengths[rollout], rollout)
            row.search = our_searcher(row, kind, params, game, states, seed)
            rows.append(row)
        rows.append(Row(name, "expectimax (nodes/s)", expectimax(game, states, seed),
                        rollout=None))
        rows += guided_rows(name, game, states, seed)
        if name == "shrine":
            spiel_game = pyspiel.load_game("shrine")
            spiel_states = [replay(spiel_game.new_initial_state, h) for h in histories]
            row = Row(name, "OpenSpiel ISMCTS, Python", peer(spiel_game, spiel_states, seed, 4),
                      lengths["random"])
            weigh_python_peer(row, spiel_game, spiel_states[0], 50, seed)
            rows.append(row)

    hearts = pyspiel.load_game("hearts")
    # While cards are passed, OpenSpiel's hearts resamples worlds that break its rules,
    # and its C++ ISMCTS crashes on them (so openspiel_ismcts refuses hearts); from 60%
    # of a game on, past the deal and the passing, cards are played, and it runs.
    histories = positions(hearts.new_initial_state, seed, at=0.6)
    spiel_states = [replay(hearts.new_initial_state, h) for h in histories]
    foreign = core.ForeignGame(hearts)
    states = [foreign.wrap(ps) for ps in spiel_states]
    steps = [random_steps(st, max(20, games // 10), seed) for st in states]
    rows.append(Row("hearts", "OpenSpiel ISMCTS, C++", peer(hearts, spiel_states, seed, 64),
                    steps))
    row = Row("hearts", "ismcts via ForeignGame", None, steps)
    row.search = our_searcher(row, "ismcts", {}, foreign, states, seed)
    rows.append(row)

    oh_hell = pyspiel.load_game("oh_hell")
    histories = positions(oh_hell.new_initial_state, seed)
    spiel_states = [replay(oh_hell.new_initial_state, h) for h in histories]
    foreign = core.ForeignGame(oh_hell)
    states = [foreign.wrap(ps) for ps in spiel_states]
    steps = [random_steps(st, max(20, games // 10), seed) for st in states]
    rows.append(Row("oh_hell", "OpenSpiel ISMCTS, C++",
                    peer(oh_hell, spiel_states, seed, 64), steps))
    row = Row("oh_hell", "ismcts via ForeignGame", None, steps)
    row.search = our_searcher(row, "ismcts", {}, foreign, states, seed)
    rows.append(row)
    return rows


def run_rows(mode, seed, repeats, log):
    """Each row's fastest run of ``repeats`` per position.  The repeats go round every
    row in turn, so that a burst of load from elsewhere on the machine slows one run
    of several rows rather than every run of one."""
    rows = make_rows(mode, seed)
    for rep in range(repeats):
        log(f"  round {rep + 1} of {repeats}:")
        for row in rows:
            log(".")
            row.measure(SECONDS[mode])
        log("\n")
    return rows


# --- output ----------------------------------------------------------------------------

HEADERS = ["game", "searcher", "iterations/s", "steps/iteration", "rollout steps/s",
           "nodes/iteration", "bytes/node", "tree bytes/iteration", "× Python ISMCTS",
           "steps × C++ ISMCTS"]
LEFT = 2      # the first columns are words, left-aligned; numbers are right-aligned


def cells(rows):
    python = find(rows, "shrine", "OpenSpiel ISMCTS, Python")
    cpp = find(rows, "hearts", "OpenSpiel ISMCTS, C++")
    out = []
    for r in rows:
        if r.guided:
            continue
        comparable = r.game == "shrine" and r.rollout is not None
        out.append([
            r.game, r.searcher, num(r.rate), num(r.mean_steps), num(r.steps_rate),
            num(r.nodes_per_it), num(r.node_bytes), num(r.tree_bytes),
            ratio(r.rate, python.rate) if comparable else "n/a",
            ratio(r.steps_rate, cpp.steps_rate),
        ])
    return out


def notes(rows, mode, seed, repeats):
    theirs = find(rows, "oh_hell", "OpenSpiel ISMCTS, C++")
    ours = find(rows, "oh_hell", "ismcts via ForeignGame")
    return [
        f"Positions: for each game, {POSITIONS} seeded random games (seed {seed}), each cut "
        f"at its first decision with at least {MIN_LEGAL} legal moves from its middle on "
        "(hearts: from 60% on, once the cards are passed); every searcher of a game "
        f"searches the same positions, {SECONDS[mode]:g} s each.",
        f"iterations/s: per position, the fastest of {repeats} searches; the median over "
        "the positions. expectimax runs no iterations: its figure is nodes searched per "
        "second.",
        "steps/iteration: the mean length of a game from the position to its end under the "
        "rollout policy (random playouts, or the heuristic's), a step being a move or a "
        "chance outcome; rollout steps/s: iterations/s times that, the median over the "
        f"positions. Rollouts cut after {CUT} moves have no such length.",
        "nodes/iteration and bytes/node: ours count tree edges, each one C struct; "
        "determinized counts each world's tree. OpenSpiel's Python ISMCTS counts "
        "information sets, weighed with tracemalloc over a separate 50-simulation search, "
        "strings, dicts and statistics included. tree bytes/iteration is their product, "
        "the figure to compare.",
        "× Python ISMCTS: iterations/s over OpenSpiel's Python ISMCTS's on Shrine (Shrine "
        "rows only). steps × C++ ISMCTS: rollout steps/s over OpenSpiel's C++ ISMCTS's on "
        "hearts, a different game, so steps, not iterations, are compared.",
        "ismcts via ForeignGame calls into pyspiel for every step of the tree, and plays "
        "each sampled world of hearts out once in Python before using it (OpenSpiel's "
        "hearts resampler can break the rules; ForeignGame.checks_worlds): it measures "
        "the wrapper, not the searcher. Its copies share one pyspiel state until one "
        "moves, what it reads of a state (legal moves, the searcher's information "
        "state) is read once per copied root, and on oh_hell the views of an "
        "opponent's move are remembered by a token of the information state, followed "
        "move by move; hearts' last pass shows each world differently, so there every "
        "view is computed afresh.",
        f"On oh_hell, ismcts via ForeignGame runs {ratio(ours.rate, theirs.rate)} the "
        "iterations/s of OpenSpiel's C++ ISMCTS on the same positions; --match plays "
        "the two at equal time per move.",
        "Every row but ismcts(threads=2) runs in one thread, so its figure is for one "
        "core. ismcts(threads=2) walks one tree on two threads (tree parallelisation, "
        "with virtual loss), the iterations shared between them; it needs two idle "
        f"cores to show its speed. The machine has {os.cpu_count()} cores; its load average (the "
        "processes wanting a core, this one included) was "
        f"{' then '.join(f'{x:.1f}' for x in LOAD)} at the start and end of the run.",
    ]


def goals(rows):
    ours = find(rows, "shrine", "ismcts")
    python = find(rows, "shrine", "OpenSpiel ISMCTS, Python")
    cpp = find(rows, "hearts", "OpenSpiel ISMCTS, C++")

    def verdict(ok):
        return "met" if ok else "NOT met"

    two = find(rows, "shrine", "ismcts(threads=2)")
    vs_python = ours.rate / python.rate
    vs_cpp = ours.steps_rate / cpp.steps_rate
    return [
        f"ismcts on 2 threads at least {GOAL_THREADS}× the iterations/s of 1 thread on "
        f"Shrine: {ratio(two.rate, ours.rate)} -- {verdict(two.rate >= GOAL_THREADS * ours.rate)}",
        f"ismcts at least {GOAL_VS_PYTHON}× the iterations/s of OpenSpiel's Python ISMCTS "
        f"on Shrine: {ratio(ours.rate, python.rate)} -- {verdict(vs_python >= GOAL_VS_PYTHON)}",
        f"ismcts's rollout steps/s on Shrine within a factor of 2 of OpenSpiel's C++ ISMCTS "
        f"on hearts: {ratio(ours.steps_rate, cpp.steps_rate)} -- "
        f"{verdict(vs_cpp >= GOAL_VS_CPP)}",
        f"at least {GOAL_WIN_RATE:.0%} wins against OpenSpiel's Python ISMCTS on Shrine at "
        "1 s per move: played by --match N --seconds 1",
    ]


def parser():
    ap = argparse.ArgumentParser(
        description="Benchmark cardarena's searchers against OpenSpiel's ISMCTS: "
                    "iterations/s, rollout steps/s, bytes per node, the memory of a "
                    "million-iteration tree, and a match at equal time per move.",
        epilog="Figures depend on the machine; compare rows of one run, not runs of "
               "different machines.")
    ap.add_argument("--quick", action="store_true",
                    help="0.05 s per search instead of 0.5 s, fewer playouts, and no "
                         "million-iteration search: under about 30 s; noisier")
    ap.add_argument("--million", action=argparse.BooleanOptionalAction, default=None,
                    help="run the million-iteration search (default: in the full run, "
                         "not in --quick)")
    ap.add_argument("--seed", type=int, default=1,
                    help="seed of the positions, the searchers and the match (default 1)")
    ap.add_argument("--repeats", type=int, default=3,
                    help="timed searches per position and searcher; the fastest is kept "
                         "(default 3)")
    ap.add_argument("--markdown", action="store_true",
                    help="print the table as a Markdown table")
    ap.add_argument("--match", type=int, metavar="N",
                    help="play N games of ismcts against an opponent at equal time per "
                         "move instead of the table")
    ap.add_argument("--seconds", type=float, default=1.0,
                    help="the match's time per move for each side (default 1)")
    ap.add_argument("--game", default="shrine",
                    help="the match's game: one of ours, or any of OpenSpiel's, such as "
                         "oh_hell, where the opponent is OpenSpiel's C++ ISMCTS "
                         "(default shrine)")
    ap.add_argument("--opponent", choices=("openspiel", "threads"), default="openspiel",
                    help="OpenSpiel's ISMCTS, or ismcts on one thread against ours on "
                         "two, both with --ours' parameters (default openspiel)")
    ap.add_argument("--ours", default="",
                    help="more parameters of our ismcts in the match, such as reuse=true "
                         "or parallel=root")
    ap.add_argument("--record", metavar="FILE",
                    help="write the match's games to FILE as they end, one JSON line "
                         "each, and resume from the games it holds: a long match killed "
                         "goes on where it stopped")
    ap.add_argument("--sizes", action="store_true",
                    help="time one evaluation of the network for several hidden layer "
                         "sizes on every ruleset instead of the table")
    return ap


def main(argv=None):
    ap = parser()
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    if not os.path.exists("/proc/self/statm"):
        ap.error("this benchmark reads /proc/self/statm: it runs on Linux only")
    if args.match is not None:
        if args.match < 1 or args.seconds <= 0:
            ap.error("--match needs at least one game and --seconds above 0")
        try:
            match(args.game, args.opponent, args.match, args.seconds, args.seed, args.ours,
                  lambda line: print(line, flush=True), record=args.record)
        except core.CardArenaError as e:
            sys.exit(f"bench/search.py --match: {e}")
        return
    table = markdown_table if args.markdown else text_table
    if args.sizes:
        print(f"µs per evaluation of a network with random weights, by hidden layer sizes "
              f"(seed {args.seed}, the fastest of {args.repeats} batches of {BATCH:,}); "
              f"{cpu_name()}")
        print()
        print(sizes_table(args.seed, args.repeats, table))
        return
    tables(args, table)


def tables(args, table):
    """Measure and print the searchers' table, the network's, and the goals."""
    mode = "quick" if args.quick else "full"
    with_million = not args.quick if args.million is None else args.million

    def log(msg):
        print(msg, end="", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    log(f"measuring ({mode}, seed {args.seed}):\n")
    LOAD.append(os.getloadavg()[0])
    rows = run_rows(mode, args.seed, args.repeats, log)
    LOAD.append(os.getloadavg()[0])
    if with_million:
        log(f"  shrine, ismcts, {MILLION:,} iterations\n")
        tree = million(args.seed)
    log(f"done in {time.perf_counter() - t0:.1f} s\n\n")

    print(f"cardarena search benchmark ({mode}, seed {args.seed}); Python "
          f"{platform.python_version()}, OpenSpiel {getattr(pyspiel, '__version__', '?')}, "
          f"{cpu_name()}")
    print()
    print(table(HEADERS, cells(rows), LEFT))
    print()
    bullet = "- " if args.markdown else "* "
    for n in notes(rows, mode, args.seed, args.repeats):
        print(bullet + n)
    print()
    print(table(NETWORK_HEADERS, network_cells(rows, args.seed, args.repeats), 2))
    print()
    for n in network_notes():
        print(bullet + n)
    if with_million:
        nodes, node_bytes, grown, seconds = tree
        print()
        print(f"Million: ismcts, {MILLION:,} iterations on Shrine's first position in "
              f"{seconds:.0f} s: {nodes:,} nodes of {node_bytes} bytes, "
              f"{nodes * node_bytes / 2 ** 20:.1f} MiB of nodes; the tree grew the resident "
              f"set by {grown / 2 ** 20:.1f} MiB.")
    print()
    print("Goals:")
    for g in goals(rows):
        print(bullet + g)
    if with_million:
        print(bullet + f"a tree of {MILLION:,} iterations in under 1 GB: "
              f"{grown / 2 ** 20:.1f} MiB -- {'met' if grown < GOAL_MILLION_BYTES else 'NOT met'}")


if __name__ == "__main__":
    main()
