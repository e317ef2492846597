"""The sequential design of the skill analysis (``cardarena skill --decide-to``): more
deals only for the matches whose questions are still open, and the verdicts with the
games each took."""
import dataclasses
import json
import math

import pytest

from tournament.harness.store import Store
from tournament.skill import analysis, run, verdicts
from tournament.skill.figures import Results
from tournament_helpers import cli

# Two variants on a short ladder: 3 deals first, then 3 more at a time up to 9.
ARGS = ["card_duel", "--variant", "default", "--variant", "life=15", "--player",
        "ismcts(rollout=heuristic)", "--min-budget", "2", "--max-budget", "8",
        "--deals", "3", "--decide-to", "9", "--bootstrap", "200", "--quiet"]
OPTIONS = dict(variants=["default", "life=15"], player="ismcts(rollout=heuristic)",
               min_budget=2, max_budget=8, deals=3, bootstrap=200)


@pytest.fixture(scope="module")
def decided(tmp_path_factory):
    out = tmp_path_factory.mktemp("decide")
    result = cli("skill", *ARGS, "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out, result, Results.from_dict(json.loads((out / "skill.json").read_text()))


def stored_deals(store, plan):
    """Each match's stored deals, by (variant, bots)."""
    found = {}
    for variant in plan.variants:
        for config in plan.configs(variant):
            deals = {row.deal for row in store.games(config.key)}
            per = 1 if len(config.bots) == 2 or config.rotations else 2
            found[variant.name, tuple(config.bots)] = len(deals) // per
    return found


def test_only_the_matches_of_open_questions_play_more_deals(decided, tmp_path):
    out, _, results = decided
    first = run.prepare("card_duel", **{k: v for k, v in OPTIONS.items()
                                        if k != "bootstrap"}).plan
    with Store(str(out / "games.db")) as store:
        played = stored_deals(store, first)
        # The questions as the first deals left them, measured from those deals alone.
        open_at_first = verdicts.wanted(first, analysis.measure(
            store, first, bootstrap=200).verdicts, 9)
        # A batch of 3 more, then the questions as those deals left them.
        assert set(open_at_first.values()) == {6}
        second = first.extended(open_at_first)
        open_at_second = verdicts.wanted(second, analysis.measure(
            store, second, bootstrap=200).verdicts, 9)
    grown = {match for match, deals in played.items() if deals > 3}
    assert grown == set(open_at_first)
    assert 0 < len(grown) < len(played)
    assert {match for match, deals in played.items() if deals == 9} == set(open_at_second)
    assert all(deals in (3, 6, 9) for deals in played.values())
    # Where it stopped, every question still open had all its matches at the cap, or
    # would need more deals than the cap to be decided.
    for verdict in results.verdicts:
        if not verdict.decided:
            assert verdict.needs is None or verdict.needs > 9 or all(
                played[name, tuple(bots)] == 9 for name, *bots in verdict.matches)
    assert any(not v.decided and (v.needs is None or v.needs > 9)
               for v in results.verdicts)


def _step_verdict(score, low, high):
    return verdicts.ask("step", ["default"], "b over a", (score, low, high, 0.5), 20,
                        [["default", "a", "b"]], ("b is stronger", "a is stronger",
                                                  "level"))


def test_an_open_question_says_how_many_deals_would_decide_it():
    plan = run.prepare("card_duel", **{k: v for k, v in OPTIONS.items()
                                       if k != "bootstrap"}).plan
    variants = {v.name: v for v in plan.variants}
    # 3 deals: the interval's lower side, 0.15 wide, must shrink to the 0.10 the score
    # stands above 50%: (0.15 / 0.10)^2 = 2.25 times the deals.
    open_ = _step_verdict(0.6, 0.45, 0.72)
    assert (open_.decided, open_.answer) == (False, "not told apart")
    assert verdicts.needs(open_, plan, variants) == 7
    # Below 50% the upper side counts.
    assert verdicts.needs(_step_verdict(0.4, 0.2, 0.6), plan, variants) == 12
    # On 50%, only the margin can decide it: the wider side, 0.2, must shrink to the
    # 5 points of the margin, 16 times the deals; 0.01 off 50%, to 4 points.
    assert verdicts.needs(_step_verdict(0.5, 0.3, 0.7), plan, variants) == 48
    assert verdicts.needs(_step_verdict(0.51, 0.32, 0.7), plan, variants) == \
        math.ceil(3 * (0.19 / 0.04) ** 2) == 68
    assert verdicts.needs(_step_verdict(0.6, 0.6, 0.6), plan, variants) == 0
    assert _step_verdict(0.7, 0.55, 0.85).answer == "b is stronger"
    assert _step_verdict(0.3, 0.15, 0.45).answer == "a is stronger"
    even = _step_verdict(0.51, 0.46, 0.55)
    assert (even.decided, even.answer) == (True, "level within 5 points")
    assert not _step_verdict(0.51, 0.44, 0.55).decided


def test_each_verdict_counts_the_games_of_its_matches(decided):
    out, _, results = decided
    with Store(str(out / "games.db")) as store:
        plan = run.prepare("card_duel", **{k: v for k, v in OPTIONS.items()
                                           if k != "bootstrap"}).plan
        played = stored_deals(store, plan)
    for verdict in results.verdicts:
        if verdict.question in ("step", "cheater", "seat"):
            (name, *bots), = verdict.matches
            # Two games a deal: both seatings, or both rotations of the cards.
            assert verdict.games == 2 * played[name, tuple(bots)], verdict
    kinds = [v.question for v in results.verdicts]
    # 4 chain steps, the depth, the seat and the cheater in each variant; the two
    # variants' depths once.
    assert kinds.count("step") == 8 and kinds.count("deeper") == 1
    assert {v.question for v in results.verdicts} == set(verdicts.KINDS)
    deeper, = (v for v in results.verdicts if v.question == "deeper")
    assert deeper.games == sum(v.games for v in results.verdicts if v.question == "depth")


def test_the_report_lists_every_verdict_and_the_summary_counts_them(decided):
    out, result, results = decided
    decided_count = sum(v.decided for v in results.verdicts)
    assert f"**Verdicts: {decided_count} of {len(results.verdicts)} decided**" in result.stdout
    assert "up to 9 deals (the verdicts say how many games each took)" in result.stdout
    report = (out / "report.md").read_text()
    table = report.split("## Verdicts")[1].split("\n## ")[0]
    assert sum(line.startswith("| ") for line in table.splitlines()) == \
        len(results.verdicts) + 1
    assert results.decide_to == 9


def test_the_same_command_again_plays_nothing_and_gives_the_same_figures(decided):
    out, _, results = decided
    again = cli("skill", *ARGS, "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert "Warning" not in again.stderr
    for line in again.stderr.splitlines():
        if " stored in " in line:
            total, stored = line.split(": ")[-1].split("; ")
            assert total.split()[0] == stored.split()[0], line
    assert Results.from_dict(json.loads((out / "skill.json").read_text())) == results


def test_from_python_the_sequential_run_gives_the_figures_the_command_wrote(decided,
                                                                            tmp_path):
    out, _, results = decided
    db = tmp_path / "games.db"
    db.write_bytes((out / "games.db").read_bytes())
    found = run.analyse("card_duel", db=str(db), decide_to=9, **OPTIONS)
    assert found == dataclasses.replace(results, command=None)
