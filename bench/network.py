"""A network in the search, for its cost alone: random weights of the chosen size, the
time of one evaluation, and the rows of ``ismcts(model=...)`` that bench/search.py times
beside ``ismcts`` without one."""
import math
import os
import statistics
import tempfile
import time

import numpy as np

import core
import search
from bench.positions import positions, random_game, replay
from bench.searchers import Row, find, our_searcher
from bench.tables import num, ratio
from search.model import random_model

HIDDEN = (128, 128)           # the network's hidden layers, chosen by --sizes (docs/learning.md)
SIZES = [(32,), (64,), (128,), (256,), (64, 64), (128, 128)]   # timed by --sizes
# Its value alone at the leaves; mixed half and half with random rollouts; its prior
# alone, with random rollouts, as the shipped models guide their searches.
GUIDED = [("", {}), (", value_weight=0.5", {"value_weight": 0.5}),
          (", value_weight=0", {"value_weight": 0})]
TENSORS = 200                 # observation tensors per game, for an evaluation's cost
# --sizes: iterations of the search whose CPU time per iteration it prints, about 0.2 s
ITERATION_COST = {"card_duel": 5000, "creature_shrines": 200, "energy_deckbuilder": 700,
                  "relinquish": 150, "shrine": 1000}
BATCH = 4000                  # evaluations per timed batch

# Where the random models the guided rows read are written.
MODELS = tempfile.TemporaryDirectory(prefix="cardarena-bench-")


def guided_rows(name, game, states, seed):
    """The rows of ismcts guided by a random network of HIDDEN layers on ``game``'s
    ``states``, as GUIDED lists them."""
    path = os.path.join(MODELS.name, f"{name}.npz")
    random_model(game, HIDDEN, seed).save(path)
    rows = []
    for tag, params in GUIDED:
        row = Row(name, f"ismcts(model=random{tag})", None, rollout=None)
        row.guided = True
        row.search = our_searcher(row, "ismcts", {**params, "model": path}, game, states,
                                  seed)
        rows.append(row)
    return rows


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
                   "with model it/s", "×", "value_weight=0.5 it/s", "×",
                   "value_weight=0 it/s", "×"]


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
        "rollout's payoff, half each; value_weight=0: the prior alone, with random "
        "rollouts, a new node evaluated at its second visit; ×, over ismcts without a "
        "model. The observation tensor is filled by each game through the contract's "
        "c_observation_tensor; where a game fills it only in Python (the contract's "
        "fallback), the searcher takes the GIL at every evaluation.",
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
