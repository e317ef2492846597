"""Perft: the number of action and chance-outcome sequences of each length from fixed
positions, as chess engines count moves.  Any change to what is legal, in any phase of
any variant, changes some count here, so a change of the rules cannot pass unnoticed.

Each ruleset's positions and counts live in ``tests/data/perft/<game>.json``: positions
a few steps into seeded random games of each variant.  After a deliberate rules change,
check the new behaviour with a ruling test, then rewrite the file with
``python tests/kit/test_perft.py --write GAME`` and review the diff.
"""
import json
import os
import random
import sys

import pytest

import core

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from kit.helpers import random_step, variants  # noqa: E402

DATA = os.path.join(os.path.dirname(HERE), "data", "perft")
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


def positions(name):
    """(game string, seed, step, serialized state) of the positions of ``name``: for
    each variant, one position per entry of ``STEPS``, taken from further seeded games
    where a game ends sooner."""
    found = []
    for index, spec in enumerate(variants(core.GAMES[name])):
        game = core.load_game(spec)
        targets = list(STEPS)
        seed = index
        while targets:
            rng = random.Random(seed)
            state = game.new_initial_state()
            step = 0
            while targets and not state.is_terminal():
                if step == targets[0]:
                    found.append((spec, seed, step, state.serialize()))
                    targets.pop(0)
                else:
                    random_step(state, rng)
                    step += 1
            seed += 1000
    return found


def path(name):
    return os.path.join(DATA, f"{name}.json")


def write(name):
    rows = []
    for spec, seed, step, data in positions(name):
        state = core.load_game(spec).deserialize_state(data)
        rows.append({"game": spec, "seed": seed, "step": step,
                     "player": state.current_player(), "state": data,
                     "counts": [perft(state, d) for d in range(1, DEPTH + 1)]})
    os.makedirs(DATA, exist_ok=True)
    with open(path(name), "w") as f:
        json.dump(rows, f, indent=1)
        f.write("\n")
    print(f"wrote {len(rows)} positions to {path(name)}")


def load(name):
    with open(path(name)) as f:
        return json.load(f)


@pytest.mark.parametrize("name", sorted(core.GAMES))
def test_every_ruleset_has_positions_for_every_variant(name):
    assert os.path.exists(path(name)), \
        f"no perft file for {name}: python tests/kit/test_perft.py --write {name}"
    assert {row["game"] for row in load(name)} == set(variants(core.GAMES[name]))


# Read at import so each position is a test of its own; a missing file fails the test
# above instead of hiding here.
ROWS = [row for name in sorted(core.GAMES) if os.path.exists(path(name)) for row in load(name)]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row['game']}@{row['step']}")
def test_perft(row):
    state = core.load_game(row["game"]).deserialize_state(row["state"])
    assert [perft(state, d) for d in range(1, DEPTH + 1)] == row["counts"]


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "--write" or sys.argv[2] not in core.GAMES:
        sys.exit(f"usage: python tests/kit/test_perft.py --write GAME "
                 f"(one of {', '.join(sorted(core.GAMES))})")
    write(sys.argv[2])
