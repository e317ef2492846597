"""Helpers shared by the tests: positions from plain data, actions by name."""
import pytest

import core
from core.shrine import CARD_KINDS


def shrine(**params):
    return core.load_game("shrine", **params)


def names(state):
    """The legal actions of ``state`` by their readable names."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def act(state, name):
    """Apply the legal action called ``name`` (a chance outcome may be a card name)."""
    if state.is_chance_node():
        kind = CARD_KINDS[name]
        assert kind in state.legal_actions(), f"{name} cannot come out here"
        state.apply_action(kind)
        return
    for a in state.legal_actions():
        if state.action_to_string(a) == name:
            state.apply_action(a)
            return
    raise AssertionError(f"no legal action {name!r}; legal: {names(state)}")


def play(state, *steps):
    """Apply a sequence of actions or chance cards by name."""
    for step in steps:
        act(state, step)
    return state


@pytest.fixture
def game():
    return shrine()


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
