"""The yardstick's trial: which searcher a skill analysis climbs, chosen on evidence."""
import json
import types

import pytest

from tournament.harness.row import GameRow
from tournament.skill import plans, report, yardstick
from tournament.skill.figures import Results
from tournament_helpers import cli

VARIANT = plans.variants("card_duel")[0]
INCUMBENT = plans.PLAYER


class Stored:
    """A store holding, for each challenger, games it won ``wins[challenger]`` of (the
    rest lost), over ``deals`` deals played in both seatings."""

    def __init__(self, trial, wins, deals=None, seconds=None):
        self.rows = {}
        first = yardstick.name(trial.incumbent)
        for config, spec in zip(trial.configs(), trial.challengers):
            other, won = yardstick.name(spec), wins.get(spec, 0)
            rows = []
            for deal in range(trial.deals if deals is None else deals):
                for seating in ([first, other], [other, first]):
                    winner = other if len(rows) < won else first
                    rows.append(GameRow(
                        deal=deal, seating=seating,
                        returns=[1 if s == winner else -1 for s in seating],
                        seconds=None if seconds is None else
                        [seconds[spec] if s == other else 1.0 for s in seating]))
            self.rows[config.key] = rows

    def games(self, key, deals=None):
        return [r for r in self.rows[key] if deals is None or r.deal in deals]


def trial(challengers=("ismcts", "mo_ismcts(rollout_depth=8)"), deals=10):
    return yardstick.trials([VARIANT], INCUMBENT, 64, challengers, deals=deals)[0]


def test_a_challenger_that_wins_clearly_becomes_the_yardstick():
    t = trial()
    choice = yardstick.choose(Stored(t, {"mo_ismcts(rollout_depth=8)": 19}), t)
    assert choice.player == "mo_ismcts(rollout_depth=8)"
    won = {c.player: c for c in choice.challengers}
    assert won["mo_ismcts(rollout_depth=8)"].clear and not won["ismcts"].clear
    assert won["mo_ismcts(rollout_depth=8)"].score == pytest.approx(0.95)
    assert "beat `ismcts(rollout_depth=8)` clearly" in yardstick.describe(choice)


def test_the_incumbent_stays_when_no_challenger_wins_clearly():
    t = trial()
    choice = yardstick.choose(Stored(t, {"ismcts": 13, "mo_ismcts(rollout_depth=8)": 12}), t)
    assert choice.player == INCUMBENT
    assert not any(c.clear for c in choice.challengers)
    assert yardstick.describe(choice).startswith(f"`{INCUMBENT}` stays")


def test_of_several_clear_winners_the_one_scoring_highest_is_chosen():
    t = trial()
    choice = yardstick.choose(Stored(t, {"ismcts": 18, "mo_ismcts(rollout_depth=8)": 20}), t)
    assert [c.clear for c in choice.challengers] == [True, True]
    assert choice.player == "mo_ismcts(rollout_depth=8)"


def test_a_clear_winner_as_good_as_the_best_in_under_half_its_time_is_chosen():
    # 18 and 19 of 20 are not clearly apart; the first thinks 0.4 s a game to the
    # second's 1 s, so the ladder after the trial is cheaper on it.
    t = trial()
    seconds = {"ismcts": 0.4, "mo_ismcts(rollout_depth=8)": 1.0}
    choice = yardstick.choose(
        Stored(t, {"ismcts": 18, "mo_ismcts(rollout_depth=8)": 19}, seconds=seconds), t)
    assert choice.player == "ismcts"
    assert [c.seconds for c in choice.challengers] == pytest.approx([0.4, 1.0])
    assert ("not clearly below the best, `mo_ismcts(rollout_depth=8)` (95.0% "
            in yardstick.describe(choice))
    assert "in 40% of its thinking time a game (0.4 s against 1 s)" in yardstick.describe(
        choice)
    pooled = yardstick.pool([choice, choice])
    assert pooled[0].player == "ismcts"
    assert [c.seconds for c in pooled[0].pooled] == pytest.approx([0.4, 1.0])
    # The report's summary gives the chosen searcher's own score, and the best's.
    line = report._trial_sentence([types.SimpleNamespace(yardstick=pooled[0])])
    assert "pooled `ismcts` beat it clearly, scoring 90.0% [" in line
    assert ("not clearly below the best, `mo_ismcts(rollout_depth=8)` (95.0% [" in line
            and "in 40% of its thinking time a game." in line)


@pytest.mark.parametrize("wins, seconds", [
    ({"ismcts": 36, "mo_ismcts(rollout_depth=8)": 38}, 0.6),  # cheaper, not by half
    ({"ismcts": 30, "mo_ismcts(rollout_depth=8)": 40}, 0.1),  # clearly below the best
])
def test_the_best_stays_unless_a_cheaper_one_is_alike_and_half_its_cost(wins, seconds):
    t = trial(deals=20)
    stored = Stored(t, wins, seconds={"ismcts": seconds, "mo_ismcts(rollout_depth=8)": 1.0})
    choice = yardstick.choose(stored, t)
    assert all(c.clear for c in choice.challengers)
    assert choice.player == "mo_ismcts(rollout_depth=8)"
    assert "not clearly below" not in yardstick.describe(choice)


def test_more_challengers_ask_more_of_each_win():
    # 15 of 20 is clear of even at 95% for one challenger; with six, each interval is
    # widened so that luck passes one of them no more than 5% of the time.
    one = trial(("ismcts",))
    assert yardstick.choose(Stored(one, {"ismcts": 15}), one).player == "ismcts"
    six = trial(yardstick.CHALLENGERS)
    choice = yardstick.choose(Stored(six, {"ismcts": 15}), six)
    assert choice.player == INCUMBENT


def test_pooled_variants_share_the_searcher_their_games_together_favour():
    # Three variants of 10 games a challenger: 8 wins in each is clear in none alone
    # (with two challengers), and clear over the 30 pooled.
    t = trial(deals=5)
    own = [yardstick.choose(Stored(t, {"ismcts": 8, "mo_ismcts(rollout_depth=8)": 5}), t)
           for _ in range(3)]
    assert all(c.player == INCUMBENT for c in own)
    pooled = yardstick.pool(own)
    assert [c.player for c in pooled] == ["ismcts"] * 3
    assert pooled[0].pooled[0].games == 30 and pooled[0].pooled[0].clear
    assert pooled[0].challengers == own[0].challengers
    assert "over every variant's trial games pooled" in yardstick.describe(pooled[0])
    assert yardstick.pool(own[:1]) == own[:1]


def test_missing_games_are_named():
    t = trial()
    with pytest.raises(plans.SkillError, match="18 of 20 games of the yardstick's trial "
                                                "ismcts-rollout_depth-8 v ismcts are"):
        yardstick.choose(Stored(t, {}, deals=9), t)


@pytest.mark.parametrize("challenger, message", [
    ("greedy", "a searcher whose budget the ladder doubles"),
    ("ismcts(iterations=5)", "without iterations or seconds"),
    ("ismcts(bogus=1)", "bogus"),
])
def test_a_challenger_that_cannot_climb_a_ladder_is_refused(challenger, message):
    with pytest.raises(plans.SkillError, match=message):
        trial((challenger,))


def test_the_incumbent_is_not_its_own_challenger_and_none_is_given_twice():
    assert trial((INCUMBENT, "ismcts")).challengers == ("ismcts",)
    with pytest.raises(plans.SkillError, match="other than the incumbent"):
        trial((INCUMBENT,))
    with pytest.raises(plans.SkillError, match="given twice"):
        trial(("ismcts", "ismcts"))


def test_each_challenger_meets_the_incumbent_at_the_budget_through_the_harness():
    t = trial()
    configs = t.configs()
    assert [list(c.bots) for c in configs] == [
        ["ismcts-rollout_depth-8", "ismcts"],
        ["ismcts-rollout_depth-8", "mo_ismcts-rollout_depth-8"]]
    assert configs[1].bots["mo_ismcts-rollout_depth-8"] == \
        "mo_ismcts(iterations=64,rollout_depth=8)"
    assert {c.game for c in configs} == {VARIANT.game} and configs[0].deals == 10


# --- through the skill command ------------------------------------------------------


def test_the_skill_command_holds_the_trial_first_on_a_team_game(tmp_path):
    # Euchre: each bot holds a team, so a challenger and the incumbent meet twice a deal.
    result = cli("skill", "euchre", "--deals", "2", "--min-budget", "2", "--max-budget", "8",
                 "--trial-deals", "3", "--challenger", "mo_ismcts(rollout_depth=8)",
                 "--workers", "1", "--bootstrap", "20", "--quiet", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "The yardstick's trial, 1 challenger at 8 iterations in each of 1 variant" \
        in result.stderr
    results = Results.from_dict(json.loads((tmp_path / "skill.json").read_text()))
    variant = results.variants[0]
    choice = variant.yardstick
    assert [c.player for c in choice.challengers] == ["mo_ismcts(rollout_depth=8)"]
    assert choice.challengers[0].games == 6 and choice.budget == 8
    assert f"default: {yardstick.describe(choice)}." in result.stderr
    assert variant.player == choice.player
    assert variant.span.top == plans.rung(choice.player, 8).name


@pytest.mark.parametrize("args, message", [
    (["--player", "ismcts", "--challenger", "mo_ismcts"], "give one or the other"),
    (["--player", "ismcts", "--trial-each"], "give one or the other"),
    (["--challenger", "expectimax"], "a challenger is a searcher whose budget"),
    (["--trial-deals", "1000000000"], "the yardstick's trial would take about"),
])
def test_a_trial_that_cannot_run_gets_one_line_and_no_games(args, message, tmp_path):
    result = cli("skill", "card_duel", *args, "--workers", "1", "--out", str(tmp_path / "o"))
    assert result.returncode == 1 and message in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "o").exists()
