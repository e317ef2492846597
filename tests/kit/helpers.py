"""What the generic suite needs to hold any registered ruleset to the contract: the
settings each game is tested under, and seeded random play."""
import copy
import pickle
import random

import numpy as np
import pytest

import core


def variants(cls):
    """Game strings of ``cls`` to test: the defaults, each player count the rules allow,
    each bool parameter turned from its default alone (and with the most players where
    a parameter needs them), and every bool parameter that is off by default turned on
    together, and the parameter sets the game names in ``tested_variants`` (modes and
    decks, which are not bool).  Combinations the game refuses are left out, and so is
    a second string for one game."""
    flags = [k for k, v in cls.parameters.items() if isinstance(v, bool)]
    off = [k for k in flags if not cls.parameters[k]]
    many = "players" in cls.parameters
    fewest, most = cls.player_counts()
    counts = [{}] + [{"players": n} for n in range(fewest, most + 1) if many]
    wanted = counts + [{k: not cls.parameters[k]} for k in flags]
    wanted += [{k: not cls.parameters[k], "players": most} for k in flags if many]
    if len(off) > 1:
        wanted.append({k: True for k in off})
        if many:
            wanted.append({**{k: True for k in off}, "players": most})
    wanted += [dict(params) for params in getattr(cls, "tested_variants", ())]
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


def walk(game, seed, steps):
    """The states of a seeded random game of the game string ``game``, one a step, for
    at most ``steps`` steps: the state itself, moved on after each is looked at."""
    state = core.load_game(game).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        yield state
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    yield state


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


def names(state):
    """The legal actions of ``state`` by their readable names."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def sample_chance(state, rng):
    """At a chance node, apply an outcome drawn by its probabilities from ``rng``, a
    seeded ``numpy.random.RandomState``, and return it. Works on core states and on
    pyspiel states alike: both list ``chance_outcomes()`` as (action, probability)."""
    actions, probs = zip(*state.chance_outcomes())
    action = int(rng.choice(actions, p=probs))
    state.apply_action(action)
    return action


def act(state, name, cards):
    """Apply the legal action called ``name``; at a chance node, the card coming out,
    named as in ``cards`` (the game's card kinds by name)."""
    if state.is_chance_node():
        card = cards[name]
        assert card in state.legal_actions(), f"{name} cannot come out here"
        state.apply_action(card)
        return
    for a in state.legal_actions():
        if state.action_to_string(a) == name:
            state.apply_action(a)
            return
    raise AssertionError(f"no legal action {name!r}; legal: {names(state)}")


def play(state, *steps, cards):
    """Apply a sequence of actions or chance cards by name."""
    for step in steps:
        act(state, step, cards)
    return state


# --- the deal ---------------------------------------------------------------------------

def dealt(game, seed):
    """A seeded deal of ``game`` (a core game), played to where it has just been dealt
    (``GameState.just_dealt``), and the chance outcomes that dealt it, in order."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    outcomes = []
    while not state.just_dealt():
        assert state.is_chance_node(), "a decision came before the deal was over"
        outcomes.append(random_step(state, rng))
    return state, outcomes


def redealt(game, outcomes):
    """The state ``outcomes`` deal ``game`` (a core game), up to where it has just been
    dealt: as a rotated deal must look, had its cards been dealt so."""
    state = game.new_initial_state()
    for outcome in outcomes:
        state.apply_action(outcome)
    assert state.just_dealt()
    return state


def assert_same_knowledge(a, b):
    """Two states every seat knows alike, and that are the same position."""
    assert a.to_dict() == b.to_dict()
    for p in range(a.game.num_players):
        assert a.observation_dict(p) == b.observation_dict(p)
        assert a.information_state_string(p) == b.information_state_string(p)
        assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p))


# --- copies ---------------------------------------------------------------------------

def assert_same(a, b):
    """Two states that are the same position by every public view of it."""
    assert a.to_dict() == b.to_dict()
    assert a == b
    assert a.serialize() == b.serialize()
    assert a.current_player() == b.current_player()
    assert a.legal_actions() == b.legal_actions()
    assert a.chance_outcomes() == b.chance_outcomes()
    assert a.returns() == b.returns()
    for p in range(a.game.num_players):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p))


def roundtrip_serialized(state):
    return state.game.deserialize_state(state.serialize())


def roundtrip_pickle(state):
    return pickle.loads(pickle.dumps(state))


def follow_with_copies(game, seed):
    """Play one seeded random game of ``game``.  After every step a fresh clone equals
    the state and is independent of it; four twins, remade at every step from
    themselves by clone, deepcopy, a pickle round trip and a serialize round trip,
    follow the game action by action and stay equal to it.  Returns the steps played."""
    remake = {"clone": lambda s: s.clone(), "deepcopy": copy.deepcopy,
              "pickle": roundtrip_pickle, "serialized": roundtrip_serialized}
    rng = random.Random(seed)
    state = game.new_initial_state()
    twins = {how: state.clone() for how in remake}
    steps = 0
    while not state.is_terminal():
        snapshot = state.to_dict()
        fresh = state.clone()
        assert_same(fresh, state)
        action = random_step(fresh, rng)
        assert state.to_dict() == snapshot, "a clone shares data with its original"
        state.apply_action(action)
        steps += 1
        assert_same(fresh, state)
        now = state.to_dict()
        for how, twin in twins.items():
            twin = remake[how](twin)
            twin.apply_action(action)
            twins[how] = twin
            assert twin.to_dict() == now, how
    for twin in twins.values():
        assert_same(twin, state)
        assert twin.is_terminal()
    return steps


# --- uniformity -------------------------------------------------------------------------

# Upper 0.1% points of the chi-square distribution by degrees of freedom, used when
# scipy is absent.
CHI2_CRITICAL_0_001 = {5: 20.515, 6: 22.458, 10: 29.588, 17: 40.790}


def chi_square_p_ok(observed, expected_probs, samples):
    """Whether the chi-square goodness-of-fit test accepts ``observed`` at alpha 0.001
    (the test wrongly fails one time in 1000 for a correct sampler)."""
    keys = sorted(expected_probs)
    obs = [observed[k] for k in keys]
    exp = [expected_probs[k] * samples for k in keys]
    assert min(exp) >= 5, "too few samples for a chi-square test"
    df = len(keys) - 1
    try:
        from scipy.stats import chisquare
    except ImportError:
        stat = sum((o - e) ** 2 / e for o, e in zip(obs, exp))
        return stat < CHI2_CRITICAL_0_001[df], stat
    stat, p = chisquare(obs, exp)
    return p > 0.001, stat
