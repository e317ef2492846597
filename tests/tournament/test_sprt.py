"""The SPRT on duplicate pairs: its bounds, its log-likelihood ratio against an
independent computation, its decisions, and its error rates on simulated bots."""
import math

import numpy as np
import pytest

from tournament.harness.row import GameRow
from tournament.stats.sprt import (DecidedError, PairError, Sprt, elo_from_score,
                                   expected_score, pair_scores)


def profile_llr(pentanomial, elo0, elo1):
    """The generalised LLR computed another way: by empirical likelihood, the most
    log-likelihood per pair of a distribution with expected score s, less that of the
    observed frequencies p, is -max over t of sum_k p_k log(1 + t (k/4 - s)), a
    concave function of t maximised here by a grid search refined by ternary search."""
    weights = np.array([c or 1e-3 for c in pentanomial], float)
    n, p = weights.sum(), weights / weights.sum()
    a = np.arange(5) / 4

    def best(s):
        d = a - s
        lo, hi = -1 / (1 - s) + 1e-12, 1 / s - 1e-12
        grid = np.linspace(lo, hi, 20001)
        values = (p * np.log1p(np.outer(grid, d))).sum(1)
        k = int(values.argmax())
        lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
        for _ in range(200):
            m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
            if (p * np.log1p(m1 * d)).sum() < (p * np.log1p(m2 * d)).sum():
                lo = m1
            else:
                hi = m2
        return (p * np.log1p((lo + hi) / 2 * d)).sum()

    return n * (best(expected_score(elo0)) - best(expected_score(elo1)))


def test_expected_score_is_logistic_elo():
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)
    assert expected_score(-400) == pytest.approx(1 / 11)
    for elo in (-300, -20, 0, 5, 250):
        assert elo_from_score(expected_score(elo)) == pytest.approx(elo)


def test_bounds_follow_from_the_error_rates():
    test = Sprt(0, 20, alpha=0.05, beta=0.1)
    assert test.bounds == (pytest.approx(math.log(0.1 / 0.95)),
                           pytest.approx(math.log(0.9 / 0.05)))
    assert Sprt(0, 20).bounds == (pytest.approx(-2.944438979), pytest.approx(2.944438979))


@pytest.mark.parametrize("elo0, elo1, alpha, beta", [(20, 0, 0.05, 0.05), (0, 0, 0.05, 0.05),
                                                     (0, 10, 0, 0.05), (0, 10, 0.6, 0.5)])
def test_refuses_hypotheses_that_make_no_test(elo0, elo1, alpha, beta):
    with pytest.raises(ValueError):
        Sprt(elo0, elo1, alpha, beta)


# Expected scores of 1 or 0 (to the last bit of a float), or none at all.
@pytest.mark.parametrize("elo0, elo1", [(0, 100_000), (0, math.inf), (-1e6, 0),
                                        (math.nan, 20)])
def test_refuses_elo_beyond_any_score(elo0, elo1):
    with pytest.raises(ValueError, match="between 0 and 1"):
        Sprt(elo0, elo1)
    assert Sprt(0, 6000).extend([1, 0.75, 0.5] * 3) == "H0"


@pytest.mark.parametrize("scores", [[1, 0.5, 0.75], [0, 0.25, 0.25, 0.5, 1, 0.75, 0.5],
                                    [0.5] * 6, [1] * 3])
def test_llr_equals_the_empirical_likelihood_ratio(scores):
    test = Sprt(-10, 30)
    for score in scores:
        test.pentanomial[int(score * 4)] += 1
    assert test.llr() == pytest.approx(profile_llr(test.pentanomial, -10, 30), abs=1e-7)


def test_llr_values_by_hand():
    # Two pairs, of scores 1 and 0, for elo0 = 0 and elo1 = 20.  The frequencies are
    # p = (1, e, e, e, 1) / (2 + 3e) with e = 0.001, whose expected score is 1/2 = s0, so
    # the likeliest distribution under H0 is p itself (x0 = 0).  Under H1, x1 solves
    # sum_k p_k d_k / (1 + x1 d_k) = 0 with d_k = k/4 - s1; the LLR is then
    # -n sum_k p_k log(1 + x1 d_k), with n = 2 + 3e.  With so spread a distribution
    # (variance 1/4) the normal approximation is close:
    # -n (s1 - s0)^2 / (2 var) = -2 * 0.028750^2 / 0.5 = -0.003306.
    test = Sprt(0, 20)
    test.extend([1, 0])
    e, s1 = 1e-3, expected_score(20)
    p = np.array([1, e, e, e, 1]) / (2 + 3 * e)
    d = np.arange(5) / 4 - s1
    lo, hi = -1 / (1 - s1), 1 / s1
    for _ in range(200):  # f(x) falls from +inf to -inf: bisect it
        x1 = (lo + hi) / 2
        lo, hi = (x1, hi) if (p * d / (1 + x1 * d)).sum() > 0 else (lo, x1)
    assert test.llr() == pytest.approx(-(2 + 3 * e) * (p * np.log1p(x1 * d)).sum(), rel=1e-9)
    assert test.llr() == pytest.approx(-0.0033210, abs=1e-7)
    assert test.llr() == pytest.approx(-0.003306, rel=0.01)


def test_llr_nears_the_normal_approximation_over_many_pairs():
    # Fishtest's approximation n (s1 - s0) (2 mean - s0 - s1) / (2 var) agrees with the
    # exact ratio once there are many pairs and the scores are near s0 and s1.
    test = Sprt(0, 20)
    test.pentanomial = [300, 1200, 3000, 1260, 330]
    n = sum(test.pentanomial)
    scores = np.repeat(np.arange(5) / 4, test.pentanomial)
    s0, s1 = expected_score(0), expected_score(20)
    approximation = n * (s1 - s0) * (2 * scores.mean() - s0 - s1) / (2 * scores.var())
    assert test.llr() == pytest.approx(approximation, rel=0.01)


def test_llr_is_small_and_even_before_any_pair():
    # Every class weighs 0.001 of a pair, so the ratio starts near nothing and one pair
    # moves it a little: no decision from a single lucky deal.
    test = Sprt(0, 20)
    assert abs(test.llr()) < 1e-3
    assert test.add(1) is None
    assert 0 < test.llr() < 0.1


def test_decides_once_and_stops():
    test = Sprt(0, 20)
    assert test.decision() is None
    assert test.extend([1, 0.75] * 100) == "H1"
    assert test.decision() == "H1"
    assert test.pairs == 53 and test.pentanomial == [0, 0, 0, 26, 27]
    assert test.llr() >= test.bounds[1]
    with pytest.raises(DecidedError):
        test.add(0.5)
    assert "H1 accepted" in test.summary() and "53 pairs" in test.summary()


def test_accepts_h0_for_a_bot_no_stronger():
    test = Sprt(0, 20)
    assert test.extend([0.5, 0.25, 0.75, 0.5] * 1000) == "H0"
    assert test.llr() <= test.bounds[0]
    assert "H0 accepted" in test.summary()


def test_progress_is_the_pairs_and_the_llr_against_its_bounds():
    test = Sprt(0, 20)
    assert test.progress() == "0 pairs, LLR 0.00 in [-2.94, 2.94]"
    test.extend([1, 0.75] * 10)
    assert test.progress() == f"20 pairs, LLR {test.llr():.2f} in [-2.94, 2.94]"


@pytest.mark.parametrize("score", [0.3, -0.25, 1.25, 2])
def test_refuses_a_score_no_pair_can_have(score):
    with pytest.raises(PairError):
        Sprt(0, 20).add(score)


def game(deal, seating, returns, status="ok", failed=None):
    return GameRow(id=0, deal=deal, seating=seating, returns=returns, status=status,
                   failed=failed, length=1, seconds=[0.0] * len(seating))


def test_pair_scores_by_deal():
    rows = [
        game(2, ["a", "b"], [0, 0]), game(2, ["b", "a"], [-1, 1]),   # a draw and a win
        game(0, ["a", "b"], [1, -1]), game(0, ["b", "a"], [-1, 1]),  # two wins
        game(1, ["a", "b"], [1, -1]), game(1, ["b", "a"], [1, -1]),  # a win and a loss
        game(3, ["a", "b"], [1, -1]),                                # half a pair
        game(4, ["a", "b"], [0, 0], "timeout", "b"),                 # b ran out of time
        game(4, ["b", "a"], [1, -1]),
        game(0, ["a", "c"], [1, -1]), game(0, ["c", "b"], [1, -1]),  # other bots
    ]
    assert pair_scores(rows, "a", "b") == [1.0, 0.5, 0.75, 0.5]
    assert pair_scores(rows, "b", "a") == [0.0, 0.5, 0.25, 0.5]
    assert pair_scores(rows, "a", "c") == []


def test_pairs_need_two_seats_and_two_bots():
    with pytest.raises(PairError):
        pair_scores([game(0, ["a", "b", "c"], [1, 0, 0])], "a", "b")
    with pytest.raises(PairError):
        pair_scores([], "a", "a")


def pentanomial(elo, draw_rate):
    """Class probabilities of a pair of two independent games, each won with
    probability s - draw_rate / 2, drawn with draw_rate, s the expected score."""
    s = expected_score(elo)
    one_game = [1 - s - draw_rate / 2, draw_rate, s - draw_rate / 2]
    return np.convolve(one_game, one_game)


def accept_rates(true_elo, runs, seed, elo0=0, elo1=100):
    """The fractions of ``runs`` simulated tests that accept H1 and H0 when A is
    ``true_elo`` stronger, each fed pairs until it decides."""
    rng = np.random.default_rng(seed)
    probs = pentanomial(true_elo, draw_rate=0.3)
    decisions = []
    for _ in range(runs):
        test = Sprt(elo0, elo1)
        decisions.append(test.extend(rng.choice(5, size=1000, p=probs) / 4))
    assert None not in decisions, "a test ran on for 1000 pairs without deciding"
    return decisions.count("H1") / runs, decisions.count("H0") / runs


# 2000 simulated tests estimate an error rate near 0.05 to within a standard deviation
# of sqrt(0.05 * 0.95 / 2000) = 0.0049; the GSPRT's true error rates sit near the
# alpha and beta asked for (0.045 to 0.055 over 4000 tests at these settings), so
# three standard deviations either side, 0.0146, hold with room.  The seeds fix the
# outcome.
RUNS = 2000
TOLERANCE = 3 * math.sqrt(0.05 * 0.95 / RUNS)


def test_false_h1_rate_is_near_alpha():
    false_h1, _ = accept_rates(true_elo=0, runs=RUNS, seed=11)
    assert abs(false_h1 - 0.05) <= TOLERANCE


def test_false_h0_rate_is_near_beta():
    _, false_h0 = accept_rates(true_elo=100, runs=RUNS, seed=12)
    assert abs(false_h0 - 0.05) <= TOLERANCE
