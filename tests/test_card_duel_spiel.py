"""Card Duel through OpenSpiel: registration, pyspiel's own checks, its ISMCTS."""
import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import core  # noqa: F401  (registers the games)
from conftest import sample_chance

SETTINGS = ["card_duel", "card_duel(hand_points=0)", "card_duel(hand_points=60,life=40)",
            "card_duel(life=1,max_exchanges=5)",
            "card_duel(hand_points=256,life=256,max_exchanges=60)"]


def test_load_game_with_parameters():
    game = pyspiel.load_game("card_duel(life=30,hand_points=20)")
    assert game.core.params == {"hand_points": 20, "life": 30, "max_exchanges": 300}
    assert game.num_distinct_actions() == 28 and game.max_chance_outcomes() == 10
    assert game.max_game_length() == game.core.max_game_length


@pytest.mark.parametrize("spec", SETTINGS)
def test_random_sim_test_with_serialization(spec):
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=10, serialize=True,
                            verbose=False)


@pytest.mark.parametrize("spec,word", [("card_duel(life=0)", "life"),
                                       ("card_duel(hand_points=-3)", "hand_points"),
                                       ("card_duel(max_exchanges=x)", "max_exchanges")])
def test_bad_parameters_name_the_parameter(spec, word):
    with pytest.raises(pyspiel.SpielError, match=word):
        pyspiel.load_game(spec)


def test_openspiel_ismcts_plays_whole_games():
    game = pyspiel.load_game("card_duel(max_exchanges=40)")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    for seed in range(2):
        bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20,
                                 random_state=np.random.RandomState(seed)),
                pyspiel.make_uniform_random_bot(1, seed)]
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                sample_chance(state, rng)
            else:
                state.apply_action(bots[state.current_player()].step(state))
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


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
