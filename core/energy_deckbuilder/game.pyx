# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The energy deck-builder's Python half: the names of actions, a position as plain data
and as text, reading and checking a position, and :class:`EnergyDeckbuilderGame`.  The
rules, chance and knowledge are the engine's (``engine.pyx``), whose struct and card
tables this module reads through ``engine.pxd``.  The engine never imports this module:
a state reaches its names and views through ``state.game``, the
:class:`EnergyDeckbuilderGame` that made it.
"""
from libc.stdint cimport uint8_t
from libc.string cimport memcpy, memset

from core.energy_deckbuilder.engine cimport (A_ATTACK, A_BUY, A_DISCARD, A_END, A_FOE, A_OWN, A_PAY,
                                             A_PLAY, A_PRODUCE, COLOURS, CREATURE, DESIGNS, DRAW,
                                             F_ATTACH, F_DRAW, F_FOE, F_OWN, F_PAY, F_REFILL,
                                             F_REPLACE, F_TRIGGERS, FOR_BUY, LIVES, MARKET,
                                             MAX_CHOICES, MAX_DESIGNS, N_DESIGNS, N_UPGRADES, NONE,
                                             NUM_ACTIONS, OP_BOOST, OP_DAMAGE, OP_DESTROY, OP_KEEP,
                                             OP_STORE, OP_UNTAP, PILE, SLOTS, SPLIT, STAGE_MAIN,
                                             STAGE_OVER, STAGE_SETUP, STARTER, STORABLE, TURN_STEPS,
                                             UPGRADE, UPGRADE_DESIGN, Creature, EnergyData,
                                             EnergyState, Side, alive, cards, choices, is_white,
                                             push_frame, toughness)
from core.kit.effects cimport FRAME_EFFECTS, STACK_DEPTH, Frame, Span, stack_push, stack_top
from core.energy_deckbuilder import cards as carddata
from core.energy_deckbuilder.cards import ENERGY, EVENTS, TYPES
from core.energy_deckbuilder.engine import LAYOUT, STAGES
from core.errors import StateFormatError
from core.kit import Cards, read_bool, read_int, read_name, read_players, read_winner
from core.kit.position import check_keys
from core.state import Game

CARD_NAMES = [c.name for c in carddata.CARDS]
UPGRADE_NAMES = [CARD_NAMES[UPGRADE_DESIGN[u]] for u in range(N_UPGRADES)]
FRAME_KINDS = ["effects", "triggers", "draw", "refill", "pay", "replace", "attach", "foe",
               "own"]
OWN_EFFECTS = {OP_STORE: "store", OP_UNTAP: "untap", OP_BOOST: "boost", OP_KEEP: "keep"}
FOE_EFFECTS = {OP_DAMAGE: "damage", OP_DESTROY: "destroy"}


class _Designs(Cards):
    """Card names read in any case, as the kit reads card names."""

    def __init__(self, names, hint):
        super().__init__(names, hint)
        self._folded = {name.upper(): k for k, name in enumerate(self.names)}

    def kind(self, name, where):
        if not isinstance(name, str) or name.upper() not in self._folded:
            raise StateFormatError(f"{where}: {name!r} is not a card ({self.hint})")
        return self._folded[name.upper()]


CARDS = _Designs(CARD_NAMES, "the cards are listed in docs/energy-deckbuilder-cards.md")
# Every copy of each design in a game: starters for both players, the piles, the market.
FULL_SET = [DESIGNS[d].in_game for d in range(N_DESIGNS)]


# --- names ------------------------------------------------------------------------------

def _slot_name(EnergyState st, int p, int slot):
    cdef int d = st.s.sides[p].creatures[slot].design
    return f"{CARD_NAMES[d] if d >= 0 else 'nothing'} (slot {slot + 1})"


def _label(EnergyState st, int a):
    """The readable name of action (or chance outcome) ``a`` in ``st``."""
    cdef EnergyData* s = &st.s
    cdef Frame* f = stack_top(&s.stack) if s.stage != STAGE_OVER else NULL
    cdef int p = s.active
    if f != NULL and f.kind in (F_DRAW, F_REFILL):
        if a >= N_DESIGNS:
            return f"no card {a}"
        return f"draw {CARD_NAMES[a]}" if f.kind == F_DRAW else f"reveal {CARD_NAMES[a]}"
    if f != NULL:
        return _choice_label(st, f, a)
    if a == A_END:
        return "end"
    if a < A_PLAY:
        return f"buy {_design(a - A_BUY)}"
    if a < A_DISCARD:
        return f"play {_design(a - A_PLAY)}"
    if a < A_ATTACK:
        d, k = divmod(a - A_DISCARD, COLOURS)
        return f"discard {_design(d)} for {ENERGY[k]}"
    if a < A_PRODUCE:
        slot, t = divmod(a - A_ATTACK, 4)
        target = "lives" if t == LIVES else _slot_name(st, 1 - p, t)
        return f"attack {target} with {_slot_name(st, p, slot)}"
    if a < A_PAY:
        return f"produce with {_slot_name(st, p, a - A_PRODUCE)}"
    return f"no action {a} (nothing is to be chosen)"


def _design(d):
    return CARD_NAMES[d] if d < N_DESIGNS else f"design {d}"


cdef _choice_label(EnergyState st, Frame* f, int a):
    cdef int p = f.player
    if f.kind == F_PAY:
        if A_PAY <= a < A_OWN:
            red, green = divmod(a - A_PAY, SPLIT)
            split = (red, green, f.data[0] - red - green)
            return "pay " + ", ".join(f"{n} {ENERGY[k]}" for k, n in enumerate(split) if n)
    elif f.kind == F_FOE:
        if A_FOE <= a < NUM_ACTIONS:
            verb = FOE_EFFECTS[f.data[0]]
            return f"{verb} {_slot_name(st, 1 - p, a - A_FOE)}"
    elif f.kind == F_OWN and f.data[0] == OP_KEEP:
        colour = ENERGY[f.data[2]]
        if a == A_END:
            return f"return the {colour} left"
        if A_OWN <= a < A_FOE:
            return f"keep {colour} on {_slot_name(st, p, a - A_OWN)}"
    elif A_OWN <= a < A_FOE:
        verb = {F_REPLACE: "replace", F_ATTACH: "upgrade"}.get(f.kind) \
            or {OP_STORE: "store on", OP_UNTAP: "untap", OP_BOOST: "boost"}[f.data[0]]
        return f"{verb} {_slot_name(st, p, a - A_OWN)}"
    return f"no action {a} (a {FRAME_KINDS[f.kind]} choice is pending)"


# --- plain data --------------------------------------------------------------------------

cdef list _named(const uint8_t* pile):
    # Cards.named's work, looped in C: every view names a dozen piles.
    cdef list out = []
    cdef int d, k
    for d in range(N_DESIGNS):
        for k in range(pile[d]):
            out.append(CARD_NAMES[d])
    return out


cdef dict _cubes(const uint8_t* e, int n):
    return {ENERGY[k]: e[k] for k in range(n)}


cdef _creature(Creature* c):
    if not alive(c):
        return None
    return {"card": CARD_NAMES[c.design], "tapped": bool(c.tapped), "damage": c.damage,
            "boost": c.boost, "stored": _cubes(c.stored, STORABLE),
            "upgrades": [UPGRADE_NAMES[u] for u in range(N_UPGRADES)
                         for _ in range(c.upgrades[u])]}


cdef dict _frame(Frame* f):
    cdef Span span
    kind = FRAME_KINDS[f.kind]
    d = {"kind": kind}
    if f.kind != F_REFILL:
        d["player"] = f.player
    if f.kind in (FRAME_EFFECTS, F_PAY, F_REPLACE, F_ATTACH, F_FOE, F_OWN) and f.source >= 0:
        d["card"] = CARD_NAMES[f.source]
    if f.kind == FRAME_EFFECTS:
        span = DESIGNS[f.source].events[f.data[1]]
        d.update(event=EVENTS[f.data[1]], next=f.pc - span.start,
                 slot=None if f.data[0] < 0 else f.data[0])
    elif f.kind == F_TRIGGERS:
        d.update(event=EVENTS[f.data[0]], slot=f.data[1], last_slot=f.data[2], unit=f.data[3])
    elif f.kind in (F_DRAW, F_REFILL):
        d["cards"] = f.data[0]
    elif f.kind == F_PAY:
        d.update(left=f.data[0], purpose="buy" if f.data[1] == FOR_BUY else "play")
    elif f.kind == F_FOE:
        d.update(effect=FOE_EFFECTS[f.data[0]], amount=f.data[1])
    elif f.kind == F_OWN:
        d.update(effect=OWN_EFFECTS[f.data[0]], amount=f.data[1])
        if f.data[0] == OP_STORE or f.data[0] == OP_KEEP:
            d["colour"] = ENERGY[f.data[2]]
        if f.data[0] == OP_KEEP:
            d["from_slot"] = f.data[3]
        if f.data[0] == OP_UNTAP:
            d["barred"] = None if f.data[3] < 0 else f.data[3]
    return d


def _view(EnergyState st, viewer):
    """The position as plain data; with a ``viewer``, what that player sees."""
    cdef EnergyData* s = &st.s
    cdef Side* side
    cdef uint8_t unseen[MAX_DESIGNS]
    cdef int p, i, d
    players = []
    for p in range(2):
        side = &s.sides[p]
        known = _named(side.known)
        player = {"lives": side.lives, "energy": _cubes(side.energy, COLOURS),
                  "hand": _named(side.hand), "draw": _named(side.draw),
                  "discard": _named(side.discard), "known": known,
                  "creatures": [_creature(&side.creatures[i]) for i in range(SLOTS)]}
        if viewer is not None and viewer != p:
            # The hand and draw pile together are public: every card the player owns
            # less those in view.  Only the split between the two is hidden.
            for d in range(N_DESIGNS):
                unseen[d] = side.hand[d] - side.known[d] + side.draw[d]
            player["unseen"] = _named(unseen)
            player["hand"] = known + ["??"] * (cards(side.hand) - cards(side.known))
            player["draw"] = ["??"] * cards(side.draw)
        players.append(player)
    return {
        "turn": s.turn,
        "active": s.active,
        "stage": STAGES[s.stage],
        "current_player": st.c_current_player(),
        "winner": None if s.winner == NONE else ("draw" if s.winner == DRAW else s.winner),
        "bought": bool(s.bought),
        "steps": s.steps,
        "common": _cubes(s.common, COLOURS),
        "market": [CARD_NAMES[d] for d in range(N_DESIGNS)
                   if DESIGNS[d].deck == MARKET and s.market[d]],
        "piles": {CARD_NAMES[d]: s.market[d] for d in range(N_DESIGNS)
                  if DESIGNS[d].deck == PILE},
        "market_deck": _named(s.market_deck),
        "players": players,
        "pending": [_frame(&s.stack.frames[i]) for i in range(s.stack.depth)],
    }


def render(view):
    """A few lines of text for a position dict (``to_dict`` or ``observation_dict``)."""
    def pile(names):
        return f"{len(names)}: {' '.join(names)}" if names else "0"

    def cubes(e):
        return " ".join(f"{n}{k[0].upper() if k != 'black' else 'K'}" for k, n in e.items()
                        if n) or "-"

    def creature(c):
        if c is None:
            return "-"
        marks = ("tapped " if c["tapped"] else "") + (f"{c['damage']} damage " if c["damage"]
                                                      else "")
        ups = f" +{'+'.join(c['upgrades'])}" if c["upgrades"] else ""
        stored = cubes(c["stored"])
        return f"{c['card']}{ups} ({marks}stored {stored})".replace("( ", "(")

    lines = [f"  {status(view)}",
             f"  market: {' '.join(view['market']) or '-'}; piles: "
             + ", ".join(f"{k} {n}" for k, n in view["piles"].items())]
    for p, pl in enumerate(view["players"]):
        lines.append(f"  player {p}: {pl['lives']} lives, energy {cubes(pl['energy'])}; hand "
                     f"{pile(pl['hand'])} | draw {len(pl['draw'])} | discard "
                     f"{pile(pl['discard'])}")
        lines.append("    creatures: " + " | ".join(creature(c) for c in pl["creatures"]))
    return "\n".join(lines)



STAGE_WORDS = {"setup": "the deal", "upkeep": "upkeep", "main": "playing and buying",
               "store": "storing energy", "draw": "drawing a new hand"}


def status(view):
    """Turn, whose turn and what happens now, in a player's words.  The position
    counts turns from 1 already."""
    if view.get("winner") is not None:
        return "game over: a draw" if view["winner"] == "draw" \
            else f"game over: player {view['winner']} wins"
    if view["stage"] == "setup":
        return "the deal"
    line = (f"turn {view['turn']}, player {view['active']}'s turn: "
            f"{STAGE_WORDS.get(view['stage'], view['stage'])}")
    if view.get("bought"):
        line += " (has bought this turn)"
    common = ", ".join(f"{n} {colour}" for colour, n in view["common"].items())
    return f"{line}; common supply {common}"


# --- building positions ---------------------------------------------------------------------

_KNOWN_KEYS = ("turn", "active", "stage", "current_player", "winner", "bought", "steps",
               "common", "market", "piles", "market_deck", "players", "pending")
_PLAYER_KEYS = ("lives", "energy", "hand", "draw", "discard", "known", "creatures", "unseen")
_CREATURE_KEYS = ("card", "tapped", "damage", "boost", "stored", "upgrades")


def _read_cubes(desc, key, names, where, default):
    value = desc.get(key, default)
    if not isinstance(value, dict) or set(value) - set(names):
        raise StateFormatError(f"{where}{key} is a dict of energy by colour, such as "
                               f"{{\"red\": 1}}; colours: {', '.join(names)}")
    return [read_int(value, k, 0, 24, 0, f"{where}{key}.") for k in names]


def _from_dict(game, desc):
    """Build a position from ``desc`` (the format of ``to_dict``; most keys optional)."""
    cdef EnergyState st = EnergyState.__new__(EnergyState)
    cdef EnergyData* s = &st.s
    _reset(st, game)
    winner = read_winner(desc, 2)
    s.winner = NONE if winner is None else DRAW if winner == "draw" else winner
    s.stage = read_name(desc.get("stage", "main" if winner is None else "over"), STAGES,
                        "stage")
    s.turn = read_int(desc, "turn", 1, s.max_turns, 1)
    s.active = read_int(desc, "active", 0, 1, 0)
    s.bought = read_bool(desc, "bought", False)
    s.steps = read_int(desc, "steps", 0, 30000, 0)
    total = [0] * N_DESIGNS
    stored = [0] * STORABLE
    players = read_players(desc, 2, _PLAYER_KEYS)
    for p in range(2):
        _read_side(s, p, players[p], total, stored)
    market = desc.get("market", [])
    if not isinstance(market, list) or len(market) > 8:
        raise StateFormatError("market is a list of the face-up market cards, at most 8")
    for i, name in enumerate(market):
        d = CARDS.kind(name, f"market[{i}]")
        if DESIGNS[d].deck != MARKET or s.market[d]:
            raise StateFormatError(f"market[{i}]: {name!r} is not a market card, or is there "
                                   "twice (the zero-cost cards are in piles)")
        s.market[d] = 1
        total[d] += 1
    piles = desc.get("piles", {})
    if not isinstance(piles, dict):
        raise StateFormatError("piles is a dict of the zero-cost cards and how many of each "
                               "are left")
    for name in piles:
        if DESIGNS[CARDS.kind(name, "piles")].deck != PILE:
            raise StateFormatError(f"piles: {name!r} is not a zero-cost card")
    _read_pending(s, desc.get("pending", []), total)
    for d in range(N_DESIGNS):
        if DESIGNS[d].deck == PILE:
            # By default a pile holds every card of its design found nowhere else.
            left = max(0, FULL_SET[d] - total[d]) if CARD_NAMES[d] not in piles \
                else read_int(piles, CARD_NAMES[d], 0, FULL_SET[d], 0, "piles.")
            s.market[d] = left
            total[d] += left
    if "market_deck" in desc:
        deck = CARDS.counts(desc["market_deck"], "market_deck")
    else:
        # By default the market deck holds every market card found nowhere else.
        deck = [max(0, FULL_SET[d] - total[d]) if DESIGNS[d].deck == MARKET else 0
                for d in range(N_DESIGNS)]
    for d in range(N_DESIGNS):
        if deck[d] and DESIGNS[d].deck != MARKET:
            raise StateFormatError(f"market_deck: {CARD_NAMES[d]} is not a market card")
        s.market_deck[d] = deck[d]
        total[d] += deck[d]
    CARDS.check_all(total, FULL_SET, "each player's starting deck, 4 of each zero-cost "
                                     "card and one of each market card")
    held = [sum(s.sides[p].energy[k] for p in range(2)) + (stored[k] if k < STORABLE else 0)
            for k in range(COLOURS)]
    common = _read_cubes(desc, "common", ENERGY, "", {k: 6 - n for k, n in zip(ENERGY, held)})
    for k in range(COLOURS):
        if common[k] + held[k] != 6:
            raise StateFormatError(f"{ENERGY[k]} energy: {held[k]} held by the players and "
                                   f"{common[k]} in the common supply; the game has 6")
        s.common[k] = common[k]
    _check_flow(st)
    return st


cdef _read_side(EnergyData* s, int p, pl, list total, list stored):
    cdef Side* side = &s.sides[p]
    cdef Creature* c
    where = f"players[{p}]."
    if "unseen" in pl:
        raise StateFormatError(f"players[{p}].unseen: an observation is not a position; "
                               "give the whole truth, as to_dict does")
    side.lives = read_int(pl, "lives", -999, 9999, s.start_lives, where)
    for k, n in enumerate(_read_cubes(pl, "energy", ENERGY, where, {})):
        side.energy[k] = n
    for key in ("hand", "draw", "discard", "known"):
        counts = CARDS.counts(pl.get(key, []), where + key)
        for d in range(N_DESIGNS):
            if key == "hand":
                side.hand[d] = counts[d]
            elif key == "draw":
                side.draw[d] = counts[d]
            elif key == "discard":
                side.discard[d] = counts[d]
            else:
                if counts[d] > side.hand[d]:
                    raise StateFormatError(f"{where}known: {CARD_NAMES[d]} is known to be in "
                                           "the hand, but the hand holds fewer")
                side.known[d] = counts[d]
            if key != "known":
                total[d] += counts[d]
    creatures = pl.get("creatures", [None] * SLOTS)
    if not isinstance(creatures, list) or len(creatures) != SLOTS:
        raise StateFormatError(f"{where}creatures is a list of {SLOTS} creatures or nulls")
    for i, cd in enumerate(creatures):
        c = &side.creatures[i]
        memset(c, 0, sizeof(Creature))
        c.design = NONE
        if cd is None:
            continue
        at = f"{where}creatures[{i}]"
        check_keys(cd, _CREATURE_KEYS, at + ": ")
        d = CARDS.kind(cd.get("card"), at + ".card")
        if DESIGNS[d].kind != CREATURE:
            raise StateFormatError(f"{at}.card: {CARD_NAMES[d]} is not a creature")
        c.design = d
        total[d] += 1
        c.tapped = read_bool(cd, "tapped", False, at + ".")
        c.damage = read_int(cd, "damage", 0, 254, 0, at + ".")
        c.boost = read_int(cd, "boost", 0, 254, 0, at + ".")
        for k, n in enumerate(_read_cubes(cd, "stored", ENERGY[:STORABLE], at + ".", {})):
            if n and not is_white(c):
                raise StateFormatError(f"{at}.stored: energy is stored on white creatures only")
            c.stored[k] = n
            stored[k] += n
        for u_name in CARDS.kinds_of(cd.get("upgrades", []), at + ".upgrades"):
            if DESIGNS[u_name].kind != UPGRADE:
                raise StateFormatError(f"{at}.upgrades: {CARD_NAMES[u_name]} is not an upgrade")
            c.upgrades[DESIGNS[u_name].upgrade] += 1
            total[u_name] += 1
        if c.damage and c.damage >= toughness(c):
            raise StateFormatError(f"{at}.damage: a creature with damage at its toughness "
                                   "has been destroyed")


_FRAME_KEYS = {"effects": ("card", "event", "next", "slot"),
               "triggers": ("event", "slot", "last_slot", "unit"),
               "draw": ("cards",), "refill": ("cards",), "pay": ("card", "left", "purpose"),
               "replace": ("card",), "attach": ("card",), "foe": ("card", "effect", "amount"),
               "own": ("card", "effect", "amount", "colour", "barred", "from_slot")}


cdef _read_pending(EnergyData* s, pending, list total):
    cdef Frame* f
    cdef Span span
    if not isinstance(pending, list) or len(pending) > STACK_DEPTH:
        raise StateFormatError(f"pending is a list of at most {STACK_DEPTH} frames")
    for i, fd in enumerate(pending):
        where = f"pending[{i}]"
        if not isinstance(fd, dict) or fd.get("kind") not in _FRAME_KEYS:
            raise StateFormatError(f"{where} is a dict whose kind is one of "
                                   f"{', '.join(_FRAME_KEYS)}")
        kind = FRAME_KINDS.index(fd["kind"])
        check_keys(fd, ("kind", "player") + _FRAME_KEYS[fd["kind"]], where + ": ")
        player = NONE if kind == F_REFILL else read_int(fd, "player", 0, 1, 0, where + ".")
        card = NONE
        if "card" in fd and fd["card"] is not None:
            card = CARDS.kind(fd["card"], where + ".card")
        f = stack_push(&s.stack, kind, player, card)
        if kind == FRAME_EFFECTS:
            event = read_name(fd.get("event"), list(EVENTS), where + ".event")
            if card < 0 or DESIGNS[card].events[event].start >= DESIGNS[card].events[event].end:
                raise StateFormatError(f"{where}: the card has no {EVENTS[event]} effects")
            span = DESIGNS[card].events[event]
            f.pc = span.start + read_int(fd, "next", 0, span.end - span.start, 0, where + ".")
            f.end = span.end
            slot = fd.get("slot")
            f.data[0] = NONE if slot is None else read_int(fd, "slot", 0, SLOTS - 1, 0, where + ".")
            f.data[1] = event
        elif kind == F_TRIGGERS:
            f.data[0] = read_name(fd.get("event"), list(EVENTS[1:]), where + ".event") + 1
            f.data[1] = read_int(fd, "slot", 0, SLOTS, 0, where + ".")
            f.data[2] = read_int(fd, "last_slot", 0, SLOTS - 1, SLOTS - 1, where + ".")
            f.data[3] = read_int(fd, "unit", 0, 999, 0, where + ".")
        elif kind in (F_DRAW, F_REFILL):
            f.data[0] = read_int(fd, "cards", 1, 99, 1, where + ".")
        elif kind == F_PAY:
            if card < 0:
                raise StateFormatError(f"{where}.card: the card being paid for")
            f.data[0] = read_int(fd, "left", 1, 12, 1, where + ".")
            f.data[1] = read_name(fd.get("purpose"), ["buy", "play"], where + ".purpose")
        elif kind in (F_REPLACE, F_ATTACH):
            wanted = CREATURE if kind == F_REPLACE else UPGRADE
            if card < 0 or DESIGNS[card].kind != wanted:
                raise StateFormatError(f"{where}.card: the {TYPES[wanted]} coming into play")
            # The card is on its way into play: out of the hand, not yet in place.
            total[card] += 1
        elif kind == F_FOE:
            f.data[0] = list(FOE_EFFECTS)[
                read_name(fd.get("effect"), list(FOE_EFFECTS.values()), where + ".effect")]
            f.data[1] = read_int(fd, "amount", 1, 12, 1, where + ".")
        else:
            f.data[0] = list(OWN_EFFECTS)[
                read_name(fd.get("effect"), list(OWN_EFFECTS.values()), where + ".effect")]
            f.data[1] = read_int(fd, "amount", 0, 12, 1, where + ".")
            f.data[2] = read_name(fd.get("colour", "red"), list(ENERGY[:STORABLE]),
                                  where + ".colour")
            barred = fd.get("barred")
            f.data[3] = NONE if barred is None else read_int(fd, "barred", 0, SLOTS - 1, 0,
                                                             where + ".")
            if f.data[0] == OP_KEEP:
                f.data[3] = read_int(fd, "from_slot", 0, SLOTS - 1, 0, where + ".")


def _check_flow(EnergyState st):
    """The parts of a position built from a dict fit together as play leaves them: the
    game waits on a decision with a real choice, a chance event, or stage 3."""
    cdef EnergyData* s = &st.s
    cdef Frame* f = stack_top(&s.stack)
    cdef int buf[MAX_CHOICES]
    stage = STAGES[s.stage]
    if (s.winner == NONE) != (s.stage != STAGE_OVER):
        raise StateFormatError("a game with a winner is in stage 'over', and only such a game")
    if s.stage == STAGE_OVER:
        if s.stack.depth:
            raise StateFormatError("pending: nothing is pending once the game is over")
        return
    for p in range(2):
        if s.sides[p].lives <= 0:
            raise StateFormatError(f"players[{p}].lives: a player out of lives has lost")
    if s.stage == STAGE_SETUP and (s.turn != 1 or s.active):
        raise StateFormatError("stage 'setup' comes before turn 1, player 0's")
    if s.active != (s.turn + 1) % 2:
        raise StateFormatError(f"turn {s.turn} is player {(s.turn + 1) % 2}'s: player 0 "
                               "takes the odd turns")
    if f == NULL:
        if s.stage != STAGE_MAIN:
            raise StateFormatError(f"stage {stage!r}: something is pending then, or the "
                                   "game has moved on to stage 'main'")
        return
    if f.kind == F_DRAW:
        if not draw_ready_check(s, f):
            raise StateFormatError("pending: a draw waits only while there is a card to draw")
        return
    if f.kind == F_REFILL:
        if not cards(s.market_deck):
            raise StateFormatError("pending: a refill waits only while the market deck lasts")
        return
    if f.kind == FRAME_EFFECTS or f.kind == F_TRIGGERS:
        raise StateFormatError("pending: effects and triggers run at once; the top frame is "
                               "a decision, a draw or a refill")
    if f.kind == F_OWN and f.data[0] == OP_KEEP and not s.sides[f.player].energy[f.data[2]]:
        raise StateFormatError("pending: stage 4 stores a colour the player still holds (E24)")
    if choices(s, f, buf) < 2:
        raise StateFormatError("pending: a decision with fewer than two choices is made "
                               "at once")
    if f.player != s.active:
        raise StateFormatError("pending: the player whose turn it is makes every decision")


cdef bint draw_ready_check(EnergyData* s, Frame* f) noexcept nogil:
    return f.data[0] > 0 and cards(s.sides[f.player].draw) > 0


# --- the deal, rotated through the seats --------------------------------------------------

def _just_dealt(EnergyState st):
    """Whether the market and both hands are dealt (E23) and nothing else has happened:
    player 0's first turn waits on its first step."""
    cdef EnergyData* s = &st.s
    return (s.stage == STAGE_MAIN and s.turn == 1 and s.active == 0 and s.steps == 0
            and not s.bought and s.stack.depth == 0)


cdef void _swap(uint8_t* a, uint8_t* b) noexcept nogil:
    cdef uint8_t held[MAX_DESIGNS]
    memcpy(held, a, MAX_DESIGNS)
    memcpy(a, b, MAX_DESIGNS)
    memcpy(b, held, MAX_DESIGNS)


def _rotate_deal(EnergyState st, int k):
    """The starting decks change seats as they were dealt, hand and draw pile, with
    what the other seat knows of the hand (nothing yet: E18).  Lives, energy and the
    market stay.  In two seats, a rotation is a swap."""
    cdef Side* a = &st.s.sides[0]
    cdef Side* b = &st.s.sides[1]
    _swap(a.hand, b.hand)
    _swap(a.draw, b.draw)
    _swap(a.known, b.known)


def _chance_source(EnergyState st):
    """A card drawn comes from its player's draw pile; a market card, from the market
    deck."""
    cdef Frame* f = stack_top(&st.s.stack)
    if f.kind == F_DRAW:
        return (f.player, "draw")
    return (-1, "market")


def _reset(EnergyState st, game):
    """An empty table under ``game``'s rules: no card anywhere, nothing pending."""
    cdef int p, i
    st.game = game
    memset(&st.s, 0, sizeof(EnergyData))
    params = game.params
    st.s.hand_size = params["hand_size"]
    st.s.second_player_energy = params["second_player_energy"]
    st.s.max_turns = params["max_turns"]
    st.s.start_lives = params["lives"]
    st.s.winner = NONE
    st.s.turn = 1
    for p in range(2):
        st.s.sides[p].lives = params["lives"]
        for i in range(SLOTS):
            st.s.sides[p].creatures[i].design = NONE


class EnergyDeckbuilderGame(Game):
    """The energy deck-builder, with its numbers as parameters.

    >>> game = EnergyDeckbuilderGame(second_player_energy=3)
    >>> str(game)
    'energy_deckbuilder(second_player_energy=3)'
    >>> state = game.new_initial_state()
    >>> state.action_to_string(state.legal_actions()[0])   # the market is dealt first
    'reveal Emberling'
    """

    name = "energy_deckbuilder"
    long_name = "Energy deck-builder"
    # (E3, E4, E8)
    parameters = {"hand_size": 4, "lives": 20, "second_player_energy": 2, "max_turns": 80}
    limits = {
        "hand_size": (1, 10, "a hand of ten is more than a starting deck"),
        "lives": (1, 99, "a game from more lives outlasts max_turns"),
        "second_player_energy": (0, 6, "the common supply holds 6 black energy"),
        "max_turns": (2, 400, "a cap on the game's length"),
    }
    num_players = 2
    num_distinct_actions = NUM_ACTIONS
    max_chance_outcomes = MAX_DESIGNS
    cards = CARDS
    data_files = (carddata.PATH,)
    tensor_layout = LAYOUT
    position_keys = _KNOWN_KEYS
    # Each seat's starting deck, as its hand and draw pile, is what it is dealt: the
    # decks are alike, so only the luck of the shuffle moves (docs/rules/energy-deckbuilder.md).
    rotation_refusal = None
    # How the web page lays out a position (see core/state.pyx's Game.layout).
    layout = {"status": ("turn", "active", "stage", "winner", "bought", "common"),
              "player": ("lives", "energy", "creatures", "hand", "known", "discard", "draw",
                         "unseen"),
              "table": ("market", "piles", "pending"),
              "glossary": {
                  "lives": "a player whose lives reach zero loses",
                  "energy": "the player's supply of cubes, spent to buy and to play; "
                            "what is spent goes back to the common supply",
                  "creatures": "three slots of creatures in play: each may attack or "
                               "produce energy once a turn",
                  "known": "hand cards the opponent knows are there (E18)",
                  "discard": "bought and played cards: shuffled into a new draw pile "
                             "when it runs out",
                  "draw": "the draw pile, in no order that is known",
                  "unseen": "the cards of the opponent's hand and draw pile together, "
                            "as far as this seat can tell",
                  "market": "the face-up cards for sale; a bought one's place is filled "
                            "from the market deck",
                  "piles": "the free piles of the market, cards left in each",
                  "pending": "what waits to happen, bottom first"}}
    render = staticmethod(render)
    status = staticmethod(status)
    card_text = staticmethod(carddata.card_text)

    @property
    def max_game_length(self):
        # The deal; then per turn at most TURN_STEPS steps before stage 3 offers only
        # "end" (E19), and what is under way then: the effects of every card in the game
        # (each at most four words of at most nine steps), a payment, stage 4's choices
        # (a cube each, and a return for each colour: E24) and a new hand.
        tail = 36 * sum(FULL_SET) + 12 + 7 * STORABLE + self.params["hand_size"]
        return 8 + 2 * self.params["hand_size"] + self.params["max_turns"] * (TURN_STEPS + tail)

    def new_initial_state(self):
        """A game about to be dealt: the market's eight cards are turned up, then each
        player draws a hand (E23)."""
        cdef EnergyState st = EnergyState.__new__(EnergyState)
        cdef EnergyData* s = &st.s
        cdef int d, p
        _reset(st, self)
        for k in range(COLOURS):
            s.common[k] = 6                 # (E3)
        for d in range(N_DESIGNS):
            if DESIGNS[d].deck == STARTER:
                for p in range(2):
                    s.sides[p].draw[d] = DESIGNS[d].copies
            elif DESIGNS[d].deck == PILE:
                s.market[d] = DESIGNS[d].copies
            else:
                s.market_deck[d] = DESIGNS[d].copies
        s.stage = STAGE_SETUP
        push_frame(s, F_DRAW, 1, NONE, s.hand_size, 0, 0, 0)
        push_frame(s, F_DRAW, 0, NONE, s.hand_size, 0, 0, 0)
        push_frame(s, F_REFILL, NONE, NONE, 8, 0, 0, 0)
        return st

    def _action_name(self, state, action):
        return _label(state, action)

    def _action_kind(self, EnergyState state, int action):
        # A buy counts under the card bought, so a designer sees each card's buy rate.
        cdef Frame* f = stack_top(&state.s.stack)
        if f == NULL and A_BUY <= action < A_PLAY:
            return f"buy {CARD_NAMES[action - A_BUY]}"
        return _label(state, action).split()[0]

    def _view(self, state, viewer):
        return _view(state, viewer)

    def _from_dict(self, desc):
        return _from_dict(self, desc)

    def _just_dealt(self, state):
        return _just_dealt(state)

    def _rotate_deal(self, state, k):
        _rotate_deal(state, k)

    def _chance_source(self, state):
        return _chance_source(state)
