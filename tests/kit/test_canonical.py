"""A position's strings are its views as compact JSON with sorted keys, as ``json``
writes them, on every registered game: orjson writes them, and json where the two
would differ.  (A game played through pyspiel keeps pyspiel's strings.)"""
import json

import pytest

from core.state import canonical_json
from kit.helpers import played, settings


def as_json_writes(value):
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@pytest.mark.parametrize("game", settings())
def test_strings_are_the_views_as_json_writes_them(game):
    for seed in range(2):
        for state in played(game, seed):
            assert state.serialize() == as_json_writes(state.to_dict())
            for p in range(game.num_players):
                assert state.information_state_string(p) \
                    == as_json_writes(state.observation_dict(p))


@pytest.mark.parametrize("value", [
    {"b": [1, -2, True, None], "a": {"d": "x", "c": []}},
    {"card": "Caf\u00e9", "n": 1},  # json escapes what is not ASCII
    {"p": [1e-7, 0.25, 1e16, -0.0]},  # and writes small exponents with two digits
    {"name": "one-eyed"},
    {3: "a", 1: "b"},  # keys that are not strings become strings
    [2 ** 70],  # past 64 bits
])
def test_the_canonical_text_is_what_json_writes(value):
    assert canonical_json(value) == as_json_writes(value)
