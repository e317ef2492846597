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
