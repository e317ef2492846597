"""The harness's stores: resuming a stopped run, workers local and on Dask, stores
that cannot be opened or written, and games started again when their inputs change."""
import dataclasses
import os
import pathlib
import re
import resource
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time

import pytest

import core
from search import random_model
from tournament.harness import config as configs
from tournament.harness import runner
from tournament.harness.store import Store, StoreContentError, StoreError, StoreFileError
from tournament_helpers import CARDARENA, cli, comparable, make_config, rows_in, write_toml


# --- resuming, workers ------------------------------------------------------------

def test_a_rerun_plays_nothing_twice_and_more_deals_play_only_the_new_ones(tmp_path):
    config = make_config(deals=2)
    with Store(str(tmp_path / "t.db")) as store:
        assert runner.run(config, store, workers=1, progress=False) == 4
        assert runner.run(config, store, workers=1, progress=False) == 0
        assert runner.run(make_config(deals=3), store, workers=1, progress=False) == 2
        assert len(store.games(config.key)) == 6


def test_results_do_not_depend_on_the_number_of_workers(tmp_path):
    config = make_config(deals=3, bots={"random": "random", "greedy": "greedy",
                                        "ismcts": "ismcts(iterations=30,rollout_depth=4)"})
    results = []
    for workers in (1, 2):
        with Store(str(tmp_path / f"w{workers}.db")) as store:
            runner.run(config, store, workers=workers, progress=False)
            results.append(comparable(store.games(config.key)))
    assert len(results[0]) == 18 and results[0] == results[1]


def test_the_default_workers_are_the_cpus_this_process_may_use(monkeypatch):
    # A batch job (SLURM's srun -c 1, taskset) may use fewer CPUs than the machine has.
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    workers = runner.executor()
    workers.close()
    assert isinstance(workers.pool, runner.Serial)


def test_a_dask_local_cluster_plays_the_same_games(tmp_path):
    distributed = pytest.importorskip("distributed")
    config = make_config(deals=2, bots={"random": "random", "greedy": "greedy",
                                        "ismcts": "ismcts(iterations=30,rollout_depth=4)"})
    with Store(str(tmp_path / "serial.db")) as store:
        runner.run(config, store, workers=1, progress=False)
        serial = comparable(store.games(config.key))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with Store(str(tmp_path / "dask.db")) as store:
            assert runner.run(config, store, scheduler=cluster.scheduler_address,
                              progress=False) == 12
            assert comparable(store.games(config.key)) == serial


def test_a_scheduler_address_that_cannot_be_used_is_one_line(tmp_path):
    pytest.importorskip("distributed")
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 1\n[bots]\n'
                      'a = "random"\nb = "greedy"\n')
    result = cli("tournament", toml, "--db", str(tmp_path / "t.db"), "--scheduler", "nonsense")
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        "cardarena tournament: cannot reach the scheduler nonsense: missing port number in "
        "address 'nonsense'")
    # Nothing is written before the workers are at hand, and the file made for the
    # games is gone with the lock.
    assert sorted(os.listdir(tmp_path)) == ["t.toml"]
    with Store(str(tmp_path / "t.db")) as store:
        store.begin(make_config())
    result = cli("tournament", toml, "--db", str(tmp_path / "t.db"), "--scheduler", "nonsense")
    assert result.returncode == 1
    with Store(str(tmp_path / "t.db"), readonly=True) as store:
        assert [t["key"] for t in store.tournaments()] == [make_config().key]


@pytest.mark.parametrize("how, workers", [(signal.SIGKILL, "1"), (signal.SIGINT, "2")])
def test_a_killed_run_resumes_without_losing_or_repeating_a_game(tmp_path, how, workers):
    # Games of a tenth of a second or more, so that each goes to a worker alone and
    # the run is still going when it is stopped.
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 6\nseed = 5\n'
                      '[bots]\nrandom = "random"\n'
                      'ismcts = "ismcts(iterations=500,rollout_depth=8)"\n'
                      'greedy = "greedy"\n')
    db = str(tmp_path / "t.db")
    process = subprocess.Popen([CARDARENA, "tournament", toml, "--db", db, "--workers",
                                workers, "--quiet"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while rows_in(db) < 6 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(how)
    out, err = process.communicate(timeout=60)
    stored = rows_in(db)
    assert 6 <= stored < 36, "the run should have been stopped midway"
    if how == signal.SIGINT:
        assert process.returncode == 130
        assert f"Stopped: {stored} of 36 games are stored" in err
        assert "Traceback" not in err
    result = cli("tournament", toml, "--db", db, "--workers", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    assert f"{stored} stored in" in result.stderr
    config = configs.load(toml)
    with Store(db) as store:
        rows = store.games(config.key)
    with Store(str(tmp_path / "whole.db")) as whole:
        runner.run(config, whole, workers=2, progress=False)
        assert comparable(rows) == comparable(whole.games(config.key))


def test_a_database_that_is_not_a_store_is_refused_and_left_as_it_was(tmp_path):
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 1\n[bots]\n'
                      'a = "random"\nb = "greedy"\n')
    other = str(tmp_path / "other.db")
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)")
    conn.close()
    for args in (["tournament", toml, "--db", other, "--quiet"], ["ratings", other],
                 ["replay", other, "1"]):
        result = cli(*args)
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert f"{other}: not a cardarena database" in result.stderr
    # Reading another program's database does not add tables to it or change its mode.
    people = str(tmp_path / "people.db")
    with sqlite3.connect(people) as conn:
        conn.execute("CREATE TABLE people (name TEXT)")
    conn.close()
    for args in (["ratings", people], ["replay", people, "1"]):
        assert "not a cardarena database" in cli(*args).stderr
    with sqlite3.connect(people) as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("people",)]
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    conn.close()


def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path):
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 1\n[bots]\n'
                      'a = "random"\nb = "greedy"\n')
    people = tmp_path / "people.db"
    with sqlite3.connect(people) as conn:
        conn.execute("CREATE TABLE people (name TEXT)")
        conn.execute("INSERT INTO people VALUES ('Ada')")
    conn.close()
    before = people.read_bytes()
    for args in (["tournament", toml], ["sprt", toml, "--a", "a", "--b", "b"]):
        result = cli(*args, "--db", str(people), "--quiet")
        assert result.returncode == 1
        assert result.stderr == f"cardarena: {people}: not a cardarena database: no " \
            "tournaments table\n"
    assert people.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["people.db", "t.toml"]


def test_a_store_read_when_stopped_still_closes_without_its_log_files(tmp_path,
                                                                     monkeypatch):
    from tournament.harness import store as stores
    config = make_config(deals=2)
    with Store(str(tmp_path / "t.db")) as store:
        runner.run(config, store, workers=1, progress=False)

    def stopped(row):
        raise KeyboardInterrupt

    monkeypatch.setattr(stores, "_decode", stopped)
    # As in the command: the store is closed while the stop is still on its way out.
    with pytest.raises(KeyboardInterrupt):
        try:
            with Store(str(tmp_path / "t.db")) as store:
                store.games(config.key)
        finally:
            left = sorted(os.listdir(tmp_path))
    assert left == ["t.db"]


def test_a_store_is_written_by_one_store_at_a_time(tmp_path):
    db = str(tmp_path / "t.db")
    with Store(db):
        with pytest.raises(StoreError, match=re.escape(
                f"{db}: in use by process {os.getpid()} (")):
            Store(db)
        with Store(db, readonly=True) as reader:  # readers are welcome
            assert reader.tournaments() == []
    with Store(db) as store:  # the lock went with the first
        store.begin(make_config())
    assert sorted(os.listdir(tmp_path)) == ["t.db"]


def test_a_store_that_cannot_be_opened_says_so(tmp_path):
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 1\n[bots]\n'
                      'a = "random"\nb = "greedy"\n')
    db = str(tmp_path / "no" / "such" / "folder" / "t.db")
    result = cli("tournament", toml, "--db", db)
    assert result.returncode == 1
    assert result.stderr.strip() == f"cardarena: {db}: cannot open: unable to open database file"


def test_a_file_that_cannot_be_opened_is_a_file_error_and_a_missing_game_a_content_one(
        tmp_path):
    with pytest.raises(StoreFileError) as opened:
        Store(str(tmp_path / "no" / "folder" / "t.db"))
    assert isinstance(opened.value, OSError) and not isinstance(opened.value, ValueError)
    db = str(tmp_path / "t.db")
    with Store(db) as store, pytest.raises(StoreContentError) as missing:
        store.begin(make_config())
        store.game(1)
    assert isinstance(missing.value, StoreError) and isinstance(missing.value, ValueError)


def test_a_db_that_names_a_folder_says_so_and_a_config_given_for_a_db_names_the_db(
        tmp_path):
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 1\n[bots]\n'
                      'a = "random"\nb = "greedy"\n')
    (tmp_path / "folder").mkdir()
    result = cli("tournament", toml, "--db", str(tmp_path / "folder"), "--quiet")
    assert result.returncode == 1
    assert result.stderr == (f"cardarena: {tmp_path / 'folder'}: a folder, not a database "
                             f"file; name a file, e.g. {tmp_path / 'folder' / 'games.db'}\n")
    for command in ("ratings", "replay"):
        result = cli(command, toml, *(["1"] if command == "replay" else []))
        assert result.returncode == 1 and result.stderr == (
            f"cardarena: {toml} is a tournament's config, not its database: the games are "
            "in t.db unless --db named another file\n")


def test_a_store_that_may_only_be_read_is_rated_and_replayed():
    """As a user who may read the files and their folder but write none of them."""
    folder = tempfile.mkdtemp()
    try:
        toml = write_toml(pathlib.Path(folder) / "t.toml", 'game = "shrine"\ndeals = 1\n'
                          '[bots]\na = "random"\nb = "greedy"\n')
        db = os.path.join(folder, "t.db")
        assert cli("tournament", toml, "--db", db, "--quiet", "--workers", "1").returncode == 0
        os.chmod(db, 0o444)
        os.chmod(folder, 0o555)
        if os.geteuid() == 0:
            # Permissions do not hold root back: read as nobody instead.
            reader = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", CARDARENA]
        else:
            reader = [CARDARENA]

        def read(*args):
            return subprocess.run(reader + list(args), capture_output=True, text=True,
                                  timeout=300)

        ratings = read("ratings", db, "--bootstrap", "10")
        assert ratings.returncode == 0, ratings.stderr
        assert "Crosstable" in ratings.stdout
        replay = read("replay", db, "1")
        assert replay.returncode == 0 and replay.stdout.startswith("Game 1: shrine"), \
            replay.stderr
        written = read("tournament", toml, "--db", db, "--quiet")
        assert written.returncode == 1
        assert f"{db}: cannot open: attempt to write a readonly database" in written.stderr
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder)


def _limit_memory():
    # Two gigabytes: a run that lists its games before playing them fails at once
    # instead of filling the machine.
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def test_a_tournament_of_more_deals_than_memory_holds_starts_at_once(tmp_path):
    toml = write_toml(tmp_path / "t.toml", f'game = "shrine"\ndeals = {2 ** 63 - 1}\n'
                      '[bots]\na = "random"\nb = "greedy"\n')
    db = str(tmp_path / "t.db")
    process = subprocess.Popen([CARDARENA, "tournament", toml, "--db", db, "--workers", "1",
                                "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=_limit_memory)
    deadline = time.monotonic() + 120
    while rows_in(db) < 4 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert f"= {2 * (2 ** 63 - 1)} games; 0 stored" in err
    assert rows_in(db) >= 4




# --- games started again when what they read changes ----------------------------

def test_a_replaced_network_file_starts_its_games_again(tmp_path):
    path = tmp_path / "net.npz"
    random_model(core.load_game("shrine"), (8,), seed=1).save(path)
    config = configs.Config(game="shrine", bots={"net": f"ismcts(model={path})",
                                                 "plain": "ismcts"}, deals=1)
    first = config.key
    assert dataclasses.replace(config).key == first
    random_model(core.load_game("shrine"), (8,), seed=2).save(path)
    assert dataclasses.replace(config).key != first
    # Bots without a network keep the keys their stores were made with.
    plain = configs.Config(game="shrine", bots={"a": "ismcts", "b": "random"}, deals=1)
    assert plain.networks() == {}
    with Store(str(tmp_path / "games.db")) as store:
        runner.run(config, store, workers=1, progress=False)
        random_model(core.load_game("shrine"), (8,), seed=3).save(path)
        again = dataclasses.replace(config)
        assert store.games(config.key) and not store.games(again.key)


def test_edited_card_files_start_their_games_again(tmp_path, monkeypatch):
    kind = core.GAMES["creature_shrines"]
    copies = []
    for path in kind.data_files:
        copy = tmp_path / pathlib.Path(path).name
        copy.write_bytes(pathlib.Path(path).read_bytes())
        copies.append(copy)
    monkeypatch.setattr(kind, "data_files", tuple(copies))
    config = configs.Config(game="creature_shrines(deck0=green)",
                            bots={"a": "random", "b": "greedy"}, deals=1)
    first = config.key
    assert dataclasses.replace(config).key == first and config.cards()
    # A designer's change of one card count in one deck.
    decks = copies[1].read_text()
    copies[1].write_text(decks.replace('"Blink Wraith" = 3', '"Blink Wraith" = 2', 1))
    assert dataclasses.replace(config).key != first
    # A game with no card files keeps the keys its stores were made with.
    assert configs.Config(game="shrine", bots={"a": "random", "b": "greedy"},
                          deals=1).cards() is None
