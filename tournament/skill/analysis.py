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

``tournament.skill.plans`` says what is played, and ``tournament.skill.report`` writes the
figures as Markdown, JSON and plots.  Nothing here names a game.
"""
import collections
import dataclasses
import itertools
import math
import statistics

import numpy as np
import pyspiel

from tournament.harness import config as configs
from tournament.harness.deals import Deal
from tournament.skill.figures import (Chain, Chess, Clear, Deepest, Edge, Fairest,
                                      KindFigures, LadderRung, Lead, MeanScore,
                                      MoveFigures, RatedRung, Reading, Results, RunnerUp,
                                      Seat, Shape, Shapes, Share, SkillTrace, Span, Step,
                                      VariantFigures)
from tournament.skill.plans import SkillError, rotates
from tournament.skill.verdicts import verdicts
from tournament.stats.intervals import deal_wilson, wilson
from tournament.stats.ratings import deal_weights, elo_samples, match_scores
from tournament.tables import count

# The scores a skill chain's links must reach: one rung beats the one below it this often.
THRESHOLDS = (0.60, 0.75)


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
    side (``sides``: each seat alone by default): 1, 0.5 or 0; and the deal of each."""
    found, deals = [], []
    for row in rows:
        for a, b, score in match_scores(row, sides):
            found.append(score if a == bot else 1 - score)
            deals.append(row.deal)
    return found, deals


def step(rows, lower, upper, sides=None):
    """One ladder step: ``upper``'s score against ``lower`` over ``rows`` with TAG's
    standard error (the standard deviation of the match scores over the square root of
    their number) and the 95% interval from the spread between deals
    (``deal_wilson``)."""
    scores, deals = scores_of(rows, upper, sides)
    n = len(scores)
    mean = sum(scores) / n
    se = math.sqrt(sum((s - mean) ** 2 for s in scores) / n / n)
    low, high = deal_wilson(scores, deals)
    return Step(lower=lower, upper=upper, games=n, score=mean, se=se, low=low, high=high)


def cheater_edge(rows, searcher, cheater, sides=None):
    """The cheater's :class:`~tournament.skill.figures.Edge` over ``searcher`` in
    ``rows``: its step, and the Elo its score and interval imply."""
    played = step(rows, searcher, cheater, sides)
    return Edge(**dataclasses.asdict(played), elo=elo_of(played.score),
                elo_low=elo_of(played.low), elo_high=elo_of(played.high))


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
        deal = Deal(None, row.rotation)
        count = runs = 0
        last = None
        for action in row.history:
            deal.step(state)
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


def seat_advantage(rows, sides=None, *, seed=0, bootstrap=1000):
    """The first side's results in self-play (the first seat's, or its team's): wins
    (alone on top), draws (on top with others), its score (from 1 on top alone to 0
    last, Ludii's utility rescaled; draws half with two sides) with its 95% interval,
    and Ludii's Balance of the seats, over the games that ended: no bot failed, and
    the length limit did not stop them.  Every figure is None without such a game.

    Games whose deals were rotated (``GameRow.rotation``) give each deal's cards to
    every seat, and the interval is then the 2.5th to 97.5th percentiles of the score
    on ``bootstrap`` resamples of whole deals drawn from ``seed`` (``_resampled_seat``);
    otherwise it is read from the spread between deals (``deal_wilson``).  Either way a
    deal's games, which share its cards, count as one draw of luck."""
    rotated = any(r.rotation for r in rows)
    resamples = _resampled_seat(rows, sides, seed, bootstrap) if rotated else None
    rows = [r for r in rows if r.status == "ok"]
    n = len(rows)
    if not n:
        return Seat(games=0, wins=None, draws=None, score=None, low=None, high=None,
                    balance=None, rotated=rotated)
    by_side = [[sum(r.returns[p] for p in side)
                for side in sides or [(p,) for p in range(len(r.returns))]] for r in rows]
    wins = sum(g[0] > max(g[1:]) for g in by_side)
    draws = sum(g[0] == max(g[1:]) for g in by_side)
    scores = [(utilities(g)[0] + 1) / 2 for g in by_side]
    score = sum(scores) / n
    low, high = interval(resamples) if rotated else deal_wilson(scores, [r.deal for r in rows])
    return Seat(games=n, wins=wins / n, draws=draws / n, score=score, low=low, high=high,
                balance=balance(rows), rotated=rotated)


def kinds_chosen(engine, history, rotation=0):
    """The kinds of move (``action_kind``) each seat chose in one game of ``engine`` (a
    core game) whose actions and chance outcomes were ``history``, its deal rotated by
    ``rotation`` seats, a Counter per seat; and the kinds each seat was offered (legal
    at one of its decisions), a set per seat."""
    state = engine.new_initial_state()
    chosen = [collections.Counter() for _ in range(engine.num_players)]
    offered = [set() for _ in range(engine.num_players)]
    deal = Deal(None, rotation)
    for action in history:
        deal.step(state)
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
        chosen, offered = kinds_chosen(engine, row.history, row.rotation)
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
    # Every variant's resamples draw from the same deal numbers, the most any of its
    # matches played, so that its figures move in step with every other variant's.
    most = {size: max([plan.deals] + [n for _, bots, n in plan.more if len(bots) == size])
            for size in (1, 2)}
    for variant in plan.variants:
        choice = next((c for c in plan.yardsticks if c.variant == variant.name), None)
        figures, samples[variant.name] = _measure_variant(store, plan.alone(variant),
                                                          variant, choice, bootstrap, seed,
                                                          most)
        found.append(figures)
    spans = {name: s.span for name, s in samples.items()}
    deepest = _deepest(found, spans)
    differences = _differences(found, spans)
    return Results(deals=plan.deals, seed=plan.seed, reach=plan.reach, bootstrap=bootstrap,
                   player=plan.ladder.player, budgets=list(plan.ladder.budgets),
                   top=plan.ladder.top.name,
                   rungs=[LadderRung(**dataclasses.asdict(r)) for r in plan.ladder.rungs],
                   variants=found, deepest=deepest,
                   depth_differences=differences,
                   fairest=_fairest(found, {name: s.seat for name, s in samples.items()}),
                   chess=_chess(found, samples, deepest.variant),
                   verdicts=verdicts(plan, found, differences), decide_to=plan.decide_to,
                   by_deal=True)


@dataclasses.dataclass(frozen=True)
class _Resamples:
    """A variant's figures on every resample of the deals, for the verdicts that set
    variants side by side."""

    span: np.ndarray
    seat: np.ndarray | None
    """The first side's score in strong self-play; None without a game that ended."""
    doubling: tuple
    """The doubling steps' scores, and their resamples (steps by resamples)."""


def _measure_variant(store, plan, variant, choice, bootstrap, seed, most):
    ladder = plan.ladder
    rows = {}
    for config in plan.configs(variant):
        got = store.games(config.key, deals=range(config.deals))
        expected = config.deals * config.games_per_deal
        if len(got) < expected:
            raise SkillError(f"variant {variant.name}: {len(got)} of "
                             f"{count(expected, 'game')} of "
                             f"{' v '.join(config.bots)} are stored; run the analysis to "
                             "play the rest")
        rows[tuple(config.bots)] = got
    names = [r.name for r in ladder.rungs]
    matched = [row for pair in plan.pairs() for row in rows[pair]]
    sides = configs.sides(variant.game)
    deals = range(most[2])
    elo, resamples = elo_samples(matched, names, seed=seed, bootstrap=bootstrap,
                                 sides=sides, deals=deals, block=plan.deals)
    anchored = elo - elo[0]
    anchored_samples = resamples - resamples[:, :1]
    rungs = []
    for k, rung in enumerate(ladder.rungs):
        low, high = interval(anchored_samples[:, k])
        rungs.append(RatedRung(**dataclasses.asdict(rung), elo=float(anchored[k]), low=low,
                               high=high))
    # The depth is what the searcher gains from its lowest budget to its highest: the
    # gaps to random and greedy play are often sweeps, which the Elo fit bounds by its
    # prior rather than by the games.
    top, bottom = names.index(ladder.top.name), names.index(ladder.searchers[0].name)
    span_samples = anchored_samples[:, top] - anchored_samples[:, bottom]
    low, high = interval(span_samples)
    steps = [step(rows[pair], *pair, sides) for pair in plan.pairs()[:-1]]
    scores = {(s.lower, s.upper): s.score for s in steps}
    # Resampled with the deals the Elo fit drew, so that every variant's figures move
    # in step with each other's.
    weights = deal_weights(len(deals), seed, bootstrap, plan.deals)
    resampled = {pair: resampled_scores(rows[pair], pair[1], deals, weights, sides)
                 for pair in scores}
    chain = [r.name for r in ladder.chain]
    searchers = [r.name for r in ladder.searchers]
    doubling = [scores[pair] for pair in zip(searchers, searchers[1:])]
    doubling_samples = np.array([resampled[pair] for pair in zip(searchers, searchers[1:])])
    greedy = names.index("greedy")
    over_greedy = anchored_samples[:, top] - anchored_samples[:, greedy]
    edge = cheater_edge(rows[plan.pairs()[-1]], *plan.pairs()[-1], sides)
    game = pyspiel.load_game(variant.game)
    random_play, strong_play = (rows[(name,)] for name in plan.self_play())
    dealt = 1 if rotates(variant.game) else 2
    seat_samples = _resampled_seat(strong_play, sides, seed, bootstrap, most[1] * dealt,
                                   plan.deals * dealt)
    moves = usage(configs.rules(variant.game), itertools.chain.from_iterable(rows.values()))
    failures = {}
    for row in itertools.chain.from_iterable(rows.values()):
        if row.failed is not None:
            kinds = failures.setdefault(row.failed, {})
            kinds[row.status] = kinds.get(row.status, 0) + 1
    trace_low, trace_high = interval([skill_trace(2 * level - 1).trace
                                       for level in doubling_samples.T])
    figures = VariantFigures(
        name=variant.name, game=variant.game, params=variant.params,
        games=sum(len(r) for r in rows.values()),
        rungs=rungs,
        span=Span(elo=float(anchored[top] - anchored[bottom]), low=low, high=high,
                  lowest=ladder.searchers[0].name, top=ladder.top.name),
        over_greedy=clear(float(anchored[top] - anchored[greedy]), over_greedy),
        chain={f"{t:.0%}": _chain(scores, resampled, chain, t) for t in THRESHOLDS},
        skill_trace=dataclasses.replace(skill_trace([2 * score - 1 for score in doubling]),
                                        low=trace_low, high=trace_high),
        gain=clear(float(gain(doubling)), gain(doubling_samples)),
        steps=steps,
        seat=seat_advantage(strong_play, sides, seed=seed, bootstrap=bootstrap),
        seat_random=seat_advantage(random_play, sides, seed=seed, bootstrap=bootstrap),
        shape=Shapes(random=shape(game, random_play), strong=shape(game, strong_play)),
        cheater_edge=edge,
        failures=failures,
        usage={r.name: moves.get(r.name, move_figures([])) for r in ladder.rungs},
        player=ladder.player,
        yardstick=choice)
    return figures, _Resamples(span_samples, seat_samples, (doubling, doubling_samples))


def interval(samples):
    """The 2.5th and 97.5th percentiles of ``samples``: a 95% interval from resamples;
    ``(None, None)`` without any."""
    if not len(samples):
        return None, None
    # A resample of self-play deals that draws no game that ended has no seat figure
    # (NaN): it is left out rather than taken for one.
    low, high = np.nanpercentile(samples, [2.5, 97.5])
    return float(low), float(high)


def clear(value, samples):
    """A figure, its interval, and whether the interval is clear of zero."""
    low, high = interval(samples)
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


def _resampled_seat(rows, sides, seed, bootstrap, deals=None, block=None):
    """The first side's score in each resample of the deals of self-play ``rows`` (or
    of the deal numbers ``0..deals-1``, drawn within runs of ``block`` as
    ``deal_weights`` draws them, to move in step with another's), over the games that ended, as ``seat_advantage`` counts it (NaN in a
    resample that draws none of them); None without such a game.  A resample draws
    whole deals: a deal played in every rotation of its cards brings all of them, so
    that its luck, which they share out among the seats, stays shared out."""
    ended = [r for r in rows if r.status == "ok"]
    if not ended:
        return None
    deals = sorted({r.deal for r in rows}) if deals is None else range(deals)
    column = {deal: i for i, deal in enumerate(deals)}
    points, games = np.zeros(len(deals)), np.zeros(len(deals))
    for row in ended:
        by_side = [sum(row.returns[p] for p in side)
                   for side in sides or [(p,) for p in range(len(row.returns))]]
        points[column[row.deal]] += (utilities(by_side)[0] + 1) / 2
        games[column[row.deal]] += 1
    weights = deal_weights(len(deals), seed, bootstrap, block)
    with np.errstate(invalid="ignore"):
        return (weights @ points) / (weights @ games)


def _lead(a, b, samples):
    """How much wider a's span is than b's, with the interval of the differences of
    their resamples taken in step (one seed draws the same deal numbers for every
    variant), and whether that interval is clear of zero."""
    low, high = interval(samples[a.name] - samples[b.name])
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
        low, high = interval(np.abs(samples[other.name] - 0.5)
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
        low, high = interval(chess_share(resampled, other_resampled))
        readings.append(Reading(variant=figures.name, x=float(chess_share(scores, other)),
                                low=low, high=high, wider=figures.gain.elo >= base.gain.elo))
    return Chess(reference=reference, gain=base.gain, readings=readings, reason=None)
