"""The questions a skill analysis answers, and the deals that decide them.

Each question has an answer of "no difference", and it is decided when its 95% interval
leaves that answer out:

- ``step``: a rung of the chain against the one below it, a score against 50%;
- ``depth``: a variant's depth (its Elo span from the lowest searcher to the top)
  against zero;
- ``deeper``: two variants' depths against each other;
- ``seat``: the first side in the top searcher's self-play, against 50%;
- ``cheater``: the cheater against the top searcher at its budget, against 50%.

Games spread evenly spend most of themselves on questions the first deals settle (random
play against greedy, the lowest budgets).  ``wanted`` names the matches that open
questions read and that may play more: ``run`` plays them a batch of deals further,
measures again, and stops when every question is decided or every match it reads has
reached the cap.  Nothing here names a game.
"""
import itertools

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
                asked.append(_against_half("step", [name], f"{s.upper} over {s.lower}",
                                           s.low, s.high, s.games, [[name, s.lower, s.upper]],
                                           (f"{s.upper} is stronger", f"{s.lower} is stronger")))
        depth_matches[name] = [[name, *pair] for pair in alone.pairs()
                               if set(pair) <= searchers]
        span = figures.span
        games = sum(s.games for s in figures.steps
                    if [name, s.lower, s.upper] in depth_matches[name])
        asked.append(_verdict("depth", [name], f"{span.top} over {span.lowest}", span.low,
                              span.high, 0.0, games, depth_matches[name],
                              ("the searcher gains", "the searcher loses")))
        seat = figures.seat
        asked.append(_against_half("seat", [name], "the first side in strong self-play",
                                   seat.low, seat.high, seat.games, [[name, ladder.top.name]],
                                   ("the first side leads", "the first side trails")))
        edge = figures.cheater_edge
        asked.append(_against_half("cheater", [name], f"{edge.upper} over {edge.lower}",
                                   edge.low, edge.high, edge.games,
                                   [[name, edge.lower, edge.upper]],
                                   ("the cheater is stronger", "the cheater is weaker")))
    games = {v.variants[0]: v.games for v in asked if v.question == "depth"}
    for a, b in itertools.combinations([f.name for f in found], 2):
        lead = differences[a][b]
        asked.append(_verdict("deeper", [a, b], f"{a} against {b}", lead.low, lead.high,
                              0.0, games[a] + games[b], depth_matches[a] + depth_matches[b],
                              (f"{a} is deeper", f"{b} is deeper")))
    return asked


def _against_half(question, variants, reads, low, high, games, matches, answers):
    return _verdict(question, variants, reads, low, high, 0.5, games, matches, answers)


def _verdict(question, variants, reads, low, high, null, games, matches, answers):
    """The verdict whose interval ``low``..``high`` is set against ``null``: decided
    when it leaves it out, with the first of ``answers`` above it, the second below."""
    above = low is not None and low > null
    below = high is not None and high < null
    answer = answers[0] if above else answers[1] if below else "not told apart"
    return Verdict(question=question, variants=list(variants), reads=reads,
                   decided=above or below, answer=answer, games=games, matches=matches)


def wanted(plan, asked, cap):
    """The matches that open questions of ``asked`` read and that have not reached
    ``cap`` deals, each with the deals it plays next: a batch of ``plan.deals`` more, up
    to the cap, as ``{(variant, bots): deals}``."""
    variants = {v.name: v for v in plan.variants}
    grow = {}
    for verdict in asked:
        if verdict.decided:
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
             f"**{v.answer}**" if v.decided else v.answer, f"{v.games:,}"]
            for v in results.verdicts]
    return "\n\n".join([
        "## Verdicts",
        "Every question the analysis answers, decided where the 95% interval leaves out "
        "no difference, with the games (matches, for more than two sides) it read.",
        table(["question", "variants", "reads", "answer", "games"], rows, "llllr")])
