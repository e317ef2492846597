"""The skill analysis's intervals and verdicts on made-up games whose truth is known."""
import dataclasses
import json
import pathlib

import pytest

from tournament.harness.row import GameRow
from tournament.skill import analysis, plans, report
from tournament.skill.figures import (Chain, Clear, Climb, ClimbStep, Edge, RatedRung, Reading,
                                      Results)

# Every game is made up, so the truth is known: on deal d of n, the upper rung of a
# step scoring s wins both seatings when d < s * n and loses both otherwise, and in
# self-play the first seat of a variant whose seat scores s wins every rotation of deal
# d when d < s * n.  No game is played; the games have no moves.

HAND_LADDER = plans.ladder(plans.PLAYER, 4, 16)


class HandMadeGames:
    """A store of made-up games of ``plan``: ``steps[variant](lower, upper)`` is the
    upper rung's score against the lower, ``seats[variant]`` the first seat's score in
    self-play."""

    def __init__(self, plan, steps, seats):
        self.rows = {}
        for variant in plan.variants:
            for config in plan.configs(variant):
                rows = []
                for deal, seating, rotation in config.games():
                    if len(config.bots) == 1:
                        won = deal < seats[variant.name] * config.deals
                        returns = [1, -1] if won else [-1, 1]
                    else:
                        lower, upper = config.bots
                        won = deal < steps[variant.name](lower, upper) * config.deals
                        returns = [1 if (bot == upper) == won else -1 for bot in seating]
                    rows.append(GameRow(deal=deal, seating=list(seating), returns=returns,
                                        rotation=rotation))
                self.rows[config.key] = rows

    def games(self, key, deals=None):
        return [r for r in self.rows[key] if deals is None or r.deal in deals]


def each_step(searcher, greedy=0.9, others=0.8):
    """Steps where each doubling of the searcher scores ``searcher``, the lowest
    searcher scores ``greedy`` against greedy, and every other step ``others``."""
    def score(lower, upper):
        if lower.startswith("ismcts") and upper.startswith("ismcts"):
            return searcher
        return greedy if lower == "greedy" else others
    return score


def hand_measure(steps, seats, deals=40):
    """The figures of made-up games of two or three variants of Card Duel,
    ``life=15``, ``life=22`` (and ``life=30``): ``steps`` and ``seats`` hold one for
    each."""
    lives = [f"life={n}" for n in (15, 22, 30)[:len(steps)]]
    plan = plans.Plan(plans.variants("card_duel", lives), HAND_LADDER, deals=deals)
    names = [v.name for v in plan.variants]
    store = HandMadeGames(plan, dict(zip(names, steps)), dict(zip(names, seats)))
    return analysis.measure(store, plan, bootstrap=200)


def width(figure):
    return figure.high - figure.low


def test_chains_and_skilltrace_have_intervals_that_hold_them_and_narrow_with_more_deals():
    few = hand_measure([each_step(0.75)] * 2, [0.5, 0.5], deals=20).variants[0]
    many = hand_measure([each_step(0.75)] * 2, [0.5, 0.5], deals=200).variants[0]
    for figures in (few, many):
        for chain in figures.chain.values():
            assert chain.low <= chain.length <= chain.high
        trace = figures.skill_trace
        assert trace.low <= trace.trace <= trace.high
        assert figures.gain.low <= figures.gain.elo <= figures.gain.high
    # Every step scores 75% or more: the chain at 60% climbs all four, and at 75% it
    # breaks in a resample wherever a step dips below, more often with fewer deals.
    assert many.chain["60%"] == Chain(length=4, low=4, high=4)
    assert width(many.chain["75%"]) <= width(few.chain["75%"])
    assert width(many.skill_trace) < width(few.skill_trace)
    assert width(many.gain) < width(few.gain)


def test_the_deepest_is_named_only_when_its_lead_is_clear():
    clear = hand_measure([each_step(0.9), each_step(0.6)], [0.5, 0.5])
    assert clear.deepest.variant == "life=15" and clear.deepest.clear
    assert "**Deepest: `life=15`**" in report.summary(clear, "cardarena skill")
    close = hand_measure([each_step(0.75), each_step(0.7)], [0.5, 0.5], deals=20)
    assert close.deepest.variant == "life=15" and not close.deepest.clear
    text = report.summary(close, "cardarena skill")
    assert "**Deepest: not told apart**: `life=15` has the widest" in text
    assert "do not tell the two apart" in text
    assert "clearly deeper than" not in text
    far = hand_measure([each_step(0.75), each_step(0.7), each_step(0.5)], [0.5] * 3,
                       deals=20)
    assert "do not tell the two apart. It is clearly deeper than `life=30`." in \
        report.summary(far, "cardarena skill")


def test_the_fairest_is_named_only_when_its_seats_are_clearly_nearer_even():
    clear = hand_measure([each_step(0.8)] * 2, [0.5, 0.8])
    assert clear.fairest.variant == "life=15" and clear.fairest.clear
    assert clear.fairest.uneven == ["life=22"]
    assert "**Fairest: `life=15`**" in report.summary(clear, "cardarena skill")
    close = hand_measure([each_step(0.8)] * 2, [0.5, 0.55])
    assert close.fairest.variant == "life=15" and not close.fairest.clear
    assert "**Fairest: not told apart**" in report.summary(close, "cardarena skill")
    assert "it is clearly nearer 50% than" not in report.summary(close, "cardarena skill")
    far = hand_measure([each_step(0.8)] * 3, [0.5, 0.55, 0.85])
    assert "(the interval of the difference in distance from 50% holds zero); it is " \
        "clearly nearer 50% than `life=30`;" in report.summary(far, "cardarena skill")


def test_the_report_says_when_the_top_rung_does_not_clearly_beat_greedy():
    strong = hand_measure([each_step(0.8)] * 2, [0.5, 0.5])
    assert all(v.over_greedy.clear for v in strong.variants)
    assert "clearly beats greedy in every variant" in report.summary(strong, "c")
    # Greedy beats the lowest searcher 90% of the time; two doublings at 60% do not
    # bring the top searcher clear of it.
    weak = hand_measure([each_step(0.6, greedy=0.1)] * 2, [0.5, 0.5])
    assert not any(v.over_greedy.clear for v in weak.variants)
    text = report.summary(weak, "c")
    assert "**Searcher: weak yardstick**: ismcts-16 does not clearly beat greedy" in text
    assert "measure the searcher as much as the rules" in text


def test_the_report_says_where_the_cheater_clearly_gains_from_seeing_every_card():
    # Every step but the searcher's doublings and the first over greedy scores
    # ``others``: the cheater's over the top searcher among them.
    ahead = hand_measure([each_step(0.8, others=0.8)] * 2, [0.5, 0.5])
    assert "- **Hidden cards**: the cheater, seeing every card, against ismcts-16 " \
        "clearly wins in `life=15` (" in report.summary(ahead, "c")
    level = hand_measure([each_step(0.8, others=0.5)] * 2, [0.5, 0.5])
    assert "against ismcts-16, is not told from 50% in any variant (50.0%): at this " \
        "budget, seeing every card is worth nothing these games show." in \
        report.summary(level, "c")


def climb_to(budget, over_greedy, cheater, ended="ceiling"):
    """A climb that ended (``ceiling`` or ``cap``) at ``budget``, its ceiling
    ``over_greedy`` = (Elo, low, high) above greedy, the cheater at its top scoring
    ``cheater`` = (score, low, high)."""
    elo, low, high = over_greedy
    score, s_low, s_high = cheater
    top = ClimbStep(lower=f"ismcts-{budget}", upper=f"ismcts-{2 * budget}",
                    budget=2 * budget, doubling=True, games=80, score=0.5, low=0.4,
                    high=0.6, undecided=True)
    return Climb(player="ismcts", cap=4096, unguided="none shipped", steps=[top],
                 ended=ended, below=True,
                 ceiling=RatedRung(name=f"ismcts-{budget}", spec="", budget=budget,
                                   elo=300.0, low=250.0, high=350.0),
                 over_greedy=Clear(elo=elo, low=low, high=high, clear=low > 0),
                 cheater_edge=Edge(lower="", upper="", games=80, score=score, se=0.05, low=s_low,
                                   high=s_high, elo=0.0, elo_low=0.0, elo_high=0.0))


def test_a_climb_tells_a_weak_searcher_from_rules_with_little_above_greedy():
    weak = hand_measure([each_step(0.6, greedy=0.1)] * 3, [0.5] * 3)
    climbs = [climb_to(4096, (50, -40, 140), (0.49, 0.38, 0.60)),   # flat, the cheater too
              climb_to(2048, (160, 60, 260), (0.55, 0.45, 0.65)),   # clear once it climbs
              climb_to(8192, (20, -60, 100), (0.50, 0.40, 0.60), ended="cap")]
    variants = [dataclasses.replace(v, climb=c) for v, c in zip(weak.variants, climbs)]
    text = report.summary(dataclasses.replace(weak, variants=variants), "c")
    assert "**Searcher: weak yardstick**" in text
    assert "in `life=15` the ceiling, at 4096 iterations, is +50 [-40, +140] Elo above " \
        "greedy, and the cheater at the climb's top, seeing every card, scores 49.0 " \
        "[38.0, 60.0]% against the searcher. Neither more search nor seeing every card " \
        "beats greedy clearly" in text
    assert "but its climb does: `life=22` at 2048 iterations, +160 [+60, +260] Elo above " \
        "greedy" in text
    # A climb stopped by its cap has not shown a ceiling: the searcher stays suspect.
    assert "ismcts-16 does not clearly beat greedy in `life=30`" in text
    assert "measure the searcher as much as the rules" in text
    flat = dataclasses.replace(weak, variants=[
        dataclasses.replace(v, climb=climbs[0]) for v in weak.variants])
    assert "**Searcher: little skill above greedy**" in report.summary(flat, "c")
    # A cheater clearly ahead at the top says hidden cards still pay: not flat.
    ahead = dataclasses.replace(weak, variants=[
        dataclasses.replace(v, climb=climb_to(4096, (50, -40, 140), (0.7, 0.6, 0.8)))
        for v in weak.variants])
    assert "**Searcher: weak yardstick**" in report.summary(ahead, "c")


def test_x_percent_is_100_for_the_same_game_and_falls_as_a_coin_decides_more_of_it():
    # A fair coin deciding a share q of games that the upper rung wins 90% of the time
    # makes it win q / 2 + 0.9 (1 - q): 80% at q = 1/4, 70% at q = 1/2.
    same = hand_measure([each_step(0.9)] * 2, [0.5, 0.5]).chess
    assert same.readings[0] == Reading(variant="life=22", x=100, low=100, high=100,
                                       wider=True)
    quarter = hand_measure([each_step(0.9), each_step(0.8)], [0.5, 0.5]).chess
    half = hand_measure([each_step(0.9), each_step(0.7)], [0.5, 0.5]).chess
    assert quarter.reference == half.reference == "life=15"
    assert quarter.readings[0].x == pytest.approx(75)
    assert half.readings[0].x == pytest.approx(50)
    for reading in quarter.readings + half.readings:
        assert reading.low <= reading.x <= reading.high < 100
    assert analysis.chess_share([0.9, 0.9], [0.5, 0.5]) == 0


def test_x_percent_is_withheld_when_the_reference_shows_no_clear_gain():
    flat = hand_measure([each_step(0.5)] * 2, [0.5, 0.5])
    assert flat.chess.readings is None
    assert "there is no skill for a coin to dilute" in report.summary(flat, "c")


def test_one_variant_is_measured_but_never_named_deepest_or_fairest():
    root = pathlib.Path(__file__).resolve().parents[2]
    results = Results.from_dict(json.loads(
        (root / "docs/results/validation/tic_tac_toe/skill.json").read_text()))
    text = report.summary(results, results.command)
    assert "- **Depth**: the Elo span from ismcts-8 to ismcts-1024 is" in text
    assert "- **Seats**: in self-play of ismcts-1024 the first seat scores" in text
    assert "Deepest" not in text and "Fairest" not in text
