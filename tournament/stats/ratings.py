"""Ratings of a tournament's bots from its finished games, as tables to read or data to
keep.

A game is scored as matches: every two seats holding different bots play one match,
the higher return winning and equal returns drawing.  A bot that failed (crashed, ran
out of time, made an illegal move) loses its matches against every other bot at the
table, whatever the returns say.  Two seats of one bot are no match.

``rate(rows, bots)`` returns a ``Report``:

- ratings: Elo by pyspiel's Bradley-Terry fit, relative to the mean of the rated bots,
  with a 95% interval from a bootstrap over deals, the score, the games played, the
  likelihood of superiority over the next bot down, and the failures by kind;
- the crosstable of scores between every two bots;
- duplicate deals: for every two bots, the deals each won, split and lost;
- seat advantage: each seat's mean return, win and draw rates;
- the dominance graph (who scores over 50% against whom) and its intransitive cycles.

It prints as a terminal table (``to_text``), Markdown (``to_markdown``), CSV of the
ratings (``to_csv``) and JSON of everything (``to_json``).
"""
import csv
import dataclasses
import io
import itertools
import json
import math

import networkx as nx
import numpy as np
import pyspiel

from core.errors import CardArenaError
from tournament.stats.intervals import wilson
from tournament.tables import count, markdown_table, text_table

FAILURES = ("error", "timeout", "illegal")
"""The kinds of failure a game row's ``status`` names when a bot failed."""

# Below this many deals a bootstrap over the deals gives intervals too narrow to trust.
FEW_DEALS = 20

# The most intransitive cycles a report lists.  Among bots of about one strength the
# cycles grow exponentially in number with the bots (65,000 among 14), so only the
# shortest are looked for.
MOST_CYCLES = 10


class NoGamesError(CardArenaError):
    """No finished game to rate."""


class RowError(CardArenaError):
    """A game row that cannot be a finished game: returns that do not match the seating,
    or a failed bot that has no seat."""


@dataclasses.dataclass(frozen=True)
class Rating:
    """One bot's line of the ratings table.  Every figure is None where the bot has no
    match to give it."""

    rank: int
    bot: str
    spec: str
    elo: float | None
    """Elo relative to the mean of the rated bots."""
    low: float | None
    """The 2.5th percentile of the bot's Elo over the bootstrap resamples."""
    high: float | None
    """The 97.5th percentile."""
    score: float | None
    """(wins + draws / 2) / matches, from 0 to 1."""
    games: int
    wins: int
    draws: int
    losses: int
    los: float | None
    """The likelihood that this bot is stronger than the next bot down, from their
    head-to-head matches."""
    failures: dict
    """Games this bot failed, by kind (``FAILURES``, and any other status named)."""
    mean_return: float | None = None
    """The bot's mean return per seat held, where the game's returns are scores (None
    in a game of win, draw or loss)."""
    swept: str | None = None
    """``"lost"`` if the bot lost every match it played against the bots rated (those
    left when the sweeps are set aside), ``"won"`` if it won every one; its Elo is
    then None: a fit puts a sweep where its prior alone says, and would shift every
    other bot's Elo with it."""


@dataclasses.dataclass(frozen=True)
class Tally:
    """The matches of one bot against another."""

    wins: int
    draws: int
    losses: int

    @property
    def matches(self):
        return self.wins + self.draws + self.losses

    @property
    def score(self):
        return (self.wins + self.draws / 2) / self.matches


@dataclasses.dataclass(frozen=True)
class PairResult:
    """Duplicate deals of two bots: over the deals where they met, how many ``bot``
    won (scored over 50% against ``opponent`` in the deal's games between them), split
    (exactly 50%) and lost."""

    bot: str
    opponent: str
    won: int
    split: int
    lost: int


@dataclasses.dataclass(frozen=True)
class SeatResult:
    """One seat, or one team's seats, over the games no bot failed.  ``wins`` is the
    fraction of games in which the side alone has the highest return (a team's added
    up), ``draws`` the fraction in which it shares the highest.  In games of two sides,
    ``score`` is wins + draws / 2 and ``low``, ``high`` its 95% Wilson interval; with
    more sides they are None."""

    seat: int
    """The side's first seat."""
    games: int
    mean_return: float
    wins: float
    draws: float
    score: float | None
    low: float | None
    high: float | None
    partners: list = dataclasses.field(default_factory=list)
    """The side's other seats, in a team game."""


@dataclasses.dataclass(frozen=True)
class Report:
    """Everything ``rate`` finds, as plain data, with its printed forms."""

    ratings: list
    """Ratings, best first; bots without a match come last, unrated."""
    crosstable: dict
    """``crosstable[a][b]`` is the Tally of a against b, for every two bots that met."""
    pairs: list
    """PairResults, one per two bots that met, the better rated named first."""
    seats: list
    """SeatResults, seat 0 first."""
    edges: list
    """(winner, loser): the winner scores over 50% against the loser."""
    cycles: list
    """Intransitive cycles of the dominance graph, each a list of bots, every one
    scoring over 50% against the next and the last against the first; each starts at
    its best-rated bot, shortest cycles first, at most ``MOST_CYCLES`` of them."""
    more_cycles: bool
    """Whether the graph has cycles beyond those listed."""
    deals: int
    games: int
    bootstrap: int
    seed: int

    @property
    def notes(self):
        """What the ratings table cannot show: sweeps, and too few deals to trust the
        intervals."""
        notes = []
        for result in ("lost", "won"):
            swept = [r.bot for r in self.ratings if r.swept == result]
            if swept:
                notes.append(f"Swept: {_and(swept)} {result} every game against the "
                             f"bots rated, so no Elo is measured for "
                             f"{'it' if len(swept) == 1 else 'them'}; the others are "
                             f"rated without {'it' if len(swept) == 1 else 'them'}.")
        if self.bootstrap and self.deals < FEW_DEALS:
            notes.append(f"Only {count(self.deals, 'deal')}: with fewer than {FEW_DEALS} "
                         "the bootstrap intervals are too narrow to trust.")
        return notes

    def to_text(self):
        """Every section as a titled table with aligned columns, for a terminal."""
        parts = []
        for title, headers, body, align, notes in self._sections():
            parts.append("\n".join([title, text_table(headers, body, align)] + notes))
        return "\n\n".join(parts) + "\n"

    def to_markdown(self):
        """Every section under a heading, as a Markdown table."""
        parts = []
        for title, headers, body, align, notes in self._sections():
            parts.append("\n\n".join([f"### {title}", markdown_table(headers, body, align)]
                                     + notes))
        return "\n\n".join(parts) + "\n"

    def to_csv(self):
        """The ratings table alone, one row per bot, with raw figures: score and LOS
        as fractions, failures in total and by kind.  The other sections are in
        ``to_json``."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["rank", "bot", "spec", "elo", "low", "high", "score",
                         "games", "wins", "draws", "losses", "los", "failures"]
                        + [f"failures_{kind}" for kind in FAILURES] + ["swept"])
        for r in self.ratings:
            writer.writerow([r.rank, r.bot, r.spec, _round(r.elo, 1), _round(r.low, 1),
                             _round(r.high, 1), _round(r.score, 4), r.games, r.wins,
                             r.draws, r.losses, _round(r.los, 4), sum(r.failures.values())]
                            + [r.failures.get(kind, 0) for kind in FAILURES]
                            + [r.swept or ""])
        return out.getvalue()

    def to_json(self):
        """Everything, as a JSON document (see ``to_dict``)."""
        return json.dumps(self.to_dict(), indent=2)

    def to_dict(self):
        """Everything as plain data: ratings, crosstable (with each tally's score),
        pairs, seats and the dominance graph's edges and cycles, with the number of
        deals, games, bootstrap resamples and the seed, and the Elo anchor."""
        crosstable = {a: {b: dict(dataclasses.asdict(t), score=t.score)
                          for b, t in row.items()}
                      for a, row in self.crosstable.items()}
        edges = [{"winner": a, "loser": b, "score": self.crosstable[a][b].score}
                 for a, b in self.edges]
        return {"deals": self.deals, "games": self.games, "bootstrap": self.bootstrap,
                "seed": self.seed, "anchor": "mean", "notes": self.notes,
                "ratings": [dataclasses.asdict(r) for r in self.ratings],
                "crosstable": crosstable,
                "pairs": [dataclasses.asdict(p) for p in self.pairs],
                "seats": [dataclasses.asdict(s) for s in self.seats],
                "dominance": {"edges": edges, "cycles": self.cycles,
                              "more_cycles": self.more_cycles}}

    def _sections(self):
        """(title, headers, body, alignment, notes) of each section, cells as text."""
        if self.bootstrap:
            interval = (f"95% interval by bootstrap (deals: {self.deals}, resamples: "
                        f"{self.bootstrap})")
        else:
            interval = "no interval (no bootstrap)"
        ratings = [[str(r.rank), r.bot, r.spec, "swept" if r.swept else _signed(r.elo),
                    _signed(r.low), _signed(r.high), _percent(r.score), str(r.games),
                    _percent(r.los), str(sum(r.failures.values()))] for r in self.ratings]
        headers = ["rank", "bot", "spec", "elo", "low", "high", "score %", "games", "LOS %",
                   "failures"]
        if any(r.mean_return is not None for r in self.ratings):
            # Scores say by how much, where finishing order only says who was ahead.
            headers.append("mean return")
            for line, r in zip(ratings, self.ratings):
                line.append("-" if r.mean_return is None else f"{r.mean_return:+.3f}")
        yield (f"Ratings: Elo relative to the mean, {interval}; LOS over the next bot down",
               headers, ratings, "lll" + "r" * (len(headers) - 3), self.notes)

        names = [r.bot for r in self.ratings if r.score is not None]
        cross = [[a] + [_cell(self.crosstable[a].get(b)) if a != b else "" for b in names]
                 for a in names]
        yield ("Crosstable: score % of the row's bot against the column's (matches)",
               [""] + names, cross, "l" + "r" * len(names), [])

        pairs = [[p.bot, p.opponent, str(p.won + p.split + p.lost), str(p.won), str(p.split),
                  str(p.lost)] for p in self.pairs]
        yield ("Duplicate deals: the bot's score against the opponent over each deal's games",
               ["bot", "opponent", "deals", "won", "split", "lost"], pairs, "llrrrr", [])

        seats = [["+".join(map(str, [s.seat] + s.partners)), str(s.games),
                  f"{s.mean_return:+.3f}", _percent(s.wins),
                  _percent(s.draws), _percent(s.score),
                  "-" if s.low is None else f"{100 * s.low:.1f}-{100 * s.high:.1f}"]
                 for s in self.seats]
        yield ("Seats, over the games no bot failed",
               ["seat", "games", "mean return", "wins %", "draws %", "score %", "95%"],
               seats, "rrrrrrr", [])

        beats = [[a, ", ".join(b for w, b in self.edges if w == a)] for a in names]
        if self.cycles:
            title = (f"The {len(self.cycles)} shortest intransitive cycles of more: "
                     if self.more_cycles else "Intransitive cycles: ")
            notes = [title + "; ".join(" > ".join(c + c[:1]) for c in self.cycles)]
        else:
            notes = ["No intransitive cycle."]
        yield ("Dominance: whom each bot scores over 50% against", ["bot", "beats"], beats,
               "ll", notes)


def rate(rows, bots, *, seed=0, bootstrap=1000, sides=None, scored=False):
    """Rate the bots of ``rows``, the finished games of a tournament, each a dict with
    ``deal``, ``seating`` (bot names by seat), ``returns`` (by seat), ``status`` and
    ``failed`` (the failing bot's name, or None).  ``bots`` maps names to specs, shown
    beside the names; a bot of ``bots`` with no game is listed unrated.  The 95%
    intervals come from ``bootstrap`` resamples of the deals (0: none), drawn from a
    generator seeded with ``seed``, so one seed always gives one report.  ``sides``
    are the game's sides (each seat alone by default): a match is side against side,
    never partner against partner.  Where the returns are ``scored``, each bot's mean
    return is reported too.

    >>> from tournament.harness.row import GameRow
    >>> rows = [GameRow(deal=d, seating=s, returns=[1, -1])
    ...         for d in range(3) for s in (["a", "b"], ["b", "a"])]
    >>> report = rate(rows, {"a": "greedy", "b": "random"}, bootstrap=0)
    >>> [(r.bot, r.score) for r in report.ratings]
    [('a', 0.5), ('b', 0.5)]
    >>> report.seats[0].wins
    1.0
    """
    rows = list(rows)
    if not rows:
        raise NoGamesError("no finished games to rate")
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be 0 or more, not {bootstrap}")
    names = list(dict.fromkeys(list(bots) + [b for r in rows for b in r.seating]))
    index = {b: i for i, b in enumerate(names)}
    deal_index = {d: k for k, d in enumerate(sorted({r.deal for r in rows}))}
    n, num_deals = len(names), len(deal_index)
    games = [0] * n
    failures = [dict.fromkeys(FAILURES, 0) for _ in names]
    for row in rows:
        _check(row)
        for bot in set(row.seating):
            games[index[bot]] += 1
        if row.failed is not None:
            kinds = failures[index[row.failed]]
            kinds[row.status] = kinds.get(row.status, 0) + 1
    wins, draws = _counts(rows, index, deal_index, sides)
    means = _mean_returns(rows, index) if scored else [None] * n

    total_wins, total_draws = wins.sum(0), draws.sum(0)
    matches = total_wins + total_wins.T + total_draws
    rated = [i for i in range(n) if matches[i].sum() > 0]
    swept = _sweeps(total_wins, matches, rated)
    fitted = [i for i in rated if i not in swept]
    if len(fitted) < 2:  # one bot's Elo relative to itself says nothing
        fitted = []
    elo = _elo(total_wins, total_draws, fitted)
    low, high = _bootstrap(wins, draws, fitted, seed, bootstrap)
    # Sweeps set aside sooner are the more extreme: they won, or lost, against more.
    won = sorted((i for i in swept if swept[i][0] == "won"), key=lambda i: (swept[i][1], i))
    lost = sorted((i for i in swept if swept[i][0] == "lost"), key=lambda i: (-swept[i][1], i))
    middle = sorted((i for i in rated if i not in swept),
                    key=lambda i: (elo[i] is None, -(elo[i] or 0), i))
    order = won + middle + lost \
        + [i for i in range(n) if i not in rated]

    ratings = []
    for rank, i in enumerate(order, 1):
        w, dr, lo = (int(x) for x in (total_wins[i].sum(), total_draws[i].sum(),
                                      total_wins[:, i].sum()))
        nxt = order[rank] if rank < n else None
        los = None
        if nxt in rated:
            los = likelihood_of_superiority(total_wins[i, nxt], total_wins[nxt, i])
        ratings.append(Rating(
            rank=rank, bot=names[i], spec=_spec(bots.get(names[i], "")), elo=elo[i],
            low=low[i], high=high[i], score=(w + dr / 2) / (w + dr + lo) if i in rated else None,
            games=games[i], wins=w, draws=dr, losses=lo, los=los, failures=failures[i],
            mean_return=means[i], swept=swept[i][0] if i in swept else None))

    ranked = [i for i in order if i in rated]
    crosstable = {names[i]: {names[j]: Tally(int(total_wins[i, j]), int(total_draws[i, j]),
                                             int(total_wins[j, i]))
                             for j in ranked if j != i and matches[i, j]}
                  for i in ranked}
    pairs = [_pair(names[i], names[j], wins[:, i, j], draws[:, i, j], wins[:, j, i])
             for i, j in itertools.combinations(ranked, 2) if matches[i, j]]
    edges = [(a, b) for a in crosstable for b, t in crosstable[a].items()
             if 2 * t.wins + t.draws > t.matches]
    cycles, more_cycles = _cycles([names[i] for i in ranked], edges)
    return Report(ratings=ratings, crosstable=crosstable, pairs=pairs,
                  seats=_seats(rows, sides),
                  edges=edges, cycles=cycles, more_cycles=more_cycles, deals=num_deals,
                  games=len(rows), bootstrap=bootstrap, seed=seed)


def list_games(rows, fmt="text"):
    """Stored game rows listed one a line, with the ids ``cardarena replay`` takes, as
    ``fmt`` says: ``text``, ``markdown``, ``csv`` or ``json``.  Where a deal was played
    with its cards rotated, each game says by how many seats."""
    rotated = any(row.rotation for row in rows)
    if fmt == "json":
        return json.dumps([{"id": row.id, "deal": row.deal, "seating": row.seating,
                            **({"rotation": row.rotation} if rotated else {}),
                            "returns": row.returns, "status": row.status,
                            "failed": row.failed, "message": row.message,
                            "length": row.length} for row in rows], indent=2)
    if fmt == "text":
        return "\n".join(f"{row.id:>6}  deal {row.deal:<4} "
                         + (f"rotated {row.rotation}  " if rotated else "")
                         + f"{' v '.join(row.seating):<30} "
                         f"{' '.join(f'{r:g}' for r in row.returns):<12} "
                         f"{row.status:<8} {count(row.length, 'decision')}" for row in rows)
    headers = ["id", "deal", *(["rotation"] if rotated else []), "seating", "returns",
               "status", "failed", "decisions"]
    body = [[str(row.id), str(row.deal), *([str(row.rotation)] if rotated else []),
             " v ".join(row.seating), " ".join(f"{r:g}" for r in row.returns), row.status,
             row.failed or "", str(row.length)] for row in rows]
    if fmt == "markdown":
        return markdown_table(headers, body, "rl" + "r" * rotated + "llllr")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows([headers] + body)
    return out.getvalue().rstrip("\n")


def elo_samples(rows, names, *, seed=0, bootstrap=1000, sides=None, deals=None,
                block=None):
    """Elo of the bots ``names`` from game rows, as ``rate`` fits it, relative to their
    mean: an array of the fit on every deal, and a ``bootstrap`` by ``len(names)``
    array of fits on resamples of the deals drawn with a generator seeded by ``seed``.
    The resamples draw from the deal numbers ``deals`` (by default those of ``rows``),
    within each run of ``block`` of them (``deal_weights``): figures of other rows
    resampled from the same numbers move in step, and a match that played fewer deals
    than others keeps its number in every resample.  Every bot must have a match;
    differences between columns of the resamples give intervals for differences of
    Elo.

    >>> from tournament.harness.row import GameRow
    >>> rows = [GameRow(deal=d, seating=s, returns=[1, -1])
    ...         for d in range(4) for s in (["a", "b"], ["b", "a"])]
    >>> elo, samples = elo_samples(rows, ["a", "b"], bootstrap=10)
    >>> elo.tolist(), samples.shape
    ([0.0, 0.0], (10, 2))
    """
    rows = list(rows)
    index = {b: i for i, b in enumerate(names)}
    deal_index = {d: k for k, d in enumerate(sorted(
        {r.deal for r in rows} if deals is None else set(deals)))}
    for row in rows:
        _check(row)
    wins, draws = _counts(rows, index, deal_index, sides)
    rated = list(range(len(names)))
    total_wins, total_draws = wins.sum(0), draws.sum(0)
    matches = total_wins + total_wins.T + total_draws
    unmatched = [names[i] for i in rated if not matches[i].any()]
    if not rows or unmatched:
        raise NoGamesError(f"no match for {', '.join(unmatched) or 'any bot'}")
    elo = np.array(_elo(total_wins, total_draws, rated))
    return elo, np.array(_resamples(wins, draws, rated, seed, bootstrap, block)).reshape(
        bootstrap, len(names))


def _mean_returns(rows, index):
    """Each bot's mean return over the seats it held."""
    total, seats = [0.0] * len(index), [0] * len(index)
    for row in rows:
        for bot, value in zip(row.seating, row.returns):
            total[index[bot]] += value
            seats[index[bot]] += 1
    return [t / k if k else None for t, k in zip(total, seats)]


def _counts(rows, index, deal_index, sides=None):
    """Arrays of matches by deal: ``wins[d, i, j]`` counts the matches of deal ``d``
    that bot i won against bot j, ``draws[d, i, j]`` the drawn ones, counted both ways
    as pyspiel.elo wants them."""
    n = len(index)
    wins = np.zeros((len(deal_index), n, n))
    draws = np.zeros((len(deal_index), n, n))
    for row in rows:
        d = deal_index[row.deal]
        for a, b, score in match_scores(row, sides):
            i, j = index[a], index[b]
            if score == 1:
                wins[d, i, j] += 1
            elif score == 0:
                wins[d, j, i] += 1
            else:
                draws[d, i, j] += 1
                draws[d, j, i] += 1
    return wins, draws


def match_scores(row, sides=None):
    """The matches of one game row, as (bot, opponent, score): one for every two sides
    (``sides``: each seat alone unless a team game's are given) held by different bots,
    the bot's score 1, 0.5 or 0 by the sides' returns, a team's added up."""
    seating, returns, failed = row.seating, row.returns, row.failed
    for one, other in itertools.combinations(sides or _alone(seating), 2):
        a, b = seating[one[0]], seating[other[0]]
        if a == b:
            continue
        if a == failed:
            score = 0.0
        elif b == failed:
            score = 1.0
        else:
            mine = sum(returns[p] for p in one)
            theirs = sum(returns[p] for p in other)
            score = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
        yield a, b, score


def _alone(seating):
    return [(p,) for p in range(len(seating))]


def likelihood_of_superiority(wins, losses):
    """The probability that a bot with ``wins`` and ``losses`` against another is the
    stronger, draws aside; None without a decisive game.

    >>> likelihood_of_superiority(10, 10)
    0.5
    """
    if wins + losses == 0:
        return None
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def _check(row):
    if len(row.seating) < 2 or len(row.returns) != len(row.seating):
        raise RowError(f"game {row.id}: {len(row.returns)} returns for seating "
                       f"{row.seating}")
    if row.failed is not None and row.failed not in row.seating:
        raise RowError(f"game {row.id}: {row.failed!r} failed without a seat in "
                       f"{row.seating}")


def _sweeps(wins, matches, rated):
    """The bots of ``rated`` that lost, or won, every match against the others, as
    ``{bot: ("lost" or "won", round)}``: once a sweep is set aside another bot may
    sweep the rest, so they are looked for round after round until none is left, or
    no two bots are."""
    swept = {}
    left = list(rated)
    for round_ in itertools.count():
        found = {}
        for i in left:
            played = sum(matches[i, j] for j in left)
            if played == 0:
                continue
            won = sum(wins[i, j] for j in left)
            lost = sum(wins[j, i] for j in left)
            if lost == played:
                found[i] = ("lost", round_)
            elif won == played:
                found[i] = ("won", round_)
        if not found:
            return swept
        swept.update(found)
        left = [i for i in left if i not in found]


def _elo(wins, draws, rated):
    """Elo of the ``rated`` bots, relative to their mean; None for the others.
    pyspiel.elo adds 0.01 of a win each way between every two bots, which keeps a bot
    that never lost (or never won) finite."""
    elo = [None] * len(wins)
    if not rated:
        return elo
    sub = np.ix_(rated, rated)
    fit = np.array(pyspiel.elo.compute_ratings_from_matrices(
        np.rint(wins[sub]).astype(int).tolist(), np.rint(draws[sub]).astype(int).tolist()))
    for i, x in zip(rated, fit - fit.mean()):
        elo[i] = float(x)
    return elo


def _bootstrap(wins, draws, rated, seed, resamples):
    """The 2.5th and 97.5th percentiles of each rated bot's Elo over ``resamples``
    resamples of the deals with replacement; None for the others, or without
    resamples."""
    low, high = [None] * wins.shape[1], [None] * wins.shape[1]
    if not resamples or not rated:
        return low, high
    samples = _resamples(wins, draws, rated, seed, resamples)
    lows, highs = np.percentile(samples, [2.5, 97.5], axis=0)
    for i, lo, hi in zip(rated, lows, highs):
        low[i], high[i] = float(lo), float(hi)
    return low, high


def deal_weights(num_deals, seed, resamples, block=None):
    """A ``resamples`` by ``num_deals`` array: how many times each deal is drawn in each
    resample of the deals with replacement, from a generator seeded by ``seed``.  The
    Elo intervals are drawn so; a figure resampled with the same weights moves in step
    with them, and with the same figure of another variant dealt the same deals.

    With ``block``, the deals are drawn within each run of ``block`` deals (the last
    run may be shorter): matches that played a different number of whole runs then
    each keep their own number of deals in every resample.  A ``block`` of at least
    ``num_deals`` draws as none does."""
    rng = np.random.default_rng(seed)
    block = block or num_deals
    runs = [(low, min(low + block, num_deals)) for low in range(0, num_deals, block)]
    return np.array([np.concatenate([np.bincount(rng.integers(0, high - low, high - low),
                                                 minlength=high - low)
                                     for low, high in runs] or [[]])
                     for _ in range(resamples)],
                    dtype=float).reshape(resamples, num_deals)


def _resamples(wins, draws, rated, seed, resamples, block=None):
    """The Elo of the ``rated`` bots fitted on each of ``resamples`` resamples of the
    deals with replacement."""
    num_deals = len(wins)
    flat_wins, flat_draws = wins.reshape(num_deals, -1), draws.reshape(num_deals, -1)
    samples = []
    for weights in deal_weights(num_deals, seed, resamples, block):
        elo = _elo((weights @ flat_wins).reshape(wins.shape[1:]),
                   (weights @ flat_draws).reshape(wins.shape[1:]), rated)
        samples.append([elo[i] for i in rated])
    return samples


def _pair(bot, opponent, wins, draws, losses):
    """Deals won, split and lost from per-deal match counts; a deal is won when the
    bot scores over half its matches there, 2 * wins + draws > matches."""
    matches = wins + draws + losses
    met = matches > 0
    points = (2 * wins + draws)[met]
    return PairResult(bot, opponent, won=int((points > matches[met]).sum()),
                      split=int((points == matches[met]).sum()),
                      lost=int((points < matches[met]).sum()))


def _seats(rows, sides=None):
    """Seat results (a team's seats together) over the games no bot failed: a failure
    says nothing of the seat."""
    played = [r for r in rows if r.failed is None]
    if not played:
        return []
    sides = sides or _alone(range(max(len(r.seating) for r in played)))
    seats = []
    for k, side in enumerate(sides):
        # A game's sides' returns, in games that seat this side (a rows' table may have
        # fewer seats than another's).
        games = [[sum(r.returns[p] for p in s) for s in sides if max(s) < len(r.returns)]
                 for r in played if max(side) < len(r.returns)]
        top = [(g[k] == max(g), sum(x == g[k] for x in g) > 1) for g in games]
        wins = sum(best and not shared for best, shared in top) / len(games)
        draws = sum(best and shared for best, shared in top) / len(games)
        score = low = high = None
        if all(len(g) == 2 for g in games):
            score = wins + draws / 2
            low, high = wilson(score, len(games))
        seats.append(SeatResult(seat=side[0], games=len(games),
                                mean_return=sum(g[k] for g in games) / len(games),
                                wins=wins, draws=draws, score=score, low=low, high=high,
                                partners=list(side[1:])))
    return seats


def _cycles(ranked, edges):
    """The shortest simple cycles of the dominance graph, at most ``MOST_CYCLES``, each
    started at its best-rated bot; and whether there are more.  Cycles are looked for
    one length at a time, so that no more of them are found than are listed."""
    graph = nx.DiGraph(edges)
    found = []
    for length in range(3, len(graph) + 1):
        # No two bots each score over 50% against the other: no cycle is shorter than 3.
        of_length = (c for c in nx.simple_cycles(graph, length_bound=length)
                     if len(c) == length)
        found += itertools.islice(of_length, MOST_CYCLES + 1 - len(found))
        if len(found) > MOST_CYCLES:
            break
    place = {b: k for k, b in enumerate(ranked)}
    cycles = []
    for cycle in found[:MOST_CYCLES]:
        start = min(range(len(cycle)), key=lambda k: place[cycle[k]])
        cycles.append(cycle[start:] + cycle[:start])
    cycles.sort(key=lambda c: (len(c), [place[b] for b in c]))
    return cycles, len(found) > MOST_CYCLES


def _and(names):
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def _spec(spec):
    """A spec as one line: a string as it is, a Python factory's table as JSON."""
    return spec if isinstance(spec, str) else json.dumps(spec, sort_keys=True)


def _round(x, digits):
    return None if x is None else round(x, digits)


def _signed(x):
    return "-" if x is None else f"{x:+.0f}"


def _percent(x):
    return "-" if x is None else f"{100 * x:.1f}"


def _cell(tally):
    return "" if tally is None else f"{100 * tally.score:.1f} ({tally.matches})"
