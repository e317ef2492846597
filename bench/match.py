"""bench/search.py --match: our ismcts against an opponent at equal time per move, the
games played here one after another, with the tally and its intervals."""
import json
import math
import os
import random
import statistics
import time

import pyspiel

import core
import search

GOAL_WIN_RATE = 0.9           # wins against OpenSpiel's Python ISMCTS at 1 s per move
# What a game's record counts for each side: searched moves, their wall time, and the
# searches that said how many iterations they ran, with those iterations.
TALLIED = ("moves", "seconds", "searches", "iterations")


def wilson(k, n, z=1.96):
    """The 95% Wilson score interval of a rate of ``k`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def play(game, bots, seed, seat):
    """One game between ``bots`` (one per seat), chance drawn from ``seed``: its record,
    the returns and, for ``seat``'s bot (``ours``) and the others together (``peer``),
    the searched moves, their wall time and the iterations their searches ran, where a
    bot says.  Every bot is told every other move and chance outcome, as OpenSpiel's
    ``evaluate_bots`` does, so a bot that keeps its tree can."""
    rng = random.Random(seed)
    tally = {side: dict.fromkeys(TALLIED, 0) for side in ("ours", "peer")}
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
            side = tally["ours" if p == seat else "peer"]
            side["moves"] += 1
            side["seconds"] += time.perf_counter() - t0
            last = getattr(bots[p], "last", None)
            if last is not None:
                side["searches"] += 1
                side["iterations"] += last.iterations
        for other, bot in enumerate(bots):
            if other != p:
                bot.inform_action(state, p, action)
        state.apply_action(action)
    return {"returns": list(state.returns()), **tally}


def match_specs(opponent, seconds, ours):
    """The two bots of a match: ours, and the opponent's."""
    more = f",{ours}" if ours else ""
    if opponent == "threads":
        return (f"ismcts(seconds={seconds:g},threads=2{more})",
                f"ismcts(seconds={seconds:g}{more})")
    return f"ismcts(seconds={seconds:g}{more})", f"openspiel_ismcts(seconds={seconds:g})"


def recorded(path, header):
    """The games ``path`` holds for the match ``header`` describes, in order; a new file
    is started with the header.  A file of another match is refused: its games would
    be tallied as this one's."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        with open(path, "w") as f:
            f.write(json.dumps(header) + "\n")
        return []
    with open(path) as f:
        lines = f.read().splitlines()
    try:
        first = json.loads(lines[0])
        games = [json.loads(line) for line in lines[1:] if line.strip()]
    except (json.JSONDecodeError, IndexError):
        raise core.CardArenaError(f"{path} is not a record of a match; give another file")
    if first != header:
        raise core.CardArenaError(
            f"{path} records another match ({first.get('ours')} against "
            f"{first.get('theirs')} on {first.get('game')}, seed {first.get('seed')}, "
            f"{first.get('seconds')} s); give another file")
    return games


def match(game_name, opponent, games, seconds, seed, ours, out, record=None):
    """``games`` games of ``game_name`` between our ismcts and the opponent at
    ``seconds`` per move: OpenSpiel's ISMCTS (its Python bot on our games, its C++ bot
    on its own), or with ``opponent="threads"``, ismcts on one thread against ours on
    two, both with ``ours``' parameters.  Ours takes each seat in turn against the
    opponent in every other seat, each deal once per seat.  A line per game as it
    ends, then the tally: a game is won when ours scores more than the opponents'
    mean, and the margin is that difference.  With ``record``, a file, every game is
    written to it as it ends, and the games it already holds are not played again:
    a long match goes on where a killed one stopped."""
    game = core.load_game(game_name) if core.parse_spec(game_name)[0] in core.GAMES \
        else pyspiel.load_game(game_name)
    n = game.num_players() if callable(getattr(game, "num_players", None)) else game.num_players
    mine, theirs = match_specs(opponent, seconds, ours)
    header = {"format": "cardarena match", "game": game_name, "ours": mine,
              "theirs": theirs, "seconds": seconds, "seed": seed}
    done = recorded(record, header) if record else []
    wins = losses = draws = 0
    margins = []
    by_deal = {}
    spent = {side: dict.fromkeys(TALLIED, 0) for side in ("ours", "peer")}
    out(f"match on {game_name}: {mine} against {theirs}, {games} games, seed {seed}")
    if done:
        out(f"  {min(len(done), games)} of them recorded in {record}")
    load = os.getloadavg()[0]
    for i in range(games):
        deal, seat = seed * 1000 + i // n, i % n
        t0 = time.perf_counter()
        if i < len(done):
            result = done[i]
            if (result.get("deal"), result.get("seat")) != (deal, seat):
                raise core.CardArenaError(f"{record}: game {i + 1} is not deal {deal} with "
                                          f"ours in seat {seat}; give another file")
        else:
            specs = [mine if p == seat else theirs for p in range(n)]
            bots = [search.make_bot(s, game, p, seed=deal * n + p)
                    for p, s in enumerate(specs)]
            result = {"deal": deal, "seat": seat, **play(game, bots, deal, seat)}
            if record:
                with open(record, "a") as f:
                    f.write(json.dumps(result) + "\n")
        returns = result["returns"]
        for side, sums in spent.items():
            for k in TALLIED:
                sums[k] += result[side][k]
        margin = returns[seat] - statistics.fmean(r for p, r in enumerate(returns) if p != seat)
        margins.append(margin)
        by_deal.setdefault(deal, []).append(margin)
        wins, losses, draws = wins + (margin > 0), losses + (margin < 0), draws + (margin == 0)
        if i < len(done):
            continue
        outcome = "win" if margin > 0 else "loss" if margin < 0 else "draw"
        out(f"  game {i + 1}: deal {deal}, ours in seat {seat}: {outcome}, margin {margin:+g}; "
            f"{result['ours']['moves']} + {result['peer']['moves']} searched moves, "
            f"{time.perf_counter() - t0:.0f} s; so far +{wins} -{losses} ={draws}")
    score = (wins + 0.5 * draws) / games
    low, high = wilson(wins + 0.5 * draws, games)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(games) if games > 1 else math.inf
    per_move = {side: sums["seconds"] / sums["moves"] if sums["moves"] else 0.0
                for side, sums in spent.items()}
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
    # The load is this run's: of games read from a record it says nothing.
    played = games > len(done)
    out(f"mean seconds per searched move: ours {per_move['ours']:.3f}, "
        f"opponent {per_move['peer']:.3f}" + (
            f"; the machine's load average (of {os.cpu_count()} cores) {load:.1f} at the "
            f"start of this run, {os.getloadavg()[0]:.1f} at the end" if played else ""))
    # Under a time budget, what a second thread buys is more iterations: the ratio
    # says how many more it found cores for.
    if spent["ours"]["searches"] and spent["peer"]["searches"]:
        ours, peer = (spent[side]["iterations"] / spent[side]["searches"]
                      for side in ("ours", "peer"))
        out(f"mean iterations per searched move: ours {ours:.0f}, opponent {peer:.0f} "
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
