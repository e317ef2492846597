"""The 95% interval of a score (a share of games won, draws counting half): Wilson's
over independent games, and one read from the spread between duplicate deals, whose
games share their cards."""
import math

# The normal quantile of 97.5%, for 95% intervals.
Z95 = 1.959963984540054


def wilson(p, n, z=Z95):
    """The Wilson score interval of a proportion ``p`` seen over ``n`` trials, 95%
    unless ``z`` (the normal quantile of the interval's upper end) says otherwise.
    With draws scored as halves it is a little wider than it need be."""
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # At p = 0 or 1 one bound is the proportion itself, which rounding misses either way.
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def deal_wilson(scores, deals):
    """The 95% interval of the mean of ``scores`` (each 0 to 1), the score of game k
    dealt by ``deals[k]``: Wilson's, with the games counted as the spread between the
    deals' totals says they weigh (Kish's effective number) and Student's quantile at
    one less than the deals for the normal one.

    A deal's games share its cards, so they are not independent, as Wilson's interval
    takes them to be.  Played in both seatings, a deal's luck cancels between its games
    and Wilson's interval is too wide; when a deal favours one bot wherever it sits, too
    narrow.  The variance here is the deals' own (a cluster-robust one), so neither.
    Where the deals' totals do not vary, or every game went one way, there is no spread
    to read and it is Wilson's over the games."""
    n = len(scores)
    mean = sum(scores) / n
    totals, sizes = {}, {}
    for score, deal in zip(scores, deals):
        totals[deal] = totals.get(deal, 0.0) + score
        sizes[deal] = sizes.get(deal, 0) + 1
    k = len(totals)
    if k > 1 and 0 < mean < 1:
        spread = sum((totals[d] - sizes[d] * mean) ** 2 for d in totals)
        variance = k / (k - 1) * spread / (n * n)
        if variance > 0:
            return wilson(mean, mean * (1 - mean) / variance, student95(k - 1))
    return wilson(mean, n)


def student95(df):
    """Student's t quantile of 97.5% at ``df`` degrees of freedom: from a table up to
    4, then by the Cornish-Fisher expansion about the normal quantile, within 0.004 of
    the exact value at 5 and closer above."""
    if df < len(_STUDENT95):
        return _STUDENT95[df]
    z = Z95
    z3, z5, z7 = z ** 3, z ** 5, z ** 7
    return (z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3))


# Student's 97.5% quantiles at 1 to 4 degrees of freedom, where the expansion is poor.
_STUDENT95 = (math.inf, 12.7062047, 4.3026527, 3.1824463, 2.7764451)
