"""Each variant's section of the report: its rungs and steps, its chain, SkillTrace and
climb, its seats and shape, and the moves its rungs chose.  A section reads one variant
alone, while ``report`` holds the summary and what compares the variants; the summary
borrows only the sentence on how a climb ended."""
from tournament.skill import climbs, yardstick
from tournament.skill.cells import (chain_cell, elo, elo_cell, number, pair, pct, score_cell,
                                    taken_cell, trace_cell)
from tournament.tables import count, markdown_table

# What the seat figures hold of the deals' luck, by ``Seat.rotated`` (None: a file
# written before rotations, which does not say).
DEALT = {True: " Each deal was played with its cards in every seat, so its luck is no "
               "seat's; the interval is from resamples of whole deals.",
         False: " The game cannot rotate its deal, so each deal was played once as dealt, "
                "and the luck of the cards a seat was dealt counts as the seat's.",
         None: ""}


# A kind of move gets a line of the report when its rung chose it in at least this share
# of its games, at most MOST_KINDS lines, the most chosen first; the rest share one line.
# skill.json holds every kind.
FEW_GAMES = 0.10
MOST_KINDS = 24


def variant(v, top, by_deal=False):
    """The section of ``v`` in full; ``top`` is its top searcher rung, whose moves are
    shown beside greedy's; ``by_deal`` says the steps' intervals are read from the
    spread between deals (``Results.by_deal``), not Wilson's over the games."""
    rungs = markdown_table(
        ["rung", "spec", "Elo", "95%"],
        [[r.name, f"`{r.spec}`", elo(r.elo),
          f"{elo(r.low)} to {elo(r.high)}"] for r in v.rungs], "llrr")
    steps = markdown_table(
        ["step", "games", "score %", "± 2 SE", "95% by deal" if by_deal else "95% Wilson"],
        [[f"{s.upper} v {s.lower}", str(s.games), pct(s.score),
          pct(2 * s.se), f"{pct(s.low)}-{pct(s.high)}"] for s in v.steps],
        "lrrrr")
    trace = v.skill_trace
    levels = ", ".join(f"{x:+.3f}" for x in trace.levels)
    caveat = (f" With {len(trace.levels)} levels the extrapolated line decides much of "
              "the trace; Ludii plays 8." if len(trace.levels) < 4 else "")
    shapes = v.shape
    seat, edge = v.seat, v.cheater_edge
    shape = markdown_table(
        ["", "random play", "strong play"],
        [["games no bot failed", str(shapes.random.games), str(shapes.strong.games)],
         ["first seat's score %", score_cell(v.seat_random), score_cell(seat)],
         ["draws %", pct(shapes.random.draws), pct(shapes.strong.draws)],
         ["stopped at the length limit %", pct(shapes.random.stopped),
          pct(shapes.strong.stopped)],
         ["decisions, mean / median", *(pair(s, s.decisions_mean, s.decisions_median)
                                        for s in (shapes.random, shapes.strong))],
         ["turns, mean / median", *(pair(s, s.turns_mean, s.turns_median)
                                    for s in (shapes.random, shapes.strong))],
         ["mean branching factor", number(shapes.random.branching, "{:.2f}"),
          number(shapes.strong.branching, "{:.2f}")]], "lrr")
    if seat.games:
        seats = (f"First seat in strong self-play: wins {pct(seat.wins)}%, draws "
                 f"{pct(seat.draws)}%, score {score_cell(seat)} over {seat.games} "
                 f"games that ended; Balance {seat.balance:.3f}." + DEALT[seat.rotated])
    else:
        seats = "No strong self-play game ended without a failure or the length limit."
    failures = "; ".join(f"{bot}: " + ", ".join(f"{n} {kind}" for kind, n in kinds.items())
                         for bot, kinds in v.failures.items())
    return "\n\n".join([
        f"## `{v.name}` (`{v.game}`)",
        *_yardstick(v),
        "### Elo, relative to random play",
        rungs,
        "### Ladder steps: the upper rung's score (draws half)",
        steps,
        f"Skill chain: {chain_cell(v.chain['60%'])} steps at 60%, "
        f"{chain_cell(v.chain['75%'])} at 75%.",
        f"Doubling gain: the Elo the searcher's doubling steps imply, added up, "
        f"{elo_cell(v.gain)}.",
        f"{top} over greedy: {elo_cell(v.over_greedy)} Elo"
        + ("." if v.over_greedy.clear else ": not clear of zero, so the searcher is "
           "a weak yardstick for these rules, and this variant's span measures it as much "
           "as the rules."),
        f"SkillTrace {trace_cell(trace)}: the stronger searcher's mean utility by level "
        f"{levels}; area {trace.area:.3f}; the fitted line, {trace.slope:+.4f} per "
        f"level from {trace.intercept:+.4f} at the first, reads "
        f"{trace.predicted:+.3f} two levels past the last, so y = {trace.y:.3f}."
        + caveat,
        *_climb(v.climb),
        "### Seats and shape",
        seats,
        shape,
        f"Cheater's edge: {edge.upper} scores {score_cell(edge)} against "
        f"{edge.lower} over {edge.games} games, about {elo(edge.elo)} Elo "
        f"[{elo(edge.elo_low)}, {elo(edge.elo_high)}].",
        "Failures, each counted as the failing bot's loss: " + failures + "."
        if failures else "No bot failed.",
        "### Moves",
        f"How often {top} and greedy chose each kind of move, over the games they played "
        "that ended, each side a sample (so a self-play game counts once for each side); "
        "and their score (1 alone on top, 0 last, draws half) in the games where they "
        "chose it at least once, against the games where they did not, with 95% Wilson "
        "intervals. A score that goes with a move is a correlation, not a cause: a "
        "player ahead may choose moves it would not choose behind. Moves chosen in under "
        f"{FEW_GAMES:.0%} of the games share the last line; skill.json has every rung "
        "and every kind.",
        _moves(v.usage[top], top),
        _moves(v.usage["greedy"], "greedy"),
        "### Chosen when offered",
        "Of the games in which a kind of move was legal at one of a rung's decisions, "
        "the share in which the rung chose it, with the 95% Wilson interval and the "
        "number of such games; a kind strong rungs pass over though they could choose "
        "it (a card nobody strong buys) is a candidate for a redesign.",
        _taken(v.usage, ["greedy"] + [r.name for r in v.rungs
                                      if r.budget is not None
                                      and not r.name.startswith("cheater")]),
    ])


def _yardstick(v):
    """The trial that chose the variant's searcher: each challenger's score against
    the default, its interval and whether it beat it clearly."""
    trial = v.yardstick
    if not trial:
        return []
    k = len(trial.challengers)
    parts = [
        "### Yardstick",
        f"The searcher is `{v.player}`. At {trial.budget} iterations a move, "
        f"`{trial.incumbent}` met each challenger on {trial.deals} deals; a "
        f"challenger beats it clearly when its score's Wilson interval, at "
        f"{100 - 5 / k:.4g}% so that the {count(k, 'interval')} together hold 95%, lies "
        "above 50%. Of several, the highest scoring is chosen, unless one not clearly "
        f"below it thinks in under {100 * yardstick.CHEAPER:.0f}% of its time a game: "
        "then the cheapest such, as the ladder costs what its searcher costs."
        + (" The searcher was chosen over every variant's trial games pooled (the last "
           "column); this variant's own games are in the others." if trial.pooled is not None
           else "")]
    pooled = {c.player: c for c in trial.pooled or []}
    rows = [[f"`{c.player}`", str(c.games), pct(c.score),
             f"{pct(c.low)}-{pct(c.high)}", "yes" if c.clear else "no",
             number(c.seconds, "{:.3g}")]
            + ([f"{score_cell(pooled[c.player])}"
                + (", clearly" if pooled[c.player].clear else "")] if pooled else [])
            for c in trial.challengers]
    parts.append(markdown_table(
        ["challenger", "games", "score %", "interval", "clearly better", "s a game"]
        + (["pooled score %"] if pooled else []), rows, "lrrrlr" + ("r" if pooled else "")))
    return parts


def ended(climb):
    """How ``climb`` ended, as a sentence.  A climb written before ``Climb.below``
    ended on two undecided doublings, its ceiling the top rung, and keeps its words."""
    top, last = climb.ceiling, climb.steps[-1]
    if climb.ended == "ceiling":
        how = f"The ceiling is reached at {top.budget} iterations: " + (
            f"the {climbs.NO_GAIN} doublings above it gain nothing these games show"
            if climb.below else
            f"its last {climbs.NO_GAIN} doublings are not told apart from no gain")
    else:
        how = (f"The cap is hit at budget {last.budget}: the next doubling would pass "
               f"{climb.cap}")
        if top.budget != last.budget:
            how += (f"; the last doubling gains nothing these games show, so the "
                    f"ceiling so far is {top.budget}")
    edge = score_cell(climb.cheater_edge)
    cheater = (f"The cheater at the climb's top budget, {last.budget}, seeing every "
               f"card, scores {edge}% against the searcher there." if climb.below else
               f"The cheater at its budget, seeing every card, scores {edge}% against it.")
    return (f"{how}. The ceiling, {top.name}: {elo_cell(top)} Elo above random play, "
            f"{elo_cell(climb.over_greedy)} above greedy. {cheater}")


def _climb(climb):
    """The report's section on the climb; nothing without one."""
    if climb is None:
        return []
    steps = markdown_table(
        ["step", "games", "score %", "95% over the deals",
         "gain shown" if climb.below else "undecided"],
        [[f"{s.upper} v {s.lower}", str(s.games), pct(s.score),
          f"{pct(s.low)}-{pct(s.high)}",
          "yes" if (s.gains if climb.below else s.undecided) else "no"]
         for s in climb.steps], "lrrrl")
    if climb.unguided:
        how = (f"Above the ladder, `{climb.player}` climbs on without the network, as "
               f"every variant does, since one has none: {climb.unguided}. It doubles its "
               "budget, each rung against the one below,")
    else:
        how = (f"Above the ladder, `{climb.player}` climbs: first at the top budget "
               "against the top rung (what the network adds), then doubling its budget, "
               "each rung against the one below,")
    until = (f"until {climbs.NO_GAIN} doublings in a row gain nothing these games show "
             f"(their intervals do not lie above 50%) or the cap of {climb.cap} "
             "iterations; the ceiling is the rung below such doublings." if climb.below
             else f"until {climbs.NO_GAIN} doublings in a row are undecided (their "
             f"intervals hold 50%) or the cap of {climb.cap} iterations.")
    return ["### The climb", f"{how} {until}", steps, ended(climb)]


def _moves(figures, rung):
    """The table of the kinds of move ``rung`` chose."""
    n = figures.games
    if not n:
        return f"**{rung}**: no game ended without a failure or the length limit."
    shown = [k for k in figures.kinds if k.used.games >= FEW_GAMES * n]
    shown = shown[:MOST_KINDS]
    rows = [[k.kind, f"{k.per_game:.2f}", pct(k.share), f"{k.used.games} / {n}",
             taken_cell(k.taken), score_cell(k.used), score_cell(k.unused)]
            for k in shown]
    rest = [k for k in figures.kinds if k not in shown and k.times]
    if rest:
        times = sum(k.times for k in rest)
        rows.append([f"other ({count(len(rest), 'kind')})", f"{times / n:.2f}",
                     pct(times / figures.decisions), "", "", "", ""])
    return "\n\n".join([
        f"**{rung}**: {count(n, 'game')} (one per side it held), "
        f"{figures.decisions / n:.1f} decisions a game.",
        markdown_table(["move", "per game", "% of decisions", "games used",
                        "% of games offered", "score % when used", "score % when not"],
                       rows, "lrrrrrr")])


def _taken(usage, rungs):
    """The table of how often each rung chose each kind in the games where it was
    offered: a kind a strong rung passes over though it could have chosen it (a market
    card nobody strong buys) is one a designer may look at again.  Kinds offered in
    under FEW_GAMES of the top rung's games are left out; sorted by the top rung's
    share, highest first."""
    top = usage[rungs[-1]]
    found = {k.kind: k for k in top.kinds}
    kinds = [k for k, v in found.items() if v.taken.games >= FEW_GAMES * top.games]
    kinds.sort(key=lambda k: (-found[k].taken.share, k))
    by = {r: {k.kind: k for k in usage[r].kinds} for r in rungs}
    rows = [[k] + [taken_cell(by[r][k].taken) if k in by[r] else "-" for r in rungs]
            for k in kinds]
    return markdown_table(["move"] + list(rungs), rows, "l" + "r" * len(rungs))
