"""Card Duel through OpenSpiel: registration and resampling (tests/kit/test_openspiel.py runs
pyspiel's own checks and its ISMCTS on it too)."""
import numpy as np
import pyspiel
import pytest

import core  # noqa: F401  (registers the games)
from kit.helpers import sample_chance


def test_load_game_with_parameters():
    game = pyspiel.load_game("card_duel(life=30,hand_points=20)")
    assert game.core.params == {"hand_points": 20, "life": 30, "max_exchanges": 300}
    assert game.num_distinct_actions() == 28 and game.max_chance_outcomes() == 10
    assert game.max_game_length() == game.core.max_game_length


@pytest.mark.parametrize("seed", range(4))
def test_resample_keeps_the_information_state(seed):
    game = pyspiel.load_game("card_duel")
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(40 + 5 * seed):
        if state.is_chance_node():
            sample_chance(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    while state.is_chance_node():
        sample_chance(state, rng)
    player = state.current_player()
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0., 1.))
    assert world.information_state_string(player) == state.information_state_string(player)
    assert world.legal_actions() == state.legal_actions()
