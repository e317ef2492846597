"""What the tournament tests share: the command, configs written to files, and games
compared without what differs between two runs."""
import contextlib
import json
import os
import sqlite3
import subprocess
import sys

from tournament.harness import config as configs

CARDARENA = os.path.join(os.path.dirname(sys.executable), "cardarena")
# This folder, where configs find the tests' Python bots (faulty_bots.py).
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def make_config(**fields):
    data = {"game": "shrine", "deals": 2, "seed": 3, "seconds_per_move": 10.0,
            "bots": {"random": "random", "greedy": "greedy"}}
    data.update(fields)
    return configs.parse(data)


def write_toml(path, text):
    path.write_text(text)
    return str(path)


def cli(*args, cwd=None, env=None):
    return subprocess.run([CARDARENA, *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=env)


def comparable(rows):
    """Rows without what differs between two runs of the same games: ids, times."""
    keep = ("deal", "deal_seed", "seating", "specs", "returns", "length", "history",
            "status", "failed")
    return sorted(json.dumps({k: v for k, v in row.to_dict().items() if k in keep},
                             sort_keys=True) for row in rows)


def rows_in(db):
    """The games stored in the SQLite file ``db`` so far, 0 if none can be read."""
    if not os.path.exists(db):
        return 0
    try:
        # Closed at once: a connection left open would keep the log files of the run
        # that is being watched from being cleared when it ends.
        with contextlib.closing(sqlite3.connect(db)) as conn:
            return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
