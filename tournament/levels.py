"""Strength levels: a bot that plays a game at a chosen Elo, on the scale of the game's
skill ladder (``cardarena play GAME --elo N``; docs/play.md).

A level is a searcher (the skill ladder's ``skill.PLAYER``, or the one a calibration
names, such as the game's yardstick) at an iteration budget, and at the weakest levels
with a chance of blundering (a random move in place of a search), so it is an
ordinary bot spec, which saves, reviews, the web page and tournaments take as they
take any other.  A game's calibration plays random, greedy and the searcher at
doubling budgets through the harness on duplicate deals, each rung against the
``reach`` rungs above it and against random and greedy play, and fits their Elo with
random play at 0, as ``cardarena skill`` does; each rung's Elo has a 95% interval from
a bootstrap over the deals.

The levels start at the searcher's weakest budget, which is not always its smallest:
one iteration plays at random, and a few may play worse (their playouts, cut short
and scored by the game's evaluation, mislead them).  From there a small budget may
still measure stronger than a larger one by chance, and strength barely grows once a
game's searcher has found its level, so the Elo is fitted to rise with the budget:
each run of rungs that falls is pooled into its mean (least squares under that
constraint), on the measured Elo and on every bootstrap resample alike, which gives
the fit its intervals.  ``play --elo N`` plays the smallest budget the fit puts at N,
interpolated between two rungs on a log scale (the scale on which the ladder doubles)
with its Elo and interval; the levels a page lists are the cheapest rungs of each
fitted Elo.

Calibrations are JSON files in ``tournament/data``, one per ruleset, written by
``cardarena levels GAME --calibrate``.
"""
import dataclasses
import json
import math
import os
import pathlib
import shlex

import numpy as np

import search
from core.errors import CardArenaError
from tournament import config as configs
from tournament import skill
from tournament.ratings import elo_samples
from tournament.tables import count, read_json, text_table, write_file

DATA = pathlib.Path(__file__).parent / "data"
FORMAT = "cardarena levels"
# A calibration's defaults: a few minutes on two cores for the games here; more deals
# narrow the intervals.
DEALS = 50
MAX_BUDGET = 512
# A step of the fit that rises more than this is split, where a budget lies between:
# interpolated across wider steps, a level's Elo would be guessed more than measured
# (in Shrine the searcher gains 650 Elo from 8 to 16 iterations, not evenly).
STEP = 150
# Where no whole budget lies inside such a step, but it climbs from one iteration (which
# plays at random) or between two blunder rates at one budget, it is split by the
# blunder rate: the energy deck-builder's searcher gains about 800 Elo from 1
# iteration to 2, and no level lay between.  Steps between rates are halved no finer
# than FINEST_BLUNDER (at most 7 rates between), and a rate interpolated for a level
# is kept to BLUNDER_DIGITS decimals, as its spec prints it.
FINEST_BLUNDER = 0.125
BLUNDER_DIGITS = 3
# Each rung meets the two above it: the Elo of a rung then rests on more than the one
# match that a sweep by its neighbour would leave uninformative.
REACH = 2
# Each rung meets these too.  A searcher's strength is not transitive: at a few
# iterations it loses to its neighbours by far more than to random play, and a chain
# of neighbouring matches alone carried its levels hundreds of Elo from what they
# score against random and greedy play (Creature Shrines' middle level by 590).
ANCHORS = ("random", "greedy")


class LevelError(CardArenaError):
    """A level that cannot be had: a game without a calibration, an Elo outside its
    levels, or a calibration that cannot be made or read."""


class UncalibratedError(LevelError):
    """A game with no calibration, shipped or made."""


class EloRangeError(LevelError):
    """An Elo below a game's weakest level or above its strongest."""


@dataclasses.dataclass(frozen=True)
class Rung:
    """A player of a calibration and the Elo it measured, random play at 0, in whole
    points (the intervals are far wider than one)."""

    name: str
    spec: str
    budget: int | None
    """Iterations a move; None for random and greedy."""
    elo: int
    low: int
    """The 2.5th percentile of its Elo over the bootstrap resamples of the deals."""
    high: int
    """The 97.5th percentile."""
    blunder: float = 0.0
    """The searcher's chance of a random move in place of a search."""


@dataclasses.dataclass(frozen=True)
class Level:
    """The searcher at a budget, and its Elo with a 95% interval on the fit that rises
    with the budget."""

    spec: str
    budget: int
    elo: float
    low: float
    high: float
    interpolated: bool = False
    """Whether the budget lies between two rungs, whose figures were interpolated."""
    blunder: float = 0.0
    """The searcher's chance of a random move in place of a search."""

    @property
    def place(self):
        """Its place on the ladder, weakest first: by budget, then blundering less."""
        return self.budget, -self.blunder


@dataclasses.dataclass(frozen=True)
class Calibration:
    """The measured strength of a game's ladder: what was played, and each rung's Elo
    in the ladder's order (random, greedy, then the searcher's budgets upward)."""

    game: str
    """The game string, naming only the parameters that differ from the defaults."""
    player: str
    """The searcher, without a budget."""
    deals: int
    """Deals per match, each played in every seating."""
    seed: int
    reach: int
    command: str
    """The command that made it."""
    rungs: tuple
    """Every rung's :class:`Rung`, as measured."""
    fit: tuple
    """A :class:`Level` at each of the searcher's budgets from its weakest up, on the
    fit that rises with the budget."""

    @property
    def levels(self):
        """The cheapest of the fit's levels at each of its Elo, weakest first."""
        return [p for k, p in enumerate(self.fit) if k == 0 or p.elo > self.fit[k - 1].elo]

    @property
    def outplayed(self):
        """The budgets the fit leaves out above its weakest: each measured clearly
        below a cheaper rung, so no level plays them."""
        fitted = {p.budget for p in self.fit if not p.blunder}
        return {r.budget for r in self.rungs if r.budget is not None and not r.blunder
                and r.budget > self.fit[0].budget and r.budget not in fitted}

    def level(self, elo):
        """The :class:`Level` of the smallest budget that plays at ``elo``, or as near
        as a whole budget comes; raises :class:`EloRangeError` outside the fit."""
        weakest, strongest = self.fit[0].elo, self.fit[-1].elo
        if not weakest <= elo <= strongest:
            raise EloRangeError(f"{self.game}'s levels run from {weakest} to {strongest} "
                                f"Elo (random play is 0), not {elo:g}")
        k = next(k for k, p in enumerate(self.fit) if p.elo >= elo)
        above = self.fit[k]
        if above.elo == elo:
            return above
        below = self.fit[k - 1]
        share = (elo - below.elo) / (above.elo - below.elo)
        if above.blunder or above.budget == below.budget:
            # Between two blunder rates at one budget, the rate is interpolated; one
            # iteration below plays at random, as the budget above does at rate 1.
            start = below.blunder if below.budget == above.budget else 1.0
            budget, blunder = above.budget, round(start + share * (above.blunder - start),
                                                  BLUNDER_DIGITS)
            if blunder in (start, above.blunder):
                return above if blunder == above.blunder else below
            share = (blunder - start) / (above.blunder - start)
        else:
            octaves = math.log2(above.budget / below.budget)
            budget, blunder = round(below.budget * 2 ** (share * octaves)), 0.0
            if budget in self.outplayed:
                budget = below.budget if elo - below.elo < above.elo - elo else above.budget
            if budget in (below.budget, above.budget):
                return below if budget == below.budget else above
            # The share the whole budget gives, so that the figures are its own.
            share = math.log2(budget / below.budget) / octaves

        def between(a, b):
            return a + share * (b - a)

        return Level(skill.rung(self.player, budget, blunder).spec, budget,
                     between(below.elo, above.elo), between(below.low, above.low),
                     between(below.high, above.high), interpolated=True, blunder=blunder)

    def to_dict(self):
        return {"format": FORMAT, **dataclasses.asdict(self)}

    @classmethod
    def from_dict(cls, data):
        """The calibration ``data`` (as ``to_dict`` gives it) holds; raises
        ``ValueError``, ``KeyError`` or ``TypeError`` if it holds none."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a calibration of {FORMAT}")
        fields = {f.name for f in dataclasses.fields(cls)} - {"rungs", "fit"}
        fit = tuple(Level(**p) for p in data["fit"])
        if not fit or any(a.elo > b.elo or a.place >= b.place
                          for a, b in zip(fit, fit[1:])):
            raise ValueError("the fit is empty, or does not rise with the budget")
        return cls(**{k: data[k] for k in fields},
                   rungs=tuple(Rung(**r) for r in data["rungs"]), fit=fit)

    def save(self, file):
        """Write the calibration to ``file`` as JSON, a rung a line; raises ``OSError``
        if it cannot."""
        data = self.to_dict()
        lines = [f" {json.dumps(k)}: " + (
            "[\n" + ",\n".join(f"  {json.dumps(x)}" for x in v) + "\n ]"
            if isinstance(v, (list, tuple)) else json.dumps(v)) for k, v in data.items()]
        write_file(file, "{\n" + ",\n".join(lines) + "\n}\n")


def ruleset(game):
    """The game string of ``game`` (a string or a game) that names only the
    parameters differing from the defaults, as calibrations are kept by."""
    return str(search.engine_game(game))


def data_file(kind, game, data=None):
    """The file in ``data`` (``DATA`` unless given) that holds the ``kind`` of
    calibration (``levels``, ``marks``) of ``game``, made or not: named by the game and
    the parameters that differ from the defaults."""
    name = ruleset(game).replace("(", "-").replace(")", "").replace(os.sep, "_")
    return pathlib.Path(data or DATA) / f"{kind}-{name}.json"


def path(game, data=None):
    """The file that holds the calibration of ``game``'s levels."""
    return data_file("levels", game, data)


def load(game):
    """The calibration of ``game`` (a string or a game); raises
    :class:`UncalibratedError` if it has none, and :class:`LevelError` if its file
    cannot be read."""
    file = path(game)
    try:
        data = read_json(file, LevelError)
    except FileNotFoundError:
        name = ruleset(game)
        raise UncalibratedError(f"{name} has no strength levels: cardarena levels "
                                f"{shlex.quote(name)} --calibrate makes them") from None
    try:
        return Calibration.from_dict(data)
    except (ValueError, KeyError, TypeError) as e:
        raise LevelError(f"{file} is not a calibration of strength levels: {e}") from None


def describe(level, game):
    """What ``level`` is, in a line: its spec, Elo and interval, and where they come
    from."""
    how = "interpolated between the rungs beside it" if level.interpolated \
        else "a calibrated rung"
    return (f"{level.spec} plays {ruleset(game)} at about {level.elo:.0f} Elo "
            f"[{level.low:.0f}, {level.high:.0f}] ({how}; random play is 0).")


# --- calibrating ------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Plan:
    """The games a calibration plays: every rung of ``ladder`` against the ``reach``
    rungs above it and against the ``ANCHORS``, ``deals`` deals each, in every
    seating."""

    game: str
    ladder: skill.Ladder
    deals: int
    seed: int = 0
    reach: int = REACH
    seconds_per_move: float = 60.0

    def pairs(self):
        chain = [r.name for r in self.ladder.chain]
        return [(chain[i], chain[j]) for i in range(len(chain))
                for j in range(i + 1, len(chain))
                if j <= i + self.reach or chain[i] in ANCHORS]

    def configs(self):
        """The harness config of each pair, the costliest first, so that the long
        games are not left for the end of a run, when workers would idle."""
        specs = {r.name: r.spec for r in self.ladder.chain}
        base = configs.Config(game=self.game, bots=specs, deals=self.deals,
                              seed=self.seed, seconds_per_move=self.seconds_per_move,
                              kind="levels")
        budget = {r.name: r.budget or 0 for r in self.ladder.chain}
        pairs = sorted(self.pairs(), key=lambda pair: -sum(budget[n] for n in pair))
        return [base.only(pair) for pair in pairs]

    def check(self):
        """Raise LevelError unless the game loads and seats every rung."""
        if self.deals < 2:
            raise LevelError("--deals is at least 2: the intervals come from resampling "
                             "the deals")
        data = {"game": self.game, "deals": self.deals, "seed": self.seed,
                "seconds_per_move": self.seconds_per_move,
                "bots": {r.name: r.spec for r in self.ladder.chain}}
        try:
            configs.parse(data)
        except configs.ConfigError as e:
            raise LevelError(str(e)) from None


def plan(game, deals=DEALS, seed=0, low=1, high=MAX_BUDGET, reach=REACH,
         seconds_per_move=60.0, player=skill.PLAYER):
    """The first :class:`Plan` of a calibration of ``game``: ``player`` (a searcher's
    spec without a budget) at doubling budgets from ``low`` to at most ``high``.
    Raises LevelError if it cannot be played."""
    if high < 2 * low:
        raise LevelError(f"--max-budget is at least twice --min-budget ({2 * low}), for "
                         f"the ladder to climb, not {high}")
    try:
        skill.check_player(player)
    except skill.SkillError as e:
        raise LevelError(str(e)) from None
    found = Plan(ruleset(game), skill.Ladder(player, skill.doublings(low, high)), deals,
                 seed, reach, seconds_per_move)
    found.check()
    return found


def refine(plan, calibration):
    """``plan`` with a rung added in each step of ``calibration``'s fit that rises more
    than ``STEP`` Elo: at the geometric mean of its budgets where a whole budget lies
    between, and otherwise, where the step starts at one iteration or at a blunder
    rate of the same budget, at the budget above with the blunder rate half-way
    between (one iteration plays at random, as any budget does at rate 1), down to
    ``FINEST_BLUNDER``; None if there is no such step."""
    budgets, blunders = set(plan.ladder.budgets), set(plan.ladder.blunders)
    for a, b in zip(calibration.fit, calibration.fit[1:]):
        if b.elo - a.elo <= STEP:
            continue
        middle = round(math.sqrt(a.budget * b.budget))
        start = a.blunder if a.budget == b.budget else 1.0 if a.budget == 1 else None
        if a.budget < middle < b.budget:
            budgets.add(middle)
        elif start is not None and start - b.blunder > FINEST_BLUNDER:
            blunders.add((b.budget, round((start + b.blunder) / 2, BLUNDER_DIGITS)))
    if budgets == set(plan.ladder.budgets) and blunders == set(plan.ladder.blunders):
        return None
    ladder = skill.Ladder(plan.ladder.player, tuple(sorted(budgets)),
                          tuple(sorted(blunders)))
    return dataclasses.replace(plan, ladder=ladder)


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
        expected = config.deals * len(config.seatings())
        if len(got) < expected:
            raise LevelError(f"{len(got)} of {count(expected, 'game')} of "
                             f"{' v '.join(config.bots)} are stored; run the calibration "
                             "again to play the rest")
        rows += got
    chain = plan.ladder.chain
    elo, samples = elo_samples(rows, [r.name for r in chain], seed=plan.seed,
                               bootstrap=bootstrap, sides=configs.sides(plan.game))
    # Random play, the first rung, is the zero of the scale, as in a skill analysis.
    elo, samples = elo - elo[0], samples - samples[:, :1]
    rungs = tuple(Rung(r.name, r.spec, r.budget, *_figures(e, column), blunder=r.blunder)
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
                      blunder=chain[k].blunder)
                for k, e, column in zip(searchers, fitted, fitted_samples.T))
    return Calibration(plan.game, plan.ladder.player, plan.deals, plan.seed, plan.reach,
                       command, rungs, fit)


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
        left_out = "below a cheaper rung" if r.budget in c.outplayed and not r.blunder \
            else ""
        body.append([r.name, f"{r.elo:+d}", f"[{r.low:+d}, {r.high:+d}]"]
                    + ([f"{p.elo:+d}", f"[{p.low:+d}, {p.high:+d}]",
                        "level" if p.spec in levels else ""] if p else ["", "", left_out]))
    budgets = sorted({r.budget for r in c.rungs if r.budget is not None})
    blunders = sum(1 for r in c.rungs if r.blunder)
    return "\n".join([
        f"Strength levels of {c.game}: {c.player} at {len(budgets)} budgets from "
        f"{budgets[0]} to {budgets[-1]} iterations a move (doubling, steps of over "
        f"{STEP} Elo split"
        + (f"; {count(blunders, 'rung')} blundering" if blunders else "")
        + f"), each rung against the {c.reach} above it and against "
        f"{' and '.join(ANCHORS)} play on "
        f"{count(c.deals, 'deal')} per match.  Elo with random play at 0, and 95% "
        "intervals; the fit rises with the budget from the searcher's weakest rung up.",
        text_table(["rung", "Elo", "interval", "fit", "interval", ""], body, "lrrrrl"),
        f"play --elo takes {c.fit[0].elo} to {c.fit[-1].elo}.",
        f"Made by: {c.command}"])
