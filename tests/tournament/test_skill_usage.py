"""The skill analysis's move usage: how often each rung chose each kind of move, and
its score in the games where it did against those where it did not."""
import collections
import json
import re

import pyspiel
import pytest

import core
from core.relinquish import KINDS
from tournament.harness import runner
from tournament.harness.store import Store
from tournament.skill import analysis, plans, sections
from tournament.skill.figures import MeanScore, MoveFigures
from tournament.stats.intervals import wilson
from tournament_helpers import cli


def test_move_figures_count_each_kind_and_split_the_scores_by_use():
    samples = [(collections.Counter(a=2, b=1), {"a", "b", "c", "d"}, 1.0),
               (collections.Counter(a=1), {"a", "b"}, 0.0),
               (collections.Counter(a=1, c=1), {"a", "c"}, 0.5)]
    figures = analysis.move_figures(samples)
    assert (figures.games, figures.decisions) == (3, 6)
    # The most chosen first; a tie by name; a kind offered and never chosen last.
    a, b, c, d = figures.kinds
    assert [k.kind for k in (a, b, c, d)] == ["a", "b", "c", "d"]
    # Chosen in the games where it was offered: b in 1 of 2, c in 1 of 2, d in 0 of 1.
    assert (a.taken.games, a.taken.share) == (3, 1.0)
    assert (b.taken.games, b.taken.share) == (2, 0.5)
    assert (b.taken.low, b.taken.high) == wilson(0.5, 2)
    assert (d.times, d.taken.games, d.taken.share) == (0, 1, 0.0)
    assert (a.times, a.per_game, a.share) == (4, pytest.approx(4 / 3),
                                                       pytest.approx(4 / 6))
    assert a.used.games == 3 and a.used.score == pytest.approx(0.5)
    assert a.unused == MeanScore(games=0, score=None, low=None, high=None)
    assert (b.used.games, b.used.score) == (1, 1.0)
    assert (b.unused.games, b.unused.score) == (2, 0.25)
    assert (b.unused.low, b.unused.high) == wilson(0.25, 2)
    assert (c.used.score, c.unused.score) == (0.5, 0.5)


def test_move_figures_of_no_game_are_empty():
    assert analysis.move_figures([]) == MoveFigures(games=0, decisions=0, kinds=[])


def test_a_game_without_its_own_kinds_gets_the_first_word_of_each_name():
    state = core.load_game("card_duel").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    for action in state.legal_actions():
        assert state.action_kind(action) == state.action_to_string(action).split()[0]
    leduc = core.ForeignGame("leduc_poker").new_initial_state()
    while leduc.is_chance_node():
        leduc.apply_action(leduc.legal_actions()[0])
    assert [leduc.action_kind(a) for a in leduc.legal_actions()] == ["Call", "Raise"]


def test_the_usage_of_each_rung_counts_its_own_decisions_once(tmp_path):
    plan = plans.Plan(plans.variants("card_duel"), plans.ladder("ismcts", 2, 8), deals=2)
    with Store(str(tmp_path / "g.db")) as store:
        runner.run(plan.schedule(), store, workers=1, progress=False)
        results = analysis.measure(store, plan, bootstrap=20)
        rows = [row for config in plan.configs(plan.variants[0])
                for row in store.games(config.key)]
    usage = results.variants[0].usage
    assert list(usage) == [r.name for r in plan.ladder.rungs]
    # Replayed here by OpenSpiel, seat by seat, without the analysis's code.
    games, decisions = collections.Counter(), collections.Counter()
    used, unused, offered = [], [], 0
    for row in rows:
        assert row.status == "ok"
        state = pyspiel.load_game("card_duel").new_initial_state()
        attacked, could = [False, False], [False, False]
        # Self-play deals are played with their cards in both seats: rotated where
        # the deal ends, as the runner played them.
        rotate = row.rotation
        for action in row.history:
            if rotate and state.core.just_dealt():
                state.core.rotate_deal(rotate)
                rotate = 0
            if not state.is_chance_node():
                seat = state.current_player()
                decisions[row.seating[seat]] += 1
                attacked[seat] |= state.action_to_string(seat, action).startswith("attack")
                could[seat] |= any(state.action_to_string(seat, a).startswith("attack")
                                   for a in state.legal_actions())
            state.apply_action(action)
        for seat, bot in enumerate(row.seating):
            games[bot] += 1
            if bot == "greedy":
                returns = row.returns
                score = 1.0 if returns[seat] > returns[1 - seat] else \
                    0.5 if returns[seat] == returns[1 - seat] else 0.0
                (used if attacked[seat] else unused).append(score)
                offered += could[seat]
    for rung, figures in usage.items():
        assert (figures.games, figures.decisions) == (games[rung], decisions[rung])
        kinds = figures.kinds
        assert sum(k.times for k in kinds) == figures.decisions
        assert sum(k.share for k in kinds) == pytest.approx(1)
        for k in kinds:
            assert k.per_game * figures.games == pytest.approx(k.times)
            assert k.used.games + k.unused.games == figures.games
            assert k.used.games <= k.times
            assert k.used.games <= k.taken.games <= figures.games
    attack = next(k for k in usage["greedy"].kinds if k.kind == "attack")
    assert attack.used.games == len(used) and attack.unused.games == len(unused)
    assert attack.taken.games == offered and attack.taken.share \
        == pytest.approx(len(used) / offered)
    assert attack.used.score == pytest.approx(sum(used) / len(used))


def moves_table(report, rung):
    """The rows of ``rung``'s table of moves in ``report``, as lists of cells."""
    block = report.split(f"**{rung}**: ", 1)[1].split("\n\n")[1]
    return [[cell.strip() for cell in line.strip("|").split("|")]
            for line in block.splitlines()[2:]]


@pytest.fixture(scope="module")
def relinquish(tmp_path_factory):
    out = tmp_path_factory.mktemp("relinquish")
    result = cli("skill", "relinquish", "--deals", "2", "--min-budget", "2", "--max-budget",
                 "8", "--player", plans.PLAYER, "--bootstrap", "20", "--workers", "1", "--quiet", "--out", str(out))
    assert result.returncode == 0, result.stderr
    return json.loads((out / "skill.json").read_text()), (out / "report.md").read_text()


def test_relinquish_moves_are_its_maneuvers_and_abilities(relinquish):
    results, _ = relinquish
    decisions = set(KINDS) - {"deal", "flip", "draw", "reveal"}
    usage = results["variants"][0]["usage"]
    for figures in usage.values():
        assert figures["games"] > 0
        assert {k["kind"] for k in figures["kinds"]} <= decisions
    # Random play meets most of the game in its long games: at least the maneuvers.
    chosen = {k["kind"] for k in usage["random"]["kinds"]}
    assert {"end turn", "populate", "summon", "battle", "enchant", "augur"} <= chosen


@pytest.mark.parametrize("rung", ["ismcts-8", "greedy"])
def test_the_report_lists_the_moves_of_a_tenth_of_the_games_and_pools_the_rest(
        relinquish, rung):
    results, report = relinquish
    figures = results["variants"][0]["usage"][rung]
    n = figures["games"]
    assert f"**{rung}**: {n} games (one per side it held)" in report
    table = moves_table(report, rung)
    shown = [k for k in figures["kinds"] if k["used"]["games"] >= 0.1 * n]
    shown = shown[:sections.MOST_KINDS]
    rest = [k for k in figures["kinds"] if k not in shown and k["times"]]
    assert [row[0] for row in table] == [k["kind"] for k in shown] + (
        [f"other ({len(rest)} kind{'s' if len(rest) > 1 else ''})"] if rest else [])
    for row, k in zip(table, shown):
        assert row[1] == f"{k['per_game']:.2f}" and row[3] == f"{k['used']['games']} / {n}"
        taken = k["taken"]
        assert row[4] == (f"{100 * taken['share']:.1f} [{100 * taken['low']:.1f}, "
                          f"{100 * taken['high']:.1f}] of {taken['games']}")
        assert re.fullmatch(r"-|[\d.]+ \[[\d.]+, [\d.]+\]", row[5]), row
    if rest:
        assert table[-1][1] == f"{sum(k['times'] for k in rest) / n:.2f}"


def test_the_report_tells_how_often_each_rung_chose_a_move_when_offered(relinquish):
    results, report = relinquish
    usage = results["variants"][0]["usage"]
    block = report.split("### Chosen when offered", 1)[1].split("\n\n")[2]
    lines = block.splitlines()
    assert lines[0].split("|")[1:-1] == [" move ", " greedy ", " ismcts-2 ", " ismcts-4 ",
                                         " ismcts-8 "]
    top = {k["kind"]: k["taken"] for k in usage["ismcts-8"]["kinds"]}
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]
    shares = [top[row[0]]["share"] for row in rows]
    assert rows and shares == sorted(shares, reverse=True)
    for row in rows:
        # A kind the greedy player was never offered has no share: a dash.
        greedy = next((k["taken"] for k in usage["greedy"]["kinds"] if k["kind"] == row[0]),
                      None)
        assert row[1] == "-" if greedy is None else row[1].endswith(f"of {greedy['games']}")
