"""Ratings from game rows: Elo and its intervals, the crosstable, duplicate deals, seats,
the dominance graph, failures, games of more than two seats, and the printed forms."""
import csv
import io
import itertools
import json
import math
import random

import pytest

import tournament.stats.ratings
from tournament.harness.row import GameRow
from tournament.stats.ratings import (NoGamesError, RowError, Tally, deal_weights,
                                      likelihood_of_superiority, match_scores, rate)

SPECS = {"a": "greedy", "b": "random", "c": "ismcts(iterations=50)"}


def game(deal, seating, returns, status="ok", failed=None):
    return GameRow(id=0, deal=deal, seating=list(seating), returns=list(returns),
                   status=status, failed=failed, length=1, seconds=[0.0] * len(seating))


def by_bot(report):
    return {r.bot: r for r in report.ratings}


def pair(report, bot, opponent):
    """(won, split, lost) of ``bot`` against ``opponent``, whichever the report names
    first."""
    for p in report.pairs:
        if (p.bot, p.opponent) == (bot, opponent):
            return p.won, p.split, p.lost
        if (p.bot, p.opponent) == (opponent, bot):
            return p.lost, p.split, p.won
    raise AssertionError(f"no pair {bot} {opponent}")


def two_bot_rows(deals, p_strong, seed):
    """Both seatings of every deal between "strong" and "weak"; strong wins each game
    with probability ``p_strong`` and loses otherwise."""
    rng = random.Random(seed)
    rows = []
    for deal in range(deals):
        for seating in (["strong", "weak"], ["weak", "strong"]):
            strong_wins = rng.random() < p_strong
            seat = seating.index("strong") if strong_wins else seating.index("weak")
            rows.append(game(deal, seating, [1 if s == seat else -1 for s in range(2)]))
    return rows


# Three bots, two deals, every seating: the tallies and deals below are counted by hand.
HAND = [
    game(0, "ab", [1, -1]), game(0, "ba", [1, -1]),   # a-b: a win, a loss
    game(0, "ac", [1, -1]), game(0, "ca", [0, 0]),    # a-c: a win, a draw
    game(0, "bc", [1, -1]), game(0, "cb", [1, -1]),   # b-c: a win, a loss
    game(1, "ab", [1, -1]), game(1, "ba", [-1, 1]),   # a-b: two a wins
    game(1, "ac", [-1, 1]), game(1, "ca", [1, -1]),   # a-c: two c wins
    game(1, "bc", [0, 0]), game(1, "cb", [0, 0]),     # b-c: two draws
]


def test_crosstable_by_hand():
    report = rate(HAND, SPECS, bootstrap=0)
    table = report.crosstable
    assert table["a"]["b"] == Tally(3, 0, 1) and table["b"]["a"] == Tally(1, 0, 3)
    assert table["a"]["c"] == Tally(1, 1, 2) and table["c"]["a"] == Tally(2, 1, 1)
    assert table["b"]["c"] == Tally(1, 2, 1) and table["c"]["b"] == Tally(1, 2, 1)
    assert table["a"]["b"].score == 0.75 and table["a"]["c"].score == 0.375
    bots = by_bot(report)
    assert (bots["a"].wins, bots["a"].draws, bots["a"].losses) == (4, 1, 3)
    assert (bots["b"].wins, bots["b"].draws, bots["b"].losses) == (2, 2, 4)
    assert (bots["c"].wins, bots["c"].draws, bots["c"].losses) == (3, 3, 2)
    assert bots["a"].score == 4.5 / 8 and bots["b"].score == 3 / 8
    assert all(r.games == 8 for r in report.ratings)
    assert report.deals == 2 and report.games == 12


def test_duplicate_deals_by_hand():
    report = rate(HAND, SPECS, bootstrap=0)
    # a-b: deal 0 split 1-1, deal 1 won 2-0.  a-c: deal 0 won 1.5-0.5, deal 1 lost.
    # b-c: deal 0 split 1-1, deal 1 split on two draws.
    assert pair(report, "a", "b") == (1, 1, 0)
    assert pair(report, "a", "c") == (1, 0, 1)
    assert pair(report, "b", "c") == (0, 2, 0)
    assert len(report.pairs) == 3
    ranks = {r.bot: r.rank for r in report.ratings}
    assert all(ranks[p.bot] < ranks[p.opponent] for p in report.pairs)


def test_dominance_by_hand():
    report = rate(HAND, SPECS, bootstrap=0)
    assert sorted(report.edges) == [("a", "b"), ("c", "a")]
    assert report.cycles == []
    assert "No intransitive cycle." in report.to_text()


def test_many_even_bots_list_only_the_shortest_cycles():
    # Fourteen bots, a coin naming the winner of each pair's two games: their dominance
    # graph has some 65,000 cycles, and with a few more bots, millions.
    rng = random.Random(1)
    bots = {f"bot{k}": "random" for k in range(14)}
    rows = []
    for a, b in itertools.combinations(bots, 2):
        winner = rng.choice([0, 1])
        rows += [game(0, [a, b], [1, -1] if winner == 0 else [-1, 1]),
                 game(0, [b, a], [1, -1] if winner == 1 else [-1, 1])]
    report = rate(rows, bots, bootstrap=0)
    assert len(report.cycles) == tournament.stats.ratings.MOST_CYCLES and report.more_cycles
    assert all(len(cycle) == 3 for cycle in report.cycles)
    edges = set(report.edges)
    for cycle in report.cycles:
        assert all((a, b) in edges for a, b in zip(cycle, cycle[1:] + cycle[:1]))
    assert report.to_dict()["dominance"]["more_cycles"] is True
    notes = report.to_text().splitlines()[-1]
    assert notes.startswith(f"The {tournament.stats.ratings.MOST_CYCLES} shortest intransitive "
                            "cycles of more: ")
    assert len(notes) < 2000


def test_stronger_bot_rates_higher_with_an_interval_above_the_mean():
    report = rate(two_bot_rows(40, 0.75, seed=1), {}, bootstrap=200, seed=3)
    strong, weak = report.ratings
    assert (strong.bot, weak.bot) == ("strong", "weak")
    assert strong.elo == pytest.approx(-weak.elo)   # relative to the mean of the two
    assert 0 < strong.low < strong.elo < strong.high
    assert weak.low < weak.elo < weak.high < 0
    assert strong.los == pytest.approx(likelihood_of_superiority(strong.wins, strong.losses))
    assert strong.los > 0.99 and weak.los is None
    assert report.edges == [("strong", "weak")]


def test_bootstrap_repeats_itself_for_a_seed():
    rows = two_bot_rows(30, 0.6, seed=2)
    first = rate(rows, {}, seed=5, bootstrap=50).to_dict()
    assert rate(rows, {}, seed=5, bootstrap=50).to_dict() == first
    other = rate(rows, {}, seed=6, bootstrap=50).to_dict()
    assert [r["low"] for r in other["ratings"]] != [r["low"] for r in first["ratings"]]
    assert [r["elo"] for r in other["ratings"]] == [r["elo"] for r in first["ratings"]]


def test_no_bootstrap_no_interval():
    report = rate(HAND, SPECS, bootstrap=0)
    assert all(r.low is None and r.high is None for r in report.ratings)
    assert "no interval" in report.to_text()
    with pytest.raises(ValueError):
        rate(HAND, SPECS, bootstrap=-1)


def test_rock_paper_scissors_names_the_cycle():
    rows = []
    for deal, (x, y) in itertools.product(range(2), ["ab", "bc", "ca"]):
        rows += [game(deal, [x, y], [1, -1]), game(deal, [y, x], [-1, 1])]
    report = rate(rows, SPECS, bootstrap=20)
    assert sorted(report.edges) == [("a", "b"), ("b", "c"), ("c", "a")]
    assert len(report.cycles) == 1
    cycle = report.cycles[0]
    assert cycle in (["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"])
    assert cycle[0] == report.ratings[0].bot
    assert " > ".join(cycle + cycle[:1]) in report.to_text()
    assert all(r.elo == pytest.approx(0, abs=1e-6) for r in report.ratings)


def test_failures_by_bot_and_kind():
    rows = [
        game(0, "ab", [0, 0], "timeout", "b"),   # b loses though the returns are equal
        game(0, "ba", [-1, 1], "error", "b"),
        game(0, "ac", [1, -1], "illegal", "a"),  # a loses though its return is higher
        game(0, "ca", [1, -1]),
        game(1, "ab", [0, 0], "length"),         # stopped at the length cap: a draw
    ]
    report = rate(rows, SPECS, bootstrap=0)
    bots = by_bot(report)
    assert bots["a"].failures == {"error": 0, "timeout": 0, "illegal": 1}
    assert bots["b"].failures == {"error": 1, "timeout": 1, "illegal": 0}
    assert bots["c"].failures == {"error": 0, "timeout": 0, "illegal": 0}
    assert report.crosstable["a"]["b"] == Tally(2, 1, 0)
    assert report.crosstable["a"]["c"] == Tally(0, 0, 2)
    # A failed game says nothing of the seats.
    assert [s.games for s in report.seats] == [2, 2]
    rows_csv = {r["bot"]: r for r in csv.DictReader(io.StringIO(report.to_csv()))}
    assert rows_csv["b"]["failures"] == "2" and rows_csv["b"]["failures_timeout"] == "1"
    assert rows_csv["a"]["failures_illegal"] == "1"


def test_three_and_four_seat_games_score_every_two_seats_of_different_bots():
    four = game(0, "abaa", [1, 0, -1, 1])
    # Seats 0, 2 and 3 are all a: no match among them.  b (seat 1, return 0) loses to
    # seat 0 (1) and seat 3 (1) and beats seat 2 (-1).
    assert sorted(match_scores(four)) == [("a", "b", 1.0), ("b", "a", 0.0), ("b", "a", 1.0)]
    three = game(0, "abc", [2, 2, -1])
    assert list(match_scores(three)) == [("a", "b", 0.5), ("a", "c", 1.0), ("b", "c", 1.0)]
    failed = game(0, "abb", [0, -5, 3], "error", "b")
    assert list(match_scores(failed)) == [("a", "b", 1.0), ("a", "b", 1.0)]

    report = rate([four, three, failed], SPECS, bootstrap=0)
    assert report.crosstable["a"]["b"] == Tally(4, 1, 1)
    assert report.crosstable["a"]["c"] == Tally(1, 0, 0)
    assert report.crosstable["b"]["c"] == Tally(1, 0, 0)
    assert by_bot(report)["a"].games == 3 and by_bot(report)["c"].games == 1
    assert by_bot(report)["b"].failures["error"] == 1


def test_seats_by_hand():
    rows = [game(d, "ab", [1, -1]) for d in range(3)] + [game(3, "ab", [0, 0])]
    seat0, seat1 = rate(rows, SPECS, bootstrap=0).seats
    assert (seat0.games, seat0.mean_return, seat0.wins, seat0.draws) == (4, 0.75, 0.75, 0.25)
    assert (seat1.mean_return, seat1.wins, seat1.draws) == (-0.75, 0.0, 0.25)
    assert seat0.score == 0.875 and seat1.score == 0.125
    assert seat0.low < 0.875 < seat0.high

    three = [game(0, "abc", [2, 2, -1]), game(1, "abc", [0, 1, 1]), game(2, "abc", [3, 0, 0])]
    seats = rate(three, SPECS, bootstrap=0).seats
    assert (seats[0].wins, seats[0].draws) == (1 / 3, 1 / 3)
    assert (seats[1].wins, seats[1].draws) == (0, 2 / 3)
    assert seats[2].mean_return == 0 and seats[0].score is None and seats[0].low is None


def test_seat_interval_is_wilson():
    # 50 wins of seat 0 in 100 games: the Wilson interval is 0.5 -+ 0.0962.
    rows = [game(d, "ab", [1, -1] if d % 2 else [-1, 1]) for d in range(100)]
    seat0 = rate(rows, SPECS, bootstrap=0).seats[0]
    assert (seat0.low, seat0.high) == (pytest.approx(0.40383, abs=1e-5),
                                       pytest.approx(0.59617, abs=1e-5))


def test_all_draws():
    rows = [game(d, s, [0, 0]) for d in range(4) for s in ("ab", "ba")]
    report = rate(rows, SPECS, bootstrap=20)
    assert all(r.elo == pytest.approx(0, abs=1e-6) for r in by_bot(report).values()
               if r.bot in "ab")
    assert all(r.los is None for r in report.ratings)
    assert report.edges == [] and report.cycles == []
    assert pair(report, "a", "b") == (0, 4, 0)
    assert by_bot(report)["a"].score == 0.5


def test_bots_without_a_match_are_listed_unrated():
    rows = [game(0, "ab", [1, -1]), game(0, "ba", [1, -1]), game(0, ["d", "d"], [1, -1])]
    report = rate(rows, {**SPECS, "e": {"python": "pkg.bots:make", "args": {"depth": 2}}},
                  bootstrap=10)
    assert [r.bot for r in report.ratings[:2]] == ["a", "b"]
    unrated = report.ratings[2:]
    assert {r.bot for r in unrated} == {"c", "d", "e"}
    assert all(r.elo is None and r.low is None and r.score is None for r in unrated)
    assert by_bot(report)["d"].games == 1 and by_bot(report)["c"].games == 0
    assert by_bot(report)["d"].spec == ""
    assert json.loads(by_bot(report)["e"].spec) == {"python": "pkg.bots:make",
                                                    "args": {"depth": 2}}
    assert report.ratings[1].los is None   # the next bot down has no rating
    assert "d" not in report.crosstable
    json.loads(report.to_json())
    report.to_text()


def test_self_play_alone_rates_nobody_but_measures_the_seats():
    report = rate([game(0, "aa", [1, -1]), game(1, "aa", [1, -1])], SPECS, bootstrap=10)
    assert all(r.elo is None for r in report.ratings)
    assert report.crosstable == {} and report.pairs == []
    assert report.seats[0].wins == 1.0
    report.to_text()


def test_no_games_is_a_clear_error():
    with pytest.raises(NoGamesError, match="no finished games"):
        rate([], SPECS)
    assert issubclass(NoGamesError, ValueError)


def test_rows_that_are_no_game_are_refused():
    with pytest.raises(RowError):
        rate([game(0, "ab", [1, -1, 0])], SPECS)
    with pytest.raises(RowError):
        rate([game(0, "ab", [1, -1], "error", "c")], SPECS)


def test_likelihood_of_superiority():
    assert likelihood_of_superiority(0, 0) is None
    assert likelihood_of_superiority(10, 10) == 0.5
    assert likelihood_of_superiority(5, 0) == pytest.approx(0.5 * (1 + math.erf(5 / 10 ** 0.5)))
    assert likelihood_of_superiority(0, 5) == pytest.approx(1 - likelihood_of_superiority(5, 0))


def test_a_bot_that_lost_every_game_is_reported_swept_and_the_others_rated_without_it():
    rows = two_bot_rows(30, 0.7, seed=4)
    alone = rate(rows, {"strong": "greedy", "weak": "random"}, bootstrap=20)
    rows += [game(d, s, [1, -1] if s[0] != "loser" else [-1, 1]) for d in range(30)
             for opponent in ("strong", "weak")
             for s in (["loser", opponent], [opponent, "loser"])]
    report = rate(rows, {"strong": "greedy", "weak": "random", "loser": "random"},
                  bootstrap=20)
    loser = by_bot(report)["loser"]
    assert loser.swept == "lost" and loser.elo is None and loser.low is None
    assert loser.score == 0 and report.ratings[-1] is loser
    for bot in ("strong", "weak"):
        assert by_bot(report)[bot].elo == pytest.approx(by_bot(alone)[bot].elo)
        assert by_bot(report)[bot].swept is None
    assert by_bot(report)["weak"].los is not None   # over the swept bot below it
    text = report.to_text()
    line = next(x for x in text.splitlines() if x.split()[1:2] == ["loser"])
    assert line.split()[3:6] == ["swept", "-", "-"]
    assert ("Swept: loser lost every game against the bots rated, so no Elo is measured "
            "for it; the others are rated without it.") in text
    assert "loser" in report.crosstable and "loser" in text.split("Crosstable")[1]
    assert report.to_csv().splitlines()[-1].endswith(",lost")
    assert json.loads(report.to_json())["ratings"][-1]["swept"] == "lost"


def test_sweeps_are_set_aside_until_the_rest_play_each_other_both_ways():
    # A ladder: each bot beats every bot below it in every game.
    ladder = ["top", "mid", "low", "bottom"]
    rows = [game(d, s, [1, -1] if ladder.index(s[0]) < ladder.index(s[1]) else [-1, 1])
            for d in range(25) for a, b in itertools.combinations(ladder, 2)
            for s in ([a, b], [b, a])]
    report = rate(rows, dict.fromkeys(ladder, "random"), bootstrap=0)
    assert [(r.bot, r.swept) for r in report.ratings] == [
        ("top", "won"), ("mid", "won"), ("low", "lost"), ("bottom", "lost")]
    assert all(r.elo is None for r in report.ratings)
    assert "Swept: low and bottom lost every game" in report.to_text()
    assert "Swept: top and mid won every game" in report.to_text()


def test_a_bot_left_alone_between_sweeps_gets_no_elo():
    order = ["top", "mid", "bottom"]
    rows = [game(0, s, [1, -1] if order.index(s[0]) < order.index(s[1]) else [-1, 1])
            for a, b in itertools.combinations(order, 2) for s in ([a, b], [b, a])]
    report = rate(rows, dict.fromkeys(order, "random"), bootstrap=10)
    assert [(r.bot, r.swept, r.elo) for r in report.ratings] == [
        ("top", "won", None), ("mid", None, None), ("bottom", "lost", None)]
    assert by_bot(report)["mid"].score == 0.5


def test_few_deals_warn_that_the_intervals_are_too_narrow():
    one = rate(two_bot_rows(1, 0.5, seed=1), {"strong": "a", "weak": "b"}, bootstrap=20)
    note = "Only 1 deal: with fewer than 20 the bootstrap intervals are too narrow to trust."
    assert note in one.to_text() and note in one.to_markdown()
    assert json.loads(one.to_json())["notes"] == [note]
    enough = rate(two_bot_rows(20, 0.5, seed=1), {"strong": "a", "weak": "b"}, bootstrap=20)
    assert "too narrow" not in enough.to_text()
    assert "too narrow" not in rate(two_bot_rows(1, 0.5, seed=1), {}, bootstrap=0).to_text()


def outputs_report():
    rows = two_bot_rows(10, 0.7, seed=4) + [
        game(d, s, [1, -1]) for d in range(10) for s in (["c", "weak"], ["weak", "c"])]
    return rate(rows, {"strong": "ismcts(iterations=50)", "weak": "random", "c": "greedy"},
                bootstrap=30)


def test_text_lists_the_bots_in_elo_order():
    report = outputs_report()
    order = [r.bot for r in report.ratings]
    assert [r.elo for r in report.ratings] == sorted((r.elo for r in report.ratings),
                                                     reverse=True)
    ratings = report.to_text().split("\n\n")[0].splitlines()
    assert ratings[0].startswith("Ratings")
    assert [line.split()[1] for line in ratings[3:3 + len(order)]] == order
    assert ratings[1].split()[:3] == ["rank", "bot", "spec"]
    widths = {len(line) for line in ratings[1:3]}
    assert len(widths) == 1   # the header and its rule line up


def test_markdown_tables():
    text = outputs_report().to_markdown()
    blocks = text.split("\n\n")
    assert blocks[0].startswith("### Ratings")
    table = blocks[1].splitlines()
    assert table[0].startswith("| rank | bot | spec |")
    assert table[1].startswith("|:---|:---|:---|---:|")
    assert all(line.startswith("| ") and line.endswith(" |") for line in table[2:])
    assert {line.count("|") for line in table} == {11}
    assert "### Crosstable" in text and "### Dominance" in text


def test_csv_parses():
    report = outputs_report()
    rows = list(csv.DictReader(io.StringIO(report.to_csv())))
    assert [r["bot"] for r in rows] == [r.bot for r in report.ratings]
    assert [float(r["elo"]) for r in rows] == [round(r.elo, 1) for r in report.ratings]
    assert rows[0]["rank"] == "1" and rows[-1]["los"] == ""
    assert set(rows[0]) >= {"spec", "low", "high", "score", "games", "failures"}
    # The CSV names the interval as the JSON does.
    rated = json.loads(report.to_json())["ratings"][0]
    assert {k: rows[0][k] for k in ("low", "high")} == {
        k: str(round(rated[k], 1)) for k in ("low", "high")}


def test_json_round_trips():
    report = outputs_report()
    data = json.loads(report.to_json())
    assert data == report.to_dict()
    assert data["anchor"] == "mean" and data["bootstrap"] == 30
    assert [r["bot"] for r in data["ratings"]] == [r.bot for r in report.ratings]
    assert data["crosstable"]["strong"]["weak"]["score"] == report.crosstable["strong"][
        "weak"].score
    assert {(e["winner"], e["loser"]) for e in data["dominance"]["edges"]} == set(
        report.edges)
    assert data["dominance"]["cycles"] == []
    assert data["seats"][0]["seat"] == 0 and "won" in data["pairs"][0]


def test_deal_weights_drawn_in_runs_keep_each_runs_deals():
    weights = deal_weights(25, seed=3, resamples=200, block=10)
    # Runs 0-9, 10-19 and 20-24: each resample draws each run's own number of deals.
    assert (weights[:, :10].sum(1) == 10).all()
    assert (weights[:, 10:20].sum(1) == 10).all()
    assert (weights[:, 20:].sum(1) == 5).all()
    # Within a run, every deal is drawn in some resample.
    assert (weights.sum(0) > 0).all()
    # A run as long as the deals draws as no run does.
    assert (deal_weights(25, 3, 200, block=25) == deal_weights(25, 3, 200)).all()
    assert (deal_weights(25, 3, 200, block=40) == deal_weights(25, 3, 200)).all()
