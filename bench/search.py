#!/usr/bin/env python3
"""How fast and how lean is cardarena's search, next to OpenSpiel's own ISMCTS?

Prints one table.  Each row is a searcher on a game, timed on the same fixed positions:

* shrine, card_duel -- each of our searchers (``search.make_bot`` specs): ``ismcts`` with
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
interval decides the verdict.  OpenSpiel's bot sizes its searches by the rate it
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
    python bench/search.py --sizes                   # the network's sizes, a minute
"""
import argparse
import gc
import math
import os
import platform
import random
import statistics
import sys
import tempfile
import time
import tracemalloc

# Run from a checkout without installing the package.  The checkout goes first: the
# script's own folder, which Python puts first, holds this file, named like the
# ``search`` package.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# core imports numpy, whose BLAS would otherwise start one worker thread per core; idle
# or spinning, they share the machine with the single-threaded searches timed here.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import core  # noqa: E402  (registers shrine with OpenSpiel)
import search  # noqa: E402
from core.spiel import SpielGame  # noqa: E402
from core.state import random_playouts  # noqa: E402
from search.model import random_model  # noqa: E402
from tables import cpu_name, markdown_table, num, ratio, text_table  # noqa: E402

# The search's goals.
GOAL_VS_PYTHON = 100          # iterations/s over OpenSpiel's Python ISMCTS's, on Shrine
GOAL_VS_CPP = 0.5             # rollout steps/s over OpenSpiel's C++ ISMCTS's on hearts
GOAL_MILLION_BYTES = 1 << 30  # memory of a 1,000,000-iteration tree
GOAL_WIN_RATE = 0.9           # wins against OpenSpiel's Python ISMCTS at 1 s per move
GOAL_THREADS = 1.8            # iterations/s of 2 threads over 1 thread's, on Shrine

POSITIONS = 5
MIN_LEGAL = 3                 # a position offers at least this many moves
SECONDS = {"quick": 0.05, "full": 0.5}   # per search
PLAYOUTS = {"quick": 200, "full": 2000}  # random games per position, for steps/iteration
PEER_PROBE = 0.1              # a peer's probe lasts at least this share of a search
MILLION = 1_000_000
CUT = 8                       # the rollout_depth of the cut-rollout row
LOAD = []                     # the machine's one-minute load average, before and after
PEER_UCT_C = 2.0              # openspiel_ismcts's default, on the game's own payoffs
HIDDEN = (128, 128)           # the network's hidden layers, chosen by --sizes (docs/learning.md)
SIZES = [(32,), (64,), (128,), (256,), (64, 64), (128, 128)]   # timed by --sizes
GUIDED = [("", {}), (", value_weight=0.5", {"value_weight": 0.5})]
TENSORS = 200                 # observation tensors per game, for an evaluation's cost
# --sizes: iterations of the search whose CPU time per iteration it prints, about 0.2 s
ITERATION_COST = {"card_duel": 5000, "creature_shrines": 200, "energy_deckbuilder": 700,
                  "relinquish": 150, "shrine": 1000}
BATCH = 4000                  # evaluations per timed batch


# --- positions -------------------------------------------------------------------------

def random_game(new_state, seed):
    """The steps of one seeded random game, and which of them are decisions with at
    least MIN_LEGAL legal moves."""
    rand = random.Random(seed).random
    st, steps, rich = new_state(), [], []
    while not st.is_terminal():
        if st.is_chance_node():
            u = rand()
            for a, prob in st.chance_outcomes():
                if u < prob:
                    break
                u -= prob
        else:
            legal = st.legal_actions()
            if len(legal) >= MIN_LEGAL:
                rich.append(len(steps))
            a = legal[int(rand() * len(legal))]
        st.apply_action(a)
        steps.append(a)
    return steps, rich


def positions(new_state, seed, at=0.5):
    """POSITIONS mid-game positions, as histories: each seeded random game is cut at
    its first decision with several legal moves from the fraction ``at`` of its length
    on.  The same for every searcher of a game, whatever state class it plays on."""
    out = []
    game_seed = seed * 1000
    while len(out) < POSITIONS:
        steps, rich = random_game(new_state, game_seed)
        game_seed += 1
        later = [i for i in rich if i >= len(steps) * at]
        if later:
            out.append(steps[:later[0]])
    return out


def replay(new_state, history):
    st = new_state()
    for a in history:
        st.apply_action(a)
    return st


# --- rollout lengths -------------------------------------------------------------------

def random_steps(state, games, seed):
    """Mean steps of a uniformly random game from ``state`` to its end."""
    return random_playouts(state, games, seed)[0] / games


def heuristic_steps(state, games, seed, epsilon=0.1):
    """Mean steps of a game from ``state`` to its end played as heuristic rollouts play
    it: the game's heuristic move, or a random one with probability ``epsilon``."""
    rng = random.Random(seed)
    steps = 0
    for _ in range(games):
        st = state.clone()
        while not st.is_terminal():
            if st.is_chance_node():
                actions, probs = zip(*st.chance_outcomes())
                a = rng.choices(actions, probs)[0]
            else:
                a = None if rng.random() < epsilon else st.heuristic_action(rng.getrandbits(63))
                if a is None:
                    a = rng.choice(st.legal_actions())
            st.apply_action(a)
            steps += 1
    return steps / games


# --- the rows --------------------------------------------------------------------------

class Row:
    """One searcher on one game; ``guided`` when a network guides it (the second
    table).  ``search(i, seconds)`` searches position ``i`` for
    about ``seconds`` and returns (its rate, nodes grown, iterations run), the last two
    None where they cannot be told; ``steps`` is the steps each iteration plays from
    each position, empty where there is no such figure."""

    def __init__(self, game, searcher, search, steps=(), rollout="random"):
        self.game, self.searcher, self.search = game, searcher, search
        self.steps, self.rollout = list(steps), rollout
        self.best = [None] * POSITIONS     # (rate, nodes, iterations) of the fastest run
        self.nodes_per_it = self.node_bytes = None
        self.guided = False

    def measure(self, seconds):
        for i in range(POSITIONS):
            run = self.search(i, seconds)
            if self.best[i] is None or run[0] > self.best[i][0]:
                self.best[i] = run
        nodes = [(n, it) for _, n, it in self.best if n is not None]
        if nodes:
            self.nodes_per_it = sum(n for n, _ in nodes) / sum(it for _, it in nodes)

    @property
    def rates(self):
        return [b[0] for b in self.best]

    @property
    def rate(self):
        return statistics.median(self.rates)

    @property
    def mean_steps(self):
        return statistics.fmean(self.steps) if self.steps else None

    @property
    def steps_rate(self):
        if not self.steps:
            return None
        return statistics.median(r * s for r, s in zip(self.rates, self.steps))

    @property
    def tree_bytes(self):
        if self.nodes_per_it is None or self.node_bytes is None:
            return None
        return self.nodes_per_it * self.node_bytes


def label(kind, params):
    if not params:
        return kind
    return f"{kind}({','.join(f'{k}={v}' for k, v in params.items())})"


OUR_SEARCHERS = [
    ("ismcts", {}, "random"),
    ("ismcts", {"rollout": "heuristic"}, "heuristic"),
    ("ismcts", {"rollout_depth": CUT}, "cut"),
    ("ismcts", {"threads": 2}, "random"),
    ("mo_ismcts", {}, "random"),
    ("determinized", {}, "random"),
    ("cheater", {}, "random"),
]


def our_searcher(row, kind, params, game, states, seed):
    """One of our MCTS searchers.  Its first search of a position has the time per
    search as its budget; the later ones run as many iterations as it did, with the
    same seed: the same search again."""
    counts = {}

    def run(i, seconds):
        budget = {"iterations": counts[i]} if i in counts else {"seconds": seconds}
        bot = search.make_bot(label(kind, {**params, **budget}), game,
                              states[i].current_player(), seed=seed + i)
        bot.step(states[i])
        r = bot.last
        counts[i] = r.iterations
        row.node_bytes = bot.searcher.node_bytes
        return r.iterations / r.seconds, r.nodes, r.iterations
    return run


def expectimax(game, states, seed):
    """Expectimax searches of a position, as many as fill the time per search the
    first time, as many again later; its rate is in nodes/s."""
    counts = {}

    def run(i, seconds):
        bot = search.make_bot("expectimax", game, states[i].current_player(), seed=seed + i)
        searches, nodes, spent = 0, 0, 0.0
        while searches < counts[i] if i in counts else spent < seconds:
            bot.step(states[i])
            searches, nodes, spent = searches + 1, nodes + bot.last.nodes, \
                spent + bot.last.seconds
        counts[i] = searches
        return nodes / spent, None, None
    return run


def timed_step(bot, state):
    t0 = time.perf_counter()
    bot.step(state)
    return time.perf_counter() - t0


def openspiel_ismcts(game, sims, seed):
    """OpenSpiel's ISMCTS with one random rollout per leaf, as ``openspiel_ismcts``
    makes it: its Python bot on a Python-registered game such as ours, its C++ bot on
    its C++ games.  Made here, not by ``search.make_bot``, which refuses the C++ bot on
    hearts (see ``make_rows``)."""
    if isinstance(game, SpielGame):
        rs = np.random.RandomState(seed)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), PEER_UCT_C, sims,
                               random_state=rs)
        # Its own resampler draws unseeded, so a repeated search would not redo the
        # same work.
        bot.set_resampler(lambda state, player: state.resample_from_infostate(
            player, rs.uniform))
        return bot
    return pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), PEER_UCT_C, sims,
                             -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)


def peer(game, states, seed, probe_sims):
    """OpenSpiel's ISMCTS, whose budget is a simulation count: on its first search of a
    position, a probe of ``probe_sims`` simulations, doubled until it takes a tenth of
    the time per search, sets the count for that position.  At least 2: the Python bot
    fails an assertion after a single simulation."""
    counts = {}

    def run(i, seconds):
        if i not in counts:
            sims = probe_sims
            while True:
                dt = timed_step(openspiel_ismcts(game, sims, seed + i), states[i])
                if dt >= seconds * PEER_PROBE:
                    break
                sims *= 2
            counts[i] = max(2, round(sims * seconds / dt))
        bot = openspiel_ismcts(game, counts[i], seed + i)
        return counts[i] / timed_step(bot, states[i]), None, None
    return run


def weigh_python_peer(row, game, state, sims, seed):
    """Bytes per information-set node of OpenSpiel's Python ISMCTS, by tracemalloc over
    one search of ``sims`` simulations; the bot keeps its tree after the move."""
    bot = openspiel_ismcts(game, sims, seed)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        bot.step(state)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    nodes = len(bot._nodes)   # the tree of OpenSpiel's bot, one entry per node
    row.nodes_per_it = nodes / sims
    row.node_bytes = grown / nodes


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
        path = os.path.join(MODELS.name, f"{name}.npz")
        random_model(game, HIDDEN, seed).save(path)
        for tag, params in GUIDED:
            row = Row(name, f"ismcts(model=random{tag})", None, rollout=None)
            row.guided = True
            row.search = our_searcher(row, "ismcts", {**params, "model": path}, game, states,
                                      seed)
            rows.append(row)
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


def find(rows, game, searcher):
    return next(r for r in rows if r.game == game and r.searcher == searcher)


# --- a network in the search ----------------------------------------------------------

# Where the random models the guided rows read are written.
MODELS = tempfile.TemporaryDirectory(prefix="cardarena-bench-")


def tensors(game, seed):
    """TENSORS observation tensors of the player to move, from the decisions of seeded
    random games, and the median count of legal moves there."""
    xs, legal = [], []
    game_seed = seed * 1000
    while len(xs) < TENSORS:
        steps, _ = random_game(game.new_initial_state, game_seed)
        game_seed += 1
        st = game.new_initial_state()
        for a in steps:
            if not st.is_chance_node() and len(xs) < TENSORS:
                xs.append(st.observation_tensor(st.current_player()))
                legal.append(len(st.legal_actions()))
            st.apply_action(a)
    return np.array(xs), int(statistics.median(legal))


def evaluation_us(game, hidden, xs, moves, seed, repeats):
    """Microseconds of one evaluation of a random network with ``hidden`` layers: the
    fastest of ``repeats`` batches of BATCH, over the tensors ``xs`` in turn, with a
    policy over ``moves`` legal moves.  The time is the thread's CPU time: the
    evaluations run in this thread, and the machine's other work does not count."""
    model = random_model(game, hidden, seed)
    batch = np.resize(xs, (BATCH, xs.shape[1]))
    legal = list(range(min(moves, game.num_distinct_actions)))
    best = math.inf
    for _ in range(repeats):
        t = time.thread_time()
        model.predict(batch, legal)
        best = min(best, time.thread_time() - t)
    return best / BATCH * 1e6


def network_cells(rows, seed, repeats):
    out = []
    for name in core.GAMES:
        game = core.load_game(name)
        xs, moves = tensors(game, seed)
        plain = find(rows, name, "ismcts")
        cost = evaluation_us(game, HIDDEN, xs, moves, seed, repeats)
        cells = [name, "-".join(map(str, (xs.shape[1], *HIDDEN))), num(moves), num(cost),
                 num(plain.rate)]
        for tag, _ in GUIDED:
            row = find(rows, name, f"ismcts(model=random{tag})")
            cells += [num(row.rate), ratio(row.rate, plain.rate)]
        out.append(cells)
    return out


NETWORK_HEADERS = ["game", "random network", "legal moves", "µs/evaluation", "ismcts it/s",
                   "with model it/s", "×", "value_weight=0.5 it/s", "×"]


def network_notes():
    return [
        f"A network in the search, with random weights (untrained) of hidden layers "
        f"{'-'.join(map(str, HIDDEN))}: random network is its sizes, from the observation "
        "tensor's to the last hidden layer's; legal moves, the median over the decisions "
        "the tensors come from; µs/evaluation, one evaluation in CPU time, the fastest of "
        f"batches of {BATCH:,} over {TENSORS} tensors from seeded random games, its policy "
        "over that many moves.",
        "ismcts it/s: the first table's row; with model: ismcts(model=...) with the "
        "value alone at the leaves (no rollout); value_weight=0.5: the value and a random "
        "rollout's payoff, half each; ×, over ismcts without a model. The observation "
        "tensor is filled by each game through the contract's c_observation_tensor; where "
        "a game fills it only in Python (the contract's fallback), the searcher takes the "
        "GIL at every evaluation.",
    ]


def sizes_table(seed, repeats, table):
    """One evaluation's cost for each hidden layer size in SIZES, on every ruleset's
    tensor, beside one ismcts iteration without a model."""
    body = []
    for name in core.GAMES:
        game = core.load_game(name)
        xs, moves = tensors(game, seed)
        states = [replay(game.new_initial_state, h) for h in positions(game.new_initial_state,
                                                                        seed)]
        costs = []
        for st in states:
            t = time.thread_time()
            result = search.MCTS(game, iterations=ITERATION_COST[name], seed=seed).search(st)
            costs.append((time.thread_time() - t) / result.iterations)
        iteration = statistics.median(costs) * 1e6
        body.append([name, num(xs.shape[1]), num(moves), num(iteration)]
                    + [num(evaluation_us(game, h, xs, moves, seed, repeats)) for h in SIZES])
    headers = ["game", "features", "legal moves", "ismcts µs/iteration"] + [
        "-".join(map(str, h)) for h in SIZES]
    return table(headers, body, 1)


# --- the million-iteration tree --------------------------------------------------------

def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def million(seed):
    """One SO-ISMCTS search of MILLION iterations on the first Shrine position, with
    full random rollouts: (nodes, bytes per node, resident-memory growth, seconds).  The
    tree is one array that doubles as it fills, so its memory is the resident growth,
    not nodes times bytes."""
    game = core.load_game("shrine")
    state = replay(game.new_initial_state, positions(game.new_initial_state, seed)[0])
    searcher = search.MCTS(game, "so", iterations=MILLION, seed=seed)
    gc.collect()
    before = resident_bytes()
    result = searcher.search(state)
    return result.nodes, searcher.node_bytes, resident_bytes() - before, result.seconds


# --- the match -------------------------------------------------------------------------

def wilson(k, n, z=1.96):
    """The 95% Wilson score interval of a rate of ``k`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def play(game, bots, seed, clock):
    """One game between ``bots`` (one per seat), chance drawn from ``seed``; each
    searched move's wall time is added to ``clock`` under the mover's seat.  Every bot
    is told every other move and chance outcome, as OpenSpiel's ``evaluate_bots``
    does, so a bot that keeps its tree can.  Returns the returns."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        p = state.current_player()
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            action = rng.choices(actions, probs)[0]
        elif len(state.legal_actions()) == 1:
            action = state.legal_actions()[0]
        else:
            t0 = time.perf_counter()
            action = bots[p].step(state)
            clock[p].append(time.perf_counter() - t0)
        for other, bot in enumerate(bots):
            if other != p:
                bot.inform_action(state, p, action)
        state.apply_action(action)
    return state.returns()


def match_specs(opponent, seconds, ours):
    """The two bots of a match: ours, and the opponent's."""
    more = f",{ours}" if ours else ""
    if opponent == "threads":
        return (f"ismcts(seconds={seconds:g},threads=2{more})",
                f"ismcts(seconds={seconds:g}{more})")
    return f"ismcts(seconds={seconds:g}{more})", f"openspiel_ismcts(seconds={seconds:g})"


def match(game_name, opponent, games, seconds, seed, ours, out):
    """``games`` games of ``game_name`` between our ismcts and the opponent at
    ``seconds`` per move: OpenSpiel's ISMCTS (its Python bot on our games, its C++ bot
    on its own), or with ``opponent="threads"``, ismcts on one thread against ours on
    two, both with ``ours``' parameters.  Ours takes each seat in turn against the opponent in every other seat, each
    deal once per seat.  A line per game as it ends, then the tally: a game is won
    when ours scores more than the opponents' mean, and the margin is that
    difference."""
    game = core.load_game(game_name) if core.parse_spec(game_name)[0] in core.GAMES \
        else pyspiel.load_game(game_name)
    n = game.num_players() if callable(getattr(game, "num_players", None)) else game.num_players
    mine, theirs = match_specs(opponent, seconds, ours)
    wins = losses = draws = 0
    margins = []
    by_deal = {}
    times = {"ours": [], "peer": []}
    out(f"match on {game_name}: {mine} against {theirs}, {games} games, seed {seed}")
    load = os.getloadavg()[0]
    for i in range(games):
        deal, seat = seed * 1000 + i // n, i % n
        specs = [mine if p == seat else theirs for p in range(n)]
        bots = [search.make_bot(s, game, p, seed=deal * n + p) for p, s in enumerate(specs)]
        clock = [[] for _ in range(n)]
        t0 = time.perf_counter()
        returns = play(game, bots, deal, clock)
        times["ours"] += clock[seat]
        times["peer"] += [t for p in range(n) if p != seat for t in clock[p]]
        margin = returns[seat] - statistics.fmean(r for p, r in enumerate(returns) if p != seat)
        margins.append(margin)
        by_deal.setdefault(deal, []).append(margin)
        wins, losses, draws = wins + (margin > 0), losses + (margin < 0), draws + (margin == 0)
        outcome = "win" if margin > 0 else "loss" if margin < 0 else "draw"
        out(f"  game {i + 1}: deal {deal}, ours in seat {seat}: {outcome}, margin {margin:+g}; "
            f"{len(clock[seat])} + {sum(len(clock[p]) for p in range(n) if p != seat)} "
            f"searched moves, {time.perf_counter() - t0:.0f} s; so far +{wins} -{losses} "
            f"={draws}")
    score = (wins + 0.5 * draws) / games
    low, high = wilson(wins + 0.5 * draws, games)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(games) if games > 1 else math.inf
    spent = {k: statistics.fmean(v) if v else 0.0 for k, v in times.items()}
    out(f"{mine} against {theirs} on {game_name} at {seconds:g} s per move: {games} "
        f"game{'s' if games > 1 else ''}, {wins} won, {losses} lost, {draws} drawn; score "
        f"{score:.3f}, 95% Wilson interval {low:.3f}-{high:.3f}; mean margin {mean:+.3f} "
        f"± {half:.3f} (95%)")
    # A deal played from every seat is one draw of the cards: the games of one deal
    # share its luck, so the deals, not the games, are the independent samples, and
    # their mean margins vary less than single games' do.
    deals = [statistics.fmean(v) for v in by_deal.values() if len(v) == n]
    if len(deals) > 1:
        mean = statistics.fmean(deals)
        half = 1.96 * statistics.stdev(deals) / math.sqrt(len(deals))
        out(f"by deal, ours in each of the {n} seats: {len(deals)} deals, mean margin "
            f"{mean:+.3f} ± {half:.3f} (95%)")
    out(f"mean seconds per searched move: ours {spent['ours']:.3f}, "
        f"opponent {spent['peer']:.3f}; the machine's load average (of {os.cpu_count()} "
        f"cores) {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    # The margin, not the score, says who is stronger: with more than two players, or
    # payoffs spread unevenly, an even match need not score one half.
    verdict = "ours is stronger" if mean - half > 0 else "the opponent is stronger" \
        if mean + half < 0 else "no difference shown"
    out(f"verdict at 95%, by the margin{' over deals' if len(deals) > 1 else ''}: {verdict}")
    if game_name == "shrine" and opponent == "openspiel":
        goal = "met" if score >= GOAL_WIN_RATE else "NOT met"
        out(f"goal: at least {GOAL_WIN_RATE:.0%} wins against OpenSpiel's Python ISMCTS at 1 s "
            f"per move -- {goal if seconds == 1 else 'not measured here'}")


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
                  lambda line: print(line, flush=True))
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
