"""An energy deck-builder position's dict is the whole position and nothing more: along
seeded random games, a state rebuilt from ``to_dict()`` or from ``serialize()`` equals
the original, gives the same dict, views and tensors, and plays the same next steps."""
import random

import pytest

import core
from kit.helpers import assert_same, random_step

VARIANTS = ["energy_deckbuilder", "energy_deckbuilder(hand_size=6,second_player_energy=4)"]
SEEDS = range(3)
# How far a rebuilt state follows the game, and how often every legal action is tried
# from it.
FOLLOW = 6
EVERY_ACTION = 4


def rebuilt(state):
    game = state.game
    return [game.state_from_dict(state.to_dict()), game.deserialize_state(state.serialize())]


def check_game(game, seed):
    """Play one seeded random game, holding a rebuilt copy of every position to it."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    followers = []
    step = 0
    while not state.is_terminal():
        copies = rebuilt(state)
        for copy in copies:
            assert_same(copy, state)
        if step % EVERY_ACTION == 0:
            for a in state.legal_actions():
                for copy in copies:
                    mine, theirs = state.clone(), copy.clone()
                    mine.apply_action(a)
                    theirs.apply_action(a)
                    assert mine.to_dict() == theirs.to_dict(), state.action_to_string(a)
                    assert mine.legal_actions() == theirs.legal_actions()
        followers = [(left - 1, f) for left, f in followers if left > 1]
        followers.append((FOLLOW, copies[0]))
        action = random_step(state, rng)
        for _, follower in followers:
            follower.apply_action(action)
            assert follower.to_dict() == state.to_dict()
            assert follower.legal_actions() == state.legal_actions()
        step += 1
    return step


@pytest.mark.parametrize("spec", VARIANTS)
def test_a_position_rebuilt_from_its_dict_plays_as_the_original(spec):
    game = core.load_game(spec)
    assert sum(check_game(game, seed) for seed in SEEDS) > 100
