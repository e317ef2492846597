"""The features a learned player reads (``observation_tensor`` and its C fill, which a
search calls without the GIL), on every registered game and on a few of OpenSpiel's
through ForeignGame: they hold what their player knows and nothing it cannot see, and
the C fill writes exactly what ``observation_tensor`` returns.

Random games and determinizations are seeded, so each run checks the same positions."""
import numpy as np
import pytest

from core import ForeignGame, PlayerError
from core.state import fill_observation_tensor
from kit.helpers import played, settings

GAMES = 3           # seeded random games per setting
WORLDS = 3          # determinizations per player at each decision
# OpenSpiel games with hidden information and a resampler: two with an observation
# tensor (kuhn, leduc for three) and two with an information state tensor.
FOREIGN = ("kuhn_poker", "leduc_poker(players=3)", "euchre", "oh_hell")
SETTINGS = settings() + [pytest.param(name, id=f"foreign:{name}") for name in FOREIGN]


def loaded(game):
    return ForeignGame(game) if isinstance(game, str) else game


@pytest.mark.parametrize("game", SETTINGS)
def test_a_player_gets_the_same_features_in_every_world_it_cannot_tell_apart(game):
    game = loaded(game)
    checked = resampled = 0
    for seed in range(GAMES):
        for i, state in enumerate(played(game, seed)):
            if state.current_player() < 0:
                continue
            truth = state.to_dict()
            for player in range(game.num_players):
                features = state.observation_tensor(player)
                for k in range(WORLDS):
                    world = state.determinized(player, (seed * 1000 + i) * WORLDS + k)
                    assert np.array_equal(world.observation_tensor(player), features), \
                        (player, truth, world.to_dict())
                    checked += 1
                    resampled += world.to_dict() != truth
    # Worlds that kept to the truth would tell nothing of a leak.
    assert resampled >= checked // 10, f"only {resampled} of {checked} worlds resampled"


@pytest.mark.parametrize("game", SETTINGS)
def test_the_fill_without_the_gil_writes_what_observation_tensor_returns(game):
    game = loaded(game)
    # One buffer for every fill, first all NaN and then holding the last position's
    # features: a fill that left any entry unwritten would show it.
    buffer = np.full(game.observation_tensor_size, np.nan, np.float32)
    for seed in range(GAMES):
        for state in played(game, seed):
            for player in range(game.num_players):
                fill_observation_tensor(state, player, buffer)
                assert np.array_equal(buffer, state.observation_tensor(player))


@pytest.mark.parametrize("game", SETTINGS)
def test_the_features_follow_the_game_and_differ_between_players(game):
    game = loaded(game)
    for seed in range(GAMES):
        states = played(game, seed)
        seen = [{state.observation_tensor(p).tobytes() for state in states}
                for p in range(game.num_players)]
        for p, tensors in enumerate(seen):
            assert len(tensors) > len(states) // 10, f"player {p}: {len(tensors)} tensors"
        assert any(not np.array_equal(state.observation_tensor(0), state.observation_tensor(p))
                   for state in states for p in range(1, game.num_players))


@pytest.mark.parametrize("game", SETTINGS[:1] + SETTINGS[-1:])
def test_a_buffer_of_the_wrong_size_or_a_seat_not_in_the_game_is_refused(game):
    game = loaded(game)
    state = game.new_initial_state()
    size = game.observation_tensor_size
    with pytest.raises(ValueError, match=f"holds {size - 1} floats; .* fills {size}$"):
        fill_observation_tensor(state, 0, np.zeros(size - 1, np.float32))
    with pytest.raises(PlayerError, match=f"from 0 to {game.num_players - 1}, not 9"):
        fill_observation_tensor(state, 9, np.zeros(size, np.float32))
