"""Skill analyses of different games side by side, on analyses built by hand."""
import dataclasses
import json

import pytest

from tournament.skill import analysis, compare
from tournament.skill.figures import (Climb, Edge, RatedRung, Results, Seat, Shape, Shapes,
                                      Step, VariantFigures, Verdict)
from tournament_helpers import cli


def figure(cls, **given):
    """A figure of ``cls`` holding ``given``, and None in every field a comparison does
    not read."""
    return cls(**{f.name: None for f in dataclasses.fields(cls)} | given)


def skill_json(steps, budgets=(8, 16, 32), seat=(0.5, 0.4, 0.6), edge=(0.5, 0.4, 0.6),
               games=200, variants=("default",)):
    """The parts of a skill analysis that a comparison reads: ``steps`` are the scores
    of the doubling steps, weakest first, over ``games`` games each."""
    rungs = [figure(RatedRung, name="random", budget=None),
             figure(RatedRung, name="greedy", budget=None)] + \
        [figure(RatedRung, name=f"ismcts-{b}", budget=b) for b in budgets] + \
        [figure(RatedRung, name=f"cheater-{budgets[-1]}", budget=budgets[-1])]
    one = dict(
        rungs=rungs, player="ismcts",
        steps=[figure(Step, lower=f"ismcts-{a}", upper=f"ismcts-{b}", games=games, score=s)
               for a, b, s in zip(budgets, budgets[1:], steps)],
        seat=figure(Seat, games=games, **dict(zip(("score", "low", "high"), seat))),
        cheater_edge=figure(Edge, games=games, **dict(zip(("score", "low", "high"), edge))),
        shape=figure(Shapes, strong=figure(Shape, decisions_mean=40.0)))
    return figure(Results, budgets=list(budgets), player="ismcts",
                  variants=[figure(VariantFigures, name=name, **one) for name in variants])


def write(folder, results):
    folder.mkdir()
    (folder / "skill.json").write_text(json.dumps(results.to_dict()))
    return str(folder)


def test_the_deeper_game_leads_clearly_and_the_other_reads_as_a_share_of_it():
    found = compare.compare([skill_json([0.9, 0.9]), skill_json([0.7, 0.7])], ["deep", "shallow"])
    deep, shallow = found.rows
    assert deep.gain == pytest.approx(float(analysis.gain([0.9, 0.9])))
    assert shallow.x == pytest.approx(50.0, abs=0.01)  # a coin on half of deep's games
    assert deep.x == 100
    assert (found.deepest.name, found.deepest.not_apart) == ("deep", [])
    text = compare.report(found, "cardarena compare deep shallow")
    assert "- **Most skill: deep**, clearly" in text
    assert "| shallow | `ismcts` | +294 [" in text


def test_games_of_equal_depth_are_not_told_apart():
    found = compare.compare([skill_json([0.7, 0.72]), skill_json([0.72, 0.7])], ["a", "b"])
    assert found.deepest.not_apart in (["a"], ["b"])
    assert "- **Most skill: not told apart**" in compare.report(found, "c")


def test_only_the_steps_between_shared_budgets_are_compared():
    wide = skill_json([0.99, 0.9, 0.6], budgets=(4, 8, 16, 32))
    narrow = skill_json([0.6, 0.6], budgets=(8, 16, 32))
    found = compare.compare([wide, narrow], ["wide", "narrow"])
    assert found.budgets == [8, 32]
    assert found.rows[0].gain == pytest.approx(float(analysis.gain([0.9, 0.6])))
    with pytest.raises(compare.CompareError, match="share no doubling step"):
        compare.compare([skill_json([0.6, 0.6]), skill_json([0.6, 0.6], budgets=(32, 64, 128))],
                        ["a", "b"])


def test_fairness_and_the_cheaters_edge_are_named_only_where_intervals_part():
    even = skill_json([0.7, 0.7], seat=(0.5, 0.45, 0.55), edge=(0.5, 0.45, 0.55))
    seated = skill_json([0.7, 0.7], seat=(0.7, 0.65, 0.75), edge=(0.8, 0.75, 0.85))
    found = compare.compare([even, seated], ["even", "seated"])
    assert (found.fairest.name, found.fairest.not_apart) == ("even", [])
    assert (found.hidden.name, found.hidden.not_apart) == ("seated", [])
    assert "The first seat is clearly ahead or behind, its interval leaving out 50%, " \
        "in: seated." in compare.report(found, "c")
    close = skill_json([0.7, 0.7], seat=(0.53, 0.47, 0.59), edge=(0.52, 0.46, 0.58))
    found = compare.compare([even, close], ["even", "close"])
    assert found.fairest.not_apart == ["close"]
    assert found.hidden.not_apart == ["even"]
    text = compare.report(found, "c")
    assert "its first seat scores nearest 50% in strong self-play. No row is clearly " \
        "farther from 50% than it.\n" in text
    # A seat not told from the fairest's may still be clearly uneven.
    ahead = skill_json([0.7, 0.7], seat=(0.56, 0.51, 0.61))
    found = compare.compare([even, ahead], ["even", "ahead"])
    assert found.fairest.not_apart == ["ahead"]
    assert "No row is clearly farther from 50% than it. The first seat is clearly " \
        "ahead or behind, its interval leaving out 50%, in: ahead." in \
        compare.report(found, "c")


def test_each_variant_of_an_analysis_is_a_row():
    found = compare.compare([skill_json([0.8, 0.8], variants=("default", "life=15")),
                             skill_json([0.7, 0.7])], ["card", "other"])
    assert [r.name for r in found.rows] == ["card: default", "card: life=15", "other"]


def test_a_game_whose_variants_all_lead_the_others_leads_clearly():
    found = compare.compare([skill_json([0.9, 0.9], variants=("a", "b")),
                             skill_json([0.6, 0.6])], ["deep", "shallow"])
    assert found.deepest.own_game and found.deepest.game == "deep"
    assert "- **Most skill: deep**, clearly ahead of every other game: the widest " \
        "doubling gain; within it deep: a leads, not told apart from deep: b." \
        in compare.report(found, "c")


def test_a_verdict_counts_the_rows_it_cannot_tell_apart_beyond_a_few():
    rows = compare.compare([skill_json([0.7, 0.7]) for _ in range(9)],
                           [f"g{k}" for k in range(9)])
    assert "not clearly ahead of 8 other rows" in compare.report(rows, "c")


def test_a_leader_not_told_apart_still_says_which_rows_are_clearly_behind_it():
    mixed = skill_json([0.7, 0.7], variants=("near", "far"))
    far = dataclasses.replace(mixed.variants[0], name="far", steps=[
        dataclasses.replace(step, score=0.5) for step in mixed.variants[0].steps])
    mixed = dataclasses.replace(mixed, variants=[mixed.variants[0], far])
    found = compare.compare(
        [skill_json([0.72, 0.72]), mixed, skill_json([0.5, 0.5], variants=("x", "y")),
         skill_json([0.5, 0.5])], ["lead", "mixed", "flat", "one"])
    assert found.deepest.name == "lead"
    assert found.deepest.not_apart == ["mixed: near"]
    assert "- **Most skill: not told apart**: lead leads, but not clearly ahead of " \
        "mixed: near: the widest doubling gain. Clearly behind it: 1 of mixed's 2 rows " \
        "(mixed: far); every row of flat (2); one." in compare.report(found, "c")
    even = compare.compare([skill_json([0.7, 0.7]), skill_json([0.7, 0.7])], ["a", "b"])
    assert "not clearly ahead of b: the widest doubling gain. No row is clearly " \
        "behind it." in compare.report(even, "c")


def test_the_command_writes_the_table_and_refuses_what_it_cannot_read(tmp_path):
    a = write(tmp_path / "deep", skill_json([0.9, 0.9]))
    b = write(tmp_path / "shallow", skill_json([0.7, 0.7]))
    result = cli("compare", a, b, "--out", str(tmp_path / "summary.md"))
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "summary.md").read_text()
    assert text.startswith(f"`cardarena compare {a} {b} --out {tmp_path / 'summary.md'}`")
    assert "| deep | `ismcts` |" in text and "- **Most skill: deep**, clearly" in text
    assert cli("compare", a, b).stdout == text.replace(
        f" --out {tmp_path / 'summary.md'}", "", 1)
    missing = cli("compare", a, str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "no skill.json" in missing.stderr
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "skill.json").write_text("{\"x\": 1}")
    bad = cli("compare", a, str(tmp_path / "bad"))
    assert bad.returncode == 1 and "not the results of cardarena skill" in bad.stderr
    assert "Traceback" not in missing.stderr + bad.stderr


def test_the_summary_says_whose_intervals_are_read_by_deal():
    old, new = skill_json([0.9, 0.9]), dataclasses.replace(skill_json([0.7, 0.7]), by_deal=True)

    def said(*analyses):
        found = compare.report(compare.compare(list(analyses), ["old", "new"][:len(analyses)]),
                               "c")
        return found.split("\n\n")[1]
    assert "each analysis's own, with Wilson intervals." in said(old)
    assert ("with Wilson intervals, the games counted as the spread between deals says "
            "they weigh in new.") in said(old, new)
    assert "they weigh." in said(dataclasses.replace(old, by_deal=True), new)


def climbed(results, elo, low, high, ended="ceiling", budget=4096):
    """``results`` whose every variant climbed to a ceiling at ``elo`` [low, high]."""
    top = figure(RatedRung, name=f"ismcts-{budget}-model", budget=budget, elo=elo, low=low,
                 high=high)
    climb = figure(Climb, ended=ended, ceiling=top)
    return dataclasses.replace(results, variants=[
        dataclasses.replace(v, climb=climb) for v in results.variants])


def test_the_highest_ceiling_is_named_only_where_the_intervals_part():
    high = climbed(skill_json([0.7, 0.7]), 1500, 1400, 1600)
    low = climbed(skill_json([0.7, 0.7]), 1100, 1000, 1200, ended="cap", budget=2048)
    found = compare.compare([low, high], ["low", "high"])
    assert (found.highest.name, found.highest.not_apart) == ("high", [])
    text = compare.report(found, "c")
    assert "- **Highest ceiling: high**, clearly" in text
    assert "| ceiling above random |" in text
    assert "+1100 [+1000, +1200] at 2048 (cap) |" in text
    near = climbed(skill_json([0.7, 0.7]), 1450, 1350, 1550)
    found = compare.compare([near, high, skill_json([0.7, 0.7])], ["near", "high", "flat"])
    assert (found.highest.name, found.highest.not_apart) == ("high", ["near"])
    # A row that did not climb has no ceiling and is left out of the verdict.
    assert found.rows[2].ceiling is None and "| flat |" in compare.report(found, "c")


def test_analyses_without_a_climb_get_no_ceiling_column():
    found = compare.compare([skill_json([0.7, 0.7]), skill_json([0.6, 0.6])], ["a", "b"])
    assert found.highest is None
    text = compare.report(found, "c")
    assert "ceiling" not in text.lower()


def test_the_questions_decided_are_counted_across_the_analyses_that_list_them():
    def verdict(decided, question="step"):
        return figure(Verdict, decided=decided, question=question)
    a = dataclasses.replace(skill_json([0.7, 0.7]),
                            verdicts=[verdict(True), verdict(False, "seat")])
    b = dataclasses.replace(skill_json([0.7, 0.7]), verdicts=[verdict(True)] * 3)
    found = compare.compare([a, b, skill_json([0.6, 0.6])], ["a", "b", "old"])
    assert found.decided == (4, 5)
    assert "- **Questions decided: 4 of 5** in the analyses that list them (a step of " \
        "the chain against 50%: 4 of 4, the first seat against 50%: 0 of 1; see each " \
        "report)." in compare.report(found, "c")
    assert compare.compare([skill_json([0.7, 0.7])], ["old"]).decided is None


def test_a_ceiling_climbed_by_one_game_alone_compares_its_variants_alone():
    one = climbed(skill_json([0.7, 0.7]), 1500, 1400, 1600)
    text = compare.report(compare.compare([one, skill_json([0.7, 0.7])], ["a", "b"]), "c")
    assert "- **Highest ceiling: none compared**: only a climbed, to +1500 " \
        "[+1400, +1600] at 4096 (ceiling) above random play." in text
    two = dataclasses.replace(one, variants=one.variants + [
        dataclasses.replace(one.variants[0], name="other")])
    text = compare.report(compare.compare([two, skill_json([0.7, 0.7])], ["a", "b"]), "c")
    assert "- **Highest ceiling: not told apart**, and only a's analysis climbed (not b), " \
        "so this compares its variants alone: a: default leads, but not clearly ahead " \
        "of a: other:" in text
