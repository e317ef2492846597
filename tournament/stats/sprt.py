"""A sequential probability ratio test between two bots on duplicate pairs: the
generalised SPRT that Fishtest runs on pentanomial results.

A pair is the two games of one deal with the bots in swapped seats.  Its score for
bot A is 0, 1/4, 1/2, 3/4 or 1 (A's points over the two games, halved), so pairs fall
into five classes, from two losses to two wins.  Each pair is one trial: the deal's
luck, shared by both games, stays inside it.

The test weighs H0, A's expected score is s0 = s(elo0), against H1, it is s1 = s(elo1),
with s(elo) = 1 / (1 + 10^(-elo / 400)) (logistic Elo).  Its log-likelihood ratio
compares the likeliest distributions over the five classes with those expected scores:

    LLR = n * sum_k p_k * log(q1_k / q0_k),    q_k = p_k / (1 + x (a_k - s)),

where p is the classes' observed frequencies over n pairs, a_k = k / 4 the classes'
scores, and x the one number that gives q the expected score s.  A class no pair has
fallen into yet counts 0.001 of a pair, as in Fishtest, so every class has a
probability from the start.

Fishtest also gives the normal approximation n (s1 - s0) (2 mean - s0 - s1) / (2 var);
it holds once there are many pairs, but over the first few the variance is nearly
nothing and the LLR leaps past a bound: fed one pair at a time from the start, it
accepted a false H1 in a third of simulated tests.  The exact ratio is used instead.

The test accepts H1 once the LLR reaches log((1 - beta) / alpha) and H0 once it falls
to log(beta / (1 - alpha)); alpha and beta are the chances of accepting H1 when H0 is
true, and H0 when H1 is.

>>> test = Sprt(elo0=0, elo1=20)
>>> test.bounds
(-2.9444389791664403, 2.9444389791664403)
>>> test.extend([1, 0.75] * 100)
'H1'
>>> test.pairs
53
"""
import math

from core.errors import CardArenaError
from tournament.stats.ratings import match_scores

# Fishtest's weight for a pentanomial class with no pair in it yet.
EMPTY_CLASS = 1e-3


class PairError(CardArenaError):
    """Games that cannot be paired for the test: more than two seats, or a pair score
    that is not a multiple of 1/4 from 0 to 1."""


class DecidedError(CardArenaError):
    """A pair added to a test that has already decided."""


def expected_score(elo):
    """The expected score of a bot ``elo`` points stronger than its opponent."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_from_score(score):
    """The Elo difference that gives an expected ``score`` strictly between 0 and 1."""
    return 400 * math.log10(score / (1 - score))


class Sprt:
    """The test of bot A against bot B that A is at least ``elo1`` stronger (H1)
    rather than at most ``elo0`` (H0), fed one pair at a time.  ``pentanomial`` counts
    the pairs by A's points over the two games: 0, 1/2, 1, 3/2 and 2."""

    def __init__(self, elo0, elo1, alpha=0.05, beta=0.05):
        for elo in (elo0, elo1):
            try:
                inside = 0 < expected_score(elo) < 1
            except OverflowError:  # far below -100000
                inside = False
            # A score of 0 or 1 leaves the likelihood ratio undefined.
            if not inside:
                raise ValueError("elo0 and elo1 must give expected scores between 0 and 1, "
                                 f"which a float holds within about +-6000 Elo, not {elo}")
        if not elo0 < elo1:
            raise ValueError(f"elo0 must be below elo1, not {elo0} and {elo1}")
        if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
            raise ValueError(f"alpha and beta must be in (0, 1) with a sum below 1, not "
                             f"{alpha} and {beta}")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.pentanomial = [0] * 5
        self._decision = None

    @property
    def bounds(self):
        """(lower, upper): the LLR at which the test accepts H0, and H1."""
        return (math.log(self.beta / (1 - self.alpha)),
                math.log((1 - self.beta) / self.alpha))

    @property
    def pairs(self):
        """The number of pairs added."""
        return sum(self.pentanomial)

    def add(self, score):
        """Add one pair's score for A, from 0 to 1 in steps of 1/4; return the decision,
        which holds from the first pair that reaches a bound."""
        if self._decision is not None:
            raise DecidedError(f"the test has accepted {self._decision} after "
                               f"{self.pairs} pairs")
        quarters = score * 4
        if quarters not in (0, 1, 2, 3, 4):
            raise PairError(f"a pair scores 0, 0.25, 0.5, 0.75 or 1, not {score}")
        self.pentanomial[int(quarters)] += 1
        llr = self.llr()
        lower, upper = self.bounds
        if llr >= upper:
            self._decision = "H1"
        elif llr <= lower:
            self._decision = "H0"
        return self._decision

    def extend(self, scores):
        """Add pairs in order until the test decides; return the decision or None.
        The pairs after the deciding one are left out."""
        for score in scores:
            if self.add(score):
                break
        return self._decision

    def decision(self):
        """The decision: "H1" (A is at least elo1 stronger), "H0" (at most elo0), or
        None while the test goes on."""
        return self._decision

    def score(self):
        """The mean of the pair scores, empty classes weighed in as for the LLR."""
        _, probs = self._frequencies()
        return sum(p * k / 4 for k, p in enumerate(probs))

    def llr(self):
        """The log-likelihood ratio of H1 against H0 over the pairs so far."""
        n, probs = self._frequencies()
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        x0, x1 = _tilt(probs, s0), _tilt(probs, s1)
        return n * sum(p * (math.log1p(x0 * (k / 4 - s0)) - math.log1p(x1 * (k / 4 - s1)))
                       for k, p in enumerate(probs))

    def summary(self, a="A"):
        """One line for people, bot A named ``a``: pairs by class, score, LLR within
        its bounds, decision."""
        lower, upper = self.bounds
        verdict = {"H1": f"H1 accepted: {a} is at least {self.elo1:g} Elo stronger",
                   "H0": f"H0 accepted: {a} is at most {self.elo0:g} Elo stronger",
                   None: "no decision yet"}[self._decision]
        return (f"{self.pairs} pairs {self.pentanomial}, score {100 * self.score():.1f}% "
                f"({elo_from_score(self.score()):+.1f} Elo), LLR {self.llr():.2f} "
                f"[{lower:.2f}, {upper:.2f}]: {verdict}")

    def progress(self):
        """How far the test has gone, for a progress bar: the pairs, and the LLR against
        the bounds it is heading for (a test has no end known in advance)."""
        lower, upper = self.bounds
        llr = round(self.llr(), 2) + 0.0  # + 0.0: no "-0.00" before the first pairs
        return f"{self.pairs} pairs, LLR {llr:.2f} in [{lower:.2f}, {upper:.2f}]"

    def _frequencies(self):
        """(n, the five classes' frequencies), empty classes counted as ``EMPTY_CLASS``
        of a pair."""
        weights = [count or EMPTY_CLASS for count in self.pentanomial]
        n = sum(weights)
        return n, [w / n for w in weights]


def _tilt(probs, s):
    """The x for which q_k = p_k / (1 + x (a_k - s)) is the likeliest distribution with
    expected score ``s`` given the frequencies ``probs``: the root of
    f(x) = sum_k p_k d_k / (1 + x d_k), d_k = a_k - s.  f falls from +inf to -inf over
    (-1 / (1 - s), 1 / s), where every 1 + x d_k is positive, so Newton's steps kept
    inside a shrinking bracket find it."""
    d = [k / 4 - s for k in range(5)]
    low, high = -1 / (1 - s), 1 / s
    x = 0.0
    for _ in range(200):
        f = slope = 0.0
        for p, dk in zip(probs, d):
            ratio = dk / (1 + x * dk)
            f += p * ratio
            slope -= p * ratio * ratio
        if f > 0:
            low = x
        else:
            high = x
        step = x - f / slope
        following = step if low < step < high else (low + high) / 2
        # The LLR is flat in x at the root: an error of 1e-12 in x moves it by ~1e-24.
        if abs(following - x) <= 1e-12:
            return following
        x = following
    return x


def pair_scores(rows, a, b, sides=None):
    """A's pair scores against B from game rows, in deal order: for every deal where
    both seatings of A and B have been played, A's points over the two games, halved.
    A bot that failed loses its game.  ``sides`` are the game's (each seat alone by
    default): a team game pairs team against team.  Rows without both bots are
    ignored; rows with both at a table of more than two sides raise PairError."""
    if a == b:
        raise PairError(f"a bot is not tested against itself ({a!r})")
    games = {}
    for row in rows:
        if a not in row.seating or b not in row.seating:
            continue
        matches = list(match_scores(row, sides))
        if len(matches) != 1:
            raise PairError(f"pairs are of games between two sides, not of seating "
                            f"{row.seating}")
        (bot, _, score), = matches
        games.setdefault(row.deal, {})[tuple(row.seating)] = (
            score if bot == a else 1 - score)
    return [sum(seatings.values()) / 2 for deal, seatings in sorted(games.items())
            if len(seatings) == 2]
