"""Every registered game through OpenSpiel: registered on import of ``core``, and passing
OpenSpiel's own checks (``random_sim_test``, serialization included) under every variant."""
import pyspiel
import pytest

import core
from kit.helpers import settings


@pytest.mark.parametrize("game", settings())
def test_random_sim_test_with_serialization(game):
    spiel_game = pyspiel.load_game(str(game))
    assert spiel_game.num_players() == game.num_players
    pyspiel.random_sim_test(spiel_game, num_sims=10, serialize=True, verbose=False)


def test_every_ruleset_is_registered():
    registered = {g.short_name for g in pyspiel.registered_games()}
    assert set(core.GAMES) <= registered
