"""What the generic suite needs to hold any registered ruleset to the contract: the
settings each game is tested under, and seeded random play."""
import random

import pytest

import core


def variants(cls):
    """Game strings of ``cls`` to test: the defaults, each bool parameter on alone, and
    every bool parameter on together (a parameter turning another on is one game)."""
    flags = [k for k, v in cls.parameters.items() if isinstance(v, bool)]
    games = [cls()] + [cls(**{k: True}) for k in flags]
    if len(flags) > 1:
        games.append(cls(**{k: True for k in flags}))
    unique = []
    for game in games:
        if str(game) not in unique:
            unique.append(str(game))
    return unique


def settings():
    """Every registered game under each of its variants, as pytest parameters."""
    return [pytest.param(core.load_game(spec), id=spec)
            for cls in core.GAMES.values() for spec in variants(cls)]


def random_step(state, rng):
    """Advance ``state`` by one step and return the action applied: at a chance node an
    outcome drawn by its probabilities, otherwise a legal action chosen uniformly; both
    from ``rng``, a seeded ``random.Random``."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        u = rng.random()
        for action, prob in outcomes:
            u -= prob
            if u < 0:
                break
        # Rounding can leave u just above 0 after the last outcome: that one it is.
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return action


def played(game, seed):
    """Every state of one seeded random game, in order, each a copy."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        random_step(state, rng)
        states.append(state.clone())
        assert len(states) <= game.max_game_length + 1
    return states
