"""A skill analysis in one call, from Python as from ``cardarena skill``: the plan, the
yardstick's trial, the ladder, and the figures.  For instance
``analyse("card_duel", ["default", "life=15"], db="duel.db")`` plays both variants'
ladders into ``duel.db`` and returns their figures; ``report.write(results, folder,
command)`` then writes the report, the JSON and the plots, as the command does.
"""
import dataclasses

from tournament.harness import runner
from tournament.harness.store import Store
from tournament.skill import analysis, climbs, plans, verdicts, yardstick
from tournament.skill.defaults import CHALLENGERS, TRIAL_DEALS
from tournament.tables import count


@dataclasses.dataclass(frozen=True)
class Analysis:
    """An analysis checked and ready to play: its plan and, unless the searcher was
    given, the yardstick's trials that choose it."""

    plan: plans.Plan
    trials: tuple
    """The yardstick's :class:`~tournament.skill.yardstick.Trial` of each variant; empty
    when the searcher is given."""
    trial_each: bool
    """Whether each variant climbs with its own trial's choice, not the pooled one."""
    workers: int
    """The processes the cost checks assume."""
    trial_seconds: float
    """The trial's estimated length on ``workers`` processes."""
    climb_to: int | None = None
    """The most iterations a move the climb above the ladder may reach; None for no
    climb."""


def prepare(game, variants=(), grid=(), *, deals=30, player=None, challengers=(),
            trial_each=False, trial_deals=TRIAL_DEALS, min_budget=8, max_budget=1024,
            reach=1, seed=0, seconds_per_move=60.0, climb_to=None, decide_to=None,
            workers=None):
    """The :class:`Analysis` of ``game``'s ``variants`` (and ``grid``), as ``cardarena
    skill`` takes them; raises :class:`~tournament.skill.plans.SkillError` if it
    cannot be played, or would take longer than the analysis allows."""
    if player and (challengers or trial_each):
        raise plans.SkillError("--challenger and --trial-each shape the trial, and "
                                  "--player skips it; give one or the other")
    workers = workers or runner.cpus()
    if decide_to is not None and decide_to <= deals:
        raise plans.SkillError(f"--decide-to is the most deals a match may reach, above "
                               f"--deals ({deals}), not {decide_to}")
    plan = plans.Plan(plans.variants(game, variants, grid),
                         plans.ladder(player or plans.PLAYER, min_budget, max_budget),
                         deals=deals, seed=seed, reach=reach,
                         seconds_per_move=seconds_per_move, decide_to=decide_to)
    plan.check()
    if climb_to is not None:
        climbs.check_cap(climb_to, plan.ladder.top.budget)
    trials = () if player else tuple(yardstick.trials(
        plan.variants, plans.PLAYER, plan.ladder.budgets[-1],
        challengers or CHALLENGERS, deals=trial_deals, seed=seed,
        seconds_per_move=seconds_per_move))
    plan.check_cost(workers)
    if climb_to is not None:
        climbs.check_cost(plan, climb_to, workers)
    return Analysis(plan, trials, trial_each, workers,
                    yardstick.check_cost(trials, workers), climb_to)


def run(prepared, store, *, play=None, say=None, bootstrap=1000):
    """Play ``prepared`` (an :class:`Analysis`) into ``store``, the games already
    stored kept, and return its figures.  ``play(schedule, what)`` plays a list of
    harness configs described by ``what`` (by default on local processes, quietly);
    ``say(text)`` is told the trial's choice."""
    play = play or (lambda schedule, what: runner.run(schedule, store, progress=False,
                                                      workers=prepared.workers))
    say = say or (lambda text: None)
    plan = prepared.plan
    if prepared.trials:
        trials = prepared.trials
        play([c for t in trials for c in t.configs()],
             f"The yardstick's trial, {count(len(trials[0].challengers), 'challenger')} "
             f"at {trials[0].budget} iterations in each of "
             f"{count(len(trials), 'variant')} (about "
             f"{plans.duration(prepared.trial_seconds)})")
        choices = [yardstick.choose(store, t) for t in trials]
        if prepared.trial_each or len(choices) == 1:
            for choice in choices:
                say(f"{choice.variant}: {yardstick.describe(choice)}.")
        else:
            choices = yardstick.pool(choices)
            say(f"Every variant: {yardstick.describe(choices[0])}.")
        plan = dataclasses.replace(plan, yardsticks=tuple(choices))
        plan.check_cost(prepared.workers)
        if prepared.climb_to is not None:
            climbs.check_cost(plan, prepared.climb_to, prepared.workers)
    schedule = plan.schedule()
    play(schedule, f"{count(len(plan.variants), 'variant')}, "
                   f"{count(len(schedule) // len(plan.variants), 'match', 'matches')} each")
    results = None
    if plan.decide_to is not None:
        plan, results = decide(store, plan, play, bootstrap)
    climbed = {}
    if prepared.climb_to is not None:
        why = climbs.unguided(plan)
        if why:
            say(f"Every variant climbs without the network: {why}.")
        climbed = {v.name: climbs.climb(store, plan, v, prepared.climb_to, play,
                                        bootstrap=bootstrap) for v in plan.variants}
    results = results or analysis.measure(store, plan, bootstrap=bootstrap, seed=plan.seed)
    return dataclasses.replace(results, variants=[
        dataclasses.replace(f, climb=climbed.get(f.name)) for f in results.variants])


def decide(store, plan, play, bootstrap):
    """Play the matches that open questions read a batch of ``plan.deals`` deals
    further, and again, until every question is decided or every match it reads has
    played ``plan.decide_to`` deals; the plan with the deals played, and its figures."""
    while True:
        found = analysis.measure(store, plan, bootstrap=bootstrap, seed=plan.seed)
        grow = verdicts.wanted(plan, found.verdicts, plan.decide_to)
        if not grow:
            return plan, found
        plan = plan.extended(grow)
        schedule = [c for v in plan.variants for c in plan.configs(v)
                    if (v.name, tuple(c.bots)) in grow]
        still = sum(not v.decided for v in found.verdicts)
        play(schedule, f"{count(still, 'question')} open: "
                       f"{count(len(schedule), 'match', 'matches')} to "
                       f"{max(grow.values())} deals at most")


def analyse(game, variants=(), grid=(), *, db, workers=None, progress=False,
            bootstrap=1000, **options):
    """Prepare and run an analysis of ``game`` in one call, storing its games in the
    SQLite file ``db`` (run it again to resume), and return its figures.  ``options``
    are :func:`prepare`'s."""
    prepared = prepare(game, variants, grid, workers=workers, **options)
    with Store(db) as store:
        return run(prepared, store, bootstrap=bootstrap,
                   play=lambda schedule, what: runner.run(schedule, store, workers=workers,
                                                          progress=progress))

