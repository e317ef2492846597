"""A position's dict is the whole position, on every registered game: a state rebuilt
from ``to_dict()`` (by the game's ``state_from_dict``) or from ``serialize()`` is the
same position, gives the same dict and plays the same next steps.

A field the dict forgets makes a copy play differently from its original (a search, a
saved game and a replay then part from the game).  A stale field the dict writes but
the reader fills afresh shows here too: the copy carries it no further, and the next
position that writes it differs."""
import pytest

from kit.helpers import played, settings

SETTINGS = settings()
GAMES = 4


def rebuilt(state):
    game = state.game
    return {"to_dict": game.state_from_dict(state.to_dict()),
            "serialize": game.deserialize_state(state.serialize())}


def difference(a, b, path=""):
    """Where two plain values first differ, as a path, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}"
            found = difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            found = difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {a!r} against {b!r}"


def next_steps(state):
    """What ``state`` offers now and where each of its actions or outcomes leads."""
    legal = state.legal_actions()
    after = []
    for a in legal:
        child = state.clone()
        child.apply_action(a)
        after.append(child.to_dict())
    return {"player": state.current_player(), "legal": legal,
            "names": [state.action_to_string(a) for a in legal],
            "chance": state.chance_outcomes(), "returns": state.returns(), "after": after}


@pytest.mark.parametrize("game", SETTINGS)
def test_a_position_rebuilt_from_its_dict_is_the_same_and_plays_the_same(game):
    for seed in range(GAMES):
        for i, state in enumerate(played(game, seed)):
            steps = next_steps(state)
            for how, twin in rebuilt(state).items():
                where = f"seed {seed}, step {i}, rebuilt from {how}"
                assert twin == state, where
                assert twin.to_dict() == state.to_dict(), where
                found = next_steps(twin)
                assert found == steps, f"{where}, the original then the copy: " \
                                       f"{difference(steps, found)}"
