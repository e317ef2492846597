"""Players as ``pyspiel.Bot`` objects, made from specs in OpenSpiel's own syntax, such
as ``make_bot("ismcts(iterations=200,rollout=heuristic)", game, player=0, seed=1)``;
docs/search.md shows them at work.

A bot plays any game: one of ours (a ``core.Game``, or the ``pyspiel.Game`` that
importing ``core`` registers), or any other ``pyspiel.Game``, which our searchers see
through ``core.ForeignGame``.  ``step`` takes a ``pyspiel.State`` or one of our states.
"""
import math
import random
import time

import numpy as np
import pyspiel

import core
from core.errors import ParameterError
from core.foreign import written
from core.spiel import SpielGame, SpielState
from search.expectimax import Expectimax
from search.mcts import MCTS, SearchError
from search.model import load_model

# --- parameters -------------------------------------------------------------------


class Param:
    """One parameter of a bot kind: its default (which fixes its type), what it means,
    and the values it accepts (``choices``, or a closed range ``low``..``high``)."""

    def __init__(self, default, help, *, choices=None, low=None, high=None, accepts=None):
        self.default, self.help, self.choices = default, help, choices
        self.low, self.high, self.accepts = low, high, accepts

    def read(self, kind, name, value):
        where = f"{kind}: {name}"
        kind_of = type(self.default)
        if isinstance(value, str):
            value = _parse(value, kind_of, where)
        elif kind_of is float and isinstance(value, (int, np.integer)) \
                and not isinstance(value, bool):
            value = float(value)
        if type(value) is not kind_of and not (kind_of is int and isinstance(value, np.integer)):
            raise ParameterError(f"{where} is {_a(kind_of)}, not {value!r}")
        # Python reads "nan" and "inf" as floats; no parameter means anything by them,
        # and a NaN passes every range check.
        if kind_of is float and not math.isfinite(value):
            raise ParameterError(f"{where} is a finite number, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise ParameterError(f"{where} is one of {', '.join(self.choices)}, not {value!r}")
        if self.low is not None and value < self.low or self.high is not None \
                and value > self.high:
            raise ParameterError(f"{where} must be {self.range()}, not {value}")
        return value

    def range(self):
        if self.choices is not None:
            return "|".join(self.choices)
        if self.high is None:
            return f">= {self.low}"
        return f"{self.low}..{self.high}"


class _ModelOr(Param):
    """A number in ``low``..``high``, or ``"model"``: the model's own."""

    def __init__(self, help, low, high):
        super().__init__("model", help, low=low, high=high,
                         accepts=f"model|{low:g}..{high:g}")

    def read(self, kind, name, value):
        if value == "model":
            return value
        return Param(float(self.low), self.help, low=self.low, high=self.high).read(
            kind, name, value)


def _a(kind):
    return {int: "an integer", float: "a number", bool: "true or false", str: "a word"}[kind]


def _parse(text, kind, where):
    try:
        if kind is bool:
            if text.lower() in ("true", "1", "yes"):
                return True
            if text.lower() in ("false", "0", "no"):
                return False
            raise ValueError
        return kind(text)
    except ValueError:
        raise ParameterError(f"{where} is {_a(kind)}, not {text!r}") from None


class Kind:
    """A kind of bot: a one-line description, its parameters, and how to build it."""

    def __init__(self, name, help, params, build):
        self.name, self.help, self.params, self.build = name, help, params, build


KINDS = {}


def _kind(name, help, **params):
    def register(build):
        KINDS[name] = Kind(name, help, params, build)
        return build
    return register


_BUDGET = dict(
    iterations=Param(1000, "search iterations per move", low=1),
    seconds=Param(0.0, "wall time per move; when above 0 it replaces iterations", low=0.0),
)
_MCTS = dict(
    _BUDGET,
    uct_c=Param(0.7, "UCB exploration constant, payoffs scaled to [0, 1]", low=0.0),
    avail=Param("edge", "where a new edge's availability count, behind UCB's "
                "exploration bonus, starts: 'edge', at its first visit; 'parent', at its "
                "parent's visits, as if it had been available in each",
                choices=("edge", "parent")),
    rollout=Param("random", "rollout policy", choices=("random", "heuristic")),
    epsilon=Param(0.1, "heuristic rollouts: chance of a random move instead", low=0.0,
                  high=1.0),
    rollout_depth=Param(0, "cut rollouts after this many moves and score them with the "
                        "game's evaluate; 0 plays to the end", low=0),
    threads=Param(1, "threads searching side by side; the iterations are shared among "
                  "them", low=1),
    parallel=Param("tree", "how threads share a search: 'tree', all in the same trees "
                   "with virtual loss; 'root', each its own trees, their root statistics "
                   "summed", choices=("tree", "root")),
    reuse=Param(False, "start each search from the last one's tree where the moves "
                "since lead, if the bot was told every move and chance outcome"),
    blunder=Param(0.0, "chance of a random legal move in place of a search: a player "
                  "weaker than its budget alone makes it", low=0.0, high=1.0),
    model=Param("none", "a network to guide the search: a model file, or the game's own",
                accepts="none|default|PATH"),
    puct_c=Param(0.6, "with a model: PUCT's exploration constant, payoffs scaled to "
                 "[0, 1]; it replaces uct_c", low=0.0),
    value_weight=_ModelOr("with a model: the weight of its value at a leaf, the rest "
                          "going to a rollout's payoff; 1 plays no rollout; 'model', the "
                          "weight it was trained with", low=0.0, high=1.0),
    value_view=Param("actor", "with a model: whose knowledge its value reads at a leaf "
                     "of a sampled world, the player to move there or the searcher",
                     choices=("actor", "searcher")),
)
_PEER = dict(
    _BUDGET,
    uct_c=Param(2.0, "UCB exploration constant, on the game's own payoffs", low=0.0),
    rollouts=Param(1, "random rollouts per leaf evaluation", low=1),
)


# --- bots -------------------------------------------------------------------------


class Bot(pyspiel.Bot):
    """A bot for one seat of one game.  ``spec`` is its normalised spec string;
    ``last`` holds the search result behind its latest move (None for bots that do
    not search); ``deadline``, a :class:`search.clock.Deadline` or None, bounds the
    time of its moves whatever its budget."""

    def __init__(self, engine, player, spec):
        pyspiel.Bot.__init__(self)
        self.engine, self.player, self.spec = engine, player, spec
        self.last = None
        self.deadline = None

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_policy(self):
        return True

    def step(self, state):
        return self.step_with_policy(state)[1]

    def step_with_policy(self, state):
        """``(policy, action)`` for the player to move, which must be this bot's."""
        state = _core_state(self.engine, state)
        if state.game != self.engine:
            raise SearchError(_other_game(self.engine, state.game))
        self._check_seat(state)
        return self._choose(state)

    def _check_seat(self, state):
        if state.current_player() != self.player:
            raise SearchError(f"a bot for player {self.player} was asked to move for "
                              f"{_who(state.current_player())}")

    def __repr__(self):
        return f"<{type(self).__name__} {self.spec} for player {self.player}>"


class RandomBot(Bot):
    def __init__(self, engine, player, spec, seed):
        super().__init__(engine, player, spec)
        self.rng = random.Random(seed)

    def _choose(self, state):
        legal = state.legal_actions()
        return [(a, 1 / len(legal)) for a in legal], self.rng.choice(legal)


class GreedyBot(RandomBot):
    def _choose(self, state):
        seed = self.rng.getrandbits(63)
        world = state.determinized(self.player, seed) if self.engine.can_determinize \
            else state
        action = world.heuristic_action(seed)
        if action is None:
            return super()._choose(state)
        return [(action, 1.0)], action


class SearchBot(Bot):
    """A searcher's bot.  One whose searcher keeps its trees (``reuse``) follows the
    game in a copy of the state, moved on by its own moves and by ``inform_action``;
    a search continues the last one's trees only if that copy is the state it is
    given, so a harness that does not tell every move and chance outcome costs only
    the reuse."""

    def __init__(self, engine, player, spec, searcher, one_hot, blunder=0.0, seed=0):
        super().__init__(engine, player, spec)
        self.searcher, self.one_hot = searcher, one_hot
        self.reuse = getattr(searcher, "reuse", False)
        self.shadow = None
        self.blunder, self.rng = blunder, random.Random(seed)

    def restart_at(self, state):
        self._lose_track()

    def inform_action(self, state, player_id, action):
        if self.shadow is not None:
            self._follow(_core_state(self.engine, state), action)

    def _choose(self, state):
        if self.reuse and self.shadow != state:
            self._lose_track()
        legal = state.legal_actions()
        if len(legal) == 1 or self.blunder and self.rng.random() < self.blunder:
            # One move to play, or a blunder: a search would only spend the budget.
            self.last = None
            action = legal[0] if len(legal) == 1 else self.rng.choice(legal)
            policy = [(action, 1.0)]
        else:
            errors = getattr(self.engine, "errors", None)
            seen = len(errors) if errors is not None else 0
            self.last = result = self.searcher.search(state, deadline=self.deadline)
            if errors is not None and len(errors) > seen:
                raise SearchError(f"{self.engine} refused a move during the search: "
                                  f"{errors[-1]}")
            action = result.action
            policy = [(action, 1.0)] if self.one_hot else list(result.policy().items())
            if self.reuse:
                self.shadow = state.clone()
        if self.shadow is not None:
            self.searcher.follow(self.shadow, action)
            self.shadow.apply_action(action)
        return policy, action

    def _follow(self, state, action):
        if self.shadow != state:
            self._lose_track()
            return
        self.searcher.follow(self.shadow, action)
        self.shadow.apply_action(action)

    def _lose_track(self):
        self.shadow = None
        if self.reuse:
            self.searcher.forget()


class PolicyBot(RandomBot):
    """A network's policy over the legal moves, read from what the player to move
    knows, played with no search; its policy is the network's."""

    def __init__(self, engine, player, spec, model, temperature, seed):
        super().__init__(engine, player, spec, seed)
        self.model, self.temperature = model, temperature

    def _choose(self, state):
        policy = self.model.evaluate(state)[1]
        if self.temperature == 0:
            action = max(policy, key=lambda a: (policy[a], -a))
        else:
            # p ** (1 / t), scaled by the likeliest move's so that no weight underflows.
            top = max(policy.values())
            weights = [(p / top) ** (1 / self.temperature) for p in policy.values()]
            action = self.rng.choices(list(policy), weights)[0]
        return list(policy.items()), action


class PeerBot(Bot):
    """One of OpenSpiel's own bots, given our states as pyspiel states, with its
    simulation count matched to a time per move when ``seconds`` is set: a search's
    count comes from the rate the previous search measured (100 on the first), at most
    ``GROWTH`` times the previous search's count, and a move searches again, in the
    time it has left, until half its time is spent; it plays its last search's move."""

    # A search's rate holds for searches of about its size only: a tree grows slower
    # per simulation as it deepens, and a first probe's rate, taken over a millisecond,
    # is mostly noise; sized from it alone, moves overran their time by more than half.
    GROWTH = 4

    def __init__(self, engine, player, spec, spiel_game, make, iterations, seconds):
        super().__init__(engine, player, spec)
        self.spiel_game, self.make = spiel_game, make
        self.iterations, self.seconds, self.rate = iterations, seconds, None
        self.sims = 100
        self.bot = make(iterations)

    def step_with_policy(self, state):
        state = self._spiel_state(state)
        self._check_seat(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)], legal[0]
        if self.seconds <= 0:
            return self._bounded(self.bot, state)
        start = last = time.perf_counter()
        left = self.seconds
        while True:
            # OpenSpiel's Python ISMCTS needs two simulations to have a visited child.
            if self.rate is not None:
                self.sims = max(2, min(int(self.rate * left), self.GROWTH * self.sims))
            sims = self.sims
            self.bot = self.make(sims)
            policy, action = self._bounded(self.bot, state)
            now = time.perf_counter()
            self.rate = sims / max(now - last, 1e-6)
            left = self.seconds - (now - start)
            # A search that ended early (the first move's probe, or a rate misjudged
            # by a pause) leaves time for another, sized by the rate it measured.
            if left < self.seconds / 2 or self.deadline is not None and self.deadline.passed:
                return policy, action
            last = now

    def _bounded(self, bot, state):
        """``bot.step_with_policy(state)``, cut short once ``deadline`` passes: then
        the move most visited so far, after two simulations at least.  OpenSpiel's
        Python bots run their simulations in one loop with no way out, so one is
        stopped by an exception from inside it, and its tree read where it keeps it
        (ISMCTS keeps its root on the bot; MCTS passes it to every simulation).  Its
        C++ bots play OpenSpiel's own games only, and are not cut short."""
        deadline = self.deadline
        if deadline is None or not hasattr(bot, "run_simulation") \
                and not hasattr(bot, "_apply_tree_policy"):
            return bot.step_with_policy(state)
        done, roots = [0], []

        def in_time():
            if done[0] >= 2 and deadline.passed:
                raise _OutOfTime
            done[0] += 1

        if hasattr(bot, "run_simulation"):
            simulate = bot.run_simulation

            def run_simulation(world):
                in_time()
                return simulate(world)
            bot.run_simulation = run_simulation
        else:
            descend = bot._apply_tree_policy

            def apply_tree_policy(root, world):
                in_time()
                roots[:] = [root]
                return descend(root, world)
            bot._apply_tree_policy = apply_tree_policy
        try:
            return bot.step_with_policy(state)
        except _OutOfTime:
            pass
        if roots:
            best = roots[0].best_child().action
        else:
            policy = bot.get_final_policy(state, bot._root_node)
            best = max(policy, key=lambda p: (p[1], -p[0]))[0]
        return [(best, 1.0)], best

    def _spiel_state(self, state):
        """``state`` as a pyspiel state of this bot's game."""
        if isinstance(state, core.GameState):
            if state.game != self.engine:
                raise SearchError(_other_game(self.engine, state.game))
            if isinstance(self.engine, core.ForeignGame):
                # A ForeignState keeps its pyspiel state to itself; its history
                # rebuilds one.
                spiel_state = self.spiel_game.new_initial_state()
                for action in state.to_dict()["history"]:
                    spiel_state.apply_action(action)
                return spiel_state
            return SpielState(self.spiel_game, state.clone())
        if isinstance(state, pyspiel.State):
            other = state.get_game()
            if str(other) != str(self.spiel_game):
                raise SearchError(_other_game(self.engine, other))
            return state
        raise SearchError(f"not a state of {self.engine}: {state!r}")


class _OutOfTime(Exception):
    """Raised inside one of OpenSpiel's searches when its deadline has passed."""


def _other_game(engine, game):
    return f"a bot for {engine} was given a state of {written(str(game))}"


def _who(player):
    return {core.CHANCE_PLAYER: "chance", core.TERMINAL_PLAYER: "a finished game"}.get(
        player, f"player {player}")


@_kind("random", "a uniformly random legal move")
def _random(engine, player, spec, seed):
    return RandomBot(engine, player, spec, seed)


@_kind("greedy", "the game's heuristic move in a world sampled from what the bot knows "
       "(random where the game offers none)")
def _greedy(engine, player, spec, seed):
    return GreedyBot(engine, player, spec, seed)


def _mcts_bot(mode, **fixed):
    def build(engine, player, spec, seed, iterations, seconds, uct_c, avail, rollout,
              epsilon, rollout_depth, threads, parallel, reuse, blunder, model, puct_c,
              value_weight, value_view, **more):
        searcher = MCTS(engine, mode, iterations=iterations, seconds=seconds, uct_c=uct_c,
                        avail=avail,
                        policy=rollout, epsilon=epsilon, rollout_depth=rollout_depth,
                        threads=threads, parallel=parallel, reuse=reuse, seed=seed,
                        model=None if model == "none" else load_model(model, engine),
                        puct_c=puct_c, value_view=value_view,
                        value_weight=None if value_weight == "model" else value_weight,
                        **fixed, **more)
        return SearchBot(engine, player, spec, searcher, one_hot=False, blunder=blunder,
                         seed=seed)
    return build


_kind("ismcts", "single-observer information-set MCTS (Cowling, Powley and Whitehouse "
      "2012)", **_MCTS)(_mcts_bot("so"))
_kind("mo_ismcts", "multiple-observer ISMCTS: one tree per player, each from that "
      "player's view", **_MCTS)(_mcts_bot("mo"))
_kind("determinized", "UCT on each of several sampled worlds, which vote for the move",
      worlds=Param(8, "worlds sampled; the budget is shared among them", low=1),
      **_MCTS)(_mcts_bot("perfect"))
@_kind("cheater", "search on the true state, hidden cards and all: the yardstick for "
       "what hidden information costs",
       tree=Param("perfect", "'perfect': one UCT tree on the true state; 'searcher': "
                  "ismcts's tree, handed the true state where ismcts samples a world, so "
                  "that against ismcts only the information differs",
                  choices=("perfect", "searcher")),
       **_MCTS)
def _cheater(engine, player, spec, seed, tree, **params):
    mode = "perfect" if tree == "perfect" else "so"
    return _mcts_bot(mode, cheat=True)(engine, player, spec, seed, **params)


@_kind("policy", "a network's policy played without search: its likeliest move, or one "
       "drawn from it",
       model=Param("default", "the network: a model file, or the game's own",
                   accepts="default|PATH"),
       temperature=Param(0.0, "0 plays the likeliest move; above 0, a move drawn with "
                         "its probability to the power 1/temperature", low=0.0))
def _policy(engine, player, spec, seed, model, temperature):
    return PolicyBot(engine, player, spec, load_model(model, engine), temperature, seed)


@_kind("expectimax", "depth-limited expectimax with chance nodes over sampled worlds, "
       "the game's evaluate at the leaves",
       depth=Param(3, "steps searched, moves and chance outcomes alike", low=1),
       worlds=Param(8, "worlds sampled per move", low=1),
       star=Param(2, "chance-node pruning: 0 none, 1 Star1, 2 Star2", low=0, high=2))
def _expectimax(engine, player, spec, seed, depth, worlds, star):
    searcher = Expectimax(engine, depth=depth, worlds=worlds, star=star, seed=seed)
    return SearchBot(engine, player, spec, searcher, one_hot=True)


@_kind("openspiel_ismcts", "OpenSpiel's ISMCTS as a peer: its C++ bot on its C++ games, "
       "its Python bot on ours; random rollouts",
       python=Param(False, "OpenSpiel's Python bot on its C++ games too: it repeats its "
                    "moves under a seed, where the C++ one varies from process to process"),
       **_PEER)
def _openspiel_ismcts(engine, player, spec, seed, iterations, seconds, uct_c, rollouts,
                      python):
    from open_spiel.python.algorithms import ismcts, mcts
    if isinstance(engine, core.ForeignGame) and engine.checks_worlds:
        # Its C++ bot crashes the process on the impossible worlds it is handed.
        raise ParameterError(f"openspiel_ismcts cannot play {engine}: OpenSpiel's "
                             "resampler for it returns worlds that break its rules")
    game = _spiel_game(engine)
    rs = np.random.RandomState(seed % 2 ** 32)
    if python or isinstance(game, SpielGame):
        def make(sims):
            bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(rollouts, rs), uct_c,
                                   sims, random_state=rs)
            # Its own resampler draws from an unseeded sampler; this one repeats.
            bot.set_resampler(lambda state, player: state.resample_from_infostate(
                player, rs.uniform))
            return bot
    else:
        seed = _c_seed(seed)
        evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)

        def make(sims):
            return pyspiel.ISMCTSBot(seed, evaluator, uct_c, sims, -1,
                                     pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                     False, False)
    return PeerBot(engine, player, spec, game, make, iterations, seconds)


@_kind("openspiel_mcts", "OpenSpiel's MCTS as a peer, on the true state (so it sees "
       "hidden cards); C++ on its C++ games, Python on ours", **_PEER)
def _openspiel_mcts(engine, player, spec, seed, iterations, seconds, uct_c, rollouts):
    from open_spiel.python.algorithms import mcts
    game = _spiel_game(engine)
    rs = np.random.RandomState(seed % 2 ** 32)
    if isinstance(game, SpielGame):
        def make(sims):
            return mcts.MCTSBot(game, uct_c, sims, mcts.RandomRolloutEvaluator(rollouts, rs),
                                random_state=rs)
    else:
        seed = _c_seed(seed)
        evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)

        def make(sims):
            return pyspiel.MCTSBot(game, evaluator, uct_c, sims, 1000, False, seed, False)
    return PeerBot(engine, player, spec, game, make, iterations, seconds)


def _c_seed(seed):
    # OpenSpiel's C++ bots take a C int; any Python int is a seed here.
    return seed % 2 ** 31


# Kinds that need worlds sampled from a player's knowledge.
_SAMPLING = {"greedy", "ismcts", "mo_ismcts", "determinized", "expectimax"}


# --- making bots ------------------------------------------------------------------


def make_bot(spec, game, player, seed=0, deadline=None):
    """A ``pyspiel.Bot`` for seat ``player`` of ``game`` from a spec such as
    ``"ismcts(iterations=4000,uct_c=0.7,rollout=heuristic)"``; ``seed`` fixes every
    random choice it makes, and a :class:`search.clock.Deadline` bounds the time of
    its moves.  ``cardarena bots`` lists the kinds and their parameters.
    Raises :class:`~core.errors.ParameterError` for an unknown kind or parameter or a
    bad value, naming the valid choices."""
    kind, values = parse_bot(spec)
    engine = engine_game(game)
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) \
            or not 0 <= player < engine.num_players:
        raise ParameterError(f"player is a seat from 0 to {engine.num_players - 1}, "
                             f"not {player!r}")
    if kind in _SAMPLING and not engine.can_determinize:
        raise ParameterError(
            f"{kind} samples worlds from what a player knows, and {engine} cannot: "
            "use cheater, openspiel_mcts or random")
    text = bot_spec(kind, values)
    params = {k: p.default for k, p in KINDS[kind].params.items()}
    params.update(values)
    bot = KINDS[kind].build(engine, int(player), text, int(seed), **params)
    bot.deadline = deadline
    return bot


def parse_bot(spec):
    """``(kind, {parameter: value})`` from a spec string, with only the parameters it
    names, checked and typed."""
    name, raw = core.parse_spec(spec, "bot", "ismcts(iterations=4000,uct_c=0.7)")
    if name not in KINDS:
        raise ParameterError(f"unknown bot kind {name!r}; kinds: {', '.join(KINDS)}")
    params = KINDS[name].params
    values = {}
    for key, text in raw.items():
        if key not in params:
            raise ParameterError(f"{name} has no parameter {key!r}; its parameters: "
                                 + (", ".join(params) or "none"))
        values[key] = params[key].read(name, key, text)
    return name, values


def bot_spec(kind, values):
    """The spec string of a bot of ``kind`` with the parameters ``values``, as
    :func:`parse_bot` reads them back.

    >>> bot_spec("ismcts", {"iterations": 8, "reuse": True})
    'ismcts(iterations=8,reuse=true)'
    """
    return kind + (f"({','.join(f'{k}={_fmt(v)}' for k, v in values.items())})"
                   if values else "")


def _fmt(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def engine_game(game):
    """The game our searchers run on for ``game``: a ``core.Game`` itself, the core of
    one of ours registered with OpenSpiel, or a ``core.ForeignGame`` over any other
    ``pyspiel.Game``.  A string is loaded as ours if we have it, else by OpenSpiel."""
    if isinstance(game, str):
        name = core.parse_spec(game)[0]
        game = core.load_game(game) if name in core.GAMES else _load_spiel(game)
    if isinstance(game, (core.Game, core.ForeignGame)):
        return game
    if isinstance(game, SpielGame):
        return game.core
    if isinstance(game, pyspiel.Game):
        return core.ForeignGame(game)
    raise ParameterError(f"not a game: {game!r}")


def _load_spiel(text):
    # Asked first: OpenSpiel's error for a name it lacks lists every game it has.
    name = core.parse_spec(text)[0]
    if name not in pyspiel.registered_names():
        raise ParameterError(f"unknown game {name!r}: neither ours nor OpenSpiel's")
    try:
        return pyspiel.load_game(text)
    except pyspiel.SpielError as e:
        raise ParameterError(f"cannot load game {text!r}: {str(e).splitlines()[0]}") \
            from None


def _spiel_game(engine):
    if isinstance(engine, core.ForeignGame):
        return engine.spiel_game
    return pyspiel.load_game(str(engine))


def _core_state(engine, state):
    if isinstance(state, core.GameState):
        return state
    if isinstance(state, SpielState):
        return state.core
    if isinstance(state, pyspiel.State) and isinstance(engine, core.ForeignGame):
        if str(state.get_game()) != str(engine.spiel_game):
            raise SearchError(_other_game(engine, state.get_game()))
        return engine.wrap(state)
    raise SearchError(f"not a state of {engine}: {state!r}")


def describe():
    """Every bot kind with its parameters, defaults and a one-line description, as
    text."""
    lines = []
    for kind in KINDS.values():
        lines.append(f"{kind.name}: {kind.help}")
        for name, p in kind.params.items():
            lines.append(f"    {name}={_fmt(p.default)}  ({_accepts(p)})  {p.help}")
    return "\n".join(lines)


def _accepts(param):
    """The values ``param`` takes, as ``describe`` lists them."""
    if param.accepts is not None:
        return param.accepts
    if param.choices is None and param.low is None and param.high is None:
        return "true|false" if isinstance(param.default, bool) else _a(type(param.default))
    return param.range()
