"""The searchers bench/search.py times, each a function that searches one of a game's
positions for about a given time: ours (``search.make_bot`` specs), expectimax, and
OpenSpiel's ISMCTS, whose budget is a simulation count; and the million-iteration tree."""
import gc
import os
import statistics
import time
import tracemalloc

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import core
import search
from bench.positions import POSITIONS, positions, replay
from core.spiel import SpielGame

PEER_PROBE = 0.1              # a peer's probe lasts at least this share of a search
MILLION = 1_000_000
CUT = 8                       # the rollout_depth of the cut-rollout row
PEER_UCT_C = 2.0              # openspiel_ismcts's default, on the game's own payoffs


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



def find(rows, game, searcher):
    return next(r for r in rows if r.game == game and r.searcher == searcher)



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
