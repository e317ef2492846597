"""The climb above the skill ladder with the game's network, to the searcher's
ceiling."""
import dataclasses
import json
import pathlib

import pytest

from tournament.harness import runner
from tournament.harness.store import Store
from tournament.skill import climbs, plans, plots, report, run, sections, verdicts
from tournament.skill.figures import ClimbStep, Results
from tournament_helpers import cli

PLAYER = "ismcts(rollout_depth=4)"


def _plan(game="card_duel"):
    return plans.Plan(plans.variants(game), plans.ladder(PLAYER, 2, 8), deals=2)


def _player(store, played):
    """A ``play`` that runs each schedule into ``store`` and records its matches."""
    def play(schedule, what):
        played.extend(tuple(c.bots) for c in schedule)
        runner.run(schedule, store, workers=1, progress=False)
    return play


@pytest.fixture(scope="module")
def climbed(tmp_path_factory):
    """A card duel ladder at 2 to 8 iterations and its climb capped at 16."""
    plan = _plan()
    store = Store(str(tmp_path_factory.mktemp("climb") / "games.db"))
    runner.run(plan.schedule(), store, workers=1, progress=False)
    played = []
    found = climbs.climb(store, plan, plan.variants[0], 16, _player(store, played),
                         bootstrap=50)
    yield plan, store, found, played
    store.close()


def test_the_climb_adds_the_network_at_the_top_budget_then_doubles_it(climbed):
    _, _, found, played = climbed
    assert played == [("ismcts-8", "ismcts-8-model"), ("ismcts-8-model", "ismcts-16-model"),
                      ("ismcts-16-model", "cheater-16")]
    assert [(s.budget, s.doubling) for s in found.steps] == [(8, False), (16, True)]
    assert found.player == "ismcts(rollout_depth=4,model=default)"
    # On two deals the doubling shows no gain: the ceiling so far is the rung below it.
    assert not found.steps[-1].gains
    assert found.ceiling.spec == "ismcts(iterations=8,rollout_depth=4,model=default)"
    assert all(s.games == 4 for s in found.steps)


def test_the_climb_stops_at_the_cap_and_the_report_says_so(climbed):
    _, _, found, _ = climbed
    assert found.ended == "cap"
    assert found.over_greedy.low <= found.over_greedy.elo <= found.over_greedy.high
    assert found.ceiling.low <= found.ceiling.elo <= found.ceiling.high
    said = sections.ended(found)
    assert said.startswith("The cap is hit at budget 16: the next doubling would pass "
                           "16; the last doubling gains nothing these games show, so the "
                           "ceiling so far is 8. The ceiling, ismcts-8-model: ")
    assert "Elo above random play" in said and "above greedy" in said


def test_a_second_climb_on_the_store_plays_nothing_and_stops_the_same(climbed):
    plan, store, found, _ = climbed
    stored = {key: len(store.games(key)) for key in _keys(plan, found)}
    again = climbs.climb(store, plan, plan.variants[0], 16, _player(store, []),
                         bootstrap=50)
    assert again == found
    assert {key: len(store.games(key)) for key in _keys(plan, found)} == stored


def _keys(plan, found):
    variant = plan.variants[0]
    named = {plan.ladder.top.name: plan.ladder.top}
    named.update({r.name: r for r in (climbs.rung(PLAYER, s.budget) for s in found.steps)})
    cheater = plans.cheater(PLAYER, found.steps[-1].budget)
    return [climbs.match(plan, variant, named[s.lower], named[s.upper]).key
            for s in found.steps] \
        + [climbs.match(plan, variant, named[found.steps[-1].upper], cheater).key]


def test_the_cheater_meets_the_top_of_the_climb_at_its_budget(climbed):
    plan, store, found, _ = climbed
    edge = found.cheater_edge
    assert (edge.lower, edge.upper) == ("ismcts-16-model", "cheater-16")
    assert edge.games == 4 and edge.low <= edge.score <= edge.high
    config = climbs.match(plan, plan.variants[0], climbs.rung(PLAYER, 16),
                          plans.cheater(PLAYER, 16))
    assert config.bots["cheater-16"] == "cheater(iterations=16,rollout_depth=4)"
    wins = sum(1 for row in store.games(config.key)
               if row.returns[row.seating.index("cheater-16")] > 0)
    draws = sum(1 for row in store.games(config.key)
                if row.returns[row.seating.index("cheater-16")] == 0)
    assert edge.score == pytest.approx((wins + draws / 2) / 4)
    assert sections.ended(found).endswith(
        f" The cheater at the climb's top budget, 16, seeing every card, scores "
        f"{100 * edge.score:.1f} [{100 * edge.low:.1f}, {100 * edge.high:.1f}]% against "
        "the searcher there.")


def _step(budget, undecided):
    return ClimbStep(lower="", upper=f"ismcts-{budget}-model", budget=budget,
                     doubling=budget > 8, games=4, score=0.5 if undecided else 0.9,
                     low=0.3 if undecided else 0.7, high=0.7 if undecided else 1.0,
                     undecided=undecided)


@pytest.mark.parametrize("undecided, budgets", [
    # The network's own step does not count: only doublings can end the climb.
    ({8, 16, 32}, [8, 16, 32]),
    # One undecided doubling between decided ones does not.
    ({16, 64, 128}, [8, 16, 32, 64, 128]),
])
def test_two_undecided_doublings_in_a_row_reach_the_ceiling(monkeypatch, undecided, budgets):
    plan = _plan()
    monkeypatch.setattr(climbs, "judge", lambda store, config, lower, upper, seed, n:
                        _step(upper.budget, upper.budget in undecided))
    monkeypatch.setattr(climbs, "rate", lambda *args: (None, None))
    monkeypatch.setattr(climbs, "cheat", lambda *args: None)
    played = []
    found = climbs.climb(None, plan, plan.variants[0], 1 << 20,
                         lambda schedule, what: played.extend(schedule))
    assert [s.budget for s in found.steps] == budgets
    assert [tuple(c.bots)[1] for c in played] == [f"ismcts-{b}-model" for b in budgets]
    assert found.ended == "ceiling"


@pytest.mark.parametrize("scores, budgets, ended, ceiling", [
    # A doubling that plays clearly worse gains nothing, as an undecided one does: with
    # the undecided doubling after it, the climb ends at the rung below the two.
    ({8: 0.9, 16: 0.8, 32: 0.3, 64: 0.5}, [8, 16, 32, 64], "ceiling", "ismcts-16-model"),
    # Where no doubling gains, the ceiling is the network's rung.
    ({8: 0.9, 16: 0.5, 32: 0.3}, [8, 16, 32], "ceiling", "ismcts-8-model"),
    # At the cap, below a last doubling that gains nothing; the top, after one that gains.
    ({8: 0.9, 16: 0.8, 32: 0.9, 64: 0.5}, [8, 16, 32, 64], "cap", "ismcts-32-model"),
    ({8: 0.9, 16: 0.5, 32: 0.9, 64: 0.8}, [8, 16, 32, 64], "cap", "ismcts-64-model"),
])
def test_the_ceiling_is_the_rung_below_the_doublings_that_gain_nothing(
        monkeypatch, scores, budgets, ended, ceiling):
    plan = _plan()
    # Intervals 0.2 wide about each score: 0.8 and 0.9 lie above 50%, 0.3 below it.
    monkeypatch.setattr(climbs, "judge", lambda store, config, lower, upper, seed, n:
                        ClimbStep(lower=lower.name, upper=upper.name, budget=upper.budget,
                                  doubling=upper.budget > 8, games=4,
                                  score=scores[upper.budget],
                                  low=scores[upper.budget] - 0.2,
                                  high=scores[upper.budget] + 0.2,
                                  undecided=abs(scores[upper.budget] - 0.5) < 0.2))
    monkeypatch.setattr(climbs, "rate", lambda store, plan, variant, played, rungs, top,
                        bootstrap: (top, None))
    monkeypatch.setattr(climbs, "cheat", lambda store, plan, variant, top, play, n: top.name)
    found = climbs.climb(None, plan, plan.variants[0], 64, lambda schedule, what: None)
    assert [s.budget for s in found.steps] == budgets
    assert (found.ended, found.ceiling.name) == (ended, ceiling)
    # The cheater meets the top of the climb, whatever the ceiling.
    assert found.cheater_edge == f"ismcts-{budgets[-1]}-model"


def test_without_a_network_the_top_rung_climbs_on_by_doubling_and_says_why(tmp_path):
    plan = _plan("tic_tac_toe")
    played = []
    with Store(str(tmp_path / "games.db")) as store:
        runner.run(plan.schedule(), store, workers=1, progress=False)
        found = climbs.climb(store, plan, plan.variants[0], 32, _player(store, played),
                             bootstrap=50)
    # The climb's rungs are the ladder's own searcher at the budgets above its top.
    assert played == [("ismcts-8", "ismcts-16"), ("ismcts-16", "ismcts-32"),
                      ("ismcts-32", "cheater-32")]
    assert found.unguided == ("tic_tac_toe is an OpenSpiel game with no model of its "
                              "own: give model=PATH")
    assert found.player == PLAYER
    # Neither doubling shows a gain on two deals: the ceiling is the top fixed rung.
    assert not any(s.gains for s in found.steps) and found.ended == "ceiling"
    assert found.ceiling.spec == "ismcts(iterations=8,rollout_depth=4)"
    assert all(s.doubling for s in found.steps)
    said = sections._climb(found)
    assert said[1].startswith(f"Above the ladder, `{PLAYER}` climbs on without the "
                              f"network, as every variant does, since one has none: "
                              f"{found.unguided}.")


def test_one_variant_without_a_network_makes_every_variant_climb_without():
    plan = plans.Plan(plans.variants("card_duel", ["default", "life=15"]),
                      plans.ladder(PLAYER, 2, 8), deals=2)
    assert climbs.unguided(plan).startswith("no model is shipped for card_duel(life=15)")
    assert climbs.unguided(_plan()) is None


def test_a_cap_that_leaves_an_unguided_climb_no_step_is_refused():
    with pytest.raises(plans.SkillError, match=r"^--climb-to 8: without the network "
                       r"\(tic_tac_toe is an OpenSpiel game .*\) the climb starts at "
                       r"twice the ladder's top budget, 16$"):
        run.prepare("tic_tac_toe", player=PLAYER, min_budget=2, max_budget=8,
                    climb_to=8, workers=1)


def test_a_cap_below_the_ladders_top_is_refused():
    with pytest.raises(plans.SkillError, match="--climb-to 4 is below the ladder's top "
                       "budget 8"):
        run.prepare("card_duel", player=PLAYER, min_budget=2, max_budget=8, climb_to=4,
                    workers=1)


def test_a_cap_whose_climb_could_not_finish_is_refused_with_how_long_it_could_take():
    with pytest.raises(plans.SkillError, match=r"^--climb-to 1000000000000: the climb "
                       r"could take about \d+ years? on 1 worker, beyond the 7 days this "
                       "runs: lower --climb-to$"):
        run.prepare("card_duel", player=PLAYER, min_budget=2, max_budget=8,
                    climb_to=10 ** 12, workers=1)


def test_an_analysis_without_a_climb_writes_no_climb_and_reads_older_files():
    root = pathlib.Path(__file__).parents[2]
    text = (root / "docs/results/validation/tic_tac_toe/skill.json").read_text()
    results = Results.from_dict(json.loads(text))
    assert all(v.climb is None for v in results.variants)
    assert results.to_dict() == json.loads(text)
    assert not report._verdict_ceiling(results.variants)


def test_the_command_offers_the_climb():
    result = cli("skill", "--help")
    assert "--climb-to BUDGET" in result.stdout


def test_the_command_climbs_writes_the_ceiling_and_replays_nothing_again(tmp_path):
    args = ["skill", "card_duel", "--player", PLAYER, "--deals", "2", "--min-budget", "2",
            "--max-budget", "8", "--climb-to", "16", "--bootstrap", "50", "--quiet",
            "--workers", "1", "--out", str(tmp_path)]
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    again = cli(*args)
    assert "ismcts-16-model against ismcts-8-model: 4 games; 4 stored" in again.stderr
    assert again.stdout == first.stdout
    assert "- **Ceiling** of `default`: the cap is hit at budget 16" in again.stdout
    climb = json.loads((tmp_path / "skill.json").read_text())["variants"][0]["climb"]
    assert (climb["ended"], climb["ceiling"]["name"]) == ("cap", "ismcts-8-model")


def test_an_analysis_of_a_game_without_a_network_says_it_climbs_without(tmp_path):
    said = []
    prepared = run.prepare("tic_tac_toe", deals=2, player=PLAYER, min_budget=2,
                           max_budget=8, climb_to=16, workers=1)
    with Store(str(tmp_path / "games.db")) as store:
        results = run.run(prepared, store, bootstrap=20, say=said.append,
                          play=_player(store, []))
    assert said == ["Every variant climbs without the network: tic_tac_toe is an "
                    "OpenSpiel game with no model of its own: give model=PATH."]
    assert results.variants[0].climb.ceiling.name == "ismcts-8"
    assert "- **Ceiling** of `default`: the cap is hit at budget 16: the next doubling " \
        "would pass 16; the last doubling gains nothing these games show, so the ceiling " \
        "so far is 8." in report.summary(results, "cardarena skill tic_tac_toe")


def test_the_elo_plot_draws_each_ceiling_beyond_the_ladder(tmp_path):
    pytest.importorskip("matplotlib")
    from matplotlib import pyplot
    args = ["skill", "card_duel", "--player", PLAYER, "--deals", "2", "--min-budget", "2",
            "--max-budget", "8", "--climb-to", "16", "--bootstrap", "50", "--quiet",
            "--workers", "1", "--out", str(tmp_path)]
    assert cli(*args).returncode == 0
    results = Results.from_dict(json.loads((tmp_path / "skill.json").read_text()))
    # Two deals show no gain, so the ceiling is the network's rung at 8: placed at 16,
    # where a climb that gains would put it.
    variant = results.variants[0]
    ceiling = dataclasses.replace(variant.climb.ceiling, budget=16, name="ismcts-16-model")
    variant = dataclasses.replace(variant, climb=dataclasses.replace(variant.climb,
                                                                     ceiling=ceiling))
    results = dataclasses.replace(results, variants=[variant])
    figure = plots._plot_elo(results, pyplot)
    axes = figure.axes[0]
    labels = [t.get_text() for t in axes.get_legend().get_texts()]
    assert labels == ["default", "ceiling with the network, dashed from the top fixed rung"]
    assert [t.get_text() for t in axes.get_xticklabels()] == ["2", "4", "8", "16"]
    pyplot.close(figure)


def _settling(monkeypatch, scores):
    """Make each climb step score ``scores[(budget, deals)]``, a ``(score, low, high)``,
    on its config's deals; the steps seen as ``(budget, deals)`` in order."""
    seen = []

    def judge(store, config, lower, upper, seed, n):
        seen.append((upper.budget, config.deals))
        score, low, high = scores[upper.budget, config.deals]
        return ClimbStep(lower=lower.name, upper=upper.name, budget=upper.budget,
                         doubling=upper.budget > 8, games=2 * config.deals, score=score,
                         low=low, high=high, undecided=low <= 0.5 <= high)
    monkeypatch.setattr(climbs, "judge", judge)
    monkeypatch.setattr(climbs, "rate", lambda *args: (None, None))
    monkeypatch.setattr(climbs, "cheat", lambda *args: None)
    return seen


def test_with_decide_to_an_open_step_plays_batches_until_it_is_decided(monkeypatch):
    plan = plans.Plan(plans.variants("card_duel"), plans.ladder(PLAYER, 2, 8), deals=10,
                      decide_to=40)
    seen = _settling(monkeypatch, {
        # The network's step: clear on its first deals, so it plays no more.
        (8, 10): (0.8, 0.6, 1.0),
        # Open at 10 and 20 deals, 60% with an interval that would leave 50% out at
        # about 23 and 34 deals: it grows a batch at a time and is clear at 30.
        (16, 10): (0.6, 0.45, 0.75), (16, 20): (0.6, 0.47, 0.73),
        (16, 30): (0.6, 0.52, 0.68),
        # Level: within 5 points of 50% at 30 deals, after two batches more.
        (32, 10): (0.5, 0.435, 0.565), (32, 20): (0.5, 0.445, 0.555),
        (32, 30): (0.5, 0.46, 0.54),
        # Open, and at its score it would need far more deals than the cap: no more.
        (64, 10): (0.52, 0.22, 0.82),
    })
    played = []
    found = climbs.climb(None, plan, plan.variants[0], 64,
                         lambda schedule, what: played.append((what, schedule)))
    assert seen == [(8, 10), (16, 10), (16, 20), (16, 30), (32, 10), (32, 20), (32, 30),
                    (64, 10)]
    assert [s.games for s in found.steps] == [20, 60, 60, 20]
    assert [c.deals for _, schedule in played for c in schedule] == \
        [d for _, d in seen]
    assert played[2][0].endswith("ismcts-16-model against ismcts-8-model, to 20 deals")
    # The step within the margin holds 50%, as does the last: two undecided doublings
    # in a row, the ceiling.
    assert found.ended == "ceiling"


def test_without_decide_to_each_climb_step_plays_the_plans_deals_once(monkeypatch):
    plan = plans.Plan(plans.variants("card_duel"), plans.ladder(PLAYER, 2, 8), deals=10)
    seen = _settling(monkeypatch, {(8, 10): (0.6, 0.3, 0.9), (16, 10): (0.6, 0.3, 0.9)})
    climbs.climb(None, plan, plan.variants[0], 16, lambda schedule, what: None)
    assert seen == [(8, 10), (16, 10)]


def test_a_climb_deciding_its_steps_stores_each_steps_games_and_replays_nothing(tmp_path):
    plan = plans.Plan(plans.variants("shrine"), plans.ladder(PLAYER, 2, 8), deals=4,
                      decide_to=12)
    with Store(str(tmp_path / "games.db")) as store:
        runner.run(plan.schedule(), store, workers=1, progress=False)
        played = []

        def play(schedule, what):
            played.extend(schedule)
            runner.run(schedule, store, workers=1, progress=False)
        found = climbs.climb(store, plan, plan.variants[0], 16, play, bootstrap=50)
        for step in found.steps:
            deals = step.games // 2
            assert deals in (4, 8, 12)
            assert [c.deals for c in played if list(c.bots) == [step.lower, step.upper]] \
                == list(range(4, deals + 1, 4))
            if deals < 12:
                figure = (step.score, step.low, step.high, 0.5)
                needed = verdicts.to_decide(figure, deals)
                assert verdicts.reading(figure) or needed is None or needed > 12
        # On these seeds the first doubling and the cheater are open at 4 deals.
        assert max(c.deals for c in played) > 4
        stored = {c.key: len(store.games(c.key)) for c in played}
        assert stored == {c.key: 2 * c.deals for c in played if c.deals == max(
            d.deals for d in played if d.key == c.key)}
        again = []
        assert climbs.climb(store, plan, plan.variants[0], 16,
                            lambda schedule, what: again.extend(schedule) or runner.run(
                                schedule, store, workers=1, progress=False),
                            bootstrap=50) == found
        assert again == played
        assert {c.key: len(store.games(c.key)) for c in played} == stored
