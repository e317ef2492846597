"""The skill analysis's seat figures over deals played with their cards in every seat
(docs/skill.md, "Seat advantage"): where a game can rotate its deal, the self-play
matches play each deal in every rotation, the figure takes a deal's luck out of the
seats, and its interval resamples whole deals."""
import collections

import pytest

from tournament.harness import config as configs
from tournament.harness import runner
from tournament.harness.row import GameRow
from tournament.harness.store import Store
from tournament.skill import analysis, plans, report, run, sections

LADDER = plans.ladder("ismcts(rollout_depth=8)", 1, 4)


def self_play(game, deals=3):
    plan = plans.Plan(plans.variants(game), LADDER, deals=deals)
    configs_ = plan.configs(plan.variants[0])
    return [c for c in configs_ if len(c.bots) == 1], [c for c in configs_ if len(c.bots) > 1]


@pytest.mark.parametrize("game, rotated", [("card_duel", True), ("relinquish(players=3)", True),
                                           ("creature_shrines(deck0=red,deck1=red)", True),
                                           ("creature_shrines", False), ("kuhn_poker", False)])
def test_self_play_rotates_each_deal_where_the_game_can_and_pairs_never(game, rotated):
    alone, pairs = self_play(game)
    seats = configs.rules(game).num_players
    assert [c.bots.keys() for c in alone] == [{"random"}, {LADDER.top.name}]
    for config in alone:
        assert config.rotations == rotated
        # As many games as a pair plays, in two seats: each deal in both rotations, or
        # twice the deals as dealt.
        assert config.deals == (3 if rotated else 6)
        assert config.deals * config.games_per_deal == (3 * seats if rotated else 6)
    assert not any(c.rotations for c in pairs)


def rotated_rows(results):
    """Self-play rows of ``results`` by deal: ``[(rotation, returns), ...]``."""
    return [GameRow(deal=d, seating=["s", "s"], returns=r, rotation=k)
            for d, games in enumerate(results) for k, r in enumerate(games)]


def test_a_deal_its_cards_decide_is_no_seat_edge_and_a_seat_that_wins_is_one():
    # Ten deals whose cards decide them: the seat dealt the better cards wins, seat 0
    # as dealt and seat 1 once the cards are rotated.
    decided = rotated_rows([[[1, -1], [-1, 1]]] * 10)
    dealt = analysis.seat_advantage([r for r in decided if r.rotation == 0])
    assert (dealt.score, dealt.rotated) == (1.0, False)
    seat = analysis.seat_advantage(decided, seed=0, bootstrap=200)
    assert (seat.score, seat.rotated, seat.games) == (0.5, True, 20)
    # A resample draws whole deals, each half won by each seat: always 50%.
    assert (seat.low, seat.high) == (0.5, 0.5)
    assert set(analysis._resampled_seat(decided, None, 0, 200)) == {0.5}
    # A seat that wins whatever it is dealt is an edge, rotated or not.
    first = analysis.seat_advantage(rotated_rows([[[1, -1], [1, -1]]] * 10), bootstrap=200)
    assert (first.score, first.low, first.high) == (1.0, 1.0, 1.0)


def test_on_forced_play_the_deals_their_cards_decide_are_half_the_first_seats():
    # Card Duel with no hand to build: every move is forced, so the pools and the order
    # of each seat's deck decide a game, and a rotated deal keeps both (each deck drawn
    # from its own stream).  40 deals from seed 0, chosen before the first run.
    config = configs.Config(game="card_duel(hand_points=0)", bots={"r": "random"},
                            deals=40, seed=0, rotations=True)
    rows = [runner.play(runner.job(config, *game)) for game in config.games()]
    by_deal = collections.defaultdict(dict)
    for row in rows:
        by_deal[row.deal][row.rotation] = row.returns
    decided = [d for d, games in by_deal.items() if games[1] == games[0][::-1]]
    assert len(decided) > len(by_deal) / 2
    on_decided = analysis.seat_advantage([r for r in rows if r.deal in decided],
                                         bootstrap=200)
    assert (on_decided.score, on_decided.low, on_decided.high) == (0.5, 0.5, 0.5)
    dealt = analysis.seat_advantage([r for r in rows if r.rotation == 0])
    seat = analysis.seat_advantage(rows, bootstrap=1000)
    assert seat.high - seat.low < (dealt.high - dealt.low) / 2


def test_a_tiny_analysis_measures_the_seats_over_rotated_deals(tmp_path):
    db = str(tmp_path / "games.db")
    results = run.analyse("card_duel", deals=3, player="ismcts(rollout_depth=8)",
                          min_budget=1, max_budget=4, bootstrap=200, db=db, workers=1)
    (variant,) = results.variants
    assert variant.seat.rotated and variant.seat_random.rotated
    plan = plans.Plan(plans.variants("card_duel"), LADDER, deals=3)
    strong = next(c for c in plan.configs(plan.variants[0])
                  if list(c.bots) == [LADDER.top.name])
    with Store(db, readonly=True) as store:
        rows = store.games(strong.key)
    assert sorted((r.deal, r.rotation) for r in rows) == [(d, k) for d in range(3)
                                                          for k in (0, 1)]
    ended = [r for r in rows if r.status == "ok"]
    assert variant.seat.games == len(ended)
    assert variant.seat.score == analysis.seat_advantage(rows).score
    assert variant.seat.low <= variant.seat.score <= variant.seat.high
    text = report.report(results, "cardarena skill card_duel")
    assert "Each deal was played with its cards in every seat" in text
    assert "each self-play 3 deals, each played with its cards in every seat" in \
        report.summary(results, "cardarena skill card_duel")


def test_a_game_that_cannot_rotate_keeps_its_figure_as_dealt_and_says_so():
    rows = [GameRow(deal=d, seating=["s", "s"], returns=[1, -1] if d % 2 else [-1, 1])
            for d in range(6)]
    seat = analysis.seat_advantage(rows)
    assert (seat.score, seat.rotated) == (0.5, False)
    assert sections.DEALT[False].strip().startswith("The game cannot rotate its deal")
