#!/usr/bin/env python3
"""How fast and how small are cardarena's game states, next to OpenSpiel's own engines?

Prints one table.  Each row is an engine and the way it is driven:

* shrine, C loop      -- ``core.state.random_playouts``: the whole game in C, no GIL;
                         the speed search gets; with it what search pays in C for a
                         copy, a determinization and a learned player's tensor fill.
* shrine, Python API  -- the same states driven from Python through ``legal_actions()``,
                         ``chance_outcomes()`` and ``apply_action()``.
* shrine, pyspiel     -- the same game through OpenSpiel's API (``pyspiel.load_game``).
* every other ruleset in ``core.GAMES``, C loop -- the same way as Shrine's C loop: a
                         new ruleset gets its row without an edit here.
* hearts, gin_rummy   -- OpenSpiel's C++ card games, driven from Python with pyspiel.
* python_kuhn_poker   -- OpenSpiel's pure-Python example game, driven with pyspiel.

Every Python-driven row runs the very same driver loop, so their figures compare like
for like; the C loop row shows what is left once Python is out of the way.  The notes
printed under the table say exactly what each column measures.

Linux only: state sizes are read from /proc/self/statm.

    python bench/engine.py            # a little over a minute
    python bench/engine.py --quick    # under twenty seconds, noisier
"""
import argparse
import ctypes
import ctypes.util
import gc
import itertools
import os
import platform
import random
import sys
import time
import traceback

# Run from a checkout (``python bench/engine.py``) without installing the package.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# core imports numpy, whose BLAS would otherwise start one worker thread per core; idle
# or spinning, they share the machine with the single-threaded loops timed here.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import pyspiel  # noqa: E402

import core  # noqa: E402  (registers cardarena's games with OpenSpiel)
from bench.positions import random_game  # noqa: E402
from core.state import (copy_into_ns, determinize_ns, observation_tensor_ns,  # noqa: E402
                        random_playouts)
from tables import cpu_name, markdown_table, num, ratio, text_table  # noqa: E402

import open_spiel.python.games  # noqa: E402,F401  (registers python_kuhn_poker)

# The engine's speed goals (on one core).
GOAL_COPY_NS = 100
GOAL_CLONE_US = 2.0
GOAL_STEPS = 1_000_000

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
assert (CHANCE, TERMINAL) == (core.CHANCE_PLAYER, core.TERMINAL_PLAYER)

# Seconds per timed repeat, per mode: (random games, clone() loop, clones kept for RSS).
BUDGETS = {"quick": (0.25, 0.04, 0.08), "full": (2.5, 0.3, 0.5)}
COPY_INTO_REPEATS = {"quick": 2_000_000, "full": 10_000_000}
DETERMINIZE_GAMES = {"quick": 5, "full": 20}      # seeded random games sampled
DETERMINIZE_EVERY = 10                            # every tenth decision of them
DETERMINIZE_REPEATS = 1_000                       # rounds timed at each position
TENSOR_REPEATS = 1_000                            # fills timed at each of those positions
MEMORY_CAP = 256 << 20       # bytes of clones at most, when weighing states


# --- drivers ------------------------------------------------------------------------

def python_playouts(new_state, games, seed):
    """Play ``games`` games from ``new_state()`` to the end through the OpenSpiel-style
    Python API, uniformly among legal actions and chance outcomes by their probability.
    Returns the number of steps (actions and chance outcomes applied)."""
    rand = random.Random(seed).random
    steps = 0
    for _ in range(games):
        st = new_state()
        while True:
            # One current_player() call tells terminal, chance and decision apart, where
            # is_terminal() and is_chance_node() would cost two binding calls per step.
            p = st.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                u = rand()
                for a, prob in st.chance_outcomes():
                    if u < prob:
                        break
                    u -= prob
                # Rounding can leave u just above the last probability: ``a`` is then
                # the last outcome, as the C loop would pick.
                st.apply_action(a)
            else:
                legal = st.legal_actions()
                st.apply_action(legal[int(rand() * len(legal))])
            steps += 1
    return steps


def decisions_along(new_state, games, seed, every):
    """Every ``every``-th decision point of ``games`` seeded random games, each as the
    position and the player to decide: where a searcher determinizes."""
    found = []
    for g in range(games):
        st = new_state()
        for i, a in enumerate(random_game(new_state, seed + g)[0]):
            player = st.current_player()
            if player >= 0 and i % every == 0:
                found.append((st.clone(), player))
            st.apply_action(a)
    return found


def midgame(new_state, seed):
    """The position halfway through a seeded random game, and how many steps in it is.
    Clones are timed and weighed there, not at the start: OpenSpiel states carry their
    history, and the cost of copying one grows with it."""
    actions = random_game(new_state, seed)[0]
    st = new_state()
    for a in actions[:len(actions) // 2]:
        st.apply_action(a)
    return st, len(actions) // 2


# --- measurement ----------------------------------------------------------------------

def calibrate(run, target):
    """How many units ``run(n)`` must do to take about ``target`` seconds (like
    ``timeit.Timer.autorange``, but aiming at a time rather than a floor)."""
    n = 1
    while True:
        t0 = time.perf_counter()
        run(n)
        dt = time.perf_counter() - t0
        if dt >= target / 5 or n >= 1 << 30:
            return max(1, round(n * target / max(dt, 1e-9)))
        n *= min(100, max(2, int(target / 5 / max(dt, 1e-9)) + 1))


def best_time(run, n, repeats):
    """The fastest of ``repeats`` runs of ``run(n)``, in seconds, and its result.  The
    fastest is the one least disturbed by the rest of the machine."""
    best, result = float("inf"), None
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        out = run(n)
        dt = time.perf_counter() - t0
        if dt < best:
            best, result = dt, out
    return best, result


def time_clone(state, target, repeats):
    """Seconds per ``state.clone()`` called from Python, the new state dropped at once."""
    clone = state.clone

    def run(n):
        for _ in itertools.repeat(None, n):
            clone()

    n = calibrate(run, target)
    return best_time(run, n, repeats)[0] / n


def _libc_trim():
    """Return the C heap's free pages to the system, so that memory freed earlier and
    then reused by new clones counts as growth."""
    name = ctypes.util.find_library("c")
    try:
        ctypes.CDLL(name).malloc_trim(0)
    except (OSError, AttributeError, TypeError):
        pass


def _resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def bytes_per_state(state, count, cap=MEMORY_CAP):
    """Resident-memory growth per clone of ``state``, with up to ``count`` clones held at
    once, fewer if they would grow the resident set past ``cap`` bytes (a gin_rummy state
    is over 100 kB).

    Measured in a forked child, so that nothing the benchmark allocated and freed
    before is reused without showing in the resident set, and so that the parent's
    memory is left as it was.  tracemalloc would miss C and C++ allocations; the
    resident set sees every kind alike, allocator overhead included."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.close(rfd)
            keep = [None] * count     # allocated before the baseline: not a state's cost
            gc.collect()
            gc.disable()
            _libc_trim()
            before = _resident_bytes()
            made = 0
            while made < count:
                for i in range(made, min(count, made + 500)):
                    keep[i] = state.clone()
                made = min(count, made + 500)
                grown = _resident_bytes() - before
                if grown >= cap:
                    break
            os.write(wfd, repr(grown / made).encode())
            status = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(status)
    os.close(wfd)
    with os.fdopen(rfd, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    return float(data) if data else None


# --- the rows ---------------------------------------------------------------------------

class Row:
    def __init__(self, game, driver, new_state, playouts=None, copy_into=False):
        self.game, self.driver, self.new_state = game, driver, new_state
        self.playouts = playouts or (lambda games, seed: python_playouts(new_state, games, seed))
        self.copy_into = copy_into
        self.bytes = self.copy_ns = self.determinize_ns = self.tensor_ns = None
        self.clone_us = self.mid_step = None
        self.steps = self.steps_per_s = self.games_per_s = None


def c_loop_row(name):
    ours = core.load_game(name)
    initial = ours.new_initial_state()
    return Row(name, "C loop (random_playouts)", ours.new_initial_state,
               playouts=lambda games, seed: random_playouts(initial, games, seed)[0],
               copy_into=True)


# The ruleset every driver is shown on, and against whose rows the others are compared.
REFERENCE = "shrine"


def make_rows():
    ours = core.load_game(REFERENCE)
    rows = [
        c_loop_row(REFERENCE),
        Row(REFERENCE, "Python API", ours.new_initial_state),
        Row(REFERENCE, "pyspiel (core.spiel)", pyspiel.load_game(REFERENCE).new_initial_state),
    ]
    rows += [c_loop_row(name) for name in core.GAMES if name != REFERENCE]
    for name, kind in (("hearts", "C++"), ("gin_rummy", "C++"), ("python_kuhn_poker", "Python")):
        new_state = pyspiel.load_game(name).new_initial_state
        rows.append(Row(name, f"pyspiel, {kind} engine", new_state))
    return rows


def measure(row, mode, seed, repeats, log):
    t_games, t_clone, t_mem = BUDGETS[mode]
    log(f"  {row.game}, {row.driver}: ")
    mid, row.mid_step = midgame(row.new_state, seed)

    if row.copy_into:
        n = COPY_INTO_REPEATS[mode]
        row.copy_ns = min(copy_into_ns(mid, n) for _ in range(repeats))
        points = decisions_along(row.new_state, DETERMINIZE_GAMES[mode], seed,
                                 DETERMINIZE_EVERY)
        row.determinize_ns = min(
            sum(determinize_ns(st, player, DETERMINIZE_REPEATS) for st, player in points)
            / len(points) for _ in range(repeats))
        log("determinize ")
        row.tensor_ns = min(
            sum(observation_tensor_ns(st, player, TENSOR_REPEATS) for st, player in points)
            / len(points) for _ in range(repeats))
        log("tensor ")

    clone_s = time_clone(mid, t_clone, repeats)
    row.clone_us = clone_s * 1e6
    log("clone ")

    count = int(min(200_000, max(2_000, t_mem / clone_s)))
    row.bytes = bytes_per_state(mid, count)
    log("memory ")

    games = calibrate(lambda n: row.playouts(n, seed), t_games)
    dt, steps = best_time(lambda n: row.playouts(n, seed), games, repeats)
    row.steps = steps / games
    row.steps_per_s = steps / dt
    row.games_per_s = games / dt
    log("games\n")


# --- output -----------------------------------------------------------------------------

HEADERS = ["engine", "driven by", "bytes/state", "copy_into ns", "determinize ns",
           "tensor ns", "clone() µs", "steps/game",
           "steps/s", "games/s", "C loop ×", "Py API ×", "clone ×"]
LEFT = 2      # the first columns are words, left-aligned; numbers are right-aligned


def cells(rows):
    """The table's rows as strings."""
    cloop, pyapi = rows[0], rows[1]
    out = []
    for r in rows:
        out.append([
            r.game, r.driver, num(r.bytes), num(r.copy_ns), num(r.determinize_ns),
            num(r.tensor_ns), num(r.clone_us), num(r.steps),
            num(r.steps_per_s), num(r.games_per_s),
            ratio(cloop.steps_per_s, r.steps_per_s),
            ratio(pyapi.steps_per_s, r.steps_per_s),
            ratio(r.clone_us, cloop.clone_us),
        ])
    return out


def _article(name):
    return "an" if name[0].lower() in "aeiou" else "a"


def notes(rows, args, call_ns):
    header = core.GameState.__basicsize__
    sizes = {name: type(core.load_game(name).new_initial_state()).__basicsize__
             for name in core.GAMES}
    basic = sizes[REFERENCE]
    others = "; ".join(f"{_article(core.GAMES[name].long_name)} {core.GAMES[name].long_name} "
                       f"object is {size} bytes, "
                       f"{size - header} of them its struct"
                       for name, size in sizes.items() if name != REFERENCE)
    # Every row of a game replays the same seeded game, so they share the position.
    steps = {r.game: r.mid_step for r in rows if r.mid_step is not None}
    where = ", ".join(f"{game} {step}" for game, step in steps.items())
    return [
        "Mid-game position, at which clone() and bytes/state are measured: the step halfway "
        f"through one seeded random game, the same for every row of a game: {where}.",
        "bytes/state: resident-memory growth (/proc/self/statm) per clone, over thousands of "
        "clones of the mid-game position held in a list, in a forked child; the same method "
        "for every row, allocator and GC-header overhead included. OpenSpiel states hold "
        "their history (16 bytes per past step), so their figure grows with the position; "
        "ours stays fixed. For ours, the Python object is "
        f"{basic} bytes (type.__basicsize__): {header} of object header, vtable and game "
        f"pointers, then {basic - header} holding the C struct ShrineData (its size rounded "
        f"up to the object's 8-byte alignment); the rest is the GC header and malloc's; "
        f"{others}.",
        "copy_into ns: core.state.copy_into_ns, one memcpy into an existing state, timed in C "
        "without the GIL. OpenSpiel has no in-place copy, hence n/a: its nearest operation, "
        "State::Clone(), allocates a new state, and its cost as called from Python is in the "
        "clone() column.",
        "determinize ns: core.state.determinize_ns, a copy and then determinize() for the "
        "player to decide, as a searcher pays them each iteration, timed in C without the "
        f"GIL; the mean over every {DETERMINIZE_EVERY}th decision of "
        f"{DETERMINIZE_GAMES['quick' if args.quick else 'full']} seeded random games. OpenSpiel's engines resample "
        "through Python (ResampleFromInfostate), hence n/a.",
        "tensor ns: core.state.observation_tensor_ns, the C fill of the deciding player's "
        "observation tensor (what a learned player reads) into one buffer, timed in C without "
        "the GIL, at the same positions as determinize; each game's tensor has "
        + ", ".join(f"{core.load_game(r.game).observation_tensor_size} floats ({r.game})"
                    for r in rows if r.tensor_ns is not None)
        + ". OpenSpiel's engines hand their tensors to Python as lists, hence n/a.",
        "clone() µs: Python-level state.clone() on the mid-game position, the copy freed at "
        "once; includes the call from Python (one trivial binding call, current_player(), costs "
        f"{num(call_ns['ours'])} ns on our state and {num(call_ns['hearts'])} ns on a pyspiel "
        "C++ state), the allocation and the copy. pyspiel clones a Python-defined state "
        "(python_kuhn_poker; Shrine through core.spiel) by calling new_initial_state() and "
        "deep-copying its attributes.",
        "steps/s and games/s: uniformly random full games from the initial state (chance "
        "outcomes sampled by their probabilities), best of "
        f"{args.repeats} identical seeded runs; a step is one legal-action (or chance-outcome) "
        "query plus one apply, chance steps included. The C loop uses the engine's xoshiro256** "
        "RNG; the Python rows share one driver loop over random.Random.",
        "Our Python API's apply_action() checks legality (it generates the legal actions "
        "again), as a checked API must; pyspiel's apply_action() does not (State::ApplyAction "
        "calls the game's DoApplyAction, which keeps only its own internal checks). Through "
        "core.spiel, each step reaches our checked apply_action() as well.",
        "C loop ×: Shrine's C loop steps/s over this row's. Py API ×: Shrine's Python API "
        "steps/s over this row's (like for like for the Python-driven rows). clone ×: this "
        "row's clone() time over Shrine's. Games differ in length (steps/game), so compare "
        "steps/s, not games/s.",
        "Everything runs in one thread, so each figure is for one core.",
    ]


def goals(rows):
    def verdict(ok):
        return "met" if ok else "NOT met"

    out = []
    for cloop in (r for r in rows if r.copy_into):
        out += [
            f"{cloop.game}: copy_into at most {GOAL_COPY_NS} ns: {num(cloop.copy_ns)} ns -- "
            f"{verdict(cloop.copy_ns <= GOAL_COPY_NS)}",
            f"{cloop.game}: clone() at most {GOAL_CLONE_US:g} µs: {num(cloop.clone_us)} µs -- "
            f"{verdict(cloop.clone_us <= GOAL_CLONE_US)}",
            f"{cloop.game}: at least {GOAL_STEPS:,} random-playout steps/s on one core: "
            f"{num(cloop.steps_per_s)} -- {verdict(cloop.steps_per_s >= GOAL_STEPS)}",
        ]
    return out


def call_cost(state, repeats):
    f = state.current_player

    def run(n):
        for _ in itertools.repeat(None, n):
            f()

    return best_time(run, 200_000, repeats)[0] / 200_000 * 1e9


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Benchmark cardarena's engines (every registered ruleset) against "
                    "OpenSpiel's hearts, gin_rummy and python_kuhn_poker: bytes per state, "
                    "copy_into, determinize, the observation tensor fill, clone(), "
                    "random-play steps/s and games/s, and the engine's speed goals.",
        epilog="Figures depend on the machine; compare rows of one run, not runs of "
               "different machines.")
    ap.add_argument("--quick", action="store_true",
                    help="shorter timings (under about 20 s instead of about 70 s); noisier")
    ap.add_argument("--seed", type=int, default=1,
                    help="seed of the random games and of the mid-game positions (default 1)")
    ap.add_argument("--repeats", type=int, default=3,
                    help="timed repeats per figure; the best is kept (default 3)")
    ap.add_argument("--markdown", action="store_true",
                    help="print the table as a Markdown table")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    if not os.path.exists("/proc/self/statm") or not hasattr(os, "fork"):
        ap.error("this benchmark reads /proc/self/statm and forks: it runs on Linux only")
    mode = "quick" if args.quick else "full"

    def log(msg):
        print(msg, end="", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    rows = make_rows()
    log(f"measuring ({mode}, seed {args.seed}):\n")
    for row in rows:
        measure(row, mode, args.seed, args.repeats, log)
    call_ns = {"ours": call_cost(core.load_game(REFERENCE).new_initial_state(), args.repeats),
               "hearts": call_cost(pyspiel.load_game("hearts").new_initial_state(), args.repeats)}
    log(f"done in {time.perf_counter() - t0:.1f} s\n\n")

    print(f"cardarena engine benchmark ({mode}, seed {args.seed}); Python "
          f"{platform.python_version()}, OpenSpiel {getattr(pyspiel, '__version__', '?')}, "
          f"{cpu_name()}")
    print()
    table = markdown_table if args.markdown else text_table
    print(table(HEADERS, cells(rows), LEFT))
    print()
    bullet = "- " if args.markdown else "* "
    for n in notes(rows, args, call_ns):
        print(bullet + n)
    print()
    print("Goals:")
    for g in goals(rows):
        print(bullet + g)


if __name__ == "__main__":
    main()
