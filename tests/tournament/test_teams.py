"""Games of more than two seats through the harness: in a team game a bot holds a whole
side and partners are never rated against each other; in a free-for-all every two
seats held by different bots make a match, by finishing order."""
import json
import subprocess

import pytest

from tournament.harness import config as configs
from tournament.harness.row import GameRow
from tournament.stats.ratings import match_scores, rate
from tournament_helpers import CARDARENA, cli, make_config, write_toml


def test_a_team_game_seats_each_bot_on_a_whole_side_in_both_orders():
    config = make_config(game="euchre", bots={"a": "random", "b": "greedy"})
    assert config.sides == ((0, 2), (1, 3))
    assert config.seatings() == [("a", "b", "a", "b"), ("b", "a", "b", "a")]


def test_a_free_for_all_seats_two_bots_every_way_that_leaves_neither_out():
    config = make_config(game="oh_hell", bots={"a": "random", "b": "greedy"})
    assert config.sides == ((0,), (1,), (2,))
    assert sorted(config.seatings()) == sorted(
        s for s in {(x, y, z) for x in "ab" for y in "ab" for z in "ab"} if len(set(s)) == 2)


def test_partners_are_never_a_match_and_a_side_scores_its_seats_together():
    row = GameRow(deal=0, seating=["a", "b", "a", "b"], returns=[1, -1, 1, -1])
    assert list(match_scores(row, ((0, 2), (1, 3)))) == [("a", "b", 1.0)]
    # Without the sides, the four seats would make four matches of the one game.
    assert len(list(match_scores(row))) == 4
    ffa = GameRow(deal=0, seating=["a", "a", "b"], returns=[3, 1, 2])
    assert list(match_scores(ffa)) == [("a", "b", 1.0), ("a", "b", 0.0)]


def test_a_scored_game_reports_each_bots_mean_return():
    rows = [GameRow(deal=d, seating=s, returns=r)
            for d in range(3) for s, r in ((["a", "b"], [5, 2]), (["b", "a"], [1, 4]))]
    report = rate(rows, {"a": "x", "b": "y"}, bootstrap=0, scored=True)
    assert {r.bot: r.mean_return for r in report.ratings} == {"a": 4.5, "b": 1.5}
    assert "mean return" in report.to_text()
    assert "mean return" not in rate(rows, {"a": "x", "b": "y"}, bootstrap=0).to_text() \
        .split("Seats")[0]


def test_strong_partners_beat_random_partners_at_euchre(tmp_path):
    # Two copies of the searcher hold one team, two random players the other, in both
    # seatings of every deal.  Measured: the searcher's team scores 70% over 40 games,
    # Elo +74 [+26, +135] relative to the mean (LOS 99.4%).
    toml = write_toml(tmp_path / "e.toml", 'game = "euchre"\ndeals = 20\nseed = 5\n'
                      'seconds_per_move = 60.0\n[bots]\n'
                      'strong = "ismcts(iterations=100)"\nrandom = "random"\n')
    db = str(tmp_path / "e.db")
    result = cli("tournament", toml, "--db", db, "--workers", "2", "--quiet",
                 "--format", "json", "--bootstrap", "500")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    strong, weak = report["ratings"]
    assert strong["bot"] == "strong" and strong["low"] > 0 and weak["high"] < 0
    # One match a game: team against team, never partner against partner.
    assert strong["wins"] + strong["draws"] + strong["losses"] == report["games"] == 40
    assert report["crosstable"]["strong"]["random"]["score"] > 0.5
    assert [s["seat"] for s in report["seats"]] == [0, 1]
    assert [s["partners"] for s in report["seats"]] == [[2], [3]]
    assert configs.sides("euchre") == ((0, 2), (1, 3))


@pytest.mark.parametrize("game, intro", [
    ("euchre", "you are player 0 against random as players 1 and 3; your partner is "
               "player 2, played by random, seed 1."),
    ("relinquish(players=3)", "you are player 0 against random as players 1 and 2, seed 1."),
])
def test_play_names_every_opponent_and_the_partner(game, intro, tmp_path):
    result = subprocess.run([CARDARENA, "play", game, "--bot", "random", "--seed", "1"],
                            input="quit\n", capture_output=True, text=True, timeout=120,
                            cwd=tmp_path)
    assert intro in result.stdout, result.stdout + result.stderr
