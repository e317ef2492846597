"""Shrine through OpenSpiel: parameters, its ISMCTS, resampling, clones and the observer
(tests/kit/test_openspiel.py runs pyspiel's own checks on every game)."""
import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

import core  # noqa: F401  (registers the games)
from kit.helpers import sample_chance


def test_load_game_with_parameters():
    game = pyspiel.load_game("shrine(alt_heal=true,balance=true)")
    assert game.core.params == {"balance": True, "balance_returns": False, "alt_heal": True,
                                "alt_fizzle": False, "max_turns": 400}
    assert game.num_distinct_actions() == game.core.num_distinct_actions
    assert pyspiel.load_game("shrine").core.params["alt_heal"] is False


# Card Duel's numbers, each at an edge of its range.
DUEL_SETTINGS = ["card_duel", "card_duel(hand_points=0)", "card_duel(hand_points=60,life=40)",
                 "card_duel(life=1,max_exchanges=5)",
                 "card_duel(hand_points=256,life=256,max_exchanges=60)"]


@pytest.mark.parametrize("spec", DUEL_SETTINGS)
def test_random_sim_test_at_the_ends_of_card_duels_numbers(spec):
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=20, serialize=True,
                            verbose=False)


@pytest.mark.parametrize("spec,word", [("shrine(alt_heal=maybe)", "alt_heal"),
                                       ("shrine(max_turns=abc)", "max_turns"),
                                       ("shrine(max_turns=0)", "max_turns"),
                                       ("shrine(colour=red)", "colour"),
                                       ("card_duel(life=0)", "life"),
                                       ("card_duel(hand_points=-3)", "hand_points"),
                                       ("card_duel(max_exchanges=x)", "max_exchanges")])
def test_bad_parameters_name_the_parameter(spec, word):
    with pytest.raises(pyspiel.SpielError, match=word):
        pyspiel.load_game(spec)


def play_to_end(game, bots, seed):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            sample_chance(state, rng)
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize("spec", ["shrine(max_turns=40)", "card_duel(max_exchanges=40)"])
def test_openspiel_ismcts_plays_whole_games(spec):
    game = pyspiel.load_game(spec)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    for seed in range(2):
        bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20,
                                 random_state=np.random.RandomState(seed)),
                pyspiel.make_uniform_random_bot(1, seed)]
        state = play_to_end(game, bots, seed)
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def mid_game(seed):
    game = pyspiel.load_game("shrine")
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(120):
        if state.is_chance_node():
            sample_chance(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("seed", range(5))
def test_resample_keeps_the_information_state(seed):
    state = mid_game(seed)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0., 1.))
    assert world.information_state_string(player) == state.information_state_string(player)
    assert world.legal_actions() == state.legal_actions()
    assert np.array_equal(world.information_state_tensor(player),
                          state.information_state_tensor(player))


def test_clone_is_equal_and_evolves_identically():
    state = mid_game(3)
    twin = state.clone()
    assert str(twin) == str(state)
    rng = np.random.RandomState(9)
    for _ in range(100):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
        twin.apply_action(action)
        assert str(twin) == str(state)
        assert twin.history() == state.history()


def test_observer_gives_a_players_own_view_and_refuses_others():
    game = pyspiel.load_game("shrine")
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while state.is_chance_node():
        sample_chance(state, rng)
    own = make_observation(game)
    view = json.loads(own.string_from(state, 0))
    assert "??" not in view["players"][0]["hand"]
    assert set(view["players"][1]["hand"]) == {"??"}
    own.set_from(state, 0)
    assert np.array_equal(own.tensor, state.core.observation_tensor(0))
    for private in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.ALL_PLAYERS):
        with pytest.raises(ValueError, match="offers one observation, a player's own"):
            make_observation(game, pyspiel.IIGObservationType(
                perfect_recall=False, public_info=True, private_info=private))
