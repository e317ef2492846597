# cython: language_level=3, cdivision=True
"""Relinquish's Python half: the names and kinds of actions, a position as plain data
and as text, reading and checking a position, and :class:`RelinquishGame`.  The rules,
chance, knowledge and the tensor are the engine's (``engine.pyx``), whose struct this
module reads through ``engine.pxd``.  The engine never imports this module: a state
reaches its names, kinds and views through ``state.game``, the
:class:`RelinquishGame` that made it.
"""
from libc.stdint cimport int8_t, uint8_t, uint64_t
from libc.string cimport memset

from core.relinquish.engine cimport (A_ARCANA, A_ATTACK, A_AUGUR, A_BOUNTY, A_CAPTURE,
                                     A_CLASH, A_CONGREGATE, A_CONSCRIPT, A_COUNTER,
                                     A_DECLINE, A_DEFEND, A_DISCARD, A_ENCHANT, A_END,
                                     A_FACE, A_FORTIFY, A_MEET, A_MURDER, A_NO_RALLY,
                                     A_PASS, A_PAY, A_PICK, A_POPULATE, A_RALLY,
                                     A_SUMMON, CONGREGATE, DEST_FLIP, DEST_SCRY, HAND_CARDS,
                                     LOC_ASIDE, LOC_DISCARD, LOC_DRAWN, LOC_EXILE,
                                     LOC_HAND, LOC_MASK, LOC_SCRY, LOC_TABLEAU, LOC_UNDEALT,
                                     MAX_NEGATES, MAX_PLAYERS, MAX_TURNS, NONE,
                                     NUM_ACTIONS, NUM_CARDS, NUM_DESTS, PH_BLOCK,
                                     PH_BOUNTY, PH_CAPTURE, PH_COUNTER, PH_DEAL,
                                     PH_DECLARE, PH_DRAW, PH_FLIP, PH_KEEP, PH_MAIN,
                                     PH_MEET, PH_OVER, PH_PAY, PH_PICK, PH_RALLY,
                                     PH_REVEAL, PH_SPEND, RESTING, SPELL_ENCHANT,
                                     SPELL_MURDER, TAROT0, TURN_STEPS, RelData,
                                     RelinquishState, bit, game_over, is_common,
                                     is_court)
from core.relinquish.engine import LAYOUT, PHASES
from core.errors import ParameterError, StateFormatError
from core.kit import Cards, read_bool, read_int, read_name, read_players
from core.state import Game

SUITS = "WCSP"
RANKS = [str(v) for v in range(1, 11)] + ["P", "N", "K", "Q"]
CARDS = Cards([s + r for s in SUITS for r in RANKS] + [f"T{v}" for v in range(22)],
              "Commons W1-W10, C1-C10, S1-S10, P1-P10; Courts suit + P, N, K or Q "
              "(Page, Knight, King, Queen), e.g. WP, CQ; Tarots T0-T21")
CARD_NAMES = CARDS.names
MANEUVERS = ["populate", "summon", "magick", "battle"]
SPELLS = ["enchant", "murder"]
ABILITIES = ["glamour", "lavish", "coerce", "bounty", "congregate", "conscript"]


# --- names, kinds and views ------------------------------------------------------------

def _label(RelinquishState st, int a):
    cdef RelData* s = &st.s
    ph = s.phase
    if ph == PH_DEAL:
        if a >= NUM_DESTS:
            return f"no destination {a}"
        card = CARD_NAMES[s.deal_next]
        if a < DEST_FLIP:
            return f"deal {card} to player {a}"
        if a < DEST_SCRY:
            return f"flip {card} for player {a - DEST_FLIP}"
        return f"{card} to the Scry pile" if a == DEST_SCRY else f"exile {card}"
    if ph == PH_REVEAL:
        return "reveal the Rallies" if a == 0 else f"no outcome {a}"
    if ph in (PH_FLIP, PH_DRAW):
        if a >= NUM_CARDS:
            return f"no card {a}"
        return f"flip {CARD_NAMES[a]}" if ph == PH_FLIP else f"draw {CARD_NAMES[a]}"
    if a == A_END:
        return "end turn"
    if a >= NUM_ACTIONS:
        return f"no action {a}"
    if a >= A_ARCANA:
        return _ability_label(a)
    if a >= A_ATTACK:
        return _battle_label(a)
    if a >= A_ENCHANT:
        return _magick_label(st, a)
    verb = ("populate", "summon", "pay with", "fortify with", "scry: discard")[
        (a - A_POPULATE) // NUM_CARDS]
    return f"{verb} {CARD_NAMES[(a - A_POPULATE) % NUM_CARDS]}"


def _magick_label(RelinquishState st, int a):
    if a < A_AUGUR:
        v, q = divmod(a - A_ENCHANT, MAX_PLAYERS)
        whom = "every opponent" if q == st.s.active else f"player {q}"
        return f"enchant T{v} against {whom}"
    if a < A_MURDER:
        return f"augur T{a - A_AUGUR}"
    if a < A_PICK:
        return f"murder T{a - A_MURDER}"
    if a < A_COUNTER:
        return f"target {CARD_NAMES[a - A_PICK]}"
    if a < A_PASS:
        v = a - A_COUNTER
        if st.s.spell == SPELL_MURDER:
            return f"foil T{v}"
        return f"negate T{v}" if st.s.defending else f"cancel the Negate T{v}"
    return "no more targets" if st.s.phase == PH_PICK else "pass"


def _ability_label(int a):
    if a < A_CONGREGATE:
        return ABILITIES[a - A_ARCANA]
    if a < A_BOUNTY:
        verb, base = ("congregate", A_CONGREGATE) if a < A_CONSCRIPT else ("conscript",
                                                                           A_CONSCRIPT)
        return f"{verb} {CARD_NAMES[a - base]}"
    d = a - A_BOUNTY - 10
    return f"subtract {-d}" if d < 0 else f"add {d}"


def _battle_label(int a):
    if a < A_CLASH:
        c, q = divmod(a - A_ATTACK, MAX_PLAYERS)
        return f"attack player {q} with {CARD_NAMES[c]}"
    if a == A_CLASH:
        return "clash"
    if a < A_MEET:
        return f"clash with player {a - A_FACE} next"
    if a == A_DECLINE or a == A_NO_RALLY:
        return "decline" if a == A_DECLINE else "no rally"
    verb, base = (("answer", A_MEET), ("defend with", A_DEFEND), ("rally", A_RALLY),
                  ("capture", A_CAPTURE))[(a >= A_DEFEND) + (a >= A_RALLY) + (a >= A_CAPTURE)]
    return f"{verb} {CARD_NAMES[a - base]}"


# The kinds of move ``action_kind`` names, in the order of the rules: a turn's end, the
# maneuvers, Magick and its counters, Battle, the abilities, the scry, and chance.
KINDS = ("end turn", "fortify", "populate", "summon", "pay", "enchant", "augur", "murder",
         "target", "negate", "cancel negate", "foil", "pass", "battle", "attack", "clash",
         "order", "answer", "defend", "decline", "rally", "no rally", "capture",
         *ABILITIES, "bounty amount", "scry", "deal", "flip", "draw", "reveal")
# Each range of action ids and its kind, the highest first.  A counter is a Negate, the
# cancel of one or a Foil, as the Magick under way says.
_KIND_FROM = ((A_BOUNTY, "bounty amount"), (A_CONSCRIPT, "conscript"),
              (A_CONGREGATE, "congregate"),
              *((A_ARCANA + k, ABILITIES[k]) for k in reversed(range(4))),
              (A_CAPTURE, "capture"), (A_NO_RALLY, "no rally"), (A_RALLY, "rally"),
              (A_DECLINE, "decline"), (A_DEFEND, "defend"), (A_MEET, "answer"),
              (A_FACE, "order"), (A_CLASH, "clash"), (A_ATTACK, "attack"), (A_PASS, "pass"),
              (A_COUNTER, "counter"), (A_PICK, "target"), (A_MURDER, "murder"),
              (A_AUGUR, "augur"), (A_ENCHANT, "enchant"), (A_DISCARD, "scry"),
              (A_FORTIFY, "fortify"), (A_PAY, "pay"), (A_SUMMON, "summon"),
              (A_POPULATE, "populate"), (A_END, "end turn"))
_CHANCE_KINDS = {PH_DEAL: "deal", PH_FLIP: "flip", PH_DRAW: "draw", PH_REVEAL: "reveal"}


def _kind(RelinquishState st, int a):
    """The kind of ``a``, a legal action or outcome.  A maneuver or ability is named by
    the decision that begins it, so each use counts once (a Battle by its first
    attacker; ``attack`` is each further one); the steps that follow have kinds of
    their own (``pay``, ``target``, ``clash``...)."""
    cdef RelData* s = &st.s
    if s.phase in _CHANCE_KINDS:
        return _CHANCE_KINDS[s.phase]
    kind = next(k for first, k in _KIND_FROM if a >= first)
    if kind == "attack" and s.phase == PH_MAIN:
        return "battle"
    if kind == "pass" and s.phase == PH_PICK:
        return "target"
    if kind == "counter":
        if s.spell == SPELL_MURDER:
            return "foil"
        return "negate" if s.defending else "cancel negate"
    return kind


cdef list _cards_at(RelData* s, int place):
    return [CARD_NAMES[c] for c in range(NUM_CARDS) if s.where[c] == place]


def _view(RelinquishState st, viewer):
    """The position as plain data; for a ``viewer``, what that seat sees (L8): the
    others' hands, the Scry pile and another's drawn cards are hidden, and during the
    deal so are the others' hand sizes and the Scry pile's (R1)."""
    cdef RelData* s = &st.s
    cdef int p, c
    full = viewer is None
    dealing = s.phase == PH_DEAL
    players = []
    for p in range(s.num_players):
        sees = full or viewer == p
        renewed = [sum(1 for c in range(NUM_CARDS) if s.where[c] == LOC_HAND + p
                       and s.gen[c] == g) for g in range(1, s.generation + 1)]
        players.append({
            "hand": _cards_at(s, LOC_HAND + p) if sees else None,
            "hand_size": s.hand_size[p] if sees or not dealing else None,
            "standing": _cards_at(s, LOC_TABLEAU + p),
            "resting": _cards_at(s, (LOC_TABLEAU + p) | RESTING),
            "flip": None if s.flip[p] == NONE else CARD_NAMES[s.flip[p]],
            "renewed": renewed,
        })
    view = {
        "phase": PHASES[s.phase],
        "turn": s.turn,
        "players": players,
        "scry": _cards_at(s, LOC_SCRY) if full else None,
        "scry_size": None if dealing and not full else s.scry_size,
        "discard": _cards_at(s, LOC_DISCARD),
        "exile": _cards_at(s, LOC_EXILE),
        "generation": s.generation,
    }
    if s.short_game:
        # L16: face down in exile, seen by no seat; how many is public once dealt.
        view["set_aside"] = _cards_at(s, LOC_ASIDE) if full else None
        view["set_aside_size"] = None if dealing and not full else \
            sum(1 for c in range(NUM_CARDS) if s.where[c] == LOC_ASIDE)
    if dealing:
        view["deal_next"] = s.deal_next
        if not full:
            view["undealt"] = NUM_CARDS - s.deal_next
    elif s.phase == PH_FLIP:
        view["tied"] = [p for p in range(s.num_players) if s.tied >> p & 1]
    else:
        view.update({"active": s.active, "first": s.first, "passes": s.passes,
                     "acted": bool(s.acted),
                     "used": [m for i, m in enumerate(MANEUVERS) if s.used >> i & 1]})
    # A reshuffled pile is a set everyone knows: which hidden cards came from which
    # pile is public, though not where each now lies.
    view["generations"] = {CARD_NAMES[c]: s.gen[c] for c in range(NUM_CARDS) if s.gen[c]}
    if s.scry_for != NONE:
        sees = full or viewer == s.scry_for
        view["scrying"] = {
            "player": s.scry_for, "scries_left": s.scries_left,
            "draws_left": s.draws_left, "acceptance": bool(s.scry_ends_turn),
            "drawn": [CARD_NAMES[c] for c in s.drawn if c != NONE] if sees else None,
            "drawn_size": sum(1 for c in s.drawn if c != NONE)}
    if s.summon != NONE:
        view["summoning"] = {"court": CARD_NAMES[s.summon], "paid": s.paid,
                             "off_suit": bool(s.paid_off_suit)}
    if s.spell != NONE:
        view["magick"] = _magick_view(s)
    if PH_DECLARE <= s.phase <= PH_REVEAL:
        view["battle"] = _battle_view(s, viewer)
    if s.ability != NONE:
        view["ability"] = {
            "name": ABILITIES[s.ability], "payers": _names_in(s.payers),
            "placing": None if s.placing == NONE else CARD_NAMES[s.placing],
            "target": None if s.ability_target == NONE else CARD_NAMES[s.ability_target]}
    bounty = {CARD_NAMES[c]: s.bounty[c] for c in range(TAROT0) if s.bounty[c]}
    if bounty:
        view["bounty"] = bounty
    if s.phase == PH_OVER:
        view["scores"] = [s.score[p] for p in range(s.num_players)]
    return view


cdef list _names_in(uint64_t cards):
    return [CARD_NAMES[c] for c in range(TAROT0) if cards >> c & 1]


cdef list _seats_in(int bits):
    return [p for p in range(MAX_PLAYERS) if bits >> p & 1]


cdef dict _magick_view(RelData* s):
    return {"spell": SPELLS[s.spell], "picker": None if s.picker == NONE else s.picker,
            "pick_left": s.pick_left,
            "pool": _names_in(s.pool), "picked": _names_in(s.picked),
            "defenders": _seats_in(s.defenders), "defending": bool(s.defending),
            "to_ask": _seats_in(s.to_ask), "counters": s.counters,
            "last_tarot": s.last_tarot,
            "victim": None if s.victim == NONE else CARD_NAMES[s.victim],
            "levels": [{"value": s.level_value[i], "cards": _names_in(s.level_set[i])}
                       for i in range(s.depth + 1)] if s.spell == SPELL_ENCHANT else []}


cdef dict _battle_view(RelData* s, viewer):
    """A chosen Rally shows only to its chooser until the reveal (L7)."""
    cdef int i
    rallies = []
    for i in range(s.rallied):
        sees = viewer is None or viewer == s.rally_seat[i]
        rallies.append(None if not sees else "none" if s.rally[i] == NONE
                       else CARD_NAMES[s.rally[i]])
    return {"aimed": [_names_in(s.aimed[p]) for p in range(s.num_players)],
            "last_declared": None if s.last_declared == NONE else CARD_NAMES[s.last_declared],
            "facing": None if s.facing == NONE else s.facing,
            "attacker": None if s.clash_attacker == NONE else CARD_NAMES[s.clash_attacker],
            "defender": None if s.clash_defender == NONE else CARD_NAMES[s.clash_defender],
            "capturer": None if s.taker == NONE else CARD_NAMES[s.taker],
            "rally_seats": [s.rally_seat[i] for i in range(s.rallies)],
            "rallies": rallies}


# --- text --------------------------------------------------------------------------------

SUIT_NAMES = {"W": "Wands", "C": "Cups", "S": "Swords", "P": "Pence"}
COURT_NAMES = {"P": "Page", "N": "Knight", "K": "King", "Q": "Queen"}
# Each suit's Arcana, as docs/rules/relinquish.md tells them.
ARCANA = {"W": "Glamour: turn a Common in any tableau from standing to resting or back",
          "S": "Coerce: turn a Court in any tableau from standing to resting or back",
          "P": "Bounty: until the turn ends, a Common in any tableau is worth more or "
               "less, by the value of either paying card",
          "C": "Lavish: scry once"}


def card_text(name):
    """What the card ``name`` (``W8``, ``CQ``, ``T16``) does, for a player to read:
    the deck prints only suit and rank, so its text is what the rules let a card of
    its kind do, in the words of docs/rules/relinquish.md.  ``card`` stays the name
    the board writes, so that a hand of fourteen stays short.  None for no card.

    >>> card_text("SK")["type"]
    'Court of Swords: the King, strength 2'
    """
    if name not in CARDS.kinds:
        return None
    if name[0] == "T":
        v = int(name[1:])
        text = {"card": name, "type": f"Tarot, worth {v}",
                "magick": f"exile it to Enchant, taking an opponent's Resting Commons "
                          f"that add up to {v}, or to " + (
                              "Augur: scry twice" if v <= 12 else
                              "Murder: send a Court in play to the discard pile")}
        if v < 21:
            text["negate"] = ("against an Enchant by a higher Tarot: " + (
                "cancels it" if v == 0 else
                f"the Enchanter takes only targeted Commons that add up to {v}"))
        if v > 13:
            text["foil"] = "against a Murder of your side's Court by a lower Tarot: saves it"
        return text
    suit, rank = SUIT_NAMES[name[0]], name[1:]
    if rank in COURT_NAMES:
        strength = "PNKQ".index(rank)
        cost = "one" if strength < 2 else "two"
        more = "two" if strength < 2 else "three"
        text = {"card": name,
                "type": f"Court of {suit}: the {COURT_NAMES[rank]}, strength {strength}",
                "summon": f"rest {cost} standing {suit} Common{'s' if strength >= 2 else ''}"
                          f" of your tableau, or {more} of any suits; it must rank at "
                          "least as high as every Court standing there",
                "battle": f"fights at {strength} plus its Rally; winning, tying or "
                          "meeting no defender, it captures the defender's "
                          + ("lowest" if strength < 2 else "highest") + " standing Common"}
    else:
        text = {"card": name, "type": f"Common of {suit}, worth {rank}",
                "populate": "into your tableau, standing, if worth at least every "
                            "Common standing there",
                "rally": f"from hand, adds {rank} to a Court's strength in a clash",
                "score": f"{rank} at the end, in your tableau"}
    text["arcana"] = (f"rested with another standing {suit} card of your tableau, pays "
                      f"for {ARCANA[name[0]]}")
    return text


def render(view):
    """A few lines of text for a position dict (``to_dict`` or ``observation_dict``)."""
    def pile(cards):
        return "?" if cards is None else " ".join(cards) or "-"

    lines = []
    for p, pl in enumerate(view["players"]):
        mark = "*" if view.get("active") == p else " "
        lines.append(f" {mark}player {p}: hand {pile(pl['hand'])} ({pl['hand_size']}) | "
                     f"standing {pile(pl['standing'])} | resting {pile(pl['resting'])}")
    aside = f" (+{view['set_aside_size']} face down)" if view.get("set_aside_size") else ""
    lines.append(f"  scry pile {view['scry_size']} | discard {pile(view['discard'])} | "
                 f"exile {pile(view['exile'])}{aside}")
    if "scores" in view:
        lines.append(f"  scores {view['scores']}")
    return "\n".join(lines)



# What each phase asks, in words.
PHASE_WORDS = {"deal": "dealing", "flip": "a flip", "main": "the main phase",
               "pay": "paying", "draw": "drawing", "keep": "choosing what to keep",
               "pick": "picking", "counter": "a counter", "declare": "declaring",
               "order": "ordering", "meet": "meeting the attack", "block": "blocking",
               "rally": "a rally", "capture": "a capture", "reveal": "revealing",
               "spend": "spending", "target": "choosing a target",
               "bounty": "placing a bounty"}


def status(view):
    """Turn, whose turn and what happens now, in a player's words (turns from 1)."""
    if view["phase"] == "over":
        return "game over" + (f": scores {view['scores']}" if "scores" in view else "")
    if view.get("active") is None:
        return PHASE_WORDS[view["phase"]]
    return (f"turn {view['turn'] + 1}, player {view['active']}'s turn: "
            f"{PHASE_WORDS.get(view['phase'], view['phase'])}")


# --- building positions ------------------------------------------------------------------

_KNOWN_KEYS = ("phase", "turn", "players", "scry", "scry_size", "discard", "exile",
               "set_aside", "set_aside_size", "generation", "deal_next", "undealt", "tied", "active", "first", "passes",
               "acted", "used", "generations", "scrying", "summoning", "magick", "battle",
               "ability", "bounty", "scores", "current_player")
_PLAYER_KEYS = ("hand", "hand_size", "standing", "resting", "flip", "renewed")


# --- the deal, rotated through the seats --------------------------------------------------

def _just_dealt(RelinquishState st):
    """Whether the hands are dealt and the first player found by the flips (L3), and
    nothing else has happened: the first turn's main phase, nothing done in it, every
    hand as dealt and no card in play or discarded."""
    cdef RelData* s = &st.s
    cdef int p, c, loc
    if s.phase != PH_MAIN or s.turn or s.used or s.acted:
        return False
    for p in range(s.num_players):
        if s.hand_size[p] != HAND_CARDS:
            return False
    for c in range(NUM_CARDS):
        loc = s.where[c] & LOC_MASK
        if loc == LOC_DISCARD or LOC_TABLEAU <= loc < LOC_TABLEAU + MAX_PLAYERS:
            return False
    return True


def _rotate_deal(RelinquishState st, int k):
    """The hands and the flips change seats, and with the flips the first player (L3):
    the seat holding the highest flip starts.  The Scry pile and the exile stay."""
    cdef RelData* s = &st.s
    cdef int n = s.num_players, p, c
    cdef uint8_t sizes[MAX_PLAYERS]
    cdef int8_t flips[MAX_PLAYERS]
    for c in range(NUM_CARDS):
        if LOC_HAND <= s.where[c] < LOC_HAND + n:
            s.where[c] = LOC_HAND + (s.where[c] - LOC_HAND + k) % n
    for p in range(n):
        sizes[(p + k) % n] = s.hand_size[p]
        flips[(p + k) % n] = s.flip[p]
    for p in range(n):
        s.hand_size[p] = sizes[p]
        s.flip[p] = flips[p]
    s.first = (s.first + k) % n
    s.active = s.first


def _reset(RelinquishState st, game):
    cdef int c
    st.game = game
    memset(&st.s, 0, sizeof(RelData))
    params = game.params
    st.s.num_players = game.num_players
    st.s.teams = params["teams"]
    st.s.acceptance = params["acceptance"]
    st.s.short_game = params["short_game"]
    st.s.max_turns = params["max_turns"]
    st.s.first = NONE
    st.s.scry_for = NONE
    st.s.summon = NONE
    st.s.spell = NONE
    st.s.victim = NONE
    st.s.picker = NONE
    st.s.last_tarot = NONE
    st.s.enchant_any = params["enchant_any"]
    st.s.partner_rally = params["partner_rally"]
    st.s.finesse = params["finesse"]
    st.s.ability = NONE
    st.s.placing = NONE
    st.s.ability_target = NONE
    st.s.last_declared = NONE
    st.s.facing = NONE
    st.s.clash_attacker = NONE
    st.s.clash_defender = NONE
    st.s.taker = NONE
    st.s.drawn[0] = NONE
    st.s.drawn[1] = NONE
    st.s.tied = (1 << game.num_players) - 1
    for c in range(MAX_PLAYERS):
        st.s.flip[c] = NONE
    for c in range(NUM_CARDS):
        st.s.where[c] = LOC_UNDEALT


def _from_dict(game, desc):
    """Build a position from ``desc`` (the format of ``to_dict``)."""
    cdef RelinquishState st = RelinquishState.__new__(RelinquishState)
    cdef RelData* s = &st.s
    cdef int p, c
    _reset(st, game)
    n = game.num_players
    s.phase = read_name(desc.get("phase", "main"), PHASES, "phase")
    s.turn = read_int(desc, "turn", 0, s.max_turns, 0)
    total = [0] * NUM_CARDS
    put = lambda names, where, place: _put(st, names, where, place, total)
    for p, pl in enumerate(read_players(desc, n, _PLAYER_KEYS)):
        if pl.get("hand") is None:
            raise StateFormatError(f"players[{p}].hand: an observation is not a position; "
                                   "give the whole truth, as to_dict does")
        put(pl["hand"], f"players[{p}].hand", LOC_HAND + p)
        s.hand_size[p] = len(pl["hand"])
        put(pl.get("standing", []), f"players[{p}].standing", LOC_TABLEAU + p)
        put(pl.get("resting", []), f"players[{p}].resting", (LOC_TABLEAU + p) | RESTING)
        if pl.get("flip") is not None:
            s.flip[p] = CARDS.kind(pl["flip"], f"players[{p}].flip")
    if desc.get("scry") is None and "scry" in desc:
        raise StateFormatError("scry: an observation is not a position")
    put(desc.get("scry", []), "scry", LOC_SCRY)
    s.scry_size = len(desc.get("scry", []))
    put(desc.get("discard", []), "discard", LOC_DISCARD)
    put(desc.get("exile", []), "exile", LOC_EXILE)
    if desc.get("set_aside") is None and "set_aside" in desc:
        raise StateFormatError("set_aside: an observation is not a position")
    if desc.get("set_aside") and not s.short_game:
        raise StateFormatError("set_aside: only a short game sets cards aside (L16)")
    put(desc.get("set_aside", []), "set_aside", LOC_ASIDE)
    s.generation = read_int(desc, "generation", 0, 255, 0)
    gens = desc.get("generations", {})
    if not isinstance(gens, dict):
        raise StateFormatError("generations must map cards to their Scry pile generation")
    for name, g in gens.items():
        c = CARDS.kind(name, "generations")
        if type(g) is not int or not 1 <= g <= s.generation:
            raise StateFormatError(f"generations[{name}] must be from 1 to generation")
        s.gen[c] = g
    _read_flow(st, desc, total)
    _read_scry(st, desc, total)
    _read_magick(st, desc)
    _read_battle(st, desc)
    _read_ability(st, desc)
    if s.phase == PH_DEAL:
        s.deal_next = read_int(desc, "deal_next", 0, NUM_CARDS - 1, 0)
        for c in range(s.deal_next, NUM_CARDS):
            if total[c]:
                raise StateFormatError(f"{CARD_NAMES[c]} is placed, but the deal has "
                                       f"reached only {CARD_NAMES[s.deal_next]}")
            total[c] = 1
    CARDS.check_all(total, [1] * NUM_CARDS, "78 distinct cards")
    return st


def _put(RelinquishState st, names, where, int place, total):
    for c in CARDS.kinds_of(names, where):
        total[c] += 1
        st.s.where[c] = place


def _read_flow(RelinquishState st, desc, total):
    cdef RelData* s = &st.s
    cdef int p, n = s.num_players
    if s.phase == PH_FLIP:
        tied = desc.get("tied", [])
        if not isinstance(tied, list) or len(tied) < 2 \
                or not all(type(p) is int and 0 <= p < n for p in tied):
            raise StateFormatError("phase 'flip' needs tied: the seats flipping again")
        s.tied = sum(1 << p for p in set(tied))
    elif s.phase != PH_DEAL:
        s.tied = 0
        s.active = read_int(desc, "active", 0, n - 1, 0)
        s.first = read_int(desc, "first", 0, n - 1, s.active)
        s.passes = read_int(desc, "passes", 0, n, 0)
        s.acted = read_bool(desc, "acted", False)
        used = desc.get("used", [])
        if not isinstance(used, list) or not set(used) <= set(MANEUVERS):
            raise StateFormatError(f"used must list maneuvers among {MANEUVERS}")
        s.used = sum(1 << MANEUVERS.index(m) for m in set(used))
    if s.phase == PH_OVER:
        game_over(s)
    summoning = desc.get("summoning")
    if summoning is not None:
        if s.phase != PH_PAY or not isinstance(summoning, dict):
            raise StateFormatError("summoning: a dict, only in phase 'pay'")
        s.summon = CARDS.kind(summoning.get("court"), "summoning.court")
        if not is_court(s.summon) or s.where[s.summon] != LOC_TABLEAU + s.active:
            raise StateFormatError("summoning.court: a Court standing in the active tableau")
        s.paid = read_int(summoning, "paid", 0, 2, 0, "summoning.")
        s.paid_off_suit = read_bool(summoning, "off_suit", False, "summoning.")
    elif s.phase == PH_PAY:
        raise StateFormatError("phase 'pay' needs summoning: the Court and its payment")


def _read_scry(RelinquishState st, desc, total):
    cdef RelData* s = &st.s
    scrying = desc.get("scrying")
    if scrying is None:
        if s.phase in (PH_DRAW, PH_KEEP):
            raise StateFormatError(f"phase {PHASES[s.phase]!r} needs scrying")
        return
    if not isinstance(scrying, dict) or s.phase not in (PH_DRAW, PH_KEEP):
        raise StateFormatError("scrying: a dict, only in phases 'draw' and 'keep'")
    s.scry_for = read_int(scrying, "player", 0, s.num_players - 1, 0, "scrying.")
    s.scries_left = read_int(scrying, "scries_left", 1, 2, 1, "scrying.")
    s.draws_left = read_int(scrying, "draws_left", 0, 2, 0, "scrying.")
    s.scry_ends_turn = read_bool(scrying, "acceptance", False, "scrying.")
    drawn = CARDS.kinds_of(scrying.get("drawn", []), "scrying.drawn")
    if len(drawn) + s.draws_left != 2 or (s.phase == PH_KEEP) != (len(drawn) == 2):
        raise StateFormatError("scrying: two cards are drawn, and phase 'keep' has both")
    for i, c in enumerate(sorted(drawn)):
        total[c] += 1
        s.where[c] = LOC_DRAWN
        s.drawn[i] = c


def _read_magick(RelinquishState st, desc):
    cdef RelData* s = &st.s
    m = desc.get("magick")
    if m is None:
        if s.phase in (PH_PICK, PH_COUNTER):
            raise StateFormatError(f"phase {PHASES[s.phase]!r} needs magick")
        return
    if not isinstance(m, dict) or s.phase not in (PH_PICK, PH_COUNTER):
        raise StateFormatError("magick: a dict, only in phases 'pick' and 'counter'")
    n = s.num_players
    s.spell = read_name(m.get("spell"), SPELLS, "magick.spell")
    picker = m.get("picker", s.active if s.phase == PH_PICK else None)
    s.picker = NONE if picker is None else read_int(m, "picker", 0, n - 1, 0, "magick.")
    if (s.picker != NONE) != (s.phase == PH_PICK):
        raise StateFormatError("magick.picker: the seat naming targets, in phase 'pick' "
                               "only (null otherwise)")
    s.pick_left = read_int(m, "pick_left", -32000, 32000, 0, "magick.")
    s.counters = read_int(m, "counters", 0, 21, 0, "magick.")
    s.last_tarot = read_int(m, "last_tarot", 0, 21, 0, "magick.")
    s.defending = read_bool(m, "defending", True, "magick.")
    s.pool = _mask(m.get("pool", []), "magick.pool")
    s.picked = _mask(m.get("picked", []), "magick.picked")
    s.defenders = _seat_bits(m.get("defenders", []), n, "magick.defenders")
    s.to_ask = _seat_bits(m.get("to_ask", []), n, "magick.to_ask")
    if m.get("victim") is not None:
        s.victim = CARDS.kind(m["victim"], "magick.victim")
    levels = m.get("levels", [])
    if not isinstance(levels, list) or len(levels) > MAX_NEGATES + 1 \
            or s.spell == SPELL_ENCHANT and not levels:
        raise StateFormatError("magick.levels: the Enchant, then each standing Negate")
    s.depth = max(len(levels) - 1, 0)
    for i, level in enumerate(levels):
        if not isinstance(level, dict):
            raise StateFormatError(f"magick.levels[{i}]: a dict of a Tarot's value and the "
                                   f"Commons it would capture, not {type(level).__name__}")
        s.level_value[i] = read_int(level, "value", 0, 21, 0, f"magick.levels[{i}].")
        s.level_set[i] = _mask(level.get("cards", []), f"magick.levels[{i}].cards")
    if s.phase == PH_COUNTER and not s.to_ask:
        raise StateFormatError("magick.to_ask: phase 'counter' awaits some seat")
    if s.phase == PH_COUNTER and s.spell == SPELL_ENCHANT and not s.defending \
            and s.depth == 0:
        # The Enchanter's side answers only a standing Negate, which its Tarot cancels.
        raise StateFormatError("magick.defending: the Enchanter's side is asked only to "
                               "cancel a Negate, and no Negate stands (levels)")


def _court_or_none(name, where):
    if name is None:
        return NONE
    c = CARDS.kind(name, where)
    if not is_court(c):
        raise StateFormatError(f"{where}: {name} is not a Court")
    return c


def _read_battle(RelinquishState st, desc):
    cdef RelData* s = &st.s
    b = desc.get("battle")
    if b is None:
        if PH_DECLARE <= s.phase <= PH_REVEAL:
            raise StateFormatError(f"phase {PHASES[s.phase]!r} needs battle")
        return
    if not isinstance(b, dict) or not PH_DECLARE <= s.phase <= PH_REVEAL:
        raise StateFormatError("battle: a dict, only in the phases of a Battle")
    n = s.num_players
    aimed = b.get("aimed", [[] for _ in range(n)])
    if not isinstance(aimed, list) or len(aimed) != n:
        raise StateFormatError(f"battle.aimed: a list of attackers for each of {n} seats")
    for p, names in enumerate(aimed):
        s.aimed[p] = _mask(names, f"battle.aimed[{p}]", True)
    s.last_declared = _court_or_none(b.get("last_declared"), "battle.last_declared")
    facing = b.get("facing")
    s.facing = NONE if facing is None else read_int(b, "facing", 0, n - 1, 0, "battle.")
    s.clash_attacker = _court_or_none(b.get("attacker"), "battle.attacker")
    s.clash_defender = _court_or_none(b.get("defender"), "battle.defender")
    s.taker = _court_or_none(b.get("capturer"), "battle.capturer")
    seats = b.get("rally_seats", [])
    rallies = b.get("rallies", [])
    if not isinstance(seats, list) or not isinstance(rallies, list) \
            or len(seats) > MAX_PLAYERS or len(rallies) > len(seats) \
            or not all(type(p) is int and 0 <= p < n for p in seats):
        raise StateFormatError("battle.rally_seats: the seats that rally; battle.rallies: "
                               "the Rally each has chosen so far, in that order")
    s.rallies = len(seats)
    s.rallied = len(rallies)
    for i, p in enumerate(seats):
        s.rally_seat[i] = p
    for i, name in enumerate(rallies):
        s.rally[i] = NONE if name == "none" else CARDS.kind(name, f"battle.rallies[{i}]")
        if s.rally[i] != NONE and s.where[s.rally[i]] != LOC_HAND + seats[i]:
            raise StateFormatError(f"battle.rallies[{i}]: a card in that seat's hand")
    needs = {PH_MEET: s.facing != NONE, PH_BLOCK: s.clash_attacker != NONE,
             PH_RALLY: s.clash_defender != NONE and s.rallied < s.rallies,
             PH_REVEAL: s.clash_defender != NONE and 0 < s.rallied == s.rallies,
             PH_CAPTURE: s.taker != NONE and s.facing != NONE}
    if not needs.get(s.phase, True):
        raise StateFormatError(f"battle: phase {PHASES[s.phase]!r} lacks what it needs")


def _read_ability(RelinquishState st, desc):
    cdef RelData* s = &st.s
    cdef int c
    bounty = desc.get("bounty", {})
    if not isinstance(bounty, dict):
        raise StateFormatError("bounty must map tableau Commons to what Bounties added")
    for name, d in bounty.items():
        c = CARDS.kind(name, "bounty")
        if not is_common(c) or type(d) is not int or not -100 <= d <= 100:
            raise StateFormatError(f"bounty[{name}]: a Common's change, -100 to 100")
        s.bounty[c] = d
    ab = desc.get("ability")
    if ab is None:
        if PH_SPEND <= s.phase <= PH_BOUNTY:
            raise StateFormatError(f"phase {PHASES[s.phase]!r} needs ability")
        return
    if not isinstance(ab, dict) or not PH_SPEND <= s.phase <= PH_BOUNTY:
        raise StateFormatError("ability: a dict, only in phases 'spend', 'target', 'bounty'")
    s.ability = read_name(ab.get("name"), ABILITIES, "ability.name")
    payers = CARDS.kinds_of(ab.get("payers", []), "ability.payers")
    if len(payers) > 2 or any(c >= TAROT0 for c in payers):
        raise StateFormatError("ability.payers: at most two suited cards")
    s.payers = sum(bit(c) for c in set(payers))
    if ab.get("placing") is not None:
        s.placing = CARDS.kind(ab["placing"], "ability.placing")
    if ab.get("target") is not None:
        s.ability_target = CARDS.kind(ab["target"], "ability.target")
    if (s.ability >= CONGREGATE) != (s.placing != NONE) \
            or (s.phase == PH_BOUNTY) != (s.ability_target != NONE):
        raise StateFormatError("ability: a Finesse names the card it places, and phase "
                               "'bounty' the Bounty's target")


def _mask(names, where, bint courts=False):
    cdef uint64_t bits = 0
    cdef int c
    for c in CARDS.kinds_of(names, where):
        if c >= TAROT0 or is_court(c) != courts:
            raise StateFormatError(f"{where}: {CARD_NAMES[c]} is not a "
                                   f"{'Court' if courts else 'Common'}")
        bits |= bit(c)
    return bits


def _seat_bits(seats, n, where):
    if not isinstance(seats, list) or not all(type(p) is int and 0 <= p < n for p in seats):
        raise StateFormatError(f"{where} must list seats from 0 to {n - 1}")
    return sum(1 << p for p in set(seats))


class RelinquishGame(Game):
    """Relinquish for 2 to 4 players, or 2 against 2.

    >>> game = RelinquishGame(players=4, teams=True)
    >>> str(game), game.teams()
    ('relinquish(players=4,teams=true)', ((0, 2), (1, 3)))
    >>> game.new_initial_state().chance_outcomes()[0]
    (0, 0.16666666666666666)
    """

    name = "relinquish"
    long_name = "Relinquish"
    parameters = {"players": 2, "teams": False, "acceptance": True, "short_game": False,
                  "enchant_any": False, "partner_rally": False, "finesse": True,
                  "max_turns": 200}
    limits = {
        "players": (2, 4, "the rules are for 2 to 4 players"),
        "max_turns": (1, MAX_TURNS, "a cap on the game's length"),
    }
    num_distinct_actions = NUM_ACTIONS
    max_chance_outcomes = NUM_CARDS
    cards = CARDS
    tensor_layout = LAYOUT
    position_keys = _KNOWN_KEYS
    # The hands and the first-player flips are what the seats are dealt
    # (docs/rules/relinquish.md).
    rotation_refusal = None
    layout = {"status": ("phase", "turn", "active", "generation", "scores"),
              "player": ("hand", "hand_size", "standing", "resting", "flip", "renewed"),
              "table": ("battle", "summoning", "magick", "scry", "scry_size", "discard",
                        "exile", "set_aside", "set_aside_size", "undealt"),
              "glossary": {
                  "standing": "tableau cards standing up: they pay for Summons and "
                              "abilities, a standing Court attacks and defends, and a "
                              "standing Common may be captured in Battle",
                  "resting": "tableau cards turned to rest until their owner's next "
                             "turn: an Enchant takes Resting Commons",
                  "flip": "the card this seat turned up to decide who plays first",
                  "renewed": "how many hand cards came from each reshuffled Scry pile",
                  "scry": "the draw pile: to scry is to draw two, keep one and discard "
                          "the other face up",
                  "discard": "face up: shuffled into a new Scry pile when it runs out",
                  "exile": "face up and out of the game: the first-player flips and the "
                           "Tarots played",
                  "set_aside": "in a short game, the cards the deal put face down in "
                               "exile"}}
    render = staticmethod(render)
    status = staticmethod(status)
    card_text = staticmethod(card_text)

    def _check(self):
        if self.params["teams"] and self.num_players != 4:
            raise ParameterError("relinquish: teams=true plays 2 against 2, so it needs "
                                 f"players=4, not players={self.num_players}")
        if self.params["partner_rally"] and not self.params["teams"]:
            raise ParameterError("relinquish: partner_rally lets a partner add to a Rally, "
                                 "so it needs teams=true")

    def teams(self):
        if self.params["teams"]:
            return ((0, 2), (1, 3))
        return super().teams()

    @property
    def max_game_length(self):
        # The deal and every re-flip place each card at most once; then the turns.
        return 2 * NUM_CARDS + TURN_STEPS * self.params["max_turns"]

    def new_initial_state(self):
        """A game about to be dealt: the first events are chance placing cards."""
        cdef RelinquishState st = RelinquishState.__new__(RelinquishState)
        _reset(st, self)
        st.s.phase = PH_DEAL
        return st

    def _action_name(self, state, action):
        return _label(state, action)

    def _action_kind(self, state, action):
        return _kind(state, action)

    def _view(self, state, viewer):
        return _view(state, viewer)

    def _from_dict(self, desc):
        return _from_dict(self, desc)

    def _just_dealt(self, state):
        return _just_dealt(state)

    def _rotate_deal(self, state, k):
        _rotate_deal(state, k)
