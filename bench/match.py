"""bench/search.py --match: our ismcts against an opponent at equal time per move, the
games played here one after another, with the tally and its intervals."""
import math
import os
import random
import statistics
import time

import pyspiel

import core
import search

GOAL_WIN_RATE = 0.9           # wins against OpenSpiel's Python ISMCTS at 1 s per move


def wilson(k, n, z=1.96):
    """The 95% Wilson score interval of a rate of ``k`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def play(game, bots, seed, clock, runs):
    """One game between ``bots`` (one per seat), chance drawn from ``seed``; each
    searched move's wall time is added to ``clock`` under the mover's seat, and the
    iterations its search ran, where the bot says, to ``runs``.  Every bot
    is told every other move and chance outcome, as OpenSpiel's ``evaluate_bots``
    does, so a bot that keeps its tree can.  Returns the returns."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        p = state.current_player()
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            action = rng.choices(actions, probs)[0]
        elif len(state.legal_actions()) == 1:
            action = state.legal_actions()[0]
        else:
            t0 = time.perf_counter()
            action = bots[p].step(state)
            clock[p].append(time.perf_counter() - t0)
            last = getattr(bots[p], "last", None)
            if last is not None:
                runs[p].append(last.iterations)
        for other, bot in enumerate(bots):
            if other != p:
                bot.inform_action(state, p, action)
        state.apply_action(action)
    return state.returns()


def match_specs(opponent, seconds, ours):
    """The two bots of a match: ours, and the opponent's."""
    more = f",{ours}" if ours else ""
    if opponent == "threads":
        return (f"ismcts(seconds={seconds:g},threads=2{more})",
                f"ismcts(seconds={seconds:g}{more})")
    return f"ismcts(seconds={seconds:g}{more})", f"openspiel_ismcts(seconds={seconds:g})"


def match(game_name, opponent, games, seconds, seed, ours, out):
    """``games`` games of ``game_name`` between our ismcts and the opponent at
    ``seconds`` per move: OpenSpiel's ISMCTS (its Python bot on our games, its C++ bot
    on its own), or with ``opponent="threads"``, ismcts on one thread against ours on
    two, both with ``ours``' parameters.  Ours takes each seat in turn against the opponent in every other seat, each
    deal once per seat.  A line per game as it ends, then the tally: a game is won
    when ours scores more than the opponents' mean, and the margin is that
    difference."""
    game = core.load_game(game_name) if core.parse_spec(game_name)[0] in core.GAMES \
        else pyspiel.load_game(game_name)
    n = game.num_players() if callable(getattr(game, "num_players", None)) else game.num_players
    mine, theirs = match_specs(opponent, seconds, ours)
    wins = losses = draws = 0
    margins = []
    by_deal = {}
    times = {"ours": [], "peer": []}
    counts = {"ours": [], "peer": []}
    out(f"match on {game_name}: {mine} against {theirs}, {games} games, seed {seed}")
    load = os.getloadavg()[0]
    for i in range(games):
        deal, seat = seed * 1000 + i // n, i % n
        specs = [mine if p == seat else theirs for p in range(n)]
        bots = [search.make_bot(s, game, p, seed=deal * n + p) for p, s in enumerate(specs)]
        clock = [[] for _ in range(n)]
        runs = [[] for _ in range(n)]
        t0 = time.perf_counter()
        returns = play(game, bots, deal, clock, runs)
        times["ours"] += clock[seat]
        times["peer"] += [t for p in range(n) if p != seat for t in clock[p]]
        counts["ours"] += runs[seat]
        counts["peer"] += [k for p in range(n) if p != seat for k in runs[p]]
        margin = returns[seat] - statistics.fmean(r for p, r in enumerate(returns) if p != seat)
        margins.append(margin)
        by_deal.setdefault(deal, []).append(margin)
        wins, losses, draws = wins + (margin > 0), losses + (margin < 0), draws + (margin == 0)
        outcome = "win" if margin > 0 else "loss" if margin < 0 else "draw"
        out(f"  game {i + 1}: deal {deal}, ours in seat {seat}: {outcome}, margin {margin:+g}; "
            f"{len(clock[seat])} + {sum(len(clock[p]) for p in range(n) if p != seat)} "
            f"searched moves, {time.perf_counter() - t0:.0f} s; so far +{wins} -{losses} "
            f"={draws}")
    score = (wins + 0.5 * draws) / games
    low, high = wilson(wins + 0.5 * draws, games)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(games) if games > 1 else math.inf
    spent = {k: statistics.fmean(v) if v else 0.0 for k, v in times.items()}
    out(f"{mine} against {theirs} on {game_name} at {seconds:g} s per move: {games} "
        f"game{'s' if games > 1 else ''}, {wins} won, {losses} lost, {draws} drawn; score "
        f"{score:.3f}, 95% Wilson interval {low:.3f}-{high:.3f}; mean margin {mean:+.3f} "
        f"± {half:.3f} (95%)")
    # A deal played from every seat is one draw of the cards: the games of one deal
    # share its luck, so the deals, not the games, are the independent samples, and
    # their mean margins vary less than single games' do.
    deals = [statistics.fmean(v) for v in by_deal.values() if len(v) == n]
    if len(deals) > 1:
        mean = statistics.fmean(deals)
        half = 1.96 * statistics.stdev(deals) / math.sqrt(len(deals))
        out(f"by deal, ours in each of the {n} seats: {len(deals)} deals, mean margin "
            f"{mean:+.3f} ± {half:.3f} (95%)")
    out(f"mean seconds per searched move: ours {spent['ours']:.3f}, "
        f"opponent {spent['peer']:.3f}; the machine's load average (of {os.cpu_count()} "
        f"cores) {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    # Under a time budget, what a second thread buys is more iterations: the ratio
    # says how many more it found cores for.
    if counts["ours"] and counts["peer"]:
        ours, peer = (statistics.median(counts[k]) for k in ("ours", "peer"))
        out(f"median iterations per searched move: ours {ours:g}, opponent {peer:g} "
            f"({ours / peer:.2f} times)")
    # The margin, not the score, says who is stronger: with more than two players, or
    # payoffs spread unevenly, an even match need not score one half.
    verdict = "ours is stronger" if mean - half > 0 else "the opponent is stronger" \
        if mean + half < 0 else "no difference shown"
    out(f"verdict at 95%, by the margin{' over deals' if len(deals) > 1 else ''}: {verdict}")
    if game_name == "shrine" and opponent == "openspiel":
        goal = "met" if score >= GOAL_WIN_RATE else "NOT met"
        out(f"goal: at least {GOAL_WIN_RATE:.0%} wins against OpenSpiel's Python ISMCTS at 1 s "
            f"per move -- {goal if seconds == 1 else 'not measured here'}")
