"""Perft: the number of action and chance-outcome sequences of each length from fixed
positions, as chess engines count moves.  Any change to what is legal, in any phase of
any optional rule, changes some count here, so a change of the rules cannot pass
unnoticed.

The positions and their counts live in ``data/shrine_perft.json``.  After a deliberate
rules change, check the new behaviour with a ruling test, then rewrite the file with
``python tests/test_shrine_perft.py --write`` and review the diff.
"""
import json
import os
import random
import sys

import pytest

import core
from conftest import VARIANTS, random_step

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "shrine_perft.json")
DEPTH = 5
# Steps into a seeded random game at which a position is taken: the first turn, the
# early game, the middle.
STEPS = (20, 45, 90, 160, 260)


def perft(state, depth):
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def positions():
    """(game string, seed, step, serialized state) of every position in the file."""
    found = []
    for seed, spec in enumerate(VARIANTS):
        game = core.load_game(spec)
        rng = random.Random(seed)
        state = game.new_initial_state()
        step = 0
        for target in STEPS:
            while step < target and not state.is_terminal():
                random_step(state, rng)
                step += 1
            if not state.is_terminal():
                found.append((spec, seed, step, state.serialize()))
    return found


def write():
    rows = []
    for spec, seed, step, data in positions():
        state = core.load_game(spec).deserialize_state(data)
        rows.append({"game": spec, "seed": seed, "step": step, "phase": state.to_dict()["phase"],
                     "state": data, "counts": [perft(state, d) for d in range(1, DEPTH + 1)]})
    os.makedirs(os.path.dirname(DATA), exist_ok=True)
    with open(DATA, "w") as f:
        json.dump(rows, f, indent=1)
        f.write("\n")
    print(f"wrote {len(rows)} positions to {DATA}")


def load():
    with open(DATA) as f:
        return json.load(f)


def test_the_positions_cover_every_variant_and_many_phases():
    rows = load()
    assert {row["game"] for row in rows} == set(VARIANTS)
    assert len({row["phase"] for row in rows}) >= 5


# Read at import so each position is a test of its own; a missing file fails the test
# above instead of hiding here.
ROWS = load() if os.path.exists(DATA) else []


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row['game']}@{row['step']}")
def test_perft(row):
    state = core.load_game(row["game"]).deserialize_state(row["state"])
    assert [perft(state, d) for d in range(1, DEPTH + 1)] == row["counts"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_shrine_perft.py --write")
    write()
