"""Every registered game under every tested variant, held to the contract of a rotated
deal (``GameState.just_dealt``, ``rotate_deal``, ``chance_source``): a game that can
rotate its deal comes to where it has just been dealt before any decision, and a
rotation there is a position of the game, undone by the rotation that completes the
turn round the table; a game that cannot says why, in one line."""
import random

import pytest

import core
from kit import helpers


# The settings hold no Creature Shrines mirror, the one way that game can rotate.
MIRROR = "creature_shrines(deck0=red,deck1=red)"


@pytest.mark.parametrize("game", helpers.settings()
                         + [pytest.param(core.load_game(MIRROR), id=MIRROR)])
def test_a_rotated_deal_is_a_position_that_turns_back_and_plays_on(game):
    if game.rotation_refusal is not None:
        assert "\n" not in game.rotation_refusal
        state = game.new_initial_state()
        with pytest.raises(core.RotationError):
            state.rotate_deal(1)
        return
    n = game.num_players
    for seed in range(3):
        state, _ = helpers.dealt(game, seed)
        before = state.to_dict()
        for k in range(1, n):
            rotated = state.clone()
            rotated.rotate_deal(k)
            assert rotated.just_dealt()
            view = rotated.to_dict()
            assert game.state_from_dict(view).to_dict() == view
            rotated.rotate_deal(n - k)
            assert rotated.to_dict() == before
        state.rotate_deal(seed + 1)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                seat, pile = state.chance_source()
                assert -1 <= seat < n and isinstance(pile, str)
            helpers.random_step(state, rng)
