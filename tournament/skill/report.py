"""The skill analysis written out: a Markdown report, a summary fit for a README, the
JSON of every figure, and PNG plots when matplotlib is installed
(``pip install "cardarena[plots]"``).  What reads across the variants is here (the
summary, its verdicts, the depths compared); each variant's own section is in
``sections``, the cells both print in ``cells``, and the drawing in ``plots``."""
import dataclasses
import json
import pathlib

from tournament.skill import plots, sections, verdicts, yardstick
from tournament.skill.cells import (chain_cell, elo, elo_cell, number, pct, percent_cell,
                                    score_cell, share_cell, trace_cell)
from tournament.stats.ratings import FEW_DEALS
from tournament.tables import count, markdown_table


def write(results, out, command):
    """Write ``report.md``, ``summary.md``, ``skill.json`` and the plots of
    ``results`` (:class:`~tournament.skill.figures.Results`) into the folder ``out``;
    returns the paths written and, if the plots could not be drawn, why."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    # Plots of an earlier run into the same folder would no longer match the report.
    for name in plots.PLOTS:
        (out / name).unlink(missing_ok=True)
    written = []
    for name, text in (("summary.md", summary(results, command)),
                       ("report.md", report(results, command)),
                       ("skill.json", json.dumps(dataclasses.replace(
                           results, command=command).to_dict(), indent=2) + "\n")):
        (out / name).write_text(text)
        written.append(out / name)
    try:
        written += plots.plot(results, out)
        missing = None
    except ImportError:
        missing = 'the plots need matplotlib: pip install "cardarena[plots]"'
    return written, missing


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
        f"({results.bootstrap} resamples), {_score_intervals(results)}"
        + (f" With fewer than {FEW_DEALS} deals the bootstrap intervals are too narrow to "
           "trust." if deals < FEW_DEALS else ""),
        "",
        _verdict_deepest(results.deepest),
        _verdict_fairest(results.fairest, _top_of(results, results.fairest)),
        _verdict_searcher(variants),
        _verdict_hidden(variants),
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
            [[f"`{v.name}`", elo_cell(v.span), chain_cell(v.chain["60%"]),
              chain_cell(v.chain["75%"]), trace_cell(v.skill_trace)]
             + ([share_cell(shares.get(v.name))] if shares else [])
             + [score_cell(v.seat), number(v.seat.balance, "{:.3f}"),
                score_cell(v.cheater_edge), pct(v.shape.strong.draws),
                number(v.shape.strong.decisions_mean, "{:.0f}"),
                number(v.shape.strong.branching, "{:.1f}")] for v in variants],
            "l" + "r" * (10 + len(share))),
    ]
    return "\n".join(lines) + "\n"


def _score_intervals(results):
    """How the summary's scores got their intervals, in words."""
    rotated = any(v.seat.rotated for v in results.variants)
    if results.by_deal:
        return ("scores by Wilson's interval with the games counted as the spread "
                "between deals says they weigh, since a deal's games share its cards"
                + (" (the first seat's over rotated deals by the bootstrap)." if rotated
                   else "."))
    return "scores by Wilson's interval" + (
        ", but the first seat's over rotated deals by the bootstrap, since a deal's "
        "games share its cards." if rotated else ".")


def _more(results):
    """What the summary adds to its deals when open questions played more."""
    if not results.decide_to:
        return ""
    return (f"; then the matches of the questions still open played {results.deals} "
            f"more at a time, up to {results.decide_to} deals (the verdicts say how many "
            "games each took)")


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
                           f"(the best, `{best.player}`, scored {percent_cell(best)}).")
        chosen = next(c for c in first.pooled if c.player == first.player)
        return text + (f"and over every variant's games pooled `{first.player}` beat it "
                       f"clearly, scoring {percent_cell(chosen)}"
                       f"{yardstick.cheaper_than_best(first.pooled, first.player)}.")
    moved = [t for t in trials if t.player != t.incumbent]
    if not moved:
        return text + "and none beat it clearly in any."
    return text + "and " + "; ".join(
        f"`{t.player}` beat it clearly in `{t.variant}`" for t in moved) + "."


def _verdict_deepest(deepest):
    span = deepest.span
    name = f"`{deepest.variant}`"
    widest = f"the Elo span from {span.lowest} to {span.top} is {elo_cell(span)}"
    second = deepest.runner_up
    if second is None:  # one variant, and no other to be deeper than
        return f"- **Depth**: {widest}."
    lead = f"{elo(second.lead)} [{elo(second.low)}, {elo(second.high)}]"
    if deepest.clear:
        return (f"- **Deepest: {name}**: {widest}; it leads the runner-up "
                f"`{second.variant}` by {lead}, and every other variant clearly.")
    text = (f"- **Deepest: not told apart**: {name} has the widest Elo span from "
            f"{span.lowest} to {span.top}, {elo_cell(span)}")
    unclear = [f"`{b.variant}`" for b in deepest.behind[1:] if not b.clear]
    if second.clear:
        text += (f"; it leads the runner-up `{second.variant}` by {lead}, but its "
                 f"{_leads(unclear)} {_are(unclear)} not clear of zero")
        return text + f", so these games do not tell it apart from {_them(unclear)}."
    text += (f", but its lead over the runner-up `{second.variant}`, {lead}, is not "
             "clear of zero")
    if unclear:
        text += (f", nor {_are(unclear)} its {_leads(unclear)}, so these games do not "
                 "tell it apart from them.")
    else:
        text += ", so these games do not tell the two apart."
    shallower = [f"`{b.variant}`" for b in deepest.behind if b.clear]
    if shallower:
        text += f" It is clearly deeper than {_join(shallower, 'and')}."
    return text


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
    scores = (f"in self-play of {top} the first seat scores {score_cell(seat)} (Balance "
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
        farther = [f"`{b.variant}`" for b in behind if b.clear]
        text = (f"- **Fairest: not told apart**: {name}'s first seat scores nearest 50% "
                f"in self-play of {top}, {score_cell(seat)} (Balance "
                f"{seat.balance:.3f}), but not clearly nearer 50% than the first seat "
                f"of {_join(unclear, 'or')} (the interval of the difference in distance "
                "from 50% holds zero)"
                + (f"; it is clearly nearer 50% than {_join(farther, 'and')}"
                   if farther else "") + "; ")
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


def _top_rung(variants):
    """The top searcher rung's name, shared by every variant, or words for each's."""
    tops = {v.span.top for v in variants}
    return tops.pop() if len(tops) == 1 else "each variant's top rung"


def _verdict_searcher(variants):
    """Whether the top rung clearly beats the greedy player in every variant: where it
    does not, the ladder's searcher plays the game no better than a one-move
    look-ahead, and the spans above it tell of the searcher as much as of the rules,
    unless the climb says more: a ceiling clearly above greedy (the searcher needed
    more search), or a ceiling that is not while the cheater at its top does not
    clearly win either (neither more search nor every card seen beats greedy: the
    rules leave little above it)."""
    top = _top_rung(variants)
    weak = [v for v in variants if not v.over_greedy.clear]
    if not weak:
        low = min(v.over_greedy.low for v in variants)
        return (f"- **Searcher**: {top} clearly beats greedy in every variant (the interval "
                f"of its Elo over greedy starts at {elo(low)} or more).")
    lifted = [v for v in weak if v.climb is not None and v.climb.over_greedy.clear]
    flat = [v for v in weak if _flat(v.climb)]
    rest = [v for v in weak if v not in lifted and v not in flat]

    def names(vs):
        return ", ".join(f"`{v.name}` ({elo_cell(v.over_greedy)} Elo)" for v in vs)
    lines = []
    if lifted:
        lines.append(
            f"{top} does not clearly beat greedy in {names(lifted)}, but its climb does: "
            + ", ".join(f"`{v.name}` at {v.climb.ceiling.budget} iterations, "
                        f"{elo_cell(v.climb.over_greedy)} Elo above greedy" for v in lifted)
            + "; there the ladder's spans stop below what the searcher can do.")
    if flat:
        lines.append(
            f"{top} does not clearly beat greedy in {names(flat)}, and its climb does "
            "not either: "
            + "; ".join(f"in `{v.name}` the ceiling, at {v.climb.ceiling.budget} "
                        f"iterations, is {elo_cell(v.climb.over_greedy)} Elo above greedy, "
                        "and the cheater at the climb's top, seeing every card, scores "
                        f"{score_cell(v.climb.cheater_edge)}% against the searcher"
                        for v in flat)
            + ". Neither more search nor seeing every card beats greedy clearly: as far "
            "as these players can tell, those rules leave little skill above a one-move "
            "look-ahead.")
    if rest:
        below = [v for v in rest if v.over_greedy.high < 0]
        lines.append(
            f"{top} does not clearly beat greedy in {names(rest)}"
            + ("" if not below else "; it is clearly weaker in "
               + ", ".join(f"`{v.name}`" for v in below))
            + ". There the searcher plays the game no better than a one-move look-ahead, "
            "so the spans, chains and SkillTrace measure the searcher as much as the "
            "rules.")
    title = ("weak yardstick" if rest else "little skill above greedy" if not lifted
             else "clear of greedy once it climbs" if not flat
             else "little skill above greedy in some")
    return f"- **Searcher: {title}**: " + " ".join(lines)


def _verdict_hidden(variants):
    """Where the cheater, who sees every card, clearly beats the searcher at the top
    budget, where it clearly loses, and how many variants leave it not told from 50%:
    whether the hidden cards are worth anything these games show."""
    top = _top_rung(variants)
    seen = [v for v in variants if v.cheater_edge.games]
    ahead = [v for v in seen if v.cheater_edge.low > 0.5]
    behind = [v for v in seen if v.cheater_edge.high < 0.5]
    if not seen:
        return "- **Hidden cards**: no game of the cheater against the searcher ended."

    def cells(vs):
        return ", ".join(f"`{v.name}` ({score_cell(v.cheater_edge)}%)" for v in vs)
    text = f"- **Hidden cards**: the cheater, seeing every card, against {top}"
    if not ahead and not behind:
        low = min(v.cheater_edge.score for v in seen)
        high = max(v.cheater_edge.score for v in seen)
        scores = f"{100 * low:.1f}%" if low == high else \
            f"{100 * low:.1f}% to {100 * high:.1f}%"
        return (text + f", is not told from 50% in any variant ({scores}): at this "
                "budget, seeing every card is worth nothing these games show.")
    parts = []
    if ahead:
        parts.append(f"clearly wins in {cells(ahead)}, where searching the true cards "
                     "pays at this budget")
    if behind:
        parts.append(f"clearly loses in {cells(behind)}, where its search of the true "
                     "cards plays worse than the searcher's")
    rest = len(seen) - len(ahead) - len(behind)
    if rest:
        parts.append("is not told from 50% in the other "
                     + ("variant" if rest == 1 else f"{rest} variants"))
    return text + " " + "; ".join(parts) + "."


def _flat(climb):
    """Whether ``climb`` reached its ceiling with it not clearly above greedy, and the
    cheater at its top not clearly ahead of it."""
    return climb is not None and climb.ended == "ceiling" and \
        not climb.over_greedy.clear and not climb.cheater_edge.low > 0.5


def _verdict_ceiling(variants):
    """A line per variant that climbed (or was asked to): how its climb ended."""
    lines = []
    for v in variants:
        if v.climb is not None:
            said = sections.ended(v.climb)
            lines.append(f"- **Ceiling** of `{v.name}`: {said[0].lower()}{said[1:]}")
    return lines


def _verdict_chess(chess):
    reference = f"`{chess.reference}`"
    gain = chess.gain
    if chess.readings is None:
        return (f"- **x% of {reference}**: not given: the deepest variant's doubling gain, "
                f"{elo_cell(gain)} Elo, is not clear of zero, so there is no skill "
                "for a coin to dilute.")
    text = (f"- **x% of {reference}** (Duersch, Lambrecht and Oechssler 2020): a variant "
            f"is x% {reference} when a fair coin deciding 100 - x% of {reference}'s "
            f"doubling games brings their Elo gain, {elo_cell(gain)}, down to the "
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
        parts.append(sections.variant(v, v.span.top, results.by_deal))
    return "\n\n".join(parts) + "\n"


def _differences(results):
    names = [v.name for v in results.variants]
    table = results.depth_differences

    def cell(a, b):
        d = table[a][b]
        text = f"{elo(d.lead)} [{elo(d.low)}, {elo(d.high)}]"
        return f"**{text}**" if d.clear or d.high < 0 else text

    return "\n\n".join([
        "## Depth compared",
        "How much wider the row's Elo span is than the column's, with the 95% interval "
        "of the difference; bold where the interval excludes zero.",
        markdown_table([""] + [f"`{n}`" for n in names],
                       [[f"`{a}`"] + [cell(a, b) if a != b else "" for b in names]
                        for a in names], "l" + "r" * len(names))])
