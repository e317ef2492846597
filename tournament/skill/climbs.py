"""The climb above a ladder's fixed rungs, to the searcher's ceiling.

The fixed rungs stop at a budget where the searcher is often still gaining.  Above
them the top searcher, given the game's network (``model=default``), climbs: first at
the top fixed budget, against the top fixed rung, then at each doubling of the
budget against the rung below, each match played through the harness and stored.
Where one variant of the analysis has no network shipped, every variant climbs
without one, doubling the top fixed rung itself: ceilings reached by two kinds of
player would not compare.  The climb stops when two doublings in a row gain nothing
the games show (their scores' 95% intervals do not lie above 50%: undecided, or
clearly worse) or when the next doubling would pass the cap.  The ceiling is the rung
below the doublings at the top that gain nothing: where more search stops paying, as
far as the games tell.  With ``--decide-to``, a step whose first deals leave it
open plays a batch of deals more, and again, as the ladder's open questions do, until
its score is clear of 50% or within 5 points of it, or would need more deals than the
cap at the score seen so far: gains of 20 to 40 Elo a doubling, common near the top,
are not told from none on the first deals alone.  The cheater at the top is played the
same way.  Which rungs are played depends on the results so far, so it plays step by
step; the deals and bots are seeded, so a rerun on the same store plays nothing and
stops where it stopped.
"""
import dataclasses

import search
from core.errors import CardArenaError
from tournament.harness import config as configs
from tournament.skill import analysis, plans, verdicts
from tournament.skill.figures import Climb, ClimbStep, RatedRung
from tournament.skill.plans import Rung, SkillError
from tournament.sparring import levels
from tournament.stats.ratings import deal_weights, elo_samples
from tournament.tables import count

# Doublings in a row that gain nothing the games show and end a climb: one alone is
# often noise.
NO_GAIN = 2


def learned(player):
    """``player`` (a searcher's spec without a budget) guided by the game's network."""
    kind, values = search.parse_bot(player)
    return search.bot_spec(kind, {**values, "model": "default"})


def refusal(game, player):
    """The one line saying why ``player`` cannot climb on the game string ``game``
    (no network is shipped for it); None if it can."""
    try:
        search.make_bot(levels.spec(learned(player), 1), configs.load_game(game), 0)
    except CardArenaError as e:
        return str(e)
    return None


def unguided(plan):
    """Why ``plan``'s variants climb without the network: the first one's refusal
    where a variant has none shipped; None when every variant has one."""
    for variant in plan.variants:
        why = refusal(variant.game, plan.ladder_of(variant).player)
        if why:
            return why
    return None


def rung(player, budget, guided=True):
    """The climbing rung of ``player`` (without the network) at ``budget``: with the
    network, or else the ladder's own rung at that budget."""
    if not guided:
        return plans.rung(player, budget)
    kind, _ = search.parse_bot(player)
    return Rung(f"{kind}-{budget}-model", levels.spec(learned(player), budget), budget)


def start(top, guided):
    """The first climbing budget above the top fixed rung ``top``: the same budget
    with the network, which is the step it adds; without it, the next doubling."""
    return top.budget if guided else 2 * top.budget


def check_cap(cap, top):
    """Raise SkillError unless the cap ``cap`` lets the climb start at ``top``."""
    if cap < top:
        raise SkillError(f"--climb-to {cap} is below the ladder's top budget {top}: the "
                         "climb starts there")


def check_cost(plan, cap, workers):
    """Raise SkillError if the longest climb the cap allows (every doubling up to
    ``cap`` in every variant) would take longer than the analysis allows on
    ``workers`` processes, timing the searcher as it climbs, or if ``cap`` leaves it
    no step."""
    why = unguided(plan)
    guided = why is None
    seconds = 0.0
    for variant in plan.variants:
        ladder = plan.ladder_of(variant)
        first = start(ladder.top, guided)
        if cap < first:
            raise SkillError(f"--climb-to {cap}: without the network ({why}) the climb "
                             f"starts at twice the ladder's top budget, {first}")
        player = learned(ladder.player) if guided else ladder.player
        decisions, per_iteration = plans.measure_cost(variant.game, player)
        budgets = plans.doublings(first, cap)
        step = match(plan, variant, ladder.top, rung(ladder.player, first, guided))
        # A step's two rungs each play half its decisions: the mean of their budgets.
        per_game = decisions * per_iteration * sum(
            (a + b) / 2 for a, b in zip((ladder.top.budget,) + budgets, budgets))
        seconds += (plan.decide_to or plan.deals) * step.games_per_deal * per_game
    if seconds / workers > plans.MOST_SECONDS:
        raise SkillError(f"--climb-to {cap}: the climb could take about "
                         f"{plans.duration(seconds / workers)} on "
                         f"{count(workers, 'worker')}, beyond the "
                         f"{plans.duration(plans.MOST_SECONDS)} this runs: lower "
                         "--climb-to")


def climb(store, plan, variant, cap, play, *, bootstrap=1000):
    """Climb ``variant``'s ladder in ``plan`` up to ``cap`` iterations a move, playing
    each step with ``play(schedule, what)`` into ``store``; return the
    :class:`~tournament.skill.figures.Climb`, its ceiling fitted with the fixed
    rungs' games."""
    ladder = plan.ladder_of(variant)
    why = unguided(plan)
    player = ladder.player if why else learned(ladder.player)
    lower, budget = ladder.top, start(ladder.top, why is None)
    steps, rungs, played, no_gain = [], [], [], 0
    while budget <= cap and no_gain < NO_GAIN:
        upper = rung(ladder.player, budget, why is None)
        config, found = settle(store, plan, variant, lower, upper, play,
                               f"Variant {variant.name}, the climb: {upper.name} against "
                               f"{lower.name}", bootstrap)
        steps.append(found)
        rungs.append(upper)
        played.append(config)
        if found.doubling:
            no_gain = 0 if found.gains else no_gain + 1
        lower, budget = upper, 2 * budget
    # Below the trailing doublings that gain nothing: the top fixed rung if every
    # climbing rung is one of them.
    top = ([ladder.top] + rungs)[len(rungs) - no_gain]
    ceiling, over_greedy = rate(store, plan, variant, played, rungs, top, bootstrap)
    return Climb(player=player, cap=cap, unguided=why, steps=steps,
                 ended="ceiling" if no_gain == NO_GAIN else "cap",
                 ceiling=ceiling, over_greedy=over_greedy,
                 cheater_edge=cheat(store, plan, variant, rungs[-1], play, bootstrap),
                 below=True)


def settle(store, plan, variant, lower, upper, play, what, bootstrap):
    """Play ``upper`` against ``lower`` over the plan's deals and, where the plan
    decides its questions (``decide_to``), a batch of deals more at a time while the
    score is open and might close within the cap; the config played and its
    :class:`~tournament.skill.figures.ClimbStep`."""
    deals = plan.deals
    while True:
        config = match(plan, variant, lower, upper, deals)
        play([config], what if deals == plan.deals else f"{what}, to {deals} deals")
        found = judge(store, config, lower, upper, plan.seed, bootstrap)
        if plan.decide_to is None or deals >= plan.decide_to:
            return config, found
        figure = (found.score, found.low, found.high, 0.5)
        needed = verdicts.to_decide(figure, deals)
        if verdicts.reading(figure) or needed is None or needed > plan.decide_to:
            return config, found
        deals = min(plan.decide_to, deals + plan.deals)


def cheat(store, plan, variant, top, play, bootstrap):
    """The cheater's edge at the top of the climb: the cheater at the top climbing
    rung's budget against it, over the ladder's deals (more where the plan decides its
    questions, as ``settle`` plays them).  Below the ceiling the cheater and the
    searcher may both play too weakly to use what the cheater sees."""
    cheater = plans.cheater(plan.ladder_of(variant).player, top.budget)
    config, _ = settle(store, plan, variant, top, cheater, play,
                       f"Variant {variant.name}, the climb's top: {cheater.name} against "
                       f"{top.name}", bootstrap)
    return analysis.cheater_edge(_rows(store, config), top.name, cheater.name,
                                 configs.sides(variant.game))


def match(plan, variant, lower, upper, deals=None):
    """The harness config of ``upper`` against ``lower`` on ``variant`` over ``deals``
    deals (the plan's by default), as the ladder's own matches are made."""
    return configs.Config(game=variant.game, bots={lower.name: lower.spec,
                                                   upper.name: upper.spec},
                          deals=deals or plan.deals, seed=plan.seed,
                          seconds_per_move=plan.seconds_per_move,
                          max_length=plan.max_length, kind="skill")


def judge(store, config, lower, upper, seed, bootstrap):
    """The :class:`~tournament.skill.figures.ClimbStep` of ``upper`` against
    ``lower`` from the games of ``config``, its interval from resampling the deals."""
    rows = _rows(store, config)
    sides = configs.sides(config.game)
    played = analysis.step(rows, lower.name, upper.name, sides)
    deals = sorted({r.deal for r in rows})
    low, high = analysis.interval(analysis.resampled_scores(
        rows, upper.name, deals, deal_weights(len(deals), seed, bootstrap), sides))
    return ClimbStep(lower=lower.name, upper=upper.name, budget=upper.budget,
                     doubling=upper.budget > lower.budget, games=played.games,
                     score=played.score, low=low, high=high, undecided=low <= 0.5 <= high)


def rate(store, plan, variant, played, rungs, ceiling, bootstrap):
    """The ``ceiling`` rung's Elo above random play and above greedy, fitted over the
    ladder's matches and the climb's (the configs ``played``, of the climbing
    ``rungs``) together, as the ladder's Elo is."""
    alone = plan.alone(variant)
    named = {r.name: r for r in alone.ladder.rungs + rungs}
    pairs = [c for c in alone.configs(variant) if len(c.bots) == 2] + list(played)
    rows = [row for config in pairs for row in _rows(store, config)]
    names = list(named)
    elo, samples = elo_samples(rows, names, seed=plan.seed, bootstrap=bootstrap,
                               sides=configs.sides(variant.game))
    elo, samples = elo - elo[0], samples - samples[:, :1]
    top, greedy = names.index(ceiling.name), names.index("greedy")
    low, high = analysis.interval(samples[:, top])
    rated = RatedRung(**dataclasses.asdict(ceiling), elo=float(elo[top]), low=low,
                      high=high)
    return rated, analysis.clear(float(elo[top] - elo[greedy]),
                                  samples[:, top] - samples[:, greedy])


def _rows(store, config):
    rows = store.games(config.key, deals=range(config.deals))
    if len(rows) < config.deals * config.games_per_deal:
        raise SkillError(f"{' v '.join(config.bots)}: {len(rows)} games are stored; run "
                         "the analysis to play the rest")
    return rows
