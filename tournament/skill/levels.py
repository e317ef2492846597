"""Calibrating the strength levels (``cardarena levels GAME --calibrate``): random,
greedy and a searcher at doubling budgets play through the harness on duplicate deals,
each rung against the ``reach`` rungs above it and against random and greedy play, and
their Elo is fitted with random play at 0, as ``cardarena skill`` does; each rung's Elo
has a 95% interval from a bootstrap over the deals.

The levels start at the searcher's weakest budget, which is not always its smallest:
one iteration plays at random, and a few may play worse (their playouts, cut short
and scored by the game's evaluation, mislead them).  From there a small budget may
still measure stronger than a larger one by chance, and strength barely grows once a
game's searcher has found its level, so the Elo is fitted to rise with the budget:
each run of rungs that falls is pooled into its mean (least squares under that
constraint), on the measured Elo and on every bootstrap resample alike, which gives
the fit its intervals.

With ``climb_to``, the ladder goes on above the searcher's top budget with the same
searcher guided by the game's network (``model=default``), from that top budget,
doubling, up to ``climb_to``: the chain runs through the plain searcher's rungs and
then the guided one's, and the fit rises along it.  A guided rung measured clearly
below the plain top is no level, as any rung clearly below a cheaper one; a step from
the plain top to the guided rungs that rises more than ``STEP`` is split by a guided
rung at a lower budget.  What a calibration holds, and how a level is read from it, is
``tournament.sparring.levels``.
"""
import dataclasses
import math

import numpy as np

from tournament.calibrations import ruleset
from tournament.harness import config as configs
from tournament.skill import climbs, plans
from tournament.skill.defaults import LEVEL_DEALS as DEALS
from tournament.skill.defaults import LEVEL_MAX_BUDGET as MAX_BUDGET
from tournament.sparring.levels import BLUNDER_DIGITS, Calibration, Level, LevelError, Rung
from tournament.stats.ratings import elo_samples
from tournament.tables import count, text_table

# A step of the fit that rises more than this is split, where a budget lies between:
# interpolated across wider steps, a level's Elo would be guessed more than measured
# (in Shrine the searcher gains 650 Elo from 8 to 16 iterations, not evenly).
STEP = 150
# Where no whole budget lies inside such a step, but it climbs from one iteration (which
# plays at random) or between two blunder rates at one budget, it is split by the
# blunder rate: the energy deck-builder's searcher gains about 800 Elo from 1
# iteration to 2, and no level lay between.  Steps between rates are halved no finer
# than FINEST_BLUNDER (at most 7 rates between).
FINEST_BLUNDER = 0.125
# Each rung meets the two above it: the Elo of a rung then rests on more than the one
# match that a sweep by its neighbour would leave uninformative.
REACH = 2
# Each rung meets these too.  A searcher's strength is not transitive: at a few
# iterations it loses to its neighbours by far more than to random play, and a chain
# of neighbouring matches alone carried its levels hundreds of Elo from what they
# score against random and greedy play (Creature Shrines' middle level by 590).
ANCHORS = ("random", "greedy")


@dataclasses.dataclass(frozen=True)
class Plan:
    """The games a calibration plays: every rung of ``ladder`` against the ``reach``
    rungs above it and against the ``ANCHORS``, ``deals`` deals each, in every
    seating."""

    game: str
    ladder: plans.Ladder
    deals: int
    seed: int = 0
    reach: int = REACH
    seconds_per_move: float = 60.0
    climb: tuple = ()
    """The budgets of the guided searcher's rungs above the ladder, ascending."""

    @property
    def guided(self):
        """The guided searcher's rungs, weakest first."""
        return [climbs.rung(self.ladder.player, b) for b in self.climb]

    @property
    def chain(self):
        """Every rung, weakest first: the ladder's, then the guided ones."""
        return self.ladder.chain + self.guided

    def pairs(self):
        chain = [r.name for r in self.chain]
        return [(chain[i], chain[j]) for i in range(len(chain))
                for j in range(i + 1, len(chain))
                if j <= i + self.reach or chain[i] in ANCHORS]

    def configs(self):
        """The harness config of each pair, the costliest first, so that the long
        games are not left for the end of a run, when workers would idle."""
        specs = {r.name: r.spec for r in self.chain}
        base = configs.Config(game=self.game, bots=specs, deals=self.deals,
                              seed=self.seed, seconds_per_move=self.seconds_per_move,
                              kind="levels")
        budget = {r.name: r.budget or 0 for r in self.chain}
        pairs = sorted(self.pairs(), key=lambda pair: -sum(budget[n] for n in pair))
        return [base.only(pair) for pair in pairs]

    def check(self):
        """Raise LevelError unless the game loads and seats every rung."""
        if self.deals < 2:
            raise LevelError("--deals is at least 2: the intervals come from resampling "
                             "the deals")
        data = {"game": self.game, "deals": self.deals, "seed": self.seed,
                "seconds_per_move": self.seconds_per_move,
                "bots": {r.name: r.spec for r in self.chain}}
        try:
            configs.parse(data)
        except configs.ConfigError as e:
            raise LevelError(str(e)) from None


def plan(game, deals=DEALS, seed=0, low=1, high=MAX_BUDGET, reach=REACH,
         seconds_per_move=60.0, player=plans.PLAYER, climb_to=None):
    """The first :class:`Plan` of a calibration of ``game``: ``player`` (a searcher's
    spec without a budget) at doubling budgets from ``low`` to at most ``high``, and
    with ``climb_to``, guided by the game's network from its top budget, doubling, up
    to at most ``climb_to``.  Raises LevelError if it cannot be played."""
    if high < 2 * low:
        raise LevelError(f"--max-budget is at least twice --min-budget ({2 * low}), for "
                         f"the ladder to climb, not {high}")
    try:
        plans.check_player(player)
    except plans.SkillError as e:
        raise LevelError(str(e)) from None
    ladder = plans.Ladder(player, plans.doublings(low, high))
    climb = ()
    if climb_to is not None:
        if climb_to < ladder.top.budget:
            raise LevelError(f"--climb-to {climb_to} is below the ladder's top budget "
                             f"{ladder.top.budget}: the climb starts there")
        refused = climbs.refusal(ruleset(game), player)
        if refused:
            raise LevelError(f"--climb-to: {refused}")
        climb = plans.doublings(ladder.top.budget, climb_to)
    found = Plan(ruleset(game), ladder, deals, seed, reach, seconds_per_move, climb)
    found.check()
    return found


def refine(plan, calibration):
    """``plan`` with a rung added in each step of ``calibration``'s fit that rises more
    than ``STEP`` Elo: at the geometric mean of its budgets where a whole budget lies
    between, and otherwise, where the step starts at one iteration or at a blunder
    rate of the same budget, at the budget above with the blunder rate half-way
    between (one iteration plays at random, as any budget does at rate 1), down to
    ``FINEST_BLUNDER``.  A step between two guided rungs is split at the geometric
    mean of their budgets too, and a step from the plain searcher to a guided rung at
    a guided budget below that rung's: the mean of the two guided budgets either side
    of the step, or half the lowest.  None if there is no such step."""
    budgets, blunders = set(plan.ladder.budgets), set(plan.ladder.blunders)
    climb = set(plan.climb)
    for a, b in zip(calibration.fit, calibration.fit[1:]):
        if b.elo - a.elo <= STEP:
            continue
        if b.guided:
            # From the plain top, the guided rungs below b were measured below it (or
            # there are none): split between the highest of them and b, or halve b.
            low = a.budget if a.guided else max((x for x in climb if x < b.budget),
                                                default=0)
            middle = round(math.sqrt(low * b.budget)) if low else b.budget // 2
            if low < middle < b.budget:
                climb.add(middle)
            continue
        middle = round(math.sqrt(a.budget * b.budget))
        start = a.blunder if a.budget == b.budget else 1.0 if a.budget == 1 else None
        if a.budget < middle < b.budget:
            budgets.add(middle)
        elif start is not None and start - b.blunder > FINEST_BLUNDER:
            blunders.add((b.budget, round((start + b.blunder) / 2, BLUNDER_DIGITS)))
    if budgets == set(plan.ladder.budgets) and blunders == set(plan.ladder.blunders) \
            and climb == set(plan.climb):
        return None
    ladder = plans.Ladder(plan.ladder.player, tuple(sorted(budgets)),
                          tuple(sorted(blunders)))
    return dataclasses.replace(plan, ladder=ladder, climb=tuple(sorted(climb)))


def calibrate(store, plan, command, play, bootstrap=1000):
    """Play the games of ``plan`` with ``play(plan)`` (which stores them in
    ``store``), measure them, and split the steps that rise more than ``STEP`` Elo,
    again and again until none does; returns the :class:`Calibration` and the last
    plan.  Each round's measure decides the next, so a calibration run again with its
    games stored repeats every round without playing a game."""
    while True:
        play(plan)
        found = measure(store, plan, command, bootstrap)
        finer = refine(plan, found)
        if finer is None:
            return found, plan
        plan = finer


def measure(store, plan, command, bootstrap=1000):
    """The :class:`Calibration` that the games of ``plan`` in ``store`` give; raises
    LevelError if a game is missing."""
    rows = []
    for config in plan.configs():
        got = store.games(config.key, deals=range(config.deals))
        expected = config.deals * config.games_per_deal
        if len(got) < expected:
            raise LevelError(f"{len(got)} of {count(expected, 'game')} of "
                             f"{' v '.join(config.bots)} are stored; run the calibration "
                             "again to play the rest")
        rows += got
    chain = plan.chain
    guided = {r.name for r in plan.guided}
    elo, samples = elo_samples(rows, [r.name for r in chain], seed=plan.seed,
                               bootstrap=bootstrap, sides=configs.sides(plan.game))
    # Random play, the first rung, is the zero of the scale, as in a skill analysis.
    elo, samples = elo - elo[0], samples - samples[:, :1]
    rungs = tuple(Rung(r.name, r.spec, r.budget, *_figures(e, column), blunder=r.blunder,
                       guided=r.name in guided)
                  for r, e, column in zip(chain, elo, samples.T))
    searchers = [k for k, r in enumerate(chain) if r.budget is not None]
    # The fit starts at the weakest budget: below it the searcher plays better again,
    # as a single iteration plays at random, and a fit that rises through such budgets
    # would pool them into a strength none of them has.
    searchers = searchers[int(np.argmin(elo[searchers])):]
    # A rung whose whole interval lies below a cheaper rung's Elo costs more and plays
    # worse: it is no level, and the fit leaves it out, as pooled with the cheaper one
    # it would give both a strength neither has (Shrine's heuristic searcher measured
    # +558 [+523, +590] at 3 iterations and +735 at 2).
    best, kept = -math.inf, []
    for k in searchers:
        if rungs[k].high >= best:
            kept.append(k)
            best = max(best, elo[k])
    searchers = kept
    fitted = rising(elo[searchers])
    fitted_samples = np.array([rising(row) for row in samples[:, searchers]])
    fit = tuple(Level(chain[k].spec, chain[k].budget, *_figures(e, column),
                      blunder=chain[k].blunder, guided=chain[k].name in guided)
                for k, e, column in zip(searchers, fitted, fitted_samples.T))
    climb = climbs.learned(plan.ladder.player) if plan.climb else None
    return Calibration(plan.game, plan.ladder.player, plan.deals, plan.seed, plan.reach,
                       command, rungs, fit, climb)


def _figures(elo, samples):
    """An Elo and its 95% interval from its resamples, in whole points."""
    low, high = np.percentile(samples, [2.5, 97.5])
    return round(float(elo)), round(float(low)), round(float(high))


def rising(values):
    """The non-decreasing sequence nearest ``values`` in least squares: each run that
    falls is pooled into its mean (pool adjacent violators).

    >>> rising([3, 1, 2, 5, 4])
    [2.0, 2.0, 2.0, 4.5, 4.5]
    """
    blocks = []  # [sum, length] of each pooled run
    for value in values:
        blocks.append([float(value), 1])
        while len(blocks) > 1 and blocks[-2][0] * blocks[-1][1] > blocks[-1][0] * blocks[-2][1]:
            total, length = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += length
    return [total / length for total, length in blocks for _ in range(length)]


def table(calibration):
    """The calibration in words: each rung's Elo and interval as measured and as
    fitted, the levels marked, and the range ``play --elo`` takes."""
    c = calibration
    fitted = {p.spec: p for p in c.fit}
    levels = {p.spec for p in c.levels}
    body = []
    for r in c.rungs:
        p = fitted.get(r.spec)
        left_out = "below a cheaper rung" if (r.guided, r.budget) in c.outplayed \
            and not r.blunder else ""
        body.append([r.name, f"{r.elo:+d}", f"[{r.low:+d}, {r.high:+d}]"]
                    + ([f"{p.elo:+d}", f"[{p.low:+d}, {p.high:+d}]",
                        "level" if p.spec in levels else ""] if p else ["", "", left_out]))
    budgets = sorted({r.budget for r in c.rungs if r.budget is not None and not r.guided})
    guided = sorted(r.budget for r in c.rungs if r.guided)
    blunders = sum(1 for r in c.rungs if r.blunder)
    return "\n".join([
        f"Strength levels of {c.game}: {c.player} at {len(budgets)} budgets from "
        f"{budgets[0]} to {budgets[-1]} iterations a move (doubling, steps of over "
        f"{STEP} Elo split"
        + (f"; {count(blunders, 'rung')} blundering" if blunders else "") + ")"
        + (f", then, guided by the game's network, {c.climb} at "
           f"{count(len(guided), 'budget')} from {guided[0]} to {guided[-1]}"
           if guided else "")
        + f", each rung against the {c.reach} above it and against "
        f"{' and '.join(ANCHORS)} play on "
        f"{count(c.deals, 'deal')} per match.  Elo with random play at 0, and 95% "
        "intervals; the fit rises with the budget from the searcher's weakest rung up.",
        text_table(["rung", "Elo", "interval", "fit", "interval", ""], body, "lrrrrl"),
        f"play --elo takes {c.fit[0].elo} to {c.fit[-1].elo}.",
        f"Made by: {c.command}"])
