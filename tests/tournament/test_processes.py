"""The command's processes: how a run stops on a signal, that its workers end with
it however it ends, that two runs do not write one store at once, and that a Dask
cluster losing a worker still plays every game once."""
import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from tournament.harness import config as configs
from tournament.harness import runner
from tournament.harness.store import Store, StoreFileError
from tournament_helpers import CARDARENA, cli, comparable, rows_in, write_toml

# Games of a second or so, so that a run is well under way, and far from its end,
# when a test stops it.
SLOW = ('game = "card_duel(hand_points=30)"\ndeals = 40\nseed = 7\n[bots]\n'
        'greedy = "greedy"\nismcts = "ismcts(iterations=1000,rollout=heuristic)"\n')
# Seconds any wait of these tests may last: a bound for a machine under load, never a
# measure of speed.
PATIENCE = 120


@contextlib.contextmanager
def started(folder, *args):
    """``cardarena ARGS`` started, its output going to files in ``folder`` (not pipes,
    which a worker left behind would hold open); on the way out it is killed with
    every process it started, whatever became of it."""
    with open(folder / "stdout", "w") as out, open(folder / "stderr", "w") as err:
        process = subprocess.Popen([CARDARENA, *args], stdout=out, stderr=err)
    process.folder, process.descendants = folder, []
    try:
        yield process
    finally:
        for child in [process, *process.descendants]:
            with contextlib.suppress(OSError, psutil.Error):
                child.kill()
        process.wait(timeout=PATIENCE)


def ended(process):
    """Wait for ``process`` to end; returns what it wrote to stdout and to stderr."""
    process.wait(timeout=PATIENCE)
    return (process.folder / "stdout").read_text(), (process.folder / "stderr").read_text()


def wait_until(condition, process):
    """Wait (boundedly) for ``condition()``, failing if ``process`` ends first."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert process.poll() is None, ended(process)[1]
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


def catches(process, signum):
    """Whether ``process`` has a handler for signal ``signum`` yet."""
    with open(f"/proc/{process.pid}/status") as status:
        caught = next(line for line in status if line.startswith("SigCgt:"))
    return int(caught.split()[1], 16) >> (signum - 1) & 1


def descendants(process):
    """Every process ``process`` has started and not yet reaped, remembered so that
    they are killed after the test."""
    found = psutil.Process(process.pid).children(recursive=True)
    process.descendants += found
    return found


def living(processes):
    """Those of ``processes`` still running: a zombie has ended, whether or not the
    process that adopted it reaps it."""
    alive = []
    for p in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                alive.append(p)
    return alive


def assert_all_end(processes):
    deadline = time.monotonic() + PATIENCE
    while living(processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert living(processes) == [], "workers outlived the command"


# --- one writer -----------------------------------------------------------------------

def test_a_second_run_on_a_store_in_use_is_refused_naming_the_first(tmp_path):
    toml, db = write_toml(tmp_path / "t.toml", SLOW), str(tmp_path / "t.db")
    quick = write_toml(tmp_path / "quick.toml", 'game = "card_duel"\ndeals = 1\n[bots]\n'
                       'random = "random"\ngreedy = "greedy"\n')
    with started(tmp_path, "tournament", toml, "--db", db, "--workers", "2",
                 "--quiet") as process:
        wait_until(lambda: rows_in(db) >= 1, process)
        workers = descendants(process)
        for args in (["tournament", toml], ["tournament", quick],
                     ["sprt", toml, "--a", "ismcts", "--b", "greedy"]):
            second = cli(*args, "--db", db, "--quiet")
            assert second.returncode == 1
            assert second.stderr == (
                f"cardarena: {db}: in use by process {process.pid} (cardarena tournament "
                f"{toml} --db {db} --workers 2 --quiet); wait for it to end, or stop it\n")
        # The lock goes with the process, however it ends.
        process.send_signal(signal.SIGKILL)
        ended(process)
        assert_all_end(workers)
    stored = rows_in(db)
    assert cli("tournament", quick, "--db", db, "--quiet").returncode == 0
    assert rows_in(db) == stored + 2


def test_a_store_opened_again_by_another_name_is_in_use(tmp_path):
    # The lock goes by the file, not the name it is opened by: a link to a store in
    # use, or the same file by another path, is refused as the store itself is.
    db = str(tmp_path / "a.db")
    os.symlink("a.db", tmp_path / "link.db")
    with Store(db):
        for other in (str(tmp_path / "link.db"), str(tmp_path / "." / "a.db")):
            with pytest.raises(StoreFileError, match=f"{other}: in use by process "
                               f"{os.getpid()}"):
                Store(other)


# --- signals --------------------------------------------------------------------------

@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_the_workers_end_with_the_command_however_it_is_killed(tmp_path, how):
    toml, db = write_toml(tmp_path / "t.toml", SLOW), str(tmp_path / "t.db")
    with started(tmp_path, "tournament", toml, "--db", db, "--workers", "2",
                 "--quiet") as process:
        wait_until(lambda: rows_in(db) >= 1, process)
        workers = descendants(process)
        assert len(workers) >= 2
        process.send_signal(how)
        _, err = ended(process)
        assert_all_end(workers)
    if how == signal.SIGTERM:
        # Closed as cleanly as by Ctrl-C: no log files and no lock beside the database
        # (looked at before this test opens it), the stored games kept and counted, and
        # the shell's status.
        assert sorted(os.listdir(tmp_path)) == ["stderr", "stdout", "t.db", "t.toml"]
        assert process.returncode == 143, err
        stored = rows_in(db)
        assert err.splitlines()[-1] == (f"Stopped: {stored} of 80 games are stored in {db}; "
                                        "run the same command again to play the rest.")
        assert 1 <= stored < 80


def test_sigterm_stops_a_run_with_one_worker_as_ctrl_c_does(tmp_path):
    # One worker plays in the command's own process, inside whatever the bot is doing.
    toml, db = write_toml(tmp_path / "t.toml", SLOW), str(tmp_path / "t.db")
    with started(tmp_path, "tournament", toml, "--db", db, "--workers", "1",
                 "--quiet") as process:
        wait_until(lambda: rows_in(db) >= 1, process)
        process.send_signal(signal.SIGTERM)
        _, err = ended(process)
    assert process.returncode == 143, err
    assert f"Stopped: {rows_in(db)} of 80 games are stored" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("how, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stopped_sprt_says_so_and_exits_as_a_shell_expects(tmp_path, how, status):
    toml, db = write_toml(tmp_path / "t.toml", SLOW), str(tmp_path / "t.db")
    # A test of 5 Elo is far from deciding when it is stopped.
    with started(tmp_path, "sprt", toml, "--a", "ismcts", "--b", "greedy", "--elo1", "5",
                 "--db", db, "--workers", "2", "--quiet") as process:
        wait_until(lambda: rows_in(db) >= 1, process)
        workers = descendants(process)
        process.send_signal(how)
        out, err = ended(process)
        assert_all_end(workers)
    assert process.returncode == status, err
    assert err.splitlines()[-1].startswith("Stopped after ")
    assert "Traceback" not in err and out == ""


def test_a_stopped_skill_run_exits_143_on_sigterm(tmp_path):
    out = str(tmp_path / "out")
    with started(tmp_path, "skill", "card_duel", "--deals", "30", "--out", out,
                 "--workers", "2", "--quiet") as process:
        wait_until(lambda: rows_in(os.path.join(out, "games.db")) >= 1, process)
        process.send_signal(signal.SIGTERM)
        _, err = ended(process)
    assert process.returncode == 143, err
    assert "Stopped: " in err.splitlines()[-1] and "Traceback" not in err


@pytest.mark.parametrize("how, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_command_without_a_run_exits_as_a_shell_expects_when_stopped(tmp_path, how,
                                                                      status):
    # A long demo between searchers, stopped once the command has taken up SIGTERM.
    with started(tmp_path, "demo", "shrine", "--players",
                 "ismcts(iterations=100000)", "ismcts(iterations=100000)") as process:
        wait_until(lambda: catches(process, signal.SIGTERM), process)
        process.send_signal(how)
        _, err = ended(process)
    assert process.returncode == status, err
    assert "Traceback" not in err


# --- a Dask cluster losing a worker ----------------------------------------------------

DASK = os.path.join(os.path.dirname(sys.executable), "dask")


@contextlib.contextmanager
def dask_cluster(folder, workers):
    """A Dask scheduler and ``workers`` one-thread workers, each a process of its own
    as on a real cluster, on the loopback address; yields the scheduler's address and
    the workers' processes, and kills them all on the way out."""
    processes = []

    def start(name, *args):
        with open(folder / f"{name}.log", "w") as log:
            processes.append(subprocess.Popen([DASK, *args], stdout=log, stderr=log,
                                              cwd=folder))
        return processes[-1]

    address_file = str(folder / "scheduler.json")
    try:
        scheduler = start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0",
                          "--no-dashboard", "--scheduler-file", address_file)
        wait_until(lambda: os.path.exists(address_file), scheduler)
        with open(address_file) as f:
            address = json.load(f)["address"]
        # No nanny, which would restart a killed worker.
        found = [start(f"worker{i}", "worker", "--scheduler-file", address_file, "--host",
                       "127.0.0.1", "--nthreads", "1", "--no-nanny", "--no-dashboard",
                       "--local-directory", str(folder), "--name", f"worker{i}")
                 for i in range(workers)]
        yield address, found
    finally:
        for process in processes:
            process.kill()
            process.wait(timeout=PATIENCE)


def test_a_dask_cluster_that_loses_a_worker_mid_run_still_plays_every_game_once(tmp_path):
    distributed = pytest.importorskip("distributed")
    config = configs.parse({"game": "card_duel", "deals": 4, "seed": 2, "bots": {
        "random": "random", "greedy": "greedy",
        "ismcts": "ismcts(iterations=200,rollout=heuristic)"}})
    with Store(str(tmp_path / "serial.db")) as store:
        runner.run(config, store, workers=1, progress=False)
        serial = comparable(store.games(config.key))
    with dask_cluster(tmp_path, 2) as (address, workers), \
            distributed.Client(address, timeout=PATIENCE) as client:
        client.wait_for_workers(2, timeout=PATIENCE)
        killed = []

        def kill_a_busy_worker(row):
            # Once, as a game is stored while a worker is playing others.
            busy = [w for w, tasks in client.processing().items() if tasks]
            if killed or not busy:
                return
            name = client.scheduler_info()["workers"][busy[0]]["name"]
            victim = workers[int(name.removeprefix("worker"))]
            victim.kill()
            killed.append(victim)

        with Store(str(tmp_path / "dask.db")) as store:
            played = runner.run(config, store, scheduler=address, progress=False,
                                on_row=kill_a_busy_worker)
            rows = comparable(store.games(config.key))
        assert killed and killed[0].wait(timeout=PATIENCE) == -signal.SIGKILL
        assert len(client.scheduler_info()["workers"]) == 1
    assert played == len(serial) == 24
    assert rows == serial
