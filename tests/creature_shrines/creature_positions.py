"""Building exact Creature Shrines positions for the ruling tests: name the cards that
matter; every other card of each deck lies in its library (Sources in the secondary)."""
import core
from core.creature_shrines import CARDSET
from core.creature_shrines.cards import slug, type_of


def position(game="creature_shrines", players=({}, {}), units=(), **top):
    """A state of ``game`` where ``players`` (dicts in the format of ``to_dict``) hold
    what they name, ``units`` stand on the region, ``top`` sets the other keys (step,
    act, turn...), and the rest of each deck is in its libraries."""
    g = core.load_game(game)
    players = [dict(p) for p in players]
    for p, pl in enumerate(players):
        deck = g.decks[g.params[f"deck{p}"]]
        left = {}
        for card, n in deck.primary + deck.secondary:
            left[slug(card.name)] = left.get(slug(card.name), 0) + n
        used = [c for key in ("hand", "hand_secondary", "graveyard", "bottom")
                for c in pl.get(key, [])]
        used += [c for key in ("sources",) for c, n in pl.get(key, {}).items() for _ in range(n)]
        used += [u[key] for u in units if u.get("owner", 0) == p
                 for key in ("card", "rider") if key in u]
        for name in used:
            if name in left:
                left[name] -= 1
        sources = {slug(c.name) for c in CARDSET.cards if type_of(c) == "source"}
        pl.setdefault("primary", [c for c, n in left.items() if c not in sources
                                  for _ in range(n)])
        pl.setdefault("secondary", [c for c, n in left.items() if c in sources
                                    for _ in range(n)])
        pl.setdefault("shrine_home", not any(u["card"] == slug(deck.shrine.name)
                                             for u in units if u.get("owner", 0) == p))
    return g.state_from_dict({"players": players, "units": list(units), **top})


def names(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def act(state, *steps):
    """Apply the legal actions called ``steps``, in turn."""
    for name in steps:
        for a in state.legal_actions():
            if state.action_to_string(a) == name:
                state.apply_action(a)
                break
        else:
            raise AssertionError(f"{name!r} is not legal; legal: {names(state)}")
    return state


def unit(state, slot):
    return next(u for u in state.to_dict()["units"] if u["slot"] == slot)
