"""Exact energy deck-builder positions for the ruling tests, and the "big money" player
deck-builder players measure strategies against."""
import core
from core.energy_deckbuilder.cards import CARDS, DECKS, ENERGY

GAME = core.load_game("energy_deckbuilder")
DESIGN = {c.name: c for c in CARDS}
STARTERS = {c.name: c.copies for c in CARDS if DECKS[c.deck] == "starter"}


def owned(player):
    """The cards a player's dict names anywhere: piles, creatures, upgrades."""
    names = [n for key in ("hand", "draw", "discard") for n in player.get(key, [])]
    for c in player.get("creatures", []):
        if c is not None:
            names += [c["card"]] + c.get("upgrades", [])
    return names


def position(game=GAME, players=None, **top):
    """A state of ``game`` in which ``players`` (two dicts in the format of ``to_dict``)
    hold what they name and ``top`` sets the other keys.  A starting card a player's
    dict leaves out is in that player's draw pile; market and zero-cost cards left out
    are in the market deck and the piles, and the common supply holds the energy the
    players do not."""
    players = [dict(p) for p in (players or [{}, {}])]
    for p in players:
        have = owned(p)
        missing = [name for name, n in STARTERS.items() for _ in range(n - have.count(name))]
        p["draw"] = list(p.get("draw", [])) + missing
    return game.state_from_dict({"players": players, **top})


def names(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def act(state, *steps):
    """Apply actions by name, and at a chance node the card that comes out."""
    for name in steps:
        for a in state.legal_actions():
            label = state.action_to_string(a)
            if label == name or state.is_chance_node() and label.split()[-1] == name:
                state.apply_action(a)
                break
        else:
            raise AssertionError(f"{name!r} is not legal; legal: {names(state)}")
    return state


def big_money(state):
    """The baseline player: it plays every card it can, taps each creature to attack
    the opponent's lives when they are open and to produce otherwise, then buys the
    most expensive card its energy and its hand's discards can pay for.  Any other
    decision takes the first choice."""
    legal = state.legal_actions()
    view = state.to_dict()
    if view["pending"]:
        return legal[0]
    named = {state.action_to_string(a): a for a in legal}
    for prefix in ("play ", "attack lives ", "produce "):
        for name, a in named.items():
            if name.startswith(prefix):
                return a
    if not view["bought"]:
        me = view["players"][state.current_player()]
        reach = sum(me["energy"].values()) + len(me["hand"])
        offer = view["market"] + [name for name, n in view["piles"].items() if n]
        affordable = [c for c in offer if DESIGN[c].buy <= reach]
        if affordable:
            card = max(affordable, key=lambda c: DESIGN[c].buy)
            if f"buy {card}" in named:
                return named[f"buy {card}"]
            return next(a for name, a in named.items() if name.startswith("discard "))
    return named["end"]


__all__ = ["ENERGY", "GAME", "act", "big_money", "names", "position"]
