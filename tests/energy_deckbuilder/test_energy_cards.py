"""One test per card design, generated from the card data: each design is played in a
position where everything it does shows, and the position after is checked against a
small model of the effect words written here from their meaning (docs: the card list's
"Effect words"), not from the engine."""
import copy

import pytest

from core.energy_deckbuilder.cards import CARDS, ENERGY, EVENTS, TYPES, WORDS
from core.errors import StateFormatError
from energy_positions import DESIGN, act, names, position

# The opponent's creatures: a tough one that damage marks without destroying, and a
# weak one that every destroy effect of the set can take.
TOUGH = ("Sentinel", "Oakheart")
WEAK = ("Emberling", "Kindler")


def kind(card):
    return TYPES[card.type]


def texts(card, event):
    return [WORDS.text(e) for e in getattr(card, event)]


def toughness(c):
    return DESIGN[c["card"]].toughness + sum(DESIGN[u].toughness for u in c["upgrades"])


def power(c):
    return DESIGN[c["card"]].power + c["boost"] + sum(DESIGN[u].power for u in c["upgrades"])


def creature(name, tapped=False, upgrades=()):
    return {"card": name, "tapped": tapped, "damage": 0, "boost": 0,
            "stored": {"red": 0, "green": 0, "blue": 0}, "upgrades": list(upgrades)}


def white(c):
    return c is not None and DESIGN[c["card"]].colour & 1


def model(view, effects, p, slot):
    """The position ``view`` after player ``p``'s ``effects`` (texts) run for the
    creature in ``slot`` (None: a card, not a creature), each choice taking the lowest
    slot and each draw the first card of the draw pile as the view lists it."""
    v = copy.deepcopy(view)
    me, foe = v["players"][p], v["players"][1 - p]

    def hurt(i, n):
        c = foe["creatures"][i]
        c["damage"] += n
        if c["damage"] >= toughness(c):
            foe["discard"] += [c["card"]] + c["upgrades"]
            foe["creatures"][i] = None

    for text in effects:
        word, n, *arg = text.split()
        n = int(n)
        alive = [i for i, c in enumerate(foe["creatures"]) if c is not None]
        if word == "damage" and arg == ["player"]:
            foe["lives"] -= n
        elif word == "damage" and arg == ["all"]:
            for i in alive:
                hurt(i, n)
        elif word == "damage" and alive:
            hurt(alive[0], n)
        elif word == "destroy":
            for i in alive:
                if toughness(foe["creatures"][i]) <= n:
                    hurt(i, 99)
                    break
        elif word == "life":
            me["lives"] += n
        elif word == "draw":
            for _ in range(n):
                me["hand"].append(me["draw"].pop(0))
        elif word == "gain":
            me["energy"][arg[0]] += n
        elif word == "store":
            target = next(c for c in me["creatures"] if white(c))
            target["stored"][arg[0]] += n
        elif word == "untap":
            for i, c in enumerate(me["creatures"]):
                if n and c is not None and c["tapped"] and i != slot:
                    c["tapped"] = False
                    n -= 1
        elif word == "boost":
            next(c for c in me["creatures"] if c is not None)["boost"] += n
    return v


def resolve(state):
    """Take the first choice and the first card until stage 3 waits on its player."""
    while state.to_dict()["pending"]:
        state.apply_action(state.legal_actions()[0])
    return state


def settled(view):
    """What the tests compare: each player's lives, energy, hand, discard pile and
    creatures, piles as sorted lists."""
    return [{"lives": p["lives"], "energy": p["energy"], "hand": sorted(p["hand"]),
             "discard": sorted(p["discard"]), "creatures": p["creatures"]}
            for p in view["players"]]


def opponents(card):
    return [creature(next(n for n in TOUGH if n != card.name)),
            creature(next(n for n in WEAK if n != card.name)), None]


def cost_energy(card):
    # The play cost exactly, its "any" part in black.
    return dict(zip(ENERGY, card.cost))


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_playing_the_card_does_what_its_data_says(card):
    mine = [creature("Wisp", tapped=True), None, None]
    state = position(players=[{"hand": [card.name], "energy": cost_energy(card),
                               "creatures": mine},
                              {"creatures": opponents(card)}])
    before = state.to_dict()
    act(state, f"play {card.name}")
    resolve(state)
    expected = copy.deepcopy(before)
    me = expected["players"][0]
    me["hand"].remove(card.name)
    me["energy"] = dict.fromkeys(ENERGY, 0)
    slot = None
    if kind(card) == "creature":
        slot = me["creatures"].index(None)
        me["creatures"][slot] = creature(card.name)
    elif kind(card) == "upgrade":
        slot = 0
        me["creatures"][0]["upgrades"].append(card.name)
    else:
        me["discard"].append(card.name)
    expected = model(expected, texts(card, "play"), 0, slot)
    assert settled(state.to_dict()) == settled(expected)
    assert state.to_dict()["stage"] == "main"


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_discarding_the_card_gives_its_energy(card):
    for k, colour in enumerate(ENERGY):
        if not card.discard >> k & 1:
            continue
        state = position(players=[{"hand": [card.name]}, {}])
        act(state, f"discard {card.name} for {colour}")
        me = state.to_dict()["players"][0]
        assert me["energy"] == {c: int(c == colour) for c in ENERGY}
        assert card.name in me["discard"] and card.name not in me["hand"]
    offered = {n for n in names(position(players=[{"hand": [card.name]}, {}]))
               if n.startswith("discard")}
    assert offered == {f"discard {card.name} for {ENERGY[k]}" for k in range(4)
                       if card.discard >> k & 1}


def body(card):
    """The creature a creature card or an upgrade card makes: itself, or a Wisp it is
    on."""
    if kind(card) == "creature":
        return creature(card.name)
    return creature("Wisp", upgrades=[card.name])


@pytest.mark.parametrize("card", [c for c in CARDS if kind(c) != "action"],
                         ids=lambda c: c.name)
def test_the_creature_has_the_power_and_toughness_of_its_data(card):
    c = body(card)
    strength = power(c)
    # Lives are open to attack behind fewer than three creatures.
    state = position(players=[{"creatures": [c, None, None]}, {}])
    attack = f"attack lives with {c['card']} (slot 1)"
    if strength == 0:
        assert attack not in names(state)
    else:
        act(state, attack)
        assert state.to_dict()["players"][1]["lives"] == 20 - strength
    worn = dict(c, damage=toughness(c) - 1)
    position(players=[{"creatures": [worn, None, None]}, {}])
    with pytest.raises(StateFormatError, match="has been destroyed"):
        position(players=[{"creatures": [dict(c, damage=toughness(c)), None, None]}, {}])


@pytest.mark.parametrize("card", [c for c in CARDS if kind(c) != "action"],
                         ids=lambda c: c.name)
def test_producing_gives_the_energy_then_the_produce_trigger(card):
    c = body(card)
    state = position(players=[{"creatures": [c, creature("Wisp", tapped=True), None]},
                              {"creatures": opponents(card)}])
    before = state.to_dict()
    act(state, f"produce with {c['card']} (slot 1)")
    resolve(state)
    expected = copy.deepcopy(before)
    me = expected["players"][0]
    me["creatures"][0]["tapped"] = True
    for k, colour in enumerate(ENERGY):
        me["energy"][colour] += DESIGN[c["card"]].energy[k] \
            + sum(DESIGN[u].energy[k] for u in c["upgrades"])
    effects = texts(DESIGN[c["card"]], "produce") + [
        t for u in c["upgrades"] for t in texts(DESIGN[u], "produce")]
    assert settled(state.to_dict()) == settled(model(expected, effects, 0, 0))


@pytest.mark.parametrize("card", [c for c in CARDS if c.upkeep], ids=lambda c: c.name)
def test_the_upkeep_trigger_runs_at_the_start_of_its_owners_turn(card):
    c = body(card)
    hand = ["Cinder", "Sprout", "Droplet"]
    state = position(turn=4, active=1,
                     players=[{"creatures": [c, None, None], "hand": hand},
                              {"creatures": opponents(card), "draw": ["Wisp"] * 5}])
    before = state.to_dict()
    act(state, "end")
    resolve(state)
    after = state.to_dict()
    assert (after["turn"], after["active"]) == (5, 0)
    expected = model(before, texts(card, "upkeep"), 0, 0)
    assert settled(after)[0] == settled(expected)[0]
    assert after["players"][1]["lives"] == expected["players"][1]["lives"]


def test_every_effect_word_is_on_some_card():
    used = {WORDS.words[op].name for c in CARDS for ev in EVENTS for op, *_ in getattr(c, ev)}
    assert used == {w.name for w in WORDS.words}
