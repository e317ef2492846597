"""Building exact Creature Shrines positions for the ruling tests: name the cards that
matter; every other card of each deck lies in its library (Sources in the secondary)."""
import core
from core.creature_shrines import CARDSET
from core.creature_shrines.cards import COLOURS, slug, type_of


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
        used = [c for key in ("hand", "hand_secondary", "graveyard") for c in pl.get(key, [])]
        # a known card on top of or under a library is a name, or one with its library
        used += [c["card"] if isinstance(c, dict) else c
                 for key in ("top", "top_secondary", "bottom", "bottom_secondary")
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


def carries(deck, card):
    """Whether ``deck`` plays ``card``: as its Shrine or in a library."""
    return card is deck.shrine or any(c is card for c, _ in deck.primary + deck.secondary)


def carrying_every_design(folder):
    """A deck file of the shipped decks, each also carrying one copy of every design
    of its colour that no shipped deck carries (in place of one copy of its most
    plentiful card): every design is tested, played or not."""
    spare = {}
    for card in CARDSET.cards:
        if not card.token and not any(carries(d, card) for d in CARDSET.decks.values()):
            colour = next((c for i, c in enumerate(COLOURS) if card.colours >> i & 1), "red")
            spare.setdefault(colour, []).append(card)
    lines = []
    for name, deck in CARDSET.decks.items():
        counts = {c.name: n for c, n in deck.primary}
        for card in spare.get(name, []):
            counts[max(counts, key=counts.get)] -= 1
            counts[card.name] = 1
        lines += [f"[deck.{name}]", f'shrine = "{deck.shrine.name}"',
                  "secondary = {" + ", ".join(f'"{c.name}" = {n}' for c, n in deck.secondary)
                  + "}", f"[deck.{name}.primary]"]
        lines += [f'"{card}" = {n}' for card, n in counts.items() if n]
    path = folder / "every-design.toml"
    path.write_text("\n".join(lines) + "\n")
    return path
