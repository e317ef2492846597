"""Relinquish's kinds of move (``action_kind``): every action and chance outcome has one
of ``KINDS``, the one its name and the phase say."""
import random

import pytest

import core
from core.relinquish import KINDS
from kit.helpers import random_step
from relinquish_positions import act, position

# What a decision's name begins with, and its kind; the longer of two prefixes that
# share a start comes first.
BY_NAME = [("end turn", "end turn"), ("fortify with ", "fortify"),
           ("populate ", "populate"), ("summon ", "summon"), ("pay with ", "pay"), ("enchant T", "enchant"),
           ("augur T", "augur"), ("murder T", "murder"), ("target ", "target"),
           ("no more targets", "target"),
           ("negate T", "negate"), ("cancel the Negate T", "cancel negate"),
           ("foil T", "foil"), ("pass", "pass"), ("clash with player ", "order"),
           ("clash", "clash"), ("answer ", "answer"), ("defend with ", "defend"),
           ("decline", "decline"), ("rally ", "rally"), ("no rally", "no rally"),
           ("capture ", "capture"), ("glamour", "glamour"), ("lavish", "lavish"),
           ("coerce", "coerce"), ("bounty", "bounty"), ("congregate ", "congregate"),
           ("conscript ", "conscript"), ("add ", "bounty amount"),
           ("subtract ", "bounty amount"), ("scry: discard ", "scry")]
CHANCE = {"deal": "deal", "flip": "flip", "draw": "draw", "reveal": "reveal"}
VARIANTS = ["relinquish", "relinquish(players=3)", "relinquish(finesse=false)",
            "relinquish(players=4,teams=true,partner_rally=true,enchant_any=true)"]


def expected(state, name):
    phase = state.to_dict()["phase"]
    if state.is_chance_node():
        return CHANCE[phase]
    if name.startswith("attack player "):
        # The first attacker begins the Battle; the others join it.
        return "battle" if phase == "main" else "attack"
    return next(kind for prefix, kind in BY_NAME if name.startswith(prefix))


def test_every_action_of_seeded_games_has_the_kind_its_name_says():
    seen = set()
    for spec in VARIANTS:
        game = core.load_game(spec)
        for seed in range(30):
            rng = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                for action in state.legal_actions():
                    kind = state.action_kind(action)
                    assert kind == expected(state, state.action_to_string(action)), \
                        (spec, seed, state.action_to_string(action))
                    seen.add(kind)
                random_step(state, rng)
    # Every kind is some action's: none is left over, and none was missed above.
    assert seen == set(KINDS)


def test_a_kind_is_asked_of_a_legal_action_only():
    state = core.load_game("relinquish").new_initial_state()
    with pytest.raises(core.IllegalActionError, match="not legal here"):
        state.action_kind(state.legal_actions()[-1] + 1)
    with pytest.raises(core.IllegalActionError, match="an action is an int"):
        state.action_kind("end turn")


def test_stopping_an_enchants_targets_is_a_target_decision():
    # (L15) With a Common worth 0 after the ones named, the Enchanter may stop.
    state = position("relinquish(acceptance=false)",
                     players=[{"standing": ["P4", "P6"], "hand": ["T10"]},
                              {"resting": ["W10", "C4"]}])
    for name in ("bounty", "pay with P4", "pay with P6", "target C4", "subtract 4",
                 "enchant T10 against player 1", "target W10"):
        act(state, name)
    done = next(a for a in state.legal_actions()
                if state.action_to_string(a) == "no more targets")
    assert state.action_kind(done) == "target"
