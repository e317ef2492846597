"""Shrine's test helpers: its variants, positions from plain data, actions by name."""
import functools

import core
from core.shrine import CARD_KINDS, CARD_NAMES, FOUND_NONE
from kit import helpers

# Shrine game strings: the default rules, each optional rule on its own, and three of
# them together.
VARIANTS = ["shrine", "shrine(balance=true)", "shrine(balance_returns=true)",
            "shrine(alt_heal=true)", "shrine(alt_fizzle=true)",
            "shrine(balance=true,alt_heal=true,alt_fizzle=true)"]


def shrine(**params):
    return core.load_game("shrine", **params)


# A chance outcome is named as a card of Shrine's, or "nothing" for a Balance's search
# that finds no card, unless the caller gives another game's.
OUTCOMES = {**CARD_KINDS, "nothing": FOUND_NONE}
act = functools.partial(helpers.act, cards=OUTCOMES)
play = functools.partial(helpers.play, cards=OUTCOMES)


def pl(hand="", shrine="", field="", **extra):
    """A player's part of a position, cards written as space-separated names."""
    return {"hand": hand.split(), "shrine": shrine.split(), "field": field.split(), **extra}


def position(me, opp, game=None, **desc):
    return (game or shrine()).state_from_dict({"players": [me, opp], **desc})


def offered(state, prefix):
    """The legal actions whose names start with ``prefix``, in id order."""
    return [n for n in helpers.names(state) if n.startswith(prefix)]


def outcomes(state):
    return {"nothing" if a == FOUND_NONE else CARD_NAMES[a]: p
            for a, p in state.chance_outcomes()}


def assert_next_turn(state, player=1, turn=1):
    """The acting player's turn is over and ``player`` is about to start theirs, turn
    number ``turn`` (counted from 0)."""
    d = state.to_dict()
    assert (d["active"], d["turn"], d["winner"]) == (player, turn, None)
    assert d["phase"] in ("start", "chance") and "pending" not in d
