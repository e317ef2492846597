"""The contract of core/state.pxd, checked on every registered game through its public
interface: each ruleset added to ``core.GAMES`` is held to it with no test of its own.

Each game is played under each variant ``kit.helpers.variants`` names.  Random games
are seeded, so each run plays the same games.
"""
import copy
import pickle
import random
import re

import numpy as np
import pytest

import core
from kit.helpers import played, settings

GAMES_PER_SETTING = 12
# Copying checks every twin at every step, the dearest check here; four games a
# variant still meet every phase, and each ruleset's own tests follow copies further.
COPY_GAMES = 4
SETTINGS = settings()


@pytest.mark.parametrize("game", SETTINGS)
def test_each_position_offers_sorted_actions_or_a_distribution(game):
    for seed in range(GAMES_PER_SETTING):
        for state in played(game, seed):
            player = state.current_player()
            legal = state.legal_actions()
            if state.is_terminal():
                assert player == core.TERMINAL_PLAYER and legal == []
                returns = state.returns()
                assert len(returns) == game.num_players
                assert all(game.min_utility <= r <= game.max_utility for r in returns)
                continue
            assert legal and legal == sorted(set(legal))
            assert all(0 <= a < game.action_buffer_size for a in legal)
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert [a for a, _ in outcomes] == legal
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                assert all(p > 0 for _, p in outcomes)
            else:
                assert 0 <= player < game.num_players and state.chance_outcomes() == []
                assert all(a < game.num_distinct_actions for a in legal)
            names = [state.action_to_string(a) for a in legal]
            assert len(set(names)) == len(names), names
            kinds = [state.action_kind(a) for a in legal]
            assert all(isinstance(k, str) and k.strip() == k != "" for k in kinds), kinds


@pytest.mark.parametrize("game", SETTINGS)
def test_copies_are_equal_independent_and_round_trip(game):
    for seed in range(COPY_GAMES):
        states = played(game, seed)
        for state, after in zip(states, states[1:] + [None]):
            pickled = pickle.loads(pickle.dumps(state))
            for twin in (state.clone(), copy.deepcopy(state), pickled,
                         game.deserialize_state(state.serialize())):
                assert twin == state
            # A clone is the same bytes, and a pickle goes through serialize as the last
            # twin does: what each player reads is compared on the pickled one.
            assert pickled.to_dict() == state.to_dict()
            for p in range(game.num_players):
                assert pickled.information_state_string(p) == state.information_state_string(p)
                assert np.array_equal(pickled.observation_tensor(p), state.observation_tensor(p))
            if after is not None:
                # The next state of the game is reached from a copy too.
                twin = state.clone()
                for a in state.legal_actions():
                    probe = twin.clone()
                    probe.apply_action(a)
                    if probe == after:
                        break
                else:
                    raise AssertionError("no action leads a copy to the game's next state")


@pytest.mark.parametrize("game", SETTINGS)
def test_illegal_actions_change_nothing(game):
    rng = random.Random(7)
    for state in played(game, 3)[::7]:
        before = state.serialize()
        legal = set(state.legal_actions())
        illegal = [a for a in range(game.action_buffer_size) if a not in legal]
        for a in rng.sample(illegal, min(20, len(illegal))) + [-1, game.action_buffer_size]:
            error = core.GameOverError if state.is_terminal() else core.IllegalActionError
            with pytest.raises(error):
                state.apply_action(a)
            assert state.serialize() == before


@pytest.mark.parametrize("game", SETTINGS)
def test_observations_have_the_declared_size(game):
    for state in played(game, 1)[::5]:
        for p in range(game.num_players):
            tensor = state.observation_tensor(p)
            assert tensor.shape == (game.observation_tensor_size,)
            assert np.isfinite(tensor).all()
            view = state.observation_dict(p)
            assert isinstance(view, dict)


@pytest.mark.parametrize("game", SETTINGS)
def test_search_hooks_stay_within_the_rules(game):
    for seed in range(GAMES_PER_SETTING // 3):
        for state in played(game, seed)[::3]:
            for p in range(game.num_players):
                value = state.evaluate(p)
                if state.is_terminal():
                    assert value == state.returns()[p]
                else:
                    assert -1 <= value <= 1
            if state.is_terminal():
                continue
            legal = state.legal_actions()
            choice = state.heuristic_action(seed)
            if state.is_chance_node():
                assert choice is None
            else:
                assert choice is None or choice in legal
                assert [state.action_view(a, state.current_player()) for a in legal] == legal


@pytest.mark.parametrize("game", SETTINGS)
def test_actions_an_observer_cannot_tell_apart_leave_it_knowing_the_same(game):
    for seed in range(GAMES_PER_SETTING // 3):
        for state in played(game, seed)[::2]:
            if state.is_terminal():
                continue
            for observer in range(game.num_players):
                seen = {}
                for a in state.legal_actions():
                    view = state.action_view(a, observer)
                    assert view == a or view < 0
                    after = state.clone()
                    after.apply_action(a)
                    known = after.information_state_string(observer)
                    if view < 0:
                        assert seen.setdefault(view, known) == known


@pytest.mark.parametrize("game", SETTINGS)
def test_chance_is_sampled_with_its_probabilities(game):
    # Search draws chance through sample_chance, a game's own sampler where it has one.
    draws = 400
    for state in [s for s in played(game, 2) if s.is_chance_node()][::9]:
        counts = {}
        for seed in range(draws):
            outcome = state.sample_chance(seed)
            counts[outcome] = counts.get(outcome, 0) + 1
        outcomes = dict(state.chance_outcomes())
        assert set(counts) <= set(outcomes)
        for outcome, p in outcomes.items():
            # Five standard deviations: a fixed set of seeds, so no flakiness either way.
            assert abs(counts.get(outcome, 0) - p * draws) <= 5 * (draws * p * (1 - p)) ** .5 + 1
    assert played(game, 2)[-1].sample_chance(0) is None


@pytest.mark.parametrize("game", SETTINGS)
def test_a_player_that_is_no_seat_is_refused(game):
    state = played(game, 0)[min(10, len(played(game, 0)) - 1)]
    last = game.num_players - 1
    for observer in (-1, game.num_players, 1.5, "0", None):
        message = re.escape(f"a player is an int from 0 to {last}, not {observer!r}")
        for ask in (lambda: state.determinized(observer, 0),
                    lambda: state.observation_dict(observer),
                    lambda: state.observation_tensor(observer),
                    lambda: state.evaluate(observer)):
            with pytest.raises(core.PlayerError, match=message):
                ask()


@pytest.mark.parametrize("cls", list(core.GAMES.values()), ids=list(core.GAMES))
def test_a_text_parameter_takes_only_its_choices(cls):
    for key, allowed in cls.choices.items():
        assert isinstance(cls.parameters[key], str) and cls.parameters[key] in allowed
        for value in allowed:
            assert core.load_game(cls.name, **{key: value}).params[key] == value
        with pytest.raises(core.ParameterError,
                           match=f"{key} must be one of {', '.join(allowed)}; not 'nonsense'"):
            core.load_game(f"{cls.name}({key}=nonsense)")
