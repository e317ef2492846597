"""Card Duel positions from a few words, and actions by name, for the Card Duel tests."""
from collections import Counter

import core
from core.card_duel import CARD_CLASSES, CARD_NAMES
from kit import helpers

# The deck by value class: a 10 stands for any 10, Jack, Queen or King.
DECK = Counter({name: 16 if name == "10" else 4 for name in CARD_NAMES})
POOL = 26


def duel(**params):
    return core.load_game("card_duel", **params)


def value(card):
    return 11 if card == "A" else int(card)


def pl(hand="", deck=None, discard="", damage="", spent=0, known=None):
    """A player's part of a position, cards as space-separated names. ``damage`` is the
    damage this player has taken."""
    d = {"hand": hand.split(), "discard": discard.split(), "damage": damage.split(),
         "hand_points_spent": spent}
    if deck is not None:
        d["deck"] = deck.split()
    if known is not None:
        d["hand_known"] = known
    return d


def position(p0, p1, game=None, **desc):
    """A position from two players' parts, each made up to their 26 cards from the
    cards no zone holds, player 0 first and lowest first: into the deck if it was left
    out, else onto the discard pile. A player with an empty deck has a known hand
    unless ``known`` says otherwise."""
    players = [dict(p0), dict(p1)]
    table = desc.get("table", {})
    offense = desc.get("offense", 0)
    placed = Counter()
    owned = [0, 0]
    for p, player in enumerate(players):
        for key in ("hand", "deck", "discard", "damage"):
            placed.update(player.get(key, []))
        owned[p] += sum(len(player.get(key, [])) for key in ("hand", "deck", "discard"))
        owned[1 - p] += len(player["damage"])
    for role, owner in (("attack", offense), ("defense", 1 - offense)):
        if table.get(role):
            placed[table[role]] += 1
            owned[owner] += 1
    rest = sorted((DECK - placed).elements(), key=CARD_CLASSES.get)
    for p, player in enumerate(players):
        need = POOL - owned[p]
        if "deck" not in player:
            player["deck"], rest = rest[:need], rest[need:]
        elif need:
            player["discard"], rest = player["discard"] + rest[:need], rest[need:]
        if not player["deck"] and "hand_known" not in player:
            player["hand_known"] = True
    assert not rest, f"cards left over: {rest}"
    return (game or duel()).state_from_dict({"players": players, **desc})


def act(state, name):
    """Apply the legal action called ``name``; at a chance node, the card coming out."""
    helpers.act(state, name, CARD_CLASSES)


def play(state, *steps):
    return helpers.play(state, *steps, cards=CARD_CLASSES)


def keep(n, card):
    """The name of the choice to keep ``n`` cards of class ``card`` in a hand being built."""
    return f"keep {n or 'no'} {card}{'' if n == 1 else 's'}"


def build(state, hand="", stop=None):
    """The player building keeps ``hand`` (card names), one choice per class from the Ace
    down, until the hand is built or, if ``stop`` names a class, until that one is next."""
    wanted = Counter(hand.split())
    builder = state.to_dict()["builder"]
    d = state.to_dict()
    while d["phase"] == "build" and d["builder"] == builder and d["building"] != stop:
        act(state, keep(wanted.pop(d["building"], 0), d["building"]))
        d = state.to_dict()
    assert not wanted, f"no choice offered for {sorted(wanted)}"
    return state


def outcomes(state):
    return {CARD_NAMES[a]: p for a, p in state.chance_outcomes()}


def taken(player):
    """The damage a player of a position dict has taken."""
    return sum(value(c) for c in player["damage"])
