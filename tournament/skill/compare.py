"""Skill analyses of different games side by side (``cardarena compare``): which
ruleset rewards skill most, which is fairest, and where hidden information matters
most.

Games are compared on what their analyses share: the searcher's doubling steps between
the budgets every analysis played.  A game's depth there is its doubling gain (the Elo
its steps imply, added up, as ``skill.gain`` has it) and its x% of the deepest game
(``skill.chess_share``).  The games of two analyses are independent, so their
intervals come from resampling each step's score on its own: a parametric bootstrap
that draws each step's wins as a binomial of its games and score.  That treats the
games of a duplicate deal as independent, which makes the intervals a little wider
than the deal bootstrap inside one analysis.  Seat and cheater figures are the
analyses' own, with their intervals: Wilson's (with the games counted as the spread
between deals says they weigh, where the analysis read them so), but for a first seat
over rotated deals, whose interval is from resamples of whole deals.  So is each
climb's ceiling, rated above random play within its own analysis: ceilings are told
apart only where their intervals part.  Nothing here names a game.
"""
import dataclasses
import json
import pathlib

import numpy as np

from core.errors import CardArenaError
from tournament.skill import analysis, verdicts
from tournament.skill.figures import Climb, Edge, Results, Seat
from tournament.tables import markdown_table

RESAMPLES = 2000
# A verdict lists the rows it cannot tell from its leader up to this many; beyond, it
# counts them and leaves them to the table.
MOST_NAMED = 6


class CompareError(CardArenaError):
    """Analyses that cannot be compared: a missing or foreign file, or ladders with
    no doubling step in common."""


def load(folder):
    """The :class:`~tournament.skill.figures.Results` of the analysis in ``folder``
    (its ``skill.json``)."""
    path = pathlib.Path(folder) / "skill.json"
    try:
        results = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CompareError(f"{folder}: no skill.json; run cardarena skill with "
                           "--out there first") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CompareError(f"{path}: cannot be read: {e}") from None
    if not isinstance(results, dict) or "variants" not in results or \
            "budgets" not in results:
        raise CompareError(f"{path}: not the results of cardarena skill")
    return Results.from_dict(results)


def budgets(analyses):
    """The searcher budgets every analysis played, doubling, lowest first."""
    common = set.intersection(*(set(a.budgets) for a in analyses))
    if len(common) < 2:
        raise CompareError("the analyses share no doubling step: their ladders' budgets "
                           + "; ".join(f"{a.budgets[0]} to {a.budgets[-1]}"
                                       for a in analyses)
                           + ". Run them over overlapping budgets")
    return sorted(common)


def steps(variant, shared):
    """The variant's doubling steps between the ``shared`` budgets: (games, score)."""
    name = {r.budget: r.name for r in variant.rungs
            if r.budget is not None and not r.name.startswith("cheater")}
    found = {(s.lower, s.upper): s for s in variant.steps}
    return [(found[name[b], name[2 * b]].games, found[name[b], name[2 * b]].score)
            for b in shared[:-1]]


def resample(pairs, rng, n=RESAMPLES):
    """Step scores drawn as each step's binomial: an array, steps by resamples."""
    games = np.array([g for g, _ in pairs])
    scores = np.array([s for _, s in pairs])
    return rng.binomial(games[:, None], scores[:, None], (len(pairs), n)) / games[:, None]


@dataclasses.dataclass(frozen=True, eq=False)
class Row:
    """One variant of one analysis, as the comparison sets it beside the others."""

    name: str
    """The analysis's label, and the variant's name if the analysis has several."""
    game: str
    """The analysis's label."""
    player: str
    """The searcher its ladder climbs with."""
    point: np.ndarray
    """Its doubling steps' scores between the shared budgets."""
    samples: np.ndarray
    """Those scores resampled, steps by resamples."""
    seat: Seat
    """The first side in strong self-play."""
    edge: Edge
    """The cheater's edge."""
    decisions: float | None
    """Decisions a game in strong self-play."""
    gain: float
    """The doubling gain of ``point``."""
    gain_samples: np.ndarray
    """The doubling gain of each resample."""
    x: float | None = None
    """Its x% of the deepest row; None until the deepest is known."""
    x_samples: np.ndarray | None = None
    """The x% of each resample."""
    climb: Climb | None = None
    """The climb above its ladder; None where none was made."""
    by_deal: bool | None = None
    """Whether its analysis read its scores' intervals from the spread between deals
    (``Results.by_deal``)."""

    @property
    def ceiling(self):
        """The top of its climb, rated above random play; None without one."""
        return self.climb.ceiling if self.climb else None


@dataclasses.dataclass(frozen=True)
class Verdict:
    """A leader, the rows not told apart from it, and whether all of those are
    variants of the leader's own game (so that the game itself leads clearly)."""

    name: str
    """The leading row."""
    not_apart: list
    """The rows its intervals do not tell apart from it."""
    game: str
    """The leading row's analysis."""
    own_game: bool
    """Whether every row not told apart is of the same analysis."""
    behind: list
    """What a designer can still read where the leader is not clear: for each game
    with a row compared, in the rows' order, ``(game, the names of its rows clearly
    behind the leader, how many of its rows were compared)``, the leader not
    counted."""


@dataclasses.dataclass(frozen=True)
class Comparison:
    """Every row and the verdicts, each named only where its interval supports it."""

    budgets: list
    """The lowest and the highest budget every analysis played."""
    rows: list
    """Every variant of every analysis, in the order given."""
    deepest: Verdict
    """The row with the widest doubling gain."""
    fairest: Verdict | None
    """None when no row has a self-play game that ended."""
    hidden: Verdict
    """Where the cheater's edge is widest."""
    highest: Verdict | None = None
    """The row whose climb's ceiling is rated highest above random play; None when no
    row climbed."""
    decided: tuple | None = None
    """How many of the analyses' questions (``verdicts``) are decided, and of how many;
    None when no analysis lists them."""
    by_question: dict | None = None
    """The same by question, ``{question: (decided, asked)}`` (``verdicts.tally``)."""


def compare(analyses, labels, seed=0):
    """Every variant of every analysis (each a
    :class:`~tournament.skill.figures.Results`) as one :class:`Row`, and the verdicts:
    deepest, fairest and where hidden information is worth most, each named only where
    its interval supports it."""
    shared = budgets(analyses)
    rng = np.random.default_rng(seed)
    rows = []
    for each, label in zip(analyses, labels):
        for v in each.variants:
            pairs = steps(v, shared)
            point = np.array([s for _, s in pairs])
            samples = resample(pairs, rng)
            rows.append(Row(name=label if len(each.variants) == 1 else f"{label}: {v.name}",
                            game=label, player=v.player, point=point, samples=samples,
                            seat=v.seat, edge=v.cheater_edge,
                            decisions=v.shape.strong.decisions_mean,
                            gain=float(analysis.gain(point)),
                            gain_samples=analysis.gain(samples), climb=v.climb,
                            by_deal=each.by_deal))
    k = max(range(len(rows)), key=lambda i: rows[i].gain)
    rows = [dataclasses.replace(
        row, x=float(analysis.chess_share(rows[k].point, row.point)),
        x_samples=analysis.chess_share(rows[k].samples, row.samples)) for row in rows]
    lists = [each.verdicts for each in analyses if each.verdicts is not None]
    listed = [v for found in lists for v in found]
    return Comparison(budgets=[shared[0], shared[-1]], rows=rows, deepest=_deepest(rows, k),
                      fairest=_fairest(rows), hidden=_hidden(rows), highest=_highest(rows),
                      decided=(sum(v.decided for v in listed), len(listed)) if lists else None,
                      by_question=verdicts.tally(listed) if lists else None)


def _score_intervals(rows):
    """How the rows' seat and cheater figures got their intervals, in words."""
    by_deal = [r for r in rows if r.by_deal]
    kind = ("Wilson intervals" if not by_deal else
            "Wilson intervals, the games counted as the spread between deals says they "
            "weigh" + ("" if len(by_deal) == len(rows) else
                       " in " + ", ".join(sorted({r.game for r in by_deal}))))
    return kind + (" (a first seat over rotated deals: its resamples of whole deals)"
                   if any(r.seat.rotated for r in rows) else "")


def _interval(samples):
    low, high = np.percentile(samples, [2.5, 97.5])
    return float(low), float(high)


def _deepest(rows, k):
    """Whether ``rows[k]`` leads every other row clearly on the resamples of its
    doubling gain."""
    best = rows[k]
    behind = [r for r in rows if r is not best
              and not _interval(best.gain_samples - r.gain_samples)[0] > 0]
    return _verdict(best, behind, rows)


def _verdict(best, near, compared):
    """``best`` leading the rows ``compared``, ``near`` those it is not told apart
    from."""
    others = [r for r in compared if r is not best]
    return Verdict(name=best.name, not_apart=[r.name for r in near], game=best.game,
                   own_game=all(r.game == best.game for r in near),
                   behind=[(g, [r.name for r in others if r.game == g and r not in near],
                            sum(r.game == g for r in others))
                           for g in dict.fromkeys(r.game for r in others)])


def _fairest(rows):
    """The row whose first seat scores nearest 50% in strong self-play, and the rows
    whose intervals overlap its distance from 50% (so not told apart)."""
    seated = [r for r in rows if r.seat.games]
    if not seated:
        return None
    best = min(seated, key=lambda r: abs(r.seat.score - 0.5))

    def far(seat):  # the least distance from 50% the interval allows
        return 0.0 if seat.low <= 0.5 <= seat.high else \
            min(abs(seat.low - 0.5), abs(seat.high - 0.5))
    near = max(abs(best.seat.low - 0.5), abs(best.seat.high - 0.5))
    return _verdict(best, [r for r in seated if r is not best and far(r.seat) <= near],
                    seated)


def _hidden(rows):
    """The row where the cheater's edge is widest, and the rows whose edge intervals
    reach its lower bound (so not told apart)."""
    best = max(rows, key=lambda r: r.edge.score)
    return _verdict(best, [r for r in rows if r is not best
                           and r.edge.high >= best.edge.low], rows)


def _highest(rows):
    """The row whose ceiling is rated highest above random play, and the rows whose
    ceiling intervals reach its lower bound (so not told apart); None when no row has
    a ceiling."""
    climbed = [r for r in rows if r.ceiling is not None]
    if not climbed:
        return None
    best = max(climbed, key=lambda r: r.ceiling.elo)
    return _verdict(best, [r for r in climbed if r is not best
                           and r.ceiling.high >= best.ceiling.low], climbed)


def report(found, command):
    """The comparison as Markdown: the verdicts, then the table."""
    low, high = found.budgets
    rows = found.rows
    deepest = found.deepest.name

    def verdict(title, v, what, behind="behind it"):
        if v is None:
            return f"- **{title}: none**: {what}."
        if not v.not_apart:
            return f"- **{title}: {v.name}**, clearly: {what}."
        others = (", ".join(v.not_apart) if len(v.not_apart) <= MOST_NAMED
                  else f"{len(v.not_apart)} other rows")
        if v.own_game and v.game != v.name:
            return (f"- **{title}: {v.game}**, clearly ahead of every other game: "
                    f"{what}; within it {v.name} leads, not told apart from {others}.")
        return (f"- **{title}: not told apart**: {v.name} leads, but not clearly ahead "
                f"of {others}: {what}. {_behind(v, behind)}")
    climbed = found.highest is not None
    uneven = _uneven(rows) if found.fairest is not None else None
    table = markdown_table(
        ["game", "searcher", f"doubling gain {low} to {high}", f"x% of {deepest}",
         "first seat %", "cheater's edge %", "decisions"]
        + ["ceiling above random"] * climbed,
        [[r.name, f"`{r.player}`",
          f"{r.gain:+.0f} [{_interval(r.gain_samples)[0]:+.0f}, "
          f"{_interval(r.gain_samples)[1]:+.0f}]",
          f"{r.x:.0f} [{_interval(r.x_samples)[0]:.0f}, {_interval(r.x_samples)[1]:.0f}]",
          _score(r.seat), _score(r.edge),
          "" if r.decisions is None else f"{r.decisions:.0f}"]
         + [_ceiling(r)] * climbed for r in rows],
        "llrrrrr" + "r" * climbed)
    lines = []
    if climbed:
        lines.append(_verdict_ceiling(found, verdict))
    if found.decided:
        lines.append(f"- **Questions decided: {found.decided[0]} of {found.decided[1]}** "
                     "in the analyses that list them ("
                     + ", ".join(f"{verdicts.QUESTIONS[q]}: {d} of {n}"
                                 for q, (d, n) in found.by_question.items())
                     + "; see each report).")
    return "\n".join([
        f"`{command}`", "",
        f"Each game's depth is its searcher's doubling gain from {low} to {high} iterations "
        "a move (the Elo its doubling steps imply, added up) and its x% of the deepest: "
        "the share of the deepest game's games a fair coin would leave to skill before "
        "its gain fell to this one's. Intervals are 95%, from resampling each step's "
        "games; the seat and cheater figures are each analysis's own, with "
        + _score_intervals(rows) + ".", "",
        verdict("Most skill", found.deepest, "the widest doubling gain"),
        verdict("Fairest", found.fairest,
                "its first seat scores nearest 50% in strong self-play",
                "farther from 50% than it")
        + ("" if not uneven else
           " The first seat is clearly ahead or behind, its interval leaving out 50%, "
           f"in: {uneven}."),
        verdict("Hidden information worth most", found.hidden,
                "the cheater, who sees every card, gains most over the searcher"),
        *lines, "", table, ""])


def _verdict_ceiling(found, verdict):
    """The highest ceiling's line: across the games whose analyses climbed, or, where
    only one game's did, among its variants alone, since no other game was asked."""
    what = "its searcher, climbing to its ceiling, tops out highest above random play"
    climbed = [r for r in found.rows if r.ceiling is not None]
    games = {r.game for r in climbed}
    if len(games) > 1:
        return verdict("Highest ceiling", found.highest, what)
    v = found.highest
    if len(climbed) == 1:
        return (f"- **Highest ceiling: none compared**: only {v.name} climbed, to "
                f"{_ceiling(climbed[0])} above random play.")
    others = [r.game for r in found.rows if r.game not in games]
    among = (f"only {v.game}'s analysis climbed (not "
             f"{_join(list(dict.fromkeys(others)))}), so this compares its variants alone")
    if not v.not_apart:
        return f"- **Highest ceiling: {v.name}**, clearly, but {among}: {what}."
    apart = (", ".join(v.not_apart) if len(v.not_apart) <= MOST_NAMED
             else f"{len(v.not_apart)} other rows")
    return (f"- **Highest ceiling: not told apart**, and {among}: {v.name} leads, but "
            f"not clearly ahead of {apart}: {what}. {_behind(v)}")


def _behind(v, word="behind it"):
    """The rows clearly behind a leader not told apart from some, game by game: the
    part of the answer its games did decide; ``word`` says what behind means."""
    named = _by_game(v.behind, v.game)
    if not named:
        return f"No row is clearly {word}."
    return f"Clearly {word}: {named}."


def _uneven(rows):
    """The rows whose first seat is clearly ahead or behind in strong self-play (its
    interval leaves out 50%), game by game; None where there is none."""
    seated = [r for r in rows if r.seat.games]
    games = dict.fromkeys(r.game for r in seated)
    return _by_game([(g, [r.name for r in seated if r.game == g
                          and not r.seat.low <= 0.5 <= r.seat.high],
                      sum(r.game == g for r in seated)) for g in games]) or None


def _by_game(groups, own=None):
    """``groups``, each ``(game, the names of some of its rows, how many rows it
    has)``, in words: "every row of card_duel (9); 2 of shrine's 4 rows (...)"; the
    game ``own``'s rows are its "other" rows, its leader set aside."""
    named = []
    for game, names, n in groups:
        other = " other" if game == own else ""
        if len(names) == 1 and n == 1:
            named.append(names[0])
        elif len(names) == n:
            named.append(f"every{other} row of {game} ({n})")
        elif names:
            which = f" ({', '.join(names)})" if len(names) <= 2 else ""
            named.append(f"{len(names)} of {_possessive(game)} {n}{other} rows{which}")
    return "; ".join(named)


def _possessive(name):
    return name + ("'" if name.endswith("s") else "'s")


def _join(names):
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _ceiling(row):
    """A row's ceiling in its table cell: its Elo above random play with its interval,
    its budget, and what ended the climb."""
    top = row.ceiling
    if top is None:
        return ""
    return (f"{top.elo:+.0f} [{top.low:+.0f}, {top.high:+.0f}] at {top.budget} "
            f"({row.climb.ended}{', no network' if row.climb.unguided else ''})")


def _score(figure):
    if not figure.games:
        return ""
    return f"{100 * figure.score:.1f} [{100 * figure.low:.1f}, {100 * figure.high:.1f}]"
