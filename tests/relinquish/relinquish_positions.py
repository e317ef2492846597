"""Building exact Relinquish positions for the ruling tests: name the cards that
matter, and every other card goes to the Scry pile."""
import core
from core.relinquish import CARD_NAMES


def position(game="relinquish", players=None, **top):
    """A state of ``game`` in which ``players`` (a list of dicts with hand, standing,
    resting) hold what they name, ``top`` sets the other keys of a position (discard,
    exile, phase, active, ...), and the Scry pile holds the rest, unless ``scry`` is
    given, in which case the rest is exiled."""
    g = core.load_game(game)
    players = [dict(p) for p in (players or [{} for _ in range(g.num_players)])]
    for p in players:
        p.setdefault("hand", [])
    placed = {c for p in players for key in ("hand", "standing", "resting") for c in p.get(key, [])}
    placed |= {p["flip"] for p in players if p.get("flip")}
    for key in ("discard", "exile", "scry"):
        placed |= set(top.get(key, []))
    for key in ("scrying", "magick"):
        placed |= set(top.get(key, {}).get("drawn", []))
    rest = [c for c in CARD_NAMES if c not in placed]
    if "scry" in top:
        top["exile"] = list(top.get("exile", [])) + rest
    else:
        top["scry"] = rest
    return g.state_from_dict({"players": players, **top})


def names(state, action_ids):
    return [state.action_to_string(a) for a in action_ids]


def act(state, name):
    """Apply the legal action called ``name``."""
    for a in state.legal_actions():
        if state.action_to_string(a) == name:
            state.apply_action(a)
            return a
    raise AssertionError(f"{name!r} is not legal; legal: {names(state, state.legal_actions())}")


def bountied(target, amount, opponent, me=(), hand=("T9",)):
    """A Bounty of ``amount`` (``"add 4"``) on ``target`` paid with P4 and P6, the first
    player standing them and ``me``, holding ``hand``, against ``opponent``."""
    state = position("relinquish(acceptance=false)",
                     players=[{"standing": ["P4", "P6", *me], "hand": list(hand)}, opponent])
    act(state, "bounty")
    act(state, "pay with P4")
    act(state, "pay with P6")
    act(state, f"target {target}")
    act(state, amount)
    return state
