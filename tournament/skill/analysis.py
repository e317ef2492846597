"""The skill ceiling of a game: how much skill its rules, and each variant of them,
reward.

A ladder of players climbs from random play through a greedy player to ISMCTS at
doubling iteration budgets, with the cheating MCTS (which sees every card) at the top
budget beside it.  The harness plays every rung against the ``reach`` rungs above it
on duplicate deals, each variant apart, and two self-play matches (random, and the top
ISMCTS rung) show the game's shape and its seat advantage.  ``measure`` turns the
stored games into figures:

- Elo of each rung, relative to random play, with 95% bootstrap intervals, and the Elo
  span from the lowest searcher rung to the highest: the variant's depth, what more
  thinking buys;
- the skill chain at 60% and 75% (Lantz, Isaksen, Jaffe, Nealen and Togelius 2017);
- Ludii's SkillTrace over the doubling ISMCTS rungs;
- every ladder step's score with two standard errors, as TAG's SkillLadder prints it;
- the first seat's score in self-play and Ludii's Balance;
- draws, games stopped by the harness's length limit, length in turns and in
  decisions, and the mean branching factor, under random and under strong play;
- the cheater's edge over ISMCTS at the same budget: what hidden information is worth;
- how often each rung chooses each kind of move (the game's ``action_kind``), and its
  score in games where it chose that kind against games where it did not.

``tournament.skill.report`` writes them as Markdown, JSON and plots.  Nothing here names a game.
"""
import collections
import dataclasses
import itertools
import math
import random
import statistics
import time

import numpy as np
import pyspiel

import core
import search
from core.errors import CardArenaError
from tournament.harness import config as configs
from tournament.skill.defaults import PLAYER
from tournament.skill.figures import (Chain, Chess, Clear, Deepest, Edge, Fairest,
                                      KindFigures, LadderRung, Lead, MeanScore,
                                      MoveFigures, RatedRung, Reading, Results, RunnerUp,
                                      Seat, Shape, Shapes, Share, SkillTrace, Span, Step,
                                      VariantFigures)
from tournament.sparring import levels
from tournament.stats.ratings import deal_weights, elo_samples, match_scores, wilson
from tournament.tables import count

# Kinds of bot whose strength grows with their iteration budget, any of which can be
# the ladder's searcher.
SEARCHERS = ("ismcts", "mo_ismcts", "determinized")
THRESHOLDS = (0.60, 0.75)


class SkillError(CardArenaError):
    """A skill analysis that cannot be run: a bad variant, ladder or option."""


# --- what is played ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Variant:
    """One ruleset: a name for people (``default``, or its parameters) and the game
    string the harness loads."""

    name: str
    game: str
    params: dict


@dataclasses.dataclass(frozen=True)
class Rung:
    name: str
    spec: str
    budget: int | None
    """Iterations per move; None for random and greedy."""
    blunder: float = 0.0
    """The searcher's chance of a random move in place of a search."""


@dataclasses.dataclass(frozen=True)
class Ladder:
    """The players of the analysis, weakest first: random, greedy, the searcher at each
    budget, and the cheater at the top budget (kept off the chain: it sees too much)."""

    player: str
    budgets: tuple
    blunders: tuple = ()
    """More rungs, as ``(budget, blunder)`` pairs: the searcher at that budget
    playing a random move in place of a search with the chance ``blunder``."""

    @property
    def chain(self):
        """The rungs the skill chain climbs, weakest first (of two rungs at a budget,
        the one that blunders more first)."""
        points = sorted({(b, 0.0) for b in self.budgets} | set(self.blunders),
                        key=lambda point: (point[0], -point[1]))
        return [Rung("random", "random", None), Rung("greedy", "greedy", None)] \
            + [rung(self.player, budget, blunder) for budget, blunder in points]

    @property
    def searchers(self):
        """The searcher's rungs, weakest first."""
        return [r for r in self.chain if r.budget is not None]

    @property
    def top(self):
        return self.searchers[-1]

    @property
    def cheater(self):
        _, values = search.parse_bot(self.player)
        values = {k: v for k, v in values.items() if k in search.KINDS["cheater"].params}
        return Rung(f"cheater-{self.budgets[-1]}", _spec("cheater", values, self.budgets[-1]),
                    self.budgets[-1])

    @property
    def rungs(self):
        return self.chain + [self.cheater]


def rung(player, budget, blunder=0.0):
    """The rung of ``player`` (a searcher's spec without a budget) at ``budget``
    iterations a move, playing a random move in place of a search with the chance
    ``blunder``."""
    kind, _ = search.parse_bot(player)
    name = f"{kind}-{budget}" + (f"-blunder{blunder:g}" if blunder else "")
    return Rung(name, levels.spec(player, budget, blunder), budget, blunder)


def check_player(player):
    """Raise SkillError unless ``player`` is the spec of one of ``SEARCHERS`` without a
    budget, which a ladder sets."""
    try:
        kind, values = search.parse_bot(player)
    except CardArenaError as e:
        raise SkillError(f"--player: {e}") from None
    if kind not in SEARCHERS:
        raise SkillError(f"--player is a searcher whose budget the ladder doubles "
                         f"({', '.join(SEARCHERS)}), not {kind}")
    if "iterations" in values or values.get("seconds"):
        raise SkillError("--player: the ladder sets the iterations; leave out "
                         "iterations and seconds")


def doublings(low, high):
    """``low`` and its doublings up to at most ``high``.

    >>> doublings(8, 100)
    (8, 16, 32, 64)
    """
    budgets = []
    while low <= high:
        budgets.append(low)
        low *= 2
    return tuple(budgets)


def ladder(player=PLAYER, low=8, high=1024):
    """The ladder of ``player`` (a spec of one of ``SEARCHERS``, without a budget) at
    the doubling budgets from ``low`` up to at most ``high``."""
    check_player(player)
    if low < 1:
        raise SkillError(f"--min-budget is at least 1, not {low}")
    budgets = doublings(low, high)
    if len(budgets) < 3:
        raise SkillError("the ladder needs at least three budgets, so that SkillTrace "
                         "has two levels to fit a line to: --max-budget must be at least "
                         f"4 times --min-budget ({low})")
    return Ladder(player, budgets)


def _spec(kind, values, budget):
    return configs.bot_spec(kind, dict(iterations=budget, **values))


def variants(game, given=(), grid=()):
    """The variants of ``game`` to compare: each of ``given`` (``"default"`` or
    ``"name=value,..."``), then every combination of the ``grid`` lines
    (``"name=v1,v2,..."``); the default rules alone when both are empty."""
    try:
        name, base = core.parse_spec(game)
    except CardArenaError as e:
        raise SkillError(str(e)) from None
    if name not in pyspiel.registered_names():
        raise SkillError(configs.unknown_game(name))
    wanted = []
    for text in given:
        text = text.strip()
        if text in ("", "default"):
            wanted.append({})
            continue
        try:
            _, params = core.parse_spec(f"{name}({text})")
        except CardArenaError:
            raise SkillError(f"--variant {text!r}: write name=value pairs separated by "
                             "commas, e.g. alt_heal=true") from None
        wanted.append(params)
    axes = []
    for line in grid:
        key, eq, values = line.partition("=")
        key, values = key.strip(), [v.strip() for v in values.split(",") if v.strip()]
        if not eq or not key or not values:
            raise SkillError(f"--grid {line!r}: write one parameter and its values, "
                             "e.g. life=15,22,30")
        if any(axis[0][0] == key for axis in axes):
            raise SkillError(f"--grid: {key} is given twice; list all its values in "
                             "one line")
        axes.append([(key, v) for v in values])
    wanted += [dict(combination) for combination in itertools.product(*axes)] if axes \
        else []
    if not wanted:
        wanted = [{}]
    found, seen = [], []
    for params in wanted:
        merged = dict(base, **params)
        text = name + (f"({','.join(f'{k}={v}' for k, v in merged.items())})"
                       if merged else "")
        label = ",".join(f"{k}={v}" for k, v in params.items()) or "default"
        if any(v.name == label for v in found):
            raise SkillError(f"the variant {label} is asked for twice")
        try:
            loaded = configs.load_game(text)
        except pyspiel.SpielError as e:
            raise SkillError(f"variant {label}: cannot load {text!r}: "
                             f"{str(e).splitlines()[0]}") from None
        # Rules are the same when the loaded games' parameters are, defaults filled
        # in, however the variants spell them.
        rules = loaded.get_parameters()
        same = [v.name for v, other in zip(found, seen) if other == rules]
        if same:
            raise SkillError(f"the variants {same[0]} and {label} are the same rules")
        found.append(Variant(label, text, params))
        seen.append(rules)
    return found


@dataclasses.dataclass(frozen=True)
class Plan:
    """Everything an analysis plays: which games, which players, how many deals."""

    variants: list
    ladder: Ladder
    deals: int
    seed: int = 0
    reach: int = 1
    seconds_per_move: float = 60.0
    max_length: int = configs.DEFAULTS["max_length"]
    yardsticks: tuple = ()
    """Each variant's yardstick :class:`~tournament.skill.figures.Choice`
    (``yardstick.choose``), in the variants' order:
    its chosen player climbs that variant's ladder.  Without them, ``ladder``'s player
    climbs every variant's."""

    def ladder_of(self, variant):
        """The ladder ``variant`` is measured on."""
        for choice in self.yardsticks:
            if choice.variant == variant.name:
                return Ladder(choice.player, self.ladder.budgets)
        return self.ladder

    def alone(self, variant):
        """The plan of ``variant`` alone, on its own ladder."""
        return dataclasses.replace(self, variants=[variant], ladder=self.ladder_of(variant),
                                   yardsticks=())

    def pairs(self):
        """The matches between rungs as (weaker, stronger) names: every chain rung
        against the ``reach`` rungs above it, and the cheater against the top
        searcher."""
        chain = [r.name for r in self.ladder.chain]
        pairs = [(chain[i], chain[j]) for i in range(len(chain))
                 for j in range(i + 1, min(len(chain), i + 1 + self.reach))]
        return pairs + [(self.ladder.top.name, self.ladder.cheater.name)]

    def self_play(self):
        """The rungs that play themselves: random play, and the strongest fair play."""
        return ["random", self.ladder.top.name]

    def configs(self, variant):
        """The harness configs of ``variant``: one per pair, one per self-play."""
        if self.yardsticks:
            return self.alone(variant).configs(variant)
        specs = {r.name: r.spec for r in self.ladder.rungs}
        base = configs.Config(game=variant.game, bots=specs, deals=self.deals,
                              seed=self.seed, seconds_per_move=self.seconds_per_move,
                              max_length=self.max_length, kind="skill")
        # A self-play match seats one bot both ways round on each deal, so it plays
        # twice the deals to play as many games as a pair.
        return [base.only(pair) for pair in self.pairs()] \
            + [dataclasses.replace(base.only([name]), deals=2 * self.deals)
               for name in self.self_play()]

    def check(self):
        """Raise SkillError unless every variant can seat every rung."""
        if self.deals < 2:
            raise SkillError("--deals is at least 2: the intervals come from resampling "
                             "the deals")
        for variant in self.variants:
            data = {"game": variant.game, "deals": self.deals, "seed": self.seed,
                    "seconds_per_move": self.seconds_per_move, "max_length": self.max_length,
                    "bots": {r.name: r.spec for r in self.ladder_of(variant).rungs}}
            try:
                configs.parse(data)
            except configs.ConfigError as e:
                raise SkillError(f"variant {variant.name}: {e}") from None

    def check_cost(self, workers):
        """Raise SkillError if the plan would take longer than ``MOST_SECONDS`` on
        ``workers`` processes; the line says how long, from the length of random games
        and the searcher's time per iteration, measured here."""
        seconds = 0.0
        for v in self.variants:
            ladder = self.ladder_of(v)
            decisions, per_iteration = measure_cost(v.game, ladder.player)
            budget = {r.name: r.budget or 0 for r in ladder.rungs}
            seconds += sum(c.deals * decisions * per_iteration
                           * sum(sum(budget[n] for n in s) / len(s) for s in c.seatings())
                           for c in self.configs(v))
        top = self.ladder.budgets[-1]
        if seconds / workers > MOST_SECONDS:
            raise SkillError(f"--max-budget {top}, --deals {self.deals}: the analysis "
                             f"would take about {duration(seconds / workers)} on "
                             f"{count(workers, 'worker')} ({decisions:.0f} decisions a "
                             f"game, {1e6 * per_iteration:.1f} µs an iteration), beyond "
                             f"the {duration(MOST_SECONDS)} this runs: lower "
                             "--max-budget or --deals")

    def schedule(self):
        """Every config of every variant, the costliest first, so that the long games
        are not left for the end of a run, when workers would idle."""
        budget = {r.name: r.budget or 0 for v in self.variants
                  for r in self.ladder_of(v).rungs}
        every = [c for v in self.variants for c in self.configs(v)]
        return sorted(every, key=lambda c: -sum(budget[n] * (2 if len(c.bots) == 1 else 1)
                                               for n in c.bots))


# The longest analysis ``Plan.check_cost`` lets start: a typo in --max-budget (10^11)
# would otherwise run for years, its workers' trees growing past the machine's memory.
MOST_SECONDS = 7 * 86400
# The budget of the searcher timed to estimate an analysis's cost, and the random games
# whose length is taken.
PROBE_BUDGET = 256
PROBE_GAMES = 3


def measure_cost(game, player):
    """The mean number of decisions in a few seeded random games of ``game`` (a game
    string or a loaded game), and the seconds an iteration of ``player`` takes at
    decisions across them."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    rng = random.Random(0)
    decisions, positions = [], []
    for _ in range(PROBE_GAMES):
        state = game.new_initial_state()
        played = []
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                played.append(state.clone())
                state.apply_action(rng.choice(state.legal_actions()))
        decisions.append(len(played))
        if played:
            positions.append(played[len(played) // 2])
    kind, values = search.parse_bot(player)
    spec = _spec(kind, values, PROBE_BUDGET)
    start = time.perf_counter()
    for k, state in enumerate(positions):
        search.make_bot(spec, game, state.current_player(), seed=k).step(state)
    per_iteration = (time.perf_counter() - start) / max(1, len(positions)) / PROBE_BUDGET
    return statistics.fmean(decisions), per_iteration


def duration(seconds):
    """A length of time in the largest unit that keeps it above 1."""
    for unit, size in (("year", 365 * 86400), ("day", 86400), ("hour", 3600),
                       ("minute", 60)):
        if seconds >= size:
            return count(round(seconds / size), unit)
    return f"{seconds:.2g} s"


# --- the figures, from results --------------------------------------------------


def skill_chain(scores, rungs, threshold):
    """The length of the longest skill chain (Lantz et al. 2017) up the ladder
    ``rungs`` (weakest first): a sequence of rungs, each scoring at least
    ``threshold`` against the one before it.  ``scores[(a, b)]`` is b's score against
    a for the pairs that were played; the length counts the steps, so a ladder where
    no rung beats another has chains of length 0.

    >>> skill_chain({("r", "g"): 0.9, ("g", "s"): 0.55, ("r", "s"): 0.8}, ["r", "g", "s"], 0.6)
    1
    """
    longest = {}  # the longest chain ending at each rung
    for j, b in enumerate(rungs):
        longest[b] = max([longest[a] + 1 for a in rungs[:j]
                          if scores.get((a, b), -1) >= threshold], default=0)
    return max(longest.values(), default=0)


def skill_trace(results):
    """Ludii's SkillTrace from ``results``, the mean utility (-1 loss, 0 draw, +1 win)
    of the stronger player at each level of a doubling ladder, weakest level first.
    As Ludii computes it: the area is the sum of the positive results; a least-squares
    line through (level index, result) is read two levels past the last, and clamped
    to [0, 1]; the trace is y + (1 - y) * area / levels.

    >>> round(skill_trace([0.6, 0.4, 0.2]).trace, 4)
    0.4
    """
    n = len(results)
    if n < 2:
        raise ValueError("SkillTrace fits a line: it needs at least two levels")
    x = np.arange(n, dtype=float)
    slope, intercept = np.polyfit(x, np.asarray(results, dtype=float), 1)
    predicted = slope * (n + 1) + intercept
    y = min(max(predicted, 0.0), 1.0)
    area = sum(max(r, 0.0) for r in results)
    return SkillTrace(levels=list(map(float, results)), slope=float(slope),
                      intercept=float(intercept), predicted=float(predicted), y=float(y),
                      area=float(area), trace=float(y + (1 - y) * area / n))


def utilities(returns):
    """Each seat's utility from a game's returns, as Ludii ranks them: +1 for the best,
    -1 for the worst, evenly between, with tied seats sharing their places' mean."""
    n = len(returns)
    ranks = [0.5 + sum(r > x for r in returns) + 0.5 * sum(r == x for r in returns)
             for x in returns]  # 1 for the best; tied seats share the mean of their places
    return [1 - 2 * (rank - 1) / (n - 1) for rank in ranks]


def balance(rows):
    """Ludii's Balance of game rows: 1 minus the largest difference between two seats'
    win rates, a draw counted as part of a win ((utility + 1) / 2).  1 is perfectly
    fair.  (Ludii's code adds these parts into integers, losing every draw; this counts
    them, as its documentation says.)

    >>> from tournament.harness.row import GameRow
    >>> balance([GameRow(deal=0, seating=["a", "b"], returns=r)
    ...          for r in ([1, -1], [-1, 1], [0, 0])])
    1.0
    """
    rows = list(rows)
    seats = len(rows[0].returns)
    rates = [sum((utilities(r.returns)[p] + 1) / 2 for r in rows) / len(rows)
             for p in range(seats)]
    return 1 - max(abs(a - b) for a, b in itertools.combinations(rates, 2))


def scores_of(rows, bot, sides=None):
    """``bot``'s score in each match of ``rows`` against the other bot, side against
    side (``sides``: each seat alone by default): 1, 0.5 or 0."""
    found = []
    for row in rows:
        for a, b, score in match_scores(row, sides):
            found.append(score if a == bot else 1 - score)
    return found


def step(rows, lower, upper, sides=None):
    """One ladder step: ``upper``'s score against ``lower`` over ``rows`` with TAG's
    standard error (the standard deviation of the match scores over the square root of
    their number) and the 95% Wilson interval."""
    scores = scores_of(rows, upper, sides)
    n = len(scores)
    mean = sum(scores) / n
    se = math.sqrt(sum((s - mean) ** 2 for s in scores) / n / n)
    low, high = wilson(mean, n)
    return Step(lower=lower, upper=upper, games=n, score=mean, se=se, low=low, high=high)


def elo_of(score):
    """The Elo difference a score implies, capped at +-800 for a clean sweep."""
    if score <= 0 or score >= 1:
        return math.copysign(800.0, score - 0.5)
    return max(-800.0, min(800.0, -400 * math.log10(1 / score - 1)))


def resampled_scores(rows, bot, deals, weights, sides=None):
    """``bot``'s score against the other bot of ``rows`` on each resample of the deals:
    ``weights[k, i]`` is how many times resample k draws the deal ``deals[i]``
    (``ratings.deal_weights``).

    >>> from tournament.harness.row import GameRow
    >>> rows = [GameRow(deal=d, seating=["a", "b"], returns=[1, -1] if d else [-1, 1])
    ...         for d in range(2)]
    >>> resampled_scores(rows, "a", [0, 1], np.array([[2, 0], [1, 1]])).tolist()
    [0.0, 0.5]
    """
    column = {deal: i for i, deal in enumerate(deals)}
    points, matches = np.zeros(len(deals)), np.zeros(len(deals))
    for row in rows:
        for a, _, score in match_scores(row, sides):
            points[column[row.deal]] += score if a == bot else 1 - score
            matches[column[row.deal]] += 1
    return (weights @ points) / (weights @ matches)


def gain(scores):
    """The Elo a ladder climbs, step by step: the sum of the Elo each step's score
    implies (``elo_of``, capped at +-800), over the first axis of ``scores``."""
    scores = np.asarray(scores, dtype=float)
    with np.errstate(divide="ignore"):
        elo = 400 * np.log10(scores / (1 - scores))
    return np.clip(elo, -800, 800).sum(axis=0)


def chess_share(reference, other):
    """The "x%-chess" reading (Duersch, Lambrecht and Oechssler 2020): ``100 (1 - p)``
    for the share p of the reference's games that a fair coin would have to decide
    (each step score s becoming p / 2 + (1 - p) s) before the reference's ``gain``
    falls to the other's.  ``reference`` and ``other`` are step scores, the first axis
    the steps; further axes (resamples taken in step) give one reading each.  100
    where the other climbs at least as far as the reference, 0 where it climbs no Elo.

    >>> round(float(chess_share([0.9, 0.9], [0.7, 0.7])), 6)
    50.0
    """
    reference, other = np.asarray(reference, dtype=float), np.asarray(other, dtype=float)
    target, full = gain(other), gain(reference)
    low, high = np.zeros(np.shape(target)), np.ones(np.shape(target))
    # The diluted gain runs from the reference's at p = 0 to none at p = 1, so halving
    # keeps a crossing between low and high even where a step below 50% bends it.
    for _ in range(40):
        p = (low + high) / 2
        above = gain(p / 2 + (1 - p) * reference) > target
        low, high = np.where(above, p, low), np.where(above, high, p)
    x = 100 * (1 - (low + high) / 2)
    return np.where(target >= full, 100.0, np.where(target <= 0, 0.0, x))


def shape(game, rows):
    """How the games of ``rows`` that no bot failed went: draws, stops at the harness's
    length limit (not draws), decisions and turns (runs of decisions by one player) per
    game, and the mean number of legal moves at a decision, from replaying each history
    on ``game``.  Every figure is None without such a game."""
    rows = [r for r in rows if r.failed is None]
    if not rows:
        return Shape(games=0, draws=None, stopped=None, decisions_mean=None,
                     decisions_median=None, turns_mean=None, turns_median=None,
                     branching=None)
    decisions, turns, branching = [], [], []
    draws = stopped = 0
    for row in rows:
        state = game.new_initial_state()
        count = runs = 0
        last = None
        for action in row.history:
            if not state.is_chance_node():
                player = state.current_player()
                branching.append(len(state.legal_actions()))
                count += 1
                runs += player != last
                last = player
            state.apply_action(action)
        decisions.append(count)
        turns.append(runs)
        stopped += row.status == "length"
        draws += row.status != "length" and len(set(row.returns)) == 1
    n = len(rows)
    return Shape(games=n, draws=draws / n, stopped=stopped / n,
                 decisions_mean=statistics.fmean(decisions),
                 decisions_median=statistics.median(decisions),
                 turns_mean=statistics.fmean(turns), turns_median=statistics.median(turns),
                 branching=statistics.fmean(branching) if branching else 0.0)


def seat_advantage(rows, sides=None):
    """The first side's results in self-play (the first seat's, or its team's): wins
    (alone on top), draws (on top with others), its score (from 1 on top alone to 0
    last, Ludii's utility rescaled; draws half with two sides) with the 95% Wilson
    interval, and Ludii's Balance of the seats, over the games that ended: no bot
    failed, and the length limit did not stop them.  Every figure is None without
    such a game."""
    rows = [r for r in rows if r.status == "ok"]
    n = len(rows)
    if not n:
        return Seat(games=0, wins=None, draws=None, score=None, low=None, high=None,
                    balance=None)
    by_side = [[sum(r.returns[p] for p in side)
                for side in sides or [(p,) for p in range(len(r.returns))]] for r in rows]
    wins = sum(g[0] > max(g[1:]) for g in by_side)
    draws = sum(g[0] == max(g[1:]) for g in by_side)
    score = sum((utilities(g)[0] + 1) / 2 for g in by_side) / n
    low, high = wilson(score, n)
    return Seat(games=n, wins=wins / n, draws=draws / n, score=score, low=low, high=high,
                balance=balance(rows))


def kinds_chosen(engine, history):
    """The kinds of move (``action_kind``) each seat chose in one game of ``engine`` (a
    core game) whose actions and chance outcomes were ``history``, a Counter per seat;
    and the kinds each seat was offered (legal at one of its decisions), a set per
    seat."""
    state = engine.new_initial_state()
    chosen = [collections.Counter() for _ in range(engine.num_players)]
    offered = [set() for _ in range(engine.num_players)]
    for action in history:
        if not state.is_chance_node():
            p = state.current_player()
            chosen[p][state.action_kind(action)] += 1
            offered[p].update(state.action_kind(a) for a in state.legal_actions())
        state.apply_action(action)
    return chosen, offered


def usage(engine, rows):
    """How each bot of ``rows`` (games of ``engine``) chose its moves, over the games
    that ended (no bot failed, the length limit did not stop them): ``{bot: figures}``
    (see ``move_figures``).  Each side a bot holds in a game is one sample, so a
    self-play game gives one to each side; a side's score is its finishing place
    from 1 (alone on top) to 0 (last), as the seat figures count it."""
    sides = engine.teams()
    samples = {}
    for row in rows:
        if row.status != "ok":
            continue
        chosen, offered = kinds_chosen(engine, row.history)
        scores = utilities([sum(row.returns[p] for p in side) for side in sides])
        for side, utility in zip(sides, scores):
            kinds = sum((chosen[p] for p in side), collections.Counter())
            could = set().union(*(offered[p] for p in side))
            bot = row.seating[side[0]]
            samples.setdefault(bot, []).append((kinds, could, (utility + 1) / 2))
    return {bot: move_figures(found) for bot, found in samples.items()}


def move_figures(samples):
    """The figures of ``samples``, a bot's (Counter of kinds chosen, set of kinds
    offered, score) per game: the games, the decisions, and per kind, the most chosen
    first, how many times it was chosen, per game and as a share of the decisions; the
    mean score of the games where it was chosen (``used``) and where it was not
    (``unused``), each with its 95% Wilson interval; and the share of the games where
    it was offered in which it was chosen (``taken``), with its interval: how a bot
    judges a card or a move when it has the chance, as a market card's buy rate.  The
    scores differ with the kind's worth, but also with all that goes with choosing it:
    a correlation, not a cause."""
    total = sum((kinds for kinds, _, _ in samples), collections.Counter())
    offered = collections.Counter(k for _, could, _ in samples for k in could)
    decisions = sum(total.values())
    found = []
    for kind in sorted(offered, key=lambda k: (-total[k], k)):
        times = total[kind]
        used = [score for kinds, _, score in samples if kinds[kind]]
        unused = [score for kinds, _, score in samples if not kinds[kind]]
        found.append(KindFigures(kind=kind, times=times, per_game=times / len(samples),
                                 share=times / decisions, used=_mean_score(used),
                                 unused=_mean_score(unused),
                                 taken=_share(len(used), offered[kind])))
    return MoveFigures(games=len(samples), decisions=decisions, kinds=found)


def _share(hits, n):
    low, high = wilson(hits / n, n)
    return Share(games=n, share=hits / n, low=low, high=high)


def _mean_score(scores):
    if not scores:
        return MeanScore(games=0, score=None, low=None, high=None)
    score = statistics.fmean(scores)
    low, high = wilson(score, len(scores))
    return MeanScore(games=len(scores), score=score, low=low, high=high)


# --- measuring a variant --------------------------------------------------------


def measure(store, plan, *, bootstrap=1000, seed=0):
    """Every figure of ``plan`` from the games in ``store``, as
    :class:`~tournament.skill.figures.Results`: each variant's, the verdicts on depth
    and fairness, and each variant's x% of the deepest (``chess_share``).  Raises
    SkillError if a game of the plan is missing."""
    found = []
    samples = {}
    for variant in plan.variants:
        choice = next((c for c in plan.yardsticks if c.variant == variant.name), None)
        figures, samples[variant.name] = _measure_variant(store, plan.alone(variant),
                                                          variant, choice, bootstrap, seed)
        found.append(figures)
    spans = {name: s.span for name, s in samples.items()}
    deepest = _deepest(found, spans)
    return Results(deals=plan.deals, seed=plan.seed, reach=plan.reach, bootstrap=bootstrap,
                   player=plan.ladder.player, budgets=list(plan.ladder.budgets),
                   top=plan.ladder.top.name,
                   rungs=[LadderRung(**dataclasses.asdict(r)) for r in plan.ladder.rungs],
                   variants=found, deepest=deepest,
                   depth_differences=_differences(found, spans),
                   fairest=_fairest(found, {name: s.seat for name, s in samples.items()}),
                   chess=_chess(found, samples, deepest.variant))


@dataclasses.dataclass(frozen=True)
class _Resamples:
    """A variant's figures on every resample of the deals, for the verdicts that set
    variants side by side."""

    span: np.ndarray
    seat: np.ndarray | None
    """The first side's score in strong self-play; None without a game that ended."""
    doubling: tuple
    """The doubling steps' scores, and their resamples (steps by resamples)."""


def _measure_variant(store, plan, variant, choice, bootstrap, seed):
    ladder = plan.ladder
    rows = {}
    for config in plan.configs(variant):
        got = store.games(config.key, deals=range(config.deals))
        expected = config.deals * len(config.seatings())
        if len(got) < expected:
            raise SkillError(f"variant {variant.name}: {len(got)} of "
                             f"{count(expected, 'game')} of "
                             f"{' v '.join(config.bots)} are stored; run the analysis to "
                             "play the rest")
        rows[tuple(config.bots)] = got
    names = [r.name for r in ladder.rungs]
    matched = [row for pair in plan.pairs() for row in rows[pair]]
    sides = configs.sides(variant.game)
    elo, resamples = elo_samples(matched, names, seed=seed, bootstrap=bootstrap,
                                 sides=sides)
    anchored = elo - elo[0]
    anchored_samples = resamples - resamples[:, :1]
    rungs = []
    for k, rung in enumerate(ladder.rungs):
        low, high = _interval(anchored_samples[:, k])
        rungs.append(RatedRung(**dataclasses.asdict(rung), elo=float(anchored[k]), low=low,
                               high=high))
    # The depth is what the searcher gains from its lowest budget to its highest: the
    # gaps to random and greedy play are often sweeps, which the Elo fit bounds by its
    # prior rather than by the games.
    top, bottom = names.index(ladder.top.name), names.index(ladder.searchers[0].name)
    span_samples = anchored_samples[:, top] - anchored_samples[:, bottom]
    low, high = _interval(span_samples)
    steps = [step(rows[pair], *pair, sides) for pair in plan.pairs()[:-1]]
    scores = {(s.lower, s.upper): s.score for s in steps}
    # Resampled with the deals the Elo fit drew, so that every variant's figures move
    # in step with each other's.
    deals = sorted({row.deal for row in matched})
    weights = deal_weights(len(deals), seed, bootstrap)
    resampled = {pair: resampled_scores(rows[pair], pair[1], deals, weights, sides)
                 for pair in scores}
    chain = [r.name for r in ladder.chain]
    searchers = [r.name for r in ladder.searchers]
    doubling = [scores[pair] for pair in zip(searchers, searchers[1:])]
    doubling_samples = np.array([resampled[pair] for pair in zip(searchers, searchers[1:])])
    greedy = names.index("greedy")
    over_greedy = anchored_samples[:, top] - anchored_samples[:, greedy]
    played = step(rows[plan.pairs()[-1]], *plan.pairs()[-1], sides)
    edge = Edge(**dataclasses.asdict(played), elo=elo_of(played.score),
                elo_low=elo_of(played.low), elo_high=elo_of(played.high))
    game = pyspiel.load_game(variant.game)
    random_play, strong_play = (rows[(name,)] for name in plan.self_play())
    seat_samples = _resampled_seat(strong_play, sides, seed, bootstrap)
    moves = usage(configs.rules(variant.game), itertools.chain.from_iterable(rows.values()))
    failures = {}
    for row in itertools.chain.from_iterable(rows.values()):
        if row.failed is not None:
            kinds = failures.setdefault(row.failed, {})
            kinds[row.status] = kinds.get(row.status, 0) + 1
    trace_low, trace_high = _interval([skill_trace(2 * level - 1).trace
                                       for level in doubling_samples.T])
    figures = VariantFigures(
        name=variant.name, game=variant.game, params=variant.params,
        games=sum(len(r) for r in rows.values()),
        rungs=rungs,
        span=Span(elo=float(anchored[top] - anchored[bottom]), low=low, high=high,
                  lowest=ladder.searchers[0].name, top=ladder.top.name),
        over_greedy=_clear(float(anchored[top] - anchored[greedy]), over_greedy),
        chain={f"{t:.0%}": _chain(scores, resampled, chain, t) for t in THRESHOLDS},
        skill_trace=dataclasses.replace(skill_trace([2 * score - 1 for score in doubling]),
                                        low=trace_low, high=trace_high),
        gain=_clear(float(gain(doubling)), gain(doubling_samples)),
        steps=steps,
        seat=seat_advantage(strong_play, sides),
        seat_random=seat_advantage(random_play, sides),
        shape=Shapes(random=shape(game, random_play), strong=shape(game, strong_play)),
        cheater_edge=edge,
        failures=failures,
        usage={r.name: moves.get(r.name, move_figures([])) for r in ladder.rungs},
        player=ladder.player,
        yardstick=choice)
    return figures, _Resamples(span_samples, seat_samples, (doubling, doubling_samples))


def _interval(samples):
    if not len(samples):
        return None, None
    # A resample of self-play deals that draws no game that ended has no seat figure
    # (NaN): it is left out rather than taken for one.
    low, high = np.nanpercentile(samples, [2.5, 97.5])
    return float(low), float(high)


def _clear(value, samples):
    """A figure, its interval, and whether the interval is clear of zero."""
    low, high = _interval(samples)
    return Clear(elo=value, low=low, high=high, clear=low is not None and low > 0)


def _chain(scores, resampled, rungs, threshold):
    """The skill chain at ``threshold`` and its interval over the resamples."""
    draws = len(next(iter(resampled.values())))
    lengths = [skill_chain({pair: s[k] for pair, s in resampled.items()}, rungs, threshold)
               for k in range(draws)]
    # A length is a whole number of steps: the bounds are lengths a resample found.
    return Chain(length=skill_chain(scores, rungs, threshold),
                 low=int(np.percentile(lengths, 2.5, method="lower")),
                 high=int(np.percentile(lengths, 97.5, method="higher")))


def _resampled_seat(rows, sides, seed, bootstrap):
    """The first side's score in each resample of the deals of self-play ``rows``, over
    the games that ended, as ``seat_advantage`` counts it (NaN in a resample that draws
    none of them); None without such a game."""
    ended = [r for r in rows if r.status == "ok"]
    if not ended:
        return None
    deals = sorted({r.deal for r in rows})
    column = {deal: i for i, deal in enumerate(deals)}
    points, games = np.zeros(len(deals)), np.zeros(len(deals))
    for row in ended:
        by_side = [sum(row.returns[p] for p in side)
                   for side in sides or [(p,) for p in range(len(row.returns))]]
        points[column[row.deal]] += (utilities(by_side)[0] + 1) / 2
        games[column[row.deal]] += 1
    weights = deal_weights(len(deals), seed, bootstrap)
    with np.errstate(invalid="ignore"):
        return (weights @ points) / (weights @ games)


def _lead(a, b, samples):
    """How much wider a's span is than b's, with the interval of the differences of
    their resamples taken in step (one seed draws the same deal numbers for every
    variant), and whether that interval is clear of zero."""
    low, high = _interval(samples[a.name] - samples[b.name])
    return Lead(variant=b.name, lead=a.span.elo - b.span.elo, low=low, high=high,
                clear=low is not None and low > 0)


def _deepest(found, samples):
    """The variant with the widest Elo span and its lead over every other, the
    runner-up first, and whether it leads every other clearly (``clear``): only then
    do the games tell it is the deepest.  Ties go to the variant listed first."""
    ranked = sorted(found, key=lambda f: -f.span.elo)
    best = ranked[0]
    behind = [_lead(best, other, samples) for other in ranked[1:]]
    runner_up = (RunnerUp(**dataclasses.asdict(behind[0]), span=ranked[1].span)
                 if behind else None)
    return Deepest(variant=best.name, span=best.span, runner_up=runner_up, behind=behind,
                   clear=all(b.clear for b in behind))


def _differences(found, samples):
    """``[a][b]``: how much wider a's span is than b's, with its interval, for every
    two variants."""
    return {a.name: {b.name: _lead(a, b, samples) for b in found if b is not a}
            for a in found}


def _fairest(found, samples):
    """The variant whose first seat scores nearest 50% in strong self-play (ties go to
    the variant listed first), whether its interval holds 50%, and the variants whose
    intervals do not; how much nearer 50% it is than every other variant (``behind``,
    the runner-up first), with the interval of the differences of their resamples
    taken in step, and whether it is clearly nearer than every other (``clear``).
    None if no variant has a self-play game that ended."""
    seated = [f for f in found if f.seat.games]
    if not seated:
        return None
    ranked = sorted(seated, key=lambda f: abs(f.seat.score - 0.5))
    best = ranked[0]
    seat = best.seat
    behind = []
    for other in ranked[1:]:
        low, high = _interval(np.abs(samples[other.name] - 0.5)
                              - np.abs(samples[best.name] - 0.5))
        behind.append(Lead(variant=other.name,
                           lead=abs(other.seat.score - 0.5) - abs(seat.score - 0.5),
                           low=low, high=high, clear=low is not None and low > 0))
    return Fairest(variant=best.name, seat=seat, even=seat.low <= 0.5 <= seat.high,
                   uneven=[f.name for f in seated if not f.seat.low <= 0.5 <= f.seat.high],
                   behind=behind, clear=all(b.clear for b in behind))


def _chess(found, samples, reference):
    """Each variant's x% of ``reference`` (``chess_share``) from its doubling steps,
    with the interval of the resamples taken in step; None, with the reason, when the
    reference's own gain is not clear of zero: a coin cannot dilute a skill the games
    do not show."""
    base = next(f for f in found if f.name == reference)
    if not base.gain.clear:
        return Chess(reference=reference, gain=base.gain, readings=None,
                     reason="its doubling gain is not clear of zero")
    scores, resampled = samples[reference].doubling
    readings = []
    for figures in found:
        if figures.name == reference:
            continue
        other, other_resampled = samples[figures.name].doubling
        low, high = _interval(chess_share(resampled, other_resampled))
        readings.append(Reading(variant=figures.name, x=float(chess_share(scores, other)),
                                low=low, high=high, wider=figures.gain.elo >= base.gain.elo))
    return Chess(reference=reference, gain=base.gain, readings=readings, reason=None)
