"""The skill analysis written out: a Markdown report, a summary fit for a README, the
JSON of every figure, and PNG plots when matplotlib is installed
(``pip install "cardarena[plots]"``)."""
import dataclasses
import json
import math
import pathlib

from tournament.skill import climbs, verdicts, yardstick
from tournament.stats.ratings import FEW_DEALS
from tournament.tables import count, markdown_table

PLOTS = ("elo.png", "ladder.png", "seats.png", "grid.png")


def write(results, out, command):
    """Write ``report.md``, ``summary.md``, ``skill.json`` and the plots of
    ``results`` (:class:`~tournament.skill.figures.Results`) into the folder ``out``;
    returns the paths written and, if the plots could not be drawn, why."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    # Plots of an earlier run into the same folder would no longer match the report.
    for name in PLOTS:
        (out / name).unlink(missing_ok=True)
    written = []
    for name, text in (("summary.md", summary(results, command)),
                       ("report.md", report(results, command)),
                       ("skill.json", json.dumps(dataclasses.replace(
                           results, command=command).to_dict(), indent=2) + "\n")):
        (out / name).write_text(text)
        written.append(out / name)
    try:
        written += plot(results, out)
        missing = None
    except ImportError:
        missing = 'the plots need matplotlib: pip install "cardarena[plots]"'
    return written, missing


# --- Markdown -----------------------------------------------------------------------


def summary(results, command):
    """The command, the sample sizes, the verdicts and the variants side by side."""
    variants = results.variants
    span = variants[0].span
    deals = results.deals
    lines = [
        f"`{command}`",
        "",
        _ladder_line(results),
        "",
        f"Every match of two rungs played {deals} deals, each in both seatings "
        f"({2 * deals} games), and each self-play {_self_play(variants, deals)}"
        f"{_more(results)}; "
        f"{sum(v.games for v in variants)} games in all. Intervals are 95%: Elo, "
        f"skill chains, SkillTrace and x% by a bootstrap over the deals "
        f"({results.bootstrap} resamples), scores by Wilson's interval"
        + (", but the first seat's over rotated deals by the bootstrap, since a deal's "
           "games share its cards." if any(v.seat.rotated for v in variants) else ".")
        + (f" With fewer than {FEW_DEALS} deals the bootstrap intervals are too narrow to "
           "trust." if deals < FEW_DEALS else ""),
        "",
        _verdict_deepest(results.deepest),
        _verdict_fairest(results.fairest, _top_of(results, results.fairest)),
        _verdict_searcher(variants),
        *_verdict_ceiling(variants),
    ]
    tallied = verdicts.tally_line(results)
    if tallied:
        lines.append(tallied)
    chess = results.chess
    if len(variants) > 1:
        lines.append(_verdict_chess(chess))
    failed = {v.name: sum(sum(k.values()) for k in v.failures.values())
              for v in variants}
    if any(failed.values()):
        lines.append("- **Failures**: " + ", ".join(
            f"{count(n, 'game')} in `{name}`" for name, n in failed.items() if n)
            + " ended with a bot failing (a timeout or an error) and count as its losses; "
            "raise --seconds-per-move, or see the report.")
    shares = {r.variant: r for r in chess.readings or ()}
    share = ([f"x% of `{chess.reference}`"] if shares else [])
    lines += [
        "",
        markdown_table(
            ["variant", f"Elo span {span.lowest} to {span.top}", "chain 60%", "chain 75%",
             "SkillTrace"] + share + ["first seat %", "Balance", "cheater's edge %",
                                      "draws %", "decisions", "branching"],
            [[f"`{v.name}`", _elo_cell(v.span), _chain_cell(v.chain["60%"]),
              _chain_cell(v.chain["75%"]), _trace_cell(v.skill_trace)]
             + ([_share_cell(shares.get(v.name))] if shares else [])
             + [_score_cell(v.seat), _number(v.seat.balance, "{:.3f}"),
                _score_cell(v.cheater_edge), _pct(v.shape.strong.draws),
                _number(v.shape.strong.decisions_mean, "{:.0f}"),
                _number(v.shape.strong.branching, "{:.1f}")] for v in variants],
            "l" + "r" * (10 + len(share))),
    ]
    return "\n".join(lines) + "\n"


def _more(results):
    """What the summary adds to its deals when open questions played more."""
    if not results.decide_to:
        return ""
    return (f"; then the matches of the questions still open played {results.deals} "
            f"more at a time, up to {results.decide_to} deals (the verdicts say how many "
            "games each took)")


# What the seat figures hold of the deals' luck, by ``Seat.rotated`` (None: a file
# written before rotations, which does not say).
DEALT = {True: " Each deal was played with its cards in every seat, so its luck is no "
               "seat's; the interval is from resamples of whole deals.",
         False: " The game cannot rotate its deal, so each deal was played once as dealt, "
                "and the luck of the cards a seat was dealt counts as the seat's.",
         None: ""}


def _self_play(variants, deals):
    """How the self-play matches dealt, in words: each deal with its cards in every
    seat where the variant can rotate its deal, else twice the deals as dealt."""
    rotated = [v.name for v in variants if v.seat.rotated]
    each = (f"{deals} deals, each played with its cards in every seat, so that no seat "
            "keeps a deal's luck")
    dealt = f"{2 * deals} deals"
    if any(v.seat.rotated is False for v in variants):  # None: a file that does not say
        dealt += " as dealt (the game cannot rotate its deal)"
    if len(rotated) == len(variants):
        return each
    if not rotated:
        return dealt
    return f"{each} ({_join([f'`{n}`' for n in rotated], 'and')}), else {dealt}"


def _top_of(results, verdict):
    """The name of the top rung of the variant a verdict names."""
    if verdict is None:
        return results.top
    return next(v.span.top for v in results.variants if v.name == verdict.variant)


def _ladder_line(results):
    budgets = results.budgets
    players = {}
    for v in results.variants:
        players.setdefault(v.player, []).append(f"`{v.name}`")
    if len(players) == 1:
        searcher = f"`{next(iter(players))}`"
    else:
        searcher = "the searcher (" + "; ".join(
            f"`{p}` in {_join(names, 'and')}" for p, names in players.items()) + ")"
    line = (f"Ladder: random, greedy, {searcher} at {budgets[0]} to {budgets[-1]} "
            f"iterations per move (doubling), and the cheater at {budgets[-1]}; each rung "
            f"met the {results.reach} above it.")
    return line + _trial_sentence(results.variants)


def _trial_sentence(variants):
    """How the yardstick's trial chose the searchers, or nothing if --player did."""
    trials = [v.yardstick for v in variants if v.yardstick]
    if not trials:
        return ""
    first = trials[0]
    games = first.challengers[0].games
    text = (f" The searcher is the yardstick's: `{first.incumbent}` met "
            f"{count(len(first.challengers), 'challenger')} at {first.budget} "
            f"iterations, {count(games, 'game')} each in every variant, ")
    if first.pooled is not None:
        best = max(first.pooled, key=lambda c: c.score)
        if first.player == first.incumbent:
            return text + (f"and over every variant's games pooled none beat it clearly "
                           f"(the best, `{best.player}`, scored {_percent_cell(best)}).")
        chosen = next(c for c in first.pooled if c.player == first.player)
        return text + (f"and over every variant's games pooled `{first.player}` beat it "
                       f"clearly, scoring {_percent_cell(chosen)}"
                       f"{yardstick.cheaper_than_best(first.pooled, first.player)}.")
    moved = [t for t in trials if t.player != t.incumbent]
    if not moved:
        return text + "and none beat it clearly in any."
    return text + "and " + "; ".join(
        f"`{t.player}` beat it clearly in `{t.variant}`" for t in moved) + "."


def _verdict_deepest(deepest):
    span = deepest.span
    name = f"`{deepest.variant}`"
    widest = f"the Elo span from {span.lowest} to {span.top} is {_elo_cell(span)}"
    second = deepest.runner_up
    if second is None:  # one variant, and no other to be deeper than
        return f"- **Depth**: {widest}."
    lead = f"{_elo(second.lead)} [{_elo(second.low)}, {_elo(second.high)}]"
    if deepest.clear:
        return (f"- **Deepest: {name}**: {widest}; it leads the runner-up "
                f"`{second.variant}` by {lead}, and every other variant clearly.")
    text = (f"- **Deepest: not told apart**: {name} has the widest Elo span from "
            f"{span.lowest} to {span.top}, {_elo_cell(span)}")
    unclear = [f"`{b.variant}`" for b in deepest.behind[1:] if not b.clear]
    if second.clear:
        text += (f"; it leads the runner-up `{second.variant}` by {lead}, but its "
                 f"{_leads(unclear)} {_are(unclear)} not clear of zero")
        return text + f", so these games do not tell it apart from {_them(unclear)}."
    text += (f", but its lead over the runner-up `{second.variant}`, {lead}, is not "
             "clear of zero")
    if unclear:
        return text + (f", nor {_are(unclear)} its {_leads(unclear)}, so these games do "
                       "not tell it apart from them.")
    return text + ", so these games do not tell the two apart."


def _them(names):
    return "it" if len(names) == 1 else "them"


def _leads(names):
    return ("lead over " if len(names) == 1 else "leads over ") + ", ".join(names)


def _are(names):
    return "is" if len(names) == 1 else "are"


def _verdict_fairest(fairest, top):
    if fairest is None:
        return (f"- **Fairest: none**: no self-play game of {top} ended without a failure "
                "or the length limit.")
    seat = fairest.seat
    name = f"`{fairest.variant}`"
    scores = (f"in self-play of {top} the first seat scores {_score_cell(seat)} (Balance "
              f"{seat.balance:.3f})")
    behind = fairest.behind
    if not behind:  # one variant seated, and no other to be fairer than
        return (f"- **Seats**: {scores}; " + ("its interval holds 50%." if fairest.even
                                              else "its seats are clearly uneven."))
    if fairest.clear:
        text = f"- **Fairest: {name}**: {scores}"
        if behind:
            second = behind[0]
            text += (f", clearly nearer 50% than in every other variant (by {_points(second)} "
                     f"points over the runner-up `{second.variant}`)")
        text += "; "
    else:
        unclear = [f"`{b.variant}`" for b in behind if not b.clear]
        text = (f"- **Fairest: not told apart**: {name}'s first seat scores nearest 50% "
                f"in self-play of {top}, {_score_cell(seat)} (Balance "
                f"{seat.balance:.3f}), but not clearly nearer 50% than the first seat "
                f"of {_join(unclear, 'or')} (the interval of the difference in distance "
                "from 50% holds zero); ")
    text += "its interval holds 50%." if fairest.even else "even so its seats are uneven."
    uneven = fairest.uneven
    if uneven:
        text += " The seats are clearly uneven in " + ", ".join(f"`{n}`" for n in uneven) + "."
    else:
        text += " No variant's interval excludes 50%."
    return text


def _points(lead):
    return f"{100 * lead.lead:.1f} [{100 * lead.low:.1f}, {100 * lead.high:.1f}]"


def _join(names, word):
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {word} " + names[-1]


def _verdict_searcher(variants):
    """Whether the top rung clearly beats the greedy player in every variant: where it
    does not, the ladder's searcher plays the game no better than a one-move look-ahead,
    and the spans above it tell of the searcher as much as of the rules."""
    tops = {v.span.top for v in variants}
    top = tops.pop() if len(tops) == 1 else "each variant's top rung"
    weak = [v for v in variants if not v.over_greedy.clear]
    if not weak:
        low = min(v.over_greedy.low for v in variants)
        return (f"- **Searcher**: {top} clearly beats greedy in every variant (the interval "
                f"of its Elo over greedy starts at {_elo(low)} or more).")
    below = [v for v in weak if v.over_greedy.high < 0]
    text = ("- **Searcher: weak yardstick**: " + top + " does not clearly beat greedy in "
            + ", ".join(f"`{v.name}` ({_elo_cell(v.over_greedy)} Elo)" for v in weak)
            + ("" if not below else "; it is clearly weaker in "
               + ", ".join(f"`{v.name}`" for v in below)))
    return text + (". There the searcher plays the game no better than a one-move "
                   "look-ahead, so the spans, chains and SkillTrace measure the searcher "
                   "as much as the rules.")


def _verdict_chess(chess):
    reference = f"`{chess.reference}`"
    gain = chess.gain
    if chess.readings is None:
        return (f"- **x% of {reference}**: not given: the deepest variant's doubling gain, "
                f"{_elo_cell(gain)} Elo, is not clear of zero, so there is no skill "
                "for a coin to dilute.")
    text = (f"- **x% of {reference}** (Duersch, Lambrecht and Oechssler 2020): a variant "
            f"is x% {reference} when a fair coin deciding 100 - x% of {reference}'s "
            f"doubling games brings their Elo gain, {_elo_cell(gain)}, down to the "
            "variant's")
    readings = chess.readings
    wider = [f"`{r.variant}`" for r in readings if r.wider]
    if wider:
        text += (f"; {_join(wider, 'and')} gain{'s' if len(wider) == 1 else ''}"
                 f" at least as much, so no coin brings {reference} down to "
                 f"{_them(wider)}")
    below = [f"`{r.variant}`" for r in readings if r.high < 100]
    level = [f"`{r.variant}`" for r in readings if r.high >= 100]
    if below:
        text += (f". Clearly less than 100% {reference}: {_join(below, 'and')}"
                 + (f"; not told apart from it: {_join(level, 'and')}" if level else ""))
    else:
        text += (f". Every interval reaches 100%: by this reading no variant is told "
                 f"apart from {reference}")
    return text + "."


def report(results, command):
    """The summary, then each variant in full."""
    parts = [f"# Skill ceiling\n\n{summary(results, command)}",
             "Columns: the Elo span, what the searcher gains from its lowest budget to its "
             "highest, is the depth; a skill chain counts the steps of the longest chain "
             "of rungs, up the ladder, each scoring at least 60% (or 75%) against the one "
             "before it; SkillTrace is Ludii's, over the searcher's doublings; x% is the "
             "share of the reference's doubling games a fair coin could decide before its "
             "Elo gain falls to the variant's (see docs/skill.md); first seat % is its "
             "score in strong self-play; the cheater's edge is its score against the "
             "searcher at the same budget; draws and decisions are from strong self-play. "
             "The bracketed intervals of the chains, SkillTrace and x% are 95% from "
             "resampling the deals with the draws the Elo intervals use, so that they "
             "move in step from variant to variant."]
    if len(results.variants) > 1:
        parts.append(_differences(results))
    listed = verdicts.section(results, markdown_table)
    if listed:
        parts.append(listed)
    for v in results.variants:
        parts.append(_variant(v, v.span.top))
    return "\n\n".join(parts) + "\n"


def _differences(results):
    names = [v.name for v in results.variants]
    table = results.depth_differences

    def cell(a, b):
        d = table[a][b]
        text = f"{_elo(d.lead)} [{_elo(d.low)}, {_elo(d.high)}]"
        return f"**{text}**" if d.clear or d.high < 0 else text

    return "\n\n".join([
        "## Depth compared",
        "How much wider the row's Elo span is than the column's, with the 95% interval "
        "of the difference; bold where the interval excludes zero.",
        markdown_table([""] + [f"`{n}`" for n in names],
                       [[f"`{a}`"] + [cell(a, b) if a != b else "" for b in names]
                        for a in names], "l" + "r" * len(names))])


# A kind of move gets a line of the report when its rung chose it in at least this share
# of its games, at most MOST_KINDS lines, the most chosen first; the rest share one line.
# skill.json holds every kind.
FEW_GAMES = 0.10
MOST_KINDS = 24


def _moves(figures, rung):
    """The table of the kinds of move ``rung`` chose."""
    n = figures.games
    if not n:
        return f"**{rung}**: no game ended without a failure or the length limit."
    shown = [k for k in figures.kinds if k.used.games >= FEW_GAMES * n]
    shown = shown[:MOST_KINDS]
    rows = [[k.kind, f"{k.per_game:.2f}", _pct(k.share), f"{k.used.games} / {n}",
             _taken_cell(k.taken), _score_cell(k.used), _score_cell(k.unused)]
            for k in shown]
    rest = [k for k in figures.kinds if k not in shown and k.times]
    if rest:
        times = sum(k.times for k in rest)
        rows.append([f"other ({count(len(rest), 'kind')})", f"{times / n:.2f}",
                     _pct(times / figures.decisions), "", "", "", ""])
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
    rows = [[k] + [_taken_cell(by[r][k].taken) if k in by[r] else "-" for r in rungs]
            for k in kinds]
    return markdown_table(["move"] + list(rungs), rows, "l" + "r" * len(rungs))


def _taken_cell(taken):
    return (f"{_pct(taken.share)} [{_pct(taken.low)}, {_pct(taken.high)}] "
            f"of {taken.games}")


def _variant(v, top):
    rungs = markdown_table(
        ["rung", "spec", "Elo", "95%"],
        [[r.name, f"`{r.spec}`", _elo(r.elo),
          f"{_elo(r.low)} to {_elo(r.high)}"] for r in v.rungs], "llrr")
    steps = markdown_table(
        ["step", "games", "score %", "± 2 SE", "95% Wilson"],
        [[f"{s.upper} v {s.lower}", str(s.games), _pct(s.score),
          _pct(2 * s.se), f"{_pct(s.low)}-{_pct(s.high)}"] for s in v.steps],
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
         ["first seat's score %", _score_cell(v.seat_random), _score_cell(seat)],
         ["draws %", _pct(shapes.random.draws), _pct(shapes.strong.draws)],
         ["stopped at the length limit %", _pct(shapes.random.stopped),
          _pct(shapes.strong.stopped)],
         ["decisions, mean / median", *(_pair(s, s.decisions_mean, s.decisions_median)
                                        for s in (shapes.random, shapes.strong))],
         ["turns, mean / median", *(_pair(s, s.turns_mean, s.turns_median)
                                    for s in (shapes.random, shapes.strong))],
         ["mean branching factor", _number(shapes.random.branching, "{:.2f}"),
          _number(shapes.strong.branching, "{:.2f}")]], "lrr")
    if seat.games:
        seats = (f"First seat in strong self-play: wins {_pct(seat.wins)}%, draws "
                 f"{_pct(seat.draws)}%, score {_score_cell(seat)} over {seat.games} "
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
        f"Skill chain: {_chain_cell(v.chain['60%'])} steps at 60%, "
        f"{_chain_cell(v.chain['75%'])} at 75%.",
        f"Doubling gain: the Elo the searcher's doubling steps imply, added up, "
        f"{_elo_cell(v.gain)}.",
        f"{top} over greedy: {_elo_cell(v.over_greedy)} Elo"
        + ("." if v.over_greedy.clear else ": not clear of zero, so the searcher is "
           "a weak yardstick for these rules, and this variant's span measures it as much "
           "as the rules."),
        f"SkillTrace {_trace_cell(trace)}: the stronger searcher's mean utility by level "
        f"{levels}; area {trace.area:.3f}; the fitted line, {trace.slope:+.4f} per "
        f"level from {trace.intercept:+.4f} at the first, reads "
        f"{trace.predicted:+.3f} two levels past the last, so y = {trace.y:.3f}."
        + caveat,
        *_climb(v.climb),
        "### Seats and shape",
        seats,
        shape,
        f"Cheater's edge: {edge.upper} scores {_score_cell(edge)} against "
        f"{edge.lower} over {edge.games} games, about {_elo(edge.elo)} Elo "
        f"[{_elo(edge.elo_low)}, {_elo(edge.elo_high)}].",
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


def _ended(climb):
    """How ``climb`` ended, or why it never started, as a sentence."""
    if climb.refused:
        return f"It does not climb: {climb.refused}."
    top = climb.ceiling
    if climb.ended == "ceiling":
        how = (f"The ceiling is reached at {top.budget} iterations: its last "
               f"{climbs.UNDECIDED} doublings are not told apart from no gain")
    else:
        how = (f"The cap is hit at budget {top.budget}: the next doubling would pass "
               f"{climb.cap}")
    return (f"{how}. The ceiling, {top.name}: {_elo_cell(top)} Elo above random play, "
            f"{_elo_cell(climb.over_greedy)} above greedy.")


def _climb(climb):
    """The report's section on the climb with the network; nothing without one."""
    if climb is None:
        return []
    if climb.refused:
        return ["### The climb with the network", _ended(climb)]
    steps = markdown_table(
        ["step", "games", "score %", "95% over the deals", "undecided"],
        [[f"{s.upper} v {s.lower}", str(s.games), _pct(s.score),
          f"{_pct(s.low)}-{_pct(s.high)}", "yes" if s.undecided else "no"]
         for s in climb.steps], "lrrrl")
    return ["### The climb with the network",
            f"Above the ladder, `{climb.player}` climbs: first at the top budget against "
            "the top rung (what the network adds), then doubling its budget, each rung "
            f"against the one below, until {climbs.UNDECIDED} doublings in a row are "
            f"undecided (their intervals hold 50%) or the cap of {climb.cap} iterations.",
            steps, _ended(climb)]


def _verdict_ceiling(variants):
    """A line per variant that climbed (or was asked to): how its climb ended."""
    lines = []
    for v in variants:
        if v.climb is not None:
            said = _ended(v.climb)
            lines.append(f"- **Ceiling** of `{v.name}`: {said[0].lower()}{said[1:]}")
    return lines


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
    rows = [[f"`{c.player}`", str(c.games), _pct(c.score),
             f"{_pct(c.low)}-{_pct(c.high)}", "yes" if c.clear else "no",
             _number(c.seconds, "{:.3g}")]
            + ([f"{_score_cell(pooled[c.player])}"
                + (", clearly" if pooled[c.player].clear else "")] if pooled else [])
            for c in trial.challengers]
    parts.append(markdown_table(
        ["challenger", "games", "score %", "interval", "clearly better", "s a game"]
        + (["pooled score %"] if pooled else []), rows, "lrrrlr" + ("r" if pooled else "")))
    return parts


def _pct(x):
    return "-" if x is None else f"{100 * x:.1f}"


def _number(x, fmt):
    return "-" if x is None else fmt.format(x)


def _pair(shape, mean, median):
    if shape.games == 0:
        return "-"
    return f"{mean:.1f} / {median:g}"


def _percent_cell(figure):
    return f"{_pct(figure.score)}% [{_pct(figure.low)}, {_pct(figure.high)}]"


def _score_cell(figure):
    if figure.score is None:
        return "-"
    return f"{_pct(figure.score)} [{_pct(figure.low)}, {_pct(figure.high)}]"


def _elo(x):
    """Elo as a signed whole number; rounding first keeps -0.4 from printing as -0."""
    return f"{round(x):+d}"


def _elo_cell(span):
    return f"{_elo(span.elo)} [{_elo(span.low)}, {_elo(span.high)}]"


def _chain_cell(chain):
    return f"{chain.length} [{chain.low}, {chain.high}]"


def _trace_cell(trace):
    return f"{trace.trace:.3f} [{trace.low:.3f}, {trace.high:.3f}]"


def _share_cell(reading):
    if reading is None:
        return "100"
    return f"{reading.x:.0f} [{reading.low:.0f}, {reading.high:.0f}]"


# --- plots ------------------------------------------------------------------------


def plot(results, out):
    """Draw ``elo.png`` (Elo against budget, one line per variant), ``ladder.png``
    (each step up the ladder with two standard errors), ``seats.png`` (the first
    seat's score per variant) and, when the variants are a grid of two
    parameters, ``grid.png`` (heat maps of depth and of the first seat's score).
    Raises ImportError without matplotlib."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot

    written = [_save(_plot_elo(results, pyplot), out / "elo.png", pyplot),
               _save(_plot_ladder(results, pyplot), out / "ladder.png", pyplot),
               _save(_plot_seats(results, pyplot), out / "seats.png", pyplot)]
    grid = _grid(results.variants)
    if grid is not None:
        written.append(_save(_plot_grid(grid, pyplot), out / "grid.png", pyplot))
    return written


def _plot_elo(results, pyplot):
    figure, axes = pyplot.subplots(figsize=(7, 4.5))
    for v in results.variants:
        rungs = [r for r in v.rungs if r.budget is not None
                 and not r.name.startswith("cheater")]
        x = [r.budget for r in rungs]
        y = [r.elo for r in rungs]
        errors = [[r.elo - r.low for r in rungs], [r.high - r.elo for r in rungs]]
        axes.errorbar(x, y, yerr=errors, marker="o", capsize=3, label=v.name)
    axes.set_xscale("log", base=2)
    axes.set_xticks(results.budgets, [str(b) for b in results.budgets])
    axes.minorticks_off()
    axes.set_xlabel("iterations per move")
    axes.set_ylabel("Elo over random play")
    axes.set_title("Elo against search budget (95% intervals)")
    axes.grid(alpha=0.3)
    axes.legend(fontsize="small")
    return figure


def _plot_ladder(results, pyplot):
    variants = results.variants
    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    chain = [r.name for r in results.rungs[:-1]]
    for k, v in enumerate(variants):
        steps = {(s.lower, s.upper): s for s in v.steps}
        shown = [steps[pair] for pair in zip(chain, chain[1:])]
        # Each variant's points are set a little apart, so that their bars can be told
        # apart.
        offset = 0.3 * (k / (len(variants) - 1) - 0.5) if len(variants) > 1 else 0
        scores = [100 * s.score for s in shown]
        # The bars stop at 0% and 100%, which no score passes.
        bars = [[min(x, 200 * s.se) for x, s in zip(scores, shown)],
                [min(100 - x, 200 * s.se) for x, s in zip(scores, shown)]]
        axes.errorbar([i + offset for i in range(len(shown))], scores, yerr=bars,
                      marker="o", linestyle="", capsize=3, label=v.name)
    axes.axhline(50, color="black", linewidth=0.8)
    axes.set_xticks(range(len(chain) - 1), [f"{b}\nv {a}" for a, b in zip(chain, chain[1:])],
                    fontsize="x-small")
    axes.set_ylabel("the upper rung's score %")
    axes.set_title("Ladder steps (bars: 2 standard errors)")
    axes.legend(fontsize="x-small")
    figure.tight_layout()
    return figure


def _plot_seats(results, pyplot):
    seated = [v for v in results.variants if v.seat.games]
    figure, axes = pyplot.subplots(figsize=(max(5, 0.8 * len(seated) + 2), 4))
    names = [v.name for v in seated]
    scores = [100 * v.seat.score for v in seated]
    errors = [[100 * (v.seat.score - v.seat.low) for v in seated],
              [100 * (v.seat.high - v.seat.score) for v in seated]]
    axes.bar(range(len(names)), scores, yerr=errors, capsize=4, color="tab:blue", alpha=0.7)
    axes.axhline(50, color="black", linewidth=0.8)
    axes.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize="small")
    axes.set_ylabel("first seat's score % in self-play")
    axes.set_title("Seat advantage (95% intervals)")
    figure.tight_layout()
    return figure


def _plot_grid(grid, pyplot):
    (row_key, row_values), (col_key, col_values), cell = grid
    figure, panels = pyplot.subplots(1, 2, figsize=(11, 4.5))
    for axes, title, value, colours in (
            (panels[0], "Elo span (depth)", lambda v: v.span.elo, "viridis"),
            (panels[1], "first seat's score %", lambda v: 100 * v.seat.score,
             "coolwarm")):
        table = [[value(cell[(r, c)]) if cell[(r, c)].seat.games
                  or colours == "viridis" else math.nan for c in col_values]
                 for r in row_values]
        if colours == "coolwarm":  # centred on an even game
            reach = max([5] + [abs(x - 50) for row in table for x in row
                               if not math.isnan(x)])
            image = axes.imshow(table, cmap=colours, origin="lower", vmin=50 - reach,
                                vmax=50 + reach)
        else:
            image = axes.imshow(table, cmap=colours, origin="lower")
        _label_cells(axes, table, image, colours)
        axes.set_xticks(range(len(col_values)), col_values)
        axes.set_yticks(range(len(row_values)), row_values)
        axes.set_xlabel(col_key)
        axes.set_ylabel(row_key)
        axes.set_title(title)
        figure.colorbar(image, ax=axes)
    figure.tight_layout()
    return figure


def _label_cells(axes, table, image, colours):
    low, high = image.get_clim()
    for i, row in enumerate(table):
        for j, x in enumerate(row):
            # Dark text on viridis's light yellows and greens, light on its blues.
            light = colours == "viridis" and (x - low) < 0.6 * (high - low)
            axes.text(j, i, "-" if math.isnan(x) else f"{x:.0f}", ha="center",
                      va="center", color="white" if light else "black")


def _grid(variants):
    """((row parameter, its values), (column parameter, its values), variant by cell)
    when the variants are every combination of two parameters' values; else None."""
    keys = {tuple(v.params) for v in variants}
    if len(keys) != 1 or len(next(iter(keys))) != 2:
        return None
    row_key, col_key = next(iter(keys))
    rows = list(dict.fromkeys(v.params[row_key] for v in variants))
    cols = list(dict.fromkeys(v.params[col_key] for v in variants))
    cell = {(v.params[row_key], v.params[col_key]): v for v in variants}
    if len(cell) != len(rows) * len(cols):
        return None
    return (row_key, rows), (col_key, cols), cell


def _save(figure, path, pyplot):
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
    return path
