"""The public API at its edges: what it refuses, and how it says so."""
import json

import numpy as np
import pyspiel
import pytest

import core
from shrine_helpers import pl, position, shrine


@pytest.fixture
def state():
    return position(pl("4B 5B 9R", "2B 6R"), pl("2R 3R 8B", "3R 9R"))


@pytest.mark.parametrize("player", [2, -1, True, 0.0, "0", 2 ** 40, None])
@pytest.mark.parametrize("method", ["observation_dict", "observation_tensor",
                                    "information_state_string"])
def test_a_player_who_is_no_seat_is_refused(state, method, player):
    with pytest.raises(core.PlayerError, match=r"a player is an int from 0 to 1, not "):
        getattr(state, method)(player)


def test_numpy_players_are_seats(state):
    assert state.observation_dict(np.int64(1)) == state.observation_dict(1)


@pytest.mark.parametrize("action,error", [
    (-3, "out of range: ids run from 0 to 1285"),
    (1286, "out of range"),
    (2 ** 40, "out of range"),
    (2.7, "an action is an int, not float"),
    ("5", "an action is an int, not str"),
    (None, "an action is an int, not NoneType"),
    (True, "an action is an int, not bool"),
])
def test_action_to_string_refuses_what_is_not_an_action_id(state, action, error):
    with pytest.raises(core.IllegalActionError, match=error):
        state.action_to_string(action)


def test_action_to_string_names_any_id_in_range(state):
    names = [state.action_to_string(a) for a in range(shrine().num_distinct_actions)]
    assert names[641] == "attack 5B+4B -> 9R"
    assert all(isinstance(name, str) and name for name in names)


def test_states_come_from_their_game():
    with pytest.raises(TypeError, match=r"use game.new_initial_state\(\)"):
        type(shrine().new_initial_state())()
    with pytest.raises(TypeError, match=r"comes from its game"):
        core.GameState()


def test_a_state_is_no_dict_key_but_its_serialization_is(state):
    with pytest.raises(TypeError, match="unhashable"):
        hash(state)
    assert {state.serialize(): 1}[state.clone().serialize()] == 1


def test_the_balance_card_asked_for_two_ways_is_one_game():
    a = core.load_game("shrine(balance_returns=true)")
    b = core.load_game("shrine(balance=true,balance_returns=true)")
    assert a == b and str(a) == str(b) and a.params == b.params
    assert a.new_initial_state() == b.new_initial_state()
    assert str(pyspiel.load_game("shrine(balance_returns=true)").core) == str(a)


@pytest.mark.parametrize("spec,kwargs,message", [
    ("shrine(max_turns=5,max_turns=6)", {}, "max_turns is given twice"),
    ("shrine(alt_heal=true)", {"alt_heal": False}, "alt_heal given both in"),
    ("shrine(max_turns=\u0663)", {}, "max_turns must be int"),
    ("shrine(balance=true)(x)", {}, "cannot read game string"),
    ("shrine(alt_heal)", {}, "'alt_heal' is not key=value"),
    ("shrine(max_turns=5.0)", {}, "max_turns must be int"),
])
def test_load_game_refuses_ambiguous_or_garbled_strings(spec, kwargs, message):
    with pytest.raises(core.ParameterError, match=message):
        core.load_game(spec, **kwargs)


def test_load_game_takes_numpy_values():
    game = core.load_game("shrine", alt_heal=np.bool_(True), max_turns=np.int32(50))
    assert game.params["alt_heal"] is True and game.params["max_turns"] == 50


def _desc(**changes):
    desc = {"players": [{"hand": ["4B", "5B"], "shrine": ["2B", "6R"]},
                        {"hand": ["2R"], "shrine": ["3R", "9R"]}]}
    desc.update(changes)
    return desc


@pytest.mark.parametrize("desc,message", [
    (_desc(powers_used=[[1]]), r"powers_used lists some of jack, queen, king; not \[\[1\]\]"),
    (_desc(players=[{"hand": ["4B"], "shrine": ["2B", "6R"], "shrine_seen": ["no", "yes"]},
                    {"shrine": ["3R", "9R"]}]),
     r"players\[0\]\.shrine_seen must be one bool per Shrine card"),
    (_desc(winner=0.0), r"winner must be 0, 1, \"draw\" or null, not 0.0"),
    (_desc(current_player=0.0), r"current_player 0.0 does not match"),
    (_desc(current_player=False), r"current_player False does not match"),
    (_desc(phase="response", pending={"action": "641"}),
     r"pending\.action must be an integer from 0 to 1285, not '641'"),
    (_desc(phase="chance", chance={"draw": "hand", "to": 5}),
     r"chance\.to must be an integer from -1 to 1, not 5"),
    (_desc(phase="balance discard", balance={"player": "one"}),
     r"balance\.player must be an integer from 0 to 1, not 'one'"),
])
def test_odd_values_in_a_position_are_refused_by_name(desc, message):
    with pytest.raises(core.StateFormatError, match=message):
        shrine().state_from_dict(desc)
    with pytest.raises(core.StateFormatError, match=message):
        shrine().deserialize_state(json.dumps(desc))


def test_core_and_openspiel_agree_on_chance_and_terminal_ids():
    assert core.CHANCE_PLAYER == int(pyspiel.PlayerId.CHANCE)
    assert core.TERMINAL_PLAYER == int(pyspiel.PlayerId.TERMINAL)
