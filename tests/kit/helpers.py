"""What the generic suite needs to hold any registered ruleset to the contract: the
settings each game is tested under, and seeded random play."""
import random

import pytest

import core


def variants(cls):
    """Game strings of ``cls`` to test: the defaults, each player count the rules allow,
    each bool parameter on alone, and every bool parameter on together (with the most
    players, where a parameter needs them).  Combinations the game refuses are left out,
    and so is a second string for one game."""
    flags = [k for k, v in cls.parameters.items() if isinstance(v, bool)]
    fewest, most = cls.player_counts()
    counts = [{}] + [{"players": n} for n in range(fewest, most + 1) if "players" in cls.parameters]
    wanted = counts + [{k: True} for k in flags]
    wanted += [{k: True, "players": most} for k in flags if "players" in cls.parameters]
    if len(flags) > 1:
        wanted.append({k: True for k in flags})
        if "players" in cls.parameters:
            wanted.append({**{k: True for k in flags}, "players": most})
    unique = []
    for params in wanted:
        try:
            spec = str(cls(**params))
        except core.ParameterError:
            continue
        if spec not in unique:
            unique.append(spec)
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
