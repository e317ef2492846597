"""The tournament harness: configs, scheduling, playing, replaying and reporting."""
import datetime
import errno
import json
import os
import pathlib
import re
import sqlite3
import tempfile

import pytest

import core
from tournament.harness import config as configs
from tournament.harness import runner
from tournament.harness.store import Store
from tournament_helpers import HERE, ROOT, cli, make_config, write_toml


def run_command(tmp_path, toml_text, *args):
    """Run ``cardarena tournament`` on a config (its Python bots found among the
    tests); returns the database's path and its games."""
    toml, db = write_toml(tmp_path / "t.toml", toml_text), str(tmp_path / "t.db")
    result = cli("tournament", toml, "--db", db, "--quiet", *args,
                 env=dict(os.environ, PYTHONPATH=HERE))
    assert result.returncode == 0, result.stderr
    with Store(db) as store:
        return db, store.games(store.tournament()["key"])


# --- configs ----------------------------------------------------------------------

@pytest.mark.parametrize("fields, message", [
    ({"game": None}, "game is a string"),
    ({"game": "nosuchgame"}, "game: unknown game 'nosuchgame'; ours are "
     + ", ".join(sorted(core.GAMES))),
    ({"game": "shrin"}, "game: unknown game 'shrin' (did you mean shrine or "),
    ({"game": "shrine(life=3)"}, "game: shrine has no parameter 'life'; its parameters"),
    ({"game": "shrine(alt_heal=maybe)"},
     "game: shrine parameter alt_heal must be bool (default false), not 'maybe'"),
    ({"game": "shrine(("}, "game: cannot read game string 'shrine(('"),
    ({"game": "misere(game=nosuchgame())"},
     "game: cannot load 'misere(game=nosuchgame())': Unknown game 'nosuchgame'"),
    ({"game": "blackjack"}, "game: blackjack is a one-player game"),
    ({"game": "goofspiel(num_cards=4)"}, "game: goofspiel is a simultaneous-move game; "
     "the harness plays games in turns, as "
     "turn_based_simultaneous_game(game=goofspiel(num_cards=4))"),
    ({"game": "goofspiel"}, "as turn_based_simultaneous_game(game=goofspiel())"),
    # Its deals come from the game's own generator, whatever bots play it.
    ({"game": "tarok", "bots": {"a": {"python": "faulty_bots:raiser", "args": {"after": 99}},
                                "b": {"python": "faulty_bots:raiser", "args": {"after": 99}}}},
     "game: tarok draws its own chance outcomes"),
    ({"deals": 0}, "deals is an integer at least 1, not 0"),
    ({"deals": 2.5}, "deals is an integer at least 1, not 2.5"),
    ({"seed": -1}, "seed is an integer at least 0, not -1"),
    ({"seconds_per_move": 0}, "seconds_per_move is a number above 0 and at most 86400, "
     "not 0.0"),
    ({"seconds_per_move": "fast"},
     "seconds_per_move is a number above 0 and at most 86400, not 'fast'"),
    ({"seconds_per_move": 1e300}, "seconds_per_move is a number above 0 and at most 86400"),
    ({"max_length": 0}, "max_length is an integer at least 1, not 0"),
    ({"bots": {"only": "random"}}, "bots is a table of at least two"),
    ({"bots": {"a": "random", "b": "nosuchbot"}}, "bots.b: unknown bot kind 'nosuchbot'"),
    ({"bots": {"a": "random", "b": "ismcts(iterations=-4)"}}, "bots.b: ismcts: iterations"),
    ({"bots": {"a": "random", "b": "ismcts(depth=2)"}}, "bots.b: ismcts has no parameter"),
    ({"bots": {"a": "random", "b": 7}}, "bots.b: a bot is a spec string, or"),
    ({"bots": {"a": "random", "b": f"ismcts(iterations={10 ** 30})"}},
     "bots.b: cannot make the bot: OverflowError: "),
    ({"bots": {"a": "random", "b c": "random"}}, "bots: the name 'b c' may hold only"),
    ({"bots": {"a": "random", "b": {"python": "nosuchmodule:make"}}},
     "bots.b: cannot find 'nosuchmodule:make'"),
    ({"bots": {"a": "random", "b": {"python": "faulty_bots:not_a_bot"}}},
     "bots.b: faulty_bots:not_a_bot returned str, not a pyspiel.Bot"),
    ({"bots": {"a": "random", "b": {"python": "faulty_bots:raiser", "args": {"x": 1}}}},
     "bots.b: faulty_bots:raiser failed: TypeError"),
    ({"rounds": 3}, "unknown field 'rounds'; the fields are: game"),
    # The store keeps a bot's spec as JSON, which has no dates.
    ({"bots": {"a": "random", "b": {"python": "faulty_bots:raiser",
                                    "args": {"after": datetime.date(1979, 5, 27)}}}},
     "bots.b: args hold strings, numbers, booleans, arrays and tables: Object of type date "
     "is not JSON serializable"),
])
def test_a_bad_config_is_refused_naming_the_field(fields, message):
    with pytest.raises(configs.ConfigError) as e:
        make_config(**fields)
    assert message in str(e.value)


def test_a_config_needs_game_bots_and_deals():
    for field in ("game", "bots", "deals"):
        data = {"game": "shrine", "deals": 1, "bots": {"a": "random", "b": "random"}}
        del data[field]
        with pytest.raises(configs.ConfigError, match=f"^{field} is missing"):
            configs.parse(data)


@pytest.mark.parametrize("game, loaded", [
    ("  shrine  ", "shrine"),
    # Game strings that hold game strings, as OpenSpiel's game transforms take them.
    ("misere(game=tic_tac_toe())", "misere(game=tic_tac_toe())"),
    ("turn_based_simultaneous_game(game=goofspiel(num_cards=4))",
     "turn_based_simultaneous_game(game=goofspiel(num_cards=4))"),
])
def test_any_game_string_pyspiel_loads_is_played(game, loaded):
    config = make_config(game=game, bots={"a": "random", "b": "random"})
    assert config.game == loaded
    row = runner.play(runner.job(config, 0, ("a", "b")))
    assert row.status == "ok" and len(row.returns) == 2


def test_a_search_bot_that_cannot_play_a_game_is_refused_before_any_game():
    with pytest.raises(configs.ConfigError, match="bots.b: ismcts samples worlds"):
        make_config(game="gin_rummy", bots={"a": "random", "b": "ismcts"})


def test_the_command_refuses_a_bad_file_before_it_starts(tmp_path):
    bad = write_toml(tmp_path / "bad.toml", 'game = "shrine"\ndeals = 2\n[bots]\na = "random"\n'
                     'b = "ismcts(uct_c=-1)"\n')
    result = cli("tournament", bad, "--db", str(tmp_path / "t.db"))
    assert result.returncode == 1
    assert "bad.toml: bots.b: ismcts: uct_c must be" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "t.db").exists()
    broken = write_toml(tmp_path / "broken.toml", "game = \n")
    result = cli("tournament", broken)
    assert result.returncode == 1 and "broken.toml: not valid TOML" in result.stderr
    result = cli("tournament", str(tmp_path / "missing.toml"))
    assert result.returncode == 1 and "missing.toml: cannot read" in result.stderr


@pytest.mark.parametrize("command", [["tournament"], ["sprt", "--a", "a", "--b", "b"]])
def test_a_config_that_is_not_utf8_gets_one_line(tmp_path, command):
    (tmp_path / "b.toml").write_bytes(b"\xff\xfe\x00x")
    result = cli(command[0], str(tmp_path / "b.toml"), *command[1:], cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip() == (f"cardarena {command[0]}: {tmp_path / 'b.toml'}: not "
                                     "UTF-8 text (byte 0xff at offset 0): TOML files are "
                                     "UTF-8")
    assert not list(tmp_path.glob("*.db"))


def test_a_config_with_a_byte_order_mark_is_read():
    text = 'game = "shrine"\ndeals = 2\n[bots]\na = "random"\nb = "greedy"\n'
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder, "bom.toml")
        path.write_bytes(b"\xef\xbb\xbf" + text.encode())
        assert configs.load(str(path)).bots == {"a": "random", "b": "greedy"}


def test_a_python_bot_in_the_current_directory_is_found_without_pythonpath(tmp_path):
    (tmp_path / "mybots.py").write_text(
        "import search\n\n\ndef make(game, player, seed):\n"
        "    return search.make_bot('random', game, player, seed)\n")
    write_toml(tmp_path / "t.toml", 'game = "card_duel"\ndeals = 1\n[bots]\n'
               'mine = { python = "mybots:make" }\nrandom = "random"\n')
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = cli("tournament", "t.toml", "--quiet", "--bootstrap", "10", cwd=tmp_path,
                 env=env)
    assert result.returncode == 0, result.stderr
    with Store(str(tmp_path / "t.db")) as store:
        rows = store.games(store.tournament()["key"])
    assert len(rows) == 2 and all(r.status == "ok" for r in rows)


def test_counts_of_one_are_told_in_the_singular(tmp_path):
    write_toml(tmp_path / "t.toml", 'game = "card_duel"\ndeals = 1\n[bots]\n'
               'a = "random"\nb = "greedy"\n')
    result = cli("tournament", "t.toml", "--quiet", "--bootstrap", "10", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "card_duel: 2 bots, 1 deal of 2 seatings = 2 games; 0 stored in t.db" \
        in result.stderr
    assert "Only 1 deal: with fewer than 20" in result.stdout


@pytest.mark.parametrize("full", [
    OSError(errno.ENOSPC, "No space left on device", "t.db"),
    sqlite3.OperationalError("database or disk is full")])
def test_a_disk_that_fills_midway_ends_the_run_in_one_line(tmp_path, monkeypatch, capsys,
                                                          full):
    from tournament import cli
    from tournament.harness.store import Store
    write_toml(tmp_path / "t.toml", 'game = "card_duel"\ndeals = 2\n[bots]\n'
               'a = "random"\nb = "greedy"\n')
    monkeypatch.chdir(tmp_path)
    add_all = Store.add_all

    def filling(store, config, rows):
        if store.games(config.key):
            raise full
        return add_all(store, config, rows)
    monkeypatch.setattr(Store, "add_all", filling)
    with pytest.raises(SystemExit) as stop:
        cli.main(["tournament", "t.toml", "--quiet", "--workers", "1"])
    said = str(stop.value.code)
    assert said.startswith("cardarena tournament: cannot write: ") and "\n" not in said
    assert said.endswith("; what was written before is kept")
    assert ("No space left on device" if isinstance(full, OSError) else "disk is full") \
        in said
    with Store("t.db", readonly=True) as store:
        assert store.games(store.tournament()["key"])


def test_a_run_asking_fewer_deals_than_stored_counts_only_those_asked(tmp_path):
    for deals, said in ((2, "= 4 games; 0 stored"), (1, "= 2 games; 2 stored")):
        write_toml(tmp_path / "t.toml", f'game = "card_duel"\ndeals = {deals}\n[bots]\n'
                   'a = "random"\nb = "greedy"\n')
        result = cli("tournament", "t.toml", "--quiet", "--bootstrap", "10", cwd=tmp_path)
        assert result.returncode == 0 and said in result.stderr, result.stderr


def test_the_card_duel_example_says_which_bots_it_seats():
    with open(os.path.join(EXAMPLES, "card_duel.toml")) as f:
        comment = f.read().split("\ngame")[0]
    assert "random and greedy play against two searchers" in comment
    assert sorted(configs.load(os.path.join(EXAMPLES, "card_duel.toml")).bots) == [
        "expectimax", "greedy", "ismcts", "random"]


GOOFSPIEL = "turn_based_simultaneous_game(game=goofspiel(num_cards=4,imp_info=true))"


def test_a_game_without_a_resampler_prints_nothing_of_openspiels_when_no_bot_needs_one(
        tmp_path):
    write_toml(tmp_path / "t.toml", f'game = "{GOOFSPIEL}"\ndeals = 1\n[bots]\n'
               'a = "random"\nb = "cheater(iterations=20)"\n')
    result = cli("tournament", "t.toml", "--quiet", "--bootstrap", "10", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "ResampleFromInfostate" not in result.stderr + result.stdout
    assert result.stderr.count("\n") == 1   # the line that says what is played


def test_a_bot_that_needs_the_missing_resampler_is_refused_in_one_line(tmp_path):
    write_toml(tmp_path / "t.toml", f'game = "{GOOFSPIEL}"\ndeals = 1\n[bots]\n'
               'a = "random"\nb = "greedy"\n')
    result = cli("tournament", "t.toml", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "OpenSpiel exception" not in result.stderr
    assert "bots.b: greedy samples worlds from what a player knows" in result.stderr


def test_raising_deals_extends_a_tournament_and_other_fields_start_a_new_one():
    base = make_config()
    assert make_config(deals=7).key == base.key
    assert make_config(seed=4).key != base.key
    assert make_config(bots={"random": "random", "other": "greedy"}).key != base.key


# --- scheduling -------------------------------------------------------------------

def test_two_seat_games_play_every_ordered_pair_on_every_deal():
    config = make_config(bots={"a": "random", "b": "random", "c": "greedy"}, deals=2)
    games = list(config.games())
    assert len(games) == 2 * 6
    assert {s for d, s, _ in games if d == 0} == {("a", "b"), ("b", "a"), ("a", "c"),
                                                   ("c", "a"), ("b", "c"), ("c", "b")}


def test_tables_of_more_seats_are_played_in_every_seat_assignment():
    four = make_config(game="kuhn_poker(players=3)",
                       bots={"a": "random", "b": "random", "c": "random", "d": "random"})
    assert len(four.seatings()) == 4 * 6          # 4 tables of 3, each in 3! orders
    assert len(set(four.seatings())) == 24
    two = make_config(game="kuhn_poker(players=3)", bots={"a": "random", "b": "random"})
    # Fewer bots than seats: every seating that leaves nobody out.
    assert sorted(two.seatings()) == sorted(
        s for s in [(x, y, z) for x in "ab" for y in "ab" for z in "ab"] if len(set(s)) == 2)


def test_a_deal_is_the_same_chance_seed_in_every_seating_and_differs_between_deals():
    config = make_config()
    seeds = {runner.job(config, *g)["deal_seed"] for g in config.games() if g[0] == 0}
    assert len(seeds) == 1
    assert config.deal_seed(0) != config.deal_seed(1)


# --- playing ----------------------------------------------------------------------

def test_a_duplicate_pair_starts_both_games_from_the_same_deal():
    config = make_config()
    first, second = (runner.play(runner.job(config, 0, s)) for s in config.seatings())
    # Shrine's deal is its opening chance outcomes; both seatings get the same ones.
    assert first.history[:10] == second.history[:10]
    assert first.status == second.status == "ok"
    assert sorted(first.returns) == [-1.0, 1.0]


def test_a_game_stops_at_the_length_limit_as_it_stands():
    config = make_config(max_length=5)
    row = runner.play(runner.job(config, 0, ("random", "greedy")))
    assert row.status == "length" and row.length == 5
    assert row.returns == [0.0, 0.0] and row.failed is None


@pytest.mark.parametrize("bot, status, message", [
    ({"python": "faulty_bots:raiser", "args": {"after": 3}}, "error",
     "RuntimeError: the bot broke"),
    ({"python": "faulty_bots:cheat", "args": {"after": 2}}, "illegal", "which is not legal"),
    ({"python": "faulty_bots:sleeper", "args": {"after": 1, "seconds": 0.5}}, "timeout",
     r"took [\d.]+ s of 0\.2 s"),
    # Far past the limit (a hard limit of 2 * 0.2 + 1 s), the move is cut short instead
    # of waited for; the time it took depends on the machine, so only its form is checked.
    ({"python": "faulty_bots:sleeper", "args": {"after": 1, "seconds": 60}}, "timeout",
     r"^stopped after [\d.]+ s$"),
    # A bot that catches every Exception in its search is still stopped.
    ({"python": "faulty_bots:stubborn", "args": {"after": 1, "seconds": 6}}, "timeout",
     r"^stopped after [\d.]+ s$"),
    # 0.0 is no action, though it equals one: pyspiel refuses it.
    ({"python": "faulty_bots:floater", "args": {"after": 2}}, "illegal", r"\.0, which is not"),
    ({"python": "faulty_bots:meddler", "args": {"after": 2}}, "illegal",
     "changed the game's state"),
    ({"python": "faulty_bots:gossip", "args": {"after": 2}}, "error",
     "RuntimeError in inform_action: the bot broke on being told a move"),
    ({"python": "faulty_bots:quitter", "args": {"after": 1}}, "error", "SystemExit: 3"),
    ({"python": "faulty_bots:aborter", "args": {"after": 1}}, "error", "Abort: gave up"),
])
def test_a_failing_bot_loses_the_game_and_the_failure_is_recorded(bot, status, message):
    config = make_config(seconds_per_move=0.2, bots={"random": "random", "bad": bot})
    for seating in config.seatings():
        row = runner.play(runner.job(config, 0, seating))
        seat = seating.index("bad")
        assert (row.status, row.failed) == (status, "bad")
        assert re.search(message, row.message), row.message
        assert row.returns[seat] == -1.0 and row.returns[1 - seat] == 1.0


def test_a_move_the_timer_cannot_stop_is_reported_with_the_time_it_took():
    # The hard limit is 2 * 0.05 + 1 = 1.1 s; the bot runs 2 s before it can be stopped.
    config = make_config(seconds_per_move=0.05, bots={
        "random": "random", "bad": {"python": "faulty_bots:deaf",
                                    "args": {"after": 0, "seconds": 2.0}}})
    row = runner.play(runner.job(config, 0, ("bad", "random")))
    assert (row.status, row.failed) == ("timeout", "bad")
    taken = float(re.fullmatch(r"stopped after ([\d.]+) s", row.message).group(1))
    assert taken >= 2.0 and row.seconds[0] >= 2.0


def test_a_bot_that_cannot_be_made_for_its_seat_is_the_one_that_loses():
    config = make_config()
    job = runner.job(config, 0, ("random", "greedy"))
    job["specs"][1] = {"python": "faulty_bots:not_a_bot"}
    row = runner.play(job)
    assert (row.status, row.failed) == ("error", "greedy")
    assert "returned str, not a pyspiel.Bot" in row.message
    assert row.returns == [1.0, -1.0]


def test_failures_do_not_stop_the_run_and_every_game_is_stored(tmp_path):
    config = make_config(bots={"random": "random", "greedy": "greedy",
                               "bad": {"python": "faulty_bots:raiser", "args": {"after": 2}}})
    with Store(str(tmp_path / "t.db")) as store:
        assert runner.run(config, store, workers=1, progress=False) == 12
        rows = store.games(config.key)
    statuses = {(tuple(r.seating), r.status) for r in rows}
    assert all(status == "error" for seating, status in statuses if "bad" in seating)
    assert all(status == "ok" for seating, status in statuses if "bad" not in seating)


def test_a_bot_that_raises_keyboard_interrupt_in_a_worker_loses_and_the_run_goes_on(tmp_path):
    # Workers ignore Ctrl-C, which stops the command: a KeyboardInterrupt in a worker is
    # the bot's own.
    _, rows = run_command(tmp_path, 'game = "shrine"\ndeals = 1\n[bots]\nrandom = "random"\n'
                          'bad = { python = "faulty_bots:interrupter", args = { after = 2 } }\n',
                          "--workers", "2")
    assert [(r.status, r.failed, r.message) for r in rows] == [
        ("error", "bad", "KeyboardInterrupt: the bot's own")] * 2


def test_a_bot_that_kills_its_worker_loses_and_the_run_goes_on(tmp_path):
    _, rows = run_command(tmp_path, 'game = "shrine"\ndeals = 2\n[bots]\nrandom = "random"\n'
                          'greedy = "greedy"\n'
                          'killed = { python = "faulty_bots:killed", args = { after = 2 } }\n',
                          "--workers", "2")
    assert len(rows) == 12
    for row in rows:
        if "killed" in row.seating:
            assert (row.status, row.failed) == ("error", "killed")
            assert "its process died" in row.message
            seat = row.seating.index("killed")
            assert row.returns[seat] == -1.0 and row.returns[1 - seat] == 1.0
        else:
            assert row.status == "ok"


def test_a_bot_that_kills_its_dask_worker_loses_and_the_run_goes_on(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv("PYTHONPATH", HERE)   # for the cluster's worker processes
    config = make_config(deals=1, bots={
        "random": "random", "killed": {"python": "faulty_bots:killed", "args": {"after": 2}}})
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with Store(str(tmp_path / "t.db")) as store:
            assert runner.run(config, store, scheduler=cluster.scheduler_address,
                              progress=False) == 2
            rows = store.games(config.key)
    assert {(r.status, r.failed) for r in rows} == {("error", "killed")}


def test_an_n_player_openspiel_game_plays_every_seating_and_stores_it(tmp_path):
    config = make_config(game="kuhn_poker(players=3)", deals=3,
                         bots={"random": "random", "cheater": "cheater(iterations=30)",
                               "mcts": "openspiel_mcts(iterations=20)"})
    with Store(str(tmp_path / "t.db")) as store:
        assert runner.run(config, store, workers=1, progress=False) == 3 * 6
        rows = store.games(config.key)
    assert {tuple(r.seating) for r in rows} == set(config.seatings())
    for row in rows:
        assert row.status == "ok" and len(row.returns) == 3
        assert abs(sum(row.returns)) < 1e-9
        assert row.game == "kuhn_poker(players=3)"


def test_a_stored_row_holds_everything_about_the_game(tmp_path):
    config = make_config(deals=1)
    with Store(str(tmp_path / "t.db")) as store:
        runner.run(config, store, workers=1, progress=False)
        row = store.games(config.key)[0]
    assert row.tournament == config.key and row.game == "shrine"
    assert row.deal == 0 and row.deal_seed == config.deal_seed(0)
    assert row.specs == [config.bots[n] for n in row.seating]
    assert len(row.seconds) == 2 and all(s > 0 for s in row.seconds)
    # The history replays to the stored result.
    import pyspiel
    state = pyspiel.load_game("shrine").new_initial_state()
    for action in row.history:
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == row.returns
    assert sum(1 for _ in row.history) > row.length


# --- replay -----------------------------------------------------------------------

def test_replay_tells_a_stored_game_in_words(tmp_path):
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 1\n[bots]\n'
                      'alice = "random"\nbob = "greedy"\n')
    db = str(tmp_path / "t.db")
    # Workers store games as they end; one worker stores them in seating order, so
    # game 1 is alice against bob.
    assert cli("tournament", toml, "--db", db, "--quiet", "--workers", "1").returncode == 0
    result = cli("replay", db, "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Game 1: shrine, deal 0 (seed ")
    assert "player 0 alice = random" in lines[0] and "player 1 bob = greedy" in lines[0]
    assert "Turn 1, player 0 (alice) to play" in lines
    assert any(line.startswith("  player 1 (bob): ") for line in lines)
    assert lines[-2].startswith(("Player 0 (alice) wins", "Player 1 (bob) wins"))
    assert lines[-1].startswith("Returns: player 0 (alice) ")
    assert cli("replay", db, "99").stderr.strip() == f"cardarena replay: {db}: no game 99"
    huge = str(10 ** 30)   # beyond SQLite's integers
    assert cli("replay", db, huge).stderr.strip() == f"cardarena replay: {db}: no game {huge}"
    assert "no such file" in cli("replay", str(tmp_path / "none.db"), "1").stderr


def test_replay_tells_an_openspiel_game_and_a_failure(tmp_path):
    db, rows = run_command(tmp_path, 'game = "leduc_poker"\ndeals = 1\n[bots]\n'
                           'random = "random"\n'
                           'bad = { python = "faulty_bots:raiser", args = { after = 1 } }\n')
    failed = [r for r in rows if r.status == "error"]
    assert failed
    result = cli("replay", db, str(failed[0].id))
    assert result.returncode == 0, result.stderr
    assert "  chance: " in result.stdout
    assert "bad lost by error: RuntimeError: the bot broke" in result.stdout


# --- examples and reports -------------------------------------------------------------

EXAMPLES = os.path.join(ROOT, "examples")


@pytest.mark.parametrize("name", sorted(os.listdir(EXAMPLES)))
def test_every_example_config_is_valid(name):
    config = configs.load(os.path.join(EXAMPLES, name))
    assert config.deals >= 1 and len(config.bots) >= 2


def test_the_readme_runs_an_example_that_exists():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    command = next(line for line in readme.splitlines() if "cardarena tournament" in line)
    path = command.split("cardarena tournament ")[1].split()[0]
    assert os.path.exists(os.path.join(ROOT, path))


def test_the_command_prints_ratings_and_they_print_again_in_every_format(tmp_path):
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 2\nseed = 2\n[bots]\n'
                      'random = "random"\ngreedy = "greedy"\n'
                      'ismcts = "ismcts(iterations=200,rollout_depth=8)"\n')
    db = str(tmp_path / "t.db")
    result = cli("tournament", toml, "--db", db, "--workers", "2", "--bootstrap", "50")
    assert result.returncode == 0, result.stderr
    assert "3 bots, 2 deals of 6 seatings = 12 games; 0 stored in" in result.stderr
    assert "12/12" in result.stderr and "leader " in result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("shrine, tournament ")
    header = next(i for i, line in enumerate(lines) if line.startswith("rank"))
    ranked = [lines[header + 2 + k].split()[1] for k in range(3)]
    assert ranked[-1] == "random"
    again = cli("ratings", db, "--bootstrap", "50")
    assert again.stdout == result.stdout
    markdown = cli("ratings", db, "--format", "markdown", "--bootstrap", "50").stdout
    assert "| rank | bot |" in markdown
    csv_text = cli("ratings", db, "--format", "csv", "--bootstrap", "50").stdout
    assert csv_text.splitlines()[0].startswith("rank,bot,spec,elo")
    data = json.loads(cli("ratings", db, "--format", "json", "--bootstrap", "50").stdout)
    assert [r["bot"] for r in data["ratings"]] == ranked
    listed = cli("ratings", db, "--list").stdout
    assert "shrine  12 games  bots: random, greedy, ismcts" in listed
    games = cli("ratings", db, "--games").stdout.splitlines()
    assert len(games) == 12 and games[0].split()[0] == "1"
    assert "no such file" in cli("ratings", str(tmp_path / "none.db")).stderr
    assert "no tournament with a key starting 'zz'" in cli(
        "ratings", db, "--tournament", "zz").stderr

