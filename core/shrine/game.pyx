# cython: language_level=3, cdivision=True
"""Shrine's Python half: the names of actions, a position as plain data and as text,
reading and checking a position, and :class:`ShrineGame`.  The rules, chance and
knowledge are the engine's (``engine.pyx``), whose struct and action families this
module reads through ``engine.pxd``.  The engine never imports this module: a state
reaches its names and views through ``state.game``, the :class:`ShrineGame` that made
it.  docs/rules/shrine-position.md describes a position as plain data.
"""
from libc.stdint cimport uint8_t
from libc.string cimport memcpy, memset

from core.shrine.engine cimport (A_ALT_HEAL, A_ATTACK, A_BLOCK, A_COUNTER, A_DAGGER,
                                 A_DAGGER_BLOCK, A_DAGGER_TOKEN, A_DAGGER_TOKEN_BLOCK,
                                 A_DISCARD, A_DRAW, A_FIZZLE, A_HEAL, A_JACK, A_NO_COUNTER,
                                 A_NO_RESPONSE, A_PAIR_ATTACK, A_PASS, A_QUAD, A_RESURRECT,
                                 A_RES_ATTACK, A_RES_DAGGER, A_RES_DAGGER_TOKEN, A_RES_PAIR,
                                 A_RES_SHRINE, A_RES_TOKEN, A_TAKE, A_TOKEN, A_TRIPLET,
                                 CH_DEAL, CH_FLIP, CH_HAND, CH_HIDDEN, CH_NONE, CH_STEAL,
                                 CH_TOKEN, DEAL_CARDS, DRAW, FAMILIES, FAMILY_OF,
                                 FL_ANSWERED, FL_RES_USE, F_DAGGER, F_JACK, F_KING, F_QUEEN,
                                 HAND_LIMIT, JOKER, MAX_PILES, NONE, NOTHING_FOUND,
                                 NUM_ACTIONS, NUM_FAMILIES, NUM_KINDS, PEND_SLOTS,
                                 PH_ACTION, PH_BAL_DISCARD, PH_CHANCE, PH_COUNTER,
                                 PH_COUNTER_PICK, PH_DISCARD, PH_FIZZLE_PICK, PH_OVER,
                                 PH_RESPONSE, PH_RES_USE, PH_START, SEEN, ST_ACTION,
                                 ST_AFTER, ST_BAL_FIELD, ST_BAL_SHRINE, ST_CHOOSE, ST_DEAL,
                                 ST_DRAWING, ST_END, ST_TURN_START, ST_WAIT, T_SHRINE,
                                 USED_JACK, USED_KING, USED_QUEEN, ShrineData, ShrineState,
                                 ace_payment_cards, action_cards, advance, block_slot,
                                 capacity, decider, family_of, hand_pile_len, main_actions,
                                 pile_empty, rank_of, res_uses, response_possible,
                                 shrine_top, to_grave, token_rank, triad, wrap_rank)
from core.shrine.engine import LAYOUT
from core.errors import StateFormatError
from core.kit import Cards, read_bool, read_int, read_name, read_players, read_winner
from core.state import Game


# --- names ---------------------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
COLOURS = "BR"
PHASES = ["chance", "start", "action", "resurrection", "jack discard", "response",
          "fizzle discard", "counter", "counter discard", "discard", "balance discard",
          "over"]
STEPS = ["deal", "turn start", "drawing", "choose", "action", "respond", "resolve",
         "fizzled", "after", "end", "balance field", "balance shrine", "balance hand",
         "balance finish", "wait"]
CHANCES = ["none", "deal", "hand", "flip", "hidden", "token", "steal"]
# How an action's name says what a chance event does.
CHANCE_WORDS = {CH_DEAL: "deal", CH_HAND: "draw", CH_FLIP: "turn up", CH_HIDDEN: "add face down",
                CH_TOKEN: "find", CH_STEAL: "steal"}
CARDS = Cards([RANKS[k // 2] + COLOURS[k % 2] for k in range(JOKER)] + ["JOKER"],
              "cards are like 9R, QB, 10B, AR, JOKER")
CARD_NAMES = CARDS.names
CARD_KINDS = CARDS.kinds
FOUND_NONE = NOTHING_FOUND
TARGET_NAMES = ("Jack token", "Queen token", "King token", "Dagger token", "Shrine")
POWER_BITS = {"jack": USED_JACK, "queen": USED_QUEEN, "king": USED_KING}


def _cards(kinds):
    """Cards joined highest first, as a player would fan them."""
    return "+".join(CARD_NAMES[k] for k in sorted(kinds, reverse=True))


def _paid(ShrineState st, int a):
    """The hand cards declaring ``a`` pays with, as ``action_cards`` gives them; none
    once a Shrine is empty, where no action is named for play."""
    cdef uint8_t cards[PEND_SLOTS]
    if not (st.s.shrine_len[0] and st.s.shrine_len[1]):
        return []
    return [cards[i] for i in range(action_cards(&st.s, a, cards))]


def _label(ShrineState st, int a):
    """The readable name of action (or chance outcome) ``a`` in ``st``."""
    if st.s.phase == PH_CHANCE:
        what = CHANCE_WORDS.get(st.s.chance, "chance")
        if a == NOTHING_FOUND and st.s.chance == CH_TOKEN:
            return "find nothing"
        return f"{what} {CARD_NAMES[a]}" if 0 <= a < NUM_KINDS else f"chance {a}"
    if not 0 <= a < NUM_ACTIONS:
        return f"action {a}"
    return _LABELS[FAMILY_OF[a]](st, a)


def _top_name(ShrineState st, int p):
    return CARD_NAMES[shrine_top(&st.s, p)] if st.s.shrine_len[p] else "?"

def _target(ShrineState st, int q, int t):
    if t == T_SHRINE:
        return f"Shrine {CARD_NAMES[shrine_top(&st.s, q)]}" if st.s.shrine_len[q] else "Shrine"
    card = st.s.field[q][t]
    return CARD_NAMES[card] if card >= 0 else TARGET_NAMES[t]


# --- the families' labels ------------------------------------------------------------
# Each family's rulings are named where the engine carries it out, in engine.pyx.

def _named(text):
    return lambda st, a: text


def _label_take(ShrineState st, int a):
    top = CARD_NAMES[st.s.grave[st.s.grave_len - 1]] if st.s.grave_len else "?"
    return f"take {top} from the Graveyard"

def _label_discard(ShrineState st, int a):
    return f"discard {CARD_NAMES[a - A_DISCARD]}"

def _label_block(ShrineState st, int a):
    slot = st.s.field[1 - st.s.active][block_slot(a)]
    return f"token block {CARD_NAMES[slot] if slot >= 0 else TARGET_NAMES[block_slot(a)]}"

def _label_dagger_block(ShrineState st, int a):
    cdef uint8_t cards[2]
    ace_payment_cards(a - A_DAGGER_BLOCK, cards)
    return f"dagger block {CARD_NAMES[cards[1]]} (pay {CARD_NAMES[cards[0]]})"

def _label_token(ShrineState st, int a):
    paid = _paid(st, a)
    if not paid:
        return f"action {a}"
    return f"play token {CARD_NAMES[paid[1]]} (pay {CARD_NAMES[paid[0]]})"

def _label_dagger(ShrineState st, int a):
    paid = _paid(st, a)
    if not paid:
        return f"action {a}"
    return (f"dagger {CARD_NAMES[paid[1]]} (pay {CARD_NAMES[paid[0]]}) -> "
            f"{_target(st, 1 - st.s.active, (a - A_DAGGER) // 26)}")

def _label_dagger_token(ShrineState st, int a):
    paid = _paid(st, a)
    if not paid:
        return f"action {a}"
    return f"play Dagger token {CARD_NAMES[paid[1]]} (pay {CARD_NAMES[paid[0]]})"

def _label_triplet(ShrineState st, int a):
    return f"triplet {_cards(_paid(st, a))}"

def _label_quad(ShrineState st, int a):
    return f"quad {RANKS[a - A_QUAD]}"

def _label_resurrect(ShrineState st, int a):
    # Named in the run's order, which may wrap past the King.
    first = (a - A_RESURRECT) // 8 + 1
    run = sorted(_paid(st, a), key=lambda k: (rank_of(k) - first + 13) % 13)
    used = CARD_NAMES[st.s.grave[st.s.grave_len - 1]] if st.s.grave_len else "?"
    return f"resurrect {'+'.join(CARD_NAMES[k] for k in run)} ({used})"

def _label_res_dagger(ShrineState st, int a):
    return f"resurrect as dagger -> {_target(st, 1 - st.s.active, a - A_RES_DAGGER)}"

def _label_res_attack(ShrineState st, int a):
    g = st.s.res_card
    return (f"resurrect to attack {_cards(_paid(st, a) + ([g] if g >= 0 else []))} -> "
            f"{_top_name(st, 1 - st.s.active)}")

def _label_heal(ShrineState st, int a):
    return f"heal {_cards(_paid(st, a))} -> {_top_name(st, st.s.active)}"

def _label_pair_attack(ShrineState st, int a):
    return f"attack pair {_cards(_paid(st, a))} -> {_top_name(st, 1 - st.s.active)}"

def _label_attack(ShrineState st, int a):
    return f"attack {_cards(_paid(st, a))} -> {_top_name(st, 1 - st.s.active)}"


# Each family's label, by the id it starts at; ``_LABELS`` holds them in the order of
# the engine's table FAMILIES, so a family left without one stops this module loading.
_FAMILY_LABELS = {
    A_PASS: _named("pass"),
    A_DRAW: _named("draw"),
    A_TAKE: _label_take,
    A_NO_RESPONSE: _named("no response"),
    A_FIZZLE: _named("fizzle"),
    A_NO_COUNTER: _named("no counter"),
    A_COUNTER: _named("counter-fizzle"),
    A_JACK: _named("jack steal"),
    A_BLOCK: _label_block,
    A_DISCARD: _label_discard,
    A_DAGGER_BLOCK: _label_dagger_block,
    A_TOKEN: _label_token,
    A_DAGGER: _label_dagger,
    A_DAGGER_TOKEN: _label_dagger_token,
    A_TRIPLET: _label_triplet,
    A_QUAD: _label_quad,
    A_RESURRECT: _label_resurrect,
    A_RES_SHRINE: _named("resurrect onto own Shrine"),
    A_RES_TOKEN: _named("resurrect as token"),
    A_RES_DAGGER_TOKEN: _named("resurrect as Dagger token"),
    A_RES_DAGGER: _label_res_dagger,
    A_HEAL: _label_heal,
    A_PAIR_ATTACK: _label_pair_attack,
    A_RES_PAIR: _label_res_attack,
    A_ATTACK: _label_attack,
    A_ALT_HEAL: _label_heal,
    A_RES_ATTACK: _label_res_attack,
    A_DAGGER_TOKEN_BLOCK: _label_block,
}
_LABELS = [_FAMILY_LABELS[FAMILIES[i].base] for i in range(NUM_FAMILIES)]


# --- plain data ------------------------------------------------------------------------

cdef list _counted(const uint8_t* counts):
    # CARDS.named's order, read straight from the C counts: views are built often.
    cdef int k, n
    cdef list names = []
    for k in range(NUM_KINDS):
        for n in range(counts[k]):
            names.append(CARD_NAMES[k])
    return names


def _view(ShrineState st, viewer):
    """The position as plain data; with a ``viewer``, what that player sees."""
    cdef int p, i, k, q
    # R32: the piles hidden cards come from, up to the last in use.
    piles = st.s.library_pile + 1
    for q in range(MAX_PILES):
        if not pile_empty(&st.s, q):
            piles = max(piles, q + 1)
    players = []
    for p in range(2):
        hand = _counted(st.s.hand[p])
        seen = _counted(st.s.seen[p])
        if viewer is not None and viewer != p:
            hand = seen + ["??"] * (st.s.hand_len[p] - len(seen))
        shrine, shrine_seen = [], []
        for i in range(st.s.shrine_len[p]):
            face_up = bool(st.s.shrine[p][i] & SEEN)
            k = st.s.shrine[p][i] & ~SEEN
            shrine.append(CARD_NAMES[k] if face_up or viewer is None else "??")
            shrine_seen.append(face_up)
        player = {"hand": hand, "hand_seen": seen, "shrine": shrine,
                  "field": [CARD_NAMES[st.s.field[p][t]] for t in range(4)
                            if st.s.field[p][t] >= 0]}
        if viewer is None:
            player["shrine_seen"] = shrine_seen
        player["hand_piles"] = [
            _counted(st.s.hand_pile[p][q]) if viewer is None or viewer == p
            else ["??"] * hand_pile_len(&st.s, p, q) for q in range(piles)]
        player["shrine_piles"] = [None if st.s.shrine[p][i] & SEEN else st.s.shrine_pile[p][i]
                                  for i in range(st.s.shrine_len[p])]
        players.append(player)
    library = _counted(st.s.library)
    if viewer is not None:
        library = ["??"] * st.s.library_len
    d = {
        "turn": st.s.turn,
        "active": st.s.active,
        "current_player": st.c_current_player(),
        "phase": PHASES[st.s.phase],
        "step": STEPS[st.s.step],
        "actions_left": st.s.actions_left,
        "powers_used": [name for name, bit in POWER_BITS.items() if st.s.powers_used & bit],
        "winner": None if st.s.winner == NONE else ("draw" if st.s.winner == DRAW else st.s.winner),
        "players": players,
        "graveyard": [CARD_NAMES[st.s.grave[i]] for i in range(st.s.grave_len)],
        "library": library,
        "picks_left": st.s.picks_left,
    }
    # What may lie in each pile's places the viewer cannot see.
    d["piles"] = [CARDS.named([st.s.pile[q][k] - (0 if viewer is None
                                                    else st.s.hand_pile[viewer][q][k])
                               for k in range(NUM_KINDS)]) for q in range(piles)]
    d["library_pile"] = st.s.library_pile
    if st.s.balance:
        d["joker_out"] = bool(st.s.joker_out)
    if st.s.step == ST_DEAL:
        d["dealt"] = st.s.deal_n
    if st.s.pending != NONE:
        d["pending"] = {
            "action": st.s.pending,
            "cards": [CARD_NAMES[st.s.pend[i]] for i in range(st.s.pend_len)],
        }
        if st.s.res_card != NONE:
            d["pending"]["resurrected"] = CARD_NAMES[st.s.res_card]
            d["pending"]["resurrected_at"] = st.s.res_index
    if st.s.chance != CH_NONE:
        d["chance"] = {"draw": CHANCES[st.s.chance]}
        if st.s.chance in (CH_HAND, CH_FLIP, CH_HIDDEN, CH_TOKEN):
            d["chance"]["to"] = st.s.draw_to
        if st.s.chance in (CH_HAND, CH_FLIP):
            d["chance"]["left"] = st.s.draws_left
            d["chance"]["then"] = STEPS[st.s.after_draws]
    if st.s.bal_player != NONE:
        d["balance"] = {"player": st.s.bal_player, "token": st.s.bal_index,
                        "then": STEPS[st.s.bal_return]}
    return d


COLOUR_NAMES = {"B": "black", "R": "red"}
# What a Token on the Field lets its owner do, as docs/rules/shrine.md tells it.
POWERS = {"J": "you may take the Jack steal: a random card from an opponent holding "
               "two or more, then you discard one",
          "Q": "your heals may use a pair one above or below your top card's value "
               "(with alt_heal, the heal's total may be one off)",
          "K": "your attacks may total one above or below the target value"}
FACES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def card_text(name):
    """What the card ``name`` (``7R``, ``QB``, ``AB``, ``JOKER``) does, for a player
    to read: the rules give a card's roles by its rank, so its text is what they let a
    card of that rank do, in the words of docs/rules/shrine.md.  ``card`` stays the
    name the board writes.  None for no card.

    >>> card_text("KR")["token"]
    'on your Field, paid with another red card: your attacks may total one above or below the target value'
    """
    if name not in CARDS.kinds:
        return None
    if name == "JOKER":
        return {"card": name, "type": "the Balance card, no value (only with balance or "
                                      "balance_returns)",
                "balance": "played at once when drawn or turned up on a Shrine: the "
                           "other player matches its player's hand size, Shrine size and "
                           "Field, then the Library and the Graveyard are shuffled together"}
    rank, colour = name[:-1], COLOUR_NAMES[name[-1]]
    value = RANKS.index(rank) + 1
    text = {"card": name,
            "type": f"{colour} {FACES.get(rank, rank)}"
                    + (f", value {value}" if rank in FACES else ""),
            "pawn": f"from hand, counts {value} toward an attack (its cards the colour "
                    "opposite the target's)"
                    # A Shrine topped by an Ace cannot be healed.
                    + ("" if rank == "A" else
                       f", pairs with another {value} to heal a Shrine topped by a {value} "
                       "(one of the pair in its colour)")
                    + f", or pays for playing another {colour} card"}
    if rank in POWERS:
        text["token"] = f"on your Field, paid with another {colour} card: {POWERS[rank]}"
        text["block"] = ("from your Field, answers an attack paid with hand cards: it goes "
                         "to the Graveyard and the attack removes nothing")
        text["triad"] = ("a Jack, a Queen and a King on your Field: a Shrine of 7 and the "
                         "Dagger token")
    elif rank == "A":
        text["dagger"] = (f"from hand, paid with another {colour} card: an opposing Field "
                          "card or the opponent's top Shrine card goes to the Graveyard")
        text["token"] = ("with a Triad, onto your Field as the Dagger token: an extra card "
                         "and a second action every turn")
        text["block"] = ("answers a Dagger when you hold another card of its colour: both "
                         "Aces and both payments go to the Graveyard")
        text["on top"] = ("an Ace on a Shrine's top is taken only by a Dagger, a pair of "
                          "equal values, or a Quad")
    text["sets"] = ("three of one value clear the opponent's Field (a Triplet); all four "
                    "take their top Shrine card too (a Quad); three of consecutive values "
                    "put the Graveyard's top card to a use (a Resurrection)")
    return text


def render(view):
    """A few lines of text for a position dict (``to_dict`` or ``observation_dict``).
    In a ``to_dict``, face-down Shrine cards show in brackets; an observation shows
    the cards its player does not know as ``??``."""
    lines = []
    for p, pl in enumerate(view["players"]):
        field = " ".join(pl["field"]) or "-"
        seen = pl.get("shrine_seen", [True] * len(pl["shrine"]))
        shrine = " ".join(c if up else f"[{c}]" for c, up in zip(pl["shrine"], seen))
        lines.append(f"  player {p}: Shrine {shrine or '-'} (top last)"
                     f" | Field {field} | hand {len(pl['hand'])}: {' '.join(pl['hand']) or '-'}")
    grave = view["graveyard"]
    lines.append(f"  Graveyard {len(grave)}, top {grave[-1] if grave else '-'}"
                 f" | Library {len(view['library'])}")
    return "\n".join(lines)



# What a phase asks, in the words of the rules; the game state's own step is the
# engine's bookkeeping and is not told.
PHASE_WORDS = {"start": "the start of the turn", "resurrection": "a resurrection",
               "jack discard": "a Jack's discard", "response": "a response",
               "fizzle discard": "a fizzle's discard", "counter": "a counter",
               "counter discard": "a counter's discard", "discard": "a discard",
               "balance discard": "Balance's discard"}


def status(view):
    """Turn, whose turn and what happens now, in a player's words (turns from 1)."""
    if view.get("winner") is not None:
        return "game over: a draw" if view["winner"] == "draw" \
            else f"game over: player {view['winner']} wins"
    turn = f"turn {view['turn'] + 1}, player {view['active']}'s turn"
    phase = view["phase"]
    if phase == "chance":
        return turn + (": dealing" if view["step"] == "deal" else ": drawing")
    if phase == "action":
        n = view["actions_left"]
        return f"{turn}: {n} action{'' if n == 1 else 's'} left"
    return f"{turn}: {PHASE_WORDS.get(phase, phase)}"


# --- building positions ------------------------------------------------------------------

_KNOWN_KEYS = ("turn", "active", "current_player", "phase", "step", "actions_left",
               "powers_used", "winner", "players", "graveyard", "library", "picks_left",
               "joker_out", "dealt", "pending", "chance", "balance", "piles",
               "library_pile")
_PLAYER_KEYS = ("hand", "hand_seen", "hand_piles", "shrine", "shrine_seen", "shrine_piles",
                "field")
_FIELD_SLOTS = {11: F_JACK, 12: F_QUEEN, 13: F_KING, 1: F_DAGGER}


class _Tally:
    """The cards a position holds so far, by kind: no kind more often than the deck
    has it."""

    def __init__(self):
        self.counts = [0] * NUM_KINDS

    def add(self, kinds, where):
        for kind in kinds:
            self.counts[kind] += 1
            limit = 1 if kind == JOKER else 2
            if self.counts[kind] > limit:
                raise StateFormatError(f"{where}: more than {limit} {CARD_NAMES[kind]} in play")


def _from_dict(game, desc):
    """Build a position from ``desc`` (the format of ``to_dict``; most keys optional)."""
    cdef ShrineState st = ShrineState.__new__(ShrineState)
    cdef int p
    _reset(st, game)
    st.s.turn = read_int(desc, "turn", 0, st.s.max_turns, 0)
    st.s.active = read_int(desc, "active", 0, 1, 0)
    phase = desc.get("phase", "action")
    st.s.phase = read_name(phase, PHASES, "phase")
    # A decision waits with its step at "wait"; a chance event's step follows from what
    # it draws (see _check_flow).
    st.s.step = read_name(desc.get("step", "deal" if phase == "chance" else "wait"),
                          STEPS, "step")
    winner = read_winner(desc, 2)
    st.s.winner = NONE if winner is None else DRAW if winner == "draw" else winner
    tally = _Tally()
    for p, pl in enumerate(read_players(desc, 2, _PLAYER_KEYS)):
        _read_side(st, p, pl, tally)
    grave = CARDS.kinds_of(desc.get("graveyard", []), "graveyard")
    if JOKER in grave:
        raise StateFormatError("graveyard: the Joker never goes to the Graveyard")
    tally.add(grave, "graveyard")
    for k in grave:
        to_grave(&st.s, k)
    if desc.get("pending") is not None:
        _read_pending(st, desc["pending"], grave, tally)
    _read_library(st, desc, tally)
    _read_piles(st, desc)
    _read_turn(st, desc)
    _check_flow(st, "step" in desc)
    if st.s.winner == NONE and not st.legal_actions():
        raise StateFormatError(f"nothing can happen in phase {phase!r} of this position")
    return st


def _read_side(ShrineState st, int p, pl, tally):
    """Player ``p``'s hand, Shrine and Field, from ``pl``."""
    where = f"players[{p}]"
    hand = CARDS.kinds_of(pl.get("hand", []), f"{where}.hand")
    if JOKER in hand:
        raise StateFormatError(f"{where}.hand: the Joker is never held in a hand")
    tally.add(hand, f"{where}.hand")
    for k in hand:
        st.s.hand[p][k] += 1
    st.s.hand_len[p] = len(hand)
    for k in CARDS.kinds_of(pl.get("hand_seen", []), f"{where}.hand_seen"):
        st.s.seen[p][k] += 1
        if st.s.seen[p][k] > st.s.hand[p][k]:
            raise StateFormatError(f"{where}.hand_seen: {CARD_NAMES[k]} is not in the hand")
    shrine = CARDS.kinds_of(pl.get("shrine", []), f"{where}.shrine")
    tally.add(shrine, f"{where}.shrine")
    if len(shrine) > 7:
        raise StateFormatError(f"{where}.shrine holds at most 7 cards, not {len(shrine)}")
    seen = pl.get("shrine_seen", [i == len(shrine) - 1 for i in range(len(shrine))])
    if not isinstance(seen, list) or len(seen) != len(shrine) \
            or not all(isinstance(up, bool) for up in seen):
        raise StateFormatError(f"{where}.shrine_seen must be one bool per Shrine card")
    for i, k in enumerate(shrine):
        st.s.shrine[p][i] = k | (SEEN if seen[i] else 0)
    st.s.shrine_len[p] = len(shrine)
    for k in CARDS.kinds_of(pl.get("field", []), f"{where}.field"):
        slot = _FIELD_SLOTS.get(rank_of(k) if k != JOKER else 0)
        if slot is None:
            raise StateFormatError(f"{where}.field: {CARD_NAMES[k]} cannot be on a Field")
        if st.s.field[p][slot] != NONE:
            raise StateFormatError(f"{where}.field: two {TARGET_NAMES[slot]} cards")
        st.s.field[p][slot] = k
        tally.add([k], f"{where}.field")
    if st.s.field[p][F_DAGGER] != NONE and not triad(&st.s, p):
        raise StateFormatError(f"{where}.field: a Dagger token needs a Triad")
    if st.s.shrine_len[p] > capacity(&st.s, p):
        raise StateFormatError(f"{where}.shrine holds more than its capacity "
                               f"{capacity(&st.s, p)}")


def _read_pending(ShrineState st, pending, grave, tally):
    """The declared action waiting on its resolution, with the cards it pays with."""
    if not isinstance(pending, dict) or "action" not in pending:
        raise StateFormatError("pending must be a dict with an action")
    st.s.pending = read_int(pending, "action", 0, NUM_ACTIONS - 1, 0, "pending.")
    pend_cards = CARDS.kinds_of(pending.get("cards", []), "pending.cards")
    if len(pend_cards) > PEND_SLOTS:
        raise StateFormatError("pending.cards: too many cards")
    tally.add(pend_cards, "pending.cards")
    for i, k in enumerate(pend_cards):
        st.s.pend[i] = k
    st.s.pend_len = len(pend_cards)
    if "resurrected" in pending:
        st.s.res_card = CARDS.kind(pending["resurrected"], "pending.resurrected")
        st.s.res_index = read_int(pending, "resurrected_at", 0, max(len(grave) - 1, 0), 0,
                                  "pending.")
        if not grave or grave[st.s.res_index] != st.s.res_card:
            raise StateFormatError("pending.resurrected is not at pending.resurrected_at "
                                   "in the Graveyard")


def _read_library(ShrineState st, desc, tally):
    """The Joker's whereabouts and the Library: given, it must hold every card the
    position lacks; absent, it holds them."""
    cdef int k
    counts = tally.counts
    if read_bool(desc, "joker_out", False):
        if not st.s.balance:
            raise StateFormatError("joker_out: this game has no Balance card")
        counts[JOKER] += 1
        if counts[JOKER] > 1:
            raise StateFormatError("joker_out: the Joker is also in play")
        st.s.joker_out = 1
    full = [deck_count(&st.s, k) for k in range(NUM_KINDS)]
    library = CARDS.kinds_of(desc.get("library", []), "library")
    tally.add(library, "library")
    if counts[JOKER] and not st.s.balance:
        raise StateFormatError("this game has no Balance card (Joker); set balance=true")
    if "library" in desc:
        for k in library:
            st.s.library[k] += 1
        CARDS.check_all(counts, full, "two of each card, and the Joker with a Balance")
    else:
        for k in range(NUM_KINDS):
            st.s.library[k] = full[k] - counts[k]
    st.s.library_len = sum(st.s.library[k] for k in range(NUM_KINDS))


def _read_piles(ShrineState st, desc):
    """R32: the pile each card nobody can see came from, and what each pile holds.
    Without ``piles``, every such card is in one pile, the cards never seen."""
    cdef ShrineData* s = &st.s
    cdef int p, q, i, k
    sides = read_players(desc, 2, _PLAYER_KEYS)
    piles = desc.get("piles")
    if piles is None:
        for p, side in enumerate(sides):
            for key in ("hand_piles", "shrine_piles"):
                if key in side:
                    raise StateFormatError(f"players[{p}].{key} goes with piles")
        if "library_pile" in desc:
            raise StateFormatError("library_pile goes with piles")
        for k in range(NUM_KINDS):
            s.pile[0][k] = s.library[k]
        for p in range(2):
            for k in range(JOKER):
                s.hand_pile[p][0][k] = s.hand[p][k] - s.seen[p][k]
                s.pile[0][k] += s.hand_pile[p][0][k]
            for i in range(s.shrine_len[p]):
                if not s.shrine[p][i] & SEEN:
                    s.pile[0][s.shrine[p][i]] += 1
        return
    if not isinstance(piles, list) or not 1 <= len(piles) <= MAX_PILES:
        raise StateFormatError(f"piles must be a list of 1 to {MAX_PILES} lists of cards")
    s.library_pile = read_int(desc, "library_pile", 0, len(piles) - 1, 0)
    placed = [[0] * NUM_KINDS for _ in piles]
    for k in range(NUM_KINDS):
        placed[s.library_pile][k] += s.library[k]
    for p, side in enumerate(sides):
        _read_side_piles(st, p, side, placed)
    for q, cards in enumerate(piles):
        for k in CARDS.kinds_of(cards, f"piles[{q}]"):
            s.pile[q][k] += 1
        held = [s.pile[q][k] for k in range(NUM_KINDS)]
        if held != placed[q]:
            raise StateFormatError(
                f"piles[{q}] must hold exactly the hidden cards placed in it "
                f"({' '.join(CARDS.named(placed[q])) or 'none'}), not "
                f"{' '.join(CARDS.named(held)) or 'none'}")


def _read_side_piles(ShrineState st, int p, side, placed):
    """Which pile each of player ``p``'s hidden hand cards and face-down Shrine cards
    came from, added to ``placed``, the cards of each pile by kind."""
    cdef ShrineData* s = &st.s
    cdef int q, i, k
    where = f"players[{p}]"
    hidden = [s.hand[p][k] - s.seen[p][k] for k in range(NUM_KINDS)]
    hand_piles = side.get("hand_piles", [[] for _ in placed])
    if not isinstance(hand_piles, list) or len(hand_piles) != len(placed):
        raise StateFormatError(f"{where}.hand_piles must be one list of cards per pile")
    split = [0] * NUM_KINDS
    for q, cards in enumerate(hand_piles):
        for k in CARDS.kinds_of(cards, f"{where}.hand_piles[{q}]"):
            s.hand_pile[p][q][k] += 1
            placed[q][k] += 1
            split[k] += 1
    if split != hidden:
        raise StateFormatError(f"{where}.hand_piles must split the cards of the hand not in "
                               "hand_seen, each once, by the pile it came from")
    shrine_piles = side.get("shrine_piles",
                            [None if s.shrine[p][i] & SEEN else 0 for i in range(s.shrine_len[p])])
    if not isinstance(shrine_piles, list) or len(shrine_piles) != s.shrine_len[p]:
        raise StateFormatError(f"{where}.shrine_piles must be one entry per Shrine card")
    for i, where_from in enumerate(shrine_piles):
        if s.shrine[p][i] & SEEN:
            if where_from is not None:
                raise StateFormatError(f"{where}.shrine_piles[{i}]: a card seen is in no "
                                       "pile, so null")
            continue
        if not isinstance(where_from, int) or isinstance(where_from, bool) \
                or not 0 <= where_from < len(placed):
            raise StateFormatError(f"{where}.shrine_piles[{i}] must be the index of a pile")
        s.shrine_pile[p][i] = where_from
        placed[where_from][s.shrine[p][i]] += 1


def _read_turn(ShrineState st, desc):
    """Where the turn stands: picks, the deal, actions and powers left, the chance
    event and the Balance being resolved."""
    st.s.picks_left = read_int(desc, "picks_left", 0, 20, 0)
    st.s.deal_n = read_int(desc, "dealt", 0, DEAL_CARDS, DEAL_CARDS)
    default_actions = 2 if st.s.field[st.s.active][F_DAGGER] != NONE else 1
    st.s.actions_left = read_int(desc, "actions_left", 0, 2, default_actions)
    used = desc.get("powers_used", [])
    if not isinstance(used, list) \
            or not all(isinstance(name, str) and name in POWER_BITS for name in used):
        raise StateFormatError(f"powers_used lists some of jack, queen, king; not {used!r}")
    for name in used:
        st.s.powers_used |= POWER_BITS[name]
    chance = desc.get("chance")
    if chance is not None:
        if not isinstance(chance, dict):
            raise StateFormatError("chance must be a dict")
        st.s.chance = read_name(chance.get("draw", "none"), CHANCES, "chance.draw")
        st.s.draw_to = read_int(chance, "to", -1, 1, -1, "chance.")
        st.s.draws_left = read_int(chance, "left", 0, 20, 0, "chance.")
        st.s.after_draws = read_name(chance.get("then", "deal"), STEPS, "chance.then")
    balance = desc.get("balance")
    if balance is not None:
        if not isinstance(balance, dict):
            raise StateFormatError("balance must be a dict")
        st.s.bal_player = read_int(balance, "player", 0, 1, 0, "balance.")
        st.s.bal_index = read_int(balance, "token", 0, 3, 0, "balance.")
        st.s.bal_return = read_name(balance.get("then", "action"), STEPS, "balance.then")


# The steps a Balance may resume once it is resolved, and the steps that follow the
# draws of each kind of chance event.
_BALANCE_RETURNS = {ST_TURN_START, ST_CHOOSE, ST_ACTION, ST_AFTER, ST_END}
_AFTER_HAND_DRAWS = {ST_CHOOSE, ST_ACTION, ST_BAL_SHRINE}
_CHANCE_STEPS = {CH_DEAL: ST_DEAL, CH_HAND: ST_DRAWING, CH_FLIP: ST_DRAWING,
                 CH_HIDDEN: ST_BAL_SHRINE, CH_TOKEN: ST_BAL_FIELD, CH_STEAL: ST_WAIT}
_PENDING_PHASES = {PH_RES_USE, PH_RESPONSE, PH_FIZZLE_PICK, PH_COUNTER, PH_COUNTER_PICK}
_PICK_PHASES = {PH_FIZZLE_PICK, PH_COUNTER_PICK, PH_DISCARD, PH_BAL_DISCARD}


def _check_flow(ShrineState st, bint step_given):
    """Check that the phase, step, declared action, chance event and Balance of a
    position built from a dict fit together as play leaves them, so that playing on
    from it never reads a slot that is not there."""
    if _check_result(st):
        return
    _check_step(st, step_given)
    _check_deal(st)
    _check_draws(st)
    _check_balance(st)
    _check_decision(st)
    _check_shrine_tops(st)
    _check_start(st)
    _check_pending(st)


def _check_result(ShrineState st):
    """R27, R28: a winner only once a Shrine is empty, a draw only at max_turns;
    return whether the game is over."""
    cdef ShrineData* s = &st.s
    cdef int i
    if s.winner != NONE:
        if s.winner == DRAW:
            if s.turn != s.max_turns:
                raise StateFormatError(f"winner: a draw comes only at max_turns "
                                       f"({s.max_turns}), not at turn {s.turn}")
        elif s.shrine_len[1 - s.winner] or not s.shrine_len[s.winner]:
            raise StateFormatError(f"winner: player {s.winner} wins only once the other "
                                   "Shrine is empty")
        s.phase = PH_OVER
        return True
    if s.turn >= s.max_turns:
        raise StateFormatError(f"turn {s.turn} is at max_turns, but the game has no winner")
    if s.phase == PH_OVER:
        raise StateFormatError("phase 'over' needs a winner")
    for i in range(2):
        if s.shrine_len[i] == 0 and s.step != ST_DEAL:
            raise StateFormatError(f"players[{i}].shrine is empty but the game is not over")
    return False


def _check_step(ShrineState st, bint step_given):
    """A chance event's step follows from what it draws; a decision waits."""
    cdef ShrineData* s = &st.s
    if s.phase == PH_CHANCE:
        if s.chance == CH_NONE:
            raise StateFormatError("phase 'chance' needs chance.draw: what is drawn")
        expected = _CHANCE_STEPS[s.chance]
        if step_given and s.step != expected:
            raise StateFormatError(f"a {CHANCES[s.chance]} draw comes in step "
                                   f"{STEPS[expected]!r}, not {STEPS[s.step]!r}")
        s.step = expected
    elif s.chance != CH_NONE:
        raise StateFormatError(f"chance is only for phase 'chance', not {PHASES[s.phase]!r}")
    elif s.step != ST_WAIT:
        raise StateFormatError(f"a decision waits in step 'wait', not {STEPS[s.step]!r}")


def _check_deal(ShrineState st):
    """R4: the deal in progress has dealt Shrines first, then hands, and nothing else."""
    cdef ShrineData* s = &st.s
    cdef int n
    if s.chance == CH_DEAL:
        if s.deal_n >= DEAL_CARDS:
            raise StateFormatError(f"dealt must be below {DEAL_CARDS} during the deal")
        n = s.deal_n
        sizes = [min(n, 5), min(max(n - 5, 0), 5), min(max(n - 10, 0), 5), max(n - 15, 0)]
        if [s.shrine_len[0], s.shrine_len[1], s.hand_len[0], s.hand_len[1]] != sizes \
                or s.grave_len or any(s.field[i // 4][i % 4] != NONE for i in range(8)):
            raise StateFormatError(f"after {n} cards dealt, the Shrines hold {sizes[0]} and "
                                   f"{sizes[1]}, the hands {sizes[2]} and {sizes[3]}, and "
                                   "nothing else is out")
    elif s.deal_n != DEAL_CARDS:
        raise StateFormatError("dealt is only for a deal in progress")


def _check_draws(ShrineState st):
    """Who receives a draw, how many are left and what follows them."""
    cdef ShrineData* s = &st.s
    if s.chance in (CH_HAND, CH_FLIP, CH_HIDDEN, CH_TOKEN) and s.draw_to == NONE:
        raise StateFormatError(f"a {CHANCES[s.chance]} draw needs chance.to: who receives it")
    if s.chance in (CH_HAND, CH_FLIP):
        if s.draws_left < 1:
            raise StateFormatError("chance.left: at least one card is still to draw")
        if s.draws_left > 1 and s.after_draws != ST_BAL_SHRINE:
            raise StateFormatError("chance.left: only a Balance draws several cards in a row")
        allowed = _AFTER_HAND_DRAWS if s.chance == CH_HAND else {ST_AFTER}
        if s.after_draws not in allowed:
            raise StateFormatError(f"chance.then: after these draws comes one of "
                                   f"{', '.join(STEPS[x] for x in sorted(allowed))}")
        if s.chance == CH_HAND and (s.after_draws == ST_BAL_SHRINE) != (s.bal_player != NONE):
            raise StateFormatError("chance.then: 'balance shrine' goes with a Balance")
    if s.chance == CH_FLIP and s.draw_to != s.active:
        raise StateFormatError("chance.to: a heal turns up a card on the active Shrine")


def _check_balance(ShrineState st):
    """S15: a Balance being resolved waits on one of its own events."""
    cdef ShrineData* s = &st.s
    cdef int k
    if s.bal_player != NONE:
        if not s.joker_out:
            raise StateFormatError("balance: a Balance is played with joker_out true")
        if s.bal_return not in _BALANCE_RETURNS:
            raise StateFormatError(f"balance.then: a Balance resumes one of "
                                   f"{', '.join(STEPS[x] for x in sorted(_BALANCE_RETURNS))}")
        if not (s.phase == PH_BAL_DISCARD or s.chance in (CH_HIDDEN, CH_TOKEN)
                or s.after_draws == ST_BAL_SHRINE):
            raise StateFormatError("balance: a Balance waits on a token search, a face-down "
                                   "Shrine card, a hand draw or a discard")
        if s.draw_to != NONE and s.draw_to != 1 - s.bal_player:
            raise StateFormatError("chance.to: the Balance's opponent receives its cards")
    elif s.phase == PH_BAL_DISCARD or s.chance in (CH_HIDDEN, CH_TOKEN):
        raise StateFormatError(f"phase {PHASES[s.phase]!r} needs balance: who played the "
                               "Balance card")
    if s.chance == CH_TOKEN:
        k = s.bal_index
        if k > 3 or s.field[s.bal_player][k] == NONE or s.field[1 - s.bal_player][k] != NONE \
                or k == F_DAGGER and not triad(s, 1 - s.bal_player):
            raise StateFormatError("balance.token: the token kind searched for is one the "
                                   "Balance's player has and the opponent lacks")
        if any(rank_of(s.grave[i]) == token_rank(k) for i in range(s.grave_len)):
            raise StateFormatError("balance.token: the Library is searched only when the "
                                   "Graveyard holds no card of that token kind")


def _check_decision(ShrineState st):
    """Picks only while discarding, as many as the discard asks."""
    cdef ShrineData* s = &st.s
    cdef int n
    phase = PHASES[s.phase]
    if s.phase in _PICK_PHASES:
        n = s.hand_len[decider(s)]
        # A turn's end discards down to the limit, a Balance down to its player's hand,
        # a Fizzle or Counter-Fizzle under alt_fizzle three cards.
        if s.phase == PH_DISCARD:
            most = least = n - HAND_LIMIT
        elif s.phase == PH_BAL_DISCARD:
            most = least = n - s.hand_len[s.bal_player]
        else:
            most, least = min(3, n), 1
        if not least <= s.picks_left <= most or s.picks_left < 1:
            raise StateFormatError(f"picks_left {s.picks_left} does not fit phase {phase!r} "
                                   f"with {n} cards in hand")
    elif s.picks_left:
        raise StateFormatError(f"picks_left is only for discards, not phase {phase!r}")


def _check_shrine_tops(ShrineState st):
    """R5: the top card is face up, save while dealt or added by a Balance (S15); S16: a
    Joker never stays turned up."""
    cdef ShrineData* s = &st.s
    cdef int i, k
    for i in range(2):
        for k in range(s.shrine_len[i]):
            if s.step != ST_DEAL and (s.shrine[i][k] == JOKER | SEEN
                                      or s.shrine[i][k] == JOKER and k == s.shrine_len[i] - 1):
                raise StateFormatError(f"players[{i}].shrine: a Joker turned up is played at "
                                       "once, so none is ever face up or on top")
        if s.shrine_len[i] and not s.shrine[i][s.shrine_len[i] - 1] & SEEN \
                and not (s.step == ST_DEAL or s.step == ST_BAL_SHRINE and i != s.bal_player):
            raise StateFormatError(f"players[{i}].shrine_seen: the top card is always face up")


def _check_start(ShrineState st):
    """R8: an action to take, and at the start a Graveyard card to take."""
    cdef ShrineData* s = &st.s
    if s.phase in (PH_START, PH_ACTION) and s.actions_left == 0:
        raise StateFormatError(f"phase {PHASES[s.phase]!r} needs an action left")
    if s.phase == PH_START and s.grave_len == 0:
        raise StateFormatError("phase 'start' offers the Graveyard's top card: the Graveyard "
                               "is empty")


def _check_pending(ShrineState st):
    """R24: an action is pending exactly while it is answered or its Resurrection's use
    chosen, with the cards it pays with, and it could have been declared."""
    cdef ShrineData* s = &st.s
    cdef int a = s.pending
    phase = PHASES[s.phase]
    if s.phase not in _PENDING_PHASES:
        if a != NONE:
            raise StateFormatError(f"pending: no action is declared in phase {phase!r}")
        return
    if a == NONE:
        raise StateFormatError(f"phase {phase!r} needs pending: the declared action")
    use = family_of(a).flags & FL_RES_USE != 0
    if s.phase == PH_RES_USE:
        if FAMILY_OF[a] != FAMILY_OF[A_RESURRECT]:
            raise StateFormatError("pending.action: phase 'resurrection' follows a Resurrection")
        if s.res_card == NONE or s.res_index != s.grave_len - 1:
            raise StateFormatError("pending.resurrected: the Graveyard's top card, at "
                                   f"resurrected_at {s.grave_len - 1}")
    elif not family_of(a).flags & FL_ANSWERED:
        raise StateFormatError(f"pending.action {a} is not an action that can be answered")
    elif use != (s.res_card != NONE):
        raise StateFormatError("pending.resurrected goes with the use of a Resurrection, "
                               "and only with it")
    _check_pending_cards(st, use)
    if not declared_legally(s):
        raise StateFormatError(f"pending.action {_label(st, a)!r} could not have been "
                               "declared in this position")
    if s.phase == PH_RESPONSE and not response_possible(s):
        raise StateFormatError("phase 'response': the opponent could not answer, so no "
                               "response is asked")
    if s.phase == PH_COUNTER and s.hand_len[s.active] < 3:
        raise StateFormatError("phase 'counter': a Counter-Fizzle needs 3 cards in hand")


def _check_pending_cards(ShrineState st, bint use):
    """The pending cards are those the action pays with; a Resurrection's use follows
    its three cards (R23)."""
    cdef ShrineData* s = &st.s
    cdef uint8_t cards[PEND_SLOTS]
    cdef int i, n = action_cards(s, s.pending, cards)
    expected = [CARD_NAMES[cards[i]] for i in range(n)]
    got = [CARD_NAMES[s.pend[i]] for i in range(s.pend_len)]
    if use:
        run = sorted(rank_of(s.pend[i]) for i in range(min(3, s.pend_len)))
        if len(run) < 3 or not any(sorted(wrap_rank(r + i) for i in range(3)) == run
                                   for r in range(1, 14)):
            raise StateFormatError("pending.cards: a Resurrection's use follows its three "
                                   f"cards of consecutive values, not {got[:3]}")
        got = got[3:]
    if got != expected:
        raise StateFormatError(f"pending.cards for {_label(st, s.pending)!r} are {expected}, "
                               f"not {got}")


cdef bint declared_legally(ShrineData* s) noexcept nogil:
    """Whether the pending action was legal when it was declared: with the cards it
    pays with back in hand (a Resurrection's use keeps its three cards paid), it is
    among the actions then offered.  Token powers count as unused, since which were
    used before it no position records; and a Jack steal needs only the Jack, since a
    Fizzle may have emptied the hand it steals from since (S13)."""
    cdef ShrineData before
    cdef int offered[NUM_ACTIONS]
    cdef int a = s.pending, p = s.active, i, n
    cdef bint use = family_of(a).flags & FL_RES_USE != 0
    cdef int first = 3 if use else 0
    if a == A_JACK:
        return s.field[p][F_JACK] >= 0
    memcpy(&before, s, sizeof(ShrineData))
    before.powers_used = 0
    for i in range(first, s.pend_len):
        before.hand[p][s.pend[i]] += 1
        before.hand_len[p] += 1
    before.pend_len = first
    n = res_uses(&before, offered) if use else main_actions(&before, offered)
    for i in range(n):
        if offered[i] == a:
            return True
    return False


cdef inline int deck_count(ShrineData* s, int kind) noexcept nogil:
    """How many cards of ``kind`` the game's deck holds."""
    if kind == JOKER:
        return 1 if s.balance else 0
    return 2


# --- the deal, rotated through the seats --------------------------------------------------

# Each Shrine is dealt five cards, then each hand five (R4).
DEALT_HAND = DEAL_CARDS // 4


def _just_dealt(ShrineState st):
    """Whether the deal is over, the rules have done what follows it by themselves (a
    Balance card turned up on a Shrine is played: S14), and the first turn's draw is
    awaited: player 0's draw of its turn's card, with nothing yet played."""
    cdef ShrineData* s = &st.s
    return (s.turn == 0 and s.deal_n == DEAL_CARDS and s.phase == PH_CHANCE
            and s.chance == CH_HAND and s.active == 0 and s.draw_to == 0
            and s.draws_left == 1 and s.hand_len[0] == DEALT_HAND
            and s.hand_len[1] == DEALT_HAND and s.grave_len == 0 and s.pending == NONE)


cdef void _swap(void* a, void* b, size_t n) noexcept nogil:
    cdef uint8_t held[MAX_PILES * NUM_KINDS]
    memcpy(held, a, n)
    memcpy(a, b, n)
    memcpy(b, held, n)


def _rotate_deal(ShrineState st, int k):
    """The Shrines and hands change seats, with what each seat knows of them (which
    cards have been seen, and which pile each hidden card came from: R32); the Library,
    the Graveyard and the piles stay.  In two seats, a rotation is a swap."""
    cdef ShrineData* s = &st.s
    _swap(s.hand[0], s.hand[1], sizeof(s.hand[0]))
    _swap(s.seen[0], s.seen[1], sizeof(s.seen[0]))
    _swap(s.hand_pile[0], s.hand_pile[1], sizeof(s.hand_pile[0]))
    _swap(s.shrine[0], s.shrine[1], sizeof(s.shrine[0]))
    _swap(s.shrine_pile[0], s.shrine_pile[1], sizeof(s.shrine_pile[0]))
    _swap(s.field[0], s.field[1], sizeof(s.field[0]))
    s.hand_len[0], s.hand_len[1] = s.hand_len[1], s.hand_len[0]
    s.shrine_len[0], s.shrine_len[1] = s.shrine_len[1], s.shrine_len[0]


def _chance_source(ShrineState st):
    """A Jack's steal takes a card of the opponent's hand; every other draw is the
    Library's."""
    if st.s.chance == CH_STEAL:
        return (1 - st.s.active, "hand")
    return (-1, "library")


def _reset(ShrineState st, game):
    """An empty table under ``game``'s rules: no card anywhere, nothing pending."""
    cdef int p, t
    st.game = game
    memset(&st.s, 0, sizeof(ShrineData))
    params = game.params
    st.s.balance = 2 if params["balance_returns"] else 1 if params["balance"] else 0
    st.s.alt_heal = params["alt_heal"]
    st.s.alt_fizzle = params["alt_fizzle"]
    st.s.max_turns = params["max_turns"]
    for p in range(2):
        for t in range(4):
            st.s.field[p][t] = NONE
    st.s.winner = NONE
    st.s.pending = NONE
    st.s.res_card = NONE
    st.s.bal_player = NONE
    st.s.draw_to = NONE


class ShrineGame(Game):
    """Shrine with its optional rules.

    >>> game = ShrineGame(alt_heal=True)
    >>> str(game)
    'shrine(alt_heal=true)'
    """

    name = "shrine"
    long_name = "Shrine"
    parameters = {"balance": False, "balance_returns": False, "alt_heal": False,
                  "alt_fizzle": False, "max_turns": 400}
    limits = {"max_turns": (1, 30000, "a cap on the game's length")}
    num_players = 2
    num_distinct_actions = NUM_ACTIONS
    max_chance_outcomes = NUM_KINDS + 1
    cards = CARDS
    tensor_layout = LAYOUT
    position_keys = _KNOWN_KEYS
    # The Shrines and hands are what the seats are dealt (docs/rules/shrine.md).
    rotation_refusal = None
    layout = {"status": ("turn", "active", "phase", "step", "actions_left", "winner"),
              "player": ("hand", "field", "shrine"),
              "table": ("library", "graveyard", "powers_used"),
              "red": "^(10|[2-9AJQK])R$",
              "glossary": {
                  "shrine": "the stack each player guards, top card last and face up: "
                            "lose its last card and you lose; it holds 5 (7 with a Triad)",
                  "field": "Tokens in play, a Jack, Queen or King and the Dagger token: "
                           "each grants its power while it stays",
                  "library": "the draw pile",
                  "graveyard": "spent and destroyed cards: its top card may be taken "
                               "at the start of a turn, or put to a use by a Resurrection",
                  "powers_used": "the Token powers used this turn, each once a turn"}}
    render = staticmethod(render)
    status = staticmethod(status)
    card_text = staticmethod(card_text)

    def _check(self):
        # balance_returns is the Balance card with a return: it turns the card on, so
        # that both ways of asking for it are one game.
        if self.params["balance_returns"]:
            self.params["balance"] = True

    @property
    def max_game_length(self):
        # A turn takes at most about 40 steps (draws, two actions with their responses,
        # picks, discards, a Balance); the deal takes 20.
        return DEAL_CARDS + 40 * self.params["max_turns"]

    def new_initial_state(self):
        """A game about to be dealt: the first events are chance deals."""
        cdef ShrineState st = ShrineState.__new__(ShrineState)
        cdef int k
        _reset(st, self)
        for k in range(NUM_KINDS):
            st.s.library[k] = deck_count(&st.s, k)
            st.s.pile[0][k] = st.s.library[k]
            st.s.library_len += st.s.library[k]
        st.s.step = ST_DEAL
        advance(&st.s)
        return st

    def _action_name(self, state, action):
        return _label(state, action)

    def _action_kind(self, ShrineState state, int action):
        # A decision's family (an attack with the King's range is still an attack);
        # a chance event's kind of draw.
        if state.s.phase == PH_CHANCE:
            return CHANCE_WORDS.get(state.s.chance, "chance")
        return FAMILIES[FAMILY_OF[action]].name.decode()

    def _view(self, state, viewer):
        # What a player sees is all it knows: unknown cards show as ``??``, and the piles
        # a hidden card may come from, each known as a set (R32), beside them.
        return _view(state, viewer)

    def _from_dict(self, desc):
        return _from_dict(self, desc)

    def _just_dealt(self, state):
        return _just_dealt(state)

    def _rotate_deal(self, state, k):
        _rotate_deal(state, k)

    def _chance_source(self, state):
        return _chance_source(state)

