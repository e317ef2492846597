"""The questions a skill analysis answers, and the deals that decide them.

Each is decided when its 95% interval leaves out "no difference" (a difference is
shown), or lies wholly within a margin of it (``MARGINS``), so that whatever difference
there is would not matter to a designer:

- ``step``: a rung of the chain against the one below it, a score against 50%;
- ``depth``: a variant's depth (its Elo span from the lowest searcher to the top)
  against zero;
- ``deeper``: two variants' depths against each other;
- ``seat``: the first side in the top searcher's self-play, against 50%;
- ``cheater``: the cheater against the top searcher at its budget, against 50%.

Games spread evenly spend most of themselves on questions the first deals settle
(random play against greedy, the lowest budgets).  ``wanted`` names the matches that
open questions read and that may play more: ``run.decide`` plays them a batch of deals
further, measures again, and stops when every question is decided, would need more
deals than the cap (``needs``), or has every match it reads at the cap.  Nothing here
names a game.
"""
import dataclasses
import itertools
import math

from tournament.skill.figures import Verdict

KINDS = ("step", "depth", "deeper", "seat", "cheater")


def verdicts(plan, found, differences):
    """Every question of ``plan`` and its answer from the variants' figures ``found``
    and their ``differences`` of depth (``Results.depth_differences``), the variants'
    own questions first, in the variants' order."""
    asked = []
    depth_matches = {}
    variants = {v.name: v for v in plan.variants}
    for figures in found:
        alone = plan.alone(variants[figures.name])
        ladder = alone.ladder
        chain = [r.name for r in ladder.chain]
        searchers = {r.name for r in ladder.searchers}
        name = figures.name
        for s in figures.steps:
            if chain.index(s.upper) - chain.index(s.lower) == 1:
                asked.append(ask("step", [name], f"{s.upper} over {s.lower}",
                                 (s.score, s.low, s.high, 0.5), s.games,
                                 [[name, s.lower, s.upper]],
                                 (f"{s.upper} is stronger", f"{s.lower} is stronger",
                                  "level")))
        depth_matches[name] = [[name, *pair] for pair in alone.pairs()
                               if set(pair) <= searchers]
        span = figures.span
        games = sum(s.games for s in figures.steps
                    if [name, s.lower, s.upper] in depth_matches[name])
        asked.append(ask("depth", [name], f"{span.top} over {span.lowest}",
                         (span.elo, span.low, span.high, 0.0), games, depth_matches[name],
                         ("the searcher gains", "the searcher loses", "flat")))
        seat = figures.seat
        asked.append(ask("seat", [name], "the first side in strong self-play",
                         (seat.score, seat.low, seat.high, 0.5), seat.games,
                         [[name, ladder.top.name]],
                         ("the first side leads", "the first side trails", "even")))
        edge = figures.cheater_edge
        asked.append(ask("cheater", [name], f"{edge.upper} over {edge.lower}",
                         (edge.score, edge.low, edge.high, 0.5), edge.games,
                         [[name, edge.lower, edge.upper]],
                         ("the cheater is stronger", "the cheater is weaker",
                          "no edge")))
    games = {v.variants[0]: v.games for v in asked if v.question == "depth"}
    for a, b in itertools.combinations([f.name for f in found], 2):
        lead = differences[a][b]
        asked.append(ask("deeper", [a, b], f"{a} against {b}",
                         (lead.lead, lead.low, lead.high, 0.0), games[a] + games[b],
                         depth_matches[a] + depth_matches[b],
                         (f"{a} is deeper", f"{b} is deeper", "as deep")))
    return [dataclasses.replace(v, needs=None if v.decided else needs(v, plan, variants))
            for v in asked]


def ask(question, variants, reads, figure, games, matches, answers):
    """The verdict on ``figure``, a ``(value, low, high, null)``: decided when the
    interval ``low``..``high`` leaves ``null`` out, with the first of ``answers`` above
    it, the second below; or when it lies within the margin of ``null`` (``MARGINS``),
    with the third and the margin."""
    value, low, high, null = figure
    found = reading(figure)
    answer = answers[0] if found == "above" else answers[1] if found == "below" else \
        f"{answers[2]} within {_margin(null)}" if found == "within" else "not told apart"
    return Verdict(question=question, variants=list(variants), reads=reads,
                   decided=found is not None, answer=answer, games=games,
                   matches=matches, value=value, low=low, high=high, null=null,
                   margin=MARGINS[null], needs=None)


def reading(figure):
    """What ``figure``, a ``(value, low, high, null)``, decides: ``above`` or
    ``below`` where its interval leaves ``null`` out on that side, ``within`` where it
    lies within the margin of it; None while it is open."""
    _, low, high, null = figure
    if low is None or high is None:
        return None
    margin = MARGINS[null]
    if low > null:
        return "above"
    if high < null:
        return "below"
    if null - margin <= low and high <= null + margin:
        return "within"
    return None


# No difference that matters: a score within 5 points of 50%, an Elo within 35 of zero
# (a 55% score).  A question whose interval lies within it is decided: no design
# would tell a smaller difference in the games a designer can afford.
MARGINS = {0.5: 0.05, 0.0: 35.0}


def _margin(null):
    return "5 points" if null == 0.5 else "35 Elo"


def needs(verdict, plan, variants):
    """About how many deals the matches of an open ``verdict`` would need to decide it
    (``to_decide``), from the most deals any of them has played; None where
    ``to_decide`` gives none."""
    if verdict.low is None or verdict.high is None or verdict.value is None:
        return None
    deals = max(plan.deals_of(variants[name], bots) for name, *bots in verdict.matches)
    return to_decide((verdict.value, verdict.low, verdict.high, verdict.null), deals)


def to_decide(figure, deals):
    """About how many deals would decide ``figure``, a ``(value, low, high, null)``
    measured on ``deals`` deals, were its value the truth and its interval narrowing
    as one over the square root of the deals: until the side towards no difference
    reaches it, or the whole interval fits within the margin (``MARGINS``), whichever
    comes first.  None when neither can happen: the value sits on no difference and
    outside the margin."""
    value, low, high, null = figure
    margin = MARGINS[null]
    gap = abs(value - null)
    shrink = []
    if gap > 0:
        shrink.append(((value - low if value > null else high - value) / gap) ** 2)
    if gap < margin:
        shrink.append((max(value - low, high - value) / (margin - gap)) ** 2)
    if not shrink:
        return None
    return math.ceil(deals * min(shrink))


def wanted(plan, asked, cap):
    """The matches that open questions of ``asked`` read and that have not reached
    ``cap`` deals, each with the deals it plays next: a batch of ``plan.deals`` more, up
    to the cap, as ``{(variant, bots): deals}``.  A question that would need more than
    ``cap`` deals at the difference seen so far (``needs``) gets none: its games would
    go where no verdict comes of them."""
    variants = {v.name: v for v in plan.variants}
    grow = {}
    for verdict in asked:
        if verdict.decided or verdict.needs is None or verdict.needs > cap:
            continue
        for name, *bots in verdict.matches:
            now = plan.deals_of(variants[name], bots)
            if now < cap:
                grow[name, tuple(bots)] = min(cap, now + plan.deals)
    return grow


def tally(asked):
    """How many of ``asked`` are decided, of how many, by question: ``{question:
    (decided, asked)}``, questions in ``KINDS`` order, those never asked left out."""
    found = {}
    for question in KINDS:
        these = [v for v in asked if v.question == question]
        if these:
            found[question] = (sum(v.decided for v in these), len(these))
    return found


# How each question reads in the report's words.
QUESTIONS = {"step": "a step of the chain against 50%",
             "depth": "a variant's depth against zero",
             "deeper": "two variants' depths",
             "seat": "the first seat against 50%",
             "cheater": "the cheater's edge against 50%"}


def tally_line(results):
    """The summary's line on the verdicts: how many are decided, by question; None for
    results written before verdicts were kept."""
    if results.verdicts is None:
        return None
    counts = tally(results.verdicts)
    decided = sum(d for d, _ in counts.values())
    return (f"- **Verdicts: {decided} of {sum(n for _, n in counts.values())} decided** ("
            + ", ".join(f"{QUESTIONS[q]}: {d} of {n}" for q, (d, n) in counts.items())
            + ")" + ("" if results.decide_to else
                     "; --decide-to plays more deals where a question is open") + ".")


def section(results, table):
    """The report's section listing every verdict with the games it took, drawn by
    ``table(header, rows, align)``; None for results without verdicts."""
    if results.verdicts is None:
        return None
    rows = [[QUESTIONS[v.question], ", ".join(f"`{n}`" for n in v.variants), v.reads,
             f"**{v.answer}**" if v.decided else v.answer, f"{v.games:,}", _to_decide(v)]
            for v in results.verdicts]
    return "\n\n".join([
        "## Verdicts",
        "Every question the analysis answers, decided where the 95% interval leaves out "
        "no difference, with the games (matches, for more than two sides) it read; for an "
        "open one, about how many deals a match would need to decide it, were the "
        "difference seen so far the true one.",
        table(["question", "variants", "reads", "answer", "games", "to decide"], rows,
              "llllrr")])


def _to_decide(verdict):
    if verdict.decided:
        return ""
    if verdict.needs is None:
        return "no difference seen"
    return f"about {verdict.needs:,} deals"
