"""The benchmarks in bench/, run as a user runs them: they finish and print every
figure they promise.  Timings are the machine's business, never a test's."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import core
import pytest
from tournament.harness.store import Store

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench")

# A figure, a ratio, or n/a where a row has no such figure.
FIGURE = re.compile(r"(\d{1,3}(,\d{3})*|\d+)(\.\d+)?×?|n/a")


def run_bench(name, *args):
    result = subprocess.run([sys.executable, os.path.join(BENCH, name), *args],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout


def tables(out):
    """The Markdown tables in ``out``, each a list of its lines."""
    found, previous = [], False
    for line in out.splitlines():
        if line.startswith("|"):
            if not previous:
                found.append([])
            found[-1].append(line)
        previous = line.startswith("|")
    return found


def test_search_benchmark_prints_a_row_of_figures_for_every_searcher():
    # One run a position: the figures' form is checked here, not their noise.
    out = run_bench("search.py", "--quick", "--markdown", "--repeats", "1")
    table, network = tables(out)
    header = [c.strip() for c in table[0].strip("|").split("|")]
    rows = {}
    for line in table[2:]:
        game, searcher, *figures = [c.strip() for c in line.strip("|").split("|")]
        rows[game, searcher] = figures
    ours = ["ismcts", "ismcts(rollout=heuristic)", "ismcts(rollout_depth=8)",
            "ismcts(threads=2)", "mo_ismcts",
            "determinized", "cheater", "expectimax (nodes/s)"]
    others = [name for name in core.GAMES if name != "shrine"]
    assert list(rows) == ([("shrine", s) for s in ours] + [("shrine", "OpenSpiel ISMCTS, Python")]
                          + [(name, s) for name in others for s in ours]
                          + [(name, s) for name in ("hearts", "oh_hell")
                             for s in ("OpenSpiel ISMCTS, C++", "ismcts via ForeignGame")])
    for key, figures in rows.items():
        assert len(figures) == len(header) - 2, key
        for figure in figures:
            assert FIGURE.fullmatch(figure), (key, figure)
        assert figures[0] != "n/a", key
    assert "n/a" not in rows["shrine", "ismcts"]
    assert "n/a" not in rows["shrine", "OpenSpiel ISMCTS, Python"]
    goals = out.split("Goals:")[1]
    assert re.search(r"OpenSpiel's Python ISMCTS on Shrine: \S+× -- (met|NOT met)", goals)
    assert re.search(r"C\+\+ ISMCTS on hearts: \S+× -- (met|NOT met)", goals)
    assert re.search(r"On oh_hell, ismcts via ForeignGame runs \S+× the iterations/s of "
                     r"OpenSpiel's C\+\+ ISMCTS", out)
    assert "Million" not in out
    # The network's table: a row per ruleset, every figure measured.
    assert [line.split("|")[1].strip() for line in network[2:]] == list(core.GAMES)
    for line in network[2:]:
        figures = [c.strip() for c in line.strip("|").split("|")][2:]
        assert len(figures) == 9 and all(FIGURE.fullmatch(f) and f != "n/a"
                                         for f in figures), line


def test_search_benchmark_plays_the_match_and_tallies_it():
    # Not much less time per move: OpenSpiel's Python ISMCTS fails after a single
    # simulation, which is all a loaded machine may leave it at a few hundredths.
    out = run_bench("search.py", "--match", "1", "--seconds", "0.2", "--game",
                    "card_duel").splitlines()
    assert re.fullmatch(r"  game 1: deal \d+, ours in seat 0: (win|loss|draw), margin "
                        r"[+-]?\d+(\.\d+)?; \d+ \+ \d+ searched moves, \d+ s; so far "
                        r"\+\d -\d =\d", out[1])
    assert re.fullmatch(r"ismcts\(seconds=0.2\) against openspiel_ismcts\(seconds=0.2\) on "
                        r"card_duel at 0.2 s per move: 1 game, \d won, \d lost, \d drawn; score "
                        r"[\d.]+, 95% Wilson interval [\d.]+-[\d.]+; mean margin [+-][\d.]+ "
                        r"± (inf|[\d.]+) \(95%\)", out[2])


def test_a_match_of_two_threads_against_one_gives_both_the_same_parameters():
    out = run_bench("search.py", "--match", "2", "--seconds", "0.02", "--game", "card_duel",
                    "--opponent", "threads", "--ours", "rollout_depth=8").splitlines()
    assert out[0] == ("match on card_duel: ismcts(seconds=0.02,threads=2,rollout_depth=8) "
                      "against ismcts(seconds=0.02,rollout_depth=8), 2 games, seed 1")
    assert re.fullmatch(r"ismcts\(seconds=0.02,threads=2,rollout_depth=8\) against "
                        r"ismcts\(seconds=0.02,rollout_depth=8\) on card_duel at 0.02 s per "
                        r"move: 2 games, .*", out[3])
    assert any(re.fullmatch(r"mean iterations per searched move: ours \d+, opponent \d+ "
                            r"\([\d.]+ times\)", line) for line in out)
    assert out[-1].startswith("verdict at 95%, by the margin")


def test_a_recorded_match_resumes_where_it_stopped_and_refuses_another_match(tmp_path):
    record = str(tmp_path / "match.jsonl")
    args = ("--seconds", "0.01", "--game", "card_duel", "--opponent", "threads",
            "--ours", "rollout_depth=8", "--record", record)
    first = run_bench("search.py", "--match", "2", *args).splitlines()
    with open(record) as f:
        assert len(f.read().splitlines()) == 3        # the match, then a line a game
    again = run_bench("search.py", "--match", "4", *args).splitlines()
    assert again[1] == f"  2 of them recorded in {record}"
    played = [line.split(":")[0].strip() for line in again if line.startswith("  game ")]
    assert played == ["game 3", "game 4"]
    # The first two games count as they were played: the tally is over all four.
    tally = next(line for line in again if " s per move: " in line)
    assert " 4 games, " in tally
    before = [line for line in first if line.startswith("  game ")]
    won = sum(" win, " in line for line in before)
    assert int(re.search(r"(\d+) won", tally).group(1)) >= won
    with open(record) as f:
        assert len(f.read().splitlines()) == 5
    # All recorded: the tally again, and nothing played, so no load to speak of.
    replay = run_bench("search.py", "--match", "4", *args).splitlines()
    assert next(line for line in replay if " s per move: " in line) == tally
    assert not any(line.startswith("  game ") or "load average" in line for line in replay)
    other = subprocess.run([sys.executable, os.path.join(BENCH, "search.py"), "--match", "2",
                            "--seconds", "0.02", "--game", "card_duel", "--opponent",
                            "threads", "--record", record], capture_output=True, text=True)
    assert other.returncode != 0
    assert other.stderr == (f"bench/search.py --match: {record} records another match "
                            f"(ismcts(seconds=0.01,threads=2,rollout_depth=8) against "
                            f"ismcts(seconds=0.01,rollout_depth=8) on card_duel, seed 1, "
                            f"0.01 s); give another file\n")


def test_a_match_openspiels_bot_cannot_play_ends_in_one_line():
    result = subprocess.run([sys.executable, os.path.join(BENCH, "search.py"), "--match",
                             "2", "--game", "hearts"], capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr == ("bench/search.py --match: openspiel_ismcts cannot play "
                             "hearts: OpenSpiel's resampler for it returns worlds that "
                             "break its rules\n")


def test_threads_benchmark_measures_every_way_of_sharing_a_search_on_every_game_asked():
    out = run_bench("threads.py", "--games", "card_duel,shrine", "--seconds", "0.01",
                    "--repeats", "1", "--markdown")
    (table,) = tables(out)
    assert [c.strip() for c in table[0].strip("|").split("|")] == [
        "game", "iterations, one thread", "one tree", "at the root",
        "one thread, twice the time", "one tree / twice the time"]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in table[2:]]
    assert [r[0] for r in rows] == ["card_duel", "shrine"]
    for name, *figures in rows:
        assert all(FIGURE.fullmatch(f) and f != "n/a" for f in figures[:4]), name
        assert re.fullmatch(r"\d+%", figures[4]), name
    assert re.search(r"load average: \d+\.\d at the start, \d+\.\d at the end", out)


def test_threads_benchmark_refuses_an_unknown_game_in_one_line():
    result = subprocess.run([sys.executable, os.path.join(BENCH, "threads.py"), "--games",
                             "shrine,chess"], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "threads.py: error: unknown game 'chess'; games: " + ", ".join(sorted(core.GAMES)))


def test_harness_benchmark_prints_every_row_and_its_goals():
    out = run_bench("harness.py", "--deals", "2", "--repeats", "1", "--markdown")
    table = [line for line in out.splitlines() if line.startswith("|")]
    rows = {}
    for line in table[2:]:
        name, *figures = [c.strip() for c in line.strip("|").split("|")]
        rows[name] = figures
    assert list(rows) == ["OpenSpiel's evaluate_bots", "bare play", "harness, 1 worker",
                          "harness, 2 workers"]
    for name, figures in rows.items():
        assert len(figures) == 5
        assert FIGURE.fullmatch(figures[0]) and figures[0] != "n/a", name
    assert re.fullmatch(r"[+-]\d+\.\d%", rows["harness, 2 workers"][2])
    assert re.search(r"overhead per game under 5%: [+-]\S+% -- (met|NOT met)", out)
    assert re.search(r"2 workers at least 1.8 times 1 worker: \S+× -- (met|NOT met)", out)


def test_learned_benchmark_gives_the_yardstick_the_network_and_tallies_every_match(tmp_path):
    out = run_bench("learned.py", "--game", "card_duel", "--seconds", "0.01", "--plain",
                    "--views", "4", "--deals", "1", "--workers", "1", "--db",
                    str(tmp_path / "learned.sqlite"), "--markdown")
    (table,) = tables(out)
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table[2:]]
    assert [row[1] for row in rows] == [
        "guided against ismcts(rollout=heuristic,seconds=0.01)",
        "ismcts(model=default) against ismcts(rollout=heuristic,seconds=0.01)",
        "value_view=actor against searcher, value_weight=0.5, 4 iterations",
        "value_view=actor against searcher, value_weight=1, 4 iterations",
        "policy against greedy", "policy against random"]
    for row in rows:
        assert row[0] == "card_duel" and row[4] == "2"
        assert re.fullmatch(r"\d+\.\d%", row[2])
        assert re.fullmatch(r"\d+\.\d% to \d+\.\d%", row[3])
    with Store(tmp_path / "learned.sqlite") as store:
        bots = [t["config"]["bots"] for t in store.tournaments()]
    assert bots[0] == {"a": "ismcts(rollout=heuristic,model=default,seconds=0.01)",
                       "b": "ismcts(rollout=heuristic,seconds=0.01)"}
    assert bots[3] == {
        side: "ismcts(rollout=heuristic,model=default,value_weight=1,"
              f"value_view={view},iterations=4)"
        for side, view in (("a", "actor"), ("b", "searcher"))}


def test_learned_benchmark_gives_the_guided_side_more_parameters_or_refuses_them(tmp_path):
    db = str(tmp_path / "learned.sqlite")
    out = run_bench("learned.py", "--game", "card_duel", "--seconds", "0.01", "--ours",
                    "puct_c=1.2", "--deals", "1", "--workers", "1", "--db", db,
                    "--markdown")
    (table,) = tables(out)
    assert ("guided(puct_c=1.2) against ismcts(rollout=heuristic,seconds=0.01)"
            in table[2])
    with Store(db) as store:
        bots = store.tournaments()[0]["config"]["bots"]
    assert bots["a"] == "ismcts(rollout=heuristic,model=default,puct_c=1.2,seconds=0.01)"
    for ours, says in (("puct_c=x", "puct_c is a number"),
                       ("seconds=2", "the match's own")):
        done = subprocess.run([sys.executable, os.path.join(BENCH, "learned.py"), "--game",
                               "card_duel", "--ours", ours, "--db", db],
                              capture_output=True, text=True)
        assert done.returncode != 0 and done.stderr.count("\n") == 1, done.stderr
        assert says in done.stderr


def test_learned_benchmark_tallies_only_the_deals_asked_for(tmp_path):
    db = str(tmp_path / "learned.sqlite")
    for deals in ("2", "1"):
        out = run_bench("learned.py", "--game", "card_duel", "--seconds", "--deals", deals,
                        "--workers", "1", "--db", db, "--markdown")
    (table,) = tables(out)
    assert all(line.strip("|").split("|")[4].strip() == "2" for line in table[2:])


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_instructions_benchmark_counts_a_seeded_game_here_and_in_another_checkout():
    # This checkout against itself: the same game, the same counts, ratios of 1.
    out = run_bench("instructions.py", "--game", "card_duel", "--iterations", "16",
                    "--against", os.path.dirname(BENCH), "--markdown")
    (table,) = tables(out)
    header = [c.strip() for c in table[0].strip("|").split("|")]
    row = dict(zip(header, [c.strip() for c in table[2].strip("|").split("|")]))
    assert row["game"] == "card_duel" and "iterations=16" in row["searchers"]
    total, in_game, in_search = (float(row[k].replace(",", "")) for k in
                                 ("instructions (millions)", "in the game", "in search"))
    assert total > in_game + in_search and in_game > 0 and in_search > 0
    assert (row["game ratio"], row["same game"]) == ("1.000", "yes")


def test_instructions_benchmark_without_valgrind_or_with_no_checkout_says_so(tmp_path):
    script = os.path.join(BENCH, "instructions.py")
    result = subprocess.run([sys.executable, script, "--game", "shrine"],
                            capture_output=True, text=True,
                            env=dict(os.environ, PATH=str(tmp_path)))
    assert (result.returncode, result.stderr) == (
        1, "bench/instructions.py: valgrind is not installed (Debian's valgrind package "
        "has it)\n")
    result = subprocess.run([sys.executable, script, "--against", str(tmp_path)],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert f"--against {tmp_path}: not a cardarena checkout" in result.stderr


def test_the_readme_quotes_the_networks_figures_as_their_results_page_gives_them():
    root = pathlib.Path(BENCH).parent
    readme = (root / "README.md").read_text()
    results = (root / "docs" / "results" / "learned.md").read_text()
    table = readme[readme.index("| ruleset | guided, 0.1 s a move"):]
    table = table[:table.index("\n\n")]
    quoted = re.findall(r"(\d+\.\d)% \[(\d+\.\d), (\d+\.\d)\]", table)
    assert len(quoted) >= 12
    for score, low, high in quoted:
        assert f"| {score}% | {low}% to {high}% |" in results, (score, low, high)
