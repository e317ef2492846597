"""The yardstick of a skill analysis: the searcher that plays a ruleset best.

A skill analysis measures a game's rules only as far as its searcher plays them well:
a searcher that misjudges a game finds little depth in it, whatever the rules hold.
So before the ladder, each variant holds a short trial at the ladder's top budget.
The incumbent (the ladder's searcher unless told otherwise) meets each challenger (a
rollout of another kind or depth, another exploration constant, another way of
searching hidden information) on duplicate deals, through the harness.  A challenger
that beats the incumbent clearly becomes the yardstick; where several do, the one
scoring highest; otherwise the incumbent stays.  Clearly means that the interval of
its score lies above even, at a level that keeps the chance of any challenger passing
by luck to 5% (Bonferroni: each of k intervals at 1 - 0.05 / k).

The ladder after the trial costs what its searcher costs, many times the trial's: in
Shrine, rollouts played to the end by the heuristic beat the default by 69% and the
same rollouts cut after 8 moves by 66%, at a small fraction of the time a game.  So of
the clear winners, the cheapest whose score is not clearly below the best's (their
difference within 1.96 standard errors) is chosen when it thinks in under half the
best's time (``CHEAPER``); thinking time is what the trial's games stored, and the
margin keeps a machine's noise from swapping two searchers of like cost.

By default the variants of one analysis share their yardstick, chosen on all their
trials' games pooled: a searcher chosen variant by variant would differ by chance
between variants that play alike (in Card Duel, four of nine cells chose one searcher
and five the other, on 40 games each), and their spans would no longer compare like
with like.  Each variant's own trial is still reported.

A challenger that meets only the incumbent is measured where it matters (against the
player it would replace) at a fraction of a round robin's cost, which at the top
budget is the whole of the trial's cost.  Nothing here names a game.
"""
import dataclasses
import re
import statistics

import search
from core.errors import CardArenaError
from tournament.harness import config as configs
from tournament.skill import analysis, plans
from tournament.skill.defaults import CHALLENGERS
from tournament.skill.defaults import TRIAL_DEALS as DEALS
from tournament.skill.figures import Choice, Evidence
from tournament.stats.intervals import wilson
from tournament.tables import count

# A clear winner not clearly below the best is chosen instead when its thinking time a
# game is under this share of the best's.
CHEAPER = 0.5


@dataclasses.dataclass(frozen=True)
class Trial:
    """The games that choose one variant's yardstick: ``incumbent`` against each of
    ``challengers`` (specs without a budget) at ``budget`` iterations a move."""

    variant: plans.Variant
    incumbent: str
    challengers: tuple
    budget: int
    deals: int = DEALS
    seed: int = 0
    seconds_per_move: float = 60.0
    max_length: int = configs.DEFAULTS["max_length"]

    @property
    def players(self):
        """Each player's name in the store and its spec at the budget, the incumbent
        first."""
        return {name(p): plans.rung(p, self.budget).spec
                for p in (self.incumbent, *self.challengers)}

    def configs(self):
        """One harness config a challenger: the incumbent against it."""
        specs = self.players
        base = configs.Config(game=self.variant.game, bots=specs, deals=self.deals,
                              seed=self.seed, seconds_per_move=self.seconds_per_move,
                              max_length=self.max_length, kind="skill")
        first = name(self.incumbent)
        return [base.only([first, name(c)]) for c in self.challengers]


def trials(variants, incumbent, budget, challengers=CHALLENGERS, deals=DEALS, seed=0,
           seconds_per_move=60.0, max_length=configs.DEFAULTS["max_length"]):
    """A trial for each of ``variants``; raises SkillError for a challenger that is
    not a searcher the ladder can double, or one given twice."""
    challengers = tuple(c for c in challengers if c != incumbent)
    for spec in challengers:
        try:
            kind, values = search.parse_bot(spec)
        except CardArenaError as e:
            raise plans.SkillError(f"--challenger {spec!r}: {e}") from None
        if kind not in plans.SEARCHERS or "iterations" in values or "seconds" in values:
            raise plans.SkillError(
                f"--challenger {spec!r}: a challenger is a searcher whose budget the "
                f"ladder doubles ({', '.join(plans.SEARCHERS)}), without iterations or "
                "seconds")
    names = [name(p) for p in (incumbent, *challengers)]
    if len(set(names)) < len(names):
        raise plans.SkillError("--challenger: a searcher is given twice")
    if not challengers:
        raise plans.SkillError("the trial needs a challenger other than the incumbent")
    return [Trial(v, incumbent, challengers, budget, deals, seed, seconds_per_move,
                  max_length) for v in variants]


def name(spec):
    """A player's name in the store, read from its spec: ``ismcts(rollout_depth=8)``
    is ``ismcts-rollout_depth-8``."""
    return re.sub(r"[^A-Za-z0-9_.+]+", "-", spec).strip("-")


def choose(store, trial):
    """The yardstick of ``trial``'s variant from its stored games, as a
    :class:`~tournament.skill.figures.Choice` with the evidence: each challenger's
    score against the incumbent and its Wilson interval, at the level that makes the
    intervals together 95%.  Raises SkillError if a game is missing."""
    sides = configs.sides(trial.variant.game)
    first = name(trial.incumbent)
    found = []
    for config, spec in zip(trial.configs(), trial.challengers):
        rows = store.games(config.key, deals=range(config.deals))
        expected = config.deals * config.games_per_deal
        if len(rows) < expected:
            raise plans.SkillError(
                f"variant {trial.variant.name}: {len(rows)} of {count(expected, 'game')} "
                f"of the yardstick's trial {first} v {name(spec)} are stored; run the "
                "analysis to play the rest")
        match = analysis.step(rows, first, name(spec), sides)
        found.append(_evidence(spec, match.games, match.score, len(trial.challengers),
                               _seconds(rows, name(spec))))
    return Choice(variant=trial.variant.name, budget=trial.budget, deals=trial.deals,
                  incumbent=trial.incumbent, player=_pick(found, trial.incumbent),
                  challengers=found)


def pool(choices):
    """One yardstick for every variant: each challenger's games against the incumbent
    in all the variants' trials, pooled, choose it as one trial would.  Returns the
    choices with the pooled choice as each one's player and the pooled evidence as its
    ``pooled``; one choice is returned as it is."""
    if len(choices) < 2:
        return list(choices)
    k = len(choices[0].challengers)
    pooled = []
    for i, spec in enumerate(c.player for c in choices[0].challengers):
        games = sum(c.challengers[i].games for c in choices)
        score = sum(c.challengers[i].score * c.challengers[i].games for c in choices) / games
        timed = [c.challengers[i] for c in choices]
        seconds = (None if any(c.seconds is None for c in timed)
                   else sum(c.seconds * c.games for c in timed) / games)
        pooled.append(_evidence(spec, games, score, k, seconds))
    chosen = _pick(pooled, choices[0].incumbent)
    return [dataclasses.replace(c, player=chosen, pooled=pooled) for c in choices]


def _seconds(rows, player):
    """``player``'s thinking time a game over ``rows``, all its seats together; None
    when a row did not store its time."""
    if any(r.seconds is None for r in rows):
        return None
    return sum(sum(t for s, t in zip(r.seating, r.seconds) if s == player)
               for r in rows) / len(rows)


def _evidence(spec, games, score, k, seconds=None):
    z = statistics.NormalDist().inv_cdf(1 - 0.025 / k)
    low, high = wilson(score, games, z)
    return Evidence(player=spec, games=games, score=score, low=low, high=high,
                    elo=analysis.elo_of(score), clear=low > 0.5, seconds=seconds)


def _pick(found, incumbent):
    winners = [c for c in found if c.clear]
    if not winners:
        return incumbent
    best = max(winners, key=lambda c: c.score)
    cheap = [c for c in winners if _alike(c, best) and c.seconds is not None
             and best.seconds is not None and c.seconds < CHEAPER * best.seconds]
    return min(cheap, key=lambda c: c.seconds).player if cheap else best.player


def _alike(a, b):
    """Whether the scores of ``a`` and ``b``, each over its own games, are within
    1.96 standard errors of their difference."""
    var = sum(c.score * (1 - c.score) / c.games for c in (a, b))
    return abs(a.score - b.score) <= 1.96 * var ** 0.5


def describe(choice):
    """A sentence on how a variant's yardstick was chosen: from its own trial, or from
    every variant's pooled."""
    found = choice.pooled if choice.pooled is not None else choice.challengers
    over = " over every variant's trial games pooled" if choice.pooled is not None else ""
    if choice.player == choice.incumbent:
        lead = max(found, key=lambda c: c.score)
        return (f"`{choice.incumbent}` stays: no challenger beat it clearly at "
                f"{choice.budget} iterations{over} (the best, `{lead.player}`, "
                f"scored {_pct(lead)})")
    chosen = next(c for c in found if c.player == choice.player)
    text = (f"`{choice.player}` beat `{choice.incumbent}` clearly at "
            f"{choice.budget} iterations{over}, scoring {_pct(chosen)}")
    cheaper = cheaper_than_best(found, choice.player)
    if not cheaper:
        return text
    best = max((c for c in found if c.clear), key=lambda c: c.score)
    return (f"{text}{cheaper} ({chosen.seconds:.3g} s against "
            f"{best.seconds:.3g} s), so the ladder costs that much less")


def cheaper_than_best(found, player):
    """How ``player``, a clear winner among ``found``, was chosen over the best scoring
    one for its cost, as a clause; empty when it is the best."""
    chosen = next(c for c in found if c.player == player)
    best = max((c for c in found if c.clear), key=lambda c: c.score)
    if best is chosen:
        return ""
    return (f", not clearly below the best, `{best.player}` ({_pct(best)}), in "
            f"{_share(chosen.seconds / best.seconds)} of its thinking time a game")


def _share(x):
    return f"{100 * x:.0f}%" if x >= 0.01 else f"{100 * x:.2g}%"


def _pct(c):
    return f"{100 * c.score:.1f}% [{100 * c.low:.1f}, {100 * c.high:.1f}]"


def check_cost(trials, workers):
    """The seconds ``trials`` would take on ``workers`` processes, estimated from the
    length of random games and each player's time per iteration, measured here; raises
    SkillError beyond ``skill.MOST_SECONDS``."""
    measured = {}
    seconds = 0.0
    for trial in trials:
        for config, spec in zip(trial.configs(), trial.challengers):
            for player in (trial.incumbent, spec):
                if (trial.variant.game, player) not in measured:
                    measured[trial.variant.game, player] = plans.measure_cost(
                        trial.variant.game, player)
            (decisions, mine), (_, theirs) = (measured[trial.variant.game, p]
                                              for p in (trial.incumbent, spec))
            seconds += (config.deals * config.games_per_deal * decisions * trial.budget
                        * (mine + theirs) / 2)
    if seconds / workers > plans.MOST_SECONDS:
        raise plans.SkillError(
            f"the yardstick's trial would take about {plans.duration(seconds / workers)} "
            f"on {count(workers, 'worker')}, beyond the "
            f"{plans.duration(plans.MOST_SECONDS)} this runs: lower --trial-deals or "
            "--max-budget, name fewer --challenger, or choose the searcher with --player")
    return seconds / workers
