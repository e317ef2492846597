"""`cardarena sprt`: duplicate pairs played until the test decides, resumed in order,
its arguments checked."""
import csv
import io
import json
import re

import pytest

from tournament.harness import config as configs
from tournament.harness.row import GameRow
from tournament.harness.store import Store
from tournament_helpers import cli, write_toml



def test_sprt_plays_pairs_until_it_decides_and_a_rerun_replays_nothing(tmp_path):
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 1\nseed = 4\n[bots]\n'
                      'random = "random"\ngreedy = "greedy"\ncopy = "random"\n')
    db = str(tmp_path / "t.db")
    result = cli("sprt", toml, "--a", "greedy", "--b", "random", "--elo0", "0",
                 "--elo1", "50", "--db", db, "--workers", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip()
    assert line.startswith("greedy against random on shrine: ")
    assert line.endswith("H1 accepted: greedy is at least 50 Elo stronger")
    with Store(db) as store:
        stored = store.tournament()["games"]
        rows = store.games(store.tournament()["key"])
    assert {tuple(r.seating) for r in rows} == {("greedy", "random"), ("random", "greedy")}
    assert cli("sprt", toml, "--a", "greedy", "--b", "random", "--elo0", "0", "--elo1", "50",
               "--db", db, "--quiet").stdout == result.stdout
    with Store(db) as store:
        assert store.tournament()["games"] == stored
    # Two copies of one bot split every duplicate pair: no difference, H0.
    same = cli("sprt", toml, "--a", "random", "--b", "copy", "--elo0", "0", "--elo1", "100",
               "--db", db, "--quiet")
    assert "H0 accepted" in same.stdout


def test_the_sprt_progress_bar_shows_the_llr_and_no_count_to_max_deals(tmp_path):
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 1\nseed = 4\n[bots]\n'
                      'random = "random"\ngreedy = "greedy"\n')
    result = cli("sprt", toml, "--a", "greedy", "--b", "random", "--elo1", "50",
                 "--db", str(tmp_path / "t.db"), "--workers", "1")
    assert result.returncode == 0, result.stderr
    shown = result.stderr.replace("\r", "\n").split("\n")
    pairs = int(result.stdout.split(": ")[1].split()[0])
    assert any(re.fullmatch(rf"{pairs} pairs, LLR \d\.\d\d in \[-2\.94, 2\.94\] "
                            r"\[\d\d:\d\d\]", line.strip()) for line in shown), shown
    assert "10000" not in result.stderr


def test_ratings_rate_the_latest_tournament_and_list_marks_sprt_runs(tmp_path):
    toml = write_toml(tmp_path / "t.toml", 'game = "card_duel"\ndeals = 2\nseed = 4\n'
                      '[bots]\nrandom = "random"\ngreedy = "greedy"\ncopy = "random"\n')
    db = str(tmp_path / "t.db")
    assert cli("tournament", toml, "--db", db, "--quiet", "--bootstrap", "10").returncode == 0
    test = cli("sprt", toml, "--a", "greedy", "--b", "random", "--max-deals", "4", "--db", db,
               "--quiet")
    assert test.returncode == 0, test.stderr
    with Store(db) as store:
        tournament, pair = store.tournaments()
    rated = cli("ratings", db, "--format", "json", "--bootstrap", "10")
    assert sorted(r["bot"] for r in json.loads(rated.stdout)["ratings"]) == [
        "copy", "greedy", "random"]
    assert len(cli("ratings", db, "--games").stdout.splitlines()) == 12
    listed = json.loads(cli("ratings", db, "--games", "--format", "json").stdout)
    assert len(listed) == 12 and set(listed[0]) == {"id", "deal", "seating", "returns",
                                                    "status", "failed", "message", "length"}
    rows = list(csv.reader(io.StringIO(cli("ratings", db, "--games", "--format",
                                           "csv").stdout)))
    assert rows[0] == ["id", "deal", "seating", "returns", "status", "failed", "decisions"]
    assert [int(r[0]) for r in rows[1:]] == [g["id"] for g in listed]
    markdown = cli("ratings", db, "--games", "--format", "markdown").stdout.splitlines()
    assert markdown[0] == "| id | deal | seating | returns | status | failed | decisions |"
    assert len(markdown) == 14
    listed = cli("ratings", db, "--list").stdout.splitlines()
    assert listed[0].startswith(f"{tournament['key']}  tournament (default)  card_duel  12 games")
    assert listed[1].startswith(f"{pair['key']}  sprt                  card_duel  8 games")
    assert listed[1].endswith("bots: greedy, random")
    only = cli("ratings", db, "--tournament", pair["key"][:6], "--format", "json",
               "--bootstrap", "10")
    assert sorted(r["bot"] for r in json.loads(only.stdout)["ratings"]) == ["greedy", "random"]


def test_a_resumed_sprt_takes_the_deals_in_order(tmp_path):
    """A stopped run leaves deals stored out of order: with several workers a later deal
    can end before an earlier one.  The resumed test must still take the pairs deal by
    deal, as a run that was never stopped does, and not skip the unfinished deal."""
    from tournament.stats import sprt
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 1\nseed = 4\n[bots]\n'
                      'random = "random"\ngreedy = "greedy"\n')
    db = str(tmp_path / "t.db")
    pair = configs.load(toml).only(["greedy", "random"])

    def row(deal, seating, winner):
        return GameRow(deal=deal, deal_seed=pair.deal_seed(deal), seating=list(seating),
                       specs=[pair.bots[n] for n in seating],
                       returns=[1.0 if n == winner else -1.0 for n in seating], length=1,
                       seconds=[0.0, 0.0])

    # Greedy wins both games of deals 0 to 29, but deal 10 holds only the game random
    # won: its other game was cut short by the stop.
    rows = [row(deal, seating, "greedy") for deal in range(30)
            for seating in (("greedy", "random"), ("random", "greedy")) if deal != 10]
    rows.append(row(10, ("random", "greedy"), "random"))
    with Store(db) as store:
        store.begin(pair)
        store.add_all(pair, rows)
    result = cli("sprt", toml, "--a", "greedy", "--b", "random", "--elo0", "0", "--elo1", "50",
                 "--db", db, "--workers", "1", "--quiet")
    assert result.returncode == 0, result.stderr
    with Store(db) as store:
        games = store.games(pair.key)
    assert {tuple(g.seating) for g in games if g.deal == 10} == {
        ("greedy", "random"), ("random", "greedy")}
    test = sprt.Sprt(0, 50)
    test.extend(sprt.pair_scores(games, "greedy", "random"))
    assert result.stdout.strip() == f"greedy against random on shrine: {test.summary('greedy')}"


@pytest.mark.parametrize("args, message", [
    (["--a", "nobody", "--b", "random"], "no bot 'nobody' in"),
    (["--a", "random", "--b", "random"], "--a and --b name the same bot"),
    (["--a", "random", "--b", "greedy", "--elo0", "10", "--elo1", "5"], "elo0 must be below"),
    (["--a", "random", "--b", "greedy", "--alpha", "1.5"], "alpha and beta must be"),
])
def test_sprt_refuses_bad_arguments(tmp_path, args, message):
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 1\n[bots]\n'
                      'random = "random"\ngreedy = "greedy"\n')
    result = cli("sprt", toml, *args, "--db", str(tmp_path / "t.db"))
    assert result.returncode == 1 and message in result.stderr, result.stderr


def test_sprt_needs_a_game_of_two_sides(tmp_path):
    toml = write_toml(tmp_path / "t.toml", 'game = "kuhn_poker(players=3)"\ndeals = 1\n'
                      '[bots]\na = "random"\nb = "random"\n')
    result = cli("sprt", toml, "--a", "a", "--b", "b")
    assert "duplicate pairs need a game of two sides" in result.stderr

